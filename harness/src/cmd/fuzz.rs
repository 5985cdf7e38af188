//! `shaderdiff fuzz [--lang tgsi|nv|mixed] [--seed S] [--programs N] [--time DURATION]
//! [--jobs N] [--shard I/N] [--backends ...] [--out DIR]` (INTERFACE.md "Commands" and
//! "`fuzz` output directory"); the campaign itself is [`crate::fuzz`].
//!
//! Defaults: a seed drawn from the clock (printed, and recorded in `summary.json`, so the
//! campaign can be repeated with `--seed`), `--jobs` = the number of cores, `--shard 0/1`,
//! `--out shaderdiff-out`. Without `--programs` or `--time` the campaign runs until Ctrl-C.
//! A progress line (programs, programs/s, findings, unsupported) is drawn on stderr when it
//! is a terminal and `CI` is not set. Ctrl-C stops at the next chunk and writes the summary
//! (a second Ctrl-C exits at once; everything found so far is already on disk).
//!
//! Engines run in supervised worker processes ([`crate::fuzz_worker`]): `--timeout` is the
//! longest a worker may stay silent (one program on one engine) before it is killed and the
//! program recorded as a timeout finding; `--worker-memory` limits each worker's address
//! space (running out is "poisoned", not a finding); `--in-process` runs everything in this
//! process instead (no isolation; for debugging). `--resume DIR` continues the campaign
//! whose output directory is DIR from its `progress.json`, with the settings recorded
//! there (only `--time` and `--jobs` may be given again).
//!
//! `--lang nv` generates NV assembly programs, `--lang mixed` TGSI at even and NV at odd
//! program indices ([`crate::fuzz_item`]); NV findings are written as `program.nv` /
//! `reduced.nv` with NV-keyed inputs, reduced as NV assembly (crash and hang findings
//! too: each candidate runs alone in a fresh process, [`crate::death_reduce`]).
//!
//! Exit status: 1 if any engine diverged on any program; else 4 if programs were poisoned
//! (their worker ran out of memory); else 0. 2 bad usage; 3 no engine to compare; 4 the
//! campaign could not go on (a file that cannot be written, a worker that cannot start,
//! an output directory locked by another run; `summary.json` then says `failed`).
//! SIGTERM and SIGHUP stop it like Ctrl-C ([`crate::signals`]).

use std::io::IsTerminal;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use clap::{Args, ValueEnum};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use shaderdiff_backends::FaultMode;
use shaderdiff_generators::random::RandomConfig;
use shaderdiff_results::Store;

use crate::cmd::diff::EngineArgs;
use crate::common::{emit, Failure};
use crate::fuzz::{self, Campaign, Isolation, Stats};
use crate::fuzz_chunk::Runner;
use crate::isolate::WorkerSpec;
use crate::progress::Progress;
use crate::reduce::REDUCE_STEP_LIMIT;

/// `--lang`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum FuzzLang {
    /// TGSI programs.
    Tgsi,
    /// NVIDIA assembly (`!!NVfp5.0`, `!!NVvp5.0`, `!!ARBfp1.0`, `!!ARBvp1.0`).
    Nv,
    /// TGSI at even program indices, NV assembly at odd ones.
    Mixed,
}

/// `shaderdiff fuzz` arguments.
#[derive(Clone, Debug, Args)]
pub struct FuzzArgs {
    /// Program language [default: tgsi, or the mode an `--inject-fault` fault needs].
    #[arg(long, value_enum)]
    pub lang: Option<FuzzLang>,
    /// With `--lang nv`: only `!!ARBfp1.0` / `!!ARBvp1.0` programs using every ARB ALU
    /// instruction (for `--backends interp,mesa`); the summary's `lang` is `arb`.
    #[arg(long)]
    pub arb_only: bool,
    /// With `--lang nv`: only the vertex and fragment ALU programs (no geometry, compute,
    /// memory, texture, vote or BRA features: `NvFeatures::NONE`); the summary's `lang` is
    /// `nv-alu`.
    #[arg(long, conflicts_with = "arb_only")]
    pub nv_alu_only: bool,
    /// Campaign seed [default: from the clock; printed].
    #[arg(long, value_name = "S")]
    pub seed: Option<u64>,
    /// Stop after N programs.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub programs: Option<u64>,
    /// Stop after this long (`60s`, `5m`, `1h`; more than zero).
    #[arg(long, value_name = "DURATION", value_parser = crate::limits::parse_budget)]
    pub time: Option<Duration>,
    /// Stop at the next chunk boundary once N unique findings are recorded (each already
    /// reduced unless `--no-reduce`); `summary.json` says how many programs ran and each
    /// finding's `first_index`.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub stop_after_findings: Option<u64>,
    /// Worker processes (threads with --in-process) [default: number of cores].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=1024))]
    pub jobs: Option<u64>,
    /// This machine's share of the campaign: programs I, I+N, I+2N, ...
    #[arg(long, value_name = "I/N", default_value = "0/1", value_parser = parse_shard)]
    pub shard: (u64, u64),
    /// Engines and comparison options.
    #[command(flatten)]
    pub engines: EngineArgs,
    /// Output directory (INTERFACE.md layout).
    #[arg(long, value_name = "DIR", default_value = "shaderdiff-out")]
    pub out: PathBuf,
    /// Invocations per program (rounded up to whole quads for fragment programs).
    #[arg(long, value_name = "N", default_value_t = 16,
          value_parser = clap::value_parser!(u64).range(1..=4096))]
    pub invocations: u64,
    /// Approximate instruction budget per program.
    #[arg(long, value_name = "N", default_value_t = 48,
          value_parser = clap::value_parser!(u64).range(1..=10_000))]
    pub max_instructions: u64,
    /// Also generate operations whose result the specification leaves undefined for some
    /// inputs (the comparators skip undefined channels).
    #[arg(long)]
    pub allow_undefined: bool,
    /// Also generate the 64-bit opcodes (doubles and 64-bit integers) in TGSI programs, and
    /// 64-bit statements (LONG TEMPs, PK64 / UP64, F64 / S64 / U64 operations, CVT) in NV
    /// programs.
    #[arg(long = "64bit")]
    pub wide: bool,
    /// Also generate memory programs (TGSI COMP programs whose atomics, loads, stores and
    /// barriers on BUFFER and SHARED memory collide: one address, four hot addresses,
    /// strides), about 2 in 5.
    #[arg(long)]
    pub memory: bool,
    /// Do not reduce new findings.
    #[arg(long)]
    pub no_reduce: bool,
    /// Wall-clock budget of each reduction (a backstop; `--reduce-cpu-time` is the budget
    /// that does not depend on how loaded the machine is). A reduction stops at whichever
    /// budget ends first.
    #[arg(long, value_name = "DURATION", default_value = "5m", value_parser = humantime::parse_duration)]
    pub reduce_time: Duration,
    /// CPU-time budget of each reduction: CPU time of the thread that reduces (the engines
    /// run in it), which waiting for a core on a loaded machine does not use up.
    #[arg(long, value_name = "DURATION", default_value = "30s", value_parser = humantime::parse_duration)]
    pub reduce_cpu_time: Duration,
    /// Write DIR/programs.log: `INDEX FINGERPRINT` of every program, in stream order (kept
    /// in progress.json until the end: meant for test-sized campaigns).
    #[arg(long)]
    pub log_programs: bool,
    /// Longest a worker may run one program on one engine before it is killed (a hang).
    #[arg(long, value_name = "DURATION", default_value = "10s", value_parser = humantime::parse_duration)]
    pub timeout: Duration,
    /// Address-space limit of each worker process (`4GiB`, `512MiB`, `none`).
    #[arg(long, value_name = "SIZE", default_value = "8GiB", value_parser = crate::isolate::parse_memory_limit)]
    pub worker_memory: crate::isolate::MemoryLimit,
    /// Run engines in this process, not in worker processes (no crash or hang isolation).
    #[arg(long)]
    pub in_process: bool,
    /// Continue the killed or stopped campaign in DIR (its progress.json has its settings).
    #[arg(long, value_name = "DIR", conflicts_with_all = [
        "seed", "programs", "stop_after_findings", "shard", "out", "lang", "arb_only", "nv_alu_only", "backends", "nan", "step_limit",
        "inject_fault", "schedule_seed", "denormals", "invocations", "max_instructions", "allow_undefined", "wide", "memory", "no_reduce",
        "reduce_time", "reduce_cpu_time", "log_programs", "timeout", "worker_memory",
    ])]
    pub resume: Option<PathBuf>,
}

impl FuzzArgs {
    /// `--lang`, tgsi when not given.
    pub fn lang(&self) -> FuzzLang {
        self.lang.unwrap_or(FuzzLang::Tgsi)
    }

    /// Whether the command line chose a generator mode (`--lang`, `--arb-only`,
    /// `--nv-alu-only`, `--64bit`, `--memory`).
    pub fn chose_mode(&self) -> bool {
        self.lang.is_some() || self.arb_only || self.nv_alu_only || self.wide || self.memory
    }

    /// These arguments with the generator mode `mode` switched on.
    pub fn with_mode(&self, mode: FaultMode) -> FuzzArgs {
        let mut a = self.clone();
        match mode {
            FaultMode::Tgsi => {}
            FaultMode::Wide => a.wide = true,
            FaultMode::Memory => a.memory = true,
            FaultMode::NvAlu => {
                a.lang = Some(FuzzLang::Nv);
                a.nv_alu_only = true;
            }
            FaultMode::Nv => a.lang = Some(FuzzLang::Nv),
        }
        a
    }
}

/// `args` with the generator mode of its `--inject-fault` fault switched on (announced on
/// stderr), when the fault needs one and the command line chose no mode; `None` otherwise.
fn with_fault_mode(args: &FuzzArgs) -> Option<FuzzArgs> {
    let mode = crate::faults::mode(args.engines.inject_fault.as_deref()?)?;
    if mode == FaultMode::Tgsi || args.chose_mode() {
        return None;
    }
    eprintln!(
        "shaderdiff fuzz: --inject-fault {} needs {} programs: generating with {}",
        args.engines.inject_fault.as_deref().unwrap_or(""),
        crate::faults::mode_name(mode),
        crate::faults::mode_flags(mode)
    );
    Some(args.with_mode(mode))
}

/// Parses `fuzz` arguments alone (a resumed campaign's recorded arguments).
#[derive(Debug, clap::Parser)]
#[command(name = "fuzz")]
struct FuzzOnly {
    #[command(flatten)]
    args: FuzzArgs,
    /// The limits the campaign ran under (recorded when not at their defaults).
    #[command(flatten)]
    limits: crate::limits::Limits,
}

fn value_name<T: ValueEnum>(v: &T) -> String {
    v.to_possible_value()
        .map(|p| p.get_name().to_string())
        .unwrap_or_default()
}

/// The arguments that define the campaign `args` describes, with `seed`, in canonical
/// form: what `progress.json` records and what worker processes are started with.
pub fn canonical_argv(args: &FuzzArgs, seed: u64) -> Vec<String> {
    let mut v: Vec<String> = vec![
        "--lang".into(),
        value_name(&args.lang()),
        "--seed".into(),
        seed.to_string(),
        "--shard".into(),
        format!("{}/{}", args.shard.0, args.shard.1),
        "--backends".into(),
        args.engines.backends.join(","),
        "--nan".into(),
        value_name(&args.engines.nan),
        "--step-limit".into(),
        args.engines.step_limit.to_string(),
        "--out".into(),
        args.out.display().to_string(),
        "--invocations".into(),
        args.invocations.to_string(),
        "--max-instructions".into(),
        args.max_instructions.to_string(),
        "--reduce-time".into(),
        humantime::format_duration(args.reduce_time).to_string(),
        "--reduce-cpu-time".into(),
        humantime::format_duration(args.reduce_cpu_time).to_string(),
        "--timeout".into(),
        humantime::format_duration(args.timeout).to_string(),
        "--worker-memory".into(),
        args.worker_memory.to_string(),
    ];
    if let Some(p) = args.programs {
        v.extend(["--programs".into(), p.to_string()]);
    }
    if let Some(n) = args.stop_after_findings {
        v.extend(["--stop-after-findings".into(), n.to_string()]);
    }
    if let Some(f) = &args.engines.inject_fault {
        v.extend(["--inject-fault".into(), f.clone()]);
    }
    if let Some(d) = &args.engines.denormals {
        v.extend(["--denormals".into(), value_name(d)]);
    }
    if args.engines.schedule_seed != 0 {
        v.extend([
            "--schedule-seed".into(),
            args.engines.schedule_seed.to_string(),
        ]);
    }
    for (on, flag) in [
        (args.arb_only, "--arb-only"),
        (args.nv_alu_only, "--nv-alu-only"),
        (args.allow_undefined, "--allow-undefined"),
        (args.wide, "--64bit"),
        (args.memory, "--memory"),
        (args.no_reduce, "--no-reduce"),
        (args.log_programs, "--log-programs"),
    ] {
        if on {
            v.push(flag.into());
        }
    }
    v
}

/// The campaign arguments recorded in `DIR/progress.json`, with this command's `--time`
/// and `--jobs`.
fn resumed_args(dir: &std::path::Path, now: &FuzzArgs) -> Result<(FuzzArgs, Progress), Failure> {
    let p = Progress::load(dir).map_err(Failure::BadInput)?;
    let argv = std::iter::once("fuzz".to_string()).chain(p.argv.iter().cloned());
    let parsed = <FuzzOnly as clap::Parser>::try_parse_from(argv).map_err(|e| {
        Failure::BadInput(format!(
            "{}: bad recorded arguments: {}",
            Progress::path(dir).display(),
            e.to_string().lines().next().unwrap_or("")
        ))
    })?;
    // The campaign keeps the limits it was started with (they decide which programs an
    // engine is given), like every other recorded option.
    if crate::limits::get() != parsed.limits && crate::limits::get() != Default::default() {
        eprintln!(
            "shaderdiff fuzz: --resume keeps the limits the campaign was started with ({}); \
             the limit flags given now are ignored",
            limit_flags_text(&parsed.limits)
        );
    }
    // The generator of the campaign's language (an NV campaign is stale once the NV
    // generator changes, whatever the TGSI generator's version).
    let version = crate::fuzz_item::generator_version(&campaign_lang(&parsed.args));
    if p.generator_version != version {
        return Err(Failure::BadInput(format!(
            "{}: the campaign used generator {}, this shaderdiff has {version}: it cannot be resumed",
            Progress::path(dir).display(),
            p.generator_version,
        )));
    }
    crate::limits::set(parsed.limits);
    let mut args = parsed.args;
    // The directory named by --resume wins over the recorded --out (it may have moved).
    args.out = dir.to_path_buf();
    args.time = now.time;
    args.jobs = now.jobs;
    args.in_process = now.in_process;
    Ok((args, p))
}

/// The flags of `limits` that differ from the defaults, for messages (`defaults` if none).
fn limit_flags_text(limits: &crate::limits::Limits) -> String {
    let flags = crate::limits::flags_of(limits);
    if flags.is_empty() {
        "defaults".into()
    } else {
        flags.join(" ")
    }
}

/// Parses `I/N` with `N >= 1` and `I < N`.
pub fn parse_shard(s: &str) -> Result<(u64, u64), String> {
    let (i, n) = s.split_once('/').ok_or("expected I/N, e.g. 0/4")?;
    let i: u64 = i
        .trim()
        .parse()
        .map_err(|_| format!("`{i}` is not a number"))?;
    let n: u64 = n
        .trim()
        .parse()
        .map_err(|_| format!("`{n}` is not a number"))?;
    if n == 0 || i >= n {
        return Err(format!("shard {i}/{n}: need 0 <= I < N"));
    }
    Ok((i, n))
}

fn clock_seed() -> u64 {
    let t = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos() as u64)
        .unwrap_or(0);
    (t ^ (std::process::id() as u64) << 32) % 1_000_000_000
}

/// The campaign's language as the summary records it: `arb`, `nv-alu`, else `--lang`.
fn campaign_lang(args: &FuzzArgs) -> String {
    if args.arb_only {
        "arb".into()
    } else if args.nv_alu_only {
        "nv-alu".into()
    } else {
        value_name(&args.lang())
    }
}

/// The campaign `args` describe.
pub fn campaign(args: &FuzzArgs, seed: u64) -> Campaign {
    let mut config = RandomConfig::with_defined_only(!args.allow_undefined);
    config.invocations = args.invocations as usize;
    config.gen.max_instructions = args.max_instructions as usize;
    config.gen.wide = args.wide;
    config.gen.memory = args.memory;
    let jobs = args.jobs.map(|j| j as usize).unwrap_or_else(|| {
        std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1)
    });
    Campaign {
        seed,
        shard: args.shard,
        config,
        programs: args.programs,
        time: args.time,
        stop_after_findings: args.stop_after_findings,
        jobs,
        reduce: !args.no_reduce,
        reduce_time: args.reduce_time,
        reduce_cpu_time: args.reduce_cpu_time,
        log_programs: args.log_programs,
        fault: args.engines.inject_fault.clone(),
        lang: campaign_lang(args),
        step_limit: args.engines.step_limit,
        // The limits are global flags, recorded after the campaign's own (only those not
        // at their defaults); workers get them from `limits::worker_args` instead.
        argv: canonical_argv(args, seed)
            .into_iter()
            .chain(crate::limits::worker_args())
            .collect(),
        isolation: (!args.in_process).then(|| Isolation {
            worker: WorkerSpec {
                args: ["worker", "fuzz"]
                    .iter()
                    .map(|s| s.to_string())
                    .chain(canonical_argv(args, seed))
                    .map(Into::into)
                    .collect(),
                memory_limit: args.worker_memory.0,
            },
            timeout: args.timeout,
        }),
    }
}

/// `shaderdiff worker fuzz ARGS`: serves chunk requests on stdin ([`crate::fuzz_worker`]).
pub fn worker(args: &FuzzArgs) -> u8 {
    let Some(seed) = args.seed else {
        eprintln!("shaderdiff worker fuzz: --seed is required");
        return 2;
    };
    let setup = || -> Result<_, Failure> {
        let differ = args.engines.differ_with(args.engines.step_limit, false)?;
        let mut small = args.engines.clone();
        small.step_limit = args.engines.step_limit.min(REDUCE_STEP_LIMIT);
        let reducer = small.differ_with(small.step_limit, false)?;
        let store = Store::create(&args.out).map_err(|e| Failure::BadInput(e.to_string()))?;
        Ok((differ, reducer, store))
    };
    match setup() {
        Ok((differ, reducer, store)) => {
            let c = campaign(args, seed);
            let runner = Runner {
                campaign: &c,
                differ: &differ,
                reducer: &reducer,
                store: &store,
            };
            crate::fuzz_worker::worker_main(&runner)
        }
        Err(f) => {
            eprintln!("{}", f.message());
            f.code()
        }
    }
}

fn progress(programs: Option<u64>) -> ProgressBar {
    let visible = std::io::stderr().is_terminal() && std::env::var_os("CI").is_none();
    let target = if visible {
        ProgressDrawTarget::stderr()
    } else {
        ProgressDrawTarget::hidden()
    };
    let bar = ProgressBar::with_draw_target(programs, target);
    let template = if programs.is_some() {
        "{elapsed_precise} [{bar:30}] {msg}"
    } else {
        "{elapsed_precise} {spinner} {msg}"
    };
    if let Ok(style) = ProgressStyle::with_template(template) {
        bar.set_style(style.progress_chars("=> "));
    }
    bar
}

/// Runs `shaderdiff fuzz`; returns the exit status.
pub fn execute(args: &FuzzArgs) -> u8 {
    match run(args) {
        Ok(code) => code,
        Err(f) => {
            eprintln!("{}", f.message());
            f.code()
        }
    }
}

fn run(args: &FuzzArgs) -> Result<u8, Failure> {
    // One run per output directory (crate::lock), taken before progress.json is read so
    // that a run and a --resume of one directory cannot both work on it.
    let dir = args.resume.as_ref().unwrap_or(&args.out);
    let _lock = if args.resume.is_none() || dir.is_dir() {
        Some(crate::lock::acquire(dir)?)
    } else {
        None
    };
    let (resumed, resume) = match &args.resume {
        Some(dir) => {
            let (a, p) = resumed_args(dir, args)?;
            (Some(a), Some(p))
        }
        None => (None, None),
    };
    let args = resumed.as_ref().unwrap_or(args);
    crate::faults::check(args.engines.inject_fault.as_deref())?;
    let moded = with_fault_mode(args);
    let args = moded.as_ref().unwrap_or(args);
    if args.arb_only && args.lang() != FuzzLang::Nv {
        return Err(Failure::BadInput("fuzz --arb-only needs --lang nv".into()));
    }
    if args.nv_alu_only && args.lang() != FuzzLang::Nv {
        return Err(Failure::BadInput(
            "fuzz --nv-alu-only needs --lang nv".into(),
        ));
    }
    let differ = args.engines.differ()?;
    let mut small = args.engines.clone();
    small.step_limit = args.engines.step_limit.min(REDUCE_STEP_LIMIT);
    let reducer = small.differ_with(small.step_limit, false)?;
    let seed = args.seed.unwrap_or_else(clock_seed);
    let c = campaign(args, seed);
    let store = Store::create(&args.out).map_err(|e| Failure::Run(e.to_string()))?;
    if let Some(p) = &resume {
        let done: u64 = p.done.iter().map(|(a, b)| b - a).sum();
        eprintln!(
            "shaderdiff fuzz: resuming {}: {} programs in {done} chunks already done",
            args.out.display(),
            p.programs
        );
    }
    eprintln!(
        "shaderdiff fuzz: seed {seed}, shard {}/{}, {} job{}, engines {} vs {}, output {}",
        c.shard.0,
        c.shard.1,
        c.jobs,
        if c.jobs == 1 { "" } else { "s" },
        crate::diff::ORACLE,
        differ.engine_names().join(","),
        args.out.display()
    );
    let stop = Arc::new(AtomicBool::new(false));
    crate::signals::install(stop.clone());
    let stats = Stats::default();
    let bar = progress(c.programs);
    let done = AtomicBool::new(false);
    let result = std::thread::scope(|s| {
        s.spawn(|| {
            let start = std::time::Instant::now();
            while !done.load(Ordering::Relaxed) {
                let n = stats.programs.load(Ordering::Relaxed);
                let rate = n as f64 / start.elapsed().as_secs_f64().max(1e-3);
                bar.set_position(n);
                bar.set_message(format!(
                    "{n} programs, {rate:.0}/s, {} findings, {} unsupported",
                    stats.findings.load(Ordering::Relaxed),
                    stats.unsupported.load(Ordering::Relaxed)
                ));
                std::thread::sleep(Duration::from_millis(200));
            }
        });
        // Stop the progress thread however `fuzz::run` ends: a panic would otherwise
        // leave the scope waiting for it forever.
        struct Done<'a>(&'a AtomicBool);
        impl Drop for Done<'_> {
            fn drop(&mut self) {
                self.0.store(true, Ordering::Relaxed);
            }
        }
        let _done = Done(&done);
        fuzz::run(&c, &differ, &reducer, &store, &stats, &stop, resume)
    });
    bar.finish_and_clear();
    let outcome = result.map_err(|e| {
        Failure::Run(format!(
            "{e}\nshaderdiff fuzz: the campaign stopped (summary.json says \"failed\"); \
             fix the cause and continue it with --resume {}",
            args.out.display()
        ))
    })?;
    let s = &outcome.summary;
    let mut text = format!(
        "fuzz: {} programs in {:.1}s ({:.0}/s), seed {}, shard {}, engines {}: {} mismatch{}, {} unique finding{}, {} unsupported{}{}\n",
        s.programs,
        s.elapsed_s,
        s.programs_per_s,
        s.seed,
        s.shard,
        s.engines.join(","),
        s.mismatches,
        if s.mismatches == 1 { "" } else { "es" },
        s.unique_findings,
        if s.unique_findings == 1 { "" } else { "s" },
        s.unsupported,
        if s.poisoned > 0 {
            format!(", {} poisoned", s.poisoned)
        } else {
            String::new()
        },
        if stop.load(Ordering::Relaxed) { " (interrupted)" } else { "" }
    );
    text.push_str(&format!(
        "summary: {}\n",
        store.root().join("summary.json").display()
    ));
    text.push_str(&format!(
        "findings: {}{}\n",
        store.root().join("findings").display(),
        if s.findings.is_empty() { " (none)" } else { "" }
    ));
    for f in &s.findings {
        let dir = store.root().join("findings").join(&f.signature);
        text.push_str(&format!(
            "finding {}: {} program{}{}, {}\n",
            f.signature,
            f.count,
            if f.count == 1 { "" } else { "s" },
            f.reduced_instructions
                .map(|n| format!(
                    ", reduced to {n} instruction{}",
                    if n == 1 { "" } else { "s" }
                ))
                .unwrap_or_default(),
            dir.display()
        ));
    }
    emit(&text)?;
    Ok(exit_status(s))
}

/// The exit status of a campaign that ran (docs/campaigns.md "Exit status"): 1 when it
/// found something; else 4 when programs could not be compared for want of resources
/// (poisoned: raise `--worker-memory`); else 0.
pub fn exit_status(s: &shaderdiff_results::Summary) -> u8 {
    if s.mismatches > 0 {
        1
    } else if s.poisoned > 0 {
        4
    } else {
        0
    }
}
