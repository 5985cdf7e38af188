//! How each 64-bit TGSI opcode maps source channels to destination channels (tgsi.rst
//! "Double ISA" and "64-bit Integer ISA": a 64-bit value is the channel pair xy or zw, low
//! word first). One table for every engine; where tgsi.rst and tgsi_exec disagree (the zw
//! shift count, the channels comparisons and narrowing conversions write) the engines cite
//! their resolution beside their use of it (oracle/src/interp/alu/wide.rs).

use crate::opcode::Opcode;

/// How a 64-bit opcode maps source channels to destination channels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layout64 {
    /// Destination pair p from source pair p of every source.
    Pair,
    /// DLDEXP: pair p of src0, channel 2p of src1 (x or z).
    Ldexp,
    /// U64SHL U64SHR I64SHR: pair p of src0; count src1.x (xy) or src1.z = src1.y (zw).
    Shift,
    /// Comparisons: `dst.x` from pair xy, `dst.z` from pair zw.
    Compare,
    /// 64 → 32-bit conversions: `dst.x` from src.xy, `dst.y` from src.zw.
    Narrow,
    /// 32 → 64-bit conversions: `dst.xy` from src.x, `dst.zw` from src.y.
    Widen,
}

/// The layout of `op`, or `None` if it is not a 64-bit opcode this module evaluates.
pub fn layout(op: Opcode) -> Option<Layout64> {
    use Opcode::*;
    Some(match op {
        DABS | DNEG | DADD | DMUL | DDIV | DMAD | DFMA | DMIN | DMAX | DRCP | DSQRT | DRSQ
        | DFRAC | DTRUNC | DCEIL | DFLR | DROUND | DSSG | I64ABS | I64NEG | I64SSG | U64ADD
        | U64MUL | I64MIN | I64MAX | U64MIN | U64MAX | I64DIV | I64MOD | U64DIV | U64MOD
        | D2I64 | D2U64 | I642D | U642D => Layout64::Pair,
        DLDEXP => Layout64::Ldexp,
        U64SHL | U64SHR | I64SHR => Layout64::Shift,
        DSEQ | DSNE | DSLT | DSGE | U64SEQ | U64SNE | U64SLT | U64SGE | I64SLT | I64SGE => {
            Layout64::Compare
        }
        D2F | D2I | D2U | U642F | I642F => Layout64::Narrow,
        F2D | I2D | U2D | F2I64 | F2U64 | I2I64 | U2I64 => Layout64::Widen,
        _ => return None,
    })
}

/// Whether `op` is a 64-bit opcode every engine evaluates (every double and 64-bit integer
/// opcode of opcodes.csv).
pub fn is_wide(op: Opcode) -> bool {
    layout(op).is_some()
}

/// Why every engine refuses this form of a 64-bit instruction, if it does: `_SAT` on a
/// 64-bit result ("The saturate modifier clamps 32-bit destination stores", tgsi.rst "Other
/// Modifiers"; clamping half of a double has no defined meaning). Results of 32-bit type
/// (D2F's, comparisons') take `_SAT` as usual.
///
/// Source modifiers on 64-bit operands are not refused: tgsi.rst describes only 32-bit ones
/// and tgsi_exec ignores them (EXEC-NOTES.md §6), but real programs (radeonsi's
/// `U64ADD ..., -TEMP[2]`) need them; [`crate::wide_modifiers`] gives them their
/// 64-bit meaning before any engine decodes the program.
pub fn unsupported_form(insn: &crate::Instruction) -> Option<&'static str> {
    let info = insn.opcode.info();
    if !is_wide(insn.opcode) {
        return None;
    }
    if insn.saturate != crate::Saturate::None && info.dst_type.is_some_and(|t| t.is_64bit()) {
        return Some("saturate on a 64-bit result (tgsi.rst: saturate clamps 32-bit stores)");
    }
    None
}
