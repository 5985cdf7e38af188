//! The diff pipeline on the valhall engine's memory support: contended atomics agree with
//! the oracle under several `--schedule-seed`s, and the catalogued `atomic-lost-update`
//! fault is reported as an atomic mismatch (a lost update), through the library
//! (`Differ::diff`) and through `shaderdiff diff`.

mod common;

use common::*;
use shaderdiff::diff::{Differ, Outcome};
use shaderdiff_backends::{EngineConfig, ValhallEngine};
use shaderdiff_model::File;
use shaderdiff_oracles::precision::NanPolicy;
use shaderdiff_oracles::{Inputs, RegKey};

/// 256 invocations in workgroups of 64 ATOMUADD `i + 1` to dword 0 of BUFFER[0] and store
/// what they got at `4i` of BUFFER[1].
const PROGRAM: &str = "COMP
PROPERTY CS_FIXED_BLOCK_WIDTH 64
DCL SV[0], THREAD_ID
DCL BUFFER[0]
DCL BUFFER[1]
DCL TEMP[0..1]
IMM[0] UINT32 {0, 1, 4, 0}
UADD TEMP[0].y, SV[0].xxxx, IMM[0].yyyy
ATOMUADD TEMP[1].x, BUFFER[0], IMM[0].xxxx, TEMP[0].yyyy
UMUL TEMP[0].z, SV[0].xxxx, IMM[0].zzzz
STORE BUFFER[1].x, TEMP[0].zzzz, TEMP[1].xxxx
END
";

fn inputs() -> Inputs {
    let mut i = Inputs {
        invocations: 256,
        ..Inputs::default()
    };
    i.registers.insert(
        RegKey::new(File::SystemValue, 0),
        (0..256).map(|i| [i, 0, 0, 0]).collect(),
    );
    i.buffers.insert(RegKey::new(File::Buffer, 0), vec![0; 4]);
    i.buffers
        .insert(RegKey::new(File::Buffer, 1), vec![0; 1024]);
    i
}

fn outcome(seed: u64, fault: Option<&str>) -> Outcome {
    let engine = ValhallEngine::new(&EngineConfig {
        schedule_seed: seed,
        fault: fault.map(str::to_string),
        ..EngineConfig::default()
    });
    let differ = Differ::new(vec![Box::new(engine)], 1_000_000, NanPolicy::Any).unwrap();
    let program = shaderdiff_tgsi::parse(PROGRAM, "atomics.tgsi").unwrap();
    let diff = differ.diff(&program, &inputs());
    diff.engines[0].outcome.clone()
}

#[test]
fn valhall_atomics_agree_under_several_seeds() {
    for seed in [0, 1, 2, 99] {
        let o = outcome(seed, None);
        assert!(matches!(o, Outcome::Agree { .. }), "seed {seed}: {o:?}");
    }
}

#[test]
fn the_lost_update_fault_is_an_atomic_mismatch() {
    let Outcome::Mismatch(ms) = outcome(0, Some("atomic-lost-update")) else {
        panic!("a lost update must be a mismatch");
    };
    assert!(
        ms.iter().any(|m| m.ty == "atomic"
            && m.register == "BUFFER[0]"
            && m.tolerance.contains("not serializable")),
        "{ms:?}"
    );
}

#[test]
fn cli_diff_finds_the_fault_and_lists_it() {
    let dir = scratch("valhall-memory");
    let prog = dir.join("atomics.tgsi");
    std::fs::write(&prog, PROGRAM).unwrap();
    let sv: Vec<String> = (0..256)
        .map(|i| format!("[\"{i:#x}\", \"0x0\", \"0x0\", \"0x0\"]"))
        .collect();
    let json = format!(
        "{{\"invocations\": 256, \"registers\": {{\"SV[0]\": [{}]}}, \
         \"buffers\": {{\"BUFFER[0]\": \"00000000\", \"BUFFER[1]\": \"{}\"}}}}",
        sv.join(", "),
        "00".repeat(1024)
    );
    let inp = dir.join("inputs.json");
    std::fs::write(&inp, json).unwrap();
    let (p, i) = (prog.to_str().unwrap(), inp.to_str().unwrap());
    let base = ["diff", p, "--inputs", i, "--backends", "interp,valhall"];
    for seed in ["0", "5"] {
        let o = run(&[&base[..], &["--schedule-seed", seed]].concat());
        assert_eq!(code(&o), 0, "seed {seed}: {}", text(&o));
    }
    let o = run(&[&base[..], &["--inject-fault", "atomic-lost-update"]].concat());
    assert_eq!(code(&o), 1, "{}", text(&o));
    assert!(text(&o).contains("atomic"), "{}", text(&o));
    let o = run(&["faults"]);
    assert!(
        text(&o)
            .lines()
            .any(|l| l.starts_with("atomic-lost-update valhall ")),
        "{}",
        text(&o)
    );
}
