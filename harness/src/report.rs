//! The `diff` report of one program (INTERFACE.md "`diff --format json` output"), built from
//! the [`Diff`]s of its input sets, and its text form.
//!
//! JSON keys, in order: the INTERFACE.md fields `program`, `oracle`, `engines` (the engines
//! compared against the oracle), `verdict` (`agree` | `mismatch`, and additionally
//! `unsupported` when nothing could be compared, `error` when the oracle's own run
//! failed, and `known` when the only divergences are ones known-deviation rules cover),
//! `mismatches` (INTERFACE.md records; with several input sets each record also has
//! `input_set`, the 0-based index of the set); then the additions: `mismatch_count`
//! (all differing channels; `mismatches` lists at most [`MAX_LISTED`]), `diverged` (engines
//! that diverged), `oracle_suspect`, `input_sets`, `signatures` (per diverging engine: the
//! signature and the first diverging instruction), `failures` (engine compile errors, traps,
//! step limits), `unsupported` (engines that could not run the program, with the reason),
//! `known` (engines whose mismatch rules of `results/triage/ENGINE/` cover: engine, rule
//! ids, differing channels) and `oracle_error`.

use serde::Serialize;
use shaderdiff_compare::output::Mismatch;

use crate::diff::{Diff, OracleProblem, Outcome, ORACLE};
use crate::output::float_text;
use crate::signature::Divergence;

/// Most mismatch records listed in one report.
pub const MAX_LISTED: usize = 1000;

/// One mismatch record: INTERFACE.md's fields, plus `input_set` with several input sets.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Record {
    /// The comparator's record.
    #[serde(flatten)]
    pub mismatch: Mismatch,
    /// Index of the input set (only when there are several).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub input_set: Option<usize>,
}

/// An engine that failed where the oracle did not.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct FailureRecord {
    /// Engine.
    pub engine: String,
    /// `compile`, `trap`, `step_limit`, `call_depth`, `invalid`.
    pub kind: String,
    /// The engine's message.
    pub message: String,
    /// Index of the first input set it failed on.
    pub input_set: usize,
}

/// An engine that does not support the program.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct UnsupportedRecord {
    /// Engine.
    pub engine: String,
    /// Why.
    pub reason: String,
}

/// An engine whose mismatch known-deviation rules cover (`results/triage/ENGINE/`).
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct KnownRecord {
    /// Engine.
    pub engine: String,
    /// The ids of the covering rules.
    pub rules: Vec<String>,
    /// Its differing channels, over every input set.
    pub mismatch_count: usize,
}

/// The signature of one diverging engine.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct SignatureRecord {
    /// `ENGINE-CLASS-TYPE`.
    pub signature: String,
    /// Engine.
    pub engine: String,
    /// Index of the first diverging instruction (0-based, as `check --print` numbers it).
    pub instruction: Option<usize>,
    /// Its opcode.
    pub opcode: Option<String>,
    /// `line:col` in the program file, when known.
    pub position: Option<String>,
    /// How it was found: `probe`, `block`, `killed`, `last_writer`, `failure`, `unknown`.
    pub located: String,
}

impl SignatureRecord {
    /// The record of a located divergence.
    pub fn new(d: &Divergence, engine: &str) -> SignatureRecord {
        SignatureRecord {
            signature: d.signature.to_string(),
            engine: engine.to_string(),
            instruction: d.instruction,
            opcode: d.opcode.map(|o| o.name().to_string()),
            position: d.pos.filter(|p| p.line > 0).map(|p| p.to_string()),
            located: d.located.name().to_string(),
        }
    }
}

/// The report of one program.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct DiffReport {
    /// Program file as given.
    pub program: String,
    /// `interp`.
    pub oracle: String,
    /// Engines compared against the oracle.
    pub engines: Vec<String>,
    /// `agree`, `mismatch`, `known`, `unsupported` or `error`.
    pub verdict: String,
    /// Differing channels (at most [`MAX_LISTED`]).
    pub mismatches: Vec<Record>,
    /// All differing channels.
    pub mismatch_count: usize,
    /// Engines that diverged (mismatch or failure).
    pub diverged: Vec<String>,
    /// Every engine that ran disagrees with the oracle the same way somewhere.
    pub oracle_suspect: bool,
    /// Input sets compared.
    pub input_sets: usize,
    /// Per diverging engine: signature and first diverging instruction.
    pub signatures: Vec<SignatureRecord>,
    /// Engine failures.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub failures: Vec<FailureRecord>,
    /// Engines that do not support the program.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub unsupported: Vec<UnsupportedRecord>,
    /// Engines whose mismatch known-deviation rules cover (not divergences).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub known: Vec<KnownRecord>,
    /// Why the oracle produced nothing to compare.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub oracle_error: Option<String>,
}

impl DiffReport {
    /// Builds the report of `program` from the diffs of its input sets (one per set, engines
    /// in `engines` order) and the located divergences (`signatures`).
    pub fn new(
        program: &str,
        engines: &[String],
        diffs: &[Diff],
        signatures: Vec<SignatureRecord>,
    ) -> DiffReport {
        let many = diffs.len() > 1;
        let mut r = DiffReport {
            program: program.to_string(),
            oracle: ORACLE.to_string(),
            engines: engines.to_vec(),
            verdict: String::new(),
            mismatches: Vec::new(),
            mismatch_count: 0,
            diverged: Vec::new(),
            oracle_suspect: diffs.iter().any(|d| d.oracle_suspect),
            input_sets: diffs.len(),
            signatures,
            failures: Vec::new(),
            unsupported: Vec::new(),
            known: Vec::new(),
            oracle_error: None,
        };
        let mut compared = false;
        for (k, d) in diffs.iter().enumerate() {
            if let Err(p) = &d.oracle {
                if r.oracle_error.is_none() {
                    r.oracle_error = Some(p.message().to_string());
                }
                if let OracleProblem::Unsupported(m) = p {
                    if !r.unsupported.iter().any(|u| u.engine == ORACLE) {
                        r.unsupported.push(UnsupportedRecord {
                            engine: ORACLE.into(),
                            reason: m.clone(),
                        });
                    }
                }
                continue;
            }
            for e in &d.engines {
                match &e.outcome {
                    Outcome::Agree { .. } => compared = true,
                    Outcome::Mismatch(ms) => {
                        compared = true;
                        r.mismatch_count += ms.len();
                        for m in ms {
                            if r.mismatches.len() < MAX_LISTED {
                                r.mismatches.push(Record {
                                    mismatch: m.clone(),
                                    input_set: many.then_some(k),
                                });
                            }
                        }
                    }
                    Outcome::Known { rules, mismatches } => {
                        compared = true;
                        r.add_known(&e.engine, rules, mismatches.len());
                    }
                    Outcome::Unsupported(reason) => {
                        if !r.unsupported.iter().any(|u| u.engine == e.engine) {
                            r.unsupported.push(UnsupportedRecord {
                                engine: e.engine.clone(),
                                reason: reason.clone(),
                            });
                        }
                    }
                    Outcome::Failed { kind, message } => {
                        compared = true;
                        if !r.failures.iter().any(|f| f.engine == e.engine) {
                            r.failures.push(FailureRecord {
                                engine: e.engine.clone(),
                                kind: kind.name().into(),
                                message: message.clone(),
                                input_set: k,
                            });
                        }
                    }
                }
                if e.outcome.diverged() && !r.diverged.contains(&e.engine) {
                    r.diverged.push(e.engine.clone());
                }
            }
        }
        let oracle_failed = diffs.iter().any(|d| {
            matches!(
                d.oracle,
                Err(OracleProblem::Failed(_) | OracleProblem::BadInput(_))
            )
        });
        r.verdict = if !r.diverged.is_empty() {
            "mismatch"
        } else if oracle_failed {
            "error"
        } else if !r.known.is_empty() {
            "known"
        } else if !compared {
            "unsupported"
        } else {
            "agree"
        }
        .to_string();
        r
    }

    /// Records `engine`'s known deviation (rules `rules`, `n` differing channels).
    fn add_known(&mut self, engine: &str, rules: &[String], n: usize) {
        if !self.known.iter().any(|k| k.engine == engine) {
            self.known.push(KnownRecord {
                engine: engine.to_string(),
                rules: Vec::new(),
                mismatch_count: 0,
            });
        }
        let k = self
            .known
            .iter_mut()
            .find(|k| k.engine == engine)
            .expect("just added");
        for id in rules {
            if !k.rules.contains(id) {
                k.rules.push(id.clone());
            }
        }
        k.mismatch_count += n;
    }

    /// `known ID,ID (interp vs ENGINE)` for each known deviation, joined by `; `.
    fn known_text(&self) -> String {
        self.known
            .iter()
            .map(|k| {
                format!(
                    "known {} ({} vs {})",
                    k.rules.join(","),
                    self.oracle,
                    k.engine
                )
            })
            .collect::<Vec<_>>()
            .join("; ")
    }

    /// One line of JSON (no newline).
    pub fn to_json_line(&self) -> String {
        serde_json::to_string(self).unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"))
    }

    /// Pretty JSON with a final newline (`report.json` of a finding).
    pub fn to_json_pretty(&self) -> String {
        let mut s = serde_json::to_string_pretty(self)
            .unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"));
        s.push('\n');
        s
    }

    /// The text form: one summary line, then the signatures, failures and up to `listed`
    /// mismatch lines.
    pub fn to_text(&self, listed: usize) -> String {
        let mut out = String::new();
        let engines = if self.engines.is_empty() {
            "no engine".to_string()
        } else {
            self.engines.join(", ")
        };
        match self.verdict.as_str() {
            "agree" => out.push_str(&format!(
                "{}: agree ({} vs {engines}; {} input set{})\n",
                self.program,
                self.oracle,
                self.input_sets,
                if self.input_sets == 1 { "" } else { "s" }
            )),
            "mismatch" => out.push_str(&format!(
                "{}: MISMATCH: {} diverged from {} ({} differing channel{}){}\n",
                self.program,
                self.diverged.join(", "),
                self.oracle,
                self.mismatch_count,
                if self.mismatch_count == 1 { "" } else { "s" },
                if self.oracle_suspect {
                    "; oracle suspect: the engines agree with each other"
                } else {
                    ""
                }
            )),
            "known" => out.push_str(&format!("{}: {}\n", self.program, self.known_text())),
            "unsupported" => {
                out.push_str(&format!(
                    "{}: unsupported: nothing compared\n",
                    self.program
                ));
                // Why, when the program could not be loaded for any engine (NV assembly
                // the lowering does not support yet).
                if let Some(why) = &self.oracle_error {
                    out.push_str(&format!("  {why}\n"));
                }
            }
            _ => out.push_str(&format!(
                "{}: error: {}\n",
                self.program,
                self.oracle_error.as_deref().unwrap_or("the oracle failed")
            )),
        }
        for s in &self.signatures {
            let at = match (s.instruction, &s.opcode) {
                (Some(i), Some(op)) => format!(
                    ": first diverging instruction {i} ({op}{})",
                    s.position
                        .as_ref()
                        .map(|p| format!(" at {p}"))
                        .unwrap_or_default()
                ),
                _ => String::new(),
            };
            out.push_str(&format!("  signature {}{at}\n", s.signature));
        }
        for f in &self.failures {
            out.push_str(&format!(
                "  {} failed ({}): {}\n",
                f.engine, f.kind, f.message
            ));
        }
        for u in &self.unsupported {
            out.push_str(&format!("  {} unsupported: {}\n", u.engine, u.reason));
        }
        if !self.known.is_empty() && self.verdict != "known" {
            out.push_str(&format!("  {}\n", self.known_text()));
        }
        for rec in self.mismatches.iter().take(listed) {
            out.push_str(&format!("  {}\n", mismatch_line(rec)));
        }
        let shown = self.mismatches.len().min(listed);
        if self.mismatch_count > shown {
            out.push_str(&format!(
                "  ... {} more (--format json lists up to {MAX_LISTED})\n",
                self.mismatch_count - shown
            ));
        }
        out
    }
}

fn word_text(w: &str, ty: &str) -> String {
    let bits = u32::from_str_radix(w.trim_start_matches("0x"), 16).unwrap_or(0);
    match ty {
        "f32" | "bits" | "mixed" | "unwritten" => format!("{w} {}", float_text(bits)),
        "i32" => format!("{w} {}", bits as i32),
        // A binary64 channel pair (`0x%016x`, compare module docs).
        "f64" => match u64::from_str_radix(w.trim_start_matches("0x"), 16) {
            Ok(b) => format!("{w} {:e}", f64::from_bits(b)),
            Err(_) => w.to_string(),
        },
        _ => w.to_string(),
    }
}

/// `jit OUT[0] invocation 2 .y (f32): expected 0x3f800000 1, got 0x3f800001 1.0000001 (exact, 1 ulp)`.
pub fn mismatch_line(rec: &Record) -> String {
    let m = &rec.mismatch;
    let set = rec
        .input_set
        .map(|k| format!(" input set {k}"))
        .unwrap_or_default();
    if m.register == "killed" {
        return format!(
            "{}{set} invocation {}: killed {} on the oracle, {} on the engine",
            m.engine,
            m.invocation,
            m.expected != "0x00000000",
            m.actual != "0x00000000"
        );
    }
    let ulp = m
        .ulp_distance
        .map(|u| format!(", {u} ulp"))
        .unwrap_or_default();
    format!(
        "{}{set} {} invocation {} .{} ({}): expected {}, got {} ({}{ulp})",
        m.engine,
        m.register,
        m.invocation,
        m.channel,
        m.ty,
        word_text(&m.expected, &m.ty),
        word_text(&m.actual, &m.ty),
        m.tolerance
    )
}
