//! Lowering options and the start of a lowered program: [`LowerOptions`] (deliberate
//! lowering faults for fault-injection campaigns) and the undefined start of TEMPs,
//! condition codes and results.

use super::lower::Ctx;
use crate::edit::{rebuild, Edit};
use crate::names::File;
use crate::opcode::Opcode;
use crate::program::{self as ir, Register};

/// A deliberate, realistic bug in the NV front-end, switched on only by an engine's
/// catalogued fault (`--inject-fault`) so that campaigns can show the differential loop
/// finds NV-specific miscompilations. Never used by default.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LowerFault {
    /// `.CC` flags of a `.SAT` / `.SSAT` instruction computed from the value before
    /// clamping (NV_gpu_program4 §2.X.4.3: the condition code is set from the result
    /// written, i.e. after clamping).
    CcFromUnsaturated,
}

/// Lowering options: [`super::lower_with`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LowerOptions {
    /// A deliberate lowering bug ([`LowerFault`]); `None` (the default) for the real
    /// lowering.
    pub fault: Option<LowerFault>,
}

impl Ctx<'_> {
    /// Emits, at the start of the program, the undefined start of every TEMP: the
    /// program's temporaries and the flag TEMPs of the condition codes (`lower_cc.rs`).
    /// Call once the declarations are lowered and the condition codes allocated.
    ///
    /// What the specs say:
    /// * NV_gpu_program4 §2.X.3.4 "Program Temporaries": temporaries "are undefined at the
    ///   beginning of each program invocation" (every NV_gpu_program4/5 stage, compute
    ///   included: NV_compute_program5 builds on NV_gpu_program5);
    /// * NV_gpu_program4 §2.X.3.7 "Program Condition Code Registers": CC0 and CC1 have
    ///   "values [that] are undefined at the beginning of program execution", so a
    ///   condition code component read before its first `.CC` update is undefined;
    /// * ARB temporaries: ARB_vertex_program issue 16 ("it was decided to leave these
    ///   values uninitialized") and the register tables of ARB_vertex_program and
    ///   ARB_fragment_program ("temporary registers: undefined"); the condition codes of
    ///   the NV options (NV_fragment_program_option, NV_vertex_program2_option) are those
    ///   of NV_gpu_program4 too.
    ///
    /// Each TEMP starts as an integer division by zero (undefined in the IR, tgsi.rst
    /// IDIV) ANDed with 0: the oracle flags a read before any write as undefined (not
    /// compared; a decision on it leaves the invocation unconstrained), while every
    /// engine still computes INTERFACE.md's zero start ("TEMP, ... condition codes" start
    /// as zero). The TEMPs a `LONG ATTRIB` copies its inputs into during the declarations
    /// (`lower_vars.rs`) are attributes, defined from the start, and are left alone.
    pub(super) fn undefined_temp_start(&mut self) {
        let attribs: Vec<u32> = self
            .vars
            .values()
            .filter_map(|v| match v {
                super::lower::Var::LongAttrib { base } => Some(*base),
                _ => None,
            })
            .flat_map(|b| [b, b + 1])
            .collect();
        let zero = self.imm([0; 4]);
        let z = ir::Src::new(zero);
        for t in (0..self.max_temp).filter(|t| !attribs.contains(t)) {
            let reg = Register::new(File::Temp, t as i32);
            let d = ir::Dst {
                reg,
                writemask: 0xF,
            };
            self.emit(Opcode::IDIV, vec![d], vec![z, z]);
            self.emit(Opcode::AND, vec![d], vec![ir::Src::new(reg), z]);
        }
    }
}

impl Ctx<'_> {
    /// Program declarations as IR properties: compute `GROUP_SIZE x [y [z]]`
    /// (NV_compute_program5 §2.X.3.5: exactly one is required; missing sizes are 1) becomes
    /// `CS_FIXED_BLOCK_WIDTH / HEIGHT / DEPTH`. `SHARED_MEMORY` only sizes the shared
    /// memory of LDS / STS / ATOMS, which are refused where they appear.
    pub(super) fn program_declarations(&mut self) -> Result<(), super::lower::LowerError> {
        use crate::names::PropertyName as P;
        for d in &self.nv.program_decls {
            if let super::ast::ProgramDecl::GroupSize(sizes) = d {
                let names = [
                    P::CsFixedBlockWidth,
                    P::CsFixedBlockHeight,
                    P::CsFixedBlockDepth,
                ];
                for (k, name) in names.into_iter().enumerate() {
                    self.out.properties.push(ir::Property {
                        name,
                        value: sizes.get(k).copied().unwrap_or(1).max(1),
                    });
                }
            }
        }
        Ok(())
    }

    /// One `SV` declaration per compute attribute binding the program reads
    /// (NV_compute_program5 Table X.1), with the TGSI semantic of the same quantity:
    /// `invocation.localid` THREAD_ID, `invocation.groupid` BLOCK_ID,
    /// `invocation.groupcount` GRID_SIZE, `invocation.groupsize` BLOCK_SIZE;
    /// `invocation.globalid` and `invocation.localindex` have none. Their values come from
    /// the inputs (the harness fills unset ones from the invocation's position).
    pub(super) fn system_value_declarations(&self) -> Vec<ir::Declaration> {
        use crate::names::SemanticName as S;
        let mut out = Vec::new();
        if self.stage != super::ast::NvStage::Compute {
            // Geometry and tessellation system values: `lower_stage.rs` declares them.
            return out;
        }
        let n = self.counts.get(&File::SystemValue).copied().unwrap_or(0);
        for i in 0..n {
            let mut d = ir::Declaration::new(File::SystemValue, i, i);
            let name = self.names.name_of(File::SystemValue, i).unwrap_or("");
            d.semantic = match name {
                "invocation.localid" => Some((S::ThreadId, 0)),
                "invocation.groupid" => Some((S::BlockId, 0)),
                "invocation.groupcount" => Some((S::GridSize, 0)),
                "invocation.groupsize" => Some((S::BlockSize, 0)),
                _ => None,
            };
            out.push(d);
        }
        out
    }
}

impl Ctx<'_> {
    /// Makes every result start undefined (NV_gpu_program4 §2.X.3.5 "Program Results":
    /// result variables "are undefined at the beginning of each program invocation. Any
    /// vertex or fragment attributes corresponding to unwritten result variables will be
    /// undefined in subsequent stages"): each output is first written with an integer
    /// division by zero (undefined in the IR) ANDed with 0, as ARB temporaries are, so the
    /// oracle flags an unwritten result channel as undefined while every engine still
    /// computes INTERFACE.md's zero start. Call once the outputs are allocated.
    pub(super) fn undefined_result_start(&mut self) {
        let outs = self.counts.get(&File::Output).copied().unwrap_or(0);
        if outs == 0 {
            return;
        }
        let zero = ir::Src::new(self.imm([0; 4]));
        let mut edits = Vec::with_capacity(self.out.instructions.len() + 2 * outs as usize);
        for k in 0..outs {
            let reg = Register::new(File::Output, k as i32);
            let d = ir::Dst {
                reg,
                writemask: 0xF,
            };
            let r = ir::Src::new(reg);
            edits.push(Edit::inserted(
                None,
                ir::Instruction::new(Opcode::IDIV, vec![d], vec![zero, zero]),
            ));
            edits.push(Edit::inserted(
                None,
                ir::Instruction::new(Opcode::AND, vec![d], vec![r, zero]),
            ));
        }
        for (j, insn) in self.out.instructions.iter().enumerate() {
            edits.push(Edit::kept(j, insn.clone()));
        }
        self.out = rebuild(&self.out, edits);
    }
}
