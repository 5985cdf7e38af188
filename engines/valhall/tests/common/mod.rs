//! Shared helpers for the integration tests: locating the reference material in
//! `/work/shared/spec/valhall` (relative to this crate: `../../../shared/spec/valhall`).

#![allow(dead_code)]

use std::path::PathBuf;

/// Path of a file of the Valhall reference material.
pub fn spec_path(file: &str) -> PathBuf {
    PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../../shared/spec/valhall/"
    ))
    .join(file)
}

/// Contents of a reference file; panics with a clear message when it is missing.
pub fn read_spec(file: &str) -> String {
    let p = spec_path(file);
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("cannot read {}: {e}", p.display()))
}
