//! KILL, KILL_IF, DEMOTE and derivatives in fragment quads (INTERFACE.md "Fragment quads":
//! invocations 4q..4q+3 are (x,y) (x+1,y) (x,y+1) (x+1,y+1); DDX = f(x+1) - f(x),
//! DDY = f(y+1) - f(y)). Expected values worked by hand from tgsi.rst KILL_IF / KILL /
//! DEMOTE / DDX / DDY and EXEC-NOTES §10–11.

use crate::support::consts::{f, fv};
use crate::support::programs::*;

/// TEXT-FORMAT.md ex03 (copied from spec/tgsi/examples/ex03.tgsi).
const EX03: &str = "FRAG
DCL IN[0], GENERIC[0], LINEAR
DCL OUT[0], COLOR
DCL TEMP[0]
IMM[0] FLT32 {    0.5000,     1.0000,     0.0000,    -1.0000}
  0: KILL_IF IN[0].wwww
  1: FSLT TEMP[0].x, IN[0].xxxx, IMM[0].xxxx
  2: UIF TEMP[0].xxxx :5
  3:   MOV OUT[0], IMM[0].yzzy
  4:   KILL
  5: ELSE :7
  6:   MOV OUT[0], IMM[0].zyzy
  7: ENDIF
  8: END
";

/// ex03 per invocation (IN = (x, 0, 0, w)):
/// (0.25, w=1): survives KILL_IF, x < 0.5 → writes (1,0,0,1) then KILL → killed.
/// (0.75, w=1): else-branch (0,1,0,1), alive.
/// (0.75, w=-1): KILL_IF kills before anything is written: OUT stays 0 (a killed
///   invocation stops; tgsi_exec's "keeps writing" is not copied).
/// (0.75, w=NaN) and (0.75, w=-0.0): NaN and -0.0 are not < 0 → alive, (0,1,0,1).
/// (0.75, w=+inf): alive. (0.75, w=-inf): killed. (0.4, w=0): killed by the KILL.
/// (Values of killed invocations are checked on the oracle only, INTERFACE.md.)
#[test]
fn example_ex03_kill_if_and_kill() {
    let ws = [
        1.0,
        1.0,
        -1.0,
        f32::NAN,
        -0.0,
        f32::INFINITY,
        f32::NEG_INFINITY,
        0.0,
    ];
    let xs = [0.25, 0.75, 0.75, 0.75, 0.75, 0.75, 0.75, 0.4];
    let vals = xs
        .iter()
        .zip(ws)
        .map(|(&x, w)| fv([x, 0.0, 0.0, w]))
        .collect();
    let alive = fv([0.0, 1.0, 0.0, 1.0]);
    let want = Expect::new()
        .killed(Some(vec![
            true, false, true, false, false, false, true, true,
        ]))
        .vals(
            out(0),
            &[
                fv([1.0, 0.0, 0.0, 1.0]),
                alive,
                [0; 4],
                alive,
                alive,
                alive,
                [0; 4],
                fv([1.0, 0.0, 0.0, 1.0]),
            ],
        );
    check_program(EX03, &inputs(8, &[(input(0), vals)]), &want);
}

/// tgsi.rst KILL_IF: discard if src.x < 0 || src.y < 0 || src.z < 0 || src.w < 0 (after
/// swizzle and modifiers).
#[test]
fn kill_if_any_component_and_modifiers() {
    let text = "FRAG
DCL IN[0], GENERIC[0], LINEAR
DCL IN[1], GENERIC[1], LINEAR
DCL OUT[0], COLOR
IMM[0] FLT32 { 1.0, 0.0, 0.0, 0.0 }
KILL_IF IN[0]
KILL_IF -IN[1].xxxx
MOV OUT[0], IMM[0].xxxx
END
";
    let in0 = vec![
        fv([1.0, 1.0, 1.0, 1.0]),
        fv([1.0, 1.0, -1.0, 1.0]),
        fv([-0.0, f32::NAN, 0.0, f32::INFINITY]),
        fv([1.0, 1.0, 1.0, -1e-30]),
        fv([0.0; 4]),
        fv([0.0; 4]),
        fv([0.0; 4]),
        fv([0.0; 4]),
    ];
    // -IN[1].x < 0 ⇔ IN[1].x > 0.
    let in1 = [0.0, 0.0, 0.0, 0.0, 2.0, -2.0, 0.0, f32::MIN_POSITIVE]
        .iter()
        .map(|&x| fv([x, 0.0, 0.0, 0.0]))
        .collect();
    let killed = vec![false, true, false, true, true, false, false, true];
    let vals: Vec<_> = killed
        .iter()
        .map(|&k| if k { [0; 4] } else { fv([1.0; 4]) })
        .collect();
    let want = Expect::new().killed(Some(killed)).vals(out(0), &vals);
    check_program(text, &inputs(8, &[(input(0), in0), (input(1), in1)]), &want);
}

fn lane_numbers(quads: usize) -> Vec<[u32; 4]> {
    (0..4 * quads)
        .map(|i| fv([(i % 4) as f32, 0.0, 0.0, 0.0]))
        .collect()
}

/// EXEC-NOTES §11 [run]: with an input equal to the lane number, DDX = 1 and DDY = 2, both
/// coarse and fine (the quad is linear, so every row and column agrees).
#[test]
fn ddx_ddy_of_lane_number() {
    let text = "FRAG
DCL IN[0], GENERIC[0], LINEAR
DCL OUT[0], COLOR
DDX OUT[0].x, IN[0].xxxx
DDY OUT[0].y, IN[0].xxxx
DDX_FINE OUT[0].z, IN[0].xxxx
DDY_FINE OUT[0].w, IN[0].xxxx
END
";
    let want = Expect::new()
        .vals(out(0), &[fv([1.0, 2.0, 1.0, 2.0]); 8])
        .no_undefined();
    check_program(text, &inputs(8, &[(input(0), lane_numbers(2))]), &want);
}

/// A non-linear quad v = (0, 1, 2, 5) at (x,y) (x+1,y) (x,y+1) (x+1,y+1):
/// fine DDX: top row 1 - 0 = 1 for lanes 0, 1; bottom row 5 - 2 = 3 for lanes 2, 3.
/// fine DDY: left column 2 - 0 = 2 for lanes 0, 2; right column 5 - 1 = 4 for lanes 1, 3.
/// Coarse: tgsi.rst lets DDX "be the same for the entire 2x2 quad" without saying which
/// row, so with rows disagreeing (1 vs 3, 2 vs 4) the coarse value is undefined.
/// Negation applies before differencing: DDX_FINE of -v is -1 / -3.
#[test]
fn fine_and_coarse_on_non_linear_quad() {
    let text = "FRAG
DCL IN[0], GENERIC[0], LINEAR
DCL OUT[0], COLOR
DCL OUT[1], COLOR[1]
DDX_FINE OUT[0].x, IN[0].xxxx
DDY_FINE OUT[0].y, IN[0].xxxx
DDX_FINE OUT[0].z, -IN[0].xxxx
DDX OUT[1].x, IN[0].xxxx
DDY OUT[1].y, IN[0].xxxx
DDX OUT[1].z, IN[0].yyyy
END
";
    // y channel: linear in x only (0, 1, 0, 1): coarse DDX = 1 from both rows.
    let vals = vec![
        fv([0.0, 0.0, 0.0, 0.0]),
        fv([1.0, 1.0, 0.0, 0.0]),
        fv([2.0, 0.0, 0.0, 0.0]),
        fv([5.0, 1.0, 0.0, 0.0]),
    ];
    // OUT[1]: x, y undefined; z = 1; w never written (0).
    let out1 = [Ch::U, Ch::U, Ch::V(f(1.0)), Ch::V(0)];
    let want = Expect::new()
        .vals(
            out(0),
            &[
                fv([1.0, 2.0, -1.0, 0.0]),
                fv([1.0, 4.0, -1.0, 0.0]),
                fv([3.0, 2.0, -3.0, 0.0]),
                fv([3.0, 4.0, -3.0, 0.0]),
            ],
        )
        .reg(out(1), vec![out1; 4]);
    check_program(text, &inputs(4, &[(input(0), vals)]), &want);
}

/// DEMOTE (tgsi.rst): the invocation becomes a helper and keeps executing, "useful for
/// having accurate derivatives in the other invocations": the quad's DDX stays defined,
/// the demoted invocation keeps writing, and its outputs are discarded (reported killed).
#[test]
fn demote_keeps_quad_derivatives() {
    let text = "FRAG
DCL IN[0], GENERIC[0], LINEAR
DCL OUT[0], COLOR
IMM[0] FLT32 { 1.0, 0.0, 0.0, 0.0 }
IF IN[0].yyyy
  DEMOTE
ENDIF
DDX OUT[0].x, IN[0].xxxx
MOV OUT[0].y, IMM[0].xxxx
END
";
    let vals = (0..4)
        .map(|i| fv([i as f32, if i == 1 { 1.0 } else { 0.0 }, 0.0, 0.0]))
        .collect();
    let want = Expect::new()
        .killed(Some(vec![false, true, false, false]))
        .vals(out(0), &[fv([1.0, 1.0, 0.0, 0.0]); 4])
        .no_undefined();
    check_program(text, &inputs(4, &[(input(0), vals)]), &want);
}

/// After KILL the invocation is terminated, so the rest of its quad computes derivatives
/// in non-uniform control flow: undefined (GLSL: derivatives are undefined in non-uniform
/// control flow). The other quad, where nobody is killed, is unaffected. The killed
/// invocation never executes the DDX, so its OUT stays the defined initial 0.
#[test]
fn kill_makes_quad_derivatives_undefined() {
    let text = "FRAG
DCL IN[0], GENERIC[0], LINEAR
DCL OUT[0], COLOR
IF IN[0].yyyy
  KILL
ENDIF
DDX OUT[0].x, IN[0].xxxx
END
";
    let vals = (0..8)
        .map(|i| fv([(i % 4) as f32, if i == 1 { 1.0 } else { 0.0 }, 0.0, 0.0]))
        .collect();
    let mut killed = vec![false; 8];
    killed[1] = true;
    let mut x = vec![[Ch::V(f(1.0)), Ch::V(0), Ch::V(0), Ch::V(0)]; 8];
    x[0][0] = Ch::U;
    x[1][0] = Ch::V(0);
    x[2][0] = Ch::U;
    x[3][0] = Ch::U;
    let want = Expect::new().killed(Some(killed)).reg(out(0), x);
    check_program(text, &inputs(8, &[(input(0), vals)]), &want);
}

/// A derivative inside a branch taken by part of a quad is undefined for the invocations
/// that execute it; in a branch taken by a whole quad it is defined.
#[test]
fn derivative_in_divergent_branch() {
    let text = "FRAG
DCL IN[0], GENERIC[0], LINEAR
DCL OUT[0], COLOR
IF IN[0].yyyy
  DDY_FINE OUT[0].x, IN[0].xxxx
ENDIF
END
";
    // Quad 0: only invocation 0 takes the branch. Quad 1: all four do.
    let vals = (0..8)
        .map(|i| {
            fv([
                (i % 4) as f32,
                if i == 0 || i >= 4 { 1.0 } else { 0.0 },
                0.0,
                0.0,
            ])
        })
        .collect();
    // Invocations 1..3 skip the branch: OUT stays 0.
    let mut x = vec![[Ch::V(0); 4]; 8];
    x[0][0] = Ch::U;
    for inv in &mut x[4..] {
        inv[0] = Ch::V(f(2.0));
    }
    let want = Expect::new().reg(out(0), x);
    check_program(text, &inputs(8, &[(input(0), vals)]), &want);
}
