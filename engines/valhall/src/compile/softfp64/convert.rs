//! Conversions between binary64 and binary32 / 32- and 64-bit integers (IEEE 754-2008
//! §5.4.2 formatOf conversions, §5.8 integer conversions, §5.4.1 convertFromInt), in
//! 32-bit integer instructions.
//!
//! Float → integer conversions truncate; out-of-range and NaN operands give some value
//! (tgsi.rst leaves them undefined; the sequences never fault).

use super::{VSrc, D, E};

impl E<'_> {
    /// The binary32 `sign · 2^(exp − 156) · sig` rounded to nearest even: SoftFloat's
    /// `roundPackToF32` convention (leading bit of `sig` at 30, seven extra bits; `exp`
    /// signed, the biased exponent minus one).
    fn round_pack32(&mut self, sign: VSrc, exp: VSrc, sig: VSrc) -> VSrc {
        let z = self.k(0);
        let neg = self.sub(z, exp);
        let tiny = self.scmp("lt", exp, z);
        let k31 = self.k(31);
        let d = self.min_u(neg, k31);
        let j = self.wshr_jam(&[sig, z], d);
        let sig = self.sel(tiny, j[0], sig);
        let exp = self.sel(tiny, z, exp);
        let half = self.k(0x40);
        let s2 = self.add(sig, half);
        let r = self.shr(s2, 7);
        let low = self.andk(sig, 0x7f);
        let tie = self.cmp1("eq", low, half);
        let r = self.andn(r, tie);
        let exp = self.sel(r, exp, z);
        let max = self.k(0xfd);
        let eq = self.scmp("eq", exp, max);
        let carry = self.scmp_and("lt", s2, z, eq);
        let ovf = self.scmp_or("gt", exp, max, carry);
        let e = self.shl(exp, 23);
        let v = self.add(e, r);
        let v = self.or(v, sign);
        let inf = self.ork(sign, 0x7f80_0000);
        self.sel(ovf, inf, v)
    }

    /// binary64 → binary32, rounded to nearest even (§5.4.2 convertFormat): NaNs become a
    /// quiet NaN with x's sign and the top payload bits, infinities and zeros keep their
    /// sign, tiny values round to subnormals or zero, large ones overflow to ±∞.
    pub fn d2f(&mut self, x: D) -> VSrc {
        let u = self.unpack(x);
        // m (leading bit at 52) jammed to 31 bits (leading bit at 30):
        // value = m · 2^(e − 1075) = s · 2^(e − 1053) = s · 2^(exp − 156).
        let k22 = self.k(22);
        let s = self.wshr_jam(&u.sig, k22);
        let exp = self.addk(u.exp, -897);
        let r = self.round_pack32(u.sign, exp, s[0]);
        let zero_or_inf = self.ork(u.sign, 0x7f80_0000);
        let special = self.sel(u.inf, zero_or_inf, u.sign);
        let own = self.or(u.inf, u.zero);
        let r = self.sel(own, special, r);
        let payload = self.shr_and(x.hi, 0, 0x000f_ffff);
        let payload = self.shl(payload, 3);
        let top = self.shr(x.lo, 29);
        let payload = self.or(payload, top);
        let q = self.ork(u.sign, 0x7fc0_0000);
        let nan = self.or(q, payload);
        self.sel(u.nan, nan, r)
    }

    /// binary32 → binary64, exact (§5.4.2): subnormals normalised, NaNs quieted with
    /// their payload kept.
    pub fn f2d(&mut self, x: VSrc) -> D {
        let sign = self.andk(x, 0x8000_0000);
        let e = self.shr_and(x, 23, 0xff);
        let m = self.andk(x, 0x007f_ffff);
        // Subnormal: shift the leading bit of m to bit 23, exponent 1 − shift.
        let lz = self.clz(m);
        let sh = self.addk(lz, -8);
        let mn = self.shlv(m, sh);
        let mn = self.andk(mn, 0x007f_ffff);
        let one = self.k(1);
        let en = self.sub(one, sh);
        let z = self.k(0);
        let sub = self.cmp("eq", e, z);
        let is_zero = self.cmp_and("eq", m, z, sub);
        let m = self.sel(sub, mn, m);
        let e = self.sel(sub, en, e);
        // Rebias 127 → 1023; the 23 fraction bits go to bits 29–51.
        let e = self.addk(e, 896);
        let hi_m = self.shr(m, 3);
        let lo = self.shl(m, 29);
        let eh = self.shl(e, 20);
        let hi = self.or(eh, hi_m);
        let hi = self.or(hi, sign);
        let fin = D { lo, hi };
        let zero = D { lo: z, hi: sign };
        let r = self.sel_d(is_zero, zero, fin);
        let top = self.cmpk("eq", e, 255 + 896);
        // Infinity or NaN: exponent all ones, the fraction moved up, NaNs quieted.
        let m_up = self.shr(m, 3);
        let inf_hi = self.ork(sign, 0x7ff0_0000);
        let inf_hi = self.or(inf_hi, m_up);
        let mz = self.cmp("ne", m, z);
        let qbit = self.andk(mz, 0x0008_0000);
        let inf_hi = self.or(inf_hi, qbit);
        let special = D { lo, hi: inf_hi };
        self.sel_d(top, special, r)
    }

    /// A 64-bit integer → binary64, rounded to nearest even (§5.4.1 convertFromInt);
    /// `signed`: two's complement.
    pub fn i2d64(&mut self, x: D, signed: bool) -> D {
        let (sign, lz, n) = self.int_normalized(x, signed);
        // n has its leading bit at 63: sig = n >> 1 (jammed), value = sig · 2^(1 − lz),
        // so exp = 1085 − lz.
        let one = self.k(1);
        let sig = self.wshr_jam(&n, one);
        let k = self.k(1085);
        let exp = self.sub(k, lz);
        self.round_pack(sign, exp, [sig[0], sig[1]])
    }

    /// A 64-bit integer → binary32, rounded to nearest even.
    pub fn i2f64(&mut self, x: D, signed: bool) -> VSrc {
        let (sign, lz, n) = self.int_normalized(x, signed);
        // Leading bit at 63 → at 30: sig = n >> 33 (jammed), value = sig · 2^(33 − lz),
        // so exp = 189 − lz.
        let k33 = self.k(33);
        let sig = self.wshr_jam(&n, k33);
        let k = self.k(189);
        let exp = self.sub(k, lz);
        self.round_pack32(sign, exp, sig[0])
    }

    /// The sign bit (as bit 31) of a 64-bit integer, the leading zeros `lz` of its
    /// magnitude, and the magnitude shifted left by `lz` (leading bit at 63; 0 for 0).
    fn int_normalized(&mut self, x: D, signed: bool) -> (VSrc, VSrc, Vec<VSrc>) {
        let (sign, mag) = if signed {
            (self.andk(x.hi, 0x8000_0000), self.iabs64(x))
        } else {
            (self.k(0), x)
        };
        let lz = self.wclz(&[mag.lo, mag.hi]);
        let n = self.wshl(&[mag.lo, mag.hi], lz);
        (sign, lz, n)
    }

    /// binary64 → 64-bit integer, truncating (§5.8 convertToIntegerTowardZero);
    /// `signed`: two's complement. Out-of-range values and NaNs give some value.
    pub fn d2i64(&mut self, x: D, signed: bool) -> D {
        let u = self.unpack(x);
        // value = m · 2^(e − 1075): shift right by 1075 − e when positive (bits below the
        // binary point dropped), left by e − 1075 otherwise.
        let k = self.k(1075);
        let rs = self.sub(k, u.exp);
        let k63 = self.k(63);
        let rsc = self.min_u(rs, k63);
        let k0 = self.k(0);
        let right = self.wshr_trunc(&u.sig, rsc);
        let ls = self.sub(k0, rs);
        let left = self.wshl(&u.sig, ls);
        let r = D {
            lo: self.sel_neg(rs, left[0], right[0]),
            hi: self.sel_neg(rs, left[1], right[1]),
        };
        let r = self.sel_d(u.zero, D { lo: k0, hi: k0 }, r);
        if !signed {
            return r;
        }
        let n = self.ineg64(r);
        self.sel_d(u.sign, n, r)
    }

    /// `a >> s` (logical, bits lost) for a run-time `s` in 0..64.
    pub fn wshr_trunc(&mut self, a: &[VSrc], s: VSrc) -> Vec<VSrc> {
        let z = self.k(0);
        let big = self.andk(s, 32);
        let ns = self.not(s);
        let hi_s = self.shrv(a[1], s);
        let t = self.shl(a[1], 1);
        let t = self.shlv(t, ns);
        let lo_s = self.shrv_or(a[0], s, t);
        vec![self.sel(big, hi_s, lo_s), self.sel(big, z, hi_s)]
    }

    /// Two's complement negation of a 64-bit integer.
    pub fn ineg64(&mut self, x: D) -> D {
        let z = self.k(0);
        let r = self.wsub(&[z, z], &[x.lo, x.hi]);
        D { lo: r[0], hi: r[1] }
    }
}
