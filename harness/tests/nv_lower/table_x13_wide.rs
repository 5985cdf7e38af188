//! NV_gpu_program5 Table X.13, the 64-bit data-type variants ("6" in the F and I columns:
//! F64, S64, U64) and CVT to and from 64 bits, on every engine (the oracle first).
//!
//! Each row's operands are LONG vectors `a`, `b`, `c` packed from program.local[0..2]
//! (`PK64.U a, p0`: a.x = p0.x | p0.y << 32, a.y = p0.z | p0.w << 32, §2.X.8.Z PK64), and
//! the 64-bit result `r` is checked through `UP64.U result.attrib[0], r` as the words
//! (lo r.x, hi r.x, lo r.y, hi r.y) (§2.X.8.Z UP64). Rows with a 32-bit result write `t`
//! and check `result.attrib[1]`. Expected values are worked out by hand from each
//! instruction's pseudo-code (NV_gpu_program4 / NV_gpu_program5 §2.X.8.Z, quoted as
//! "§ NAME") in binary64 or 64-bit two's complement; where NOTES.md §14 says the result is
//! undefined (integer DIV by 0, MOD of a negative operand, shift counts outside [0, 63],
//! float to integer out of range), the oracle must mark the channels undefined.

use crate::table_x13::{row, run_rows_in, Row, W};
use crate::table_x13::{Any, Nan, Undef, V};

const PROLOGUE: &str = "TEMP t;\nLONG TEMP a, b, c, r;\nMOV.U t, 0;\nPK64.U r, {0, 0, 0, 0};\n\
                        PK64.U a, p0;\nPK64.U b, p1;\nPK64.U c, p2;\n";
const EPILOGUE: &str = "UP64.U result.attrib[0], r;\nMOV.U result.attrib[1], t;\n";

/// The local holding the 64-bit pair (x, y).
pub(crate) fn l64(x: u64, y: u64) -> [u32; 4] {
    [x as u32, (x >> 32) as u32, y as u32, (y >> 32) as u32]
}

/// The expected words of r = (x, y).
pub(crate) fn w64(x: u64, y: u64) -> [W; 4] {
    l64(x, y).map(V)
}

/// The bits of a binary64.
pub(crate) fn d(v: f64) -> u64 {
    v.to_bits()
}

/// The bits of a signed 64-bit integer.
pub(crate) fn n(v: i64) -> u64 {
    v as u64
}

fn wide(rows: &[Row]) {
    run_rows_in(PROLOGUE, EPILOGUE, "result.attrib[0]", rows);
}

fn narrow(rows: &[Row]) {
    run_rows_in(PROLOGUE, EPILOGUE, "result.attrib[1]", rows);
}

const DMAX: u64 = 0x7FEF_FFFF_FFFF_FFFF;
const INF: u64 = 0x7FF0_0000_0000_0000;
const NINF: u64 = 0xFFF0_0000_0000_0000;
const NAN: u64 = 0x7FF8_0000_0000_0000;
const NZERO: u64 = 0x8000_0000_0000_0000;
const I64MIN: u64 = 0x8000_0000_0000_0000;
const M: u64 = u64::MAX;

/// ADD SUB MUL MAD DIV RCP RSQ MIN MAX ABS MOV (with modifiers) in binary64.
#[test]
fn f64_arithmetic() {
    wide(&[
        // 1.5 + 2.5 = 4; -0 + -0 = -0 (IEEE 754 §6.3).
        row(
            "ADD.F64 r, a, b;",
            &[l64(d(1.5), NZERO), l64(d(2.5), NZERO)],
            w64(d(4.0), NZERO),
        ),
        // DBL_MAX + DBL_MAX overflows to +inf; inf + -inf is NaN.
        row(
            "ADD.F64 r, a, b;",
            &[l64(DMAX, INF), l64(DMAX, NINF)],
            [V(0), V(0x7FF0_0000), Any, Nan],
        ),
        // 1 - 1.5 = -0.5; 2 - 2 = +0.
        row(
            "SUB.F64 r, a, b;",
            &[l64(d(1.0), d(2.0)), l64(d(1.5), d(2.0))],
            w64(d(-0.5), 0),
        ),
        // 1.5 * 2.5 = 3.75; -2 * 0 = -0.
        row(
            "MUL.F64 r, a, b;",
            &[l64(d(1.5), d(-2.0)), l64(d(2.5), 0)],
            w64(d(3.75), NZERO),
        ),
        // 1.5 * 2 + 0.5 = 3.5; 2 * 3 - 6 = +0.
        row(
            "MAD.F64 r, a, b, c;",
            &[
                l64(d(1.5), d(2.0)),
                l64(d(2.0), d(3.0)),
                l64(d(0.5), d(-6.0)),
            ],
            w64(d(3.5), 0),
        ),
        // § DIV: each component by the scalar b.x: 3 / 2 = 1.5, -1 / 2 = -0.5.
        row(
            "DIV.F64 r, a, b.x;",
            &[l64(d(3.0), d(-1.0)), l64(d(2.0), 0)],
            w64(d(1.5), d(-0.5)),
        ),
        // § RCP / RSQ: scalar results replicated: 1/4, 1/sqrt(4).
        row("RCP.F64 r, a.x;", &[l64(d(4.0), 0)], w64(d(0.25), d(0.25))),
        row("RSQ.F64 r, a.x;", &[l64(d(4.0), 0)], w64(d(0.5), d(0.5))),
        row(
            "MIN.F64 r, a, b;",
            &[l64(d(1.0), d(-2.0)), l64(d(-1.0), d(3.0))],
            w64(d(-1.0), d(-2.0)),
        ),
        row(
            "MAX.F64 r, a, b;",
            &[l64(d(1.0), d(-2.0)), l64(d(-1.0), d(3.0))],
            w64(d(1.0), d(3.0)),
        ),
        row("ABS.F64 r, a;", &[l64(d(-2.5), NZERO)], w64(d(2.5), 0)),
        // §2.X.4.2 operand modifiers at 64 bits: -a, -|a|.
        row("MOV.F64 r, -a;", &[l64(d(1.5), NZERO)], w64(d(-1.5), 0)),
        row(
            "MOV.F64 r, -|a|;",
            &[l64(d(1.5), d(-2.0))],
            w64(d(-1.5), d(-2.0)),
        ),
        // Swizzles select 64-bit components: r = (a.y, a.x).
        row(
            "MOV.F64 r, a.yxzw;",
            &[l64(d(1.5), d(2.5))],
            w64(d(2.5), d(1.5)),
        ),
        // Literals are binary64 at 64-bit operands (NOTES.md §11): 0.1 + 0.2 in binary64.
        row(
            "ADD.F64 r, {0.1, 0.2}, {0.2, 0.1};",
            &[],
            w64(0x3FD3_3333_3333_3334, 0x3FD3_3333_3333_3334),
        ),
    ]);
}

/// FLR CEIL TRUNC ROUND FRC SSG CMP and the set-on instructions in binary64.
#[test]
fn f64_rounding_and_comparisons() {
    wide(&[
        row(
            "FLR.F64 r, a;",
            &[l64(d(-2.5), d(2.5))],
            w64(d(-3.0), d(2.0)),
        ),
        row(
            "CEIL.F64 r, a;",
            &[l64(d(-2.5), d(2.5))],
            w64(d(-2.0), d(3.0)),
        ),
        row(
            "TRUNC.F64 r, a;",
            &[l64(d(-2.5), d(2.5))],
            w64(d(-2.0), d(2.0)),
        ),
        // § ROUND: to nearest, ties to even: -2.5 -> -2, 3.5 -> 4.
        row(
            "ROUND.F64 r, a;",
            &[l64(d(-2.5), d(3.5))],
            w64(d(-2.0), d(4.0)),
        ),
        // § FRC: a - floor(a): -2.5 -> 0.5.
        row(
            "FRC.F64 r, a;",
            &[l64(d(-2.5), d(2.5))],
            w64(d(0.5), d(0.5)),
        ),
        row("SSG.F64 r, a;", &[l64(d(-2.5), 0)], w64(d(-1.0), 0)),
        // § CMP: a < 0 ? b : c; -0 < 0 is false (NOTES.md §14).
        row(
            "CMP.F64 r, a, b, c;",
            &[
                l64(d(-1.0), NZERO),
                l64(d(1.5), d(1.5)),
                l64(d(2.5), d(2.5)),
            ],
            w64(d(1.5), d(2.5)),
        ),
        // Set-on: TRUE is 1.0 (§2.X.8 SEQ ...); NaN compares unequal.
        row(
            "SEQ.F64 r, a, b;",
            &[l64(d(1.0), NAN), l64(d(1.0), NAN)],
            w64(d(1.0), 0),
        ),
        row(
            "SNE.F64 r, a, b;",
            &[l64(d(1.0), NAN), l64(d(1.0), NAN)],
            w64(0, d(1.0)),
        ),
        row(
            "SLT.F64 r, a, b;",
            &[l64(d(1.0), d(2.0)), l64(d(2.0), d(2.0))],
            w64(d(1.0), 0),
        ),
        row(
            "SGE.F64 r, a, b;",
            &[l64(d(1.0), d(2.0)), l64(d(2.0), d(2.0))],
            w64(0, d(1.0)),
        ),
        row(
            "SGT.F64 r, a, b;",
            &[l64(d(2.0), d(1.0)), l64(d(1.0), d(1.0))],
            w64(d(1.0), 0),
        ),
        row(
            "SLE.F64 r, a, b;",
            &[l64(d(2.0), d(1.0)), l64(d(1.0), d(1.0))],
            w64(0, d(1.0)),
        ),
        row("SFL.F64 r, a, b;", &[], w64(0, 0)),
        row("STR.F64 r, a, b;", &[], w64(d(1.0), d(1.0))),
    ]);
}

/// ADD SUB MUL MAD MIN MAX ABS NEG and the bitwise instructions on S64 / U64:
/// two's-complement arithmetic modulo 2^64.
#[test]
fn int64_arithmetic_and_bitwise() {
    wide(&[
        // 0xFFFFFFFF + 1 carries into the high word; -1 + 1 wraps to 0.
        row(
            "ADD.U64 r, a, b;",
            &[l64(0xFFFF_FFFF, M), l64(1, 1)],
            w64(0x1_0000_0000, 0),
        ),
        row(
            "ADD.S64 r, a, b;",
            &[l64(0xFFFF_FFFF, M), l64(1, 1)],
            w64(0x1_0000_0000, 0),
        ),
        row(
            "SUB.S64 r, a, b;",
            &[l64(0, 5), l64(1, 7)],
            w64(n(-1), n(-2)),
        ),
        // Borrow from the high word: 2^32 - 1 = 0xFFFFFFFF.
        row(
            "SUB.U64 r, a, b;",
            &[l64(0, 0x1_0000_0000), l64(1, 1)],
            w64(M, 0xFFFF_FFFF),
        ),
        // 2^32 * 2^32 = 2^64 wraps to 0; (2^64 - 1) * 2 = 2^64 - 2.
        row(
            "MUL.U64 r, a, b;",
            &[l64(0x1_0000_0000, M), l64(0x1_0000_0000, 2)],
            w64(0, M - 1),
        ),
        row(
            "MUL.S64 r, a, b;",
            &[l64(n(-3), 0x7FFF_FFFF_FFFF_FFFF), l64(5, 2)],
            w64(n(-15), n(-2)),
        ),
        row(
            "MAD.S64 r, a, b, c;",
            &[l64(n(-3), 2), l64(5, 3), l64(15, n(-7))],
            w64(0, n(-1)),
        ),
        // Signed and unsigned orders differ on -1 and 2^32.
        row(
            "MIN.S64 r, a, b;",
            &[l64(n(-1), 5), l64(1, 0x1_0000_0000)],
            w64(n(-1), 5),
        ),
        row(
            "MIN.U64 r, a, b;",
            &[l64(n(-1), 5), l64(1, 0x1_0000_0000)],
            w64(1, 5),
        ),
        row(
            "MAX.S64 r, a, b;",
            &[l64(n(-1), 5), l64(1, 0x1_0000_0000)],
            w64(1, 0x1_0000_0000),
        ),
        row(
            "MAX.U64 r, a, b;",
            &[l64(n(-1), 5), l64(1, 0x1_0000_0000)],
            w64(M, 0x1_0000_0000),
        ),
        // |INT64_MIN| wraps to itself.
        row("ABS.S64 r, a;", &[l64(n(-5), I64MIN)], w64(5, I64MIN)),
        row("ABS.U64 r, a;", &[l64(n(-5), 7)], w64(n(-5), 7)),
        row("MOV.S64 r, -a;", &[l64(5, I64MIN)], w64(n(-5), I64MIN)),
        row(
            "AND.U64 r, a, b;",
            &[
                l64(0x0000_FFFF_FFFF_0000, 0x1234_5678_9ABC_DEF0),
                l64(0x00FF_00FF_00FF_00FF, 0xFFFF_FFFF_0000_0000),
            ],
            w64(0x0000_00FF_00FF_0000, 0x1234_5678_0000_0000),
        ),
        row(
            "OR.S64 r, a, b;",
            &[
                l64(0x0000_FFFF_FFFF_0000, 0x1234_5678_9ABC_DEF0),
                l64(0x00FF_00FF_00FF_00FF, 0xFFFF_FFFF_0000_0000),
            ],
            w64(0x00FF_FFFF_FFFF_00FF, 0xFFFF_FFFF_9ABC_DEF0),
        ),
        row(
            "XOR.U64 r, a, b;",
            &[
                l64(0x0000_FFFF_FFFF_0000, 0x1234_5678_9ABC_DEF0),
                l64(0x00FF_00FF_00FF_00FF, 0xFFFF_FFFF_0000_0000),
            ],
            w64(0x00FF_FF00_FF00_00FF, 0xEDCB_A987_9ABC_DEF0),
        ),
        row(
            "NOT.U64 r, a;",
            &[l64(0, 0x1234_5678_9ABC_DEF0)],
            w64(M, 0xEDCB_A987_6543_210F),
        ),
        // Integer literals are 64-bit at 64-bit operands: 2^32 + 16.
        row(
            "ADD.U64 r, a, 16;",
            &[l64(0x1_0000_0000, 0)],
            w64(0x1_0000_0010, 16),
        ),
    ]);
}

/// SHL SHR DIV MOD (scalar second operand) and the set-on and CMP instructions on
/// S64 / U64, with the undefined cases of NOTES.md §14.
#[test]
fn int64_shifts_division_and_comparisons() {
    wide(&[
        // § SHL: 0xF_F0000000 << 4 = 0xFF_00000000; bit 63 shifted out.
        row(
            "SHL.U64 r, a, b.x;",
            &[l64(0x0000_000F_F000_0000, I64MIN), l64(4, 0)],
            w64(0xFF_0000_0000, 0),
        ),
        // Counts outside [0, 63] are undefined.
        row("SHL.U64 r, a, b.x;", &[l64(1, 1), l64(64, 0)], [Undef; 4]),
        row(
            "SHL.S64 r, a, b.x;",
            &[l64(1, 1), l64(n(-1), 0)],
            [Undef; 4],
        ),
        // § SHR: arithmetic for S64, logical for U64.
        row(
            "SHR.S64 r, a, b.x;",
            &[l64(I64MIN, 0x1_0000_0000), l64(32, 0)],
            w64(0xFFFF_FFFF_8000_0000, 1),
        ),
        row(
            "SHR.U64 r, a, b.x;",
            &[l64(I64MIN, 0x1_0000_0000), l64(32, 0)],
            w64(0x8000_0000, 1),
        ),
        // § DIV: truncating; -7 / 2 = -3.
        row(
            "DIV.S64 r, a, b.x;",
            &[l64(n(-7), 7), l64(2, 0)],
            w64(n(-3), 3),
        ),
        row(
            "DIV.U64 r, a, b.x;",
            &[l64(M, 0x1_0000_0000), l64(0x1_0000_0000, 0)],
            w64(0xFFFF_FFFF, 1),
        ),
        row("DIV.U64 r, a, b.x;", &[l64(7, 7), l64(0, 0)], [Undef; 4]),
        row(
            "MOD.U64 r, a, b.x;",
            &[l64(7, 0x1_0000_0005), l64(0x1_0000_0000, 0)],
            w64(7, 5),
        ),
        // § MOD: undefined for a negative dividend.
        row(
            "MOD.S64 r, a, b.x;",
            &[l64(n(-7), 7), l64(2, 0)],
            [Undef, Undef, V(1), V(0)],
        ),
        // Set-on: TRUE is all ones for S64 and U64.
        row(
            "SEQ.U64 r, a, b;",
            &[l64(0x1_0000_0000, 5), l64(0, 5)],
            w64(0, M),
        ),
        row(
            "SNE.S64 r, a, b;",
            &[l64(0x1_0000_0000, 5), l64(0, 5)],
            w64(M, 0),
        ),
        row(
            "SLT.S64 r, a, b;",
            &[l64(n(-1), 1), l64(1, n(-1))],
            w64(M, 0),
        ),
        row(
            "SLT.U64 r, a, b;",
            &[l64(n(-1), 1), l64(1, n(-1))],
            w64(0, M),
        ),
        row(
            "SGE.S64 r, a, b;",
            &[l64(n(-1), 1), l64(1, n(-1))],
            w64(0, M),
        ),
        row(
            "SGT.S64 r, a, b;",
            &[l64(n(-1), 1), l64(1, n(-1))],
            w64(0, M),
        ),
        row(
            "SLE.U64 r, a, b;",
            &[l64(n(-1), 1), l64(1, n(-1))],
            w64(0, M),
        ),
        // § SAD: |a - b| + c with the difference taken exactly: |INT64_MIN - INT64_MAX| =
        // 2^64 - 1, plus 2 wraps to 1 (r is unsigned).
        row(
            "SAD.U64 r, a, b, c;",
            &[l64(5, 0x1_0000_0000), l64(7, 1), l64(1, 2)],
            w64(3, 0x1_0000_0001),
        ),
        row(
            "SAD.S64 r, a, b, c;",
            &[l64(n(-3), I64MIN), l64(4, 0x7FFF_FFFF_FFFF_FFFF), l64(1, 2)],
            w64(8, 1),
        ),
        // FLR/ROUND to S64/U64 read binary64 ("vf"); out of range is undefined.
        row(
            "FLR.S64 r, a;",
            &[l64(d(-2.5), d(1e300))],
            [V(0xFFFF_FFFD), V(0xFFFF_FFFF), Undef, Undef],
        ),
        row(
            "ROUND.U64 r, a;",
            &[l64(d(2.5), d(-1.0))],
            [V(2), V(0), Undef, Undef],
        ),
        row("STR.U64 r, a, b;", &[], w64(M, M)),
        row("SFL.S64 r, a, b;", &[], w64(0, 0)),
        row(
            "CMP.S64 r, a, b, c;",
            &[l64(n(-1), 0), l64(10, 10), l64(20, 20)],
            w64(10, 20),
        ),
        // CMP.U64: an unsigned operand is never negative.
        row(
            "CMP.U64 r, a, b, c;",
            &[l64(n(-1), 0), l64(10, 10), l64(20, 20)],
            w64(20, 20),
        ),
    ]);
}

/// PK64 write masks, CVT to 64 bits (§2.X.8.Z CVT: int to int extends by the operand's
/// signedness, float to int rounds by the rounding modifier, ROUND by default, and is
/// undefined out of range) and from 64 bits to 32 (I2F.S64 / .U64, CVT).
#[test]
fn conversions_to_and_from_64_bits() {
    wide(&[
        // PK64 r.y takes (a.z | a.w << 32); r.x keeps 0.
        row("PK64.U r.y, p0;", &[[1, 2, 3, 4]], w64(0, 0x4_0000_0003)),
        row(
            "CVT.F64.F32 r.x, p0.x;",
            &[[0x3FC0_0000, 0, 0, 0]],
            w64(d(1.5), 0),
        ),
        row(
            "CVT.F64.S32 r.xy, p0;",
            &[[(-3i32) as u32, 7, 0, 0]],
            w64(d(-3.0), d(7.0)),
        ),
        row(
            "CVT.F64.U32 r.xy, p0;",
            &[[0xFFFF_FFFF, 0, 0, 0]],
            w64(d(4_294_967_295.0), 0),
        ),
        row(
            "CVT.S64.S32 r.xy, p0;",
            &[[(-2i32) as u32, 5, 0, 0]],
            w64(n(-2), 5),
        ),
        row(
            "CVT.U64.U32 r.xy, p0;",
            &[[0xFFFF_FFFE, 5, 0, 0]],
            w64(0xFFFF_FFFE, 5),
        ),
        // -2.5 truncates to -2; 3e9 (exact in binary32) fits in S64.
        row(
            "CVT.S64.F32.TRUNC r.xy, p0;",
            &[[0xC020_0000, 0x4F32_D05E, 0, 0]],
            w64(n(-2), 3_000_000_000),
        ),
        row(
            "CVT.S64.F64.FLR r.x, a.x;",
            &[l64(d(-2.5), 0)],
            w64(n(-3), 0),
        ),
        // Default rounding: to nearest even.
        row(
            "CVT.S64.F64 r.xy, a;",
            &[l64(d(2.5), d(-3.5))],
            w64(2, n(-4)),
        ),
        // 2^53 + 1 rounds to 2^53 in binary64 (ties to even).
        row(
            "CVT.F64.S64 r.xy, a;",
            &[l64(n(-3), (1 << 53) + 1)],
            w64(d(-3.0), d(9_007_199_254_740_992.0)),
        ),
        // -1 is out of U64's range: undefined.
        row(
            "CVT.U64.F64.TRUNC r.x, a.x;",
            &[l64(d(-1.0), 0)],
            [Undef, Undef, V(0), V(0)],
        ),
    ]);
    narrow(&[
        // DBL_MAX rounds to +inf in binary32.
        row(
            "CVT.F32.F64 t.xy, a;",
            &[l64(d(1.5), DMAX)],
            [V(0x3FC0_0000), V(0x7F80_0000), V(0), V(0)],
        ),
        row(
            "CVT.S32.F64 t.xy, a;",
            &[l64(d(-2.5), d(3.5))],
            [V(0xFFFF_FFFE), V(4), V(0), V(0)],
        ),
        // Integer narrowing keeps the low word.
        row(
            "CVT.U32.U64 t.xy, a;",
            &[l64(0x1_0000_0005, M)],
            [V(5), V(0xFFFF_FFFF), V(0), V(0)],
        ),
        // 2^24 + 1 rounds to 2^24 in binary32.
        row(
            "CVT.F32.S64 t.xy, a;",
            &[l64(n(-3), (1 << 24) + 1)],
            [V(0xC040_0000), V(0x4B80_0000), V(0), V(0)],
        ),
        row(
            "I2F.S64 t.xy, a;",
            &[l64(n(-3), 5)],
            [V(0xC040_0000), V(0x40A0_0000), V(0), V(0)],
        ),
        // 2^64 - 1 rounds to 2^64 in binary32.
        row(
            "I2F.U64 t.xy, a;",
            &[l64(M, 1)],
            [V(0x5F80_0000), V(0x3F80_0000), V(0), V(0)],
        ),
        // UP64 unpacks the swizzled components x and y: (a.y, a.x).
        row(
            "UP64.S t, a.yxzw;",
            &[l64(1, 0x2_0000_0003)],
            [V(3), V(2), V(1), V(0)],
        ),
    ]);
}

/// `.SAT` / `.SSAT` of F64 results (§2.X.4.1: clamped to [0, 1] / [-1, 1] before the
/// destination and the condition codes; NaN and -0 give +0 under SAT as for 32 bits,
/// SSAT keeps -0).
#[test]
fn f64_clamping() {
    wide(&[
        row(
            "ADD.F64.SAT r, a, b;",
            &[l64(d(0.75), d(-2.0)), l64(d(0.5), d(1.0))],
            w64(d(1.0), 0),
        ),
        row(
            "ADD.F64.SAT r, a, b;",
            &[l64(NAN, NZERO), l64(0, NZERO)],
            w64(0, 0),
        ),
        row(
            "ADD.F64.SSAT r, a, b;",
            &[l64(NZERO, d(3.0)), l64(NZERO, 0)],
            w64(NZERO, d(1.0)),
        ),
        row(
            "MUL.F64.SSAT r, a, b;",
            &[l64(d(-4.0), d(0.25)), l64(d(1.0), d(2.0))],
            w64(d(-1.0), d(0.5)),
        ),
    ]);
}

/// `.CC` of 64-bit results (§2.X.4.3 at 64 bits): flags per component from the 64-bit
/// value, observed with conditional moves (Table X.16 tests): F64 NaN sets SF and ZF;
/// integer ADD / SUB carry and overflow are the 64-bit ones; a conditional write mask
/// on a LONG result.
#[test]
fn condition_codes_of_64_bit_results() {
    narrow(&[
        // r = (-1, NaN): LT true for x; NaN false for LT, true for NAN (y).
        row(
            "ADD.F64.CC r, a, b;\nMOV.U t.xy (LT.xyzw), {1, 1, 1, 1};\nMOV.U t.zw (NAN.xyxy), {1, 1, 1, 1};",
            &[l64(d(1.5), NAN), l64(d(-2.5), 0)],
            [V(1), V(0), V(0), V(1)],
        ),
        // (2^64 - 1) + 1 carries out to 0; 5 + 7 does not.
        row(
            "ADD.U64.CC r, a, b;\nMOV.U t.xy (CF.xyzw), {1, 1, 1, 1};\nMOV.U t.zw (EQ.xyxy), {1, 1, 1, 1};",
            &[l64(M, 5), l64(1, 7)],
            [V(1), V(0), V(1), V(0)],
        ),
        // INT64_MAX + 1 overflows (OF; LT is false: the true sum is positive); -1 + -1 = -2.
        row(
            "ADD.S64.CC r, a, b;\nMOV.U t.xy (OF.xyzw), {1, 1, 1, 1};\nMOV.U t.zw (LT.xyxy), {1, 1, 1, 1};",
            &[l64(0x7FFF_FFFF_FFFF_FFFF, n(-1)), l64(1, n(-1))],
            [V(1), V(0), V(0), V(1)],
        ),
        // SUB: CF = no borrow (a >= b unsigned): 0 - 1 borrows, 5 - 5 does not.
        row(
            "SUB.S64.CC r, a, b;\nMOV.U t.xy (CF.xyzw), {1, 1, 1, 1};\nMOV.U t.zw (EQ.xyxy), {1, 1, 1, 1};",
            &[l64(0, 5), l64(1, 5)],
            [V(0), V(1), V(0), V(1)],
        ),
    ]);
    wide(&[
        // CC from a 32-bit MOV: x zero (NE false), y non-zero (NE true): only r.y written.
        row(
            "MOV.U.CC t, p2;\nADD.U64 r (NE.xyzw), a, b;",
            &[l64(1, 2), l64(10, 20), [0, 7, 0, 0]],
            w64(0, 22),
        ),
    ]);
}
