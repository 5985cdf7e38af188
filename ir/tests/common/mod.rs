//! Shared helpers for the front-end tests: locating the reference material in ../shared.
#![allow(dead_code)]

use std::path::PathBuf;

/// `/work/shared/...` relative to this crate (the shared dir sits beside the repository).
pub fn shared(rel: &str) -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../shared/")).join(rel)
}

/// Reads a file of the shared reference material.
pub fn read_shared(rel: &str) -> String {
    let path = shared(rel);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Example names ex01..ex13 of spec/tgsi/examples.
pub fn example_names() -> Vec<String> {
    (1..=13).map(|i| format!("ex{i:02}")).collect()
}

/// Every `.tgsi` file of corpus/tgsi, sorted, as (file name, text).
pub fn corpus() -> Vec<(String, String)> {
    let dir = shared("corpus/tgsi");
    let mut v: Vec<(String, String)> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "tgsi"))
        .map(|p| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read_to_string(&p).unwrap())
        })
        .collect();
    v.sort();
    v
}
