//! Loader 1: OSMesa (Mesa's off-screen interface, llvmpipe), loaded at run time with
//! `libloading`: one GL 4.5 compatibility context (`OSMesaCreateContextAttribs`) drawing
//! into a 1x1 client-memory buffer that is never read (the runner draws into its own
//! framebuffer object).

use std::ffi::{c_int, c_void};

use libloading::Library;

use crate::gl::{Context, Enum, GetProcAddress, Gl, RGBA, UNSIGNED_BYTE};

const OSMESA_FORMAT: c_int = 0x22;
const OSMESA_DEPTH_BITS: c_int = 0x30;
const OSMESA_STENCIL_BITS: c_int = 0x31;
const OSMESA_PROFILE: c_int = 0x33;
const OSMESA_COMPAT_PROFILE: c_int = 0x35;
const OSMESA_CONTEXT_MAJOR_VERSION: c_int = 0x36;
const OSMESA_CONTEXT_MINOR_VERSION: c_int = 0x37;

type CreateCtx = unsafe extern "C" fn(*const c_int, *mut c_void) -> *mut c_void;
type MakeCurrent = unsafe extern "C" fn(*mut c_void, *mut c_void, Enum, c_int, c_int) -> u8;
type DestroyCtx = unsafe extern "C" fn(*mut c_void);

/// The OSMesa library names tried, in order.
const LIBRARIES: &[&str] = &["libOSMesa.so.8", "libOSMesa.so"];

/// An OSMesa context and its never-read 1x1 buffer.
struct OsMesa {
    make_current: MakeCurrent,
    destroy: DestroyCtx,
    ctx: *mut c_void,
    buffer: Vec<u8>,
    /// Kept last so the library is unloaded after the context is destroyed.
    _lib: Library,
}

// SAFETY: the context pointer is only used by the thread that holds the engine's mutex,
// which makes the context current on that thread first; OSMesa contexts may move between
// threads that way.
unsafe impl Send for OsMesa {}

impl Context for OsMesa {
    fn make_current(&mut self) -> Result<(), String> {
        // SAFETY: `ctx` is live; `buffer` is a 1x1 RGBA8 buffer owned by `self`, which
        // outlives every use of the context (it is destroyed in `drop` first).
        let ok = unsafe {
            (self.make_current)(
                self.ctx,
                self.buffer.as_mut_ptr().cast(),
                UNSIGNED_BYTE,
                1,
                1,
            )
        };
        if ok == 0 {
            return Err("OSMesaMakeCurrent failed".into());
        }
        Ok(())
    }
}

impl Drop for OsMesa {
    fn drop(&mut self) {
        // SAFETY: `ctx` is live and destroyed once; the library is still loaded.
        unsafe { (self.destroy)(self.ctx) }
    }
}

/// Loads OSMesa and creates the context.
///
/// # Errors
/// No library (the message names what was tried), a missing entry point, or a context
/// that cannot be created or made current.
pub fn open() -> Result<Gl, String> {
    let mut errors = Vec::new();
    let lib = LIBRARIES
        .iter()
        .find_map(|name| {
            // SAFETY: loading libOSMesa runs its initialisers, which only set up Mesa's own
            // state; it is a system library built for this purpose.
            match unsafe { Library::new(name) } {
                Ok(l) => Some(l),
                Err(e) => {
                    errors.push(format!("{name}: {e}"));
                    None
                }
            }
        })
        .ok_or_else(|| format!("OSMesa is not installed ({})", errors.join("; ")))?;
    // SAFETY: the symbols are the OSMesa functions of GL/osmesa.h with these signatures;
    // the copies do not outlive `lib`, which the context keeps loaded.
    let (create, make_current, get, destroy) = unsafe {
        let sym = |e: libloading::Error| format!("OSMesa: {e}");
        (
            *lib.get::<CreateCtx>(b"OSMesaCreateContextAttribs\0")
                .map_err(sym)?,
            *lib.get::<MakeCurrent>(b"OSMesaMakeCurrent\0")
                .map_err(sym)?,
            *lib.get::<GetProcAddress>(b"OSMesaGetProcAddress\0")
                .map_err(sym)?,
            *lib.get::<DestroyCtx>(b"OSMesaDestroyContext\0")
                .map_err(sym)?,
        )
    };
    let attribs: [c_int; 15] = [
        OSMESA_FORMAT,
        RGBA as c_int,
        OSMESA_DEPTH_BITS,
        0,
        OSMESA_STENCIL_BITS,
        0,
        OSMESA_PROFILE,
        OSMESA_COMPAT_PROFILE,
        OSMESA_CONTEXT_MAJOR_VERSION,
        4,
        OSMESA_CONTEXT_MINOR_VERSION,
        5,
        0,
        0,
        0,
    ];
    // SAFETY: a zero-terminated attribute list and no share context, as osmesa.h asks.
    let ctx = unsafe { create(attribs.as_ptr(), std::ptr::null_mut()) };
    if ctx.is_null() {
        return Err("OSMesaCreateContextAttribs (compatibility profile 4.5) failed".into());
    }
    let ctx = OsMesa {
        make_current,
        destroy,
        ctx,
        buffer: vec![0; 4],
        _lib: lib,
    };
    Gl::new(Box::new(ctx), get)
}
