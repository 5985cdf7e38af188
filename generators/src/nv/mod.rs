//! Random NVIDIA assembly programs, valid by construction (`shaderdiff gen --lang nv`).
//!
//! Program `index` of campaign `seed` is drawn from its own ChaCha8 [`Choices`] stream,
//! keyed apart from the TGSI generator's streams (so TGSI campaigns are unchanged), and
//! inputs come from a second, independent stream. A program is one of `!!NVfp5.0`,
//! `!!NVvp5.0`, `!!ARBfp1.0` or `!!ARBvp1.0`; [`build_text`] writes it as text that
//! `shaderdiff_nv::parse` accepts and `shaderdiff_nv::lower` lowers:
//!
//! * declarations: `TEMP`, `PARAM` bound to `program.local[n]` and vector constants,
//!   `ATTRIB` bound to `vertex.attrib[n]` / `fragment.texcoord[n]`, and (NV vertex
//!   programs) `OUTPUT` bound to `result.attrib[n]`;
//! * float ALU with swizzles, `-`, `|..|`, write masks, `.SAT` / `.SSAT`; typed integer
//!   operations (`.S`, `.U`) and set-on comparisons per type (NV headers only);
//! * condition codes (NV headers): `.CC` / `.CC0` / `.CC1` updates and conditional write
//!   masks (`(GT.x)`, `(NE1.xyzw)`), `IF`/`ELSE`/`ENDIF` on a condition, `REP n` with a
//!   literal count of at most [`MAX_REP`] (so loops terminate) and conditional or plain
//!   `BRK` / `CONT`;
//! * `KIL` in fragment programs.
//!
//! Every TEMP (and, in NV programs, both condition codes) is set from 0 before the first
//! statement, since they start undefined (NV_gpu_program4 §2.X.3.4, §2.X.3.7); every
//! output is written at the end. The validity test (`tests` below) parses, prints,
//! re-parses and lowers thousands of seeds; a program the lowering refuses is a generator
//! bug.

pub mod arb_spec;
mod emit;
pub mod features;
pub mod fuzz;
mod resources;
pub mod spec;
pub mod spec_atom;
pub mod spec_table;

use rand_chacha::rand_core::SeedableRng;
use rand_chacha::ChaCha8Rng;
use shaderdiff_model::{File, Stage};
use shaderdiff_model::{Inputs, RegKey};
use shaderdiff_nv::{self as nv, Lowered, NvProgram};

use crate::choices::Choices;
use crate::inputs::channel_word;

pub use emit::{
    build_arb_text, build_program, build_text, build_text_with, Built, NvKind, MAX_REP,
};
pub use features::NvFeatures;
pub use fuzz::NvFuzzProgram;

/// Version of the NV generator's output; bump it whenever the same seed would give a
/// different NV program or inputs.
pub const NV_GENERATOR_VERSION: &str = "nv-0.5.0";

/// Domain-separation tags of the NV generator's ChaCha keys (distinct from the TGSI ones).
const PROGRAM_KEY: u64 = 0x6e76_2d70_726f_6731; // "nv-prog1"
const INPUTS_KEY: u64 = 0x6e76_2d69_6e70_7431; // "nv-inpt1"
/// Key of the ARB-only mode's programs ([`generate_arb`]); its inputs use [`INPUTS_KEY`].
const ARB_PROGRAM_KEY: u64 = 0x6172_622d_7072_6731; // "arb-prg1"

/// Version of the ARB-only generator's output ([`generate_arb`]).
pub const ARB_GENERATOR_VERSION: &str = "arb-0.1.0";

/// One generated NV program: its text, syntax tree, lowering and inputs.
#[derive(Clone, Debug)]
pub struct NvGenerated {
    /// Campaign seed.
    pub seed: u64,
    /// Program number within the campaign.
    pub index: u64,
    /// Which header the program has.
    pub kind: NvKind,
    /// The canonical text of [`NvGenerated::ast`] (`nv::print`) with a stamp comment
    /// after the header line; it parses back to the same tree.
    pub text: String,
    /// The parsed program.
    pub ast: NvProgram,
    /// The lowered program (IR and name map).
    pub lowered: Lowered,
    /// Inputs keyed by IR registers: a value for every `IN` and `CONST` register the name
    /// map names (every attribute and `program.local[n]` the program reads). Write them
    /// with NV names through [`Lowered::names`].
    pub inputs: Inputs,
}

impl NvGenerated {
    /// File name stem: `gen-nv-<seed>-<index, 6 digits>`.
    pub fn name(&self) -> String {
        format!("gen-nv-{}-{:06}", self.seed, self.index)
    }

    /// File extension INTERFACE.md / README name for this kind (`nvfp`, `nvvp`, `arbfp`,
    /// `arbvp`).
    pub fn extension(&self) -> &'static str {
        self.kind.extension()
    }
}

/// One program of a spec-derived suite ([`arb_spec::suite`], [`spec::suite`]).
#[derive(Clone, Debug)]
pub struct SpecCase {
    /// File stem (`arb-spec-fp-add`, `nv-spec-vp-add-s-cc`).
    pub name: String,
    /// File extension: `arbfp`, `arbvp`, `nvfp` or `nvvp`.
    pub ext: &'static str,
    /// Program text.
    pub text: String,
    /// Its lowering (for NV-keyed inputs).
    pub lowered: Lowered,
    /// Inputs keyed by IR registers.
    pub inputs: Inputs,
}

fn rng(seed: u64, key: u64, index: u64) -> ChaCha8Rng {
    let mut k = [0u8; 32];
    k[..8].copy_from_slice(&seed.to_le_bytes());
    k[8..16].copy_from_slice(&key.to_le_bytes());
    let mut r = ChaCha8Rng::from_seed(k);
    r.set_stream(index);
    r
}

/// The decision stream of NV program `index` of campaign `seed`.
pub fn program_choices(seed: u64, index: u64) -> Choices<'static> {
    Choices::from_rng(rng(seed, PROGRAM_KEY, index), None)
}

/// The decision stream of the inputs of NV program `index` of campaign `seed`.
pub fn inputs_choices(seed: u64, index: u64) -> Choices<'static> {
    Choices::from_rng(rng(seed, INPUTS_KEY, index), None)
}

/// Parses and lowers generated text; the error names the stage that refused it (a
/// generator bug).
pub fn finish(text: &str) -> Result<(NvProgram, Lowered), String> {
    let ast = nv::parse(text, "generated.nv").map_err(|e| format!("parse: {e}"))?;
    let lowered = nv::lower(&ast).map_err(|e| format!("lower: {e}"))?;
    Ok((ast, lowered))
}

/// Inputs for a lowered program: every `IN` register the name map names gets one vec4
/// per invocation, every `CONST` register one uniform vec4, drawn with
/// [`channel_word`] in register order. `invocations` is rounded up to a multiple of 4
/// for fragment programs and to at least 1.
pub fn inputs_for_lowered(lowered: &Lowered, c: &mut Choices, invocations: usize) -> Inputs {
    let mut n = invocations.max(1);
    if lowered.program.stage == Stage::Fragment {
        n = n.div_ceil(4) * 4;
    }
    let mut inputs = Inputs {
        invocations: n,
        ..Inputs::default()
    };
    let mut regs: Vec<(File, u32)> = lowered
        .names
        .entries
        .iter()
        // `global.base` is derived from the `global` regions by the harness
        // (`shaderdiff::nv_runtime::prepare`), not an input.
        .filter(|(n, f, _)| matches!(f, File::Input | File::Const) && n != "global.base")
        .map(|&(_, f, i)| (f, i))
        .collect();
    regs.sort_by_key(|&(f, i)| (f != File::Input, i));
    regs.dedup();
    // Geometry programs: per-vertex inputs `IN[m][c]` for every vertex of the input
    // primitive (`vertex[m].attrib[k]`, NV_geometry_program4 Table X.2).
    let vertices = lowered.program.gs_input_vertices();
    for (f, i) in regs {
        let key = RegKey::new(f, i);
        if f == File::Input {
            let dims: Vec<Option<u32>> = match vertices {
                Some(v) if per_vertex(lowered, i) => (0..v).map(Some).collect(),
                _ => vec![None],
            };
            for dimension in dims {
                let v = (0..n).map(|_| [0; 4].map(|_| channel_word(c))).collect();
                inputs.registers.insert(RegKey { dimension, ..key }, v);
            }
        } else {
            inputs
                .constants
                .insert(key, [0; 4].map(|_| channel_word(c)));
        }
    }
    inputs
}

/// Whether input column `i` of a geometry program is per-vertex (named `vertex.*`).
fn per_vertex(lowered: &Lowered, i: u32) -> bool {
    lowered
        .names
        .entries
        .iter()
        .any(|(n, f, k)| *f == File::Input && *k == i && n.starts_with("vertex."))
}

/// Generates NV program `index` of campaign `seed` with `max_instructions` as the
/// approximate instruction budget and inputs for `invocations` invocations.
/// Deterministic: the same arguments give the same program and inputs on every machine.
///
/// Errors only when the generated text fails to parse or lower, which is a generator bug
/// (the validity test checks that it does not happen).
pub fn generate(
    seed: u64,
    index: u64,
    max_instructions: usize,
    invocations: usize,
) -> Result<NvGenerated, String> {
    generate_with(seed, index, max_instructions, invocations, false)
}

/// [`generate`], with 64-bit statements (LONG TEMPs, PK64 / UP64, F64 / S64 / U64
/// operations, CVT) in the NV programs when `wide` (`fuzz --lang nv --64bit`). Without
/// `wide` it is [`generate`]. The stamp records `lang=nv64` for wide campaigns.
///
/// Errors: as [`generate`].
pub fn generate_with(
    seed: u64,
    index: u64,
    max_instructions: usize,
    invocations: usize,
    wide: bool,
) -> Result<NvGenerated, String> {
    generate_featured(
        seed,
        index,
        max_instructions,
        invocations,
        wide,
        &NvFeatures::default(),
    )
}

/// [`generate_with`] with the feature knobs `features` ([`NvFeatures`]): the default
/// knobs give [`generate_with`]'s programs, [`NvFeatures::NONE`] vertex and fragment ALU
/// programs only. Inputs cover the program's registers and then its resources (global
/// region, CBUFFER / STORAGE bytes, textures; `resources.rs`), all from the inputs stream.
///
/// Errors: as [`generate`].
pub fn generate_featured(
    seed: u64,
    index: u64,
    max_instructions: usize,
    invocations: usize,
    wide: bool,
    features: &NvFeatures,
) -> Result<NvGenerated, String> {
    let b = build_program(
        &mut program_choices(seed, index),
        max_instructions,
        wide,
        features,
    );
    let mut c = inputs_choices(seed, index);
    stamp(
        seed,
        index,
        b.kind,
        &b.text,
        NV_GENERATOR_VERSION,
        if wide { "nv64" } else { "nv" },
        max_instructions,
        invocations,
        &mut c,
        &b.resources,
    )
}

/// ARB-only mode (`gen --lang nv --arb-only`, `fuzz --lang nv --arb-only`): program
/// `index` of campaign `seed` is a `!!ARBfp1.0` or `!!ARBvp1.0` program using every ARB
/// ALU instruction ([`build_arb_text`]), from its own ChaCha key; inputs as [`generate`].
///
/// Errors: as [`generate`] (a generator bug).
pub fn generate_arb(
    seed: u64,
    index: u64,
    max_instructions: usize,
    invocations: usize,
) -> Result<NvGenerated, String> {
    let mut c = Choices::from_rng(rng(seed, ARB_PROGRAM_KEY, index), None);
    let (kind, body) = build_arb_text(&mut c, max_instructions);
    let mut g = stamp(
        seed,
        index,
        kind,
        &body,
        ARB_GENERATOR_VERSION,
        "arb",
        max_instructions,
        invocations,
        &mut inputs_choices(seed, index),
        &features::Resources::default(),
    )?;
    // Inputs without -0 and denormals: GL varyings and attribute setup need not keep
    // them (GLSL 4.50 §4.7.1 "any denormalized value input into a shader ... can be
    // flushed to 0"; llvmpipe's interpolation turns -0 into +0, see
    // results/triage/mesa/precision.md), so campaigns look for other differences.
    let plain = |w: &mut u32| {
        if *w & 0x7f80_0000 == 0 {
            *w = 0;
        }
    };
    g.inputs
        .registers
        .values_mut()
        .flatten()
        .flatten()
        .for_each(plain);
    g.inputs.constants.values_mut().flatten().for_each(plain);
    Ok(g)
}

/// Parses and lowers `body`, draws its inputs (registers, then the resources `res`) from
/// `c` and stamps its text.
#[allow(clippy::too_many_arguments)]
fn stamp(
    seed: u64,
    index: u64,
    kind: NvKind,
    body: &str,
    version: &str,
    lang: &str,
    max_instructions: usize,
    invocations: usize,
    c: &mut Choices,
    res: &features::Resources,
) -> Result<NvGenerated, String> {
    let (ast, lowered) = finish(body).map_err(|e| format!("{e}\n{body}"))?;
    let mut inputs = inputs_for_lowered(&lowered, c, invocations);
    resources::add_resources(&mut inputs, &lowered, res, c);
    // The header must stay the first token (INTERFACE.md language detection), so the
    // stamp comment goes on the second line.
    let printed = nv::print(&ast);
    let (header, rest) = printed.split_once('\n').unwrap_or((printed.as_str(), ""));
    let text = format!(
        "{header}\n# shaderdiff-gen {version} lang={lang} seed={seed} index={index} invocations={} max-instructions={max_instructions}\n{rest}",
        inputs.invocations,
    );
    Ok(NvGenerated {
        seed,
        index,
        kind,
        text,
        ast,
        lowered,
        inputs,
    })
}

#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_compute;
#[cfg(test)]
mod tests_features;
