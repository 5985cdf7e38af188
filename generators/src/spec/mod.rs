//! Spec-derived generation (`shaderdiff gen --spec`): a conformance suite with programs
//! for every opcode the reference interpreter implements, over the opcode's edge inputs.
//!
//! * ALU opcodes (`shaderdiff_model::check::alu::is_alu`): `OP OUT[0], IN[0], ...` in the
//!   variants `edge` (identity swizzles, writemask `.xyzw`, the full edge cross product
//!   up to 1024 combinations), `abs`, `neg`, `negabs` (source modifiers on every source),
//!   `sat`, `swz-broadcast` (`.yyyy`), `swz-reversed` (`.wzyx`), `wm-x` .. `wm-w`, and for
//!   opcodes whose precision bound only holds on an input range, `range` (inputs inside
//!   the range the caller passes in [`SpecConfig::ranges`]; [`SpecConfig::builtin`] takes
//!   them from the precision contract, `oracle/precision.toml`).
//! * Double and 64-bit integer opcodes: their own edges and variants ([`wide`]).
//! * Control flow, KILL/KILL_IF/DEMOTE, derivatives, address loads and the geometry
//!   EMIT/ENDPRIM: hand-written templates ([`control`]).
//! * Memory (LOAD, STORE, RESQ, ATOM*, BARRIER, MEMBAR): hand-written templates
//!   ([`memory`]) over BUFFER and SHARED memory, with edge addresses and operands.
//! * Inter-lane votes (VOTE_ANY, VOTE_ALL, VOTE_EQ, READ_FIRST): templates whose inputs
//!   decide the votes whatever the thread grouping ([`vote`]).
//! * Interpolation (INTERP_CENTROID, INTERP_SAMPLE, INTERP_OFFSET): hand-written
//!   templates over edge values and affine quads (`interp`).
//!
//! One invocation per input combination, or for componentwise opcodes one channel per
//! combination (counts rounded up to a multiple of 4). Every case is
//! written as `NAME.tgsi` (stamped, printed lossless) and `NAME.inputs.json`, with
//! `NAME = spec-<opcode>-<variant>` (opcode in lower case). The suite is deterministic: it
//! depends only on the generator version and the ranges.

mod alu;
mod control;
pub mod edges;
mod interp;
mod memory;
mod texture;
mod texture_cube;
mod texture_lod;
mod vote;
mod wide;

use shaderdiff_model::check::alu::is_alu;
use shaderdiff_model::Inputs;
use shaderdiff_model::{Opcode, Program, ALL_OPCODES};
use shaderdiff_oracles::precision::{Bound, BoundKind, PrecisionContract, RangeOf};
use shaderdiff_tgsi::{print_with, PrintOptions};

use crate::random::GENERATOR_VERSION;

/// An input range on which an approximate opcode's precision bound holds (from the
/// precision contract, e.g. SIN/COS on [-π, π]).
#[derive(Clone, Debug, PartialEq)]
pub struct ApproxRange {
    /// The opcode.
    pub opcode: Opcode,
    /// Which source the range constrains (0 = `x`, 1 = `y`).
    pub source: usize,
    /// The range constrains `|src|` (values of both signs are generated).
    pub abs: bool,
    /// Lower end (inclusive).
    pub lo: f64,
    /// Upper end (inclusive).
    pub hi: f64,
    /// Where the range is stated (for the program's header comment).
    pub citation: String,
}

impl ApproxRange {
    /// `|x| in [lo, hi] (citation)`, for the stamp.
    pub fn describe(&self) -> String {
        let name = ["x", "y", "z", "w"]
            .get(self.source)
            .copied()
            .unwrap_or("src");
        let v = if self.abs {
            format!("|{name}|")
        } else {
            name.to_string()
        };
        format!("{v} in [{}, {}] ({})", self.lo, self.hi, self.citation)
    }
}

/// Settings of the suite.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SpecConfig {
    /// Input ranges of approximate opcodes: one extra `range` variant each.
    pub ranges: Vec<ApproxRange>,
}

impl SpecConfig {
    /// The suite with a `range` variant for every input range the contract states an
    /// error bound on (any engine class), e.g. SIN/COS on `[-pi, pi]`, LG2 on `[0.5, 2]`,
    /// DIV on `|y|` in `[2^-126, 2^126]`.
    pub fn from_contract(contract: &PrecisionContract) -> SpecConfig {
        SpecConfig {
            ranges: contract_ranges(contract),
        }
    }

    /// [`SpecConfig::from_contract`] of the built-in `oracle/precision.toml`.
    pub fn builtin() -> SpecConfig {
        SpecConfig::from_contract(PrecisionContract::builtin())
    }
}

/// Every distinct input range of an error bound in `contract`, in opcode order; ranges
/// stated for several engine classes appear once, citing all of them.
pub fn contract_ranges(contract: &PrecisionContract) -> Vec<ApproxRange> {
    let mut out: Vec<ApproxRange> = Vec::new();
    for op in contract.opcodes() {
        for (class, policy) in contract.classes().iter().enumerate() {
            let Some(c) = contract.op(op) else { continue };
            let Some(Bound {
                kind: BoundKind::Error(e),
                ..
            }) = c.bounds.get(class)
            else {
                continue;
            };
            let Some(r) = e.range else { continue };
            let (source, abs) = match r.of {
                RangeOf::X => (0, false),
                RangeOf::AbsX => (0, true),
                RangeOf::AbsY => (1, true),
            };
            let same = |a: &&mut ApproxRange| {
                a.opcode == op && a.source == source && a.abs == abs && a.lo == r.lo && a.hi == r.hi
            };
            match out.iter_mut().find(|a| same(a)) {
                Some(a) => a.citation.push_str(&format!(", {}", policy.name)),
                None => out.push(ApproxRange {
                    opcode: op,
                    source,
                    abs,
                    lo: r.lo,
                    hi: r.hi,
                    citation: format!("oracles/precision.toml, class {}", policy.name),
                }),
            }
        }
    }
    out
}

/// One program of the suite with its inputs.
#[derive(Clone, Debug, PartialEq)]
pub struct SpecCase {
    /// File name stem `spec-<opcode>-<variant>`.
    pub name: String,
    /// The opcode the case is about.
    pub opcode: Opcode,
    /// The variant (`edge`, `neg`, `wm-x`, `range`, `default-first`, ...).
    pub variant: String,
    /// The program.
    pub program: Program,
    /// Its inputs: one invocation (componentwise opcodes: one channel) per input
    /// combination; the invocation count is a multiple of 4.
    pub inputs: Inputs,
    /// Stamp comment lines followed by the program printed lossless.
    pub text: String,
}

impl SpecCase {
    fn new(
        opcode: Opcode,
        variant: &str,
        program: Program,
        inputs: Inputs,
        note: Option<String>,
    ) -> SpecCase {
        let name = format!("spec-{}-{variant}", opcode.name().to_ascii_lowercase());
        let mut text = format!(
            "# shaderdiff-gen {GENERATOR_VERSION} spec opcode={} variant={variant} invocations={}\n",
            opcode.name(),
            inputs.invocations
        );
        if let Some(n) = note {
            text.push_str(&format!("# range {n}\n"));
        }
        text.push_str(&print_with(&program, &PrintOptions { lossless: true }));
        SpecCase {
            name,
            opcode,
            variant: variant.to_string(),
            program,
            inputs,
            text,
        }
    }
}

/// The non-ALU opcodes the suite covers with templates.
pub const CONTROL_OPCODES: &[Opcode] = &[
    Opcode::IF,
    Opcode::UIF,
    Opcode::BGNLOOP,
    Opcode::CONT,
    Opcode::SWITCH,
    Opcode::CAL,
    Opcode::END,
    Opcode::NOP,
    Opcode::KILL,
    Opcode::KILL_IF,
    Opcode::KIL,
    Opcode::KILP,
    Opcode::DEMOTE,
    Opcode::DDX,
    Opcode::DDY,
    Opcode::DDX_FINE,
    Opcode::DDY_FINE,
    Opcode::EMIT,
    Opcode::ENDPRIM,
];

/// The texture opcodes the suite covers with templates (the oracle's texture model).
pub const TEXTURE_OPCODES: &[Opcode] = &shaderdiff_model::check::texture::TEXTURE_OPCODES;

/// Every opcode the suite has programs for: the oracle's ALU opcodes,
/// [`CONTROL_OPCODES`], the memory opcodes (the oracle's
/// `shaderdiff_model::check::memory::is_memory_opcode`, templates in [`memory`]) and
/// [`TEXTURE_OPCODES`] (templates in `texture`) and the votes (templates in [`vote`]), in
/// opcode order. (ELSE, ENDIF, ENDLOOP, BRK, CASE, DEFAULT,
/// ENDSWITCH, RET, BGNSUB and ENDSUB appear inside the templates of their openers.)
pub fn spec_opcodes() -> Vec<Opcode> {
    ALL_OPCODES
        .iter()
        .copied()
        .filter(|&op| {
            is_alu(op)
                || CONTROL_OPCODES.contains(&op)
                || shaderdiff_model::check::memory::is_memory_opcode(op)
                || TEXTURE_OPCODES.contains(&op)
                || vote::VOTE_OPCODES.contains(&op)
                || interp::INTERP_OPCODES.contains(&op)
        })
        .collect()
}

/// The whole suite, in opcode order (ALU variants, then templates).
pub fn suite(cfg: &SpecConfig) -> Vec<SpecCase> {
    let mut out: Vec<SpecCase> = spec_opcodes()
        .into_iter()
        .filter(|&op| is_alu(op))
        .flat_map(|op| alu::cases(op, &cfg.ranges))
        .collect();
    out.extend(control::cases());
    out.extend(memory::cases());
    out.extend(texture::cases());
    out.extend(texture_lod::cases());
    out.extend(vote::cases());
    out.extend(interp::cases());
    out.extend(texture_cube::cases());
    out
}
