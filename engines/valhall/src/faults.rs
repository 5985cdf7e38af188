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
    /// `valhall-fau-hi-as-lo`.
    FauHiAsLo,
    /// `valhall-neg-wrong-source`.
    NegWrongSource,
    /// `i2d-unsigned`.
    I2dUnsigned,
    /// `dneg-as-sub-from-zero`.
    DnegAsSubFromZero,
    /// `u64mul-drops-cross-product`.
    U64MulDropsCrossProduct,
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
    (
        Fault::FauHiAsLo,
        FaultDef {
            name: "valhall-fau-hi-as-lo",
            description: "the FMA.f32 encoder (MUL, MAD, FMA) drops the half bit of a CONST \
                          uniform source: a CONST word in the high half of its 64-bit FAU slot \
                          reads the low half",
            mode: FaultMode::Tgsi,
        },
    ),
    (
        Fault::NegWrongSource,
        FaultDef {
            name: "valhall-neg-wrong-source",
            description: "the FADD encoder writes the .neg modifier of source 1 into source \
                          0's .neg field: a - b runs as -a + b",
            mode: FaultMode::Tgsi,
        },
    ),
    (
        Fault::I2dUnsigned,
        FaultDef {
            name: "i2d-unsigned",
            description: "I2D converts its source as unsigned (lowered as U2D): negative \
                          integers become doubles near 2^32",
            mode: FaultMode::Wide,
        },
    ),
    (
        Fault::DnegAsSubFromZero,
        FaultDef {
            name: "dneg-as-sub-from-zero",
            description: "DNEG computed as 0.0 - x: DNEG(+0.0) gives +0.0 instead of -0.0",
            mode: FaultMode::Wide,
        },
    ),
    (
        Fault::U64MulDropsCrossProduct,
        FaultDef {
            name: "u64mul-drops-cross-product",
            description: "U64MUL built from 32-bit products leaves out a.hi * b.lo: the high \
                          word is wrong whenever the first operand's high word is not zero",
            mode: FaultMode::Wide,
        },
    ),
];

/// The catalogue entries (`Engine::faults`).
pub const CATALOGUE: &[FaultDef] = &[
    FAULTS[0].1,
    FAULTS[1].1,
    FAULTS[2].1,
    FAULTS[3].1,
    FAULTS[4].1,
    FAULTS[5].1,
    FAULTS[6].1,
];

impl Fault {
    /// The fault called `name`, if the valhall engine owns it.
    pub fn from_name(name: &str) -> Option<Fault> {
        FAULTS.iter().find(|(_, d)| d.name == name).map(|(f, _)| *f)
    }
}
