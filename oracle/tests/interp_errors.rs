//! The interpreter's own error API (`ExecError`): the default step budget and its message,
//! step accounting, its call-depth limit, the opcodes it leaves unsupported and programs it
//! rejects. The engine-level error contract (step limit naming the invocation, unsupported
//! before running, invalid inputs) and the undefinedness tests run on every engine in
//! engines/tests/programs.

mod interp_common;
use std::time::{Duration, Instant};

use interp_common::*;
use shaderdiff_model::{Opcode, Stage};
use shaderdiff_oracles::interp::{run, ExecError, InterpConfig, MAX_CALL_DEPTH};

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

#[test]
fn unsupported_64bit_saturate_images_and_derivative_outside_fragment() {
    let cases = [
        // (Modifiers on 64-bit sources are accepted: shaderdiff_model::wide_modifiers,
        // engines/tests/alu/modifiers64.rs.)
        // tgsi.rst "Other Modifiers": saturate clamps 32-bit stores.
        (
            "VERT\nDCL TEMP[0]\nDMUL_SAT TEMP[0], TEMP[0], TEMP[0]\nEND\n",
            Opcode::DMUL,
        ),
        (
            // Images are not modelled (BUFFER and MEMORY are: interp_memory.rs).
            "COMP\nDCL IMAGE[0], 2D, PIPE_FORMAT_R32_UINT, WR\nDCL TEMP[0]\n\
             IMM[0] UINT32 { 0, 0, 0, 0 }\n\
             LOAD TEMP[0], IMAGE[0], IMM[0].xxxx, 2D, PIPE_FORMAT_R32_UINT\nEND\n",
            Opcode::LOAD,
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

/// tgsi.rst "Geometry ISA": EMIT/ENDPRIM "are only supported in geometry shaders".
#[test]
fn emit_outside_geometry_is_invalid() {
    let p = parse("VERT\nIMM[0] INT32 { 0, 0, 0, 0 }\nEMIT IMM[0].xxxx\nEND\n");
    match exec(&p, &inputs(1, &[])) {
        Err(ExecError::InvalidProgram { message, .. }) => {
            assert!(message.contains("geometry"), "{message}")
        }
        other => panic!("expected InvalidProgram, got {other:?}"),
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
