//! shaderdiff's command-line side: the `shaderdiff` command line ([`cli`]), program files
//! ([`lang`]), the inputs file ([`inputs`], [`value`]) and run output ([`output`]) formats
//! of INTERFACE.md.

/// The memory allocator of every program that links shaderdiff (the CLI, its tests and
/// benches): mimalloc. A campaign allocates and frees without pause (Cranelift's compile,
/// the Valhall engine, the oracle's outputs); with glibc's malloc about a tenth of its CPU
/// went into the allocator (docs/performance.md, "Step 13, the memory allocator").
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

pub mod cli;
pub mod cmd;
pub mod common;
pub mod cpu_clock;
pub mod death_reduce;
pub mod faults;
pub mod fuzz;
pub mod fuzz_chunk;
pub mod fuzz_item;
pub mod fuzz_staging;
pub mod fuzz_worker;
pub mod fuzzing;
pub mod inputs;
pub mod inputs_json;
mod inputs_tex;
pub mod isolate;
pub mod lang;
pub mod lock;
pub mod outcomes;
pub mod output;
pub mod output_memory;
pub mod progress;
pub mod recorded;
pub mod report;
pub mod resource;
pub mod signals;
pub mod triage;
pub mod value;

// The differential core lives in the `shaderdiff-compare` crate; its modules keep their
// paths here (`shaderdiff::diff::Differ`, `crate::reduce::reduce`, ...).
pub use shaderdiff_compare::{
    diff, diff_memory, edit, engine_limits, limits, nv_runtime, probe, reduce, roots, signature,
};
