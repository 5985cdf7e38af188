//! 64-bit ATOM, ATOMS and ATOMB (NV_gpu_program5 § ATOM Table X.Y: ADD, EXCH, CSWAP with
//! U64; NV_shader_atomic_int64: S64 for ADD MIN MAX AND OR XOR EXCH CSWAP and U64 for MIN
//! MAX AND OR XOR; NV_shader_atomic_float64: EXCH.F64) on every engine, next to the 32-bit
//! rows of `memory.rs`.
//!
//! Each table row runs one compute invocation over a 128-byte global region at a base
//! address above 4 GiB: qwords 0..8 hold [`DATA`], `a.x` is the base, `a.y` base + 64
//! where the result `t.x` (the value read, § ATOM "The result of the ATOM instruction is
//! the scalar value read from memory") is stored as qword 8. The operand `v` is `PK64.U`
//! of `program.local[1]`: `v.x` = (p1.x, p1.y), `v.y` = (p1.z, p1.w) (little-endian,
//! §2.X.8.Z PK64). Expected values are § ATOM's pseudo-code (`writeval = tmp0.x + result`
//! ...) evaluated by hand at 64 bits, in the comments beside each row.

use crate::support::run_compute;
use shaderdiff_model::File;
use shaderdiff_nv as nv;
use shaderdiff_oracles::RegKey;

const BASE: u64 = 0x2_0000_3000;

/// The initial qwords 0..8.
const DATA: [u64; 8] = [
    u64::MAX,
    0x0000_0000_FFFF_FFFF,
    0x8000_0000_0000_0000, // i64::MIN
    0x7FFF_FFFF_FFFF_FFFF, // i64::MAX
    0xFFFF_FFFF_0000_0000, // -2^32 signed; the high word decides every comparison
    0x1234_5678_9ABC_DEF0,
    10,
    0,
];

/// What one qword must be after the run.
#[derive(Clone, Copy, Debug)]
enum Q {
    /// Exactly this value on every engine.
    V(u64),
    /// The oracle marks its bytes undefined; engines are not compared.
    Undef,
}
use Q::{Undef, V};

fn bytes(q: &[u64]) -> Vec<u8> {
    q.iter().flat_map(|w| w.to_le_bytes()).collect()
}

fn qword(mem: &[u8], k: usize) -> u64 {
    u64::from_le_bytes(mem[8 * k..8 * k + 8].try_into().expect("8 bytes"))
}

/// `[lo(x), hi(x), lo(y), hi(y)]`: the local that `PK64.U` packs into `v.x`, `v.y`.
fn pack(x: u64, y: u64) -> [u32; 4] {
    [x as u32, (x >> 32) as u32, y as u32, (y >> 32) as u32]
}

/// Runs `insns` after the prologue (`r` = 0, `t` = 0, `v` from `p1`) and before `STORE
/// {store} t, a.y`, and checks the listed qwords (0..8 data, 8.. the stored result).
fn check_with(insns: &str, store: &str, p1: [u32; 4], want: &[(usize, Q)]) {
    let text = format!(
        "!!NVcp5.0\nOPTION NV_shader_atomic_int64;\nOPTION NV_shader_atomic_float64;\n\
         GROUP_SIZE 1;\nPARAM p0 = program.local[0];\nPARAM p1 = program.local[1];\n\
         LONG TEMP a, r, v, t;\nPK64.U a, p0;\nPK64.U v, p1;\nPK64.U r, {{0, 0, 0, 0}};\n\
         PK64.U t, {{0, 0, 0, 0}};\n{insns}\nSTORE.{store} t, a.y;\nEND\n"
    );
    let hi = (BASE >> 32) as u32;
    let p0 = [BASE as u32, hi, BASE as u32 + 64, hi];
    let mut init = DATA.to_vec();
    init.extend([0u64; 8]);
    let global = [(BASE, bytes(&init))];
    for (engine, out) in run_compute(&text, &[p0, p1], &global, 1) {
        let mem = &out.global[&BASE];
        let undef = out.buffers_undefined.get(&RegKey::new(File::Memory, 0));
        for &(k, q) in want {
            let got = qword(mem, k);
            let flagged = undef.is_some_and(|u| u[8 * k..8 * k + 8].iter().any(|&b| b));
            let ctx = format!("{engine}: `{insns}` qword {k}: got {got:#018x}");
            match q {
                V(v) => {
                    assert_eq!(got, v, "{ctx}, want {v:#018x}");
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

/// One row: `ATOM... t.x, v, r.x` on qword `q`: `t.x` (stored as qword 8) = `old`, qword
/// `q` = `new`.
fn row(insn: &str, p1: [u32; 4], q: usize, old: u64, new: u64) {
    let full = format!("ADD.U64 r.x, a.x, {};\n{insn}", 8 * q);
    check_with(&full, "U64", p1, &[(8, V(old)), (q, V(new))]);
}

const NEG1: u64 = u64::MAX;

#[test]
fn add_wraps_at_2_to_the_64_and_carries_between_words() {
    // 0xFFFF_FFFF_FFFF_FFFF + 2 = 2^64 + 1 ≡ 1.
    row("ATOM.ADD.U64 t.x, v, r.x;", pack(2, 0), 0, NEG1, 1);
    // 0xFFFF_FFFF + 1 = 0x1_0000_0000: the carry reaches the high word.
    row(
        "ATOM.ADD.U64 t.x, v, r.x;",
        pack(1, 0),
        1,
        0xFFFF_FFFF,
        1 << 32,
    );
    // 10 + (-5) = 5.
    row("ATOM.ADD.S64 t.x, v, r.x;", pack(NEG1 - 4, 0), 6, 10, 5);
    // i64::MAX + 1 wraps to i64::MIN (two's complement, no saturation).
    row(
        "ATOM.ADD.S64 t.x, v, r.x;",
        pack(1, 0),
        3,
        i64::MAX as u64,
        1 << 63,
    );
}

#[test]
fn min_and_max_compare_signed_or_unsigned_at_64_bits() {
    let min = 1u64 << 63;
    // min(5, i64::MIN) = i64::MIN signed; unsigned 0x8000... > 5.
    row("ATOM.MIN.S64 t.x, v, r.x;", pack(5, 0), 2, min, min);
    row("ATOM.MIN.U64 t.x, v, r.x;", pack(5, 0), 2, min, 5);
    // max(-1, i64::MAX) = i64::MAX signed; unsigned 0xFFFF... is the largest.
    let max = i64::MAX as u64;
    row("ATOM.MAX.S64 t.x, v, r.x;", pack(NEG1, 0), 3, max, max);
    row("ATOM.MAX.U64 t.x, v, r.x;", pack(NEG1, 0), 3, max, NEG1);
    // Qword 4 = -2^32: its low word 0 is below 1, its high word makes it negative
    // (signed: smaller than 1) and huge (unsigned: larger than 1).
    let q4 = DATA[4];
    row("ATOM.MIN.S64 t.x, v, r.x;", pack(1, 0), 4, q4, q4);
    row("ATOM.MIN.U64 t.x, v, r.x;", pack(1, 0), 4, q4, 1);
    row("ATOM.MAX.S64 t.x, v, r.x;", pack(1, 0), 4, q4, 1);
    row("ATOM.MAX.U64 t.x, v, r.x;", pack(1, 0), 4, q4, q4);
}

#[test]
fn bitwise_operations_cover_both_words() {
    let q5 = DATA[5];
    // 12 34 56 78 9A BC DE F0 & FF 00 FF 00 FF 00 FF 00 = 12 00 56 00 9A 00 DE 00.
    let m = 0xFF00_FF00_FF00_FF00;
    row(
        "ATOM.AND.U64 t.x, v, r.x;",
        pack(m, 0),
        5,
        q5,
        0x1200_5600_9A00_DE00,
    );
    // High word kept, low word cleared.
    row(
        "ATOM.AND.S64 t.x, v, r.x;",
        pack(0xFFFF_FFFF_0000_0000, 0),
        5,
        q5,
        0x1234_5678_0000_0000,
    );
    // 0x12 | 0x0F = 0x1F (top byte), 0xF0 | 0x0F = 0xFF (bottom byte).
    row(
        "ATOM.OR.S64 t.x, v, r.x;",
        pack(0x0F00_0000_0000_000F, 0),
        5,
        q5,
        0x1F34_5678_9ABC_DEFF,
    );
    row("ATOM.OR.U64 t.x, v, r.x;", pack(1 << 32, 0), 7, 0, 1 << 32);
    // XOR with all ones is the complement byte by byte: 12→ED 34→CB 56→A9 78→87 9A→65
    // BC→43 DE→21 F0→0F.
    row(
        "ATOM.XOR.U64 t.x, v, r.x;",
        pack(NEG1, 0),
        5,
        q5,
        0xEDCB_A987_6543_210F,
    );
    row("ATOM.XOR.S64 t.x, v, r.x;", pack(q5, 0), 5, q5, 0);
}

#[test]
fn exchange_and_compare_and_swap() {
    let q5 = DATA[5];
    // EXCH: writeval = tmp0.x.
    row(
        "ATOM.EXCH.U64 t.x, v, r.x;",
        pack(0xDEAD_BEEF_0000_0001, 0),
        5,
        q5,
        0xDEAD_BEEF_0000_0001,
    );
    row("ATOM.EXCH.S64 t.x, v, r.x;", pack(NEG1, 0), 7, 0, NEG1);
    // EXCH.F64 (NV_shader_atomic_float64) moves the binary64 bits: 1.5 = 0x3FF8 << 48.
    row(
        "ATOM.EXCH.F64 t.x, v, r.x;",
        pack(0x3FF8_0000_0000_0000, 0),
        6,
        10,
        0x3FF8_0000_0000_0000,
    );
    // CSWAP: memory == tmp0.x ? store tmp0.y : keep; the value read is returned.
    row(
        "ATOM.CSWAP.U64 t.x, v, r.x;",
        pack(0xFFFF_FFFF, 0x5_0000_0007),
        1,
        0xFFFF_FFFF,
        0x5_0000_0007,
    );
    // A compare value equal in the low word only misses.
    row(
        "ATOM.CSWAP.U64 t.x, v, r.x;",
        pack(0x1_FFFF_FFFF, 7),
        1,
        0xFFFF_FFFF,
        0xFFFF_FFFF,
    );
    row(
        "ATOM.CSWAP.S64 t.x, v, r.x;",
        pack(1 << 63, 7),
        2,
        1 << 63,
        7,
    );
    // A compare value equal in the high word only misses too.
    row(
        "ATOM.CSWAP.S64 t.x, v, r.x;",
        pack((1 << 63) | 1, 7),
        2,
        1 << 63,
        1 << 63,
    );
}

/// ADD.F64 (NV_shader_atomic_float64): a binary64 addition, round to nearest even.
#[test]
fn double_precision_add() {
    // +0.0 (qword 7) + 2.5 = 2.5 (0x4004 << 48); -0.0 (qword 2) + 1.5 = 1.5 (0x3FF8 << 48).
    row(
        "ATOM.ADD.F64 t.x, v, r.x;",
        pack(0x4004_0000_0000_0000, 0),
        7,
        0,
        0x4004_0000_0000_0000,
    );
    row(
        "ATOM.ADD.F64 t.x, v, r.x;",
        pack(0x3FF8_0000_0000_0000, 0),
        2,
        1 << 63,
        0x3FF8_0000_0000_0000,
    );
    // 1.0 (stored by EXCH from v.x) + v.y: 2^-53 (0x3CA0 << 48) is half an ulp of 1.0, a
    // tie that rounds to the even 1.0; 3 * 2^-53 (0x3CB8 << 48) is 1.5 ulp, a tie between
    // 1 + 2^-52 (odd) and 1 + 2^-51 (even): 0x3FF0_0000_0000_0002.
    for (y, sum) in [
        (0x3CA0_0000_0000_0000, 0x3FF0_0000_0000_0000),
        (0x3CB8_0000_0000_0000, 0x3FF0_0000_0000_0002),
    ] {
        check_with(
            "ADD.U64 r.x, a.x, 56;\nATOM.EXCH.F64 t.x, v, r.x;\nATOM.ADD.F64 t.x, v.y, r.x;",
            "U64",
            pack(0x3FF0_0000_0000_0000, y),
            &[(8, V(0x3FF0_0000_0000_0000)), (7, V(sum))],
        );
    }
}

#[test]
fn result_components_other_than_x_and_misaligned_addresses_are_undefined() {
    // § ATOM: "The <y>, <z>, and <w> components of the result vector are undefined": t.y
    // is stored as qword 9.
    check_with(
        "ADD.U64 r.x, a.x, 48;\nATOM.ADD.U64 t, v, r.x;",
        "U64X2",
        pack(1, 0),
        &[(8, V(10)), (9, Undef), (6, V(11))],
    );
    // §2.X.4.5: an address that is not a multiple of the 8-byte size is undefined; the
    // atomic is not performed on any engine (the lowering gives an out-of-range offset).
    check_with(
        "ADD.U64 r.x, a.x, 4;\nATOM.ADD.U64 t.x, v, r.x;",
        "U64",
        pack(1, 0),
        &[(8, Undef), (0, V(DATA[0])), (1, V(DATA[1]))],
    );
}

/// ATOMS on shared memory (NV_compute_program5 § ATOMS with NV_shader_atomic_int64): the
/// shared qword is stored, updated by ATOMS.MAX.S64, and loaded back.
#[test]
fn shared_memory_atoms() {
    // max(-3, 4) = 4 signed (unsigned -3 would win).
    let insns = "SHARED_MEMORY 16;\n";
    let text = format!(
        "!!NVcp5.0\nOPTION NV_shader_atomic_int64;\nGROUP_SIZE 1;\n{insns}\
         SHARED sm[] = {{ program.sharedmem }};\nPARAM p0 = program.local[0];\n\
         PARAM p1 = program.local[1];\nLONG TEMP a, v, t, r;\nPK64.U a, p0;\nPK64.U v, p1;\n\
         STS.U64 v.y, sm[8];\nATOMS.MAX.S64 t.x, v, sm[8];\nLDS.U64 r.x, sm[8];\n\
         STORE.U64 t.x, a.x;\nSTORE.U64 r.x, a.y;\nEND\n"
    );
    let hi = (BASE >> 32) as u32;
    let p0 = [BASE as u32, hi, BASE as u32 + 8, hi];
    let global = [(BASE, bytes(&[0, 0]))];
    let minus3 = (-3i64) as u64;
    for (engine, out) in run_compute(&text, &[p0, pack(4, minus3)], &global, 1) {
        let mem = &out.global[&BASE];
        assert_eq!(qword(mem, 0), minus3, "{engine}: the value read");
        assert_eq!(qword(mem, 1), 4, "{engine}: the shared qword after the MAX");
    }
}

/// ATOMB on a storage buffer (NV_shader_storage_buffer_object § ATOMB with
/// NV_shader_atomic_int64): CSWAP.S64 at byte 8, hit, then a miss.
#[test]
fn storage_buffer_atomb() {
    let text = "!!NVcp5.0\nOPTION NV_shader_atomic_int64;\nGROUP_SIZE 1;\n\
        STORAGE sb[] = { program.storage[1] };\nPARAM p1 = program.local[1];\n\
        LONG TEMP v, t, u;\nPK64.U v, p1;\nATOMB.CSWAP.S64 t.x, v, sb[8];\n\
        ATOMB.CSWAP.S64 u.x, v, sb[8];\nSTB.U64 t.x, sb[16];\nSTB.U64 u.x, sb[24];\nEND\n";
    let p = nv::parse(text, "sb.nv").expect("parses");
    let l = nv::lower(&p).expect("lowers");
    let mut inputs = shaderdiff_backends::Inputs {
        invocations: 1,
        ..Default::default()
    };
    let (f, i) = l
        .names
        .lookup(l.stage, "program.storage[1]")
        .expect("named");
    let key = RegKey::new(f, i);
    // Compare with -1, store 0x7FFF_FFFF_0000_0001; qword 1 holds -1.
    let (cmp, new) = (NEG1, 0x7FFF_FFFF_0000_0001u64);
    inputs.buffers.insert(key, bytes(&[0, NEG1, 0, 0]));
    if let Some((f, i)) = l.names.lookup(l.stage, "program.local[1]") {
        inputs.constants.insert(RegKey::new(f, i), pack(cmp, new));
    }
    shaderdiff::nv_runtime::prepare(&l.program, &l.names, &mut inputs).expect("prepared");
    for name in shaderdiff_backends::ENGINE_NAMES {
        let e = shaderdiff_backends::engine(name, &Default::default()).expect("engine");
        let out = e.execute(&l.program, &inputs).expect("runs");
        let b = &out.buffers[&key];
        // First CSWAP: memory (-1) == cmp: stores `new`, returns -1. Second: memory
        // (`new`) != cmp: no store, returns `new`.
        assert_eq!(qword(b, 1), new, "{name}");
        assert_eq!(qword(b, 2), NEG1, "{name}");
        assert_eq!(qword(b, 3), new, "{name}");
    }
}

/// Forms outside the tables: IWRAP / DWRAP ("No new support is provided for the IWRAP and
/// DWRAP atomic operations"), MIN.F64 and X2 forms are invalid (exit 2).
#[test]
fn forms_outside_the_tables_are_invalid() {
    for (insn, what) in [
        ("ATOM.IWRAP.U64 d.x, d, a.x;", "not in Table X.Y"),
        ("ATOM.DWRAP.S64 d.x, d, a.x;", "not in Table X.Y"),
        ("ATOM.MIN.F64 d.x, d, a.x;", "not in Table X.Y"),
        ("ATOM.ADD.U64X2 d, d, a.x;", "one 64-bit component"),
    ] {
        let text = format!("!!NVcp5.0\nGROUP_SIZE 1;\nLONG TEMP a, d;\n{insn}\nEND\n");
        let p = nv::parse(&text, "t.nv").unwrap_or_else(|e| panic!("{text}: {e}"));
        let e = nv::lower(&p).expect_err(&text);
        assert!(matches!(e, nv::LowerError::Invalid { .. }), "{text}: {e}");
        assert!(e.to_string().contains(what), "{text}: {e}");
        assert_eq!((e.pos().line, e.pos().col), (4, 1), "{text}: {e}");
    }
}

/// The spec suite's ATOM families (`generators/src/nv/spec_atom.rs`) on every engine, two
/// values by hand from their edge-value layout: invocation `i`'s slot starts as edge value
/// `(7 i + 3) % 32`, its operand is edge value `i`.
#[test]
fn spec_suite_atom_families_follow_their_layout() {
    use shaderdiff_generators::nv::spec_atom::{cases, REGION_BASE};
    let all = cases().expect("the ATOM families lower");
    assert_eq!(all.len(), 76);
    // ADD.U64, invocation 3: slot 3 holds EDGE_VALUES_64[24] = 0xBFF0_0000_0000_0000
    // (binary64 -1.0), the operand is EDGE_VALUES_64[3] = u64::MAX: the sum wraps to
    // 0xBFEF_FFFF_FFFF_FFFF. CSWAP.S64, invocation 4 (even: compares with the slot's value
    // EDGE_VALUES_64[31] = 0xFFFF), stores EDGE_VALUES_64[17] = 0x0000_0001_FFFF_FFFF.
    for (name, inv, old, new) in [
        (
            "nv-spec-vp-atom-add-u64",
            3,
            0xBFF0_0000_0000_0000u64,
            0xBFEF_FFFF_FFFF_FFFFu64,
        ),
        (
            "nv-spec-vp-atom-cswap-s64",
            4,
            0xFFFF,
            0x0000_0001_FFFF_FFFF,
        ),
    ] {
        let c = all.iter().find(|c| c.name == name).expect(name);
        let mut inputs = c.inputs.clone();
        shaderdiff::nv_runtime::prepare(&c.lowered.program, &c.lowered.names, &mut inputs)
            .expect("prepared");
        let (f, i) = c
            .lowered
            .names
            .lookup(c.lowered.stage, "result.attrib[0]")
            .expect("output");
        for engine in shaderdiff_backends::ENGINE_NAMES {
            let e = shaderdiff_backends::engine(engine, &Default::default()).expect("engine");
            let mut out = e.execute(&c.lowered.program, &inputs).expect("runs");
            shaderdiff::nv_runtime::regions(&c.lowered.names, &inputs, &mut out);
            let r = out.registers[&RegKey::new(f, i)][inv];
            let got_old = u64::from(r[0]) | u64::from(r[1]) << 32;
            assert_eq!(got_old, old, "{engine} {name}");
            let mem = &out.global[&REGION_BASE];
            assert_eq!(qword(mem, inv), new, "{engine} {name}");
        }
    }
}
