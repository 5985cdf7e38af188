//! 32-bit integer and bit opcodes (tgsi.rst "Integer ISA", "Bitwise ISA"). Arithmetic wraps;
//! division never traps: zero divisors and INT_MIN / -1 are replaced lane by lane before the
//! (per-lane, scalar) division, and the result is patched afterwards.
//!
//! SIMD: add/mul/compare/min/max/logic, IMUL_HI/UMUL_HI (64-bit widening multiplies), BREV and
//! POPC (bit tricks with immediate shifts), LSB/UMSB/IMSB (exponent of an exact int → float
//! conversion), SHL and BFI (a left shift by a per-lane count is a multiplication by
//! [`pow2`]). Per-lane scalar (x86-64 has no vector shift with per-lane counts before AVX2
//! and Cranelift 0.135 exposes none, nor vector division): USHR, ISHR, UBFE, IBFE, IDIV, MOD,
//! UDIV, UMOD.

use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::types::{F32X4, I32X4};
use cranelift_codegen::ir::{InstBuilder, Value};

use super::simd::{and_const, cast, ci, eq_const, high_words, icmp, iv, per_lane, sel, Fb};

/// Applies a binary `i32x4` instruction to two channel vectors.
macro_rules! ibin {
    ($b:expr, $op:ident, $x:expr, $y:expr) => {{
        let x = $crate::alu::simd::iv($b, $x);
        let y = $crate::alu::simd::iv($b, $y);
        $b.ins().$op(x, y)
    }};
}
pub(super) use ibin;

/// UMAD: `x * y + z` modulo 2^32.
pub(super) fn umad(b: &mut Fb, x: Value, y: Value, z: Value) -> Value {
    let p = ibin!(b, imul, x, y);
    ibin!(b, iadd, p, z)
}

/// IMUL_HI (`signed`) / UMUL_HI: high 32 bits of the 64-bit product, from two widening
/// `i64x2` multiplies.
pub(super) fn mul_hi(b: &mut Fb, x: Value, y: Value, signed: bool) -> Value {
    let (x, y) = (iv(b, x), iv(b, y));
    let (xl, xh, yl, yh) = if signed {
        (
            b.ins().swiden_low(x),
            b.ins().swiden_high(x),
            b.ins().swiden_low(y),
            b.ins().swiden_high(y),
        )
    } else {
        (
            b.ins().uwiden_low(x),
            b.ins().uwiden_high(x),
            b.ins().uwiden_low(y),
            b.ins().uwiden_high(y),
        )
    };
    let pl = b.ins().imul(xl, yl);
    let ph = b.ins().imul(xh, yh);
    high_words(b, pl, ph)
}

/// Which integer division [`div`] lowers.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Div {
    /// IDIV: signed quotient, truncating. x / 0 (undefined) gives 0, INT_MIN / -1 (undefined)
    /// gives INT_MIN.
    SignedQuot,
    /// MOD: signed remainder with the sign of x; INT_MIN mod -1 = 0; x mod 0 (undefined) = -1.
    SignedRem,
    /// UDIV: x / 0 = 0xffffffff (tgsi.rst).
    UnsignedQuot,
    /// UMOD: x mod 0 = 0xffffffff (tgsi.rst).
    UnsignedRem,
}

/// IDIV/MOD/UDIV/UMOD: divisors 0 (and -1 for the signed forms) are replaced by 1 so no lane
/// can trap, the division runs per lane, and those lanes are then patched: `-x` for x / -1,
/// `0` for x mod -1, and the zero-divisor value.
pub(super) fn div(b: &mut Fb, x: Value, y: Value, kind: Div) -> Value {
    let (x, y) = (iv(b, x), iv(b, y));
    let zero = eq_const(b, y, 0);
    let signed = matches!(kind, Div::SignedQuot | Div::SignedRem);
    let neg_one = eq_const(b, y, u32::MAX);
    let bad = if signed {
        b.ins().bor(zero, neg_one)
    } else {
        zero
    };
    let one = ci(b, 1);
    let safe = sel(b, bad, one, y);
    let r = per_lane(b, [x, safe], |b, [p, q]| match kind {
        Div::SignedQuot => b.ins().sdiv(p, q),
        Div::SignedRem => b.ins().srem(p, q),
        Div::UnsignedQuot => b.ins().udiv(p, q),
        Div::UnsignedRem => b.ins().urem(p, q),
    });
    let (r, by_zero) = match kind {
        Div::SignedQuot => {
            let nx = b.ins().ineg(x);
            (sel(b, neg_one, nx, r), 0)
        }
        Div::SignedRem => {
            let z = ci(b, 0);
            (sel(b, neg_one, z, r), u32::MAX)
        }
        Div::UnsignedQuot | Div::UnsignedRem => (r, u32::MAX),
    };
    let k = ci(b, by_zero);
    sel(b, zero, k, r)
}

/// ISSG: -1, 0 or 1 by the sign of x.
pub(super) fn issg(b: &mut Fb, x: Value) -> Value {
    let z = ci(b, 0);
    let neg = icmp(b, IntCC::SignedLessThan, x, z);
    let pos = icmp(b, IntCC::SignedGreaterThan, x, z);
    let one = and_const(b, pos, 1);
    b.ins().bor(neg, one)
}

/// Which shift [`shift`] lowers.
#[derive(Clone, Copy)]
pub(super) enum Shift {
    /// SHL.
    Left,
    /// USHR (logical).
    RightLogical,
    /// ISHR (arithmetic).
    RightArith,
}

/// `2^k` per lane (`i32x4`) for counts `k` already masked to 0..=31, exactly (2^31 as
/// `0x8000_0000`): the binary32 `2^k` made from its exponent field `k + 127`, converted to
/// an integer. The conversion saturates 2^31 to `0x7fff_ffff`; subtracting that lane's
/// all-ones mask (-1) of `k == 31` adds the missing one.
fn pow2(b: &mut Fb, k: Value) -> Value {
    let bias = ci(b, 127);
    let e = b.ins().iadd(k, bias);
    let e = b.ins().ishl_imm_u(e, 23);
    let f = cast(b, F32X4, e);
    let p = b.ins().fcvt_to_sint_sat(I32X4, f);
    let top = eq_const(b, k, 31);
    b.ins().isub(p, top)
}

/// SHL/USHR/ISHR: per-lane shift by `y & 31` (tgsi.rst: "The shift count is masked with
/// 0x1f"). SHL is `x * 2^(y & 31)` modulo 2^32 (SIMD); the right shifts run per lane.
pub(super) fn shift(b: &mut Fb, x: Value, y: Value, kind: Shift) -> Value {
    let n = and_const(b, y, 31);
    let x = iv(b, x);
    if let Shift::Left = kind {
        let p = pow2(b, n);
        return b.ins().imul(x, p);
    }
    per_lane(b, [x, n], |b, [v, n]| match kind {
        Shift::Left => b.ins().ishl(v, n),
        Shift::RightLogical => b.ins().ushr(v, n),
        Shift::RightArith => b.ins().sshr(v, n),
    })
}

/// UCMP: `x != 0 ? y : z` on raw bits.
pub(super) fn ucmp(b: &mut Fb, x: Value, y: Value, z: Value) -> Value {
    let is_zero = eq_const(b, x, 0);
    sel(b, is_zero, z, y)
}

/// UBFE (`signed == false`) / IBFE: per lane `bits == 0 ? 0 :
/// (value << (32 - offset - bits)) >> (32 - bits)` with a logical / arithmetic right shift.
/// Fields with `offset < 0 || bits < 0 || offset + bits > 32` are undefined; they get some
/// value of the same formula (Cranelift masks shift counts, so nothing traps).
pub(super) fn bfe(b: &mut Fb, value: Value, offset: Value, bits: Value, signed: bool) -> Value {
    let (v, o, n) = (iv(b, value), iv(b, offset), iv(b, bits));
    let thirty_two = ci(b, 32);
    let s2 = b.ins().isub(thirty_two, n);
    let s1 = b.ins().isub(s2, o);
    let r = per_lane(b, [v, s1, s2], |b, [v, s1, s2]| {
        let up = b.ins().ishl(v, s1);
        if signed {
            b.ins().sshr(up, s2)
        } else {
            b.ins().ushr(up, s2)
        }
    });
    let empty = eq_const(b, n, 0);
    let z = ci(b, 0);
    sel(b, empty, z, r)
}

/// BFI: `mask = ((1 << bits) - 1) << offset` (all ones for bits = 32) and
/// `((insert << offset) & mask) | (base & ~mask)`, with both shift counts taken modulo 32
/// (as a scalar shift does). Undefined fields (as for [`bfe`]) get some value of the same
/// formula. SIMD: the shifts are multiplications by [`pow2`], the merge one bit select.
pub(super) fn bfi(b: &mut Fb, base: Value, insert: Value, offset: Value, bits: Value) -> Value {
    let (base, ins) = (iv(b, base), iv(b, insert));
    let o = and_const(b, offset, 31);
    let n = and_const(b, bits, 31);
    let po = pow2(b, o);
    let pn = pow2(b, n);
    let ones = ci(b, u32::MAX);
    let low = b.ins().iadd(pn, ones);
    // bits = 32: the mask's lanes are all ones (`full` is -1 there).
    let full = eq_const(b, bits, 32);
    let low = b.ins().bor(low, full);
    let mask = b.ins().imul(low, po);
    let put = b.ins().imul(ins, po);
    b.ins().bitselect(mask, put, base)
}

/// BREV: bit reversal by swapping halves, bytes, nibbles, pairs and bits (immediate shifts).
pub(super) fn brev(b: &mut Fb, x: Value) -> Value {
    let mut v = iv(b, x);
    for (s, m) in [
        (1, 0x5555_5555u32),
        (2, 0x3333_3333),
        (4, 0x0f0f_0f0f),
        (8, 0x00ff_00ff),
    ] {
        let hi = b.ins().ushr_imm_u(v, s);
        let hi = and_const(b, hi, m);
        let lo = and_const(b, v, m);
        let lo = b.ins().ishl_imm_u(lo, s);
        v = b.ins().bor(hi, lo);
    }
    let hi = b.ins().ushr_imm_u(v, 16);
    let lo = b.ins().ishl_imm_u(v, 16);
    b.ins().bor(hi, lo)
}

/// POPC: SWAR population count.
pub(super) fn popc(b: &mut Fb, x: Value) -> Value {
    let v = iv(b, x);
    let t = b.ins().ushr_imm_u(v, 1);
    let t = and_const(b, t, 0x5555_5555);
    let v = b.ins().isub(v, t);
    let t = b.ins().ushr_imm_u(v, 2);
    let t = and_const(b, t, 0x3333_3333);
    let v = and_const(b, v, 0x3333_3333);
    let v = b.ins().iadd(v, t);
    let t = b.ins().ushr_imm_u(v, 4);
    let v = b.ins().iadd(v, t);
    let v = and_const(b, v, 0x0f0f_0f0f);
    let t = b.ins().ushr_imm_u(v, 8);
    let v = b.ins().iadd(v, t);
    let t = b.ins().ushr_imm_u(v, 16);
    let v = b.ins().iadd(v, t);
    and_const(b, v, 0x3f)
}

/// `floor(log2(v))` for lanes holding a power of two or any value < 2^24 as a signed
/// integer (exactly convertible), read from the exponent of `(float) v`. Lanes with v < 0
/// (bit 31 set) give 31 only for v = 0x80000000; v = 0 gives -127.
fn exact_log2(b: &mut Fb, v: Value) -> Value {
    let v = iv(b, v);
    let f = b.ins().fcvt_from_sint(F32X4, v);
    let bits = iv(b, f);
    let e = b.ins().ushr_imm_u(bits, 23);
    let e = and_const(b, e, 0xff);
    let bias = ci(b, 127);
    b.ins().isub(e, bias)
}

/// LSB: index of the lowest set bit (`x & -x` is a power of two), -1 for 0.
pub(super) fn lsb(b: &mut Fb, x: Value) -> Value {
    let v = iv(b, x);
    let neg = b.ins().ineg(v);
    let low = b.ins().band(v, neg);
    let e = exact_log2(b, low);
    let zero = eq_const(b, v, 0);
    let m1 = ci(b, u32::MAX);
    sel(b, zero, m1, e)
}

/// UMSB: index of the highest set bit, -1 for 0. Bit 31 is tested directly; otherwise the
/// bits below the top 24 are cleared (when there are more than 24) so the conversion to float
/// is exact and cannot round up to the next power of two.
pub(super) fn umsb(b: &mut Fb, x: Value) -> Value {
    let v = iv(b, x);
    let wide = b.ins().ushr_imm_u(v, 24);
    let z = ci(b, 0);
    let is_wide = icmp(b, IntCC::NotEqual, wide, z);
    let trimmed = and_const(b, v, 0xffff_ff00);
    let t = sel(b, is_wide, trimmed, v);
    let e = exact_log2(b, t);
    let top = icmp(b, IntCC::SignedLessThan, v, z);
    let k31 = ci(b, 31);
    let e = sel(b, top, k31, e);
    let zero = eq_const(b, v, 0);
    let m1 = ci(b, u32::MAX);
    sel(b, zero, m1, e)
}

/// IMSB: UMSB of `x` with its bits inverted when negative (highest bit differing from the
/// sign), -1 for 0 and -1.
pub(super) fn imsb(b: &mut Fb, x: Value) -> Value {
    let v = iv(b, x);
    let sign = b.ins().sshr_imm_u(v, 31);
    let w = b.ins().bxor(v, sign);
    umsb(b, w)
}

/// Reinterprets `v` as `i32x4` (for opcodes that are a plain bit copy: MOV, UARL).
pub(super) fn bits(b: &mut Fb, v: Value) -> Value {
    cast(b, I32X4, v)
}
