//! `shaderdiff gen [--lang tgsi|nv] (--seed S --count N | --spec) --out DIR` (INTERFACE.md
//! "Commands"): writes generated programs as `DIR/NAME.tgsi` with `DIR/NAME.inputs.json`.
//!
//! * `--seed S --count N`: programs `--start` .. `--start + N - 1` of campaign `S`
//!   (`shaderdiff_generators::random::generate`), named `gen-S-IIIIII`. The same seed,
//!   indices, options and generator version give byte-identical files on any machine.
//! * `--spec`: the spec-derived conformance suite (`shaderdiff_generators::spec`), named
//!   `spec-<opcode>-<variant>`, with `range` variants for the input ranges the precision
//!   contract (`oracle/precision.toml`) states bounds on.
//!
//! **Defined-only is the default** for `--seed`: every result of every generated program
//! is defined for all inputs, so a campaign or a checked-in corpus can never show a
//! difference the specification allows (no false positives), and no invocation is lost to
//! an undefined branch. `--allow-undefined` lifts that (the comparators then skip the
//! undefined channels). The spec suite deliberately contains undefined edges (IDIV by 0,
//! F2I of NaN ...): there the oracle marks them and comparators skip them.
//!
//! * `--lang nv --seed S --count N`: random NV assembly programs
//!   (`shaderdiff_generators::nv::generate`), named `gen-nv-S-IIIIII.EXT` with the
//!   extension of their header (`nvfp`, `nvvp`, `nvgp`, `nvcp`, `arbfp`, `arbvp`) and inputs keyed by NV
//!   names (`vertex.attrib[0]`, `program.local[1]`). `--allow-undefined` and `--no-swarm`
//!   do not apply to NV programs.
//! * `--lang nv --spec`: the spec-derived NV_gpu_program5 suite
//!   (`shaderdiff_generators::nv::spec`): one `!!NVvp5.0` and one `!!NVfp5.0` program per
//!   Table X.13 instruction × data type × modifier the lowering supports, on edge values,
//!   named `nv-spec-<vp|fp>-<op>-<type>[-<modifier>].nvvp|nvfp` with NV-keyed inputs.
//! * `--lang nv --spec --arb-only`: the spec-derived ARB suite
//!   (`shaderdiff_generators::nv::arb_spec`), `arb-spec-<fp|vp>-<op>[-sat].arbfp|arbvp`.
//!
//! Exit status: 0 written; 2 bad usage (`--arb-only` without `--lang nv`, `--spec` with
//! `--seed` or the random-program options, ...); 4 the output directory or a file could
//! not be written (`--out` naming an existing file included) or (a generator bug) a
//! generated NV program failed to lower. One summary line on stdout.

use std::path::{Path, PathBuf};

use clap::{Args, ValueEnum};
use shaderdiff_generators::nv as nv_gen;
use shaderdiff_generators::random::{generate, RandomConfig};
use shaderdiff_generators::spec::{self, SpecConfig};
use shaderdiff_generators::GENERATOR_VERSION;
use shaderdiff_oracles::Inputs;

use crate::common::Failure;
use crate::inputs_json;

/// Languages `gen` can write.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum GenLang {
    /// TGSI text.
    Tgsi,
    /// NVIDIA assembly (`--seed`, or `--spec` for the NV_gpu_program5 suite).
    Nv,
}

/// `shaderdiff gen` arguments.
#[derive(Debug, Args)]
pub struct GenArgs {
    /// Language of the programs.
    #[arg(long, value_enum, default_value_t = GenLang::Tgsi)]
    pub lang: GenLang,
    /// Campaign seed (with --count).
    #[arg(long, value_name = "S", requires = "count", conflicts_with = "spec")]
    pub seed: Option<u64>,
    /// Number of programs (with --seed).
    #[arg(long, value_name = "N", requires = "seed",
          value_parser = clap::value_parser!(u64).range(1..))]
    pub count: Option<u64>,
    /// First program index (with --seed).
    #[arg(long, value_name = "I", default_value_t = 0, requires = "seed")]
    pub start: u64,
    /// Write the spec-derived conformance suite instead of random programs.
    #[arg(long, required_unless_present_any = ["seed", "count"])]
    pub spec: bool,
    /// Output directory (created if missing).
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
    /// Invocations per random program (rounded up to a multiple of 4 for FRAG).
    #[arg(long, value_name = "N", default_value_t = 16, conflicts_with = "spec",
          value_parser = clap::value_parser!(u64).range(1..=65536))]
    pub invocations: u64,
    /// Approximate instruction budget per random program.
    #[arg(long, value_name = "N", default_value_t = 48, conflicts_with = "spec",
          value_parser = clap::value_parser!(u64).range(1..=100000))]
    pub max_instructions: u64,
    /// Only programs whose every result is defined (the default; see --allow-undefined).
    #[arg(long, conflicts_with = "allow_undefined")]
    pub defined_only: bool,
    /// Also generate operations whose result the specification leaves undefined for some
    /// inputs (IDIV by 0, F2I of NaN, coarse derivatives ...).
    #[arg(long, conflicts_with = "spec")]
    pub allow_undefined: bool,
    /// Swarm testing off: every program may use every feature and opcode.
    #[arg(long, conflicts_with = "spec")]
    pub no_swarm: bool,
    /// Also the 64-bit opcodes (doubles and 64-bit integers) in TGSI programs, and 64-bit
    /// statements (LONG TEMPs, PK64 / UP64, F64 / S64 / U64 operations, CVT) in NV programs:
    /// the generator of `fuzz --64bit`.
    #[arg(long = "64bit", conflicts_with_all = ["spec", "arb_only"])]
    pub wide: bool,
    /// With `--lang nv`: only `!!ARBfp1.0` / `!!ARBvp1.0` programs, using every ARB ALU
    /// instruction (what Mesa's ARB assemblers accept); with `--spec`, the spec-derived
    /// ARB suite (every ARB instruction on edge values).
    #[arg(long)]
    pub arb_only: bool,
}

/// Runs `gen`; returns the exit status (messages on stderr, the summary on stdout).
pub fn execute(args: &GenArgs) -> u8 {
    match run(args) {
        Ok(summary) => {
            println!("{summary}");
            0
        }
        Err(f) => {
            eprintln!("{}", f.message());
            f.code()
        }
    }
}

fn put(file: PathBuf, body: &str) -> Result<(), Failure> {
    std::fs::write(&file, body)
        .map_err(|e| Failure::Run(format!("{}: cannot write: {e}", file.display())))
}

fn write(dir: &Path, name: &str, text: &str, inputs: &Inputs) -> Result<(), Failure> {
    put(dir.join(format!("{name}.tgsi")), text)?;
    put(
        dir.join(format!("{name}.inputs.json")),
        &inputs_json::to_json(inputs),
    )
}

/// `gen --lang nv --seed S --count N`: writes `NAME.EXT` and `NAME.inputs.json`.
fn run_nv(args: &GenArgs, seed: u64, count: u64, end: u64) -> Result<String, Failure> {
    let (max, n) = (args.max_instructions as usize, args.invocations as usize);
    for index in args.start..end {
        let g = if args.arb_only {
            nv_gen::generate_arb(seed, index, max, n)
        } else {
            nv_gen::generate_with(seed, index, max, n, args.wide)
        }
        .map_err(|e| {
            Failure::Run(format!(
                "gen --lang nv: seed {seed} index {index}: generator bug: {e}"
            ))
        })?;
        let name = g.name();
        put(args.out.join(format!("{name}.{}", g.extension())), &g.text)?;
        put(
            args.out.join(format!("{name}.inputs.json")),
            &inputs_json::to_json_nv(&g.inputs, &g.lowered.names),
        )?;
    }
    Ok(format!(
        "gen --lang nv: wrote {count} programs (seed {seed}, indices {}..{}, generator {}) to {}",
        args.start,
        end.saturating_sub(1),
        if args.arb_only {
            nv_gen::ARB_GENERATOR_VERSION
        } else {
            nv_gen::NV_GENERATOR_VERSION
        },
        args.out.display()
    ))
}

/// Writes NV spec-suite cases as `NAME.EXT` and `NAME.inputs.json` (NV-keyed).
fn write_nv_cases(args: &GenArgs, cases: &[nv_gen::SpecCase]) -> Result<(), Failure> {
    for c in cases {
        put(args.out.join(format!("{}.{}", c.name, c.ext)), &c.text)?;
        put(
            args.out.join(format!("{}.inputs.json", c.name)),
            &inputs_json::to_json_nv(&c.inputs, &c.lowered.names),
        )?;
    }
    Ok(())
}

/// `gen --lang nv --spec --arb-only`: the spec-derived ARB suite
/// (`shaderdiff_generators::nv::arb_spec`), `NAME.arbfp|arbvp` and `NAME.inputs.json`.
fn run_arb_spec(args: &GenArgs) -> Result<String, Failure> {
    let cases = nv_gen::arb_spec::suite()
        .map_err(|e| Failure::Run(format!("gen --spec --arb-only: generator bug: {e}")))?;
    write_nv_cases(args, &cases)?;
    Ok(format!(
        "gen --spec --arb-only: wrote {} ARB programs ({} edge values per operand channel) to {}",
        cases.len(),
        nv_gen::arb_spec::EDGE_VALUES.len(),
        args.out.display()
    ))
}

/// `gen --lang nv --spec`: the spec-derived NV_gpu_program5 suite
/// (`shaderdiff_generators::nv::spec`), `NAME.nvvp|nvfp` and `NAME.inputs.json`.
fn run_nv_spec(args: &GenArgs) -> Result<String, Failure> {
    let cases = nv_gen::spec::suite()
        .map_err(|e| Failure::Run(format!("gen --lang nv --spec: generator bug: {e}")))?;
    write_nv_cases(args, &cases)?;
    let ops: std::collections::BTreeSet<&str> =
        nv_gen::spec::families().iter().map(|f| f.row.op).collect();
    Ok(format!(
        "gen --lang nv --spec: wrote {} NV_gpu_program5 programs covering {} Table X.13 instructions to {}",
        cases.len(),
        ops.len(),
        args.out.display()
    ))
}

fn run(args: &GenArgs) -> Result<String, Failure> {
    if args.arb_only && args.lang != GenLang::Nv {
        return Err(Failure::BadInput("gen --arb-only needs --lang nv".into()));
    }
    std::fs::create_dir_all(&args.out).map_err(|e| {
        Failure::Run(format!(
            "{}: cannot create the output directory: {e}",
            args.out.display()
        ))
    })?;
    let dir = args.out.display();
    if args.lang == GenLang::Nv && args.spec {
        return if args.arb_only {
            run_arb_spec(args)
        } else {
            run_nv_spec(args)
        };
    }
    if args.spec {
        let cases = spec::suite(&SpecConfig::builtin());
        for c in &cases {
            write(&args.out, &c.name, &c.text, &c.inputs)?;
        }
        let opcodes = spec::spec_opcodes().len();
        return Ok(format!(
            "gen --spec: wrote {} programs covering {opcodes} opcodes (generator {GENERATOR_VERSION}) to {dir}",
            cases.len()
        ));
    }
    let (Some(seed), Some(count)) = (args.seed, args.count) else {
        return Err(Failure::BadInput(
            "gen: give --seed S --count N, or --spec".into(),
        ));
    };
    let end = args.start.checked_add(count).ok_or_else(|| {
        Failure::BadInput(format!(
            "gen: --start {} + --count {count} overflows",
            args.start
        ))
    })?;
    if args.lang == GenLang::Nv {
        return run_nv(args, seed, count, end);
    }
    let mut cfg = RandomConfig::with_defined_only(!args.allow_undefined);
    cfg.invocations = args.invocations as usize;
    cfg.gen.max_instructions = args.max_instructions as usize;
    cfg.gen.swarm = !args.no_swarm;
    cfg.gen.wide = args.wide;
    for index in args.start..end {
        let g = generate(seed, index, &cfg);
        write(&args.out, &g.name(), &g.text, &g.inputs)?;
    }
    let mode = if args.allow_undefined {
        "undefined allowed"
    } else {
        "defined-only"
    };
    Ok(format!(
        "gen: wrote {count} programs (seed {seed}, indices {}..{}, {mode}, generator {GENERATOR_VERSION}) to {dir}",
        args.start,
        end.saturating_sub(1)
    ))
}
