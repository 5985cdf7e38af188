//! Structured control flow with per-invocation masks, and the instructions that read or
//! change the mask (tgsi.rst "GLSL ISA"; the oracle's contract in
//! `shaderdiff_oracles::interp`):
//!
//! * IF/UIF: `taken = exec & cond`, the other lanes wait in a variable until ELSE / ENDIF.
//! * BGNLOOP/ENDLOOP: BRK and CONT park lanes in the loop's `brk` / `cont` masks; ENDLOOP
//!   repeats while `exec | cont` has a lane, then continues with `brk`.
//! * SWITCH: CASE values are compared bit-exactly with the selector when SWITCH executes;
//!   a lane starts at the first label matching it (DEFAULT: no CASE matches, wherever
//!   DEFAULT stands) and falls through like C until BRK. Lanes matching nothing skip it.
//! * CAL/RET: the subroutine is inlined (recursion too, up to the oracle's call depth of 64,
//!   beyond which an executing invocation stops the run with `CallDepth`); RET parks lanes
//!   until ENDSUB. RET outside a
//!   subroutine and END terminate the lanes; at the top level of the main program they end
//!   it (as does falling into a BGNSUB).
//! * KILL/KILL_IF terminate lanes (KILL_IF: some component `< 0.0`; NaN and -0.0 do not
//!   kill); DEMOTE marks lanes as discarded but they keep running.
//! * DDX/DDY: lane shuffles within the quad (fine: own row / column; coarse: top row /
//!   left column).
//!
//! Blocks no lane enters are skipped (a branch on `vany_true`), except short IF / ELSE parts
//! of ALU instructions, which run under their (possibly empty) mask without a branch.

use cranelift_codegen::ir::condcodes::{FloatCC, IntCC};
use cranelift_codegen::ir::types::{F32X4, I32X4};
use cranelift_codegen::ir::{Block, InstBuilder, Value};
use cranelift_frontend::Variable;
use shaderdiff_model::check::alu::fetch_type;
use shaderdiff_model::check::FetchType;
use shaderdiff_model::check::MAX_CALL_DEPTH;
use shaderdiff_model::{Opcode, OutputMode as IrOutputMode};

use super::{Frame, LowerError, Lowerer, MAX_NESTING, STATUS_CALL_DEPTH};
use crate::alu::{self, AluCtx};
use crate::faults::{self, Fault};

/// Longest IF or ELSE part of ALU instructions lowered without a branch around it
/// ([`Lowerer::branch_part`]): longer ones are still skipped when no lane enters them.
const STRAIGHT_MAX: usize = 64;

/// What a statement sequence did at its end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Flow {
    /// Reached the end of its range.
    Continue,
    /// The main program ended (END, RET or BGNSUB at its top level).
    Stop,
}

impl Lowerer<'_, '_> {
    fn new_mask_var(&mut self, init: Value) -> Variable {
        let v = self.b.declare_var(I32X4);
        self.b.def_var(v, init);
        v
    }

    fn or_into(&mut self, var: Variable, m: Value) {
        let old = self.b.use_var(var);
        let new = self.b.ins().bor(old, m);
        self.b.def_var(var, new);
    }

    /// Counts the control instruction and adds the pending steps under the current mask.
    fn count_control(&mut self) {
        self.pending += 1;
        self.flush();
    }

    /// Sets the execution mask to nothing (lanes left by BRK, CONT, RET, END, KILL).
    fn exec_off(&mut self) {
        let z = self.ci(0);
        self.set_exec(z);
        self.exec_zero = true;
        self.full = false;
    }

    fn enter(&mut self, i: usize) -> Result<(), LowerError> {
        self.nesting += 1;
        if self.nesting > MAX_NESTING {
            return Err(LowerError::Unsupported {
                opcode: Some(self.env.program.instructions[i].opcode),
                pos: self.pos(i),
                reason: format!("control flow and calls nested deeper than {MAX_NESTING} levels"),
            });
        }
        Ok(())
    }

    /// Lowers instructions `start..end` at one nesting level.
    pub(super) fn seq(&mut self, start: usize, end: usize) -> Result<Flow, LowerError> {
        use Opcode::*;
        let program = self.env.program;
        let mut i = start;
        while i < end {
            self.count_lowered(i)?;
            let op = program.instructions[i].opcode;
            match op {
                IF | UIF => {
                    let target = self.env.an.partner(i);
                    let (els, endif) = if program.instructions[target].opcode == ELSE {
                        (Some(target), self.env.an.partner(target))
                    } else {
                        (None, target)
                    };
                    if !self.exec_zero {
                        self.lower_if(i, els, endif)?;
                    }
                    i = endif + 1;
                }
                BGNLOOP => {
                    let e = self.env.an.partner(i);
                    if !self.exec_zero {
                        self.lower_loop(i, e)?;
                    }
                    i = e + 1;
                }
                SWITCH => {
                    let e = self.env.an.partner(i);
                    if !self.exec_zero {
                        self.lower_switch(i, e)?;
                    }
                    i = e + 1;
                }
                CAL => {
                    if !self.exec_zero {
                        self.lower_call(i)?;
                    }
                    i += 1;
                }
                CASE | DEFAULT => {
                    self.case(i)?;
                    i += 1;
                }
                BRK | CONT => {
                    if !self.exec_zero {
                        self.count_control();
                        let exec = self.use_exec();
                        let var = self.break_target(i, op == CONT)?;
                        self.or_into(var, exec);
                        self.exec_off();
                    }
                    i += 1;
                }
                RET | END | BGNSUB | ENDSUB => {
                    if self.frames.is_empty() {
                        self.count_control();
                        return Ok(Flow::Stop);
                    }
                    if matches!(op, BGNSUB | ENDSUB) {
                        return Err(self.invalid(i, format!("{op} inside a construct")));
                    }
                    if !self.exec_zero {
                        self.count_control();
                        let ret = self.frames.iter().rev().find_map(|f| match f {
                            Frame::Call { ret } => Some(*ret),
                            _ => None,
                        });
                        if let (RET, Some(ret)) = (op, ret) {
                            let exec = self.use_exec();
                            self.or_into(ret, exec);
                        }
                        self.exec_off();
                    }
                    i += 1;
                }
                BARRIER => {
                    self.barrier(i)?;
                    i += 1;
                }
                ELSE | ENDIF | ENDLOOP | ENDSWITCH => {
                    return Err(self.invalid(i, format!("unbalanced {op}")));
                }
                _ => {
                    if !self.exec_zero {
                        self.pending += 1;
                        self.instruction(i)?;
                    }
                    i += 1;
                }
            }
        }
        Ok(Flow::Continue)
    }

    /// The `brk` (or `cont`) mask of the innermost loop (or loop/switch for BRK).
    fn break_target(&self, i: usize, cont: bool) -> Result<Variable, LowerError> {
        for f in self.frames.iter().rev() {
            match f {
                Frame::Loop { brk, cont: c } => return Ok(if cont { *c } else { *brk }),
                Frame::Switch { brk, .. } if !cont => return Ok(*brk),
                Frame::Call { .. } => break,
                _ => {}
            }
        }
        Err(self.invalid(i, "BRK/CONT outside a loop"))
    }

    /// Lowers a nested sequence, which never ends the main program.
    fn nested(&mut self, start: usize, end: usize) -> Result<(), LowerError> {
        match self.seq(start, end)? {
            Flow::Continue => Ok(()),
            Flow::Stop => Err(self.invalid(start, "program end inside a construct")),
        }
    }

    fn lower_if(&mut self, i: usize, els: Option<usize>, endif: usize) -> Result<(), LowerError> {
        self.enter(i)?;
        self.count_control();
        let full_before = self.full;
        let env = self.env;
        let insn = &env.program.instructions[i];
        let ty = if insn.opcode == Opcode::UIF {
            FetchType::Int
        } else {
            FetchType::Float
        };
        let src = insn
            .src
            .first()
            .ok_or_else(|| self.invalid(i, "IF needs a source"))?;
        let cond = self.condition(i, src, ty)?;
        let exec = self.use_exec();
        let taken = self.b.ins().band(exec, cond);
        let other = self.b.ins().band_not(exec, cond);
        let other = self.new_mask_var(other);
        self.set_exec(taken);
        self.frames.push(Frame::If { other });
        self.full = false;
        self.exec_zero = false;
        self.branch_part(taken, i + 1, els.unwrap_or(endif))?;
        if let Some(e) = els {
            self.count_lowered(e)?;
            self.count_control();
            let cur = self.use_exec();
            let oth = self.b.use_var(other);
            self.set_exec(oth);
            self.b.def_var(other, cur);
            self.exec_zero = false;
            self.full = false;
            self.branch_part(oth, e + 1, endif)?;
        }
        self.count_lowered(endif)?;
        self.count_control();
        let exec = self.use_exec();
        let oth = self.b.use_var(other);
        let merged = self.b.ins().bor(exec, oth);
        self.set_exec(merged);
        self.frames.pop();
        self.nesting -= 1;
        self.full = full_before && !self.env.an.range_loses(i, endif + 1);
        self.exec_zero = false;
        Ok(())
    }

    /// Lowers the IF or ELSE part `start..end` under the execution mask `exec` (already
    /// set). A part of at most [`STRAIGHT_MAX`] instructions that only compute under the
    /// mask ([`Self::straight`]) runs in the current block: with no lane in `exec` its
    /// stores keep every register (masked stores), its steps add nothing (counted under
    /// the mask) and the masks it changes (nested IFs and SWITCHes, BRK, CONT) gain no
    /// lane, exactly as
    /// if it were skipped, and it costs no blocks (each of which the single-pass register
    /// allocator enters and leaves with every live value in memory). Any other part is
    /// skipped when no lane enters it (a branch on `vany_true`).
    fn branch_part(&mut self, exec: Value, start: usize, end: usize) -> Result<(), LowerError> {
        let skip = (!self.straight(start, end)).then(|| self.skip_unless_any(exec, None));
        self.nested(start, end)?;
        self.flush();
        self.join_skipped(skip);
        Ok(())
    }

    /// Skips to a new block, which it returns, when no lane of `mask` is set; otherwise the
    /// code goes on in `into` (the caller switches to it) or, without one, in a new block
    /// it switches to. [`Self::join_skipped`] ends the skipped code.
    fn skip_unless_any(&mut self, mask: Value, into: Option<Block>) -> Block {
        let body = into.unwrap_or_else(|| self.b.create_block());
        let skip = self.b.create_block();
        let any = self.any(mask);
        self.b.ins().brif(any, body, &[], skip, &[]);
        if into.is_none() {
            self.b.switch_to_block(body);
            self.b.seal_block(body);
        }
        skip
    }

    /// Ends code that [`Self::skip_unless_any`] may skip (`skip`: its block, or `None` when
    /// the code ran unguarded): continues in the skip block.
    fn join_skipped(&mut self, skip: Option<Block>) {
        if let Some(skip) = skip {
            self.b.ins().jump(skip, &[]);
            self.b.switch_to_block(skip);
            self.b.seal_block(skip);
        }
    }

    /// Whether instructions `start..end` are at most [`STRAIGHT_MAX`] NOP, ALU opcodes
    /// (`alu::is_supported`: register reads and writes only), IF/UIF/ELSE/ENDIF,
    /// SWITCH/CASE/DEFAULT/ENDSWITCH, BGNLOOP/ENDLOOP, BRK, CONT, RET and END (inside a
    /// construct: they only end lanes), KILL/KILP/KILL_IF/KIL and DEMOTE: no calls, memory,
    /// textures, emits or cross-lane reads. Each of those computes under the execution
    /// mask and changes only registers and masks (a loop run with an empty mask leaves
    /// after one pass).
    fn straight(&self, start: usize, end: usize) -> bool {
        use Opcode::*;
        let insns = &self.env.program.instructions[start..end];
        insns.len() <= STRAIGHT_MAX
            && insns.iter().all(|insn| {
                matches!(
                    insn.opcode,
                    NOP | IF
                        | UIF
                        | ELSE
                        | ENDIF
                        | SWITCH
                        | CASE
                        | DEFAULT
                        | ENDSWITCH
                        | BGNLOOP
                        | ENDLOOP
                        | BRK
                        | CONT
                        | RET
                        | END
                        | KILL
                        | KILP
                        | KILL_IF
                        | KIL
                        | DEMOTE
                ) || alu::is_supported(insn.opcode)
            })
    }

    fn lower_loop(&mut self, i: usize, endloop: usize) -> Result<(), LowerError> {
        self.enter(i)?;
        self.count_control();
        let full_before = self.full;
        let zero = self.ci(0);
        let brk = self.new_mask_var(zero);
        let cont = self.new_mask_var(zero);
        let header = self.b.create_block();
        // A body that only computes under the mask is entered without a test: with no lane
        // in `exec` it runs once with an empty mask and leaves (nothing to repeat).
        let exit = if self.straight(i + 1, endloop) {
            self.b.ins().jump(header, &[]);
            None
        } else {
            let exec = self.use_exec();
            Some(self.skip_unless_any(exec, Some(header)))
        };
        self.b.switch_to_block(header);
        self.frames.push(Frame::Loop { brk, cont });
        self.full = false;
        self.exec_zero = false;
        self.nested(i + 1, endloop)?;
        self.count_lowered(endloop)?;
        self.count_control();
        let exec = self.use_exec();
        let c = self.b.use_var(cont);
        let again = self.b.ins().bor(exec, c);
        let zero = self.ci(0);
        self.b.def_var(cont, zero);
        let latch = self.b.create_block();
        let leave = self.b.create_block();
        let any = self.any(again);
        self.b.ins().brif(any, latch, &[], leave, &[]);
        self.b.switch_to_block(latch);
        self.b.seal_block(latch);
        self.set_exec(again);
        self.check_steps();
        self.b.ins().jump(header, &[]);
        self.b.seal_block(header);
        self.b.switch_to_block(leave);
        self.b.seal_block(leave);
        let out = self.b.use_var(brk);
        self.set_exec(out);
        self.join_skipped(exit);
        self.frames.pop();
        self.nesting -= 1;
        self.full = full_before && !self.env.an.range_loses(i, endloop + 1);
        self.exec_zero = false;
        Ok(())
    }

    fn lower_switch(&mut self, i: usize, endswitch: usize) -> Result<(), LowerError> {
        self.enter(i)?;
        self.count_control();
        let full_before = self.full;
        let program = self.env.program;
        let saved = self.use_exec();
        let sel_src = program.instructions[i]
            .src
            .first()
            .ok_or_else(|| self.invalid(i, "SWITCH needs a source"))?;
        let sel = self.fetch(i, sel_src, FetchType::Int, 0x1)?[0];
        let mut cases = std::collections::HashMap::new();
        let mut any = self.ci(0);
        for k in i + 1..endswitch {
            let insn = &program.instructions[k];
            if insn.opcode != Opcode::CASE || self.env.an.partner(k) != i {
                continue;
            }
            let src = insn
                .src
                .first()
                .ok_or_else(|| self.invalid(k, "CASE needs a source"))?;
            let val = self.fetch(k, src, FetchType::Int, 0x1)?[0];
            let eq = self.b.ins().icmp(IntCC::Equal, sel, val);
            let m = self.b.ins().band(eq, saved);
            any = self.b.ins().bor(any, m);
            cases.insert(k, m);
        }
        let default = self.b.ins().band_not(saved, any);
        let zero = self.ci(0);
        let brk = self.new_mask_var(zero);
        let started = self.new_mask_var(zero);
        self.set_exec(zero);
        // A body that only computes under the mask runs without a branch (as the parts of
        // `branch_part`): with no lane in `saved` no label takes a lane.
        let exit = (!self.straight(i + 1, endswitch)).then(|| self.skip_unless_any(saved, None));
        self.frames.push(Frame::Switch {
            brk,
            started,
            default,
            cases,
        });
        self.full = false;
        self.exec_zero = true;
        self.nested(i + 1, endswitch)?;
        self.count_lowered(endswitch)?;
        self.count_control();
        let exec = self.use_exec();
        let b = self.b.use_var(brk);
        let st = self.b.use_var(started);
        let unmatched = self.b.ins().band_not(saved, st);
        let back = self.b.ins().bor(b, unmatched);
        let exec = self.b.ins().bor(exec, back);
        self.set_exec(exec);
        self.join_skipped(exit);
        self.frames.pop();
        self.nesting -= 1;
        self.full = full_before && !self.env.an.range_loses(i, endswitch + 1);
        self.exec_zero = false;
        Ok(())
    }

    /// CASE / DEFAULT: lanes whose label this is and that have not started join `exec`.
    fn case(&mut self, i: usize) -> Result<(), LowerError> {
        let op = self.env.program.instructions[i].opcode;
        let (started, m) = match self.frames.last() {
            Some(Frame::Switch {
                started,
                default,
                cases,
                ..
            }) => {
                let m = if op == Opcode::DEFAULT {
                    Some(*default)
                } else {
                    cases.get(&i).copied()
                };
                (*started, m)
            }
            _ => return Err(self.invalid(i, format!("{op} outside SWITCH"))),
        };
        let m = m.ok_or_else(|| self.invalid(i, "CASE of another SWITCH"))?;
        self.count_control();
        let st = self.b.use_var(started);
        let new = self.b.ins().band_not(m, st);
        let st = self.b.ins().bor(st, new);
        self.b.def_var(started, st);
        let exec = self.use_exec();
        let exec = self.b.ins().bor(exec, new);
        self.set_exec(exec);
        self.exec_zero = false;
        Ok(())
    }

    fn lower_call(&mut self, i: usize) -> Result<(), LowerError> {
        self.count_control();
        let target = self.env.an.partner(i);
        let endsub = self.env.an.partner(target);
        if self.call_depth >= MAX_CALL_DEPTH {
            // The oracle stops the run when an executing invocation nests calls this deep.
            let exec = self.use_exec();
            self.exit_if_any(exec, STATUS_CALL_DEPTH);
            return Ok(());
        }
        self.enter(i)?;
        let full_before = self.full;
        let zero = self.ci(0);
        let ret = self.new_mask_var(zero);
        // A body that only computes under the mask runs without a branch (`branch_part`).
        let after = (!self.straight(target + 1, endsub)).then(|| {
            let exec = self.use_exec();
            self.skip_unless_any(exec, None)
        });
        self.frames.push(Frame::Call { ret });
        self.call_depth += 1;
        self.exec_zero = false;
        self.nested(target + 1, endsub)?;
        self.count_lowered(endsub)?;
        self.count_control();
        let exec = self.use_exec();
        let r = self.b.use_var(ret);
        let exec = self.b.ins().bor(exec, r);
        self.set_exec(exec);
        self.join_skipped(after);
        self.frames.pop();
        self.call_depth -= 1;
        self.nesting -= 1;
        self.full = full_before && !self.env.an.sub_loses(target);
        self.exec_zero = false;
        Ok(())
    }

    /// A non-control instruction (its step is already counted): ALU, derivative, KILL,
    /// KILL_IF, DEMOTE, EMIT, ENDPRIM, NOP.
    fn instruction(&mut self, i: usize) -> Result<(), LowerError> {
        use Opcode::*;
        let env = self.env;
        let insn = &env.program.instructions[i];
        match insn.opcode {
            NOP => Ok(()),
            KILL | KILP => {
                self.flush();
                let exec = self.use_exec();
                self.or_into(self.gone, exec);
                self.exec_off();
                Ok(())
            }
            KILL_IF | KIL => {
                self.flush();
                let src = insn
                    .src
                    .first()
                    .ok_or_else(|| self.invalid(i, "KILL_IF needs a source"))?;
                let v = self.fetch(i, src, FetchType::Float, 0xF)?;
                let zero = self.fconst_zero();
                let mut any = None;
                for x in v {
                    let f = self.cast(F32X4, x);
                    // FAULT HOOK (kill-if-sign-bit): a sign-bit test instead of `< 0.0`.
                    let lt = if self.env.fault == Some(Fault::KillIfSignBit) {
                        faults::lower::kill_sign_bit(&mut self.b, x)
                    } else {
                        self.b.ins().fcmp(FloatCC::LessThan, f, zero)
                    };
                    any = Some(match any {
                        None => lt,
                        Some(a) => self.b.ins().bor(a, lt),
                    });
                }
                let exec = self.use_exec();
                let kill = match any {
                    Some(a) => self.b.ins().band(a, exec),
                    None => self.ci(0),
                };
                self.or_into(self.gone, kill);
                let exec = self.b.ins().band_not(exec, kill);
                self.set_exec(exec);
                self.full = false;
                Ok(())
            }
            DEMOTE => {
                let exec = self.use_exec();
                self.or_into(self.gone, exec);
                Ok(())
            }
            EMIT | ENDPRIM => self.emit_vertex(i, insn.opcode == ENDPRIM),
            op if crate::memory::is_memory(op) => self.memory(i),
            op if crate::texture::TEX_OPCODES.contains(&op) => self.texture(i),
            VOTE_ANY | VOTE_ALL | VOTE_EQ | READ_FIRST => self.vote(i),
            DDX | DDY | DDX_FINE | DDY_FINE => {
                let y = matches!(insn.opcode, DDY | DDY_FINE);
                let fine = matches!(insn.opcode, DDX_FINE | DDY_FINE);
                self.derivative(i, y, fine)
            }
            INTERP_CENTROID | INTERP_SAMPLE | INTERP_OFFSET => self.interpolate(i),
            _ => self.alu(i),
        }
    }

    fn fconst_zero(&mut self) -> Value {
        let z = self.ci(0);
        self.cast(F32X4, z)
    }

    /// DDX/DDY (tgsi.rst; INTERFACE.md "Fragment quads": lanes `(x,y) (x+1,y) (x,y+1)
    /// (x+1,y+1)`): fine DDX `v1-v0` (lanes 0,1) and `v3-v2` (lanes 2,3); fine DDY `v2-v0`
    /// (lanes 0,2) and `v3-v1` (lanes 1,3); coarse: the top row's / left column's difference
    /// in all four lanes.
    fn derivative(&mut self, i: usize, y: bool, fine: bool) -> Result<(), LowerError> {
        let env = self.env;
        let insn = &env.program.instructions[i];
        let Some(dst) = insn.dst.first() else {
            return Ok(());
        };
        let wm = dst.writemask & 0xF;
        if wm == 0 {
            return Ok(());
        }
        let src = insn
            .src
            .first()
            .ok_or_else(|| self.invalid(i, "derivative needs a source"))?;
        let v = self.fetch(i, src, FetchType::Float, wm)?;
        let (hi, lo) = match (y, fine) {
            (false, true) => ([1, 1, 3, 3], [0, 0, 2, 2]),
            (true, true) => ([2, 3, 2, 3], [0, 1, 0, 1]),
            (false, false) => ([1, 1, 1, 1], [0, 0, 0, 0]),
            (true, false) => ([2, 2, 2, 2], [0, 0, 0, 0]),
        };
        let mut out = [None; 4];
        for c in 0..4 {
            if wm >> c & 1 == 0 {
                continue;
            }
            let a = self.shuffle32(v[c], v[c], hi);
            let b = self.shuffle32(v[c], v[c], lo);
            let a = self.cast(F32X4, a);
            let b = self.cast(F32X4, b);
            let d = self.b.ins().fsub(a, b);
            out[c] = Some(self.cast(I32X4, d));
        }
        let dst = *dst;
        self.store(i, &dst, out, insn.saturate)
    }

    /// An ALU instruction: fetch (componentwise opcodes only the written channels), lower
    /// with [`alu::lower`], saturate and store.
    fn alu(&mut self, i: usize) -> Result<(), LowerError> {
        let env = self.env;
        let insn = &env.program.instructions[i];
        let op = insn.opcode;
        let info = op.info();
        let Some(dst) = insn.dst.first().copied() else {
            return Ok(());
        };
        let wm = dst.writemask & 0xF;
        if wm == 0 || dst.reg.file == shaderdiff_model::File::Null {
            return Ok(());
        }
        let nsrc = info.num_src as usize;
        if insn.src.len() < nsrc {
            return Err(self.invalid(i, format!("{op} needs {nsrc} sources")));
        }
        let chans = if info.output_mode == IrOutputMode::Componentwise && !alu::is_wide(op) {
            wm
        } else if alu::reads_x_only(op) {
            0x1
        } else {
            0xF
        };
        // Operands may stay `f32x4` for the float opcodes whose lowerings cast every operand;
        // a fault's lowering gets `i32x4` operands as always.
        let float_ok = float_opcode(op, env.fault);
        let mut srcs = Vec::with_capacity(nsrc);
        for (k, src) in insn.src.iter().take(nsrc).enumerate() {
            let ty = fetch_type(op, k);
            srcs.push(if float_ok {
                self.fetch_float(i, src, ty, chans)?
            } else {
                self.fetch(i, src, ty, chans)?
            });
        }
        // FAULT HOOK (shift-count-unmasked, f2i-rounds, round-half-away, min-nan-propagates):
        // the faulty lowering of this opcode, when its fault is switched on.
        let faulty = faults::lower::alu(env.fault, &mut self.b, op, &srcs, wm);
        let out = if let Some(out) = faulty {
            out
        } else {
            let mut ctx = AluCtx {
                b: &mut self.b,
                libcalls: self.libcalls,
            };
            alu::lower(&mut ctx, op, &srcs, wm).map_err(|e| LowerError::Unsupported {
                opcode: Some(op),
                pos: self.env.program.source_map.instruction(i),
                reason: e.to_string(),
            })?
        };
        self.store(i, &dst, out, insn.saturate)
    }
}

/// Whether instruction opcode `op` takes `f32x4` operands and gives results its store casts
/// (`Lowerer::fetch_float`, `Lowerer::float_regs`): [`alu::takes_f32_sources`], when no
/// fault replaces the opcode's lowering.
pub(super) fn float_opcode(op: Opcode, fault: Option<crate::faults::Fault>) -> bool {
    fault.is_none() && alu::takes_f32_sources(op)
}
