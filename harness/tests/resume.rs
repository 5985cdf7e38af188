//! `fuzz --resume DIR`: a campaign SIGKILLed while it
//! runs, then resumed, ends with the same findings (files and counts), the same totals and
//! the same program log as an uninterrupted campaign with the same seed; the resumed
//! session skips exactly the chunks that were committed.

mod common;

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::{code, json, run, scratch, text, BIN};

const PROGRAMS: u64 = 1500;

fn args(out: &Path) -> Vec<String> {
    [
        "fuzz",
        "--seed",
        "3",
        "--programs",
        "1500",
        "--jobs",
        "1",
        "--inject-fault",
        "shift-count-unmasked",
        "--log-programs",
        "--out",
    ]
    .iter()
    .map(|s| s.to_string())
    .chain([out.display().to_string()])
    .collect()
}

/// Every file under `dir` (relative path → contents), recursively.
fn files(dir: &Path) -> std::collections::BTreeMap<String, String> {
    let mut out = std::collections::BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else {
                let rel = p.strip_prefix(dir).unwrap().display().to_string();
                out.insert(rel, std::fs::read_to_string(&p).unwrap());
            }
        }
    }
    out
}

/// Chunks committed in `dir/progress.json` (0 while it does not exist yet).
fn committed(dir: &Path) -> u64 {
    let Ok(text) = std::fs::read_to_string(dir.join("progress.json")) else {
        return 0;
    };
    let Ok(v) = serde_json::from_str::<serde_json::Value>(&text) else {
        return 0;
    };
    v["done"]
        .as_array()
        .map(|r| {
            r.iter()
                .map(|p| p[1].as_u64().unwrap() - p[0].as_u64().unwrap())
                .sum()
        })
        .unwrap_or(0)
}

#[test]
fn a_killed_campaign_resumes_to_the_same_findings() {
    let root = scratch("resume");
    let whole = root.join("whole");
    let o = Command::new(BIN).args(args(&whole)).output().unwrap();
    assert_eq!(code(&o), 1, "the fault is found: {}", text(&o));

    let killed = root.join("killed");
    let mut child = Command::new(BIN)
        .args(args(&killed))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let start = Instant::now();
    while committed(&killed) < 3 {
        assert!(start.elapsed() < Duration::from_secs(120), "no progress");
        std::thread::sleep(Duration::from_millis(10));
    }
    child.kill().unwrap(); // SIGKILL
    child.wait().unwrap();
    let done_at_kill = committed(&killed);
    let chunks = PROGRAMS.div_ceil(64);
    assert!(
        done_at_kill < chunks,
        "killed before the end ({done_at_kill} of {chunks} chunks)"
    );
    let before = json(&killed.join("progress.json"));

    let killed_s = killed.display().to_string();
    let o = run(&["fuzz", "--resume", &killed_s]);
    assert_eq!(code(&o), 1, "{}", text(&o));
    let said = String::from_utf8_lossy(&o.stderr).to_string();
    let programs_before = before["programs"].as_u64().unwrap();
    assert!(
        said.contains(&format!(
            "{programs_before} programs in {done_at_kill} chunks already done"
        )),
        "{said}"
    );

    let a = json(&whole.join("summary.json"));
    let b = json(&killed.join("summary.json"));
    for k in [
        "seed",
        "programs",
        "mismatches",
        "unique_findings",
        "findings",
        "status",
    ] {
        assert_eq!(a[k], b[k], "{k}");
    }
    assert_eq!(b["programs"], PROGRAMS);
    assert!(b["unique_findings"].as_u64().unwrap() > 0);
    // Every program exactly once, in stream order, with the same text fingerprint.
    let log_a = std::fs::read_to_string(whole.join("programs.log")).unwrap();
    let log_b = std::fs::read_to_string(killed.join("programs.log")).unwrap();
    assert_eq!(log_a.lines().count() as u64, PROGRAMS);
    assert_eq!(log_a, log_b);
    // No finding lost: the same directories and files.
    assert_eq!(
        files(&whole.join("findings")),
        files(&killed.join("findings"))
    );
}

#[test]
fn resume_needs_a_campaign_directory_and_its_own_settings() {
    let root = scratch("resume-bad");
    let dir = root.display().to_string();
    let o = run(&["fuzz", "--resume", &dir]);
    assert_eq!(code(&o), 2, "{}", text(&o));
    assert!(text(&o).contains("progress.json"), "{}", text(&o));
    // The settings come from progress.json: giving them again is a usage error.
    let o = run(&["fuzz", "--resume", &dir, "--seed", "4"]);
    assert_eq!(code(&o), 2, "{}", text(&o));
    std::fs::write(root.join("progress.json"), "{\"version\": 1,\n\"done\": 7}").unwrap();
    let o = run(&["fuzz", "--resume", &dir]);
    assert_eq!(code(&o), 2, "{}", text(&o));
    assert!(text(&o).contains("progress.json:2:"), "{}", text(&o));
}
