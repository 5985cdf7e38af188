//! Square root (IEEE 754-2008 §5.4.1 squareRoot) by the unrolled digit-by-digit (restoring)
//! integer square root of the significand scaled to an even exponent: 55 root bits, then
//! the remainder's non-zeroness as the sticky bit.

use super::{D, E};

/// Root bits computed (leading bit at 54).
const RBITS: u32 = 55;

impl E<'_> {
    /// `√x` rounded once to nearest even.
    ///
    /// Specials (§6.3, §7.2, §9.2 sqrt): NaN gives x quieted; √(−0) = −0, √(+0) = +0,
    /// √(+∞) = +∞; any other negative x gives the default NaN.
    pub fn dsqrt(&mut self, x: D) -> D {
        let u = self.unpack(x);
        let z = self.k(0);
        // x = m · 2^(e − 1075) with e − 1023 made even by doubling m: m ∈ [2^52, 2^54).
        let eu = self.addk(u.exp, -1023);
        let odd = self.andk(eu, 1);
        let m2 = self.wshlk(&u.sig, 1);
        let m = [
            self.sel(odd, m2[0], u.sig[0]),
            self.sel(odd, m2[1], u.sig[1]),
        ];
        let eu = self.sub(eu, odd);
        // s = ⌊√(m · 2^56)⌋ ∈ [2^54, 2^55); √x = s · 2^((eu − 52)/2 − 28);
        // sig = s · 2^8, so exp = eu/2 + 1022.
        let half = self.sar(eu, 1);
        let exp = self.addk(half, 1022);
        // Radicand bit pairs from the top: pair i is bits (109 − 2i, 108 − 2i) of m · 2^56,
        // i.e. bits (53 − 2i, 52 − 2i) of m for i ≤ 26, and zero pairs after.
        let mut r = vec![z, z];
        let mut q = vec![z, z];
        for i in 0..RBITS {
            let pair = if i <= 26 {
                let b = 52 - 2 * i;
                self.shr_and(m[(b / 32) as usize], b % 32, 3)
            } else {
                z
            };
            // r = 4r + pair (r < 2^56 before the shift).
            let t = self.shr(r[0], 30);
            let r1 = self.shl_or(r[1], 2, t);
            let r0 = self.shl_or(r[0], 2, pair);
            // t = 4·root + 1, root = the bits found so far = q >> (55 − i).
            let tr = if i < 54 {
                self.wshrk(&q, 53 - i)
            } else {
                self.wshlk(&q, 1)
            };
            let one = self.k(1);
            let tr = [self.or(tr[0], one), tr[1]];
            let d = self.wsub(&[r0, r1], &tr);
            let fits = self.icmp("ICMP_OR.s32", "ge", "i1", d[1], z, z);
            let pos = RBITS - 1 - i;
            let w = (pos / 32) as usize;
            q[w] = self.shl_or(fits, pos % 32, q[w]);
            r = vec![self.sel_neg(d[1], r0, d[0]), self.sel_neg(d[1], r1, d[1])];
        }
        let rem = self.wany(&r);
        let st = self.cmp1("ne", rem, z);
        let sig = self.wshlk(&q, 8);
        let sig = [self.or(sig[0], st), sig[1]];
        let main = self.round_pack(z, exp, sig);
        // Specials, lowest priority first: ±0 and +∞ are their own root.
        let own = self.or(u.zero, u.inf);
        let res = self.sel_d(own, x, main);
        let neg = self.sar(u.sign, 31);
        let neg = self.andn(neg, u.zero);
        let dnan = self.default_nan();
        let res = self.sel_d(neg, dnan, res);
        let qx = self.quiet(x);
        self.sel_d(u.nan, qx, res)
    }
}
