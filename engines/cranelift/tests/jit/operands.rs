//! Operands: per-invocation indirect sources and destinations with the oracle's
//! out-of-bounds contract (shaderdiff_oracles::interp module docs: the effective index is
//! `offset + ADDR`, in bounds when declared and inside the named `ARRAY(n)`; out-of-bounds
//! reads give 0, out-of-bounds writes are dropped), swizzles, modifiers and saturation
//! (tgsi.rst "Source Modifiers", "Other Modifiers"; EXEC-NOTES.md §2: `_SAT` of NaN is 0).

use crate::support::*;

/// Each invocation reads and writes TEMP through its own address. ARL floors the float
/// address (tgsi.rst ARL). Addresses -1 and 5 read outside TEMP[0..3] and give 0; the write
/// to `TEMP[ADDR+1]` lands in the register each invocation names, and is dropped at 6.
#[test]
fn indirect_source_and_destination_per_invocation() {
    let text = "VERT
DCL IN[0]
DCL OUT[0..1]
DCL TEMP[0..3]
DCL ADDR[0]
IMM[0] FLT32 { 10.0, 20.0, 30.0, 40.0 }
IMM[1] FLT32 { 99.0, 0.0, 0.0, 0.0 }
MOV TEMP[0], IMM[0].xxxx
MOV TEMP[1], IMM[0].yyyy
MOV TEMP[2], IMM[0].zzzz
MOV TEMP[3], IMM[0].wwww
ARL ADDR[0].x, IN[0].xxxx
MOV OUT[0], TEMP[ADDR[0].x]
MOV TEMP[ADDR[0].x+1].y, IMM[1].xxxx
MOV OUT[1].x, TEMP[0].yyyy
MOV OUT[1].y, TEMP[1].yyyy
MOV OUT[1].z, TEMP[2].yyyy
MOV OUT[1].w, TEMP[3].yyyy
END
";
    let a = |x: f32| fv([x, 0.0, 0.0, 0.0]);
    let ins = inputs(4, &[(input(0), vec![a(0.5), a(2.0), a(-0.5), a(5.0)])]);
    let o = run(text, &ins);
    let r = |x: f32| fv([x; 4]);
    expect(&o, out(0), 0xF, &[r(10.0), r(30.0), r(0.0), r(0.0)]);
    expect(
        &o,
        out(1),
        0xF,
        &[
            fv([10.0, 99.0, 30.0, 40.0]),
            fv([10.0, 20.0, 30.0, 99.0]),
            fv([99.0, 20.0, 30.0, 40.0]),
            fv([10.0, 20.0, 30.0, 40.0]),
        ],
    );
}

/// `ARRAY(n)` bounds: an index inside TEMP but outside the named array is out of bounds
/// (reads 0, writes dropped), even though another declaration covers it.
#[test]
fn array_declaration_bounds_indirect_access() {
    let text = "VERT
DCL IN[0]
DCL OUT[0..1]
DCL TEMP[0..1], ARRAY(1)
DCL TEMP[2..3]
DCL ADDR[0]
IMM[0] FLT32 { 1.0, 2.0, 3.0, 4.0 }
IMM[1] FLT32 { 7.0, 0.0, 0.0, 0.0 }
MOV TEMP[0], IMM[0].xxxx
MOV TEMP[1], IMM[0].yyyy
MOV TEMP[2], IMM[0].zzzz
MOV TEMP[3], IMM[0].wwww
UARL ADDR[0].x, IN[0].xxxx
MOV OUT[0].x, TEMP[ADDR[0].x](1).xxxx
MOV TEMP[ADDR[0].x](1).x, IMM[1].xxxx
MOV OUT[1].x, TEMP[0].xxxx
MOV OUT[1].y, TEMP[1].xxxx
MOV OUT[1].z, TEMP[2].xxxx
MOV OUT[1].w, TEMP[3].xxxx
END
";
    let a = |x: u32| [x, 0, 0, 0];
    let ins = inputs(4, &[(input(0), vec![a(0), a(1), a(2), a(3)])]);
    let o = run(text, &ins);
    expect(
        &o,
        out(0),
        0x1,
        &[fv([1.0; 4]), fv([2.0; 4]), fv([0.0; 4]), fv([0.0; 4])],
    );
    expect(
        &o,
        out(1),
        0xF,
        &[
            fv([7.0, 2.0, 3.0, 4.0]),
            fv([1.0, 7.0, 3.0, 4.0]),
            fv([1.0, 2.0, 3.0, 4.0]),
            fv([1.0, 2.0, 3.0, 4.0]),
        ],
    );
}

/// Indirect constants and immediates: CONST[1][ADDR+2] with per-invocation addresses
/// (TEXT-FORMAT ex07 style), IMM[ADDR] reading the immediate table.
#[test]
fn indirect_constants_and_immediates() {
    let text = "VERT
DCL IN[0]
DCL OUT[0]
DCL CONST[1][0..3]
DCL ADDR[0]
IMM[0] FLT32 { 1.0, 2.0, 3.0, 4.0 }
IMM[1] FLT32 { 5.0, 6.0, 7.0, 8.0 }
UARL ADDR[0].x, IN[0].xxxx
MOV OUT[0].x, CONST[1][ADDR[0].x+1].yyyy
MOV OUT[0].y, IMM[ADDR[0].x].wwww
END
";
    let a = |x: u32| [x, 0, 0, 0];
    let mut ins = inputs(4, &[(input(0), vec![a(0), a(1), a(2), a(3)])]);
    for k in 0..4u32 {
        let key = shaderdiff_model::RegKey {
            file: shaderdiff_model::File::Const,
            dimension: Some(1),
            index: k,
        };
        ins.constants.insert(key, [0, 100 + k, 0, 0]);
    }
    let o = run(text, &ins);
    // CONST[1][1..4].y: 101, 102, 103, then 4 is undeclared -> 0. IMM[0..3].w: 4, 8, 0, 0.
    expect(
        &o,
        out(0),
        0x3,
        &[
            [101, f(4.0), 0, 0],
            [102, f(8.0), 0, 0],
            [103, 0, 0, 0],
            [0, 0, 0, 0],
        ],
    );
}

/// Swizzle, then absolute value, then negation (tgsi.rst "Source Modifiers"); float
/// modifiers flip/clear bit 31, integer ones are two's complement (EXEC-NOTES §1); `_SAT`
/// clamps to [0, 1] with NaN → 0 and -0 → +0 (EXEC-NOTES §2, the oracle's contract).
#[test]
fn swizzle_modifiers_and_saturate() {
    let text = "VERT
DCL IN[0]
DCL OUT[0..2]
MOV OUT[0], -|IN[0].wzyx|
INEG OUT[1].xy, -IN[0].zzzz
IABS OUT[1].zw, IN[0].zzzz
MOV_SAT OUT[2], IN[0]
END
";
    let nan = f32::NAN;
    let ins = inputs(
        4,
        &[(
            input(0),
            vec![
                fv([1.5, -2.0, -0.0, 0.25]),
                fv([nan, 2.0, 0.5, -3.0]),
                [f(-0.0), f(1.0), i(i32::MIN), f(7.0)],
                [f(0.0), f(-1.0), i(-5), f(1.0)],
            ],
        )],
    );
    let o = run(text, &ins);
    expect(
        &o,
        out(0),
        0xF,
        &[
            fv([-0.25, -0.0, -2.0, -1.5]),
            fv([-3.0, -0.5, -2.0, -nan]),
            [
                f(-7.0),
                0x8000_0000 | i(i32::MIN) & 0x7fff_ffff,
                f(-1.0),
                f(-0.0),
            ],
            [f(-1.0), i(-5) | 0x8000_0000, f(-1.0), f(-0.0)],
        ],
    );
    // INEG(-x) = x; IABS(INT_MIN) = INT_MIN (two's complement wraps; -0.0 is INT_MIN).
    expect(
        &o,
        out(1),
        0xF,
        &[
            [f(-0.0), f(-0.0), f(-0.0), f(-0.0)],
            [f(0.5), f(0.5), f(0.5), f(0.5)],
            [i(i32::MIN), i(i32::MIN), i(i32::MIN), i(i32::MIN)],
            [i(-5), i(-5), i(5), i(5)],
        ],
    );
    expect(
        &o,
        out(2),
        0xF,
        &[
            fv([1.0, 0.0, 0.0, 0.25]),
            fv([0.0, 1.0, 0.5, 0.0]),
            [f(0.0), f(1.0), f(0.0), f(1.0)],
            [f(0.0), f(0.0), f(0.0), f(1.0)],
        ],
    );
}

/// An address register no instruction writes is 0 in every invocation (temporaries start
/// at 0), so `TEMP[ADDR[0].x+k]` is `TEMP[k]` when that is in bounds: a write through it
/// lands in TEMP[2] (read back directly), a read outside the named `ARRAY(1)` (index 0)
/// gives 0 and a write there is dropped (TEMP[0] keeps its value).
#[test]
fn indirect_operand_with_unwritten_address() {
    let text = "VERT
DCL IN[0]
DCL OUT[0..1]
DCL TEMP[0]
DCL TEMP[1..3], ARRAY(1)
DCL ADDR[0]
IMM[0] FLT32 { 1.0, 2.0, 3.0, 4.0 }
MOV TEMP[0], IMM[0].wwww
MOV TEMP[ADDR[0].x+2](1), IN[0]
MOV TEMP[ADDR[0].x](1), IMM[0].xxxx
MOV OUT[0], TEMP[2]
MOV OUT[1].x, TEMP[ADDR[0].x+3](1).yyyy
MOV OUT[1].y, TEMP[ADDR[0].x](1).xxxx
MOV OUT[1].z, TEMP[0].xxxx
MOV OUT[1].w, TEMP[ADDR[0].x+1](1).xxxx
END
";
    let v = |x: f32| fv([x, x + 0.5, x + 0.25, x + 0.75]);
    let ins = inputs(3, &[(input(0), vec![v(1.0), v(2.0), v(-3.0)])]);
    let o = run(text, &ins);
    expect(&o, out(0), 0xF, &[v(1.0), v(2.0), v(-3.0)]);
    expect(&o, out(1), 0xF, &[fv([0.0, 0.0, 4.0, 0.0]); 3]);
}

/// A space written only through an indirect destination still reads 0 where an
/// invocation wrote nothing (temporaries start at 0 in every invocation, tgsi.rst): two
/// quads, each invocation writes 5.0 into the TEMP its address names and reads all four.
#[test]
fn indirect_writes_leave_other_registers_zero() {
    let text = "VERT
DCL IN[0]
DCL OUT[0]
DCL TEMP[0..3]
DCL ADDR[0]
IMM[0] FLT32 { 5.0, 6.0, 0.0, 0.0 }
UARL ADDR[0].x, IN[0].xxxx
MOV TEMP[ADDR[0].x], IMM[0].xxxx
MOV OUT[0].x, TEMP[0].xxxx
MOV OUT[0].y, TEMP[1].xxxx
MOV OUT[0].z, TEMP[2].xxxx
MOV OUT[0].w, TEMP[3].xxxx
END
";
    let addrs = [0u32, 1, 2, 3, 3, 2, 1, 0];
    let ins = inputs(
        8,
        &[(input(0), addrs.iter().map(|&a| [a, 0, 0, 0]).collect())],
    );
    let o = run(text, &ins);
    let want: Vec<_> = addrs
        .iter()
        .map(|&a| fv([0, 1, 2, 3].map(|c| if c == a { 5.0 } else { 0.0 })))
        .collect();
    expect(&o, out(0), 0xF, &want);
}
