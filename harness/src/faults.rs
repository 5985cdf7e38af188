//! Fault injection plumbing (INTERFACE.md `--inject-fault NAME`, `shaderdiff faults`): the
//! name validation and the listing, over the catalogue and the engine configurations of
//! [`shaderdiff_backends::faults`] (re-exported here).

pub use shaderdiff_backends::faults::{catalogue, config_for, owner};
use shaderdiff_backends::{test_faults, FaultMode};

use crate::common::Failure;

/// The generator mode fault `name` needs (its catalogue entry's
/// [`shaderdiff_backends::FaultDef::mode`]; test-only faults: the default), `None` for an
/// unknown name.
pub fn mode(name: &str) -> Option<FaultMode> {
    test_faults::TEST_FAULTS
        .iter()
        .copied()
        .chain(catalogue().into_iter().map(|(_, f)| f))
        .find(|f| f.name == name)
        .map(|f| f.mode)
}

/// The `fuzz` flags that select generator mode `mode` (empty for the default).
pub fn mode_flags(mode: FaultMode) -> &'static str {
    match mode {
        FaultMode::Tgsi => "",
        FaultMode::Wide => "--64bit",
        FaultMode::Memory => "--memory",
        FaultMode::NvAlu => "--lang nv --nv-alu-only",
        FaultMode::Nv => "--lang nv",
    }
}

/// A short name of generator mode `mode`, as `shaderdiff faults` prints it.
pub fn mode_name(mode: FaultMode) -> &'static str {
    match mode {
        FaultMode::Tgsi => "tgsi",
        FaultMode::Wide => "64bit",
        FaultMode::Memory => "memory",
        FaultMode::NvAlu => "nv-alu",
        FaultMode::Nv => "nv",
    }
}

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
