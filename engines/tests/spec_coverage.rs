//! `gen --spec` covers every opcode the reference interpreter
//! implements — each appears in at least one spec-derived program.

use std::collections::BTreeSet;

use shaderdiff_generators::spec::{suite, SpecConfig};

#[test]
fn the_spec_suite_uses_every_implemented_opcode() {
    let interp = shaderdiff_backends::engine("interp", &Default::default()).expect("interp");
    let used: BTreeSet<_> = suite(&SpecConfig::default())
        .iter()
        .flat_map(|c| c.program.instructions.iter().map(|i| i.opcode))
        .collect();
    let missing: Vec<_> = interp
        .capabilities()
        .opcodes
        .iter()
        .filter(|op| !used.contains(op))
        .collect();
    assert!(missing.is_empty(), "no spec program uses {missing:?}");
}
