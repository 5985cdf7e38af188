//! Transcendental opcodes (EX2 LG2 POW SIN COS) and LIT, EXP, LOG of the reference ALU.
//!
//! Exact expectations are asserted bit-exactly where the math is exact (2^3 = 8, log2 8 = 3,
//! sin 0 = 0, 2^10 = 1024, powers of two). Other values are the exact real value written as a
//! decimal (known constants: sqrt 2, log2 10, sin 1, cos 1 ...) and are checked to within 1 ulp
//! of its binary32 rounding, the bound alu/special.rs documents (0.5 ulp + 2^-29 ulp from the
//! exact value). Special values follow C99/IEEE as quoted in EXEC-NOTES.md §3.

#![allow(clippy::needless_range_loop)] // channel loops index several arrays

mod opcodes_support;

use opcodes_support::*;
use rstest::rstest;
use shaderdiff_ir::Opcode::{self, *};

/// tgsi.rst EX2 `2^src.x`, LG2 `log2(src.x)`; exact cases. EXEC-NOTES.md §3 (release build):
/// EX2(-inf) = 0, EX2(+inf) = inf, LG2(0) = -inf, LG2(<0) = NaN, LG2(+inf) = +inf.
/// 2^-150 is a tie between 0 and 2^-149 and rounds to even (+0).
/// -149 = 0xC3150000; 127 = 0x42FE0000; 2^127 = 0x7F000000.
#[rstest]
#[case(EX2, THREE, EIGHT)]
#[case(EX2, ZERO, ONE)]
#[case(EX2, NEG_ONE, HALF)]
#[case(EX2, NEG_INF, ZERO)]
#[case(EX2, INF, INF)]
#[case(EX2, 0x4300_0000, INF)] // 2^128 overflows
#[case(EX2, 0x42FE_0000, 0x7F00_0000)] // 2^127
#[case(EX2, 0xC2FC_0000, 0x0080_0000)] // 2^-126
#[case(EX2, 0xC315_0000, DENORM_MIN)] // 2^-149
#[case(EX2, 0xC316_0000, ZERO)] // 2^-150
#[case(EX2, NAN, NAN)]
#[case(LG2, EIGHT, THREE)]
#[case(LG2, ONE, ZERO)]
#[case(LG2, HALF, NEG_ONE)]
#[case(LG2, ZERO, NEG_INF)]
#[case(LG2, NEG_ZERO, NEG_INF)]
#[case(LG2, NEG_ONE, NAN)]
#[case(LG2, INF, INF)]
#[case(LG2, NAN, NAN)]
#[case(LG2, DENORM_MIN, 0xC315_0000)] // log2(2^-149) = -149
#[case(LG2, 0x7F00_0000, 0x42FE_0000)] // log2(2^127) = 127
fn ex2_lg2_exact(#[case] op: Opcode, #[case] a: u32, #[case] want: u32) {
    check_f32(op, &[a], want, false);
}

/// tgsi.rst POW `src0.x ^ src1.x` with the C99 pow special cases EXEC-NOTES.md §3 lists:
/// POW(x, 0) = 1 for any x incl. NaN and 0; POW(1, NaN) = 1; POW(0, -1) = +inf;
/// POW(-0, -1) = -inf; POW(-2, 3) = -8; POW(-2, 0.5) = NaN; POW(-8, 1/3) = NaN.
#[rstest]
#[case(TWO, 0x4120_0000, 0x4480_0000)] // 2^10 = 1024
#[case(NAN, ZERO, ONE)]
#[case(ZERO, ZERO, ONE)]
#[case(ONE, NAN, ONE)]
#[case(ZERO, NEG_ONE, INF)]
#[case(NEG_ZERO, NEG_ONE, NEG_INF)]
#[case(NEG_TWO, THREE, 0xC100_0000)] // -8
#[case(NEG_TWO, HALF, NAN)]
#[case(0xC100_0000, 0x3EAA_AAAB, NAN)] // (-8)^(1/3)
#[case(FOUR, HALF, TWO)]
#[case(TWO, NEG_ONE, HALF)]
#[case(TWO, 0x4300_0000, INF)] // 2^128
#[case(HALF, NEG_INF, INF)]
fn pow(#[case] a: u32, #[case] b: u32, #[case] want: u32) {
    check_f32(POW, &[a, b], want, false);
}

/// tgsi.rst SIN/COS; exact cases. sin(±0) = ±0, cos(0) = 1, sin/cos(±inf) = NaN
/// (EXEC-NOTES.md §3). cos(float(pi)) = -1 + 3.8e-15, which rounds to -1.
#[rstest]
#[case(SIN, ZERO, ZERO)]
#[case(SIN, NEG_ZERO, NEG_ZERO)]
#[case(SIN, INF, NAN)]
#[case(SIN, NEG_INF, NAN)]
#[case(SIN, NAN, NAN)]
#[case(COS, ZERO, ONE)]
#[case(COS, INF, NAN)]
#[case(COS, 0x4049_0FDB, NEG_ONE)] // float(pi)
fn sin_cos_exact(#[case] op: Opcode, #[case] a: u32, #[case] want: u32) {
    check_f32(op, &[a], want, false);
}

/// Inexact transcendentals against known real values, within 1 ulp.
/// sin(float(pi)) = -(float(pi) - pi) = -8.742278e-8 (to first order; the cubic term is 1e-22).
#[rstest]
#[case(EX2, &[HALF], std::f64::consts::SQRT_2)]
#[case(EX2, &[NEG_ONE_HALF], 0.353_553_390_593_273_8)] // 2^-1.5 = sqrt(2)/4
#[case(LG2, &[0x4120_0000], std::f64::consts::LOG2_10)] // log2(10)
#[case(LG2, &[THREE], 1.584_962_500_721_156_2)] // log2(3)
#[case(POW, &[TWO, HALF], std::f64::consts::SQRT_2)]
#[case(POW, &[0x4120_0000, HALF], 3.162_277_660_168_379_5)] // sqrt(10)
#[case(SIN, &[ONE], 0.841_470_984_807_896_5)]
#[case(COS, &[ONE], 0.540_302_305_868_139_8)]
#[case(SIN, &[0x4049_0FDB], -8.742_278e-8)]
#[case(SIN, &[HALF], 0.479_425_538_604_203)]
fn approx(#[case] op: Opcode, #[case] srcs: &[u32], #[case] want: f64) {
    check_approx(op, srcs, want);
}

/// SIN of a huge argument needs full-range reduction: EXEC-NOTES.md §0 quotes
/// sin(1e30) = -0.79116 (glibc sinf, near correctly rounded); 1e30f = 0x7149F2CA.
#[test]
fn sin_full_range() {
    let (got, u) = eval_scalar(SIN, &[0x7149_F2CA]);
    assert!(!u);
    assert!(
        (f32::from_bits(got) + 0.79116).abs() < 1e-5,
        "{}",
        f32::from_bits(got)
    );
}

fn f(x: f32) -> u32 {
    x.to_bits()
}

/// Checks a channel-dependent opcode on one source vec4: `want[c]` per channel (NaN = any
/// NaN), `undef[c]` the expected undefined flag (value unchecked when set).
fn check_vec(op: Opcode, s: [f32; 4], want: [f32; 4], undef: [bool; 4]) {
    let r = eval_vec(op, &[s.map(f)], 0xF);
    for c in 0..4 {
        assert_eq!(r.undefined[c], undef[c], "{op}{s:?} channel {c} flag");
        if !undef[c] {
            assert_f32(r.value[c], f(want[c]), &format!("{op}{s:?} channel {c}"));
        }
    }
}

const D: [bool; 4] = [false; 4];

/// tgsi.rst EXP `(2^floor(s), s - floor(s), 2^s, 1)`. EXEC-NOTES.md §3 [run]:
/// EXP(-200) = (0, 0, 0, 1). EXP(+inf).y = inf - inf = NaN. 2^2.5 = 4·sqrt(2) and
/// 2^-1.5 = sqrt(2)/4 are sqrt(2) rounded (0x3FB504F3, see opcodes_float) scaled by 4 and 1/4.
#[rstest]
#[case([3.0, 9.0, 9.0, 9.0], [8.0, 0.0, 8.0, 1.0])]
#[case([2.5, 0.0, 0.0, 0.0], [4.0, 0.5, f32::from_bits(0x40B5_04F3), 1.0])] // 4·sqrt(2)
#[case([-1.5, 0.0, 0.0, 0.0], [0.25, 0.5, f32::from_bits(0x3EB5_04F3), 1.0])] // sqrt(2)/4
#[case([-200.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 1.0])]
#[case([f32::INFINITY, 0.0, 0.0, 0.0], [f32::INFINITY, f32::NAN, f32::INFINITY, 1.0])]
#[case([f32::NEG_INFINITY, 0.0, 0.0, 0.0], [0.0, f32::NAN, 0.0, 1.0])]
#[case([f32::NAN, 0.0, 0.0, 0.0], [f32::NAN, f32::NAN, f32::NAN, 1.0])]
fn exp(#[case] s: [f32; 4], #[case] want: [f32; 4]) {
    let r = eval_vec(EXP, &[s.map(f)], 0xF);
    for c in [0, 1, 3] {
        assert!(!r.undefined[c]);
        assert_f32(r.value[c], f(want[c]), &format!("EXP{s:?} channel {c}"));
    }
    // z = 2^s: exact for integral s and at ±inf/NaN, otherwise within 1 ulp.
    assert!(!r.undefined[2]);
    let z = f32::from_bits(r.value[2]);
    if want[2].is_nan() {
        assert!(z.is_nan());
    } else {
        assert!(ulps(z, want[2]) <= 1, "EXP{s:?}.z = {z:e}");
    }
}

/// tgsi.rst LOG `(floor(log2|s|), |s| / 2^floor(log2|s|), log2|s|, 1)`. EXEC-NOTES.md §3
/// [run]: LOG(8) = (3, 1, 3, 1); LOG(0) = (-inf, NaN, -inf, 1) (release build).
/// 2^100·(1 - 2^-24) = 0x717FFFFF: floor(log2) = 99 exactly although log2 rounds to 100.0;
/// y = 2·(1 - 2^-24) = 2 - 2^-23 = 0x3FFFFFFF.
#[rstest]
#[case([8.0, 0.0, 0.0, 0.0], [3.0, 1.0, 3.0, 1.0])]
#[case([-8.0, 0.0, 0.0, 0.0], [3.0, 1.0, 3.0, 1.0])]
#[case([0.0, 0.0, 0.0, 0.0], [f32::NEG_INFINITY, f32::NAN, f32::NEG_INFINITY, 1.0])]
#[case([f32::INFINITY, 0.0, 0.0, 0.0], [f32::INFINITY, f32::NAN, f32::INFINITY, 1.0])]
#[case([f32::from_bits(DENORM_MIN), 0.0, 0.0, 0.0], [-149.0, 1.0, -149.0, 1.0])]
#[case([f32::from_bits(0x717F_FFFF), 0.0, 0.0, 0.0], [99.0, f32::from_bits(0x3FFF_FFFF), 100.0, 1.0])]
#[case([0.75, 0.0, 0.0, 0.0], [-1.0, 1.5, 0.0, 1.0])] // z checked in log_z
fn log(#[case] s: [f32; 4], #[case] want: [f32; 4]) {
    let r = eval_vec(LOG, &[s.map(f)], 0xF);
    let channels: &[usize] = if s[0] == 0.75 {
        &[0, 1, 3]
    } else {
        &[0, 1, 2, 3]
    };
    for &c in channels {
        assert!(!r.undefined[c]);
        assert_f32(r.value[c], f(want[c]), &format!("LOG{s:?} channel {c}"));
    }
}

/// LOG.z of non-powers of two, within 1 ulp: log2(0.75) = -0.41503749927884376;
/// log2(3·2^-149) = log2(3) - 149 = -147.41503749927884 (a denormal input; x = -148, y = 1.5).
#[test]
fn log_z() {
    let r = eval_vec(LOG, &[[f(0.75), 0, 0, 0]], 0xF);
    assert!(ulps(f32::from_bits(r.value[2]), -0.415_037_5) <= 1);
    let r = eval_vec(LOG, &[[3, 0, 0, 0]], 0xF);
    assert_eq!(r.value[0], f(-148.0));
    assert_eq!(r.value[1], ONE_HALF);
    assert!(ulps(f32::from_bits(r.value[2]), -147.415_04) <= 1);
}

/// tgsi.rst LIT `(1, max(s.x, 0), s.x > 0 ? max(s.y, 0)^clamp(s.w, -128, 128) : 0, 1)`.
/// 3^2 = 9; 0^0 = 1 (C99 pow, EXEC-NOTES.md §3 LIT); 2^clamp(200) = 2^128 = inf;
/// 0^-1 = +inf; 4^0.5 = 2. A NaN s.w makes z undefined (the clamp of NaN is unspecified).
#[rstest]
#[case([2.0, 3.0, 0.0, 2.0], [1.0, 2.0, 9.0, 1.0], D)]
#[case([-1.0, 3.0, 0.0, 2.0], [1.0, 0.0, 0.0, 1.0], D)]
#[case([1.0, 0.0, 0.0, 0.0], [1.0, 1.0, 1.0, 1.0], D)]
#[case([1.0, 2.0, 0.0, 200.0], [1.0, 1.0, f32::INFINITY, 1.0], D)]
#[case([1.0, -5.0, 0.0, -1.0], [1.0, 1.0, f32::INFINITY, 1.0], D)]
#[case([1.0, 4.0, 0.0, 0.5], [1.0, 1.0, 2.0, 1.0], D)]
#[case([f32::NAN, 3.0, 0.0, 2.0], [1.0, 0.0, 0.0, 1.0], D)]
#[case([1.0, 2.0, 0.0, f32::NAN], [1.0, 1.0, 0.0, 1.0], [false, false, true, false])]
#[case([-1.0, 2.0, 0.0, f32::NAN], [1.0, 0.0, 0.0, 1.0], D)] // s.x <= 0: z = 0 regardless
fn lit(#[case] s: [f32; 4], #[case] want: [f32; 4], #[case] undef: [bool; 4]) {
    check_vec(LIT, s, want, undef);
}

/// Channel-dependent opcodes compute only enabled channels and leave the others untouched
/// (checked by eval_vec); here LIT.z alone and EXP.yw.
#[test]
fn chan_dependent_writemask() {
    let r = eval_vec(LIT, &[[f(2.0), f(3.0), 0, f(2.0)]], 0b0100);
    assert_eq!(r.value[2], f(9.0));
    let r = eval_vec(EXP, &[[f(2.5), 0, 0, 0]], 0b1010);
    assert_eq!((r.value[1], r.value[3]), (HALF, ONE));
}
