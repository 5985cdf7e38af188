//! `shaderdiff conform SUITE_DIR [--backends ..] [--junit FILE] [--baseline FILE]
//! [--partition hash:I/N|count:I/N] [--retries N] [--skips FILE] [--out DIR]`
//! (INTERFACE.md "Commands"): a conformance run in the manner of deqp-runner.
//!
//! The suite is every `*.tgsi` and `*.nv` file under SUITE_DIR (recursively); a program's
//! name is its path relative to SUITE_DIR without the extension (`spec/spec-add-basic`).
//! Each program runs on the oracle and on every selected engine with its
//! `NAME.inputs.json` when there is one, else with `--random-inputs` sets generated from
//! `--seed` (recorded in the JUnit properties and in each replay command). Every (program,
//! engine) pair gets a [`Status`]: `Pass`; `Fail` (a mismatch); `Crash` (the engine failed
//! where the oracle did not); `Timeout` (its step budget); `Skip` (unsupported by the
//! engine or the oracle, or matched by `--skips`); `ExpectedFail` for a mismatch that a
//! known-deviation rule of the engine covers (`results/triage/ENGINE/`, as `diff` reports
//! `known`). `--retries N` reruns a failure up to N
//! times: a result that changes is a `Flake`. `--baseline FILE` then maps expected failures
//! to `ExpectedFail` and expected failures that passed to `UnexpectedPass`.
//!
//! Writes `DIR/results.csv` (every pair: `program,engine,status,seconds`) and
//! `DIR/failures.csv` (the failures and flakes, as they were before the baseline: usable as
//! the next `--baseline`), and with `--junit` the JUnit report. Prints one line per pair
//! that is not a pass or skip and a count per status.
//!
//! Engines run in supervised worker processes ([`crate::cmd::conform_worker`]): an engine that
//! crashes or hangs on a program gets `Crash` or `Timeout` for that program (with the
//! worker's last stderr lines and a replay command), the other engines are still judged,
//! and the run goes on. `--timeout` bounds one program on one engine for one input set;
//! `--in-process` turns isolation off.
//!
//! Exit status: 2 for bad usage or a bad program, inputs, baseline or skips file (nothing
//! is run); 1 when a pair failed unexpectedly or passed unexpectedly; else 0.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Instant;

use clap::Args;
use rayon::prelude::*;
use shaderdiff_model::Program;
use shaderdiff_oracles::Inputs;
use shaderdiff_results::conform::junit::{junit_xml, Case};
use shaderdiff_results::conform::{read_baseline, write_csv, Baseline, Partition, Row, Status};

use crate::cmd::diff::{load_inputs_named, random_inputs, report, sibling_inputs, EngineArgs};
use crate::common::{load_program_named, Failure};
use crate::diff::{Diff, Differ, FailureKind, OracleProblem, Outcome};

/// `shaderdiff conform` arguments.
#[derive(Debug, Args)]
pub struct ConformArgs {
    /// The suite: a directory of programs (searched recursively), each with an optional
    /// NAME.inputs.json beside it.
    #[arg(value_name = "SUITE_DIR")]
    pub suite: PathBuf,
    /// Engines and comparison options.
    #[command(flatten)]
    pub engines: EngineArgs,
    /// Write a JUnit XML report here (one testsuite per engine, one testcase per program).
    #[arg(long, value_name = "FILE")]
    pub junit: Option<PathBuf>,
    /// Expected results: CSV rows `program,engine,status` (a previous failures.csv).
    #[arg(long, value_name = "FILE")]
    pub baseline: Option<PathBuf>,
    /// Skip the programs whose name matches any regex of FILE (one per line, `#` comments).
    #[arg(long, value_name = "FILE")]
    pub skips: Option<PathBuf>,
    /// Run only part I of N: hash:I/N (by name hash) or count:I/N (round-robin), as nextest.
    #[arg(long, value_name = "hash:I/N|count:I/N")]
    pub partition: Option<String>,
    /// Rerun a failing pair up to N times; a result that changes is a Flake.
    #[arg(long, value_name = "N", default_value_t = 0,
          value_parser = clap::value_parser!(u32).range(0..=100))]
    pub retries: u32,
    /// Input sets generated for a program without NAME.inputs.json.
    #[arg(long, value_name = "N", default_value_t = 4,
          value_parser = clap::value_parser!(u64).range(1..=1000))]
    pub random_inputs: u64,
    /// Seed of the generated input sets.
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub seed: u64,
    /// Directory for results.csv and failures.csv.
    #[arg(long, value_name = "DIR", default_value = "conform-out")]
    pub out: PathBuf,
    /// Workers [default: the number of cores].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=1024))]
    pub jobs: Option<u64>,
    /// Longest one program may run on one engine for one input set before its worker is
    /// killed (Timeout).
    #[arg(long, value_name = "DURATION", default_value = "10s", value_parser = humantime::parse_duration)]
    pub timeout: std::time::Duration,
    /// Address-space limit of each worker process (`4GiB`, `512MiB`, `none`).
    #[arg(long, value_name = "SIZE", default_value = "8GiB", value_parser = crate::isolate::parse_memory_limit)]
    pub worker_memory: crate::isolate::MemoryLimit,
    /// Run engines in this process, not in worker processes (no crash or hang isolation).
    #[arg(long)]
    pub in_process: bool,
}

/// One program of the suite, loaded.
pub(crate) struct Entry {
    pub(crate) name: String,
    pub(crate) path: PathBuf,
    /// The program and its input sets, or why the oracle cannot take it (Skip).
    pub(crate) loaded: Result<(Program, Vec<Inputs>, Option<PathBuf>), String>,
}

/// Loads suite program `path` called `name`, with its inputs file or generated inputs.
///
/// # Errors
/// A bad program or inputs file (an unsupported program is `Ok` with `loaded: Err`).
pub(crate) fn load_entry(
    args: &ConformArgs,
    name: String,
    path: PathBuf,
) -> Result<Entry, Failure> {
    let loaded = match load_program_named(&path) {
        Ok((program, names)) => {
            let sibling = sibling_inputs(&path);
            if sibling.is_file() {
                let mut sets = vec![load_inputs_named(&sibling, &program, None, names.as_ref())?];
                crate::common::prepare_sets(&program, names.as_ref(), &mut sets, &name)?;
                Ok((program, sets, Some(sibling)))
            } else {
                let mut sets = random_inputs(
                    &program,
                    args.seed,
                    args.random_inputs,
                    crate::cmd::diff::RANDOM_INVOCATIONS,
                );
                crate::common::prepare_sets(&program, names.as_ref(), &mut sets, &name)?;
                Ok((program, sets, None))
            }
        }
        Err(Failure::Unsupported(m)) => Err(m),
        Err(f) => return Err(f),
    };
    Ok(Entry { name, path, loaded })
}

/// The baseline of `args` (empty without `--baseline`).
///
/// # Errors
/// A bad baseline file.
pub(crate) fn baseline_of(args: &ConformArgs) -> Result<Baseline, Failure> {
    match &args.baseline {
        Some(b) => read_baseline(b).map_err(|e| Failure::BadInput(e.to_string())),
        None => Ok(Baseline::default()),
    }
}

/// Every `*.tgsi` / `*.nv` file under `dir`, sorted by path.
fn suite_files(dir: &Path) -> Result<Vec<PathBuf>, Failure> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let rd = std::fs::read_dir(&d)
            .map_err(|e| Failure::BadInput(format!("{}: {e}", d.display())))?;
        for entry in rd {
            let p = entry
                .map_err(|e| Failure::BadInput(format!("{}: {e}", d.display())))?
                .path();
            if p.is_dir() {
                stack.push(p);
            } else if matches!(p.extension().and_then(|e| e.to_str()), Some("tgsi" | "nv")) {
                out.push(p);
            }
        }
    }
    out.sort();
    if out.is_empty() {
        return Err(Failure::BadInput(format!(
            "{}: no *.tgsi or *.nv programs",
            dir.display()
        )));
    }
    Ok(out)
}

/// The suite name of `path`: relative to `suite`, `/`-separated, without the extension.
fn test_name(suite: &Path, path: &Path) -> String {
    let rel = path.strip_prefix(suite).unwrap_or(path).with_extension("");
    rel.components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect::<Vec<_>>()
        .join("/")
}

/// The regexes of a skips file.
fn read_skips(path: &Path) -> Result<Vec<regex::Regex>, Failure> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| Failure::BadInput(format!("{}: {e}", path.display())))?;
    let mut out = Vec::new();
    for (k, line) in text.lines().enumerate() {
        let t = line.trim();
        if t.is_empty() || t.starts_with('#') {
            continue;
        }
        let col = line.len() - line.trim_start().len() + 1;
        let re = regex::Regex::new(t).map_err(|e| {
            let first = e
                .to_string()
                .lines()
                .last()
                .unwrap_or("")
                .trim()
                .to_string();
            Failure::BadInput(format!(
                "{}:{}:{col}: bad regex: {first}",
                path.display(),
                k + 1
            ))
        })?;
        out.push(re);
    }
    Ok(out)
}

/// The raw status of engine `e` over the diffs of every input set, with a one-line reason.
fn raw_status(diffs: &[Diff], e: usize) -> (Status, Option<String>) {
    let mut status = Status::Pass;
    let mut reason = None;
    let rank = |s: Status| match s {
        Status::Crash => 5,
        Status::Timeout => 4,
        Status::Fail => 3,
        Status::ExpectedFail => 2,
        Status::Pass => 1,
        _ => 0,
    };
    let mut unsupported = 0;
    for (k, d) in diffs.iter().enumerate() {
        if let Err(p) = &d.oracle {
            let why = match p {
                OracleProblem::Unsupported(m) => format!("oracle: unsupported: {m}"),
                OracleProblem::BadInput(m) => format!("oracle: bad input: {m}"),
                OracleProblem::Failed(m) => format!("oracle failed: {m}"),
            };
            return (Status::Skip, Some(why));
        }
        let Some(o) = d.engines.get(e) else { continue };
        let (s, why) = match &o.outcome {
            Outcome::Agree { .. } => continue,
            Outcome::Unsupported(m) => {
                unsupported += 1;
                reason.get_or_insert_with(|| format!("unsupported: {m}"));
                continue;
            }
            Outcome::Mismatch(ms) => {
                let m = &ms[0];
                let why = format!(
                    "input set {k}: {} invocation {} .{} ({}): expected {}, got {} ({}; {} differing channels)",
                    m.register, m.invocation, m.channel, m.ty, m.expected, m.actual, m.tolerance, ms.len()
                );
                (Status::Fail, why)
            }
            // Known-deviation rules cover the mismatch: expected, as a baseline entry.
            Outcome::Known { rules, mismatches } => (
                Status::ExpectedFail,
                format!(
                    "input set {k}: known {} ({} differing channels)",
                    rules.join(","),
                    mismatches.len()
                ),
            ),
            Outcome::Failed { kind, message } => {
                let s = if *kind == FailureKind::StepLimit {
                    Status::Timeout
                } else {
                    Status::Crash
                };
                (s, format!("input set {k}: {}: {message}", kind.name()))
            }
        };
        if rank(s) > rank(status) {
            status = s;
            reason = Some(why);
        }
    }
    if status == Status::Pass && unsupported > 0 {
        return (Status::Skip, reason);
    }
    if status == Status::Pass {
        reason = None;
    }
    (status, reason)
}

/// One pair's result.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub(crate) struct PairResult {
    pub(crate) case: Case,
    /// The status before the baseline (what failures.csv records).
    pub(crate) raw: Status,
}

/// `shaderdiff worker conform ARGS`: serves program requests on stdin
/// ([`crate::cmd::conform_worker`]).
pub fn worker(args: &ConformArgs) -> u8 {
    crate::cmd::conform_worker::worker_main(args)
}

/// Runs `shaderdiff conform`; returns the exit status.
pub fn execute(args: &ConformArgs) -> u8 {
    match conform(args) {
        Ok(code) => code,
        Err(f) => {
            eprintln!("{}", f.message());
            f.code()
        }
    }
}

fn conform(args: &ConformArgs) -> Result<u8, Failure> {
    let partition: Option<Partition> =
        match &args.partition {
            Some(p) => Some(p.parse().map_err(
                |e: shaderdiff_results::conform::PartitionError| Failure::BadInput(e.to_string()),
            )?),
            None => None,
        };
    let baseline = baseline_of(args)?;
    let skips = match &args.skips {
        Some(s) => read_skips(s)?,
        None => Vec::new(),
    };
    let differ = args.engines.differ()?;
    let files = suite_files(&args.suite)?;
    let mut named: Vec<(String, PathBuf)> = files
        .into_iter()
        .map(|p| (test_name(&args.suite, &p), p))
        .collect();
    if let Some(part) = partition {
        let names: Vec<&str> = named.iter().map(|(n, _)| n.as_str()).collect();
        let keep: std::collections::BTreeSet<String> = part
            .select(&names)
            .into_iter()
            .map(str::to_string)
            .collect();
        named.retain(|(n, _)| keep.contains(n));
    }
    // Load everything first: a bad program or inputs file stops the run before it starts.
    let mut entries = Vec::with_capacity(named.len());
    for (name, path) in named {
        if skips.iter().any(|r| r.is_match(&name)) {
            entries.push(Entry {
                name,
                path,
                loaded: Err("skipped by --skips".to_string()),
            });
        } else {
            entries.push(load_entry(args, name, path)?);
        }
    }
    // Two runs into one folder would overwrite each other's results (docs/campaigns.md
    // "The output lock"); the lock also creates the folder.
    let _lock = crate::lock::acquire(&args.out)?;

    let results: Vec<Vec<PairResult>> = if args.in_process {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(args.jobs.unwrap_or(0) as usize)
            .build()
            .map_err(|e| Failure::BadInput(format!("--jobs: {e}")))?;
        pool.install(|| {
            entries
                .par_iter()
                .map(|entry| run_entry(&differ, args, &baseline, entry))
                .collect()
        })
    } else {
        crate::cmd::conform_worker::run_isolated(args, &entries, &differ.engine_names(), &baseline)?
    };
    let pairs: Vec<PairResult> = results.into_iter().flatten().collect();

    let rows: Vec<Row> = pairs
        .iter()
        .map(|p| Row {
            program: p.case.program.clone(),
            engine: p.case.engine.clone(),
            status: p.case.status,
            duration_s: Some(p.case.duration_s),
        })
        .collect();
    let failures: Vec<Row> = pairs
        .iter()
        .filter(|p| p.raw.is_failure() || p.raw == Status::Flake)
        .map(|p| Row {
            program: p.case.program.clone(),
            engine: p.case.engine.clone(),
            status: p.raw,
            duration_s: None,
        })
        .collect();
    let io = |e: String| Failure::Run(e);
    write_csv(&args.out.join("results.csv"), &rows, true).map_err(io)?;
    write_csv(&args.out.join("failures.csv"), &failures, false).map_err(io)?;
    if let Some(j) = &args.junit {
        let mut props = vec![
            ("seed".to_string(), args.seed.to_string()),
            ("random_inputs".to_string(), args.random_inputs.to_string()),
            ("retries".to_string(), args.retries.to_string()),
        ];
        if let Some(p) = &partition {
            props.push(("partition".into(), p.to_string()));
        }
        if let Some(f) = &args.engines.inject_fault {
            props.push(("fault".into(), f.clone()));
        }
        let cases: Vec<Case> = pairs.iter().map(|p| p.case.clone()).collect();
        let xml = junit_xml("shaderdiff-conform", &cases, &props).map_err(io)?;
        shaderdiff_results::atomic_write(j, xml.as_bytes())
            .map_err(|e| Failure::Run(format!("{}: {e}", j.display())))?;
    }

    let mut text = String::new();
    let mut counts: BTreeMap<Status, usize> = BTreeMap::new();
    for p in &pairs {
        *counts.entry(p.case.status).or_default() += 1;
        if !matches!(p.case.status, Status::Pass | Status::Skip) {
            text.push_str(&format!(
                "{} {} {}: {}\n",
                p.case.status,
                p.case.program,
                p.case.engine,
                p.case.message.as_deref().unwrap_or("")
            ));
        }
    }
    let summary: Vec<String> = counts.iter().map(|(s, n)| format!("{s}: {n}")).collect();
    let programs = entries.len();
    text.push_str(&format!(
        "conform: {programs} programs, {} results ({}); results: {}\n",
        pairs.len(),
        summary.join(", "),
        args.out.join("results.csv").display()
    ));
    crate::common::emit(&text)?;
    Ok(if pairs.iter().any(|p| p.case.status.fails_run()) {
        1
    } else {
        0
    })
}

/// The results of one program on every engine.
pub(crate) fn run_entry(
    differ: &Differ,
    args: &ConformArgs,
    baseline: &Baseline,
    entry: &Entry,
) -> Vec<PairResult> {
    let engines = differ.engine_names();
    let (program, sets, inputs_file) = match &entry.loaded {
        Ok(l) => l,
        Err(why) => {
            return engines
                .iter()
                .map(|e| skip_pair(&entry.name, e, why))
                .collect()
        }
    };
    let t0 = Instant::now();
    let diffs = differ.diff_inputs(program, sets);
    let elapsed = t0.elapsed().as_secs_f64() / engines.len().max(1) as f64;
    let mut out = Vec::new();
    let report_json = std::cell::OnceCell::new();
    for (e, engine) in engines.iter().enumerate() {
        let (first, reason) = raw_status(&diffs, e);
        let mut raw = first;
        let mut failed_runs = Vec::new();
        let mut last_reason = reason.clone();
        if first.is_failure() {
            failed_runs.push((first, reason.clone().unwrap_or_default()));
            for _ in 0..args.retries {
                let again = differ.diff_inputs(program, sets);
                let (s, r) = raw_status(&again, e);
                if s != first {
                    raw = Status::Flake;
                    last_reason = Some(format!(
                        "{first} then {s} on a rerun: {}",
                        reason.clone().unwrap_or_default()
                    ));
                    break;
                }
                failed_runs.push((s, r.unwrap_or_default()));
            }
        }
        let status = baseline.apply(&entry.name, engine, raw);
        let message = match status {
            Status::UnexpectedPass => Some(format!(
                "passed, but the baseline expects {}",
                baseline.get(&entry.name, engine).map_or("?", |s| s.name())
            )),
            // A known deviation (raw ExpectedFail) says so itself.
            Status::ExpectedFail if raw == Status::ExpectedFail => last_reason.clone(),
            Status::ExpectedFail => last_reason
                .clone()
                .map(|r| format!("{raw} (expected): {r}")),
            _ => last_reason.clone(),
        };
        let details = status.fails_run().then(|| {
            // One diff report per program (it covers every engine), made once.
            let json = report_json.get_or_init(|| {
                let path = entry.path.display().to_string();
                report(differ, &path, program, sets).to_json_line()
            });
            details(args, entry, inputs_file.as_deref(), engine, json)
        });
        // The first run is the reported one; when it was retried, the later failing runs
        // are reruns (or, for a flake, the failing runs before the pass).
        let failed_runs = if raw == Status::Flake {
            failed_runs
        } else {
            failed_runs.into_iter().skip(1).collect()
        };
        out.push(PairResult {
            case: Case {
                program: entry.name.clone(),
                engine: engine.clone(),
                status,
                duration_s: elapsed,
                message,
                details,
                failed_runs,
            },
            raw,
        });
    }
    out
}

pub(crate) fn skip_pair(name: &str, engine: &str, why: &str) -> PairResult {
    PairResult {
        case: Case {
            program: name.to_string(),
            engine: engine.to_string(),
            status: Status::Skip,
            duration_s: 0.0,
            message: Some(why.to_string()),
            details: None,
            failed_runs: Vec::new(),
        },
        raw: Status::Skip,
    }
}

/// The command that replays a failing pair, then the program's diff report (`json`).
pub(crate) fn details(
    args: &ConformArgs,
    entry: &Entry,
    inputs_file: Option<&Path>,
    engine: &str,
    json: &str,
) -> String {
    let path = entry.path.display().to_string();
    let inputs = match inputs_file {
        Some(f) => format!("--inputs {}", f.display()),
        None => format!(
            "--random-inputs {} --seed {} --invocations {}",
            args.random_inputs,
            args.seed,
            crate::cmd::diff::RANDOM_INVOCATIONS
        ),
    };
    let fault = args
        .engines
        .inject_fault
        .as_ref()
        .map(|f| format!(" --inject-fault {f}"))
        .unwrap_or_default();
    format!("replay: shaderdiff diff {path} {inputs} --backends interp,{engine}{fault}\n{json}\n")
}
