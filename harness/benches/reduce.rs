//! Reduction time: generated programs of about 200 instructions on which the jit's injected
//! fault `dp3-reads-w` shows, reduced with the same settings `fuzz` uses (step budget
//! `REDUCE_STEP_LIMIT`). Prints the median, the spread and the reduced sizes (target
//! median ≤ 2 s).
//!
//! `cargo bench -p shaderdiff --bench reduce`
// `criterion_group!` defines a public function without documentation.
#![allow(missing_docs)]

use std::time::Instant;

use criterion::{criterion_group, criterion_main, Criterion};
use shaderdiff::diff::{engines_from_names, Differ};
use shaderdiff::reduce::{reduce, size, ReduceOptions, REDUCE_STEP_LIMIT};
use shaderdiff_generators::random::{generate, Generated, RandomConfig};
use shaderdiff_oracles::precision::NanPolicy;

const FAULT: &str = "dp3-reads-w";
const SEED: u64 = 77;
const CASES: usize = 9;

fn differ(step_limit: u64) -> Differ {
    let (engines, _) = engines_from_names(&["jit".to_string()], step_limit, Some(FAULT));
    Differ::new(engines, step_limit, NanPolicy::Any).expect("jit has a class")
}

/// The first `CASES` generated 200-instruction programs on which the fault shows.
fn cases(d: &Differ) -> Vec<Generated> {
    let mut cfg = RandomConfig::default();
    cfg.gen.max_instructions = 200;
    let mut out = Vec::new();
    for i in 0..20_000 {
        let g = generate(SEED, i, &cfg);
        if size(&g.program) >= 150 && d.diff(&g.program, &g.inputs).diverged() {
            out.push(g);
            if out.len() == CASES {
                break;
            }
        }
    }
    out
}

fn bench(c: &mut Criterion) {
    let d = differ(REDUCE_STEP_LIMIT);
    let cases = cases(&d);
    let mut times = Vec::new();
    for g in &cases {
        let t = Instant::now();
        let r = reduce(
            &d,
            0,
            &g.program,
            &g.inputs,
            None,
            &ReduceOptions::default(),
        )
        .expect("the case diverges");
        let s = t.elapsed().as_secs_f64();
        println!(
            "reduce {}: {} -> {} instructions, {} candidates, {:.3}s, {}",
            g.name(),
            size(&g.program),
            size(&r.program),
            r.tests,
            s,
            r.divergence.signature
        );
        times.push(s);
    }
    times.sort_by(f64::total_cmp);
    if let (Some(min), Some(max)) = (times.first(), times.last()) {
        println!(
            "reduction: median {:.3}s over {} programs of ~200 instructions (min {min:.3}s, max {max:.3}s; target <= 2s)",
            times[times.len() / 2],
            times.len()
        );
    }
    if let Some(g) = cases.first() {
        let mut grp = c.benchmark_group("reduce");
        grp.sample_size(10);
        grp.bench_function("reduce one 200-instruction program", |b| {
            b.iter(|| {
                reduce(
                    &d,
                    0,
                    &g.program,
                    &g.inputs,
                    None,
                    &ReduceOptions::default(),
                )
            })
        });
        grp.finish();
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
