//! shaderdiff's command-line side: the inputs file ([`inputs`], [`value`]) and run output
//! ([`output`]) formats of INTERFACE.md.
pub mod inputs;
pub mod output;
pub mod value;
