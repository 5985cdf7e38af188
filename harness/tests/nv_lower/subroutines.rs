//! CALI with SUBROUTINETYPE / SUBROUTINE declarations (ARB_shader_subroutine, §2.X.5 and
//! §2.X.8.Z CALI) on every engine, on the extension's own example: `Hero` = {superman,
//! wolverine, batman, robin}, `GothamHero` = {batman, robin}, SUBROUTINENUMs 0 batman,
//! 1 robin, 2 superman, 3 wolverine; "uint params[2] = {2, 0} would assign
//! program.subroutine[0] (and therefore anyHero) to superman, and program.subroutine[1]
//! (and therefore gothamHero) to batman". Each hero adds its own amount to `t`, so the
//! result names the heroes called.

use shaderdiff_backends::{engine, EngineConfig};
use shaderdiff_nv as nv;

use super::support::{check, named_inputs, run_named};

const HEROES: &str = "!!NVfp5.0\nSUBROUTINETYPE Hero { superman, wolverine };\n\
    SUBROUTINETYPE Hero { batman, robin };\nSUBROUTINETYPE GothamHero { batman, robin };\n\
    SUBROUTINE Hero anyHero = program.subroutine[0];\n\
    SUBROUTINE GothamHero gothamHero = program.subroutine[1];\nTEMP t;\n\
    batman SUBROUTINENUM(0):\nADD.U t.x, t.x, 1;\nRET;\n\
    robin SUBROUTINENUM(1):\nADD.U t.x, t.x, 10;\nRET;\n\
    superman SUBROUTINENUM(2):\nADD.U t.y, t.y, 100;\nRET;\n\
    wolverine SUBROUTINENUM(3):\nADD.U t.y, t.y, 1000;\nRET;\n\
    main:\nMOV.U t, {0, 0, 0, 0};\nMOV.U.CC t.w, program.local[0].x;\n\
    CALI anyHero (NE.w);\nCALI gothamHero;\nMOV.U result.color, t;\nEND\n";

fn params(any: u32, gotham: u32, local: u32) -> Vec<(String, Vec<[u32; 4]>)> {
    vec![
        ("program.subroutine[0]".into(), vec![[any, 0, 0, 0]]),
        ("program.subroutine[1]".into(), vec![[gotham, 0, 0, 0]]),
        ("program.local[0]".into(), vec![[local, 0, 0, 0]]),
    ]
}

#[test]
fn cali_calls_the_label_the_parameter_names() {
    // {2, 0}: superman (y += 100) then batman (x += 1).
    let all = run_named(HEROES, &params(2, 0, 1), 4);
    check(&all, "result.color", 0xF, [1, 100, 0, 1]);
    // {3, 1}: wolverine then robin.
    let all = run_named(HEROES, &params(3, 1, 1), 4);
    check(&all, "result.color", 0xF, [10, 1000, 0, 1]);
    // One label in two types: robin through both.
    let all = run_named(HEROES, &params(1, 1, 1), 4);
    check(&all, "result.color", 0xF, [20, 0, 0, 1]);
}

#[test]
fn a_false_condition_skips_the_call() {
    // program.local[0].x = 0: CC.w is EQ, `CALI anyHero (NE.w)` does nothing; gothamHero
    // (batman) still runs.
    let all = run_named(HEROES, &params(2, 0, 0), 4);
    check(&all, "result.color", 0xF, [1, 0, 0, 0]);
}

#[test]
fn a_parameter_outside_the_type_leaves_the_invocation_undefined() {
    // 5 is no SUBROUTINENUM; 2 (superman) is not a GothamHero: such values cannot be set
    // through the API (INVALID_OPERATION), so nothing about the invocation is defined.
    for (any, gotham) in [(5, 0), (0, 2)] {
        let p = nv::parse(HEROES, "t.nvfp").expect("parses");
        let l = nv::lower(&p).expect("lowers");
        let named = params(any, gotham, 1);
        let named: Vec<(&str, Vec<[u32; 4]>)> =
            named.iter().map(|(n, v)| (n.as_str(), v.clone())).collect();
        let (inputs, _) = named_inputs(&l, &named, 4);
        let e = engine("interp", &EngineConfig::default()).expect("engine");
        let out = e.execute(&l.program, &inputs).expect("runs");
        let (f, i) = l.names.lookup(l.stage, "result.color").expect("named");
        let und = &out.undefined[&shaderdiff_oracles::RegKey::new(f, i)];
        assert!(und.iter().all(|&m| m == 0xF), "({any}, {gotham}): {und:?}");
    }
}

#[test]
fn declaration_errors_are_located() {
    // A type's label without SUBROUTINENUM: invalid when CALI needs it.
    let text = "!!NVfp5.0\nSUBROUTINETYPE T { f };\nSUBROUTINE T v = program.subroutine[0];\n\
                f:\nRET;\nmain:\nCALI v;\nEND\n";
    let p = nv::parse(text, "t.nvfp").expect("parses");
    let e = nv::lower(&p).expect_err("invalid");
    assert!(matches!(e, nv::LowerError::Invalid { .. }), "{e}");
    assert!(e.to_string().contains("has no SUBROUTINENUM"), "{e}");
    assert_eq!((e.pos().line, e.pos().col), (7, 1), "{e}");
    // A type name already used by another variable.
    let text = "!!NVfp5.0\nTEMP T;\nSUBROUTINETYPE T { f };\nf SUBROUTINENUM(0):\nRET;\nEND\n";
    let e = nv::parse(text, "t.nvfp").expect_err("clash");
    assert!(e.to_string().contains("`T` is already declared"), "{e}");
}
