//! Worker subprocesses (a crashing engine never ends the run): engines run in child processes the harness
//! supervises, so a crash, abort, stack overflow or hang in an engine (a JIT that segfaults
//! on some program) costs one worker, never the campaign or the conform run.
//!
//! **Protocol.** The supervisor starts `shaderdiff worker <job> ARGS...` (the same binary;
//! [`crate::cmd::worker`]) and talks to it in JSON lines: requests on the worker's stdin,
//! messages on its stdout, one JSON value per line. The worker's stderr is kept (its last
//! [`STDERR_TAIL`] bytes) to tell how it died.
//!
//! **Limits.** Each worker runs in its own process group (a terminal's Ctrl-C reaches only
//! the supervisor, which stops the workers itself), is killed by the kernel when the
//! supervising thread goes (`PR_SET_PDEATHSIG`, Linux), and may get an address-space limit
//! (`RLIMIT_AS`) so that a runaway allocation fails inside the worker instead of
//! exhausting the machine. [`WorkerProcess::recv`] waits for the next message; a worker
//! that stays silent until it [`hangs`] (its timeout of both wall-clock and CPU time, or
//! [`WALL_BACKSTOP_FACTOR`] times its timeout of wall-clock time) is killed and reported as
//! [`Death::Timeout`].
//!
//! **How a worker died** ([`Death`]): killed by us on timeout (`Timeout`); resource
//! exhaustion (`Poisoned`, wasmtime's term: the allocator's "memory allocation of N bytes
//! failed" on stderr, or SIGKILL from someone else, i.e. the kernel's OOM killer); anything
//! else is a `Crash` with a class: `stack_overflow` (Rust's "has overflowed its stack"),
//! the signal (`sigsegv`, `sigabrt`, `sigbus`, `sigill`, `sigfpe`, ...), `panic` (the
//! binary's internal-error exit status 70) or `exit<N>`.

use std::collections::VecDeque;
use std::ffi::OsString;
use std::io::{BufRead, BufReader, Read, Write};
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use serde::de::DeserializeOwned;
use serde::Serialize;

use crate::cpu_clock::process_cpu_time;

/// Bytes of a worker's stderr kept for the death report.
pub const STDERR_TAIL: usize = 8192;

/// The per-request time limit when none is given (`--timeout`).
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(10);

/// How many times its timeout a silent worker that uses no CPU time may wait before it
/// [`hangs`]: one blocked for good (a deadlock) is still caught, while one that waits for
/// a core on a loaded machine gets its timeout's worth of CPU time.
pub const WALL_BACKSTOP_FACTOR: u32 = 10;

/// How often the supervisor looks at a silent worker's CPU time once its timeout of wall
/// time has passed.
const HANG_POLL: Duration = Duration::from_millis(100);

/// Whether a worker that has been silent for `wall`, using `cpu` of CPU time meanwhile
/// (`None`: unknown), hangs under `timeout`: it has had `timeout` of wall-clock time *and*
/// used `timeout` of CPU time (a worker that runs but says nothing), or has been silent for
/// [`WALL_BACKSTOP_FACTOR`] × `timeout` whatever it used. With the CPU time unknown, the
/// wall clock alone decides. A machine so loaded that a program's run takes longer than
/// `timeout` in wall time therefore never makes a timeout finding by itself.
pub fn hangs(timeout: Duration, wall: Duration, cpu: Option<Duration>) -> bool {
    let backstop = timeout.saturating_mul(WALL_BACKSTOP_FACTOR);
    wall >= backstop || (wall >= timeout && cpu.is_none_or(|c| c >= timeout))
}

/// How long a worker process has been silent, by both clocks [`hangs`] reads.
struct Silence {
    pid: u32,
    start: Instant,
    cpu0: Option<Duration>,
}

impl Silence {
    /// Process `pid`'s silence, starting now.
    fn start(pid: u32) -> Silence {
        Silence {
            pid,
            start: Instant::now(),
            cpu0: process_cpu_time(pid),
        }
    }

    /// Whether the process [`hangs`] under `timeout` by now. Before `timeout` of wall
    /// time nothing is read from /proc.
    fn hangs(&self, timeout: Duration) -> bool {
        let wall = self.start.elapsed();
        if wall < timeout {
            return false;
        }
        let cpu = || Some(process_cpu_time(self.pid)?.saturating_sub(self.cpu0?));
        hangs(timeout, wall, cpu())
    }
}

/// What starts a worker.
#[derive(Clone, Debug)]
pub struct WorkerSpec {
    /// Arguments after the executable (`worker fuzz --seed 1 ...`).
    pub args: Vec<OsString>,
    /// Address-space limit in bytes (`RLIMIT_AS`), if any.
    pub memory_limit: Option<u64>,
}

/// How a worker process ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Death {
    /// It crashed: `class` is `stack_overflow`, `sigsegv`, `sigabrt`, ..., `panic` or
    /// `exit<N>`; `detail` is the end of its stderr.
    Crash {
        /// The kind of crash (a signature part).
        class: String,
        /// The last lines of its stderr.
        detail: String,
    },
    /// It stayed silent past the time limit and was killed.
    Timeout,
    /// It ran out of a resource (memory): not the program's fault as far as we can tell.
    Poisoned {
        /// What ran out, and the last lines of its stderr.
        detail: String,
    },
}

impl Death {
    /// One line for reports: `crash (sigsegv)`, `timeout`, `poisoned (...)`.
    pub fn describe(&self) -> String {
        match self {
            Death::Crash { class, .. } => format!("crash ({class})"),
            Death::Timeout => "timeout".into(),
            Death::Poisoned { .. } => "poisoned (resource exhaustion)".into(),
        }
    }

    /// The end of the worker's stderr, if any.
    pub fn detail(&self) -> &str {
        match self {
            Death::Crash { detail, .. } | Death::Poisoned { detail } => detail,
            Death::Timeout => "",
        }
    }
}

/// What [`WorkerProcess::recv`] got.
#[derive(Debug)]
pub enum Recv<T> {
    /// The next message.
    Message(T),
    /// The worker is gone (or was killed on timeout); it must be replaced.
    Died(Death),
}

/// A running worker.
pub struct WorkerProcess {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<Option<String>>,
    stderr: Arc<Mutex<VecDeque<u8>>>,
    stderr_thread: Option<JoinHandle<()>>,
}

fn signal_name(sig: i32) -> String {
    match sig {
        libc::SIGSEGV => "sigsegv".into(),
        libc::SIGABRT => "sigabrt".into(),
        libc::SIGBUS => "sigbus".into(),
        libc::SIGILL => "sigill".into(),
        libc::SIGFPE => "sigfpe".into(),
        libc::SIGKILL => "sigkill".into(),
        libc::SIGTERM => "sigterm".into(),
        libc::SIGTRAP => "sigtrap".into(),
        libc::SIGSYS => "sigsys".into(),
        n => format!("signal{n}"),
    }
}

/// Classifies an exit status and the stderr that went with it (see the module docs).
pub fn classify(status: std::process::ExitStatus, stderr: &str) -> Death {
    let detail: String = {
        let lines: Vec<&str> = stderr.lines().collect();
        lines[lines.len().saturating_sub(5)..].join("\n")
    };
    if stderr.contains("memory allocation of") && stderr.contains("failed") {
        return Death::Poisoned { detail };
    }
    if status.signal() == Some(libc::SIGKILL) {
        return Death::Poisoned {
            detail: format!("killed by SIGKILL from outside (the OOM killer?)\n{detail}"),
        };
    }
    let class = if stderr.contains("has overflowed its stack") {
        "stack_overflow".to_string()
    } else if let Some(sig) = status.signal() {
        signal_name(sig)
    } else {
        match status.code() {
            Some(70) => "panic".into(),
            Some(n) => format!("exit{n}"),
            None => "unknown".into(),
        }
    };
    Death::Crash { class, detail }
}

/// The command that starts `spec`: this executable in its own process group, killed with
/// its parent thread, under the address-space limit; stderr piped.
fn command(spec: &WorkerSpec) -> std::io::Result<Command> {
    let exe = std::env::current_exe()?;
    let mut cmd = Command::new(exe);
    cmd.args(&spec.args)
        .args(crate::limits::worker_args())
        .stderr(Stdio::piped())
        .process_group(0);
    let limit = spec.memory_limit;
    // SAFETY: the closure runs in the child between fork and exec and only calls
    // async-signal-safe functions (prctl, getppid, setrlimit, _exit) on values it owns.
    unsafe {
        cmd.pre_exec(move || {
            libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL as libc::c_ulong);
            if libc::getppid() == 1 {
                // The supervisor is already gone.
                libc::_exit(1);
            }
            if let Some(bytes) = limit {
                let r = libc::rlimit {
                    rlim_cur: bytes as libc::rlim_t,
                    rlim_max: bytes as libc::rlim_t,
                };
                libc::setrlimit(libc::RLIMIT_AS, &r);
            }
            Ok(())
        });
    }
    Ok(cmd)
}

/// Runs `spec` once to the end (no protocol; stdin and stdout are null), killing it after
/// `timeout`. Returns `None` when it exited with a status the `shaderdiff` commands use
/// (0 to 3), else how it died.
///
/// # Errors
/// The process could not be started.
pub fn run_once(spec: &WorkerSpec, timeout: Duration) -> std::io::Result<Option<Death>> {
    let mut cmd = command(spec)?;
    cmd.stdin(Stdio::null()).stdout(Stdio::null());
    let mut child = cmd.spawn()?;
    let mut err = child.stderr.take();
    let reader = std::thread::spawn(move || {
        let mut buf = Vec::new();
        if let Some(e) = err.as_mut() {
            let _ = e.read_to_end(&mut buf);
        }
        String::from_utf8_lossy(&buf[buf.len().saturating_sub(STDERR_TAIL)..]).into_owned()
    });
    let silence = Silence::start(child.id());
    let status = loop {
        if let Some(s) = child.try_wait()? {
            break s;
        }
        if silence.hangs(timeout) {
            let _ = child.kill();
            let _ = child.wait();
            let _ = reader.join();
            return Ok(Some(Death::Timeout));
        }
        std::thread::sleep(Duration::from_millis(2));
    };
    let stderr = reader.join().unwrap_or_default();
    if status.code().is_some_and(|c| (0..=3).contains(&c)) {
        return Ok(None);
    }
    Ok(Some(classify(status, &stderr)))
}

impl WorkerProcess {
    /// Starts a worker: the current executable with `spec.args`.
    ///
    /// # Errors
    /// The executable could not be found or started.
    pub fn spawn(spec: &WorkerSpec) -> std::io::Result<WorkerProcess> {
        let mut cmd = command(spec)?;
        cmd.stdin(Stdio::piped()).stdout(Stdio::piped());
        let mut child = cmd.spawn()?;
        let stdin = child.stdin.take();
        let stdout = child.stdout.take();
        let stderr = child.stderr.take();
        let (tx, rx) = mpsc::channel();
        if let Some(out) = stdout {
            std::thread::spawn(move || {
                let mut r = BufReader::new(out);
                loop {
                    let mut line = String::new();
                    match r.read_line(&mut line) {
                        Ok(0) | Err(_) => {
                            let _ = tx.send(None);
                            return;
                        }
                        Ok(_) => {
                            if tx.send(Some(line)).is_err() {
                                return;
                            }
                        }
                    }
                }
            });
        }
        let tail = Arc::new(Mutex::new(VecDeque::new()));
        let stderr_thread = stderr.map(|mut err| {
            let tail = tail.clone();
            std::thread::spawn(move || {
                let mut buf = [0u8; 4096];
                while let Ok(n) = err.read(&mut buf) {
                    if n == 0 {
                        return;
                    }
                    if let Ok(mut t) = tail.lock() {
                        t.extend(&buf[..n]);
                        let excess = t.len().saturating_sub(STDERR_TAIL);
                        t.drain(..excess);
                    }
                }
            })
        });
        Ok(WorkerProcess {
            child,
            stdin,
            lines: rx,
            stderr: tail,
            stderr_thread,
        })
    }

    /// Starts a worker ([`WorkerProcess::spawn`]) and waits up to `wait` for its first
    /// message, which `ready` must accept (each worker kind announces itself once).
    ///
    /// # Errors
    /// The process could not start, died first, or said something else first.
    pub fn spawn_ready<M: DeserializeOwned + std::fmt::Debug>(
        spec: &WorkerSpec,
        wait: Duration,
        ready: impl Fn(&M) -> bool,
    ) -> Result<WorkerProcess, String> {
        let mut w = WorkerProcess::spawn(spec)
            .map_err(|e| format!("cannot start a worker process: {e}"))?;
        match w.recv::<M>(wait) {
            Recv::Message(m) if ready(&m) => Ok(w),
            Recv::Message(m) => Err(format!("worker process: unexpected first message {m:?}")),
            Recv::Died(d) => Err(format!(
                "worker process failed to start: {}{}{}",
                d.describe(),
                Some(d.detail())
                    .filter(|t| !t.trim().is_empty())
                    .map(|t| format!(": {t}"))
                    .unwrap_or_default(),
                spec.memory_limit
                    .map(|b| format!(
                        " (it may need more address space than --worker-memory gives: {b} bytes)"
                    ))
                    .unwrap_or_default()
            )),
        }
    }

    /// Sends one request. A failure means the worker is gone: the next [`recv`] reports how.
    ///
    /// [`recv`]: WorkerProcess::recv
    pub fn send<T: Serialize>(&mut self, request: &T) -> bool {
        let Some(stdin) = self.stdin.as_mut() else {
            return false;
        };
        let Ok(mut line) = serde_json::to_string(request) else {
            return false;
        };
        line.push('\n');
        stdin
            .write_all(line.as_bytes())
            .and_then(|()| stdin.flush())
            .is_ok()
    }

    /// The next message. A worker that stays silent until it [`hangs`] under `timeout` is
    /// killed (`Died(Timeout)`); one that exits, or writes something that is not a message,
    /// is reported dead with its classified exit.
    pub fn recv<T: DeserializeOwned>(&mut self, timeout: Duration) -> Recv<T> {
        let silence = Silence::start(self.child.id());
        loop {
            let wall = silence.start.elapsed();
            let wait = timeout
                .checked_sub(wall)
                .unwrap_or(HANG_POLL)
                .max(HANG_POLL);
            match self.lines.recv_timeout(wait) {
                Ok(Some(line)) => return self.message(&line),
                Ok(None) | Err(RecvTimeoutError::Disconnected) => return Recv::Died(self.reap()),
                Err(RecvTimeoutError::Timeout) => {
                    if silence.hangs(timeout) {
                        self.kill();
                        return Recv::Died(Death::Timeout);
                    }
                }
            }
        }
    }

    /// One line from the worker as a message; a line that is none kills the worker.
    fn message<T: DeserializeOwned>(&mut self, line: &str) -> Recv<T> {
        match serde_json::from_str(line) {
            Ok(m) => Recv::Message(m),
            Err(e) => {
                self.kill();
                Recv::Died(Death::Crash {
                    class: "protocol".into(),
                    detail: format!("unreadable worker message ({e}): {}", line.trim()),
                })
            }
        }
    }

    /// Waits for the exit and classifies it.
    fn reap(&mut self) -> Death {
        self.stdin = None;
        let status = match self.child.wait() {
            Ok(s) => s,
            Err(e) => {
                return Death::Crash {
                    class: "unknown".into(),
                    detail: format!("cannot wait for the worker: {e}"),
                }
            }
        };
        if let Some(t) = self.stderr_thread.take() {
            let _ = t.join();
        }
        let text = self
            .stderr
            .lock()
            .map(|t| String::from_utf8_lossy(&t.iter().copied().collect::<Vec<u8>>()).into_owned())
            .unwrap_or_default();
        classify(status, &text)
    }

    /// Kills the worker and waits for it.
    pub fn kill(&mut self) {
        self.stdin = None;
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// Ends the worker politely: closes its stdin (it exits at end of input), then kills it
    /// if it has not gone within a second.
    pub fn finish(mut self) {
        self.stdin = None;
        for _ in 0..100 {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        self.kill();
    }
}

impl Drop for WorkerProcess {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// The worker side of the protocol: requests from stdin, messages to stdout.
pub struct WorkerChannel {
    input: std::io::StdinLock<'static>,
    output: std::io::Stdout,
}

impl Default for WorkerChannel {
    fn default() -> Self {
        WorkerChannel {
            input: std::io::stdin().lock(),
            output: std::io::stdout(),
        }
    }
}

impl WorkerChannel {
    /// The next request; `None` at end of input (the supervisor is done) or on a line that
    /// is not a request.
    pub fn recv<T: DeserializeOwned>(&mut self) -> Option<T> {
        let mut line = String::new();
        match self.input.read_line(&mut line) {
            Ok(0) | Err(_) => None,
            Ok(_) => serde_json::from_str(&line).ok(),
        }
    }

    /// Sends one message; `false` when the supervisor is gone.
    pub fn send<T: Serialize>(&mut self, message: &T) -> bool {
        let Ok(mut line) = serde_json::to_string(message) else {
            return false;
        };
        line.push('\n');
        let mut out = self.output.lock();
        out.write_all(line.as_bytes())
            .and_then(|()| out.flush())
            .is_ok()
    }
}

/// A worker's address-space limit (`--worker-memory`): bytes, or `None` for no limit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MemoryLimit(pub Option<u64>);

impl std::fmt::Display for MemoryLimit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.0 {
            Some(b) => write!(f, "{b}"),
            None => f.write_str("none"),
        }
    }
}

/// [`parse_memory`] as a [`MemoryLimit`] (the clap value parser).
///
/// # Errors
/// As [`parse_memory`].
pub fn parse_memory_limit(s: &str) -> Result<MemoryLimit, String> {
    parse_memory(s).map(MemoryLimit)
}

pub use shaderdiff_compare::limits::parse_memory;

#[cfg(test)]
mod tests {
    use super::*;

    /// The rule of [`hangs`], read off its definition: both clocks must reach the
    /// timeout, or the wall clock alone its backstop; an unknown CPU time leaves the wall
    /// clock alone.
    #[test]
    fn hangs_needs_cpu_time_or_the_backstop() {
        let s = Duration::from_secs;
        let t = s(10);
        assert!(!hangs(t, s(9), Some(s(9))), "before the timeout");
        assert!(hangs(t, s(10), Some(s(10))), "a silent, spinning worker");
        assert!(!hangs(t, s(30), Some(s(3))), "a worker waiting for a core");
        assert!(
            !hangs(t, s(99), Some(s(0))),
            "a blocked worker before the backstop"
        );
        assert!(
            hangs(t, s(100), Some(s(0))),
            "a blocked worker at the backstop"
        );
        assert!(
            hangs(t, s(10), None),
            "CPU time unknown: the wall clock decides"
        );
        assert!(!hangs(t, s(9), None));
        assert!(hangs(Duration::MAX, Duration::MAX, Some(Duration::ZERO)));
    }
    use std::os::unix::process::ExitStatusExt;
    use std::process::ExitStatus;

    #[test]
    fn deaths_are_classified() {
        // A raw wait status of a signal death is the signal number.
        let segv = ExitStatus::from_raw(libc::SIGSEGV);
        assert_eq!(
            classify(segv, "x"),
            Death::Crash {
                class: "sigsegv".into(),
                detail: "x".into()
            }
        );
        let abrt = ExitStatus::from_raw(libc::SIGABRT);
        assert!(matches!(
            classify(abrt, "memory allocation of 70368744177664 bytes failed\n"),
            Death::Poisoned { .. }
        ));
        assert!(matches!(
            classify(abrt, "\nthread 'main' has overflowed its stack\nfatal runtime error: stack overflow\n"),
            Death::Crash { class, .. } if class == "stack_overflow"
        ));
        assert!(matches!(
            classify(ExitStatus::from_raw(libc::SIGKILL), ""),
            Death::Poisoned { .. }
        ));
        // Exit status 70 << 8: the binary's internal error (a caught panic).
        assert!(matches!(
            classify(ExitStatus::from_raw(70 << 8), ""),
            Death::Crash { class, .. } if class == "panic"
        ));
    }

    #[test]
    fn memory_sizes() {
        assert_eq!(parse_memory("4GiB"), Ok(Some(4 << 30)));
        assert_eq!(parse_memory("512m"), Ok(Some(512 << 20)));
        assert_eq!(parse_memory("none"), Ok(None));
        assert_eq!(parse_memory("1000"), Ok(Some(1000)));
        assert!(parse_memory("4 parsecs").is_err());
        assert!(parse_memory("99999999999TiB").is_err());
    }
}
