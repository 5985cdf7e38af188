//! Helpers: run a program on the jit and on the reference interpreter, check that they agree
//! on every channel the interpreter calls defined, and compare with expected values.

use shaderdiff_cranelift::JitEngine;
use shaderdiff_engine::{Engine, EngineConfig, EngineError, Inputs, Outputs};
use shaderdiff_model::check::ExecError;
use shaderdiff_model::{File, Program};
use shaderdiff_model::{RegKey, Vec4};
use shaderdiff_oracles::interp::{self, InterpConfig};

/// Parses TGSI text (panics with the located message on error).
pub fn parse(text: &str) -> Program {
    shaderdiff_tgsi::parse(text, "test.tgsi").unwrap_or_else(|e| panic!("{e}\n{text}"))
}

/// `IN[i]`.
pub fn input(i: u32) -> RegKey {
    RegKey::new(File::Input, i)
}

/// `OUT[i]`.
pub fn out(i: u32) -> RegKey {
    RegKey::new(File::Output, i)
}

/// `n` invocations with the given per-invocation registers.
pub fn inputs(n: usize, regs: &[(RegKey, Vec<Vec4>)]) -> Inputs {
    let mut i = Inputs {
        invocations: n,
        ..Inputs::default()
    };
    for (k, v) in regs {
        i.registers.insert(*k, v.clone());
    }
    i
}

/// Bits of a binary32.
pub fn f(x: f32) -> u32 {
    x.to_bits()
}

/// A vec4 of four floats.
pub fn fv(v: [f32; 4]) -> Vec4 {
    v.map(f32::to_bits)
}

/// Bits of a two's-complement integer.
pub fn i(x: i32) -> u32 {
    x as u32
}

fn same_bits(a: u32, b: u32) -> bool {
    a == b || (f32::from_bits(a).is_nan() && f32::from_bits(b).is_nan())
}

/// Whether two errors are the same outcome (kind, and the invocation for run-time stops).
fn same_error(jit: &EngineError, oracle: &ExecError) -> bool {
    match (jit, oracle) {
        (
            EngineError::StepLimit { limit, invocation },
            ExecError::StepLimit {
                limit: l,
                invocation: i,
            },
        ) => limit == l && invocation == i,
        (EngineError::CallDepth { invocation, .. }, ExecError::CallDepth { invocation: i, .. }) => {
            invocation == i
        }
        (EngineError::InvalidInputs(a), ExecError::InvalidInputs(b)) => a == b,
        (EngineError::InvalidProgram { .. }, ExecError::InvalidProgram { .. }) => true,
        (
            EngineError::Unsupported { .. },
            ExecError::Unsupported { .. } | ExecError::UnsupportedFeature { .. },
        ) => true,
        _ => false,
    }
}

/// Runs `text` on both engines with `step_limit`; asserts they agree (outputs on every
/// channel the oracle calls defined, killed flags, or the same error) and returns the jit's
/// result.
pub fn run_limit(text: &str, ins: &Inputs, step_limit: u64) -> Result<Outputs, EngineError> {
    let program = parse(text);
    let jit = JitEngine::new(&EngineConfig {
        step_limit,
        ..EngineConfig::default()
    })
    .execute(&program, ins);
    let oracle = interp::run(&program, ins, &InterpConfig { step_limit });
    match (&jit, &oracle) {
        (Ok(j), Ok(o)) => agree(j, o, text),
        (Err(j), Err(o)) => assert!(same_error(j, o), "jit {j:?} vs oracle {o:?}\n{text}"),
        _ => panic!("jit {jit:?}\noracle {oracle:?}\n{text}"),
    }
    jit
}

/// [`run_limit`] with the default budget, expecting success.
pub fn run(text: &str, ins: &Inputs) -> Outputs {
    run_limit(text, ins, 1_000_000).unwrap_or_else(|e| panic!("jit: {e}\n{text}"))
}

fn agree(j: &Outputs, o: &Outputs, text: &str) {
    assert_eq!(j.invocations, o.invocations);
    assert_eq!(
        j.registers.keys().collect::<Vec<_>>(),
        o.registers.keys().collect::<Vec<_>>(),
        "output registers\n{text}"
    );
    for (key, rows) in &o.registers {
        let und = o.undefined.get(key);
        for (inv, row) in rows.iter().enumerate() {
            let u = und.map_or(0, |u| u[inv]);
            for (c, &ov) in row.iter().enumerate() {
                if u >> c & 1 != 0 {
                    continue;
                }
                let jv = j.registers[key][inv][c];
                assert!(
                    same_bits(jv, ov),
                    "{key} invocation {inv} channel {c}: jit {jv:#010x}, oracle {ov:#010x}\n{text}"
                );
            }
        }
    }
    assert_eq!(j.killed, o.killed, "killed\n{text}");
    assert!(j.undefined.is_empty(), "the jit reports no undefinedness");
}

/// Asserts channels `mask` of register `key` of every invocation equal `want` (bit-exact;
/// NaN matches NaN).
pub fn expect(outputs: &Outputs, key: RegKey, mask: u8, want: &[Vec4]) {
    let got = &outputs.registers[&key];
    assert_eq!(got.len(), want.len(), "{key}: invocation count");
    for (inv, (g, w)) in got.iter().zip(want).enumerate() {
        for c in 0..4 {
            if mask >> c & 1 != 0 {
                assert!(
                    same_bits(g[c], w[c]),
                    "{key} invocation {inv} channel {c}: got {:#010x}, want {:#010x}",
                    g[c],
                    w[c]
                );
            }
        }
    }
}

/// Channel x of `key` for each invocation.
pub fn xs(outputs: &Outputs, key: RegKey) -> Vec<u32> {
    outputs.registers[&key].iter().map(|r| r[0]).collect()
}
