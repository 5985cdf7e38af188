//! NV_gpu_program5 Table X.13 memory rows: LOAD, STORE, ATOM (every atomic modifier of
//! Table X.Y lowered) and MEMBAR with each storage modifier, on every engine through the
//! global memory window (`shaderdiff::nv_runtime`).
//!
//! Each row runs one compute invocation over a 128-byte region at a base address above
//! 4 GiB (so addresses need both words): `a.x` is the region's base, `a.y` base + 64 where
//! the row's 32-bit result `t` is stored (`STORE.U32X4 t, a.y`), `p1` holds operands.
//! Expected words are worked out by hand from §2.X.8.Z LOAD / STORE / ATOM (little-endian
//! memory, §2.X.4.5) and NOTES.md §12 (LOAD writes 0 to components the storage type does
//! not cover); misaligned or unmapped addresses are undefined (§2.X.4.5, NOTES.md §12), so
//! the oracle must mark those words undefined.

use crate::support::run_compute;
use shaderdiff_model::File;
use shaderdiff_oracles::RegKey;

const BASE: u64 = 0x2_0000_1000;

/// What one memory word must be after the run.
#[derive(Clone, Copy, Debug)]
enum M {
    /// Exactly this word on every engine.
    V(u32),
    /// The oracle marks its bytes undefined; engines are not compared.
    Undef,
}
use M::{Undef, V};

/// The initial 16 data words.
const DATA: [u32; 16] = [
    0x4433_2211,
    0x8877_6655,
    0xFF7F_8000,
    0x3FC0_0000,
    0xDEAD_BEEF,
    0x0000_0001,
    0x1234_5678,
    0x0000_0005,
    0x0000_000A,
    0xFFFF_FFFF,
    0,
    0,
    0,
    0,
    0,
    0,
];

fn bytes(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

/// Runs `insns` (between the prologue and the result store) with `p1` and checks the listed
/// words (word index into the region: 0..16 data, 16..20 the stored `t`).
fn check(insns: &str, p1: [u32; 4], want: &[(usize, M)]) {
    let text = format!(
        "!!NVcp5.0\nGROUP_SIZE 1;\nPARAM p0 = program.local[0];\nPARAM p1 = program.local[1];\n\
         LONG TEMP a, r;\nTEMP t;\nPK64.U a, p0;\nPK64.U r, {{0, 0, 0, 0}};\nMOV.U t, 0;\n\
         {insns}\nSTORE.U32X4 t, a.y;\nEND\n"
    );
    let hi = (BASE >> 32) as u32;
    let p0 = [BASE as u32, hi, BASE as u32 + 64, hi];
    let mut init = DATA.to_vec();
    init.extend([0u32; 16]);
    let global = [(BASE, bytes(&init))];
    for (engine, out) in run_compute(&text, &[p0, p1], &global, 1) {
        let mem = &out.global[&BASE];
        let undef = out.buffers_undefined.get(&RegKey::new(File::Memory, 0));
        for &(k, m) in want {
            let word = u32::from_le_bytes(mem[4 * k..4 * k + 4].try_into().expect("4 bytes"));
            let flagged = undef.is_some_and(|u| u[4 * k..4 * k + 4].iter().any(|&b| b));
            let ctx = format!("{engine}: `{insns}` word {k}: got {word:#010x}");
            match m {
                V(v) => {
                    assert_eq!(word, v, "{ctx}, want {v:#010x}");
                    if engine == "interp" {
                        assert!(!flagged, "{ctx}: marked undefined");
                    }
                }
                Undef if engine == "interp" => assert!(flagged, "{ctx}: not marked undefined"),
                Undef => {}
            }
        }
    }
}

/// The stored result `t` = `w`.
fn t(w: [u32; 4]) -> Vec<(usize, M)> {
    (0..4).map(|c| (16 + c, V(w[c]))).collect()
}

#[test]
fn loads_of_every_storage_size() {
    check("LOAD.U32 t.x, a.x;", [0; 4], &t([0x4433_2211, 0, 0, 0]));
    // Components past the storage type's are 0 (NOTES.md §12), even under a wider mask.
    check(
        "LOAD.S32X2 t, a.x;",
        [0; 4],
        &t([0x4433_2211, 0x8877_6655, 0, 0]),
    );
    check(
        "LOAD.F32X4 t, a.x;",
        [0; 4],
        &t([0x4433_2211, 0x8877_6655, 0xFF7F_8000, 0x3FC0_0000]),
    );
    // Byte 9 is 0x80: zero- or sign-extended; bytes 10..11 are 0xFF7F.
    check(
        "ADD.U64 r.x, a.x, 9;\nLOAD.U8 t.x, r.x;",
        [0; 4],
        &t([0x80, 0, 0, 0]),
    );
    check(
        "ADD.U64 r.x, a.x, 9;\nLOAD.S8 t.x, r.x;",
        [0; 4],
        &t([0xFFFF_FF80, 0, 0, 0]),
    );
    check(
        "ADD.U64 r.x, a.x, 10;\nLOAD.U16 t.x, r.x;",
        [0; 4],
        &t([0xFF7F, 0, 0, 0]),
    );
    check(
        "ADD.U64 r.x, a.x, 10;\nLOAD.S16 t.x, r.x;",
        [0; 4],
        &t([0xFFFF_FF7F, 0, 0, 0]),
    );
    // 64-bit storage into a LONG variable; UP64 spreads r.x, r.y over t.
    check(
        "LOAD.U64 r.x, a.x;\nUP64.U t, r;",
        [0; 4],
        &t([0x4433_2211, 0x8877_6655, 0, 0]),
    );
    check(
        "LOAD.F64X2 r, a.x;\nUP64.U t, r;",
        [0; 4],
        &t([0x4433_2211, 0x8877_6655, 0xFF7F_8000, 0x3FC0_0000]),
    );
    check(
        "LOAD.S64X4 r, a.x;\nUP64.U t, r.zwzw;",
        [0; 4],
        &t([0xDEAD_BEEF, 1, 0x1234_5678, 5]),
    );
}

#[test]
fn misaligned_and_unmapped_loads_are_undefined() {
    // §2.X.4.5: a 32-bit access needs a multiple of 4; 64-bit of 8.
    let u = [(16, Undef)];
    check("ADD.U64 r.x, a.x, 2;\nLOAD.U32 t.x, r.x;", [0; 4], &u);
    check(
        "ADD.U64 r.x, a.x, 4;\nLOAD.U64 r.x, r.x;\nUP64.U t, r;",
        [0; 4],
        &u,
    );
    check("ADD.U64 r.x, a.x, 1;\nLOAD.U16 t.x, r.x;", [0; 4], &u);
    // Outside every region.
    check("ADD.U64 r.x, a.x, 4096;\nLOAD.U32 t.x, r.x;", [0; 4], &u);
    // A 32-bit address is zero-extended: the low word alone is below the region.
    check("LOAD.U32 t.x, p0.x;", [0; 4], &u);
}

#[test]
fn stores_of_every_storage_size() {
    check(
        "STORE.U32 p1, a.x;",
        [7, 8, 9, 10],
        &[(0, V(7)), (1, V(0x8877_6655))],
    );
    check(
        "STORE.F32X2 p1, a.x;",
        [7, 8, 9, 10],
        &[(0, V(7)), (1, V(8)), (2, V(0xFF7F_8000))],
    );
    check(
        "STORE.S32X4 p1, a.x;",
        [7, 8, 9, 10],
        &[
            (0, V(7)),
            (1, V(8)),
            (2, V(9)),
            (3, V(10)),
            (4, V(0xDEAD_BEEF)),
        ],
    );
    // Byte 3 only; then bytes 6..7 only (little-endian).
    check(
        "ADD.U64 r.x, a.x, 3;\nSTORE.U8 p1, r.x;",
        [0x1AB, 0, 0, 0],
        &[(0, V(0xAB33_2211))],
    );
    check(
        "ADD.U64 r.x, a.x, 6;\nSTORE.S16 p1, r.x;",
        [0xFFFF_8001, 0, 0, 0],
        &[(1, V(0x8001_6655))],
    );
    check(
        "PK64.U r, p1;\nSTORE.U64 r.x, a.x;",
        [7, 8, 9, 10],
        &[(0, V(7)), (1, V(8)), (2, V(0xFF7F_8000))],
    );
    check(
        "PK64.U r, p1;\nSTORE.F64X2 r, a.x;",
        [7, 8, 9, 10],
        &[(0, V(7)), (1, V(8)), (2, V(9)), (3, V(10))],
    );
    // X4 of 64 bits: r = (p1.xy, p1.zw, p1.xy, p1.zw) after PK64.
    check(
        "PK64.U r, p1;\nSTORE.U64X4 r, a.x;",
        [7, 8, 9, 10],
        &[(4, V(7)), (5, V(8)), (6, V(9)), (7, V(10)), (8, V(0xA))],
    );
}

#[test]
fn atomics_return_the_old_value_and_update_memory() {
    // § ATOM: t.x = the value read; memory = f(old, operand).
    let row = |insn: &str, p1: [u32; 4], word: usize, old: u32, new: u32| {
        let full = format!("ADD.U64 r.x, a.x, {};\n{insn}", 4 * word);
        check(&full, p1, &[(16, V(old)), (word, V(new))]);
    };
    row(
        "ATOM.ADD.U32 t.x, p1, r.x;",
        [3, 0, 0, 0],
        9,
        0xFFFF_FFFF,
        2,
    );
    row(
        "ATOM.ADD.S32 t.x, p1, r.x;",
        [0xFFFF_FFFB, 0, 0, 0],
        8,
        10,
        5,
    );
    // 1.5 + 2.5 = 4.0 (NV_shader_atomic_float).
    row(
        "ATOM.ADD.F32 t.x, p1, r.x;",
        [0x4020_0000, 0, 0, 0],
        3,
        0x3FC0_0000,
        0x4080_0000,
    );
    // -1 is the smaller signed value, 0xFFFFFFFF the larger unsigned one.
    row(
        "ATOM.MIN.S32 t.x, p1, r.x;",
        [5, 0, 0, 0],
        9,
        0xFFFF_FFFF,
        0xFFFF_FFFF,
    );
    row(
        "ATOM.MIN.U32 t.x, p1, r.x;",
        [5, 0, 0, 0],
        9,
        0xFFFF_FFFF,
        5,
    );
    row(
        "ATOM.MAX.S32 t.x, p1, r.x;",
        [5, 0, 0, 0],
        9,
        0xFFFF_FFFF,
        5,
    );
    row(
        "ATOM.MAX.U32 t.x, p1, r.x;",
        [5, 0, 0, 0],
        9,
        0xFFFF_FFFF,
        0xFFFF_FFFF,
    );
    row(
        "ATOM.AND.U32 t.x, p1, r.x;",
        [0xFF00, 0, 0, 0],
        6,
        0x1234_5678,
        0x5600,
    );
    row(
        "ATOM.OR.S32 t.x, p1, r.x;",
        [0xF, 0, 0, 0],
        6,
        0x1234_5678,
        0x1234_567F,
    );
    row(
        "ATOM.XOR.U32 t.x, p1, r.x;",
        [0xFF, 0, 0, 0],
        6,
        0x1234_5678,
        0x1234_5687,
    );
    row(
        "ATOM.EXCH.U32 t.x, p1, r.x;",
        [42, 0, 0, 0],
        6,
        0x1234_5678,
        42,
    );
    // CSWAP stores p1.y only when memory equals p1.x.
    row("ATOM.CSWAP.U32 t.x, p1, r.x;", [5, 77, 0, 0], 7, 5, 77);
    row("ATOM.CSWAP.S32 t.x, p1, r.x;", [6, 77, 0, 0], 7, 5, 5);
    // IWRAP: old >= operand ? 0 : old + 1.
    row("ATOM.IWRAP.U32 t.x, p1, r.x;", [10, 0, 0, 0], 8, 10, 0);
    row("ATOM.IWRAP.U32 t.x, p1, r.x;", [11, 0, 0, 0], 8, 10, 11);
}

/// F16 storage (NV_gpu_program5_mem_extended BufferMemoryLoad / Store: `result.x =
/// ((float16_t *)address)[0]` ...; alignment 2, 4, 8 for F16, F16X2, F16X4). Binary16
/// fields of DATA decoded by hand: 0x3FC0 = 2^0 * (1 + 960/1024) = 1.9375 (binary32
/// 0x3FF80000); 0xBEEF = -(1 + 751/1024) (0xBFDDE000); 0xDEAD = -2^8 * (1 + 685/1024) =
/// -427.25 (0xC3D5A000); 0x0001 = 2^-24 (0x33800000).
#[test]
fn f16_loads_and_stores() {
    // Word 3 = 0x3FC00000: its high half at byte 14.
    check(
        "ADD.U64 r.x, a.x, 14;\nLOAD.F16 t, r.x;",
        [0; 4],
        &t([0x3FF8_0000, 0, 0, 0]),
    );
    check(
        "ADD.U64 r.x, a.x, 12;\nLOAD.F16X2 t, r.x;",
        [0; 4],
        &t([0, 0x3FF8_0000, 0, 0]),
    );
    // Words 4, 5 = 0xDEADBEEF, 0x00000001.
    check(
        "ADD.U64 r.x, a.x, 16;\nLOAD.F16X4 t, r.x;",
        [0; 4],
        &t([0xBFDD_E000, 0xC3D5_A000, 0x3380_0000, 0]),
    );
    // F16X4 needs 8-byte alignment: offset 4 is undefined.
    check(
        "ADD.U64 r.x, a.x, 4;\nLOAD.F16X4 t, r.x;",
        [0; 4],
        &[(16, Undef), (17, Undef), (18, Undef), (19, Undef)],
    );
    // Stores of p1 = (1.0, -2.0, 0.5, 65504.0): binary16 0x3C00, 0xC000, 0x3800, 0x7BFF.
    let p1 = [0x3F80_0000, 0xC000_0000, 0x3F00_0000, 0x477F_E000];
    // The high half of word 0 (0x44332211) becomes 0x3C00; the low half is kept.
    check(
        "ADD.U64 r.x, a.x, 2;\nSTORE.F16 p1, r.x;",
        p1,
        &[(0, V(0x3C00_2211)), (1, V(DATA[1]))],
    );
    check(
        "ADD.U64 r.x, a.x, 40;\nSTORE.F16X2 p1, r.x;",
        p1,
        &[(10, V(0xC000_3C00)), (11, V(0))],
    );
    check(
        "ADD.U64 r.x, a.x, 48;\nSTORE.F16X4 p1, r.x;",
        p1,
        &[(12, V(0xC000_3C00)), (13, V(0x7BFF_3800)), (14, V(0))],
    );
    // Round to nearest even on store: 1 + 2^-11 (0x3F801000) is the tie between 0x3C00
    // and 0x3C01, giving the even 0x3C00; 65520 (0x477FF000) ties between 65504 and 2^16,
    // which overflows: +INF 0x7C00.
    check(
        "ADD.U64 r.x, a.x, 40;\nSTORE.F16X2 p1, r.x;",
        [0x3F80_1000, 0x477F_F000, 0, 0],
        &[(10, V(0x7C00_3C00))],
    );
}

/// The 8/16-bit vector storage modifiers (NV_gpu_program5_mem_extended: `result.x =
/// ((int8_t *)address)[0]; result.y = ((int8_t *)address)[1]` ..., little-endian;
/// alignment 2 for S8X2 / U8X2, 4 for S8X4 / U8X4 / S16X2 / U16X2, 8 for S16X4 / U16X4).
/// DATA bytes from offset 0: 11 22 33 44 | 55 66 77 88 | 00 80 7F FF.
#[test]
fn vectors_of_8_and_16_bit_values() {
    check(
        "ADD.U64 r.x, a.x, 2;\nLOAD.U8X2 t, r.x;",
        [0; 4],
        &t([0x33, 0x44, 0, 0]),
    );
    // Sign-extended: 0x88 is -120.
    check(
        "ADD.U64 r.x, a.x, 4;\nLOAD.S8X4 t, r.x;",
        [0; 4],
        &t([0x55, 0x66, 0x77, 0xFFFF_FF88]),
    );
    // 0x8000 is -32768, 0xFF7F is -129.
    check(
        "ADD.U64 r.x, a.x, 8;\nLOAD.S16X2 t, r.x;",
        [0; 4],
        &t([0xFFFF_8000, 0xFFFF_FF7F, 0, 0]),
    );
    check(
        "LOAD.U16X4 t, a.x;",
        [0; 4],
        &t([0x2211, 0x4433, 0x6655, 0x8877]),
    );
    // U16X4 at offset 4 is not a multiple of 8: undefined.
    check(
        "ADD.U64 r.x, a.x, 4;\nLOAD.U16X4 t, r.x;",
        [0; 4],
        &[(16, Undef), (17, Undef), (18, Undef), (19, Undef)],
    );
    // Stores keep the low 8 / 16 bits of each component: 0x1FF → FF, 0x303 → 03.
    check(
        "ADD.U64 r.x, a.x, 40;\nSTORE.U8X4 p1, r.x;",
        [0x1FF, 2, 0x303, 0xFFFF_FFFF],
        &[(10, V(0xFF03_02FF)), (11, V(0))],
    );
    check(
        "ADD.U64 r.x, a.x, 44;\nSTORE.S16X2 p1, r.x;",
        [0x1_2345, 0xFFFF_8001, 0, 0],
        &[(11, V(0x8001_2345)), (12, V(0))],
    );
    check(
        "ADD.U64 r.x, a.x, 48;\nSTORE.U16X4 p1, r.x;",
        [1, 2, 3, 0x1_0004],
        &[(12, V(0x0002_0001)), (13, V(0x0004_0003))],
    );
    // Bytes 2 and 3 of word 0 (0x44332211) replaced, bytes 0 and 1 kept.
    check(
        "ADD.U64 r.x, a.x, 2;\nSTORE.U8X2 p1, r.x;",
        [0xAA, 0xBB, 0, 0],
        &[(0, V(0xBBAA_2211)), (1, V(DATA[1]))],
    );
}

#[test]
fn dwrap_decrements_and_wraps_to_the_operand() {
    // § ATOM: writeval = (result == 0 || result > tmp0.x) ? tmp0.x : result - 1 (U32, so
    // the comparison is unsigned); t.x = result. Each row: operand, word, old, new.
    let row = |op: u32, word: usize, old: u32, new: u32| {
        let insn = format!(
            "ADD.U64 r.x, a.x, {};\nATOM.DWRAP.U32 t.x, p1, r.x;",
            4 * word
        );
        check(&insn, [op, 0, 0, 0], &[(16, V(old)), (word, V(new))]);
    };
    // 5 is neither 0 nor > 10: 5 - 1 = 4.
    row(10, 7, 5, 4);
    // 10 > 10 is false: 10 - 1 = 9 (the operand itself still decrements).
    row(10, 8, 10, 9);
    // 10 > 9: wraps to the operand, 9.
    row(9, 8, 10, 9);
    // result == 0: wraps to the operand, 10 (TGSI's ATOMDEC_WRAP would store 0).
    row(10, 10, 0, 10);
    // 0xFFFFFFFF > 5 unsigned: wraps to 5 (a signed compare would give 0xFFFFFFFE).
    row(5, 9, 0xFFFF_FFFF, 5);
    // 1 > 0: wraps to the operand 0; and 0 with operand 0 stays 0.
    row(0, 5, 1, 0);
    row(0, 10, 0, 0);
    // 1 with operand 1: 1 - 1 = 0.
    row(1, 5, 1, 0);
}

#[test]
fn atomics_from_many_invocations_sum_and_membar_is_accepted() {
    // 64 invocations add their localid + 1 to one dword: 100 + (1 + ... + 64) = 2180,
    // whatever the order; MEMBAR orders nothing a single dword needs.
    let text = "!!NVcp5.0\nGROUP_SIZE 64;\nPARAM p0 = program.local[0];\nLONG TEMP a;\n\
                TEMP t, old;\nPK64.U a, p0;\nADD.U t.x, invocation.localid.x, 1;\n\
                ATOM.ADD.U32 old.x, t.x, a.x;\nMEMBAR;\nEND\n";
    let hi = (BASE >> 32) as u32;
    let global = [(BASE, bytes(&[100]))];
    for (engine, out) in run_compute(text, &[[BASE as u32, hi, 0, 0]], &global, 64) {
        assert_eq!(out.global[&BASE], bytes(&[2180]), "{engine}");
    }
}

/// The command line: `run` and `diff` on examples/nv-global-memory.nvcp (NOTES.md example
/// 10) with its inputs file's `global` regions above 4 GiB; the output reports the final
/// regions by base address (INTERFACE.md `run --format json`) and the atomics at absolute
/// addresses; every engine agrees.
#[test]
fn global_regions_in_and_out_of_the_command_line() {
    let run = |args: &[&str]| {
        crate::support::run_example(
            args,
            "nv-global-memory.nvcp",
            "nv-global-memory.inputs.json",
        )
    };
    for backend in ["interp", "jit", "valhall"] {
        let o = run(&["run", "--format", "json", "--backend", backend]);
        assert_eq!(o.status.code(), Some(0), "{backend}");
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("json");
        assert_eq!(
            v["global"]["0x100001000"],
            "0100000002000000030000000400000002000000040000000600000008000000",
            "{backend}"
        );
        assert_eq!(v["global"]["0x100002000"], "78000000", "{backend}");
        assert!(v.get("buffers").is_none(), "{backend}: {v}");
    }
    let o = run(&["diff"]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );
}

/// Shared memory (NV_compute_program5 §2.X.8.Z LDS, STS, ATOMS, BAR): each of 8 invocations
/// stores its localid + 1 at `sm[4 * id]`, counts itself with ATOMS.ADD on the dword after
/// them, and after BAR loads its neighbour's value and the count; every invocation then
/// writes (neighbour, count) to global memory at `8 * id`. Hand-worked: invocation k
/// reads (k + 1) mod 8 + 1 and 8. (LDS.U32 loads into the result's x: `LDS.U32 t.y, ..`
/// would write t.y = 0, the loaded vector's y, NOTES.md §12.)
#[test]
fn shared_memory_with_a_barrier() {
    let text =
        "!!NVcp5.0\nGROUP_SIZE 8;\nSHARED_MEMORY 64;\nSHARED sm[] = { program.sharedmem };\n\
                PARAM p0 = program.local[0];\nLONG TEMP a, q;\nTEMP t, i, n, c;\nPK64.U a, p0;\n\
                MUL.U i.x, invocation.localid.x, 4;\nADD.U t.x, invocation.localid.x, 1;\n\
                STS.U32 t, sm[i.x];\nATOMS.ADD.U32 c.x, {1}, sm[32];\nBAR;\n\
                ADD.U n.x, i.x, 4;\nAND.U n.x, n.x, 31;\nLDS.U32 t.x, sm[n.x];\n\
                LDS.U32 c.x, sm[32];\nMOV.U t.y, c.x;\nMUL.U i.y, invocation.localid.x, 8;\n\
                CVT.U64.U32 q.x, i.y;\nADD.U64 q.x, q.x, a.x;\nSTORE.U32X2 t, q.x;\nEND\n";
    let hi = (BASE >> 32) as u32;
    let global = [(BASE, bytes(&[0; 16]))];
    let want: Vec<u32> = (0..8u32).flat_map(|k| [(k + 1) % 8 + 1, 8]).collect();
    for (engine, out) in run_compute(text, &[[BASE as u32, hi, 0, 0]], &global, 8) {
        assert_eq!(out.global[&BASE], bytes(&want), "{engine}");
    }
}

/// LDC on a CBUFFER (NV_parameter_buffer_object2 §2.X.8.Z LDC, §2.X.3.6: elements are
/// bytes of the binding point) in a vertex program, the buffer given under `buffers` by
/// its binding (`program.buffer[2]`): storage sizes, an index held in a TEMP, a 64-bit
/// load into a LONG variable, and an index past the buffer (undefined).
#[test]
fn ldc_reads_a_constant_buffer_by_byte_offset() {
    let text =
        "!!NVvp5.0\nCBUFFER cb[] = { program.buffer[2] };\nCBUFFER tail = program.buffer[2][16];\n\
                TEMP t, u, i;\nLONG TEMP d;\nMOV.U i, {2, 0, 0, 0};\n\
                LDC.U32 t.x, cb[4];\nLDC.S8 u.x, cb[9];\nMOV.U t.y, u.x;\n\
                LDC.U16 u.x, cb[i.x + 8];\nMOV.U t.z, u.x;\nLDC.F32 u.x, tail;\nMOV.U t.w, u.x;\n\
                MOV.U result.attrib[0], t;\nLDC.U32X4 result.attrib[1], cb[0];\n\
                LDC.U64 d.x, cb[8];\nUP64.U result.attrib[2], d;\nLDC.U32 u.x, cb[64];\n\
                MOV.U result.attrib[3], u;\nEND\n";
    let p = shaderdiff_nv::parse(text, "ldc.nv").expect("parses");
    let l = shaderdiff_nv::lower(&p).expect("lowers");
    let words = [
        0x4433_2211u32,
        0x8877_6655,
        0xFF7F_8000,
        0x0000_0001,
        0x3FC0_0000,
    ];
    let mut inputs = shaderdiff_backends::Inputs {
        invocations: 1,
        ..Default::default()
    };
    let (f, i) = l
        .names
        .lookup(l.stage, "program.buffer[2]")
        .expect("the binding names the buffer");
    inputs.buffers.insert(RegKey::new(f, i), bytes(&words));
    for name in shaderdiff_backends::ENGINE_NAMES {
        let e = shaderdiff_backends::engine(name, &Default::default()).expect("engine");
        let out = e.execute(&l.program, &inputs).expect("runs");
        let reg = |n: &str| {
            let (f, i) = l.names.lookup(l.stage, n).expect("output");
            (
                out.registers[&RegKey::new(f, i)][0],
                out.undefined.get(&RegKey::new(f, i)).map_or(0, |u| u[0]),
            )
        };
        // Byte 9 is 0x80 (sign-extended); bytes 10..11 are 0xFF7F; byte 16 starts 1.5f.
        assert_eq!(
            reg("result.attrib[0]").0,
            [0x8877_6655, 0xFFFF_FF80, 0xFF7F, 0x3FC0_0000],
            "{name}"
        );
        assert_eq!(
            reg("result.attrib[1]").0,
            [0x4433_2211, 0x8877_6655, 0xFF7F_8000, 1],
            "{name}"
        );
        assert_eq!(reg("result.attrib[2]").0, [0xFF7F_8000, 1, 0, 0], "{name}");
        if *name == "interp" {
            assert_eq!(
                reg("result.attrib[3]").1 & 1,
                1,
                "byte 64 is past the buffer"
            );
        }
    }
}

/// Shader storage buffers (NV_shader_storage_buffer_object §2.X.8.Z LDB, STB, ATOMB; a
/// STORAGE variable's elements are bytes of `program.storage[a]`): 4 invocations each load
/// word k, store it doubled at word 4 + k and add it to word 8 atomically (example 10's
/// pattern through a storage buffer given under `buffers` by its binding).
#[test]
fn storage_buffers_load_store_and_atomics() {
    let text =
        "!!NVcp5.0\nGROUP_SIZE 4;\nSTORAGE sb[] = { program.storage[3] };\nTEMP i, v, old;\n\
                MUL.U i.x, invocation.localid.x, 4;\nLDB.U32 v.x, sb[i.x];\nADD.U v.x, v.x, v.x;\n\
                STB.U32 v, sb[i.x + 16];\nATOMB.ADD.U32 old.x, v, sb[32];\nEND\n";
    let p = shaderdiff_nv::parse(text, "sb.nv").expect("parses");
    let l = shaderdiff_nv::lower(&p).expect("lowers");
    let mut inputs = shaderdiff_backends::Inputs {
        invocations: 4,
        ..Default::default()
    };
    let (f, i) = l
        .names
        .lookup(l.stage, "program.storage[3]")
        .expect("named");
    let key = RegKey::new(f, i);
    inputs
        .buffers
        .insert(key, bytes(&[1, 2, 3, 4, 0, 0, 0, 0, 100]));
    shaderdiff::nv_runtime::prepare(&l.program, &l.names, &mut inputs).expect("prepared");
    for name in shaderdiff_backends::ENGINE_NAMES {
        let e = shaderdiff_backends::engine(name, &Default::default()).expect("engine");
        let out = e.execute(&l.program, &inputs).expect("runs");
        assert_eq!(
            out.buffers[&key],
            bytes(&[1, 2, 3, 4, 2, 4, 6, 8, 120]),
            "{name}"
        );
    }
}

/// `reduce` on an NV memory program: examples/nv-global-memory.nvcp with valhall's
/// `atomic-lost-update` fault reduces to a few NV instructions whose inputs file (global
/// regions, no hidden window) replays the divergence with one `diff` command.
#[test]
fn nv_memory_findings_reduce_and_replay() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let dir = std::env::temp_dir().join(format!("sd-nv-reduce-{}", std::process::id()));
    let out = dir.join("reduced.nv");
    std::fs::create_dir_all(&dir).expect("dir");
    let bin = env!("CARGO_BIN_EXE_shaderdiff");
    let fault = [
        "--inject-fault",
        "atomic-lost-update",
        "--backends",
        "interp,valhall",
    ];
    let o = std::process::Command::new(bin)
        .arg("reduce")
        .arg(root.join("examples/nv-global-memory.nvcp"))
        .arg("--inputs")
        .arg(root.join("examples/nv-global-memory.inputs.json"))
        .args(fault)
        .arg("--out")
        .arg(&out)
        .output()
        .expect("runs");
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let text = std::fs::read_to_string(&out).expect("reduced program");
    assert!(text.contains("ATOM.ADD.U32"), "{text}");
    let inputs = dir.join("reduced.inputs.json");
    let json = std::fs::read_to_string(&inputs).expect("inputs");
    assert!(
        json.contains("0x100002000") && !json.contains("MEMORY"),
        "{json}"
    );
    let o = std::process::Command::new(bin)
        .arg("diff")
        .arg(&out)
        .arg("--inputs")
        .arg(&inputs)
        .args(fault)
        .output()
        .expect("runs");
    assert_eq!(
        o.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );
    let _ = std::fs::remove_dir_all(&dir);
}
