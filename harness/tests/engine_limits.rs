//! The instruction limit of each engine (docs/campaigns.md "Limits"): a program longer
//! than an engine's limit is refused before that engine sees it. `run` exits 2 naming the
//! count, the limit and the flag that raises it; `diff`, `fuzz` and `conform` report the
//! engine as unsupported for that program (conform: Skip), never as a mismatch. The
//! defaults are the documented ones: interp and jit 65 536, valhall 16 384.
//!
//! `SHADERDIFF_BIN` runs these against another build.

mod common;

use std::process::{Command, Output};

use common::{text, Scratch};

fn bin() -> String {
    std::env::var("SHADERDIFF_BIN").unwrap_or_else(|_| common::BIN.to_string())
}

fn run(args: &[&str]) -> Output {
    Command::new(bin())
        .args(args)
        .env("CI", "1")
        .output()
        .expect("the binary starts")
}

fn code(o: &Output) -> i32 {
    o.status.code().expect("exited normally")
}

/// A vertex program of exactly `n` instructions: `n - 2` ADDs, a MOV and END.
fn program(n: usize) -> String {
    assert!(n >= 2);
    let mut t = String::from("VERT\nDCL IN[0]\nDCL OUT[0]\nDCL TEMP[0]\n");
    t.push_str("  0: MOV TEMP[0], IN[0]\n");
    for i in 1..n - 1 {
        t.push_str(&format!("  {i}: ADD TEMP[0], TEMP[0], IN[0]\n"));
    }
    t.push_str(&format!("  {}: END\n", n - 1));
    t
}

/// `run` of a program one instruction over each CPU engine's default limit exits 2 with a
/// message naming the file, the count, the limit and the flag.
#[test]
fn a_huge_program_is_refused_by_each_cpu_engine_with_exit_2() {
    let d = Scratch::new("engine-limits-huge");
    for (engine, limit) in [("interp", 65_536), ("jit", 65_536), ("valhall", 16_384)] {
        let n = limit + 1;
        let path = d.path(&format!("{engine}.tgsi"));
        std::fs::write(&path, program(n)).unwrap();
        // Above the program-wide limit too: raise that one, so the engine's is what stops it.
        let o = run(&[
            "run",
            &path,
            "--backend",
            engine,
            "--max-program-instructions",
            "1000000",
        ]);
        assert_eq!(code(&o), 2, "{engine}: {}", text(&o));
        let want = format!(
            "{path}: {n} instructions, more than {engine}'s limit {limit} \
             (raise it with --max-{engine}-instructions)"
        );
        assert!(text(&o).contains(&want), "{engine}: {}", text(&o));
        assert!(!text(&o).contains("panicked"), "{}", text(&o));
    }
}

/// The flag raises the limit: with it the same program runs (a small program and a
/// lowered limit keep this quick).
#[test]
fn the_flag_sets_each_cpu_engine_limit() {
    let d = Scratch::new("engine-limits-flag");
    let path = d.path("p.tgsi");
    std::fs::write(&path, program(40)).unwrap();
    for engine in ["interp", "jit", "valhall"] {
        let flag = format!("--max-{engine}-instructions");
        let o = run(&["run", &path, "--backend", engine, &flag, "39"]);
        assert_eq!(code(&o), 2, "{engine}: {}", text(&o));
        assert!(text(&o).contains("40 instructions"), "{}", text(&o));
        let o = run(&["run", &path, "--backend", engine, &flag, "40"]);
        assert_eq!(code(&o), 0, "{engine}: {}", text(&o));
    }
}

/// `diff` of a program over valhall's default limit: valhall is unsupported for it, jit
/// is compared; no mismatch (exit 0).
#[test]
fn diff_reports_an_engine_over_its_limit_as_unsupported() {
    let d = Scratch::new("engine-limits-diff");
    let path = d.path("p.tgsi");
    std::fs::write(&path, program(16_385)).unwrap();
    let o = run(&[
        "diff",
        &path,
        "--backends",
        "interp,jit,valhall",
        "--format",
        "json",
    ]);
    assert_eq!(code(&o), 0, "{}", text(&o));
    let out = text(&o);
    assert!(out.contains("more than valhall's limit 16384"), "{out}");
    assert!(!out.contains("mismatch\""), "{out}");
}

/// A campaign whose programs exceed an engine's limit counts them as unsupported, never
/// as mismatches.
#[test]
fn a_campaign_skips_programs_over_an_engine_limit() {
    let d = Scratch::new("engine-limits-fuzz");
    let out = d.path("out");
    let o = run(&[
        "fuzz",
        "--seed",
        "1",
        "--programs",
        "64",
        "--jobs",
        "1",
        "--in-process",
        "--backends",
        "interp,valhall",
        "--max-valhall-instructions",
        "2",
        "--out",
        &out,
    ]);
    assert_eq!(code(&o), 0, "{}", text(&o));
    let s: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(d.0.join("out/summary.json")).unwrap())
            .unwrap();
    assert_eq!(s["mismatches"], 0, "{s}");
    let programs = s["programs"].as_u64().unwrap();
    let skipped = s["oracle_skipped"].as_u64().unwrap();
    // Every program the oracle ran has more than two instructions: valhall got none.
    assert_eq!(
        s["unsupported"].as_u64().unwrap(),
        programs - skipped,
        "{s}"
    );
}

/// `conform` gives an engine over its limit `Skip`, not `Fail`.
#[test]
fn conform_skips_an_engine_over_its_limit() {
    let d = Scratch::new("engine-limits-conform");
    let suite = d.0.join("suite");
    std::fs::create_dir_all(&suite).unwrap();
    std::fs::write(suite.join("p.tgsi"), program(40)).unwrap();
    let out = d.path("out");
    let o = run(&[
        "conform",
        &suite.display().to_string(),
        "--backends",
        "interp,jit",
        "--max-jit-instructions",
        "39",
        "--out",
        &out,
    ]);
    assert_eq!(code(&o), 0, "{}", text(&o));
    let csv = std::fs::read_to_string(d.0.join("out/results.csv")).unwrap();
    assert!(csv.starts_with("p,jit,Skip"), "{csv}");
}
