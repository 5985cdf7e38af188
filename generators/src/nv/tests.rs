//! Validity and determinism of the NV generator.

use super::*;
use shaderdiff_nv as nv;

/// Every generated program parses, prints to text that parses back to the same tree,
/// and lowers (a refusal is a generator bug).
#[test]
fn programs_parse_roundtrip_and_lower() {
    let mut kinds = std::collections::BTreeSet::new();
    for index in 0..3000 {
        let g = match generate(7, index, 40, 16) {
            Ok(g) => g,
            Err(e) => {
                let (_, text) = build_text(&mut program_choices(7, index), 40);
                panic!("seed 7 index {index}: {e}\n{text}");
            }
        };
        kinds.insert(g.kind.header());
        let again = nv::parse(&g.text, "again.nv").expect("stamped text parses");
        assert_eq!(again, g.ast, "index {index}: print/parse round trip");
        assert_eq!(nv::print(&again), nv::print(&g.ast));
    }
    assert_eq!(kinds.len(), 6, "all six headers are drawn: {kinds:?}");
}

/// The same seed and index give the same text and inputs (global regions, buffers and
/// textures included); different indices differ.
#[test]
fn generation_is_deterministic() {
    for index in 0..150 {
        let a = generate(3, index, 30, 8).expect("valid");
        let b = generate(3, index, 30, 8).expect("valid");
        assert_eq!(a.text, b.text);
        assert_eq!(a.inputs, b.inputs);
    }
    let texts: std::collections::BTreeSet<String> = (0..50)
        .map(|i| generate(3, i, 30, 8).expect("valid").text)
        .collect();
    assert!(texts.len() > 45, "programs vary by index");
}

/// Inputs name every attribute and `program.local[n]` the program declares, with NV
/// names in the name map; fragment invocations are whole quads.
#[test]
fn inputs_cover_the_declared_bindings() {
    for index in 0..200 {
        let g = generate(11, index, 20, 6).expect("valid");
        if matches!(g.kind, NvKind::NvGeometry | NvKind::NvCompute) {
            // Per-vertex inputs and `invocation.*` bindings: tests_features.rs.
            continue;
        }
        let stage = g.lowered.stage;
        let locals = g.text.matches("program.local[").count();
        assert_eq!(g.inputs.constants.len(), locals, "{}", g.text);
        for i in 0..locals {
            let (f, r) = g
                .lowered
                .names
                .lookup(stage, &format!("program.local[{i}]"))
                .expect("local named");
            assert!(g.inputs.constants.contains_key(&RegKey::new(f, r)));
        }
        let attribs = g.text.matches("ATTRIB ").count();
        assert_eq!(g.inputs.registers.len(), attribs, "{}", g.text);
        let frag = g.text.starts_with("!!NVfp") || g.text.starts_with("!!ARBfp");
        assert_eq!(g.inputs.invocations, if frag { 8 } else { 6 });
        for v in g.inputs.registers.values() {
            assert_eq!(v.len(), g.inputs.invocations);
        }
    }
}

/// Any bytes give a valid NV program; the same bytes the same program.
#[test]
fn fuzz_bytes_always_give_valid_programs() {
    let mut data = Vec::new();
    for i in 0..600u32 {
        let p = NvFuzzProgram::from_bytes(&data).expect("valid");
        let q = NvFuzzProgram::from_bytes(&data).expect("valid");
        assert_eq!(p.text, q.text);
        assert_eq!(p.inputs, q.inputs);
        assert_eq!(p.inputs.invocations % 4, 0);
        data.push((i.wrapping_mul(2_654_435_761) >> 13) as u8);
    }
    for data in [&b""[..], b"\0", &[0xff; 64]] {
        NvFuzzProgram::from_bytes(data).expect("valid");
    }
}

/// ARB-only mode: every program is `!!ARBfp1.0` / `!!ARBvp1.0`, parses back to itself and
/// lowers, and together they use every ARB ALU instruction of their stage.
#[test]
fn arb_only_programs_are_valid_and_cover_the_arb_instructions() {
    let mut ops = std::collections::BTreeSet::new();
    for index in 0..2000 {
        let g = generate_arb(5, index, 40, 8).unwrap_or_else(|e| panic!("index {index}: {e}"));
        assert!(matches!(g.kind, NvKind::ArbFragment | NvKind::ArbVertex));
        let again = nv::parse(&g.text, "again.nv").expect("stamped text parses");
        assert_eq!(again, g.ast, "index {index}: print/parse round trip");
        for insn in g.ast.instructions() {
            ops.insert(format!("{:?}", insn.opcode).to_uppercase());
        }
    }
    for op in [
        "SUB", "DPH", "DST", "LIT", "XPD", "RCP", "RSQ", "EX2", "LG2", "POW", "SWZ", "CMP", "LRP",
        "SIN", "COS", "SCS", "EXP", "LOG", "KIL", "MAD", "FRC",
    ] {
        assert!(ops.contains(op), "{op} never drawn: {ops:?}");
    }
    // Separate key: the NV streams are unchanged by ARB-only mode.
    assert_ne!(
        generate_arb(5, 0, 40, 8).unwrap().text,
        generate(5, 0, 40, 8).unwrap().text
    );
}

/// `--64bit` NV programs (emit/wide.rs) parse, lower and round-trip, draw the 64-bit
/// statements, and leave the default streams alone.
#[test]
fn wide_programs_lower_and_cover_the_64_bit_statements() {
    let mut seen = std::collections::BTreeSet::new();
    for index in 0..300 {
        let g = super::generate_with(3, index, 40, 8, true)
            .unwrap_or_else(|e| panic!("index {index}: {e}"));
        let again = shaderdiff_nv::parse(&g.text, "again.nv").expect("reparses");
        assert_eq!(again, g.ast, "index {index}: print/parse round trip");
        for insn in g.ast.instructions() {
            if let Some(t) = insn.mods.ty {
                if t.bits() == Some(64) || insn.mods.ty2.and_then(|u| u.bits()) == Some(64) {
                    seen.insert(format!("{:?}.{}", insn.opcode, t.name()).to_uppercase());
                }
            }
            if matches!(format!("{:?}", insn.opcode).as_str(), "Pk64" | "Up64") {
                seen.insert(format!("{:?}", insn.opcode).to_uppercase());
            }
        }
        let plain = super::generate_with(3, index, 40, 8, false).expect("plain");
        assert_eq!(plain.text, generate(3, index, 40, 8).unwrap().text);
    }
    for want in [
        "PK64", "UP64", "ADD.F64", "MUL.S64", "SHL.U64", "SEQ.F64", "CVT.F64", "I2F.S64",
    ] {
        assert!(
            seen.iter().any(|s| s.starts_with(want)),
            "{want} never drawn: {seen:?}"
        );
    }
}
