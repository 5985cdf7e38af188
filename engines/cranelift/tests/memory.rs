//! Compiled code is released: compiling and dropping 100,000 small programs in one process
//! leaves the resident set within 50 MB of what it was after the first 1,000.
//! Without `JITModule::free_memory` every module would leak its code pages (about 4 KB per
//! function, TOOLCHAIN.md: +400 MB here).
//!
//! Programs are compiled in rounds of 1,000: most through `JitEngine::prepare_batch` (the
//! campaign path, one code module per batch) and some through `Engine::prepare` (one module
//! each); one program per round is run to show the code is live before it is dropped. The
//! engine uses the fast-compile settings (no verifier, single-pass register allocation): code memory is allocated and released the same way whatever the settings,
//! and this keeps the 100,000 compiles to seconds.

use shaderdiff_cranelift::{JitEngine, JitOptions};
use shaderdiff_engine::{Engine, EngineConfig, Inputs};
use shaderdiff_model::RegKey;
use shaderdiff_model::{File, Program};

/// Resident set size of this process in KiB (`VmRSS` of /proc/self/status).
fn rss_kib() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").expect("/proc/self/status");
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .expect("VmRSS line")
}

/// A small program that differs with `k` (an immediate and one opcode).
fn program(k: usize) -> Program {
    let ops = ["ADD", "MUL", "MAX", "MIN", "SUB"];
    let text = format!(
        "VERT\nDCL IN[0]\nDCL OUT[0]\nIMM[0] FLT32 {{ {}.5, 1.0, 2.0, 3.0 }}\n{} OUT[0].x, IN[0].xxxx, IMM[0].xxxx\nEND\n",
        k % 1000,
        ops[k % ops.len()]
    );
    shaderdiff_tgsi::parse(&text, "memory.tgsi").expect("valid program")
}

/// Compiles one round of 1,000 programs, runs one, drops them all.
fn round(engine: &JitEngine, programs: &[Program], round: usize) {
    let (batched, single) = programs.split_at(programs.len() - 100);
    let refs: Vec<&Program> = batched.iter().collect();
    let compiled = engine.prepare_batch(&refs);
    assert!(
        compiled.iter().all(|c| c.is_ok()),
        "round {round}: compile error"
    );
    let mut inputs = Inputs {
        invocations: 4,
        ..Inputs::default()
    };
    inputs
        .registers
        .insert(RegKey::new(File::Input, 0), vec![[0; 4]]);
    let first = compiled[round % compiled.len()].as_ref().expect("compiled");
    engine.run(first.as_ref(), &inputs).expect("runs");
    drop(compiled);
    for p in single {
        let c = engine.prepare(p).expect("compiles");
        drop(c);
    }
}

#[test]
fn compile_and_free_100k_programs_keeps_rss_flat() {
    const ROUND: usize = 1_000;
    const TOTAL: usize = 100_000;
    let fast = JitOptions {
        verify: false,
        optimize: false,
        egraph: false,
    };
    let engine = JitEngine::with_options(&EngineConfig::default(), fast);
    let programs: Vec<Program> = (0..ROUND).map(program).collect();
    round(&engine, &programs, 0);
    let after_first = rss_kib();
    let t = std::time::Instant::now();
    for r in 1..TOTAL / ROUND {
        round(&engine, &programs, r);
    }
    let after_all = rss_kib();
    println!(
        "RSS after the first 1,000 programs: {after_first} KiB; after 100,000: {after_all} KiB \
         (+{} KiB); {:.1} µs per program",
        after_all.saturating_sub(after_first),
        t.elapsed().as_secs_f64() * 1e6 / (TOTAL - ROUND) as f64
    );
    assert!(
        after_all <= after_first + 50 * 1024,
        "RSS grew from {after_first} KiB to {after_all} KiB"
    );
}
