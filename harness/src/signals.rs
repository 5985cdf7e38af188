//! Stopping a campaign from outside: SIGINT (Ctrl-C), SIGTERM (what Kubernetes, Slurm and
//! systemd send before they kill) and SIGHUP (the terminal went away) all mean "stop
//! cleanly" (docs/campaigns.md "Signals").
//!
//! The first signal sets the campaign's stop flag: the chunks in hand finish and are
//! committed to `progress.json`, `summary.json` is written with status `interrupted`,
//! and the campaign can be continued with `fuzz --resume DIR`. A second signal exits at
//! once with status [`EXIT_SECOND_SIGNAL`]; everything committed is already on disk, and
//! the output directory's lock ([`crate::lock`]) goes with the process.
//!
//! Worker processes run in their own process groups, so a terminal's Ctrl-C or hangup
//! reaches only the supervisor, which then stops them itself.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// Exit status after a second stop signal (128 + SIGINT, the shell's convention).
pub const EXIT_SECOND_SIGNAL: i32 = 130;

/// Installs the handler of SIGINT, SIGTERM and SIGHUP (the `ctrlc` crate with its
/// `termination` feature) once per process: the first signal sets `stop`, the second
/// exits at once. Returns `false` when a handler was already installed (a second campaign
/// in one process, as in tests; the first one's flag stays in charge).
pub fn install(stop: Arc<AtomicBool>) -> bool {
    ctrlc::set_handler(move || {
        if stop.swap(true, Ordering::SeqCst) {
            std::process::exit(EXIT_SECOND_SIGNAL);
        }
        eprintln!(
            "\nshaderdiff: stopping after the chunks in hand (results so far are on disk; \
             signal again to quit now)"
        );
    })
    .is_ok()
}
