//! The campaign directory (INTERFACE.md "`fuzz` output directory") and atomic file writes.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use crate::signature::Signature;
use crate::summary::Summary;

/// Name of the summary file in the campaign directory.
pub const SUMMARY_FILE: &str = "summary.json";
/// Name of the directory holding one sub-directory per signature.
pub const FINDINGS_DIR: &str = "findings";

/// A file could not be written or read: `path: message`.
#[derive(Debug, thiserror::Error)]
#[error("{path}: {message}")]
pub struct StoreError {
    /// The file or directory at fault.
    pub path: String,
    /// What went wrong.
    pub message: String,
}

impl StoreError {
    fn io(path: &Path, e: std::io::Error) -> StoreError {
        StoreError {
            path: path.display().to_string(),
            message: e.to_string(),
        }
    }
}

static TEMP_COUNTER: AtomicU64 = AtomicU64::new(0);

/// Writes `contents` to `path` atomically: into a temporary file in the same directory
/// (`.NAME.tmp-PID-N`), flushed to disk, then renamed over `path`, and the directory
/// flushed so the rename itself survives a power cut. Readers see the old file or the new
/// one, never a partial one; a crash leaves at most a stray temporary file.
///
/// # Errors
/// [`StoreError`] naming `path` when the directory is missing or not writable.
pub fn atomic_write(path: &Path, contents: &[u8]) -> Result<(), StoreError> {
    let dir = path.parent().unwrap_or(Path::new("."));
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "file".into());
    let n = TEMP_COUNTER.fetch_add(1, Ordering::Relaxed);
    let tmp = dir.join(format!(".{name}.tmp-{}-{n}", std::process::id()));
    let result = (|| {
        let mut f = fs::File::create(&tmp)?;
        f.write_all(contents)?;
        f.sync_all()?;
        fs::rename(&tmp, path)?;
        // Best effort: some file systems cannot open or flush a directory.
        if let Ok(d) = fs::File::open(dir) {
            let _ = d.sync_all();
        }
        Ok(())
    })();
    if let Err(e) = result {
        let _ = fs::remove_file(&tmp);
        return Err(StoreError::io(path, e));
    }
    Ok(())
}

/// A campaign directory.
#[derive(Clone, Debug)]
pub struct Store {
    root: PathBuf,
}

impl Store {
    /// Opens `root` as a campaign directory, creating it and `root/findings` if missing.
    /// Findings already in it (from an earlier campaign into the same directory) are kept.
    ///
    /// # Errors
    /// [`StoreError`] when a directory cannot be created.
    pub fn create(root: &Path) -> Result<Store, StoreError> {
        let findings = root.join(FINDINGS_DIR);
        fs::create_dir_all(&findings).map_err(|e| StoreError::io(&findings, e))?;
        Ok(Store {
            root: root.to_path_buf(),
        })
    }

    /// The campaign directory.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// `root/findings/<signature>`.
    pub fn finding_dir(&self, sig: &Signature) -> PathBuf {
        self.root.join(FINDINGS_DIR).join(sig.to_string())
    }

    /// Signatures that already have a directory under `root/findings`, sorted. Directory
    /// names that are not signatures are ignored.
    pub fn existing(&self) -> Vec<Signature> {
        let mut v: Vec<Signature> = fs::read_dir(self.root.join(FINDINGS_DIR))
            .into_iter()
            .flatten()
            .flatten()
            .filter(|e| e.path().is_dir())
            .filter_map(|e| e.file_name().to_str().and_then(|n| n.parse().ok()))
            .collect();
        v.sort();
        v
    }

    /// Writes `root/findings/<signature>/<name>` atomically, creating the directory.
    ///
    /// # Errors
    /// [`StoreError`] naming the file.
    pub fn write_finding_file(
        &self,
        sig: &Signature,
        name: &str,
        contents: &str,
    ) -> Result<PathBuf, StoreError> {
        let dir = self.finding_dir(sig);
        fs::create_dir_all(&dir).map_err(|e| StoreError::io(&dir, e))?;
        let path = dir.join(name);
        atomic_write(&path, contents.as_bytes())?;
        Ok(path)
    }

    /// Writes `root/summary.json` atomically (pretty JSON and a final newline).
    ///
    /// # Errors
    /// [`StoreError`] naming the file.
    pub fn write_summary(&self, summary: &Summary) -> Result<(), StoreError> {
        let path = self.root.join(SUMMARY_FILE);
        let mut text = serde_json::to_string_pretty(summary).map_err(|e| StoreError {
            path: path.display().to_string(),
            message: e.to_string(),
        })?;
        text.push('\n');
        atomic_write(&path, text.as_bytes())
    }

    /// Reads `root/summary.json`, if there is one.
    ///
    /// # Errors
    /// [`StoreError`] when the file exists but cannot be read or parsed.
    pub fn read_summary(&self) -> Result<Option<Summary>, StoreError> {
        let path = self.root.join(SUMMARY_FILE);
        let text = match fs::read_to_string(&path) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(StoreError::io(&path, e)),
        };
        serde_json::from_str(&text)
            .map(Some)
            .map_err(|e| StoreError {
                path: path.display().to_string(),
                message: e.to_string(),
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp_dir(tag: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!(
            "shaderdiff-results-{tag}-{}-{}",
            std::process::id(),
            TEMP_COUNTER.fetch_add(1, Ordering::Relaxed)
        ));
        let _ = fs::remove_dir_all(&d);
        d
    }

    #[test]
    fn layout_and_atomic_writes() {
        let root = temp_dir("layout");
        let store = Store::create(&root).unwrap();
        assert!(root.join("findings").is_dir());
        let sig = Signature::new("jit", "int_div", "i32");
        let p = store
            .write_finding_file(&sig, "program.tgsi", "VERT\nEND\n")
            .unwrap();
        assert_eq!(p, root.join("findings/jit-int_div-i32/program.tgsi"));
        store
            .write_finding_file(&sig, "program.tgsi", "VERT\n  0: END\n")
            .unwrap();
        assert_eq!(fs::read_to_string(&p).unwrap(), "VERT\n  0: END\n");
        // No temporary file is left behind.
        let names: Vec<String> = fs::read_dir(p.parent().unwrap())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert_eq!(names, vec!["program.tgsi".to_string()]);
        fs::create_dir_all(root.join("findings/not a signature")).unwrap();
        assert_eq!(store.existing(), vec![sig]);
        fs::remove_dir_all(&root).unwrap();
    }

    #[test]
    fn summary_round_trips() {
        let root = temp_dir("summary");
        let store = Store::create(&root).unwrap();
        assert!(store.read_summary().unwrap().is_none());
        let s = Summary {
            seed: 7,
            programs: 10,
            engines: vec!["jit".into()],
            ..Summary::default()
        };
        store.write_summary(&s).unwrap();
        assert_eq!(store.read_summary().unwrap(), Some(s));
        fs::remove_dir_all(&root).unwrap();
    }

    #[test]
    fn writing_into_a_missing_directory_fails_with_the_path() {
        let root = temp_dir("missing");
        let e = atomic_write(&root.join("x/y.json"), b"{}").unwrap_err();
        assert!(e.to_string().contains("y.json"), "{e}");
    }
}
