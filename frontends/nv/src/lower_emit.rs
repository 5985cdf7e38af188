//! EMIT, EMITS and ENDPRIM of geometry programs (NV_geometry_program4 §2.X.8.Z, NV_gpu_program5
//! "EMITS"), lowered to the IR's EMIT / ENDPRIM (tgsi.rst "Geometry ISA"); see
//! `lower_stage.rs` for the rest of the geometry lowering.
//!
//! * `EMIT` is `EMIT` on stream 0; `EMITS s` is `EMIT` on stream `s`, undefined (the
//!   invocation's output unconstrained) unless `0 <= s < 4`, MAX_VERTEX_STREAMS being 4
//!   (the minimum ARB_transform_feedback3 guarantees); a constant stream in range is an
//!   immediate operand. `ENDPRIM` is `ENDPRIM` on stream 0, and nothing at all with
//!   `PRIMITIVE_OUT POINTS` ("ENDPRIM has no effect", §2.14.6.3).
//! * "After an EMIT instruction is completed, the current values of all vertex result
//!   variables become undefined" (§2.14.6.3): every `OUT` register is made undefined after
//!   each `EMIT` / `EMITS` (an integer division by zero ANDed with 0, as for the ARB
//!   temporaries in `lower_start.rs`: the oracle flags the channels, the engines hold 0).
//!   Before the first EMIT the results start as zero, as INTERFACE.md says for every `OUT`.

use super::ast::{BaseType, Instruction as NvInsn, NvStage, PrimitiveOut};
use super::lower::{Ctx, LowerError};
use super::NvOpcode as N;
use crate::edit::{rebuild, Edit};
use crate::names::File;
use crate::opcode::Opcode;
use crate::program::{self as ir, Instruction, Register, IDENTITY_SWIZZLE};

/// MAX_VERTEX_STREAMS: the minimum ARB_transform_feedback3 guarantees (EMITS on a stream
/// at or above it is undefined, NV_gpu_program5 §2.X.8.Z "EMITS").
const MAX_VERTEX_STREAMS: u32 = 4;

impl Ctx<'_> {
    /// Lowers EMIT, EMITS and ENDPRIM (see the module docs).
    ///
    /// Errors: EMITS with an output primitive other than POINTS (a load error,
    /// NV_gpu_program5 §2.14.6.2), these opcodes outside geometry programs.
    pub(super) fn lower_emit(&mut self, insn: &NvInsn) -> Result<(), LowerError> {
        let name = insn.opcode.name();
        if self.stage != NvStage::Geometry {
            return Err(self.invalid(format!("{name} is a geometry program instruction")));
        }
        let zero = ir::Src {
            reg: self.imm([0; 4]),
            swizzle: [0; 4],
            abs: false,
            neg: false,
        };
        let points = self.primitive_out() == Some(PrimitiveOut::Points);
        match insn.opcode {
            N::Emit => {
                let at = self.emit(Opcode::EMIT, vec![], vec![zero]);
                self.stage_state.emits.push(at);
            }
            N::Endprim if points => {}
            N::Endprim => {
                self.emit(Opcode::ENDPRIM, vec![], vec![zero]);
            }
            N::Emits => {
                if !points {
                    return Err(self.invalid(
                        "EMITS needs PRIMITIVE_OUT POINTS (NV_gpu_program5 §2.14.6.2)".into(),
                    ));
                }
                let s = self.operand(insn, 0, BaseType::S)?;
                let s = ir::Src {
                    swizzle: [s.swizzle[0]; 4],
                    ..s
                };
                // A constant stream in range is an immediate operand, as EMIT's.
                let known = match s.reg.file {
                    File::Immediate if !s.reg.is_indirect() && !s.neg && !s.abs => self
                        .out
                        .immediates
                        .get(s.reg.index.value as usize)
                        .map(|imm| imm.words[s.swizzle[0] as usize]),
                    _ => None,
                };
                if let Some(stream) = known.filter(|&v| v < MAX_VERTEX_STREAMS) {
                    let stream = ir::Src::new(self.imm([stream; 4]));
                    let at = self.emit(Opcode::EMIT, vec![], vec![stream]);
                    self.stage_state.emits.push(at);
                    return Ok(());
                }
                // t = s where 0 <= s < MAX_VERTEX_STREAMS (unsigned compare), else
                // s / 0, which the IR leaves undefined.
                let t = self.hidden();
                let tx = ir::Dst {
                    reg: t,
                    writemask: 1,
                };
                let t_x = ir::Src {
                    swizzle: [0; 4],
                    ..ir::Src::new(t)
                };
                let limit = ir::Src::new(self.imm([MAX_VERTEX_STREAMS; 4]));
                let one = ir::Src::new(self.imm([1; 4]));
                self.emit(Opcode::USLT, vec![tx], vec![s, limit]);
                self.emit(Opcode::AND, vec![tx], vec![t_x, one]);
                self.emit(Opcode::IDIV, vec![tx], vec![s, t_x]);
                let at = self.emit(Opcode::EMIT, vec![], vec![t_x]);
                self.stage_state.emits.push(at);
            }
            _ => return Err(self.unsupported(name.to_string())),
        }
        Ok(())
    }

    /// Inserts after each EMIT, for every OUT register, `IDIV OUT[k], 0, 0` (undefined in
    /// the IR) and `AND OUT[k], OUT[k], 0` (so every engine holds 0).
    pub(super) fn undefine_results_after_emits(&mut self) {
        let outs = self.counts.get(&File::Output).copied().unwrap_or(0);
        if outs == 0 || self.stage_state.emits.is_empty() {
            return;
        }
        let zero = ir::Src::new(self.imm([0; 4]));
        let emits = std::mem::take(&mut self.stage_state.emits);
        let mut edits = Vec::with_capacity(self.out.instructions.len());
        for (j, insn) in self.out.instructions.iter().enumerate() {
            edits.push(Edit::kept(j, insn.clone()));
            if !emits.contains(&j) {
                continue;
            }
            for k in 0..outs {
                let reg = Register::new(File::Output, k as i32);
                let d = ir::Dst {
                    reg,
                    writemask: 0xF,
                };
                let r = ir::Src {
                    swizzle: IDENTITY_SWIZZLE,
                    ..ir::Src::new(reg)
                };
                edits.push(Edit::inserted(
                    Some(j),
                    Instruction::new(Opcode::IDIV, vec![d], vec![zero, zero]),
                ));
                edits.push(Edit::inserted(
                    Some(j),
                    Instruction::new(Opcode::AND, vec![d], vec![r, zero]),
                ));
            }
        }
        self.out = rebuild(&self.out, edits);
    }
}
