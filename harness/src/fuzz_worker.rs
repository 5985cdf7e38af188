//! Campaign chunks in supervised worker processes (a crashing engine never ends the run).
//!
//! **Worker** (`shaderdiff worker fuzz ARGS`, [`worker_main`]): builds the campaign from
//! the same arguments as the supervisor, says [`Message::Ready`], then runs each
//! [`Request::Chunk`] with [`Runner::run_chunk`], streaming [`Message`]s: `Begin` (a
//! program enters a phase), `Claim` (answered by the supervisor), `Result` per program and
//! `Done` per chunk.
//!
//! **Supervisor** ([`supervise`], one thread per worker): a chunk is first sent whole
//! (batch mode). If the worker dies or stays silent longer than the timeout (the
//! reduction budget is added while it reduces), the worker is replaced and each program
//! of the chunk without a result is sent alone in single mode, where it runs on every
//! engine separately first: when the worker dies again, the last `Begin` names the
//! program and the engine. That pair becomes a finding, `ENGINE-crash-CLASS` (class
//! `sigsegv`, `sigabrt`, `stack_overflow`, `panic`, ...) or `ENGINE-timeout-none`, with
//! the program, its inputs, a `report.json` saying how the worker died (its last stderr
//! lines) and a replay command, and is reduced while it still dies the same way
//! ([`crate::death_reduce`]); resource exhaustion marks the program poisoned instead.
//! The chunk is committed when every program has a result.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use shaderdiff_generators::nv::NV_GENERATOR_VERSION;
use shaderdiff_generators::GENERATOR_VERSION;
use shaderdiff_results::Signature;

use crate::death_reduce::{reduce_death, reduce_death_nv, DeathCase};
use crate::fuzz::{Isolation, Shared};
use crate::fuzz_chunk::{pretty, write_original, Hit, Hooks, ProgramResult, Runner, PHASE_REDUCE};
use crate::inputs_json;
use crate::isolate::{Death, Recv, WorkerChannel, WorkerProcess};
use crate::reduce::{stamped_text, ReduceOptions};

/// Supervisor → worker.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub enum Request {
    /// Run stream positions `first..last`, in single mode if `single`.
    Chunk {
        /// First position.
        first: u64,
        /// One past the last position.
        last: u64,
        /// Run each program on every engine alone first (crash attribution).
        single: bool,
    },
    /// The answer to [`Message::Claim`]: whether the worker records the finding.
    Claimed(bool),
}

/// Worker → supervisor.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub enum Message {
    /// The worker is up.
    Ready,
    /// The program at `position` enters `phase` (an engine name, `compare`, `reduce`).
    Begin {
        /// Stream position.
        position: u64,
        /// Phase.
        phase: String,
    },
    /// May program `index` record `signature`?
    Claim {
        /// The signature.
        signature: String,
        /// Program index.
        index: u64,
    },
    /// A program is done.
    Result(ProgramResult),
    /// The chunk is done.
    Done,
    /// A finding file could not be written (the campaign stops).
    Error(String),
}

/// The worker's [`Hooks`]: everything goes to the supervisor.
struct ChannelHooks {
    channel: WorkerChannel,
}

impl ChannelHooks {
    fn send(&mut self, m: &Message) {
        if !self.channel.send(m) {
            // The supervisor is gone: nothing left to do.
            std::process::exit(0);
        }
    }
}

impl Hooks for ChannelHooks {
    fn begin(&mut self, position: u64, phase: &str) {
        self.send(&Message::Begin {
            position,
            phase: phase.to_string(),
        });
    }

    fn claim(&mut self, signature: &str, index: u64) -> bool {
        self.send(&Message::Claim {
            signature: signature.to_string(),
            index,
        });
        match self.channel.recv::<Request>() {
            Some(Request::Claimed(b)) => b,
            _ => std::process::exit(0),
        }
    }

    fn result(&mut self, result: ProgramResult) {
        self.send(&Message::Result(result));
    }
}

/// The worker's loop: serves chunk requests until its input ends. Returns the exit status.
pub fn worker_main(runner: &Runner) -> u8 {
    let mut hooks = ChannelHooks {
        channel: WorkerChannel::default(),
    };
    hooks.send(&Message::Ready);
    while let Some(req) = hooks.channel.recv::<Request>() {
        let Request::Chunk {
            first,
            last,
            single,
        } = req
        else {
            continue;
        };
        match runner.run_chunk(first, last, single, &mut hooks) {
            Ok(()) => hooks.send(&Message::Done),
            Err(e) => hooks.send(&Message::Error(e.to_string())),
        }
    }
    0
}

/// How a request to a worker ended.
enum Ended {
    /// Every program of it has a result.
    Done,
    /// The worker died; the last `Begin` it sent during this request, if any.
    Died(Death, Option<(u64, String)>),
    /// The campaign must stop (recorded in `sh`).
    Fatal,
}

/// One supervising thread: starts a worker and feeds it chunks until the budget is spent.
pub(crate) fn supervise(sh: &Shared, iso: &Isolation) {
    let mut worker: Option<WorkerProcess> = None;
    while let Some(c) = sh.next_chunk() {
        let (first, last) = sh.chunk_range(c);
        let mut results: BTreeMap<u64, ProgramResult> = BTreeMap::new();
        match drive(sh, iso, &mut worker, (first, last, false), &mut results) {
            Ended::Done => {}
            Ended::Fatal => return,
            Ended::Died(..) => {
                for k in first..last {
                    if results.contains_key(&k) {
                        continue;
                    }
                    match drive(sh, iso, &mut worker, (k, k + 1, true), &mut results) {
                        Ended::Done => {}
                        Ended::Fatal => return,
                        Ended::Died(death, begun) => {
                            let phase = begun.filter(|(p, _)| *p == k).map(|(_, ph)| ph);
                            match died(sh, k, phase.as_deref(), &death) {
                                Ok(r) => results.insert(k, r),
                                Err(e) => {
                                    sh.fail(e);
                                    return;
                                }
                            };
                        }
                    }
                }
            }
        }
        sh.commit(c, results.into_values().collect());
    }
    if let Some(w) = worker {
        w.finish();
    }
}

/// Sends one chunk request and handles the worker's messages until the request ends.
fn drive(
    sh: &Shared,
    iso: &Isolation,
    slot: &mut Option<WorkerProcess>,
    (first, last, single): (u64, u64, bool),
    results: &mut BTreeMap<u64, ProgramResult>,
) -> Ended {
    if slot.is_none() {
        match start(iso) {
            Ok(w) => *slot = Some(w),
            Err(e) => {
                sh.fail(e);
                return Ended::Fatal;
            }
        }
    }
    let Some(w) = slot.as_mut() else {
        return Ended::Fatal;
    };
    let _ = w.send(&Request::Chunk {
        first,
        last,
        single,
    });
    let mut begun: Option<(u64, String)> = None;
    loop {
        let reducing = begun.as_ref().is_some_and(|(_, p)| p == PHASE_REDUCE);
        let timeout = if reducing {
            iso.timeout + sh.campaign.reduce_time
        } else {
            iso.timeout
        };
        match w.recv::<Message>(timeout) {
            Recv::Message(m) => match m {
                Message::Ready => {}
                Message::Begin { position, phase } => begun = Some((position, phase)),
                Message::Claim { signature, index } => {
                    let _ = w.send(&Request::Claimed(sh.claim(&signature, index)));
                }
                Message::Result(r) => {
                    results.insert(r.position, r);
                }
                Message::Done => return Ended::Done,
                Message::Error(e) => {
                    sh.fail(e);
                    return Ended::Fatal;
                }
            },
            Recv::Died(d) => {
                *slot = None;
                return Ended::Died(d, begun);
            }
        }
    }
}

/// Starts a worker and waits for its `Ready`.
fn start(iso: &Isolation) -> Result<WorkerProcess, String> {
    let wait = iso.timeout.max(std::time::Duration::from_secs(30));
    WorkerProcess::spawn_ready(&iso.worker, wait, |m: &Message| matches!(m, Message::Ready))
}

/// Whether a poisoned program has been reported on stderr (once per process).
static POISON_NOTED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// The result of program `k` whose worker died in `phase`, with its finding recorded.
fn died(sh: &Shared, k: u64, phase: Option<&str>, death: &Death) -> Result<ProgramResult, String> {
    let runner = &sh.runner;
    let g = runner.generate(k);
    let mut r = ProgramResult {
        position: k,
        index: g.index,
        fingerprint: crate::fuzz::fingerprint(&g.text),
        ..ProgramResult::default()
    };
    if let Death::Poisoned { detail } = death {
        // One line for the first; the summary counts them all.
        if !POISON_NOTED.swap(true, std::sync::atomic::Ordering::Relaxed) {
            eprintln!(
                "shaderdiff: program {} poisoned (its worker ran out of resources: {}); \
                 further poisoned programs are only counted in the summary",
                g.index,
                detail
                    .lines()
                    .find(|l| l.contains("memory allocation of"))
                    .or_else(|| detail.lines().last())
                    .unwrap_or("")
            );
        }
        r.poisoned = true;
        return Ok(r);
    }
    // Engine runs come first in single mode; a death after them (comparing, locating,
    // reducing) is the harness's or a nondeterministic one: charged to "any".
    let names = runner.differ.engine_names();
    let engine = match phase {
        Some(p) if p == crate::diff::ORACLE || names.iter().any(|n| n == p) => p.to_string(),
        _ => "any".to_string(),
    };
    let (class, ty) = match death {
        Death::Timeout => ("timeout".to_string(), "none".to_string()),
        Death::Crash { class, .. } => ("crash".to_string(), class.clone()),
        Death::Poisoned { .. } => unreachable!("handled above"),
    };
    let sig = Signature::new(&engine, &class, &ty);
    let name = sig.to_string();
    r.mismatch = true;
    let mut hit = Hit {
        signature: name.clone(),
        ..Hit::default()
    };
    if sh.claim(&name, g.index) {
        hit.recorded = true;
        hit.reduced_instructions =
            record_death(sh, &g, &sig, &engine, death).map_err(|e| e.to_string())?;
    }
    r.hits.push(hit);
    Ok(r)
}

/// The command that replays a death: the program alone on the engine that died.
fn death_replay(sh: &Shared, engine: &str, ext: &str) -> String {
    let mut s = if engine == "any" {
        format!(
            "shaderdiff diff reduced.{ext} --inputs inputs.json --backends {},{}",
            crate::diff::ORACLE,
            sh.runner.differ.engine_names().join(",")
        )
    } else {
        format!("shaderdiff run reduced.{ext} --inputs inputs.json --backend {engine}")
    };
    if let Some(f) = &sh.campaign.fault {
        s.push_str(&format!(" --inject-fault {f}"));
    }
    s
}

/// Writes a crash or timeout finding: the program and inputs (also as the reproducer),
/// `report.json` with how the worker died, `finding.json`; then reduces it
/// ([`reduce_death`]) and writes the reduced reproducer. Returns the reduced size.
fn record_death(
    sh: &Shared,
    g: &crate::fuzz_item::FuzzItem,
    sig: &Signature,
    engine: &str,
    death: &Death,
) -> Result<Option<usize>, shaderdiff_results::StoreError> {
    // Staged until its chunk commits (crate::fuzz_staging).
    let staged = crate::fuzz_staging::staged(sh.runner.store, g.index)?;
    let st = &staged;
    write_original(st, sig, g)?;
    let replay = death_replay(sh, engine, g.ext());
    let report = serde_json::json!({
        "program": format!("reduced.{}", g.ext()),
        "verdict": death.describe(),
        "engine": engine,
        "signature": sig.to_string(),
        "stderr": death.detail(),
        "timeout_s": sh.campaign.isolation.as_ref().map(|i| i.timeout.as_secs_f64()),
        "replay": replay,
    });
    st.write_finding_file(sig, "report.json", &pretty(&report))?;
    let meta = |reduced: Option<usize>| {
        serde_json::json!({
            "signature": sig.to_string(),
            "engine": engine,
            "seed": sh.campaign.seed,
            "index": g.index,
            "generator_version": GENERATOR_VERSION,
            "nv_generator_version": g.is_nv().then_some(NV_GENERATOR_VERSION),
            "fault": sh.campaign.fault,
            "death": death.describe(),
            "original_instructions": crate::fuzz_chunk::original_size(g),
            "reduced_instructions": reduced,
            "replay": replay,
            "binary": crate::fuzz_chunk::binary(),
        })
    };
    st.write_finding_file(sig, "finding.json", &pretty(&meta(None)))?;
    let Some(iso) = sh
        .campaign
        .isolation
        .as_ref()
        .filter(|_| sh.campaign.reduce)
    else {
        return Ok(None);
    };
    let case = DeathCase {
        engine: engine.to_string(),
        death: death.clone(),
        fault: sh.campaign.fault.clone(),
        step_limit: sh.campaign.step_limit,
        timeout: iso.timeout,
        memory_limit: iso.worker.memory_limit,
    };
    // The candidates run in child processes: their CPU time counts too.
    let opts = crate::cpu_clock::reduce_options_with_children(
        sh.campaign.reduce_time,
        sh.campaign.reduce_cpu_time,
    );
    if g.is_nv() {
        return record_death_nv(st, g, sig, &case, &opts, &meta);
    }
    let Some(r) = reduce_death(&case, &g.program, &g.inputs, sig, &opts) else {
        return Ok(None);
    };
    let text = stamped_text(
        &r,
        &format!("program.tgsi (seed {} index {})", g.seed, g.index),
    );
    st.write_finding_file(sig, "inputs.json", &inputs_json::to_json(&r.inputs))?;
    st.write_finding_file(sig, "reduced.tgsi", &text)?;
    let n = crate::reduce::size(&r.program);
    st.write_finding_file(sig, "finding.json", &pretty(&meta(Some(n))))?;
    Ok(Some(n))
}

/// Reduces an NV crash or hang finding as NV assembly ([`reduce_death_nv`]) and writes
/// `reduced.nv` (canonical NV text), NV-keyed `inputs.json` and `finding.json` with the
/// reduced size (NV instructions). Returns the reduced size.
fn record_death_nv(
    st: &shaderdiff_results::Store,
    g: &crate::fuzz_item::FuzzItem,
    sig: &Signature,
    case: &DeathCase,
    opts: &ReduceOptions,
    meta: &dyn Fn(Option<usize>) -> serde_json::Value,
) -> Result<Option<usize>, shaderdiff_results::StoreError> {
    let Ok(ast) = shaderdiff_nv::parse(&g.text, "program.nv") else {
        return Ok(None);
    };
    let Some(r) = reduce_death_nv(case, &ast, &g.inputs, sig, opts) else {
        return Ok(None);
    };
    let text = r.stamped_text(&format!("program.nv (seed {} index {})", g.seed, g.index));
    let inputs = inputs_json::to_json_nv(&r.inputs, &r.lowered.names);
    st.write_finding_file(sig, "inputs.json", &inputs)?;
    st.write_finding_file(sig, "reduced.nv", &text)?;
    let n = r.size();
    st.write_finding_file(sig, "finding.json", &pretty(&meta(Some(n))))?;
    Ok(Some(n))
}
