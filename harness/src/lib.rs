//! shaderdiff's command-line side: the `shaderdiff` command line ([`cli`]), program files
//! ([`lang`]), the inputs file ([`inputs`], [`value`]) and run output ([`output`]) formats
//! of INTERFACE.md.
pub mod cli;
pub mod cmd;
pub mod common;
pub mod death_reduce;
pub mod diff;
pub mod diff_memory;
pub mod edit;
pub mod faults;
pub mod fuzz;
pub mod fuzz_chunk;
pub mod fuzz_item;
pub mod fuzz_worker;
pub mod fuzzing;
pub mod inputs;
pub mod inputs_json;
mod inputs_tex;
pub mod isolate;
pub mod lang;
pub mod nv_runtime;
pub mod output;
pub mod output_memory;
pub mod probe;
pub mod progress;
pub mod reduce;
pub mod report;
pub mod roots;
pub mod signature;
pub mod value;
