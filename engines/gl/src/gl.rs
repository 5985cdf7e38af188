//! Every GL call of the runner: the entry points resolved through a loader's
//! `GetProcAddress` ([`crate::osmesa`], [`crate::egl`]) and safe wrappers over them. With
//! the loaders, this is the only code with `unsafe`.
//!
//! A [`Gl`] owns the loader's context (one GL 4.5 compatibility-profile context:
//! ARB_vertex_program, ARB_fragment_program and NV_gpu_program4/5 are compatibility
//! features) and the entry points. GL contexts are current on one thread at a time, so the
//! engines keep their `Gl` behind a mutex and call [`Gl::make_current`] each time they take
//! the lock.
// Sizes, counts and offsets here come from user input (declarations, inputs files): no
// arithmetic may wrap or panic unnoticed.
#![warn(clippy::arithmetic_side_effects)]

use std::ffi::{c_char, c_int, c_uint, c_void, CStr, CString};

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
pub const UNSIGNED_INT: Enum = 0x1405;
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
/// `GL_COMPUTE_PROGRAM_NV` (NV_compute_program5): the target of `!!NVcp5.0` programs.
pub const COMPUTE_PROGRAM_NV: Enum = 0x90FB;
/// `GL_SHADER_STORAGE_BUFFER` (GL 4.3, NV_shader_storage_buffer_object's binding points).
pub const SHADER_STORAGE_BUFFER: Enum = 0x90D2;
const DYNAMIC_COPY: Enum = 0x88EA;
pub const TEXTURE_1D: Enum = 0x0DE0;
pub const TEXTURE_2D: Enum = 0x0DE1;
pub const TEXTURE_3D: Enum = 0x806F;
pub const TEXTURE_RECTANGLE: Enum = 0x84F5;
pub const TEXTURE_1D_ARRAY: Enum = 0x8C18;
pub const TEXTURE_2D_ARRAY: Enum = 0x8C1A;
pub const RGBA32UI: Enum = 0x8D70;
pub const RGBA32I: Enum = 0x8D82;
pub const RGBA_INTEGER: Enum = 0x8D99;
pub const INT: Enum = 0x1404;
pub const NEAREST: Enum = 0x2600;
pub const NEAREST_MIPMAP_NEAREST: Enum = 0x2700;
pub const CLAMP_TO_EDGE: Enum = 0x812F;
pub const REPEAT: Enum = 0x2901;
const TEXTURE0: Enum = 0x84C0;
const TEXTURE_MAG_FILTER: Enum = 0x2800;
const TEXTURE_MIN_FILTER: Enum = 0x2801;
const TEXTURE_WRAP_S: Enum = 0x2802;
const TEXTURE_WRAP_T: Enum = 0x2803;
const TEXTURE_WRAP_R: Enum = 0x8072;
const TEXTURE_BASE_LEVEL: Enum = 0x813C;
const TEXTURE_MAX_LEVEL: Enum = 0x813D;
const UNPACK_ALIGNMENT: Enum = 0x0CF5;
const ALL_BARRIER_BITS: c_uint = 0xFFFF_FFFF;
const VENDOR: Enum = 0x1F00;
const RENDERER: Enum = 0x1F01;
const VERSION: Enum = 0x1F02;
const EXTENSIONS: Enum = 0x1F03;
const NUM_EXTENSIONS: Enum = 0x821D;
const NO_ERROR: Enum = 0;

/// A loader's `GetProcAddress` (`OSMesaGetProcAddress`, `eglGetProcAddress`).
pub type GetProcAddress = unsafe extern "C" fn(*const c_char) -> *const c_void;

/// Declares the GL entry points: a struct of function pointers and its loader. Entry
/// points after `optional` may be missing (extensions a driver need not have).
macro_rules! gl_fns {
    ($($name:ident : fn($($arg:ty),*) $(-> $ret:ty)?;)*
     ; optional $($oname:ident : fn($($oarg:ty),*) $(-> $oret:ty)?;)*) => {
        #[allow(non_snake_case)]
        struct Fns {
            $($name: unsafe extern "C" fn($($arg),*) $(-> $ret)?,)*
            $($oname: Option<unsafe extern "C" fn($($oarg),*) $(-> $oret)?>,)*
        }
        impl Fns {
            /// Resolves every entry point; the error names the first required one missing.
            fn load(get: GetProcAddress) -> Result<Fns, String> {
                Ok(Fns {
                    $($name: {
                        let p = lookup(get, stringify!($name));
                        if p.is_null() {
                            return Err(format!("GetProcAddress({}) returned null", stringify!($name)));
                        }
                        // SAFETY: a non-null pointer the loader returns for this name is the
                        // GL function of that name, whose C signature is the one declared
                        // here (from the GL registry).
                        unsafe { std::mem::transmute::<*const c_void, unsafe extern "C" fn($($arg),*) $(-> $ret)?>(p) }
                    },)*
                    $($oname: {
                        let p = lookup(get, stringify!($oname));
                        // SAFETY: as above; null stays `None`.
                        (!p.is_null()).then(|| unsafe { std::mem::transmute::<*const c_void, unsafe extern "C" fn($($oarg),*) $(-> $oret)?>(p) })
                    },)*
                })
            }
        }
    };
}

/// `get(name)`.
fn lookup(get: GetProcAddress, name: &str) -> *const c_void {
    let name = CString::new(name).expect("no NUL in a GL name");
    // SAFETY: GetProcAddress takes a NUL-terminated name and returns the entry point or
    // null; the name outlives the call.
    unsafe { get(name.as_ptr()) }
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
    glVertexAttribIPointer: fn(c_uint, c_int, Enum, c_int, *const c_void);
    glEnableVertexAttribArrayARB: fn(c_uint);
    glDisableVertexAttribArrayARB: fn(c_uint);
    glDrawArrays: fn(Enum, c_int, c_int);
    glReadPixels: fn(c_int, c_int, c_int, c_int, Enum, Enum, *mut c_void);
    glFinish: fn();
    ; optional
    glGetStringi: fn(Enum, c_uint) -> *const u8;
    glProgramLocalParameterI4uivNV: fn(Enum, c_uint, *const c_uint);
    glProgramEnvParameterI4uivNV: fn(Enum, c_uint, *const c_uint);
    glGenBuffers: fn(c_int, *mut c_uint);
    glDeleteBuffers: fn(c_int, *const c_uint);
    glBindBuffer: fn(Enum, c_uint);
    glBufferData: fn(Enum, isize, *const c_void, Enum);
    glBindBufferBase: fn(Enum, c_uint, c_uint);
    glGetBufferSubData: fn(Enum, isize, isize, *mut c_void);
    glDispatchCompute: fn(c_uint, c_uint, c_uint);
    glMemoryBarrier: fn(c_uint);
    glActiveTexture: fn(Enum);
    glGenTextures: fn(c_int, *mut c_uint);
    glDeleteTextures: fn(c_int, *const c_uint);
    glBindTexture: fn(Enum, c_uint);
    glTexParameteri: fn(Enum, Enum, c_int);
    glTexImage1D: fn(Enum, c_int, c_int, c_int, c_int, Enum, Enum, *const c_void);
    glTexImage2D: fn(Enum, c_int, c_int, c_int, c_int, c_int, Enum, Enum, *const c_void);
    glTexImage3D: fn(Enum, c_int, c_int, c_int, c_int, c_int, c_int, Enum, Enum, *const c_void);
}

/// What a loader hands the runner: its current-context switch. Dropping it destroys the
/// context (and unloads the library last).
pub trait Context: Send {
    /// Makes the context current on the calling thread.
    ///
    /// # Errors
    /// The loader's make-current call failed (message names it).
    fn make_current(&mut self) -> Result<(), String>;
}

/// A loaded GL with one context (module docs).
pub struct Gl {
    fns: Fns,
    /// The loader's context (declared last: dropped after the entry points are gone).
    ctx: Box<dyn Context>,
    /// `GL_VENDOR`, e.g. "NVIDIA Corporation" or "Mesa".
    pub vendor: String,
    /// `GL_RENDERER`, e.g. "llvmpipe (LLVM 15.0.6, 256 bits)".
    pub renderer: String,
    /// `GL_VERSION`, e.g. "4.5 (Compatibility Profile) Mesa 22.3.6".
    pub version: String,
    /// `GL_VERSION / GL_RENDERER`, for notes.
    pub description: String,
    /// The extension names the context advertises.
    pub extensions: Vec<String>,
}

impl Gl {
    /// Wraps a context: makes it current, resolves the entry points through `get` and
    /// reads the context's strings.
    ///
    /// # Errors
    /// The context cannot be made current, or a required entry point is missing.
    pub fn new(mut ctx: Box<dyn Context>, get: GetProcAddress) -> Result<Gl, String> {
        ctx.make_current()?;
        let fns = Fns::load(get)?;
        let mut gl = Gl {
            fns,
            ctx,
            vendor: String::new(),
            renderer: String::new(),
            version: String::new(),
            description: String::new(),
            extensions: Vec::new(),
        };
        gl.vendor = gl.string(VENDOR);
        gl.renderer = gl.string(RENDERER);
        gl.version = gl.string(VERSION);
        gl.description = format!("{} / {}", gl.version, gl.renderer);
        gl.extensions = gl.read_extensions();
        // Mesa's GetProcAddress returns a dispatch stub for any name, so an entry point
        // counts only with its extension (calling the stub is GL_INVALID_OPERATION).
        if !gl.has_extension("GL_NV_gpu_program4") {
            gl.fns.glProgramLocalParameterI4uivNV = None;
            gl.fns.glProgramEnvParameterI4uivNV = None;
        }
        if !gl.has_extension("GL_NV_compute_program5") {
            gl.fns.glDispatchCompute = None;
        }
        // Reading the strings leaves no error; a stale one would fail the first check.
        let _ = gl.check("context strings");
        Ok(gl)
    }

    /// Makes the context current on the calling thread.
    ///
    /// # Errors
    /// The loader's make-current call failed.
    pub fn make_current(&mut self) -> Result<(), String> {
        self.ctx.make_current()
    }

    /// Whether the context advertises extension `name` (`GL_NV_gpu_program5`).
    pub fn has_extension(&self, name: &str) -> bool {
        self.extensions.iter().any(|e| e == name)
    }

    /// The extension list: `glGetStringi` per index where there is one, else the
    /// space-separated `GL_EXTENSIONS` string (compatibility contexts have both).
    fn read_extensions(&self) -> Vec<String> {
        if let Some(geti) = self.fns.glGetStringi {
            let mut n = 0;
            // SAFETY: out-pointer for one integer.
            unsafe { (self.fns.glGetIntegerv)(NUM_EXTENSIONS, &mut n) };
            let names: Vec<String> = (0..n.max(0) as c_uint)
                // SAFETY: an index below GL_NUM_EXTENSIONS; the result is null or a static
                // NUL-terminated string.
                .filter_map(|i| unsafe { cstr(geti(EXTENSIONS, i)) })
                .collect();
            if !names.is_empty() {
                return names;
            }
        }
        self.string(EXTENSIONS)
            .split_whitespace()
            .map(str::to_string)
            .collect()
    }

    fn string(&self, name: Enum) -> String {
        // SAFETY: glGetString returns null or a static NUL-terminated string.
        unsafe { cstr((self.fns.glGetString)(name)) }.unwrap_or_default()
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
        // `targets` colour buffers (a handful: the plans bound them) and the depth buffer.
        let mut rbs = vec![0u32; targets.saturating_add(1)];
        // SAFETY: out-pointers sized as the counts given; plain state-setting calls.
        unsafe {
            (f.glGenFramebuffers)(1, &mut fb);
            (f.glBindFramebuffer)(FRAMEBUFFER, fb);
            (f.glGenRenderbuffers)(rbs.len() as c_int, rbs.as_mut_ptr());
            for (k, &rb) in rbs.iter().enumerate() {
                (f.glBindRenderbuffer)(RENDERBUFFER, rb);
                let (format, attach) = if k < targets {
                    (RGBA32F, color_attachment(k as Enum))
                } else {
                    (DEPTH24_STENCIL8, DEPTH_STENCIL_ATTACHMENT)
                };
                (f.glRenderbufferStorage)(RENDERBUFFER, format, w, h);
                (f.glFramebufferRenderbuffer)(FRAMEBUFFER, attach, RENDERBUFFER, rb);
            }
            let bufs: Vec<Enum> = (0..targets as Enum).map(color_attachment).collect();
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
    /// Errors: the driver rejects the text: `position N: GL_PROGRAM_ERROR_STRING_ARB`.
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

    /// Sets `program.local[index]` (of the bound program) or `program.env[index]` to the
    /// words `v`: exactly, through `glProgram{Local,Env}ParameterI4uivNV` where the driver
    /// has NV_gpu_program4, else as floats through the ARB calls (bit-exact for every
    /// value but NaNs, whose payload a driver may change).
    pub fn param(&self, target: Enum, env: bool, index: u32, v: [u32; 4]) {
        let exact = if env {
            self.fns.glProgramEnvParameterI4uivNV
        } else {
            self.fns.glProgramLocalParameterI4uivNV
        };
        if let Some(f) = exact {
            // SAFETY: `v` holds the four words the call reads.
            unsafe { f(target, index, v.as_ptr()) };
            return;
        }
        let f = if env {
            self.fns.glProgramEnvParameter4fvARB
        } else {
            self.fns.glProgramLocalParameter4fvARB
        };
        let v = v.map(f32::from_bits);
        // SAFETY: `v` holds the four floats the call reads.
        unsafe { f(target, index, v.as_ptr()) }
    }

    /// Whether constants are set bit-exactly (NV_gpu_program4's integer parameter calls).
    pub fn exact_params(&self) -> bool {
        self.fns.glProgramLocalParameterI4uivNV.is_some()
    }

    /// Points generic attribute `index` at `data` (4 words per vertex) and enables it,
    /// or disables it when `data` is `None`. `integer`: the words reach the program as
    /// they are (`glVertexAttribIPointer`, `GL_UNSIGNED_INT`; GL 4.5 §10.3.2), else as
    /// floats (`glVertexAttribPointer`, `GL_FLOAT`). The data is read by the next
    /// [`Gl::draw`], which must be given the same slices.
    pub fn attrib(&self, index: u32, data: Option<(&[u32], bool)>) {
        // SAFETY: a client-side array (no buffer object is ever bound) that the caller
        // keeps alive until the draw that reads it (see `draw`).
        unsafe {
            match data {
                Some((d, true)) => {
                    (self.fns.glVertexAttribIPointer)(
                        index,
                        4,
                        UNSIGNED_INT,
                        16,
                        d.as_ptr().cast(),
                    );
                    (self.fns.glEnableVertexAttribArrayARB)(index);
                }
                Some((d, false)) => {
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
    /// for its duration; each must hold `4 * count` words.
    ///
    /// Errors: a GL error, or an array shorter than `4 * count`.
    pub fn draw(&self, count: usize, arrays: &[&[u32]]) -> Result<(), String> {
        if count
            .checked_mul(4)
            .is_none_or(|need| arrays.iter().any(|a| a.len() < need))
        {
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
        let mut out = vec![0f32; pixels(w, rows)?.checked_mul(4).ok_or("read too large")?];
        // SAFETY: `out` holds w * rows RGBA float pixels, what the call writes.
        unsafe {
            (self.fns.glReadBuffer)(color_attachment(k));
            (self.fns.glReadPixels)(0, 0, w, rows, RGBA, FLOAT, out.as_mut_ptr().cast());
        }
        self.check("glReadPixels colour")?;
        Ok(out)
    }

    /// Reads `rows` full rows of the stencil buffer, one byte per pixel.
    pub fn read_stencil(&self, w: i32, rows: i32) -> Result<Vec<u8>, String> {
        let mut out = vec![0u8; pixels(w, rows)?];
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

/// Storage buffers and compute dispatch (NV_compute_program5, NV_shader_storage_buffer_object
/// over GL 4.3's `GL_SHADER_STORAGE_BUFFER` binding points).
impl Gl {
    /// Whether compute programs can be dispatched: NV_compute_program5 and the buffer
    /// entry points.
    pub fn can_dispatch(&self) -> bool {
        let f = &self.fns;
        f.glDispatchCompute.is_some()
            && f.glMemoryBarrier.is_some()
            && f.glGenBuffers.is_some()
            && f.glDeleteBuffers.is_some()
            && f.glBindBuffer.is_some()
            && f.glBufferData.is_some()
            && f.glBindBufferBase.is_some()
            && f.glGetBufferSubData.is_some()
    }

    /// A new buffer object holding `bytes`, bound to storage binding point `binding`.
    ///
    /// Errors: the entry points are missing ([`Gl::can_dispatch`]) or a GL error.
    pub fn storage_buffer(&self, binding: u32, bytes: &[u8]) -> Result<u32, String> {
        let (Some(gen), Some(bind), Some(data), Some(base)) = (
            self.fns.glGenBuffers,
            self.fns.glBindBuffer,
            self.fns.glBufferData,
            self.fns.glBindBufferBase,
        ) else {
            return Err("no buffer objects (glGenBuffers / glBufferData missing)".into());
        };
        let mut id = 0;
        // SAFETY: out-pointer for one name; `bytes` outlives glBufferData, which copies
        // exactly `bytes.len()` bytes.
        unsafe {
            gen(1, &mut id);
            bind(SHADER_STORAGE_BUFFER, id);
            data(
                SHADER_STORAGE_BUFFER,
                bytes.len() as isize,
                bytes.as_ptr().cast(),
                DYNAMIC_COPY,
            );
            base(SHADER_STORAGE_BUFFER, binding, id);
        }
        self.check("storage buffer upload")?;
        Ok(id)
    }

    /// Reads the first `len` bytes of buffer object `id`.
    ///
    /// Errors: the entry points are missing or a GL error.
    pub fn read_buffer(&self, id: u32, len: usize) -> Result<Vec<u8>, String> {
        let (Some(bind), Some(get)) = (self.fns.glBindBuffer, self.fns.glGetBufferSubData) else {
            return Err("no glGetBufferSubData".into());
        };
        let mut out = vec![0u8; len];
        // SAFETY: `out` holds the `len` bytes the call writes.
        unsafe {
            bind(SHADER_STORAGE_BUFFER, id);
            get(
                SHADER_STORAGE_BUFFER,
                0,
                len as isize,
                out.as_mut_ptr().cast(),
            );
        }
        self.check("glGetBufferSubData")?;
        Ok(out)
    }

    /// Deletes buffer object `id`.
    pub fn delete_buffer(&self, id: u32) {
        if let Some(del) = self.fns.glDeleteBuffers {
            // SAFETY: pointer to one buffer name.
            unsafe { del(1, &id) }
        }
    }

    /// Dispatches `groups` work groups along x with the bound compute program, then waits
    /// for every write (`glMemoryBarrier(GL_ALL_BARRIER_BITS)`, `glFinish`).
    ///
    /// Errors: no NV_compute_program5, or a GL error.
    pub fn dispatch(&self, groups: u32) -> Result<(), String> {
        let (Some(go), Some(barrier)) = (self.fns.glDispatchCompute, self.fns.glMemoryBarrier)
        else {
            return Err("the driver has no NV_compute_program5 dispatch".into());
        };
        // SAFETY: plain calls on the bound compute program and buffers.
        unsafe {
            go(groups, 1, 1);
            barrier(ALL_BARRIER_BITS);
            (self.fns.glFinish)();
        }
        self.check("glDispatchCompute")
    }
}

/// One level of a texture upload: `words` holds `size[0] * size[1] * size[2]` texels of
/// four words each, x fastest (the texture model's memory order).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LevelUpload {
    /// Mip level.
    pub level: i32,
    /// Width, height, depth (or layers); unused extents 1.
    pub size: [i32; 3],
    /// The texels' words.
    pub words: Vec<u32>,
}

/// A texture to upload to one texture unit with nearest filtering.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TextureUpload {
    /// Texture unit (`GL_TEXTURE0 + unit`).
    pub unit: u32,
    /// `GL_TEXTURE_1D`, `GL_TEXTURE_2D`, ...
    pub target: Enum,
    /// Internal format (`GL_RGBA32F`, `GL_RGBA32UI`, `GL_RGBA32I`).
    pub internal: Enum,
    /// Pixel format (`GL_RGBA`, `GL_RGBA_INTEGER`).
    pub format: Enum,
    /// Pixel type (`GL_FLOAT`, `GL_UNSIGNED_INT`, `GL_INT`).
    pub ty: Enum,
    /// `GL_NEAREST` or `GL_NEAREST_MIPMAP_NEAREST` (magnification is `GL_NEAREST`).
    pub min_filter: Enum,
    /// Wrap modes of s, t, r.
    pub wrap: [Enum; 3],
    /// Levels 0.. (`GL_TEXTURE_MAX_LEVEL` is the last one's).
    pub levels: Vec<LevelUpload>,
}

/// Textures (GL 4.5 §8).
impl Gl {
    /// Uploads `t` to a new texture object bound to its unit and target; returns its name.
    ///
    /// Errors: entry points missing, a level whose words do not fill it, or a GL error.
    pub fn upload_texture(&self, t: &TextureUpload) -> Result<u32, String> {
        let f = &self.fns;
        let (Some(active), Some(gen), Some(bind), Some(param), Some(img1), Some(img2), Some(img3)) = (
            f.glActiveTexture,
            f.glGenTextures,
            f.glBindTexture,
            f.glTexParameteri,
            f.glTexImage1D,
            f.glTexImage2D,
            f.glTexImage3D,
        ) else {
            return Err("no texture entry points".into());
        };
        for l in &t.levels {
            // Words of the level: 4 per texel; `None` for a negative or unrepresentable size.
            let words = l
                .size
                .iter()
                .try_fold(4usize, |n, &v| n.checked_mul(usize::try_from(v).ok()?));
            if words != Some(l.words.len()) {
                return Err(format!("texture level {}: words do not fill it", l.level));
            }
        }
        let mut id = 0;
        let max = t.levels.len().saturating_sub(1) as c_int;
        // SAFETY: out-pointer for one name; each level's `words` holds exactly the texels
        // the call reads (checked above; unpack alignment 4 suits 16-byte texels).
        unsafe {
            active(TEXTURE0.saturating_add(t.unit));
            gen(1, &mut id);
            bind(t.target, id);
            (f.glPixelStorei)(UNPACK_ALIGNMENT, 4);
            for (name, v) in [
                (TEXTURE_MIN_FILTER, t.min_filter),
                (TEXTURE_MAG_FILTER, NEAREST),
                (TEXTURE_WRAP_S, t.wrap[0]),
                (TEXTURE_WRAP_T, t.wrap[1]),
                (TEXTURE_WRAP_R, t.wrap[2]),
            ] {
                param(t.target, name, v as c_int);
            }
            param(t.target, TEXTURE_BASE_LEVEL, 0);
            param(t.target, TEXTURE_MAX_LEVEL, max);
            for l in &t.levels {
                let [w, h, d] = l.size;
                let p = l.words.as_ptr().cast();
                let i = t.internal as c_int;
                match t.target {
                    TEXTURE_1D => img1(t.target, l.level, i, w, 0, t.format, t.ty, p),
                    TEXTURE_3D | TEXTURE_2D_ARRAY => {
                        img3(t.target, l.level, i, w, h, d, 0, t.format, t.ty, p)
                    }
                    _ => img2(t.target, l.level, i, w, h, 0, t.format, t.ty, p),
                }
            }
            active(TEXTURE0);
        }
        self.check("texture upload")?;
        Ok(id)
    }

    /// Unbinds and deletes texture `id` of `t`'s unit and target.
    pub fn delete_texture(&self, t: &TextureUpload, id: u32) {
        let f = &self.fns;
        if let (Some(active), Some(bind), Some(del)) =
            (f.glActiveTexture, f.glBindTexture, f.glDeleteTextures)
        {
            // SAFETY: plain state calls; pointer to one texture name.
            unsafe {
                active(TEXTURE0.saturating_add(t.unit));
                bind(t.target, 0);
                del(1, &id);
                active(TEXTURE0);
            }
        }
    }
}

/// The string at `p` (`None` for null).
///
/// # Safety
/// `p` is null or points to a NUL-terminated string.
unsafe fn cstr(p: *const u8) -> Option<String> {
    (!p.is_null()).then(|| CStr::from_ptr(p.cast()).to_string_lossy().into_owned())
}

/// `GL_COLOR_ATTACHMENTk` (the plans use a handful of attachments; a `k` that would pass
/// `u32::MAX` names no attachment either way and GL reports the bad enum).
fn color_attachment(k: Enum) -> Enum {
    COLOR_ATTACHMENT0.saturating_add(k)
}

/// Pixels of a `w` x `rows` read, refused when negative or too large to allocate.
fn pixels(w: i32, rows: i32) -> Result<usize, String> {
    usize::try_from(w)
        .ok()
        .zip(usize::try_from(rows).ok())
        .and_then(|(w, r)| w.checked_mul(r))
        .ok_or_else(|| format!("cannot read {w} x {rows} pixels"))
}
