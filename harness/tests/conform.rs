//! `shaderdiff conform` end to end: the checked-in suite passes with
//! a JUnit report that quick-junit's reader parses; a baseline round trip with an injected
//! fault; a nondeterministic engine reported as Flake; partitions that cover the suite
//! exactly once; bad baselines, skips and partitions are bad input (exit 2).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use quick_junit::{Report, TestCaseStatus};

mod common;

use common::{code, run, text};

const SUITE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../conformance");

fn scratch(test: &str) -> PathBuf {
    common::scratch(&format!("conform-{test}"))
}

fn s(p: &Path) -> String {
    p.display().to_string()
}

/// Program files under `dir`, recursively.
fn count_programs(dir: &Path) -> usize {
    let mut n = 0;
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            n += count_programs(&p);
        } else if p.extension().is_some_and(|x| x == "tgsi") {
            n += 1;
        }
    }
    n
}

/// (program, engine, status) rows of a CSV file.
fn rows(file: &Path) -> Vec<(String, String, String)> {
    std::fs::read_to_string(file)
        .unwrap()
        .lines()
        .map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            (f[0].to_string(), f[1].to_string(), f[2].to_string())
        })
        .collect()
}

/// A small suite: copies of spec programs (with their inputs) from the checked-in suite.
fn small_suite(dir: &Path, names: &[&str]) {
    for n in names {
        for ext in ["tgsi", "inputs.json"] {
            let from = Path::new(SUITE).join("spec").join(format!("{n}.{ext}"));
            std::fs::copy(&from, dir.join(format!("{n}.{ext}"))).unwrap();
        }
    }
}

#[test]
fn the_checked_in_suite_passes_with_a_junit_report() {
    let d = scratch("suite");
    let junit = d.join("out.xml");
    let o = run(&[
        "conform",
        SUITE,
        "--backends",
        "interp,jit",
        "--junit",
        &s(&junit),
        "--out",
        &s(&d),
    ]);
    assert_eq!(code(&o), 0, "{}", text(&o));
    let programs = count_programs(Path::new(SUITE));
    assert!(
        programs > 1000,
        "the suite has the spec programs and the corpus"
    );
    let xml = std::fs::read_to_string(&junit).unwrap();
    let report = Report::deserialize_from_str(&xml).unwrap();
    // One testsuite per compared engine (jit), one testcase per program.
    assert_eq!(report.test_suites.len(), 1);
    assert_eq!(report.test_suites[0].name.as_str(), "jit");
    assert_eq!(report.tests, programs);
    assert_eq!(report.test_suites[0].test_cases.len(), programs);
    assert_eq!((report.failures, report.errors), (0, 0));
    assert_eq!(rows(&d.join("results.csv")).len(), programs);
    assert!(std::fs::read_to_string(d.join("failures.csv"))
        .unwrap()
        .is_empty());
}

#[test]
fn a_baseline_round_trip() {
    let d = scratch("baseline");
    let suite = d.join("suite");
    std::fs::create_dir_all(&suite).unwrap();
    small_suite(&suite, &["spec-dp3-abs", "spec-dp3-edge", "spec-add-abs"]);
    let out = |k: &str| s(&d.join(k));
    let args = |o: &str| -> Vec<String> {
        [
            "conform",
            &s(&suite),
            "--backends",
            "interp,jit",
            "--out",
            o,
        ]
        .iter()
        .map(|x| x.to_string())
        .collect()
    };
    let with = |mut a: Vec<String>, more: &[&str]| {
        a.extend(more.iter().map(|x| x.to_string()));
        let refs: Vec<&str> = a.iter().map(String::as_str).collect();
        run(&refs)
    };
    // 1. The fault (DP3 lowered as DP4) fails the DP3 programs.
    let o = with(args(&out("1")), &["--inject-fault", "dp3-reads-w"]);
    assert_eq!(code(&o), 1, "{}", text(&o));
    let failures = d.join("1/failures.csv");
    let mut f = rows(&failures);
    f.sort();
    assert_eq!(
        f,
        vec![
            ("spec-dp3-abs".into(), "jit".into(), "Fail".into()),
            ("spec-dp3-edge".into(), "jit".into(), "Fail".into()),
        ]
    );
    // 2. The same run against that baseline passes: the failures are expected.
    let o = with(
        args(&out("2")),
        &["--inject-fault", "dp3-reads-w", "--baseline", &s(&failures)],
    );
    assert_eq!(code(&o), 0, "{}", text(&o));
    assert!(text(&o).contains("ExpectedFail: 2"), "{}", text(&o));
    // 3. Without the fault they pass, which the baseline did not expect.
    let o = with(args(&out("3")), &["--baseline", &s(&failures)]);
    assert_eq!(code(&o), 1, "{}", text(&o));
    let r = rows(&d.join("3/results.csv"));
    let unexpected: Vec<&str> = r
        .iter()
        .filter(|(_, _, st)| st == "UnexpectedPass")
        .map(|(p, _, _)| p.as_str())
        .collect();
    assert_eq!(unexpected.len(), 2, "{r:?}");
    assert!(r
        .iter()
        .any(|(p, _, st)| p == "spec-add-abs" && st == "Pass"));
}

#[test]
fn a_nondeterministic_engine_is_a_flake() {
    let d = scratch("flake");
    let suite = d.join("suite");
    std::fs::create_dir_all(&suite).unwrap();
    // One input set each: with one worker the engine's runs alternate right, wrong, right:
    // the first program passes, the second fails, then passes on its retry.
    small_suite(&suite, &["spec-add-abs", "spec-mul-abs"]);
    let junit = d.join("out.xml");
    let o = run(&[
        "conform",
        &s(&suite),
        "--backends",
        "interp,jit",
        "--inject-fault",
        "test-nondeterministic",
        "--retries",
        "2",
        "--jobs",
        "1",
        "--out",
        &s(&d),
        "--junit",
        &s(&junit),
    ]);
    assert_eq!(code(&o), 0, "a flake does not fail the run: {}", text(&o));
    let r = rows(&d.join("results.csv"));
    assert_eq!(r[0].2, "Pass", "{r:?}");
    assert_eq!(r[1].2, "Flake", "{r:?}");
    // failures.csv lists the flake, so the next baseline knows it.
    assert_eq!(rows(&d.join("failures.csv"))[0].2, "Flake");
    let report = Report::deserialize_from_str(&std::fs::read_to_string(&junit).unwrap()).unwrap();
    match &report.test_suites[0].test_cases[1].status {
        TestCaseStatus::Success { flaky_runs } => assert_eq!(flaky_runs.len(), 1),
        st => panic!("a flake is a success with flaky runs in JUnit: {st:?}"),
    }
}

#[test]
fn partitions_cover_the_suite_exactly_once() {
    let d = scratch("partition");
    let programs = count_programs(Path::new(SUITE));
    for kind in ["hash", "count"] {
        let mut seen = BTreeSet::new();
        let mut total = 0;
        for i in 1..=3 {
            let out = d.join(format!("{kind}{i}"));
            let part = format!("{kind}:{i}/3");
            let o = run(&[
                "conform",
                SUITE,
                "--backends",
                "interp,jit",
                "--partition",
                &part,
                "--out",
                &s(&out),
            ]);
            assert_eq!(code(&o), 0, "{part}: {}", text(&o));
            let r = rows(&out.join("results.csv"));
            assert!(!r.is_empty(), "{part} is empty");
            total += r.len();
            seen.extend(r.into_iter().map(|(p, _, _)| p));
        }
        assert_eq!(
            total, programs,
            "{kind}: the parts overlap or miss programs"
        );
        assert_eq!(seen.len(), programs, "{kind}: the parts overlap");
    }
}

#[test]
fn bad_baselines_skips_and_partitions_are_bad_input() {
    let d = scratch("bad");
    let baseline = d.join("b.csv");
    std::fs::write(
        &baseline,
        "spec-add-abs,jit,Fail\nspec-mul-abs,jit,Borked\n",
    )
    .unwrap();
    let skips = d.join("skips.txt");
    std::fs::write(&skips, "# comment\nspec-(add\n").unwrap();
    let base = ["conform", SUITE, "--backends", "interp,jit", "--out"];
    let cases: Vec<(Vec<String>, String)> = vec![
        (
            vec!["--baseline".into(), s(&baseline)],
            format!("{}:2:18:", s(&baseline)),
        ),
        (
            vec!["--skips".into(), s(&skips)],
            format!("{}:2:1:", s(&skips)),
        ),
        (
            vec!["--partition".into(), "hash:4/3".into()],
            "--partition".into(),
        ),
    ];
    for (extra, expect) in cases {
        let mut a: Vec<String> = base.iter().map(|x| x.to_string()).collect();
        a.push(s(&d.join("out")));
        a.extend(extra);
        let refs: Vec<&str> = a.iter().map(String::as_str).collect();
        let o = run(&refs);
        assert_eq!(code(&o), 2, "{a:?}: {}", text(&o));
        assert!(text(&o).contains(&expect), "{a:?}: {}", text(&o));
    }
    // A skips file that matches programs skips them.
    std::fs::write(&skips, "^spec/\n").unwrap();
    let out = d.join("skipped");
    let o = run(&[
        "conform",
        SUITE,
        "--backends",
        "interp,jit",
        "--skips",
        &s(&skips),
        "--out",
        &s(&out),
    ]);
    assert_eq!(code(&o), 0, "{}", text(&o));
    let r = rows(&out.join("results.csv"));
    assert!(r
        .iter()
        .all(|(p, _, st)| p.starts_with("spec/") == (st == "Skip")));
}

/// `conform --out DIR` holds the advisory lock of `fuzz --out` (docs/campaigns.md "The
/// output lock"): a second run into a held directory exits 4 naming the holder's PID and
/// host and writes nothing; a lock file left by a dead process is taken over with a note.
#[test]
fn the_output_directory_is_locked() {
    let d = scratch("lock");
    let suite = d.join("suite");
    std::fs::create_dir_all(&suite).unwrap();
    small_suite(&suite, &["spec-add-abs"]);
    let out = d.join("out");
    let args = [
        "conform",
        &s(&suite),
        "--backends",
        "interp,jit",
        "--out",
        &s(&out),
    ];
    // Held by a live process (this one).
    let held = shaderdiff::lock::acquire(&out).unwrap();
    let o = run(&args);
    assert_eq!(code(&o), 4, "a held lock stops the run: {}", text(&o));
    let me = format!(
        "PID {} on host {}",
        std::process::id(),
        shaderdiff::lock::hostname()
    );
    assert!(text(&o).contains(&me), "names the holder: {}", text(&o));
    assert!(!out.join("results.csv").exists(), "wrote nothing");
    drop(held);
    // Left by a process that no longer runs (what SIGKILL leaves: a non-empty file).
    std::fs::write(out.join("lock"), "pid 4194999\nhost elsewhere\n").unwrap();
    let o = run(&args);
    assert_eq!(code(&o), 0, "{}", text(&o));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("left by PID 4194999 on host elsewhere") && err.contains("taking it over"),
        "{err}"
    );
    assert_eq!(rows(&out.join("results.csv")).len(), 1);
    // A clean exit leaves the lock released (an empty file).
    assert_eq!(std::fs::read_to_string(out.join("lock")).unwrap(), "");
}
