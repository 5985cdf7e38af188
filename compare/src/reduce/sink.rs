//! Sinking: moves the instruction right after an ENDIF into one of the IF's bodies.
//!
//! A reduced program often keeps a construct only because a branch leaves it early: in
//! `IF c / ELSE / BRK / ENDIF / EMIT` inside a SWITCH, the EMIT after the ENDIF runs only
//! where the IF body was taken, so the SWITCH and the BRK cannot go. Moved into the IF
//! body (`IF c / EMIT / ELSE / BRK / ENDIF`), the EMIT shows the same wrong decision, and
//! the other passes then drop the ELSE branch and unwrap the SWITCH: `IF c / EMIT / ENDIF`.

use shaderdiff_model::{Opcode, Program, Structure, NO_PARTNER};

use super::{Ctx, State};
use crate::edit::rebuild;

/// Whether `op` opens, continues or closes a construct (not movable on its own).
fn structural(op: Opcode) -> bool {
    use Opcode::*;
    matches!(
        op,
        IF | UIF
            | ELSE
            | ENDIF
            | BGNLOOP
            | ENDLOOP
            | SWITCH
            | CASE
            | DEFAULT
            | ENDSWITCH
            | BGNSUB
            | ENDSUB
            | END
    )
}

/// `p` with instruction `from` moved to just before instruction `to` (`to < from`).
fn moved(p: &Program, from: usize, to: usize) -> Program {
    let mut order: Vec<usize> = (0..p.instructions.len()).filter(|&k| k != from).collect();
    let at = order.iter().position(|&k| k == to).unwrap_or(order.len());
    order.insert(at, from);
    rebuild(
        p,
        order
            .into_iter()
            .map(|k| (Some(k), p.instructions[k].clone()))
            .collect(),
    )
}

/// The candidates of the ENDIF at `e`: its follower moved to the end of the IF body, or to
/// the end of the ELSE body.
fn candidates(p: &Program, st: &Structure, e: usize) -> Vec<Program> {
    let next = e + 1;
    let Some(insn) = p.instructions.get(next) else {
        return Vec::new();
    };
    if p.instructions[e].opcode != Opcode::ENDIF || structural(insn.opcode) {
        return Vec::new();
    }
    let opener = st.partner[e];
    if opener == NO_PARTNER || opener as usize >= e {
        return Vec::new();
    }
    let middle = st.partner[opener as usize];
    let mut out = Vec::new();
    if middle != NO_PARTNER && (middle as usize) <= e {
        out.push(moved(p, next, middle as usize));
        if (middle as usize) < e {
            out.push(moved(p, next, e));
        }
    }
    out
}

/// Tries every sinking, keeping those that still show the divergence.
pub(crate) fn sink(ctx: &mut Ctx, st: &mut State) -> bool {
    let mut changed = false;
    let mut e = 0;
    while e < st.program.instructions.len() && !ctx.stopped() {
        let Ok(s) = Structure::analyse(&st.program) else {
            return changed;
        };
        for cand in candidates(&st.program, &s, e) {
            if ctx.try_program(st, cand) {
                changed = true;
                break;
            }
        }
        e += 1;
    }
    changed
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::edit::is_valid;
    use shaderdiff_tgsi as tgsi;

    #[test]
    fn the_follower_of_an_endif_moves_into_either_body() {
        let src = "GEOM\nPROPERTY GS_INPUT_PRIMITIVE TRIANGLES\n\
            PROPERTY GS_OUTPUT_PRIMITIVE POINTS\nPROPERTY GS_MAX_OUTPUT_VERTICES 6\n\
            IMM[0] INT32 {0, 0, 0, 0}\nIMM[1] FLT32 {1.0, 0.0, 0.0, 0.0}\n\
            SWITCH IMM[0]\nCASE IMM[0]\nIF IMM[1]\nELSE\nBRK\nENDIF\nEMIT IMM[0]\n\
            ENDSWITCH\nEND\n";
        let p = tgsi::parse(src, "t").unwrap();
        let st = Structure::analyse(&p).unwrap();
        let c = candidates(&p, &st, 5);
        assert_eq!(c.len(), 2);
        let ops =
            |p: &Program| -> Vec<Opcode> { p.instructions.iter().map(|i| i.opcode).collect() };
        use Opcode::*;
        assert_eq!(
            ops(&c[0]),
            [SWITCH, CASE, IF, EMIT, ELSE, BRK, ENDIF, ENDSWITCH, END]
        );
        assert_eq!(
            ops(&c[1]),
            [SWITCH, CASE, IF, ELSE, BRK, EMIT, ENDIF, ENDSWITCH, END]
        );
        assert!(c.iter().all(is_valid));
        // Not after a loop's end, nor a structural follower.
        assert!(candidates(&p, &st, 7).is_empty());
    }
}
