//! shaderdiff's comparators: an engine's outputs against the oracle's acceptance intervals
//! ([`output`]), its final memory ([`memory`]) and its atomic log ([`atomic`]).
pub mod atomic;
pub mod memory;
pub mod output;
