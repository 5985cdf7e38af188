//! The NV reducer's operand passes (compare/src/reduce/nv_operands.rs) and the clock budget
//! of reductions, on small fixed NV programs under `nv-condmask-swap-xy` ("a conditional
//! write mask writes .x where the test passes for .y and .y where it passes for .x"). With
//! condition codes whose x and y tests differ, a conditional write diverges; the expected
//! reduced forms are derived by hand in each test.

use std::cell::Cell;
use std::time::Duration;

use shaderdiff_compare::diff::{engines_from_names, Differ};
use shaderdiff_compare::reduce::nv::{reduce_nv, ReducedNv};
use shaderdiff_compare::reduce::{ClockBudget, ReduceOptions};
use shaderdiff_nv::NvProgram;
use shaderdiff_oracles::precision::NanPolicy;
use shaderdiff_oracles::{Inputs, RegKey};

const FAULT: &str = "nv-condmask-swap-xy";

fn jit_with_fault() -> Differ {
    let (engines, missing) = engines_from_names(&["jit".to_string()], 20_000, Some(FAULT));
    assert!(missing.is_empty(), "no jit in this build");
    Differ::new(engines, 20_000, NanPolicy::Any).unwrap()
}

/// One invocation; `attrib` sets `vertex.attrib[0]` (as signed integers).
fn inputs(p: &NvProgram, attrib: Option<[i32; 4]>) -> Inputs {
    let mut i = Inputs {
        invocations: 1,
        ..Default::default()
    };
    if let Some(v) = attrib {
        let l = shaderdiff_nv::lower(p).unwrap();
        let (file, dimension, index) = l.names.lookup_key(l.stage, "vertex.attrib[0]").unwrap();
        let key = RegKey {
            file,
            dimension,
            index,
        };
        i.registers.insert(key, vec![v.map(|c| c as u32)]);
    }
    i
}

fn reduce_with(text: &str, attrib: Option<[i32; 4]>, opts: &ReduceOptions) -> ReducedNv {
    let p = shaderdiff_nv::parse(text, "t.nv").unwrap();
    let i = inputs(&p, attrib);
    reduce_nv(&jit_with_fault(), 0, &p, &i, None, opts).unwrap()
}

/// The instruction lines of a program's canonical text.
fn insn_lines(p: &NvProgram) -> Vec<String> {
    let text = shaderdiff_nv::print(p);
    let q = shaderdiff_nv::parse(&text, "r.nv").expect("the reduced program parses back");
    assert_eq!(&q, p);
    let decl = |l: &str| {
        [
            "TEMP", "PARAM", "OUTPUT", "ATTRIB", "OPTION", "!!", "#", "END",
        ]
        .iter()
        .any(|k| l.starts_with(k))
    };
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !decl(l))
        .map(String::from)
        .collect()
}

/// `ADD u (LT), k, k; MOV result.attrib[0], u;`: the sum is written under the condition
/// and copied out. Retargeting writes it to the output directly and drops the copy; then
/// the first source becomes the literal 0 (0 + k.x = -1 and 0 + k.y = 2 still differ from
/// the output's initial 0, so the swapped test still shows), the second cannot become 0
/// (0 + 0 is the initial value: nothing diverges) but becomes 1 (0 + 1 = 1 on every
/// component, written where the swapped tests differ); a constant written under a
/// condition is then `MOV .. (LT), 1`. The flag update cannot go (without it no test
/// passes).
#[test]
fn a_copied_result_is_written_to_the_output_directly() {
    let text = "!!NVvp5.0
PARAM k = {-1, 2, -3, 4};
TEMP t, u;
MOV.F.CC t, k;
ADD.F u (LT), k, k;
MOV.F result.attrib[0], u;
END
";
    let r = reduce_with(text, None, &ReduceOptions::default());
    assert!(r.complete);
    assert_eq!(r.divergence.signature.to_string(), "jit-branch-none");
    assert_eq!(
        insn_lines(&r.program),
        ["MOV.F.CC t, k;", "MOV.F result.attrib[0] (LT), 1;"]
    );
}

/// `ADD.S b, a0, a0; MOV.S.CC t, b;` with a0 = (-1, 1, 0, 0): the flags of b decide the
/// conditional write. The ADD's first source becomes 0 (b = a0 keeps x < 0 <= y, so the
/// x and y tests still differ), its second cannot (b = 0: every test fails). The flag
/// update's source cannot be 0 either, so it becomes a fresh attribute carrying b's value,
/// (-1, 1, 0, 0), after which the ADD computes nothing anyone reads and goes.
#[test]
fn a_computed_source_becomes_a_fresh_attribute_with_its_value() {
    let text = "!!NVvp5.0
TEMP b, t;
ADD.S b, vertex.attrib[0], vertex.attrib[0];
MOV.S.CC t, b;
MOV.F result.attrib[0] (LT), 1;
END
";
    let r = reduce_with(text, Some([-1, 1, 0, 0]), &ReduceOptions::default());
    assert!(r.complete);
    assert_eq!(r.divergence.signature.to_string(), "jit-branch-none");
    assert_eq!(
        insn_lines(&r.program),
        [
            "MOV.S.CC t, vertex.attrib[1];",
            "MOV.F result.attrib[0] (LT), 1;"
        ]
    );
    assert_eq!(
        input_words(&r, "vertex.attrib[1]"),
        vec![[(-1i32) as u32, 1, 0, 0]]
    );
}

/// A partly written TEMP still becomes a fresh attribute: `b.x = a0.x + a0.x` with a0.x =
/// -4 is the only component of `b` ever written (NV TEMPs start undefined,
/// NV_gpu_program4 §2.X.3.4), and only `t.x` takes the flags of `b.x + 5` = -3. No source
/// of the first ADD can be a small literal (0, 1 or -1 for either gives b.x + 5 >= 0: the
/// x test fails like the y test, which stays ZF from `MOV.S.CC t, 0`), nor can `b` in the
/// flag update (5, 6 or 4); so `b` there becomes an attribute carrying its value, (-8, 0,
/// 0, 0): the undefined y, z, w as 0, the engines' start (INTERFACE.md). Then the first
/// ADD computes nothing anyone reads and goes. `MOV.S.CC t, 0` stays: without it CC.y is
/// undefined, the conditional write's test for y too, and the oracle leaves the
/// invocation unconstrained (nothing is compared).
#[test]
fn a_partly_written_temp_becomes_a_fresh_attribute() {
    let text = "!!NVvp5.0
TEMP b, t;
MOV.S.CC t, 0;
ADD.S b.x, vertex.attrib[0], vertex.attrib[0];
ADD.S.CC t.x, b, 5;
MOV.F result.attrib[0] (LT), 1;
END
";
    let r = reduce_with(text, Some([-4, 1, 0, 0]), &ReduceOptions::default());
    assert!(r.complete);
    assert_eq!(r.divergence.signature.to_string(), "jit-branch-none");
    assert_eq!(
        insn_lines(&r.program),
        [
            "MOV.S.CC t, 0;",
            "ADD.S.CC t.x, vertex.attrib[1], 5;",
            "MOV.F result.attrib[0] (LT), 1;"
        ]
    );
    assert_eq!(
        input_words(&r, "vertex.attrib[1]"),
        vec![[(-8i32) as u32, 0, 0, 0]]
    );
}

/// A source that must be nonzero becomes a small literal: with a0 = 2.0, `MUL.F t, a0,
/// a0` gives `t` = 4, whose flags (GT) only `u.x` takes, while `u.y` keeps EQ from `MOV.F.CC
/// u, 0`: the `(GT)` write passes for x and fails for y, which the swapped mask shows. The
/// MUL's sources cannot be 0 (t = 0: EQ, like y) but can be 1 (t = 2, then 1: still GT);
/// the flag update's source cannot be 0 but can be 1, after which nothing reads the MUL
/// and it goes. Before the literal 1 was tried, that source became a fresh attribute
/// carrying 4.0: one more input for the same finding.
#[test]
fn a_source_that_must_be_nonzero_becomes_the_literal_1() {
    let text = "!!NVvp5.0
TEMP t, u;
MOV.F.CC u, 0;
MUL.F t, vertex.attrib[0], vertex.attrib[0];
MOV.F.CC u.x, t;
MOV.F result.attrib[0] (GT), 1;
END
";
    let r = reduce_with(text, Some([0x4000_0000; 4]), &ReduceOptions::default());
    assert!(r.complete);
    assert_eq!(r.divergence.signature.to_string(), "jit-branch-none");
    assert_eq!(
        insn_lines(&r.program),
        [
            "MOV.F.CC u, 0;",
            "MOV.F.CC u.x, 1;",
            "MOV.F result.attrib[0] (GT), 1;"
        ]
    );
}

/// The words the reduced inputs give the NV binding `name` (the key its lowering maps it to).
fn input_words(r: &ReducedNv, name: &str) -> Vec<[u32; 4]> {
    let l = &r.lowered;
    let (file, dimension, index) = l.names.lookup_key(l.stage, name).unwrap();
    let key = RegKey {
        file,
        dimension,
        index,
    };
    r.inputs.registers[&key].clone()
}

thread_local! {
    static TICKS: Cell<u64> = const { Cell::new(0) };
}

/// A clock that advances one millisecond each time it is read (per thread).
fn ticking_clock() -> Duration {
    TICKS.with(|t| {
        t.set(t.get() + 1);
        Duration::from_millis(t.get())
    })
}

/// A clock budget ends the reduction however fast the wall clock runs: a budget of a few
/// clock readings stops it before its fixed point (the passes check the budget before
/// every candidate), a large one lets it reach the fixed point.
#[test]
fn a_clock_budget_stops_the_reduction() {
    let text = "!!NVvp5.0
PARAM k = {-1, 2, -3, 4};
TEMP t, u;
MOV.F.CC t, k;
ADD.F u (LT), k, k;
MOV.F result.attrib[0], u;
END
";
    let short = ReduceOptions {
        cpu: Some(ClockBudget::starting_now(
            ticking_clock,
            Duration::from_millis(3),
        )),
        ..ReduceOptions::default()
    };
    let r = reduce_with(text, None, &short);
    assert!(!r.complete);
    assert!(
        r.tests <= 4,
        "{} candidates after 3 clock readings",
        r.tests
    );
    let long = ReduceOptions {
        cpu: Some(ClockBudget::starting_now(
            ticking_clock,
            Duration::from_secs(3600),
        )),
        ..ReduceOptions::default()
    };
    let r = reduce_with(text, None, &long);
    assert!(r.complete);
    assert_eq!(insn_lines(&r.program).len(), 2);
}
