//! `fuzz --reduce-cpu-time` (docs/commands.md `fuzz`): the CPU-time budget of each
//! reduction, recorded with the campaign, and ending a reduction when spent, whatever the
//! wall-clock budget (`--reduce-time`) still allows; `reduce --reduce-cpu-time`, the same
//! budget for the `reduce` command (docs/commands.md `reduce`).

use std::path::Path;

mod common;

use common::{code, run, stderr as err, Scratch};

/// The `nv-condmask-swap-xy` campaign of seed 3 finds program 29 (some 60 NV instructions,
/// docs/faults.md; the exact count follows the NV generator's version). With no CPU time to
/// spend, its reduction stops before its first candidate: the reduced program is the
/// original (`reduced_instructions` equals `original_instructions`, far above the 2 to 3
/// instructions a reduction reaches), though the wall-clock budget is 5 minutes. The budget is
/// recorded in `progress.json`, so workers and `--resume` use it.
#[test]
fn a_spent_cpu_budget_ends_the_reduction() {
    let s = Scratch::new("reduce-cpu-zero");
    let out = s.path("out");
    let o = run(&[
        "fuzz",
        "--inject-fault",
        "nv-condmask-swap-xy",
        "--seed",
        "3",
        "--programs",
        "64",
        "--stop-after-findings",
        "1",
        "--jobs",
        "1",
        "--backends",
        "interp,jit",
        "--reduce-time",
        "5m",
        "--reduce-cpu-time",
        "0s",
        "--out",
        &out,
    ]);
    assert_eq!(code(&o), 1, "{}", err(&o));
    let f = Path::new(&out).join("findings/jit-branch-none");
    let meta = common::json(&f.join("finding.json"));
    let original = meta["original_instructions"]
        .as_u64()
        .expect("original size");
    assert!(original > 40, "{meta}");
    assert_eq!(
        meta["reduced_instructions"].as_u64(),
        Some(original),
        "{meta}"
    );
    let progress = common::json(&Path::new(&out).join("progress.json"));
    let argv: Vec<&str> = progress["argv"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|a| a.as_str())
        .collect();
    let at = argv.iter().position(|a| *a == "--reduce-cpu-time");
    assert_eq!(at.map(|i| argv[i + 1]), Some("0s"), "{argv:?}");
}

/// A TGSI program of 4 instructions whose DP3 result reaches an output: under
/// `dp3-reads-w` ("DP3 also adds the .w products") the jit diverges with IN[0].w = 1.
const DP3_PROGRAM: &str = "VERT\nDCL IN[0]\nDCL OUT[0], GENERIC[0]\nDCL TEMP[0..1]\n\
    IMM[0] FLT32 {1.0, 2.0, 3.0, 4.0}\n  0: MUL TEMP[0], IN[0], IMM[0]\n\
      1: DP3 TEMP[1].x, TEMP[0], IN[0]\n  2: ADD TEMP[1].y, TEMP[1].xxxx, IMM[0].yyyy\n\
      3: MOV OUT[0], TEMP[1]\n  4: END\n";

const DP3_INPUTS: &str = r#"{"invocations": 1, "registers": {"IN[0]": [1, 1, 1, 1]}}"#;

/// `reduce --reduce-cpu-time 0s`: the budget is spent before the first candidate, so the
/// reproducer written is the original program (its 4 instructions, stamped), with inputs
/// that replay the finding; the command still succeeds (exit 0, docs/commands.md "Exit
/// status": `reduce` reduced) and says it stopped early. With the default budget the
/// same program reduces below 4.
#[test]
fn a_spent_cpu_budget_ends_the_reduce_command() {
    let s = Scratch::new("reduce-cmd-cpu-zero");
    let prog = s.file("p.tgsi", DP3_PROGRAM);
    let inputs = s.file("p.inputs.json", DP3_INPUTS);
    let fault = ["--backends", "interp,jit", "--inject-fault", "dp3-reads-w"];
    let reduce = |out: &str, budget: Option<&str>| {
        let mut args = vec!["reduce", &prog, "--inputs", &inputs, "--out", out];
        args.extend(fault);
        if let Some(b) = budget {
            args.extend(["--reduce-cpu-time", b]);
        }
        run(&args)
    };
    let spent = s.path("spent.tgsi");
    let o = reduce(&spent, Some("0s"));
    assert_eq!(code(&o), 0, "{}", err(&o));
    assert!(err(&o).contains("(stopped early)"), "{}", err(&o));
    let text = std::fs::read_to_string(&spent).unwrap();
    assert!(text.contains(" instructions=4 "), "{text}");
    let replay_inputs = s.path("spent.inputs.json");
    let mut replay = vec!["diff", &spent, "--inputs", &replay_inputs];
    replay.extend(fault);
    assert_eq!(code(&run(&replay)), 1, "the reproducer replays:\n{text}");
    // A budget the reduction does not use up (the default, 30 s) reduces it.
    let full = s.path("full.tgsi");
    let o = reduce(&full, None);
    assert_eq!(code(&o), 0, "{}", err(&o));
    assert!(!err(&o).contains("(stopped early)"), "{}", err(&o));
    let text = std::fs::read_to_string(&full).unwrap();
    assert!(!text.contains(" instructions=4 "), "{text}");
    // A malformed budget is bad usage.
    let o = reduce(&s.path("bad.tgsi"), Some("soon"));
    assert_eq!(code(&o), 2, "{}", err(&o));
}
