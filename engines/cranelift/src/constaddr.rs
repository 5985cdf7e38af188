//! Indirect operands whose address is a compile-time constant, made direct.
//!
//! Every per-invocation register starts at zero for every invocation (TEMP and ADDR have no
//! inputs; `crate::lower` zeroes them per quad). An address register that no instruction
//! writes therefore holds 0 in every lane for the whole run, and an operand it addresses,
//! `TEMP[ADDR[0].x+3]`, names the same register in every invocation: `TEMP[3]` when that
//! register is in bounds (declared, inside the operand's `ARRAY(n)`; the rule of
//! `crate::lower::operand`). [`fold`] rewrites such operands as direct ones, so that
//! they cost one variable access instead of scalar code per lane, and a space addressed
//! only this way stays in variables instead of the scratch buffer (`crate::plan`).
//! Operands whose constant register is out of bounds keep their indirect form (read 0,
//! write nothing, as before).
// Numbers here come from user input (program text): no arithmetic may wrap or panic
// unnoticed.
#![warn(clippy::arithmetic_side_effects)]

use shaderdiff_model::check::shape::Shape;
use shaderdiff_model::{File, Index, Indirect, Program, Register};

use crate::plan::Plan;

/// `program` with every indirect operand whose address registers are never written and
/// whose register is then in bounds made direct; `None` when there is none.
pub(crate) fn fold(program: &Program, shape: &Shape) -> Option<Program> {
    let mut out: Option<Program> = None;
    for (i, insn) in program.instructions.iter().enumerate() {
        for k in 0..insn.src.len() {
            if let Some(r) = direct_form(program, shape, &insn.src[k].reg) {
                let p = out.get_or_insert_with(|| program.clone());
                p.instructions[i].src[k].reg = r;
            }
        }
        for k in 0..insn.dst.len() {
            if let Some(r) = direct_form(program, shape, &insn.dst[k].reg) {
                let p = out.get_or_insert_with(|| program.clone());
                p.instructions[i].dst[k].reg = r;
            }
        }
    }
    out
}

/// The files whose operands `crate::lower::operand` resolves (resources, samplers and the
/// like are left alone).
fn register_file(file: File) -> bool {
    matches!(
        file,
        File::Const
            | File::Input
            | File::Output
            | File::Temp
            | File::Address
            | File::Immediate
            | File::SystemValue
            | File::TempArray
            | File::ImmArray
    )
}

/// The value of address `a` when it is 0 in every invocation for the whole run: an ADDR or
/// TEMP register that exists and that no destination can name.
fn constant_zero(program: &Program, shape: &Shape, a: &Indirect) -> bool {
    if !matches!(a.file, File::Address | File::Temp) || a.component > 3 {
        return false;
    }
    let Some(s) = shape.space_of(a.file, false) else {
        return false;
    };
    let space = &shape.spaces()[s];
    if space.uniform || space.flat(0, i64::from(a.index)).is_none() {
        return false;
    }
    !program.instructions.iter().any(|insn| {
        insn.dst.iter().any(|d| {
            d.reg.file == a.file
                && (d.reg.is_indirect()
                    || d.reg.dimension.is_some()
                    || d.reg.index.value == a.index)
        })
    })
}

/// The direct register `reg` names in every invocation, when it is indirect, every address
/// it uses is constant zero, and the register it names is in bounds.
fn direct_form(program: &Program, shape: &Shape, reg: &Register) -> Option<Register> {
    if !reg.is_indirect() || !register_file(reg.file) {
        return None;
    }
    let constant = |ix: &Index| match &ix.indirect {
        None => true,
        Some(a) => constant_zero(program, shape, a),
    };
    if !constant(&reg.index) || !reg.dimension.as_ref().is_none_or(constant) {
        return None;
    }
    let s = shape.space_of(reg.file, reg.dimension.is_some())?;
    let space = &shape.spaces()[s];
    let dim = reg.dimension.map_or(0, |d| i64::from(d.value));
    let x = i64::from(reg.index.value);
    let flat = space.flat(dim, x)?;
    if !space.declared.get(flat).copied().unwrap_or(false) {
        return None;
    }
    if let Some((lo, hi)) = Plan::array_range(program, reg.file, reg.index.array_id) {
        if x < i64::from(lo) || x > i64::from(hi) {
            return None;
        }
    }
    Some(Register {
        file: reg.file,
        index: Index::direct(reg.index.value),
        dimension: reg.dimension.map(|d| Index::direct(d.value)),
    })
}
