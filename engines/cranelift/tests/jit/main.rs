//! The jit engine on whole programs: divergent control flow, KILL/DEMOTE, derivatives,
//! per-invocation indirect addressing, the step budget and errors. Expected values come from
//! tgsi.rst, EXEC-NOTES.md and the oracle's documented contract (cited per test); every run
//! is also compared with the reference interpreter.

mod errors;
mod kill_deriv;
mod libcall_slots;
mod memory;
mod memory_random;
mod operands;
mod support;
