//! The 16-bit and 8-bit vector forms (SEMANTICS.md §2.1 swizzles, §3–§6 per lane).
//! f16 values: 1.0 = 0x3C00, 2.0 = 0x4000, 0.5 = 0x3800, −3.0 = 0xC200, 1.5 = 0x3E00,
//! −1.0 = 0xBC00 (IEEE 754 binary16).

#[path = "sim_util.rs"]
mod util;

use util::*;

#[test]
fn v2f16_arithmetic() {
    let r = run1(
        "FADD.v2f16 r4, r0, r1\n\
         FADD.v2f16 r5, r0.h10, 0x0\n\
         FADD.v2f16.clamp_0_1 r6, r0, r1\n\
         FMIN.v2f16 r7, r0, r2\n\
         FMAX.v2f16 r8, r2, r1\n\
         FMA.v2f16 r9, r0, r1, r0\n\
         FADD_IMM.v2f16 r10, r0, #0x3C003800",
        // r0 = (1.0, 2.0), r1 = (0.5, −3.0), r2 = (NaN, −0.0)
        &[0x4000_3C00, 0xC200_3800, 0x8000_7E00],
    );
    assert_eq!(r[4], 0xBC00_3E00, "(1.5, −1.0)");
    assert_eq!(r[5], 0x3C00_4000, "swizzled (2.0, 1.0)");
    assert_eq!(r[6], 0x0000_3C00, "clamp (1.5, −1.0) to [0, 1] = (1.0, +0)");
    assert_eq!(r[7], 0x8000_3C00, "min(1, NaN) = 1; min(2, −0) = −0");
    assert_eq!(r[8], 0x8000_3800, "max(NaN, 0.5) = 0.5; max(−0, −3) = −0");
    assert_eq!(r[9], 0xC400_3E00, "(1·0.5 + 1, 2·(−3) + 2) = (1.5, −4.0)");
    assert_eq!(r[10], 0x4200_3E00, "(1 + 0.5, 2 + 1) = (1.5, 3.0)");
}

#[test]
fn v2f16_conversions_and_rounding() {
    let r = run1(
        "FROUND.v2f16.rtn r4, r0\n\
         V2F16_TO_V2S16.rtz r5, r0\n\
         V2S16_TO_V2F16 r6, r1\n\
         V2F16_TO_V2U16 r7, r0\n\
         FROUND.v2f16.rtn r8.h0, r0",
        // r0 = (−2.5, 2.5) = (0xC100, 0x4100); r1 = (−1, 3) as i16
        &[0x4100_C100, 0x0003_FFFF, 0, 0, 0, 0, 0, 0, 0xAAAA_AAAA],
    );
    assert_eq!(r[4], 0x4000_C200, "floor: (−3, 2)");
    assert_eq!(r[5], 0x0002_FFFE, "trunc: (−2, 2)");
    assert_eq!(r[6], 0x4200_BC00, "(−1.0, 3.0)");
    assert_eq!(r[7], 0x0002_0000, "negative saturates to 0; 2.5 rte → 2");
    assert_eq!(r[8], 0xAAAA_C200, "write mask .h0 keeps the high half");
}

#[test]
fn integer_lanes() {
    let r = run1(
        "IADD.v2u16.saturate r4, r0, r1\n\
         IADD.v4s8.saturate r5, r2, r3\n\
         ISUB.v2s16 r6, r1, r0\n\
         IADD_IMM.v2i16 r7, r0, #0x10002\n\
         IADD.v2u16 r8, r0.h11, 0x0\n\
         IADD_IMM.v4i8 r9, r2, #0x1010101",
        // r0 = (0xFFFF, 1), r1 = (1, 2); r2 bytes (0x7F, 0x80, 1, 2), r3 (1, −1, 1, 2)
        &[0x0001_FFFF, 0x0002_0001, 0x0201_807F, 0x0201_FF01],
    );
    assert_eq!(r[4], 0x0003_FFFF);
    assert_eq!(r[5], 0x0402_807F, "(127, −128, 2, 4) with saturation");
    assert_eq!(r[6], 0x0001_0002, "(1 − 0xFFFF, 2 − 1) wraps per lane");
    assert_eq!(r[7], 0x0002_0001, "no carry between lanes");
    assert_eq!(r[8], 0x0001_0001, "h11 broadcasts the high half");
    assert_eq!(r[9], 0x0302_8180);
}

#[test]
fn vector_compare_select_shift() {
    let r = run1(
        "ICMP_OR.v2s16.gt.m1 r4, r0, r1, 0x0\n\
         ICMP_OR.v2u16.gt.i1 r5, r0, r1, 0x0\n\
         MUX.v2i16 r6, r2, r3, r1\n\
         CSEL.v2s16.lt r7, r0, r1, r2, r3\n\
         LSHIFT_AND.v4i8 r8, 0x1000000.b3333, 0x0.b00, r2\n\
         RSHIFT_OR.v2i16.signed r9, r0, 0x7060504.b00, 0x0\n\
         FCMP_OR.v2f16.lt.f1 r10, r11, r12, 0x0\n\
         ICMP_OR.v4u8.ne.i1 r13, r2.b0000, 0x0, 0x0",
        // r0 = (−1, 5) as i16, r1 = (0, 5); r2 = 0x12345678, r3 = 0x9ABCDEF0
        &[
            0x0005_FFFF,
            0x0005_0000,
            0x1234_5678,
            0x9ABC_DEF0,
            0,
            0,
            0,
            0,
            0,
            0,
            0,
            0x3C00_C200, // (−3.0, 1.0)
            0x4000_7E00, // (NaN, 2.0)
        ],
    );
    assert_eq!(r[4], 0x0000_0000, "(−1 > 0, 5 > 5) signed");
    assert_eq!(r[5], 0x0000_0001, "(0xFFFF > 0, 5 > 5) unsigned");
    assert_eq!(
        r[6], 0x9ABC_5678,
        "int_zero: lane 0 mask 0 → A, lane 1 mask 5 → B"
    );
    assert_eq!(r[7], 0x9ABC_5678, "(−1 < 0 → T, 5 < 5 → F)");
    assert_eq!(r[8], 0x0101_0101 & 0x1234_5678);
    assert_eq!(r[9], 0x0000_FFFF, "(−1 >> 4, 5 >> 4) arithmetic per lane");
    assert_eq!(r[10], 0x3C00_0000, "(−3 < NaN false, 1 < 2 true → f16 1.0)");
    assert_eq!(
        r[13], 0x0101_0101,
        "byte 0 (0x78) broadcast, ≠ 0 in every lane"
    );
}

#[test]
fn byte_to_half_conversions() {
    let r = run1(
        "V2S8_TO_V2S16 r4, r0.b01\n\
         V2U8_TO_V2U16 r5, r0.b10\n\
         V2S8_TO_V2F16 r6, r0.b01",
        &[0x0000_80FF],
    );
    assert_eq!(r[4], 0xFF80_FFFF, "(−1, −128)");
    assert_eq!(r[5], 0x00FF_0080, "(0x80, 0xFF)");
    assert_eq!(r[6], 0xD800_BC00, "(−1.0, −128.0) in f16");
}
