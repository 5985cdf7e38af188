//! The mesa engine's context: Mesa's llvmpipe through OSMesa, or through EGL's device
//! platform when `SHADERDIFF_MESA_LOADER=egl` (the CPU path of the EGL loader the `nvidia`
//! engine uses, so CI runs that loader for real and checks that both loaders give the same
//! results). The draw logic itself is [`shaderdiff_gl::run`], shared with `nvidia`.

use shaderdiff_engine::{Inputs, Outputs};
pub use shaderdiff_gl::Programs;
use shaderdiff_gl::{egl, osmesa, Gl, Plan, Shared};

/// The environment variable that selects the loader: `osmesa` (the default) or `egl`.
pub const LOADER_ENV: &str = "SHADERDIFF_MESA_LOADER";

/// The process's one context, created on first use.
static CONTEXT: Shared = Shared::new(open);

/// Whether the engine uses EGL (`SHADERDIFF_MESA_LOADER=egl`) rather than OSMesa.
///
/// # Errors
/// Another value than `osmesa` or `egl` (the engine is then unavailable, with that reason).
pub fn use_egl() -> Result<bool, String> {
    match std::env::var(LOADER_ENV).as_deref() {
        Err(_) | Ok("") | Ok("osmesa") => Ok(false),
        Ok("egl") => Ok(true),
        Ok(other) => Err(format!("{LOADER_ENV}={other}: expected osmesa or egl")),
    }
}

/// Whether an EGL context is Mesa's llvmpipe (the only Mesa driver on a machine without
/// a GPU; other Mesa drivers would measure another precision class).
pub fn is_llvmpipe(gl: &Gl) -> bool {
    gl.renderer.starts_with("llvmpipe")
}

fn open() -> Result<Gl, String> {
    if use_egl()? {
        egl::open("EGL device rendering with Mesa's llvmpipe", &is_llvmpipe)
    } else {
        osmesa::open()
    }
}

/// Whether the engine can run here: `Ok(GL_VERSION / GL_RENDERER)` or why not.
pub fn available() -> Result<String, String> {
    CONTEXT.available()
}

/// Compiles both programs of `plan` (errors: [`shaderdiff_gl::compile`]).
pub fn compile(plan: &Plan) -> Result<Programs, (bool, String)> {
    shaderdiff_gl::compile(&CONTEXT, plan)
}

/// Runs `plan`'s programs on `inputs`.
///
/// # Errors
/// A GL failure (message).
pub fn run(plan: &Plan, progs: &Programs, inputs: &Inputs) -> Result<Outputs, String> {
    shaderdiff_gl::run::run(&CONTEXT, plan, progs, inputs)
}
