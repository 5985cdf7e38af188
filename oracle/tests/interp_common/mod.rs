//! Helpers shared by the interpreter tests: parse TGSI text, build inputs, read outputs.
#![allow(dead_code)]

use std::collections::BTreeMap;

use shaderdiff_model::{File, Program};
use shaderdiff_oracles::interp::{run, ExecError, InterpConfig};
use shaderdiff_oracles::{Inputs, Outputs, RegKey, Vec4};

/// Parses TGSI text (panics with the parser's message on a syntax error).
pub fn parse(text: &str) -> Program {
    match shaderdiff_tgsi::parse(text, "test.tgsi") {
        Ok(p) => p,
        Err(e) => panic!("{e}"),
    }
}

/// f32 bits.
pub fn f(x: f32) -> u32 {
    x.to_bits()
}

/// A vec4 of f32 bits.
pub fn fv(v: [f32; 4]) -> Vec4 {
    v.map(f32::to_bits)
}

/// A vec4 of i32 bits.
pub fn iv(v: [i32; 4]) -> Vec4 {
    v.map(|x| x as u32)
}

/// `IN[i]`.
pub fn input(i: u32) -> RegKey {
    RegKey::new(File::Input, i)
}

/// `SV[i]`.
pub fn sv(i: u32) -> RegKey {
    RegKey::new(File::SystemValue, i)
}

/// `OUT[i]`.
pub fn out(i: u32) -> RegKey {
    RegKey::new(File::Output, i)
}

/// Inputs with one vec4 per invocation for each listed register.
pub fn inputs(invocations: usize, regs: &[(RegKey, Vec<Vec4>)]) -> Inputs {
    Inputs {
        invocations,
        registers: regs.iter().cloned().collect::<BTreeMap<_, _>>(),
        ..Inputs::default()
    }
}

/// Runs with the default configuration.
pub fn exec(p: &Program, i: &Inputs) -> Result<Outputs, ExecError> {
    run(p, i, &InterpConfig::default())
}

/// Parses and runs, panicking on any error.
pub fn run_text(text: &str, i: &Inputs) -> Outputs {
    let p = parse(text);
    match exec(&p, i) {
        Ok(o) => o,
        Err(e) => panic!("{e}"),
    }
}

/// The values of output register `key`, one vec4 per invocation.
pub fn reg(o: &Outputs, key: RegKey) -> &[Vec4] {
    o.registers
        .get(&key)
        .unwrap_or_else(|| panic!("{key} missing from outputs"))
}

/// The undefined-channel bits of `key` (all zero when absent).
pub fn undef(o: &Outputs, key: RegKey) -> Vec<u8> {
    o.undefined
        .get(&key)
        .cloned()
        .unwrap_or_else(|| vec![0; o.invocations])
}
