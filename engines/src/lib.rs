//! Every engine shaderdiff can run, behind the [`Engine`] trait.
//!
//! Adding an engine means adding its crate under `engines/` and one line in the registry
//! table [`ENGINES`] ([`registry`]); every engine list of the command line is derived from
//! that table.

pub mod faults;
pub mod interp;
pub mod registry;
pub mod test_faults;

pub use registry::{
    engine, unavailable_reason, EngineDescriptor, Listing, Registry, ENGINES, ENGINE_LIST,
    ENGINE_NAMES, ORACLE, REGISTRY, RUNTIME_ENGINE_NAMES,
};

pub use shaderdiff_cranelift::JitEngine;
pub use shaderdiff_engine::*;
pub use shaderdiff_mesa::MesaEngine;
pub use shaderdiff_nvidia::NvidiaEngine;
pub use shaderdiff_valhall::engine::ValhallEngine;
pub use shaderdiff_virgl::VirglEngine;
