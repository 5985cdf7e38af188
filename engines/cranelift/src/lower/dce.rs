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

/// Whether `inst`, an instruction of one result, has no effect besides that result.
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
    true
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
        // Most instructions are used: that test first, the opcode's properties after.
        let &[result] = func.dfg.inst_results(inst) else {
            continue;
        };
        if gone[inst.index()] || uses[result.index()] != 0 || !removable(func, inst) {
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

#[cfg(test)]
mod tests {
    use cranelift_codegen::ir::types::I64;
    use cranelift_codegen::ir::{AbiParam, Function, InstBuilder, MemFlagsData};
    use cranelift_codegen::settings;
    use cranelift_frontend::{FunctionBuilder, FunctionBuilderContext};

    /// A dead chain and a dead `notrap` load go; a dead load that may trap and everything
    /// the returned value needs stay.
    #[test]
    fn removes_dead_chains_and_notrap_loads_only() {
        let mut func = Function::new();
        func.signature.params.push(AbiParam::new(I64));
        func.signature.returns.push(AbiParam::new(I64));
        let mut fbc = FunctionBuilderContext::new();
        let mut b = FunctionBuilder::new(&mut func, &mut fbc);
        let entry = b.create_block();
        b.append_block_params_for_function_params(entry);
        b.switch_to_block(entry);
        b.seal_block(entry);
        let p = b.block_params(entry)[0];
        let five = b.ins().iconst(I64, 5);
        b.ins().iadd(p, five);
        b.ins().load(I64, MemFlagsData::new().with_notrap(), p, 0);
        b.ins().load(I64, MemFlagsData::new(), p, 8);
        let one = b.ins().iconst(I64, 1);
        let live = b.ins().iadd(p, one);
        b.ins().return_(&[live]);
        let isa = cranelift_native::builder()
            .expect("host supported")
            .finish(settings::Flags::new(settings::builder()))
            .expect("host target");
        b.finalize(isa.frontend_config());
        let count = |f: &Function| f.layout.block_insts(entry).count();
        assert_eq!(count(&func), 7);
        assert_eq!(super::run(&mut func), 3);
        assert_eq!(count(&func), 4);
        let text = func.display().to_string();
        assert!(text.contains("load.i64 v0+8"), "{text}");
        assert!(!text.contains("notrap"), "{text}");
        assert!(text.contains("return"), "{text}");
    }
}
