//! Seeded random TGSI programs for campaigns (`shaderdiff gen --seed`, `shaderdiff fuzz`).
//!
//! Program `index` of campaign `seed` is built from its own ChaCha8 stream: the generator is
//! keyed by `seed` and the stream number is `index`, so any program can be generated without
//! generating the ones before it (`--shard I/N` picks indices `i ≡ I mod N`), and the same
//! `(seed, index, config, GENERATOR_VERSION)` gives the same program and inputs on every
//! machine (ChaCha is defined on 32-bit words; the builder uses integer arithmetic and
//! ordered containers only). Inputs come from a second, independent key, so they do not
//! shift when a program needs more or fewer decisions.
//!
//! Every program's text starts with a stamp ([`stamp`], parsed back by [`Stamp::parse`])
//! that records the generator version and everything needed to regenerate it.

use rand_chacha::rand_core::SeedableRng;
use rand_chacha::ChaCha8Rng;
use shaderdiff_model::Inputs;
use shaderdiff_model::{Opcode, Program, Stage};
use shaderdiff_tgsi::{print_with, PrintOptions};

use crate::choices::Choices;
use crate::inputs::inputs_for;
use crate::tgsi::{build, Features, GenConfig, Swarm};

/// Version of the generators' output. Bump it whenever the same seed and configuration
/// would give a different program or inputs, so stored corpora are recognised as stale.
pub const GENERATOR_VERSION: &str = "0.3.0";

/// Domain-separation tags of the two ChaCha keys derived from a campaign seed.
const PROGRAM_KEY: u64 = 0x7467_7369_2d70_726f; // "tgsi-pro"
const INPUTS_KEY: u64 = 0x7467_7369_2d69_6e70; // "tgsi-inp"

/// Configuration of a random campaign.
#[derive(Clone, Debug)]
pub struct RandomConfig {
    /// Program shape, features, swarm and defined-only settings.
    pub gen: GenConfig,
    /// Invocations per program (rounded up to a multiple of 4 for fragment programs).
    pub invocations: usize,
}

impl Default for RandomConfig {
    /// Campaign defaults: up to 48 instructions, vertex/fragment/compute/geometry, every feature,
    /// swarm testing on, **defined-only on** (a campaign must report no false positives:
    /// undefined results are skipped by the comparators anyway, but undefined decisions make
    /// whole invocations unconstrained and hide real bugs), float immediates of any bit
    /// pattern (text printed lossless), 16 invocations.
    fn default() -> Self {
        RandomConfig {
            gen: GenConfig {
                max_instructions: 48,
                max_depth: 3,
                syntax_coverage: false,
                mesa_exact_floats: false,
                stages: vec![
                    Stage::Vertex,
                    Stage::Fragment,
                    Stage::Compute,
                    Stage::Geometry,
                ],
                features: Features::ALL,
                opcodes: None,
                swarm: true,
                defined_only: true,
                wide: false,
                memory: false,
            },
            invocations: 16,
        }
    }
}

impl RandomConfig {
    /// The default configuration with defined-only mode set to `defined_only`.
    pub fn with_defined_only(defined_only: bool) -> RandomConfig {
        let mut c = RandomConfig::default();
        c.gen.defined_only = defined_only;
        c
    }
}

/// One generated program with its inputs.
#[derive(Clone, Debug, PartialEq)]
pub struct Generated {
    /// Campaign seed.
    pub seed: u64,
    /// Program number within the campaign.
    pub index: u64,
    /// The program.
    pub program: Program,
    /// Inputs for every declared IN and CONST register.
    pub inputs: Inputs,
    /// What the program drew (stage, features, opcodes).
    pub swarm: Swarm,
    /// Stamp comment lines followed by the program printed lossless:
    /// `tgsi::parse(&text) == program`.
    pub text: String,
}

impl Generated {
    /// File name stem: `gen-<seed>-<index, 6 digits>`.
    pub fn name(&self) -> String {
        format!("gen-{}-{:06}", self.seed, self.index)
    }
}

/// A ChaCha8 generator keyed by `(seed, key)` on stream `index`.
fn rng(seed: u64, key: u64, index: u64) -> ChaCha8Rng {
    let mut k = [0u8; 32];
    k[..8].copy_from_slice(&seed.to_le_bytes());
    k[8..16].copy_from_slice(&key.to_le_bytes());
    let mut r = ChaCha8Rng::from_seed(k);
    r.set_stream(index);
    r
}

/// The ChaCha8 generator of the program decisions of campaign `seed`, stream 0 (for
/// [`crate::fuzz`], which continues fuzzer bytes with it).
pub fn program_rng(seed: u64) -> ChaCha8Rng {
    rng(seed, PROGRAM_KEY, 0)
}

/// The decision stream of program `index` of campaign `seed`.
pub fn program_choices(seed: u64, index: u64) -> Choices<'static> {
    Choices::from_rng(rng(seed, PROGRAM_KEY, index), None)
}

/// The decision stream of the inputs of program `index` of campaign `seed`.
pub fn inputs_choices(seed: u64, index: u64) -> Choices<'static> {
    Choices::from_rng(rng(seed, INPUTS_KEY, index), None)
}

/// Generates program `index` of campaign `seed` under `cfg`, with its inputs and stamped
/// text. Deterministic (module docs); never panics.
pub fn generate(seed: u64, index: u64, cfg: &RandomConfig) -> Generated {
    let built = build(&mut program_choices(seed, index), &cfg.gen);
    let inputs = inputs_for(
        &built.program,
        &mut inputs_choices(seed, index),
        cfg.invocations,
    );
    let header = Stamp {
        version: GENERATOR_VERSION.to_string(),
        seed,
        index,
        defined_only: cfg.gen.defined_only,
        swarm: cfg.gen.swarm,
        invocations: inputs.invocations,
        max_instructions: cfg.gen.max_instructions,
    }
    .lines(&built.swarm);
    let text = header + &print_with(&built.program, &PrintOptions { lossless: true });
    Generated {
        seed,
        index,
        program: built.program,
        inputs,
        swarm: built.swarm,
        text,
    }
}

/// The first line of a generated program's stamp, parsed back:
/// `# shaderdiff-gen VERSION seed=S index=I mode=defined|any swarm=on|off invocations=N
/// max-instructions=M`. A second line `# swarm stage=.. features=.. opcodes=..` records the
/// draw (informational).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stamp {
    /// Generator version that wrote the program.
    pub version: String,
    /// Campaign seed.
    pub seed: u64,
    /// Program number.
    pub index: u64,
    /// Defined-only mode.
    pub defined_only: bool,
    /// Swarm testing.
    pub swarm: bool,
    /// Invocations of the inputs.
    pub invocations: usize,
    /// `GenConfig::max_instructions`.
    pub max_instructions: usize,
}

impl Stamp {
    /// The stamp comment lines (each ends in `\n`).
    pub fn lines(&self, swarm: &Swarm) -> String {
        format!(
            "# shaderdiff-gen {} seed={} index={} mode={} swarm={} invocations={} max-instructions={}\n\
             # swarm stage={} features={} opcodes={}\n",
            self.version,
            self.seed,
            self.index,
            if self.defined_only { "defined" } else { "any" },
            if self.swarm { "on" } else { "off" },
            self.invocations,
            self.max_instructions,
            swarm.stage,
            swarm.features.names(),
            opcode_names(&swarm.opcodes),
        )
    }

    /// Reads the stamp from the first line of `text`; `None` if it has none (not a
    /// generated program) or it is malformed.
    pub fn parse(text: &str) -> Option<Stamp> {
        let line = text.lines().next()?.trim();
        let mut words = line.strip_prefix('#')?.split_whitespace();
        if words.next()? != "shaderdiff-gen" {
            return None;
        }
        let version = words.next()?.to_string();
        let mut s = Stamp {
            version,
            seed: 0,
            index: 0,
            defined_only: false,
            swarm: false,
            invocations: 0,
            max_instructions: 0,
        };
        let mut seen = 0;
        for w in words {
            let (k, v) = w.split_once('=')?;
            match k {
                "seed" => s.seed = v.parse().ok()?,
                "index" => s.index = v.parse().ok()?,
                "mode" => {
                    s.defined_only = match v {
                        "defined" => true,
                        "any" => false,
                        _ => return None,
                    }
                }
                "swarm" => s.swarm = v == "on",
                "invocations" => s.invocations = v.parse().ok()?,
                "max-instructions" => s.max_instructions = v.parse().ok()?,
                _ => continue,
            }
            seen += 1;
        }
        (seen == 6).then_some(s)
    }

    /// Whether the stamp was written by this generator version (else the program may no
    /// longer be what its seed generates).
    pub fn is_current(&self) -> bool {
        self.version == GENERATOR_VERSION
    }

    /// The configuration that regenerates the program: [`RandomConfig::default`] with the
    /// stamp's mode, swarm, invocations and instruction budget.
    pub fn config(&self) -> RandomConfig {
        let mut c = RandomConfig::default();
        c.gen.defined_only = self.defined_only;
        c.gen.swarm = self.swarm;
        c.gen.max_instructions = self.max_instructions;
        c.invocations = self.invocations;
        c
    }
}

/// The generator version in the stamp on the first line of any generated program (seeded
/// or spec: `# shaderdiff-gen VERSION ...`); `None` when the text has no stamp. A stored
/// program whose version differs from [`GENERATOR_VERSION`] may be stale.
pub fn stamp_version(text: &str) -> Option<&str> {
    let mut w = text
        .lines()
        .next()?
        .trim()
        .strip_prefix('#')?
        .split_whitespace();
    (w.next()? == "shaderdiff-gen").then_some(())?;
    w.next()
}

/// Opcodes named in a swarm, for reports.
pub fn opcode_names(ops: &[Opcode]) -> String {
    ops.iter().map(|o| o.name()).collect::<Vec<_>>().join(",")
}
