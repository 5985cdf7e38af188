//! `#` line comments: a lenient extension (Mesa's parser has no comment syntax,
//! TEXT-FORMAT.md §1) so that generated programs can carry a `# shaderdiff-gen ...` stamp.
//! A `#` wherever whitespace may stand runs to the end of the line and counts as
//! whitespace; the printer never writes comments. Expected programs are the same text
//! without the comments; positions are counted by hand (1-based, columns in characters).

use rstest::rstest;
use shaderdiff_tgsi::{parse, print};

/// The reference program, without comments.
const PLAIN: &str = "VERT\nDCL IN[0]\nDCL OUT[0]\nIMM[0] FLT32 {1.0, 2.0, 3.0, 4.0}\n\
                     ADD OUT[0], IN[0], IMM[0]\nEND\n";

#[rstest]
#[case::before_header("# shaderdiff-gen 0.1.0 seed=1 index=0\n# second line\n", "")]
#[case::indented_before_header("   # indented\n\t#tab\n", "")]
#[case::empty_comment("#\n", "")]
fn comments_before_the_header(#[case] prefix: &str, #[case] _unused: &str) {
    let text = format!("{prefix}{PLAIN}");
    assert_eq!(
        parse(&text, "c.tgsi").unwrap(),
        parse(PLAIN, "p.tgsi").unwrap()
    );
}

#[rstest]
// After a statement, on its own line, between operands, before the label-less END,
// and at the very end without a newline.
#[case::after_statement(
    "VERT # header\nDCL IN[0] # input\nDCL OUT[0]\nIMM[0] FLT32 {1.0, 2.0, 3.0, 4.0}\nADD OUT[0], IN[0], IMM[0] # add\nEND # done"
)]
#[case::own_lines(
    "VERT\n# c\nDCL IN[0]\n#c\nDCL OUT[0]\nIMM[0] FLT32 {1.0, 2.0, 3.0, 4.0}\n#\nADD OUT[0], IN[0], IMM[0]\nEND\n# trailing\n"
)]
#[case::inside_statement(
    "VERT\nDCL IN[0]\nDCL OUT[0]\nIMM[0] FLT32 {1.0, # x\n 2.0, 3.0, 4.0}\nADD OUT[0], # dst\n IN[0], IMM[0]\nEND\n"
)]
#[case::no_space_before_hash(
    "VERT\nDCL IN[0]#x\nDCL OUT[0]\nIMM[0] FLT32 {1.0, 2.0, 3.0, 4.0}\nADD OUT[0], IN[0], IMM[0]#y\nEND"
)]
#[case::crlf_lines(
    "# stamp\r\nVERT\r\nDCL IN[0]\r\nDCL OUT[0]\r\nIMM[0] FLT32 {1.0, 2.0, 3.0, 4.0}\r\nADD OUT[0], IN[0], IMM[0] # c\r\nEND\r\n"
)]
fn comments_are_whitespace(#[case] text: &str) {
    let p = parse(text, "c.tgsi").unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(p, parse(PLAIN, "p.tgsi").unwrap());
}

#[test]
fn printer_never_writes_comments() {
    let text = format!("# stamp seed=1\n{PLAIN}");
    let out = print(&parse(&text, "c.tgsi").unwrap());
    assert!(!out.contains('#'), "{out}");
    assert_eq!(out, print(&parse(PLAIN, "p.tgsi").unwrap()));
}

#[test]
fn positions_after_comments_count_the_comment_lines() {
    // Line 5 is `MOV TEMP[0], TEMP[9] # three`; TEMP[9] is undeclared and starts at
    // column 14 ("MOV " is 4 characters, "TEMP[0], " 9 more). The comment lines 3-4 count
    // as lines.
    let text = "VERT\nDCL TEMP[0]\n# one\n# two\nMOV TEMP[0], TEMP[9] # three\nEND\n";
    let e = parse(text, "c.tgsi").unwrap_err();
    assert_eq!((e.pos.line, e.pos.col), (5, 14), "{e}");
}

#[test]
fn a_hash_inside_a_word_ends_the_word() {
    // `MO#V`: the word is `MO`, which is no opcode; the error is at the word (line 2, col 1).
    let e = parse("VERT\nMO#V\nEND\n", "c.tgsi").unwrap_err();
    assert_eq!((e.pos.line, e.pos.col), (2, 1), "{e}");
    assert!(e.message.contains("MO"), "{e}");
}
