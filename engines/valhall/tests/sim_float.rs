//! Floating-point semantics of the simulator: output clamps (SEMANTICS.md §3.2, values
//! stated by ISA.xml's `Clamp` enum), FMIN/FMAX NaN and −0 rules (§3.3), NaN results
//! (§3.4), fused FMA (§3.1), source modifiers (§2.1), FROUND / conversions (§3.1, §6),
//! FRCP/FRSQ/LDEXP and the log2/exp2 sequences of §3.6. Expected values are IEEE 754
//! results or the values the spec states.

#[path = "sim_util.rs"]
mod util;

use rstest::rstest;
use util::*;

const NAN: u32 = 0x7FC0_0000;
const NEG_NAN: u32 = 0xFFC0_0000;
const ONE: u32 = 0x3F80_0000;
const M_ONE: u32 = 0xBF80_0000;
const INF: u32 = 0x7F80_0000;
const NEG_INF: u32 = 0xFF80_0000;

/// `clamp(x)` through `FADD.f32.<clamp> r1, r0, -0.0` (x + −0 = x exactly, NaN → NaN).
fn clamped(clamp: &str, x: u32) -> u32 {
    run1(&format!("FADD.f32.{clamp} r1, r0, 0x0.neg"), &[x])[1]
}

/// The identities listed in ISA.xml's `Clamp` description (SEMANTICS.md §3.2).
#[rstest]
#[case("clamp_0_1", NEG0, 0)]
#[case("clamp_0_1", NEG_NAN, 0)]
#[case("clamp_0_1", NAN, 0)]
#[case("clamp_m1_1", NEG0, NEG0)]
#[case("clamp_m1_1", NAN, M_ONE)]
#[case("clamp_m1_1", NEG_NAN, M_ONE)]
#[case("clamp_0_inf", NAN, 0)]
#[case("clamp_0_inf", NEG_NAN, 0)]
#[case("clamp_0_inf", NEG0, 0)]
// Ordinary values: min(max(x, lo), hi).
#[case("clamp_0_1", 0x4000_0000, ONE)]
#[case("clamp_0_1", 0x3F00_0000, 0x3F00_0000)]
#[case("clamp_0_1", 0xC040_0000, 0)]
#[case("clamp_m1_1", 0xC040_0000, M_ONE)]
#[case("clamp_m1_1", 0x4040_0000, ONE)]
#[case("clamp_m1_1", 0xBF00_0000, 0xBF00_0000)]
#[case("clamp_0_inf", INF, INF)]
#[case("clamp_0_inf", NEG_INF, 0)]
#[case("clamp_0_inf", 0x4040_0000, 0x4040_0000)]
fn clamp_identities(#[case] clamp: &str, #[case] x: u32, #[case] want: u32) {
    assert_eq!(clamped(clamp, x), want, "{clamp}({x:#x})");
}

/// Clamps apply to FMA, FMIN and FMAX results too.
#[test]
fn clamp_on_other_instructions() {
    let r = run1(
        "FMA.f32.clamp_0_1 r4, r0, r1, r2\n\
         FMIN.f32.clamp_m1_1 r5, r0, r3\n\
         FMAX.f32.clamp_0_inf r6, r3, r3",
        &[fb(3.0), fb(2.0), fb(-1.0), fb(-5.0)],
    );
    assert_eq!(r[4], ONE, "3·2 − 1 = 5 clamps to 1");
    assert_eq!(r[5], M_ONE, "min(3, −5) = −5 clamps to −1");
    assert_eq!(r[6], 0, "max(−5, −5) = −5 clamps to +0");
}

/// FMIN/FMAX (SEMANTICS.md §3.3): a NaN operand yields the other operand, −0 < +0.
#[rstest]
#[case("FMIN", NAN, ONE, ONE)]
#[case("FMIN", ONE, NAN, ONE)]
#[case("FMAX", NAN, ONE, ONE)]
#[case("FMAX", ONE, NEG_NAN, ONE)]
#[case("FMIN", NEG0, 0, NEG0)]
#[case("FMIN", 0, NEG0, NEG0)]
#[case("FMAX", NEG0, 0, 0)]
#[case("FMAX", 0, NEG0, 0)]
#[case("FMIN", 0x4000_0000, M_ONE, M_ONE)]
#[case("FMAX", 0x4000_0000, M_ONE, 0x4000_0000)]
#[case("FMIN", NEG_INF, ONE, NEG_INF)]
#[case("FMAX", NAN, NEG_NAN, NAN)]
fn fmin_fmax(#[case] op: &str, #[case] a: u32, #[case] b: u32, #[case] want: u32) {
    let r = run1(&format!("{op}.f32 r2, r0, r1"), &[a, b]);
    assert_eq!(r[2], want, "{op}({a:#x}, {b:#x})");
}

/// NaN results are the default quiet NaN 0x7FC00000 (SEMANTICS.md §3.4).
#[test]
fn nan_results_are_default_nan() {
    let r = run1(
        "FADD.f32 r2, r0, r1\n\
         FADD.f32 r3, r1, r1.neg\n\
         FMA.f32 r4, r0, r1, r1\n\
         FADD.f32 r5, r6, r1",
        &[0x7F80_0001, INF, 0, 0, 0, 0, 0xFFC1_2345],
    );
    assert_eq!(r[2], NAN, "sNaN + inf");
    assert_eq!(r[3], NAN, "inf − inf");
    assert_eq!(r[4], NAN, "sNaN·inf + inf");
    assert_eq!(r[5], NAN, "payload NaN + inf");
}

/// FADD/FMA round to nearest even; FMA rounds once (SEMANTICS.md §3.1); subnormal results
/// are kept (§3.4).
#[test]
fn rounding_and_fusion() {
    let a = 1.0 + f32::EPSILON;
    let b = 1.0 - f32::EPSILON;
    let r = run1(
        "FMA.f32 r3, r0, r1, r2\n\
         FADD.f32 r4, r5, r6\n\
         FADD.f32 r7, r8, r8.neg.abs",
        &[
            fb(a),
            fb(b),
            fb(-1.0),
            0,
            0,
            fb(1.0),
            fb(f32::EPSILON / 2.0),
            0,
            0x0000_0003,
        ],
    );
    // (1 + 2⁻²³)(1 − 2⁻²³) − 1 = −2⁻⁴⁶ exactly; an unfused multiply would give 0.
    assert_eq!(r[3], fb(-(2f32.powi(-46))));
    // 1 + 2⁻²⁴ is a tie between 1 and 1 + 2⁻²³: nearest even is 1.
    assert_eq!(r[4], fb(1.0));
    // 3·2⁻¹⁴⁹ − 3·2⁻¹⁴⁹ = +0; subnormals are not flushed on input.
    assert_eq!(r[7], 0);
    let r = run1("FADD.f32 r2, r0, r1", &[0x0000_0003, 0x0000_0002]);
    assert_eq!(r[2], 0x0000_0005, "subnormal sum kept");
}

/// Source modifiers (SEMANTICS.md §2.1): `.abs` then `.neg`, and `Widen` h0/h1 (exact
/// f16 → f32).
#[test]
fn source_modifiers() {
    let r = run1(
        "FADD.f32 r2, r0.neg.abs, 0x0\n\
         FADD.f32 r3, r0.abs, 0x0\n\
         FADD.f32 r4, r1.h1, 0x0\n\
         FADD.f32 r5, r1.h0, 0x0.neg\n\
         FMA.f32 r6, r1.h1, r1.h0, 0x3F800000.neg",
        &[fb(-2.5), 0x3C00_C200], // h1 = 1.0, h0 = −3.0
    );
    assert_eq!(r[2], fb(-2.5));
    assert_eq!(r[3], fb(2.5));
    assert_eq!(r[4], fb(1.0));
    assert_eq!(r[5], fb(-3.0));
    assert_eq!(r[6], fb(-4.0), "1·(−3) − 1");
}

/// FROUND (SEMANTICS.md §3.1): rte/rtp/rtn/rtz to an integral f32.
#[rstest]
#[case("rte", 2.5, 2.0)]
#[case("rtp", 2.5, 3.0)]
#[case("rtn", 2.5, 2.0)]
#[case("rtz", 2.5, 2.0)]
#[case("rte", 3.5, 4.0)]
#[case("rte", -2.5, -2.0)]
#[case("rtp", -2.5, -2.0)]
#[case("rtn", -2.5, -3.0)]
#[case("rtz", -2.7, -2.0)]
#[case("rtp", -0.5, -0.0)]
#[case("rtn", 0.25, 0.0)]
#[case("rte", 1e20, 1e20)]
fn fround(#[case] mode: &str, #[case] x: f32, #[case] want: f32) {
    let r = run1(&format!("FROUND.f32.{mode} r1, r0"), &[fb(x)]);
    assert_eq!(r[1], fb(want), "{mode}({x})");
}

/// Float → integer conversions round with the mode and saturate; NaN → 0 (SEMANTICS.md
/// §6).
#[rstest]
#[case("F32_TO_S32.rtz", 2.7, 2)]
#[case("F32_TO_S32.rtz", -2.7, -2i32 as u32)]
#[case("F32_TO_S32", 2.5, 2)]
#[case("F32_TO_S32", 3.5, 4)]
#[case("F32_TO_S32.rtp", 2.1, 3)]
#[case("F32_TO_S32.rtn", -2.1, -3i32 as u32)]
#[case("F32_TO_S32", 3e9, 0x7FFF_FFFF)]
#[case("F32_TO_S32", -3e9, 0x8000_0000)]
#[case("F32_TO_S32", f32::INFINITY, 0x7FFF_FFFF)]
#[case("F32_TO_S32", f32::NAN, 0)]
#[case("F32_TO_U32", -1.0, 0)]
#[case("F32_TO_U32", 5e9, 0xFFFF_FFFF)]
#[case("F32_TO_U32", f32::NAN, 0)]
#[case("F32_TO_U32.rtz", 4294967040.0, 4294967040)]
fn float_to_int(#[case] op: &str, #[case] x: f32, #[case] want: u32) {
    let r = run1(&format!("{op} r1, r0"), &[fb(x)]);
    assert_eq!(r[1], want, "{op}({x})");
}

/// `.neg` on the F32_TO_S32 source (the test-vector form `F32_TO_S32.rtz r2, ^r2.neg`).
#[test]
fn float_to_int_neg_source() {
    assert_eq!(
        run1("F32_TO_S32.rtz r2, ^r2.neg", &[0, 0, fb(7.9)])[2],
        -7i32 as u32
    );
}

/// Integer → float conversions round with the mode (SEMANTICS.md §6).
#[rstest]
#[case("S32_TO_F32", 16_777_217, 16_777_216.0)]
#[case("S32_TO_F32.rtp", 16_777_217, 16_777_218.0)]
#[case("S32_TO_F32.rtn", -16_777_217i32 as u32, -16_777_218.0)]
#[case("S32_TO_F32.rtz", -16_777_217i32 as u32, -16_777_216.0)]
#[case("S32_TO_F32", 0x8000_0000, -2147483648.0)]
#[case("U32_TO_F32", 0xFFFF_FFFF, 4294967296.0)]
#[case("U32_TO_F32.rtz", 0xFFFF_FFFF, 4294967040.0)]
#[case("U32_TO_F32", 16_777_219, 16_777_220.0)]
fn int_to_float(#[case] op: &str, #[case] x: u32, #[case] want: f32) {
    assert_eq!(
        run1(&format!("{op} r1, r0"), &[x])[1],
        fb(want),
        "{op}({x})"
    );
}

/// Selected halves and bytes of conversion sources, extended per signedness (§2.1, §6).
#[test]
fn conversion_lane_selection() {
    let r = run1(
        "S32_TO_F32 r2, r0.h1\n\
         U32_TO_F32 r3, r0.h1\n\
         S32_TO_F32 r4, r0.b0\n\
         F16_TO_F32 r5, r1.h1\n\
         F16_TO_F32 r6, r1.h0.neg",
        &[0xFFFE_0080, 0x3555_4900], // h1 = −2 / 65534, b0 = 0x80; f16 0x3555, 0x4900 = 10
    );
    assert_eq!(r[2], fb(-2.0));
    assert_eq!(r[3], fb(65534.0));
    assert_eq!(r[4], fb(-128.0));
    assert_eq!(
        r[5],
        fb(f32::from_bits(0x3EAA_A000)),
        "f16 0x3555 = 0.333251953125"
    );
    assert_eq!(r[6], fb(-10.0));
}

/// `V2F32_TO_V2F16` packs (f16(A), f16(B)) with the round mode (SEMANTICS.md §3.5).
#[test]
fn v2f32_to_v2f16() {
    let r = run1(
        "V2F32_TO_V2F16 r2, r0, r1\n\
         V2F32_TO_V2F16.rtz r3, r4, r4.neg\n\
         V2F32_TO_V2F16 r5, r6, r7",
        &[
            fb(1.0),
            fb(2.0),
            0,
            0,
            fb(1.0 + 2f32.powi(-10) * 1.5),
            0,
            fb(1e6),
            f32::NAN.to_bits(),
        ],
    );
    assert_eq!(r[2], 0x4000_3C00);
    // 1 + 1.5·2⁻¹⁰ → rtz 1 + 2⁻¹⁰ = 0x3C01; negated likewise toward zero.
    assert_eq!(r[3], 0xBC01_3C01);
    // 1e6 overflows f16 → +inf (rte); NaN → the default f16 NaN 0x7E00 (§3.4).
    assert_eq!(r[5], 0x7E00_7C00);
}

/// FRCP / FRSQ (SEMANTICS.md §3.6): correctly rounded results with IEEE specials.
#[test]
fn frcp_frsq() {
    let r = run1(
        "FRCP.f32 r8, r0\n\
         FRCP.f32 r9, r1\n\
         FRCP.f32 r10, r2\n\
         FRSQ.f32 r11, r3\n\
         FRSQ.f32 r12, r4\n\
         FRSQ.f32 r13, r5\n\
         FRSQ.f32 r14, r1\n\
         FRCP.f32 r15, r6",
        &[fb(4.0), NEG0, INF, fb(4.0), fb(-1.0), INF, fb(3.0)],
    );
    assert_eq!(r[8], fb(0.25));
    assert_eq!(r[9], NEG_INF);
    assert_eq!(r[10], 0);
    assert_eq!(r[11], fb(0.5));
    assert_eq!(r[12], NAN);
    assert_eq!(r[13], 0);
    assert_eq!(r[14], NEG_INF, "1/√−0 = −∞");
    assert_eq!(r[15], fb(1.0 / 3.0));
}

/// LDEXP.f32 (SEMANTICS.md §3.5): A·2^B, rounded per mode, subnormal and overflow cases.
#[test]
fn ldexp() {
    let r = run1(
        "LDEXP.f32 r8, r0, r1\n\
         LDEXP.f32 r9, r2, r3\n\
         LDEXP.f32.rtz r10, r2, r3\n\
         LDEXP.f32 r11, r4, r5\n\
         LDEXP.f32.rtz r12, r4, r5\n\
         LDEXP.f32 r13, r0.neg, r6",
        &[
            fb(1.0),
            3,
            fb(1.5),
            (-149i32) as u32,
            f32::MAX.to_bits(),
            1,
            0x8000_0000,
        ],
    );
    assert_eq!(r[8], fb(8.0));
    // 1.5·2⁻¹⁴⁹ is halfway between 1 and 2 units of 2⁻¹⁴⁹: ties to even → 2.
    assert_eq!(r[9], 2);
    assert_eq!(r[10], 1);
    assert_eq!(r[11], INF);
    assert_eq!(r[12], f32::MAX.to_bits());
    assert_eq!(r[13], NEG0, "−1·2^(−2³¹) underflows to −0");
}

/// Mesa's log2 sequence (SEMANTICS.md §3.6): `FMA(FLOGD(x), FADD_LSCALE(−1, x),
/// S32_TO_F32(FREXPE.log(x)))`.
fn log2_seq(x: f32) -> f32 {
    let r = run1(
        "FREXPE.f32.log r1, r0\n\
         S32_TO_F32 r2, r1\n\
         FADD_LSCALE.f32 r3, 0x3F800000.neg, r0\n\
         FLOGD.f32 r4, r0\n\
         FMA.f32 r5, r4, r3, r2",
        &[fb(x)],
    );
    f32::from_bits(r[5])
}

#[test]
fn log2_sequence_specials() {
    assert_eq!(log2_seq(8.0), 3.0);
    assert_eq!(log2_seq(0.125), -3.0);
    assert_eq!(log2_seq(1.0).to_bits(), 0, "log2(1) = +0");
    assert_eq!(log2_seq(0.0), f32::NEG_INFINITY);
    assert_eq!(log2_seq(-0.0), f32::NEG_INFINITY);
    assert_eq!(log2_seq(f32::INFINITY), f32::INFINITY);
    assert_eq!(log2_seq(-1.0).to_bits(), NAN);
    assert_eq!(log2_seq(f32::NAN).to_bits(), NAN);
}

#[test]
fn log2_sequence_accuracy() {
    for x in [3.0f32, 0.1, 1.5, 0.7, 1e-40, 123456.0, 3.4e38, 0.999] {
        let want = (x as f64).log2();
        let got = log2_seq(x) as f64;
        let ulp = (want.abs() as f32).max(f32::MIN_POSITIVE);
        let ulp = f32::from_bits(ulp.to_bits() + 1) as f64 - ulp as f64;
        assert!(
            (got - want).abs() <= 2.0 * ulp,
            "log2({x}) = {got}, want {want}"
        );
    }
}

/// Mesa's exp2 sequence (SEMANTICS.md §3.6): `t = FMA_RSCALE(x, 1.0, −0.0, 24)`,
/// `F32_TO_S32` (rte) to 8:24 fixed point, `FEXP.f32 r, fixed, t`.
fn exp2_seq(x: f32) -> f32 {
    let r = run_u(
        "FMA_RSCALE.f32 r1, r0, r4, 0x0.neg, u0\n\
         F32_TO_S32 r2, r1\n\
         FEXP.f32 r3, r2, r1",
        &[fb(x), 0, 0, 0, fb(1.0)],
        &[24],
    );
    f32::from_bits(r[3])
}

#[test]
fn exp2_sequence() {
    assert_eq!(exp2_seq(10.0), 1024.0);
    assert_eq!(exp2_seq(-3.0), 0.125);
    assert_eq!(exp2_seq(0.0), 1.0);
    assert_eq!(exp2_seq(200.0), f32::INFINITY);
    assert_eq!(exp2_seq(-200.0), 0.0);
    // Saturated fixed point (|x| >= 128): 2^x from t = x·2^24, exactly 2^-140, a subnormal.
    assert_eq!(exp2_seq(-140.0), f32::from_bits(1 << 9));
    assert_eq!(exp2_seq(128.0), f32::INFINITY);
    assert_eq!(exp2_seq(f32::INFINITY), f32::INFINITY);
    assert_eq!(exp2_seq(f32::NEG_INFINITY), 0.0);
    assert_eq!(exp2_seq(f32::NAN).to_bits(), NAN);
    for x in [3.5f32, -0.3, 0.001, 100.25, -120.5] {
        let want = (x as f64).exp2();
        let got = exp2_seq(x) as f64;
        assert!(
            ((got - want) / want).abs() < 4e-7,
            "exp2({x}) = {got}, want {want}"
        );
    }
}

/// The trig tables at exact points (SEMANTICS.md §3.6: sin/cos of π·k/32).
#[test]
fn sin_cos_tables() {
    let r = run1(
        "FSIN_TABLE.u6 r8, r0\n\
         FCOS_TABLE.u6 r9, r0\n\
         FSIN_TABLE.u6 r10, r1\n\
         FCOS_TABLE.u6 r11, r2\n\
         FSIN_TABLE.u6 r12, r3\n\
         FSIN_TABLE.u6 r13, r4",
        &[16, 32, 0, 8, 48 + 64],
    );
    assert_eq!(r[8], fb(1.0), "sin(π/2)");
    assert_eq!(r[9], fb(0.0), "cos(π/2)");
    assert_eq!(r[10], fb(0.0), "sin(π)");
    assert_eq!(r[11], fb(1.0), "cos(0)");
    assert_eq!(r[12], fb(std::f32::consts::FRAC_1_SQRT_2), "sin(π/4)");
    assert_eq!(r[13], fb(-1.0), "sin(3π/2), index taken mod 64");
}

/// FREXPM / FREXPE (SEMANTICS.md §3.5: like frexp(); `.log` mantissa in [0.75, 1.5)).
#[test]
fn frexp() {
    let r = run1(
        "FREXPM.f32 r8, r0\n\
         FREXPE.f32 r9, r0\n\
         FREXPM.f32.log r10, r0\n\
         FREXPE.f32.log r11, r0\n\
         FREXPM.f32.log r12, r1\n\
         FREXPE.f32.log r13, r1\n\
         FREXPE.f32 r14, r2",
        &[fb(-12.0), fb(0.7), 0x0000_0001],
    );
    assert_eq!(r[8], fb(-0.75), "−12 = −0.75·2⁴");
    assert_eq!(r[9], 4);
    assert_eq!(r[10], fb(-0.75));
    assert_eq!(r[11], 4);
    assert_eq!(r[12], fb(1.4), "0.7 = 1.4·2⁻¹");
    assert_eq!(r[13], -1i32 as u32);
    assert_eq!(r[14], -148i32 as u32, "2⁻¹⁴⁹ = 0.5·2⁻¹⁴⁸");
}
