//! The `shaderdiff` binary. See the library's `cli` module and INTERFACE.md.

use std::process::ExitCode;

use clap::Parser;
use shaderdiff::cli::{execute, Cli};

/// Exit status of an internal error (a bug: a panic caught at the top level).
const INTERNAL_ERROR: u8 = 70;

fn main() -> ExitCode {
    // Never a backtrace on any input: a panic is a bug, reported on one line.
    std::panic::set_hook(Box::new(|info| {
        let what = info
            .payload()
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| info.payload().downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "panic".to_string());
        let at = info
            .location()
            .map(|l| format!(" at {}:{}", l.file(), l.line()))
            .unwrap_or_default();
        let what = what.replace('\n', " ");
        eprintln!("shaderdiff: internal error: {what}{at} (this is a bug in shaderdiff)");
    }));
    // Usage errors exit 2, --help/--version exit 0 (clap's behaviour).
    let cli = Cli::parse();
    match std::panic::catch_unwind(move || execute(cli)) {
        Ok(code) => ExitCode::from(code),
        Err(_) => ExitCode::from(INTERNAL_ERROR),
    }
}
