//! Telling resource exhaustion from engine bugs (docs/campaigns.md "Resources").
//!
//! A worker under `--worker-memory` can run out of address space inside an engine: the
//! Cranelift JIT then fails to map its code pages and reports a compile error
//! ("Allocation error: Cannot allocate memory (os error 12)"), and Rust's allocator aborts
//! with "memory allocation of N bytes failed". Neither says anything about the engine's
//! correctness: running out is the harness's problem, so the program is recorded as
//! poisoned (wasmtime's fuzzers do the same), never as a mismatch.

use crate::diff::{Diff, Outcome};

/// The texts by which a failure says it ran out of memory: ENOMEM's `strerror` and its
/// number as `std::io::Error` prints it, cranelift-module's allocation error, Rust's
/// allocation-failure abort.
const MARKERS: [&str; 5] = [
    "Cannot allocate memory",
    "os error 12",
    "Allocation error",
    "memory allocation of",
    "out of memory",
];

/// Whether an engine's failure message says it ran out of memory.
pub fn exhausted(message: &str) -> bool {
    MARKERS.iter().any(|m| message.contains(m))
}

/// The first engine of `d` whose failure is resource exhaustion, with its message.
pub fn exhausted_engine(d: &Diff) -> Option<(&str, &str)> {
    d.engines.iter().find_map(|e| match &e.outcome {
        Outcome::Failed { message, .. } if exhausted(message) => {
            Some((e.engine.as_str(), message.as_str()))
        }
        _ => None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn enomem_texts_are_exhaustion_and_engine_bugs_are_not() {
        // std::io::Error::from_raw_os_error(12) prints this on Linux (errno ENOMEM).
        let enomem = std::io::Error::from_raw_os_error(libc::ENOMEM).to_string();
        assert!(exhausted(&enomem), "{enomem}");
        assert!(exhausted(&format!(
            "compile error in jit: Allocation error: {enomem}"
        )));
        assert!(!exhausted("compile error in jit: Verifier errors"));
        assert!(!exhausted("trap in jit: integer division by zero"));
    }
}
