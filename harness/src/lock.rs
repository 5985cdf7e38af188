//! An advisory lock on an output directory (`fuzz --out`, `fuzz --resume`, `merge --out`),
//! so that two runs never write one directory (docs/campaigns.md "The output lock").
//!
//! The lock is `DIR/lock`, held with `flock(LOCK_EX | LOCK_NB)` for the life of the run.
//! The file says who holds it: `pid N` and `host NAME` lines. A clean release empties the
//! file (the file itself stays: deleting a lock file races with a second opener). Since the
//! kernel drops an flock when its process dies, a process killed with SIGKILL leaves only
//! a non-empty file: the next run takes the lock over with a note naming the dead holder.
//! A lock held by a live run is refused with exit status 4, naming its PID and host.
//!
//! `flock` is advisory and per host: two machines sharing a network file system are
//! protected only where the file system forwards flocks (NFSv4 does).

use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, Write};
use std::os::fd::AsRawFd;
use std::path::{Path, PathBuf};

use crate::cli::Failure;

/// Name of the lock file inside the directory.
pub const LOCK_FILE: &str = "lock";

/// A held lock; dropping it releases it (and empties the file).
#[derive(Debug)]
pub struct DirLock {
    file: File,
    path: PathBuf,
}

/// Who a lock file says holds it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Holder {
    /// Process id, if the file names one.
    pub pid: Option<u32>,
    /// Host name, if the file names one.
    pub host: Option<String>,
}

impl Holder {
    /// Parses the `pid N` / `host NAME` lines of a lock file.
    pub fn parse(text: &str) -> Holder {
        let mut h = Holder::default();
        for line in text.lines() {
            match line.split_once(' ') {
                Some(("pid", v)) => h.pid = v.trim().parse().ok(),
                Some(("host", v)) => h.host = Some(v.trim().to_string()),
                _ => {}
            }
        }
        h
    }

    /// `PID 123 on host x` (`an unknown process` when the file is empty).
    pub fn describe(&self) -> String {
        match (&self.pid, &self.host) {
            (Some(p), Some(h)) => format!("PID {p} on host {h}"),
            (Some(p), None) => format!("PID {p}"),
            _ => "an unknown process".to_string(),
        }
    }
}

/// This machine's host name (`unknown` if it has none).
pub fn hostname() -> String {
    let mut buf = [0u8; 256];
    // SAFETY: `buf` is writable for its whole length, which is what we pass.
    let r = unsafe { libc::gethostname(buf.as_mut_ptr().cast(), buf.len()) };
    if r != 0 {
        return "unknown".into();
    }
    let end = buf.iter().position(|&b| b == 0).unwrap_or(buf.len());
    String::from_utf8_lossy(&buf[..end]).into_owned()
}

fn io(path: &Path, e: std::io::Error) -> Failure {
    Failure::Run(format!("{}: cannot lock: {e}", path.display()))
}

/// Takes the lock of `dir` (created if missing).
///
/// # Errors
/// [`Failure::Run`] (exit 4) when another live run holds it, naming that run's PID and
/// host, or when the directory or lock file cannot be created.
pub fn acquire(dir: &Path) -> Result<DirLock, Failure> {
    std::fs::create_dir_all(dir).map_err(|e| {
        Failure::Run(format!(
            "{}: cannot create the directory: {e}",
            dir.display()
        ))
    })?;
    let path = dir.join(LOCK_FILE);
    let mut file = OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(&path)
        .map_err(|e| io(&path, e))?;
    let mut before = String::new();
    // SAFETY: flock on a descriptor this function owns.
    let r = unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) };
    if r != 0 {
        let err = std::io::Error::last_os_error();
        if err.raw_os_error() != Some(libc::EWOULDBLOCK) {
            return Err(io(&path, err));
        }
        let _ = file.read_to_string(&mut before);
        return Err(Failure::Run(format!(
            "{}: locked by another run ({}); wait for it to end, or write to another directory",
            dir.display(),
            Holder::parse(&before).describe()
        )));
    }
    let _ = file.read_to_string(&mut before);
    if !before.trim().is_empty() {
        eprintln!(
            "shaderdiff: note: {} was left by {}, which is no longer running; taking it over",
            path.display(),
            Holder::parse(&before).describe()
        );
    }
    let me = format!("pid {}\nhost {}\n", std::process::id(), hostname());
    file.set_len(0)
        .and_then(|()| file.rewind())
        .and_then(|()| file.write_all(me.as_bytes()))
        .and_then(|()| file.sync_all())
        .map_err(|e| io(&path, e))?;
    Ok(DirLock { file, path })
}

impl DirLock {
    /// The lock file.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl Drop for DirLock {
    fn drop(&mut self) {
        // Empty first, then the kernel drops the flock when the file closes: an empty
        // file means "released cleanly".
        let _ = self.file.set_len(0);
        let _ = self.file.sync_all();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dir(tag: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("sd-lock-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        d
    }

    #[test]
    fn a_held_lock_is_refused_and_released_on_drop() {
        let d = dir("held");
        let a = acquire(&d).unwrap();
        let text = std::fs::read_to_string(a.path()).unwrap();
        assert_eq!(Holder::parse(&text).pid, Some(std::process::id()), "{text}");
        // flock locks belong to the open file: a second open in this process conflicts.
        let e = acquire(&d).unwrap_err();
        assert_eq!(e.code(), 4);
        assert!(
            e.message().contains(&format!("PID {}", std::process::id())),
            "{}",
            e.message()
        );
        drop(a);
        assert_eq!(std::fs::read_to_string(d.join(LOCK_FILE)).unwrap(), "");
        let b = acquire(&d).unwrap();
        drop(b);
        std::fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn a_stale_lock_is_taken_over() {
        let d = dir("stale");
        std::fs::create_dir_all(&d).unwrap();
        // What a SIGKILLed holder leaves: a non-empty file and no flock.
        std::fs::write(d.join(LOCK_FILE), "pid 4194999\nhost elsewhere\n").unwrap();
        let l = acquire(&d).unwrap();
        let text = std::fs::read_to_string(l.path()).unwrap();
        assert!(
            text.starts_with(&format!("pid {}\n", std::process::id())),
            "{text}"
        );
        drop(l);
        std::fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn holders_parse_and_describe() {
        let h = Holder::parse("pid 12\nhost box\n");
        assert_eq!(h.describe(), "PID 12 on host box");
        assert_eq!(Holder::parse("").describe(), "an unknown process");
    }
}
