//! shaderdiff's findings store: what a differential campaign (`shaderdiff fuzz`) leaves on
//! disk, exactly as INTERFACE.md "`fuzz` output directory" lays it out.
//!
//! ```text
//! DIR/summary.json                      Summary (written periodically and at the end)
//! DIR/findings/<signature>/program.tgsi the original failing program
//! DIR/findings/<signature>/inputs.json  inputs that show the finding with reduced.tgsi
//! DIR/findings/<signature>/reduced.tgsi the minimized reproducer
//! DIR/findings/<signature>/report.json  the `diff --format json` report of reduced.tgsi
//! ```
//!
//! * [`signature`]: the deduplication key of a finding ([`Signature`]: engine, opcode class
//!   of the first diverging instruction, value type) and its file-system-safe text form.
//! * [`store`]: the directory ([`Store`]): every file is written atomically (temporary file
//!   in the same directory, then rename), so an interrupted campaign never leaves a
//!   half-written file and never loses a finding already written.
//! * [`summary`]: `summary.json` ([`Summary`]).
//! * [`merge_check`]: which shard summaries `shaderdiff merge` may combine.
//! * [`conform`]: conformance statuses, baselines, `results.csv`/`failures.csv`, partitions
//!   and the JUnit report of `shaderdiff conform`.

pub mod conform;
pub mod merge_check;
pub mod signature;
pub mod store;
pub mod summary;

pub use signature::{Signature, SignatureError};
pub use store::{atomic_write, Store, StoreError};
pub use summary::{FindingEntry, Summary, SummaryStatus};
