//! `shaderdiff compile PROGRAM --backend valhall|jit --emit asm|hex|clif` (INTERFACE.md
//! "Commands"): print what a backend compiles a program to.
//!
//! * `--backend jit --emit clif`: the program's Cranelift IR as the jit lowers it (one
//!   function that runs every quad), before Cranelift's own passes.
//! * `--backend jit --emit asm|hex`: exit 3, the jit emits CLIF only.
//! * `--backend valhall --emit asm`: the Valhall assembly, one instruction per line, in the
//!   text format of `assembler-cases.txt`; `--emit hex`: the same instructions as machine
//!   code, one line of 8 hex bytes (little-endian, as `valhall disasm` reads them) each.
//!
//! Exit status as for `run`: 2 for unreadable or invalid programs, 3 when the program uses
//! something the backend does not support (decided before compiling), 1 when stdout cannot
//! be written.

use std::path::PathBuf;

use clap::{Args, ValueEnum};
use shaderdiff_backends::{self as backends, EngineConfig, Listing};

use crate::common::{emit, engine_failure, engine_parser, load_program, Failure};

/// `shaderdiff compile PROGRAM --backend valhall|jit --emit asm|hex|clif`.
#[derive(Debug, Args)]
pub struct CompileArgs {
    /// Program file (TGSI text).
    #[arg(value_name = "PROGRAM")]
    pub program: PathBuf,
    /// Backend that compiles it.
    // The registry's engines that print a listing (`EngineDescriptor::emits`).
    #[arg(long, value_parser = engine_parser(|d| !d.emits.is_empty()))]
    pub backend: String,
    /// What to print.
    #[arg(long, value_enum)]
    pub emit: Emit,
}

/// Output forms of `compile`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Emit {
    /// Assembly text (Valhall).
    Asm,
    /// Encoded machine code as hex bytes (Valhall).
    Hex,
    /// Cranelift IR text (jit).
    Clif,
}

impl Emit {
    /// The registry's name for this form ([`backends::EngineDescriptor::emits`]).
    pub fn listing(self) -> Listing {
        match self {
            Emit::Asm => Listing::Asm,
            Emit::Hex => Listing::Hex,
            Emit::Clif => Listing::Clif,
        }
    }
}

/// Runs `compile`; returns the exit status (messages on stderr, the listing on stdout).
pub fn execute(args: &CompileArgs) -> u8 {
    match compile(args) {
        Ok(()) => 0,
        Err(f) => {
            eprintln!("{}", f.message());
            f.code()
        }
    }
}

fn compile(args: &CompileArgs) -> Result<(), Failure> {
    let program = load_program(&args.program)?;
    let name = args.program.display().to_string();
    let backend = args.backend.as_str();
    crate::engine_limits::check(backend, &program)
        .map_err(|e| Failure::BadInput(format!("{name}: {e}")))?;
    let engine = backends::engine(backend, &EngineConfig::default()).ok_or_else(|| {
        Failure::Unsupported(format!(
            "{name}: engine `{backend}` is not available in this build"
        ))
    })?;
    let emits = backends::REGISTRY.get(backend).map_or(&[][..], |d| d.emits);
    if !emits.contains(&args.emit.listing()) {
        let emits: Vec<&str> = emits.iter().map(|l| l.name()).collect();
        let emits = emits.join(" and ");
        return Err(Failure::Unsupported(
            format!("{name}: {backend} emits {emits}, not {:?}", args.emit).to_lowercase(),
        ));
    }
    engine
        .check(&program)
        .map_err(|e| engine_failure(&name, e))?;
    let compiled = engine
        .prepare(&program)
        .map_err(|e| engine_failure(&name, e))?;
    let listing = if args.emit == Emit::Hex {
        compiled.machine_code().map(|bytes| {
            bytes
                .chunks_exact(8)
                .map(|w| {
                    let word: [u8; 8] = w.try_into().expect("chunks of 8");
                    format!("{}\n", shaderdiff_valhall::format_hex(&word))
                })
                .collect::<String>()
        })
    } else {
        compiled.listing()
    };
    let listing = listing.ok_or_else(|| {
        Failure::Unsupported(format!("{name}: {backend} has no listing to print"))
    })?;
    emit(&listing)
}
