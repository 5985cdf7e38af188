//! Parse speed of the NV / ARB front-end (docs/performance.md "Parsers"): every program of
//! `../shared/corpus/nv` (all but `SOURCES.md`, whose "expected: FAIL" programs count too),
//! and one long program (20,000 instructions on one line, the shape `tests/nv_robust.rs`
//! checks), parsed from text to the NV syntax tree (`frontends/bench_parse.rs`).
//!
//! `nice -n 10 cargo bench -p shaderdiff-nv --bench parse`
// criterion_group! and criterion_main! generate undocumented public functions.
#![allow(missing_docs)]

#[path = "../../bench_parse.rs"]
mod bench_parse;

use criterion::{criterion_group, criterion_main, Criterion};

fn parse_benches(c: &mut Criterion) {
    let files = bench_parse::corpus(env!("CARGO_MANIFEST_DIR"), "nv", |p| {
        p.extension().is_some_and(|x| x != "md")
    });
    let long = "!!NVvp5.0 TEMP R0; ".to_string() + &"MOV.F R0, -R0.wzyx; ".repeat(20000) + "END";
    bench_parse::bench(c, "nv_parse", &files, &long, shaderdiff_nv::parse);
}

criterion_group!(benches, parse_benches);
criterion_main!(benches);
