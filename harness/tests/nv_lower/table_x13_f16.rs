//! NV_gpu_program5 §2.X.8.Z CVT to and from F16 on every engine: "A storage modifier of
//! F16 indicates a source or destination ... whose sixteen least significant bits describe
//! a 16-bit floating-point value" (IEEE binary16: 1 sign, 5 exponent bits biased by 15, 10
//! fraction bits); "Floating-point values not exactly representable in the destination
//! data are rounded to one of the two nearest values in the destination type according to
//! the rounding modifier" (ROUND = to nearest, ties to even, by default; CEIL up; FLR
//! down; TRUNC towards zero). The lowering writes 0 in the high 16 bits of an F16 result
//! (lower_f16.rs).
//!
//! Binary16 values worked by hand: 1.0 = 0x3C00, -2.0 = 0xC000, 0.5 = 0x3800, 3 = 0x4200,
//! -5 = 0xC500, 65504 (the largest finite) = 0x7BFF, +INF = 0x7C00, 2^-24 (the smallest
//! subnormal) = 0x0001. 1/3 lies between 0x3555 = 0.333251953125 and 0x3556 =
//! 0.33349609375, nearer the first. 2049 lies halfway between 2048 = 0x6800 and 2050 =
//! 0x6801 (spacing 2 in [2048, 4096)); 255 = 2^7 * (1 + 1016/1024) = 0x5BF8.

use crate::table_x13::V;
use crate::table_x13::{row, run_rows_in, Row, W};

fn run(rows: &[Row]) {
    run_rows_in(
        "TEMP t;\nMOV.U t, 0;\n",
        "MOV.U result.attrib[0], t;\n",
        "result.attrib[0]",
        rows,
    );
}

fn vs(v: [u32; 4]) -> [W; 4] {
    v.map(V)
}

const THIRD: u32 = 0x3EAA_AAAB; // 1/3 in binary32
const NTHIRD: u32 = 0xBEAA_AAAB;
const P2M25: u32 = 0x3300_0000; // 2^-25, half the smallest binary16 subnormal
const NP2M25: u32 = 0xB300_0000;
const F70000: u32 = 0x4788_B800; // 70000.0
const NF70000: u32 = 0xC788_B800;

/// F32 → F16 with each rounding modifier.
#[test]
fn cvt_f32_to_f16_rounds_by_the_modifier() {
    run(&[
        // Exact values; 65520 ties between 65504 and 2^16 (overflow): even is 2^16, +INF.
        row(
            "CVT.F16.F32 t, p0;",
            &[[0x3F80_0000, 0xC000_0000, 0x477F_E000, 0x477F_F000]],
            vs([0x3C00, 0xC000, 0x7BFF, 0x7C00]),
        ),
        // Nearest: 1/3 → 0x3555, -1/3 → 0xB555; 2^-25 ties between 0 and 2^-24: even 0;
        // -2^-25: -0.
        row(
            "CVT.F16.F32 t, p0;",
            &[[THIRD, NTHIRD, P2M25, NP2M25]],
            vs([0x3555, 0xB555, 0, 0x8000]),
        ),
        // CEIL: up to 0x3556; -1/3 up is -0.333251953125 = 0xB555; 2^-25 up is 2^-24;
        // -2^-25 up is -0.
        row(
            "CVT.F16.F32.CEIL t, p0;",
            &[[THIRD, NTHIRD, P2M25, NP2M25]],
            vs([0x3556, 0xB555, 0x0001, 0x8000]),
        ),
        // FLR: 1/3 down 0x3555; -1/3 down 0xB556; 2^-25 down 0; -2^-25 down -2^-24.
        row(
            "CVT.F16.F32.FLR t, p0;",
            &[[THIRD, NTHIRD, P2M25, NP2M25]],
            vs([0x3555, 0xB556, 0, 0x8001]),
        ),
        // TRUNC: towards zero, the smaller magnitude.
        row(
            "CVT.F16.F32.TRUNC t, p0;",
            &[[THIRD, NTHIRD, P2M25, NP2M25]],
            vs([0x3555, 0xB555, 0, 0x8000]),
        ),
        // Beyond 65504: nearest is +INF; FLR and TRUNC stop at 65504; CEIL of -70000 at
        // -65504, FLR of -70000 is -INF.
        row(
            "CVT.F16.F32 t.x, p0;",
            &[[F70000, 0, 0, 0]],
            vs([0x7C00, 0, 0, 0]),
        ),
        row(
            "CVT.F16.F32.FLR t, p0;",
            &[[F70000, NF70000, 0x7F80_0000, 0xFF80_0000]],
            vs([0x7BFF, 0xFC00, 0x7C00, 0xFC00]),
        ),
        row(
            "CVT.F16.F32.TRUNC t, p0;",
            &[[F70000, NF70000, 0x7F80_0000, 0xFF80_0000]],
            vs([0x7BFF, 0xFBFF, 0x7C00, 0xFC00]),
        ),
        // CEIL: 65519 (0x477FEF00) is above 65504, so up is +INF; -70000 up is -65504;
        // 1 + 2^-11 (0x3F801000) up is 0x3C01 (nearest would be the even 0x3C00).
        row(
            "CVT.F16.F32.CEIL t, p0;",
            &[[0x477F_EF00, NF70000, 0x3F80_1000, 0x3F80_0000]],
            vs([0x7C00, 0xFBFF, 0x3C01, 0x3C00]),
        ),
        // SAT clamps to [0, 1] first: 2 → 1, -3 → 0, 0.5 stays; SSAT to [-1, 1].
        row(
            "CVT.F16.F32.SAT t, p0;",
            &[[0x4000_0000, 0xC040_0000, 0x3F00_0000, 0]],
            vs([0x3C00, 0, 0x3800, 0]),
        ),
        row(
            "CVT.F16.F32.SSAT t.xy, p0;",
            &[[0x4000_0000, 0xC040_0000, 0, 0]],
            vs([0x3C00, 0xBC00, 0, 0]),
        ),
    ]);
}

/// F16 → F32, integers; integers → F16; F16 → F16.
#[test]
fn cvt_from_f16_and_from_integers() {
    run(&[
        // The high 16 bits of the operand are ignored (0xFFFF3C00 is 1.0).
        row(
            "CVT.F32.F16 t, p0;",
            &[[0xFFFF_3C00, 0xC000, 0x0001, 0x7C00]],
            vs([0x3F80_0000, 0xC000_0000, 0x3380_0000, 0x7F80_0000]),
        ),
        row(
            "CVT.F32.F16 t.xy, p0;",
            &[[0x7BFF, 0x8000, 0, 0]],
            vs([0x477F_E000, 0x8000_0000, 0, 0]),
        ),
        // 1.5 (0x3E00) rounds to even 2; -2.5 (0xC100) to -2; 3 (0x4200) is 3.
        row(
            "CVT.S32.F16 t.xyz, p0;",
            &[[0x3E00, 0xC100, 0x4200, 0]],
            vs([2, 0xFFFF_FFFE, 3, 0]),
        ),
        // FLR of -2.5 is -3; of 1.5 is 1.
        row(
            "CVT.S32.F16.FLR t.xy, p0;",
            &[[0xC100, 0x3E00, 0, 0]],
            vs([0xFFFF_FFFD, 1, 0, 0]),
        ),
        // 3, -5, 65504 exact; 100000 beyond 65504 is +INF to nearest.
        row(
            "CVT.F16.S32 t, p0;",
            &[[3, (-5i32) as u32, 65504, 100_000]],
            vs([0x4200, 0xC500, 0x7BFF, 0x7C00]),
        ),
        // 2049 ties: nearest even 2048 (0x6800), CEIL 2050 (0x6801).
        row(
            "CVT.F16.U32 t.x, p0;",
            &[[2049, 0, 0, 0]],
            vs([0x6800, 0, 0, 0]),
        ),
        row(
            "CVT.F16.U32.CEIL t.x, p0;",
            &[[2049, 0, 0, 0]],
            vs([0x6801, 0, 0, 0]),
        ),
        // U8 operand: 0x1FF is 255 as an 8-bit value (§ CVT: "interpreted as a value with
        // the same base data type as the operand").
        row(
            "CVT.F16.U8 t.x, p0;",
            &[[0x1FF, 0, 0, 0]],
            vs([0x5BF8, 0, 0, 0]),
        ),
        // F16 → F16 keeps the value, drops the high bits.
        row(
            "CVT.F16.F16 t.xy, p0;",
            &[[0xFFFF_3C00, 0x0001_C000, 0, 0]],
            vs([0x3C00, 0xC000, 0, 0]),
        ),
    ]);
}
