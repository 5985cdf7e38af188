//! Control-flow structure of a program, recomputed from the opcodes alone
//! (labels in the text are never trusted, TEXT-FORMAT.md §7.7).
//!
//! tgsi.rst "Control flow": IF/UIF … [ELSE …] ENDIF, BGNLOOP … ENDLOOP with BRK/CONT,
//! SWITCH … CASE/DEFAULT … ENDSWITCH with BRK, BGNSUB … ENDSUB entered by CAL.

use crate::opcode::Opcode;
use crate::program::Program;

/// Marker for "no partner" in [`Structure::partner`].
pub const NO_PARTNER: u32 = u32::MAX;

/// A subroutine body: `BGNSUB` at `begin`, `ENDSUB` at `end`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Subroutine {
    /// Index of BGNSUB.
    pub begin: u32,
    /// Index of ENDSUB.
    pub end: u32,
}

/// Matching of block instructions, by instruction index.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Structure {
    /// For each instruction:
    /// IF/UIF → its ELSE, or ENDIF if there is none; ELSE → ENDIF; ENDIF → its IF/UIF;
    /// BGNLOOP ↔ ENDLOOP; SWITCH ↔ ENDSWITCH; BGNSUB ↔ ENDSUB;
    /// CASE/DEFAULT → SWITCH; BRK → innermost BGNLOOP or SWITCH; CONT → innermost BGNLOOP;
    /// CAL → its BGNSUB; anything else → [`NO_PARTNER`].
    pub partner: Vec<u32>,
    /// Subroutines in program order.
    pub subroutines: Vec<Subroutine>,
    /// Nesting depth at each instruction as the printer indents it.
    pub depth: Vec<u32>,
}

/// A structural error at instruction `index`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StructureError {
    /// Offending instruction.
    pub index: usize,
    /// What is wrong.
    pub message: String,
}

impl Structure {
    /// Analyse `program`. Errors: unmatched block ends, ELSE/CASE/BRK/CONT outside their
    /// construct, BGNSUB not at top level, CAL whose label is not a BGNSUB.
    pub fn analyse(program: &Program) -> Result<Structure, StructureError> {
        let insns = &program.instructions;
        let n = insns.len();
        let mut partner = vec![NO_PARTNER; n];
        let mut depth = vec![0u32; n];
        let mut subroutines = Vec::new();
        // Stack of open constructs: (opcode, index).
        let mut stack: Vec<(Opcode, usize)> = Vec::new();
        let err = |index: usize, message: String| Err(StructureError { index, message });
        for (i, insn) in insns.iter().enumerate() {
            let op = insn.opcode;
            let info = op.info();
            let d = stack.len() as u32;
            depth[i] = if info.pre_dedent {
                d.saturating_sub(1)
            } else {
                d
            };
            match op {
                Opcode::IF | Opcode::UIF | Opcode::BGNLOOP | Opcode::SWITCH => stack.push((op, i)),
                Opcode::BGNSUB => {
                    if !stack.is_empty() {
                        return err(i, "BGNSUB inside another block".into());
                    }
                    stack.push((op, i));
                }
                Opcode::ELSE => match stack.last() {
                    Some(&(Opcode::IF | Opcode::UIF, open)) if partner[open] == NO_PARTNER => {
                        partner[open] = i as u32;
                        stack.pop();
                        stack.push((Opcode::ELSE, i));
                    }
                    _ => return err(i, "ELSE without a matching IF/UIF".into()),
                },
                Opcode::ENDIF => match stack.pop() {
                    Some((Opcode::IF | Opcode::UIF, open)) => {
                        partner[open] = i as u32;
                        partner[i] = open as u32;
                    }
                    Some((Opcode::ELSE, els)) => {
                        partner[els] = i as u32;
                        // ENDIF points back at the IF that owns the ELSE.
                        let open = (0..els)
                            .rev()
                            .find(|&k| partner[k] == els as u32)
                            .expect("ELSE has an IF");
                        partner[i] = open as u32;
                    }
                    _ => return err(i, "ENDIF without a matching IF/UIF".into()),
                },
                Opcode::ENDLOOP => match stack.pop() {
                    Some((Opcode::BGNLOOP, open)) => {
                        partner[open] = i as u32;
                        partner[i] = open as u32;
                    }
                    _ => return err(i, "ENDLOOP without a matching BGNLOOP".into()),
                },
                Opcode::ENDSWITCH => match stack.pop() {
                    Some((Opcode::SWITCH, open)) => {
                        partner[open] = i as u32;
                        partner[i] = open as u32;
                    }
                    _ => return err(i, "ENDSWITCH without a matching SWITCH".into()),
                },
                Opcode::ENDSUB => match stack.pop() {
                    Some((Opcode::BGNSUB, open)) => {
                        partner[open] = i as u32;
                        partner[i] = open as u32;
                        subroutines.push(Subroutine {
                            begin: open as u32,
                            end: i as u32,
                        });
                    }
                    _ => return err(i, "ENDSUB without a matching BGNSUB".into()),
                },
                Opcode::CASE | Opcode::DEFAULT => match stack.last() {
                    Some(&(Opcode::SWITCH, open)) => partner[i] = open as u32,
                    _ => return err(i, format!("{op} outside SWITCH")),
                },
                Opcode::BRK => {
                    match stack
                        .iter()
                        .rev()
                        .find(|(o, _)| matches!(o, Opcode::BGNLOOP | Opcode::SWITCH))
                    {
                        Some(&(_, open)) => partner[i] = open as u32,
                        None => return err(i, "BRK outside a loop or SWITCH".into()),
                    }
                }
                Opcode::CONT => match stack.iter().rev().find(|(o, _)| *o == Opcode::BGNLOOP) {
                    Some(&(_, open)) => partner[i] = open as u32,
                    None => return err(i, "CONT outside a loop".into()),
                },
                _ => {}
            }
        }
        if let Some(&(op, i)) = stack.last() {
            return err(i, format!("{op} is never closed"));
        }
        for (i, insn) in insns.iter().enumerate() {
            if insn.opcode == Opcode::CAL {
                match insn.label {
                    Some(t) if (t as usize) < n && insns[t as usize].opcode == Opcode::BGNSUB => {
                        partner[i] = t
                    }
                    Some(t) => return err(i, format!("CAL target {t} is not a BGNSUB")),
                    None => return err(i, "CAL without a target label".into()),
                }
            }
        }
        Ok(Structure {
            partner,
            subroutines,
            depth,
        })
    }

    /// The label tgsi_dump would print for instruction `i` when it is IF/UIF/ELSE/CAL
    /// (TEXT-FORMAT.md §7.7: IF/UIF → ELSE or ENDIF, ELSE → ENDIF, CAL → BGNSUB).
    pub fn computed_label(&self, program: &Program, i: usize) -> Option<u32> {
        match program.instructions[i].opcode {
            Opcode::IF | Opcode::UIF | Opcode::ELSE | Opcode::CAL => Some(self.partner[i]),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::names::{File, Stage};
    use crate::program::{Instruction, Register, Src};

    fn prog(ops: &[Opcode]) -> Program {
        let mut p = Program::new(Stage::Fragment);
        for &op in ops {
            let src = (0..op.info().num_src)
                .map(|_| Src::new(Register::new(File::Temp, 0)))
                .collect();
            p.instructions.push(Instruction::new(op, vec![], src));
        }
        p
    }

    #[test]
    fn ex03_labels_are_recomputed() {
        // TEXT-FORMAT.md ex03: `2: UIF ... :5`, `5: ELSE :7`, `7: ENDIF`.
        use Opcode::*;
        let p = prog(&[KILL_IF, FSLT, UIF, MOV, KILL, ELSE, MOV, ENDIF, END]);
        let s = Structure::analyse(&p).unwrap();
        assert_eq!(s.computed_label(&p, 2), Some(5));
        assert_eq!(s.computed_label(&p, 5), Some(7));
        assert_eq!(s.partner[7], 2);
        assert_eq!(s.depth[3], 1);
        assert_eq!(s.depth[5], 0);
    }

    #[test]
    fn ex04_loop_and_breaks() {
        // TEXT-FORMAT.md ex04: BGNLOOP at 1, ENDLOOP at 12, BRK at 4, CONT at 9.
        use Opcode::*;
        let p = prog(&[
            MOV, BGNLOOP, ISGE, UIF, BRK, ENDIF, UADD, UMOD, UIF, CONT, ENDIF, UADD, ENDLOOP, I2F,
            MOV, MOV, END,
        ]);
        let s = Structure::analyse(&p).unwrap();
        assert_eq!((s.partner[1], s.partner[12]), (12, 1));
        assert_eq!((s.partner[4], s.partner[9]), (1, 1));
        assert_eq!(s.computed_label(&p, 3), Some(5));
        // ex04 dump: `  4:     BRK` is indented two levels.
        assert_eq!(s.depth[4], 2);
    }

    #[test]
    fn switch_case_default_and_subroutines() {
        use Opcode::*;
        let mut p = prog(&[
            CAL, END, BGNSUB, SWITCH, CASE, BRK, DEFAULT, ENDSWITCH, RET, ENDSUB,
        ]);
        p.instructions[0].label = Some(2);
        let s = Structure::analyse(&p).unwrap();
        assert_eq!(s.partner[0], 2);
        assert_eq!((s.partner[4], s.partner[6], s.partner[5]), (3, 3, 3));
        assert_eq!(s.subroutines, vec![Subroutine { begin: 2, end: 9 }]);
    }

    #[test]
    fn malformed_structures_are_rejected() {
        use Opcode::*;
        for (ops, at) in [
            (&[ENDIF][..], 0),
            (&[IF, ELSE, ELSE, ENDIF][..], 2),
            (&[BRK][..], 0),
            (&[BGNLOOP, IF, ENDLOOP][..], 2),
            (&[IF][..], 0),
            (&[CASE][..], 0),
            (&[BGNLOOP, CONT, ENDLOOP, CONT][..], 3),
            (&[IF, BGNSUB, ENDSUB, ENDIF][..], 1),
        ] {
            let e = Structure::analyse(&prog(ops)).unwrap_err();
            assert_eq!(e.index, at, "{ops:?}: {e:?}");
        }
        let mut p = prog(&[CAL, END]);
        p.instructions[0].label = Some(1);
        assert!(Structure::analyse(&p).is_err());
    }
}
