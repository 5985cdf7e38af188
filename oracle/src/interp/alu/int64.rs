//! The 64-bit integer opcodes (tgsi.rst "64-bit Integer ISA"): one scalar function per
//! opcode on two's-complement 64-bit values held in channel pairs (xy and zw, low word
//! first; the lane loops are in [`super::wide`]).
//!
//! Where the doc is silent the results follow the 32-bit opcodes' choices (int.rs,
//! convert.rs): division by zero is undefined (tgsi_exec's values are stored: U64DIV/U64MOD
//! ~0, I64DIV 0, I64MOD -1, EXEC-NOTES.md §6), INT64_MIN / -1 is undefined (not
//! representable; tgsi_exec crashes), float-to-integer conversions of NaN and out-of-range
//! values are undefined, shift counts are masked with 0x3f as the doc says.

use super::kernel::{all_ones_if, Checked};

/// I64ABS — `|src|` in two's complement: I64ABS(INT64_MIN) = INT64_MIN (as IABS,
/// EXEC-NOTES.md §6).
#[inline(always)]
pub fn i64abs(a: i64) -> i64 {
    a.wrapping_abs()
}

/// I64NEG — "Two's complement" `-src` (I64NEG(INT64_MIN) = INT64_MIN).
#[inline(always)]
pub fn i64neg(a: i64) -> i64 {
    a.wrapping_neg()
}

/// I64SSG — `(src < 0) ? -1 : (src > 0) ? 1 : 0`.
#[inline(always)]
pub fn i64ssg(a: i64) -> i64 {
    a.signum()
}

/// U64ADD — `src0 + src1`, wrapping modulo 2^64.
#[inline(always)]
pub fn u64add(a: u64, b: u64) -> u64 {
    a.wrapping_add(b)
}

/// U64MUL — `src0 * src1`, the low 64 bits of the product.
#[inline(always)]
pub fn u64mul(a: u64, b: u64) -> u64 {
    a.wrapping_mul(b)
}

/// U64SEQ — `src0 == src1 ? ~0 : 0`.
#[inline(always)]
pub fn u64seq(a: u64, b: u64) -> u32 {
    all_ones_if(a == b)
}

/// U64SNE — `src0 != src1 ? ~0 : 0`.
#[inline(always)]
pub fn u64sne(a: u64, b: u64) -> u32 {
    all_ones_if(a != b)
}

/// U64SLT — unsigned `src0 < src1 ? ~0 : 0`.
#[inline(always)]
pub fn u64slt(a: u64, b: u64) -> u32 {
    all_ones_if(a < b)
}

/// U64SGE — unsigned `src0 >= src1 ? ~0 : 0`.
#[inline(always)]
pub fn u64sge(a: u64, b: u64) -> u32 {
    all_ones_if(a >= b)
}

/// I64SLT — signed `src0 < src1 ? ~0 : 0`.
#[inline(always)]
pub fn i64slt(a: i64, b: i64) -> u32 {
    all_ones_if(a < b)
}

/// I64SGE — signed `src0 >= src1 ? ~0 : 0`.
#[inline(always)]
pub fn i64sge(a: i64, b: i64) -> u32 {
    all_ones_if(a >= b)
}

/// I64MIN — signed minimum.
#[inline(always)]
pub fn i64min(a: i64, b: i64) -> i64 {
    a.min(b)
}

/// U64MIN — unsigned minimum.
#[inline(always)]
pub fn u64min(a: u64, b: u64) -> u64 {
    a.min(b)
}

/// I64MAX — signed maximum.
#[inline(always)]
pub fn i64max(a: i64, b: i64) -> i64 {
    a.max(b)
}

/// U64MAX — unsigned maximum.
#[inline(always)]
pub fn u64max(a: u64, b: u64) -> u64 {
    a.max(b)
}

/// U64SHL — `src0 << (0x3f & count)`: "The shift count is masked with 0x3f before the shift
/// is applied", so every count is defined (64 acts as 0, 65 as 1).
#[inline(always)]
pub fn u64shl(a: u64, n: u32) -> u64 {
    a << (n & 63)
}

/// U64SHR — logical `src0 >> (0x3f & count)` (count masked as for [`u64shl`]).
#[inline(always)]
pub fn u64shr(a: u64, n: u32) -> u64 {
    a >> (n & 63)
}

/// I64SHR — arithmetic `src0 >> (0x3f & count)` (count masked as for [`u64shl`]).
#[inline(always)]
pub fn i64shr(a: i64, n: u32) -> i64 {
    a >> (n & 63)
}

/// I64DIV — `src0 / src1`, truncating toward zero. Division by zero is undefined (the doc is
/// silent; tgsi_exec's 0 is stored), INT64_MIN / -1 = 2^63 is not representable: undefined
/// (INT64_MIN stored; tgsi_exec crashes).
#[inline(always)]
pub fn i64div(a: i64, b: i64) -> Checked<i64> {
    if b == 0 {
        return Checked::new(0, true);
    }
    Checked::new(a.wrapping_div(b), a == i64::MIN && b == -1)
}

/// I64MOD — `src0 mod src1`, the truncated remainder (sign of src0), as MOD. By zero:
/// undefined (tgsi_exec's -1 stored). INT64_MIN mod -1 = 0 is defined (tgsi_exec crashes).
#[inline(always)]
pub fn i64mod(a: i64, b: i64) -> Checked<i64> {
    if b == 0 {
        return Checked::new(-1, true);
    }
    Checked::ok(a.wrapping_rem(b))
}

/// U64DIV — unsigned `src0 / src1`. Unlike UDIV the doc gives no value for division by zero:
/// undefined (tgsi_exec's ~0 stored).
#[inline(always)]
pub fn u64div(a: u64, b: u64) -> Checked<u64> {
    match a.checked_div(b) {
        Some(q) => Checked::ok(q),
        None => Checked::new(u64::MAX, true),
    }
}

/// U64MOD — unsigned `src0 mod src1`; by zero undefined (tgsi_exec's ~0 stored).
#[inline(always)]
pub fn u64mod(a: u64, b: u64) -> Checked<u64> {
    match a.checked_rem(b) {
        Some(r) => Checked::ok(r),
        None => Checked::new(u64::MAX, true),
    }
}

/// Truncation of `a` to `i64`; undefined (INT64_MIN stored, the x86 value) for NaN and
/// values whose truncation is outside `[-2^63, 2^63 - 1]`.
#[inline(always)]
fn to_i64(a: f64) -> Checked<i64> {
    if (-9_223_372_036_854_775_808.0..9_223_372_036_854_775_808.0).contains(&a) {
        Checked::ok(a as i64)
    } else {
        Checked::new(i64::MIN, true)
    }
}

/// Truncation of `a` to `u64`; undefined (0 stored) for NaN, values ≤ -1 and ≥ 2^64.
#[inline(always)]
fn to_u64(a: f64) -> Checked<u64> {
    if a > -1.0 && a < 18_446_744_073_709_551_616.0 {
        Checked::ok(a as u64)
    } else {
        Checked::new(0, true)
    }
}

/// F2I64 — `(int64_t) src`, truncating; NaN and out-of-range values undefined (C's rule, as
/// F2I's "Values outside signed range (including NaNs) produce undefined results").
#[inline(always)]
pub fn f2i64(a: f32) -> Checked<i64> {
    to_i64(a as f64)
}

/// F2U64 — `(uint64_t) src`, truncating; NaN, values ≤ -1 and ≥ 2^64 undefined (as F2U).
#[inline(always)]
pub fn f2u64(a: f32) -> Checked<u64> {
    to_u64(a as f64)
}

/// D2I64 — `(int64_t) src`, truncating; NaN and out-of-range values undefined (as F2I64).
#[inline(always)]
pub fn d2i64(a: f64) -> Checked<i64> {
    to_i64(a)
}

/// D2U64 — `(uint64_t) src`, truncating; NaN, values ≤ -1 and ≥ 2^64 undefined (as F2U64).
#[inline(always)]
pub fn d2u64(a: f64) -> Checked<u64> {
    to_u64(a)
}

/// I642F — `(float) src`, rounded to nearest even (EXEC-NOTES.md §4).
#[inline(always)]
pub fn i642f(a: i64) -> f32 {
    a as f32
}

/// U642F — `(float) src` of an unsigned 64-bit integer, rounded to nearest even.
#[inline(always)]
pub fn u642f(a: u64) -> f32 {
    a as f32
}

/// I642D — `(double) src`, rounded to nearest even.
#[inline(always)]
pub fn i642d(a: i64) -> f64 {
    a as f64
}

/// U642D — `(double) src` of an unsigned 64-bit integer, rounded to nearest even.
#[inline(always)]
pub fn u642d(a: u64) -> f64 {
    a as f64
}

/// I2I64 — "This is a sign extension."
#[inline(always)]
pub fn i2i64(a: i32) -> i64 {
    a as i64
}

/// U2I64 — "This is a zero extension."
#[inline(always)]
pub fn u2i64(a: u32) -> i64 {
    a as i64
}
