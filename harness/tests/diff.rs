//! `shaderdiff diff` and `shaderdiff faults` end to end: INTERFACE.md's report shape, exit
//! statuses, unsupported and unavailable engines, directories, generated input sets.
//!
//! Mismatches come from the jit's catalogued fault `dp3-reads-w` (DP3 lowered as DP4, so it
//! also adds the .w products). Expected values are tgsi.rst's formulas: "DP3 — 3-component
//! Dot Product: dst = src0.x*src1.x + src0.y*src1.y + src0.z*src1.z" and "DP4: ... +
//! src0.w*src1.w", on inputs whose products are exact in binary32.

mod common;
use common::Scratch;

use std::process::{Command, Output};

use serde_json::{json, Value};

const BIN: &str = env!("CARGO_BIN_EXE_shaderdiff");

fn run(args: &[&str]) -> Output {
    Command::new(BIN)
        .args(args)
        .output()
        .expect("the shaderdiff binary starts")
}

fn code(o: &Output) -> i32 {
    o.status.code().expect("exited normally")
}

fn out(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn err(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

const DP3: &str = "VERT\nDCL IN[0]\nDCL IN[1]\nDCL OUT[0], GENERIC[0]\n  0: DP3 OUT[0].x, IN[0], IN[1]\n  1: END\n";
/// IN[0] = (1, 2, 3, 4), IN[1] = (1, 1, 1, 1): DP3 = 6.0 (0x40c00000), DP4 = 10.0 (0x41200000).
const DP3_INPUTS: &str =
    r#"{"invocations": 1, "registers": {"IN[0]": [1.0, 2.0, 3.0, 4.0], "IN[1]": [1, 1, 1, 1]}}"#;

#[test]
fn agreeing_engines_give_the_interface_report() {
    let s = Scratch::new("agree");
    let p = s.file("dp3.tgsi", DP3);
    let i = s.file("in.json", DP3_INPUTS);
    let o = run(&[
        "diff",
        &p,
        "--inputs",
        &i,
        "--backends",
        "interp,jit",
        "--format",
        "json",
    ]);
    assert_eq!(code(&o), 0, "{}", err(&o));
    let text = out(&o);
    assert_eq!(
        text.lines().count(),
        1,
        "one object per program, one per line"
    );
    let v: Value = serde_json::from_str(&text).unwrap();
    // INTERFACE.md keys first, in its order.
    let pos: Vec<usize> = ["program", "oracle", "engines", "verdict", "mismatches"]
        .iter()
        .map(|k| text.find(&format!("\"{k}\":")).unwrap())
        .collect();
    assert!(pos.windows(2).all(|w| w[0] < w[1]), "{text}");
    assert_eq!(v["program"], json!(p));
    assert_eq!(v["oracle"], "interp");
    assert_eq!(v["engines"], json!(["jit"]));
    assert_eq!(v["verdict"], "agree");
    assert_eq!(v["mismatches"], json!([]));
    assert_eq!(v["oracle_suspect"], false);
    let t = run(&["diff", &p, "--inputs", &i, "--backends", "interp,jit"]);
    assert_eq!(code(&t), 0);
    assert_eq!(
        out(&t),
        format!("{p}: agree (interp vs jit; 1 input set)\n")
    );
}

#[test]
fn an_injected_fault_is_a_located_mismatch() {
    let s = Scratch::new("mismatch");
    let p = s.file("dp3.tgsi", DP3);
    let i = s.file("in.json", DP3_INPUTS);
    let o = run(&[
        "diff",
        &p,
        "--inputs",
        &i,
        "--backends",
        "interp,jit",
        "--format",
        "json",
        "--inject-fault",
        "dp3-reads-w",
    ]);
    assert_eq!(code(&o), 1, "{}", err(&o));
    let v: Value = serde_json::from_str(&out(&o)).unwrap();
    assert_eq!(v["verdict"], "mismatch");
    assert_eq!(
        v["mismatches"],
        json!([{ "engine": "jit", "register": "OUT[0]", "invocation": 0, "channel": "x",
                 "type": "f32", "expected": "0x40c00000", "actual": "0x41200000",
                 "tolerance": "exact", "ulp_distance": 0x41200000u32 - 0x40c00000 }])
    );
    assert_eq!(v["diverged"], json!(["jit"]));
    assert_eq!(v["signatures"][0]["signature"], "jit-float_arith-f32");
    assert_eq!(v["signatures"][0]["instruction"], 0);
    assert_eq!(v["signatures"][0]["opcode"], "DP3");
    assert_eq!(v["signatures"][0]["position"], "5:6");
    let t = run(&[
        "diff",
        &p,
        "--inputs",
        &i,
        "--backends",
        "interp,jit",
        "--inject-fault",
        "dp3-reads-w",
    ]);
    assert_eq!(code(&t), 1);
    let text = out(&t);
    assert!(
        text.starts_with(&format!(
            "{p}: MISMATCH: jit diverged from interp (1 differing channel)\n"
        )),
        "{text}"
    );
    assert!(
        text.contains("signature jit-float_arith-f32: first diverging instruction 0 (DP3 at 5:6)"),
        "{text}"
    );
    assert!(
        text.contains("expected 0x40c00000 6, got 0x41200000 10"),
        "{text}"
    );
}

#[test]
fn faults_are_listed_and_checked() {
    let o = run(&["faults"]);
    assert_eq!(code(&o), 0);
    assert!(
        out(&o).lines().any(|l| l.starts_with("dp3-reads-w jit ")),
        "{}",
        out(&o)
    );
    let s = Scratch::new("faults");
    let p = s.file("dp3.tgsi", DP3);
    for cmd in ["diff", "run"] {
        let o = run(&[cmd, &p, "--inject-fault", "no-such-fault"]);
        assert_eq!(code(&o), 2, "{cmd}");
        assert!(
            err(&o).contains("--inject-fault no-such-fault: no such fault"),
            "{}",
            err(&o)
        );
        assert_eq!(err(&o).lines().count(), 1);
    }
}

#[test]
fn every_engine_is_compared_and_unknown_engines_are_usage_errors() {
    let s = Scratch::new("engines");
    let a = s.file("a.tgsi", DP3);
    let b = s.file("b.tgsi", DP3);
    let o = run(&["diff", &a, &b, "--backends", "interp,jit,valhall"]);
    assert_eq!(code(&o), 0, "{}", err(&o));
    assert_eq!(out(&o).lines().count(), 2);
    assert!(out(&o).contains("interp vs jit, valhall"), "{}", out(&o));
    // Nothing but the oracle: nothing to compare.
    let o = run(&["diff", &a, "--backends", "interp"]);
    assert_eq!(code(&o), 3);
    assert!(
        err(&o).contains("no engine to compare against the oracle"),
        "{}",
        err(&o)
    );
    let o = run(&["diff", &a, "--backends", "interp,gpu9000"]);
    assert_eq!(code(&o), 2);
    assert!(err(&o).contains("unknown engine `gpu9000`"), "{}", err(&o));
}

#[test]
fn unsupported_programs_are_reported_not_mismatched() {
    let s = Scratch::new("unsupported");
    // TXP on a CUBEARRAY target (w both the divisor and the layer): outside the texture
    // model of every engine.
    let tex = s.file(
        "tex.tgsi",
        "FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\nDCL SAMP[0]\nDCL SVIEW[0], CUBEARRAY, FLOAT\n  0: TXP OUT[0], IN[0], SAMP[0], CUBEARRAY\n  1: END\n",
    );
    let o = run(&["diff", &tex, "--backends", "interp,jit", "--format", "json"]);
    assert_eq!(code(&o), 3, "{}", err(&o));
    let v: Value = serde_json::from_str(&out(&o)).unwrap();
    assert_eq!(v["verdict"], "unsupported");
    assert_eq!(v["mismatches"], json!([]));
    assert!(
        v["unsupported"][0]["reason"]
            .as_str()
            .unwrap()
            .contains("TXP"),
        "{v}"
    );
    // With a comparable program beside it, the run succeeds.
    let ok = s.file("ok.tgsi", DP3);
    let o = run(&["diff", &tex, &ok, "--backends", "interp,jit"]);
    assert_eq!(code(&o), 0, "{}", err(&o));
}

#[test]
fn bad_programs_and_inputs_exit_2_with_a_located_message() {
    let s = Scratch::new("bad");
    let bad = s.file("bad.tgsi", "VERT\nDCL OUT[0]\n  0: FROB OUT[0], OUT[0]\n");
    let o = run(&["diff", &bad, "--backends", "interp,jit"]);
    assert_eq!(code(&o), 2);
    assert!(err(&o).starts_with(&format!("{bad}:3:")), "{}", err(&o));
    let p = s.file("dp3.tgsi", DP3);
    // INTERFACE.md "The inputs file": a name that is no input binding of the stage is bad
    // input; a valid binding the program does not read (IN[7] here) is accepted with a note.
    let i = s.file(
        "in.json",
        "{\"invocations\": 1, \"registers\": {\"SAMP[0]\": [0,0,0,0]}}",
    );
    let o = run(&["diff", &p, "--inputs", &i, "--backends", "interp,jit"]);
    assert_eq!(code(&o), 2);
    assert!(err(&o).contains("in.json:1:"), "{}", err(&o));
    let unread = s.file(
        "unread.json",
        "{\"invocations\": 1, \"registers\": {\"IN[7]\": [0,0,0,0]}}",
    );
    let o = run(&["diff", &p, "--inputs", &unread, "--backends", "interp,jit"]);
    assert_eq!(code(&o), 0, "{}", err(&o));
    assert_eq!(
        err(&o).matches("does not read IN[7]").count(),
        1,
        "{}",
        err(&o)
    );
}

#[test]
fn directories_use_each_programs_own_inputs() {
    let s = Scratch::new("dir");
    s.file("a.tgsi", DP3);
    s.file("a.inputs.json", DP3_INPUTS);
    s.file("b.tgsi", DP3);
    s.file("notes.txt", "not a program");
    let dir = s.0.display().to_string();
    let o = run(&[
        "diff",
        &dir,
        "--backends",
        "interp,jit",
        "--format",
        "json",
        "--inject-fault",
        "dp3-reads-w",
    ]);
    let lines: Vec<Value> = out(&o)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 2, "{}", out(&o));
    assert!(lines[0]["program"].as_str().unwrap().ends_with("a.tgsi"));
    // a.tgsi ran on a.inputs.json: the fault shows (6 vs 10).
    assert_eq!(lines[0]["verdict"], "mismatch");
    // b.tgsi ran on all-zero inputs: DP3 and DP4 of zeros agree.
    assert_eq!(lines[1]["verdict"], "agree");
    assert_eq!(code(&o), 1);
    let empty = Scratch::new("empty");
    let o = run(&[
        "diff",
        &empty.0.display().to_string(),
        "--backends",
        "interp,jit",
    ]);
    assert_eq!(code(&o), 2);
    assert!(err(&o).contains("no program files"), "{}", err(&o));
}

#[test]
fn generated_input_sets_are_reproducible() {
    let s = Scratch::new("random");
    let p = s.file("dp3.tgsi", DP3);
    let args = [
        "diff",
        &p,
        "--random-inputs",
        "5",
        "--seed",
        "9",
        "--backends",
        "interp,jit",
        "--format",
        "json",
        "--inject-fault",
        "dp3-reads-w",
    ];
    let a = run(&args);
    let b = run(&args);
    assert_eq!(out(&a), out(&b));
    let v: Value = serde_json::from_str(&out(&a)).unwrap();
    assert_eq!(v["input_sets"], 5);
    // Random .w values make DP3 and DP4 differ; every record names its input set.
    assert_eq!(v["verdict"], "mismatch");
    assert!(v["mismatches"]
        .as_array()
        .unwrap()
        .iter()
        .all(|m| m["input_set"].is_u64()));
    let c = run(&[
        "diff",
        &p,
        "--random-inputs",
        "5",
        "--seed",
        "10",
        "--backends",
        "interp,jit",
        "--format",
        "json",
        "--inject-fault",
        "dp3-reads-w",
    ]);
    assert_ne!(out(&a), out(&c));
}
