//! The non-arithmetic binary64 operations: sign operations, comparisons, minimum and
//! maximum, rounding to integral values and scaling by a power of two.

use super::{D, E};

impl E<'_> {
    /// m1 mask: `x` is a NaN (IEEE 754-2008 §3.4: exponent all ones, trailing significand
    /// non-zero).
    pub fn dnan(&mut self, x: D) -> super::VSrc {
        let abs_hi = self.andk(x.hi, 0x7fff_ffff);
        let inf_hi = self.k(0x7ff0_0000);
        let z = self.k(0);
        let lo_nz = self.cmp("ne", x.lo, z);
        let t = self.cmp_and("eq", abs_hi, inf_hi, lo_nz);
        self.cmp_or("gt", abs_hi, inf_hi, t)
    }

    /// `|x|` (IEEE 754-2008 §5.5.1 abs: clears the sign bit, NaNs included).
    pub fn dabs(&mut self, x: D) -> D {
        D {
            lo: x.lo,
            hi: self.andk(x.hi, 0x7fff_ffff),
        }
    }

    /// `−x` (IEEE 754-2008 §5.5.1 negate: flips the sign bit).
    pub fn dneg(&mut self, x: D) -> D {
        let m = self.k(0x8000_0000);
        D {
            lo: x.lo,
            hi: self.xor(x.hi, m),
        }
    }

    /// Unsigned 64-bit `a < b` (m1).
    pub fn lt64(&mut self, a: D, b: D, signed: bool) -> super::VSrc {
        let t = self.cmp("lt", a.lo, b.lo);
        let t = self.cmp_and("eq", a.hi, b.hi, t);
        if signed {
            self.scmp_or("lt", a.hi, b.hi, t)
        } else {
            self.cmp_or("lt", a.hi, b.hi, t)
        }
    }

    /// 64-bit `a == b` (m1).
    pub fn eq64(&mut self, a: D, b: D) -> super::VSrc {
        let t = self.cmp("eq", a.lo, b.lo);
        self.cmp_and("eq", a.hi, b.hi, t)
    }

    /// The bits of `x` mapped so that unsigned order is the order of the values, −0 just
    /// below +0 (sign set: all bits flipped; sign clear: the sign bit set).
    fn order_key(&mut self, x: D) -> D {
        let m = self.sar(x.hi, 31);
        let mh = self.ork(m, 0x8000_0000);
        D {
            lo: self.xor(x.lo, m),
            hi: self.xor(x.hi, mh),
        }
    }

    /// m1 mask: both are zeros (of either sign).
    fn both_zero(&mut self, a: D, b: D) -> super::VSrc {
        let h = self.or(a.hi, b.hi);
        let h = self.andk(h, 0x7fff_ffff);
        let l = self.or(a.lo, b.lo);
        let any = self.or(h, l);
        self.cmpk("eq", any, 0)
    }

    /// `a < b`, ordered (IEEE 754-2008 §5.11: false when either is a NaN, −0 = +0); m1.
    pub fn dlt(&mut self, a: D, b: D) -> super::VSrc {
        let ka = self.order_key(a);
        let kb = self.order_key(b);
        let lt = self.lt64(ka, kb, false);
        let bz = self.both_zero(a, b);
        let lt = self.andn(lt, bz);
        let na = self.dnan(a);
        let nb = self.dnan(b);
        let n = self.or(na, nb);
        self.andn(lt, n)
    }

    /// `a == b`, ordered (§5.11: −0 = +0, a NaN equals nothing); m1.
    pub fn deq(&mut self, a: D, b: D) -> super::VSrc {
        let same = self.eq64(a, b);
        let bz = self.both_zero(a, b);
        let eq = self.or(same, bz);
        let na = self.dnan(a);
        let nb = self.dnan(b);
        let n = self.or(na, nb);
        self.andn(eq, n)
    }

    /// `a ≥ b`, ordered; m1.
    pub fn dge(&mut self, a: D, b: D) -> super::VSrc {
        let lt = self.dlt(b, a);
        let eq = self.deq(a, b);
        self.or(lt, eq)
    }

    /// The minimum (`max = false`) or maximum: a NaN operand is ignored, two NaNs give a
    /// NaN, a tie (±0) gives `a` (IEEE 754-2008 §5.3.1 minNum/maxNum).
    pub fn dminmax(&mut self, a: D, b: D, max: bool) -> D {
        let other_wins = if max { self.dlt(a, b) } else { self.dlt(b, a) };
        let r = self.sel_d(other_wins, b, a);
        let nb = self.dnan(b);
        let r = self.sel_d(nb, a, r);
        let na = self.dnan(a);
        self.sel_d(na, b, r)
    }

    /// The sign: +1.0, −1.0, or +0.0 for zeros and NaNs (tgsi.rst DSSG).
    pub fn dssg(&mut self, x: D) -> D {
        let z = D {
            lo: self.k(0),
            hi: self.k(0),
        };
        let pos = self.dlt(z, x);
        let neg = self.dlt(x, z);
        let one = self.k(0x3ff0_0000);
        let mone = self.k(0xbff0_0000);
        let h = self.sel(neg, mone, z.hi);
        D {
            lo: z.lo,
            hi: self.sel(pos, one, h),
        }
    }

    /// `trunc(x)` (IEEE 754-2008 §5.3.1 roundToIntegralTowardZero): the fraction bits
    /// cleared; |x| < 1 gives a zero of x's sign; NaNs and infinities are returned.
    pub fn dtrunc(&mut self, x: D) -> D {
        let e = self.shr_and(x.hi, 20, 0x7ff);
        let k = self.k(1075);
        let n = self.sub(k, e);
        let ones = self.k(u32::MAX);
        let mask = self.wshl(&[ones, ones], n);
        let r = D {
            lo: self.and(x.lo, mask[0]),
            hi: self.and(x.hi, mask[1]),
        };
        let sign = self.andk(x.hi, 0x8000_0000);
        let zero = D {
            lo: self.k(0),
            hi: sign,
        };
        let small = self.cmpk("lt", e, 1023);
        let r = self.sel_d(small, zero, r);
        let whole = self.cmpk("ge", e, 1075);
        self.sel_d(whole, x, r)
    }

    /// `floor(x)` (`up = false`, §5.3.1 roundToIntegralTowardNegative) or `ceil(x)`
    /// (toward positive): the truncation, moved by ∓1 when it dropped a fraction of a
    /// negative (positive) x.
    pub fn dfloor_ceil(&mut self, x: D, up: bool) -> D {
        let t = self.dtrunc(x);
        let hi = if up { 0x3ff0_0000 } else { 0xbff0_0000 };
        let step = D {
            lo: self.k(0),
            hi: self.k(hi),
        };
        let moved = self.dadd(t, step);
        let same = self.eq64(t, x);
        let m = self.sar(x.hi, 31);
        let toward = if up { self.not(m) } else { m };
        let adj = self.andn(toward, same);
        self.sel_d(adj, moved, t)
    }

    /// `x − floor(x)` (tgsi.rst DFRAC), one rounding.
    pub fn dfrac(&mut self, x: D) -> D {
        let f = self.dfloor_ceil(x, false);
        let nf = self.dneg(f);
        self.dadd(x, nf)
    }

    /// `x` rounded to the nearest integral value, ties to even (§5.3.1
    /// roundToIntegralTiesToEven): (|x| + 2^52) − 2^52 in round-to-nearest for |x| < 2^52
    /// with x's sign, x itself otherwise.
    pub fn dround(&mut self, x: D) -> D {
        let a = self.dabs(x);
        let big = D {
            lo: self.k(0),
            hi: self.k(0x4330_0000),
        };
        let s = self.dadd(a, big);
        let nbig = self.dneg(big);
        let r = self.dadd(s, nbig);
        let sign = self.andk(x.hi, 0x8000_0000);
        let r = D {
            lo: r.lo,
            hi: self.or(r.hi, sign),
        };
        let e = self.shr_and(x.hi, 20, 0x7ff);
        let whole = self.cmpk("ge", e, 1075);
        self.sel_d(whole, x, r)
    }

    /// `x · 2^n` for a signed word `n`, rounded once (IEEE 754-2008 §5.3.3 scaleB): the
    /// exponent moved, then [`E::round_pack`] (overflow to ±∞, gradual underflow). Zeros,
    /// infinities and NaNs are returned as they are.
    pub fn dldexp(&mut self, x: D, n: super::VSrc) -> D {
        let u = self.unpack(x);
        let lo = self.k((-4096i32) as u32);
        let hi = self.k(4096);
        let n = self.max_s(n, lo);
        let n = self.op("CSEL.s32", &[n, hi, n, hi], &[("cmp", "lt")]);
        // value = m · 2^(e − 1075) = (m · 2^10) · 2^((e − 1) − 1084).
        let e = self.add(u.exp, n);
        let exp = self.addk(e, -1);
        let sig = self.wshlk(&u.sig, 10);
        let r = self.round_pack(u.sign, exp, [sig[0], sig[1]]);
        let own = self.or(u.zero, u.inf);
        let own = self.or(own, u.nan);
        self.sel_d(own, x, r)
    }
}
