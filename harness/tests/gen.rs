//! End-to-end tests of `shaderdiff gen` (INTERFACE.md "Commands"): files written as
//! `DIR/NAME.tgsi` + `DIR/NAME.inputs.json`, programs that check, inputs files that read
//! back to exactly the generated inputs, byte-identical output from two processes with the
//! same seed, and the exit statuses 2 (bad usage) and 4 (unwritable); `gen --lang nv`
//! writes NV programs with NV-keyed inputs that `check` and `diff` accept, and
//! `gen --lang nv --spec` the spec-derived NV_gpu_program5 suite.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use shaderdiff::inputs;
use shaderdiff_generators::random::{generate, RandomConfig};
use shaderdiff_generators::spec::{suite, SpecConfig};
use shaderdiff_tgsi::parse;

const BIN: &str = env!("CARGO_BIN_EXE_shaderdiff");

fn run(args: &[&str]) -> Output {
    Command::new(BIN)
        .args(args)
        .output()
        .expect("the shaderdiff binary starts")
}

/// Runs the binary and requires exit status 0 (the message shows stdout and stderr).
fn run_ok(args: &[&str]) -> Output {
    let o = run(args);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{args:?}: {}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    o
}

/// A fresh, empty scratch directory for one test.
fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("shaderdiff-gen-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

/// Every file of `dir` by name.
fn files(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap())
        .map(|e| {
            (
                e.file_name().to_string_lossy().into_owned(),
                std::fs::read(e.path()).unwrap(),
            )
        })
        .collect()
}

#[test]
fn seeded_gen_writes_programs_and_inputs_that_read_back() {
    let dir = scratch("seeded");
    let o = run(&[
        "gen",
        "--seed",
        "3",
        "--count",
        "12",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let summary = String::from_utf8_lossy(&o.stdout);
    assert_eq!(summary.lines().count(), 1, "{summary}");
    assert!(summary.contains("12 programs"), "{summary}");
    let all = files(&dir);
    assert_eq!(all.len(), 24);
    let cfg = RandomConfig::default();
    for i in 0..12u64 {
        let name = format!("gen-3-{i:06}");
        let text = String::from_utf8(all[&format!("{name}.tgsi")].clone()).unwrap();
        let json = String::from_utf8(all[&format!("{name}.inputs.json")].clone()).unwrap();
        assert!(text.starts_with(&format!(
            "# shaderdiff-gen {} seed=3 index={i} mode=defined",
            shaderdiff_generators::GENERATOR_VERSION
        )));
        let g = generate(3, i, &cfg);
        let program = parse(&text, &name).unwrap();
        assert_eq!(program, g.program);
        let back = inputs::load(&json, "inputs.json", &program, None).unwrap();
        assert_eq!(back, g.inputs, "{name}");
        // `check` accepts the file and `run` accepts the pair.
        let path = dir.join(format!("{name}.tgsi"));
        let inp = dir.join(format!("{name}.inputs.json"));
        assert_eq!(
            run(&["check", path.to_str().unwrap()]).status.code(),
            Some(0)
        );
        let r = run(&[
            "run",
            path.to_str().unwrap(),
            "--inputs",
            inp.to_str().unwrap(),
            "--format",
            "json",
        ]);
        assert_eq!(
            r.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&r.stderr)
        );
        // Defined-only (the default): nothing undefined in the run.
        let v: serde_json::Value = serde_json::from_slice(&r.stdout).unwrap();
        assert!(v.get("undefined").is_none(), "{name}: {v}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn two_processes_with_the_same_seed_write_identical_files() {
    let (a, b) = (scratch("same-a"), scratch("same-b"));
    for d in [&a, &b] {
        let o = run(&[
            "gen",
            "--seed",
            "99",
            "--count",
            "20",
            "--start",
            "1000",
            "--allow-undefined",
            "--out",
            d.to_str().unwrap(),
        ]);
        assert_eq!(o.status.code(), Some(0));
    }
    let (fa, fb) = (files(&a), files(&b));
    assert_eq!(fa.len(), 40);
    assert!(fa.contains_key("gen-99-001019.tgsi"));
    assert_eq!(fa, fb);
    // And the files are what the library generates in this process.
    let cfg = RandomConfig::with_defined_only(false);
    let g = generate(99, 1005, &cfg);
    assert_eq!(fa["gen-99-001005.tgsi"], g.text.as_bytes());
    let _ = (std::fs::remove_dir_all(&a), std::fs::remove_dir_all(&b));
}

#[test]
fn spec_gen_writes_the_whole_suite() {
    let dir = scratch("spec");
    let o = run(&["gen", "--spec", "--out", dir.to_str().unwrap()]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let cases = suite(&SpecConfig::builtin());
    let all = files(&dir);
    assert_eq!(all.len(), 2 * cases.len());
    for c in &cases {
        let text = String::from_utf8(all[&format!("{}.tgsi", c.name)].clone()).unwrap();
        let json = String::from_utf8(all[&format!("{}.inputs.json", c.name)].clone()).unwrap();
        let program = parse(&text, &c.name).unwrap();
        assert_eq!(program, c.program, "{}", c.name);
        let back = inputs::load(&json, "inputs.json", &program, None).unwrap();
        assert_eq!(back, c.inputs, "{}", c.name);
    }
    // A few run through the CLI.
    for name in [
        "spec-add-edge",
        "spec-switch-default-middle",
        "spec-ddx-linear",
    ] {
        let r = run(&[
            "run",
            dir.join(format!("{name}.tgsi")).to_str().unwrap(),
            "--inputs",
            dir.join(format!("{name}.inputs.json")).to_str().unwrap(),
        ]);
        assert_eq!(
            r.status.code(),
            Some(0),
            "{name}: {}",
            String::from_utf8_lossy(&r.stderr)
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn gen_exit_statuses() {
    let dir = scratch("status");
    let d = dir.to_str().unwrap();
    // 2 = bad usage: no mode, --seed without --count, both modes, --count 0, --arb-only
    // without --lang nv, the random-program options with --spec.
    for args in [
        vec![
            "gen", "--lang", "nv", "--spec", "--seed", "1", "--count", "2", "--out", d,
        ],
        vec![
            "gen",
            "--lang",
            "nv",
            "--spec",
            "--invocations",
            "8",
            "--out",
            d,
        ],
        vec![
            "gen",
            "--lang",
            "nv",
            "--spec",
            "--max-instructions",
            "8",
            "--out",
            d,
        ],
        vec!["gen", "--lang", "tgsi", "--spec", "--arb-only", "--out", d],
        vec!["gen", "--lang", "nv", "--spec"],
        vec!["gen", "--out", d],
        vec!["gen", "--seed", "1", "--out", d],
        vec!["gen", "--seed", "1", "--count", "2", "--spec", "--out", d],
        vec!["gen", "--seed", "1", "--count", "0", "--out", d],
        vec!["gen", "--seed", "1", "--count", "1"],
    ] {
        assert_eq!(run(&args).status.code(), Some(2), "{args:?}");
    }
    // 4 = the run could not be carried out: the output cannot be written (the "directory"
    // is a file; INTERFACE.md keeps 1 for findings).
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("not-a-dir");
    std::fs::write(&file, "x").unwrap();
    let o = run(&[
        "gen",
        "--seed",
        "1",
        "--count",
        "1",
        "--out",
        file.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(4));
    assert!(String::from_utf8_lossy(&o.stderr).contains("not-a-dir"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// `gen --lang nv --seed S --count N` writes N NV programs (extension by header, geometry
/// and compute ones included) and N inputs files keyed by NV names; every program checks,
/// every pair runs through `diff` with all engines agreeing, and a second process writes
/// byte-identical files.
#[test]
fn gen_lang_nv_writes_checkable_programs_with_nv_inputs() {
    let a = scratch("nv-a");
    let b = scratch("nv-b");
    for dir in [&a, &b] {
        let o = run(&[
            "gen",
            "--lang",
            "nv",
            "--seed",
            "5",
            "--count",
            "12",
            "--out",
            dir.to_str().unwrap(),
        ]);
        assert_eq!(
            o.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&o.stderr)
        );
    }
    let fa = files(&a);
    assert_eq!(fa, files(&b), "same seed, same files");
    assert_eq!(fa.len(), 24);
    let programs: Vec<&String> = fa.keys().filter(|n| !n.ends_with(".inputs.json")).collect();
    assert_eq!(programs.len(), 12);
    for name in programs {
        let ext = name.rsplit('.').next().unwrap();
        assert!(
            ["nvfp", "nvvp", "nvgp", "nvcp", "arbfp", "arbvp"].contains(&ext),
            "{name}"
        );
        let text = String::from_utf8(fa[name].clone()).unwrap();
        let header = text.split_whitespace().next().unwrap();
        let want = match ext {
            "nvfp" => "!!NVfp5.0",
            "nvvp" => "!!NVvp5.0",
            "nvgp" => "!!NVgp5.0",
            "nvcp" => "!!NVcp5.0",
            "arbfp" => "!!ARBfp1.0",
            _ => "!!ARBvp1.0",
        };
        assert_eq!(header, want, "{name}");
        let stem = name.strip_suffix(&format!(".{ext}")).unwrap();
        let inputs = String::from_utf8(fa[&format!("{stem}.inputs.json")].clone()).unwrap();
        assert!(inputs.contains("\"program.local[0]\""), "{inputs}");
        // Attributes by stage: geometry programs' per-vertex `vertex[m].attrib[k]`;
        // compute programs have none, and their results go to the `global` region or a
        // STORAGE buffer.
        let attribute = match ext {
            "nvgp" => inputs.contains("].attrib["),
            "nvcp" => inputs.contains("\"global\"") || inputs.contains("\"program.storage["),
            _ => {
                inputs.contains("\"vertex.attrib[0]\"")
                    || inputs.contains("\"fragment.texcoord[0]\"")
            }
        };
        assert!(attribute, "{name}: {inputs}");
        assert!(
            !inputs.contains("IN[") && !inputs.contains("CONST["),
            "{inputs}"
        );
        let prog = a.join(name);
        let o = run(&["check", prog.to_str().unwrap()]);
        assert_eq!(
            o.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&o.stderr)
        );
        let o = run(&[
            "diff",
            prog.to_str().unwrap(),
            "--inputs",
            a.join(format!("{stem}.inputs.json")).to_str().unwrap(),
        ]);
        assert_eq!(
            o.status.code(),
            Some(0),
            "{name}: {}{}",
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr)
        );
    }
    let _ = std::fs::remove_dir_all(&a);
    let _ = std::fs::remove_dir_all(&b);
}

/// `gen --lang nv --spec --out DIR` writes the NV_gpu_program5 suite: one program and one
/// NV-keyed inputs file per family, with the extension of its header; programs check and
/// a sample (integer CC, HI, CVT, a fragment SAT and KIL) agree on every engine.
#[test]
fn gen_lang_nv_spec_writes_the_nv_suite() {
    let dir = scratch("nv-spec");
    let o = run_ok(&[
        "gen",
        "--lang",
        "nv",
        "--spec",
        "--out",
        dir.to_str().unwrap(),
    ]);
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert_eq!(stdout.lines().count(), 1, "{stdout}");
    let cases = shaderdiff_generators::nv::spec::suite().expect("valid suite");
    let all = files(&dir);
    assert_eq!(all.len(), 2 * cases.len());
    for c in &cases {
        let text = &all[&format!("{}.{}", c.name, c.ext)];
        assert_eq!(text, c.text.as_bytes(), "{}", c.name);
        let header = if c.ext == "nvfp" {
            "!!NVfp5.0"
        } else {
            "!!NVvp5.0"
        };
        assert!(c.text.starts_with(header), "{}", c.name);
        let json = String::from_utf8(all[&format!("{}.inputs.json", c.name)].clone()).unwrap();
        assert!(!json.contains("IN["), "{}: {json}", c.name);
    }
    for (name, ext) in [
        ("nv-spec-vp-add-s-cc", "nvvp"),
        ("nv-spec-fp-mul-u-hi", "nvfp"),
        ("nv-spec-vp-cvt-s16-f32-flr", "nvvp"),
        ("nv-spec-fp-mad-f-sat", "nvfp"),
        ("nv-spec-fp-kil-s", "nvfp"),
    ] {
        let prog = dir.join(format!("{name}.{ext}"));
        run_ok(&["check", prog.to_str().unwrap()]);
        run_ok(&[
            "diff",
            prog.to_str().unwrap(),
            "--inputs",
            dir.join(format!("{name}.inputs.json")).to_str().unwrap(),
        ]);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// `gen --64bit`: TGSI programs with the 64-bit opcodes and NV programs with LONG TEMPs and
/// 64-bit statements (the generators of `fuzz --64bit`), which `diff` runs; `--64bit` with
/// `--spec` is bad usage.
#[test]
fn gen_64bit_writes_programs_with_64_bit_operations() {
    let nv = scratch("nv64");
    run_ok(&[
        "gen",
        "--lang",
        "nv",
        "--64bit",
        "--seed",
        "1",
        "--count",
        "8",
        "--out",
        nv.to_str().unwrap(),
    ]);
    let texts: Vec<String> = files(&nv)
        .into_iter()
        .filter(|(n, _)| n.ends_with(".nvvp") || n.ends_with(".nvfp"))
        .map(|(_, b)| String::from_utf8(b).unwrap())
        .collect();
    assert!(!texts.is_empty());
    assert!(
        texts
            .iter()
            .all(|t| t.contains("LONG TEMP") && t.contains("UP64.U")),
        "{texts:?}"
    );
    run_ok(&["diff", nv.to_str().unwrap()]);
    let tgsi = scratch("tgsi64");
    run_ok(&[
        "gen",
        "--64bit",
        "--seed",
        "1",
        "--count",
        "20",
        "--out",
        tgsi.to_str().unwrap(),
    ]);
    let wide = files(&tgsi)
        .values()
        .filter(|b| {
            let t = String::from_utf8_lossy(b);
            ["DADD", "DMUL", "U64ADD", "I2D", "F2D", "DSLT", "U64MUL"]
                .iter()
                .any(|o| t.contains(o))
        })
        .count();
    assert!(wide > 0, "no 64-bit opcode in 20 programs");
    let o = run(&["gen", "--64bit", "--spec", "--out", tgsi.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    let _ = std::fs::remove_dir_all(&nv);
    let _ = std::fs::remove_dir_all(&tgsi);
}
