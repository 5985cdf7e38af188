//! Conversions (I2F U2F F2I F2U), address loads (ARL ARR UARL) and the pack/unpack opcodes
//! (PK2H UP2H PK2US PK4B PK4UB). Section names refer to ../shared/spec/tgsi/tgsi.rst.

use super::float::flr;
use super::kernel::Checked;

/// I2F — Integer ISA `(float) src`: "Rounding is unspecified (round to nearest even
/// suggested)"; the reference rounds to nearest even (I2F(16777217) = 16777216.0).
#[inline(always)]
pub fn i2f(a: i32) -> f32 {
    a as f32
}

/// U2F — Integer ISA `(float) src` of an unsigned integer, rounded to nearest even
/// (U2F(0xFFFFFFFF) = 4294967296.0).
#[inline(always)]
pub fn u2f(a: u32) -> f32 {
    a as f32
}

/// Truncation of `a` to a signed integer; undefined (0x80000000 stored, the x86 value) when the
/// truncated value is outside `[-2^31, 2^31 - 1]` or `a` is NaN. No binary32 value lies
/// strictly between -2^31 - 1 and -2^31, so the range test is `-2^31 <= a < 2^31`.
#[inline(always)]
fn to_i32(a: f32) -> Checked<i32> {
    if (-2_147_483_648.0..2_147_483_648.0).contains(&a) {
        Checked::ok(a as i32)
    } else {
        Checked::new(i32::MIN, true)
    }
}

/// F2I — Integer ISA `(int) src`, "Rounding is towards zero (truncate). Values outside signed
/// range (including NaNs) produce undefined results": NaN, ±inf and values whose truncation
/// is outside `[-2^31, 2^31 - 1]` are undefined (0x80000000 stored).
#[inline(always)]
pub fn f2i(a: f32) -> Checked<i32> {
    to_i32(a)
}

/// F2U — Integer ISA `(unsigned) src`, truncating. "Values outside unsigned range (including
/// NaNs) produce undefined results": NaN, values ≤ -1 and ≥ 2^32 are undefined (0 stored).
/// Values in (-1, 0) truncate to 0 and are defined (C's rule; EXEC-NOTES.md §4).
#[inline(always)]
pub fn f2u(a: f32) -> Checked<u32> {
    if a > -1.0 && a < 4_294_967_296.0 {
        Checked::ok(a as u32)
    } else {
        Checked::new(0, true)
    }
}

/// ARL — Core ISA `(int) floor(src)`. Out-of-range results and NaN are undefined as for F2I
/// (0x80000000 stored).
#[inline(always)]
pub fn arl(a: f32) -> Checked<i32> {
    to_i32(flr(a))
}

/// ARR — Core ISA `(int) round(src)`. The doc does not say how ties round; like tgsi_exec
/// (EXEC-NOTES.md §3) ties round up, `floor(src + 0.5)` (ARR(2.5) = 3, ARR(-2.5) = -2,
/// ARR(-0.5) = 0). The sum is not rounded here (the fraction `src - floor(src)` is exact and
/// compared with 0.5), so ARR(0.49999997) = 0, where tgsi_exec's single-precision
/// `src + 0.5f` rounds to 1.0 and gives 1. Out-of-range results and NaN are undefined
/// (0x80000000 stored).
#[inline(always)]
pub fn arr(a: f32) -> Checked<i32> {
    let f = flr(a);
    let r = if a - f >= 0.5 { f + 1.0 } else { f };
    to_i32(r)
}

/// UARL — Compute ISA: "Moves the contents of the source register, assumed to be an integer,
/// into the destination register": a bit copy.
#[inline(always)]
pub fn uarl(a: i32) -> i32 {
    a
}

/// `f32_to_f16`: IEEE conversion with round to nearest even (overflow → ±inf, tiny → ±0 or a
/// binary16 denormal, -0 kept). `None` for NaN, whose binary16 bit pattern the doc does not fix.
#[inline(always)]
fn f32_to_f16(a: f32) -> Option<u32> {
    if a.is_nan() {
        None
    } else {
        Some(half::f16::from_f32(a).to_bits() as u32)
    }
}

/// PK2H — Core ISA `f32_to_f16(src.x) | f32_to_f16(src.y) << 16`, replicated. A NaN input makes
/// the result undefined: the packed word is compared as bits, and the doc does not define a
/// binary16 NaN encoding (tgsi_exec keeps the top mantissa bits; GPUs often emit 0x7E00).
#[inline(always)]
pub fn pk2h(s: [f32; 4]) -> Checked<u32> {
    match (f32_to_f16(s[0]), f32_to_f16(s[1])) {
        (Some(x), Some(y)) => Checked::ok(x | y << 16),
        _ => Checked::new(0, true),
    }
}

/// UP2H — Core ISA, channel `c` of `(f16_to_f32(src.x & 0xffff), f16_to_f32(src.x >> 16),
/// f16_to_f32(src.x & 0xffff), f16_to_f32(src.x >> 16))`. Exact.
#[inline(always)]
pub fn up2h(s: [u32; 4], c: usize) -> f32 {
    let h = match c {
        0 | 2 => s[0] & 0xffff,
        _ => s[0] >> 16,
    };
    half::f16::from_bits(h as u16).to_f32()
}

/// Rounds an exact value `v` (|v| < 2^16) to the nearest integer.
/// The doc does not say how ties round (and GL's float→normalized conversion lets either
/// neighbour be returned), so an exact tie is undefined (round-half-even value stored).
#[inline(always)]
fn round_norm(v: f64) -> Checked<i32> {
    let r = v.round_ties_even();
    Checked::new(r as i32, (v - v.trunc()).abs() == 0.5)
}

/// `f32_to_unorm<n>`: `round(clamp(x, 0, 1) * (2^n - 1))` (the GL/D3D UNORM rule; the doc names
/// the function without defining it). NaN is undefined (0 stored); ties as [`round_norm`].
/// The product is exact in binary64.
#[inline(always)]
fn f32_to_unorm(x: f32, n: u32) -> Checked<u32> {
    if x.is_nan() {
        return Checked::new(0, true);
    }
    let r = round_norm((x as f64).clamp(0.0, 1.0) * ((1u32 << n) - 1) as f64);
    Checked::new(r.value as u32, r.undefined)
}

/// `f32_to_snorm<n>`: `round(clamp(x, -1, 1) * (2^(n-1) - 1))` as an n-bit two's-complement
/// field (so -1.0 → -127 for n = 8; the GL/D3D SNORM rule). NaN is undefined (0 stored); ties
/// as [`round_norm`].
#[inline(always)]
fn f32_to_snorm(x: f32, n: u32) -> Checked<u32> {
    if x.is_nan() {
        return Checked::new(0, true);
    }
    let r = round_norm((x as f64).clamp(-1.0, 1.0) * ((1u32 << (n - 1)) - 1) as f64);
    Checked::new(r.value as u32 & ((1u32 << n) - 1), r.undefined)
}

/// Packs `fields[i]` (each `width` bits) at bit `i * width`; undefined if any field is.
#[inline(always)]
fn pack<const N: usize>(fields: [Checked<u32>; N], width: u32) -> Checked<u32> {
    let mut v = 0;
    let mut undefined = false;
    for (i, f) in fields.iter().enumerate() {
        v |= f.value << (i as u32 * width);
        undefined |= f.undefined;
    }
    Checked::new(v, undefined)
}

/// PK2US — Core ISA `f32_to_unorm16(src.x) | f32_to_unorm16(src.y) << 16`, replicated
/// (tgsi_exec does not implement it).
#[inline(always)]
pub fn pk2us(s: [f32; 4]) -> Checked<u32> {
    pack([f32_to_unorm(s[0], 16), f32_to_unorm(s[1], 16)], 16)
}

/// PK4B — Core ISA `f32_to_snorm8(src.x) | ... << 8 | ... << 16 | f32_to_snorm8(src.w) << 24`,
/// replicated (tgsi_exec does not implement it).
#[inline(always)]
pub fn pk4b(s: [f32; 4]) -> Checked<u32> {
    pack(s.map(|x| f32_to_snorm(x, 8)), 8)
}

/// PK4UB — Core ISA `f32_to_unorm8(src.x) | ... << 8 | ... << 16 | f32_to_unorm8(src.w) << 24`,
/// replicated (tgsi_exec does not implement it).
#[inline(always)]
pub fn pk4ub(s: [f32; 4]) -> Checked<u32> {
    pack(s.map(|x| f32_to_unorm(x, 8)), 8)
}
