//! `nv-cc-unsaturated` as a rewrite of the IR shape the NV lowering gives a `.SAT.CC`
//! instruction (frontends/nv/src/lower_cc.rs `with_cc`): the result is computed, clamped,
//! into a hidden temporary `t`, and the float flags are derived from `t` by
//! `FSNE n, t, t` (NaN), `FSLT`/`FSEQ` against zero. The bug sets the flags from the value
//! before clamping, as a compiler that folds the clamp into the store but takes the flags
//! from the ALU result would.
//!
//! Working on that shape (rather than re-lowering the NV assembly) keeps the fault in the
//! probed and reduced copies of a lowered program, which no longer carry their NV origin,
//! so findings are located and reduced like any other.

use shaderdiff_model::edit::{rebuild, Edit};
use shaderdiff_model::{Declaration, File, Instruction, Opcode, Program, Register, Saturate};

/// Whether `insn` writes temporary `t` (any channel, direct or indirect).
fn writes_temp(insn: &Instruction, t: i32) -> bool {
    insn.dst.iter().any(|d| {
        d.reg.file == File::Temp && (d.reg.index.indirect.is_some() || d.reg.index.value == t)
    })
}

/// Whether `insn` is a float flag test reading `t` (`FSNE`, `FSLT`, `FSEQ`).
fn flag_test_of(insn: &Instruction, t: i32) -> bool {
    matches!(insn.opcode, Opcode::FSNE | Opcode::FSLT | Opcode::FSEQ)
        && insn.src.iter().any(|s| {
            s.reg.file == File::Temp && s.reg.index.value == t && s.reg.index.indirect.is_none()
        })
}

/// The saturated writers whose flags the lowering computes: instruction indices `w` and
/// the flag tests reading their temporary before it is written again, when those include
/// the NaN test `FSNE n, t, t`.
fn sites(p: &Program) -> Vec<(usize, Vec<usize>)> {
    let mut out = Vec::new();
    for (w, insn) in p.instructions.iter().enumerate() {
        let [d] = insn.dst.as_slice() else { continue };
        if insn.saturate == Saturate::None
            || d.reg.file != File::Temp
            || d.reg.index.indirect.is_some()
            || d.reg.dimension.is_some()
        {
            continue;
        }
        let t = d.reg.index.value;
        let mut tests = Vec::new();
        let mut nan_test = false;
        for (k, later) in p.instructions.iter().enumerate().skip(w + 1) {
            if flag_test_of(later, t) {
                tests.push(k);
                nan_test |= later.opcode == Opcode::FSNE
                    && later.src.len() == 2
                    && later.src.iter().all(|s| s.reg == d.reg);
            }
            if writes_temp(later, t) {
                break;
            }
        }
        if nan_test {
            out.push((w, tests));
        }
    }
    out
}

/// `program` with the flags of every saturated `.CC` result taken from the unclamped value:
/// before the writer, `MOV u, t` and the writer's copy without saturation into `u` (a fresh
/// temporary), and the flag tests read `u`. `None` when no instruction has that shape.
pub(crate) fn cc_from_unsaturated(program: &Program) -> Option<Program> {
    let sites = sites(program);
    if sites.is_empty() {
        return None;
    }
    let fresh = program
        .decls(File::Temp)
        .map(|d| d.last as i32 + 1)
        .chain(program.instructions.iter().flat_map(|i| {
            i.dst
                .iter()
                .map(|d| d.reg)
                .chain(i.src.iter().map(|s| s.reg))
                .filter(|r| r.file == File::Temp)
                .map(|r| r.index.value + 1)
        }))
        .max()
        .unwrap_or(0)
        .max(0);
    let mut p = program.clone();
    let used = sites.len() as i32;
    for (n, (w, tests)) in sites.iter().enumerate() {
        let u = Register::new(File::Temp, fresh + n as i32);
        let t = p.instructions[*w].dst[0].reg;
        for &k in tests {
            for s in &mut p.instructions[k].src {
                if s.reg == t {
                    s.reg = u;
                }
            }
        }
    }
    let mut edits = Vec::with_capacity(program.instructions.len() + 2 * sites.len());
    let first_site: std::collections::HashMap<usize, i32> = sites
        .iter()
        .enumerate()
        .map(|(n, (w, _))| (*w, fresh + n as i32))
        .collect();
    for (i, insn) in p.instructions.iter().enumerate() {
        if let Some(&u) = first_site.get(&i) {
            let u = Register::new(File::Temp, u);
            let t = insn.dst[0].reg;
            let copy = Instruction::new(
                Opcode::MOV,
                vec![shaderdiff_model::Dst {
                    reg: u,
                    writemask: 0xF,
                }],
                vec![shaderdiff_model::Src::new(t)],
            );
            edits.push(Edit {
                origin: None,
                pos_from: Some(i),
                insn: copy,
            });
            let mut unclamped = insn.clone();
            unclamped.saturate = Saturate::None;
            unclamped.dst[0].reg = u;
            edits.push(Edit {
                origin: None,
                pos_from: Some(i),
                insn: unclamped,
            });
        }
        edits.push(Edit::kept(i, insn.clone()));
    }
    let mut out = rebuild(&p, edits);
    out.declarations.push(Declaration::new(
        File::Temp,
        fresh as u32,
        (fresh + used - 1) as u32,
    ));
    Some(out)
}
