//! Transcendental opcodes (EX2 LG2 POW SIN COS) and LIT, EXP, LOG.
//!
//! Exact expectations are asserted bit-exactly where the math is exact (2^3 = 8, log2 8 = 3,
//! sin 0 = 0, 2^10 = 1024, powers of two). Other values are the exact real value written as a
//! decimal (known constants: sqrt 2, log2 10, sin 1, cos 1 ...) and are checked to within 1 ulp
//! of its binary32 rounding: the documented bound is 0.5 ulp + 2^-29 ulp from the exact value
//! (oracles alu/special.rs; oracle/precision.toml, engine class "cpu", which covers interp
//! and jit), so a result may differ from the correctly rounded value by at most 1 ulp.
//! Special values follow C99/IEEE as quoted in EXEC-NOTES.md §3.

use shaderdiff_model::Opcode::*;

use crate::support::consts::*;
use crate::support::rows::*;

/// tgsi.rst EX2 `2^src.x`, LG2 `log2(src.x)`; exact cases. EXEC-NOTES.md §3 (release build):
/// EX2(-inf) = 0, EX2(+inf) = inf, LG2(0) = -inf, LG2(<0) = NaN, LG2(+inf) = +inf.
/// 2^-150 is a tie between 0 and 2^-149 and rounds to even (+0).
/// -149 = 0xC3150000; 127 = 0x42FE0000; 2^127 = 0x7F000000.
#[test]
fn ex2_lg2_exact() {
    check_rows(&[
        float(EX2, &[THREE], EIGHT),
        float(EX2, &[ZERO], ONE),
        float(EX2, &[NEG_ONE], HALF),
        float(EX2, &[NEG_INF], ZERO),
        float(EX2, &[INF], INF),
        float(EX2, &[0x4300_0000], INF),         // 2^128 overflows
        float(EX2, &[0x42FE_0000], 0x7F00_0000), // 2^127
        float(EX2, &[0xC2FC_0000], 0x0080_0000), // 2^-126
        float(EX2, &[0xC315_0000], DENORM_MIN),  // 2^-149
        float(EX2, &[0xC316_0000], ZERO),        // 2^-150
        float(EX2, &[NAN], NAN),
        float(LG2, &[EIGHT], THREE),
        float(LG2, &[ONE], ZERO),
        float(LG2, &[HALF], NEG_ONE),
        float(LG2, &[ZERO], NEG_INF),
        float(LG2, &[NEG_ZERO], NEG_INF),
        float(LG2, &[NEG_ONE], NAN),
        float(LG2, &[INF], INF),
        float(LG2, &[NAN], NAN),
        float(LG2, &[DENORM_MIN], 0xC315_0000), // log2(2^-149) = -149
        float(LG2, &[0x7F00_0000], 0x42FE_0000), // log2(2^127) = 127
    ]);
}

/// tgsi.rst POW `src0.x ^ src1.x` with the C99 pow special cases EXEC-NOTES.md §3 lists:
/// POW(x, 0) = 1 for any x incl. NaN and 0; POW(1, NaN) = 1; POW(0, -1) = +inf;
/// POW(-0, -1) = -inf; POW(-2, 3) = -8; POW(-2, 0.5) = NaN; POW(-8, 1/3) = NaN.
#[test]
fn pow() {
    check_rows(&[
        float(POW, &[TWO, 0x4120_0000], 0x4480_0000), // 2^10 = 1024
        float(POW, &[NAN, ZERO], ONE),
        float(POW, &[ZERO, ZERO], ONE),
        float(POW, &[ONE, NAN], ONE),
        float(POW, &[ZERO, NEG_ONE], INF),
        float(POW, &[NEG_ZERO, NEG_ONE], NEG_INF),
        float(POW, &[NEG_TWO, THREE], 0xC100_0000), // -8
        float(POW, &[NEG_TWO, HALF], NAN),
        float(POW, &[0xC100_0000, 0x3EAA_AAAB], NAN), // (-8)^(1/3)
        float(POW, &[FOUR, HALF], TWO),
        float(POW, &[TWO, NEG_ONE], HALF),
        float(POW, &[TWO, 0x4300_0000], INF), // 2^128
        float(POW, &[HALF, NEG_INF], INF),
    ]);
}

/// tgsi.rst SIN/COS; exact cases. sin(±0) = ±0, cos(0) = 1, sin/cos(±inf) = NaN
/// (EXEC-NOTES.md §3). cos(float(pi)) = -1 + 3.8e-15, which rounds to -1.
#[test]
fn sin_cos_exact() {
    check_rows(&[
        float(SIN, &[ZERO], ZERO),
        float(SIN, &[NEG_ZERO], NEG_ZERO),
        float(SIN, &[INF], NAN),
        float(SIN, &[NEG_INF], NAN),
        float(SIN, &[NAN], NAN),
        float(COS, &[ZERO], ONE),
        float(COS, &[INF], NAN),
        float(COS, &[0x4049_0FDB], NEG_ONE), // float(pi)
    ]);
}

/// Inexact transcendentals against known real values, within 1 ulp.
/// sin(float(pi)) = -(float(pi) - pi) = -8.742278e-8 (to first order; the cubic term is 1e-22).
/// SIN of a huge argument needs full-range reduction: EXEC-NOTES.md §0 quotes
/// sin(1e30) = -0.79116 (glibc sinf, near correctly rounded); 1e30f = 0x7149F2CA; checked to
/// 1e-5, the precision of the quoted value.
#[test]
fn approximate() {
    check_rows(&[
        approx(EX2, &[HALF], std::f64::consts::SQRT_2),
        approx(EX2, &[NEG_ONE_HALF], 0.353_553_390_593_273_8), // 2^-1.5 = sqrt(2)/4
        approx(LG2, &[0x4120_0000], std::f64::consts::LOG2_10), // log2(10)
        approx(LG2, &[THREE], 1.584_962_500_721_156_2),        // log2(3)
        approx(POW, &[TWO, HALF], std::f64::consts::SQRT_2),
        approx(POW, &[0x4120_0000, HALF], 3.162_277_660_168_379_5), // sqrt(10)
        approx(SIN, &[ONE], 0.841_470_984_807_896_5),
        approx(COS, &[ONE], 0.540_302_305_868_139_8),
        approx(SIN, &[0x4049_0FDB], -8.742_278e-8),
        approx(SIN, &[HALF], 0.479_425_538_604_203),
        scalar(SIN, &[0x7149_F2CA], Want::Near(-0.79116, 1e-5)),
    ]);
}

/// tgsi.rst EXP `(2^floor(s), s - floor(s), 2^s, 1)`. EXEC-NOTES.md §3 [run]:
/// EXP(-200) = (0, 0, 0, 1). EXP(+inf).y = inf - inf = NaN. 2^2.5 = 4·sqrt(2) and
/// 2^-1.5 = sqrt(2)/4 are sqrt(2) rounded (0x3FB504F3, see float.rs) scaled by 4 and 1/4.
/// z = 2^s is checked within 1 ulp (exact for integral s and at ±inf/NaN).
#[test]
fn exp() {
    #[track_caller]
    fn row(s: [f32; 4], want: [f32; 4]) -> Row {
        let w = floats(fv(want));
        vector(EXP, &[fv(s)], [w[0], w[1], Want::Ulps(want[2], 1), w[3]])
    }
    let inf = f32::INFINITY;
    check_rows(&[
        row([3.0, 9.0, 9.0, 9.0], [8.0, 0.0, 8.0, 1.0]),
        row(
            [2.5, 0.0, 0.0, 0.0],
            [4.0, 0.5, f32::from_bits(0x40B5_04F3), 1.0],
        ), // 4·sqrt(2)
        row(
            [-1.5, 0.0, 0.0, 0.0],
            [0.25, 0.5, f32::from_bits(0x3EB5_04F3), 1.0],
        ), // sqrt(2)/4
        row([-200.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 1.0]),
        row([inf, 0.0, 0.0, 0.0], [inf, f32::NAN, inf, 1.0]),
        row([-inf, 0.0, 0.0, 0.0], [0.0, f32::NAN, 0.0, 1.0]),
        row(
            [f32::NAN, 0.0, 0.0, 0.0],
            [f32::NAN, f32::NAN, f32::NAN, 1.0],
        ),
    ]);
}

/// tgsi.rst LOG `(floor(log2|s|), |s| / 2^floor(log2|s|), log2|s|, 1)`. EXEC-NOTES.md §3
/// [run]: LOG(8) = (3, 1, 3, 1); LOG(0) = (-inf, NaN, -inf, 1) (release build).
/// 2^100·(1 - 2^-24) = 0x717FFFFF: floor(log2) = 99 exactly although log2 rounds to 100.0;
/// y = 2·(1 - 2^-24) = 2 - 2^-23 = 0x3FFFFFFF.
/// z of non-powers of two within 1 ulp: log2(0.75) = -0.41503749927884376;
/// log2(3·2^-149) = log2(3) - 149 = -147.41503749927884 (a denormal input; x = -148, y = 1.5).
#[test]
fn log() {
    #[track_caller]
    fn row(s: f32, want: [f32; 4]) -> Row {
        vector(LOG, &[fv([s, 0.0, 0.0, 0.0])], floats(fv(want)))
    }
    #[track_caller]
    fn row_z_approx(s: f32, x: f32, y: f32, z: f32) -> Row {
        let w = [
            Want::F32(f(x)),
            Want::F32(f(y)),
            Want::Ulps(z, 1),
            Want::F32(ONE),
        ];
        vector(LOG, &[fv([s, 0.0, 0.0, 0.0])], w)
    }
    let inf = f32::INFINITY;
    check_rows(&[
        row(8.0, [3.0, 1.0, 3.0, 1.0]),
        row(-8.0, [3.0, 1.0, 3.0, 1.0]),
        row(0.0, [-inf, f32::NAN, -inf, 1.0]),
        row(inf, [inf, f32::NAN, inf, 1.0]),
        row(f32::from_bits(DENORM_MIN), [-149.0, 1.0, -149.0, 1.0]),
        row(
            f32::from_bits(0x717F_FFFF),
            [99.0, f32::from_bits(0x3FFF_FFFF), 100.0, 1.0],
        ),
        row_z_approx(0.75, -1.0, 1.5, -0.415_037_5),
        row_z_approx(f32::from_bits(3), -148.0, 1.5, -147.415_04),
    ]);
}

/// tgsi.rst LIT `(1, max(s.x, 0), s.x > 0 ? max(s.y, 0)^clamp(s.w, -128, 128) : 0, 1)`.
/// 3^2 = 9; 0^0 = 1 (C99 pow, EXEC-NOTES.md §3 LIT); 2^clamp(200) = 2^128 = inf;
/// 0^-1 = +inf; 4^0.5 = 2. A NaN s.w makes z undefined (the clamp of NaN is unspecified).
#[test]
fn lit() {
    #[track_caller]
    fn row(s: [f32; 4], want: [f32; 4], z_undefined: bool) -> Row {
        let mut w = floats(fv(want));
        if z_undefined {
            w[2] = Want::Undefined;
        }
        vector(LIT, &[fv(s)], w)
    }
    let inf = f32::INFINITY;
    check_rows(&[
        row([2.0, 3.0, 0.0, 2.0], [1.0, 2.0, 9.0, 1.0], false),
        row([-1.0, 3.0, 0.0, 2.0], [1.0, 0.0, 0.0, 1.0], false),
        row([1.0, 0.0, 0.0, 0.0], [1.0, 1.0, 1.0, 1.0], false),
        row([1.0, 2.0, 0.0, 200.0], [1.0, 1.0, inf, 1.0], false),
        row([1.0, -5.0, 0.0, -1.0], [1.0, 1.0, inf, 1.0], false),
        row([1.0, 4.0, 0.0, 0.5], [1.0, 1.0, 2.0, 1.0], false),
        row([f32::NAN, 3.0, 0.0, 2.0], [1.0, 0.0, 0.0, 1.0], false),
        row([1.0, 2.0, 0.0, f32::NAN], [1.0, 1.0, 0.0, 1.0], true),
        row([-1.0, 2.0, 0.0, f32::NAN], [1.0, 0.0, 0.0, 1.0], false), // s.x <= 0: z = 0 regardless
    ]);
}

/// Channel-dependent opcodes compute only enabled channels and leave the others untouched:
/// LIT.z alone (3^2 = 9) and EXP.yw (frac(2.5) = 0.5, w = 1), from the tables above.
#[test]
fn chan_dependent_writemask() {
    let lit = [f(2.0), f(3.0), 0, f(2.0)];
    let exp = [f(2.5), 0, 0, 0];
    check_rows(&[
        vector(LIT, &[lit], [Want::Bits(f(9.0)); 4]).mask(0b0100),
        vector(
            EXP,
            &[exp],
            [
                Want::Bits(0),
                Want::Bits(HALF),
                Want::Bits(0),
                Want::Bits(ONE),
            ],
        )
        .mask(0b1010),
    ]);
}
