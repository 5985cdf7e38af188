//! valhall engine benchmarks, printed with `println!` besides criterion's report:
//!
//! * compile time (median) of the 64-instruction TGSI ALU program through the whole
//!   compiler (lowering, register allocation, encoding) and the simulator's decode
//!   (`ValhallEngine::compile`, target ≤ 1 ms);
//! * simulator throughput on that program's machine code over 65,536 invocations, in
//!   thread-instructions per second (`Shader::run`, one core, target ≥ 100 million/s),
//!   and the whole engine run with inputs in and outputs out.
//!
//! The program is the jit benchmark's (engines/cranelift/benches/jit.rs): 15 blocks of
//! `MAD MUL ADD MAX`, then `MAD MUL ADD` into OUT[0].
// `criterion_group!` defines a public function without documentation.
#![allow(missing_docs)]

use std::time::{Duration, Instant};

use criterion::{criterion_group, criterion_main, Criterion};
use shaderdiff_engine::{Engine, EngineConfig, Inputs};
use shaderdiff_model::File;
use shaderdiff_model::RegKey;
use shaderdiff_valhall::compile::abi::{RECORD_BASE, RECORD_REG};
use shaderdiff_valhall::engine::ValhallEngine;
use shaderdiff_valhall::sim::{Launch, Memory, NUM_REGS};

const INVOCATIONS: usize = 65_536;

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
    t
}

fn inputs() -> Inputs {
    let mut x = 0x9e37_79b9u32;
    let mut vals = |_: usize| {
        [0; 4].map(|_| {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            ((x >> 8) as f32 / (1u32 << 23) as f32 - 1.0).to_bits()
        })
    };
    let mut inputs = Inputs {
        invocations: INVOCATIONS,
        ..Inputs::default()
    };
    for r in 0..2 {
        let rows = (0..INVOCATIONS).map(&mut vals).collect();
        inputs.registers.insert(RegKey::new(File::Input, r), rows);
    }
    inputs
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn bench(c: &mut Criterion) {
    let program = shaderdiff_tgsi::parse(&alu_program(), "bench.tgsi").expect("parses");
    let engine = ValhallEngine::new(&EngineConfig::default());

    let compiled = engine.compile(&program).expect("compiles");
    let words = compiled.machine.words.len();
    let mut times = Vec::new();
    for _ in 0..200 {
        let t = Instant::now();
        std::hint::black_box(engine.compile(&program).expect("compiles"));
        times.push(t.elapsed());
    }
    let compile = median(times);
    println!(
        "valhall compile: 64 TGSI instructions -> {words} Valhall instructions, median {:.3} ms (target <= 1 ms)",
        compile.as_secs_f64() * 1e3
    );
    c.bench_function("valhall compile 64-instruction program", |b| {
        b.iter(|| engine.compile(&program).expect("compiles"))
    });

    // Simulator alone: records and uniforms as the engine's driver sets them.
    let m = &compiled.machine;
    let stride = m.layout.stride as usize;
    let init = move |t: usize, regs: &mut [u32; NUM_REGS]| {
        let addr = RECORD_BASE + (t * stride) as u64;
        regs[RECORD_REG as usize] = addr as u32;
        regs[RECORD_REG as usize + 1] = (addr >> 32) as u32;
    };
    let launch = Launch {
        threads: INVOCATIONS,
        uniforms: &m.uniforms,
        init: &init,
        step_limit: u64::MAX,
        step_weights: None,
    };
    let run_once = || {
        let mut mem = Memory::new();
        mem.map(RECORD_BASE, vec![0u8; stride * INVOCATIONS]);
        let t = Instant::now();
        let out = compiled.shader.run(&launch, &mut mem).expect("runs");
        (t.elapsed(), out.thread_instructions)
    };
    let mut times = Vec::new();
    let mut executed = 0;
    for _ in 0..7 {
        let (t, n) = run_once();
        times.push(t);
        executed = n;
    }
    let t = median(times);
    println!(
        "valhall simulator: {executed} thread-instructions over {INVOCATIONS} invocations in {:.2} ms = {:.1} million thread-instructions/s on one core (target >= 100 million/s)",
        t.as_secs_f64() * 1e3,
        executed as f64 / t.as_secs_f64() / 1e6
    );
    c.bench_function("valhall simulate 65536 invocations", |b| b.iter(run_once));

    let inputs = inputs();
    c.bench_function("valhall engine run 65536 invocations", |b| {
        b.iter(|| engine.run(&compiled, &inputs).expect("runs"))
    });
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10).measurement_time(Duration::from_secs(3));
    targets = bench
}
criterion_main!(benches);
