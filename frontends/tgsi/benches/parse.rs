//! Parse speed of the TGSI front-end (docs/performance.md "Parsers"): every program of
//! `../shared/corpus/tgsi`, and one long program (20,000 instructions on one line, the
//! shape `tests/robust.rs` checks), parsed from text to the model. Criterion prints the
//! time per pass and the throughput in bytes of program text.
//!
//! `nice -n 10 cargo bench -p shaderdiff-tgsi --bench parse`
// criterion_group! and criterion_main! generate undocumented public functions.
#![allow(missing_docs)]

use std::hint::black_box;
use std::path::PathBuf;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};

/// Every `.tgsi` file of `../shared/corpus/tgsi` (the shared dir sits beside the
/// repository), sorted by name.
fn corpus() -> Vec<(String, String)> {
    let dir = PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../../shared/corpus/tgsi"
    ));
    let mut v: Vec<(String, String)> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "tgsi"))
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
    let mut g = c.benchmark_group("tgsi_parse");
    g.sample_size(40).measurement_time(Duration::from_secs(4));
    g.throughput(Throughput::Bytes(bytes as u64));
    g.bench_function("corpus", |b| {
        b.iter(|| {
            for (name, text) in &files {
                // Programs Mesa's parser refuses are in the corpus too: both count.
                let _ = black_box(shaderdiff_tgsi::parse(black_box(text), name));
            }
        })
    });
    let long = "VERT DCL TEMP[0] ".to_string() + &"MOV TEMP[0], -TEMP[0].wzyx ".repeat(20000);
    g.throughput(Throughput::Bytes(long.len() as u64));
    g.bench_function("one_line_20000", |b| {
        b.iter(|| black_box(shaderdiff_tgsi::parse(black_box(&long), "long")).is_ok())
    });
    g.finish();
}

criterion_group!(benches, parse_benches);
criterion_main!(benches);
