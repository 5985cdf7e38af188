//! Software binary64 floating point for Valhall, which has no f64 hardware (as Mesa's
//! soft-fp64 lowering): every double operation is a branch-free sequence of 32-bit
//! integer instructions over (low word, high word) register pairs.
//!
//! Instructions relied on (SEMANTICS.md §4, §5): `IADD.u32`/`ISUB.u32` (wrapping),
//! `IMULD.u64` (32×32 → 64-bit product in a register pair), the shifts
//! `LSHIFT_*`/`RSHIFT_*.i32` (amount modulo 32 from the selected byte, `.signed` for
//! arithmetic right shifts, `.not` on the third source), `CLZ.u32` (CLZ(0) = 32),
//! `ICMP_OR`/`ICMP_AND` `.u32`/`.s32` with `m1` (all ones) and `i1` (1) results, `MUX.i32`
//! (`int_zero`, `neg`) and `CSEL.u32`/`.s32`.
//!
//! The arithmetic follows IEEE 754-2008: §4.3.1 round to nearest, ties to even, §5.4.1
//! (addition, multiplication, fusedMultiplyAdd, division, squareRoot: "computed as if with
//! unbounded range and precision, then rounded"), §6.1 (infinities), §6.2 (NaNs: an
//! operation on a quiet or signalling NaN returns a quiet NaN; this module returns the
//! first NaN operand with its quiet bit set, as x86 does), §6.3 (the sign of exact zero
//! sums: +0 under round-to-nearest), §7.2 (invalid operations return the default quiet
//! NaN [`DEFAULT_NAN_HI`]), §7.4 (overflow to ±∞) and §7.5 (subnormal results are rounded
//! once, never flushed).
//!
//! Internally a finite value is (sign, exponent, significand) as in Berkeley SoftFloat's
//! `roundPackToF64` convention: the value is `sig · 2^(exp − 1084)` with the leading bit of
//! a normalised 64-bit `sig` at bit 62 and ten bits below the last mantissa bit (the lowest
//! one a sticky bit: 1 when any lost bit was 1).

mod add;
mod convert;
mod div;
mod fma;
mod int64;
mod misc;
mod sqrt;
#[cfg(test)]
mod tests;
mod wide;

use super::vcode::{VCode, VDst, VSrc, Val};

/// High word of the default quiet NaN returned by invalid operations (low word 0).
pub const DEFAULT_NAN_HI: u32 = 0x7ff8_0000;

/// A 64-bit value as two 32-bit words.
#[derive(Clone, Copy, Debug)]
pub struct D {
    /// Bits 0–31.
    pub lo: VSrc,
    /// Bits 32–63.
    pub hi: VSrc,
}

/// The instruction emitter the soft-float sequences are written with: one method per
/// 32-bit integer operation, each emitting one Valhall instruction (two for
/// [`E::mul_wide`]) into a fresh virtual register.
pub struct E<'a> {
    /// The code the instructions go to.
    pub code: &'a mut VCode,
}

/// A finite or special binary64 operand taken apart.
#[derive(Clone, Copy)]
struct Unpacked {
    /// The sign as bit 31 of a word (0 or 0x8000_0000).
    sign: VSrc,
    /// The exponent of the normalised significand: value = sig · 2^(exp − 1075).
    exp: VSrc,
    /// The significand with its leading 1 at bit 52 (subnormals normalised), 0 for ±0.
    sig: [VSrc; 2],
    /// m1 masks (all ones when true) of the operand classes.
    nan: VSrc,
    inf: VSrc,
    zero: VSrc,
}

impl E<'_> {
    /// A 32-bit constant.
    pub fn k(&mut self, v: u32) -> VSrc {
        self.code.konst(v)
    }
    fn op(
        &mut self,
        name: &'static str,
        srcs: &[VSrc],
        mods: &[(&'static str, &'static str)],
    ) -> VSrc {
        self.code.op(name, srcs, mods)
    }
    /// `a + b` (wrapping).
    pub fn add(&mut self, a: VSrc, b: VSrc) -> VSrc {
        self.op("IADD.u32", &[a, b], &[])
    }
    /// `a − b` (wrapping).
    pub fn sub(&mut self, a: VSrc, b: VSrc) -> VSrc {
        self.op("ISUB.u32", &[a, b], &[])
    }
    /// `a + k`.
    pub fn addk(&mut self, a: VSrc, k: i32) -> VSrc {
        let k = self.k(k as u32);
        self.add(a, k)
    }
    fn bitop(&mut self, name: &'static str, a: VSrc, b: VSrc) -> VSrc {
        let z = self.code.lane_const(0);
        self.op(name, &[a, z, b], &[])
    }
    /// `a & b`.
    pub fn and(&mut self, a: VSrc, b: VSrc) -> VSrc {
        self.bitop("LSHIFT_AND.i32", a, b)
    }
    /// `a & k`.
    pub fn andk(&mut self, a: VSrc, k: u32) -> VSrc {
        let k = self.k(k);
        self.and(a, k)
    }
    /// `a & !b` (`.not` on the third source).
    pub fn andn(&mut self, a: VSrc, b: VSrc) -> VSrc {
        self.bitop("LSHIFT_AND.i32", a, b.complemented())
    }
    /// `a | b`.
    pub fn or(&mut self, a: VSrc, b: VSrc) -> VSrc {
        self.bitop("LSHIFT_OR.i32", a, b)
    }
    /// `a | k`.
    pub fn ork(&mut self, a: VSrc, k: u32) -> VSrc {
        let k = self.k(k);
        self.or(a, k)
    }
    /// `a ^ b`.
    pub fn xor(&mut self, a: VSrc, b: VSrc) -> VSrc {
        self.bitop("LSHIFT_XOR.i32", a, b)
    }
    /// `!a`.
    pub fn not(&mut self, a: VSrc) -> VSrc {
        let m = self.k(u32::MAX);
        self.xor(a, m)
    }
    /// `(a << n) | b` for a constant `n` in 0..32.
    pub fn shl_or(&mut self, a: VSrc, n: u32, b: VSrc) -> VSrc {
        let n = self.code.lane_const(n);
        self.op("LSHIFT_OR.i32", &[a, n, b], &[])
    }
    /// `a << n` for a constant `n` in 0..32.
    pub fn shl(&mut self, a: VSrc, n: u32) -> VSrc {
        let z = self.k(0);
        self.shl_or(a, n, z)
    }
    /// `(a >> n) | b` (logical) for a constant `n` in 0..32.
    pub fn shr_or(&mut self, a: VSrc, n: u32, b: VSrc) -> VSrc {
        let n = self.code.lane_const(n);
        self.op("RSHIFT_OR.i32", &[a, n, b], &[])
    }
    /// `a >> n` (logical) for a constant `n` in 0..32.
    pub fn shr(&mut self, a: VSrc, n: u32) -> VSrc {
        let z = self.k(0);
        self.shr_or(a, n, z)
    }
    /// `(a >> n) & m` (logical) for a constant `n` in 0..32.
    pub fn shr_and(&mut self, a: VSrc, n: u32, m: u32) -> VSrc {
        let n = self.code.lane_const(n);
        let m = self.k(m);
        self.op("RSHIFT_AND.i32", &[a, n, m], &[])
    }
    /// `a >> n` (arithmetic) for a constant `n` in 0..32.
    pub fn sar(&mut self, a: VSrc, n: u32) -> VSrc {
        let n = self.code.lane_const(n);
        let z = self.k(0);
        self.op("RSHIFT_OR.i32", &[a, n, z], &[("signed", "")])
    }
    /// `(a << (s mod 32)) | b` for a run-time amount `s` (its low byte, SEMANTICS.md §4).
    pub fn shlv_or(&mut self, a: VSrc, s: VSrc, b: VSrc) -> VSrc {
        self.op("LSHIFT_OR.i32", &[a, s.sel("b00"), b], &[])
    }
    /// `a << (s mod 32)`.
    pub fn shlv(&mut self, a: VSrc, s: VSrc) -> VSrc {
        let z = self.k(0);
        self.shlv_or(a, s, z)
    }
    /// `(a >> (s mod 32)) | b` (logical).
    pub fn shrv_or(&mut self, a: VSrc, s: VSrc, b: VSrc) -> VSrc {
        self.op("RSHIFT_OR.i32", &[a, s.sel("b00"), b], &[])
    }
    /// `a >> (s mod 32)` (logical).
    pub fn shrv(&mut self, a: VSrc, s: VSrc) -> VSrc {
        let z = self.k(0);
        self.shrv_or(a, s, z)
    }
    /// Count of leading zeros (32 for 0).
    pub fn clz(&mut self, a: VSrc) -> VSrc {
        self.op("CLZ.u32", &[a], &[])
    }
    /// `cond(a, b) | (c ≠ 0)` as a boolean of result type `ty`, unsigned or signed.
    fn icmp(
        &mut self,
        name: &'static str,
        cond: &'static str,
        ty: &'static str,
        a: VSrc,
        b: VSrc,
        c: VSrc,
    ) -> VSrc {
        self.op(name, &[a, b, c], &[("cmp", cond), ("result_type", ty)])
    }
    /// Unsigned compare, all ones when `cond(a, b)` holds.
    pub fn cmp(&mut self, cond: &'static str, a: VSrc, b: VSrc) -> VSrc {
        let z = self.k(0);
        self.icmp("ICMP_OR.u32", cond, "m1", a, b, z)
    }
    /// Unsigned compare against a constant, all ones when `cond(a, k)` holds.
    pub fn cmpk(&mut self, cond: &'static str, a: VSrc, k: u32) -> VSrc {
        let k = self.k(k);
        self.cmp(cond, a, k)
    }
    /// Unsigned compare, 1 when `cond(a, b)` holds.
    pub fn cmp1(&mut self, cond: &'static str, a: VSrc, b: VSrc) -> VSrc {
        let z = self.k(0);
        self.icmp("ICMP_OR.u32", cond, "i1", a, b, z)
    }
    /// Signed compare, all ones when `cond(a, b)` holds.
    pub fn scmp(&mut self, cond: &'static str, a: VSrc, b: VSrc) -> VSrc {
        let z = self.k(0);
        self.icmp("ICMP_OR.s32", cond, "m1", a, b, z)
    }
    /// Unsigned `cond(a, b) | c` (m1).
    pub fn cmp_or(&mut self, cond: &'static str, a: VSrc, b: VSrc, c: VSrc) -> VSrc {
        self.icmp("ICMP_OR.u32", cond, "m1", a, b, c)
    }
    /// Unsigned `cond(a, b) & c` (m1).
    pub fn cmp_and(&mut self, cond: &'static str, a: VSrc, b: VSrc, c: VSrc) -> VSrc {
        self.icmp("ICMP_AND.u32", cond, "m1", a, b, c)
    }
    /// Signed `cond(a, b) | c` (m1).
    pub fn scmp_or(&mut self, cond: &'static str, a: VSrc, b: VSrc, c: VSrc) -> VSrc {
        self.icmp("ICMP_OR.s32", cond, "m1", a, b, c)
    }
    /// Signed `cond(a, b) & c` (m1).
    pub fn scmp_and(&mut self, cond: &'static str, a: VSrc, b: VSrc, c: VSrc) -> VSrc {
        self.icmp("ICMP_AND.s32", cond, "m1", a, b, c)
    }
    /// `m ≠ 0 ? t : f` (`MUX.i32` int_zero selects its first source where the mask is 0).
    pub fn sel(&mut self, m: VSrc, t: VSrc, f: VSrc) -> VSrc {
        self.op("MUX.i32", &[f, t, m], &[("mux", "int_zero")])
    }
    /// `m < 0 ? t : f` (`MUX.i32.neg`: first source where the mask's sign bit is set).
    pub fn sel_neg(&mut self, m: VSrc, t: VSrc, f: VSrc) -> VSrc {
        self.op("MUX.i32", &[t, f, m], &[("mux", "neg")])
    }
    /// Both words selected: `m ≠ 0 ? t : f`.
    pub fn sel_d(&mut self, m: VSrc, t: D, f: D) -> D {
        D {
            lo: self.sel(m, t.lo, f.lo),
            hi: self.sel(m, t.hi, f.hi),
        }
    }
    /// Signed maximum (`CSEL.s32` gt).
    pub fn max_s(&mut self, a: VSrc, b: VSrc) -> VSrc {
        self.op("CSEL.s32", &[a, b, a, b], &[("cmp", "gt")])
    }
    /// Unsigned minimum (`CSEL.u32` lt).
    pub fn min_u(&mut self, a: VSrc, b: VSrc) -> VSrc {
        self.op("CSEL.u32", &[a, b, a, b], &[("cmp", "lt")])
    }
    /// `a · b` low word (`IMUL.i32`).
    pub fn mul(&mut self, a: VSrc, b: VSrc) -> VSrc {
        self.op("IMUL.i32", &[a, b], &[])
    }
    /// The unsigned 64-bit product `a · b` (`IMULD.u64` into the scratch pair, then copied).
    pub fn mul_wide(&mut self, a: VSrc, b: VSrc) -> [VSrc; 2] {
        let pair = super::abi::ADDR_REG;
        self.code
            .ins("IMULD.u64", VDst::P(pair), &[a.sel("w0"), b.sel("w0")], &[]);
        let lo = self.op("MOV.i32", &[VSrc::new(Val::P(pair))], &[]);
        let hi = self.op("MOV.i32", &[VSrc::new(Val::P(pair + 1))], &[]);
        [lo, hi]
    }

    /// Takes `x` apart (IEEE 754-2008 §3.4: sign, biased exponent, trailing significand;
    /// a subnormal's exponent is that of the smallest normal, its significand is
    /// normalised here with CLZ).
    fn unpack(&mut self, x: D) -> Unpacked {
        let sign = self.andk(x.hi, 0x8000_0000);
        let abs_hi = self.andk(x.hi, 0x7fff_ffff);
        let e = self.shr_and(x.hi, 20, 0x7ff);
        let mhi = self.andk(x.hi, 0x000f_ffff);
        let hidden = self.k(0x0010_0000);
        let z = self.k(0);
        let h = self.sel(e, hidden, z);
        let mhi = self.or(mhi, h);
        let one = self.k(1);
        let e1 = self.op("CSEL.u32", &[e, z, e, one], &[("cmp", "gt")]);
        let m = [x.lo, mhi];
        let lz = self.wclz(&m);
        let sh = self.addk(lz, -11);
        let sig = self.wshl(&m, sh);
        let exp = self.sub(e1, sh);
        let inf_hi = self.k(0x7ff0_0000);
        let nan = self.dnan(x);
        let lo_z = self.cmp("eq", x.lo, z);
        let inf = self.cmp_and("eq", abs_hi, inf_hi, lo_z);
        let zero = self.cmp_and("eq", abs_hi, z, lo_z);
        Unpacked {
            sign,
            exp,
            sig: [sig[0], sig[1]],
            nan,
            inf,
            zero,
        }
    }

    /// `x` with its quiet bit set (IEEE 754-2008 §6.2.1: the quiet bit is the first bit of
    /// the trailing significand).
    fn quiet(&mut self, x: D) -> D {
        D {
            lo: x.lo,
            hi: self.ork(x.hi, 0x0008_0000),
        }
    }

    /// The value `sign · 2^(exp − 1084) · sig` rounded to nearest even (IEEE 754-2008
    /// §4.3.1) and packed, with overflow to ±∞ (§7.4) and gradual underflow (§7.5).
    /// `sig` must be below 2^63; with `exp ≥ 0` its bit 62 must be set. `exp` is a signed
    /// word. The structure is SoftFloat's `softfloat_roundPackToF64`.
    fn round_pack(&mut self, sign: VSrc, exp: VSrc, sig: [VSrc; 2]) -> D {
        let z = self.k(0);
        let neg = self.sub(z, exp);
        let tiny = self.scmp("lt", exp, z);
        let k63 = self.k(63);
        let d = self.min_u(neg, k63);
        let j = self.wshr_jam(&sig, d);
        let sig = [self.sel(tiny, j[0], sig[0]), self.sel(tiny, j[1], sig[1])];
        let exp = self.sel(tiny, z, exp);
        let half = self.k(0x200);
        let s2 = self.wadd(&sig, &[half, z]);
        let t = self.shl(s2[1], 22);
        let lo = self.shr_or(s2[0], 10, t);
        let hi = self.shr(s2[1], 10);
        let low = self.andk(sig[0], 0x3ff);
        let tie = self.cmp1("eq", low, half);
        let lo = self.andn(lo, tie);
        let nz = self.or(lo, hi);
        let exp = self.sel(nz, exp, z);
        let max = self.k(0x7fd);
        let eq = self.scmp("eq", exp, max);
        let carry = self.scmp_and("lt", s2[1], z, eq);
        let ovf = self.scmp_or("gt", exp, max, carry);
        let e = self.shl(exp, 20);
        let h = self.add(e, hi);
        let h = self.or(h, sign);
        let inf = self.ork(sign, 0x7ff0_0000);
        D {
            lo: self.sel(ovf, z, lo),
            hi: self.sel(ovf, inf, h),
        }
    }

    /// The default NaN (IEEE 754-2008 §7.2).
    fn default_nan(&mut self) -> D {
        D {
            lo: self.k(0),
            hi: self.k(DEFAULT_NAN_HI),
        }
    }

    /// `a · b` (IEEE 754-2008 §5.4.1 multiplication): `a · b + (−0.0)`, which is `a · b`
    /// rounded once, zero signs included (§6.3: x + (−0) = x for x = ±0).
    pub fn dmul(&mut self, a: D, b: D) -> D {
        let mz = D {
            lo: self.k(0),
            hi: self.k(0x8000_0000),
        };
        self.dfma(a, b, mz)
    }
}
