//! Source modifiers on 64-bit operands (shaderdiff_model::wide_modifiers: a modifier applies to
//! the 64-bit value of each channel pair with the operand's type; absolute value first),
//! on every engine of `support::wide::ENGINES_64`.
//!
//! Expected values by hand: two's-complement `wrapping_sub`/`wrapping_abs` on the host for
//! 64-bit integers (radeonsi's `U64ADD ..., -TEMP[2]` is a 64-bit subtraction), and for
//! binary64 the sign bit of the high word flipped/cleared, then `rustc_apfloat` IEEE
//! arithmetic on the modified operands.

use rustc_apfloat::ieee::Double;
use rustc_apfloat::Float;
use shaderdiff_model::Opcode::*;

use crate::support::wide::*;

const MIN: u64 = 0x8000_0000_0000_0000; // INT64_MIN
const EDGES: &[u64] = &[
    0,
    1,
    u64::MAX,
    0xFFFF_FFFF,
    0x1_0000_0000,
    MIN,
    0x7FFF_FFFF_FFFF_FFFF,
    0x0123_4567_89AB_CDEF,
];

fn abs64(x: u64) -> u64 {
    (x as i64).wrapping_abs() as u64
}

/// `U64ADD a, -b` is `a - b`, wrapping; `-b` of INT64_MIN is INT64_MIN.
#[test]
fn u64add_negated_source_subtracts() {
    let mut rows = Vec::new();
    for &a in EDGES {
        for &b in EDGES {
            rows.push(b64(U64ADD, &[a, b], a.wrapping_sub(b)));
        }
    }
    // Hand-checked: 5 - 3, 0 - 1, a borrow across the words (2^32 - 1).
    rows.push(b64(U64ADD, &[5, 3], 2));
    rows.push(b64(U64ADD, &[0, 1], 0xFFFF_FFFF_FFFF_FFFF));
    rows.push(b64(U64ADD, &[0x1_0000_0000, 1], 0xFFFF_FFFF));
    check_rows64_modified(&rows, &[("", ""), ("-", "")]);
}

/// `U64ADD -|a|, b` is `b - |a|` with the 64-bit absolute value (|INT64_MIN| wraps).
#[test]
fn u64add_negated_absolute_source() {
    let mut rows = Vec::new();
    for &a in EDGES {
        for &b in EDGES {
            rows.push(b64(U64ADD, &[a, b], b.wrapping_sub(abs64(a))));
        }
    }
    // Hand-checked: -|-7| + 10 = 3.
    rows.push(b64(U64ADD, &[(-7i64) as u64, 10], 3));
    check_rows64_modified(&rows, &[("-|", "|")]);
}

/// `U64SNE a, -b` and `I64SLT |a|, b` compare the modified 64-bit values.
#[test]
fn comparisons_of_modified_sources() {
    let mask = |c: bool| if c { u32::MAX } else { 0 };
    let mut sne = Vec::new();
    let mut slt = Vec::new();
    for &a in EDGES {
        for &b in EDGES {
            sne.push(word(U64SNE, &[a, b], mask(a != b.wrapping_neg())));
            slt.push(word(I64SLT, &[a, b], mask((abs64(a) as i64) < b as i64)));
        }
    }
    check_rows64_modified(&sne, &[("", ""), ("-", "")]);
    check_rows64_modified(&slt, &[("|", "|")]);
}

const NEG: u64 = 0x8000_0000_0000_0000;
const DOUBLES: &[u64] = &[
    0,
    NEG,
    0x3FF0_0000_0000_0000, // 1
    0xC004_0000_0000_0000, // -2.5
    0x3FB9_9999_9999_999A, // 0.1
    0x0000_0000_0000_0001, // smallest denormal
    0x7FEF_FFFF_FFFF_FFFF, // largest
    0xFFF0_0000_0000_0000, // -inf
    0x7FF8_0000_0000_0000, // NaN
];

fn ap(x: u64) -> Double {
    Double::from_bits(x as u128)
}

/// `DADD a, -b` is `a + (-b)` (sign bit flipped, then IEEE addition), and `DMUL |a|, -|b|`
/// multiplies the modified values.
#[test]
fn double_modifiers_flip_and_clear_the_sign_bit() {
    let mut add = Vec::new();
    let mut mul = Vec::new();
    for &a in DOUBLES {
        for &b in DOUBLES {
            let sum = (ap(a) + ap(b ^ NEG)).value;
            add.push(dbl(DADD, &[a, b], sum.to_bits() as u64));
            let prod = (ap(a & !NEG) * ap(b | NEG)).value;
            mul.push(dbl(DMUL, &[a, b], prod.to_bits() as u64));
        }
    }
    // Hand-checked: 1 - (-2.5) = 3.5; |-2.5| * -|1| = -2.5.
    add.push(dbl(
        DADD,
        &[0x3FF0_0000_0000_0000, 0xC004_0000_0000_0000],
        0x400C_0000_0000_0000,
    ));
    mul.push(dbl(
        DMUL,
        &[0xC004_0000_0000_0000, 0x3FF0_0000_0000_0000],
        0xC004_0000_0000_0000,
    ));
    check_rows64_modified(&add, &[("", ""), ("-", "")]);
    check_rows64_modified(&mul, &[("|", "|"), ("-|", "|")]);
}
