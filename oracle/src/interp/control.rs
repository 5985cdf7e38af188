//! Structured control flow with per-lane masks (tgsi.rst "GLSL ISA").
//!
//! `exec` holds the lanes executing the current instruction. Lanes leave it through BRK,
//! CONT, RET, END, KILL or a false condition and are parked in the frame of the construct
//! that brings them back:
//!
//! * IF/UIF: condition `src.x != 0.0` (float; NaN is true, ±0 false) / `bits(src.x) != 0`.
//!   The false lanes wait in the frame until ELSE; at ENDIF both groups rejoin.
//! * BGNLOOP/ENDLOOP: BRK parks lanes until the loop exits, CONT until ENDLOOP. ENDLOOP
//!   repeats the body while any lane is active or continuing; the loop exits with the
//!   lanes that executed BRK.
//! * SWITCH: selector and CASE values compared bit-exactly; a lane starts at the first
//!   label that matches it (DEFAULT: no CASE of the switch matches, wherever DEFAULT
//!   stands) and falls through labels until BRK, like C. Lanes with no matching label
//!   and no DEFAULT skip the body.
//! * CAL/RET/ENDSUB: RET parks lanes in the call frame until ENDSUB returns to the
//!   caller; RET outside any subroutine terminates the lanes. END terminates the lanes.
//!
//! Branches no lane takes are skipped (IF to its ELSE/ENDIF, a loop or switch entered by
//! no lane to its end, CAL by no lane not at all).

use super::decode::{DInsn, Kind};
use super::exec::Next;
use super::lanes::{FetchType, Mask};
use super::state::{Frame, Machine};
use super::{ExecError, MAX_CALL_DEPTH};

fn broken(pc: usize) -> ExecError {
    ExecError::InvalidProgram {
        pos: None,
        message: format!("control-flow frames out of order at instruction {pc}"),
    }
}

impl Machine<'_> {
    /// Executes control-flow instruction `insn` at `pc`.
    pub fn control(&mut self, pc: usize, insn: &DInsn) -> Result<Next, ExecError> {
        let next = Next::Pc(pc + 1);
        match insn.kind {
            Kind::If { int, target } => {
                let cond = if self.exec == 0 {
                    0
                } else {
                    self.condition(
                        insn,
                        if int {
                            FetchType::Int
                        } else {
                            FetchType::Float
                        },
                    )
                };
                let taken = self.exec & cond;
                self.frames.push(Frame::If {
                    other: self.exec & !cond,
                });
                self.exec = taken;
                if taken == 0 {
                    return Ok(Next::Pc(target as usize));
                }
            }
            Kind::Else { endif } => match self.frames.last_mut() {
                Some(Frame::If { other }) => {
                    std::mem::swap(&mut self.exec, other);
                    if self.exec == 0 {
                        return Ok(Next::Pc(endif as usize));
                    }
                }
                _ => return Err(broken(pc)),
            },
            Kind::EndIf => match self.frames.pop() {
                Some(Frame::If { other }) => self.exec |= other,
                _ => return Err(broken(pc)),
            },
            Kind::BgnLoop { endloop } => {
                if self.exec == 0 {
                    return Ok(Next::Pc(endloop as usize + 1));
                }
                self.frames.push(Frame::Loop {
                    brk: 0,
                    cont: 0,
                    start: pc as u32 + 1,
                });
            }
            Kind::EndLoop => match self.frames.last_mut() {
                Some(Frame::Loop { brk, cont, start }) => {
                    let again = self.exec | *cont;
                    if again != 0 {
                        *cont = 0;
                        self.exec = again;
                        return Ok(Next::Pc(*start as usize));
                    }
                    self.exec = *brk;
                    self.frames.pop();
                }
                _ => return Err(broken(pc)),
            },
            Kind::Brk => {
                let exec = self.exec;
                let frame = self
                    .frames
                    .iter_mut()
                    .rev()
                    .find(|f| matches!(f, Frame::Loop { .. } | Frame::Switch { .. }));
                match frame {
                    Some(Frame::Loop { brk, .. } | Frame::Switch { brk, .. }) => *brk |= exec,
                    _ => return Err(broken(pc)),
                }
                self.exec = 0;
            }
            Kind::Cont => {
                let exec = self.exec;
                match self
                    .frames
                    .iter_mut()
                    .rev()
                    .find(|f| matches!(f, Frame::Loop { .. }))
                {
                    Some(Frame::Loop { cont, .. }) => *cont |= exec,
                    _ => return Err(broken(pc)),
                }
                self.exec = 0;
            }
            Kind::Switch {
                endswitch,
                first_case,
                num_cases,
            } => {
                let off = self.case_masks.len() as u32;
                let saved = self.exec;
                let mut any: Mask = 0;
                if saved != 0 {
                    self.switch_matches(insn, first_case, num_cases);
                    any = self.case_masks[off as usize..].iter().fold(0, |a, m| a | m);
                }
                self.frames.push(Frame::Switch {
                    saved,
                    started: 0,
                    brk: 0,
                    default: saved & !any,
                    off,
                });
                self.exec = 0;
                if saved == 0 {
                    return Ok(Next::Pc(endswitch as usize));
                }
            }
            Kind::Case { ordinal } => match self.frames.last_mut() {
                Some(Frame::Switch {
                    saved,
                    started,
                    off,
                    ..
                }) => {
                    let m = match self.case_masks.get((*off + ordinal) as usize) {
                        Some(&m) => m & !*started,
                        None if *saved == 0 => 0,
                        None => return Err(broken(pc)),
                    };
                    *started |= m;
                    self.exec |= m;
                }
                _ => return Err(broken(pc)),
            },
            Kind::Default => match self.frames.last_mut() {
                Some(Frame::Switch {
                    started, default, ..
                }) => {
                    let m = *default & !*started;
                    *started |= m;
                    self.exec |= m;
                }
                _ => return Err(broken(pc)),
            },
            Kind::EndSwitch => match self.frames.pop() {
                Some(Frame::Switch {
                    saved,
                    started,
                    brk,
                    off,
                    ..
                }) => {
                    self.exec |= brk | (saved & !started);
                    self.case_masks.truncate(off as usize);
                }
                _ => return Err(broken(pc)),
            },
            Kind::Cal { target } => {
                if self.exec == 0 {
                    return Ok(next);
                }
                if self.call_depth >= MAX_CALL_DEPTH {
                    return Err(ExecError::CallDepth {
                        limit: MAX_CALL_DEPTH,
                        invocation: self.base + self.exec.trailing_zeros() as usize,
                    });
                }
                self.call_depth += 1;
                self.frames.push(Frame::Call {
                    ret_pc: pc as u32 + 1,
                    ret: 0,
                });
                return Ok(Next::Pc(target as usize + 1));
            }
            Kind::Ret => {
                let exec = self.exec;
                if let Some(Frame::Call { ret, .. }) = self
                    .frames
                    .iter_mut()
                    .rev()
                    .find(|f| matches!(f, Frame::Call { .. }))
                {
                    *ret |= exec;
                }
                self.exec = 0;
                if self.frames.is_empty() {
                    return Ok(Next::Stop);
                }
            }
            Kind::EndSub => match self.frames.pop() {
                Some(Frame::Call { ret_pc, ret }) => {
                    self.exec |= ret;
                    self.call_depth -= 1;
                    return Ok(Next::Pc(ret_pc as usize));
                }
                None => return Ok(Next::Stop),
                _ => return Err(broken(pc)),
            },
            // Falling into a subroutine from the main program ends the main program.
            Kind::BgnSub | Kind::End => {
                self.exec = 0;
                if self.frames.is_empty() {
                    return Ok(Next::Stop);
                }
            }
            Kind::Alu
            | Kind::Deriv { .. }
            | Kind::Kill
            | Kind::KillIf
            | Kind::Demote
            | Kind::Nop
            | Kind::Emit { .. }
            | Kind::Mem(_)
            | Kind::Tex(_)
            | Kind::Vote(_)
            | Kind::Interp { .. } => {}
        }
        Ok(next)
    }

    /// Pushes one match mask per CASE of the switch: executing lanes whose selector equals
    /// the CASE value bit for bit (tgsi.rst SWITCH). Undefined selector or CASE values
    /// make the lane unconstrained.
    fn switch_matches(&mut self, insn: &DInsn, first_case: u32, num_cases: u32) {
        let d = self.d;
        let exec = self.exec;
        let sel_addr = self.regs.fetch(
            d,
            &self.uniform,
            &insn.srcs[0],
            0x1,
            &mut self.s.srcs[0],
            &mut self.s.src_und[0],
            &mut self.s.slots,
        );
        let mut und = sel_addr | self.s.src_und[0][0];
        for k in first_case..first_case + num_cases {
            let op = &d.case_ops[k as usize];
            let addr = self.regs.fetch(
                d,
                &self.uniform,
                op,
                0x1,
                &mut self.s.srcs[1],
                &mut self.s.src_und[1],
                &mut self.s.slots,
            );
            und |= addr | self.s.src_und[1][0];
            let (sel, val) = (&self.s.srcs[0][0], &self.s.srcs[1][0]);
            let mut m: Mask = 0;
            for l in 0..sel.len() {
                m |= ((sel[l] == val[l]) as Mask) << l;
            }
            self.case_masks.push(m & exec);
        }
        self.unconstrained |= und & exec;
        if self.iv.is_some() {
            self.iv_switch(insn, first_case, num_cases);
        }
    }
}
