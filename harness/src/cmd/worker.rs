//! `shaderdiff worker JOB ARGS` (hidden): the child side of worker-process isolation
//! ([`crate::isolate`]). The supervisor (`fuzz`, `conform`) starts it with the job's own
//! arguments and talks to it in JSON lines on stdin/stdout; it is not meant to be run by
//! hand.

use clap::{Args, Subcommand};

/// `shaderdiff worker` arguments.
#[derive(Debug, Args)]
pub struct WorkerArgs {
    /// The job whose work this worker does.
    #[command(subcommand)]
    pub job: WorkerJob,
}

/// What a worker serves.
#[derive(Debug, Subcommand)]
pub enum WorkerJob {
    /// Campaign chunks ([`crate::fuzz_worker`]).
    Fuzz(crate::cmd::fuzz::FuzzArgs),
    /// Conformance programs ([`crate::cmd::conform_worker`]).
    Conform(crate::cmd::conform::ConformArgs),
}

/// Runs the worker; returns its exit status.
pub fn execute(args: &WorkerArgs) -> u8 {
    match &args.job {
        WorkerJob::Fuzz(a) => crate::cmd::fuzz::worker(a),
        WorkerJob::Conform(a) => crate::cmd::conform::worker(a),
    }
}
