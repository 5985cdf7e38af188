//! shaderdiff's comparison, in two layers. The comparators judge an engine's outputs
//! against the oracle's acceptance intervals ([`output`]), its final memory ([`memory`])
//! and its atomic log ([`atomic`]). The differential core (INTERFACE.md `diff`, `fuzz`,
//! `reduce`) builds on them: the [`diff::Differ`] runs a program on the oracle and on every
//! other engine and judges each engine against the oracle, taking the oracle's plain run as a
//! shortcut to agreement where it settles the verdict ([`point`]); [`probe`], [`roots`] and
//! [`signature`] locate the first diverging instruction and name the divergence; [`reduce`]
//! minimizes a diverging program keeping its signature; [`edit`] is the program surgery
//! probes and reduction share; [`nv_runtime`] prepares the inputs of lowered NV programs
//! (regions, bindings).
pub mod atomic;
pub mod diff;
pub mod diff_memory;
pub mod edit;
pub mod engine_limits;
pub mod known;
pub mod limits;
pub mod memory;
pub mod nv_runtime;
pub mod outcomes;
pub mod output;
pub mod point;
pub mod probe;
pub mod probe_time;
pub mod reduce;
pub mod roots;
pub mod signature;
