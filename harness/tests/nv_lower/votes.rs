//! Table X.13 rows TGALL, TGANY and TGEQ (NV_gpu_program5 §2.X.8.Z) for every data type,
//! on every engine. Expected values come from the sections' pseudo-code: each component is
//! compared to zero in the data type (float: -0.0 is zero, NaN is not); TGALL is TRUE when
//! every active thread's component is non-zero, TGANY when any is, TGEQ when `tgall ==
//! tgany` (every thread's test the same); TRUE is 1.0 (F), -1 (S), 0xFFFFFFFF (U), FALSE 0.
//! The grouping of threads is undefined, so results that depend on it are undefined (the
//! oracle reports them so; README "Thread groups") and only unanimous cases have values.

use shaderdiff_backends::{engine, EngineConfig, ENGINE_NAMES};
use shaderdiff_nv as nv;

use super::support::{f, named_inputs};

/// Per engine, per invocation: `result.color` and the oracle's undefined channel bits.
type Runs = Vec<(&'static str, Vec<[u32; 4]>, Vec<u8>)>;

/// Runs the fragment program `text` with `fragment.texcoord[0]` = `tc[l]` for invocation
/// `l` on every engine (oracle first).
fn run(text: &str, tc: &[[u32; 4]]) -> Runs {
    let p = nv::parse(text, "t.nvfp").expect("parses");
    let l = nv::lower(&p).expect("lowers");
    shaderdiff_model::validate::validate(&l.program, "lowered").expect("valid IR");
    let (inputs, unknown) = named_inputs(&l, &[("fragment.texcoord[0]", tc.to_vec())], tc.len());
    assert!(unknown.is_empty(), "{unknown:?}");
    let (file, index) = l
        .names
        .lookup(l.stage, "result.color")
        .expect("result.color");
    let key = shaderdiff_oracles::RegKey::new(file, index);
    ENGINE_NAMES
        .iter()
        .map(|&name| {
            let e = engine(name, &EngineConfig::default()).expect("engine");
            let out = e
                .execute(&l.program, &inputs)
                .unwrap_or_else(|err| panic!("{name}: {err}"));
            let und = out.undefined.get(&key).cloned().unwrap_or_default();
            (name, out.registers[&key].clone(), und)
        })
        .collect()
}

/// Every invocation's `result.color` is `want` on every engine (`None`: the oracle reports
/// the channel undefined).
fn check(runs: &Runs, want: &[Option<u32>; 4]) {
    let oracle_und = &runs[0].2;
    for (name, vals, _) in runs {
        for (l, v) in vals.iter().enumerate() {
            let und = oracle_und.get(l).copied().unwrap_or(0);
            for (c, w) in want.iter().enumerate() {
                match *w {
                    None => assert!(und >> c & 1 != 0, "invocation {l} channel {c} defined"),
                    Some(w) => {
                        assert_eq!(und >> c & 1, 0, "invocation {l} channel {c} undefined");
                        assert_eq!(v[c], w, "{name}: invocation {l} channel {c}: {:#x}", v[c]);
                    }
                }
            }
        }
    }
}

/// `TGALL`, `TGANY`, `TGEQ` of component x (with operand text `op`) into x, y, z of the
/// result; w = 0.
fn program(ty: &str, op: &str) -> String {
    format!(
        "!!NVfp5.0\nTEMP t;\nMOV.U t, {{0, 0, 0, 0}};\nTGALL.{ty} t.x, {op};\n\
         TGANY.{ty} t.y, {op};\nTGEQ.{ty} t.z, {op};\nMOV.U result.color, t;\nEND\n"
    )
}

const X: &str = "fragment.texcoord[0].x";
const T_F: u32 = 0x3f80_0000;
const T_I: u32 = 0xffff_ffff;

/// Runs `program(ty, op)` with `x` in every one of 4 invocations and checks (TGALL,
/// TGANY, TGEQ) = `want`.
fn unanimous(ty: &str, op: &str, x: u32, want: [u32; 3]) {
    let runs = run(&program(ty, op), &[[x, 0, 0, 0]; 4]);
    check(
        &runs,
        &[Some(want[0]), Some(want[1]), Some(want[2]), Some(0)],
    );
}

#[test]
fn float_tests_compare_to_zero() {
    // -0.0 == 0.0: zero everywhere → TGALL FALSE, TGANY FALSE, TGEQ TRUE (tgall == tgany).
    unanimous("F", X, f(-0.0), [0, 0, T_F]);
    // NaN != 0.0: non-zero everywhere → all TRUE (1.0).
    unanimous("F", X, f(f32::NAN), [T_F, T_F, T_F]);
    unanimous("F", X, f(-2.5), [T_F, T_F, T_F]);
    // Operand modifiers apply before the test: -|x| of 2.5 is non-zero, |-0.0| zero.
    unanimous("F", &format!("-|{X}|"), f(2.5), [T_F, T_F, T_F]);
    unanimous("F", &format!("|{X}|"), f(-0.0), [0, 0, T_F]);
}

#[test]
fn integer_true_values_are_minus_one_and_all_ones() {
    // 0x80000000 is a non-zero integer (its float reading would be -0.0).
    unanimous("S", X, 0x8000_0000, [T_I, T_I, T_I]);
    unanimous("S", X, 0, [0, 0, T_I]);
    unanimous("U", X, 0xffff_ffff, [T_I, T_I, T_I]);
    unanimous("U", X, 0, [0, 0, T_I]);
    // Negating INT_MIN keeps it non-zero.
    unanimous("S", &format!("-{X}"), 0x8000_0000, [T_I, T_I, T_I]);
}

#[test]
fn tgeq_compares_the_zero_tests_not_the_values() {
    // Four different non-zero values: every test is "non-zero", so tgall == tgany == TRUE
    // (pseudo-code of §2.X.8.Z TGEQ) whatever the grouping.
    let tc = [
        [f(1.0), 1, 0, 0],
        [f(2.0), 2, 0, 0],
        [f(-3.0), 3, 0, 0],
        [f(f32::NAN), 4, 0, 0],
    ];
    check(
        &run(&program("F", X), &tc),
        &[Some(T_F), Some(T_F), Some(T_F), Some(0)],
    );
    let y = "fragment.texcoord[0].y";
    check(
        &run(&program("U", y), &tc),
        &[Some(T_I), Some(T_I), Some(T_I), Some(0)],
    );
}

#[test]
fn mixed_groups_are_undefined_unless_the_own_test_decides() {
    // Invocation 0 zero, the others non-zero: a group of one and a group of four give
    // different TGALL (for the non-zero ones), TGANY (for the zero one) and TGEQ (all).
    let tc = [[0, 0, 0, 0], [5, 0, 0, 0], [5, 0, 0, 0], [5, 0, 0, 0]];
    let runs = run(&program("S", X), &tc);
    let und = &runs[0].2;
    for (name, vals, _) in &runs {
        // Invocation 0's own zero fixes its TGALL at FALSE; the others' non-zero values fix
        // their TGANY at TRUE.
        assert_eq!(vals[0][0], 0, "{name}");
        for v in &vals[1..] {
            assert_eq!(v[1], T_I, "{name}");
        }
    }
    assert_eq!(
        und[0] & 0b0111,
        0b0110,
        "invocation 0: TGANY, TGEQ undefined"
    );
    for u in &und[1..] {
        assert_eq!(u & 0b0111, 0b0101, "TGALL, TGEQ undefined");
    }
}

#[test]
fn tgall_cc_selects_the_fast_path_as_in_issue_21() {
    // NV_gpu_program5 issue (21): "TGALL.S.CC cc.x, condition.x; IF NE.x; fast path ...".
    // The condition non-zero in every thread: NE holds, the fast path (1.0) runs; zero in
    // every thread: the slow path (2.0).
    let text = "!!NVfp5.0\nTEMP cc;\nTGALL.S.CC cc.x, fragment.texcoord[0].x;\nIF NE.x;\n\
                MOV result.color, {1, 1, 1, 1};\nELSE;\nMOV result.color, {2, 2, 2, 2};\n\
                ENDIF;\nEND\n";
    check(&run(text, &[[7, 0, 0, 0]; 4]), &[Some(f(1.0)); 4]);
    check(&run(text, &[[0, 0, 0, 0]; 4]), &[Some(f(2.0)); 4]);
}
