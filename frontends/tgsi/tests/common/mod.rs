//! Shared helpers for the front-end tests: locating the reference material in ../shared,
//! mutating program text for the robustness properties.
#![allow(dead_code)]

use std::path::PathBuf;

/// `/work/shared/...` relative to this crate (the shared dir sits beside the repository).
pub fn shared(rel: &str) -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared/")).join(rel)
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

/// Applies `edits` to `text` (robustness tests): each `(at, kind, c)` replaces, inserts or
/// removes the character at `at` (mod the length), or duplicates a slice of up to 24
/// characters there (repeating statements, brackets, operands).
pub fn mutate(text: &str, edits: &[(usize, u8, char)]) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    for &(at, kind, c) in edits {
        if chars.is_empty() {
            chars.push(c);
            continue;
        }
        let i = at % chars.len();
        match kind % 4 {
            0 => chars[i] = c,
            1 => chars.insert(i, c),
            2 => {
                chars.remove(i);
            }
            _ => {
                let end = (i + 1 + (c as usize % 24)).min(chars.len());
                let dup: Vec<char> = chars[i..end].to_vec();
                chars.splice(i..i, dup);
            }
        }
    }
    chars.into_iter().collect()
}
