//! Conversions, address loads and pack/unpack opcodes.
//!
//! Expected values are computed by hand from tgsi.rst (Integer ISA conversions, ARL, ARR,
//! UARL, PK2H, UP2H, PK2US, PK4B, PK4UB) and EXEC-NOTES.md §3–§4 [run] values; undefined
//! cases are those the doc calls undefined ("Values outside signed range (including NaNs)").

use shaderdiff_model::Opcode::{self, *};

use crate::support::consts::*;
use crate::support::rows::*;

/// tgsi.rst I2F/U2F `(float) src`, round to nearest even as suggested. EXEC-NOTES.md §4 [run]:
/// I2F(16777217) = 16777216.0 (0x4B800000), I2F(0x7FFFFFFF) = 2^31 (0x4F000000),
/// U2F(0xFFFFFFFF) = 2^32 (0x4F800000). 16777219 is a tie between 16777218 and 16777220:
/// to even → 16777220 (0x4B800002).
#[test]
fn int_to_float() {
    check_rows(&[
        float(I2F, &[1], ONE),
        float(I2F, &[n(-1)], NEG_ONE),
        float(I2F, &[0], ZERO),
        float(I2F, &[16_777_217], 0x4B80_0000),
        float(I2F, &[16_777_219], 0x4B80_0002),
        float(I2F, &[INT_MAX], 0x4F00_0000),
        float(I2F, &[INT_MIN], 0xCF00_0000),
        float(U2F, &[UINT_MAX], 0x4F80_0000),
        float(U2F, &[INT_MIN], 0x4F00_0000), // 0x80000000 unsigned = 2^31
        float(U2F, &[1], ONE),
    ]);
}

/// tgsi.rst F2I `(int) src`, truncating; "Values outside signed range (including NaNs) produce
/// undefined results". -2^31 (0xCF000000) is in range; 2^31 (0x4F000000) is not;
/// 0x4EFFFFFF = 2147483520.
#[test]
fn f2i() {
    check_rows(&[
        bits_or_undef(F2I, &[ONE_HALF], 1, false),
        bits_or_undef(F2I, &[NEG_ONE_HALF], n(-1), false),
        bits_or_undef(F2I, &[NEG_HALF], 0, false),
        bits_or_undef(F2I, &[NEG_ZERO], 0, false),
        bits_or_undef(F2I, &[DENORM_MIN], 0, false),
        bits_or_undef(F2I, &[0xCF00_0000], INT_MIN, false),
        bits_or_undef(F2I, &[0x4EFF_FFFF], 0x7FFF_FF80, false),
        bits_or_undef(F2I, &[0x4F00_0000], ANY, true),
        bits_or_undef(F2I, &[0xCF00_0001], ANY, true), // -2^31 - 256
        bits_or_undef(F2I, &[NAN], ANY, true),
        bits_or_undef(F2I, &[INF], ANY, true),
        bits_or_undef(F2I, &[NEG_INF], ANY, true),
    ]);
}

/// tgsi.rst F2U `(unsigned) src`, truncating; outside unsigned range (including NaN)
/// undefined. Values in (-1, 0) truncate to 0 (EXEC-NOTES.md §4: NaN, ≤ -1 and ≥ 2^32 are
/// undefined). 0x4F7FFFFF = 4294967040 = 0xFFFFFF00.
#[test]
fn f2u() {
    check_rows(&[
        bits_or_undef(F2U, &[ONE_HALF], 1, false),
        bits_or_undef(F2U, &[NEG_HALF], 0, false),
        bits_or_undef(F2U, &[NEG_ZERO], 0, false),
        bits_or_undef(F2U, &[0x4F00_0000], 0x8000_0000, false), // 2^31
        bits_or_undef(F2U, &[0x4F7F_FFFF], 0xFFFF_FF00, false),
        bits_or_undef(F2U, &[0x4F80_0000], ANY, true), // 2^32
        bits_or_undef(F2U, &[NEG_ONE], ANY, true),
        bits_or_undef(F2U, &[NEG_ONE_HALF], ANY, true),
        bits_or_undef(F2U, &[NAN], ANY, true),
        bits_or_undef(F2U, &[INF], ANY, true),
    ]);
}

/// tgsi.rst ARL `(int) floor(src)`; ARR `(int) round(src)` with ties up (EXEC-NOTES.md §3
/// [run]: ARR(2.5) = 3, ARR(-2.5) = -2, ARR(-0.5) = 0). ARR(0.49999997) = 0: exact rounding,
/// deliberately not tgsi_exec's 1 (its `s + 0.5f` rounds up to 1.0). Out of range / NaN:
/// undefined, as for F2I.
#[test]
fn arl_arr() {
    check_rows(&[
        bits_or_undef(ARL, &[ONE_HALF], 1, false),
        bits_or_undef(ARL, &[NEG_ONE_HALF], n(-2), false),
        bits_or_undef(ARL, &[NEG_HALF], n(-1), false),
        bits_or_undef(ARL, &[NEG_DENORM_MAX], n(-1), false),
        bits_or_undef(ARL, &[0xCF00_0000], INT_MIN, false),
        bits_or_undef(ARL, &[0x4F00_0000], ANY, true),
        bits_or_undef(ARL, &[NAN], ANY, true),
        bits_or_undef(ARL, &[NEG_INF], ANY, true),
        bits_or_undef(ARR, &[TWO_HALF], 3, false),
        bits_or_undef(ARR, &[NEG_TWO_HALF], n(-2), false),
        bits_or_undef(ARR, &[NEG_HALF], 0, false),
        bits_or_undef(ARR, &[0x3EFF_FFFF], 0, false), // 0.49999997
        bits_or_undef(ARR, &[0x3FB3_3333], 1, false), // 1.4
        bits_or_undef(ARR, &[0xBFCC_CCCD], n(-2), false), // -1.6
        bits_or_undef(ARR, &[0x4EFF_FFFF], 0x7FFF_FF80, false),
        bits_or_undef(ARR, &[0xCF00_0000], INT_MIN, false),
        bits_or_undef(ARR, &[0x4F00_0000], ANY, true),
        bits_or_undef(ARR, &[NAN], ANY, true),
    ]);
}

/// tgsi.rst UARL: the integer is moved unchanged.
#[test]
fn uarl() {
    check_rows(&[
        bits(UARL, &[INT_MIN], INT_MIN),
        bits(UARL, &[UINT_MAX], UINT_MAX),
        bits(UARL, &[0x7FC0_0000], 0x7FC0_0000),
    ]);
}

/// tgsi.rst PK2H `f32_to_f16(src.x) | f32_to_f16(src.y) << 16`, replicated; IEEE conversion,
/// round to nearest even (EXEC-NOTES.md §3 [run]: ≥ 65520 → inf, -0 kept).
/// binary16: 1.0 = 0x3C00, 2.0 = 0x4000, 65504 = 0x7BFF, inf = 0x7C00, 2^-24 = 0x0001.
/// 65519 rounds down to 65504; 65520 is the tie between 65504 (odd) and 2^16 → inf.
/// 1 + 2^-11 is a tie → 1.0 (even); 1 + 3·2^-11 is a tie → 1 + 2^-9 = 0x3C02 (even).
/// 2^-25 is a tie between 0 and 2^-24 → 0. A NaN input is undefined (NaN encoding unfixed).
/// The source's z and w hold garbage (NaN, 0x12345678) to show they are not read.
#[test]
fn pk2h() {
    #[track_caller]
    fn row(x: u32, y: u32, want: u32, undefined: bool) -> Row {
        let w = if undefined {
            Want::Undefined
        } else {
            Want::Bits(want)
        };
        vector(PK2H, &[[x, y, NAN, 0x1234_5678]], [w; 4])
    }
    check_rows(&[
        row(ONE, TWO, 0x4000_3C00, false),
        row(NEG_ZERO, ZERO, 0x0000_8000, false),
        row(f(65504.0), f(-65504.0), 0xFBFF_7BFF, false),
        row(f(65519.0), f(65520.0), 0x7C00_7BFF, false),
        row(INF, NEG_INF, 0xFC00_7C00, false),
        row(0x3380_0000, 0x3300_0000, 0x0000_0001, false), // 2^-24, 2^-25
        row(0x3F80_1000, 0x3F80_3000, 0x3C02_3C00, false),
        row(DENORM_MIN, NEG_DENORM_MAX, 0x8000_0000, false), // f32 denormals → ±0
        row(NAN, ONE, ANY, true),
        row(ONE, NAN, ANY, true),
    ]);
}

/// tgsi.rst UP2H `(f16(src.x & 0xffff), f16(src.x >> 16), f16(src.x & 0xffff),
/// f16(src.x >> 16))`, exact. 65504 = 0x477FE000; largest binary16 denormal 0x03FF =
/// 1023·2^-24 = 0x387FC000; 2^-24 = 0x33800000. The source's y, z, w hold 0xFFFFFFFF.
#[test]
fn up2h() {
    #[track_caller]
    fn row(a: u32, lo: u32, hi: u32) -> Row {
        let src = [a, 0xFFFF_FFFF, 0xFFFF_FFFF, 0xFFFF_FFFF];
        vector(UP2H, &[src], floats([lo, hi, lo, hi]))
    }
    check_rows(&[
        row(0x4000_3C00, ONE, TWO),
        row(0x7C00_FC00, NEG_INF, INF),
        row(0x0001_0000, ZERO, 0x3380_0000),
        row(0x8000_7E00, NAN, NEG_ZERO),
        row(0x03FF_7BFF, 0x477F_E000, 0x387F_C000),
    ]);
}

/// tgsi.rst PK2US `unorm16(x) | unorm16(y) << 16`, PK4UB `unorm8` ×4, PK4B `snorm8` ×4, with
/// the GL/D3D rules unorm = round(clamp(v, 0, 1)·(2^n - 1)), snorm = round(clamp(v, -1, 1)·
/// (2^(n-1) - 1)). 0.25·65535 = 16383.75 → 16384 = 0x4000; 0.25·255 = 63.75 → 64 = 0x40;
/// 0.25·127 = 31.75 → 32 = 0x20; -0.25·127 → -32 = 0xE0; -1 → -127 = 0x81.
/// Ties (0.5·65535 = 32767.5, 0.5·255 = 127.5, 0.5·127 = 63.5) and NaN are undefined.
#[test]
fn pack_norm() {
    #[track_caller]
    fn row(op: Opcode, s: [f32; 4], want: u32, undefined: bool) -> Row {
        let w = if undefined {
            Want::Undefined
        } else {
            Want::Bits(want)
        };
        vector(op, &[fv(s)], [w; 4])
    }
    check_rows(&[
        row(PK2US, [0.0, 1.0, 7.0, 7.0], 0xFFFF_0000, false),
        row(PK2US, [1.0, 0.0, 7.0, 7.0], 0x0000_FFFF, false),
        row(PK2US, [-1.0, 2.0, 7.0, 7.0], 0xFFFF_0000, false), // clamped
        row(PK2US, [0.25, -0.0, 7.0, 7.0], 0x0000_4000, false),
        row(PK2US, [0.5, 0.0, 7.0, 7.0], ANY, true),
        row(PK2US, [0.0, f32::NAN, 7.0, 7.0], ANY, true),
        row(PK4UB, [0.0, 1.0, 0.25, 2.0], 0xFF40_FF00, false),
        row(PK4UB, [0.5, 0.0, 0.0, 0.0], ANY, true),
        row(PK4UB, [0.0, 0.0, 0.0, f32::NAN], ANY, true),
        row(PK4B, [1.0, -1.0, 0.0, 0.25], 0x2000_817F, false),
        row(PK4B, [-2.0, 2.0, -0.25, 0.0], 0x00E0_7F81, false),
        row(PK4B, [0.0, 0.0, 0.5, 0.0], ANY, true),
        row(PK4B, [f32::NAN, 0.0, 0.0, 0.0], ANY, true),
    ]);
}
