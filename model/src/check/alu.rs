//! Which opcodes the ALU of every engine evaluates, and how source modifiers apply to their
//! operands: the facts the pre-run checks ([`super::decode`]) and each engine's own ALU share.
//! The arithmetic itself is each engine's (the oracle's in its `interp::alu`).

use crate::{Opcode, ScalarType};

use super::FetchType;
pub use crate::wide;

/// How source modifiers apply to source `src` of `op`: `Float` (abs clears bit 31, negate
/// flips it) or `Int` (two's-complement abs/negate).
///
/// tgsi.rst "Source Modifiers": the type is `tgsi_opcode_infer_src_type()` (the `src_types`
/// column of opcodes.csv), with MOV and UCMP's second and third operands counted as float.
/// UCMP's first operand is fetched as an integer (EXEC-NOTES.md §1, §12.16), so `-src0`
/// negates the integer. Untyped, float and double sources, and sources past the opcode's
/// count, are `Float`.
pub fn fetch_type(op: Opcode, src: usize) -> FetchType {
    if op == Opcode::UCMP {
        return if src == 0 {
            FetchType::Int
        } else {
            FetchType::Float
        };
    }
    match op.info().src_types.get(src).copied().flatten() {
        Some(ScalarType::I32 | ScalarType::U32 | ScalarType::I64 | ScalarType::U64) => {
            FetchType::Int
        }
        _ => FetchType::Float,
    }
}

/// Whether `op` is an ALU opcode every engine evaluates (the oracle's `interp::alu::eval`
/// implements exactly these).
pub fn is_alu(op: Opcode) -> bool {
    use Opcode::*;
    matches!(
        op,
        // Float arithmetic, comparisons, rounding (float.rs)
        MOV | ABS | ADD | SUB | MUL | DIV | MAD | FMA | LRP | MIN | MAX
            | SLT | SGE | SGT | SLE | SEQ | SNE | FSLT | FSGE | FSEQ | FSNE
            | CMP | SSG | RCP | RSQ | SQRT | FLR | CEIL | TRUNC | ROUND | FRC | LDEXP
            | DP2 | DP3 | DP4 | DPH | DST | XPD
            // Transcendentals and LIT/EXP/LOG (special.rs)
            | EX2 | LG2 | POW | SIN | COS | EXP | LOG | LIT
            // Conversions, address loads, pack/unpack (convert.rs)
            | I2F | U2F | F2I | F2U | ARL | ARR | UARL | PK2H | UP2H | PK2US | PK4B | PK4UB
            // Integer and bit opcodes (int.rs)
            | UADD | UMUL | UMAD | IMUL_HI | UMUL_HI | IDIV | MOD | UDIV | UMOD
            | INEG | IABS | ISSG | IMAX | IMIN | UMAX | UMIN
            | ISGE | ISLT | USEQ | USNE | USGE | USLT
            | NOT | AND | OR | XOR | SHL | USHR | ISHR | UCMP
            | UBFE | IBFE | BFI | BREV | POPC | LSB | UMSB | IMSB
    ) || crate::wide::is_wide(op)
}
