//! Addition `a + b` (IEEE 754-2008 §5.4.1 addition), about half the instructions of the
//! fused multiply-add route: the operand of smaller magnitude is aligned to the larger one
//! with a sticky bit (nine guard bits below the significand), the two are added or
//! subtracted, the sum is normalised and rounded once. Bits are only lost in the alignment
//! when the exponents differ by ten or more, where the sum cannot cancel by more than one
//! bit, so the sticky bit never reaches the rounding position.

use super::{D, E};

impl E<'_> {
    /// `a + b` rounded once to nearest even.
    ///
    /// Specials: a NaN operand gives the first NaN operand quieted (§6.2.3); ∞ − ∞ gives
    /// the default NaN (§7.2); otherwise an infinite operand is the result (§6.1); an exact
    /// zero sum of opposite signs is +0, of two zeros of one sign that zero (§6.3).
    pub fn dadd(&mut self, a: D, b: D) -> D {
        let ua = self.unpack(a);
        let ub = self.unpack(b);
        let z = self.k(0);
        // x: the operand of larger magnitude, y: the other.
        let abs_a = D {
            lo: a.lo,
            hi: self.andk(a.hi, 0x7fff_ffff),
        };
        let abs_b = D {
            lo: b.lo,
            hi: self.andk(b.hi, 0x7fff_ffff),
        };
        let swap = self.lt64(abs_a, abs_b, false);
        let sx = self.sel(swap, ub.sign, ua.sign);
        let sy = self.sel(swap, ua.sign, ub.sign);
        let ex = self.sel(swap, ub.exp, ua.exp);
        let ey = self.sel(swap, ua.exp, ub.exp);
        let mx = [
            self.sel(swap, ub.sig[0], ua.sig[0]),
            self.sel(swap, ub.sig[1], ua.sig[1]),
        ];
        let my = [
            self.sel(swap, ua.sig[0], ub.sig[0]),
            self.sel(swap, ua.sig[1], ub.sig[1]),
        ];
        // Leading bits at 61: value = m · 2^(e − 1075 − 9).
        let mx = self.wshlk(&mx, 9);
        let my = self.wshlk(&my, 9);
        let d = self.sub(ex, ey);
        let k63 = self.k(63);
        let d = self.min_u(d, k63);
        let my = self.wshr_jam(&my, d);
        let sum = self.wadd(&mx, &my);
        let dif = self.wsub(&mx, &my);
        let eff_sub = self.xor(sx, sy);
        let s = [
            self.sel_neg(eff_sub, dif[0], sum[0]),
            self.sel_neg(eff_sub, dif[1], sum[1]),
        ];
        // s < 2^63: normalise to bit 62; value = s · 2^(ex − 1084).
        let lz = self.wclz(&s);
        let sh = self.addk(lz, -1);
        let n = self.wshl(&s, sh);
        let e = self.sub(ex, lz);
        let exp = self.addk(e, 1);
        let main = self.round_pack(sx, exp, [n[0], n[1]]);
        let snz = self.wany(&s);
        let zero_sign = self.sel_neg(eff_sub, z, sx);
        let zero = D {
            lo: z,
            hi: zero_sign,
        };
        let r = self.sel_d(snz, main, zero);
        // Specials.
        let any_inf = self.or(ua.inf, ub.inf);
        let x = self.sel_d(swap, b, a);
        let r = self.sel_d(any_inf, x, r);
        let both_inf = self.and(ua.inf, ub.inf);
        let opposite = self.sar(eff_sub, 31);
        let inv = self.and(both_inf, opposite);
        let dnan = self.default_nan();
        let r = self.sel_d(inv, dnan, r);
        let qa = self.quiet(a);
        let qb = self.quiet(b);
        let nan = self.sel_d(ua.nan, qa, qb);
        let any = self.or(ua.nan, ub.nan);
        self.sel_d(any, nan, r)
    }
}
