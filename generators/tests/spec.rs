//! The spec-derived suite: covers every opcode the oracle implements, every case is a
//! valid program whose printed text parses back, runs on the interpreter, and exercises
//! the edges it is named for.

use std::collections::BTreeSet;

use shaderdiff_generators::spec::{spec_opcodes, suite, ApproxRange, SpecConfig};
use shaderdiff_model::RegKey;
use shaderdiff_model::{File, Opcode, Stage, ALL_OPCODES};
use shaderdiff_oracles::interp::{self, alu::is_alu, InterpConfig};
use shaderdiff_tgsi::parse;

fn sin_range() -> ApproxRange {
    ApproxRange {
        opcode: Opcode::SIN,
        source: 0,
        abs: false,
        lo: -std::f64::consts::PI,
        hi: std::f64::consts::PI,
        citation: "test".into(),
    }
}

#[test]
fn every_implemented_opcode_has_cases() {
    let cases = suite(&SpecConfig::default());
    let covered: BTreeSet<Opcode> = cases.iter().map(|c| c.opcode).collect();
    for &op in ALL_OPCODES {
        if is_alu(op) {
            assert!(covered.contains(&op), "{op} has no spec case");
            // All eleven operand variants (ten for opcodes without a destination; ten for
            // 64-bit opcodes: no 64-bit modifiers or saturate, but pair swizzles and masks).
            let n = cases.iter().filter(|c| c.opcode == op).count();
            let want = if shaderdiff_model::wide::is_wide(op) {
                10
            } else {
                11
            };
            assert!(n >= want, "{op}: {n} variants");
        }
    }
    for op in spec_opcodes() {
        assert!(covered.contains(&op), "{op} has no spec case");
    }
    // Opcodes whose blocks are only closed inside templates appear in some program.
    let used: BTreeSet<Opcode> = cases
        .iter()
        .flat_map(|c| c.program.instructions.iter().map(|i| i.opcode))
        .collect();
    for op in [
        Opcode::ELSE,
        Opcode::ENDIF,
        Opcode::ENDLOOP,
        Opcode::BRK,
        Opcode::CASE,
        Opcode::DEFAULT,
        Opcode::ENDSWITCH,
        Opcode::RET,
        Opcode::BGNSUB,
        Opcode::ENDSUB,
    ] {
        assert!(used.contains(&op), "{op} is in no template");
    }
}

#[test]
fn every_case_parses_back_and_runs() {
    let cases = suite(&SpecConfig {
        ranges: vec![sin_range()],
    });
    let mut names = BTreeSet::new();
    for c in &cases {
        assert!(names.insert(c.name.clone()), "duplicate name {}", c.name);
        assert!(c.name.starts_with("spec-"));
        let p = parse(&c.text, &c.name).unwrap_or_else(|e| panic!("{e}\n{}", c.text));
        assert_eq!(p, c.program, "{}", c.name);
        assert_eq!(
            shaderdiff_generators::random::stamp_version(&c.text),
            Some(shaderdiff_generators::GENERATOR_VERSION)
        );
        assert_eq!(c.inputs.invocations % 4, 0, "{}", c.name);
        assert!(c.inputs.invocations >= 4);
        let out = interp::run(&c.program, &c.inputs, &InterpConfig::default())
            .unwrap_or_else(|e| panic!("{}: {e}", c.name));
        assert_eq!(out.invocations, c.inputs.invocations);
        if c.program.stage == Stage::Fragment {
            assert!(out.killed.is_some());
        }
        assert!(
            c.program.instructions.iter().any(|i| i.opcode == c.opcode),
            "{} does not use {}",
            c.name,
            c.opcode
        );
    }
    assert!(names.contains("spec-sin-range"));
}

/// Values of channel `c` of `OUT[0]` and whether they are undefined, per invocation.
fn out0(name: &str, c: usize) -> Vec<(u32, bool)> {
    let case = suite(&SpecConfig::default())
        .into_iter()
        .find(|x| x.name == name)
        .unwrap_or_else(|| panic!("no case {name}"));
    let out = interp::run(&case.program, &case.inputs, &InterpConfig::default()).unwrap();
    let key = RegKey::new(File::Output, 0);
    let und = out.undefined.get(&key);
    out.registers[&key]
        .iter()
        .enumerate()
        .map(|(i, v)| (v[c], und.is_some_and(|u| u[i] >> c & 1 != 0)))
        .collect()
}

#[test]
fn the_edges_named_by_the_spec_are_exercised() {
    // tgsi.rst UDIV: "For division by zero, 0xffffffff is returned" — the edge variant
    // divides by zero somewhere, defined.
    let udiv = out0("spec-udiv-edge", 0);
    assert!(udiv.iter().all(|&(_, u)| !u));
    assert!(udiv.iter().any(|&(v, _)| v == 0xffff_ffff));
    // tgsi.rst IDIV: "TBD: behavior for division by zero" — undefined somewhere.
    assert!(out0("spec-idiv-edge", 0).iter().any(|&(_, u)| u));
    // tgsi.rst F2I: "Values outside signed range (including NaNs) produce undefined results".
    assert!(out0("spec-f2i-edge", 0).iter().any(|&(_, u)| u));
    // Writemask .y: channel x of OUT[0] is never written and stays 0 (INTERFACE.md:
    // anything not set starts as zero).
    assert!(out0("spec-add-wm-y", 0).iter().all(|&(v, u)| v == 0 && !u));
    // 64-bit Integer ISA: U64SHL "The shift count is masked with 0x3f" — the xy result is
    // defined for every count (64 included); U64DIV by zero (the doc is silent) is
    // undefined somewhere; DSQRT of a negative edge is a NaN (IEEE), defined.
    assert!(out0("spec-u64shl-edge", 0).iter().all(|&(_, u)| !u));
    assert!(out0("spec-u64div-edge", 0).iter().any(|&(_, u)| u));
    let dsqrt_hi = out0("spec-dsqrt-edge", 1);
    assert!(dsqrt_hi.iter().all(|&(_, u)| !u));
    assert!(dsqrt_hi
        .iter()
        .any(|&(v, _)| v & 0x7ff8_0000 == 0x7ff8_0000));
    // _SAT clamps to [0, 1] (tgsi.rst "Other Modifiers").
    assert!(out0("spec-add-sat", 0)
        .iter()
        .all(|&(v, _)| (0.0..=1.0).contains(&f32::from_bits(v))));
}

#[test]
fn range_variants_stay_inside_the_range() {
    let r = sin_range();
    let case = suite(&SpecConfig {
        ranges: vec![r.clone()],
    })
    .into_iter()
    .find(|c| c.name == "spec-sin-range")
    .unwrap();
    let xs = &case.inputs.registers[&RegKey::new(File::Input, 0)];
    for v in xs {
        let x = f32::from_bits(v[0]) as f64;
        assert!(r.lo <= x && x <= r.hi, "{x}");
    }
    let distinct: BTreeSet<u32> = xs.iter().map(|v| v[0]).collect();
    assert!(distinct.len() > 50);
}

#[test]
fn the_suite_is_deterministic() {
    assert_eq!(suite(&SpecConfig::default()), suite(&SpecConfig::default()));
}

#[test]
fn the_builtin_contract_gives_range_variants() {
    // oracle/precision.toml states SIN and COS bounds on [-pi, pi] (Vulkan GLSL table).
    let cfg = SpecConfig::builtin();
    let sin = cfg
        .ranges
        .iter()
        .find(|r| r.opcode == Opcode::SIN)
        .expect("a SIN range");
    assert_eq!(
        (sin.lo, sin.hi),
        (-std::f64::consts::PI, std::f64::consts::PI)
    );
    let cases = suite(&cfg);
    for r in &cfg.ranges {
        let name = format!("spec-{}-range", r.opcode.name().to_ascii_lowercase());
        let c = cases
            .iter()
            .find(|c| c.name == name)
            .unwrap_or_else(|| panic!("no {name}"));
        assert!(c.text.lines().nth(1).unwrap().starts_with("# range "));
        let vals = &c.inputs.registers[&RegKey::new(File::Input, r.source as u32)];
        for v in vals {
            for w in v {
                let x = f32::from_bits(*w) as f64;
                let x = if r.abs { x.abs() } else { x };
                assert!(r.lo <= x && x <= r.hi, "{name}: {x}");
            }
        }
    }
}
