//! shaderdiff's command-line side: the `shaderdiff` command line ([`cli`]), program files
//! ([`lang`]), the inputs file ([`inputs`], [`value`]) and run output ([`output`]) formats
//! of INTERFACE.md.
pub mod cli;
pub mod compile_cmd;
pub mod conform_cmd;
pub mod diff;
pub mod diff_cmd;
pub mod edit;
pub mod faults;
pub mod fuzz;
pub mod fuzz_cmd;
pub mod gen_cmd;
pub mod inputs;
pub mod inputs_json;
pub mod lang;
pub mod merge_cmd;
pub mod output;
pub mod probe;
pub mod reduce;
pub mod reduce_cmd;
pub mod report;
pub mod roots;
pub mod signature;
pub mod value;
