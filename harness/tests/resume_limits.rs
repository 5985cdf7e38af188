//! `fuzz --resume DIR` keeps the limits the campaign was started with (docs/campaigns.md
//! "Limits"): a campaign started with a non-default `--max-jit-instructions`, stopped by
//! SIGTERM and resumed without the flag ends with exactly the files of the uninterrupted
//! campaign (findings byte for byte, program log, summary but for timings and job count),
//! and its recorded arguments name the limit.

mod common;

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
    let want = common::campaign_outcome(&whole);

    // The limit matters here: the same campaign under the default limit differs.
    let default = scratch("resume-limits-default");
    let o = run(&args(&default, false));
    assert!(matches!(o.status.code(), Some(0 | 1)), "{}", text(&o));
    assert_ne!(
        common::campaign_outcome(&default)["summary.json"],
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
    while common::campaign_committed(&dir) < 2 {
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
    let got = common::campaign_outcome(&dir);
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
