//! The subcommands of `shaderdiff` (INTERFACE.md "Commands"), one module each. They use
//! the shared helpers of [`crate::common`]; nothing below imports them.
pub mod check;
pub mod compile;
pub mod conform;
pub mod conform_worker;
pub mod diff;
pub mod fuzz;
pub mod gen;
pub mod merge;
pub mod reduce;
pub mod run;
pub mod valhall;
pub mod worker;
