//! Dead code removal: instructions whose result nothing uses, and that have no effect but
//! their result, are removed, and so, in turn, are the instructions only they used.
//!
//! The lowering builds values some paths never read: the run-context fields a program does
//! not need, an `i32x4` view of a float load whose consumer reads the load itself, masked
//! stores to registers nothing reads again, a fetched channel no opcode uses. Cranelift at
//! `opt_level=none` lowers every load (a load may trap) and counts the operands of every
//! instruction as used, dead or not, so each such chain would be lowered, allocated and
//! emitted. Only instructions with one result that cannot trap, store, call or branch are
//! removed, and loads only when marked `notrap` (every access the lowering makes is in
//! bounds by construction, `lower::mem`): results are unchanged.

use cranelift_codegen::entity::EntityRef;
use cranelift_codegen::ir::{Function, Inst, InstructionData, Value, ValueDef};

/// Whether `inst` has no effect besides its one result.
fn removable(func: &Function, inst: Inst) -> bool {
    let data = &func.dfg.insts[inst];
    let op = data.opcode();
    if op.is_call()
        || op.is_branch()
        || op.is_terminator()
        || op.is_return()
        || op.can_trap()
        || op.other_side_effects()
        || op.can_store()
    {
        return false;
    }
    if op.can_load() {
        match *data {
            InstructionData::Load { flags, .. } if func.dfg.mem_flags[flags].notrap() => {}
            _ => return false,
        }
    }
    func.dfg.inst_results(inst).len() == 1
}

/// Removes the dead instructions of `func` (see the module docs). Returns how many.
pub(super) fn run(func: &mut Function) -> usize {
    // Plain vectors indexed by entity number: the tables are filled once and never grow.
    let mut uses: Vec<u32> = vec![0; func.dfg.num_values()];
    let mut work: Vec<Inst> = Vec::with_capacity(func.dfg.num_insts());
    for block in func.layout.blocks() {
        for inst in func.layout.block_insts(block) {
            for arg in func.dfg.inst_args(inst) {
                uses[arg.index()] += 1;
            }
            if func.dfg.insts[inst].opcode().is_branch() {
                for arg in func
                    .dfg
                    .inst_values(inst)
                    .skip(func.dfg.inst_args(inst).len())
                {
                    uses[arg.index()] += 1;
                }
            }
            work.push(inst);
        }
    }
    // The uses of an alias are uses of the value it stands for (aliases are few; resolving
    // every operand instead costs a call each).
    for i in 0..uses.len() {
        let v = Value::new(i);
        if uses[i] != 0 && func.dfg.value_is_alias(v) {
            uses[func.dfg.resolve_aliases(v).index()] += uses[i];
        }
    }
    // Later instructions first, so that a dead chain goes in one sweep; the work list
    // picks up what becomes dead out of order.
    work.reverse();
    let mut gone = vec![false; func.dfg.num_insts()];
    let mut args: Vec<Value> = Vec::new();
    let mut removed = 0;
    let mut k = 0;
    while k < work.len() {
        let inst = work[k];
        k += 1;
        if gone[inst.index()]
            || !removable(func, inst)
            || uses[func.dfg.first_result(inst).index()] != 0
        {
            continue;
        }
        args.clear();
        args.extend(func.dfg.inst_args(inst).iter().copied());
        func.layout.remove_inst(inst);
        gone[inst.index()] = true;
        removed += 1;
        for &arg in &args {
            let a = func.dfg.resolve_aliases(arg);
            uses[a.index()] -= 1;
            if let (0, ValueDef::Result(def, _)) = (uses[a.index()], func.dfg.value_def(a)) {
                work.push(def);
            }
        }
    }
    removed
}
