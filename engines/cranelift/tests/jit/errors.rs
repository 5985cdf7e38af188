//! The error contract: the step budget (the oracle's counting rule: every instruction an
//! invocation executes costs it one step; over the budget stops the run naming the first
//! invocation over it), unsupported programs rejected before running, invalid inputs.

use std::time::{Duration, Instant};

use shaderdiff_cranelift::JitEngine;
use shaderdiff_engine::{Engine, EngineConfig, EngineError};

use crate::support::*;

/// An endless loop stops with StepLimit, quickly, at the default budget of 10^6 steps.
#[test]
fn endless_loop_stops_quickly() {
    let text = "FRAG\nBGNLOOP\nENDLOOP\nEND\n";
    let t = Instant::now();
    let r = run_limit(text, &inputs(64, &[]), 1_000_000);
    assert!(
        matches!(
            r,
            Err(EngineError::StepLimit {
                limit: 1_000_000,
                invocation: 0
            })
        ),
        "{r:?}"
    );
    assert!(
        t.elapsed() < Duration::from_secs(10),
        "took {:?}",
        t.elapsed()
    );
}

/// Exact counting: `MOV; MOV; END` costs 3 steps, so a budget of 3 runs and 2 stops. In a
/// loop an ENDIF counts only for the invocations that executed its branch (the others
/// are not executing when it is reached), so trip count t costs
/// `MOV BGNLOOP` + t × `USGE UIF UADD ENDLOOP` + `USGE UIF BRK` + `MOV END` = 4t + 7 steps.
#[test]
fn step_budget_boundaries() {
    let straight = "VERT\nDCL OUT[0]\nIMM[0] FLT32 { 1.0, 0.0, 0.0, 0.0 }\nMOV OUT[0], IMM[0]\nMOV OUT[0].y, IMM[0].xxxx\nEND\n";
    assert!(run_limit(straight, &inputs(4, &[]), 3).is_ok());
    assert!(matches!(
        run_limit(straight, &inputs(4, &[]), 2),
        Err(EngineError::StepLimit {
            limit: 2,
            invocation: 0
        })
    ));
    let looping = "VERT
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
    let t = |x: u32| [x, 0, 0, 0];
    let ins = inputs(
        8,
        &[(
            input(0),
            vec![t(0), t(3), t(1), t(9), t(2), t(9), t(0), t(4)],
        )],
    );
    let steps_9 = 4 * 9 + 7;
    assert!(run_limit(looping, &ins, steps_9 as u64).is_ok());
    match run_limit(looping, &ins, steps_9 as u64 - 1) {
        Err(EngineError::StepLimit { invocation, .. }) => assert_eq!(invocation, 3),
        other => panic!("want StepLimit, got {other:?}"),
    }
}

/// Unsupported opcodes are reported before anything runs (the endless loop before the TXP
/// on a CUBEARRAY, outside the texture model, never starts), naming the opcode and its
/// line.
#[test]
fn unsupported_is_reported_before_running() {
    let text = "FRAG
DCL IN[0], GENERIC[0], LINEAR
DCL OUT[0], COLOR
DCL SAMP[0]
DCL SVIEW[0], CUBEARRAY, FLOAT
BGNLOOP
ENDLOOP
TXP OUT[0], IN[0], SAMP[0], CUBEARRAY
END
";
    let p = parse(text);
    let e = JitEngine::new(&EngineConfig::default());
    let t = Instant::now();
    match e.execute(&p, &inputs(4, &[])) {
        Err(EngineError::Unsupported { opcode, pos, .. }) => {
            assert_eq!(opcode, Some(shaderdiff_model::Opcode::TXP));
            assert_eq!(pos.map(|p| p.line), Some(8));
        }
        other => panic!("want Unsupported, got {other:?}"),
    }
    assert!(e.check(&p).is_err_and(|e| e.is_unsupported()));
    assert!(t.elapsed() < Duration::from_secs(5));
}

/// Inputs that do not fit the program: the oracle's messages, exit status 2.
#[test]
fn invalid_inputs_as_the_oracle() {
    let frag = "FRAG\nDCL IN[0], GENERIC[0], LINEAR\nDCL OUT[0], COLOR\nEND\n";
    for ins in [
        inputs(3, &[]),
        inputs(4, &[(input(5), vec![[0; 4]])]),
        inputs(4, &[(out(0), vec![[0; 4]])]),
        inputs(4, &[(input(0), vec![[0; 4]; 2])]),
    ] {
        match run_limit(frag, &ins, 1000) {
            Err(e @ EngineError::InvalidInputs(_)) => assert_eq!(e.exit_code(), 2),
            other => panic!("want InvalidInputs, got {other:?}"),
        }
    }
}

/// Zero invocations: nothing runs, every output register is reported empty.
#[test]
fn zero_invocations() {
    let o = run("VERT\nDCL OUT[0]\nEND\n", &inputs(0, &[]));
    assert_eq!(o.invocations, 0);
    assert_eq!(o.registers[&out(0)], Vec::<[u32; 4]>::new());
}

/// A prepared program runs many times and from several threads at once.
#[test]
fn compiled_code_is_reusable_and_shareable() {
    let text = "VERT\nDCL IN[0]\nDCL OUT[0]\nADD OUT[0], IN[0], IN[0]\nEND\n";
    let e = JitEngine::new(&EngineConfig::default());
    let c = e.prepare(&parse(text)).unwrap();
    std::thread::scope(|s| {
        for t in 0..4u32 {
            let (e, c) = (&e, &c);
            s.spawn(move || {
                for k in 0..50u32 {
                    let x = (t * 100 + k) as f32;
                    let ins = inputs(5, &[(input(0), vec![fv([x; 4])])]);
                    let o = e.run(c.as_ref(), &ins).unwrap();
                    assert_eq!(o.registers[&out(0)], vec![fv([2.0 * x; 4]); 5]);
                }
            });
        }
    });
}

/// Deeply nested control flow lowers (250 nested IFs) and beyond the jit's nesting limit is
/// unsupported, never a crash.
#[test]
fn deep_nesting_lowers_or_is_unsupported() {
    let nest = |depth: usize| {
        let mut t = String::from("VERT\nDCL IN[0]\nDCL OUT[0]\n");
        t.push_str(&"IF IN[0].xxxx\n".repeat(depth));
        t.push_str("MOV OUT[0], IN[0]\n");
        t.push_str(&"ENDIF\n".repeat(depth));
        t.push_str("END\n");
        t
    };
    let ins = inputs(
        2,
        &[(input(0), vec![fv([1.0, 2.0, 3.0, 4.0]), fv([0.0; 4])])],
    );
    let o = run(&nest(250), &ins.clone());
    expect(&o, out(0), 0xF, &[fv([1.0, 2.0, 3.0, 4.0]), fv([0.0; 4])]);
    let e = JitEngine::new(&EngineConfig::default());
    match e.execute(&parse(&nest(300)), &ins) {
        Err(err @ EngineError::Unsupported { .. }) => assert_eq!(err.exit_code(), 3),
        other => panic!("want Unsupported, got {other:?}"),
    }
}

/// Subroutines that each call the next one twice would inline to 2^24 bodies: the jit
/// stops at its size limit and answers Unsupported, quickly.
#[test]
fn exponential_inlining_is_unsupported() {
    let mut t = String::from("VERT\nDCL OUT[0]\nIMM[0] FLT32 { 1.0, 0.0, 0.0, 0.0 }\n");
    let subs = 24;
    // main: CAL sub0; END. sub k at 2 + 4k: BGNSUB, CAL k+1, CAL k+1, ENDSUB.
    t.push_str("  0: CAL :2\n  1: END\n");
    for k in 0..subs {
        let at = 2 + 4 * k;
        if k + 1 < subs {
            let next = at + 4;
            t.push_str(&format!(
                "{at}: BGNSUB\n{}: CAL :{next}\n{}: CAL :{next}\n{}: ENDSUB\n",
                at + 1,
                at + 2,
                at + 3
            ));
        } else {
            t.push_str(&format!(
                "{at}: BGNSUB\n{}: ADD OUT[0], OUT[0], IMM[0]\n{}: NOP\n{}: ENDSUB\n",
                at + 1,
                at + 2,
                at + 3
            ));
        }
    }
    let e = JitEngine::new(&EngineConfig::default());
    let t0 = Instant::now();
    match e.execute(&parse(&t), &inputs(4, &[])) {
        Err(EngineError::Unsupported { reason, .. }) => assert!(reason.contains("too large")),
        other => panic!("want Unsupported, got {other:?}"),
    }
    assert!(t0.elapsed() < Duration::from_secs(10));
}

/// A part no invocation of a quad enters costs nothing and changes nothing, even when it
/// holds a loop, BRK and arithmetic (the jit runs such parts under their empty mask without
/// a branch). Counting rule as above: an invocation that skips the UIF executes
/// `MOV UIF MOV END` (4 steps, TEMP[0].x stays 7); one that enters it executes
/// `MOV UIF MOV BGNLOOP UADD BRK ENDIF MOV END` (9 steps, ENDLOOP is not reached by a lane
/// parked by BRK; TEMP[0].x = 5 + 1).
#[test]
fn parts_no_invocation_enters_cost_nothing() {
    let text = "VERT
DCL IN[0]
DCL OUT[0]
DCL TEMP[0]
IMM[0] INT32 { 0, 7, 5, 1 }
MOV TEMP[0].x, IMM[0].yyyy
UIF IN[0].xxxx
  MOV TEMP[0].x, IMM[0].zzzz
  BGNLOOP
    UADD TEMP[0].x, TEMP[0].xxxx, IMM[0].wwww
    BRK
  ENDLOOP
ENDIF
MOV OUT[0], TEMP[0]
END
";
    let t = |x: u32| [x, 0, 0, 0];
    // Invocation 1 enters the part; the second quad (invocations 4-7) enters nothing.
    let taken = inputs(8, &[(input(0), [0, 1, 0, 0, 0, 0, 0, 0].map(t).to_vec())]);
    let outs = run_limit(text, &taken, 9).expect("9 steps suffice");
    assert_eq!(xs(&outs, out(0)), [7, 6, 7, 7, 7, 7, 7, 7]);
    match run_limit(text, &taken, 8) {
        Err(EngineError::StepLimit { invocation, .. }) => assert_eq!(invocation, 1),
        other => panic!("want StepLimit, got {other:?}"),
    }
    let none = inputs(8, &[(input(0), vec![t(0); 8])]);
    let outs = run_limit(text, &none, 4).expect("4 steps suffice");
    assert_eq!(xs(&outs, out(0)), [7; 8]);
    assert!(matches!(
        run_limit(text, &none, 3),
        Err(EngineError::StepLimit { invocation: 0, .. })
    ));
}
