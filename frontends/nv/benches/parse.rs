//! Parse speed of the NV / ARB front-end (docs/performance.md "Parsers"): every program
//! of `../shared/corpus/nv`, and one long program (20,000 instructions on one line, the
//! shape `tests/nv_robust.rs` checks), parsed from text to the NV syntax tree. Criterion
//! prints the time per pass and the throughput in bytes of program text.
//!
//! `nice -n 10 cargo bench -p shaderdiff-nv --bench parse`
// criterion_group! and criterion_main! generate undocumented public functions.
#![allow(missing_docs)]

use std::hint::black_box;
use std::path::PathBuf;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};

/// Every program of `../shared/corpus/nv` (all but `SOURCES.md`), sorted by name.
fn corpus() -> Vec<(String, String)> {
    let dir = PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../../shared/corpus/nv"
    ));
    let mut v: Vec<(String, String)> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x != "md"))
        .map(|p| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read_to_string(&p).unwrap())
        })
        .collect();
    v.sort();
    v
}

fn parse_benches(c: &mut Criterion) {
    let files = corpus();
    let bytes: usize = files.iter().map(|(_, t)| t.len()).sum();
    let mut g = c.benchmark_group("nv_parse");
    g.sample_size(40).measurement_time(Duration::from_secs(4));
    g.throughput(Throughput::Bytes(bytes as u64));
    g.bench_function("corpus", |b| {
        b.iter(|| {
            for (name, text) in &files {
                // SOURCES.md marks some programs "expected: FAIL": both count.
                let _ = black_box(shaderdiff_nv::parse(black_box(text), name));
            }
        })
    });
    let long = "!!NVvp5.0 TEMP R0; ".to_string() + &"MOV.F R0, -R0.wzyx; ".repeat(20000) + "END";
    g.throughput(Throughput::Bytes(long.len() as u64));
    g.bench_function("one_line_20000", |b| {
        b.iter(|| black_box(shaderdiff_nv::parse(black_box(&long), "long")).is_ok())
    });
    g.finish();
}

criterion_group!(benches, parse_benches);
criterion_main!(benches);
