//! Derivatives of values the precision contract lets engines compute in several ways
//! (oracle/src/interp/interval/machine.rs `iv_derivative`).
//!
//! oracle/precision.toml accepts DPH "sequential unfused, sequential fused (either
//! direction)". With y = -2^127 (0xff000000) and src1 = (0, -2^127, 2, 0):
//! DPH(y, y, y) = y*0 + y*(-2^127) + y*2 + 0. Unfused (tgsi_exec, the oracle's own value):
//! y*(-2^127) = 2^254 overflows to +inf, y*2 = -2^128 overflows to -inf, and inf - inf is
//! NaN. Fused left to right: fma(y, -2^127, -0) = +inf, then fma(y, 2, +inf) = +inf (the
//! exact product -2^128 is finite), + 0 = +inf; fused right to left: fma(y, 2, 0) = -inf,
//! then fma(y, -2^127, -inf) = -inf. So NaN, +inf and -inf are all allowed (the oracle keeps
//! a set as its hull, so every value between too), and DDX_FINE of the quad (0 at lane 0,
//! that value at lane 1, 0 at lanes 2 and 3) along the top row is `v1 - v0` (EXEC-NOTES.md
//! §11): any of them; along the bottom row it is 0 - 0 = 0 exactly.

use shaderdiff_ir::{File, Program};
use shaderdiff_oracles::compare::{compare, CompareOptions, Mismatch};
use shaderdiff_oracles::interp::{run_with_intervals, InterpConfig};
use shaderdiff_oracles::precision::PrecisionContract;
use shaderdiff_oracles::{Inputs, RegKey, Vec4};

fn program() -> Program {
    shaderdiff_ir::tgsi::parse(
        "FRAG\nDCL IN[1], GENERIC[1], CONSTANT\nDCL TEMP[1]\nDCL OUT[3]\n\
         IMM[0] FLT32 {0.0, -1.7014118e38, 2.0, 0.0}\n\
         DPH TEMP[1].y, IN[1].yyyy, IMM[0]\nDDX_FINE OUT[3].x, TEMP[1].yyyy\nEND\n",
        "test.tgsi",
    )
    .unwrap_or_else(|e| panic!("{e}"))
}

fn inputs() -> Inputs {
    let mut i = Inputs {
        invocations: 4,
        ..Inputs::default()
    };
    let lane = |y: u32| -> Vec4 { [0, y, 0, 0] };
    i.registers.insert(
        RegKey::new(File::Input, 1),
        vec![lane(0), lane(0xff00_0000), lane(0), lane(0)],
    );
    i
}

/// Mismatches of a `valhall` (gpu class) engine whose `OUT[3].x` is `top_row` in lanes 0
/// and 1 and `bottom_row` in lanes 2 and 3.
fn judge(top_row: u32, bottom_row: u32) -> Vec<Mismatch> {
    let p = program();
    let c = PrecisionContract::builtin();
    let class = c.class_of_engine("valhall").unwrap();
    let o = run_with_intervals(&p, &inputs(), &InterpConfig::default(), c, class).unwrap();
    let mut a = o.clone();
    a.intervals = None;
    a.undefined.clear();
    let out = a.registers.get_mut(&RegKey::new(File::Output, 3)).unwrap();
    out[0][0] = top_row;
    out[1][0] = top_row;
    out[2][0] = bottom_row;
    out[3][0] = bottom_row;
    compare(&p, &o, "valhall", &a, c, &CompareOptions::default())
        .unwrap()
        .mismatches
}

#[test]
fn a_fine_derivative_keeps_the_fused_alternative() {
    // The fused DPHs' +inf and -inf, and the unfused one's NaN (the oracle's own value).
    for top in [
        f32::INFINITY.to_bits(),
        f32::NEG_INFINITY.to_bits(),
        0x7fc0_0000,
    ] {
        assert!(judge(top, 0).is_empty(), "{top:#x}");
    }
    // The bottom row's derivative is exact.
    assert!(!judge(f32::INFINITY.to_bits(), 1.0f32.to_bits()).is_empty());
}
