//! `diff --recorded` judging (harness/src/recorded.rs) under the nvidia class, whose
//! denormal policy is "flush or preserve" (NV_gpu_program4 issue (18)). Expected words are
//! worked from the specifications (tgsi.rst CMP, SSG, MUL, FRC; issue (18)'s same-sign
//! flush): see oracle/tests/denormal_outcomes.rs for the arithmetic.

use std::path::PathBuf;

use shaderdiff::recorded::{judge, load_recorded, recorded_files, Recorded, Verdict};
use shaderdiff::triage::{Rule, Rules};
use shaderdiff_model::{File, Program};
use shaderdiff_oracles::{Inputs, Outputs, RegKey, Vec4};

const PROGRAM: &str = "VERT\nDCL IN[0]\nDCL OUT[0]\n\
    IMM[0] UINT32 {1065353216, 1073741824, 1904214016, 0}\n\
    0: CMP OUT[0].x, IN[0].xxxx, IMM[0].xxxx, IMM[0].yyyy\n\
    1: SSG OUT[0].y, IN[0].xxxx\n\
    2: MUL OUT[0].z, IN[0].xxxx, IMM[0].zzzz\n\
    3: FRC OUT[0].w, IN[0].xxxx\n\
    4: END\n";

/// Invocation 0 reads -2^-140 (a denormal), invocation 1 reads -1.0.
fn inputs() -> Inputs {
    let mut i = Inputs {
        invocations: 2,
        ..Inputs::default()
    };
    i.registers.insert(
        RegKey::new(File::Input, 0),
        vec![[0x8000_0200; 4], [0xbf80_0000; 4]],
    );
    i
}

const IEEE: Vec4 = [0x3f80_0000, 0xbf80_0000, 0xab80_0000, 0x3f80_0000];
const FLUSHED: Vec4 = [0x4000_0000, 0x0000_0000, 0x8000_0000, 0x0000_0000];
/// -1.0: CMP 1.0, SSG -1.0, MUL -2^100, FRC 0.0 (either evaluation).
const MINUS_ONE: Vec4 = [0x3f80_0000, 0xbf80_0000, 0xf180_0000, 0x0000_0000];

fn recorded(first: Vec4) -> Recorded {
    let mut o = Outputs {
        invocations: 2,
        ..Outputs::default()
    };
    o.registers
        .insert(RegKey::new(File::Output, 0), vec![first, MINUS_ONE]);
    Recorded {
        engine: "nvidia".into(),
        outputs: o,
        skip: Vec::new(),
    }
}

fn program() -> Program {
    shaderdiff_tgsi::parse(PROGRAM, "t.tgsi").expect("parses")
}

fn verdict(first: Vec4, rules: &Rules) -> Verdict {
    judge(
        &program(),
        PROGRAM,
        &inputs(),
        &recorded(first),
        None,
        rules,
    )
}

#[test]
fn ieee_and_flushed_results_agree_and_a_third_value_does_not() {
    let none = Rules::default();
    assert_eq!(verdict(IEEE, &none), Verdict::Agree);
    assert_eq!(verdict(FLUSHED, &none), Verdict::Agree);
    let third = [0x4040_0000, IEEE[1], IEEE[2], IEEE[3]];
    match verdict(third, &none) {
        Verdict::Mismatch(ms) => {
            assert_eq!(ms.len(), 1);
            assert_eq!((ms[0].invocation, ms[0].channel.as_str()), (0, "x"));
        }
        v => panic!("{v:?}"),
    }
}

#[test]
fn forcing_ieee_rejects_the_flushed_result() {
    let none = Rules::default();
    let mode = Some(shaderdiff_oracles::interp::denormal::DenormalMode::Ieee);
    let v = judge(
        &program(),
        PROGRAM,
        &inputs(),
        &recorded(FLUSHED),
        mode,
        &none,
    );
    assert!(
        matches!(v, Verdict::Mismatch(ref m) if m.len() == 4),
        "{v:?}"
    );
}

#[test]
fn a_matching_rule_makes_a_mismatch_known_and_skipped_invocations_are_not_compared() {
    let rule = Rule {
        id: "cmp-test".into(),
        engine: "nvidia".into(),
        opcode: "CMP".into(),
        modifiers: Vec::new(),
        without_modifiers: Vec::new(),
        any_modifiers: Vec::new(),
        operands: None,
        driver: String::new(),
        spec: String::new(),
        reproducer: String::new(),
        file: PathBuf::new(),
    };
    let rules = Rules { rules: vec![rule] };
    let third = [0x4040_0000, IEEE[1], IEEE[2], IEEE[3]];
    assert_eq!(
        verdict(third, &rules),
        Verdict::Known(vec!["cmp-test".into()])
    );
    let mut r = recorded(third);
    r.skip = vec![0];
    let v = judge(&program(), PROGRAM, &inputs(), &r, None, &Rules::default());
    assert_eq!(v, Verdict::Agree);
}

#[test]
fn recorded_files_are_found_beside_the_program() {
    let dir = std::env::temp_dir().join(format!("sd-recorded-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join("t.tgsi");
    std::fs::write(&p, PROGRAM).unwrap();
    std::fs::write(dir.join("t.inputs.json"), "{}").unwrap();
    let json = r#"{"engine":"nvidia","registers":{"OUT[0]":[["0x3f800000","0xbf800000","0xab800000","0x3f800000"],["0x3f800000","0xbf800000","0xf1800000","0x00000000"]]},"inputs_not_carried":[1]}"#;
    std::fs::write(dir.join("t.nvidia.json"), json).unwrap();
    let found = recorded_files(&p);
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].0, "nvidia");
    let r = load_recorded(&found[0].1, "nvidia", &program(), None, 2).expect("loads");
    assert_eq!(r.skip, [1]);
    assert_eq!(r.outputs.registers[&RegKey::new(File::Output, 0)][0], IEEE);
    assert!(load_recorded(&found[0].1, "nvidia", &program(), None, 3).is_err());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_nvidia_rules_load_and_each_matches_its_reproducer() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../results/triage/nvidia");
    let rules = Rules::load(&dir).expect("loads");
    assert!(rules.rules.len() >= 10);
    for r in &rules.rules {
        assert_eq!(r.engine, "nvidia", "{}", r.file.display());
        let ids: Vec<&str> = rules
            .matching(&r.reproducer)
            .iter()
            .map(|m| m.id.as_str())
            .collect();
        assert!(ids.contains(&r.id.as_str()), "{}", r.id);
        assert!(
            r.spec.contains('§') || r.spec.contains("issue"),
            "{}: cite the spec",
            r.id
        );
    }
}

/// NV_gpu_program4 §2.X.3.5 "Program Results": result variables "are undefined at the
/// beginning of each program invocation" and unwritten ones stay undefined: the oracle
/// flags the channels a program does not write (it still computes the zero start).
#[test]
fn an_unwritten_nv_result_channel_is_undefined() {
    let text = "!!NVvp4.0\nMOV result.attrib[0].x, vertex.attrib[1].x;\nEND\n";
    let p = shaderdiff_nv::parse(text, "t.nvvp").expect("parses");
    let l = shaderdiff_nv::lower(&p).expect("lowers");
    let key = l
        .names
        .lookup_key(l.stage, "result.attrib[0]")
        .map(|(file, dimension, index)| RegKey {
            file,
            dimension,
            index,
        })
        .expect("bound");
    let inputs = Inputs {
        invocations: 1,
        ..Inputs::default()
    };
    let o =
        shaderdiff_oracles::interp::run(&l.program, &inputs, &Default::default()).expect("runs");
    assert_eq!(o.undefined.get(&key).map(|u| u[0]), Some(0b1110));
}

/// A capture's suite text that fails to load (`result.color[1]` without `OPTION
/// ARB_draw_buffers`: NV_fragment_program4 §2.X.3.5) is judged as the text the driver ran,
/// `NAME.gl.fp` beside it (../shared/captures/nvidia-h200/README.md: a transport rewrite that
/// changes no computation). ABS of -2.0 is 2.0 (NV_gpu_program4 ABS); MOV copies 1.5.
#[test]
fn a_suite_text_that_fails_to_load_is_judged_as_the_driver_text() {
    let dir = std::env::temp_dir().join(format!("shaderdiff-recorded-gl-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let body = "ABS result.color, fragment.texcoord[0];\n\
                MOV result.color[1], fragment.texcoord[0].w;\nEND\n";
    std::fs::write(dir.join("t.nvfp"), format!("!!NVfp4.0\n{body}")).unwrap();
    std::fs::write(
        dir.join("t.gl.fp"),
        format!("!!NVfp4.0\nOPTION ARB_draw_buffers;\n{body}"),
    )
    .unwrap();
    let word = "[\"0xc0000000\", \"0xc0000000\", \"0xc0000000\", \"0x3fc00000\"]";
    let inputs = format!(
        "{{\"invocations\": 4, \"registers\": {{\"fragment.texcoord[0]\": [{word}, {word}, {word}, {word}]}}}}"
    );
    std::fs::write(dir.join("t.inputs.json"), inputs).unwrap();
    let c0 = "[\"0x40000000\", \"0x40000000\", \"0x40000000\", \"0x3fc00000\"]";
    let c1 = "[\"0x3fc00000\", \"0x3fc00000\", \"0x3fc00000\", \"0x3fc00000\"]";
    let rec = format!(
        "{{\"engine\": \"nvidia\", \"invocations\": 4, \"registers\": {{\"result.color\": [{c0}, {c0}, {c0}, {c0}], \"result.color[1]\": [{c1}, {c1}, {c1}, {c1}]}}, \"killed\": [false, false, false, false]}}"
    );
    std::fs::write(dir.join("t.nvidia.json"), rec).unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_shaderdiff"))
        .args(["diff", "--recorded"])
        .arg(dir.join("t.nvfp"))
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stdout}{stderr}");
    assert!(
        stdout.contains("t.nvfp: agree (interp vs nvidia, recorded)"),
        "{stdout}{stderr}"
    );
    // Without the driver's text the suite's program is bad input.
    std::fs::remove_file(dir.join("t.gl.fp")).unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_shaderdiff"))
        .args(["diff", "--recorded"])
        .arg(dir.join("t.nvfp"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("ARB_draw_buffers"));
    let _ = std::fs::remove_dir_all(&dir);
}
