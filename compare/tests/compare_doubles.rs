//! The comparator on 64-bit results: a binary64 in a channel pair is one value (one
//! mismatch record, channel `xy`/`zw`, type `f64`, ULP distance in binary64), checked
//! against the precision contract's binary64 bounds (DRCP, DRSQ, DMAD); 64-bit integers
//! bit for bit per channel.
//!
//! Oracle outputs come from the interpreter; "engine" outputs are the oracle's with
//! hand-chosen words changed. Expected values: tgsi.rst formulas and IEEE arithmetic by hand.

use shaderdiff_compare::output::{compare, CompareOptions, Mismatch};
use shaderdiff_model::{File, Program};
use shaderdiff_oracles::interp::{run_with_intervals, InterpConfig};
use shaderdiff_oracles::precision::PrecisionContract;
use shaderdiff_oracles::{Inputs, Outputs, RegKey, Vec4};

fn parse(text: &str) -> Program {
    shaderdiff_tgsi::parse(text, "test.tgsi").unwrap_or_else(|e| panic!("{e}"))
}

/// `OP OUT[0], IN[0] (, IN[1])` with both pairs of each source set to `srcs[k]`.
fn setup(op: &str, srcs: &[u64]) -> (Program, Inputs) {
    let decl = if srcs.len() == 1 {
        "IN[0]".to_string()
    } else {
        format!("IN[0..{}]", srcs.len() - 1)
    };
    let args: String = (0..srcs.len()).map(|k| format!(", IN[{k}]")).collect();
    let p = parse(&format!(
        "VERT\nDCL {decl}\nDCL OUT[0], GENERIC[0]\n{op} OUT[0]{args}\nEND\n"
    ));
    let mut i = Inputs {
        invocations: 1,
        ..Inputs::default()
    };
    for (k, &v) in srcs.iter().enumerate() {
        let w: Vec4 = [v as u32, (v >> 32) as u32, v as u32, (v >> 32) as u32];
        i.registers
            .insert(RegKey::new(File::Input, k as u32), vec![w]);
    }
    (p, i)
}

/// The oracle's outputs with intervals for `engine`'s class, and an engine output whose
/// xy pair is `xy` (zw keeps the oracle's value).
fn run_pair(p: &Program, i: &Inputs, engine: &str, xy: impl Fn(u64) -> u64) -> Vec<Mismatch> {
    let c = PrecisionContract::builtin();
    let class = c.class_of_engine(engine).unwrap();
    let o = run_with_intervals(p, i, &InterpConfig::default(), c, class).unwrap();
    let mut a: Outputs = o.clone();
    a.intervals = None;
    a.undefined.clear();
    let v = &mut a.registers.get_mut(&RegKey::new(File::Output, 0)).unwrap()[0];
    let e = v[0] as u64 | (v[1] as u64) << 32;
    let w = xy(e);
    v[0] = w as u32;
    v[1] = (w >> 32) as u32;
    compare(p, &o, engine, &a, c, &CompareOptions::default())
        .unwrap()
        .mismatches
}

const ONE: u64 = 0x3FF0_0000_0000_0000;
const THREE: u64 = 0x4008_0000_0000_0000;

#[test]
fn a_double_pair_is_one_record_with_a_binary64_ulp_distance() {
    // tgsi.rst DADD: 1 + 1 = 2 (0x4000000000000000); the engine is 1 binary64 ulp above.
    let (p, i) = setup("DADD", &[ONE, ONE]);
    let m = run_pair(&p, &i, "jit", |e| e + 1);
    assert_eq!(m.len(), 1, "{m:?}");
    let r = &m[0];
    assert_eq!((r.channel.as_str(), r.ty.as_str()), ("xy", "f64"));
    assert_eq!(r.expected, "0x4000000000000000");
    assert_eq!(r.actual, "0x4000000000000001");
    assert_eq!((r.tolerance.as_str(), r.ulp_distance), ("exact", Some(1)));
    // A change in the high word alone: 2^32 ulps away.
    let m = run_pair(&p, &i, "jit", |e| e + (1 << 32));
    assert_eq!(m[0].ulp_distance, Some(1 << 32));
    // The same value: no mismatch.
    assert!(run_pair(&p, &i, "jit", |e| e).is_empty());
}

#[test]
fn double_nans_match_by_class() {
    // DADD(inf, -inf) = NaN (IEEE); any NaN is accepted under the default `nan = "any"`.
    let (p, i) = setup("DADD", &[0x7FF0_0000_0000_0000, 0xFFF0_0000_0000_0000]);
    assert!(run_pair(&p, &i, "jit", |_| 0x7FF8_0000_0000_0001).is_empty());
    let m = run_pair(&p, &i, "jit", |_| ONE);
    assert_eq!((m.len(), m[0].ulp_distance), (1, None));
}

#[test]
fn drcp_and_drsq_take_their_class_bounds() {
    // DRCP(3) = 1/3 rounded: 0x3FD5555555555555. cpu ("exact", the jit's 1.0 / x is correctly
    // rounded): one ulp off is a mismatch. gpu: 2.5 ulp (Vulkan OpFDiv), taken as 2.5 + 1/2
    // ulp around the correctly rounded value (interval/wide.rs): 3 ulp off is accepted, 4
    // ulp off is not.
    let (p, i) = setup("DRCP", &[THREE]);
    assert_eq!(run_pair(&p, &i, "jit", |e| e + 1).len(), 1);
    assert!(run_pair(&p, &i, "valhall", |e| e + 2).is_empty());
    assert!(run_pair(&p, &i, "valhall", |e| e - 2).is_empty());
    assert!(run_pair(&p, &i, "valhall", |e| e + 3).is_empty());
    let m = run_pair(&p, &i, "valhall", |e| e + 4);
    assert_eq!(m.len(), 1);
    assert!(
        m[0].tolerance.starts_with("interval:[0x3fd5"),
        "{}",
        m[0].tolerance
    );
    // DRSQ(4) = 0.5 exactly; cpu bound 2 ulp: 0.5 + 2 ulp accepted, + 3 ulp not.
    let (p, i) = setup("DRSQ", &[0x4010_0000_0000_0000]);
    assert!(run_pair(&p, &i, "jit", |e| e + 2).is_empty());
    assert_eq!(run_pair(&p, &i, "jit", |e| e + 3).len(), 1);
    // Special cases stay exact: DRSQ(+0) = +inf.
    let (p, i) = setup("DRSQ", &[0]);
    assert_eq!(
        run_pair(&p, &i, "valhall", |_| 0x7FEF_FFFF_FFFF_FFFF).len(),
        1
    );
}

#[test]
fn dmad_accepts_the_fused_result() {
    // 0.1 * 10 - 1: rounded product 1.0, so DMAD (unfused) = +0; fused: 2^-54
    // (0x3C90000000000000). Both are accepted (precision.toml DMAD "fused_or_unfused");
    // 2^-53 is not.
    let (p, i) = setup(
        "DMAD",
        &[
            0x3FB9_9999_9999_999A,
            0x4024_0000_0000_0000,
            0xBFF0_0000_0000_0000,
        ],
    );
    assert!(run_pair(&p, &i, "jit", |_| 0x3C90_0000_0000_0000).is_empty());
    assert!(run_pair(&p, &i, "jit", |e| e).is_empty());
    assert_eq!(run_pair(&p, &i, "jit", |_| 0x3CA0_0000_0000_0000).len(), 1);
}

#[test]
fn dmad_with_an_underflowing_product_accepts_both_zeros() {
    // -2^-1015 * 2^-1022 = -2^-2037, far below half the smallest subnormal (2^-1075): the
    // rounded product is -0 and -0 + +0 = +0 (unfused, IEEE 754 §6.3), while the fused
    // -2^-2037 + 0 rounds to -0. Both are accepted; 2^-1074 is not.
    let (p, i) = setup("DMAD", &[0x8080_0000_0000_0000, 0x0010_0000_0000_0000, 0]);
    assert!(run_pair(&p, &i, "valhall", |_| 0x8000_0000_0000_0000).is_empty());
    assert!(run_pair(&p, &i, "valhall", |_| 0).is_empty());
    assert!(run_pair(&p, &i, "jit", |_| 0x8000_0000_0000_0000).is_empty());
    assert_eq!(run_pair(&p, &i, "valhall", |_| 1).len(), 1);
}

#[test]
fn a_double_nan_word_read_as_binary32_can_be_any_word() {
    // F2D of a NaN gives a binary64 NaN with unspecified bits; its low word (0 here)
    // added to +0.0 as a binary32 may give any word (interval/eval.rs `snap`), and the run
    // does not trip the interval rules' consistency check. The high word (0x7FF80000) is a
    // binary32 NaN, so its sum must be a NaN.
    let p = parse(
        "VERT\nDCL IN[0]\nDCL OUT[0], GENERIC[0]\nDCL TEMP[0]\n\
         F2D TEMP[0], IN[0].xxxx\nADD OUT[0], TEMP[0].xyxy, IN[0].yyyy\nEND\n",
    );
    let mut i = Inputs {
        invocations: 1,
        ..Inputs::default()
    };
    i.registers
        .insert(RegKey::new(File::Input, 0), vec![[0x7FC0_0000, 0, 0, 0]]);
    let c = PrecisionContract::builtin();
    let class = c.class_of_engine("jit").unwrap();
    let o = run_with_intervals(&p, &i, &InterpConfig::default(), c, class).unwrap();
    let mut a = o.clone();
    a.intervals = None;
    a.registers.get_mut(&RegKey::new(File::Output, 0)).unwrap()[0] =
        [0x1234_5678, 0x7FC0_0000, 0x1234_5678, 0x7FC0_0000];
    assert!(compare(&p, &o, "jit", &a, c, &CompareOptions::default())
        .unwrap()
        .mismatches
        .is_empty());
}

#[test]
fn int64_halves_are_compared_per_channel() {
    // tgsi.rst U64ADD: 0xFFFFFFFF + 1 = 2^32 (x = 0, y = 1); a wrong high word is one
    // mismatch on channel y, type u64.hi, no ULP distance.
    let (p, i) = setup("U64ADD", &[0xFFFF_FFFF, 1]);
    let m = run_pair(&p, &i, "jit", |e| e + (1 << 32));
    assert_eq!(m.len(), 1);
    assert_eq!((m[0].channel.as_str(), m[0].ty.as_str()), ("y", "u64.hi"));
    assert_eq!(
        (m[0].expected.as_str(), m[0].actual.as_str()),
        ("0x00000001", "0x00000002")
    );
    assert_eq!(m[0].ulp_distance, None);
}
