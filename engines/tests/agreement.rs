//! Engine agreement on generated programs: for 128 programs (`PROPTEST_CASES` overrides) from
//! `shaderdiff_generators::strategy::tgsi_program(GenConfig::default(), 300)` with random
//! inputs, every engine that supports a program gives the oracle's outputs bit for bit on
//! every channel the oracle marks defined, in every invocation that is not killed, with the
//! same `killed` report and the same set of output registers. Two differences are allowed,
//! as the comparators define them (INTERFACE.md `diff`; EXEC-NOTES.md §0 and §13):
//!
//! * a NaN matches any NaN (NaN class, not payload), and a channel computed from a NaN's
//!   bits (an integer opcode reading an arithmetic NaN) may differ when the differential
//!   comparator accepts it: the precision contract leaves those bits open;
//! * +0 matches -0 when the program uses MIN, MAX or LIT (tgsi.rst leaves which zero a
//!   ±0 tie returns unspecified; the oracle documents it in alu/float.rs).
//!
//! An engine of another precision class than the oracle's (`valhall`, class `gpu` in
//! precision.toml) is instead held to the precision contract: the differential comparator
//! (`shaderdiff_compare::output`) against the oracle's acceptance intervals for its class.
//!
//! The oracle itself is run twice and must agree with itself (determinism). Transcendental
//! opcodes are compared exactly too: an engine that evaluates them differently from the
//! oracle's documented formulas is reported here (the value tables check the bounds).
//! An `Unsupported` answer is acceptable here ("every engine that supports the program");
//! the counts per engine are printed, and every engine must support at least one program.

#[path = "support/mod.rs"]
mod support;

use std::cell::RefCell;
use std::collections::BTreeMap;

use proptest::prelude::*;
use proptest::test_runner::{Config, TestCaseError, TestRunner};
use shaderdiff_backends::{EngineConfig, EngineError, Inputs, Outputs};
use shaderdiff_generators::{strategy::tgsi_program, GenConfig};
use shaderdiff_model::RegKey;
use shaderdiff_model::{File, Opcode, Program};

use support::{engines_with, show, ORACLE};

/// Invocations per run: two fragment quads.
const INVOCATIONS: usize = 8;

/// Words for inputs: raw bits and the special values most likely to expose differences.
fn word() -> impl Strategy<Value = u32> {
    prop_oneof![
        3 => any::<u32>(),
        1 => (-64i32..64).prop_map(|x| x as u32),
        2 => (-64i32..64).prop_map(|x| (x as f32 * 0.25).to_bits()),
        1 => prop::sample::select(vec![
            0u32, 0x8000_0000, 0x7FC0_0000, 0x7F80_0000, 0xFF80_0000, 1, 0x807F_FFFF,
            0xFFFF_FFFF, 0x3F80_0000, 0xBF80_0000, 0x7F7F_FFFF, 0x8000_0001,
        ]),
    ]
}

/// Per-invocation values for every IN register and a value for every CONST register the
/// program declares, drawn in order from `words` (cycled).
fn inputs_for(p: &Program, words: &[u32]) -> Inputs {
    let mut w = words.iter().copied().cycle();
    let mut next = move || w.next().unwrap_or(0);
    let mut inputs = Inputs {
        invocations: INVOCATIONS,
        ..Inputs::default()
    };
    for d in &p.declarations {
        if d.dimension.is_some() {
            continue;
        }
        for i in d.first..=d.last {
            let key = RegKey::new(d.file, i);
            match d.file {
                File::Input => {
                    let v = (0..INVOCATIONS)
                        .map(|_| [next(), next(), next(), next()])
                        .collect();
                    inputs.registers.insert(key, v);
                }
                File::Const => {
                    inputs
                        .constants
                        .insert(key, [next(), next(), next(), next()]);
                }
                _ => {}
            }
        }
    }
    inputs
}

/// Whether a ±0 difference is allowed (the program has an opcode whose ±0 tie is
/// unspecified).
fn zero_ties(p: &Program) -> bool {
    p.instructions
        .iter()
        .any(|i| matches!(i.opcode, Opcode::MIN | Opcode::MAX | Opcode::LIT))
}

/// Differences between the oracle's outputs `want` and an engine's `got`, one line each.
fn differences(want: &Outputs, got: &Outputs, zero_ok: bool) -> Vec<String> {
    let mut d = Vec::new();
    if got.invocations != want.invocations {
        d.push(format!(
            "{} invocations, want {}",
            got.invocations, want.invocations
        ));
        return d;
    }
    if got.killed != want.killed {
        d.push(format!("killed {:?}, want {:?}", got.killed, want.killed));
    }
    let keys = |o: &Outputs| o.registers.keys().copied().collect::<Vec<_>>();
    if keys(got) != keys(want) {
        d.push(format!("registers {:?}, want {:?}", keys(got), keys(want)));
    }
    let killed = |i: usize| want.killed.as_ref().is_some_and(|k| k[i]);
    for (key, wv) in &want.registers {
        let Some(gv) = got.registers.get(key) else {
            continue;
        };
        let flags = want.undefined.get(key);
        for (i, (w, g)) in wv.iter().zip(gv).enumerate() {
            if killed(i) {
                continue;
            }
            let f = flags.map_or(0, |u| u[i]);
            for (c, (&a, &b)) in w.iter().zip(g).enumerate() {
                let nan = |x: u32| f32::from_bits(x).is_nan();
                let zero = |x: u32| x & 0x7FFF_FFFF == 0;
                if f >> c & 1 != 0
                    || a == b
                    || (nan(a) && nan(b))
                    || (zero_ok && zero(a) && zero(b))
                {
                    continue;
                }
                let chan = "xyzw".as_bytes()[c] as char;
                d.push(format!(
                    "{key}[{i}].{chan}: got {}, want {}",
                    show(b),
                    show(a)
                ));
            }
        }
    }
    d
}

#[test]
fn engines_agree_with_the_oracle() {
    let engines = engines_with(&EngineConfig::default());
    let stats: RefCell<BTreeMap<&str, (usize, usize)>> = RefCell::default();
    // 128 cases unless PROPTEST_CASES asks for another number (proptest's own variable).
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|c| c.parse().ok())
        .unwrap_or(128);
    let mut runner = TestRunner::new(Config {
        cases,
        failure_persistence: None,
        ..Config::default()
    });
    let strategy = (
        tgsi_program(GenConfig::default(), 300),
        prop::collection::vec(word(), 1..64),
    );
    let result = runner.run(&strategy, |(p, words)| {
        let inputs = inputs_for(&p, &words);
        let oracle = engines.iter().find(|e| e.name() == ORACLE).expect("oracle");
        let want = match oracle.execute(&p, &inputs) {
            Ok(o) => o,
            Err(EngineError::Unsupported { .. } | EngineError::StepLimit { .. }) => {
                return Ok(());
            }
            Err(e) => return Err(TestCaseError::fail(format!("{ORACLE}: {e}"))),
        };
        let text = shaderdiff_tgsi::print(&p);
        for e in &engines {
            let name = e.name();
            match e.execute(&p, &inputs) {
                Ok(got) => {
                    stats.borrow_mut().entry(name).or_default().0 += 1;
                    // Engines of another precision class (valhall: gpu) are held to the
                    // precision contract instead of the oracle's exact bits.
                    let d = match support::contract_mismatches(&p, &inputs, name, &got) {
                        Some(m) => m
                            .iter()
                            .map(|m| {
                                format!(
                                    "{}[{}].{}: got {}, want {} ({})",
                                    m.register,
                                    m.invocation,
                                    m.channel,
                                    m.actual,
                                    m.expected,
                                    m.tolerance
                                )
                            })
                            .collect(),
                        None => {
                            let d = differences(&want, &got, zero_ties(&p));
                            // A difference the comparator accepts is one the precision
                            // contract leaves open: an integer opcode reading a NaN's bits,
                            // which tgsi.rst does not fix (NaN bit patterns, EXEC-NOTES §0).
                            if d.is_empty()
                                || support::comparator_mismatches(&p, &inputs, name, &got)
                                    .is_empty()
                            {
                                Vec::new()
                            } else {
                                d
                            }
                        }
                    };
                    if !d.is_empty() {
                        return Err(TestCaseError::fail(format!(
                            "[{name}] disagrees with {ORACLE} ({} channels):\n{}\n\
                             program:\n{text}inputs: {inputs:x?}",
                            d.len(),
                            d.iter().take(16).cloned().collect::<Vec<_>>().join("\n")
                        )));
                    }
                }
                Err(EngineError::Unsupported { .. }) if name != ORACLE => {
                    stats.borrow_mut().entry(name).or_default().1 += 1;
                }
                Err(err) => {
                    return Err(TestCaseError::fail(format!(
                        "[{name}] {err}\nprogram:\n{text}inputs: {inputs:x?}"
                    )));
                }
            }
        }
        Ok(())
    });
    let stats = stats.into_inner();
    for (name, (compared, unsupported)) in &stats {
        eprintln!("{name}: {compared} programs compared, {unsupported} unsupported");
    }
    if let Err(e) = result {
        panic!("{e}");
    }
    for e in &engines {
        let compared = stats.get(e.name()).map_or(0, |s| s.0);
        assert!(
            compared > 0,
            "{}: no generated program was compared",
            e.name()
        );
    }
}
