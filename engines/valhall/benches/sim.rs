//! Throughput of the Valhall simulator on straight-line ALU code.
//!
//! A 64-instruction program (FMA, FADD, FMIN, FMAX with clamp, IADD, ISUB, shifts, MUX,
//! CSEL, FCMP and ICMP on registers, written in assembly and assembled with
//! `shaderdiff_valhall::assemble_word`) runs for 65,536 threads (4,096 warps, no
//! divergence). Besides criterion's report (throughput in elements = thread-instructions)
//! the bench prints thread-instructions per second; the target is ≥ 100 million on one
//! core, i.e. ≤ 160 ns per 16-lane warp-instruction.
//!
//! `cargo bench -p shaderdiff-valhall --bench sim -- --measurement-time 5`
// `criterion_group!` defines a public function without documentation.
#![allow(missing_docs)]

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use shaderdiff_valhall::sim::{Launch, Memory, Shader, NUM_REGS};

/// Threads per run.
const THREADS: usize = 65_536;
/// Instructions per thread.
const INSTRUCTIONS: usize = 64;

/// One 16-instruction block; `{a}`…`{p}` are registers rotated per block.
const BLOCK: &[&str] = &[
    "FMA.f32 r{a}, r{b}, r{c}, r{d}",
    "FADD.f32 r{e}, r{a}, r{b}.neg",
    "FMIN.f32 r{f}, r{e}, r{a}",
    "FMAX.f32.clamp_0_1 r{g}, r{f}, r{c}.abs",
    "IADD.u32 r{h}, r{h}, r{b}",
    "LSHIFT_OR.i32 r{i}, r{h}, 0x3020100.b11, r{a}",
    "RSHIFT_XOR.i32 r{j}, r{i}, 0x3020100.b22, r{h}",
    "FCMP_OR.f32.gt.m1 r{k}, r{a}, r{g}, 0x0",
    "ICMP_OR.u32.lt.m1 r{l}, r{h}, r{i}, 0x0",
    "MUX.i32 r{m}, r{a}, r{e}, r{k}",
    "MUX.i32.bit r{n}, r{j}, r{i}, r{l}",
    "IADD_IMM.i32 r{o}, r{n}, #0x1234",
    "FMA.f32 r{b}, r{g}, r{f}, r{m}",
    "ISUB.s32 r{p}, r{o}, r{j}",
    "CSEL.u32.lt r{c}, r{p}, r{o}, r{p}, r{o}",
    "FADD.f32 r{d}, r{b}, r{c}",
];

/// The benchmark program as assembly lines.
fn program() -> Vec<String> {
    let names = "abcdefghijklmnop";
    let mut lines = Vec::new();
    for block in 0..INSTRUCTIONS / BLOCK.len() {
        for line in BLOCK {
            let mut s = (*line).to_string();
            for (i, n) in names.chars().enumerate() {
                let reg = (i + 3 * block) % 16;
                s = s.replace(&format!("{{{n}}}"), &reg.to_string());
            }
            lines.push(s);
        }
    }
    lines
}

fn shader() -> Shader {
    let words: Vec<u64> = program()
        .iter()
        .map(|l| shaderdiff_valhall::assemble_word(l).unwrap_or_else(|e| panic!("{l}: {e}")))
        .collect();
    assert_eq!(words.len(), INSTRUCTIONS);
    Shader::from_words(&words).expect("benchmark program loads")
}

fn init(t: usize, r: &mut [u32; NUM_REGS]) {
    for (i, v) in r.iter_mut().take(16).enumerate() {
        *v = if i % 2 == 0 {
            (t as f32 * 0.001 + i as f32).to_bits()
        } else {
            (t as u32).wrapping_mul(2_654_435_761).rotate_left(i as u32)
        };
    }
}

fn run_once(shader: &Shader, memory: &mut Memory) -> u64 {
    let launch = Launch {
        threads: THREADS,
        uniforms: &[],
        init: &init,
        step_limit: 1_000,
        step_weights: None,
    };
    shader
        .run(black_box(&launch), memory)
        .expect("benchmark program runs")
        .thread_instructions
}

fn bench(c: &mut Criterion) {
    let shader = shader();
    let mut memory = Memory::new();
    assert_eq!(
        run_once(&shader, &mut memory),
        (THREADS * INSTRUCTIONS) as u64
    );

    // A direct measurement for the printed figure.
    let reps = 10;
    let start = Instant::now();
    for _ in 0..reps {
        black_box(run_once(&shader, &mut memory));
    }
    let secs = start.elapsed().as_secs_f64() / reps as f64;
    let per_second = (THREADS * INSTRUCTIONS) as f64 / secs;
    eprintln!(
        "valhall sim: {:.1} million thread-instructions/s ({:.1} ns per warp-instruction, {:.2} ms per run)",
        per_second / 1e6,
        secs * 1e9 / (THREADS / 16 * INSTRUCTIONS) as f64,
        secs * 1e3
    );

    let mut g = c.benchmark_group("valhall_sim");
    g.throughput(Throughput::Elements((THREADS * INSTRUCTIONS) as u64));
    g.measurement_time(Duration::from_secs(5));
    g.sample_size(20);
    g.bench_function("alu64_65536_threads", |b| {
        b.iter(|| run_once(&shader, &mut memory))
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
