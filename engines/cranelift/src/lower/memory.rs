//! The memory instructions on the jit: LOAD, STORE, RESQ, the ATOM* opcodes, MEMBAR and
//! BARRIER on `BUFFER[n]` and `MEMORY[n]` (GLOBAL, SHARED per workgroup). This is the one
//! place their semantics are written for the jit; the host side (resource bytes, the
//! atomic runtime call, the reported outputs) is `crate::memory`.
//!
//! Sources: tgsi.rst "Resource Access Opcodes" (LOAD, STORE, RESQ), "Atomic opcodes" (the
//! `dst_x = resource[offset]; resource[offset] = f(dst_x, src_x)` formulas, applied by
//! `shaderdiff_oracles::atomic::AtomicOp`), "Inter-thread synchronization opcodes" (BARRIER,
//! MEMBAR); EXEC-NOTES.md §7 where the doc is silent. The rules match the oracle's "Memory
//! model" (`shaderdiff_oracles::interp` docs) wherever it defines a result:
//!
//! * **Addresses** are byte offsets (`src.x` of the address operand, unsigned), with no
//!   alignment requirement. Every access is bounds-checked in the generated code against
//!   the size of the resource (the length of its inputs entry); an access of a lane that
//!   does not execute, or that is not entirely inside the resource, goes to the quad's dummy
//!   scratch register instead, so no code ever reads or writes outside the host buffers.
//! * **LOAD** `dst, res, addr`: writemask channel `c` gets the dword at `addr.x + 4 *
//!   swizzle[c]` (the resource operand's swizzle). Out of range (any dword read not entirely
//!   inside, tgsi.rst: unspecified): every written channel is 0 (the oracle: undefined).
//! * **STORE** `res, addr, src`: writemask channel `c` of `src` goes to the dword at
//!   `addr.x + 4c`. A store not entirely inside the resource is dropped (the oracle leaves
//!   those bytes undefined, so dropping is one allowed outcome). Lanes store in order.
//! * **RESQ** `dst, res`: `x` = the resource's size in bytes; `y`, `z`, `w` are 0 (the doc
//!   defines only `x`).
//! * **Atomics** (`ATOMUADD` ... `ATOMDEC_WRAP`): performed only when the writemask has `x`
//!   (EXEC-NOTES §7), one runtime call per executing lane, lanes in order
//!   (`crate::memory::shaderdiff_atomic`, which applies `AtomicOp::apply` and logs the
//!   record). ATOMCAS compares with `src2` and stores `src3`; ATOMFADD's data operand is
//!   fetched as a float (modifiers act on the sign bit), the others as integers. Every
//!   written channel gets the returned value (`AtomicOp::returned`: `x` is the only one the
//!   doc defines); without `x` in the writemask the written channels get 0 and nothing is
//!   performed. Out of range: not performed, 0 returned. Each executing lane counts every
//!   ATOM* instruction it executes (performed or not) in a per-lane counter: the record's
//!   `seq`, the oracle's numbering, which is how the diff replays the jit's serial order.
//! * **MEMBAR** has no effect: every access completes before the next instruction.
//!
//! # BARRIER: suspension and rounds
//!
//! tgsi.rst BARRIER: every invocation of the workgroup reaches it before any continues. A
//! program with a BARRIER is *resumable*: each BARRIER the lowering meets (in the main
//! program, inside IF and loops, in every inlined copy of a subroutine) is a suspension
//! point. There the quad stores its register variables, its execution, killed, step and
//! atomic-count masks and the masks of the constructs around it (IF's waiting lanes, a
//! loop's BRK and CONT lanes, a subroutine's RET lanes) in its slot of the state buffer,
//! with the point's number, and moves on to the next quad. The compiled function starts
//! every quad at its slot's point: 0 from the start, `k` in the resume block of point `k`
//! (which loads everything back and continues the lowered code), [`DONE`] not at all.
//! Registers in the scratch buffer get one scratch area per quad.
//!
//! The run calls the function in *rounds* on blocks of [`BLOCK_QUADS`] quads (64
//! invocations: whole workgroups, since the oracle runs BARRIER only for workgroup sizes
//! dividing 64 and its checks come first) until every quad of the block is done. In a
//! round every waiting quad runs to its next BARRIER, so all invocations of a workgroup
//! that execute the BARRIER get there before any goes on: a stricter order than BARRIER
//! requires, which is one of the allowed ones. A BARRIER only part of a workgroup executes
//! (tgsi.rst: unspecified; the oracle: memory undefined) only costs an extra round; every
//! round costs each waiting invocation a step, so the step budget bounds the rounds.
//! BARRIER inside SWITCH is refused as unsupported (its CASE masks cannot be resumed).

use std::mem::offset_of;

use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::types::{F32X4, I32, I32X4, I64};
use cranelift_codegen::ir::{Block, InstBuilder, MemFlagsData, Type, Value};
use cranelift_frontend::Variable;
use shaderdiff_model::atomic::AtomicOp;
use shaderdiff_model::check::FetchType;
use shaderdiff_model::RegKey;
use shaderdiff_model::{File, Opcode, Program};

use super::{mem, Frame, LowerError, Lowerer};
use crate::memory::{ResDesc, ATOMIC_OPS, ATOMIC_SYMBOL, WIDE_ATOMIC};

/// Quads per block of a resumable run: 64 invocations.
pub(crate) const BLOCK_QUADS: usize = 16;

/// Resume point of a quad that has finished the program.
pub(crate) const DONE: u32 = u32::MAX;

/// Bytes of a quad's state slot holding `saved` variables: the resume point (16 bytes, for
/// alignment) then one `i32x4` per variable.
pub(super) fn state_bytes(saved: usize) -> usize {
    16 + 16 * saved
}

/// Lowering state of the memory instructions and BARRIER suspension points.
pub(super) struct MemLower {
    /// Per lane: ATOM* instructions executed so far (`AtomicRecord::seq`).
    pub aseq: Variable,
    /// The program has a BARRIER (module docs).
    pub resumable: bool,
    /// Where a quad starts the program.
    pub start: Block,
    /// Resumable programs: picks the start, a resume block or the next quad (filled last).
    pub dispatch: Block,
    /// The block that moves on to the next quad.
    pub next: Block,
    /// Resume block of each suspension point (point `k + 1` is `resumes[k]`).
    pub resumes: Vec<Block>,
    /// Most variables a suspension point saves.
    pub most_saved: usize,
}

/// Whether `program` has a BARRIER.
pub(super) fn has_barrier(program: &Program) -> bool {
    program
        .instructions
        .iter()
        .any(|i| i.opcode == Opcode::BARRIER)
}

impl Lowerer<'_, '_> {
    /// The resource number of the resource operand `reg` of instruction `i`.
    fn resource(&self, i: usize, reg: &shaderdiff_model::Register) -> Result<usize, LowerError> {
        if !matches!(reg.file, File::Buffer | File::Memory) || reg.is_indirect() {
            return Err(self.invalid(i, "the resource operand must name a BUFFER or MEMORY"));
        }
        let key = RegKey::new(reg.file, reg.index.value as u32);
        self.env
            .plan
            .memory
            .index_of(key)
            .ok_or_else(|| self.invalid(i, format!("{key} is not declared")))
    }

    /// Per lane: the first byte of the lane's copy of resource `res` and the copy's size
    /// (`i64` values).
    fn copies(&mut self, res: usize) -> ([Value; 4], Value) {
        let at = (res * std::mem::size_of::<ResDesc>()) as i32;
        let ro = MemFlagsData::trusted().with_readonly();
        let ptr = self
            .b
            .ins()
            .load(I64, ro, self.cv.res, at + offset_of!(ResDesc, ptr) as i32);
        let size = self
            .b
            .ins()
            .load(I64, ro, self.cv.res, at + offset_of!(ResDesc, size) as i32);
        let plan = &self.env.plan.memory;
        if !plan.resources[res].shared {
            return ([ptr; 4], size);
        }
        let wg = self.b.ins().iconst(I64, i64::from(plan.wg_size.max(1)));
        let q4 = self.b.ins().ishl_imm_u(self.q, 2);
        let bases = [0i64, 1, 2, 3].map(|l| {
            let inv = self.b.ins().iadd_imm_u(q4, l);
            let copy = self.b.ins().udiv(inv, wg);
            let off = self.b.ins().imul(copy, size);
            self.b.ins().iadd(ptr, off)
        });
        (bases, size)
    }

    /// `i8` truth of lane `l` of mask `m`.
    fn lane_set(&mut self, m: Value, l: u8) -> Value {
        let e = self.b.ins().extractlane(m, l);
        self.b.ins().icmp_imm_u(IntCC::NotEqual, e, 0)
    }

    /// Per lane: where an access of `need` bytes at byte address `addr` (lane of an
    /// `i32x4`) goes, and whether it is real: inside the lane's copy and executing;
    /// otherwise the quad's dummy scratch register (64 bytes).
    fn targets(&mut self, res: usize, addr: Value, need: u32) -> [(Value, Value); 4] {
        let (bases, size) = self.copies(res);
        let exec = self.use_exec();
        let dummy = self
            .b
            .ins()
            .iadd_imm_u(self.cv.scratch, i64::from(self.env.plan.dummy));
        [0u8, 1, 2, 3].map(|l| {
            let a = self.b.ins().extractlane(addr, l);
            let a = self.b.ins().uextend(I64, a);
            let end = self.b.ins().iadd_imm_u(a, i64::from(need));
            let fits = self.b.ins().icmp(IntCC::UnsignedLessThanOrEqual, end, size);
            let live = self.lane_set(exec, l);
            let ok = self.b.ins().band(fits, live);
            let real = self.b.ins().iadd(bases[l as usize], a);
            (self.b.ins().select(ok, real, dummy), ok)
        })
    }

    /// An `i32x4` of four `i32` lanes.
    fn gather(&mut self, lanes: [Value; 4]) -> Value {
        let mut v = self.ci(0);
        for (l, x) in lanes.into_iter().enumerate() {
            v = self.b.ins().insertlane(v, x, l as u8);
        }
        v
    }

    /// LOAD, STORE, RESQ, an atomic or MEMBAR (module docs); the step is already counted.
    pub(super) fn memory(&mut self, i: usize) -> Result<(), LowerError> {
        let insn = &self.env.program.instructions[i];
        let op = insn.opcode;
        let info = op.info();
        if insn.src.len() < info.num_src as usize || insn.dst.len() < info.num_dst as usize {
            return Err(self.invalid(i, format!("{op} needs {} sources", info.num_src)));
        }
        match op {
            Opcode::MEMBAR => Ok(()),
            Opcode::LOAD => self.load(i),
            Opcode::STORE => self.store_mem(i),
            Opcode::RESQ => self.resq(i),
            _ => match AtomicOp::from_opcode(op) {
                Some(a) => self.atomic(i, a),
                None => Err(self.invalid(i, format!("{op} is not a memory instruction"))),
            },
        }
    }

    /// LOAD dst, res, addr (tgsi.rst "Resource Access Opcodes").
    fn load(&mut self, i: usize) -> Result<(), LowerError> {
        let insn = &self.env.program.instructions[i];
        let dst = insn.dst[0];
        let wm = dst.writemask & 0xF;
        let res_src = insn.src[0];
        let res = self.resource(i, &res_src.reg)?;
        if res_src.swizzle.iter().any(|&c| c > 3) {
            return Err(self.invalid(i, "swizzle component out of range"));
        }
        if wm == 0 {
            return Ok(());
        }
        let chans = (0..4).filter(|c| wm >> c & 1 != 0);
        let max_dw = chans
            .map(|c| u32::from(res_src.swizzle[c]))
            .max()
            .unwrap_or(0);
        let addr = self.fetch(i, &insn.src[1], FetchType::Int, 0x1)?[0];
        let targets = self.targets(res, addr, 4 * (max_dw + 1));
        let zero = self.b.ins().iconst(I32, 0);
        let mut words = [[zero; 4]; 4];
        for (l, &(p, ok)) in targets.iter().enumerate() {
            for (c, w) in words.iter_mut().enumerate() {
                if wm >> c & 1 == 0 {
                    continue;
                }
                let off = 4 * i32::from(res_src.swizzle[c]);
                let v = self.b.ins().load(I32, mem(), p, off);
                w[l] = self.b.ins().select(ok, v, zero);
            }
        }
        let mut out = [None; 4];
        for c in 0..4 {
            if wm >> c & 1 != 0 {
                out[c] = Some(self.gather(words[c]));
            }
        }
        self.store(i, &dst, out, insn.saturate)
    }

    /// STORE res, addr, src (tgsi.rst "Resource Access Opcodes").
    fn store_mem(&mut self, i: usize) -> Result<(), LowerError> {
        let insn = &self.env.program.instructions[i];
        let dst = insn.dst[0];
        let res = self.resource(i, &dst.reg)?;
        let wm = dst.writemask & 0xF;
        let Some(max_c) = (0..4u32).filter(|c| wm >> c & 1 != 0).max() else {
            return Ok(());
        };
        let addr = self.fetch(i, &insn.src[0], FetchType::Int, 0x1)?[0];
        let vals = self.fetch(i, &insn.src[1], FetchType::Float, wm)?;
        let targets = self.targets(res, addr, 4 * (max_c + 1));
        for (l, &(p, _)) in targets.iter().enumerate() {
            for (c, &v) in vals.iter().enumerate() {
                if wm >> c & 1 == 0 {
                    continue;
                }
                let x = self.b.ins().extractlane(v, l as u8);
                self.b.ins().store(mem(), x, p, 4 * c as i32);
            }
        }
        Ok(())
    }

    /// RESQ dst, res: `x` = size in bytes (saturated to 32 bits), others 0.
    fn resq(&mut self, i: usize) -> Result<(), LowerError> {
        let insn = &self.env.program.instructions[i];
        let dst = insn.dst[0];
        let res = self.resource(i, &insn.src[0].reg)?;
        let (_, size) = self.copies(res);
        let max = self.b.ins().iconst(I64, i64::from(u32::MAX));
        let size = self.b.ins().umin(size, max);
        let size = self.b.ins().ireduce(I32, size);
        let x = self.b.ins().splat(I32X4, size);
        let z = self.ci(0);
        self.store(i, &dst, [Some(x), Some(z), Some(z), Some(z)], insn.saturate)
    }

    /// An atomic (tgsi.rst "Atomic opcodes"; module docs). A 64-bit atomic
    /// (`shaderdiff_model::atomic64`) passes its operands' channel pairs `xy` as 64-bit
    /// values and writes the old value to `x` (low word) and `y`; `z`, `w` get the low word
    /// (the oracle leaves them undefined).
    fn atomic(&mut self, i: usize, op: AtomicOp) -> Result<(), LowerError> {
        let insn = &self.env.program.instructions[i];
        let wide = shaderdiff_model::atomic64::is_wide_atomic(insn);
        let chans = if wide { 0x3 } else { 0x1 };
        let dst = insn.dst[0];
        let wm = dst.writemask & 0xF;
        let res = self.resource(i, &insn.src[0].reg)?;
        let exec = self.use_exec();
        let seq = self.b.use_var(self.mem.aseq);
        // Every executing lane counts the instruction (lanes are all ones: subtract).
        let next = self.b.ins().isub(seq, exec);
        self.b.def_var(self.mem.aseq, next);
        let (lo, hi) = if wm & 1 == 0 {
            let z = self.ci(0);
            (z, z)
        } else {
            let off = self.fetch(i, &insn.src[1], FetchType::Int, 0x1)?[0];
            let (cmp, src) = if op == AtomicOp::CmpXchg {
                let c = self.fetch(i, &insn.src[2], FetchType::Int, chans)?;
                (c, self.fetch(i, &insn.src[3], FetchType::Int, chans)?)
            } else {
                let ty = if op == AtomicOp::FAdd {
                    FetchType::Float
                } else {
                    FetchType::Int
                };
                let z = self.ci(0);
                ([z; 4], self.fetch(i, &insn.src[2], ty, chans)?)
            };
            let f = *self
                .libcalls
                .refs
                .get(ATOMIC_SYMBOL)
                .ok_or_else(|| self.invalid(i, "the atomic runtime call is not declared"))?;
            let op_no = ATOMIC_OPS
                .iter()
                .position(|&a| a == op)
                .ok_or_else(|| self.invalid(i, "unknown atomic operation"))?;
            let op_no = op_no as i64 | if wide { i64::from(WIDE_ATOMIC) } else { 0 };
            let res_v = self.b.ins().iconst(I32, res as i64);
            let op_v = self.b.ins().iconst(I32, op_no);
            let q4 = self.b.ins().ishl_imm_u(self.q, 2);
            let mut rets_lo = [res_v; 4];
            let mut rets_hi = [res_v; 4];
            for l in 0..4 {
                let l8 = l as u8;
                let inv = self.b.ins().iadd_imm_u(q4, l as i64);
                let active = self.b.ins().extractlane(exec, l8);
                let src_l = self.lane64(src, l8, wide);
                let cmp_l = self.lane64(cmp, l8, wide);
                let args = [
                    self.cv.ctx,
                    res_v,
                    op_v,
                    inv,
                    self.b.ins().extractlane(off, l8),
                    src_l,
                    cmp_l,
                    self.b.ins().extractlane(seq, l8),
                    active,
                ];
                let call = self.b.ins().call(f, &args);
                let r = self.b.inst_results(call)[0];
                rets_lo[l] = self.b.ins().ireduce(I32, r);
                let h = self.b.ins().ushr_imm_u(r, 32);
                rets_hi[l] = self.b.ins().ireduce(I32, h);
            }
            (self.gather(rets_lo), self.gather(rets_hi))
        };
        let mut out = [None; 4];
        for (c, o) in out.iter_mut().enumerate() {
            if wm >> c & 1 != 0 {
                *o = Some(if wide && c == 1 { hi } else { lo });
            }
        }
        self.store(i, &dst, out, insn.saturate)
    }

    /// Lane `l` of an operand as the runtime call's `i64`: channel `x` zero-extended, or
    /// (`wide`) the pair `x` (low word), `y`.
    fn lane64(&mut self, v: [Value; 4], l: u8, wide: bool) -> Value {
        let lo = self.b.ins().extractlane(v[0], l);
        let lo = self.b.ins().uextend(I64, lo);
        if !wide {
            return lo;
        }
        let hi = self.b.ins().extractlane(v[1], l);
        let hi = self.b.ins().uextend(I64, hi);
        let hi = self.b.ins().ishl_imm_u(hi, 32);
        self.b.ins().bor(lo, hi)
    }

    /// The state slot of the current quad (`i64`): `RunCtx::state_stride` bytes per quad
    /// from `q_begin`.
    fn state_slot(&mut self) -> Value {
        let rel = self.b.ins().isub(self.q, self.cv.q_begin);
        let off = self.b.ins().imul(rel, self.cv.state_stride);
        self.b.ins().iadd(self.cv.state, off)
    }

    /// Stores resume point `point` in the current quad's slot.
    fn set_point(&mut self, slot: Value, point: u32) {
        let p = self.b.ins().iconst(I32, i64::from(point as i32));
        self.b.ins().store(mem(), p, slot, 0);
    }

    /// BARRIER: a suspension point (module docs). The quad saves its variables and the
    /// masks of the constructs around it, and leaves; the resume block restores them and
    /// the lowering goes on there.
    pub(super) fn barrier(&mut self, i: usize) -> Result<(), LowerError> {
        if self
            .frames
            .iter()
            .any(|f| matches!(f, Frame::Switch { .. }))
        {
            return Err(LowerError::Unsupported {
                opcode: Some(Opcode::BARRIER),
                pos: self.pos(i),
                reason: "BARRIER inside SWITCH: the jit cannot resume a SWITCH".into(),
            });
        }
        if !self.mem.resumable {
            return Err(self.invalid(i, "a BARRIER the plan does not know"));
        }
        self.pending += 1;
        self.flush();
        self.check_steps();
        let mut keys: Vec<(usize, u32)> = self.regs.keys().copied().collect();
        keys.sort_unstable();
        let mut saved: Vec<Variable> = keys.iter().flat_map(|k| self.regs[k]).collect();
        // The register variables' types (`Lowerer::float_regs`); every other saved one is
        // an `i32x4`.
        let types: Vec<Type> = keys
            .iter()
            .flat_map(|k| {
                let ty = if self.float_regs.contains(k) {
                    F32X4
                } else {
                    I32X4
                };
                [ty; 4]
            })
            .collect();
        saved.extend([self.exec, self.gone, self.steps, self.mem.aseq]);
        for f in &self.frames {
            match *f {
                Frame::If { other } => saved.push(other),
                Frame::Loop { brk, cont } => saved.extend([brk, cont]),
                Frame::Call { ret } => saved.push(ret),
                Frame::Switch { .. } => {}
            }
        }
        self.mem.most_saved = self.mem.most_saved.max(saved.len());
        let point = self.mem.resumes.len() as u32 + 1;
        let slot = self.state_slot();
        self.set_point(slot, point);
        for (k, &v) in saved.iter().enumerate() {
            let x = self.b.use_var(v);
            self.b.ins().store(mem(), x, slot, 16 + (k * 16) as i32);
        }
        self.b.ins().jump(self.mem.next, &[]);
        let resume = self.b.create_block();
        self.mem.resumes.push(resume);
        self.b.switch_to_block(resume);
        let slot = self.state_slot();
        for (k, &v) in saved.iter().enumerate() {
            let ty = types.get(k).copied().unwrap_or(I32X4);
            let x = self.b.ins().load(ty, mem(), slot, 16 + (k * 16) as i32);
            self.b.def_var(v, x);
        }
        Ok(())
    }

    /// At the end of the program: a resumable quad records that it is done.
    pub(super) fn finish_quad(&mut self) {
        if self.mem.resumable {
            let slot = self.state_slot();
            self.set_point(slot, DONE);
        }
    }

    /// Fills the dispatch block of a resumable program: resume point 0 starts the program,
    /// `k` resumes after suspension point `k`, [`DONE`] goes to the next quad.
    pub(super) fn fill_dispatch(&mut self) {
        if !self.mem.resumable {
            return;
        }
        self.b.switch_to_block(self.mem.dispatch);
        let slot = self.state_slot();
        let point = self.b.ins().load(I32, mem(), slot, 0);
        let targets: Vec<(u32, Block)> = std::iter::once((DONE, self.mem.next))
            .chain(
                self.mem
                    .resumes
                    .iter()
                    .enumerate()
                    .map(|(k, &b)| (k as u32 + 1, b)),
            )
            .collect();
        for (p, blk) in targets {
            let is_p = self
                .b
                .ins()
                .icmp_imm_u(IntCC::Equal, point, i64::from(p as i32));
            let other = self.b.create_block();
            self.b.ins().brif(is_p, blk, &[], other, &[]);
            self.b.switch_to_block(other);
            self.b.seal_block(other);
        }
        self.b.ins().jump(self.mem.start, &[]);
    }
}
