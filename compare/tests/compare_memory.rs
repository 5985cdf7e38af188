//! The memory comparator (compare/src/memory.rs) and the oracle's atomic orders
//! (`AtomicOrder::Any`, interval mode) on hand-built cases.

#[path = "../../oracle/tests/interp_common/mod.rs"]
mod interp_common;

use interp_common::*;
use shaderdiff_compare::memory::compare_memory;
use shaderdiff_model::File;
use shaderdiff_oracles::interp::{replay_of, run_with, AtomicOrder};
use shaderdiff_oracles::precision::PrecisionContract;
use shaderdiff_oracles::{Inputs, InterpConfig, Outputs, RegKey};

fn buf(i: u32) -> RegKey {
    RegKey::new(File::Buffer, i)
}

fn words(ws: &[u32]) -> Vec<u8> {
    ws.iter().flat_map(|w| w.to_le_bytes()).collect()
}

/// Invocation i adds i + 1 to the dword at 4 (i % k), stores i + 1 at 8 + 4 i in
/// BUFFER[1] and what its atomic returned at OUT[0].x.
fn program(k: u32) -> String {
    format!(
        "VERT
DCL IN[0]
DCL BUFFER[0]
DCL BUFFER[1]
DCL OUT[0]
DCL TEMP[0]
IMM[0] UINT32 {{{k}, 4, 1, 8}}
UMOD TEMP[0].x, IN[0].xxxx, IMM[0].xxxx
UMUL TEMP[0].x, TEMP[0].xxxx, IMM[0].yyyy
UADD TEMP[0].y, IN[0].xxxx, IMM[0].zzzz
ATOMUADD OUT[0].x, BUFFER[0], TEMP[0].xxxx, TEMP[0].yyyy
UMAD TEMP[0].z, IN[0].xxxx, IMM[0].yyyy, IMM[0].wwww
STORE BUFFER[1].x, TEMP[0].zzzz, TEMP[0].yyyy
END
"
    )
}

fn setup(n: u32, k: u32) -> (shaderdiff_model::Program, Inputs) {
    let p = parse(&program(k));
    let mut i = inputs(
        n as usize,
        &[(input(0), (0..n).map(|i| [i, 0, 0, 0]).collect())],
    );
    i.buffers.insert(buf(0), vec![0; 4 * k as usize]);
    i.buffers.insert(buf(1), vec![0; 8 + 4 * n as usize]);
    (p, i)
}

fn oracle(p: &shaderdiff_model::Program, i: &Inputs, order: AtomicOrder<'_>) -> Outputs {
    run_with(p, i, &InterpConfig::default(), None, order).unwrap()
}

#[test]
fn identical_memory_agrees_and_a_changed_byte_does_not() {
    let (p, i) = setup(4, 2);
    let o = oracle(&p, &i, AtomicOrder::Own);
    assert!(compare_memory(&i, &o, "e", &o).is_empty());
    // One byte of the plain-stored area changed: one "bytes" record for its dword.
    let mut e = o.clone();
    e.buffers.get_mut(&buf(1)).unwrap()[13] ^= 1;
    let ms = compare_memory(&i, &o, "e", &e);
    assert_eq!(ms.len(), 1, "{ms:?}");
    assert_eq!(
        (
            ms[0].register.as_str(),
            ms[0].channel.as_str(),
            ms[0].ty.as_str()
        ),
        ("BUFFER[1]", "0xc", "bytes")
    );
    // Stored by invocation 1: its i + 1 = 2 at 8 + 4.
    assert_eq!(ms[0].expected, "0x00000002");
    assert_eq!(ms[0].actual, "0x00000102");
    // A missing resource is one "size" record.
    let mut e = o.clone();
    e.buffers.remove(&buf(1));
    let ms = compare_memory(&i, &o, "e", &e);
    assert_eq!((ms.len(), ms[0].channel.as_str()), (1, "size"));
}

#[test]
fn undefined_bytes_are_not_compared() {
    let (p, i) = setup(4, 2);
    let mut o = oracle(&p, &i, AtomicOrder::Own);
    let mut e = o.clone();
    e.buffers.get_mut(&buf(1)).unwrap()[13] ^= 1;
    let mut und = vec![false; o.buffers[&buf(1)].len()];
    und[13] = true;
    o.buffers_undefined.insert(buf(1), und);
    assert!(compare_memory(&i, &o, "e", &e).is_empty());
}

#[test]
fn engines_without_a_log_are_judged_on_final_values() {
    let (p, i) = setup(8, 2);
    let o = oracle(&p, &i, AtomicOrder::Any);
    // Address 0 gets 1 + 3 + 5 + 7 = 16, address 4 gets 2 + 4 + 6 + 8 = 20.
    assert_eq!(o.buffers[&buf(0)], words(&[16, 20]));
    let mut e = o.clone();
    e.atomics = None;
    assert!(compare_memory(&i, &o, "e", &e).is_empty());
    // A lost update at address 4 (the 8 lost): 12.
    e.buffers.insert(buf(0), words(&[16, 12]));
    let ms = compare_memory(&i, &o, "e", &e);
    assert_eq!(ms.len(), 1, "{ms:?}");
    assert_eq!(
        (ms[0].ty.as_str(), ms[0].channel.as_str()),
        ("atomic", "0x4")
    );
    assert!(
        ms[0].tolerance.contains("every order leaves 0x14"),
        "{}",
        ms[0].tolerance
    );
}

#[test]
fn any_order_leaves_contended_results_undefined() {
    // Two addresses, four invocations: every address is updated by two invocations.
    let (p, i) = setup(4, 2);
    let o = oracle(&p, &i, AtomicOrder::Any);
    assert!(undef(&o, out(0)).iter().all(|&u| u & 1 == 1));
    // Four addresses: one invocation each, nothing depends on the order.
    let (p, i) = setup(4, 4);
    let o = oracle(&p, &i, AtomicOrder::Any);
    assert!(undef(&o, out(0)).iter().all(|&u| u & 1 == 0));
    assert!(reg(&o, out(0)).iter().all(|v| v[0] == 0));
}

#[test]
fn a_log_with_other_operands_than_the_oracle_is_a_mismatch() {
    let (p, i) = setup(4, 1);
    let o = oracle(&p, &i, AtomicOrder::Own);
    let mut e = o.clone();
    // The engine claims invocation 2 added 7 (the program adds 3) and memory agrees with
    // its log: serializable, but not what the program computes.
    let log = e.atomics.as_mut().unwrap();
    let k = log.iter().position(|r| r.invocation == 2).unwrap();
    log[k].src = 7;
    for r in log.iter_mut().skip(k + 1) {
        r.old += 4;
    }
    e.buffers.insert(buf(0), words(&[1 + 2 + 7 + 4]));
    let replayed = oracle(
        &p,
        &i,
        AtomicOrder::Replay(&replay_of(e.atomics.as_ref().unwrap())),
    );
    let ms = compare_memory(&i, &replayed, "e", &e);
    assert_eq!(ms.len(), 1, "{ms:?}");
    assert_eq!(
        (ms[0].invocation, ms[0].expected.as_str()),
        (2, "0x00000003")
    );
}

#[test]
fn memory_results_are_exact_intervals() {
    let text = "VERT
DCL BUFFER[0]
DCL OUT[0]
IMM[0] UINT32 {0, 0, 0, 0}
LOAD OUT[0].xy, BUFFER[0], IMM[0].xxxx
END
";
    let p = parse(text);
    let mut i = inputs(1, &[]);
    // 1.0f and 0.1f (0x3dcccccd).
    i.buffers.insert(buf(0), words(&[0x3f80_0000, 0x3dcc_cccd]));
    let contract = PrecisionContract::builtin();
    let class = contract.class_of_engine("jit").unwrap();
    let o = run_with(
        &p,
        &i,
        &InterpConfig::default(),
        Some((contract, class)),
        AtomicOrder::Own,
    )
    .unwrap();
    let ivs = &o.intervals.as_ref().unwrap().channels[&out(0)][0];
    assert!(ivs[0].is_exactly(0x3f80_0000));
    assert!(ivs[1].is_exactly(0x3dcc_cccd));
}
