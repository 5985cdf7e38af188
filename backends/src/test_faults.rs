//! Test-only faults: run-time misbehaviour that no real compiler bug looks like, which the
//! harness's own tests need (a nondeterministic engine for `conform --retries`). They wrap
//! any engine ([`wrap`]), are accepted by `--inject-fault` like catalogued faults and are
//! owned by [`TEST_FAULT_ENGINE`], but `shaderdiff faults` does not list them: their names
//! start with `test-`.

use std::sync::atomic::{AtomicU64, Ordering};

use shaderdiff_engine::{
    Capabilities, Compiled, Engine, EngineConfig, EngineError, FaultDef, Inputs, Outputs,
};
use shaderdiff_ir::Program;

/// The engine that owns the test-only faults.
pub const TEST_FAULT_ENGINE: &str = "jit";

/// The test-only faults.
pub const TEST_FAULTS: &[FaultDef] = &[FaultDef {
    name: "test-nondeterministic",
    description: "test only: every second run in the process flips bit 0 of .x of the first output of invocation 0",
}];

/// Whether `name` is a test-only fault name (`test-` prefix).
pub fn is_test_fault(name: &str) -> bool {
    name.starts_with("test-")
}

/// `engine` wrapped with the test-only fault of `config`, or `engine` itself when `config`
/// has none.
pub fn wrap(engine: Box<dyn Engine>, config: &EngineConfig) -> Box<dyn Engine> {
    match config.fault.as_deref() {
        Some("test-nondeterministic") => Box::new(Nondeterministic {
            inner: engine,
            runs: AtomicU64::new(0),
        }),
        _ => engine,
    }
}

/// `test-nondeterministic`.
struct Nondeterministic {
    inner: Box<dyn Engine>,
    runs: AtomicU64,
}

impl Engine for Nondeterministic {
    fn name(&self) -> &'static str {
        self.inner.name()
    }

    fn capabilities(&self) -> &Capabilities {
        self.inner.capabilities()
    }

    fn check(&self, program: &Program) -> Result<(), EngineError> {
        self.inner.check(program)
    }

    fn prepare(&self, program: &Program) -> Result<Box<dyn Compiled>, EngineError> {
        self.inner.prepare(program)
    }

    fn prepare_batch(&self, programs: &[&Program]) -> Vec<Result<Box<dyn Compiled>, EngineError>> {
        self.inner.prepare_batch(programs)
    }

    fn faults(&self) -> &'static [FaultDef] {
        self.inner.faults()
    }

    fn run(&self, compiled: &dyn Compiled, inputs: &Inputs) -> Result<Outputs, EngineError> {
        let mut out = self.inner.run(compiled, inputs)?;
        if self.runs.fetch_add(1, Ordering::Relaxed) % 2 == 1 {
            if let Some(first) = out
                .registers
                .values_mut()
                .next()
                .and_then(|v| v.first_mut())
            {
                first[0] ^= 1;
            }
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shaderdiff_ir::tgsi;

    #[test]
    fn every_second_run_differs() {
        let p = tgsi::parse(
            "VERT\nDCL OUT[0]\nIMM[0] FLT32 {1.0, 0.0, 0.0, 0.0}\nMOV OUT[0], IMM[0]\nEND\n",
            "t",
        )
        .unwrap();
        let config = EngineConfig {
            fault: Some("test-nondeterministic".into()),
            ..Default::default()
        };
        let e = crate::engine("interp", &config).unwrap();
        let inputs = Inputs {
            invocations: 4,
            ..Default::default()
        };
        let runs: Vec<u32> = (0..4)
            .map(|_| {
                e.execute(&p, &inputs)
                    .unwrap()
                    .registers
                    .values()
                    .next()
                    .unwrap()[0][0]
            })
            .collect();
        // tgsi.rst MOV: 1.0 = 0x3f800000; the odd runs have bit 0 flipped.
        assert_eq!(
            runs,
            vec![0x3f80_0000, 0x3f80_0001, 0x3f80_0000, 0x3f80_0001]
        );
    }
}
