//! Where NV leaves a result undefined but the closest IR opcode defines one (shift counts
//! outside [0, 31], integer division by zero, MOD of a negative operand, MUL.S24 / MUL.U24
//! outside 24-bit operands: NV_gpu_program4 §2.X.8.Z SHL, SHR, DIV, MOD, MUL), the lowered
//! result is ORed with a word that is 0 where NV defines it and undefined (IR semantics)
//! elsewhere, so every engine computes the same value where NV defines it and the oracle
//! marks the channel undefined where NV does not.

use super::ast::{BaseType, Instruction as NvInsn};
use super::lower::{dst, src, Ctx, LowerError};
use super::NvOpcode as N;
use crate::opcode::Opcode as O;
use crate::program::{self as ir, Register, Saturate};

const XYZW: [u8; 4] = [0, 1, 2, 3];

impl Ctx<'_> {
    /// Emits `op d, srcs` whose result NV leaves undefined in the cases `guard` names, where
    /// the IR opcode defines one (TGSI's SHL masks the count, UDIV/UMOD by zero give ~0, MOD
    /// of a negative dividend is C's remainder): the result is computed into a hidden TEMP
    /// and ORed with a word that is 0 in the defined cases and *undefined* (IR semantics) in
    /// the others, so every engine computes the same value where NV defines it and the oracle
    /// marks the channel undefined where NV does not.
    ///
    /// The undefined word comes from tgsi.rst's bitfield and division rules: `UBFE 0, n, 1`
    /// is 0 for `0 <= n <= 31` and undefined otherwise ("offset < 0 or offset + bits > 32");
    /// `IDIV 0, d` is 0 for `d != 0` and undefined for 0; `ISHR x, 31` turns a sign test into
    /// such an offset (0 or -1).
    pub(super) fn with_undefined(
        &mut self,
        op: O,
        d: ir::Dst,
        srcs: Vec<ir::Src>,
        sat: Saturate,
        guard: Guard,
    ) {
        let mark = self.next_temp;
        let zero = src(self.imm([0; 4]), XYZW);
        let one = src(self.imm([1; 4]), XYZW);
        let thirty_one = src(self.imm([31; 4]), XYZW);
        let h = self.hidden();
        let g = self.hidden();
        let t = self.hidden();
        let all = |r: Register| ir::Dst {
            reg: r,
            writemask: 0xF,
        };
        let (first, second) = (srcs[0], srcs.get(1).copied());
        // A float result saturates before the guard word is ORed in (OR is a bit operation);
        // the integer guards keep the saturation on the final instruction.
        let (inner, outer) = match guard {
            Guard::NonPositive => (sat, Saturate::None),
            _ => (Saturate::None, sat),
        };
        self.op(op, all(h), srcs, inner);
        let divisor = second.unwrap_or(first);
        // g = 0 where defined, undefined elsewhere.
        let sign_guard = |cx: &mut Self, x: ir::Src, into: Register| {
            cx.op(O::ISHR, all(t), vec![x, thirty_one], Saturate::None);
            cx.op(
                O::UBFE,
                all(into),
                vec![zero, src(t, XYZW), one],
                Saturate::None,
            );
        };
        match guard {
            Guard::ShiftCount => {
                self.op(O::UBFE, all(g), vec![zero, divisor, one], Saturate::None);
            }
            Guard::ZeroDivisor => {
                self.op(O::IDIV, all(g), vec![zero, divisor], Saturate::None);
            }
            Guard::NonPositive => {
                // t = ~0 where 0 >= x (x zero or negative), else 0 (NaN included); g = IDIV
                // 0, NOT t: 0 where x > 0 or NaN, undefined where x <= 0.
                self.op(O::FSGE, all(t), vec![zero, first], Saturate::None);
                self.op(O::NOT, all(t), vec![src(t, XYZW)], Saturate::None);
                self.op(O::IDIV, all(g), vec![zero, src(t, XYZW)], Saturate::None);
            }
            Guard::SignedModulus => {
                // Undefined when the dividend is negative or the divisor <= 0 (§ MOD).
                self.op(O::IDIV, all(g), vec![zero, divisor], Saturate::None);
                let u = self.hidden();
                sign_guard(self, first, u);
                self.op(
                    O::OR,
                    all(g),
                    vec![src(g, XYZW), src(u, XYZW)],
                    Saturate::None,
                );
                sign_guard(self, divisor, u);
                self.op(
                    O::OR,
                    all(g),
                    vec![src(g, XYZW), src(u, XYZW)],
                    Saturate::None,
                );
            }
        }
        self.op(O::OR, d, vec![src(h, XYZW), src(g, XYZW)], outer);
        self.release(mark);
    }

    /// Writes an undefined word (tgsi.rst: IDIV by zero) to the channels `mask` of `reg`
    /// (NV results the spec leaves undefined: SCS's `z` and `w`, NRM's `w`); nothing when
    /// `mask` is empty.
    pub(super) fn undefined_channels(&mut self, reg: Register, mask: u8) {
        if mask == 0 {
            return;
        }
        let zero = src(self.imm([0; 4]), XYZW);
        self.emit(
            O::IDIV,
            vec![ir::Dst {
                reg,
                writemask: mask,
            }],
            vec![zero, zero],
        );
    }

    /// MUL.S24 / MUL.U24 (NV_gpu_program4 § MUL): the low 32 bits of the product, undefined
    /// when an operand is outside [-2^23, 2^23 - 1] (S24) or [0, 2^24 - 1] (U24). In range
    /// means `a >> 24 == 0` (U24) or `(a >>arith 23) + 1 <= 1` (S24); the result is ORed with
    /// `IDIV 0, in_range` (tgsi.rst: IDIV by zero is undefined) for each operand.
    pub(super) fn mul24(
        &mut self,
        insn: &NvInsn,
        signed: bool,
        sat: Saturate,
    ) -> Result<(), LowerError> {
        let ty = if signed { BaseType::S } else { BaseType::U };
        let a = self.operand(insn, 0, ty)?;
        let b = self.operand(insn, 1, ty)?;
        let d = self.dest(insn)?;
        let all = |r: Register| dst(r, 0xF);
        let zero = src(self.imm([0; 4]), XYZW);
        let one = src(self.imm([1; 4]), XYZW);
        let h = self.hidden();
        self.op(O::UMUL, all(h), vec![a, b], Saturate::None);
        for x in [a, b] {
            let g = self.hidden();
            if signed {
                let k23 = src(self.imm([23; 4]), XYZW);
                self.op(O::ISHR, all(g), vec![x, k23], Saturate::None);
                self.op(O::UADD, all(g), vec![src(g, XYZW), one], Saturate::None);
                self.op(O::USHR, all(g), vec![src(g, XYZW), one], Saturate::None);
            } else {
                let k24 = src(self.imm([24; 4]), XYZW);
                self.op(O::USHR, all(g), vec![x, k24], Saturate::None);
            }
            self.op(O::USEQ, all(g), vec![src(g, XYZW), zero], Saturate::None);
            self.op(O::IDIV, all(g), vec![zero, src(g, XYZW)], Saturate::None);
            self.op(
                O::OR,
                all(h),
                vec![src(h, XYZW), src(g, XYZW)],
                Saturate::None,
            );
        }
        self.op(O::MOV, d, vec![src(h, XYZW)], sat);
        Ok(())
    }
}

/// Results NV leaves undefined where the IR opcode a direct mapping uses defines one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Guard {
    /// SHL, SHR: "undefined if the value of the second operand is negative, or greater than
    /// or equal to the number of bits in the first operand" (NV_gpu_program4 § SHL, § SHR).
    ShiftCount,
    /// DIV.U, MOD.U: "the results of an ... unsigned integer division by zero are undefined"
    /// (§ DIV); MOD: "undefined if ... the second operand is less than or equal to zero".
    ZeroDivisor,
    /// MOD.S: also "undefined if the corresponding component of the first operand is
    /// negative" (§ MOD).
    SignedModulus,
    /// LG2: "If the scalar operand is zero or negative, the result is undefined" (§ LG2);
    /// NaN is neither, so it keeps the IR's IEEE result (a NaN).
    NonPositive,
}

/// The guard a direct mapping of `op` at type `ty` needs ([`Guard`]); `None` when the IR
/// opcode is already undefined exactly where NV is (IDIV by zero) or NV defines every case.
pub(super) fn undefined_when(op: N, ty: BaseType) -> Option<Guard> {
    use BaseType::{S, U};
    match (op, ty) {
        (N::Shl | N::Shr, S | U) => Some(Guard::ShiftCount),
        (N::Div | N::Mod, U) => Some(Guard::ZeroDivisor),
        (N::Mod, S) => Some(Guard::SignedModulus),
        (N::Lg2, BaseType::F) => Some(Guard::NonPositive),
        _ => None,
    }
}
