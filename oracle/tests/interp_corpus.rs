//! Whole programs: every real program of corpus/tgsi either runs or is reported
//! unsupported (never an invalid-program error, never a panic); generated programs run,
//! and every invocation computes the same thing whether it runs alongside others (in
//! shared chunks with divergent control flow) or alone — per-invocation semantics
//! (tgsi.rst: each invocation executes the program independently; only derivatives look
//! at the fragment quad, so fragment invocations are compared per quad).

mod interp_common;
use std::collections::BTreeMap;

use interp_common::*;
use proptest::prelude::*;
use shaderdiff_generators::strategy::tgsi_program;
use shaderdiff_generators::GenConfig;
use shaderdiff_model::{File, Opcode, Program, Stage};
use shaderdiff_oracles::interp::ExecError;
use shaderdiff_oracles::{Inputs, Outputs, RegKey, Vec4};

fn corpus() -> Vec<(String, String)> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../shared/corpus/tgsi");
    let mut v: Vec<(String, String)> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{dir}: {e}"))
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "tgsi"))
        .map(|p| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read_to_string(&p).unwrap())
        })
        .collect();
    v.sort();
    v
}

/// A small deterministic generator of input words: small integers, quarter-step floats,
/// special floats and raw bits.
struct Words(u64);

impl Words {
    fn next(&mut self) -> u32 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        let r = (self.0 >> 16) as u32;
        match r % 4 {
            0 => r % 8,
            1 => (((r >> 3) % 33) as f32 * 0.25 - 4.0).to_bits(),
            2 => {
                [0.0f32, -0.0, 1.0, -1.0, f32::NAN, f32::INFINITY][(r >> 3) as usize % 6].to_bits()
            }
            _ => r.rotate_left(7),
        }
    }
}

/// Per-invocation values for every 1-D IN and SV register the program declares.
fn random_inputs(p: &Program, n: usize, seed: u64) -> Inputs {
    let mut w = Words(seed | 1);
    let mut regs = Vec::new();
    for d in p
        .declarations
        .iter()
        .filter(|d| matches!(d.file, File::Input | File::SystemValue) && d.dimension.is_none())
    {
        for i in d.first..=d.last {
            let vals: Vec<Vec4> = (0..n)
                .map(|_| [w.next(), w.next(), w.next(), w.next()])
                .collect();
            regs.push((RegKey::new(d.file, i), vals));
        }
    }
    inputs(n, &regs)
}

/// `inputs` restricted to invocations `lo..hi`.
fn slice(i: &Inputs, lo: usize, hi: usize) -> Inputs {
    Inputs {
        invocations: hi - lo,
        registers: i
            .registers
            .iter()
            .map(|(k, v)| (*k, v[lo..hi].to_vec()))
            .collect::<BTreeMap<_, _>>(),
        ..i.clone()
    }
}

/// Invocation `i` of `o` as comparable data.
fn invocation(o: &Outputs, i: usize) -> (Vec<Vec4>, Vec<u8>, Option<bool>) {
    let regs = o.registers.values().map(|v| v[i]).collect();
    let und = o
        .registers
        .keys()
        .map(|k| o.undefined.get(k).map_or(0, |u| u[i]))
        .collect();
    (regs, und, o.killed.as_ref().map(|k| k[i]))
}

#[test]
fn corpus_runs_or_is_unsupported() {
    let files = corpus();
    assert_eq!(files.len(), 83);
    let mut ran = 0;
    for (name, text) in &files {
        let p = shaderdiff_tgsi::parse(text, name).unwrap_or_else(|e| panic!("{e}"));
        let ins = random_inputs(&p, 8, 0x9E37_79B9);
        match exec(&p, &ins) {
            Ok(o) => {
                assert_eq!(o.invocations, 8, "{name}");
                assert!(o.registers.values().all(|v| v.len() == 8), "{name}");
                ran += 1;
            }
            Err(ExecError::Unsupported { .. } | ExecError::UnsupportedFeature { .. }) => {}
            Err(e) => panic!("{name}: {e}"),
        }
    }
    // Most corpus programs are plain ALU/control-flow programs; texture, memory and
    // geometry-emit programs are unsupported.
    assert!(ran >= 30, "only {ran} corpus programs ran");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    /// Generated programs run (or are unsupported), and invocations are independent:
    /// running 68 invocations together (two chunks, divergent control flow) gives, for
    /// each checked invocation, the same outputs as running it alone (its quad alone for
    /// fragment programs). Programs with an inter-lane opcode (VOTE_ANY, VOTE_ALL, VOTE_EQ,
    /// READ_FIRST: tgsi.rst "Inter-lane opcodes", whose result depends on the other active
    /// invocations) are outside the property: the generator draws them since 0.3.0.
    #[test]
    fn invocations_are_independent(p in tgsi_program(GenConfig::default(), 300), seed in any::<u64>()) {
        if p.instructions.iter().any(|i| inter_lane(i.opcode)) {
            return Ok(());
        }
        let n = 68;
        let ins = random_inputs(&p, n, seed);
        let all = match exec(&p, &ins) {
            Ok(o) => o,
            Err(ExecError::Unsupported { .. } | ExecError::UnsupportedFeature { .. }) => return Ok(()),
            Err(e) => return Err(TestCaseError::fail(format!("{e}"))),
        };
        let group = if p.stage == Stage::Fragment { 4 } else { 1 };
        for start in [0, 4, 60, 64] {
            let alone = exec(&p, &slice(&ins, start, start + group))
                .map_err(|e| TestCaseError::fail(format!("{e}")))?;
            for k in 0..group {
                prop_assert_eq!(invocation(&all, start + k), invocation(&alone, k));
            }
        }
        // Deterministic.
        prop_assert_eq!(exec(&p, &ins).ok(), Some(all));
    }
}

/// Whether `op` reads other invocations' values (tgsi.rst "Inter-lane opcodes").
fn inter_lane(op: Opcode) -> bool {
    matches!(
        op,
        Opcode::VOTE_ANY | Opcode::VOTE_ALL | Opcode::VOTE_EQ | Opcode::READ_FIRST
    )
}
