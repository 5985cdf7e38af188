//! The virgl engine against hand-computed results (tgsi.rst semantics), its refusals, and
//! its behaviour when virglrenderer rejects a shader or the server dies.
//!
//! These tests need `virgl_test_server` (Debian package `virgl-server`). Without it they
//! skip with a note, unless `SHADERDIFF_REQUIRE_VIRGL=1` (set by `.ci/run`), which turns
//! an unavailable engine into a failure so CI cannot pass without running them.

use std::collections::BTreeMap;

use shaderdiff_engine::{Engine, EngineConfig, EngineError, Inputs, Outputs};
use shaderdiff_model::File;
use shaderdiff_model::{RegKey, Vec4};
use shaderdiff_tgsi as tgsi;
use shaderdiff_virgl::VirglEngine;

fn engine(step_limit: u64) -> Option<VirglEngine> {
    match shaderdiff_virgl::available() {
        Ok(_) => Some(VirglEngine::new(&EngineConfig {
            step_limit,
            ..EngineConfig::default()
        })),
        Err(why) => {
            if std::env::var_os("SHADERDIFF_REQUIRE_VIRGL").is_some() {
                panic!(
                    "SHADERDIFF_REQUIRE_VIRGL is set but the virgl engine is unavailable: {why}"
                );
            }
            eprintln!("skipping: the virgl engine is unavailable here ({why})");
            None
        }
    }
}

fn f(v: [f32; 4]) -> Vec4 {
    v.map(f32::to_bits)
}

fn inputs(invocations: usize, regs: &[(File, u32, Vec<Vec4>)]) -> Inputs {
    let mut registers = BTreeMap::new();
    for (file, index, vals) in regs {
        registers.insert(RegKey::new(*file, *index), vals.clone());
    }
    Inputs {
        invocations,
        registers,
        ..Inputs::default()
    }
}

fn run(e: &VirglEngine, text: &str, ins: &Inputs) -> Result<Outputs, EngineError> {
    let p = tgsi::parse(text, "test.tgsi").expect("valid TGSI");
    e.execute(&p, ins)
}

fn out(o: &Outputs, index: u32) -> &Vec<Vec4> {
    &o.registers[&RegKey::new(File::Output, index)]
}

#[test]
fn float_arithmetic_matches_hand_computed_values() {
    let Some(e) = engine(1_000_000) else { return };
    // tgsi.rst: ADD dst = src0 + src1, MUL dst = src0 * src1, MAD dst = src0 * src1 + src2,
    // DP4 dst = src0.x*src1.x + ... + src0.w*src1.w (replicated). Every value is exact.
    let text = "VERT\nDCL IN[0..2]\nDCL OUT[0..3]\n\
        ADD OUT[0], IN[0], IN[1]\nMUL OUT[1], IN[0], IN[1]\nMAD OUT[2], IN[0], IN[1], IN[2]\n\
        DP4 OUT[3], IN[0], IN[1]\nEND\n";
    let ins = inputs(
        2,
        &[
            (
                File::Input,
                0,
                vec![f([1.5, 2.0, -3.0, 0.25]), f([1.0, 2.0, 3.0, 4.0])],
            ),
            (
                File::Input,
                1,
                vec![f([2.0, -0.5, 4.0, 8.0]), f([5.0, 6.0, 7.0, 8.0])],
            ),
            (File::Input, 2, vec![f([1.0, 1.0, 1.0, 1.0])]),
        ],
    );
    let o = run(&e, text, &ins).unwrap();
    assert_eq!(o.invocations, 2);
    assert_eq!(out(&o, 0)[0], f([3.5, 1.5, 1.0, 8.25]));
    assert_eq!(out(&o, 1)[0], f([3.0, -1.0, -12.0, 2.0]));
    assert_eq!(out(&o, 2)[0], f([4.0, 0.0, -11.0, 3.0]));
    // 1.5*2 - 2*0.5 - 3*4 + 0.25*8 = -8; 1*5 + 2*6 + 3*7 + 4*8 = 70.
    assert_eq!(out(&o, 3)[0], f([-8.0; 4]));
    assert_eq!(out(&o, 3)[1], f([70.0; 4]));
    assert_eq!(o.killed, None);
}

#[test]
fn integer_conversion_and_comparison_match_hand_computed_values() {
    let Some(e) = engine(1_000_000) else { return };
    // UADD wraps modulo 2^32; I2F converts a signed integer; SNE gives 1.0 where the
    // floats differ and 0.0 where they are equal; USHR shifts right, filling with zeros.
    let text = "VERT\nDCL IN[0..4]\nDCL OUT[0..3]\n\
        UADD OUT[0], IN[0], IN[1]\nI2F OUT[1], IN[0]\nSNE OUT[2], IN[2], IN[3]\n\
        USHR OUT[3], IN[0], IN[4]\nEND\n";
    let ins = inputs(
        1,
        &[
            (
                File::Input,
                0,
                vec![[0xffff_ffff, 0xffff_fffd, 7, 0x8000_0000]],
            ),
            (File::Input, 1, vec![[2, 0xffff_fffd, 8, 33]]),
            (File::Input, 2, vec![f([1.0, 2.0, 3.0, 4.0])]),
            (File::Input, 3, vec![f([1.0, 5.0, 3.0, 0.0])]),
            (File::Input, 4, vec![[2, 29, 8, 1]]),
        ],
    );
    let o = run(&e, text, &ins).unwrap();
    assert_eq!(out(&o, 0)[0], [1, 0xffff_fffa, 15, 0x8000_0021]);
    // I2F: -1, -3, 7, -2^31.
    assert_eq!(out(&o, 1)[0], f([-1.0, -3.0, 7.0, -2147483648.0]));
    assert_eq!(out(&o, 2)[0], f([0.0, 1.0, 0.0, 1.0]));
    // USHR: 0xffffffff >> 2, 0xfffffffd >> 29, 7 >> 8, 0x80000000 >> 1.
    assert_eq!(out(&o, 3)[0], [0x3fff_ffff, 7, 0, 0x4000_0000]);
}

#[test]
fn constants_immediates_and_indirect_inputs_reach_the_shader() {
    let Some(e) = engine(1_000_000) else { return };
    // OUT[0] = IN[ADDR.x] * CONST[1] + IMM[0], with ADDR.x = IN[2].x (0 or 1).
    let text = "VERT\nDCL IN[0..2]\nDCL OUT[0]\nDCL CONST[0..1]\nDCL ADDR[0]\n\
        IMM[0] FLT32 {0.5, 0.25, -0.0, 1.0}\n\
        UARL ADDR[0].x, IN[2].xxxx\nMAD OUT[0], IN[ADDR[0].x], CONST[1], IMM[0]\nEND\n";
    let mut ins = inputs(
        2,
        &[
            (File::Input, 0, vec![f([1.0, 2.0, 3.0, 4.0])]),
            (File::Input, 1, vec![f([-1.0, -2.0, -3.0, -4.0])]),
            (File::Input, 2, vec![[0; 4], [1; 4]]),
        ],
    );
    ins.constants
        .insert(RegKey::new(File::Const, 1), f([2.0, 4.0, 8.0, 0.5]));
    let o = run(&e, text, &ins).unwrap();
    assert_eq!(out(&o, 0)[0], f([2.5, 8.25, 24.0, 3.0]));
    assert_eq!(out(&o, 0)[1], f([-1.5, -7.75, -24.0, -1.0]));
}

#[test]
fn fragment_kills_are_reported() {
    let Some(e) = engine(1_000_000) else { return };
    // KILL_IF kills when any component of its source is negative (tgsi.rst).
    let text = "FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\n\
        KILL_IF IN[0].xxxx\nMOV OUT[0], IN[0]\nEND\n";
    let ins = inputs(
        4,
        &[(
            File::Input,
            0,
            vec![
                f([1.0, 0.0, 0.0, 0.0]),
                f([-1.0, 0.0, 0.0, 0.0]),
                f([0.0, 5.0, 0.0, 0.0]),
                f([-0.5, 0.0, 0.0, 0.0]),
            ],
        )],
    );
    let o = run(&e, text, &ins).unwrap();
    assert_eq!(o.killed, Some(vec![false, true, false, true]));
    assert_eq!(out(&o, 0)[2], f([0.0, 5.0, 0.0, 0.0]));
}

#[test]
fn loops_run_and_runaway_loops_hit_the_step_limit() {
    let Some(e) = engine(1000) else { return };
    // Counts up to IN[0].x with BRK; an END inside IF ends the program early.
    let text = "VERT\nDCL IN[0]\nDCL OUT[0]\nDCL TEMP[0..1]\nIMM[0] UINT32 {0, 1, 0, 0}\n\
        MOV TEMP[0], IMM[0].xxxx\nBGNLOOP\nUADD TEMP[0].x, TEMP[0].xxxx, IMM[0].yyyy\n\
        USGE TEMP[1].x, TEMP[0].xxxx, IN[0].xxxx\nUIF TEMP[1].xxxx\nBRK\nENDIF\nENDLOOP\n\
        MOV OUT[0], TEMP[0]\nUIF IN[0].yyyy\nEND\nENDIF\nMOV OUT[0].y, IMM[0].yyyy\nEND\n";
    let ins = inputs(2, &[(File::Input, 0, vec![[5, 0, 0, 0], [3, 1, 0, 0]])]);
    let o = run(&e, text, &ins).unwrap();
    assert_eq!(out(&o, 0)[0], [5, 1, 0, 0]);
    assert_eq!(out(&o, 0)[1], [3, 0, 0, 0]);
    let forever = "VERT\nDCL OUT[0]\nBGNLOOP\nENDLOOP\nEND\n";
    match run(&e, forever, &inputs(4, &[])) {
        Err(EngineError::StepLimit { limit, invocation }) => {
            assert_eq!((limit, invocation), (1000, 0));
        }
        other => panic!("expected the step limit, got {other:?}"),
    }
}

fn reason(r: Result<Outputs, EngineError>) -> String {
    match r {
        Err(EngineError::Unsupported { reason, .. }) => reason,
        other => panic!("expected unsupported, got {other:?}"),
    }
}

#[test]
fn refusals_name_what_the_engine_cannot_run() {
    let Some(e) = engine(1_000_000) else { return };
    let none = inputs(4, &[]);
    let tex = "FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\nDCL SAMP[0]\n\
        DCL SVIEW[0], 2D, FLOAT\nTEX OUT[0], IN[0], SAMP[0], 2D\nEND\n";
    assert!(reason(run(&e, tex, &none)).contains("textures"));
    let dadd = "VERT\nDCL IN[0]\nDCL OUT[0]\nDADD OUT[0].xy, IN[0].xyxy, IN[0].zwzw\nEND\n";
    assert!(reason(run(&e, dadd, &none)).contains("64-bit"));
    let geom = "GEOM\nPROPERTY GS_INPUT_PRIMITIVE POINTS\nPROPERTY GS_OUTPUT_PRIMITIVE POINTS\n\
        PROPERTY GS_MAX_OUTPUT_VERTICES 1\nDCL OUT[0], POSITION\nEMIT IMM[0].xxxx\n\
        IMM[0] UINT32 {0, 0, 0, 0}\nEND\n";
    if let Ok(p) = tgsi::parse(geom, "geom.tgsi") {
        assert!(reason(e.execute(&p, &inputs(1, &[]))).contains("GEOM"));
    }
    let cal = "VERT\nDCL OUT[0]\nCAL :2\nEND\nBGNSUB\nRET\nENDSUB\n";
    assert!(reason(run(&e, cal, &none)).contains("subroutines"));
    let ddx =
        "FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\nDDX OUT[0], IN[0]\nEND\n";
    assert!(reason(run(&e, ddx, &none)).contains("derivatives"));
}

#[test]
fn shaders_virglrenderer_rejects_give_clean_errors_and_the_engine_goes_on() {
    let Some(e) = engine(1_000_000) else { return };
    let none = inputs(4, &[]);
    // LDEXP is valid TGSI that virglrenderer 0.10.4's TGSI parser does not know: it
    // closes the connection at CREATE_OBJECT; the engine names the reason.
    let ldexp = "VERT\nDCL IN[0..1]\nDCL OUT[0]\nLDEXP OUT[0], IN[0], IN[1]\nEND\n";
    let why = reason(run(&e, ldexp, &none));
    assert!(why.contains("CREATE_OBJECT"), "{why}");
    // FMA is parsed but not translated ("failed to convert opcode"): unsupported.
    let fma = "VERT\nDCL IN[0..2]\nDCL OUT[0]\nFMA OUT[0], IN[0], IN[1], IN[2]\nEND\n";
    let why = reason(run(&e, fma, &none));
    assert!(why.contains("cannot translate FMA"), "{why}");
    // ARL into an output register: vrend writes GLSL that does not compile.
    let arl = "VERT\nDCL IN[0]\nDCL OUT[0]\nARL OUT[0], IN[0]\nEND\n";
    match run(&e, arl, &none) {
        Err(EngineError::Compile { message, .. }) => {
            assert!(message.contains("error"), "{message}");
        }
        other => panic!("expected a compile error, got {other:?}"),
    }
    // The engine still runs programs afterwards.
    let add = "VERT\nDCL IN[0]\nDCL OUT[0]\nADD OUT[0], IN[0], IN[0]\nEND\n";
    let ins = inputs(1, &[(File::Input, 0, vec![f([1.0, 2.0, 3.0, 4.0])])]);
    assert_eq!(
        out(&run(&e, add, &ins).unwrap(), 0)[0],
        f([2.0, 4.0, 6.0, 8.0])
    );
}

#[test]
fn a_server_that_dies_is_started_again() {
    let Some(e) = engine(1_000_000) else { return };
    let add = "VERT\nDCL IN[0]\nDCL OUT[0]\nADD OUT[0], IN[0], IN[0]\nEND\n";
    let ins = inputs(1, &[(File::Input, 0, vec![f([1.0, 2.0, 3.0, 4.0])])]);
    let p = tgsi::parse(add, "add.tgsi").unwrap();
    let prepared = e.prepare(&p).unwrap();
    let first = shaderdiff_virgl::kill_server_for_test();
    assert!(first.is_some());
    // The prepared shader lived on the dead connection: it is created again.
    let o = e.run(prepared.as_ref(), &ins).unwrap();
    assert_eq!(out(&o, 0)[0], f([2.0, 4.0, 6.0, 8.0]));
    let second = shaderdiff_virgl::kill_server_for_test();
    assert!(second.is_some() && second != first, "a new server runs");
}

#[test]
fn runs_larger_than_one_launch_are_split() {
    let Some(e) = engine(1_000_000) else { return };
    // GL launches at most 65535 groups of 64 along x: 4,194,240 invocations. One more
    // group than that needs a second launch with the buffers bound further on.
    let n = 65536 * 64;
    let ids: Vec<Vec4> = (0..n as u32).map(|i| [i, 2 * i, 0, 0]).collect();
    let ins = inputs(
        n,
        &[(File::Input, 0, ids), (File::Input, 1, vec![[1, 1, 1, 1]])],
    );
    let o = run(
        &e,
        "VERT\nDCL IN[0..1]\nDCL OUT[0]\nUADD OUT[0], IN[0], IN[1]\nEND\n",
        &ins,
    )
    .unwrap();
    for i in [0, 1, 65535 * 64 - 1, 65535 * 64, n - 1] {
        let i32 = i as u32;
        assert_eq!(
            out(&o, 0)[i],
            [i32 + 1, 2 * i32 + 1, 1, 1],
            "invocation {i}"
        );
    }
}
