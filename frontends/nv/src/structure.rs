//! Block structure (NV_gpu_program4 §2.X.5 "Program Flow Control"; NV_fragment_program2
//! LOOP/ENDLOOP): every IF/ELSE/ENDIF, REP/ENDREP and LOOP/ENDLOOP block is terminated by
//! the right instruction inside the block that contains it, no block contains a label,
//! BRK and CONT are inside a loop, and a REP without a count contains a BRK at its own
//! level or a RET at any level.
// Numbers here come from user input (program text, inputs files, machine code): no
// arithmetic may wrap or panic unnoticed.
#![warn(clippy::arithmetic_side_effects)]

use super::ast::Instruction;
use super::opcodes::NvOpcode;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    If,
    Else,
    Rep,
    Loop,
}

#[derive(Clone, Copy, Debug)]
struct Frame {
    kind: Kind,
    /// Byte offset of the opening instruction.
    off: usize,
    /// REP without a count.
    endless: bool,
    /// A BRK for this loop, or a RET inside it, was seen.
    exits: bool,
}

/// The open blocks.
#[derive(Default)]
pub(crate) struct Blocks {
    stack: Vec<Frame>,
}

fn name(k: Kind) -> &'static str {
    match k {
        Kind::If => "IF",
        Kind::Else => "ELSE",
        Kind::Rep => "REP",
        Kind::Loop => "LOOP",
    }
}

impl Blocks {
    /// Accounts for instruction `ins` at byte offset `off`; an error message if it breaks
    /// the block structure.
    pub fn insn(&mut self, ins: &Instruction, off: usize) -> Result<(), String> {
        let push = |s: &mut Vec<Frame>, kind, endless| {
            s.push(Frame {
                kind,
                off,
                endless,
                exits: false,
            })
        };
        match ins.opcode {
            NvOpcode::If => push(&mut self.stack, Kind::If, false),
            NvOpcode::Rep => push(&mut self.stack, Kind::Rep, ins.srcs.is_empty()),
            NvOpcode::Loop => push(&mut self.stack, Kind::Loop, false),
            NvOpcode::Else => match self.stack.last_mut() {
                Some(f) if f.kind == Kind::If => f.kind = Kind::Else,
                Some(f) if f.kind == Kind::Else => {
                    return Err("a second `ELSE` in the same `IF` block".into())
                }
                Some(f) => return Err(format!("`ELSE` inside a `{}` block", name(f.kind))),
                None => return Err("`ELSE` without `IF`".into()),
            },
            NvOpcode::Endif => {
                self.close(&[Kind::If, Kind::Else], "ENDIF")?;
            }
            NvOpcode::Endrep => {
                let f = self.close(&[Kind::Rep], "ENDREP")?;
                if f.endless && !f.exits {
                    return Err(
                        "this `REP` without a count contains no `BRK` for it and no `RET`".into(),
                    );
                }
            }
            NvOpcode::Endloop => {
                self.close(&[Kind::Loop], "ENDLOOP")?;
            }
            NvOpcode::Brk | NvOpcode::Cont => {
                let inner = self
                    .stack
                    .iter_mut()
                    .rev()
                    .find(|f| matches!(f.kind, Kind::Rep | Kind::Loop));
                match inner {
                    Some(f) => f.exits |= ins.opcode == NvOpcode::Brk,
                    None => return Err(format!("`{}` outside a `REP` block", ins.opcode.name())),
                }
            }
            NvOpcode::Ret => {
                for f in &mut self.stack {
                    f.exits = true;
                }
            }
            _ => {}
        }
        Ok(())
    }

    fn close(&mut self, kinds: &[Kind], end: &str) -> Result<Frame, String> {
        match self.stack.last().copied() {
            Some(f) if kinds.contains(&f.kind) => {
                self.stack.pop();
                Ok(f)
            }
            Some(f) => {
                let open = if f.kind == Kind::Else {
                    Kind::If
                } else {
                    f.kind
                };
                Err(format!(
                    "`{end}` cannot close the open `{}` block",
                    name(open)
                ))
            }
            None => Err(format!("`{end}` without a block to close")),
        }
    }

    /// The innermost open block (its kind and opening offset), if any: labels and `END`
    /// may not appear inside a block.
    pub fn open(&self) -> Option<(&'static str, usize)> {
        self.stack.last().map(|f| {
            let k = if f.kind == Kind::Else {
                Kind::If
            } else {
                f.kind
            };
            (name(k), f.off)
        })
    }
}
