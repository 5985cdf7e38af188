//! Tests of the inputs file reader. Expected values follow INTERFACE.md "The inputs file"
//! (the forms of channel values, the keys, "Anything the file does not set starts as
//! zero", "Invocation counts for FRAG programs are a multiple of 4") and the IEEE 754
//! binary32 encodings of the literals used (1.0 = 0x3f800000, 2.0 = 0x40000000, ...).

use super::*;
use shaderdiff_model::{Declaration, SemanticName};

/// FRAG with `DCL IN[0..1]`, `DCL SV[0], FACE`, `DCL CONST[0..1]`, `DCL CONST[1][0..3]`,
/// `DCL BUFFER[0]`, `DCL MEMORY[0]`.
fn frag() -> Program {
    let mut p = Program::new(Stage::Fragment);
    p.declarations.push(Declaration::new(File::Input, 0, 1));
    let mut sv = Declaration::new(File::SystemValue, 0, 0);
    sv.semantic = Some((SemanticName::Face, 0));
    p.declarations.push(sv);
    p.declarations.push(Declaration::new(File::Const, 0, 1));
    let mut c1 = Declaration::new(File::Const, 0, 3);
    c1.dimension = Some(DeclDimension::Index(1));
    p.declarations.push(c1);
    p.declarations.push(Declaration::new(File::Buffer, 0, 0));
    p.declarations.push(Declaration::new(File::Memory, 0, 0));
    p
}

fn err_of(text: &str, p: &Program, n: Option<usize>) -> InputsError {
    load(text, "in.json", p, n).expect_err("must be rejected")
}

fn at(line: u32, col: u32) -> Option<Pos> {
    Some(Pos { line, col })
}

#[test]
fn interface_example_reads() {
    // The example of INTERFACE.md "The inputs file", with the program declaring what it names.
    let text = r#"{
  "invocations": 4,
  "registers": {
    "IN[0]": [["0x3f800000", "0x0", "0x0", "0x0"],
              ["0x40000000", "0x0", "0x0", "0x0"],
              ["0x40400000", "0x0", "0x0", "0x0"],
              ["0x40800000", "0x0", "0x0", "0x0"]],
    "SV[0]": ["0x1", "0x0", "0x0", "0x0"]
  },
  "constants": { "CONST[0]": [1.0, 2.0, "i:-3", "u:7"], "CONST[1][2]": [0, 0, 0, 0] },
  "buffers":   { "BUFFER[0]": "00000000ffffffff", "MEMORY[0]": "" },
  "global":    { "0x10000": "0000803f00000040" }
}"#;
    let i = load(text, "in.json", &frag(), None).unwrap();
    assert_eq!(i.invocations, 4);
    let in0 = RegKey::new(File::Input, 0);
    assert_eq!(i.register(&in0, 0), [0x3f80_0000, 0, 0, 0]);
    assert_eq!(i.register(&in0, 3), [0x4080_0000, 0, 0, 0]);
    let sv0 = RegKey::new(File::SystemValue, 0);
    for inv in 0..4 {
        assert_eq!(i.register(&sv0, inv), [1, 0, 0, 0]);
    }
    // Not set: zero.
    assert_eq!(i.register(&RegKey::new(File::Input, 1), 2), [0; 4]);
    assert_eq!(
        i.constants[&RegKey::new(File::Const, 0)],
        [0x3f80_0000, 0x4000_0000, 0xffff_fffd, 7]
    );
    let c12 = RegKey {
        file: File::Const,
        dimension: Some(1),
        index: 2,
    };
    assert_eq!(i.constants[&c12], [0; 4]);
    assert_eq!(
        i.buffers[&RegKey::new(File::Buffer, 0)],
        [0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff]
    );
    assert_eq!(i.buffers[&RegKey::new(File::Memory, 0)], Vec::<u8>::new());
    assert_eq!(i.global[&0x10000], [0, 0, 0x80, 0x3f, 0, 0, 0, 0x40]);
}

#[test]
fn empty_object_is_all_zero_with_default_count() {
    let i = load("{}", "in.json", &frag(), None).unwrap();
    assert_eq!(i.invocations, DEFAULT_INVOCATIONS);
    assert!(i.registers.is_empty() && i.constants.is_empty());
    assert_eq!(defaults(&frag(), Some(8)).unwrap().invocations, 8);
}

#[test]
fn malformed_json_has_line_and_column() {
    // Line 3 is `  "registers": {,}`: the stray comma is at column 17.
    let e = err_of(
        "{\n  \"invocations\": 4,\n  \"registers\": {,}\n}",
        &frag(),
        None,
    );
    assert_eq!(e.pos, at(3, 17), "{e}");
    assert!(e.to_string().starts_with("in.json:3:17: "), "{e}");
    let e = err_of("{\"invocations\": 4", &frag(), None);
    assert!(e.pos.is_some() && e.message.contains("EOF"), "{e}");
}

#[test]
fn unknown_top_level_key_is_rejected() {
    let e = err_of("{\n  \"registrs\": {}\n}", &frag(), None);
    assert!(e.message.contains("unknown field `registrs`"), "{e}");
    assert_eq!(e.pos.map(|p| p.line), Some(2));
}

#[test]
fn not_an_object() {
    let e = err_of("[1, 2]", &frag(), None);
    assert!(e.message.contains("a JSON object"), "{e}");
}

#[test]
fn mistyped_channel_values_point_at_the_value() {
    // `"i:abc"` starts at line 2, column 34 (after the 33 characters
    // `  "constants": { "CONST[0]": [1, `).
    let text = "{\n  \"constants\": { \"CONST[0]\": [1, \"i:abc\", 0, 0] }\n}";
    let e = err_of(text, &frag(), None);
    assert_eq!(e.pos, at(2, 34), "{e}");
    assert!(
        e.message
            .starts_with("CONST[0]: invalid channel value \"i:abc\""),
        "{e}"
    );
    let text = "{\"registers\": {\"IN[0]\": [true, 0, 0, 0]}}";
    let e = err_of(text, &frag(), None);
    assert!(e.message.contains("boolean"), "{e}");
    assert_eq!(e.pos, at(1, 26));
}

#[test]
fn wrong_shapes() {
    let cases = [
        ("{\"invocations\": \"4\"}", "whole number"),
        ("{\"invocations\": 2.5}", "whole number"),
        ("{\"invocations\": 0}", "whole number"),
        ("{\"invocations\": -4}", "whole number"),
        ("{\"registers\": []}", "object"),
        (
            "{\"registers\": {\"IN[0]\": 1}}",
            "expected a vec4 or a list of vec4s",
        ),
        ("{\"registers\": {\"IN[0]\": [1, 2]}}", "4 channel values"),
        ("{\"registers\": {\"IN[0]\": [[1, 2, 3, 4], 5]}}", "mixes"),
        (
            "{\"constants\": {\"CONST[0]\": [[1, 2, 3, 4]]}}",
            "4 channel values",
        ),
        (
            "{\"constants\": {\"CONST[0]\": [[1], 2, 3, 4]}}",
            "found a list",
        ),
        ("{\"buffers\": {\"BUFFER[0]\": 12}}", "hex bytes"),
        (
            "{\"buffers\": {\"BUFFER[0]\": \"123\"}}",
            "whole number of bytes",
        ),
        ("{\"global\": {\"zz\": \"00\"}}", "invalid address"),
        (
            "{\"registers\": {\"IN0\": [0, 0, 0, 0]}}",
            "invalid register name",
        ),
    ];
    for (text, needle) in cases {
        let e = err_of(text, &frag(), None);
        assert!(e.message.contains(needle), "{text}: {e}");
        assert!(e.pos.is_some(), "{text}: {e}");
    }
}

#[test]
fn registers_the_program_does_not_declare_are_skipped() {
    // INTERFACE.md "The inputs file": a register of the stage that the program does not
    // read is accepted (one note on stderr), so one file may serve a whole directory.
    let text = "{\"registers\": {\"IN[7]\": [0, 0, 0, 0], \"SV[1]\": [0, 0, 0, 0], \"IN[0]\": [1, 2, 3, 4]}, \"constants\": {\"CONST[2][0]\": [0, 0, 0, 0]}, \"buffers\": {\"BUFFER[1]\": \"\"}}";
    let i = load(text, "x", &frag(), None).unwrap();
    assert_eq!(i.registers.len(), 1, "only IN[0] is kept");
    assert!(i.constants.is_empty() && i.buffers.is_empty());
    let e = err_of("{\"registers\": {\"OUT[0]\": [0, 0, 0, 0]}}", &frag(), None);
    assert!(e.message.contains("not an input"), "{e}");
    let e = err_of(
        "{\"registers\": {\"CONST[0]\": [0, 0, 0, 0]}}",
        &frag(),
        None,
    );
    assert!(e.message.contains("\"constants\""), "{e}");
    let e = err_of(
        "{\"registers\": {\"TEMP[0]\": [0, 0, 0, 0]}}",
        &Program::new(Stage::Vertex),
        None,
    );
    assert!(e.message.contains("not an input"), "{e}");
}

#[test]
fn const_buffer_zero_has_two_spellings() {
    // TGSI: a 1-D CONST[i] is CONST[0][i] (tgsi.rst "Register files": constant buffer 0).
    let i = load(
        "{\"constants\": {\"CONST[0][1]\": [1, 0, 0, 0]}}",
        "in.json",
        &frag(),
        None,
    )
    .unwrap();
    assert_eq!(
        i.constants[&RegKey::new(File::Const, 1)],
        [0x3f80_0000, 0, 0, 0]
    );
    let e = err_of(
        "{\"constants\": {\"CONST[1]\": [0, 0, 0, 0], \"CONST[0][1]\": [0, 0, 0, 0]}}",
        &frag(),
        None,
    );
    assert!(e.message.contains("given twice"), "{e}");
}

#[test]
fn duplicate_keys_are_rejected() {
    let e = err_of(
        "{\"registers\": {\"IN[0]\": [0, 0, 0, 0], \"in[0]\": [0, 0, 0, 0]}}",
        &frag(),
        None,
    );
    assert_eq!(e.message, "IN[0] is given twice");
}

#[test]
fn list_length_must_match_the_count() {
    let two = "{\"registers\": {\"IN[0]\": [[0, 0, 0, 0], [1, 1, 1, 1]]}}";
    let e = err_of(two, &frag(), None);
    assert!(
        e.message
            .starts_with("IN[0] has 2 vec4s but there are 4 invocations (the default"),
        "{e}"
    );
    let vert = {
        let mut p = Program::new(Stage::Vertex);
        p.declarations.push(Declaration::new(File::Input, 0, 0));
        p
    };
    let i = load(two, "in.json", &vert, Some(2)).unwrap();
    assert_eq!(
        i.register(&RegKey::new(File::Input, 0), 1),
        [0x3f80_0000; 4]
    );
    let e = err_of(two, &vert, Some(3));
    assert!(e.message.contains("(--invocations 3)"), "{e}");
    let counted = "{\"invocations\": 8, \"registers\": {\"IN[0]\": [[0, 0, 0, 0], [1, 1, 1, 1]]}}";
    let e = err_of(counted, &vert, None);
    assert!(
        e.message.contains("8 invocations (\"invocations\": 8)"),
        "{e}"
    );
}

#[test]
fn fragment_counts_are_quads() {
    let e = err_of("{\"invocations\": 6}", &frag(), None);
    assert!(e.message.contains("multiple of 4"), "{e}");
    assert_eq!(e.pos, at(1, 17));
    let e = defaults(&frag(), Some(6)).unwrap_err();
    assert_eq!(e.file, "--invocations 6");
    assert!(e
        .to_string()
        .starts_with("--invocations 6: fragment programs run in quads"));
    // The flag overrides the file.
    assert_eq!(
        load("{\"invocations\": 6}", "x", &frag(), Some(8))
            .unwrap()
            .invocations,
        8
    );
    // Other stages take any count.
    assert_eq!(
        defaults(&Program::new(Stage::Vertex), Some(3))
            .unwrap()
            .invocations,
        3
    );
    assert!(defaults(&Program::new(Stage::Vertex), Some(0)).is_err());
}

#[test]
fn geometry_inputs_use_the_vertex_dimension() {
    let mut p = Program::new(Stage::Geometry);
    p.properties.push(shaderdiff_model::Property {
        name: PropertyName::GsInputPrimitive,
        value: Primitive::Triangles.token(),
    });
    let mut d = Declaration::new(File::Input, 0, 0);
    d.dimension = Some(DeclDimension::Implied);
    p.declarations.push(d);
    let i = load(
        "{\"registers\": {\"IN[2][0]\": [1, 2, 3, 4]}}",
        "x",
        &p,
        None,
    )
    .unwrap();
    let k = RegKey {
        file: File::Input,
        dimension: Some(2),
        index: 0,
    };
    assert_eq!(i.register(&k, 0)[1], 0x4000_0000);
    // Triangles have 3 vertices: the program reads no vertex 3, so the entry is skipped
    // (INTERFACE.md: a register the program does not read is accepted with a note).
    let i = load(
        "{\"registers\": {\"IN[3][0]\": [1, 2, 3, 4]}}",
        "x",
        &p,
        None,
    )
    .unwrap();
    assert!(i.registers.is_empty());
}

mod never_panics {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        // "Bad input never panics": any text gives Ok or a located one-line error.
        #[test]
        fn arbitrary_text(text in "\\PC{0,200}") {
            if let Err(e) = load(&text, "x.json", &frag(), None) {
                prop_assert!(!e.to_string().contains('\n'));
            }
        }

        // Near-valid documents: JSON-ish fragments with register names and values.
        #[test]
        fn json_like_text(parts in proptest::collection::vec(prop_oneof![
            Just("{"), Just("}"), Just("["), Just("]"), Just(","), Just(":"), Just("\"IN[0]\""),
            Just("\"registers\""), Just("\"constants\""), Just("\"CONST[0]\""), Just("\"invocations\""),
            Just("\"i:-3\""), Just("1.5"), Just("-0"), Just("1e999"), Just("true"), Just("null"),
            Just("\"0x\""), Just("\"\u{e9}\""), Just(" "), Just("\n"), Just("\"buffers\""), Just("\"BUFFER[0]\""),
            Just("\"00ff\""), Just("\"global\""), Just("\"0x10\""), Just("4"),
        ], 0..40)) {
            let text: String = parts.concat();
            if let Err(e) = load(&text, "x.json", &frag(), None) {
                prop_assert!(!e.to_string().contains('\n'));
            }
        }
    }
}
