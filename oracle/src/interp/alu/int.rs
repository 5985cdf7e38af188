//! 32-bit integer and bit opcodes (tgsi.rst "Integer ISA" and "Bitwise ISA"): one scalar
//! function per opcode. All arithmetic wraps (no overflow panics) and division never traps:
//! zero divisors and INT_MIN / -1 are handled here (EXEC-NOTES.md §0: tgsi_exec crashes on
//! INT_MIN / -1, a bug the reference does not copy).

use super::kernel::{all_ones_if, Checked};

/// UADD — "works the same for signed and unsigned integers. The low 32bit of the result is
/// returned": `src0 + src1` mod 2^32.
#[inline(always)]
pub fn uadd(a: u32, b: u32) -> u32 {
    a.wrapping_add(b)
}

/// UMUL — low 32 bits of `src0 * src1`.
#[inline(always)]
pub fn umul(a: u32, b: u32) -> u32 {
    a.wrapping_mul(b)
}

/// UMAD — `src0 * src1 + src2`, "the multiplication returns the low 32bit (as does the result
/// itself)".
#[inline(always)]
pub fn umad(a: u32, b: u32, c: u32) -> u32 {
    a.wrapping_mul(b).wrapping_add(c)
}

/// IMUL_HI — high 32 bits of the signed 64-bit product `src0 * src1`.
#[inline(always)]
pub fn imul_hi(a: i32, b: i32) -> i32 {
    ((a as i64 * b as i64) >> 32) as i32
}

/// UMUL_HI — high 32 bits of the unsigned 64-bit product `src0 * src1`.
#[inline(always)]
pub fn umul_hi(a: u32, b: u32) -> u32 {
    ((a as u64 * b as u64) >> 32) as u32
}

/// IDIV — `src0 / src1`, truncating toward zero. Division by zero is undefined ("TBD:
/// behavior for division by zero"; tgsi_exec gives 0, which is stored). INT_MIN / -1 = 2^31 is
/// not representable: undefined (the doc, unlike UADD/UMUL, does not say the result wraps;
/// tgsi_exec crashes); INT_MIN is stored.
#[inline(always)]
pub fn idiv(a: i32, b: i32) -> Checked<i32> {
    if b == 0 {
        return Checked::new(0, true);
    }
    Checked::new(a.wrapping_div(b), a == i32::MIN && b == -1)
}

/// MOD — Compute ISA `src0 mod src1` on signed integers. The doc does not say which sign the
/// remainder takes; like tgsi_exec (EXEC-NOTES.md §5) it is the truncated remainder, with the
/// sign of src0 (MOD(-7, 2) = -1). MOD by zero is undefined (the doc is silent; tgsi_exec
/// gives -1, which is stored). INT_MIN mod -1 = 0 is defined (tgsi_exec crashes).
#[inline(always)]
pub fn imod(a: i32, b: i32) -> Checked<i32> {
    if b == 0 {
        return Checked::new(-1, true);
    }
    Checked::ok(a.wrapping_rem(b))
}

/// UDIV — `src0 / src1`; "For division by zero, 0xffffffff is returned".
#[inline(always)]
pub fn udiv(a: u32, b: u32) -> u32 {
    a.checked_div(b).unwrap_or(u32::MAX)
}

/// UMOD — `src0 mod src1`; "If src1 is zero, 0xffffffff is returned".
#[inline(always)]
pub fn umod(a: u32, b: u32) -> u32 {
    a.checked_rem(b).unwrap_or(u32::MAX)
}

/// INEG — "Two's complement" `-src` (INEG(INT_MIN) = INT_MIN).
#[inline(always)]
pub fn ineg(a: i32) -> i32 {
    a.wrapping_neg()
}

/// IABS — `|src|` in two's complement: IABS(INT_MIN) = INT_MIN (0x80000000, which is 2^31 when
/// read as unsigned; EXEC-NOTES.md §5).
#[inline(always)]
pub fn iabs(a: i32) -> i32 {
    a.wrapping_abs()
}

/// ISSG — `(src < 0) ? -1 : (src > 0) ? 1 : 0`.
#[inline(always)]
pub fn issg(a: i32) -> i32 {
    a.signum()
}

/// IMAX — signed `max(src0, src1)`.
#[inline(always)]
pub fn imax(a: i32, b: i32) -> i32 {
    a.max(b)
}

/// IMIN — signed `min(src0, src1)`.
#[inline(always)]
pub fn imin(a: i32, b: i32) -> i32 {
    a.min(b)
}

/// UMAX — unsigned `max(src0, src1)`.
#[inline(always)]
pub fn umax(a: u32, b: u32) -> u32 {
    a.max(b)
}

/// UMIN — unsigned `min(src0, src1)`.
#[inline(always)]
pub fn umin(a: u32, b: u32) -> u32 {
    a.min(b)
}

/// ISGE — signed `(src0 >= src1) ? ~0 : 0`.
#[inline(always)]
pub fn isge(a: i32, b: i32) -> u32 {
    all_ones_if(a >= b)
}

/// ISLT — signed `(src0 < src1) ? ~0 : 0`.
#[inline(always)]
pub fn islt(a: i32, b: i32) -> u32 {
    all_ones_if(a < b)
}

/// USEQ — `(src0 == src1) ? ~0 : 0`.
#[inline(always)]
pub fn useq(a: u32, b: u32) -> u32 {
    all_ones_if(a == b)
}

/// USNE — `(src0 != src1) ? ~0 : 0`.
#[inline(always)]
pub fn usne(a: u32, b: u32) -> u32 {
    all_ones_if(a != b)
}

/// USGE — unsigned `(src0 >= src1) ? ~0 : 0`.
#[inline(always)]
pub fn usge(a: u32, b: u32) -> u32 {
    all_ones_if(a >= b)
}

/// USLT — unsigned `(src0 < src1) ? ~0 : 0`.
#[inline(always)]
pub fn uslt(a: u32, b: u32) -> u32 {
    all_ones_if(a < b)
}

/// NOT — bitwise `~src`.
#[inline(always)]
pub fn not(a: u32) -> u32 {
    !a
}

/// AND — bitwise `src0 & src1`.
#[inline(always)]
pub fn and(a: u32, b: u32) -> u32 {
    a & b
}

/// OR — bitwise `src0 | src1`.
#[inline(always)]
pub fn or(a: u32, b: u32) -> u32 {
    a | b
}

/// XOR — bitwise `src0 ^ src1`.
#[inline(always)]
pub fn xor(a: u32, b: u32) -> u32 {
    a ^ b
}

/// SHL — `src0 << (0x1f & src1)`: "The shift count is masked with 0x1f".
#[inline(always)]
pub fn shl(a: u32, n: u32) -> u32 {
    a << (n & 0x1f)
}

/// USHR — logical `src0 >> (0x1f & src1)`.
#[inline(always)]
pub fn ushr(a: u32, n: u32) -> u32 {
    a >> (n & 0x1f)
}

/// ISHR — arithmetic `src0 >> (0x1f & src1)`.
#[inline(always)]
pub fn ishr(a: i32, n: i32) -> i32 {
    a >> (n & 0x1f)
}

/// UCMP — `src0 ? src1 : src2`: any non-zero bit pattern of src0 (fetched as an integer,
/// EXEC-NOTES.md §1, so -0.0 and NaN are true) selects src1. Bits pass through.
#[inline(always)]
pub fn ucmp(a: u32, b: u32, c: u32) -> u32 {
    if a != 0 {
        b
    } else {
        c
    }
}

/// Whether the bitfield `(offset, bits)` is undefined for IBFE/UBFE/BFI: Bitwise ISA
/// pseudocode `offset < 0 or bits < 0 or offset + bits > 32` (operands as signed integers).
#[inline(always)]
fn bad_field(offset: i32, bits: i32) -> bool {
    offset < 0 || bits < 0 || offset as i64 + bits as i64 > 32
}

/// UBFE — Bitwise ISA `ubfe(value, offset, bits)`: undefined if `offset < 0 or bits < 0 or
/// offset + bits > 32` (0 stored); 0 if `bits == 0`; else
/// `(value << (32 - offset - bits)) >> (32 - bits)` with a logical right shift.
/// Deviates from tgsi_exec, which defines those cases its own way (EXEC-NOTES.md §5).
#[inline(always)]
pub fn ubfe(value: u32, offset: i32, bits: i32) -> Checked<u32> {
    if bad_field(offset, bits) {
        return Checked::new(0, true);
    }
    if bits == 0 {
        return Checked::ok(0);
    }
    Checked::ok((value << (32 - offset - bits)) >> (32 - bits))
}

/// IBFE — Bitwise ISA `ibfe(value, offset, bits)`: as [`ubfe`] but the right shift is
/// arithmetic, sign-extending from the field's top bit.
#[inline(always)]
pub fn ibfe(value: i32, offset: i32, bits: i32) -> Checked<i32> {
    if bad_field(offset, bits) {
        return Checked::new(0, true);
    }
    if bits == 0 {
        return Checked::ok(0);
    }
    Checked::ok((value << (32 - offset - bits)) >> (32 - bits))
}

/// BFI — Bitwise ISA `bfi(base, insert, offset, bits)`: undefined if `offset < 0 or bits < 0 or
/// offset + bits > 32` (base stored); else `mask = ((1 << bits) - 1) << offset` (all ones for
/// bits = 32, offset = 0, as the doc requires; computed in 64 bits) and
/// `((insert << offset) & mask) | (base & ~mask)`.
#[inline(always)]
pub fn bfi(base: u32, insert: u32, offset: u32, bits: u32) -> Checked<u32> {
    let (o, b) = (offset as i32, bits as i32);
    if bad_field(o, b) {
        return Checked::new(base, true);
    }
    let mask = (((1u64 << b) - 1) << o) as u32;
    let ins = ((insert as u64) << o) as u32;
    Checked::ok((ins & mask) | (base & !mask))
}

/// BREV — reverses the bits (SM5 BFREV).
#[inline(always)]
pub fn brev(a: u32) -> u32 {
    a.reverse_bits()
}

/// POPC — number of set bits (SM5 COUNTBITS).
#[inline(always)]
pub fn popc(a: u32) -> u32 {
    a.count_ones()
}

/// LSB — "0-based index of the first set bit ... Returns -1 if none are set".
#[inline(always)]
pub fn lsb(a: u32) -> i32 {
    if a == 0 {
        -1
    } else {
        a.trailing_zeros() as i32
    }
}

/// UMSB — "0-based index of the highest set bit ... Returns -1 if none are set".
#[inline(always)]
pub fn umsb(a: u32) -> i32 {
    31 - a.leading_zeros() as i32
}

/// IMSB — "index of the highest non-sign bit (i.e. highest 0 bit for negative numbers, highest
/// 1 bit for positive numbers). Returns -1 if all bits are the same" (IMSB(INT_MIN) = 30).
#[inline(always)]
pub fn imsb(a: i32) -> i32 {
    let v = if a < 0 { !a } else { a };
    umsb(v as u32)
}
