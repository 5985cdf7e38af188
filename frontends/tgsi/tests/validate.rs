//! `validate` on programs built in memory (no source positions: errors at 0:0) and on text
//! (positions from the source map). Rules: the list for validate (structure,
//! operand counts, declarations and ranges, address registers, writemasks, writable
//! destinations, texture targets) plus the canonical-form rules that keep printing lossless.

use rstest::rstest;
use shaderdiff_model::validate::validate;
use shaderdiff_model::*;
use shaderdiff_tgsi::{parse, print};

/// FRAG: IN[0] (GENERIC, PERSPECTIVE), OUT[0], TEMP[0..3], ADDR[0], SAMP[0], one IMM;
/// `UIF IN[0].x / MOV OUT[0], TEMP[1] / ENDIF / TEX TEMP[0], IN[0], SAMP[0], 2D / END`.
fn base() -> Program {
    let text = "FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\nDCL TEMP[0..3]\nDCL ADDR[0]\nDCL SAMP[0]\n\
                IMM[0] FLT32 {1, 2, 3, 4}\nUIF IN[0].xxxx\nMOV OUT[0], TEMP[1]\nENDIF\nTEX TEMP[0], IN[0], SAMP[0], 2D\nEND\n";
    let mut p = parse(text, "base").unwrap();
    p.source_map = SourceMap::default();
    p
}

#[test]
fn base_is_valid() {
    validate(&base(), "mem").unwrap();
}

#[rstest]
#[case::operand_count(|p: &mut Program| { p.instructions[1].src.clear(); }, "MOV takes 1 destination(s) and 1 source(s), found 1 and 0")]
#[case::empty_writemask(|p: &mut Program| { p.instructions[1].dst[0].writemask = 0; }, "expected a non-empty writemask")]
#[case::read_only(|p: &mut Program| { p.instructions[1].dst[0].reg.file = File::Input; }, "IN is read-only")]
#[case::undeclared(|p: &mut Program| { p.instructions[1].src[0].reg = Register::new(File::Const, 0); }, "CONST[0] is not declared")]
#[case::out_of_range(|p: &mut Program| { p.instructions[1].src[0].reg.index.value = 4; }, "TEMP[4] is outside the declared range (declared: `TEMP[0..3]`)")]
#[case::imm_missing(|p: &mut Program| { p.instructions[1].src[0].reg = Register::new(File::Immediate, 1); }, "IMM[1] is not defined")]
#[case::address_missing(|p: &mut Program| {
    p.instructions[1].src[0].reg.index.indirect = Some(Indirect { file: File::Address, index: 1, component: 0 });
}, "address register ADDR[1] is not declared")]
#[case::texture_missing(|p: &mut Program| { p.instructions[3].texture = None; }, "TEX needs a texture target")]
#[case::texture_on_alu(|p: &mut Program| { p.instructions[1].texture = Some(TexTarget::T2D); }, "MOV takes no texture target")]
#[case::if_label_stored(|p: &mut Program| { p.instructions[0].label = Some(2); }, "UIF labels are computed from the structure: store None")]
#[case::label_on_mov(|p: &mut Program| { p.instructions[1].label = Some(0); }, "MOV takes no label")]
#[case::structure(|p: &mut Program| { p.instructions.remove(2); }, "UIF is never closed")]
#[case::interp_on_output(|p: &mut Program| { p.declarations[1].interpolation = Some(Interpolation::Linear); }, "interpolation is only printed on FRAG inputs")]
#[case::center_location(|p: &mut Program| { p.declarations[0].location = Some(InterpLocation::Center); }, "must not be CENTER")]
#[case::empty_mem(|p: &mut Program| {
    p.instructions[1] = Instruction::new(Opcode::LOAD, vec![p.instructions[1].dst[0]], vec![Src::new(Register::new(File::Temp, 0)), Src::new(Register::new(File::Temp, 1))]);
    p.instructions[1].mem = Some(MemInfo::default());
}, "non-canonical memory info")]
#[case::direct_array_id(|p: &mut Program| { p.instructions[1].src[0].reg.index.array_id = 1; }, "an array id is only kept on indirect indices")]
#[case::implied_missing(|p: &mut Program| {
    p.stage = Stage::Geometry;
    p.declarations[0].interpolation = None;
}, "need the implied dimension")]
#[case::resource_missing(|p: &mut Program| { p.declarations.push(Declaration::new(File::SamplerView, 0, 0)); }, "resource information does not match the file")]
#[case::layout(|p: &mut Program| { p.layout = vec![Item::Instruction(0)]; }, "layout does not list every statement exactly once")]
fn invalid_in_memory(#[case] mutate: fn(&mut Program), #[case] needle: &str) {
    let mut p = base();
    mutate(&mut p);
    let e = validate(&p, "mem").expect_err(needle);
    assert!(e.message.contains(needle), "{e}");
    assert_eq!((e.file.as_str(), e.pos), ("mem", Pos::default()));
}

#[test]
fn one_d_and_two_d_constants_name_the_same_buffer() {
    // Gallium: CONST[i] is constant buffer 0 (corpus vid_enc_common.c declares CONST[0][0]
    // and reads CONST[0].xxxx).
    for (decl, use_) in [
        ("CONST[0][0..3]", "CONST[2]"),
        ("CONST[0..3]", "CONST[0][2]"),
        ("CONST[0..3]", "CONST[2]"),
    ] {
        let text = format!("COMP\nDCL {decl}\nDCL TEMP[0]\nMOV TEMP[0], {use_}\n");
        parse(&text, "c").unwrap_or_else(|e| panic!("{e}"));
    }
    let e = parse(
        "COMP\nDCL CONST[0..3]\nDCL TEMP[0]\nMOV TEMP[0], CONST[1][2]\n",
        "c",
    )
    .unwrap_err();
    assert_eq!((e.pos.line, e.pos.col), (4, 14));
    assert!(
        e.message
            .contains("CONST[1][2] does not match the dimensions of any declaration"),
        "{e}"
    );
}

#[test]
fn geometry_vertex_index_is_bounded_by_the_input_primitive() {
    // §5: TRIANGLES has 3 vertices, so IN[3][0] is out of range; IN[2][0] is fine.
    let head = "GEOM\nPROPERTY GS_INPUT_PRIMITIVE TRIANGLES\nDCL IN[][0], POSITION\nDCL OUT[0], POSITION\n";
    parse(&format!("{head}MOV OUT[0], IN[2][0]\n"), "g").unwrap();
    let e = parse(&format!("{head}MOV OUT[0], IN[3][0]\n"), "g").unwrap_err();
    assert_eq!((e.pos.line, e.pos.col), (5, 13));
    assert!(
        e.message.contains("IN[3][0] does not match the dimensions"),
        "{e}"
    );
    let e = parse(&format!("{head}MOV OUT[0], IN[0]\n"), "g").unwrap_err();
    assert!(
        e.message.contains(
            "IN[0] does not match the dimensions of any declaration (declared: `IN[][0]`)"
        ),
        "{e}"
    );
}

/// TEXT-FORMAT.md §6.3: GEOM inputs print as `IN[][n]`, which parses only after
/// `PROPERTY GS_INPUT_PRIMITIVE`. A GEOM program declaring `DCL IN[0]` without the
/// property (Mesa's parser takes it) would print to text that does not parse: rejected.
/// Found by the `tgsi_parse` fuzz target (fuzz/regressions/tgsi_parse/).
#[test]
fn geometry_inputs_need_the_input_primitive() {
    let e = parse("GEOM\nDCL IN[0]\nEND\n", "g.tgsi").unwrap_err();
    assert!(e.to_string().contains("GS_INPUT_PRIMITIVE"), "{e}");
    assert!(e.to_string().starts_with("g.tgsi:2:1:"), "{e}");
    let ok = parse(
        "GEOM\nPROPERTY GS_INPUT_PRIMITIVE POINTS\nDCL IN[0]\nEND\n",
        "g.tgsi",
    )
    .unwrap();
    let printed = print(&ok);
    assert!(printed.contains("DCL IN[][0]"), "{printed}");
    assert_eq!(parse(&printed, "p.tgsi").unwrap(), ok);
}
