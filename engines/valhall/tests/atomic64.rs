//! `ATOM_RETURN.i64` in the forms the compiler emits for 64-bit atomics
//! (`src/compile/atomic64.rs`): encoding fields derived by hand from ENCODING.md, the
//! encode → decode → disassemble round trip, and the simulator on the overlapping staging
//! runs (write run `r56:r57`, read run `r56:r57` or `r56`…`r59`).

#[path = "sim_util.rs"]
mod util;

use shaderdiff_valhall::sim::{Memory, NUM_REGS};
use shaderdiff_valhall::{assemble_word, disassemble_word};
use util::run_full;

fn field(w: u64, start: u32, size: u32) -> u64 {
    (w >> start) & ((1 << size) - 1)
}

/// ISA.xml `Atomic operation` enum positions (two reserved entries, `aadd`, five
/// reserved, then `asmin` … `axchg`).
const OPS: [(&str, u64); 9] = [
    ("aadd", 2),
    ("asmin", 8),
    ("asmax", 9),
    ("aumin", 10),
    ("aumax", 11),
    ("aand", 12),
    ("aor", 13),
    ("axor", 14),
    ("axchg", 15),
];

#[test]
fn atom_return_i64_fields_follow_encoding_md_and_round_trip() {
    let mut lines: Vec<(String, u64, bool)> = OPS
        .iter()
        .map(|&(name, v)| {
            let l = format!("ATOM_RETURN.i64.slot0.{name} @r56:r57, @r56:r57, r60, offset:0x0");
            (l, v, false)
        })
        .collect();
    lines.push((
        "ATOM_RETURN.i64.slot0.axchg.compare @r56:r57, @r56:r57:r58:r59, r60, offset:0x0".into(),
        15,
        true,
    ));
    for (line, op, compare) in lines {
        let w = assemble_word(&line).unwrap_or_else(|e| panic!("{line}: {e}"));
        // ENCODING.md §1: primary opcode in bits 48–56; Appendix A: 0x120 with the
        // secondary opcode 5 (`.i64`) in bits 27–29.
        assert_eq!(field(w, 48, 9), 0x120, "{line}");
        assert_eq!(field(w, 27, 3), 5, "{line}");
        // `<atom_opc/>` bits 22–25, `compare` bit 26.
        assert_eq!(field(w, 22, 4), op, "{line}");
        assert_eq!(field(w, 26, 1), u64::from(compare), "{line}");
        // Written staging run (`flags="false"`): first register in bits 16–21; read run
        // (`flags="rw"`): bits 40–45 with control 0b11 in 46–47.
        assert_eq!(field(w, 16, 6), 56, "{line}");
        assert_eq!(field(w, 40, 6), 56, "{line}");
        assert_eq!(field(w, 46, 2), 0b11, "{line}");
        // Read count in bits 33–35 (2, or 4 for new + compare), written count − 1 in 36–38.
        assert_eq!(field(w, 33, 3), if compare { 4 } else { 2 }, "{line}");
        assert_eq!(field(w, 36, 3), 1, "{line}");
        // Source slot 0: register r60 (mode 00), offset 0 in bits 8–15.
        assert_eq!(field(w, 0, 8), 60, "{line}");
        assert_eq!(field(w, 8, 8), 0, "{line}");
        let text = disassemble_word(w).unwrap_or_else(|e| panic!("{line}: {e:?}"));
        assert_eq!(assemble_word(&text).ok(), Some(w), "{line} -> {text}");
    }
}

const BASE: u64 = 0x1_0000_2000;

fn run(line: &str, mem: u64, init: impl Fn(&mut [u32; NUM_REGS]) + Sync) -> ([u32; 2], u64) {
    let mut m = Memory::new();
    m.map(BASE, mem.to_le_bytes().to_vec());
    let init = move |_: usize, r: &mut [u32; NUM_REGS]| {
        r[60] = BASE as u32;
        r[61] = (BASE >> 32) as u32;
        init(r);
    };
    let (_, regs) = run_full(line, 1, &[], &init, &mut m).expect("runs");
    let after = u64::from_le_bytes(m.region(BASE).expect("mapped")[..8].try_into().expect("8"));
    ([regs[0][56], regs[0][57]], after)
}

/// SEMANTICS.md §8: the old value is returned in the write run, which may be the read run.
#[test]
fn overlapping_runs_read_the_operands_before_returning_the_old_value() {
    // 0xFFFF_FFFF + 1 = 0x1_0000_0000 (carry into the high word); old value returned.
    let (ret, after) = run(
        "ATOM_RETURN.i64.slot0.aadd @r56:r57, @r56:r57, r60, offset:0x0",
        0xFFFF_FFFF,
        |r| {
            r[56] = 1;
            r[57] = 0;
        },
    );
    assert_eq!((ret, after), ([0xFFFF_FFFF, 0], 1 << 32));
    // Compare-and-swap, read run (new value, compare value): memory 5 == compare 5 → the
    // new value 0x7_0000_0009 is stored; 5 is returned.
    let cas = "ATOM_RETURN.i64.slot0.axchg.compare @r56:r57, @r56:r57:r58:r59, r60, offset:0x0";
    let (ret, after) = run(cas, 5, |r| {
        r[56] = 9;
        r[57] = 7;
        r[58] = 5;
        r[59] = 0;
    });
    assert_eq!((ret, after), ([5, 0], 0x7_0000_0009));
    // Compare value 0x1_0000_0005 differs in the high word only: no store.
    let (ret, after) = run(cas, 5, |r| {
        r[56] = 9;
        r[57] = 7;
        r[58] = 5;
        r[59] = 1;
    });
    assert_eq!((ret, after), ([5, 0], 5));
    // Signed minimum at 64 bits: min(-2^32, 1) = -2^32.
    let (ret, after) = run(
        "ATOM_RETURN.i64.slot0.asmin @r56:r57, @r56:r57, r60, offset:0x0",
        1,
        |r| {
            r[56] = 0;
            r[57] = 0xFFFF_FFFF;
        },
    );
    assert_eq!((ret, after), ([1, 0], 0xFFFF_FFFF_0000_0000));
}
