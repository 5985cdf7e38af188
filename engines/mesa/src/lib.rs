//! Engine `mesa`: ARB vertex and fragment programs (`!!ARBvp1.0`, `!!ARBfp1.0`) run by a
//! real driver, Mesa's llvmpipe (program → NIR → LLVM → native code), through OSMesa on
//! the CPU.
//!
//! OSMesa is loaded at run time (`libloading`, in the shared GL runner `shaderdiff-gl`), so
//! shaderdiff builds and runs where it is absent: [`available`] then says why, and the
//! registry leaves the engine out (`diff`/`fuzz` print one note and carry on with the other
//! engines). `SHADERDIFF_MESA_LOADER=egl` loads llvmpipe through EGL's device platform
//! instead ([`draw`]).
//!
//! The engine runs the program's ARB text, not the IR: it reads it from the program's
//! [`NvOrigin`] (kept by the NV lowering), so TGSI programs, NV headers and IR programs
//! changed after lowering are unsupported. [`plan`] decides how the program runs (and
//! what is refused); [`draw`] runs it through `shaderdiff_gl::run`. Precision class: `mesa-llvmpipe` in
//! `oracle/precision.toml`, measured by `tests/precision_measured.rs`.

pub mod draw;
pub mod plan;

use std::any::Any;

use shaderdiff_engine::{
    Capabilities, Compiled, Engine, EngineConfig, EngineError, Inputs, Outputs,
};
use shaderdiff_model::{Program, Stage, ALL_OPCODES};
use shaderdiff_nv::NvOrigin;

pub use draw::available;

/// The engine name.
pub const NAME: &str = "mesa";

/// Mesa's llvmpipe through OSMesa (module docs).
pub struct MesaEngine {
    caps: Capabilities,
}

/// A program compiled by Mesa: its run plan and GL program objects (deleted on drop).
struct Prepared {
    plan: plan::Plan,
    programs: draw::Programs,
}

impl Compiled for Prepared {
    fn listing(&self) -> Option<String> {
        Some(format!("{}\n{}", self.plan.vp_text, self.plan.fp_text))
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}

impl MesaEngine {
    /// The engine. It needs no settings: ARB programs have no loops, so the step limit
    /// never applies, and it has no fault catalogue.
    pub fn new(_config: &EngineConfig) -> MesaEngine {
        MesaEngine {
            caps: Capabilities {
                opcodes: ALL_OPCODES.iter().copied().collect(),
                stages: [Stage::Vertex, Stage::Fragment].into_iter().collect(),
            },
        }
    }
}

fn unsupported(reason: String) -> EngineError {
    EngineError::Unsupported {
        engine: NAME.into(),
        opcode: None,
        pos: None,
        reason,
    }
}

fn origin(program: &Program) -> Result<&NvOrigin, EngineError> {
    NvOrigin::of(program).ok_or_else(|| {
        unsupported(
            "programs other than ARB assembly as lowered (mesa runs !!ARBvp1.0 / !!ARBfp1.0 text; TGSI and changed copies have none)"
                .into(),
        )
    })
}

impl Engine for MesaEngine {
    fn name(&self) -> &'static str {
        NAME
    }

    fn capabilities(&self) -> &Capabilities {
        &self.caps
    }

    fn check(&self, program: &Program) -> Result<(), EngineError> {
        plan::plan(origin(program)?).map(|_| ())
    }

    fn prepare(&self, program: &Program) -> Result<Box<dyn Compiled>, EngineError> {
        let plan = plan::plan(origin(program)?)?;
        let programs = draw::compile(&plan).map_err(|(own, message)| {
            if own {
                unsupported(format!("Mesa's glProgramStringARB rejected the {message}"))
            } else {
                EngineError::Compile {
                    engine: NAME.into(),
                    message,
                }
            }
        })?;
        Ok(Box::new(Prepared { plan, programs }))
    }

    fn run(&self, compiled: &dyn Compiled, inputs: &Inputs) -> Result<Outputs, EngineError> {
        let Some(p) = compiled.as_any().downcast_ref::<Prepared>() else {
            return Err(EngineError::InvalidProgram {
                pos: None,
                message: "mesa was given code prepared by another engine".into(),
            });
        };
        if p.plan.stage == plan::Target::Fragment && inputs.invocations % 4 != 0 {
            return Err(EngineError::InvalidInputs(format!(
                "{} invocations: fragment programs run in quads (a multiple of 4)",
                inputs.invocations
            )));
        }
        draw::run(&p.plan, &p.programs, inputs).map_err(|message| EngineError::Trap {
            engine: NAME.into(),
            message,
        })
    }
}
