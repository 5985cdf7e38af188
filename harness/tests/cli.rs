//! End-to-end tests of the `shaderdiff` binary: exit statuses, one-line messages and
//! output shapes as INTERFACE.md states them, and run results whose expected values come
//! from the specification pack (cited next to each table).

mod common;
use common::Scratch;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::{json, Value};

const BIN: &str = env!("CARGO_BIN_EXE_shaderdiff");

/// The reference pack: `$SHADERDIFF_SHARED`, else `../shared` beside the checkout.
fn shared() -> PathBuf {
    std::env::var_os("SHADERDIFF_SHARED")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared"))
}

fn example(name: &str) -> PathBuf {
    shared().join("spec/tgsi/examples").join(name)
}

fn repo(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(path)
}

fn run(args: &[&str]) -> Output {
    Command::new(BIN)
        .args(args)
        .output()
        .expect("the shaderdiff binary starts")
}

fn status(o: &Output) -> i32 {
    o.status.code().expect("exited normally")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// A scratch directory for one test.
/// Exactly one line on stderr, no panic text.
fn one_line_error(o: &Output) -> String {
    let e = stderr(o);
    assert_eq!(e.lines().count(), 1, "one-line error expected, got: {e:?}");
    assert!(
        !e.contains("panicked") && !e.contains("RUST_BACKTRACE"),
        "{e}"
    );
    e.trim_end().to_string()
}

#[test]
fn check_accepts_valid_programs() {
    let ex01 = example("ex01.tgsi").display().to_string();
    let ex04 = example("ex04.tgsi").display().to_string();
    let o = run(&["check", &ex01, &ex04]);
    assert_eq!(status(&o), 0, "{}", stderr(&o));
    // ex01 is VERT with 3 instructions (TEXT-FORMAT.md §12), ex04 VERT with 17.
    assert_eq!(
        stdout(&o),
        format!("{ex01}: ok (VERT, 3 instructions)\n{ex04}: ok (VERT, 17 instructions)\n")
    );
}

#[test]
fn check_print_is_the_tgsi_dump_form() {
    // TEXT-FORMAT.md §12: the example files are byte-identical to what tgsi_dump printed
    // (exNN.expected-dump.txt), except ex12.
    for n in ["ex01", "ex04", "ex08"] {
        let o = run(&[
            "check",
            "--print",
            &example(&format!("{n}.tgsi")).display().to_string(),
        ]);
        assert_eq!(status(&o), 0, "{n}: {}", stderr(&o));
        let want = std::fs::read_to_string(example(&format!("{n}.expected-dump.txt"))).unwrap();
        assert_eq!(stdout(&o), want, "{n}");
    }
}

#[test]
fn check_print_is_idempotent_on_the_corpus() {
    // INTERFACE.md: "checking that output again gives the same program".
    let s = Scratch::new("idem");
    for name in [
        "Grima04_mesa-turnip-kgsl_frag-lit_sh.tgsi",
        "aerisarn_mesa-uwp_pp_mlaa_h_L46.tgsi",
        "Grima04_mesa-turnip-kgsl_gs-test_c_L262.tgsi",
    ] {
        let path = shared().join("corpus/tgsi").join(name);
        let once = run(&["check", "--print", &path.display().to_string()]);
        assert_eq!(status(&once), 0, "{name}: {}", stderr(&once));
        let p = s.file("once.tgsi", &stdout(&once));
        let twice = run(&["check", "--print", &p]);
        assert_eq!(status(&twice), 0, "{name}: {}", stderr(&twice));
        assert_eq!(stdout(&once), stdout(&twice), "{name}");
    }
}

#[test]
fn bad_program_is_status_2_with_line_and_column() {
    let s = Scratch::new("badprog");
    let p = s.file(
        "bad.tgsi",
        "FRAG\nDCL OUT[0], COLOR\n  0: FOO OUT[0], IN[0]\n  1: END\n",
    );
    for cmd in [vec!["check", p.as_str()], vec!["run", p.as_str()]] {
        let o = run(&cmd);
        assert_eq!(status(&o), 2, "{cmd:?}");
        let e = one_line_error(&o);
        // The unknown opcode is on line 3.
        assert!(e.starts_with(&format!("{p}:3:")), "{e}");
        let col = e[p.len() + 3..].split(':').next().unwrap();
        assert!(col.parse::<u32>().is_ok(), "{e}");
    }
}

#[test]
fn unreadable_and_garbage_programs_are_status_2() {
    let s = Scratch::new("garbage");
    let missing = s.0.join("missing.tgsi").display().to_string();
    let o = run(&["check", &missing]);
    assert_eq!(status(&o), 2);
    assert!(one_line_error(&o).starts_with(&format!("{missing}: cannot read")));
    for (name, text) in [
        ("empty.tgsi", ""),
        ("junk.tgsi", "\u{1}\u{2}[[[}}}\n"),
        ("nohdr.tgsi", "MOV OUT[0], IN[0]\n"),
    ] {
        let p = s.file(name, text);
        let o = run(&["check", &p]);
        assert_eq!(status(&o), 2, "{name}");
        assert!(one_line_error(&o).starts_with(&p), "{name}");
    }
    let p = s.0.join("latin1.tgsi");
    std::fs::write(&p, b"FRAG\n\xe9\n").unwrap();
    let o = run(&["check", &p.display().to_string()]);
    assert_eq!(status(&o), 2);
    assert!(one_line_error(&o).ends_with("latin1.tgsi:2:1: not UTF-8 text"));
}

#[test]
fn nv_assembly_checks_and_runs() {
    // INTERFACE.md: a first token starting with `!!` is NV assembly; `check` parses it
    // (`--print`: one statement per line), `run` lowers it to the IR (inputs keyed and
    // outputs named by the program's bindings), what the lowering does not support yet (here
    // a texture) is
    // "unsupported" (exit 3) with its line:col, and a syntax error is bad input (exit 2).
    let s = Scratch::new("nv");
    let p = s.file(
        "p.nv",
        "!!NVfp5.0\nMOV result.color, fragment.color;\nEND\n",
    );
    let o = run(&["check", &p]);
    assert_eq!(status(&o), 0, "{}", stderr(&o));
    assert_eq!(stdout(&o), format!("{p}: ok (!!NVfp5.0, 1 instructions)\n"));
    let o = run(&["check", "--print", &p]);
    assert_eq!(status(&o), 0, "{}", stderr(&o));
    let printed = stdout(&o);
    assert_eq!(
        printed,
        "!!NVfp5.0\nMOV result.color, fragment.color;\nEND\n"
    );
    let again = s.file("again.nv", &printed);
    assert_eq!(stdout(&run(&["check", "--print", &again])), printed);

    let inputs = s.file(
        "p.json",
        r#"{"invocations": 4, "registers": {"fragment.color": [1.5, "0x40000000", "i:-3", 0]}}"#,
    );
    for engine in ["interp", "jit", "valhall"] {
        let o = run(&[
            "run",
            &p,
            "--inputs",
            &inputs,
            "--format",
            "json",
            "--backend",
            engine,
        ]);
        assert_eq!(status(&o), 0, "{engine}: {}", stderr(&o));
        let v: Value = serde_json::from_str(&stdout(&o)).unwrap();
        // 1.5 = 0x3fc00000; -3 = 0xfffffffd (MOV copies bits).
        let row = json!(["0x3fc00000", "0x40000000", "0xfffffffd", "0x00000000"]);
        assert_eq!(
            v["registers"]["result.color"],
            json!([row, row, row, row]),
            "{engine}"
        );
    }
    let o = run(&["run", &p, "--inputs", &inputs]);
    assert!(stdout(&o).contains("\nresult.color  "), "{}", stdout(&o));
    let unknown = s.file(
        "u.json",
        r#"{"registers": {"fragment.texcoord[3]": [1, 0, 0, 0]}}"#,
    );
    // INTERFACE.md: a binding of the stage that the program does not read is accepted with
    // one note on stderr; a name that is no binding at all is bad input.
    let o = run(&["run", &p, "--inputs", &unknown]);
    assert_eq!(status(&o), 0, "{}", String::from_utf8_lossy(&o.stderr));
    assert!(String::from_utf8_lossy(&o.stderr)
        .contains("note: the program does not read fragment.texcoord[3]"));
    let bogus = s.file(
        "b.json",
        r#"{"registers": {"fragment.bogus[3]": [1, 0, 0, 0]}}"#,
    );
    let o = run(&["run", &p, "--inputs", &bogus]);
    assert_eq!(status(&o), 2);
    assert!(one_line_error(&o).contains("unknown register \"fragment.bogus[3]\""));

    let cc = s.file(
        "cc.nv",
        "!!NVfp5.0\nTEMP t;\nMOV.F t, 0;\n  TEX t, fragment.color, texture[0], SHADOWARRAYCUBE;\nEND\n",
    );
    for cmd in ["run", "diff"] {
        let o = run(&[cmd, &cc]);
        assert_eq!(status(&o), 3, "{cmd}: {}", stderr(&o));
    }
    let o = run(&["run", &cc]);
    assert_eq!(
        one_line_error(&o),
        format!(
            "{cc}:4:3: unsupported: TEX: SHADOWARRAYCUBE targets are outside the texture model \
             (1D, 2D, 3D, RECT, ARRAY1D, ARRAY2D, BUFFER, 2DMS, ARRAY2DMS, CUBE, ARRAYCUBE and the \
             SHADOW forms but SHADOWARRAYCUBE)"
        )
    );

    // `MOV` with one operand: the `;` at line 2, column 10 is where `,` was expected.
    let bad = s.file("bad.nv", "!!NVfp5.0\nMOV R0.x;\nEND\n");
    let bad_undeclared = s.file("bad2.nv", "!!NVfp5.0\nTEMP R0;\nMOV R0.x;\nEND\n");
    for cmd in ["check", "run"] {
        let o = run(&[cmd, &bad]);
        assert_eq!(status(&o), 2, "{cmd}");
        assert_eq!(
            one_line_error(&o),
            format!("{bad}:2:5: `R0` is not declared"),
            "{cmd}"
        );
        let o = run(&[cmd, &bad_undeclared]);
        assert_eq!(status(&o), 2, "{cmd}");
        assert_eq!(
            one_line_error(&o),
            format!("{bad_undeclared}:3:9: expected `,`, found `;`"),
            "{cmd}"
        );
    }
}

#[test]
fn valhall_backend_runs_and_unknown_backends_are_usage_errors() {
    // The valhall engine prints the same table as the oracle for ex01 (exact opcodes),
    // apart from the header line naming the engine.
    let ex01 = example("ex01.tgsi").display().to_string();
    let v = run(&["run", &ex01, "--backend", "valhall"]);
    assert_eq!(status(&v), 0, "{}", String::from_utf8_lossy(&v.stderr));
    let i = run(&["run", &ex01, "--backend", "interp"]);
    let body = |o: &std::process::Output| {
        String::from_utf8_lossy(&o.stdout)
            .lines()
            .skip(1)
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert_eq!(body(&v), body(&i));
    assert!(String::from_utf8_lossy(&v.stdout)
        .lines()
        .next()
        .unwrap_or("")
        .ends_with("on valhall"));
    // Not an engine name at all: usage error.
    assert_eq!(status(&run(&["run", &ex01, "--backend", "gpu"])), 2);
}

#[test]
fn jit_backend_runs_ex04_to_its_documented_result() {
    // TEXT-FORMAT.md §12 ex04: OUT[1] = (10.0, 3.0, 0, 0), on any engine.
    let (o, _) = ex04_json(&["--backend", "jit"]);
    assert_eq!(status(&o), 0, "{}", stderr(&o));
    let v: Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["backend"], "jit");
    let out1 = json!(["0x41200000", "0x40400000", "0x00000000", "0x00000000"]);
    assert_eq!(v["registers"]["OUT[1]"], json!([out1, out1, out1, out1]));
}

#[test]
fn usage_errors_and_help() {
    assert_eq!(status(&run(&[])), 2);
    assert_eq!(status(&run(&["check"])), 2);
    assert_eq!(status(&run(&["frobnicate"])), 2);
    assert_eq!(status(&run(&["run", "x.tgsi", "--invocations", "0"])), 2);
    assert_eq!(status(&run(&["run", "x.tgsi", "--format", "xml"])), 2);
    assert_eq!(status(&run(&["check", "--lossless", "x.tgsi"])), 2);
    let o = run(&["--help"]);
    assert_eq!(status(&o), 0);
    assert!(stdout(&o).contains("check") && stdout(&o).contains("run"));
    assert_eq!(status(&run(&["run", "--help"])), 0);
    let o = run(&["--version"]);
    assert_eq!(status(&o), 0);
    assert!(stdout(&o).starts_with("shaderdiff "));
}

/// `run --format json` of ex04 with no inputs file.
fn ex04_json(extra: &[&str]) -> (Output, String) {
    let ex04 = example("ex04.tgsi").display().to_string();
    let mut args = vec!["run", ex04.as_str(), "--format", "json"];
    args.extend_from_slice(extra);
    (run(&args), ex04)
}

#[test]
fn ex04_runs_to_its_documented_result() {
    // TEXT-FORMAT.md §12 "ex04 – loop with BRK and CONT": "tgsi_exec result:
    // OUT[1] = (10.0, 3.0, 0, 0)"; binary32 10.0 = 0x41200000, 3.0 = 0x40400000.
    // OUT[0] = IN[0], and unset inputs are zero (INTERFACE.md).
    let (o, ex04) = ex04_json(&[]);
    assert_eq!(status(&o), 0, "{}", stderr(&o));
    let v: Value = serde_json::from_str(&stdout(&o)).expect("valid JSON");
    let out1 = json!(["0x41200000", "0x40400000", "0x00000000", "0x00000000"]);
    let zero = json!(["0x00000000", "0x00000000", "0x00000000", "0x00000000"]);
    // INTERFACE.md "`run --format json` output": a VERT program has no `killed`, and
    // `undefined` is omitted when nothing is undefined.
    assert_eq!(
        v,
        json!({
            "backend": "interp",
            "program": ex04,
            "invocations": 4,
            "registers": {
                "OUT[0]": [zero, zero, zero, zero],
                "OUT[1]": [out1, out1, out1, out1],
            }
        })
    );
    let text = stdout(&o);
    let keys = [
        "\"backend\"",
        "\"program\"",
        "\"invocations\"",
        "\"registers\"",
    ];
    let at: Vec<usize> = keys.iter().map(|k| text.find(k).unwrap()).collect();
    assert!(at.windows(2).all(|w| w[0] < w[1]), "key order: {text}");
}

#[test]
fn invocations_flag_sets_the_count() {
    let (o, _) = ex04_json(&["--invocations", "3"]);
    assert_eq!(status(&o), 0, "{}", stderr(&o));
    let v: Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["invocations"], 3);
    assert_eq!(v["registers"]["OUT[1]"].as_array().unwrap().len(), 3);
}

#[test]
fn text_format_shows_hex_and_float() {
    let ex04 = example("ex04.tgsi").display().to_string();
    let o = run(&["run", &ex04]);
    assert_eq!(status(&o), 0, "{}", stderr(&o));
    let t = stdout(&o);
    assert!(
        t.starts_with(&format!("{ex04}: 4 invocations on interp\n")),
        "{t}"
    );
    // ex04: OUT[1] = (10.0, 3.0, 0, 0) (TEXT-FORMAT.md §12).
    assert!(t.contains("0x41200000 10 "), "{t}");
    assert!(t.contains("0x40400000 3 "), "{t}");
}

#[test]
fn undefined_channels_are_reported() {
    // tgsi.rst IDIV: "TBD: behavior for division by zero" -> undefined (INTERFACE.md names
    // IDIV by zero as the example). 7 / 2 = 3 (integer division); OUT[0].zw are never
    // written and stay zero.
    let s = Scratch::new("undef");
    let p = s.file(
        "idiv.tgsi",
        "VERT\nDCL OUT[0], POSITION\nIMM[0] INT32 {7, 0, 2, 0}\n  0: IDIV OUT[0].x, IMM[0].xxxx, IMM[0].yyyy\n  1: IDIV OUT[0].y, IMM[0].xxxx, IMM[0].zzzz\n  2: END\n",
    );
    let o = run(&["run", &p, "--format", "json", "--invocations", "2"]);
    assert_eq!(status(&o), 0, "{}", stderr(&o));
    let v: Value = serde_json::from_str(&stdout(&o)).unwrap();
    let mask = json!([true, false, false, false]);
    assert_eq!(v["undefined"], json!({ "OUT[0]": [mask, mask] }));
    assert_eq!(v["registers"]["OUT[0]"][1][1], "0x00000003");
    assert_eq!(v["registers"]["OUT[0]"][1][2], "0x00000000");
    let o = run(&["run", &p, "--invocations", "2"]);
    assert!(stdout(&o).contains("undef"), "{}", stdout(&o));
}

#[test]
fn quad_loop_example() {
    // examples/quad-loop.tgsi: the Mandelbrot escape-time loop z = z*z + c, at most
    // CONST[0].x = 16 iterations, leaving when |z|^2 > 4. The iteration counts for the 8
    // values of c in examples/quad-loop.inputs.json (16, 13, 5, 6 | 16, 5, 5, 3) were
    // computed independently of shaderdiff, in a Python emulation of binary32 arithmetic
    // of each step as tgsi.rst defines MUL/ADD/MAD (the same counts with MAD fused or
    // not). Invocations reaching 16 are killed. OUT[0].x = n/16; OUT[0].y = DDX_FINE
    // within the quad row (INTERFACE.md "Fragment quads": f(x+1) - f(x));
    // OUT[0].w = 1.0. Binary32: 0.8125 = 0x3f500000, 0.3125 = 0x3ea00000,
    // 0.375 = 0x3ec00000, 0.1875 = 0x3e400000, -0.1875 = 0xbe400000,
    // 0.0625 = 0x3d800000, -0.6875 = 0xbf300000, -0.125 = 0xbe000000.
    let prog = repo("examples/quad-loop.tgsi").display().to_string();
    let inputs = repo("examples/quad-loop.inputs.json").display().to_string();
    let o = run(&["run", &prog, "--inputs", &inputs, "--format", "json"]);
    assert_eq!(status(&o), 0, "{}", stderr(&o));
    let v: Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(
        v["killed"],
        json!([true, false, false, false, true, false, false, false])
    );
    let expected_xy: [(usize, &str, &str); 6] = [
        (1, "0x3f500000", "0xbe400000"),
        (2, "0x3ea00000", "0x3d800000"),
        (3, "0x3ec00000", "0x3d800000"),
        (5, "0x3ea00000", "0xbf300000"),
        (6, "0x3ea00000", "0xbe000000"),
        (7, "0x3e400000", "0xbe000000"),
    ];
    for (i, x, y) in expected_xy {
        let r = &v["registers"]["OUT[0]"][i];
        assert_eq!(
            (r[0].as_str(), r[1].as_str()),
            (Some(x), Some(y)),
            "invocation {i}"
        );
        assert_eq!(r[3], "0x3f800000", "invocation {i}");
    }
    assert!(v.get("undefined").is_none(), "{v}");
}

#[test]
fn inputs_file_errors_are_status_2_with_position() {
    let s = Scratch::new("inputs");
    let ex04 = example("ex04.tgsi").display().to_string();
    // ex04 declares IN[0] only (and is VERT: any count is fine).
    let cases: &[(&str, &str, &str)] = &[
        // malformed JSON: the stray `,` is on line 3, column 17
        (
            "bad.json",
            "{\n  \"invocations\": 4,\n  \"registers\": {,}\n}\n",
            ":3:17: key must be a string",
        ),
        (
            "mistyped.json",
            "{\"registers\": {\"IN[0]\": [\"i:abc\", 0, 0, 0]}}",
            ":1:26: IN[0]: invalid channel value \"i:abc\"",
        ),
        (
            "bool.json",
            "{\"registers\": {\"IN[0]\": [0, true, 0, 0]}}",
            ":1:29: IN[0]: found a boolean",
        ),
        (
            "unknown.json",
            "{\"registers\": {\"TEMP[7]\": [0, 0, 0, 0]}}",
            ":1:16: TEMP[7] is not an input",
        ),
        (
            "typo.json",
            "{\"registrs\": {}}",
            ": unknown field `registrs`",
        ),
        (
            "length.json",
            "{\"invocations\": 2, \"registers\": {\"IN[0]\": [[0, 0, 0, 0]]}}",
            "IN[0] has 1 vec4s but there are 2 invocations",
        ),
    ];
    for (name, text, needle) in cases {
        let f = s.file(name, text);
        let o = run(&["run", &ex04, "--inputs", &f]);
        assert_eq!(status(&o), 2, "{name}: {}", stderr(&o));
        let e = one_line_error(&o);
        assert!(e.starts_with(&f), "{name}: {e}");
        assert!(e.contains(needle), "{name}: {e}");
    }
    let o = run(&[
        "run",
        &ex04,
        "--inputs",
        &s.0.join("nope.json").display().to_string(),
    ]);
    assert_eq!(status(&o), 2);
    assert!(one_line_error(&o).contains("nope.json: cannot read"));
}

#[test]
fn fragment_invocations_must_be_quads() {
    let s = Scratch::new("quads");
    let ex03 = example("ex03.tgsi").display().to_string();
    let o = run(&["run", &ex03, "--invocations", "6"]);
    assert_eq!(status(&o), 2);
    assert_eq!(
        one_line_error(&o),
        "--invocations 6: fragment programs run in quads: the invocation count must be a multiple of 4, not 6"
    );
    let f = s.file("six.json", "{\"invocations\": 6}");
    let o = run(&["run", &ex03, "--inputs", &f]);
    assert_eq!(status(&o), 2);
    assert!(one_line_error(&o).starts_with(&format!("{f}:1:17: fragment programs run in quads")));
    let o = run(&["run", &ex03, "--invocations", "8", "--format", "json"]);
    assert_eq!(status(&o), 0, "{}", stderr(&o));
    let v: Value = serde_json::from_str(&stdout(&o)).unwrap();
    // FRAG: `killed` is present (INTERFACE.md), one entry per invocation.
    assert_eq!(v["killed"].as_array().map(Vec::len), Some(8));
}

#[test]
fn step_limit_is_a_failed_run() {
    // An endless loop: BGNLOOP/ENDLOOP with no BRK (tgsi.rst "BGNLOOP").
    let s = Scratch::new("steps");
    let p = s.file(
        "loop.tgsi",
        "VERT\nDCL OUT[0], POSITION\n  0: BGNLOOP\n  1: ENDLOOP\n  2: END\n",
    );
    let o = run(&["run", &p, "--step-limit", "1000"]);
    assert_eq!(status(&o), 1);
    let e = one_line_error(&o);
    assert!(e.starts_with(&format!("{p}: step limit exceeded")), "{e}");
}

#[test]
fn check_reports_every_file_and_ranks_the_status() {
    // INTERFACE.md exit statuses: `check` reports every file, TGSI and NV assembly alike
    // (both parse now, so nothing is unsupported), and bad input (2) decides the status;
    // every failing file gets its own line.
    let s = Scratch::new("rank");
    let good = example("ex01.tgsi").display().to_string();
    let bad = s.file("bad.tgsi", "VERT\n  0: NOPE\n");
    let nv = s.file("p.nv", "!!NVvp5.0\nEND\n");
    let bad_nv = s.file("bad.nv", "!!NVvp5.0\nNOPE;\nEND\n");
    let o = run(&["check", &good, &nv]);
    assert_eq!(status(&o), 0);
    assert!(stdout(&o).contains(&format!("{good}: ok")));
    assert!(stdout(&o).contains(&format!("{nv}: ok (!!NVvp5.0, 0 instructions)")));
    let o = run(&["check", &bad, &nv, &bad_nv, &good]);
    assert_eq!(status(&o), 2);
    assert_eq!(stderr(&o).lines().count(), 2, "{}", stderr(&o));
    assert!(
        stderr(&o).contains(&format!("{bad_nv}:2:1: ")),
        "{}",
        stderr(&o)
    );
}

#[test]
fn unsupported_opcodes_are_status_3_naming_them() {
    // INTERFACE.md: status 3 when the program is valid but uses something the engine does
    // not support; "the message names it". This corpus program uses SAMPLE (line 7), a
    // sampler-view instruction the interpreter does not implement.
    let p = shared()
        .join("corpus/tgsi/Grima04_mesa-turnip-kgsl_quad-sample_c_L137.tgsi")
        .display()
        .to_string();
    assert_eq!(status(&run(&["check", &p])), 0);
    let o = run(&["run", &p]);
    assert_eq!(status(&o), 3);
    let e = one_line_error(&o);
    assert!(e.starts_with(&format!("{p}:7:")), "{e}");
    assert!(
        e.contains("unsupported by interp") && e.contains("SAMPLE"),
        "{e}"
    );
}
