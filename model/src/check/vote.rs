//! The inter-lane opcodes (tgsi.rst "Inter-lane opcodes") as the pre-run checks decode them.

/// Which inter-lane operation (tgsi.rst "Inter-lane opcodes").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VoteOp {
    /// VOTE_ANY: the value is set in any active invocation.
    Any,
    /// VOTE_ALL: the value is set in all active invocations.
    All,
    /// VOTE_EQ: the value is the same in all active invocations.
    Eq,
    /// READ_FIRST: the value of the first active invocation.
    ReadFirst,
}

impl VoteOp {
    /// The operation of a TGSI opcode, if it is one of these.
    pub fn of(op: crate::Opcode) -> Option<VoteOp> {
        use crate::Opcode::*;
        Some(match op {
            VOTE_ANY => VoteOp::Any,
            VOTE_ALL => VoteOp::All,
            VOTE_EQ => VoteOp::Eq,
            READ_FIRST => VoteOp::ReadFirst,
            _ => return None,
        })
    }
}
