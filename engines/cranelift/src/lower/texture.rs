//! Lowering of the texture instructions (TEX, TXP, TXB, TXL, TXD, TXF, TXQ, TG4, LODQ, TXQS: the last has no coordinates): the source
//! vector (and TXD's derivatives and the texel offset operand's, if any) goes to a stack exchange area, one call to the texture runtime (`crate::texture`) per
//! quad computes the four lanes, and the results are stored under the writemask like any
//! other result (saturation included).

use cranelift_codegen::ir::types::{I32, I32X4, I64};
use cranelift_codegen::ir::{InstBuilder, StackSlotData, StackSlotKind};
use shaderdiff_model::check::FetchType;

use super::{LowerError, Lowerer};
use crate::texture::{descriptor, IO_BYTES, IO_DERIVS, IO_OFFSETS, IO_RESULTS, TEX_SYMBOL};

impl Lowerer<'_, '_> {
    /// A texture instruction (module docs); the step is already counted.
    pub(super) fn texture(&mut self, i: usize) -> Result<(), LowerError> {
        let insn = &self.env.program.instructions[i];
        // tgsi.rst TXD: coordinates, d/dx, d/dy, unit; the others: coordinates, unit.
        let txd = insn.opcode == shaderdiff_model::Opcode::TXD;
        let tg4 = insn.opcode == shaderdiff_model::Opcode::TG4;
        // tgsi.rst TXQS: the unit is its only source (no coordinates).
        let txqs = insn.opcode == shaderdiff_model::Opcode::TXQS;
        let needed = if txd {
            4
        } else if tg4 {
            3
        } else if txqs {
            1
        } else {
            2
        };
        if insn.src.len() < needed || insn.dst.is_empty() {
            return Err(self.invalid(
                i,
                "a texture instruction needs a destination, its sources and a unit",
            ));
        }
        let desc = descriptor(self.env.program, i)
            .ok_or_else(|| self.invalid(i, "texture operand outside the checked model"))?
            | crate::faults::tex_desc_bits(self.env.fault); // FAULT HOOK (array-layer-truncated)
        let ty = match insn.opcode {
            shaderdiff_model::Opcode::TXF | shaderdiff_model::Opcode::TXQ => FetchType::Int,
            _ => FetchType::Float,
        };
        let src = if txqs {
            Vec::new()
        } else {
            self.fetch(i, &insn.src[0], ty, 0xF)?.to_vec()
        };
        let mut derivs = Vec::new();
        if txd {
            for k in 1..3 {
                derivs.push(self.fetch(i, &insn.src[k], FetchType::Float, 0x7)?);
            }
        } else if tg4 {
            // tgsi.rst TG4 `component = src1` (x, an integer): the d/dx block's first channel.
            derivs.push(self.fetch(i, &insn.src[1], FetchType::Int, 0x1)?);
        }
        // TEXT-FORMAT.md §7.5: the offset register's three swizzled components, as integers.
        let off = match insn.tex_offsets.first() {
            Some(o) => {
                let s = o.swizzle;
                let reg = shaderdiff_model::Src {
                    reg: o.reg,
                    swizzle: [s[0], s[1], s[2], s[2]],
                    abs: false,
                    neg: false,
                };
                Some(self.fetch(i, &reg, FetchType::Int, 0x7)?)
            }
            None => None,
        };
        let f = *self
            .libcalls
            .refs
            .get(TEX_SYMBOL)
            .ok_or_else(|| self.invalid(i, "the texture runtime call is not declared"))?;
        let slot = self.b.create_sized_stack_slot(StackSlotData::new(
            StackSlotKind::ExplicitSlot,
            IO_BYTES,
            4,
        ));
        for (c, &v) in src.iter().enumerate() {
            self.b.ins().stack_store(I64, v, slot, 16 * c as i32);
        }
        for (k, d) in derivs.iter().enumerate() {
            for (c, &v) in d.iter().take(3).enumerate() {
                let at = IO_DERIVS + 64 * k as i32 + 16 * c as i32;
                self.b.ins().stack_store(I64, v, slot, at);
            }
        }
        for (c, &v) in off.iter().flat_map(|o| o.iter()).take(3).enumerate() {
            self.b
                .ins()
                .stack_store(I64, v, slot, IO_OFFSETS + 16 * c as i32);
        }
        let exec = self.use_exec();
        let bits = self.b.ins().vhigh_bits(I32, exec);
        let addr = self.b.ins().stack_addr(I64, slot, 0);
        let d = self.b.ins().iconst(I32, i64::from(desc));
        self.b.ins().call(f, &[self.cv.ctx, d, bits, addr]);
        let dst = insn.dst[0];
        let mut out = [None; 4];
        for (c, o) in out.iter_mut().enumerate() {
            if dst.writemask >> c & 1 != 0 {
                *o = Some(
                    self.b
                        .ins()
                        .stack_load(I64, I32X4, slot, IO_RESULTS + 16 * c as i32),
                );
            }
        }
        self.store(i, &dst, out, insn.saturate)
    }
}
