//! Atomic read-modify-write semantics, the oracle's: what a location holds after an atomic
//! and what the instruction returns (the operations and records themselves are the model's,
//! `shaderdiff_model::atomic`, re-exported here).
//!
//! Source: tgsi.rst "Atomic opcodes" (each opcode's `dst_x = resource[offset]; resource[offset]
//! = f(dst_x, src_x)` formula); EXEC-NOTES.md §7 for what the doc leaves open (signed versus
//! unsigned comparison, ATOMCAS operand order: compare with `src2`, store `src3`). The
//! NV_shader_atomic_int64 / NV_shader_atomic_float(64) forms use the same functions with
//! [`AtomicWidth::W64`].
//!
//! An atomic is modelled as a transition of one memory location from the value it held
//! before (`old`) to [`AtomicSemantics::apply`]`(old, src, cmp)`; what the instruction
//! returns in its destination register is [`AtomicSemantics::returned`]`(old)`. Both are
//! pure functions of `old`, which is what lets the comparator decide serializability from
//! the `old` values an engine observed.

pub use shaderdiff_model::atomic::*;

/// The oracle's arithmetic of an [`AtomicOp`] (tgsi.rst "Atomic opcodes").
pub trait AtomicSemantics {
    /// The location's new value when it held `old` (see the implementation for [`AtomicOp`]).
    fn apply(self, width: AtomicWidth, old: u64, src: u64, cmp: u64) -> u64;
    /// What the instruction writes to its destination when the location held `old`.
    fn returned(self, width: AtomicWidth, old: u64) -> u64;
}

impl AtomicSemantics for AtomicOp {
    /// The location's new value when it held `old`: tgsi.rst's `resource[offset] = ...`
    /// formula of the opcode. `src` is the data operand (`src_x`), `cmp` ATOMCAS's compare
    /// operand (ignored by the other operations). Values are `width` bits wide (higher bits
    /// of the arguments are ignored; the result has none).
    fn apply(self, width: AtomicWidth, old: u64, src: u64, cmp: u64) -> u64 {
        let m = width.mask();
        let (old, src, cmp) = (old & m, src & m, cmp & m);
        let signed = |v: u64| match width {
            AtomicWidth::W32 => v as u32 as i32 as i64,
            AtomicWidth::W64 => v as i64,
        };
        let r = match self {
            AtomicOp::Add => old.wrapping_add(src),
            AtomicOp::FAdd => match width {
                AtomicWidth::W32 => {
                    (f32::from_bits(old as u32) + f32::from_bits(src as u32)).to_bits() as u64
                }
                AtomicWidth::W64 => (f64::from_bits(old) + f64::from_bits(src)).to_bits(),
            },
            AtomicOp::Xchg => src,
            AtomicOp::CmpXchg => {
                if old == cmp {
                    src
                } else {
                    old
                }
            }
            AtomicOp::And => old & src,
            AtomicOp::Or => old | src,
            AtomicOp::Xor => old ^ src,
            AtomicOp::UMin => old.min(src),
            AtomicOp::UMax => old.max(src),
            AtomicOp::IMin => {
                if signed(old) < signed(src) {
                    old
                } else {
                    src
                }
            }
            AtomicOp::IMax => {
                if signed(old) > signed(src) {
                    old
                } else {
                    src
                }
            }
            AtomicOp::IncWrap => {
                let next = old.wrapping_add(1) & m;
                if next <= src {
                    next
                } else {
                    0
                }
            }
            AtomicOp::DecWrap => {
                if old > 0 && old < src {
                    old - 1
                } else {
                    0
                }
            }
        };
        r & m
    }

    /// What the instruction writes to its destination when the location held `old`.
    ///
    /// tgsi.rst gives `dst_x = resource[offset]` for every atomic except ATOMINC_WRAP, whose
    /// formula reads `dst_x = resource[offset] + 1`. That line is the spec's only statement
    /// of the returned value and is followed here (authority 1), wrapping like the store; the
    /// location's transition is the same under either reading. GLSL's `atomicCounterIncrement`
    /// style (returning the old value) is what NIR-based drivers do, so an engine following
    /// them differs on ATOMINC_WRAP destinations only: this function is the one place to
    /// change should the doc be corrected.
    fn returned(self, width: AtomicWidth, old: u64) -> u64 {
        match self {
            AtomicOp::IncWrap => old.wrapping_add(1) & width.mask(),
            _ => old & width.mask(),
        }
    }
}

/// The value an [`AtomicRecord`] leaves in its location.
pub trait AtomicTransition {
    /// [`AtomicSemantics::apply`] of the record's operation to its `old` value.
    fn new_value(&self) -> u64;
}

impl AtomicTransition for AtomicRecord {
    fn new_value(&self) -> u64 {
        self.op
            .apply(self.location.width, self.old, self.src, self.cmp)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use AtomicWidth::{W32, W64};

    // Expected values: tgsi.rst "Atomic opcodes" formulas evaluated by hand.
    #[test]
    fn formulas_of_tgsi_rst() {
        assert_eq!(AtomicOp::Add.apply(W32, 0xffff_ffff, 2, 0), 1);
        assert_eq!(AtomicOp::Xchg.apply(W32, 5, 9, 0), 9);
        assert_eq!(AtomicOp::CmpXchg.apply(W32, 5, 9, 5), 9);
        assert_eq!(AtomicOp::CmpXchg.apply(W32, 5, 9, 4), 5);
        assert_eq!(AtomicOp::And.apply(W32, 0b1100, 0b1010, 0), 0b1000);
        assert_eq!(AtomicOp::Or.apply(W32, 0b1100, 0b1010, 0), 0b1110);
        assert_eq!(AtomicOp::Xor.apply(W32, 0b1100, 0b1010, 0), 0b0110);
        // -1 (0xffffffff) versus 1: unsigned min is 1, signed min is -1.
        assert_eq!(AtomicOp::UMin.apply(W32, 0xffff_ffff, 1, 0), 1);
        assert_eq!(AtomicOp::UMax.apply(W32, 0xffff_ffff, 1, 0), 0xffff_ffff);
        assert_eq!(AtomicOp::IMin.apply(W32, 0xffff_ffff, 1, 0), 0xffff_ffff);
        assert_eq!(AtomicOp::IMax.apply(W32, 0xffff_ffff, 1, 0), 1);
        assert_eq!(AtomicOp::IMax.apply(W64, u64::MAX, 1, 0), 1);
        assert_eq!(AtomicOp::IMin.apply(W64, 1 << 63, 0, 0), 1 << 63);
        // 1.5 + 2.25 = 3.75 (0x40700000).
        assert_eq!(
            AtomicOp::FAdd.apply(W32, 0x3fc0_0000, 0x4010_0000, 0),
            0x4070_0000
        );
        assert_eq!(
            AtomicOp::FAdd.apply(W64, 1.5f64.to_bits(), 2.25f64.to_bits(), 0),
            3.75f64.to_bits()
        );
    }

    #[test]
    fn wrap_counters() {
        // INC_WRAP with src 3: 0 -> 1 -> 2 -> 3 -> 0.
        let seq: Vec<u64> = (0..4)
            .map(|m| AtomicOp::IncWrap.apply(W32, m, 3, 0))
            .collect();
        assert_eq!(seq, [1, 2, 3, 0]);
        assert_eq!(AtomicOp::IncWrap.apply(W32, 0xffff_ffff, 7, 0), 0);
        assert_eq!(AtomicOp::IncWrap.returned(W32, 4), 5);
        // DEC_WRAP with src 3: 2 -> 1 -> 0 -> 0; 3 and above -> 0 ("otherwise").
        let seq: Vec<u64> = (0..5)
            .map(|m| AtomicOp::DecWrap.apply(W32, m, 3, 0))
            .collect();
        assert_eq!(seq, [0, 0, 1, 0, 0]);
        assert_eq!(AtomicOp::DecWrap.returned(W32, 4), 4);
    }

    #[test]
    fn commutation_claims_hold() {
        let vals = [0u64, 1, 5, 0x7fff_ffff, 0x8000_0000, 0xffff_ffff];
        for op in [
            AtomicOp::Add,
            AtomicOp::And,
            AtomicOp::Or,
            AtomicOp::Xor,
            AtomicOp::UMin,
            AtomicOp::UMax,
            AtomicOp::IMin,
            AtomicOp::IMax,
        ] {
            assert!(op.commutes());
            for m in vals {
                for a in vals {
                    for b in vals {
                        let ab = op.apply(W32, op.apply(W32, m, a, 0), b, 0);
                        let ba = op.apply(W32, op.apply(W32, m, b, 0), a, 0);
                        assert_eq!(ab, ba, "{op:?} {m:#x} {a:#x} {b:#x}");
                    }
                }
            }
        }
        // 1 + 2^-24 + 2^-24: 1.0 first loses both halves-ulp, the pair first keeps them.
        let one = 1.0f32.to_bits() as u64;
        let tiny = (2f32.powi(-24)).to_bits() as u64;
        let left = AtomicOp::FAdd.apply(W32, AtomicOp::FAdd.apply(W32, one, tiny, 0), tiny, 0);
        let right = AtomicOp::FAdd.apply(W32, AtomicOp::FAdd.apply(W32, tiny, tiny, 0), one, 0);
        assert_eq!(left, one);
        assert_eq!(right, (1.0f32 + 2f32.powi(-23)).to_bits() as u64);
        assert!(!AtomicOp::FAdd.commutes());
    }
}
