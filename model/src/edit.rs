//! Program surgery shared by the engines' front passes ([`crate::wide_modifiers`]) and the
//! harness (probing, reduction): rebuilding the instruction list while keeping CAL targets
//! and source positions.

use crate::{Instruction, Opcode, Pos, Program};

/// One instruction of a rebuilt program (see [`rebuild`]).
#[derive(Clone, Debug)]
pub struct Edit {
    /// Index the instruction had in the old program; `None` for an inserted one.
    pub origin: Option<usize>,
    /// Old instruction whose source position (opcode and operands) the new one reports;
    /// usually `origin`, or the instruction an inserted one serves. `None`: `0:0`.
    pub pos_from: Option<usize>,
    /// The instruction.
    pub insn: Instruction,
}

impl Edit {
    /// A kept (possibly changed) instruction that was `p.instructions[origin]`.
    pub fn kept(origin: usize, insn: Instruction) -> Edit {
        Edit {
            origin: Some(origin),
            pos_from: Some(origin),
            insn,
        }
    }

    /// An inserted instruction reporting the source position of old instruction `pos_from`.
    pub fn inserted(pos_from: Option<usize>, insn: Instruction) -> Edit {
        Edit {
            origin: None,
            pos_from,
            insn,
        }
    }
}

/// `p` with its instructions replaced by `new`.
///
/// CAL labels of kept instructions (indices into `p`) are renumbered to the new position of
/// their BGNSUB (`None` when it is gone, which `validate` rejects); BGNLOOP/ENDLOOP labels
/// (informational in TGSI text) are renumbered the same way or dropped; IF/ELSE targets are
/// recomputed from the structure anyway (`Instruction::label`). Source positions follow
/// [`Edit::pos_from`]. Declarations, immediates and properties are copied; the statement
/// layout becomes canonical (properties, declarations, immediates, instructions), and the
/// NV origin ([`crate::SourceMap::nv`]) is dropped because it no longer describes the program.
pub fn rebuild(p: &Program, new: Vec<Edit>) -> Program {
    let mut map = vec![None; p.instructions.len()];
    for (j, e) in new.iter().enumerate() {
        if let Some(m) = e.origin.and_then(|o| map.get_mut(o)) {
            *m = Some(j as u32);
        }
    }
    let mut out = Program {
        stage: p.stage,
        properties: p.properties.clone(),
        declarations: p.declarations.clone(),
        immediates: p.immediates.clone(),
        instructions: Vec::with_capacity(new.len()),
        layout: Vec::new(),
        source_map: Default::default(),
    };
    out.source_map.declarations = p.source_map.declarations.clone();
    let have_pos = !p.source_map.instructions.is_empty();
    for Edit {
        origin,
        pos_from,
        mut insn,
    } in new
    {
        if origin.is_some() {
            if let Some(l) = insn.label {
                insn.label = match insn.opcode {
                    Opcode::CAL | Opcode::BGNLOOP | Opcode::ENDLOOP => {
                        map.get(l as usize).copied().flatten()
                    }
                    _ => Some(l),
                };
            }
        }
        if have_pos {
            let pos = pos_from
                .and_then(|o| p.source_map.instruction(o))
                .unwrap_or(Pos::default());
            out.source_map.instructions.push(pos);
            out.source_map.operands.push(
                pos_from
                    .and_then(|o| p.source_map.operands.get(o).cloned())
                    .unwrap_or_default(),
            );
        }
        out.instructions.push(insn);
    }
    out
}
