//! `conform` programs in supervised worker processes (a crashing engine never ends the run).
//!
//! **Worker** (`shaderdiff worker conform ARGS`, [`worker_main`]): the same arguments as
//! the supervisor; for each [`Request`] it loads the program, optionally runs it on every
//! engine alone first with a `Begin` per engine (probe mode), judges it
//! ([`run_entry`], retries and baseline included) and answers with the pairs.
//!
//! **Supervisor** ([`run_isolated`]): `--jobs` threads, each with one worker, take
//! programs in suite order. A program whose worker dies is sent again in probe mode; the
//! engine named by the last `Begin` gets `Crash` or `Timeout` (resource exhaustion: `Skip`,
//! "poisoned"), with the worker's last stderr lines and a replay command, and the program
//! is sent again without that engine until the remaining engines are judged. A death
//! outside any engine's run (or in the oracle's) charges every remaining engine.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Duration;

use serde::{Deserialize, Serialize};
use shaderdiff_results::conform::junit::Case;
use shaderdiff_results::conform::{Baseline, Status};

use crate::cmd::conform::{
    baseline_of, details, load_entry, run_entry, skip_pair, ConformArgs, Entry, PairResult,
};
use crate::common::Failure;
use crate::diff::{Differ, ORACLE};
use crate::isolate::{Death, Recv, WorkerChannel, WorkerProcess, WorkerSpec};

/// Supervisor → worker: judge one program.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Request {
    /// Suite name.
    pub name: String,
    /// Program file.
    pub path: PathBuf,
    /// Run it on each engine alone first, announcing each.
    pub probe: bool,
    /// Engines to leave out (they already died on it).
    pub exclude: Vec<String>,
}

/// Worker → supervisor.
#[derive(Clone, Debug, Serialize, Deserialize)]
enum Message {
    Ready,
    /// An engine run (probe mode) or `compare` starts.
    Begin(String),
    /// The judged pairs.
    Pairs(Vec<PairResult>),
    /// The program or a file could not be read (it was read fine by the supervisor: a
    /// changing suite).
    Error(String),
}

/// The worker's loop; returns its exit status.
pub fn worker_main(args: &ConformArgs) -> u8 {
    let baseline = match baseline_of(args) {
        Ok(b) => b,
        Err(f) => {
            eprintln!("{}", f.message());
            return f.code();
        }
    };
    let mut channel = WorkerChannel::default();
    let mut differs: BTreeMap<Vec<String>, Differ> = BTreeMap::new();
    if !channel.send(&Message::Ready) {
        return 0;
    }
    while let Some(req) = channel.recv::<Request>() {
        let reply = match serve(args, &baseline, &mut differs, &req, &mut channel) {
            Ok(pairs) => Message::Pairs(pairs),
            Err(f) => Message::Error(f.message().to_string()),
        };
        if !channel.send(&reply) {
            return 0;
        }
    }
    0
}

fn serve(
    args: &ConformArgs,
    baseline: &Baseline,
    differs: &mut BTreeMap<Vec<String>, Differ>,
    req: &Request,
    channel: &mut WorkerChannel,
) -> Result<Vec<PairResult>, Failure> {
    let entry = load_entry(args, req.name.clone(), req.path.clone())?;
    if !differs.contains_key(&req.exclude) {
        let mut engines = args.engines.clone();
        engines.backends.retain(|b| !req.exclude.contains(b));
        let d = engines.differ_with(engines.step_limit, false)?;
        differs.insert(req.exclude.clone(), d);
    }
    let differ = &differs[&req.exclude];
    if req.probe {
        if let Ok((program, sets, _)) = &entry.loaded {
            for inputs in sets {
                differ.run_each_engine(program, inputs, &mut |name| {
                    let _ = channel.send(&Message::Begin(name.to_string()));
                });
            }
        }
    }
    let _ = channel.send(&Message::Begin("compare".into()));
    Ok(run_entry(differ, args, baseline, &entry))
}

/// How one request ended.
enum Ended {
    Pairs(Vec<PairResult>),
    Died(Death, Option<String>),
}

/// Judges every entry in worker processes; results in entry order.
///
/// # Errors
/// A worker that cannot be started, or a program a worker could not read.
pub(crate) fn run_isolated(
    args: &ConformArgs,
    entries: &[Entry],
    engines: &[String],
    baseline: &Baseline,
) -> Result<Vec<Vec<PairResult>>, Failure> {
    let spec = WorkerSpec {
        args: ["worker", "conform"]
            .iter()
            .map(Into::into)
            .chain(conform_args())
            .collect(),
        memory_limit: args.worker_memory.0,
    };
    let jobs = args.jobs.map(|j| j as usize).unwrap_or_else(|| {
        std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1)
    });
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<Vec<PairResult>>>> = Mutex::new(vec![None; entries.len()]);
    let error: Mutex<Option<Failure>> = Mutex::new(None);
    std::thread::scope(|s| {
        for _ in 0..jobs.min(entries.len()).max(1) {
            s.spawn(|| {
                let mut worker: Option<WorkerProcess> = None;
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= entries.len() || error.lock().map(|e| e.is_some()).unwrap_or(true) {
                        break;
                    }
                    match judge(args, &spec, &mut worker, &entries[i], engines, baseline) {
                        Ok(pairs) => {
                            if let Ok(mut r) = results.lock() {
                                r[i] = Some(pairs);
                            }
                        }
                        Err(f) => {
                            if let Ok(mut e) = error.lock() {
                                e.get_or_insert(f);
                            }
                            break;
                        }
                    }
                }
                if let Some(w) = worker {
                    w.finish();
                }
            });
        }
    });
    if let Some(f) = error.into_inner().ok().flatten() {
        return Err(f);
    }
    Ok(results
        .into_inner()
        .unwrap_or_default()
        .into_iter()
        .map(Option::unwrap_or_default)
        .collect())
}

/// This process's `conform` arguments (everything after `conform`), for the workers,
/// without the limit flags (`--max-*`, all global): the worker command line gets those
/// from `limits::worker_args`, and clap refuses a flag given twice.
fn conform_args() -> Vec<std::ffi::OsString> {
    let mut out = Vec::new();
    let mut args = std::env::args_os().skip_while(|a| a != "conform").skip(1);
    while let Some(a) = args.next() {
        match a.to_str() {
            Some(f) if f.starts_with("--max-") => {
                if !f.contains('=') {
                    args.next(); // its value
                }
            }
            _ => out.push(a),
        }
    }
    out
}

/// The pairs of one entry, however many workers it takes.
fn judge(
    args: &ConformArgs,
    spec: &WorkerSpec,
    worker: &mut Option<WorkerProcess>,
    entry: &Entry,
    engines: &[String],
    baseline: &Baseline,
) -> Result<Vec<PairResult>, Failure> {
    let sets = match &entry.loaded {
        Ok((_, sets, _)) => sets.len(),
        Err(why) => {
            return Ok(engines
                .iter()
                .map(|e| skip_pair(&entry.name, e, why))
                .collect())
        }
    };
    // A whole judgement: every input set on the oracle and every engine, with retries.
    let whole = args.timeout * ((sets * (engines.len() + 1)) as u32) * (args.retries + 1);
    let mut req = Request {
        name: entry.name.clone(),
        path: entry.path.clone(),
        probe: false,
        exclude: Vec::new(),
    };
    if let Ended::Pairs(p) = ask(spec, worker, &req, whole, args.timeout)? {
        return Ok(p);
    }
    req.probe = true;
    let mut died: Vec<PairResult> = Vec::new();
    let mut judged: Vec<PairResult> = Vec::new();
    loop {
        let remaining: Vec<&String> = engines
            .iter()
            .filter(|e| !req.exclude.contains(e))
            .collect();
        if remaining.is_empty() {
            break;
        }
        match ask(spec, worker, &req, whole, args.timeout)? {
            Ended::Pairs(p) => {
                judged = p;
                break;
            }
            Ended::Died(death, phase) => {
                let culprit = phase.filter(|p| remaining.contains(&p));
                match culprit {
                    Some(e) => {
                        died.push(death_pair(args, entry, &e, &death, baseline));
                        req.exclude.push(e);
                    }
                    None => {
                        // The oracle or the harness died: every remaining engine is charged.
                        for e in remaining {
                            died.push(death_pair(args, entry, e, &death, baseline));
                        }
                        break;
                    }
                }
            }
        }
    }
    let mut all: Vec<PairResult> = died.into_iter().chain(judged).collect();
    all.sort_by_key(|p| engines.iter().position(|e| *e == p.case.engine));
    Ok(all)
}

/// Sends one request (starting a worker if needed) and waits for its pairs.
fn ask(
    spec: &WorkerSpec,
    slot: &mut Option<WorkerProcess>,
    req: &Request,
    whole: Duration,
    step: Duration,
) -> Result<Ended, Failure> {
    if slot.is_none() {
        let wait = step.max(Duration::from_secs(30));
        let w = WorkerProcess::spawn_ready(spec, wait, |m: &Message| matches!(m, Message::Ready))
            .map_err(Failure::Run)?;
        *slot = Some(w);
    }
    let Some(w) = slot.as_mut() else {
        return Err(Failure::Run("no worker".into()));
    };
    let _ = w.send(req);
    let mut phase: Option<String> = None;
    loop {
        // Probe mode announces each engine run: each gets `step`; otherwise the whole.
        let wait = if req.probe { step } else { whole };
        match w.recv::<Message>(wait) {
            Recv::Message(Message::Begin(p)) => phase = Some(p),
            Recv::Message(Message::Pairs(p)) => return Ok(Ended::Pairs(p)),
            Recv::Message(Message::Error(e)) => return Err(Failure::BadInput(e)),
            Recv::Message(Message::Ready) => {}
            Recv::Died(d) => {
                *slot = None;
                let phase = phase.filter(|p| p != "compare");
                return Ok(Ended::Died(d, phase));
            }
        }
    }
}

/// The pair of an engine whose worker died on the entry.
fn death_pair(
    args: &ConformArgs,
    entry: &Entry,
    engine: &str,
    death: &Death,
    baseline: &Baseline,
) -> PairResult {
    let raw = match death {
        Death::Crash { .. } => Status::Crash,
        Death::Timeout => Status::Timeout,
        Death::Poisoned { .. } => Status::Skip,
    };
    let what = if engine == ORACLE {
        "the oracle's worker".to_string()
    } else {
        format!("worker died running {engine}")
    };
    let last = death
        .detail()
        .lines()
        .find(|l| l.contains("memory allocation of"))
        .or_else(|| death.detail().lines().last())
        .map(|l| format!(": {l}"))
        .unwrap_or_default();
    let message = match death {
        Death::Poisoned { .. } => format!("poisoned: {what} ran out of resources{last}"),
        Death::Timeout => format!(
            "{what}: no answer within {}",
            humantime::format_duration(args.timeout)
        ),
        Death::Crash { .. } => format!("{what}: {}{last}", death.describe()),
    };
    let status = baseline.apply(&entry.name, engine, raw);
    let inputs_file = entry.loaded.as_ref().ok().and_then(|(_, _, f)| f.clone());
    let report = serde_json::json!({
        "program": entry.path.display().to_string(),
        "verdict": death.describe(),
        "engine": engine,
        "stderr": death.detail(),
    })
    .to_string();
    PairResult {
        case: Case {
            program: entry.name.clone(),
            engine: engine.to_string(),
            status,
            duration_s: 0.0,
            message: Some(message),
            details: status
                .fails_run()
                .then(|| details(args, entry, inputs_file.as_deref(), engine, &report)),
            failed_runs: Vec::new(),
        },
        raw,
    }
}
