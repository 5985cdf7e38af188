//! Bounded resources and honest exit codes (docs/campaigns.md): every size a user controls
//! has a limit with a flag and an exit-2 message; the oracle does not crash on a BARRIER
//! without memory; valhall refuses a geometry record it cannot address instead of
//! reporting a false mismatch; `merge` refuses overlapping or unfinished shards; failures
//! of the run itself exit 4; the small papercuts.
//!
//! Every test runs the binary under a deadline, so a regression to an unbounded read or
//! allocation fails the test instead of taking the machine. `SHADERDIFF_BIN` runs them
//! against another build (an older one, to see them fail).

mod common;

use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use common::{text, Scratch};

fn bin() -> String {
    std::env::var("SHADERDIFF_BIN").unwrap_or_else(|_| common::BIN.to_string())
}

/// Runs `shaderdiff ARGS`, killing it after `secs` seconds (a failure: unbounded work).
fn run_within(args: &[&str], secs: u64) -> Output {
    let mut child = Command::new(bin())
        .args(args)
        .env("CI", "1")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > Duration::from_secs(secs) {
            let _ = child.kill();
            let _ = child.wait();
            panic!("shaderdiff {args:?} still running after {secs}s (unbounded)");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.wait_with_output().unwrap()
}

fn code(o: &Output) -> i32 {
    o.status.code().expect("exited, not killed")
}

const NV_SHARED_HUGE: &str = "!!NVcp5.0\nGROUP_SIZE 2;\nSHARED_MEMORY 4294967295;\n\
    SHARED sm[] = { program.sharedmem };\nTEMP t;\nLDS.U32 t.x, sm[0];\nEND\n";

#[test]
fn a_huge_shared_memory_declaration_is_refused_with_its_flag() {
    let s = Scratch::new("robust-shared");
    let p = s.file("huge.nvcp", NV_SHARED_HUGE);
    for cmd in ["run", "diff"] {
        let o = run_within(&[cmd, &p], 20);
        assert_eq!(code(&o), 2, "{cmd}: {}", text(&o));
        let t = text(&o);
        assert!(t.contains("huge.nvcp"), "{t}");
        assert!(t.contains("--max-shared-memory"), "{t}");
        assert!(!t.contains("internal error"), "{t}");
    }
    // Raising the limit past the declaration lets a small one through.
    let small = s.file("small.nvcp", &NV_SHARED_HUGE.replace("4294967295", "2048"));
    let o = run_within(&["run", &small, "--max-shared-memory", "1KiB"], 20);
    assert_eq!(code(&o), 2, "{}", text(&o));
    let o = run_within(&["run", &small, "--max-shared-memory", "4KiB"], 20);
    assert_eq!(code(&o), 0, "{}", text(&o));
}

#[test]
fn endless_files_are_read_up_to_the_limit() {
    let s = Scratch::new("robust-reads");
    let p = s.file(
        "p.tgsi",
        "VERT\nDCL OUT[0], POSITION\nIMM[0] FLT32 {1.0, 0.0, 0.0, 1.0}\nMOV OUT[0], IMM[0]\nEND\n",
    );
    for args in [
        vec!["check", "/dev/zero"],
        vec!["check", "/dev/urandom"],
        vec!["run", &p, "--inputs", "/dev/zero"],
    ] {
        let o = run_within(&args, 20);
        assert_eq!(code(&o), 2, "{args:?}: {}", text(&o));
        assert!(text(&o).contains("--max-file-size"), "{}", text(&o));
    }
    // The limit is a flag: a 100-byte program is refused under 64 bytes.
    let o = run_within(&["check", &p, "--max-file-size", "16"], 20);
    assert_eq!(code(&o), 2, "{}", text(&o));
    assert!(
        text(&o).contains("p.tgsi: larger than 16 bytes"),
        "{}",
        text(&o)
    );
}

#[test]
fn invocations_beyond_the_limit_are_bad_input() {
    let s = Scratch::new("robust-invocations");
    let p = s.file("p.tgsi", "VERT\nDCL OUT[0], POSITION\nEND\n");
    let inputs = s.file("i.json", "{\"invocations\": 2000000}");
    let o = run_within(&["run", &p, "--inputs", &inputs], 20);
    assert_eq!(code(&o), 2, "{}", text(&o));
    assert!(text(&o).contains("--max-invocations"), "{}", text(&o));
    assert!(text(&o).contains("i.json:1:"), "{}", text(&o));
    // The flag moves the limit both ways.
    let small = s.file("small.json", "{\"invocations\": 200}");
    let o = run_within(
        &["run", &p, "--inputs", &small, "--max-invocations", "100"],
        20,
    );
    assert_eq!(code(&o), 2, "{}", text(&o));
    let o = run_within(
        &["run", &p, "--inputs", &small, "--max-invocations", "200"],
        60,
    );
    assert_eq!(code(&o), 0, "{}", text(&o));
}

#[test]
fn a_barrier_without_memory_runs_on_the_oracle() {
    // tgsi.rst BARRIER: a control barrier; with no memory declared it orders nothing.
    let s = Scratch::new("robust-barrier");
    let p = s.file(
        "b.tgsi",
        "COMP\nPROPERTY CS_FIXED_BLOCK_WIDTH 4\nDCL TEMP[0]\nIMM[0] UINT32 {1, 0, 0, 0}\n\
         MOV TEMP[0], IMM[0]\nBARRIER\nEND\n",
    );
    let o = run_within(&["run", &p, "--backend", "interp"], 20);
    assert_eq!(code(&o), 0, "{}", text(&o));
    let o = run_within(&["diff", &p], 60);
    let t = text(&o);
    assert!(!t.contains("internal error"), "{t}");
    assert!(!t.contains("MISMATCH"), "{t}");
    assert_eq!(code(&o), 0, "{t}");
}

const GEOM: &str = "GEOM\nPROPERTY GS_INPUT_PRIMITIVE TRIANGLES\n\
    PROPERTY GS_OUTPUT_PRIMITIVE POINTS\nPROPERTY GS_MAX_OUTPUT_VERTICES @N\n\
    DCL IN[][0], POSITION\nDCL OUT[0], POSITION\nMOV OUT[0], IN[0][0]\nEMIT IMM[0].xxxx\nEND\n";

#[test]
fn huge_geometry_vertex_counts_are_limited_and_never_a_false_mismatch() {
    let s = Scratch::new("robust-gs");
    let text_of = |n: &str| {
        GEOM.replace("@N", n)
            .replace("DCL IN", "IMM[0] INT32 {0, 0, 0, 0}\nDCL IN")
    };
    let p = s.file("g.tgsi", &text_of("4294967295"));
    let o = run_within(&["diff", &p], 30);
    assert_eq!(code(&o), 2, "{}", text(&o));
    assert!(text(&o).contains("--max-gs-vertices"), "{}", text(&o));
    // Raised: valhall's record cannot hold 2^27 vertices; that is unsupported, not a trap.
    let p = s.file("g27.tgsi", &text_of("134217728"));
    let o = run_within(
        &[
            "diff",
            &p,
            "--backends",
            "interp,jit,valhall",
            "--max-gs-vertices",
            "4294967295",
        ],
        60,
    );
    let t = text(&o);
    assert!(!t.contains("MISMATCH"), "{t}");
    assert!(t.contains("unsupported"), "{t}");
    assert_eq!(code(&o), 0, "{t}");
}

#[test]
fn papercuts() {
    let s = Scratch::new("robust-papercuts");
    // A campaign of no time is bad usage, not a silent success.
    let o = run_within(&["fuzz", "--time", "0s", "--out", &s.path("o")], 20);
    assert_eq!(code(&o), 2, "{}", text(&o));
    // --count without --seed names --seed only.
    let o = run_within(&["gen", "--count", "2", "--out", &s.path("g")], 20);
    assert_eq!(code(&o), 2, "{}", text(&o));
    assert!(text(&o).contains("--seed"), "{}", text(&o));
    assert!(!text(&o).contains("--spec"), "{}", text(&o));
    // A UTF-8 byte order mark is skipped.
    let bom = s.0.join("bom.tgsi");
    std::fs::write(&bom, b"\xEF\xBB\xBFVERT\nDCL OUT[0], POSITION\nEND\n").unwrap();
    let o = run_within(&["check", &bom.display().to_string()], 20);
    assert_eq!(code(&o), 0, "{}", text(&o));
    // --jobs counts worker processes.
    let o = run_within(&["fuzz", "--help"], 20);
    let help = text(&o);
    let jobs = help.lines().skip_while(|l| !l.contains("--jobs")).nth(1);
    assert!(jobs.is_some_and(|l| l.contains("processes")), "{help}");
}

#[test]
fn failures_of_the_run_itself_exit_4() {
    let s = Scratch::new("robust-exit4");
    // gen into a path that is a file: the output cannot be written.
    let file = s.file("taken", "x");
    let o = run_within(&["gen", "--seed", "1", "--count", "1", "--out", &file], 20);
    assert_eq!(code(&o), 4, "{}", text(&o));
    // A worker that cannot start under a 1 MiB address space: exit 4, honest summary.
    let out = s.path("w");
    let o = run_within(
        &[
            "fuzz",
            "--seed",
            "1",
            "--programs",
            "64",
            "--jobs",
            "1",
            "--no-reduce",
            "--backends",
            "interp,jit",
            "--worker-memory",
            "1MiB",
            "--out",
            &out,
        ],
        60,
    );
    assert_eq!(code(&o), 4, "{}", text(&o));
    let sum = common::json(&Path::new(&out).join("summary.json"));
    assert_eq!(sum["status"], "failed", "{sum}");
    assert_eq!(sum["mismatches"], 0, "{sum}");
}

#[test]
fn merge_refuses_overlapping_and_unfinished_shards() {
    let s = Scratch::new("robust-merge");
    let fuzz = |out: &str, shard: &str| {
        let o = run_within(
            &[
                "fuzz",
                "--seed",
                "5",
                "--programs",
                "64",
                "--shard",
                shard,
                "--jobs",
                "1",
                "--no-reduce",
                "--in-process",
                "--backends",
                "interp,jit",
                "--out",
                out,
            ],
            120,
        );
        assert!(matches!(code(&o), 0 | 1), "{}", text(&o));
    };
    let (a, b, c) = (s.path("a"), s.path("b"), s.path("c"));
    fuzz(&a, "0/1");
    fuzz(&b, "0/2");
    fuzz(&c, "1/2");
    let o = run_within(&["merge", &a, &b, "--out", &s.path("m1")], 30);
    assert_eq!(code(&o), 2, "{}", text(&o));
    assert!(text(&o).contains("overlap"), "{}", text(&o));
    // One half alone does not cover the campaign...
    let o = run_within(&["merge", &b, "--out", &s.path("m2")], 30);
    assert_eq!(code(&o), 2, "{}", text(&o));
    assert!(text(&o).contains("1/2 missing"), "{}", text(&o));
    // ... unless asked for; and both halves do.
    let o = run_within(&["merge", &b, "--partial", "--out", &s.path("m3")], 30);
    assert!(matches!(code(&o), 0 | 1), "{}", text(&o));
    let o = run_within(&["merge", &b, &c, "--out", &s.path("m4")], 30);
    assert!(matches!(code(&o), 0 | 1), "{}", text(&o));
    // A shard still running (its summary says so) is refused.
    let sum = Path::new(&c).join("summary.json");
    let t = std::fs::read_to_string(&sum)
        .unwrap()
        .replace("\"complete\"", "\"running\"");
    std::fs::write(&sum, t).unwrap();
    let o = run_within(&["merge", &b, &c, "--out", &s.path("m5")], 30);
    assert_eq!(code(&o), 2, "{}", text(&o));
    assert!(text(&o).contains("running"), "{}", text(&o));
}

#[test]
fn running_out_of_worker_memory_is_never_a_finding() {
    // With no fault injected, nothing may be found; under a tight address-space limit the
    // JIT fails to map code pages and the allocator aborts: those programs are poisoned.
    // (33 MiB made the debug build report `jit-fail_compile-none` before: a false finding.)
    // The tightest limit under which a worker starts at all grows with the binary (its text,
    // about 30 MiB in a debug build, is mapped under the limit), so the limit grows in 2 MiB
    // steps from 33 MiB until a worker starts; that first one is the tight case.
    let s = Scratch::new("robust-oom");
    let started = (33..=71).step_by(2).find_map(|mib| {
        let out = s.path(&format!("o{mib}"));
        let o = run_within(
            &[
                "fuzz",
                "--seed",
                "1",
                "--programs",
                "256",
                "--jobs",
                "1",
                "--no-reduce",
                "--backends",
                "interp,jit",
                "--worker-memory",
                &format!("{mib}MiB"),
                "--out",
                &out,
            ],
            300,
        );
        let no_start = code(&o) == 4 && text(&o).contains("worker process failed to start");
        (!no_start).then_some((out, o))
    });
    let (out, o) = started.expect("no worker started under a 71 MiB address-space limit");
    let sum = common::json(&Path::new(&out).join("summary.json"));
    assert_eq!(sum["mismatches"], 0, "{sum}\n{}", text(&o));
    assert_eq!(sum["status"], "complete", "{sum}");
    let expected = if sum["poisoned"].as_u64().unwrap() > 0 {
        4
    } else {
        0
    };
    assert_eq!(code(&o), expected, "{}", text(&o));
    // One stderr line for the first poisoned program, not one per program.
    let lines = text(&o)
        .lines()
        .filter(|l| l.contains("poisoned ("))
        .count();
    assert!(lines <= 1, "{}", text(&o));
}

#[test]
fn huge_group_sizes_are_reckoned_without_overflow() {
    // NV_compute_program5 GROUP_SIZE: 65536 x 65536 x 2 invocations per group is 2^33,
    // past u32; a dispatch of 4 invocations is all in group 0 (globalid = localid).
    let s = Scratch::new("robust-group");
    let p = s.file(
        "g.nvcp",
        "!!NVcp5.0\nGROUP_SIZE 65536 65536 2;\nTEMP t;\nMOV.U t, invocation.globalid;\nEND\n",
    );
    let o = run_within(&["run", &p], 20);
    assert_eq!(code(&o), 0, "{}", text(&o));
    let o = run_within(&["diff", &p], 60);
    let t = text(&o);
    assert!(
        !t.contains("internal error") && !t.contains("MISMATCH"),
        "{t}"
    );
}

#[test]
fn an_endless_stdin_is_read_up_to_the_limit() {
    // `valhall disasm` without arguments reads words from stdin.
    let mut child = Command::new(bin())
        .args(["valhall", "disasm"])
        .stdin(std::fs::File::open("/dev/zero").unwrap())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > Duration::from_secs(20) {
            let _ = child.kill();
            let _ = child.wait();
            panic!("valhall disasm < /dev/zero still running after 20s (unbounded)");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let o = child.wait_with_output().unwrap();
    assert_eq!(code(&o), 2, "{}", text(&o));
    assert!(text(&o).contains("--max-file-size"), "{}", text(&o));
}
