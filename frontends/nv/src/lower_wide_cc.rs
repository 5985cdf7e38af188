//! Clamping and condition codes of 64-bit results (NV_gpu_program4 §2.X.4.1 "SAT and SSAT
//! ... clamped ... before updating the condition code and the destination variable",
//! §2.X.4.3 condition codes; NV_gpu_program5 with the F64 / S64 / U64 data types).
//!
//! * `.SAT` of an F64 result: `r > 0 ? min(r, 1) : +0`, so NaN and -0 give +0 (as the
//!   32-bit `.SAT` does, `oracles` "Saturate"); `.SSAT`: `max(min(r, 1), -1)`, keeping -0,
//!   and undefined for NaN (as for 32 bits).
//! * `.CC` of a 64-bit result sets each component's flags from the 64-bit value: F64
//!   SF = r < 0 or NaN, ZF = r == 0 or NaN; S64 / U64 SF = bit 63, ZF = r == 0; OF and CF
//!   are 0 except for integer ADD, SUB and MAD, whose carry and overflow are those of the
//!   64-bit addition (NOTES.md §7 at 64 bits; MAD: adding c to the low 64 bits of the
//!   product). A negated operand of an integer ADD / SUB / MAD with `.CC` is refused, as
//!   for 32 bits.
//! * A conditional write mask tests the flags from before the update, per component.

use super::ast::{BaseType, Clamp, DataType, Instruction as NvInsn};
use super::lower::{dst, src, Ctx, LowerError};
use super::NvOpcode as N;
use crate::names::File;
use crate::opcode::Opcode as O;
use crate::program::{self as ir, Register};

const XY: u8 = 0b0011;
const ZW: u8 = 0b1100;
const PAIR: [u8; 4] = [0, 1, 0, 1];

/// The 64-bit constant `v` as a pair source.
fn pair_imm(cx: &mut Ctx<'_>, v: u64) -> ir::Src {
    let (lo, hi) = (v as u32, (v >> 32) as u32);
    src(cx.imm([lo, hi, lo, hi]), [0, 1, 2, 3])
}

impl Ctx<'_> {
    /// Applies `.SAT` / `.SSAT` to F64 results (module docs).
    pub(super) fn wide_clamp(
        &mut self,
        insn: &NvInsn,
        results: &[Option<Register>; 4],
        clamp: Clamp,
    ) -> Result<(), LowerError> {
        if self.wide_result_type(insn) != BaseType::F
            && insn.opcode == N::Cvt
            && clamp == Clamp::Sat
        {
            // Integer saturation: done by the conversion (`lower_cvt_sat.rs`).
            return Ok(());
        }
        if self.wide_result_type(insn) != BaseType::F {
            return Err(self.invalid(format!(
                "{}: SAT/SSAT need a floating-point result (§2.X.4.1)",
                insn.opcode.name()
            )));
        }
        let zero = pair_imm(self, 0);
        let one = pair_imm(self, 1f64.to_bits());
        let minus_one = pair_imm(self, (-1f64).to_bits());
        for h in results.iter().flatten().copied() {
            let m = self.hidden();
            self.emit(O::DMIN, vec![dst(m, XY)], vec![src(h, PAIR), one]);
            match clamp {
                Clamp::Sat => {
                    let t = self.hidden();
                    self.emit(O::DSLT, vec![dst(t, 1)], vec![zero, src(h, PAIR)]);
                    self.emit(
                        O::UCMP,
                        vec![dst(h, XY)],
                        vec![src(t, [0; 4]), src(m, PAIR), zero],
                    );
                }
                Clamp::SSat => {
                    // NaN: undefined (IDIV 0, 0), as the 32-bit .SSAT.
                    let n = self.hidden();
                    let z = src(self.imm([0; 4]), [0; 4]);
                    self.emit(O::DSNE, vec![dst(n, 1)], vec![src(h, PAIR), src(h, PAIR)]);
                    self.emit(O::NOT, vec![dst(n, 1)], vec![src(n, [0; 4])]);
                    self.emit(O::IDIV, vec![dst(n, 1)], vec![z, src(n, [0; 4])]);
                    self.emit(O::DMAX, vec![dst(h, XY)], vec![src(m, PAIR), minus_one]);
                    self.emit(O::OR, vec![dst(h, XY)], vec![src(h, PAIR), src(n, [0; 4])]);
                }
            }
        }
        Ok(())
    }

    /// The base type of a 64-bit result: the data type (CVT: the result type; memory
    /// loads: the storage type's).
    fn wide_result_type(&self, insn: &NvInsn) -> BaseType {
        insn.mods.ty.map(DataType::base).unwrap_or(BaseType::F)
    }

    /// Writes 64-bit results under a `.CC` update and / or a conditional write mask
    /// (module docs) into the LONG destination `base`.
    pub(super) fn wide_write_cc(
        &mut self,
        insn: &NvInsn,
        base: u32,
        mask: u8,
        results: &[Option<Register>; 4],
    ) -> Result<(), LowerError> {
        let name = insn.opcode.name();
        let d = insn
            .dst
            .clone()
            .ok_or_else(|| self.invalid(format!("{name}: missing result")))?;
        let ty = self.wide_result_type(insn);
        let carry_op = matches!(insn.opcode, N::Add | N::Sub | N::Mad) && ty != BaseType::F;
        if carry_op && insn.mods.cc.is_some() && insn.srcs.iter().any(|s| s.neg || s.neg_inside) {
            return Err(self.unsupported(format!(
                "{name}.CC with a negated operand (carry and overflow of the implied subtraction)"
            )));
        }
        // The test of a conditional write mask reads the flags before this update.
        let cv = match d.cc {
            Some(c) => Some(self.cc_test(c)?),
            None => None,
        };
        // New flags, one 32-bit channel per component: (SF, ZF, OF, CF).
        let flags = insn.mods.cc.map(|_| [(); 4].map(|_| self.hidden()));
        if let Some(f) = flags {
            let zero = pair_imm(self, 0);
            let ops = if carry_op {
                let n = insn.srcs.len();
                let mut v = Vec::new();
                for k in 0..n {
                    v.push(self.wide_operand(insn, k, ty)?);
                }
                v
            } else {
                Vec::new()
            };
            for (c, h) in results.iter().enumerate() {
                let Some(h) = *h else { continue };
                let r = src(h, PAIR);
                // 64-bit comparisons write channel x (tgsi.rst DSLT, I64SLT ...): each flag
                // goes through the x of a hidden TEMP into channel c of its flag TEMP.
                let (sf, zf) = (self.hidden(), self.hidden());
                if ty == BaseType::F {
                    let n = self.hidden();
                    self.emit(O::DSNE, vec![dst(n, 1)], vec![r, r]);
                    self.emit(O::DSLT, vec![dst(sf, 1)], vec![r, zero]);
                    self.emit(O::DSEQ, vec![dst(zf, 1)], vec![r, zero]);
                    for x in [sf, zf] {
                        self.emit(O::OR, vec![dst(x, 1)], vec![src(x, [0; 4]), src(n, [0; 4])]);
                    }
                } else {
                    self.emit(O::I64SLT, vec![dst(sf, 1)], vec![r, zero]);
                    self.emit(O::U64SEQ, vec![dst(zf, 1)], vec![r, zero]);
                }
                let m = 1u8 << c;
                self.emit(O::MOV, vec![dst(f[0], m)], vec![src(sf, [0; 4])]);
                self.emit(O::MOV, vec![dst(f[1], m)], vec![src(zf, [0; 4])]);
                let zero32 = src(self.imm([0; 4]), [0; 4]);
                if carry_op {
                    let (a, b) = if insn.opcode == N::Mad {
                        let p = self.hidden();
                        self.emit(O::U64MUL, vec![dst(p, XY)], vec![ops[0][c], ops[1][c]]);
                        (src(p, PAIR), ops[2][c])
                    } else {
                        (ops[0][c], ops[1][c])
                    };
                    let (x, y, cf) = (self.hidden(), self.hidden(), self.hidden());
                    if insn.opcode == N::Sub {
                        // CF = a >= b (no borrow); OF = sign((a ^ b) & (a ^ r)).
                        self.emit(O::U64SGE, vec![dst(cf, 1)], vec![a, b]);
                        self.emit(O::XOR, vec![dst(x, XY)], vec![a, b]);
                        self.emit(O::XOR, vec![dst(y, XY)], vec![a, r]);
                    } else {
                        // CF = r < a (carry out); OF = sign((a ^ r) & (b ^ r)).
                        self.emit(O::U64SLT, vec![dst(cf, 1)], vec![r, a]);
                        self.emit(O::XOR, vec![dst(x, XY)], vec![a, r]);
                        self.emit(O::XOR, vec![dst(y, XY)], vec![b, r]);
                    }
                    self.emit(O::MOV, vec![dst(f[3], m)], vec![src(cf, [0; 4])]);
                    self.emit(
                        O::AND,
                        vec![dst(x, 2)],
                        vec![src(x, [1; 4]), src(y, [1; 4])],
                    );
                    self.emit(O::ISLT, vec![dst(f[2], m)], vec![src(x, [1; 4]), zero32]);
                } else {
                    self.emit(O::MOV, vec![dst(f[2], m)], vec![zero32]);
                    self.emit(O::MOV, vec![dst(f[3], m)], vec![zero32]);
                }
            }
        }
        let reg = insn.mods.cc.unwrap_or(0);
        let cc = match flags {
            Some(_) => Some(self.cc_flags(reg)?),
            None => None,
        };
        for (c, h) in results.iter().enumerate() {
            let Some(h) = *h else { continue };
            if mask & (1 << c) == 0 {
                continue;
            }
            if let Some(cv) = cv {
                self.emit(O::UIF, vec![], vec![src(cv, [c as u8; 4])]);
            }
            let pm = if c % 2 == 0 { XY } else { ZW };
            let to = Register::new(File::Temp, (base + c as u32 / 2) as i32);
            self.emit(O::MOV, vec![dst(to, pm)], vec![src(h, PAIR)]);
            if let (Some(f), Some(regs)) = (flags, cc) {
                for k in 0..4 {
                    self.emit(
                        O::MOV,
                        vec![dst(regs[k], 1 << c)],
                        vec![src(f[k], [c as u8; 4])],
                    );
                }
            }
            if cv.is_some() {
                self.emit(O::ENDIF, vec![], vec![]);
            }
        }
        Ok(())
    }
}
