//! Integer, bitwise, select and compare semantics (SEMANTICS.md §2.1, §4, §5), and the
//! 64-bit operations. Expected values follow from the ISA text (two's-complement
//! arithmetic, the stated saturation ranges, condition and result-type tables).

#[path = "sim_util.rs"]
mod util;

use rstest::rstest;
use util::*;

#[test]
fn add_sub_saturate() {
    let r = run1(
        "IADD.u32 r8, r0, r1\n\
         IADD.u32.saturate r9, r0, r1\n\
         IADD.s32.saturate r10, r2, r1\n\
         ISUB.s32.saturate r11, r3, r1\n\
         ISUB.u32.saturate r12, r4, r1\n\
         ISUB.u32 r13, r4, r1\n\
         IADD.s32 r14, r2, r1\n\
         IADD.s32.saturate r15, r3, r3",
        &[0xFFFF_FFFF, 1, 0x7FFF_FFFF, 0x8000_0000, 0],
    );
    assert_eq!(r[8], 0, "wraps");
    assert_eq!(r[9], 0xFFFF_FFFF, "unsigned saturation");
    assert_eq!(r[10], 0x7FFF_FFFF, "signed saturation up");
    assert_eq!(r[11], 0x8000_0000, "signed saturation down");
    assert_eq!(r[12], 0, "unsigned saturation at 0");
    assert_eq!(r[13], 0xFFFF_FFFF);
    assert_eq!(r[14], 0x8000_0000, "wraps without .saturate");
    assert_eq!(r[15], 0x8000_0000);
}

/// Lane selections of 32-bit integer sources extend per signedness (§2.1).
#[test]
fn widen_selections() {
    let r = run1(
        "IADD.s32 r8, r0.h1, 0x0\n\
         IADD.u32 r9, r0.h1, 0x0\n\
         IADD.s32 r10, r0.b0, 0x0\n\
         IADD.u32 r11, r0.b2, 0x0\n\
         IADD.u32 r12, r0.h0, 0x7060504.b2",
        &[0x8000_12F0],
    );
    assert_eq!(r[8], 0xFFFF_8000);
    assert_eq!(r[9], 0x0000_8000);
    assert_eq!(r[10], 0xFFFF_FFF0);
    assert_eq!(r[11], 0x0000_0000);
    assert_eq!(
        r[12],
        0x12F0 + 6,
        "0x7060504.b2 = 6 (ENCODING.md Appendix B)"
    );
}

#[test]
fn multiply() {
    let r = run1(
        "IMUL.i32 r8, r0, r1\n\
         IMULD.u64 r10, r0, r0\n\
         IMUL.s32.saturate r12, r2, r2\n\
         IMUL.i32 r13, r3, r1",
        &[0xFFFF_FFFF, 3, 0x0001_0000, 0x8000_0001],
    );
    assert_eq!(r[8], 0xFFFF_FFFD, "low 32 bits of 3·(2³² − 1)");
    // (2³² − 1)² = 0xFFFFFFFE_00000001: low word in r10, high word in r11.
    assert_eq!((r[10], r[11]), (0x0000_0001, 0xFFFF_FFFE));
    assert_eq!(r[12], 0x7FFF_FFFF, "2³² saturates to i32::MAX");
    assert_eq!(r[13], 0x8000_0003);
}

#[test]
fn halving_add_and_mkvec() {
    let r = run1(
        "HADD.u32 r8, r0, r1\n\
         HADD.u32.rhadd r9, r0, r0\n\
         HADD.s32 r10, r2, r3\n\
         HADD.s32.rhadd r11, r2, r3\n\
         MKVEC.v2i16 r12, r4.h00, r5.h11\n\
         MKVEC.v2i8 r13, r4.b3, r5.b0, r6\n\
         MKVEC.v2i16 r14, r4.h10, 0x3C000000.h10",
        &[
            0xFFFF_FFFF,
            1,
            -1i32 as u32,
            -2i32 as u32,
            0x1234_5678,
            0xABCD_EF01,
            0x0000_BEEF,
        ],
    );
    assert_eq!(r[8], 0x8000_0000, "(2³² − 1 + 1) >> 1 without overflow");
    assert_eq!(r[9], 0xFFFF_FFFF);
    assert_eq!(r[10], -2i32 as u32, "(−3) >> 1 = −2");
    assert_eq!(r[11], -1i32 as u32, "(−3 + 1) >> 1 = −1");
    assert_eq!(r[12], 0xABCD_5678);
    assert_eq!(r[13], 0xBEEF_0112, "A | B << 8 | CD << 16");
    assert_eq!(r[14], 0x3C00_1234);
}

#[test]
fn unary_bit_ops() {
    let r = run1(
        "CLZ.u32 r8, r0\n\
         CLZ.u32 r9, r1\n\
         POPCOUNT.i32 r10, r2\n\
         BITREV.i32 r11, r1\n\
         IABS.s32 r12, r3\n\
         IABS.s32 r13, r4\n\
         MOV.i32 r14, r2\n\
         NOT_OLD.i32 r15, r2",
        &[0, 1, 0xF0F0_0001, 0x8000_0000, -7i32 as u32],
    );
    assert_eq!(r[8], 32, "CLZ(0) = 32");
    assert_eq!(r[9], 31);
    assert_eq!(r[10], 9);
    assert_eq!(r[11], 0x8000_0000);
    assert_eq!(r[12], 0x8000_0000, "IABS(i32::MIN) wraps");
    assert_eq!(r[13], 7);
    assert_eq!(r[14], 0xF0F0_0001);
    assert_eq!(r[15], 0x0F0F_FFFE);
}

/// Shifts (§4): `(A << s) OP B′`, B′ = ~B with `.not`, result complemented with
/// `.not_result`; amount = selected byte modulo 32; `.signed` right shifts arithmetic.
#[test]
fn shifts() {
    let r = run1(
        "LSHIFT_OR.i32 r8, r0, r1.b00, 0x0\n\
         LSHIFT_OR.i32 r9, r0, r1.b11, 0x0\n\
         RSHIFT_OR.i32 r10, r2, r1.b00, 0x0\n\
         RSHIFT_OR.i32.signed r11, r2, r1.b00, 0x0\n\
         LSHIFT_AND.i32 r12, r3, 0x0.b00, r4.not\n\
         LSHIFT_XOR.i32.not_result r13, r3, 0x0.b00, r4\n\
         RSHIFT_XOR.i32 r14, r2, r1.b22, r3\n\
         LSHIFT_OR.i32.not_result r15, r3, 0x0.b00, 0x0\n\
         RSHIFT_AND.i32.signed r16, r2, r1.b33, r5",
        // r1 bytes: b0 = 4, b1 = 33 (→ 1), b2 = 36 (→ 4), b3 = 31
        &[
            0x0000_00F1,
            0x1F24_2104,
            0x8000_0010,
            0xFF00_FF00,
            0x0F0F_0F0F,
            0x0000_0003,
        ],
    );
    assert_eq!(r[8], 0x0000_0F10);
    assert_eq!(r[9], 0x0000_01E2, "amount 33 mod 32 = 1");
    assert_eq!(r[10], 0x0800_0001);
    assert_eq!(r[11], 0xF800_0001);
    assert_eq!(r[12], 0xF000_F000, "A & ~B");
    assert_eq!(r[13], !(0xFF00_FF00u32 ^ 0x0F0F_0F0F));
    assert_eq!(r[14], 0x0800_0001 ^ 0xFF00_FF00, "amount 36 mod 32 = 4");
    assert_eq!(r[15], 0x00FF_00FF, "NOT via .not_result");
    assert_eq!(r[16], 3, "(i32::MIN | 16) >> 31 = −1, AND 3");
}

/// MUX modes (§4): `neg` sign bit, `int_zero` (default) mask == 0, `fp_zero` ±0.0,
/// `bit` bitwise select.
#[rstest]
#[case("MUX.i32.neg", 0x8000_0000, 0xA)]
#[case("MUX.i32.neg", 0x7FFF_FFFF, 0xB)]
#[case("MUX.i32", 0, 0xA)]
#[case("MUX.i32", 0x8000_0000, 0xB)]
#[case("MUX.i32.fp_zero", 0x8000_0000, 0xA)]
#[case("MUX.i32.fp_zero", 0, 0xA)]
#[case("MUX.i32.fp_zero", 1, 0xB)]
#[case("MUX.i32.bit", 0x0000_FFFF, 0xBBBB_AAAA)]
fn mux(#[case] op: &str, #[case] mask: u32, #[case] want: u32) {
    let (a, b) = if op.ends_with("bit") {
        (0xAAAA_AAAA, 0xBBBB_BBBB)
    } else {
        (0xA, 0xB)
    };
    assert_eq!(
        run1(&format!("{op} r3, r0, r1, r2"), &[a, b, mask])[3],
        want
    );
}

/// Integer conditions (§5.1) and result types (§5.2), signed vs unsigned.
#[rstest]
#[case("ICMP_OR.u32.gt.m1", 0xFFFF_FFFF, 1, 0xFFFF_FFFF)]
#[case("ICMP_OR.s32.gt.m1", 0xFFFF_FFFF, 1, 0)]
#[case("ICMP_OR.s32.lt.i1", 0xFFFF_FFFF, 1, 1)]
#[case("ICMP_OR.u32.lt.f1", 1, 2, 0x3F80_0000)]
#[case("ICMP_OR.u32.eq.i1", 5, 5, 1)]
#[case("ICMP_OR.u32.ne.i1", 5, 5, 0)]
#[case("ICMP_OR.u32.ge.m1", 5, 5, 0xFFFF_FFFF)]
#[case("ICMP_OR.s32.le.m1", 0x8000_0000, 0x7FFF_FFFF, 0xFFFF_FFFF)]
#[case("ICMP_OR.u32.le.m1", 0x8000_0000, 0x7FFF_FFFF, 0)]
fn icmp(#[case] op: &str, #[case] a: u32, #[case] b: u32, #[case] want: u32) {
    assert_eq!(
        run1(&format!("{op} r3, r0, r1, 0x0"), &[a, b])[3],
        want,
        "{op}"
    );
}

/// The third source: OR / AND with "C is true" (§5.3).
#[test]
fn compare_chaining() {
    let r = run1(
        "ICMP_OR.u32.eq.m1 r8, r0, r1, r2\n\
         ICMP_AND.u32.eq.m1 r9, r0, r0, r2\n\
         ICMP_AND.u32.eq.m1 r10, r0, r0, 0x0\n\
         FCMP_AND.f32.lt.i1 r11, r3, r4, r2\n\
         FCMP_OR.f32.gt.i1 r12, r3, r4, 0x0",
        &[1, 2, 0xFFFF_FFFF, fb(1.0), fb(2.0)],
    );
    assert_eq!(r[8], 0xFFFF_FFFF, "false OR true");
    assert_eq!(r[9], 0xFFFF_FFFF, "true AND true");
    assert_eq!(r[10], 0, "true AND false");
    assert_eq!(r[11], 1);
    assert_eq!(r[12], 0);
}

/// Float conditions (§5.1): ordered except `ne`; `gtlt` ordered not-equal; −0 == +0.
#[rstest]
#[case("eq", 1.0, 1.0, true)]
#[case("eq", -0.0, 0.0, true)]
#[case("eq", f32::NAN, f32::NAN, false)]
#[case("gt", 2.0, 1.0, true)]
#[case("gt", f32::NAN, 1.0, false)]
#[case("ge", 1.0, 1.0, true)]
#[case("ge", 1.0, f32::NAN, false)]
#[case("lt", f32::NEG_INFINITY, 1.0, true)]
#[case("lt", f32::NAN, 1.0, false)]
#[case("le", 1.0, f32::NAN, false)]
#[case("le", -0.0, 0.0, true)]
#[case("ne", 1.0, 2.0, true)]
#[case("ne", f32::NAN, 1.0, true)]
#[case("ne", 0.0, -0.0, false)]
#[case("gtlt", 1.0, 2.0, true)]
#[case("gtlt", f32::NAN, 1.0, false)]
#[case("gtlt", 1.0, 1.0, false)]
fn fcmp_conditions(#[case] cond: &str, #[case] a: f32, #[case] b: f32, #[case] want: bool) {
    let r = run1(
        &format!(
            "FCMP_OR.f32.{cond}.m1 r2, r0, r1, 0x0\n\
             FCMP_OR.f32.{cond}.i1 r3, r0, r1, 0x0\n\
             FCMP_OR.f32.{cond}.f1 r4, r0, r1, 0x0\n\
             CSEL.f32.{cond} r5, r0, r1, r6, r7"
        ),
        &[fb(a), fb(b), 0, 0, 0, 0, 7, 8],
    );
    assert_eq!(r[2], if want { 0xFFFF_FFFF } else { 0 }, "{cond} m1");
    assert_eq!(r[3], u32::from(want), "{cond} i1");
    assert_eq!(r[4], if want { 0x3F80_0000 } else { 0 }, "{cond} f1");
    assert_eq!(r[5], if want { 7 } else { 8 }, "CSEL {cond}");
}

/// Float compare sources take `.abs`/`.neg` and widen (§2.1).
#[test]
fn fcmp_modifiers() {
    let r = run1(
        "FCMP_OR.f32.eq.i1 r2, r0.abs, r1.neg, 0x0\n\
         FCMP_OR.f32.eq.i1 r3, r1.h1, r4, 0x0\n\
         FCMP_OR.f32.eq.i1 r5, r0, r1, 0x0",
        // r0 = r1 = −32.0 (0xC2000000); r1.h1 = f16 0xC200 = −3.0
        &[fb(-32.0), 0xC200_0000, 0, 0, fb(-3.0)],
    );
    assert_eq!(r[2], 1, "|−32| == −(−32)");
    assert_eq!(r[3], 1, "f16 −3.0 == −3.0");
    assert_eq!(r[5], 1);
}

#[test]
fn csel_integer() {
    let r = run1(
        "CSEL.s32.lt r8, r0, r1, r0, r1\n\
         CSEL.u32.lt r9, r0, r1, r0, r1\n\
         CSEL.u32.eq r10, r0, r0, r2, r3",
        &[-5i32 as u32, 3, 11, 12],
    );
    assert_eq!(r[8], -5i32 as u32, "signed min");
    assert_eq!(r[9], 3, "unsigned min");
    assert_eq!(r[10], 11);
}

/// 64-bit arithmetic on even/odd register pairs (§1, §4).
#[test]
fn sixty_four_bit() {
    let r = run1(
        "IADD.u64 r8, r0, r2\n\
         ISUB.u64 r10, r2, r0\n\
         IADD.u64 r12, r0, r4.w0\n\
         IADD.s64 r14, r0, r4.w0\n\
         SHADDX.u64 r16, r0, r5.w0, shift:0x2\n\
         SHADDX.s64 r18, r0, r4.w0, shift:0x3\n\
         IADD.u64.saturate r20, r0, r6\n\
         ISUB.u64.saturate r22, r2, r6",
        // r0:r1 = 0x1_FFFFFFFF, r2:r3 = 0x0_00000001, r4 = −1, r5 = 3, r6:r7 = 2⁶⁴ − 1
        &[
            0xFFFF_FFFF,
            1,
            1,
            0,
            0xFFFF_FFFF,
            3,
            0xFFFF_FFFF,
            0xFFFF_FFFF,
        ],
    );
    assert_eq!((r[8], r[9]), (0, 2), "carry into the high word");
    assert_eq!((r[10], r[11]), (2, 0xFFFF_FFFE), "1 − 0x1_FFFFFFFF borrows");
    assert_eq!((r[12], r[13]), (0xFFFF_FFFE, 2), ".w0 zero-extends for u64");
    assert_eq!((r[14], r[15]), (0xFFFF_FFFE, 1), ".w0 sign-extends for s64");
    assert_eq!((r[16], r[17]), (0x0000_000B, 2), "0x1_FFFFFFFF + (3 << 2)");
    assert_eq!((r[18], r[19]), (0xFFFF_FFF7, 1), "0x1_FFFFFFFF + (−1 << 3)");
    assert_eq!(
        (r[20], r[21]),
        (0xFFFF_FFFF, 0xFFFF_FFFF),
        "saturates at 2⁶⁴ − 1"
    );
    assert_eq!((r[22], r[23]), (0, 0), "saturates at 0");
}

/// Uniforms, immediates and special values as sources (§1).
#[test]
fn fau_sources() {
    let init = |t: usize, r: &mut [u32; 64]| r[0] = t as u32;
    let (_, regs) = run_full(
        "MOV.i32 r1, u3\n\
         MOV.i32 r2, lane_id.w0\n\
         MOV.i32 r3, warp_id.w0\n\
         MOV.i32 r4, lane_id.w1\n\
         IADD.u32 r5, u0, u1\n\
         MOV.i32 r6, 0x3EA2F983\n\
         MOV.i32 r7, u200\n\
         IADD_IMM.i32 r8, r0, #0xFFFFFFFF",
        20,
        &[5, 6, 0, 9],
        &init,
        &mut shaderdiff_valhall::sim::Memory::new(),
    )
    .unwrap();
    for (t, r) in regs.iter().enumerate() {
        assert_eq!(r[1], 9);
        assert_eq!(r[2], (t % 16) as u32);
        assert_eq!(r[3], (t / 16) as u32);
        assert_eq!(r[4], 0);
        assert_eq!(r[5], 11);
        assert_eq!(r[6], 0x3EA2_F983, "1/π from the immediate table");
        assert_eq!(r[7], 0, "uniform beyond the slice reads 0");
        assert_eq!(r[8], (t as u32).wrapping_sub(1));
    }
}

/// Write masks `.h0` / `.h1` (§2.2).
#[test]
fn half_write_masks() {
    let r = run1(
        "IADD_IMM.i32 r1.h0, r0, #0x11112222\n\
         IADD_IMM.i32 r2.h1, r0, #0x11112222",
        &[0x0101_0101, 0xAAAA_BBBB, 0xCCCC_DDDD],
    );
    assert_eq!(r[1], 0xAAAA_2323);
    assert_eq!(r[2], 0x1212_DDDD);
}

/// 64-bit shifts and NOT, and the 8-bit dot product (§4).
#[test]
fn shifts_64_and_dot_product() {
    let r = run1(
        "LSHIFT_OR.i64 r8, r0, r4.b00, r2\n\
         RSHIFT_OR.i64.signed r10, r0, r4.b11, 0x0\n\
         RSHIFT_XOR.i64 r12, r0, r4.b22, r2.not\n\
         NOT_OLD.i64 r14, r0\n\
         IDP.v4s8 r16, r5, r6, r7\n\
         IDP.v4u8 r17, r5, r6, r7",
        // r0:r1 = 0x80000001_00000003, r2:r3 = 0x1_00000000, r4 bytes (36, 33, 68)
        &[
            3,
            0x8000_0001,
            0,
            1,
            0x0044_2124,
            0x0102_03FF,
            0x0101_0102,
            10,
        ],
    );
    // 0x80000001_00000003 << 36 = 0x00000030_00000000, | 0x1_00000000
    assert_eq!((r[8], r[9]), (0, 0x31), "<< 36 | B");
    assert_eq!(
        (r[10], r[11]),
        (0xC000_0000, 0xFFFF_FFFF),
        "arithmetic >> 33"
    );
    // 68 mod 64 = 4: 0x08000000_10000000 ^ ~0x1_00000000
    assert_eq!((r[12], r[13]), (!0x1000_0000u32, !(0x0800_0000u32 ^ 1)));
    assert_eq!((r[14], r[15]), (!3u32, !0x8000_0001u32));
    // signed bytes (−1, 3, 2, 1)·(2, 1, 1, 1) + 10 = −2 + 3 + 2 + 1 + 10 = 14
    assert_eq!(r[16], 14);
    // unsigned (255, 3, 2, 1)·(2, 1, 1, 1) + 10 = 510 + 6 + 10 = 526
    assert_eq!(r[17], 526);
}
