//! `shaderdiff merge DIR... --out DIR`: combines the output directories of the shards of one
//! campaign (`fuzz --shard I/N`, one directory per shard) into one.
//!
//! The shards must come from the same campaign: same seed, generator version, language,
//! engines and fault, and no shard twice. The merged `summary.json` adds up programs,
//! mismatches, unsupported pairs and oracle skips; `elapsed_s` is the longest shard's (they
//! run side by side) and `shard` lists the shards (`0/3,1/3,2/3`). Findings are
//! deduplicated by signature: counts add up, `first_index` is the smallest (positions are
//! campaign-wide), and the finding directory copied is the one whose reproducer is smallest
//! (then the earliest). Every file is written atomically.
//!
//! The shards must partition the campaign: one split (`N`), no shard twice, every shard
//! present and complete, unless `--partial` ([`shaderdiff_results::merge_check`]). The
//! output directory is locked ([`crate::lock`]) while it is written.
//!
//! Exit status: 2 when a directory has no readable `summary.json` or the shards do not
//! partition one campaign; 4 when the output cannot be written or is locked by another
//! run; 1 when the merged campaign has findings (as `fuzz`); else 0.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use clap::Args;
use shaderdiff_results::{atomic_write, FindingEntry, Store, Summary, SummaryStatus};

use crate::common::Failure;

/// `shaderdiff merge` arguments.
#[derive(Debug, Args)]
pub struct MergeArgs {
    /// Shard output directories (`fuzz --out`).
    #[arg(required = true, value_name = "DIR")]
    pub dirs: Vec<PathBuf>,
    /// The merged directory (created; findings already in it are replaced by the merged ones).
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
    /// Also merge shards that are not finished (running, interrupted, failed) and a set of
    /// shards that does not cover the whole campaign; the merged status says so.
    #[arg(long)]
    pub partial: bool,
}

/// Runs `shaderdiff merge`; returns the exit status.
pub fn execute(args: &MergeArgs) -> u8 {
    match merge(args) {
        Ok(code) => code,
        Err(f) => {
            eprintln!("{}", f.message());
            f.code()
        }
    }
}

fn bad(m: String) -> Failure {
    Failure::BadInput(m)
}

/// The merged summary of `shards` (directory, summary) and, per signature, the shard
/// directory whose finding is kept. Unless `partial`, the shards must be every shard of
/// the campaign, each complete ([`shaderdiff_results::merge_check`]).
///
/// # Errors
/// Shards of different campaigns, overlapping shards, and (unless `partial`) missing or
/// unfinished ones ([`Failure::BadInput`]).
pub fn merge_checked(
    shards: &[(PathBuf, Summary)],
    partial: bool,
) -> Result<(Summary, BTreeMap<String, PathBuf>), Failure> {
    let named: Vec<(String, &Summary)> = shards
        .iter()
        .map(|(d, s)| (d.display().to_string(), s))
        .collect();
    shaderdiff_results::merge_check::check(&named, partial).map_err(bad)?;
    merge_summaries(shards)
}

/// The merged summary of `shards` (directory, summary) and, per signature, the shard
/// directory whose finding is kept. Checks only that the shards are of one campaign and
/// none is given twice; [`merge_checked`] checks that they partition it.
///
/// # Errors
/// Shards of different campaigns, or the same shard twice ([`Failure::BadInput`]).
pub fn merge_summaries(
    shards: &[(PathBuf, Summary)],
) -> Result<(Summary, BTreeMap<String, PathBuf>), Failure> {
    let (first_dir, first) = shards
        .first()
        .ok_or_else(|| bad("merge: no directories".into()))?;
    let mut seen_shards: Vec<&str> = Vec::new();
    for (dir, s) in shards {
        let differs = |what: &str, a: &str, b: &str| {
            bad(format!(
                "{}: {what} {b} differs from {}'s {a}: not shards of one campaign",
                dir.display(),
                first_dir.display()
            ))
        };
        if s.seed != first.seed {
            return Err(differs(
                "seed",
                &first.seed.to_string(),
                &s.seed.to_string(),
            ));
        }
        if s.generator_version != first.generator_version {
            return Err(differs(
                "generator version",
                &first.generator_version,
                &s.generator_version,
            ));
        }
        if s.lang != first.lang {
            return Err(differs("language", &first.lang, &s.lang));
        }
        if s.engines != first.engines {
            return Err(differs(
                "engines",
                &first.engines.join(","),
                &s.engines.join(","),
            ));
        }
        if s.fault != first.fault {
            let f = |x: &Option<String>| x.clone().unwrap_or_else(|| "none".into());
            return Err(differs("fault", &f(&first.fault), &f(&s.fault)));
        }
        if seen_shards.contains(&s.shard.as_str()) {
            return Err(bad(format!(
                "{}: shard {} is given twice",
                dir.display(),
                s.shard
            )));
        }
        seen_shards.push(&s.shard);
    }
    let mut m = first.clone();
    m.programs = shards.iter().map(|(_, s)| s.programs).sum();
    m.mismatches = shards.iter().map(|(_, s)| s.mismatches).sum();
    m.unsupported = shards.iter().map(|(_, s)| s.unsupported).sum();
    m.oracle_skipped = shards.iter().map(|(_, s)| s.oracle_skipped).sum();
    m.poisoned = shards.iter().map(|(_, s)| s.poisoned).sum();
    m.elapsed_s = shards.iter().map(|(_, s)| s.elapsed_s).fold(0.0, f64::max);
    m.programs_per_s = if m.elapsed_s > 0.0 {
        m.programs as f64 / m.elapsed_s
    } else {
        0.0
    };
    m.jobs = shards.iter().map(|(_, s)| s.jobs).sum();
    let mut shard_names: Vec<String> = shards.iter().map(|(_, s)| s.shard.clone()).collect();
    shard_names.sort();
    m.shard = shard_names.join(",");
    m.status = if shards
        .iter()
        .any(|(_, s)| s.status == SummaryStatus::Failed)
    {
        SummaryStatus::Failed
    } else if shards
        .iter()
        .any(|(_, s)| s.status == SummaryStatus::Running)
    {
        SummaryStatus::Running
    } else if shards
        .iter()
        .any(|(_, s)| s.status == SummaryStatus::Interrupted)
    {
        SummaryStatus::Interrupted
    } else {
        SummaryStatus::Complete
    };
    // Per signature: the merged entry and the shard whose finding is kept.
    let mut merged: BTreeMap<String, (FindingEntry, PathBuf)> = BTreeMap::new();
    for (dir, s) in shards {
        for f in &s.findings {
            let better = |kept: &FindingEntry| {
                let key = |e: &FindingEntry| {
                    (
                        !e.reduced,
                        e.reduced_instructions.unwrap_or(usize::MAX),
                        e.first_index.unwrap_or(u64::MAX),
                    )
                };
                key(f) < key(kept)
            };
            match merged.get_mut(&f.signature) {
                None => {
                    merged.insert(f.signature.clone(), (f.clone(), dir.clone()));
                }
                Some((kept, kept_dir)) => {
                    let count = kept.count + f.count;
                    let first_index = match (kept.first_index, f.first_index) {
                        (Some(a), Some(b)) => Some(a.min(b)),
                        (a, b) => a.or(b),
                    };
                    if better(kept) {
                        *kept = f.clone();
                        *kept_dir = dir.clone();
                    }
                    kept.count = count;
                    kept.first_index = first_index;
                }
            }
        }
    }
    m.unique_findings = merged.len() as u64;
    m.findings = merged.values().map(|(f, _)| f.clone()).collect();
    let sources = merged
        .into_iter()
        .map(|(sig, (_, dir))| (sig, dir))
        .collect();
    Ok((m, sources))
}

fn copy_dir(from: &Path, to: &Path) -> Result<(), Failure> {
    let io = |p: &Path, e: std::io::Error| Failure::Run(format!("{}: {e}", p.display()));
    std::fs::create_dir_all(to).map_err(|e| io(to, e))?;
    for entry in std::fs::read_dir(from).map_err(|e| io(from, e))? {
        let p = entry.map_err(|e| io(from, e))?.path();
        if p.is_file() {
            let bytes = std::fs::read(&p).map_err(|e| io(&p, e))?;
            let name = p.file_name().unwrap_or_default();
            atomic_write(&to.join(name), &bytes).map_err(|e| Failure::Run(e.to_string()))?;
        }
    }
    Ok(())
}

fn merge(args: &MergeArgs) -> Result<u8, Failure> {
    let mut shards = Vec::new();
    for d in &args.dirs {
        let file = d.join("summary.json");
        let text = std::fs::read_to_string(&file).map_err(|e| {
            bad(format!(
                "{}: {e} (not a fuzz --out directory?)",
                file.display()
            ))
        })?;
        let s: Summary = serde_json::from_str(&text).map_err(|e| {
            bad(format!(
                "{}:{}:{}: {e}",
                file.display(),
                e.line(),
                e.column()
            ))
        })?;
        shards.push((d.clone(), s));
    }
    let (summary, sources) = merge_checked(&shards, args.partial)?;
    let _lock = crate::lock::acquire(&args.out)?;
    let out = Store::create(&args.out).map_err(|e| Failure::Run(e.to_string()))?;
    for (sig, dir) in &sources {
        let from = dir.join("findings").join(sig);
        if from.is_dir() {
            copy_dir(&from, &args.out.join("findings").join(sig))?;
        }
    }
    out.write_summary(&summary)
        .map_err(|e| Failure::Run(e.to_string()))?;
    let text = format!(
        "merge: {} shards ({}), {} programs, {} mismatches, {} unique findings\nsummary: {}\n",
        shards.len(),
        summary.shard,
        summary.programs,
        summary.mismatches,
        summary.unique_findings,
        args.out.join("summary.json").display()
    );
    crate::common::emit(&text)?;
    Ok(if summary.mismatches > 0 { 1 } else { 0 })
}
