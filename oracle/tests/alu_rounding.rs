//! The reference ALU's FLR/CEIL/TRUNC/ROUND are computed without libm (alu/float.rs);
//! Rust's `f32::floor`, `ceil`, `trunc` and `round_ties_even` (IEEE roundToIntegral*, an
//! independent implementation) are the reference here, bit for bit, on random bit patterns
//! and on fractional values around the 2^23 boundary. (An ALU-internal check; the opcode
//! value tables, which run on every engine, live in engines/tests/alu.)

#![allow(clippy::needless_range_loop)] // opcodes_support's channel loops

mod opcodes_support;

use opcodes_support::*;
use proptest::prelude::*;
use shaderdiff_model::Opcode::{self, *};
use shaderdiff_oracles::interp::alu::eval;
use shaderdiff_oracles::interp::lanes::{LANES, ZERO_VALS};

/// A std rounding function used as the reference.
type StdRounding = fn(f32) -> f32;

fn check(words: &[u32]) {
    let mut src = ZERO_VALS;
    for (l, &w) in words.iter().enumerate().take(LANES) {
        src[0][l] = w;
    }
    let std_ops: [(Opcode, StdRounding); 4] = [
        (FLR, f32::floor),
        (CEIL, f32::ceil),
        (TRUNC, f32::trunc),
        (ROUND, f32::round_ties_even),
    ];
    for (op, reference) in std_ops {
        let mut out = ZERO_VALS;
        let mut undef = [0; 4];
        eval(op, &[src], 1, &mut out, &mut undef).unwrap();
        assert_eq!(undef[0], 0);
        for (l, &w) in words.iter().enumerate().take(LANES) {
            let want = reference(f32::from_bits(w)).to_bits();
            assert_f32(out[0][l], want, &format!("{op}({w:#010x})"));
        }
    }
}

proptest! {
    #[test]
    fn any_bits(words in prop::collection::vec(any::<u32>(), LANES)) {
        check(&words);
    }

    #[test]
    fn near_integers(v in prop::collection::vec(-17_000_000.0f32..17_000_000.0, LANES)) {
        check(&v.iter().map(|x| x.to_bits()).collect::<Vec<_>>());
    }

    #[test]
    fn small(v in prop::collection::vec(-4.0f32..4.0, LANES)) {
        check(&v.iter().map(|x| x.to_bits()).collect::<Vec<_>>());
    }
}
