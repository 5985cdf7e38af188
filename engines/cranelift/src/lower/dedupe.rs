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

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use cranelift_codegen::entity::packed_option::ReservedValue;
use cranelift_codegen::ir::{Function, Inst, InstructionData, Opcode, Type, Value};

/// A multiply-rotate hasher (the `FxHasher` of rustc): the keys are small instruction
/// records made by the lowering, not user input, and the default SipHash cost as much as
/// the merging saves.
#[derive(Default)]
struct Fx(u64);

impl Fx {
    fn add(&mut self, x: u64) {
        self.0 = (self.0.rotate_left(5) ^ x).wrapping_mul(0x517c_c1b7_2722_0a95);
    }
}

impl Hasher for Fx {
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.add(u64::from_le_bytes(word));
        }
    }
    fn write_u8(&mut self, x: u8) {
        self.add(u64::from(x));
    }
    fn write_u16(&mut self, x: u16) {
        self.add(u64::from(x));
    }
    fn write_u32(&mut self, x: u32) {
        self.add(u64::from(x));
    }
    fn write_u64(&mut self, x: u64) {
        self.add(x);
    }
    fn write_usize(&mut self, x: usize) {
        self.add(x as u64);
    }
    fn finish(&self) -> u64 {
        self.0
    }
}

type Seen = HashMap<(InstructionData, Type), Inst, BuildHasherDefault<Fx>>;

/// Opcodes merged: constants and integer, bit and lane operations that cannot trap.
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
    )
}

/// Merges repeated pure instructions block by block (see the module docs). Returns how
/// many were removed.
pub(super) fn run(func: &mut Function) -> usize {
    let mut removed = 0;
    let mut seen = Seen::default();
    let blocks: Vec<_> = func.layout.blocks().collect();
    for block in blocks {
        seen.clear();
        let mut next = func.layout.first_inst(block);
        while let Some(inst) = next {
            next = func.layout.next_inst(inst);
            if !pure(func.dfg.insts[inst].opcode()) || func.dfg.inst_results(inst).len() != 1 {
                continue;
            }
            // Aliases made below (and by the frontend) are followed, so that copies of
            // copies match (the merged opcodes have at most three operands).
            let n = func.dfg.inst_args(inst).len();
            if n > 3 {
                continue;
            }
            let mut args = [Value::reserved_value(); 3];
            for (a, &v) in args.iter_mut().zip(func.dfg.inst_args(inst)) {
                *a = func.dfg.resolve_aliases(v);
            }
            func.dfg.inst_args_mut(inst).copy_from_slice(&args[..n]);
            let data = func.dfg.insts[inst];
            let ty = func.dfg.value_type(func.dfg.first_result(inst));
            match seen.get(&(data, ty)) {
                Some(&first) => {
                    func.dfg.replace_with_aliases(inst, first);
                    func.layout.remove_inst(inst);
                    removed += 1;
                }
                None => {
                    seen.insert((data, ty), inst);
                }
            }
        }
    }
    removed
}
