//! 64-bit Integer ISA value tables (tgsi.rst "64-bit Integer ISA"), on every engine of
//! `support::wide::ENGINES_64`.
//!
//! Expected values: two's-complement arithmetic by hand (host `wrapping_*` integer
//! operations, plus hand-written constants for the edge cases), conversions from
//! `rustc_apfloat` (`from_i128`/`from_u128` round to nearest even, `to_i128_r` truncates and
//! reports invalid conversions). Undefined cases: division by zero and INT64_MIN / -1 (the
//! doc is silent; tgsi_exec crashes on the latter, EXEC-NOTES.md §6), float conversions of
//! NaN and out-of-range values (as F2I/F2U).

use rustc_apfloat::ieee::{Double, Single};
use rustc_apfloat::{Float, Round, Status};
use shaderdiff_model::Opcode::*;

use crate::support::wide::*;

const MIN: u64 = 0x8000_0000_0000_0000; // INT64_MIN
const MAX: u64 = 0x7FFF_FFFF_FFFF_FFFF; // INT64_MAX
const ALL: u64 = u64::MAX; // -1 / UINT64_MAX

/// Edge values: 0, ±1, 2, -7, 2^32 ± 1 (carries between the words), INT64_MIN, INT64_MAX,
/// UINT64_MAX, a mixed pattern.
const EDGES: &[u64] = &[
    0,
    1,
    ALL,
    2,
    (-7i64) as u64,
    0xFFFF_FFFF,
    0x1_0000_0000,
    0x1_0000_0001,
    MIN,
    MAX,
    0x0123_4567_89AB_CDEF,
];

fn m(c: bool) -> u32 {
    if c {
        u32::MAX
    } else {
        0
    }
}

/// tgsi.rst U64ADD/U64MUL (wrapping), I64MIN/I64MAX/U64MIN/U64MAX and the set-on
/// comparisons `cond ? ~0 : 0` (signed for I64*, unsigned for U64*).
#[test]
fn arithmetic_and_comparisons() {
    let mut rows = Vec::new();
    for &a in EDGES {
        for &b in EDGES {
            let (x, y) = (a as i64, b as i64);
            rows.push(b64(U64ADD, &[a, b], a.wrapping_add(b)));
            rows.push(b64(U64MUL, &[a, b], a.wrapping_mul(b)));
            rows.push(b64(I64MIN, &[a, b], x.min(y) as u64));
            rows.push(b64(I64MAX, &[a, b], x.max(y) as u64));
            rows.push(b64(U64MIN, &[a, b], a.min(b)));
            rows.push(b64(U64MAX, &[a, b], a.max(b)));
            rows.push(word(U64SEQ, &[a, b], m(a == b)));
            rows.push(word(U64SNE, &[a, b], m(a != b)));
            rows.push(word(U64SLT, &[a, b], m(a < b)));
            rows.push(word(U64SGE, &[a, b], m(a >= b)));
            rows.push(word(I64SLT, &[a, b], m(x < y)));
            rows.push(word(I64SGE, &[a, b], m(x >= y)));
        }
    }
    // Hand-checked carries: 0xFFFFFFFF + 1 = 2^32; (2^32 + 1)^2 = 2^64 + 2^33 + 1 → 2^33 + 1.
    rows.push(b64(U64ADD, &[0xFFFF_FFFF, 1], 0x1_0000_0000));
    rows.push(b64(U64MUL, &[0x1_0000_0001, 0x1_0000_0001], 0x2_0000_0001));
    rows.push(b64(U64MUL, &[MIN, 2], 0));
    check_rows64(&rows);
}

/// tgsi.rst I64ABS `|src|`, I64NEG "Two's complement", I64SSG `-1 / 0 / 1`.
/// I64ABS(INT64_MIN) = I64NEG(INT64_MIN) = INT64_MIN (as IABS/INEG, EXEC-NOTES.md §6).
#[test]
fn unary() {
    let mut rows = Vec::new();
    for &a in EDGES {
        let x = a as i64;
        rows.push(b64(I64ABS, &[a], x.wrapping_abs() as u64));
        rows.push(b64(I64NEG, &[a], x.wrapping_neg() as u64));
        rows.push(b64(I64SSG, &[a], x.signum() as u64));
    }
    rows.push(b64(I64ABS, &[MIN], MIN));
    rows.push(b64(I64NEG, &[1], ALL));
    check_rows64(&rows);
}

/// tgsi.rst U64SHL/U64SHR/I64SHR: "The shift count is masked with 0x3f", so counts 64 and
/// 65 act as 0 and 1. Counts 0, 1, 31, 32, 33, 63, 64, 65, 0xFFFFFFFF (= 63).
#[test]
fn shifts() {
    let mut rows = Vec::new();
    for &a in EDGES {
        for n in [0u32, 1, 31, 32, 33, 63, 64, 65, u32::MAX] {
            let k = n & 63;
            rows.push(b64(U64SHL, &[a, n as u64], a << k));
            rows.push(b64(U64SHR, &[a, n as u64], a >> k));
            rows.push(b64(I64SHR, &[a, n as u64], ((a as i64) >> k) as u64));
        }
    }
    rows.push(b64(U64SHL, &[1, 63], MIN));
    rows.push(b64(I64SHR, &[MIN, 63], ALL));
    rows.push(b64(U64SHR, &[MIN, 63], 1));
    rows.push(b64(U64SHL, &[3, 64], 3));
    check_rows64(&rows);
}

/// tgsi.rst I64DIV/U64DIV `src0 / src1` (truncating), I64MOD/U64MOD remainders (sign of
/// src0). Division by zero and INT64_MIN / -1 are undefined; INT64_MIN mod -1 = 0.
#[test]
fn division() {
    let mut rows = Vec::new();
    for &a in EDGES {
        for &b in EDGES {
            let (x, y) = (a as i64, b as i64);
            if b == 0 {
                for op in [I64DIV, I64MOD, U64DIV, U64MOD] {
                    rows.push(undef(op, &[a, b]));
                }
                continue;
            }
            rows.push(b64(U64DIV, &[a, b], a / b));
            rows.push(b64(U64MOD, &[a, b], a % b));
            if x == i64::MIN && y == -1 {
                rows.push(undef(I64DIV, &[a, b]));
                rows.push(b64(I64MOD, &[a, b], 0));
            } else {
                rows.push(b64(I64DIV, &[a, b], (x / y) as u64));
                rows.push(b64(I64MOD, &[a, b], (x % y) as u64));
            }
        }
    }
    // -7 / 2 = -3 and -7 mod 2 = -1 (truncation).
    rows.push(b64(I64DIV, &[(-7i64) as u64, 2], (-3i64) as u64));
    rows.push(b64(I64MOD, &[(-7i64) as u64, 2], ALL));
    check_rows64(&rows);
}

/// tgsi.rst I2I64 "sign extension", U2I64 "zero extension" (by hand); I642F/U642F/
/// I642D/U642D round to nearest even; F2I64/F2U64/D2I64/D2U64 truncate, NaN and
/// out-of-range undefined (rustc_apfloat).
#[test]
fn conversions() {
    let mut rows = Vec::new();
    for w in [0u32, 1, 0x7FFF_FFFF, 0x8000_0000, u32::MAX] {
        rows.push(b64(I2I64, &[w as u64], w as i32 as i64 as u64));
        rows.push(b64(U2I64, &[w as u64], w as u64));
    }
    // 2^53 + 1 and 2^24 + 1 are ties-away-from-representable: to even.
    let ints = [
        0x20_0000_0000_0001u64,
        0x100_0001,
        0x8000_0000_0000_0401,
        0xFFFF_FFFF_FFFF_FC01,
    ];
    for &a in EDGES.iter().chain(&ints) {
        let x = a as i64;
        let d = |v: Double| v.to_bits() as u64;
        rows.push(dbl(I642D, &[a], d(Double::from_i128(x as i128).value)));
        rows.push(dbl(U642D, &[a], d(Double::from_u128(a as u128).value)));
        let s = |v: Single| v.to_bits() as u32;
        rows.push(single(I642F, &[a], s(Single::from_i128(x as i128).value)));
        rows.push(single(U642F, &[a], s(Single::from_u128(a as u128).value)));
    }
    let doubles = [
        0u64,
        0x8000_0000_0000_0000,
        0x3FF8_0000_0000_0000, // 1.5
        0xBFF8_0000_0000_0000, // -1.5
        0xBFEF_FFFF_FFFF_FFFF, // -0.99..: truncates to 0 (also for the unsigned forms)
        0x43E0_0000_0000_0000, // 2^63
        0xC3E0_0000_0000_0000, // -2^63
        0x43DF_FFFF_FFFF_FFFF, // largest below 2^63
        0x43F0_0000_0000_0000, // 2^64
        0x43EF_FFFF_FFFF_FFFF, // largest below 2^64
        0x7FF0_0000_0000_0000,
        0xFFF0_0000_0000_0000,
        0x7FF8_0000_0000_0000,
    ];
    for &a in &doubles {
        let v = Double::from_bits(a as u128);
        conv_rows(&mut rows, v, a, false);
        let mut loses = false;
        let f: Single = rustc_apfloat::FloatConvert::convert(v, &mut loses).value;
        if !loses {
            conv_rows(&mut rows, v, f.to_bits() as u64, true);
        }
    }
    check_rows64(&rows);
}

/// D2I64/D2U64 (or F2I64/F2U64 when `single`) rows for the value `v` given as `src`.
fn conv_rows(rows: &mut Vec<Row64>, v: Double, src: u64, single: bool) {
    let (si, su) = if single {
        (F2I64, F2U64)
    } else {
        (D2I64, D2U64)
    };
    let mut exact = false;
    let i = v.to_i128_r(64, Round::TowardZero, &mut exact);
    rows.push(if i.status.contains(Status::INVALID_OP) {
        undef(si, &[src])
    } else {
        b64(si, &[src], i.value as i64 as u64)
    });
    let x = f64::from_bits(v.to_bits() as u64);
    let neg_fraction = x > -1.0 && x < 0.0;
    let u = v.to_u128_r(64, Round::TowardZero, &mut exact);
    rows.push(if neg_fraction {
        b64(su, &[src], 0)
    } else if u.status.contains(Status::INVALID_OP) {
        undef(su, &[src])
    } else {
        b64(su, &[src], u.value as u64)
    });
}
