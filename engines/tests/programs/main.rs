//! Whole-program tests (divergent control flow, KILL/DEMOTE, derivatives, indirect and
//! 2-D operands, undefinedness) run on every registered engine through the shared helper
//! (`support::programs`): each program, its inputs and its expected outputs are written
//! once. Expected values are worked by hand from tgsi.rst, TEXT-FORMAT.md examples and
//! EXEC-NOTES.md, as each test's comment shows.

#[path = "../support/mod.rs"]
mod support;

mod control_flow;
mod control_flow_quads;
mod errors;
mod geometry;
mod kill_deriv;
mod operands;
mod texture;
mod undefined;
