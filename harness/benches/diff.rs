//! Differential throughput: generated programs of about 30 instructions × 64 invocations,
//! compared on every available engine against the oracle (target
//! ≥ 1,000 programs/s with `--jobs 2`).
//!
//! Prints, besides criterion's report:
//! * `throughput`: a whole campaign (`shaderdiff::fuzz::run`, 2 jobs, no findings expected)
//!   in programs/s;
//! * `breakdown`: where one thread's time goes per program — generation, the oracle with
//!   acceptance intervals, engine preparation (jit: batched code modules), engine runs and
//!   comparison.
//!
//! `cargo bench -p shaderdiff --bench diff`
// `criterion_group!` defines a public function without documentation.
#![allow(missing_docs)]

use std::hint::black_box;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use shaderdiff::diff::{engines_from_names, Differ};
use shaderdiff::fuzz::{self, Campaign, Stats};
use shaderdiff_backends::ENGINE_NAMES;
use shaderdiff_generators::random::{generate, Generated, RandomConfig};
use shaderdiff_oracles::precision::NanPolicy;
use shaderdiff_results::Store;

const INSTRUCTIONS: usize = 30;
const INVOCATIONS: usize = 64;
const SEED: u64 = 2024;

fn config() -> RandomConfig {
    let mut c = RandomConfig::default();
    c.gen.max_instructions = INSTRUCTIONS;
    c.invocations = INVOCATIONS;
    c
}

fn differ() -> Differ {
    let names: Vec<String> = ENGINE_NAMES.iter().map(|s| s.to_string()).collect();
    let (engines, _) = engines_from_names(&names, 1_000_000, None);
    Differ::new(engines, 1_000_000, NanPolicy::Any).expect("every engine has a class")
}

fn programs(n: u64) -> Vec<Generated> {
    let cfg = config();
    (0..n).map(|i| generate(SEED, i, &cfg)).collect()
}

/// A whole campaign with 2 jobs: programs/s.
fn campaign_throughput(n: u64) -> f64 {
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
        log_programs: false,
        fault: None,
        lang: "tgsi".into(),
        step_limit: 1_000_000,
        argv: Vec::new(),
        // In process: the bench measures the engines, not process start-up.
        isolation: None,
    };
    let d = differ();
    let stats = Stats::default();
    let start = Instant::now();
    let out =
        fuzz::run(&c, &d, &d, &store, &stats, &AtomicBool::new(false), None).expect("campaign");
    let rate = out.summary.programs as f64 / start.elapsed().as_secs_f64();
    if out.summary.mismatches > 0 {
        println!(
            "note: {} of {n} programs diverged (findings are not reduced in the bench)",
            out.summary.mismatches
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
    rate
}

/// Per-program cost of each stage on one thread, in microseconds.
fn breakdown(n: u64) {
    let d = differ();
    let t = Instant::now();
    let gen = programs(n);
    let t_gen = t.elapsed();
    let sizes: usize = gen.iter().map(|g| g.program.instructions.len()).sum();
    let t = Instant::now();
    let oracles: Vec<_> = gen
        .iter()
        .map(|g| d.oracle_for(0, &g.program, &g.inputs).ok())
        .collect();
    let t_oracle = t.elapsed();
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
    let t = Instant::now();
    for ((g, o), runs) in gen.iter().zip(&oracles).zip(&outs) {
        if let Some(o) = o {
            for (e, r) in d.engines().iter().zip(runs) {
                if let Some(r) = r {
                    black_box(d.judge(&g.program, o, e.name(), r));
                }
            }
        }
    }
    let t_cmp = t.elapsed();
    let us = |x: Duration| x.as_secs_f64() * 1e6 / n as f64;
    let total = t_gen + t_oracle + t_prep + t_run + t_cmp;
    println!(
        "breakdown (1 thread, {n} programs, {:.1} instructions each incl. END, {INVOCATIONS} invocations, engines {:?}):",
        sizes as f64 / n as f64,
        d.engine_names()
    );
    for (name, x) in [
        ("generate", t_gen),
        ("oracle + intervals", t_oracle),
        ("engine prepare (batched)", t_prep),
        ("engine run", t_run),
        ("compare", t_cmp),
    ] {
        println!(
            "  {name:<26} {:>8.1} us/program  {:>5.1}%",
            us(x),
            100.0 * x.as_secs_f64() / total.as_secs_f64()
        );
    }
    println!(
        "  {:<26} {:>8.1} us/program  ({:.0} programs/s on one thread)",
        "total",
        us(total),
        n as f64 / total.as_secs_f64()
    );
}

fn bench(c: &mut Criterion) {
    breakdown(2000);
    let rate = campaign_throughput(10_000);
    println!("throughput: {rate:.0} programs/s (2 jobs; target >= 1000)");
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
