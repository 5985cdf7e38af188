//! The parse benchmark both front-ends share (docs/performance.md "Parsers"), included by
//! `frontends/{tgsi,nv}/benches/parse.rs` with `#[path]`: every program of a directory of
//! `../shared/corpus`, and one long program on one line, parsed from text. Criterion prints
//! the time per pass and the throughput in bytes of program text.

use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::Duration;

use criterion::{Criterion, Throughput};

/// Every file of `../shared/corpus/SUB` (the shared dir sits beside the repository) that
/// `keep` accepts, as (file name, text), sorted by name. `manifest_dir` is the including
/// crate's `CARGO_MANIFEST_DIR`.
pub fn corpus(manifest_dir: &str, sub: &str, keep: fn(&Path) -> bool) -> Vec<(String, String)> {
    let dir = PathBuf::from(manifest_dir)
        .join("../../../shared/corpus")
        .join(sub);
    let mut v: Vec<(String, String)> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| keep(p))
        .map(|p| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read_to_string(&p).unwrap())
        })
        .collect();
    v.sort();
    v
}

/// Benchmarks `parse(text, name)` in group `group`: function `corpus` over `files` (a
/// program the parser refuses counts too: the corpus holds some that real parsers refuse),
/// and function `one_line_20000` over `long`.
pub fn bench<T, E>(
    c: &mut Criterion,
    group: &str,
    files: &[(String, String)],
    long: &str,
    parse: impl Fn(&str, &str) -> Result<T, E>,
) {
    let bytes: usize = files.iter().map(|(_, t)| t.len()).sum();
    let mut g = c.benchmark_group(group);
    g.sample_size(40).measurement_time(Duration::from_secs(4));
    g.throughput(Throughput::Bytes(bytes as u64));
    g.bench_function("corpus", |b| {
        b.iter(|| {
            for (name, text) in files {
                let _ = black_box(parse(black_box(text), name));
            }
        })
    });
    g.throughput(Throughput::Bytes(long.len() as u64));
    g.bench_function("one_line_20000", |b| {
        b.iter(|| black_box(parse(black_box(long), "long")).is_ok())
    });
    g.finish();
}
