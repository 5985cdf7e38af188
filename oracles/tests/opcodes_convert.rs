//! Conversions, address loads and pack/unpack opcodes of the reference ALU.
//!
//! Expected values are computed by hand from tgsi.rst (Integer ISA conversions, ARL, ARR,
//! UARL, PK2H, UP2H, PK2US, PK4B, PK4UB) and EXEC-NOTES.md §3–§4 [run] values; undefined
//! cases are those the doc calls undefined ("Values outside signed range (including NaNs)").

#![allow(clippy::needless_range_loop)] // channel loops index several arrays

mod opcodes_support;

use opcodes_support::*;
use rstest::rstest;
use shaderdiff_ir::Opcode::{self, *};

/// tgsi.rst I2F/U2F `(float) src`, round to nearest even as suggested. EXEC-NOTES.md §4 [run]:
/// I2F(16777217) = 16777216.0 (0x4B800000), I2F(0x7FFFFFFF) = 2^31 (0x4F000000),
/// U2F(0xFFFFFFFF) = 2^32 (0x4F800000). 16777219 is a tie between 16777218 and 16777220:
/// to even → 16777220 (0x4B800002).
#[rstest]
#[case(I2F, 1, ONE)]
#[case(I2F, (-1i32) as u32, NEG_ONE)]
#[case(I2F, 0, ZERO)]
#[case(I2F, 16_777_217, 0x4B80_0000)]
#[case(I2F, 16_777_219, 0x4B80_0002)]
#[case(I2F, INT_MAX, 0x4F00_0000)]
#[case(I2F, INT_MIN, 0xCF00_0000)]
#[case(U2F, UINT_MAX, 0x4F80_0000)]
#[case(U2F, INT_MIN, 0x4F00_0000)] // 0x80000000 unsigned = 2^31
#[case(U2F, 1, ONE)]
fn int_to_float(#[case] op: Opcode, #[case] a: u32, #[case] want: u32) {
    check_f32(op, &[a], want, false);
}

/// tgsi.rst F2I `(int) src`, truncating; "Values outside signed range (including NaNs) produce
/// undefined results". -2^31 (0xCF000000) is in range; 2^31 (0x4F000000) is not;
/// 0x4EFFFFFF = 2147483520.
#[rstest]
#[case(ONE_HALF, 1, false)]
#[case(NEG_ONE_HALF, (-1i32) as u32, false)]
#[case(NEG_HALF, 0, false)]
#[case(NEG_ZERO, 0, false)]
#[case(DENORM_MIN, 0, false)]
#[case(0xCF00_0000, INT_MIN, false)]
#[case(0x4EFF_FFFF, 0x7FFF_FF80, false)]
#[case(0x4F00_0000, ANY, true)]
#[case(0xCF00_0001, ANY, true)] // -2^31 - 256
#[case(NAN, ANY, true)]
#[case(INF, ANY, true)]
#[case(NEG_INF, ANY, true)]
fn f2i(#[case] a: u32, #[case] want: u32, #[case] undef: bool) {
    check_bits(F2I, &[a], want, undef);
}

/// tgsi.rst F2U `(unsigned) src`, truncating; outside unsigned range (including NaN)
/// undefined. Values in (-1, 0) truncate to 0 (EXEC-NOTES.md §4: NaN, ≤ -1 and ≥ 2^32 are
/// undefined). 0x4F7FFFFF = 4294967040 = 0xFFFFFF00.
#[rstest]
#[case(ONE_HALF, 1, false)]
#[case(NEG_HALF, 0, false)]
#[case(NEG_ZERO, 0, false)]
#[case(0x4F00_0000, 0x8000_0000, false)] // 2^31
#[case(0x4F7F_FFFF, 0xFFFF_FF00, false)]
#[case(0x4F80_0000, ANY, true)] // 2^32
#[case(NEG_ONE, ANY, true)]
#[case(NEG_ONE_HALF, ANY, true)]
#[case(NAN, ANY, true)]
#[case(INF, ANY, true)]
fn f2u(#[case] a: u32, #[case] want: u32, #[case] undef: bool) {
    check_bits(F2U, &[a], want, undef);
}

/// tgsi.rst ARL `(int) floor(src)`; ARR `(int) round(src)` with ties up (EXEC-NOTES.md §3
/// [run]: ARR(2.5) = 3, ARR(-2.5) = -2, ARR(-0.5) = 0). ARR(0.49999997) = 0: exact rounding,
/// deliberately not tgsi_exec's 1 (its `s + 0.5f` rounds up to 1.0). Out of range / NaN:
/// undefined, as for F2I.
#[rstest]
#[case(ARL, ONE_HALF, 1, false)]
#[case(ARL, NEG_ONE_HALF, (-2i32) as u32, false)]
#[case(ARL, NEG_HALF, (-1i32) as u32, false)]
#[case(ARL, NEG_DENORM_MAX, (-1i32) as u32, false)]
#[case(ARL, 0xCF00_0000, INT_MIN, false)]
#[case(ARL, 0x4F00_0000, ANY, true)]
#[case(ARL, NAN, ANY, true)]
#[case(ARL, NEG_INF, ANY, true)]
#[case(ARR, TWO_HALF, 3, false)]
#[case(ARR, NEG_TWO_HALF, (-2i32) as u32, false)]
#[case(ARR, NEG_HALF, 0, false)]
#[case(ARR, 0x3EFF_FFFF, 0, false)] // 0.49999997
#[case(ARR, 0x3FB3_3333, 1, false)] // 1.4
#[case(ARR, 0xBFCC_CCCD, (-2i32) as u32, false)] // -1.6
#[case(ARR, 0x4EFF_FFFF, 0x7FFF_FF80, false)]
#[case(ARR, 0xCF00_0000, INT_MIN, false)]
#[case(ARR, 0x4F00_0000, ANY, true)]
#[case(ARR, NAN, ANY, true)]
fn arl_arr(#[case] op: Opcode, #[case] a: u32, #[case] want: u32, #[case] undef: bool) {
    check_bits(op, &[a], want, undef);
}

/// tgsi.rst UARL: the integer is moved unchanged.
#[rstest]
#[case(INT_MIN)]
#[case(UINT_MAX)]
#[case(0x7FC0_0000)]
fn uarl(#[case] a: u32) {
    check_bits(UARL, &[a], a, false);
}

fn f(x: f32) -> u32 {
    x.to_bits()
}

/// tgsi.rst PK2H `f32_to_f16(src.x) | f32_to_f16(src.y) << 16`, replicated; IEEE conversion,
/// round to nearest even (EXEC-NOTES.md §3 [run]: ≥ 65520 → inf, -0 kept).
/// binary16: 1.0 = 0x3C00, 2.0 = 0x4000, 65504 = 0x7BFF, inf = 0x7C00, 2^-24 = 0x0001.
/// 65519 rounds down to 65504; 65520 is the tie between 65504 (odd) and 2^16 → inf.
/// 1 + 2^-11 is a tie → 1.0 (even); 1 + 3·2^-11 is a tie → 1 + 2^-9 = 0x3C02 (even).
/// 2^-25 is a tie between 0 and 2^-24 → 0. A NaN input is undefined (NaN encoding unfixed).
#[rstest]
#[case(ONE, TWO, 0x4000_3C00, false)]
#[case(NEG_ZERO, ZERO, 0x0000_8000, false)]
#[case(f(65504.0), f(-65504.0), 0xFBFF_7BFF, false)]
#[case(f(65519.0), f(65520.0), 0x7C00_7BFF, false)]
#[case(INF, NEG_INF, 0xFC00_7C00, false)]
#[case(0x3380_0000, 0x3300_0000, 0x0000_0001, false)] // 2^-24, 2^-25
#[case(0x3F80_1000, 0x3F80_3000, 0x3C02_3C00, false)]
#[case(DENORM_MIN, NEG_DENORM_MAX, 0x8000_0000, false)] // f32 denormals → ±0
#[case(NAN, ONE, ANY, true)]
#[case(ONE, NAN, ANY, true)]
fn pk2h(#[case] x: u32, #[case] y: u32, #[case] want: u32, #[case] undef: bool) {
    // z and w hold garbage to show they are not read.
    let r = eval_vec(PK2H, &[[x, y, NAN, 0x1234_5678]], 0xF);
    for c in 0..4 {
        assert_eq!(r.undefined[c], undef, "PK2H channel {c} flag");
        if !undef {
            assert_eq!(r.value[c], want, "PK2H channel {c}: {:#010x}", r.value[c]);
        }
    }
}

/// tgsi.rst UP2H `(f16(src.x & 0xffff), f16(src.x >> 16), f16(src.x & 0xffff),
/// f16(src.x >> 16))`, exact. 65504 = 0x477FE000; largest binary16 denormal 0x03FF =
/// 1023·2^-24 = 0x387FC000; 2^-24 = 0x33800000.
#[rstest]
#[case(0x4000_3C00, ONE, TWO)]
#[case(0x7C00_FC00, NEG_INF, INF)]
#[case(0x0001_0000, ZERO, 0x3380_0000)]
#[case(0x8000_7E00, NAN, NEG_ZERO)]
#[case(0x03FF_7BFF, 0x477F_E000, 0x387F_C000)]
fn up2h(#[case] a: u32, #[case] lo: u32, #[case] hi: u32) {
    let r = eval_vec(UP2H, &[[a, 0xFFFF_FFFF, 0xFFFF_FFFF, 0xFFFF_FFFF]], 0xF);
    for (c, want) in [lo, hi, lo, hi].into_iter().enumerate() {
        assert!(!r.undefined[c]);
        assert_f32(r.value[c], want, &format!("UP2H({a:#x}) channel {c}"));
    }
}

/// tgsi.rst PK2US `unorm16(x) | unorm16(y) << 16`, PK4UB `unorm8` ×4, PK4B `snorm8` ×4, with
/// the GL/D3D rules unorm = round(clamp(v, 0, 1)·(2^n - 1)), snorm = round(clamp(v, -1, 1)·
/// (2^(n-1) - 1)). 0.25·65535 = 16383.75 → 16384 = 0x4000; 0.25·255 = 63.75 → 64 = 0x40;
/// 0.25·127 = 31.75 → 32 = 0x20; -0.25·127 → -32 = 0xE0; -1 → -127 = 0x81.
/// Ties (0.5·65535 = 32767.5, 0.5·255 = 127.5, 0.5·127 = 63.5) and NaN are undefined.
#[rstest]
#[case(PK2US, [0.0, 1.0, 7.0, 7.0], 0xFFFF_0000, false)]
#[case(PK2US, [1.0, 0.0, 7.0, 7.0], 0x0000_FFFF, false)]
#[case(PK2US, [-1.0, 2.0, 7.0, 7.0], 0xFFFF_0000, false)] // clamped
#[case(PK2US, [0.25, -0.0, 7.0, 7.0], 0x0000_4000, false)]
#[case(PK2US, [0.5, 0.0, 7.0, 7.0], ANY, true)]
#[case(PK2US, [0.0, f32::NAN, 7.0, 7.0], ANY, true)]
#[case(PK4UB, [0.0, 1.0, 0.25, 2.0], 0xFF40_FF00, false)]
#[case(PK4UB, [0.5, 0.0, 0.0, 0.0], ANY, true)]
#[case(PK4UB, [0.0, 0.0, 0.0, f32::NAN], ANY, true)]
#[case(PK4B, [1.0, -1.0, 0.0, 0.25], 0x2000_817F, false)]
#[case(PK4B, [-2.0, 2.0, -0.25, 0.0], 0x00E0_7F81, false)]
#[case(PK4B, [0.0, 0.0, 0.5, 0.0], ANY, true)]
#[case(PK4B, [f32::NAN, 0.0, 0.0, 0.0], ANY, true)]
fn pack_norm(#[case] op: Opcode, #[case] s: [f32; 4], #[case] want: u32, #[case] undef: bool) {
    let r = eval_vec(op, &[s.map(f)], 0xF);
    for c in 0..4 {
        assert_eq!(r.undefined[c], undef, "{op}{s:?} channel {c} flag");
        if !undef {
            assert_eq!(r.value[c], want, "{op}{s:?}: {:#010x}", r.value[c]);
        }
    }
}
