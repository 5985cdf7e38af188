//! Helpers shared by the `opcodes_*` ALU tests: run one opcode through
//! `shaderdiff_oracles::interp::alu::eval` with the same operands in every lane and check the
//! lane-loop invariants (all lanes agree, disabled channels untouched).
//!
//! Float constants are binary32 bit patterns, written by hand.
#![allow(dead_code)]

use shaderdiff_ir::Opcode;
use shaderdiff_oracles::interp::alu::eval;
use shaderdiff_oracles::interp::lanes::{Mask, Vals, LANES, ZERO_VALS};

/// Filler for destination channels outside the writemask.
pub const SENTINEL: u32 = 0xDEAD_BEEF;

pub const ZERO: u32 = 0x0000_0000;
pub const NEG_ZERO: u32 = 0x8000_0000;
pub const ONE: u32 = 0x3F80_0000;
pub const NEG_ONE: u32 = 0xBF80_0000;
pub const TWO: u32 = 0x4000_0000;
pub const NEG_TWO: u32 = 0xC000_0000;
pub const THREE: u32 = 0x4040_0000;
pub const FOUR: u32 = 0x4080_0000;
pub const HALF: u32 = 0x3F00_0000;
pub const NEG_HALF: u32 = 0xBF00_0000;
pub const QUARTER: u32 = 0x3E80_0000;
pub const ONE_HALF: u32 = 0x3FC0_0000; // 1.5
pub const NEG_ONE_HALF: u32 = 0xBFC0_0000; // -1.5
pub const TWO_HALF: u32 = 0x4020_0000; // 2.5
pub const NEG_TWO_HALF: u32 = 0xC020_0000; // -2.5
pub const EIGHT: u32 = 0x4100_0000;
pub const INF: u32 = 0x7F80_0000;
pub const NEG_INF: u32 = 0xFF80_0000;
/// A quiet NaN. As an expected value it means "any NaN" (see [`assert_f32`]).
pub const NAN: u32 = 0x7FC0_0000;
/// Largest finite binary32.
pub const FLT_MAX: u32 = 0x7F7F_FFFF;
/// Smallest positive denormal, 2^-149.
pub const DENORM_MIN: u32 = 0x0000_0001;
/// Largest-magnitude negative denormal, -(2^-126 - 2^-149).
pub const NEG_DENORM_MAX: u32 = 0x807F_FFFF;
pub const INT_MIN: u32 = 0x8000_0000;
pub const INT_MAX: u32 = 0x7FFF_FFFF;
pub const UINT_MAX: u32 = 0xFFFF_FFFF;
/// `~0`, the "true" of the integer set opcodes.
pub const TRUE: u32 = 0xFFFF_FFFF;
/// Placeholder expected value for undefined results (the value is not checked).
pub const ANY: u32 = 0;

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

/// Evaluates `op` with scalar source k = `srcs[k]` placed in all four channels, writemask xyzw.
/// Works for componentwise and replicated opcodes; asserts the four channels agree and returns
/// `(value, undefined)`.
pub fn eval_scalar(op: Opcode, srcs: &[u32]) -> (u32, bool) {
    let vecs: Vec<[u32; 4]> = srcs.iter().map(|&s| [s; 4]).collect();
    let r = eval_vec(op, &vecs, 0xF);
    for c in 1..4 {
        assert_eq!(r.value[c], r.value[0], "{op}: channel {c} differs from x");
        assert_eq!(
            r.undefined[c], r.undefined[0],
            "{op}: channel {c} flag differs"
        );
    }
    (r.value[0], r.undefined[0])
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

/// Checks a scalar float opcode result: `undefined` must match; the value is checked with
/// [`assert_f32`] only when defined.
pub fn check_f32(op: Opcode, srcs: &[u32], want: u32, undefined: bool) {
    let (got, u) = eval_scalar(op, srcs);
    assert_eq!(u, undefined, "{op}{srcs:x?}: undefined flag");
    if !undefined {
        assert_f32(got, want, &format!("{op}{srcs:x?}"));
    }
}

/// Checks a scalar integer (bit-exact) opcode result, as [`check_f32`].
pub fn check_bits(op: Opcode, srcs: &[u32], want: u32, undefined: bool) {
    let (got, u) = eval_scalar(op, srcs);
    assert_eq!(u, undefined, "{op}{srcs:x?}: undefined flag");
    if !undefined {
        assert_eq!(
            got, want,
            "{op}{srcs:x?}: got {got:#010x}, want {want:#010x}"
        );
    }
}

/// Distance in units in the last place between two finite binary32 values of the same sign.
pub fn ulps(a: f32, b: f32) -> u32 {
    let key = |x: f32| {
        let b = x.to_bits() as i64;
        if b & 0x8000_0000 != 0 {
            -(b & 0x7FFF_FFFF)
        } else {
            b
        }
    };
    (key(a) - key(b)).unsigned_abs() as u32
}

/// Checks a scalar opcode against an exact real value `want` (written as a decimal literal):
/// the result must be within 1 ulp of `want` rounded to binary32. The ALU's documented bound
/// (alu/special.rs) is 0.5 ulp + 2^-29 ulp of the exact value, so it can differ from the
/// correctly rounded value by at most 1 ulp.
pub fn check_approx(op: Opcode, srcs: &[u32], want: f64) {
    let (got, u) = eval_scalar(op, srcs);
    assert!(!u, "{op}{srcs:x?}: unexpectedly undefined");
    let g = f32::from_bits(got);
    let w = want as f32;
    assert!(
        ulps(g, w) <= 1,
        "{op}{srcs:x?}: got {g:e} ({got:#010x}), want {w:e} within 1 ulp"
    );
}
