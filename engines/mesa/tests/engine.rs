//! The mesa engine on hand-checked programs. Expected values come from the ARB specs'
//! formulas (ARB_fragment_program §3.11.5, ARB_vertex_program §2.14.5) on exactly
//! representable operands, never from running an engine.

mod common;

use common::{engine, inputs, lower, out, run};
use shaderdiff_engine::Engine;
use shaderdiff_nv as nv;

#[test]
fn fragment_alu_reads_texcoords_and_locals() {
    let Some(e) = engine() else { return };
    let l = lower(
        "!!ARBfp1.0\nPARAM c = program.local[2];\nTEMP t;\nADD t, fragment.texcoord[0], c;\nMUL result.color, t, fragment.texcoord[1];\nEND\n",
    );
    let tc0 = vec![
        [1.5, -2.0, 0.25, 8.0],
        [0.0, 1.0, 2.0, 3.0],
        [-1.0, -1.0, 4.0, 0.5],
        [1e10, 2.0, 3.0, 4.0],
    ];
    let tc1 = vec![[2.0, 3.0, 4.0, 0.5]; 4];
    let i = inputs(
        &l,
        4,
        &[("fragment.texcoord[0]", tc0), ("fragment.texcoord[1]", tc1)],
        &[("program.local[2]", [0.5, 1.0, -0.25, 0.0])],
    );
    let o = run(&e, &l, &i).unwrap();
    // ADD then MUL (§3.11.5.1, §3.11.5.16), all results exact in binary32.
    assert_eq!(
        out(&l, &o, "result.color"),
        vec![
            [4.0, -3.0, 0.0, 4.0],
            [1.0, 6.0, 7.0, 1.5],
            [-1.0, 0.0, 15.0, 0.25],
            [2e10, 9.0, 11.0, 2.0]
        ]
    );
    assert_eq!(o.killed, Some(vec![false; 4]));
}

#[test]
fn kil_is_reported_per_invocation() {
    let Some(e) = engine() else { return };
    let l = lower(
        "!!ARBfp1.0\nKIL fragment.texcoord[0];\nMOV result.color, fragment.texcoord[0];\nEND\n",
    );
    // §3.11.5.17 KIL: the fragment is discarded if any component of the operand is < 0.
    let tc = vec![
        [0.0, 1.0, 2.0, 3.0],
        [0.0, -0.5, 0.0, 0.0],
        [-0.0, 0.0, 0.0, 0.0],
        [1.0, 1.0, 1.0, -1e-3],
    ];
    let i = inputs(&l, 4, &[("fragment.texcoord[0]", tc)], &[]);
    let o = run(&e, &l, &i).unwrap();
    assert_eq!(o.killed, Some(vec![false, true, false, true]));
    assert_eq!(out(&l, &o, "result.color")[0], [0.0, 1.0, 2.0, 3.0]);
}

#[test]
fn several_draws_keep_invocation_order() {
    let Some(e) = engine() else { return };
    let l = lower("!!ARBfp1.0\nMOV result.color, fragment.texcoord[3];\nEND\n");
    // 65,536 points per draw: 65,544 invocations take two draws.
    let n = 65_544;
    let v: Vec<[f32; 4]> = (0..n)
        .map(|k| [k as f32, -(k as f32), 0.5 * k as f32, 1.0])
        .collect();
    let i = inputs(&l, n, &[("fragment.texcoord[3]", v.clone())], &[]);
    let o = run(&e, &l, &i).unwrap();
    assert_eq!(out(&l, &o, "result.color"), v);
}

#[test]
fn draw_buffers_and_colors() {
    let Some(e) = engine() else { return };
    let l = lower(
        "!!ARBfp1.0\nOPTION ARB_draw_buffers;\nPARAM k = program.env[1];\nMOV result.color[0], fragment.color;\nSUB result.color[2], fragment.color.secondary, k;\nEND\n",
    );
    let i = inputs(
        &l,
        4,
        &[
            ("fragment.color", vec![[7.0, -3.0, 100.0, 0.5]; 4]),
            ("fragment.color.secondary", vec![[2.0, 4.0, 8.0, -16.0]; 4]),
        ],
        &[("program.env[1]", [1.0, 1.0, 1.0, 1.0])],
    );
    let o = run(&e, &l, &i).unwrap();
    // Colours are not clamped (glClampColor FALSE): 7, -3 and 100 come back unchanged.
    assert_eq!(
        out(&l, &o, "result.color"),
        vec![[7.0, -3.0, 100.0, 0.5]; 4]
    );
    assert_eq!(
        out(&l, &o, "result.color[2]"),
        vec![[1.0, 3.0, 7.0, -17.0]; 4]
    );
}

#[test]
fn vertex_program_outputs_and_its_own_position() {
    let Some(e) = engine() else { return };
    let l = lower(
        "!!ARBvp1.0\nATTRIB a = vertex.attrib[1];\nPARAM s = program.local[0];\nMUL result.position, a, s;\nADD result.texcoord[2], a, vertex.attrib[0];\nMOV result.color, -a;\nEND\n",
    );
    let a: Vec<[f32; 4]> = (0..5).map(|k| [k as f32, 10.0, -0.5, 3.0]).collect();
    let p: Vec<[f32; 4]> = vec![[100.0, 200.0, 300.0, 400.0]; 5];
    let i = inputs(
        &l,
        5,
        &[("vertex.attrib[1]", a), ("vertex.attrib[0]", p)],
        &[("program.local[0]", [2.0, -1.0, 4.0, 1e30])],
    );
    let o = run(&e, &l, &i).unwrap();
    assert_eq!(o.killed, None);
    // The position the program computes is reported although it is far outside the clip
    // volume (w = 3e30): the engine places the points itself (plan.rs).
    let pos = out(&l, &o, "result.position");
    for (k, v) in pos.iter().enumerate() {
        // MUL (§2.14.5.16) is one binary32 multiplication: host IEEE arithmetic.
        assert_eq!(*v, [2.0 * k as f32, -10.0, -2.0, 3.0f32 * 1e30f32]);
    }
    assert_eq!(
        out(&l, &o, "result.texcoord[2]")[4],
        [104.0, 210.0, 299.5, 403.0]
    );
    assert_eq!(out(&l, &o, "result.color")[1], [-1.0, -10.0, 0.5, -3.0]);
}

#[test]
fn programs_beyond_mesas_limits_are_refused_before_the_engine() {
    // ARB_vertex_program §2.14.1: MAX_PROGRAM_LOCAL_PARAMETERS_ARB locals; a program
    // exceeding a resource limit fails to load. Mesa allows 4096 (src/mesa/main/config.h),
    // so program.local[5000] is refused by the front-end under every limit profile, mesa's
    // included, before glProgramStringARB would reject it (docs/frontends.md).
    let text = "!!ARBvp1.0\nMOV result.position, program.local[5000];\nEND\n";
    for profile in [nv::LimitProfile::Spec, nv::LimitProfile::Mesa] {
        let e = nv::parse_with(text, "test", profile).expect_err("beyond the limit");
        assert_eq!((e.pos.line, e.pos.col), (2, 22), "{e}");
        assert!(
            e.message.contains("MAX_PROGRAM_LOCAL_PARAMETERS_ARB"),
            "{e}"
        );
    }
}

#[test]
fn tgsi_and_nv_programs_are_refused() {
    let Some(e) = engine() else { return };
    let t = shaderdiff_tgsi::parse(
        "FRAG\nDCL OUT[0], COLOR\nMOV OUT[0], IMM[0]\nIMM[0] FLT32 { 1.0, 0.0, 0.0, 0.0 }\nEND\n",
        "t",
    );
    if let Ok(p) = t {
        assert!(e.check(&p).unwrap_err().is_unsupported());
    }
    let l = lower("!!NVfp4.0\nMOV.F result.color, fragment.texcoord[0];\nEND\n");
    assert!(e.check(&l.program).unwrap_err().is_unsupported());
}
