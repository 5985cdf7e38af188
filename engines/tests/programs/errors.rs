//! The error contract of the `Engine` trait (engines/engine/src/lib.rs), on every engine:
//! runaway loops stop with `StepLimit` (the configured limit, naming the first invocation
//! over it), unbounded recursion with `CallDepth`, programs the engine does not implement
//! are `Unsupported` before anything runs, and inputs that do not fit the program are
//! `InvalidInputs` (INTERFACE.md: fragment programs run whole quads; inputs name declared
//! input registers).

use rstest::rstest;
use shaderdiff_backends::{EngineConfig, EngineError, Inputs};
use shaderdiff_model::RegKey;
use shaderdiff_model::{File, Opcode};

use crate::support::programs::*;
use crate::support::{engines_with, parse, Report};

/// What the error must be.
#[derive(Debug)]
enum Want {
    StepLimit { limit: u64, invocation: usize },
    CallDepth,
    Unsupported { opcode: Opcode, line: u32 },
    InvalidInputs,
}

fn matches(err: &EngineError, want: &Want) -> bool {
    match (err, want) {
        (
            EngineError::StepLimit { limit, invocation },
            Want::StepLimit {
                limit: l,
                invocation: i,
            },
        ) => limit == l && invocation == i,
        (EngineError::CallDepth { .. }, Want::CallDepth) => true,
        (EngineError::Unsupported { opcode, pos, .. }, Want::Unsupported { opcode: o, line }) => {
            *opcode == Some(*o) && pos.map(|p| p.line) == Some(*line)
        }
        (EngineError::InvalidInputs(_), Want::InvalidInputs) => true,
        _ => false,
    }
}

const ENDLESS: &str = "VERT\nBGNLOOP\nENDLOOP\nEND\n";

/// Only invocation 2 never breaks.
const ONE_LOOPS: &str = "VERT
DCL IN[0]
BGNLOOP
  UIF IN[0].xxxx
    BRK
  ENDIF
ENDLOOP
END
";

const RECURSION: &str = "VERT\n  0: CAL :2\n  1: END\n  2: BGNSUB\n  3:   CAL :2\n  4: ENDSUB\n";

/// The endless loop before the TXP of a CUBEARRAY texture (line 8; TXP on cube map arrays
/// is outside the texture model) never runs.
const TEX_AFTER_LOOP: &str = "FRAG
DCL IN[0], GENERIC[0], LINEAR
DCL OUT[0], COLOR
DCL SAMP[0]
DCL SVIEW[0], CUBEARRAY, FLOAT
BGNLOOP
ENDLOOP
TXP OUT[0], IN[0], SAMP[0], CUBEARRAY
END
";

const FRAG: &str = "FRAG\nDCL IN[0], GENERIC[0], LINEAR\nDCL OUT[0], COLOR\nEND\n";

fn none(n: usize) -> Inputs {
    inputs(n, &[])
}

/// Four invocations and a value for `CONST[0]`, which the program does not declare.
fn undeclared_constant() -> Inputs {
    let mut i = none(4);
    i.constants.insert(RegKey::new(File::Const, 0), [0; 4]);
    i
}

#[rstest]
#[case::endless_loop(ENDLESS, none(4), 5_000, Want::StepLimit { limit: 5_000, invocation: 0 })]
#[case::one_invocation_loops(
    ONE_LOOPS,
    inputs(4, &[(input(0), vec![[1; 4], [1; 4], [0; 4], [1; 4]])]),
    1_000,
    Want::StepLimit { limit: 1_000, invocation: 2 }
)]
#[case::recursion(RECURSION, none(1), 1_000_000, Want::CallDepth)]
#[case::unsupported_before_running(
    TEX_AFTER_LOOP,
    none(4),
    1_000_000,
    Want::Unsupported { opcode: Opcode::TXP, line: 8 }
)]
#[case::fragment_not_whole_quads(FRAG, none(3), 1_000_000, Want::InvalidInputs)]
#[case::undeclared_input(FRAG, inputs(4, &[(input(5), vec![[0; 4]])]), 1_000_000, Want::InvalidInputs)]
#[case::output_as_input(FRAG, inputs(4, &[(out(0), vec![[0; 4]])]), 1_000_000, Want::InvalidInputs)]
#[case::undeclared_constant(FRAG, undeclared_constant(), 1_000_000, Want::InvalidInputs)]
#[case::wrong_vec4_count(FRAG, inputs(4, &[(input(0), vec![[0; 4]; 2])]), 1_000_000, Want::InvalidInputs)]
fn engine_errors(
    #[case] text: &str,
    #[case] ins: Inputs,
    #[case] step_limit: u64,
    #[case] want: Want,
) {
    let program = parse(text);
    let mut report = Report::default();
    for e in engines_with(&EngineConfig {
        step_limit,
        ..EngineConfig::default()
    }) {
        let name = e.name();
        report.checked += 1;
        match e.execute(&program, &ins) {
            Err(err) if matches(&err, &want) => {}
            Err(err @ EngineError::Unsupported { .. }) => {
                report.engine_error(name, &err, &[], &format!("want {want:?}"))
            }
            other => report.fail(format!("[{name}] got {other:?}, want {want:?}")),
        }
    }
    report.finish();
}
