//! The subcommands of `shaderdiff` (INTERFACE.md "Commands"), one module each; `check` and
//! `run` live in [`crate::cli`] beside the command line itself.
pub mod compile;
pub mod conform;
pub mod conform_worker;
pub mod diff;
pub mod fuzz;
pub mod gen;
pub mod merge;
pub mod reduce;
pub mod valhall;
pub mod worker;
