//! The differ's shortcut to agreement (compare/src/point.rs): an engine whose outputs are
//! the oracle's plain-run values is judged to agree without the interval run. Checked here
//! against the full judgement on campaign programs of every generator mode, correct engines
//! and faulty ones: every shortcut verdict must be the full comparison's verdict, and every
//! verdict of `Differ::diff_prepared` must be the one the full comparison alone gives.

use shaderdiff::fuzz_item::item;
use shaderdiff_compare::diff::{engines_from_names, Differ, Outcome};
use shaderdiff_compare::point::{settles, NanLeniency};
use shaderdiff_generators::random::RandomConfig;
use shaderdiff_oracles::interp::{self, InterpConfig};
use shaderdiff_oracles::precision::NanPolicy;

mod common;

/// The step budget of the oracle and the engines (`common::test_campaign`'s).
const STEPS: u64 = 1 << 20;

/// Programs per mode: 40, or `POINT_SHORTCUT_PROGRAMS` for a longer run.
fn programs() -> u64 {
    std::env::var("POINT_SHORTCUT_PROGRAMS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(40)
}

/// The verdict of engine `e` from the interval oracle alone, as before the shortcut.
fn full(
    differ: &Differ,
    e: usize,
    item: &shaderdiff::fuzz_item::FuzzItem,
    actual: &shaderdiff_oracles::Outputs,
) -> Outcome {
    let oracle = differ
        .oracle_for(e, &item.program, &item.inputs)
        .expect("the plain run succeeded, so the interval run does");
    differ.judge_run(e, &item.program, &item.inputs, &oracle, actual)
}

/// Counts of (engine runs checked, shortcuts taken).
fn check(
    lang: &str,
    config: RandomConfig,
    programs: u64,
    fault: Option<&str>,
    nan: NanPolicy,
) -> (usize, usize) {
    let names: Vec<String> = ["jit", "valhall"].map(String::from).to_vec();
    let (engines, _) = engines_from_names(&names, STEPS, fault);
    let differ = Differ::new(engines, STEPS, nan).expect("classes");
    let c = common::test_campaign(lang, 5, config);
    let (mut runs, mut shortcuts) = (0, 0);
    for index in 0..programs {
        let g = item(&c, index);
        let Ok(point) = interp::run(&g.program, &g.inputs, &InterpConfig { step_limit: STEPS })
        else {
            continue;
        };
        let prepared = differ.prepare(&g.program);
        let diff = differ.diff_prepared(&g.program, &g.inputs, &prepared);
        let leniency = NanLeniency::new(&g.program, nan);
        for (e, engine) in differ.engines().iter().enumerate() {
            let Some(Ok(code)) = prepared.get(e) else {
                continue;
            };
            let Ok(actual) = engine.run(code.as_ref(), &g.inputs) else {
                continue;
            };
            runs += 1;
            let want = full(&differ, e, &g, &actual);
            let got = &diff.engines[e].outcome;
            let shortcut = settles(&point, differ.denormal_mode(e), &actual, &leniency).is_some();
            let context = format!(
                "{lang} index {index} engine {} fault {fault:?}:\n{}",
                engine.name(),
                g.text
            );
            if shortcut {
                shortcuts += 1;
                assert!(
                    matches!(want, Outcome::Agree { .. }),
                    "shortcut agrees, full says {want:?}\n{context}"
                );
            }
            match (&want, got) {
                (Outcome::Agree { .. }, Outcome::Agree { .. }) => {}
                _ => assert_eq!(&want, got, "{context}"),
            }
        }
    }
    (runs, shortcuts)
}

fn modes() -> Vec<(&'static str, RandomConfig)> {
    let plain = RandomConfig::default();
    let mut wide = RandomConfig::default();
    wide.gen.wide = true;
    let mut memory = RandomConfig::default();
    memory.gen.memory = true;
    vec![
        ("tgsi", plain.clone()),
        ("tgsi", wide),
        ("tgsi", memory),
        ("nv", plain),
    ]
}

#[test]
fn shortcut_verdicts_are_the_full_comparisons_on_every_generator_mode() {
    for (lang, config) in modes() {
        let (runs, shortcuts) = check(lang, config, programs(), None, NanPolicy::Any);
        assert!(runs >= 60, "{lang}: only {runs} engine runs");
        // Most correct results are the plain run's values: the shortcut is exercised.
        assert!(
            shortcuts * 3 >= runs,
            "{lang}: {shortcuts} shortcuts in {runs} runs"
        );
    }
}

#[test]
fn shortcut_verdicts_hold_under_strict_nans_and_with_faulty_engines() {
    let n = programs();
    let (_, shortcuts) = check("tgsi", RandomConfig::default(), n, None, NanPolicy::Strict);
    assert!(shortcuts > 0);
    let mut wide = RandomConfig::default();
    wide.gen.wide = true;
    for (lang, config, fault) in [
        ("tgsi", RandomConfig::default(), "writemask-ignored-w"),
        ("tgsi", RandomConfig::default(), "sat-nan-passthrough"),
        ("tgsi", RandomConfig::default(), "min-nan-propagates"),
        ("tgsi", wide, "dneg-as-sub-from-zero"),
        ("nv", RandomConfig::default(), "nv-condmask-swap-xy"),
    ] {
        check(lang, config, n, Some(fault), NanPolicy::Any);
    }
}
