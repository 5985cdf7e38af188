//! The comparator: typed per channel, NaN/zero/denormal policies, skipped undefined and
//! killed invocations, and INTERFACE.md's mismatch JSON.
//!
//! Oracle outputs come from the interpreter; "engine" outputs are the oracle's outputs with
//! hand-chosen words changed, so every expectation below is about the comparator's rule,
//! stated next to it with its source.

use shaderdiff_compare::output::{compare, CompareError, CompareOptions, Mismatch};
use shaderdiff_model::{File, Program};
use shaderdiff_oracles::interp::{run, run_with_intervals, InterpConfig};
use shaderdiff_oracles::precision::{NanPolicy, PrecisionContract};
use shaderdiff_oracles::{Inputs, Outputs, RegKey, Vec4};

fn contract() -> &'static PrecisionContract {
    PrecisionContract::builtin()
}

fn parse(text: &str) -> Program {
    shaderdiff_tgsi::parse(text, "test.tgsi").unwrap_or_else(|e| panic!("{e}"))
}

fn inputs(v: Vec<Vec4>) -> Inputs {
    let mut i = Inputs {
        invocations: v.len(),
        ..Inputs::default()
    };
    i.registers.insert(RegKey::new(File::Input, 0), v);
    i
}

/// The oracle's outputs, with intervals for `engine`'s class when `intervals`.
fn oracle(p: &Program, i: &Inputs, engine: &str, intervals: bool) -> Outputs {
    let c = contract();
    if intervals {
        let class = c.class_of_engine(engine).expect("engine class");
        run_with_intervals(p, i, &InterpConfig::default(), c, class).expect("runs")
    } else {
        run(p, i, &InterpConfig::default()).expect("runs")
    }
}

/// A copy of `o` without intervals (what an engine returns), with OUT[reg] of invocation
/// `inv`, channel `ch` set to `word`.
fn engine_with(o: &Outputs, reg: u32, inv: usize, ch: usize, word: u32) -> Outputs {
    let mut a = o.clone();
    a.intervals = None;
    a.undefined.clear();
    a.registers
        .get_mut(&RegKey::new(File::Output, reg))
        .expect("register")[inv][ch] = word;
    a
}

fn opts(nan: NanPolicy) -> CompareOptions {
    CompareOptions { nan }
}

fn cmp(p: &Program, o: &Outputs, engine: &str, a: &Outputs, nan: NanPolicy) -> Vec<Mismatch> {
    compare(p, o, engine, a, contract(), &opts(nan))
        .expect("comparable")
        .mismatches
}

#[test]
fn mismatch_json_is_the_interface_example() {
    // INTERFACE.md "`diff --format json` output", mismatches[0], verbatim.
    let example = r#"{ "engine": "valhall", "register": "OUT[0]", "invocation": 2, "channel": "y",
      "type": "f32", "expected": "0x3f800000", "actual": "0x3f800001",
      "tolerance": "exact", "ulp_distance": 1 }"#;
    let p = parse("VERT\nDCL IN[0]\nDCL OUT[0]\n0: ADD OUT[0], IN[0], IN[0]\n1: END\n");
    let half = 0.5f32.to_bits();
    let i = inputs(vec![[half; 4]; 4]);
    let o = oracle(&p, &i, "valhall", true);
    let a = engine_with(&o, 0, 2, 1, 0x3f80_0001);
    let m = cmp(&p, &o, "valhall", &a, NanPolicy::Any);
    assert_eq!(m.len(), 1);
    let got: serde_json::Value = serde_json::to_value(&m[0]).expect("serializes");
    let want: serde_json::Value = serde_json::from_str(example).expect("example parses");
    assert_eq!(got, want);
    // Field order as on the page.
    let text = serde_json::to_string(&m[0]).expect("serializes");
    let order = [
        "engine",
        "register",
        "invocation",
        "channel",
        "type",
        "expected",
        "actual",
        "tolerance",
        "ulp_distance",
    ];
    let pos: Vec<usize> = order
        .iter()
        .map(|k| text.find(&format!("\"{k}\"")).expect("key"))
        .collect();
    assert!(pos.windows(2).all(|w| w[0] < w[1]), "{text}");
}

#[test]
fn integers_are_bit_exact() {
    // tgsi.rst UADD: integer results have no tolerance; ulp_distance is null for i32.
    let p = parse("VERT\nDCL IN[0]\nDCL OUT[0]\n0: UADD OUT[0], IN[0], IN[0]\n1: END\n");
    let i = inputs(vec![[1, 2, 3, 4]]);
    for intervals in [false, true] {
        let o = oracle(&p, &i, "jit", intervals);
        assert_eq!(o.registers[&RegKey::new(File::Output, 0)][0], [2, 4, 6, 8]);
        assert!(cmp(&p, &o, "jit", &engine_with(&o, 0, 0, 0, 2), NanPolicy::Any).is_empty());
        let m = cmp(&p, &o, "jit", &engine_with(&o, 0, 0, 3, 9), NanPolicy::Any);
        assert_eq!(m.len(), 1);
        assert_eq!((m[0].ty.as_str(), m[0].channel.as_str()), ("i32", "w"));
        assert_eq!(
            (m[0].expected.as_str(), m[0].actual.as_str()),
            ("0x00000008", "0x00000009")
        );
        assert_eq!(
            (m[0].tolerance.as_str(), m[0].ulp_distance),
            ("exact", None)
        );
    }
}

#[test]
fn nan_policy_any_and_strict() {
    // EXEC-NOTES §0: x86 creates 0xFFC00000, GPUs 0x7FC00000. Default: any NaN matches any
    // NaN; strict: the oracle's bits.
    let p = parse("VERT\nDCL IN[0]\nDCL OUT[0]\n0: ADD OUT[0], IN[0].xxxx, IN[0].yyyy\n1: END\n");
    let i = inputs(vec![[
        f32::INFINITY.to_bits(),
        f32::NEG_INFINITY.to_bits(),
        0,
        0,
    ]]);
    for intervals in [false, true] {
        let o = oracle(&p, &i, "jit", intervals);
        let e = o.registers[&RegKey::new(File::Output, 0)][0][0];
        assert!(f32::from_bits(e).is_nan());
        let other = if e == 0x7fc0_0000 {
            0xffc0_0000
        } else {
            0x7fc0_0000
        };
        let a = engine_with(&o, 0, 0, 0, other);
        assert!(cmp(&p, &o, "jit", &a, NanPolicy::Any).is_empty());
        let m = cmp(&p, &o, "jit", &a, NanPolicy::Strict);
        assert_eq!(m.len(), 1);
        assert_eq!(m[0].ulp_distance, None, "no ULP distance between NaNs");
        // A number where a NaN is due is a mismatch under both policies.
        let a = engine_with(&o, 0, 0, 0, 0);
        assert_eq!(cmp(&p, &o, "jit", &a, NanPolicy::Any).len(), 1);
    }
}

#[test]
fn signed_zero_per_policy() {
    // cpu class: signed_zero = "exact": -0 for +0 is a mismatch (ADD(+0, +0) = +0, IEEE).
    let p = parse("VERT\nDCL IN[0]\nDCL OUT[0]\n0: ADD OUT[0], IN[0], IN[0]\n1: END\n");
    let i = inputs(vec![[0; 4]]);
    for intervals in [false, true] {
        let o = oracle(&p, &i, "jit", intervals);
        let m = cmp(
            &p,
            &o,
            "jit",
            &engine_with(&o, 0, 0, 0, 0x8000_0000),
            NanPolicy::Any,
        );
        assert_eq!(m.len(), 1);
        assert_eq!(m[0].ulp_distance, Some(0));
    }
    // MIN/MAX: signed_zero = "either" in the contract (EXEC-NOTES §0: ±0 ties unspecified):
    // MIN(-0, +0) may be either zero.
    let p = parse("VERT\nDCL IN[0]\nDCL OUT[0]\n0: MIN OUT[0], IN[0].xxxx, IN[0].yyyy\n1: END\n");
    let i = inputs(vec![[0x8000_0000, 0, 0, 0]]);
    let o = oracle(&p, &i, "jit", true);
    let e = o.registers[&RegKey::new(File::Output, 0)][0][0];
    let a = engine_with(&o, 0, 0, 0, e ^ 0x8000_0000);
    assert!(cmp(&p, &o, "jit", &a, NanPolicy::Any).is_empty());
}

#[test]
fn undefined_channels_are_skipped() {
    // tgsi.rst IDIV: division by zero is not defined (the oracle marks it undefined).
    let p = parse("VERT\nDCL IN[0]\nDCL OUT[0]\n0: IDIV OUT[0], IN[0].xxxx, IN[0].yyyy\n1: END\n");
    let i = inputs(vec![[7, 0, 0, 0]]);
    let o = oracle(&p, &i, "jit", false);
    let r = compare(
        &p,
        &o,
        "jit",
        &engine_with(&o, 0, 0, 0, 12345),
        contract(),
        &CompareOptions::default(),
    )
    .expect("comparable");
    assert!(r.mismatches.is_empty());
    assert_eq!(
        (r.compared, r.skipped_undefined, r.skipped_killed),
        (0, 4, 0)
    );
}

#[test]
fn killed_invocations_are_skipped_and_kill_differences_reported() {
    // INTERFACE.md "Fragment quads": a killed invocation's registers are not compared.
    let p = parse(
        "FRAG\nDCL IN[0], GENERIC[0], CONSTANT\nDCL OUT[0], COLOR\n\
         0: MOV OUT[0], IN[0]\n1: KILL_IF IN[0].xxxx\n2: END\n",
    );
    let one = 1.0f32.to_bits();
    let minus = (-1.0f32).to_bits();
    let i = inputs(vec![[one; 4], [minus; 4], [one; 4], [one; 4]]);
    let o = oracle(&p, &i, "jit", true);
    assert_eq!(o.killed, Some(vec![false, true, false, false]));
    // Invocation 1 is killed: changing its registers is not a mismatch.
    let r = compare(
        &p,
        &o,
        "jit",
        &engine_with(&o, 0, 1, 0, 42),
        contract(),
        &CompareOptions::default(),
    )
    .expect("comparable");
    assert!(r.mismatches.is_empty());
    assert_eq!((r.compared, r.skipped_killed), (12, 4));
    // The engine kills invocation 2 as well: one `killed` mismatch, registers skipped.
    let mut a = engine_with(&o, 0, 2, 0, 42);
    a.killed = Some(vec![false, true, true, false]);
    let m = cmp(&p, &o, "jit", &a, NanPolicy::Any);
    assert_eq!(m.len(), 1);
    assert_eq!(
        (m[0].register.as_str(), m[0].invocation, m[0].ty.as_str()),
        ("killed", 2, "bool")
    );
    assert_eq!(
        (m[0].expected.as_str(), m[0].actual.as_str()),
        ("0x00000000", "0x00000001")
    );
}

#[test]
fn flushed_denormals_only_for_flush_allowed_classes() {
    // Vulkan: denormal results may be flushed to zero (class gpu, `flush_allowed`); the cpu
    // class preserves them (EXEC-NOTES §0). 2^-140 * 1 = 2^-140 (0x00000200).
    let p = parse("VERT\nDCL IN[0]\nDCL OUT[0]\n0: MUL OUT[0], IN[0].xxxx, IN[0].yyyy\n1: END\n");
    let i = inputs(vec![[0x200, 1.0f32.to_bits(), 0, 0]]);
    for intervals in [false, true] {
        for flushed in [0, 0x8000_0000] {
            let o = oracle(&p, &i, "valhall", intervals);
            assert!(cmp(
                &p,
                &o,
                "valhall",
                &engine_with(&o, 0, 0, 0, flushed),
                NanPolicy::Any
            )
            .is_empty());
            let o = oracle(&p, &i, "jit", intervals);
            assert_eq!(
                cmp(
                    &p,
                    &o,
                    "jit",
                    &engine_with(&o, 0, 0, 0, flushed),
                    NanPolicy::Any
                )
                .len(),
                1
            );
        }
    }
}

#[test]
fn approximate_results_use_the_interval() {
    // Vulkan exp2: 3 + 2|x| ULP; EX2(0) on gpu accepts 0x3f7ffffd..0x3f800001.
    let p = parse("VERT\nDCL IN[0]\nDCL OUT[0]\n0: EX2 OUT[0], IN[0].xxxx\n1: END\n");
    let i = inputs(vec![[0; 4]]);
    let o = oracle(&p, &i, "valhall", true);
    for ok in [0x3f7f_fffd, 0x3f80_0000, 0x3f80_0001] {
        assert!(cmp(
            &p,
            &o,
            "valhall",
            &engine_with(&o, 0, 0, 0, ok),
            NanPolicy::Any
        )
        .is_empty());
    }
    let m = cmp(
        &p,
        &o,
        "valhall",
        &engine_with(&o, 0, 0, 0, 0x3f7f_fffc),
        NanPolicy::Any,
    );
    assert_eq!(m.len(), 1);
    assert_eq!(m[0].tolerance, "interval:[0x3f7ffffd,0x3f800001]");
    assert_eq!(m[0].ulp_distance, Some(4));
    // The cpu class (same libm as the oracle) is exact here.
    let o = oracle(&p, &i, "jit", true);
    assert_eq!(
        cmp(
            &p,
            &o,
            "jit",
            &engine_with(&o, 0, 0, 0, 0x3f80_0001),
            NanPolicy::Any
        )
        .len(),
        1
    );
}

#[test]
fn comparison_errors() {
    let p = parse("VERT\nDCL IN[0]\nDCL OUT[0]\n0: MOV OUT[0], IN[0]\n1: END\n");
    let i = inputs(vec![[0; 4]]);
    let o = oracle(&p, &i, "valhall", true);
    let c = contract();
    let d = CompareOptions::default();
    assert_eq!(
        compare(&p, &o, "nosuch", &o, c, &d),
        Err(CompareError::UnknownEngine("nosuch".into()))
    );
    assert!(matches!(
        compare(&p, &o, "jit", &o, c, &d),
        Err(CompareError::ClassMismatch { .. })
    ));
    let mut fewer = o.clone();
    fewer.invocations = 2;
    assert!(matches!(
        compare(&p, &o, "valhall", &fewer, c, &d),
        Err(CompareError::Invocations { .. })
    ));
    let mut missing = o.clone();
    missing.registers.clear();
    assert_eq!(
        compare(&p, &o, "valhall", &missing, c, &d),
        Err(CompareError::MissingRegister("OUT[0]".into()))
    );
}

/// Geometry programs: each invocation's emitted vertices are compared exactly (count, then
/// stream and primitive of each; reported as `emitted` / `emitted[v]`), and the outputs of
/// vertex `v` (`OUT[v][n]`) only where both sides emitted it.
#[test]
fn emitted_vertices_are_compared_exactly() {
    let p = parse(
        "GEOM\nPROPERTY GS_INPUT_PRIMITIVE POINTS\nPROPERTY GS_OUTPUT_PRIMITIVE POINTS\n\
         PROPERTY GS_MAX_OUTPUT_VERTICES 4\nDCL IN[][0], POSITION\nDCL OUT[0], POSITION\n\
         IMM[0] INT32 {0, 1, 0, 0}\nMOV OUT[0], IN[0][0]\nEMIT IMM[0].xxxx\n\
         ENDPRIM IMM[0].xxxx\nEMIT IMM[0].yyyy\nEND\n",
    );
    let mut i = Inputs {
        invocations: 2,
        ..Inputs::default()
    };
    let key = RegKey {
        file: File::Input,
        dimension: Some(0),
        index: 0,
    };
    i.registers
        .insert(key, vec![[1.0f32.to_bits(); 4], [2.0f32.to_bits(); 4]]);
    let o = oracle(&p, &i, "jit", true);
    let e = o
        .emits
        .as_ref()
        .expect("geometry programs report their vertices");
    assert_eq!(e[0].len(), 2);
    let clean = |o: &Outputs| {
        let mut a = o.clone();
        a.intervals = None;
        a.undefined.clear();
        a
    };
    assert!(cmp(&p, &o, "jit", &clean(&o), NanPolicy::Any).is_empty());
    // One vertex fewer in invocation 1: a count mismatch, and its missing vertex's
    // registers are not compared.
    let mut a = clean(&o);
    a.emits.as_mut().unwrap()[1].pop();
    a.registers
        .get_mut(&shaderdiff_oracles::emitted_key(1, 0))
        .unwrap()[1] = [0; 4];
    let m = cmp(&p, &o, "jit", &a, NanPolicy::Any);
    assert_eq!(m.len(), 1, "{m:?}");
    assert_eq!((m[0].register.as_str(), m[0].invocation), ("emitted", 1));
    assert_eq!(
        (m[0].expected.as_str(), m[0].actual.as_str()),
        ("0x00000002", "0x00000001")
    );
    // A wrong stream on vertex 1 of invocation 0.
    let mut a = clean(&o);
    a.emits.as_mut().unwrap()[0][1].stream = 0;
    let m = cmp(&p, &o, "jit", &a, NanPolicy::Any);
    assert_eq!(m.len(), 1, "{m:?}");
    assert_eq!(
        (m[0].register.as_str(), m[0].channel.as_str()),
        ("emitted[1]", "x")
    );
    // A wrong value in vertex 0's OUT[0].
    let mut a = clean(&o);
    a.registers
        .get_mut(&shaderdiff_oracles::emitted_key(0, 0))
        .unwrap()[0][2] = 0x4040_0000;
    let m = cmp(&p, &o, "jit", &a, NanPolicy::Any);
    assert_eq!(m.len(), 1, "{m:?}");
    assert_eq!(m[0].register, "OUT[0][0]");
}
