//! Inputs the NV front-end must reject, each with the exact `line:col` and the words of
//! its message. Positions are counted by hand from the input text (1-based, columns in
//! characters, a TAB is one column). The rule each case breaks is cited from the specs.

use rstest::rstest;
use shaderdiff_nv::parse;

fn check(text: &str, line: u32, col: u32, needle: &str) {
    match parse(text, "t.nvfp") {
        Ok(p) => panic!("accepted: {text:?}\n{p:?}"),
        Err(e) => {
            assert_eq!((e.pos.line, e.pos.col), (line, col), "{e}\n{text}");
            assert!(
                e.message.contains(needle),
                "message {:?} lacks {needle:?}",
                e.message
            );
            assert_eq!(e.file, "t.nvfp");
            assert!(
                e.to_string().starts_with(&format!("t.nvfp:{line}:{col}: ")),
                "{e}"
            );
        }
    }
}

/// Frame for single-statement cases: the statement is on line 3.
fn fp5(stmt: &str) -> String {
    format!("!!NVfp5.0\nTEMP R0, R1;\n{stmt}\nEND\n")
}

// One instruction or declaration on line 3 of a `!!NVfp5.0` program declaring R0, R1.
#[rstest]
// §2.X.2: opcodes are the listed names (plus Table X.15 suffixes).
#[case::unknown_opcode("FOO R0, R1;", 1, "expected an opcode or a declaration, found `FOO`")]
// §2.X.3: variables must be declared before use.
#[case::undeclared("MOV R0, R9;", 9, "`R9` is not declared")]
// <xyzwMask>: letters in x, y, z, w order.
#[case::mask_order("MOV R0.yx, R1;", 8, "write mask `yx` is not in `xyzw` order")]
// <swizzleSuffix>: one component or four.
#[case::swizzle_two("MOV R0, R1.xy;", 12, "a swizzle has 1 or 4 letters")]
#[case::swizzle_mixed("MOV R0, R1.xgzw;", 12, "all of `xyzw` or all of `rgba`")]
// <instOperandS> needs a <scalarSuffix>.
#[case::scalar_needs_component("RCP R0, R1;", 9, "a scalar operand needs one component")]
#[case::scalar_not_vector("RCP R0, R1.xyzw;", 9, "a scalar operand needs one component")]
// <BINop_instruction>: exactly two operands.
#[case::too_many("MOV R0, R1, R1;", 11, "too many operands for `MOV`")]
#[case::too_few("ADD R0, R1;", 11, "expected `,`, found `;`")]
// Table X.14 lists the modifiers; "more than one modifier of any given type" fails.
#[case::unknown_modifier("MOV.Q R0, R1;", 5, "unknown instruction modifier `.Q`")]
#[case::two_types("MOV.F.U R0, R1;", 7, "more than one modifier of the kind of `.U`")]
// Table X.13: AND has no S column; MUL.HI needs S or U; CVT two storage modifiers;
// ATOM an atomic and a storage modifier; LOAD a storage modifier.
#[case::sat_on_and("AND.SAT R0, R1, R1;", 1, "`AND` does not take `.SAT`")]
#[case::mul_hi_untyped("MUL.HI R0, R1, R1;", 1, "`MUL.HI` needs the `.S` or `.U`")]
#[case::mul_s24_typed("MUL.S24.S R0, R1, R1;", 1, "`.S24` implies the data type")]
#[case::cvt_one_type("CVT.F32 R0, R1;", 1, "`CVT` needs two storage modifiers")]
#[case::atom_no_op(
    "ATOM.U32 R0, R1, R1.x;",
    1,
    "`ATOM` needs an atomic operation modifier"
)]
#[case::load_no_storage("LOAD R0, R1.x;", 1, "`LOAD` needs a storage modifier")]
#[case::f64_on_dp3(
    "DP3.F64 R0, R1, R1;",
    1,
    "`DP3` does not take the data type modifier `.F64`"
)]
#[case::storage_type_on_add(
    "ADD.U8 R0, R1, R1;",
    1,
    "`ADD` does not take the data type modifier `.U8`"
)]
#[case::precision_x_in_nv("ADDX R0, R1, R1;", 1, "`ADD` takes no `X` precision suffix here")]
// <ccMaskRule>.
#[case::bad_cc("MOV R0 (XX), R1;", 9, "expected a condition code test")]
// Results are write-only; attributes read-only (§2.X.3.2, §2.X.3.5).
#[case::read_result(
    "MOV R0, result.color;",
    9,
    "`result.color` is a result and cannot be read"
)]
#[case::write_attrib("MOV fragment.color, R1;", 5, "`fragment.color` cannot be written")]
// Binding tables of NV_fragment_program4.
#[case::unknown_binding("MOV R0, fragment.colour;", 18, "after `fragment.`, found `colour`")]
#[case::binding_needs_index("MOV R0, fragment.attrib;", 24, "`fragment.attrib` needs an index")]
#[case::range_in_operand(
    "MOV R0, fragment.attrib[0..1];",
    26,
    "index ranges `[a..b]` are only valid in declarations"
)]
#[case::texture_as_operand(
    "MOV R0, texture[0];",
    9,
    "`texture` units are only valid as the unit operand"
)]
#[case::not_an_array("MOV R0, R1[0];", 11, "`R1` is not an array")]
// §2.X.3: a name is declared once; reserved words name no variable.
#[case::redeclared("TEMP R0;", 6, "`R0` is already declared")]
#[case::reserved("TEMP result;", 6, "`result` is a reserved word")]
#[case::reserved_fragment("TEMP fragment;", 6, "`fragment` is a reserved word")]
// §2.X.5: CAL targets must be defined somewhere; BRK only inside REP; ELSE needs IF.
#[case::undefined_label("CAL nowhere;", 5, "label `nowhere` is never defined")]
#[case::brk_outside("BRK;", 1, "`BRK` outside a `REP` block")]
#[case::else_without_if("ELSE;", 1, "`ELSE` without `IF`")]
#[case::endrep_closes_if("IF GT.x;\nENDREP;", 1, "`ENDREP` cannot close the open `IF` block")]
// Numbers (§2.X.2 <int>, <float>).
#[case::int_too_big(
    "MOV R0, 99999999999999999999;",
    9,
    "integer constant `99999999999999999999` is too large"
)]
#[case::float_out_of_range("MOV R0, 1e999;", 9, "floating-point constant `1e999` is out of range")]
#[case::bad_character("MOV R0, R1 @;", 12, "expected `;`, found character `@`")]
// SWZ takes four selectors; a target is one of <texTarget>.
#[case::swz_three("SWZ R0, R1, x, y, z;", 20, "expected `,`, found `;`")]
#[case::bad_target("TEX R0, R1, texture[0], 4D;", 25, "expected a texture target")]
// NV_gpu_program5 §2.X.4.4: no offsets on cube maps; TXGO no constant offset; TXD and TXGO
// no `offset(..)` operand.
#[case::cube_offset(
    "TEX R0, R1, texture[0], CUBE, (1, 0);",
    31,
    "texel offsets are not supported with `CUBE`"
)]
#[case::txgo_const_offset(
    "TXGO R0, R1, R0, R1, texture[0], 2D, (1, 0);",
    38,
    "`TXGO` takes its offsets as operands"
)]
#[case::txd_offset_operand(
    "TXD R0, R1, R0, R1, texture[0], 2D, offset(R0);",
    37,
    "`TXD` takes no `offset(..)` operand"
)]
// Kinds: LDC reads a CBUFFER; destinations are TEMP or OUTPUT (§2.X.4.3).
#[case::ldc_not_cbuffer("LDC.U32 R0, R1;", 13, "the operand must be a CBUFFER variable")]
#[case::fp_only_in_fp("EMIT;", 1, "`EMIT` is only valid in geometry programs")]
// NV_fragment_program4: interpolation modifiers only on ATTRIB; FLAT excludes CENTROID.
#[case::interp_on_temp("FLAT TEMP x;", 1, "interpolation modifiers apply only")]
#[case::flat_centroid(
    "FLAT CENTROID ATTRIB a = fragment.attrib[0];",
    1,
    "`FLAT` cannot be combined"
)]
// ARB_vertex_program §2.14.3.3 / NV_gpu_program4 §2.X.3.3: sizes match initializers;
// several matrix rows need an array.
#[case::size_mismatch(
    "PARAM c[3] = { program.local[0..3] };",
    1,
    "declared with 3 elements but initialized with 4"
)]
#[case::matrix_single("PARAM m = state.matrix.mvp;", 11, "binds several rows")]
#[case::buffer_in_param(
    "PARAM p = program.buffer[0][1];",
    11,
    "not valid in a `PARAM` statement"
)]
#[case::label_inside_block(
    "IF GT.x;\nfoo:\nENDIF;",
    1,
    "a label cannot be inside the `IF` block opened at 3:1"
)]
fn rejected_in_fp5(#[case] stmt: &str, #[case] col: u32, #[case] needle: &str) {
    // Multi-line cases report on their last-but-one line when the problem is there.
    let line = if stmt.starts_with("IF GT.x;\nENDREP") || stmt.starts_with("IF GT.x;\nfoo") {
        4
    } else {
        3
    };
    check(&fp5(stmt), line, col, needle);
}

#[rstest]
// The header must be one of the listed strings (NV_gpu_program4 §2.X.2, each stage's spec).
#[case::bad_header("!!NVfp9.0\nEND\n", 1, 1, "expected a program header")]
#[case::tgsi_text("FRAG\nEND\n", 1, 1, "expected a program header (`!!NVfp5.0`")]
#[case::missing_end(
    "!!NVfp5.0\nMOV result.color, fragment.color;\n",
    3,
    1,
    "expected `END`, found end of input"
)]
#[case::missing_semicolon(
    "!!ARBvp1.0\nTEMP R0;\nMOV R0, R0\nEND",
    4,
    1,
    "expected `;`, found `END`"
)]
// <optionSequence> comes first.
#[case::late_option(
    "!!NVfp5.0\nTEMP a;\nOPTION NV_internal;\nEND",
    3,
    1,
    "`OPTION` must come before every other statement"
)]
#[case::unknown_option("!!NVfp5.0\nOPTION NV_bogus;\nEND", 2, 8, "unknown option `NV_bogus`")]
// §2.X.5: blocks end before END; an endless REP needs a BRK or a RET.
#[case::unclosed_if(
    "!!NVfp5.0\nIF GT.x;\nEND",
    3,
    1,
    "`END` inside the `IF` block opened at 2:1"
)]
#[case::endless_rep(
    "!!NVfp5.0\nREP;\nENDREP;\nEND",
    3,
    1,
    "contains no `BRK` for it and no `RET`"
)]
#[case::second_else(
    "!!NVfp5.0\nIF GT;\nELSE;\nELSE;\nENDIF;\nEND",
    4,
    1,
    "a second `ELSE`"
)]
#[case::label_twice("!!NVfp5.0\na:\na:\nEND", 3, 1, "label `a` is defined twice")]
// NV_geometry_program4: PRIMITIVE_IN, PRIMITIVE_OUT and VERTICES_OUT are required, and
// come before the statements; they belong to geometry programs only.
#[case::gp_missing_decl(
    "!!NVgp5.0\nPRIMITIVE_IN POINTS;\nVERTICES_OUT 1;\nEND",
    4,
    1,
    "need a `PRIMITIVE_OUT` declaration"
)]
#[case::gp_decl_late(
    "!!NVgp5.0\nTEMP a;\nPRIMITIVE_IN POINTS;\nEND",
    3,
    1,
    "must come before the first instruction"
)]
#[case::gp_decl_twice(
    "!!NVgp5.0\nVERTICES_OUT 1;\nVERTICES_OUT 2;\nEND",
    3,
    1,
    "`VERTICES_OUT` is declared twice"
)]
#[case::gp_decl_in_fp(
    "!!NVfp5.0\nPRIMITIVE_IN POINTS;\nEND",
    2,
    1,
    "`PRIMITIVE_IN` is not a declaration of !!NVfp5.0 programs"
)]
#[case::bad_primitive(
    "!!NVgp5.0\nPRIMITIVE_IN QUADS;\nEND",
    2,
    14,
    "expected `POINTS`, `LINES`"
)]
#[case::patches_gp4(
    "!!NVgp4.0\nPRIMITIVE_IN PATCHES;\nEND",
    2,
    14,
    "`PATCHES` requires a `!!NVgp5.0` program"
)]
// NV_compute_program5: exactly one GROUP_SIZE.
#[case::cp_no_group_size("!!NVcp5.0\nEND", 2, 1, "need a `GROUP_SIZE` declaration")]
// Table X.13 "V" column.
#[case::gp5_op_in_gp4(
    "!!NVfp4.0\nTEMP R0;\nBFE R0, R0, R0;\nEND",
    3,
    1,
    "`BFE` requires a `!!NV*5.0` program"
)]
#[case::arb_only_op_in_nv(
    "!!NVvp4.0\nTEMP R0;\nARL R0.x, R0.x;\nEND",
    3,
    1,
    "`ARL` is not an instruction of !!NVvp4.0 programs"
)]
// ARB grammars: no `.MOD` pieces; |abs|, condition codes, labels and SHORT need NV options;
// targets are 1D 2D 3D CUBE RECT (+ SHADOW* with ARB_fragment_program_shadow).
#[case::arb_dot_modifier(
    "!!ARBfp1.0\nTEMP R0;\nMOV.F R0, R0;\nEND",
    3,
    4,
    "ARB programs take no `.` instruction modifiers"
)]
#[case::arb_abs(
    "!!ARBfp1.0\nTEMP R0;\nMOV R0, |R0|;\nEND",
    3,
    9,
    "`|absolute value|` requires an NV option"
)]
#[case::arb_cc_mask(
    "!!ARBvp1.0\nTEMP R0;\nMOV R0 (GT), R0;\nEND",
    3,
    8,
    "conditional write masks require an NV option"
)]
#[case::arb_cc1(
    "!!ARBfp1.0\nOPTION NV_fragment_program;\nTEMP R0;\nMOV R0 (GT1), R0;\nEND",
    4,
    9,
    "condition `GT1` is not available"
)]
#[case::arb_label(
    "!!ARBvp1.0\nfoo:\nEND",
    2,
    1,
    "labels require `OPTION NV_vertex_program2;`"
)]
#[case::arb_short(
    "!!ARBfp1.0\nSHORT TEMP R0;\nEND",
    2,
    1,
    "ARB programs allow only `SHORT`/`LONG`"
)]
#[case::arb_target(
    "!!ARBfp1.0\nTEX result.color, fragment.texcoord[0], texture[0], ARRAY2D;\nEND",
    2,
    53,
    "texture target `ARRAY2D` is not available"
)]
#[case::arb_shadow(
    "!!ARBfp1.0\nTEX result.color, fragment.texcoord[0], texture[0], SHADOW2D;\nEND",
    2,
    53,
    "texture target `SHADOW2D` is not available"
)]
#[case::arb_sat_in_vp(
    "!!ARBvp1.0\nMOV_SAT result.color, vertex.color;\nEND",
    2,
    1,
    "`MOV` takes no `_SAT` suffix here"
)]
#[case::arb_fp_vertex_binding(
    "!!ARBfp1.0\nMOV result.color, vertex.color;\nEND",
    2,
    19,
    "`vertex` is not declared"
)]
// Array bounds (§2.X.4.2: an absolute index out of range fails to load).
#[case::index_out_of_bounds(
    "!!NVvp4.0\nPARAM c[4] = { program.local[0..3] };\nMOV result.position, c[4];\nEND",
    3,
    24,
    "index 4 is out of bounds for `c` (size 4)"
)]
#[case::array_needs_index(
    "!!NVvp4.0\nPARAM c[4] = { program.local[0..3] };\nMOV result.position, c;\nEND",
    3,
    23,
    "`c` is an array and needs an index"
)]
// NV_geometry_program4: "vertex[A0.x].texcoord[1]" is ILLEGAL (constant vertex number).
#[case::gp_relative_vertex("!!NVgp4.0\nPRIMITIVE_IN POINTS;\nPRIMITIVE_OUT POINTS;\nVERTICES_OUT 1;\nINT TEMP A0;\nMOV result.position, vertex[A0.x].texcoord[1];\nEND", 6, 29, "this binding takes only a constant index")]
// ARB_fragment_program §3.11.2 and NV_fragment_program_option: instruction names (with
// their suffixes) are reserved keywords of ARB programs.
#[case::arb_opcode_name("!!ARBfp1.0\nTEMP MOV;\nEND", 2, 6, "`MOV` is a reserved word")]
#[case::arb_opcode_sat_name("!!ARBfp1.0\nTEMP MOV_SAT;\nEND", 2, 6, "`MOV_SAT` is a reserved word")]
#[case::arb_option_opcode_name(
    "!!ARBfp1.0\nOPTION NV_fragment_program;\nTEMP DDXH;\nEND",
    3,
    6,
    "`DDXH` is a reserved word"
)]
// <instLabel> is an identifier, which cannot start with a digit.
#[case::digit_label(
    "!!NVfp5.0\n2D:\nEND",
    2,
    1,
    "expected an opcode or a declaration, found `2D`"
)]
// ARB_vertex_program: ADDRESS is a vertex program statement only.
#[case::address_in_fp(
    "!!ARBfp1.0\nADDRESS A0;\nEND",
    2,
    1,
    "expected an opcode or a declaration, found `ADDRESS`"
)]
fn rejected_programs(
    #[case] text: &str,
    #[case] line: u32,
    #[case] col: u32,
    #[case] needle: &str,
) {
    check(text, line, col, needle);
}
