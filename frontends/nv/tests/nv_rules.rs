//! The specs' load-time rules, one class at a time: programs written from the spec text
//! that must load, and programs that break one sentence, rejected at the `line:col` of the
//! offending token (counted by hand: 1-based, columns in characters).

use shaderdiff_nv::{parse, parse_with, LimitProfile};

fn rejects(text: &str, line: u32, col: u32, needle: &str) {
    rejects_with(text, LimitProfile::Spec, line, col, needle);
}

fn rejects_with(text: &str, limits: LimitProfile, line: u32, col: u32, needle: &str) {
    match parse_with(text, "t.nv", limits) {
        Ok(_) => panic!("accepted:\n{text}"),
        Err(e) => {
            assert_eq!((e.pos.line, e.pos.col), (line, col), "{e}\n{text}");
            assert!(e.message.contains(needle), "{e} lacks {needle:?}");
            assert!(e.to_string().starts_with(&format!("t.nv:{line}:{col}: ")));
        }
    }
}

fn accepts(text: &str) {
    if let Err(e) = parse(text, "t.nv") {
        panic!("{e}\n{text}");
    }
}

// ---- 1. ARB_vertex_program address registers (§2.14.2 grammar) ----

#[test]
fn arb_address_registers_follow_the_arb_vertex_program_grammar() {
    // <ARL_instruction> ::= "ARL" <maskedAddrReg> "," <scalarSrcReg>.
    accepts("!!ARBvp1.0\nADDRESS A0;\nPARAM M[4] = { program.local[0..3] };\nARL A0.x, vertex.position.x;\nMOV result.position, M[A0.x + 1];\nEND\n");
    // <addrWriteMask> ::= "." "x".
    rejects(
        "!!ARBvp1.0\nADDRESS A0;\nARL A0.y, vertex.position.x;\nEND\n",
        3,
        7,
        "written through `.x` only",
    );
    rejects(
        "!!ARBvp1.0\nADDRESS A0;\nARL A0, vertex.position.x;\nEND\n",
        3,
        7,
        "written through `.x` only",
    );
    // <scalarSrcReg>: ARL's operand is a scalar.
    rejects(
        "!!ARBvp1.0\nADDRESS A0;\nARL A0.x, vertex.position;\nEND\n",
        3,
        11,
        "a scalar operand needs one component",
    );
    // <progParamArrayRel> ::= <addrReg> <addrComponent> ...: a TEMP is no index.
    rejects(
        "!!ARBvp1.0\nPARAM M[4] = { program.local[0..3] };\nTEMP R1;\nMOV result.position, M[R1.x];\nEND\n",
        4,
        24,
        "a relative index in ARB programs is an address register",
    );
    // <addrComponent> ::= "." "x".
    rejects(
        "!!ARBvp1.0\nADDRESS A0;\nPARAM M[4] = { program.local[0..3] };\nMOV result.position, M[A0.y];\nEND\n",
        4,
        27,
        "only through its `x` component",
    );
    // <addrRegPosOffset> ::= <integer> from 0 to 63.
    rejects(
        "!!ARBvp1.0\nADDRESS A0;\nPARAM M[4] = { program.local[0..3] };\nMOV result.position, M[A0.x + 64];\nEND\n",
        4,
        31,
        "outside -64..63",
    );
}

#[test]
fn nv_vertex_program2_widens_address_registers() {
    // NV_vertex_program2_option: <ARLop_src> ::= <instOperandV>, <optAddrWriteMask>,
    // <addrComponent> ::= <xyzwComponent>.
    accepts("!!ARBvp1.0\nOPTION NV_vertex_program2;\nADDRESS A0;\nPARAM M[4] = { program.local[0..3] };\nARL A0, vertex.position;\nMOV result.position, M[A0.y];\nEND\n");
}

// ---- 2. Scalar constants in ARB programs ----

#[test]
fn arb_scalar_constants_take_the_operand_suffix() {
    // ARB_fragment_program: <scalarSrcReg> ::= <optionalSign> <srcReg> <scalarSuffix>,
    // and a constant is a <srcReg> (<paramConstScalarUse>).
    rejects(
        "!!ARBfp1.0\nTEMP r;\nCOS r, 3.14159;\nEND\n",
        3,
        8,
        "needs a component suffix",
    );
    accepts("!!ARBfp1.0\nTEMP r;\nCOS r, 3.14159.x;\nMOV result.color, r;\nEND\n");
    // <vectorSrcReg> takes an optional suffix.
    accepts("!!ARBfp1.0\nMOV result.color, 0.5;\nMOV result.color, 0.5.x;\nEND\n");
    // NV_fragment_program_option: <paramUseS> ::= <constantScalar>.
    accepts("!!ARBfp1.0\nOPTION NV_fragment_program;\nTEMP r;\nCOS r, 3.14159;\nMOV result.color, r;\nEND\n");
    // NV_gpu_program4 <paramUseS> ::= ... | <constantScalar>: no suffix in NV headers.
    accepts("!!NVfp4.0\nTEMP r;\nCOS r, 3.14159;\nEND\n");
}

// ---- 3. "will fail to load" sentences ----

#[test]
fn option_conflicts_fail_to_load() {
    // ARB_fragment_program §3.11.4.5.1: at most one fog option.
    for (a, b) in [
        ("ARB_fog_exp", "ARB_fog_exp2"),
        ("ARB_fog_exp", "ARB_fog_linear"),
        ("ARB_fog_exp2", "ARB_fog_linear"),
    ] {
        rejects(
            &format!("!!ARBfp1.0\nOPTION {a};\nOPTION {b};\nEND\n"),
            3,
            8,
            "only one fog option",
        );
    }
    // §3.11.4.5.2: both precision hints.
    rejects(
        "!!ARBfp1.0\nOPTION ARB_precision_hint_fastest;\nOPTION ARB_precision_hint_nicest;\nEND\n",
        3,
        8,
        "only one precision hint",
    );
    accepts("!!ARBfp1.0\nOPTION ARB_fog_linear;\nOPTION ARB_precision_hint_nicest;\nMOV result.color, fragment.color;\nEND\n");
    // "A program will fail to load if it specifies a program option not supported": the
    // fog options are fragment program options.
    rejects(
        "!!ARBvp1.0\nOPTION ARB_fog_exp;\nEND\n",
        2,
        8,
        "is not an option of !!ARBvp1.0 programs",
    );
    rejects(
        "!!ARBfp1.0\nOPTION ARB_position_invariant;\nEND\n",
        2,
        8,
        "is not an option of !!ARBfp1.0 programs",
    );
}

#[test]
fn position_invariant_programs_cannot_write_the_position() {
    // ARB_vertex_program §2.14.4.5.1: <resultBinding> loses "result.position".
    rejects(
        "!!ARBvp1.0\nOPTION ARB_position_invariant;\nMOV result.position, vertex.position;\nEND\n",
        3,
        5,
        "`result.position` cannot be written",
    );
    accepts("!!ARBvp1.0\nOPTION ARB_position_invariant;\nMOV result.color, vertex.color;\nEND\n");
}

#[test]
fn conventional_and_generic_aliases_fail_to_load() {
    // ARB_vertex_program §2.14.3.1, Table X.2.1: vertex.normal ~ vertex.attrib[2].
    rejects(
        "!!ARBvp1.0\nMOV result.color, vertex.normal;\nMOV result.texcoord, vertex.attrib[2];\nEND\n",
        3,
        22,
        "`vertex.attrib[2]` aliases `vertex.normal`",
    );
    // vertex.texcoord[1] ~ vertex.attrib[9]; a different row is fine.
    rejects(
        "!!ARBvp1.0\nATTRIB t = vertex.attrib[9];\nMOV result.color, vertex.texcoord[1];\nEND\n",
        2,
        12,
        "aliases `vertex.texcoord`",
    );
    accepts("!!ARBvp1.0\nMOV result.color, vertex.normal;\nMOV result.texcoord, vertex.attrib[6];\nEND\n");
}

#[test]
fn state_bound_twice_in_a_relatively_addressed_array_fails_to_load() {
    // ARB_vertex_program §2.14.3.4: mvp's rows include row[1].
    let twice = "!!ARBvp1.0\nADDRESS A0;\nPARAM m[] = { state.matrix.mvp, state.matrix.mvp.row[1] };\nARL A0.x, vertex.position.x;\nMOV result.position, m[A0.x];\nEND\n";
    rejects(twice, 3, 7, "bound twice in `m`");
    // Without relative addressing the GL merges the bindings.
    accepts("!!ARBvp1.0\nPARAM m[] = { state.matrix.mvp, state.matrix.mvp.row[1] };\nMOV result.position, m[1];\nEND\n");
    // Once in each of two relatively addressed arrays.
    rejects(
        "!!ARBvp1.0\nADDRESS A0;\nPARAM a[] = { state.light[0].diffuse };\nPARAM b[] = { state.light[0].diffuse };\nARL A0.x, vertex.position.x;\nMOV result.position, a[A0.x];\nMOV result.color, b[A0.x];\nEND\n",
        4,
        7,
        "in both `a` and `b`",
    );
}

// ---- 4. Bindings and syntax outside the grammar ----

#[test]
fn bindings_outside_the_grammar_are_refused() {
    // ARB_fragment_program <resultBinding>: result.color and result.depth only.
    rejects(
        "!!ARBfp1.0\nMOV result.color.primary, fragment.color;\nEND\n",
        2,
        5,
        "is not a fragment program result",
    );
    rejects(
        "!!NVfp4.0\nMOV result.color.secondary, fragment.color;\nEND\n",
        2,
        5,
        "is not a fragment program result",
    );
    // NV_vertex_program2_option adds result.clip[n].
    rejects(
        "!!ARBvp1.0\nMOV result.clip[0], vertex.position;\nEND\n",
        2,
        5,
        "requires `OPTION NV_vertex_program2;`",
    );
    accepts("!!ARBvp1.0\nOPTION NV_vertex_program2;\nMOV result.clip[0], vertex.position;\nEND\n");
    // <arrayRange> follows only program.env, program.local and .row.
    rejects(
        "!!ARBvp1.0\nPARAM t[] = { state.matrix.texture[0..3] };\nEND\n",
        2,
        15,
        "not allowed after `texture`",
    );
    rejects(
        "!!ARBvp1.0\nPARAM l[] = { state.light[0..7].ambient };\nEND\n",
        2,
        15,
        "not allowed after `light`",
    );
    accepts("!!ARBvp1.0\nPARAM t[] = { state.matrix.texture[0].row[0..3], program.env[0..2] };\nMOV result.position, t[4];\nEND\n");
    // <extendedSwizzle> is all xyzw or all rgba.
    rejects(
        "!!ARBfp1.0\nTEMP R0;\nSWZ R0, fragment.color, x, g, 0, 1;\nEND\n",
        3,
        28,
        "not both",
    );
    accepts(
        "!!ARBfp1.0\nTEMP R0;\nSWZ R0, fragment.color, r, -g, 0, 1;\nMOV result.color, R0;\nEND\n",
    );
    // NV_vertex_program3 § POPA: no write mask other than .xyzw.
    rejects(
        "!!ARBvp1.0\nOPTION NV_vertex_program3;\nADDRESS A0;\nPOPA A0.x;\nEND\n",
        4,
        6,
        "`POPA` takes no write mask",
    );
    accepts("!!ARBvp1.0\nOPTION NV_vertex_program3;\nADDRESS A0;\nPUSHA A0;\nPOPA A0;\nEND\n");
}

// ---- 5. One target per texture unit (validation, so check and run agree) ----

#[test]
fn one_texture_unit_takes_one_target() {
    // ARB_fragment_program §3.11.6: the spec's own example.
    rejects(
        "!!ARBfp1.0\nTEX result.color, fragment.texcoord[0], texture[0], 2D;\nTEX result.depth, fragment.texcoord[1], texture[0], 3D;\nEND\n",
        3,
        41,
        "texture[0] is used with targets 2D and 3D",
    );
    accepts("!!ARBfp1.0\nTEX result.color, fragment.texcoord[0], texture[0], 2D;\nTEX result.depth, fragment.texcoord[1], texture[1], 3D;\nEND\n");
}

// ---- 6. Implementation limits ----

#[test]
fn binding_indices_are_checked_against_the_limits() {
    // ARB_fragment_program: MAX_PROGRAM_LOCAL_PARAMETERS_ARB is at least 24.
    rejects(
        "!!ARBfp1.0\nMOV result.color, program.local[100000];\nEND\n",
        2,
        19,
        "MAX_PROGRAM_LOCAL_PARAMETERS_ARB = 24",
    );
    accepts("!!ARBfp1.0\nMOV result.color, program.local[23];\nEND\n");
    rejects(
        "!!ARBfp1.0\nMOV result.color, program.local[24];\nEND\n",
        2,
        19,
        "--limits spec",
    );
    // Mesa's MAX_PROGRAM_LOCAL_PARAMS is 4096.
    parse_with(
        "!!ARBfp1.0\nMOV result.color, program.local[4095];\nEND\n",
        "t.nv",
        LimitProfile::Mesa,
    )
    .unwrap();
    rejects_with(
        "!!ARBfp1.0\nMOV result.color, program.local[100000];\nEND\n",
        LimitProfile::Mesa,
        2,
        19,
        "= 4096 (--limits mesa;",
    );
    // ARB_vertex_program: MAX_VERTEX_ATTRIBS_ARB is at least 16.
    rejects(
        "!!ARBvp1.0\nMOV result.position, vertex.attrib[537];\nEND\n",
        2,
        22,
        "MAX_VERTEX_ATTRIBS_ARB = 16",
    );
    // <clipPlaneNum> from 0 to MAX_CLIP_PLANES-1.
    rejects(
        "!!ARBvp1.0\nOPTION NV_vertex_program2;\nMOV result.clip[99], vertex.position;\nEND\n",
        3,
        5,
        "MAX_CLIP_PLANES",
    );
    // ARB_vertex_program §2.14.3.1: a weight number not divisible by four.
    rejects(
        "!!ARBvp1.0\nMOV result.color, vertex.weight[1];\nEND\n",
        2,
        19,
        "multiple of four",
    );
    // MAX_PROGRAM_ADDRESS_REGISTERS_ARB is at least 1.
    rejects(
        "!!ARBvp1.0\nADDRESS A0, A1;\nEND\n",
        2,
        13,
        "more than 1 address register",
    );
}

// ---- 7. result.color[n] needs ARB_draw_buffers ----

#[test]
fn indexed_color_results_need_the_draw_buffers_option() {
    // NV_fragment_program4 §2.X.3.5 and "Multiple Color Outputs".
    rejects(
        "!!NVfp4.0\nMOV result.color[1], fragment.color;\nEND\n",
        2,
        5,
        "requires `OPTION ARB_draw_buffers;`",
    );
    rejects(
        "!!NVfp5.0\nOUTPUT o = result.color[0];\nEND\n",
        2,
        12,
        "requires `OPTION ARB_draw_buffers;`",
    );
    accepts("!!NVfp4.0\nOPTION ARB_draw_buffers;\nMOV result.color[1], fragment.color;\nEND\n");
    accepts("!!ARBfp1.0\nOPTION ATI_draw_buffers;\nMOV result.color[1], fragment.color;\nEND\n");
    accepts("!!NVfp4.0\nMOV result.color, fragment.color;\nEND\n");
}

// ---- 8. Shadow targets in vertex programs ----

#[test]
fn shadow_targets_in_vertex_programs_follow_nv_vertex_program3() {
    // NV_vertex_program3, "Dependencies on ARB_fragment_program_shadow": vertex programs
    // may name the option and use SHADOW1D, SHADOW2D, SHADOWRECT.
    accepts("!!ARBvp1.0\nOPTION NV_vertex_program3;\nOPTION ARB_fragment_program_shadow;\nTEMP R0;\nTEX R0, vertex.texcoord[0], texture[0], SHADOW2D;\nMOV result.position, R0;\nEND\n");
    rejects(
        "!!ARBvp1.0\nOPTION ARB_fragment_program_shadow;\nMOV result.position, vertex.position;\nEND\n",
        2,
        8,
        "needs `OPTION NV_vertex_program3;`",
    );
}

// ---- 11. Saturation on integer results ----

#[test]
fn saturation_needs_floating_point_results() {
    // NV_gpu_program4 §2.X.4.1: "Clamping modifiers are not supported on instructions
    // that do not produce floating-point results".
    rejects(
        "!!NVfp5.0\nTEMP R0;\nADD.S.SAT R0, R0, R0;\nEND\n",
        3,
        1,
        "saturation is not supported on fixed-point results",
    );
    rejects(
        "!!NVvp4.0\nTEMP R0;\nMOV.U.SSAT R0, R0;\nEND\n",
        3,
        1,
        "`MOV.U` produces integers",
    );
    rejects(
        "!!NVfp5.0\nTEMP R0;\nTEX.S.SAT R0, R0, texture[0], 2D;\nEND\n",
        3,
        1,
        "fixed-point results",
    );
    accepts("!!NVfp5.0\nTEMP R0;\nADD.F.SAT R0, R0, R0;\nEND\n");
    // NV_gpu_program5 § CVT: "Integer values are clamped ... if SAT is specified".
    accepts("!!NVfp5.0\nTEMP R0;\nCVT.S32.F32.SAT R0, R0;\nCVT.S64.F64.SAT R0, R0;\nEND\n");
    // § UP2H: the data type names the operand; the results are floating-point.
    accepts("!!NVfp5.0\nTEMP R0;\nUP2H.U.SAT R0, R0.x;\nEND\n");
}
