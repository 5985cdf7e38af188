//! Engine `nvidia`: NV_gpu_program4/5 and ARB vertex and fragment programs run by NVIDIA's
//! own OpenGL driver, the languages' home implementation, through EGL's device platform
//! (no display server).
//!
//! libEGL is loaded at run time (`shaderdiff_gl::egl`), so shaderdiff builds and runs
//! everywhere: the engine exists only where an EGL device whose GL_VENDOR is NVIDIA is
//! present; elsewhere [`available`] says why and `diff`/`fuzz` print one note and carry on.
//! The draw logic is the GL runner shared with engine `mesa` ([`shaderdiff_gl::run`]);
//! [`plan`] decides the exact bit transport (integer attributes, `FLAT` inputs, integer
//! parameters). The engine runs in the isolation layer's worker processes like any other,
//! so a driver crash costs one worker and becomes a finding `nvidia-crash-CLASS`.
//!
//! [`VENDOR_ENV`] (`SHADERDIFF_NVIDIA_VENDOR`) replaces the GL_VENDOR the device filter
//! looks for: tests and `scripts/device-check.sh --dry-run` set it to `Mesa` to run this
//! engine's code on llvmpipe (ARB programs; NV programs are then unsupported, as Mesa has
//! no NV_gpu_program4).

pub mod compute;
mod dispatch;
pub mod plan;
pub mod texture;

use std::any::Any;

use shaderdiff_engine::{
    Capabilities, Compiled, Engine, EngineConfig, EngineError, Inputs, Observed, Outputs,
};
use shaderdiff_gl::{egl, Gl, Plan, Programs, Shared, Target};
use shaderdiff_model::{Program, Stage, ALL_OPCODES};
use shaderdiff_nv::{NvOrigin, NvStage};

/// The engine name.
pub const NAME: &str = "nvidia";

/// The environment variable that replaces the GL_VENDOR the engine looks for (module docs).
pub const VENDOR_ENV: &str = "SHADERDIFF_NVIDIA_VENDOR";

/// The GL_VENDOR substring the device filter looks for: `NVIDIA` unless [`VENDOR_ENV`]
/// names another.
pub fn wanted_vendor() -> String {
    std::env::var(VENDOR_ENV)
        .ok()
        .filter(|v| !v.is_empty())
        .unwrap_or_else(|| "NVIDIA".into())
}

fn open() -> Result<Gl, String> {
    let vendor = wanted_vendor();
    egl::open(
        &format!("EGL device whose GL_VENDOR is {vendor}"),
        &|gl: &Gl| gl.vendor.contains(vendor.as_str()),
    )
}

/// The process's one context, created on first use.
static CONTEXT: Shared = Shared::new(open);

/// Whether the engine can run here: `Ok(GL_VERSION / GL_RENDERER)` or why not.
pub fn available() -> Result<String, String> {
    CONTEXT.available()
}

/// The driver's `GL_VENDOR`, `GL_RENDERER`, `GL_VERSION` and whether it advertises each
/// extension the engine uses, one `key: value` per line (for device-check summaries).
///
/// # Errors
/// The engine is unavailable (why).
pub fn driver_info() -> Result<String, String> {
    let g = CONTEXT.lock()?;
    let mut s = format!(
        "GL_VENDOR: {}\nGL_RENDERER: {}\nGL_VERSION: {}\n",
        g.vendor, g.renderer, g.version
    );
    for e in [
        "GL_NV_gpu_program4",
        "GL_NV_gpu_program4_1",
        "GL_NV_gpu_program5",
        "GL_NV_gpu_program_fp64",
        "GL_NV_compute_program5",
        "GL_NV_shader_storage_buffer_object",
        "GL_ARB_vertex_program",
        "GL_ARB_fragment_program",
    ] {
        s += &format!("{e}: {}\n", if g.has_extension(e) { "yes" } else { "no" });
    }
    Ok(s)
}

/// NVIDIA's driver through EGL (module docs).
pub struct NvidiaEngine {
    caps: Capabilities,
}

/// A program compiled by the driver: one draw per plan ([`plan::plans`]), each with its GL
/// program objects (deleted on drop).
struct Prepared {
    draws: Vec<(Plan, Programs)>,
}

impl Compiled for Prepared {
    fn listing(&self) -> Option<String> {
        Some(
            self.draws
                .iter()
                .map(|(p, _)| format!("{}\n{}", p.vp_text, p.fp_text))
                .collect::<Vec<_>>()
                .join("\n"),
        )
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}

impl NvidiaEngine {
    /// The engine. It needs no settings: the driver has no step limit the engine could
    /// set, and there is no fault catalogue.
    pub fn new(_config: &EngineConfig) -> NvidiaEngine {
        NvidiaEngine {
            caps: Capabilities {
                opcodes: ALL_OPCODES.iter().copied().collect(),
                stages: [Stage::Vertex, Stage::Fragment, Stage::Compute]
                    .into_iter()
                    .collect(),
            },
        }
    }
}

fn origin(program: &Program) -> Result<&NvOrigin, EngineError> {
    NvOrigin::of(program).ok_or_else(|| {
        plan::unsupported(
            "programs other than NV / ARB assembly as lowered (the driver runs the assembly text; TGSI and changed copies have none)"
                .into(),
        )
    })
}

/// Refuses images and resources, and textures (samplers, sampler views) in compute programs:
/// the engine binds textures of vertex and fragment programs only ([`texture`]).
fn no_images(program: &Program) -> Result<(), EngineError> {
    use shaderdiff_model::File;
    let compute = program.stage == Stage::Compute;
    match program.declarations.iter().find(|d| {
        matches!(d.file, File::Resource | File::Image)
            || (compute && matches!(d.file, File::Sampler | File::SamplerView))
    }) {
        Some(d) => Err(plan::unsupported(format!(
            "{} declarations in a {} program (images are not bound by the engine; textures in vertex and fragment programs only)",
            d.file.name(),
            program.stage
        ))),
        None => Ok(()),
    }
}

/// Refuses storage buffers, parameter buffers and memory outside compute programs: a draw
/// binds none, and the oracle would report their final contents.
fn no_memory(o: &NvOrigin) -> Result<(), EngineError> {
    use shaderdiff_model::File;
    match o
        .names
        .entries
        .iter()
        .find(|(_, f, _)| matches!(f, File::Buffer | File::Memory))
    {
        Some((name, ..)) => Err(plan::unsupported(format!(
            "{name} in a {:?} program (buffers and memory are bound for compute programs only)",
            o.stage
        ))),
        None => Ok(()),
    }
}

impl Engine for NvidiaEngine {
    fn name(&self) -> &'static str {
        NAME
    }

    fn capabilities(&self) -> &Capabilities {
        &self.caps
    }

    /// A dispatch's shared memory cannot be read back ([`compute`] module docs).
    fn observed(&self) -> Observed {
        Observed {
            shared_memory: false,
        }
    }

    fn check(&self, program: &Program) -> Result<(), EngineError> {
        no_images(program)?;
        let o = origin(program)?;
        if o.stage == NvStage::Compute {
            return compute::compute_plan(o).map(|_| ());
        }
        no_memory(o)?;
        plan::plans(o).map(|_| ())
    }

    fn prepare(&self, program: &Program) -> Result<Box<dyn Compiled>, EngineError> {
        no_images(program)?;
        let o = origin(program)?;
        if o.stage == NvStage::Compute {
            let plan = compute::compute_plan(o)?;
            return Ok(Box::new(dispatch::prepare(&CONTEXT, plan)?));
        }
        no_memory(o)?;
        let plans = plan::plans(o)?;
        let need = plan::required_extension(o).map(|e| (e, true));
        let pass = (plans[0].integer_attribs).then_some(("GL_NV_gpu_program4", false));
        for (ext, own) in need.into_iter().chain(pass) {
            let has = CONTEXT
                .lock()
                .map(|g| g.has_extension(ext))
                .map_err(|message| EngineError::Compile {
                    engine: NAME.into(),
                    message,
                })?;
            if !has {
                let what = if own {
                    "this program's header"
                } else {
                    "the exact-transport pass-through"
                };
                return Err(plan::unsupported(format!(
                    "the driver does not advertise {ext} ({what} needs it)"
                )));
            }
        }
        let mut draws = Vec::with_capacity(plans.len());
        for plan in plans {
            let programs = shaderdiff_gl::compile(&CONTEXT, &plan).map_err(compile_error)?;
            draws.push((plan, programs));
        }
        Ok(Box::new(Prepared { draws }))
    }

    fn run(&self, compiled: &dyn Compiled, inputs: &Inputs) -> Result<Outputs, EngineError> {
        if let Some(c) = compiled
            .as_any()
            .downcast_ref::<dispatch::PreparedCompute>()
        {
            return dispatch::run(c, inputs);
        }
        let Some(p) = compiled.as_any().downcast_ref::<Prepared>() else {
            return Err(EngineError::InvalidProgram {
                pos: None,
                message: "nvidia was given code prepared by another engine".into(),
            });
        };
        if p.draws[0].0.stage == Target::Fragment && inputs.invocations % 4 != 0 {
            return Err(EngineError::InvalidInputs(format!(
                "{} invocations: fragment programs run in quads (a multiple of 4)",
                inputs.invocations
            )));
        }
        let fragment = p.draws[0].0.stage == Target::Fragment;
        let textures = texture::uploads(inputs, fragment).map_err(plan::unsupported)?;
        let mut out: Option<Outputs> = None;
        for (plan, programs) in &p.draws {
            let o = shaderdiff_gl::run::run_textured(&CONTEXT, plan, programs, inputs, &textures)
                .map_err(|message| EngineError::Trap {
                engine: NAME.into(),
                message,
            })?;
            match &mut out {
                // Each draw reads back its own group of outputs (`plan::plans`).
                Some(all) => all.registers.extend(o.registers),
                None => out = Some(o),
            }
        }
        Ok(out.expect("plans gives at least one draw"))
    }
}

/// The engine error of a program the driver rejected: unsupported with the driver's
/// message when it is the program under test, a compile failure when it is one of the
/// engine's pass-through programs.
fn compile_error((own, message): (bool, String)) -> EngineError {
    if own {
        plan::unsupported(format!(
            "the driver's glProgramStringARB rejected the {message}"
        ))
    } else {
        EngineError::Compile {
            engine: NAME.into(),
            message,
        }
    }
}
