//! Acceptance sets of bounded operations ([`BoundKind::Error`], [`BoundKind::Inherited`]):
//! the exact result is enclosed in binary64, widened by the contract's ULP/absolute error,
//! and rounded inward to binary32.
//!
//! * **Exact value.** `libm` (binary64, within 1 binary64 ulp), IEEE binary64 division and
//!   square root give the result with relative error below [`REL`] = 2^-50; the enclosure
//!   `[y - |y|·REL, y + |y|·REL]` holds the infinitely precise result. Known exact cases
//!   (2^n for integral n, log2 of a power of two) use a zero-width enclosure.
//! * **ULP.** Vulkan's `ulp(x)`: the smallest gap between two floats `a <= x <= b` (so the
//!   gap *below* an exact power of two), 2^-149 below 2^-126, 2^104 beyond the largest float.
//!   Over an enclosure the largest gap is used.
//! * **Rounding inward.** The allowed real range `[L, H]` becomes the binary32 values in it;
//!   beyond the largest float the class's [`OverflowPolicy`] decides (IEEE: infinity only
//!   where round-to-nearest overflows; Vulkan: infinity or the largest finite value).
//! * **Ranges.** A bound may hold on an input range only; a non-point input interval that
//!   touches several pieces gets the loosest of them, and a piece with no bound makes the
//!   result unconstrained ([`Iv::ANY`]).

use crate::precision::{ErrorBound, NotDefinedPolicy, OverflowPolicy, RangeOf};

use super::iv::{next_down, next_up, Iv};

/// Relative error of the binary64 evaluation of the exact result (2^-50: four binary64 ulps,
/// covering libm's one ulp and two IEEE roundings).
pub const REL: f64 = 8.881_784_197_001_252e-16;

/// 2^128 - 2^103: the smallest real that round-to-nearest turns into +inf.
const OVERFLOW: f64 = 3.402_823_567_797_336_6e38;

/// Vulkan `ulp(m)` for a magnitude `m >= 0` (module docs).
pub fn ulp_of(m: f64) -> f64 {
    if m < f32::MIN_POSITIVE as f64 {
        return f64::from_bits(0x36a0_0000_0000_0000); // 2^-149
    }
    if m >= 2f64.powi(128) {
        return 2f64.powi(104);
    }
    let e = ((m.to_bits() >> 52) & 0x7ff) as i32 - 1023;
    let exact_power = m.to_bits() & ((1u64 << 52) - 1) == 0;
    // The gap below an exact power of two is half the gap above it (except at 2^-126,
    // where the denormal spacing continues).
    let k = if exact_power && e > -126 {
        e - 24
    } else {
        e - 23
    };
    2f64.powi(k)
}

/// The largest Vulkan ulp over the real interval `[a, b]`: the ulp of the largest magnitude
/// (ulp only dips, to the gap below, exactly at powers of two, and points just below a power
/// of two have that same gap).
fn max_ulp(a: f64, b: f64) -> f64 {
    ulp_of(a.abs().max(b.abs()))
}

/// Smallest binary32 `>= x` (-0 for tiny negative `x`; +inf above the largest float).
pub fn up(x: f64) -> f32 {
    let f = x as f32;
    let r = if (f as f64) < x { next_up(f) } else { f };
    if r == 0.0 && x < 0.0 {
        -0.0
    } else {
        r
    }
}

/// Largest binary32 `<= x` (+0 for tiny positive `x`; -inf below the lowest float).
pub fn down(x: f64) -> f32 {
    let f = x as f32;
    let r = if (f as f64) > x { next_down(f) } else { f };
    if r == 0.0 && x > 0.0 {
        0.0
    } else {
        r
    }
}

/// Tolerance of a bound piece: (ulp, abs); `None` = unconstrained.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Tol {
    /// ULP of the exact result.
    pub ulp: f64,
    /// Absolute error.
    pub abs: f64,
}

/// The loosest tolerance of `bound` over inputs `x in xs`, `y in ys` (binary64 ranges);
/// `None` when a touched piece has no bound or the tolerance is infinite.
pub fn tolerance(bound: &ErrorBound, xs: (f64, f64), ys: (f64, f64)) -> Option<Tol> {
    let max_abs_x = xs.0.abs().max(xs.1.abs());
    let own = Tol {
        ulp: bound.ulp + bound.ulp_per_abs_x * max_abs_x,
        abs: bound.abs,
    };
    let Some(range) = bound.range else {
        return finite(own);
    };
    let (lo, hi) = match range.of {
        RangeOf::X => xs,
        RangeOf::AbsX => abs_range(xs),
        RangeOf::AbsY => abs_range(ys),
    };
    let inside = lo <= range.hi && hi >= range.lo;
    let outside = lo < range.lo || hi > range.hi || lo.is_nan() || hi.is_nan();
    let out = if outside {
        Some(tolerance(bound.outside.as_deref()?, xs, ys)?)
    } else {
        None
    };
    match (inside, out) {
        (true, Some(o)) => finite(Tol {
            ulp: own.ulp.max(o.ulp),
            abs: own.abs.max(o.abs),
        }),
        (true, None) => finite(own),
        (false, Some(o)) => Some(o),
        (false, None) => None,
    }
}

fn abs_range((a, b): (f64, f64)) -> (f64, f64) {
    if a <= 0.0 && b >= 0.0 {
        (0.0, a.abs().max(b.abs()))
    } else {
        (a.abs().min(b.abs()), a.abs().max(b.abs()))
    }
}

fn finite(t: Tol) -> Option<Tol> {
    (t.ulp.is_finite() && t.abs.is_finite()).then_some(t)
}

/// The binary32 values allowed when the exact result lies in `[y0, y1]` (binary64, no NaN)
/// and may be off by `tol`. Never empty: if no float lies in the allowed range, the two
/// floats around it are accepted (faithful rounding).
pub fn widen(y0: f64, y1: f64, tol: Tol, overflow: OverflowPolicy) -> Iv {
    let u = max_ulp(y0, y1).min(2f64.powi(104));
    let e = tol.ulp * u + tol.abs;
    let (l, h) = (y0 - e, y1 + e);
    let max = f32::MAX as f64;
    let (lo, hi) = match overflow {
        OverflowPolicy::Ieee => (
            if l <= -OVERFLOW {
                f32::NEG_INFINITY
            } else {
                up(l)
            },
            if h >= OVERFLOW {
                f32::INFINITY
            } else {
                down(h)
            },
        ),
        OverflowPolicy::InfOrMax => (
            if l < -max {
                f32::NEG_INFINITY
            } else if l > max {
                f32::MAX
            } else {
                up(l)
            },
            if h > max {
                f32::INFINITY
            } else if h < -max {
                -f32::MAX
            } else {
                down(h)
            },
        ),
    };
    if lo.total_cmp(&hi).is_gt() {
        return Iv::range(down(y0), up(y1), false);
    }
    Iv::range(lo, hi, false)
}

/// The exact result `y` of a bounded operation (`exact`: known to be exact), as an
/// acceptance set: NaN results follow the class's [`NotDefinedPolicy`] unless an input was
/// NaN (then NaN); infinite results are kept (a finite tolerance cannot reach a float from
/// an infinity: IEEE policy gives the infinity, Vulkan's also the largest float).
pub fn accept(
    y: f64,
    exact: bool,
    input_nan: bool,
    tol: Option<Tol>,
    overflow: OverflowPolicy,
    not_defined: NotDefinedPolicy,
) -> Iv {
    if y.is_nan() {
        return if input_nan || not_defined == NotDefinedPolicy::Nan {
            Iv::NAN
        } else {
            Iv::ANY
        };
    }
    let Some(tol) = tol else {
        return Iv::ANY;
    };
    let d = if exact || y.is_infinite() {
        0.0
    } else {
        y.abs() * REL
    };
    widen(y - d, y + d, tol, overflow)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vulkan_ulp() {
        // ulp(1.5) = 2^-23; ulp(1.0) = 2^-24 (gap below a power of two); tiny: 2^-149.
        assert_eq!(ulp_of(1.5), 2f64.powi(-23));
        assert_eq!(ulp_of(1.0), 2f64.powi(-24));
        assert_eq!(ulp_of(1e-40), 2f64.powi(-149));
        assert_eq!(ulp_of(2f64.powi(-126)), 2f64.powi(-149));
        assert_eq!(ulp_of(1e39), 2f64.powi(104));
    }

    #[test]
    fn inward_rounding() {
        assert_eq!(up(1.0 + 1e-12), f32::from_bits(0x3f80_0001));
        assert_eq!(down(1.0 + 1e-12), 1.0);
        assert_eq!(up(-1e-50).to_bits(), 0x8000_0000);
        assert_eq!(down(1e-50).to_bits(), 0);
    }

    #[test]
    fn three_ulp_around_one_and_a_half() {
        // 1.5 exactly, 3 ulp of 2^-23: [1.5 - 3*2^-23, 1.5 + 3*2^-23].
        let t = Tol { ulp: 3.0, abs: 0.0 };
        let r = widen(1.5, 1.5, t, OverflowPolicy::Ieee);
        assert_eq!(r.lo.to_bits(), 0x3fc0_0000 - 3);
        assert_eq!(r.hi.to_bits(), 0x3fc0_0000 + 3);
    }
}
