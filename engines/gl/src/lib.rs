//! shaderdiff's GL runner: ARB and NV assembly programs (`glProgramStringARB`) run by a real
//! driver, one `GL_POINTS` vertex per invocation on a float framebuffer ([`run`]).
//!
//! One runner, two loaders, both loaded at run time with `libloading` so shaderdiff builds
//! and runs where neither is installed:
//! * [`osmesa`]: Mesa's llvmpipe through OSMesa (engine `mesa`);
//! * [`egl`]: any driver through EGL's device platform, with a device filter (engine
//!   `nvidia`: the device whose GL_VENDOR is NVIDIA; engine `mesa` with
//!   `SHADERDIFF_MESA_LOADER=egl`: Mesa's llvmpipe device).
//!
//! [`gl`] holds every GL call.

pub mod egl;
pub mod gl;
pub mod osmesa;
pub mod run;

pub use gl::Gl;
pub use run::{
    compile, ParamKind, Plan, Programs, Shared, Target, HEIGHT, MAX_ATTRIBS, MAX_TARGETS, WIDTH,
};
