//! Parse speed of the TGSI front-end (docs/performance.md "Parsers"): every `.tgsi` file of
//! `../shared/corpus/tgsi`, and one long program (20,000 instructions on one line, the
//! shape `tests/robust.rs` checks), parsed from text to the model
//! (`frontends/bench_parse.rs`).
//!
//! `nice -n 10 cargo bench -p shaderdiff-tgsi --bench parse`
// criterion_group! and criterion_main! generate undocumented public functions.
#![allow(missing_docs)]

#[path = "../../bench_parse.rs"]
mod bench_parse;

use criterion::{criterion_group, criterion_main, Criterion};

fn parse_benches(c: &mut Criterion) {
    let files = bench_parse::corpus(env!("CARGO_MANIFEST_DIR"), "tgsi", |p| {
        p.extension().is_some_and(|x| x == "tgsi")
    });
    let long = "VERT DCL TEMP[0] ".to_string() + &"MOV TEMP[0], -TEMP[0].wzyx ".repeat(20000);
    bench_parse::bench(c, "tgsi_parse", &files, &long, shaderdiff_tgsi::parse);
}

criterion_group!(benches, parse_benches);
criterion_main!(benches);
