//! The memory model of the interpreter: TGSI `BUFFER[n]` and `MEMORY[n]` (GLOBAL and SHARED)
//! resources, their contents during a run, workgroups, the atomic log and data-race
//! detection. The instructions themselves (LOAD, STORE, RESQ, ATOM*, BARRIER, MEMBAR) are
//! executed in `memory_exec.rs`; the model is documented in the [`super`] module docs
//! ("Memory model").
//!
//! Sources: tgsi.rst "Resource Access Opcodes", "Inter-thread synchronization opcodes",
//! "Atomic opcodes"; TEXT-FORMAT.md §6.4 (`DCL BUFFER[n]`, `DCL MEMORY[n], SHARED`);
//! EXEC-NOTES.md §7 (what Mesa does where the doc is silent).
// Sizes, offsets and counts here come from user input (declarations, inputs files): no
// arithmetic may wrap or panic unnoticed.
#![warn(clippy::arithmetic_side_effects)]

use std::collections::{HashMap, HashSet};

use crate::atomic::AtomicRecord;
use crate::io::{Inputs, Outputs};
pub use shaderdiff_model::check::memory::*;

/// Old values an atomic must return, by `(invocation, seq)` (`seq` = the dynamic count of
/// ATOM* instructions the invocation executed before it): the engine's own serial order,
/// replayed on the oracle ([`super::run_with`]).
pub type AtomicReplay = HashMap<(u32, u32), u64>;

/// Which serial order of the atomics the oracle's results follow ([`super::run_with`]).
#[derive(Clone, Copy, Debug, Default)]
pub enum AtomicOrder<'a> {
    /// The interpreter's own: lanes in order within a chunk, chunks in order.
    #[default]
    Own,
    /// An engine's: each atomic returns the old value the map gives for its
    /// `(invocation, seq)` (atomics missing from the map use memory), and stores its
    /// operation applied to that value. The final memory at atomic locations is then that
    /// of the last atomic the interpreter executed, not the engine's serial order's:
    /// comparators judge those bytes by the log ([`crate::compare::memory`]).
    Replay(&'a AtomicReplay),
    /// Any: the result of an atomic on a dword that more than one invocation updates
    /// atomically is undefined (it depends on the order). For judging engines that report
    /// no atomic log.
    Any,
}

/// The replay map of an engine's atomic log: `(invocation, seq) -> old`.
pub fn replay_of(log: &[AtomicRecord]) -> AtomicReplay {
    log.iter().map(|r| ((r.invocation, r.seq), r.old)).collect()
}

/// Who accessed a dword within one group of accesses: nobody, one invocation, several.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum Who {
    #[default]
    None,
    One(u32),
    Many,
}

impl Who {
    fn add(&mut self, id: u32) {
        *self = match *self {
            Who::None => Who::One(id),
            Who::One(x) if x == id => Who::One(x),
            _ => Who::Many,
        };
    }

    /// Two different ids among `self` and `other`.
    fn conflicts(self, other: Who) -> bool {
        match (self, other) {
            (Who::None, _) | (_, Who::None) => false,
            (Who::One(a), Who::One(b)) => a != b,
            _ => true,
        }
    }
}

/// How an access touches memory, for race detection.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Access {
    Read,
    Write,
    Atomic,
}

/// The dwords (byte offset / 4) that bytes `start..end` touch; empty when `end <= start`.
fn dwords(start: u64, end: u64) -> impl Iterator<Item = u64> {
    // `end > start >= 0` where the range is used, so `end - 1` does not saturate.
    (end > start)
        .then(|| start / 4..=end.saturating_sub(1) / 4)
        .into_iter()
        .flatten()
}

/// Accesses to one dword: per (workgroup, barrier phase), who read, wrote, updated
/// atomically.
#[derive(Clone, Debug, Default)]
struct DwordLog {
    groups: Vec<(u32, u32, [Who; 3])>,
}

impl DwordLog {
    fn note(&mut self, wg: u32, phase: u32, inv: u32, a: Access) {
        let g = match self
            .groups
            .iter_mut()
            .position(|(w, p, _)| *w == wg && *p == phase)
        {
            Some(i) => i,
            None => {
                self.groups.push((wg, phase, [Who::None; 3]));
                self.groups.len().saturating_sub(1)
            }
        };
        self.groups[g].2[a as usize].add(inv);
    }

    /// Whether two invocations access the dword unordered with a plain write involved, or
    /// one plainly reads what another updates atomically. Accesses of one workgroup in
    /// different barrier phases are ordered; accesses of different workgroups never are.
    fn racy(&self) -> bool {
        let pair = |w: [Who; 3]| {
            let [r, wr, a] = w;
            wr.conflicts(wr) || wr.conflicts(r) || wr.conflicts(a) || a.conflicts(r)
        };
        if self.groups.iter().any(|g| pair(g.2)) {
            return true;
        }
        // Across workgroups: the same rule on workgroup ids.
        let mut by_wg = [Who::None; 3];
        for (wg, _, w) in &self.groups {
            for k in 0..3 {
                if w[k] != Who::None {
                    by_wg[k].add(*wg);
                }
            }
        }
        pair(by_wg)
    }

    /// More than one invocation updated the dword atomically.
    fn contended(&self) -> bool {
        let mut a = Who::None;
        for g in &self.groups {
            match g.2[Access::Atomic as usize] {
                Who::None => {}
                Who::One(x) => a.add(x),
                Who::Many => a = Who::Many,
            }
        }
        a == Who::Many
    }

    fn written(&self) -> bool {
        self.groups
            .iter()
            .any(|g| g.2[Access::Write as usize] != Who::None)
    }
}

/// One copy of a resource: bytes and per-byte undefined marks.
#[derive(Clone, Debug, Default)]
pub(crate) struct Instance {
    pub bytes: Vec<u8>,
    pub und: Vec<bool>,
}

/// A dword of a resource instance: (resource, instance = workgroup for SHARED else 0, dword).
pub(crate) type DwordKey = (u32, u32, u64);

/// What one pass over the invocations learnt that changes how values must be judged.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Hazards {
    /// Dwords with a data race.
    pub racy: HashSet<DwordKey>,
    /// Memory is unpredictable altogether (a memory write at an undefined address, an
    /// unconstrained invocation in a program that writes memory, a partial BARRIER).
    pub chaos: bool,
    /// Dwords updated atomically by more than one invocation.
    pub contended: HashSet<DwordKey>,
}

impl Hazards {
    /// Whether `self` holds something `known` does not.
    pub fn grows(&self, known: &Hazards) -> bool {
        self.chaos && !known.chaos
            || !self.racy.is_subset(&known.racy)
            || !self.contended.is_subset(&known.contended)
    }

    /// Adds `other`'s hazards.
    pub fn extend(&mut self, other: Hazards) {
        self.chaos |= other.chaos;
        self.racy.extend(other.racy);
        self.contended.extend(other.contended);
    }
}

/// Memory state of a run (kept across chunks).
pub(crate) struct MemState {
    pub decls: Vec<ResourceDecl>,
    /// Initial contents per resource (from the inputs; empty when absent).
    pub initial: Vec<Vec<u8>>,
    /// Live copies: `(resource, instance)`.
    pub inst: HashMap<(u32, u32), Instance>,
    pub log: Vec<AtomicRecord>,
    pub wg_size: u32,
    /// Hazards known from an earlier pass (they decide undefinedness in this one).
    pub known: Hazards,
    /// Hazards found in this pass.
    pub found: Hazards,
    accesses: HashMap<DwordKey, DwordLog>,
    /// The replay map ([`AtomicOrder::Replay`]).
    pub replay: Option<AtomicReplay>,
    /// [`AtomicOrder::Any`]: contended atomics return undefined values.
    pub any_order: bool,
    /// Per lane of the current chunk: BARRIERs executed, ATOM* instructions executed.
    pub phase: Vec<u32>,
    pub seq: Vec<u32>,
    /// Lanes of the current chunk that hold an invocation.
    pub live: super::lanes::Mask,
    /// The program has a STORE or an atomic.
    pub writes: bool,
    /// Replay mode: per dword updated by replayed atomics since it was last settled, its
    /// value before them and the balance (edges in − out) of each value ([`MemState::settle`]).
    pending: HashMap<DwordKey, (u32, HashMap<u32, i32>)>,
}

impl MemState {
    pub fn new(
        decls: Vec<ResourceDecl>,
        inputs: &Inputs,
        wg_size: u32,
        writes: bool,
        known: Hazards,
        order: AtomicOrder<'_>,
    ) -> MemState {
        let initial = decls
            .iter()
            .map(|d| inputs.buffers.get(&d.key).cloned().unwrap_or_default())
            .collect();
        MemState {
            decls,
            initial,
            inst: HashMap::new(),
            log: Vec::new(),
            wg_size,
            known,
            found: Hazards::default(),
            accesses: HashMap::new(),
            replay: match order {
                AtomicOrder::Replay(r) => Some(r.clone()),
                _ => None,
            },
            any_order: matches!(order, AtomicOrder::Any),
            phase: vec![0; super::lanes::LANES],
            seq: vec![0; super::lanes::LANES],
            live: 0,
            writes,
            pending: HashMap::new(),
        }
    }

    /// Replay mode: notes that a replayed atomic took the aligned dword `key` from `old` to
    /// `new`, `current` being what memory held before it.
    pub fn note_replayed(&mut self, key: DwordKey, current: u32, old: u32, new: u32) {
        let (_, balance) = self
            .pending
            .entry(key)
            .or_insert_with(|| (current, HashMap::new()));
        // One step per replayed atomic: far below `i32::MAX` of them in one run.
        let b = balance.entry(old).or_default();
        *b = b.saturating_sub(1);
        let b = balance.entry(new).or_default();
        *b = b.saturating_add(1);
    }

    /// Replay mode: gives the dwords of bytes `start..end` of `(res, instance)` that
    /// replayed atomics updated the value the engine's serial order leaves there. Replayed
    /// atomics store their operation applied to the engine's old value, so memory holds the
    /// result of whichever the interpreter ran last; the engine's order ends instead at the
    /// one value more atomics left than found (the end of the Eulerian trail, see
    /// [`crate::compare::atomic`]), or at the value before them when there is none. Plain
    /// accesses and the final report call this, so a LOAD after a BARRIER reads what the
    /// engine's atomics left.
    pub fn settle(&mut self, key: (u32, u32), start: u64, end: u64) {
        if self.pending.is_empty() || end <= start {
            return;
        }
        for dw in dwords(start, end) {
            let Some((initial, balance)) = self.pending.remove(&(key.0, key.1, dw)) else {
                continue;
            };
            let mut ends: Vec<u32> = balance
                .iter()
                .filter(|&(_, &b)| b == 1)
                .map(|(&v, _)| v)
                .collect();
            ends.sort_unstable();
            let v = ends.first().copied().unwrap_or(initial);
            let i = self.instance(key.0, key.1);
            let o = usize::try_from(dw).ok().and_then(|d| d.checked_mul(4));
            let bytes = o.and_then(|o| Some(o..o.checked_add(4)?));
            if let Some(b) = bytes.and_then(|r| i.bytes.get_mut(r)) {
                b.copy_from_slice(&v.to_le_bytes());
            }
        }
    }

    /// [`MemState::settle`] for every dword.
    fn settle_all(&mut self) {
        let keys: Vec<DwordKey> = self.pending.keys().copied().collect();
        for (r, i, dw) in keys {
            let start = dw.saturating_mul(4);
            self.settle((r, i), start, start.saturating_add(4));
        }
    }

    /// Prepares the per-lane counters for a chunk of `n` invocations.
    pub fn start_chunk(&mut self, n: usize) {
        self.phase.fill(0);
        self.seq.fill(0);
        self.live = super::state::lane_mask(n);
    }

    /// Size in bytes of resource `res` (the inputs' contents).
    pub fn size(&self, res: u32) -> u64 {
        self.initial[res as usize].len() as u64
    }

    /// The workgroup of invocation `inv` (`wg_size` is at least 1:
    /// `shaderdiff_model::check::memory::workgroup_size`).
    fn workgroup(&self, inv: u32) -> u32 {
        inv.checked_div(self.wg_size).unwrap_or(0)
    }

    /// The instance of `res` that invocation `inv` sees.
    pub fn instance_of(&self, res: u32, inv: u32) -> u32 {
        if self.decls[res as usize].shared {
            self.workgroup(inv)
        } else {
            0
        }
    }

    /// The live copy `(res, instance)`, created from the initial contents.
    pub fn instance(&mut self, res: u32, instance: u32) -> &mut Instance {
        let init = &self.initial[res as usize];
        self.inst
            .entry((res, instance))
            .or_insert_with(|| Instance {
                bytes: init.clone(),
                und: vec![false; init.len()],
            })
    }

    /// Records an access of invocation `inv` (barrier phase `phase`) to bytes
    /// `start..end` (in range) of `(res, instance)`.
    pub fn note(&mut self, key: (u32, u32), start: u64, end: u64, inv: u32, phase: u32, a: Access) {
        if end <= start {
            return;
        }
        let wg = self.workgroup(inv);
        for dw in dwords(start, end) {
            self.accesses
                .entry((key.0, key.1, dw))
                .or_default()
                .note(wg, phase, inv, a);
        }
    }

    /// Whether an atomic's result at byte `off` of `(res, instance)` is undefined because
    /// the order of the atomics is left open ([`AtomicOrder::Any`]) and the dword is
    /// contended (known from an earlier pass).
    pub fn order_dependent(&self, key: (u32, u32), off: u64) -> bool {
        self.any_order && self.known.contended.contains(&(key.0, key.1, off / 4))
    }

    /// Whether any dword of bytes `start..end` of `(res, instance)` is racy (known from an
    /// earlier pass) or memory is chaotic.
    pub fn racy(&self, key: (u32, u32), start: u64, end: u64) -> bool {
        if self.known.chaos {
            return true;
        }
        end > start && dwords(start, end).any(|dw| self.known.racy.contains(&(key.0, key.1, dw)))
    }

    /// Ends the pass: the racy dwords found; their final bytes are undefined when a plain
    /// write took part.
    pub fn finish(&mut self) {
        let mut racy_written = Vec::new();
        for (k, log) in &self.accesses {
            // Only `AtomicOrder::Any` needs them (a second pass otherwise wasted).
            if self.any_order && log.contended() {
                self.found.contended.insert(*k);
            }
            if log.racy() {
                self.found.racy.insert(*k);
                if log.written() {
                    racy_written.push(*k);
                }
            }
        }
        for (res, inst, dw) in racy_written {
            if let Some(i) = self.inst.get_mut(&(res, inst)) {
                let start = dw.saturating_mul(4);
                let end = start.saturating_add(4).min(i.und.len() as u64);
                for b in start..end {
                    i.und[b as usize] = true;
                }
            }
        }
    }

    /// Writes the final memory into `out`: `buffers` (SHARED: workgroup 0's copy; a
    /// resource nobody touched keeps its initial contents; a resource neither given in the
    /// inputs nor touched is absent), `buffers_undefined` and `atomics`.
    pub fn report(mut self, out: &mut Outputs) {
        self.settle_all();
        let chaos = self.known.chaos || self.found.chaos;
        let MemState {
            decls,
            initial,
            mut inst,
            log,
            ..
        } = self;
        for (r, (d, init)) in decls.iter().zip(initial).enumerate() {
            let given = out.buffers.contains_key(&d.key);
            if !given && !inst.contains_key(&(r as u32, 0)) {
                continue;
            }
            let i = inst.remove(&(r as u32, 0)).unwrap_or_else(|| Instance {
                und: vec![false; init.len()],
                bytes: init,
            });
            let mut und = i.und;
            if chaos {
                und.iter_mut().for_each(|u| *u = true);
            }
            if und.iter().any(|&u| u) {
                out.buffers_undefined.insert(d.key, und);
            }
            out.buffers.insert(d.key, i.bytes);
        }
        out.atomics = Some(log);
    }
}
