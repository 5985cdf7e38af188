//! Condition codes: NOTES.md §16 examples 4-7 with CC, integer carry/overflow, constant conditions.

use crate::support::*;

/// NOTES.md §16 Example 4: float condition codes, NaN, conditional write masks, CC swizzle,
/// CC1. Values from the notes' table.
#[test]
fn example_4_float_condition_codes() {
    let text = "!!NVvp5.0
PARAM a = program.local[0];
TEMP t;
MOV.F.CC t, a;
MOV.F result.attrib[0], 0;
MOV.F result.attrib[0] (GT), 1;
MOV.F result.attrib[1], 0;
MOV.F result.attrib[1] (LT), 1;
MOV.F result.attrib[2], 0;
MOV.F result.attrib[2] (NAN), 1;
MOV.F result.attrib[3], 0;
MOV.F result.attrib[3] (NE.wzyx), 1;
ADD.F.CC1 t.xy, a, 1;
MOV.F result.attrib[4], 0;
MOV.F result.attrib[4].xy (EQ1), 1;
END
";
    let all = run_all(text, &[[f(-1.0), f(0.0), f(2.0), 0x7FC0_0000]]);
    let b = |v: [u8; 4]| v.map(|x| f(f32::from(x)));
    check(&all, "result.attrib[0]", 0xF, b([0, 0, 1, 0]));
    check(&all, "result.attrib[1]", 0xF, b([1, 0, 0, 0]));
    check(&all, "result.attrib[2]", 0xF, b([0, 0, 0, 1]));
    check(&all, "result.attrib[3]", 0xF, b([1, 1, 0, 1]));
    check(&all, "result.attrib[4]", 0xF, b([1, 0, 0, 0]));
}

/// NOTES.md §16 Example 5: integer condition codes with carry and overflow. Values from
/// the notes' table.
#[test]
fn example_5_integer_condition_codes() {
    let text = "!!NVvp5.0
PARAM a = program.local[0];
PARAM b = program.local[1];
TEMP t, s;
ADD.U.CC t, a, b;
SUB.U.CC1 s, b, a;
MOV.U result.attrib[0], 0;
MOV.U result.attrib[0] (CF), 1;
MOV.U result.attrib[1], 0;
MOV.U result.attrib[1] (OF), 1;
MOV.U result.attrib[2], 0;
MOV.U result.attrib[2] (GT), 1;
MOV.U result.attrib[3], 0;
MOV.U result.attrib[3] (EQ), 1;
MOV.U result.attrib[4], 0;
MOV.U result.attrib[4] (AB1), 1;
MOV.U result.attrib[5], 0;
MOV.U result.attrib[5] (LT1), 1;
MOV.U result.attrib[6], t;
MOV.U result.attrib[7], s;
END
";
    let all = run_all(text, &[[u32::MAX, 0x7FFF_FFFF, 5, 3], [1, 1, 3, 5]]);
    check(&all, "result.attrib[0]", 0xF, [1, 0, 0, 0]);
    check(&all, "result.attrib[1]", 0xF, [0, 1, 0, 0]);
    check(&all, "result.attrib[2]", 0xF, [0, 1, 1, 1]);
    check(&all, "result.attrib[3]", 0xF, [1, 0, 0, 0]);
    check(&all, "result.attrib[4]", 0xF, [0, 0, 0, 1]);
    check(&all, "result.attrib[5]", 0xF, [0, 1, 1, 0]);
    check(&all, "result.attrib[6]", 0xF, [0, 0x8000_0000, 8, 8]);
    check(
        &all,
        "result.attrib[7]",
        0xF,
        [2, 0x8000_0002, 0xFFFF_FFFE, 2],
    );
}

/// NOTES.md §16 Example 6 as written: REP with CONT (NE.x), REP with BRK (LT.y), nested
/// IF/ELSE on condition codes. Values from the notes' table.
#[test]
fn example_6_loops_and_ifs_with_condition_codes() {
    let text = "!!NVvp5.0
PARAM n = program.local[0];
TEMP i, acc, c;
MOV.S acc, 0;
MOV.S i.x, 0;
REP.S n.x;
  ADD.S i.x, i.x, 1;
  SEQ.S.CC c.x, i.x, n.y;
  CONT (NE.x);
  ADD.S acc.x, acc.x, i.x;
ENDREP;
MOV.S c.y, 10;
MOV.S i.y, 0;
REP;
  SUB.S.CC c.y, c.y, 3;
  BRK (LT.y);
  ADD.S i.y, i.y, 1;
ENDREP;
MOV.S.CC c.z, n.z;
IF EQ.z;
  MOV.S i.z, 100;
  MOV.S.CC c.w, n.y;
  IF LE.w;
    MOV.S i.w, 1;
  ELSE;
    MOV.S i.w, 2;
  ENDIF;
ELSE;
  MOV.S i.z, 200;
ENDIF;
MOV.S result.attrib[0].x, acc.x;
MOV.S result.attrib[0].yzw, i;
MOV.S result.attrib[1], c;
MOV.S result.attrib[2].x, i.x;
END
";
    let all = run_all(text, &[[5, 3, 0, 0]]);
    check(&all, "result.attrib[0]", 0xF, [12, 3, 100, 2]);
    check(&all, "result.attrib[1]", 0xF, [0, i(-2), 0, 3]);
    check(&all, "result.attrib[2]", 0x1, [5, 0, 0, 0]);
}

/// NOTES.md §16 Example 7 as written (conditional CAL / RET) and its variant. Values from
/// the notes.
#[test]
fn example_7_conditional_calls() {
    let text = "!!NVvp5.0
PARAM a = program.local[0];
TEMP r, s;
square:
  MUL.F r, r, r;
  RET;
absdiff:
  SUB.F.CC s.x, r.x, r.y;
  RET (EQ.x);
  MOV.F s.x, |s.x|;
  RET;
main:
  MOV.F r, a;
  CAL absdiff;
  CAL square;
  MOV.F.CC s.y, r.x;
  CAL square (GT.y);
  MOV.F.CC s.z, -r.x;
  CAL square (GT.z);
  MOV.F result.attrib[0], r;
  MOV.F result.attrib[1].xyz, s;
END
";
    let all = run_all(text, &[[f(3.0), f(-4.0), 0, 0]]);
    check(
        &all,
        "result.attrib[0]",
        0xF,
        [f(81.0), f(256.0), f(0.0), f(0.0)],
    );
    check(&all, "result.attrib[1]", 0x7, [f(7.0), f(9.0), f(-81.0), 0]);
    let all = run_all(text, &[[f(2.0), f(2.0), 0, 0]]);
    check(
        &all,
        "result.attrib[0]",
        0xF,
        [f(16.0), f(16.0), f(0.0), f(0.0)],
    );
    check(&all, "result.attrib[1]", 0x7, [f(0.0), f(4.0), f(-16.0), 0]);
}

/// Integer MAD with .CC (NOTES.md §7: OF / CF of the addition for ADD, SUB, MAD, SAD).
/// x: 0x10000 * 0x10000 wraps to 0, plus 0xFFFFFFFF is 0xFFFFFFFF, no carry. y: 0x8000 * 2
/// is 0x10000, plus 0xFFFF0000 is 2^32, so 0 with carry (CF, ZF). z: 0x40000000 * 1 plus
/// 0x40000000 is 0x80000000, a signed overflow (OF; GT because OF flips SF). w: 3 * 3 plus
/// 1 is 10, no flag.
#[test]
fn integer_mad_carry_and_overflow() {
    let text = "!!NVvp5.0
PARAM a = program.local[0];
PARAM b = program.local[1];
PARAM c = program.local[2];
TEMP t;
MAD.U.CC t, a, b, c;
MOV.U result.attrib[0], 0;
MOV.U result.attrib[0] (CF), 1;
MOV.U result.attrib[1], 0;
MOV.U result.attrib[1] (OF), 1;
MOV.U result.attrib[2], 0;
MOV.U result.attrib[2] (GT), 1;
MOV.U result.attrib[3], t;
END
";
    let all = run_all(
        text,
        &[
            [0x10000, 0x8000, 0x4000_0000, 3],
            [0x10000, 2, 1, 3],
            [u32::MAX, 0xFFFF_0000, 0x4000_0000, 1],
        ],
    );
    check(&all, "result.attrib[0]", 0xF, [0, 1, 0, 0]);
    check(&all, "result.attrib[1]", 0xF, [0, 0, 1, 0]);
    check(&all, "result.attrib[2]", 0xF, [0, 0, 1, 1]);
    check(
        &all,
        "result.attrib[3]",
        0xF,
        [u32::MAX, 0, 0x8000_0000, 10],
    );
}

/// NV_gpu_program4 §2.X.5: `IF TR` takes the IF block and `IF FL` the ELSE block (the
/// condition codes are not read); RET in the main program ends it (the subroutine after it
/// is not run). Hand-computed: t = (1, 1, 1, 1), t.x = 2, t.y = 7.
#[test]
fn constant_conditions_and_ret_in_main() {
    let text = "!!NVvp5.0
TEMP t;
MOV.F t, 1;
IF TR;
  MOV.F t.x, 2;
ELSE;
  MOV.F t.x, 3;
ENDIF;
IF FL;
  MOV.F t.y, 5;
ELSE;
  MOV.F t.y, 7;
ENDIF;
MOV.F result.attrib[0], t;
MOV.F result.attrib[1], 4;
RET;
sub:
MOV.F result.attrib[0], 9;
END
";
    let all = run_all(text, &[]);
    check(
        &all,
        "result.attrib[0]",
        0xF,
        [f(2.0), f(7.0), f(1.0), f(1.0)],
    );
    check(&all, "result.attrib[1]", 0xF, [f(4.0); 4]);
}
