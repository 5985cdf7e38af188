//! Inputs the parser must reject, each with the exact `line:col` and a message naming what
//! was expected. The first block is TEXT-FORMAT.md §12 "Inputs Mesa rejects" (every row
//! that the strict+lenient parser still rejects); the second covers the list
//! (unknown opcodes, operand counts, bad swizzles, ranges, undeclared registers, `|`).
//! Positions are counted by hand from the input text (1-based, columns in characters).

use rstest::rstest;
use shaderdiff_tgsi::parse;

/// Frame for single-instruction cases: the instruction is on line 3.
const HEAD: &str = "FRAG\nDCL TEMP[0..3]\n";

fn check(text: &str, line: u32, col: u32, needle: &str) {
    match parse(text, "t.tgsi") {
        Ok(p) => panic!("accepted: {text:?}\n{p:?}"),
        Err(e) => {
            assert_eq!((e.pos.line, e.pos.col), (line, col), "{e}");
            assert!(
                e.message.contains(needle),
                "message {:?} lacks {needle:?}",
                e.message
            );
            assert_eq!(e.file, "t.tgsi");
            assert!(
                e.to_string().starts_with(&format!("t.tgsi:{line}:{col}: ")),
                "{e}"
            );
        }
    }
}

// TEXT-FORMAT.md §12 "Inputs Mesa rejects".
#[rstest]
#[case::swizzle_rgba(
    "MOV TEMP[0], TEMP[0].rgba",
    22,
    "expected register swizzle component `x`, `y`, `z` or `w`, found `rgba`"
)]
#[case::writemask_order(
    "MOV TEMP[0].yx, TEMP[0]",
    14,
    "expected `,` or writemask letters in `xyzw` order, found `x`"
)]
#[case::precise_before_sat(
    "MUL_PRECISE_SAT TEMP[0], TEMP[0], TEMP[0]",
    1,
    "unknown opcode `MUL_PRECISE_SAT` (`_SAT` must come before `_PRECISE`)"
)]
#[case::imm_not_sorted(
    "IMM[1] FLT32 {1.0, 2.0, 3.0, 4.0}",
    5,
    "expected `IMM[0]`, found `IMM[1]`"
)]
#[case::imm_three_values(
    "IMM FLT32 {1,2,3}",
    17,
    "expected `,`: a FLT32 immediate has 4 values"
)]
#[case::uint_hex("IMM UINT32 {0x10, 0, 0, 0}", 14, "expected `,`")]
#[case::uint_negative(
    "IMM UINT32 {-1, 0, 0, 0}",
    13,
    "expected an unsigned decimal integer in a UINT32 immediate, found `-`"
)]
#[case::endif_label("IF TEMP[0].xxxx\nENDIF :3", 7, "expected the end of the instruction: `:label` is only allowed on IF, UIF, ELSE, BGNLOOP, ENDLOOP and CAL, not on ENDIF")]
#[case::bgnsub_label("BGNSUB :3", 8, "not on BGNSUB")]
#[case::negative_index("MOV TEMP[0], TEMP[-1]", 19, "expected a register index (unsigned integer) or an address register such as `ADDR[0].x`, found `-`")]
#[case::double_negate(
    "MOV TEMP[0], --TEMP[0]",
    15,
    "expected a register file (only `-X`, `|X|` and `-|X|` modifiers exist), found `-`"
)]
#[case::negate_inside_abs(
    "MOV TEMP[0], |-TEMP[0]|",
    15,
    "expected a register file (only `-X`, `|X|` and `-|X|` modifiers exist), found `-`"
)]
#[case::tex_without_target(
    "DCL SAMP[0]\nTEX TEMP[0], TEMP[1], SAMP[0]",
    30,
    "expected `,` and a texture target after the sources of TEX"
)]
#[case::cube_array(
    "DCL SAMP[0]\nTEX TEMP[0], TEMP[1], SAMP[0], CUBE_ARRAY",
    32,
    "expected a texture target (`BUFFER`, `1D`, `2D`"
)]
#[case::label_before_dcl(
    "0: DCL TEMP[1]",
    4,
    "expected an opcode after the label `N:`, found `DCL`"
)]
#[case::no_space_after_opcode("MOVTEMP[0], TEMP[0]", 1, "unknown opcode `MOVTEMP`")]
#[case::unknown_decl_attribute("DCL TEMP[0], FOO", 14, "expected a semantic, interpolation mode, interpolation location or `INVARIANT` (in this order, each at most once), found `FOO`")]
#[case::spaces_in_swizzle(
    "MOV TEMP[0], TEMP[0]. x y z w",
    25,
    "unknown opcode `y` (swizzle and writemask letters must not be separated by spaces)"
)]
fn mesa_rejects(#[case] insn: &str, #[case] col: u32, #[case] needle: &str) {
    let text = format!("{HEAD}{insn}");
    let line = 3 + insn.matches('\n').count() as u32;
    check(&text, line, col, needle);
}

// TEXT-FORMAT.md §12 rows whose statement is not an instruction after HEAD.
#[rstest]
// (`# comment` is also rejected by Mesa, but our parser accepts `#` line comments as a
// lenient extension for generator stamps: tests/comments.rs.)
#[case::semicolon_comment("FRAG\n; comment\nEND", 2, 1, "found `;`")]
#[case::vs_input_semantic("VERT\nDCL IN[0], GENERIC[0]\nEND", 2, 12, "expected the end of the declaration: VERT inputs take nothing after `ARRAY(n)`, found `GENERIC`")]
#[case::implied_without_primitive(
    "GEOM\nDCL IN[][0], POSITION\nEND",
    2,
    8,
    "expected a register index: empty brackets `[]` need an implied size"
)]
#[case::task_header("TASK\nEND", 1, 1, "expected a shader header (`VERT`, `FRAG`, `GEOM`, `TESS_CTRL`, `TESS_EVAL` or `COMP`), found `TASK`")]
#[case::sview_without_type("FRAG\nDCL SVIEW[0], 2D\nEND", 2, 17, "expected `,` and a return type (`UNORM`, `SNORM`, `SINT`, `UINT` or `FLOAT`), found end of line")]
#[case::unknown_property("FRAG\nPROPERTY FOO 1\nEND", 2, 10, "unknown property `FOO`")]
fn mesa_rejects_statements(
    #[case] text: &str,
    #[case] line: u32,
    #[case] col: u32,
    #[case] needle: &str,
) {
    check(text, line, col, needle);
}

// The list: unknown opcodes, operand counts, swizzles, ranges, declarations, `|`.
#[rstest]
#[case::unknown_opcode("FOO TEMP[0], TEMP[1]", 3, 1, "unknown opcode `FOO`")]
#[case::gap_opcode("UNK67", 3, 1, "unknown opcode `UNK67`")]
#[case::too_many_sources(
    "MOV TEMP[0], TEMP[1], TEMP[2]",
    3,
    23,
    "MOV takes 1 destination and 1 source, found 2 sources"
)]
#[case::too_few_sources(
    "ADD TEMP[0], TEMP[1]\nEND",
    3,
    21,
    "expected `,` and another operand: ADD takes 1 destination and 2 sources, found 1 source"
)]
#[case::missing_source(
    "MOV TEMP[0]\nEND",
    3,
    12,
    "MOV takes 1 destination and 1 source, found 0 sources"
)]
#[case::operand_on_end("END, TEMP[0]", 3, 6, "END takes no operands, found 1 operand")]
#[case::swizzle_xq(
    "MOV TEMP[0], TEMP[1].xq",
    3,
    23,
    "expected register swizzle component `x`, `y`, `z` or `w`, found `q`"
)]
#[case::swizzle_five(
    "MOV TEMP[0], TEMP[1].xyzwx",
    3,
    26,
    "expected `,` after the 4 swizzle components, found `x`"
)]
#[case::out_of_range(
    "MOV TEMP[0], TEMP[5]",
    3,
    14,
    "TEMP[5] is outside the declared range (declared: `TEMP[0..3]`)"
)]
#[case::dst_out_of_range("MOV TEMP[4], TEMP[0]", 3, 5, "TEMP[4] is outside the declared range")]
#[case::undeclared(
    "MOV TEMP[0], CONST[0]",
    3,
    14,
    "CONST[0] is not declared (expected a `DCL CONST[...]`)"
)]
#[case::imm_undefined(
    "IMM FLT32 {1, 2, 3, 4}\nMOV TEMP[0], IMM[3]",
    4,
    14,
    "IMM[3] is not defined: expected an immediate index below 1 (the program has 1 immediate)"
)]
#[case::unterminated_abs(
    "ADD TEMP[0], |TEMP[1], TEMP[2]",
    3,
    22,
    "expected `|` closing the absolute value, found `,`"
)]
#[case::address_undeclared(
    "MOV TEMP[0], TEMP[ADDR[0].x]",
    3,
    14,
    "address register ADDR[0] is not declared (expected `DCL ADDR[0]`)"
)]
#[case::read_only_dst(
    "DCL IN[0], GENERIC[0], PERSPECTIVE\nMOV IN[0], TEMP[0]",
    4,
    5,
    "IN is read-only: expected a writable destination"
)]
#[case::dimension_mismatch(
    "DCL CONST[1][0..3]\nMOV TEMP[0], CONST[0][1]",
    4,
    14,
    "CONST[0][1] does not match the dimensions of any declaration (declared: `CONST[1][0..3]`)"
)]
#[case::empty_register_bracket(
    "MOV TEMP[0], TEMP[]",
    3,
    19,
    "expected a register index: empty brackets `[]` are only allowed in declarations"
)]
#[case::missing_comma(
    "MOV TEMP[0] TEMP[1]",
    3,
    12,
    "expected `,` and another operand: MOV takes 1 destination and 1 source, found 0 sources"
)]
#[case::extra_register(
    "MOV TEMP[0], TEMP[1] TEMP[2]",
    3,
    22,
    "unknown opcode `TEMP` (is a `,` missing between operands?)"
)]
#[case::dst_modifier(
    "MOV -TEMP[0], TEMP[1]",
    3,
    5,
    "destinations take no `-` or `|` modifier"
)]
#[case::huge_index(
    "MOV TEMP[0], TEMP[40000]",
    3,
    19,
    "a register index is too large (at most 32767)"
)]
#[case::if_unclosed("IF TEMP[0].xxxx\nEND", 3, 1, "IF is never closed")]
#[case::else_alone("ELSE\nEND", 3, 1, "ELSE without a matching IF/UIF")]
#[case::cal_not_bgnsub("CAL :1\nEND", 3, 1, "CAL target 1 is not a BGNSUB")]
#[case::tex_offset_four_letters(
    "DCL SAMP[0]\nIMM INT32 {1, 1, 1, 0}\nTXB TEMP[0], TEMP[1], SAMP[0], 2D, IMM[0].xyzw",
    5,
    36,
    "expected 3 swizzle letters on a texel offset"
)]
#[case::mem_extra_unknown("DCL BUFFER[0]\nLOAD TEMP[0], BUFFER[0], TEMP[1].xxxx, FOO", 4, 40, "expected a memory qualifier (`COHERENT`, `RESTRICT`, `VOLATILE`, `STREAM_CACHE_POLICY`), a texture target or a `PIPE_FORMAT_*` name, found `FOO`")]
#[case::extra_on_alu(
    "MOV TEMP[0], TEMP[1], 2D",
    3,
    23,
    "unexpected `2D`: MOV takes 1 destination and 1 source and no texture target or qualifier"
)]
#[case::bad_imm_type("IMM FLT16 {1, 2, 3, 4}", 3, 5, "expected an immediate type (`FLT32`, `UINT32`, `INT32`, `FLT64`, `UINT64` or `INT64`), found `FLT16`")]
#[case::bad_float("IMM FLT32 {1, x, 3, 4}", 3, 15, "expected a floating-point value")]
#[case::not_ascii("MOV TEMP[0], TÉMP[1]", 3, 14, "expected a register file")]
fn harness_rejects(#[case] body: &str, #[case] line: u32, #[case] col: u32, #[case] needle: &str) {
    check(&format!("{HEAD}{body}"), line, col, needle);
}

#[test]
fn empty_input_names_the_header() {
    check("", 1, 1, "expected a shader header (`VERT`, `FRAG`, `GEOM`, `TESS_CTRL`, `TESS_EVAL` or `COMP`), found end of input");
    check("   \n", 2, 1, "found end of input");
}

#[test]
fn statements_need_separating_whitespace() {
    check(
        "FRAG\nDCL TEMP[0]\nMOV TEMP[0], TEMP[0]x",
        3,
        21,
        "expected `,` or whitespace before the next statement, found `x`",
    );
}

/// The rows of §12's table that the lenient parser accepts on purpose: CRLF line endings,
/// a 1-letter swizzle and `IMM` without an index (the 3-value row stays rejected above).
#[test]
fn lenient_rows_are_accepted() {
    let lf = "FRAG\nDCL TEMP[0..3]\nIMM FLT32 {1, 2, 3, 4}\nMOV TEMP[0], TEMP[0].x\nEND\n";
    let p = parse(lf, "t").unwrap();
    assert_eq!(p.instructions[0].src[0].swizzle, [0, 0, 0, 0]);
    assert_eq!(p.immediates.len(), 1);
    assert_eq!(parse(&lf.replace('\n', "\r\n"), "t").unwrap(), p);
}
