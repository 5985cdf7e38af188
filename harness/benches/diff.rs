//! Differential throughput: generated programs of about 30 instructions × 64 invocations,
//! compared on every built-in engine (interp as the oracle, jit, valhall) with the `fuzz`
//! command's generator (target ≥ 2,000 programs/s with `--jobs 2` on 2 cores).
//!
//! Prints, besides criterion's report:
//! * `throughput`: a whole campaign (`shaderdiff::fuzz::run`, 2 jobs, no findings expected)
//!   in programs/s;
//! * `breakdown`: where one thread's time goes per program — generation, the oracle's plain
//!   run, engine preparation (jit: batched code modules), engine runs, and the judgement (the
//!   plain run's values settle most; the rest take the oracle with acceptance intervals and
//!   the comparator, as `Differ::diff_prepared` does);
//! * in the same run, the jit's compile medians and the interp/jit execution speed against
//!   Mesa's tgsi_exec (`side_by_side`; docs/performance.md).
//!
//! `cargo bench -p shaderdiff --bench diff`
// `criterion_group!` defines a public function without documentation.
#![allow(missing_docs)]

mod side_by_side;

use std::hint::black_box;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use shaderdiff::diff::{engines_from_names, Differ};
use shaderdiff::fuzz::{self, Campaign, Stats};
use shaderdiff_backends::ENGINE_NAMES;
use shaderdiff_compare::point::{self, NanLeniency};
use shaderdiff_generators::random::{generate, Generated, RandomConfig};
use shaderdiff_oracles::interp::{self, InterpConfig};
use shaderdiff_oracles::precision::NanPolicy;
use shaderdiff_results::Store;

const INSTRUCTIONS: usize = 30;
const INVOCATIONS: usize = 64;
const SEED: u64 = 2024;
const STEPS: u64 = 1_000_000;

fn config() -> RandomConfig {
    let mut c = RandomConfig::default();
    c.gen.max_instructions = INSTRUCTIONS;
    c.invocations = INVOCATIONS;
    c
}

fn differ() -> Differ {
    let names: Vec<String> = ENGINE_NAMES.iter().map(|s| s.to_string()).collect();
    let (engines, _) = engines_from_names(&names, STEPS, None);
    Differ::new(engines, STEPS, NanPolicy::Any).expect("every engine has a class")
}

fn programs(n: u64) -> Vec<Generated> {
    let cfg = config();
    (0..n).map(|i| generate(SEED, i, &cfg)).collect()
}

/// CPU time (user + system) of this process so far, from `/proc/self/stat` (Linux; `None`
/// elsewhere). Clock ticks are taken as 100 per second (the Linux `USER_HZ`).
fn cpu_time() -> Option<Duration> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // Fields after the parenthesized command name; utime and stime are fields 14 and 15.
    let rest = &stat[stat.rfind(')')? + 2..];
    let f: Vec<&str> = rest.split_whitespace().collect();
    let ticks: u64 = f.get(11)?.parse::<u64>().ok()? + f.get(12)?.parse::<u64>().ok()?;
    Some(Duration::from_millis(ticks * 10))
}

/// A whole campaign with 2 jobs: programs/s of wall time, and programs per CPU-second (the
/// rate two otherwise idle cores would give, halved; the machine the bench runs on may be
/// shared).
fn campaign_throughput(n: u64) -> (f64, Option<f64>) {
    let dir = std::env::temp_dir().join(format!("shaderdiff-bench-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let store = Store::create(&dir).expect("temp dir");
    let c = Campaign {
        seed: SEED,
        shard: (0, 1),
        config: config(),
        programs: Some(n),
        time: None,
        stop_after_findings: None,
        jobs: 2,
        reduce: false,
        reduce_time: Duration::from_secs(1),
        reduce_cpu_time: Duration::from_secs(1),
        log_programs: false,
        fault: None,
        lang: "tgsi".into(),
        step_limit: STEPS,
        argv: Vec::new(),
        // In process: the bench measures the engines, not process start-up.
        isolation: None,
    };
    let d = differ();
    let stats = Stats::default();
    let (start, cpu0) = (Instant::now(), cpu_time());
    let out =
        fuzz::run(&c, &d, &d, &store, &stats, &AtomicBool::new(false), None).expect("campaign");
    let programs = out.summary.programs as f64;
    let rate = programs / start.elapsed().as_secs_f64();
    let per_cpu = match (cpu0, cpu_time()) {
        (Some(a), Some(b)) if b > a => Some(programs / (b - a).as_secs_f64()),
        _ => None,
    };
    if out.summary.mismatches > 0 {
        println!(
            "note: {} of {n} programs diverged (findings are not reduced in the bench)",
            out.summary.mismatches
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
    (rate, per_cpu)
}

/// Per-program cost of each stage on one thread, in microseconds.
fn breakdown(n: u64) {
    let d = differ();
    let t = Instant::now();
    let gen = programs(n);
    let t_gen = t.elapsed();
    let sizes: usize = gen.iter().map(|g| g.program.instructions.len()).sum();
    let t = Instant::now();
    let points: Vec<_> = gen
        .iter()
        .map(|g| interp::run(&g.program, &g.inputs, &InterpConfig { step_limit: STEPS }).ok())
        .collect();
    let t_point = t.elapsed();
    let refs: Vec<&shaderdiff_model::Program> = gen.iter().map(|g| &g.program).collect();
    let t = Instant::now();
    let prepared: Vec<_> = refs
        .chunks(fuzz::CHUNK as usize)
        .flat_map(|c| d.prepare_batch(c))
        .collect();
    let t_prep = t.elapsed();
    let t = Instant::now();
    let mut outs = Vec::new();
    for (g, p) in gen.iter().zip(&prepared) {
        let per_engine: Vec<_> = d
            .engines()
            .iter()
            .zip(p)
            .map(|(e, c)| {
                c.as_ref()
                    .ok()
                    .and_then(|c| e.run(c.as_ref(), &g.inputs).ok())
            })
            .collect();
        outs.push(per_engine);
    }
    let t_run = t.elapsed();
    // As `Differ::diff_prepared` judges: the plain run's values settle most verdicts
    // (compare/src/point.rs); the rest need the oracle with intervals.
    let t = Instant::now();
    let (mut judged, mut with_intervals) = (0, 0);
    for ((g, point), runs) in gen.iter().zip(&points).zip(&outs) {
        let nan = NanLeniency::new(&g.program, NanPolicy::Any);
        for (e, r) in runs.iter().enumerate() {
            let Some(r) = r else { continue };
            judged += 1;
            let settled = point
                .as_ref()
                .is_some_and(|p| point::settles(p, d.denormal_mode(e), r, &nan).is_some());
            if !settled {
                with_intervals += 1;
                let _ = black_box(d.judge_by_intervals(e, &g.program, &g.inputs, r));
            }
        }
    }
    let t_cmp = t.elapsed();
    let us = |x: Duration| x.as_secs_f64() * 1e6 / n as f64;
    let total = t_gen + t_point + t_prep + t_run + t_cmp;
    println!(
        "breakdown (1 thread, {n} programs, {:.1} instructions each incl. END, {INVOCATIONS} invocations, engines {:?}):",
        sizes as f64 / n as f64,
        d.engine_names()
    );
    for (name, x) in [
        ("generate", t_gen),
        ("oracle, plain run", t_point),
        ("engine prepare (batched)", t_prep),
        ("engine run", t_run),
        ("judge (intervals if needed)", t_cmp),
    ] {
        println!(
            "  {name:<26} {:>8.1} us/program  {:>5.1}%",
            us(x),
            100.0 * x.as_secs_f64() / total.as_secs_f64()
        );
    }
    println!("  ({with_intervals} of {judged} engine results needed the oracle's intervals)");
    println!(
        "  {:<26} {:>8.1} us/program  ({:.0} programs/s on one thread)",
        "total",
        us(total),
        n as f64 / total.as_secs_f64()
    );
}

fn bench(c: &mut Criterion) {
    side_by_side::print(&config(), SEED);
    breakdown(640);
    // 120 chunks: each of the 2 workers claims chunks of 64 programs as it goes, so the
    // last chunk leaves one core idle for up to a chunk's time (about 65 ms); over 2,560
    // programs that tail cost a few percent of the wall time, over 7,680 under 1%.
    let (rate, per_cpu) = campaign_throughput(7_680);
    println!(
        "throughput: {rate:.0} programs/s ({INSTRUCTIONS} instructions x {INVOCATIONS} invocations x 3 engines, 2 jobs, in process; target >= 2000)"
    );
    if let Some(p) = per_cpu {
        println!(
            "throughput per CPU-second: {p:.0} programs; on 2 idle cores: {:.0} programs/s",
            2.0 * p
        );
    }
    let d = differ();
    let batch = programs(fuzz::CHUNK);
    let items: Vec<_> = batch.iter().map(|g| (&g.program, &g.inputs)).collect();
    let mut g = c.benchmark_group("diff");
    g.throughput(Throughput::Elements(fuzz::CHUNK));
    g.sample_size(20);
    g.bench_function("diff_batch 64 programs x 64 invocations", |b| {
        b.iter(|| black_box(d.diff_batch(&items)))
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
