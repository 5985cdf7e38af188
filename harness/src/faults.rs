//! Fault injection plumbing (INTERFACE.md `--inject-fault NAME`, `shaderdiff faults`): the
//! catalogue of every engine in the registry, name validation, and engine configurations
//! that switch a fault on in the engine that owns it and nowhere else.

use shaderdiff_backends::{self as backends, EngineConfig, FaultDef, FaultMode, ENGINE_NAMES};

use crate::cli::Failure;

/// Every catalogued fault with the engine that owns it, in registry order.
pub fn catalogue() -> Vec<(&'static str, FaultDef)> {
    let config = EngineConfig::default();
    ENGINE_NAMES
        .iter()
        .filter_map(|&n| backends::engine(n, &config).map(|e| (n, e)))
        .flat_map(|(n, e)| e.faults().iter().map(move |f| (n, *f)))
        .collect()
}

/// The generator mode fault `name` needs (its catalogue entry's [`FaultDef::mode`]; test-only
/// faults: the default), `None` for an unknown name.
pub fn mode(name: &str) -> Option<FaultMode> {
    backends::test_faults::TEST_FAULTS
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

/// The engine that owns fault `name`: a catalogued fault, or a test-only one
/// ([`backends::test_faults`]: accepted, never listed).
pub fn owner(name: &str) -> Option<&'static str> {
    if backends::test_faults::TEST_FAULTS
        .iter()
        .any(|f| f.name == name)
    {
        return Some(backends::test_faults::TEST_FAULT_ENGINE);
    }
    catalogue()
        .into_iter()
        .find(|(_, f)| f.name == name)
        .map(|(e, _)| e)
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

/// The configuration of engine `engine`: `step_limit`, and `fault` only when `engine` owns it.
pub fn config_for(engine: &str, step_limit: u64, fault: Option<&str>) -> EngineConfig {
    EngineConfig {
        step_limit,
        fault: fault
            .filter(|f| owner(f) == Some(engine))
            .map(str::to_string),
        ..EngineConfig::default()
    }
}

/// `shaderdiff faults`: one line per fault, `NAME ENGINE DESCRIPTION`.
pub fn listing() -> String {
    catalogue()
        .iter()
        .map(|(e, f)| format!("{} {e} {}\n", f.name, f.description))
        .collect()
}
