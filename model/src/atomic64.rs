//! 64-bit atomics in the IR (NV_gpu_program5 § ATOM `U64`; NV_shader_atomic_int64 `S64`
//! and `U64` forms of ATOM, ATOMS and ATOMB).
//!
//! tgsi.rst's atomics update one 32-bit word. The IR marks an atomic on a 64-bit location
//! with the memory format of its instruction's memory extras (TEXT-FORMAT.md §7.6, the
//! `PIPE_FORMAT_*` name that image atomics already carry): [`FORMAT_U64`]
//! (`PIPE_FORMAT_R64_UINT`) or [`FORMAT_S64`] (`PIPE_FORMAT_R64_SINT`) on an integer atomic
//! opcode (ATOMUADD, ATOMXCHG, ATOMCAS, ATOMAND, ATOMOR, ATOMXOR, ATOMUMIN, ATOMUMAX,
//! ATOMIMIN, ATOMIMAX) of a BUFFER or MEMORY resource. The operands then follow tgsi.rst's
//! 64-bit layout ("Double ISA": a value is a channel pair, low word first):
//!
//! * `src1.x`: the byte offset (a multiple of 8; the memory model treats others like the
//!   32-bit forms treat unaligned offsets);
//! * `src2.xy`: the data operand (ATOMCAS: the compare value);
//! * `src3.xy` (ATOMCAS): the value stored on a match;
//! * `dst.xy`: the 64-bit value the location held (low word in `x`); `dst.z`, `dst.w`
//!   undefined. As for the 32-bit forms the atomic is performed only when the write mask
//!   has `x`.
//!
//! The formulas are tgsi.rst's, at 64 bits (`shaderdiff_oracles::atomic`,
//! `AtomicWidth::W64`); the format's signedness is informative (the opcode already says
//! whether MIN / MAX compare signed). In TGSI text the format follows the operands like an
//! image atomic's: `ATOMUADD TEMP[0].xy, BUFFER[0], TEMP[1].xxxx, TEMP[2].xyxy,
//! PIPE_FORMAT_R64_UINT`.

use crate::opcode::Opcode;
use crate::program::{Instruction, MemInfo};

/// The memory format of an unsigned 64-bit atomic.
pub const FORMAT_U64: &str = "PIPE_FORMAT_R64_UINT";
/// The memory format of a signed 64-bit atomic.
pub const FORMAT_S64: &str = "PIPE_FORMAT_R64_SINT";

/// The integer atomic opcodes that take a 64-bit location (tgsi.rst "Atomic opcodes" with
/// memory extras; NV_shader_atomic_int64's operations). ATOMFADD, ATOMINC_WRAP and
/// ATOMDEC_WRAP take no memory extras in TGSI text and stay 32-bit.
pub const WIDE_ATOMIC_OPCODES: [Opcode; 10] = [
    Opcode::ATOMUADD,
    Opcode::ATOMXCHG,
    Opcode::ATOMCAS,
    Opcode::ATOMAND,
    Opcode::ATOMOR,
    Opcode::ATOMXOR,
    Opcode::ATOMUMIN,
    Opcode::ATOMUMAX,
    Opcode::ATOMIMIN,
    Opcode::ATOMIMAX,
];

/// Whether `insn` is a 64-bit atomic: one of [`WIDE_ATOMIC_OPCODES`] whose memory format
/// is [`FORMAT_U64`] or [`FORMAT_S64`] (module docs).
pub fn is_wide_atomic(insn: &Instruction) -> bool {
    WIDE_ATOMIC_OPCODES.contains(&insn.opcode)
        && insn
            .mem
            .as_ref()
            .and_then(|m| m.format.as_deref())
            .is_some_and(|f| f == FORMAT_U64 || f == FORMAT_S64)
}

/// The memory extras that make an integer atomic 64-bit (`signed`: [`FORMAT_S64`], else
/// [`FORMAT_U64`]).
pub fn wide_mem_info(signed: bool) -> MemInfo {
    MemInfo {
        format: Some(if signed { FORMAT_S64 } else { FORMAT_U64 }.to_string()),
        ..MemInfo::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::program::Instruction;

    #[test]
    fn only_integer_atomics_with_a_64_bit_format_are_wide() {
        let mut i = Instruction::new(Opcode::ATOMUADD, vec![], vec![]);
        assert!(!is_wide_atomic(&i));
        i.mem = Some(wide_mem_info(false));
        assert!(is_wide_atomic(&i));
        i.mem = Some(wide_mem_info(true));
        assert!(is_wide_atomic(&i));
        // A 32-bit image format does not make it wide.
        i.mem = Some(MemInfo {
            format: Some("PIPE_FORMAT_R32_UINT".into()),
            ..MemInfo::default()
        });
        assert!(!is_wide_atomic(&i));
        // ATOMFADD has no memory extras in TGSI text.
        let mut f = Instruction::new(Opcode::ATOMFADD, vec![], vec![]);
        f.mem = Some(wide_mem_info(false));
        assert!(!is_wide_atomic(&f));
    }
}
