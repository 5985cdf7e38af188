//! Acceptance intervals: alongside every value, the set of results an engine of a given
//! class may produce, derived from the precision contract (`oracle/precision.toml`,
//! [`crate::precision`]). Entry point: [`crate::interp::run_with_intervals`].
//!
//! # Representation
//!
//! Every lane of every register channel carries `[lo, hi]` (binary32 bits, IEEE total order:
//! -0 < +0) and a "NaN allowed" bit ([`Iv`]; stored as [`crate::io::Interval`]). A channel
//! is **exact** when `lo == hi == value` and the NaN bit says whether the value is a NaN.
//! Inputs, constants, immediates and the results of integer, bit and exact-bound opcodes on
//! exact sources are exact, except NaNs made by float arithmetic: their bits are not
//! specified (EXEC-NOTES.md §0 "NaN bit patterns"), so they are stored as "some NaN" (two
//! different NaN patterns as ends) and integer opcodes reading them are undetermined. Undefined channels (the interpreter's undefined bits) carry
//! nothing meaningful; their reported interval is [`crate::io::Interval::ANY`].
//!
//! # Semantics per opcode class (contract bound → interval rule)
//!
//! * **Exact bounds** (`"exact"`: ADD, SUB, MUL, DIV on `cpu`, FMA, FLR, CEIL, TRUNC, ROUND,
//!   LDEXP, MIN, MAX, DST, DDX/DDY ...): exact sources give the oracle's value `[v, v]`;
//!   ranges go through interval arithmetic on the oracle's own functions. Monotone
//!   functions use the endpoints (round-to-nearest is monotone, so `[rn(f(lo)), rn(f(hi))]`
//!   is exactly the set of possible results); products, quotients and FMA use the corners of
//!   the input box; 0 × inf inside a box and inf - inf at a corner add NaN. FRC is monotone
//!   inside one integer cell and `[0, 1]` across cells; SIN/COS over a range give `[-1, 1]`.
//!   MIN/MAX ignore a NaN operand (the oracle's rule) and, when the contract's
//!   `signed_zero = "either"` applies (or the operands are ranges), a tie between zeros
//!   accepts both zeros.
//! * **Error bounds** (`ulp`, `abs`, `range`: EX2, LG2, POW, SIN, COS, RSQ on `cpu`;
//!   DIV, RCP, RSQ, EX2, LG2, SIN, COS on `gpu`): the exact result (binary64, see
//!   `approx` module) widened by the bound, rounded inward to binary32. Ranges use the endpoint
//!   images of monotone functions with the loosest tolerance over the range. Inputs outside
//!   the bound's range with no `outside` bound, results that are not mathematically defined
//!   under `not_defined = "any"`, and infinite tolerances give "any value".
//! * **Inherited bounds** (`gpu` SQRT from `1/rsq(x)`, POW from `ex2(y*lg2(x))`): the
//!   formula evaluated step by step with the steps' own bounds gives `F`; the result is
//!   Vulkan's `[x - E, x + E]`, `E = max(|x - Fmin|, |x - Fmax|)` around the exact `x`
//!   (any value if `F` may be NaN), plus the two floats around `x`.
//! * **`fused_or_unfused`** (MAD, DP2/DP3/DP4/DPH, LRP, XPD): the union of the enumerated
//!   evaluations (`vector::fused`): MAD rounded or fused; dot products sequential unfused, fused
//!   from either end, and (DP4) pairwise; LRP by the doc's formula and tgsi_exec's
//!   `a*(b-c)+c`, each unfused or with a product fused; XPD with either product fused.
//! * **Channel-dependent** (EXP, LOG, LIT): each channel exact or with the named opcode's
//!   bound (`channels = [...]`).
//! * **Decisions and conversions.** Comparisons (S*, FS*), SSG, CMP's condition, UCMP's
//!   condition, F2I/F2U/ARL/ARR, PK2H/PK2US/PK4B/PK4UB, LDEXP's exponent and every integer
//!   or bit opcode need a determined input: when the sources' sets give more than one
//!   outcome (a set straddling the comparison's threshold, a conversion whose image holds
//!   two integers, an inexact integer operand), the result channel is marked **undefined**,
//!   and undefinedness propagates to everything computed from it. RSQ/SQRT whose set
//!   reaches their undefined domain are undefined the same way.
//! * **Control.** IF (`x != 0`), UIF, SWITCH/CASE selectors, KILL_IF (`any < 0`) and
//!   indirect addresses whose outcome is not determined make the invocation
//!   **unconstrained** (all outputs undefined, killed-ness not compared), like a decision on
//!   an undefined value.
//! * **Denormals.** In a `flush_allowed` class, denormal inputs of float arithmetic and
//!   denormal float results may become ±0: such sets gain both zeros (moves and selects
//!   never flush). Whole evaluations with every denormal flushed (classes
//!   `flush_or_preserve`, `flush`, and `--denormals`) are `crate::interp::denormal`'s.
//! * **64-bit opcodes** (module `wide`): a binary64 set is stored split across its channel
//!   pair; DRCP/DRSQ error bounds in binary64 ulps, DMAD fused or unfused, every other
//!   64-bit result exact; an inexact source makes the pair's result undefined.
//! * **Saturate.** `_SAT` clamps the set's ends (NaN → +0); `.SSAT` of a set that may be
//!   NaN is undefined.

pub(crate) mod approx;
pub(crate) mod eval;
mod halves;
mod interp_at;
pub mod iv;
pub(crate) mod machine;
pub mod ops;
pub mod vector;
pub(crate) mod wide;

pub use iv::Iv;
pub use ops::{compare, scalar, Cmp, Env};
pub use vector::vector;
pub use wide::key64;

use super::lanes::{Mask, Vals, ZERO_VALS};

/// Interval planes of a vec4 across a chunk: `lo[c][l]`, `hi[c][l]` (bits), NaN bits, and
/// `half[c]`: lanes where channel `c` holds one word of a binary64 set that is not a single
/// value, its other word in the partner channel `c ^ 1` (module `wide`, "Pair halves").
#[derive(Clone)]
pub(crate) struct IvVals {
    pub lo: Vals,
    pub hi: Vals,
    pub nan: [Mask; 4],
    pub half: [Mask; 4],
}

impl IvVals {
    pub fn zero() -> IvVals {
        IvVals {
            lo: ZERO_VALS,
            hi: ZERO_VALS,
            nan: [0; 4],
            half: [0; 4],
        }
    }
}
