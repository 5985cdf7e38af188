//! `summary.json` `generator_version` names the generator that made the campaign's
//! programs (docs/commands.md "The `fuzz` output directory"): the TGSI generator's for
//! `--lang tgsi`, the NV generator's for `--lang nv`, both for `--lang mixed`; and
//! `--resume` refuses a campaign whose recorded generator is not this build's.

use std::path::Path;

use serde_json::Value;
use shaderdiff_generators::nv::NV_GENERATOR_VERSION;
use shaderdiff_generators::GENERATOR_VERSION;

mod common;

use common::{code, fuzz_interp_jit, run, stderr as err, Scratch};

/// A 4-program campaign of `lang` (interp and jit only): its summary and progress files.
fn campaign(s: &Scratch, lang: &str) -> (String, Value, Value) {
    let out = s.path(lang);
    let o = fuzz_interp_jit(lang, "4", &out, &[]);
    assert_eq!(code(&o), 0, "{}", err(&o));
    let dir = Path::new(&out);
    let summary = common::json(&dir.join("summary.json"));
    let progress = common::json(&dir.join("progress.json"));
    (out, summary, progress)
}

#[test]
fn the_summary_names_the_generator_of_its_programs() {
    let s = Scratch::new("generator-version");
    let nv = NV_GENERATOR_VERSION;
    assert!(nv.starts_with("nv-"), "{nv}");
    let mixed = format!("{GENERATOR_VERSION}+{nv}");
    for (lang, want) in [("tgsi", GENERATOR_VERSION), ("nv", nv), ("mixed", &mixed)] {
        let (_, summary, progress) = campaign(&s, lang);
        assert_eq!(summary["lang"], lang);
        assert_eq!(summary["generator_version"], want, "{lang}: {summary}");
        assert_eq!(progress["generator_version"], want, "{lang}");
    }
}

/// An NV campaign recorded with the TGSI generator's version (what builds before this
/// field named the NV generator wrote) cannot be resumed: its programs may come from
/// another NV generator. Its own recorded version resumes (exit 0: the campaign is done).
#[test]
fn resume_checks_the_generator_of_the_campaign_language() {
    let s = Scratch::new("generator-version-resume");
    let (out, _, progress) = campaign(&s, "nv");
    let o = run(&["fuzz", "--resume", &out]);
    assert_eq!(code(&o), 0, "{}", err(&o));
    let mut stale = progress.clone();
    stale["generator_version"] = Value::from(GENERATOR_VERSION);
    let path = Path::new(&out).join("progress.json");
    std::fs::write(&path, serde_json::to_string_pretty(&stale).unwrap()).unwrap();
    let o = run(&["fuzz", "--resume", &out]);
    assert_eq!(code(&o), 2, "{}", err(&o));
    assert!(err(&o).contains("cannot be resumed"), "{}", err(&o));
}
