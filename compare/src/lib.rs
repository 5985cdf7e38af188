//! The differential core (INTERFACE.md `diff`, `fuzz`, `reduce`): the [`diff::Differ`]
//! runs a program on the oracle and on every other engine and judges each engine against
//! the oracle; [`probe`], [`roots`] and [`signature`] locate the first diverging
//! instruction and name the divergence; [`reduce`] minimizes a diverging program keeping
//! its signature; [`edit`] is the program surgery probes and reduction share;
//! [`nv_runtime`] prepares the inputs of lowered NV programs (regions, bindings).
pub mod diff;
pub mod diff_memory;
pub mod edit;
pub mod nv_runtime;
pub mod probe;
pub mod reduce;
pub mod roots;
pub mod signature;
