//! Cleanup: unused declarations, immediates, outputs and input values go; declared ranges
//! shrink to what is used.

use std::collections::BTreeSet;

use shaderdiff_model::{File, Program, Register};
use shaderdiff_oracles::{Inputs, RegKey};

use super::{Ctx, State};

/// Every register operand of `p`, with the address registers of indirect indices.
fn registers(p: &Program) -> Vec<Register> {
    let mut v = Vec::new();
    for insn in &p.instructions {
        for r in insn
            .dst
            .iter()
            .map(|d| d.reg)
            .chain(insn.src.iter().map(|s| s.reg))
        {
            v.push(r);
            for ix in [Some(r.index), r.dimension].into_iter().flatten() {
                if let Some(ind) = ix.indirect {
                    v.push(Register::new(ind.file, ind.index));
                }
            }
        }
        for t in &insn.tex_offsets {
            v.push(t.reg);
        }
    }
    v
}

/// `p` without unused declarations (files read or written only directly; a file named
/// indirectly anywhere keeps all its declarations), with ranges shrunk to their used part
/// (plain ranges only), and without unused immediates (references renumbered).
pub(crate) fn tidy(p: &Program) -> Program {
    let regs = registers(p);
    let mut q = p.clone();
    let indirect: BTreeSet<File> = regs
        .iter()
        .filter(|r| r.is_indirect())
        .map(|r| r.file)
        .collect();
    let used: BTreeSet<(File, i64)> = regs
        .iter()
        .filter(|r| r.dimension.is_none())
        .map(|r| (r.file, r.index.value as i64))
        .collect();
    let two_d: BTreeSet<File> = regs
        .iter()
        .filter(|r| r.dimension.is_some())
        .map(|r| r.file)
        .collect();
    let tidy_files = [
        File::Temp,
        File::Input,
        File::Output,
        File::Const,
        File::SystemValue,
        File::Address,
    ];
    q.declarations.retain_mut(|d| {
        if !tidy_files.contains(&d.file) || indirect.contains(&d.file) || two_d.contains(&d.file) {
            return true;
        }
        if d.dimension.is_some() {
            return true;
        }
        let hit: Vec<i64> = (d.first as i64..=d.last as i64)
            .filter(|i| used.contains(&(d.file, *i)))
            .collect();
        let (Some(&lo), Some(&hi)) = (hit.first(), hit.last()) else {
            return false;
        };
        if d.semantic.is_none() && d.values.is_empty() && d.array_id == 0 {
            d.first = lo as u32;
            d.last = hi as u32;
        }
        true
    });
    q.source_map.declarations.clear();
    // Immediates: keep the used ones, renumber direct references.
    if !indirect.contains(&File::Immediate) {
        let mut map = vec![None; q.immediates.len()];
        let mut kept = Vec::new();
        for (i, imm) in q.immediates.iter().enumerate() {
            if used.contains(&(File::Immediate, i as i64)) {
                map[i] = Some(kept.len() as i32);
                kept.push(*imm);
            }
        }
        q.immediates = kept;
        for insn in &mut q.instructions {
            for s in &mut insn.src {
                if s.reg.file == File::Immediate {
                    if let Some(Some(n)) = map.get(s.reg.index.value as usize) {
                        s.reg.index.value = *n;
                    }
                }
            }
        }
    }
    q
}

/// Whether `p` declares register `key`.
fn declares(p: &Program, key: &RegKey) -> bool {
    p.decls(key.file).any(|d| {
        let dim_ok = match (d.dimension, key.dimension) {
            (None, None | Some(0)) => true,
            (Some(shaderdiff_model::DeclDimension::Index(b)), Some(k)) => b == k,
            (Some(shaderdiff_model::DeclDimension::Index(0)), None) => true,
            _ => false,
        };
        dim_ok && d.contains(key.index as i64)
    })
}

/// `inputs` without values for registers (and texture units) `p` does not declare.
pub(crate) fn retain_declared(p: &Program, inputs: &Inputs) -> Inputs {
    let mut i = inputs.clone();
    i.registers.retain(|k, _| declares(p, k));
    i.constants.retain(|k, _| declares(p, k));
    i.textures.retain(|k, _| declares(p, k));
    i
}

/// Applies [`tidy`] and [`retain_declared`] when that keeps the divergence.
pub(crate) fn cleanup(ctx: &mut Ctx, st: &mut State) -> bool {
    let q = tidy(&st.program);
    let i = retain_declared(&q, &st.inputs);
    if q == st.program && i == st.inputs {
        return false;
    }
    ctx.try_state(st, q, i)
}

#[cfg(test)]
mod tests {
    use super::*;
    use shaderdiff_tgsi as tgsi;

    #[test]
    fn unused_declarations_and_immediates_go() {
        let src = "VERT\nDCL IN[0..2]\nDCL OUT[0]\nDCL OUT[1]\nDCL TEMP[0..9]\nDCL CONST[0..3]\n\
            IMM[0] FLT32 {1.0, 2.0, 0.0, 0.0}\nIMM[1] FLT32 {3.0, 2.0, 0.0, 0.0}\n\
            ADD TEMP[4], IN[1], IMM[1]\nMOV OUT[0], TEMP[4]\nEND\n";
        let p = tgsi::parse(src, "t").unwrap();
        let q = tidy(&p);
        assert!(crate::edit::is_valid(&q));
        let text = tgsi::print(&q);
        assert!(text.contains("DCL IN[1]\n"), "{text}");
        assert!(text.contains("DCL TEMP[4]\n"), "{text}");
        assert!(
            !text.contains("CONST") && !text.contains("OUT[1]"),
            "{text}"
        );
        assert!(text.contains("ADD TEMP[4], IN[1], IMM[0]"), "{text}");
        assert_eq!(q.immediates.len(), 1);
        assert_eq!(q.immediates[0].words[0], 3.0f32.to_bits());
        let mut inputs = Inputs {
            invocations: 1,
            ..Inputs::default()
        };
        inputs
            .registers
            .insert(RegKey::new(File::Input, 0), vec![[1; 4]]);
        inputs
            .registers
            .insert(RegKey::new(File::Input, 1), vec![[2; 4]]);
        inputs.constants.insert(RegKey::new(File::Const, 0), [3; 4]);
        let r = retain_declared(&q, &inputs);
        assert_eq!(r.registers.len(), 1);
        assert!(r.constants.is_empty());
    }
}
