//! Crash findings of NV programs are reduced as NV assembly: each candidate (canonical NV
//! text with NV-keyed inputs) runs alone in a fresh `shaderdiff run candidate.nv`, and is
//! kept when it dies the same way (harness/src/death_reduce.rs). An engine that runs the
//! assembly text itself (`nvidia`, whose assembler crashed on a label named like a TEMP)
//! can only be replayed that way.
//!
//! No GPU is needed: the test-only fault `test-hang` (engines/src/test_faults.rs) makes
//! the jit hang running any program whose IR has UBFE, which the NV lowering emits for
//! most generated programs (the NV generator emits neither BFR nor BTC, the triggers of
//! `test-segfault` and `test-abort`). The expected reduction follows from that
//! definition: every candidate kept still hangs, so the reduced program is smaller than
//! the original and its lowering still has UBFE.

mod common;

use std::path::Path;

use common::{code, fuzz_interp_jit, json, text, Scratch};
use shaderdiff_model::Opcode;

/// Stream positions `0..n` of `fuzz --lang nv --seed 1` whose lowered program has `op`
/// (the campaign's NV generator settings, as harness/tests/fuzz_nv.rs uses them).
fn programs_using(op: Opcode, n: u64) -> Vec<u64> {
    (0..n)
        .filter(|&i| {
            let g = shaderdiff_generators::nv::generate(1, i, 48, 16).expect("valid");
            let ast = shaderdiff_nv::parse(&g.text, "g.nv").expect("parses");
            shaderdiff_nv::lower(&ast)
                .is_ok_and(|l| l.program.instructions.iter().any(|x| x.opcode == op))
        })
        .collect()
}

#[test]
fn an_nv_hang_finding_is_reduced_as_nv_text() {
    let hit = programs_using(Opcode::UBFE, 4);
    assert!(
        !hit.is_empty() && hit.len() < 4,
        "the trigger must split the stream: {hit:?}"
    );
    let s = Scratch::new("nv-hang-reduce");
    let out = s.path("out");
    let o = fuzz_interp_jit(
        "nv",
        "4",
        &out,
        &[
            "--inject-fault",
            "test-hang",
            "--timeout",
            "1s",
            "--reduce-time",
            "15s",
        ],
    );
    assert_eq!(code(&o), 1, "{}", text(&o));
    let summary = json(&Path::new(&out).join("summary.json"));
    assert_eq!(summary["mismatches"], hit.len() as u64, "{summary}");
    let f = Path::new(&out).join("findings/jit-timeout-none");
    let meta = json(&f.join("finding.json"));
    assert!(meta.get("reduced").is_none(), "{meta}");
    let n = meta["reduced_instructions"].as_u64().expect("reduced");
    let original = meta["original_instructions"].as_u64().unwrap();
    assert!(n >= 1 && n < original, "{meta}");
    let reduced = std::fs::read_to_string(f.join("reduced.nv")).unwrap();
    assert!(reduced.starts_with("!!NV"), "{reduced}");
    assert!(reduced.contains("# shaderdiff-reduce"), "{reduced}");
    let ast = shaderdiff_nv::parse(&reduced, "reduced.nv").expect("canonical NV text");
    let lowered = shaderdiff_nv::lower(&ast).expect("lowers");
    assert!(
        lowered
            .program
            .instructions
            .iter()
            .any(|i| i.opcode == Opcode::UBFE),
        "{reduced}"
    );
    assert_eq!(shaderdiff::reduce::nv::insn_count(&ast) as u64, n);
    // The reproducer's inputs are NV-keyed and replay with the command of report.json.
    let inputs = std::fs::read_to_string(f.join("inputs.json")).unwrap();
    assert!(!inputs.contains("IN["), "{inputs}");
    let report = json(&f.join("report.json"));
    let replay = report["replay"].as_str().unwrap();
    assert!(
        replay.starts_with("shaderdiff run reduced.nv --inputs inputs.json"),
        "{replay}"
    );
}
