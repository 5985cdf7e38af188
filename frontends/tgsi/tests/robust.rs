//! Bad input never panics (issue requirement 7): truncated files, arbitrary strings,
//! mutated examples, deep nesting and huge numbers. Whenever a mutated text parses, its
//! lossless print parses back to the same program and printing is idempotent.

mod common;

use proptest::prelude::*;
use shaderdiff_tgsi::{parse, print, print_with, PrintOptions};

const LOSSLESS: PrintOptions = PrintOptions { lossless: true };

fn texts() -> Vec<String> {
    let mut v: Vec<String> = common::example_names()
        .iter()
        .map(|n| common::read_shared(&format!("spec/tgsi/examples/{n}.tgsi")))
        .collect();
    v.extend(common::corpus().into_iter().map(|(_, t)| t));
    v
}

/// If `text` parses, printing must be consistent with parsing.
fn check_consistent(text: &str) {
    if let Ok(p) = parse(text, "m") {
        let lossless = print_with(&p, &LOSSLESS);
        match parse(&lossless, "m") {
            Ok(q) => assert_eq!(q, p, "lossless round trip of\n{text}\nprinted\n{lossless}"),
            Err(e) => panic!(
                "{e}: printed text of an accepted program does not parse:\n{text}\n---\n{lossless}"
            ),
        }
        let once = print(&p);
        if let Ok(q) = parse(&once, "m") {
            assert_eq!(print(&q), once);
        }
    }
}

#[test]
fn truncated_files_never_panic() {
    let examples = common::example_names();
    for (k, text) in texts().iter().enumerate() {
        // Every byte offset of the examples, ~100 offsets of each corpus file.
        let step = if k < examples.len() {
            1
        } else {
            (text.len() / 100).max(1)
        };
        for cut in (0..text.len())
            .step_by(step)
            .filter(|&c| text.is_char_boundary(c))
        {
            check_consistent(&text[..cut]);
        }
    }
}

#[test]
fn deep_nesting_and_huge_numbers() {
    let n = 5000;
    let mut text = String::from("FRAG\nDCL TEMP[0]\n");
    text += &"IF TEMP[0].xxxx\n".repeat(n);
    text += &"ENDIF\n".repeat(n);
    let p = parse(&text, "deep").unwrap();
    assert_eq!(p.instructions.len(), 2 * n);
    assert!(print(&p).lines().count() > 2 * n);
    // A long program on a single line (§1: newlines are ordinary whitespace).
    let one_line = "VERT DCL TEMP[0] ".to_string() + &"MOV TEMP[0], -TEMP[0].wzyx ".repeat(20000);
    let p = parse(&one_line, "line").unwrap();
    assert_eq!(
        p.source_map.operand(19999, 1).map(|q| (q.line, q.col)),
        Some((1, 18 + 27 * 19999 + 13))
    );
    let unclosed = "FRAG\nDCL TEMP[0]\n".to_string() + &"BGNLOOP\n".repeat(n);
    assert!(parse(&unclosed, "deep").is_err());
    for bad in [
        "FRAG\nDCL TEMP[99999999999999999999999999]",
        "FRAG\nDCL TEMP[0..4294967296]",
        "FRAG\nIMM[99999999999999999999] FLT32 {1,2,3,4}",
        "FRAG\nDCL TEMP[0]\nBGNLOOP :99999999999\nENDLOOP",
        "FRAG\nDCL TEMP[0], ARRAY(99999999999)",
        "FRAG\nDCL ADDR[0]\nDCL TEMP[0]\nMOV TEMP[0], TEMP[ADDR[0].x-99999999999]",
    ] {
        assert!(parse(bad, "huge").is_err(), "{bad}");
    }
    let p = parse("FRAG\nIMM FLT32 {1e99999999999, -1e-99999999999, 0x1p99999999999, 0x1p-99999999999}\nIMM UINT32 {99999999999999999999, 0, 0, 0}", "huge").unwrap();
    assert_eq!(
        p.immediates[0].words,
        [0x7f80_0000, 0x8000_0000, 0x7f80_0000, 0]
    );
    // Decimal digits wrap modulo 2^32 (§1): 99999999999999999999 mod 2^32.
    assert_eq!(
        p.immediates[1].words[0],
        (99_999_999_999_999_999_999u128 % (1u128 << 32)) as u32
    );
}

/// Characters TGSI text is made of, plus a few that it is not.
fn tgsi_char() -> impl Strategy<Value = char> {
    prop::sample::select(
        "ABCDEFGHIJKLMNOPQRSTUVWXYZxyzw0123456789[](){}.,:;|-+_ \n\t\r#é\u{0}"
            .chars()
            .collect::<Vec<_>>(),
    )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_strings_never_panic(s in any::<String>()) {
        check_consistent(&s);
        check_consistent(&format!("FRAG\n{s}"));
    }

    #[test]
    fn tgsi_alphabet_strings_never_panic(s in prop::collection::vec(tgsi_char(), 0..200)) {
        let s: String = s.into_iter().collect();
        check_consistent(&format!("VERT\nDCL TEMP[0..3]\n{s}"));
    }

    #[test]
    fn mutated_examples_never_panic(
        k in 0usize..96,
        edits in prop::collection::vec((any::<usize>(), any::<u8>(), tgsi_char()), 1..6),
    ) {
        let all = texts();
        let text = &all[k % all.len()];
        check_consistent(&common::mutate(text, &edits));
    }
}
