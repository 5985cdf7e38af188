//! NV findings of compute programs (no fresh attribute can carry a computed value into
//! them) reduce to their root: the `dp3-reads-w` finding of `fuzz --lang nv --seed 1`
//! (program 37, a compute program that stores its result to global memory and reads a
//! texture with TXB) ends at 4 NV instructions or fewer, without the TXB, keeps a DP3, and
//! shows the fault's defined effect ("DP3 also adds the .w products (lowered as DP4)",
//! `shaderdiff faults`): the faulty jit's results are exactly what the oracle computes for
//! the same program with its DP3s written as DP4, and a clean jit agrees with the oracle.

use std::path::{Path, PathBuf};

use serde_json::Value;

mod common;

use common::{code, fuzz_interp_jit, run, stderr as err, Scratch};

const FAULT: &str = "dp3-reads-w";
const MAX_INSNS: usize = 4;

/// The findings of the first chunk of `fuzz --lang nv --seed 1` under the fault.
fn findings(s: &Scratch) -> Vec<PathBuf> {
    let out = s.path("out");
    let o = fuzz_interp_jit("nv", "64", &out, &["--inject-fault", FAULT]);
    assert_eq!(code(&o), 1, "{}", err(&o));
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(Path::new(&out).join("findings"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    dirs.sort();
    dirs
}

/// `run --format json` of `program` on `backend` (with the fault when `fault`): the
/// registers and global memory it reports.
fn results(program: &str, inputs: &str, backend: &str, fault: bool) -> (Value, Value) {
    let mut args = vec!["run", program, "--inputs", inputs, "--backend", backend];
    args.extend(["--format", "json"]);
    if fault {
        args.extend(["--inject-fault", FAULT]);
    }
    let o = run(&args);
    assert_eq!(code(&o), 0, "{}", err(&o));
    let v: Value = serde_json::from_slice(&o.stdout).expect("run prints JSON");
    (v["registers"].clone(), v["global"].clone())
}

#[test]
fn the_compute_finding_of_seed_1_reduces_to_its_dp3() {
    let s = Scratch::new("dp3-compute");
    let dirs = findings(&s);
    let meta: Vec<Value> = dirs
        .iter()
        .map(|d| common::json(&d.join("finding.json")))
        .collect();
    assert!(
        meta.iter().any(|m| m["index"] == 37),
        "program 37 (the compute program) is found: {meta:?}"
    );
    for d in &dirs {
        let reduced = d.join("reduced.nv");
        let text = std::fs::read_to_string(&reduced).unwrap();
        let p = shaderdiff_nv::parse(&text, "reduced.nv").expect("reduced.nv parses");
        let n = p.instructions().count();
        assert!(n <= MAX_INSNS, "{}: {n} instructions\n{text}", d.display());
        assert!(
            p.instructions().any(|i| i.opcode.name() == "DP3"),
            "the fault needs a DP3:\n{text}"
        );
        // Once no instruction samples the texture, its unit goes from the inputs too, so
        // the TXB that gave a TEMP a defined value can go.
        assert!(!text.contains("texture["), "a texture is left:\n{text}");
        let prog = reduced.display().to_string();
        let inputs = d.join("inputs.json").display().to_string();
        let base = [
            "diff",
            &prog,
            "--inputs",
            &inputs,
            "--backends",
            "interp,jit",
        ];
        let faulty = run(&[&base[..], &["--inject-fault", FAULT]].concat());
        assert_eq!(
            code(&faulty),
            1,
            "the fault shows:\n{text}\n{}",
            err(&faulty)
        );
        let clean = run(&base);
        assert_eq!(
            code(&clean),
            0,
            "a clean jit agrees:\n{text}\n{}",
            err(&clean)
        );
        // The fault's definition: the faulty DP3 computes what DP4 does.
        let dp4 = s.file("dp4.nv", &text.replace("DP3", "DP4"));
        assert_eq!(
            results(&prog, &inputs, "jit", true),
            results(&dp4, &inputs, "interp", false),
            "the faulty jit's DP3 is DP4:\n{text}"
        );
    }
}
