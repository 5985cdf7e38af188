//! `shaderdiff merge`: the shards of a campaign merge into what the unsharded campaign
//! finds (`fuzz --shard`, docs/commands.md "Campaigns on a cluster"); shards of different campaigns are refused (exit 2).

use std::path::{Path, PathBuf};

use serde_json::Value;

mod common;

use common::run;

fn scratch() -> PathBuf {
    common::scratch("merge")
}

fn summary(dir: &Path) -> Value {
    common::json(&dir.join("summary.json"))
}

fn fuzz(out: &Path, seed: &str, programs: &str, shard: &str) {
    let o = run(&[
        "fuzz",
        "--seed",
        seed,
        "--programs",
        programs,
        "--shard",
        shard,
        "--inject-fault",
        "min-nan-propagates",
        "--no-reduce",
        "--jobs",
        "1",
        "--backends",
        "interp,jit",
        "--out",
        &out.display().to_string(),
    ]);
    assert!(
        o.status.code() == Some(1) || o.status.code() == Some(0),
        "{o:?}"
    );
}

#[test]
fn merged_shards_equal_the_whole_campaign() {
    let d = scratch();
    let dirs: Vec<PathBuf> = (0..3).map(|i| d.join(format!("shard{i}"))).collect();
    for (i, dir) in dirs.iter().enumerate() {
        fuzz(dir, "5", "150", &format!("{i}/3"));
    }
    let whole = d.join("whole");
    fuzz(&whole, "5", "450", "0/1");
    let merged = d.join("merged");
    let mut args: Vec<String> = vec!["merge".into()];
    args.extend(dirs.iter().map(|p| p.display().to_string()));
    args.extend(["--out".into(), merged.display().to_string()]);
    let refs: Vec<&str> = args.iter().map(String::as_str).collect();
    let o = run(&refs);
    let (m, w) = (summary(&merged), summary(&whole));
    assert!(
        w["mismatches"].as_u64().unwrap() > 0,
        "the fault shows in 450 programs"
    );
    assert_eq!(o.status.code(), Some(1), "findings: exit 1 as fuzz");
    for k in [
        "seed",
        "programs",
        "mismatches",
        "unique_findings",
        "engines",
    ] {
        assert_eq!(m[k], w[k], "{k}");
    }
    assert_eq!(m["shard"], "0/3,1/3,2/3");
    let key = |v: &Value| -> Vec<(String, u64, u64)> {
        v["findings"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| {
                (
                    f["signature"].as_str().unwrap().to_string(),
                    f["count"].as_u64().unwrap(),
                    f["first_index"].as_u64().unwrap(),
                )
            })
            .collect()
    };
    assert_eq!(key(&m), key(&w));
    for (sig, _, _) in key(&m) {
        let f = merged.join("findings").join(&sig);
        assert!(
            f.join("program.tgsi").is_file() && f.join("inputs.json").is_file(),
            "{sig}"
        );
    }
    // Another seed is another campaign.
    let other = d.join("other");
    fuzz(&other, "6", "10", "1/3");
    let o = run(&[
        "merge",
        &dirs[0].display().to_string(),
        &other.display().to_string(),
        "--out",
        &d.join("bad").display().to_string(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("seed"), "{o:?}");
    // The same shard twice, and a directory that is not a campaign.
    let o = run(&[
        "merge",
        &dirs[0].display().to_string(),
        &dirs[0].display().to_string(),
        "--out",
        &d.join("bad").display().to_string(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    let o = run(&[
        "merge",
        &d.join("nothing").display().to_string(),
        "--out",
        &d.join("bad").display().to_string(),
    ]);
    assert_eq!(o.status.code(), Some(2));
}
