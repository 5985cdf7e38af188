//! The warp scheduler (`sim::Schedule`): BARRIER across warps (SEMANTICS.md §7
//! \[Assumption\] "all threads of the workgroup reach it before any continues"), seeded
//! interleaving and atomic lane order, and the access log (`MemEvent`).

#[path = "sim_util.rs"]
mod util;

use shaderdiff_valhall::sim::{Launch, Memory, Outcome, Schedule, NUM_REGS};
use util::*;

const BASE: u64 = 0x1_0000_1000;

/// Runs `text` for `threads` threads under `schedule` on 256 zero bytes at `BASE`; thread
/// t starts with r0:r1 = BASE, r2 = t + 1, r4:r5 = the address of word (t + 16) mod 32,
/// r6:r7 = the address of word t, r8 = 1.
/// Returns the outcome and the final bytes.
fn run_sched(text: &str, threads: usize, schedule: &Schedule<'_>) -> (Outcome, Vec<u8>) {
    let init = |t: usize, r: &mut [u32; NUM_REGS]| {
        r[0] = BASE as u32;
        r[1] = (BASE >> 32) as u32;
        r[2] = t as u32 + 1;
        let n = BASE + 4 * ((t as u64 + 16) % 32);
        r[4] = n as u32;
        r[5] = (n >> 32) as u32;
        let own = BASE + 4 * t as u64;
        r[6] = own as u32;
        r[7] = (own >> 32) as u32;
        r[8] = 1;
    };
    let launch = Launch {
        threads,
        uniforms: &[],
        init: &init,
        step_limit: 100_000,
        step_weights: None,
    };
    let mut mem = Memory::new();
    mem.map(BASE, vec![0; 256]);
    let out = shader(text)
        .run_scheduled(&launch, schedule, &mut mem)
        .unwrap();
    (out, mem.region(BASE).unwrap().to_vec())
}

#[test]
fn barrier_makes_the_other_warps_stores_visible() {
    // 32 threads in one workgroup of two warps: thread t must read (t + 16) mod 32 + 1,
    // written by the other warp before the barrier, whatever the interleaving.
    for seed in [None, Some(0), Some(1), Some(2), Some(3)] {
        let schedule = Schedule {
            seed,
            workgroup: 32,
            ..Schedule::default()
        };
        let prog = "\
            STORE.i32.slot0 @r2, r6, offset:0
            BARRIER.slot7.wait
            LOAD.i32.unsigned.slot0.wait0 @r3, r4, offset:0
            STORE.i32.slot0.wait0 @r3, r4, offset:0x80";
        let (_, bytes) = run_sched(prog, 32, &schedule);
        let word = |i: usize| u32::from_le_bytes(bytes[4 * i..4 * i + 4].try_into().unwrap());
        // Thread t stored word((t + 16) % 32) at word 32 + (t + 16) % 32.
        for t in 0..32usize {
            let n = (t + 16) % 32;
            assert_eq!(word(32 + n), n as u32 + 1, "seed {seed:?}, thread {t}");
            assert_eq!(word(t), t as u32 + 1);
        }
    }
}

#[test]
fn without_the_barrier_the_first_warp_reads_too_early() {
    // The same exchange without BARRIER: under the sequential schedule warp 0 runs to the
    // end first and reads zeros from warp 1's half; the barrier is what orders them (previous test).
    let prog = "\
        STORE.i32.slot0 @r2, r6, offset:0
        LOAD.i32.unsigned.slot0.wait0 @r3, r4, offset:0
        STORE.i32.slot0.wait0 @r3, r4, offset:0x80";
    let (_, bytes) = run_sched(prog, 32, &Schedule::default());
    let word = |i: usize| u32::from_le_bytes(bytes[4 * i..4 * i + 4].try_into().unwrap());
    // Warp 0 (threads 0-15) read words 16-31 before warp 1 stored them.
    for n in 16..32 {
        assert_eq!(word(32 + n), 0, "word {n}");
    }
}

#[test]
fn seeded_atomics_log_every_lane_in_a_shuffled_order() {
    // 16 threads ATOM_RETURN aadd 1 on one word: the old values are a permutation of 0..15;
    // sequentially they come in lane order, seeded in a shuffled one, and the log records
    // each (thread, address, operand, old) with the sideband register r2 (= t + 1).
    let prog = "\
        ATOM_RETURN.i32.slot0.aadd @r9, @r8, r0, offset:0x0
        NOP.wait0";
    let trace = [true, false];
    let olds = |seed| {
        let schedule = Schedule {
            seed,
            trace: Some(&trace),
            sideband: 2,
            ..Schedule::default()
        };
        let (out, bytes) = run_sched(prog, 16, &schedule);
        assert_eq!(bytes[..4], 16u32.to_le_bytes());
        assert_eq!(out.events.len(), 16);
        for e in &out.events {
            assert_eq!((e.index, e.address, e.value), (0, BASE, 1));
            assert_eq!(e.sideband, e.thread as u32 + 1);
        }
        let mut by_thread = vec![0u64; 16];
        for e in &out.events {
            by_thread[e.thread] = e.old;
        }
        // Events come in execution order: old values 0, 1, 2, ...
        let seq: Vec<u64> = out.events.iter().map(|e| e.old).collect();
        assert_eq!(seq, (0..16).collect::<Vec<u64>>());
        by_thread
    };
    assert_eq!(olds(None), (0..16).collect::<Vec<u64>>());
    let a = olds(Some(1));
    let b = olds(Some(2));
    assert_ne!(a, (0..16).collect::<Vec<u64>>());
    assert_ne!(a, b);
    assert_eq!(olds(Some(1)), a, "the same seed, the same order");
}
