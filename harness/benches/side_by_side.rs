//! The campaign-speed figures of docs/performance.md, measured side by side in one run:
//!
//! * the jit's compile time per program (median): the 64-instruction ALU program of
//!   `engines/cranelift/benches/jit.rs` alone (`Engine::prepare`, target ≤ 0.5 ms), and
//!   generated 30-instruction programs compiled in batches of 64 as campaigns do
//!   (`Engine::prepare_batch`);
//! * interp and jit execution of that 64-instruction program over 65,536 invocations, in ns
//!   per invocation-instruction, against Mesa's `tgsi_exec` (anchor below).
//!
//! Times are the calling thread's CPU time (the bench machine may be shared).
//!
//! The campaign rate itself is printed by `diff.rs` right after these lines.

use std::time::Duration;

use shaderdiff_backends::{Engine, EngineConfig, Inputs, REGISTRY};
use shaderdiff_generators::random::{generate, RandomConfig};
use shaderdiff_model::{File, Program, RegKey};

/// Mesa's `tgsi_exec` (built from source, `-O2`) on a 64-instruction straight-line ALU
/// vertex program over 65,536 invocations: ns per invocation-instruction. The measurement and
/// its setup are described in docs/performance.md ("Anchor"); it is not re-run here.
pub const TGSI_EXEC_NS: f64 = 20.4;

/// Instructions of the ALU program (END excluded).
const ALU_INSTRUCTIONS: usize = 64;
/// Invocations of the execution measurement.
const INVOCATIONS: usize = 65_536;

/// 63 ALU instructions and END (as `engines/cranelift/benches/jit.rs`): 15 blocks of
/// `MAD MUL ADD MAX`, then `MAD MUL` and a final `ADD` into OUT[0].
fn alu_program() -> Program {
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
    let p = shaderdiff_tgsi::parse(&t, "bench.tgsi").expect("valid");
    assert_eq!(p.instructions.len(), ALU_INSTRUCTIONS);
    p
}

/// CPU time of the calling thread (`CLOCK_THREAD_CPUTIME_ID`): the figures stay comparable
/// on a shared machine, where wall time counts other processes' turns.
fn thread_cpu() -> Duration {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid, writable timespec; the clock id is a constant libc defines.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32)
}

/// Thread CPU time of `f`.
fn timed<T>(f: impl FnOnce() -> T) -> Duration {
    let t = thread_cpu();
    let out = f();
    let d = thread_cpu() - t;
    drop(out);
    d
}

fn median(mut samples: Vec<Duration>) -> Duration {
    samples.sort();
    samples[samples.len() / 2]
}

fn engine(name: &str) -> Box<dyn Engine> {
    REGISTRY
        .engine(name, &EngineConfig::default())
        .expect("built-in engine")
}

/// Median time of `prepare` of the 64-instruction program, in ms.
fn compile_64() -> f64 {
    let jit = engine("jit");
    let p = alu_program();
    // Warm-up, untimed: the first compiles of a fresh process fault in code and heap pages.
    for _ in 0..20 {
        drop(jit.prepare(&p).expect("compiles"));
    }
    let samples = (0..101)
        .map(|_| timed(|| jit.prepare(&p).expect("compiles")))
        .collect();
    median(samples).as_secs_f64() * 1e3
}

/// CLIF instructions of the 64-instruction program as lowered (before Cranelift's passes),
/// and how many of them are bit casts.
fn clif_counts() -> (usize, usize) {
    let c = engine("jit").prepare(&alu_program()).expect("compiles");
    let clif = c.listing().unwrap_or_default();
    let insts: Vec<&str> = clif
        .lines()
        .skip_while(|l| !l.starts_with("block"))
        .filter(|l| l.starts_with("    ") && !l.trim_end().ends_with(':'))
        .collect();
    let casts = insts.iter().filter(|l| l.contains(" bitcast.")).count();
    (insts.len(), casts)
}

/// Median per-program time of `prepare_batch` over batches of 64 generated programs of
/// `config`, in ms, and the mean instruction count (END included).
fn compile_generated(config: &RandomConfig, seed: u64) -> (f64, f64) {
    let jit = engine("jit");
    let programs: Vec<Program> = (0..64 * 11)
        .map(|i| generate(seed, i, config).program)
        .collect();
    let mean =
        programs.iter().map(|p| p.instructions.len()).sum::<usize>() as f64 / programs.len() as f64;
    let samples = programs
        .chunks(64)
        .map(|c| {
            let refs: Vec<&Program> = c.iter().collect();
            timed(|| jit.prepare_batch(&refs)) / c.len() as u32
        })
        .collect();
    (median(samples).as_secs_f64() * 1e3, mean)
}

/// Median ns per invocation-instruction of engine `name` on the 64-instruction program.
fn execute(name: &str) -> f64 {
    let e = engine(name);
    let p = alu_program();
    let c = e.prepare(&p).expect("prepares");
    let mut x = 0x9e37_79b9u32;
    let mut rows = || -> Vec<[u32; 4]> {
        (0..INVOCATIONS)
            .map(|_| {
                [0; 4].map(|_| {
                    x ^= x << 13;
                    x ^= x >> 17;
                    x ^= x << 5;
                    ((x >> 8) as f32 / (1u32 << 23) as f32 - 1.0).to_bits()
                })
            })
            .collect()
    };
    let mut inputs = Inputs {
        invocations: INVOCATIONS,
        ..Inputs::default()
    };
    inputs.registers.insert(RegKey::new(File::Input, 0), rows());
    inputs.registers.insert(RegKey::new(File::Input, 1), rows());
    let reps = if name == "jit" { 31 } else { 5 };
    let samples = (0..reps)
        .map(|_| timed(|| e.run(c.as_ref(), &inputs).expect("runs")))
        .collect();
    median(samples).as_secs_f64() * 1e9 / (INVOCATIONS * ALU_INSTRUCTIONS) as f64
}

/// Prints the compile and tgsi-relative figures (see the module docs).
pub fn print(config: &RandomConfig, seed: u64) {
    println!(
        "jit compile, {ALU_INSTRUCTIONS}-instruction ALU program: median {:.3} ms (target <= 0.5 ms)",
        compile_64()
    );
    let (insts, casts) = clif_counts();
    println!("  its CLIF as lowered: {insts} instructions, {casts} of them bit casts");
    let (ms, mean) = compile_generated(config, seed);
    println!(
        "jit compile, generated programs ({mean:.1} instructions incl. END, batches of 64): median {:.3} ms per program",
        ms
    );
    let interp = execute("interp");
    let jit = execute("jit");
    println!(
        "execution, {ALU_INSTRUCTIONS}-instruction ALU program x {INVOCATIONS} invocations, ns per invocation-instruction:"
    );
    println!("  tgsi_exec (anchor)  {TGSI_EXEC_NS:>8.3}  1.0 x");
    for (name, ns) in [("interp", interp), ("jit", jit)] {
        println!(
            "  {name:<18}  {ns:>8.3}  {:.1} x faster than tgsi_exec",
            TGSI_EXEC_NS / ns
        );
    }
}
