//! NV image instructions (EXT_shader_image_load_store §2.X.8.Z LOADIM, STOREIM, ATOMIM;
//! §3.9.X Table X.1, Table X.3) lowered onto IR buffers (`lower_image.rs`): image unit
//! `image[u]` is the buffer `image[u]` (texels row-major, x fastest) with the shape
//! parameter `image[u].size` = (W, H, D, B). Every expected value is worked by hand from
//! the spec text and checked on every engine; results of loads are stored into a 1D
//! "result" image, unit 7, one U32X4 texel per result.

use shaderdiff_backends::Inputs;
use shaderdiff_nv as nv;
use shaderdiff_oracles::{Outputs, RegKey};

/// An image given to a program: unit, (W, H, D, B), texel bytes.
type Image = (u32, [u32; 4], Vec<u8>);

/// The result image: unit 7, 1D, 8 texels of 16 bytes.
const RESULTS: u32 = 7;

fn words(w: &[u32]) -> Vec<u8> {
    w.iter().flat_map(|v| v.to_le_bytes()).collect()
}

/// Lowers `text`, gives it `images` and the empty result image, runs one invocation on
/// every engine (the oracle first) and returns each engine's outputs with the buffer key
/// of every unit.
fn run(text: &str, images: &[Image]) -> (Vec<(String, Outputs)>, nv::Lowered) {
    let p = nv::parse(text, "t.nv").unwrap_or_else(|e| panic!("{e}"));
    let l = nv::lower(&p).unwrap_or_else(|e| panic!("{e}"));
    shaderdiff_model::validate::validate(&l.program, "lowered").expect("valid IR");
    let mut inputs = Inputs {
        invocations: 1,
        ..Inputs::default()
    };
    let mut all = images.to_vec();
    all.push((RESULTS, [8, 1, 1, 16], vec![0; 128]));
    for (u, size, bytes) in &all {
        let Some((f, i)) = l.names.lookup(l.stage, &nv::image_buffer_name(*u)) else {
            continue;
        };
        inputs.buffers.insert(RegKey::new(f, i), bytes.clone());
        let (f, i) = l
            .names
            .lookup(l.stage, &nv::image_size_name(*u))
            .expect("the size is named");
        inputs.constants.insert(RegKey::new(f, i), *size);
    }
    let outs = crate::support::run_lowered(&l, inputs);
    (outs, l)
}

fn key(l: &nv::Lowered, unit: u32) -> RegKey {
    let (f, i) = l
        .names
        .lookup(l.stage, &nv::image_buffer_name(unit))
        .expect("named");
    RegKey::new(f, i)
}

/// What a result texel must hold.
#[derive(Clone, Copy, Debug)]
enum Want {
    /// These four words (the oracle marks none undefined).
    V([u32; 4]),
    /// The oracle marks the texel undefined; engines are not compared.
    Undef,
}
use Want::{Undef, V};

/// Checks result texel `k` of every engine.
fn check_results(outs: &[(String, Outputs)], l: &nv::Lowered, want: &[Want]) {
    let r = key(l, RESULTS);
    for (engine, out) in outs {
        let bytes = &out.buffers[&r];
        let undef = out.buffers_undefined.get(&r);
        for (k, w) in want.iter().enumerate() {
            let got: Vec<u32> = (0..4)
                .map(|c| {
                    let at = 16 * k + 4 * c;
                    u32::from_le_bytes(bytes[at..at + 4].try_into().expect("4 bytes"))
                })
                .collect();
            let flagged = undef.is_some_and(|u| u[16 * k..16 * k + 16].iter().any(|&b| b));
            match w {
                V(v) => {
                    assert_eq!(got, v, "{engine}: result {k}");
                    if engine == "interp" {
                        assert!(!flagged, "{engine}: result {k} marked undefined");
                    }
                }
                Undef if engine == "interp" => {
                    assert!(flagged, "{engine}: result {k} not marked undefined")
                }
                Undef => {}
            }
        }
    }
}

/// Checks the final bytes of image `unit` on every engine.
fn check_image(outs: &[(String, Outputs)], l: &nv::Lowered, unit: u32, want: &[u8]) {
    let k = key(l, unit);
    for (engine, out) in outs {
        assert_eq!(out.buffers[&k], want, "{engine}: image[{unit}]");
    }
}

/// A compute program of `body`, with `TEMP t, c, o;`.
fn program(body: &str) -> String {
    format!("!!NVcp5.0\nGROUP_SIZE 1;\nTEMP t, c, o;\n{body}END\n")
}

/// Stores `t` as result texel `k`.
fn out(k: u32) -> String {
    format!("STOREIM.U32X4 image[7], t, {{{k}, 0, 0, 0}}, 1D;\n")
}

/// A 2D image of 2x2 U32 texels: texel (x, y) is word 2y + x.
fn u32_2d() -> Image {
    (0, [2, 2, 1, 4], words(&[0x11, 0x22, 0x33, 0x8000_0044]))
}

/// A 2D image of 4x2 bytes (B = 1).
fn u8_2d() -> Image {
    (
        1,
        [4, 2, 1, 1],
        vec![0x01, 0x82, 0x03, 0x84, 0x05, 0x86, 0x07, 0xF8],
    )
}

/// A 2D image of 2x2 halves (B = 2): 0x1234, 0x8001, 0x5678, 0xFFFE.
fn u16_2d() -> Image {
    (
        2,
        [2, 2, 1, 2],
        vec![0x34, 0x12, 0x01, 0x80, 0x78, 0x56, 0xFE, 0xFF],
    )
}

/// A 3D image of 2x1x2 texels of two words (B = 8): texel (x, 0, z) is number 2z + x and
/// holds (2n + 1, 2n + 2).
fn x2_3d() -> Image {
    (3, [2, 1, 2, 8], words(&[1, 2, 3, 4, 5, 6, 7, 8]))
}

/// An ARRAY2D image of 1x2 texels in 2 layers of four words (B = 16): texel (0, y, layer)
/// is number 2 layer + y and holds words 100 + 4n .. 103 + 4n.
fn x4_array() -> Image {
    (4, [1, 2, 2, 16], words(&(100..116).collect::<Vec<u32>>()))
}

/// LOADIM of every Table X.3 storage size (§2.X.8.Z LOADIM: scalar results are (v, 0, 0,
/// 1), X2 results (v0, v1, 0, 1), X4 all four; S8 / S16 sign-extend, U8 / U16
/// zero-extend; Table X.1: 2D uses (x, y), 3D (x, y, z), ARRAY2D (x, y) and layer z, and the
/// texel number is (z·H + y)·W + x).
#[test]
fn loads_of_every_storage_size() {
    let body = [
        // 2D (1, 1) of 2x2: texel 3 = 0x80000044.
        "LOADIM.U32 t, {1, 1, 0, 0}, image[0], 2D;\n".to_string(),
        out(0),
        // 2D (3, 1) of 4x2 bytes: texel 7 = 0xF8, sign-extended.
        "LOADIM.S8 t, {3, 1, 0, 0}, image[1], 2D;\n".into(),
        out(1),
        // (1, 0): texel 1 = 0x82, zero-extended; the z of a 2D access is ignored (zeroed
        // by the pseudo-code).
        "LOADIM.U8 t, {1, 0, 5, 0}, image[1], 2D;\n".into(),
        out(2),
        // 2D (1, 0) of 2x2 halves: texel 1 = 0x8001 sign-extended; (1, 1): 0xFFFE.
        "LOADIM.S16 t, {1, 0, 0, 0}, image[2], 2D;\nMOV.U o, t;\n".into(),
        "LOADIM.U16 t, {1, 1, 0, 0}, image[2], 2D;\nMOV.U t.y, t.x;\nMOV.U t.x, o.x;\n".into(),
        out(3),
        // 3D (1, 0, 1) of 2x1x2: texel (1·1 + 0)·2 + 1 = 3 = (7, 8).
        "LOADIM.U32X2 t, {1, 0, 1, 0}, image[3], 3D;\n".into(),
        out(4),
        // ARRAY2D (0, 1) layer 1 of 1x2x2: texel (1·2 + 1)·1 + 0 = 3 = words 112..115 (raw
        // bits, F32X4 does not convert).
        "LOADIM.F32X4 t, {0, 1, 1, 0}, image[4], ARRAY2D;\n".into(),
        out(5),
        // F32 of the 2D U32 image (0, 1): texel 2 = 0x33, then 0, 0 and 1.0.
        "LOADIM.F32 t, {0, 1, 0, 0}, image[0], 2D;\n".into(),
        out(6),
    ]
    .concat();
    let (outs, l) = run(
        &program(&body),
        &[u32_2d(), u8_2d(), u16_2d(), x2_3d(), x4_array()],
    );
    check_results(
        &outs,
        &l,
        &[
            V([0x8000_0044, 0, 0, 1]),
            V([0xFFFF_FFF8, 0, 0, 1]),
            V([0x82, 0, 0, 1]),
            V([0xFFFF_8001, 0xFFFE, 0, 1]),
            V([7, 8, 0, 1]),
            V([112, 113, 114, 115]),
            V([0x33, 0, 0, 1f32.to_bits()]),
        ],
    );
}

/// Unformatted STOREIM (§2.X.8.Z STOREIM: "all bits but the least significant eight or
/// sixteen are dropped"), then LOADIM of the same texel reads the stored value; the
/// neighbouring texels keep their bytes.
#[test]
fn stores_then_reloads() {
    let body = [
        // U8 at (2, 0): 0x1FF keeps 0xFF; S8 reload sign-extends it to -1.
        "STOREIM.U8 image[1], {0x1FF, 0, 0, 0}, {2, 0, 0, 0}, 2D;\n",
        "LOADIM.S8 t, {2, 0, 0, 0}, image[1], 2D;\n",
        &out(0),
        // U16 at (0, 1) of the halves: 0x12345 keeps 0x2345.
        "STOREIM.U16 image[2], {0x12345, 0, 0, 0}, {0, 1, 0, 0}, 2D;\n",
        "LOADIM.U16 t, {0, 1, 0, 0}, image[2], 2D;\n",
        &out(1),
        // U32X2 at 3D (0, 0, 1): texel 2, words 4 and 5.
        "STOREIM.U32X2 image[3], {9, 10, 11, 12}, {0, 0, 1, 0}, 3D;\n",
        "LOADIM.U32X2 t, {0, 0, 1, 0}, image[3], 3D;\n",
        &out(2),
        // U32X4 at ARRAY2D (0, 0) layer 1: texel 2, words 8..11.
        "STOREIM.U32X4 image[4], {21, 22, 23, 24}, {0, 0, 1, 0}, ARRAY2D;\n",
        "LOADIM.U32X4 t, {0, 0, 1, 0}, image[4], ARRAY2D;\n",
        &out(3),
    ]
    .concat();
    let (outs, l) = run(&program(&body), &[u8_2d(), u16_2d(), x2_3d(), x4_array()]);
    check_results(
        &outs,
        &l,
        &[
            V([u32::MAX, 0, 0, 1]),
            V([0x2345, 0, 0, 1]),
            V([9, 10, 0, 1]),
            V([21, 22, 23, 24]),
        ],
    );
    check_image(
        &outs,
        &l,
        1,
        &[0x01, 0x82, 0xFF, 0x84, 0x05, 0x86, 0x07, 0xF8],
    );
    check_image(
        &outs,
        &l,
        2,
        &[0x34, 0x12, 0x01, 0x80, 0x45, 0x23, 0xFE, 0xFF],
    );
    check_image(&outs, &l, 3, &words(&[1, 2, 3, 4, 9, 10, 7, 8]));
    let mut x4: Vec<u32> = (100..116).collect();
    x4[8..12].copy_from_slice(&[21, 22, 23, 24]);
    check_image(&outs, &l, 4, &words(&x4));
}

/// ATOMIM (§2.X.8.Z ATOMIM): the result's x is the value read, the texel gets ADD's sum,
/// EXCH's operand, CSWAP's `tmp0.y` when the value read equals `tmp0.x` (else it is
/// unchanged); NV_shader_atomic_float's ADD.F32.
#[test]
fn atomics_add_exch_cswap() {
    let body = [
        // The result's x is the value read (y, z, w are undefined): each goes through o.x.
        "MOV.U t, 0;\n",
        // (0, 0) = 0x11: + 5 = 0x16.
        "ATOMIM.ADD.U32 o.x, {5, 0, 0, 0}, {0, 0, 0, 0}, image[0], 2D;\nMOV.U t.x, o.x;\n",
        // (1, 0) = 0x22 exchanged for 7.
        "ATOMIM.EXCH.U32 o.x, {7, 0, 0, 0}, {1, 0, 0, 0}, image[0], 2D;\nMOV.U t.y, o.x;\n",
        // (0, 1) = 0x33 equals 0x33: becomes 0x99.
        "ATOMIM.CSWAP.U32 o.x, {0x33, 0x99, 0, 0}, {0, 1, 0, 0}, image[0], 2D;\n",
        "MOV.U t.z, o.x;\n",
        // (1, 1) = 0x80000044 differs from 0: unchanged.
        "ATOMIM.CSWAP.S32 o.x, {0, 5, 0, 0}, {1, 1, 0, 0}, image[0], 2D;\nMOV.U t.w, o.x;\n",
        &out(0),
        // 1D image of one F32: 1.5 + 2.25 = 3.75.
        "MOV.U t, 0;\n",
        "ATOMIM.ADD.F32 t.x, {2.25, 0, 0, 0}, {0, 0, 0, 0}, image[5], 1D;\n",
        "LOADIM.F32 o, {0, 0, 0, 0}, image[5], 1D;\nMOV.U t.y, o.x;\n",
        &out(1),
    ]
    .concat();
    let text = program(&body).replace("!!NVcp5.0\n", "!!NVcp5.0\nOPTION NV_shader_atomic_float;\n");
    let (outs, l) = run(
        &text,
        &[u32_2d(), (5, [1, 1, 1, 4], words(&[1.5f32.to_bits()]))],
    );
    check_results(
        &outs,
        &l,
        &[
            V([0x11, 0x22, 0x33, 0x8000_0044]),
            V([1.5f32.to_bits(), 3.75f32.to_bits(), 0, 0]),
        ],
    );
    check_image(&outs, &l, 0, &words(&[0x16, 7, 0x99, 0x8000_0044]));
    check_image(&outs, &l, 5, &words(&[3.75f32.to_bits()]));
}

/// Invalid accesses (§3.9.X): a texel outside W×H×D (here x = W, a negative y, layer =
/// D), a coordinate Table X.1 does not list that is non-zero (ARRAY1D's z), and a storage
/// modifier whose size is not the image's B (Table X.3). Loads are undefined (§2.X.8.Z
/// LOADIM: "the result vector will be undefined"), stores have no effect, atomics update
/// nothing.
#[test]
fn invalid_accesses_are_undefined_or_ignored() {
    let body = [
        // x = 2 on a width of 2.
        "LOADIM.U32 t, {2, 0, 0, 0}, image[0], 2D;\n",
        &out(0),
        // ARRAY1D: layer is y (H = 2 layers); z = 1 is not in Table X.1's row.
        "LOADIM.U32 t, {0, 1, 1, 0}, image[0], ARRAY1D;\n",
        &out(1),
        // U16 on 4-byte texels.
        "LOADIM.U16 t, {0, 0, 0, 0}, image[0], 2D;\n",
        &out(2),
        // A valid ARRAY1D load: (1) of layer 1 = texel 3 (the coordinate vector's w is
        // zeroed by the pseudo-code, not an error).
        "LOADIM.U32 t, {1, 1, 0, 9}, image[0], ARRAY1D;\n",
        &out(3),
        // Ignored stores: y = -1, layer 2 of an ARRAY2D with D = 1, U8 on 4-byte
        // texels, and an atomic at x = 5.
        "STOREIM.U32 image[0], {1, 1, 1, 1}, {0, -1, 0, 0}, 2D;\n",
        "STOREIM.U32 image[0], {1, 1, 1, 1}, {0, 0, 2, 0}, ARRAY2D;\n",
        "STOREIM.U8 image[0], {1, 1, 1, 1}, {0, 0, 0, 0}, 2D;\n",
        "ATOMIM.ADD.U32 o.x, {1, 0, 0, 0}, {5, 0, 0, 0}, image[0], 2D;\n",
    ]
    .concat();
    let (outs, l) = run(&program(&body), &[u32_2d()]);
    check_results(&outs, &l, &[Undef, Undef, Undef, V([0x8000_0044, 0, 0, 1])]);
    check_image(&outs, &l, 0, &words(&[0x11, 0x22, 0x33, 0x8000_0044]));
}

/// Formatted STOREIM (no storage modifier: the conversion needs the unit's format) and the
/// CUBE, ARRAYCUBE and multisample targets are refused with their position (exit 3 from the
/// command line); a storage modifier outside Table X.3 is invalid.
#[test]
fn formatted_stores_and_cube_maps_are_refused() {
    let cases: &[(&str, &str, (u32, u32), bool)] = &[
        (
            "!!NVcp5.0\nGROUP_SIZE 1;\nTEMP t;\n STOREIM image[0], t, t, 2D;\nEND\n",
            "formatted stores",
            (4, 2),
            true,
        ),
        (
            "!!NVcp5.0\nGROUP_SIZE 1;\nTEMP t;\nSTOREIM.F image[0], t, t, 2D;\nEND\n",
            "formatted stores",
            (4, 1),
            true,
        ),
        (
            "!!NVcp5.0\nGROUP_SIZE 1;\nTEMP t;\nLOADIM.U32 t, t, image[0], CUBE;\nEND\n",
            "CUBE images are not lowered",
            (4, 1),
            true,
        ),
        (
            "!!NVcp5.0\nGROUP_SIZE 1;\nTEMP t;\nLOADIM.U32 t, t, image[0], 2DMS;\nEND\n",
            "2DMS images are not lowered",
            (4, 1),
            true,
        ),
        (
            "!!NVcp5.0\nGROUP_SIZE 1;\nTEMP t;\nLOADIM.U8X2 t, t, image[0], 2D;\nEND\n",
            "not an image storage modifier",
            (4, 1),
            false,
        ),
    ];
    for (text, what, (line, col), unsupported) in cases {
        let p = nv::parse(text, "t.nv").unwrap_or_else(|e| panic!("{text}: {e}"));
        let e = nv::lower(&p).expect_err(text);
        assert_eq!(
            matches!(e, nv::LowerError::Unsupported { .. }),
            *unsupported,
            "{text}: {e}"
        );
        assert!(e.to_string().contains(what), "{text}: {e}");
        assert_eq!((e.pos().line, e.pos().col), (*line, *col), "{text}: {e}");
    }
    // From the command line: exit 3 and file:line:col.
    let dir = std::env::temp_dir().join(format!("sd-images-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let f = dir.join("cube.nvcp");
    std::fs::write(&f, cases[2].0).expect("written");
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_shaderdiff"))
        .arg("run")
        .arg(&f)
        .output()
        .expect("runs");
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(3), "{err}");
    assert!(err.contains("cube.nvcp:4:1"), "{err}");
    // An image whose bytes do not match its shape is bad input (exit 2), naming the file.
    let prog = dir.join("load.nvcp");
    std::fs::write(
        &prog,
        "!!NVcp5.0\nGROUP_SIZE 1;\nTEMP t;\nLOADIM.U32 t, {0, 0, 0, 0}, image[0], 2D;\nEND\n",
    )
    .expect("written");
    let inputs = dir.join("load.json");
    std::fs::write(
        &inputs,
        r#"{"constants": {"image[0].size": ["u:2", "u:2", "u:1", "u:4"]}, "buffers": {"image[0]": "00000000"}}"#,
    )
    .expect("written");
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_shaderdiff"))
        .arg("run")
        .arg(&prog)
        .arg("--inputs")
        .arg(&inputs)
        .output()
        .expect("runs");
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("load.json") && err.contains("needs 16"),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// `shaderdiff run` / `diff` with an inputs file (examples/nv-image.nvcp): the image and
/// its shape come from `buffers` / `constants` under their NV names, the final image is
/// reported under `buffers` by the same name. The program (4 invocations, a 4x1 2D image of
/// U32) doubles texel `id` and adds it to texel 0 of a 1D counter image: hand-worked,
/// (1, 2, 3, 4) → (2, 4, 6, 8) and the counter 100 + 2 + 4 + 6 + 8 = 120.
#[test]
fn images_from_the_command_line() {
    let run =
        |args: &[&str]| crate::support::run_example(args, "nv-image.nvcp", "nv-image.inputs.json");
    for backend in ["interp", "jit", "valhall"] {
        let o = run(&["run", "--format", "json", "--backend", backend]);
        assert_eq!(
            o.status.code(),
            Some(0),
            "{backend}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("json");
        assert_eq!(
            v["buffers"]["image[0]"], "02000000040000000600000008000000",
            "{backend}: {v}"
        );
        assert_eq!(v["buffers"]["image[1]"], "78000000", "{backend}: {v}");
    }
    let o = run(&["diff"]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );
}

/// The other Table X.4 operations on a 1D image of four U32 texels (6, 0, 9, 5):
/// IWRAP with operand 6: `(old >= 6) ? 0 : old + 1`, 6 → 0; DWRAP with operand 7:
/// `(old == 0 || old > 7) ? 7 : old - 1`, 0 → 7; MIN.S32 with -3: min(9, -3) = -3; MAX.U32
/// with 8: max(5, 8) = 8. Each returns the value read.
#[test]
fn atomics_wrap_min_max() {
    let body = [
        "MOV.U t, 0;\n",
        "ATOMIM.IWRAP.U32 o.x, {6, 0, 0, 0}, {0, 0, 0, 0}, image[0], 1D;\nMOV.U t.x, o.x;\n",
        "ATOMIM.DWRAP.U32 o.x, {7, 0, 0, 0}, {1, 0, 0, 0}, image[0], 1D;\nMOV.U t.y, o.x;\n",
        "ATOMIM.MIN.S32 o.x, {-3, 0, 0, 0}, {2, 0, 0, 0}, image[0], 1D;\nMOV.U t.z, o.x;\n",
        "ATOMIM.MAX.U32 o.x, {8, 0, 0, 0}, {3, 0, 0, 0}, image[0], BUFFER;\nMOV.U t.w, o.x;\n",
        &out(0),
    ]
    .concat();
    let (outs, l) = run(&program(&body), &[(0, [4, 1, 1, 4], words(&[6, 0, 9, 5]))]);
    check_results(&outs, &l, &[V([6, 0, 9, 5])]);
    check_image(&outs, &l, 0, &words(&[0, 7, (-3i32) as u32, 8]));
}

/// IMAGE variables name image units (EXT_shader_image_load_store; `IMAGE im[] = {
/// image[3], image[0..1] }` has elements on units 3, 0 and 1): `im[1]` is unit 0, whose
/// texel (1, 1) of 2x2 is 0x80000044, and `im[2]` is unit 1, whose byte (1, 0) is 0x82.
#[test]
fn image_variables_name_their_units() {
    let body = [
        "LOADIM.U32 t, {1, 1, 0, 0}, im[1], 2D;\n",
        &out(0),
        "LOADIM.U8 t, {1, 0, 0, 0}, im[2], 2D;\n",
        &out(1),
    ]
    .concat();
    let text = program(&body).replace(
        "TEMP t, c, o;\n",
        "TEMP t, c, o;\nIMAGE im[] = { image[3], image[0..1] };\n",
    );
    let (outs, l) = run(&text, &[u32_2d(), u8_2d()]);
    check_results(&outs, &l, &[V([0x8000_0044, 0, 0, 1]), V([0x82, 0, 0, 1])]);
    // An index past the array is refused by the parser, with its position.
    let bad = text.replace("im[2], 2D", "im[3], 2D");
    let e = nv::parse(&bad, "t.nv").expect_err("past the array");
    assert!(e.to_string().starts_with("t.nv:"), "{e}");
}
