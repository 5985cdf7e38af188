//! The driver side of memory resources for the `valhall` engine: mapping `BUFFER[n]` /
//! `MEMORY[n]` contents into the simulator's memory and their addresses and sizes into the
//! uniforms (ABI of [`crate::compile::abi`]), reading the final contents back, and turning
//! the simulator's access log into the atomic log the comparators judge
//! (`shaderdiff_oracles::atomic::AtomicRecord`, `compare::atomic`).
// Sizes, offsets and counts here come from user input (declarations, inputs files): no
// arithmetic may wrap or panic unnoticed.
#![warn(clippy::arithmetic_side_effects)]

use std::collections::HashMap;

use shaderdiff_engine::EngineError;
use shaderdiff_model::atomic::{AtomicOp, AtomicRecord, AtomicWidth, Location, Space};
use shaderdiff_model::Program;
use shaderdiff_model::{Inputs, Outputs};

use crate::compile::abi::{
    resource_address, RecordLayout, INSTANCE_STRIDE, MAX_INSTANCES, RESOURCE_BASE, RESOURCE_STRIDE,
};
use crate::compile::memory::Site;
use crate::compile::Machine;
use crate::sim::{MemEvent, Memory};

/// Invocations per workgroup: the oracle's rule
/// (`shaderdiff_model::check::memory::workgroup_size`, `interp` docs "Workgroups").
pub fn workgroup_size(program: &Program) -> usize {
    shaderdiff_model::check::memory::workgroup_size(program) as usize
}

/// Maps every resource of `layout` for a run of `threads` invocations in workgroups of
/// `wg`: its inputs' bytes (absent: empty) at [`resource_address`], one copy per workgroup
/// for SHARED memory; writes each resource's instance-0 address and size into `uniforms`
/// and each invocation's workgroup index into its record (`rec`, `stride` bytes each).
///
/// # Errors
/// [`EngineError::InvalidInputs`] when a SHARED resource would need more than
/// [`MAX_INSTANCES`] workgroups or a resource is 4 GiB or larger.
pub fn map_resources(
    layout: &RecordLayout,
    inputs: &Inputs,
    (threads, wg): (usize, usize),
    memory: &mut Memory,
    uniforms: &mut [u32],
    rec: &mut [u8],
) -> Result<(), EngineError> {
    let stride = layout.stride as usize;
    let groups = threads.div_ceil(wg.max(1)) as u64;
    for (r, loc) in layout.resources.iter().enumerate() {
        let bytes = inputs.buffers.get(&loc.key).cloned().unwrap_or_default();
        if bytes.len() as u64 >= INSTANCE_STRIDE {
            return Err(EngineError::InvalidInputs(format!(
                "{} is {} bytes; the valhall engine takes resources under 4 GiB",
                loc.key,
                bytes.len()
            )));
        }
        let instances = if loc.shared { groups.max(1) } else { 1 };
        if instances > MAX_INSTANCES {
            return Err(EngineError::InvalidInputs(format!(
                "{} workgroups; the valhall engine maps at most {MAX_INSTANCES} SHARED copies",
                instances
            )));
        }
        for i in 0..instances {
            memory.map(resource_address(r, i), bytes.clone());
        }
        let base = resource_address(r, 0);
        let words = [base as u32, (base >> 32) as u32, bytes.len() as u32, 0];
        for (k, w) in words.iter().enumerate() {
            if let Some(slot) = (loc.uniform as usize)
                .checked_add(k)
                .and_then(|u| uniforms.get_mut(u))
            {
                *slot = *w;
            }
        }
    }
    if !layout.resources.is_empty() {
        for t in 0..threads {
            // Records past the end of `rec` (it holds `threads` of them) are skipped.
            let at = t
                .checked_mul(stride)
                .and_then(|a| a.checked_add(layout.workgroup as usize));
            let word = at.and_then(|a| Some(a..a.checked_add(4)?));
            if let Some(dst) = word.and_then(|w| rec.get_mut(w)) {
                let group = t.checked_div(wg).unwrap_or(t);
                dst.copy_from_slice(&(group as u32).to_le_bytes());
            }
        }
    }
    Ok(())
}

/// Writes every resource's final bytes into `out.buffers` (SHARED memory: workgroup 0's
/// copy, as the oracle reports it).
pub fn read_back(layout: &RecordLayout, memory: &Memory, out: &mut Outputs) {
    for (r, loc) in layout.resources.iter().enumerate() {
        let bytes = memory.region(resource_address(r, 0)).unwrap_or(&[]);
        out.buffers.insert(loc.key, bytes.to_vec());
    }
}

/// Per instruction index: whether the simulator must log its accesses ([`Machine::sites`]).
pub fn trace_mask(m: &Machine) -> Vec<bool> {
    let mut t = vec![false; m.words.len()];
    for &(i, _) in &m.sites {
        if let Some(x) = t.get_mut(i as usize) {
            *x = true;
        }
    }
    t
}

/// The resource location of byte address `a` updated at `width`, if it is inside a
/// resource window.
fn location(layout: &RecordLayout, a: u64, width: AtomicWidth) -> Option<Location> {
    let rel = a.checked_sub(RESOURCE_BASE)?;
    let loc = layout.resources.get((rel / RESOURCE_STRIDE) as usize)?;
    let instance = (rel % RESOURCE_STRIDE / INSTANCE_STRIDE) as u32;
    Some(Location {
        space: match instance {
            0 => Space::Resource(loc.key),
            w => Space::Workgroup(loc.key, w),
        },
        offset: rel % RESOURCE_STRIDE % INSTANCE_STRIDE,
        width,
    })
}

/// The atomic log of a run from the simulator's access log (`compile::memory` docs): each
/// marker starts the invocation's next atomic (`seq` = markers seen before, minus one);
/// a direct atomic is one record; a CAS-loop attempt is one when it found its compare
/// value (it then performed the operation) and nothing otherwise; the fault's plain read
/// is one record whose old value is what it read.
pub fn atomic_log(m: &Machine, events: &[MemEvent]) -> Vec<AtomicRecord> {
    let mut markers: HashMap<usize, u32> = HashMap::new();
    let mut log = Vec::new();
    for e in events {
        let Ok(k) = m.sites.binary_search_by_key(&(e.index as u32), |s| s.0) else {
            continue;
        };
        let width = match m.sites[k].1 {
            Site::Atomic64(_) => AtomicWidth::W64,
            _ => AtomicWidth::W32,
        };
        let (op, src, cmp) = match m.sites[k].1 {
            Site::Marker => {
                // One per executed marker: bounded by the run's step limit.
                let m = markers.entry(e.thread).or_insert(0);
                *m = m.saturating_add(1);
                continue;
            }
            Site::Atomic(op) | Site::Atomic64(op) => {
                let cmp = if op == AtomicOp::CmpXchg {
                    e.compare
                } else {
                    0
                };
                (op, e.value, cmp)
            }
            Site::CasLoop(op) if e.old == e.compare => (op, u64::from(e.sideband), 0),
            Site::CasLoop(_) => continue,
            Site::PlainRead(op) => (op, u64::from(e.sideband), 0),
        };
        let Some(location) = location(&m.layout, e.address, width) else {
            continue;
        };
        let seq = markers
            .get(&e.thread)
            .copied()
            .unwrap_or(1)
            .saturating_sub(1);
        log.push(AtomicRecord {
            location,
            invocation: e.thread as u32,
            seq,
            op,
            src: src & width.mask(),
            cmp: cmp & width.mask(),
            old: e.old & width.mask(),
        });
    }
    log
}
