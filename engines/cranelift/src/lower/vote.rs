//! Lowering of the inter-lane votes VOTE_ANY, VOTE_ALL, VOTE_EQ and READ_FIRST (tgsi.rst
//! "Inter-lane opcodes"; NV TGALL/TGANY/TGEQ lower to them). The jit's thread group is the
//! quad: the executing lanes of the `i32x4` (an arrangement NV_gpu_program5 §2.X.8.Z
//! leaves to the implementation; the oracle accepts every arrangement). A value is "set"
//! when its 32-bit word is nonzero; TRUE is `0xffffffff`, FALSE `0`.

use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::types::I32X4;
use cranelift_codegen::ir::{InstBuilder, Value};
use shaderdiff_model::check::FetchType;
use shaderdiff_model::{File, Opcode};

use super::{LowerError, Lowerer};

impl Lowerer<'_, '_> {
    /// A vote instruction (module docs); the step is already counted.
    pub(super) fn vote(&mut self, i: usize) -> Result<(), LowerError> {
        let insn = &self.env.program.instructions[i];
        let op = insn.opcode;
        let Some(dst) = insn.dst.first().copied() else {
            return Ok(());
        };
        let wm = dst.writemask & 0xF;
        if wm == 0 || dst.reg.file == File::Null {
            return Ok(());
        }
        let src = insn
            .src
            .first()
            .ok_or_else(|| self.invalid(i, format!("{op} needs a source")))?;
        // opcodes.csv types the operand as float: float modifiers apply.
        let v = self.fetch(i, src, FetchType::Float, wm)?;
        let exec = self.use_exec();
        let inactive = self.b.ins().bnot(exec);
        let zero = self.ci(0);
        let mut out = [None; 4];
        for c in 0..4 {
            if wm >> c & 1 == 0 {
                continue;
            }
            let x = v[c];
            out[c] = Some(match op {
                Opcode::VOTE_ANY => {
                    let set = self.b.ins().icmp(IntCC::NotEqual, x, zero);
                    let m = self.b.ins().band(set, exec);
                    let t = self.b.ins().vany_true(m);
                    self.truth(t)
                }
                Opcode::VOTE_ALL => {
                    let set = self.b.ins().icmp(IntCC::NotEqual, x, zero);
                    let m = self.b.ins().bor(set, inactive);
                    let t = self.b.ins().vall_true(m);
                    self.truth(t)
                }
                Opcode::VOTE_EQ => {
                    let first = self.first_active(x, exec);
                    let eq = self.b.ins().icmp(IntCC::Equal, x, first);
                    let m = self.b.ins().bor(eq, inactive);
                    let t = self.b.ins().vall_true(m);
                    self.truth(t)
                }
                Opcode::READ_FIRST => self.first_active(x, exec),
                _ => return Err(self.invalid(i, format!("{op} is not a vote"))),
            });
        }
        self.store(i, &dst, out, insn.saturate)
    }

    /// `0xffffffff` in every lane when the `i8` truth value `t` is nonzero, else `0`.
    fn truth(&mut self, t: Value) -> Value {
        let yes = self.ci(u32::MAX);
        let no = self.ci(0);
        self.b.ins().select(t, yes, no)
    }

    /// The value of `x` in the lowest lane set in `exec`, in every lane (any value when no
    /// lane is set: nothing is stored then).
    fn first_active(&mut self, x: Value, exec: Value) -> Value {
        let mut pick = self.b.ins().extractlane(x, 3);
        for k in (0..3u8).rev() {
            let e = self.b.ins().extractlane(exec, k);
            let v = self.b.ins().extractlane(x, k);
            pick = self.b.ins().select(e, v, pick);
        }
        self.b.ins().splat(I32X4, pick)
    }
}
