//! Condition codes (NV_gpu_program4 §2.X.4.3 "Condition Code Registers", Table X.16;
//! NOTES.md §7) lowered to ordinary IR instructions: each of CC0 and CC1 is four hidden
//! TEMPs, one per flag (SF, ZF, OF, CF), each component holding ~0 (set) or 0 (clear).
//! A `.CC` update computes the flags of the (clamped) result; a conditional write mask and
//! a condition on IF / BRK / CONT / CAL / RET / KIL evaluate the test of Table X.16 with
//! AND / OR / XOR / NOT on those flags. Writes under a conditional mask are done per
//! component inside UIF blocks, so the destination is never read.

use super::ast::{BaseType, CcTest, CondCode, Instruction as NvInsn};
use super::lower::{dst, src};
use super::lower::{Ctx, LowerError};
use super::NvOpcode as N;
use crate::names::File;
use crate::opcode::Opcode as O;
use crate::program::{self as ir, Register, Saturate};

const ALL: [u8; 4] = [0, 1, 2, 3];

/// A branch condition (`(ccTest)` of IF, BRK, CONT, CAL, RET, KIL).
pub(super) enum Cond {
    /// No test, or `TR`.
    Always,
    /// `FL`.
    Never,
    /// Passes when this scalar (component x) is non-zero.
    Dyn(ir::Src),
}

impl Ctx<'_> {
    /// The four flag TEMPs (SF, ZF, OF, CF) of condition code register `r`.
    pub(super) fn cc_flags(&self, r: u8) -> Result<[Register; 4], LowerError> {
        let base = self
            .cc_base
            .ok_or_else(|| self.unsupported("condition code registers not allocated".into()))?;
        let b = base + 4 * u32::from(r.min(1));
        Ok([0, 1, 2, 3].map(|k| Register::new(File::Temp, (b + k) as i32)))
    }

    /// The per-component result (~0 / 0) of a condition code test, after its swizzle.
    pub(super) fn cc_test(&mut self, t: CcTest) -> Result<Register, LowerError> {
        let [s, z, o, c] = self.cc_flags(t.reg)?;
        let sw = t.swizzle.components();
        let (s, z, o, c) = (src(s, sw), src(z, sw), src(o, sw), src(c, sw));
        let r = self.hidden();
        let u = self.hidden();
        let rr = src(r, ALL);
        let d = dst(r, 0xF);
        use CondCode::*;
        match t.cond {
            Eq => {
                self.emit(O::NOT, vec![d], vec![s]);
                self.emit(O::AND, vec![d], vec![rr, z]);
            }
            Ne => {
                self.emit(O::NOT, vec![d], vec![z]);
                self.emit(O::OR, vec![d], vec![rr, s]);
            }
            Lt => {
                self.emit(O::NOT, vec![d], vec![z]);
                self.emit(O::AND, vec![d], vec![rr, s]);
                self.emit(O::XOR, vec![d], vec![rr, o]);
            }
            Le => {
                self.emit(O::OR, vec![d], vec![z, o]);
                self.emit(O::XOR, vec![d], vec![rr, s]);
            }
            Gt => {
                self.emit(O::XOR, vec![d], vec![s, o]);
                self.emit(O::NOT, vec![d], vec![rr]);
                self.emit(O::NOT, vec![dst(u, 0xF)], vec![z]);
                self.emit(O::AND, vec![d], vec![rr, src(u, ALL)]);
            }
            Ge => {
                self.emit(O::XOR, vec![d], vec![s, o]);
                self.emit(O::NOT, vec![d], vec![rr]);
            }
            Nan => {
                self.emit(O::AND, vec![d], vec![s, z]);
            }
            Leg => {
                self.emit(O::AND, vec![d], vec![s, z]);
                self.emit(O::NOT, vec![d], vec![rr]);
            }
            Cf => {
                self.emit(O::MOV, vec![d], vec![c]);
            }
            Ncf => {
                self.emit(O::NOT, vec![d], vec![c]);
            }
            Of => {
                self.emit(O::MOV, vec![d], vec![o]);
            }
            Nof => {
                self.emit(O::NOT, vec![d], vec![o]);
            }
            Ab => {
                self.emit(O::NOT, vec![d], vec![z]);
                self.emit(O::AND, vec![d], vec![rr, c]);
            }
            Ble => {
                self.emit(O::NOT, vec![d], vec![c]);
                self.emit(O::OR, vec![d], vec![rr, z]);
            }
            Sf => {
                self.emit(O::MOV, vec![d], vec![s]);
            }
            Nsf => {
                self.emit(O::NOT, vec![d], vec![s]);
            }
            Tr | Fl => {
                let v = self.imm([if t.cond == Tr { u32::MAX } else { 0 }; 4]);
                self.emit(O::MOV, vec![d], vec![src(v, ALL)]);
            }
        }
        Ok(r)
    }

    /// A branch condition: passes if the test passes for any of the four components
    /// (§2.X.5: "passes if and only if any of the four components passes").
    pub(super) fn branch_cond(&mut self, insn: &NvInsn) -> Result<Cond, LowerError> {
        match insn.cond {
            None => Ok(Cond::Always),
            Some(c) if c.cond == CondCode::Tr => Ok(Cond::Always),
            Some(c) if c.cond == CondCode::Fl => Ok(Cond::Never),
            Some(c) => {
                let r = self.cc_test(c)?;
                let u = self.hidden();
                self.emit(
                    O::OR,
                    vec![dst(u, 0x1)],
                    vec![src(r, [0; 4]), src(r, [1; 4])],
                );
                self.emit(
                    O::OR,
                    vec![dst(u, 0x2)],
                    vec![src(r, [2; 4]), src(r, [3; 4])],
                );
                self.emit(
                    O::OR,
                    vec![dst(u, 0x1)],
                    vec![src(u, [0; 4]), src(u, [1; 4])],
                );
                Ok(Cond::Dyn(src(u, [0; 4])))
            }
        }
    }

    /// Emits `op` (BRK, CONT, RET, KILL, CAL) under the instruction's condition; returns
    /// the index of the emitted instruction, if any.
    pub(super) fn guarded(&mut self, insn: &NvInsn, op: O) -> Result<Option<usize>, LowerError> {
        match self.branch_cond(insn)? {
            Cond::Always => Ok(Some(self.emit(op, vec![], vec![]))),
            Cond::Never => Ok(None),
            Cond::Dyn(c) => {
                self.emit(O::UIF, vec![], vec![c]);
                let at = self.emit(op, vec![], vec![]);
                self.emit(O::ENDIF, vec![], vec![]);
                Ok(Some(at))
            }
        }
    }

    /// An instruction with a `.CC` update and/or a conditional write mask (§2.X.4.3): the
    /// result is computed into a hidden TEMP, the new flags from it, then the destination
    /// and the flags are written for the components of the write mask whose test passes.
    pub(super) fn with_cc(
        &mut self,
        insn: &NvInsn,
        ty: BaseType,
        sat: Saturate,
    ) -> Result<(), LowerError> {
        let name = insn.opcode.name();
        let Some(ndst) = insn.dst.clone() else {
            return Err(self.invalid(format!("{name}: .CC needs a result")));
        };
        let real = self.dest(insn)?;
        let t = self.hidden();
        // Carry and overflow of integer ADD / SUB / MAD (§2.X.4.3; NOTES.md §7; for MAD the
        // flags are those of adding c to the low 32 bits of the product).
        let mut carry: Option<(ir::Register, ir::Register)> = None;
        let int_addsub = matches!(insn.opcode, N::Add | N::Sub | N::Mad)
            && ty != BaseType::F
            && insn.mods.cc.is_some();
        if int_addsub {
            if insn.srcs.iter().any(|s| s.neg || s.neg_inside) {
                return Err(self.unsupported(format!(
                    "{name}.CC with a negated operand (carry and overflow of the implied subtraction)"
                )));
            }
            let (a, b) = if insn.opcode == N::Mad {
                let x = self.operand(insn, 0, ty)?;
                let y = self.operand(insn, 1, ty)?;
                let c = self.operand(insn, 2, ty)?;
                let p = self.hidden();
                self.emit(O::UMUL, vec![dst(p, 0xF)], vec![x, y]);
                (src(p, ALL), c)
            } else {
                (self.operand(insn, 0, ty)?, self.operand(insn, 1, ty)?)
            };
            let (of, cf) = (self.hidden(), self.hidden());
            let x = self.hidden();
            let zero = self.imm([0; 4]);
            if insn.opcode != N::Sub {
                self.emit(O::UADD, vec![dst(t, 0xF)], vec![a, b]);
                self.emit(O::USLT, vec![dst(cf, 0xF)], vec![src(t, ALL), a]);
                self.emit(O::XOR, vec![dst(x, 0xF)], vec![a, src(t, ALL)]);
                self.emit(O::XOR, vec![dst(of, 0xF)], vec![b, src(t, ALL)]);
            } else {
                self.emit(O::INEG, vec![dst(x, 0xF)], vec![b]);
                self.emit(O::UADD, vec![dst(t, 0xF)], vec![a, src(x, ALL)]);
                self.emit(O::USGE, vec![dst(cf, 0xF)], vec![a, b]);
                self.emit(O::XOR, vec![dst(x, 0xF)], vec![a, b]);
                self.emit(O::XOR, vec![dst(of, 0xF)], vec![a, src(t, ALL)]);
            }
            self.emit(O::AND, vec![dst(of, 0xF)], vec![src(of, ALL), src(x, ALL)]);
            self.emit(
                O::ISLT,
                vec![dst(of, 0xF)],
                vec![src(of, ALL), src(zero, ALL)],
            );
            carry = Some((of, cf));
        } else {
            if insn.mods.cc.is_some() && insn.opcode == N::Sad {
                return Err(self.unsupported(format!(
                    "{name}.CC on integers (carry and overflow of the addition)"
                )));
            }
            self.redirect = Some(t);
            let r = self.alu_for_cc(insn, ty, sat);
            self.redirect = None;
            r?;
        }
        // FAULT HOOK (LowerFault::CcFromUnsaturated): the flags of a clamped result come from
        // the value before clamping.
        let mut flags_of = t;
        if self.fault == Some(super::LowerFault::CcFromUnsaturated)
            && sat != Saturate::None
            && carry.is_none()
            && insn.mods.cc.is_some()
        {
            let u = self.hidden();
            self.redirect = Some(u);
            let r = self.alu_for_cc(insn, ty, Saturate::None);
            self.redirect = None;
            r?;
            flags_of = u;
        }
        // The test of a conditional write mask reads the flags before this update.
        let cv = match ndst.cc {
            Some(c) => Some(self.cc_test(c)?),
            None => None,
        };
        let mut moves: Vec<(Register, Register)> = vec![(real.reg, t)];
        if let Some(r) = insn.mods.cc {
            let flags = self.cc_flags(r)?;
            let result_ty = match insn.opcode {
                N::I2f | N::Up2h | N::Up2us | N::Up4b | N::Up4ub => BaseType::F,
                N::Cvt => insn.mods.ty.map_or(ty, |t| t.base()),
                _ => ty,
            };
            let (ns, nz) = (self.hidden(), self.hidden());
            let zero = self.imm([0; 4]);
            let tt = src(flags_of, ALL);
            if result_ty == BaseType::F {
                // SF = r < 0 or NaN; ZF = r == 0 (-0 too) or NaN.
                let n = self.hidden();
                self.emit(O::FSNE, vec![dst(n, 0xF)], vec![tt, tt]);
                self.emit(O::FSLT, vec![dst(ns, 0xF)], vec![tt, src(zero, ALL)]);
                self.emit(O::OR, vec![dst(ns, 0xF)], vec![src(ns, ALL), src(n, ALL)]);
                self.emit(O::FSEQ, vec![dst(nz, 0xF)], vec![tt, src(zero, ALL)]);
                self.emit(O::OR, vec![dst(nz, 0xF)], vec![src(nz, ALL), src(n, ALL)]);
            } else {
                // SF = most significant bit; ZF = r == 0.
                self.emit(O::ISLT, vec![dst(ns, 0xF)], vec![tt, src(zero, ALL)]);
                self.emit(O::USEQ, vec![dst(nz, 0xF)], vec![tt, src(zero, ALL)]);
            }
            let (of, cf) = match carry {
                Some(oc) => oc,
                None => (zero, zero),
            };
            moves.extend([
                (flags[0], ns),
                (flags[1], nz),
                (flags[2], of),
                (flags[3], cf),
            ]);
        }
        let mask = real.writemask;
        match cv {
            None => {
                for (to, from) in moves {
                    self.emit(O::MOV, vec![dst(to, mask)], vec![src(from, ALL)]);
                }
            }
            Some(cv) => {
                for k in 0..4u8 {
                    if mask & (1 << k) == 0 {
                        continue;
                    }
                    self.emit(O::UIF, vec![], vec![src(cv, [k; 4])]);
                    for &(to, from) in &moves {
                        self.emit(O::MOV, vec![dst(to, 1 << k)], vec![src(from, ALL)]);
                    }
                    self.emit(O::ENDIF, vec![], vec![]);
                }
            }
        }
        Ok(())
    }
}
