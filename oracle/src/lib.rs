//! shaderdiff's oracle: the reference interpreter ([`interp`]), its acceptance intervals and
//! the precision contract ([`precision`]), and the oracle's atomic arithmetic ([`atomic`]).
//! The inputs/outputs ([`io`]) and texture model ([`texture`]) are the model's
//! (`shaderdiff_model`), re-exported here.
//!
//! ```text
//! let outputs = shaderdiff_oracles::interp::run(&program, &inputs, &InterpConfig::default())?;
//! ```
//!
//! [`interp::run`] takes a parsed [`shaderdiff_model::Program`] and [`Inputs`] and returns
//! [`Outputs`] or an [`interp::ExecError`] (unsupported opcode, invalid inputs, step limit).
//!
//! The differential side: [`precision`] loads the precision contract
//! (`oracle/precision.toml`: per-opcode bounds per engine class), and
//! [`interp::run_with_intervals`] computes the oracle's per-channel acceptance intervals for
//! a class; the comparators (crate `shaderdiff-compare`) check an engine's outputs against
//! them, producing INTERFACE.md mismatch records.
pub mod atomic;
pub mod interp;
pub mod precision;
pub use interp::{ExecError, InterpConfig};
pub use io::{emitted_key, EmitRecord, Inputs, Interval, Intervals, Outputs, RegKey, Vec4};
/// The data model's inputs/outputs and texture model, under the paths the oracle had.
pub use shaderdiff_model::{io, texture};
