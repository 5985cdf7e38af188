//! The reference interpreter.
pub mod lanes;
pub mod alu;
