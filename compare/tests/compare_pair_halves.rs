//! Pair halves (oracle/src/interp/interval/wide.rs "Pair halves"): a channel pair holding a
//! binary64 set that is not one value (a DRCP range on the gpu class, an unspecified NaN) is
//! judged as one binary64 whatever the static channel types say; overwriting one half makes
//! the other undefined; a MOV keeping the pair together keeps the set; other 32-bit reads of
//! a half are undefined.
//!
//! Oracle outputs come from the interpreter; "engine" outputs are the oracle's with
//! hand-chosen words changed. Expected values by hand: DRCP(3) = 1/3 = 0x3FD5555555555555
//! (binary64, round to nearest), gpu bound 2.5 ulp (precision.toml [op.DRCP]); DDIV(0, 0) is
//! a NaN (IEEE 754 invalid operation) whose bits tgsi.rst does not specify.

use shaderdiff_compare::output::{compare, CompareOptions, Mismatch};
use shaderdiff_model::{File, Program};
use shaderdiff_oracles::interp::{run_with_intervals, InterpConfig};
use shaderdiff_oracles::precision::PrecisionContract;
use shaderdiff_oracles::{Inputs, Outputs, RegKey, Vec4};

const THIRD: u64 = 0x3FD5_5555_5555_5555;
const THREE: u64 = 0x4008_0000_0000_0000;

fn parse(text: &str) -> Program {
    shaderdiff_tgsi::parse(text, "test.tgsi").unwrap_or_else(|e| panic!("{e}"))
}

/// One invocation with `IN[0]` = the binary64 3.0 in both pairs.
fn inputs() -> Inputs {
    let w: Vec4 = [
        THREE as u32,
        (THREE >> 32) as u32,
        THREE as u32,
        (THREE >> 32) as u32,
    ];
    let mut i = Inputs {
        invocations: 1,
        ..Inputs::default()
    };
    i.registers.insert(RegKey::new(File::Input, 0), vec![w]);
    i
}

/// The oracle's outputs for `engine`'s class, and the mismatches of an engine whose
/// `OUT[0]` is the oracle's changed by `edit`.
fn judge(p: &Program, engine: &str, edit: impl Fn(&mut Vec4)) -> (Outputs, Vec<Mismatch>) {
    let c = PrecisionContract::builtin();
    let class = c.class_of_engine(engine).unwrap();
    let o = run_with_intervals(p, &inputs(), &InterpConfig::default(), c, class).unwrap();
    let mut a = o.clone();
    a.intervals = None;
    a.undefined.clear();
    edit(&mut a.registers.get_mut(&RegKey::new(File::Output, 0)).unwrap()[0]);
    let m = compare(p, &o, engine, &a, c, &CompareOptions::default())
        .unwrap()
        .mismatches;
    (o, m)
}

fn set(v: &mut Vec4, c: usize, x: u64) {
    v[c] = x as u32;
    v[c + 1] = (x >> 32) as u32;
}

fn undefined_bits(o: &Outputs) -> u8 {
    o.undefined
        .get(&RegKey::new(File::Output, 0))
        .map_or(0, |u| u[0])
}

#[test]
fn a_nan_pair_behind_an_untaken_32bit_write_is_one_binary64() {
    // The static type of OUT[0].z is mixed (DDIV and NOT write it), but NOT never runs.
    let p = parse(
        "VERT\nDCL IN[0]\nDCL OUT[0], GENERIC[0]\nIMM[0] UINT32 {0, 0, 0, 0}\n\
         DDIV OUT[0].zw, IMM[0], IMM[0]\nUIF IMM[0].xxxx\nNOT OUT[0].z, IMM[0]\nENDIF\nEND\n",
    );
    // Another NaN (low word 1): accepted.
    let (_, m) = judge(&p, "jit", |v| set(v, 2, 0x7FF0_0000_0000_0001));
    assert!(m.is_empty(), "{m:?}");
    // Zero is not a NaN: one binary64 record.
    let (_, m) = judge(&p, "jit", |v| set(v, 2, 0));
    assert_eq!(m.len(), 1, "{m:?}");
    assert_eq!((m[0].channel.as_str(), m[0].ty.as_str()), ("zw", "f64"));
}

#[test]
fn a_move_keeping_the_pair_keeps_the_drcp_range() {
    let p = parse(
        "VERT\nDCL IN[0]\nDCL OUT[0], GENERIC[0]\nDCL TEMP[0]\n\
         DRCP TEMP[0].xy, IN[0]\nMOV OUT[0].zw, TEMP[0].xyxy\nEND\n",
    );
    let (o, _) = judge(&p, "valhall", |_| {});
    let v = o.registers[&RegKey::new(File::Output, 0)][0];
    assert_eq!(v[2] as u64 | (v[3] as u64) << 32, THIRD);
    // 2 binary64 ulps above 1/3: inside the gpu bound (2.5 ulp).
    let (_, m) = judge(&p, "valhall", |v| set(v, 2, THIRD + 2));
    assert!(m.is_empty(), "{m:?}");
    // 4 ulps: outside, reported as one binary64.
    let (_, m) = judge(&p, "valhall", |v| set(v, 2, THIRD + 4));
    assert_eq!(m.len(), 1, "{m:?}");
    assert_eq!((m[0].channel.as_str(), m[0].ty.as_str()), ("zw", "f64"));
    assert_eq!(m[0].ulp_distance, Some(4));
}

#[test]
fn overwriting_one_half_leaves_the_other_undefined() {
    let p = parse(
        "VERT\nDCL IN[0]\nDCL OUT[0], GENERIC[0]\nDCL TEMP[0]\nIMM[0] UINT32 {7, 0, 0, 0}\n\
         DRCP TEMP[0].xy, IN[0]\nMOV TEMP[0].x, IMM[0].xxxx\nMOV OUT[0], TEMP[0]\nEND\n",
    );
    let (o, _) = judge(&p, "valhall", |_| {});
    assert_eq!(
        undefined_bits(&o) & 0b11,
        0b10,
        "y undefined, x (the 7) defined"
    );
    // Any high word is accepted; the low word is an exact 7.
    let (_, m) = judge(&p, "valhall", |v| v[1] = 0xDEAD_BEEF);
    assert!(m.is_empty(), "{m:?}");
    let (_, m) = judge(&p, "valhall", |v| v[0] = 8);
    assert_eq!(m.len(), 1, "{m:?}");
    assert_eq!(m[0].channel, "x");
}

#[test]
fn splitting_the_pair_or_computing_with_a_half_is_undefined() {
    let p = parse(
        "VERT\nDCL IN[0]\nDCL OUT[0], GENERIC[0]\nDCL TEMP[0]\nIMM[0] FLT32 {1.0, 0, 0, 0}\n\
         DRCP TEMP[0].xy, IN[0]\nMOV OUT[0].xy, TEMP[0].yxxx\n\
         ADD OUT[0].z, TEMP[0].xxxx, IMM[0].xxxx\nMOV OUT[0].w, IMM[0].xxxx\nEND\n",
    );
    let (o, m) = judge(&p, "valhall", |v| {
        v[0] = 1;
        v[1] = 2;
        v[2] = 3;
    });
    assert_eq!(
        undefined_bits(&o),
        0b0111,
        "x, y (split pair) and z (ADD of a half)"
    );
    assert!(m.is_empty(), "{m:?}");
    // On the cpu class DRCP is exact (a single value): nothing is undefined.
    let (o, _) = judge(&p, "jit", |_| {});
    assert_eq!(undefined_bits(&o), 0);
}
