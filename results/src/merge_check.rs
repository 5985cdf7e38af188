//! Which shard summaries may be merged (`shaderdiff merge`): the shards of one campaign,
//! each once, together covering it, each finished.
//!
//! * **One campaign**: the same seed, generator version, language, engines, fault and
//!   [`Summary::options`] (the options that decide which programs are generated and how
//!   they are compared: [`campaign_options`]).
//! * **A partition**: every shard splits the stream the same way (the same `N` of
//!   `--shard I/N`), no `I` twice (shards 0/1 and 0/2 overlap: both hold program 0), and,
//!   unless `partial`, every `I` of `0..N` present.
//! * **Finished**: every summary's status is `complete`, unless `partial` (a shard still
//!   running, interrupted or failed has not counted all its programs).
//!
//! A merged directory's summary lists its shards (`0/4,2/4`), so merges of merges are
//! checked the same way.

use std::collections::BTreeSet;

use crate::summary::{Summary, SummaryStatus};

/// Options of a campaign's canonical `fuzz` arguments that do not change which programs it
/// generates or how it compares them (`--shard` is checked on its own).
const NEUTRAL: [(&str, bool); 8] = [
    ("--shard", true),
    ("--out", true),
    ("--reduce-time", true),
    ("--timeout", true),
    ("--worker-memory", true),
    ("--seed", true),
    ("--no-reduce", false),
    ("--log-programs", false),
];

/// The options of canonical `fuzz` arguments `argv` that define the campaign: all but
/// the output directory, the shard, the seed (a summary field of its own) and the
/// reduction, timeout and memory settings. Flags keep their values (`--invocations`,
/// `16`).
pub fn campaign_options(argv: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    let mut it = argv.iter();
    while let Some(a) = it.next() {
        match NEUTRAL.iter().find(|(f, _)| f == a) {
            Some((_, true)) => {
                it.next();
            }
            Some((_, false)) => {}
            None => out.push(a.clone()),
        }
    }
    out
}

/// The `(I, N)` shards a summary's `shard` field lists (`0/3` or `0/3,2/3`).
///
/// # Errors
/// A field that is not such a list.
pub fn shards_of(field: &str) -> Result<Vec<(u64, u64)>, String> {
    field
        .split(',')
        .map(|s| {
            let (i, n) = s
                .trim()
                .split_once('/')
                .ok_or_else(|| format!("shard `{s}` is not I/N"))?;
            let i: u64 = i.parse().map_err(|_| format!("shard `{s}` is not I/N"))?;
            let n: u64 = n.parse().map_err(|_| format!("shard `{s}` is not I/N"))?;
            if n == 0 || i >= n {
                return Err(format!("shard `{s}`: need 0 <= I < N"));
            }
            Ok((i, n))
        })
        .collect()
}

fn status_name(s: SummaryStatus) -> &'static str {
    match s {
        SummaryStatus::Running => "running",
        SummaryStatus::Complete => "complete",
        SummaryStatus::Interrupted => "interrupted",
        SummaryStatus::Failed => "failed",
    }
}

/// Checks that `shards` (a name for messages, the summary) can be merged (module docs).
///
/// # Errors
/// One line naming the shard at fault and why.
pub fn check(shards: &[(String, &Summary)], partial: bool) -> Result<(), String> {
    let Some((first_name, first)) = shards.first() else {
        return Err("merge: no directories".into());
    };
    let mut taken: BTreeSet<u64> = BTreeSet::new();
    let mut split: Option<u64> = None;
    for (name, s) in shards {
        same_campaign(first_name, first, name, s)?;
        if !partial && s.status != SummaryStatus::Complete {
            return Err(format!(
                "{name}: the shard's status is {}, not complete (let it finish, `fuzz --resume` \
                 it, or merge with --partial)",
                status_name(s.status)
            ));
        }
        for (i, n) in shards_of(&s.shard).map_err(|e| format!("{name}: {e}"))? {
            match split {
                Some(m) if m != n => {
                    return Err(format!(
                        "{name}: shard {i}/{n} splits the campaign into {n} parts, the others into \
                         {m}: they overlap"
                    ))
                }
                _ => split = Some(n),
            }
            if !taken.insert(i) {
                return Err(format!("{name}: shard {i}/{n} is given twice"));
            }
        }
    }
    let n = split.unwrap_or(1);
    let missing: Vec<String> = (0..n)
        .filter(|i| !taken.contains(i))
        .map(|i| format!("{i}/{n}"))
        .collect();
    if !partial && !missing.is_empty() {
        return Err(format!(
            "merge: shard{} {} missing: the shards do not cover the campaign (merge with \
             --partial to combine what there is)",
            if missing.len() == 1 { "" } else { "s" },
            missing.join(", ")
        ));
    }
    Ok(())
}

fn same_campaign(first_name: &str, a: &Summary, name: &str, b: &Summary) -> Result<(), String> {
    let differs = |what: &str, x: String, y: String| {
        Err(format!(
            "{name}: {what} {y} differs from {first_name}'s {x}: not shards of one campaign"
        ))
    };
    if a.seed != b.seed {
        return differs("seed", a.seed.to_string(), b.seed.to_string());
    }
    if a.generator_version != b.generator_version {
        return differs(
            "generator version",
            a.generator_version.clone(),
            b.generator_version.clone(),
        );
    }
    if a.lang != b.lang {
        return differs("language", a.lang.clone(), b.lang.clone());
    }
    if a.engines != b.engines {
        return differs("engines", a.engines.join(","), b.engines.join(","));
    }
    if a.fault != b.fault {
        let f = |x: &Option<String>| x.clone().unwrap_or_else(|| "none".into());
        return differs("fault", f(&a.fault), f(&b.fault));
    }
    if a.options != b.options {
        return differs("options", a.options.join(" "), b.options.join(" "));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shard(s: &str, status: SummaryStatus) -> Summary {
        Summary {
            seed: 5,
            shard: s.into(),
            status,
            options: vec!["--invocations".into(), "16".into()],
            ..Summary::default()
        }
    }

    fn names(v: &[Summary]) -> Vec<(String, &Summary)> {
        v.iter().map(|s| (format!("dir-{}", s.shard), s)).collect()
    }

    #[test]
    fn overlapping_splits_are_refused() {
        // 0/1 holds every program, 0/2 the even ones: together they count 0, 2, 4 twice.
        let v = [
            shard("0/1", SummaryStatus::Complete),
            shard("0/2", SummaryStatus::Complete),
        ];
        let e = check(&names(&v), false).unwrap_err();
        assert!(e.contains("overlap"), "{e}");
        let v = [
            shard("0/2", SummaryStatus::Complete),
            shard("0/2", SummaryStatus::Complete),
        ];
        assert!(check(&names(&v), true).unwrap_err().contains("twice"));
    }

    #[test]
    fn a_partition_of_finished_shards_is_accepted() {
        let v = [
            shard("1/3", SummaryStatus::Complete),
            shard("0/3,2/3", SummaryStatus::Complete),
        ];
        assert_eq!(check(&names(&v), false), Ok(()));
    }

    #[test]
    fn missing_or_unfinished_shards_need_partial() {
        let v = [shard("0/2", SummaryStatus::Complete)];
        let e = check(&names(&v), false).unwrap_err();
        assert!(e.contains("1/2 missing"), "{e}");
        assert_eq!(check(&names(&v), true), Ok(()));
        let v = [
            shard("0/2", SummaryStatus::Complete),
            shard("1/2", SummaryStatus::Running),
        ];
        let e = check(&names(&v), false).unwrap_err();
        assert!(e.contains("running"), "{e}");
        assert_eq!(check(&names(&v), true), Ok(()));
    }

    #[test]
    fn different_options_are_different_campaigns() {
        let mut b = shard("1/2", SummaryStatus::Complete);
        b.options = vec!["--invocations".into(), "32".into()];
        let v = [shard("0/2", SummaryStatus::Complete), b];
        let e = check(&names(&v), false).unwrap_err();
        assert!(e.contains("options"), "{e}");
    }

    #[test]
    fn neutral_options_are_left_out() {
        let argv: Vec<String> = [
            "--lang",
            "tgsi",
            "--seed",
            "3",
            "--shard",
            "1/4",
            "--out",
            "x",
            "--invocations",
            "16",
            "--timeout",
            "10s",
            "--no-reduce",
            "--64bit",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        assert_eq!(
            campaign_options(&argv),
            ["--lang", "tgsi", "--invocations", "16", "--64bit"]
        );
    }
}
