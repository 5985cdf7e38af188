//! The `textures` object of the inputs file (README "Textures"): a texture read by `run`,
//! agreement of interp, jit and valhall, and bad entries reported at
//! file:line:col with exit status 2. Expected texels are the hex bytes written in the file
//! (RGBA32F 1.0, 2.0, 3.0, 4.0 = 0x3f800000, 0x40000000, 0x40400000, 0x40800000).

mod common;

use common::{code, run, text, Scratch};

const TXF: &str = "VERT\nDCL IN[0]\nDCL OUT[0]\nDCL SAMP[0]\nDCL SVIEW[0], 2D, FLOAT\n\
                   TXF OUT[0], IN[0], SAMP[0], 2D\nEND\n";

/// Two invocations fetching texel (1, 0) and (2, 0) of a 2x1 level.
fn inputs(levels: &str) -> String {
    format!(
        "{{\n  \"invocations\": 2,\n  \"registers\": {{\"IN[0]\": [[\"i:1\", \"i:0\", \"i:0\", \"i:0\"], [\"i:2\", \"i:0\", \"i:0\", \"i:0\"]]}},\n  \"textures\": {{\n    \"SAMP[0]\": {{\n      \"target\": \"2D\", \"format\": \"RGBA32F\", \"width\": 2, \"height\": 1,\n      \"levels\": [{levels}]\n    }}\n  }}\n}}\n"
    )
}

const GOOD: &str = "\"00000000000000000000000000000000 0000803f000000400000404000008040\"";

#[test]
fn run_reads_textures_and_marks_out_of_range_undefined() {
    let s = Scratch::new("tex-run");
    let p = s.file("p.tgsi", TXF);
    let i = s.file("in.json", &inputs(GOOD));
    let o = run(&["run", &p, "--inputs", &i, "--format", "json"]);
    assert_eq!(code(&o), 0, "{}", text(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let r = &v["registers"]["OUT[0]"];
    assert_eq!(
        r[0],
        serde_json::json!(["0x3f800000", "0x40000000", "0x40400000", "0x40800000"])
    );
    // (2, 0) is outside the 2x1 level: NV_gpu_program4 Table X.18, undefined.
    assert_eq!(
        v["undefined"]["OUT[0]"][1],
        serde_json::json!([true, true, true, true])
    );
    let o = run(&["diff", &p, "--inputs", &i, "--backends", "jit,valhall"]);
    let t = text(&o);
    assert_eq!(code(&o), 0, "{t}");
    assert!(t.contains("agree (interp vs jit, valhall"), "{t}");
}

#[test]
fn bad_texture_entries_are_located() {
    let s = Scratch::new("tex-bad");
    let p = s.file("p.tgsi", TXF);
    // Line 7, column 18: the level string, one texel short of 2x1.
    let i = s.file("in.json", &inputs("\"0000803f000000400000404000008040\""));
    let o = run(&["run", &p, "--inputs", &i]);
    assert_eq!(code(&o), 2, "{}", text(&o));
    let e = String::from_utf8_lossy(&o.stderr);
    assert!(
        e.contains("in.json:7:18:") && e.contains("level 0 has 1 texels"),
        "{e}"
    );
    // An unknown wrap mode: at its value (line 1, column 117 of a one-line file).
    let one = "{\"invocations\": 1, \"registers\": {}, \"textures\": {\"SAMP[0]\": {\"target\": \"1D\", \"format\": \"RGBA32UI\", \"wrap\": \"MIRROR\", \"width\": 1, \"levels\": [\"00000000000000000000000000000000\"]}}}";
    let i = s.file("one.json", one);
    let o = run(&["run", &p, "--inputs", &i]);
    assert_eq!(code(&o), 2, "{}", text(&o));
    let col = one.find("\"MIRROR\"").unwrap() + 1;
    let e = String::from_utf8_lossy(&o.stderr);
    assert!(e.contains(&format!("one.json:1:{col}:")), "{e}");
    assert!(e.contains("CLAMP_TO_EDGE, REPEAT"), "{e}");
    // A unit the program does not declare: INTERFACE.md accepts it with one note.
    let i = s.file("unit.json", &inputs(GOOD).replace("SAMP[0]", "SAMP[3]"));
    let o = run(&["run", &p, "--inputs", &i]);
    assert_eq!(code(&o), 0, "{}", text(&o));
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("note: the program does not read SAMP[3]"),
        "{}",
        text(&o)
    );
}

/// The corpus program OGRECave_ogre_TextureArray_h_1.nvfp (`FLR texcoord.z`, then
/// `TEX result.color, texcoord, texture[0], ARRAY2D`) with a 2x2 texture of 2 layers keyed
/// `texture[0]`; texel `n` (n = x + 2y + 4 layer) holds n + 1 in every channel.
/// Hand-worked (Table X.17: layer in z, rounded and clamped): (0.25, 0.25, floor 1.7 = 1)
/// → texel 4 → 5.0; (0.75, 0.25, 0) → texel 1 → 2.0; (0.25, 0.75, 1) → texel 6 → 7.0;
/// (0.75, 0.75, 5 → clamped to 1) → texel 7 → 8.0.
#[test]
fn nv_corpus_texture_array() {
    let s = Scratch::new("tex-nv");
    let dir = std::env::var_os("SHADERDIFF_SHARED")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared"));
    let p = dir.join("corpus/nv/OGRECave_ogre_TextureArray_h_1.nvfp");
    let texels: String = (1..=8u32)
        .map(|n| {
            let w = hex(f32::to_bits(n as f32));
            w.repeat(4)
        })
        .collect();
    let i = s.file(
        "in.json",
        &format!(
            "{{\"invocations\": 4, \"registers\": {{\"fragment.texcoord[0]\": [\
             [0.25, 0.25, 1.7, 1], [0.75, 0.25, 0.2, 1], [0.25, 0.75, 1.0, 1], [0.75, 0.75, 5.0, 1]]}},\
             \"textures\": {{\"texture[0]\": {{\"target\": \"ARRAY2D\", \"format\": \"RGBA32F\", \
             \"width\": 2, \"height\": 2, \"layers\": 2, \"levels\": [\"{texels}\"]}}}}}}"
        ),
    );
    let p = p.display().to_string();
    let o = run(&["run", &p, "--inputs", &i, "--format", "json"]);
    assert_eq!(code(&o), 0, "{}", text(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let got = &v["registers"]["result.color"];
    for (inv, want) in [5.0f32, 2.0, 7.0, 8.0].into_iter().enumerate() {
        let w = format!("0x{:08x}", want.to_bits());
        assert_eq!(got[inv], serde_json::json!([w, w, w, w]), "{v}");
    }
    // valhall: a fragment program, so TEX_SINGLE with the computed level of detail (one
    // level: level 0 whatever it computes) and the layer as F32_TO_U32.
    let o = run(&["diff", &p, "--inputs", &i, "--backends", "jit,valhall"]);
    assert_eq!(code(&o), 0, "{}", text(&o));
    assert!(
        text(&o).contains("agree (interp vs jit, valhall"),
        "{}",
        text(&o)
    );
}

/// Little-endian hex bytes of a word.
fn hex(w: u32) -> String {
    w.to_le_bytes().iter().map(|b| format!("{b:02x}")).collect()
}

/// examples/texture.tgsi with its inputs (examples/README.md): worked by hand from the
/// four texels red, green, blue, white (GL §3.8.8 NEAREST, REPEAT = `i mod 2`).
#[test]
fn the_texture_example() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let p = root.join("examples/texture.tgsi").display().to_string();
    let i = root
        .join("examples/texture.inputs.json")
        .display()
        .to_string();
    let o = run(&["run", &p, "--inputs", &i, "--format", "json"]);
    assert_eq!(code(&o), 0, "{}", text(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let (one, zero) = ("0x3f800000", "0x00000000");
    let out0 = &v["registers"]["OUT[0]"];
    assert_eq!(out0[0], serde_json::json!([one, zero, zero, one]));
    assert_eq!(out0[1], serde_json::json!([zero, one, zero, one]));
    assert_eq!(out0[2], serde_json::json!([zero, zero, one, one]));
    assert_eq!(out0[3][3], one);
    assert_eq!(
        v["undefined"]["OUT[0]"][3],
        serde_json::json!([true, true, true, false])
    );
    let out1 = &v["registers"]["OUT[1]"][0];
    assert_eq!(
        (out1[0].as_str(), out1[1].as_str()),
        (Some("0x00000002"), Some("0x00000002"))
    );
    assert_eq!(out1[3], "0x00000001");
    let o = run(&["diff", &p, "--inputs", &i, "--backends", "jit,valhall"]);
    assert_eq!(code(&o), 0, "{}", text(&o));
    assert!(
        text(&o).contains("agree (interp vs jit, valhall"),
        "{}",
        text(&o)
    );
}

/// TGSI texel offsets (TEXT-FORMAT.md §7.5: one register plus three swizzle letters, read
/// as signed integers; NV_gpu_program4 §3.8.8 edit `u = w_t * s + offset`, the offset
/// added before wrapping; TXF adds it to `(i, j)` before the range check; an offset
/// outside -8..7 is undefined, NV_gpu_program5 §2.X.4.4), on interp and jit.
///
/// 4x2 RGBA32UI texture, CLAMP_TO_EDGE, texel `n = x + 4y` = `[n, 0x10 + n, 0x20 + n,
/// 0x30 + n]`. Invocation 0, IN[0] = (0.375, 0.25): u = 1.5, v = 0.5 → (1, 0);
/// invocation 1, IN[0] = (0.875, 0.75): u = 3.5, v = 1.5 → (3, 1).
/// * OUT[0] = TEX, IMM offset (1, -1): (2, -1) → clamp (2, 0) = 2; (4, 0) → (3, 0) = 3.
/// * OUT[1] = TXL lambda 0, TEMP offset (-1, 1) (IMM[0].yxz): (0, 1) = 4; (2, 2) → (2, 1)
///   = 6.
/// * OUT[2] = TXF (1, 1) with offset (1, -1): (2, 0) = 2 for both.
/// * OUT[3] = TXF (1, 1) with offset (8, 0): 8 is outside -8..7: undefined.
#[test]
fn tgsi_texel_offsets() {
    let s = Scratch::new("tex-offsets");
    let prog = "VERT\nDCL IN[0]\nDCL IN[1]\nDCL OUT[0]\nDCL OUT[1]\nDCL OUT[2]\nDCL OUT[3]\n\
                DCL SAMP[0]\nDCL SVIEW[0], 2D, UINT\nDCL TEMP[0]\n\
                IMM[0] INT32 {1, -1, 0, 0}\nIMM[1] INT32 {8, 0, 0, 0}\n\
                TEX OUT[0], IN[0], SAMP[0], 2D, IMM[0].xyz\n\
                MOV TEMP[0], IMM[0].yxzw\n\
                TXL OUT[1], IN[0].xyzz, SAMP[0], 2D, TEMP[0].xyz\n\
                TXF OUT[2], IN[1], SAMP[0], 2D, IMM[0].xyz\n\
                TXF OUT[3], IN[1], SAMP[0], 2D, IMM[1].xyz\nEND\n";
    let p = s.file("p.tgsi", prog);
    let texels: String = (0..8u32)
        .map(|n| [n, 0x10 + n, 0x20 + n, 0x30 + n].map(hex).concat())
        .collect();
    let i = s.file(
        "in.json",
        &format!(
            "{{\"invocations\": 2, \"registers\": {{\
             \"IN[0]\": [[0.375, 0.25, 0, 0], [0.875, 0.75, 0, 0]],\
             \"IN[1]\": [[\"i:1\", \"i:1\", \"i:0\", \"i:0\"], [\"i:1\", \"i:1\", \"i:0\", \"i:0\"]]}},\
             \"textures\": {{\"SAMP[0]\": {{\"target\": \"2D\", \"format\": \"RGBA32UI\", \
             \"width\": 4, \"height\": 2, \"levels\": [\"{texels}\"]}}}}}}"
        ),
    );
    let o = run(&["run", &p, "--inputs", &i, "--format", "json"]);
    assert_eq!(code(&o), 0, "{}", text(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let want =
        |n: u32| serde_json::json!([n, 0x10 + n, 0x20 + n, 0x30 + n].map(|w| format!("0x{w:08x}")));
    let r = &v["registers"];
    assert_eq!(
        (&r["OUT[0]"][0], &r["OUT[0]"][1]),
        (&want(2), &want(3)),
        "{v}"
    );
    assert_eq!(
        (&r["OUT[1]"][0], &r["OUT[1]"][1]),
        (&want(4), &want(6)),
        "{v}"
    );
    assert_eq!(
        (&r["OUT[2]"][0], &r["OUT[2]"][1]),
        (&want(2), &want(2)),
        "{v}"
    );
    for inv in 0..2 {
        assert_eq!(
            v["undefined"]["OUT[3]"][inv],
            serde_json::json!([true, true, true, true]),
            "{v}"
        );
    }
    let o = run(&["diff", &p, "--inputs", &i, "--backends", "jit,valhall"]);
    let t = text(&o);
    assert_eq!(code(&o), 0, "{t}");
    assert!(t.contains("agree (interp vs jit, valhall"), "{t}");
}

/// TXQ takes no texel offset: an invalid program (exit 2) at the instruction.
#[test]
fn txq_with_an_offset_is_invalid() {
    let s = Scratch::new("tex-txq-off");
    let p = s.file(
        "p.tgsi",
        "VERT\nDCL IN[0]\nDCL OUT[0]\nDCL SAMP[0]\nIMM[0] INT32 {1, 0, 0, 0}\n\
         TXQ OUT[0], IN[0], SAMP[0], 2D, IMM[0].xyz\nEND\n",
    );
    let o = run(&["run", &p]);
    assert_eq!(code(&o), 2, "{}", text(&o));
    let e = String::from_utf8_lossy(&o.stderr);
    assert!(
        e.contains("p.tgsi:6:") && e.contains("TXQ takes no texel offset"),
        "{e}"
    );
}

/// TGSI TXD (tgsi.rst TXD: coord = src0, ddx = src1, ddy = src2, unit = src3) on interp,
/// jit and valhall. 4x4 RGBA32UI with levels 4x4, 2x2, 1x1, texel `n` of level `l` =
/// `[100l + n; 4]`; coordinates (0.3, 0.3). OpenGL 3.x §3.8.8: invocation 0, d/dx = (0.25, 0, 0),
/// d/dy = 0: du/dx = 4 * 0.25 = 1, rho = 1, lambda = 0 → level 0, (1, 1) → 5; invocation 1,
/// d/dx = (0.5, 0, 0), d/dy = (0, 0.5, 0): rho = 2, lambda = 1 → d = ceil(1.5) - 1 = 1,
/// (0.6, 0.6) → (0, 0) → 100.
#[test]
fn tgsi_txd() {
    let s = Scratch::new("tex-txd");
    let p = s.file(
        "p.tgsi",
        "VERT\nDCL IN[0]\nDCL IN[1]\nDCL IN[2]\nDCL OUT[0]\nDCL SAMP[0]\n\
         DCL SVIEW[0], 2D, UINT\nTXD OUT[0], IN[0], IN[1], IN[2], SAMP[0], 2D\nEND\n",
    );
    let level = |l: u32, n: u32| -> String {
        (0..n)
            .map(|k| hex(100 * l + k).repeat(4))
            .collect::<String>()
    };
    let i = s.file(
        "in.json",
        &format!(
            "{{\"invocations\": 2, \"registers\": {{\
             \"IN[0]\": [[0.3, 0.3, 0, 0], [0.3, 0.3, 0, 0]],\
             \"IN[1]\": [[0.25, 0, 0, 0], [0.5, 0, 0, 0]],\
             \"IN[2]\": [[0, 0, 0, 0], [0, 0.5, 0, 0]]}},\
             \"textures\": {{\"SAMP[0]\": {{\"target\": \"2D\", \"format\": \"RGBA32UI\", \
             \"width\": 4, \"height\": 4, \"min_filter\": \"NEAREST_MIPMAP_NEAREST\", \
             \"levels\": [\"{}\", \"{}\", \"{}\"]}}}}}}",
            level(0, 16),
            level(1, 4),
            level(2, 1)
        ),
    );
    let o = run(&["run", &p, "--inputs", &i, "--format", "json"]);
    assert_eq!(code(&o), 0, "{}", text(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let r = &v["registers"]["OUT[0]"];
    assert_eq!(
        r[0],
        serde_json::json!(["0x00000005", "0x00000005", "0x00000005", "0x00000005"]),
        "{v}"
    );
    assert_eq!(
        r[1],
        serde_json::json!(["0x00000064", "0x00000064", "0x00000064", "0x00000064"]),
        "{v}"
    );
    let o = run(&["diff", &p, "--inputs", &i, "--backends", "jit,valhall"]);
    let t = text(&o);
    assert_eq!(code(&o), 0, "{t}");
    assert!(t.contains("agree (interp vs jit, valhall"), "{t}");
}

/// TGSI TG4 (tgsi.rst TG4: coord = src0, component = src1, "the four samples that
/// contribute to filtering ... in clockwise order, starting with ... (-, +), (+, +),
/// (+, -), (-, -)"; OpenGL 3.x equations 3.23-3.25) on interp, jit and valhall. 4x4 RGBA32UI,
/// REPEAT, texel `n = x + 4y` = `[n, 0x10 + n, 0x20 + n, 0x30 + n]`, component 1 (G).
/// Invocation 0, (0.4, 0.6): u - 1/2 = 1.1, v - 1/2 = 1.9 → i0 = 1, i1 = 2, j0 = 1,
/// j1 = 2 → T(1, 2) = 9, T(2, 2) = 10, T(2, 1) = 6, T(1, 1) = 5. Invocation 1, (0, 0):
/// u - 1/2 = -0.5 → i0 = wrap(-1) = 3, i1 = 0, likewise j → T(3, 0) = 3, T(0, 0) = 0,
/// T(0, 3) = 12, T(3, 3) = 15.
#[test]
fn tgsi_tg4() {
    let s = Scratch::new("tex-tg4");
    let p = s.file(
        "p.tgsi",
        "VERT\nDCL IN[0]\nDCL OUT[0]\nDCL SAMP[0]\nDCL SVIEW[0], 2D, UINT\n\
         IMM[0] INT32 {1, 0, 0, 0}\nTG4 OUT[0], IN[0], IMM[0].xxxx, SAMP[0], 2D\nEND\n",
    );
    let texels: String = (0..16u32)
        .map(|n| [n, 0x10 + n, 0x20 + n, 0x30 + n].map(hex).concat())
        .collect();
    let i = s.file(
        "in.json",
        &format!(
            "{{\"invocations\": 2, \"registers\": {{\
             \"IN[0]\": [[0.4, 0.6, 0, 0], [0, 0, 0, 0]]}},\
             \"textures\": {{\"SAMP[0]\": {{\"target\": \"2D\", \"format\": \"RGBA32UI\", \
             \"wrap\": \"REPEAT\", \"width\": 4, \"height\": 4, \"levels\": [\"{texels}\"]}}}}}}"
        ),
    );
    let o = run(&["run", &p, "--inputs", &i, "--format", "json"]);
    assert_eq!(code(&o), 0, "{}", text(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let g = |ns: [u32; 4]| serde_json::json!(ns.map(|n| format!("0x{:08x}", 0x10 + n)));
    let r = &v["registers"]["OUT[0]"];
    assert_eq!(r[0], g([9, 10, 6, 5]), "{v}");
    assert_eq!(r[1], g([3, 0, 12, 15]), "{v}");
    let o = run(&["diff", &p, "--inputs", &i, "--backends", "jit,valhall"]);
    let t = text(&o);
    assert_eq!(code(&o), 0, "{t}");
    assert!(t.contains("agree (interp vs jit, valhall"), "{t}");
}
