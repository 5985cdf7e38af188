//! Pair-half flags of binary64 sets through 32-bit instructions and partial stores (rules in
//! the `wide` module docs, "Pair halves").

use super::IvVals;
use crate::interp::alu::wide::is_wide;
use crate::interp::decode::DInsn;
use crate::interp::fetch::channels;
use crate::interp::lanes::Mask;
use shaderdiff_model::Opcode;

/// Whether a move's swizzle keeps channel `c` with its partner: both written, read from one
/// pair in the same order (`.xy`, `.zw`, `.zwxy`, `.xyxy` ...).
fn keeps_pair(insn: &DInsn, c: usize) -> bool {
    let sw = insn.srcs[0].swizzle;
    let p = c ^ 1;
    insn.writemask >> p & 1 != 0
        && usize::from(sw[c]) % 2 == c % 2
        && usize::from(sw[p]) == usize::from(sw[c]) ^ 1
}

/// After the interval evaluation of the 32-bit ALU instruction `insn` (lanes `exec`; `out`'s
/// flags were cleared before the evaluation, and 64-bit instructions set their own): a MOV
/// that keeps a flagged pair together copies the two words' intervals and flags; every other
/// result channel computed from a flagged source channel is undetermined (`undet`).
pub(super) fn alu(
    insn: &DInsn,
    srcs: &[IvVals],
    exec: Mask,
    out: &mut IvVals,
    undet: &mut [Mask; 4],
) {
    if is_wide(insn.op) || srcs.is_empty() {
        return;
    }
    let is_move = insn.op == Opcode::MOV && !insn.srcs[0].abs && !insn.srcs[0].neg;
    if is_move {
        let s = &srcs[0];
        for c in channels(insn.writemask) {
            let lanes = s.half[c] & exec;
            if lanes == 0 {
                continue;
            }
            if !keeps_pair(insn, c) {
                undet[c] |= lanes;
                continue;
            }
            out.lo[c] = s.lo[c];
            out.hi[c] = s.hi[c];
            out.nan[c] = (out.nan[c] & !lanes) | (s.nan[c] & lanes);
            out.half[c] = lanes;
            undet[c] &= !lanes;
        }
        return;
    }
    let mut any: Mask = 0;
    for (k, s) in srcs.iter().enumerate() {
        for j in channels(insn.fetch_mask[k]) {
            any |= s.half[j];
        }
    }
    if any & exec != 0 {
        for c in channels(insn.writemask) {
            undet[c] |= any & exec;
        }
    }
}

/// Before storing channels `writemask` of lanes `exec` into `reg`: the partner of a written
/// channel that is not written itself loses its pair (its lanes returned per channel, to be
/// marked undefined); then the result's flags are stored.
pub(super) fn store(reg: &mut IvVals, out: &IvVals, writemask: u8, exec: Mask) -> [Mask; 4] {
    let mut orphaned = [0 as Mask; 4];
    for c in channels(writemask) {
        let p = c ^ 1;
        if writemask >> p & 1 == 0 {
            orphaned[p] |= reg.half[p] & exec;
            reg.half[p] &= !exec;
        }
    }
    for c in channels(writemask) {
        reg.half[c] = (reg.half[c] & !exec) | (out.half[c] & exec);
    }
    orphaned
}
