//! Every engine shaderdiff can run, behind the [`Engine`] trait.
//!
//! Adding an engine means adding its crate under `backends/` and one entry in
//! [`ENGINE_NAMES`] / [`engine`].

pub mod interp;
pub mod test_faults;

pub use shaderdiff_cranelift::JitEngine;
pub use shaderdiff_engine::*;
pub use shaderdiff_mesa::MesaEngine;
pub use shaderdiff_nvidia::NvidiaEngine;
pub use shaderdiff_valhall::engine::ValhallEngine;
pub use shaderdiff_virgl::VirglEngine;

/// Names of the engines this build knows, oracle first.
pub const ENGINE_NAMES: &[&str] = &["interp", "jit", "valhall"];

/// Engines that need something outside the build at run time (`mesa`: OSMesa; `virgl`:
/// virglrenderer's `virgl_test_server`; `nvidia`: an EGL device whose GL_VENDOR is NVIDIA). They are opt-in (`--backends interp,mesa`);
/// [`engine`] gives `None` where they cannot run, and [`unavailable_reason`] says why.
pub const RUNTIME_ENGINE_NAMES: &[&str] = &["mesa", "virgl", "nvidia"];

/// Why engine `name` cannot run here (`None` when it can, or for an unknown name).
pub fn unavailable_reason(name: &str) -> Option<String> {
    match name {
        "mesa" => shaderdiff_mesa::available().err(),
        "virgl" => shaderdiff_virgl::available().err(),
        "nvidia" => shaderdiff_nvidia::available().err(),
        _ => None,
    }
}

/// The engine called `name`, configured with `config` (a test-only fault in it wraps the
/// engine, [`test_faults::wrap`]); `None` for an unknown name.
pub fn engine(name: &str, config: &EngineConfig) -> Option<Box<dyn Engine>> {
    let e: Box<dyn Engine> = match name {
        "interp" => Box::new(interp::InterpEngine::new(config)),
        "jit" => Box::new(shaderdiff_cranelift::JitEngine::new(config)),
        "valhall" => Box::new(shaderdiff_valhall::engine::ValhallEngine::new(config)),
        "mesa" if shaderdiff_mesa::available().is_ok() => {
            Box::new(shaderdiff_mesa::MesaEngine::new(config))
        }
        "virgl" if shaderdiff_virgl::available().is_ok() => {
            Box::new(shaderdiff_virgl::VirglEngine::new(config))
        }
        "nvidia" if shaderdiff_nvidia::available().is_ok() => {
            Box::new(shaderdiff_nvidia::NvidiaEngine::new(config))
        }
        _ => return None,
    };
    Some(test_faults::wrap(e, config))
}
