//! The real programs of corpus/nv (38 files, SOURCES.md): every program the sources mark
//! as loading parses, and printing is a fixed point (print → parse gives the same tree,
//! printing it again gives the same text); the five SOURCES.md marks "expected: FAIL" are
//! rejected, each at the place its source comment or spec names.

#[path = "../../tgsi/tests/common/mod.rs"]
mod common;

use shaderdiff_nv::{parse, print, NvLevel, NvStage};

/// Every program of corpus/nv with its text, sorted by name.
fn corpus() -> Vec<(String, String)> {
    let dir = common::shared("corpus/nv");
    let mut v: Vec<(String, String)> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x != "md"))
        .map(|p| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read_to_string(&p).unwrap())
        })
        .collect();
    v.sort();
    v
}

/// File names SOURCES.md marks "expected: FAIL".
fn expected_failures() -> Vec<String> {
    common::read_shared("corpus/nv/SOURCES.md")
        .lines()
        .filter(|l| l.starts_with("| ") && l.contains("expected: FAIL"))
        .map(|l| l[2..].split(' ').next().unwrap().to_string())
        .collect()
}

#[test]
fn corpus_programs_parse_and_print_as_a_fixed_point() {
    let files = corpus();
    assert_eq!(files.len(), 38, "corpus/nv holds 38 programs");
    let fails = expected_failures();
    assert_eq!(fails.len(), 5, "{fails:?}");
    let mut ok = 0;
    for (name, text) in &files {
        if fails.contains(name) {
            continue;
        }
        let p = parse(text, name).unwrap_or_else(|e| panic!("{e}"));
        let once = print(&p);
        let q = parse(&once, name).unwrap_or_else(|e| panic!("reparse of {name}: {e}\n{once}"));
        assert_eq!(q, p, "{name}: print → parse changed the program\n{once}");
        assert_eq!(print(&q), once, "{name}: printing is not a fixed point");
        // One statement per line: every line but the header and END ends with `;` or `:`.
        for line in once.lines().skip(1) {
            assert!(
                line == "END" || line.ends_with(';') || line.ends_with(':'),
                "{name}: {line:?}"
            );
        }
        ok += 1;
    }
    assert_eq!(ok, 33);
}

#[test]
fn corpus_negative_programs_are_rejected_where_their_sources_say() {
    // (file, line, col, words of the message). Positions counted by hand in the files.
    let cases = [
        // "# FAIL - requires 'OPTION NV_fragment_program'": DDX at line 4 after a TAB.
        (
            "Igalia_piglit_asmparsertest_ARBfp10_ddx_01.arbfp",
            4,
            2,
            "`DDX` requires `OPTION NV_fragment_program;`",
        ),
        // "# invalid extended swizzle selector": `2` in `SWZ R0, fragment.color, 0, 1, 2, -x`.
        (
            "Igalia_piglit_asmparsertest_ARBfp10_swz_05.arbfp",
            6,
            32,
            "invalid extended swizzle selector `2`",
        ),
        // `MOV R0, e-2`: `e-2` is no number (a float needs digits before `e`), so `e` is
        // read as a name, and no variable `e` exists.
        (
            "Igalia_piglit_asmparsertest_ARBvp10_numbers_03.arbvp",
            4,
            10,
            "`e` is not declared",
        ),
        // SSG is an NV_vertex_program2 instruction; the program has no OPTION.
        (
            "Igalia_piglit_asmparsertest_ARBvp10_ssg_01.arbvp",
            4,
            1,
            "`SSG` requires `OPTION NV_vertex_program2;`",
        ),
        // NV_parameter_buffer_object: "program.buffer[...]" cannot appear as an operand.
        (
            "KhronosGroup_OpenGL-Registry_NV_parameter_buffer_object_example.nvfp",
            8,
            8,
            "`program.buffer` is only valid as the binding of a declaration",
        ),
    ];
    let files = corpus();
    let fails = expected_failures();
    for (name, line, col, needle) in cases {
        assert!(fails.iter().any(|f| f == name), "{name} is not marked FAIL");
        let text = &files.iter().find(|(n, _)| n == name).unwrap().1;
        let e = parse(text, name).expect_err(name);
        assert_eq!((e.pos.line, e.pos.col), (line, col), "{e}");
        assert!(e.message.contains(needle), "{e}");
        assert!(e.to_string().starts_with(&format!("{name}:{line}:{col}: ")));
    }
}

#[test]
fn corpus_headers_and_syntax_variants() {
    let files = corpus();
    let get = |n: &str| {
        let t = &files.iter().find(|(f, _)| f.starts_with(n)).unwrap().1;
        parse(t, n).unwrap()
    };
    // cgc geometry output: three program declarations, EMIT/ENDPRIM, `{1, 0}.xyyx`,
    // the `# 20 instructions` trailer after END.
    let gp = get("OGRECave_ogre_Swizzle_gp_1");
    assert_eq!(gp.header.stage, NvStage::Geometry);
    assert_eq!(gp.header.level, NvLevel::Nv40);
    assert_eq!(gp.program_decls.len(), 3);
    assert_eq!(gp.instructions().count(), 20);
    // `...c5.x;END` without a newline.
    let sv = get("OGRECave_ogre_ShadowVolumeExtrudeProgram_cpp_4");
    assert_eq!(sv.instructions().count(), 7); // ADD, MAD, 4 DP4, MOV
    assert!(sv.header.is_arb());
    // Trailing spaces on every line, no newline after END.
    let ta = get("OGRECave_ogre_TextureArray_h_2");
    assert_eq!(ta.instructions().count(), 7); // MOV FLR TEX ADD TEX FRC LRP
                                              // Zero instructions.
    assert_eq!(
        get("drbrain_opengl_test_gl_ext_nv_rb_1")
            .instructions()
            .count(),
        0
    );
}
