//! 32-bit integer and bit opcodes of the reference ALU.
//!
//! Expected values are computed by hand from tgsi.rst "Integer ISA" / "Bitwise ISA" (formulas
//! and pseudocode quoted on each table) and EXEC-NOTES.md §5 [run] values. Operands and
//! results are 32-bit words in hex; `n(x)` is the two's-complement word of a negative number.

#![allow(clippy::needless_range_loop)] // channel loops index several arrays

mod opcodes_support;

use opcodes_support::*;
use rstest::rstest;
use shaderdiff_ir::Opcode::{self, *};

/// Two's-complement word of `x`.
const fn n(x: i32) -> u32 {
    x as u32
}

/// UADD/UMUL "the low 32bit of the result is returned"; UMAD low32(a*b) + c.
/// (2^32-1)^2 = 2^64 - 2^33 + 1 → low word 1; 0xFFFFFFFF*2 + 3 = 0x1_0000_0001 → 1.
#[rstest]
#[case(UADD, &[UINT_MAX, 1], 0)]
#[case(UADD, &[INT_MAX, 1], INT_MIN)]
#[case(UADD, &[n(-5), 3], n(-2))]
#[case(UMUL, &[UINT_MAX, UINT_MAX], 1)]
#[case(UMUL, &[0x1_0000, 0x1_0000], 0)]
#[case(UMUL, &[n(-3), 7], n(-21))]
#[case(UMAD, &[UINT_MAX, 2, 3], 1)]
#[case(UMAD, &[6, 7, n(-42)], 0)]
fn add_mul(#[case] op: Opcode, #[case] s: &[u32], #[case] want: u32) {
    check_bits(op, s, want, false);
}

/// IMUL_HI / UMUL_HI: high 32 bits of the 64-bit product. INT_MIN² = 2^62 → 0x40000000;
/// INT_MIN·2 = -2^32 → 0xFFFFFFFF; -1·1 = -1 → 0xFFFFFFFF; 2^16·2^16 = 2^32 → 1;
/// (2^32-1)² = 0xFFFFFFFE_00000001 → 0xFFFFFFFE.
#[rstest]
#[case(IMUL_HI, n(-1), n(-1), 0)]
#[case(IMUL_HI, INT_MIN, INT_MIN, 0x4000_0000)]
#[case(IMUL_HI, INT_MIN, 2, UINT_MAX)]
#[case(IMUL_HI, n(-1), 1, UINT_MAX)]
#[case(IMUL_HI, 0x1_0000, 0x1_0000, 1)]
#[case(UMUL_HI, UINT_MAX, UINT_MAX, 0xFFFF_FFFE)]
#[case(UMUL_HI, INT_MIN, 2, 1)]
#[case(UMUL_HI, 0xFFFF, 0xFFFF, 0)]
fn mul_hi(#[case] op: Opcode, #[case] a: u32, #[case] b: u32, #[case] want: u32) {
    check_bits(op, &[a, b], want, false);
}

/// IDIV `src0 / src1` truncating; division by zero "TBD" → undefined; INT_MIN / -1 = 2^31 is
/// not representable → undefined (tgsi_exec crashes, EXEC-NOTES.md §0). MOD: truncated
/// remainder with the sign of src0 (EXEC-NOTES.md §5); by zero undefined; INT_MIN mod -1 = 0
/// (the true remainder). -2^31 = -715827882·3 - 2.
#[rstest]
#[case(IDIV, 7, 2, 3, false)]
#[case(IDIV, n(-7), 2, n(-3), false)]
#[case(IDIV, 7, n(-2), n(-3), false)]
#[case(IDIV, n(-7), n(-2), 3, false)]
#[case(IDIV, INT_MIN, 1, INT_MIN, false)]
#[case(IDIV, INT_MIN, 2, 0xC000_0000, false)]
#[case(IDIV, 0, 5, 0, false)]
#[case(IDIV, 5, 0, ANY, true)]
#[case(IDIV, 0, 0, ANY, true)]
#[case(IDIV, INT_MIN, n(-1), ANY, true)]
#[case(MOD, 7, 2, 1, false)]
#[case(MOD, n(-7), 2, n(-1), false)]
#[case(MOD, 7, n(-2), 1, false)]
#[case(MOD, INT_MIN, n(-1), 0, false)]
#[case(MOD, INT_MIN, 3, n(-2), false)]
#[case(MOD, 5, 0, ANY, true)]
fn idiv_mod(
    #[case] op: Opcode,
    #[case] a: u32,
    #[case] b: u32,
    #[case] want: u32,
    #[case] u: bool,
) {
    check_bits(op, &[a, b], want, u);
}

/// UDIV/UMOD: "For division by zero, 0xffffffff is returned" / "If src1 is zero, 0xffffffff
/// is returned" — defined.
#[rstest]
#[case(UDIV, 7, 2, 3)]
#[case(UDIV, 5, 0, UINT_MAX)]
#[case(UDIV, 0, 0, UINT_MAX)]
#[case(UDIV, UINT_MAX, 1, UINT_MAX)]
#[case(UDIV, INT_MIN, UINT_MAX, 0)]
#[case(UMOD, 7, 2, 1)]
#[case(UMOD, 5, 0, UINT_MAX)]
#[case(UMOD, UINT_MAX, 0x10, 0xF)]
#[case(UMOD, INT_MIN, n(-1), INT_MIN)]
fn udiv_umod(#[case] op: Opcode, #[case] a: u32, #[case] b: u32, #[case] want: u32) {
    check_bits(op, &[a, b], want, false);
}

/// INEG two's complement, IABS |x| (INT_MIN stays INT_MIN, EXEC-NOTES.md §5), ISSG -1/0/1.
#[rstest]
#[case(INEG, 1, n(-1))]
#[case(INEG, INT_MIN, INT_MIN)]
#[case(INEG, 0, 0)]
#[case(IABS, n(-5), 5)]
#[case(IABS, 5, 5)]
#[case(IABS, INT_MIN, INT_MIN)]
#[case(ISSG, n(-5), n(-1))]
#[case(ISSG, 0, 0)]
#[case(ISSG, 7, 1)]
#[case(ISSG, INT_MIN, n(-1))]
#[case(ISSG, INT_MAX, 1)]
fn unary_int(#[case] op: Opcode, #[case] a: u32, #[case] want: u32) {
    check_bits(op, &[a], want, false);
}

/// IMAX/IMIN signed, UMAX/UMIN unsigned.
#[rstest]
#[case(IMAX, n(-1), 1, 1)]
#[case(IMAX, INT_MIN, INT_MAX, INT_MAX)]
#[case(IMIN, n(-1), 1, n(-1))]
#[case(IMIN, INT_MIN, INT_MAX, INT_MIN)]
#[case(UMAX, UINT_MAX, 1, UINT_MAX)]
#[case(UMAX, INT_MIN, INT_MAX, INT_MIN)]
#[case(UMIN, UINT_MAX, 1, 1)]
#[case(UMIN, INT_MIN, INT_MAX, INT_MAX)]
fn min_max_int(#[case] op: Opcode, #[case] a: u32, #[case] b: u32, #[case] want: u32) {
    check_bits(op, &[a, b], want, false);
}

/// ISGE ISLT (signed), USEQ USNE USGE USLT (unsigned): `cond ? ~0 : 0`.
#[rstest]
#[case(ISGE, n(-1), 1, 0)]
#[case(ISGE, 1, 1, TRUE)]
#[case(ISGE, INT_MAX, INT_MIN, TRUE)]
#[case(ISLT, n(-1), 1, TRUE)]
#[case(ISLT, 1, 1, 0)]
#[case(USGE, UINT_MAX, 1, TRUE)]
#[case(USGE, 1, 2, 0)]
#[case(USLT, UINT_MAX, 1, 0)]
#[case(USLT, 1, INT_MIN, TRUE)]
#[case(USEQ, INT_MIN, INT_MIN, TRUE)]
#[case(USEQ, NEG_ZERO, ZERO, 0)] // bit compare: -0.0 ≠ +0.0
#[case(USNE, NEG_ZERO, ZERO, TRUE)]
#[case(USNE, 5, 5, 0)]
fn set_int(#[case] op: Opcode, #[case] a: u32, #[case] b: u32, #[case] want: u32) {
    check_bits(op, &[a, b], want, false);
}

/// NOT AND OR XOR: bitwise.
#[rstest]
#[case(NOT, &[0], UINT_MAX)]
#[case(NOT, &[0xF0F0_F0F0], 0x0F0F_0F0F)]
#[case(AND, &[0xFF00_FF00, 0x0FF0_0FF0], 0x0F00_0F00)]
#[case(OR, &[0xFF00_FF00, 0x0FF0_0FF0], 0xFFF0_FFF0)]
#[case(XOR, &[0xFF00_FF00, 0x0FF0_0FF0], 0xF0F0_F0F0)]
#[case(XOR, &[UINT_MAX, UINT_MAX], 0)]
fn bitwise(#[case] op: Opcode, #[case] s: &[u32], #[case] want: u32) {
    check_bits(op, s, want, false);
}

/// SHL/ISHR/USHR: "The shift count is masked with 0x1f". EXEC-NOTES.md §5 [run]:
/// SHL(1, 33) = 2, SHL(1, 32) = 1, ISHR(-8, 33) = -4, USHR(0xFFFFFFF8, 31) = 1.
#[rstest]
#[case(SHL, 1, 0, 1)]
#[case(SHL, 1, 31, INT_MIN)]
#[case(SHL, 1, 32, 1)] // 32 & 31 = 0
#[case(SHL, 1, 33, 2)]
#[case(SHL, 1, n(-1), INT_MIN)] // 0xFFFFFFFF & 31 = 31
#[case(SHL, UINT_MAX, 4, 0xFFFF_FFF0)]
#[case(USHR, 0xFFFF_FFF8, 31, 1)]
#[case(USHR, INT_MIN, 32, INT_MIN)]
#[case(USHR, INT_MIN, 0, INT_MIN)]
#[case(USHR, UINT_MAX, 4, 0x0FFF_FFFF)]
#[case(ISHR, n(-8), 33, n(-4))]
#[case(ISHR, INT_MIN, 31, UINT_MAX)]
#[case(ISHR, n(-1), 0, n(-1))]
#[case(ISHR, INT_MAX, 32, INT_MAX)]
#[case(ISHR, 0x4000_0000, 30, 1)]
fn shifts(#[case] op: Opcode, #[case] a: u32, #[case] count: u32, #[case] want: u32) {
    check_bits(op, &[a, count], want, false);
}

/// tgsi.rst UBFE/IBFE pseudocode: undefined if `offset < 0 or bits < 0 or offset + bits > 32`;
/// 0 if bits == 0; else `(value << (32 - offset - bits)) >> (32 - bits)` (IBFE: arithmetic).
/// 0xF0F0F0F0: bits 4..11 = 0x0F, bits 0..7 = 0xF0, bits 28..31 = 0xF.
#[rstest]
#[case(UBFE, 0xF0F0_F0F0, 4, 8, 0x0F, false)]
#[case(UBFE, 0xF0F0_F0F0, 0, 8, 0xF0, false)]
#[case(UBFE, 0xF0F0_F0F0, 28, 4, 0xF, false)]
#[case(UBFE, 0x1234_5678, 0, 32, 0x1234_5678, false)]
#[case(UBFE, 0x1234_5678, 0, 0, 0, false)]
#[case(UBFE, 0x1234_5678, 32, 0, 0, false)] // offset + bits = 32 is allowed
#[case(UBFE, INT_MIN, 31, 1, 1, false)]
#[case(UBFE, 0xF0F0_F0F0, 28, 8, ANY, true)] // 36 > 32
#[case(UBFE, 0xF0F0_F0F0, 1, 32, ANY, true)]
#[case(UBFE, 0xF0F0_F0F0, 33, 0, ANY, true)]
#[case(UBFE, 0xF0F0_F0F0, n(-1), 4, ANY, true)]
#[case(UBFE, 0xF0F0_F0F0, 0, n(-1), ANY, true)]
#[case(IBFE, 0xF0F0_F0F0, 4, 8, 0x0F, false)]
#[case(IBFE, 0xF0F0_F0F0, 0, 8, 0xFFFF_FFF0, false)] // sign-extended from bit 7
#[case(IBFE, 0xF0F0_F0F0, 28, 4, UINT_MAX, false)]
#[case(IBFE, INT_MAX, 0, 32, INT_MAX, false)]
#[case(IBFE, INT_MIN, 31, 1, UINT_MAX, false)]
#[case(IBFE, 0x1234_5678, 0, 0, 0, false)]
#[case(IBFE, 0xF0F0_F0F0, 28, 8, ANY, true)]
#[case(IBFE, 0xF0F0_F0F0, n(-4), 8, ANY, true)]
fn bitfield_extract(
    #[case] op: Opcode,
    #[case] v: u32,
    #[case] offset: u32,
    #[case] bits: u32,
    #[case] want: u32,
    #[case] u: bool,
) {
    check_bits(op, &[v, offset, bits], want, u);
}

/// tgsi.rst BFI pseudocode: undefined if `offset < 0 or bits < 0 or offset + bits > 32`;
/// `mask = ((1 << bits) - 1) << offset` ("mask == ~0 when bits == 32, offset == 0");
/// `((insert << offset) & mask) | (base & ~mask)`.
#[rstest]
#[case(0xAAAA_AAAA, UINT_MAX, 0, 32, UINT_MAX, false)]
#[case(0, 0xF, 4, 4, 0xF0, false)]
#[case(UINT_MAX, 0, 8, 8, 0xFFFF_00FF, false)]
#[case(0x1234_5678, 0xABCD, 32, 0, 0x1234_5678, false)]
#[case(0xAAAA_AAAA, 0x5, 0, 0, 0xAAAA_AAAA, false)]
#[case(0, 1, 31, 1, INT_MIN, false)]
#[case(0, 0xFF, 28, 4, 0xF000_0000, false)] // insert bits above the field are dropped
#[case(0xAAAA_AAAA, UINT_MAX, 0, 33, ANY, true)]
#[case(0xAAAA_AAAA, UINT_MAX, 28, 8, ANY, true)]
#[case(0xAAAA_AAAA, UINT_MAX, n(-1), 1, ANY, true)]
#[case(0xAAAA_AAAA, UINT_MAX, 0, n(-1), ANY, true)]
fn bfi(
    #[case] base: u32,
    #[case] insert: u32,
    #[case] offset: u32,
    #[case] bits: u32,
    #[case] want: u32,
    #[case] u: bool,
) {
    check_bits(BFI, &[base, insert, offset, bits], want, u);
}

/// BREV (SM5 BFREV), POPC (COUNTBITS), LSB/UMSB ("-1 if none are set"), IMSB ("highest 0 bit
/// for negative numbers, highest 1 bit for positive numbers ... -1 for 0 and -1";
/// EXEC-NOTES.md §5 [run]: IMSB(INT_MIN) = 30). BREV(0x12345678) = 0x1E6A2C48.
#[rstest]
#[case(BREV, 1, INT_MIN)]
#[case(BREV, 0x0000_FFFF, 0xFFFF_0000)]
#[case(BREV, 0x1234_5678, 0x1E6A_2C48)]
#[case(POPC, 0, 0)]
#[case(POPC, UINT_MAX, 32)]
#[case(POPC, 0x8000_0001, 2)]
#[case(POPC, 0xF0F0_F0F0, 16)]
#[case(LSB, 0, n(-1))]
#[case(LSB, 1, 0)]
#[case(LSB, INT_MIN, 31)]
#[case(LSB, 0x0000_0C00, 10)]
#[case(UMSB, 0, n(-1))]
#[case(UMSB, 1, 0)]
#[case(UMSB, UINT_MAX, 31)]
#[case(UMSB, 0x0000_0C00, 11)]
#[case(IMSB, 0, n(-1))]
#[case(IMSB, n(-1), n(-1))]
#[case(IMSB, INT_MIN, 30)]
#[case(IMSB, 1, 0)]
#[case(IMSB, INT_MAX, 30)]
#[case(IMSB, n(-2), 0)]
#[case(IMSB, 0xFFFF_0000, 15)]
fn bit_queries(#[case] op: Opcode, #[case] a: u32, #[case] want: u32) {
    check_bits(op, &[a], want, false);
}

/// tgsi.rst UCMP `src0 ? src1 : src2` on the raw bits of src0 (EXEC-NOTES.md §3 [run]:
/// -0.0 = 0x80000000 and NaN are true); src1/src2 bits pass through.
#[rstest]
#[case(NEG_ZERO, 0x7FC0_1234, 7, 0x7FC0_1234)]
#[case(0, 0x7FC0_1234, 7, 7)]
#[case(NAN, 1, 2, 1)]
#[case(1, NEG_ZERO, 2, NEG_ZERO)]
fn ucmp(#[case] a: u32, #[case] b: u32, #[case] c: u32, #[case] want: u32) {
    check_bits(UCMP, &[a, b, c], want, false);
}
