//! Conversions (I2F U2F F2I F2U), address loads (ARL ARR) and pack/unpack (PK2H UP2H PK2US
//! PK4B PK4UB), tgsi.rst "Core ISA" / "Integer ISA", all SIMD.
//!
//! Out-of-range float → int conversions are undefined in the spec; the saturating Cranelift
//! conversions used here never trap and give the saturated value there.

use cranelift_codegen::ir::condcodes::{FloatCC, IntCC};
use cranelift_codegen::ir::types::{F32X4, I32X4};
use cranelift_codegen::ir::{InstBuilder, Value};

use super::float::{round, round_half_up, Rounding};
use super::simd::{and_const, cd, cf, ci, eq_const, fcmp, fv, icmp, iv, low_words, sel, widen, Fb};

/// I2F: signed int → float, round to nearest even (`cvtdq2ps`).
pub(super) fn i2f(b: &mut Fb, x: Value) -> Value {
    let x = iv(b, x);
    let r = b.ins().fcvt_from_sint(F32X4, x);
    iv(b, r)
}

/// U2F: unsigned int → float, round to nearest even (Cranelift splits each lane into exactly
/// convertible halves and rounds once in the final add; `vcvtudq2ps` with AVX-512).
pub(super) fn u2f(b: &mut Fb, x: Value) -> Value {
    let x = iv(b, x);
    let r = b.ins().fcvt_from_uint(F32X4, x);
    iv(b, r)
}

/// F2I: truncation to signed (values outside [-2^31, 2^31) and NaN are undefined: saturated,
/// NaN → 0).
pub(super) fn f2i(b: &mut Fb, x: Value) -> Value {
    let x = fv(b, x);
    b.ins().fcvt_to_sint_sat(I32X4, x)
}

/// F2U: truncation to unsigned; (-1, 0) gives 0 (defined), ≤ -1, ≥ 2^32 and NaN are
/// undefined (saturated, NaN → 0).
pub(super) fn f2u(b: &mut Fb, x: Value) -> Value {
    let x = fv(b, x);
    b.ins().fcvt_to_uint_sat(I32X4, x)
}

/// ARL: `(int) floor(x)`.
pub(super) fn arl(b: &mut Fb, x: Value) -> Value {
    let f = round(b, x, Rounding::Floor);
    f2i(b, f)
}

/// ARR: `(int) floor(x + 0.5)` with the fraction compared exactly (ARR(0.49999997) = 0).
pub(super) fn arr(b: &mut Fb, x: Value) -> Value {
    let r = round_half_up(b, x);
    f2i(b, r)
}

/// IEEE binary32 → binary16 bits (low 16 bits of each lane), round to nearest even: overflow
/// → ±inf, tiny → ±0 or a binary16 denormal, -0 kept. NaN inputs (undefined for PK2H) give a
/// quiet binary16 NaN. Denormal results come from one float addition of 0.5, whose ulp is
/// the binary16 denormal step, so the addition does the rounding.
fn f32_to_f16(b: &mut Fb, x: Value) -> Value {
    let x = iv(b, x);
    let sign = and_const(b, x, 0x8000_0000);
    let a = b.ins().bxor(x, sign);
    // Inf/NaN or too large: 0x7c00 / 0x7e00.
    let f16max = ci(b, (127 + 16) << 23);
    let big = icmp(b, IntCC::SignedGreaterThanOrEqual, a, f16max);
    let f32inf = ci(b, 0x7f80_0000);
    let nan = icmp(b, IntCC::SignedGreaterThan, a, f32inf);
    let (qnan, inf) = (ci(b, 0x7e00), ci(b, 0x7c00));
    let special = sel(b, nan, qnan, inf);
    // Denormal (or zero) result: a < 2^-14.
    let min_normal = ci(b, 113 << 23);
    let tiny = icmp(b, IntCC::SignedLessThan, a, min_normal);
    let magic = cf(b, 0.5);
    let af = fv(b, a);
    let d = b.ins().fadd(af, magic);
    let d = iv(b, d);
    let magic_bits = ci(b, 0.5f32.to_bits());
    let den = b.ins().isub(d, magic_bits);
    // Normal result: rebias, round to nearest even on bit 13.
    let odd = b.ins().ushr_imm_u(a, 13);
    let odd = and_const(b, odd, 1);
    let rebias = ci(b, ((15u32.wrapping_sub(127)) << 23).wrapping_add(0xfff));
    let n = b.ins().iadd(a, rebias);
    let n = b.ins().iadd(n, odd);
    let norm = b.ins().ushr_imm_u(n, 13);
    let r = sel(b, tiny, den, norm);
    let r = sel(b, big, special, r);
    let s = b.ins().ushr_imm_u(sign, 16);
    b.ins().bor(r, s)
}

/// PK2H: `f32_to_f16(x.x) | f32_to_f16(x.y) << 16` (NaN inputs are undefined).
pub(super) fn pk2h(b: &mut Fb, x: &[Value; 4]) -> Value {
    let lo = f32_to_f16(b, x[0]);
    let hi = f32_to_f16(b, x[1]);
    let hi = b.ins().ishl_imm_u(hi, 16);
    b.ins().bor(lo, hi)
}

/// IEEE binary16 (low 16 bits of each lane, upper bits zero) → binary32, exact: rebias the
/// exponent; inf/NaN get the full exponent; zero/denormal inputs are normalised by one exact
/// float subtraction of 2^-14.
fn f16_to_f32(b: &mut Fb, h: Value) -> Value {
    let h = iv(b, h);
    let mag = and_const(b, h, 0x7fff);
    let o = b.ins().ishl_imm_u(mag, 13);
    let exp = and_const(b, o, 0x7c00 << 13);
    let rebias = ci(b, (127 - 15) << 23);
    let o = b.ins().iadd(o, rebias);
    // Inf/NaN.
    let is_special = eq_const(b, exp, 0x7c00 << 13);
    let o_special = b.ins().iadd(o, rebias);
    // Zero/denormal.
    let is_tiny = eq_const(b, exp, 0);
    let one_exp = ci(b, 1 << 23);
    let t = b.ins().iadd(o, one_exp);
    let t = fv(b, t);
    let magic = cf(b, f32::from_bits(113 << 23));
    let t = b.ins().fsub(t, magic);
    let o = sel(b, is_special, o_special, o);
    let o = sel(b, is_tiny, t, o);
    let s = and_const(b, h, 0x8000);
    let s = b.ins().ishl_imm_u(s, 16);
    b.ins().bor(o, s)
}

/// UP2H channel `c`: `f16_to_f32` of the low (c = 0, 2) or high (c = 1, 3) half of `x.x`.
pub(super) fn up2h(b: &mut Fb, x: &[Value; 4], c: usize) -> Value {
    let v = iv(b, x[0]);
    let h = if c % 2 == 0 {
        and_const(b, v, 0xffff)
    } else {
        b.ins().ushr_imm_u(v, 16)
    };
    f16_to_f32(b, h)
}

/// `round(clamp(x, lo, 1) * scale)` as a two's-complement integer per lane: the clamp in
/// binary32 (NaN is undefined and passes through), the product exactly in binary64, and the
/// rounding to nearest even by adding 1.5 · 2^52 (whose ulp is 1), after which the low word of
/// the binary64 bit pattern is the integer. Exact ties are undefined (they round to even).
fn norm(b: &mut Fb, x: Value, lo: f32, scale: f64) -> Value {
    let (lo_v, one) = (cf(b, lo), cf(b, 1.0));
    let under = fcmp(b, FloatCC::LessThan, x, lo_v);
    let x = sel(b, under, lo_v, x);
    let over = fcmp(b, FloatCC::GreaterThan, x, one);
    let x = sel(b, over, one, x);
    let (xl, xh) = widen(b, x);
    let (s, magic) = (cd(b, scale), cd(b, 6_755_399_441_055_744.0));
    let pl = b.ins().fmul(xl, s);
    let ph = b.ins().fmul(xh, s);
    let rl = b.ins().fadd(pl, magic);
    let rh = b.ins().fadd(ph, magic);
    low_words(b, rl, rh)
}

/// Packs `fields[i]` (masked to `width` bits) at bit `i * width`.
fn pack(b: &mut Fb, fields: &[Value], width: u32) -> Value {
    let mask = (1u32 << width) - 1;
    let mut acc = and_const(b, fields[0], mask);
    for (i, &f) in fields.iter().enumerate().skip(1) {
        let f = and_const(b, f, mask);
        let f = b.ins().ishl_imm_u(f, i64::from(i as u32 * width));
        acc = b.ins().bor(acc, f);
    }
    acc
}

/// PK2US: `f32_to_unorm16(x.x) | f32_to_unorm16(x.y) << 16`.
pub(super) fn pk2us(b: &mut Fb, x: &[Value; 4]) -> Value {
    let f = [norm(b, x[0], 0.0, 65535.0), norm(b, x[1], 0.0, 65535.0)];
    pack(b, &f, 16)
}

/// PK4B: four `f32_to_snorm8` fields (`round(clamp(x, -1, 1) * 127)`).
pub(super) fn pk4b(b: &mut Fb, x: &[Value; 4]) -> Value {
    let f = x.map(|c| norm(b, c, -1.0, 127.0));
    pack(b, &f, 8)
}

/// PK4UB: four `f32_to_unorm8` fields (`round(clamp(x, 0, 1) * 255)`).
pub(super) fn pk4ub(b: &mut Fb, x: &[Value; 4]) -> Value {
    let f = x.map(|c| norm(b, c, 0.0, 255.0));
    pack(b, &f, 8)
}
