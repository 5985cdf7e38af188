//! `shaderdiff reduce PROGRAM [--inputs FILE.json] [--backends ..] [--out FILE]`
//! (INTERFACE.md "Commands"): minimizes a program on which an engine diverges from the
//! oracle, keeping the divergence signature ([`crate::reduce`]).
//!
//! Inputs: `--inputs`, else the program's `NAME.inputs.json`, else all zero; with
//! `--random-inputs N` the N generated sets are tried too, and the first set on which an
//! engine diverges is used. The first engine (in `--backends` order) that diverges is the one
//! reduced for, unless `--signature` names the wanted signature.
//!
//! NV assembly is reduced as NV text ([`crate::reduce::nv`]): the output is canonical NV
//! text with the stamp comment after the header, and its inputs are keyed by NV names.
//!
//! Output: the reduced program (stamped, lossless TGSI) to `--out FILE` or stdout; its
//! inputs to `--inputs-out FILE`, by default `NAME.inputs.json` beside `--out` (which
//! `diff` picks up by itself), so `shaderdiff diff FILE` replays the finding. One summary
//! line on stderr.
//!
//! Budget: `--reduce-cpu-time` (default 30 s, the reducing thread's CPU time, as `fuzz`'s)
//! and `--time` (wall clock, no default); at the end of either the smallest program so far
//! is written and the summary line says "stopped early".
//!
//! Exit status: 0 reduced (also when stopped early); 2 bad input, or nothing to reduce (no engine diverges on the
//! given inputs); 3 no engine to compare; 1 an output file could not be written.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use clap::Args;
use shaderdiff_model::Program;
use shaderdiff_oracles::Inputs;
use shaderdiff_results::Signature;

use shaderdiff_nv::NvProgram;

use crate::cmd::diff::{
    load_inputs_named, random_inputs, sibling_inputs, EngineArgs, RANDOM_INVOCATIONS,
};
use crate::common::{load_any, load_program_named, Failure, Loaded};
use crate::diff::Differ;
use crate::inputs;
use crate::reduce::nv::{insn_count, reduce_nv, ReducedNv};
use crate::reduce::{
    reduce, size, stamped_text, ClockBudget, ReduceError, ReduceOptions, Reduced, REDUCE_STEP_LIMIT,
};

/// `shaderdiff reduce` arguments.
#[derive(Debug, Args)]
pub struct ReduceArgs {
    /// The program to reduce.
    #[arg(value_name = "PROGRAM")]
    pub program: PathBuf,
    /// Engines and comparison options.
    #[command(flatten)]
    pub engines: EngineArgs,
    /// Inputs file (default: NAME.inputs.json beside the program, else all zero).
    #[arg(long, value_name = "FILE.json")]
    pub inputs: Option<PathBuf>,
    /// Also try N generated input sets.
    #[arg(long, value_name = "N", default_value_t = 0,
          value_parser = clap::value_parser!(u64).range(0..=100_000))]
    pub random_inputs: u64,
    /// Seed of the generated input sets.
    #[arg(long, value_name = "S", default_value_t = 0)]
    pub seed: u64,
    /// Keep this signature (default: the program's first divergence).
    #[arg(long, value_name = "SIGNATURE")]
    pub signature: Option<String>,
    /// Write the reduced program here (default: stdout).
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Write the reduced inputs here (default: NAME.inputs.json beside --out).
    #[arg(long, value_name = "FILE.json")]
    pub inputs_out: Option<PathBuf>,
    /// Stop after this long and keep the smallest program so far (`30s`, `5m`).
    #[arg(long, value_name = "DURATION", value_parser = humantime::parse_duration)]
    pub time: Option<Duration>,
    /// CPU-time budget of the reduction, as `fuzz --reduce-cpu-time`: CPU time of the
    /// thread that reduces (the engines run in it), which waiting for a core on a loaded
    /// machine does not use up. At the end of the budget the smallest program so far is
    /// written (exit 0, "stopped early"). Stops at whichever of it and `--time` ends first.
    #[arg(long, value_name = "DURATION", default_value = "30s", value_parser = humantime::parse_duration)]
    pub reduce_cpu_time: Duration,
}

/// Reduces `program` for the first engine of `differ` that diverges on one of `sets`
/// (or the one whose signature is `wanted`). `Ok(None)`: nothing diverges.
///
/// # Errors
/// [`ReduceError`] from [`reduce`] when the wanted signature is not the program's.
pub fn reduce_first(
    differ: &Differ,
    program: &Program,
    sets: &[Inputs],
    wanted: Option<&Signature>,
    opts: &ReduceOptions,
) -> Result<Option<Reduced>, ReduceError> {
    let mut last_err = None;
    for set in sets {
        let diff = differ.diff(program, set);
        for (e, o) in diff.engines.iter().enumerate() {
            if !o.outcome.diverged() {
                continue;
            }
            if let Some(w) = wanted {
                if w.engine != o.engine {
                    continue;
                }
            }
            match reduce(differ, e, program, set, wanted, opts) {
                Ok(r) => return Ok(Some(r)),
                Err(err) => last_err = Some(err),
            }
        }
    }
    match last_err {
        Some(e @ ReduceError::OtherSignature { .. }) => Err(e),
        _ => Ok(None),
    }
}

/// Runs `shaderdiff reduce`; returns the exit status.
pub fn execute(args: &ReduceArgs) -> u8 {
    match run(args) {
        Ok(()) => 0,
        Err(f) => {
            eprintln!("{}", f.message());
            f.code()
        }
    }
}

/// What `reduce` writes and reports, in either language.
struct Output {
    text: String,
    inputs_text: String,
    before: usize,
    after: usize,
    signature: Signature,
    tests: usize,
    complete: bool,
}

/// [`reduce_first`] for an NV program: the first diverging engine's reduction, NV text and
/// NV-keyed inputs ([`reduce_nv`]).
fn reduce_first_nv(
    differ: &Differ,
    ast: &NvProgram,
    program: &Program,
    sets: &[Inputs],
    wanted: Option<&Signature>,
    opts: &ReduceOptions,
) -> Result<Option<ReducedNv>, ReduceError> {
    let mut last_err = None;
    for set in sets {
        let diff = differ.diff(program, set);
        for (e, o) in diff.engines.iter().enumerate() {
            if !o.outcome.diverged() || wanted.is_some_and(|w| w.engine != o.engine) {
                continue;
            }
            match reduce_nv(differ, e, ast, set, wanted, opts) {
                Ok(r) => return Ok(Some(r)),
                Err(err) => last_err = Some(err),
            }
        }
    }
    match last_err {
        Some(e @ ReduceError::OtherSignature { .. }) => Err(e),
        _ => Ok(None),
    }
}

fn run(args: &ReduceArgs) -> Result<(), Failure> {
    let start = Instant::now();
    let name = args.program.display().to_string();
    let (program, names) = load_program_named(&args.program)?;
    let wanted = match &args.signature {
        Some(s) => Some(
            s.parse::<Signature>()
                .map_err(|e| Failure::BadInput(e.to_string()))?,
        ),
        None => None,
    };
    let mut sets = Vec::new();
    let sibling = sibling_inputs(&args.program);
    if let Some(f) = &args.inputs {
        sets.push(load_inputs_named(f, &program, None, names.as_ref())?);
    } else if sibling.is_file() {
        sets.push(load_inputs_named(&sibling, &program, None, names.as_ref())?);
    } else if args.random_inputs == 0 {
        sets.push(inputs::defaults(&program, None).map_err(|e| Failure::BadInput(e.to_string()))?);
    }
    sets.extend(random_inputs(
        &program,
        args.seed,
        args.random_inputs,
        RANDOM_INVOCATIONS,
    ));
    crate::common::prepare_sets(&program, names.as_ref(), &mut sets, &name)?;
    let opts = ReduceOptions {
        deadline: args.time.and_then(|t| start.checked_add(t)),
        cpu: Some(ClockBudget::starting_now(
            crate::cpu_clock::thread_cpu_time,
            args.reduce_cpu_time,
        )),
        ..ReduceOptions::default()
    };
    // Candidates run with a small step budget; the original may need the full one.
    let fast = args.engines.step_limit.min(REDUCE_STEP_LIMIT);
    let differ = args.engines.differ_with(fast, true)?;
    let full = || args.engines.differ_with(args.engines.step_limit, false);
    let nothing = || {
        Failure::BadInput(format!(
            "{name}: nothing to reduce: no engine diverges from the oracle on these inputs"
        ))
    };
    let out = if names.is_some() {
        let Loaded::Nv(ast) = load_any(&args.program)? else {
            return Err(Failure::BadInput(format!("{name}: not NV assembly")));
        };
        let mut result = reduce_first_nv(&differ, &ast, &program, &sets, wanted.as_ref(), &opts);
        if matches!(result, Ok(None)) && fast < args.engines.step_limit {
            result = reduce_first_nv(&full()?, &ast, &program, &sets, wanted.as_ref(), &opts);
        }
        let r = match result {
            Ok(Some(r)) => r,
            Ok(None) => return Err(nothing()),
            Err(e) => return Err(Failure::BadInput(format!("{name}: {e}"))),
        };
        Output {
            text: r.stamped_text(&name),
            inputs_text: crate::inputs_json::to_json_nv(&r.inputs, &r.lowered.names),
            before: insn_count(&ast),
            after: r.size(),
            signature: r.divergence.signature.clone(),
            tests: r.tests,
            complete: r.complete,
        }
    } else {
        let mut result = reduce_first(&differ, &program, &sets, wanted.as_ref(), &opts);
        if matches!(result, Ok(None)) && fast < args.engines.step_limit {
            result = reduce_first(&full()?, &program, &sets, wanted.as_ref(), &opts);
        }
        let r = match result {
            Ok(Some(r)) => r,
            Ok(None) => return Err(nothing()),
            Err(e) => return Err(Failure::BadInput(format!("{name}: {e}"))),
        };
        Output {
            text: stamped_text(&r, &name),
            inputs_text: crate::inputs_json::to_json(&r.inputs),
            before: size(&program),
            after: size(&r.program),
            signature: r.divergence.signature.clone(),
            tests: r.tests,
            complete: r.complete,
        }
    };
    let write = |path: &PathBuf, text: &str| {
        std::fs::write(path, text)
            .map_err(|e| Failure::Run(format!("{}: cannot write: {e}", path.display())))
    };
    match &args.out {
        Some(o) => write(o, &out.text)?,
        None => crate::common::emit(&out.text)?,
    }
    let inputs_out = args
        .inputs_out
        .clone()
        .or_else(|| args.out.as_ref().map(|o| sibling_inputs(o)));
    match &inputs_out {
        Some(p) => write(p, &out.inputs_text)?,
        None => eprintln!(
            "shaderdiff: the reduced inputs were not written (pass --out or --inputs-out)"
        ),
    }
    eprintln!(
        "{name}: reduced {} -> {} instructions, signature {}{}, {} candidates in {:.2}s{}",
        out.before,
        out.after,
        out.signature,
        inputs_out
            .map(|p| format!(" (inputs: {})", p.display()))
            .unwrap_or_default(),
        out.tests,
        start.elapsed().as_secs_f64(),
        if out.complete { "" } else { " (stopped early)" }
    );
    Ok(())
}
