//! The reference interpreter.
pub mod lanes;
