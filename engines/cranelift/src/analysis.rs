//! Static facts the lowering needs about a program's control flow: the structure (matching
//! block instructions), which subroutines may kill or end invocations, and which
//! ranges of instructions may take invocations away for good (KILL, END, RET ...), which
//! decides where stores need no execution mask.

use shaderdiff_model::check::MAX_CALL_DEPTH;
use shaderdiff_model::{Opcode, Program, Structure};

/// Control-flow facts of a program (see the module docs).
#[derive(Clone, Debug)]
pub(crate) struct Analysis {
    /// Matching of block instructions (tgsi.rst "Control flow").
    pub structure: Structure,
    /// `lose_before[i]`: number of instructions before `i` that may terminate or park
    /// invocations outside their construct (KILL, KILL_IF, END, RET, or CAL of a subroutine
    /// that may kill or end invocations).
    lose_before: Vec<u32>,
    /// Per instruction index of a BGNSUB: the subroutine may kill or end invocations
    /// (directly or through calls). RET does not count: its invocations return.
    sub_loses: Vec<bool>,
}

fn is_kill_or_end(op: Opcode) -> bool {
    matches!(
        op,
        Opcode::KILL | Opcode::KILP | Opcode::KILL_IF | Opcode::KIL | Opcode::END
    )
}

impl Analysis {
    /// Analyses `program`; `None` when its control-flow structure is malformed (the oracle's
    /// checks report that with a position).
    pub fn new(program: &Program) -> Option<Analysis> {
        let st = Structure::analyse(program).ok()?;
        let insns = &program.instructions;
        let n = insns.len();
        // A subroutine loses invocations if it kills or ends them, or calls one that does:
        // a least fixpoint (recursive calls converge, as the flags only ever turn on).
        let mut sub_loses = vec![false; n];
        let mut changed = true;
        while changed {
            changed = false;
            for s in &st.subroutines {
                let (b, e) = (s.begin as usize, s.end as usize);
                if sub_loses[b] {
                    continue;
                }
                let loses = (b..=e).any(|i| {
                    let op = insns[i].opcode;
                    is_kill_or_end(op) || (op == Opcode::CAL && sub_loses[st.partner[i] as usize])
                });
                if loses {
                    sub_loses[b] = true;
                    changed = true;
                }
            }
        }
        let mut lose_before = Vec::with_capacity(n + 1);
        let mut count = 0u32;
        for insn in insns.iter().enumerate() {
            lose_before.push(count);
            let (i, insn) = insn;
            let op = insn.opcode;
            if is_kill_or_end(op)
                || op == Opcode::RET
                || (op == Opcode::CAL && sub_loses[st.partner[i] as usize])
            {
                count += 1;
            }
        }
        lose_before.push(count);
        Some(Analysis {
            structure: st,
            lose_before,
            sub_loses,
        })
    }

    /// Whether instructions `start..end` may remove invocations from the construct that
    /// contains them for good.
    pub fn range_loses(&self, start: usize, end: usize) -> bool {
        let end = end.min(self.lose_before.len() - 1);
        start < end && self.lose_before[end] > self.lose_before[start]
    }

    /// Whether the subroutine starting at BGNSUB `begin` may kill or end invocations.
    pub fn sub_loses(&self, begin: usize) -> bool {
        self.sub_loses.get(begin).copied().unwrap_or(true)
    }

    /// An upper bound of the instructions the lowering emits for `program` with every
    /// subroutine call inlined (recursion up to the oracle's call depth, beyond which a
    /// CAL is not inlined), saturated at `limit + 1`. Checked before lowering so that
    /// exponential inlining is rejected at once.
    pub fn inlined_size(&self, program: &Program, limit: u64) -> u64 {
        use std::collections::HashMap;
        let insns = &program.instructions;
        let st = &self.structure;
        let mut in_sub = vec![false; insns.len()];
        for s in &st.subroutines {
            for f in in_sub
                .iter_mut()
                .take(s.end as usize + 1)
                .skip(s.begin as usize)
            {
                *f = true;
            }
        }
        // est(sub, depth): instructions of one inlined call of `sub` made at call depth `depth`.
        fn est(
            an: &Analysis,
            insns: &[shaderdiff_model::Instruction],
            sub: usize,
            depth: usize,
            limit: u64,
            memo: &mut HashMap<(usize, usize), u64>,
        ) -> u64 {
            if depth >= MAX_CALL_DEPTH {
                return 0;
            }
            if let Some(&v) = memo.get(&(sub, depth)) {
                return v;
            }
            let end = an.partner(sub);
            let mut total = (end - sub + 1) as u64;
            for i in sub + 1..end {
                if insns[i].opcode == Opcode::CAL && total <= limit {
                    let t = an.partner(i);
                    total = total.saturating_add(est(an, insns, t, depth + 1, limit, memo));
                }
            }
            let total = total.min(limit + 1);
            memo.insert((sub, depth), total);
            total
        }
        let mut memo = HashMap::new();
        let mut total = 0u64;
        for (i, insn) in insns.iter().enumerate() {
            if in_sub[i] {
                continue;
            }
            total += 1;
            if insn.opcode == Opcode::CAL && total <= limit {
                let t = self.partner(i);
                total = total.saturating_add(est(self, insns, t, 0, limit, &mut memo));
            }
        }
        total.min(limit + 1)
    }

    /// Matching partner of instruction `i` (see [`Structure::partner`]).
    pub fn partner(&self, i: usize) -> usize {
        self.structure.partner[i] as usize
    }
}
