//! The `Engine` trait: one implementation per execution engine.
//!
//! An engine states its [`Capabilities`] so "unsupported" is decided before anything runs,
//! compiles a [`Program`] once with [`Engine::prepare`], and runs the result on
//! [`Inputs`] as many times as needed with [`Engine::run`]. Every engine returns the same
//! [`Outputs`] shape (INTERFACE.md "`run --format json` output"), so comparators treat
//! engines alike. Errors are typed ([`EngineError`]) and map onto CLI exit statuses.

use std::any::Any;
use std::collections::BTreeSet;

use shaderdiff_model::check::ExecError;
pub use shaderdiff_model::{Inputs, Outputs, RegKey};
use shaderdiff_model::{Opcode, Pos, Program, Stage};
use thiserror::Error;

/// Settings shared by every engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineConfig {
    /// Maximum number of instructions one invocation may execute before the run stops
    /// with [`EngineError::StepLimit`] (default 1 000 000, the oracle's budget).
    pub step_limit: u64,
    /// A catalogued deliberate miscompilation to switch on (`--inject-fault NAME`), by the
    /// name [`Engine::faults`] lists. `None` (the default): no fault is ever active. An
    /// engine ignores names that are not in its own catalogue.
    pub fault: Option<String>,
    /// Seed of the thread scheduling order, for engines that choose one (`--schedule-seed
    /// S`; default 0): which warp runs next and in which order the threads of a warp
    /// perform an atomic. Any seed gives a legal execution; different seeds give different
    /// interleavings, so contention bugs show under some of them. Engines that run
    /// invocations in a fixed order ignore it.
    pub schedule_seed: u64,
}

impl Default for EngineConfig {
    fn default() -> Self {
        EngineConfig {
            step_limit: 1_000_000,
            fault: None,
            schedule_seed: 0,
        }
    }
}

/// One entry of an engine's fault catalogue (`shaderdiff faults`): a deliberate, realistic
/// miscompilation that `--inject-fault NAME` switches on, so anyone can check that the
/// differential loop finds and reduces it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FaultDef {
    /// The `--inject-fault` name: lowercase words joined by `-`, unique across engines.
    pub name: &'static str,
    /// One line: what the engine gets wrong when the fault is on.
    pub description: &'static str,
    /// The generator mode whose programs can trigger the fault (`fuzz --inject-fault NAME`
    /// switches it on unless the user chose a mode).
    pub mode: FaultMode,
}

/// The generator mode a fault's trigger needs: the default TGSI campaign never draws
/// 64-bit opcodes, memory programs or NV assembly, so a fault in them is only found by a
/// campaign in the matching mode.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum FaultMode {
    /// The default campaign (TGSI programs, 32-bit ALU, control flow, textures).
    #[default]
    Tgsi,
    /// TGSI programs with the 64-bit opcodes (`fuzz --64bit`).
    Wide,
    /// TGSI programs with memory compute programs (`fuzz --memory`).
    Memory,
    /// NV assembly vertex and fragment ALU programs (`fuzz --lang nv --nv-alu-only`).
    NvAlu,
    /// NV assembly programs of every kind (`fuzz --lang nv`).
    Nv,
}

/// What an engine can run. Checked against a program before it is prepared.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Capabilities {
    /// Opcodes the engine implements.
    pub opcodes: BTreeSet<Opcode>,
    /// Shader stages it runs.
    pub stages: BTreeSet<Stage>,
}

impl Capabilities {
    /// The first thing in `program` outside these capabilities, as an
    /// [`EngineError::Unsupported`] naming the engine and the source position.
    pub fn check(&self, engine: &str, program: &Program) -> Result<(), EngineError> {
        if !self.stages.contains(&program.stage) {
            return Err(EngineError::Unsupported {
                engine: engine.to_string(),
                opcode: None,
                pos: None,
                reason: format!("{} programs", program.stage),
            });
        }
        for (i, insn) in program.instructions.iter().enumerate() {
            if !self.opcodes.contains(&insn.opcode) {
                return Err(EngineError::Unsupported {
                    engine: engine.to_string(),
                    opcode: Some(insn.opcode),
                    pos: program.source_map.instruction(i),
                    reason: format!("opcode {}", insn.opcode),
                });
            }
        }
        Ok(())
    }
}

/// A prepared program: whatever the engine keeps between `prepare` and `run`.
pub trait Compiled: Any + Send + Sync {
    /// Human-readable form of the compiled code (CLIF, Valhall assembly ...), when the
    /// engine has one (`shaderdiff compile --emit`).
    fn listing(&self) -> Option<String> {
        None
    }
    /// The machine code bytes, when the engine produces real machine code that can be
    /// shown as hex (Valhall: 8 little-endian bytes per instruction).
    fn machine_code(&self) -> Option<Vec<u8>> {
        None
    }
    /// Downcasting support for the engine that made it.
    fn as_any(&self) -> &dyn Any;
}

/// Why an engine could not produce outputs.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum EngineError {
    /// The program is valid but uses something this engine does not implement.
    /// Decided before running. CLI exit status 3; `diff`/`fuzz` report `unsupported`.
    #[error("{}unsupported by {engine}: {reason}", pos_prefix(.pos))]
    Unsupported {
        /// Engine name.
        engine: String,
        /// The opcode at fault, when one is.
        opcode: Option<Opcode>,
        /// Source position, when known.
        pos: Option<Pos>,
        /// What is unsupported.
        reason: String,
    },
    /// The program is malformed in a way the engine detects. CLI exit status 2.
    #[error("{}invalid program: {message}", pos_prefix(.pos))]
    InvalidProgram {
        /// Source position, when known.
        pos: Option<Pos>,
        /// What is wrong.
        message: String,
    },
    /// The inputs do not fit the program. CLI exit status 2.
    #[error("invalid inputs: {0}")]
    InvalidInputs(String),
    /// The engine failed to compile a program it claims to support (an engine bug).
    /// CLI exit status 2 (`run`); a finding for `diff`/`fuzz`.
    #[error("compile error in {engine}: {message}")]
    Compile {
        /// Engine name.
        engine: String,
        /// Compiler message.
        message: String,
    },
    /// The compiled code faulted while running (an engine bug). CLI exit status 1.
    #[error("trap in {engine}: {message}")]
    Trap {
        /// Engine name.
        engine: String,
        /// What happened.
        message: String,
    },
    /// An invocation executed more than `limit` instructions. CLI exit status 1.
    #[error("step limit exceeded ({limit} steps) in invocation {invocation}")]
    StepLimit {
        /// The configured limit.
        limit: u64,
        /// The first invocation found over the limit.
        invocation: usize,
    },
    /// Subroutine calls nested deeper than the engine allows. CLI exit status 1.
    #[error("call depth exceeded ({limit} nested CAL) in invocation {invocation}")]
    CallDepth {
        /// Maximum depth.
        limit: usize,
        /// The first invocation found over it.
        invocation: usize,
    },
}

impl EngineError {
    /// INTERFACE.md exit status for a command that failed with this error:
    /// 3 unsupported, 2 bad input or a program the engine cannot lower, 1 a failed run.
    pub fn exit_code(&self) -> i32 {
        match self {
            EngineError::Unsupported { .. } => 3,
            EngineError::InvalidProgram { .. }
            | EngineError::InvalidInputs(_)
            | EngineError::Compile { .. } => 2,
            EngineError::Trap { .. }
            | EngineError::StepLimit { .. }
            | EngineError::CallDepth { .. } => 1,
        }
    }

    /// The error of engine `engine` for one of the oracle's shared program and input checks
    /// (`shaderdiff_model::check::ExecError`), which every engine runs before its own
    /// work so all engines reject the same programs and inputs with the same messages.
    pub fn from_exec(engine: &str, e: ExecError) -> EngineError {
        let engine = engine.to_string();
        match e {
            ExecError::Unsupported {
                opcode,
                pos,
                reason,
            } => EngineError::Unsupported {
                engine,
                opcode: Some(opcode),
                pos,
                reason: format!("{opcode}: {reason}"),
            },
            ExecError::UnsupportedFeature { pos, reason } => EngineError::Unsupported {
                engine,
                opcode: None,
                pos,
                reason,
            },
            ExecError::InvalidProgram { pos, message } => {
                EngineError::InvalidProgram { pos, message }
            }
            ExecError::InvalidInputs(m) => EngineError::InvalidInputs(m),
            ExecError::StepLimit { limit, invocation } => {
                EngineError::StepLimit { limit, invocation }
            }
            ExecError::CallDepth { limit, invocation } => {
                EngineError::CallDepth { limit, invocation }
            }
        }
    }

    /// Whether this is [`EngineError::Unsupported`].
    pub fn is_unsupported(&self) -> bool {
        matches!(self, EngineError::Unsupported { .. })
    }
}

fn pos_prefix(pos: &Option<Pos>) -> String {
    match pos {
        Some(p) => format!("{p}: "),
        None => String::new(),
    }
}

/// Which parts of a run's final state an engine's [`Outputs`] hold, beyond the registers
/// and the buffers it binds. Comparators judge only what the engine observes: a part it
/// cannot read back is left out of the comparison, never filled in by the engine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Observed {
    /// Final SHARED memory (TGSI `DCL MEMORY[n], SHARED`, NV `program.sharedmem`): the
    /// oracle reports workgroup 0's copy. An engine that dispatches on a driver cannot
    /// read it back after the dispatch (NV_compute_program5 §2.X.3.Y: one block per
    /// local work group, alive while the group runs); its effects still reach the
    /// buffers and registers the program writes, which are compared.
    pub shared_memory: bool,
}

impl Observed {
    /// Everything: engines that run the program themselves (the default).
    pub const ALL: Observed = Observed {
        shared_memory: true,
    };
}

/// An execution engine.
pub trait Engine: Send + Sync {
    /// The `--backend` name (`interp`, `jit`, `valhall`).
    fn name(&self) -> &'static str;

    /// What the engine supports.
    fn capabilities(&self) -> &Capabilities;

    /// Decide support before preparing: the default checks [`Engine::capabilities`].
    /// Engines with finer restrictions override it.
    fn check(&self, program: &Program) -> Result<(), EngineError> {
        self.capabilities().check(self.name(), program)
    }

    /// Compile (or pre-decode) `program` once. Errors: unsupported, invalid program, compile.
    fn prepare(&self, program: &Program) -> Result<Box<dyn Compiled>, EngineError>;

    /// Run prepared code on `inputs`. Errors: invalid inputs, step limit, trap.
    fn run(&self, compiled: &dyn Compiled, inputs: &Inputs) -> Result<Outputs, EngineError>;

    /// Prepares many programs at once; result `i` belongs to `programs[i]` and fails alone.
    /// The default checks and prepares them one by one; engines with a cheaper batch path
    /// (the jit compiles many programs into one code module) override it.
    fn prepare_batch(&self, programs: &[&Program]) -> Vec<Result<Box<dyn Compiled>, EngineError>> {
        programs
            .iter()
            .map(|p| self.check(p).and_then(|()| self.prepare(p)))
            .collect()
    }

    /// What the engine's outputs hold ([`Observed`]); [`Observed::ALL`] by default.
    fn observed(&self) -> Observed {
        Observed::ALL
    }

    /// The engine's fault catalogue (`--inject-fault NAME`); empty by default. A fault is
    /// active only when [`EngineConfig::fault`] names it.
    fn faults(&self) -> &'static [FaultDef] {
        &[]
    }

    /// `check`, `prepare` and `run` in one call.
    fn execute(&self, program: &Program, inputs: &Inputs) -> Result<Outputs, EngineError> {
        self.check(program)?;
        let compiled = self.prepare(program)?;
        self.run(compiled.as_ref(), inputs)
    }
}
