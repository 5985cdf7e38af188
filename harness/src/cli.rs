//! The `shaderdiff` command line (INTERFACE.md "Commands"): the argument types and the
//! dispatch to the subcommands of [`crate::cmd`]. The helpers every command shares (exit
//! status, program loading, stdout) are in [`crate::common`], below the commands.
//!
//! Exit status (INTERFACE.md): 0 success; 1 the run failed (step limit, call depth);
//! 2 bad usage or bad input (unparsable program, malformed inputs file, unknown register),
//! with a one-line message on stderr naming the file and, for programs, `line:col`;
//! 3 the program is valid but the chosen engine does not support something it uses;
//! 4 the run itself could not be carried out (stdout or an output file cannot be written).

use clap::{Parser, Subcommand};

// The shared helpers, also under their former paths (`crate::cli::Failure`, ...).
pub use crate::cmd::check::CheckArgs;
pub use crate::cmd::run::RunArgs;
pub use crate::common::{
    emit, engine_failure, engine_parser, load_any, load_program, load_program_named, nv_key,
    Failure, Format, Loaded, NvNames,
};

/// `shaderdiff`: a differential conformance harness for shader compilers.
#[derive(Debug, Parser)]
#[command(name = "shaderdiff", version, about, long_about = None)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
    /// Limits on the sizes inputs may ask for (global flags; docs/campaigns.md).
    #[command(flatten)]
    pub limits: crate::limits::Limits,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Parse and validate programs; --print writes them in canonical form.
    Check(CheckArgs),
    /// Run a program on one engine and print its output registers.
    Run(RunArgs),
    /// Generate programs with inputs: seeded random (--seed/--count) or the spec suite (--spec).
    Gen(crate::cmd::gen::GenArgs),
    /// Run programs on the oracle and every other engine and compare them.
    Diff(crate::cmd::diff::DiffArgs),
    /// Differential campaign: generated programs on the oracle and every engine.
    Fuzz(crate::cmd::fuzz::FuzzArgs),
    /// Minimize a program on which an engine diverges, keeping the divergence signature.
    Reduce(crate::cmd::reduce::ReduceArgs),
    /// List the fault catalogue: NAME ENGINE DESCRIPTION, one per line.
    Faults,
    /// Run a conformance suite: JUnit, baselines, retries, partitions (deqp-runner style).
    Conform(crate::cmd::conform::ConformArgs),
    /// Combine the output directories of a campaign's shards (fuzz --shard I/N).
    Merge(crate::cmd::merge::MergeArgs),
    /// Worker process of `fuzz` and `conform` (internal: started by them).
    #[command(hide = true)]
    Worker(crate::cmd::worker::WorkerArgs),
    /// Valhall machine code: `disasm HEXBYTES...` and `asm TEXT...`.
    Valhall(crate::cmd::valhall::ValhallArgs),
    /// Print what a backend compiles a program to (jit: --emit clif).
    Compile(crate::cmd::compile::CompileArgs),
}

/// Runs a parsed command line; returns the exit status. Messages go to stderr, results
/// to stdout.
pub fn execute(cli: Cli) -> u8 {
    crate::limits::set(cli.limits);
    match cli.command {
        Command::Check(a) => crate::cmd::check::execute(&a),
        Command::Gen(a) => crate::cmd::gen::execute(&a),
        Command::Diff(a) => crate::cmd::diff::execute(&a),
        Command::Fuzz(a) => crate::cmd::fuzz::execute(&a),
        Command::Reduce(a) => crate::cmd::reduce::execute(&a),
        Command::Compile(a) => crate::cmd::compile::execute(&a),
        Command::Conform(a) => crate::cmd::conform::execute(&a),
        Command::Merge(a) => crate::cmd::merge::execute(&a),
        Command::Worker(a) => crate::cmd::worker::execute(&a),
        Command::Valhall(a) => crate::cmd::valhall::execute(&a),
        Command::Faults => match emit(&crate::faults::listing()) {
            Ok(()) => 0,
            Err(f) => {
                eprintln!("{}", f.message());
                f.code()
            }
        },
        Command::Run(a) => crate::cmd::run::execute(&a),
    }
}
