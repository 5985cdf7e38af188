//! Every engine shaderdiff can run, behind the [`Engine`] trait.
//!
//! Adding an engine means adding its crate under `backends/` and one entry in
//! [`ENGINE_NAMES`] / [`engine`].

pub mod interp;

pub use shaderdiff_cranelift::JitEngine;
pub use shaderdiff_engine::*;

/// Names of the engines this build knows, oracle first.
pub const ENGINE_NAMES: &[&str] = &["interp", "jit"];

/// The engine called `name`, configured with `config`; `None` for an unknown name.
pub fn engine(name: &str, config: &EngineConfig) -> Option<Box<dyn Engine>> {
    match name {
        "interp" => Some(Box::new(interp::InterpEngine::new(config))),
        "jit" => Some(Box::new(shaderdiff_cranelift::JitEngine::new(config))),
        _ => None,
    }
}
