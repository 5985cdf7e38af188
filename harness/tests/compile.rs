//! End-to-end tests of `shaderdiff compile PROGRAM --backend valhall|jit --emit asm|hex|clif`
//! (INTERFACE.md "Commands"; exit statuses: 0 ok, 2 bad input or usage, 3 unsupported) and
//! of `run --backend jit`.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const BIN: &str = env!("CARGO_BIN_EXE_shaderdiff");

/// The reference pack: `$SHADERDIFF_SHARED`, else `../shared` beside the checkout.
fn example(name: &str) -> String {
    std::env::var_os("SHADERDIFF_SHARED")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared"))
        .join("spec/tgsi/examples")
        .join(name)
        .display()
        .to_string()
}

fn run(args: &[&str]) -> Output {
    Command::new(BIN)
        .args(args)
        .output()
        .expect("the shaderdiff binary starts")
}

fn code(o: &Output) -> i32 {
    o.status.code().expect("exited normally")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn scratch(name: &str, text: &str) -> String {
    let d = std::env::temp_dir().join(format!("shaderdiff-compile-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    let p = d.join(name);
    std::fs::write(&p, text).unwrap();
    p.display().to_string()
}

/// `--emit clif` prints one CLIF function (the whole program for every quad), exit 0.
#[test]
fn jit_emits_clif() {
    let o = run(&[
        "compile",
        &example("ex04.tgsi"),
        "--backend",
        "jit",
        "--emit",
        "clif",
    ]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.starts_with("function "), "{text}");
    assert!(text.contains("block0("), "{text}");
    assert!(text.trim_end().ends_with('}'), "{text}");
}

/// The jit emits CLIF only: asm and hex are unsupported (exit 3) with a one-line message.
#[test]
fn jit_asm_and_hex_are_unsupported() {
    for emit in ["asm", "hex"] {
        let o = run(&[
            "compile",
            &example("ex04.tgsi"),
            "--backend",
            "jit",
            "--emit",
            emit,
        ]);
        assert_eq!(code(&o), 3, "{emit}");
        assert!(stderr(&o).contains("jit emits clif"), "{}", stderr(&o));
        assert_eq!(stderr(&o).lines().count(), 1);
    }
}

/// `--backend valhall`: `--emit asm` prints one instruction per line in the syntax of
/// Mesa's assembler-cases.txt and `--emit hex` the same instructions as 8 hex bytes per
/// line: every asm line assembles to its hex line, the program ends with `.end`
/// (ISA.xml `Flow`), and `--emit clif` is the jit's (exit 3). The interpreter compiles
/// nothing (usage, 2).
#[test]
fn valhall_emits_asm_and_hex_and_interp_is_rejected() {
    let emit = |what: &str| {
        let o = run(&[
            "compile",
            &example("ex04.tgsi"),
            "--backend",
            "valhall",
            "--emit",
            what,
        ]);
        (
            code(&o),
            String::from_utf8_lossy(&o.stdout).into_owned(),
            stderr(&o),
        )
    };
    let (c, asm, e) = emit("asm");
    assert_eq!(c, 0, "{e}");
    let (c, hex, e) = emit("hex");
    assert_eq!(c, 0, "{e}");
    let asm: Vec<&str> = asm.lines().collect();
    let hex: Vec<&str> = hex.lines().collect();
    assert_eq!(asm.len(), hex.len());
    assert!(asm.len() > 10, "{asm:?}");
    for (a, h) in asm.iter().zip(&hex) {
        let bytes = shaderdiff_valhall::assemble(a).unwrap_or_else(|e| panic!("{a}: {e}"));
        assert_eq!(shaderdiff_valhall::format_hex(&bytes), *h, "{a}");
    }
    assert!(asm.last().is_some_and(|l| l.contains(".end")), "{asm:?}");
    assert_eq!(emit("clif").0, 3);
    let o = run(&[
        "compile",
        &example("ex04.tgsi"),
        "--backend",
        "interp",
        "--emit",
        "clif",
    ]);
    assert_eq!(code(&o), 2);
}

/// A program the jit does not run (TXP on a CUBEARRAY texture: outside the texture model): exit 3
/// naming file:line:col; a syntax error: exit 2.
#[test]
fn unsupported_and_invalid_programs() {
    let tex = scratch(
        "tex.tgsi",
        "FRAG\nDCL IN[0], GENERIC[0], LINEAR\nDCL OUT[0], COLOR\nDCL SAMP[0]\n\
         DCL SVIEW[0], CUBEARRAY, FLOAT\nTXP OUT[0], IN[0], SAMP[0], CUBEARRAY\nEND\n",
    );
    let o = run(&["compile", &tex, "--backend", "jit", "--emit", "clif"]);
    assert_eq!(code(&o), 3);
    assert!(stderr(&o).contains("tex.tgsi:6:1:"), "{}", stderr(&o));
    assert!(o.stdout.is_empty());
    let bad = scratch("bad.tgsi", "VERT\nFOO\n");
    let o = run(&["compile", &bad, "--backend", "jit", "--emit", "clif"]);
    assert_eq!(code(&o), 2);
    assert!(stderr(&o).contains("bad.tgsi:2:1:"), "{}", stderr(&o));
}

/// `run --backend jit` of an endless loop stops with the step limit: exit 1.
#[test]
fn run_on_jit_step_limit_is_exit_1() {
    let p = scratch("loop.tgsi", "VERT\nBGNLOOP\nENDLOOP\nEND\n");
    let o = run(&["run", &p, "--backend", "jit", "--step-limit", "1000"]);
    assert_eq!(code(&o), 1, "{}", stderr(&o));
    assert!(stderr(&o).contains("step limit"), "{}", stderr(&o));
}
