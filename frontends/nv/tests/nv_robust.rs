//! Bad input never panics: arbitrary bytes, strings over the NV alphabet, truncated and
//! mutated corpus programs and NOTES.md examples, deep nesting, huge numbers. Whenever a
//! text parses, printing it parses back to the same program and printing is idempotent.
//! Proptest cases are capped at 2000 in total.

#[path = "../../tgsi/tests/common/mod.rs"]
mod common;

use proptest::prelude::*;
use shaderdiff_nv::{parse, print};

/// The corpus programs and the NOTES.md examples.
fn texts() -> Vec<String> {
    let dir = common::shared("corpus/nv");
    let mut v: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x != "md"))
        .map(|p| std::fs::read_to_string(p).unwrap())
        .collect();
    v.sort();
    let notes = common::read_shared("spec/nv/NOTES.md");
    v.extend(
        notes
            .split("### Example ")
            .skip(1)
            .map(|part| part.split("```").nth(1).unwrap().trim_start().to_string()),
    );
    v
}

/// If `text` parses, printing must be consistent with parsing.
fn check_consistent(text: &str) {
    if let Ok(p) = parse(text, "m") {
        let once = print(&p);
        match parse(&once, "m") {
            Ok(q) => {
                assert_eq!(q, p, "round trip of\n{text}\nprinted\n{once}");
                assert_eq!(print(&q), once, "print is not idempotent for\n{text}");
            }
            Err(e) => panic!(
                "{e}: printed text of an accepted program does not parse:\n{text}\n---\n{once}"
            ),
        }
    }
}

#[test]
fn truncated_programs_never_panic() {
    for text in texts() {
        let step = (text.len() / 100).max(1);
        for cut in (0..=text.len())
            .step_by(step)
            .filter(|&c| text.is_char_boundary(c))
        {
            check_consistent(&text[..cut]);
        }
    }
}

#[test]
fn deep_nesting_long_lines_and_huge_numbers() {
    let n = 5000;
    let mut text = String::from("!!NVfp5.0\nTEMP R0;\n");
    text += &"IF GT.x;\n".repeat(n);
    text += &"ENDIF;\n".repeat(n);
    text += "END\n";
    let p = parse(&text, "deep").unwrap();
    assert_eq!(p.instructions().count(), 2 * n);
    check_consistent(&text);
    // A long program on one line (§2.X.2: newlines are ordinary whitespace).
    let one_line =
        "!!NVvp5.0 TEMP R0; ".to_string() + &"MOV.F R0, -R0.wzyx; ".repeat(20000) + "END";
    let p = parse(&one_line, "line").unwrap();
    let pos = p.source_map.operands[20000][1];
    // Statement 20000 is the 20000th MOV (k = 19999); each MOV is 20 characters, the first
    // starts at column 20 and its source operand 10 characters in.
    assert_eq!((pos.line, pos.col), (1, 20 + 20 * 19999 + 10));
    let unclosed = "!!NVfp5.0\n".to_string() + &"REP;\n".repeat(n) + "END";
    assert!(parse(&unclosed, "deep").is_err());
    for bad in [
        "!!NVfp5.0\nTEMP R0[99999999999999999999];\nEND",
        "!!NVfp5.0\nPARAM c[] = { program.local[0..4294967296] };\nEND",
        "!!NVfp5.0\nTEMP R0;\nMOV R0, 1e99999999999;\nEND",
        "!!NVfp5.0\nTEMP R0;\nMOV R0, 0x1FFFFFFFFFFFFFFFF;\nEND",
        "!!NVgp5.0\nVERTICES_OUT 99999999999;\nEND",
        "!!NVfp5.0\nTEMP R0, a[4];\nMOV R0, a[R0.x + 99999999999];\nEND",
        "!!NVfp5.0\nPARAM c[1] = { program.local[0..4294967295] };\nEND",
    ] {
        assert!(parse(bad, "huge").is_err(), "{bad}");
    }
    // 64-bit integer constants are in range (NOTES.md §11: constants with 64-bit operands).
    parse(
        "!!NVvp5.0\nLONG TEMP d;\nMOV.U64 d, 0xFFFFFFFFFFFFFFFF;\nEND",
        "max",
    )
    .unwrap();
}

/// Characters NV assembly is made of, plus a few that it is not.
fn nv_char() -> impl Strategy<Value = char> {
    prop::sample::select(
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghiorstuvwxyz0123456789[](){}.,:;|-+_$=! \n\t\r#é\u{0}"
            .chars()
            .collect::<Vec<_>>(),
    )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..300)) {
        let s = String::from_utf8_lossy(&bytes);
        check_consistent(&s);
        check_consistent(&format!("!!NVfp5.0\n{s}"));
        check_consistent(&format!("!!ARBvp1.0\n{s}"));
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 500, ..ProptestConfig::default() })]

    #[test]
    fn nv_alphabet_strings_never_panic(s in prop::collection::vec(nv_char(), 0..200)) {
        let s: String = s.into_iter().collect();
        check_consistent(&format!("!!NVfp5.0\nTEMP R0, R1;\n{s}"));
        check_consistent(&format!("!!NVgp5.0\nPRIMITIVE_IN POINTS;\n{s}"));
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1200, ..ProptestConfig::default() })]

    #[test]
    fn mutated_programs_never_panic(
        k in 0usize..48,
        edits in prop::collection::vec((any::<usize>(), any::<u8>(), nv_char()), 1..6),
    ) {
        let all = texts();
        let text = &all[k % all.len()];
        check_consistent(&common::mutate(text, &edits));
    }
}

#[test]
fn element_counts_do_not_overflow() {
    // Two full 32-bit ranges bind 2^64 elements: more than any declared size.
    let t = "!!NVfp5.0\nBUFFER4 b[1] = { program.buffer[0..4294967295][0..4294967295], program.buffer[0..4294967295][0..4294967295] };\nEND";
    check_consistent(t);
    let t = "!!NVvp5.0\nPARAM m[] = { state.matrix.palette[0].row[0..4294967295], state.matrix.mvp };\nEND";
    check_consistent(t);
}
