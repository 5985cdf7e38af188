//! Double ISA value tables (tgsi.rst "Double ISA"), on every engine of
//! `support::wide::ENGINES_64`.
//!
//! Expected values: IEEE binary64 arithmetic from `rustc_apfloat` (an independent software
//! IEEE 754 implementation, TOOLCHAIN.md) for DADD, DMUL, DDIV, DRCP, DFMA, DMAD, rounding,
//! DLDEXP and conversions; square roots and reciprocal square roots are constants computed
//! with Python's `decimal` module at 80 digits and rounded to nearest binary64 (cited per
//! row); sign operations, comparisons and DSSG follow the doc's formulas by hand.

use rustc_apfloat::ieee::{Double, Single};
use rustc_apfloat::{Float, FloatConvert, Round, Status};
use shaderdiff_model::Opcode::{self, *};

use crate::support::wide::*;

const P0: u64 = 0;
const N0: u64 = 0x8000_0000_0000_0000;
const ONE: u64 = 0x3FF0_0000_0000_0000;
const NEG_ONE: u64 = 0xBFF0_0000_0000_0000;
const TWO: u64 = 0x4000_0000_0000_0000;
const ONE_HALF: u64 = 0x3FF8_0000_0000_0000; // 1.5
const NEG_2_5: u64 = 0xC004_0000_0000_0000; // -2.5
const TENTH: u64 = 0x3FB9_9999_9999_999A; // 0.1
const MAX: u64 = 0x7FEF_FFFF_FFFF_FFFF;
const MIN_NORMAL: u64 = 0x0010_0000_0000_0000;
const DENORM_MIN: u64 = 0x0000_0000_0000_0001;
const DENORM_MAX: u64 = 0x000F_FFFF_FFFF_FFFF;
const INF: u64 = 0x7FF0_0000_0000_0000;
const NEG_INF: u64 = 0xFFF0_0000_0000_0000;
const NAN: u64 = 0x7FF8_0000_0000_0000;
const NEG: u64 = 0x8000_0000_0000_0000;

/// Edge values: ±0, ±1, 1.5, -2.5, 0.1, ±largest, smallest normal, ±smallest and largest
/// denormal, ±inf, NaN.
const EDGES: &[u64] = &[
    P0,
    N0,
    ONE,
    NEG_ONE,
    ONE_HALF,
    NEG_2_5,
    TENTH,
    MAX,
    MAX | NEG,
    MIN_NORMAL,
    DENORM_MIN,
    DENORM_MIN | NEG,
    DENORM_MAX,
    INF,
    NEG_INF,
    NAN,
];

fn ap(x: u64) -> Double {
    Double::from_bits(x as u128)
}

fn bits(d: Double) -> u64 {
    d.to_bits() as u64
}

/// Every row of a binary opcode over all pairs of edge values.
fn binary(op: Opcode, f: impl Fn(Double, Double) -> Double) -> Vec<Row64> {
    let mut rows = Vec::new();
    for &a in EDGES {
        for &b in EDGES {
            rows.push(dbl(op, &[a, b], bits(f(ap(a), ap(b)))));
        }
    }
    rows
}

/// tgsi.rst DADD, DMUL, DDIV: `src0 + src1`, `src0 * src1`, `src0 / src1`, IEEE binary64
/// round-to-nearest-even (rustc_apfloat).
#[test]
fn dadd_dmul_ddiv() {
    let mut rows = binary(DADD, |a, b| (a + b).value);
    rows.extend(binary(DMUL, |a, b| (a * b).value));
    rows.extend(binary(DDIV, |a, b| (a / b).value));
    check_rows64(&rows);
}

/// tgsi.rst DFMA "with no intermediate rounding step" (rustc_apfloat `mul_add`) and DMAD
/// `src0 * src1 + src2` with the product rounded (the oracle's value; the contract also
/// accepts the fused result, which for the rows chosen here differs only where noted).
#[test]
fn dfma_dmad() {
    let small = [P0, N0, ONE, NEG_ONE, TENTH, MAX, DENORM_MIN, INF, NAN];
    let mut rows = Vec::new();
    for &a in &small {
        for &b in &small {
            for &c in &small {
                let fused = a_fma(a, b, c);
                rows.push(dbl(DFMA, &[a, b, c], fused));
                let unfused = bits(((ap(a) * ap(b)).value + ap(c)).value);
                // Both results are acceptable for DMAD; a row states one of them only when
                // they agree.
                let nan = |w: u64| f64::from_bits(w).is_nan();
                if unfused == fused || (nan(unfused) && nan(fused)) {
                    rows.push(dbl(DMAD, &[a, b, c], unfused));
                }
            }
        }
    }
    // 0.1 * 10 - 1: the rounded product is exactly 1 (0.1 * 10 = 1.0000000000000000555...
    // rounds to 1.0), so DMAD gives +0; DFMA keeps 2^-54 = 0x3C90000000000000.
    let ten = 0x4024_0000_0000_0000;
    rows.push(dbl(DFMA, &[TENTH, ten, NEG_ONE], 0x3C90_0000_0000_0000));
    check_rows64(&rows);
}

fn a_fma(a: u64, b: u64, c: u64) -> u64 {
    bits(ap(a).mul_add(ap(b), ap(c)).value)
}

/// tgsi.rst DRCP `1 / src` (rustc_apfloat division, correctly rounded; the cpu class is
/// held to it exactly).
#[test]
fn drcp() {
    let rows: Vec<Row64> = EDGES
        .iter()
        .map(|&a| {
            dbl(
                DRCP,
                &[a],
                bits((Double::from_bits(ONE as u128) / ap(a)).value),
            )
        })
        .collect();
    check_rows64(&rows);
}

/// tgsi.rst DSQRT `sqrt(src)`: correctly rounded (IEEE 754). Constants: Python
/// `float(Decimal(x).sqrt())` at 80 digits. DSQRT(-0) = -0, negative → NaN (IEEE).
#[test]
fn dsqrt() {
    check_rows64(&[
        dbl(DSQRT, &[0x4010_0000_0000_0000], TWO), // sqrt(4) = 2
        dbl(DSQRT, &[TWO], 0x3FF6_A09E_667F_3BCD), // sqrt(2)
        dbl(DSQRT, &[0x4008_0000_0000_0000], 0x3FFB_B67A_E858_4CAA), // sqrt(3)
        dbl(DSQRT, &[TENTH], 0x3FD4_3D13_6248_490F),
        dbl(DSQRT, &[MAX], 0x5FEF_FFFF_FFFF_FFFF),
        dbl(DSQRT, &[DENORM_MIN], 0x1E60_0000_0000_0000), // 2^-537
        dbl(DSQRT, &[DENORM_MAX], 0x1FFF_FFFF_FFFF_FFFF),
        dbl(DSQRT, &[MIN_NORMAL], 0x2000_0000_0000_0000), // 2^-511
        dbl(DSQRT, &[P0], P0),
        dbl(DSQRT, &[N0], N0),
        dbl(DSQRT, &[INF], INF),
        dbl(DSQRT, &[NEG_ONE], NAN),
        dbl(DSQRT, &[NEG_INF], NAN),
        dbl(DSQRT, &[NAN], NAN),
    ]);
}

/// tgsi.rst DRSQ `1 / sqrt(src)`: the oracle rounds the exact value once; the cpu class
/// (the jit's `1 / sqrt`) is within 2 binary64 ulp (precision.toml DRSQ). Constants: Python
/// `float(1 / Decimal(x).sqrt())` at 80 digits. 0x4002C9AC506AAF31 is a case where
/// `1 / sqrt(x)` rounded twice gives ...ED instead of the correctly rounded ...EE.
/// IEEE special cases: DRSQ(+0) = +inf, DRSQ(-0) = -inf, negative → NaN, +inf → +0.
#[test]
fn drsq() {
    let u = |x: u64, want: u64| row(DRSQ, &[x], Want64::Ulps64(want, 2));
    check_rows64(&[
        dbl(DRSQ, &[0x4010_0000_0000_0000], 0x3FE0_0000_0000_0000), // 1/sqrt(4) = 0.5
        dbl(DRSQ, &[0x3FD0_0000_0000_0000], TWO),                   // 1/sqrt(0.25) = 2
        u(TWO, 0x3FE6_A09E_667F_3BCD),
        u(0x4008_0000_0000_0000, 0x3FE2_79A7_4590_331C),
        u(TENTH, 0x4009_4C58_3ADA_5B52),
        u(ONE_HALF, 0x3FEA_20BD_700C_2C3E),
        u(0x4002_C9AC_506A_AF31, 0x3FE4_E19B_BF6B_74EE),
        u(0x3FF4_8158_BAED_590B, 0x3FEC_444F_E98B_10C0),
        u(MAX, 0x1FF0_0000_0000_0000),
        dbl(DRSQ, &[DENORM_MIN], 0x6180_0000_0000_0000), // 2^537
        u(DENORM_MAX, 0x5FE0_0000_0000_0001),
        dbl(DRSQ, &[MIN_NORMAL], 0x5FE0_0000_0000_0000), // 2^511
        dbl(DRSQ, &[P0], INF),
        dbl(DRSQ, &[N0], NEG_INF),
        dbl(DRSQ, &[INF], P0),
        dbl(DRSQ, &[NEG_ONE], NAN),
        dbl(DRSQ, &[NAN], NAN),
    ]);
}

/// tgsi.rst DABS `|src|` (sign bit cleared: DABS(-0) = +0, not tgsi_exec's -0, EXEC-NOTES.md
/// §12.19) and DNEG (sign bit flipped). Bit operations, by hand.
#[test]
fn dabs_dneg() {
    let mut rows = Vec::new();
    for &a in EDGES {
        rows.push(b64(DABS, &[a], a & !NEG));
        rows.push(b64(DNEG, &[a], a ^ NEG));
    }
    rows.push(b64(DABS, &[NAN | NEG], NAN));
    check_rows64(&rows);
}

/// tgsi.rst DMIN/DMAX with MIN/MAX's NaN rule (a NaN operand is ignored); which zero a ±0
/// tie gives is unspecified (either accepted): by hand from host comparisons.
#[test]
fn dmin_dmax() {
    let mut rows = Vec::new();
    for &a in EDGES {
        for &b in EDGES {
            let (x, y) = (f64::from_bits(a), f64::from_bits(b));
            if x == 0.0 && y == 0.0 && a != b {
                continue; // zero tie: see the rows below
            }
            let pick = |want_min: bool| -> u64 {
                // NaN operands are ignored; otherwise the smaller (larger) one, the first
                // on a tie.
                let first = !x.is_nan() && (y.is_nan() || (x < y) == want_min || x == y);
                if first {
                    a
                } else {
                    b
                }
            };
            rows.push(dbl(DMIN, &[a, b], pick(true)));
            rows.push(dbl(DMAX, &[a, b], pick(false)));
        }
    }
    check_rows64(&rows);
}

/// DMIN/DMAX of +0 and -0: either zero (precision.toml DMIN/DMAX `signed_zero = "either"`;
/// EXEC-NOTES.md §0: fmin/fmax zero ties are unspecified).
#[test]
fn dmin_dmax_zero_ties() {
    let z = Want64::AnyZero;
    check_rows64(&[
        row(DMIN, &[P0, N0], z),
        row(DMIN, &[N0, P0], z),
        row(DMAX, &[P0, N0], z),
        row(DMAX, &[N0, P0], z),
    ]);
}

/// tgsi.rst DSEQ/DSNE/DSLT/DSGE `cond ? ~0 : 0`: ordered comparisons except DSNE (true with
/// NaN), -0 == +0; host IEEE comparisons.
#[test]
fn comparisons() {
    let mut rows = Vec::new();
    for &a in EDGES {
        for &b in EDGES {
            let (x, y) = (f64::from_bits(a), f64::from_bits(b));
            let m = |c: bool| if c { u32::MAX } else { 0 };
            rows.push(word(DSEQ, &[a, b], m(x == y)));
            rows.push(word(DSNE, &[a, b], m(x != y)));
            rows.push(word(DSLT, &[a, b], m(x < y)));
            rows.push(word(DSGE, &[a, b], m(x >= y)));
        }
    }
    check_rows64(&rows);
}

/// tgsi.rst DFLR, DCEIL, DTRUNC, DROUND (ties to even, as ROUND), DFRAC `src - floor(src)`
/// (one rounding: DFRAC(-2^-1074) = 1.0), DSSG `(src > 0) ? 1 : (src < 0) ? -1 : 0`.
/// rustc_apfloat `round_to_integral` and subtraction.
#[test]
fn rounding_and_sign() {
    let mut rows = Vec::new();
    let extra = [
        0x4004_0000_0000_0000,
        0xBFE0_0000_0000_0000,
        0x4330_0000_0000_0001,
    ]; // 2.5, -0.5, 2^52 + 1
    for &a in EDGES.iter().chain(&extra) {
        let r = |mode| bits(ap(a).round_to_integral(mode).value);
        rows.push(dbl(DFLR, &[a], r(Round::TowardNegative)));
        rows.push(dbl(DCEIL, &[a], r(Round::TowardPositive)));
        rows.push(dbl(DTRUNC, &[a], r(Round::TowardZero)));
        rows.push(dbl(DROUND, &[a], r(Round::NearestTiesToEven)));
        let floor = ap(a).round_to_integral(Round::TowardNegative).value;
        rows.push(dbl(DFRAC, &[a], bits((ap(a) - floor).value)));
        let x = f64::from_bits(a);
        let ssg = if x > 0.0 {
            ONE
        } else if x < 0.0 {
            NEG_ONE
        } else {
            P0
        };
        rows.push(b64(DSSG, &[a], ssg));
    }
    rows.push(dbl(DFRAC, &[DENORM_MIN | NEG], ONE));
    rows.push(dbl(DROUND, &[0xBFE0_0000_0000_0000], N0)); // round(-0.5) = -0
    check_rows64(&rows);
}

/// tgsi.rst DLDEXP `src0 * 2^src1` (exponent src1.x / src1.z): rustc_apfloat `scalbn`
/// (exact scaling, one rounding).
#[test]
fn dldexp() {
    let mut rows = Vec::new();
    for &a in EDGES {
        for n in [
            0i32,
            1,
            -1,
            52,
            -1074,
            1023,
            2046,
            -2100,
            i32::MAX,
            i32::MIN,
        ] {
            let want = bits(ap(a).scalbn(n));
            rows.push(dbl(DLDEXP, &[a, n as u32 as u64], want));
        }
    }
    // 1.5 * 2^-1074 rounds (once) to 2^-1073, the denormal 0x2 (ties to even).
    rows.push(dbl(DLDEXP, &[ONE_HALF, (-1074i32) as u32 as u64], 0x2));
    check_rows64(&rows);
}

/// tgsi.rst F2D `double(src.x)` (exact), D2F `float(src.xy)` (nearest even: overflow →
/// ±inf, tiny → denormal or 0), I2D/U2D exact, D2I/D2U truncating with NaN and values
/// outside the 32-bit range undefined (as F2I/F2U). rustc_apfloat conversions.
#[test]
fn conversions() {
    let mut rows = Vec::new();
    let singles: [u32; 9] = [
        0,
        0x8000_0000,
        0x3F80_0000,
        0x0000_0001,
        0x7F7F_FFFF,
        0x7F80_0000,
        0xFF80_0000,
        0x7FC0_0000,
        0x3DCC_CCCD,
    ];
    for &s in &singles {
        let mut loses = false;
        let d: Double = Single::from_bits(s as u128).convert(&mut loses).value;
        rows.push(dbl(F2D, &[s as u64], bits(d)));
    }
    for &a in EDGES
        .iter()
        .chain(&[0x36A0_0000_0000_0000, 0x47EF_FFFF_F000_0000])
    {
        let mut loses = false;
        let f: Single = ap(a).convert(&mut loses).value;
        rows.push(single(D2F, &[a], f.to_bits() as u32));
    }
    for i in [0i32, 1, -1, i32::MAX, i32::MIN] {
        rows.push(dbl(
            I2D,
            &[i as u32 as u64],
            bits(Double::from_i128(i as i128).value),
        ));
        let u = i as u32;
        rows.push(dbl(
            U2D,
            &[u as u64],
            bits(Double::from_u128(u as u128).value),
        ));
    }
    let big = [
        0x41DF_FFFF_FFC0_0000u64, // 2^31 - 1
        0x41E0_0000_0000_0000,    // 2^31
        0xC1E0_0000_0000_0000,    // -2^31
        0xC1E0_0000_0020_0000,    // -2^31 - 1
        0xC1E0_0000_001F_FFFF,    // -2^31 - 0.99...
        0x41EF_FFFF_FFE0_0000,    // 2^32 - 1
        0x41F0_0000_0000_0000,    // 2^32
        0xBFEF_FFFF_FFFF_FFFF,    // -0.99...
    ];
    for &a in EDGES.iter().chain(&big) {
        let mut exact = false;
        let s = ap(a).to_i128_r(32, Round::TowardZero, &mut exact);
        rows.push(if s.status.contains(Status::INVALID_OP) {
            undef(D2I, &[a])
        } else {
            word(D2I, &[a], s.value as i32 as u32)
        });
        let u = ap(a).to_u128_r(32, Round::TowardZero, &mut exact);
        // F2U's rule: (-1, 0) truncates to 0 and is defined.
        let neg_fraction = f64::from_bits(a) > -1.0 && f64::from_bits(a) < 0.0;
        rows.push(if u.status.contains(Status::INVALID_OP) && !neg_fraction {
            undef(D2U, &[a])
        } else {
            word(D2U, &[a], if neg_fraction { 0 } else { u.value as u32 })
        });
    }
    check_rows64(&rows);
}
