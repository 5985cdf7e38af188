//! The instruction shapes every engine must honour (tgsi.rst "Basics"): componentwise
//! opcodes compute channel c from channel c of each source; replicated opcodes read the
//! first swizzle component of each source (EXEC-NOTES.md §1: `RCP d, s.yxxx` uses s.y) and
//! write it to every enabled channel; channels outside the writemask are not written (they
//! keep the initial 0).

use shaderdiff_model::Opcode::*;

use crate::support::consts::*;
use crate::support::rows::*;

/// ADD (1,2,3,4) + (10,20,30,40) = (11,22,33,44) under several writemasks.
#[test]
fn componentwise_writemask() {
    let a = fv([1.0, 2.0, 3.0, 4.0]);
    let b = fv([10.0, 20.0, 30.0, 40.0]);
    let want = floats(fv([11.0, 22.0, 33.0, 44.0]));
    check_rows(&[
        vector(ADD, &[a, b], want),
        vector(ADD, &[a, b], want).mask(0b0101),
        vector(ADD, &[a, b], want).mask(0b1000),
        vector(ADD, &[a, b], want).mask(0b0010),
    ]);
}

/// Replicated opcodes read channel x only (the other channels hold values that would give
/// a different result) and write yzw here: RCP 2 → 0.5, SQRT 4 → 2, EX2 3 → 8,
/// POW(2, 3) → 8.
#[test]
fn replicate_reads_channel_x() {
    check_rows(&[
        vector(RCP, &[[TWO, FOUR, EIGHT, NAN]], [Want::Bits(HALF); 4]).mask(0b1110),
        vector(SQRT, &[[FOUR, NAN, NAN, NAN]], [Want::Bits(TWO); 4]).mask(0b1110),
        vector(EX2, &[[THREE, ONE, ONE, ONE]], [Want::Bits(EIGHT); 4]).mask(0b1110),
        vector(
            POW,
            &[[TWO, NAN, NAN, NAN], [THREE, NAN, NAN, NAN]],
            [Want::Bits(EIGHT); 4],
        )
        .mask(0b1110),
    ]);
}
