//! `fuzz --reduce-cpu-time` (docs/commands.md `fuzz`): the CPU-time budget of each
//! reduction, recorded with the campaign, and ending a reduction when spent, whatever the
//! wall-clock budget (`--reduce-time`) still allows.

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
