//! KILL, KILL_IF, DEMOTE and derivatives in fragment quads (INTERFACE.md "Fragment quads":
//! invocations 4q..4q+3 are (x,y) (x+1,y) (x,y+1) (x+1,y+1); DDX = f(x+1) - f(x),
//! DDY = f(y+1) - f(y)). Expected values worked by hand from tgsi.rst KILL_IF / KILL /
//! DEMOTE / DDX / DDY and EXEC-NOTES §10–11.

mod interp_common;
use interp_common::*;

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
    let o = run_text(EX03, &inputs(8, &[(input(0), vals)]));
    assert_eq!(
        o.killed,
        Some(vec![true, false, true, false, false, false, true, true])
    );
    let o0 = reg(&o, out(0));
    assert_eq!(o0[0], fv([1.0, 0.0, 0.0, 1.0]));
    assert_eq!(o0[1], fv([0.0, 1.0, 0.0, 1.0]));
    assert_eq!(o0[2], [0; 4]);
    assert_eq!(o0[3], fv([0.0, 1.0, 0.0, 1.0]));
    assert_eq!(o0[4], fv([0.0, 1.0, 0.0, 1.0]));
    assert_eq!(o0[5], fv([0.0, 1.0, 0.0, 1.0]));
    assert_eq!(o0[6], [0; 4]);
    assert_eq!(o0[7], fv([1.0, 0.0, 0.0, 1.0]));
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
    let o = run_text(text, &inputs(8, &[(input(0), in0), (input(1), in1)]));
    let killed = vec![false, true, false, true, true, false, false, true];
    assert_eq!(o.killed, Some(killed.clone()));
    for (v, k) in reg(&o, out(0)).iter().zip(killed) {
        assert_eq!(*v, if k { [0; 4] } else { fv([1.0; 4]) });
    }
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
    let o = run_text(text, &inputs(8, &[(input(0), lane_numbers(2))]));
    for v in reg(&o, out(0)) {
        assert_eq!(*v, fv([1.0, 2.0, 1.0, 2.0]));
    }
    assert!(o.undefined.is_empty());
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
    let o = run_text(text, &inputs(4, &[(input(0), vals)]));
    assert_eq!(
        reg(&o, out(0)),
        [
            fv([1.0, 2.0, -1.0, 0.0]),
            fv([1.0, 4.0, -1.0, 0.0]),
            fv([3.0, 2.0, -3.0, 0.0]),
            fv([3.0, 4.0, -3.0, 0.0]),
        ]
    );
    assert_eq!(undef(&o, out(0)), [0; 4]);
    assert_eq!(undef(&o, out(1)), [0b0011; 4]);
    assert!(reg(&o, out(1)).iter().all(|v| v[2] == f(1.0)));
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
    let o = run_text(text, &inputs(4, &[(input(0), vals)]));
    assert_eq!(o.killed, Some(vec![false, true, false, false]));
    for v in reg(&o, out(0)) {
        assert_eq!(*v, fv([1.0, 1.0, 0.0, 0.0]));
    }
    assert!(o.undefined.is_empty());
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
    let o = run_text(text, &inputs(8, &[(input(0), vals)]));
    assert_eq!(
        o.killed,
        Some(vec![false, true, false, false, false, false, false, false])
    );
    assert_eq!(undef(&o, out(0)), [1, 0, 1, 1, 0, 0, 0, 0]);
    let x: Vec<u32> = reg(&o, out(0)).iter().map(|v| v[0]).collect();
    assert_eq!(x[1], 0);
    assert_eq!(x[4..], [f(1.0); 4]);
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
    let o = run_text(text, &inputs(8, &[(input(0), vals)]));
    assert_eq!(undef(&o, out(0)), [1, 0, 0, 0, 0, 0, 0, 0]);
    let x: Vec<u32> = reg(&o, out(0)).iter().map(|v| v[0]).collect();
    assert_eq!(x[4..], [f(2.0); 4]);
}
