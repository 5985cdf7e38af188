//! Known deviations in a live comparison: an engine's mismatch that a known-deviation rule
//! covers is reported [`Outcome::Known`] (with the rule ids), not as a divergence.
//!
//! The rules themselves live outside this crate (`results/triage/ENGINE/*.toml`, loaded and
//! matched by the harness, docs/triage.md); the [`crate::diff::Differ`] only asks a
//! [`KnownDeviations`] for the rules covering a program once an engine mismatched on it.
//! Failures (compile errors, traps, crashes) are never covered: a rule describes a value
//! the driver computes.

use std::sync::Arc;

use shaderdiff_model::Program;

use crate::diff::Outcome;

/// Rules that cover an engine's departures from the specification.
pub trait KnownDeviations: Send + Sync {
    /// The ids of the rules of `engine` that cover `program` (empty: none does).
    fn covering(&self, engine: &str, program: &Program) -> Vec<String>;
}

/// A shared classifier, as the [`crate::diff::Differ`] keeps it.
pub type SharedKnown = Arc<dyn KnownDeviations>;

/// `outcome` of `engine` on `program` with a mismatch that `known` covers turned into
/// [`Outcome::Known`]; every other outcome unchanged.
pub fn classify(
    known: Option<&dyn KnownDeviations>,
    engine: &str,
    program: &Program,
    outcome: Outcome,
) -> Outcome {
    let (Some(k), Outcome::Mismatch(mismatches)) = (known, &outcome) else {
        return outcome;
    };
    let rules = k.covering(engine, program);
    if rules.is_empty() {
        return outcome;
    }
    Outcome::Known {
        rules,
        mismatches: mismatches.clone(),
    }
}
