//! The precision contract: how far an engine's result may lie from the infinitely precise
//! one, per opcode and per *engine class*, plus the NaN, signed-zero, denormal and overflow
//! policies the comparators apply.
//!
//! The contract is data: `oracle/precision.toml`, embedded with `include_str!` and parsed
//! once ([`PrecisionContract::builtin`]); [`PrecisionContract::parse`] reads any other file
//! with the same schema (errors name the file and `line:col`). Every bound in the file
//! carries a `source` citation (tgsi.rst, the Vulkan specification's "Precision and
//! Operation of SPIR-V Instructions", OpenCL C 1.2 §7.4, EXEC-NOTES.md).
//!
//! # Model
//!
//! * An **engine class** ([`EngineClass`], e.g. `cpu`, `gpu`) groups engines that promise
//!   the same precision; the file maps engine names (`interp`, `jit`, `valhall`) to classes.
//!   A class has policies ([`ClassPolicy`]): denormal flushing, which zero an exact zero
//!   result must have, what overflow may return, what a result that is not mathematically
//!   defined may be.
//! * Every opcode the oracle implements ([`contract_opcodes`]) has one [`Bound`] per class:
//!   - [`BoundKind::Exact`]: the engine must return what the oracle returns (the correctly
//!     rounded result, or the exact integer/bit result), subject to the NaN and zero policies;
//!   - [`BoundKind::Error`]: an [`ErrorBound`] in ULP and/or absolute error, optionally only
//!     on an input range (outside it: another bound, or no constraint at all);
//!   - [`BoundKind::FusedOrUnfused`]: any of the evaluations the interval engine enumerates
//!     for MAD, DP2/DP3/DP4/DPH, LRP and XPD (products rounded or fused; both LRP formulas);
//!   - [`BoundKind::Inherited`]: Vulkan's "inherited from a formula" rule ([`Formula`]);
//!   - [`BoundKind::Channels`]: channel-dependent opcodes (EXP, LOG, LIT) whose channels
//!     take the bound of another opcode.
//!
//! The oracle turns the contract into per-channel acceptance intervals
//! ([`crate::interp::run_with_intervals`]); the comparator ([`crate::compare`]) checks
//! engine results against them.

mod load;
mod num;

use std::collections::BTreeMap;
use std::sync::OnceLock;

use shaderdiff_model::{Opcode, ALL_OPCODES};
use thiserror::Error;

pub use num::parse_num;

/// The contract shipped with shaderdiff (`oracle/precision.toml`).
pub const BUILTIN_TEXT: &str = include_str!("../../precision.toml");

/// Why a contract file could not be loaded: `file:line:col: message` (the position is that
/// of the offending TOML key or value; `line` and `col` are 1-based, `col` counts characters).
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("{file}:{line}:{col}: {message}")]
pub struct ContractError {
    /// File name as given to [`PrecisionContract::parse`].
    pub file: String,
    /// 1-based line.
    pub line: usize,
    /// 1-based column (characters).
    pub col: usize,
    /// What is wrong.
    pub message: String,
}

/// A class of engines sharing one set of precision guarantees: an index into the contract's
/// class list. Obtain it with [`PrecisionContract::class`] or
/// [`PrecisionContract::class_of_engine`]; it is only meaningful for the contract it came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct EngineClass(pub(crate) u8);

impl EngineClass {
    /// Position of the class in [`PrecisionContract::classes`].
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// How NaN results are compared (INTERFACE.md `diff`; `--nan`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NanPolicy {
    /// Any NaN matches any NaN (EXEC-NOTES.md §0 "NaN bit patterns": compare by class).
    Any,
    /// When the oracle's result is a NaN the engine's must have the same bits.
    Strict,
}

/// Whether an engine class may flush denormals.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DenormalPolicy {
    /// Denormal inputs and results are kept (IEEE 754; tgsi_exec on x86-64, EXEC-NOTES.md §0).
    Preserve,
    /// Any denormal input of, or result of, a float arithmetic instruction may be replaced
    /// by ±0 (Vulkan "Precision and Operation of SPIR-V Instructions": "Any denormalized
    /// value ... may be flushed to zero"). Moves and selects never flush. Each instruction
    /// chooses for itself (the oracle's sets gain both zeros per instruction).
    FlushAllowed,
    /// Every denormal operand and result of float arithmetic is flushed to the zero of its
    /// sign (NV_gpu_program4 issue (18)); moves and selects never flush.
    Flush,
    /// The engine either keeps every denormal or flushes every one as [`Self::Flush`]
    /// (NV_gpu_program4 issue (18): denorms "are supported, but may be flushed to zero,
    /// preserving the sign bit"): the oracle admits both whole evaluations
    /// (`crate::interp::denormal`).
    FlushOrPreserve,
}

/// Which zero an exact zero result must have.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SignedZeroPolicy {
    /// -0 and +0 are different results.
    Exact,
    /// Either zero is accepted.
    Either,
}

/// What a bounded (non-exact) operation may return when its allowed range reaches beyond
/// the largest finite float.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OverflowPolicy {
    /// IEEE rounding: infinity only where round-to-nearest of some allowed value is infinite.
    Ieee,
    /// Vulkan: "operations may, additionally, return either an infinity of the appropriate
    /// sign or the finite number with the largest magnitude of the appropriate sign".
    InfOrMax,
}

/// What a bounded operation may return when its exact result is not mathematically defined
/// (log2 of a negative number, sqrt of a negative number ...) for non-NaN inputs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NotDefinedPolicy {
    /// A NaN (the IEEE / C99 result the oracle computes).
    Nan,
    /// Anything (Vulkan: "the value returned is undefined").
    Any,
}

/// The policies of one engine class.
#[derive(Clone, Debug, PartialEq)]
pub struct ClassPolicy {
    /// Class name (`cpu`, `gpu`).
    pub name: String,
    /// Denormal flushing.
    pub denormals: DenormalPolicy,
    /// Zero sign of exact zero results (opcodes may override, e.g. MIN/MAX ties).
    pub signed_zero: SignedZeroPolicy,
    /// Overflow of bounded operations.
    pub overflow: OverflowPolicy,
    /// Results of bounded operations outside their mathematical domain.
    pub not_defined: NotDefinedPolicy,
    /// Citation.
    pub source: String,
}

/// Which input a bound's range refers to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RangeOf {
    /// The (first) source value `x`.
    X,
    /// `|x|`.
    AbsX,
    /// `|y|`, the second source (OpFDiv's divisor).
    AbsY,
}

/// The input range on which an [`ErrorBound`] holds: `lo <= value <= hi` (closed).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct InputRange {
    /// Which input.
    pub of: RangeOf,
    /// Lower end.
    pub lo: f64,
    /// Upper end.
    pub hi: f64,
}

impl InputRange {
    /// Whether inputs `x` (first source) and `y` (second source) lie in the range.
    pub fn contains(&self, x: f64, y: f64) -> bool {
        let v = match self.of {
            RangeOf::X => x,
            RangeOf::AbsX => x.abs(),
            RangeOf::AbsY => y.abs(),
        };
        v >= self.lo && v <= self.hi
    }
}

/// An error bound: the result `r` must satisfy
/// `|r - x| <= (ulp + ulp_per_abs_x * |input|) * ulp(x) + abs`, where `x` is the infinitely
/// precise result and `ulp(x)` the Vulkan definition (the gap between the two floats around
/// `x`; 2^-149 below 2^-126). The bound holds for inputs in `range` (everywhere when
/// `None`); elsewhere `outside` applies, and with no `outside` any result is accepted.
#[derive(Clone, Debug, PartialEq)]
pub struct ErrorBound {
    /// Constant ULP term.
    pub ulp: f64,
    /// ULP per unit of `|input|` (Vulkan exp2: `3 + 2 × |x|` ULP).
    pub ulp_per_abs_x: f64,
    /// Absolute error term.
    pub abs: f64,
    /// Where the bound holds.
    pub range: Option<InputRange>,
    /// The bound outside `range`; `None` = unconstrained there.
    pub outside: Option<Box<ErrorBound>>,
}

/// Formulas for Vulkan's "inherited from" bounds (the bounds of the named opcodes of the
/// same class are applied step by step, then Vulkan's symmetric rule: with `F` the permitted
/// range of the formula and `x` the exact result, any value in `[x - E, x + E]`,
/// `E = max(|x - Fmin|, |x - Fmax|)`; if NaN is permitted, anything).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Formula {
    /// `1.0 / inversesqrt(x)` (Vulkan sqrt): RSQ's bound, then DIV's.
    RcpOfRsq,
    /// `exp2(y × log2(x))` (Vulkan pow): LG2's bound, MUL's, then EX2's.
    Ex2OfYLg2X,
}

impl Formula {
    /// The formula as written in the contract file.
    pub fn text(self) -> &'static str {
        match self {
            Formula::RcpOfRsq => "1/rsq(x)",
            Formula::Ex2OfYLg2X => "ex2(y*lg2(x))",
        }
    }
}

/// The rule for one channel of a channel-dependent opcode.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ChannelRule {
    /// Exact (a constant, an exact function or a copy).
    Exact,
    /// The bound the contract gives this opcode for the same class.
    As(Opcode),
}

/// What an opcode's result may be, for one engine class.
#[derive(Clone, Debug, PartialEq)]
pub enum BoundKind {
    /// Only the oracle's result.
    Exact,
    /// Within an error bound of the infinitely precise result.
    Error(ErrorBound),
    /// Any of the rounded / fused evaluations (MAD, DP2, DP3, DP4, DPH, LRP, XPD).
    FusedOrUnfused,
    /// Inherited from a formula.
    Inherited(Formula),
    /// Per channel x, y, z, w.
    Channels([ChannelRule; 4]),
}

/// A bound and its citation.
#[derive(Clone, Debug, PartialEq)]
pub struct Bound {
    /// The bound.
    pub kind: BoundKind,
    /// Where it comes from.
    pub source: String,
}

/// The contract of one opcode.
#[derive(Clone, Debug, PartialEq)]
pub struct OpContract {
    /// One bound per class, indexed by [`EngineClass::index`].
    pub bounds: Vec<Bound>,
    /// Opcode-specific zero policy (MIN/MAX ties: `Either`); `None` = the class's.
    pub signed_zero: Option<SignedZeroPolicy>,
}

/// The whole precision contract.
#[derive(Clone, Debug, PartialEq)]
pub struct PrecisionContract {
    pub(crate) version: u32,
    pub(crate) nan: NanPolicy,
    pub(crate) nan_source: String,
    pub(crate) classes: Vec<ClassPolicy>,
    pub(crate) engines: BTreeMap<String, EngineClass>,
    pub(crate) ops: BTreeMap<Opcode, OpContract>,
}

/// Every opcode the contract must cover: the oracle's ALU opcodes
/// ([`crate::interp::alu::is_alu`]), the derivatives DDX, DDY, DDX_FINE, DDY_FINE and the
/// interpolation opcodes INTERP_CENTROID, INTERP_SAMPLE, INTERP_OFFSET.
pub fn contract_opcodes() -> impl Iterator<Item = Opcode> {
    ALL_OPCODES.iter().copied().filter(|&op| {
        crate::interp::alu::is_alu(op)
            || matches!(
                op,
                Opcode::DDX
                    | Opcode::DDY
                    | Opcode::DDX_FINE
                    | Opcode::DDY_FINE
                    | Opcode::INTERP_CENTROID
                    | Opcode::INTERP_SAMPLE
                    | Opcode::INTERP_OFFSET
            )
    })
}

/// Opcodes whose interval evaluation supports [`BoundKind::Error`].
pub fn accepts_error_bound(op: Opcode) -> bool {
    use Opcode::*;
    matches!(
        op,
        ADD | SUB | MUL | DIV | RCP | RSQ | SQRT | EX2 | LG2 | POW | SIN | COS | DRCP | DRSQ
    )
}

/// Opcodes that may be [`BoundKind::FusedOrUnfused`].
pub fn accepts_fused_or_unfused(op: Opcode) -> bool {
    use Opcode::*;
    matches!(
        op,
        MAD | DP2 | DP3 | DP4 | DPH | LRP | XPD | DMAD | INTERP_OFFSET
    )
}

/// The formula an opcode may inherit from, if any.
pub fn inheritable_formula(op: Opcode) -> Option<Formula> {
    match op {
        Opcode::SQRT => Some(Formula::RcpOfRsq),
        Opcode::POW => Some(Formula::Ex2OfYLg2X),
        _ => None,
    }
}

/// Opcodes that may give per-channel rules.
pub fn accepts_channels(op: Opcode) -> bool {
    matches!(op, Opcode::EXP | Opcode::LOG | Opcode::LIT)
}

impl PrecisionContract {
    /// Parses a contract file. `file` names it in error messages.
    ///
    /// # Errors
    /// [`ContractError`] with the TOML position for syntax errors, unknown keys, opcodes or
    /// classes, malformed numbers, bounds an opcode cannot take, bounds without a `source`,
    /// opcodes listed twice; an opcode of [`contract_opcodes`] without an entry, or a class
    /// without a bound, is reported at the end of the file's first line.
    pub fn parse(text: &str, file: &str) -> Result<PrecisionContract, ContractError> {
        load::parse(text, file)
    }

    /// The embedded `oracle/precision.toml`, parsed on first use.
    ///
    /// # Panics
    /// Never for the shipped file (the crate's tests load it); a broken embedded file is a
    /// build defect and panics with the loader's `file:line:col` message.
    pub fn builtin() -> &'static PrecisionContract {
        static CONTRACT: OnceLock<PrecisionContract> = OnceLock::new();
        CONTRACT.get_or_init(
            || match PrecisionContract::parse(BUILTIN_TEXT, "precision.toml") {
                Ok(c) => c,
                Err(e) => panic!("the embedded precision contract is invalid: {e}"),
            },
        )
    }

    /// Schema version of the file.
    pub fn version(&self) -> u32 {
        self.version
    }

    /// The default NaN policy (`any` unless the file says otherwise) and its citation.
    pub fn nan_default(&self) -> (NanPolicy, &str) {
        (self.nan, &self.nan_source)
    }

    /// All classes, in file order (index = [`EngineClass::index`]).
    pub fn classes(&self) -> &[ClassPolicy] {
        &self.classes
    }

    /// The class called `name`.
    pub fn class(&self, name: &str) -> Option<EngineClass> {
        self.classes
            .iter()
            .position(|c| c.name == name)
            .map(|i| EngineClass(i as u8))
    }

    /// The class of engine `engine` (`interp`, `jit`, `valhall`).
    pub fn class_of_engine(&self, engine: &str) -> Option<EngineClass> {
        self.engines.get(engine).copied()
    }

    /// Engine name → class, as the file lists them.
    pub fn engines(&self) -> impl Iterator<Item = (&str, EngineClass)> {
        self.engines.iter().map(|(k, v)| (k.as_str(), *v))
    }

    /// The policies of `class`.
    pub fn policy(&self, class: EngineClass) -> &ClassPolicy {
        &self.classes[class.index()]
    }

    /// The contract of `op`; `None` for opcodes outside [`contract_opcodes`].
    pub fn op(&self, op: Opcode) -> Option<&OpContract> {
        self.ops.get(&op)
    }

    /// The bound of `op` for `class`; `None` for opcodes outside [`contract_opcodes`].
    pub fn bound(&self, op: Opcode, class: EngineClass) -> Option<&Bound> {
        self.ops.get(&op).and_then(|o| o.bounds.get(class.index()))
    }

    /// Whether `op`'s bound for `class` is [`BoundKind::Exact`] (opcodes without an entry,
    /// integer opcodes included, count as exact).
    pub fn is_exact(&self, op: Opcode, class: EngineClass) -> bool {
        self.bound(op, class)
            .is_none_or(|b| matches!(b.kind, BoundKind::Exact))
    }

    /// The zero policy for exact zero results of `op` in `class`.
    pub fn signed_zero(&self, op: Opcode, class: EngineClass) -> SignedZeroPolicy {
        self.ops
            .get(&op)
            .and_then(|o| o.signed_zero)
            .unwrap_or(self.classes[class.index()].signed_zero)
    }

    /// Every opcode with an entry.
    pub fn opcodes(&self) -> impl Iterator<Item = Opcode> + '_ {
        self.ops.keys().copied()
    }
}
