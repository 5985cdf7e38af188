//! 64-bit NV atomics under contention: eight invocations on one qword, on every engine and
//! through `shaderdiff diff` (the oracle replays each engine's atomic log, which must be
//! explainable by one serial order of 64-bit transitions).
//!
//! Legal outcomes, by hand from § ATOM (`writeval = tmp0.x + result`; CSWAP stores
//! `tmp0.y` only when `result == tmp0.x`):
//!
//! * ADD.U64 of 0xFFFF_FFFF by each of 8 invocations on a qword holding 0xFFFF_FFFF: in any
//!   serial order the k-th atomic reads (k + 1) · 0xFFFF_FFFF (k = 0..7), so the sorted
//!   values read are exactly those, and the qword ends at 9 · 0xFFFF_FFFF =
//!   0x8_FFFF_FFF7 (every addition after the first carries into the high word).
//! * CSWAP.U64 from 0 to 2^32 + id + 1 by each invocation `id` on a qword holding 0:
//!   exactly one (the first in the order) finds 0 and stores its value `w`; the seven
//!   others read `w` and store nothing; the qword ends at `w`.

use crate::support::run_compute;

const BASE: u64 = 0x3_0000_4000;

/// Invocation `id` performs `insn` (operand `v`, address `a.x`) and stores the value read
/// at qword 1 + id.
fn program(setup: &str, insn: &str) -> String {
    format!(
        "!!NVcp5.0\nOPTION NV_shader_atomic_int64;\nOPTION NV_shader_atomic_float64;\nGROUP_SIZE 8;\n\
         PARAM p0 = program.local[0];\nPARAM p1 = program.local[1];\n\
         LONG TEMP a, q, v, old;\nTEMP i, w;\nPK64.U a, p0;\n{setup}\n{insn}\n\
         MUL.U i.x, invocation.localid.x, 8;\nADD.U i.x, i.x, 8;\nCVT.U64.U32 q.x, i.x;\n\
         ADD.U64 q.x, q.x, a.x;\nSTORE.U64 old.x, q.x;\nEND\n"
    )
}

fn qwords(b: &[u8]) -> Vec<u64> {
    b.chunks(8)
        .map(|c| u64::from_le_bytes(c.try_into().expect("8 bytes")))
        .collect()
}

fn region(first: u64) -> Vec<u8> {
    let mut q = vec![first];
    q.extend([0; 8]);
    q.iter().flat_map(|w| w.to_le_bytes()).collect()
}

const ADD: (&str, &str) = ("PK64.U v, p1;", "ATOM.ADD.U64 old.x, v, a.x;");
const CSWAP: (&str, &str) = (
    "MOV.U w, {0, 0, 0, 1};\nADD.U w.z, invocation.localid.x, 1;\nPK64.U v, w;",
    "ATOM.CSWAP.U64 old.x, v, a.x;",
);

fn locals() -> [[u32; 4]; 2] {
    let hi = (BASE >> 32) as u32;
    [[BASE as u32, hi, 0, 0], [0xFFFF_FFFF, 0, 0, 0]]
}

#[test]
fn contended_add_reads_every_partial_sum_once() {
    let text = program(ADD.0, ADD.1);
    let global = [(BASE, region(0xFFFF_FFFF))];
    for (engine, out) in run_compute(&text, &locals(), &global, 8) {
        let q = qwords(&out.global[&BASE]);
        let mut seen = q[1..9].to_vec();
        seen.sort_unstable();
        let want: Vec<u64> = (1..=8).map(|k| k * 0xFFFF_FFFF).collect();
        assert_eq!(seen, want, "{engine}: {q:x?}");
        assert_eq!(q[0], 0x8_FFFF_FFF7, "{engine}: {q:x?}");
    }
}

#[test]
fn contended_cswap_has_one_winner() {
    let text = program(CSWAP.0, CSWAP.1);
    let global = [(BASE, region(0))];
    for (engine, out) in run_compute(&text, &locals(), &global, 8) {
        let q = qwords(&out.global[&BASE]);
        let winners: Vec<usize> = (0..8).filter(|&id| q[1 + id] == 0).collect();
        assert_eq!(winners.len(), 1, "{engine}: {q:x?}");
        let w = (1u64 << 32) + winners[0] as u64 + 1;
        assert_eq!(q[0], w, "{engine}: {q:x?}");
        for id in (0..8).filter(|&id| id != winners[0]) {
            assert_eq!(q[1 + id], w, "{engine}: invocation {id}: {q:x?}");
        }
    }
}

/// ADD.F64 of 0.5 by each of 8 invocations on 1.0: every partial sum 1.0 + k / 2 is exact
/// in binary64, so the sorted values read are 1.0, 1.5, ..., 4.5 and the qword ends at 5.0
/// (0x4014 << 48) whatever the order of the compare-and-swap loops.
#[test]
fn contended_double_add_reads_every_partial_sum_once() {
    let text = program("PK64.U v, p1;", "ATOM.ADD.F64 old.x, v, a.x;");
    let global = [(BASE, region(1.0f64.to_bits()))];
    let hi = (BASE >> 32) as u32;
    let half = 0.5f64.to_bits();
    let locals = [
        [BASE as u32, hi, 0, 0],
        [half as u32, (half >> 32) as u32, 0, 0],
    ];
    for (engine, out) in run_compute(&text, &locals, &global, 8) {
        let q = qwords(&out.global[&BASE]);
        let mut seen: Vec<f64> = q[1..9].iter().map(|&b| f64::from_bits(b)).collect();
        seen.sort_by(f64::total_cmp);
        let want: Vec<f64> = (0..8).map(|k| 1.0 + 0.5 * f64::from(k)).collect();
        assert_eq!(seen, want, "{engine}: {q:x?}");
        assert_eq!(q[0], 0x4014_0000_0000_0000, "{engine}: {q:x?}");
    }
}

/// `shaderdiff diff` (every engine, the atomic-aware comparator) agrees on the ADD, CSWAP
/// and ADD.F64 programs
/// for two schedule seeds of the valhall simulator.
#[test]
fn contended_64_bit_atomics_agree_under_diff() {
    let dir = std::env::temp_dir().join(format!("sd-atom64-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let l = locals();
    const FADD: (&str, &str) = ("PK64.U v, p1;", "ATOM.ADD.F64 old.x, v, a.x;");
    let half = 0.5f64.to_bits();
    for (name, (setup, insn), first, p1) in [
        ("add", ADD, 0xFFFF_FFFF, [l[1][0], 0]),
        ("cswap", CSWAP, 0, [l[1][0], 0]),
        (
            "fadd",
            FADD,
            1.0f64.to_bits(),
            [half as u32, (half >> 32) as u32],
        ),
    ] {
        let prog = dir.join(format!("{name}.nvcp"));
        let inputs = dir.join(format!("{name}.inputs.json"));
        std::fs::write(&prog, program(setup, insn)).expect("write program");
        let hex: String = region(first).iter().map(|b| format!("{b:02x}")).collect();
        std::fs::write(
            &inputs,
            format!(
                "{{\"invocations\": 8, \"constants\": {{\"program.local[0]\": [\"{:#x}\", \
                 \"{:#x}\", \"0\", \"0\"], \"program.local[1]\": [\"{:#x}\", \"{:#x}\", \"0\", \
                 \"0\"]}}, \"global\": {{\"{BASE:#x}\": \"{hex}\"}}}}",
                l[0][0], l[0][1], p1[0], p1[1]
            ),
        )
        .expect("write inputs");
        for seed in ["0", "1"] {
            let o = std::process::Command::new(env!("CARGO_BIN_EXE_shaderdiff"))
                .arg("diff")
                .arg(&prog)
                .arg("--inputs")
                .arg(&inputs)
                .args(["--schedule-seed", seed])
                .output()
                .expect("runs");
            assert_eq!(
                o.status.code(),
                Some(0),
                "{name} seed {seed}: {}{}",
                String::from_utf8_lossy(&o.stdout),
                String::from_utf8_lossy(&o.stderr)
            );
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}
