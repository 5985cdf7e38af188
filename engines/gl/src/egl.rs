//! Loader 2: EGL's device platform (EGL_EXT_device_enumeration, EGL_EXT_platform_device),
//! no display server. `libEGL.so.1` (glvnd's dispatcher or a vendor's own) is loaded at run
//! time with `libloading`; every EGL device is tried in order, each with a GL 4.5
//! compatibility context on a 1x1 pbuffer (never read: the runner draws into its own
//! framebuffer object), and the first whose GL strings pass the caller's filter is kept.
//! The GL entry points come from `eglGetProcAddress`.
//!
//! The same loader serves NVIDIA's driver (GL_VENDOR "NVIDIA Corporation") and Mesa's
//! (`libegl-mesa0`: llvmpipe through the device platform's software device), so a machine
//! without a GPU runs this code for real.

use std::ffi::{c_char, c_void};
use std::sync::Arc;

use libloading::Library;

use crate::gl::{Context, GetProcAddress, Gl};

type EglInt = i32;
type Ptr = *mut c_void;

const EGL_PLATFORM_DEVICE_EXT: u32 = 0x313F;
const EGL_SURFACE_TYPE: EglInt = 0x3033;
const EGL_PBUFFER_BIT: EglInt = 0x0001;
const EGL_RENDERABLE_TYPE: EglInt = 0x3040;
const EGL_OPENGL_BIT: EglInt = 0x0008;
const EGL_NONE: EglInt = 0x3038;
const EGL_WIDTH: EglInt = 0x3057;
const EGL_HEIGHT: EglInt = 0x3056;
const EGL_OPENGL_API: u32 = 0x30A2;
const EGL_CONTEXT_MAJOR_VERSION: EglInt = 0x3098;
const EGL_CONTEXT_MINOR_VERSION: EglInt = 0x30FB;
const EGL_CONTEXT_OPENGL_PROFILE_MASK: EglInt = 0x30FD;
const EGL_CONTEXT_OPENGL_COMPATIBILITY_PROFILE_BIT: EglInt = 0x2;

/// Devices asked for at most.
const MAX_DEVICES: usize = 16;

type QueryDevices = unsafe extern "C" fn(EglInt, *mut Ptr, *mut EglInt) -> u32;
type GetPlatformDisplay = unsafe extern "C" fn(u32, Ptr, *const EglInt) -> Ptr;
type Initialize = unsafe extern "C" fn(Ptr, *mut EglInt, *mut EglInt) -> u32;
type ChooseConfig = unsafe extern "C" fn(Ptr, *const EglInt, *mut Ptr, EglInt, *mut EglInt) -> u32;
type CreatePbuffer = unsafe extern "C" fn(Ptr, Ptr, *const EglInt) -> Ptr;
type BindApi = unsafe extern "C" fn(u32) -> u32;
type CreateContext = unsafe extern "C" fn(Ptr, Ptr, Ptr, *const EglInt) -> Ptr;
type MakeCurrent = unsafe extern "C" fn(Ptr, Ptr, Ptr, Ptr) -> u32;
type DestroyContext = unsafe extern "C" fn(Ptr, Ptr) -> u32;
type DestroySurface = unsafe extern "C" fn(Ptr, Ptr) -> u32;
type GetError = unsafe extern "C" fn() -> EglInt;

/// The EGL entry points used.
#[derive(Clone, Copy)]
struct Egl {
    query_devices: QueryDevices,
    platform_display: GetPlatformDisplay,
    initialize: Initialize,
    choose_config: ChooseConfig,
    create_pbuffer: CreatePbuffer,
    bind_api: BindApi,
    create_context: CreateContext,
    make_current: MakeCurrent,
    destroy_context: DestroyContext,
    destroy_surface: DestroySurface,
    get_error: GetError,
    get_proc: GetProcAddress,
}

/// One EGL context on one device's display.
struct EglContext {
    egl: Egl,
    display: Ptr,
    surface: Ptr,
    ctx: Ptr,
    /// Keeps libEGL loaded while the context lives.
    _lib: Arc<Library>,
}

// SAFETY: the handles are only used by the thread that holds the engine's mutex, which
// makes the context current on that thread first (eglMakeCurrent releases it elsewhere).
unsafe impl Send for EglContext {}

impl Context for EglContext {
    fn make_current(&mut self) -> Result<(), String> {
        // SAFETY: live display, surface and context created together.
        let ok =
            unsafe { (self.egl.make_current)(self.display, self.surface, self.surface, self.ctx) };
        if ok == 0 {
            // SAFETY: no arguments.
            let e = unsafe { (self.egl.get_error)() };
            return Err(format!("eglMakeCurrent failed (0x{e:04x})"));
        }
        Ok(())
    }
}

impl Drop for EglContext {
    fn drop(&mut self) {
        // SAFETY: live handles, released once. The display is not terminated: another
        // context of this process may share it (eglGetPlatformDisplay returns the same
        // display for the same device).
        unsafe {
            (self.egl.make_current)(
                self.display,
                std::ptr::null_mut(),
                std::ptr::null_mut(),
                std::ptr::null_mut(),
            );
            (self.egl.destroy_context)(self.display, self.ctx);
            (self.egl.destroy_surface)(self.display, self.surface);
        }
    }
}

/// The library names tried, in order.
const LIBRARIES: &[&str] = &["libEGL.so.1", "libEGL.so"];

fn load_library() -> Result<Arc<Library>, String> {
    let mut errors = Vec::new();
    for name in LIBRARIES {
        // SAFETY: loading libEGL runs its initialisers (glvnd reads its vendor list); it is
        // a system library built for this purpose.
        match unsafe { Library::new(name) } {
            Ok(l) => return Ok(Arc::new(l)),
            Err(e) => errors.push(format!("{name}: {e}")),
        }
    }
    Err(format!("libEGL is not installed ({})", errors.join("; ")))
}

/// Resolves `name` through `eglGetProcAddress` as a `T`.
///
/// # Safety
/// `T` is the function pointer type of the EGL function `name`.
unsafe fn proc<T: Copy>(get: GetProcAddress, name: &str) -> Result<T, String> {
    let c = std::ffi::CString::new(name).expect("no NUL in an EGL name");
    let p = get(c.as_ptr());
    if p.is_null() {
        return Err(format!("eglGetProcAddress({name}) returned null (EGL_EXT_device_enumeration / EGL_EXT_platform_device missing?)"));
    }
    Ok(std::mem::transmute_copy::<*const c_void, T>(&p))
}

fn entry_points(lib: &Library) -> Result<Egl, String> {
    // SAFETY: eglGetProcAddress has this signature (EGL 1.5 §3.10); every name below is
    // resolved as the type of its EGL prototype.
    unsafe {
        let get = *lib
            .get::<unsafe extern "C" fn(*const c_char) -> *const c_void>(b"eglGetProcAddress\0")
            .map_err(|e| format!("libEGL: {e}"))?;
        Ok(Egl {
            query_devices: proc(get, "eglQueryDevicesEXT")?,
            platform_display: proc(get, "eglGetPlatformDisplayEXT")?,
            initialize: proc(get, "eglInitialize")?,
            choose_config: proc(get, "eglChooseConfig")?,
            create_pbuffer: proc(get, "eglCreatePbufferSurface")?,
            bind_api: proc(get, "eglBindAPI")?,
            create_context: proc(get, "eglCreateContext")?,
            make_current: proc(get, "eglMakeCurrent")?,
            destroy_context: proc(get, "eglDestroyContext")?,
            destroy_surface: proc(get, "eglDestroySurface")?,
            get_error: proc(get, "eglGetError")?,
            get_proc: get,
        })
    }
}

/// A GL context on EGL device `dev`.
fn context_on(egl: Egl, lib: &Arc<Library>, dev: Ptr) -> Result<Gl, String> {
    let fail = |what: &str| {
        // SAFETY: no arguments.
        let e = unsafe { (egl.get_error)() };
        format!("{what} failed (0x{e:04x})")
    };
    // SAFETY: `dev` came from eglQueryDevicesEXT; attribute lists are EGL_NONE-terminated
    // and out-pointers are valid for what each call writes.
    unsafe {
        let display = (egl.platform_display)(EGL_PLATFORM_DEVICE_EXT, dev, std::ptr::null());
        if display.is_null() {
            return Err(fail("eglGetPlatformDisplayEXT"));
        }
        let (mut major, mut minor) = (0, 0);
        if (egl.initialize)(display, &mut major, &mut minor) == 0 {
            return Err(fail("eglInitialize"));
        }
        let config_attribs = [
            EGL_SURFACE_TYPE,
            EGL_PBUFFER_BIT,
            EGL_RENDERABLE_TYPE,
            EGL_OPENGL_BIT,
            EGL_NONE,
        ];
        let mut config = std::ptr::null_mut();
        let mut n = 0;
        if (egl.choose_config)(display, config_attribs.as_ptr(), &mut config, 1, &mut n) == 0
            || n < 1
        {
            return Err(fail("eglChooseConfig (pbuffer, OpenGL)"));
        }
        let surface_attribs = [EGL_WIDTH, 1, EGL_HEIGHT, 1, EGL_NONE];
        let surface = (egl.create_pbuffer)(display, config, surface_attribs.as_ptr());
        if surface.is_null() {
            return Err(fail("eglCreatePbufferSurface"));
        }
        if (egl.bind_api)(EGL_OPENGL_API) == 0 {
            (egl.destroy_surface)(display, surface);
            return Err(fail("eglBindAPI(EGL_OPENGL_API)"));
        }
        let context_attribs = [
            EGL_CONTEXT_MAJOR_VERSION,
            4,
            EGL_CONTEXT_MINOR_VERSION,
            5,
            EGL_CONTEXT_OPENGL_PROFILE_MASK,
            EGL_CONTEXT_OPENGL_COMPATIBILITY_PROFILE_BIT,
            EGL_NONE,
        ];
        let ctx = (egl.create_context)(
            display,
            config,
            std::ptr::null_mut(),
            context_attribs.as_ptr(),
        );
        if ctx.is_null() {
            (egl.destroy_surface)(display, surface);
            return Err(fail("eglCreateContext (GL 4.5 compatibility)"));
        }
        let c = EglContext {
            egl,
            display,
            surface,
            ctx,
            _lib: Arc::clone(lib),
        };
        Gl::new(Box::new(c), egl.get_proc)
    }
}

/// Opens a context on the first EGL device whose GL passes `accept` (`accept(&gl)` sees
/// its vendor, renderer, version and extensions).
///
/// # Errors
/// No libEGL, no device enumeration, or no device accepted: the message lists every device
/// tried with its GL_VENDOR / GL_RENDERER or why it could not be opened, after `wanted`
/// (what the filter looks for, e.g. "an EGL device whose GL_VENDOR is NVIDIA").
pub fn open(wanted: &str, accept: &dyn Fn(&Gl) -> bool) -> Result<Gl, String> {
    let lib = load_library()?;
    let egl = entry_points(&lib)?;
    let mut devices = vec![std::ptr::null_mut(); MAX_DEVICES];
    let mut n = 0;
    // SAFETY: `devices` has room for MAX_DEVICES handles.
    let ok = unsafe { (egl.query_devices)(MAX_DEVICES as EglInt, devices.as_mut_ptr(), &mut n) };
    if ok == 0 {
        return Err("eglQueryDevicesEXT failed".into());
    }
    let mut seen = Vec::new();
    for (i, &dev) in devices.iter().take(n.max(0) as usize).enumerate() {
        match context_on(egl, &lib, dev) {
            Ok(gl) if accept(&gl) => return Ok(gl),
            Ok(gl) => seen.push(format!("device {i}: {} / {}", gl.vendor, gl.renderer)),
            Err(e) => seen.push(format!("device {i}: {e}")),
        }
    }
    if seen.is_empty() {
        seen.push("eglQueryDevicesEXT listed no device".into());
    }
    Err(format!("no {wanted} ({})", seen.join("; ")))
}
