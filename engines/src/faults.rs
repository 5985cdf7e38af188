//! The fault catalogue of the registry (INTERFACE.md `--inject-fault NAME`,
//! `shaderdiff faults`): every built-in engine's catalogued faults, the engine that owns a
//! fault, and engine configurations that switch a fault on in the engine that owns it and
//! nowhere else.

use crate::{self as backends, EngineConfig, FaultDef, ENGINE_NAMES};

/// Every catalogued fault with the engine that owns it, in registry order.
pub fn catalogue() -> Vec<(&'static str, FaultDef)> {
    let config = EngineConfig::default();
    ENGINE_NAMES
        .iter()
        .filter_map(|&n| backends::engine(n, &config).map(|e| (n, e)))
        .flat_map(|(n, e)| e.faults().iter().map(move |f| (n, *f)))
        .collect()
}

/// The engine that owns fault `name`: a catalogued fault, or a test-only one
/// ([`crate::test_faults`]: accepted, never listed).
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
