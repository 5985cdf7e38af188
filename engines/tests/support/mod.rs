//! The shared, engine-parameterized test harness: every value table and every whole-program
//! test is written once and runs on every engine of [`shaderdiff_backends::ENGINE_NAMES`]
//! through the [`Engine`] trait (`engine.execute(&program, &inputs)`), so a new engine is
//! covered by adding it to the registry.
//!
//! * [`rows`]: ALU value tables. One [`rows::Row`] = one opcode applied to raw source vec4s;
//!   rows of the same opcode, source count and writemask are packed into one program
//!   (`OP OUT[0].mask, IN[0], IN[1], ...`, no modifiers, so sources arrive bit-exact), one
//!   row per invocation, run once per engine.
//! * [`programs`]: whole programs (control flow, KILL, derivatives, indirect addressing)
//!   with per-invocation, per-channel expectations ([`programs::Expect`]).
//!
//! Comparison rules, for every engine: expected values bit-exactly (an expected NaN matches
//! any NaN where the row says "float"), or within the row's stated ulp bound for
//! approximate opcodes. Channels a test expects to be undefined: the oracle ([`ORACLE`])
//! must flag them in `Outputs::undefined`; other engines are not compared there. Every
//! other checked channel must be defined in the oracle.
//!
//! An engine answering `Unsupported` fails the test unless the row/program is marked not
//! applicable to that engine with a reason (`not_on`), or the gap is listed in
//! [`KNOWN_GAPS`] (printed loudly on every use). All failures of a test are collected and
//! reported together, one line each, naming the engine, the table row (file:line), the
//! opcode, inputs, expected and actual values.
#![allow(dead_code)]

pub mod consts;
pub mod programs;
pub mod rows;
pub mod wide;

use shaderdiff_backends::{
    Engine, EngineConfig, EngineError, Inputs, Outputs, Registry, ENGINE_NAMES, REGISTRY,
};
use shaderdiff_compare::output::{compare, CompareOptions, Mismatch};
use shaderdiff_model::Program;
use shaderdiff_oracles::interp::{run_with_intervals, InterpConfig};
use shaderdiff_oracles::precision::PrecisionContract;

/// The reference engine: the only one whose `undefined` flags are checked, and the one the
/// agreement property test compares the others with.
pub const ORACLE: &str = "interp";

/// A temporary exemption: `engine` may answer `Unsupported` where `what` is the opcode it
/// names (e.g. `"LIT"`) or a substring of its reason. Every use is printed. The final state
/// of this table must be empty or every entry justified.
#[derive(Debug)]
pub struct Gap {
    /// Engine name.
    pub engine: &'static str,
    /// Opcode name, or a substring of the `Unsupported` reason.
    pub what: &'static str,
    /// Why this is acceptable for now.
    pub why: &'static str,
}

/// Known, temporarily accepted `Unsupported` answers (see [`Gap`]).
pub const KNOWN_GAPS: &[Gap] = &[];

/// Every registered engine, oracle first, with the default configuration.
pub fn engines() -> Vec<Box<dyn Engine>> {
    engines_with(&EngineConfig::default())
}

/// Every registered engine, oracle first, with `config`.
pub fn engines_with(config: &EngineConfig) -> Vec<Box<dyn Engine>> {
    engines_in(&REGISTRY, config)
}

/// Every built-in engine of `registry` (each must build), oracle first, with `config`. The
/// opt-in (runtime-only) engines are left out: mesa runs ARB programs only, and virgl's
/// known deviations are triaged against the conformance suites (results/triage/virgl),
/// not against these tables.
pub fn engines_in(registry: &Registry<'_>, config: &EngineConfig) -> Vec<Box<dyn Engine>> {
    assert_eq!(
        ENGINE_NAMES.first(),
        Some(&ORACLE),
        "the oracle is listed first"
    );
    assert_eq!(registry.oracle(), ORACLE, "the registry's oracle");
    registry
        .descriptors()
        .iter()
        .filter(|d| !d.runtime_only)
        .map(|d| {
            registry
                .engine(d.name, config)
                .unwrap_or_else(|| panic!("{} is listed but not built", d.name))
        })
        .collect()
}

/// Whether `engine` implements only part of what the tables use, so that an
/// `Unsupported` answer from it is a note rather than a failure: the opt-in engines of the
/// built-in registry (mesa runs ARB programs, virgl TGSI vertex and fragment programs) and
/// engines a test adds to a registry of its own (`tests/registry.rs`).
pub fn partial(engine: &str) -> bool {
    REGISTRY.get(engine).is_none_or(|d| d.runtime_only)
}

/// For an engine whose precision class (precision.toml `[engines]`) is not the oracle's:
/// the channels of `out` the precision contract rejects, as the differential comparator
/// (`shaderdiff_compare::output`) decides against the oracle's acceptance intervals for
/// the engine's class. `None` for engines of the oracle's class (tests hold them to the
/// oracle's exact values).
pub fn contract_mismatches(
    program: &Program,
    inputs: &Inputs,
    engine: &str,
    out: &Outputs,
) -> Option<Vec<Mismatch>> {
    let contract = PrecisionContract::builtin();
    let class = contract.class_of_engine(engine)?;
    if Some(class) == contract.class_of_engine(ORACLE) {
        return None;
    }
    Some(comparator_mismatches(program, inputs, engine, out))
}

/// The channels of `out` (from `engine`) that the differential comparator rejects against
/// the oracle's acceptance intervals for the engine's precision class.
pub fn comparator_mismatches(
    program: &Program,
    inputs: &Inputs,
    engine: &str,
    out: &Outputs,
) -> Vec<Mismatch> {
    let contract = PrecisionContract::builtin();
    let class = contract
        .class_of_engine(engine)
        .expect("the engine has a precision class");
    let oracle = run_with_intervals(program, inputs, &InterpConfig::default(), contract, class)
        .expect("the oracle runs the program");
    compare(
        program,
        &oracle,
        engine,
        out,
        contract,
        &CompareOptions::default(),
    )
    .expect("comparable outputs")
    .mismatches
}

/// Parses TGSI text; panics with the located parser message on error.
pub fn parse(text: &str) -> Program {
    shaderdiff_tgsi::parse(text, "test.tgsi").unwrap_or_else(|e| panic!("{e}\n{text}"))
}

/// Failures and notes collected over one test; [`Report::finish`] prints the notes and
/// panics with every failure.
#[derive(Default)]
pub struct Report {
    failures: Vec<String>,
    notes: Vec<String>,
    /// Number of (engine, row or program) comparisons made.
    pub checked: usize,
}

impl Report {
    /// Records a failure.
    pub fn fail(&mut self, msg: String) {
        self.failures.push(msg);
    }

    /// Records something to print (known gaps, not-applicable rows).
    pub fn note(&mut self, msg: String) {
        self.notes.push(msg);
    }

    /// Decides what an error from `engine` means. `not_on` lists (engine, reason) pairs the
    /// test marked not applicable. Returns normally when the error is an accepted
    /// `Unsupported` (noted), records a failure otherwise.
    pub fn engine_error(
        &mut self,
        engine: &str,
        err: &EngineError,
        not_on: &[(&str, &str)],
        what: &str,
    ) {
        if let EngineError::Unsupported { opcode, reason, .. } = err {
            if let Some((_, why)) = not_on.iter().find(|(e, _)| *e == engine) {
                self.note(format!("[{engine}] not applicable: {what}: {why} ({err})"));
                return;
            }
            if partial(engine) {
                self.note(format!(
                    "[{engine}] outside its capabilities: {what} ({err})"
                ));
                return;
            }
            let op = opcode.map(|o| o.to_string());
            if engine != ORACLE {
                if let Some(g) = KNOWN_GAPS.iter().find(|g| {
                    g.engine == engine && (op.as_deref() == Some(g.what) || reason.contains(g.what))
                }) {
                    self.note(format!(
                        "!!! KNOWN GAP [{engine}] {what}: {err} — accepted because: {}",
                        g.why
                    ));
                    return;
                }
            }
        }
        self.fail(format!("[{engine}] {what}: {err}"));
    }

    /// Prints notes to stderr and panics listing every failure (if any).
    pub fn finish(self) {
        for n in &self.notes {
            eprintln!("{n}");
        }
        if !self.failures.is_empty() {
            panic!(
                "{} failure(s) ({} comparisons):\n{}",
                self.failures.len(),
                self.checked,
                self.failures.join("\n")
            );
        }
        assert!(self.checked > 0, "nothing was compared");
    }
}

/// Distance in units in the last place between two non-NaN binary32 values, counted along
/// the ordered sequence of binary32 values (so +0 and -0 are 0 apart and the smallest
/// denormals of opposite signs 2 apart).
pub fn ulps(a: f32, b: f32) -> u32 {
    let key = |x: f32| {
        let b = x.to_bits() as i64;
        if b & 0x8000_0000 != 0 {
            -(b & 0x7FFF_FFFF)
        } else {
            b
        }
    };
    (key(a) - key(b)).unsigned_abs() as u32
}

/// A word shown as hex and, when it is useful, as a float.
pub fn show(w: u32) -> String {
    format!("{w:#010x} ({:e})", f32::from_bits(w))
}
