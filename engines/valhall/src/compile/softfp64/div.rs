//! Division `a / b` (IEEE 754-2008 §5.4.1 division) by unrolled restoring division: 55
//! quotient bits, then the remainder's non-zeroness as the sticky bit, so the quotient
//! handed to [`E::round_pack`] lies in the same rounding interval as the exact one.

use super::{D, E};

/// Quotient bits computed (leading bit at 54: 53 significand bits and two more).
const QBITS: u32 = 55;

impl E<'_> {
    /// `a / b` rounded once to nearest even.
    ///
    /// Specials: a NaN operand gives the first NaN operand quieted (§6.2.3); 0/0 and ∞/∞
    /// give the default NaN (§7.2); x/0 for finite non-zero x and ∞/y give a signed
    /// infinity (§7.3, §6.1); 0/y and x/∞ give a signed zero.
    pub fn ddiv(&mut self, a: D, b: D) -> D {
        let ua = self.unpack(a);
        let ub = self.unpack(b);
        let z = self.k(0);
        let sign = self.xor(ua.sign, ub.sign);
        // Make ma ≥ mb (both have their leading bit at 52): then ma / mb ∈ [1, 2).
        let ma = ua.sig;
        let mb = ub.sig;
        let t = self.cmp("lt", ma[0], mb[0]);
        let t = self.cmp_and("eq", ma[1], mb[1], t);
        let lt = self.cmp_or("lt", ma[1], mb[1], t);
        let ma2 = self.wshlk(&ma, 1);
        let mut r = vec![self.sel(lt, ma2[0], ma[0]), self.sel(lt, ma2[1], ma[1])];
        // a/b = (ma'/mb) · 2^(ea − eb − [ma < mb]); q = ⌊ma'·2^54 / mb⌋ ∈ [2^54, 2^55);
        // sig = q·2^8, value = sig · 2^(ea − eb − lt − 62) = sig · 2^(exp − 1084).
        let e = self.sub(ua.exp, ub.exp);
        let e = self.addk(e, 1022);
        let exp = self.add(e, lt);
        let mut q = [z, z];
        for i in (0..QBITS).rev() {
            // Remainder r < 2·mb < 2^54: the difference's sign says whether mb fits.
            let d = self.wsub(&r, &mb);
            let fits = self.icmp("ICMP_OR.s32", "ge", "i1", d[1], z, z);
            let w = (i / 32) as usize;
            q[w] = self.shl_or(fits, i % 32, q[w]);
            r = vec![
                self.sel_neg(d[1], r[0], d[0]),
                self.sel_neg(d[1], r[1], d[1]),
            ];
            if i > 0 {
                r = self.wshlk(&r, 1);
            }
        }
        let rem = self.wany(&r);
        let st = self.cmp1("ne", rem, z);
        let sig = self.wshlk(&q, 8);
        let sig = [self.or(sig[0], st), sig[1]];
        let main = self.round_pack(sign, exp, sig);
        // Specials, lowest priority first.
        let inf_hi = self.ork(sign, 0x7ff0_0000);
        let zero_r = self.or(ua.zero, ub.inf);
        let r0 = D { lo: z, hi: sign };
        let res = self.sel_d(zero_r, r0, main);
        let inf_r = self.or(ua.inf, ub.zero);
        let rinf = D { lo: z, hi: inf_hi };
        let res = self.sel_d(inf_r, rinf, res);
        let t1 = self.and(ua.zero, ub.zero);
        let t2 = self.and(ua.inf, ub.inf);
        let inv = self.or(t1, t2);
        let dnan = self.default_nan();
        let res = self.sel_d(inv, dnan, res);
        let qa = self.quiet(a);
        let qb = self.quiet(b);
        let nan = self.sel_d(ua.nan, qa, qb);
        let any = self.or(ua.nan, ub.nan);
        self.sel_d(any, nan, res)
    }
}
