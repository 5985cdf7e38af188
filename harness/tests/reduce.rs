//! Reduction: library-level with a mock engine that miscompiles one opcode, and the
//! `shaderdiff reduce` command with the jit's catalogued fault.
//!
//! The mock computes IMAX as IMIN (tgsi.rst "IMAX — Maximum of Signed Integers": dst =
//! max(src0, src1); IMIN: min), so it diverges exactly where an executed IMAX sees two
//! different operands. The reduction must keep the signature (engine `jit` — the mock
//! carries the jit's name to get its precision class —, class `int_minmax`, type `i32`:
//! IMAX's destination type in opcodes.csv is `int`) and shrink the program to at most 4
//! instructions besides END and declarations.

use std::path::PathBuf;
use std::process::{Command, Output};

use shaderdiff::diff::Differ;
use shaderdiff::reduce::{reduce, size, stamped_text, ReduceError, ReduceOptions};
use shaderdiff_backends::{
    self as backends, Capabilities, Compiled, Engine, EngineConfig, EngineError, Inputs, Outputs,
};
use shaderdiff_generators::random::{generate, RandomConfig};
use shaderdiff_model::{Opcode, Program};
use shaderdiff_oracles::precision::NanPolicy;
use shaderdiff_tgsi as tgsi;

/// The interpreter with IMAX miscompiled as IMIN.
struct ImaxIsImin(Box<dyn Engine>);

impl Engine for ImaxIsImin {
    fn name(&self) -> &'static str {
        "jit"
    }
    fn capabilities(&self) -> &Capabilities {
        self.0.capabilities()
    }
    fn prepare(&self, p: &Program) -> Result<Box<dyn Compiled>, EngineError> {
        let mut q = p.clone();
        for i in &mut q.instructions {
            if i.opcode == Opcode::IMAX {
                i.opcode = Opcode::IMIN;
            }
        }
        self.0.prepare(&q)
    }
    fn run(&self, c: &dyn Compiled, inputs: &Inputs) -> Result<Outputs, EngineError> {
        self.0.run(c, inputs)
    }
}

fn mock_differ() -> Differ {
    let config = EngineConfig {
        step_limit: 20_000,
        ..EngineConfig::default()
    };
    let interp = backends::engine("interp", &config).unwrap();
    Differ::new(vec![Box::new(ImaxIsImin(interp))], 20_000, NanPolicy::Any).unwrap()
}

/// A program with loops, branches, a subroutine and unrelated arithmetic around one IMAX
/// whose result reaches OUT[0] only through a loop and a branch.
const PROGRAM: &str = "VERT
DCL IN[0]
DCL IN[1]
DCL OUT[0], GENERIC[0]
DCL OUT[1], GENERIC[1]
DCL TEMP[0..5]
IMM[0] INT32 {0, 1, 2, 3}
IMM[1] FLT32 {0.5, 1.0, -1.0, 2.0}
  0: MUL TEMP[0], IN[0], IMM[1].yyyy
  1: ADD TEMP[1], TEMP[0], IMM[1].xxxx
  2: MOV TEMP[2].x, IMM[0].xxxx
  3: BGNLOOP
  4:   UADD TEMP[2].x, TEMP[2].xxxx, IMM[0].yyyy
  5:   USLT TEMP[2].y, IMM[0].zzzz, TEMP[2].xxxx
  6:   UIF TEMP[2].yyyy
  7:     BRK
  8:   ENDIF
  9:   IMAX TEMP[3], IN[1], IN[0].yxwz
 10:   ADD TEMP[4], TEMP[4], TEMP[1]
 11: ENDLOOP
 12: CAL :20
 13: UIF TEMP[2].xxxx
 14:   UADD TEMP[5], TEMP[3], IMM[0].yyyy
 15: ELSE
 16:   MOV TEMP[5], IMM[0]
 17: ENDIF
 18: MOV OUT[0], TEMP[5]
 19: END
 20: BGNSUB
 21:   MAD OUT[1], TEMP[4], IMM[1].wwww, TEMP[0]
 22:   RET
 23: ENDSUB
";

fn inputs(p: &Program) -> Inputs {
    // IN[0] = (1, 2, 3, 4), IN[1] = (7, -5, 0, 9) as integers in invocation 0, zero in 1:
    // IMAX(IN[1], IN[0].yxwz) differs from IMIN on every channel of invocation 0.
    let text = r#"{"invocations": 2, "registers": {
        "IN[0]": [["i:1", "i:2", "i:3", "i:4"], [0, 0, 0, 0]],
        "IN[1]": [["i:7", "i:-5", "i:0", "i:9"], [0, 0, 0, 0]]}}"#;
    shaderdiff::inputs::load(text, "inputs.json", p, None).unwrap()
}

#[test]
fn a_miscompiled_opcode_reduces_to_itself_with_the_same_signature() {
    let differ = mock_differ();
    let p = tgsi::parse(PROGRAM, "prog.tgsi").unwrap();
    let i = inputs(&p);
    let r = reduce(&differ, 0, &p, &i, None, &ReduceOptions::default()).unwrap();
    assert_eq!(r.divergence.signature.to_string(), "jit-int_minmax-i32");
    assert!(r.complete);
    assert!(size(&r.program) <= 4, "{}", tgsi::print(&r.program));
    assert!(size(&r.program) < size(&p));
    assert!(r
        .program
        .instructions
        .iter()
        .any(|x| x.opcode == Opcode::IMAX));
    assert_eq!(r.inputs.invocations, 1, "one invocation shows it");
    // The reduced program and inputs replay the divergence on their own.
    let text = stamped_text(&r, "prog.tgsi");
    assert!(text.starts_with("# shaderdiff-reduce "), "{text}");
    let again = tgsi::parse(&text, "reduced.tgsi").unwrap();
    assert_eq!(again, r.program, "lossless text");
    let d = differ.diff(&again, &r.inputs);
    assert!(d.diverged());
    // Reduction is deterministic.
    let r2 = reduce(&differ, 0, &p, &i, None, &ReduceOptions::default()).unwrap();
    assert_eq!(r2.program, r.program);
    assert_eq!(r2.inputs, r.inputs);
}

#[test]
fn a_program_that_agrees_or_shows_another_signature_is_not_reduced() {
    let differ = mock_differ();
    let p = tgsi::parse(PROGRAM, "prog.tgsi").unwrap();
    let zero = shaderdiff::inputs::defaults(&p, None).unwrap();
    // All-zero inputs: IMAX(0, 0) = IMIN(0, 0).
    assert!(matches!(
        reduce(&differ, 0, &p, &zero, None, &ReduceOptions::default()),
        Err(ReduceError::NoDivergence(_))
    ));
    let other = "jit-float_arith-f32".parse().unwrap();
    assert!(matches!(
        reduce(
            &differ,
            0,
            &p,
            &inputs(&p),
            Some(&other),
            &ReduceOptions::default()
        ),
        Err(ReduceError::OtherSignature { .. })
    ));
}

#[test]
fn generated_programs_with_the_fault_reduce_small() {
    let differ = mock_differ();
    let cfg = RandomConfig::default();
    let mut reduced = 0;
    for index in 0..400 {
        let g = generate(7, index, &cfg);
        let d = differ.diff(&g.program, &g.inputs);
        if !d.diverged() {
            continue;
        }
        let r = reduce(
            &differ,
            0,
            &g.program,
            &g.inputs,
            None,
            &ReduceOptions::default(),
        )
        .unwrap();
        assert!(
            size(&r.program) <= 4,
            "seed 7 index {index}: {} -> {}\n{}",
            size(&g.program),
            size(&r.program),
            tgsi::print(&r.program)
        );
        assert!(differ.diff(&r.program, &r.inputs).diverged());
        reduced += 1;
        if reduced == 5 {
            break;
        }
    }
    assert!(
        reduced >= 3,
        "only {reduced} generated programs showed the fault"
    );
}

const BIN: &str = env!("CARGO_BIN_EXE_shaderdiff");

fn run(args: &[&str]) -> Output {
    Command::new(BIN)
        .args(args)
        .output()
        .expect("the shaderdiff binary starts")
}

#[test]
fn the_reduce_command_writes_a_replayable_reproducer() {
    let dir = std::env::temp_dir().join(format!("shaderdiff-reducetest-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let path = |n: &str| dir.join(n).display().to_string();
    // DP3 feeding more arithmetic; the fault dp3-reads-w adds the .w products.
    std::fs::write(
        path("p.tgsi"),
        "VERT\nDCL IN[0]\nDCL IN[1]\nDCL OUT[0], GENERIC[0]\nDCL TEMP[0..1]\n\
         IMM[0] FLT32 {1.0, 2.0, 3.0, 4.0}\n  0: MUL TEMP[0], IN[0], IMM[0]\n\
           1: DP3 TEMP[1].x, TEMP[0], IN[1]\n  2: ADD TEMP[1].y, TEMP[1].xxxx, IMM[0].yyyy\n\
           3: MOV OUT[0], TEMP[1]\n  4: END\n",
    )
    .unwrap();
    let common = ["--backends", "interp,jit", "--inject-fault", "dp3-reads-w"];
    let prog = path("p.tgsi");
    let mut args = vec!["reduce", &prog[..], "--random-inputs", "4"];
    let out = path("r.tgsi");
    args.extend(["--out", &out]);
    args.extend(common);
    let o = run(&args);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let msg = String::from_utf8_lossy(&o.stderr);
    assert!(msg.contains("signature jit-float_arith-f32"), "{msg}");
    let text = std::fs::read_to_string(&out).unwrap();
    let p = tgsi::parse(&text, "r.tgsi").unwrap();
    assert!(size(&p) <= 4, "{text}");
    assert!(std::path::Path::new(&path("r.inputs.json")).is_file());
    // `diff` picks up r.inputs.json by itself and replays the mismatch.
    let mut d = vec!["diff", &out[..]];
    d.extend(common);
    assert_eq!(run(&d).status.code(), Some(1));
    // Without the fault there is nothing to reduce (bad input, exit 2).
    let o = run(&[
        "reduce",
        &path("p.tgsi"),
        "--backends",
        "interp,jit",
        "--random-inputs",
        "4",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("nothing to reduce"));
    let _ = std::fs::remove_dir_all(PathBuf::from(&dir));
}
