//! The printer is tgsi_dump: every example of spec/tgsi/examples prints byte-identically
//! to its `exNN.expected-dump.txt` (TEXT-FORMAT.md §12; the dumps were produced by Mesa's
//! tgsi_dump), and parse/print round-trips.

mod common;

use rstest::rstest;
use shaderdiff_tgsi::{parse, print, print_with, PrintOptions};

#[rstest]
fn example_prints_like_tgsi_dump(
    #[values(
        "ex01", "ex02", "ex03", "ex04", "ex05", "ex06", "ex07", "ex08", "ex09", "ex10", "ex11",
        "ex12", "ex13"
    )]
    name: &str,
) {
    let text = common::read_shared(&format!("spec/tgsi/examples/{name}.tgsi"));
    let expected = common::read_shared(&format!("spec/tgsi/examples/{name}.expected-dump.txt"));
    let p = parse(&text, name).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(print(&p), expected);
    // Round trips: default print (these examples only use 4-decimal floats) and lossless.
    assert_eq!(parse(&print(&p), name).unwrap(), p);
    let lossless = print_with(&p, &PrintOptions { lossless: true });
    assert_eq!(parse(&lossless, name).unwrap(), p);
}
