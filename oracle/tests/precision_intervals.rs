//! Acceptance intervals computed by the oracle (`run_with_intervals`): hand-computed
//! intervals for single opcodes, straddling decisions, and a property test that the oracle's
//! own results always lie in its intervals.
//!
//! Expected intervals come from the Vulkan precision table (quoted next to each test), the
//! Vulkan `ulp()` definition, or independent IEEE computations (`f32::mul_add` for the
//! fused result, separate `*` and `+` for the unfused one) — never from the code under test.

use proptest::prelude::*;
use shaderdiff_generators::{strategy::tgsi_program, GenConfig};
use shaderdiff_model::{File, Opcode, Program};
use shaderdiff_oracles::interp::interval::{scalar, Env, Iv};
use shaderdiff_oracles::interp::{run, run_with_intervals, ExecError, InterpConfig};
use shaderdiff_oracles::precision::{EngineClass, PrecisionContract};
use shaderdiff_oracles::{Inputs, Interval, Outputs, RegKey, Vec4};

fn contract() -> &'static PrecisionContract {
    PrecisionContract::builtin()
}

fn class(name: &str) -> EngineClass {
    contract().class(name).expect("class in the contract")
}

fn parse(text: &str) -> Program {
    shaderdiff_tgsi::parse(text, "test.tgsi").unwrap_or_else(|e| panic!("{e}"))
}

fn one_input(v: Vec4) -> Inputs {
    let mut i = Inputs {
        invocations: 1,
        ..Inputs::default()
    };
    i.registers.insert(RegKey::new(File::Input, 0), vec![v]);
    i
}

fn run_iv(p: &Program, i: &Inputs, class_name: &str) -> Outputs {
    run_with_intervals(
        p,
        i,
        &InterpConfig::default(),
        contract(),
        class(class_name),
    )
    .expect("the program runs")
}

fn out0(o: &Outputs) -> (Vec4, [Interval; 4], u8) {
    let key = RegKey::new(File::Output, 0);
    let ivs = o.intervals.as_ref().expect("intervals");
    (
        o.registers[&key][0],
        ivs.channels[&key][0],
        o.undefined.get(&key).map_or(0, |u| u[0]),
    )
}

fn r(lo: f32, hi: f32) -> Iv {
    Iv::range(lo, hi, false)
}

#[test]
fn add_of_two_ranges_is_the_sum_of_the_ends() {
    // [1, 2] + [3, 4] = [4, 6]: ADD is exact, so the ends are 1+3 and 2+4.
    let env = Env::new(contract(), class("cpu"));
    let s = scalar(&env, Opcode::ADD, &[r(1.0, 2.0), r(3.0, 4.0)]);
    assert_eq!(s, Some(r(4.0, 6.0)));
    // [1, 2] * [-3, 4] = [-6, 8] (corners -3, 4, -6, 8).
    let p = scalar(&env, Opcode::MUL, &[r(1.0, 2.0), r(-3.0, 4.0)]);
    assert_eq!(p, Some(r(-6.0, 8.0)));
}

#[test]
fn ex2_of_zero_on_gpu_is_three_ulp_around_one() {
    // Vulkan: "exp2(x): 3 + 2 × |x| ULP" → 3 ULP at x = 0. Vulkan's ulp(1) is the smallest
    // gap of floats a <= 1 <= b: 2^-24 (below 1). So [1 - 3·2^-24, 1 + 3·2^-24]: from
    // 0x3f7ffffd (1 - 3·2^-24 exactly) to 0x3f800001 (1 + 2^-23, the last float <= 1 + 1.5·2^-23).
    let p = parse("VERT\nDCL IN[0]\nDCL OUT[0]\n0: EX2 OUT[0], IN[0].xxxx\n1: END\n");
    let o = run_iv(&p, &one_input([0; 4]), "gpu");
    let (v, iv, und) = out0(&o);
    assert_eq!(v[0], 0x3f80_0000);
    assert_eq!(und, 0);
    assert_eq!(
        iv[0],
        Interval {
            lo: 0x3f7f_fffd,
            hi: 0x3f80_0001,
            nan: false
        }
    );
    // cpu: the oracle's libm is within 0.5 + 2^-29 ulp, and 2^0 is exact: only 1.0.
    let o = run_iv(&p, &one_input([0; 4]), "cpu");
    assert_eq!(out0(&o).1[0], Interval::exact(0x3f80_0000));
}

#[test]
fn mad_accepts_fused_and_unfused() {
    // a = 1 + 2^-23, b = 1 - 2^-24, c = -1: a*b = 1 + 2^-24 - 2^-47 rounds to 1, so the
    // unfused result is 0 while the fused one keeps 2^-24 - 2^-47.
    let (a, b, c) = (
        f32::from_bits(0x3f80_0001),
        f32::from_bits(0x3f7f_ffff),
        -1.0f32,
    );
    let unfused = a * b + c;
    let fused = a.mul_add(b, c);
    assert_ne!(unfused, fused);
    let p = parse(
        "VERT\nDCL IN[0]\nDCL OUT[0]\n0: MAD OUT[0], IN[0].xxxx, IN[0].yyyy, IN[0].zzzz\n1: END\n",
    );
    for cls in ["cpu", "gpu"] {
        let o = run_iv(
            &p,
            &one_input([a.to_bits(), b.to_bits(), c.to_bits(), 0]),
            cls,
        );
        let (v, iv, _) = out0(&o);
        assert_eq!(v[0], unfused.to_bits(), "the oracle rounds the product");
        let (lo, hi) = (unfused.min(fused), unfused.max(fused));
        let set = Iv::from_bits(iv[0].lo, iv[0].hi, iv[0].nan);
        assert!(
            set.contains(unfused) && set.contains(fused),
            "{cls}: {set:?}"
        );
        if cls == "cpu" {
            assert_eq!(
                iv[0],
                Interval {
                    lo: lo.to_bits(),
                    hi: hi.to_bits(),
                    nan: false
                }
            );
        } else {
            // gpu may flush: the range reaches below 2^-126, so -0 is accepted too.
            assert_eq!((iv[0].lo, iv[0].hi), (0x8000_0000, hi.to_bits()));
        }
    }
}

#[test]
fn lrp_accepts_both_formulas() {
    // EXEC-NOTES §3: LRP(1, 1, 1e8) = 1 by the doc's formula, 0 by tgsi_exec's
    // s0*(s1-s2)+s2 (1 - 1e8 rounds to -1e8).
    let p = parse(
        "VERT\nDCL IN[0]\nDCL OUT[0]\n0: LRP OUT[0], IN[0].xxxx, IN[0].yyyy, IN[0].zzzz\n1: END\n",
    );
    let o = run_iv(
        &p,
        &one_input([1.0f32, 1.0, 1e8, 0.0].map(f32::to_bits)),
        "cpu",
    );
    let (v, iv, _) = out0(&o);
    assert_eq!(f32::from_bits(v[0]), 1.0);
    let set = Iv::from_bits(iv[0].lo, iv[0].hi, iv[0].nan);
    assert!(set.contains(1.0) && set.contains(0.0), "{set:?}");
}

#[test]
fn comparison_straddling_its_threshold_is_undefined() {
    // gpu: EX2(0) may be 1 - 3·2^-24 .. 1 + 2^-23, so "EX2(0) < 1" has both outcomes.
    let p = parse(
        "VERT\nDCL IN[0]\nDCL OUT[0]\nDCL TEMP[0]\nIMM[0] FLT32 { 1.0, 0.0, 0.0, 0.0 }\n\
         0: EX2 TEMP[0], IN[0].xxxx\n1: SLT OUT[0], TEMP[0], IMM[0].xxxx\n2: END\n",
    );
    let (_, _, und) = out0(&run_iv(&p, &one_input([0; 4]), "gpu"));
    assert_eq!(und, 0xF);
    // cpu: EX2(0) is exactly 1: the comparison is determined (1 < 1 is false).
    let o = run_iv(&p, &one_input([0; 4]), "cpu");
    let (v, iv, und) = out0(&o);
    assert_eq!((v[0], und), (0, 0));
    assert_eq!(iv[0], Interval::exact(0));
}

#[test]
fn a_true_float_comparison_is_an_exact_integer_mask() {
    // tgsi.rst FSEQ: `dst = (src0 == src1) ? ~0 : 0`. FSEQ(+0, -0) is true (0xFFFFFFFF, a NaN
    // pattern but an integer mask), and the AND reading it is determined: AND(~0, 5) = 5.
    // The zero tie takes the interval path (not the exact fast path) on every class.
    let p = parse(
        "VERT\nDCL IN[0]\nDCL OUT[0]\nDCL TEMP[0]\nIMM[0] FLT32 { -0.0, 0.0, 0.0, 0.0 }\n\
         IMM[1] UINT32 { 5, 0, 0, 0 }\n\
         0: FSEQ TEMP[0], IN[0], IMM[0].xxxx\n1: AND OUT[0], TEMP[0], IMM[1].xxxx\n2: END\n",
    );
    for class in ["cpu", "gpu"] {
        let (v, iv, und) = out0(&run_iv(&p, &one_input([0; 4]), class));
        assert_eq!((v, und), ([5; 4], 0), "{class}");
        assert_eq!(iv, [Interval::exact(5); 4], "{class}");
    }
}

#[test]
fn if_on_a_straddling_value_makes_the_invocation_unconstrained() {
    // gpu: EX2(0) - 1 lies in [-3·2^-24, 2^-23]: it may be zero or not, so IF may go
    // either way; every output of the invocation becomes unconstrained.
    let p = parse(
        "VERT\nDCL IN[0]\nDCL OUT[0]\nDCL OUT[1]\nDCL TEMP[0]\nIMM[0] FLT32 { -1.0, 2.0, 0.0, 0.0 }\n\
         0: MOV OUT[1], IMM[0].yyyy\n\
         1: EX2 TEMP[0], IN[0].xxxx\n2: ADD TEMP[0], TEMP[0], IMM[0].xxxx\n\
         3: IF TEMP[0].xxxx\n4: MOV OUT[0], IMM[0].yyyy\n5: ENDIF\n6: END\n",
    );
    let o = run_iv(&p, &one_input([0; 4]), "gpu");
    let ivs = o.intervals.as_ref().expect("intervals");
    assert_eq!(ivs.unconstrained, vec![true]);
    for reg in [0, 1] {
        let key = RegKey::new(File::Output, reg);
        assert_eq!(o.undefined[&key][0], 0xF);
        assert_eq!(ivs.channels[&key][0], [Interval::ANY; 4]);
    }
    let o = run_iv(&p, &one_input([0; 4]), "cpu");
    assert_eq!(
        o.intervals.as_ref().map(|i| i.unconstrained.clone()),
        Some(vec![false])
    );
}

#[test]
fn uif_on_inexact_bits_and_indirect_addresses_from_ranges_are_unconstrained() {
    // gpu EX2(0) ∈ [1 - 3·2^-24, 1 + 2^-23]: its bits are not known, so UIF on them and an
    // address ARL computes from floor(EX2(0)) ∈ {0, 1} are undetermined.
    let uif = parse(
        "VERT\nDCL IN[0]\nDCL OUT[0]\nDCL TEMP[0]\nIMM[0] FLT32 { 2.0, 0.0, 0.0, 0.0 }\n\
         0: EX2 TEMP[0], IN[0].xxxx\n1: UIF TEMP[0].xxxx\n2: MOV OUT[0], IMM[0].xxxx\n3: ENDIF\n4: END\n",
    );
    let arl = parse(
        "VERT\nDCL IN[0]\nDCL OUT[0]\nDCL TEMP[0..2]\nDCL ADDR[0]\nIMM[0] FLT32 { 2.0, 0.0, 0.0, 0.0 }\n\
         0: MOV TEMP[1], IMM[0].xxxx\n1: EX2 TEMP[0], IN[0].xxxx\n2: ARL ADDR[0].x, TEMP[0].xxxx\n\
         3: MOV OUT[0], TEMP[ADDR[0].x]\n4: END\n",
    );
    for p in [&uif, &arl] {
        let o = run_iv(p, &one_input([0; 4]), "gpu");
        assert_eq!(out0(&o).2, 0xF);
        // cpu: EX2(0) is exactly 1, nothing is undetermined.
        let o = run_iv(p, &one_input([0; 4]), "cpu");
        assert_eq!(out0(&o).2, 0);
    }
}

#[test]
fn kill_if_on_a_straddling_value_leaves_killed_unconstrained() {
    // gpu: EX2(0) - 1 may be below zero or not: KILL_IF may or may not kill. The comparator
    // then accepts either killed state (INTERFACE.md: killed invocations are not compared).
    use shaderdiff_compare::output::{compare, CompareOptions};
    let p = parse(
        "FRAG\nDCL IN[0], GENERIC[0], CONSTANT\nDCL OUT[0], COLOR\nDCL TEMP[0]\n\
         IMM[0] FLT32 { -1.0, 0.0, 0.0, 0.0 }\n\
         0: EX2 TEMP[0], IN[0].xxxx\n1: ADD TEMP[0], TEMP[0], IMM[0].xxxx\n\
         2: KILL_IF TEMP[0].xxxx\n3: MOV OUT[0], IN[0]\n4: END\n",
    );
    let mut i = one_input([0; 4]);
    i.invocations = 4;
    i.registers
        .insert(RegKey::new(File::Input, 0), vec![[0; 4]]);
    let o = run_iv(&p, &i, "gpu");
    assert_eq!(
        o.intervals.as_ref().map(|v| v.unconstrained.clone()),
        Some(vec![true; 4])
    );
    let mut engine = o.clone();
    engine.intervals = None;
    engine.killed = Some(vec![true, false, true, false]);
    let r = compare(
        &p,
        &o,
        "valhall",
        &engine,
        contract(),
        &CompareOptions::default(),
    )
    .expect("comparable");
    assert!(r.mismatches.is_empty(), "{:?}", r.mismatches);
    // cpu: EX2(0) - 1 = 0 exactly, not < 0: nobody is killed, and a kill is a mismatch.
    let o = run_iv(&p, &i, "cpu");
    assert_eq!(o.killed, Some(vec![false; 4]));
    let r = compare(
        &p,
        &o,
        "jit",
        &engine,
        contract(),
        &CompareOptions::default(),
    )
    .expect("comparable");
    assert_eq!(r.mismatches.len(), 2);
}

#[test]
fn conversion_of_a_range_across_an_integer_is_undefined() {
    // gpu SIN(0.5): |error| <= 2^-11 (Vulkan), so SIN(0.5)*2^11 spans more than one integer;
    // F2I of it is not determined. F2I of a range inside one integer cell is.
    let p = parse(
        "VERT\nDCL IN[0]\nDCL OUT[0]\nDCL TEMP[0]\nIMM[0] FLT32 { 2048.0, 0.25, 0.0, 0.0 }\n\
         0: SIN TEMP[0], IN[0].xxxx\n1: MUL TEMP[0], TEMP[0], IMM[0].xxxx\n\
         2: F2I OUT[0].x, TEMP[0]\n3: F2I OUT[0].y, IMM[0].yyyy\n4: END\n",
    );
    let (_, _, und) = out0(&run_iv(&p, &one_input([0.5f32.to_bits(), 0, 0, 0]), "gpu"));
    assert_eq!(und & 0x3, 0x1);
}

#[test]
fn gpu_class_accepts_flushed_denormals() {
    // Vulkan: denormal inputs and results of float arithmetic may be flushed to zero.
    // 2^-140 * 1 = 2^-140 exactly; a flushing engine may return ±0.
    let tiny = f32::from_bits(0x0000_0200); // 2^-140
    let p = parse("VERT\nDCL IN[0]\nDCL OUT[0]\n0: MUL OUT[0], IN[0].xxxx, IN[0].yyyy\n1: END\n");
    let i = one_input([tiny.to_bits(), 1.0f32.to_bits(), 0, 0]);
    let (_, iv, _) = out0(&run_iv(&p, &i, "gpu"));
    let set = Iv::from_bits(iv[0].lo, iv[0].hi, iv[0].nan);
    assert!(set.contains(0.0) && set.contains(-0.0) && set.contains(tiny));
    let (_, iv, _) = out0(&run_iv(&p, &i, "cpu"));
    assert_eq!(iv[0], Interval::exact(tiny.to_bits()));
}

fn inputs_for(p: &Program, words: &[u32]) -> Inputs {
    let invocations = 8;
    let mut inputs = Inputs {
        invocations,
        ..Inputs::default()
    };
    let mut w = words.iter().copied().cycle();
    for d in &p.declarations {
        for i in d.first..=d.last {
            let key = RegKey::new(d.file, i);
            match d.file {
                File::Input => {
                    let v = (0..invocations)
                        .map(|_| [0; 4].map(|_| w.next().unwrap_or(0)))
                        .collect();
                    inputs.registers.insert(key, v);
                }
                File::Const => {
                    inputs
                        .constants
                        .insert(key, [0; 4].map(|_| w.next().unwrap_or(0)));
                }
                _ => {}
            }
        }
    }
    inputs
}

fn contains(iv: Interval, v: u32) -> bool {
    Iv::from_bits(iv.lo, iv.hi, iv.nan).contains(f32::from_bits(v))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    /// The oracle is an engine of every class: its values lie in its own intervals, the
    /// interval run changes no defined value, and only adds undefined channels.
    #[test]
    fn oracle_values_lie_in_their_intervals(
        p in tgsi_program(GenConfig::default(), 300),
        words in prop::collection::vec(prop_oneof![
            any::<u32>(),
            Just(0u32), Just(0x8000_0000), Just(0x7fc0_0000), Just(0x7f80_0000),
            Just(0xff80_0000), Just(1), Just(0x8000_0001), Just(0xffff_ffff), Just(0x3f80_0000),
            Just(0x3f00_0000), Just(0x4000_0000), Just(0xbf80_0000), Just(0x4049_0fdb)
        ], 1..64),
    ) {
        let inputs = inputs_for(&p, &words);
        let config = InterpConfig { step_limit: 20_000 };
        let plain = match run(&p, &inputs, &config) {
            Ok(o) => o,
            Err(ExecError::Unsupported { .. }) | Err(ExecError::StepLimit { .. }) => return Ok(()),
            Err(e) => return Err(TestCaseError::fail(format!("unexpected error: {e}"))),
        };
        for cls in ["cpu", "gpu"] {
            let o = run_with_intervals(&p, &inputs, &config, contract(), class(cls))
                .map_err(|e| TestCaseError::fail(format!("{cls}: {e}")))?;
            prop_assert_eq!(o.registers.keys().collect::<Vec<_>>(), plain.registers.keys().collect::<Vec<_>>());
            for (key, vals) in &o.registers {
                // Undefined channels may hold any value (a vote whose thread grouping
                // decides it: oracle/src/interp/vote.rs); the defined ones must not move.
                for (i, (v, w)) in vals.iter().zip(&plain.registers[key]).enumerate() {
                    let und = o.undefined.get(key).map_or(0, |u| u[i]);
                    for c in (0..4).filter(|c| und >> c & 1 == 0) {
                        prop_assert_eq!(v[c], w[c], "{:?}[{}].{}", key, i, c);
                    }
                }
            }
            prop_assert_eq!(&o.killed, &plain.killed);
            let ivs = o.intervals.as_ref().expect("intervals");
            prop_assert_eq!(ivs.unconstrained.len(), 8);
            for (key, vals) in &o.registers {
                let list = &ivs.channels[key];
                for (i, v) in vals.iter().enumerate() {
                    let und = o.undefined.get(key).map_or(0, |u| u[i]);
                    let plain_und = plain.undefined.get(key).map_or(0, |u| u[i]);
                    prop_assert_eq!(und & plain_und, plain_und, "undefined channels stay undefined");
                    for c in 0..4 {
                        if und >> c & 1 == 0 {
                            prop_assert!(contains(list[i][c], v[c]),
                                "{cls} {key} inv {i} ch {c}: {:#010x} not in {:?}", v[c], list[i][c]);
                        } else {
                            prop_assert_eq!(list[i][c], Interval::ANY);
                        }
                    }
                }
            }
        }
    }
}

/// Bits of the acceptance set of a replicated scalar opcode under class `cls`.
fn scalar_bits(cls: &str, op: Opcode, args: &[f32]) -> Option<(u32, u32, bool)> {
    let env = Env::new(contract(), class(cls));
    let args: Vec<Iv> = args.iter().map(|&a| Iv::point(a)).collect();
    scalar(&env, op, &args).map(|r| (r.lo.to_bits(), r.hi.to_bits(), r.nan))
}

#[test]
fn gpu_bounds_by_hand() {
    // LG2(1) = 0, inside [0.5, 2]: absolute error < 2^-21 → [-2^-21, 2^-21].
    assert_eq!(
        scalar_bits("gpu", Opcode::LG2, &[1.0]),
        Some((0xb500_0000, 0x3500_0000, false))
    );
    // LG2(4) = 2, outside [0.5, 2]: 3 ULP; Vulkan ulp(2) = 2^-23 (gap below 2):
    // [2 - 3·2^-23, 2 + 3·2^-23] → 0x3ffffffd .. 0x40000001 (above 2 floats are 2^-22 apart).
    assert_eq!(
        scalar_bits("gpu", Opcode::LG2, &[4.0]),
        Some((0x3fff_fffd, 0x4000_0001, false))
    );
    // SIN(4) lies outside [-π, π]: Vulkan states no bound.
    let any = Iv::ANY;
    let any = Some((any.lo.to_bits(), any.hi.to_bits(), true));
    assert_eq!(scalar_bits("gpu", Opcode::SIN, &[4.0]), any);
    // DIV(1, 2^-127): |y| below 2^-126, no bound. DIV(1, 3): 1/3 = 11184810.67·2^-25, so
    // [1/3 - 2.5·2^-25, 1/3 + 2.5·2^-25] holds 11184809..11184813 ·2^-25, i.e. rn(1/3) =
    // 0x3eaaaaab ± 2.
    assert_eq!(
        scalar_bits("gpu", Opcode::DIV, &[1.0, f32::from_bits(0x0040_0000)]),
        any
    );
    assert_eq!(
        scalar_bits("gpu", Opcode::DIV, &[1.0, 3.0]),
        Some((0x3eaa_aaa9, 0x3eaa_aaad, false))
    );
    // Vulkan: "Dividing a non-zero by a zero results in the appropriately signed infinity."
    assert_eq!(
        scalar_bits("gpu", Opcode::DIV, &[-2.0, 0.0]),
        Some((0xff80_0000, 0xff80_0000, false))
    );
    // SQRT(4) inherited from 1/inversesqrt: RSQ(4) = 0.5 ± 2 ulp (ulp(0.5) = 2^-25) gives
    // [0.5 - 2^-24, 0.5 + 2^-24]; 1/that spans 2 ∓ 2^-22, ± 2.5 ulp (2^-22 at the top):
    // F = [2 - 6·2^-23, 2 + 3·2^-22]; E = 6·2^-23 around sqrt(4) = 2:
    // [2 - 6·2^-23, 2 + 3·2^-22] = 0x3ffffffa .. 0x40000003.
    assert_eq!(
        scalar_bits("gpu", Opcode::SQRT, &[4.0]),
        Some((0x3fff_fffa, 0x4000_0003, false))
    );
    // POW(2, 3) inherited from exp2(3 × log2(2)): log2(2) = 1 ± 2^-21; × 3 (exact rounding)
    // = 3 ± 6·2^-22; exp2 of that is 8 ± 8.318·2^-20 (8·3·ln2·2^-21), widened by
    // 3 + 2·3.0000014 ULP (2^-21 below 8, 2^-20 above): F = [8 - 25·2^-21, 8 + 17·2^-20];
    // E = 17·2^-20 around 8: [8 - 34·2^-21, 8 + 17·2^-20] = 0x40ffffde .. 0x41000011.
    assert_eq!(
        scalar_bits("gpu", Opcode::POW, &[2.0, 3.0]),
        Some((0x40ff_ffde, 0x4100_0011, false))
    );
    // C99 pow(x, 0) = 1 for a NaN x on the cpu class (oracle semantics, EXEC-NOTES §3);
    // gpu: exp2(0 × log2(NaN)) may be NaN, so anything goes.
    assert_eq!(
        scalar_bits("cpu", Opcode::POW, &[f32::NAN, 0.0]),
        Some((0x3f80_0000, 0x3f80_0000, false))
    );
    assert_eq!(scalar_bits("gpu", Opcode::POW, &[f32::NAN, 0.0]), any);
}

#[test]
fn integer_opcodes_on_arithmetic_nan_bits_are_undetermined() {
    // EXEC-NOTES §0 "NaN bit patterns": x86 keeps or makes 0xFFC00000, GPUs usually make
    // 0x7FC00000, and rounding may quiet a signaling NaN — the bits of a NaN computed by
    // float arithmetic are not specified, so NOT of them is not either. A MOV keeps bits.
    let snan = 0xffbf_ffffu32;
    for (op, undefined) in [("CEIL", 0x1), ("ADD", 0x1), ("MOV", 0x0)] {
        let second = if op == "ADD" { ", IN[0]" } else { "" };
        let p = parse(&format!(
            "VERT\nDCL IN[0]\nDCL OUT[0]\nDCL TEMP[0]\n0: {op} TEMP[0], IN[0]{second}\n\
             1: NOT OUT[0].x, TEMP[0]\n2: END\n"
        ));
        for cls in ["cpu", "gpu"] {
            let (_, _, und) = out0(&run_iv(&p, &one_input([snan, 0, 0, 0]), cls));
            assert_eq!(und & 1, undefined, "{op} {cls}");
        }
    }
}

/// precision.toml LRP (`fused_or_unfused`): "a*b + (1-a)*c ... unfused or with one product
/// fused". With a = b = c = 3e20 the unfused form is inf + (-inf) = NaN (IEEE 754), but
/// fusing a*b gives exact 9e40 + rn((1-a)*c) = 9e40 + (-inf) = -inf: both are in the
/// contract, so a NaN oracle result must not shrink the set to "NaN only".
#[test]
fn lrp_nan_from_overflow_still_accepts_the_fused_result() {
    let p = parse("VERT\nDCL IN[0..2]\nDCL OUT[0]\nLRP OUT[0], IN[0], IN[1], IN[2]\nEND\n");
    let x = 3e20f32;
    let fused = x.mul_add(x, (1.0 - x) * x);
    assert_eq!(fused, f32::NEG_INFINITY);
    let mut i = one_input([x.to_bits(); 4]);
    for k in 1..3 {
        i.registers
            .insert(RegKey::new(File::Input, k), vec![[x.to_bits(); 4]]);
    }
    for class_name in ["cpu", "gpu"] {
        let (v, iv, _) = out0(&run_iv(&p, &i, class_name));
        assert!(
            f32::from_bits(v[0]).is_nan(),
            "the oracle computes unfused: NaN"
        );
        assert!(iv[0].nan, "{class_name}: NaN accepted");
        let lo = f32::from_bits(iv[0].lo);
        assert!(
            lo == f32::NEG_INFINITY,
            "{class_name}: -inf accepted, got {iv:x?}"
        );
    }
}

/// The same LRP through a TEMP and a MOV (tgsi.rst MOV copies the value): the moved set
/// keeps the fused result, even though the other channels of the TEMP hold NaNs whose bits
/// are undetermined (0 * NaN).
#[test]
fn a_moved_lrp_nan_keeps_the_fused_result() {
    let p = parse(
        "VERT\nDCL TEMP[1]\nDCL OUT[0]\n\
         IMM[0] FLT32 {0.0, 0.0, 3.9614081e28, 0.0}\n\
         IMM[1] FLT32 {0.0, nan(0x3fffff), 3.9614081e28, 0.0}\n\
         LRP TEMP[1], IMM[0], IMM[1], IMM[0]\nMOV OUT[0], TEMP[1]\nEND\n",
    );
    let x = 3.961_408_1e28f32;
    assert_eq!(x.mul_add(x, (1.0 - x) * x), f32::NEG_INFINITY);
    let none = Inputs {
        invocations: 1,
        ..Inputs::default()
    };
    let (v, iv, _) = out0(&run_iv(&p, &none, "gpu"));
    assert!(f32::from_bits(v[2]).is_nan());
    assert!(iv[2].nan);
    assert_eq!(f32::from_bits(iv[2].lo), f32::NEG_INFINITY, "{iv:x?}");
}
