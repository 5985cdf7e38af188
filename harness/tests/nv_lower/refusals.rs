//! What is not lowered yet is refused with its position; the ARB corpus agrees or is refused.

use shaderdiff_nv as nv;

/// What the lowering does not do yet is refused with the instruction and its position,
/// never lowered approximately: carry / overflow flags of integer SAD and of a
/// negated ADD / SUB, CVT between F16 and 64-bit types, 32-bit accesses to
/// LONG variables, F16 atomics and textures outside the model
/// (SHADOWARRAYCUBE; the rest in textures.rs and tex_shadowcube.rs).
#[test]
fn unsupported_constructs_are_refused_with_their_position() {
    let cases: &[(&str, &str, (u32, u32))] = &[
        (
            "!!NVvp5.0\nTEMP t;\nADD.S.CC t, t, -t;\nEND\n",
            "negated operand",
            (3, 1),
        ),
        (
            "!!NVvp5.0\nTEMP t;\n  SAD.U.CC t, t, t, t;\nEND\n",
            "SAD.CC",
            (3, 3),
        ),
        (
            "!!NVvp5.0\nTEMP i;\nLONG TEMP d;\nCVT.F16.F64 i, d;\nEND\n",
            "from 64 bits only to F32, S32 or U32",
            (4, 1),
        ),
        (
            "!!NVvp5.0\nTEMP t;\nLONG TEMP a;\nATOM.ADD.F16X2 t.x, t, a.x;\nEND\n",
            "F16 atomics",
            (4, 1),
        ),
        (
            "!!NVvp5.0\nLONG TEMP d;\n MOV.U d.x, 1;\nEND\n",
            "32-bit access to the LONG variable `d`",
            (3, 2),
        ),
        (
            "!!NVvp5.0\nPARAM p = program.local[0];\nLONG TEMP d;\nADD.U64 d, p, p;\nEND\n",
            "is a 32-bit variable",
            (4, 1),
        ),
        (
            "!!NVfp5.0\nTEX result.color, fragment.texcoord[0], texture[0], SHADOWARRAYCUBE;\nEND\n",
            "TEX: SHADOWARRAYCUBE targets are outside the texture model",
            (2, 1),
        ),
    ];
    for (text, what, (line, col)) in cases {
        let p = nv::parse(text, "t.nv").unwrap_or_else(|e| panic!("{text}: {e}"));
        let e = nv::lower(&p).expect_err(text);
        assert!(
            matches!(e, nv::LowerError::Unsupported { .. }),
            "{text}: {e}"
        );
        assert!(e.to_string().contains(what), "{text}: {e}");
        assert_eq!((e.pos().line, e.pos().col), (*line, *col), "{text}: {e}");
    }
}

/// MUL.HI, MUL.S24 and MUL.U24 are 32-bit multiplies (NV_gpu_program4 § MUL: "The HI
/// modifier specifies a 32-bit integer multiply"; S24 / U24 imply their data type): with a
/// 64-bit data type the program is invalid (exit 2), not an unsupported form.
#[test]
fn mul_hi_of_64_bits_is_invalid() {
    for (text, col) in [
        ("!!NVvp5.0\nLONG TEMP d;\nMUL.S64.HI d, d, d;\nEND\n", 1),
        ("!!NVvp5.0\nLONG TEMP d;\n  MUL.U64.HI d, d, d;\nEND\n", 3),
    ] {
        let p = nv::parse(text, "t.nv").unwrap_or_else(|e| panic!("{text}: {e}"));
        let e = nv::lower(&p).expect_err(text);
        assert!(matches!(e, nv::LowerError::Invalid { .. }), "{text}: {e}");
        assert!(
            e.to_string().contains("HI is a 32-bit multiply modifier"),
            "{text}: {e}"
        );
        assert_eq!((e.pos().line, e.pos().col), (3, col), "{text}: {e}");
    }
}

/// The ARB programs of ../shared/corpus/nv without textures run on every engine through
/// `shaderdiff diff` and agree with the oracle; the ones using something not lowered yet
/// are reported `unsupported` (exit 3), the piglit negative tests are bad input (exit 2).
#[test]
fn arb_corpus_agrees_on_every_engine() {
    let dir = std::env::var_os("SHADERDIFF_SHARED")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared"))
        .join("corpus/nv");
    // The texture programs (boxFilter, fbo_test_rb_2, fp_tex_pos_kil, txd_01, and shadow_01
    // with its SHADOW2D target) run: their unit has no texture in random inputs, so every
    // sample is undefined and the engines agree on everything else
    // (textures_shadowcube.rs runs shadow_01 on a depth texture).
    // The two BRA programs loop forever when a component of vertex.position is zero
    // (random inputs have zeros): `branches.rs` runs them on chosen inputs.
    let skipped = [
        "Igalia_piglit_asmparsertest_ARBvp10_bra_01.arbvp",
        "Igalia_piglit_asmparsertest_ARBvp10_bra_03.arbvp",
    ];
    let refused: [&str; 0] = [];
    // Negative parser tests (the program must fail to load).
    let invalid = [
        "Igalia_piglit_asmparsertest_ARBfp10_ddx_01.arbfp",
        "Igalia_piglit_asmparsertest_ARBfp10_swz_05.arbfp",
        "Igalia_piglit_asmparsertest_ARBvp10_numbers_03.arbvp",
        "Igalia_piglit_asmparsertest_ARBvp10_ssg_01.arbvp",
    ];
    let mut agreed = 0;
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("corpus")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "arbvp" || x == "arbfp"))
        .collect();
    files.sort();
    for path in files {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        if skipped.contains(&name.as_str()) {
            continue;
        }
        let o = std::process::Command::new(env!("CARGO_BIN_EXE_shaderdiff"))
            .args(["diff", &path.display().to_string(), "--random-inputs", "4"])
            .args(["--format", "json"])
            .output()
            .expect("runs");
        let code = o.status.code();
        let out = String::from_utf8_lossy(&o.stdout);
        if invalid.contains(&name.as_str()) {
            assert_eq!(code, Some(2), "{name}: {out}");
        } else if refused.contains(&name.as_str()) {
            assert_eq!(code, Some(3), "{name}: {out}");
            assert!(out.contains("\"unsupported\""), "{name}: {out}");
        } else {
            assert_eq!(code, Some(0), "{name}: {out}");
            assert!(out.contains("\"verdict\":\"agree\""), "{name}: {out}");
            agreed += 1;
        }
    }
    assert!(agreed >= 15, "only {agreed} ARB programs compared");
}
