//! Spec-derived programs for the inter-lane votes VOTE_ANY, VOTE_ALL, VOTE_EQ and
//! READ_FIRST (tgsi.rst "Inter-lane opcodes"). Thread groups are implementation-defined
//! (NV_gpu_program5 §2.X.8.Z; the oracle's model is in `shaderdiff_oracles::interp`, module
//! `vote`), so the inputs are chosen to make results decided:
//!
//! * `uniform`: every invocation holds the same vec4 (zero, one, the sign bit and a NaN
//!   word): every vote is decided;
//! * `edge`: the edge words, different per invocation: only the results an invocation's
//!   own value decides (VOTE_ANY of a set value, VOTE_ALL of an unset one) are defined;
//! * `divergent`: the votes sit on both sides of a UIF, and the invocations executing each
//!   side agree with each other but not with the other side (tgsi.rst: "active
//!   invocations"; NV: threads not executing "have no bearing").

use shaderdiff_model::{File, Opcode};
use shaderdiff_model::{Inputs, RegKey, Vec4};
use shaderdiff_tgsi::parse;

use super::edges::{FLOAT, INT};
use super::SpecCase;

/// The opcodes covered here.
pub const VOTE_OPCODES: &[Opcode] = &[
    Opcode::VOTE_ANY,
    Opcode::VOTE_ALL,
    Opcode::VOTE_EQ,
    Opcode::READ_FIRST,
];

/// `IN[0]` of `n` invocations, invocation `i` holding `f(i)`.
fn in0(n: usize, f: impl Fn(usize) -> Vec4) -> Inputs {
    let mut inputs = Inputs {
        invocations: n,
        ..Inputs::default()
    };
    inputs
        .registers
        .insert(RegKey::new(File::Input, 0), (0..n).map(f).collect());
    inputs
}

/// Every vote template as a spec case.
///
/// # Panics
/// Never for the shipped templates (fixed text; the crate's tests parse them).
pub(super) fn cases() -> Vec<SpecCase> {
    let mut edges: Vec<u32> = INT.to_vec();
    edges.extend(FLOAT.iter().filter(|w| !INT.contains(w)));
    let n_edge = edges.len().div_ceil(4) * 4;
    let mut out = Vec::new();
    for &op in VOTE_OPCODES {
        let name = op.name();
        let plain = format!(
            "FRAG\nDCL IN[0], GENERIC[0], CONSTANT\nDCL OUT[0], COLOR\n{name} OUT[0], IN[0]\nEND\n"
        );
        let divergent = format!(
            "VERT\nDCL IN[0]\nDCL OUT[0]\nDCL TEMP[0]\nUIF IN[0].xxxx\n{name} TEMP[0], IN[0].yzwy\n\
             ELSE\n{name} TEMP[0], IN[0].wzyw\nENDIF\nMOV OUT[0], TEMP[0]\nEND\n"
        );
        let uniform = in0(8, |_| [0, 1, 0x8000_0000, 0x7fc0_0000]);
        let edge = in0(n_edge, |i| {
            [0, 1, 2, 3].map(|c| edges[(i + 7 * c) % edges.len()])
        });
        // Even invocations (x set) read y, z, w = 5, 0, -0.0 on the UIF side; odd ones
        // read w, z, y = 0, 9, 9 on the ELSE side.
        let split = in0(12, |i| {
            if i % 2 == 0 {
                [1, 5, 0, 0x8000_0000]
            } else {
                [0, 9, 9, 0]
            }
        });
        for (variant, text, inputs) in [
            ("uniform", &plain, uniform),
            ("edge", &plain, edge),
            ("divergent", &divergent, split),
        ] {
            let program = parse(text, "template.tgsi")
                .unwrap_or_else(|e| panic!("spec template {name} {variant}: {e}"));
            out.push(SpecCase::new(op, variant, program, inputs, None));
        }
    }
    out
}
