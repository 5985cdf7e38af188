//! NV_gpu_program5 §2.X.8.Z CVT with `.SAT` to 32- and 64-bit integers, on every engine:
//! "Integer values are clamped to the closest value representable in the result data type
//! if the SAT (saturation) modifier is specified", after the operand is rounded by the
//! rounding modifier (ROUND, to nearest even, by default); "Converting the floating-point
//! special values -INF, +INF, and NaN to integers will yield undefined results" (SAT or
//! not), so the oracle must mark those channels undefined.
//!
//! Layout as table_x13_wide.rs: 64-bit operands `a` packed from program.local[0]
//! (`PK64.U a, p0`), 64-bit results `r` read through `UP64.U result.attrib[0], r`, 32-bit
//! results `t` in `result.attrib[1]`. Each expected value is derived in the comment next to
//! it (decimal values; binary32 encodings of the operands as hex).

use crate::table_x13::{row, run_rows_in, Row, Undef, V};
use crate::table_x13_wide::{d, l64, n, w64};

const PROLOGUE: &str = "TEMP t;\nLONG TEMP a, r;\nMOV.U t, 0;\nPK64.U r, {0, 0, 0, 0};\n\
                        PK64.U a, p0;\n";
const EPILOGUE: &str = "UP64.U result.attrib[0], r;\nMOV.U result.attrib[1], t;\n";

fn wide(rows: &[Row]) {
    run_rows_in(PROLOGUE, EPILOGUE, "result.attrib[0]", rows);
}

fn narrow(rows: &[Row]) {
    run_rows_in(PROLOGUE, EPILOGUE, "result.attrib[1]", rows);
}

const F_INF: u32 = 0x7F80_0000;
const F_NINF: u32 = 0xFF80_0000;
const F_NAN: u32 = 0x7FC0_0000;
const F_ONE: u32 = 0x3F80_0000;
const D_INF: u64 = 0x7FF0_0000_0000_0000;
const D_NAN: u64 = 0x7FF8_0000_0000_0000;
const I64MAX: u64 = 0x7FFF_FFFF_FFFF_FFFF;
const I64MIN: u64 = 0x8000_0000_0000_0000;
const M: u64 = u64::MAX;

/// F32 → S32 / U32 with SAT (32-bit results of the 32-bit CVT).
#[test]
fn cvt_sat_from_f32_to_32_bit_integers() {
    narrow(&[
        // 3e9 (0x4F32D05E) > 2^31 - 1: 0x7FFFFFFF; -3e9 < -2^31: 0x80000000;
        // 2147483520 (0x4EFFFFFF, the largest binary32 below 2^31) fits: 0x7FFFFF80;
        // -2.5 rounds to even, -2.
        row(
            "CVT.S32.F32.SAT t, p0;",
            &[[0x4F32_D05E, 0xCF32_D05E, 0x4EFF_FFFF, 0xC020_0000]],
            [
                V(0x7FFF_FFFF),
                V(0x8000_0000),
                V(0x7FFF_FF80),
                V(0xFFFF_FFFE),
            ],
        ),
        // -1 < 0: 0; 5e9 (0x4F9502F9) > 2^32 - 1: 0xFFFFFFFF; 2^32 (0x4F800000): 0xFFFFFFFF;
        // 4294967040 (0x4F7FFFFF) fits: 0xFFFFFF00.
        row(
            "CVT.U32.F32.SAT t, p0;",
            &[[0xBF80_0000, 0x4F95_02F9, 0x4F80_0000, 0x4F7F_FFFF]],
            [V(0), V(0xFFFF_FFFF), V(0xFFFF_FFFF), V(0xFFFF_FF00)],
        ),
        // FLR of -0.5 is -1, clamped to 0; FLR of 1.5 is 1.
        row(
            "CVT.U32.F32.FLR.SAT t.xy, p0;",
            &[[0xBF00_0000, 0x3FC0_0000, 0, 0]],
            [V(0), V(1), V(0), V(0)],
        ),
        // ±INF and NaN are undefined even with SAT; 1.0 converts to 1.
        row(
            "CVT.S32.F32.SAT t, p0;",
            &[[F_INF, F_NINF, F_NAN, F_ONE]],
            [Undef, Undef, Undef, V(1)],
        ),
    ]);
}

/// F64, S64, U64 → S32 / U32 with SAT.
#[test]
fn cvt_sat_from_64_bits_to_32_bit_integers() {
    narrow(&[
        // 3e9 > 2^31 - 1: 0x7FFFFFFF; -3e9 < -2^31: 0x80000000.
        row(
            "CVT.S32.F64.SAT t.xy, a;",
            &[l64(d(3e9), d(-3e9))],
            [V(0x7FFF_FFFF), V(0x8000_0000), V(0), V(0)],
        ),
        // 2147483647.4 rounds to 2^31 - 1 (fits); -2147483648.6 rounds to -2^31 - 1: clamped.
        row(
            "CVT.S32.F64.SAT t.xy, a;",
            &[l64(d(2_147_483_647.4), d(-2_147_483_648.6))],
            [V(0x7FFF_FFFF), V(0x8000_0000), V(0), V(0)],
        ),
        // -0.7 rounds to -1: 0; 4294967295.5 rounds to even 2^32: 0xFFFFFFFF.
        row(
            "CVT.U32.F64.SAT t.xy, a;",
            &[l64(d(-0.7), d(4_294_967_295.5))],
            [V(0), V(0xFFFF_FFFF), V(0), V(0)],
        ),
        // +INF and NaN: undefined.
        row(
            "CVT.U32.F64.SAT t.xy, a;",
            &[l64(D_INF, D_NAN)],
            [Undef, Undef, V(0), V(0)],
        ),
        // 2^31: 0x7FFFFFFF; -2^31 - 1: 0x80000000.
        row(
            "CVT.S32.S64.SAT t.xy, a;",
            &[l64(1 << 31, n(-(1 << 31) - 1))],
            [V(0x7FFF_FFFF), V(0x8000_0000), V(0), V(0)],
        ),
        // In range: 5 and -5 unchanged.
        row(
            "CVT.S32.S64.SAT t.xy, a;",
            &[l64(5, n(-5))],
            [V(5), V(0xFFFF_FFFB), V(0), V(0)],
        ),
        // -1 < 0: 0; 2^32 > 2^32 - 1: 0xFFFFFFFF.
        row(
            "CVT.U32.S64.SAT t.xy, a;",
            &[l64(n(-1), 1 << 32)],
            [V(0), V(0xFFFF_FFFF), V(0), V(0)],
        ),
        // 2^31 and 2^64 - 1 (unsigned) exceed 2^31 - 1.
        row(
            "CVT.S32.U64.SAT t.xy, a;",
            &[l64(1 << 31, M)],
            [V(0x7FFF_FFFF), V(0x7FFF_FFFF), V(0), V(0)],
        ),
        // 2^32 + 5 exceeds 2^32 - 1; 2^32 - 1 fits.
        row(
            "CVT.U32.U64.SAT t.xy, a;",
            &[l64(0x1_0000_0005, 0xFFFF_FFFF)],
            [V(0xFFFF_FFFF), V(0xFFFF_FFFF), V(0), V(0)],
        ),
    ]);
}

/// F32, F64, S32, S64, U64 → S64 / U64 with SAT.
#[test]
fn cvt_sat_to_64_bit_integers() {
    wide(&[
        // 1e19 (0x5F0AC723, 9999999980506447872) > 2^63 - 1: I64MAX; -1e19: I64MIN.
        row(
            "CVT.S64.F32.SAT r.xy, p0;",
            &[[0x5F0A_C723, 0xDF0A_C723, 0, 0]],
            w64(I64MAX, I64MIN),
        ),
        // 2^63 - 2^39 (0x5EFFFFFF) fits: 0x7FFFFF8000000000; -2.5 rounds to even, -2.
        row(
            "CVT.S64.F32.SAT r.xy, p0;",
            &[[0x5EFF_FFFF, 0xC020_0000, 0, 0]],
            w64(0x7FFF_FF80_0000_0000, n(-2)),
        ),
        // -1 < 0: 0; 2^64 (0x5F800000) > 2^64 - 1: all ones.
        row(
            "CVT.U64.F32.SAT r.xy, p0;",
            &[[0xBF80_0000, 0x5F80_0000, 0, 0]],
            w64(0, M),
        ),
        // 2^64 - 2^40 (0x5F7FFFFF) fits; 3.5 rounds to even, 4.
        row(
            "CVT.U64.F32.SAT r.xy, p0;",
            &[[0x5F7F_FFFF, 0x4060_0000, 0, 0]],
            w64(0xFFFF_FF00_0000_0000, 4),
        ),
        // -INF: undefined (both words); r.y untouched.
        row(
            "CVT.U64.F32.SAT r.x, p0;",
            &[[F_NINF, 0, 0, 0]],
            [Undef, Undef, V(0), V(0)],
        ),
        // 1e19 > 2^63 - 1: I64MAX; -1e300: I64MIN.
        row(
            "CVT.S64.F64.SAT r.xy, a;",
            &[l64(d(1e19), d(-1e300))],
            w64(I64MAX, I64MIN),
        ),
        // 2^63 - 1024 (the largest binary64 below 2^63) and -2^63 are in range.
        row(
            "CVT.S64.F64.SAT r.xy, a;",
            &[l64(
                d(9_223_372_036_854_774_784.0),
                d(-9_223_372_036_854_775_808.0),
            )],
            w64(0x7FFF_FFFF_FFFF_FC00, I64MIN),
        ),
        // -0.5 rounds to -0: 0; 2^64: all ones.
        row(
            "CVT.U64.F64.SAT r.xy, a;",
            &[l64(d(-0.5), d(18_446_744_073_709_551_616.0))],
            w64(0, M),
        ),
        // 2^64 - 2048 fits; 1.5 rounds to even, 2.
        row(
            "CVT.U64.F64.SAT r.xy, a;",
            &[l64(d(18_446_744_073_709_549_568.0), d(1.5))],
            w64(0xFFFF_FFFF_FFFF_F800, 2),
        ),
        // +INF and NaN: undefined.
        row("CVT.S64.F64.SAT r.xy, a;", &[l64(D_INF, D_NAN)], [Undef; 4]),
        // S32 → U64: -5 < 0 gives 0; 7 stays.
        row(
            "CVT.U64.S32.SAT r.xy, p0;",
            &[[(-5i32) as u32, 7, 0, 0]],
            w64(0, 7),
        ),
        // S32 → S64 always fits: -5 sign-extended.
        row(
            "CVT.S64.S32.SAT r.xy, p0;",
            &[[(-5i32) as u32, 7, 0, 0]],
            w64(n(-5), 7),
        ),
        // S64 → U64: -1 gives 0; I64MAX stays.
        row(
            "CVT.U64.S64.SAT r.xy, a;",
            &[l64(n(-1), I64MAX)],
            w64(0, I64MAX),
        ),
        // U64 → S64: 2^64 - 1 gives I64MAX; 5 stays.
        row("CVT.S64.U64.SAT r.xy, a;", &[l64(M, 5)], w64(I64MAX, 5)),
    ]);
}
