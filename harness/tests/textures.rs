//! The `textures` object of the inputs file (README "Textures"): a texture read by `run`,
//! agreement of interp and jit, valhall's refusal, and bad entries reported at
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
    assert!(t.contains("agree (interp vs jit"), "{t}");
    assert!(t.contains("valhall simulator has no texture unit"), "{t}");
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
    // A unit the program does not declare.
    let i = s.file("unit.json", &inputs(GOOD).replace("SAMP[0]", "SAMP[3]"));
    let o = run(&["run", &p, "--inputs", &i]);
    assert_eq!(code(&o), 2, "{}", text(&o));
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("unit.json:5:5:"),
        "{}",
        text(&o)
    );
}
