//! Catalogued faults that need inputs the jit's unit cases have no room for (a texture):
//! shown end to end with `run` and `diff`.

mod common;

use common::{code, run, text, Scratch};

/// TXP of a 2x1 RGBA32F texture at (s, t, r, q) = (0.5, 0, 0, 2): tgsi.rst TXP divides
/// by q, so s = 0.25, u = 0.5 and NEAREST picks texel 0 (all zero); without the division
/// u = 1.0 picks texel 1 (1.0, 2.0, 3.0, 4.0 = the hex bytes of the inputs file).
#[test]
fn txp_ignores_q_samples_the_undivided_coordinate() {
    let s = Scratch::new("txp-q");
    let p = s.file(
        "p.tgsi",
        "VERT\nDCL IN[0]\nDCL OUT[0]\nDCL SAMP[0]\nDCL SVIEW[0], 2D, FLOAT\n\
         TXP OUT[0], IN[0], SAMP[0], 2D\nEND\n",
    );
    let i = s.file(
        "in.json",
        "{\"invocations\": 1, \"registers\": {\"IN[0]\": [[0.5, 0.0, 0.0, 2.0]]},\n\
         \"textures\": {\"SAMP[0]\": {\"target\": \"2D\", \"format\": \"RGBA32F\", \"width\": 2, \"height\": 1,\n\
         \"levels\": [\"00000000000000000000000000000000 0000803f000000400000404000008040\"]}}}\n",
    );
    let texel = |fault: Option<&str>| {
        let mut args = vec![
            "run",
            &p,
            "--inputs",
            &i,
            "--backend",
            "jit",
            "--format",
            "json",
        ];
        if let Some(f) = fault {
            args.extend(["--inject-fault", f]);
        }
        let o = run(&args);
        assert_eq!(code(&o), 0, "{}", text(&o));
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        v["registers"]["OUT[0]"][0].clone()
    };
    let zero = serde_json::json!(["0x00000000", "0x00000000", "0x00000000", "0x00000000"]);
    let one = serde_json::json!(["0x3f800000", "0x40000000", "0x40400000", "0x40800000"]);
    assert_eq!(texel(None), zero);
    assert_eq!(texel(Some("txp-ignores-q")), one);
    let o = run(&[
        "diff",
        &p,
        "--inputs",
        &i,
        "--backends",
        "jit",
        "--inject-fault",
        "txp-ignores-q",
    ]);
    assert_eq!(code(&o), 1, "{}", text(&o));
}
