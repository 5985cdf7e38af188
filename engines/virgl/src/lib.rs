//! Engine `virgl`: TGSI programs run by a production consumer of TGSI, virglrenderer's
//! `vrend` (the host side of virtio-gpu 3D: it translates TGSI to GLSL and hands it to
//! the host's OpenGL), here on Mesa's llvmpipe, through `virgl_test_server` and its
//! vtest socket protocol ([`vtest`]).
//!
//! How a program runs: [`wrap`] rewrites it into a TGSI compute shader (inputs loaded
//! from one shader buffer, outputs, kills and a loop guard stored to another); the
//! engine sends its text in a `CREATE_OBJECT` command ([`encode`]), uploads the inputs,
//! launches one grid covering every invocation, and reads the output buffer back.
//! Compute rather than drawing because vrend compiles and runs compute shaders on this
//! host (GL 4.5 core, llvmpipe) and a buffer read back word for word needs no render
//! targets, vertex layouts or clamping rules.
//!
//! The server is started on first use (one per process, on a private socket in a
//! temporary directory) and shared by every program; a connection that breaks (the
//! server closes it after a command it rejects, or its process for the connection
//! crashed) is opened again, a server that died is started again, and one that does not
//! answer within the timeout (`SHADERDIFF_VIRGL_TIMEOUT` seconds, default 60) is killed.
//! Where the server cannot start, [`available`] says why and the registry leaves the
//! engine out. Precision class: `mesa-llvmpipe` (the same driver as engine `mesa`).

pub mod encode;
pub mod vtest;
pub mod wrap;

use std::any::Any;
use std::collections::{BTreeMap, HashMap};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, MutexGuard, OnceLock};
use std::time::Duration;

use shaderdiff_engine::{
    Capabilities, Compiled, Engine, EngineConfig, EngineError, Inputs, Outputs,
};
use shaderdiff_model::check::shape::Shape;
use shaderdiff_model::{File, Program, Stage, ALL_OPCODES};
use shaderdiff_model::{RegKey, Vec4};

use encode::{CommandBuffer, SHADER_COMPUTE};
use vtest::{Conn, ConnError, Server};
use wrap::{Wrapped, BLOCK, FLAG_DONE, FLAG_KILLED, FLAG_STEP_LIMIT};

/// The engine name.
pub const NAME: &str = "virgl";

/// `VIRGL_CAP_COMPUTE_SHADER` in `virgl_caps_v2.capability_bits`.
const CAP_COMPUTE_SHADER: u32 = 1 << 7;
/// Word index of `capability_bits` in `struct virgl_caps_v2`.
const CAPS_CAPABILITY_BITS: usize = 98;
/// Work groups one launch runs at most (`GL_MAX_COMPUTE_WORK_GROUP_COUNT` is at least
/// 65535 in every dimension, GL 4.3 table 23.53).
const MAX_GROUPS: u32 = 65535;
/// Bytes one input or output buffer may take (vtest transfers carry a 32-bit size).
const MAX_BUFFER: u64 = 1 << 30;
/// Word index of `glsl_level` in `struct virgl_caps_v2`.
const CAPS_GLSL_LEVEL: usize = 66;

/// Seconds one vtest exchange may take.
fn timeout() -> Duration {
    let secs = std::env::var("SHADERDIFF_VIRGL_TIMEOUT")
        .ok()
        .and_then(|s| s.parse::<u64>().ok())
        .filter(|&s| s > 0)
        .unwrap_or(60);
    Duration::from_secs(secs)
}

/// The process's server, its connection and the shaders created on it.
#[derive(Default)]
struct Session {
    server: Option<Server>,
    conn: Option<Conn>,
    next_handle: u32,
    /// Shader handle of each prepared program on the current connection.
    shaders: HashMap<u64, u32>,
    /// Shaders to destroy with the next submission.
    dead: Vec<u32>,
}

static SESSION: OnceLock<Mutex<Session>> = OnceLock::new();
static AVAILABLE: OnceLock<Result<String, String>> = OnceLock::new();
static NEXT_PROGRAM: AtomicU64 = AtomicU64::new(1);

/// At process exit: stop the server and remove its directory (statics are never dropped).
extern "C" fn shut_down() {
    if let Some(m) = SESSION.get() {
        if let Ok(mut s) = m.try_lock() {
            s.conn = None;
            s.server = None;
        }
    }
}

fn session() -> MutexGuard<'static, Session> {
    let m = SESSION.get_or_init(|| {
        // SAFETY: registers a plain function with no arguments.
        unsafe {
            libc::atexit(shut_down);
        }
        Mutex::new(Session::default())
    });
    // A panic while holding the lock leaves at worst a connection we reopen.
    m.lock().unwrap_or_else(|p| p.into_inner())
}

/// Server log lines worth quoting in an error: errors, not the connection chatter.
fn log_reason(log: &str) -> String {
    let noise = [
        "client failed",
        "client context created",
        "gl_version",
        "GLSL feature level",
    ];
    let lines: Vec<&str> = log
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !noise.iter().any(|n| l.contains(n)))
        .filter(|l| {
            let low = l.to_ascii_lowercase();
            [
                "error",
                "fail",
                "illegal",
                "unknown",
                "invalid",
                "unsupported",
            ]
            .iter()
            .any(|w| low.contains(w))
        })
        .take(8)
        .collect();
    if lines.is_empty() {
        "the server logged no reason".into()
    } else {
        lines.join(" | ")
    }
}

fn trap(message: String) -> EngineError {
    EngineError::Trap {
        engine: NAME.into(),
        message,
    }
}

impl Session {
    fn handle(&mut self) -> u32 {
        self.next_handle = self.next_handle.wrapping_add(1).max(1);
        self.next_handle
    }

    /// The open connection, starting the server and connecting as needed.
    fn conn(&mut self) -> Result<&mut Conn, String> {
        if self.conn.is_none() {
            let t = timeout();
            if !self.server.as_mut().is_some_and(|s| s.alive()) {
                self.server = None;
                self.server = Some(Server::spawn(t)?);
            }
            let server = self.server.as_ref().expect("started above");
            let conn = match server.connect(t) {
                Ok(c) => c,
                Err(_) => {
                    // A server that accepts no connection is replaced once.
                    self.server = None;
                    let s = Server::spawn(t)?;
                    let c = s.connect(t)?;
                    self.server = Some(s);
                    c
                }
            };
            self.conn = Some(conn);
            self.shaders.clear();
            self.dead.clear();
        }
        Ok(self.conn.as_mut().expect("connected above"))
    }

    fn log_len(&self) -> u64 {
        self.server.as_ref().map_or(0, Server::log_len)
    }

    fn log_since(&self, mark: u64) -> String {
        self.server
            .as_ref()
            .map_or_else(String::new, |s| s.log_tail(mark))
    }

    /// After a failed exchange: a timeout kills the server (it may be stuck in a shader),
    /// anything else drops the connection. Returns the message for the error.
    fn fail(&mut self, e: ConnError, mark: u64) -> String {
        let log = self.log_since(mark);
        self.conn = None;
        self.shaders.clear();
        self.dead.clear();
        if matches!(e, ConnError::Timeout) {
            self.server = None;
            return format!("{e} after {:?}; the server was restarted", timeout());
        }
        format!("{e}; server log: {}", log_reason(&log))
    }

    /// Creates program `id`'s shader from `text` on the current connection and checks
    /// that the host accepted it. A connection that breaks is reopened once; breaking
    /// again means the host rejects the shader (it closes connections whose command
    /// fails).
    fn create_shader(&mut self, id: u64, text: &str) -> Result<u32, EngineError> {
        let mut first_error = None;
        for _ in 0..2 {
            self.conn().map_err(trap)?;
            let mark = self.log_len();
            let handle = self.handle();
            let mut cb = CommandBuffer::new();
            for h in std::mem::take(&mut self.dead) {
                cb.destroy_shader(h);
            }
            cb.create_shader(handle, SHADER_COMPUTE, text)
                .map_err(unsupported)?;
            let conn = self.conn().map_err(trap)?;
            match conn.submit(cb.words()).and_then(|()| conn.wait_idle()) {
                Ok(()) => {
                    self.shaders.insert(id, handle);
                    let names = unconverted(&self.log_since(mark));
                    if !names.is_empty() {
                        return Err(cannot_translate(&names));
                    }
                    return Ok(handle);
                }
                Err(e @ ConnError::Timeout) => return Err(trap(self.fail(e, mark))),
                Err(e) => {
                    let log = self.log_since(mark);
                    self.fail(e, mark);
                    first_error = Some(log_reason(&log));
                }
            }
        }
        Err(unsupported(format!(
            "virglrenderer rejected the shader at CREATE_OBJECT: {}",
            first_error.unwrap_or_default()
        )))
    }
}

fn unsupported(reason: String) -> EngineError {
    EngineError::Unsupported {
        engine: NAME.into(),
        opcode: None,
        pos: None,
        reason,
    }
}

/// Whether the engine can run here: `Ok(description)` or why not. Starts the server
/// and asks for its capabilities the first time; the answer is kept for the process.
pub fn available() -> Result<String, String> {
    AVAILABLE
        .get_or_init(|| {
            let mut s = session();
            let conn = s.conn()?;
            let caps = conn.caps2().map_err(|e| e.to_string())?;
            let bits = caps.get(CAPS_CAPABILITY_BITS).copied().unwrap_or(0);
            if bits & CAP_COMPUTE_SHADER == 0 {
                return Err("virglrenderer on this host has no compute shaders".into());
            }
            let glsl = caps.get(CAPS_GLSL_LEVEL).copied().unwrap_or(0);
            Ok(format!(
                "virgl_test_server (virglrenderer vrend), GLSL level {glsl}"
            ))
        })
        .clone()
}

/// Kills the shared server (tests: a crash in the middle of a session).
#[doc(hidden)]
pub fn kill_server_for_test() -> Option<u32> {
    let s = session();
    let pid = s.server.as_ref().map(Server::pid);
    if let Some(pid) = pid {
        // SAFETY: signal to our own child's process group.
        unsafe {
            libc::kill(-(pid as libc::pid_t), libc::SIGKILL);
        }
    }
    pid
}

/// virglrenderer on llvmpipe through vtest (module docs).
pub struct VirglEngine {
    caps: Capabilities,
    step_limit: u64,
}

/// A prepared program: the compute shader and the program's shape.
struct Prepared {
    id: u64,
    wrapped: Wrapped,
    shape: Shape,
}

impl Compiled for Prepared {
    fn listing(&self) -> Option<String> {
        Some(self.wrapped.text.clone())
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}

impl Drop for Prepared {
    fn drop(&mut self) {
        let mut s = session();
        if let Some(h) = s.shaders.remove(&self.id) {
            s.dead.push(h);
        }
    }
}

impl VirglEngine {
    /// The engine; `config.step_limit` bounds loop iterations (the loop guard of
    /// [`wrap`]). It has no fault catalogue.
    pub fn new(config: &EngineConfig) -> VirglEngine {
        VirglEngine {
            caps: Capabilities {
                opcodes: ALL_OPCODES.iter().copied().collect(),
                stages: [Stage::Vertex, Stage::Fragment].into_iter().collect(),
            },
            step_limit: config.step_limit,
        }
    }
}

fn exec_error(e: shaderdiff_model::check::ExecError) -> EngineError {
    EngineError::from_exec(NAME, e)
}

/// The input buffer: `total` invocations of the wrapped shader's input registers.
fn input_bytes(w: &Wrapped, inputs: &Inputs, total: usize) -> Vec<u8> {
    let stride = w.in_stride() as usize;
    let mut bytes = vec![0u8; stride * total];
    for i in 0..inputs.invocations.min(total) {
        for (j, key) in w.inputs.iter().enumerate() {
            let v = inputs.register(key, i);
            for (c, word) in v.iter().enumerate() {
                let at = i * stride + 16 * j + 4 * c;
                bytes[at..at + 4].copy_from_slice(&word.to_le_bytes());
            }
        }
    }
    bytes
}

/// `CONST[0..n]` as words (unset registers are zero; `CONST[i]` is `CONST[0][i]`).
fn constant_words(inputs: &Inputs, n: u32) -> Vec<u32> {
    let mut words = vec![0u32; 4 * n as usize];
    for (key, v) in &inputs.constants {
        if key.file == File::Const && key.dimension.unwrap_or(0) == 0 && key.index < n {
            let at = 4 * key.index as usize;
            words[at..at + 4].copy_from_slice(v);
        }
    }
    words
}

fn word(bytes: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]])
}

impl VirglEngine {
    /// One launch on the current connection; `Ok(None)` when the connection broke and
    /// the caller may try again.
    fn launch(
        &self,
        s: &mut Session,
        p: &Prepared,
        inputs: &Inputs,
        groups: u32,
    ) -> Result<Result<(Vec<u8>, u64), String>, EngineError> {
        let w = &p.wrapped;
        let total = (groups * BLOCK) as usize;
        let in_data = input_bytes(w, inputs, total);
        let out_size = w.out_stride() * groups * BLOCK;
        s.conn().map_err(trap)?;
        let shader = match s.shaders.get(&p.id) {
            Some(&h) => h,
            None => s.create_shader(p.id, &w.text)?,
        };
        let (hin, hout) = (s.handle(), s.handle());
        let mut cb = CommandBuffer::new();
        for h in std::mem::take(&mut s.dead) {
            cb.destroy_shader(h);
        }
        if w.consts > 0 {
            cb.set_constants(SHADER_COMPUTE, &constant_words(inputs, w.consts));
        }
        cb.bind_shader(shader, SHADER_COMPUTE);
        // GL hosts launch at most MAX_GROUPS groups along x: larger runs are several
        // launches, each with the buffers bound from its first invocation (the offsets
        // are multiples of 64 * 16 * MAX_GROUPS bytes, so aligned for any host).
        let mut first = 0u32;
        while first < groups {
            let n = (groups - first).min(MAX_GROUPS);
            let (ins, outs) = (w.in_stride() * BLOCK, w.out_stride() * BLOCK);
            cb.set_shader_buffers(
                SHADER_COMPUTE,
                &[(hin, first * ins, n * ins), (hout, first * outs, n * outs)],
            );
            cb.launch_grid([BLOCK, 1, 1], [n, 1, 1]);
            first += n;
        }
        cb.memory_barrier();
        let mark = s.log_len();
        let conn = s.conn().map_err(trap)?;
        let result = (|| {
            conn.create_buffer(hin, in_data.len() as u32)?;
            conn.put(hin, &in_data)?;
            conn.create_buffer(hout, out_size)?;
            conn.put(hout, &vec![0u8; out_size as usize])?;
            conn.submit(cb.words())?;
            conn.wait_idle()?;
            let out = conn.get(hout, out_size)?;
            conn.unref(hin)?;
            conn.unref(hout)?;
            Ok(out)
        })();
        match result {
            Ok(out) => Ok(Ok((out, mark))),
            Err(e @ ConnError::Timeout) => Err(trap(s.fail(e, mark))),
            Err(e) => Ok(Err(s.fail(e, mark))),
        }
    }
}

/// The flags vec4 (done, killed, step limit) of invocation `i` in output buffer `out`.
fn flags(w: &Wrapped, out: &[u8], i: usize) -> [u32; 3] {
    let at = i * w.out_stride() as usize + 16 * w.out_slots as usize;
    [FLAG_DONE, FLAG_KILLED, FLAG_STEP_LIMIT].map(|f| word(out, at + 4 * f))
}

/// Names of the TGSI opcodes vrend logged it could not translate ("failed to convert
/// opcode N": it drops them and carries on, so the shader computes something else).
fn unconverted(log: &str) -> Vec<String> {
    let mut names: Vec<String> = log
        .split("failed to convert opcode ")
        .skip(1)
        .filter_map(|rest| {
            let n: u16 = rest
                .split(|c: char| !c.is_ascii_digit())
                .next()?
                .parse()
                .ok()?;
            Some(
                ALL_OPCODES
                    .iter()
                    .find(|o| !o.info().legacy && o.info().number == n)
                    .map_or_else(|| format!("opcode {n}"), |o| o.name().to_string()),
            )
        })
        // A dropped NOP changes nothing.
        .filter(|n| n != "NOP")
        .collect();
    names.sort();
    names.dedup();
    names
}

fn cannot_translate(names: &[String]) -> EngineError {
    unsupported(format!(
        "virglrenderer cannot translate {} to GLSL (it logs \"failed to convert opcode\" and drops the instruction)",
        names.join(", ")
    ))
}

impl VirglEngine {
    /// Runs `p` on `inputs` (one grid), reconnecting once if the connection breaks;
    /// returns the output buffer and the server log mark taken before the launch.
    fn execute(&self, p: &Prepared, inputs: &Inputs) -> Result<(Vec<u8>, u64), EngineError> {
        let groups = inputs.invocations.div_ceil(BLOCK as usize).max(1) as u64;
        let stride = p.wrapped.in_stride().max(p.wrapped.out_stride()) as u64;
        if groups * BLOCK as u64 * stride > MAX_BUFFER {
            return Err(unsupported(format!(
                "{} invocations: the engine's buffers hold at most {MAX_BUFFER} bytes ({stride} per invocation)",
                inputs.invocations
            )));
        }
        let groups = groups as u32;
        let mut s = session();
        match self.launch(&mut s, p, inputs, groups)? {
            Ok(r) => Ok(r),
            // The connection broke: once more on a new one (the server may have been
            // restarted under us); twice is the program's doing.
            Err(_) => self.launch(&mut s, p, inputs, groups)?.map_err(|m| {
                trap(format!(
                    "virgl_test_server failed while running the program: {m}"
                ))
            }),
        }
    }

    /// One launch on zero inputs: vrend translates and compiles a compute shader at its
    /// first launch, so this surfaces opcodes it cannot translate (unsupported) and GLSL
    /// it cannot compile (a compile error) at `prepare`.
    fn probe(&self, p: &Prepared) -> Result<(), EngineError> {
        let inputs = Inputs {
            invocations: BLOCK as usize,
            ..Inputs::default()
        };
        let (out, mark) = self.execute(p, &inputs)?;
        let log = session().log_since(mark);
        let names = unconverted(&log);
        if !names.is_empty() {
            return Err(cannot_translate(&names));
        }
        if flags(&p.wrapped, &out, 0) == [0; 3] {
            return Err(EngineError::Compile {
                engine: NAME.into(),
                message: format!("virglrenderer did not run the shader: {}", log_reason(&log)),
            });
        }
        Ok(())
    }
}

impl Engine for VirglEngine {
    fn name(&self) -> &'static str {
        NAME
    }

    fn capabilities(&self) -> &Capabilities {
        &self.caps
    }

    fn check(&self, program: &Program) -> Result<(), EngineError> {
        wrap::check(program)
    }

    fn prepare(&self, program: &Program) -> Result<Box<dyn Compiled>, EngineError> {
        let shape = Shape::new(program).map_err(exec_error)?;
        let show_glsl = std::env::var_os("SHADERDIFF_VIRGL_SHOW_GLSL").is_some();
        let wrapped = wrap::wrap(program, &shape, self.step_limit, show_glsl)?;
        let id = NEXT_PROGRAM.fetch_add(1, Ordering::Relaxed);
        session().create_shader(id, &wrapped.text)?;
        let prepared = Prepared { id, wrapped, shape };
        self.probe(&prepared)?;
        Ok(Box::new(prepared))
    }

    fn run(&self, compiled: &dyn Compiled, inputs: &Inputs) -> Result<Outputs, EngineError> {
        let Some(p) = compiled.as_any().downcast_ref::<Prepared>() else {
            return Err(EngineError::InvalidProgram {
                pos: None,
                message: "virgl was given code prepared by another engine".into(),
            });
        };
        p.shape.check_inputs(inputs).map_err(exec_error)?;
        let n = inputs.invocations;
        let w = &p.wrapped;
        let (out, _) = self.execute(p, inputs)?;
        let stride = w.out_stride() as usize;
        let mut killed = Vec::with_capacity(n);
        let mut step_limit = None;
        for i in 0..n {
            let flags = flags(w, &out, i);
            let k = w.fragment && flags[FLAG_KILLED] != 0;
            if !k && flags[FLAG_STEP_LIMIT] != 0 && step_limit.is_none() {
                step_limit = Some(i);
            }
            if flags == [0; 3] {
                return Err(EngineError::Compile {
                    engine: NAME.into(),
                    message: format!(
                        "invocation {i} never finished (it neither ended, was killed nor hit the loop guard)"
                    ),
                });
            }
            killed.push(k);
        }
        if let Some(invocation) = step_limit {
            return Err(EngineError::StepLimit {
                limit: self.step_limit,
                invocation,
            });
        }
        let mut registers: BTreeMap<RegKey, Vec<Vec4>> = BTreeMap::new();
        for key in &w.outputs {
            let vals = (0..n)
                .map(|i| {
                    let at = i * stride + 16 * key.index as usize;
                    [0, 1, 2, 3].map(|c| word(&out, at + 4 * c))
                })
                .collect();
            registers.insert(*key, vals);
        }
        Ok(Outputs {
            invocations: n,
            registers,
            killed: w.fragment.then_some(killed),
            ..Outputs::default()
        })
    }
}
