//! `virgl_test_server` and its vtest protocol: the server process (spawned on a private
//! socket in a temporary directory, its output kept in a log file there) and one client
//! connection.
//!
//! Protocol (virglrenderer `vtest/vtest_protocol.h`, `vtest_server.c`,
//! `vtest_renderer.c`): every request is a header of two little-endian words, the
//! payload length and the command number, then the payload. The first request of a
//! connection is `VCMD_CREATE_RENDERER` whose length field counts the bytes of a debug
//! name. The connection stays at protocol version 0 (no `VCMD_PROTOCOL_VERSION`), so
//! resources are created with client-chosen handles and no reply, and transfers carry
//! their data inline on the socket. Replies: `VCMD_GET_CAPS2` answers a header whose
//! length is the capability bytes plus one, then those bytes; `VCMD_RESOURCE_BUSY_WAIT`
//! answers a header and one word; `VCMD_TRANSFER_GET` answers the bare data. The server
//! closes a connection whose command fails (for instance a shader its TGSI parser
//! rejects); it forks one process per connection, so a crash ends that connection only.
//!
//! Never hangs: every socket read and write has a timeout, and the server's whole
//! process group is killed when it is dropped, when it times out, or (through
//! `PR_SET_PDEATHSIG`) when the thread that spawned it ends.

use std::fs::{self, File};
use std::io::{self, Read, Seek, SeekFrom, Write};
use std::os::unix::net::UnixStream;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{Duration, Instant};

/// `VCMD_*` command numbers (protocol version 0 requests and their replies).
mod vcmd {
    pub const RESOURCE_CREATE: u32 = 2;
    pub const RESOURCE_UNREF: u32 = 3;
    pub const TRANSFER_GET: u32 = 4;
    pub const TRANSFER_PUT: u32 = 5;
    pub const SUBMIT_CMD: u32 = 6;
    pub const RESOURCE_BUSY_WAIT: u32 = 7;
    pub const CREATE_RENDERER: u32 = 8;
    pub const GET_CAPS2: u32 = 9;
}

/// `PIPE_BUFFER` resource target.
const TARGET_BUFFER: u32 = 0;
/// `VIRGL_FORMAT_R8_UNORM`: the format of byte buffers.
const FORMAT_R8_UNORM: u32 = 64;
/// `VIRGL_BIND_SHADER_BUFFER`.
const BIND_SHADER_BUFFER: u32 = 1 << 14;
/// `VCMD_BUSY_WAIT_FLAG_WAIT`.
const BUSY_WAIT_FLAG_WAIT: u32 = 1;

/// The server binary: `$SHADERDIFF_VIRGL_SERVER`, else `virgl_test_server` on `PATH`.
pub fn server_binary() -> Result<PathBuf, String> {
    if let Some(p) = std::env::var_os("SHADERDIFF_VIRGL_SERVER") {
        return Ok(PathBuf::from(p));
    }
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .map(|d| d.join("virgl_test_server"))
        .find(|p| p.is_file())
        .ok_or_else(|| {
            "virgl_test_server not found on PATH (Debian package virgl-server)".to_string()
        })
}

/// A running `virgl_test_server --use-egl-surfaceless` on a private socket.
pub struct Server {
    child: Child,
    dir: PathBuf,
    socket: PathBuf,
    log: PathBuf,
}

static SERVERS: AtomicU32 = AtomicU32::new(0);

impl Server {
    /// Starts the server and waits (at most `timeout`) for its socket to appear.
    ///
    /// Errors: no binary, no temporary directory, or the server exited or never listened
    /// (with the end of its log).
    pub fn spawn(timeout: Duration) -> Result<Server, String> {
        let bin = server_binary()?;
        remove_stale_dirs();
        let dir = std::env::temp_dir().join(format!(
            "shaderdiff-virgl-{}-{}",
            std::process::id(),
            SERVERS.fetch_add(1, Ordering::Relaxed)
        ));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        let socket = dir.join("vtest.sock");
        // `SHADERDIFF_VIRGL_LOG=FILE` keeps the server's output (with `VREND_DEBUG=glsl`,
        // every GLSL shader vrend writes) in FILE instead of the temporary directory.
        let log = std::env::var_os("SHADERDIFF_VIRGL_LOG")
            .map(PathBuf::from)
            .unwrap_or_else(|| dir.join("server.log"));
        let out = fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&log)
            .map_err(|e| format!("{}: {e}", log.display()))?;
        let err = out
            .try_clone()
            .map_err(|e| format!("{}: {e}", log.display()))?;
        let mut cmd = Command::new(&bin);
        // This server's option parser takes the path only in the `--opt=value` form.
        cmd.arg("--use-egl-surfaceless")
            .arg(format!("--socket-path={}", socket.display()))
            .stdin(Stdio::null())
            .stdout(out)
            .stderr(err)
            .process_group(0);
        // SAFETY: prctl is async-signal-safe; the closure touches nothing else.
        unsafe {
            cmd.pre_exec(|| {
                libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL as libc::c_ulong);
                Ok(())
            });
        }
        let child = cmd
            .spawn()
            .map_err(|e| format!("cannot start {}: {e}", bin.display()))?;
        let mut server = Server {
            child,
            dir,
            socket,
            log,
        };
        let start = Instant::now();
        while !server.socket.exists() {
            if let Ok(Some(status)) = server.child.try_wait() {
                return Err(format!(
                    "{} exited ({status}) before listening: {}",
                    bin.display(),
                    server.log_tail(0)
                ));
            }
            if start.elapsed() > timeout {
                return Err(format!(
                    "{} did not listen within {timeout:?}: {}",
                    bin.display(),
                    server.log_tail(0)
                ));
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        Ok(server)
    }

    /// The server's process id (its process group id too).
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Whether the server process is still running.
    pub fn alive(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }

    /// A new client connection whose reads and writes time out after `timeout`.
    pub fn connect(&self, timeout: Duration) -> Result<Conn, String> {
        let stream = UnixStream::connect(&self.socket)
            .map_err(|e| format!("connect {}: {e}", self.socket.display()))?;
        stream
            .set_read_timeout(Some(timeout))
            .and_then(|()| stream.set_write_timeout(Some(timeout)))
            .map_err(|e| format!("socket timeout: {e}"))?;
        let mut conn = Conn { stream };
        conn.create_renderer("shaderdiff")
            .map_err(|e| format!("vtest handshake: {e}"))?;
        Ok(conn)
    }

    /// Bytes the server has logged so far (a mark for [`Server::log_tail`]).
    pub fn log_len(&self) -> u64 {
        fs::metadata(&self.log).map(|m| m.len()).unwrap_or(0)
    }

    /// What the server logged after mark `from`, lossily decoded, at most the last 4 KiB.
    pub fn log_tail(&self, from: u64) -> String {
        let mut buf = Vec::new();
        if let Ok(mut f) = File::open(&self.log) {
            let len = f.metadata().map(|m| m.len()).unwrap_or(0);
            let start = from.min(len).max(len.saturating_sub(4096));
            if f.seek(SeekFrom::Start(start)).is_ok() {
                let _ = f.read_to_end(&mut buf);
            }
        }
        String::from_utf8_lossy(&buf).into_owned()
    }

    /// The log file (for messages).
    pub fn log_path(&self) -> &Path {
        &self.log
    }
}

/// Removes the directories of servers whose shaderdiff process is gone (killed before
/// its exit handler could run): `shaderdiff-virgl-PID-N` with no process PID.
fn remove_stale_dirs() {
    let Ok(entries) = fs::read_dir(std::env::temp_dir()) else {
        return;
    };
    for e in entries.flatten() {
        let name = e.file_name();
        let Some(pid) = name
            .to_str()
            .and_then(|n| n.strip_prefix("shaderdiff-virgl-"))
            .and_then(|rest| rest.split('-').next())
            .and_then(|p| p.parse::<libc::pid_t>().ok())
        else {
            continue;
        };
        // SAFETY: signal 0 only checks whether the process exists.
        let gone = unsafe { libc::kill(pid, 0) } == -1
            && io::Error::last_os_error().raw_os_error() == Some(libc::ESRCH);
        if gone {
            let _ = fs::remove_dir_all(e.path());
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        // The whole group: the server and the processes it forked for connections.
        // SAFETY: plain syscall on our own child's process group.
        unsafe {
            libc::kill(-(self.child.id() as libc::pid_t), libc::SIGKILL);
        }
        let _ = self.child.wait();
        let _ = fs::remove_dir_all(&self.dir);
    }
}

/// Why a vtest exchange failed.
#[derive(Debug)]
pub enum ConnError {
    /// No reply within the timeout (the server may be stuck in a shader).
    Timeout,
    /// The connection broke (the server closed it after a failed command, or died).
    Closed(String),
}

impl std::fmt::Display for ConnError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ConnError::Timeout => f.write_str("no reply from virgl_test_server (timed out)"),
            ConnError::Closed(m) => write!(f, "connection to virgl_test_server lost: {m}"),
        }
    }
}

impl From<io::Error> for ConnError {
    fn from(e: io::Error) -> ConnError {
        match e.kind() {
            io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut => ConnError::Timeout,
            _ => ConnError::Closed(e.to_string()),
        }
    }
}

/// One client connection (protocol version 0).
pub struct Conn {
    stream: UnixStream,
}

fn words_bytes(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

impl Conn {
    fn send(&mut self, cmd: u32, length: u32, payload: &[u8]) -> Result<(), ConnError> {
        let mut msg = Vec::with_capacity(8 + payload.len());
        msg.extend(length.to_le_bytes());
        msg.extend(cmd.to_le_bytes());
        msg.extend_from_slice(payload);
        self.stream.write_all(&msg)?;
        Ok(())
    }

    fn recv(&mut self, n: usize) -> Result<Vec<u8>, ConnError> {
        let mut buf = vec![0; n];
        self.stream.read_exact(&mut buf)?;
        Ok(buf)
    }

    fn recv_words(&mut self, n: usize) -> Result<Vec<u32>, ConnError> {
        Ok(self
            .recv(4 * n)?
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect())
    }

    fn create_renderer(&mut self, name: &str) -> Result<(), ConnError> {
        let mut bytes = name.as_bytes().to_vec();
        bytes.push(0);
        self.send(vcmd::CREATE_RENDERER, bytes.len() as u32, &bytes)
    }

    /// The host's capability set 2 (`struct virgl_caps_v2`) as words.
    pub fn caps2(&mut self) -> Result<Vec<u32>, ConnError> {
        self.send(vcmd::GET_CAPS2, 0, &[])?;
        let hdr = self.recv_words(2)?;
        if hdr[1] != 2 || hdr[0] == 0 || hdr[0] > 1 << 20 {
            return Err(ConnError::Closed(format!(
                "unexpected GET_CAPS2 reply header {hdr:?}"
            )));
        }
        let bytes = self.recv(hdr[0] as usize - 1)?;
        Ok(bytes
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect())
    }

    /// Creates byte buffer `handle` of `size` bytes usable as a shader buffer.
    pub fn create_buffer(&mut self, handle: u32, size: u32) -> Result<(), ConnError> {
        let args = [
            handle,
            TARGET_BUFFER,
            FORMAT_R8_UNORM,
            BIND_SHADER_BUFFER,
            size,
            1,
            1,
            1,
            0,
            0,
        ];
        self.send(
            vcmd::RESOURCE_CREATE,
            args.len() as u32,
            &words_bytes(&args),
        )
    }

    /// Releases resource `handle`.
    pub fn unref(&mut self, handle: u32) -> Result<(), ConnError> {
        self.send(vcmd::RESOURCE_UNREF, 1, &words_bytes(&[handle]))
    }

    fn transfer_header(handle: u32, size: u32) -> [u32; 11] {
        // handle, level, stride, layer stride, x, y, z, width, height, depth, data size.
        [handle, 0, 0, 0, 0, 0, 0, size, 1, 1, size]
    }

    /// Writes `data` at the start of buffer `handle`.
    pub fn put(&mut self, handle: u32, data: &[u8]) -> Result<(), ConnError> {
        let hdr = Conn::transfer_header(handle, data.len() as u32);
        let mut payload = words_bytes(&hdr);
        payload.extend_from_slice(data);
        let words = hdr.len() + data.len().div_ceil(4);
        self.send(vcmd::TRANSFER_PUT, words as u32, &payload)
    }

    /// Reads the first `size` bytes of buffer `handle`.
    pub fn get(&mut self, handle: u32, size: u32) -> Result<Vec<u8>, ConnError> {
        let hdr = Conn::transfer_header(handle, size);
        self.send(vcmd::TRANSFER_GET, hdr.len() as u32, &words_bytes(&hdr))?;
        self.recv(size as usize)
    }

    /// Submits a command buffer.
    pub fn submit(&mut self, words: &[u32]) -> Result<(), ConnError> {
        self.send(vcmd::SUBMIT_CMD, words.len() as u32, &words_bytes(words))
    }

    /// Waits until the host has finished everything submitted; also proves that the
    /// connection is still open (a failed command closes it).
    pub fn wait_idle(&mut self) -> Result<(), ConnError> {
        self.send(
            vcmd::RESOURCE_BUSY_WAIT,
            2,
            &words_bytes(&[0, BUSY_WAIT_FLAG_WAIT]),
        )?;
        let reply = self.recv_words(3)?;
        if reply[1] != vcmd::RESOURCE_BUSY_WAIT {
            return Err(ConnError::Closed(format!(
                "unexpected BUSY_WAIT reply {reply:?}"
            )));
        }
        Ok(())
    }
}
