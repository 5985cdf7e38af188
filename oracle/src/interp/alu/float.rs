//! Float arithmetic, comparison and rounding opcodes: one scalar function per opcode, on
//! IEEE binary32 with round-to-nearest-even, denormals preserved (EXEC-NOTES.md §0
//! "Denormals"). Section names refer to ../shared/spec/tgsi/tgsi.rst.
//!
//! NaN results are "any NaN": the interpreter does not promise a NaN bit pattern and the
//! comparators match NaNs by class (EXEC-NOTES.md §0 "NaN bit patterns").
//! Transcendentals, LIT, EXP and LOG live in [`super::special`].

use super::kernel::{all_ones_if, Checked};

/// `1.0f` / `0.0f` from a condition (the S* opcodes).
#[inline(always)]
fn one_if(c: bool) -> f32 {
    if c {
        1.0
    } else {
        0.0
    }
}

/// MOV — Core ISA: `dst = src`. Bits are copied unchanged (float modifiers were applied at fetch,
/// tgsi.rst "Source Modifiers": MOV counts as float).
#[inline(always)]
pub fn mov(a: u32) -> u32 {
    a
}

/// ABS (legacy, tgsi.rst before Mesa 17) — `dst = |src|`: clears the sign bit, like the `|src|`
/// float modifier (so ABS(NaN) stays NaN and ABS(-0) = +0).
#[inline(always)]
pub fn abs(a: f32) -> f32 {
    a.abs()
}

/// ADD — Core ISA: `dst = src0 + src1`.
#[inline(always)]
pub fn add(a: f32, b: f32) -> f32 {
    a + b
}

/// SUB (legacy) — `dst = src0 - src1`.
#[inline(always)]
pub fn sub(a: f32, b: f32) -> f32 {
    a - b
}

/// MUL — Core ISA: `dst = src0 * src1` (0 * inf = NaN: LEGACY_MATH_RULES are not modelled,
/// EXEC-NOTES.md §3).
#[inline(always)]
pub fn mul(a: f32, b: f32) -> f32 {
    a * b
}

/// DIV — Core ISA: `dst = src0 / src1` (IEEE: x/0 = ±inf, 0/0 = NaN).
#[inline(always)]
pub fn div(a: f32, b: f32) -> f32 {
    a / b
}

/// MAD — Core ISA: `dst = src0 * src1 + src2`. The doc lets the implementation choose whether
/// the product is rounded; the reference rounds it (two roundings, like tgsi_exec on x86-64,
/// EXEC-NOTES.md §0 "FP contraction"). Comparators must also accept the fused result.
#[inline(always)]
pub fn mad(a: f32, b: f32, c: f32) -> f32 {
    a * b + c
}

/// FMA — Core ISA: `dst = src0 * src1 + src2` "with no intermediate rounding step" (one
/// rounding; `f32::mul_add` is exactly rounded). tgsi_exec does not implement FMA at all.
#[inline(always)]
pub fn fma(a: f32, b: f32, c: f32) -> f32 {
    a.mul_add(b, c)
}

/// LRP — Core ISA: `dst = src0 * src1 + (1 - src0) * src2`, the doc's formula evaluated left to
/// right with every operation rounded. Deviates from tgsi_exec, which computes
/// `src0 * (src1 - src2) + src2` (EXEC-NOTES.md §3, §12.2): e.g. LRP(1, 1, 1e8) = 1 here,
/// 0 there; LRP(0, 1, inf) = inf here, NaN there.
#[inline(always)]
pub fn lrp(a: f32, b: f32, c: f32) -> f32 {
    a * b + (1.0 - a) * c
}

/// MIN — Core ISA `min(src0, src1)` with the fminf rule of EXEC-NOTES.md §3: a NaN operand is
/// ignored (both NaN → NaN). On a tie (including -0 vs +0) the first operand is returned;
/// which zero a tie returns is unspecified, so comparators must treat ±0 as equal for MIN.
#[inline(always)]
pub fn min(a: f32, b: f32) -> f32 {
    nan_ignoring(a, b, a <= b)
}

/// MAX — Core ISA `max(src0, src1)` with the fmaxf rule of EXEC-NOTES.md §3: a NaN operand is
/// ignored (both NaN → NaN). On a tie (including -0 vs +0) the first operand is returned;
/// comparators must treat ±0 as equal for MAX.
#[inline(always)]
pub fn max(a: f32, b: f32) -> f32 {
    nan_ignoring(a, b, a >= b)
}

/// The fminf/fmaxf selection shared by MIN, MAX, DMIN and DMAX: a NaN operand is ignored
/// (both NaN give the second, a NaN), otherwise `a` when `keep_first` (the comparison that
/// prefers it, ties included) holds. `x != x` is the NaN test for any IEEE type.
#[inline(always)]
#[allow(clippy::eq_op)]
pub(super) fn nan_ignoring<T: Copy + PartialOrd>(a: T, b: T, keep_first: bool) -> T {
    if a != a {
        b
    } else if b != b || keep_first {
        a
    } else {
        b
    }
}

/// SLT — Core ISA: `(src0 < src1) ? 1.0 : 0.0` (ordered: false with NaN).
#[inline(always)]
pub fn slt(a: f32, b: f32) -> f32 {
    one_if(a < b)
}

/// SGE — Core ISA: `(src0 >= src1) ? 1.0 : 0.0` (ordered).
#[inline(always)]
pub fn sge(a: f32, b: f32) -> f32 {
    one_if(a >= b)
}

/// SGT — Core ISA: `(src0 > src1) ? 1.0 : 0.0` (ordered).
#[inline(always)]
pub fn sgt(a: f32, b: f32) -> f32 {
    one_if(a > b)
}

/// SLE — Core ISA: `(src0 <= src1) ? 1.0 : 0.0` (ordered).
#[inline(always)]
pub fn sle(a: f32, b: f32) -> f32 {
    one_if(a <= b)
}

/// SEQ — Core ISA: `(src0 == src1) ? 1.0 : 0.0` (ordered; -0 == +0).
#[inline(always)]
pub fn seq(a: f32, b: f32) -> f32 {
    one_if(a == b)
}

/// SNE — Core ISA: `(src0 != src1) ? 1.0 : 0.0` (unordered: true with NaN).
#[inline(always)]
pub fn sne(a: f32, b: f32) -> f32 {
    one_if(a != b)
}

/// FSLT — Integer ISA "Float Set On Less Than (ordered)": `(src0 < src1) ? ~0 : 0`.
#[inline(always)]
pub fn fslt(a: f32, b: f32) -> u32 {
    all_ones_if(a < b)
}

/// FSGE — Integer ISA "(ordered)": `(src0 >= src1) ? ~0 : 0`.
#[inline(always)]
pub fn fsge(a: f32, b: f32) -> u32 {
    all_ones_if(a >= b)
}

/// FSEQ — Integer ISA "(ordered)": `(src0 == src1) ? ~0 : 0`.
#[inline(always)]
pub fn fseq(a: f32, b: f32) -> u32 {
    all_ones_if(a == b)
}

/// FSNE — Integer ISA "(unordered)": `(src0 != src1) ? ~0 : 0`.
#[inline(always)]
pub fn fsne(a: f32, b: f32) -> u32 {
    all_ones_if(a != b)
}

/// CMP — Core ISA: `(src0 < 0) ? src1 : src2`. NaN and -0 select src2. src1/src2 bits are
/// passed through unchanged.
#[inline(always)]
pub fn cmp(a: f32, b: u32, c: u32) -> u32 {
    if a < 0.0 {
        b
    } else {
        c
    }
}

/// SSG — Core ISA: `(src > 0) ? 1 : (src < 0) ? -1 : 0`. SSG(-0) = SSG(NaN) = +0.0 (both
/// comparisons are false).
#[inline(always)]
pub fn ssg(a: f32) -> f32 {
    if a > 0.0 {
        1.0
    } else if a < 0.0 {
        -1.0
    } else {
        0.0
    }
}

/// RCP — Core ISA: `dst = 1 / src.x` (correctly rounded; RCP(±0) = ±inf).
#[inline(always)]
pub fn rcp(a: f32) -> f32 {
    1.0 / a
}

/// RSQ — Core ISA: `dst = 1 / sqrt(src.x)`; "The results are undefined for src <= 0" (so
/// -0, +0 and negative inputs are undefined; NaN gives NaN). Computed in binary64 and
/// rounded once: error ≤ 0.5 ulp + 2⁻²⁹ ulp of the exact result.
#[inline(always)]
pub fn rsq(a: f32) -> Checked<f32> {
    let r = (1.0 / (a as f64).sqrt()) as f32;
    Checked::new(r, a <= 0.0)
}

/// SQRT — Core ISA: `dst = sqrt(src.x)` (correctly rounded); "undefined for src < 0".
/// SQRT(-0) = -0 is defined (IEEE).
#[inline(always)]
pub fn sqrt(a: f32) -> Checked<f32> {
    Checked::new(a.sqrt(), a < 0.0)
}

/// Binary32 values with |x| ≥ 2^23 are integers (no fraction bits left).
const INTEGRAL_FROM: f32 = 8_388_608.0;

/// `a` rounded to the nearest integer, ties to even, for |a| < 2^23 (sign of a zero result
/// not fixed): adding and subtracting 2^23 (with the sign of `a`) makes the IEEE addition
/// round the fraction away. Only float additions, so lane loops vectorize: `f32::floor` and
/// friends are libm calls on baseline x86-64 (no rounding instruction before SSE4.1).
#[inline(always)]
fn nearest_small(a: f32) -> f32 {
    let c = INTEGRAL_FROM.copysign(a);
    (a + c) - c
}

/// Applies an exact rounding `r` computed for |a| < 2^23 and passes larger values, ±inf and
/// NaN through (they are already integral or have no integer). A zero result takes the sign
/// of `a`, which floor, ceil, trunc and round all preserve (FLR(-0) = -0, CEIL(-0.5) = -0).
#[inline(always)]
fn integral(a: f32, r: f32) -> f32 {
    if a.abs() < INTEGRAL_FROM {
        r.copysign(a)
    } else {
        a
    }
}

/// FLR — Core ISA: `floor(src)`, exact; keeps -0 (FLR(-0.5) = -1, FLR(-0) = -0).
#[inline(always)]
pub fn flr(a: f32) -> f32 {
    let r = nearest_small(a);
    integral(a, if r > a { r - 1.0 } else { r })
}

/// CEIL — Compute ISA: `ceil(src)`, exact; keeps the sign of zero (CEIL(-0.5) = -0).
#[inline(always)]
pub fn ceil(a: f32) -> f32 {
    let r = nearest_small(a);
    integral(a, if r < a { r + 1.0 } else { r })
}

/// TRUNC — Compute ISA: `trunc(src)`, exact; keeps the sign of zero: `floor(|src|)` with the
/// sign of src.
#[inline(always)]
pub fn trunc(a: f32) -> f32 {
    let m = a.abs();
    let r = nearest_small(m);
    integral(a, if r > m { r - 1.0 } else { r })
}

/// ROUND — Core ISA: `round(src)`. The doc does not say how ties round; the reference rounds
/// half to even like tgsi_exec (EXEC-NOTES.md §3 [run]: ROUND(2.5) = 2, ROUND(-0.5) = -0).
#[inline(always)]
pub fn round(a: f32) -> f32 {
    integral(a, nearest_small(a))
}

/// FRC — Core ISA: `src - floor(src)`, the doc formula with one rounding: it can return exactly
/// 1.0 (FRC(-1e-10) = 1.0), FRC(-0) = +0, FRC(±inf) = NaN (EXEC-NOTES.md §3 [run]).
#[inline(always)]
pub fn frc(a: f32) -> f32 {
    a - flr(a)
}

/// `a * 2^n`, exact before a single rounding (denormal results rounded once, overflow → ±inf).
/// The product is formed in binary64, where it is exact for every binary32 `a` when
/// |n| ≤ 400; beyond that the result is 0 or ±inf (or NaN) anyway.
#[inline(always)]
pub(super) fn scale2(a: f32, n: i32) -> f32 {
    let n = n.clamp(-400, 400);
    let p = f64::from_bits(((n + 1023) as u64) << 52);
    (a as f64 * p) as f32
}

/// LDEXP — Core ISA: `dst = src0 * 2^src1` with *src1* an integer (exact, one rounding:
/// overflow → ±inf, underflow → denormal or ±0).
#[inline(always)]
pub fn ldexp(a: f32, n: i32) -> f32 {
    scale2(a, n)
}

/// DP2 — Core ISA: `src0.x*src1.x + src0.y*src1.y`, replicated. The doc fixes no order or
/// rounding; the reference accumulates left to right, rounding every product and sum like
/// tgsi_exec (EXEC-NOTES.md §3 DP2/DP3/DP4). Comparators must accept fused evaluations.
#[inline(always)]
pub fn dp2(a: [f32; 4], b: [f32; 4]) -> f32 {
    let p = a[0] * b[0];
    a[1] * b[1] + p
}

/// DP3 — Core ISA: `src0.xyz · src1.xyz`, replicated; evaluation as for [`dp2`].
#[inline(always)]
pub fn dp3(a: [f32; 4], b: [f32; 4]) -> f32 {
    let p = dp2(a, b);
    a[2] * b[2] + p
}

/// DP4 — Core ISA: `src0.xyzw · src1.xyzw`, replicated; evaluation as for [`dp2`].
#[inline(always)]
pub fn dp4(a: [f32; 4], b: [f32; 4]) -> f32 {
    let p = dp3(a, b);
    a[3] * b[3] + p
}

/// DPH (legacy) — homogeneous dot product `src0.xyz · src1.xyz + src1.w`, replicated;
/// evaluation as for [`dp2`].
#[inline(always)]
pub fn dph(a: [f32; 4], b: [f32; 4]) -> f32 {
    dp3(a, b) + b[3]
}

/// DST — Core ISA, channel `c` of `(1, src0.y * src1.y, src0.z, src1.w)`.
#[inline(always)]
pub fn dst(a: [f32; 4], b: [f32; 4], c: usize) -> f32 {
    match c {
        0 => 1.0,
        1 => a[1] * b[1],
        2 => a[2],
        _ => b[3],
    }
}

/// XPD (legacy) — cross product, channel `c` of
/// `(s0.y*s1.z - s0.z*s1.y, s0.z*s1.x - s0.x*s1.z, s0.x*s1.y - s0.y*s1.x, 1)`,
/// every product and difference rounded.
#[inline(always)]
pub fn xpd(a: [f32; 4], b: [f32; 4], c: usize) -> f32 {
    match c {
        0 => a[1] * b[2] - a[2] * b[1],
        1 => a[2] * b[0] - a[0] * b[2],
        2 => a[0] * b[1] - a[1] * b[0],
        _ => 1.0,
    }
}
