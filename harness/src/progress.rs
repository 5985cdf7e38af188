//! `DIR/progress.json`: what a campaign has finished, so `fuzz --resume DIR` can go on
//! where a killed campaign stopped (`fuzz --resume`, docs/commands.md).
//!
//! The campaign works in chunks of [`crate::fuzz::CHUNK`] stream positions. When a chunk
//! is done, its results (counts, signatures, poisoned programs, program log) are folded
//! into the state and the whole state is written at once ([`shaderdiff_results::atomic_write`]:
//! temporary file, fsync, rename, fsync of the directory). So the file always describes a
//! set of whole chunks: a resumed campaign skips exactly those, runs every other one, and
//! no program whose result was recorded runs twice. Findings a killed chunk had written
//! but not committed are written again by its rerun (it is deterministic).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use shaderdiff_results::{atomic_write, FindingEntry, StoreError};

/// Name of the progress file in the campaign directory.
pub const PROGRESS_FILE: &str = "progress.json";

/// Version of the progress file format.
pub const PROGRESS_VERSION: u32 = 1;

/// The committed state of a campaign.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Progress {
    /// [`PROGRESS_VERSION`].
    pub version: u32,
    /// The campaign's `fuzz` arguments, canonical (seed included): a resume re-reads them.
    pub argv: Vec<String>,
    /// Generator version (a campaign cannot resume across generator versions).
    pub generator_version: String,
    /// Finished chunks, as half-open ranges `[a, b)` of chunk numbers.
    pub done: Vec<(u64, u64)>,
    /// Programs compared.
    pub programs: u64,
    /// Programs with a divergence.
    pub mismatches: u64,
    /// Engine × program pairs unsupported.
    pub unsupported: u64,
    /// Programs the oracle could not run.
    pub oracle_skipped: u64,
    /// Program indices whose worker ran out of resources.
    pub poisoned: Vec<u64>,
    /// Signatures seen, with counts.
    pub findings: Vec<FindingEntry>,
    /// Signatures whose directory existed before the campaign started (not re-recorded).
    pub known: Vec<String>,
    /// `(index, fingerprint)` of every program, when `--log-programs`.
    pub log: Vec<(u64, u64)>,
    /// Seconds spent in earlier sessions of this campaign.
    pub elapsed_s: f64,
}

/// Half-open ranges covering `set`, ascending.
pub fn to_ranges(set: &BTreeSet<u64>) -> Vec<(u64, u64)> {
    let mut out: Vec<(u64, u64)> = Vec::new();
    for &c in set {
        match out.last_mut() {
            Some((_, b)) if *b == c => *b = c + 1,
            _ => out.push((c, c + 1)),
        }
    }
    out
}

/// The set `ranges` cover.
pub fn from_ranges(ranges: &[(u64, u64)]) -> BTreeSet<u64> {
    ranges.iter().flat_map(|&(a, b)| a..b).collect()
}

impl Progress {
    /// `DIR/progress.json`.
    pub fn path(dir: &Path) -> PathBuf {
        dir.join(PROGRESS_FILE)
    }

    /// Reads `DIR/progress.json`.
    ///
    /// # Errors
    /// A missing or unreadable file, or one that is not a progress file of this version
    /// (the message names the file and, for JSON errors, `line:col`).
    pub fn load(dir: &Path) -> Result<Progress, String> {
        let path = Progress::path(dir);
        let text = std::fs::read_to_string(&path).map_err(|e| {
            format!(
                "{}: {e} (is {} the output directory of a fuzz campaign?)",
                path.display(),
                dir.display()
            )
        })?;
        let p: Progress = serde_json::from_str(&text).map_err(|e| {
            format!(
                "{}:{}:{}: not a progress file: {e}",
                path.display(),
                e.line(),
                e.column()
            )
        })?;
        if p.version != PROGRESS_VERSION {
            return Err(format!(
                "{}: progress format {} (this shaderdiff reads {PROGRESS_VERSION})",
                path.display(),
                p.version
            ));
        }
        Ok(p)
    }

    /// Writes `DIR/progress.json` atomically and durably.
    ///
    /// # Errors
    /// [`StoreError`] naming the file.
    pub fn save(&self, dir: &Path) -> Result<(), StoreError> {
        let text = serde_json::to_string(self).unwrap_or_default();
        atomic_write(&Progress::path(dir), text.as_bytes())
    }

    /// Findings as a map by signature.
    pub fn findings_map(&self) -> BTreeMap<String, FindingEntry> {
        self.findings
            .iter()
            .map(|f| (f.signature.clone(), f.clone()))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_round_trip() {
        let set: BTreeSet<u64> = [0, 1, 2, 5, 7, 8].into_iter().collect();
        assert_eq!(to_ranges(&set), vec![(0, 3), (5, 6), (7, 9)]);
        assert_eq!(from_ranges(&to_ranges(&set)), set);
        assert!(to_ranges(&BTreeSet::new()).is_empty());
    }

    #[test]
    fn bad_progress_files_name_the_place() {
        let dir = std::env::temp_dir().join(format!("sd-progress-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        assert!(Progress::load(&dir).unwrap_err().contains("progress.json"));
        std::fs::write(
            Progress::path(&dir),
            "{\n  \"version\": 1,\n  \"argv\": 3\n}",
        )
        .unwrap();
        let e = Progress::load(&dir).unwrap_err();
        assert!(e.contains("progress.json:3:"), "{e}");
        let p = Progress {
            version: PROGRESS_VERSION,
            done: vec![(0, 2)],
            ..Progress::default()
        };
        p.save(&dir).unwrap();
        assert_eq!(Progress::load(&dir).unwrap(), p);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
