//! 64-bit atomics (`shaderdiff_model::atomic64`: an integer atomic with the memory format
//! `PIPE_FORMAT_R64_UINT` / `_SINT`; operands and result in channel pairs `xy`) →
//! `ATOM_RETURN.i64`.
//!
//! ISA.xml has `ATOM_RETURN.i64` (opcode 0x120, secondary opcode 5 in the `memory_width`
//! bits 27–29, ENCODING.md §"secondary opcodes") with the same `Atomic operation` enum as
//! the `.i32` form, so every 64-bit IR atomic is one instruction: `aadd`, `asmin`, `asmax`,
//! `aumin`, `aumax`, `aand`, `aor`, `axor`, `axchg`, and `axchg.compare` for ATOMCAS
//! (SEMANTICS.md §8: the read staging run holds the new value, then the compare value
//! \[Mesa usage\], each a register pair, low word first; the old value is returned in the
//! write run). Staging: the read run is `r56:r57` (`r56`…`r59` for ATOMCAS); the write run
//! is `r56:r57` too (the message reads its operands before it returns the old value;
//! ENCODING.md §6: a run of more than one register starts at an even register).
//!
//! The rest is the 32-bit atomic's ([`super::memory`]): the sequence marker, the bounds
//! check (`offset + 8 <= size`), nothing performed without `x` in the write mask or out of
//! range (the result is then 0), the access log ([`Site::Atomic64`]).

use shaderdiff_model::atomic::AtomicOp;
use shaderdiff_model::check::FetchType;
use shaderdiff_model::{Instruction, Pos};

use super::abi::STAGING_REG;
use super::lower::Lower;
use super::memory::{hardware_op, Site};
use super::vcode::{VDst, VSrc, Val};
use super::CompileError;

impl Lower<'_> {
    /// A 64-bit atomic (module docs): `dst.x` = the old value's low word, `dst.y` its high
    /// word; `z`, `w` (undefined in the oracle) get the low word.
    pub(super) fn mem_atomic64(
        &mut self,
        insn: &Instruction,
        op: AtomicOp,
        pos: Option<Pos>,
    ) -> Result<(), CompileError> {
        let (res, dst) = self.atomic_operands(insn, op, pos)?;
        let Some((name, compare)) = hardware_op(op) else {
            return Err(CompileError::Internal(format!(
                "{} has no 64-bit form",
                insn.opcode
            )));
        };
        self.marker();
        let wm = dst.writemask & 0xF;
        let ret = [self.zeroed(), self.zeroed()];
        if wm & 1 != 0 {
            let off = self.fetch_as(insn, 1, 0, FetchType::Int)?;
            // The read staging run: the data operand (ATOMCAS: the new value, src3), then
            // ATOMCAS's compare value (src2); each a pair.
            let mut vals = Vec::new();
            let ks: &[usize] = if op == AtomicOp::CmpXchg {
                &[3, 2]
            } else {
                &[2]
            };
            for &k in ks {
                for c in 0..2 {
                    vals.push(self.fetch_as(insn, k, c, FetchType::Int)?);
                }
            }
            let ok = self.in_bounds(res, off, 8);
            let skip = self.code.label();
            self.code.branch(ok, true, skip);
            self.resource_address(res, off);
            // From the highest register down, so that a reload into r56 never clobbers a
            // set one.
            for (j, &v) in vals.iter().enumerate().rev() {
                self.code
                    .ins("MOV.i32", VDst::P(STAGING_REG + j as u8), &[v], &[]);
            }
            self.atom_return(name, compare, Site::Atomic64(op), true);
            // r56 first: a move into a spilled register goes through r56.
            for (k, &r) in ret.iter().enumerate() {
                let from = VSrc::new(Val::P(STAGING_REG + k as u8));
                self.code.ins("MOV.i32", VDst::V(r), &[from], &[]);
            }
            self.code.place(skip);
        }
        let results = (0..4u8)
            .filter(|c| wm >> c & 1 != 0)
            .map(|c| {
                let r = if c == 1 { ret[1] } else { ret[0] };
                (c, self.saturate(insn.saturate, VSrc::v(r)))
            })
            .collect();
        self.write_results(&dst.reg, results)
    }
}
