//! Undefinedness in whole programs: values the specification leaves undefined, what is
//! computed from them, branches on them and out-of-bounds indirect accesses. The oracle
//! must flag exactly those channels; every engine must agree on everything else.

use crate::support::consts::fv;
use crate::support::programs::*;

/// tgsi.rst IDIV: "TBD: behavior for division by zero" — the quotient is undefined, and
/// so is everything computed from it; other channels and invocations stay defined.
/// x = 7/n + 1 (undefined for n = 0); y defined; DP2 reading x is undefined, DP2
/// reading only y is defined: 7/1 + 1 = 8, 7/7 + 1 = 2; y = 1; DP2(y, y) = 1.
#[test]
fn undefined_values_propagate() {
    let text = "VERT
DCL IN[0]
DCL OUT[0], GENERIC[0]
DCL TEMP[0]
IMM[0] INT32 { 7, 1, 0, 0 }
IDIV TEMP[0].x, IMM[0].xxxx, IN[0].xxxx
UADD OUT[0].x, TEMP[0].xxxx, IMM[0].yyyy
MOV OUT[0].y, IMM[0].yyyy
DP2 OUT[0].z, TEMP[0].xyyy, TEMP[0].xyyy
DP2 OUT[0].w, TEMP[0].yyyy, TEMP[0].yyyy
END
";
    let ins = inputs(4, &[(input(0), vec![[1; 4], [0; 4], [7, 0, 0, 0], [0; 4]])]);
    // TEMP[0].y is never written (0), so DP2(y, y) = +0 (0x0); OUT.y = the integer 1.
    let zero_div = [Ch::U, Ch::V(1), Ch::U, Ch::V(0)];
    let defined = |x: u32| [Ch::V(x), Ch::V(1), Ch::X, Ch::V(0)];
    let want = Expect::new().reg(out(0), vec![defined(8), zero_div, defined(2), zero_div]);
    check_program(text, &ins, &want);
}

/// A branch on an undefined value leaves the invocation unconstrained: everything it
/// outputs is undefined. Invocations 0 and 2 (quotients 7 and 1, both true) write
/// OUT[1].x = 1 and OUT[0].y = 1.
#[test]
fn branch_on_undefined_value_makes_invocation_unconstrained() {
    let text = "VERT
DCL IN[0]
DCL OUT[0], GENERIC[0]
DCL OUT[1], GENERIC[1]
DCL TEMP[0]
IMM[0] INT32 { 7, 1, 0, 0 }
IDIV TEMP[0].x, IMM[0].xxxx, IN[0].xxxx
MOV OUT[0].y, IMM[0].yyyy
UIF TEMP[0].xxxx
  MOV OUT[1].x, IMM[0].yyyy
ENDIF
END
";
    let ins = inputs(4, &[(input(0), vec![[1; 4], [0; 4], [7, 0, 0, 0], [0; 4]])]);
    let want = Expect::new()
        .reg(out(0), vec![v([0, 1, 0, 0]), U4, v([0, 1, 0, 0]), U4])
        .reg(out(1), vec![v([1, 0, 0, 0]), U4, v([1, 0, 0, 0]), U4]);
    check_program(text, &ins, &want);
}

/// tgsi.rst "Array Declaration": accesses outside the ARRAY(1) declaration (TEMP[0..1])
/// are undefined behaviour. Reads give undefined channels; a write that lands out of
/// bounds may clobber anything, so the invocation is unconstrained.
/// Addresses: 0 and 1 in bounds; 2 (TEMP[2] is a different declaration) and -1 out.
/// OUT[2] reads TEMP[a+1]: a = 0 → TEMP[1] (2.0); a = 1 → TEMP[2], outside the array.
#[test]
fn out_of_bounds_indirect_access() {
    let text = "VERT
DCL IN[0]
DCL OUT[0], GENERIC[0]
DCL OUT[1], GENERIC[1]
DCL OUT[2], GENERIC[2]
DCL TEMP[0..1], ARRAY(1)
DCL TEMP[2]
DCL ADDR[0]
IMM[0] FLT32 { 1.0, 2.0, 3.0, 4.0 }
MOV TEMP[0], IMM[0].xxxx
MOV TEMP[1], IMM[0].yyyy
MOV TEMP[2], IMM[0].zzzz
UARL ADDR[0].x, IN[0].xxxx
MOV OUT[0], TEMP[ADDR[0].x](1)
MOV OUT[2], TEMP[ADDR[0].x+1](1)
MOV TEMP[ADDR[0].x](1), IMM[0].wwww
MOV OUT[1], TEMP[2]
END
";
    let ins = inputs(
        4,
        &[(
            input(0),
            vec![[0; 4], [1, 0, 0, 0], [2, 0, 0, 0], [-1i32 as u32, 0, 0, 0]],
        )],
    );
    let want = Expect::new()
        .reg(out(0), vec![v(fv([1.0; 4])), v(fv([2.0; 4])), U4, U4])
        .reg(out(1), vec![v(fv([3.0; 4])), v(fv([3.0; 4])), U4, U4])
        .reg(out(2), vec![v(fv([2.0; 4])), U4, U4, U4]);
    check_program(text, &ins, &want);
}
