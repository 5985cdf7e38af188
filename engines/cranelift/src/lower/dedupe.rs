//! Local value numbering: within each block, a pure instruction that repeats an earlier
//! one (same opcode, immediates, operands and result type) is replaced by the earlier
//! result.
//!
//! The lowering builds every operand from scratch (constants, bit casts, the per-lane
//! index arithmetic of indirect operands, shifts of the quad index), and Cranelift at
//! `opt_level=none` merges nothing, so each copy would be lowered, allocated and emitted.
//! Only instructions whose result depends on nothing but their operands and immediates
//! are merged (no loads, stores, calls or traps), and only inside one block, where the
//! first copy is always computed before the later ones: results are unchanged.

use std::hash::{Hash, Hasher};

use rustc_hash::FxHasher;

use cranelift_codegen::entity::packed_option::PackedOption;
use cranelift_codegen::entity::SecondaryMap;
use cranelift_codegen::ir::{Function, Inst, InstructionData, Opcode, Type, Value};

/// Opcodes merged: constants and integer, bit, sign and lane operations and float
/// comparisons, none of which can trap or depends on anything but its operands.
fn pure(op: Opcode) -> bool {
    use Opcode::*;
    matches!(
        op,
        Iconst
            | F32const
            | F64const
            | Vconst
            | Splat
            | Bitcast
            | Ishl
            | Ushr
            | Sshr
            | Iadd
            | Isub
            | Imul
            | Band
            | Bor
            | Bxor
            | Bnot
            | Icmp
            | Extractlane
            | Sextend
            | Uextend
            | Ireduce
            | Select
            | Bitselect
            | Ineg
            | Iabs
            | Smin
            | Smax
            | Umin
            | Umax
            | Fneg
            | Fabs
            | Fcmp
            | Insertlane
            | ScalarToVector
            | Shuffle
            | VanyTrue
            | VhighBits
    )
}

/// Slots of the table of first copies.
const SLOTS: usize = 1 << SLOT_BITS;
/// Bits of a slot index, taken from the top of the hash (the multiply leaves the low bits
/// poorly mixed).
const SLOT_BITS: u32 = 12;

/// Merges repeated pure instructions block by block (see the module docs). Returns how
/// many were removed.
///
/// The first copies live in a direct-mapped table indexed by the key's hash: a key whose
/// slot another key took is simply not merged (a missed merge only keeps a copy), which
/// is cheaper than a hash map for blocks of a few hundred instructions. Slots are tagged
/// with the block's number instead of being cleared.
pub(super) fn run(func: &mut Function) -> usize {
    let mut removed = 0;
    let mut table: Vec<Option<(u32, InstructionData, Type, Inst)>> = vec![None; SLOTS];
    // The values merged away, and the first copy each stands for.
    let mut resolved: SecondaryMap<Value, PackedOption<Value>> = SecondaryMap::new();
    let blocks: Vec<_> = func.layout.blocks().collect();
    for (tag, block) in blocks.into_iter().enumerate() {
        let tag = tag as u32;
        let mut next = func.layout.first_inst(block);
        while let Some(inst) = next {
            next = func.layout.next_inst(inst);
            // (Every merged opcode has exactly one result.)
            if !pure(func.dfg.insts[inst].opcode()) {
                continue;
            }
            // Merged values are followed, so that copies of copies match.
            for arg in func.dfg.inst_args_mut(inst) {
                if let Some(to) = resolved[*arg].expand() {
                    *arg = to;
                }
            }
            let data = func.dfg.insts[inst];
            let result = func.dfg.first_result(inst);
            let ty = func.dfg.value_type(result);
            // FxHasher (rustc's): the keys are small instruction records made by the
            // lowering, and SipHash cost as much as the merging saves.
            let mut h = FxHasher::default();
            (data, ty).hash(&mut h);
            let slot = &mut table[(h.finish() >> (64 - SLOT_BITS)) as usize];
            match *slot {
                Some((t, d, y, first)) if t == tag && d == data && y == ty => {
                    resolved[result] = func.dfg.first_result(first).into();
                    func.dfg.replace_with_aliases(inst, first);
                    func.layout.remove_inst(inst);
                    removed += 1;
                }
                _ => *slot = Some((tag, data, ty, inst)),
            }
        }
    }
    removed
}
