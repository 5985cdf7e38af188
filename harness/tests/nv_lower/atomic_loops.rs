//! NV atomics lowered to compare-and-swap loops (ATOM / ATOMS / ATOMB `.DWRAP`, lower_mem.rs
//! `atom_dwrap`) under contention: many invocations on one dword, on every engine and
//! through `shaderdiff diff` (the oracle replays each engine's atomic log and the log must
//! be serializable).
//!
//! DWRAP is a function of the old value alone (§2.X.8.Z ATOM: `writeval = (result == 0 ||
//! result > tmp0.x) ? tmp0.x : result - 1`), so with one operand for everybody the values
//! the dword takes do not depend on the order: from 3 with operand 5, eight DWRAPs see
//! 3, 2, 1, 0, 5, 4, 3, 2 (0 wraps to 5) and leave 1. Which invocation sees which value
//! does depend on the order, so the tests compare the sorted results.

use crate::support::run_compute;
use shaderdiff_oracles::RegKey;

const BASE: u64 = 0x3_0000_2000;

/// The old values eight DWRAP.U32 with operand 5 on a dword holding 3 return, sorted
/// (module docs), and the final value.
const SEEN: [u32; 8] = [0, 1, 2, 2, 3, 3, 4, 5];
const LAST: u32 = 1;

fn bytes(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

fn words(b: &[u8]) -> Vec<u32> {
    b.chunks(4)
        .map(|c| u32::from_le_bytes(c.try_into().expect("4 bytes")))
        .collect()
}

/// Global memory: invocation k performs ATOM.DWRAP on the region's word 0 and stores the
/// value it read at word 1 + k.
const GLOBAL: &str = "!!NVcp5.0\nGROUP_SIZE 8;\nPARAM p0 = program.local[0];\nLONG TEMP a, q;\n\
    TEMP i, old;\nPK64.U a, p0;\nATOM.DWRAP.U32 old.x, {5}, a.x;\n\
    MUL.U i.x, invocation.localid.x, 4;\nADD.U i.x, i.x, 4;\nCVT.U64.U32 q.x, i.x;\n\
    ADD.U64 q.x, q.x, a.x;\nSTORE.U32 old, q.x;\nEND\n";

/// The sorted values the eight invocations stored at words 1..9, and word 0.
fn judge(engine: &str, mem: &[u8]) {
    let w = words(mem);
    let mut seen = w[1..9].to_vec();
    seen.sort_unstable();
    assert_eq!(seen, SEEN, "{engine}: {w:?}");
    assert_eq!(w[0], LAST, "{engine}: {w:?}");
}

#[test]
fn contended_dwrap_on_global_memory_takes_every_value_once() {
    let hi = (BASE >> 32) as u32;
    let mut init = vec![3u32];
    init.extend([0; 8]);
    let global = [(BASE, bytes(&init))];
    for (engine, out) in run_compute(GLOBAL, &[[BASE as u32, hi, 0, 0]], &global, 8) {
        judge(&engine, &out.global[&BASE]);
    }
}

/// Shared memory: word 0 of `sm` starts at 3 (STS by invocation 0, then BAR), every
/// invocation performs ATOMS.DWRAP with operand 5 and stores what it read to global word
/// 1 + k; after a second BAR invocation 0 copies the shared word to global word 0.
#[test]
fn contended_dwrap_on_shared_memory_takes_every_value_once() {
    let text =
        "!!NVcp5.0\nGROUP_SIZE 8;\nSHARED_MEMORY 16;\nSHARED sm[] = { program.sharedmem };\n\
        PARAM p0 = program.local[0];\nLONG TEMP a, q;\nTEMP i, old, c;\nPK64.U a, p0;\n\
        MOV.U c.x, invocation.localid.x;\nMOV.U.CC c.y, c.x;\nMOV.U old.x, 3;\n\
        IF EQ.y;\nSTS.U32 old, sm[0];\nENDIF;\nBAR;\nATOMS.DWRAP.U32 old.x, {5}, sm[0];\n\
        MUL.U i.x, c.x, 4;\nADD.U i.x, i.x, 4;\nCVT.U64.U32 q.x, i.x;\n\
        ADD.U64 q.x, q.x, a.x;\nSTORE.U32 old, q.x;\nBAR;\nLDS.U32 old.x, sm[0];\n\
        IF EQ.y;\nSTORE.U32 old, a.x;\nENDIF;\nEND\n";
    let hi = (BASE >> 32) as u32;
    let global = [(BASE, bytes(&[0; 9]))];
    for (engine, out) in run_compute(text, &[[BASE as u32, hi, 0, 0]], &global, 8) {
        judge(&engine, &out.global[&BASE]);
    }
}

/// A storage buffer: the same through ATOMB on `program.storage[1]` word 0; results at
/// words 1..9 of the buffer.
#[test]
fn contended_dwrap_on_a_storage_buffer_takes_every_value_once() {
    let text = "!!NVcp5.0\nGROUP_SIZE 8;\nSTORAGE sb[] = { program.storage[1] };\nTEMP i, old;\n\
        ATOMB.DWRAP.U32 old.x, {5}, sb[0];\nMUL.U i.x, invocation.localid.x, 4;\n\
        STB.U32 old, sb[i.x + 4];\nEND\n";
    let p = shaderdiff_nv::parse(text, "sb.nv").expect("parses");
    let l = shaderdiff_nv::lower(&p).expect("lowers");
    let mut inputs = shaderdiff_backends::Inputs {
        invocations: 8,
        ..Default::default()
    };
    let (f, i) = l
        .names
        .lookup(l.stage, "program.storage[1]")
        .expect("named");
    let key = RegKey::new(f, i);
    let mut init = vec![3u32];
    init.extend([0; 8]);
    inputs.buffers.insert(key, bytes(&init));
    shaderdiff::nv_runtime::prepare(&l.program, &l.names, &mut inputs).expect("prepared");
    for name in shaderdiff_backends::ENGINE_NAMES {
        let e = shaderdiff_backends::engine(name, &Default::default()).expect("engine");
        let out = e.execute(&l.program, &inputs).expect("runs");
        judge(name, &out.buffers[&key]);
    }
}

/// `shaderdiff diff` judges the CAS loops' logs: every engine agrees with the oracle
/// replaying its atomic order (exit 0), for the contended global program.
#[test]
fn contended_dwrap_agrees_under_diff() {
    let dir = std::env::temp_dir().join(format!("sd-dwrap-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let prog = dir.join("dwrap.nvcp");
    let inputs = dir.join("dwrap.inputs.json");
    std::fs::write(&prog, GLOBAL).expect("write program");
    let hi = BASE >> 32;
    let lo = BASE & 0xFFFF_FFFF;
    let region: String = bytes(&[3, 0, 0, 0, 0, 0, 0, 0, 0])
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    std::fs::write(
        &inputs,
        format!(
            "{{\"invocations\": 8, \"constants\": {{\"program.local[0]\": [\"{lo:#x}\", \
             \"{hi:#x}\", \"0\", \"0\"]}}, \"global\": {{\"{BASE:#x}\": \"{region}\"}}}}"
        ),
    )
    .expect("write inputs");
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_shaderdiff"))
        .arg("diff")
        .arg(&prog)
        .arg("--inputs")
        .arg(&inputs)
        .output()
        .expect("runs");
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    let _ = std::fs::remove_dir_all(&dir);
}
