//! KILL, KILL_IF, DEMOTE and derivatives within a quad. Expected values from tgsi.rst
//! (KILL_IF pseudocode `src.x < 0 || ...`; DEMOTE "continues execution"; DDX/DDY: fine =
//! one derivative per row/column, coarse may be one per quad) and EXEC-NOTES.md §10 (NaN and
//! -0.0 do not kill [run]), §11 (lane-number input: DDX = 1, DDY = 2 [run]); INTERFACE.md
//! "Fragment quads" fixes lanes `(x,y) (x+1,y) (x,y+1) (x+1,y+1)`. Unlike tgsi_exec
//! (EXEC-NOTES §10), killed invocations stop executing (the oracle's contract).

use crate::support::*;

const FRAG_IO: &str = "FRAG
DCL IN[0], GENERIC[0], LINEAR
DCL OUT[0], COLOR
";

/// KILL_IF kills invocations with any component `< 0.0`; NaN and -0.0 do not kill. Killed
/// invocations execute nothing further, so their later write does not happen.
#[test]
fn kill_if_per_invocation_nan_and_negative_zero_survive() {
    let text = format!(
        "{FRAG_IO}IMM[0] FLT32 {{ 1.0, 0.0, 0.0, 0.0 }}
MOV OUT[0], IMM[0].yyyy
KILL_IF IN[0]
MOV OUT[0].x, IMM[0].xxxx
END
"
    );
    let nan = f32::NAN;
    let ins = inputs(
        4,
        &[(
            input(0),
            vec![
                fv([1.0, 1.0, 1.0, 1.0]),
                fv([nan, 1.0, 1.0, 1.0]),
                fv([-0.0, 0.0, -0.0, 2.0]),
                fv([1.0, 1.0, 1.0, -1.0e-30]),
            ],
        )],
    );
    let o = run(&text, &ins);
    assert_eq!(o.killed, Some(vec![false, false, false, true]));
    assert_eq!(xs(&o, out(0)), vec![f(1.0), f(1.0), f(1.0), f(0.0)]);
}

/// KILL inside a branch kills only the invocations executing it; the others rejoin.
#[test]
fn kill_in_divergent_branch() {
    let text = format!(
        "{FRAG_IO}IMM[0] FLT32 {{ 1.0, 2.0, 0.0, 0.0 }}
IF IN[0].xxxx
  KILL
  MOV OUT[0].y, IMM[0].xxxx
ENDIF
MOV OUT[0].x, IMM[0].yyyy
END
"
    );
    let ins = inputs(
        8,
        &[(
            input(0),
            (0..8)
                .map(|k| fv([if k % 3 == 0 { 1.0 } else { 0.0 }, 0.0, 0.0, 0.0]))
                .collect(),
        )],
    );
    let o = run(&text, &ins);
    let killed: Vec<bool> = (0..8).map(|k| k % 3 == 0).collect();
    assert_eq!(o.killed, Some(killed.clone()));
    let want: Vec<u32> = killed.iter().map(|&k| if k { 0 } else { f(2.0) }).collect();
    assert_eq!(xs(&o, out(0)), want);
}

/// DEMOTE: the invocation keeps executing (its later writes happen and its values still feed
/// the quad's derivatives) but it is reported as discarded.
#[test]
fn demote_keeps_running_and_feeding_derivatives() {
    let text = format!(
        "{FRAG_IO}IF IN[0].yyyy
  DEMOTE
ENDIF
DDX_FINE OUT[0].x, IN[0].xxxx
DDY_FINE OUT[0].z, IN[0].xxxx
MOV OUT[0].y, IN[0].xxxx
END
"
    );
    let lane = |x: f32, y: f32| fv([x, y, 0.0, 0.0]);
    let ins = inputs(
        4,
        &[(
            input(0),
            vec![
                lane(0.0, 0.0),
                lane(1.0, 1.0),
                lane(2.0, 0.0),
                lane(3.0, 0.0),
            ],
        )],
    );
    let o = run(&text, &ins);
    assert_eq!(o.killed, Some(vec![false, true, false, false]));
    // Lane number as input: DDX = 1, DDY = 2 (EXEC-NOTES §11 [run]).
    expect(
        &o,
        out(0),
        0x7,
        &[
            fv([1.0, 0.0, 2.0, 0.0]),
            fv([1.0, 1.0, 2.0, 0.0]),
            fv([1.0, 2.0, 2.0, 0.0]),
            fv([1.0, 3.0, 2.0, 0.0]),
        ],
    );
}

/// Fine derivatives use the invocation's own row (DDX) / column (DDY); coarse ones the top
/// row / left column. Quad values v = (1, 2, 4, 8) are not linear: fine DDX = 1 (row 0) and
/// 4 (row 1), fine DDY = 3 (column 0) and 6 (column 1). Coarse on the linear quad
/// (0, 1, 10, 11): DDX = 1, DDY = 10 in every lane. Source modifiers apply first.
#[test]
fn fine_and_coarse_derivatives() {
    let text = format!(
        "{FRAG_IO}DDX_FINE OUT[0].x, IN[0].xxxx
DDY_FINE OUT[0].y, IN[0].xxxx
DDX OUT[0].z, IN[0].yyyy
DDY OUT[0].w, -IN[0].yyyy
END
"
    );
    let lane = |x: f32, y: f32| fv([x, y, 0.0, 0.0]);
    let ins = inputs(
        4,
        &[(
            input(0),
            vec![
                lane(1.0, 0.0),
                lane(2.0, 1.0),
                lane(4.0, 10.0),
                lane(8.0, 11.0),
            ],
        )],
    );
    let o = run(&text, &ins);
    expect(
        &o,
        out(0),
        0xF,
        &[
            fv([1.0, 3.0, 1.0, -10.0]),
            fv([1.0, 6.0, 1.0, -10.0]),
            fv([4.0, 3.0, 1.0, -10.0]),
            fv([4.0, 6.0, 1.0, -10.0]),
        ],
    );
}

/// Derivatives read every invocation of the quad, whatever path each took: in a branch
/// taken by two invocations of the quad, the values of the other two still come from their
/// registers (the oracle marks such results undefined; the jit computes them the same way).
#[test]
fn derivative_in_divergent_branch_agrees_with_oracle() {
    let text = format!(
        "{FRAG_IO}DCL TEMP[0]
MUL TEMP[0].x, IN[0].xxxx, IN[0].xxxx
IF IN[0].yyyy
  DDX_FINE OUT[0].x, TEMP[0].xxxx
ENDIF
DDX_FINE OUT[0].y, TEMP[0].xxxx
END
"
    );
    let lane = |x: f32, y: f32| fv([x, y, 0.0, 0.0]);
    let ins = inputs(
        4,
        &[(
            input(0),
            vec![
                lane(1.0, 1.0),
                lane(2.0, 0.0),
                lane(3.0, 1.0),
                lane(5.0, 0.0),
            ],
        )],
    );
    let o = run(&text, &ins);
    // Squares 1, 4, 9, 25: fine DDX is 3 on row 0 and 16 on row 1.
    expect(
        &o,
        out(0),
        0x2,
        &[
            fv([0.0, 3.0, 0.0, 0.0]),
            fv([0.0, 3.0, 0.0, 0.0]),
            fv([0.0, 16.0, 0.0, 0.0]),
            fv([0.0, 16.0, 0.0, 0.0]),
        ],
    );
}
