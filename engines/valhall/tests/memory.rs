//! The valhall engine on memory programs (TGSI LOAD, STORE, RESQ, ATOM*, BARRIER on
//! BUFFER and SHARED MEMORY): compile → encode → decode → simulate with the seeded warp
//! scheduler. Expected values are computed by hand from tgsi.rst ("Resource Access
//! Opcodes", "Atomic opcodes" formulas) and the oracle's memory model rules
//! (`shaderdiff_oracles::interp` docs), never taken from an engine's output; contended runs
//! are judged by the atomic comparator against the oracle replaying the engine's order.

use shaderdiff_compare::memory::compare_memory;
use shaderdiff_engine::{Engine, EngineConfig, Inputs, Outputs};
use shaderdiff_model::atomic::{AtomicOp, Space};
use shaderdiff_model::{File, Program};
use shaderdiff_oracles::interp::{replay_of, run_with, AtomicOrder};
use shaderdiff_oracles::{InterpConfig, RegKey};
use shaderdiff_valhall::engine::ValhallEngine;

fn parse(src: &str) -> Program {
    shaderdiff_tgsi::parse(src, "memory.tgsi").expect("test program parses")
}

fn buffer(n: u32) -> RegKey {
    RegKey::new(File::Buffer, n)
}

fn words(v: &[u32]) -> Vec<u8> {
    v.iter().flat_map(|w| w.to_le_bytes()).collect()
}

fn dwords(b: &[u8]) -> Vec<u32> {
    b.chunks(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

/// Inputs of `n` invocations with the given buffers.
fn bare_inputs(n: usize, buffers: &[(RegKey, Vec<u8>)]) -> Inputs {
    let mut i = Inputs {
        invocations: n,
        ..Inputs::default()
    };
    for (k, b) in buffers {
        i.buffers.insert(*k, b.clone());
    }
    i
}

/// [`bare_inputs`] with `SV[0]` = (i, 0, 0, 0) for invocation i.
fn inputs(n: usize, buffers: &[(RegKey, Vec<u8>)]) -> Inputs {
    let mut i = bare_inputs(n, buffers);
    i.registers.insert(
        RegKey::new(File::SystemValue, 0),
        (0..n as u32).map(|t| [t, 0, 0, 0]).collect(),
    );
    i
}

fn valhall(seed: u64, fault: Option<&str>) -> ValhallEngine {
    ValhallEngine::new(&EngineConfig {
        schedule_seed: seed,
        fault: fault.map(str::to_string),
        ..EngineConfig::default()
    })
}

fn run(src: &str, inp: &Inputs, seed: u64) -> Outputs {
    valhall(seed, None)
        .execute(&parse(src), inp)
        .expect("valhall runs the program")
}

/// The memory comparator's verdict on `actual` (the diff pipeline's rule,
/// `harness::diff_memory`): the oracle replays the engine's atomic order.
fn judge(src: &str, inp: &Inputs, actual: &Outputs) -> Vec<String> {
    let replay = replay_of(actual.atomics.as_deref().expect("an atomic log"));
    let oracle = run_with(
        &parse(src),
        inp,
        &InterpConfig::default(),
        None,
        AtomicOrder::Replay(&replay),
    )
    .expect("the oracle follows the order");
    compare_memory(inp, &oracle, "valhall", actual)
        .iter()
        .map(|m| format!("{} {} {}", m.register, m.channel, m.tolerance))
        .collect()
}

const LOAD_STORE: &str = "COMP
DCL SV[0], THREAD_ID
DCL BUFFER[0]
DCL BUFFER[1]
DCL BUFFER[2]
DCL TEMP[0..2]
IMM[0] UINT32 {16, 4, 0, 0}
UMUL TEMP[0].x, SV[0].xxxx, IMM[0].xxxx
UMUL TEMP[0].y, SV[0].xxxx, IMM[0].yyyy
LOAD TEMP[1], BUFFER[0].wzyx, TEMP[0].xxxx
STORE BUFFER[1].xyzw, TEMP[0].xxxx, TEMP[1]
RESQ TEMP[2].x, BUFFER[0]
STORE BUFFER[2].x, TEMP[0].yyyy, TEMP[2].xxxx
END
";

#[test]
fn load_with_swizzle_store_and_resq() {
    // BUFFER[0]: 12 dwords 0x100 + j. Invocation i loads the vec4 at 16i reversed (the
    // resource swizzle .wzyx: channel c = dword 4i + 3 - c) and stores it at 16i of
    // BUFFER[1]; invocation 3's load (bytes 48..64 of a 48-byte buffer) is out of range:
    // the valhall engine loads 0 there (the oracle's value is undefined). RESQ x = 48.
    let b0: Vec<u32> = (0..12).map(|j| 0x100 + j).collect();
    let inp = inputs(
        4,
        &[
            (buffer(0), words(&b0)),
            (buffer(1), vec![0xEE; 64]),
            (buffer(2), vec![0; 16]),
        ],
    );
    let out = run(LOAD_STORE, &inp, 0);
    let mut want = Vec::new();
    for i in 0..3u32 {
        want.extend((0..4).map(|c| 0x100 + 4 * i + 3 - c));
    }
    want.extend([0, 0, 0, 0]);
    assert_eq!(dwords(&out.buffers[&buffer(1)]), want);
    assert_eq!(dwords(&out.buffers[&buffer(2)]), [48; 4]);
    assert_eq!(dwords(&out.buffers[&buffer(0)]), b0, "loads change nothing");
    assert_eq!(out.atomics, Some(vec![]));
    assert!(judge(LOAD_STORE, &inp, &out).is_empty());
}

const STORE_OOB: &str = "COMP
DCL SV[0], THREAD_ID
DCL SV[1], BLOCK_ID
DCL BUFFER[0]
DCL TEMP[0..1]
IMM[0] UINT32 {8, 4, 2863267840, 3149594624}
UMAD TEMP[0].x, SV[0].xxxx, IMM[0].xxxx, IMM[0].yyyy
UADD TEMP[0].x, TEMP[0].xxxx, SV[1].xxxx
UADD TEMP[1].x, SV[0].xxxx, IMM[0].zzzz
UADD TEMP[1].y, SV[0].xxxx, IMM[0].wwww
STORE BUFFER[0].xy, TEMP[0].xxxx, TEMP[1]
END
";

#[test]
fn stores_out_of_range_are_dropped_whole() {
    // Invocation i stores (0xAAAA0000 + i, 0xBBBB0000 + i) at byte 8i + 4 + SV[1].x of a
    // 32-byte buffer. i = 0..2 fit; i = 3 covers bytes 28..36 (4 outside): dropped, so
    // dword 7 keeps its value; i = 4 with SV[1].x = -40 starts at 0xfffffffc, where
    // offset + 8 wraps to 4: out of range, nothing stored (dword 0 keeps its value).
    let b0: Vec<u32> = (0..8).map(|j| 0x5000 + j).collect();
    let mut inp = inputs(5, &[(buffer(0), words(&b0))]);
    let mut sv1 = vec![[0u32; 4]; 5];
    sv1[4][0] = (-40i32) as u32;
    inp.registers.insert(RegKey::new(File::SystemValue, 1), sv1);
    let out = run(STORE_OOB, &inp, 0);
    let want = [
        0x5000,
        0xAAAA_0000,
        0xBBBB_0000,
        0xAAAA_0001,
        0xBBBB_0001,
        0xAAAA_0002,
        0xBBBB_0002,
        0x5007,
    ];
    assert_eq!(dwords(&out.buffers[&buffer(0)]), want);
    assert!(judge(STORE_OOB, &inp, &out).is_empty());
}

/// One atomic case: opcode, initial memory word, operands, new memory word, returned x.
struct Case {
    op: &'static str,
    init: u32,
    cmp: Option<u32>,
    src: u32,
    new: u32,
    ret: u32,
}

const fn case(op: &'static str, init: u32, src: u32, new: u32, ret: u32) -> Case {
    Case {
        op,
        init,
        cmp: None,
        src,
        new,
        ret,
    }
}

#[test]
fn every_atomic_opcode_follows_tgsi_rst() {
    // tgsi.rst "Atomic opcodes": dst_x = resource[offset]; resource[offset] = f(old, src)
    // (ATOMINC_WRAP: dst_x = old + 1). Values evaluated by hand.
    let cases = [
        case("ATOMUADD", 0xffff_ffff, 2, 1, 0xffff_ffff),
        case("ATOMXCHG", 5, 9, 9, 5),
        Case {
            cmp: Some(5),
            ..case("ATOMCAS", 5, 9, 9, 5)
        },
        Case {
            cmp: Some(4),
            ..case("ATOMCAS", 5, 9, 5, 5)
        },
        case("ATOMAND", 0b1100, 0b1010, 0b1000, 0b1100),
        case("ATOMOR", 0b1100, 0b1010, 0b1110, 0b1100),
        case("ATOMXOR", 0b1100, 0b1010, 0b0110, 0b1100),
        case("ATOMUMIN", 0xffff_ffff, 1, 1, 0xffff_ffff),
        case("ATOMUMAX", 0xffff_ffff, 1, 0xffff_ffff, 0xffff_ffff),
        case("ATOMIMIN", 0xffff_ffff, 1, 0xffff_ffff, 0xffff_ffff),
        case("ATOMIMAX", 0xffff_ffff, 1, 1, 0xffff_ffff),
        // 1.5 + 2.25 = 3.75.
        case(
            "ATOMFADD",
            0x3fc0_0000,
            0x4010_0000,
            0x4070_0000,
            0x3fc0_0000,
        ),
        // INC_WRAP: old + 1 <= src ? old + 1 : 0.
        case("ATOMINC_WRAP", 2, 3, 3, 3),
        case("ATOMINC_WRAP", 3, 3, 0, 4),
        // DEC_WRAP: old > 0 && old < src ? old - 1 : 0.
        case("ATOMDEC_WRAP", 2, 3, 1, 2),
        case("ATOMDEC_WRAP", 0, 3, 0, 0),
        case("ATOMDEC_WRAP", 5, 3, 0, 5),
    ];
    for c in &cases {
        let operands = match c.cmp {
            Some(_) => "IMM[0].yyyy, IMM[0].zzzz",
            None => "IMM[0].zzzz",
        };
        let src = format!(
            "COMP\nDCL BUFFER[0]\nDCL BUFFER[1]\nDCL TEMP[0]\n\
             IMM[0] UINT32 {{4, {}, {}, 0}}\n\
             {} TEMP[0].x, BUFFER[0], IMM[0].xxxx, {operands}\n\
             STORE BUFFER[1].x, IMM[0].wwww, TEMP[0].xxxx\nEND\n",
            c.cmp.unwrap_or(0),
            c.src,
            c.op
        );
        let inp = bare_inputs(
            1,
            &[
                (buffer(0), words(&[0x77, c.init, 0x77])),
                (buffer(1), vec![0; 4]),
            ],
        );
        let out = run(&src, &inp, 0);
        let name = c.op;
        assert_eq!(
            dwords(&out.buffers[&buffer(0)]),
            [0x77, c.new, 0x77],
            "{name}"
        );
        assert_eq!(dwords(&out.buffers[&buffer(1)]), [c.ret], "{name}");
        let log = out.atomics.as_ref().unwrap();
        assert_eq!(log.len(), 1, "{name}");
        let r = log[0];
        assert_eq!(r.op.name(), name);
        assert_eq!(
            (r.old, r.src, r.seq, r.invocation),
            (c.init.into(), c.src.into(), 0, 0)
        );
        assert_eq!(r.cmp, u64::from(c.cmp.unwrap_or(0)), "{name}");
        assert_eq!(r.location.offset, 4, "{name}");
        assert!(judge(&src, &inp, &out).is_empty(), "{name}");
    }
}

#[test]
fn atomics_out_of_range_or_without_x_are_not_performed_but_counted() {
    // Three ATOMUADDs: the first at offset 8 of an 8-byte buffer (out of range), the
    // second with writemask .y (not performed: EXEC-NOTES §7), the third at offset 4.
    // Only the third is performed and logged, as the invocation's atomic #2.
    let src = "COMP
DCL BUFFER[0]
DCL TEMP[0]
IMM[0] UINT32 {8, 4, 5, 0}
ATOMUADD TEMP[0].x, BUFFER[0], IMM[0].xxxx, IMM[0].zzzz
ATOMUADD TEMP[0].y, BUFFER[0], IMM[0].yyyy, IMM[0].zzzz
ATOMUADD TEMP[0].x, BUFFER[0], IMM[0].yyyy, IMM[0].zzzz
END
";
    let inp = bare_inputs(1, &[(buffer(0), words(&[10, 20]))]);
    let out = run(src, &inp, 0);
    assert_eq!(dwords(&out.buffers[&buffer(0)]), [10, 25]);
    let log = out.atomics.as_ref().unwrap();
    assert_eq!(log.len(), 1);
    assert_eq!((log[0].seq, log[0].old, log[0].src), (2, 20, 5));
    assert!(judge(src, &inp, &out).is_empty());
}

/// 256 invocations, workgroups of 64: invocation i applies `op` to dword `i % addrs` of
/// BUFFER[0] with operand i + 1 (ATOMCAS: compare i, store i + 1) and stores what it got
/// at 4i of BUFFER[1].
fn contended(op: &str, addrs: u32) -> String {
    let operands = if op == "ATOMCAS" {
        "SV[0].xxxx, TEMP[0].yyyy"
    } else {
        "TEMP[0].yyyy"
    };
    format!(
        "COMP
PROPERTY CS_FIXED_BLOCK_WIDTH 64
DCL SV[0], THREAD_ID
DCL BUFFER[0]
DCL BUFFER[1]
DCL TEMP[0..1]
IMM[0] UINT32 {{{mask}, 4, 1, 2}}
AND TEMP[0].x, SV[0].xxxx, IMM[0].xxxx
SHL TEMP[0].x, TEMP[0].xxxx, IMM[0].wwww
UADD TEMP[0].y, SV[0].xxxx, IMM[0].zzzz
UMUL TEMP[0].z, SV[0].xxxx, IMM[0].yyyy
{op} TEMP[1].x, BUFFER[0], TEMP[0].xxxx, {operands}
STORE BUFFER[1].x, TEMP[0].zzzz, TEMP[1].xxxx
END
",
        mask = addrs - 1
    )
}

fn contended_inputs(addrs: u32) -> Inputs {
    inputs(
        256,
        &[
            (buffer(0), vec![0; 4 * addrs as usize]),
            (buffer(1), vec![0; 1024]),
        ],
    )
}

#[test]
fn contended_atomics_pass_the_atomic_comparator_under_several_seeds() {
    for op in ["ATOMUADD", "ATOMIMAX", "ATOMCAS", "ATOMXCHG"] {
        for addrs in [1u32, 4, 64] {
            let src = contended(op, addrs);
            let inp = contended_inputs(addrs);
            for seed in [0u64, 1, 7, 0xdead_beef] {
                let out = run(&src, &inp, seed);
                let log = out.atomics.as_ref().unwrap();
                let performed = if op == "ATOMCAS" {
                    log.len()
                } else {
                    assert_eq!(log.len(), 256, "{op} {addrs} {seed}");
                    256
                };
                assert!(performed > 0);
                let bad = judge(&src, &inp, &out);
                assert!(
                    bad.is_empty(),
                    "{op} on {addrs} addresses, seed {seed}: {bad:?}"
                );
                let fin = dwords(&out.buffers[&buffer(0)]);
                for (a, &v) in fin.iter().enumerate() {
                    // Hand-computed finals of the order-independent operations: the sum
                    // and the maximum of i + 1 over the invocations i ≡ a (mod addrs).
                    let mine = (0..256u32).filter(|i| i % addrs == a as u32);
                    match op {
                        "ATOMUADD" => assert_eq!(v, mine.map(|i| i + 1).sum::<u32>()),
                        "ATOMIMAX" => assert_eq!(v, mine.map(|i| i + 1).max().unwrap()),
                        _ => {}
                    }
                }
            }
        }
    }
}

#[test]
fn seeds_change_the_interleaving() {
    // On one address, the values ATOMUADD returns are the prefix sums of the serial order;
    // warps interleave at memory messages and lanes of a warp in a seeded order, so two
    // seeds give different orders (with 256 atomics, equal orders are astronomically
    // unlikely), and both are legal (previous test).
    let src = contended("ATOMUADD", 1);
    let inp = contended_inputs(1);
    let a = run(&src, &inp, 1).buffers[&buffer(1)].clone();
    let b = run(&src, &inp, 2).buffers[&buffer(1)].clone();
    assert_ne!(a, b);
    // The same seed gives the same run.
    assert_eq!(run(&src, &inp, 1).buffers[&buffer(1)], a);
    // Not program order: some invocation found more than the sum of those before it.
    let got = dwords(&a);
    assert!((0..256u32).any(|i| got[i as usize] != i * (i + 1) / 2));
}

#[test]
fn the_lost_update_fault_loses_updates_and_the_comparator_says_so() {
    let src = contended("ATOMUADD", 1);
    let inp = contended_inputs(1);
    let out = valhall(3, Some("atomic-lost-update"))
        .execute(&parse(&src), &inp)
        .unwrap();
    let fin = dwords(&out.buffers[&buffer(0)])[0];
    assert!(fin < 256 * 257 / 2, "updates were lost: {fin}");
    let log = out.atomics.as_ref().unwrap();
    assert_eq!(log.len(), 256);
    assert!(log.iter().all(|r| r.op == AtomicOp::Add));
    let bad = judge(&src, &inp, &out);
    assert!(
        bad.iter().any(|m| m.contains("not serializable")),
        "{bad:?}"
    );
}

#[test]
fn shared_memory_and_barrier_across_warps() {
    // Workgroups of 32 invocations (two warps each), 64 invocations. Invocation
    // i = 32·g + l stores 3i + 1 at 4l of its workgroup's MEMORY[0], waits at the barrier,
    // then reads its neighbour's word 4((l + 1) mod 32) and stores it at 4i of BUFFER[0].
    // So BUFFER[0][i] = 3(32g + (l + 1) mod 32) + 1: lane 15 reads lane 16, written by the
    // other warp, which the barrier makes visible whatever the schedule.
    let src = "COMP
PROPERTY CS_FIXED_BLOCK_WIDTH 32
DCL SV[0], THREAD_ID
DCL SV[1], BLOCK_ID
DCL MEMORY[0], SHARED
DCL BUFFER[0]
DCL TEMP[0..2]
IMM[0] UINT32 {32, 4, 3, 1}
IMM[1] UINT32 {31, 0, 0, 0}
UMAD TEMP[0].x, SV[1].xxxx, IMM[0].xxxx, SV[0].xxxx
UMAD TEMP[0].y, TEMP[0].xxxx, IMM[0].zzzz, IMM[0].wwww
UMUL TEMP[0].z, SV[0].xxxx, IMM[0].yyyy
STORE MEMORY[0].x, TEMP[0].zzzz, TEMP[0].yyyy
BARRIER
UADD TEMP[1].x, SV[0].xxxx, IMM[0].wwww
AND TEMP[1].x, TEMP[1].xxxx, IMM[1].xxxx
UMUL TEMP[1].x, TEMP[1].xxxx, IMM[0].yyyy
LOAD TEMP[2].x, MEMORY[0], TEMP[1].xxxx
UMUL TEMP[0].w, TEMP[0].xxxx, IMM[0].yyyy
STORE BUFFER[0].x, TEMP[0].wwww, TEMP[2].xxxx
END
";
    let mut inp = inputs(
        64,
        &[
            (RegKey::new(File::Memory, 0), vec![0; 128]),
            (buffer(0), vec![0; 256]),
        ],
    );
    inp.registers.insert(
        RegKey::new(File::SystemValue, 0),
        (0..64u32).map(|i| [i % 32, 0, 0, 0]).collect(),
    );
    inp.registers.insert(
        RegKey::new(File::SystemValue, 1),
        (0..64u32).map(|i| [i / 32, 0, 0, 0]).collect(),
    );
    let want: Vec<u32> = (0..64u32)
        .map(|i| 3 * (32 * (i / 32) + (i % 32 + 1) % 32) + 1)
        .collect();
    // Workgroup 0's copy of the shared memory: 3l + 1.
    let shared: Vec<u32> = (0..32u32).map(|l| 3 * l + 1).collect();
    for seed in [0u64, 5, 11] {
        let out = run(src, &inp, seed);
        assert_eq!(dwords(&out.buffers[&buffer(0)]), want, "seed {seed}");
        assert_eq!(
            dwords(&out.buffers[&RegKey::new(File::Memory, 0)]),
            shared,
            "seed {seed}"
        );
        assert!(judge(src, &inp, &out).is_empty());
    }
}

#[test]
fn memory_messages_under_register_pressure() {
    // 60 vec4 temporaries (240 values, more than the 56 allocatable registers) stay live
    // across a swizzled LOAD, an ATOMCAS and a STORE, so values are spilled and reloaded
    // around the messages' staging registers. TEMP[k] = (k + 1)·(1, 2, 3, 4).
    let n = 60;
    let mut src = String::from(
        "COMP\nDCL BUFFER[0]\nDCL BUFFER[1]\nDCL TEMP[0..63]\n\
         IMM[0] UINT32 {1, 2, 3, 4}\nIMM[1] UINT32 {16, 7, 9, 960}\n\
         MOV TEMP[0], IMM[0]\n",
    );
    for k in 1..n {
        src += &format!("UADD TEMP[{k}], TEMP[{}], IMM[0]\n", k - 1);
    }
    // LOAD .yx of BUFFER[0] at byte 16 with the resource swizzle .zx: y <- dword 4 + 0,
    // x <- dword 4 + 2. ATOMCAS at byte 4: compare 7, store 9.
    src += "LOAD TEMP[60].xy, BUFFER[0].zxzx, IMM[1].xxxx\n\
            ATOMCAS TEMP[61].x, BUFFER[0], IMM[0].wwww, IMM[1].yyyy, IMM[1].zzzz\n\
            STORE BUFFER[1].xy, IMM[1].wwww, TEMP[60]\n\
            STORE BUFFER[1].z, IMM[1].wwww, TEMP[61].xxxx\n";
    for k in 0..n {
        src += &format!("STORE BUFFER[1].xyzw, IMM[{}].xxxx, TEMP[{k}]\n", 2 + k);
    }
    // IMM[2 + k] = 16k: the byte offset of TEMP[k]'s copy.
    let mut imms = String::new();
    for k in 0..n {
        imms += &format!("IMM[{}] UINT32 {{{}, 0, 0, 0}}\n", 2 + k, 16 * k);
    }
    let src = src.replacen(
        "MOV TEMP[0], IMM[0]\n",
        &format!("{imms}MOV TEMP[0], IMM[0]\n"),
        1,
    );
    let mut b0: Vec<u32> = (0..8).map(|j| 0x40 + j).collect();
    b0[1] = 7;
    let inp = bare_inputs(
        1,
        &[(buffer(0), words(&b0)), (buffer(1), vec![0; 16 * n + 16])],
    );
    let out = run(&src, &inp, 0);
    let got = dwords(&out.buffers[&buffer(1)]);
    for k in 0..n as u32 {
        let want: Vec<u32> = (1..=4).map(|c| (k + 1) * c).collect();
        assert_eq!(
            got[4 * k as usize..4 * k as usize + 4],
            want[..],
            "TEMP[{k}]"
        );
    }
    // x = dword 4 + 2 = 0x46, y = dword 4 + 0 = 0x44; the CAS found 7 and stored 9.
    assert_eq!(got[4 * n..4 * n + 3], [0x46, 0x44, 7]);
    assert_eq!(dwords(&out.buffers[&buffer(0)])[1], 9);
}

#[test]
fn shared_atomics_count_per_workgroup() {
    // Two workgroups of 4: each invocation ATOMUADDs 1 to word 0 of its workgroup's
    // MEMORY[0], waits at the barrier and copies the word to 4i of BUFFER[0]: 4 everywhere
    // (each copy counts its own workgroup's four adds). Workgroup 1's atomics are logged on
    // its own copy (Space::Workgroup), so they are not mixed with workgroup 0's.
    let src = "COMP
PROPERTY CS_FIXED_BLOCK_WIDTH 4
DCL SV[0], THREAD_ID
DCL MEMORY[0], SHARED
DCL BUFFER[0]
DCL TEMP[0..1]
IMM[0] UINT32 {0, 1, 4, 0}
ATOMUADD TEMP[0].x, MEMORY[0], IMM[0].xxxx, IMM[0].yyyy
BARRIER
LOAD TEMP[1].x, MEMORY[0], IMM[0].xxxx
UMUL TEMP[0].y, SV[0].xxxx, IMM[0].zzzz
STORE BUFFER[0].x, TEMP[0].yyyy, TEMP[1].xxxx
END
";
    let inp = inputs(
        8,
        &[
            (RegKey::new(File::Memory, 0), vec![0; 4]),
            (buffer(0), vec![0; 32]),
        ],
    );
    for seed in [0u64, 1, 2] {
        let out = run(src, &inp, seed);
        assert_eq!(dwords(&out.buffers[&buffer(0)]), [4; 8], "seed {seed}");
        assert_eq!(dwords(&out.buffers[&RegKey::new(File::Memory, 0)]), [4]);
        let log = out.atomics.as_ref().unwrap();
        assert_eq!(log.len(), 8);
        for r in log {
            let want = if r.invocation < 4 {
                Space::Resource(RegKey::new(File::Memory, 0))
            } else {
                Space::Workgroup(RegKey::new(File::Memory, 0), 1)
            };
            assert_eq!(r.location.space, want);
        }
        let bad = judge(src, &inp, &out);
        assert!(bad.is_empty(), "seed {seed}: {bad:?}");
    }
}
