//! Spec-derived programs for the non-ALU opcodes the oracle runs: control flow (tgsi.rst
//! "Control flow": IF/UIF/ELSE/ENDIF, BGNLOOP/ENDLOOP/BRK/CONT, SWITCH/CASE/DEFAULT/
//! ENDSWITCH with fall-through and DEFAULT anywhere, CAL/RET/BGNSUB/ENDSUB, END, NOP),
//! KILL/KILL_IF/DEMOTE, derivatives over fragment quads (INTERFACE.md "Fragment quads"),
//! and the address loads ARL/ARR/UARL driving indirect reads, in and out of bounds.
//!
//! Each is a small hand-written template, parsed (so it is valid by the front-end's own
//! checks), with inputs drawn from the edge lists.

use shaderdiff_model::{File, Opcode, Stage};
use shaderdiff_model::{Inputs, RegKey, Vec4};
use shaderdiff_tgsi::parse;

use super::edges::{FLOAT, INT};
use super::SpecCase;

/// `IN[0]` holding `values` in channel x, invocation by invocation; channels y, z, w hold
/// the values 1, 2 and 3 places later, so every channel sees every value. The count is
/// rounded up to a multiple of 4; missing invocations repeat from the start.
fn in0(values: &[u32]) -> Inputs {
    let n = values.len().max(1);
    let invocations = n.div_ceil(4) * 4;
    let v: Vec<Vec4> = (0..invocations)
        .map(|i| [0, 1, 2, 3].map(|c| values.get((i + c) % n).copied().unwrap_or(0)))
        .collect();
    let mut inputs = Inputs {
        invocations,
        ..Inputs::default()
    };
    inputs.registers.insert(RegKey::new(File::Input, 0), v);
    inputs
}

/// [`in0`] as the geometry input `IN[0][0]` (vertex 0 of a point).
fn vertex0(values: &[u32]) -> Inputs {
    let mut inputs = in0(values);
    if let Some(v) = inputs.registers.remove(&RegKey::new(File::Input, 0)) {
        let key = RegKey {
            file: File::Input,
            dimension: Some(0),
            index: 0,
        };
        inputs.registers.insert(key, v);
    }
    inputs
}

/// Quads whose values are `base + dx*x + dy*y` (small integers, exact in binary32), so
/// both rows (columns) of a quad agree and coarse derivatives are defined.
fn linear_quads() -> Inputs {
    let mut v = Vec::new();
    for (q, (base, dx, dy)) in [
        (0.0f32, 1.0f32, 2.0f32),
        (-3.0, 0.5, -4.0),
        (100.0, -8.0, 0.25),
        (0.0, 0.0, 0.0),
        (-0.0, 0.125, 1024.0),
        (1e30, 1e30, -1e30),
    ]
    .into_iter()
    .enumerate()
    {
        for (x, y) in [(0.0f32, 0.0f32), (1.0, 0.0), (0.0, 1.0), (1.0, 1.0)] {
            let f = |k: f32| (base + k * (dx * x + dy * y)).to_bits();
            v.push([f(1.0), f(2.0), f(-1.0), f(q as f32)]);
        }
    }
    let mut inputs = Inputs {
        invocations: v.len(),
        ..Inputs::default()
    };
    inputs.registers.insert(RegKey::new(File::Input, 0), v);
    inputs
}

/// Integer values 0..16 then the integer edges (selectors, trip counts, bit masks).
fn small_then_int() -> Vec<u32> {
    let mut v: Vec<u32> = (0..16).collect();
    v.extend(INT.iter().filter(|w| **w >= 16));
    v
}

/// Fractional and boundary indices for the address loads: -1, -0.5, 0, 0.49, 0.5, 1, 1.5,
/// 2.5, 3, 3.5, 3.99, 4 (out of bounds), NaN, inf, 1e10 (conversion out of range).
const ADDRESSES: &[f32] = &[
    -1.0,
    -0.5,
    0.0,
    0.49,
    0.5,
    1.0,
    1.5,
    2.5,
    3.0,
    3.5,
    3.99,
    4.0,
    f32::NAN,
    f32::INFINITY,
    1e10,
];

const FRAG_HEAD: &str = "FRAG\nDCL IN[0], GENERIC[0], CONSTANT\nDCL OUT[0], COLOR\n";

fn switch_text(default_at: Option<usize>) -> String {
    let cases = [
        "CASE IMM[0].xxxx\nMOV OUT[0].x, IMM[1].xxxx\nBRK\n",
        // No BRK: falls through into whatever follows.
        "CASE IMM[0].yyyy\nMOV OUT[0].y, IMM[1].yyyy\n",
        "CASE IMM[0].zzzz\nMOV OUT[0].z, IMM[1].zzzz\nBRK\n",
    ];
    let mut body = String::new();
    for (k, c) in cases.iter().enumerate() {
        if default_at == Some(k) {
            body.push_str("DEFAULT\nMOV OUT[0].w, IMM[1].wwww\nBRK\n");
        }
        body.push_str(c);
    }
    if default_at == Some(cases.len()) {
        body.push_str("DEFAULT\nMOV OUT[0].w, IMM[1].wwww\nBRK\n");
    }
    format!(
        "VERT\nDCL IN[0]\nDCL OUT[0]\nIMM[0] INT32 {{0, 1, -2147483648, -1}}\n\
         IMM[1] FLT32 {{1.0, 2.0, 3.0, 4.0}}\nSWITCH IN[0].xxxx\n{body}ENDSWITCH\nEND\n"
    )
}

fn address_text(load: &str) -> String {
    format!(
        "VERT\nDCL IN[0]\nDCL OUT[0]\nDCL TEMP[0..3], ARRAY(1)\nDCL ADDR[0]\n\
         IMM[0] FLT32 {{10.0, 20.0, 30.0, 40.0}}\n\
         MOV TEMP[0], IMM[0].xxxx\nMOV TEMP[1], IMM[0].yyyy\nMOV TEMP[2], IMM[0].zzzz\n\
         MOV TEMP[3], IMM[0].wwww\n{load} ADDR[0].x, IN[0].xxxx\n\
         MOV OUT[0], TEMP[ADDR[0].x](1)\nEND\n"
    )
}

/// `(opcode named in the file name, variant, text, inputs)` of every template.
fn templates() -> Vec<(Opcode, &'static str, String, Inputs)> {
    use Opcode::*;
    let floats = || in0(FLOAT);
    let ints = || in0(&small_then_int());
    let if_text = |cond: &str, op: &str| {
        format!(
            "VERT\nDCL IN[0]\nDCL OUT[0]\nIMM[0] FLT32 {{1.0, 2.0, 3.0, 4.0}}\n{op} {cond}\n\
             MOV OUT[0], IMM[0].xxxx\nELSE\nMOV OUT[0], IMM[0].yyyy\nENDIF\nEND\n"
        )
    };
    let mut int_and_float_bits = small_then_int();
    int_and_float_bits.extend(FLOAT.iter().filter(|w| !INT.contains(w)));
    let loop_text = "VERT\nDCL IN[0]\nDCL OUT[0]\nDCL TEMP[0]\nIMM[0] UINT32 {0, 1, 7, 8}\n\
        MOV TEMP[0], IMM[0].xxxx\nAND TEMP[0].y, IN[0].xxxx, IMM[0].zzzz\nBGNLOOP\n\
        USGE TEMP[0].z, TEMP[0].xxxx, TEMP[0].yyyy\nUIF TEMP[0].zzzz\nBRK\nENDIF\n\
        UADD TEMP[0].x, TEMP[0].xxxx, IMM[0].yyyy\nUADD TEMP[0].w, TEMP[0].wwww, IN[0].yyyy\n\
        ENDLOOP\nMOV OUT[0], TEMP[0]\nEND\n";
    let cont_text = "VERT\nDCL IN[0]\nDCL OUT[0]\nDCL TEMP[0]\nIMM[0] UINT32 {0, 1, 8, 0}\n\
        MOV TEMP[0], IMM[0].xxxx\nBGNLOOP\nUSGE TEMP[0].z, TEMP[0].xxxx, IMM[0].zzzz\n\
        UIF TEMP[0].zzzz\nBRK\nENDIF\nUADD TEMP[0].x, TEMP[0].xxxx, IMM[0].yyyy\n\
        USHR TEMP[0].y, IN[0].xxxx, TEMP[0].xxxx\nAND TEMP[0].y, TEMP[0].yyyy, IMM[0].yyyy\n\
        UIF TEMP[0].yyyy\nCONT\nENDIF\nUADD TEMP[0].w, TEMP[0].wwww, TEMP[0].xxxx\n\
        ENDLOOP\nMOV OUT[0], TEMP[0]\nEND\n";
    // Instruction numbers: CAL labels name the BGNSUB (5 and 13).
    let cal_text = "VERT\nDCL IN[0]\nDCL OUT[0]\nDCL TEMP[0]\nIMM[0] FLT32 {1.0, 2.0, 0.0, 0.0}\n\
        0: MOV TEMP[0], IMM[0].zzzz\n1: CAL :5\n2: ADD TEMP[0].y, TEMP[0].yyyy, IMM[0].yyyy\n\
        3: MOV OUT[0], TEMP[0]\n4: END\n5: BGNSUB\n6: ADD TEMP[0].x, TEMP[0].xxxx, IMM[0].xxxx\n\
        7: IF IN[0].xxxx\n8: RET\n9: ENDIF\n10: CAL :13\n11: RET\n12: ENDSUB\n13: BGNSUB\n\
        14: ADD TEMP[0].z, TEMP[0].zzzz, IMM[0].xxxx\n15: RET\n16: ENDSUB\n";
    let end_text = "VERT\nDCL IN[0]\nDCL OUT[0]\nIMM[0] FLT32 {1.0, 2.0, 0.0, 0.0}\n\
        MOV OUT[0], IMM[0].xxxx\nIF IN[0].xxxx\nEND\nENDIF\nMOV OUT[0], IMM[0].yyyy\nEND\n";
    let nop_text = "VERT\nDCL IN[0]\nDCL OUT[0]\nNOP\nMOV OUT[0], IN[0]\nNOP\nEND\n";
    let kill_text = format!("{FRAG_HEAD}IF IN[0].xxxx\nKILL\nENDIF\nMOV OUT[0], IN[0]\nEND\n");
    let kill_if = |src: &str| format!("{FRAG_HEAD}KILL_IF {src}\nMOV OUT[0], IN[0]\nEND\n");
    let demote_text = format!(
        "{FRAG_HEAD}DCL TEMP[0]\nIF IN[0].xxxx\nDEMOTE\nENDIF\nMOV TEMP[0], IN[0].yyyy\n\
         DDX_FINE OUT[0], TEMP[0]\nEND\n"
    );
    let deriv = |op: &str| format!("{FRAG_HEAD}{op} OUT[0], IN[0]\nEND\n");
    // Geometry (tgsi.rst "Geometry ISA"): snapshots of the outputs, a divergent EMIT past
    // GS_MAX_OUTPUT_VERTICES (dropped, EXEC-NOTES.md §7), streams and empty primitives.
    let geom_head = "GEOM\nPROPERTY GS_INPUT_PRIMITIVE POINTS\nPROPERTY GS_OUTPUT_PRIMITIVE \
        LINE_STRIP\nPROPERTY GS_MAX_OUTPUT_VERTICES 3\nDCL IN[][0], GENERIC[0]\n\
        DCL OUT[0], GENERIC[0]\nIMM[0] INT32 {0, 1, 0, 0}\n";
    let emit_text = format!(
        "{geom_head}MOV OUT[0], IN[0][0]\nEMIT IMM[0].xxxx\nMOV OUT[0], IN[0][0].wzyx\n\
         IF IN[0][0].xxxx\nEMIT IMM[0].xxxx\nEMIT IMM[0].xxxx\nEMIT IMM[0].xxxx\nENDIF\n\
         EMIT\nEND\n"
    );
    let endprim_text = format!(
        "{geom_head}MOV OUT[0], IN[0][0]\nEMIT IMM[0].xxxx\nENDPRIM IMM[0].xxxx\n\
         IF IN[0][0].xxxx\nENDPRIM IMM[0].xxxx\nENDIF\nEMIT IMM[0].yyyy\nENDPRIM\n\
         ENDPRIM IMM[0].yyyy\nEMIT IMM[0].xxxx\nEND\n"
    );
    let mut uarl_values: Vec<u32> = (0..5).collect();
    uarl_values.extend([0xffff_ffff, 0x8000_0000, 0x7fff_ffff]);
    let mut t = vec![
        (IF, "edge", if_text("IN[0].xxxx", "IF"), floats()),
        (IF, "neg", if_text("-IN[0].xxxx", "IF"), floats()),
        (IF, "swz-y", if_text("IN[0].yyyy", "IF"), floats()),
        (
            UIF,
            "edge",
            if_text("IN[0].xxxx", "UIF"),
            in0(&int_and_float_bits),
        ),
        (UIF, "neg", if_text("-IN[0].xxxx", "UIF"), ints()),
        (BGNLOOP, "edge", loop_text.to_string(), ints()),
        (CONT, "edge", cont_text.to_string(), ints()),
        (CAL, "edge", cal_text.to_string(), floats()),
        (END, "edge", end_text.to_string(), floats()),
        (NOP, "edge", nop_text.to_string(), floats()),
        (KILL, "edge", kill_text, floats()),
        (KILL_IF, "edge", kill_if("IN[0]"), floats()),
        (KILL_IF, "swz-x", kill_if("IN[0].xxxx"), floats()),
        (KILL_IF, "neg", kill_if("-IN[0]"), floats()),
        // The legacy names (TEXT-FORMAT.md: accepted for old programs): KIL is KILL_IF,
        // KILP is KILL.
        (
            KIL,
            "edge",
            format!("{FRAG_HEAD}KIL IN[0]\nMOV OUT[0], IN[0]\nEND\n"),
            floats(),
        ),
        (
            KILP,
            "edge",
            format!("{FRAG_HEAD}IF IN[0].xxxx\nKILP\nENDIF\nMOV OUT[0], IN[0]\nEND\n"),
            floats(),
        ),
        (DEMOTE, "edge", demote_text, floats()),
        (EMIT, "edge", emit_text, vertex0(FLOAT)),
        (ENDPRIM, "edge", endprim_text, vertex0(FLOAT)),
        (ARL, "indirect", address_text("ARL"), in0_f32(ADDRESSES)),
        (ARR, "indirect", address_text("ARR"), in0_f32(ADDRESSES)),
        (UARL, "indirect", address_text("UARL"), in0(&uarl_values)),
    ];
    for (name, at) in [
        ("default-first", Some(0)),
        ("default-middle", Some(2)),
        ("default-last", Some(3)),
        ("no-default", None),
    ] {
        t.push((SWITCH, name, switch_text(at), ints()));
    }
    for (op, text) in [
        (DDX, "DDX"),
        (DDY, "DDY"),
        (DDX_FINE, "DDX_FINE"),
        (DDY_FINE, "DDY_FINE"),
    ] {
        t.push((op, "edge", deriv(text), floats()));
        t.push((op, "linear", deriv(text), linear_quads()));
    }
    t
}

fn in0_f32(values: &[f32]) -> Inputs {
    let bits: Vec<u32> = values.iter().map(|f| f.to_bits()).collect();
    in0(&bits)
}

/// Every control-flow, kill, derivative and address-load template as a spec case.
///
/// # Panics
/// Never for the shipped templates (they are fixed text; a template that does not parse
/// is a bug caught by the crate's tests).
pub(super) fn cases() -> Vec<SpecCase> {
    templates()
        .into_iter()
        .map(|(op, variant, text, inputs)| {
            let program = parse(&text, "template.tgsi")
                .unwrap_or_else(|e| panic!("spec template {op} {variant}: {e}"));
            debug_assert!(
                program.stage != Stage::Fragment || inputs.invocations % 4 == 0,
                "fragment inputs are whole quads"
            );
            SpecCase::new(op, variant, program, inputs, None)
        })
        .collect()
}
