//! The valhall faults of the encoder and of the 64-bit lowering (`valhall-fau-hi-as-lo`,
//! `valhall-neg-wrong-source`, `i2d-unsigned`, `dneg-as-sub-from-zero`,
//! `u64mul-drops-cross-product`): one instruction
//! each, the value the specification gives without the fault and the value the fault's
//! one-line description implies with it (worked by hand, cited per test).

use shaderdiff_engine::{Engine, EngineConfig, Inputs};
use shaderdiff_model::File;
use shaderdiff_model::RegKey;
use shaderdiff_valhall::engine::ValhallEngine;

/// Runs `VERT; DCL IN[0..1]; DCL CONST[0]; DCL OUT[0]; <line>; END` for one invocation
/// with IN[k] = `ins[k]` and CONST[0] = `konst`, the fault `fault` on; returns OUT[0].
fn run(line: &str, ins: [[u32; 4]; 2], konst: [u32; 4], fault: Option<&str>) -> [u32; 4] {
    let text = format!("VERT\nDCL IN[0]\nDCL IN[1]\nDCL CONST[0]\nDCL OUT[0]\n{line}\nEND\n");
    let p = shaderdiff_tgsi::parse(&text, "faults.tgsi").expect("parses");
    let mut inputs = Inputs {
        invocations: 1,
        ..Inputs::default()
    };
    for (k, v) in ins.iter().enumerate() {
        inputs
            .registers
            .insert(RegKey::new(File::Input, k as u32), vec![*v]);
    }
    inputs.constants.insert(RegKey::new(File::Const, 0), konst);
    let config = EngineConfig {
        fault: fault.map(str::to_string),
        ..EngineConfig::default()
    };
    let engine = ValhallEngine::new(&config);
    if let Some(f) = fault {
        assert!(
            engine.faults().iter().any(|d| d.name == f),
            "{f} is catalogued"
        );
    }
    let out = engine.execute(&p, &inputs).expect("runs");
    out.registers[&RegKey::new(File::Output, 0)][0]
}

fn f(v: [f32; 4]) -> [u32; 4] {
    v.map(f32::to_bits)
}

fn pair(a: f64, b: f64) -> [u32; 4] {
    let (a, b) = (a.to_bits(), b.to_bits());
    [a as u32, (a >> 32) as u32, b as u32, (b >> 32) as u32]
}

/// tgsi.rst MUL with a CONST operand: CONST[0] = (1, 2, 3, 4) times 1. The uniform
/// words of .y and .w are the high halves of their 64-bit FAU slots (ENCODING.md §3.2:
/// uniform word 2n+1); with the half bit dropped they read .x and .z.
#[test]
fn fau_high_half_read_as_low_half() {
    let line = "MUL OUT[0], IN[0], CONST[0]";
    let k = f([1.0, 2.0, 3.0, 4.0]);
    let ins = [f([1.0; 4]), [0; 4]];
    assert_eq!(run(line, ins, k, None), f([1.0, 2.0, 3.0, 4.0]));
    let bad = run(line, ins, k, Some("valhall-fau-hi-as-lo"));
    assert_eq!(bad, f([1.0, 1.0, 3.0, 3.0]));
}

/// tgsi.rst SUB: src0 - src1 = 5 - 2 = 3 (an FADD with source 1 negated). With source
/// 1's `.neg` written into source 0's field: -5 + 2 = -3.
#[test]
fn neg_of_source_one_on_source_zero() {
    let line = "SUB OUT[0], IN[0], IN[1]";
    let ins = [f([5.0; 4]), f([2.0; 4])];
    assert_eq!(run(line, ins, [0; 4], None), f([3.0; 4]));
    let bad = run(line, ins, [0; 4], Some("valhall-neg-wrong-source"));
    assert_eq!(bad, f([-3.0; 4]));
}

/// tgsi.rst I2D: the signed integer as a double: -1 → -1.0 and 7 → 7.0 (src0.x to the pair
/// xy, src0.y to zw). Converted as unsigned: 0xffffffff → 4294967295.0.
#[test]
fn i2d_converts_as_unsigned() {
    let line = "I2D OUT[0], IN[0]";
    let ins = [[u32::MAX, 7, 0, 0], [0; 4]];
    assert_eq!(run(line, ins, [0; 4], None), pair(-1.0, 7.0));
    let bad = run(line, ins, [0; 4], Some("i2d-unsigned"));
    assert_eq!(bad, pair(4294967295.0, 7.0));
}

/// tgsi.rst DNEG: `dst = -src` (IEEE 754 negate, a sign flip): -(+0.0) = -0.0 and
/// -(1.5) = -1.5. As 0.0 + (-x) (round to nearest): +0.0 + -0.0 = +0.0, and -1.5.
#[test]
fn dneg_as_subtraction_from_zero() {
    let line = "DNEG OUT[0], IN[0]";
    let ins = [pair(0.0, 1.5), [0; 4]];
    assert_eq!(run(line, ins, [0; 4], None), pair(-0.0, -1.5));
    let bad = run(line, ins, [0; 4], Some("dneg-as-sub-from-zero"));
    assert_eq!(bad, pair(0.0, -1.5));
}

fn upair(a: u64, b: u64) -> [u32; 4] {
    [a as u32, (a >> 32) as u32, b as u32, (b >> 32) as u32]
}

/// tgsi.rst U64MUL: the low 64 bits of the product: 2^32 * 3 = 0x3_0000_0000 and
/// 5 * 7 = 35. Without the a.hi * b.lo product the first is 0; the second, whose high
/// words are zero, is unchanged.
#[test]
fn u64mul_drops_a_cross_product() {
    let line = "U64MUL OUT[0], IN[0], IN[1]";
    let ins = [upair(1 << 32, 5), upair(3, 7)];
    assert_eq!(run(line, ins, [0; 4], None), upair(3 << 32, 35));
    let bad = run(line, ins, [0; 4], Some("u64mul-drops-cross-product"));
    assert_eq!(bad, upair(0, 35));
}
