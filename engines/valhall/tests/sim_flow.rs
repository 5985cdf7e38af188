//! Control flow and the execution model: divergence and reconvergence (SEMANTICS.md
//! §1.2), BRANCHZ (§7), loops with per-thread trip counts, DISCARD (§5.3), `.end` (§1.1),
//! CLPER and inactive lanes (§7), partial warps, the step budget and branch errors.

#[path = "sim_util.rs"]
mod util;

use shaderdiff_valhall::sim::{Launch, Memory, Shader, SimError, NUM_REGS};
use util::*;

fn launch<'a>(
    threads: usize,
    init: &'a (dyn Fn(usize, &mut [u32; NUM_REGS]) + Sync),
    step_limit: u64,
) -> Launch<'a> {
    Launch {
        threads,
        uniforms: &[],
        init,
        step_limit,
        step_weights: None,
    }
}

/// Odd and even threads of one warp take different paths and meet again; a CLPER after
/// the join sees every lane active, one inside the divergent region does not.
#[test]
fn divergence_and_reconvergence() {
    let text = "\
        BRANCHZ.reconverge r1, offset:3                 // 0: odd threads jump to 4
        IADD_IMM.i32 r3, r0, #0x100                     // 1: even path
        CLPER.i32.xor.umax r6, r0, 0x3020100.b11        // 2: lane ^ 1 is odd: inactive
        BRANCHZ.reconverge 0xFFFFFFFF, offset:1         // 3: jump to 5
        IADD_IMM.i32 r3, r0, #0x200                     // 4: odd path
        IADD_IMM.i32 r4, r3, #0x1                       // 5: join
        CLPER.i32.xor.umax r5, r4, 0x3020100.b11        // 6: lane ^ 1, all active
        CLPER.i32.umax r7, r0, 0x3020100.b22            // 7: lane 2";
    let init = |t: usize, r: &mut [u32; NUM_REGS]| {
        r[0] = t as u32;
        r[1] = (t & 1) as u32;
    };
    let (out, regs) = run_full(text, 16, &[], &init, &mut Memory::new()).unwrap();
    for (t, r) in regs.iter().enumerate() {
        let t = t as u32;
        let r3 = if t % 2 == 0 { t + 0x100 } else { t + 0x200 };
        assert_eq!(r[3], r3, "thread {t}");
        assert_eq!(r[4], r3 + 1);
        let n = t ^ 1;
        let nr3 = if n % 2 == 0 { n + 0x100 } else { n + 0x200 };
        assert_eq!(r[5], nr3 + 1, "CLPER after the join reads lane {n}");
        if t % 2 == 0 {
            assert_eq!(r[6], 0xFFFF_FFFF, "odd lanes are inactive in the even path");
        }
        assert_eq!(r[7], 2, "lane 2 is active at the join");
    }
    // Even: 0,1,2,3,5,6,7 (7 instructions); odd: 0,4,5,6,7 (5).
    assert_eq!(out.thread_instructions, 8 * 7 + 8 * 5);
    assert!(out.discarded.iter().all(|d| !d));
}

/// A loop whose trip count differs per thread (`t % 5 + 1` iterations).
#[test]
fn loop_with_per_thread_trip_count() {
    let text = "\
        IADD_IMM.i32 r2, r2, #0x3                 // 0
        IADD_IMM.i32 r1, r1, #0xFFFFFFFF          // 1
        BRANCHZ.reconverge r1, offset:-3          // 2: back to 0 while r1 != 0
        IADD_IMM.i32 r3, r2, #0x1                 // 3
        CLPER.i32 r4, r2, 0x3020100.b00           // 4: lane 0's r2, all lanes active";
    let init = |t: usize, r: &mut [u32; NUM_REGS]| r[1] = (t % 5 + 1) as u32;
    let (out, regs) = run_full(text, 32, &[], &init, &mut Memory::new()).unwrap();
    let mut expected_count = 0;
    for (t, r) in regs.iter().enumerate() {
        let n = (t % 5 + 1) as u32;
        assert_eq!(r[2], 3 * n, "thread {t}");
        assert_eq!(r[3], 3 * n + 1);
        let lane0 = t / 16 * 16;
        assert_eq!(r[4], 3 * (lane0 % 5 + 1) as u32, "lane 0 of the warp");
        expected_count += 3 * u64::from(n) + 2;
    }
    assert_eq!(out.thread_instructions, expected_count);
}

/// DISCARD inside a branch: only threads that reach it and satisfy the condition are
/// discarded; they run nothing afterwards.
#[test]
fn discard_inside_branch() {
    let text = "\
        BRANCHZ.reconverge r1, offset:1           // odd threads skip the discard
        DISCARD.f32.lt r2, r3
        IADD_IMM.i32 r4, r0, #0x5";
    let init = |t: usize, r: &mut [u32; NUM_REGS]| {
        r[0] = t as u32;
        r[1] = (t & 1) as u32;
        r[2] = fb(if t % 4 == 0 || t % 4 == 1 { 0.0 } else { 2.0 });
        r[3] = fb(1.0);
    };
    let (out, regs) = run_full(text, 20, &[], &init, &mut Memory::new()).unwrap();
    for (t, r) in regs.iter().enumerate() {
        let discarded = t % 4 == 0;
        assert_eq!(out.discarded[t], discarded, "thread {t}");
        assert_eq!(r[4], if discarded { 0 } else { t as u32 + 5 });
    }
    assert_eq!(out.discarded.len(), 20);
}

/// `.end` finishes the threads executing it; instructions after it are not run.
#[test]
fn end_flow() {
    let text = "\
        BRANCHZ.reconverge r1, offset:2
        IADD_IMM.i32 r2, r0, #0x1
        NOP.end
        IADD_IMM.i32 r3, r0, #0x2
        IADD_IMM.i32.end r4, r0, #0x3
        IADD_IMM.i32 r5, r0, #0x4";
    let init = |t: usize, r: &mut [u32; NUM_REGS]| r[1] = (t & 1) as u32;
    let (out, regs) = run_full(text, 16, &[], &init, &mut Memory::new()).unwrap();
    for (t, r) in regs.iter().enumerate() {
        if t % 2 == 0 {
            assert_eq!((r[2], r[3], r[4]), (1, 0, 0));
        } else {
            assert_eq!((r[2], r[3], r[4]), (0, 2, 3));
        }
        assert_eq!(r[5], 0);
    }
    assert_eq!(out.thread_instructions, 8 * 3 + 8 * 3);
}

/// CLPER in a partial warp: lanes past `threads` never exist and read as inactive.
#[test]
fn clper_partial_warp_and_xor() {
    let text = "\
        CLPER.i32.xor.smax r1, r0, 0x3020100.b11
        CLPER.i32.f1 r2, r0, 0xF0E0D0C.b33
        CLPER.i32.xor.i1 r3, r0, 0x7060504.b00";
    let init = |t: usize, r: &mut [u32; NUM_REGS]| r[0] = 100 + t as u32;
    let (_, regs) = run_full(text, 28, &[], &init, &mut Memory::new()).unwrap();
    for (t, r) in regs.iter().enumerate() {
        let n = t ^ 1;
        let exists = n < 28;
        assert_eq!(
            r[1],
            if exists { 100 + n as u32 } else { 0x7FFF_FFFF },
            "thread {t}"
        );
        // lane 15 exists in warp 0 only (warp 1 has 12 threads).
        let l15 = t / 16 * 16 + 15;
        assert_eq!(
            r[2],
            if l15 < 28 {
                100 + l15 as u32
            } else {
                0x3F80_0000
            }
        );
        // lane ^ 4
        let x = t ^ 4;
        assert_eq!(r[3], if x < 28 { 100 + x as u32 } else { 1 });
    }
}

/// An infinite loop stops cleanly at the step limit.
#[test]
fn step_limit_stops_infinite_loop() {
    let s = shader("IADD_IMM.i32 r1, r1, #0x1\nBRANCHZ 0xFFFFFFFF, offset:-2");
    let init = |_: usize, _: &mut [u32; NUM_REGS]| {};
    let err = s
        .run(&launch(40, &init, 1000), &mut Memory::new())
        .unwrap_err();
    assert_eq!(
        err,
        SimError::StepLimit {
            limit: 1000,
            thread: 0
        }
    );
}

/// The first thread over the limit is reported, warps running in order.
#[test]
fn step_limit_reports_first_thread() {
    // Thread t runs 3(t + 1) + 1 = 3t + 4 steps.
    let s = shader(
        "IADD_IMM.i32 r2, r2, #0x3\n\
         IADD_IMM.i32 r1, r1, #0xFFFFFFFF\n\
         BRANCHZ r1, offset:-3\n\
         NOP",
    );
    let init = |t: usize, r: &mut [u32; NUM_REGS]| r[1] = t as u32 + 1;
    // 3·20 + 4 = 64 is within a limit of 64; thread 21 needs 67.
    let err = s
        .run(&launch(32, &init, 64), &mut Memory::new())
        .unwrap_err();
    assert_eq!(
        err,
        SimError::StepLimit {
            limit: 64,
            thread: 21
        }
    );
    let out = s.run(&launch(21, &init, 64), &mut Memory::new()).unwrap();
    assert_eq!(
        out.thread_instructions,
        (0..21u64).map(|t| 3 * t + 4).sum::<u64>()
    );
}

/// Step weights: each executed instruction costs its weight (0 allowed).
#[test]
fn step_weights() {
    let s = shader("NOP\nNOP\nNOP");
    let init = |_: usize, _: &mut [u32; NUM_REGS]| {};
    let weights = [10, 0, 5];
    let mut l = launch(3, &init, 15);
    l.step_weights = Some(&weights);
    let out = s.run(&l, &mut Memory::new()).unwrap();
    assert_eq!(out.thread_instructions, 9, "unweighted count");
    l.step_limit = 14;
    assert!(matches!(
        s.run(&l, &mut Memory::new()),
        Err(SimError::StepLimit {
            limit: 14,
            thread: 0
        })
    ));
    let short = [1u32, 2];
    l.step_weights = Some(&short);
    assert!(matches!(
        s.run(&l, &mut Memory::new()),
        Err(SimError::BadLaunch(_))
    ));
}

/// A taken branch outside `0..=len` is `BadBranch`; one to `len` ends the thread; an
/// untaken bad branch is harmless.
#[test]
fn branch_targets() {
    let init = |t: usize, r: &mut [u32; NUM_REGS]| r[1] = (t == 3) as u32;
    let bad = shader("BRANCHZ r1, offset:5\nNOP");
    assert_eq!(
        bad.run(&launch(16, &init, 100), &mut Memory::new()),
        Err(SimError::BadBranch {
            index: 0,
            target: 6
        })
    );
    let back = shader("NOP\nBRANCHZ r1, offset:-3");
    assert_eq!(
        back.run(&launch(16, &init, 100), &mut Memory::new()),
        Err(SimError::BadBranch {
            index: 1,
            target: -1
        })
    );
    // Nobody takes it: fine.
    let none = |_: usize, _: &mut [u32; NUM_REGS]| {};
    assert!(bad.run(&launch(16, &none, 100), &mut Memory::new()).is_ok());
    // Branch to the end (index len) finishes the taking threads.
    let (out, regs) = run_full(
        "BRANCHZ r1, offset:1\nIADD_IMM.i32 r2, r0, #0x1",
        16,
        &[],
        &init,
        &mut Memory::new(),
    )
    .unwrap();
    for (t, r) in regs.iter().enumerate() {
        assert_eq!(r[2], u32::from(t != 3));
    }
    assert_eq!(out.thread_instructions, 16 + 15);
}

/// BRANCHZ conditions: `.eq` inverts; `Combine` h0/h1 test only that half (§7, §2.1).
#[test]
fn branch_conditions() {
    let text = "\
        BRANCHZ r0.h0, offset:1
        IADD_IMM.i32 r2, r2, #0x1
        BRANCHZ r0.h1, offset:1
        IADD_IMM.i32 r3, r3, #0x1
        BRANCHZ.eq r0, offset:1
        IADD_IMM.i32 r4, r4, #0x1";
    let vals = [0u32, 0x0000_0001, 0x0001_0000, 0x0001_0001];
    let init = move |t: usize, r: &mut [u32; NUM_REGS]| r[0] = vals[t % 4];
    let (_, regs) = run_full(text, 16, &[], &init, &mut Memory::new()).unwrap();
    for (t, r) in regs.iter().enumerate() {
        let v = vals[t % 4];
        assert_eq!(
            r[2],
            u32::from(v & 0xFFFF == 0),
            "h0 taken skips, value {v:#x}"
        );
        assert_eq!(r[3], u32::from(v >> 16 == 0), "h1, value {v:#x}");
        assert_eq!(r[4], u32::from(v != 0), ".eq taken when zero, value {v:#x}");
    }
}

/// Nested divergence: an inner branch inside a divergent region, reconverging at both
/// levels.
#[test]
fn nested_divergence() {
    let text = "\
        BRANCHZ r1, offset:4                  // 0: bit 0 set → 5
        BRANCHZ r2, offset:1                  // 1: bit 1 set → 3
        IADD_IMM.i32 r3, r3, #0x1             // 2
        IADD_IMM.i32 r3, r3, #0x10            // 3
        BRANCHZ 0xFFFFFFFF, offset:0          // 4: → 5
        IADD_IMM.i32 r3, r3, #0x100           // 5
        CLPER.i32 r4, r3, 0x7060504.b11       // 6: lane 5";
    let init = |t: usize, r: &mut [u32; NUM_REGS]| {
        r[1] = (t & 1) as u32;
        r[2] = (t & 2) as u32;
    };
    let (_, regs) = run_full(text, 16, &[], &init, &mut Memory::new()).unwrap();
    let want = |t: usize| -> u32 {
        match (t & 1 != 0, t & 2 != 0) {
            (true, _) => 0x100,
            (false, true) => 0x110,
            (false, false) => 0x111,
        }
    };
    for (t, r) in regs.iter().enumerate() {
        assert_eq!(r[3], want(t), "thread {t}");
        assert_eq!(r[4], want(5));
    }
}

/// Empty program and zero threads.
#[test]
fn degenerate_launches() {
    let init = |_: usize, _: &mut [u32; NUM_REGS]| {};
    let empty = Shader::from_words(&[]).unwrap();
    assert!(empty.is_empty());
    let out = empty.run(&launch(5, &init, 0), &mut Memory::new()).unwrap();
    assert_eq!(out.thread_instructions, 0);
    assert_eq!(out.discarded, vec![false; 5]);
    let out = shader("NOP")
        .run(&launch(0, &init, 0), &mut Memory::new())
        .unwrap();
    assert!(out.discarded.is_empty());
    assert_eq!(
        shader("NOP").run(&launch(1, &init, 0), &mut Memory::new()),
        Err(SimError::StepLimit {
            limit: 0,
            thread: 0
        })
    );
}

/// A loop made only of weight-0 instructions still ends with `StepLimit`; a program that
/// merely has many weight-0 instructions does not.
#[test]
fn zero_weight_loop_is_stopped() {
    let s = shader("NOP\nIADD_IMM.i32 r1, r1, #0x1\nBRANCHZ 0xFFFFFFFF, offset:-2");
    let init = |_: usize, _: &mut [u32; NUM_REGS]| {};
    let weights = [1, 0, 0];
    let mut l = launch(17, &init, 50);
    l.step_weights = Some(&weights);
    assert_eq!(
        s.run(&l, &mut Memory::new()),
        Err(SimError::StepLimit {
            limit: 50,
            thread: 0
        })
    );
    // 40 weight-0 instructions and 2 weighted ones within a budget of 2.
    let mut text = String::from("NOP\n");
    for _ in 0..40 {
        text.push_str("IADD_IMM.i32 r1, r1, #0x1\n");
    }
    text.push_str("NOP");
    let s = shader(&text);
    let mut weights = vec![0u32; 42];
    weights[0] = 1;
    weights[41] = 1;
    let mut l = launch(3, &init, 2);
    l.step_weights = Some(&weights);
    let out = s.run(&l, &mut Memory::new()).unwrap();
    assert_eq!(out.thread_instructions, 3 * 42);
}
