//! BRA (NV_vertex_program2_option §2.14.2.x "Program Flow Control", NV_vertex_program3):
//! unstructured branches to labels, lowered to structured IR with a per-invocation program
//! counter.
//!
//! The program text is cut into basic blocks: one starts at the first instruction, at every
//! label and after every BRA. The lowered program is one loop that runs the block whose
//! number the counter holds, then the next one, until the last block ends:
//!
//! ```text
//! MOV pc.x, start            # the block of `main` if there is one, else block 0
//! BGNLOOP
//!   USEQ t.x, pc.x, k ; UIF t.x   # block k
//!     ...its instructions...
//!     BRA target (cond)  →  [UIF cond] MOV pc.x, block(target) ; CONT [ENDIF]
//!     MOV pc.x, k + 1    (or BRK after the last block: the end of the program)
//!   ENDIF
//! ENDLOOP
//! ```
//!
//! Semantics kept: a taken branch continues "with the instruction following the label"
//! and is taken when any of the four components of the condition passes (the quoted
//! section); labels do not stop execution (falling through a label continues with the
//! next instruction); RET with an empty call stack ends the program (the section's
//! "terminate if a RET instruction is executed with an empty call stack"); a program that
//! branches forever meets the engines' step budget. Refused (never lowered
//! approximately): CAL in a program with BRA (the call stack would need returning into
//! the middle of a block), and a BRA inside an IF / REP / LOOP block (it would leave the
//! block without closing it).

use super::ast::{Instruction as NvInsn, Statement};
use super::lower::{dst, src, Ctx, LowerError};
use super::lower_cc::Cond;
use super::NvOpcode as N;
use crate::names::File;
use crate::opcode::Opcode as O;
use crate::program::Register;

/// One basic block: the statement indices it holds.
struct Block {
    stmts: Vec<usize>,
}

impl Ctx<'_> {
    /// Whether the program needs [`Self::lower_with_branches`]: it has a BRA.
    pub(super) fn has_branches(&self) -> bool {
        self.nv.instructions().any(|i| i.opcode == N::Bra)
    }

    /// Lowers the whole program through the block loop of the module docs.
    pub(super) fn lower_with_branches(&mut self) -> Result<(), LowerError> {
        let nv = self.nv;
        // Blocks and where each label points.
        let mut blocks = vec![Block { stmts: Vec::new() }];
        let mut labels: Vec<(String, usize)> = Vec::new();
        let mut depth = 0usize;
        for (i, st) in nv.statements.iter().enumerate() {
            match st {
                Statement::Label(l) => {
                    if !blocks.last().is_some_and(|b| b.stmts.is_empty()) {
                        blocks.push(Block { stmts: Vec::new() });
                    }
                    labels.push((l.name.clone(), blocks.len() - 1));
                }
                Statement::Insn(insn) => {
                    self.pos = self.stmt_pos(i);
                    match insn.opcode {
                        N::If | N::Rep | N::Loop => depth += 1,
                        N::Endif | N::Endrep | N::Endloop => depth = depth.saturating_sub(1),
                        N::Cal | N::Cali => {
                            return Err(self.unsupported(format!(
                                "{} in a program with BRA (returning into a block is not lowered)",
                                insn.opcode.name()
                            )))
                        }
                        N::Bra if depth > 0 => {
                            return Err(self.unsupported(
                                "BRA inside an IF, REP or LOOP block is not lowered".into(),
                            ))
                        }
                        _ => {}
                    }
                    blocks.last_mut().expect("non-empty").stmts.push(i);
                    if insn.opcode == N::Bra {
                        blocks.push(Block { stmts: Vec::new() });
                    }
                }
                Statement::Decl(_) => {}
            }
        }
        let block_of = |name: &str| labels.iter().find(|(n, _)| n == name).map(|&(_, b)| b);
        let start = block_of("main").unwrap_or(0);
        // Two TEMPs reserved for the whole program (never released by an instruction).
        let pc = Register::new(File::Temp, self.next_temp as i32);
        let t = Register::new(File::Temp, self.next_temp as i32 + 1);
        self.next_temp += 2;
        self.max_temp = self.max_temp.max(self.next_temp);
        let k_imm = |cx: &mut Ctx<'_>, k: usize| src(cx.imm([k as u32; 4]), [0; 4]);
        let start_src = k_imm(self, start);
        self.emit(O::MOV, vec![dst(pc, 0x1)], vec![start_src]);
        self.emit(O::BGNLOOP, vec![], vec![]);
        let last = blocks.len() - 1;
        for (k, b) in blocks.iter().enumerate() {
            let kk = k_imm(self, k);
            self.emit(O::USEQ, vec![dst(t, 0x1)], vec![src(pc, [0; 4]), kk]);
            self.emit(O::UIF, vec![], vec![src(t, [0; 4])]);
            for &i in &b.stmts {
                self.pos = self.stmt_pos(i);
                let Statement::Insn(insn) = &nv.statements[i] else {
                    continue;
                };
                if insn.opcode == N::Bra {
                    let target = insn.label.as_deref().unwrap_or_default();
                    let Some(to) = block_of(target) else {
                        return Err(self.invalid(format!("BRA to unknown label `{target}`")));
                    };
                    self.branch(insn, pc, to)?;
                } else {
                    self.lower_insn(insn)?;
                }
            }
            if k == last {
                self.emit(O::BRK, vec![], vec![]);
            } else {
                let next = k_imm(self, k + 1);
                self.emit(O::MOV, vec![dst(pc, 0x1)], vec![next]);
            }
            self.emit(O::ENDIF, vec![], vec![]);
        }
        self.emit(O::ENDLOOP, vec![], vec![]);
        self.emit(O::END, vec![], vec![]);
        Ok(())
    }

    /// A BRA to block `to`: set the counter and restart the loop, under the branch
    /// condition (taken when any of its four components passes).
    fn branch(&mut self, insn: &NvInsn, pc: Register, to: usize) -> Result<(), LowerError> {
        let cond = self.branch_cond(insn)?;
        let target = src(self.imm([to as u32; 4]), [0; 4]);
        match cond {
            Cond::Never => {}
            Cond::Always => {
                self.emit(O::MOV, vec![dst(pc, 0x1)], vec![target]);
                self.emit(O::CONT, vec![], vec![]);
            }
            Cond::Dyn(c) => {
                self.emit(O::UIF, vec![], vec![c]);
                self.emit(O::MOV, vec![dst(pc, 0x1)], vec![target]);
                self.emit(O::CONT, vec![], vec![]);
                self.emit(O::ENDIF, vec![], vec![]);
            }
        }
        Ok(())
    }
}
