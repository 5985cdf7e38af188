//! Inter-lane votes: TGSI VOTE_ANY, VOTE_ALL, VOTE_EQ and READ_FIRST (tgsi.rst
//! "Inter-lane opcodes"), which the NV lowering also uses for NV_gpu_program5's TGALL,
//! TGANY and TGEQ (NV_gpu_program5 §2.X.8.Z).
//!
//! # The thread-group model
//!
//! Which invocations form a group is implementation-defined (NV_gpu_program5 §2.X.8.Z,
//! TGALL: "The method used to arrange threads into groups is undefined"; tgsi.rst speaks of
//! "the active invocations"). shaderdiff's model (README, "Additions to INTERFACE.md"): a
//! group is any set of invocations that execute the instruction together, the invocation
//! itself included, within one aligned block of [`LANES`] invocations (the jit groups the
//! invocations of a quad, valhall the 16 threads of a warp). Invocations that do not
//! execute the instruction (other side of a branch, finished) have no bearing on it.
//! Killed and demoted invocations (they may linger as helpers) and unconstrained ones
//! (their control flow is not known) may or may not take part, with values not known.
//!
//! The oracle gives a result only where every such grouping gives the same one; other
//! result channels are undefined:
//!
//! * VOTE_ANY: TRUE if the invocation's own value is set; FALSE if no possible member's
//!   value is set; else undefined (a group of one says FALSE, a larger one TRUE).
//! * VOTE_ALL: FALSE if the own value is not set; TRUE if every possible member's is;
//!   else undefined.
//! * VOTE_EQ, READ_FIRST: defined when every possible member holds the invocation's own
//!   value bit for bit (TRUE, and that value); else undefined.
//!
//! "Set" means a nonzero 32-bit word (TGSI booleans are `~0` / `0`); TRUE is `0xffffffff`
//! and FALSE `0`, as TGSI's integer comparisons (USEQ ...) produce.

use super::decode::DInsn;
use super::fetch::channels;
use super::lanes::{Mask, LANES};
use super::state::Machine;
pub use shaderdiff_model::check::vote::VoteOp;

/// TRUE of the inter-lane votes.
const TRUE: u32 = u32::MAX;

/// The result for one lane, given its own value and the values of the invocations
/// certainly in its group's candidates (`known`, own included) and whether some
/// invocations with unknown values or membership (`wild`) may take part. `None`:
/// undefined.
fn decide(op: VoteOp, own: u32, known: &[u32], wild: bool) -> Option<u32> {
    let set = |v: u32| v != 0;
    match op {
        VoteOp::Any if set(own) => Some(TRUE),
        VoteOp::Any => (!wild && !known.iter().any(|&v| set(v))).then_some(0),
        VoteOp::All if !set(own) => Some(0),
        VoteOp::All => (!wild && known.iter().all(|&v| set(v))).then_some(TRUE),
        VoteOp::Eq | VoteOp::ReadFirst => {
            let same = !wild && known.iter().all(|&v| v == own);
            same.then_some(if op == VoteOp::Eq { TRUE } else { own })
        }
    }
}

impl Machine<'_> {
    /// Executes a vote for the executing lanes of the chunk (module docs).
    pub(crate) fn vote(&mut self, insn: &DInsn, op: VoteOp) {
        let bad = self.mem_sources(insn);
        let exec = self.exec;
        // Lanes whose membership or value is not known.
        let lingering = (self.killed | self.demoted | self.unconstrained) & !exec;
        let mut und = [0 as Mask; 4];
        let mut known = Vec::with_capacity(LANES);
        for c in channels(insn.writemask) {
            let vals = self.s.srcs[0][c];
            let unknown_val = (bad[0][c] | self.unconstrained | self.demoted) & exec;
            let certain = exec & !unknown_val;
            known.clear();
            known.extend(
                (0..LANES)
                    .filter(|l| certain >> l & 1 != 0)
                    .map(|l| vals[l]),
            );
            let wild = lingering != 0 || unknown_val != 0;
            for (l, &own) in vals.iter().enumerate() {
                if exec >> l & 1 == 0 {
                    continue;
                }
                let own_known = unknown_val >> l & 1 == 0;
                let r = if own_known {
                    decide(op, own, &known, wild)
                } else {
                    None
                };
                match r {
                    Some(v) => self.s.out[c][l] = v,
                    None => {
                        self.s.out[c][l] = 0;
                        und[c] |= 1 << l;
                    }
                }
            }
        }
        self.mem_result(insn, und);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // Cases worked from the module docs' rules (tgsi.rst "Inter-lane opcodes",
    // NV_gpu_program5 §2.X.8.Z: groups are implementation-defined).
    #[test]
    fn any_is_decided_by_own_set_value_or_a_unanimous_unset() {
        assert_eq!(decide(VoteOp::Any, 5, &[5, 0], false), Some(TRUE));
        assert_eq!(decide(VoteOp::Any, 0, &[0, 0], false), Some(0));
        assert_eq!(decide(VoteOp::Any, 0, &[0, 1], false), None);
        assert_eq!(decide(VoteOp::Any, 0, &[0, 0], true), None);
        assert_eq!(decide(VoteOp::Any, 1, &[1], true), Some(TRUE));
    }

    #[test]
    fn all_is_decided_by_own_unset_value_or_a_unanimous_set() {
        assert_eq!(decide(VoteOp::All, 0, &[0, 7], false), Some(0));
        assert_eq!(decide(VoteOp::All, 7, &[7, 0x8000_0000], false), Some(TRUE));
        assert_eq!(decide(VoteOp::All, 7, &[7, 0], false), None);
        assert_eq!(decide(VoteOp::All, 7, &[7], true), None);
        assert_eq!(decide(VoteOp::All, 0, &[0], true), Some(0));
    }

    #[test]
    fn eq_and_read_first_need_identical_bits() {
        assert_eq!(decide(VoteOp::Eq, 3, &[3, 3], false), Some(TRUE));
        assert_eq!(decide(VoteOp::Eq, 3, &[3, 4], false), None);
        // +0.0 and -0.0 differ bit for bit.
        assert_eq!(decide(VoteOp::Eq, 0, &[0, 0x8000_0000], false), None);
        assert_eq!(decide(VoteOp::ReadFirst, 9, &[9, 9], false), Some(9));
        assert_eq!(decide(VoteOp::ReadFirst, 9, &[9, 9], true), None);
    }
}
