//! Source modifiers on 64-bit operands (`shaderdiff_model::wide_modifiers`): programs
//! written in TGSI text, rewritten, and printed back.

use shaderdiff_model::wide_modifiers::{expand_source_modifiers, has_wide_modifiers};
use shaderdiff_model::Opcode;
use shaderdiff_tgsi as tgsi;

#[test]
fn programs_without_wide_modifiers_are_not_copied() {
    let p = tgsi::parse(
        "VERT\nDCL IN[0]\nDCL OUT[0]\nU64ADD OUT[0], IN[0], IN[0]\nADD OUT[0].x, -IN[0], IN[0]\nEND\n",
        "t",
    )
    .unwrap();
    assert!(expand_source_modifiers(&p).is_none());
}

#[test]
fn each_modified_source_gets_its_own_scratch_temporary() {
    let src = "VERT\nDCL IN[0]\nDCL OUT[0]\nDCL TEMP[0..1]\nCAL :4\nEND\nNOP\nNOP\nBGNSUB\n\
               U64ADD OUT[0].xy, -|IN[0].zwzw|, -TEMP[1]\nRET\nENDSUB\nEND\n";
    let p = tgsi::parse(src, "t").unwrap();
    let q = expand_source_modifiers(&p).expect("rewritten");
    let text = tgsi::print(&q);
    // TEMP[2] for source 0 (abs then negate), TEMP[3] for source 1 (negate); the CAL
    // still reaches the BGNSUB, now three instructions later.
    for line in [
        "DCL TEMP[2..3]",
        "CAL :4",
        "I64ABS TEMP[2], IN[0].zwzw",
        "I64NEG TEMP[2], TEMP[2]",
        "I64NEG TEMP[3], TEMP[1]",
        "U64ADD OUT[0].xy, TEMP[2], TEMP[3]",
    ] {
        assert!(text.contains(line), "{line} missing in\n{text}");
    }
    assert!(!has_wide_modifiers(&q));
    // Inserted instructions report the position of the instruction they serve.
    let at = |i: usize| q.source_map.instruction(i).map(|p| p.line);
    let u64add = q
        .instructions
        .iter()
        .position(|i| i.opcode == Opcode::U64ADD)
        .unwrap();
    assert_eq!(at(u64add - 1), at(u64add));
    assert_eq!(at(u64add), Some(10));
}

#[test]
fn double_sources_use_dabs_and_dneg() {
    let p = tgsi::parse(
        "VERT\nDCL IN[0]\nDCL OUT[0]\nDADD OUT[0], IN[0], -IN[0]\nDMUL OUT[0], |IN[0]|, IN[0]\nEND\n",
        "t",
    )
    .unwrap();
    let text = tgsi::print(&expand_source_modifiers(&p).unwrap());
    for line in [
        "DNEG TEMP[1], IN[0]",
        "DADD OUT[0], IN[0], TEMP[1]",
        "DABS TEMP[0], IN[0]",
        "DMUL OUT[0], TEMP[0], IN[0]",
    ] {
        assert!(text.contains(line), "{line} missing in\n{text}");
    }
}
