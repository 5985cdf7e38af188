//! Float arithmetic, comparison and rounding opcodes of the reference ALU.
//!
//! Expected values are computed by hand from the tgsi.rst formula of each opcode (IEEE binary32,
//! round to nearest even) or taken from EXEC-NOTES.md values marked [run]; the comment on each
//! table names the source. Hex values are binary32 bit patterns (see opcodes_support).

#![allow(clippy::needless_range_loop)] // channel loops index several arrays

mod opcodes_support;

use opcodes_support::*;
use rstest::rstest;
use shaderdiff_ir::Opcode::{self, *};

/// tgsi.rst MOV: `dst = src`; bits are copied exactly, NaN payloads included.
#[rstest]
#[case(0x7FC0_1234, 0x7FC0_1234)]
#[case(0xDEAD_BEEF, 0xDEAD_BEEF)]
#[case(NEG_ZERO, NEG_ZERO)]
#[case(DENORM_MIN, DENORM_MIN)]
fn mov(#[case] a: u32, #[case] want: u32) {
    check_bits(MOV, &[a], want, false);
}

/// Legacy ABS: `|src|` (sign bit cleared).
#[rstest]
#[case(NEG_ONE, ONE)]
#[case(NEG_ZERO, ZERO)]
#[case(NEG_INF, INF)]
#[case(NEG_DENORM_MAX, 0x007F_FFFF)]
#[case(0xFFC0_0000, NAN)]
fn abs(#[case] a: u32, #[case] want: u32) {
    check_f32(ABS, &[a], want, false);
}

/// tgsi.rst ADD `src0 + src1`; legacy SUB `src0 - src1`; IEEE rules (EXEC-NOTES.md §3).
#[rstest]
#[case(ADD, ONE, TWO, THREE)]
#[case(ADD, NEG_ZERO, NEG_ZERO, NEG_ZERO)] // -0 + -0 = -0
#[case(ADD, ZERO, NEG_ZERO, ZERO)] // +0 + -0 = +0 (round to nearest)
#[case(ADD, INF, NEG_INF, NAN)]
#[case(ADD, NAN, ONE, NAN)]
#[case(ADD, DENORM_MIN, DENORM_MIN, 0x0000_0002)] // 2^-149 + 2^-149 = 2^-148, kept
#[case(ADD, NEG_DENORM_MAX, DENORM_MIN, 0x807F_FFFE)]
#[case(ADD, FLT_MAX, FLT_MAX, INF)] // overflow
#[case(ADD, ONE, 0x3380_0000, ONE)] // 1 + 2^-24: tie, to even = 1
#[case(SUB, THREE, ONE, TWO)]
#[case(SUB, ONE, ONE, ZERO)] // x - x = +0
#[case(SUB, NEG_ZERO, ZERO, NEG_ZERO)] // -0 - +0 = -0
#[case(SUB, INF, INF, NAN)]
fn add_sub(#[case] op: Opcode, #[case] a: u32, #[case] b: u32, #[case] want: u32) {
    check_f32(op, &[a, b], want, false);
}

/// tgsi.rst MUL `src0 * src1`, DIV `src0 / src1`; EXEC-NOTES.md §3: x/0 = ±inf, 0/0 = NaN,
/// 0*inf = NaN (no LEGACY_MATH_RULES).
#[rstest]
#[case(MUL, TWO, THREE, 0x40C0_0000)] // 6
#[case(MUL, ZERO, INF, NAN)]
#[case(MUL, NEG_ZERO, ONE, NEG_ZERO)]
#[case(MUL, NEG_ONE, NEG_ONE, ONE)]
#[case(MUL, 0x0080_0000, HALF, 0x0040_0000)] // 2^-126 * 0.5 = 2^-127 (denormal)
#[case(MUL, DENORM_MIN, HALF, ZERO)] // 2^-150: tie, to even = +0
#[case(MUL, FLT_MAX, TWO, INF)]
#[case(DIV, ONE, ZERO, INF)]
#[case(DIV, NEG_ONE, ZERO, NEG_INF)]
#[case(DIV, ONE, NEG_ZERO, NEG_INF)]
#[case(DIV, ZERO, ZERO, NAN)]
#[case(DIV, INF, INF, NAN)]
#[case(DIV, 0x40C0_0000, THREE, TWO)] // 6 / 3
#[case(DIV, ONE, THREE, 0x3EAA_AAAB)] // 1/3 rounded to nearest
fn mul_div(#[case] op: Opcode, #[case] a: u32, #[case] b: u32, #[case] want: u32) {
    check_f32(op, &[a, b], want, false);
}

/// MAD `a*b + c` is evaluated with a rounded product (tgsi.rst allows it; EXEC-NOTES.md §0),
/// FMA with one rounding (tgsi.rst FMA "no intermediate rounding step").
/// a = 1 + 2^-12 (0x3F800800): a*a = 1 + 2^-11 + 2^-24, which rounds (tie, to even) to
/// 1 + 2^-11 (0x3F801000); so MAD(a, a, -(1 + 2^-11)) = +0 while FMA gives exactly 2^-24.
#[rstest]
#[case(MAD, TWO, THREE, ONE, 0x40E0_0000)] // 7
#[case(MAD, 0x3F80_0800, 0x3F80_0800, 0xBF80_1000, ZERO)]
#[case(MAD, ZERO, INF, ONE, NAN)]
#[case(MAD, FLT_MAX, TWO, 0xFF7F_FFFF, INF)] // rounded product 2·MAX overflows: inf - MAX = inf
#[case(FMA, TWO, THREE, ONE, 0x40E0_0000)]
#[case(FMA, 0x3F80_0800, 0x3F80_0800, 0xBF80_1000, 0x3380_0000)] // 2^-24
#[case(FMA, ZERO, INF, ONE, NAN)]
#[case(FMA, FLT_MAX, TWO, 0xFF7F_FFFF, FLT_MAX)] // exact 2·MAX - MAX = MAX (no overflow when fused)
fn mad_fma(#[case] op: Opcode, #[case] a: u32, #[case] b: u32, #[case] c: u32, #[case] want: u32) {
    check_f32(op, &[a, b, c], want, false);
}

/// tgsi.rst LRP: `src0*src1 + (1 - src0)*src2` — the doc formula, not tgsi_exec's
/// `src0*(src1-src2) + src2` (EXEC-NOTES.md §3 gives LRP(1, 1, 1e8) = 0 and LRP(0, 1, inf) =
/// NaN for tgsi_exec; the doc formula gives 1 and inf).
#[rstest]
#[case(HALF, TWO, FOUR, THREE)] // 1 + 2
#[case(QUARTER, FOUR, EIGHT, 0x40E0_0000)] // 1 + 0.75*8 = 7
#[case(ONE, ONE, 0x4CBE_BC20, ONE)] // 1*1 + 0*1e8 = 1
#[case(ZERO, ONE, INF, INF)] // 0*1 + 1*inf
#[case(ONE, ONE, INF, NAN)] // 1 + 0*inf
fn lrp(#[case] a: u32, #[case] b: u32, #[case] c: u32, #[case] want: u32) {
    check_f32(LRP, &[a, b, c], want, false);
}

/// tgsi.rst MIN/MAX with EXEC-NOTES.md §3's fminf/fmaxf rule: a NaN operand is ignored, both
/// NaN → NaN. (±0 ties: see `min_max_zero_ties`.)
#[rstest]
#[case(MIN, ONE, TWO, ONE)]
#[case(MIN, NAN, ONE, ONE)]
#[case(MIN, ONE, NAN, ONE)]
#[case(MIN, NAN, NAN, NAN)]
#[case(MIN, NEG_INF, FLT_MAX, NEG_INF)]
#[case(MIN, NEG_DENORM_MAX, ZERO, NEG_DENORM_MAX)]
#[case(MAX, NAN, ONE, ONE)] // EXEC-NOTES [run]: MAX(NaN, 1) = 1
#[case(MAX, ONE, NAN, ONE)]
#[case(MAX, NAN, NAN, NAN)]
#[case(MAX, NEG_ONE, NEG_TWO, NEG_ONE)]
#[case(MAX, ZERO, DENORM_MIN, DENORM_MIN)]
#[case(MAX, INF, FLT_MAX, INF)]
fn min_max(#[case] op: Opcode, #[case] a: u32, #[case] b: u32, #[case] want: u32) {
    check_f32(op, &[a, b], want, false);
}

/// MIN/MAX of +0 and -0: which zero is returned is unspecified (EXEC-NOTES.md §0); the result
/// must be a zero and defined.
#[rstest]
#[case(MIN, ZERO, NEG_ZERO)]
#[case(MIN, NEG_ZERO, ZERO)]
#[case(MAX, ZERO, NEG_ZERO)]
#[case(MAX, NEG_ZERO, ZERO)]
fn min_max_zero_ties(#[case] op: Opcode, #[case] a: u32, #[case] b: u32) {
    let (got, u) = eval_scalar(op, &[a, b]);
    assert!(!u);
    assert_eq!(got & 0x7FFF_FFFF, 0, "{op}: {got:#x} is not a zero");
}

/// tgsi.rst SLT SGE SGT SLE SEQ SNE: `cond ? 1.0 : 0.0`; ordered compares (NaN false) except
/// SNE; -0 == +0 (EXEC-NOTES.md §3 [run]: SEQ(-0, +0) = 1.0).
#[rstest]
#[case(SLT, ONE, TWO, ONE)]
#[case(SLT, TWO, ONE, ZERO)]
#[case(SLT, NAN, ONE, ZERO)]
#[case(SLT, NEG_ZERO, ZERO, ZERO)]
#[case(SGE, ONE, ONE, ONE)]
#[case(SGE, NAN, NAN, ZERO)]
#[case(SGE, NEG_ZERO, ZERO, ONE)]
#[case(SGT, TWO, ONE, ONE)]
#[case(SGT, NAN, ONE, ZERO)]
#[case(SGT, INF, FLT_MAX, ONE)]
#[case(SLE, ONE, ONE, ONE)]
#[case(SLE, ONE, NAN, ZERO)]
#[case(SLE, TWO, ONE, ZERO)]
#[case(SEQ, NEG_ZERO, ZERO, ONE)]
#[case(SEQ, NAN, NAN, ZERO)]
#[case(SEQ, ONE, TWO, ZERO)]
#[case(SEQ, DENORM_MIN, ZERO, ZERO)] // denormals are not flushed
#[case(SNE, NAN, NAN, ONE)]
#[case(SNE, ONE, NAN, ONE)]
#[case(SNE, ONE, ONE, ZERO)]
#[case(SNE, NEG_ZERO, ZERO, ZERO)]
fn set_float(#[case] op: Opcode, #[case] a: u32, #[case] b: u32, #[case] want: u32) {
    check_bits(op, &[a, b], want, false);
}

/// tgsi.rst FSLT FSGE FSEQ FSNE: `cond ? ~0 : 0`, same NaN rules (EXEC-NOTES.md §3 [run]:
/// only FSNE is true with NaN).
#[rstest]
#[case(FSLT, ONE, TWO, TRUE)]
#[case(FSLT, NAN, TWO, 0)]
#[case(FSLT, NEG_ZERO, ZERO, 0)]
#[case(FSGE, TWO, TWO, TRUE)]
#[case(FSGE, NAN, TWO, 0)]
#[case(FSGE, ONE, TWO, 0)]
#[case(FSEQ, NEG_ZERO, ZERO, TRUE)]
#[case(FSEQ, NAN, NAN, 0)]
#[case(FSEQ, ONE, TWO, 0)]
#[case(FSNE, NAN, NAN, TRUE)]
#[case(FSNE, ONE, ONE, 0)]
#[case(FSNE, ONE, TWO, TRUE)]
fn set_float_int(#[case] op: Opcode, #[case] a: u32, #[case] b: u32, #[case] want: u32) {
    check_bits(op, &[a, b], want, false);
}

/// tgsi.rst CMP `(src0 < 0) ? src1 : src2`; EXEC-NOTES.md §3 [run]: NaN and -0 select src2.
/// src1/src2 bits pass through unchanged.
#[rstest]
#[case(NEG_ONE, 0x7FC0_1234, TWO, 0x7FC0_1234)]
#[case(NEG_ZERO, ONE, TWO, TWO)]
#[case(NAN, ONE, TWO, TWO)]
#[case(ZERO, ONE, TWO, TWO)]
#[case(NEG_DENORM_MAX, ONE, TWO, ONE)] // a negative denormal is < 0
#[case(NEG_INF, ONE, TWO, ONE)]
fn cmp(#[case] a: u32, #[case] b: u32, #[case] c: u32, #[case] want: u32) {
    check_bits(CMP, &[a, b, c], want, false);
}

/// tgsi.rst SSG `(src > 0) ? 1 : (src < 0) ? -1 : 0`; EXEC-NOTES.md §3 [run]: SSG(-0) =
/// SSG(NaN) = +0.
#[rstest]
#[case(TWO, ONE)]
#[case(0xC040_0000, NEG_ONE)] // -3
#[case(NEG_ZERO, ZERO)]
#[case(NAN, ZERO)]
#[case(DENORM_MIN, ONE)]
#[case(NEG_INF, NEG_ONE)]
fn ssg(#[case] a: u32, #[case] want: u32) {
    check_f32(SSG, &[a], want, false);
}

/// tgsi.rst RCP `1 / src.x`; RSQ `1 / sqrt(src.x)`, "undefined for src <= 0"; SQRT
/// `sqrt(src.x)`, "undefined for src < 0". Correctly rounded values:
/// 1/sqrt(2) = 0.70710678118… → 0x3F3504F3 (neighbours 0.70710677/0.70710683);
/// sqrt(2) = 1.41421356… → 0x3FB504F3; sqrt(2^-149) = 2^-75·sqrt(2) → 0x1A3504F3.
#[rstest]
#[case(RCP, TWO, HALF, false)]
#[case(RCP, ZERO, INF, false)]
#[case(RCP, NEG_ZERO, NEG_INF, false)]
#[case(RCP, INF, ZERO, false)]
#[case(RCP, NEG_INF, NEG_ZERO, false)]
#[case(RCP, THREE, 0x3EAA_AAAB, false)]
#[case(RCP, NAN, NAN, false)]
#[case(RCP, DENORM_MIN, INF, false)] // 2^149 overflows
#[case(RSQ, FOUR, HALF, false)]
#[case(RSQ, 0x4180_0000, QUARTER, false)] // 1/sqrt(16)
#[case(RSQ, TWO, 0x3F35_04F3, false)]
#[case(RSQ, INF, ZERO, false)]
#[case(RSQ, NAN, NAN, false)]
#[case(RSQ, ZERO, ANY, true)]
#[case(RSQ, NEG_ZERO, ANY, true)]
#[case(RSQ, 0xC080_0000, ANY, true)] // -4
#[case(SQRT, FOUR, TWO, false)]
#[case(SQRT, TWO, 0x3FB5_04F3, false)]
#[case(SQRT, DENORM_MIN, 0x1A35_04F3, false)]
#[case(SQRT, NEG_ZERO, NEG_ZERO, false)] // IEEE sqrt(-0) = -0; -0 is not < 0
#[case(SQRT, INF, INF, false)]
#[case(SQRT, NEG_ONE, ANY, true)]
#[case(SQRT, NEG_DENORM_MAX, ANY, true)]
fn rcp_rsq_sqrt(#[case] op: Opcode, #[case] a: u32, #[case] want: u32, #[case] undef: bool) {
    check_f32(op, &[a], want, undef);
}

/// tgsi.rst FLR, CEIL, TRUNC (EXEC-NOTES.md §3: -0 preserved, CEIL(-0.5) = -0) and ROUND
/// (ties to even, EXEC-NOTES.md §3 [run]: ROUND(0.5) = 0, ROUND(2.5) = 2, ROUND(-2.5) = -2,
/// ROUND(-0.5) = -0).
#[rstest]
#[case(FLR, ONE_HALF, ONE)]
#[case(FLR, NEG_ONE_HALF, NEG_TWO)]
#[case(FLR, NEG_ZERO, NEG_ZERO)]
#[case(FLR, NEG_HALF, NEG_ONE)]
#[case(FLR, DENORM_MIN, ZERO)]
#[case(FLR, NEG_DENORM_MAX, NEG_ONE)]
#[case(FLR, NEG_INF, NEG_INF)]
#[case(FLR, NAN, NAN)]
#[case(CEIL, ONE_HALF, TWO)]
#[case(CEIL, NEG_HALF, NEG_ZERO)]
#[case(CEIL, DENORM_MIN, ONE)]
#[case(CEIL, NEG_ONE_HALF, NEG_ONE)]
#[case(TRUNC, NEG_ONE_HALF, NEG_ONE)]
#[case(TRUNC, NEG_HALF, NEG_ZERO)]
#[case(TRUNC, TWO_HALF, TWO)]
#[case(TRUNC, NEG_DENORM_MAX, NEG_ZERO)]
#[case(ROUND, HALF, ZERO)]
#[case(ROUND, ONE_HALF, TWO)]
#[case(ROUND, TWO_HALF, TWO)]
#[case(ROUND, NEG_TWO_HALF, NEG_TWO)]
#[case(ROUND, NEG_HALF, NEG_ZERO)]
#[case(ROUND, 0x3EFF_FFFF, ZERO)] // 0.49999997
#[case(ROUND, 0x4060_0000, FOUR)] // 3.5 → 4
#[case(ROUND, 0x4B00_0001, 0x4B00_0001)] // 2^23 + 1 is already integral
fn rounding(#[case] op: Opcode, #[case] a: u32, #[case] want: u32) {
    check_f32(op, &[a], want, false);
}

/// tgsi.rst FRC `src - floor(src)` (one rounding). EXEC-NOTES.md §3 [run]: can return 1.0 for
/// tiny negatives, FRC(-0) = +0, FRC(±inf) = NaN, denormals preserved.
/// -2^-30 - (-1) = 1 - 2^-30 rounds to 1.0.
#[rstest]
#[case(ONE_HALF, HALF)]
#[case(NEG_ONE_HALF, HALF)] // -1.5 - (-2)
#[case(0xB080_0000, ONE)] // -2^-30
#[case(NEG_DENORM_MAX, ONE)]
#[case(NEG_ZERO, ZERO)]
#[case(INF, NAN)]
#[case(NEG_INF, NAN)]
#[case(DENORM_MIN, DENORM_MIN)]
fn frc(#[case] a: u32, #[case] want: u32) {
    check_f32(FRC, &[a], want, false);
}

/// tgsi.rst LDEXP `src0 * 2^src1` with integer src1, one rounding.
/// 1.5·2^-150 = 0.75·2^-149 rounds to 2^-149; 2^-150 is a tie and rounds to even (+0).
#[rstest]
#[case(ONE, 10, 0x4480_0000)] // 1024
#[case(ONE_HALF, (-1i32) as u32, 0x3F40_0000)] // 0.75
#[case(ONE, (-149i32) as u32, DENORM_MIN)]
#[case(ONE, (-150i32) as u32, ZERO)]
#[case(ONE_HALF, (-150i32) as u32, DENORM_MIN)]
#[case(ONE, 128, INF)]
#[case(NEG_ONE, 128, NEG_INF)]
#[case(FLT_MAX, INT_MIN, ZERO)]
#[case(DENORM_MIN, 149, ONE)]
#[case(DENORM_MIN, INT_MAX, INF)]
#[case(NEG_ZERO, 5, NEG_ZERO)]
#[case(INF, (-1000i32) as u32, INF)]
#[case(NAN, 0, NAN)]
fn ldexp(#[case] a: u32, #[case] n: u32, #[case] want: u32) {
    check_f32(LDEXP, &[a, n], want, false);
}

fn f(x: f32) -> u32 {
    x.to_bits()
}

/// tgsi.rst DP2/DP3/DP4 (replicated) and legacy DPH `src0.xyz·src1.xyz + src1.w`.
/// DP2: 1*3 + 2*4 = 11; DP3: 4 + 10 + 18 = 32; DP4: 5 + 12 + 21 + 32 = 70; DPH: 32 + 7 = 39.
/// The lanes' unused channels hold 1e30 so that reading them would show.
#[rstest]
#[case(DP2, [1.0, 2.0, 1e30, 1e30], [3.0, 4.0, 1e30, 1e30], 0x4130_0000)]
#[case(DP3, [1.0, 2.0, 3.0, 1e30], [4.0, 5.0, 6.0, 1e30], 0x4200_0000)]
#[case(DP4, [1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0], 0x428C_0000)]
#[case(DPH, [1.0, 2.0, 3.0, 1e30], [4.0, 5.0, 6.0, 7.0], 0x421C_0000)]
#[case(DP3, [0.0, 1.0, 1.0, 0.0], [f32::INFINITY, 1.0, 1.0, 0.0], NAN)] // 0*inf
#[case(DP2, [-0.0, -0.0, 0.0, 0.0], [1.0, 1.0, 0.0, 0.0], NEG_ZERO)] // -0 + -0
fn dot(#[case] op: Opcode, #[case] a: [f32; 4], #[case] b: [f32; 4], #[case] want: u32) {
    let r = eval_vec(op, &[a.map(f), b.map(f)], 0xF);
    for c in 0..4 {
        assert!(!r.undefined[c]);
        assert_f32(r.value[c], want, &format!("{op} channel {c}"));
    }
}

/// tgsi.rst DST `(1, src0.y*src1.y, src0.z, src1.w)`; legacy XPD cross product with w = 1:
/// (1,2,3)×(4,5,6) = (2*6-3*5, 3*4-1*6, 1*5-2*4) = (-3, 6, -3); x̂×ŷ = (+0, +0, 1).
#[rstest]
#[case(DST, [9.0, 2.0, 3.0, 9.0], [9.0, 4.0, 9.0, 5.0], [1.0, 8.0, 3.0, 5.0])]
#[case(DST, [0.0, f32::INFINITY, -0.0, 0.0], [0.0, 0.0, 0.0, -1.0], [1.0, f32::NAN, -0.0, -1.0])]
#[case(XPD, [1.0, 2.0, 3.0, 9.0], [4.0, 5.0, 6.0, 9.0], [-3.0, 6.0, -3.0, 1.0])]
#[case(XPD, [1.0, 0.0, 0.0, 0.0], [0.0, 1.0, 0.0, 0.0], [0.0, 0.0, 1.0, 1.0])]
fn dst_xpd(#[case] op: Opcode, #[case] a: [f32; 4], #[case] b: [f32; 4], #[case] want: [f32; 4]) {
    let r = eval_vec(op, &[a.map(f), b.map(f)], 0xF);
    for c in 0..4 {
        assert!(!r.undefined[c]);
        assert_f32(r.value[c], f(want[c]), &format!("{op} channel {c}"));
    }
}

/// FLR/CEIL/TRUNC/ROUND are computed without libm (alu/float.rs); Rust's `f32::floor`,
/// `ceil`, `trunc` and `round_ties_even` (IEEE roundToIntegral*, an independent
/// implementation) are the reference here, bit for bit, on random bit patterns and on
/// fractional values around the 2^23 boundary.
mod rounding_vs_std {
    use super::*;
    use proptest::prelude::*;
    use shaderdiff_oracles::interp::alu::eval;
    use shaderdiff_oracles::interp::lanes::{LANES, ZERO_VALS};

    /// A std rounding function used as the reference.
    type StdRounding = fn(f32) -> f32;

    fn check(words: &[u32]) {
        let mut src = ZERO_VALS;
        for (l, &w) in words.iter().enumerate().take(LANES) {
            src[0][l] = w;
        }
        let std_ops: [(Opcode, StdRounding); 4] = [
            (FLR, f32::floor),
            (CEIL, f32::ceil),
            (TRUNC, f32::trunc),
            (ROUND, f32::round_ties_even),
        ];
        for (op, reference) in std_ops {
            let mut out = ZERO_VALS;
            let mut undef = [0; 4];
            eval(op, &[src], 1, &mut out, &mut undef).unwrap();
            assert_eq!(undef[0], 0);
            for (l, &w) in words.iter().enumerate().take(LANES) {
                let want = reference(f32::from_bits(w)).to_bits();
                assert_f32(out[0][l], want, &format!("{op}({w:#010x})"));
            }
        }
    }

    proptest! {
        #[test]
        fn any_bits(words in prop::collection::vec(any::<u32>(), LANES)) {
            check(&words);
        }

        #[test]
        fn near_integers(v in prop::collection::vec(-17_000_000.0f32..17_000_000.0, LANES)) {
            check(&v.iter().map(|x| x.to_bits()).collect::<Vec<_>>());
        }

        #[test]
        fn small(v in prop::collection::vec(-4.0f32..4.0, LANES)) {
            check(&v.iter().map(|x| x.to_bits()).collect::<Vec<_>>());
        }
    }
}
