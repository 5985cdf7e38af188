//! Command-line tests of attribute interpolation at centroid / sample / offset: TGSI
//! INTERP_CENTROID, INTERP_SAMPLE, INTERP_OFFSET and NV_gpu_program5 IPAC, IPAS, IPAO on
//! every default engine (interp, jit, valhall), their undefined cases, the operand errors,
//! and a differential check over a set of programs.
//!
//! Expected values are derived by hand from the model (README "Additions to INTERFACE.md",
//! "Interpolation at centroid, sample, offset"): centroid = sample 0 = the input; at offset
//! `(dx, dy)` lane `l` of an affine quad gives `v[l] + dx*ddx + dy*ddy` with `ddx`, `ddy`
//! the differences along its row and column (INTERFACE.md "Fragment quads": lanes
//! `(x,y) (x+1,y) (x,y+1) (x+1,y+1)`).

mod common;

use common::*;

/// Quad 0 (lanes 0-3): `v = 0.5 + 0.25x - 2y`, i.e. 0.5, 0.75, -1.5, -1.25: ddx = 0.25,
/// ddy = -2 in both rows / columns. Quad 1 (lanes 4-7): 1, 2, 3, 5, not affine
/// (1 + 5 != 2 + 3).
const QUADS: &str = "[[0.5, 0, 0, 0], [0.75, 0, 0, 0], [-1.5, 0, 0, 0], [-1.25, 0, 0, 0], \
                     [1, 0, 0, 0], [2, 0, 0, 0], [3, 0, 0, 0], [5, 0, 0, 0]]";

/// Offsets per lane: (0.5, 0.5), (-0.25, 0), (0, -0.5), (0.125, 0.25), repeated.
const OFFSETS: &str = "[[0.5, 0.5, 0, 0], [-0.25, 0, 0, 0], [0, -0.5, 0, 0], [0.125, 0.25, 0, 0], \
                       [0.5, 0.5, 0, 0], [-0.25, 0, 0, 0], [0, -0.5, 0, 0], [0.125, 0.25, 0, 0]]";

/// At those offsets quad 0 gives (every step exact in binary32, so every evaluation order
/// and FMA give the same bits):
///   lane 0: 0.5 + 0.5*0.25 + 0.5*(-2)    = 0.5 + 0.125 - 1   = -0.375
///   lane 1: 0.75 - 0.25*0.25 + 0         = 0.75 - 0.0625     =  0.6875
///   lane 2: -1.5 + 0 - 0.5*(-2)          = -1.5 + 1          = -0.5
///   lane 3: -1.25 + 0.125*0.25 + 0.25*(-2) = -1.25 + 0.03125 - 0.5 = -1.71875
const AT_OFFSETS: [f32; 4] = [-0.375, 0.6875, -0.5, -1.71875];

const TGSI: &str = "FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL IN[1], GENERIC[1], CONSTANT\n\
    DCL OUT[0], COLOR\nIMM[0] INT32 {0, 2, 0, 0}\n\
    INTERP_OFFSET OUT[0].x, IN[0].xxxx, IN[1]\n\
    INTERP_CENTROID OUT[0].y, -IN[0].xxxx\n\
    INTERP_SAMPLE OUT[0].z, IN[0].xxxx, IMM[0].xxxx\n\
    INTERP_SAMPLE OUT[0].w, IN[0].xxxx, IMM[0].yyyy\nEND\n";

fn hex(x: f32) -> String {
    format!("0x{:08x}", x.to_bits())
}

/// `run --format json` of `program` with `inputs` on `backend`: the JSON output.
fn run_json(program: &str, inputs: &str, backend: &str) -> serde_json::Value {
    let o = run(&[
        "run",
        program,
        "--inputs",
        inputs,
        "--backend",
        backend,
        "--format",
        "json",
    ]);
    assert_eq!(code(&o), 0, "{backend}: {}", text(&o));
    serde_json::from_slice(&o.stdout).expect("json")
}

fn channel(j: &serde_json::Value, reg: &str, lane: usize, c: usize) -> String {
    j["registers"][reg][lane][c]
        .as_str()
        .unwrap_or_else(|| panic!("{reg}[{lane}][{c}] in {j}"))
        .to_string()
}

fn undefined(j: &serde_json::Value, reg: &str, lane: usize, c: usize) -> bool {
    j["undefined"][reg][lane][c].as_bool().unwrap_or(false)
}

#[test]
fn tgsi_interpolation_on_every_engine() {
    let s = Scratch::new("interp-tgsi");
    let p = s.file("interp.tgsi", TGSI);
    let i = s.file(
        "interp.inputs.json",
        &format!(
            "{{\"invocations\": 8, \"registers\": {{\"IN[0]\": {QUADS}, \"IN[1]\": {OFFSETS}}}}}"
        ),
    );
    let quad0 = [0.5f32, 0.75, -1.5, -1.25];
    for backend in ["interp", "jit", "valhall"] {
        let j = run_json(&p, &i, backend);
        for l in 0..4 {
            assert_eq!(
                channel(&j, "OUT[0]", l, 0),
                hex(AT_OFFSETS[l]),
                "{backend} lane {l}"
            );
            // Centroid: -v (negation of the input); sample 0: v.
            assert_eq!(
                channel(&j, "OUT[0]", l, 1),
                hex(-quad0[l]),
                "{backend} lane {l}"
            );
            assert_eq!(
                channel(&j, "OUT[0]", l, 2),
                hex(quad0[l]),
                "{backend} lane {l}"
            );
        }
        if backend == "interp" {
            for l in 0..8 {
                // Sample 2 does not exist single-sampled: w undefined everywhere; the
                // offset is undefined on the non-affine quad 1 only.
                assert!(undefined(&j, "OUT[0]", l, 3), "lane {l} w");
                assert_eq!(undefined(&j, "OUT[0]", l, 0), l >= 4, "lane {l} x");
                assert!(!undefined(&j, "OUT[0]", l, 1) && !undefined(&j, "OUT[0]", l, 2));
            }
        }
    }
    let o = run(&["diff", &p, "--inputs", &i]);
    assert_eq!(code(&o), 0, "{}", text(&o));
    assert!(
        text(&o).contains("agree (interp vs jit, valhall"),
        "{}",
        text(&o)
    );
}

const NV: &str = "!!NVfp5.0\nOPTION ARB_draw_buffers;\nFLAT ATTRIB flat = fragment.attrib[2];\n\
    IPAO result.color, fragment.texcoord[0].xxxx, fragment.texcoord[1];\n\
    IPAC result.color[1], |fragment.texcoord[0]|;\n\
    IPAS result.color[2], -fragment.texcoord[0].xxxx, 0;\n\
    IPAO result.color[3], flat, {0.5, -0.5, 0, 0};\nEND\n";

#[test]
fn nv_ipac_ipao_ipas_on_every_engine() {
    let s = Scratch::new("interp-nv");
    let p = s.file("ipa.nvfp", NV);
    // fragment.attrib[2] (FLAT) differs per lane: "FLAT ... operate[s] normally", so every
    // position gives the lane's own value, even with a non-affine quad.
    let i = s.file(
        "ipa.inputs.json",
        &format!(
            "{{\"invocations\": 8, \"registers\": {{\"fragment.texcoord[0]\": {QUADS}, \
             \"fragment.texcoord[1]\": {OFFSETS}, \"flat\": {QUADS}}}}}"
        ),
    );
    let quad0 = [0.5f32, 0.75, -1.5, -1.25];
    for backend in ["interp", "jit", "valhall"] {
        let j = run_json(&p, &i, backend);
        for l in 0..4 {
            assert_eq!(
                channel(&j, "result.color", l, 0),
                hex(AT_OFFSETS[l]),
                "{backend}"
            );
            // |v| at the centroid; y, z, w of texcoord[0] are 0.
            assert_eq!(channel(&j, "result.color[1]", l, 0), hex(quad0[l].abs()));
            assert_eq!(channel(&j, "result.color[1]", l, 1), hex(0.0));
            // IPAS sample 0: -v.
            assert_eq!(channel(&j, "result.color[2]", l, 0), hex(-quad0[l]));
        }
        for l in 0..8 {
            let flat = [0.5f32, 0.75, -1.5, -1.25, 1.0, 2.0, 3.0, 5.0][l];
            assert_eq!(channel(&j, "result.color[3]", l, 0), hex(flat), "{backend}");
        }
        if backend == "interp" {
            for l in 0..8 {
                assert_eq!(undefined(&j, "result.color", l, 0), l >= 4, "lane {l}");
                assert!(!undefined(&j, "result.color[3]", l, 0), "lane {l}");
            }
        }
    }
    let o = run(&["diff", &p, "--inputs", &i]);
    assert_eq!(code(&o), 0, "{}", text(&o));
    assert!(
        text(&o).contains("agree (interp vs jit, valhall"),
        "{}",
        text(&o)
    );
}

#[test]
fn operand_errors_name_their_position() {
    let s = Scratch::new("interp-errors");
    let cases = [
        // tgsi.rst: the first source must come from TGSI_FILE_INPUT (at the operand).
        (
            "temp.tgsi",
            "FRAG\nDCL IN[0], GENERIC[0]\nDCL OUT[0], COLOR\nDCL TEMP[0]\n\
             INTERP_CENTROID OUT[0], TEMP[0]\nEND\n",
            "temp.tgsi:5:25:",
            "must be an IN register",
        ),
        (
            "vert.tgsi",
            "VERT\nDCL IN[0]\nDCL OUT[0]\nINTERP_OFFSET OUT[0], IN[0], IN[0]\nEND\n",
            "vert.tgsi:4:1:",
            "FRAG programs only",
        ),
        // NV_gpu_program5 §2.X.8.Z: "A program will fail to load if ... not a fragment
        // program attribute variable or matches the "fragment.facing" or "primitive.id"
        // binding".
        (
            "facing.nvfp",
            "!!NVfp5.0\nIPAC result.color, fragment.facing;\nEND\n",
            "facing.nvfp:2:1:",
            "fragment.facing",
        ),
        (
            "primid.nvfp",
            "!!NVfp5.0\nIPAS result.color, primitive.id, 0;\nEND\n",
            "primid.nvfp:2:1:",
            "primitive.id",
        ),
        (
            "temp.nvfp",
            "!!NVfp5.0\nTEMP t;\nMOV t, 1;\nIPAO result.color, t, t;\nEND\n",
            "temp.nvfp:4:1:",
            "fragment program attribute",
        ),
    ];
    for (name, program, at, what) in cases {
        let p = s.file(name, program);
        for cmd in ["run", "diff"] {
            let o = run(&[cmd, &p]);
            assert_eq!(code(&o), 2, "{cmd} {name}: {}", text(&o));
            let t = text(&o);
            assert!(t.contains(at) && t.contains(what), "{cmd} {name}: {t}");
        }
    }
    // An indirectly addressed attribute is outside the model: refused (exit 3).
    let p = s.file(
        "indirect.nvfp",
        "!!NVfp5.0\nATTRIB a[2] = { fragment.texcoord[0..1] };\nINT TEMP i;\nMOV.S i, 1;\n\
         IPAC result.color, a[i.x];\nEND\n",
    );
    let o = run(&["run", &p]);
    assert_eq!(code(&o), 3, "{}", text(&o));
    assert!(text(&o).contains("not modelled"), "{}", text(&o));
}

/// Every engine agrees on a set of interpolation programs with generated inputs (random
/// inputs make most quads non-affine: the offset cases are then undefined, the centroid
/// and sample-0 cases still compare) and on the hand-made affine inputs above.
#[test]
fn engines_agree_on_interpolation_programs() {
    let s = Scratch::new("interp-agree");
    let head = "FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL IN[1], GENERIC[1], LINEAR\n\
                DCL IN[2], GENERIC[2], CONSTANT\nDCL OUT[0], COLOR\nDCL OUT[1], COLOR[1]\n\
                DCL TEMP[0..1]\n";
    let bodies = [
        "INTERP_CENTROID OUT[0], IN[0].wzyx\nINTERP_SAMPLE_SAT OUT[1], -IN[1], IN[2].xxxx",
        "MUL TEMP[0], IN[1], IN[1]\nINTERP_OFFSET OUT[0], |IN[0]|, TEMP[0].wzyx\n\
         INTERP_OFFSET_SAT OUT[1], -IN[1].yxwz, IN[2]",
        "INTERP_OFFSET TEMP[0], IN[2], IN[0]\nADD OUT[0], TEMP[0], IN[1]\n\
         INTERP_CENTROID TEMP[1].xy, IN[1]\nDDX_FINE OUT[1], TEMP[1]",
        "IF IN[0].xxxx\nINTERP_OFFSET OUT[0], IN[1], IN[2]\nELSE\n\
         INTERP_CENTROID OUT[0], IN[1]\nENDIF\nINTERP_OFFSET OUT[1].zw, IN[0], IN[1].zwxy",
    ];
    for (k, body) in bodies.iter().enumerate() {
        s.file(&format!("p{k}.tgsi"), &format!("{head}{body}\nEND\n"));
    }
    let dir = s.0.display().to_string();
    let o = run(&["diff", &dir, "--random-inputs", "12", "--seed", "5"]);
    assert_eq!(code(&o), 0, "{}", text(&o));
    assert_eq!(
        text(&o).matches(": agree (interp vs jit, valhall").count(),
        bodies.len(),
        "{}",
        text(&o)
    );
    // Affine inputs: IN[0] = IN[1] = QUADS, IN[2] = OFFSETS.
    let i = s.file(
        "affine.json",
        &format!(
            "{{\"invocations\": 8, \"registers\": {{\"IN[0]\": {QUADS}, \"IN[1]\": {QUADS}, \
             \"IN[2]\": {OFFSETS}}}}}"
        ),
    );
    for k in 0..bodies.len() {
        let p = s.path(&format!("p{k}.tgsi"));
        let o = run(&["diff", &p, "--inputs", &i]);
        assert_eq!(code(&o), 0, "p{k}: {}", text(&o));
        assert!(
            text(&o).contains("agree (interp vs jit, valhall"),
            "p{k}: {}",
            text(&o)
        );
    }
}
