//! Instruction lowering: each NV / ARB instruction of the supported subset becomes IR
//! instructions with the NV definition (NV_gpu_program4 §2.X.8 "Instruction Set", NV_gpu_program5
//! Table X.13 and §2.X.8 additions, ARB_vertex_program §2.14.5, ARB_fragment_program
//! §3.11.5; summarised in NOTES.md §10). Where the closest IR opcode differs, a short
//! sequence through hidden TEMPs computes the NV result; multi-instruction expansions write
//! a hidden TEMP first and the destination last, so a destination that is also a source
//! reads its old value.

use super::ast::{self, BaseType, ExtSel, Instruction as NvInsn};
use super::lower::Ctx;
use super::lower::{dst, src};
use super::lower::{Elem, LowerError};
use super::lower_cc::Cond;
use super::lower_undef::undefined_when;
use super::NvOpcode as N;
use crate::names::File;
use crate::opcode::Opcode as O;
use crate::program::{self as ir, Instruction, Register, Saturate};

const X: [u8; 4] = [0, 0, 0, 0];

impl Ctx<'_> {
    /// Lowers one instruction (see the module docs).
    pub(super) fn lower_insn(&mut self, insn: &NvInsn) -> Result<(), LowerError> {
        let mark = self.next_temp;
        let r = self.lower_insn_inner(insn);
        if insn.opcode != N::Rep {
            self.release(mark);
        }
        r
    }

    fn lower_insn_inner(&mut self, insn: &NvInsn) -> Result<(), LowerError> {
        let name = insn.opcode.name();
        match insn.opcode {
            N::Membar => {
                self.membar();
                return Ok(());
            }
            N::Store | N::Sts | N::Stb => return self.store(insn),
            N::Loadim | N::Storeim | N::Atomim => return self.image(insn),
            N::Bar => {
                self.bar();
                return Ok(());
            }
            _ => {}
        }
        if Self::writes_wide(insn) {
            return self.lower_wide(insn);
        }
        if let Some(t) = insn.mods.ty {
            let narrows = Self::narrows_wide(insn);
            let atomic = matches!(insn.opcode, N::Atom | N::Atoms | N::Atomb);
            let storage = matches!(insn.opcode, N::Load | N::Lds | N::Ldc | N::Ldb);
            if (t.bits() == Some(64) && !narrows && !atomic)
                || !(t.is_operation_type() || atomic || storage || insn.opcode == N::Cvt)
            {
                return Err(self.unsupported(format!("{name}.{t}: 64-bit and storage types")));
            }
        }
        if insn.mods.mul == Some(ast::MulMod::Hi)
            && !matches!(self.ty(insn), BaseType::S | BaseType::U)
        {
            return Err(self.invalid(format!("{name}.HI needs .S or .U")));
        }
        let ty = self.ty(insn);
        let sat = match insn.mods.clamp {
            None => Saturate::None,
            Some(ast::Clamp::Sat) => Saturate::Zero,
            Some(ast::Clamp::SSat) => Saturate::Signed,
        };
        // Table X.13 "Out" vf: the unpacks give floats whatever their data type.
        let float_out = matches!(insn.opcode, N::Up2h | N::Up2us | N::Up4b | N::Up4ub);
        if sat != Saturate::None && ty != BaseType::F && insn.opcode != N::Cvt && !float_out {
            return Err(self.unsupported(format!("{name}: SAT/SSAT on an integer result")));
        }
        if insn.mods.cc.is_some() || insn.dst.as_ref().is_some_and(|d| d.cc.is_some()) {
            return self.with_cc(insn, ty, sat);
        }
        match insn.opcode {
            // Flow control (§2.X.5).
            N::If => {
                let c = match self.branch_cond(insn)? {
                    Cond::Always => src(self.imm([1; 4]), X),
                    Cond::Never => src(self.imm([0; 4]), X),
                    Cond::Dyn(c) => c,
                };
                self.emit(O::UIF, vec![], vec![c]);
            }
            N::Else => {
                self.emit(O::ELSE, vec![], vec![]);
            }
            N::Endif => {
                self.emit(O::ENDIF, vec![], vec![]);
            }
            N::Rep => self.rep(insn, ty)?,
            N::Endrep => {
                self.emit(O::ENDLOOP, vec![], vec![]);
            }
            N::Brk | N::Cont | N::Ret => {
                let op = match insn.opcode {
                    N::Brk => O::BRK,
                    N::Cont => O::CONT,
                    _ => O::RET,
                };
                self.guarded(insn, op)?;
            }
            N::Cal => {
                if let Some(at) = self.guarded(insn, O::CAL)? {
                    let label = insn.label.clone().unwrap_or_default();
                    self.calls.push((at, label));
                }
            }
            N::Cali => self.cali(insn)?,
            N::Kil => self.kil(insn, ty)?,
            N::Emit | N::Emits | N::Endprim => self.lower_emit(insn)?,
            N::Ipac | N::Ipao | N::Ipas => self.lower_interp(insn, sat)?,
            // Textures (lower_tex.rs).
            _ if Self::is_lowered_tex(insn) => self.lower_tex(insn, ty, sat)?,
            // ALU.
            _ => self.alu(insn, ty, sat)?,
        }
        Ok(())
    }

    /// The instruction's base data type: its modifier, else the opcode default (§2.X.4.1).
    fn ty(&self, insn: &NvInsn) -> BaseType {
        // NV_gpu_program4 § MUL: "If S24 or U24 is specified, the data type is implied".
        match insn.mods.mul {
            Some(ast::MulMod::S24) => return BaseType::S,
            Some(ast::MulMod::U24) => return BaseType::U,
            _ => {}
        }
        insn.mods
            .ty
            .map(|t| t.base())
            .or(insn.opcode.default_type())
            .unwrap_or(BaseType::F)
    }

    /// Source operand `k` read as `ty` (§2.X.4.2: swizzle, negate inside `|..|`, absolute,
    /// negate). Float modifiers map to the IR's; integer negation and absolute value are
    /// computed into a hidden TEMP (two's complement; no absolute value for unsigned).
    pub(super) fn operand(
        &mut self,
        insn: &NvInsn,
        k: usize,
        ty: BaseType,
    ) -> Result<ir::Src, LowerError> {
        let s = insn.srcs.get(k).ok_or_else(|| {
            self.invalid(format!("{}: missing operand {}", insn.opcode.name(), k + 1))
        })?;
        self.operand_of(s, ty)
    }

    /// Lowers NV operand `s` read with type `ty`, as [`Ctx::operand`].
    pub(super) fn operand_of(&mut self, s: &ast::Src, ty: BaseType) -> Result<ir::Src, LowerError> {
        let reg = self.src_reg(&s.base, ty)?;
        let swz = s.swizzle.components();
        if ty == BaseType::F {
            return Ok(ir::Src {
                reg,
                swizzle: swz,
                abs: s.abs,
                neg: s.neg ^ (s.neg_inside && !s.abs),
            });
        }
        let mut cur = src(reg, swz);
        let inner_neg = s.neg_inside || (!s.abs && s.neg);
        if inner_neg {
            let t = self.hidden();
            self.emit(O::INEG, vec![dst(t, 0xF)], vec![cur]);
            cur = src(t, [0, 1, 2, 3]);
        }
        if s.abs {
            if ty == BaseType::S {
                let t = self.hidden();
                self.emit(O::IABS, vec![dst(t, 0xF)], vec![cur]);
                cur = src(t, [0, 1, 2, 3]);
            }
            if s.neg {
                let t = self.hidden();
                self.emit(O::INEG, vec![dst(t, 0xF)], vec![cur]);
                cur = src(t, [0, 1, 2, 3]);
            }
        }
        Ok(cur)
    }

    /// The destination register and write mask.
    pub(super) fn dest(&mut self, insn: &NvInsn) -> Result<ir::Dst, LowerError> {
        let d = insn
            .dst
            .as_ref()
            .ok_or_else(|| self.invalid(format!("{}: missing result", insn.opcode.name())))?;
        if let Some(t) = self.redirect {
            return Ok(dst(t, d.mask));
        }
        if let Some(reg) = self.resolve_rel(&d.base, None)? {
            return Ok(dst(reg, d.mask));
        }
        match self.resolve(&d.base)? {
            Elem::Reg(f, i) if matches!(f, File::Temp | File::Output | File::Address) => {
                Ok(dst(Register::new(f, i as i32), d.mask))
            }
            Elem::Long(_) => Err(self.long_as_32_bit(&d.base)),
            _ => Err(self.invalid(format!(
                "{}: the result must be a TEMP, OUTPUT or result binding",
                insn.opcode.name()
            ))),
        }
    }

    /// Emits `op d, srcs` with saturation.
    pub(super) fn op_sat(&mut self, op: O, d: ir::Dst, srcs: Vec<ir::Src>, sat: Saturate) {
        self.op(op, d, srcs, sat);
    }

    /// Emits `op d, srcs` with saturation.
    pub(super) fn op(&mut self, op: O, d: ir::Dst, srcs: Vec<ir::Src>, sat: Saturate) {
        let mut i = Instruction::new(op, vec![d], srcs);
        i.saturate = sat;
        self.push(i);
    }

    /// `MOV d, t` (the last step of an expansion).
    fn finish_mov(&mut self, d: ir::Dst, t: Register, sat: Saturate) {
        self.op(O::MOV, d, vec![src(t, [0, 1, 2, 3])], sat);
    }

    fn words(&self, ty: BaseType, f: f32, i: u32) -> u32 {
        if ty == BaseType::F {
            f.to_bits()
        } else {
            i
        }
    }

    /// [`Self::alu`] for [`Self::with_cc`] (the destination redirected to a hidden TEMP).
    pub(super) fn alu_for_cc(
        &mut self,
        insn: &NvInsn,
        ty: BaseType,
        sat: Saturate,
    ) -> Result<(), LowerError> {
        if matches!(insn.opcode, N::Ipac | N::Ipao | N::Ipas) {
            return self.lower_interp(insn, sat);
        }
        self.alu(insn, ty, sat)
    }

    fn alu(&mut self, insn: &NvInsn, ty: BaseType, sat: Saturate) -> Result<(), LowerError> {
        use BaseType::{F, S, U};
        if Self::narrows_wide(insn) {
            let d = self.dest(insn)?;
            return self.narrow_wide(insn, d, sat);
        }
        if let Some(m @ (ast::MulMod::S24 | ast::MulMod::U24)) = insn.mods.mul {
            return self.mul24(insn, m == ast::MulMod::S24, sat);
        }
        match insn.opcode {
            N::Load | N::Lds | N::Ldc | N::Ldb => {
                let d = self.dest(insn)?;
                return self.load32(insn, d, sat);
            }
            N::Tgall | N::Tgany | N::Tgeq => {
                let d = self.dest(insn)?;
                return self.thread_group_vote(insn, ty, d, sat);
            }
            N::Atom | N::Atoms | N::Atomb => {
                let d = self.dest(insn)?;
                return self.atom(insn, d, sat);
            }
            _ => {}
        }
        let nsrc = insn.srcs.len();
        // Operand types: float-input conversions read floats (§2.X.8 FLR/CEIL/TRUNC/ROUND).
        let src_ty = match insn.opcode {
            N::Flr | N::Ceil | N::Trunc | N::Round | N::Frc => F,
            _ => ty,
        };
        let simple = |o: O| -> Option<O> { Some(o) };
        // Direct one-instruction mappings: (opcode, operands in IR order).
        let direct: Option<O> = match (insn.opcode, ty) {
            (N::Mov, _) => simple(O::MOV),
            (N::Add, F) => simple(O::ADD),
            (N::Add, _) => simple(O::UADD),
            (N::Mul, F) => simple(O::MUL),
            (N::Mul, S) if insn.mods.mul == Some(ast::MulMod::Hi) => simple(O::IMUL_HI),
            (N::Mul, U) if insn.mods.mul == Some(ast::MulMod::Hi) => simple(O::UMUL_HI),
            (N::Mul, _) => simple(O::UMUL),
            (N::Mad, F) => simple(O::MAD),
            (N::Mad, _) => simple(O::UMAD),
            (N::Dp2, F) => simple(O::DP2),
            (N::Dp3, F) => simple(O::DP3),
            (N::Dp4, F) => simple(O::DP4),
            (N::Dst, F) => simple(O::DST),
            (N::Ex2, F) => simple(O::EX2),
            (N::Lg2, F) => simple(O::LG2),
            (N::Exp, F) => simple(O::EXP),
            (N::Log, F) => simple(O::LOG),
            (N::Rcp, F) => simple(O::RCP),
            (N::Pow, F) => simple(O::POW),
            (N::Sin, F) => simple(O::SIN),
            (N::Cos, F) => simple(O::COS),
            (N::Frc, F) => simple(O::FRC),
            (N::Flr, F) => simple(O::FLR),
            (N::Ceil, F) => simple(O::CEIL),
            (N::Trunc, F) => simple(O::TRUNC),
            (N::Round, F) => simple(O::ROUND),
            (N::I2f, S) => simple(O::I2F),
            (N::I2f, U) => simple(O::U2F),
            (N::Min, F) => simple(O::MIN),
            (N::Min, S) => simple(O::IMIN),
            (N::Min, U) => simple(O::UMIN),
            (N::Max, F) => simple(O::MAX),
            (N::Max, S) => simple(O::IMAX),
            (N::Max, U) => simple(O::UMAX),
            (N::Slt, F) => simple(O::SLT),
            (N::Sge, F) => simple(O::SGE),
            (N::Seq, F) => simple(O::SEQ),
            (N::Sne, F) => simple(O::SNE),
            (N::Sgt, F) => simple(O::SGT),
            (N::Sle, F) => simple(O::SLE),
            (N::Slt, S) => simple(O::ISLT),
            (N::Sge, S) => simple(O::ISGE),
            (N::Slt, U) => simple(O::USLT),
            (N::Sge, U) => simple(O::USGE),
            (N::Seq, S | U) => simple(O::USEQ),
            (N::Sne, S | U) => simple(O::USNE),
            (N::Cmp, F) => simple(O::CMP),
            (N::Lrp, F) => simple(O::LRP),
            (N::Lit, F) => simple(O::LIT),
            (N::Ssg, F) => simple(O::SSG),
            (N::Ssg, S) => simple(O::ISSG),
            (N::Ddx, F) => simple(O::DDX),
            (N::Ddy, F) => simple(O::DDY),
            (N::Abs, S) => simple(O::IABS),
            (N::Abs, U) => simple(O::MOV),
            (N::Div, S) => simple(O::IDIV),
            (N::Div, U) => simple(O::UDIV),
            (N::Div, F) => simple(O::DIV),
            (N::Mod, S) => simple(O::MOD),
            (N::Mod, U) => simple(O::UMOD),
            (N::And, S | U) => simple(O::AND),
            (N::Or, S | U) => simple(O::OR),
            (N::Xor, S | U) => simple(O::XOR),
            (N::Not, S | U) => simple(O::NOT),
            (N::Shl, S | U) => simple(O::SHL),
            (N::Shr, S) => simple(O::ISHR),
            (N::Shr, U) => simple(O::USHR),
            (N::Bfr, S | U) => simple(O::BREV),
            (N::Btc, S | U) => simple(O::POPC),
            (N::Btfl, S | U) => simple(O::LSB),
            (N::Btfm, S) => simple(O::IMSB),
            (N::Btfm, U) => simple(O::UMSB),
            _ => None,
        };
        if let Some(op) = direct {
            let mut srcs = Vec::with_capacity(nsrc);
            for k in 0..nsrc {
                srcs.push(self.operand(insn, k, src_ty)?);
            }
            let d = self.dest(insn)?;
            match undefined_when(insn.opcode, ty) {
                Some(guard) => self.with_undefined(op, d, srcs, sat, guard),
                None => self.op(op, d, srcs, sat),
            }
            return Ok(());
        }
        if !insn.opcode.has_dst() {
            return Err(self.not_lowered(insn));
        }
        let d = self.dest(insn)?;
        if insn.opcode == N::Cvt {
            return self.cvt(insn, d, sat);
        }
        if self.expand_more(insn, d, sat)? {
            return Ok(());
        }
        match (insn.opcode, ty) {
            (N::Abs, F) => {
                let mut a = self.operand(insn, 0, F)?;
                a.abs = true;
                a.neg = false;
                self.op(O::MOV, d, vec![a], sat);
            }
            (N::Sub, F) => {
                let a = self.operand(insn, 0, F)?;
                let mut b = self.operand(insn, 1, F)?;
                b.neg = !b.neg;
                self.op(O::ADD, d, vec![a, b], sat);
            }
            (N::Sub, _) => {
                let a = self.operand(insn, 0, ty)?;
                let b = self.operand(insn, 1, ty)?;
                let t = self.hidden();
                self.emit(O::INEG, vec![dst(t, 0xF)], vec![b]);
                self.op(O::UADD, d, vec![a, src(t, [0, 1, 2, 3])], sat);
            }
            (N::Rsq, F) => {
                // ARB_vertex_program §2.14.5.20 / ARB_fragment_program: RSQ of |x|;
                // NV_gpu_program4: no implicit absolute value (x <= 0 is undefined).
                let mut a = self.operand(insn, 0, F)?;
                if self.nv.header.is_arb() {
                    a.abs = true;
                    a.neg = false;
                }
                self.op(O::RSQ, d, vec![a], sat);
            }
            (N::Flr | N::Ceil | N::Trunc | N::Round, S | U) => {
                let fop = match insn.opcode {
                    N::Flr => O::FLR,
                    N::Ceil => O::CEIL,
                    N::Trunc => O::TRUNC,
                    _ => O::ROUND,
                };
                let a = self.operand(insn, 0, F)?;
                let t = self.hidden();
                self.emit(fop, vec![dst(t, 0xF)], vec![a]);
                let cv = if ty == S { O::F2I } else { O::F2U };
                self.op(cv, d, vec![src(t, [0, 1, 2, 3])], sat);
            }
            (N::Sgt | N::Sle, S | U) => {
                // a > b is b < a; a <= b is b >= a.
                let a = self.operand(insn, 0, ty)?;
                let b = self.operand(insn, 1, ty)?;
                let op = match (insn.opcode, ty) {
                    (N::Sgt, S) => O::ISLT,
                    (N::Sgt, _) => O::USLT,
                    (_, S) => O::ISGE,
                    _ => O::USGE,
                };
                self.op(op, d, vec![b, a], sat);
            }
            (N::Sfl | N::Str, _) => {
                let v = if insn.opcode == N::Str {
                    self.words(ty, 1.0, u32::MAX)
                } else {
                    0
                };
                let r = self.imm([v; 4]);
                self.op(O::MOV, d, vec![src(r, [0, 1, 2, 3])], sat);
            }
            (N::Cmp, S) => {
                let a = self.operand(insn, 0, S)?;
                let b = self.operand(insn, 1, S)?;
                let c = self.operand(insn, 2, S)?;
                let zero = self.imm([0; 4]);
                let t = self.hidden();
                self.emit(O::ISLT, vec![dst(t, 0xF)], vec![a, src(zero, [0, 1, 2, 3])]);
                self.op(O::UCMP, d, vec![src(t, [0, 1, 2, 3]), b, c], sat);
            }
            (N::Cmp, U) => {
                // An unsigned value is never below zero: the third operand.
                let c = self.operand(insn, 2, U)?;
                self.op(O::MOV, d, vec![c], sat);
            }
            (N::Dph, F) => {
                // a.xyz . b.xyz + b.w = DP4 of (a.xyz, 1) and b.
                let a = self.operand(insn, 0, F)?;
                let b = self.operand(insn, 1, F)?;
                let one = self.imm([1f32.to_bits(); 4]);
                let t = self.hidden();
                self.emit(O::MOV, vec![dst(t, 0x7)], vec![a]);
                self.emit(O::MOV, vec![dst(t, 0x8)], vec![src(one, X)]);
                self.op(O::DP4, d, vec![src(t, [0, 1, 2, 3]), b], sat);
            }
            (N::Xpd, F) => {
                // r.xyz = a.yzx * b.zxy - a.zxy * b.yzx; r.w undefined (not written).
                let a = self.operand(insn, 0, F)?;
                let b = self.operand(insn, 1, F)?;
                let t = self.hidden();
                let sw = |s: ir::Src, p: [usize; 4]| ir::Src {
                    swizzle: [
                        s.swizzle[p[0]],
                        s.swizzle[p[1]],
                        s.swizzle[p[2]],
                        s.swizzle[p[3]],
                    ],
                    ..s
                };
                let mut nb = sw(b, [1, 2, 0, 3]);
                self.emit(O::MUL, vec![dst(t, 0xF)], vec![sw(a, [2, 0, 1, 3]), nb]);
                nb = sw(b, [2, 0, 1, 3]);
                let mut neg_t = src(t, [0, 1, 2, 3]);
                neg_t.neg = true;
                self.op(
                    O::MAD,
                    dst(d.reg, d.writemask & 0x7),
                    vec![sw(a, [1, 2, 0, 3]), nb, neg_t],
                    sat,
                );
            }
            (N::Nrm, F) => {
                // r.xyz = a.xyz * rsq(a.xyz . a.xyz); r.w undefined (§ NRM).
                let a = self.operand(insn, 0, F)?;
                let t = self.hidden();
                self.emit(O::DP3, vec![dst(t, 0x1)], vec![a, a]);
                self.emit(O::RSQ, vec![dst(t, 0x1)], vec![src(t, X)]);
                self.op(
                    O::MUL,
                    dst(d.reg, d.writemask & 0x7),
                    vec![a, src(t, X)],
                    sat,
                );
                self.undefined_channels(d.reg, d.writemask & 0x8);
            }
            (N::Scs, F) => {
                // r = (cos s, sin s, undefined, undefined); the whole vector undefined when
                // s is outside [-PI, PI] (§ SCS; NaN is outside).
                let a = self.operand(insn, 0, F)?;
                let t = self.hidden();
                self.emit(O::COS, vec![dst(t, 0x1)], vec![a]);
                self.emit(O::SIN, vec![dst(t, 0x2)], vec![a]);
                let k = self.hidden();
                let pi = src(self.imm([std::f32::consts::PI.to_bits(); 4]), [0, 1, 2, 3]);
                let zero = src(self.imm([0; 4]), [0, 1, 2, 3]);
                let abs = ir::Src {
                    abs: true,
                    neg: false,
                    ..a
                };
                // k = ~0 in range, 0 outside; IDIV 0, k: 0 in range, undefined outside.
                self.emit(O::FSGE, vec![dst(k, 0xF)], vec![pi, abs]);
                self.emit(O::IDIV, vec![dst(k, 0xF)], vec![zero, src(k, [0, 1, 2, 3])]);
                self.emit(
                    O::OR,
                    vec![dst(t, 0x3)],
                    vec![src(t, [0, 1, 2, 3]), src(k, [0, 1, 2, 3])],
                );
                self.undefined_channels(t, 0xC);
                self.op(
                    O::MOV,
                    dst(d.reg, d.writemask),
                    vec![src(t, [0, 1, 2, 3])],
                    sat,
                );
            }
            (N::Swz, F) => self.swz(insn, d, sat)?,
            (N::Arl, _) => {
                // ARB_vertex_program §2.14.5.1: floor(x) into the address register.
                let a = self.operand(insn, 0, F)?;
                self.op(O::ARL, d, vec![a], sat);
            }
            (N::Bfe, S | U) => {
                // NV: a.x = width, a.y = offset, b = value; IR: value, offset, bits.
                let a = self.operand(insn, 0, ty)?;
                let b = self.operand(insn, 1, ty)?;
                let op = if ty == S { O::IBFE } else { O::UBFE };
                let off = ir::Src {
                    swizzle: [a.swizzle[1]; 4],
                    ..a
                };
                let bits = ir::Src {
                    swizzle: [a.swizzle[0]; 4],
                    ..a
                };
                self.op(op, d, vec![b, off, bits], sat);
            }
            (N::Bfi, S | U) => {
                // NV: a.x = width, a.y = offset, b = bits inserted, c = base;
                // IR: base, insert, offset, bits.
                let a = self.operand(insn, 0, ty)?;
                let b = self.operand(insn, 1, ty)?;
                let c = self.operand(insn, 2, ty)?;
                let off = ir::Src {
                    swizzle: [a.swizzle[1]; 4],
                    ..a
                };
                let bits = ir::Src {
                    swizzle: [a.swizzle[0]; 4],
                    ..a
                };
                self.op(O::BFI, d, vec![c, b, off, bits], sat);
            }
            (N::Sad, S | U) => {
                // |a - b| + c with the exact difference: max(a, b) - min(a, b) (wrapping
                // as unsigned), then + c.
                let a = self.operand(insn, 0, ty)?;
                let b = self.operand(insn, 1, ty)?;
                let c = self.operand(insn, 2, U)?;
                let (mx, mn) = if ty == S {
                    (O::IMAX, O::IMIN)
                } else {
                    (O::UMAX, O::UMIN)
                };
                let t = self.hidden();
                let u = self.hidden();
                self.emit(mx, vec![dst(t, 0xF)], vec![a, b]);
                self.emit(mn, vec![dst(u, 0xF)], vec![a, b]);
                self.emit(O::INEG, vec![dst(u, 0xF)], vec![src(u, [0, 1, 2, 3])]);
                self.emit(
                    O::UADD,
                    vec![dst(t, 0xF)],
                    vec![src(t, [0, 1, 2, 3]), src(u, [0, 1, 2, 3])],
                );
                self.op(O::UADD, d, vec![src(t, [0, 1, 2, 3]), c], sat);
            }
            _ => return Err(self.not_lowered(insn)),
        }
        Ok(())
    }

    /// The error for an instruction outside the lowered subset, saying why.
    fn not_lowered(&self, insn: &NvInsn) -> LowerError {
        let name = insn.opcode.name();
        let t = insn.mods.ty.map(|t| format!(".{t}")).unwrap_or_default();
        let what = match insn.opcode {
            N::Tex
            | N::Txb
            | N::Txd
            | N::Txf
            | N::Txg
            | N::Txgo
            | N::Txl
            | N::Txp
            | N::Txq
            | N::Txfms
            | N::Lod => "condition codes on texture instructions are not lowered",
            _ => "not lowered yet",
        };
        self.unsupported(format!("{name}{t}: {what}"))
    }

    /// SWZ (ARB_vertex_program §2.14.5.22 / ARB_fragment_program §3.11.5.23): each result
    /// component is a source component, 0 or 1, optionally negated.
    fn swz(&mut self, insn: &NvInsn, d: ir::Dst, sat: Saturate) -> Result<(), LowerError> {
        let sel = insn
            .ext_swizzle
            .ok_or_else(|| self.invalid("SWZ without selectors".into()))?;
        let a = self.operand(insn, 0, BaseType::F)?;
        let t = self.hidden();
        let mut consts = [0u32; 4];
        let mut cmask = 0u8;
        for neg in [false, true] {
            let mut mask = 0u8;
            let mut sw = [0u8; 4];
            for (c, s) in sel.iter().enumerate() {
                match s.sel {
                    ExtSel::Comp(k) if s.neg == neg => {
                        mask |= 1 << c;
                        sw[c] = a.swizzle[k as usize];
                    }
                    ExtSel::Zero | ExtSel::One if !neg => {
                        let v: f32 = if s.sel == ExtSel::One { 1.0 } else { 0.0 };
                        consts[c] = if s.neg { -v } else { v }.to_bits();
                        cmask |= 1 << c;
                    }
                    _ => {}
                }
            }
            if mask != 0 {
                let s = ir::Src {
                    swizzle: sw,
                    neg: a.neg ^ neg,
                    ..a
                };
                self.emit(O::MOV, vec![dst(t, mask)], vec![s]);
            }
        }
        if cmask != 0 {
            let r = self.imm(consts);
            self.emit(O::MOV, vec![dst(t, cmask)], vec![src(r, [0, 1, 2, 3])]);
        }
        self.finish_mov(d, t, sat);
        Ok(())
    }

    /// REP [count] (NV_gpu_program4 §2.X.5.2; NOTES.md §8): a loop with a hidden counter,
    /// tested and decremented at the top so that CONT (which jumps to the top in the IR)
    /// still counts the iteration. Count: floor of a float, or an integer (.S/.U); a count
    /// ≤ 0 (unsigned: 0) skips the block.
    fn rep(&mut self, insn: &NvInsn, ty: BaseType) -> Result<(), LowerError> {
        if insn.srcs.is_empty() {
            self.emit(O::BGNLOOP, vec![], vec![]);
            return Ok(());
        }
        let n = self.operand(insn, 0, ty)?;
        let n = ir::Src {
            swizzle: [n.swizzle[0]; 4],
            ..n
        };
        let c = self.hidden();
        match ty {
            BaseType::F => {
                self.emit(O::FLR, vec![dst(c, 0x2)], vec![n]);
                self.emit(O::F2I, vec![dst(c, 0x1)], vec![src(c, [1; 4])]);
            }
            _ => {
                self.emit(O::MOV, vec![dst(c, 0x1)], vec![n]);
            }
        }
        let zero = self.imm([0; 4]);
        let minus1 = self.imm([u32::MAX; 4]);
        self.emit(O::BGNLOOP, vec![], vec![]);
        if ty == BaseType::U {
            self.emit(O::USEQ, vec![dst(c, 0x2)], vec![src(c, X), src(zero, X)]);
        } else {
            self.emit(O::ISGE, vec![dst(c, 0x2)], vec![src(zero, X), src(c, X)]);
        }
        self.emit(O::UIF, vec![], vec![src(c, [1; 4])]);
        self.emit(O::BRK, vec![], vec![]);
        self.emit(O::ENDIF, vec![], vec![]);
        self.emit(O::UADD, vec![dst(c, 0x1)], vec![src(c, X), src(minus1, X)]);
        Ok(())
    }

    /// KIL (ARB_fragment_program §3.11.5.10, NV_gpu_program4 §2.X.8 KIL): discard if any
    /// component of the operand is negative (never for .U); the condition-code form
    /// only with TR / FL.
    fn kil(&mut self, insn: &NvInsn, ty: BaseType) -> Result<(), LowerError> {
        if insn.srcs.is_empty() {
            self.guarded(insn, O::KILL)?;
            return Ok(());
        }
        match ty {
            BaseType::F => {
                let a = self.operand(insn, 0, BaseType::F)?;
                self.emit(O::KILL_IF, vec![], vec![a]);
            }
            BaseType::S => {
                // a < 0 as -1.0 / 0.0, then the float test.
                let a = self.operand(insn, 0, BaseType::S)?;
                let zero = self.imm([0; 4]);
                let t = self.hidden();
                self.emit(O::ISLT, vec![dst(t, 0xF)], vec![a, src(zero, [0, 1, 2, 3])]);
                self.emit(O::I2F, vec![dst(t, 0xF)], vec![src(t, [0, 1, 2, 3])]);
                self.emit(O::KILL_IF, vec![], vec![src(t, [0, 1, 2, 3])]);
            }
            BaseType::U => {}
        }
        Ok(())
    }
}
