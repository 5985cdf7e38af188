//! Errors and undefinedness: step budget, call depth, unsupported opcodes detected before
//! running, invalid inputs, undefined values and their propagation into decisions and
//! out-of-bounds indirect accesses.

mod interp_common;
use std::time::{Duration, Instant};

use interp_common::*;
use shaderdiff_ir::{File, Opcode, Stage};
use shaderdiff_oracles::interp::{run, ExecError, InterpConfig, MAX_CALL_DEPTH};
use shaderdiff_oracles::RegKey;

/// An endless loop must stop with StepLimit, quickly, with the default budget.
#[test]
fn endless_loop_hits_step_limit() {
    let p = parse("VERT\nBGNLOOP\nENDLOOP\nEND\n");
    let t = Instant::now();
    let e = exec(&p, &inputs(4, &[])).unwrap_err();
    assert_eq!(
        e,
        ExecError::StepLimit {
            limit: 1_000_000,
            invocation: 0
        }
    );
    assert_eq!(
        e.to_string(),
        "step limit exceeded (1000000 steps) in invocation 0"
    );
    assert!(t.elapsed() < Duration::from_secs(20));
}

/// Only invocation 2 never breaks; the error names it.
#[test]
fn step_limit_names_the_looping_invocation() {
    let p = parse(
        "VERT
DCL IN[0]
BGNLOOP
  UIF IN[0].xxxx
    BRK
  ENDIF
ENDLOOP
END
",
    );
    let ins = inputs(4, &[(input(0), vec![[1; 4], [1; 4], [0; 4], [1; 4]])]);
    let e = run(&p, &ins, &InterpConfig { step_limit: 1000 }).unwrap_err();
    assert_eq!(
        e,
        ExecError::StepLimit {
            limit: 1000,
            invocation: 2
        }
    );
}

/// Every executed instruction costs one step, END included: MOV, MOV, END is 3 steps.
#[test]
fn step_limit_counts_instructions() {
    let p = parse(
        "VERT
DCL OUT[0], GENERIC[0]
IMM[0] FLT32 { 1.0, 0.0, 0.0, 0.0 }
MOV OUT[0], IMM[0].xxxx
MOV OUT[0].y, IMM[0].yyyy
END
",
    );
    let ins = inputs(1, &[]);
    assert!(run(&p, &ins, &InterpConfig { step_limit: 3 }).is_ok());
    assert!(matches!(
        run(&p, &ins, &InterpConfig { step_limit: 2 }),
        Err(ExecError::StepLimit {
            limit: 2,
            invocation: 0
        })
    ));
}

/// Unbounded recursion ends with CallDepth instead of exhausting memory.
#[test]
fn recursion_hits_call_depth() {
    let p = parse("VERT\n  0: CAL :2\n  1: END\n  2: BGNSUB\n  3:   CAL :2\n  4: ENDSUB\n");
    let e = exec(&p, &inputs(1, &[])).unwrap_err();
    assert_eq!(
        e,
        ExecError::CallDepth {
            limit: MAX_CALL_DEPTH,
            invocation: 0
        }
    );
}

/// Unsupported opcodes are reported before anything runs (the endless loop before the
/// TEX never executes), with the opcode and its source position.
#[test]
fn unsupported_opcode_detected_before_running() {
    let p = parse(
        "FRAG
DCL IN[0], GENERIC[0], LINEAR
DCL OUT[0], COLOR
DCL SAMP[0]
DCL SVIEW[0], 2D, FLOAT
BGNLOOP
ENDLOOP
TEX OUT[0], IN[0], SAMP[0], 2D
END
",
    );
    match exec(&p, &inputs(4, &[])) {
        Err(ExecError::Unsupported { opcode, pos, .. }) => {
            assert_eq!(opcode, Opcode::TEX);
            assert_eq!(pos.map(|p| p.line), Some(8));
        }
        other => panic!("expected Unsupported, got {other:?}"),
    }
}

#[test]
fn unsupported_64bit_geometry_and_derivative_outside_fragment() {
    let cases = [
        (
            "VERT\nDCL TEMP[0]\nDADD TEMP[0], TEMP[0], TEMP[0]\nEND\n",
            Opcode::DADD,
        ),
        (
            "GEOM\nPROPERTY GS_INPUT_PRIMITIVE POINTS\nPROPERTY GS_OUTPUT_PRIMITIVE POINTS\n\
             PROPERTY GS_MAX_OUTPUT_VERTICES 1\nIMM[0] INT32 { 0, 0, 0, 0 }\nEMIT IMM[0].xxxx\nEND\n",
            Opcode::EMIT,
        ),
        (
            "VERT\nDCL IN[0]\nDCL OUT[0], GENERIC[0]\nDDX OUT[0], IN[0]\nEND\n",
            Opcode::DDX,
        ),
    ];
    for (text, op) in cases {
        match exec(&parse(text), &inputs(4, &[])) {
            Err(ExecError::Unsupported { opcode, .. }) => assert_eq!(opcode, op),
            other => panic!("{op}: expected Unsupported, got {other:?}"),
        }
    }
}

/// tgsi.rst KILL: "Allowed in fragment shaders only".
#[test]
fn kill_outside_fragment_is_invalid() {
    let mut p = parse("FRAG\nKILL\nEND\n");
    p.stage = Stage::Vertex;
    assert!(matches!(
        exec(&p, &inputs(1, &[])),
        Err(ExecError::InvalidProgram { .. })
    ));
}

#[test]
fn invalid_inputs() {
    let frag = parse("FRAG\nDCL IN[0], GENERIC[0], LINEAR\nDCL OUT[0], COLOR\nEND\n");
    // Fragment programs run whole quads.
    assert!(matches!(
        exec(&frag, &inputs(3, &[])),
        Err(ExecError::InvalidInputs(_))
    ));
    // A register the program does not declare.
    assert!(matches!(
        exec(&frag, &inputs(4, &[(input(5), vec![[0; 4]])])),
        Err(ExecError::InvalidInputs(_))
    ));
    // Outputs are not inputs.
    assert!(matches!(
        exec(&frag, &inputs(4, &[(out(0), vec![[0; 4]])])),
        Err(ExecError::InvalidInputs(_))
    ));
    // Neither one vec4 nor one per invocation.
    assert!(matches!(
        exec(&frag, &inputs(4, &[(input(0), vec![[0; 4]; 2])])),
        Err(ExecError::InvalidInputs(_))
    ));
    // A constant the program does not declare.
    let mut i = inputs(4, &[]);
    i.constants.insert(RegKey::new(File::Const, 0), [0; 4]);
    assert!(matches!(exec(&frag, &i), Err(ExecError::InvalidInputs(_))));
}

/// tgsi.rst IDIV: "TBD: behavior for division by zero" — the quotient is undefined, and
/// so is everything computed from it; other channels and invocations stay defined.
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
    let o = run_text(text, &ins);
    // x = 7/n + 1 (undefined for n = 0); y defined; DP2 reading x is undefined, DP2
    // reading only y is defined.
    assert_eq!(undef(&o, out(0)), [0, 0b0101, 0, 0b0101]);
    assert_eq!(reg(&o, out(0))[0][0], 8);
    assert_eq!(reg(&o, out(0))[2][0], 2);
}

/// A branch on an undefined value leaves the invocation unconstrained: everything it
/// outputs is undefined.
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
    let o = run_text(text, &ins);
    assert_eq!(undef(&o, out(0)), [0, 0xF, 0, 0xF]);
    assert_eq!(undef(&o, out(1)), [0, 0xF, 0, 0xF]);
    assert_eq!(reg(&o, out(1))[0][0], 1);
    assert_eq!(reg(&o, out(1))[2][0], 1);
}

/// tgsi.rst "Array Declaration": accesses outside the ARRAY(1) declaration (TEMP[0..1])
/// are undefined behaviour. Reads give undefined channels; a write that lands out of
/// bounds may clobber anything, so the invocation is unconstrained.
/// Addresses: 0 and 1 in bounds; 2 (TEMP[2] is a different declaration) and -1 out.
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
    let o = run_text(text, &ins);
    assert_eq!(reg(&o, out(0))[..2], [fv([1.0; 4]), fv([2.0; 4])]);
    assert_eq!(reg(&o, out(1))[..2], [fv([3.0; 4]), fv([3.0; 4])]);
    assert_eq!(undef(&o, out(0)), [0, 0, 0xF, 0xF]);
    assert_eq!(undef(&o, out(1)), [0, 0, 0xF, 0xF]);
    // OUT[2] reads TEMP[a+1]: a = 0 → TEMP[1] (2.0); a = 1 → TEMP[2], outside the array.
    assert_eq!(reg(&o, out(2))[0], fv([2.0; 4]));
    assert_eq!(undef(&o, out(2)), [0, 0xF, 0xF, 0xF]);
}
