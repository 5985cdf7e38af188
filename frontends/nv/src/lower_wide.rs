//! Lowering of 64-bit NV instructions (NV_gpu_program5 with GL_NV_gpu_program_fp64: the
//! `F64`, `S64`, `U64` data types of the opcodes marked "6" in Table X.13, `PK64`, `UP64`
//! and `CVT` to or from a 64-bit type; NOTES.md §11).
//!
//! Register model. A `LONG TEMP` vector holds four 64-bit components; it is two IR TEMPs
//! in TGSI's 64-bit layout (tgsi.rst "Double ISA": a 64-bit value is a channel pair, low
//! word first): component x is `TEMP[i].xy`, y is `TEMP[i].zw`, z is `TEMP[i+1].xy`, w
//! is `TEMP[i+1].zw` ([`super::lower::Elem::Long`]). Constants read by 64-bit operands
//! are converted at 64 bits (NOTES.md §11, "Constants used with 64-bit operands are
//! interpreted at 64 bits"): a float literal is rounded once to binary64, an integer
//! literal sign- or zero-extended.
//!
//! Each 64-bit result component is computed by one IR 64-bit instruction into the `xy`
//! pair of a hidden TEMP, from operand pairs selected by swizzle, then moved into the
//! destination pairs; so a destination that is also an operand reads its old value.
//! Operand modifiers are applied with DABS / DNEG (F64) or I64ABS / I64NEG (S64, U64)
//! first, as §2.X.4.2 defines them (negate inside `|..|`, absolute value, negate).
//!
//! Where NV leaves a result undefined (integer DIV by 0, MOD of a negative operand or by
//! a divisor ≤ 0, shift counts outside [0, 63]: NOTES.md §14), the result is ORed with a
//! word the IR leaves undefined in exactly those cases (as for 32-bit, `lower_ops.rs`
//! `with_undefined`), so the oracle marks the channels undefined.
//!
//! CVT.SAT to a 32- or 64-bit integer clamps (`lower_cvt_sat.rs`). MUL.HI / S24 / U24 with
//! a 64-bit type is invalid: NV_gpu_program4 § MUL defines them as 32-bit multiplies.
//!
//! Refused with [`LowerError::Unsupported`]: `.CC` and conditional write masks on 64-bit
//! results, SAT/SSAT of a 64-bit result, 64-bit SAD / REP, integer-typed
//! FLR/CEIL/ROUND/TRUNC of 64 bits, 64-bit operands in 32-bit variables, relative
//! addressing of LONG arrays, 8/16-bit and F16 conversions to or from 64 bits.
//!
//! `LONG ATTRIB` (vertex programs) is read like a LONG TEMP filled by the prologue from
//! two inputs (`lower_vars.rs` `long_attrib`).

use super::ast::{BaseType, DataType, Instruction as NvInsn, RoundMode, SrcBase, VarRef};
use super::lower::{chan, dst, src};
use super::lower::{Ctx, Elem, LowerError};
use super::NvOpcode as N;
use crate::names::File;
use crate::opcode::Opcode as O;
use crate::program::{self as ir, Register, Saturate};

/// The `xy` pair: write mask and the swizzle that reads a pair into `xy` and `zw`.
const XY: u8 = 0b0011;
const ZW: u8 = 0b1100;
const PAIR: [u8; 4] = [0, 1, 0, 1];

fn temp(i: u32) -> Register {
    Register::new(File::Temp, i as i32)
}

/// Whether `t` is a 64-bit type.
fn is64(t: Option<DataType>) -> bool {
    t.and_then(DataType::bits) == Some(64)
}

impl Ctx<'_> {
    /// Whether `insn` writes 64-bit components (its result is a LONG variable): PK64, CVT to
    /// a 64-bit type, and every instruction with a 64-bit data type except those whose
    /// result is 32-bit (I2F's "vf", UP64).
    pub(super) fn writes_wide(insn: &NvInsn) -> bool {
        match insn.opcode {
            N::Pk64 => true,
            N::Cvt => is64(insn.mods.ty),
            N::I2f | N::Up64 => false,
            op => op.has_dst() && is64(insn.mods.ty),
        }
    }

    /// Whether `insn` reads 64-bit components into a 32-bit result: UP64, I2F.S64/.U64
    /// and CVT from a 64-bit type to a 32-bit one.
    pub(super) fn narrows_wide(insn: &NvInsn) -> bool {
        match insn.opcode {
            N::Up64 => true,
            N::I2f => is64(insn.mods.ty),
            N::Cvt => !is64(insn.mods.ty) && is64(insn.mods.ty2),
            _ => false,
        }
    }

    /// Source operand `k` of a 64-bit instruction read as 64-bit `ty` values: one source
    /// per result component (after the swizzle), each reading its pair into `xy` and `zw`,
    /// with the operand's modifiers applied.
    pub(super) fn wide_operand(
        &mut self,
        insn: &NvInsn,
        k: usize,
        ty: BaseType,
    ) -> Result<[ir::Src; 4], LowerError> {
        let s = insn.srcs.get(k).ok_or_else(|| {
            self.invalid(format!("{}: missing operand {}", insn.opcode.name(), k + 1))
        })?;
        let swz = s.swizzle.components();
        let lits = match &s.base {
            SrcBase::Scalar(l) => Some(vec![
                super::ast::SignedLit {
                    neg: false,
                    lit: l.clone()
                };
                4
            ]),
            SrcBase::Vector(v) => Some(v.clone()),
            SrcBase::Ref(r) => {
                if matches!(r, VarRef::Var { index, .. }
                    if index.iter().any(|i| matches!(i, super::ast::Index::Rel(_))))
                {
                    return Err(self.unsupported(format!(
                        "{}: relative addressing of a 64-bit operand",
                        insn.opcode.name()
                    )));
                }
                match self.resolve(r)? {
                    Elem::Long(base) => {
                        let mut out = [src(temp(base), PAIR); 4];
                        for (c, o) in out.iter_mut().enumerate() {
                            let comp = u32::from(swz[c]);
                            let (lo, hi) = if comp % 2 == 0 { (0, 1) } else { (2, 3) };
                            *o = src(temp(base + comp / 2), [lo, hi, lo, hi]);
                        }
                        return self.wide_modifiers(s, out, ty);
                    }
                    Elem::Lit(v) => Some(v),
                    Elem::Reg(..) => {
                        return Err(self.unsupported(format!(
                            "{}: 64-bit operand {} is a 32-bit variable (64-bit components live in LONG TEMPs, NV_gpu_program5 §2.X.3.1; PK64 builds them)",
                            insn.opcode.name(),
                            k + 1
                        )))
                    }
                }
            }
        };
        let lits = lits.unwrap_or_default();
        let mut words = [0u64; 4];
        for (c, w) in words.iter_mut().enumerate() {
            *w = match lits.get(c) {
                Some(l) => self.lit64(&l.lit, l.neg, ty)?,
                None if c == 3 => match ty {
                    BaseType::F => 1f64.to_bits(),
                    _ => 1,
                },
                None => 0,
            };
        }
        let mut out = [src(temp(0), PAIR); 4];
        for (c, o) in out.iter_mut().enumerate() {
            let v = words[swz[c] as usize];
            let (lo, hi) = (v as u32, (v >> 32) as u32);
            *o = src(self.imm([lo, hi, lo, hi]), [0, 1, 2, 3]);
        }
        self.wide_modifiers(s, out, ty)
    }

    /// One literal as a 64-bit `ty` value (§2.X.4.2; integers from float literals and
    /// negative unsigned literals are load errors, as for 32 bits).
    fn lit64(&self, lit: &super::ast::Literal, neg: bool, ty: BaseType) -> Result<u64, LowerError> {
        use super::ast::Literal;
        match (ty, lit) {
            (BaseType::F, l) => {
                let v = l.to_f64();
                Ok(if neg { -v } else { v }.to_bits())
            }
            (_, Literal::Int { value, .. }) => {
                if ty == BaseType::U && neg && *value != 0 {
                    return Err(self.invalid(
                        "negative literal where an unsigned integer is required (§2.X.4.2)".into(),
                    ));
                }
                Ok(if neg { value.wrapping_neg() } else { *value })
            }
            (_, Literal::Float(t)) => Err(self.invalid(format!(
                "float literal {t} where an integer is required (§2.X.4.2)"
            ))),
        }
    }

    /// Applies an operand's modifiers to its 64-bit components (§2.X.4.2 order: negate
    /// inside `|..|`, absolute value, negate).
    fn wide_modifiers(
        &mut self,
        s: &super::ast::Src,
        mut comps: [ir::Src; 4],
        ty: BaseType,
    ) -> Result<[ir::Src; 4], LowerError> {
        let inner_neg = s.neg_inside || (!s.abs && s.neg);
        let outer_neg = s.abs && s.neg;
        let (neg, abs) = match ty {
            BaseType::F => (O::DNEG, Some(O::DABS)),
            BaseType::S => (O::I64NEG, Some(O::I64ABS)),
            BaseType::U => (O::I64NEG, None),
        };
        let mut steps = Vec::new();
        if inner_neg {
            steps.push(neg);
        }
        if s.abs {
            steps.extend(abs);
        }
        if outer_neg {
            steps.push(neg);
        }
        if steps.is_empty() {
            return Ok(comps);
        }
        for c in comps.iter_mut() {
            let h = self.hidden();
            let mut cur = *c;
            for &op in &steps {
                self.emit(op, vec![dst(h, XY)], vec![cur]);
                cur = src(h, PAIR);
            }
            *c = cur;
        }
        Ok(comps)
    }

    /// The destination of a 64-bit result: the first TEMP of a LONG vector.
    fn wide_dest(&mut self, insn: &NvInsn) -> Result<(u32, u8), LowerError> {
        let name = insn.opcode.name();
        let d = insn
            .dst
            .as_ref()
            .ok_or_else(|| self.invalid(format!("{name}: missing result")))?;
        if matches!(&d.base, VarRef::Var { index, .. }
            if index.iter().any(|i| matches!(i, super::ast::Index::Rel(_))))
        {
            return Err(self.unsupported(format!("{name}: relative addressing of a LONG result")));
        }
        match self.resolve(&d.base)? {
            Elem::Long(base) => Ok((base, d.mask)),
            _ if insn.opcode == N::Pk64 => Err(self.invalid(
                "PK64 must write a variable declared LONG (NV_gpu_program5 §2.X.8.Z PK64)".into(),
            )),
            _ => Err(self.unsupported(format!(
                "{name}: a 64-bit result written to a 32-bit variable (64-bit components live in LONG TEMPs, NV_gpu_program5 §2.X.3.1)"
            ))),
        }
    }

    /// Moves per-component results (each in the `xy` pair of a hidden TEMP) into the LONG
    /// destination `base` under `mask`.
    fn wide_write(&mut self, base: u32, mask: u8, results: &[Option<Register>; 4]) {
        for (c, r) in results.iter().enumerate() {
            if let (true, Some(r)) = (mask & (1 << c) != 0, r) {
                let m = if c % 2 == 0 { XY } else { ZW };
                self.emit(
                    O::MOV,
                    vec![dst(temp(base + c as u32 / 2), m)],
                    vec![src(*r, PAIR)],
                );
            }
        }
    }

    /// Lowers an instruction with a 64-bit result (see the module docs).
    pub(super) fn lower_wide(&mut self, insn: &NvInsn) -> Result<(), LowerError> {
        let (base, mask) = self.wide_dest(insn)?;
        let cc = insn.mods.cc.is_some() || insn.dst.as_ref().is_some_and(|d| d.cc.is_some());
        if insn.opcode == N::Pk64 {
            if cc || insn.mods.clamp.is_some() {
                return Err(self.invalid(
                    "PK64 takes no .CC, SAT or conditional write mask (Table X.13)".into(),
                ));
            }
            // result.x = a.x | a.y << 32, result.y = a.z | a.w << 32, z = x, w = y
            // (§2.X.8.Z PK64, little-endian): both TEMPs of the vector take a.xyzw.
            let ty = insn.mods.ty.map(DataType::base).unwrap_or(BaseType::F);
            let a = self.operand(insn, 0, ty)?;
            let t = self.hidden();
            self.emit(O::MOV, vec![dst(t, 0xF)], vec![a]);
            let m = |lo: u8, hi: u8| {
                (if mask & lo != 0 { XY } else { 0 }) | (if mask & hi != 0 { ZW } else { 0 })
            };
            for (k, mk) in [(0, m(1, 2)), (1, m(4, 8))] {
                if mk != 0 {
                    self.emit(
                        O::MOV,
                        vec![dst(temp(base + k), mk)],
                        vec![src(t, [0, 1, 2, 3])],
                    );
                }
            }
            return Ok(());
        }
        let mut results = [None; 4];
        for (c, r) in results.iter_mut().enumerate() {
            if mask & (1 << c) != 0 {
                *r = Some(self.hidden());
            }
        }
        if matches!(insn.opcode, N::Load | N::Lds | N::Ldc | N::Ldb) {
            self.load64(insn, &results)?;
        } else if matches!(insn.opcode, N::Atom | N::Atoms | N::Atomb) {
            self.atom64(insn, &results)?;
        } else if insn.opcode == N::Cvt {
            self.cvt_to_wide(insn, &results)?;
        } else {
            self.alu_wide(insn, &results)?;
        }
        if let Some(clamp) = insn.mods.clamp {
            self.wide_clamp(insn, &results, clamp)?;
        }
        if cc {
            return self.wide_write_cc(insn, base, mask, &results);
        }
        self.wide_write(base, mask, &results);
        Ok(())
    }

    /// The 64-bit ALU instructions ("6" in Table X.13), one IR instruction (or a short
    /// sequence) per result component.
    fn alu_wide(
        &mut self,
        insn: &NvInsn,
        results: &[Option<Register>; 4],
    ) -> Result<(), LowerError> {
        use BaseType::{F, S, U};
        let name = insn.opcode.name();
        let ty = insn.mods.ty.map(DataType::base).unwrap_or(F);
        let refuse = |cx: &Self, what: &str| {
            Err(cx.unsupported(format!(
                "{name}.{}: {what}",
                insn.mods.ty.map(DataType::name).unwrap_or("")
            )))
        };
        if let Some(m) = insn.mods.mul {
            // NV_gpu_program4 § MUL: "The HI modifier specifies a 32-bit integer multiply",
            // and S24 / U24 imply their (32-bit) data type.
            return Err(self.invalid(format!(
                "{name}.{}.{}: {} is a 32-bit multiply modifier (NV_gpu_program4 § MUL)",
                insn.mods.ty.map(DataType::name).unwrap_or(""),
                m.name(),
                m.name()
            )));
        }
        // Operand types: FLR/CEIL/TRUNC/ROUND read floats ("vf", Table X.13): binary64
        // for the 64-bit forms, converted to S64 / U64 after rounding for the integer ones.
        let rounding = matches!(insn.opcode, N::Flr | N::Ceil | N::Trunc | N::Round);
        let src_ty = if rounding { F } else { ty };
        let n = insn.srcs.len();
        let mut ops = Vec::with_capacity(n);
        for k in 0..n {
            ops.push(self.wide_operand(insn, k, src_ty)?);
        }
        let zero = src(self.imm([0; 4]), [0, 1, 2, 3]);
        for (c, r) in results.iter().enumerate() {
            let Some(h) = *r else { continue };
            let a = |k: usize| ops[k][c];
            let hd = dst(h, XY);
            let one = |cx: &mut Self, op: O, srcs: Vec<ir::Src>| {
                cx.emit(op, vec![hd], srcs);
            };
            match (insn.opcode, ty) {
                (N::Mov, _) | (N::Abs, U) => one(self, O::MOV, vec![a(0)]),
                (N::Abs, F) => one(self, O::DABS, vec![a(0)]),
                (N::Abs, S) => one(self, O::I64ABS, vec![a(0)]),
                (N::Add, F) => one(self, O::DADD, vec![a(0), a(1)]),
                (N::Add, _) => one(self, O::U64ADD, vec![a(0), a(1)]),
                (N::Sub, _) => {
                    let t = self.hidden();
                    let (neg, add) = if ty == F {
                        (O::DNEG, O::DADD)
                    } else {
                        (O::I64NEG, O::U64ADD)
                    };
                    self.emit(neg, vec![dst(t, XY)], vec![a(1)]);
                    one(self, add, vec![a(0), src(t, PAIR)]);
                }
                (N::Mul, F) => one(self, O::DMUL, vec![a(0), a(1)]),
                (N::Mul, _) => one(self, O::U64MUL, vec![a(0), a(1)]),
                (N::Mad, F) => one(self, O::DMAD, vec![a(0), a(1), a(2)]),
                (N::Mad, _) => {
                    let t = self.hidden();
                    self.emit(O::U64MUL, vec![dst(t, XY)], vec![a(0), a(1)]);
                    one(self, O::U64ADD, vec![src(t, PAIR), a(2)]);
                }
                (N::Min, F) => one(self, O::DMIN, vec![a(0), a(1)]),
                (N::Min, S) => one(self, O::I64MIN, vec![a(0), a(1)]),
                (N::Min, U) => one(self, O::U64MIN, vec![a(0), a(1)]),
                (N::Max, F) => one(self, O::DMAX, vec![a(0), a(1)]),
                (N::Max, S) => one(self, O::I64MAX, vec![a(0), a(1)]),
                (N::Max, U) => one(self, O::U64MAX, vec![a(0), a(1)]),
                (N::Div, F) => one(self, O::DDIV, vec![a(0), a(1)]),
                (N::Rcp, F) => one(self, O::DRCP, vec![a(0)]),
                (N::Rsq, F) => one(self, O::DRSQ, vec![a(0)]),
                (N::Frc, F) => one(self, O::DFRAC, vec![a(0)]),
                (N::Flr, F) => one(self, O::DFLR, vec![a(0)]),
                (N::Ceil, F) => one(self, O::DCEIL, vec![a(0)]),
                (N::Trunc, F) => one(self, O::DTRUNC, vec![a(0)]),
                (N::Round, F) => one(self, O::DROUND, vec![a(0)]),
                (N::Ssg, F) => one(self, O::DSSG, vec![a(0)]),
                (N::Flr | N::Ceil | N::Trunc | N::Round, S | U) => {
                    // Round in binary64, then convert (out of range: undefined, § FLR).
                    let mode = match insn.opcode {
                        N::Flr => RoundMode::Flr,
                        N::Ceil => RoundMode::Ceil,
                        N::Trunc => RoundMode::Trunc,
                        _ => RoundMode::Round,
                    };
                    let r = self.round_f64(h, a(0), Some(mode));
                    let cv = if ty == S { O::D2I64 } else { O::D2U64 };
                    one(self, cv, vec![r]);
                }
                (N::And | N::Or | N::Xor, S | U) => {
                    let op = match insn.opcode {
                        N::And => O::AND,
                        N::Or => O::OR,
                        _ => O::XOR,
                    };
                    one(self, op, vec![a(0), a(1)]);
                }
                (N::Not, S | U) => one(self, O::NOT, vec![a(0)]),
                (N::Div | N::Mod, S | U) => {
                    let op = match (insn.opcode, ty) {
                        (N::Div, S) => O::I64DIV,
                        (N::Div, _) => O::U64DIV,
                        (_, S) => O::I64MOD,
                        _ => O::U64MOD,
                    };
                    one(self, op, vec![a(0), a(1)]);
                    // Undefined: a divisor of 0; MOD.S64 of a < 0 or by s <= 0 (§ MOD).
                    let g = self.zero_guard(a(1));
                    self.or_guard(h, g);
                    if (insn.opcode, ty) == (N::Mod, S) {
                        let g = self.sign_guard(chan(a(0), 1));
                        self.or_guard(h, g);
                        let g = self.sign_guard(chan(a(1), 1));
                        self.or_guard(h, g);
                    }
                }
                (N::Shl | N::Shr, S | U) => {
                    let op = match (insn.opcode, ty) {
                        (N::Shl, _) => O::U64SHL,
                        (_, S) => O::I64SHR,
                        _ => O::U64SHR,
                    };
                    let count = chan(a(1), 0);
                    one(self, op, vec![a(0), count]);
                    let g = self.shift_guard(a(1));
                    self.or_guard(h, g);
                }
                (N::Seq | N::Sne | N::Slt | N::Sge | N::Sle | N::Sgt, _) => {
                    let t = self.hidden();
                    self.wide_compare(insn.opcode, ty, t, a(0), a(1));
                    self.wide_bool(h, t, ty);
                }
                (N::Sfl | N::Str, _) => {
                    let v: u64 = match (insn.opcode, ty) {
                        (N::Sfl, _) => 0,
                        (_, F) => 1f64.to_bits(),
                        _ => u64::MAX,
                    };
                    let w = self.imm([v as u32, (v >> 32) as u32, 0, 0]);
                    one(self, O::MOV, vec![src(w, [0, 1, 0, 1])]);
                }
                (N::Sad, S | U) => {
                    // § SAD: |a - b| + c, as max(a, b) - min(a, b) (no overflow) plus c.
                    let (mx, mn) = if ty == S {
                        (O::I64MAX, O::I64MIN)
                    } else {
                        (O::U64MAX, O::U64MIN)
                    };
                    let t = self.hidden();
                    let u = self.hidden();
                    self.emit(mx, vec![dst(t, XY)], vec![a(0), a(1)]);
                    self.emit(mn, vec![dst(u, XY)], vec![a(0), a(1)]);
                    self.emit(O::I64NEG, vec![dst(u, XY)], vec![src(u, PAIR)]);
                    self.emit(
                        O::U64ADD,
                        vec![dst(t, XY)],
                        vec![src(t, PAIR), src(u, PAIR)],
                    );
                    one(self, O::U64ADD, vec![src(t, PAIR), a(2)]);
                }
                (N::Cmp, _) => {
                    // r = a < 0 ? b : c (§ CMP); never for U64.
                    if ty == U {
                        one(self, O::MOV, vec![a(2)]);
                    } else {
                        let t = self.hidden();
                        let lt = if ty == F { O::DSLT } else { O::I64SLT };
                        self.emit(lt, vec![dst(t, 0b0001)], vec![a(0), zero]);
                        one(self, O::UCMP, vec![src(t, [0; 4]), a(1), a(2)]);
                    }
                }
                _ => return refuse(self, "not lowered for 64-bit types"),
            }
        }
        Ok(())
    }

    /// `t.x = a op b ? ~0 : 0` for the 64-bit SEQ SNE SLT SGE SLE SGT (§2.X.8 "set on").
    fn wide_compare(&mut self, op: N, ty: BaseType, t: Register, a: ir::Src, b: ir::Src) {
        use BaseType::{F, S};
        let (irop, swap) = match (op, ty) {
            (N::Seq, F) => (O::DSEQ, false),
            (N::Sne, F) => (O::DSNE, false),
            (N::Slt, F) => (O::DSLT, false),
            (N::Sge, F) => (O::DSGE, false),
            (N::Sgt, F) => (O::DSLT, true),
            (N::Sle, F) => (O::DSGE, true),
            (N::Seq, _) => (O::U64SEQ, false),
            (N::Sne, _) => (O::U64SNE, false),
            (N::Slt, S) => (O::I64SLT, false),
            (N::Sge, S) => (O::I64SGE, false),
            (N::Sgt, S) => (O::I64SLT, true),
            (N::Sle, S) => (O::I64SGE, true),
            (N::Slt, _) => (O::U64SLT, false),
            (N::Sge, _) => (O::U64SGE, false),
            (N::Sgt, _) => (O::U64SLT, true),
            _ => (O::U64SGE, true),
        };
        let (x, y) = if swap { (b, a) } else { (a, b) };
        self.emit(irop, vec![dst(t, 0b0001)], vec![x, y]);
    }

    /// `h.xy` = the 64-bit TRUE (1.0 for F64, all ones for S64 / U64) where `t.x` is ~0,
    /// else 0 (§2.X.8 "set on" instructions).
    fn wide_bool(&mut self, h: Register, t: Register, ty: BaseType) {
        if ty == BaseType::F {
            let one_hi = self.imm([0, 0x3ff0_0000, 0, 0x3ff0_0000]);
            self.emit(
                O::AND,
                vec![dst(h, XY)],
                vec![src(t, [0; 4]), src(one_hi, [0, 1, 2, 3])],
            );
        } else {
            self.emit(O::MOV, vec![dst(h, XY)], vec![src(t, [0; 4])]);
        }
    }

    /// A word that is 0 when the 64-bit value `s` (a pair) is non-zero and undefined when
    /// it is zero (`IDIV 0, s.lo | s.hi`; tgsi.rst IDIV by zero is undefined).
    fn zero_guard(&mut self, s: ir::Src) -> Register {
        let zero = src(self.imm([0; 4]), [0, 1, 2, 3]);
        let g = self.hidden();
        self.emit(O::OR, vec![dst(g, 1)], vec![chan(s, 0), chan(s, 1)]);
        self.emit(O::IDIV, vec![dst(g, 1)], vec![zero, src(g, [0; 4])]);
        g
    }

    /// A word that is 0 when the high word `hi` has its sign bit clear and undefined when
    /// set (`UBFE 0, hi >> 31, 1`: offset -1 is out of range, tgsi.rst UBFE).
    fn sign_guard(&mut self, hi: ir::Src) -> Register {
        let zero = src(self.imm([0; 4]), [0, 1, 2, 3]);
        let one = src(self.imm([1; 4]), [0, 1, 2, 3]);
        let k31 = src(self.imm([31; 4]), [0, 1, 2, 3]);
        let g = self.hidden();
        self.emit(O::ISHR, vec![dst(g, 1)], vec![hi, k31]);
        self.emit(O::UBFE, vec![dst(g, 1)], vec![zero, src(g, [0; 4]), one]);
        g
    }

    /// A word that is 0 when the 64-bit count `s` is in [0, 63] and undefined otherwise:
    /// `UBFE 0, s.lo >> 1, 1` (offset in [0, 31] exactly when s.lo <= 63) ORed with
    /// `IDIV 0, s.hi == 0`.
    fn shift_guard(&mut self, s: ir::Src) -> Register {
        let zero = src(self.imm([0; 4]), [0, 1, 2, 3]);
        let one = src(self.imm([1; 4]), [0, 1, 2, 3]);
        let g = self.hidden();
        let u = self.hidden();
        self.emit(O::USHR, vec![dst(g, 1)], vec![chan(s, 0), one]);
        self.emit(O::UBFE, vec![dst(g, 1)], vec![zero, src(g, [0; 4]), one]);
        self.emit(O::USEQ, vec![dst(u, 1)], vec![chan(s, 1), zero]);
        self.emit(O::IDIV, vec![dst(u, 1)], vec![zero, src(u, [0; 4])]);
        self.emit(O::OR, vec![dst(g, 1)], vec![src(g, [0; 4]), src(u, [0; 4])]);
        g
    }

    /// `h.xy |= g.xx`.
    fn or_guard(&mut self, h: Register, g: Register) {
        self.emit(O::OR, vec![dst(h, XY)], vec![src(h, PAIR), src(g, [0; 4])]);
    }

    /// Rounds the F64 pair `a` into `h.xy` by CVT's rounding mode (ROUND, the default, is
    /// to nearest even; §2.X.8.Z CVT).
    fn round_f64(&mut self, h: Register, a: ir::Src, mode: Option<RoundMode>) -> ir::Src {
        let op = match mode.unwrap_or(RoundMode::Round) {
            RoundMode::Round => O::DROUND,
            RoundMode::Ceil => O::DCEIL,
            RoundMode::Flr => O::DFLR,
            RoundMode::Trunc => O::DTRUNC,
        };
        self.emit(op, vec![dst(h, XY)], vec![a]);
        src(h, PAIR)
    }

    /// Emits `op d, srcs` with saturation (for the 32-bit results of [`Self::narrow_wide`]).
    fn mov_sat(&mut self, d: ir::Dst, t: Register, sat: Saturate) {
        let mut i = ir::Instruction::new(O::MOV, vec![d], vec![src(t, [0, 1, 2, 3])]);
        i.saturate = sat;
        self.push(i);
    }

    /// UP64, I2F.S64 / .U64 and CVT from a 64-bit type to a 32-bit one: the 32-bit result
    /// is built in a hidden TEMP and written to `d` (which handles `.CC` and conditional
    /// write masks like any 32-bit result).
    pub(super) fn narrow_wide(
        &mut self,
        insn: &NvInsn,
        d: ir::Dst,
        sat: Saturate,
    ) -> Result<(), LowerError> {
        let name = insn.opcode.name();
        let t = self.hidden();
        match insn.opcode {
            N::Up64 => {
                // (lo(a.x), hi(a.x), lo(a.y), hi(a.y)) (§2.X.8.Z UP64, little-endian).
                let ty = insn.mods.ty.map(DataType::base).unwrap_or(BaseType::F);
                let a = self.wide_operand(insn, 0, ty)?;
                self.emit(O::MOV, vec![dst(t, XY)], vec![a[0]]);
                self.emit(O::MOV, vec![dst(t, ZW)], vec![a[1]]);
            }
            N::I2f => {
                let ty = insn.mods.ty.map(DataType::base).unwrap_or(BaseType::S);
                let a = self.wide_operand(insn, 0, ty)?;
                let op = if ty == BaseType::U {
                    O::U642F
                } else {
                    O::I642F
                };
                for (c, ac) in a.iter().enumerate() {
                    self.emit(op, vec![dst(t, 1 << c)], vec![*ac]);
                }
            }
            _ => {
                let (Some(to), Some(from)) = (insn.mods.ty, insn.mods.ty2) else {
                    return Err(self.invalid("CVT needs two storage types".into()));
                };
                let int_sat = sat != Saturate::None && to.base() != BaseType::F;
                if to.bits() != Some(32) || from.components() != 1 {
                    return Err(self.unsupported(format!(
                        "{name}.{to}.{from}: from 64 bits only to F32, S32 or U32"
                    )));
                }
                if int_sat && sat != Saturate::Zero {
                    return Err(self.invalid(format!(
                        "{name}.{to}.{from}.SSAT: SSAT needs a floating-point result (§2.X.4.1)"
                    )));
                }
                if to.base() == BaseType::F && insn.mods.round.is_some() {
                    return Err(self.unsupported(format!(
                        "{name}.{to}.{from}: a rounding mode for a float result"
                    )));
                }
                let a = self.wide_operand(insn, 0, from.base())?;
                for (c, ac) in a.iter().enumerate() {
                    let m = 1 << c;
                    match (to.base(), from.base()) {
                        (BaseType::F, BaseType::F) => {
                            self.emit(O::D2F, vec![dst(t, m)], vec![*ac]);
                        }
                        (BaseType::F, BaseType::S) => {
                            self.emit(O::I642F, vec![dst(t, m)], vec![*ac]);
                        }
                        (BaseType::F, BaseType::U) => {
                            self.emit(O::U642F, vec![dst(t, m)], vec![*ac]);
                        }
                        (ib, BaseType::F) => {
                            let h = self.hidden();
                            let r = self.round_f64(h, *ac, insn.mods.round);
                            if int_sat {
                                self.f64_to_i32_sat(r, ib == BaseType::S, t, m);
                                continue;
                            }
                            let op = if ib == BaseType::S { O::D2I } else { O::D2U };
                            self.emit(op, vec![dst(t, m)], vec![r]);
                        }
                        (ib, fb) if int_sat => {
                            self.i64_to_i32_sat(*ac, fb, ib == BaseType::S, t, m);
                        }
                        // Integer narrowing wraps: the low word (CVT "drop MSBs").
                        _ => {
                            self.emit(O::MOV, vec![dst(t, m)], vec![chan(*ac, 0)]);
                        }
                    }
                }
            }
        }
        // Integer results are saturated above; SAT as a float clamp is for float results.
        let float_sat = match (insn.opcode, insn.mods.ty) {
            (N::Cvt, Some(to)) if to.base() != BaseType::F => Saturate::None,
            _ => sat,
        };
        self.mov_sat(d, t, float_sat);
        Ok(())
    }

    /// CVT to a 64-bit type: per result component, from a 32-bit operand (F2D, I2D, U2D,
    /// F2I64, F2U64, I2I64, U2I64 after the rounding mode) or a 64-bit one.
    fn cvt_to_wide(
        &mut self,
        insn: &NvInsn,
        results: &[Option<Register>; 4],
    ) -> Result<(), LowerError> {
        use BaseType::{F, S, U};
        let (Some(to), Some(from)) = (insn.mods.ty, insn.mods.ty2) else {
            return Err(self.invalid("CVT needs two storage types".into()));
        };
        let fb = from.bits().unwrap_or(32);
        if from.components() != 1 || to.components() != 1 || (fb != 32 && fb != 64) {
            return Err(self.unsupported(format!(
                "CVT.{to}.{from}: to 64 bits only from 32- or 64-bit F, S and U"
            )));
        }
        if to.base() == F && insn.mods.round.is_some() && from.base() != F {
            return Err(self.unsupported(format!(
                "CVT.{to}.{from}: a rounding mode for a float result"
            )));
        }
        let round = insn.mods.round;
        // CVT.SAT to S64 / U64 (`lower_cvt_sat.rs`); a float result's SAT is `wide_clamp`'s.
        let sat = insn.mods.clamp.is_some() && to.base() != F;
        if fb == 64 {
            let a = self.wide_operand(insn, 0, from.base())?;
            for (c, r) in results.iter().enumerate() {
                let Some(h) = *r else { continue };
                let hd = dst(h, XY);
                match (to.base(), from.base()) {
                    (F, F) => self.emit(O::MOV, vec![hd], vec![a[c]]),
                    (F, S) => self.emit(O::I642D, vec![hd], vec![a[c]]),
                    (F, U) => self.emit(O::U642D, vec![hd], vec![a[c]]),
                    (ib, F) => {
                        let r = self.round_f64(h, a[c], round);
                        if sat {
                            self.f64_to_i64_sat(r, ib == S, h);
                            continue;
                        }
                        let op = if ib == S { O::D2I64 } else { O::D2U64 };
                        self.emit(op, vec![hd], vec![r])
                    }
                    (ib, ob) if sat => {
                        self.i64_to_i64_sat(a[c], ob, ib, h);
                        continue;
                    }
                    // S64 <-> U64: the same bits (wraps).
                    _ => self.emit(O::MOV, vec![hd], vec![a[c]]),
                };
            }
            return Ok(());
        }
        let a = self.operand(insn, 0, from.base())?;
        for (c, r) in results.iter().enumerate() {
            let Some(h) = *r else { continue };
            let hd = dst(h, XY);
            let ac = chan(a, c);
            match (to.base(), from.base()) {
                (F, F) => self.emit(O::F2D, vec![hd], vec![ac]),
                (F, S) => self.emit(O::I2D, vec![hd], vec![ac]),
                (F, U) => self.emit(O::U2D, vec![hd], vec![ac]),
                (ib, F) => {
                    let op = match round.unwrap_or(RoundMode::Round) {
                        RoundMode::Round => O::ROUND,
                        RoundMode::Ceil => O::CEIL,
                        RoundMode::Flr => O::FLR,
                        RoundMode::Trunc => O::TRUNC,
                    };
                    self.emit(op, vec![dst(h, 1)], vec![ac]);
                    if sat {
                        self.f32_to_i64_sat(src(h, [0; 4]), ib == S, h);
                        continue;
                    }
                    let cv = if ib == S { O::F2I64 } else { O::F2U64 };
                    self.emit(cv, vec![hd], vec![src(h, [0; 4])])
                }
                // S32 → U64.SAT: negatives clamp to 0; other integer widenings fit.
                (U, S) if sat => {
                    let zero = src(self.imm([0; 4]), [0; 4]);
                    self.emit(O::IMAX, vec![dst(h, 1)], vec![ac, zero]);
                    self.emit(O::U2I64, vec![hd], vec![src(h, [0; 4])])
                }
                // Integer widening extends by the operand's signedness.
                (_, S) => self.emit(O::I2I64, vec![hd], vec![ac]),
                _ => self.emit(O::U2I64, vec![hd], vec![ac]),
            };
        }
        Ok(())
    }
}
