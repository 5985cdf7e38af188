//! Outcome sets in the comparison: the per-channel union of the oracle's
//! evaluations (`shaderdiff_oracles::interp::denormal`).
//!
//! When the oracle's outputs carry a second evaluation ([`Outputs::denormal_alternative`]:
//! denormals flushed), the engine is compared with each, and a channel disagrees only when
//! it disagrees with both. Killed-ness is not a channel: an invocation whose killed-ness
//! differs from one evaluation must agree with the other evaluation in everything.

use std::collections::BTreeSet;

use shaderdiff_oracles::Outputs;

use crate::output::Mismatch;

/// The mismatches left when the engine may match either evaluation: `first` against the
/// oracle's main evaluation, `second` against its [`Outputs::denormal_alternative`]
/// (module docs). Returns `first`'s entries for the invocations that fail both.
pub fn union(first: Vec<Mismatch>, second: &[Mismatch]) -> Vec<Mismatch> {
    if first.is_empty() || second.is_empty() {
        return Vec::new();
    }
    let killed = |ms: &[Mismatch]| -> BTreeSet<usize> {
        ms.iter()
            .filter(|m| m.register == "killed")
            .map(|m| m.invocation)
            .collect()
    };
    let invs = |ms: &[Mismatch]| -> BTreeSet<usize> { ms.iter().map(|m| m.invocation).collect() };
    let (k1, k2) = (killed(&first), killed(second));
    let (i1, i2) = (invs(&first), invs(second));
    let keys2: BTreeSet<(&str, usize, &str)> = second
        .iter()
        .map(|m| (m.register.as_str(), m.invocation, m.channel.as_str()))
        .collect();
    let mut out = Vec::new();
    for m in &first {
        let i = m.invocation;
        if !i2.contains(&i) {
            continue; // the second evaluation accepts this invocation whole
        }
        let whole = k1.contains(&i) || k2.contains(&i);
        let both = keys2.contains(&(m.register.as_str(), i, m.channel.as_str()));
        if whole || both {
            out.push(m.clone());
        }
    }
    // Kill disagreement only in the second evaluation: the invocation must match the first
    // whole, and it does not (it has mismatches there).
    if out.is_empty() && k2.iter().any(|i| i1.contains(i)) {
        out.extend(first.iter().filter(|m| k2.contains(&m.invocation)).cloned());
    }
    out
}

/// The evaluation to compare against in place of `oracle` when its alternative exists.
pub fn alternative(oracle: &Outputs) -> Option<&Outputs> {
    oracle.denormal_alternative.as_deref()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mm(register: &str, invocation: usize, channel: &str) -> Mismatch {
        Mismatch {
            engine: "e".into(),
            register: register.into(),
            invocation,
            channel: channel.into(),
            ty: "f32".into(),
            expected: "0x0".into(),
            actual: "0x1".into(),
            tolerance: "exact".into(),
            ulp_distance: None,
        }
    }

    #[test]
    fn a_channel_fails_only_when_it_fails_both_evaluations() {
        let a = vec![mm("OUT[0]", 0, "x"), mm("OUT[0]", 1, "y")];
        let b = vec![mm("OUT[0]", 0, "z"), mm("OUT[0]", 1, "y")];
        assert_eq!(union(a.clone(), &b), vec![mm("OUT[0]", 1, "y")]);
        assert!(union(a.clone(), &[]).is_empty());
        assert!(union(Vec::new(), &b).is_empty());
    }

    #[test]
    fn a_kill_disagreement_needs_the_other_evaluation_whole() {
        // Killed in the first evaluation only: channels of the second must all agree.
        let a = vec![mm("killed", 0, "x")];
        let b = vec![mm("OUT[0]", 0, "x")];
        assert_eq!(union(a.clone(), &b), a);
        // Killed in the second only, first has a channel mismatch on that invocation.
        let a2 = vec![mm("OUT[0]", 2, "w")];
        let b2 = vec![mm("killed", 2, "x")];
        assert_eq!(union(a2.clone(), &b2), a2);
    }
}
