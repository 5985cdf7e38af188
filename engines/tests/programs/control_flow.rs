//! Control flow with per-invocation divergence: the four invocations of a group take
//! different paths through each construct. Expected values are worked out by hand from
//! tgsi.rst "GLSL ISA" (IF/UIF/ELSE/ENDIF, BGNLOOP/ENDLOOP/BRK/CONT, SWITCH/CASE/DEFAULT
//! with C fall-through, CAL/RET) and the TEXT-FORMAT.md examples, as the comments show.

use crate::support::consts::{f, fv};
use crate::support::programs::*;

/// TEXT-FORMAT.md example ex04 (copied verbatim from spec/tgsi/examples/ex04.tgsi).
const EX04: &str = "VERT
DCL IN[0]
DCL OUT[0], POSITION
DCL OUT[1], GENERIC[0]
DCL TEMP[0..2]
IMM[0] INT32 {0, 1, 10, 3}
  0: MOV TEMP[0].xy, IMM[0].xxxx
  1: BGNLOOP
  2:   ISGE TEMP[1].x, TEMP[0].xxxx, IMM[0].zzzz
  3:   UIF TEMP[1].xxxx :5
  4:     BRK
  5:   ENDIF
  6:   UADD TEMP[0].x, TEMP[0].xxxx, IMM[0].yyyy
  7:   UMOD TEMP[1].y, TEMP[0].xxxx, IMM[0].wwww
  8:   UIF TEMP[1].yyyy :10
  9:     CONT
 10:   ENDIF
 11:   UADD TEMP[0].y, TEMP[0].yyyy, IMM[0].yyyy
 12: ENDLOOP
 13: I2F TEMP[2].xy, TEMP[0].xyyy
 14: MOV OUT[0], IN[0]
 15: MOV OUT[1], TEMP[2]
 16: END
";

/// TEXT-FORMAT.md example ex05 (copied verbatim from spec/tgsi/examples/ex05.tgsi).
const EX05: &str = "FRAG
DCL IN[0], GENERIC[0], CONSTANT
DCL OUT[0], COLOR
DCL TEMP[0..1]
IMM[0] INT32 {1, 2, 3, 0}
IMM[1] FLT32 {    0.2500,     0.5000,     0.7500,     1.0000}
  0: F2I TEMP[0].x, IN[0].xxxx
  1: MOV TEMP[1], IMM[1].xxxx
  2: SWITCH TEMP[0].xxxx
  3: CASE IMM[0].xxxx
  4: CASE IMM[0].yyyy
  5: MOV TEMP[1], IMM[1].yyyy
  6: BRK
  7: CASE IMM[0].zzzz
  8: MOV TEMP[1], IMM[1].zzzz
  9: BRK
 10: DEFAULT
 11: MOV TEMP[1], IMM[1].wwww
 12: BRK
 13: ENDSWITCH
 14: MOV OUT[0], TEMP[1]
 15: END
";

/// TEXT-FORMAT.md example ex06 (copied verbatim from spec/tgsi/examples/ex06.tgsi).
const EX06: &str = "VERT
DCL IN[0]
DCL OUT[0], POSITION
DCL TEMP[0..1]
IMM[0] FLT32 {    0.0000,     1.0000,     2.0000,     0.5000}
  0: MOV TEMP[0], IN[0]
  1: CAL :5
  2: CAL :5
  3: MOV OUT[0], TEMP[0]
  4: END
  5: BGNSUB
  6:   SLT TEMP[1].x, TEMP[0].xxxx, IMM[0].xxxx
  7:   IF TEMP[1].xxxx :9
  8:     RET
  9:   ENDIF
 10:   MUL TEMP[0], TEMP[0], IMM[0].wwww
 11:   RET
 12: ENDSUB
";

/// tgsi.rst IF: true when `src0.x != 0.0` as a float, so NaN is true and -0.0 false.
#[test]
fn if_else_float_condition_per_invocation() {
    let text = "VERT
DCL IN[0]
DCL OUT[0], GENERIC[0]
IMM[0] FLT32 { 1.0, 2.0, 3.0, 0.0 }
IF IN[0].xxxx
  MOV OUT[0].x, IMM[0].xxxx
ELSE
  MOV OUT[0].x, IMM[0].yyyy
ENDIF
MOV OUT[0].y, IMM[0].zzzz
END
";
    let ins = inputs(
        4,
        &[(
            input(0),
            vec![
                fv([1.0, 0.0, 0.0, 0.0]),
                fv([0.0, 0.0, 0.0, 0.0]),
                fv([f32::NAN, 0.0, 0.0, 0.0]),
                fv([-0.0, 0.0, 0.0, 0.0]),
            ],
        )],
    );
    // 1.0 → then (1.0); 0.0 → else (2.0); NaN → then; -0.0 → else. All reach ENDIF: y = 3.
    let xy = |x: f32| [Ch::V(f(x)), Ch::V(f(3.0)), Ch::X, Ch::X];
    let want = Expect::new()
        .reg(out(0), vec![xy(1.0), xy(2.0), xy(1.0), xy(2.0)])
        .no_undefined();
    check_program(text, &ins, &want);
}

/// tgsi.rst UIF: true when the bits of `src0.x` are not 0, so -0.0 (0x80000000) is true.
#[test]
fn uif_bitwise_condition() {
    let text = "VERT
DCL IN[0]
DCL OUT[0], GENERIC[0]
IMM[0] INT32 { 1, 2, 0, 0 }
UIF IN[0].xxxx
  MOV OUT[0].x, IMM[0].xxxx
ELSE
  MOV OUT[0].x, IMM[0].yyyy
ENDIF
END
";
    let ins = inputs(
        4,
        &[(
            input(0),
            vec![
                [0, 0, 0, 0],
                [0x8000_0000, 0, 0, 0],
                [1, 0, 0, 0],
                [0, 7, 7, 7],
            ],
        )],
    );
    check_program(text, &ins, &Expect::new().xs(out(0), &[2, 1, 1, 2]));
}

/// Nested IF/ELSE: each of the four invocations takes a different one of four paths, and
/// only the outer then-branch adds 4 to y.
#[test]
fn nested_if_four_paths() {
    let text = "VERT
DCL IN[0]
DCL OUT[0], GENERIC[0]
IMM[0] FLT32 { 1.0, 2.0, 3.0, 4.0 }
IF IN[0].xxxx
  IF IN[0].yyyy
    MOV OUT[0].x, IMM[0].xxxx
  ELSE
    MOV OUT[0].x, IMM[0].yyyy
  ENDIF
  ADD OUT[0].y, OUT[0].xxxx, IMM[0].wwww
ELSE
  IF IN[0].yyyy
    MOV OUT[0].x, IMM[0].zzzz
  ELSE
    MOV OUT[0].x, IMM[0].wwww
  ENDIF
ENDIF
END
";
    let ins = inputs(
        4,
        &[(
            input(0),
            vec![
                fv([1.0, 1.0, 0.0, 0.0]),
                fv([1.0, 0.0, 0.0, 0.0]),
                fv([0.0, 1.0, 0.0, 0.0]),
                fv([0.0, 0.0, 0.0, 0.0]),
            ],
        )],
    );
    // (x, y) → OUT.x: (1,1) → 1, (1,0) → 2, (0,1) → 3, (0,0) → 4; OUT.y = OUT.x + 4 only
    // for the outer then-branch.
    let want = Expect::new().vals(
        out(0),
        &[
            fv([1.0, 5.0, 0.0, 0.0]),
            fv([2.0, 6.0, 0.0, 0.0]),
            fv([3.0, 0.0, 0.0, 0.0]),
            fv([4.0, 0.0, 0.0, 0.0]),
        ],
    );
    check_program(text, &ins, &want);
}

/// A loop whose trip count n = IN[0].x differs per invocation, with a per-invocation BRK
/// (i >= n) and a CONT for odd i. Worked: i runs 0..n-1; z counts iterations (n); i is
/// incremented before the CONT, and acc += the new i only for even old i, so
/// acc = Σ_{even i < n} (i + 1): n=0 → 0; n=1 → 1; n=4 → 1+3 = 4; n=7 → 1+3+5+7 = 16.
#[test]
fn loop_with_per_invocation_brk_cont_and_trip_counts() {
    let text = "VERT
DCL IN[0]
DCL OUT[0], GENERIC[0]
DCL TEMP[0..1]
IMM[0] INT32 { 0, 1, 2, 0 }
MOV TEMP[0], IMM[0].xxxx
BGNLOOP
  ISGE TEMP[1].x, TEMP[0].xxxx, IN[0].xxxx
  UIF TEMP[1].xxxx
    BRK
  ENDIF
  UADD TEMP[0].z, TEMP[0].zzzz, IMM[0].yyyy
  AND TEMP[1].y, TEMP[0].xxxx, IMM[0].yyyy
  UADD TEMP[0].x, TEMP[0].xxxx, IMM[0].yyyy
  UIF TEMP[1].yyyy
    CONT
  ENDIF
  UADD TEMP[0].y, TEMP[0].yyyy, TEMP[0].xxxx
ENDLOOP
MOV OUT[0], TEMP[0]
END
";
    let ins = inputs(
        4,
        &[(
            input(0),
            vec![[0; 4], [1, 0, 0, 0], [4, 0, 0, 0], [7, 0, 0, 0]],
        )],
    );
    let want = Expect::new().vals(
        out(0),
        &[[0, 0, 0, 0], [1, 1, 1, 0], [4, 4, 4, 0], [7, 16, 7, 0]],
    );
    check_program(text, &ins, &want);
}

/// TEXT-FORMAT.md ex04: loop with BRK and CONT; tgsi_exec result OUT[1] = (10.0, 3.0, 0, 0)
/// (x counts to 10, y counts the x in 1..=10 divisible by 3). OUT[0] = IN[0].
#[test]
fn example_ex04() {
    let text = EX04;
    let ins = inputs(
        4,
        &[(
            input(0),
            (0..4).map(|i| fv([i as f32, 0.5, -1.0, 2.0])).collect(),
        )],
    );
    let out0: Vec<_> = (0..4).map(|i| fv([i as f32, 0.5, -1.0, 2.0])).collect();
    let want = Expect::new()
        .vals(out(1), &[fv([10.0, 3.0, 0.0, 0.0]); 4])
        .vals(out(0), &out0);
    check_program(text, &ins, &want);
}

/// TEXT-FORMAT.md ex05: CASE 1 falls through into CASE 2 (0.5), CASE 3 gives 0.75,
/// DEFAULT (last) gives 1.0; F2I truncates the float selector.
#[test]
fn example_ex05_switch_fall_through() {
    let text = EX05;
    let ins = inputs(
        8,
        &[(
            input(0),
            [1.0, 2.0, 3.0, 7.0, 0.0, 3.9, -1.0, 2.5]
                .iter()
                .map(|&x| fv([x, 0.0, 0.0, 0.0]))
                .collect(),
        )],
    );
    // Selectors: 1, 2, 3, 7, 0, 3, -1, 2.
    let vals: Vec<_> = [0.5, 0.5, 0.75, 1.0, 1.0, 0.75, 1.0, 0.5]
        .iter()
        .map(|&w| fv([w; 4]))
        .collect();
    let want = Expect::new()
        .vals(out(0), &vals)
        .killed(Some(vec![false; 8]));
    check_program(text, &ins, &want);
}

/// DEFAULT first (tgsi.rst: "DEFAULT label is allowed anywhere ... fallthrough is allowed
/// into/from it"): DEFAULT is taken only by selectors that match no CASE of the whole
/// switch and falls through into CASE 1's body. Worked: sel 1 → +10, BRK → 10;
/// sel 2 → +100 → 100; sel 5 and 0 → +1, fall into CASE 1 (+10), BRK → 11.
/// (tgsi_exec also runs DEFAULT for sel 1 and 2, EXEC-NOTES §9 — not copied.)
#[test]
fn switch_default_first_falls_through() {
    let text = "VERT
DCL IN[0]
DCL OUT[0], GENERIC[0]
DCL TEMP[0]
IMM[0] INT32 { 1, 2, 3, 0 }
IMM[1] FLT32 { 1.0, 10.0, 100.0, 0.0 }
MOV TEMP[0], IMM[1].wwww
SWITCH IN[0].xxxx
DEFAULT
  ADD TEMP[0].x, TEMP[0].xxxx, IMM[1].xxxx
CASE IMM[0].xxxx
  ADD TEMP[0].x, TEMP[0].xxxx, IMM[1].yyyy
  BRK
CASE IMM[0].yyyy
  ADD TEMP[0].x, TEMP[0].xxxx, IMM[1].zzzz
ENDSWITCH
MOV OUT[0], TEMP[0]
END
";
    let ins = inputs(
        4,
        &[(
            input(0),
            vec![[1, 0, 0, 0], [2, 0, 0, 0], [5, 0, 0, 0], [0; 4]],
        )],
    );
    let want = Expect::new().xs(out(0), &[f(10.0), f(100.0), f(11.0), f(11.0)]);
    check_program(text, &ins, &want);
}

/// DEFAULT in the middle, a BRK taken by only some invocations of the same CASE, and
/// every invocation rejoining after ENDSWITCH. Worked, (selector, IN.y) →
/// (1, 1): +1, BRK → 1; (1, 0): +1, falls into DEFAULT +10, BRK → 11;
/// (2, _): +100 → 100; (9, _): DEFAULT +10, BRK → 10. y = 1 everywhere afterwards.
/// (tgsi_exec's BRK stops every invocation of the case, EXEC-NOTES §9 — not copied.)
#[test]
fn switch_default_middle_per_invocation_brk() {
    let text = "VERT
DCL IN[0]
DCL OUT[0], GENERIC[0]
DCL TEMP[0]
IMM[0] INT32 { 1, 2, 0, 0 }
IMM[1] FLT32 { 1.0, 10.0, 100.0, 0.0 }
MOV TEMP[0], IMM[1].wwww
SWITCH IN[0].xxxx
CASE IMM[0].xxxx
  ADD TEMP[0].x, TEMP[0].xxxx, IMM[1].xxxx
  UIF IN[0].yyyy
    BRK
  ENDIF
DEFAULT
  ADD TEMP[0].x, TEMP[0].xxxx, IMM[1].yyyy
  BRK
CASE IMM[0].yyyy
  ADD TEMP[0].x, TEMP[0].xxxx, IMM[1].zzzz
ENDSWITCH
ADD TEMP[0].y, TEMP[0].yyyy, IMM[1].xxxx
MOV OUT[0], TEMP[0]
END
";
    let ins = inputs(
        4,
        &[(
            input(0),
            vec![[1, 1, 0, 0], [1, 0, 0, 0], [2, 1, 0, 0], [9, 0, 0, 0]],
        )],
    );
    let want = Expect::new().vals(
        out(0),
        &[
            fv([1.0, 1.0, 0.0, 0.0]),
            fv([11.0, 1.0, 0.0, 0.0]),
            fv([100.0, 1.0, 0.0, 0.0]),
            fv([10.0, 1.0, 0.0, 0.0]),
        ],
    );
    check_program(text, &ins, &want);
}

/// DEFAULT last; and a switch without DEFAULT: unmatched selectors skip the body
/// (C semantics) and continue after ENDSWITCH.
#[test]
fn switch_default_last_and_no_default() {
    let text = "VERT
DCL IN[0]
DCL OUT[0], GENERIC[0]
DCL TEMP[0]
IMM[0] INT32 { 1, 2, 0, 0 }
IMM[1] FLT32 { 1.0, 10.0, 100.0, 0.0 }
MOV TEMP[0], IMM[1].wwww
SWITCH IN[0].xxxx
CASE IMM[0].xxxx
  ADD TEMP[0].x, TEMP[0].xxxx, IMM[1].xxxx
CASE IMM[0].yyyy
  ADD TEMP[0].x, TEMP[0].xxxx, IMM[1].yyyy
  BRK
DEFAULT
  ADD TEMP[0].x, TEMP[0].xxxx, IMM[1].zzzz
ENDSWITCH
SWITCH IN[0].yyyy
CASE IMM[0].xxxx
  ADD TEMP[0].y, TEMP[0].yyyy, IMM[1].xxxx
ENDSWITCH
ADD TEMP[0].z, TEMP[0].zzzz, IMM[1].xxxx
MOV OUT[0], TEMP[0]
END
";
    // First switch: sel 1 → +1 falls into CASE 2 (+10), BRK → 11; sel 2 → 10;
    // sel 3 and 4 → DEFAULT → 100. Second switch on IN.y: 1 → y = 1; others untouched.
    let ins = inputs(
        4,
        &[(
            input(0),
            vec![[1, 1, 0, 0], [2, 5, 0, 0], [3, 1, 0, 0], [4, 0, 0, 0]],
        )],
    );
    let want = Expect::new().vals(
        out(0),
        &[
            fv([11.0, 1.0, 1.0, 0.0]),
            fv([10.0, 0.0, 1.0, 0.0]),
            fv([100.0, 1.0, 1.0, 0.0]),
            fv([100.0, 0.0, 1.0, 0.0]),
        ],
    );
    check_program(text, &ins, &want);
}

/// SWITCH inside a loop with per-invocation trip counts n = IN.x: BRK inside the switch
/// leaves only the switch, CONT inside the switch continues the loop (tgsi.rst BRK:
/// "the next ENDLOOP or ENDSWITCH"; CONT: "after the last BGNLOOP"). Per iteration
/// i = 1..n: i=2 → CONT (nothing counted); i=3 → +100, BRK; other i → DEFAULT +1; z
/// counts the iterations not continued. n=4 → (4, 102, 3); n=2 → (2, 1, 1);
/// n=3 → (3, 101, 2); n=1 → (1, 1, 1).
#[test]
fn switch_in_loop_brk_and_cont() {
    let text = "VERT
DCL IN[0]
DCL OUT[0], GENERIC[0]
DCL TEMP[0..1]
IMM[0] INT32 { 0, 1, 2, 3 }
IMM[1] INT32 { 100, 0, 0, 0 }
MOV TEMP[0], IMM[0].xxxx
BGNLOOP
  ISGE TEMP[1].x, TEMP[0].xxxx, IN[0].xxxx
  UIF TEMP[1].xxxx
    BRK
  ENDIF
  UADD TEMP[0].x, TEMP[0].xxxx, IMM[0].yyyy
  SWITCH TEMP[0].xxxx
  CASE IMM[0].zzzz
    CONT
  CASE IMM[0].wwww
    UADD TEMP[0].y, TEMP[0].yyyy, IMM[1].xxxx
    BRK
  DEFAULT
    UADD TEMP[0].y, TEMP[0].yyyy, IMM[0].yyyy
  ENDSWITCH
  UADD TEMP[0].z, TEMP[0].zzzz, IMM[0].yyyy
ENDLOOP
MOV OUT[0], TEMP[0]
END
";
    let ins = inputs(
        4,
        &[(
            input(0),
            vec![[4, 0, 0, 0], [2, 0, 0, 0], [3, 0, 0, 0], [1, 0, 0, 0]],
        )],
    );
    let want = Expect::new().vals(
        out(0),
        &[[4, 102, 3, 0], [2, 1, 1, 0], [3, 101, 2, 0], [1, 1, 1, 0]],
    );
    check_program(text, &ins, &want);
}

/// TEXT-FORMAT.md ex06: a subroutine called twice returns early (RET) for x < 0 and
/// otherwise halves TEMP[0]. Worked: x = 4 → ×0.25; x = -1 → unchanged; x = 0 → SLT
/// 0 < 0 is false → ×0.25; x = 2 → ×0.25.
#[test]
fn example_ex06_early_ret_in_some_invocations() {
    let text = EX06;
    let ins = inputs(
        4,
        &[(
            input(0),
            vec![
                fv([4.0, 8.0, -2.0, 1.0]),
                fv([-1.0, 2.0, 2.0, 2.0]),
                fv([0.0, 4.0, 4.0, 4.0]),
                fv([2.0, 0.0, 0.0, 0.0]),
            ],
        )],
    );
    let want = Expect::new().vals(
        out(0),
        &[
            fv([1.0, 2.0, -0.5, 0.25]),
            fv([-1.0, 2.0, 2.0, 2.0]),
            fv([0.0, 1.0, 1.0, 1.0]),
            fv([0.5, 0.0, 0.0, 0.0]),
        ],
    );
    check_program(text, &ins, &want);
}

/// Nested loops inside a subroutine with a RET from the inner loop in some invocations.
/// The loops run 3 × 3 = 9 inner iterations, each incrementing a counter; an invocation
/// returns when the counter equals r = IN.x; one that finishes the loops sets y = 1.
/// r = 100 → (9, 1); r = 1 → (1, 0); r = 4 → (4, 0); r = 9 → RET on the very last
/// iteration → (9, 0).
#[test]
fn ret_from_nested_loops_in_subroutine() {
    let text = "VERT
DCL IN[0]
DCL OUT[0], GENERIC[0]
DCL TEMP[0..2]
IMM[0] INT32 { 0, 1, 3, 100 }
  0: MOV TEMP[0], IMM[0].xxxx
  1: CAL :4
  2: MOV OUT[0], TEMP[0]
  3: END
  4: BGNSUB
  5:   MOV TEMP[1].x, IMM[0].xxxx
  6:   BGNLOOP
  7:     ISGE TEMP[2].x, TEMP[1].xxxx, IMM[0].zzzz
  8:     UIF TEMP[2].xxxx
  9:       BRK
 10:     ENDIF
 11:     MOV TEMP[1].y, IMM[0].xxxx
 12:     BGNLOOP
 13:       ISGE TEMP[2].x, TEMP[1].yyyy, IMM[0].zzzz
 14:       UIF TEMP[2].xxxx
 15:         BRK
 16:       ENDIF
 17:       UADD TEMP[0].x, TEMP[0].xxxx, IMM[0].yyyy
 18:       USEQ TEMP[2].y, TEMP[0].xxxx, IN[0].xxxx
 19:       UIF TEMP[2].yyyy
 20:         RET
 21:       ENDIF
 22:       UADD TEMP[1].y, TEMP[1].yyyy, IMM[0].yyyy
 23:     ENDLOOP
 24:     UADD TEMP[1].x, TEMP[1].xxxx, IMM[0].yyyy
 25:   ENDLOOP
 26:   MOV TEMP[0].y, IMM[0].yyyy
 27:   RET
 28: ENDSUB
";
    let ins = inputs(
        4,
        &[(
            input(0),
            vec![[100, 0, 0, 0], [1, 0, 0, 0], [4, 0, 0, 0], [9, 0, 0, 0]],
        )],
    );
    let want = Expect::new().vals(
        out(0),
        &[[9, 1, 0, 0], [1, 0, 0, 0], [4, 0, 0, 0], [9, 0, 0, 0]],
    );
    check_program(text, &ins, &want);
}

/// Nested calls: main calls A, A calls B twice; B adds 1; A returns early (before its
/// second call) when IN.x != 0. Worked: IN.x = 0 → 2 calls of B → 2; IN.x = 1 → 1.
#[test]
fn nested_calls() {
    let text = "VERT
DCL IN[0]
DCL OUT[0], GENERIC[0]
DCL TEMP[0]
IMM[0] INT32 { 0, 1, 0, 0 }
  0: MOV TEMP[0], IMM[0].xxxx
  1: CAL :4
  2: MOV OUT[0], TEMP[0]
  3: END
  4: BGNSUB
  5:   CAL :11
  6:   UIF IN[0].xxxx
  7:     RET
  8:   ENDIF
  9:   CAL :11
 10: ENDSUB
 11: BGNSUB
 12:   UADD TEMP[0].x, TEMP[0].xxxx, IMM[0].yyyy
 13: ENDSUB
";
    let ins = inputs(
        4,
        &[(input(0), vec![[0; 4], [1, 0, 0, 0], [0; 4], [1, 0, 0, 0]])],
    );
    check_program(text, &ins, &Expect::new().xs(out(0), &[2, 1, 2, 1]));
}

/// RET in the main program ends the invocations that execute it (tgsi.rst RET:
/// `pc = pop()` with nothing to pop; EXEC-NOTES §9 "at top level stop the program").
#[test]
fn ret_from_main_ends_those_invocations() {
    let text = "VERT
DCL IN[0]
DCL OUT[0], GENERIC[0]
IMM[0] FLT32 { 1.0, 2.0, 0.0, 0.0 }
MOV OUT[0].x, IMM[0].xxxx
IF IN[0].xxxx
  RET
ENDIF
MOV OUT[0].x, IMM[0].yyyy
END
";
    let ins = inputs(
        4,
        &[(
            input(0),
            vec![
                fv([1.0, 0.0, 0.0, 0.0]),
                fv([0.0; 4]),
                fv([1.0, 0.0, 0.0, 0.0]),
                fv([0.0; 4]),
            ],
        )],
    );
    let want = Expect::new().xs(out(0), &[f(1.0), f(2.0), f(1.0), f(2.0)]);
    check_program(text, &ins, &want);
}

/// More invocations than one chunk: every invocation still follows its own path.
/// OUT.x = 1.0 when i % 3 == 0 (IN.x = 1.0), else 2.0.
#[test]
fn many_invocations_across_chunks() {
    let text = "VERT
DCL IN[0]
DCL OUT[0], GENERIC[0]
IMM[0] FLT32 { 1.0, 2.0, 0.0, 0.0 }
IF IN[0].xxxx
  MOV OUT[0].x, IMM[0].xxxx
ELSE
  MOV OUT[0].x, IMM[0].yyyy
ENDIF
END
";
    let n = 200;
    let vals = (0..n)
        .map(|i| fv([if i % 3 == 0 { 1.0 } else { 0.0 }, 0.0, 0.0, 0.0]))
        .collect();
    let xs: Vec<u32> = (0..n)
        .map(|i| f(if i % 3 == 0 { 1.0 } else { 2.0 }))
        .collect();
    check_program(
        text,
        &inputs(n, &[(input(0), vals)]),
        &Expect::new().xs(out(0), &xs),
    );
}
