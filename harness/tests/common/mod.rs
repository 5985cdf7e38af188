//! Helpers shared by the binary's integration tests: run `shaderdiff`, read its exit
//! status and output, make scratch directories.
#![allow(dead_code)]

use std::path::PathBuf;
use std::process::{Command, Output};

/// The binary under test.
pub const BIN: &str = env!("CARGO_BIN_EXE_shaderdiff");

/// Runs `shaderdiff ARGS` to completion (with `CI` set: no progress line).
pub fn run(args: &[&str]) -> Output {
    Command::new(BIN)
        .args(args)
        .env("CI", "1")
        .output()
        .expect("the shaderdiff binary starts")
}

/// Its exit status (it must not die of a signal).
pub fn code(o: &Output) -> i32 {
    o.status.code().expect("exited normally")
}

/// Stdout then stderr, for assertion messages.
pub fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

/// A fresh, empty scratch directory named after the test and this process.
pub fn scratch(test: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("shaderdiff-{test}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// A scratch directory removed when dropped: `shaderdiff-scratch-{test}-{pid}` in the
/// temporary directory, fresh and empty.
pub struct Scratch(pub PathBuf);

impl Scratch {
    /// A fresh, empty directory for test `test`.
    pub fn new(test: &str) -> Scratch {
        let d =
            std::env::temp_dir().join(format!("shaderdiff-scratch-{test}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        Scratch(d)
    }

    /// The path of `name` inside it, as a string for command lines.
    pub fn path(&self, name: &str) -> String {
        self.0.join(name).display().to_string()
    }

    /// Writes `text` to `name` inside it and returns the path.
    pub fn file(&self, name: &str, text: &str) -> String {
        let p = self.0.join(name);
        std::fs::write(&p, text).unwrap();
        p.display().to_string()
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Stderr as text.
pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// A JSON file.
pub fn json(path: &std::path::Path) -> serde_json::Value {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}
