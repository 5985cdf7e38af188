//! The jit's fault catalogue (`shaderdiff faults`, `--inject-fault NAME`): every fault
//! changes exactly the result it describes, and only when switched on.
//!
//! Each case is a program of one or two instructions with the value the specification
//! gives (cited per case: tgsi.rst, EXEC-NOTES.md) and the value the described
//! miscompilation gives, worked out by hand from the fault's one-line description. The jit
//! must give the first without a fault (and with an unknown fault name) and the second
//! with the fault on.

use shaderdiff_cranelift::faults::{Fault, CATALOGUE};
use shaderdiff_cranelift::JitEngine;
use shaderdiff_engine::{Engine, EngineConfig, Inputs, Outputs};
use shaderdiff_model::File;
use shaderdiff_model::{RegKey, Vec4};

#[path = "faults_cases/more.rs"]
mod more;

/// One fault's demonstration.
/// `(stream, primitive)` of each emitted vertex.
type Emitted = Vec<(u32, u32)>;

struct Case {
    fault: &'static str,
    program: &'static str,
    /// Per-invocation `IN[0]` values (empty: one invocation, no inputs).
    input: Vec<Vec4>,
    /// `OUT[0]` per invocation without the fault (the specification's value).
    correct: Vec<Vec4>,
    /// `OUT[0]` per invocation with the fault on.
    faulty: Vec<Vec4>,
    /// Killed flags without / with the fault (fragment programs).
    killed: Option<(Vec<bool>, Vec<bool>)>,
    /// Emitted vertices `(stream, primitive)` of invocation 0 without / with the fault
    /// (geometry programs).
    emitted: Option<(Emitted, Emitted)>,
}

fn f(v: [f32; 4]) -> Vec4 {
    v.map(f32::to_bits)
}

fn i(v: [i32; 4]) -> Vec4 {
    v.map(|x| x as u32)
}

const NAN: u32 = 0x7fc0_0000;
const NEG_NAN: u32 = 0xffc0_0000;

fn cases() -> Vec<Case> {
    let mut all = base_cases();
    all.extend(more::cases());
    all
}

fn base_cases() -> Vec<Case> {
    let one = |program, correct: Vec4, faulty: Vec4| Case {
        fault: "",
        program,
        input: vec![],
        correct: vec![correct],
        faulty: vec![faulty],
        killed: None,
        emitted: None,
    };
    let with = |fault, c: Case| Case { fault, ..c };
    vec![
        // tgsi.rst DP3: src0.x*src1.x + src0.y*src1.y + src0.z*src1.z = 1 + 2 + 3.
        with(
            "dp3-reads-w",
            one(
                "VERT\nDCL OUT[0]\nIMM[0] FLT32 {1.0, 2.0, 3.0, 4.0}\nIMM[1] FLT32 {1.0, 1.0, 1.0, 1.0}\n\
                 DP3 OUT[0], IMM[0], IMM[1]\nEND\n",
                f([6.0; 4]),
                f([10.0; 4]),
            ),
        ),
        // tgsi.rst "Source Modifiers"/swizzles: `.xyzx` reads x, y, z, x.
        with(
            "swizzle-swap",
            one(
                "VERT\nDCL OUT[0]\nIMM[0] FLT32 {1.0, 2.0, 3.0, 4.0}\nIMM[1] FLT32 {0.0, 0.0, 0.0, 0.0}\n\
                 ADD OUT[0], IMM[0].xyzx, IMM[1]\nEND\n",
                f([1.0, 2.0, 3.0, 1.0]),
                f([1.0, 3.0, 2.0, 1.0]),
            ),
        ),
        // tgsi.rst: the writemask selects the channels written; `.xyw` leaves z alone.
        with(
            "writemask-ignored-w",
            one(
                "VERT\nDCL OUT[0]\nIMM[0] FLT32 {1.0, 2.0, 3.0, 4.0}\nIMM[1] FLT32 {9.0, 9.0, 9.0, 9.0}\n\
                 MOV OUT[0], IMM[1]\nADD OUT[0].xyw, IMM[0], IMM[0]\nEND\n",
                f([2.0, 4.0, 9.0, 8.0]),
                f([2.0, 4.0, 9.0, 9.0]),
            ),
        ),
        // EXEC-NOTES.md §2: `_SAT` of NaN is 0.0, negatives 0, > 1 gives 1.
        with(
            "sat-nan-passthrough",
            one(
                "VERT\nDCL OUT[0]\nIMM[0] FLT32 {nan, -1.0, 2.0, 0.5}\nMOV_SAT OUT[0], IMM[0]\nEND\n",
                f([0.0, 0.0, 1.0, 0.5]),
                [NAN, 0, 1.0f32.to_bits(), 0.5f32.to_bits()],
            ),
        ),
        // tgsi.rst CMP: src0 < 0 ? src1 : src2 (EXEC-NOTES.md: -0.0 selects src2).
        with(
            "cmp-swapped",
            one(
                "VERT\nDCL OUT[0]\nIMM[0] FLT32 {-1.0, 1.0, -0.0, -0.5}\n\
                 IMM[1] FLT32 {10.0, 10.0, 10.0, 10.0}\nIMM[2] FLT32 {20.0, 20.0, 20.0, 20.0}\n\
                 CMP OUT[0], IMM[0], IMM[1], IMM[2]\nEND\n",
                f([10.0, 20.0, 20.0, 10.0]),
                f([20.0, 10.0, 10.0, 20.0]),
            ),
        ),
        // tgsi.rst UCMP: src0 != 0 ? src1 : src2.
        with(
            "ucmp-swapped",
            one(
                "VERT\nDCL OUT[0]\nIMM[0] UINT32 {0, 1, 0, 5}\n\
                 IMM[1] UINT32 {10, 10, 10, 10}\nIMM[2] UINT32 {20, 20, 20, 20}\n\
                 UCMP OUT[0], IMM[0], IMM[1], IMM[2]\nEND\n",
                [20, 10, 20, 10],
                [10, 20, 10, 20],
            ),
        ),
        // tgsi.rst IBFE: the field (bits 4..7 of 0xF0 = 0b1111) is sign-extended.
        with(
            "ibfe-no-sign-extend",
            one(
                "VERT\nDCL OUT[0]\nIMM[0] INT32 {240, 112, 0, -1}\nIMM[1] INT32 {4, 4, 4, 0}\n\
                 IMM[2] INT32 {4, 4, 4, 32}\nIBFE OUT[0], IMM[0], IMM[1], IMM[2]\nEND\n",
                i([-1, 7, 0, -1]),
                i([15, 7, 0, -1]),
            ),
        ),
        // tgsi.rst SHL: the count is masked with 0x1f (32 → 0, 33 → 1).
        with(
            "shift-count-unmasked",
            one(
                "VERT\nDCL OUT[0]\nIMM[0] INT32 {1, 1, 1, 1}\nIMM[1] INT32 {0, 31, 32, 33}\n\
                 SHL OUT[0], IMM[0], IMM[1]\nEND\n",
                i([1, i32::MIN, 1, 2]),
                i([1, i32::MIN, 0, 0]),
            ),
        ),
        // tgsi.rst ISHR: arithmetic shift by count & 0x1f (33 → 1, 32 → 0).
        with(
            "shift-count-unmasked",
            one(
                "VERT\nDCL OUT[0]\nIMM[0] INT32 {-8, -8, -8, 8}\nIMM[1] INT32 {1, 33, 32, 40}\n\
                 ISHR OUT[0], IMM[0], IMM[1]\nEND\n",
                i([-4, -4, -8, 0]),
                i([-4, -1, -1, 0]),
            ),
        ),
        // tgsi.rst F2I / EXEC-NOTES.md: truncation toward zero.
        with(
            "f2i-rounds",
            one(
                "VERT\nDCL OUT[0]\nIMM[0] FLT32 {2.5, -2.7, 1.5, 0.4}\nF2I OUT[0], IMM[0]\nEND\n",
                i([2, -2, 1, 0]),
                i([2, -3, 2, 0]),
            ),
        ),
        // tgsi.rst UMUL_HI: high 32 bits of the unsigned 64-bit product.
        // 0xffffffff*2 = 0x1_fffffffe; 2*3 = 6; 0x80000000*2 = 2^32; 3*0xffffffff = 0x2_fffffffd.
        // Signed: -2, 6, -2^32, -3 have high words -1, 0, -1, -1.
        with(
            "umul-hi-signed",
            one(
                "VERT\nDCL OUT[0]\nIMM[0] UINT32 {4294967295, 2, 2147483648, 3}\n\
                 IMM[1] UINT32 {2, 3, 2, 4294967295}\nUMUL_HI OUT[0], IMM[0], IMM[1]\nEND\n",
                [1, 0, 1, 2],
                [u32::MAX, 0, u32::MAX, u32::MAX],
            ),
        ),
        // EXEC-NOTES.md ROUND: ties to even: 0.5 → 0, 2.5 → 2, -2.5 → -2, 1.5 → 2.
        with(
            "round-half-away",
            one(
                "VERT\nDCL OUT[0]\nIMM[0] FLT32 {0.5, 2.5, -2.5, 1.5}\nROUND OUT[0], IMM[0]\nEND\n",
                f([0.0, 2.0, -2.0, 2.0]),
                f([1.0, 3.0, -3.0, 2.0]),
            ),
        ),
        // EXEC-NOTES.md MIN/MAX: a NaN operand is ignored; both NaN → NaN.
        with(
            "min-nan-propagates",
            one(
                "VERT\nDCL OUT[0]\nIMM[0] FLT32 {nan, 1.0, 3.0, nan}\nIMM[1] FLT32 {1.0, nan, 2.0, nan}\n\
                 MIN OUT[0], IMM[0], IMM[1]\nEND\n",
                [1.0f32.to_bits(), 1.0f32.to_bits(), 2.0f32.to_bits(), NAN],
                [NAN, NAN, 2.0f32.to_bits(), NAN],
            ),
        ),
        // tgsi.rst USGE: unsigned src0 >= src1 ? ~0 : 0.
        with(
            "usge-signed",
            one(
                "VERT\nDCL OUT[0]\nIMM[0] UINT32 {4294967295, 1, 5, 0}\n\
                 IMM[1] UINT32 {1, 4294967295, 5, 2147483648}\nUSGE OUT[0], IMM[0], IMM[1]\nEND\n",
                [u32::MAX, 0, u32::MAX, 0],
                [0, u32::MAX, u32::MAX, u32::MAX],
            ),
        ),
        // tgsi.rst I2F: signed integer to float.
        with(
            "i2f-unsigned",
            one(
                "VERT\nDCL OUT[0]\nIMM[0] INT32 {-1, 3, -2147483648, 0}\nI2F OUT[0], IMM[0]\nEND\n",
                f([-1.0, 3.0, -2_147_483_648.0, 0.0]),
                f([4_294_967_296.0, 3.0, 2_147_483_648.0, 0.0]),
            ),
        ),
        // EXEC-NOTES.md §1: `-x` on an integer source is two's-complement negation.
        with(
            "ineg-flips-sign-bit",
            one(
                "VERT\nDCL OUT[0]\nIMM[0] INT32 {5, 0, -3, 1}\nIMM[1] INT32 {0, 0, 0, 0}\n\
                 UADD OUT[0], -IMM[0], IMM[1]\nEND\n",
                i([-5, 0, 3, -1]),
                [0x8000_0005, 0x8000_0000, 0x7fff_fffd, 0x8000_0001],
            ),
        ),
        // tgsi.rst IF: true when src0.x != 0.0, which holds for NaN.
        with(
            "if-nan-false",
            one(
                "VERT\nDCL OUT[0]\nIMM[0] FLT32 {nan, 1.0, 2.0, 0.0}\n\
                 MOV OUT[0], IMM[0].zzzz\nIF IMM[0].xxxx\nMOV OUT[0], IMM[0].yyyy\nENDIF\nEND\n",
                f([1.0; 4]),
                f([2.0; 4]),
            ),
        ),
        // The IR shape of an NV conditional write mask (frontends/nv/src/lower_cc.rs: the
        // result in a temporary, moved whole into one component under a UIF): tgsi.rst UIF
        // is true when src0.x != 0; IMM[0].x = 1 writes OUT[0].x, IMM[0].y = 0 would not.
        // With nv-condmask-swap-xy the .x write tests .y: OUT[0].x keeps 2.0.
        with(
            "nv-condmask-swap-xy",
            one(
                "VERT\nDCL OUT[0]\nDCL TEMP[0]\nIMM[0] UINT32 {1, 0, 0, 0}\n\
                 IMM[1] FLT32 {1.0, 2.0, 0.0, 0.0}\nMOV OUT[0], IMM[1].yyyy\n\
                 MOV TEMP[0], IMM[1].xxxx\nUIF IMM[0].xxxx\nMOV OUT[0].x, TEMP[0]\nENDIF\nEND\n",
                f([1.0, 2.0, 2.0, 2.0]),
                f([2.0; 4]),
            ),
        ),
        // tgsi.rst KILL_IF: discard when some component < 0 (-0.0 and NaN are not < 0).
        Case {
            fault: "kill-if-sign-bit",
            program: "FRAG\nDCL IN[0], GENERIC[0], CONSTANT\nDCL OUT[0], COLOR\n\
                      IMM[0] FLT32 {1.0, 1.0, 1.0, 1.0}\nKILL_IF IN[0]\nMOV OUT[0], IMM[0]\nEND\n",
            input: vec![
                [0x8000_0000, 0, 0, 0],
                f([1.0, 0.0, 2.0, 0.0]),
                f([0.0, -1.0, 0.0, 0.0]),
                [0, NEG_NAN, 0, 0],
            ],
            correct: vec![f([1.0; 4]); 4],
            faulty: vec![f([1.0; 4]); 4],
            killed: Some((
                vec![false, false, true, false],
                vec![true, false, true, true],
            )),
            emitted: None,
        },
        // tgsi.rst EMIT/ENDPRIM: "into the specified vertex stream": stream 1, then (after
        // ENDPRIM of stream 1) stream 1's second primitive; with the operand ignored both
        // vertices go to stream 0.
        Case {
            fault: "emit-stream-zero",
            program: "GEOM\nPROPERTY GS_INPUT_PRIMITIVE POINTS\nPROPERTY GS_OUTPUT_PRIMITIVE POINTS\n\
                      PROPERTY GS_MAX_OUTPUT_VERTICES 4\nDCL OUT[0], GENERIC[0]\n\
                      IMM[0] INT32 {0, 1, 0, 0}\nMOV OUT[0], IMM[0].yyyy\nEMIT IMM[0].yyyy\n\
                      ENDPRIM IMM[0].yyyy\nEMIT IMM[0].yyyy\nEND\n",
            input: vec![],
            correct: vec![i([1; 4])],
            faulty: vec![i([1; 4])],
            killed: None,
            emitted: Some((vec![(1, 0), (1, 1)], vec![(0, 0), (0, 1)])),
        },
        // tgsi.rst ATOMIMAX: `resource[offset] = (dst_x > src_x ? dst_x : src_x)`, signed,
        // returning the old value. 0 against -1 keeps 0, so the second atomic returns 0;
        // compared as unsigned, -1 (0xffffffff) wins and the second returns it.
        with(
            "atomic-imax-unsigned",
            one(
                "COMP\nDCL BUFFER[0]\nDCL OUT[0]\nDCL TEMP[0]\n\
                 IMM[0] UINT32 {0, 4294967295, 2, 0}\n\
                 ATOMIMAX TEMP[0].x, BUFFER[0], IMM[0].xxxx, IMM[0].yyyy\n\
                 ATOMIMAX OUT[0].x, BUFFER[0], IMM[0].xxxx, IMM[0].zzzz\nEND\n",
                [0; 4],
                [u32::MAX, 0, 0, 0],
            ),
        ),
    ]
}

fn run(case: &Case, fault: Option<&str>) -> Outputs {
    let program = shaderdiff_tgsi::parse(case.program, "fault.tgsi")
        .unwrap_or_else(|e| panic!("{e}\n{}", case.program));
    let mut inputs = Inputs {
        invocations: case.input.len().max(1),
        ..Inputs::default()
    };
    if !case.input.is_empty() {
        inputs
            .registers
            .insert(RegKey::new(File::Input, 0), case.input.clone());
    }
    if case.program.contains("DCL BUFFER[0]") {
        // One zeroed dword for the memory cases (absent, the buffer would be empty).
        inputs
            .buffers
            .insert(RegKey::new(File::Buffer, 0), vec![0; 4]);
    }
    let engine = JitEngine::new(&EngineConfig {
        fault: fault.map(str::to_string),
        ..EngineConfig::default()
    });
    engine
        .execute(&program, &inputs)
        .unwrap_or_else(|e| panic!("{fault:?}: {e}\n{}", case.program))
}

/// Bit equality, any NaN matching any NaN (EXEC-NOTES.md: compare NaNs by class).
fn same(a: u32, b: u32) -> bool {
    a == b || (f32::from_bits(a).is_nan() && f32::from_bits(b).is_nan())
}

fn check(
    case: &Case,
    fault: Option<&str>,
    want: &[Vec4],
    killed: Option<&Vec<bool>>,
    emitted: Option<&Vec<(u32, u32)>>,
) {
    let o = run(case, fault);
    if let Some(want) = emitted {
        let got: Vec<(u32, u32)> = o.emits.as_ref().expect("geometry program")[0]
            .iter()
            .map(|r| (r.stream, r.primitive))
            .collect();
        assert_eq!(&got, want, "{} with fault {fault:?}", case.fault);
    }
    let got = &o.registers[&RegKey::new(File::Output, 0)];
    for (inv, (g, w)) in got.iter().zip(want).enumerate() {
        // INTERFACE.md: a killed invocation's registers are not part of any comparison.
        if killed.is_some_and(|k| k[inv]) {
            continue;
        }
        for c in 0..4 {
            assert!(
                same(g[c], w[c]),
                "{} with fault {fault:?}: invocation {inv} channel {c}: got {:#010x}, want {:#010x}\n{}",
                case.fault,
                g[c],
                w[c],
                case.program
            );
        }
    }
    if let Some(k) = killed {
        assert_eq!(
            o.killed.as_ref(),
            Some(k),
            "{} with fault {fault:?}",
            case.fault
        );
    }
}

#[test]
fn every_fault_changes_its_result_only_when_on() {
    for case in cases() {
        let (k_ok, k_bad) = match &case.killed {
            Some((a, b)) => (Some(a), Some(b)),
            None => (None, None),
        };
        let (e_ok, e_bad) = match &case.emitted {
            Some((a, b)) => (Some(a), Some(b)),
            None => (None, None),
        };
        check(&case, None, &case.correct, k_ok, e_ok);
        check(&case, Some("no-such-fault"), &case.correct, k_ok, e_ok);
        check(&case, Some(case.fault), &case.faulty, k_bad, e_bad);
    }
}

/// Faults of the NV front-end that only exist for programs lowered from NV assembly (they
/// re-lower the program's NV origin): shown on NV assembly in
/// harness/tests/nv_lower/faults.rs; a TGSI program is compiled unchanged (below).
const NV_ORIGIN_FAULTS: &[&str] = &["nv-cc-unsaturated"];

#[test]
fn nv_origin_faults_leave_tgsi_programs_alone() {
    for &fault in NV_ORIGIN_FAULTS {
        for case in cases() {
            let (k, e) = (
                case.killed.as_ref().map(|k| &k.0),
                case.emitted.as_ref().map(|e| &e.0),
            );
            check(&case, Some(fault), &case.correct, k, e);
        }
    }
}

/// Faults of NV-only constructs (a `.SSAT` clamp, the IR shape of an integer `.CC` update):
/// shown on NV assembly in harness/tests/nv_lower/faults_more.rs.
const NV_ONLY_FAULTS: &[&str] = &["nv-ssat-as-sat", "nv-cc-int-as-float"];

#[test]
fn every_catalogued_fault_has_a_case_and_is_listed_by_the_engine() {
    let covered: Vec<&str> = cases().iter().map(|c| c.fault).collect();
    for d in CATALOGUE {
        let shown = covered.contains(&d.name)
            || NV_ORIGIN_FAULTS.contains(&d.name)
            || NV_ONLY_FAULTS.contains(&d.name);
        assert!(shown, "no case for {}", d.name);
        assert!(Fault::from_name(d.name).is_some());
    }
    let engine = JitEngine::new(&EngineConfig::default());
    assert_eq!(engine.faults(), CATALOGUE);
    assert!(CATALOGUE.len() >= 12);
}
