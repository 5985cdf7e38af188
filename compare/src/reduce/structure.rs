//! Structural passes: redirecting the first divergence to an output, ddmin over structural
//! units, unwrapping blocks.

use shaderdiff_model::{
    Declaration, Dst, File, Instruction, Opcode, Program, Register, Src, Structure, NO_PARTNER,
};

use super::{Ctx, State};
use crate::edit::{rebuild, remove};
use crate::signature::Located;

/// A structurally complete range of instructions `start..=end` (removing any union of
/// units keeps IF/ELSE/ENDIF, loops, switches and subroutines balanced).
pub(crate) type Unit = (usize, usize);

/// The instruction after the last one of the construct opened at `i` (IF/UIF → past ENDIF).
fn block_end(st: &Structure, p: &Program, i: usize) -> Option<usize> {
    let mut j = st.partner.get(i).copied().filter(|&x| x != NO_PARTNER)? as usize;
    if p.instructions[j].opcode == Opcode::ELSE {
        j = st.partner.get(j).copied().filter(|&x| x != NO_PARTNER)? as usize;
    }
    Some(j)
}

/// The last instruction of the CASE/DEFAULT body starting at `i` (before the next CASE,
/// DEFAULT or ENDSWITCH of the same SWITCH).
fn case_end(st: &Structure, p: &Program, i: usize) -> Option<usize> {
    let sw = st.partner[i];
    (i + 1..p.instructions.len())
        .find(|&j| {
            matches!(
                p.instructions[j].opcode,
                Opcode::CASE | Opcode::DEFAULT | Opcode::ENDSWITCH
            ) && st.partner[j] == sw
        })
        .map(|j| j - 1)
}

/// Every structural unit of `p`, in program (pre-)order. END is never a unit.
pub(crate) fn units(p: &Program) -> Vec<Unit> {
    let Ok(st) = Structure::analyse(p) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for (i, insn) in p.instructions.iter().enumerate() {
        use Opcode::*;
        match insn.opcode {
            END | ENDIF | ENDLOOP | ENDSWITCH | ENDSUB => {}
            IF | UIF | BGNLOOP | SWITCH | BGNSUB => {
                if let Some(e) = block_end(&st, p, i) {
                    out.push((i, e));
                }
            }
            ELSE => {
                if let Some(&e) = st.partner.get(i).filter(|&&x| x != NO_PARTNER) {
                    out.push((i, e as usize - 1));
                }
            }
            CASE | DEFAULT => {
                if let Some(e) = case_end(&st, p, i) {
                    out.push((i, e));
                }
            }
            _ => out.push((i, i)),
        }
    }
    out
}

fn mask_of(p: &Program, units: &[Unit]) -> Vec<bool> {
    let mut m = vec![false; p.instructions.len()];
    for &(a, b) in units {
        for x in m.iter_mut().take(b + 1).skip(a) {
            *x = true;
        }
    }
    m
}

/// ddmin-style removal: chunks of consecutive units (pre-order), halving the chunk size
/// down to single units; after a successful removal the units are recomputed and the same
/// position is tried again.
pub(crate) fn ddmin(ctx: &mut Ctx, st: &mut State) -> bool {
    let mut changed = false;
    let mut size = units(&st.program).len().div_ceil(2).max(1);
    loop {
        let mut us = units(&st.program);
        let mut i = 0;
        while i < us.len() && !ctx.stopped() {
            let chunk = &us[i..(i + size).min(us.len())];
            let cand = remove(&st.program, &mask_of(&st.program, chunk));
            if ctx.try_program(st, cand) {
                changed = true;
                us = units(&st.program);
            } else {
                i += size;
            }
        }
        if size == 1 || ctx.stopped() {
            return changed;
        }
        size = size.div_ceil(2);
        if size > us.len() {
            size = us.len().div_ceil(2).max(1);
        }
    }
}

/// `p` without the instructions in `gone` (and without CALs to removed subroutines).
fn without(p: &Program, gone: &[usize]) -> Program {
    let mut m = vec![false; p.instructions.len()];
    for &g in gone {
        if let Some(x) = m.get_mut(g) {
            *x = true;
        }
    }
    remove(p, &m)
}

/// BRK/CONT instructions in `a..=b` whose partner is `owner` (a BGNLOOP or SWITCH).
fn exits_of(st: &Structure, p: &Program, a: usize, b: usize, owner: usize) -> Vec<usize> {
    (a..=b)
        .filter(|&j| {
            matches!(p.instructions[j].opcode, Opcode::BRK | Opcode::CONT)
                && st.partner[j] as usize == owner
        })
        .collect()
}

/// Candidates that replace the block opened at `i` by one of its bodies.
fn unwrap_candidates(p: &Program, st: &Structure, i: usize) -> Vec<Program> {
    let n = p.instructions.len();
    let range = |a: usize, b: usize| (a..=b).collect::<Vec<usize>>();
    let mut out = Vec::new();
    match p.instructions[i].opcode {
        Opcode::IF | Opcode::UIF => {
            let Some(end) = block_end(st, p, i) else {
                return out;
            };
            let mid = st.partner[i] as usize;
            if mid != end {
                // Then-body: drop IF, ELSE..ENDIF. Else-body: drop IF..ELSE and ENDIF.
                let mut a = vec![i];
                a.extend(range(mid, end));
                out.push(without(p, &a));
                let mut b = range(i, mid);
                b.push(end);
                out.push(without(p, &b));
            } else {
                out.push(without(p, &[i, end]));
            }
        }
        Opcode::BGNLOOP => {
            let end = st.partner[i] as usize;
            let mut g = vec![i, end];
            g.extend(exits_of(st, p, i, end, i));
            out.push(without(p, &g));
        }
        Opcode::SWITCH => {
            let end = st.partner[i] as usize;
            let exits = exits_of(st, p, i, end, i);
            for c in i + 1..end {
                let op = p.instructions[c].opcode;
                if !matches!(op, Opcode::CASE | Opcode::DEFAULT) || st.partner[c] as usize != i {
                    continue;
                }
                let Some(ce) = case_end(st, p, c) else {
                    continue;
                };
                let mut g: Vec<usize> = (i..=end).filter(|&j| j <= c || j > ce).collect();
                g.extend(exits.iter().copied().filter(|&j| j > c && j <= ce));
                out.push(without(p, &g));
            }
        }
        Opcode::CAL => {
            let Some(b) = p.instructions[i].label.map(|l| l as usize) else {
                return out;
            };
            if b >= n || st.partner[b] == NO_PARTNER {
                return out;
            }
            let e = st.partner[b] as usize;
            let mut new: Vec<(Option<usize>, Instruction)> = Vec::with_capacity(n);
            for (j, insn) in p.instructions.iter().enumerate() {
                if j == i {
                    for k in b + 1..e {
                        if p.instructions[k].opcode != Opcode::RET {
                            new.push((Some(k), p.instructions[k].clone()));
                        }
                    }
                } else {
                    new.push((Some(j), insn.clone()));
                }
            }
            // Instructions of the body now appear twice; `rebuild` maps labels from the
            // last copy, which is the subroutine itself (CALs still point at it).
            out.push(rebuild(p, new));
        }
        _ => {}
    }
    out
}

/// Replaces blocks by their bodies, one at a time (module docs of [`super`]).
pub(crate) fn unwrap(ctx: &mut Ctx, st: &mut State) -> bool {
    let mut changed = false;
    let mut i = 0;
    while i < st.program.instructions.len() && !ctx.stopped() {
        let Ok(s) = Structure::analyse(&st.program) else {
            return changed;
        };
        let mut accepted = false;
        for cand in unwrap_candidates(&st.program, &s, i) {
            if ctx.try_program(st, cand) {
                accepted = true;
                changed = true;
                break;
            }
        }
        if !accepted {
            i += 1;
        }
    }
    changed
}

/// One past the highest 1-D `OUT` index `p` declares or names.
pub(crate) fn next_out(p: &Program) -> u32 {
    let decl = p.decls(File::Output).map(|d| d.last + 1).max().unwrap_or(0);
    let used = p
        .instructions
        .iter()
        .flat_map(|i| {
            i.dst
                .iter()
                .map(|d| d.reg)
                .chain(i.src.iter().map(|s| s.reg))
        })
        .filter(|r| r.file == File::Output)
        .map(|r| r.index.value.max(0) as u32 + 1)
        .max()
        .unwrap_or(0);
    decl.max(used)
}

/// Copies the first diverging instruction's result into a fresh output right after it, so
/// that ddmin can drop everything that only carried the divergence to the old outputs.
pub(crate) fn redirect(ctx: &mut Ctx, st: &mut State) -> bool {
    let (Some(i), Located::Probe) = (st.div.instruction, st.div.located) else {
        return false;
    };
    let insn = &st.program.instructions[i];
    let Some(d) = insn.dst.first().copied() else {
        return false;
    };
    if d.reg.file == File::Output || d.reg.dimension.is_some() {
        return false;
    }
    if st
        .program
        .decls(File::Output)
        .any(|d| d.dimension.is_some())
    {
        return false;
    }
    let k = next_out(&st.program);
    let mov = Instruction::new(
        Opcode::MOV,
        vec![Dst {
            reg: Register::new(File::Output, k as i32),
            writemask: d.writemask,
        }],
        vec![Src::new(d.reg)],
    );
    let mut new: Vec<(Option<usize>, Instruction)> = st
        .program
        .instructions
        .iter()
        .cloned()
        .enumerate()
        .map(|(j, x)| (Some(j), x))
        .collect();
    new.insert(i + 1, (None, mov));
    let mut cand = rebuild(&st.program, new);
    cand.declarations.push(Declaration::new(File::Output, k, k));
    cand.source_map.declarations.clear();
    ctx.try_program(st, cand)
}

#[cfg(test)]
mod tests {
    use super::*;
    use shaderdiff_tgsi as tgsi;

    #[test]
    fn units_cover_blocks_branches_and_cases() {
        let src = "VERT\nDCL IN[0]\nDCL OUT[0]\nDCL TEMP[0]\nIMM[0] INT32 {0, 1, 0, 0}\n\
            MOV TEMP[0], IN[0]\nUIF TEMP[0].xxxx\nMOV OUT[0], IN[0]\nELSE\nMOV OUT[0], TEMP[0]\n\
            ENDIF\nSWITCH TEMP[0].xxxx\nCASE IMM[0].xxxx\nMOV OUT[0], IN[0]\nBRK\n\
            DEFAULT\nBRK\nENDSWITCH\nEND\n";
        let p = tgsi::parse(src, "t").unwrap();
        let u = units(&p);
        assert_eq!(
            u,
            vec![
                (0, 0),
                (1, 5),
                (2, 2),
                (3, 4),
                (4, 4),
                (6, 12),
                (7, 9),
                (8, 8),
                (9, 9),
                (10, 11),
                (11, 11)
            ]
        );
        // Every union of units leaves a valid program.
        for (a, b) in &u {
            let q = remove(&p, &mask_of(&p, &[(*a, *b)]));
            assert!(crate::edit::is_valid(&q), "{}", tgsi::print(&q));
        }
        let st = Structure::analyse(&p).unwrap();
        for i in 0..p.instructions.len() {
            for q in unwrap_candidates(&p, &st, i) {
                assert!(crate::edit::is_valid(&q), "{}", tgsi::print(&q));
            }
        }
        assert_eq!(unwrap_candidates(&p, &st, 1).len(), 2);
        assert_eq!(unwrap_candidates(&p, &st, 6).len(), 2);
    }
}
