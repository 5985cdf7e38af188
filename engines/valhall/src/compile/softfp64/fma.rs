//! Fused multiply-add `a · b + c` (IEEE 754-2008 §5.4.1 fusedMultiplyAdd: "computed as if
//! with unbounded range and precision, rounding only once"), the core that multiplication
//! also uses.
//!
//! The exact 106-bit product and the addend are placed in 128-bit fixed point (product's
//! leading bit at 124 or 125, addend's at 125), the one with the smaller scale is shifted
//! right with a sticky bit, the two are added or subtracted (the larger magnitude minus
//! the smaller), the sum is normalised to bit 126 and its top 64 bits, with a sticky bit
//! for the rest, go to [`E::round_pack`]. A shifted operand only loses bits when the other
//! one is at least 2^20 times larger, so cancellation never meets a sticky bit.

use super::{Unpacked, D, E};

impl E<'_> {
    /// `a · b + c` rounded once to nearest even.
    ///
    /// Specials: a NaN operand gives the first NaN operand (a, b, c) quieted (§6.2.3);
    /// ∞ · 0 and ∞ − ∞ give the default NaN (§7.2); otherwise an infinite product or
    /// addend gives that infinity (§6.1); an exact zero sum is +0 unless both terms are
    /// zeros of the same sign, which keep it (§6.3).
    pub fn dfma(&mut self, a: D, b: D, c: D) -> D {
        let ua = self.unpack(a);
        let ub = self.unpack(b);
        let uc = self.unpack(c);
        let z = self.k(0);
        // Product: (ma·2^10)·(mb·2^10), leading bit at 124 or 125;
        // value = P · 2^(ea + eb − 2150 − 20).
        let am = self.wshlk(&ua.sig, 10);
        let bm = self.wshlk(&ub.sig, 10);
        let p = self.mul_64x64(&am, &bm);
        let eab = self.add(ua.exp, ub.exp);
        let sp_scale = self.addk(eab, -2170);
        // Addend: mc·2^73, leading bit at 125; value = C · 2^(ec − 1075 − 73).
        let cm = self.wshlk(&[z, z, uc.sig[0], uc.sig[1]], 9);
        let sc_scale = self.addk(uc.exp, -1148);
        // Scale difference; a zero addend is always the one shifted out, a zero product
        // too (when the addend is not zero).
        let dd = self.sub(sp_scale, sc_scale);
        let pz = self.or(ua.zero, ub.zero);
        let m127 = self.k((-127i32) as u32);
        let k127 = self.k(127);
        let dd = self.sel(pz, m127, dd);
        let dd = self.sel(uc.zero, k127, dd);
        let ndd = self.sub(z, dd);
        let amt_c = self.max_s(dd, z);
        let amt_c = self.min_u(amt_c, k127);
        let amt_p = self.max_s(ndd, z);
        let amt_p = self.min_u(amt_p, k127);
        let cs = self.wshr_jam(&cm, amt_c);
        let ps = self.wshr_jam(&p, amt_p);
        let scale = self.sel_neg(dd, sc_scale, sp_scale);
        // Add magnitudes when the signs agree, else subtract the smaller from the larger.
        let sp = self.xor(ua.sign, ub.sign);
        let sc = uc.sign;
        let eff_sub = self.xor(sp, sc);
        let sum = self.wadd(&cs, &ps);
        let dif = self.wsub(&cs, &ps);
        let ndif = self.wsub(&ps, &cs);
        let dneg = dif[3];
        let mut r = Vec::with_capacity(4);
        for i in 0..4 {
            let s = self.sel_neg(dneg, ndif[i], dif[i]);
            r.push(self.sel_neg(eff_sub, s, sum[i]));
        }
        let rnz = self.wany(&r);
        let sign_sub = self.sel_neg(dneg, sp, sc);
        let sign_sub = self.sel(rnz, sign_sub, z);
        let sign = self.sel_neg(eff_sub, sign_sub, sc);
        // Normalise to bit 126 (the sum is below 2^127, so at least one leading zero).
        let lz = self.wclz(&r);
        let sh = self.addk(lz, -1);
        let n = self.wshl(&r, sh);
        let low = self.or(n[0], n[1]);
        let st = self.cmp1("ne", low, z);
        let sig = [self.or(n[2], st), n[3]];
        // value = N · 2^(scale − sh) = sig · 2^(scale − sh + 64) = sig · 2^(exp − 1084).
        let e = self.sub(scale, lz);
        let exp = self.addk(e, 1149);
        let main = self.round_pack(sign, exp, sig);
        let zero = D { lo: z, hi: sign };
        let main = self.sel_d(rnz, main, zero);
        self.fma_specials(a, b, c, [&ua, &ub, &uc], sp, eff_sub, main)
    }

    /// The special cases of [`E::dfma`] over its finite result `main`.
    #[allow(clippy::too_many_arguments)]
    fn fma_specials(
        &mut self,
        a: D,
        b: D,
        c: D,
        u: [&Unpacked; 3],
        sp: super::VSrc,
        eff_sub: super::VSrc,
        main: D,
    ) -> D {
        let [ua, ub, uc] = u;
        let z = self.k(0);
        let p_inf = self.or(ua.inf, ub.inf);
        let t1 = self.and(ua.inf, ub.zero);
        let t2 = self.and(ua.zero, ub.inf);
        let inv = self.or(t1, t2);
        let opposite = self.sar(eff_sub, 31);
        let both_inf = self.and(p_inf, uc.inf);
        let t3 = self.and(both_inf, opposite);
        let inv = self.or(inv, t3);
        let r = self.sel_d(uc.inf, c, main);
        let inf_hi = self.ork(sp, 0x7ff0_0000);
        let pinf = D { lo: z, hi: inf_hi };
        let r = self.sel_d(p_inf, pinf, r);
        let dnan = self.default_nan();
        let r = self.sel_d(inv, dnan, r);
        let qa = self.quiet(a);
        let qb = self.quiet(b);
        let qc = self.quiet(c);
        let nb = self.sel_d(ub.nan, qb, qc);
        let nan = self.sel_d(ua.nan, qa, nb);
        let any = self.or(ua.nan, ub.nan);
        let any = self.or(any, uc.nan);
        self.sel_d(any, nan, r)
    }
}
