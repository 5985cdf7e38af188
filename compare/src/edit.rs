//! Program surgery shared by probing ([`crate::probe`]) and reduction ([`crate::reduce`]):
//! rebuilding the instruction list while keeping CAL targets and source positions, removing
//! instructions, and the static "execution order" of instructions.

use shaderdiff_model::edit::Edit;
use shaderdiff_model::{Instruction, Opcode, Program, Structure, NO_PARTNER};

/// `p` with its instructions replaced by `new`: each entry is the instruction and the index
/// it had in `p` (`None` for an inserted one, which reports position `0:0`). See
/// [`shaderdiff_model::edit::rebuild`] for labels, positions and layout.
pub fn rebuild(p: &Program, new: Vec<(Option<usize>, Instruction)>) -> Program {
    let edits = new
        .into_iter()
        .map(|(origin, insn)| Edit {
            origin,
            pos_from: origin,
            insn,
        })
        .collect();
    shaderdiff_model::edit::rebuild(p, edits)
}

/// `p` without the instructions flagged in `remove` (one flag per instruction), and without
/// the CALs whose BGNSUB is removed.
pub fn remove(p: &Program, remove: &[bool]) -> Program {
    let gone = |i: usize| remove.get(i).copied().unwrap_or(false);
    let new = p
        .instructions
        .iter()
        .enumerate()
        .filter(|(i, insn)| {
            let dead_call =
                insn.opcode == Opcode::CAL && insn.label.is_some_and(|l| gone(l as usize));
            !gone(*i) && !dead_call
        })
        .map(|(i, insn)| (Some(i), insn.clone()))
        .collect();
    rebuild(p, new)
}

/// Whether `p` passes `validate`.
pub fn is_valid(p: &Program) -> bool {
    shaderdiff_model::validate::validate(p, "").is_ok()
}

/// Instruction indices in static execution order: the main program from instruction 0, with
/// each subroutine's body visited where it is first called (CAL), then every instruction
/// not reached that way, in program order. `rank[i]` is instruction `i`'s place.
pub fn static_rank(p: &Program) -> Vec<usize> {
    let n = p.instructions.len();
    let mut rank = vec![usize::MAX; n];
    let mut next = 0usize;
    let Ok(st) = Structure::analyse(p) else {
        return (0..n).collect();
    };
    // The main program ends at the first top-level BGNSUB.
    let main_end = st.subroutines.first().map_or(n, |s| s.begin as usize);
    let mut visited_sub = vec![false; n];
    // Iterative walk: a stack of (next index, end exclusive).
    let mut stack: Vec<(usize, usize)> = vec![(0, main_end)];
    while let Some((i, end)) = stack.pop() {
        if i >= end {
            continue;
        }
        stack.push((i + 1, end));
        if rank[i] == usize::MAX {
            rank[i] = next;
            next += 1;
        }
        let insn = &p.instructions[i];
        if insn.opcode == Opcode::CAL {
            if let Some(b) = insn.label.map(|l| l as usize) {
                if b < n && !visited_sub[b] && st.partner[b] != NO_PARTNER {
                    visited_sub[b] = true;
                    stack.push((b, st.partner[b] as usize + 1));
                }
            }
        }
    }
    for r in rank.iter_mut() {
        if *r == usize::MAX {
            *r = next;
            next += 1;
        }
    }
    rank
}

#[cfg(test)]
mod tests {
    use super::*;
    use shaderdiff_tgsi as tgsi;

    const SUBS: &str = "VERT\nDCL OUT[0]\nDCL TEMP[0]\nIMM[0] FLT32 {1.0, 2.0, 0.0, 0.0}\n\
        MOV TEMP[0], IMM[0]\nCAL :6\nADD OUT[0], TEMP[0], IMM[0]\nCAL :10\nEND\n\
        NOP\nBGNSUB\nMUL TEMP[0], TEMP[0], IMM[0]\nRET\nENDSUB\nBGNSUB\nNOP\nENDSUB\n";

    #[test]
    fn static_rank_visits_subroutines_at_their_first_call() {
        let src = "VERT\nDCL OUT[0]\nDCL TEMP[0]\nIMM[0] FLT32 {1.0, 2.0, 0.0, 0.0}\n\
            MOV TEMP[0], IMM[0]\nCAL :5\nADD OUT[0], TEMP[0], IMM[0]\nEND\nNOP\n\
            BGNSUB\nMUL TEMP[0], TEMP[0], IMM[0]\nRET\nENDSUB\n";
        let p = tgsi::parse(src, "t").unwrap();
        // MOV, CAL, BGNSUB, MUL, RET, ENDSUB, ADD, END, then the unreachable NOP.
        assert_eq!(static_rank(&p), vec![0, 1, 6, 7, 8, 2, 3, 4, 5]);
        let q = tgsi::parse(SUBS, "t").unwrap();
        assert!(is_valid(&q));
    }

    #[test]
    fn removing_a_subroutine_removes_its_calls_and_renumbers_the_others() {
        let p = tgsi::parse(SUBS, "t").unwrap();
        // Remove the first subroutine (BGNSUB at 6 .. ENDSUB at 9) and the NOP at 5.
        let mut r = vec![false; p.instructions.len()];
        r[5..=9].fill(true);
        let q = remove(&p, &r);
        assert!(is_valid(&q), "{}", tgsi::print(&q));
        let ops: Vec<Opcode> = q.instructions.iter().map(|i| i.opcode).collect();
        use Opcode::*;
        assert_eq!(ops, vec![MOV, ADD, CAL, END, BGNSUB, NOP, ENDSUB]);
        assert_eq!(q.instructions[2].label, Some(4));
    }
}
