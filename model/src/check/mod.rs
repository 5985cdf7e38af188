//! The checks every engine runs on a program before its own work, exactly as the reference
//! interpreter decides them, so that all engines accept and reject the same programs and
//! inputs with the same messages: validity, supported opcodes and forms, register spaces
//! and the accepted inputs ([`shape::Shape`]), memory resources and texture units.
//!
//! [`decode`] turns a program once into its checked, decoded form (operand storage slots,
//! fetch types, control-flow partners), which the oracle's interpreter executes; engines use
//! [`shape::Shape`] and the facts in [`alu`], [`memory`] and [`texture`]. No semantics here:
//! what an instruction computes is each engine's own.

pub mod alu;
pub mod decode;
pub mod interpolate;
pub mod layout;
pub mod memory;
pub mod shape;
pub mod texture;
pub mod vote;

use crate::{Opcode, Pos};

/// Invocations the oracle runs in lockstep (its `interp::lanes::LANES`): BARRIER is
/// supported only for workgroup sizes that divide it ([`memory::check_workgroups`]).
pub const CHUNK_LANES: usize = 64;
use thiserror::Error;

/// Maximum nesting of CAL (main program = depth 0).
pub const MAX_CALL_DEPTH: usize = 64;

/// Why a run produced no outputs.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ExecError {
    /// The program is valid but uses something the interpreter does not implement
    /// (images, cube/shadow textures, BALLOT, READ_INVOC, INTERP_*, NV condition codes, `_SAT` on 64-bit results ...).
    /// Detected before anything runs. CLI exit status 3.
    #[error("{}unsupported: {opcode}: {reason}", pos_prefix(.pos))]
    Unsupported {
        /// The offending opcode.
        opcode: Opcode,
        /// Where it is in the source, when known.
        pos: Option<Pos>,
        /// What is not supported.
        reason: String,
    },
    /// The program uses a feature the interpreter does not implement outside of any one
    /// opcode (a register file too large to hold, an operand in a file it cannot read).
    /// CLI exit status 3.
    #[error("{}unsupported: {reason}", pos_prefix(.pos))]
    UnsupportedFeature {
        /// Where, when known.
        pos: Option<Pos>,
        /// What is not supported.
        reason: String,
    },
    /// The program is malformed in a way the interpreter detects (unbalanced control
    /// flow, KILL outside a fragment program, immediate index out of range ...).
    /// CLI exit status 2.
    #[error("{}invalid program: {message}", pos_prefix(.pos))]
    InvalidProgram {
        /// Where, when known.
        pos: Option<Pos>,
        /// What is wrong.
        message: String,
    },
    /// The inputs do not fit the program: invocation count not a multiple of 4 for a
    /// fragment program, a register the program does not declare, a per-invocation list
    /// whose length is neither 1 nor the invocation count. CLI exit status 2.
    #[error("invalid inputs: {0}")]
    InvalidInputs(String),
    /// An invocation executed more than `limit` instructions.
    #[error("step limit exceeded ({limit} steps) in invocation {invocation}")]
    StepLimit {
        /// The configured limit.
        limit: u64,
        /// The first invocation found over the limit.
        invocation: usize,
    },
    /// Subroutine calls nested deeper than `limit` (e.g. unbounded recursion).
    #[error("call depth exceeded ({limit} nested CAL) in invocation {invocation}")]
    CallDepth {
        /// [`MAX_CALL_DEPTH`].
        limit: usize,
        /// The first executing invocation of the chunk that made the call.
        invocation: usize,
    },
}

fn pos_prefix(pos: &Option<Pos>) -> String {
    match pos {
        Some(p) => format!("{p}: "),
        None => String::new(),
    }
}

/// How source modifiers apply to an operand (EXEC-NOTES.md §1, operand fetch):
/// float abs clears bit 31 and float negate flips it; integer abs/negate are two's complement.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FetchType {
    /// Modifiers are float operations.
    Float,
    /// Modifiers are integer operations.
    Int,
}
