//! Every real program of corpus/tgsi parses and validates, printing is idempotent, and
//! printing loses nothing but float precision (TEXT-FORMAT.md §10 "Round-trip facts").

mod common;

use shaderdiff_model::{ImmType, Program};
use shaderdiff_tgsi::{parse, print, print_with, PrintOptions};

/// Whether every FLT32 value (IMM and IMMX) survives `%10.4f`, i.e. has at most 4 decimals.
fn floats_print_exactly(p: &Program) -> bool {
    let exact = |bits: u32| {
        let f = f32::from_bits(bits);
        format!("{:.4}", f).parse::<f32>().map(f32::to_bits) == Ok(bits)
    };
    let imm_ok = p
        .immediates
        .iter()
        .all(|i| i.ty != ImmType::F32 || i.words.iter().all(|&b| exact(b)));
    let immx_ok = p
        .declarations
        .iter()
        .all(|d| d.values.iter().flatten().all(|&b| exact(b)));
    imm_ok && immx_ok
}

#[test]
fn corpus_parses_and_prints_idempotently() {
    let files = common::corpus();
    assert_eq!(files.len(), 83, "corpus/tgsi holds 83 programs");
    let mut exact = 0;
    for (name, text) in &files {
        let p = parse(text, name).unwrap_or_else(|e| panic!("{e}"));
        let p1 = print(&p);
        let q = parse(&p1, name).unwrap_or_else(|e| panic!("reparse of printed {name}: {e}\n{p1}"));
        assert_eq!(print(&q), p1, "{name}: print is not idempotent");
        if floats_print_exactly(&p) {
            assert_eq!(q, p, "{name}: printing lost information");
            exact += 1;
        }
        let lossless = print_with(&p, &PrintOptions { lossless: true });
        let r = parse(&lossless, name)
            .unwrap_or_else(|e| panic!("reparse of lossless {name}: {e}\n{lossless}"));
        assert_eq!(r, p, "{name}: lossless printing lost information");
    }
    // Most corpus programs use 4-decimal (or no) float immediates.
    assert!(
        exact >= 70,
        "only {exact} programs round-trip through %10.4f"
    );
}
