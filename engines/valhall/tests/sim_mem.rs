//! LOAD / STORE (SEMANTICS.md §8): little-endian round trips of every width used by the
//! compiler, signed offsets, 64-bit addresses from register and uniform pairs,
//! `load_lane` placement and extension, and memory faults.

#[path = "sim_util.rs"]
mod util;

use shaderdiff_valhall::sim::{Memory, SimError, NUM_REGS};
use util::*;

const BASE: u64 = 0x1_0000_1000;

fn addr_init(stride: u64) -> impl Fn(usize, &mut [u32; NUM_REGS]) + Sync {
    move |t, r| {
        let a = BASE + stride * t as u64;
        r[0] = a as u32;
        r[1] = (a >> 32) as u32;
        for (i, v) in r.iter_mut().enumerate().skip(4).take(12) {
            *v = 0x0101_0101u32.wrapping_mul(i as u32) ^ (t as u32) << 24;
        }
    }
}

#[test]
fn store_load_round_trip() {
    let text = "\
        STORE.i32.slot0 @r4, r0, offset:0
        STORE.i64.slot0 @r6:r7, r0, offset:8
        STORE.i96.slot0 @r8:r9:r10, r0, offset:16
        STORE.i128.slot0 @r12:r13:r14:r15, r0, offset:32
        LOAD.i32.slot0 @r20, r0, offset:0
        LOAD.i64.slot0 @r22:r23, r0, offset:8
        LOAD.i96.slot0 @r24:r25:r26, r0, offset:16
        LOAD.i128.slot0.wait0 @r28:r29:r30:r31, r0, offset:32";
    let threads = 20;
    let mut mem = Memory::new();
    mem.map(BASE, vec![0xEE; 64 * threads]);
    let init = addr_init(64);
    let (_, regs) = run_full(text, threads, &[], &init, &mut mem).unwrap();
    let bytes = mem.region(BASE).unwrap();
    for (t, r) in regs.iter().enumerate() {
        let m = &bytes[64 * t..64 * (t + 1)];
        let word = |o: usize| u32::from_le_bytes(m[o..o + 4].try_into().unwrap());
        assert_eq!(word(0), r[4], "thread {t}");
        assert_eq!(word(4), 0xEEEE_EEEE, "bytes after an i32 store untouched");
        assert_eq!((word(8), word(12)), (r[6], r[7]));
        assert_eq!((word(16), word(20), word(24)), (r[8], r[9], r[10]));
        assert_eq!(word(28), 0xEEEE_EEEE);
        assert_eq!(
            (word(32), word(36), word(40), word(44)),
            (r[12], r[13], r[14], r[15])
        );
        assert_eq!(r[20], r[4]);
        assert_eq!((r[22], r[23]), (r[6], r[7]));
        assert_eq!((r[24], r[25], r[26]), (r[8], r[9], r[10]));
        assert_eq!((r[28], r[29], r[30], r[31]), (r[12], r[13], r[14], r[15]));
    }
}

/// Little-endian byte order, signed 16-bit offsets and uniform-pair addresses.
#[test]
fn byte_order_offsets_and_uniform_address() {
    let mut mem = Memory::new();
    mem.map(BASE, vec![0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88]);
    let text = "\
        LOAD.i32.slot0 @r4, r2, offset:-8
        LOAD.i32.slot0 @r5, u0, offset:4
        LOAD.i64.slot0 @r6:r7, u0, offset:0
        STORE.i32.slot0 @r8, u0, offset:2";
    let init = |_t: usize, r: &mut [u32; NUM_REGS]| {
        let a = BASE + 8;
        r[2] = a as u32;
        r[3] = (a >> 32) as u32;
        r[8] = 0xA1B2_C3D4;
    };
    let uniforms = [BASE as u32, (BASE >> 32) as u32];
    let (_, regs) = run_full(text, 1, &uniforms, &init, &mut mem).unwrap();
    assert_eq!(regs[0][4], 0x4433_2211);
    assert_eq!(regs[0][5], 0x8877_6655);
    assert_eq!((regs[0][6], regs[0][7]), (0x4433_2211, 0x8877_6655));
    assert_eq!(
        mem.region(BASE).unwrap(),
        &[0x11, 0x22, 0xD4, 0xC3, 0xB2, 0xA1, 0x77, 0x88]
    );
}

/// `load_lane` placement and `.unsigned` (SEMANTICS.md §8).
#[test]
fn narrow_loads() {
    let mut mem = Memory::new();
    mem.map(BASE, vec![0x85, 0x90, 0xA7, 0x7F, 0xF0, 0xFF, 0xFF, 0xFF]);
    let text = "\
        LOAD.i8.w0.unsigned.slot0 @r4, u0, offset:0
        LOAD.i8.w0.slot0 @r5, u0, offset:0
        LOAD.i16.h1.unsigned.slot0 @r6, u0, offset:0
        LOAD.i16.w0.slot0 @r7, u0, offset:2
        LOAD.i32.d0.unsigned.slot0 @r8:r9, u0, offset:4
        LOAD.i8.d0.slot0 @r10:r11, u0, offset:0
        LOAD.i8.b2.unsigned.slot0 @r12, u0, offset:1
        LOAD.i24.unsigned.slot0 @r13, u0, offset:0
        LOAD.i48.unsigned.slot0 @r14:r15, u0, offset:2
        LOAD.i16.unsigned.slot0 @r16, u0, offset:0";
    let uniforms = [BASE as u32, (BASE >> 32) as u32];
    let init = |_t: usize, r: &mut [u32; NUM_REGS]| r[4..17].fill(0xDEAD_BEEF);
    let (_, regs) = run_full(text, 1, &uniforms, &init, &mut mem).unwrap();
    let r = regs[0];
    assert_eq!(r[4], 0x85, "zero-extended byte");
    assert_eq!(r[5], 0xFFFF_FF85, "sign-extended byte");
    assert_eq!(r[6], 0x9085_0000, "16 bits into the high half");
    assert_eq!(r[7], 0x0000_7FA7, "positive half sign-extends to itself");
    assert_eq!((r[8], r[9]), (0xFFFF_FFF0, 0), "zero-extended to 64 bits");
    assert_eq!(
        (r[10], r[11]),
        (0xFFFF_FF85, 0xFFFF_FFFF),
        "sign-extended to 64 bits"
    );
    assert_eq!(r[12], 0x0090_0000, "byte lane 2, rest zero");
    assert_eq!(r[13], 0x00A7_9085);
    assert_eq!((r[14], r[15]), (0xFFF0_7FA7, 0x0000_FFFF));
    assert_eq!(r[16], 0x9085, "16-bit default lane h0");
}

/// An access outside every region, or crossing a region's end, faults with the thread,
/// address and size; the writes before it stay.
#[test]
fn memory_faults() {
    let mut mem = Memory::new();
    mem.map(BASE, vec![0; 16 * 4]);
    let init = addr_init(4);
    // 16 threads store 4 bytes each at BASE + 4t: thread 16 (warp 1) is outside.
    let err = run_full(
        "STORE.i32.slot0 @r4, r0, offset:0",
        17,
        &[],
        &init,
        &mut mem,
    )
    .unwrap_err();
    assert_eq!(
        err,
        SimError::MemoryFault {
            index: 0,
            thread: 16,
            address: BASE + 64,
            bytes: 4
        }
    );
    assert_ne!(mem.region(BASE).unwrap()[60..64], [0, 0, 0, 0]);
    // A load crossing the end of the region.
    let err = run_full(
        "NOP\nLOAD.i64.slot0 @r4:r5, r0, offset:60",
        1,
        &[],
        &init,
        &mut mem,
    )
    .unwrap_err();
    assert_eq!(
        err,
        SimError::MemoryFault {
            index: 1,
            thread: 0,
            address: BASE + 60,
            bytes: 8
        }
    );
    // Address arithmetic wraps at 2⁶⁴ and faults rather than panicking.
    let top = |_: usize, r: &mut [u32; NUM_REGS]| {
        r[0] = 0xFFFF_FFFC;
        r[1] = 0xFFFF_FFFF;
    };
    let err = run_full("LOAD.i32.slot0 @r4, r0, offset:8", 1, &[], &top, &mut mem).unwrap_err();
    assert_eq!(
        err,
        SimError::MemoryFault {
            index: 0,
            thread: 0,
            address: 4,
            bytes: 4
        }
    );
}

/// Lanes of a warp access memory in ascending lane order (SEMANTICS.md §8
/// [Assumption]): the highest lane's store to a shared address remains.
#[test]
fn same_address_store_order() {
    let mut mem = Memory::new();
    mem.map(BASE, vec![0; 4]);
    let init = |t: usize, r: &mut [u32; NUM_REGS]| {
        r[0] = BASE as u32;
        r[1] = (BASE >> 32) as u32;
        r[4] = t as u32;
    };
    run_full(
        "STORE.i32.slot0 @r4, r0, offset:0",
        10,
        &[],
        &init,
        &mut mem,
    )
    .unwrap();
    assert_eq!(mem.region(BASE).unwrap(), &9u32.to_le_bytes());
}

/// Only the threads executing a STORE write (divergence).
#[test]
fn divergent_store() {
    let mut mem = Memory::new();
    mem.map(BASE, vec![0; 64]);
    let init = |t: usize, r: &mut [u32; NUM_REGS]| {
        let a = BASE + 4 * t as u64;
        r[0] = a as u32;
        r[1] = (a >> 32) as u32;
        r[2] = (t % 3 == 0) as u32;
        r[4] = 0xC0DE_0000 | t as u32;
    };
    run_full(
        "BRANCHZ r2, offset:1\nSTORE.i32.slot0 @r4, r0, offset:0",
        16,
        &[],
        &init,
        &mut mem,
    )
    .unwrap();
    let m = mem.region(BASE).unwrap();
    for t in 0..16 {
        let w = u32::from_le_bytes(m[4 * t..4 * t + 4].try_into().unwrap());
        assert_eq!(
            w,
            if t % 3 == 0 {
                0
            } else {
                0xC0DE_0000 | t as u32
            }
        );
    }
}

fn atomic_run(
    text: &str,
    threads: usize,
    init_mem: Vec<u8>,
    init: impl Fn(usize, &mut [u32; NUM_REGS]) + Sync,
) -> (Vec<[u32; NUM_REGS]>, Vec<u8>) {
    let mut mem = Memory::new();
    mem.map(BASE, init_mem);
    let init = move |t: usize, r: &mut [u32; NUM_REGS]| {
        r[0] = BASE as u32;
        r[1] = (BASE >> 32) as u32;
        init(t, r);
    };
    let (_, regs) = run_full(text, threads, &[], &init, &mut mem).unwrap();
    (regs, mem.region(BASE).unwrap().to_vec())
}

/// Atomics (SEMANTICS.md §8): read-modify-write per thread, old value returned.
#[test]
fn atomics() {
    // 16 threads add t + 1 to one word: 1 + … + 16 = 136.
    let (_, m) = atomic_run(
        "ATOM.i32.slot0.aadd @r4, r0, offset:0x4",
        16,
        vec![0; 8],
        |t, r| r[4] = t as u32 + 1,
    );
    assert_eq!(u32::from_le_bytes(m[4..8].try_into().unwrap()), 136);

    // Increment with return: each thread gets a distinct old value, 0..15 in some order.
    let (regs, m) = atomic_run(
        "ATOM1_RETURN.i32.slot0.ainc @r6, r0, offset:0x0",
        16,
        vec![0; 4],
        |_, _| {},
    );
    let mut olds: Vec<u32> = regs.iter().map(|r| r[6]).collect();
    olds.sort_unstable();
    assert_eq!(olds, (0..16).collect::<Vec<_>>());
    assert_eq!(m, 16u32.to_le_bytes());

    // Without a write run nothing is returned.
    let (regs, m) = atomic_run(
        "ATOM1_RETURN.i32.slot0.adec @, r0, offset:0x0",
        3,
        vec![0; 4],
        |_, r| r[6] = 7,
    );
    assert!(regs.iter().all(|r| r[6] == 7));
    assert_eq!(m, (-3i32).to_le_bytes());

    // Signed / unsigned minimum and maximum.
    let (_, m) = atomic_run(
        "ATOM.i32.slot0.asmin @r4, r0, offset:0x0\nATOM.i32.slot0.aumax @r4, r0, offset:0x4",
        16,
        [5u32.to_le_bytes(), 5u32.to_le_bytes()].concat(),
        |t, r| r[4] = (t as u32).wrapping_sub(8),
    );
    assert_eq!(
        u32::from_le_bytes(m[0..4].try_into().unwrap()),
        (-8i32) as u32
    );
    assert_eq!(
        u32::from_le_bytes(m[4..8].try_into().unwrap()),
        (-1i32) as u32
    );

    // Compare-and-swap: (new, comparison) in the read run; only a matching thread swaps.
    let (regs, m) = atomic_run(
        "ATOM_RETURN.i32.slot0.axchg.compare @r6, @r4:r5, r0, offset:0x0",
        16,
        9u32.to_le_bytes().to_vec(),
        |t, r| {
            r[4] = 100 + t as u32;
            r[5] = t as u32;
        },
    );
    assert_eq!(m, 109u32.to_le_bytes(), "thread 9's comparison matched");
    for (t, r) in regs.iter().enumerate() {
        assert_eq!(
            r[6],
            if t <= 9 { 9 } else { 109 },
            "old value seen by thread {t}"
        );
    }

    // 64-bit exchange with return.
    let (regs, m) = atomic_run(
        "ATOM_RETURN.i64.slot0.axchg @r6:r7, @r4:r5, r0, offset:0x8",
        1,
        vec![0x11; 16],
        |_, r| {
            r[4] = 0xAAAA_BBBB;
            r[5] = 0xCCCC_DDDD;
        },
    );
    assert_eq!((regs[0][6], regs[0][7]), (0x1111_1111, 0x1111_1111));
    assert_eq!(&m[8..16], &0xCCCC_DDDD_AAAA_BBBBu64.to_le_bytes());
}
