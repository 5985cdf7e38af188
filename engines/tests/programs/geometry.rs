//! Geometry programs: EMIT and ENDPRIM (tgsi.rst "Geometry ISA"; EXEC-NOTES.md §7 where the
//! doc is silent). Emitted vertex `v`'s output `OUT[n]` is reported as `OUT[v][n]`, and
//! each invocation's vertices as `(stream, primitive)` (INTERFACE.md additions, `emitted`).
//! Every expected value is worked from those rules:
//! * EMIT "generate[s] a new vertex ... into the specified vertex stream using the values in
//!   the output registers": the vertex holds the outputs' values at the EMIT.
//! * ENDPRIM "complete[s] the current primitive in the specified vertex stream (consisting
//!   of the emitted vertices), and start[s] a new one": later vertices of that stream
//!   belong to the next primitive; with no vertex since the last one there is nothing to
//!   complete.
//! * tgsi_exec drops vertices past GS_MAX_OUTPUT_VERTICES (absent: 0).

use shaderdiff_model::{emitted_key, RegKey};

use crate::support::consts::fv;
use crate::support::programs::*;

fn vout(v: u32, n: u32) -> RegKey {
    emitted_key(v, n)
}

/// Input `IN[v][n]` (vertex `v` of the input primitive).
fn vin(v: u32, n: u32) -> RegKey {
    RegKey {
        file: shaderdiff_model::File::Input,
        dimension: Some(v),
        index: n,
    }
}

const HEADER: &str = "GEOM
PROPERTY GS_INPUT_PRIMITIVE TRIANGLES
PROPERTY GS_OUTPUT_PRIMITIVE TRIANGLE_STRIP
";

/// TEXT-FORMAT.md ex10: one triangle per invocation, the three input vertices passed on.
#[test]
fn ex10_passes_the_triangle_on() {
    let text = format!(
        "{HEADER}PROPERTY GS_MAX_OUTPUT_VERTICES 3
DCL IN[][0], POSITION
DCL OUT[0], POSITION
IMM[0] INT32 {{0, 0, 0, 0}}
  0: MOV OUT[0], IN[0][0]
  1: EMIT IMM[0].xxxx
  2: MOV OUT[0], IN[1][0]
  3: EMIT IMM[0].xxxx
  4: MOV OUT[0], IN[2][0]
  5: EMIT IMM[0].xxxx
  6: ENDPRIM IMM[0].xxxx
  7: END
"
    );
    let vert = |v: u32, i: u32| fv([(10 * v + i) as f32, 1.0, 2.0, 3.0]);
    let regs: Vec<(RegKey, Vec<[u32; 4]>)> = (0..3u32)
        .map(|v| (vin(v, 0), (0..2).map(|i| vert(v, i)).collect()))
        .collect();
    let mut want = Expect::new()
        .emits(vec![vec![(0, 0); 3]; 2])
        .vals(out(0), &[vert(2, 0), vert(2, 1)]);
    for v in 0..3 {
        want = want.vals(vout(v, 0), &[vert(v, 0), vert(v, 1)]);
    }
    check_program(&text, &inputs(2, &regs), &want);
}

/// A vertex keeps the values the outputs had at its EMIT; the final OUT is the last write.
#[test]
fn a_vertex_is_a_snapshot_of_the_outputs() {
    let text = format!(
        "{HEADER}PROPERTY GS_MAX_OUTPUT_VERTICES 4
DCL OUT[0], POSITION
DCL OUT[1], GENERIC[0]
IMM[0] FLT32 {{1.0, 2.0, 3.0, 4.0}}
MOV OUT[0], IMM[0].xxxx
MOV OUT[1], IMM[0].yyyy
EMIT
MOV OUT[0].x, IMM[0].zzzz
EMIT
END
"
    );
    let want = Expect::new()
        .emits(vec![vec![(0, 0), (0, 0)]])
        .vals(vout(0, 0), &[fv([1.0; 4])])
        .vals(vout(0, 1), &[fv([2.0; 4])])
        .vals(vout(1, 0), &[fv([3.0, 1.0, 1.0, 1.0])])
        .vals(vout(1, 1), &[fv([2.0; 4])])
        .vals(out(0), &[fv([3.0, 1.0, 1.0, 1.0])]);
    check_program(&text, &inputs(1, &[]), &want);
}

/// Vertices past GS_MAX_OUTPUT_VERTICES are dropped (EXEC-NOTES.md §7); without the
/// property the limit is 0 and nothing is emitted.
#[test]
fn vertices_past_the_maximum_are_dropped() {
    let body = "DCL OUT[0], POSITION
IMM[0] FLT32 {1.0, 2.0, 3.0, 4.0}
MOV OUT[0], IMM[0].xxxx
EMIT
MOV OUT[0], IMM[0].yyyy
EMIT
MOV OUT[0], IMM[0].zzzz
EMIT
END
";
    let capped = format!("{HEADER}PROPERTY GS_MAX_OUTPUT_VERTICES 2\n{body}");
    let want = Expect::new()
        .emits(vec![vec![(0, 0), (0, 0)]])
        .vals(vout(0, 0), &[fv([1.0; 4])])
        .vals(vout(1, 0), &[fv([2.0; 4])])
        .vals(out(0), &[fv([3.0; 4])]);
    check_program(&capped, &inputs(1, &[]), &want);
    let none = format!("{HEADER}{body}");
    let want = Expect::new()
        .emits(vec![vec![]])
        .vals(out(0), &[fv([3.0; 4])])
        .exact_registers();
    check_program(&none, &inputs(1, &[]), &want);
}

/// ENDPRIM starts a new primitive of its stream only; an ENDPRIM with no vertex since the
/// last one completes nothing. Streams come from EMIT's integer `src.x`.
#[test]
fn primitives_are_counted_per_stream() {
    let text = format!(
        "{HEADER}PROPERTY GS_MAX_OUTPUT_VERTICES 8
DCL OUT[0], POSITION
IMM[0] INT32 {{0, 1, 0, 0}}
EMIT IMM[0].xxxx
ENDPRIM IMM[0].xxxx
ENDPRIM IMM[0].xxxx
EMIT IMM[0].xxxx
EMIT IMM[0].yyyy
ENDPRIM IMM[0].yyyy
EMIT IMM[0].yyyy
EMIT IMM[0].xxxx
END
"
    );
    let want = Expect::new().emits(vec![vec![(0, 0), (0, 1), (1, 0), (1, 1), (0, 1)]]);
    check_program(&text, &inputs(1, &[]), &want);
}

/// EMIT inside IF: only the invocations that take the branch emit there (per-invocation
/// divergence, EXEC-NOTES.md §1 masks).
#[test]
fn divergent_invocations_emit_their_own_vertices() {
    let text = format!(
        "{HEADER}PROPERTY GS_MAX_OUTPUT_VERTICES 4
DCL IN[][0], POSITION
DCL OUT[0], POSITION
IMM[0] FLT32 {{5.0, 6.0, 0.0, 0.0}}
MOV OUT[0], IMM[0].xxxx
EMIT
IF IN[0][0].xxxx
  MOV OUT[0], IMM[0].yyyy
  ENDPRIM
  EMIT
ENDIF
END
"
    );
    let ins = inputs(2, &[(vin(0, 0), vec![fv([1.0; 4]), fv([0.0; 4])])]);
    let want = Expect::new()
        .emits(vec![vec![(0, 0), (0, 1)], vec![(0, 0)]])
        .vals(vout(0, 0), &[fv([5.0; 4]), fv([5.0; 4])])
        .vals(vout(1, 0), &[fv([6.0; 4]), [0; 4]])
        .vals(out(0), &[fv([6.0; 4]), fv([5.0; 4])]);
    check_program(&text, &ins, &want);
}
