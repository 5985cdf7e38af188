//! The reference interpreter behind the [`Engine`] trait (engine name `interp`).

use std::any::Any;
use std::collections::BTreeSet;

use shaderdiff_engine::{
    Capabilities, Compiled, Engine, EngineConfig, EngineError, Inputs, Outputs,
};
use shaderdiff_model::{Opcode, Program, Stage, ALL_OPCODES};
use shaderdiff_oracles::interp::{self, alu, ExecError, InterpConfig};

/// The oracle as an engine.
pub struct InterpEngine {
    config: InterpConfig,
    caps: Capabilities,
}

/// A program the interpreter has accepted (it decodes again on each run, which is cheap).
struct Checked(Program);

impl Compiled for Checked {
    fn listing(&self) -> Option<String> {
        Some(shaderdiff_tgsi::print(&self.0))
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// Opcodes the interpreter executes: the ALU plus control flow, kill, derivatives, the
/// geometry EMIT/ENDPRIM, the memory instructions (LOAD, STORE, RESQ, ATOM*, BARRIER,
/// MEMBAR), the texture instructions of `interp::texture::TEXTURE_OPCODES`, the inter-lane
/// votes VOTE_ANY, VOTE_ALL, VOTE_EQ, READ_FIRST and the interpolation INTERP_CENTROID,
/// INTERP_SAMPLE, INTERP_OFFSET (see
/// `shaderdiff_oracles::interp` for the semantics of each).
fn interp_opcodes() -> BTreeSet<Opcode> {
    use Opcode::*;
    const NON_ALU: &[Opcode] = &[
        IF, UIF, ELSE, ENDIF, BGNLOOP, ENDLOOP, BRK, CONT, SWITCH, CASE, DEFAULT, ENDSWITCH, CAL,
        RET, BGNSUB, ENDSUB, END, NOP, KILL, KILL_IF, KIL, KILP, DEMOTE, DDX, DDY, DDX_FINE,
        DDY_FINE, EMIT, ENDPRIM, LOAD, STORE, RESQ, BARRIER, MEMBAR, VOTE_ANY, VOTE_ALL, VOTE_EQ,
        READ_FIRST,
    ];
    ALL_OPCODES
        .iter()
        .copied()
        .filter(|&op| {
            alu::is_alu(op)
                || NON_ALU.contains(&op)
                || shaderdiff_model::check::texture::TEXTURE_OPCODES.contains(&op)
                || matches!(op, INTERP_CENTROID | INTERP_SAMPLE | INTERP_OFFSET)
                || shaderdiff_model::atomic::AtomicOp::from_opcode(op).is_some()
        })
        .collect()
}

impl InterpEngine {
    /// An interpreter with the given step budget.
    pub fn new(config: &EngineConfig) -> InterpEngine {
        InterpEngine {
            config: InterpConfig {
                step_limit: config.step_limit,
            },
            caps: Capabilities {
                opcodes: interp_opcodes(),
                stages: Stage::ALL.iter().copied().collect(),
            },
        }
    }
}

/// Maps the interpreter's own error onto the engine-neutral one.
pub fn from_exec_error(e: ExecError) -> EngineError {
    EngineError::from_exec("interp", e)
}

impl Engine for InterpEngine {
    fn name(&self) -> &'static str {
        "interp"
    }

    fn capabilities(&self) -> &Capabilities {
        &self.caps
    }

    fn check(&self, program: &Program) -> Result<(), EngineError> {
        self.caps.check(self.name(), program)
    }

    fn prepare(&self, program: &Program) -> Result<Box<dyn Compiled>, EngineError> {
        Ok(Box::new(Checked(program.clone())))
    }

    fn run(&self, compiled: &dyn Compiled, inputs: &Inputs) -> Result<Outputs, EngineError> {
        let Some(Checked(program)) = compiled.as_any().downcast_ref::<Checked>() else {
            return Err(EngineError::InvalidProgram {
                pos: None,
                message: "interp was given code prepared by another engine".into(),
            });
        };
        interp::run(program, inputs, &self.config).map_err(from_exec_error)
    }
}
