//! Choosing the first divergence among the diverging probes of a program.
//!
//! Probes of [`ProbeMode::Last`](crate::probe::ProbeMode::Last) see the last value of each
//! instruction, so in a loop a miscompiled instruction's wrong value reaches instructions
//! that come *before* it in program order (the next iteration reads it), and the lowest
//! diverging instruction is often a consequence. Probes of
//! [`ProbeMode::First`](crate::probe::ProbeMode::First) see each instruction's first
//! execution, which in structured code happens in program order (subroutines where first
//! called); they miss a fault that only bites in a later iteration. [`pick`] takes every
//! diverging first-execution probe and every diverging last-value probe that is a *root*:
//! no other diverging instruction writes a register it reads, and it is not inside the body
//! of another diverging block (for a block's entry count: nor of a loop whose count
//! diverges). The earliest of those in static execution order wins.

use shaderdiff_model::{Opcode, Program, Register, Structure, NO_PARTNER};

use crate::probe::{Probe, ProbeKind};

/// A diverging probe and the comparator's type name of its first mismatching channel.
pub type Hit = (Probe, String);

/// The first divergence among `first` (diverging probes of the first-execution
/// instrumentation) and `last` (of the last-value instrumentation), by `rank` (static
/// execution order, one entry per instruction of `program`). When no candidate qualifies
/// (every last-value divergence depends on another, as in a cycle of loop-carried
/// registers), the earliest last-value divergence. `None` when both are empty.
pub fn pick(program: &Program, rank: &[usize], first: &[Hit], last: &[Hit]) -> Option<Hit> {
    let order = |h: &&Hit| rank.get(h.0.instruction).copied().unwrap_or(usize::MAX);
    let st = Structure::analyse(program).ok();
    let roots: Vec<&Hit> = match &st {
        Some(st) => last
            .iter()
            .filter(|h| {
                is_root(program, st, h, last) && !loop_consequence(program, st, h, first, last)
            })
            .collect(),
        None => last.iter().collect(),
    };
    let firsts: Vec<&Hit> = match &st {
        Some(st) => first
            .iter()
            .filter(|h| !ran_on_one_side(program, st, h, last))
            .collect(),
        None => first.iter().collect(),
    };
    let firsts = if firsts.is_empty() && roots.is_empty() {
        first.iter().collect()
    } else {
        firsts
    };
    firsts
        .into_iter()
        .chain(roots)
        .min_by_key(order)
        .or_else(|| last.iter().min_by_key(order))
        .cloned()
}

/// Whether first-execution probe `h` (a result, or an IF/UIF decision) lies in the body of
/// an IF/ELSE/CASE/DEFAULT whose entry count diverges: its first execution may have happened on one engine only,
/// after (in time) the divergence that changed the count, however early it comes in static
/// order. (A SWITCH's CASE body entered in a later loop iteration because a value diverged
/// at the end of the previous one is the typical case.)
fn ran_on_one_side(p: &Program, st: &Structure, h: &Hit, last: &[Hit]) -> bool {
    let i = h.0.instruction;
    last.iter().any(|o| {
        let b = o.0.instruction;
        o.0.kind == ProbeKind::Block
            && b != i
            && !matches!(p.instructions[b].opcode, Opcode::BGNLOOP | Opcode::BGNSUB)
            && in_body(p, st, b, i)
            && !feeds(p, i, &reads(p, st, b, ProbeKind::Block))
    })
}

/// Whether a destination of instruction `i` can reach one of `regs` through the program's
/// data flow (any order: loops carry values backwards): an instruction whose wrong result
/// decides how often its own body runs is a cause, not a consequence.
fn feeds(p: &Program, i: usize, regs: &[Register]) -> bool {
    let mut want: Vec<Register> = regs.to_vec();
    let mut changed = true;
    while changed {
        changed = false;
        for insn in &p.instructions {
            let writes = insn
                .dst
                .iter()
                .any(|d| want.iter().any(|r| aliases(r, &d.reg)));
            if !writes {
                continue;
            }
            for s in &insn.src {
                if !want.contains(&s.reg) {
                    want.push(s.reg);
                    changed = true;
                }
            }
        }
    }
    p.instructions[i]
        .dst
        .iter()
        .any(|d| want.iter().any(|r| aliases(r, &d.reg)))
}

/// [`body`], and for a CASE/DEFAULT (whose body the printer indents like the label) the
/// instructions after it up to the next label or ENDSWITCH of its SWITCH.
fn in_body(p: &Program, st: &Structure, o: usize, k: usize) -> bool {
    use Opcode::*;
    if !matches!(p.instructions[o].opcode, CASE | DEFAULT) {
        return body(st, o, k);
    }
    let d = st.depth[o];
    k > o
        && (o + 1..=k).all(|m| {
            let dm = st.depth.get(m).copied().unwrap_or(0);
            dm > d || (dm == d && !matches!(p.instructions[m].opcode, CASE | DEFAULT | ENDSWITCH))
        })
}

/// Whether last-value result probe `h` lies in the body of a loop whose trip count
/// diverges while a first-execution probe inside that loop diverges too: the loop ran a
/// different number of times because of that divergence, so `h`'s last value (a loop
/// counter, say) is a consequence even when nothing else it reads diverges.
fn loop_consequence(p: &Program, st: &Structure, h: &Hit, first: &[Hit], last: &[Hit]) -> bool {
    let i = h.0.instruction;
    h.0.kind == ProbeKind::Result
        && last.iter().any(|o| {
            let b = o.0.instruction;
            o.0.kind == ProbeKind::Block
                && p.instructions[b].opcode == Opcode::BGNLOOP
                && body(st, b, i)
                && first
                    .iter()
                    .any(|f| f.0.instruction != i && body(st, b, f.0.instruction))
        })
}

/// Whether last-value probe `h` is a root among the diverging `last` (module docs).
fn is_root(p: &Program, st: &Structure, h: &Hit, last: &[Hit]) -> bool {
    let i = h.0.instruction;
    let op = p.instructions[i].opcode;
    if h.0.kind == ProbeKind::Block && op == Opcode::BGNSUB {
        // How often a subroutine runs follows from its call sites' blocks.
        return false;
    }
    // Inside an IF/ELSE/CASE body whose entries diverge, a last value differs because the
    // body ran a different number of times. (Not loop or subroutine bodies: the faulty
    // instruction itself often decides how often they run.)
    let inside = last.iter().any(|o| {
        let b = o.0.instruction;
        o.0.kind == ProbeKind::Block
            && b != i
            && !matches!(p.instructions[b].opcode, Opcode::BGNLOOP | Opcode::BGNSUB)
            && in_body(p, st, b, i)
    });
    if inside {
        return false;
    }
    // A block inside a loop that ran a different number of times is entered a different
    // number of times for that reason alone (a wrong decision of its own shows in its
    // first-execution Decision probe instead).
    let in_diverging_loop = h.0.kind == ProbeKind::Block
        && last.iter().any(|o| {
            let b = o.0.instruction;
            o.0.kind == ProbeKind::Block
                && b != i
                && p.instructions[b].opcode == Opcode::BGNLOOP
                && body(st, b, i)
        });
    if in_diverging_loop {
        return false;
    }
    let reads = reads(p, st, i, h.0.kind);
    !last.iter().any(|w| {
        let j = w.0.instruction;
        w.0.kind == ProbeKind::Result
            && j != i
            && p.instructions[j]
                .dst
                .iter()
                .any(|d| reads.iter().any(|r| aliases(r, &d.reg)))
    })
}

/// Whether instruction `k` lies in the body opened by instruction `o` (deeper nesting,
/// before the nesting returns to `o`'s level).
fn body(st: &Structure, o: usize, k: usize) -> bool {
    k > o && (o + 1..=k).all(|m| st.depth.get(m).copied().unwrap_or(0) > st.depth[o])
}

/// Registers whose values decide probe `kind` of instruction `i`: a result's sources; an
/// IF/UIF's (or its ELSE's) condition; a SWITCH's selector for CASE/DEFAULT; for BGNLOOP
/// the conditions of every IF/UIF and SWITCH in its body. Address registers of
/// indirect operands count as read.
fn reads(p: &Program, st: &Structure, i: usize, kind: ProbeKind) -> Vec<Register> {
    let op = p.instructions[i].opcode;
    let partner = |k: usize| (st.partner[k] != NO_PARTNER).then(|| st.partner[k] as usize);
    let deciders: Vec<usize> = match (kind, op) {
        (ProbeKind::Block, Opcode::ELSE) => (0..i)
            .rev()
            .find(|&k| partner(k) == Some(i))
            .into_iter()
            .collect(),
        (ProbeKind::Block, Opcode::CASE | Opcode::DEFAULT) => partner(i).into_iter().collect(),
        (ProbeKind::Block, Opcode::BGNLOOP) => (i + 1..partner(i).unwrap_or(i))
            .filter(|&k| {
                use Opcode::*;
                matches!(p.instructions[k].opcode, IF | UIF | SWITCH)
            })
            .collect(),
        _ => vec![i],
    };
    let mut regs = Vec::new();
    for k in deciders {
        for s in &p.instructions[k].src {
            regs.push(s.reg);
            if let Some(a) = s.reg.index.indirect {
                regs.push(Register::new(a.file, a.index));
            }
        }
    }
    regs
}

/// Whether reading `r` may observe a write to `w`.
fn aliases(r: &Register, w: &Register) -> bool {
    r.file == w.file
        && (r.index.indirect.is_some()
            || w.index.indirect.is_some()
            || r.index.value == w.index.value)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::edit::static_rank;
    use shaderdiff_tgsi as tgsi;

    fn hit(instruction: usize, kind: ProbeKind) -> Hit {
        let probe = Probe {
            instruction,
            register: 0,
            mask: 1,
            kind,
        };
        (probe, "f32".into())
    }

    /// The writemask-ignored-w finding of `fuzz --seed 1`: LRP (7) loses .w, the next
    /// iteration's UADD (6) reads it. Last-value probes diverge at both; UADD reads
    /// TEMP[0], which the diverging LRP writes, so LRP is the first divergence.
    const LOOP: &str = "COMP\nDCL OUT[0], GENERIC[0]\nDCL TEMP[0]\nDCL TEMP[10]\n\
        IMM[0] INT32 {0, 1, 0, 2}\nIMM[1] UINT32 {0, 0, 0, 0}\n\
        IMM[2] FLT32 {0.0, 0.0, 0.0, 1.0}\n\
        BGNLOOP\nUADD TEMP[10].x, TEMP[10], IMM[0].yyyy\n\
        USLT TEMP[10].y, IMM[0].wwww, TEMP[10].xxxx\nUIF TEMP[10].yyyy\nBRK\nENDIF\n\
        UADD OUT[0].w, IMM[1], TEMP[0]\nLRP TEMP[0], IMM[2], IMM[2], IMM[2]\nENDLOOP\nEND\n";

    #[test]
    fn a_loop_carried_consequence_is_not_the_first_divergence() {
        let p = tgsi::parse(LOOP, "t").unwrap();
        let rank = static_rank(&p);
        let last = [hit(6, ProbeKind::Result), hit(7, ProbeKind::Result)];
        let got = pick(&p, &rank, &[], &last).unwrap();
        assert_eq!(got.0.instruction, 7);
        // A first-execution divergence earlier in order wins over a later root.
        let first = [hit(1, ProbeKind::Result)];
        assert_eq!(pick(&p, &rank, &first, &last).unwrap().0.instruction, 1);
    }

    #[test]
    fn a_loop_count_decided_by_a_diverging_condition_is_not_a_root() {
        let p = tgsi::parse(LOOP, "t").unwrap();
        let rank = static_rank(&p);
        // The loop ran a different number of times because USLT (2), which the UIF in
        // the body reads, diverged at its first execution. The loop's count reads what
        // USLT writes, and UADD (1) reads it too: neither is a root.
        let last = [
            hit(0, ProbeKind::Block),
            hit(1, ProbeKind::Result),
            hit(2, ProbeKind::Result),
        ];
        let first = [hit(2, ProbeKind::Result)];
        assert_eq!(pick(&p, &rank, &first, &last).unwrap().0.instruction, 2);
        // Without a first-execution divergence the registers form a cycle: the earliest.
        assert_eq!(pick(&p, &rank, &[], &last).unwrap().0.instruction, 0);
    }

    #[test]
    fn results_inside_a_diverging_if_body_are_consequences() {
        let src = "VERT\nDCL IN[0]\nDCL OUT[0]\nDCL TEMP[0..1]\n\
            IMM[0] FLT32 {1.0, 0.0, 0.0, 0.0}\n\
            IF IN[0].xxxx\nADD TEMP[0], IN[0], IMM[0]\nENDIF\nMUL TEMP[1], IN[0], IN[0]\n\
            MOV OUT[0], TEMP[1]\nEND\n";
        let p = tgsi::parse(src, "t").unwrap();
        let rank = static_rank(&p);
        // The IF decided wrongly (its block probe diverges): ADD (1) differs only because
        // its body ran on one engine; MUL (3) after the ENDIF diverges on its own.
        let st = Structure::analyse(&p).unwrap();
        let last = [
            hit(0, ProbeKind::Block),
            hit(1, ProbeKind::Result),
            hit(3, ProbeKind::Result),
        ];
        assert!(is_root(&p, &st, &last[0], &last));
        assert!(!is_root(&p, &st, &last[1], &last));
        assert!(is_root(&p, &st, &last[2], &last));
        assert_eq!(pick(&p, &rank, &[], &last).unwrap().0.instruction, 0);
    }

    /// The shift-count-unmasked finding of `fuzz --seed 1` (generator 0.2.0), reduced: USHR
    /// (8) by 0xffffffff gives 1 instead of 0, so the BRK at 10 is not taken and the loop
    /// runs longer; the empty UIF (6) earlier in the loop is then entered more often. Its
    /// count is a consequence of the loop's, not the first divergence.
    #[test]
    fn blocks_inside_a_loop_with_a_diverging_count_are_consequences() {
        let src = "FRAG\nDCL IN[3], GENERIC[35], CONSTANT\nDCL OUT[1], COLOR[1]\nDCL TEMP[0]\n\
            DCL TEMP[8]\nIMM[0] INT32 {0, 1, 2, 0}\nIMM[1] UINT32 {1, 0, 0, 0}\n\
            IMM[2] UINT32 {4294967295, 0, 0, 0}\n\
            BGNLOOP\nUADD TEMP[8].x, TEMP[8], IMM[0].yyyy\nUSLT TEMP[8].y, IMM[0].zzzz, TEMP[8].xxxx\n\
            UIF TEMP[8].yyyy\nBRK\nENDIF\nUIF IMM[1]\nENDIF\nUSHR TEMP[0].x, IN[3], IMM[2]\n\
            UIF TEMP[0]\nBRK\nENDIF\nENDLOOP\nMOV OUT[1].x, TEMP[0]\nEND\n";
        let p = tgsi::parse(src, "t").unwrap();
        let rank = static_rank(&p);
        let st = Structure::analyse(&p).unwrap();
        let last = [
            hit(0, ProbeKind::Block),
            hit(6, ProbeKind::Block),
            hit(8, ProbeKind::Result),
        ];
        let first = [hit(8, ProbeKind::Result)];
        assert!(!is_root(&p, &st, &last[1], &last));
        assert_eq!(pick(&p, &rank, &first, &last).unwrap().0.instruction, 8);
    }

    /// The if-nan-false finding of `fuzz --seed 3` (generator 0.2.0), reduced to 14
    /// instructions before this rule: the IF (7) on a NaN decides wrongly on its first
    /// encounter, so the ELSE's BRK ends the loop one iteration early and the loop counter
    /// UADD (1) ends with a different last value. UADD reads only itself, but its loop's
    /// count diverges with the IF's decision inside it: a consequence. ISSG (10) in the
    /// ELSE body ran on one engine only (the ELSE's count diverges): a consequence too.
    #[test]
    fn a_loop_counter_of_a_loop_cut_short_is_a_consequence() {
        let src = "VERT
DCL OUT[0], GENERIC[0]
DCL TEMP[1..2]
DCL TEMP[7]
            IMM[0] INT32 {0, 1, 0, 0}
IMM[1] FLT32 {1.0, 0.0, 0.0, 0.0}
IMM[2] INT32 {0, 0, 1, 0}
            IMM[3] INT32 {0, 0, 0, 0}
IMM[4] FLT32 {0.0, 0.0, 0.0, nan}
            IMM[5] FLT32 {0.0, 0.0, 0.0, 0.0}
IMM[6] FLT32 {0.0, 0.0, 1.0, 0.0}
            BGNLOOP
UADD TEMP[7].x, TEMP[7], IMM[0].yyyy
UIF TEMP[1]
BRK
ENDIF
            TRUNC TEMP[1].x, IMM[1]
ISHR TEMP[2].z, IMM[2], IMM[3]
IF IMM[4].wwww
            CMP OUT[0].z, IMM[5], IMM[5], IMM[6]
ELSE
ISSG TEMP[1].z, TEMP[2]
BRK
ENDIF
            ENDLOOP
END
";
        let p = tgsi::parse(src, "t").unwrap();
        let rank = static_rank(&p);
        let last = [
            hit(0, ProbeKind::Block),
            hit(1, ProbeKind::Result),
            hit(7, ProbeKind::Block),
            hit(9, ProbeKind::Block),
            hit(10, ProbeKind::Result),
        ];
        let first = [
            hit(7, ProbeKind::Decision),
            hit(8, ProbeKind::Result),
            hit(10, ProbeKind::Result),
        ];
        let got = pick(&p, &rank, &first, &last).unwrap();
        assert_eq!((got.0.instruction, got.0.kind), (7, ProbeKind::Decision));
    }

    /// The writemask-ignored-w finding of `fuzz --seed 3`, reduced to 24 instructions
    /// before this rule (its nested loops cut here): FMA (9) loses its .w at its first
    /// execution; DP4 (4) reads it in the next iteration, the AND/SWITCH then enters the
    /// CASE (6) whose UCMP (7) had not run before on one engine. UCMP's first-execution probe
    /// diverges and comes first in static order, but it ran on one side only.
    #[test]
    fn a_case_body_entered_later_is_a_consequence() {
        let src = "COMP
DCL TEMP[0..1]
DCL IN[1]
DCL OUT[1]
IMM[0] INT32 {0, 1, 2, 1}
            IMM[1] FLT32 {0.0, 0.0, 0.0, -4.0}
            BGNLOOP
AND TEMP[0].x, TEMP[1], IMM[0].wwww
SWITCH TEMP[0]
DEFAULT
            DP4 TEMP[1].x, IMM[1], TEMP[0]
BRK
CASE IMM[0].yyyy
UCMP OUT[1], IMM[1], IMM[1], IN[1]
            ENDSWITCH
FMA TEMP[0], IMM[1].xxxx, IMM[1], IMM[1]
ENDLOOP
END
";
        let p = tgsi::parse(src, "t").unwrap();
        assert_eq!(p.instructions[7].opcode, Opcode::UCMP);
        assert_eq!(p.instructions[9].opcode, Opcode::FMA);
        let rank = static_rank(&p);
        let last = [
            hit(1, ProbeKind::Result),
            hit(4, ProbeKind::Result),
            hit(6, ProbeKind::Block),
            hit(7, ProbeKind::Result),
            hit(9, ProbeKind::Result),
        ];
        let first = [hit(7, ProbeKind::Result), hit(9, ProbeKind::Result)];
        assert_eq!(pick(&p, &rank, &first, &last).unwrap().0.instruction, 9);
    }

    /// The ucmp-swapped finding of `fuzz --seed 3`: UCMP (9) in a CASE body is the fault
    /// itself; its wrong TEMP[1] reaches the SWITCH selector through AND (6), so the
    /// CASE's diverging count is its consequence, not its cause.
    #[test]
    fn a_result_deciding_its_own_body_is_a_cause() {
        let src = "COMP\nDCL OUT[0], GENERIC[0]\nDCL TEMP[0..1]\nDCL TEMP[7]\nDCL IN[1]\n\
            IMM[0] INT32 {0, 1, 2, 1}\nIMM[1] FLT32 {0.0, 0.0, 0.0, 0.0}\n\
            BGNLOOP\nUADD TEMP[7].x, TEMP[7], IMM[0].yyyy\nUSLT TEMP[7].y, IMM[0].zzzz, TEMP[7].xxxx\n\
            UIF TEMP[7].yyyy\nBRK\nENDIF\nAND TEMP[0].x, TEMP[1], IMM[0].wwww\nSWITCH TEMP[0]\n\
            CASE IMM[0]\nUCMP TEMP[1].x, IMM[1], IMM[1], IN[1]\nENDSWITCH\nENDLOOP\n\
            MOV OUT[0].x, TEMP[1]\nEND\n";
        let p = tgsi::parse(src, "t").unwrap();
        assert_eq!(p.instructions[9].opcode, Opcode::UCMP);
        let rank = static_rank(&p);
        let last = [
            hit(6, ProbeKind::Result),
            hit(8, ProbeKind::Block),
            hit(9, ProbeKind::Result),
            hit(12, ProbeKind::Result),
        ];
        let first = [hit(9, ProbeKind::Result), hit(12, ProbeKind::Result)];
        assert_eq!(pick(&p, &rank, &first, &last).unwrap().0.instruction, 9);
    }

    #[test]
    fn a_cycle_falls_back_to_the_earliest_divergence() {
        let src = "VERT\nDCL OUT[0]\nDCL TEMP[0..1]\nIMM[0] FLT32 {1.0, 0.0, 0.0, 0.0}\n\
            BGNLOOP\nADD TEMP[0], TEMP[1], IMM[0]\nADD TEMP[1], TEMP[0], IMM[0]\nBRK\n\
            ENDLOOP\nMOV OUT[0], TEMP[1]\nEND\n";
        let p = tgsi::parse(src, "t").unwrap();
        let rank = static_rank(&p);
        let last = [hit(1, ProbeKind::Result), hit(2, ProbeKind::Result)];
        assert_eq!(pick(&p, &rank, &[], &last).unwrap().0.instruction, 1);
        assert!(pick(&p, &rank, &[], &[]).is_none());
    }
}
