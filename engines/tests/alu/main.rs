//! ALU value tables, run on every registered engine through the shared helper
//! (`support::rows`): each table is written once; each row is one invocation of a
//! one-instruction program per opcode; every engine must give the table's value
//! (bit-exactly, or within the stated ulp bound for approximate opcodes), and the oracle
//! must flag exactly the channels the table calls undefined.
//!
//! Expected values come from tgsi.rst formulas, EXEC-NOTES.md [run] values and hand
//! computation, never from running our code; each table cites its source.

#[path = "../support/mod.rs"]
mod support;

mod basics;
mod convert;
mod double;
mod float;
mod int;
mod int64;
mod modifiers64;
mod special;
