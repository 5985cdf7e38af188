//! shaderdiff's oracle side: engine inputs/outputs ([`io`]) and the reference interpreter ([`interp`]).
pub mod interp;
pub mod io;
pub use io::{Inputs, Outputs, RegKey, Vec4};
