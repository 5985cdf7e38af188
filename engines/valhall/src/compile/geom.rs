//! Geometry output: EMIT and ENDPRIM (tgsi.rst "Geometry ISA", with the oracle's decisions
//! of `shaderdiff_oracles::interp::emit`): an emitted vertex is a copy of every output
//! register, stored in the record's emit area with its stream and primitive number;
//! vertices past GS_MAX_OUTPUT_VERTICES are dropped; ENDPRIM closes the stream's current
//! primitive if it has a vertex.
//!
//! The stream operand must be a constant (IMM, or absent for stream 0): per-stream state
//! lives in registers chosen at compile time.
// Sizes, offsets and counts here come from user input (declarations, inputs files): no
// arithmetic may wrap or panic unnoticed.
#![warn(clippy::arithmetic_side_effects)]

use std::collections::BTreeMap;

use shaderdiff_model::{File, Instruction, Opcode, Register};

use super::abi::RECORD_REG;
use super::lower::Lower;
use super::vcode::{VDst, VReg, VSrc, Val};
use super::CompileError;

/// Per-stream state: completed non-empty primitives, and "the current one has a vertex".
pub(super) type StreamState = BTreeMap<u32, (VReg, VReg)>;

impl Lower<'_> {
    /// The compile-time stream of an EMIT/ENDPRIM.
    fn stream(&self, insn: &Instruction) -> Result<u32, CompileError> {
        let Some(src) = insn.src.first() else {
            return Ok(0);
        };
        if src.reg.file != File::Immediate || src.reg.is_indirect() || src.abs || src.neg {
            return Err(CompileError::unsupported(
                None,
                "EMIT/ENDPRIM with a stream that is not an immediate",
            ));
        }
        let imm = self
            .program
            .immediates
            .get(src.reg.index.value.max(0) as usize);
        Ok(imm.map_or(0, |i| i.words[src.swizzle[0] as usize]))
    }

    fn stream_state(&mut self, s: u32) -> (VReg, VReg) {
        if let Some(&st) = self.streams.get(&s) {
            return st;
        }
        let st = (self.code.vreg(), self.code.vreg());
        self.streams.insert(s, st);
        st
    }

    /// EMIT or ENDPRIM.
    pub(super) fn emit(&mut self, insn: &Instruction) -> Result<(), CompileError> {
        let (Some((count, _)), Some(e)) = (self.emit_state, self.layout.emit.clone()) else {
            return Err(CompileError::unsupported(
                None,
                "EMIT/ENDPRIM outside geometry programs",
            ));
        };
        let stream = self.stream(insn)?;
        let (prim, has) = self.stream_state(stream);
        if insn.opcode == Opcode::ENDPRIM {
            // prim += (has != 0); has = 0.
            let z = self.code.konst(0);
            let one = self.code.konst(1);
            let inc = self
                .code
                .op("MUX.i32", &[z, one, VSrc::v(has)], &[("mux", "int_zero")]);
            self.code
                .ins("IADD.u32", VDst::V(prim), &[VSrc::v(prim), inc], &[]);
            self.code.ins("MOV.i32", VDst::V(has), &[z], &[]);
            return Ok(());
        }
        let skip = self.code.label();
        let max = self.code.konst(e.max_vertices);
        let z = self.code.konst(0);
        let room = self.code.op(
            "ICMP_OR.u32",
            &[VSrc::v(count), max, z],
            &[("cmp", "lt"), ("result_type", "m1")],
        );
        self.code.branch(room, true, skip);
        let vb = self.code.konst(e.vertex_bytes);
        let off = self.code.op("IMUL.i32", &[VSrc::v(count), vb], &[]);
        let first = self.code.konst(e.first);
        let byte = self.code.op("IADD.u32", &[off, first], &[]);
        // Read the outputs before the address pair is formed (reads may use it).
        let mut vals = Vec::new();
        let outs = self.layout.outputs.clone();
        for (key, _) in &outs {
            let reg = Register {
                file: key.file,
                index: shaderdiff_model::Index::direct(key.index as i32),
                dimension: key
                    .dimension
                    .map(|d| shaderdiff_model::Index::direct(d as i32)),
            };
            for c in 0..4u8 {
                let v = self.read(&reg, c)?;
                vals.push(v);
            }
        }
        let s = self.code.konst(stream);
        let addr = super::abi::ADDR_REG;
        self.code.ins(
            "IADD.u64",
            VDst::P(addr),
            &[VSrc::new(Val::P(RECORD_REG)), byte.sel("w0")],
            &[],
        );
        self.store_at(Val::P(addr), 0, s);
        self.store_at(Val::P(addr), 4, VSrc::v(prim));
        // Word `k` of the output vec4s, after the stream and primitive words: `k` is below
        // 4 × outputs, and the ABI checked that the whole record (`vertex_bytes` = 16 +
        // 16 × outputs per vertex, `abi.rs`) fits 32 bits, so nothing saturates here.
        let mut at = 16u32;
        for v in vals {
            self.store_at(Val::P(addr), at, v);
            at = at.saturating_add(4);
        }
        let ones = self.code.konst(u32::MAX);
        self.code.ins("MOV.i32", VDst::V(has), &[ones], &[]);
        let one = self.code.konst(1);
        self.code
            .ins("IADD.u32", VDst::V(count), &[VSrc::v(count), one], &[]);
        self.code.place(skip);
        Ok(())
    }
}
