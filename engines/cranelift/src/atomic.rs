//! The jit's own atomic arithmetic: what a location holds after an atomic and what the
//! instruction returns, for the runtime call `shaderdiff_atomic` (`crate::memory`).
//!
//! Written from the specifications, not shared with the oracle, so that running the jit
//! against the oracle can catch a wrong formula in either:
//!
//! * tgsi.rst "Atomic opcodes": `dst_x = resource[offset]` and the new value
//!   `resource[offset] = f(dst_x, src_x)` of each opcode. ATOMCAS stores `src` when the old
//!   value equals `cmp`; ATOMIMIN/ATOMIMAX compare as two's-complement integers,
//!   ATOMUMIN/ATOMUMAX as unsigned ones; ATOMINC_WRAP returns and compares `old + 1`
//!   (its formula's `dst_x = resource[offset] + 1`), ATOMDEC_WRAP stores `old - 1` when
//!   `0 < old < src` and 0 otherwise.
//! * NV_shader_atomic_int64 and NV_shader_atomic_float64: the same operations on 64-bit
//!   locations ([`AtomicWidth::W64`]); ATOMFADD is an IEEE binary32 (binary64) addition,
//!   rounded to nearest even.
//!
//! Operands wider than the location are cut to its width first; results never carry bits
//! above it.

use shaderdiff_model::atomic::{AtomicOp, AtomicWidth};

use crate::faults::Fault;

/// `v` cut to `width` bits.
fn cut(width: AtomicWidth, v: u64) -> u64 {
    match width {
        AtomicWidth::W32 => v & u64::from(u32::MAX),
        AtomicWidth::W64 => v,
    }
}

/// `v` (already cut) read as a two's-complement integer of `width` bits.
fn signed(width: AtomicWidth, v: u64) -> i64 {
    match width {
        AtomicWidth::W32 => i64::from(v as u32 as i32),
        AtomicWidth::W64 => v as i64,
    }
}

/// IEEE addition of two `width`-bit floating-point encodings.
fn float_add(width: AtomicWidth, a: u64, b: u64) -> u64 {
    match width {
        AtomicWidth::W32 => {
            let sum = f32::from_bits(a as u32) + f32::from_bits(b as u32);
            u64::from(sum.to_bits())
        }
        AtomicWidth::W64 => (f64::from_bits(a) + f64::from_bits(b)).to_bits(),
    }
}

/// The value the location holds after `op` when it held `old` (tgsi.rst's
/// `resource[offset] = ...`). `src` is the data operand, `cmp` ATOMCAS's compare operand
/// (ignored by the other operations). `fault`: the catalogued fault switched on, if any
/// (`atomic-imax-unsigned` compares ATOMIMAX's operands as unsigned integers).
pub(crate) fn stored(
    op: AtomicOp,
    width: AtomicWidth,
    old: u64,
    src: u64,
    cmp: u64,
    fault: Option<Fault>,
) -> u64 {
    let (old, src, cmp) = (cut(width, old), cut(width, src), cut(width, cmp));
    let new = match op {
        AtomicOp::Add => old.wrapping_add(src),
        AtomicOp::FAdd => float_add(width, old, src),
        AtomicOp::Xchg => src,
        AtomicOp::CmpXchg if old == cmp => src,
        AtomicOp::CmpXchg => old,
        AtomicOp::And => old & src,
        AtomicOp::Or => old | src,
        AtomicOp::Xor => old ^ src,
        AtomicOp::UMin => old.min(src),
        AtomicOp::UMax => old.max(src),
        AtomicOp::IMin if signed(width, old) < signed(width, src) => old,
        AtomicOp::IMin => src,
        // FAULT HOOK `atomic-imax-unsigned`: the comparison of ATOMUMAX.
        AtomicOp::IMax if fault == Some(Fault::AtomicImaxUnsigned) => old.max(src),
        AtomicOp::IMax if signed(width, old) > signed(width, src) => old,
        AtomicOp::IMax => src,
        AtomicOp::IncWrap => {
            let next = cut(width, old.wrapping_add(1));
            if next <= src {
                next
            } else {
                0
            }
        }
        AtomicOp::DecWrap if old > 0 && old < src => old - 1,
        AtomicOp::DecWrap => 0,
    };
    cut(width, new)
}

/// What the instruction writes to its destination when the location held `old`:
/// `dst_x = resource[offset]`, except ATOMINC_WRAP's `resource[offset] + 1` (wrapping at the
/// location's width).
pub(crate) fn returned(op: AtomicOp, width: AtomicWidth, old: u64) -> u64 {
    match op {
        AtomicOp::IncWrap => cut(width, old.wrapping_add(1)),
        _ => cut(width, old),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use AtomicWidth::{W32, W64};

    fn s32(op: AtomicOp, old: u64, src: u64) -> u64 {
        stored(op, W32, old, src, 0, None)
    }

    // Every expected value below is the opcode's tgsi.rst formula worked by hand.
    #[test]
    fn integer_formulas() {
        assert_eq!(s32(AtomicOp::Add, 0xffff_fffe, 3), 1);
        assert_eq!(s32(AtomicOp::Xchg, 7, 0x1234), 0x1234);
        assert_eq!(s32(AtomicOp::And, 0xf0f0, 0xff00), 0xf000);
        assert_eq!(s32(AtomicOp::Or, 0xf0f0, 0x0f00), 0xfff0);
        assert_eq!(s32(AtomicOp::Xor, 0xf0f0, 0xff00), 0x0ff0);
        // -1 is the largest unsigned value and the smallest of these signed ones.
        assert_eq!(s32(AtomicOp::UMin, 0xffff_ffff, 2), 2);
        assert_eq!(s32(AtomicOp::UMax, 0xffff_ffff, 2), 0xffff_ffff);
        assert_eq!(s32(AtomicOp::IMin, 0xffff_ffff, 2), 0xffff_ffff);
        assert_eq!(s32(AtomicOp::IMax, 0xffff_ffff, 2), 2);
        assert_eq!(s32(AtomicOp::IMax, 0x8000_0000, 0x7fff_ffff), 0x7fff_ffff);
    }

    #[test]
    fn compare_and_exchange_stores_src_on_a_match_only() {
        assert_eq!(stored(AtomicOp::CmpXchg, W32, 5, 9, 5, None), 9);
        assert_eq!(stored(AtomicOp::CmpXchg, W32, 5, 9, 6, None), 5);
    }

    #[test]
    fn wrapping_counters() {
        // ATOMINC_WRAP with src 2: 0 -> 1 -> 2 -> 0; the instruction returns old + 1.
        assert_eq!(s32(AtomicOp::IncWrap, 0, 2), 1);
        assert_eq!(s32(AtomicOp::IncWrap, 1, 2), 2);
        assert_eq!(s32(AtomicOp::IncWrap, 2, 2), 0);
        assert_eq!(returned(AtomicOp::IncWrap, W32, 2), 3);
        assert_eq!(returned(AtomicOp::IncWrap, W32, 0xffff_ffff), 0);
        // ATOMDEC_WRAP with src 3: 2 -> 1 -> 0, 0 stays 0, 3 (not below src) becomes 0.
        assert_eq!(s32(AtomicOp::DecWrap, 2, 3), 1);
        assert_eq!(s32(AtomicOp::DecWrap, 0, 3), 0);
        assert_eq!(s32(AtomicOp::DecWrap, 3, 3), 0);
        assert_eq!(returned(AtomicOp::DecWrap, W32, 3), 3);
    }

    #[test]
    fn float_addition_rounds_to_nearest_even() {
        let f = |x: f32| u64::from(x.to_bits());
        assert_eq!(s32(AtomicOp::FAdd, f(1.5), f(2.25)), f(3.75));
        // 1 + 2^-24 is a tie between 1 and 1 + 2^-23: even gives 1.
        assert_eq!(s32(AtomicOp::FAdd, f(1.0), f(2f32.powi(-24))), f(1.0));
        let d = |x: f64| x.to_bits();
        assert_eq!(
            stored(AtomicOp::FAdd, W64, d(0.1), d(0.2), 0, None),
            d(0.30000000000000004)
        );
    }

    #[test]
    fn wide_locations_use_all_64_bits() {
        // NV_shader_atomic_int64: the same formulas on 64-bit values.
        assert_eq!(stored(AtomicOp::Add, W64, u64::MAX, 2, 0, None), 1);
        assert_eq!(stored(AtomicOp::IMax, W64, u64::MAX, 1, 0, None), 1);
        assert_eq!(stored(AtomicOp::IMin, W64, 1 << 63, 0, 0, None), 1 << 63);
        assert_eq!(stored(AtomicOp::UMax, W64, 1 << 63, 0, 0, None), 1 << 63);
        // A 32-bit location ignores the high bits of its operands.
        assert_eq!(stored(AtomicOp::Add, W32, 1, 0x1_0000_0001, 0, None), 2);
    }

    #[test]
    fn the_catalogued_fault_changes_signed_max_only() {
        let faulty = |op, old, src| stored(op, W32, old, src, 0, Some(Fault::AtomicImaxUnsigned));
        // -1 against 2: tgsi.rst's signed maximum is 2; the fault keeps 0xffffffff.
        assert_eq!(faulty(AtomicOp::IMax, 0xffff_ffff, 2), 0xffff_ffff);
        assert_eq!(faulty(AtomicOp::IMin, 0xffff_ffff, 2), 0xffff_ffff);
        assert_eq!(faulty(AtomicOp::UMax, 1, 2), 2);
    }
}
