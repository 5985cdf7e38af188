//! The jit's NV front-end faults (`nv-cc-unsaturated`, `nv-condmask-swap-xy`): with the
//! fault on, the jit computes what the faulty lowering would; without it every engine gives
//! the spec's value. Expected values by hand from NV_gpu_program4 §2.X.4.3 (the condition
//! code is set from the result as written, after clamping; a conditional write mask writes
//! component c when the test passes for component c of the swizzled condition code).

use crate::support::*;

/// `ADD.F.SAT.CC t, a, -2` with a = 0.5: the result is clamp(-1.5) = 0, so LT is false and
/// the conditional write does not happen (0.25 stays). With the fault the flags come from
/// -1.5: LT is true and 1.0 is written.
#[test]
fn cc_from_the_unsaturated_value() {
    let text = "!!NVvp5.0
PARAM a = program.local[0];
TEMP t;
ADD.F.SAT.CC t, a, -2;
MOV.F result.attrib[0], 0.25;
MOV.F result.attrib[0] (LT), 1;
END
";
    let locals = [[f(0.5); 4]];
    check(
        &run_all(text, &locals),
        "result.attrib[0]",
        0xF,
        [f(0.25); 4],
    );
    let faulty = run_with_fault(text, &locals, "jit", "nv-cc-unsaturated");
    let got = faulty
        .iter()
        .find(|(n, _)| n == "result.attrib[0]")
        .unwrap()
        .1;
    assert_eq!(got, [f(1.0); 4]);
}

/// `MOV.F.CC t, a` with a = (-1, 2, -3, 4), then `MOV.F result.attrib[0] (LT), 1` over
/// zeros: the spec writes x and z ((1, 0, 1, 0)); with the fault x tests y's flags and y
/// tests x's, giving (0, 1, 1, 0).
#[test]
fn conditional_write_mask_with_x_and_y_swapped() {
    let text = "!!NVvp5.0
PARAM a = program.local[0];
TEMP t;
MOV.F.CC t, a;
MOV.F result.attrib[0], 0;
MOV.F result.attrib[0] (LT), 1;
END
";
    let locals = [[f(-1.0), f(2.0), f(-3.0), f(4.0)]];
    let want = [f(1.0), f(0.0), f(1.0), f(0.0)];
    check(&run_all(text, &locals), "result.attrib[0]", 0xF, want);
    let faulty = run_with_fault(text, &locals, "jit", "nv-condmask-swap-xy");
    let got = faulty
        .iter()
        .find(|(n, _)| n == "result.attrib[0]")
        .unwrap()
        .1;
    assert_eq!(got, [f(0.0), f(1.0), f(1.0), f(0.0)]);
}
