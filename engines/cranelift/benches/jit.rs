//! jit benchmarks, printed with `println!` besides criterion's own report:
//!
//! * compile time (median) of a 64-instruction ALU program through `Engine::prepare`
//!   (target ≤ 1 ms);
//! * execution over 65,536 invocations through `Engine::run` (inputs in, outputs out), in
//!   ns per invocation-instruction (target ≤ 0.25 ns);
//! * the same computation hand-written in Rust over structure-of-arrays planes, and the ratio
//!   native time / jit time (target ≥ 0.5). The two results are checked to be bit-identical.
// `criterion_group!` defines a public function without documentation.
#![allow(missing_docs)]
// The native kernel indexes [register][channel][lane] planes in lockstep, as SoA code does.
#![allow(clippy::needless_range_loop)]

use std::time::{Duration, Instant};

use criterion::{criterion_group, criterion_main, Criterion};
use shaderdiff_cranelift::{JitEngine, JitOptions};
use shaderdiff_engine::{Engine, EngineConfig, Inputs};
use shaderdiff_model::File;
use shaderdiff_model::RegKey;

const INVOCATIONS: usize = 65_536;
const INSTRUCTIONS: usize = 64;
const IMM0: [f32; 4] = [0.5, 0.75, -0.25, 0.125];
const IMM1: [f32; 4] = [-4.0; 4];
/// `IN[1].yxwz`.
const SWZ: [usize; 4] = [1, 0, 3, 2];

/// 63 ALU instructions and END: 15 blocks of `MAD MUL ADD MAX`, then `MAD MUL` and a final
/// `ADD` into OUT[0].
fn alu_program() -> String {
    let mut t = String::from(
        "VERT\nDCL IN[0..1]\nDCL OUT[0]\nDCL TEMP[0..3]\n\
         IMM[0] FLT32 { 0.5, 0.75, -0.25, 0.125 }\nIMM[1] FLT32 { -4.0, -4.0, -4.0, -4.0 }\n",
    );
    let block = "MAD TEMP[0], TEMP[3], IMM[0], IN[0]\nMUL TEMP[1], TEMP[0], IN[1].yxwz\n\
                 ADD TEMP[2], TEMP[1], -TEMP[3]\nMAX TEMP[3], TEMP[2], IMM[1]\n";
    for _ in 0..15 {
        t.push_str(block);
    }
    t.push_str("MAD TEMP[0], TEMP[3], IMM[0], IN[0]\nMUL TEMP[1], TEMP[0], IN[1].yxwz\n");
    t.push_str("ADD OUT[0], TEMP[1], -TEMP[3]\nEND\n");
    assert_eq!(
        t.lines()
            .filter(|l| !l.starts_with("DCL") && !l.starts_with("IMM") && *l != "VERT")
            .count(),
        INSTRUCTIONS
    );
    t
}

/// Input values in [-1, 1), deterministic.
fn input_values(seed: u32) -> Vec<[f32; 4]> {
    let mut x = seed.wrapping_mul(2_654_435_761).wrapping_add(1);
    (0..INVOCATIONS)
        .map(|_| {
            [0; 4].map(|_| {
                x ^= x << 13;
                x ^= x >> 17;
                x ^= x << 5;
                (x >> 8) as f32 / (1u32 << 23) as f32 - 1.0
            })
        })
        .collect()
}

/// Structure-of-arrays planes: `planes[c][i]`.
type Planes = [Vec<f32>; 4];

fn to_planes(v: &[[f32; 4]]) -> Planes {
    [0, 1, 2, 3].map(|c| v.iter().map(|r| r[c]).collect())
}

/// The same computation in Rust: blocks of 64 invocations, one loop per instruction over
/// the block's structure-of-arrays temporaries (rustc vectorizes them).
fn native(in0: &Planes, in1: &Planes, out: &mut Planes) {
    const B: usize = 64;
    let n = in0[0].len();
    let mut t = [[[0f32; B]; 4]; 4];
    for base in (0..n).step_by(B) {
        let m = B.min(n - base);
        t[3] = [[0.0; B]; 4];
        let mad = |t: &mut [[[f32; B]; 4]; 4]| {
            for c in 0..4 {
                let i0 = &in0[c][base..base + m];
                for l in 0..m {
                    t[0][c][l] = t[3][c][l] * IMM0[c] + i0[l];
                }
            }
        };
        let mul = |t: &mut [[[f32; B]; 4]; 4]| {
            for c in 0..4 {
                let i1 = &in1[SWZ[c]][base..base + m];
                for l in 0..m {
                    t[1][c][l] = t[0][c][l] * i1[l];
                }
            }
        };
        for _ in 0..15 {
            mad(&mut t);
            mul(&mut t);
            for c in 0..4 {
                for l in 0..m {
                    t[2][c][l] = t[1][c][l] + -t[3][c][l];
                }
            }
            for c in 0..4 {
                for l in 0..m {
                    // TGSI MAX of non-NaN values.
                    let (a, b) = (t[2][c][l], IMM1[c]);
                    t[3][c][l] = if a > b { a } else { b };
                }
            }
        }
        mad(&mut t);
        mul(&mut t);
        for c in 0..4 {
            let o = &mut out[c][base..base + m];
            for l in 0..m {
                o[l] = t[1][c][l] + -t[3][c][l];
            }
        }
    }
}

fn median(mut samples: Vec<Duration>) -> Duration {
    samples.sort();
    samples[samples.len() / 2]
}

fn engine(options: JitOptions) -> JitEngine {
    JitEngine::with_options(&EngineConfig::default(), options)
}

fn compile(c: &mut Criterion) {
    let program = shaderdiff_tgsi::parse(&alu_program(), "bench.tgsi").expect("valid");
    for (label, verify, optimize) in [
        ("default (verifier off in release)", false, false),
        ("with the verifier", true, false),
        (
            "optimize: backtracking register allocator up to 1,000 CLIF",
            false,
            true,
        ),
    ] {
        let e = engine(JitOptions {
            verify,
            optimize,
            ..JitOptions::default()
        });
        let samples = (0..201)
            .map(|_| {
                let t = Instant::now();
                let compiled = e.prepare(&program).expect("compiles");
                let d = t.elapsed();
                drop(compiled);
                d
            })
            .collect();
        println!(
            "jit compile, {INSTRUCTIONS}-instruction ALU program, {label}: median {:.3} ms (target <= 1 ms)",
            median(samples).as_secs_f64() * 1e3
        );
    }
    let e = engine(JitOptions::default());
    c.bench_function("jit/compile_64_instructions", |b| {
        b.iter(|| e.prepare(&program).expect("compiles"))
    });
}

fn execute(c: &mut Criterion) {
    let program = shaderdiff_tgsi::parse(&alu_program(), "bench.tgsi").expect("valid");
    let e = engine(JitOptions::default());
    let compiled = e.prepare(&program).expect("compiles");
    let (a, b) = (input_values(1), input_values(2));
    let bits = |v: &[[f32; 4]]| v.iter().map(|r| r.map(f32::to_bits)).collect::<Vec<_>>();
    let mut inputs = Inputs {
        invocations: INVOCATIONS,
        ..Inputs::default()
    };
    inputs
        .registers
        .insert(RegKey::new(File::Input, 0), bits(&a));
    inputs
        .registers
        .insert(RegKey::new(File::Input, 1), bits(&b));
    let (pa, pb) = (to_planes(&a), to_planes(&b));
    let mut out: Planes = [0, 1, 2, 3].map(|_| vec![0f32; INVOCATIONS]);

    // The jit and the Rust code compute the same bits.
    let jit_out = e.run(compiled.as_ref(), &inputs).expect("runs");
    native(&pa, &pb, &mut out);
    let rows = &jit_out.registers[&RegKey::new(File::Output, 0)];
    for (i, row) in rows.iter().enumerate() {
        for ch in 0..4 {
            assert_eq!(row[ch], out[ch][i].to_bits(), "invocation {i} channel {ch}");
        }
    }

    let mut jit_samples = Vec::new();
    let mut native_samples = Vec::new();
    for _ in 0..31 {
        let t = Instant::now();
        let o = e.run(compiled.as_ref(), &inputs).expect("runs");
        jit_samples.push(t.elapsed());
        drop(o);
        let t = Instant::now();
        native(&pa, &pb, &mut out);
        native_samples.push(t.elapsed());
        std::hint::black_box(&out);
    }
    let (jit, nat) = (median(jit_samples), median(native_samples));
    let per = |d: Duration| d.as_secs_f64() * 1e9 / (INVOCATIONS * INSTRUCTIONS) as f64;
    println!(
        "jit execution, {INVOCATIONS} invocations x {INSTRUCTIONS} instructions: median {:.3} ms = {:.4} ns per invocation-instruction (target <= 0.25 ns)",
        jit.as_secs_f64() * 1e3,
        per(jit)
    );
    println!(
        "native Rust, same computation: median {:.3} ms = {:.4} ns per invocation-instruction; jit speed = {:.2} x native (target >= 0.5)",
        nat.as_secs_f64() * 1e3,
        per(nat),
        nat.as_secs_f64() / jit.as_secs_f64()
    );
    // The same program compiled with `optimize` (the backtracking register allocator, for
    // functions of up to 1,000 CLIF instructions).
    let fast = engine(JitOptions {
        optimize: true,
        ..JitOptions::default()
    });
    let fast_compiled = fast.prepare(&program).expect("compiles");
    let fast_samples: Vec<Duration> = (0..31)
        .map(|_| {
            let t = Instant::now();
            let o = fast.run(fast_compiled.as_ref(), &inputs).expect("runs");
            let d = t.elapsed();
            drop(o);
            d
        })
        .collect();
    let fast_median = median(fast_samples);
    println!(
        "jit execution, optimize (backtracking allocator up to 1,000 CLIF): median {:.3} ms = {:.4} ns per invocation-instruction",
        fast_median.as_secs_f64() * 1e3,
        per(fast_median)
    );
    c.bench_function("jit/execute_65536_invocations", |bch| {
        bch.iter(|| e.run(compiled.as_ref(), &inputs).expect("runs"))
    });
    c.bench_function("native/execute_65536_invocations", |bch| {
        bch.iter(|| native(&pa, &pb, &mut out))
    });
}

criterion_group!(benches, compile, execute);
criterion_main!(benches);
