//! The scalar acceptance set [`Iv`] and interval arithmetic for the correctly rounded
//! (exact-class) float operations.
//!
//! An `Iv` is the binary32 values from `lo` to `hi` in IEEE total order (-0 < +0), empty
//! when `lo` is NaN, plus "any NaN" when `nan` is set. Round-to-nearest is monotone, so for
//! an operation monotone in each argument the extreme results lie at the corners of the
//! input box: `[rn(f(lo)), rn(f(hi))]` is exactly the set an exact engine can produce.
//! NaN arises at corners (inf - inf) or inside the box (0 × inf with 0 interior), which the
//! operations below check explicitly.

/// The smallest normal binary32 magnitude, 2^-126.
pub const MIN_NORMAL: f32 = f32::MIN_POSITIVE;

/// Acceptance set of one channel (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Iv {
    /// Lower end (total order); NaN when the range is empty.
    pub lo: f32,
    /// Upper end (total order); NaN when the range is empty.
    pub hi: f32,
    /// Any NaN is possible.
    pub nan: bool,
}

/// The smaller of two non-NaN values in total order (-0 < +0).
#[inline]
pub fn tmin(a: f32, b: f32) -> f32 {
    if a.total_cmp(&b).is_le() {
        a
    } else {
        b
    }
}

/// The larger of two non-NaN values in total order.
#[inline]
pub fn tmax(a: f32, b: f32) -> f32 {
    if a.total_cmp(&b).is_ge() {
        a
    } else {
        b
    }
}

/// The next binary32 value above `x` in total order (-0 → smallest positive denormal... via
/// +0 first: -0 → +0 is not a step, so -0 and +0 both step to 2^-149); +inf stays.
pub fn next_up(x: f32) -> f32 {
    if x.is_nan() || x == f32::INFINITY {
        return x;
    }
    if x == 0.0 {
        return f32::from_bits(1);
    }
    let b = x.to_bits();
    f32::from_bits(if x > 0.0 { b + 1 } else { b - 1 })
}

/// The next binary32 value below `x`; -inf stays.
pub fn next_down(x: f32) -> f32 {
    -next_up(-x)
}

impl Iv {
    /// Only NaN.
    pub const NAN: Iv = Iv {
        lo: f32::NAN,
        hi: f32::NAN,
        nan: true,
    };
    /// Everything.
    pub const ANY: Iv = Iv {
        lo: f32::NEG_INFINITY,
        hi: f32::INFINITY,
        nan: true,
    };

    /// Exactly `v` (a NaN gives [`Iv::NAN`]).
    #[inline]
    pub fn point(v: f32) -> Iv {
        if v.is_nan() {
            Iv::NAN
        } else {
            Iv {
                lo: v,
                hi: v,
                nan: false,
            }
        }
    }

    /// The range `[lo, hi]` (total order, ends swapped if needed) plus NaN if `nan`.
    #[inline]
    pub fn range(lo: f32, hi: f32, nan: bool) -> Iv {
        if lo.is_nan() || hi.is_nan() {
            return Iv {
                lo: f32::NAN,
                hi: f32::NAN,
                nan,
            };
        }
        Iv {
            lo: tmin(lo, hi),
            hi: tmax(lo, hi),
            nan,
        }
    }

    /// From stored bits (`lo`/`hi` NaN patterns mean an empty range).
    #[inline]
    pub fn from_bits(lo: u32, hi: u32, nan: bool) -> Iv {
        Iv::range(f32::from_bits(lo), f32::from_bits(hi), nan)
    }

    /// The range holds no number.
    #[inline]
    pub fn empty(self) -> bool {
        self.lo.is_nan()
    }

    /// The single non-NaN value, if this is one.
    #[inline]
    pub fn as_point(self) -> Option<f32> {
        (!self.nan && !self.empty() && self.lo.to_bits() == self.hi.to_bits()).then_some(self.lo)
    }

    /// Whether `v` is in the set (NaN: any NaN when `nan`).
    pub fn contains(self, v: f32) -> bool {
        if v.is_nan() {
            return self.nan;
        }
        !self.empty() && self.lo.total_cmp(&v).is_le() && v.total_cmp(&self.hi).is_le()
    }

    /// Union, as the smallest `Iv` holding both.
    pub fn hull(self, o: Iv) -> Iv {
        let nan = self.nan || o.nan;
        match (self.empty(), o.empty()) {
            (true, true) => Iv { nan, ..Iv::NAN },
            (true, false) => Iv { nan, ..o },
            (false, true) => Iv { nan, ..self },
            (false, false) => Iv {
                lo: tmin(self.lo, o.lo),
                hi: tmax(self.hi, o.hi),
                nan,
            },
        }
    }

    /// This set with NaN also allowed.
    pub fn or_nan(self, nan: bool) -> Iv {
        Iv {
            nan: self.nan || nan,
            ..self
        }
    }

    /// The range contains a value `< 0` (real comparison: -0 is not).
    pub fn has_neg(self) -> bool {
        !self.empty() && self.lo < 0.0
    }

    /// The range contains a value `> 0`.
    pub fn has_pos(self) -> bool {
        !self.empty() && self.hi > 0.0
    }

    /// The range contains ±0 or straddles zero (real comparison).
    pub fn has_zero(self) -> bool {
        !self.empty() && self.lo <= 0.0 && self.hi >= 0.0
    }

    /// The range contains an infinity.
    pub fn has_inf(self) -> bool {
        !self.empty() && (self.lo == f32::NEG_INFINITY || self.hi == f32::INFINITY)
    }

    /// The range contains a denormal (0 < |v| < 2^-126).
    pub fn has_denormal(self) -> bool {
        !self.empty()
            && ((self.hi > 0.0 && self.lo < MIN_NORMAL) || (self.lo < 0.0 && self.hi > -MIN_NORMAL))
    }

    /// With both zeros added to the range.
    pub fn with_zeros(self) -> Iv {
        self.hull(Iv::range(-0.0, 0.0, false))
    }

    /// Largest magnitude in the range (0 when empty).
    pub fn max_abs(self) -> f32 {
        if self.empty() {
            0.0
        } else {
            self.lo.abs().max(self.hi.abs())
        }
    }

    /// Float negation (sign flip, NaN stays NaN).
    pub fn negate(self) -> Iv {
        if self.empty() {
            return self;
        }
        Iv {
            lo: -self.hi,
            hi: -self.lo,
            nan: self.nan,
        }
    }

    /// Float absolute value (sign cleared).
    pub fn abs(self) -> Iv {
        if self.empty() {
            return self;
        }
        let (lo, hi) = if self.lo.is_sign_positive() {
            (self.lo, self.hi)
        } else if self.hi.is_sign_negative() {
            (-self.hi, -self.lo)
        } else {
            (0.0, self.lo.abs().max(self.hi))
        };
        Iv {
            lo,
            hi,
            nan: self.nan,
        }
    }

    /// Image under a non-decreasing function (`f(NaN)` = NaN).
    pub fn map_inc(self, f: impl Fn(f32) -> f32) -> Iv {
        if self.empty() {
            return self;
        }
        let (a, b) = (f(self.lo), f(self.hi));
        let nan = self.nan || a.is_nan() || b.is_nan();
        match (a.is_nan(), b.is_nan()) {
            (false, false) => Iv::range(a, b, nan),
            (true, false) => Iv::range(b, b, nan),
            (false, true) => Iv::range(a, a, nan),
            (true, true) => Iv { nan, ..Iv::NAN },
        }
    }
}

/// Hull of the non-NaN values among `vals`, NaN if any is NaN or `nan`.
fn hull_of(vals: &[f32], nan: bool) -> Iv {
    let mut r = Iv { nan, ..Iv::NAN };
    for &v in vals {
        r = r.hull(Iv::point(v));
    }
    r
}

/// Whether the range is one value (bit for bit).
#[inline]
fn single(x: Iv) -> bool {
    x.lo.to_bits() == x.hi.to_bits()
}

/// `a + b`, round to nearest even.
pub fn add(a: Iv, b: Iv) -> Iv {
    if a.empty() || b.empty() {
        return Iv::NAN;
    }
    if single(a) && single(b) {
        return Iv::point(a.lo + b.lo).or_nan(a.nan || b.nan);
    }
    hull_of(
        &[a.lo + b.lo, a.lo + b.hi, a.hi + b.lo, a.hi + b.hi],
        a.nan || b.nan,
    )
}

/// `a - b`.
pub fn sub(a: Iv, b: Iv) -> Iv {
    add(a, b.negate())
}

/// 0 × inf can happen inside the box.
fn mul_nan(a: Iv, b: Iv) -> bool {
    (a.has_zero() && b.has_inf()) || (b.has_zero() && a.has_inf())
}

/// Whether the range holds a finite value.
fn has_finite(x: Iv) -> bool {
    !(x.empty() || (x.lo.to_bits() == x.hi.to_bits() && x.lo.is_infinite()))
}

/// A zero times a finite value inside the box: the zeros the corners may miss when a
/// corner is 0 × inf.
fn mul_zeros(a: Iv, b: Iv) -> bool {
    mul_nan(a, b) && ((a.has_zero() && has_finite(b)) || (b.has_zero() && has_finite(a)))
}

/// `a * b`.
pub fn mul(a: Iv, b: Iv) -> Iv {
    if a.empty() || b.empty() {
        return Iv::NAN;
    }
    if single(a) && single(b) {
        return Iv::point(a.lo * b.lo).or_nan(a.nan || b.nan);
    }
    let r = hull_of(
        &[a.lo * b.lo, a.lo * b.hi, a.hi * b.lo, a.hi * b.hi],
        a.nan || b.nan || mul_nan(a, b),
    );
    if mul_zeros(a, b) {
        r.with_zeros()
    } else {
        r
    }
}

/// `a / b`. A divisor range with zero strictly inside gives every value.
pub fn div(a: Iv, b: Iv) -> Iv {
    if a.empty() || b.empty() {
        return Iv::NAN;
    }
    let nan = a.nan || b.nan || (a.has_zero() && b.has_zero()) || (a.has_inf() && b.has_inf());
    if b.lo < 0.0 && b.hi > 0.0 {
        return Iv::range(f32::NEG_INFINITY, f32::INFINITY, nan);
    }
    let corners = [a.lo / b.lo, a.lo / b.hi, a.hi / b.lo, a.hi / b.hi];
    if corners.iter().any(|q| q.is_nan()) {
        // A corner is 0/0 or inf/inf: quotients of interior points (e.g. -1/inf = -0
        // when a = [-inf, inf], b = [inf, inf]) are not bounded by the corners, so the
        // sound answer is every value.
        return Iv::range(f32::NEG_INFINITY, f32::INFINITY, nan);
    }
    hull_of(&corners, nan)
}

/// `a * b + c` with one rounding (`f32::mul_add` is exactly rounded).
pub fn fma(a: Iv, b: Iv, c: Iv) -> Iv {
    if a.empty() || b.empty() || c.empty() {
        return Iv::NAN;
    }
    if single(a) && single(b) && single(c) {
        return Iv::point(a.lo.mul_add(b.lo, c.lo)).or_nan(a.nan || b.nan || c.nan);
    }
    let mut vals = [0.0f32; 8];
    let mut i = 0;
    for x in [a.lo, a.hi] {
        for y in [b.lo, b.hi] {
            for z in [c.lo, c.hi] {
                vals[i] = x.mul_add(y, z);
                i += 1;
            }
        }
    }
    let r = hull_of(&vals, a.nan || b.nan || c.nan || mul_nan(a, b));
    if mul_zeros(a, b) {
        r.hull(add(Iv::range(-0.0, 0.0, false), c))
    } else {
        r
    }
}

/// Replaces denormals by both zeros (flush allowed): the range gains ±0 when it holds a
/// denormal.
pub fn flush(x: Iv) -> Iv {
    if x.has_denormal() {
        x.with_zeros()
    } else {
        x
    }
}

#[cfg(test)]
mod tests {

    #[test]
    fn div_with_nan_corners_still_contains_interior_quotients() {
        // IEEE 754: -1 / +inf = -0 and 1 / +inf = +0, although the corners
        // -inf/inf and inf/inf are NaN (found by `fuzz --seed 7` in a debug build).
        let a = Iv::range(f32::NEG_INFINITY, f32::INFINITY, false);
        let b = Iv::point(f32::INFINITY);
        let q = div(a, b);
        assert!(q.contains(-0.0) && q.contains(0.0) && q.nan);
        // 0/0 corner: [0, 1] / [0, 1] holds 1/0.5 = 2.
        let q = div(Iv::range(0.0, 1.0, false), Iv::range(0.0, 1.0, false));
        assert!(q.contains(2.0) && q.nan);
    }

    use super::*;

    fn r(lo: f32, hi: f32) -> Iv {
        Iv::range(lo, hi, false)
    }

    #[test]
    fn add_of_ranges_uses_the_ends() {
        // [1, 2] + [3, 4] = [4, 6] (hand computed).
        assert_eq!(add(r(1.0, 2.0), r(3.0, 4.0)), r(4.0, 6.0));
        // inf - inf at a corner: NaN possible.
        let s = add(
            r(1.0, f32::INFINITY),
            r(f32::NEG_INFINITY, f32::NEG_INFINITY),
        );
        assert!(s.nan && s.lo == f32::NEG_INFINITY && s.hi == f32::NEG_INFINITY);
    }

    #[test]
    fn mul_sees_interior_zero_times_infinity() {
        let p = mul(r(-1.0, 1.0), r(f32::INFINITY, f32::INFINITY));
        assert!(p.nan);
        assert_eq!((p.lo, p.hi), (f32::NEG_INFINITY, f32::INFINITY));
        // [-0, +0] * [-1, -1]: both zeros, ordered -0 < +0.
        let z = mul(r(-0.0, 0.0), r(-1.0, -1.0));
        assert_eq!((z.lo.to_bits(), z.hi.to_bits()), (0x8000_0000, 0));
    }

    #[test]
    fn div_by_a_range_around_zero_is_everything() {
        let q = div(r(1.0, 2.0), r(-1.0, 1.0));
        assert_eq!(
            (q.lo, q.hi, q.nan),
            (f32::NEG_INFINITY, f32::INFINITY, false)
        );
        let q = div(r(1.0, 2.0), r(0.0, 1.0));
        assert_eq!((q.lo, q.hi), (1.0, f32::INFINITY));
    }

    #[test]
    fn neg_and_abs_follow_total_order() {
        assert_eq!(r(-1.0, 2.0).negate(), r(-2.0, 1.0));
        assert_eq!(r(-3.0, 2.0).abs(), r(0.0, 3.0));
        assert_eq!(r(-3.0, -2.0).abs(), r(2.0, 3.0));
        assert_eq!(r(-0.0, -0.0).abs().lo.to_bits(), 0);
    }

    #[test]
    fn next_up_and_down() {
        assert_eq!(next_up(1.0).to_bits(), 0x3f80_0001);
        assert_eq!(next_down(1.0).to_bits(), 0x3f7f_ffff);
        assert_eq!(next_up(-0.0).to_bits(), 1);
        assert_eq!(next_down(0.0).to_bits(), 0x8000_0001);
        assert_eq!(next_up(f32::MAX), f32::INFINITY);
    }
}
