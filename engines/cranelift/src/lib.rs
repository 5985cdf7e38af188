//! shaderdiff's `jit` engine: programs lowered to Cranelift IR and run as native code — a
//! second, independent implementation of the semantics the reference interpreter
//! (`shaderdiff_oracles::interp`) fixes.
//!
//! * What a program's registers are, which programs are valid and which inputs they accept
//!   is shared with the oracle (`shaderdiff_model::check::shape::Shape`), so both engines
//!   give the same errors and the same [`Outputs`] shape.
//! * Everything that computes values is the jit's own: the ALU lowering ([`alu`]), operand
//!   fetch/store with modifiers, saturation and per-invocation indirect addressing, control
//!   flow with execution masks, KILL/DEMOTE, derivatives and the step budget (see the
//!   `lower` module).
//! * Invocations run as quads: one `i32x4` per register channel, four invocations per
//!   vector, the loop over quads inside the compiled function.
//! * Memory (`BUFFER[n]`, `MEMORY[n]` GLOBAL and SHARED): LOAD, STORE, RESQ and MEMBAR are
//!   lowered inline with bounds checks, every ATOM* calls a runtime function that applies
//!   the oracle's `AtomicOp` and logs the atomic (`Outputs::atomics`), and BARRIER suspends
//!   the quad until every quad of its block got there (the `lower::memory` module docs;
//!   host side in `memory`).
//!   `Outputs::buffers` holds every declared resource's final bytes; `buffers_undefined` is
//!   left to the oracle.
//! * Inter-lane votes (VOTE_ANY, VOTE_ALL, VOTE_EQ, READ_FIRST): the thread group is the
//!   quad's executing lanes (`lower::vote`).
//! * Textures (TEX, TXP, TXB, TXL, TXD, TXF, TXQ, TG4, LODQ, TXQS): one runtime call per
//!   quad and instruction to the jit's own texture unit (`texture` module; the quad's
//!   implicit derivatives in `texture_lod`, multisample textures in `texture_ms`), on the
//!   inputs' `textures`.
//! * The jit does not compute which output channels are undefined: `Outputs::undefined` is
//!   always empty (only the oracle reports undefinedness).
//!
//! Use it through the [`Engine`] trait ([`JitEngine`]), or [`JitEngine::prepare_batch`] to
//! compile many programs into one code module (much cheaper per program). Compiled code is
//! released when the last [`Compiled`] of its module is dropped.

pub mod alu;

mod analysis;
mod atomic;
mod compile;
mod constaddr;
mod emit;
pub mod faults;
mod lower;
mod memory;
mod plan;
mod run;
mod texture;
mod texture_cube;
mod texture_lod;
mod texture_ms;

use std::any::Any;
use std::collections::BTreeSet;

use shaderdiff_engine::{
    Capabilities, Compiled, Engine, EngineConfig, EngineError, Inputs, Outputs,
};
use shaderdiff_model::check::shape::Shape;
use shaderdiff_model::check::ExecError;
use shaderdiff_model::{Opcode, Program, Stage, ALL_OPCODES};

use analysis::Analysis;
use compile::{Front, JitProgram};
use plan::Plan;

/// The engine's `--backend` name.
pub const ENGINE: &str = "jit";

/// Programs compiled into one code module by [`JitEngine::prepare_batch`] (TOOLCHAIN.md:
/// 64–256 functions per module amortize page protection).
pub const BATCH: usize = 128;

/// Control-flow, kill, derivative, geometry and inter-lane opcodes the jit lowers itself
/// (tgsi.rst "GLSL ISA", "KILL", "DDX", "Geometry ISA", "Inter-lane opcodes"), besides the ALU opcodes of
/// [`alu::is_supported`].
pub const NON_ALU_OPCODES: &[Opcode] = {
    use Opcode::*;
    &[
        IF, UIF, ELSE, ENDIF, BGNLOOP, ENDLOOP, BRK, CONT, SWITCH, CASE, DEFAULT, ENDSWITCH, CAL,
        RET, BGNSUB, ENDSUB, END, NOP, KILL, KILL_IF, KIL, KILP, DEMOTE, DDX, DDY, DDX_FINE,
        DDY_FINE, EMIT, ENDPRIM, VOTE_ANY, VOTE_ALL, VOTE_EQ, READ_FIRST,
    ]
};

/// Interpolation opcodes the jit lowers (tgsi.rst "Interpolation ISA"; `lower/interp.rs`).
pub const INTERP_OPCODES: &[Opcode] = &[
    Opcode::INTERP_CENTROID,
    Opcode::INTERP_SAMPLE,
    Opcode::INTERP_OFFSET,
];

/// Code generation settings of the jit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct JitOptions {
    /// Run Cranelift's IR verifier on every function; a failure is reported as
    /// [`EngineError::Compile`]. It costs about 40% of compile time. Default: on in debug
    /// builds (every test), off in release builds. Either way a panic inside Cranelift is
    /// caught and reported as [`EngineError::Compile`].
    pub verify: bool,
    /// Cranelift's backtracking register allocator for lowered functions of up to 1,000
    /// CLIF instructions; larger ones get the single-pass allocator, which compiles them
    /// about 1.6× faster at the cost of code that spills more. Off (default): the
    /// single-pass allocator for every function, which costs a campaign of short runs
    /// (64 invocations) about 16% fewer instructions in all (docs/performance.md, step 7).
    /// Same results either way.
    pub optimize: bool,
    /// Cranelift's e-graph optimizer (`opt_level = speed`). Off by default: it places every
    /// value right before its first use, which turns the lowering's channel-interleaved
    /// order (x, y, z, w of one instruction, then the next instruction) into one long
    /// dependency chain per channel; measured about 2× slower on straight-line ALU code, at
    /// the same compile time. The lowering already makes each constant once per block.
    pub egraph: bool,
}

impl Default for JitOptions {
    fn default() -> Self {
        JitOptions {
            verify: cfg!(debug_assertions),
            optimize: false,
            egraph: false,
        }
    }
}

/// The `jit` engine.
pub struct JitEngine {
    config: EngineConfig,
    caps: Capabilities,
    isa: Result<compile::Isas, String>,
}

/// A compiled program (the [`Compiled`] of [`JitEngine`]).
struct JitCompiled(JitProgram);

impl Compiled for JitCompiled {
    /// The function's CLIF (Cranelift IR text) as lowered, before Cranelift's optimizations.
    fn listing(&self) -> Option<String> {
        Some(self.0.clif())
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// Maps an error of the oracle's shared checks to the engine error, naming the jit.
pub(crate) fn exec_error(e: ExecError) -> EngineError {
    EngineError::from_exec(ENGINE, e)
}

impl JitEngine {
    /// A jit for the host CPU with the given step budget and default [`JitOptions`]. If
    /// Cranelift does not support the host, the engine still exists and every `prepare`
    /// answers [`EngineError::Unsupported`].
    pub fn new(config: &EngineConfig) -> JitEngine {
        JitEngine::with_options(config, JitOptions::default())
    }

    /// A jit with explicit code generation settings (see [`JitEngine::new`]).
    pub fn with_options(config: &EngineConfig, options: JitOptions) -> JitEngine {
        JitEngine {
            config: config.clone(),
            caps: Capabilities {
                opcodes: ALL_OPCODES
                    .iter()
                    .copied()
                    .filter(|&op| {
                        alu::is_supported(op)
                            || NON_ALU_OPCODES.contains(&op)
                            || memory::is_memory(op)
                            || texture::TEX_OPCODES.contains(&op)
                            || INTERP_OPCODES.contains(&op)
                    })
                    .collect::<BTreeSet<_>>(),
                stages: Stage::ALL.iter().copied().collect(),
            },
            isa: compile::Isas::host(&options),
        }
    }

    /// Everything before lowering: capabilities, the oracle's program checks, the register
    /// plan and the control-flow analysis.
    fn front(&self, program: &Program) -> Result<Front, EngineError> {
        self.caps.check(ENGINE, program)?;
        texture::check(program)?;
        // Modifiers on 64-bit sources as explicit DABS/DNEG/I64ABS/I64NEG (their meaning is
        // resolved once for every engine: shaderdiff_model::wide_modifiers).
        let expanded = shaderdiff_model::wide_modifiers::expand_source_modifiers(program);
        let program = expanded.as_ref().unwrap_or(program);
        // Forms of 64-bit instructions tgsi.rst gives no meaning (shared with the oracle).
        for (i, insn) in program.instructions.iter().enumerate() {
            if let Some(why) = shaderdiff_model::wide::unsupported_form(insn) {
                return Err(EngineError::Unsupported {
                    engine: ENGINE.into(),
                    opcode: Some(insn.opcode),
                    pos: program.source_map.instruction(i),
                    reason: why.into(),
                });
            }
        }
        let fault = faults::Fault::from_config(self.config.fault.as_deref());
        let faulty = faults::rewrite(program, fault);
        let program = faulty.as_ref().unwrap_or(program);
        let shape = Shape::new(program).map_err(exec_error)?;
        let an = Analysis::new(program).ok_or_else(|| EngineError::InvalidProgram {
            pos: None,
            message: "malformed control flow".into(),
        })?;
        let limit = lower::MAX_LOWERED as u64;
        if an.inlined_size(program, limit) > limit {
            return Err(EngineError::Unsupported {
                engine: ENGINE.into(),
                opcode: None,
                pos: None,
                reason: format!(
                    "program too large for the jit: more than {limit} instructions after \
                     inlining subroutines"
                ),
            });
        }
        // Indirect operands whose address never changes, made direct (`constaddr`); the
        // shape (outputs, inputs) stays that of the program as written.
        let folded = constaddr::fold(program, &shape);
        let program = folded.as_ref().unwrap_or(program);
        let mut plan = Plan::new(program, &shape);
        plan.memory.fault = fault;
        Ok(Front {
            program: program.clone(),
            shape,
            plan,
            an,
            fault,
        })
    }

    fn isa(&self) -> Result<&compile::Isas, EngineError> {
        self.isa.as_ref().map_err(|e| EngineError::Unsupported {
            engine: ENGINE.into(),
            opcode: None,
            pos: None,
            reason: e.clone(),
        })
    }

    /// Compiles many programs, [`BATCH`] per code module: far cheaper per program than
    /// [`Engine::prepare`] one by one. Result `i` belongs to `programs[i]` and fails alone
    /// (unsupported, invalid program, compile error). A module's code is released when the
    /// last of its programs is dropped.
    pub fn prepare_batch(
        &self,
        programs: &[&Program],
    ) -> Vec<Result<Box<dyn Compiled>, EngineError>> {
        let mut out = Vec::with_capacity(programs.len());
        for chunk in programs.chunks(BATCH) {
            let isa = match self.isa() {
                Ok(isa) => isa,
                Err(e) => {
                    out.extend(chunk.iter().map(|_| Err(e.clone())));
                    continue;
                }
            };
            let fronts = chunk.iter().map(|p| self.front(p)).collect();
            out.extend(
                compile::compile_batch(isa, fronts)
                    .into_iter()
                    .map(|r| r.map(|p| Box::new(JitCompiled(p)) as Box<dyn Compiled>)),
            );
        }
        out
    }
}

impl Engine for JitEngine {
    fn name(&self) -> &'static str {
        ENGINE
    }

    fn capabilities(&self) -> &Capabilities {
        &self.caps
    }

    fn check(&self, program: &Program) -> Result<(), EngineError> {
        self.caps.check(ENGINE, program)?;
        texture::check(program)
    }

    fn prepare(&self, program: &Program) -> Result<Box<dyn Compiled>, EngineError> {
        let isa = self.isa()?;
        let front = self.front(program)?;
        compile::compile_batch(isa, vec![Ok(front)])
            .pop()
            .unwrap_or_else(|| {
                Err(EngineError::Compile {
                    engine: ENGINE.into(),
                    message: "no result".into(),
                })
            })
            .map(|p| Box::new(JitCompiled(p)) as Box<dyn Compiled>)
    }

    /// [`JitEngine::prepare_batch`]: [`BATCH`] programs per code module.
    fn prepare_batch(&self, programs: &[&Program]) -> Vec<Result<Box<dyn Compiled>, EngineError>> {
        JitEngine::prepare_batch(self, programs)
    }

    fn faults(&self) -> &'static [shaderdiff_engine::FaultDef] {
        faults::CATALOGUE
    }

    fn run(&self, compiled: &dyn Compiled, inputs: &Inputs) -> Result<Outputs, EngineError> {
        let Some(JitCompiled(prog)) = compiled.as_any().downcast_ref::<JitCompiled>() else {
            return Err(EngineError::InvalidProgram {
                pos: None,
                message: "jit was given code prepared by another engine".into(),
            });
        };
        run::run(prog, inputs, &self.config)
    }
}
