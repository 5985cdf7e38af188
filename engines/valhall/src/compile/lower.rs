//! TGSI → [`VCode`]: operand access (swizzles, modifiers, indirect addressing, saturate,
//! writemasks), structured control flow and the program's prologue/epilogue. The opcode
//! semantics themselves are in `alu` and `flow`.
//!
//! Control flow is compiled as for a scalar processor: every thread has its own PC
//! (SEMANTICS.md §1.2), so IF/ELSE, loops, BRK/CONT and SWITCH become BRANCHZ to labels and
//! divergence is the simulator's business. Subroutines are inlined (Valhall has no call
//! instruction; Mesa inlines too).

use rustc_hash::FxHashMap;

use shaderdiff_model::check::shape::Shape;
use shaderdiff_model::{Opcode, Program, Register, Stage};

use super::abi::{RecordLayout, RECORD_REG};
use super::vcode::{Flow, Label, VCode, VDst, VReg, VSrc, Val};
use super::CompileError;
use crate::SrcValue;

/// Deepest subroutine inlining: the oracle's call depth limit. A CAL deeper than that
/// (recursion) compiles to the call-depth exit ([`STATUS_CALL_DEPTH`]).
const MAX_INLINE_DEPTH: usize = shaderdiff_model::check::MAX_CALL_DEPTH;
/// Status word bit: the invocation demoted itself (DEMOTE).
pub const STATUS_DEMOTED: u32 = 1;
/// Status word bit: the invocation executed a CAL nested deeper than the oracle's
/// `MAX_CALL_DEPTH`; it stopped there (the run reports `CallDepth`).
pub const STATUS_CALL_DEPTH: u32 = 2;
/// Largest program (Valhall instructions) the compiler produces.
pub const MAX_CODE: usize = 200_000;

/// The quad lane indices of a fragment thread (INTERFACE.md "Fragment quads"), computed in
/// the prologue from the `lane_id` FAU special value.
#[derive(Clone, Copy)]
pub struct QuadLanes {
    /// `lane & ~1`, `lane | 1`: the left and right invocation of the thread's row.
    pub row: [VReg; 2],
    /// `lane & ~2`, `lane | 2`: the top and bottom invocation of the thread's column.
    pub col: [VReg; 2],
    /// `lane & ~3` (top-left), `| 1` (top-right), `| 2` (bottom-left).
    pub quad: [VReg; 3],
}

/// A breakable construct on the control stack.
enum Frame {
    If {
        else_l: Label,
        end_l: Option<Label>,
    },
    Loop {
        top: Label,
        end: Label,
    },
    Switch {
        end: Label,
        cases: Vec<Label>,
        default: Option<Label>,
        next_case: usize,
    },
}

/// The lowering state.
pub struct Lower<'a> {
    pub(super) program: &'a Program,
    pub(super) shape: &'a Shape,
    pub(super) layout: &'a RecordLayout,
    /// The code being built.
    pub code: VCode,
    pub(super) regs: FxHashMap<(usize, u32, u8), VReg>,
    /// The demote flag (DEMOTE), created on first use.
    pub(super) demoted: Option<VReg>,
    /// Geometry programs: the emitted-vertex counter and current primitive id.
    pub(super) emit_state: Option<(VReg, VReg)>,
    pub(super) lanes: Option<QuadLanes>,
    /// Geometry programs: per-stream primitive state (see `geom`).
    pub(super) streams: super::geom::StreamState,
    /// The injected fault, if any ([`crate::faults`]).
    pub(super) fault: Option<crate::faults::Fault>,
    epilogue: Label,
    frames: Vec<Frame>,
    returns: Vec<Label>,
}

impl<'a> Lower<'a> {
    /// Starts a program.
    pub fn new(program: &'a Program, shape: &'a Shape, layout: &'a RecordLayout) -> Lower<'a> {
        // Room for the items a program usually lowers to (about 15 per instruction, some
        // programs twice that), so the stream of large `Item`s is not copied again and
        // again as it grows.
        let mut code = VCode {
            const_base: layout.constants_base(),
            items: Vec::with_capacity(32 * program.instructions.len() + 64),
            ..VCode::default()
        };
        let epilogue = code.label();
        Lower {
            program,
            shape,
            layout,
            code,
            regs: FxHashMap::default(),
            demoted: None,
            emit_state: None,
            lanes: None,
            streams: Default::default(),
            fault: None,
            epilogue,
            frames: Vec::new(),
            returns: Vec::new(),
        }
    }

    /// Lowers the whole program: prologue, the main program (subroutines inlined where they
    /// are called), the epilogue storing the outputs.
    pub fn run(mut self) -> Result<VCode, CompileError> {
        if self.program.stage == Stage::Fragment {
            self.quad_lanes();
        }
        if self.program.stage == Stage::Geometry {
            let count = self.code.vreg();
            let prim = self.code.vreg();
            self.emit_state = Some((count, prim));
        }
        let n = self.program.instructions.len();
        self.body(0, n, 0)?;
        let epilogue = self.epilogue;
        self.code.place(epilogue);
        self.store_outputs();
        self.code.ins("NOP", VDst::None, &[], &[]);
        if let Some(last) = self.code.last_mut() {
            last.flow = Flow::End;
        }
        Ok(self.code)
    }

    /// Lowers instructions `start..end` (the main program, or a subroutine body).
    fn body(&mut self, start: usize, end: usize, depth: usize) -> Result<(), CompileError> {
        let mut i = start;
        while i < end {
            if self.code.items.len() > MAX_CODE {
                return Err(CompileError::unsupported(
                    None,
                    "program too large for the valhall compiler",
                ));
            }
            let insn = &self.program.instructions[i];
            if insn.cond.is_some() || insn.cc_update.is_some() {
                return Err(CompileError::unsupported(
                    self.pos(i),
                    "condition codes (NV programs) are not supported by valhall yet",
                ));
            }
            self.code.pending_weight += 1;
            match insn.opcode {
                Opcode::BGNSUB => {
                    // Falling into a subroutine ends the main program (oracle rule).
                    let e = self.epilogue;
                    self.code.jump(e);
                    return Ok(());
                }
                Opcode::CAL => {
                    let target = insn
                        .label
                        .ok_or_else(|| CompileError::invalid(self.pos(i), "CAL without a target"))?
                        as usize;
                    let sub_end = (target + 1..self.program.instructions.len())
                        .find(|&k| self.program.instructions[k].opcode == Opcode::ENDSUB)
                        .ok_or_else(|| {
                            CompileError::invalid(self.pos(i), "BGNSUB without ENDSUB")
                        })?;
                    if depth >= MAX_INLINE_DEPTH {
                        let k = self.code.konst(STATUS_CALL_DEPTH);
                        let st = self.layout.status;
                        self.store_at(Val::P(RECORD_REG), st, k);
                        self.code.ins("NOP", VDst::None, &[], &[]);
                        if let Some(last) = self.code.last_mut() {
                            last.flow = Flow::End;
                        }
                        i += 1;
                        continue;
                    }
                    let ret = self.code.label();
                    self.returns.push(ret);
                    let saved = std::mem::take(&mut self.frames);
                    self.body(target + 1, sub_end, depth + 1)?;
                    self.frames = saved;
                    self.returns.pop();
                    self.code.place(ret);
                }
                Opcode::RET => {
                    let t = self.returns.last().copied().unwrap_or(self.epilogue);
                    self.code.jump(t);
                }
                Opcode::END => {
                    let e = self.epilogue;
                    self.code.jump(e);
                }
                Opcode::ENDSUB => {}
                _ => self.instruction(i)?,
            }
            i += 1;
        }
        Ok(())
    }

    /// The source position of instruction `i`.
    pub(super) fn pos(&self, i: usize) -> Option<shaderdiff_model::Pos> {
        self.program.source_map.instruction(i)
    }

    /// Lowers one instruction that is not CAL/RET/END/BGNSUB/ENDSUB.
    fn instruction(&mut self, i: usize) -> Result<(), CompileError> {
        let insn = &self.program.instructions[i];
        use Opcode::*;
        match insn.opcode {
            IF | UIF => {
                let x = self.fetch(insn, 0, 0)?;
                let cond = if insn.opcode == IF {
                    let z = self.code.konst(0);
                    self.code.op(
                        "FCMP_OR.f32",
                        &[x, z, z],
                        &[("cmp", "ne"), ("result_type", "m1")],
                    )
                } else {
                    x
                };
                let else_l = self.code.label();
                self.code.branch(cond, true, else_l);
                self.frames.push(Frame::If {
                    else_l,
                    end_l: None,
                });
            }
            ELSE => {
                let end = self.code.label();
                self.code.jump(end);
                if let Some(Frame::If { else_l, end_l }) = self.frames.last_mut() {
                    *end_l = Some(end);
                    let l = *else_l;
                    self.code.place(l);
                }
            }
            ENDIF => {
                if let Some(Frame::If { else_l, end_l }) = self.frames.pop() {
                    self.code.place(end_l.unwrap_or(else_l));
                }
            }
            BGNLOOP => {
                let top = self.code.label();
                let end = self.code.label();
                self.code.place(top);
                self.frames.push(Frame::Loop { top, end });
            }
            ENDLOOP => {
                if let Some(Frame::Loop { top, end }) = self.frames.pop() {
                    self.code.jump(top);
                    self.code.place(end);
                }
            }
            BRK => {
                let t = self.frames.iter().rev().find_map(|f| match f {
                    Frame::Loop { end, .. } | Frame::Switch { end, .. } => Some(*end),
                    Frame::If { .. } => None,
                });
                if let Some(t) = t {
                    self.code.jump(t);
                }
            }
            CONT => {
                let t = self.frames.iter().rev().find_map(|f| match f {
                    Frame::Loop { top, .. } => Some(*top),
                    _ => None,
                });
                if let Some(t) = t {
                    self.code.jump(t);
                }
            }
            SWITCH => self.switch(i)?,
            CASE => {
                if let Some(Frame::Switch {
                    cases, next_case, ..
                }) = self.frames.last_mut()
                {
                    if let Some(&l) = cases.get(*next_case) {
                        *next_case += 1;
                        self.code.place(l);
                    }
                }
            }
            DEFAULT => {
                if let Some(Frame::Switch {
                    default: Some(l), ..
                }) = self.frames.last()
                {
                    let l = *l;
                    self.code.place(l);
                }
            }
            ENDSWITCH => {
                if let Some(Frame::Switch { end, .. }) = self.frames.pop() {
                    self.code.place(end);
                }
            }
            NOP => {}
            op if super::memory::is_memory(op) => self.memory_op(i)?,
            op if op.info().is_tex => self.texture_op(i)?,
            _ => self.op(i)?,
        }
        Ok(())
    }

    /// SWITCH: the selector and every CASE value of this switch are read now (oracle rule:
    /// CASE values are evaluated when SWITCH executes), then one compare-and-branch per
    /// CASE in order; unmatched threads go to DEFAULT wherever it stands, or past the end.
    fn switch(&mut self, i: usize) -> Result<(), CompileError> {
        let insns = &self.program.instructions;
        let sel = self.fetch(&insns[i], 0, 0)?;
        let mut depth = 0usize;
        let mut case_idx = Vec::new();
        let mut has_default = false;
        for (k, insn) in insns.iter().enumerate().skip(i + 1) {
            match insn.opcode {
                Opcode::SWITCH => depth += 1,
                Opcode::ENDSWITCH if depth == 0 => break,
                Opcode::ENDSWITCH => depth -= 1,
                Opcode::CASE if depth == 0 => case_idx.push(k),
                Opcode::DEFAULT if depth == 0 => has_default = true,
                _ => {}
            }
        }
        let end = self.code.label();
        let mut cases = Vec::new();
        for &k in &case_idx {
            let v = self.fetch(&insns[k], 0, 0)?;
            let z = self.code.konst(0);
            let eq = self.code.op(
                "ICMP_OR.u32",
                &[sel, v, z],
                &[("cmp", "eq"), ("result_type", "m1")],
            );
            let l = self.code.label();
            self.code.branch(eq, false, l);
            cases.push(l);
        }
        let default = has_default.then(|| self.code.label());
        self.code.jump(default.unwrap_or(end));
        self.frames.push(Frame::Switch {
            end,
            cases,
            default,
            next_case: 0,
        });
        Ok(())
    }

    /// Stores every output register to the record (epilogue).
    fn store_outputs(&mut self) {
        let outs = self.layout.outputs.clone();
        for (key, off) in outs {
            let reg = Register {
                file: key.file,
                index: shaderdiff_model::Index::direct(key.index as i32),
                dimension: key
                    .dimension
                    .map(|d| shaderdiff_model::Index::direct(d as i32)),
            };
            let Some(s) = self.space(&reg) else { continue };
            if self.layout.spaces[s].record.is_some() {
                continue;
            }
            for c in 0..4u8 {
                let v = self.read_direct(&reg, c);
                self.store_at(Val::P(RECORD_REG), off + 4 * u32::from(c), v);
            }
        }
        if let Some(d) = self.demoted {
            let st = self.layout.status;
            self.store_at(Val::P(RECORD_REG), st, VSrc::v(d));
        }
        if let (Some((count, _)), Some(e)) = (self.emit_state, self.layout.emit.clone()) {
            self.store_at(Val::P(RECORD_REG), e.count, VSrc::v(count));
        }
    }

    /// The quad lane indices (prologue of fragment programs).
    fn quad_lanes(&mut self) {
        let (page, entry) = crate::isa().find_special("lane_id").unwrap_or((3, 0));
        let lane = VSrc::new(Val::Fau(SrcValue::Special {
            page,
            entry,
            hi: false,
        }));
        let lane = self.code.op("MOV.i32", &[lane], &[]);
        let z = self.code.lane_const(0);
        let and = |code: &mut VCode, m: u32| {
            let k = code.konst(m);
            match code.op("LSHIFT_AND.i32", &[lane, z, k], &[]).val {
                Val::V(r) => r,
                _ => unreachable!(),
            }
        };
        let xe = and(&mut self.code, !1);
        let ye = and(&mut self.code, !2);
        let q0 = and(&mut self.code, !3);
        let or = |code: &mut VCode, a: VReg, m: u32| {
            let k = code.konst(m);
            match code.op("LSHIFT_OR.i32", &[VSrc::v(a), z, k], &[]).val {
                Val::V(r) => r,
                _ => unreachable!(),
            }
        };
        let xo = or(&mut self.code, xe, 1);
        let yo = or(&mut self.code, ye, 2);
        let q1 = or(&mut self.code, q0, 1);
        let q2 = or(&mut self.code, q0, 2);
        self.lanes = Some(QuadLanes {
            row: [xe, xo],
            col: [ye, yo],
            quad: [q0, q1, q2],
        });
    }
}
