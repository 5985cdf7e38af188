//! 64-bit integer arithmetic as sequences of 32-bit operations (tgsi.rst "64-bit Integer
//! ISA"): carries by unsigned compare, products from `IMULD.u64` and `IMUL.i32`, division
//! by unrolled restoring division, shifts by the modulo-32 shifts of SEMANTICS.md §4.

use super::{VSrc, D, E};

impl E<'_> {
    /// `a + b` modulo 2^64. `carry = false` drops the carry from the low word into the high
    /// word: the injected fault `u64add-no-carry`, never used otherwise.
    pub fn iadd64(&mut self, a: D, b: D, carry: bool) -> D {
        if carry {
            let s = self.wadd(&[a.lo, a.hi], &[b.lo, b.hi]);
            return D { lo: s[0], hi: s[1] };
        }
        D {
            lo: self.add(a.lo, b.lo),
            hi: self.add(a.hi, b.hi),
        }
    }

    /// `a · b` modulo 2^64: the full product of the low words plus the low words of the
    /// cross products in the high word.
    pub fn imul64(&mut self, a: D, b: D) -> D {
        let p = self.mul_wide(a.lo, b.lo);
        let t1 = self.mul(a.lo, b.hi);
        let t2 = self.mul(a.hi, b.lo);
        let h = self.add(p[1], t1);
        D {
            lo: p[0],
            hi: self.add(h, t2),
        }
    }

    /// Unsigned quotient and remainder by restoring division, one quotient bit per step
    /// from bit 63: r = 2r + next bit of n; where r ≥ d (or the doubling carried out of
    /// bit 63) subtract d and set the bit. Division by zero gives q = 2^64 − 1 and r = n.
    pub fn udivmod64(&mut self, n: D, d: D) -> (D, D) {
        let z = self.k(0);
        let nw = [n.lo, n.hi];
        let mut r = D { lo: z, hi: z };
        let mut q = [z, z];
        for i in (0..64u32).rev() {
            let top = self.sar(r.hi, 31);
            let bit = self.shr_and(nw[(i / 32) as usize], i % 32, 1);
            let t = self.shr(r.lo, 31);
            let r1 = self.shl_or(r.hi, 1, t);
            let r0 = self.shl_or(r.lo, 1, bit);
            let rr = D { lo: r0, hi: r1 };
            let lt = self.lt64(rr, d, false);
            let nlt = self.not(lt);
            let fits = self.or(top, nlt);
            let diff = self.wsub(&[r0, r1], &[d.lo, d.hi]);
            r = D {
                lo: self.sel(fits, diff[0], r0),
                hi: self.sel(fits, diff[1], r1),
            };
            let one = self.shr(fits, 31);
            let w = (i / 32) as usize;
            q[w] = self.shl_or(one, i % 32, q[w]);
        }
        (D { lo: q[0], hi: q[1] }, r)
    }

    /// Signed quotient (`rem = false`, truncated toward zero) or remainder (the sign of
    /// `a`) from the unsigned division of the magnitudes.
    pub fn idivmod64(&mut self, a: D, b: D, rem: bool) -> D {
        let ma = self.iabs64(a);
        let mb = self.iabs64(b);
        let (q, r) = self.udivmod64(ma, mb);
        let (v, sign) = if rem {
            (r, a.hi)
        } else {
            (q, self.xor(a.hi, b.hi))
        };
        let n = self.ineg64(v);
        D {
            lo: self.sel_neg(sign, n.lo, v.lo),
            hi: self.sel_neg(sign, n.hi, v.hi),
        }
    }

    /// `|x|` in two's complement (INT64_MIN stays INT64_MIN).
    pub fn iabs64(&mut self, x: D) -> D {
        let n = self.ineg64(x);
        D {
            lo: self.sel_neg(x.hi, n.lo, x.lo),
            hi: self.sel_neg(x.hi, n.hi, x.hi),
        }
    }

    /// −1, 0 or 1 by the sign of a signed 64-bit integer.
    pub fn issg64(&mut self, x: D) -> D {
        let m = self.sar(x.hi, 31);
        let any = self.or(x.lo, x.hi);
        let nz = self.cmpk("ne", any, 0);
        let one = self.shr(nz, 31);
        D {
            lo: self.or(m, one),
            hi: m,
        }
    }

    /// `x << (s mod 64)`.
    pub fn ishl64(&mut self, x: D, s: VSrc) -> D {
        let r = self.wshl(&[x.lo, x.hi], s);
        D { lo: r[0], hi: r[1] }
    }

    /// `x >> (s mod 64)`, logical or (`signed`) arithmetic.
    pub fn ishr64(&mut self, x: D, s: VSrc, signed: bool) -> D {
        if !signed {
            let r = self.wshr_trunc(&[x.lo, x.hi], s);
            return D { lo: r[0], hi: r[1] };
        }
        let big = self.andk(s, 32);
        let ns = self.not(s);
        let z = self.k(0);
        let hi_s = self.op("RSHIFT_OR.i32", &[x.hi, s.sel("b00"), z], &[("signed", "")]);
        let t = self.shl(x.hi, 1);
        let t = self.shlv(t, ns);
        let lo_s = self.shrv_or(x.lo, s, t);
        let fill = self.sar(x.hi, 31);
        D {
            lo: self.sel(big, hi_s, lo_s),
            hi: self.sel(big, fill, hi_s),
        }
    }
}
