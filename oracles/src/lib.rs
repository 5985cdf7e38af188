//! shaderdiff's oracle side: engine inputs/outputs ([`io`]) and the reference interpreter
//! ([`interp`]).
//!
//! ```text
//! let outputs = shaderdiff_oracles::interp::run(&program, &inputs, &InterpConfig::default())?;
//! ```
//!
//! [`interp::run`] takes a parsed [`shaderdiff_ir::Program`] and [`Inputs`] and returns
//! [`Outputs`] or an [`interp::ExecError`] (unsupported opcode, invalid inputs, step limit).
pub mod interp;
pub mod io;
pub mod precision;
pub use interp::{ExecError, InterpConfig};
pub use io::{Inputs, Outputs, RegKey, Vec4};
