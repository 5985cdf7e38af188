//! Judging programs with memory: the oracle re-run in the engine's atomic order, and the
//! memory comparator ([`crate::memory`]) next to the register one.
//!
//! When either side performed atomics, the oracle's own serial order is not the engine's,
//! so registers derived from atomic results would differ legitimately. An engine that
//! reports its atomic log gets an oracle re-run that replays its old values
//! ([`AtomicOrder::Replay`]): everything is then compared exactly, and the log itself is
//! checked for serializability. An engine without a log gets an oracle re-run in which
//! order-dependent atomic results are undefined ([`AtomicOrder::Any`]), and each location's
//! final value is checked alone.
//!
//! The memory comparison is [`compare_observed_memory`], which judges the atomics on SHARED
//! memory of workgroup 0's copy only (the one the outputs hold), and leaves SHARED memory
//! out for an engine that cannot read it back (`Engine::observed`).

use crate::memory::compare_observed_memory;
use shaderdiff_model::Program;
use shaderdiff_oracles::interp::{replay_of, AtomicOrder};
use shaderdiff_oracles::{Inputs, Outputs};

use crate::diff::{Differ, FailureKind, Outcome};

impl Differ {
    /// Judges engine `e`'s outputs `actual` for `program` on `inputs` against `oracle` (the
    /// oracle's outputs for that engine's class, [`Differ::oracle_for`]): registers with
    /// [`Differ::judge`], and, for programs with memory, the oracle re-run in the engine's
    /// atomic order and the memory comparison (module docs).
    pub fn judge_run(
        &self,
        e: usize,
        program: &Program,
        inputs: &Inputs,
        oracle: &Outputs,
        actual: &Outputs,
    ) -> Outcome {
        let engine = self.engines()[e].name();
        if oracle.atomics.is_none() {
            // No memory in the program.
            return self.judge(program, oracle, engine, actual);
        }
        let performed = |o: &Outputs| o.atomics.as_ref().is_some_and(|l| !l.is_empty());
        let rerun;
        let oracle = if performed(oracle) || performed(actual) {
            let replay = actual.atomics.as_deref().map(replay_of);
            let order = match &replay {
                Some(r) => AtomicOrder::Replay(r),
                None => AtomicOrder::Any,
            };
            match self.oracle_in_order(e, program, inputs, order) {
                Ok(o) => {
                    rerun = o;
                    &rerun
                }
                Err(err) => {
                    return Outcome::Failed {
                        kind: FailureKind::Invalid,
                        message: format!(
                            "the oracle cannot follow the engine's atomic order: {err}"
                        ),
                    }
                }
            }
        } else {
            oracle
        };
        let observed = self.engines()[e].observed();
        let memory = compare_observed_memory(program, inputs, oracle, engine, actual, observed);
        match self.judge(program, oracle, engine, actual) {
            Outcome::Agree { .. } if !memory.is_empty() => Outcome::Mismatch(memory),
            Outcome::Agree { compared } => Outcome::Agree { compared },
            Outcome::Mismatch(mut m) => {
                m.extend(memory);
                Outcome::Mismatch(m)
            }
            other => other,
        }
    }
}

#[cfg(test)]
mod tests {
    //! The diff pipeline on atomics: an engine that follows another legal serial order
    //! agrees; one that loses an update (a non-atomic add) is a mismatch. The contended
    //! program: 64 invocations ATOMUADD `i + 1` to one dword and store what they got.
    use std::collections::HashMap;

    use shaderdiff_backends::interp::InterpEngine;
    use shaderdiff_backends::{Capabilities, Compiled, Engine, EngineConfig, EngineError};
    use shaderdiff_model::File;
    use shaderdiff_oracles::interp::{run_with, AtomicOrder};
    use shaderdiff_oracles::precision::NanPolicy;
    use shaderdiff_oracles::{Inputs, InterpConfig, Outputs, RegKey};

    use super::*;

    const PROGRAM: &str = "COMP
PROPERTY CS_FIXED_BLOCK_WIDTH 64
DCL SV[0], THREAD_ID
DCL BUFFER[0]
DCL BUFFER[1]
DCL TEMP[0..1]
IMM[0] UINT32 {0, 1, 4, 0}
UADD TEMP[0].y, SV[0].xxxx, IMM[0].yyyy
ATOMUADD TEMP[1].x, BUFFER[0], IMM[0].xxxx, TEMP[0].yyyy
UMUL TEMP[0].z, SV[0].xxxx, IMM[0].zzzz
STORE BUFFER[1].x, TEMP[0].zzzz, TEMP[1].xxxx
END
";

    fn program() -> Program {
        shaderdiff_tgsi::parse(PROGRAM, "atomics.tgsi").unwrap()
    }

    fn inputs() -> Inputs {
        let mut i = Inputs {
            invocations: 64,
            ..Inputs::default()
        };
        i.registers.insert(
            RegKey::new(File::SystemValue, 0),
            (0..64).map(|i| [i, 0, 0, 0]).collect(),
        );
        i.buffers.insert(RegKey::new(File::Buffer, 0), vec![0; 4]);
        i.buffers.insert(RegKey::new(File::Buffer, 1), vec![0; 256]);
        i
    }

    /// How the test engine perturbs the interpreter's run.
    #[derive(Clone, Copy, PartialEq)]
    enum Mode {
        /// Invocations in reverse order: invocation i finds the sum of j + 1 over j > i.
        Reversed,
        /// The last atomic reads the value the previous one read (a lost update).
        LostUpdate,
    }

    struct TestEngine {
        inner: InterpEngine,
        mode: Mode,
    }

    impl Engine for TestEngine {
        fn name(&self) -> &'static str {
            "interp"
        }
        fn capabilities(&self) -> &Capabilities {
            self.inner.capabilities()
        }
        fn prepare(&self, program: &Program) -> Result<Box<dyn Compiled>, EngineError> {
            self.inner.prepare(program)
        }
        fn run(&self, compiled: &dyn Compiled, inputs: &Inputs) -> Result<Outputs, EngineError> {
            let program = program();
            match self.mode {
                Mode::Reversed => {
                    // Hand-computed old values of the reversed serial order.
                    let replay: HashMap<(u32, u32), u64> = (0..64u32)
                        .map(|i| ((i, 0), ((i + 2)..=64).map(u64::from).sum()))
                        .collect();
                    let mut o = run_with(
                        &program,
                        inputs,
                        &InterpConfig::default(),
                        None,
                        AtomicOrder::Replay(&replay),
                    )
                    .unwrap();
                    // Replayed memory at atomic locations is not the engine's: its final
                    // sum is order-independent, 1 + ... + 64 = 2080.
                    o.buffers
                        .insert(RegKey::new(File::Buffer, 0), 2080u32.to_le_bytes().to_vec());
                    Ok(o)
                }
                Mode::LostUpdate => {
                    let mut o = self.inner.run(compiled, inputs)?;
                    let log = o.atomics.as_mut().unwrap();
                    let n = log.len();
                    let (prev_old, src) = (log[n - 2].old, log[n - 1].src);
                    log[n - 1].old = prev_old;
                    let fin = (prev_old + src) as u32;
                    o.buffers
                        .insert(RegKey::new(File::Buffer, 0), fin.to_le_bytes().to_vec());
                    Ok(o)
                }
            }
        }
    }

    fn outcome(mode: Mode) -> Outcome {
        let engine = TestEngine {
            inner: InterpEngine::new(&EngineConfig::default()),
            mode,
        };
        let differ = Differ::new(vec![Box::new(engine)], 1_000_000, NanPolicy::Any).unwrap();
        let diff = differ.diff(&program(), &inputs());
        diff.engines[0].outcome.clone()
    }

    #[test]
    fn another_serial_order_agrees() {
        let o = outcome(Mode::Reversed);
        assert!(matches!(o, Outcome::Agree { .. }), "{o:?}");
    }

    #[test]
    fn a_lost_update_is_a_mismatch() {
        let Outcome::Mismatch(ms) = outcome(Mode::LostUpdate) else {
            panic!("a lost update must be a mismatch");
        };
        assert!(
            ms.iter()
                .any(|m| m.ty == "atomic" && m.register == "BUFFER[0]" && m.channel == "0x0"),
            "{ms:?}"
        );
    }

    #[test]
    fn the_interpreter_engine_agrees_with_the_oracle() {
        let differ = Differ::new(
            vec![Box::new(InterpEngine::new(&EngineConfig::default()))],
            1_000_000,
            NanPolicy::Any,
        )
        .unwrap();
        let diff = differ.diff(&program(), &inputs());
        let o = &diff.engines[0].outcome;
        assert!(matches!(o, Outcome::Agree { .. }), "{o:?}");
    }
}
