//! shaderdiff's program model: what every front-end produces and every engine consumes.
//! It depends on no other shaderdiff crate; the text front-ends (`shaderdiff-tgsi`,
//! `shaderdiff-nv`) build it.
//!
//! * [`program`]: the semantic IR shared by every engine (vec4 registers, typed
//!   opcodes, writemasks, swizzles, modifiers, indirect and 2-D addressing,
//!   structured control flow, subroutines; NV condition codes), with the front-end's
//!   origin as opaque metadata ([`SourceMap::origin`]).
//! * [`opcode`]: the opcode table generated from opcodes.csv.
//! * [`structure`]: control-flow matching recomputed from the program.
//! * [`infer`]: per-channel type inference used by the comparators.
//! * [`text`]: register spelling shared by the TGSI printer and validation messages.
//! * [`validate`]: semantic checks (declared registers, index ranges, structure).
//! * [`wide`], [`wide_modifiers`]: the 64-bit channel layouts and the meaning of source
//!   modifiers on 64-bit operands, shared by every engine.
//! * [`check`]: the pre-run checks every engine shares (validity, register spaces,
//!   accepted inputs, [`check::ExecError`]).
//! * [`io`]: an engine's inputs and outputs (INTERFACE.md "The inputs file"), per-channel
//!   acceptance intervals.
//! * [`texture`]: the texture model (targets, formats, wrap and filter modes, texel data).
//! * [`atomic`]: atomic operations and the records engines log for them (no arithmetic).
//! * [`edit`]: rebuilding a program's instruction list (labels and positions kept).

pub mod atomic;
pub mod atomic64;
pub mod check;
pub mod edit;
pub mod error;
pub mod infer;
pub mod io;
pub mod names;
pub mod opcode;
pub mod program;
pub mod structure;
pub mod text;
pub mod texture;
pub mod types;
pub mod validate;
pub mod wide;
pub mod wide_modifiers;

// Lets files moved here from crates that imported the model keep `shaderdiff_model::` paths.
extern crate self as shaderdiff_model;

pub use error::ParseError;
pub use infer::{infer_types, TypeMap};
pub use io::{emitted_key, EmitRecord, Inputs, Interval, Intervals, Outputs, RegKey, Vec4};
pub use names::*;
pub use opcode::{OpInfo, Opcode, OutputMode, ALL_OPCODES};
pub use program::*;
pub use structure::{Structure, StructureError, Subroutine, NO_PARTNER};
pub use types::{ChannelType, ScalarType};
