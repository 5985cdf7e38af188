//! tgsi_sanity.c reports "Missing END instruction": a program file without END (a truncated
//! file) fails with `file:line:col: expected END` at the end of its text.

use shaderdiff_tgsi::parse_complete;

fn rejects(text: &str, line: u32, col: u32) {
    let e = parse_complete(text, "t.tgsi").expect_err(text);
    assert_eq!((e.pos.line, e.pos.col), (line, col), "{e}");
    assert_eq!(e.to_string(), format!("t.tgsi:{line}:{col}: expected END"));
}

#[test]
fn a_program_without_end_is_refused_at_its_end() {
    rejects("VERT\nDCL TEMP[0]\nMOV TEMP[0], TEMP[0]\n", 4, 1);
    rejects("VERT\nDCL TEMP[0]\nMOV TEMP[0], TEMP[0]", 3, 21);
    rejects("FRAG", 1, 5);
}

#[test]
fn end_may_be_followed_by_subroutines() {
    parse_complete("VERT\nDCL TEMP[0]\nMOV TEMP[0], TEMP[0]\nEND\n", "t.tgsi").unwrap();
    // TEXT-FORMAT.md §2: subroutine bodies (BGNSUB…ENDSUB) follow END.
    parse_complete(
        "VERT\nDCL TEMP[0]\n  0: CAL :2\n  1: END\n  2: BGNSUB\n  3:   MOV TEMP[0], TEMP[0]\n  4: RET\n  5: ENDSUB\n",
        "t.tgsi",
    )
    .unwrap();
}
