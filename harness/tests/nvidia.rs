//! Engine `nvidia` from the command line: where no NVIDIA EGL device exists it is noted
//! once and skipped (INTERFACE.md: run-time engines are opt-in and `diff` carries on), and
//! a program that crashed NVIDIA's assembler (tests/data/nvidia) runs in an isolated worker
//! so the run always finishes.

mod common;

use std::process::{Command, Output};

use common::{code, text, Scratch, BIN};

/// The note `diff`/`fuzz` print for an engine that cannot run here.
const NOTE: &str = "engine nvidia is not available here";

const REGRESSION: &str = include_str!("data/nvidia/label-named-like-temp.arbvp");

fn run_env(args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut c = Command::new(BIN);
    c.args(args).env("CI", "1");
    for (k, v) in env {
        c.env(k, v);
    }
    c.output().expect("the shaderdiff binary starts")
}

fn nvidia_here() -> bool {
    let s = Scratch::new("nvidia-probe");
    let p = s.file(
        "p.nv",
        "!!ARBfp1.0\nMOV result.color, fragment.texcoord[0];\nEND\n",
    );
    let o = run_env(&["diff", &p, "--backends", "interp,nvidia"], &[]);
    !text(&o).contains(NOTE)
}

#[test]
fn diff_without_an_nvidia_device_notes_it_once_and_exits_0() {
    if nvidia_here() {
        eprintln!("note: an NVIDIA EGL device is present; the unavailable note cannot be seen");
        return;
    }
    let s = Scratch::new("nvidia-unavailable");
    let a = s.file(
        "a.nv",
        "!!ARBfp1.0\nMOV result.color, fragment.texcoord[0];\nEND\n",
    );
    let b = s.file(
        "b.nv",
        "!!NVfp5.0\nMOV.U result.color, fragment.texcoord[0];\nEND\n",
    );
    let o = run_env(&["diff", &a, &b, "--backends", "interp,nvidia"], &[]);
    assert_eq!(code(&o), 0, "{}", text(&o));
    assert_eq!(text(&o).matches(NOTE).count(), 1, "{}", text(&o));
    assert!(text(&o).contains("GL_VENDOR is NVIDIA"), "{}", text(&o));
    // Beside an available engine the note is the same and the comparison runs.
    let o = run_env(&["diff", &a, "--backends", "interp,jit,nvidia"], &[]);
    assert_eq!(code(&o), 0, "{}", text(&o));
    assert_eq!(text(&o).matches(NOTE).count(), 1, "{}", text(&o));
    assert!(text(&o).contains("agree (interp vs jit"), "{}", text(&o));
}

/// `conform` over the crash regression in worker processes: it finishes (exit 0 or 1,
/// never 4) and the engine has a row. On NVIDIA's driver the row is `Crash` where the
/// assembler still segfaults; on Mesa's EGL (`SHADERDIFF_NVIDIA_VENDOR=Mesa`, CI) the
/// option is refused and the row is `Skip`.
#[test]
fn a_driver_crash_costs_one_worker_not_the_run() {
    let env: &[(&str, &str)] = if nvidia_here() {
        &[]
    } else {
        &[("SHADERDIFF_NVIDIA_VENDOR", "Mesa")]
    };
    let s = Scratch::new("nvidia-crash");
    let suite = s.path("suite");
    std::fs::create_dir_all(&suite).unwrap();
    s.file("suite/label-named-like-temp.nv", REGRESSION);
    let out = s.path("out");
    let o = run_env(
        &[
            "conform",
            &suite,
            "--backends",
            "interp,nvidia",
            "--out",
            &out,
            "--jobs",
            "1",
        ],
        env,
    );
    if o.status.code() == Some(3) && text(&o).contains(NOTE) {
        eprintln!("note: skipping: neither NVIDIA's nor Mesa's EGL device is here");
        return;
    }
    assert!(matches!(code(&o), 0 | 1), "{}", text(&o));
    let csv = std::fs::read_to_string(format!("{out}/results.csv")).unwrap();
    let row = csv
        .lines()
        .find(|l| l.starts_with("label-named-like-temp,nvidia,"))
        .unwrap_or_else(|| panic!("no nvidia row:\n{csv}"));
    let status = row.split(',').nth(2).unwrap();
    assert!(["Crash", "Pass", "Skip", "Fail"].contains(&status), "{row}");
}
