//! Helpers for the ALU API tests (opcodes_api, alu_rounding): run one opcode through
//! `shaderdiff_oracles::interp::alu::eval` with the same operands in every lane and check the
//! lane-loop invariants (all lanes agree, disabled channels untouched). The opcode value
//! tables live in engines/tests/alu and run on every engine.
//!
//! Float constants are binary32 bit patterns, written by hand.
#![allow(dead_code)]

use shaderdiff_model::Opcode;
use shaderdiff_oracles::interp::alu::eval;
use shaderdiff_oracles::interp::lanes::{Mask, Vals, LANES, ZERO_VALS};

/// Filler for destination channels outside the writemask.
pub const SENTINEL: u32 = 0xDEAD_BEEF;

pub const ONE: u32 = 0x3F80_0000;
pub const TWO: u32 = 0x4000_0000;
pub const THREE: u32 = 0x4040_0000;
pub const FOUR: u32 = 0x4080_0000;
pub const HALF: u32 = 0x3F00_0000;
pub const EIGHT: u32 = 0x4100_0000;
/// A quiet NaN. As an expected value it means "any NaN" (see [`assert_f32`]).
pub const NAN: u32 = 0x7FC0_0000;

/// Result of one evaluation: lane 0's four channels and their undefined flags.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Res {
    pub value: [u32; 4],
    pub undefined: [bool; 4],
}

/// Evaluates `op` with source k = `srcs[k]` (a vec4 of bits) in every lane and writemask `wm`.
/// Asserts that eval succeeds, every lane gives the same value and flags, and channels outside
/// `wm` keep [`SENTINEL`] with no undefined flag.
pub fn eval_vec(op: Opcode, srcs: &[[u32; 4]], wm: u8) -> Res {
    let vals: Vec<Vals> = srcs
        .iter()
        .map(|v| {
            let mut x = ZERO_VALS;
            for c in 0..4 {
                x[c] = [v[c]; LANES];
            }
            x
        })
        .collect();
    let mut out = [[SENTINEL; LANES]; 4];
    let mut undef: [Mask; 4] = [0; 4];
    eval(op, &vals, wm, &mut out, &mut undef).expect("eval supports the opcode");
    let mut res = Res {
        value: [0; 4],
        undefined: [false; 4],
    };
    for c in 0..4 {
        if wm >> c & 1 == 0 {
            assert!(
                out[c].iter().all(|&w| w == SENTINEL),
                "{op} wrote channel {c}"
            );
            assert_eq!(undef[c], 0, "{op} flagged disabled channel {c}");
            continue;
        }
        assert!(
            out[c].iter().all(|&w| w == out[c][0]),
            "{op}: lanes disagree"
        );
        assert!(
            undef[c] == 0 || undef[c] == Mask::MAX,
            "{op}: lane flags disagree"
        );
        res.value[c] = out[c][0];
        res.undefined[c] = undef[c] & 1 != 0;
    }
    res
}

/// Float equality as the comparators define it: an expected NaN matches any NaN; otherwise the
/// bits must be identical (so -0 and +0 differ, denormals must be kept).
pub fn assert_f32(got: u32, want: u32, what: &str) {
    let (g, w) = (f32::from_bits(got), f32::from_bits(want));
    if w.is_nan() {
        assert!(g.is_nan(), "{what}: got {g:e} ({got:#010x}), want NaN");
    } else {
        assert_eq!(
            got, want,
            "{what}: got {g:e} ({got:#010x}), want {w:e} ({want:#010x})"
        );
    }
}
