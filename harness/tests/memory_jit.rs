//! The jit's atomics under contention, judged the way `diff` judges them
//! ([`Differ::diff`]: the oracle replayed in the jit's atomic order, then the atomic-aware
//! memory comparator). 256 invocations run ATOMUADD, ATOMIMAX, ATOMCAS and ATOMXCHG on 1, 4
//! and 64 dwords; besides the diff's verdict, each run is checked against facts every serial
//! order must satisfy, computed by hand from tgsi.rst's formulas: the final sum of the adds,
//! the signed maximum, the compare-and-swap chain, the exchange permutation.

use shaderdiff::diff::{Differ, Outcome};
use shaderdiff_backends::{Engine, EngineConfig};
use shaderdiff_model::{File, Opcode, Program};
use shaderdiff_oracles::precision::NanPolicy;
use shaderdiff_oracles::{Inputs, Outputs, RegKey};

const N: u32 = 256;

fn jit() -> Box<dyn Engine> {
    shaderdiff_backends::engine("jit", &EngineConfig::default()).expect("the jit is built in")
}

/// Invocation i (SV[0] = [i, src, cmp, 0]) applies `op` to dword `i % dwords` of BUFFER[0]
/// and stores what it got in BUFFER[1] at `4 i`.
fn program(op: Opcode, dwords: u32) -> Program {
    let operands = if op == Opcode::ATOMCAS {
        "SV[0].zzzz, SV[0].yyyy"
    } else {
        "SV[0].yyyy"
    };
    let text = format!(
        "COMP\nDCL SV[0], THREAD_ID\nDCL BUFFER[0]\nDCL BUFFER[1]\nDCL TEMP[0..1]\n\
         IMM[0] UINT32 {{{}, 4, 0, 0}}\n\
         AND TEMP[0].x, SV[0].xxxx, IMM[0].xxxx\n\
         UMUL TEMP[0].x, TEMP[0].xxxx, IMM[0].yyyy\n\
         UMUL TEMP[0].z, SV[0].xxxx, IMM[0].yyyy\n\
         {op} TEMP[1].x, BUFFER[0], TEMP[0].xxxx, {operands}\n\
         STORE BUFFER[1].x, TEMP[0].zzzz, TEMP[1].xxxx\nEND\n",
        dwords - 1
    );
    shaderdiff_tgsi::parse(&text, "contention.tgsi").expect("valid program")
}

/// The data operand and compare operand of invocation `i`.
fn operands(op: Opcode, i: u32, dwords: u32) -> (u32, u32) {
    match op {
        Opcode::ATOMUADD => (i + 1, 0),
        // Mixed signs: a multiplicative hash of i.
        Opcode::ATOMIMAX => (i.wrapping_mul(0x9e37_79b9), 0),
        // Round r = i / dwords of the dword tries r -> r + 1.
        Opcode::ATOMCAS => (i / dwords + 1, i / dwords),
        Opcode::ATOMXCHG => (1000 + i, 0),
        _ => unreachable!("not in the contention set"),
    }
}

fn inputs(op: Opcode, dwords: u32) -> Inputs {
    let mut ins = Inputs {
        invocations: N as usize,
        ..Inputs::default()
    };
    ins.registers.insert(
        RegKey::new(File::SystemValue, 0),
        (0..N)
            .map(|i| {
                let (s, c) = operands(op, i, dwords);
                [i, s, c, 0]
            })
            .collect(),
    );
    ins.buffers
        .insert(RegKey::new(File::Buffer, 0), vec![0; 4 * dwords as usize]);
    ins.buffers
        .insert(RegKey::new(File::Buffer, 1), vec![0; 4 * N as usize]);
    ins
}

fn words(o: &Outputs, n: u32) -> Vec<u32> {
    let b = &o.buffers[&RegKey::new(File::Buffer, n)];
    b.chunks(4)
        .map(|c| u32::from_le_bytes(c.try_into().expect("4 bytes")))
        .collect()
}

/// Facts every serial order satisfies, per dword `a` and its invocations `i ≡ a`.
fn check_by_hand(op: Opcode, dwords: u32, o: &Outputs) {
    let fin = words(o, 0);
    let got = words(o, 1);
    for a in 0..dwords {
        let mine: Vec<u32> = (a..N).step_by(dwords as usize).collect();
        let srcs: Vec<u32> = mine.iter().map(|&i| operands(op, i, dwords).0).collect();
        match op {
            // 0 + the sum of i + 1.
            Opcode::ATOMUADD => {
                let sum = srcs.iter().fold(0u32, |s, &x| s.wrapping_add(x));
                assert_eq!(fin[a as usize], sum, "ATOMUADD dword {a}");
            }
            // The signed maximum of 0 and every operand.
            Opcode::ATOMIMAX => {
                let max = srcs.iter().map(|&x| x as i32).fold(0, i32::max);
                assert_eq!(fin[a as usize] as i32, max, "ATOMIMAX dword {a}");
            }
            // Only round r can move r to r + 1, so the final value f means rounds 0..f
            // succeeded, each having found its own round.
            Opcode::ATOMCAS => {
                let f = fin[a as usize];
                assert!(f as usize <= mine.len(), "ATOMCAS dword {a}: {f}");
                for (r, &i) in mine.iter().enumerate().take(f as usize) {
                    assert_eq!(got[i as usize], r as u32, "ATOMCAS invocation {i}");
                }
            }
            // Each exchange returns what the previous one stored: the returned values plus
            // the final value are the initial 0 plus every operand, as multisets.
            Opcode::ATOMXCHG => {
                let mut seen: Vec<u32> = mine.iter().map(|&i| got[i as usize]).collect();
                seen.push(fin[a as usize]);
                seen.sort_unstable();
                let mut want = srcs.clone();
                want.push(0);
                want.sort_unstable();
                assert_eq!(seen, want, "ATOMXCHG dword {a}");
            }
            _ => unreachable!(),
        }
    }
}

#[test]
fn contended_atomics_on_the_jit_pass_the_atomic_comparator() {
    let differ = Differ::new(vec![jit()], 1_000_000, NanPolicy::Any).expect("differ");
    for op in [
        Opcode::ATOMUADD,
        Opcode::ATOMIMAX,
        Opcode::ATOMCAS,
        Opcode::ATOMXCHG,
    ] {
        for dwords in [1u32, 4, 64] {
            let (p, ins) = (program(op, dwords), inputs(op, dwords));
            let d = differ.diff(&p, &ins);
            let e = &d.engines[0];
            assert!(
                matches!(e.outcome, Outcome::Agree { .. }),
                "{op} on {dwords} dwords: {:?}",
                e.outcome
            );
            let o = jit().execute(&p, &ins).expect("the jit runs");
            assert_eq!(o.atomics.as_ref().map(Vec::len), Some(N as usize));
            check_by_hand(op, dwords, &o);
        }
    }
}

#[test]
fn a_corrupted_jit_log_is_caught_by_the_same_path() {
    // The jit's real outputs with one record's `old` replaced by its predecessor's on the
    // same dword (a lost update, as a broken lowering would produce): not serializable.
    let (p, ins) = (program(Opcode::ATOMUADD, 4), inputs(Opcode::ATOMUADD, 4));
    let differ = Differ::new(vec![jit()], 1_000_000, NanPolicy::Any).expect("differ");
    let mut o = jit().execute(&p, &ins).expect("the jit runs");
    let log = o.atomics.as_mut().expect("log");
    let last = log.len() - 1;
    let prev = (0..last)
        .rev()
        .find(|&k| log[k].location == log[last].location)
        .expect("an earlier atomic on the dword");
    log[last].old = log[prev].old;
    let oracle = differ.oracle_for(0, &p, &ins).expect("oracle");
    let Outcome::Mismatch(ms) = differ.judge_run(0, &p, &ins, &oracle, &o) else {
        panic!("a lost update must be a mismatch");
    };
    assert!(ms.iter().any(|m| m.ty == "atomic"), "{ms:?}");
}

/// Two workgroups of 4 each ATOMUADD 1 to their own SHARED copy's dword 0 and store what
/// they got (SV[0].x = global id).
const SHARED_ADD: &str = "COMP\nPROPERTY CS_FIXED_BLOCK_WIDTH 4\nDCL SV[0], THREAD_ID\n\
DCL MEMORY[0], SHARED\nDCL BUFFER[0]\nDCL TEMP[0..1]\nIMM[0] UINT32 {0, 1, 4, 0}\n\
ATOMUADD TEMP[0].x, MEMORY[0], IMM[0].xxxx, IMM[0].yyyy\n\
UMUL TEMP[1].x, SV[0].xxxx, IMM[0].zzzz\n\
STORE BUFFER[0].x, TEMP[1].xxxx, TEMP[0].xxxx\nEND\n";

fn shared_add_inputs() -> Inputs {
    let mut ins = Inputs {
        invocations: 8,
        ..Inputs::default()
    };
    ins.registers.insert(
        RegKey::new(File::SystemValue, 0),
        (0..8).map(|i| [i, 0, 0, 0]).collect(),
    );
    ins.buffers.insert(RegKey::new(File::Memory, 0), vec![0; 4]);
    ins.buffers
        .insert(RegKey::new(File::Buffer, 0), vec![0; 32]);
    ins
}

#[test]
fn atomics_on_several_workgroups_shared_copies_are_judged_without_false_mismatches() {
    // Each copy goes 0 -> 4, so the log holds two atomics that found 0: one serial order
    // per copy, not one for the location. Both the interpreter as an engine and the jit
    // must agree.
    let p = shaderdiff_tgsi::parse(SHARED_ADD, "shared.tgsi").expect("valid");
    let ins = shared_add_inputs();
    for name in ["interp", "jit"] {
        let e = shaderdiff_backends::engine(name, &EngineConfig::default()).expect(name);
        let differ = Differ::new(vec![e], 1_000_000, NanPolicy::Any).expect("differ");
        let d = differ.diff(&p, &ins);
        assert!(
            matches!(d.engines[0].outcome, Outcome::Agree { .. }),
            "{name}: {:?}",
            d.engines[0].outcome
        );
    }
    // By hand: each workgroup's four adds of 1 return 0, 1, 2, 3 in some order, and
    // workgroup 0's copy (the one reported) ends at 4.
    let o = jit().execute(&p, &ins).expect("runs");
    assert_eq!(words(&o, 0).len(), 8);
    for wg in 0..2 {
        let mut got = words(&o, 0)[4 * wg..4 * wg + 4].to_vec();
        got.sort_unstable();
        assert_eq!(got, [0, 1, 2, 3], "workgroup {wg}");
    }
    assert_eq!(o.buffers[&RegKey::new(File::Memory, 0)], 4u32.to_le_bytes());
}

#[test]
fn a_lost_update_in_workgroup_0s_shared_copy_is_still_caught() {
    let p = shaderdiff_tgsi::parse(SHARED_ADD, "shared.tgsi").expect("valid");
    let ins = shared_add_inputs();
    let differ = Differ::new(vec![jit()], 1_000_000, NanPolicy::Any).expect("differ");
    let mut o = jit().execute(&p, &ins).expect("runs");
    // Invocation 1 (workgroup 0) claims to have found what invocation 0 found.
    let log = o.atomics.as_mut().expect("log");
    let first = log
        .iter()
        .position(|r| r.invocation == 0)
        .expect("invocation 0");
    let second = log
        .iter()
        .position(|r| r.invocation == 1)
        .expect("invocation 1");
    log[second].old = log[first].old;
    let oracle = differ.oracle_for(0, &p, &ins).expect("oracle");
    let Outcome::Mismatch(ms) = differ.judge_run(0, &p, &ins, &oracle, &o) else {
        panic!("a lost update must be a mismatch");
    };
    assert!(ms.iter().any(|m| m.ty == "atomic"), "{ms:?}");
}
