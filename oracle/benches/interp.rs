//! Throughput of the reference interpreter on straight-line ALU code.
//!
//! The program is a 64-instruction vertex program (MAD, MUL, ADD, DP4, DP3, MIN, MAX,
//! FRC, FLR, F2I, UADD, XOR, SHL, USHR, I2F with swizzles and |abs|/-neg modifiers) run for
//! 65,536 invocations. Besides criterion's report, the bench prints the cost per
//! invocation-instruction: time / (65,536 × 64), target ≤ 5 ns.
//!
//! `cargo bench -p shaderdiff-oracles --bench interp`
// `criterion_group!` defines a public function without documentation.
#![allow(missing_docs)]

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use shaderdiff_model::{File, Program};
use shaderdiff_oracles::interp::{self, InterpConfig};
use shaderdiff_oracles::{Inputs, RegKey};
use shaderdiff_tgsi as tgsi;

/// Invocations per run.
const INVOCATIONS: usize = 65_536;
/// Instructions per invocation (END excluded).
const INSTRUCTIONS: usize = 64;

/// One 16-instruction block; `{a}`..`{h}` are TEMP indices rotated per block.
const BLOCK: &[&str] = &[
    "MAD TEMP[{a}], TEMP[{b}], CONST[0], IN[0]",
    "MUL TEMP[{c}], TEMP[{a}], CONST[1].yxwz",
    "ADD TEMP[{d}], TEMP[{c}], -TEMP[{b}]",
    "DP4 TEMP[{e}].x, TEMP[{d}], CONST[2]",
    "DP3 TEMP[{e}].y, TEMP[{a}], |TEMP[{c}]|",
    "MIN TEMP[{f}], TEMP[{d}], TEMP[{c}]",
    "MAX TEMP[{g}], TEMP[{f}], -TEMP[{a}]",
    "FRC TEMP[{h}], TEMP[{g}]",
    "FLR TEMP[{b}].zw, TEMP[{d}]",
    "F2I TEMP[{c}], TEMP[{e}]",
    "UADD TEMP[{c}], TEMP[{c}], IMM[1]",
    "XOR TEMP[{c}], TEMP[{c}], IMM[1].zzzz",
    "SHL TEMP[{c}].xy, TEMP[{c}], IMM[1].yyyy",
    "USHR TEMP[{c}].zw, TEMP[{c}], IMM[1].yyyy",
    "I2F TEMP[{c}], TEMP[{c}]",
    "MAD {out}, TEMP[{c}], IMM[0].xxxx, TEMP[{h}]",
];

/// The benchmark program in TGSI text.
fn program_text() -> String {
    let mut text = String::from(
        "VERT\nDCL IN[0]\nDCL OUT[0], POSITION\nDCL CONST[0..2]\nDCL TEMP[0..7]\n\
         IMM[0] FLT32 {    0.0010,     0.5000,     2.0000,    -1.0000}\n\
         IMM[1] INT32 {3, 1, 255, 7}\n",
    );
    let mut n = 0;
    for block in 0..INSTRUCTIONS / BLOCK.len() {
        let t = |i: usize| ((i + 2 * block) % 8).to_string();
        let last = block + 1 == INSTRUCTIONS / BLOCK.len();
        for line in BLOCK {
            let out = if last {
                "OUT[0]".to_string()
            } else {
                format!("TEMP[{}]", t(0))
            };
            let insn = line
                .replace("{a}", &t(0))
                .replace("{b}", &t(1))
                .replace("{c}", &t(2))
                .replace("{d}", &t(3))
                .replace("{e}", &t(4))
                .replace("{f}", &t(5))
                .replace("{g}", &t(6))
                .replace("{h}", &t(7))
                .replace("{out}", &out);
            text.push_str(&format!("{n:3}: {insn}\n"));
            n += 1;
        }
    }
    text.push_str(&format!("{n:3}: END\n"));
    text
}

/// 65,536 invocations with distinct IN[0] values and fixed constants.
fn inputs() -> Inputs {
    let f = |x: f32| x.to_bits();
    let mut inputs = Inputs {
        invocations: INVOCATIONS,
        ..Inputs::default()
    };
    let per_invocation = (0..INVOCATIONS)
        .map(|i| {
            let x = i as f32;
            [f(x * 0.001), f(1.0 - x * 0.0005), f(x * 0.25), f(-x)]
        })
        .collect();
    inputs
        .registers
        .insert(RegKey::new(File::Input, 0), per_invocation);
    inputs.constants.insert(
        RegKey::new(File::Const, 0),
        [f(0.5), f(-1.25), f(2.0), f(0.75)],
    );
    inputs.constants.insert(
        RegKey::new(File::Const, 1),
        [f(1.5), f(0.25), f(-0.5), f(3.0)],
    );
    inputs.constants.insert(
        RegKey::new(File::Const, 2),
        [f(0.125), f(1.0), f(-2.0), f(0.5)],
    );
    inputs
}

fn setup() -> (Program, Inputs) {
    let program = tgsi::parse(&program_text(), "bench.tgsi").expect("the bench program parses");
    assert_eq!(program.instructions.len(), INSTRUCTIONS + 1);
    (program, inputs())
}

fn bench(c: &mut Criterion) {
    let (program, inputs) = setup();
    let config = InterpConfig::default();
    interp::run(&program, &inputs, &config).expect("the bench program runs on the interpreter");

    let mut group = c.benchmark_group("interp");
    group.throughput(Throughput::Elements((INVOCATIONS * INSTRUCTIONS) as u64));
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(10));
    group.bench_function("alu64_vert_65536", |b| {
        b.iter(|| interp::run(black_box(&program), black_box(&inputs), &config))
    });
    group.finish();

    // A separate timed pass for the headline number: best of 5 runs.
    let best = (0..5)
        .map(|_| {
            let start = Instant::now();
            black_box(interp::run(
                black_box(&program),
                black_box(&inputs),
                &config,
            ))
            .ok();
            start.elapsed()
        })
        .min()
        .unwrap_or_default();
    let per = best.as_secs_f64() * 1e9 / (INVOCATIONS * INSTRUCTIONS) as f64;
    println!(
        "interp: {per:.2} ns per invocation-instruction ({INVOCATIONS} invocations x {INSTRUCTIONS} instructions in {:.1} ms; target <= 5 ns)",
        best.as_secs_f64() * 1e3
    );
}

criterion_group!(benches, bench);
criterion_main!(benches);
