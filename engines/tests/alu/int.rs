//! 32-bit integer and bit opcodes.
//!
//! Expected values are computed by hand from tgsi.rst "Integer ISA" / "Bitwise ISA" (formulas
//! and pseudocode quoted on each table) and EXEC-NOTES.md §5 [run] values. Operands and
//! results are 32-bit words in hex; `n(x)` is the two's-complement word of a negative number.

use shaderdiff_model::Opcode::*;

use crate::support::consts::*;
use crate::support::rows::*;

/// UADD/UMUL "the low 32bit of the result is returned"; UMAD low32(a*b) + c.
/// (2^32-1)^2 = 2^64 - 2^33 + 1 → low word 1; 0xFFFFFFFF*2 + 3 = 0x1_0000_0001 → 1.
#[test]
fn add_mul() {
    check_rows(&[
        bits(UADD, &[UINT_MAX, 1], 0),
        bits(UADD, &[INT_MAX, 1], INT_MIN),
        bits(UADD, &[n(-5), 3], n(-2)),
        bits(UMUL, &[UINT_MAX, UINT_MAX], 1),
        bits(UMUL, &[0x1_0000, 0x1_0000], 0),
        bits(UMUL, &[n(-3), 7], n(-21)),
        bits(UMAD, &[UINT_MAX, 2, 3], 1),
        bits(UMAD, &[6, 7, n(-42)], 0),
    ]);
}

/// IMUL_HI / UMUL_HI: high 32 bits of the 64-bit product. INT_MIN² = 2^62 → 0x40000000;
/// INT_MIN·2 = -2^32 → 0xFFFFFFFF; -1·1 = -1 → 0xFFFFFFFF; 2^16·2^16 = 2^32 → 1;
/// (2^32-1)² = 0xFFFFFFFE_00000001 → 0xFFFFFFFE.
#[test]
fn mul_hi() {
    check_rows(&[
        bits(IMUL_HI, &[n(-1), n(-1)], 0),
        bits(IMUL_HI, &[INT_MIN, INT_MIN], 0x4000_0000),
        bits(IMUL_HI, &[INT_MIN, 2], UINT_MAX),
        bits(IMUL_HI, &[n(-1), 1], UINT_MAX),
        bits(IMUL_HI, &[0x1_0000, 0x1_0000], 1),
        bits(UMUL_HI, &[UINT_MAX, UINT_MAX], 0xFFFF_FFFE),
        bits(UMUL_HI, &[INT_MIN, 2], 1),
        bits(UMUL_HI, &[0xFFFF, 0xFFFF], 0),
    ]);
}

/// IDIV `src0 / src1` truncating; division by zero "TBD" → undefined; INT_MIN / -1 = 2^31 is
/// not representable → undefined (tgsi_exec crashes, EXEC-NOTES.md §0). MOD: truncated
/// remainder with the sign of src0 (EXEC-NOTES.md §5); by zero undefined; INT_MIN mod -1 = 0
/// (the true remainder). -2^31 = -715827882·3 - 2.
#[test]
fn idiv_mod() {
    check_rows(&[
        bits_or_undef(IDIV, &[7, 2], 3, false),
        bits_or_undef(IDIV, &[n(-7), 2], n(-3), false),
        bits_or_undef(IDIV, &[7, n(-2)], n(-3), false),
        bits_or_undef(IDIV, &[n(-7), n(-2)], 3, false),
        bits_or_undef(IDIV, &[INT_MIN, 1], INT_MIN, false),
        bits_or_undef(IDIV, &[INT_MIN, 2], 0xC000_0000, false),
        bits_or_undef(IDIV, &[0, 5], 0, false),
        bits_or_undef(IDIV, &[5, 0], ANY, true),
        bits_or_undef(IDIV, &[0, 0], ANY, true),
        bits_or_undef(IDIV, &[INT_MIN, n(-1)], ANY, true),
        bits_or_undef(MOD, &[7, 2], 1, false),
        bits_or_undef(MOD, &[n(-7), 2], n(-1), false),
        bits_or_undef(MOD, &[7, n(-2)], 1, false),
        bits_or_undef(MOD, &[INT_MIN, n(-1)], 0, false),
        bits_or_undef(MOD, &[INT_MIN, 3], n(-2), false),
        bits_or_undef(MOD, &[5, 0], ANY, true),
    ]);
}

/// UDIV/UMOD: "For division by zero, 0xffffffff is returned" / "If src1 is zero, 0xffffffff
/// is returned" — defined.
#[test]
fn udiv_umod() {
    check_rows(&[
        bits(UDIV, &[7, 2], 3),
        bits(UDIV, &[5, 0], UINT_MAX),
        bits(UDIV, &[0, 0], UINT_MAX),
        bits(UDIV, &[UINT_MAX, 1], UINT_MAX),
        bits(UDIV, &[INT_MIN, UINT_MAX], 0),
        bits(UMOD, &[7, 2], 1),
        bits(UMOD, &[5, 0], UINT_MAX),
        bits(UMOD, &[UINT_MAX, 0x10], 0xF),
        bits(UMOD, &[INT_MIN, n(-1)], INT_MIN),
    ]);
}

/// INEG two's complement, IABS |x| (INT_MIN stays INT_MIN, EXEC-NOTES.md §5), ISSG -1/0/1.
#[test]
fn unary_int() {
    check_rows(&[
        bits(INEG, &[1], n(-1)),
        bits(INEG, &[INT_MIN], INT_MIN),
        bits(INEG, &[0], 0),
        bits(IABS, &[n(-5)], 5),
        bits(IABS, &[5], 5),
        bits(IABS, &[INT_MIN], INT_MIN),
        bits(ISSG, &[n(-5)], n(-1)),
        bits(ISSG, &[0], 0),
        bits(ISSG, &[7], 1),
        bits(ISSG, &[INT_MIN], n(-1)),
        bits(ISSG, &[INT_MAX], 1),
    ]);
}

/// IMAX/IMIN signed, UMAX/UMIN unsigned.
#[test]
fn min_max_int() {
    check_rows(&[
        bits(IMAX, &[n(-1), 1], 1),
        bits(IMAX, &[INT_MIN, INT_MAX], INT_MAX),
        bits(IMIN, &[n(-1), 1], n(-1)),
        bits(IMIN, &[INT_MIN, INT_MAX], INT_MIN),
        bits(UMAX, &[UINT_MAX, 1], UINT_MAX),
        bits(UMAX, &[INT_MIN, INT_MAX], INT_MIN),
        bits(UMIN, &[UINT_MAX, 1], 1),
        bits(UMIN, &[INT_MIN, INT_MAX], INT_MAX),
    ]);
}

/// ISGE ISLT (signed), USEQ USNE USGE USLT (unsigned): `cond ? ~0 : 0`.
#[test]
fn set_int() {
    check_rows(&[
        bits(ISGE, &[n(-1), 1], 0),
        bits(ISGE, &[1, 1], TRUE),
        bits(ISGE, &[INT_MAX, INT_MIN], TRUE),
        bits(ISLT, &[n(-1), 1], TRUE),
        bits(ISLT, &[1, 1], 0),
        bits(USGE, &[UINT_MAX, 1], TRUE),
        bits(USGE, &[1, 2], 0),
        bits(USLT, &[UINT_MAX, 1], 0),
        bits(USLT, &[1, INT_MIN], TRUE),
        bits(USEQ, &[INT_MIN, INT_MIN], TRUE),
        bits(USEQ, &[NEG_ZERO, ZERO], 0), // bit compare: -0.0 ≠ +0.0
        bits(USNE, &[NEG_ZERO, ZERO], TRUE),
        bits(USNE, &[5, 5], 0),
    ]);
}

/// NOT AND OR XOR: bitwise.
#[test]
fn bitwise() {
    check_rows(&[
        bits(NOT, &[0], UINT_MAX),
        bits(NOT, &[0xF0F0_F0F0], 0x0F0F_0F0F),
        bits(AND, &[0xFF00_FF00, 0x0FF0_0FF0], 0x0F00_0F00),
        bits(OR, &[0xFF00_FF00, 0x0FF0_0FF0], 0xFFF0_FFF0),
        bits(XOR, &[0xFF00_FF00, 0x0FF0_0FF0], 0xF0F0_F0F0),
        bits(XOR, &[UINT_MAX, UINT_MAX], 0),
    ]);
}

/// SHL/ISHR/USHR: "The shift count is masked with 0x1f". EXEC-NOTES.md §5 [run]:
/// SHL(1, 33) = 2, SHL(1, 32) = 1, ISHR(-8, 33) = -4, USHR(0xFFFFFFF8, 31) = 1.
#[test]
fn shifts() {
    check_rows(&[
        bits(SHL, &[1, 0], 1),
        bits(SHL, &[1, 31], INT_MIN),
        bits(SHL, &[1, 32], 1), // 32 & 31 = 0
        bits(SHL, &[1, 33], 2),
        bits(SHL, &[1, n(-1)], INT_MIN), // 0xFFFFFFFF & 31 = 31
        bits(SHL, &[UINT_MAX, 4], 0xFFFF_FFF0),
        bits(USHR, &[0xFFFF_FFF8, 31], 1),
        bits(USHR, &[INT_MIN, 32], INT_MIN),
        bits(USHR, &[INT_MIN, 0], INT_MIN),
        bits(USHR, &[UINT_MAX, 4], 0x0FFF_FFFF),
        bits(ISHR, &[n(-8), 33], n(-4)),
        bits(ISHR, &[INT_MIN, 31], UINT_MAX),
        bits(ISHR, &[n(-1), 0], n(-1)),
        bits(ISHR, &[INT_MAX, 32], INT_MAX),
        bits(ISHR, &[0x4000_0000, 30], 1),
    ]);
}

/// tgsi.rst UBFE/IBFE pseudocode: undefined if `offset < 0 or bits < 0 or offset + bits > 32`;
/// 0 if bits == 0; else `(value << (32 - offset - bits)) >> (32 - bits)` (IBFE: arithmetic).
/// 0xF0F0F0F0: bits 4..11 = 0x0F, bits 0..7 = 0xF0, bits 28..31 = 0xF.
#[test]
fn bitfield_extract() {
    check_rows(&[
        bits_or_undef(UBFE, &[0xF0F0_F0F0, 4, 8], 0x0F, false),
        bits_or_undef(UBFE, &[0xF0F0_F0F0, 0, 8], 0xF0, false),
        bits_or_undef(UBFE, &[0xF0F0_F0F0, 28, 4], 0xF, false),
        bits_or_undef(UBFE, &[0x1234_5678, 0, 32], 0x1234_5678, false),
        bits_or_undef(UBFE, &[0x1234_5678, 0, 0], 0, false),
        bits_or_undef(UBFE, &[0x1234_5678, 32, 0], 0, false), // offset + bits = 32 is allowed
        bits_or_undef(UBFE, &[INT_MIN, 31, 1], 1, false),
        bits_or_undef(UBFE, &[0xF0F0_F0F0, 28, 8], ANY, true), // 36 > 32
        bits_or_undef(UBFE, &[0xF0F0_F0F0, 1, 32], ANY, true),
        bits_or_undef(UBFE, &[0xF0F0_F0F0, 33, 0], ANY, true),
        bits_or_undef(UBFE, &[0xF0F0_F0F0, n(-1), 4], ANY, true),
        bits_or_undef(UBFE, &[0xF0F0_F0F0, 0, n(-1)], ANY, true),
        bits_or_undef(IBFE, &[0xF0F0_F0F0, 4, 8], 0x0F, false),
        bits_or_undef(IBFE, &[0xF0F0_F0F0, 0, 8], 0xFFFF_FFF0, false), // sign-extended from bit 7
        bits_or_undef(IBFE, &[0xF0F0_F0F0, 28, 4], UINT_MAX, false),
        bits_or_undef(IBFE, &[INT_MAX, 0, 32], INT_MAX, false),
        bits_or_undef(IBFE, &[INT_MIN, 31, 1], UINT_MAX, false),
        bits_or_undef(IBFE, &[0x1234_5678, 0, 0], 0, false),
        bits_or_undef(IBFE, &[0xF0F0_F0F0, 28, 8], ANY, true),
        bits_or_undef(IBFE, &[0xF0F0_F0F0, n(-4), 8], ANY, true),
    ]);
}

/// tgsi.rst BFI pseudocode: undefined if `offset < 0 or bits < 0 or offset + bits > 32`;
/// `mask = ((1 << bits) - 1) << offset` ("mask == ~0 when bits == 32, offset == 0");
/// `((insert << offset) & mask) | (base & ~mask)`. Sources: base, insert, offset, bits.
#[test]
fn bfi() {
    check_rows(&[
        bits_or_undef(BFI, &[0xAAAA_AAAA, UINT_MAX, 0, 32], UINT_MAX, false),
        bits_or_undef(BFI, &[0, 0xF, 4, 4], 0xF0, false),
        bits_or_undef(BFI, &[UINT_MAX, 0, 8, 8], 0xFFFF_00FF, false),
        bits_or_undef(BFI, &[0x1234_5678, 0xABCD, 32, 0], 0x1234_5678, false),
        bits_or_undef(BFI, &[0xAAAA_AAAA, 0x5, 0, 0], 0xAAAA_AAAA, false),
        bits_or_undef(BFI, &[0, 1, 31, 1], INT_MIN, false),
        bits_or_undef(BFI, &[0, 0xFF, 28, 4], 0xF000_0000, false), // insert bits above the field are dropped
        bits_or_undef(BFI, &[0xAAAA_AAAA, UINT_MAX, 0, 33], ANY, true),
        bits_or_undef(BFI, &[0xAAAA_AAAA, UINT_MAX, 28, 8], ANY, true),
        bits_or_undef(BFI, &[0xAAAA_AAAA, UINT_MAX, n(-1), 1], ANY, true),
        bits_or_undef(BFI, &[0xAAAA_AAAA, UINT_MAX, 0, n(-1)], ANY, true),
    ]);
}

/// BREV (SM5 BFREV), POPC (COUNTBITS), LSB/UMSB ("-1 if none are set"), IMSB ("highest 0 bit
/// for negative numbers, highest 1 bit for positive numbers ... -1 for 0 and -1";
/// EXEC-NOTES.md §5 [run]: IMSB(INT_MIN) = 30). BREV(0x12345678) = 0x1E6A2C48.
#[test]
fn bit_queries() {
    check_rows(&[
        bits(BREV, &[1], INT_MIN),
        bits(BREV, &[0x0000_FFFF], 0xFFFF_0000),
        bits(BREV, &[0x1234_5678], 0x1E6A_2C48),
        bits(POPC, &[0], 0),
        bits(POPC, &[UINT_MAX], 32),
        bits(POPC, &[0x8000_0001], 2),
        bits(POPC, &[0xF0F0_F0F0], 16),
        bits(LSB, &[0], n(-1)),
        bits(LSB, &[1], 0),
        bits(LSB, &[INT_MIN], 31),
        bits(LSB, &[0x0000_0C00], 10),
        bits(UMSB, &[0], n(-1)),
        bits(UMSB, &[1], 0),
        bits(UMSB, &[UINT_MAX], 31),
        bits(UMSB, &[0x0000_0C00], 11),
        bits(IMSB, &[0], n(-1)),
        bits(IMSB, &[n(-1)], n(-1)),
        bits(IMSB, &[INT_MIN], 30),
        bits(IMSB, &[1], 0),
        bits(IMSB, &[INT_MAX], 30),
        bits(IMSB, &[n(-2)], 0),
        bits(IMSB, &[0xFFFF_0000], 15),
    ]);
}

/// tgsi.rst UCMP `src0 ? src1 : src2` on the raw bits of src0 (EXEC-NOTES.md §3 [run]:
/// -0.0 = 0x80000000 and NaN are true); src1/src2 bits pass through.
#[test]
fn ucmp() {
    check_rows(&[
        bits(UCMP, &[NEG_ZERO, 0x7FC0_1234, 7], 0x7FC0_1234),
        bits(UCMP, &[0, 0x7FC0_1234, 7], 7),
        bits(UCMP, &[NAN, 1, 2], 1),
        bits(UCMP, &[1, NEG_ZERO, 2], NEG_ZERO),
    ]);
}
