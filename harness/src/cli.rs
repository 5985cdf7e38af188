//! The `shaderdiff` command line (INTERFACE.md "Commands"): `check`, `run` and `gen`
//! ([`crate::gen_cmd`]).
//!
//! Exit status (INTERFACE.md): 0 success; 1 the run failed (step limit, call depth);
//! 2 bad usage or bad input (unparsable program, malformed inputs file, unknown register),
//! with a one-line message on stderr naming the file and, for programs, `line:col`;
//! 3 the program is valid but the chosen engine does not support something it uses.

use std::io::Write;
use std::path::{Path, PathBuf};

use clap::{Args, Parser, Subcommand, ValueEnum};
use shaderdiff_backends::{self as backends, EngineConfig, EngineError};
use shaderdiff_ir::nv::{self, NvProgram};
use shaderdiff_ir::tgsi::{self, PrintOptions};
use shaderdiff_ir::{File, Program};
use shaderdiff_oracles::RegKey;

use crate::inputs::{self, MAX_INVOCATIONS};
use crate::lang::{self, Lang};
use crate::output;

/// `shaderdiff`: a differential conformance harness for shader compilers.
#[derive(Debug, Parser)]
#[command(name = "shaderdiff", version, about, long_about = None)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Parse and validate programs; --print writes them in canonical form.
    Check(CheckArgs),
    /// Run a program on one engine and print its output registers.
    Run(RunArgs),
    /// Generate programs with inputs: seeded random (--seed/--count) or the spec suite (--spec).
    Gen(crate::gen_cmd::GenArgs),
    /// Run programs on the oracle and every other engine and compare them.
    Diff(crate::diff_cmd::DiffArgs),
    /// Differential campaign: generated programs on the oracle and every engine.
    Fuzz(crate::fuzz_cmd::FuzzArgs),
    /// Minimize a program on which an engine diverges, keeping the divergence signature.
    Reduce(crate::reduce_cmd::ReduceArgs),
    /// List the fault catalogue: NAME ENGINE DESCRIPTION, one per line.
    Faults,
    /// Run a conformance suite: JUnit, baselines, retries, partitions (deqp-runner style).
    Conform(crate::conform_cmd::ConformArgs),
    /// Combine the output directories of a campaign's shards (fuzz --shard I/N).
    Merge(crate::merge_cmd::MergeArgs),
    /// Worker process of `fuzz` and `conform` (internal: started by them).
    #[command(hide = true)]
    Worker(crate::worker_cmd::WorkerArgs),
    /// Valhall machine code: `disasm HEXBYTES...` and `asm TEXT...`.
    Valhall(crate::valhall_cmd::ValhallArgs),
    /// Print what a backend compiles a program to (jit: --emit clif).
    Compile(crate::compile_cmd::CompileArgs),
}

/// `shaderdiff check PROGRAM... [--print] [--lossless]`.
#[derive(Debug, Args)]
pub struct CheckArgs {
    /// Program files (TGSI text or NV assembly).
    #[arg(required = true, value_name = "PROGRAM")]
    pub programs: Vec<PathBuf>,
    /// Write each program in canonical form (TGSI as Mesa's tgsi_dump prints it, NV
    /// assembly one statement per line) to stdout.
    #[arg(long)]
    pub print: bool,
    /// With --print: write float immediates with enough digits to keep their exact bits
    /// (tgsi_dump's `%10.4f` loses them). NV assembly always prints its literals as written.
    #[arg(long, requires = "print")]
    pub lossless: bool,
}

/// `shaderdiff run PROGRAM [--backend ..] [--inputs ..] [--invocations N] [--format ..]`.
#[derive(Debug, Args)]
pub struct RunArgs {
    /// Program file (TGSI text, or NV / ARB assembly lowered to the IR).
    #[arg(value_name = "PROGRAM")]
    pub program: PathBuf,
    /// Engine to run on.
    #[arg(long, value_enum, default_value_t = Engine::Interp)]
    pub backend: Engine,
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
}

/// Engine names (INTERFACE.md "Binary and engines").
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Engine {
    /// The reference interpreter.
    Interp,
    /// The Cranelift JIT backend.
    Jit,
    /// The Valhall backend.
    Valhall,
    /// Mesa's llvmpipe through OSMesa (ARB programs; needs libOSMesa at run time).
    Mesa,
    /// virglrenderer (TGSI to GLSL) on llvmpipe through virgl_test_server (TGSI vertex and
    /// fragment programs; needs the virgl-server package at run time).
    Virgl,
    /// NVIDIA's OpenGL driver through EGL's device platform (NV_gpu_program4/5 and ARB
    /// vertex and fragment programs; needs an EGL device whose GL_VENDOR is NVIDIA).
    Nvidia,
}

impl Engine {
    /// The name on the command line and in reports.
    pub fn name(self) -> &'static str {
        match self {
            Engine::Interp => "interp",
            Engine::Jit => "jit",
            Engine::Valhall => "valhall",
            Engine::Mesa => "mesa",
            Engine::Virgl => "virgl",
            Engine::Nvidia => "nvidia",
        }
    }
}

/// Output formats of `run`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// A table for people.
    Text,
    /// INTERFACE.md "`run --format json` output".
    Json,
}

/// Why a command did not succeed: the exit status and a one-line message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Failure {
    /// Exit 1: the run failed (step limit, call depth) or an output could not be written.
    Failed(String),
    /// Exit 2: bad usage or bad input.
    BadInput(String),
    /// Exit 3: valid, but the engine does not support it.
    Unsupported(String),
}

impl Failure {
    /// The process exit status.
    pub fn code(&self) -> u8 {
        match self {
            Failure::Failed(_) => 1,
            Failure::BadInput(_) => 2,
            Failure::Unsupported(_) => 3,
        }
    }
    /// The one-line message.
    pub fn message(&self) -> &str {
        match self {
            Failure::Failed(m) | Failure::BadInput(m) | Failure::Unsupported(m) => m,
        }
    }
}

/// A parsed program of either language.
pub enum Loaded {
    /// TGSI text, parsed and validated.
    Tgsi(Program),
    /// NVIDIA assembly, parsed (engines run it after `shaderdiff_ir::nv::lower`).
    Nv(NvProgram),
}

/// Reads, detects and parses one program file of either language (`check`).
///
/// Errors: unreadable or non-UTF-8 file and parse/validation errors → [`Failure::BadInput`]
/// (`file:line:col: message`).
pub fn load_any(path: &Path) -> Result<Loaded, Failure> {
    let text = lang::read_text(path).map_err(Failure::BadInput)?;
    let name = path.display().to_string();
    match lang::detect(&text) {
        Lang::Nv => nv::parse(&text, &name)
            .map(Loaded::Nv)
            .map_err(|e| Failure::BadInput(e.to_string())),
        Lang::Tgsi => tgsi::parse(&text, &name)
            .map(Loaded::Tgsi)
            .map_err(|e| Failure::BadInput(e.to_string())),
    }
}

/// The NV names of a lowered NV program's registers (INTERFACE.md: inputs and outputs
/// are keyed by the register as the program names it).
#[derive(Clone, Debug)]
pub struct NvNames {
    /// The lowering's name map.
    pub names: nv::NameMap,
    /// The program's stage (names are normalised per stage).
    pub stage: nv::NvStage,
    /// Vertices of a per-vertex input (`vertex[m].*`): the geometry program's input
    /// primitive, 32 for tessellation evaluation programs (MAX_PATCH_VERTICES_NV); `None`
    /// for other stages.
    pub vertices: Option<u32>,
}

impl NvNames {
    /// The NV name of an IR register (its binding text; `vertex[m].…` for a geometry
    /// program's per-vertex input, `emit[v].result.…` for an emitted vertex's result), or
    /// the IR name when it has none.
    pub fn name_of(&self, k: &RegKey) -> String {
        self.names
            .name_of_key(k.file, k.dimension, k.index)
            .unwrap_or_else(|| k.to_string())
    }

    /// The IR register an inputs-file key names (a binding such as `program.local[0]`,
    /// `vertex[1].attrib[0]` in a geometry program, or a declared variable name).
    ///
    /// Errors: a name the program does not read.
    pub fn key(&self, name: &str) -> Result<RegKey, String> {
        if let (Some(k), Some(n)) = (nv_key(&self.names, self.stage, name), self.vertices) {
            if k.dimension.is_some_and(|m| m >= n) {
                return Err(format!(
                    "unknown register {name:?}: the program's vertices are vertex[0] to vertex[{}]",
                    n - 1
                ));
            }
        }
        nv_key(&self.names, self.stage, name).ok_or_else(|| {
            let geometry = self.stage == nv::NvStage::Geometry;
            let mut known: Vec<String> = self
                .names
                .entries
                .iter()
                .filter(|(_, f, _)| matches!(f, File::Input | File::Const | File::SystemValue))
                .map(|(n, f, _)| match n.strip_prefix("vertex.") {
                    Some(attr) if geometry && *f == File::Input => format!("vertex[m].{attr}"),
                    _ => n.clone(),
                })
                .collect();
            known.dedup();
            format!(
                "unknown register {name:?}: the program reads {}",
                if known.is_empty() {
                    "no inputs or parameters".to_string()
                } else {
                    known.join(", ")
                }
            )
        })
    }

    /// Renames the registers of diff records (`OUT[0]` → `result.color`).
    pub fn rename(&self, register: &str) -> String {
        match crate::value::parse_reg_name(register) {
            Ok(k) => self.name_of(&k),
            Err(_) => register.to_string(),
        }
    }
}

/// The register key of an NV name ([`nv::NameMap::lookup_key`]: bindings, variable names,
/// `vertex[m].*` per-vertex inputs), `None` when the program has no such register.
pub fn nv_key(names: &nv::NameMap, stage: nv::NvStage, name: &str) -> Option<RegKey> {
    names
        .lookup_key(stage, name)
        .map(|(file, dimension, index)| RegKey {
            file,
            dimension,
            index,
        })
}

/// Reads, detects and parses (with validation) one program file for the engines; NV
/// assembly is lowered to the IR (`shaderdiff_ir::nv::lower`) and comes with its names.
///
/// Errors: unreadable or non-UTF-8 file and parse/validation errors → [`Failure::BadInput`]
/// (`file:line:col: message`, NV assembly included); NV assembly using something the
/// lowering does not support yet (condition codes, memory, textures, 64-bit ...) →
/// [`Failure::Unsupported`] naming the instruction at `file:line:col`.
pub fn load_program_named(path: &Path) -> Result<(Program, Option<NvNames>), Failure> {
    match load_any(path)? {
        Loaded::Tgsi(p) => Ok((p, None)),
        Loaded::Nv(p) => {
            let name = path.display();
            let l = nv::lower(&p).map_err(|e| match e {
                nv::LowerError::Unsupported { .. } => Failure::Unsupported(format!("{name}:{e}")),
                nv::LowerError::Invalid { .. } => Failure::BadInput(format!("{name}:{e}")),
            })?;
            let vertices = match l.program.stage {
                shaderdiff_ir::Stage::Geometry => l.program.gs_input_vertices(),
                shaderdiff_ir::Stage::TessEval => Some(nv::MAX_PATCH_VERTICES),
                _ => None,
            };
            Ok((
                l.program,
                Some(NvNames {
                    names: l.names,
                    stage: l.stage,
                    vertices,
                }),
            ))
        }
    }
}

/// [`load_program_named`] without the names (NV register names are then the IR's).
///
/// Errors: as [`load_program_named`].
pub fn load_program(path: &Path) -> Result<Program, Failure> {
    load_program_named(path).map(|(p, _)| p)
}

/// Runs a parsed command line; returns the exit status. Messages go to stderr, results
/// to stdout.
pub fn execute(cli: Cli) -> u8 {
    match cli.command {
        Command::Check(a) => check(&a),
        Command::Gen(a) => crate::gen_cmd::execute(&a),
        Command::Diff(a) => crate::diff_cmd::execute(&a),
        Command::Fuzz(a) => crate::fuzz_cmd::execute(&a),
        Command::Reduce(a) => crate::reduce_cmd::execute(&a),
        Command::Compile(a) => crate::compile_cmd::execute(&a),
        Command::Conform(a) => crate::conform_cmd::execute(&a),
        Command::Merge(a) => crate::merge_cmd::execute(&a),
        Command::Worker(a) => crate::worker_cmd::execute(&a),
        Command::Valhall(a) => crate::valhall_cmd::execute(&a),
        Command::Faults => match emit(&crate::faults::listing()) {
            Ok(()) => 0,
            Err(f) => {
                eprintln!("{}", f.message());
                f.code()
            }
        },
        Command::Run(a) => match run(&a) {
            Ok(()) => 0,
            Err(f) => {
                eprintln!("{}", f.message());
                f.code()
            }
        },
    }
}

/// Writes to stdout; a closed pipe (`| head`) is not an error.
pub fn emit(text: &str) -> Result<(), Failure> {
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        Err(e) => Err(Failure::Failed(format!("cannot write to stdout: {e}"))),
    }
}

/// `check`: every file is checked; the exit status is 2 if any file is bad input, else 3
/// if any is unsupported, else 0 (1 if stdout cannot be written).
fn check(args: &CheckArgs) -> u8 {
    let mut status = 0u8;
    let rank = |c: u8| match c {
        2 => 3,
        3 => 2,
        c => c,
    };
    for path in &args.programs {
        let result = load_any(path).and_then(|loaded| match loaded {
            Loaded::Tgsi(p) => {
                if args.print {
                    let opts = PrintOptions {
                        lossless: args.lossless,
                    };
                    emit(&tgsi::print_with(&p, &opts))
                } else {
                    emit(&format!(
                        "{}: ok ({}, {} instructions)\n",
                        path.display(),
                        p.stage,
                        p.instructions.len()
                    ))
                }
            }
            Loaded::Nv(p) => {
                if args.print {
                    emit(&nv::print(&p))
                } else {
                    emit(&format!(
                        "{}: ok ({}, {} instructions)\n",
                        path.display(),
                        p.header.text(),
                        p.instructions().count()
                    ))
                }
            }
        });
        if let Err(f) = result {
            eprintln!("{}", f.message());
            if rank(f.code()) > rank(status) {
                status = f.code();
            }
        }
    }
    status
}

/// `run`: parse, read the inputs, pick the engine from the registry
/// (`shaderdiff_backends::engine`), run, print.
fn run(args: &RunArgs) -> Result<(), Failure> {
    let (program, nv_names) = load_program_named(&args.program)?;
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
    crate::nv_runtime::prepare_sets(&program, nv_names.as_ref(), &mut sets, &from)?;
    let [inputs] = sets;
    crate::faults::check(args.inject_fault.as_deref())?;
    let backend = args.backend.name();
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

/// Maps an engine error to its exit status ([`EngineError::exit_code`], INTERFACE.md):
/// unsupported → 3, invalid program or inputs → 2, a failed run (step limit, call depth,
/// trap) → 1. The message starts with the program file, and `line:col` when known.
pub(crate) fn engine_failure(program: &str, e: EngineError) -> Failure {
    let located = matches!(
        &e,
        EngineError::Unsupported { pos: Some(_), .. }
            | EngineError::InvalidProgram { pos: Some(_), .. }
    );
    let mut msg = if located {
        format!("{program}:{e}")
    } else {
        format!("{program}: {e}")
    };
    if matches!(e, EngineError::StepLimit { .. }) {
        msg.push_str("; raise it with --step-limit");
    }
    match e.exit_code() {
        3 => Failure::Unsupported(msg),
        2 => Failure::BadInput(msg),
        _ => Failure::Failed(msg),
    }
}
