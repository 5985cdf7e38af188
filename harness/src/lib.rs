//! shaderdiff's command-line side: the `shaderdiff` command line ([`cli`]), program files
//! ([`lang`]), the inputs file ([`inputs`], [`value`]) and run output ([`output`]) formats
//! of INTERFACE.md.
pub mod cli;
pub mod gen_cmd;
pub mod inputs;
pub mod inputs_json;
pub mod lang;
pub mod output;
pub mod value;
