//! IF, UIF and KILL_IF testing one word of a binary64 whose value is a range (the `wide`
//! module docs of oracle/src/interp/interval/wide.rs, "Pair halves").
//!
//! tgsi.rst IF: the condition is `src0.x != 0.0` with `src0.x` read as a float; UIF: the
//! bits `!= 0`. DRSQ(4.0) = 1/sqrt(4) = 0.5 exactly, the binary64 0x3FE0_0000_0000_0000,
//! whose low word is 0 (IF false). The precision contract (oracle/precision.toml [op.DRSQ])
//! lets an engine return any binary64 within 2 ulp, such as 0x3FE0_0000_0000_0001 (low word
//! 1: a denormal, nonzero, since tgsi_exec preserves denormals, EXEC-NOTES.md "Denormals")
//! or 0x3FDF_FFFF_FFFF_FFFF (low word 0xFFFFFFFF: a NaN, and IF is true for NaN,
//! EXEC-NOTES.md IF). Both branches are therefore allowed: the lanes testing the low word
//! must be unconstrained, and an engine that takes the branch must not be a mismatch.

use shaderdiff_ir::{File, Program};
use shaderdiff_oracles::compare::{compare, CompareOptions, Mismatch};
use shaderdiff_oracles::interp::{run_with_intervals, InterpConfig};
use shaderdiff_oracles::precision::PrecisionContract;
use shaderdiff_oracles::{Inputs, Outputs, RegKey, Vec4};

/// 4.0 in binary64.
const FOUR: u64 = 0x4010_0000_0000_0000;

fn parse(text: &str) -> Program {
    shaderdiff_ir::tgsi::parse(text, "test.tgsi").unwrap_or_else(|e| panic!("{e}"))
}

fn inputs() -> Inputs {
    let w: Vec4 = [FOUR as u32, (FOUR >> 32) as u32, 0, 0];
    let mut i = Inputs {
        invocations: 1,
        ..Inputs::default()
    };
    i.registers.insert(RegKey::new(File::Input, 0), vec![w]);
    i
}

/// The oracle's outputs for the `jit` class and the mismatches of an engine whose
/// `OUT[0]` is `engine_out`.
fn judge(p: &Program, engine_out: Vec4) -> (Outputs, Vec<Mismatch>) {
    let c = PrecisionContract::builtin();
    let class = c.class_of_engine("jit").unwrap();
    let o = run_with_intervals(p, &inputs(), &InterpConfig::default(), c, class).unwrap();
    let mut a = o.clone();
    a.intervals = None;
    a.undefined.clear();
    a.killed = None;
    a.registers.get_mut(&RegKey::new(File::Output, 0)).unwrap()[0] = engine_out;
    let m = compare(p, &o, "jit", &a, c, &CompareOptions::default())
        .unwrap()
        .mismatches;
    (o, m)
}

fn branch_program(test: &str) -> Program {
    parse(&format!(
        "VERT\nDCL IN[0]\nDCL OUT[0], GENERIC[0]\nDCL TEMP[0]\n\
         IMM[0] FLT32 {{1.0, 1.0, 1.0, 1.0}}\nIMM[1] FLT32 {{2.0, 2.0, 2.0, 2.0}}\n\
         DRSQ TEMP[0].xy, IN[0].xyxy\n{test} TEMP[0].xxxx\nMOV OUT[0], IMM[0]\nELSE\n\
         MOV OUT[0], IMM[1]\nENDIF\nEND\n"
    ))
}

#[test]
fn if_on_the_low_word_of_a_drsq_range_allows_both_branches() {
    for test in ["IF", "UIF"] {
        let p = branch_program(test);
        // The oracle's own decision: the correctly rounded 0.5 has low word 0 (ELSE).
        let (o, _) = judge(&p, [2.0f32.to_bits(); 4]);
        assert_eq!(
            o.registers[&RegKey::new(File::Output, 0)][0],
            [2.0f32.to_bits(); 4],
            "{test}"
        );
        // An engine whose DRSQ returned 0x3FE0_0000_0000_0001 takes the IF branch.
        let (_, m) = judge(&p, [1.0f32.to_bits(); 4]);
        assert!(m.is_empty(), "{test}: {m:?}");
    }
}

#[test]
fn if_on_an_exact_double_word_stays_determined() {
    // DADD 4.0 + 4.0 = 8.0 exactly (0x4020_0000_0000_0000, low word 0): IF is false, and
    // an engine taking the branch is a mismatch.
    let p = parse(
        "VERT\nDCL IN[0]\nDCL OUT[0], GENERIC[0]\nDCL TEMP[0]\n\
         IMM[0] FLT32 {1.0, 1.0, 1.0, 1.0}\nIMM[1] FLT32 {2.0, 2.0, 2.0, 2.0}\n\
         DADD TEMP[0].xy, IN[0].xyxy, IN[0].xyxy\nIF TEMP[0].xxxx\nMOV OUT[0], IMM[0]\nELSE\n\
         MOV OUT[0], IMM[1]\nENDIF\nEND\n",
    );
    let (_, m) = judge(&p, [1.0f32.to_bits(); 4]);
    assert!(!m.is_empty());
    let (_, m) = judge(&p, [2.0f32.to_bits(); 4]);
    assert!(m.is_empty(), "{m:?}");
}
