//! Differential campaigns (`shaderdiff fuzz`): generated programs on the oracle and every
//! engine, findings deduplicated by signature, reduced and stored as they are found.
//!
//! **Program stream.** Position `k` of shard `I/N` is program `I + k·N` of campaign `seed`
//! ([`stream_index`]; `shaderdiff_generators::random::generate`), so shards never overlap
//! and the same seed and shard give the same programs, in the same order, on any machine.
//! `--programs P` takes positions `0..P`; `--time` stops at the next chunk boundary.
//!
//! **Parallelism.** `jobs` rayon workers take chunks of [`CHUNK`] consecutive positions from
//! a shared counter; each chunk is generated, prepared in one batch per engine
//! ([`Differ::diff_batch`]: the jit compiles it into one code module, released when the
//! chunk is done, so memory stays flat) and compared.
//!
//! **Findings.** A diverging engine's first divergence is located ([`locate`]) and its
//! signature looked up. A new signature is written at once into
//! `DIR/findings/<signature>/` (`program.tgsi`, `program.inputs.json`, `inputs.json`,
//! `report.json`, `finding.json`), then reduced ([`reduce`]) and `reduced.tgsi`,
//! `inputs.json` (now the reduced inputs) and `report.json` (the reduced program's report)
//! are written; a known signature only counts. Every file is written atomically, and
//! `summary.json` is rewritten every [`SUMMARY_PERIOD`] and at the end, so an interrupted
//! campaign loses nothing it already found. When the oracle is suspect (two or more engines
//! agree against it) the signature names the oracle (`interp-...`).

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use shaderdiff_generators::random::{generate, Generated, RandomConfig};
use shaderdiff_generators::GENERATOR_VERSION;
use shaderdiff_oracles::Inputs;
use shaderdiff_results::{FindingEntry, Signature, Store, StoreError, Summary, SummaryStatus};

use crate::diff::{Diff, Differ, ORACLE};
use crate::inputs_json;
use crate::reduce::{reduce, size, stamped_text, ReduceOptions};
use crate::report::{DiffReport, SignatureRecord};
use crate::signature::locate;

/// Stream positions per work chunk.
pub const CHUNK: u64 = 64;
/// How often `summary.json` is rewritten while the campaign runs.
pub const SUMMARY_PERIOD: Duration = Duration::from_secs(2);

/// Program number of stream position `k` of shard `shard = (I, N)`: `I + k·N`.
pub fn stream_index(shard: (u64, u64), k: u64) -> u64 {
    shard.0 + k * shard.1
}

/// FNV-1a 64 of a program text (the program log's fingerprint).
pub fn fingerprint(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ b as u64).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// What a campaign does.
#[derive(Clone, Debug)]
pub struct Campaign {
    /// Campaign seed.
    pub seed: u64,
    /// `(I, N)`: this machine's shard.
    pub shard: (u64, u64),
    /// Generator configuration.
    pub config: RandomConfig,
    /// Stop after this many programs.
    pub programs: Option<u64>,
    /// Stop after this long.
    pub time: Option<Duration>,
    /// Worker threads.
    pub jobs: usize,
    /// Reduce new findings.
    pub reduce: bool,
    /// Time budget of one reduction.
    pub reduce_time: Duration,
    /// Keep `(index, fingerprint)` of every program (written as `programs.log`).
    pub log_programs: bool,
    /// `--inject-fault`, recorded in the summary and in each finding's replay command.
    pub fault: Option<String>,
    /// `--lang`, recorded in the summary.
    pub lang: String,
}

/// Live counters, for progress display.
#[derive(Debug, Default)]
pub struct Stats {
    /// Programs compared.
    pub programs: AtomicU64,
    /// Programs with a divergence.
    pub mismatches: AtomicU64,
    /// Engine × program pairs unsupported.
    pub unsupported: AtomicU64,
    /// Programs the oracle could not run.
    pub oracle_skipped: AtomicU64,
    /// Unique signatures of this campaign.
    pub findings: AtomicU64,
}

/// What a finished campaign returns.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// The final summary (also in `DIR/summary.json`).
    pub summary: Summary,
    /// `(program index, fingerprint)` in stream order, when logging was asked for.
    pub program_log: Vec<(u64, u64)>,
}

struct Shared<'a> {
    campaign: &'a Campaign,
    differ: &'a Differ,
    reducer: &'a Differ,
    store: &'a Store,
    stats: &'a Stats,
    stop: &'a AtomicBool,
    start: Instant,
    next_chunk: AtomicU64,
    findings: Mutex<BTreeMap<String, FindingEntry>>,
    log: Mutex<Vec<(u64, u64)>>,
    last_summary: Mutex<Instant>,
    errors: Mutex<Vec<String>>,
}

/// Runs a campaign into `store`: `differ` compares, `reducer` (the same engines with a
/// small step budget, [`crate::reduce::REDUCE_STEP_LIMIT`]) reduces. `stop` ends it early
/// (Ctrl-C); `stats` is updated live. Returns the final summary.
///
/// # Errors
/// The first file that could not be written (the campaign stops).
pub fn run(
    campaign: &Campaign,
    differ: &Differ,
    reducer: &Differ,
    store: &Store,
    stats: &Stats,
    stop: &AtomicBool,
) -> Result<Outcome, StoreError> {
    let known: BTreeMap<String, FindingEntry> = store
        .existing()
        .into_iter()
        .map(|s| {
            let reduced = store.finding_dir(&s).join("reduced.tgsi").is_file();
            let name = s.to_string();
            (
                name.clone(),
                FindingEntry {
                    signature: name,
                    reduced,
                    ..FindingEntry::default()
                },
            )
        })
        .collect();
    let sh = Shared {
        campaign,
        differ,
        reducer,
        store,
        stats,
        stop,
        start: Instant::now(),
        next_chunk: AtomicU64::new(0),
        findings: Mutex::new(known),
        log: Mutex::new(Vec::new()),
        last_summary: Mutex::new(Instant::now()),
        errors: Mutex::new(Vec::new()),
    };
    store.write_summary(&summary(&sh, SummaryStatus::Running))?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(campaign.jobs.max(1))
        .build()
        .map_err(|e| StoreError {
            path: store.root().display().to_string(),
            message: format!("cannot start worker threads: {e}"),
        })?;
    pool.scope(|s| {
        for _ in 0..campaign.jobs.max(1) {
            s.spawn(|_| worker(&sh));
        }
    });
    if let Some(e) = sh.errors.lock().map(|e| e.first().cloned()).ok().flatten() {
        return Err(StoreError {
            path: store.root().display().to_string(),
            message: e,
        });
    }
    let interrupted = stop.load(Ordering::Relaxed);
    let status = if interrupted {
        SummaryStatus::Interrupted
    } else {
        SummaryStatus::Complete
    };
    let final_summary = summary(&sh, status);
    store.write_summary(&final_summary)?;
    let mut log = sh.log.into_inner().unwrap_or_default();
    log.sort_unstable();
    if campaign.log_programs {
        let text: String = log.iter().map(|(i, h)| format!("{i} {h:016x}\n")).collect();
        shaderdiff_results::atomic_write(&store.root().join("programs.log"), text.as_bytes())?;
    }
    Ok(Outcome {
        summary: final_summary,
        program_log: log,
    })
}

fn out_of_budget(sh: &Shared) -> bool {
    sh.stop.load(Ordering::Relaxed)
        || sh.campaign.time.is_some_and(|t| sh.start.elapsed() >= t)
        || !sh.errors.lock().map(|e| e.is_empty()).unwrap_or(false)
}

fn worker(sh: &Shared) {
    loop {
        if out_of_budget(sh) {
            return;
        }
        let c = sh.next_chunk.fetch_add(1, Ordering::Relaxed);
        let first = c * CHUNK;
        let mut last = first + CHUNK;
        if let Some(p) = sh.campaign.programs {
            if first >= p {
                return;
            }
            last = last.min(p);
        }
        let generated: Vec<Generated> = (first..last)
            .map(|k| {
                generate(
                    sh.campaign.seed,
                    stream_index(sh.campaign.shard, k),
                    &sh.campaign.config,
                )
            })
            .collect();
        let items: Vec<(&shaderdiff_ir::Program, &Inputs)> =
            generated.iter().map(|g| (&g.program, &g.inputs)).collect();
        let diffs = sh.differ.diff_batch(&items);
        if sh.campaign.log_programs {
            if let Ok(mut log) = sh.log.lock() {
                log.extend(generated.iter().map(|g| (g.index, fingerprint(&g.text))));
            }
        }
        for (g, d) in generated.iter().zip(&diffs) {
            if let Err(e) = handle(sh, g, d) {
                if let Ok(mut errs) = sh.errors.lock() {
                    errs.push(e.to_string());
                }
                return;
            }
        }
        let due = sh
            .last_summary
            .lock()
            .map(|mut t| {
                let due = t.elapsed() >= SUMMARY_PERIOD;
                if due {
                    *t = Instant::now();
                }
                due
            })
            .unwrap_or(false);
        if due {
            if let Err(e) = sh.store.write_summary(&summary(sh, SummaryStatus::Running)) {
                if let Ok(mut errs) = sh.errors.lock() {
                    errs.push(e.to_string());
                }
                return;
            }
        }
    }
}

/// Counts one compared program and records its findings.
fn handle(sh: &Shared, g: &Generated, d: &Diff) -> Result<(), StoreError> {
    sh.stats.programs.fetch_add(1, Ordering::Relaxed);
    if d.oracle.is_err() {
        sh.stats.oracle_skipped.fetch_add(1, Ordering::Relaxed);
        return Ok(());
    }
    sh.stats
        .unsupported
        .fetch_add(d.unsupported() as u64, Ordering::Relaxed);
    if !d.diverged() {
        return Ok(());
    }
    sh.stats.mismatches.fetch_add(1, Ordering::Relaxed);
    for (e, o) in d.engines.iter().enumerate() {
        if !o.outcome.diverged() {
            continue;
        }
        let div = locate(sh.differ, e, &g.program, &g.inputs, &o.outcome);
        let mut sig = div.signature.clone();
        if d.oracle_suspect {
            sig = Signature::new(ORACLE, &sig.class, &sig.ty);
        }
        let name = sig.to_string();
        let is_new = {
            let mut f = sh.findings.lock().expect("findings lock");
            let entry = f.entry(name.clone()).or_insert_with(|| FindingEntry {
                signature: name.clone(),
                ..FindingEntry::default()
            });
            entry.count += 1;
            let new = entry.count == 1 && entry.first_index.is_none() && !entry.reduced;
            if new {
                entry.first_index = Some(g.index);
                sh.stats.findings.fetch_add(1, Ordering::Relaxed);
            } else if entry.count == 1 {
                // Known from an earlier campaign into the same directory.
                sh.stats.findings.fetch_add(1, Ordering::Relaxed);
            }
            new
        };
        if is_new {
            record(sh, g, d, e, &sig, &div)?;
        }
    }
    Ok(())
}

/// The replay command of a finding.
fn replay(sh: &Shared) -> String {
    let mut s = format!(
        "shaderdiff diff reduced.tgsi --inputs inputs.json --backends {},{}",
        ORACLE,
        sh.differ.engine_names().join(",")
    );
    if let Some(f) = &sh.campaign.fault {
        s.push_str(&format!(" --inject-fault {f}"));
    }
    s
}

/// Writes a new finding, reduces it and writes the reduction.
fn record(
    sh: &Shared,
    g: &Generated,
    d: &Diff,
    e: usize,
    sig: &Signature,
    div: &crate::signature::Divergence,
) -> Result<(), StoreError> {
    let st = sh.store;
    let engines = sh.differ.engine_names();
    let inputs_text = inputs_json::to_json(&g.inputs);
    st.write_finding_file(sig, "program.tgsi", &g.text)?;
    st.write_finding_file(sig, "program.inputs.json", &inputs_text)?;
    // Until the reduction is done, the original is the reproducer.
    st.write_finding_file(sig, "reduced.tgsi", &g.text)?;
    st.write_finding_file(sig, "inputs.json", &inputs_text)?;
    let engine = &engines[e];
    let report = DiffReport::new(
        "program.tgsi",
        &engines,
        std::slice::from_ref(d),
        vec![SignatureRecord::new(div, engine)],
    );
    st.write_finding_file(sig, "report.json", &report.to_json_pretty())?;
    let meta = |reduced: Option<usize>| {
        serde_json::json!({
            "signature": sig.to_string(),
            "engine": engine,
            "seed": sh.campaign.seed,
            "index": g.index,
            "generator_version": GENERATOR_VERSION,
            "fault": sh.campaign.fault,
            "first_instruction": div.instruction,
            "first_opcode": div.opcode.map(|o| o.name()),
            "original_instructions": size(&g.program),
            "reduced_instructions": reduced,
            "replay": replay(sh),
        })
    };
    let pretty = |v: serde_json::Value| serde_json::to_string_pretty(&v).unwrap_or_default() + "\n";
    st.write_finding_file(sig, "finding.json", &pretty(meta(None)))?;
    if !sh.campaign.reduce {
        return Ok(());
    }
    let opts = ReduceOptions {
        deadline: Some(Instant::now() + sh.campaign.reduce_time),
        ..ReduceOptions::default()
    };
    let target = &div.signature;
    let reduced = reduce(sh.reducer, e, &g.program, &g.inputs, Some(target), &opts)
        .ok()
        .or_else(|| {
            // The original may need more steps than reduction candidates get.
            reduce(sh.differ, e, &g.program, &g.inputs, Some(target), &opts).ok()
        });
    let Some(r) = reduced else { return Ok(()) };
    let text = stamped_text(
        &r,
        &format!("program.tgsi (seed {} index {})", g.seed, g.index),
    );
    st.write_finding_file(sig, "inputs.json", &inputs_json::to_json(&r.inputs))?;
    st.write_finding_file(sig, "reduced.tgsi", &text)?;
    let diff = sh.differ.diff(&r.program, &r.inputs);
    let report = DiffReport::new(
        "reduced.tgsi",
        &engines,
        std::slice::from_ref(&diff),
        vec![SignatureRecord::new(&r.divergence, engine)],
    );
    st.write_finding_file(sig, "report.json", &report.to_json_pretty())?;
    st.write_finding_file(sig, "finding.json", &pretty(meta(Some(size(&r.program)))))?;
    if let Ok(mut f) = sh.findings.lock() {
        if let Some(entry) = f.get_mut(&sig.to_string()) {
            entry.reduced = true;
            entry.reduced_instructions = Some(size(&r.program));
        }
    }
    Ok(())
}

fn summary(sh: &Shared, status: SummaryStatus) -> Summary {
    let programs = sh.stats.programs.load(Ordering::Relaxed);
    let elapsed = sh.start.elapsed().as_secs_f64();
    let findings: Vec<FindingEntry> = sh
        .findings
        .lock()
        .map(|f| f.values().filter(|e| e.count > 0).cloned().collect())
        .unwrap_or_default();
    Summary {
        seed: sh.campaign.seed,
        programs,
        mismatches: sh.stats.mismatches.load(Ordering::Relaxed),
        unique_findings: findings.len() as u64,
        elapsed_s: (elapsed * 1000.0).round() / 1000.0,
        programs_per_s: if elapsed > 0.0 {
            (programs as f64 / elapsed * 10.0).round() / 10.0
        } else {
            0.0
        },
        engines: sh.differ.engine_names(),
        oracle: ORACLE.to_string(),
        shard: format!("{}/{}", sh.campaign.shard.0, sh.campaign.shard.1),
        lang: sh.campaign.lang.clone(),
        jobs: sh.campaign.jobs,
        generator_version: GENERATOR_VERSION.to_string(),
        fault: sh.campaign.fault.clone(),
        unsupported: sh.stats.unsupported.load(Ordering::Relaxed),
        oracle_skipped: sh.stats.oracle_skipped.load(Ordering::Relaxed),
        status,
        findings,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_partition_the_stream() {
        // Shards 0/3, 1/3, 2/3 of the first 10 positions each: every index once.
        let mut all: Vec<u64> = (0..3)
            .flat_map(|i| (0..10).map(move |k| stream_index((i, 3), k)))
            .collect();
        all.sort_unstable();
        assert_eq!(all, (0..30).collect::<Vec<u64>>());
        assert_eq!(stream_index((0, 1), 7), 7);
        assert_ne!(fingerprint("VERT\nEND\n"), fingerprint("FRAG\nEND\n"));
    }
}
