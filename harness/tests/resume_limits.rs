//! `fuzz --resume DIR` keeps the limits the campaign was started with (docs/campaigns.md
//! "Limits"): a campaign started with a non-default `--max-jit-instructions`, stopped by
//! SIGTERM and resumed without the flag ends with exactly the files of the uninterrupted
//! campaign (findings byte for byte, program log, summary but for timings and job count),
//! and its recorded arguments name the limit.

mod common;

use std::collections::BTreeMap;
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use common::{json, scratch, text, BIN};

/// Below the generated programs' budget (`fuzz --max-instructions`, 48 by default), so
/// that the limit decides for some programs whether jit is given them.
const JIT_LIMIT: &str = "--max-jit-instructions=24";

fn args(out: &Path, limit: bool) -> Vec<String> {
    let mut v: Vec<String> = [
        "fuzz",
        "--seed",
        "5",
        "--programs",
        "640",
        "--jobs",
        "1",
        "--backends",
        "interp,jit",
        "--inject-fault",
        "shift-count-unmasked",
        "--no-reduce",
        "--log-programs",
        "--out",
    ]
    .iter()
    .map(|s| s.to_string())
    .chain([out.display().to_string()])
    .collect();
    if limit {
        v.push(JIT_LIMIT.into());
    }
    v
}

fn run(args: &[String]) -> Output {
    Command::new(BIN)
        .args(args)
        .env("CI", "1")
        .output()
        .unwrap()
}

/// Chunks committed in `dir/progress.json`.
fn committed(dir: &Path) -> u64 {
    let Ok(t) = std::fs::read_to_string(dir.join("progress.json")) else {
        return 0;
    };
    let Ok(v) = serde_json::from_str::<serde_json::Value>(&t) else {
        return 0;
    };
    v["done"].as_array().map_or(0, |r| {
        r.iter()
            .map(|p| p[1].as_u64().unwrap() - p[0].as_u64().unwrap())
            .sum()
    })
}

/// Every file under `findings/`, `programs.log`, and `summary.json` without its timings
/// and job count (campaign_faults.rs compares the same).
fn outcome(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut out = BTreeMap::new();
    let mut stack = vec![dir.join("findings")];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in entries {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else {
                let rel = p.strip_prefix(dir).unwrap().display().to_string();
                out.insert(rel, std::fs::read(&p).unwrap());
            }
        }
    }
    out.insert(
        "programs.log".into(),
        std::fs::read(dir.join("programs.log")).unwrap_or_default(),
    );
    let mut s = json(&dir.join("summary.json"));
    for k in ["elapsed_s", "programs_per_s", "jobs"] {
        s.as_object_mut().unwrap().remove(k);
    }
    out.insert("summary.json".into(), s.to_string().into_bytes());
    out
}

#[test]
fn a_resumed_campaign_keeps_its_engine_instruction_limit() {
    let whole = scratch("resume-limits-whole");
    let o = run(&args(&whole, true));
    assert!(matches!(o.status.code(), Some(0 | 1)), "{}", text(&o));
    // The limit is recorded with the campaign's arguments.
    let p = json(&whole.join("progress.json"));
    let argv: Vec<&str> = p["argv"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a.as_str().unwrap())
        .collect();
    assert!(argv.contains(&JIT_LIMIT), "{argv:?}");
    let want = outcome(&whole);

    // The limit matters here: the same campaign under the default limit differs.
    let default = scratch("resume-limits-default");
    let o = run(&args(&default, false));
    assert!(matches!(o.status.code(), Some(0 | 1)), "{}", text(&o));
    assert_ne!(
        outcome(&default)["summary.json"],
        want["summary.json"],
        "a jit limit of 24 instructions should leave some programs unsupported"
    );

    // Stopped after two chunks, resumed without the flag: the same files.
    let dir = scratch("resume-limits-stopped");
    let mut child = Command::new(BIN)
        .args(args(&dir, true))
        .env("CI", "1")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let start = Instant::now();
    while committed(&dir) < 2 {
        assert!(start.elapsed() < Duration::from_secs(300), "no progress");
        std::thread::sleep(Duration::from_millis(5));
    }
    // SAFETY: kill(2) on the pid of a child this test started and has not reaped.
    unsafe { libc::kill(child.id() as i32, libc::SIGTERM) };
    child.wait().unwrap();
    assert_eq!(json(&dir.join("summary.json"))["status"], "interrupted");
    let o = run(&[
        "fuzz".into(),
        "--resume".into(),
        dir.display().to_string(),
        "--jobs".into(),
        "1".into(),
    ]);
    assert!(matches!(o.status.code(), Some(0 | 1)), "{}", text(&o));
    let got = outcome(&dir);
    assert_eq!(
        got.keys().collect::<Vec<_>>(),
        want.keys().collect::<Vec<_>>()
    );
    for (k, v) in &want {
        assert!(
            got[k] == *v,
            "{k} differs from the uninterrupted campaign's"
        );
    }
}

#[test]
fn limit_flags_given_to_a_resume_are_ignored_with_a_note() {
    let dir = scratch("resume-limits-note");
    let mut a = args(&dir, true);
    a[4] = "64".into(); // --programs 64: one short campaign
    let o = run(&a);
    assert!(matches!(o.status.code(), Some(0 | 1)), "{}", text(&o));
    let o = run(&[
        "fuzz".into(),
        "--resume".into(),
        dir.display().to_string(),
        "--max-jit-instructions=100".into(),
    ]);
    assert!(matches!(o.status.code(), Some(0 | 1)), "{}", text(&o));
    assert!(
        text(&o).contains(
            "--resume keeps the limits the campaign was started with (--max-jit-instructions=24)"
        ),
        "{}",
        text(&o)
    );
}
