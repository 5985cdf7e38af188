//! INTERP_CENTROID, INTERP_SAMPLE and INTERP_OFFSET (tgsi.rst "Interpolation ISA") on
//! Valhall, under the oracle's model (`shaderdiff_oracles::interp`, README "Additions to
//! INTERFACE.md"): single-sampled, fully covered fragments whose attributes are affine
//! across the quad (INTERFACE.md "Fragment quads").
//!
//! * CENTROID and SAMPLE move the input (the pixel centre; other sample numbers are
//!   undefined, so the sample operand is not read).
//! * OFFSET of a CONSTANT (flat) input moves the input; otherwise
//!   `fma(dy, ddy, fma(dx, ddx, v))` with `ddx`, `ddy` the fine derivatives of the lane's
//!   own row and column, read from the neighbouring lanes with CLPER (SEMANTICS.md §7
//!   Subgroup) like DDX_FINE / DDY_FINE. Source modifiers apply to the interpolated value
//!   (NV_gpu_program5 issue (8)).

use shaderdiff_model::{File, Instruction, Interpolation, Opcode};

use super::alu::plain;
use super::lower::Lower;
use super::vcode::VSrc;
use super::CompileError;

/// The interpolation opcodes the compiler lowers.
pub const INTERP_OPCODES: &[Opcode] = &[
    Opcode::INTERP_CENTROID,
    Opcode::INTERP_SAMPLE,
    Opcode::INTERP_OFFSET,
];

impl Lower<'_> {
    /// Channel `c` of INTERP_* instruction `insn` (module docs).
    pub(super) fn interpolate(&mut self, insn: &Instruction, c: u8) -> Result<VSrc, CompileError> {
        let v = self.fetch(insn, 0, c)?;
        let index = insn.src.first().map_or(0, |s| s.reg.index.value as i64);
        let flat = self.program.decls(File::Input).any(|d| {
            (d.first as i64..=d.last as i64).contains(&index)
                && d.interpolation == Some(Interpolation::Constant)
        });
        if insn.opcode != Opcode::INTERP_OFFSET || flat {
            return Ok(plain(&mut self.code, v));
        }
        let lanes = self.lanes.ok_or_else(|| {
            CompileError::unsupported(None, "interpolation outside fragment programs")
        })?;
        let raw = VSrc {
            abs: false,
            neg: false,
            ..v
        };
        let dx = self.fetch(insn, 1, 0)?;
        let dy = self.fetch(insn, 1, 1)?;
        let dx = plain(&mut self.code, dx);
        let dy = plain(&mut self.code, dy);
        let mods: &[(&str, &str)] = &[("lane_op", "none"), ("inactive_result", "zero")];
        let mut diff = |lo, hi| {
            let l = self
                .code
                .op("CLPER.i32", &[raw, VSrc::v(lo).sel("b00")], mods);
            let h = self
                .code
                .op("CLPER.i32", &[raw, VSrc::v(hi).sel("b00")], mods);
            self.code.op("FADD.f32", &[h, l.negated()], &[])
        };
        let ddx = diff(lanes.row[0], lanes.row[1]);
        let ddy = diff(lanes.col[0], lanes.col[1]);
        let t = self.code.op("FMA.f32", &[dx, ddx, raw], &[]);
        let r = self.code.op("FMA.f32", &[dy, ddy, t], &[]);
        Ok(plain(
            &mut self.code,
            VSrc {
                abs: v.abs,
                neg: v.neg,
                ..r
            },
        ))
    }
}
