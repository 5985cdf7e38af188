//! Helpers shared by the binary's integration tests: run `shaderdiff`, read its exit
//! status and output, make scratch directories.
#![allow(dead_code)]

use std::path::PathBuf;
use std::process::{Command, Output};

/// The binary under test.
pub const BIN: &str = env!("CARGO_BIN_EXE_shaderdiff");

/// Runs `shaderdiff ARGS` to completion (with `CI` set: no progress line).
pub fn run(args: &[&str]) -> Output {
    Command::new(BIN)
        .args(args)
        .env("CI", "1")
        .output()
        .expect("the shaderdiff binary starts")
}

/// Runs a small campaign on interp and jit alone, one job, seed 1:
/// `shaderdiff fuzz --lang LANG --seed 1 --programs PROGRAMS --jobs 1 --backends interp,jit
/// --out OUT EXTRA...`.
pub fn fuzz_interp_jit(lang: &str, programs: &str, out: &str, extra: &[&str]) -> Output {
    let mut args = vec![
        "fuzz",
        "--lang",
        lang,
        "--seed",
        "1",
        "--programs",
        programs,
        "--jobs",
        "1",
        "--backends",
        "interp,jit",
        "--out",
        out,
    ];
    args.extend_from_slice(extra);
    run(&args)
}

/// Its exit status (it must not die of a signal).
pub fn code(o: &Output) -> i32 {
    o.status.code().expect("exited normally")
}

/// Stdout then stderr, for assertion messages.
pub fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

/// A fresh, empty scratch directory named after the test and this process.
pub fn scratch(test: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("shaderdiff-{test}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// A scratch directory removed when dropped: `shaderdiff-scratch-{test}-{pid}` in the
/// temporary directory, fresh and empty.
pub struct Scratch(pub PathBuf);

impl Scratch {
    /// A fresh, empty directory for test `test`.
    pub fn new(test: &str) -> Scratch {
        let d =
            std::env::temp_dir().join(format!("shaderdiff-scratch-{test}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        Scratch(d)
    }

    /// The path of `name` inside it, as a string for command lines.
    pub fn path(&self, name: &str) -> String {
        self.0.join(name).display().to_string()
    }

    /// Writes `text` to `name` inside it and returns the path.
    pub fn file(&self, name: &str, text: &str) -> String {
        let p = self.0.join(name);
        std::fs::write(&p, text).unwrap();
        p.display().to_string()
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Stderr as text.
pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// A JSON file.
pub fn json(path: &std::path::Path) -> serde_json::Value {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Program indices committed in a campaign's `DIR/progress.json` (the sum of its `done`
/// ranges); 0 while the file is missing or half-written.
pub fn campaign_committed(dir: &std::path::Path) -> u64 {
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

/// What a campaign leaves that must not depend on how it was run (docs/campaigns.md,
/// "Faults"): every file under `DIR/findings/`, `programs.log`, and `summary.json` without
/// its timings and job count, keyed by the path relative to `dir`.
pub fn campaign_outcome(dir: &std::path::Path) -> std::collections::BTreeMap<String, Vec<u8>> {
    let mut out = std::collections::BTreeMap::new();
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

/// An in-process campaign of `lang` and `seed` with generator `config`: one job, no
/// reduction, no program limit, step budget 2^20 (tests set what they need on top).
pub fn test_campaign(
    lang: &str,
    seed: u64,
    config: shaderdiff_generators::random::RandomConfig,
) -> shaderdiff::fuzz::Campaign {
    shaderdiff::fuzz::Campaign {
        seed,
        shard: (0, 1),
        config,
        programs: None,
        time: None,
        stop_after_findings: None,
        jobs: 1,
        reduce: false,
        reduce_time: std::time::Duration::from_secs(1),
        reduce_cpu_time: std::time::Duration::from_secs(1),
        log_programs: false,
        fault: None,
        lang: lang.into(),
        step_limit: 1 << 20,
        argv: Vec::new(),
        isolation: None,
    }
}
