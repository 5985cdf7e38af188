//! Denormal outcome sets (`interp::denormal`): the IEEE evaluation and the flushed one,
//! expected values worked from the specifications:
//! * NV_gpu_program4 issue (18): denorms "may be flushed to zero, preserving the sign bit";
//! * tgsi.rst CMP `src0 < 0.0 ? src1 : src2`, SSG `(src > 0) ? 1 : (src < 0) ? -1 : 0`,
//!   MUL `src0 * src1`, FRC `src - floor(src)`, each on the (flushed) operand.

use shaderdiff_compare::output::{compare, CompareOptions};
use shaderdiff_model::{File, Program};
use shaderdiff_oracles::interp::denormal::{run_denormals, DenormalMode};
use shaderdiff_oracles::interp::{AtomicOrder, InterpConfig};
use shaderdiff_oracles::precision::PrecisionContract;
use shaderdiff_oracles::{Inputs, Outputs, RegKey, Vec4};

fn parse(text: &str) -> Program {
    shaderdiff_tgsi::parse(text, "test.tgsi").unwrap_or_else(|e| panic!("{e}"))
}

fn input(v: Vec4) -> Inputs {
    let mut i = Inputs {
        invocations: 1,
        ..Inputs::default()
    };
    i.registers.insert(RegKey::new(File::Input, 0), vec![v]);
    i
}

fn eval(p: &Program, i: &Inputs, class: &str, mode: DenormalMode) -> Outputs {
    let c = PrecisionContract::builtin();
    let class = c.class(class).expect("class");
    run_denormals(
        p,
        i,
        &InterpConfig::default(),
        (c, class),
        mode,
        AtomicOrder::Own,
    )
    .expect("runs")
}

fn out0(o: &Outputs) -> Vec4 {
    o.registers[&RegKey::new(File::Output, 0)][0]
}

/// Channels of `OUT[0]` where `actual` is outside `oracle`'s sets.
fn rejected(p: &Program, oracle: &Outputs, actual: Vec4) -> Vec<String> {
    let mut a = Outputs {
        invocations: 1,
        ..Outputs::default()
    };
    a.registers
        .insert(RegKey::new(File::Output, 0), vec![actual]);
    let c = PrecisionContract::builtin();
    let r = compare(p, oracle, "nvidia", &a, c, &CompareOptions::default()).expect("compares");
    r.mismatches.into_iter().map(|m| m.channel).collect()
}

const DECISIONS: &str = "VERT\nDCL IN[0]\nDCL OUT[0]\n\
    IMM[0] UINT32 {1065353216, 1073741824, 1904214016, 0}\n\
    0: CMP OUT[0].x, IN[0].xxxx, IMM[0].xxxx, IMM[0].yyyy\n\
    1: SSG OUT[0].y, IN[0].xxxx\n\
    2: MUL OUT[0].z, IN[0].xxxx, IMM[0].zzzz\n\
    3: FRC OUT[0].w, IN[0].xxxx\n\
    4: END\n";

/// -2^-140: a negative denormal (mantissa 0x200).
const NEG_DENORMAL: u32 = 0x8000_0200;

/// IEEE: -2^-140 < 0 so CMP gives 1.0; SSG -1.0; MUL -2^-140 * 2^100 = -2^-40; FRC
/// -2^-140 - floor(-2^-140) = 1 - 2^-140, which rounds to 1.0.
const IEEE: Vec4 = [0x3f80_0000, 0xbf80_0000, 0xab80_0000, 0x3f80_0000];
/// Flushed: the operand reads as -0: -0 < 0 is false so CMP gives 2.0; SSG 0.0; MUL
/// -0 * 2^100 = -0; FRC -0 - floor(-0) = -0 - -0 = +0.
const FLUSHED: Vec4 = [0x4000_0000, 0x0000_0000, 0x8000_0000, 0x0000_0000];

#[test]
fn the_flushed_operand_flows_through_decisions() {
    let p = parse(DECISIONS);
    let i = input([NEG_DENORMAL; 4]);
    assert_eq!(out0(&eval(&p, &i, "nvidia", DenormalMode::Ieee)), IEEE);
    assert_eq!(out0(&eval(&p, &i, "nvidia", DenormalMode::Flush)), FLUSHED);
}

#[test]
fn either_admits_both_evaluations_and_rejects_a_third_value() {
    let p = parse(DECISIONS);
    let o = eval(
        &p,
        &input([NEG_DENORMAL; 4]),
        "nvidia",
        DenormalMode::Either,
    );
    let alt = o
        .denormal_alternative
        .as_deref()
        .expect("the flushed evaluation differs");
    assert_eq!(out0(&o), IEEE);
    assert_eq!(out0(alt), FLUSHED);
    assert!(rejected(&p, &o, IEEE).is_empty());
    assert!(rejected(&p, alt, FLUSHED).is_empty());
    // 3.0 from CMP is neither operand: rejected by both evaluations.
    let third = [0x4040_0000, IEEE[1], IEEE[2], IEEE[3]];
    assert_eq!(rejected(&p, &o, third), ["x"]);
    assert_eq!(rejected(&p, alt, third), ["x", "y", "z", "w"]);
}

#[test]
fn without_a_denormal_there_is_one_evaluation() {
    let p = parse(DECISIONS);
    let o = eval(&p, &input([0xbf80_0000; 4]), "nvidia", DenormalMode::Either);
    assert!(o.denormal_alternative.is_none());
}

/// The documented miss (docs/denormals.md): an engine flushing at one instruction and not
/// at another. d = 2^-128 (0x00200000); a = d * 2^24 and b = d * 2^24 are 2^-104 each.
/// IEEE: a + b = 2^-103 (0x0c000000); flushed: 0 + 0 = 0; flushed in the second MUL only:
/// 2^-104 (0x0b800000), which the two whole evaluations reject and the per-instruction
/// sets of a `flush_allowed` class (gpu) accept.
#[test]
fn flushing_that_differs_per_instruction_is_outside_the_union() {
    let p = parse(
        "VERT\nDCL IN[0]\nDCL OUT[0]\nDCL TEMP[0..1]\n\
         IMM[0] UINT32 {1266679808, 0, 0, 0}\n\
         0: MUL TEMP[0].x, IN[0].xxxx, IMM[0].xxxx\n\
         1: MUL TEMP[1].x, IN[0].xxxx, IMM[0].xxxx\n\
         2: ADD OUT[0].x, TEMP[0].xxxx, TEMP[1].xxxx\n\
         3: END\n",
    );
    let i = input([0x0020_0000, 0, 0, 0]);
    let o = eval(&p, &i, "nvidia", DenormalMode::Either);
    let alt = o.denormal_alternative.as_deref().expect("differs");
    assert_eq!(out0(&o)[0], 0x0c00_0000);
    assert_eq!(out0(alt)[0], 0);
    let mixed = [0x0b80_0000, 0, 0, 0];
    assert_eq!(rejected(&p, &o, mixed), ["x"]);
    assert_eq!(rejected(&p, alt, mixed), ["x"]);
    let gpu = eval(&p, &i, "gpu", DenormalMode::Either);
    let mut a = Outputs {
        invocations: 1,
        ..Outputs::default()
    };
    a.registers
        .insert(RegKey::new(File::Output, 0), vec![mixed]);
    let c = PrecisionContract::builtin();
    let r = compare(&p, &gpu, "valhall", &a, c, &CompareOptions::default()).expect("compares");
    assert!(r.agrees(), "{:?}", r.mismatches);
}
