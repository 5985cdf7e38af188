//! Divergent control flow: each program runs one quad whose four invocations take
//! different paths through the construct. Expected values are worked out by hand from
//! tgsi.rst "GLSL ISA" (IF/UIF/ELSE, BGNLOOP/BRK/CONT, SWITCH/CASE/DEFAULT, CAL/RET) and
//! EXEC-NOTES.md §9 (IF: NaN true, ±0 false; UIF: -0.0 bits true [run]), without its listed
//! tgsi_exec bugs (DEFAULT not last, BRK in SWITCH not per lane). Each program runs on
//! every engine of the registry through the shared checker (`support::programs`).

use shaderdiff_backends::{EngineError, Inputs};
use shaderdiff_oracles::{RegKey, Vec4};

use crate::support::consts::{f, fv};
use crate::support::programs::*;
use crate::support::{engines, parse};

/// The bits of an i32.
fn i(x: i32) -> u32 {
    x as u32
}

/// Expects channels `mask` of `key` in every invocation to hold `want` exactly (the other
/// channels are not checked), on every engine.
#[track_caller]
fn expect_masked(text: &str, ins: &Inputs, key: RegKey, mask: u8, want: &[Vec4]) {
    let rows = want
        .iter()
        .map(|w| {
            [0, 1, 2, 3].map(|c| {
                if mask >> c & 1 != 0 {
                    Ch::V(w[c])
                } else {
                    Ch::X
                }
            })
        })
        .collect();
    check_program(text, ins, &Expect::new().reg(key, rows));
}

/// tgsi.rst IF: true when `src0.x != 0.0` as a float; EXEC-NOTES §9: NaN is true, ±0 false.
/// Two nested IF/ELSE give each invocation of the quad its own path.
#[test]
fn if_else_float_condition_four_paths() {
    let text = "VERT
DCL IN[0]
DCL OUT[0]
IMM[0] FLT32 { 1.0, 2.0, 3.0, 4.0 }
IF IN[0].xxxx
  IF IN[0].yyyy
    MOV OUT[0].x, IMM[0].xxxx
  ELSE
    MOV OUT[0].x, IMM[0].yyyy
  ENDIF
ELSE
  IF IN[0].yyyy
    MOV OUT[0].x, IMM[0].zzzz
  ELSE
    MOV OUT[0].x, IMM[0].wwww
  ENDIF
ENDIF
END
";
    let nan = f32::NAN;
    let ins = inputs(
        4,
        &[(
            input(0),
            vec![
                fv([1.0, nan, 0.0, 0.0]),  // x true, y NaN true  -> 1
                fv([nan, -0.0, 0.0, 0.0]), // x true, y -0 false  -> 2
                fv([0.0, -2.5, 0.0, 0.0]), // x false, y true     -> 3
                fv([-0.0, 0.0, 0.0, 0.0]), // x false, y false    -> 4
            ],
        )],
    );
    check_program(
        text,
        &ins,
        &Expect::new().xs(out(0), &[f(1.0), f(2.0), f(3.0), f(4.0)]),
    );
}

/// tgsi.rst UIF: true when `src0.x != 0` as an integer, so -0.0 (0x80000000) is true
/// (EXEC-NOTES §9 [run]); the ELSE branch takes the rest.
#[test]
fn uif_bitwise_condition_four_paths() {
    let text = "VERT
DCL IN[0]
DCL OUT[0]
IMM[0] INT32 { 1, 2, 3, 4 }
UIF IN[0].xxxx
  UIF IN[0].yyyy
    MOV OUT[0].x, IMM[0].xxxx
  ELSE
    MOV OUT[0].x, IMM[0].yyyy
  ENDIF
ELSE
  UIF IN[0].yyyy
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
                [0x8000_0000, 1, 0, 0], // true, true   -> 1
                [1, 0, 0, 0],           // true, false  -> 2
                [0, 0x7fc0_0000, 0, 0], // false, true  -> 3
                [0, 0, 0, 0],           // false, false -> 4
            ],
        )],
    );
    check_program(text, &ins, &Expect::new().xs(out(0), &[1, 2, 3, 4]));
}

/// BGNLOOP/ENDLOOP with per-invocation BRK and CONT (tgsi.rst BRK: "moves the point of
/// execution to the instruction after the next ENDLOOP"; CONT: "to the instruction after
/// the last BGNLOOP"). Loop: `i++; if i >= n break; if i odd continue; acc += i`, so
/// `i = max(n, 1)` and `acc` = sum of the even numbers below `i`.
#[test]
fn loop_with_per_invocation_brk_and_cont() {
    let text = "VERT
DCL IN[0]
DCL OUT[0]
DCL TEMP[0..1]
IMM[0] INT32 { 0, 1, 0, 0 }
MOV TEMP[0].xy, IMM[0].xxxx
BGNLOOP
  UADD TEMP[0].x, TEMP[0].xxxx, IMM[0].yyyy
  ISGE TEMP[1].x, TEMP[0].xxxx, IN[0].xxxx
  UIF TEMP[1].xxxx
    BRK
  ENDIF
  AND TEMP[1].y, TEMP[0].xxxx, IMM[0].yyyy
  UIF TEMP[1].yyyy
    CONT
  ENDIF
  UADD TEMP[0].y, TEMP[0].yyyy, TEMP[0].xxxx
ENDLOOP
MOV OUT[0], TEMP[0]
END
";
    let n = |x: i32| [i(x), 0, 0, 0];
    let ins = inputs(4, &[(input(0), vec![n(1), n(3), n(6), n(0)])]);
    // n=1: i=1 breaks at once. n=3: i=1 odd, i=2 adds 2, i=3 breaks. n=6: 2+4. n=0: i=1 breaks.
    expect_masked(
        text,
        &ins,
        out(0),
        0x3,
        &[[1, 0, 0, 0], [3, 2, 0, 0], [6, 6, 0, 0], [1, 0, 0, 0]],
    );
}

/// Nested loops: the inner loop's BRK leaves only the inner loop, per invocation.
#[test]
fn nested_loops_break_the_inner_loop_only() {
    let text = "VERT
DCL IN[0]
DCL OUT[0]
DCL TEMP[0..2]
IMM[0] INT32 { 0, 1, 3, 0 }
MOV TEMP[0], IMM[0].xxxx
BGNLOOP
  MOV TEMP[1].x, IMM[0].xxxx
  BGNLOOP
    UADD TEMP[1].x, TEMP[1].xxxx, IMM[0].yyyy
    UADD TEMP[0].y, TEMP[0].yyyy, IMM[0].yyyy
    USGE TEMP[2].x, TEMP[1].xxxx, IN[0].yyyy
    UIF TEMP[2].xxxx
      BRK
    ENDIF
  ENDLOOP
  UADD TEMP[0].x, TEMP[0].xxxx, IMM[0].yyyy
  USGE TEMP[2].y, TEMP[0].xxxx, IN[0].xxxx
  UIF TEMP[2].yyyy
    BRK
  ENDIF
ENDLOOP
MOV OUT[0], TEMP[0]
END
";
    // Outer runs max(x,1) times, inner max(y,1) times per outer iteration.
    let ins = inputs(
        4,
        &[(
            input(0),
            vec![[1, 1, 0, 0], [2, 3, 0, 0], [3, 2, 0, 0], [4, 4, 0, 0]],
        )],
    );
    expect_masked(
        text,
        &ins,
        out(0),
        0x3,
        &[[1, 1, 0, 0], [2, 6, 0, 0], [3, 6, 0, 0], [4, 16, 0, 0]],
    );
}

/// SWITCH with DEFAULT between CASEs (tgsi.rst SWITCH: "DEFAULT label is allowed anywhere
/// ... fallthrough is allowed into/from it"; DEFAULT: "taken if no other case matches").
/// Unlike tgsi_exec (EXEC-NOTES §9), lanes matching a later CASE do not run DEFAULT.
#[test]
fn switch_default_in_the_middle() {
    let text = "VERT
DCL IN[0]
DCL OUT[0]
IMM[0] INT32 { 1, 2, 3, 0 }
IMM[1] INT32 { 1, 2, 4, 8 }
MOV OUT[0].x, IMM[0].wwww
SWITCH IN[0].xxxx
CASE IMM[0].xxxx
  OR OUT[0].x, OUT[0].xxxx, IMM[1].xxxx
DEFAULT
  OR OUT[0].x, OUT[0].xxxx, IMM[1].yyyy
  BRK
CASE IMM[0].yyyy
  OR OUT[0].x, OUT[0].xxxx, IMM[1].zzzz
CASE IMM[0].zzzz
  OR OUT[0].x, OUT[0].xxxx, IMM[1].wwww
ENDSWITCH
END
";
    let s = |x: u32| [x, 0, 0, 0];
    let ins = inputs(4, &[(input(0), vec![s(1), s(2), s(3), s(7)])]);
    // 1: case 1 falls into DEFAULT, BRK -> 1|2. 2: falls into case 3 -> 4|8. 3: 8. 7: DEFAULT -> 2.
    check_program(text, &ins, &Expect::new().xs(out(0), &[3, 12, 8, 2]));
}

/// DEFAULT first, falling through into CASE 1; a BRK inside UIF in CASE 2 leaves the switch
/// for those invocations only (tgsi.rst BRK is per invocation; EXEC-NOTES §9's tgsi_exec bug
/// of stopping the whole case is not copied).
#[test]
fn switch_default_first_and_per_invocation_brk() {
    let text = "VERT
DCL IN[0]
DCL OUT[0]
IMM[0] INT32 { 1, 2, 0, 0 }
IMM[1] INT32 { 1, 2, 4, 8 }
MOV OUT[0].x, IMM[0].zzzz
SWITCH IN[0].xxxx
DEFAULT
  OR OUT[0].x, OUT[0].xxxx, IMM[1].xxxx
CASE IMM[0].xxxx
  OR OUT[0].x, OUT[0].xxxx, IMM[1].yyyy
  BRK
CASE IMM[0].yyyy
  OR OUT[0].x, OUT[0].xxxx, IMM[1].zzzz
  UIF IN[0].yyyy
    BRK
  ENDIF
  OR OUT[0].x, OUT[0].xxxx, IMM[1].wwww
ENDSWITCH
END
";
    let ins = inputs(
        4,
        &[(
            input(0),
            vec![[1, 0, 0, 0], [2, 1, 0, 0], [5, 0, 0, 0], [2, 0, 0, 0]],
        )],
    );
    // 1: CASE 1 -> 2. 2 with y: 4 then BRK. 5: DEFAULT 1, falls into CASE 1: 1|2. 2: 4|8.
    check_program(text, &ins, &Expect::new().xs(out(0), &[2, 4, 3, 12]));
}

/// DEFAULT last; CASE values compare bit for bit (tgsi.rst SWITCH: "evaluated at bit level"),
/// so a selector of -0.0 (0x80000000) does not match CASE 0 and takes DEFAULT.
#[test]
fn switch_default_last_bitwise_cases() {
    let text = "VERT
DCL IN[0]
DCL OUT[0]
IMM[0] INT32 { 1, 2, 0, 0 }
IMM[1] INT32 { 1, 2, 4, 8 }
MOV OUT[0].x, IMM[0].zzzz
SWITCH IN[0].xxxx
CASE IMM[0].xxxx
  OR OUT[0].x, OUT[0].xxxx, IMM[1].xxxx
CASE IMM[0].yyyy
  OR OUT[0].x, OUT[0].xxxx, IMM[1].yyyy
  BRK
CASE IMM[0].zzzz
  OR OUT[0].x, OUT[0].xxxx, IMM[1].wwww
  BRK
DEFAULT
  OR OUT[0].x, OUT[0].xxxx, IMM[1].zzzz
ENDSWITCH
END
";
    let s = |x: u32| [x, 0, 0, 0];
    let ins = inputs(4, &[(input(0), vec![s(1), s(2), s(0), s(0x8000_0000)])]);
    check_program(text, &ins, &Expect::new().xs(out(0), &[3, 2, 8, 4]));
}

/// A SWITCH without DEFAULT: invocations matching no CASE skip the body and continue after
/// ENDSWITCH with the others.
#[test]
fn switch_without_default_skips_unmatched() {
    let text = "VERT
DCL IN[0]
DCL OUT[0]
IMM[0] INT32 { 1, 2, 5, 0 }
MOV OUT[0].x, IMM[0].wwww
SWITCH IN[0].xxxx
CASE IMM[0].xxxx
  MOV OUT[0].x, IMM[0].xxxx
  BRK
CASE IMM[0].yyyy
  MOV OUT[0].x, IMM[0].yyyy
ENDSWITCH
UADD OUT[0].y, OUT[0].xxxx, IMM[0].zzzz
END
";
    let s = |x: u32| [x, 0, 0, 0];
    let ins = inputs(4, &[(input(0), vec![s(1), s(2), s(3), s(1)])]);
    expect_masked(
        text,
        &ins,
        out(0),
        0x3,
        &[[1, 6, 0, 0], [2, 7, 0, 0], [0, 5, 0, 0], [1, 6, 0, 0]],
    );
}

/// CAL/RET (tgsi.rst: CAL pushes the return point and jumps to the subroutine; RET returns).
/// Invocations return early at different RETs; the main program calls a second time for
/// some of them.
#[test]
fn subroutine_with_early_ret() {
    let text = "VERT
DCL IN[0]
DCL OUT[0]
DCL TEMP[0]
IMM[0] FLT32 { 1.0, 2.0, 4.0, 0.0 }
  0: MOV TEMP[0].x, IMM[0].wwww
  1: CAL :7
  2: IF IN[0].zzzz
  3:   CAL :7
  4: ENDIF
  5: MOV OUT[0], TEMP[0]
  6: END
  7: BGNSUB
  8:   ADD TEMP[0].x, TEMP[0].xxxx, IMM[0].xxxx
  9:   IF IN[0].xxxx
 10:     RET
 11:   ENDIF
 12:   ADD TEMP[0].x, TEMP[0].xxxx, IMM[0].yyyy
 13:   IF IN[0].yyyy
 14:     RET
 15:   ENDIF
 16:   ADD TEMP[0].x, TEMP[0].xxxx, IMM[0].zzzz
 17: ENDSUB
";
    let ins = inputs(
        4,
        &[(
            input(0),
            vec![
                fv([1.0, 0.0, 0.0, 0.0]), // RET at 10: 1
                fv([0.0, 1.0, 0.0, 0.0]), // RET at 14: 1+2
                fv([0.0, 0.0, 0.0, 0.0]), // runs to ENDSUB: 1+2+4
                fv([0.0, 0.0, 1.0, 0.0]), // twice to ENDSUB: 14
            ],
        )],
    );
    check_program(
        text,
        &ins,
        &Expect::new().xs(out(0), &[f(1.0), f(3.0), f(7.0), f(14.0)]),
    );
}

/// Nested loops inside a subroutine; RET from the inner loop leaves both loops and the
/// subroutine for that invocation only. Without RET the inner body runs 2 × 3 = 6 times.
#[test]
fn ret_from_nested_loops_in_subroutine() {
    let text = "VERT
DCL IN[0]
DCL OUT[0]
DCL TEMP[0..2]
IMM[0] INT32 { 0, 1, 3, 2 }
  0: MOV TEMP[0], IMM[0].xxxx
  1: CAL :4
  2: MOV OUT[0], TEMP[0]
  3: END
  4: BGNSUB
  5:   MOV TEMP[1].x, IMM[0].xxxx
  6:   BGNLOOP
  7:     MOV TEMP[1].y, IMM[0].xxxx
  8:     BGNLOOP
  9:       UADD TEMP[0].x, TEMP[0].xxxx, IMM[0].yyyy
 10:       UADD TEMP[1].y, TEMP[1].yyyy, IMM[0].yyyy
 11:       USEQ TEMP[2].x, TEMP[0].xxxx, IN[0].xxxx
 12:       UIF TEMP[2].xxxx
 13:         RET
 14:       ENDIF
 15:       USGE TEMP[2].y, TEMP[1].yyyy, IMM[0].zzzz
 16:       UIF TEMP[2].yyyy
 17:         BRK
 18:       ENDIF
 19:     ENDLOOP
 20:     UADD TEMP[1].x, TEMP[1].xxxx, IMM[0].yyyy
 21:     USGE TEMP[2].z, TEMP[1].xxxx, IMM[0].wwww
 22:     UIF TEMP[2].zzzz
 23:       BRK
 24:     ENDIF
 25:   ENDLOOP
 26:   UADD TEMP[0].y, TEMP[0].yyyy, IMM[0].yyyy
 27: ENDSUB
";
    let l = |x: u32| [x, 0, 0, 0];
    let ins = inputs(4, &[(input(0), vec![l(2), l(4), l(100), l(6)])]);
    // RET after 2 and 4 iterations; 100 is never reached (6 iterations, ENDSUB reached);
    // 6 returns on the very last iteration.
    expect_masked(
        text,
        &ins,
        out(0),
        0x3,
        &[[2, 0, 0, 0], [4, 0, 0, 0], [6, 1, 0, 0], [6, 0, 0, 0]],
    );
}

/// RET outside a subroutine and END inside an IF end only the invocations executing them
/// (the oracle's contract: "RET outside any subroutine terminates the lanes").
#[test]
fn ret_and_end_in_main_end_those_invocations() {
    let text = "VERT
DCL IN[0]
DCL OUT[0]
IMM[0] FLT32 { 1.0, 2.0, 3.0, 0.0 }
MOV OUT[0].x, IMM[0].xxxx
IF IN[0].xxxx
  RET
ENDIF
MOV OUT[0].x, IMM[0].yyyy
IF IN[0].yyyy
  END
ENDIF
MOV OUT[0].x, IMM[0].zzzz
END
";
    let ins = inputs(
        4,
        &[(
            input(0),
            vec![
                fv([1.0, 0.0, 0.0, 0.0]),
                fv([0.0, 1.0, 0.0, 0.0]),
                fv([0.0, 0.0, 0.0, 0.0]),
                fv([1.0, 1.0, 0.0, 0.0]),
            ],
        )],
    );
    check_program(
        text,
        &ins,
        &Expect::new().xs(out(0), &[f(1.0), f(2.0), f(3.0), f(1.0)]),
    );
}

/// Recursion is inlined up to the oracle's call depth (64 nested CAL): a subroutine that
/// calls itself while its counter is non-zero counts down per invocation.
#[test]
fn bounded_recursion_per_invocation() {
    let text = "VERT
DCL IN[0]
DCL OUT[0]
DCL TEMP[0]
IMM[0] INT32 { 0, 1, -1, 0 }
  0: MOV TEMP[0].x, IN[0].xxxx
  1: MOV TEMP[0].y, IMM[0].xxxx
  2: CAL :5
  3: MOV OUT[0], TEMP[0]
  4: END
  5: BGNSUB
  6:   UIF TEMP[0].xxxx
  7:     UADD TEMP[0].x, TEMP[0].xxxx, IMM[0].zzzz
  8:     UADD TEMP[0].y, TEMP[0].yyyy, IMM[0].yyyy
  9:     CAL :5
 10:   ENDIF
 11: ENDSUB
";
    let n = |x: u32| [x, 0, 0, 0];
    // 63 recursive calls + the first = 64 nested CAL: the deepest the oracle allows.
    let ins = inputs(4, &[(input(0), vec![n(0), n(1), n(5), n(63)])]);
    expect_masked(
        text,
        &ins,
        out(0),
        0x3,
        &[[0, 0, 0, 0], [0, 1, 0, 0], [0, 5, 0, 0], [0, 63, 0, 0]],
    );
    // One level more: CallDepth, naming the invocation (both engines).
    let ins = inputs(4, &[(input(0), vec![n(0), n(1), n(64), n(2)])]);
    let program = parse(text);
    for e in engines() {
        match e.execute(&program, &ins) {
            Err(EngineError::CallDepth { limit, invocation }) => {
                assert_eq!((limit, invocation), (64, 2), "{}", e.name())
            }
            other => panic!("{}: want CallDepth, got {other:?}", e.name()),
        }
    }
}

/// More invocations than one quad, including a partial last quad outside fragment
/// programs: every invocation behaves as if it ran alone.
#[test]
fn many_invocations_and_partial_quad() {
    let text = "VERT
DCL IN[0]
DCL OUT[0]
DCL TEMP[0]
IMM[0] INT32 { 0, 1, 0, 0 }
MOV TEMP[0].x, IMM[0].xxxx
BGNLOOP
  USGE TEMP[0].y, TEMP[0].xxxx, IN[0].xxxx
  UIF TEMP[0].yyyy
    BRK
  ENDIF
  UADD TEMP[0].x, TEMP[0].xxxx, IMM[0].yyyy
ENDLOOP
MOV OUT[0].x, TEMP[0].xxxx
END
";
    let n = 4 * 37 + 3;
    let vals: Vec<_> = (0..n as u32).map(|k| [k % 17, 0, 0, 0]).collect();
    let ins = inputs(n, &[(input(0), vals)]);
    let want: Vec<_> = (0..n as u32).map(|k| k % 17).collect();
    check_program(text, &ins, &Expect::new().xs(out(0), &want));
}
