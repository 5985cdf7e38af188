//! Cost of the atomic-aware comparator (compare/src/atomic.rs) on contended logs.
//!
//! Logs: 256 invocations doing ATOMUADD (one atomic each, the Eulerian-trail path) or
//! ATOMUMAX / ATOMXCHG twice each (the program-order search), on 1, 4 and 64 addresses,
//! executed in a shuffled serial order. Besides criterion's report the bench prints the
//! time per log and per atomic.
//!
//! `cargo bench -p shaderdiff-compare --bench atomic`
// `criterion_group!` defines a public function without documentation.
#![allow(missing_docs)]

use std::collections::BTreeMap;
use std::hint::black_box;
use std::time::Instant;

use criterion::{criterion_group, criterion_main, Criterion};
use shaderdiff_compare::atomic::{check_serializable, AtomicRecord, Location, Space};
use shaderdiff_model::File;
use shaderdiff_oracles::atomic::{AtomicOp, AtomicSemantics, AtomicWidth};
use shaderdiff_oracles::RegKey;

/// A log of `per` atomics `op` by each of 256 invocations on `addresses` addresses, in a
/// shuffled serial order (program order kept), with the final memory.
fn log(op: AtomicOp, addresses: u64, per: u32) -> (Vec<AtomicRecord>, BTreeMap<Location, u64>) {
    let loc = |a: u64| Location {
        space: Space::Resource(RegKey::new(File::Buffer, 0)),
        offset: 4 * a,
        width: AtomicWidth::W32,
    };
    let mut sched: Vec<u32> = (0..256 * per).map(|k| k / per).collect();
    let mut s = 0x2545_f491_4f6c_dd1du64;
    for i in (1..sched.len()).rev() {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        sched.swap(i, (s % (i as u64 + 1)) as usize);
    }
    let mut mem: BTreeMap<Location, u64> = BTreeMap::new();
    let mut seq = vec![0u32; 256];
    let recs = sched
        .into_iter()
        .map(|inv| {
            let location = loc(inv as u64 % addresses);
            let src = (inv as u64 * 37 + seq[inv as usize] as u64) % 101;
            let old = *mem.get(&location).unwrap_or(&0);
            mem.insert(location, op.apply(AtomicWidth::W32, old, src, 0));
            seq[inv as usize] += 1;
            AtomicRecord {
                location,
                invocation: inv,
                seq: seq[inv as usize] - 1,
                op,
                src,
                cmp: 0,
                old,
            }
        })
        .collect();
    (recs, mem)
}

fn bench(c: &mut Criterion) {
    for (op, per) in [(AtomicOp::Add, 1), (AtomicOp::UMax, 2), (AtomicOp::Xchg, 2)] {
        for addresses in [1u64, 4, 64] {
            let (recs, fin) = log(op, addresses, per);
            let run = || check_serializable(&recs, &|_| 0, &|l| fin[l]).expect("serializable");
            let name = format!("{}x{per}/{addresses}addr", op.name());
            c.bench_function(&name, |b| b.iter(|| black_box(run())));
            let reps = 200;
            let t = Instant::now();
            for _ in 0..reps {
                black_box(run());
            }
            let per_log = t.elapsed().as_secs_f64() / reps as f64;
            println!(
                "{name}: {:.1} us per log of {} atomics ({:.0} ns per atomic)",
                per_log * 1e6,
                recs.len(),
                per_log * 1e9 / recs.len() as f64
            );
        }
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
