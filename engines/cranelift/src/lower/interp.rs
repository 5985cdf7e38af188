//! Lowering of INTERP_CENTROID, INTERP_SAMPLE and INTERP_OFFSET (tgsi.rst "Interpolation
//! ISA"), under the model of the oracle (`shaderdiff_oracles::interp`, README "Additions to
//! INTERFACE.md"): single-sampled, fully covered fragments, attributes affine across the
//! quad (INTERFACE.md "Fragment quads").
//!
//! * CENTROID and SAMPLE read the input (the pixel centre; other sample numbers are
//!   undefined, so the sample operand is not read).
//! * OFFSET of a CONSTANT (flat) input reads the input; otherwise every lane computes
//!   `(v + dx*ddx) + dy*ddy` with unfused multiplies and adds, `ddx` the difference along
//!   its own row (lanes `1-0`, `3-2`), `ddy` along its own column (`2-0`, `3-1`), `dx`, `dy`
//!   from `src1.xy`. Source modifiers apply to the interpolated value (NV_gpu_program5
//!   issue (8)).

use cranelift_codegen::ir::types::{F32X4, I32X4};
use cranelift_codegen::ir::InstBuilder;
use shaderdiff_model::check::FetchType;
use shaderdiff_model::{File, Interpolation, Opcode};

use super::{LowerError, Lowerer};

impl Lowerer<'_, '_> {
    /// An INTERP_* instruction (module docs); the step is already counted.
    pub(super) fn interpolate(&mut self, i: usize) -> Result<(), LowerError> {
        let env = self.env;
        let program = env.program;
        let insn = &program.instructions[i];
        let (Some(dst), Some(src)) = (insn.dst.first().copied(), insn.src.first()) else {
            return Err(self.invalid(i, "an interpolation needs a destination and a source"));
        };
        let wm = dst.writemask & 0xF;
        if wm == 0 || dst.reg.file == File::Null {
            return Ok(());
        }
        let index = src.reg.index.value as i64;
        let flat = program.decls(File::Input).any(|d| {
            (d.first as i64..=d.last as i64).contains(&index)
                && d.interpolation == Some(Interpolation::Constant)
        });
        if insn.opcode != Opcode::INTERP_OFFSET || flat {
            let v = self.fetch(i, src, FetchType::Float, wm)?;
            return self.store(i, &dst, v.map(Some), insn.saturate);
        }
        let offset = insn
            .src
            .get(1)
            .ok_or_else(|| self.invalid(i, "INTERP_OFFSET needs an offset"))?;
        let raw = shaderdiff_model::Src {
            abs: false,
            neg: false,
            ..*src
        };
        let v = self.fetch(i, &raw, FetchType::Float, wm)?;
        let o = self.fetch(i, offset, FetchType::Float, 0x3)?;
        let dx = self.cast(F32X4, o[0]);
        let dy = self.cast(F32X4, o[1]);
        let mut out = [None; 4];
        for c in 0..4 {
            if wm >> c & 1 == 0 {
                continue;
            }
            let mut diff = |hi: [u8; 4], lo: [u8; 4]| {
                let a = self.shuffle32(v[c], v[c], hi);
                let b = self.shuffle32(v[c], v[c], lo);
                let a = self.cast(F32X4, a);
                let b = self.cast(F32X4, b);
                self.b.ins().fsub(a, b)
            };
            let ddx = diff([1, 1, 3, 3], [0, 0, 2, 2]);
            let ddy = diff([2, 3, 2, 3], [0, 1, 0, 1]);
            let x = self.cast(F32X4, v[c]);
            let px = self.b.ins().fmul(dx, ddx);
            let t = self.b.ins().fadd(x, px);
            let py = self.b.ins().fmul(dy, ddy);
            let mut r = self.b.ins().fadd(t, py);
            if src.abs {
                r = self.b.ins().fabs(r);
            }
            if src.neg {
                r = self.b.ins().fneg(r);
            }
            out[c] = Some(self.cast(I32X4, r));
        }
        self.store(i, &dst, out, insn.saturate)
    }
}
