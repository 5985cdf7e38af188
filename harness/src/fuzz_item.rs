//! One program of a campaign in either language (`fuzz --lang tgsi|nv|mixed`).
//!
//! * `tgsi`: program `i` is `shaderdiff_generators::random::generate(seed, i, config)`,
//!   exactly as before NV campaigns existed.
//! * `nv`: program `i` is `shaderdiff_generators::nv::generate(seed, i, ..)` (its own
//!   ChaCha keys), lowered to the shared IR, its inputs completed by
//!   [`crate::nv_runtime::prepare`] (global window, shared memory, compute bindings); the
//!   engines run the lowered program and findings are written as the NV text
//!   (`program.nv`) with inputs keyed by NV names.
//! * `arb` (`--lang nv --arb-only`): program `i` is
//!   `shaderdiff_generators::nv::generate_arb(seed, i, ..)`, ARB programs only.
//! * `nv-alu` (`--lang nv --nv-alu-only`): the `nv` campaign's generator with
//!   `NvFeatures::NONE`: vertex and fragment ALU programs only (what the NV fault checks
//!   reduce to a few instructions).
//! * `mixed`: even indices are the TGSI program `i` of the `tgsi` campaign, odd indices the
//!   NV program `i` of the `nv` campaign, so the choice depends on the index only and
//!   every program can be regenerated alone.

use shaderdiff_generators::nv as nv_gen;
use shaderdiff_generators::random::{generate, Generated};
use shaderdiff_model::Program;
use shaderdiff_nv::NameMap;
use shaderdiff_oracles::Inputs;

use crate::fuzz::Campaign;
use crate::inputs_json;

/// A generated program of either language, ready for the engines.
#[derive(Clone, Debug)]
pub struct FuzzItem {
    /// Campaign seed.
    pub seed: u64,
    /// Program number within the campaign.
    pub index: u64,
    /// The program text as written to findings (TGSI or NV assembly, stamped).
    pub text: String,
    /// The program the engines run (for NV: the lowering).
    pub program: Program,
    /// Inputs keyed by IR registers.
    pub inputs: Inputs,
    /// NV names of the program's registers, for NV programs.
    pub nv_names: Option<NameMap>,
}

impl FuzzItem {
    /// Whether the program is NV assembly.
    pub fn is_nv(&self) -> bool {
        self.nv_names.is_some()
    }

    /// File extension of its findings (`tgsi` or `nv`, INTERFACE.md "fuzz output
    /// directory").
    pub fn ext(&self) -> &'static str {
        if self.is_nv() {
            "nv"
        } else {
            "tgsi"
        }
    }

    /// The inputs file text, keyed as the program names its registers.
    pub fn inputs_json(&self) -> String {
        match &self.nv_names {
            Some(names) => inputs_json::to_json_nv(&self.inputs, names),
            None => inputs_json::to_json(&self.inputs),
        }
    }
}

impl From<Generated> for FuzzItem {
    fn from(g: Generated) -> FuzzItem {
        FuzzItem {
            seed: g.seed,
            index: g.index,
            text: g.text,
            program: g.program,
            inputs: g.inputs,
            nv_names: None,
        }
    }
}

/// Whether program `index` of a campaign in language `lang` is NV assembly.
pub fn index_is_nv(lang: &str, index: u64) -> bool {
    match lang {
        "nv" | "arb" | "nv-alu" => true,
        "mixed" => index % 2 == 1,
        _ => false,
    }
}

/// The version of the generator that makes the programs of a campaign in language `lang`
/// (`summary.json` and `progress.json` `generator_version`): the TGSI generator's
/// ([`shaderdiff_generators::GENERATOR_VERSION`], `0.2.0`) for `tgsi`, the NV generator's
/// ([`nv_gen::NV_GENERATOR_VERSION`], `nv-...`) for `nv` and `nv-alu`, the ARB generator's
/// ([`nv_gen::ARB_GENERATOR_VERSION`], `arb-...`) for `arb`, and both, TGSI first, joined
/// by `+` for `mixed` (`0.2.0+nv-...`). The NV and ARB versions carry their generator's
/// prefix, so a version names its generator.
pub fn generator_version(lang: &str) -> String {
    let tgsi = shaderdiff_generators::GENERATOR_VERSION;
    match lang {
        "nv" | "nv-alu" => nv_gen::NV_GENERATOR_VERSION.to_string(),
        "arb" => nv_gen::ARB_GENERATOR_VERSION.to_string(),
        "mixed" => format!("{tgsi}+{}", nv_gen::NV_GENERATOR_VERSION),
        _ => tgsi.to_string(),
    }
}

/// Program `index` of `campaign`, in the language its `--lang` gives that index.
///
/// An NV program the generator cannot lower (a generator bug; the generator's validity
/// test guards against it) is reported on stderr and replaced by the TGSI program of the
/// same index, so the campaign carries on.
pub fn item(campaign: &Campaign, index: u64) -> FuzzItem {
    if index_is_nv(&campaign.lang, index) {
        let (seed, max, n) = (
            campaign.seed,
            campaign.config.gen.max_instructions,
            campaign.config.invocations,
        );
        let wide = campaign.config.gen.wide;
        let generated = if campaign.lang == "arb" {
            nv_gen::generate_arb(seed, index, max, n)
        } else if campaign.lang == "nv-alu" {
            nv_gen::generate_featured(seed, index, max, n, wide, &nv_gen::NvFeatures::NONE)
        } else {
            nv_gen::generate_with(seed, index, max, n, wide)
        };
        // The global memory window, shared memory and compute bindings the generated
        // inputs (global regions) imply, as `run` builds them from an inputs file.
        let generated = generated.and_then(|mut g| {
            crate::nv_runtime::prepare(&g.lowered.program, &g.lowered.names, &mut g.inputs)?;
            Ok(g)
        });
        match generated {
            Ok(g) => {
                return FuzzItem {
                    seed: g.seed,
                    index: g.index,
                    text: g.text,
                    program: g.lowered.program,
                    inputs: g.inputs,
                    nv_names: Some(g.lowered.names),
                }
            }
            Err(e) => eprintln!(
                "shaderdiff: NV generator bug at seed {} index {index}: {e}; running the TGSI program instead",
                campaign.seed
            ),
        }
    }
    generate(campaign.seed, index, &campaign.config).into()
}
