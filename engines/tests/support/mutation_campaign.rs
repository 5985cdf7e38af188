//! A seeded, bounded differential campaign against one engine, for mutation testing
//! (`docs/mutation-testing.md`): the test an engine crate's `tests/mutation_campaign.rs`
//! runs, and the only test cargo-mutants runs on that crate's lowering code.
//!
//! Programs come from the campaign generators exactly as `shaderdiff fuzz` draws them
//! (`harness/src/fuzz_item.rs`): TGSI from `random::generate` with the campaign defaults
//! (also with `--64bit` and `--memory`; `--max-instructions` 48, 8 or 16 in turn), NV from `nv::generate_with` with its inputs
//! completed by `nv_runtime::prepare`. Each program runs on the oracle and the engine
//! through the same [`Differ`] `fuzz` builds (`engines_from_names`, NaN policy `any`, the
//! default step budget), and any engine divergence (mismatch or failure) fails the test
//! with the first few diverging programs named by mode, seed and index. Programs the
//! engine's static check (`Engine::check`) refuses are skipped; a program it accepts and
//! then refuses while compiling or running fails the test too (a lowering that gives up is
//! as wrong as one that miscompiles).
//!
//! Size: `SHADERDIFF_MUTANTS_PROGRAMS` programs (default [`DEFAULT_PROGRAMS`], small
//! enough for CI), campaign seed `SHADERDIFF_MUTANTS_SEED` (default [`DEFAULT_SEED`]).

use shaderdiff_compare::diff::{engines_from_names, Differ};
use shaderdiff_compare::nv_runtime;
use shaderdiff_generators::nv as nv_gen;
use shaderdiff_generators::random::{generate, RandomConfig};
use shaderdiff_model::Program;
use shaderdiff_oracles::precision::NanPolicy;
use shaderdiff_oracles::Inputs;

/// Programs per run when `SHADERDIFF_MUTANTS_PROGRAMS` is unset.
pub const DEFAULT_PROGRAMS: u64 = 40;
/// Campaign seed when `SHADERDIFF_MUTANTS_SEED` is unset.
pub const DEFAULT_SEED: u64 = 25;
/// `fuzz --step-limit`'s default (`harness/src/cmd/diff.rs`).
const STEP_LIMIT: u64 = 1_000_000;

/// The generator modes a campaign cycles through, by program index.
#[derive(Clone, Copy, Debug)]
enum Mode {
    /// `fuzz` (TGSI, campaign defaults).
    Tgsi,
    /// `fuzz --64bit`.
    Wide,
    /// `fuzz --memory`.
    Memory,
    /// `fuzz --lang nv`.
    Nv,
    /// `fuzz --lang nv --64bit`.
    Nv64,
}

const MODES: [Mode; 5] = [Mode::Tgsi, Mode::Wide, Mode::Memory, Mode::Nv, Mode::Nv64];

/// `fuzz --max-instructions` per round of [`MODES`]: the default 48, and short programs,
/// in which a larger share of the results reaches an output (the generator writes each
/// output once at the end from one register, so most long programs leave many results
/// unobserved).
const SIZES: [usize; 3] = [48, 8, 16];

fn env_u64(name: &str, default: u64) -> u64 {
    match std::env::var(name) {
        Ok(v) => v
            .parse()
            .unwrap_or_else(|_| panic!("{name}={v}: not a number")),
        Err(_) => default,
    }
}

/// Program `index` of campaign `seed` in `mode`, as `fuzz --max-instructions max`
/// generates it.
fn item(mode: Mode, max: usize, seed: u64, index: u64) -> (Program, Inputs) {
    let mut cfg = RandomConfig::default();
    cfg.gen.max_instructions = max;
    let n = cfg.invocations;
    let nv = |wide| {
        let mut g = nv_gen::generate_with(seed, index, max, n, wide)
            .unwrap_or_else(|e| panic!("NV generator bug at seed {seed} index {index}: {e}"));
        nv_runtime::prepare(&g.lowered.program, &g.lowered.names, &mut g.inputs)
            .unwrap_or_else(|e| panic!("NV inputs at seed {seed} index {index}: {e}"));
        (g.lowered.program, g.inputs)
    };
    match mode {
        Mode::Nv => nv(false),
        Mode::Nv64 => nv(true),
        Mode::Tgsi | Mode::Wide | Mode::Memory => {
            cfg.gen.wide = matches!(mode, Mode::Wide);
            cfg.gen.memory = matches!(mode, Mode::Memory);
            let g = generate(seed, index, &cfg);
            (g.program, g.inputs)
        }
    }
}

/// Runs the campaign against engine `engine` and panics naming the diverging programs.
pub fn run(engine: &str) {
    let programs = env_u64("SHADERDIFF_MUTANTS_PROGRAMS", DEFAULT_PROGRAMS);
    let seed = env_u64("SHADERDIFF_MUTANTS_SEED", DEFAULT_SEED);
    let (engines, missing) = engines_from_names(&[engine.to_string()], STEP_LIMIT, None);
    assert!(missing.is_empty(), "engine {engine} is not in this build");
    let differ = Differ::new(engines, STEP_LIMIT, NanPolicy::Any).expect("differ");
    let mut diverged = Vec::new();
    let mut compared = 0;
    for index in 0..programs {
        let modes = MODES.len() as u64;
        let (mode, stream) = (MODES[(index % modes) as usize], index / modes);
        let max = SIZES[(stream % SIZES.len() as u64) as usize];
        let (program, inputs) = item(mode, max, seed, stream);
        // The engine's static check declares what it supports (`Engine::check`): a
        // program it declares is not skipped when its lowering later refuses it.
        if differ.engines()[0].check(&program).is_err() {
            continue;
        }
        let d = differ.diff(&program, &inputs);
        if d.oracle.is_err() {
            continue;
        }
        compared += 1;
        if d.diverged() || d.unsupported() > 0 {
            let what = if d.diverged() {
                "diverged"
            } else {
                "refused after check"
            };
            diverged.push(format!(
                "{mode:?} --max-instructions {max} seed {seed} index {stream} {what}"
            ));
        }
    }
    assert!(
        diverged.is_empty(),
        "{engine}: {} of {compared} compared programs diverged from the oracle or were refused, first: {:?}",
        diverged.len(),
        &diverged[..diverged.len().min(5)]
    );
    assert!(
        compared * 2 >= programs,
        "{engine}: only {compared} of {programs} programs compared"
    );
}
