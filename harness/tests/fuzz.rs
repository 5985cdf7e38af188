//! `shaderdiff fuzz` end to end: the INTERFACE.md output directory, exit statuses, the
//! program stream (the same seed and shard give the same programs; shards never overlap),
//! and findings that replay.

use std::path::Path;

use serde_json::Value;

mod common;

use common::{code, run, stderr as err, Scratch};

fn summary(dir: &str) -> Value {
    common::json(&Path::new(dir).join("summary.json"))
}

fn log(dir: &str) -> Vec<(u64, String)> {
    std::fs::read_to_string(Path::new(dir).join("programs.log"))
        .unwrap()
        .lines()
        .map(|l| {
            let (i, h) = l.split_once(' ').unwrap();
            (i.parse().unwrap(), h.to_string())
        })
        .collect()
}

#[test]
fn a_clean_campaign_writes_the_interface_summary_and_no_findings() {
    let s = Scratch::new("clean");
    let out = s.path("out");
    let o = run(&[
        "fuzz",
        "--seed",
        "3",
        "--programs",
        "100",
        "--jobs",
        "2",
        "--backends",
        "interp,jit",
        "--out",
        &out,
    ]);
    assert_eq!(code(&o), 0, "{}", err(&o));
    let v = summary(&out);
    let text = std::fs::read_to_string(Path::new(&out).join("summary.json")).unwrap();
    let keys = [
        "seed",
        "programs",
        "mismatches",
        "unique_findings",
        "elapsed_s",
        "programs_per_s",
        "engines",
    ];
    let pos: Vec<usize> = keys
        .iter()
        .map(|k| text.find(&format!("\"{k}\":")).unwrap())
        .collect();
    assert!(pos.windows(2).all(|w| w[0] < w[1]), "{text}");
    assert_eq!(v["seed"], 3);
    assert_eq!(v["programs"], 100);
    assert_eq!(v["mismatches"], 0);
    assert_eq!(v["unique_findings"], 0);
    assert_eq!(v["engines"], serde_json::json!(["jit"]));
    assert_eq!(v["status"], "complete");
    assert!(v["elapsed_s"].as_f64().unwrap() > 0.0);
    assert!(Path::new(&out).join("findings").is_dir());
    assert_eq!(
        std::fs::read_dir(Path::new(&out).join("findings"))
            .unwrap()
            .count(),
        0
    );
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert!(stdout.starts_with("fuzz: 100 programs in "), "{stdout}");
    assert!(
        stdout.contains(&format!("summary: {out}/summary.json")),
        "{stdout}"
    );
}

#[test]
fn the_program_stream_depends_only_on_seed_and_shard() {
    let s = Scratch::new("stream");
    let go = |name: &str, extra: &[&str]| {
        let out = s.path(name);
        let seed = if extra.contains(&"--seed") {
            vec![]
        } else {
            vec!["--seed", "11"]
        };
        let mut a = vec![
            "fuzz",
            "--backends",
            "interp,jit",
            "--log-programs",
            "--out",
            &out,
        ];
        a.extend_from_slice(extra);
        a.extend(seed);
        let o = run(&a);
        assert_eq!(code(&o), 0, "{}", err(&o));
        log(&out)
    };
    let a = go("a", &["--programs", "80", "--jobs", "2"]);
    let b = go("b", &["--programs", "80", "--jobs", "1"]);
    assert_eq!(a.len(), 80);
    assert_eq!(a, b, "same seed, same stream, whatever the job count");
    assert_eq!(
        a.iter().map(|(i, _)| *i).collect::<Vec<_>>(),
        (0..80).collect::<Vec<u64>>()
    );
    // Shards 0/2 and 1/2 split the stream with no overlap: together they are the first 80
    // programs of the unsharded campaign.
    let s0 = go("s0", &["--programs", "40", "--shard", "0/2"]);
    let s1 = go("s1", &["--programs", "40", "--shard", "1/2"]);
    assert!(s0.iter().all(|(i, _)| i % 2 == 0) && s1.iter().all(|(i, _)| i % 2 == 1));
    let mut both = [s0, s1].concat();
    both.sort();
    assert_eq!(both, a);
    // Another seed, other programs.
    let c = go("c", &["--programs", "80", "--seed", "12"]);
    assert_ne!(a, c);
}

#[test]
fn an_injected_fault_is_found_reduced_and_replayable() {
    let s = Scratch::new("fault");
    let out = s.path("out");
    let o = run(&[
        "fuzz",
        "--seed",
        "1",
        "--programs",
        "300",
        "--backends",
        "interp,jit",
        "--inject-fault",
        "dp3-reads-w",
        "--out",
        &out,
    ]);
    assert_eq!(code(&o), 1, "{}", err(&o));
    let v = summary(&out);
    assert!(v["mismatches"].as_u64().unwrap() >= 1);
    assert_eq!(v["fault"], "dp3-reads-w");
    let f = &v["findings"][0];
    let sig = f["signature"].as_str().unwrap();
    assert_eq!(sig, "jit-float_arith-f32");
    let dir = Path::new(&out).join("findings").join(sig);
    for name in ["program.tgsi", "inputs.json", "reduced.tgsi", "report.json"] {
        assert!(dir.join(name).is_file(), "{name}");
    }
    assert!(f["reduced_instructions"].as_u64().unwrap() <= 4, "{f}");
    let report: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("report.json")).unwrap()).unwrap();
    assert_eq!(report["program"], "reduced.tgsi");
    assert_eq!(report["verdict"], "mismatch");
    assert_eq!(report["signatures"][0]["signature"], sig);
    // INTERFACE.md: `diff reduced.tgsi --inputs inputs.json` reproduces the finding.
    let d = |n: &str| dir.join(n).display().to_string();
    let o = run(&[
        "diff",
        &d("reduced.tgsi"),
        "--inputs",
        &d("inputs.json"),
        "--backends",
        "interp,jit",
        "--inject-fault",
        "dp3-reads-w",
    ]);
    assert_eq!(code(&o), 1, "{}", err(&o));
    // The original program shows it on its own inputs too.
    let o = run(&[
        "diff",
        &d("program.tgsi"),
        "--inputs",
        &d("program.inputs.json"),
        "--backends",
        "interp,jit",
        "--inject-fault",
        "dp3-reads-w",
    ]);
    assert_eq!(code(&o), 1, "{}", err(&o));
}

#[test]
fn usage_errors() {
    let s = Scratch::new("usage");
    let out = s.path("out");
    let o = run(&["fuzz", "--lang", "cuda", "--programs", "1", "--out", &out]);
    assert_eq!(code(&o), 2);
    for shard in ["2/2", "1/0", "x/3", "3"] {
        let o = run(&["fuzz", "--programs", "1", "--shard", shard, "--out", &out]);
        assert_eq!(code(&o), 2, "{shard}");
    }
    let o = run(&["fuzz", "--programs", "1", "--time", "soon", "--out", &out]);
    assert_eq!(code(&o), 2);
}

#[test]
fn a_time_budget_ends_the_campaign() {
    let s = Scratch::new("time");
    let out = s.path("out");
    let start = std::time::Instant::now();
    let o = run(&[
        "fuzz",
        "--seed",
        "5",
        "--time",
        "2s",
        "--backends",
        "interp,jit",
        "--out",
        &out,
    ]);
    assert_eq!(code(&o), 0, "{}", err(&o));
    assert!(start.elapsed().as_secs() < 30);
    let v = summary(&out);
    assert!(v["programs"].as_u64().unwrap() > 0);
    assert_eq!(v["status"], "complete");
}
