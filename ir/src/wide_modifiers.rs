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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tgsi;

    #[test]
    fn programs_without_wide_modifiers_are_not_copied() {
        let p = tgsi::parse(
            "VERT\nDCL IN[0]\nDCL OUT[0]\nU64ADD OUT[0], IN[0], IN[0]\nADD OUT[0].x, -IN[0], IN[0]\nEND\n",
            "t",
        )
        .unwrap();
        assert!(expand_source_modifiers(&p).is_none());
    }

    #[test]
    fn each_modified_source_gets_its_own_scratch_temporary() {
        let src = "VERT\nDCL IN[0]\nDCL OUT[0]\nDCL TEMP[0..1]\nCAL :4\nEND\nNOP\nNOP\nBGNSUB\n\
                   U64ADD OUT[0].xy, -|IN[0].zwzw|, -TEMP[1]\nRET\nENDSUB\nEND\n";
        let p = tgsi::parse(src, "t").unwrap();
        let q = expand_source_modifiers(&p).expect("rewritten");
        let text = tgsi::print(&q);
        // TEMP[2] for source 0 (abs then negate), TEMP[3] for source 1 (negate); the CAL
        // still reaches the BGNSUB, now three instructions later.
        for line in [
            "DCL TEMP[2..3]",
            "CAL :4",
            "I64ABS TEMP[2], IN[0].zwzw",
            "I64NEG TEMP[2], TEMP[2]",
            "I64NEG TEMP[3], TEMP[1]",
            "U64ADD OUT[0].xy, TEMP[2], TEMP[3]",
        ] {
            assert!(text.contains(line), "{line} missing in\n{text}");
        }
        assert!(!has_wide_modifiers(&q));
        // Inserted instructions report the position of the instruction they serve.
        let at = |i: usize| q.source_map.instruction(i).map(|p| p.line);
        let u64add = q
            .instructions
            .iter()
            .position(|i| i.opcode == Opcode::U64ADD)
            .unwrap();
        assert_eq!(at(u64add - 1), at(u64add));
        assert_eq!(at(u64add), Some(10));
    }

    #[test]
    fn double_sources_use_dabs_and_dneg() {
        let p = tgsi::parse(
            "VERT\nDCL IN[0]\nDCL OUT[0]\nDADD OUT[0], IN[0], -IN[0]\nDMUL OUT[0], |IN[0]|, IN[0]\nEND\n",
            "t",
        )
        .unwrap();
        let text = tgsi::print(&expand_source_modifiers(&p).unwrap());
        for line in [
            "DNEG TEMP[1], IN[0]",
            "DADD OUT[0], IN[0], TEMP[1]",
            "DABS TEMP[0], IN[0]",
            "DMUL OUT[0], TEMP[0], IN[0]",
        ] {
            assert!(text.contains(line), "{line} missing in\n{text}");
        }
    }
}
