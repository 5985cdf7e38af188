//! The interpreter's texture checks: what it refuses (targets outside the model, texel
//! offsets, sampling a BUFFER, two targets on one unit), which inputs do not fit a program. The values of TEX, TXP, TXB, TXL,
//! TXF and TXQ are checked on every engine, the oracle included, by
//! engines/tests/programs/texture.rs (hand-worked from tgsi.rst and NV_gpu_program4).

mod interp_common;

use interp_common::*;
use shaderdiff_model::{File, Opcode};
use shaderdiff_oracles::texture::{Format, MinFilter, Target, Texture, Wrap};
use shaderdiff_oracles::{ExecError, RegKey};

fn tex2d(levels: usize, min: MinFilter) -> Texture {
    let mut t = Texture {
        target: Target::T2D,
        format: Format::Rgba32F,
        size: [4, 4, 1],
        wrap: [Wrap::Repeat; 3],
        min_filter: min,
        levels: Vec::new(),
        samples: 1,
        compare: None,
    };
    for l in 0..levels {
        let [w, h, _] = t.level_size(l);
        t.levels.push(vec![[0; 4]; (w * h) as usize]);
    }
    t
}

fn prog(stage: &str, body: &str) -> String {
    let decl = if stage == "FRAG" {
        "DCL IN[0], GENERIC[0], PERSPECTIVE"
    } else {
        "DCL IN[0]"
    };
    format!("{stage}\n{decl}\nDCL OUT[0]\nDCL SAMP[0]\n{body}END\n")
}

fn err(text: &str, ins: &shaderdiff_oracles::Inputs) -> ExecError {
    exec(&parse(text), ins).expect_err("the run must fail")
}

#[test]
fn unmodelled_targets_are_unsupported() {
    let cube = prog("VERT", "TXP OUT[0], IN[0], SAMP[0], CUBEARRAY\n");
    match err(&cube, &inputs(4, &[])) {
        ExecError::Unsupported {
            opcode,
            pos,
            reason,
        } => {
            assert_eq!(opcode, Opcode::TXP);
            assert_eq!(pos.map(|p| p.line), Some(5));
            assert!(reason.contains("CUBEARRAY"), "{reason}");
        }
        e => panic!("{e}"),
    }
    // A multisample target is fetched by TXF (and queried) only (tgsi.rst TXF;
    // NV_explicit_multisample: "No other sample or fetch commands may be used"): invalid.
    let ms = prog("VERT", "TXL OUT[0], IN[0], SAMP[0], 2D_MSAA\n");
    assert!(matches!(
        err(&ms, &inputs(4, &[])),
        ExecError::InvalidProgram { .. }
    ));
}

#[test]
fn invalid_texture_programs() {
    // NV_gpu_program4 Table X.17: buffer textures take TXF and TXQ only.
    let buf = prog("VERT", "TEX OUT[0], IN[0], SAMP[0], BUFFER\n");
    assert!(matches!(
        err(&buf, &inputs(4, &[])),
        ExecError::InvalidProgram { .. }
    ));
    // §2.X.4.4: one target per texture unit.
    let two = prog(
        "VERT",
        "TEX OUT[0], IN[0], SAMP[0], 2D\nTEX OUT[0], IN[0], SAMP[0], 3D\n",
    );
    match err(&two, &inputs(4, &[])) {
        ExecError::InvalidProgram { pos, message } => {
            assert_eq!(pos.map(|p| p.line), Some(6));
            assert!(message.contains("one target per texture unit"), "{message}");
        }
        e => panic!("{e}"),
    }
}

#[test]
fn inputs_must_fit_the_units() {
    let text = prog("VERT", "TEX OUT[0], IN[0], SAMP[0], 2D\n");
    let mut ins = inputs(4, &[]);
    let mut t = tex2d(1, MinFilter::Nearest);
    t.target = Target::T3D;
    t.size = [4, 4, 1];
    ins.textures.insert(RegKey::new(File::Sampler, 0), t);
    match err(&text, &ins) {
        ExecError::InvalidInputs(m) => assert!(m.contains("samples it as 2D"), "{m}"),
        e => panic!("{e}"),
    }
    let mut ins = inputs(4, &[]);
    ins.textures
        .insert(RegKey::new(File::Sampler, 1), tex2d(1, MinFilter::Nearest));
    match err(&text, &ins) {
        ExecError::InvalidInputs(m) => assert!(m.contains("does not sample"), "{m}"),
        e => panic!("{e}"),
    }
    let mut ins = inputs(4, &[]);
    let mut t = tex2d(1, MinFilter::Nearest);
    t.levels[0].pop();
    ins.textures.insert(RegKey::new(File::Sampler, 0), t);
    match err(&text, &ins) {
        ExecError::InvalidInputs(m) => assert!(m.contains("level 0 has 15 texels"), "{m}"),
        e => panic!("{e}"),
    }
}

#[test]
fn fragment_implicit_lod_runs_on_mipmapped_textures() {
    // Implicit derivatives are modelled (oracle/src/interp/tex_lod.rs): a mipmapped
    // texture sampled by TEX in a fragment program runs; every level of tex2d holds zeros,
    // so whichever level the quad's derivatives select, the result is 0.
    let text = prog("FRAG", "TEX OUT[0], IN[0], SAMP[0], 2D\n");
    let mut ins = inputs(4, &[]);
    ins.textures.insert(
        RegKey::new(File::Sampler, 0),
        tex2d(3, MinFilter::NearestMipmapNearest),
    );
    let o = exec(&parse(&text), &ins).expect("runs");
    assert_eq!(reg(&o, out(0)), &[[0; 4]; 4][..]);
    assert_eq!(undef(&o, out(0)), vec![0; 4]);
}
