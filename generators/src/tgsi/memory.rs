//! Memory programs with contention: COMP programs whose invocations
//! update `BUFFER[0]` and, sometimes, `MEMORY[0], SHARED` with atomics at addresses built
//! to collide, store what they saw into `BUFFER[1]`, and synchronise with BARRIER.
//!
//! Address patterns (dword addresses, byte offset = 4 × dword; tgsi.rst "Resource Access
//! Opcodes": offsets are in bytes):
//!
//! * **one address**: every invocation at dword 0;
//! * **hot addresses**: dword `SV.x & 3` (four hot dwords);
//! * **strided**: dword `(SV.x & 15) × stride`, stride 1 or 2.
//!
//! `SV[0]` is the THREAD_ID the inputs give (random words; only the masked bits matter), so
//! every address stays inside the 128-byte resources the inputs generator gives
//! ([`crate::inputs::inputs_for`]). Plain stores only go to `BUFFER[1]`: a dword both
//! stored and updated atomically is outside what the atomic comparator judges
//! (README "Memory"). Atomic operands are immediates (edge values), the invocation's
//! `SV[0].y`, a constant, or the value the previous atomic returned (a data dependency
//! between atomics).

use std::fmt::Write;

use shaderdiff_model::{Opcode, Program};
use shaderdiff_tgsi as tgsi;

use crate::choices::Choices;
use crate::inputs::special_word;

/// Every atomic opcode of tgsi.rst "Atomic opcodes": the generator draws them all.
pub const ATOMICS: &[Opcode] = &shaderdiff_model::atomic::ATOMIC_OPCODES;

/// A memory program built from `c`, with about `max_ops` memory operations (at least 1),
/// and the opcodes it uses (in first-use order).
///
/// Text first, then parsed: the program is valid TGSI by construction
/// (TEXT-FORMAT.md §6.4 `DCL BUFFER[n]`, `DCL MEMORY[n], SHARED`; tgsi.rst LOAD, STORE,
/// atomics, BARRIER).
pub fn build_memory(c: &mut Choices, max_ops: usize) -> (Program, Vec<Opcode>) {
    let width = c.pick(&[4u32, 8, 16]);
    let shared = c.chance(40);
    let mut t = String::new();
    let _ = write!(
        t,
        "COMP\nPROPERTY CS_FIXED_BLOCK_WIDTH {width}\nPROPERTY CS_FIXED_BLOCK_HEIGHT 1\n\
         PROPERTY CS_FIXED_BLOCK_DEPTH 1\nDCL SV[0], THREAD_ID\nDCL BUFFER[0]\nDCL BUFFER[1]\n"
    );
    if shared {
        t.push_str("DCL MEMORY[0], SHARED\n");
    }
    t.push_str("DCL CONST[0]\nDCL TEMP[0..3]\n");
    let vals: Vec<u32> = (0..4).map(|_| special_word(c)).collect();
    let _ = writeln!(t, "IMM[0] UINT32 {{3, 15, 2, 0}}");
    let _ = writeln!(
        t,
        "IMM[1] UINT32 {{{}, {}, {}, {}}}",
        vals[0], vals[1], vals[2], vals[3]
    );
    t.push_str("MOV TEMP[1], IMM[0].wwww\n");
    let mut used = Vec::new();
    let n = 1 + c.below(max_ops.max(1));
    for _ in 0..n {
        match c.below(10) {
            0 if shared || c.chance(50) => {
                t.push_str("BARRIER\n");
                note(&mut used, Opcode::BARRIER);
            }
            1 | 2 => {
                // The value an atomic returned, stored at this invocation's address.
                address(c, &mut t, 2);
                t.push_str("STORE BUFFER[1].x, TEMP[2].xxxx, TEMP[1].xxxx\n");
                note(&mut used, Opcode::STORE);
            }
            3 => {
                address(c, &mut t, 2);
                t.push_str("LOAD TEMP[3].x, BUFFER[0], TEMP[2].xxxx\n");
                t.push_str("STORE BUFFER[1].x, TEMP[2].xxxx, TEMP[3].xxxx\n");
                note(&mut used, Opcode::LOAD);
                note(&mut used, Opcode::STORE);
            }
            _ => {
                let op = c.pick(ATOMICS);
                let res = if shared && c.chance(50) {
                    "MEMORY[0]"
                } else {
                    "BUFFER[0]"
                };
                address(c, &mut t, 0);
                let src = operand(c);
                if op == Opcode::ATOMCAS {
                    let cmp = operand(c);
                    let _ = writeln!(t, "ATOMCAS TEMP[1].x, {res}, TEMP[0].xxxx, {cmp}, {src}");
                } else {
                    let _ = writeln!(t, "{op} TEMP[1].x, {res}, TEMP[0].xxxx, {src}");
                }
                note(&mut used, op);
            }
        }
    }
    t.push_str("END\n");
    let p = tgsi::parse(&t, "memory.tgsi")
        .unwrap_or_else(|e| panic!("generated memory program does not parse: {e}\n{t}"));
    (p, used)
}

fn note(used: &mut Vec<Opcode>, op: Opcode) {
    if !used.contains(&op) {
        used.push(op);
    }
}

/// Byte offset of a dword chosen by one of the address patterns (module docs) into
/// `TEMP[reg].x`.
fn address(c: &mut Choices, t: &mut String, reg: u32) {
    match c.below(3) {
        0 => {
            let _ = writeln!(t, "MOV TEMP[{reg}].x, IMM[0].wwww");
        }
        1 => {
            let _ = writeln!(t, "AND TEMP[{reg}].x, SV[0].xxxx, IMM[0].xxxx");
            let _ = writeln!(t, "SHL TEMP[{reg}].x, TEMP[{reg}].xxxx, IMM[0].zzzz");
        }
        _ => {
            let _ = writeln!(t, "AND TEMP[{reg}].x, SV[0].xxxx, IMM[0].yyyy");
            if c.chance(50) {
                // Stride 2.
                let _ = writeln!(t, "UADD TEMP[{reg}].x, TEMP[{reg}].xxxx, TEMP[{reg}].xxxx");
            }
            let _ = writeln!(t, "SHL TEMP[{reg}].x, TEMP[{reg}].xxxx, IMM[0].zzzz");
        }
    }
}

/// An atomic operand: an edge value, the invocation's `SV[0].y`, a constant, or the value
/// the previous atomic returned.
fn operand(c: &mut Choices) -> String {
    match c.below(4) {
        0 => format!("IMM[1].{}", ["xxxx", "yyyy", "zzzz", "wwww"][c.below(4)]),
        1 => "SV[0].yyyy".into(),
        2 => format!("CONST[0].{}", ["xxxx", "yyyy", "zzzz", "wwww"][c.below(4)]),
        _ => "TEMP[1].xxxx".into(),
    }
}
