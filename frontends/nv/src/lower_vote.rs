//! TGALL, TGANY and TGEQ (NV_gpu_program5 §2.X.8.Z, Table X.13 "test all / any non-zero,
//! test all equal in thread group") lowered to the IR's inter-lane votes VOTE_ALL,
//! VOTE_ANY and VOTE_EQ (tgsi.rst "Inter-lane opcodes"), which every engine implements
//! and whose grouping the oracle treats as implementation-defined, as the spec says.
//!
//! * Each component is first tested against zero in the instruction's data type: float
//!   `!= 0.0` (so -0.0 is zero and NaN is not), integer bits `!= 0`.
//! * TGEQ is the spec's pseudo-code: `tgall == tgany` of those tests, i.e. the tests (not
//!   the values) are the same in every active thread (NOTES.md: "all-equal of non-zero
//!   tests"): VOTE_EQ of the test words.
//! * TRUE is 1.0 for F, -1 for S and 0xFFFFFFFF for U; FALSE is 0 (the spec's last
//!   paragraph of each section). The votes give `~0` / `0`, so F results are ANDed with
//!   the bits of 1.0.

use super::ast::{BaseType, Instruction as NvInsn};
use super::lower::{dst, src, Ctx, LowerError};
use super::NvOpcode as N;
use crate::opcode::Opcode as O;
use crate::program::{self as ir, Saturate};

const XYZW: [u8; 4] = [0, 1, 2, 3];

impl Ctx<'_> {
    /// Lowers TGALL / TGANY / TGEQ of data type `ty` to `d` (module docs).
    pub(super) fn thread_group_vote(
        &mut self,
        insn: &NvInsn,
        ty: BaseType,
        d: ir::Dst,
        sat: Saturate,
    ) -> Result<(), LowerError> {
        let vote = match insn.opcode {
            N::Tgall => O::VOTE_ALL,
            N::Tgany => O::VOTE_ANY,
            N::Tgeq => O::VOTE_EQ,
            _ => return Err(self.invalid(format!("{} is not a vote", insn.opcode.name()))),
        };
        let a = self.operand(insn, 0, ty)?;
        // The non-zero test as a TGSI boolean word (~0 / 0).
        let test = if ty == BaseType::F || vote == O::VOTE_EQ {
            let zero = self.imm([0; 4]);
            let cmp = if ty == BaseType::F { O::FSNE } else { O::USNE };
            let t = self.hidden();
            self.emit(cmp, vec![dst(t, 0xF)], vec![a, src(zero, XYZW)]);
            src(t, XYZW)
        } else {
            a
        };
        if ty != BaseType::F {
            self.op(vote, d, vec![test], sat);
            return Ok(());
        }
        let v = self.hidden();
        self.emit(vote, vec![dst(v, 0xF)], vec![test]);
        let one = self.imm([1.0f32.to_bits(); 4]);
        self.op(O::AND, d, vec![src(v, XYZW), src(one, XYZW)], sat);
        Ok(())
    }
}
