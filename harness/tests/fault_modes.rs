//! `fuzz --inject-fault NAME` switches on the generator mode the fault's catalogue entry
//! names (INTERFACE.md `--inject-fault`; docs/faults.md "Modes"), saying so on stderr,
//! unless the command line chose a mode itself.

use std::path::Path;

use serde_json::Value;

mod common;

use common::{code, run, stderr as err, Scratch};

fn campaign(out: &str, extra: &[&str]) -> (std::process::Output, Value, Value) {
    let mut args = vec!["fuzz", "--seed", "3", "--programs", "8", "--jobs", "1"];
    args.extend([
        "--no-reduce",
        "--backends",
        "interp,jit,valhall",
        "--out",
        out,
    ]);
    args.extend(extra);
    let o = run(&args);
    let summary = common::json(&Path::new(out).join("summary.json"));
    let progress = common::json(&Path::new(out).join("progress.json"));
    (o, summary, progress)
}

fn recorded(progress: &Value) -> Vec<String> {
    progress["argv"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a.as_str().unwrap().to_string())
        .collect()
}

/// An NV front-end fault generates NV ALU programs (the mode in its catalogue entry).
#[test]
fn an_nv_fault_switches_to_nv_alu_programs() {
    let s = Scratch::new("mode-nv");
    let out = s.path("out");
    let (o, summary, _) = campaign(&out, &["--inject-fault", "nv-condmask-swap-xy"]);
    assert!(code(&o) <= 1, "{}", err(&o));
    assert!(
        err(&o).contains("generating with --lang nv --nv-alu-only"),
        "{}",
        err(&o)
    );
    assert_eq!(summary["lang"], "nv-alu");
}

/// A 64-bit fault adds `--64bit`, a memory fault `--memory`; both are recorded with the
/// campaign (so workers and `--resume` generate the same programs).
#[test]
fn wide_and_memory_faults_record_their_flags() {
    let s = Scratch::new("mode-wide");
    for (fault, flag) in [
        ("u64add-no-carry", "--64bit"),
        ("atomic-lost-update", "--memory"),
    ] {
        let out = s.path(fault);
        let (o, summary, progress) = campaign(&out, &["--inject-fault", fault]);
        assert!(code(&o) <= 1, "{}", err(&o));
        assert!(
            err(&o).contains(&format!("generating with {flag}")),
            "{}",
            err(&o)
        );
        assert_eq!(summary["lang"], "tgsi");
        assert!(recorded(&progress).iter().any(|a| a == flag), "{progress}");
    }
}

/// A mode on the command line wins: no switch, no message.
#[test]
fn a_chosen_mode_is_kept() {
    let s = Scratch::new("mode-kept");
    let out = s.path("out");
    let (o, summary, progress) = campaign(
        &out,
        &["--lang", "tgsi", "--inject-fault", "nv-condmask-swap-xy"],
    );
    assert_eq!(code(&o), 0, "{}", err(&o));
    assert!(!err(&o).contains("generating with"), "{}", err(&o));
    assert_eq!(summary["lang"], "tgsi");
    assert!(!recorded(&progress).iter().any(|a| a == "--nv-alu-only"));
}

/// A fault of the default campaign changes nothing.
#[test]
fn a_tgsi_fault_keeps_the_default_mode() {
    let s = Scratch::new("mode-tgsi");
    let out = s.path("out");
    let (o, summary, progress) = campaign(&out, &["--inject-fault", "dp3-reads-w"]);
    assert!(code(&o) <= 1, "{}", err(&o));
    assert!(!err(&o).contains("generating with"), "{}", err(&o));
    assert_eq!(summary["lang"], "tgsi");
    let argv = recorded(&progress);
    assert!(!argv.iter().any(|a| a == "--64bit" || a == "--memory"));
}

/// `--stop-after-findings N` ends the campaign at the chunk (64 programs) in which the Nth
/// unique finding was committed: fewer programs than `--programs`, a whole number of
/// chunks, the finding's `first_index` inside them, and still exit 1 (a finding).
#[test]
fn stop_after_findings_ends_at_the_chunk_of_the_first_finding() {
    let s = Scratch::new("stop-after");
    let out = s.path("out");
    let o = run(&[
        "fuzz",
        "--seed",
        "3",
        "--programs",
        "2000",
        "--jobs",
        "1",
        "--no-reduce",
        "--backends",
        "interp,jit",
        "--inject-fault",
        "writemask-ignored-w",
        "--stop-after-findings",
        "1",
        "--out",
        &out,
    ]);
    assert_eq!(code(&o), 1, "{}", err(&o));
    let summary = common::json(&Path::new(&out).join("summary.json"));
    let programs = summary["programs"].as_u64().unwrap();
    assert!(programs < 2000 && programs.is_multiple_of(64), "{programs}");
    let first = summary["findings"][0]["first_index"].as_u64().unwrap();
    assert!(
        first < programs && first >= programs - 64,
        "{first} of {programs}"
    );
}
