//! Differential campaigns (`shaderdiff fuzz`): generated programs on the oracle and every
//! engine, findings deduplicated by signature, reduced and stored as they are found.
//!
//! **Program stream.** Position `k` of shard `I/N` is program `I + k·N` of campaign `seed`
//! ([`stream_index`]; `shaderdiff_generators::random::generate`), so shards never overlap
//! and the same seed and shard give the same programs on any machine. `--programs P` takes
//! positions `0..P`; `--time` stops at the next chunk boundary.
//!
//! **Chunks.** `jobs` workers take chunks of [`CHUNK`] consecutive positions from a shared
//! cursor ([`crate::fuzz_chunk`] runs one). By default each worker is a supervised child
//! process ([`crate::fuzz_worker`], [`crate::isolate`]): a crash or hang kills only the
//! worker and becomes a finding (`jit-crash-sigsegv`, `jit-timeout-none`), resource
//! exhaustion marks the program poisoned, and the campaign carries on. With
//! [`Campaign::isolation`] `None` the chunks run on threads of this process.
//!
//! **Commit and resume.** A chunk's results are folded into the campaign state only when
//! the whole chunk is done, and the state is then written to `DIR/progress.json` atomically
//! ([`crate::progress`]); `summary.json` is rewritten every [`SUMMARY_PERIOD`] and at the
//! end. A campaign killed at any moment resumes from `progress.json` (`fuzz --resume DIR`)
//! without losing a committed result and without running a committed program again.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use shaderdiff_generators::random::RandomConfig;
use shaderdiff_results::{FindingEntry, Store, StoreError, Summary, SummaryStatus};

use crate::diff::{Differ, ORACLE};
use crate::fuzz_chunk::{Hooks, ProgramResult, Runner};
use crate::fuzz_staging::{self, Claims};
use crate::isolate::WorkerSpec;
use crate::progress::{from_ranges, to_ranges, Progress, PROGRESS_VERSION};

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

/// How worker processes are run.
#[derive(Clone, Debug)]
pub struct Isolation {
    /// Starts a worker (`shaderdiff worker fuzz ARGS`).
    pub worker: WorkerSpec,
    /// Longest silence of a worker (per program, per engine run) before it is killed.
    pub timeout: Duration,
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
    /// Stop at the next chunk once this many unique findings are committed (each reduced
    /// first, when reducing): `--stop-after-findings`.
    pub stop_after_findings: Option<u64>,
    /// Workers (processes, or threads in process).
    pub jobs: usize,
    /// Reduce new findings.
    pub reduce: bool,
    /// Wall-clock budget of one reduction (`--reduce-time`).
    pub reduce_time: Duration,
    /// CPU-time budget of one reduction (`--reduce-cpu-time`): the thread's CPU time, so a
    /// loaded machine does not cut reductions short.
    pub reduce_cpu_time: Duration,
    /// Keep `(index, fingerprint)` of every program (written as `programs.log`).
    pub log_programs: bool,
    /// `--inject-fault`, recorded in the summary and in each finding's replay command.
    pub fault: Option<String>,
    /// `--lang`, recorded in the summary.
    pub lang: String,
    /// Step budget of the engines (crash reductions run candidates with it).
    pub step_limit: u64,
    /// The canonical `fuzz` arguments of this campaign (recorded for `--resume`).
    pub argv: Vec<String>,
    /// Worker processes, or `None` to run in this process.
    pub isolation: Option<Isolation>,
}

/// Live counters, for progress display (committed chunks only).
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
    /// Programs whose worker ran out of resources.
    pub poisoned: AtomicU64,
}

/// What a finished campaign returns.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// The final summary (also in `DIR/summary.json`).
    pub summary: Summary,
    /// `(program index, fingerprint)` in stream order, when logging was asked for.
    pub program_log: Vec<(u64, u64)>,
}

/// Committed campaign state (guarded by one lock; written to `progress.json`).
struct State {
    findings: BTreeMap<String, FindingEntry>,
    done: BTreeSet<u64>,
    poisoned: Vec<u64>,
    log: Vec<(u64, u64)>,
}

/// Everything the workers share.
pub(crate) struct Shared<'a> {
    pub(crate) campaign: &'a Campaign,
    pub(crate) runner: Runner<'a>,
    stats: &'a Stats,
    stop: &'a AtomicBool,
    start: Instant,
    elapsed_before: f64,
    cursor: Mutex<u64>,
    claims: Mutex<Claims>,
    known: Vec<String>,
    state: Mutex<State>,
    last_summary: Mutex<Instant>,
    errors: Mutex<Vec<String>>,
}

impl Shared<'_> {
    /// The next chunk to run, or `None` when the budget is spent.
    pub(crate) fn next_chunk(&self) -> Option<u64> {
        if self.out_of_budget() {
            return None;
        }
        // Lock order: state, then cursor (commit only takes state).
        let st = self.state.lock().ok()?;
        let mut cursor = self.cursor.lock().ok()?;
        while st.done.contains(&*cursor) {
            *cursor += 1;
        }
        let c = *cursor;
        if self.campaign.programs.is_some_and(|p| c * CHUNK >= p) {
            return None;
        }
        *cursor += 1;
        Some(c)
    }

    /// Stream positions `[first, last)` of chunk `c`.
    pub(crate) fn chunk_range(&self, c: u64) -> (u64, u64) {
        let first = c * CHUNK;
        let last = self
            .campaign
            .programs
            .map_or(first + CHUNK, |p| (first + CHUNK).min(p));
        (first, last)
    }

    /// Whether program `index` should record `signature` (no lower index claimed it;
    /// [`Claims::claim`]).
    pub(crate) fn claim(&self, signature: &str, index: u64) -> bool {
        self.claims
            .lock()
            .map(|mut c| c.claim(signature, index))
            .unwrap_or(false)
    }

    /// Records a fatal error (a file that could not be written): the campaign stops.
    pub(crate) fn fail(&self, message: String) {
        if let Ok(mut e) = self.errors.lock() {
            e.push(message);
        }
    }

    fn out_of_budget(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
            || self
                .campaign
                .time
                .is_some_and(|t| self.start.elapsed() >= t)
            || !self.errors.lock().map(|e| e.is_empty()).unwrap_or(false)
            || self
                .campaign
                .stop_after_findings
                .is_some_and(|n| self.stats.findings.load(Ordering::Relaxed) >= n)
    }

    /// Folds chunk `c`'s results into the state and writes `progress.json` (and, when due,
    /// `summary.json`).
    pub(crate) fn commit(&self, c: u64, results: Vec<ProgramResult>) {
        let Ok(mut st) = self.state.lock() else {
            return;
        };
        let s = self.stats;
        for r in &results {
            if r.poisoned {
                s.poisoned.fetch_add(1, Ordering::Relaxed);
                st.poisoned.push(r.index);
                continue;
            }
            s.programs.fetch_add(1, Ordering::Relaxed);
            if self.campaign.log_programs {
                st.log.push((r.index, r.fingerprint));
            }
            if r.oracle_skipped {
                s.oracle_skipped.fetch_add(1, Ordering::Relaxed);
                continue;
            }
            s.unsupported.fetch_add(r.unsupported, Ordering::Relaxed);
            if r.mismatch {
                s.mismatches.fetch_add(1, Ordering::Relaxed);
            }
            for h in &r.hits {
                let e = st
                    .findings
                    .entry(h.signature.clone())
                    .or_insert_with(|| FindingEntry {
                        signature: h.signature.clone(),
                        ..FindingEntry::default()
                    });
                if e.count == 0 {
                    s.findings.fetch_add(1, Ordering::Relaxed);
                }
                e.count += 1;
                // The lowest index's recording is kept (crate::fuzz_staging).
                if h.recorded && e.first_index.is_none_or(|i| r.index < i) {
                    let store = self.runner.store;
                    if let Err(err) = fuzz_staging::promote(store, r.index, &h.signature) {
                        self.fail(err.to_string());
                        return;
                    }
                    e.first_index = Some(r.index);
                    e.reduced = h.reduced_instructions.is_some();
                    e.reduced_instructions = h.reduced_instructions;
                }
            }
            if r.hits.iter().any(|h| h.recorded) {
                fuzz_staging::discard(self.runner.store, r.index);
            }
        }
        st.done.insert(c);
        if let Err(e) = self.progress(&st).save(self.runner.store.root()) {
            self.fail(e.to_string());
            return;
        }
        let due = self
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
            let sum = self.summary(&st, SummaryStatus::Running);
            if let Err(e) = self.runner.store.write_summary(&sum) {
                self.fail(e.to_string());
            }
        }
    }

    fn elapsed(&self) -> f64 {
        self.elapsed_before + self.start.elapsed().as_secs_f64()
    }

    fn progress(&self, st: &State) -> Progress {
        let s = self.stats;
        Progress {
            version: PROGRESS_VERSION,
            argv: self.campaign.argv.clone(),
            generator_version: crate::fuzz_item::generator_version(&self.campaign.lang),
            done: to_ranges(&st.done),
            programs: s.programs.load(Ordering::Relaxed),
            mismatches: s.mismatches.load(Ordering::Relaxed),
            unsupported: s.unsupported.load(Ordering::Relaxed),
            oracle_skipped: s.oracle_skipped.load(Ordering::Relaxed),
            poisoned: st.poisoned.clone(),
            findings: st.findings.values().cloned().collect(),
            known: self.known.clone(),
            log: st.log.clone(),
            elapsed_s: self.elapsed(),
        }
    }

    fn summary(&self, st: &State, status: SummaryStatus) -> Summary {
        let s = self.stats;
        let programs = s.programs.load(Ordering::Relaxed);
        let elapsed = self.elapsed();
        let findings: Vec<FindingEntry> = st
            .findings
            .values()
            .filter(|e| e.count > 0)
            .cloned()
            .collect();
        let c = self.campaign;
        Summary {
            seed: c.seed,
            programs,
            mismatches: s.mismatches.load(Ordering::Relaxed),
            unique_findings: findings.len() as u64,
            elapsed_s: (elapsed * 1000.0).round() / 1000.0,
            programs_per_s: if elapsed > 0.0 {
                (programs as f64 / elapsed * 10.0).round() / 10.0
            } else {
                0.0
            },
            engines: self.runner.differ.engine_names(),
            oracle: ORACLE.to_string(),
            shard: format!("{}/{}", c.shard.0, c.shard.1),
            lang: c.lang.clone(),
            jobs: c.jobs,
            generator_version: crate::fuzz_item::generator_version(&self.campaign.lang),
            fault: c.fault.clone(),
            unsupported: s.unsupported.load(Ordering::Relaxed),
            oracle_skipped: s.oracle_skipped.load(Ordering::Relaxed),
            poisoned: s.poisoned.load(Ordering::Relaxed),
            status,
            options: shaderdiff_results::merge_check::campaign_options(&c.argv),
            findings,
        }
    }
}

/// The in-process [`Hooks`]: claims against the shared set, results collected.
struct LocalHooks<'s, 'a> {
    sh: &'s Shared<'a>,
    results: Vec<ProgramResult>,
}

impl Hooks for LocalHooks<'_, '_> {
    fn begin(&mut self, _position: u64, _phase: &str) {}

    fn claim(&mut self, signature: &str, index: u64) -> bool {
        self.sh.claim(signature, index)
    }

    fn result(&mut self, result: ProgramResult) {
        self.results.push(result);
    }
}

fn local_worker(sh: &Shared) {
    while let Some(c) = sh.next_chunk() {
        let (first, last) = sh.chunk_range(c);
        let mut hooks = LocalHooks {
            sh,
            results: Vec::new(),
        };
        if let Err(e) = sh.runner.run_chunk(first, last, false, &mut hooks) {
            sh.fail(e.to_string());
            return;
        }
        let results = hooks.results;
        sh.commit(c, results);
    }
}

/// Runs a campaign into `store`: `differ` compares, `reducer` (the same engines with a
/// small step budget, [`crate::reduce::REDUCE_STEP_LIMIT`]) reduces. `resume` is the state
/// of the campaign being resumed (its committed chunks are skipped). `stop` ends it early
/// (Ctrl-C); `stats` is updated live. Returns the final summary.
///
/// # Errors
/// The first file that could not be written, or a worker that could not be started (the
/// campaign stops; what was committed is on disk).
pub fn run(
    campaign: &Campaign,
    differ: &Differ,
    reducer: &Differ,
    store: &Store,
    stats: &Stats,
    stop: &AtomicBool,
    resume: Option<Progress>,
) -> Result<Outcome, StoreError> {
    let (state, known, claims, elapsed_before) = match resume {
        Some(p) => {
            stats.programs.store(p.programs, Ordering::Relaxed);
            stats.mismatches.store(p.mismatches, Ordering::Relaxed);
            stats.unsupported.store(p.unsupported, Ordering::Relaxed);
            stats
                .oracle_skipped
                .store(p.oracle_skipped, Ordering::Relaxed);
            stats
                .poisoned
                .store(p.poisoned.len() as u64, Ordering::Relaxed);
            let findings = p.findings_map();
            stats.findings.store(
                findings.values().filter(|f| f.count > 0).count() as u64,
                Ordering::Relaxed,
            );
            // Claimed for good: findings known before the campaign and those whose
            // recording program was committed. A claim of a chunk that never committed is
            // made again by its rerun.
            let claims = Claims::new(
                p.known.iter().cloned(),
                findings
                    .values()
                    .filter_map(|f| Some((f.signature.clone(), f.first_index?))),
            );
            let state = State {
                findings,
                done: from_ranges(&p.done),
                poisoned: p.poisoned,
                log: p.log,
            };
            (state, p.known, claims, p.elapsed_s)
        }
        None => {
            let known: Vec<String> = store.existing().iter().map(|s| s.to_string()).collect();
            let findings = known
                .iter()
                .map(|name| {
                    let reduced = store
                        .root()
                        .join("findings")
                        .join(name)
                        .join("reduced.tgsi");
                    let entry = FindingEntry {
                        signature: name.clone(),
                        reduced: reduced.is_file(),
                        ..FindingEntry::default()
                    };
                    (name.clone(), entry)
                })
                .collect();
            let state = State {
                findings,
                done: BTreeSet::new(),
                poisoned: Vec::new(),
                log: Vec::new(),
            };
            let claims = Claims::new(known.iter().cloned(), []);
            (state, known, claims, 0.0)
        }
    };
    let sh = Shared {
        campaign,
        runner: Runner {
            campaign,
            differ,
            reducer,
            store,
        },
        stats,
        stop,
        start: Instant::now(),
        elapsed_before,
        cursor: Mutex::new(0),
        claims: Mutex::new(claims),
        known,
        state: Mutex::new(state),
        last_summary: Mutex::new(Instant::now()),
        errors: Mutex::new(Vec::new()),
    };
    {
        // Recordings of chunks that never committed (an interrupted run) are dropped.
        fuzz_staging::clear(store)?;
        let st = sh.state.lock().expect("state lock");
        sh.progress(&st).save(store.root())?;
        store.write_summary(&sh.summary(&st, SummaryStatus::Running))?;
    }
    std::thread::scope(|s| {
        for _ in 0..campaign.jobs.max(1) {
            match &campaign.isolation {
                Some(iso) => s.spawn(|| crate::fuzz_worker::supervise(&sh, iso)),
                None => s.spawn(|| local_worker(&sh)),
            };
        }
    });
    if let Some(e) = sh.errors.lock().map(|e| e.first().cloned()).ok().flatten() {
        // Best effort (the disk may be full): say honestly how the campaign ended.
        if let Ok(st) = sh.state.lock() {
            let _ = store.write_summary(&sh.summary(&st, SummaryStatus::Failed));
        }
        return Err(StoreError {
            path: store.root().display().to_string(),
            message: e,
        });
    }
    let status = if stop.load(Ordering::Relaxed) {
        SummaryStatus::Interrupted
    } else {
        SummaryStatus::Complete
    };
    // Every committed chunk has moved or dropped its recordings; an interrupted
    // campaign's in-flight ones are of no use either.
    fuzz_staging::clear(store)?;
    let st = sh.state.lock().expect("state lock");
    let final_summary = sh.summary(&st, status);
    store.write_summary(&final_summary)?;
    let mut log = st.log.clone();
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
