//! Memory on the jit: LOAD, STORE, RESQ, every ATOM*, BARRIER with SHARED memory. Expected
//! values are computed by hand from tgsi.rst ("Resource Access Opcodes", "Atomic opcodes",
//! "Inter-thread synchronization opcodes") and the oracle's "Memory model"
//! (`shaderdiff_oracles::interp` docs); every run is also compared with the interpreter on
//! the registers it calls defined, and the memory with its comparator.

use shaderdiff_compare::memory::compare_program_memory;
use shaderdiff_cranelift::JitEngine;
use shaderdiff_engine::{Engine, EngineConfig, EngineError, Inputs, Outputs};
use shaderdiff_model::atomic::AtomicOp;
use shaderdiff_model::{File, Opcode};
use shaderdiff_model::{RegKey, Vec4};
use shaderdiff_oracles::interp::{self, replay_of, AtomicOrder, InterpConfig};

use super::support::*;

fn buffer(n: u32) -> RegKey {
    RegKey::new(File::Buffer, n)
}

fn dword(bytes: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(bytes[at..at + 4].try_into().expect("4 bytes"))
}

/// Runs on the jit and the interpreter (registers agree where defined, [`run`]), then checks
/// the jit's memory against the oracle replayed in the jit's atomic order, as `diff` does.
fn run_mem(text: &str, ins: &Inputs) -> Outputs {
    let jit = run(text, ins);
    let program = parse(text);
    let log = jit
        .atomics
        .as_ref()
        .expect("programs with memory log their atomics");
    let replay = replay_of(log);
    let oracle = interp::run_with(
        &program,
        ins,
        &InterpConfig::default(),
        None,
        AtomicOrder::Replay(&replay),
    )
    .expect("oracle runs");
    let ms = compare_program_memory(&program, ins, &oracle, "jit", &jit);
    assert!(
        ms.is_empty(),
        "memory differs from the oracle's: {ms:?}\n{text}"
    );
    jit
}

/// The little-endian dword `a, a+1, a+2, a+3` (the LOAD of byte address `a` from a buffer
/// whose byte `k` is `k`).
fn seq_word(a: u32) -> u32 {
    u32::from_le_bytes([a as u8, (a + 1) as u8, (a + 2) as u8, (a + 3) as u8])
}

#[test]
fn load_reads_dwords_at_byte_addresses_and_bounds_checks() {
    // 32-byte buffer with byte k = k. An xyzw LOAD needs bytes addr..addr+16.
    let addrs = [0u32, 1, 4, 16, 17, 28, 32, 0xffff_fffc];
    let mut ins = inputs(
        addrs.len(),
        &[(input(0), addrs.iter().map(|&a| [a, 0, 0, 0]).collect())],
    );
    ins.buffers.insert(buffer(0), (0..32).collect());
    let text = "VERT\nDCL IN[0]\nDCL OUT[0]\nDCL BUFFER[0]\n\
                LOAD OUT[0], BUFFER[0], IN[0].xxxx\nEND\n";
    let o = run_mem(text, &ins);
    let want: Vec<Vec4> = addrs
        .iter()
        .map(|&a| {
            if u64::from(a) + 16 <= 32 {
                [0, 4, 8, 12].map(|k| seq_word(a + k))
            } else {
                // Out of range (tgsi.rst: unspecified): the jit returns 0.
                [0; 4]
            }
        })
        .collect();
    assert_eq!(
        want[3],
        [0x1312_1110, 0x1716_1514, 0x1b1a_1918, 0x1f1e_1d1c]
    );
    expect(&o, out(0), 0xF, &want);
    // The oracle calls exactly the out-of-range loads undefined.
    let oracle = interp::run(&parse(text), &ins, &InterpConfig::default()).unwrap();
    let und = &oracle.undefined[&out(0)];
    assert_eq!(und, &[0, 0, 0, 0, 0xF, 0xF, 0xF, 0xF]);
}

#[test]
fn load_swizzle_picks_dwords_and_only_written_channels_count_for_the_range() {
    // `.y` with swizzle wzyx reads the dword at addr + 8 (component z): in range up to 20.
    let addrs = [0u32, 20, 21, 3];
    let mut ins = inputs(
        4,
        &[(input(0), addrs.iter().map(|&a| [a, 0, 0, 0]).collect())],
    );
    ins.buffers.insert(buffer(0), (0..32).collect());
    let o = run_mem(
        "VERT\nDCL IN[0]\nDCL OUT[0]\nDCL BUFFER[0]\n\
         MOV OUT[0], IN[0].yyyy\n\
         LOAD OUT[0].yw, BUFFER[0].wzyx, IN[0].xxxx\nEND\n",
        &ins,
    );
    // y: dword at a + 8; w: swizzle x, dword at a. The range needs a + 12 <= 32.
    let want = [
        [0, seq_word(8), 0, seq_word(0)],
        [0, seq_word(28), 0, seq_word(20)],
        [0, 0, 0, 0],
        [0, seq_word(11), 0, seq_word(3)],
    ];
    expect(&o, out(0), 0xF, &want);
}

#[test]
fn store_writes_masked_channels_and_drops_out_of_range_stores() {
    // 40 bytes of 0xAA. STORE .xz writes x at addr and z at addr + 8 (needs addr + 12).
    let addrs = [0u32, 13, 29, 0xffff_fffc];
    let mut ins = inputs(
        4,
        &[(input(0), addrs.iter().map(|&a| [a, 0, 0, 0]).collect())],
    );
    ins.buffers.insert(buffer(0), vec![0xAA; 40]);
    let o = run_mem(
        "VERT\nDCL IN[0]\nDCL BUFFER[0]\n\
         IMM[0] UINT32 {287454020, 1432778632, 2578103244, 3723427584}\n\
         STORE BUFFER[0].xz, IN[0].xxxx, IMM[0]\nEND\n",
        &ins,
    );
    // IMM x = 0x11223344, z = 0x99aabbcc.
    let mut want = vec![0xAAu8; 40];
    for a in [0usize, 13] {
        want[a..a + 4].copy_from_slice(&0x1122_3344u32.to_le_bytes());
        want[a + 8..a + 12].copy_from_slice(&0x99aa_bbccu32.to_le_bytes());
    }
    assert_eq!(o.buffers[&buffer(0)], want);
    assert!(o.buffers_undefined.is_empty());
    assert_eq!(o.atomics.as_deref(), Some(&[][..]));
}

#[test]
fn store_negated_float_source_then_load_round_trips() {
    // STORE takes a float source: `-src` flips the sign bit. Invocation i stores -(i + 0.5)
    // at 4 i, then loads it back.
    let n = 6;
    let mut ins = inputs(
        n,
        &[(
            input(0),
            (0..n as u32)
                .map(|i| [4 * i, f(i as f32 + 0.5), 0, 0])
                .collect(),
        )],
    );
    ins.buffers.insert(buffer(0), vec![0; 4 * n]);
    let o = run_mem(
        "VERT\nDCL IN[0]\nDCL OUT[0]\nDCL BUFFER[0]\n\
         STORE BUFFER[0].x, IN[0].xxxx, -IN[0].yyyy\n\
         LOAD OUT[0].x, BUFFER[0], IN[0].xxxx\nEND\n",
        &ins,
    );
    let want: Vec<Vec4> = (0..n).map(|i| [f(-(i as f32 + 0.5)), 0, 0, 0]).collect();
    expect(&o, out(0), 0x1, &want);
    let bytes = &o.buffers[&buffer(0)];
    assert_eq!(dword(bytes, 8), f(-2.5));
}

#[test]
fn resq_gives_the_size_in_bytes() {
    let mut ins = inputs(4, &[(input(0), vec![[0; 4]])]);
    ins.buffers.insert(buffer(0), vec![7; 24]);
    let o = run_mem(
        "VERT\nDCL IN[0]\nDCL OUT[0]\nDCL OUT[1]\nDCL BUFFER[0]\nDCL BUFFER[1]\n\
         RESQ OUT[0].x, BUFFER[0]\nRESQ OUT[1].x, BUFFER[1]\nEND\n",
        &ins,
    );
    expect(&o, out(0), 0x1, &[[24, 0, 0, 0]; 4]);
    // BUFFER[1] is not in the inputs: empty.
    expect(&o, out(1), 0x1, &[[0, 0, 0, 0]; 4]);
}

/// One atomic case: memory word, data operand, compare operand, expected returned value and
/// new memory word (tgsi.rst "Atomic opcodes" formulas, evaluated by hand).
type Case = (u32, u32, u32, u32, u32);

fn atomic_cases(op: Opcode) -> [Case; 4] {
    use Opcode::*;
    let neg1 = 0xffff_ffff;
    match op {
        // dst = m; m = m + s (wrapping)
        ATOMUADD => [
            (neg1, 2, 0, neg1, 1),
            (5, 7, 0, 5, 12),
            (0x8000_0000, 0x8000_0000, 0, 0x8000_0000, 0),
            (0, 0, 0, 0, 0),
        ],
        // m = s
        ATOMXCHG => [
            (5, 9, 0, 5, 9),
            (0, neg1, 0, 0, neg1),
            (1, 1, 0, 1, 1),
            (neg1, 0, 0, neg1, 0),
        ],
        // m = m == cmp ? s : m
        ATOMCAS => [
            (5, 9, 5, 5, 9),
            (5, 9, 4, 5, 5),
            (0, neg1, 0, 0, neg1),
            (neg1, 3, 0, neg1, neg1),
        ],
        ATOMAND => [
            (0b1100, 0b1010, 0, 0b1100, 0b1000),
            (neg1, 0x0f0f, 0, neg1, 0x0f0f),
            (0, neg1, 0, 0, 0),
            (6, 6, 0, 6, 6),
        ],
        ATOMOR => [
            (0b1100, 0b1010, 0, 0b1100, 0b1110),
            (0, 0, 0, 0, 0),
            (0x8000_0000, 1, 0, 0x8000_0000, 0x8000_0001),
            (neg1, 5, 0, neg1, neg1),
        ],
        ATOMXOR => [
            (0b1100, 0b1010, 0, 0b1100, 0b0110),
            (neg1, neg1, 0, neg1, 0),
            (0, 7, 0, 0, 7),
            (5, 0, 0, 5, 5),
        ],
        // unsigned: 0xffffffff is the largest
        ATOMUMIN => [
            (neg1, 1, 0, neg1, 1),
            (1, neg1, 0, 1, 1),
            (0, 0, 0, 0, 0),
            (9, 3, 0, 9, 3),
        ],
        ATOMUMAX => [
            (neg1, 1, 0, neg1, neg1),
            (1, neg1, 0, 1, neg1),
            (0, 0, 0, 0, 0),
            (9, 3, 0, 9, 9),
        ],
        // signed: 0xffffffff is -1
        ATOMIMIN => [
            (neg1, 1, 0, neg1, neg1),
            (1, neg1, 0, 1, neg1),
            (0x8000_0000, 0x7fff_ffff, 0, 0x8000_0000, 0x8000_0000),
            (9, 3, 0, 9, 3),
        ],
        ATOMIMAX => [
            (neg1, 1, 0, neg1, 1),
            (1, neg1, 0, 1, 1),
            (0x8000_0000, 0x7fff_ffff, 0, 0x8000_0000, 0x7fff_ffff),
            (9, 3, 0, 9, 9),
        ],
        // binary32: 1.5 + 2.25 = 3.75; 1 + -1 = +0; 2^24 + 1 = 2^24 (ties to even)
        ATOMFADD => [
            (f(1.5), f(2.25), 0, f(1.5), f(3.75)),
            (f(1.0), f(-1.0), 0, f(1.0), 0),
            (f(16_777_216.0), f(1.0), 0, f(16_777_216.0), f(16_777_216.0)),
            (f(-0.0), f(-0.0), 0, f(-0.0), f(-0.0)),
        ],
        // m = m + 1 <= s ? m + 1 : 0; tgsi.rst: dst = m + 1
        ATOMINC_WRAP => [
            (0, 3, 0, 1, 1),
            (3, 3, 0, 4, 0),
            (neg1, 7, 0, 0, 0),
            (2, 3, 0, 3, 3),
        ],
        // m = m > 0 && m < s ? m - 1 : 0; dst = m
        ATOMDEC_WRAP => [
            (2, 3, 0, 2, 1),
            (0, 3, 0, 0, 0),
            (3, 3, 0, 3, 0),
            (5, 3, 0, 5, 0),
        ],
        _ => unreachable!("not an atomic: {op}"),
    }
}

const ATOMICS: [Opcode; 13] = shaderdiff_model::atomic::ATOMIC_OPCODES;

#[test]
fn every_atomic_returns_and_stores_the_formula_of_tgsi_rst() {
    for op in ATOMICS {
        let cases = atomic_cases(op);
        // Invocation i updates the dword at 4 i: IN[0] = [offset, src, cmp, 0].
        let regs: Vec<Vec4> = (0..4u32)
            .map(|i| {
                let (_, s, c, _, _) = cases[i as usize];
                [4 * i, s, c, 0]
            })
            .collect();
        let mut ins = inputs(4, &[(input(0), regs)]);
        ins.buffers.insert(
            buffer(0),
            cases.iter().flat_map(|c| c.0.to_le_bytes()).collect(),
        );
        let operands = if op == Opcode::ATOMCAS {
            "IN[0].xxxx, IN[0].zzzz, IN[0].yyyy"
        } else {
            "IN[0].xxxx, IN[0].yyyy"
        };
        let text = format!(
            "VERT\nDCL IN[0]\nDCL OUT[0]\nDCL BUFFER[0]\n\
             {op} OUT[0].xz, BUFFER[0], {operands}\nEND\n"
        );
        let o = run_mem(&text, &ins);
        let rets: Vec<Vec4> = cases.iter().map(|c| [c.3, 0, c.3, 0]).collect();
        expect(&o, out(0), 0x5, &rets);
        let bytes = &o.buffers[&buffer(0)];
        for (i, c) in cases.iter().enumerate() {
            assert_eq!(dword(bytes, 4 * i), c.4, "{op} case {i}: memory");
        }
        let log = o.atomics.as_ref().expect("log");
        assert_eq!(log.len(), 4, "{op}");
        let want_op = AtomicOp::from_opcode(op).expect("atomic");
        for (i, r) in log.iter().enumerate() {
            let c = cases[r.invocation as usize];
            assert_eq!(
                r.location.offset,
                4 * u64::from(r.invocation),
                "{op} record {i}"
            );
            assert_eq!(
                (r.op, r.seq, r.old, r.src),
                (want_op, 0, u64::from(c.0), u64::from(c.1))
            );
        }
    }
}

#[test]
fn atomics_need_x_in_the_writemask_and_count_in_seq_even_when_not_performed() {
    // The first ATOMUADD writes only y: not performed (EXEC-NOTES §7), y = 0. The second
    // adds 5 at offset 4 i and is the invocation's atomic number 1; the third is out of
    // range (offset 14 of a 16-byte buffer): not performed, not logged, x = 0.
    let mut ins = inputs(2, &[(input(0), vec![[0, 5, 14, 0], [4, 5, 14, 0]])]);
    ins.buffers.insert(
        buffer(0),
        [10u32, 20, 30, 40]
            .iter()
            .flat_map(|w| w.to_le_bytes())
            .collect(),
    );
    let o = run_mem(
        "VERT\nDCL IN[0]\nDCL OUT[0]\nDCL OUT[1]\nDCL BUFFER[0]\n\
         MOV OUT[0], IN[0].yyyy\nMOV OUT[1], IN[0].yyyy\n\
         ATOMUADD OUT[0].y, BUFFER[0], IN[0].xxxx, IN[0].yyyy\n\
         ATOMUADD OUT[0].x, BUFFER[0], IN[0].xxxx, IN[0].yyyy\n\
         ATOMUADD OUT[1].x, BUFFER[0], IN[0].zzzz, IN[0].yyyy\nEND\n",
        &ins,
    );
    expect(&o, out(0), 0x3, &[[10, 0, 0, 0], [20, 0, 0, 0]]);
    expect(&o, out(1), 0x1, &[[0, 0, 0, 0], [0, 0, 0, 0]]);
    let bytes = &o.buffers[&buffer(0)];
    assert_eq!(
        [dword(bytes, 0), dword(bytes, 4), dword(bytes, 12)],
        [15, 25, 40]
    );
    let log = o.atomics.as_ref().expect("log");
    let got: Vec<(u32, u32, u64)> = log.iter().map(|r| (r.invocation, r.seq, r.old)).collect();
    assert_eq!(got, [(0, 1, 10), (1, 1, 20)]);
}

/// 16 invocations in workgroups of 8 (SV[0] = [local id, global id]). Each writes `3 g + 1`
/// (g its global id) to SHARED word `local`, waits at BARRIER, and stores the word of its
/// neighbour `(local + 1) % 8` to BUFFER[0] at `4 g`. A TEMP array addressed indirectly
/// carries `g` across the barrier too. (The LOAD writes `w`, so its resource swizzle is
/// `xxxx`: channel `c` reads the dword at `addr + 4 * swizzle[c]`.)
const RING: &str = "COMP\nPROPERTY CS_FIXED_BLOCK_WIDTH 8\nDCL SV[0], THREAD_ID\n\
DCL BUFFER[0]\nDCL MEMORY[0], SHARED\nDCL TEMP[0..1]\nDCL TEMP[2..3], ARRAY(1)\nDCL ADDR[0]\n\
IMM[0] UINT32 {4, 1, 7, 3}\n\
UMUL TEMP[0].x, SV[0].xxxx, IMM[0].xxxx\n\
UMAD TEMP[0].y, SV[0].yyyy, IMM[0].wwww, IMM[0].yyyy\n\
STORE MEMORY[0].x, TEMP[0].xxxx, TEMP[0].yyyy\n\
AND TEMP[1].x, SV[0].xxxx, IMM[0].yyyy\n\
UARL ADDR[0].x, TEMP[1].xxxx\n\
MOV TEMP[ADDR[0].x+2](1).x, SV[0].yyyy\n\
BARRIER\n\
UADD TEMP[0].z, SV[0].xxxx, IMM[0].yyyy\n\
AND TEMP[0].z, TEMP[0].zzzz, IMM[0].zzzz\n\
UMUL TEMP[0].z, TEMP[0].zzzz, IMM[0].xxxx\n\
LOAD TEMP[0].w, MEMORY[0].xxxx, TEMP[0].zzzz\n\
MOV TEMP[1].y, TEMP[ADDR[0].x+2](1).xxxx\n\
UMUL TEMP[1].y, TEMP[1].yyyy, IMM[0].xxxx\n\
STORE BUFFER[0].x, TEMP[1].yyyy, TEMP[0].wwww\nEND\n";

fn ring_inputs(n: u32) -> Inputs {
    let mut ins = Inputs {
        invocations: n as usize,
        ..Inputs::default()
    };
    ins.registers.insert(
        RegKey::new(File::SystemValue, 0),
        (0..n).map(|g| [g % 8, g, 0, 0]).collect(),
    );
    ins.buffers.insert(buffer(0), vec![0; 4 * n as usize]);
    ins.buffers
        .insert(RegKey::new(File::Memory, 0), vec![0; 32]);
    ins
}

#[test]
fn barrier_orders_shared_memory_within_each_workgroup() {
    let ins = ring_inputs(16);
    let o = run_mem(RING, &ins);
    let bytes = &o.buffers[&buffer(0)];
    let got: Vec<u32> = (0..16).map(|g| dword(bytes, 4 * g)).collect();
    let want: Vec<u32> = (0..16u32)
        .map(|g| 3 * (g / 8 * 8 + (g % 8 + 1) % 8) + 1)
        .collect();
    assert_eq!(got, want);
    // SHARED memory reports workgroup 0's copy: word j = 3 j + 1.
    let shared = &o.buffers[&RegKey::new(File::Memory, 0)];
    let words: Vec<u32> = (0..8).map(|j| dword(shared, 4 * j)).collect();
    assert_eq!(words, (0..8).map(|j| 3 * j + 1).collect::<Vec<u32>>());
}

#[test]
fn barrier_runs_across_blocks_of_quads_and_a_partial_last_quad() {
    // 200 invocations: 25 workgroups, four blocks of 16 quads (the last one partial).
    let ins = ring_inputs(200);
    let o = run_mem(RING, &ins);
    let bytes = &o.buffers[&buffer(0)];
    for g in 0..200u32 {
        let neighbour = g / 8 * 8 + (g % 8 + 1) % 8;
        assert_eq!(
            dword(bytes, 4 * g as usize),
            3 * neighbour + 1,
            "invocation {g}"
        );
    }
}

#[test]
fn two_top_level_barriers_pass_values_around_twice() {
    // Workgroups of 4: write g, barrier, read neighbour (l + 1) % 4 and write it back to the
    // own slot, barrier, read neighbour again: the value of (l + 2) % 4.
    let text = "COMP\nPROPERTY CS_FIXED_BLOCK_WIDTH 4\nDCL SV[0], THREAD_ID\n\
                DCL BUFFER[0]\nDCL MEMORY[0], SHARED\nDCL TEMP[0..1]\n\
                IMM[0] UINT32 {4, 1, 3, 0}\n\
                UMUL TEMP[0].x, SV[0].xxxx, IMM[0].xxxx\n\
                UADD TEMP[0].y, SV[0].xxxx, IMM[0].yyyy\n\
                AND TEMP[0].y, TEMP[0].yyyy, IMM[0].zzzz\n\
                UMUL TEMP[0].y, TEMP[0].yyyy, IMM[0].xxxx\n\
                STORE MEMORY[0].x, TEMP[0].xxxx, SV[0].yyyy\n\
                BARRIER\n\
                LOAD TEMP[1].x, MEMORY[0], TEMP[0].yyyy\n\
                BARRIER\n\
                STORE MEMORY[0].x, TEMP[0].xxxx, TEMP[1].xxxx\n\
                BARRIER\n\
                LOAD TEMP[1].x, MEMORY[0], TEMP[0].yyyy\n\
                UMUL TEMP[0].z, SV[0].yyyy, IMM[0].xxxx\n\
                STORE BUFFER[0].x, TEMP[0].zzzz, TEMP[1].xxxx\nEND\n";
    let mut ins = Inputs {
        invocations: 12,
        ..Inputs::default()
    };
    ins.registers.insert(
        RegKey::new(File::SystemValue, 0),
        (0..12u32).map(|g| [g % 4, g, 0, 0]).collect(),
    );
    ins.buffers.insert(buffer(0), vec![0; 48]);
    ins.buffers
        .insert(RegKey::new(File::Memory, 0), vec![0; 16]);
    let o = run_mem(text, &ins);
    let bytes = &o.buffers[&buffer(0)];
    for g in 0..12u32 {
        assert_eq!(
            dword(bytes, 4 * g as usize),
            g / 4 * 4 + (g % 4 + 2) % 4,
            "invocation {g}"
        );
    }
}

#[test]
fn barrier_inside_switch_is_unsupported() {
    let text = "COMP\nPROPERTY CS_FIXED_BLOCK_WIDTH 4\nDCL SV[0], THREAD_ID\n\
                SWITCH SV[0].xxxx\nDEFAULT\nBARRIER\nBRK\nENDSWITCH\nEND\n";
    let jit = JitEngine::new(&EngineConfig::default());
    match jit.prepare(&parse(text)) {
        Err(EngineError::Unsupported { opcode, reason, .. }) => {
            assert_eq!(opcode, Some(Opcode::BARRIER));
            assert!(reason.contains("SWITCH"), "{reason}");
        }
        Err(e) => panic!("wrong error {e:?}"),
        Ok(_) => panic!("a BARRIER inside SWITCH must be refused"),
    }
}

/// Workgroups of 4 (SV[0] = [local l, global g]): SHARED word l starts as g; then a loop
/// of 3 iterations, each reading words l and (l + 1) % 4, waiting at a BARRIER, writing
/// their sum to word l and waiting again (both barriers inside the loop, one inside the
/// iteration's straight-line code after a UIF/BRK); finally word l goes to BUFFER[0] at 4 g.
const LOOP_RING: &str = "COMP\nPROPERTY CS_FIXED_BLOCK_WIDTH 4\nDCL SV[0], THREAD_ID\n\
DCL BUFFER[0]\nDCL MEMORY[0], SHARED\nDCL TEMP[0..2]\nIMM[0] UINT32 {4, 1, 3, 0}\n\
UMUL TEMP[0].x, SV[0].xxxx, IMM[0].xxxx\n\
UADD TEMP[0].y, SV[0].xxxx, IMM[0].yyyy\n\
AND TEMP[0].y, TEMP[0].yyyy, IMM[0].zzzz\n\
UMUL TEMP[0].y, TEMP[0].yyyy, IMM[0].xxxx\n\
STORE MEMORY[0].x, TEMP[0].xxxx, SV[0].yyyy\n\
MOV TEMP[1].x, IMM[0].wwww\n\
BARRIER\n\
BGNLOOP\n\
  USEQ TEMP[2].x, TEMP[1].xxxx, IMM[0].zzzz\n\
  UIF TEMP[2].xxxx\n\
    BRK\n\
  ENDIF\n\
  LOAD TEMP[1].y, MEMORY[0].xxxx, TEMP[0].yyyy\n\
  LOAD TEMP[1].z, MEMORY[0].xxxx, TEMP[0].xxxx\n\
  BARRIER\n\
  UADD TEMP[1].z, TEMP[1].zzzz, TEMP[1].yyyy\n\
  STORE MEMORY[0].x, TEMP[0].xxxx, TEMP[1].zzzz\n\
  BARRIER\n\
  UADD TEMP[1].x, TEMP[1].xxxx, IMM[0].yyyy\n\
ENDLOOP\n\
LOAD TEMP[1].w, MEMORY[0].xxxx, TEMP[0].xxxx\n\
UMUL TEMP[0].z, SV[0].yyyy, IMM[0].xxxx\n\
STORE BUFFER[0].x, TEMP[0].zzzz, TEMP[1].wwww\nEND\n";

#[test]
fn barrier_inside_a_uniform_loop_suspends_every_iteration() {
    let n = 12u32;
    let mut ins = Inputs {
        invocations: n as usize,
        ..Inputs::default()
    };
    ins.registers.insert(
        RegKey::new(File::SystemValue, 0),
        (0..n).map(|g| [g % 4, g, 0, 0]).collect(),
    );
    ins.buffers.insert(buffer(0), vec![0; 4 * n as usize]);
    ins.buffers
        .insert(RegKey::new(File::Memory, 0), vec![0; 16]);
    let o = run_mem(LOOP_RING, &ins);
    // By hand, per workgroup (words w[l] = g of lane l at the start): each round
    // w[l] += w[(l + 1) % 4], three rounds.
    let mut want = Vec::new();
    for wg in 0..n / 4 {
        let mut w: Vec<u32> = (0..4).map(|l| 4 * wg + l).collect();
        for _ in 0..3 {
            w = (0..4).map(|l| w[l] + w[(l + 1) % 4]).collect();
        }
        want.extend(w);
    }
    let bytes = &o.buffers[&buffer(0)];
    let got: Vec<u32> = (0..n as usize).map(|g| dword(bytes, 4 * g)).collect();
    assert_eq!(got, want);
    // Workgroup 0: [0,1,2,3] -> [1,3,5,3] -> [4,8,8,4] -> [12,16,12,8].
    assert_eq!(got[..4], [12, 16, 12, 8]);
}

#[test]
fn barrier_inside_a_uniform_if_and_a_subroutine() {
    // The barrier of the ring stands inside `UIF 1` in a subroutine called from main; the
    // subroutine starts right after main's END (instruction 15).
    let text = RING.replace("BARRIER\n", "CAL :15\n").replace(
        "END\n",
        "END\nBGNSUB\nUIF IMM[0].yyyy\nBARRIER\nENDIF\nRET\nENDSUB\n",
    );
    assert_eq!(parse(&text).instructions[15].opcode, Opcode::BGNSUB);
    let ins = ring_inputs(16);
    let o = run_mem(&text, &ins);
    let bytes = &o.buffers[&buffer(0)];
    let got: Vec<u32> = (0..16).map(|g| dword(bytes, 4 * g)).collect();
    let want: Vec<u32> = (0..16u32)
        .map(|g| 3 * (g / 8 * 8 + (g % 8 + 1) % 8) + 1)
        .collect();
    assert_eq!(got, want);
}

#[test]
fn a_barrier_only_some_invocations_reach_still_finishes() {
    // Only local ids 0 and 1 of each workgroup of 8 execute the BARRIER (tgsi.rst: the
    // results are unspecified; the oracle makes memory undefined): the run must still end,
    // with the registers the oracle defines equal.
    let text = "COMP\nPROPERTY CS_FIXED_BLOCK_WIDTH 8\nDCL SV[0], THREAD_ID\nDCL BUFFER[0]\n\
                DCL MEMORY[0], SHARED\nDCL TEMP[0]\nIMM[0] UINT32 {2, 4, 0, 0}\n\
                USLT TEMP[0].x, SV[0].xxxx, IMM[0].xxxx\n\
                UIF TEMP[0].xxxx\nBARRIER\nENDIF\n\
                UMUL TEMP[0].y, SV[0].yyyy, IMM[0].yyyy\n\
                STORE BUFFER[0].x, TEMP[0].yyyy, SV[0].yyyy\nEND\n";
    let ins = ring_inputs(16);
    let jit = JitEngine::new(&EngineConfig::default())
        .execute(&parse(text), &ins)
        .expect("the run ends");
    // The jit's model (`lower::memory` docs): the partial BARRIER only costs a round, so
    // every invocation still stores its id; the oracle can promise nothing here.
    let bytes = &jit.buffers[&buffer(0)];
    let got: Vec<u32> = (0..16).map(|g| dword(bytes, 4 * g)).collect();
    assert_eq!(got, (0..16).collect::<Vec<u32>>());
    let oracle = interp::run(&parse(text), &ins, &InterpConfig::default()).expect("oracle");
    assert!(oracle.buffers_undefined[&buffer(0)].iter().all(|&u| u));
}

#[test]
fn programs_without_memory_report_no_atomic_log() {
    let ins = inputs(4, &[(input(0), vec![[1, 2, 3, 4]])]);
    let o = run(
        "VERT\nDCL IN[0]\nDCL OUT[0]\nMOV OUT[0], IN[0]\nEND\n",
        &ins,
    );
    assert!(o.atomics.is_none());
    assert!(o.buffers.is_empty());
}

#[test]
fn an_endless_loop_around_a_barrier_stops_at_the_step_budget() {
    let text = "COMP\nPROPERTY CS_FIXED_BLOCK_WIDTH 4\nDCL SV[0], THREAD_ID\n\
                DCL BUFFER[0]\nDCL MEMORY[0], SHARED\nBGNLOOP\nBARRIER\nENDLOOP\nEND\n";
    let ins = ring_inputs(8);
    // `run_limit` also checks that the oracle stops the same invocation.
    match run_limit(text, &ins, 50) {
        Err(EngineError::StepLimit { limit, .. }) => assert_eq!(limit, 50),
        other => panic!("expected the step limit, got {other:?}"),
    }
}
