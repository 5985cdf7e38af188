//! TGSI implicit-derivative sampling and LODQ in fragment quads, and multisample textures
//! (TXF on `2D_MSAA`, TXQS) read from the inputs file (README "Textures"): values worked by
//! hand, interp and jit agreeing, valhall refusing, bad `samples` fields located.

mod common;

use common::{code, run, text, Scratch};

/// Little-endian hex bytes of a word.
fn hex(w: u32) -> String {
    w.to_le_bytes().iter().map(|b| format!("{b:02x}")).collect()
}

/// `n` RGBA32UI texels, texel `k` = `[base + k; 4]`.
fn texels(base: u32, n: u32) -> String {
    (0..n).map(|k| hex(base + k).repeat(4)).collect()
}

/// tgsi.rst TEX and LODQ in a fragment quad (INTERFACE.md "Fragment quads": lanes
/// `(x,y) (x+1,y) (x,y+1) (x+1,y+1)`), OpenGL 3.x §3.8.8. 8x8 RGBA32UI with 4 levels,
/// texel `n` of level `l` = `[100l + n; 4]`. Quad `s = 0.3 + 0.25 x`, `t = 0.3 + 0.5 y`:
/// du/dx = 2, dv/dy = 4, cross terms 0, so rho = 4 for every allowed derivative and
/// approximation: lambda = 2 → level 2 (2x2), lanes read (0,0) (1,0) (0,1) (1,1) = 200,
/// 201, 202, 203. LODQ: x = level 2 = 2.0, y = lambda 2.0 (the oracle's acceptance
/// interval [2 - 2^-8, 2 + 2^-8], reported by its middle), z, w undefined.
#[test]
fn tgsi_implicit_lod_and_lodq() {
    let s = Scratch::new("tex-lodq");
    let p = s.file(
        "p.tgsi",
        "FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0]\nDCL OUT[1]\nDCL SAMP[0]\n\
         DCL SVIEW[0], 2D, UINT\nTEX OUT[0], IN[0], SAMP[0], 2D\n\
         LODQ OUT[1], IN[0], SAMP[0], 2D\nEND\n",
    );
    let i = s.file(
        "in.json",
        &format!(
            "{{\"invocations\": 4, \"registers\": {{\"IN[0]\": [[0.3, 0.3, 0, 0], \
             [0.55, 0.3, 0, 0], [0.3, 0.8, 0, 0], [0.55, 0.8, 0, 0]]}},\
             \"textures\": {{\"SAMP[0]\": {{\"target\": \"2D\", \"format\": \"RGBA32UI\", \
             \"width\": 8, \"height\": 8, \"min_filter\": \"NEAREST_MIPMAP_NEAREST\", \
             \"levels\": [\"{}\", \"{}\", \"{}\", \"{}\"]}}}}}}",
            texels(0, 64),
            texels(100, 16),
            texels(200, 4),
            texels(300, 1)
        ),
    );
    let o = run(&["run", &p, "--inputs", &i, "--format", "json"]);
    assert_eq!(code(&o), 0, "{}", text(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    for (lane, n) in [200u32, 201, 202, 203].into_iter().enumerate() {
        let w = format!("{n:#010x}");
        assert_eq!(
            v["registers"]["OUT[0]"][lane],
            serde_json::json!([w, w, w, w]),
            "{v}"
        );
        for c in 0..2 {
            assert_eq!(v["registers"]["OUT[1]"][lane][c], "0x40000000", "{v}");
        }
        assert_eq!(
            v["undefined"]["OUT[1]"][lane],
            serde_json::json!([false, false, true, true]),
            "{v}"
        );
    }
    let o = run(&["diff", &p, "--inputs", &i, "--backends", "jit,valhall"]);
    let t = text(&o);
    assert_eq!(code(&o), 0, "{t}");
    assert!(t.contains("agree (interp vs jit"), "{t}");
}

const MS: &str = "VERT\nDCL IN[0]\nDCL OUT[0]\nDCL OUT[1]\nDCL SAMP[0]\n\
                  DCL SVIEW[0], 2D_MSAA, UINT\nTXF OUT[0], IN[0], SAMP[0], 2D_MSAA\n\
                  TXQS OUT[1], SAMP[0], 2D_MSAA\nEND\n";

fn ms_inputs(extra: &str) -> String {
    format!(
        "{{\"invocations\": 2, \"registers\": {{\"IN[0]\": [[\"i:1\", \"i:0\", \"i:0\", \"i:2\"], \
         [\"i:0\", \"i:0\", \"i:0\", \"i:3\"]]}},\n\"textures\": {{\"SAMP[0]\": {{\"target\": \
         \"2DMS\", \"format\": \"RGBA32UI\", \"width\": 2, \"height\": 1,{extra}\n\"levels\": \
         [\"{}\"]}}}}}}",
        texels(0, 6)
    )
}

/// tgsi.rst TXF on a multisample texture ("the fourth component indicates the sample")
/// and TXQS ("the number of samples ... in the x component ... The other components are
/// undefined"). 2DMS 2x1 with 3 samples, texel `k` = `[k; 4]`, each pixel's samples in a
/// row: invocation 0 fetches pixel (1, 0) sample 2 = texel 1 * 3 + 2 = 5; invocation 1
/// sample 3 of 3: undefined. TXQS: (3, undefined, undefined, undefined).
#[test]
fn tgsi_txf_msaa_and_txqs() {
    let s = Scratch::new("tex-msaa");
    let p = s.file("p.tgsi", MS);
    let i = s.file("in.json", &ms_inputs(" \"samples\": 3,"));
    let o = run(&["run", &p, "--inputs", &i, "--format", "json"]);
    assert_eq!(code(&o), 0, "{}", text(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let five = "0x00000005";
    assert_eq!(
        v["registers"]["OUT[0]"][0],
        serde_json::json!([five, five, five, five]),
        "{v}"
    );
    assert_eq!(
        v["undefined"]["OUT[0]"][1],
        serde_json::json!([true, true, true, true]),
        "{v}"
    );
    assert_eq!(v["registers"]["OUT[1]"][0][0], "0x00000003", "{v}");
    assert_eq!(
        v["undefined"]["OUT[1]"][0],
        serde_json::json!([false, true, true, true]),
        "{v}"
    );
    let o = run(&["diff", &p, "--inputs", &i, "--backends", "jit,valhall"]);
    let t = text(&o);
    assert_eq!(code(&o), 0, "{t}");
    assert!(t.contains("agree (interp vs jit"), "{t}");
}

/// A multisample texture without `samples`, `samples` on a single-sampled texture and a
/// sample count out of range are bad input (exit 2, located).
#[test]
fn bad_samples_fields() {
    let s = Scratch::new("tex-msaa-bad");
    let p = s.file("p.tgsi", MS);
    let i = s.file("in.json", &ms_inputs(""));
    let o = run(&["run", &p, "--inputs", &i]);
    assert_eq!(code(&o), 2, "{}", text(&o));
    assert!(text(&o).contains("no \"samples\""), "{}", text(&o));
    let i = s.file("big.json", &ms_inputs(" \"samples\": 33,"));
    let o = run(&["run", &p, "--inputs", &i]);
    assert_eq!(code(&o), 2, "{}", text(&o));
    assert!(
        text(&o).contains("big.json:2:") && text(&o).contains("from 1 to 32, found 33"),
        "{}",
        text(&o)
    );
    let single = ms_inputs(" \"samples\": 3,").replace("2DMS", "2D");
    let i = s.file("single.json", &single);
    let q = s.file("q.tgsi", &MS.replace("2D_MSAA", "2D"));
    let o = run(&["run", &q, "--inputs", &i]);
    assert_eq!(code(&o), 2, "{}", text(&o));
    assert!(
        text(&o).contains("single.json:2:") && text(&o).contains("has no samples"),
        "{}",
        text(&o)
    );
}
