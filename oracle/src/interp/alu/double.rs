//! The double-precision opcodes (tgsi.rst "Double ISA"): one scalar function per opcode on
//! IEEE binary64 with round-to-nearest-even. Denormals are preserved (tgsi.rst says nothing
//! about flushing; EXEC-NOTES.md §0 "Denormals": tgsi_exec never flushes). The lane loops
//! and the channel-pair layout (xy and zw, low word first) are in [`super::wide`].
//!
//! NaN results are "any NaN", as for binary32 (EXEC-NOTES.md §0 "NaN bit patterns").
//! DTRUNC, DCEIL, DROUND, DSSG and DFMA are documented in tgsi.rst but missing from Mesa
//! (opcodes.csv `exec_upstream = missing`); they follow the doc's formula like their 32-bit
//! counterparts. The 64-bit conversions that involve 64-bit integers are in
//! [`super::int64`].

use super::float::nan_ignoring;
use super::kernel::{all_ones_if, Checked};

/// DABS — Double ISA `dst = |src|`: clears the sign bit (DABS(-0) = +0, a NaN stays a NaN).
/// tgsi_exec computes `d >= 0 ? d : -d` (keeps -0.0, flips NaN signs: EXEC-NOTES.md §6,
/// §12.19); that is not the doc's `|src|` and is not copied.
#[inline(always)]
pub fn dabs(a: f64) -> f64 {
    a.abs()
}

/// DNEG — double negation (opcodes.csv: "not in doc"; tgsi_exec negates): flips the sign bit.
#[inline(always)]
pub fn dneg(a: f64) -> f64 {
    -a
}

/// DADD — Double ISA `dst = src0 + src1`.
#[inline(always)]
pub fn dadd(a: f64, b: f64) -> f64 {
    a + b
}

/// DMUL — Double ISA `dst = src0 * src1`.
#[inline(always)]
pub fn dmul(a: f64, b: f64) -> f64 {
    a * b
}

/// DDIV — Double ISA `dst = src0 / src1` (correctly rounded; x/0 = ±inf, 0/0 = NaN).
#[inline(always)]
pub fn ddiv(a: f64, b: f64) -> f64 {
    a / b
}

/// DMAD — Double ISA `dst = src0 * src1 + src2`. Unlike MAD, the doc does not say whether
/// the product is rounded; since DFMA exists for the fused form, the reference rounds the
/// product (two roundings, like tgsi_exec, EXEC-NOTES.md §6), and the precision contract
/// accepts the fused result too (`fused_or_unfused`: LLVM-based drivers may contract it).
#[inline(always)]
pub fn dmad(a: f64, b: f64, c: f64) -> f64 {
    a * b + c
}

/// DFMA — Double ISA "Perform a * b + c with no intermediate rounding step" (one rounding;
/// `f64::mul_add` is exactly rounded).
#[inline(always)]
pub fn dfma(a: f64, b: f64, c: f64) -> f64 {
    a.mul_add(b, c)
}

/// DMIN — Double ISA `min(src0, src1)`, with MIN's rule (tgsi_exec uses fmin, EXEC-NOTES.md
/// §6): a NaN operand is ignored, both NaN give NaN, a tie returns the first operand (which
/// zero a ±0 tie gives is unspecified: the contract accepts either).
#[inline(always)]
pub fn dmin(a: f64, b: f64) -> f64 {
    nan_ignoring(a, b, a <= b)
}

/// DMAX — Double ISA `max(src0, src1)`, with MAX's rule (see [`dmin`]).
#[inline(always)]
pub fn dmax(a: f64, b: f64) -> f64 {
    nan_ignoring(a, b, a >= b)
}

/// DSLT — Double ISA `src0 < src1 ? ~0 : 0` (ordered: false with NaN).
#[inline(always)]
pub fn dslt(a: f64, b: f64) -> u32 {
    all_ones_if(a < b)
}

/// DSGE — Double ISA `src0 >= src1 ? ~0 : 0` (ordered).
#[inline(always)]
pub fn dsge(a: f64, b: f64) -> u32 {
    all_ones_if(a >= b)
}

/// DSEQ — Double ISA `src0 == src1 ? ~0 : 0` (ordered; -0 == +0).
#[inline(always)]
pub fn dseq(a: f64, b: f64) -> u32 {
    all_ones_if(a == b)
}

/// DSNE — Double ISA `src0 != src1 ? ~0 : 0` (unordered: true with NaN, like FSNE).
#[inline(always)]
pub fn dsne(a: f64, b: f64) -> u32 {
    all_ones_if(a != b)
}

/// DRCP — Double ISA `dst = 1 / src`, correctly rounded (DRCP(±0) = ±inf). Engines are
/// compared within the precision contract's DRCP bound.
#[inline(always)]
pub fn drcp(a: f64) -> f64 {
    1.0 / a
}

/// DSQRT — Double ISA `dst = sqrt(src)`, correctly rounded. Unlike SQRT, the doc does not
/// call negative inputs undefined: IEEE 754's rule applies (DSQRT(-0) = -0, DSQRT(x < 0) =
/// NaN).
#[inline(always)]
pub fn dsqrt(a: f64) -> f64 {
    a.sqrt()
}

/// DRSQ — Double ISA `dst = 1 / sqrt(src)`, **correctly rounded** (one rounding of the exact
/// value; tgsi_exec's `1 / sqrt(d)` rounds twice). The doc does not call any input
/// undefined, so the IEEE special cases of `1 / sqrt(x)` apply: DRSQ(+0) = +inf,
/// DRSQ(-0) = -inf, DRSQ(x < 0) = NaN, DRSQ(+inf) = +0. Engines are compared within the
/// precision contract's DRSQ bound.
pub fn drsq(a: f64) -> f64 {
    if a.is_nan() || a < 0.0 {
        return f64::NAN;
    }
    if a == 0.0 || a.is_infinite() {
        return 1.0 / a.sqrt();
    }
    // 1/sqrt(a) lies in [2^-512, 2^537] for every positive finite binary64 (2^-1074 ..
    // 2^1024): always a normal number. `1 / sqrt` is within 2 ulp; then step to the float
    // whose rounding interval holds the exact value, deciding each midpoint exactly.
    let mut c = 1.0 / a.sqrt();
    for _ in 0..4 {
        if above_midpoint(c, a) {
            c = f64::from_bits(c.to_bits() + 1);
        } else if !above_midpoint(f64::from_bits(c.to_bits() - 1), a) {
            c = f64::from_bits(c.to_bits() - 1);
        } else {
            break;
        }
    }
    c
}

/// Whether `1/sqrt(x)` is above the midpoint between the positive normal `c` and the next
/// float up, i.e. `m^2 * x < 1` with `m` that midpoint, decided in exact integer arithmetic:
/// `m = (2*Mc + 1) * 2^(ec - 1)` and `x = X * 2^ex` give `m^2 * x = M^2 X * 2^(2(ec-1)+ex)`,
/// compared with 1. (Never equal: `M` is odd and greater than 1.)
fn above_midpoint(c: f64, x: f64) -> bool {
    let (mc, ec) = decompose(c);
    let (mx, ex) = decompose(x);
    let m = 2 * mc as u128 + 1;
    let m2 = m * m; // < 2^108
                    // N = m2 * mx as a 192-bit number [l0, l1, l2].
    let t0 = (m2 as u64 as u128) * mx as u128;
    let t1 = ((m2 >> 64) as u64 as u128) * mx as u128 + (t0 >> 64);
    let (l1, l2) = (t1 as u64, (t1 >> 64) as u64);
    let bits = if l2 != 0 {
        192 - l2.leading_zeros() as i64
    } else if l1 != 0 {
        128 - l1.leading_zeros() as i64
    } else {
        64 - (t0 as u64).leading_zeros() as i64
    };
    // N * 2^s < 1  <=>  N < 2^-s; N >= 2^(bits-1) and N < 2^bits.
    let s = 2 * (ec - 1) + ex;
    bits <= -s
}

/// A positive finite binary64 as `(M, e)` with value `M * 2^e`, `M < 2^53`.
fn decompose(x: f64) -> (u64, i64) {
    let b = x.to_bits();
    let frac = b & ((1 << 52) - 1);
    let exp = (b >> 52 & 0x7ff) as i64;
    if exp == 0 {
        (frac, -1074)
    } else {
        (frac | 1 << 52, exp - 1075)
    }
}

/// DFRAC — Double ISA `src - floor(src)`, one rounding: like FRC it can return exactly 1.0
/// (DFRAC(-1e-300) = 1.0), DFRAC(-0) = +0, DFRAC(±inf) = NaN.
#[inline(always)]
pub fn dfrac(a: f64) -> f64 {
    a - a.floor()
}

/// DTRUNC — Double ISA `trunc(src)`, exact; keeps the sign of zero.
#[inline(always)]
pub fn dtrunc(a: f64) -> f64 {
    a.trunc()
}

/// DCEIL — Double ISA `ceil(src)`, exact; keeps the sign of zero (DCEIL(-0.5) = -0).
#[inline(always)]
pub fn dceil(a: f64) -> f64 {
    a.ceil()
}

/// DFLR — Double ISA `floor(src)`, exact (DFLR(-0.5) = -1, DFLR(-0) = -0).
#[inline(always)]
pub fn dflr(a: f64) -> f64 {
    a.floor()
}

/// DROUND — Double ISA `round(src)` (titled "Fraction" in the doc, a copy-paste slip). Ties
/// round to even, as ROUND's do (EXEC-NOTES.md §3): DROUND(2.5) = 2, DROUND(-0.5) = -0.
#[inline(always)]
pub fn dround(a: f64) -> f64 {
    a.round_ties_even()
}

/// DSSG — Double ISA `(src > 0) ? 1.0 : (src < 0) ? -1.0 : 0.0`; DSSG(-0) = DSSG(NaN) = +0.
#[inline(always)]
pub fn dssg(a: f64) -> f64 {
    if a > 0.0 {
        1.0
    } else if a < 0.0 {
        -1.0
    } else {
        0.0
    }
}

/// DLDEXP — Double ISA `src0 * 2^src1` with an integer exponent: exact before one rounding
/// (overflow → ±inf, underflow → denormal or ±0). `libm::scalbn` scales in exact steps and
/// rounds once (musl's algorithm).
#[inline(always)]
pub fn dldexp(a: f64, n: i32) -> f64 {
    libm::scalbn(a, n)
}

/// F2D — Double ISA `double(src)`: exact.
#[inline(always)]
pub fn f2d(a: f32) -> f64 {
    a as f64
}

/// D2F — Double ISA `float(src)`, rounded to nearest even (overflow → ±inf; tgsi.rst fixes
/// no rounding, EXEC-NOTES.md §4: round-to-nearest-even; the precision contract's
/// "conversions ... Correctly rounded").
#[inline(always)]
pub fn d2f(a: f64) -> f32 {
    a as f32
}

/// I2D — Double ISA `double(src)` of a signed integer: exact. The source is fetched as an
/// integer (opcodes.csv `int`), so `-src` negates the integer (tgsi_exec fetches it as a
/// float, EXEC-NOTES.md §4; not copied).
#[inline(always)]
pub fn i2d(a: i32) -> f64 {
    a as f64
}

/// U2D — Double ISA `double(src)` of an unsigned integer: exact.
#[inline(always)]
pub fn u2d(a: u32) -> f64 {
    a as f64
}

/// D2I — Double ISA `int(src)`, truncating. The doc states no range; as for F2I ("Values
/// outside signed range (including NaNs) produce undefined results") NaN and values whose
/// truncation is outside `[-2^31, 2^31 - 1]` are undefined (0x80000000 stored).
#[inline(always)]
pub fn d2i(a: f64) -> Checked<i32> {
    if a > -2_147_483_649.0 && a < 2_147_483_648.0 {
        Checked::ok(a as i32)
    } else {
        Checked::new(i32::MIN, true)
    }
}

/// D2U — Double ISA `unsigned(src)`, truncating; as for F2U, NaN, values ≤ -1 and ≥ 2^32 are
/// undefined (0 stored); values in (-1, 0) give 0.
#[inline(always)]
pub fn d2u(a: f64) -> Checked<u32> {
    if a > -1.0 && a < 4_294_967_296.0 {
        Checked::ok(a as u32)
    } else {
        Checked::new(0, true)
    }
}

#[cfg(test)]
mod tests {
    use super::drsq;

    /// DRSQ is correctly rounded. Expected values: Python `float(1 / Decimal(x).sqrt())`
    /// at 80 digits (correctly rounded to binary64). The last two are inputs where
    /// `1 / sqrt(x)` rounded twice is one ulp off.
    #[test]
    fn drsq_is_correctly_rounded() {
        for (x, want) in [
            (0x4000_0000_0000_0000u64, 0x3FE6_A09E_667F_3BCDu64),
            (0x4008_0000_0000_0000, 0x3FE2_79A7_4590_331C),
            (0x3FB9_9999_9999_999A, 0x4009_4C58_3ADA_5B52),
            (0x7FEF_FFFF_FFFF_FFFF, 0x1FF0_0000_0000_0000),
            (0x0000_0000_0000_0001, 0x6180_0000_0000_0000),
            (0x000F_FFFF_FFFF_FFFF, 0x5FE0_0000_0000_0001),
            (0x7E37_E43C_8800_759C, 0x20CA_2FE7_6A3F_9475),
            (0x4002_C9AC_506A_AF31, 0x3FE4_E19B_BF6B_74EE),
            (0x3FF4_8158_BAED_590B, 0x3FEC_444F_E98B_10C0),
        ] {
            assert_eq!(drsq(f64::from_bits(x)).to_bits(), want, "DRSQ({x:#x})");
        }
    }
}
