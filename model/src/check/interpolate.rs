//! INTERP_CENTROID, INTERP_SAMPLE and INTERP_OFFSET as the pre-run checks decode them
//! (tgsi.rst "Interpolation ISA").

use crate::{File, Interpolation, Opcode, Pos, Program};

use super::decode::{InterpAt, Kind};
use super::ExecError;

/// The decoded kind of INTERP_* instruction `i`. Errors: [`ExecError::InvalidProgram`]
/// when the first source is not an `IN` register (tgsi.rst "Interpolation ISA"),
/// [`ExecError::Unsupported`] when it is indirectly addressed.
pub fn classify(program: &Program, i: usize, pos: Option<Pos>) -> Result<Kind, ExecError> {
    let insn = &program.instructions[i];
    let op = insn.opcode;
    let at = match op {
        Opcode::INTERP_CENTROID => InterpAt::Centroid,
        Opcode::INTERP_SAMPLE => InterpAt::Sample,
        _ => InterpAt::Offset,
    };
    let Some(s) = insn.src.first() else {
        return Err(ExecError::InvalidProgram {
            pos,
            message: format!("{op} needs a source"),
        });
    };
    if s.reg.file != File::Input {
        return Err(ExecError::InvalidProgram {
            pos,
            message: format!(
                "{op}: the first source must be an IN register (tgsi.rst \"Interpolation ISA\"), \
                 found {}",
                s.reg.file
            ),
        });
    }
    if s.reg.is_indirect() || s.reg.dimension.is_some() {
        return Err(ExecError::Unsupported {
            opcode: op,
            pos,
            reason: "interpolation of an indirectly addressed input is not modelled".into(),
        });
    }
    let index = s.reg.index.value as i64;
    let flat = program.decls(File::Input).any(|d| {
        (d.first as i64..=d.last as i64).contains(&index)
            && d.interpolation == Some(Interpolation::Constant)
    });
    Ok(Kind::Interp { at, flat })
}
