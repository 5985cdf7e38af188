//! The interpreter's memory model: LOAD / STORE / RESQ / ATOM* on BUFFER and MEMORY,
//! out-of-range accesses, workgroups, BARRIER and data races.
//!
//! Expected values come from tgsi.rst ("Resource Access Opcodes", "Atomic opcodes" formulas,
//! "Inter-thread synchronization opcodes"), EXEC-NOTES.md §7 (byte addresses, dwords,
//! ATOMCAS operand order, RESQ in bytes) and hand computation; never from an engine.

mod interp_common;

use interp_common::*;
use shaderdiff_compare::atomic::check_serializable;
use shaderdiff_model::File;
use shaderdiff_oracles::interp::{run_with, AtomicOrder};
use shaderdiff_oracles::{InterpConfig, Outputs, RegKey};

fn buf(i: u32) -> RegKey {
    RegKey::new(File::Buffer, i)
}

fn words(ws: &[u32]) -> Vec<u8> {
    ws.iter().flat_map(|w| w.to_le_bytes()).collect()
}

fn word_at(bytes: &[u8], off: usize) -> u32 {
    u32::from_le_bytes(bytes[off..off + 4].try_into().unwrap())
}

/// Runs `text` with `n` invocations, `SV[0].x` = the invocation index, and the given buffers.
fn run_mem(text: &str, n: usize, buffers: &[(RegKey, Vec<u8>)]) -> Outputs {
    let sv_needed = text.contains("SV[0]");
    let regs = if sv_needed {
        vec![(sv(0), (0..n as u32).map(|i| [i, 0, 0, 0]).collect())]
    } else {
        vec![]
    };
    let mut i = inputs(n, &regs);
    i.buffers = buffers.iter().cloned().collect();
    run_text(text, &i)
}

fn undefined_bytes(o: &Outputs, key: RegKey) -> Vec<bool> {
    o.buffers_undefined
        .get(&key)
        .cloned()
        .unwrap_or_else(|| vec![false; o.buffers[&key].len()])
}

const LOAD_VS: &str = "VERT
DCL BUFFER[0]
DCL OUT[0]
DCL OUT[1]
DCL OUT[2]
DCL OUT[3]
IMM[0] UINT32 {4, 2, 8, 12}
LOAD OUT[0], BUFFER[0], IMM[0].xxxx
LOAD OUT[1], BUFFER[0], IMM[0].yyyy
LOAD OUT[2], BUFFER[0], IMM[0].zzzz
LOAD OUT[3].x, BUFFER[0], IMM[0].wwww
END
";

#[test]
fn load_reads_dwords_at_byte_addresses() {
    // 16 bytes 0x00..0x0f: the dword at byte a is bytes a..a+4 little-endian.
    let bytes: Vec<u8> = (0u8..16).collect();
    let o = run_mem(LOAD_VS, 1, &[(buf(0), bytes)]);
    // Address 4 reads dwords at 4, 8, 12, 16: the last is outside a 16-byte buffer, so the
    // whole load is out of range (tgsi.rst: unspecified) and every channel undefined.
    assert_eq!(undef(&o, out(0))[0], 0xF);
    // Address 2 (unaligned, EXEC-NOTES §7: no alignment requirement): 2..18 is out of range too.
    assert_eq!(undef(&o, out(1))[0], 0xF);
    // Address 8, all four channels: 8..24 out of range.
    assert_eq!(undef(&o, out(2))[0], 0xF);
    // Address 12, .x only: one dword 12..16, inside.
    assert_eq!(undef(&o, out(3))[0] & 1, 0);
    assert_eq!(reg(&o, out(3))[0][0], 0x0f0e_0d0c);
}

#[test]
fn load_in_range_and_unaligned() {
    let bytes: Vec<u8> = (0u8..32).collect();
    let o = run_mem(LOAD_VS, 1, &[(buf(0), bytes)]);
    assert_eq!(undef(&o, out(0))[0], 0);
    assert_eq!(
        reg(&o, out(0))[0],
        [0x0706_0504, 0x0b0a_0908, 0x0f0e_0d0c, 0x1312_1110]
    );
    assert_eq!(
        reg(&o, out(1))[0],
        [0x0504_0302, 0x0908_0706, 0x0d0c_0b0a, 0x1110_0f0e]
    );
    // Memory is only read: the buffer is reported unchanged.
    assert_eq!(o.buffers[&buf(0)], (0u8..32).collect::<Vec<_>>());
    assert!(o.buffers_undefined.is_empty());
}

#[test]
fn store_writes_the_writemask_components() {
    let text = "COMP
DCL BUFFER[0]
IMM[0] UINT32 {0, 0, 0, 0}
IMM[1] UINT32 {286331153, 572662306, 858993459, 1145324612}
IMM[2] UINT32 {6, 0, 0, 0}
STORE BUFFER[0].yw, IMM[0].xxxx, IMM[1]
STORE BUFFER[0].x, IMM[2].xxxx, IMM[1].wwww
END
";
    let o = run_mem(text, 1, &[(buf(0), vec![0xaa; 20])]);
    let b = &o.buffers[&buf(0)];
    // .y -> bytes 4..8, .w -> 12..16; the unaligned .x store at byte 6 overwrites 6..10.
    let mut want = vec![0xaa; 20];
    want[4..8].copy_from_slice(&0x2222_2222u32.to_le_bytes());
    want[12..16].copy_from_slice(&0x4444_4444u32.to_le_bytes());
    want[6..10].copy_from_slice(&0x4444_4444u32.to_le_bytes());
    assert_eq!(b, &want);
    assert!(o.buffers_undefined.is_empty());
}

#[test]
fn out_of_range_store_leaves_only_the_covered_bytes_undefined() {
    let text = "COMP
DCL BUFFER[0]
IMM[0] UINT32 {4, 0, 0, 0}
IMM[1] UINT32 {1, 2, 3, 4}
STORE BUFFER[0].xyz, IMM[0].xxxx, IMM[1]
END
";
    // 12 bytes; the store covers 4..16: bytes 4..12 exist and may or may not be written.
    let o = run_mem(text, 1, &[(buf(0), vec![0; 12])]);
    assert_eq!(o.buffers[&buf(0)].len(), 12);
    let u = undefined_bytes(&o, buf(0));
    assert_eq!(u, [[false; 4], [true; 4], [true; 4]].concat());
}

#[test]
fn resq_gives_the_size_in_bytes() {
    let text = "VERT
DCL BUFFER[0]
DCL BUFFER[1]
DCL OUT[0]
DCL OUT[1]
RESQ OUT[0], BUFFER[0]
RESQ OUT[1].x, BUFFER[1]
END
";
    let o = run_mem(text, 1, &[(buf(0), vec![0; 24])]);
    assert_eq!(reg(&o, out(0))[0][0], 24);
    // tgsi.rst defines x only.
    assert_eq!(undef(&o, out(0))[0], 0b1110);
    // A buffer the inputs do not give is empty.
    assert_eq!(reg(&o, out(1))[0][0], 0);
}

/// One invocation runs `op` on the dword at byte 4 holding `init`, with `src` (and `cmp`
/// for ATOMCAS); returns (dst.x, final dword).
fn atom1(op: &str, init: u32, cmp: u32, src: u32) -> (u32, u32) {
    let operands = if op == "ATOMCAS" {
        "IMM[0].xxxx, IMM[0].yyyy, IMM[0].zzzz"
    } else {
        "IMM[0].xxxx, IMM[0].zzzz"
    };
    let text = format!(
        "VERT
DCL BUFFER[0]
DCL OUT[0]
IMM[0] UINT32 {{4, {cmp}, {src}, 0}}
{op} OUT[0].x, BUFFER[0], {operands}
END
"
    );
    let o = run_mem(&text, 1, &[(buf(0), words(&[0xdead, init, 0xbeef]))]);
    assert_eq!(undef(&o, out(0))[0] & 1, 0, "{op}");
    let b = &o.buffers[&buf(0)];
    assert_eq!(word_at(b, 0), 0xdead, "{op} touched its neighbour");
    assert_eq!(word_at(b, 8), 0xbeef, "{op} touched its neighbour");
    let log = o.atomics.as_ref().unwrap();
    assert_eq!(log.len(), 1);
    assert_eq!(log[0].old, init as u64);
    (reg(&o, out(0))[0][0], word_at(b, 4))
}

#[test]
fn every_atomic_opcode_on_one_invocation() {
    // tgsi.rst formulas by hand: (opcode, memory, cmp, src) -> (dst.x, memory after).
    let m1 = 0xffff_ffffu32; // -1 signed
    type Case = (&'static str, u32, u32, u32, (u32, u32));
    let cases: [Case; 16] = [
        ("ATOMUADD", 5, 0, 7, (5, 12)),
        ("ATOMUADD", m1, 0, 2, (m1, 1)),
        ("ATOMXCHG", 5, 0, 9, (5, 9)),
        ("ATOMCAS", 5, 5, 9, (5, 9)),
        ("ATOMCAS", 5, 4, 9, (5, 5)),
        ("ATOMAND", 0b1100, 0, 0b1010, (0b1100, 0b1000)),
        ("ATOMOR", 0b1100, 0, 0b1010, (0b1100, 0b1110)),
        ("ATOMXOR", 0b1100, 0, 0b1010, (0b1100, 0b0110)),
        ("ATOMUMIN", m1, 0, 1, (m1, 1)),
        ("ATOMUMAX", m1, 0, 1, (m1, m1)),
        ("ATOMIMIN", m1, 0, 1, (m1, m1)),
        ("ATOMIMAX", m1, 0, 1, (m1, 1)),
        // 1.5 + 2.25 = 3.75.
        (
            "ATOMFADD",
            0x3fc0_0000,
            0,
            0x4010_0000,
            (0x3fc0_0000, 0x4070_0000),
        ),
        // INC_WRAP: dst = old + 1 (tgsi.rst), memory = dst <= src ? dst : 0.
        ("ATOMINC_WRAP", 2, 0, 3, (3, 3)),
        ("ATOMINC_WRAP", 3, 0, 3, (4, 0)),
        // DEC_WRAP: 2 -> 1 when 2 < src; 0 stays 0 (-> 0).
        ("ATOMDEC_WRAP", 2, 0, 3, (2, 1)),
    ];
    for (op, init, cmp, src, want) in cases {
        assert_eq!(atom1(op, init, cmp, src), want, "{op} {init:#x} {src:#x}");
    }
    assert_eq!(atom1("ATOMDEC_WRAP", 0, 0, 3), (0, 0));
    assert_eq!(atom1("ATOMDEC_WRAP", 5, 0, 3), (5, 0));
}

#[test]
fn atomic_without_x_in_the_writemask_is_not_performed() {
    // EXEC-NOTES §7: "performed only if the dst writemask contains x".
    let text = "VERT
DCL BUFFER[0]
DCL OUT[0]
IMM[0] UINT32 {0, 5, 0, 0}
ATOMUADD OUT[0].y, BUFFER[0], IMM[0].xxxx, IMM[0].yyyy
END
";
    let o = run_mem(text, 1, &[(buf(0), words(&[1]))]);
    assert_eq!(word_at(&o.buffers[&buf(0)], 0), 1);
    assert!(o.atomics.unwrap().is_empty());
}

#[test]
fn out_of_range_atomic_is_undefined_and_not_performed() {
    let text = "VERT
DCL BUFFER[0]
DCL OUT[0]
DCL OUT[1]
IMM[0] UINT32 {8, 5, 6, 0}
ATOMUADD OUT[0].x, BUFFER[0], IMM[0].xxxx, IMM[0].yyyy
ATOMUADD OUT[1].x, BUFFER[0], IMM[0].zzzz, IMM[0].yyyy
END
";
    let o = run_mem(text, 1, &[(buf(0), words(&[1, 2]))]);
    assert_eq!(undef(&o, out(0))[0] & 1, 1);
    assert_eq!(undef(&o, out(1))[0] & 1, 1);
    // Byte 6: bytes 6..8 exist and become undefined; nothing else changes.
    assert_eq!(o.buffers[&buf(0)], words(&[1, 2]));
    let u = undefined_bytes(&o, buf(0));
    assert_eq!(u, [[false; 6].as_slice(), &[true; 2]].concat());
    assert!(o.atomics.unwrap().is_empty());
}

/// 256 invocations, `op` with `src(i)` (ATOMCAS: cmp 0) on address `(i % k) * 4`.
fn contended(op: &str, k: u32, src_of: &str) -> (Outputs, Vec<u8>) {
    let operands = if op == "ATOMCAS" {
        "TEMP[0].xxxx, IMM[0].wwww, TEMP[0].yyyy"
    } else {
        "TEMP[0].xxxx, TEMP[0].yyyy"
    };
    let text = format!(
        "COMP
PROPERTY CS_FIXED_BLOCK_WIDTH 64
DCL SV[0], THREAD_ID
DCL BUFFER[0]
DCL BUFFER[1]
DCL TEMP[0..1]
IMM[0] UINT32 {{{k}, 4, 1, 0}}
IMM[1] INT32 {{37, 256, 128, 0}}
UMOD TEMP[0].x, SV[0].xxxx, IMM[0].xxxx
UMUL TEMP[0].x, TEMP[0].xxxx, IMM[0].yyyy
{src_of}
{op} TEMP[1].x, BUFFER[0], {operands}
UMUL TEMP[0].z, SV[0].xxxx, IMM[0].yyyy
STORE BUFFER[1].x, TEMP[0].zzzz, TEMP[1].xxxx
END
"
    );
    let init = words(&vec![0; k as usize]);
    let o = run_mem(
        &text,
        256,
        &[(buf(0), init.clone()), (buf(1), vec![0; 1024])],
    );
    (o, init)
}

fn check_log(o: &Outputs, init: &[u8]) {
    let log = o.atomics.as_ref().unwrap();
    assert_eq!(log.len(), 256);
    let fin = &o.buffers[&buf(0)];
    check_serializable(log, &|l| word_at(init, l.offset as usize) as u64, &|l| {
        word_at(fin, l.offset as usize) as u64
    })
    .expect("the oracle's own log is serializable");
}

#[test]
fn contended_atomics_on_1_4_and_64_addresses() {
    for k in [1u32, 4, 64] {
        // ATOMUADD of i + 1: address a gets the sum of i + 1 over i = a mod k.
        let (o, init) = contended("ATOMUADD", k, "UADD TEMP[0].y, SV[0].xxxx, IMM[0].zzzz");
        check_log(&o, &init);
        for a in 0..k {
            let want: u32 = (0..256u32).filter(|i| i % k == a).map(|i| i + 1).sum();
            assert_eq!(word_at(&o.buffers[&buf(0)], 4 * a as usize), want, "k {k}");
        }
        assert!(o.buffers_undefined.is_empty());
        // The returned values at one address are distinct partial sums (every operand is
        // positive): no two invocations saw the same value there.
        let rets: std::collections::HashSet<(u32, u32)> = (0..256u32)
            .map(|i| (i % k, word_at(&o.buffers[&buf(1)], 4 * i as usize)))
            .collect();
        assert_eq!(rets.len(), 256);

        // ATOMIMAX of (37 i mod 256) - 128 (signed).
        let (o, init) = contended(
            "ATOMIMAX",
            k,
            "UMUL TEMP[0].y, SV[0].xxxx, IMM[1].xxxx\nUMOD TEMP[0].y, TEMP[0].yyyy, IMM[1].yyyy\nUADD TEMP[0].y, TEMP[0].yyyy, -IMM[1].zzzz",
        );
        check_log(&o, &init);
        for a in 0..k {
            let want = (0..256i32)
                .filter(|i| *i as u32 % k == a)
                .map(|i| (37 * i) % 256 - 128)
                .fold(0i32, i32::max);
            assert_eq!(word_at(&o.buffers[&buf(0)], 4 * a as usize) as i32, want);
        }

        // ATOMCAS 0 -> i + 1: exactly one winner per address, whose value stays.
        let (o, init) = contended("ATOMCAS", k, "UADD TEMP[0].y, SV[0].xxxx, IMM[0].zzzz");
        check_log(&o, &init);
        for a in 0..k {
            let fin = word_at(&o.buffers[&buf(0)], 4 * a as usize);
            let winners: Vec<u32> = (0..256u32)
                .filter(|i| i % k == a && word_at(&o.buffers[&buf(1)], 4 * *i as usize) == 0)
                .collect();
            assert_eq!(winners.len(), 1);
            assert_eq!(fin, winners[0] + 1);
        }

        // ATOMXCHG i + 1: the final value is one of the exchanged values; old values chain.
        let (o, init) = contended("ATOMXCHG", k, "UADD TEMP[0].y, SV[0].xxxx, IMM[0].zzzz");
        check_log(&o, &init);
        for a in 0..k {
            let fin = word_at(&o.buffers[&buf(0)], 4 * a as usize);
            assert!(fin >= 1 && (fin - 1) % k == a);
        }
    }
}

#[test]
fn replay_returns_the_given_old_values() {
    let text = "VERT
DCL BUFFER[0]
DCL OUT[0]
IMM[0] UINT32 {0, 5, 0, 0}
ATOMUADD OUT[0].x, BUFFER[0], IMM[0].xxxx, IMM[0].yyyy
END
";
    let p = parse(text);
    let mut i = inputs(2, &[]);
    i.buffers.insert(buf(0), words(&[100]));
    let replay = [((0u32, 0u32), 105u64), ((1, 0), 100)]
        .into_iter()
        .collect();
    let o = run_with(
        &p,
        &i,
        &InterpConfig::default(),
        None,
        AtomicOrder::Replay(&replay),
    )
    .unwrap();
    // Invocation 1 went first in the replayed order.
    assert_eq!(reg(&o, out(0))[0][0], 105);
    assert_eq!(reg(&o, out(0))[1][0], 100);
}

#[test]
fn after_a_barrier_replayed_atomics_leave_the_engines_final_value() {
    // Four invocations of one workgroup: ATOMXCHG word 0 with i + 10, BARRIER, LOAD word 0.
    // The engine's serial order 2, 0, 3, 1 (old values 0, 12, 10, 13) ends at 11, so every
    // load reads 11, whatever order the interpreter runs the replayed atomics in.
    let text = "COMP
PROPERTY CS_FIXED_BLOCK_WIDTH 4
DCL SV[0], THREAD_ID
DCL BUFFER[0]
DCL TEMP[0..1]
IMM[0] UINT32 {0, 10, 0, 0}
UADD TEMP[0].x, SV[0].xxxx, IMM[0].yyyy
ATOMXCHG TEMP[1].x, BUFFER[0], IMM[0].xxxx, TEMP[0].xxxx
BARRIER
LOAD TEMP[1].y, BUFFER[0].xxxx, IMM[0].xxxx
STORE BUFFER[0].y, IMM[0].xxxx, TEMP[1]
END
";
    let p = parse(text);
    let mut i = inputs(4, &[(sv(0), (0..4u32).map(|i| [i, 0, 0, 0]).collect())]);
    i.buffers.insert(buf(0), words(&[0, 0]));
    let replay = [
        ((2u32, 0u32), 0u64),
        ((0, 0), 12),
        ((3, 0), 10),
        ((1, 0), 13),
    ]
    .into_iter()
    .collect();
    let o = run_with(
        &p,
        &i,
        &InterpConfig::default(),
        None,
        AtomicOrder::Replay(&replay),
    )
    .unwrap();
    // Word 1 holds some invocation's load: 11 for all of them.
    assert_eq!(word_at(&o.buffers[&buf(0)], 4), 11);
    assert_eq!(word_at(&o.buffers[&buf(0)], 0), 11);
}

#[test]
fn racing_stores_and_loads_are_undefined() {
    // Workgroups of 1 (no CS_FIXED_BLOCK_*): invocations 0 and 1 are never ordered.
    let text = "COMP
DCL SV[0], THREAD_ID
DCL BUFFER[0]
DCL BUFFER[1]
DCL TEMP[0]
IMM[0] UINT32 {0, 4, 8, 0}
STORE BUFFER[0].x, IMM[0].xxxx, SV[0].xxxx
LOAD TEMP[0].x, BUFFER[0], IMM[0].xxxx
UMUL TEMP[0].y, SV[0].xxxx, IMM[0].yyyy
STORE BUFFER[1].x, TEMP[0].yyyy, TEMP[0].xxxx
STORE BUFFER[0].x, IMM[0].yyyy, IMM[0].zzzz
END
";
    let o = run_mem(text, 2, &[(buf(0), vec![0; 8]), (buf(1), vec![0; 8])]);
    // Dword 0: two invocations store different values: final bytes undefined.
    // Dword 1: both store 8 - still two unordered writers, undefined by the rule.
    assert_eq!(undefined_bytes(&o, buf(0)), vec![true; 8]);
    // The loads of dword 0 race with the other invocation's store.
    assert_eq!(undefined_bytes(&o, buf(1)), vec![true; 8]);
    // One invocation alone has no race.
    let o = run_mem(text, 1, &[(buf(0), vec![0; 8]), (buf(1), vec![0; 8])]);
    assert!(o.buffers_undefined.is_empty());
    assert_eq!(o.buffers[&buf(0)], words(&[0, 8]));
}

/// Invocation i (thread t = i & 3) stores i + 1 in shared slot t, then (after the BARRIER)
/// reads slot (t + 1) & 3 and stores what it read in BUFFER[0] at 4 i.
const BARRIER_CS: &str = "COMP
PROPERTY CS_FIXED_BLOCK_WIDTH 4
DCL SV[0], THREAD_ID
DCL BUFFER[0]
DCL MEMORY[0], SHARED
DCL TEMP[0..1]
IMM[0] UINT32 {4, 1, 3, 0}
AND TEMP[0].w, SV[0].xxxx, IMM[0].zzzz
UMUL TEMP[0].x, TEMP[0].wwww, IMM[0].xxxx
UADD TEMP[0].y, SV[0].xxxx, IMM[0].yyyy
UADD TEMP[0].z, TEMP[0].wwww, IMM[0].yyyy
AND TEMP[0].z, TEMP[0].zzzz, IMM[0].zzzz
UMUL TEMP[0].z, TEMP[0].zzzz, IMM[0].xxxx
UMUL TEMP[1].y, SV[0].xxxx, IMM[0].xxxx
STORE MEMORY[0].x, TEMP[0].xxxx, TEMP[0].yyyy
BARRIER
LOAD TEMP[1].x, MEMORY[0], TEMP[0].zzzz
STORE BUFFER[0].x, TEMP[1].yyyy, TEMP[1].xxxx
END
";

#[test]
fn barrier_makes_a_store_visible_to_the_workgroup() {
    let mem0 = RegKey::new(File::Memory, 0);
    let o = run_mem(BARRIER_CS, 4, &[(buf(0), vec![0; 16]), (mem0, vec![0; 16])]);
    // Invocation i read what invocation (i + 1) & 3 stored: ((i + 1) & 3) + 1.
    assert!(o.buffers_undefined.is_empty(), "{:?}", o.buffers_undefined);
    assert_eq!(o.buffers[&buf(0)], words(&[2, 3, 4, 1]));
    // SHARED memory is reported as workgroup 0's copy.
    assert_eq!(o.buffers[&mem0], words(&[1, 2, 3, 4]));
    // Without the BARRIER the load races with another invocation's store: undefined.
    let racy = BARRIER_CS.replace("BARRIER\n", "");
    let o = run_mem(&racy, 4, &[(buf(0), vec![0; 16]), (mem0, vec![0; 16])]);
    assert_eq!(undefined_bytes(&o, buf(0)), vec![true; 16]);
}

#[test]
fn shared_memory_is_per_workgroup() {
    // Two workgroups of 4: each starts from the inputs' MEMORY[0]; they never race.
    let mem0 = RegKey::new(File::Memory, 0);
    let o = run_mem(BARRIER_CS, 8, &[(buf(0), vec![0; 32]), (mem0, vec![0; 16])]);
    assert!(o.buffers_undefined.is_empty(), "{:?}", o.buffers_undefined);
    assert_eq!(o.buffers[&buf(0)], words(&[2, 3, 4, 1, 6, 7, 8, 5]));
    assert_eq!(o.buffers[&mem0], words(&[1, 2, 3, 4]));
}

#[test]
fn partial_barrier_leaves_memory_unconstrained() {
    let text = "COMP
PROPERTY CS_FIXED_BLOCK_WIDTH 2
DCL SV[0], THREAD_ID
DCL BUFFER[0]
IMM[0] UINT32 {0, 4, 0, 0}
UIF SV[0].xxxx
BARRIER
ENDIF
STORE BUFFER[0].x, IMM[0].xxxx, IMM[0].yyyy
END
";
    let o = run_mem(text, 2, &[(buf(0), vec![0; 4])]);
    assert_eq!(undefined_bytes(&o, buf(0)), vec![true; 4]);
}

#[test]
fn unsupported_memory_forms_are_refused() {
    use shaderdiff_oracles::ExecError;
    let bad = [
        // A workgroup larger than a chunk with BARRIER.
        "COMP\nPROPERTY CS_FIXED_BLOCK_WIDTH 128\nBARRIER\nEND\n",
        // PRIVATE memory.
        "COMP\nDCL MEMORY[0], PRIVATE\nDCL TEMP[0]\nLOAD TEMP[0], MEMORY[0], TEMP[0].xxxx\nEND\n",
    ];
    for t in bad {
        let r = exec(&parse(t), &inputs(1, &[]));
        assert!(
            matches!(
                r,
                Err(ExecError::Unsupported { .. } | ExecError::UnsupportedFeature { .. })
            ),
            "{t}: {r:?}"
        );
    }
    let r = exec(&parse("VERT\nBARRIER\nEND\n"), &inputs(1, &[]));
    assert!(matches!(r, Err(ExecError::InvalidProgram { .. })), "{r:?}");
}
