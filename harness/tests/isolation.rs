//! Worker-process isolation: test-only faults kill
//! the jit's worker on the programs that use one trigger opcode (test-segfault: BREV,
//! test-abort: POPC, test-hang: UBFE, test-oom: LSB; engines/src/test_faults.rs). The
//! campaign and the conform run complete, record the crash or hang as a finding or status,
//! count resource exhaustion as poisoned, and still compare every other program.
//!
//! The expected counts come from the fault's definition: the programs of the campaign's
//! stream that use the trigger opcode, generated here with the campaign's own generator
//! settings.

mod common;

use std::path::Path;

use clap::Parser;
use common::{code, json, run, scratch, text};
use shaderdiff::cli::{Cli, Command};
use shaderdiff_model::Opcode;

const SUITE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../conformance");

/// Stream positions `0..n` of `fuzz --seed 1` that use `op`.
fn programs_using(op: Opcode, n: u64) -> Vec<u64> {
    let Command::Fuzz(args) = Cli::parse_from(["shaderdiff", "fuzz", "--seed", "1"]).command else {
        unreachable!("parsed as fuzz")
    };
    let c = shaderdiff::cmd::fuzz::campaign(&args, 1);
    (0..n)
        .filter(|&k| {
            let g = shaderdiff_generators::random::generate(1, k, &c.config);
            g.program.instructions.iter().any(|i| i.opcode == op)
        })
        .collect()
}

/// `fuzz --seed 1 --programs 64 --jobs 2 --inject-fault FAULT EXTRA...` into `dir`.
fn campaign(dir: &Path, fault: &str, extra: &[&str]) -> std::process::Output {
    let out = dir.display().to_string();
    let mut args = vec![
        "fuzz",
        "--seed",
        "1",
        "--programs",
        "64",
        "--jobs",
        "2",
        "--inject-fault",
        fault,
        "--out",
        &out,
    ];
    args.extend_from_slice(extra);
    run(&args)
}

/// Checks a campaign whose `signature` finding must hold exactly the programs using `op`.
fn check_finding(dir: &Path, o: &std::process::Output, op: Opcode, signature: &str) {
    let hit = programs_using(op, 64);
    assert!(
        !hit.is_empty() && hit.len() < 64,
        "the trigger must split the stream"
    );
    assert_eq!(code(o), 1, "{}", text(o));
    let s = json(&dir.join("summary.json"));
    assert_eq!(s["status"], "complete", "{s}");
    assert_eq!(s["programs"], 64, "every program has a result: {s}");
    assert_eq!(s["mismatches"], hit.len() as u64, "{s}");
    let findings = s["findings"].as_array().unwrap();
    assert_eq!(findings.len(), 1, "{s}");
    assert_eq!(findings[0]["signature"], signature);
    assert_eq!(findings[0]["count"], hit.len() as u64);
    let first = findings[0]["first_index"].as_u64().unwrap();
    assert!(hit.contains(&first), "{first} not in {hit:?}");
    let f = dir.join("findings").join(signature);
    let program = std::fs::read_to_string(f.join("program.tgsi")).unwrap();
    assert!(program.contains(op.name()), "{program}");
    for file in [
        "reduced.tgsi",
        "inputs.json",
        "program.inputs.json",
        "finding.json",
    ] {
        assert!(f.join(file).is_file(), "{file}");
    }
    let report = json(&f.join("report.json"));
    assert_eq!(report["engine"], "jit");
    assert!(
        report["replay"].as_str().unwrap().contains("--backend jit"),
        "{report}"
    );
}

#[test]
fn a_segfaulting_engine_is_a_crash_finding_and_the_campaign_completes() {
    let dir = scratch("iso-segv");
    let o = campaign(&dir, "test-segfault", &[]);
    check_finding(&dir, &o, Opcode::BREV, "jit-crash-sigsegv");
    let f = dir.join("findings/jit-crash-sigsegv");
    let report = json(&f.join("report.json"));
    assert_eq!(report["verdict"], "crash (sigsegv)");
    // Reduced while it still segfaults: the trigger instruction is what is left.
    let meta = json(&f.join("finding.json"));
    let n = meta["reduced_instructions"].as_u64().expect("reduced");
    assert!(n <= 4, "{meta}");
    let reduced = std::fs::read_to_string(f.join("reduced.tgsi")).unwrap();
    assert!(reduced.contains("BREV"), "{reduced}");
    // The replay command, run in the finding's directory, dies of SIGSEGV again.
    let replay = report["replay"].as_str().unwrap();
    let words: Vec<&str> = replay.split_whitespace().collect();
    assert_eq!(words[0], "shaderdiff");
    let status = std::process::Command::new(common::BIN)
        .args(&words[1..])
        .current_dir(&f)
        .output()
        .unwrap()
        .status;
    use std::os::unix::process::ExitStatusExt;
    assert_eq!(status.signal(), Some(libc::SIGSEGV), "{replay}: {status:?}");
}

#[test]
fn an_aborting_engine_is_a_crash_finding() {
    let dir = scratch("iso-abort");
    let o = campaign(&dir, "test-abort", &[]);
    check_finding(&dir, &o, Opcode::POPC, "jit-crash-sigabrt");
}

#[test]
fn a_hanging_engine_is_a_timeout_finding() {
    let dir = scratch("iso-hang");
    let o = campaign(
        &dir,
        "test-hang",
        &["--timeout", "1s", "--reduce-time", "3s"],
    );
    check_finding(&dir, &o, Opcode::UBFE, "jit-timeout-none");
    let report = json(&dir.join("findings/jit-timeout-none/report.json"));
    assert_eq!(report["verdict"], "timeout");
}

/// A worker silent for longer than `--timeout` while it uses no CPU time is not hanging
/// (harness/src/isolate.rs `hangs`): `test-stall` sleeps 3 s on programs with UBFE, as a
/// worker waiting for a core on a loaded machine would, and then gives correct results.
/// The campaign records no finding and compares every program.
#[test]
fn a_silent_worker_that_uses_no_cpu_time_is_not_a_timeout() {
    let dir = scratch("iso-stall");
    let hit = programs_using(Opcode::UBFE, 24);
    assert!(!hit.is_empty(), "the trigger must occur in the stream");
    let out = dir.display().to_string();
    let o = run(&[
        "fuzz",
        "--seed",
        "1",
        "--programs",
        "24",
        "--jobs",
        "2",
        "--inject-fault",
        "test-stall",
        "--timeout",
        "1s",
        "--out",
        &out,
    ]);
    assert_eq!(code(&o), 0, "{}", text(&o));
    let s = json(&dir.join("summary.json"));
    assert_eq!(s["status"], "complete", "{s}");
    assert_eq!(s["programs"], 24, "{s}");
    assert_eq!(s["mismatches"], 0, "{s}");
    assert!(s["findings"].as_array().unwrap().is_empty(), "{s}");
}

#[test]
fn running_out_of_memory_is_poisoned_not_a_mismatch() {
    let dir = scratch("iso-oom");
    let o = campaign(&dir, "test-oom", &["--worker-memory", "2GiB"]);
    let hit = programs_using(Opcode::LSB, 64);
    assert!(!hit.is_empty());
    // Nothing found, but programs went uncompared for want of memory: the run was not
    // carried out in full (INTERFACE.md exit 4; docs/campaigns.md "Exit statuses").
    assert_eq!(code(&o), 4, "{}", text(&o));
    let s = json(&dir.join("summary.json"));
    assert_eq!(s["poisoned"], hit.len() as u64, "{s}");
    assert_eq!(s["programs"], 64 - hit.len() as u64, "{s}");
    assert_eq!(s["mismatches"], 0, "{s}");
    assert!(s["findings"].as_array().unwrap().is_empty(), "{s}");
}

#[test]
fn conform_records_crashes_and_hangs_and_judges_the_rest() {
    let dir = scratch("iso-conform");
    let suite = dir.join("suite");
    std::fs::create_dir_all(&suite).unwrap();
    let names = ["spec-add-abs", "spec-popc-edge", "spec-ubfe-edge"];
    for n in names {
        for ext in ["tgsi", "inputs.json"] {
            let from = Path::new(SUITE).join("spec").join(format!("{n}.{ext}"));
            std::fs::copy(&from, suite.join(format!("{n}.{ext}"))).unwrap();
        }
    }
    let suite_s = suite.display().to_string();
    for (fault, victim, status) in [
        ("test-abort", "spec-popc-edge", "Crash"),
        ("test-hang", "spec-ubfe-edge", "Timeout"),
    ] {
        let out = dir.join(fault);
        let junit = dir.join(format!("{fault}.xml"));
        let o = run(&[
            "conform",
            &suite_s,
            "--inject-fault",
            fault,
            "--timeout",
            "1s",
            "--out",
            &out.display().to_string(),
            "--junit",
            &junit.display().to_string(),
        ]);
        assert_eq!(code(&o), 1, "{}", text(&o));
        let results = std::fs::read_to_string(out.join("results.csv")).unwrap();
        for n in names {
            let expected = if n == victim { status } else { "Pass" };
            assert!(
                results.contains(&format!("{n},jit,{expected},")),
                "{n} should be {expected}:\n{results}"
            );
            // The fault is the jit's: the other engine passes every program.
            assert!(
                results.contains(&format!("{n},valhall,Pass,")),
                "{n} should pass on valhall:\n{results}"
            );
        }
        let xml = std::fs::read_to_string(&junit).unwrap();
        let report = quick_junit::Report::deserialize_from_str(&xml).unwrap();
        // One testcase per program and compared engine (jit, valhall).
        assert_eq!(report.tests, 6);
        assert_eq!(report.errors, 1, "{xml}");
    }
}
