//! Transcendental opcodes (EX2, LG2, POW, SIN, COS) and the channel-dependent LIT, EXP, LOG.
//! Section names refer to ../shared/spec/tgsi/tgsi.rst.
//!
//! Accuracy: every transcendental is evaluated with the pure-Rust `libm` crate in binary64
//! (its functions are within 1 binary64 ulp of the exact value) and rounded once to binary32.
//! The result is therefore within **0.5 ulp + 2⁻²⁹ ulp** (binary32) of the exact value: the
//! correctly rounded result except in rare double-rounding cases, and never more than 1 ulp
//! away from it. Results do not depend on the host's C library. Exact cases stay exact
//! (EX2 of an integer, LG2 of a power of two, SIN(0), POW(2, 10)).
//!
//! tgsi_exec instead calls glibc `powf/logf/sinf/cosf` in single precision and computes LG2 as
//! `logf(x) * 1.442695f` (EXEC-NOTES.md §3), which is 1–2 ulp off for ≈31 % of inputs; the
//! reference does not copy that.

use super::float::{flr, max, scale2};
use super::kernel::Checked;

/// EX2 — Core ISA: `dst = 2^src.x`, replicated. EX2(-inf) = 0, EX2(+inf) = +inf, overflow → +inf,
/// underflow → denormal/0. Accuracy: module docs.
#[inline(always)]
pub fn ex2(a: f32) -> f32 {
    libm::exp2(a as f64) as f32
}

/// LG2 — Core ISA: `dst = log2(src.x)`, replicated (a true base-2 logarithm). The doc leaves no
/// input undefined: LG2(±0) = -inf, LG2(x < 0) = NaN, LG2(+inf) = +inf (IEEE/C99 log2).
/// Accuracy: module docs.
#[inline(always)]
pub fn lg2(a: f32) -> f32 {
    libm::log2(a as f64) as f32
}

/// POW — Core ISA: `dst = src0.x ^ src1.x`, replicated, with the C99 `pow` special cases that
/// tgsi_exec also follows (EXEC-NOTES.md §3): POW(x, 0) = 1 for every x including NaN,
/// POW(1, y) = 1, POW(0, -1) = +inf, POW(-0, -1) = -inf, POW(-2, 3) = -8, POW(-2, 0.5) = NaN.
/// The doc calls no input undefined. Accuracy: module docs.
#[inline(always)]
pub fn pow(a: f32, b: f32) -> f32 {
    libm::pow(a as f64, b as f64) as f32
}

/// SIN — Core ISA: `dst = sin(src.x)`, replicated; full-range argument reduction
/// (SIN(1e30) ≈ -0.79116), SIN(±inf) = NaN. Accuracy: module docs.
#[inline(always)]
pub fn sin(a: f32) -> f32 {
    libm::sin(a as f64) as f32
}

/// COS — Core ISA: `dst = cos(src.x)`, replicated; as [`sin`].
#[inline(always)]
pub fn cos(a: f32) -> f32 {
    libm::cos(a as f64) as f32
}

/// `2^n` for an integral (or infinite/NaN) `n`, exact: 2^-inf = 0, overflow → +inf,
/// 2^-150 and below → 0 (round to nearest even), NaN → NaN.
#[inline(always)]
fn pow2_integral(n: f32) -> f32 {
    if n.is_nan() {
        return n;
    }
    scale2(1.0, n.clamp(-1000.0, 1000.0) as i32)
}

/// `floor(log2(a))` for `a >= 0`, exact (from the binary exponent, denormals included):
/// 0 → -inf, +inf → +inf, NaN → NaN. A rounded `log2` followed by `floor` would be wrong just
/// below powers of two (log2(2^100·(1-2⁻²⁴)) rounds to 100.0).
#[inline(always)]
fn floor_log2(a: f32) -> f32 {
    if a == 0.0 {
        return f32::NEG_INFINITY;
    }
    if !a.is_finite() {
        return a;
    }
    let bits = a.to_bits();
    let biased = (bits >> 23) as i32;
    if biased != 0 {
        (biased - 127) as f32
    } else {
        // Denormal: value = mantissa · 2^-149; the exponent is that of its top bit.
        (31 - bits.leading_zeros() as i32 - 149) as f32
    }
}

/// EXP — Core ISA, channel `c` of `(2^floor(s), s - floor(s), 2^s, 1)` with `s = src.x`.
/// x is exact (2^floor is a power of two), y is the FRC formula, z is [`ex2`].
/// EXP(+inf).y = inf - inf = NaN (IEEE).
#[inline(always)]
pub fn exp(s: [f32; 4], c: usize) -> f32 {
    let x = s[0];
    match c {
        0 => pow2_integral(flr(x)),
        1 => x - flr(x),
        2 => ex2(x),
        _ => 1.0,
    }
}

/// LOG — Core ISA, channel `c` of `(floor(log2|s|), |s| / 2^floor(log2|s|), log2|s|, 1)` with
/// `s = src.x`. x is exact (the binary exponent, not a rounded log2), y is then exact (the
/// significand, in [1, 2)), z is [`lg2`]. LOG(0) = (-inf, NaN, -inf, 1) and
/// LOG(inf) = (inf, NaN, inf, 1): y is the IEEE result of 0/0 and inf/inf.
#[inline(always)]
pub fn log(s: [f32; 4], c: usize) -> f32 {
    let a = s[0].abs();
    match c {
        0 => floor_log2(a),
        1 => a / pow2_integral(floor_log2(a)),
        2 => lg2(a),
        _ => 1.0,
    }
}

/// LIT — Core ISA, channel `c` of
/// `(1, max(s.x, 0), s.x > 0 ? max(s.y, 0)^clamp(s.w, -128, 128) : 0, 1)`.
/// `max` is MAX's rule (NaN ignored); the power follows [`pow`] (0^0 = 1, 0^-w = +inf).
/// A NaN `s.w` makes z undefined when `s.x > 0`: the doc's clamp of NaN is unspecified
/// (tgsi_exec's fminf/fmaxf order turns it into 128, another order gives -128).
#[inline(always)]
pub fn lit(s: [f32; 4], c: usize) -> Checked<f32> {
    match c {
        1 => Checked::ok(max(s[0], 0.0)),
        2 => {
            if s[0] > 0.0 {
                let w = s[3];
                let e = if w.is_nan() {
                    w
                } else {
                    w.clamp(-128.0, 128.0)
                };
                Checked::new(pow(max(s[1], 0.0), e), w.is_nan())
            } else {
                Checked::ok(0.0)
            }
        }
        _ => Checked::ok(1.0),
    }
}
