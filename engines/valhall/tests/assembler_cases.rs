//! Every line of `spec/valhall/assembler-cases.txt`: bytes → text must be identical, and
//! text → bytes must be identical (ENCODING.md §11.1).
//!
//! The one known exception (README.md, "Known inconsistency"):
//! `00 c9 8f 12 30 c0 a0 00    CLPER.i32.f1 r0, r0, 0x7060504.b0` was written when
//! CLPER's second source was a 32-bit `widen` operand. In our ISA.xml it is an 8-bit
//! `lanes` operand, and value 4 of `Lanes (8-bit)` is `b00`. Chosen handling (the first
//! two of README.md's suggestions): the disassembler prints `.b00` (what our ISA.xml
//! says), and the assembler accepts `.b0`–`.b3` on a `lanes` operand as aliases of
//! `.b00`–`.b33` (same values 4–7). The test checks this one case explicitly: bytes →
//! `….b00`, and both `….b0` and `….b00` → the bytes.

mod common;

use shaderdiff_valhall::{assemble, disassemble, format_hex, parse_case_line};

const CLPER_BYTES: [u8; 8] = [0x00, 0xc9, 0x8f, 0x12, 0x30, 0xc0, 0xa0, 0x00];
const CLPER_FILE_TEXT: &str = "CLPER.i32.f1 r0, r0, 0x7060504.b0";
const CLPER_OUR_TEXT: &str = "CLPER.i32.f1 r0, r0, 0x7060504.b00";

fn cases() -> Vec<([u8; 8], String)> {
    let text = common::read_spec("assembler-cases.txt");
    text.lines()
        .filter(|l| !l.is_empty())
        .map(|l| {
            let (bytes, asm) = parse_case_line(l).unwrap_or_else(|e| panic!("{l:?}: {e}"));
            (bytes, asm.to_string())
        })
        .collect()
}

#[test]
fn file_has_244_vectors() {
    assert_eq!(cases().len(), 244);
}

#[test]
fn bytes_to_text() {
    let mut passed = 0;
    let mut failures = Vec::new();
    for (bytes, want) in cases() {
        let want = if bytes == CLPER_BYTES {
            assert_eq!(want, CLPER_FILE_TEXT, "the CLPER vector changed");
            CLPER_OUR_TEXT.to_string()
        } else {
            want
        };
        match disassemble(&bytes) {
            Ok(got) if got == want => passed += 1,
            Ok(got) => failures.push(format!(
                "{}: got `{got}`, want `{want}`",
                format_hex(&bytes)
            )),
            Err(e) => failures.push(format!("{}: {e} (want `{want}`)", format_hex(&bytes))),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert_eq!(passed, 244);
}

#[test]
fn text_to_bytes() {
    let mut passed = 0;
    let mut failures = Vec::new();
    for (want, text) in cases() {
        match assemble(&text) {
            Ok(got) if got == want => passed += 1,
            Ok(got) => failures.push(format!(
                "`{text}`: got {}, want {}",
                format_hex(&got),
                format_hex(&want)
            )),
            Err(e) => failures.push(format!("`{text}`: {e}")),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert_eq!(passed, 244);
}

#[test]
fn clper_b0_vs_b00() {
    // bytes → our text (`.b00`)
    assert_eq!(disassemble(&CLPER_BYTES).unwrap(), CLPER_OUR_TEXT);
    // the file's text (`.b0`, alias) and ours both assemble to the bytes
    assert_eq!(assemble(CLPER_FILE_TEXT).unwrap(), CLPER_BYTES);
    assert_eq!(assemble(CLPER_OUR_TEXT).unwrap(), CLPER_BYTES);
    // the alias covers b0–b3 = b00–b33 (values 4–7); other 32-bit widen names do not
    for (alias, canon) in [("b1", "b11"), ("b2", "b22"), ("b3", "b33")] {
        let a = assemble(&format!("CLPER.i32.f1 r0, r0, 0x7060504.{alias}")).unwrap();
        let c = assemble(&format!("CLPER.i32.f1 r0, r0, 0x7060504.{canon}")).unwrap();
        assert_eq!(a, c);
    }
    assert!(assemble("CLPER.i32.f1 r0, r0, 0x7060504.h1").is_err());
}
