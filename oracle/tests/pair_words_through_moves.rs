//! A MOV of both words of a binary64 result whose acceptance set is a range (the `wide`
//! module docs of oracle/src/interp/interval/wide.rs, "Pair halves").
//!
//! DRCP(1.0) = 1.0 = 0x3FF0_0000_0000_0000. Class `gpu` lets DRCP err by 2.5 ulp
//! (oracle/precision.toml [op.DRCP], Vulkan's OpFDiv bound), so 0x3FF0_0000_0000_0002
//! (1 + 2^-51) and 0x3FEF_FFFF_FFFF_FFFF (1 - 2^-53) are allowed too. Read as binary32, the
//! low words of that set are not a range (they run from 0xFFFF_FFFx, NaN patterns, through
//! 0 to 2): a MOV that keeps the pair together must carry the set word for word, not
//! evaluate it as binary32. Before the fix a debug build stopped on the interval check of
//! `snap` (eval.rs) for this program, which is the shape of
//! conformance/nv-spec/nv-spec-fp-rcp-f64-cc (UP64.U lowers to MOV).

use shaderdiff_compare::output::{compare, CompareOptions, Mismatch};
use shaderdiff_model::{File, Program};
use shaderdiff_oracles::interp::{run_with_intervals, InterpConfig};
use shaderdiff_oracles::precision::PrecisionContract;
use shaderdiff_oracles::{Inputs, RegKey, Vec4};

/// 1.0 in binary64.
const ONE: u64 = 0x3FF0_0000_0000_0000;

fn words(v: u64) -> [u32; 2] {
    [v as u32, (v >> 32) as u32]
}

fn program() -> Program {
    let text = "VERT\nDCL IN[0]\nDCL OUT[0], GENERIC[0]\nDCL TEMP[0]\n\
                DRCP TEMP[0].xy, IN[0].xyxy\nMOV OUT[0].xy, TEMP[0].xyxy\n\
                MOV OUT[0].zw, IN[0].zzzz\nEND\n";
    shaderdiff_tgsi::parse(text, "test.tgsi").unwrap_or_else(|e| panic!("{e}"))
}

fn inputs() -> Inputs {
    let [lo, hi] = words(ONE);
    let mut i = Inputs {
        invocations: 1,
        ..Inputs::default()
    };
    i.registers
        .insert(RegKey::new(File::Input, 0), vec![[lo, hi, 0, 0]]);
    i
}

/// The mismatches of an engine of class `gpu` (engine `valhall`) whose DRCP gave `result`.
fn judge(result: u64) -> Vec<Mismatch> {
    let p = program();
    let c = PrecisionContract::builtin();
    let class = c.class_of_engine("valhall").unwrap();
    let o = run_with_intervals(&p, &inputs(), &InterpConfig::default(), c, class).unwrap();
    let mut a = o.clone();
    a.intervals = None;
    a.undefined.clear();
    a.killed = None;
    let [lo, hi] = words(result);
    let out: Vec4 = [lo, hi, 0, 0];
    a.registers.get_mut(&RegKey::new(File::Output, 0)).unwrap()[0] = out;
    compare(&p, &o, "valhall", &a, c, &CompareOptions::default())
        .unwrap()
        .mismatches
}

#[test]
fn results_within_the_bound_are_accepted_word_for_word() {
    for r in [ONE, ONE + 2, ONE - 1] {
        assert!(judge(r).is_empty(), "{r:#018x}: {:?}", judge(r));
    }
}

#[test]
fn a_value_outside_the_bound_is_still_a_mismatch() {
    // 1.5 is 2^51 ulps away from 1.0.
    assert!(!judge(0x3FF8_0000_0000_0000).is_empty());
    // 1 + 2^-50: 4 ulp above 1.0, outside 2.5 ulp.
    assert!(!judge(ONE + 4).is_empty());
}
