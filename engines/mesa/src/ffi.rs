//! Every foreign call of the engine: OSMesa loaded at run time with `libloading`, the GL
//! entry points through `OSMesaGetProcAddress`, and a few safe wrappers over them. This is
//! the only module with `unsafe`.
//!
//! A [`Gl`] owns the library, one compatibility-profile context (`OSMesaCreateContextAttribs`,
//! GL 4.5 compatibility: ARB_vertex_program and ARB_fragment_program are compatibility
//! features) and its 1x1 default colour buffer. GL contexts are current on one thread at
//! a time, so the engine keeps its `Gl` behind a mutex and calls [`Gl::make_current`] each
//! time it takes the lock.

use std::ffi::{c_char, c_int, c_uint, c_void, CStr, CString};

use libloading::Library;

/// `GLenum`.
pub type Enum = c_uint;

pub const FRAMEBUFFER: Enum = 0x8D40;
pub const RENDERBUFFER: Enum = 0x8D41;
pub const COLOR_ATTACHMENT0: Enum = 0x8CE0;
pub const DEPTH_STENCIL_ATTACHMENT: Enum = 0x821A;
pub const RGBA32F: Enum = 0x8814;
pub const DEPTH24_STENCIL8: Enum = 0x88F0;
pub const FRAMEBUFFER_COMPLETE: Enum = 0x8CD5;
pub const RGBA: Enum = 0x1908;
pub const FLOAT: Enum = 0x1406;
pub const UNSIGNED_BYTE: Enum = 0x1401;
pub const STENCIL_INDEX: Enum = 0x1901;
pub const POINTS: Enum = 0;
pub const VERTEX_PROGRAM_ARB: Enum = 0x8620;
pub const FRAGMENT_PROGRAM_ARB: Enum = 0x8804;
const PROGRAM_FORMAT_ASCII_ARB: Enum = 0x8875;
const PROGRAM_ERROR_POSITION_ARB: Enum = 0x864B;
const PROGRAM_ERROR_STRING_ARB: Enum = 0x8874;
pub const STENCIL_TEST: Enum = 0x0B90;
pub const ALWAYS: Enum = 0x0207;
pub const KEEP: Enum = 0x1E00;
pub const REPLACE: Enum = 0x1E01;
pub const COLOR_BUFFER_BIT: c_uint = 0x4000;
pub const STENCIL_BUFFER_BIT: c_uint = 0x0400;
pub const CLAMP_VERTEX_COLOR: Enum = 0x891A;
pub const CLAMP_FRAGMENT_COLOR: Enum = 0x891B;
pub const CLAMP_READ_COLOR: Enum = 0x891C;
pub const DITHER: Enum = 0x0BD0;
pub const PACK_ALIGNMENT: Enum = 0x0D05;
const VERSION: Enum = 0x1F02;
const RENDERER: Enum = 0x1F01;
const NO_ERROR: Enum = 0;

// OSMesa (GL/osmesa.h).
const OSMESA_FORMAT: c_int = 0x22;
const OSMESA_DEPTH_BITS: c_int = 0x30;
const OSMESA_STENCIL_BITS: c_int = 0x31;
const OSMESA_PROFILE: c_int = 0x33;
const OSMESA_COMPAT_PROFILE: c_int = 0x35;
const OSMESA_CONTEXT_MAJOR_VERSION: c_int = 0x36;
const OSMESA_CONTEXT_MINOR_VERSION: c_int = 0x37;

type CreateCtx = unsafe extern "C" fn(*const c_int, *mut c_void) -> *mut c_void;
type MakeCurrent = unsafe extern "C" fn(*mut c_void, *mut c_void, Enum, c_int, c_int) -> u8;
type GetProcAddress = unsafe extern "C" fn(*const c_char) -> *const c_void;
type DestroyCtx = unsafe extern "C" fn(*mut c_void);

/// Declares the GL entry points: a struct of function pointers and its loader.
macro_rules! gl_fns {
    ($($name:ident : fn($($arg:ty),*) $(-> $ret:ty)?;)*) => {
        #[allow(non_snake_case)]
        struct Fns { $($name: unsafe extern "C" fn($($arg),*) $(-> $ret)?,)* }
        impl Fns {
            /// Resolves every entry point; the error names the first one missing.
            fn load(get: GetProcAddress) -> Result<Fns, String> {
                Ok(Fns { $($name: {
                    let name = CString::new(stringify!($name)).expect("no NUL in a GL name");
                    // SAFETY: OSMesaGetProcAddress takes a NUL-terminated name and returns
                    // the entry point or null; the name outlives the call.
                    let p = unsafe { get(name.as_ptr()) };
                    if p.is_null() {
                        return Err(format!("OSMesaGetProcAddress({}) returned null", stringify!($name)));
                    }
                    // SAFETY: a non-null pointer OSMesa returns for this name is the GL
                    // function of that name, whose C signature is the one declared here
                    // (from the GL registry).
                    unsafe { std::mem::transmute::<*const c_void, unsafe extern "C" fn($($arg),*) $(-> $ret)?>(p) }
                },)* })
            }
        }
    };
}

gl_fns! {
    glGetString: fn(Enum) -> *const u8;
    glGetError: fn() -> Enum;
    glGetIntegerv: fn(Enum, *mut c_int);
    glEnable: fn(Enum);
    glDisable: fn(Enum);
    glClampColor: fn(Enum, u8);
    glGenFramebuffers: fn(c_int, *mut c_uint);
    glBindFramebuffer: fn(Enum, c_uint);
    glGenRenderbuffers: fn(c_int, *mut c_uint);
    glBindRenderbuffer: fn(Enum, c_uint);
    glRenderbufferStorage: fn(Enum, Enum, c_int, c_int);
    glFramebufferRenderbuffer: fn(Enum, Enum, Enum, c_uint);
    glCheckFramebufferStatus: fn(Enum) -> Enum;
    glDrawBuffers: fn(c_int, *const Enum);
    glReadBuffer: fn(Enum);
    glViewport: fn(c_int, c_int, c_int, c_int);
    glClearColor: fn(f32, f32, f32, f32);
    glClearStencil: fn(c_int);
    glClear: fn(c_uint);
    glStencilFunc: fn(Enum, c_int, c_uint);
    glStencilOp: fn(Enum, Enum, Enum);
    glPixelStorei: fn(Enum, c_int);
    glGenProgramsARB: fn(c_int, *mut c_uint);
    glDeleteProgramsARB: fn(c_int, *const c_uint);
    glBindProgramARB: fn(Enum, c_uint);
    glProgramStringARB: fn(Enum, Enum, c_int, *const c_void);
    glProgramLocalParameter4fvARB: fn(Enum, c_uint, *const f32);
    glProgramEnvParameter4fvARB: fn(Enum, c_uint, *const f32);
    glVertexAttribPointerARB: fn(c_uint, c_int, Enum, u8, c_int, *const c_void);
    glEnableVertexAttribArrayARB: fn(c_uint);
    glDisableVertexAttribArrayARB: fn(c_uint);
    glDrawArrays: fn(Enum, c_int, c_int);
    glReadPixels: fn(c_int, c_int, c_int, c_int, Enum, Enum, *mut c_void);
    glFinish: fn();
}

/// A loaded OSMesa with one context (module docs).
pub struct Gl {
    fns: Fns,
    make_current: MakeCurrent,
    destroy: DestroyCtx,
    ctx: *mut c_void,
    /// The context's default framebuffer (1x1 RGBA8); never read.
    buffer: Vec<u8>,
    /// `GL_VERSION` and `GL_RENDERER`, e.g. "4.5 (Compatibility Profile) Mesa 22.3.6 /
    /// llvmpipe (LLVM 15.0.6, 256 bits)".
    pub description: String,
    /// Kept last so the library is unloaded after everything that points into it.
    _lib: Library,
}

// SAFETY: the context pointer and the function pointers are only used by the thread that
// holds the engine's mutex, which makes the context current on that thread first
// (`make_current`); OSMesa contexts may move between threads that way.
unsafe impl Send for Gl {}

/// The OSMesa library names tried, in order.
const LIBRARIES: &[&str] = &["libOSMesa.so.8", "libOSMesa.so"];

impl Gl {
    /// Loads OSMesa and creates the context.
    ///
    /// Errors: no library (the message names what was tried), a missing entry point, or a
    /// context that cannot be created or made current.
    pub fn open() -> Result<Gl, String> {
        let mut errors = Vec::new();
        let lib = LIBRARIES
            .iter()
            .find_map(|name| {
                // SAFETY: loading libOSMesa runs its initialisers, which only set up Mesa's
                // own state; it is a system library built for this purpose.
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
        // the copies do not outlive `lib`, which `Gl` keeps loaded.
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
        let fns = match Fns::load(get) {
            Ok(f) => f,
            Err(e) => {
                // SAFETY: `ctx` was created above and is not used again.
                unsafe { destroy(ctx) };
                return Err(e);
            }
        };
        let mut gl = Gl {
            fns,
            make_current,
            destroy,
            ctx,
            buffer: vec![0; 4],
            description: String::new(),
            _lib: lib,
        };
        gl.make_current()?;
        gl.description = format!("{} / {}", gl.string(VERSION), gl.string(RENDERER));
        Ok(gl)
    }

    /// Makes the context current on the calling thread.
    ///
    /// Errors: OSMesaMakeCurrent failed.
    pub fn make_current(&mut self) -> Result<(), String> {
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

    fn string(&self, name: Enum) -> String {
        // SAFETY: glGetString returns null or a static NUL-terminated string.
        unsafe {
            let p = (self.fns.glGetString)(name);
            if p.is_null() {
                String::new()
            } else {
                CStr::from_ptr(p.cast()).to_string_lossy().into_owned()
            }
        }
    }

    /// Takes (and clears) the GL error flag: `Err("GL error 0x....")` after `what`.
    pub fn check(&self, what: &str) -> Result<(), String> {
        // SAFETY: no arguments.
        let e = unsafe { (self.fns.glGetError)() };
        if e == NO_ERROR {
            Ok(())
        } else {
            Err(format!("{what}: GL error 0x{e:04x}"))
        }
    }

    /// Creates a render target: a framebuffer of `targets` `GL_RGBA32F` colour
    /// renderbuffers and one depth/stencil renderbuffer, `w` x `h` pixels, bound for
    /// drawing with every colour attachment a draw buffer.
    ///
    /// Errors: the framebuffer is not complete.
    pub fn create_framebuffer(&self, w: i32, h: i32, targets: usize) -> Result<(), String> {
        let f = &self.fns;
        let mut fb = 0;
        let mut rbs = vec![0u32; targets + 1];
        // SAFETY: out-pointers sized as the counts given; plain state-setting calls.
        unsafe {
            (f.glGenFramebuffers)(1, &mut fb);
            (f.glBindFramebuffer)(FRAMEBUFFER, fb);
            (f.glGenRenderbuffers)(rbs.len() as c_int, rbs.as_mut_ptr());
            for (k, &rb) in rbs.iter().enumerate() {
                (f.glBindRenderbuffer)(RENDERBUFFER, rb);
                let (format, attach) = if k < targets {
                    (RGBA32F, COLOR_ATTACHMENT0 + k as Enum)
                } else {
                    (DEPTH24_STENCIL8, DEPTH_STENCIL_ATTACHMENT)
                };
                (f.glRenderbufferStorage)(RENDERBUFFER, format, w, h);
                (f.glFramebufferRenderbuffer)(FRAMEBUFFER, attach, RENDERBUFFER, rb);
            }
            let bufs: Vec<Enum> = (0..targets as Enum)
                .map(|k| COLOR_ATTACHMENT0 + k)
                .collect();
            (f.glDrawBuffers)(bufs.len() as c_int, bufs.as_ptr());
            let status = (f.glCheckFramebufferStatus)(FRAMEBUFFER);
            if status != FRAMEBUFFER_COMPLETE {
                return Err(format!("framebuffer incomplete: 0x{status:04x}"));
            }
            (f.glViewport)(0, 0, w, h);
            (f.glPixelStorei)(PACK_ALIGNMENT, 1);
        }
        self.check("framebuffer setup")
    }

    /// `glEnable(cap)` / `glDisable(cap)`.
    pub fn set_enabled(&self, cap: Enum, on: bool) {
        // SAFETY: plain state-setting call.
        unsafe {
            (if on {
                self.fns.glEnable
            } else {
                self.fns.glDisable
            })(cap)
        }
    }

    /// `glClampColor(target, GL_FALSE)`.
    pub fn unclamp(&self, target: Enum) {
        // SAFETY: plain state-setting call.
        unsafe { (self.fns.glClampColor)(target, 0) }
    }

    /// Stencil state: always pass, write `reference` where a fragment is written.
    pub fn stencil_mark(&self, reference: i32) {
        // SAFETY: plain state-setting calls.
        unsafe {
            (self.fns.glStencilFunc)(ALWAYS, reference, 0xff);
            (self.fns.glStencilOp)(KEEP, KEEP, REPLACE);
        }
    }

    /// Compiles an ARB program for `target` (`GL_VERTEX_PROGRAM_ARB` or
    /// `GL_FRAGMENT_PROGRAM_ARB`) into a new program object and returns its name.
    ///
    /// Errors: Mesa rejects the text: `position N: GL_PROGRAM_ERROR_STRING_ARB`.
    pub fn compile(&self, target: Enum, text: &str) -> Result<u32, String> {
        let f = &self.fns;
        let mut id = 0;
        self.check("before glProgramStringARB")?;
        // SAFETY: `text` outlives the call and its length is passed; the out-pointers are
        // valid for one value.
        unsafe {
            (f.glGenProgramsARB)(1, &mut id);
            (f.glBindProgramARB)(target, id);
            (f.glProgramStringARB)(
                target,
                PROGRAM_FORMAT_ASCII_ARB,
                text.len() as c_int,
                text.as_ptr().cast(),
            );
        }
        if self.check("glProgramStringARB").is_err() {
            let mut pos = 0;
            // SAFETY: out-pointer for one integer.
            unsafe { (f.glGetIntegerv)(PROGRAM_ERROR_POSITION_ARB, &mut pos) };
            let msg = self.string(PROGRAM_ERROR_STRING_ARB);
            self.delete(id);
            return Err(format!("position {pos}: {}", msg.trim()));
        }
        Ok(id)
    }

    /// Deletes program object `id`.
    pub fn delete(&self, id: u32) {
        // SAFETY: pointer to one program name.
        unsafe { (self.fns.glDeleteProgramsARB)(1, &id) }
    }

    /// Binds program `id` to `target`.
    pub fn bind(&self, target: Enum, id: u32) {
        // SAFETY: plain state-setting call.
        unsafe { (self.fns.glBindProgramARB)(target, id) }
    }

    /// Sets `program.local[index]` (of the bound program) or `program.env[index]`.
    pub fn param(&self, target: Enum, env: bool, index: u32, v: [f32; 4]) {
        let f = if env {
            self.fns.glProgramEnvParameter4fvARB
        } else {
            self.fns.glProgramLocalParameter4fvARB
        };
        // SAFETY: `v` holds the four floats the call reads.
        unsafe { f(target, index, v.as_ptr()) }
    }

    /// Points generic attribute `index` at `data` (4 floats per vertex) and enables it,
    /// or disables it when `data` is `None`. The data is read by the next [`Gl::draw`],
    /// which must be given the same slices.
    pub fn attrib(&self, index: u32, data: Option<&[f32]>) {
        // SAFETY: a client-side array (no buffer object is ever bound) that the caller
        // keeps alive until the draw that reads it (see `draw`).
        unsafe {
            match data {
                Some(d) => {
                    (self.fns.glVertexAttribPointerARB)(index, 4, FLOAT, 0, 16, d.as_ptr().cast());
                    (self.fns.glEnableVertexAttribArrayARB)(index);
                }
                None => (self.fns.glDisableVertexAttribArrayARB)(index),
            }
        }
    }

    /// Clears every colour attachment to zero and the stencil to 0, then draws `count`
    /// points from the arrays set by [`Gl::attrib`]. `arrays` are those arrays: the draw
    /// reads them (client-side arrays are read during `glDrawArrays`), so they are borrowed
    /// for its duration; each must hold `4 * count` floats.
    ///
    /// Errors: a GL error, or an array shorter than `4 * count`.
    pub fn draw(&self, count: usize, arrays: &[&[f32]]) -> Result<(), String> {
        if arrays.iter().any(|a| a.len() < 4 * count) {
            return Err("vertex array shorter than the draw".into());
        }
        // SAFETY: every enabled array points into `arrays` (attrib's contract), long enough
        // for `count` vertices, and borrowed until the call returns.
        unsafe {
            (self.fns.glClearColor)(0.0, 0.0, 0.0, 0.0);
            (self.fns.glClearStencil)(0);
            (self.fns.glClear)(COLOR_BUFFER_BIT | STENCIL_BUFFER_BIT);
            (self.fns.glDrawArrays)(POINTS, 0, count as c_int);
            (self.fns.glFinish)();
        }
        self.check("glDrawArrays")
    }

    /// Reads `rows` full rows (`w` pixels each) of colour attachment `k` as RGBA floats.
    pub fn read_color(&self, k: u32, w: i32, rows: i32) -> Result<Vec<f32>, String> {
        let mut out = vec![0f32; (w * rows * 4) as usize];
        // SAFETY: `out` holds w * rows RGBA float pixels, what the call writes.
        unsafe {
            (self.fns.glReadBuffer)(COLOR_ATTACHMENT0 + k);
            (self.fns.glReadPixels)(0, 0, w, rows, RGBA, FLOAT, out.as_mut_ptr().cast());
        }
        self.check("glReadPixels colour")?;
        Ok(out)
    }

    /// Reads `rows` full rows of the stencil buffer, one byte per pixel.
    pub fn read_stencil(&self, w: i32, rows: i32) -> Result<Vec<u8>, String> {
        let mut out = vec![0u8; (w * rows) as usize];
        // SAFETY: `out` holds w * rows bytes, what the call writes with pack alignment 1.
        unsafe {
            (self.fns.glReadPixels)(
                0,
                0,
                w,
                rows,
                STENCIL_INDEX,
                UNSIGNED_BYTE,
                out.as_mut_ptr().cast(),
            );
        }
        self.check("glReadPixels stencil")?;
        Ok(out)
    }
}

impl Drop for Gl {
    fn drop(&mut self) {
        // SAFETY: `ctx` is live and destroyed once; the library is still loaded.
        unsafe { (self.destroy)(self.ctx) }
    }
}
