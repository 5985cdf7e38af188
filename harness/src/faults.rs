//! Fault injection plumbing (INTERFACE.md `--inject-fault NAME`, `shaderdiff faults`): the
//! name validation and the listing, over the catalogue and the engine configurations of
//! [`shaderdiff_backends::faults`] (re-exported here).

pub use shaderdiff_backends::faults::{catalogue, config_for, owner};

use crate::common::Failure;

/// Checks `--inject-fault NAME`: `Ok(None)` without the flag, `Ok(Some(owner))` for a
/// catalogued fault.
///
/// # Errors
/// [`Failure::BadInput`] (exit 2) naming the unknown fault and pointing at `shaderdiff faults`.
pub fn check(fault: Option<&str>) -> Result<Option<&'static str>, Failure> {
    let Some(name) = fault else { return Ok(None) };
    owner(name).map(Some).ok_or_else(|| {
        let known: Vec<&str> = catalogue().iter().map(|(_, f)| f.name).collect();
        Failure::BadInput(format!(
            "--inject-fault {name}: no such fault (known: {}; see `shaderdiff faults`)",
            if known.is_empty() {
                "none".to_string()
            } else {
                known.join(", ")
            }
        ))
    })
}

/// `shaderdiff faults`: one line per fault, `NAME ENGINE DESCRIPTION`.
pub fn listing() -> String {
    catalogue()
        .iter()
        .map(|(e, f)| format!("{} {e} {}\n", f.name, f.description))
        .collect()
}
