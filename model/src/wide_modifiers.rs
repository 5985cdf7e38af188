//! Source modifiers on 64-bit operands, made explicit.
//!
//! tgsi.rst "Source Modifiers" defines absolute value and negation per source without
//! restricting them to 32-bit operands, and real programs use them on 64-bit ones: radeonsi's
//! shaders in corpus/tgsi write `U64ADD TEMP[1].xy, TEMP[0].xyxy, -TEMP[2].xyxy` for a 64-bit
//! subtraction. The resolution used by every engine: a modifier on a source whose opcodes.csv
//! type is 64-bit applies to the 64-bit value of each channel pair, with the source's own
//! type — binary64 absolute value / negation (sign bit of the high word; DABS and DNEG) for
//! `double`, two's-complement 64-bit absolute value / negation (wrapping at INT64_MIN; I64ABS
//! and I64NEG) for `int64` and `uint64`, exactly as 32-bit integer sources take integer
//! modifiers. Absolute value first, then negation, as for 32-bit sources.
//!
//! Mesa's tgsi_exec ignores modifiers on 64-bit operands (EXEC-NOTES.md §12 item 19); that
//! is a tgsi_exec deviation and is not copied.
//!
//! [`expand_source_modifiers`] rewrites each such source into explicit DABS/DNEG/I64ABS/
//! I64NEG instructions on scratch temporaries, so the engines evaluate those opcodes with the
//! semantics they already have, in one place.

use crate::edit::{rebuild, Edit};
use crate::{Declaration, Dst, File, Instruction, Opcode, Program, Register, ScalarType, Src};

/// The absolute-value and negation opcodes for a 64-bit source type, or `None` if `ty` is
/// not 64-bit.
fn modifier_opcodes(ty: ScalarType) -> Option<(Opcode, Opcode)> {
    match ty {
        ScalarType::F64 => Some((Opcode::DABS, Opcode::DNEG)),
        ScalarType::I64 | ScalarType::U64 => Some((Opcode::I64ABS, Opcode::I64NEG)),
        _ => None,
    }
}

/// The 64-bit source type of source `k` of `insn` if it carries a modifier.
fn modified_wide_source(insn: &Instruction, k: usize) -> Option<ScalarType> {
    let s = insn.src.get(k)?;
    if !(s.abs || s.neg) {
        return None;
    }
    let ty = insn.opcode.info().src_types.get(k).copied().flatten()?;
    ty.is_64bit().then_some(ty)
}

/// Whether any instruction of `p` has a source modifier on a 64-bit operand.
pub fn has_wide_modifiers(p: &Program) -> bool {
    p.instructions
        .iter()
        .any(|insn| (0..insn.src.len()).any(|k| modified_wide_source(insn, k).is_some()))
}

/// `p` with every modifier on a 64-bit source replaced by explicit instructions (module
/// docs), or `None` when `p` has none (the common case: no copy).
///
/// Each modified source `k` of instruction `i` becomes `TEMP[t + k]`, written just before
/// instruction `i` by `I64ABS`/`DABS` (absolute value) and/or `I64NEG`/`DNEG` (negation) of
/// the unmodified source with its swizzle and full writemask; `TEMP[t..t + 3]` is a new
/// declaration after every TEMP the program declares. The inserted instructions report
/// instruction `i`'s source position.
pub fn expand_source_modifiers(p: &Program) -> Option<Program> {
    if !has_wide_modifiers(p) {
        return None;
    }
    let first = p.decls(File::Temp).map(|d| d.last + 1).max().unwrap_or(0);
    let mut slots = 0u32;
    let mut edits = Vec::with_capacity(p.instructions.len() + 4);
    for (i, insn) in p.instructions.iter().enumerate() {
        let mut insn = insn.clone();
        for k in 0..insn.src.len() {
            let Some(ty) = modified_wide_source(&insn, k) else {
                continue;
            };
            let Some((abs_op, neg_op)) = modifier_opcodes(ty) else {
                continue;
            };
            let tmp = Register::new(File::Temp, (first + k as u32) as i32);
            slots = slots.max(k as u32 + 1);
            let src = &mut insn.src[k];
            let mut operand = Src {
                abs: false,
                neg: false,
                ..*src
            };
            let dst = Dst {
                reg: tmp,
                writemask: 0xF,
            };
            if src.abs {
                let op = Instruction::new(abs_op, vec![dst], vec![operand]);
                edits.push(Edit::inserted(Some(i), op));
                operand = Src::new(tmp);
            }
            if src.neg {
                let op = Instruction::new(neg_op, vec![dst], vec![operand]);
                edits.push(Edit::inserted(Some(i), op));
            }
            *src = Src::new(tmp);
        }
        edits.push(Edit::kept(i, insn));
    }
    let mut out = rebuild(p, edits);
    out.declarations
        .push(Declaration::new(File::Temp, first, first + slots - 1));
    out.source_map
        .declarations
        .extend(p.source_map.declarations.last().copied());
    Some(out)
}
