//! `shaderdiff valhall disasm|asm` (INTERFACE.md "Commands") over Mesa's test vectors
//! (`../shared/spec/valhall/assembler-cases.txt`): every line's bytes disassemble to its
//! text and its text assembles to its bytes, through the binary; malformed input is exit 2
//! with the position and the reason.

mod common;

use std::io::Write;
use std::process::{Command, Stdio};

use common::{code, run, text, BIN};

const CASES: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../shared/spec/valhall/assembler-cases.txt"
);

/// `(hex bytes, text)` of every vector; README.md's CLPER line is compared as `.b00`, the
/// disassembler's form (the assembler takes both).
fn cases() -> Vec<(String, String)> {
    let text = std::fs::read_to_string(CASES).expect("the shared spec is beside the repo");
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            // 8 bytes, four spaces, the text exactly (operand-less lines end in a space).
            let (hex, asm) = l.split_at(23);
            let asm = asm.strip_prefix("    ").expect("four spaces").to_string();
            let asm = if asm == "CLPER.i32.f1 r0, r0, 0x7060504.b0" {
                "CLPER.i32.f1 r0, r0, 0x7060504.b00".to_string()
            } else {
                asm
            };
            (hex.to_string(), asm)
        })
        .collect()
}

/// Runs `shaderdiff ARGS` with `input` on stdin; stdout.
fn piped(args: &[&str], input: &str) -> (i32, String) {
    let mut child = Command::new(BIN)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let o = child.wait_with_output().unwrap();
    (code(&o), String::from_utf8_lossy(&o.stdout).into_owned())
}

#[test]
fn the_interface_examples() {
    let o = run(&["valhall", "disasm", "02 00 00 00 00 c1 91 00"]);
    assert_eq!((code(&o), text(&o).as_str()), (0, "MOV.i32 r1, r2\n"));
    let o = run(&["valhall", "asm", "MOV.i32 r1, r2"]);
    assert_eq!(
        (code(&o), text(&o).as_str()),
        (0, "02 00 00 00 00 c1 91 00\n")
    );
}

#[test]
fn every_vector_round_trips_through_the_binary() {
    let cases = cases();
    assert_eq!(cases.len(), 244);
    let hex: String = cases.iter().map(|(h, _)| format!("{h}\n")).collect();
    let want_text: String = cases.iter().map(|(_, t)| format!("{t}\n")).collect();
    let (c, got) = piped(&["valhall", "disasm"], &hex);
    assert_eq!(c, 0);
    for (g, w) in got.lines().zip(want_text.lines()) {
        assert_eq!(g, w);
    }
    assert_eq!(got, want_text);
    let (c, got) = piped(&["valhall", "asm"], &want_text);
    assert_eq!(c, 0);
    assert_eq!(got, hex);
}

#[test]
fn malformed_input_is_exit_2_with_a_position() {
    let o = run(&["valhall", "asm", "FADD.f32 r0, r1"]);
    assert_eq!(code(&o), 2);
    assert!(text(&o).starts_with("argument 1:"), "{}", text(&o));
    let o = run(&["valhall", "disasm", "02 00 zz 00 00 c1 91 00"]);
    assert_eq!(code(&o), 2);
    assert!(text(&o).contains("argument 1:7: `zz`"), "{}", text(&o));
    // Bit 63 is reserved (ENCODING.md §1): not an instruction.
    let o = run(&["valhall", "disasm", "00 00 00 00 00 00 00 80"]);
    assert_eq!(code(&o), 2);
    assert!(text(&o).contains("bit 63"), "{}", text(&o));
    let o = run(&["valhall", "disasm", "02 00 00"]);
    assert_eq!(code(&o), 2);
    let (c, _) = piped(&["valhall", "disasm"], "02 00 00 00 00 c1 91\n");
    assert_eq!(c, 2);
}
