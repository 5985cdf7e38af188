//! Cube map and SHADOW textures through the inputs file (README "Textures"): TGSI CUBE,
//! CUBEARRAY, SHADOW2D and SHADOWCUBE run by `run` and agreeing on interp and jit, the ARB
//! corpus shadow program on a depth texture, the load rules (exit 2) and bad entries at
//! file:line:col. Expected values are worked by hand from OpenGL 3.x §3.8.6 Table 3.19 and
//! §3.8.14-15 beside each case.

mod common;

use common::{code, run, text, Scratch};

/// Little-endian hex bytes of a word.
fn hex(w: u32) -> String {
    w.to_le_bytes().iter().map(|b| format!("{b:02x}")).collect()
}

fn f(x: f32) -> String {
    format!("0x{:08x}", x.to_bits())
}

fn u(n: u32) -> String {
    format!("0x{n:08x}")
}

/// SAMP[0]: CUBE of 1x1 faces, face `f` = `[f, 0x10 + f, 0x20 + f, 0x30 + f]` (RGBA32UI);
/// SAMP[1]: CUBEARRAY of 2 cubes of 1x1 faces, layer-face `n` = `[n; 4]`;
/// SAMP[2]: SHADOWCUBE, 1x1 faces, face `f` has depth `f / 8`, LESS.
/// OUT[0] = TEX CUBE (IN[0]), OUT[1] = TEX CUBEARRAY (IN[0].xyz, layer IN[0].w),
/// OUT[2] = TEX SHADOWCUBE (IN[0].xyz, reference IN[0].w), OUT[3] = TXQ CUBEARRAY level 0.
#[test]
fn tgsi_cube_maps() {
    let s = Scratch::new("tex-cube");
    let p = s.file(
        "p.tgsi",
        "VERT\nDCL IN[0]\nDCL OUT[0..3]\nDCL SAMP[0..2]\nDCL SVIEW[0], CUBE, UINT\n\
         DCL SVIEW[1], CUBEARRAY, UINT\nDCL SVIEW[2], SHADOWCUBE, FLOAT\n\
         IMM[0] INT32 {0, 0, 0, 0}\n\
         TEX OUT[0], IN[0], SAMP[0], CUBE\nTEX OUT[1], IN[0], SAMP[1], CUBEARRAY\n\
         TEX OUT[2], IN[0], SAMP[2], SHADOWCUBE\nTXQ OUT[3], IMM[0], SAMP[1], CUBEARRAY\nEND\n",
    );
    let faces: String = (0..6u32)
        .map(|n| [n, 0x10 + n, 0x20 + n, 0x30 + n].map(hex).concat())
        .collect();
    let layer_faces: String = (0..12u32).map(|n| hex(n).repeat(4)).collect();
    let depths: String = (0..6u32)
        .map(|n| hex((n as f32 / 8.0).to_bits()) + &hex(0).repeat(3))
        .collect();
    // Invocations (x, y, z, w): the six major axes, w = 0.3 (layer 0; reference 0.3),
    // then a tie |x| = |y| with w = 1 (layer 1).
    let i = s.file(
        "in.json",
        &format!(
            "{{\"invocations\": 7, \"registers\": {{\"IN[0]\": [\
             [1, 0.2, 0.3, 0.3], [-1, 0.2, 0.3, 0.3], [0.2, 1, 0.3, 0.3], [0.2, -1, 0.3, 0.3],\
             [0.2, 0.3, 1, 0.3], [0.2, 0.3, -1, 0.3], [1, -1, 0.5, 1]]}},\
             \"textures\": {{\
             \"SAMP[0]\": {{\"target\": \"CUBE\", \"format\": \"RGBA32UI\", \"width\": 1, \"levels\": [\"{faces}\"]}},\
             \"SAMP[1]\": {{\"target\": \"CUBEARRAY\", \"format\": \"RGBA32UI\", \"width\": 1, \"layers\": 2, \"levels\": [\"{layer_faces}\"]}},\
             \"SAMP[2]\": {{\"target\": \"CUBE\", \"format\": \"RGBA32F\", \"width\": 1, \"compare_func\": \"LESS\", \"levels\": [\"{depths}\"]}}}}}}"
        ),
    );
    let o = run(&["run", &p, "--inputs", &i, "--format", "json"]);
    assert_eq!(code(&o), 0, "{}", text(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let (one, zero) = (f(1.0), f(0.0));
    for face in 0..6u32 {
        let inv = face as usize;
        // Invocation k has major axis face k (Table 3.19: +X, -X, +Y, -Y, +Z, -Z).
        let want: Vec<String> = [face, 0x10 + face, 0x20 + face, 0x30 + face]
            .map(u)
            .to_vec();
        assert_eq!(
            v["registers"]["OUT[0]"][inv],
            serde_json::json!(want),
            "{v}"
        );
        // Layer round(0.3) = 0: layer-face = face.
        assert_eq!(v["registers"]["OUT[1]"][inv][0], u(face), "{v}");
        // LESS: 0.3 < face / 8 holds for faces 3, 4, 5 (0.375, 0.5, 0.625).
        let r = if face >= 3 { &one } else { &zero };
        assert_eq!(
            v["registers"]["OUT[2]"][inv],
            serde_json::json!([r, r, r, one]),
            "{v}"
        );
    }
    // The tie between +X and -Y: faces 0 and 3 hold different words: undefined.
    assert_eq!(
        v["undefined"]["OUT[0]"][6],
        serde_json::json!([true, true, true, true])
    );
    // TXQ: (1, 1, 2 cubes, 1 level).
    assert_eq!(
        v["registers"]["OUT[3]"][0],
        serde_json::json!([u(1), u(1), u(2), u(1)])
    );
    let o = run(&["diff", &p, "--inputs", &i, "--backends", "jit,valhall"]);
    let t = text(&o);
    assert_eq!(code(&o), 0, "{t}");
    assert!(t.contains("agree (interp vs jit"), "{t}");
    // valhall's texture unit does not sample cube maps (exit 3 there, not a mismatch).
    assert!(
        t.contains("not supported by the valhall texture unit"),
        "{t}"
    );
}

/// SHADOW2D (reference z) with LEQUAL on a 2x2 depth texture, depths 0.25, 0.5, 0.75, 1.0
/// (texel `n` = `(n + 1) / 4`), and TXP with w = 2.
#[test]
fn tgsi_shadow2d() {
    let s = Scratch::new("tex-shadow2d");
    let p = s.file(
        "p.tgsi",
        "VERT\nDCL IN[0]\nDCL IN[1]\nDCL OUT[0..1]\nDCL SAMP[0]\nDCL SVIEW[0], SHADOW2D, FLOAT\n\
         TEX OUT[0], IN[0], SAMP[0], SHADOW2D\nTXP OUT[1], IN[1], SAMP[0], SHADOW2D\nEND\n",
    );
    let depths: String = (1..=4u32)
        .map(|n| hex((n as f32 / 4.0).to_bits()) + &hex(0).repeat(3))
        .collect();
    // Invocation 0: (0.25, 0.25) → texel 0 (0.25), R = 0.3 → 0.3 <= 0.25 false.
    // Invocation 1: (0.75, 0.25) → texel 1 (0.5), R = 0.5 → equal depths: true.
    // Invocation 2: (0.75, 0.75) → texel 3 (1.0), R = 0.9 → true.
    // Invocation 3: (0.25, 0.75) → texel 2 (0.75), R = 1.5: false unclamped and clamped
    // (1.0 <= 0.75): defined false.
    // IN[1] = 2 * IN[0] with w = 2 (TXP): the same, except invocation 1, whose reference
    // 1.0 / 2 = 0.5 is known only within the division's rounding and ties D_t = 0.5:
    // LEQUAL may go either way (interp: undefined x, y, z).
    let i = s.file(
        "in.json",
        &format!(
            "{{\"invocations\": 4, \"registers\": {{\
             \"IN[0]\": [[0.25, 0.25, 0.3, 0], [0.75, 0.25, 0.5, 0], [0.75, 0.75, 0.9, 0], [0.25, 0.75, 1.5, 0]],\
             \"IN[1]\": [[0.5, 0.5, 0.6, 2], [1.5, 0.5, 1.0, 2], [1.5, 1.5, 1.8, 2], [0.5, 1.5, 3.0, 2]]}},\
             \"textures\": {{\"SAMP[0]\": {{\"target\": \"2D\", \"format\": \"RGBA32F\", \"width\": 2, \
             \"height\": 2, \"compare_func\": \"LEQUAL\", \"levels\": [\"{depths}\"]}}}}}}"
        ),
    );
    let o = run(&["run", &p, "--inputs", &i, "--format", "json"]);
    assert_eq!(code(&o), 0, "{}", text(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let (one, zero) = (f(1.0), f(0.0));
    let pass = serde_json::json!([one, one, one, one]);
    let fail = serde_json::json!([zero, zero, zero, one]);
    let out0 = &v["registers"]["OUT[0]"];
    assert_eq!(out0[0], fail, "{v}");
    assert_eq!(out0[1], pass, "{v}");
    assert_eq!(out0[2], pass, "{v}");
    assert_eq!(out0[3], fail, "{v}");
    let out1 = &v["registers"]["OUT[1]"];
    assert_eq!(out1[0], fail, "{v}");
    assert_eq!(out1[2], pass, "{v}");
    assert_eq!(out1[3], fail, "{v}");
    assert_eq!(
        v["undefined"]["OUT[1]"][1],
        serde_json::json!([true, true, true, false])
    );
    let o = run(&["diff", &p, "--inputs", &i, "--backends", "jit"]);
    let t = text(&o);
    assert_eq!(code(&o), 0, "{t}");
    assert!(t.contains("agree (interp vs jit"), "{t}");
}

/// The corpus's ARBfp10_shadow_01.arbfp (`TEX result.color, fragment.texcoord[0],
/// texture[0], SHADOW2D`, ARB_fragment_program_shadow) on a 2x1 depth texture (0.25, 0.75),
/// GEQUAL: (0.25, y, 0.5) → 0.5 >= 0.25 true; (0.75, y, 0.5) → 0.5 >= 0.75 false.
#[test]
fn arb_shadow_corpus_program() {
    let s = Scratch::new("tex-arb-shadow");
    let dir = std::env::var_os("SHADERDIFF_SHARED")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared"));
    let p = dir
        .join("corpus/nv/Igalia_piglit_asmparsertest_ARBfp10_shadow_01.arbfp")
        .display()
        .to_string();
    let depths = [0.25f32, 0.75]
        .map(|d| hex(d.to_bits()) + &hex(0).repeat(3))
        .concat();
    let i = s.file(
        "in.json",
        &format!(
            "{{\"invocations\": 4, \"registers\": {{\"fragment.texcoord[0]\": [\
             [0.25, 0.5, 0.5, 1], [0.75, 0.5, 0.5, 1], [0.25, 0.5, 0.5, 1], [0.75, 0.5, 0.5, 1]]}},\
             \"textures\": {{\"texture[0]\": {{\"target\": \"2D\", \"format\": \"RGBA32F\", \
             \"width\": 2, \"height\": 1, \"compare_func\": \"GEQUAL\", \"levels\": [\"{depths}\"]}}}}}}"
        ),
    );
    let o = run(&["run", &p, "--inputs", &i, "--format", "json"]);
    assert_eq!(code(&o), 0, "{}", text(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let (one, zero) = (f(1.0), f(0.0));
    let got = &v["registers"]["result.color"];
    for inv in 0..4 {
        let r = if inv % 2 == 0 { &one } else { &zero };
        assert_eq!(got[inv], serde_json::json!([r, r, r, one]), "{v}");
    }
    let o = run(&["diff", &p, "--inputs", &i, "--backends", "jit"]);
    assert_eq!(code(&o), 0, "{}", text(&o));
    assert!(text(&o).contains("agree (interp vs jit"), "{}", text(&o));
}

/// Load rules (exit 2 at the instruction) and bad cube / depth entries (exit 2 at the
/// entry or value).
#[test]
fn invalid_programs_and_entries() {
    let s = Scratch::new("tex-shadowcube-bad");
    for (body, what) in [
        // tgsi.rst TXF: "The source sampler may not be a CUBE or SHADOW".
        ("TXF OUT[0], IN[0], SAMP[0], CUBE", "texel fetches cannot"),
        // tgsi.rst TXB: shadow cube maps need TXB2.
        ("TXB OUT[0], IN[0], SAMP[0], SHADOWCUBE", "no room"),
        // tgsi.rst TEX: SHADOWCUBEARRAY's reference goes in TEX2.
        ("TEX OUT[0], IN[0], SAMP[0], SHADOWCUBEARRAY", "TEX2"),
    ] {
        let p = s.file(
            "p.tgsi",
            &format!("VERT\nDCL IN[0]\nDCL OUT[0]\nDCL SAMP[0]\n{body}\nEND\n"),
        );
        let o = run(&["run", &p]);
        assert_eq!(code(&o), 2, "{body}: {}", text(&o));
        let e = String::from_utf8_lossy(&o.stderr);
        assert!(e.contains("p.tgsi:5:1:") && e.contains(what), "{body}: {e}");
    }
    let p = s.file(
        "c.tgsi",
        "VERT\nDCL IN[0]\nDCL OUT[0]\nDCL SAMP[0]\nTEX OUT[0], IN[0], SAMP[0], CUBE\nEND\n",
    );
    let texel = hex(0).repeat(4);
    for (entry, what) in [
        (
            format!("\"target\": \"CUBE\", \"format\": \"RGBA32UI\", \"width\": 1, \"height\": 1, \"levels\": [\"{}\"]", texel.repeat(6)),
            "a CUBE texture has no height",
        ),
        (
            format!("\"target\": \"CUBE\", \"format\": \"RGBA32UI\", \"width\": 1, \"levels\": [\"{}\"]", texel.repeat(5)),
            "level 0 has 5 texels but a 1x1x6 level needs 6",
        ),
        (
            format!("\"target\": \"CUBE\", \"format\": \"RGBA32UI\", \"width\": 1, \"compare_func\": \"LEQUAL\", \"levels\": [\"{}\"]", texel.repeat(6)),
            "has format RGBA32F",
        ),
        (
            format!("\"target\": \"CUBE\", \"format\": \"RGBA32F\", \"width\": 1, \"compare_func\": \"SOMETIMES\", \"levels\": [\"{}\"]", texel.repeat(6)),
            "compare_func: unknown \"SOMETIMES\"",
        ),
    ] {
        let i = s.file(
            "in.json",
            &format!("{{\"invocations\": 1, \"registers\": {{}}, \"textures\": {{\"SAMP[0]\": {{{entry}}}}}}}"),
        );
        let o = run(&["run", &p, "--inputs", &i]);
        assert_eq!(code(&o), 2, "{entry}: {}", text(&o));
        let e = String::from_utf8_lossy(&o.stderr);
        assert!(e.contains("in.json:1:") && e.contains(what), "{entry}: {e}");
    }
}
