//! Which program records a finding: the lowest index that shows its signature, whatever the
//! number of jobs and however often the campaign was interrupted (docs/campaigns.md
//! "Faults the campaign layer survives").
//!
//! With several jobs, chunks finish in any order, so "the first program to claim a
//! signature" depends on timing. Instead a program records a signature when no lower
//! index has claimed it yet ([`Claims::claim`]), and writes its files under
//! `DIR/staging/<index>/findings/<signature>/`. When its chunk commits, the campaign keeps
//! the recording only if no lower index has been committed for that signature
//! ([`promote`]): it replaces `DIR/findings/<signature>/` with it. The example of each
//! finding is then the lowest index of the campaign that shows it, in a campaign run in
//! one go, with `--jobs 2`, or resumed. Recordings of chunks that never committed are
//! dropped when the campaign starts or resumes ([`clear`]).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use shaderdiff_results::store::FINDINGS_DIR;
use shaderdiff_results::{Store, StoreError};

/// The staging directory inside a campaign directory.
pub const STAGING_DIR: &str = "staging";

/// Signatures claimed so far: `None` for findings known before the campaign (never
/// recorded again), else the lowest program index that claimed it.
#[derive(Debug, Default)]
pub struct Claims(BTreeMap<String, Option<u64>>);

impl Claims {
    /// Claims known before the campaign (`known`) and committed by it (`committed`:
    /// signature and the index that recorded it).
    pub fn new(
        known: impl IntoIterator<Item = String>,
        committed: impl IntoIterator<Item = (String, u64)>,
    ) -> Claims {
        let mut m: BTreeMap<String, Option<u64>> = known.into_iter().map(|s| (s, None)).collect();
        for (s, i) in committed {
            m.entry(s).or_insert(Some(i));
        }
        Claims(m)
    }

    /// Whether program `index` should record `signature`: nobody claimed it, or only
    /// higher indices did (then `index` is now the claim).
    pub fn claim(&mut self, signature: &str, index: u64) -> bool {
        match self.0.get_mut(signature) {
            None => {
                self.0.insert(signature.to_string(), Some(index));
                true
            }
            Some(Some(i)) if index < *i => {
                *i = index;
                true
            }
            Some(_) => false,
        }
    }
}

/// The store program `index` records its findings in (`DIR/staging/<index>`).
///
/// # Errors
/// The directory cannot be created.
pub fn staged(store: &Store, index: u64) -> Result<Store, StoreError> {
    Store::create(&staging_root(store.root(), index))
}

fn staging_root(root: &Path, index: u64) -> PathBuf {
    root.join(STAGING_DIR).join(index.to_string())
}

fn io(path: &Path, e: std::io::Error) -> StoreError {
    StoreError {
        path: path.display().to_string(),
        message: e.to_string(),
    }
}

/// Moves program `index`'s recording of `signature` to `DIR/findings/<signature>`,
/// replacing what was there (the recording of a higher index).
///
/// # Errors
/// A directory that cannot be renamed or removed.
pub fn promote(store: &Store, index: u64, signature: &str) -> Result<(), StoreError> {
    let root = store.root();
    let from = staging_root(root, index).join(FINDINGS_DIR).join(signature);
    let to = root.join(FINDINGS_DIR).join(signature);
    if to.exists() {
        // Out of the way first, so that `to` is never a mix of two recordings.
        let old = root.join(STAGING_DIR).join(format!("replaced-{signature}"));
        let _ = std::fs::remove_dir_all(&old);
        std::fs::rename(&to, &old).map_err(|e| io(&to, e))?;
        std::fs::remove_dir_all(&old).map_err(|e| io(&old, e))?;
    }
    std::fs::rename(&from, &to).map_err(|e| io(&from, e))
}

/// Removes what program `index` staged (after its chunk committed).
pub fn discard(store: &Store, index: u64) {
    let _ = std::fs::remove_dir_all(staging_root(store.root(), index));
}

/// Removes the staging directory (recordings of chunks that never committed).
///
/// # Errors
/// It exists and cannot be removed.
pub fn clear(store: &Store) -> Result<(), StoreError> {
    let dir = store.root().join(STAGING_DIR);
    match std::fs::remove_dir_all(&dir) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(io(&dir, e)),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_lowest_index_keeps_the_claim() {
        let mut c = Claims::new(["known".to_string()], [("done".to_string(), 10)]);
        assert!(!c.claim("known", 0), "known before the campaign");
        assert!(!c.claim("done", 12));
        assert!(c.claim("done", 3), "a lower index than the committed one");
        assert!(c.claim("new", 70));
        assert!(c.claim("new", 5), "chunks finish out of order");
        assert!(!c.claim("new", 6));
    }

    #[test]
    fn promotion_replaces_a_higher_recording() {
        let dir = std::env::temp_dir().join(format!("sd-staging-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let store = Store::create(&dir).unwrap();
        let sig: shaderdiff_results::Signature = "jit-mismatch-f32".parse().unwrap();
        for (index, text) in [(9, "nine"), (4, "four")] {
            let st = staged(&store, index).unwrap();
            st.write_finding_file(&sig, "program.tgsi", text).unwrap();
            if index == 9 {
                st.write_finding_file(&sig, "reduced.tgsi", "nine").unwrap();
            }
            promote(&store, index, &sig.to_string()).unwrap();
            discard(&store, index);
        }
        let f = store.finding_dir(&sig);
        assert_eq!(
            std::fs::read_to_string(f.join("program.tgsi")).unwrap(),
            "four"
        );
        assert!(
            !f.join("reduced.tgsi").exists(),
            "nothing of 9's recording is left"
        );
        clear(&store).unwrap();
        assert!(!dir.join(STAGING_DIR).exists());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
