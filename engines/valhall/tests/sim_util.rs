//! Helpers shared by the `sim_*` integration tests (included with `#[path]`): assemble
//! programs from text and run them, returning the final registers.

#![allow(dead_code)]

use shaderdiff_valhall::sim::{Launch, Memory, Outcome, Shader, SimError, NUM_REGS};

/// Assembles one instruction per line (blank lines and `//` comments skipped).
pub fn words(text: &str) -> Vec<u64> {
    text.lines()
        .map(|l| l.split("//").next().unwrap_or("").trim())
        .filter(|l| !l.is_empty())
        .map(|l| shaderdiff_valhall::assemble_word(l).unwrap_or_else(|e| panic!("{l:?}: {e}")))
        .collect()
}

/// Assembles and loads a program; panics with the error otherwise.
pub fn shader(text: &str) -> Shader {
    Shader::from_words(&words(text)).unwrap_or_else(|e| panic!("{e}\n{text}"))
}

/// Runs `text` for `threads` threads with `init` and `uniforms`, returning the outcome and
/// final registers.
pub fn run_full(
    text: &str,
    threads: usize,
    uniforms: &[u32],
    init: &(dyn Fn(usize, &mut [u32; NUM_REGS]) + Sync),
    memory: &mut Memory,
) -> Result<(Outcome, Vec<[u32; NUM_REGS]>), SimError> {
    let s = shader(text);
    let launch = Launch {
        threads,
        uniforms,
        init,
        step_limit: 100_000,
        step_weights: None,
    };
    s.run_with_registers(&launch, memory)
}

/// Runs `text` for one thread whose r0.. start as `inputs`; returns its registers.
pub fn run1(text: &str, inputs: &[u32]) -> [u32; NUM_REGS] {
    run_u(text, inputs, &[])
}

/// As [`run1`] with uniforms.
pub fn run_u(text: &str, inputs: &[u32], uniforms: &[u32]) -> [u32; NUM_REGS] {
    let inputs = inputs.to_vec();
    let init = move |_t: usize, r: &mut [u32; NUM_REGS]| r[..inputs.len()].copy_from_slice(&inputs);
    let (_, regs) = run_full(text, 1, uniforms, &init, &mut Memory::new())
        .unwrap_or_else(|e| panic!("{e}\n{text}"));
    regs[0]
}

/// Bits of an f32.
pub fn fb(x: f32) -> u32 {
    x.to_bits()
}

/// The default quiet NaN of SEMANTICS.md §3.4.
pub const QNAN: u32 = 0x7FC0_0000;
/// −0.0.
pub const NEG0: u32 = 0x8000_0000;
