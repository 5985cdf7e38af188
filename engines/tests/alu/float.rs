//! Float arithmetic, comparison and rounding opcodes.
//!
//! Expected values are computed by hand from the tgsi.rst formula of each opcode (IEEE binary32,
//! round to nearest even) or taken from EXEC-NOTES.md values marked [run]; the comment on each
//! table names the source. Hex values are binary32 bit patterns (see support/consts.rs).

use shaderdiff_model::Opcode::{self, *};

use crate::support::consts::*;
use crate::support::rows::*;

/// tgsi.rst MOV: `dst = src`; bits are copied exactly, NaN payloads included.
#[test]
fn mov() {
    check_rows(&[
        bits(MOV, &[0x7FC0_1234], 0x7FC0_1234),
        bits(MOV, &[0xDEAD_BEEF], 0xDEAD_BEEF),
        bits(MOV, &[NEG_ZERO], NEG_ZERO),
        bits(MOV, &[DENORM_MIN], DENORM_MIN),
    ]);
}

/// Legacy ABS: `|src|` (sign bit cleared).
#[test]
fn abs() {
    check_rows(&[
        float(ABS, &[NEG_ONE], ONE),
        float(ABS, &[NEG_ZERO], ZERO),
        float(ABS, &[NEG_INF], INF),
        float(ABS, &[NEG_DENORM_MAX], 0x007F_FFFF),
        float(ABS, &[0xFFC0_0000], NAN),
    ]);
}

/// tgsi.rst ADD `src0 + src1`; legacy SUB `src0 - src1`; IEEE rules (EXEC-NOTES.md §3).
#[test]
fn add_sub() {
    check_rows(&[
        float(ADD, &[ONE, TWO], THREE),
        float(ADD, &[NEG_ZERO, NEG_ZERO], NEG_ZERO), // -0 + -0 = -0
        float(ADD, &[ZERO, NEG_ZERO], ZERO),         // +0 + -0 = +0 (round to nearest)
        float(ADD, &[INF, NEG_INF], NAN),
        float(ADD, &[NAN, ONE], NAN),
        float(ADD, &[DENORM_MIN, DENORM_MIN], 0x0000_0002), // 2^-149 + 2^-149 = 2^-148, kept
        float(ADD, &[NEG_DENORM_MAX, DENORM_MIN], 0x807F_FFFE),
        float(ADD, &[FLT_MAX, FLT_MAX], INF), // overflow
        float(ADD, &[ONE, 0x3380_0000], ONE), // 1 + 2^-24: tie, to even = 1
        float(SUB, &[THREE, ONE], TWO),
        float(SUB, &[ONE, ONE], ZERO),           // x - x = +0
        float(SUB, &[NEG_ZERO, ZERO], NEG_ZERO), // -0 - +0 = -0
        float(SUB, &[INF, INF], NAN),
    ]);
}

/// tgsi.rst MUL `src0 * src1`, DIV `src0 / src1`; EXEC-NOTES.md §3: x/0 = ±inf, 0/0 = NaN,
/// 0*inf = NaN (no LEGACY_MATH_RULES).
#[test]
fn mul_div() {
    check_rows(&[
        float(MUL, &[TWO, THREE], 0x40C0_0000), // 6
        float(MUL, &[ZERO, INF], NAN),
        float(MUL, &[NEG_ZERO, ONE], NEG_ZERO),
        float(MUL, &[NEG_ONE, NEG_ONE], ONE),
        float(MUL, &[0x0080_0000, HALF], 0x0040_0000), // 2^-126 * 0.5 = 2^-127 (denormal)
        float(MUL, &[DENORM_MIN, HALF], ZERO),         // 2^-150: tie, to even = +0
        float(MUL, &[FLT_MAX, TWO], INF),
        float(DIV, &[ONE, ZERO], INF),
        float(DIV, &[NEG_ONE, ZERO], NEG_INF),
        float(DIV, &[ONE, NEG_ZERO], NEG_INF),
        float(DIV, &[ZERO, ZERO], NAN),
        float(DIV, &[INF, INF], NAN),
        float(DIV, &[0x40C0_0000, THREE], TWO), // 6 / 3
        float(DIV, &[ONE, THREE], 0x3EAA_AAAB), // 1/3 rounded to nearest
    ]);
}

/// MAD `a*b + c` is evaluated with a rounded product (tgsi.rst allows it; EXEC-NOTES.md §0),
/// FMA with one rounding (tgsi.rst FMA "no intermediate rounding step").
/// a = 1 + 2^-12 (0x3F800800): a*a = 1 + 2^-11 + 2^-24, which rounds (tie, to even) to
/// 1 + 2^-11 (0x3F801000); so MAD(a, a, -(1 + 2^-11)) = +0 while FMA gives exactly 2^-24.
#[test]
fn mad_fma() {
    check_rows(&[
        float(MAD, &[TWO, THREE, ONE], 0x40E0_0000), // 7
        float(MAD, &[0x3F80_0800, 0x3F80_0800, 0xBF80_1000], ZERO),
        float(MAD, &[ZERO, INF, ONE], NAN),
        float(MAD, &[FLT_MAX, TWO, 0xFF7F_FFFF], INF), // rounded product 2·MAX overflows: inf - MAX = inf
        float(FMA, &[TWO, THREE, ONE], 0x40E0_0000),
        float(FMA, &[0x3F80_0800, 0x3F80_0800, 0xBF80_1000], 0x3380_0000), // 2^-24
        float(FMA, &[ZERO, INF, ONE], NAN),
        float(FMA, &[FLT_MAX, TWO, 0xFF7F_FFFF], FLT_MAX), // exact 2·MAX - MAX = MAX (no overflow when fused)
    ]);
}

/// tgsi.rst LRP: `src0*src1 + (1 - src0)*src2` — the doc formula, not tgsi_exec's
/// `src0*(src1-src2) + src2` (EXEC-NOTES.md §3 gives LRP(1, 1, 1e8) = 0 and LRP(0, 1, inf) =
/// NaN for tgsi_exec; the doc formula gives 1 and inf).
#[test]
fn lrp() {
    check_rows(&[
        float(LRP, &[HALF, TWO, FOUR], THREE),            // 1 + 2
        float(LRP, &[QUARTER, FOUR, EIGHT], 0x40E0_0000), // 1 + 0.75*8 = 7
        float(LRP, &[ONE, ONE, 0x4CBE_BC20], ONE),        // 1*1 + 0*1e8 = 1
        float(LRP, &[ZERO, ONE, INF], INF),               // 0*1 + 1*inf
        float(LRP, &[ONE, ONE, INF], NAN),                // 1 + 0*inf
    ]);
}

/// tgsi.rst MIN/MAX with EXEC-NOTES.md §3's fminf/fmaxf rule: a NaN operand is ignored, both
/// NaN → NaN. ±0 ties: which zero is returned is unspecified (EXEC-NOTES.md §0); the result
/// must be a zero and defined.
#[test]
fn min_max() {
    check_rows(&[
        float(MIN, &[ONE, TWO], ONE),
        float(MIN, &[NAN, ONE], ONE),
        float(MIN, &[ONE, NAN], ONE),
        float(MIN, &[NAN, NAN], NAN),
        float(MIN, &[NEG_INF, FLT_MAX], NEG_INF),
        float(MIN, &[NEG_DENORM_MAX, ZERO], NEG_DENORM_MAX),
        float(MAX, &[NAN, ONE], ONE), // EXEC-NOTES [run]: MAX(NaN, 1) = 1
        float(MAX, &[ONE, NAN], ONE),
        float(MAX, &[NAN, NAN], NAN),
        float(MAX, &[NEG_ONE, NEG_TWO], NEG_ONE),
        float(MAX, &[ZERO, DENORM_MIN], DENORM_MIN),
        float(MAX, &[INF, FLT_MAX], INF),
        scalar(MIN, &[ZERO, NEG_ZERO], Want::AnyZero),
        scalar(MIN, &[NEG_ZERO, ZERO], Want::AnyZero),
        scalar(MAX, &[ZERO, NEG_ZERO], Want::AnyZero),
        scalar(MAX, &[NEG_ZERO, ZERO], Want::AnyZero),
    ]);
}

/// tgsi.rst SLT SGE SGT SLE SEQ SNE: `cond ? 1.0 : 0.0`; ordered compares (NaN false) except
/// SNE; -0 == +0 (EXEC-NOTES.md §3 [run]: SEQ(-0, +0) = 1.0).
#[test]
fn set_float() {
    check_rows(&[
        bits(SLT, &[ONE, TWO], ONE),
        bits(SLT, &[TWO, ONE], ZERO),
        bits(SLT, &[NAN, ONE], ZERO),
        bits(SLT, &[NEG_ZERO, ZERO], ZERO),
        bits(SGE, &[ONE, ONE], ONE),
        bits(SGE, &[NAN, NAN], ZERO),
        bits(SGE, &[NEG_ZERO, ZERO], ONE),
        bits(SGT, &[TWO, ONE], ONE),
        bits(SGT, &[NAN, ONE], ZERO),
        bits(SGT, &[INF, FLT_MAX], ONE),
        bits(SLE, &[ONE, ONE], ONE),
        bits(SLE, &[ONE, NAN], ZERO),
        bits(SLE, &[TWO, ONE], ZERO),
        bits(SEQ, &[NEG_ZERO, ZERO], ONE),
        bits(SEQ, &[NAN, NAN], ZERO),
        bits(SEQ, &[ONE, TWO], ZERO),
        bits(SEQ, &[DENORM_MIN, ZERO], ZERO), // denormals are not flushed
        bits(SNE, &[NAN, NAN], ONE),
        bits(SNE, &[ONE, NAN], ONE),
        bits(SNE, &[ONE, ONE], ZERO),
        bits(SNE, &[NEG_ZERO, ZERO], ZERO),
    ]);
}

/// tgsi.rst FSLT FSGE FSEQ FSNE: `cond ? ~0 : 0`, same NaN rules (EXEC-NOTES.md §3 [run]:
/// only FSNE is true with NaN).
#[test]
fn set_float_int() {
    check_rows(&[
        bits(FSLT, &[ONE, TWO], TRUE),
        bits(FSLT, &[NAN, TWO], 0),
        bits(FSLT, &[NEG_ZERO, ZERO], 0),
        bits(FSGE, &[TWO, TWO], TRUE),
        bits(FSGE, &[NAN, TWO], 0),
        bits(FSGE, &[ONE, TWO], 0),
        bits(FSEQ, &[NEG_ZERO, ZERO], TRUE),
        bits(FSEQ, &[NAN, NAN], 0),
        bits(FSEQ, &[ONE, TWO], 0),
        bits(FSNE, &[NAN, NAN], TRUE),
        bits(FSNE, &[ONE, ONE], 0),
        bits(FSNE, &[ONE, TWO], TRUE),
    ]);
}

/// tgsi.rst CMP `(src0 < 0) ? src1 : src2`; EXEC-NOTES.md §3 [run]: NaN and -0 select src2.
/// src1/src2 bits pass through unchanged.
#[test]
fn cmp() {
    check_rows(&[
        bits(CMP, &[NEG_ONE, 0x7FC0_1234, TWO], 0x7FC0_1234),
        bits(CMP, &[NEG_ZERO, ONE, TWO], TWO),
        bits(CMP, &[NAN, ONE, TWO], TWO),
        bits(CMP, &[ZERO, ONE, TWO], TWO),
        bits(CMP, &[NEG_DENORM_MAX, ONE, TWO], ONE), // a negative denormal is < 0
        bits(CMP, &[NEG_INF, ONE, TWO], ONE),
    ]);
}

/// tgsi.rst SSG `(src > 0) ? 1 : (src < 0) ? -1 : 0`; EXEC-NOTES.md §3 [run]: SSG(-0) =
/// SSG(NaN) = +0.
#[test]
fn ssg() {
    check_rows(&[
        float(SSG, &[TWO], ONE),
        float(SSG, &[0xC040_0000], NEG_ONE), // -3
        float(SSG, &[NEG_ZERO], ZERO),
        float(SSG, &[NAN], ZERO),
        float(SSG, &[DENORM_MIN], ONE),
        float(SSG, &[NEG_INF], NEG_ONE),
    ]);
}

/// tgsi.rst RCP `1 / src.x`; RSQ `1 / sqrt(src.x)`, "undefined for src <= 0"; SQRT
/// `sqrt(src.x)`, "undefined for src < 0". Correctly rounded values:
/// 1/sqrt(2) = 0.70710678118… → 0x3F3504F3 (neighbours 0.70710677/0.70710683);
/// sqrt(2) = 1.41421356… → 0x3FB504F3; sqrt(2^-149) = 2^-75·sqrt(2) → 0x1A3504F3.
#[test]
fn rcp_rsq_sqrt() {
    check_rows(&[
        float_or_undef(RCP, &[TWO], HALF, false),
        float_or_undef(RCP, &[ZERO], INF, false),
        float_or_undef(RCP, &[NEG_ZERO], NEG_INF, false),
        float_or_undef(RCP, &[INF], ZERO, false),
        float_or_undef(RCP, &[NEG_INF], NEG_ZERO, false),
        float_or_undef(RCP, &[THREE], 0x3EAA_AAAB, false),
        float_or_undef(RCP, &[NAN], NAN, false),
        float_or_undef(RCP, &[DENORM_MIN], INF, false), // 2^149 overflows
        float_or_undef(RSQ, &[FOUR], HALF, false),
        float_or_undef(RSQ, &[0x4180_0000], QUARTER, false), // 1/sqrt(16)
        float_or_undef(RSQ, &[TWO], 0x3F35_04F3, false),
        float_or_undef(RSQ, &[INF], ZERO, false),
        float_or_undef(RSQ, &[NAN], NAN, false),
        float_or_undef(RSQ, &[ZERO], ANY, true),
        float_or_undef(RSQ, &[NEG_ZERO], ANY, true),
        float_or_undef(RSQ, &[0xC080_0000], ANY, true), // -4
        float_or_undef(SQRT, &[FOUR], TWO, false),
        float_or_undef(SQRT, &[TWO], 0x3FB5_04F3, false),
        float_or_undef(SQRT, &[DENORM_MIN], 0x1A35_04F3, false),
        float_or_undef(SQRT, &[NEG_ZERO], NEG_ZERO, false), // IEEE sqrt(-0) = -0; -0 is not < 0
        float_or_undef(SQRT, &[INF], INF, false),
        float_or_undef(SQRT, &[NEG_ONE], ANY, true),
        float_or_undef(SQRT, &[NEG_DENORM_MAX], ANY, true),
    ]);
}

/// tgsi.rst FLR, CEIL, TRUNC (EXEC-NOTES.md §3: -0 preserved, CEIL(-0.5) = -0) and ROUND
/// (ties to even, EXEC-NOTES.md §3 [run]: ROUND(0.5) = 0, ROUND(2.5) = 2, ROUND(-2.5) = -2,
/// ROUND(-0.5) = -0).
#[test]
fn rounding() {
    check_rows(&[
        float(FLR, &[ONE_HALF], ONE),
        float(FLR, &[NEG_ONE_HALF], NEG_TWO),
        float(FLR, &[NEG_ZERO], NEG_ZERO),
        float(FLR, &[NEG_HALF], NEG_ONE),
        float(FLR, &[DENORM_MIN], ZERO),
        float(FLR, &[NEG_DENORM_MAX], NEG_ONE),
        float(FLR, &[NEG_INF], NEG_INF),
        float(FLR, &[NAN], NAN),
        float(CEIL, &[ONE_HALF], TWO),
        float(CEIL, &[NEG_HALF], NEG_ZERO),
        float(CEIL, &[DENORM_MIN], ONE),
        float(CEIL, &[NEG_ONE_HALF], NEG_ONE),
        float(TRUNC, &[NEG_ONE_HALF], NEG_ONE),
        float(TRUNC, &[NEG_HALF], NEG_ZERO),
        float(TRUNC, &[TWO_HALF], TWO),
        float(TRUNC, &[NEG_DENORM_MAX], NEG_ZERO),
        float(ROUND, &[HALF], ZERO),
        float(ROUND, &[ONE_HALF], TWO),
        float(ROUND, &[TWO_HALF], TWO),
        float(ROUND, &[NEG_TWO_HALF], NEG_TWO),
        float(ROUND, &[NEG_HALF], NEG_ZERO),
        float(ROUND, &[0x3EFF_FFFF], ZERO),        // 0.49999997
        float(ROUND, &[0x4060_0000], FOUR),        // 3.5 → 4
        float(ROUND, &[0x4B00_0001], 0x4B00_0001), // 2^23 + 1 is already integral
    ]);
}

/// tgsi.rst FRC `src - floor(src)` (one rounding). EXEC-NOTES.md §3 [run]: can return 1.0 for
/// tiny negatives, FRC(-0) = +0, FRC(±inf) = NaN, denormals preserved.
/// -2^-30 - (-1) = 1 - 2^-30 rounds to 1.0.
#[test]
fn frc() {
    check_rows(&[
        float(FRC, &[ONE_HALF], HALF),
        float(FRC, &[NEG_ONE_HALF], HALF), // -1.5 - (-2)
        float(FRC, &[0xB080_0000], ONE),   // -2^-30
        float(FRC, &[NEG_DENORM_MAX], ONE),
        float(FRC, &[NEG_ZERO], ZERO),
        float(FRC, &[INF], NAN),
        float(FRC, &[NEG_INF], NAN),
        float(FRC, &[DENORM_MIN], DENORM_MIN),
    ]);
}

/// tgsi.rst LDEXP `src0 * 2^src1` with integer src1, one rounding.
/// 1.5·2^-150 = 0.75·2^-149 rounds to 2^-149; 2^-150 is a tie and rounds to even (+0).
#[test]
fn ldexp() {
    check_rows(&[
        float(LDEXP, &[ONE, 10], 0x4480_0000),         // 1024
        float(LDEXP, &[ONE_HALF, n(-1)], 0x3F40_0000), // 0.75
        float(LDEXP, &[ONE, n(-149)], DENORM_MIN),
        float(LDEXP, &[ONE, n(-150)], ZERO),
        float(LDEXP, &[ONE_HALF, n(-150)], DENORM_MIN),
        float(LDEXP, &[ONE, 128], INF),
        float(LDEXP, &[NEG_ONE, 128], NEG_INF),
        float(LDEXP, &[FLT_MAX, INT_MIN], ZERO),
        float(LDEXP, &[DENORM_MIN, 149], ONE),
        float(LDEXP, &[DENORM_MIN, INT_MAX], INF),
        float(LDEXP, &[NEG_ZERO, 5], NEG_ZERO),
        float(LDEXP, &[INF, n(-1000)], INF),
        float(LDEXP, &[NAN, 0], NAN),
    ]);
}

/// tgsi.rst DP2/DP3/DP4 (replicated) and legacy DPH `src0.xyz·src1.xyz + src1.w`.
/// DP2: 1*3 + 2*4 = 11; DP3: 4 + 10 + 18 = 32; DP4: 5 + 12 + 21 + 32 = 70; DPH: 32 + 7 = 39.
/// The unused source channels hold 1e30 so that reading them would show.
#[test]
fn dot() {
    #[track_caller]
    fn row(op: Opcode, a: [f32; 4], b: [f32; 4], want: u32) -> Row {
        vector(op, &[fv(a), fv(b)], [Want::F32(want); 4])
    }
    check_rows(&[
        row(
            DP2,
            [1.0, 2.0, 1e30, 1e30],
            [3.0, 4.0, 1e30, 1e30],
            0x4130_0000,
        ),
        row(
            DP3,
            [1.0, 2.0, 3.0, 1e30],
            [4.0, 5.0, 6.0, 1e30],
            0x4200_0000,
        ),
        row(DP4, [1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0], 0x428C_0000),
        row(
            DPH,
            [1.0, 2.0, 3.0, 1e30],
            [4.0, 5.0, 6.0, 7.0],
            0x421C_0000,
        ),
        row(
            DP3,
            [0.0, 1.0, 1.0, 0.0],
            [f32::INFINITY, 1.0, 1.0, 0.0],
            NAN,
        ), // 0*inf
        row(DP2, [-0.0, -0.0, 0.0, 0.0], [1.0, 1.0, 0.0, 0.0], NEG_ZERO), // -0 + -0
    ]);
}

/// tgsi.rst DST `(1, src0.y*src1.y, src0.z, src1.w)`; legacy XPD cross product with w = 1:
/// (1,2,3)×(4,5,6) = (2*6-3*5, 3*4-1*6, 1*5-2*4) = (-3, 6, -3); x̂×ŷ = (+0, +0, 1).
#[test]
fn dst_xpd() {
    #[track_caller]
    fn row(op: Opcode, a: [f32; 4], b: [f32; 4], want: [f32; 4]) -> Row {
        vector(op, &[fv(a), fv(b)], floats(fv(want)))
    }
    check_rows(&[
        row(
            DST,
            [9.0, 2.0, 3.0, 9.0],
            [9.0, 4.0, 9.0, 5.0],
            [1.0, 8.0, 3.0, 5.0],
        ),
        row(
            DST,
            [0.0, f32::INFINITY, -0.0, 0.0],
            [0.0, 0.0, 0.0, -1.0],
            [1.0, f32::NAN, -0.0, -1.0],
        ),
        row(
            XPD,
            [1.0, 2.0, 3.0, 9.0],
            [4.0, 5.0, 6.0, 9.0],
            [-3.0, 6.0, -3.0, 1.0],
        ),
        row(
            XPD,
            [1.0, 0.0, 0.0, 0.0],
            [0.0, 1.0, 0.0, 0.0],
            [0.0, 0.0, 1.0, 1.0],
        ),
    ]);
}
