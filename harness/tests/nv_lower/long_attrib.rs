//! `LONG ATTRIB` (NV_gpu_program5 issue 6: 64-bit vertex attributes fed by VertexAttribL*,
//! "The LONG modifier can only be used [for] vertex program inputs"): the attribute's x, y
//! are the input `vertex.attrib[n]` (lo, hi, lo, hi words) and its z, w the input
//! `vertex.attrib[n].zw`; every engine reads them as 64-bit components.

use shaderdiff_backends::{engine, EngineConfig, Inputs, ENGINE_NAMES};
use shaderdiff_nv as nv;
use shaderdiff_oracles::RegKey;

/// x = 2^32 + 1, y = 2^63, z = 5, w = 2^64 - 1, doubled with ADD.U64 (wrapping, § ADD):
/// 2^33 + 2 = (2, 2), 2^64 wraps to 0, 10, 2^65 - 2 wraps to 2^64 - 2 = (0xFFFFFFFE,
/// 0xFFFFFFFF); result.attrib[0] = UP64 of (x, y), result.attrib[1] = UP64 of (z, w).
#[test]
fn long_attributes_are_read_as_64_bit_components() {
    let text = "!!NVvp5.0\nLONG ATTRIB v = vertex.attrib[1];\nLONG TEMP d;\nADD.U64 d, v, v;\n\
                UP64.U result.attrib[0], d;\nUP64.U result.attrib[1], d.zwzw;\nEND\n";
    let p = nv::parse(text, "long.nv").expect("parses");
    let l = nv::lower(&p).expect("lowers");
    let mut inputs = Inputs {
        invocations: 1,
        ..Inputs::default()
    };
    for (name, words) in [
        ("vertex.attrib[1]", [1, 1, 0, 0x8000_0000]),
        ("vertex.attrib[1].zw", [5, 0, u32::MAX, u32::MAX]),
    ] {
        let (f, i) = l.names.lookup(l.stage, name).expect("input named");
        inputs.registers.insert(RegKey::new(f, i), vec![words]);
    }
    // The variable's names reach the same inputs.
    assert_eq!(
        l.names.lookup(l.stage, "v.zw"),
        l.names.lookup(l.stage, "vertex.attrib[1].zw")
    );
    let key = |n: &str| {
        let (f, i) = l.names.lookup(l.stage, n).expect("output");
        RegKey::new(f, i)
    };
    for name in ENGINE_NAMES {
        let e = engine(name, &EngineConfig::default()).expect("engine");
        let out = e.execute(&l.program, &inputs).expect("runs");
        assert_eq!(
            out.registers[&key("result.attrib[0]")][0],
            [2, 2, 0, 0],
            "{name}"
        );
        assert_eq!(
            out.registers[&key("result.attrib[1]")][0],
            [10, 0, 0xFFFF_FFFE, 0xFFFF_FFFF],
            "{name}"
        );
    }
}

/// LONG outside vertex program attributes is invalid; writing the attribute does not
/// parse (attributes are read-only); conventional attributes are refused (VertexAttribL
/// feeds generic attributes only).
#[test]
fn long_attribute_errors() {
    let text = "!!NVfp5.0\nLONG ATTRIB v = fragment.attrib[1];\nEND\n";
    let p = nv::parse(text, "t.nv").unwrap_or_else(|e| panic!("{text}: {e}"));
    let e = nv::lower(&p).expect_err(text);
    assert!(
        matches!(e, nv::LowerError::Invalid { .. }) && (e.pos().line, e.pos().col) == (2, 1),
        "{text}: {e}"
    );
    let text = "!!NVvp5.0\nLONG ATTRIB v = vertex.attrib[1];\nADD.U64 v, v, v;\nEND\n";
    assert!(nv::parse(text, "t.nv").is_err(), "{text}");
    let text = "!!NVvp5.0\nLONG ATTRIB v = vertex.position;\nEND\n";
    let p = nv::parse(text, "t.nv").expect("parses");
    let e = nv::lower(&p).expect_err(text);
    assert!(
        matches!(e, nv::LowerError::Unsupported { .. })
            && e.to_string().contains("only generic attributes"),
        "{e}"
    );
}
