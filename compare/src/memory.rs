//! The memory comparator: an engine's final `buffers` and atomic log against the oracle's
//! (the memory model of [`shaderdiff_oracles::interp`] docs, "Memory model").
//!
//! * **Bytes** of every resource the oracle reports are compared exactly, except bytes the
//!   oracle marks undefined (`Outputs::buffers_undefined`) and bytes of locations updated by
//!   atomics (either side's log): those are judged as atomics. A resource the engine lacks,
//!   or reports with another size, is one mismatch (`channel` `"size"`). Differing bytes are
//!   reported per dword: `register` the resource (`BUFFER[0]`), `invocation` 0, `channel`
//!   the dword's byte offset (`"0x10"`), `type` `"bytes"`, `expected` / `actual` the
//!   little-endian dwords (a resource's last partial dword padded with zero bytes).
//! * **Atomics, engine with a log**: [`check_serializable`] on the engine's records, from
//!   the inputs' memory to the engine's final memory (locations the oracle marks undefined
//!   are skipped). Each record's location, operation and operands must also equal the
//!   oracle's record with the same `(invocation, seq)`; the oracle must have been run in
//!   replay mode with the engine's old values ([`shaderdiff_oracles::interp::run_with`]), so that the
//!   operands and every register derived from atomic results are exact. A violation is a
//!   mismatch with `type` `"atomic"`, `channel` the location's byte offset, `expected` /
//!   `actual` the oracle's and the engine's final words, and the reason in `tolerance`.
//! * **Atomics, engine without a log**: [`check_final_only`] per location on the oracle's
//!   records (run with [`shaderdiff_oracles::interp::AtomicOrder::Any`], so that results depending on
//!   the order are undefined); operation mixes it cannot decide are skipped.
//! * **SHARED memory** ([`compare_program_memory`]): one copy per workgroup, but outputs
//!   hold workgroup 0's copy only and the log names every copy's atomics by the same
//!   location, so only workgroup 0's atomics on SHARED resources can be checked against a
//!   final value; the others are left out of the memory comparison (their results still
//!   reach registers, which the replayed oracle makes exact). An engine that cannot read
//!   SHARED memory back (`Engine::observed`, engine `nvidia`'s dispatches) has it left
//!   out entirely ([`compare_observed_memory`]).

use std::collections::{BTreeMap, HashMap, HashSet};

use shaderdiff_backends::Observed;
use shaderdiff_model::{File, MemoryType, Program, Resource};

use super::atomic::{check_final_only, check_serializable, AtomicRecord, Location, Space};
use crate::output::Mismatch;
use shaderdiff_oracles::io::{Inputs, Outputs, RegKey};

fn hex(w: u32) -> String {
    format!("{w:#010x}")
}

/// The dword at byte `off` of `bytes` (missing bytes read as zero).
fn dword(bytes: &[u8], off: u64) -> u32 {
    let mut w = [0u8; 4];
    for (k, b) in w.iter_mut().enumerate() {
        *b = bytes.get(off as usize + k).copied().unwrap_or(0);
    }
    u32::from_le_bytes(w)
}

fn mismatch(engine: &str, key: &str, inv: usize, channel: String, ty: &str) -> Mismatch {
    Mismatch {
        engine: engine.to_string(),
        register: key.to_string(),
        invocation: inv,
        channel,
        ty: ty.into(),
        expected: String::new(),
        actual: String::new(),
        tolerance: "exact".into(),
        ulp_distance: None,
    }
}

/// The SHARED memory resources `program` declares.
fn shared_keys(program: &Program) -> Vec<RegKey> {
    program
        .declarations
        .iter()
        .filter(|d| {
            d.file == File::Memory && d.resource == Some(Resource::Memory(MemoryType::Shared))
        })
        .flat_map(|d| (d.first..=d.last).map(|i| RegKey::new(File::Memory, i)))
        .collect()
}

/// [`compare_program_memory`] for an engine whose outputs hold what `observed` says
/// (`Engine::observed`): without `observed.shared_memory` the program's SHARED resources
/// are left out on both sides (their bytes, undefined flags and the atomics on them), so
/// only what the engine can read back is judged (module docs, "SHARED memory").
pub fn compare_observed_memory(
    program: &Program,
    inputs: &Inputs,
    oracle: &Outputs,
    engine: &str,
    actual: &Outputs,
    observed: Observed,
) -> Vec<Mismatch> {
    let shared = shared_keys(program);
    if observed.shared_memory || shared.is_empty() {
        return compare_program_memory(program, inputs, oracle, engine, actual);
    }
    let strip = |o: &Outputs| {
        let mut kept = o.clone();
        for k in &shared {
            kept.buffers.remove(k);
            kept.buffers_undefined.remove(k);
        }
        if let Some(log) = kept.atomics.as_mut() {
            log.retain(|r| !matches!(r.location.space, Space::Resource(k) if shared.contains(&k)));
        }
        kept
    };
    compare_program_memory(program, inputs, &strip(oracle), engine, &strip(actual))
}

/// [`compare_memory`] for a run of `program`, judging only workgroup 0's atomics on its
/// SHARED resources (module docs; workgroups as [`shaderdiff_oracles::interp::memory::workgroup_size`]).
pub fn compare_program_memory(
    program: &Program,
    inputs: &Inputs,
    oracle: &Outputs,
    engine: &str,
    actual: &Outputs,
) -> Vec<Mismatch> {
    let shared = shared_keys(program);
    let wg = shaderdiff_oracles::interp::memory::workgroup_size(program).max(1);
    let other = |r: &AtomicRecord| {
        r.invocation / wg != 0
            && matches!(r.location.space, Space::Resource(k) if shared.contains(&k))
    };
    let only_wg0 = |o: &Outputs| -> Option<Outputs> {
        let log = o.atomics.as_ref()?;
        if !log.iter().any(other) {
            return None;
        }
        let mut kept = o.clone();
        kept.atomics = Some(log.iter().filter(|r| !other(r)).copied().collect());
        Some(kept)
    };
    let (o0, a0) = (only_wg0(oracle), only_wg0(actual));
    compare_memory(
        inputs,
        o0.as_ref().unwrap_or(oracle),
        engine,
        a0.as_ref().unwrap_or(actual),
    )
}

/// Compares `actual`'s memory (engine `engine`) with the oracle's for a run on `inputs`;
/// returns the mismatches (module docs for the rules and the record fields).
pub fn compare_memory(
    inputs: &Inputs,
    oracle: &Outputs,
    engine: &str,
    actual: &Outputs,
) -> Vec<Mismatch> {
    let mut out = Vec::new();
    let none = Vec::new();
    let oracle_log = oracle.atomics.as_ref().unwrap_or(&none);
    let mut atomic: HashMap<RegKey, HashSet<u64>> = HashMap::new();
    for r in oracle_log.iter().chain(actual.atomics.iter().flatten()) {
        if let Space::Resource(k) = r.location.space {
            let set = atomic.entry(k).or_default();
            set.extend((0..r.location.width.bytes() as u64).map(|b| r.location.offset + b));
        }
    }
    for (key, exp) in &oracle.buffers {
        let name = key.to_string();
        let act = match actual.buffers.get(key) {
            Some(a) if a.len() == exp.len() => a,
            other => {
                let mut m = mismatch(engine, &name, 0, "size".into(), "size");
                m.expected = hex(exp.len() as u32);
                m.actual = hex(other.map_or(0, |a| a.len() as u32));
                out.push(m);
                continue;
            }
        };
        let und = oracle.buffers_undefined.get(key);
        let skip = |b: usize| {
            und.is_some_and(|u| u.get(b) == Some(&true))
                || atomic.get(key).is_some_and(|s| s.contains(&(b as u64)))
        };
        for d in (0..exp.len()).step_by(4) {
            let differs = (d..(d + 4).min(exp.len())).any(|b| exp[b] != act[b] && !skip(b));
            if differs {
                let mut m = mismatch(engine, &name, 0, format!("{d:#x}"), "bytes");
                m.expected = hex(dword(exp, d as u64));
                m.actual = hex(dword(act, d as u64));
                out.push(m);
            }
        }
    }
    // A location is judged when it lies inside the resource and no byte of it is undefined.
    let judged = |l: &Location| -> bool {
        let Space::Resource(k) = l.space else {
            return false;
        };
        let Some(bytes) = oracle.buffers.get(&k) else {
            return false;
        };
        let end = l.offset + l.width.bytes() as u64;
        end <= bytes.len() as u64
            && !oracle
                .buffers_undefined
                .get(&k)
                .is_some_and(|u| u[l.offset as usize..end as usize].contains(&true))
    };
    let value = |bufs: &BTreeMap<RegKey, Vec<u8>>, l: &Location| -> u64 {
        let Space::Resource(k) = l.space else {
            return 0;
        };
        let b = bufs.get(&k).map_or(&[][..], |v| v.as_slice());
        let lo = dword(b, l.offset) as u64;
        match l.width {
            shaderdiff_oracles::atomic::AtomicWidth::W32 => lo,
            shaderdiff_oracles::atomic::AtomicWidth::W64 => {
                lo | (dword(b, l.offset + 4) as u64) << 32
            }
        }
    };
    let violation = |l: &Location, reason: String| {
        let name = match l.space {
            Space::Resource(k) | Space::Workgroup(k, _) => k.to_string(),
            Space::Global => "global".into(),
        };
        let mut m = mismatch(engine, &name, 0, format!("{:#x}", l.offset), "atomic");
        m.expected = hex(value(&oracle.buffers, l) as u32);
        m.actual = hex(value(&actual.buffers, l) as u32);
        m.tolerance = format!("atomic: {reason}");
        m
    };
    match &actual.atomics {
        Some(log) => {
            let mine: Vec<AtomicRecord> = log
                .iter()
                .filter(|r| judged(&r.location))
                .copied()
                .collect();
            if let Err(v) = check_serializable(&mine, &|l| value(&inputs.buffers, l), &|l| {
                value(&actual.buffers, l)
            }) {
                out.push(violation(&v.location(), v.to_string()));
            }
            // The same atomics, with the same operands, as the replayed oracle.
            let theirs: HashMap<(u32, u32), &AtomicRecord> = oracle_log
                .iter()
                .filter(|r| judged(&r.location))
                .map(|r| ((r.invocation, r.seq), r))
                .collect();
            let mut seen = HashSet::new();
            let differs = |r: &AtomicRecord, expected: String, actual: String, what: &str| {
                let mut m = violation(&r.location, String::new());
                m.invocation = r.invocation as usize;
                m.expected = expected;
                m.actual = actual;
                m.tolerance = format!(
                    "atomic: {} #{} of invocation {} {what}",
                    r.op.name(),
                    r.seq,
                    r.invocation
                );
                m
            };
            for r in &mine {
                seen.insert((r.invocation, r.seq));
                let theirs_r = theirs.get(&(r.invocation, r.seq));
                let same = theirs_r.is_some_and(|o| {
                    o.location == r.location && o.op == r.op && o.src == r.src && o.cmp == r.cmp
                });
                if !same {
                    let expected = theirs_r.map_or("none".into(), |o| hex(o.src as u32));
                    let what = "differs from the oracle's";
                    out.push(differs(r, expected, hex(r.src as u32), what));
                }
            }
            for (k, o) in &theirs {
                if !seen.contains(k) {
                    let what = "is missing from the engine's log";
                    out.push(differs(o, hex(o.src as u32), "none".into(), what));
                }
            }
        }
        None => {
            let mut by_loc: BTreeMap<Location, Vec<_>> = BTreeMap::new();
            for r in oracle_log.iter().filter(|r| judged(&r.location)) {
                by_loc
                    .entry(r.location)
                    .or_default()
                    .push((r.op, r.src, r.cmp));
            }
            for (l, ops) in by_loc {
                let init = value(&inputs.buffers, &l);
                let fin = value(&actual.buffers, &l);
                if let Err(v) = check_final_only(&l, &ops, init, fin) {
                    out.push(violation(&l, v.to_string()));
                }
            }
        }
    }
    out
}
