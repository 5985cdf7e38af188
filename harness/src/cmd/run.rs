//! `shaderdiff run PROGRAM [--backend ..] [--inputs ..]` (INTERFACE.md "Commands"): run a
//! program on one engine of the registry and print its output registers.

use std::path::PathBuf;

use clap::Args;
use shaderdiff_backends::{self as backends, EngineConfig};
use shaderdiff_oracles::RegKey;

use crate::common::{
    emit, engine_failure, engine_parser, load_program_named_with, Failure, Format,
};
use crate::inputs::{self, MAX_INVOCATIONS};
use crate::lang;
use crate::output;
use shaderdiff_nv as nv;

/// `shaderdiff run PROGRAM [--backend ..] [--inputs ..] [--invocations N] [--format ..]`.
#[derive(Debug, Args)]
pub struct RunArgs {
    /// Program file (TGSI text, or NV / ARB assembly lowered to the IR).
    #[arg(value_name = "PROGRAM")]
    pub program: PathBuf,
    /// Engine to run on.
    #[arg(long, default_value = backends::ORACLE, value_parser = engine_parser(|_| true))]
    pub backend: String,
    /// Inputs file (JSON, INTERFACE.md "The inputs file"); without it every input is zero.
    #[arg(long, value_name = "FILE.json")]
    pub inputs: Option<PathBuf>,
    /// Number of invocations [default: the inputs file's count, else 4]; a multiple of 4
    /// for fragment programs.
    #[arg(long, value_name = "N",
          value_parser = clap::value_parser!(u64).range(1..=MAX_INVOCATIONS as u64))]
    pub invocations: Option<u64>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Most instructions one invocation may execute before the run fails (exit 1).
    #[arg(long, value_name = "N", default_value_t = EngineConfig::default().step_limit,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub step_limit: u64,
    /// Switch on a catalogued miscompilation in the engine that owns it (`shaderdiff faults`).
    #[arg(long, value_name = "NAME")]
    pub inject_fault: Option<String>,
    /// Seed of the thread schedule of engines that choose one (valhall: warp interleaving
    /// and the order of a warp's atomics). Every seed gives a legal execution.
    #[arg(long, value_name = "S", default_value_t = 0)]
    pub schedule_seed: u64,
    /// Implementation limits NV / ARB programs are checked against: `spec`, `nvidia` or
    /// `mesa` (docs/frontends.md).
    #[arg(long, value_name = "spec|nvidia|mesa", default_value_t = nv::LimitProfile::Spec)]
    pub limits: nv::LimitProfile,
}

/// Runs `run`; returns the exit status (the message on stderr, the outputs on stdout).
pub fn execute(args: &RunArgs) -> u8 {
    match run(args) {
        Ok(()) => 0,
        Err(f) => {
            eprintln!("{}", f.message());
            f.code()
        }
    }
}

/// `run`: parse, read the inputs, pick the engine from the registry
/// (`shaderdiff_backends::engine`), run, print.
fn run(args: &RunArgs) -> Result<(), Failure> {
    let (program, nv_names) = load_program_named_with(&args.program, args.limits)?;
    let name = args.program.display().to_string();
    let count = args.invocations.map(|n| n as usize);
    let keys = nv_names.as_ref().map(|n| move |s: &str| n.key(s));
    let inputs = match &args.inputs {
        Some(file) => {
            let text = lang::read_text(file).map_err(Failure::BadInput)?;
            let keys = keys.as_ref().map(|f| f as inputs::KeyMap);
            inputs::load_with(&text, &file.display().to_string(), &program, count, keys)
        }
        None => inputs::defaults(&program, count),
    }
    .map_err(|e| Failure::BadInput(e.to_string()))?;
    let mut sets = [inputs];
    // Errors in what the inputs give (global regions, image shapes) name the inputs file.
    let from = args
        .inputs
        .as_ref()
        .map_or(name.clone(), |f| f.display().to_string());
    crate::common::prepare_sets(&program, nv_names.as_ref(), &mut sets, &from)?;
    let [inputs] = sets;
    crate::faults::check(args.inject_fault.as_deref())?;
    let backend = args.backend.as_str();
    crate::engine_limits::check(backend, &program)
        .map_err(|e| Failure::BadInput(format!("{name}: {e}")))?;
    let mut config =
        crate::faults::config_for(backend, args.step_limit, args.inject_fault.as_deref());
    config.schedule_seed = args.schedule_seed;
    let engine = backends::engine(backend, &config).ok_or_else(|| {
        Failure::Unsupported(match backends::unavailable_reason(backend) {
            Some(why) => format!("{name}: engine `{backend}` is not available here: {why}"),
            None => format!("{name}: engine `{backend}` is not available in this build"),
        })
    })?;
    let mut outputs = engine
        .execute(&program, &inputs)
        .map_err(|e| engine_failure(&name, e))?;
    if let Some(n) = &nv_names {
        crate::nv_runtime::regions(&n.names, &inputs, &mut outputs);
    }
    let namer = |k: &RegKey| match &nv_names {
        Some(n) => n.name_of(k),
        None => k.to_string(),
    };
    emit(&match args.format {
        Format::Json => output::to_json_named(backend, &name, &outputs, &namer),
        Format::Text => output::to_text_named(backend, &name, &outputs, &namer),
    })
}
