//! Test-only faults: run-time misbehaviour the harness's own tests need, which the
//! catalogued miscompilations cannot show: a nondeterministic engine (for
//! `conform --retries`), and an engine that segfaults, aborts, hangs or runs out of memory
//! (for the worker-process isolation of `fuzz` and `conform`). They wrap any engine
//! ([`wrap`]), are accepted by `--inject-fault` like catalogued faults and are owned by
//! [`TEST_FAULT_ENGINE`], but `shaderdiff faults` does not list them: their names start
//! with `test-`.
//!
//! The process-killing faults fire only on programs that use one trigger opcode (a compiler
//! bug that some programs hit), so a campaign sees both healthy and dying programs and a
//! reducer can shrink a dying program to the trigger: `test-segfault` (raises SIGSEGV while
//! compiling a program with BREV), `test-abort` (aborts while compiling a program with
//! POPC), `test-hang` (spins forever running a program with UBFE), `test-oom` (asks for
//! 64 TiB while compiling a program with LSB: the allocation fails and Rust aborts with
//! "memory allocation of ... failed", which the supervisor counts as resource exhaustion).
//! `test-hang` spins, as compiled code caught in an infinite loop does, so it uses CPU
//! time. `test-stall` is no fault at all as far as results go: running a program with UBFE
//! first sleeps [`STALL`], silent and using no CPU, as a worker that waits for a core on a
//! loaded machine is; the supervisor must not take that for a hang.

use std::sync::atomic::{AtomicU64, Ordering};

use shaderdiff_engine::{
    Capabilities, Compiled, Engine, EngineConfig, EngineError, FaultDef, FaultMode, Inputs, Outputs,
};
use shaderdiff_model::{Opcode, Program};

/// The engine that owns the test-only faults.
pub const TEST_FAULT_ENGINE: &str = "jit";

/// The test-only faults.
pub const TEST_FAULTS: &[FaultDef] = &[
    FaultDef {
        name: "test-nondeterministic",
        description: "test only: every second run in the process flips bit 0 of .x of the first output of invocation 0",
        mode: FaultMode::Tgsi,
    },
    FaultDef {
        name: "test-segfault",
        description: "test only: the process raises SIGSEGV while compiling a program that uses BREV",
        mode: FaultMode::Tgsi,
    },
    FaultDef {
        name: "test-abort",
        description: "test only: the process aborts while compiling a program that uses POPC",
        mode: FaultMode::Tgsi,
    },
    FaultDef {
        name: "test-hang",
        description: "test only: running a program that uses UBFE never returns",
        mode: FaultMode::Tgsi,
    },
    FaultDef {
        name: "test-stall",
        description: "test only: running a program that uses UBFE first sleeps 3 s (silent, no CPU time), then gives correct results",
        mode: FaultMode::Tgsi,
    },
    FaultDef {
        name: "test-oom",
        description: "test only: compiling a program that uses LSB allocates 64 TiB (allocation failure)",
        mode: FaultMode::Tgsi,
    },
];

/// How long `test-stall` keeps a run silent.
pub const STALL: std::time::Duration = std::time::Duration::from_secs(3);

/// Whether `name` is a test-only fault name (`test-` prefix).
pub fn is_test_fault(name: &str) -> bool {
    name.starts_with("test-")
}

/// `engine` wrapped with the test-only fault of `config`, or `engine` itself when `config`
/// has none.
pub fn wrap(engine: Box<dyn Engine>, config: &EngineConfig) -> Box<dyn Engine> {
    let dies = |trigger, death| Misbehaviour::Dies { trigger, death };
    let how = match config.fault.as_deref() {
        Some("test-nondeterministic") => Misbehaviour::Nondeterministic(AtomicU64::new(0)),
        Some("test-segfault") => dies(Opcode::BREV, Death::Segfault),
        Some("test-abort") => dies(Opcode::POPC, Death::Abort),
        Some("test-hang") => dies(Opcode::UBFE, Death::Hang),
        Some("test-oom") => dies(Opcode::LSB, Death::OutOfMemory),
        Some("test-stall") => Misbehaviour::Stalls {
            trigger: Opcode::UBFE,
        },
        _ => return engine,
    };
    Box::new(TestFault { inner: engine, how })
}

/// How a dying engine goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Death {
    Segfault,
    Abort,
    Hang,
    OutOfMemory,
}

impl Death {
    /// Ends the process (or never returns), as a crashing compiler or hanging code would.
    fn strike(self) -> ! {
        match self {
            Death::Segfault => {
                // SAFETY: signal(2) and raise(3) have no preconditions. The default action
                // is restored first (the Rust runtime's stack-overflow handler would
                // otherwise take the signal), so raise ends the process.
                unsafe {
                    libc::signal(libc::SIGSEGV, libc::SIG_DFL);
                    libc::raise(libc::SIGSEGV);
                }
                std::process::abort()
            }
            Death::Abort => std::process::abort(),
            Death::Hang => loop {
                std::hint::spin_loop();
            },
            Death::OutOfMemory => {
                // 64 TiB: more than any machine or address-space limit grants, so the
                // allocation fails and the global allocator's error handler aborts.
                let v: Vec<u8> = Vec::with_capacity(1 << 46);
                std::hint::black_box(&v);
                std::process::abort()
            }
        }
    }

    /// Whether this death strikes while compiling (else while running).
    fn at_compile(self) -> bool {
        self != Death::Hang
    }
}

/// What a test-only fault does to the engine it wraps.
enum Misbehaviour {
    /// `test-nondeterministic`: runs counted in the process; every second one is wrong.
    Nondeterministic(AtomicU64),
    /// `test-segfault`, `test-abort`, `test-hang`, `test-oom`: dies on programs that use
    /// `trigger`.
    Dies { trigger: Opcode, death: Death },
    /// `test-stall`: a run of a program that uses `trigger` sleeps [`STALL`] first.
    Stalls { trigger: Opcode },
}

/// An engine with a test-only fault: delegates to `inner`, then misbehaves.
struct TestFault {
    inner: Box<dyn Engine>,
    how: Misbehaviour,
}

/// The compiled form of a [`TestFault`] engine: the inner one, and whether the program
/// triggers the fault (running it dies or stalls).
struct TestFaultCompiled {
    inner: Box<dyn Compiled>,
    dies: bool,
}

impl Compiled for TestFaultCompiled {
    fn listing(&self) -> Option<String> {
        self.inner.listing()
    }

    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

impl TestFault {
    /// Wraps a compile result, dying now if this program triggers a compile-time death.
    fn wrap_compiled(
        &self,
        program: &Program,
        compiled: Result<Box<dyn Compiled>, EngineError>,
    ) -> Result<Box<dyn Compiled>, EngineError> {
        let (trigger, death) = match self.how {
            Misbehaviour::Dies { trigger, death } => (trigger, Some(death)),
            Misbehaviour::Stalls { trigger } => (trigger, None),
            Misbehaviour::Nondeterministic(_) => return compiled,
        };
        let dies = program.instructions.iter().any(|i| i.opcode == trigger);
        if let Some(death) = death.filter(|d| dies && d.at_compile()) {
            death.strike();
        }
        compiled.map(|inner| Box::new(TestFaultCompiled { inner, dies }) as Box<dyn Compiled>)
    }
}

impl Engine for TestFault {
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
        let compiled = self.inner.prepare(program);
        self.wrap_compiled(program, compiled)
    }

    fn prepare_batch(&self, programs: &[&Program]) -> Vec<Result<Box<dyn Compiled>, EngineError>> {
        programs
            .iter()
            .zip(self.inner.prepare_batch(programs))
            .map(|(p, c)| self.wrap_compiled(p, c))
            .collect()
    }

    fn faults(&self) -> &'static [FaultDef] {
        self.inner.faults()
    }

    fn run(&self, compiled: &dyn Compiled, inputs: &Inputs) -> Result<Outputs, EngineError> {
        match &self.how {
            Misbehaviour::Dies { .. } | Misbehaviour::Stalls { .. } => {
                let Some(c) = compiled.as_any().downcast_ref::<TestFaultCompiled>() else {
                    return self.inner.run(compiled, inputs);
                };
                if c.dies {
                    match &self.how {
                        Misbehaviour::Dies { death, .. } => death.strike(),
                        _ => std::thread::sleep(STALL),
                    }
                }
                self.inner.run(c.inner.as_ref(), inputs)
            }
            Misbehaviour::Nondeterministic(runs) => {
                let mut out = self.inner.run(compiled, inputs)?;
                if runs.fetch_add(1, Ordering::Relaxed) % 2 == 1 {
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
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shaderdiff_tgsi as tgsi;

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
