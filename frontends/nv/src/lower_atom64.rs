//! Lowering of the 64-bit NV atomics: ATOM, ATOMS and ATOMB with a U64, S64 or F64 storage
//! modifier, to the IR's 64-bit atomic (`crate::atomic64`: an integer atomic opcode with the
//! memory format `PIPE_FORMAT_R64_UINT` / `_SINT`, operands and result in channel pairs).
//!
//! Which forms exist (the operations of §2.X.8.Z ATOM Table X.Y, extended):
//!
//! | atomic | 64-bit storage modifiers | source |
//! |--------|--------------------------|--------|
//! | ADD    | U64, S64, F64            | NV_gpu_program5 Table X.Y (U64); NV_shader_atomic_int64 (S64); NV_shader_atomic_float64 (F64) |
//! | MIN, MAX, AND, OR, XOR | U64, S64 | NV_shader_atomic_int64 |
//! | EXCH   | U64, S64, F64            | Table X.Y (U64); NV_shader_atomic_int64 (S64); NV_shader_atomic_float64 (F64) |
//! | CSWAP  | U64, S64                 | Table X.Y (U64); NV_shader_atomic_int64 (S64) |
//!
//! NV_shader_atomic_int64: "No new support is provided for the IWRAP and DWRAP atomic
//! operations": they stay U32 only (invalid, exit 2). ADD.F64 (NV_shader_atomic_float64)
//! is a compare-and-swap loop of 64-bit ATOMCAS around a DADD (`atom_fadd64`): the IR's
//! ATOMFADD has no 64-bit form (TGSI text gives ATOMFADD no memory format). As for the
//! 32-bit forms (and F32 atomics) the `OPTION` that introduces a form is not required.
//!
//! Operands (§ ATOM: "The base data types of the result vector, and the first (vector)
//! operand are derived from the storage modifier"): a 64-bit operand is a LONG
//! variable's component or a constant converted at 64 bits (NOTES.md §11), so `tmp0.x`
//! is component x of operand 0 and CSWAP's `tmp0.y` its component y; the result is a
//! LONG variable whose component x gets the value read and y, z, w are undefined ("The
//! <y>, <z>, and <w> components of the result vector are undefined"). The address
//! (§2.X.4.5) must be a multiple of 8; otherwise the access is undefined (the lowering
//! gives the memory model an out-of-range offset, as `lower_mem.rs` does for every
//! access). Signed and unsigned MIN / MAX differ at 64 bits exactly as at 32
//! (ATOMIMIN / ATOMUMIN ...).

use super::ast::{AtomicOp, BaseType, DataType, Instruction as NvInsn};
use super::lower::{dst, src};
use super::lower::{Ctx, LowerError};
use crate::opcode::Opcode as O;
use crate::program::{self as ir, Register};

impl Ctx<'_> {
    /// The IR opcode of a 64-bit ATOM / ATOMS / ATOMB (module docs' table), or the error
    /// for a form the table does not have (invalid) or the IR cannot express (unsupported).
    fn atom64_op(&self, insn: &NvInsn, base: BaseType) -> Result<O, LowerError> {
        let name = insn.opcode.name();
        let t = insn.mods.ty.map(DataType::name).unwrap_or("");
        let op = insn
            .mods
            .atomic
            .ok_or_else(|| self.invalid(format!("{name} needs an atomic modifier")))?;
        use BaseType::{F, S, U};
        Ok(match (op, base) {
            (AtomicOp::Add, S | U) => O::ATOMUADD,
            (AtomicOp::Min, S) => O::ATOMIMIN,
            (AtomicOp::Min, U) => O::ATOMUMIN,
            (AtomicOp::Max, S) => O::ATOMIMAX,
            (AtomicOp::Max, U) => O::ATOMUMAX,
            (AtomicOp::And, S | U) => O::ATOMAND,
            (AtomicOp::Or, S | U) => O::ATOMOR,
            (AtomicOp::Xor, S | U) => O::ATOMXOR,
            (AtomicOp::Exch, S | U | F) => O::ATOMXCHG,
            (AtomicOp::CSwap, S | U) => O::ATOMCAS,
            // A compare-and-swap loop (`atom_fadd64`).
            (AtomicOp::Add, F) => O::ATOMCAS,
            _ => {
                return Err(self.invalid(format!(
                    "{name}.{}.{t}: not in Table X.Y (NV_gpu_program5 § ATOM, \
                     NV_shader_atomic_int64, NV_shader_atomic_float64)",
                    op.name()
                )))
            }
        })
    }

    /// ATOM / ATOMS / ATOMB with 64-bit storage (module docs): one IR 64-bit atomic whose
    /// old value goes to `results[0].xy`; `results[1..]` get the IR atomic's undefined
    /// `zw` pair.
    pub(super) fn atom64(
        &mut self,
        insn: &NvInsn,
        results: &[Option<Register>; 4],
    ) -> Result<(), LowerError> {
        let st = self.storage(insn)?;
        if st.bits != 64 || st.count != 1 {
            return Err(self.invalid(format!(
                "{}.{}: atomics take one 64-bit component",
                insn.opcode.name(),
                insn.mods.ty.map(DataType::name).unwrap_or("")
            )));
        }
        let irop = self.atom64_op(insn, st.base)?;
        let (mem, off) = self.mem_target(insn, 1, 8)?;
        if insn.mods.atomic == Some(AtomicOp::Add) && st.base == BaseType::F {
            return self.atom_fadd64(insn, mem, off, results);
        }
        // Operand components x (data, CSWAP's compare value) and y (CSWAP's new value),
        // each a pair read into xy, with the operand's modifiers applied (§2.X.4.2).
        let v = self.wide_operand(insn, 0, st.base)?;
        let h = self.hidden();
        let mut srcs = vec![src(mem, [0, 1, 2, 3]), off, v[0]];
        if irop == O::ATOMCAS {
            srcs.push(v[1]);
        }
        let mut i = ir::Instruction::new(irop, vec![dst(h, 0xF)], srcs);
        i.mem = Some(crate::atomic64::wide_mem_info(st.base == BaseType::S));
        self.push(i);
        for (c, r) in results.iter().enumerate() {
            if let Some(r) = *r {
                let pair = if c == 0 { [0, 1, 0, 1] } else { [2, 3, 2, 3] };
                self.emit(O::MOV, vec![dst(r, 0b0011)], vec![src(h, pair)]);
            }
        }
        Ok(())
    }

    /// ATOM.ADD.F64 (NV_shader_atomic_float64; § ATOM `writeval = tmp0.x + result`, a
    /// binary64 addition rounded to nearest even with denormals kept, the IR's DADD) as a
    /// compare-and-swap loop of 64-bit IR ATOMCAS attempts, like `lower_mem.rs`
    /// `atom_dwrap`: from a guess `g` of the old value (+0.0 at first), CAS `g + v` in when
    /// memory holds `g` (bit for bit), and retry with the value the CAS found until it
    /// finds its guess. Each attempt is one logged atomic, so the memory model judges the
    /// history like any other; the successful attempt performs NV's transition `old → old +
    /// v` and returns `old`. It terminates as the DWRAP loop does (a round in which no
    /// attempt succeeds writes nothing).
    fn atom_fadd64(
        &mut self,
        insn: &NvInsn,
        mem: Register,
        off: ir::Src,
        results: &[Option<Register>; 4],
    ) -> Result<(), LowerError> {
        let v = self.wide_operand(insn, 0, BaseType::F)?[0];
        let zero = src(self.imm([0; 4]), [0; 4]);
        // g.xy = the guess, g.zw = the operand (read once, before the loop); n.xy = g + v;
        // h = the CAS result; f.x = found the guess.
        let (g, n, h, f) = (self.hidden(), self.hidden(), self.hidden(), self.hidden());
        self.emit(O::MOV, vec![dst(g, 0b1100)], vec![v]);
        self.emit(O::MOV, vec![dst(g, 0b0011)], vec![zero]);
        self.emit(O::BGNLOOP, vec![], vec![]);
        let (gxy, gzw) = (src(g, [0, 1, 0, 1]), src(g, [2, 3, 2, 3]));
        self.emit(O::DADD, vec![dst(n, 0b0011)], vec![gxy, gzw]);
        let mut cas = ir::Instruction::new(
            O::ATOMCAS,
            vec![dst(h, 0xF)],
            vec![src(mem, [0, 1, 2, 3]), off, gxy, src(n, [0, 1, 0, 1])],
        );
        cas.mem = Some(crate::atomic64::wide_mem_info(false));
        self.push(cas);
        let hxy = src(h, [0, 1, 0, 1]);
        self.emit(O::U64SEQ, vec![dst(f, 0b0001)], vec![hxy, gxy]);
        self.emit(O::MOV, vec![dst(g, 0b0011)], vec![hxy]);
        self.emit(O::UIF, vec![], vec![src(f, [0; 4])]);
        self.emit(O::BRK, vec![], vec![]);
        self.emit(O::ENDIF, vec![], vec![]);
        self.emit(O::ENDLOOP, vec![], vec![]);
        for (c, r) in results.iter().enumerate() {
            if let Some(r) = *r {
                let pair = if c == 0 { [0, 1, 0, 1] } else { [2, 3, 2, 3] };
                self.emit(O::MOV, vec![dst(r, 0b0011)], vec![src(h, pair)]);
            }
        }
        Ok(())
    }
}
