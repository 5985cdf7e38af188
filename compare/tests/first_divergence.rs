//! The first divergence in time and the reduction passes on the findings that
//! `fuzz --inject-fault NAME --seed 3` could not reduce to 4 instructions before timed
//! probes (docs/faults.md): each fault's bug, as its catalogue description states it, shown
//! by a small fixed program, must be located at the faulty instruction and reduce to at
//! most 4 instructions with that signature.

use shaderdiff_compare::diff::{engines_from_names, Differ};
use shaderdiff_compare::reduce::nv::{insn_count, reduce_nv};
use shaderdiff_compare::reduce::{reduce, size, ReduceOptions};
use shaderdiff_oracles::precision::NanPolicy;
use shaderdiff_oracles::Inputs;

fn jit_with(fault: &str) -> Differ {
    let (engines, missing) = engines_from_names(&["jit".to_string()], 20_000, Some(fault));
    assert!(missing.is_empty(), "no jit in this build");
    Differ::new(engines, 20_000, NanPolicy::Any).unwrap()
}

fn one() -> Inputs {
    Inputs {
        invocations: 1,
        ..Default::default()
    }
}

fn reduce_tgsi(fault: &str, text: &str) -> (String, usize) {
    let p = shaderdiff_tgsi::parse(text, "t").unwrap();
    let r = reduce(
        &jit_with(fault),
        0,
        &p,
        &one(),
        None,
        &ReduceOptions::default(),
    )
    .unwrap();
    (r.divergence.signature.to_string(), size(&r.program))
}

fn reduce_nv_text(fault: &str, text: &str) -> (String, usize) {
    let p = shaderdiff_nv::parse(text, "t.nv").unwrap();
    let r = reduce_nv(
        &jit_with(fault),
        0,
        &p,
        &one(),
        None,
        &ReduceOptions::default(),
    )
    .unwrap();
    (r.divergence.signature.to_string(), insn_count(&r.program))
}

/// if-nan-false ("a NaN condition is false"; tgsi.rst IF: a nonzero condition, NaN
/// included, takes the IF body): the finding of seed 3 kept a SWITCH because the EMIT after
/// the IF was skipped by a BRK in its ELSE. The IF is the first divergence; sinking the EMIT
/// into the IF body lets the SWITCH and the BRK go: `IF nan / EMIT / ENDIF`.
#[test]
fn if_nan_false_reduces_past_an_early_break() {
    let text = "GEOM
PROPERTY GS_INPUT_PRIMITIVE TRIANGLES
PROPERTY GS_OUTPUT_PRIMITIVE POINTS
PROPERTY GS_MAX_OUTPUT_VERTICES 6
DCL IN[][0], GENERIC[0]
IMM[0] INT32 {0, 0, 0, 0}
IMM[1] FLT32 {nan, 0.0, 0.0, 0.0}
SWITCH IMM[0]
CASE IMM[0]
IF IMM[1]
ELSE
BRK
ENDIF
EMIT IMM[0]
ENDSWITCH
END
";
    let (sig, n) = reduce_tgsi("if-nan-false", text);
    assert_eq!(sig, "jit-branch-none");
    assert!(n <= 3, "{n} instructions");
}

/// writemask-ignored-w (".w keeps its old value"): LRP (7) loses .w at its first execution,
/// the next iteration's UADD (6), earlier in program order, reads it. The first divergence
/// in time is the LRP.
#[test]
fn writemask_ignored_w_is_found_at_the_write_not_at_the_later_reader() {
    let text = "COMP\nDCL OUT[0], GENERIC[0]\nDCL TEMP[0]\nDCL TEMP[10]\n\
        IMM[0] INT32 {0, 1, 0, 2}\nIMM[1] UINT32 {0, 0, 0, 0}\n\
        IMM[2] FLT32 {0.0, 0.0, 0.0, 1.0}\n\
        BGNLOOP\nUADD TEMP[10].x, TEMP[10], IMM[0].yyyy\n\
        USLT TEMP[10].y, IMM[0].wwww, TEMP[10].xxxx\nUIF TEMP[10].yyyy\nBRK\nENDIF\n\
        UADD OUT[0].w, IMM[1], TEMP[0]\nLRP TEMP[0], IMM[2], IMM[2], IMM[2]\nENDLOOP\nEND\n";
    let (sig, n) = reduce_tgsi("writemask-ignored-w", text);
    assert_eq!(sig, "jit-float_arith-f32");
    assert!(n <= 4, "{n} instructions");
}

/// nv-cc-unsaturated ("the flags from the value before clamping"; NV_gpu_program4
/// §2.X.4.3 sets them from the clamped result): clamp(0.5 - 2) = 0 is not LT, -1.5 is.
/// The flag test of the lowered program is the first divergence, also in probed copies
/// (which have no NV origin to re-lower).
#[test]
fn nv_cc_unsaturated_is_located_in_probed_copies() {
    let text = "!!NVvp5.0
PARAM k = {0.5, -2, 0.25, 1};
TEMP t;
ADD.F.SAT.CC t, k.x, k.y;
MOV.F result.attrib[0], k.z;
MOV.F result.attrib[0] (LT), k.w;
END
";
    let (sig, n) = reduce_nv_text("nv-cc-unsaturated", text);
    assert_eq!(sig, "jit-float_compare-i32");
    assert!(n <= 4, "{n} instructions");
}

/// nv-condmask-swap-xy (".x where the test passes for .y"): flags of (-1, 2, -3, 4), a
/// write under (LT): the spec writes x, the fault tests y for x. The conditional write's
/// test is the first divergence (it decides on the wrong component), also in probed
/// copies, whose recording code sits inside the test's body.
#[test]
fn nv_condmask_swap_is_located_at_the_conditional_write() {
    let text = "!!NVvp5.0
PARAM k = {-1, 2, -3, 4};
TEMP t;
MOV.F.CC t, k;
MOV.F result.attrib[0], 0;
MOV.F result.attrib[0] (LT), 1;
END
";
    let (sig, n) = reduce_nv_text("nv-condmask-swap-xy", text);
    assert_eq!(sig, "jit-branch-none");
    assert!(n <= 4, "{n} instructions");
}
