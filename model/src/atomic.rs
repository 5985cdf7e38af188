//! Atomic operations as data: which operation a TGSI atomic opcode performs, the width and
//! place of its location, and the record an engine logs for each executed atomic (read by
//! the atomic-aware comparator).
//!
//! Source: tgsi.rst "Atomic opcodes"; NV_shader_atomic_int64 / NV_shader_atomic_float(64)
//! use the same operations at [`AtomicWidth::W64`]. The *arithmetic* (what a location holds
//! after an atomic, what the instruction returns) is not here: the oracle and each engine
//! implement it themselves, so comparing them can catch a wrong formula.

use std::fmt;

use crate::Opcode;

use crate::io::RegKey;

/// The operation an atomic performs on its location (tgsi.rst "Atomic opcodes").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum AtomicOp {
    /// `ATOMUADD`: `old + src`, wrapping.
    Add,
    /// `ATOMFADD`: `old + src` as IEEE binary32 (binary64 at [`AtomicWidth::W64`]), round to
    /// nearest even.
    FAdd,
    /// `ATOMXCHG`: `src`.
    Xchg,
    /// `ATOMCAS`: `old == cmp ? src : old`.
    CmpXchg,
    /// `ATOMAND`: `old & src`.
    And,
    /// `ATOMOR`: `old | src`.
    Or,
    /// `ATOMXOR`: `old ^ src`.
    Xor,
    /// `ATOMUMIN`: unsigned minimum.
    UMin,
    /// `ATOMUMAX`: unsigned maximum.
    UMax,
    /// `ATOMIMIN`: signed (two's-complement) minimum.
    IMin,
    /// `ATOMIMAX`: signed (two's-complement) maximum.
    IMax,
    /// `ATOMINC_WRAP`: `old + 1 <= src ? old + 1 : 0` (unsigned; `old + 1` wraps).
    IncWrap,
    /// `ATOMDEC_WRAP`: `old > 0 && old < src ? old - 1 : 0` (unsigned).
    DecWrap,
}

/// Width of the location an atomic updates.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub enum AtomicWidth {
    /// One 32-bit word (every TGSI atomic; tgsi.rst: "may only be used with 32-bit integer
    /// image formats").
    #[default]
    W32,
    /// Two consecutive words, low word first (NV `ATOM.U64`/`.S64`/`.F64`).
    W64,
}

impl AtomicWidth {
    /// All-ones mask of the width: `0xffff_ffff` or `u64::MAX`.
    pub fn mask(self) -> u64 {
        match self {
            AtomicWidth::W32 => 0xffff_ffff,
            AtomicWidth::W64 => u64::MAX,
        }
    }

    /// Size of the location in bytes (4 or 8).
    pub fn bytes(self) -> usize {
        match self {
            AtomicWidth::W32 => 4,
            AtomicWidth::W64 => 8,
        }
    }
}

/// Every TGSI atomic opcode (tgsi.rst "Atomic opcodes"), in the order of that section's
/// operations here ([`AtomicOp::from_opcode`] maps each one).
pub const ATOMIC_OPCODES: [Opcode; 13] = [
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
    Opcode::ATOMINC_WRAP,
    Opcode::ATOMDEC_WRAP,
    Opcode::ATOMFADD,
];

impl AtomicOp {
    /// The operation of a TGSI atomic opcode; `None` for any other opcode.
    pub fn from_opcode(op: Opcode) -> Option<AtomicOp> {
        Some(match op {
            Opcode::ATOMUADD => AtomicOp::Add,
            Opcode::ATOMFADD => AtomicOp::FAdd,
            Opcode::ATOMXCHG => AtomicOp::Xchg,
            Opcode::ATOMCAS => AtomicOp::CmpXchg,
            Opcode::ATOMAND => AtomicOp::And,
            Opcode::ATOMOR => AtomicOp::Or,
            Opcode::ATOMXOR => AtomicOp::Xor,
            Opcode::ATOMUMIN => AtomicOp::UMin,
            Opcode::ATOMUMAX => AtomicOp::UMax,
            Opcode::ATOMIMIN => AtomicOp::IMin,
            Opcode::ATOMIMAX => AtomicOp::IMax,
            Opcode::ATOMINC_WRAP => AtomicOp::IncWrap,
            Opcode::ATOMDEC_WRAP => AtomicOp::DecWrap,
            _ => return None,
        })
    }

    /// The TGSI opcode name (`ATOMUADD` ...), for reports.
    pub fn name(self) -> &'static str {
        match self {
            AtomicOp::Add => "ATOMUADD",
            AtomicOp::FAdd => "ATOMFADD",
            AtomicOp::Xchg => "ATOMXCHG",
            AtomicOp::CmpXchg => "ATOMCAS",
            AtomicOp::And => "ATOMAND",
            AtomicOp::Or => "ATOMOR",
            AtomicOp::Xor => "ATOMXOR",
            AtomicOp::UMin => "ATOMUMIN",
            AtomicOp::UMax => "ATOMUMAX",
            AtomicOp::IMin => "ATOMIMIN",
            AtomicOp::IMax => "ATOMIMAX",
            AtomicOp::IncWrap => "ATOMINC_WRAP",
            AtomicOp::DecWrap => "ATOMDEC_WRAP",
        }
    }

    /// Whether any two applications commute (`f(f(m, a), b) == f(f(m, b), a)` for all
    /// `m, a, b`), so that the final memory of a set of them does not depend on their order:
    /// add, and, or, xor, min and max. FADD is not (rounding depends on the order).
    pub fn commutes(self) -> bool {
        matches!(
            self,
            AtomicOp::Add
                | AtomicOp::And
                | AtomicOp::Or
                | AtomicOp::Xor
                | AtomicOp::UMin
                | AtomicOp::UMax
                | AtomicOp::IMin
                | AtomicOp::IMax
        )
    }
}

/// Where an atomic's location lives.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Space {
    /// A TGSI `BUFFER[n]` or `MEMORY[n]` resource (for `MEMORY[n], SHARED`: workgroup 0's
    /// copy, the one `Outputs::buffers` reports).
    Resource(RegKey),
    /// The copy of `MEMORY[n], SHARED` of workgroup `.1` (1 or more). Its final contents
    /// are not reported, so comparators cannot judge its atomics; keeping it apart stops
    /// them from being mixed with workgroup 0's.
    Workgroup(RegKey, u32),
    /// NV global memory (absolute addresses).
    Global,
}

/// One memory location: space, byte offset and width.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Location {
    /// Resource or global memory.
    pub space: Space,
    /// Byte offset in the resource (absolute address for [`Space::Global`]).
    pub offset: u64,
    /// 32 or 64 bits.
    pub width: AtomicWidth,
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.space {
            Space::Resource(k) => write!(f, "{k}+{:#x}", self.offset)?,
            Space::Workgroup(k, w) => write!(f, "{k} of workgroup {w}+{:#x}", self.offset)?,
            Space::Global => write!(f, "global {:#x}", self.offset)?,
        }
        if self.width == AtomicWidth::W64 {
            write!(f, " (64-bit)")?;
        }
        Ok(())
    }
}

/// One executed atomic, as an engine reports it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct AtomicRecord {
    /// The location updated.
    pub location: Location,
    /// The invocation that executed it.
    pub invocation: u32,
    /// Its position in the invocation's program order (any increasing numbering: the
    /// dynamic count of atomics the invocation executed before it works).
    pub seq: u32,
    /// The operation.
    pub op: AtomicOp,
    /// The data operand (`src_x`; ATOMCAS: the value stored on a match).
    pub src: u64,
    /// ATOMCAS's compare operand; 0 for the other operations.
    pub cmp: u64,
    /// The value the location held just before the atomic (what it read).
    pub old: u64,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn atomic_opcodes_are_exactly_the_mapped_ones() {
        let mapped: Vec<Opcode> = crate::ALL_OPCODES
            .iter()
            .copied()
            .filter(|&op| AtomicOp::from_opcode(op).is_some())
            .collect();
        assert_eq!(mapped.len(), ATOMIC_OPCODES.len());
        for op in ATOMIC_OPCODES {
            assert!(mapped.contains(&op), "{op}");
        }
    }
}
