//! The valhall engine's fault catalogue: deliberate, realistic miscompilations that
//! `--inject-fault NAME` switches on ([`shaderdiff_engine::EngineConfig::fault`]), so anyone
//! can check that the differential loop finds and reduces them (`fuzz --inject-fault`, `shaderdiff faults`).
//! The compiler asks [`Fault`] at the sites marked `FAULT HOOK` in `compile/`; without the
//! fault the generated code carries no trace of it.

use shaderdiff_engine::{FaultDef, FaultMode};

/// One catalogued fault of the valhall engine.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Fault {
    /// `u64add-no-carry`.
    U64AddNoCarry,
    /// `atomic-lost-update`.
    AtomicLostUpdate,
}

/// Every fault with its catalogue entry, in `shaderdiff faults` order.
const FAULTS: &[(Fault, FaultDef)] = &[
    (
        Fault::U64AddNoCarry,
        FaultDef {
            name: "u64add-no-carry",
            description:
                "U64ADD drops the carry from the low word into the high word (a 64-bit carry bug)",
            mode: FaultMode::Wide,
        },
    ),
    (
        Fault::AtomicLostUpdate,
        FaultDef {
            name: "atomic-lost-update",
            description: "ATOMUADD compiles to a plain LOAD, IADD, STORE (not atomic): \
                          concurrent adds to one location lose updates",
            mode: FaultMode::Memory,
        },
    ),
];

/// The catalogue entries (`Engine::faults`).
pub const CATALOGUE: &[FaultDef] = &[FAULTS[0].1, FAULTS[1].1];

impl Fault {
    /// The fault called `name`, if the valhall engine owns it.
    pub fn from_name(name: &str) -> Option<Fault> {
        FAULTS.iter().find(|(_, d)| d.name == name).map(|(f, _)| *f)
    }
}
