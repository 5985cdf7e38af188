//! `shaderdiff diff PROGRAM|DIR... [--backends ..] [--inputs FILE.json] [--random-inputs N]
//! [--seed S] [--format text|json] [--nan any|strict]` (INTERFACE.md "Commands").
//!
//! Every program (a DIR argument stands for its `*.tgsi` and `*.nv` files, sorted) runs on
//! the oracle (`interp`, always) and on every other engine of `--backends`; each engine is
//! compared with the oracle ([`crate::diff`]). Inputs: `--inputs FILE.json` for every
//! program, else the program's own `NAME.inputs.json` beside it when there is one, else all
//! zero; `--random-inputs N` adds N generated input sets (special values and random bits,
//! seeded by `--seed`: the same seed gives the same sets on any machine).
//!
//! Output: `--format text` (default) one summary line per program, then its signatures,
//! failures and up to 10 mismatches; `--format json` one INTERFACE.md report object per
//! program, **one object per line** (JSON Lines; a single program gives exactly one
//! object). Engines that do not support a program are reported as `unsupported`, never as
//! a mismatch; an engine this build does not have is skipped with one note on stderr.
//!
//! Exit status: 2 if any program or inputs file is bad input (one line on stderr each;
//! the other programs still run); else 1 if any engine diverged on any program (or the
//! oracle's own run failed); else 3 if nothing at all could be compared (every program
//! unsupported by the oracle or by every engine); else 0.

use std::path::{Path, PathBuf};

use clap::{Args, ValueEnum};
use shaderdiff_backends::REGISTRY;
use shaderdiff_generators::inputs::inputs_for;
use shaderdiff_generators::random::inputs_choices;
use shaderdiff_model::Program;
use shaderdiff_oracles::precision::NanPolicy;
use shaderdiff_oracles::Inputs;

use crate::common::{load_program_named, Failure, Format, NvNames};
use crate::diff::{engines_from_names_seeded, Differ, ORACLE};
use crate::inputs::{self, MAX_INVOCATIONS};
use crate::lang;
use crate::report::{DiffReport, SignatureRecord};
use crate::signature::locate;

/// Invocations of generated input sets when `--invocations` is not given.
pub const RANDOM_INVOCATIONS: usize = 16;

/// `--nan`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum NanArg {
    /// Any NaN matches any NaN.
    Any,
    /// A NaN result must have the oracle's bits.
    Strict,
}

/// Options shared by `diff`, `fuzz` and `reduce`: which engines, how to compare.
#[derive(Clone, Debug, Args)]
pub struct EngineArgs {
    /// Engines, comma-separated: interp, jit, valhall, and the opt-in mesa (ARB programs on
    /// llvmpipe through OSMesa) and virgl (TGSI vertex and fragment programs through
    /// virglrenderer's virgl_test_server on llvmpipe). The oracle (interp) always runs;
    /// every other engine is compared with it. Engines this build lacks, or that cannot
    /// run here, are skipped with a note.
    #[arg(
        long,
        value_delimiter = ',',
        default_value = shaderdiff_backends::ENGINE_LIST,
        value_name = "LIST"
    )]
    pub backends: Vec<String>,
    /// NaN comparison: any NaN matches any NaN, or (strict) the oracle's bits.
    #[arg(long, value_enum, default_value_t = NanArg::Any)]
    pub nan: NanArg,
    /// Most instructions one invocation may execute (oracle and engines).
    #[arg(long, value_name = "N", default_value_t = 1_000_000,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub step_limit: u64,
    /// Switch on a catalogued miscompilation in the engine that owns it (`shaderdiff faults`).
    #[arg(long, value_name = "NAME")]
    pub inject_fault: Option<String>,
    /// Seed of the thread schedule of engines that choose one (valhall: warp interleaving
    /// and the order of a warp's atomics). Every seed gives a legal execution.
    #[arg(long, value_name = "S", default_value_t = 0)]
    pub schedule_seed: u64,
    /// Denormal operands and results of float arithmetic: kept (ieee), flushed to a zero of
    /// the same sign (flush), or either, per channel [default: what each engine's class in
    /// oracle/precision.toml allows].
    #[arg(long, value_enum, value_name = "MODE")]
    pub denormals: Option<crate::outcomes::DenormalArg>,
}

impl EngineArgs {
    /// Builds the differ. Prints one note on stderr per engine this build does not have.
    ///
    /// # Errors
    /// Unknown engine or fault names: [`Failure::BadInput`]; no engine left to compare with
    /// the oracle: [`Failure::Unsupported`].
    pub fn differ(&self) -> Result<Differ, Failure> {
        self.differ_with(self.step_limit, true)
    }

    /// Whether at least one engine besides the oracle was asked for and every one of them
    /// is a run-time engine that cannot run here (`--backends interp,nvidia` on a machine
    /// without an NVIDIA GPU).
    pub fn only_unavailable(&self) -> bool {
        let asked: Vec<&String> = self.backends.iter().filter(|b| *b != ORACLE).collect();
        !asked.is_empty()
            && asked
                .iter()
                .all(|b| shaderdiff_backends::unavailable_reason(b).is_some())
    }

    /// [`EngineArgs::differ`] with another step budget; `notes`: print the notes (a
    /// second differ for the same command stays quiet).
    ///
    /// # Errors
    /// As [`EngineArgs::differ`].
    pub fn differ_with(&self, step_limit: u64, notes: bool) -> Result<Differ, Failure> {
        for b in &self.backends {
            if REGISTRY.get(b).is_none() {
                let known: Vec<&str> = REGISTRY.names().collect();
                return Err(Failure::BadInput(format!(
                    "--backends: unknown engine `{b}` (known: {})",
                    known.join(", ")
                )));
            }
        }
        let owner = crate::faults::check(self.inject_fault.as_deref())?;
        let (engines, missing) = engines_from_names_seeded(
            &self.backends,
            self.step_limit,
            self.inject_fault.as_deref(),
            self.schedule_seed,
        );
        for m in missing.iter().filter(|_| notes) {
            match shaderdiff_backends::unavailable_reason(m) {
                Some(why) => {
                    eprintln!("shaderdiff: engine {m} is not available here ({why}); skipping")
                }
                None => {
                    eprintln!("shaderdiff: engine {m} is not available in this build; skipping")
                }
            }
        }
        if let (Some(o), Some(f)) = (owner, &self.inject_fault) {
            if notes && !engines.iter().any(|e| e.name() == o) {
                eprintln!("shaderdiff: fault {f} belongs to engine {o}, which is not compared");
            }
        }
        if engines.is_empty() {
            return Err(Failure::Unsupported(format!(
                "no engine to compare against the oracle ({ORACLE}); pass --backends {ORACLE},jit"
            )));
        }
        let nan = match self.nan {
            NanArg::Any => NanPolicy::Any,
            NanArg::Strict => NanPolicy::Strict,
        };
        // Known-deviation rules (results/triage/ENGINE/) turn covered mismatches into
        // `known`, as `diff --recorded` judges them.
        let names: Vec<String> = engines.iter().map(|e| e.name().to_string()).collect();
        let known = crate::triage::EngineRules::for_engines(&names).map_err(Failure::BadInput)?;
        Differ::new(engines, step_limit, nan)
            .map(|d| {
                d.with_denormals(self.denormals.map(Into::into))
                    .with_known(known)
            })
            .map_err(Failure::BadInput)
    }
}

/// `shaderdiff diff` arguments.
#[derive(Debug, Args)]
pub struct DiffArgs {
    /// Program files, or directories of them (`*.tgsi`, `*.nv`).
    #[arg(required = true, value_name = "PROGRAM|DIR")]
    pub paths: Vec<PathBuf>,
    /// Engines and comparison options.
    #[command(flatten)]
    pub engines: EngineArgs,
    /// Inputs file for every program (INTERFACE.md "The inputs file"); default: the
    /// program's NAME.inputs.json beside it if present, else all zero.
    #[arg(long, value_name = "FILE.json")]
    pub inputs: Option<PathBuf>,
    /// Also compare on N generated input sets (special values and random bits).
    #[arg(long, value_name = "N", default_value_t = 0,
          value_parser = clap::value_parser!(u64).range(0..=100_000))]
    pub random_inputs: u64,
    /// Seed of the generated input sets.
    #[arg(long, value_name = "S", default_value_t = 0)]
    pub seed: u64,
    /// Invocations [default: the inputs file's count, else 4; generated sets: 16].
    #[arg(long, value_name = "N",
          value_parser = clap::value_parser!(u64).range(1..=MAX_INVOCATIONS as u64))]
    pub invocations: Option<u64>,
    /// Output format (json: one report object per program, one per line).
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Judge the results recorded beside each program (`NAME.ENGINE.json`) instead of
    /// running engines (INTERFACE.md "Recorded results").
    #[arg(long)]
    pub recorded: bool,
}

/// The program files named by `paths` (directories expanded, sorted).
///
/// # Errors
/// A directory without program files, or that cannot be read.
pub fn program_files(paths: &[PathBuf]) -> Result<Vec<PathBuf>, Failure> {
    let mut out = Vec::new();
    for p in paths {
        if p.is_dir() {
            let rd = std::fs::read_dir(p)
                .map_err(|e| Failure::BadInput(format!("{}: cannot read: {e}", p.display())))?;
            let mut files: Vec<PathBuf> = rd
                .flatten()
                .map(|e| e.path())
                .filter(|f| {
                    f.is_file()
                        && f.extension()
                            .is_some_and(|x| PROGRAM_EXTENSIONS.iter().any(|e| x == *e))
                })
                .collect();
            if files.is_empty() {
                return Err(Failure::BadInput(format!(
                    "{}: no program files (*.tgsi, *.nv, *.arbvp, *.arbfp, *.nvvp, *.nvfp, *.nvgp) in this directory",
                    p.display()
                )));
            }
            files.sort();
            out.extend(files);
        } else {
            out.push(p.clone());
        }
    }
    Ok(out)
}

/// File extensions `diff` takes from a directory: TGSI text and NV / ARB assembly (the
/// corpus spellings: `.nv`, `.arbvp`, `.arbfp`, `.nvvp`, `.nvfp`, `.nvgp`).
pub const PROGRAM_EXTENSIONS: &[&str] = &[
    "tgsi", "nv", "arbvp", "arbfp", "nvvp", "nvfp", "nvgp", "nvcp",
];

/// `NAME.inputs.json` beside program `NAME.ext`.
pub fn sibling_inputs(program: &Path) -> PathBuf {
    let stem = program
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    program.with_file_name(format!("{stem}.inputs.json"))
}

/// Loads an inputs file against `program`.
///
/// # Errors
/// [`Failure::BadInput`] with the file's `line:col`.
pub fn load_inputs(
    file: &Path,
    program: &Program,
    count: Option<usize>,
) -> Result<Inputs, Failure> {
    load_inputs_named(file, program, count, None)
}

/// [`load_inputs`] for a program that may be NV assembly: its inputs file is keyed by NV
/// names (INTERFACE.md "The inputs file").
///
/// # Errors
/// [`Failure::BadInput`] with the file's `line:col`.
pub fn load_inputs_named(
    file: &Path,
    program: &Program,
    count: Option<usize>,
    names: Option<&NvNames>,
) -> Result<Inputs, Failure> {
    let text = lang::read_text(file).map_err(Failure::BadInput)?;
    let keys = names.map(|n| move |s: &str| n.key(s));
    let keys = keys.as_ref().map(|f| f as inputs::KeyMap);
    inputs::load_with(&text, &file.display().to_string(), program, count, keys)
        .map_err(|e| Failure::BadInput(e.to_string()))
}

/// `n` generated input sets for `program` (seeded by `seed`, set `k` from stream `k`).
pub fn random_inputs(program: &Program, seed: u64, n: u64, invocations: usize) -> Vec<Inputs> {
    (0..n)
        .map(|k| inputs_for(program, &mut inputs_choices(seed, k), invocations))
        .collect()
}

/// The report of one program on `sets` (compares, then locates each diverging engine's
/// first divergence).
pub fn report(differ: &Differ, name: &str, program: &Program, sets: &[Inputs]) -> DiffReport {
    let diffs = differ.diff_inputs(program, sets);
    let mut sigs = Vec::new();
    for (e, engine) in differ.engines().iter().enumerate() {
        let first = diffs.iter().enumerate().find_map(|(k, d)| {
            d.engines
                .get(e)
                .filter(|o| o.outcome.diverged())
                .map(|o| (k, o.outcome.clone()))
        });
        if let Some((k, outcome)) = first {
            let d = locate(differ, e, program, &sets[k], &outcome);
            sigs.push(SignatureRecord::new(&d, engine.name()));
        }
    }
    DiffReport::new(name, &differ.engine_names(), &diffs, sigs)
}

/// Runs `shaderdiff diff`; returns the exit status.
pub fn execute(args: &DiffArgs) -> u8 {
    if args.recorded {
        return crate::recorded::execute(args);
    }
    let fail = |f: Failure| {
        eprintln!("{}", f.message());
        f.code()
    };
    let differ = match args.engines.differ() {
        Ok(d) => d,
        // Every engine asked for is one that needs something absent here (the note above
        // said so): nothing to compare is not an error on such a machine.
        Err(Failure::Unsupported(_)) if args.engines.only_unavailable() => return 0,
        Err(f) => return fail(f),
    };
    let files = match program_files(&args.paths) {
        Ok(f) => f,
        Err(f) => return fail(f),
    };
    let count = args.invocations.map(|n| n as usize);
    let (mut bad, mut diverged, mut compared) = (false, false, false);
    for file in &files {
        let name = file.display().to_string();
        let loaded = load_program_named(file).and_then(|(program, names)| {
            let mut sets = Vec::new();
            let sibling = sibling_inputs(file);
            if let Some(f) = &args.inputs {
                sets.push(load_inputs_named(f, &program, count, names.as_ref())?);
            } else if sibling.is_file() {
                sets.push(load_inputs_named(
                    &sibling,
                    &program,
                    count,
                    names.as_ref(),
                )?);
            } else if args.random_inputs == 0 {
                sets.push(
                    inputs::defaults(&program, count)
                        .map_err(|e| Failure::BadInput(e.to_string()))?,
                );
            }
            let n = count.unwrap_or(RANDOM_INVOCATIONS);
            sets.extend(random_inputs(&program, args.seed, args.random_inputs, n));
            crate::common::prepare_sets(&program, names.as_ref(), &mut sets, &name)?;
            Ok((program, sets, names))
        });
        let r = match loaded {
            Ok((program, sets, names)) => {
                let mut r = report(&differ, &name, &program, &sets);
                if let Some(n) = &names {
                    for m in &mut r.mismatches {
                        m.mismatch.register = n.rename(&m.mismatch.register);
                    }
                }
                r
            }
            Err(f @ Failure::Unsupported(_)) => {
                // NV assembly the lowering does not support yet: reported like any program
                // no engine supports.
                let mut r = DiffReport::new(&name, &differ.engine_names(), &[], Vec::new());
                r.verdict = "unsupported".into();
                r.oracle_error = Some(f.message().to_string());
                r
            }
            Err(f) => {
                eprintln!("{}", f.message());
                bad = true;
                continue;
            }
        };
        match r.verdict.as_str() {
            "mismatch" | "error" => diverged = true,
            "agree" | "known" => compared = true,
            _ => {}
        }
        if r.verdict == "mismatch" {
            compared = true;
        }
        if r.verdict == "error" {
            if let Some(e) = &r.oracle_error {
                eprintln!("{name}: {e}");
            }
        }
        let text = match args.format {
            Format::Json => r.to_json_line() + "\n",
            Format::Text => r.to_text(10),
        };
        if let Err(f) = crate::common::emit(&text) {
            return fail(f);
        }
    }
    if bad {
        2
    } else if diverged {
        1
    } else if !compared {
        3
    } else {
        0
    }
}
