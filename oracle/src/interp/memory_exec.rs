//! Execution of the memory instructions (LOAD, STORE, RESQ, ATOM*, BARRIER, MEMBAR) on the
//! memory state of `memory.rs`; the rules are the "Memory model" of the [`super`] docs.
//!
//! Sources: tgsi.rst "Resource Access Opcodes" (LOAD, STORE, RESQ), "Inter-thread
//! synchronization opcodes" (BARRIER, MEMBAR), "Atomic opcodes" (semantics in
//! [`crate::atomic`]); EXEC-NOTES.md §7 (byte address = `src.x` per lane, no alignment
//! requirement, LOAD reads dwords, atomics performed only when the writemask has `x`,
//! ATOMCAS compares with `src2` and stores `src3`, RESQ `x` = size in bytes).
//!
//! Byte addresses are 32-bit register values reckoned in 64 bits, plus at most 16 bytes,
//! and sizes are the inputs' buffer lengths: no sum here comes near `u64::MAX`, so the
//! `saturating_*` below never saturate. Byte ranges are taken with `get`, and a range
//! outside the resource (which the callers have excluded) reads as undefined.
// Addresses and sizes are user numbers: no arithmetic may wrap or panic unnoticed.
#![warn(clippy::arithmetic_side_effects)]

use super::decode::DInsn;
use super::fetch::channels;
use super::lanes::{Mask, LANES};
use super::memory::{Access, MemOp, MemRef, MemState};
use super::state::Machine;
use crate::atomic::{AtomicOp, AtomicRecord, AtomicSemantics, AtomicWidth, Location, Space};

/// Lanes set in `m`, lowest first.
fn lanes(mut m: Mask) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (m != 0).then(|| {
            let l = m.trailing_zeros() as usize;
            // Clears the lowest set bit (`m != 0`, so the subtraction does not wrap).
            m &= m.wrapping_sub(1);
            l
        })
    })
}

/// The bytes `off..off + len` of `v`, if they lie inside it.
fn range(off: u64, len: u64) -> Option<std::ops::Range<usize>> {
    let start = usize::try_from(off).ok()?;
    Some(start..start.checked_add(usize::try_from(len).ok()?)?)
}

/// The little-endian dword at byte `off` (0 outside `bytes`: callers check the range).
fn word(bytes: &[u8], off: u64) -> u32 {
    range(off, 4)
        .and_then(|r| bytes.get(r))
        .and_then(|w| <[u8; 4]>::try_from(w).ok())
        .map_or(0, u32::from_le_bytes)
}

/// Whether any of bytes `off..off + len` is undefined (or lies outside `und`).
fn any_undefined(und: &[bool], off: u64, len: u64) -> bool {
    range(off, len)
        .and_then(|r| und.get(r))
        .is_none_or(|b| b.contains(&true))
}

/// Byte address of dword `k` after `addr`.
fn dword_at(addr: u64, k: u64) -> u64 {
    addr.saturating_add(k.saturating_mul(4))
}

/// Word `c` (0: low, 1: high) of a 64-bit value, placed at its bits.
fn place(v: u32, c: usize) -> u64 {
    u64::from(v)
        .checked_shl(32u32.saturating_mul(c as u32))
        .unwrap_or(0)
}

/// Word `c` (0: low, 1: high) of a 64-bit value.
fn half(v: u64, c: usize) -> u32 {
    v.checked_shr(32u32.saturating_mul(c as u32)).unwrap_or(0) as u32
}

/// The invocation in lane `l` of the chunk starting at invocation `base` (below the run's
/// invocation count, at most 2^24).
fn invocation(base: usize, l: usize) -> u32 {
    base.saturating_add(l) as u32
}

impl Machine<'_> {
    /// Executes memory instruction `insn` for the executing lanes.
    pub(crate) fn memory(&mut self, insn: &DInsn, op: MemOp) {
        match op {
            MemOp::Load => self.mem_load(insn),
            MemOp::Store => self.mem_store(insn),
            MemOp::Resq => self.mem_resq(insn),
            MemOp::Atomic(a) => self.mem_atomic(insn, a),
            MemOp::Barrier => self.mem_barrier(),
            // MEMBAR: every access completes before the next instruction in this model.
            MemOp::Membar => {}
        }
    }

    /// Fetches the sources and returns, per source channel, the lanes whose value is not
    /// exactly known (undefined, or an inexact interval under `run_with_intervals`).
    pub(crate) fn mem_sources(&mut self, insn: &DInsn) -> [[Mask; 4]; 4] {
        self.fetch_sources(insn);
        let mut bad = self.s.src_und;
        if self.iv.is_some() {
            for (k, src) in insn.srcs.iter().enumerate() {
                self.iv_fetch(src, insn.fetch_mask[k], k);
            }
            if let Some(st) = self.iv.as_deref() {
                for (b, i) in bad.iter_mut().zip(&st.inexact) {
                    for c in 0..4 {
                        b[c] |= i[c];
                    }
                }
            }
        }
        bad
    }

    /// Fetches the sources ([`Machine::mem_sources`]), zeroes the result and returns the
    /// not exactly known source lanes and the resource operand.
    fn mem_begin(&mut self, insn: &DInsn) -> ([[Mask; 4]; 4], MemRef) {
        let bad = self.mem_sources(insn);
        for c in 0..4 {
            self.s.out[c] = [0; LANES];
        }
        (bad, insn.mem.expect("decoded memory operand"))
    }

    /// Stores `self.s.out` (exact values; undefined where `und`) to the destination.
    pub(crate) fn mem_result(&mut self, insn: &DInsn, und: [Mask; 4]) {
        if let Some(st) = self.iv.as_deref_mut() {
            for c in 0..4 {
                st.out.lo[c] = self.s.out[c];
                st.out.hi[c] = self.s.out[c];
                let mut nan: Mask = 0;
                for (l, &v) in self.s.out[c].iter().enumerate() {
                    nan |= (f32::from_bits(v).is_nan() as Mask) << l;
                }
                st.out.nan[c] = nan;
            }
        }
        self.store_result(insn, und);
    }

    fn mem_state(&mut self) -> &mut MemState {
        self.mem
            .as_deref_mut()
            .expect("memory state exists for programs with memory instructions")
    }

    /// LOAD dst, resource, address: channel `c` of the writemask is the dword at byte
    /// `address.x + 4 * swizzle[c]`. Undefined (and 0) when the address is not known, any
    /// dword read is not entirely inside the resource (tgsi.rst: unspecified), a byte read
    /// is undefined, or the dword is racy.
    fn mem_load(&mut self, insn: &DInsn) {
        let (bad, mref) = self.mem_begin(insn);
        let (exec, base) = (self.exec, self.base);
        let wm = insn.writemask;
        let mut und = [0 as Mask; 4];
        let max_dw = channels(wm)
            .map(|c| mref.swizzle[c] as u64)
            .max()
            .unwrap_or(0);
        let mem = self.mem.as_deref_mut().expect("memory state");
        let size = mem.size(mref.res);
        for l in lanes(exec) {
            let inv = invocation(base, l);
            let addr = self.s.srcs[0][0][l] as u64;
            if bad[0][0] >> l & 1 != 0 || dword_at(addr, max_dw.saturating_add(1)) > size {
                for c in channels(wm) {
                    und[c] |= 1 << l;
                }
                continue;
            }
            let key = (mref.res, mem.instance_of(mref.res, inv));
            let phase = mem.phase[l];
            for c in channels(wm) {
                let off = dword_at(addr, u64::from(mref.swizzle[c]));
                let end = off.saturating_add(4);
                mem.note(key, off, end, inv, phase, Access::Read);
                mem.settle(key, off, end);
                let racy = mem.racy(key, off, end) || mem.order_dependent(key, off);
                let i = mem.instance(key.0, key.1);
                self.s.out[c][l] = word(&i.bytes, off);
                if racy || any_undefined(&i.und, off, 4) {
                    und[c] |= 1 << l;
                }
            }
        }
        self.mem_result(insn, und);
    }

    /// STORE resource, address, src: the writemask's channels `c` of `src` go to the
    /// dwords at byte `address.x + 4c`. A store not entirely inside the resource writes
    /// nothing, and the in-range bytes it covers become undefined (tgsi.rst: unspecified;
    /// engines may drop it or write the part that fits). An undefined address makes memory
    /// chaotic; an undefined value makes its bytes undefined.
    fn mem_store(&mut self, insn: &DInsn) {
        let bad = self.mem_sources(insn);
        let mref = insn.mem.expect("decoded memory operand");
        let (exec, base) = (self.exec, self.base);
        let wm = insn.writemask;
        let Some(max_c) = channels(wm).max() else {
            return;
        };
        let mem = self.mem.as_deref_mut().expect("memory state");
        let size = mem.size(mref.res);
        for l in lanes(exec) {
            let inv = invocation(base, l);
            if bad[0][0] >> l & 1 != 0 {
                mem.found.chaos = true;
                continue;
            }
            let addr = self.s.srcs[0][0][l] as u64;
            let key = (mref.res, mem.instance_of(mref.res, inv));
            let phase = mem.phase[l];
            let fits = dword_at(addr, (max_c as u64).saturating_add(1)) <= size;
            for c in channels(wm) {
                let off = dword_at(addr, c as u64);
                let end = off.saturating_add(4).min(size);
                mem.note(key, off, end, inv, phase, Access::Write);
                mem.settle(key, off, end);
                let i = mem.instance(key.0, key.1);
                if !fits {
                    for b in off..end {
                        i.und[b as usize] = true;
                    }
                    continue;
                }
                let Some(r) = range(off, 4) else {
                    continue;
                };
                if let Some(b) = i.bytes.get_mut(r.clone()) {
                    b.copy_from_slice(&self.s.srcs[1][c][l].to_le_bytes());
                }
                if let Some(u) = i.und.get_mut(r) {
                    u.fill(bad[1][c] >> l & 1 != 0);
                }
            }
        }
    }

    /// RESQ dst, resource: `x` = the resource's size in bytes (tgsi.rst); `y`, `z`, `w`
    /// undefined (the doc defines only `x` for buffers).
    fn mem_resq(&mut self, insn: &DInsn) {
        let mref = insn.mem.expect("decoded memory operand");
        let size = self.mem_state().size(mref.res).min(u32::MAX as u64) as u32;
        self.s.out[0] = [size; LANES];
        for c in 1..4 {
            self.s.out[c] = [0; LANES];
        }
        self.mem_result(insn, [0, !0, !0, !0]);
    }

    /// An atomic (tgsi.rst "Atomic opcodes", semantics in [`AtomicOp`]): performed only
    /// when the writemask has `x` (EXEC-NOTES §7); the returned value goes to `x`, other
    /// writemask channels are undefined. Out-of-range: nothing performed, `x` undefined,
    /// the in-range bytes of the location undefined. Undefined offset or operand: memory
    /// becomes chaotic. Every performed atomic is logged; in replay mode it returns the
    /// replayed old value and stores the operation applied to it. A 64-bit atomic
    /// (`shaderdiff_model::atomic64`) reads its operands from the channel pairs `xy`, updates
    /// 8 bytes and returns the old value in `x` (low word) and `y`; `z`, `w` undefined.
    fn mem_atomic(&mut self, insn: &DInsn, op: AtomicOp) {
        let (bad, mref) = self.mem_begin(insn);
        let (exec, base) = (self.exec, self.base);
        let wm = insn.writemask;
        let mut und = [0 as Mask; 4];
        let (ks, kc) = if op == AtomicOp::CmpXchg {
            (2, Some(1))
        } else {
            (1, None)
        };
        // A 64-bit location (`shaderdiff_model::atomic64`): operands and result are the
        // channel pairs xy (low word first); `z`, `w` undefined.
        let width = mref.width;
        let bytes = width.bytes() as u64;
        let words = bytes as usize / 4;
        let mem = self.mem.as_deref_mut().expect("memory state");
        let size = mem.size(mref.res);
        for l in lanes(exec) {
            let inv = invocation(base, l);
            let seq = mem.seq[l];
            // One per atomic a lane executes: bounded by the step limit.
            mem.seq[l] = seq.saturating_add(1);
            if wm & 1 == 0 {
                continue;
            }
            for u in &mut und[words..] {
                *u |= 1 << l;
            }
            let operand_bad = (0..words).fold(bad[0][0], |acc, c| {
                acc | bad[ks][c] | kc.map_or(0, |k| bad[k][c])
            });
            if operand_bad >> l & 1 != 0 {
                mem.found.chaos = true;
                for u in &mut und[..words] {
                    *u |= 1 << l;
                }
                continue;
            }
            let off = self.s.srcs[0][0][l] as u64;
            let key = (mref.res, mem.instance_of(mref.res, inv));
            let phase = mem.phase[l];
            let aligned = off.checked_rem(bytes) == Some(0);
            let access = if aligned {
                Access::Atomic
            } else {
                Access::Write
            };
            let end = off.saturating_add(bytes);
            mem.note(key, off, end.min(size), inv, phase, access);
            if end > size {
                let i = mem.instance(key.0, key.1);
                for b in off..size {
                    i.und[b as usize] = true;
                }
                for u in &mut und[..words] {
                    *u |= 1 << l;
                }
                continue;
            }
            let pair =
                |k: usize| (0..words).fold(0u64, |acc, c| acc | place(self.s.srcs[k][c][l], c));
            let src = pair(ks);
            let cmp = kc.map_or(0, pair);
            let racy = mem.racy(key, off, end)
                || (0..bytes / 4).any(|w| mem.order_dependent(key, dword_at(off, w)));
            let replayed = mem
                .replay
                .as_ref()
                .and_then(|r| r.get(&(inv, seq)).copied());
            if replayed.is_none() || !aligned {
                mem.settle(key, off, end);
            }
            let i = mem.instance(key.0, key.1);
            let current = (0..words).fold(0u64, |acc, c| {
                acc | place(word(&i.bytes, dword_at(off, c as u64)), c)
            });
            let old = replayed.unwrap_or(current);
            let new = op.apply(width, old, src, cmp);
            let new_bytes = new.to_le_bytes();
            let location = range(off, bytes);
            if let Some((dst, src)) = location
                .clone()
                .and_then(|r| i.bytes.get_mut(r))
                .zip(new_bytes.get(..words.saturating_mul(4)))
            {
                dst.copy_from_slice(src);
            }
            let nan = match width {
                AtomicWidth::W32 => f32::from_bits(new as u32).is_nan(),
                AtomicWidth::W64 => f64::from_bits(new).is_nan(),
            };
            if op == AtomicOp::FAdd && nan {
                // ATOMFADD is an IEEE addition whose NaN bits tgsi.rst does not fix (x86
                // propagates an operand's payload, Valhall makes 0x7fc00000): from here on
                // the dword's bytes are not known (loads of it are undefined), while the
                // atomic comparator judges the log with every NaN one value.
                if let Some(u) = location.and_then(|r| i.und.get_mut(r)) {
                    u.fill(true);
                }
            }
            let und_bytes = any_undefined(&i.und, off, bytes);
            if racy || und_bytes {
                for u in &mut und[..words] {
                    *u |= 1 << l;
                }
            }
            if replayed.is_some() && aligned {
                // Each dword of the location balances its halves of the edges: the
                // projection of the engine's serial order onto a dword is a trail too.
                for c in 0..words {
                    let dw = (key.0, key.1, (off / 4).saturating_add(c as u64));
                    mem.note_replayed(dw, half(current, c), half(old, c), half(new, c));
                }
            }
            let ret = op.returned(width, old);
            for c in channels(wm) {
                self.s.out[c][l] = if c < words { half(ret, c) } else { ret as u32 };
            }
            let res_key = mem.decls[mref.res as usize].key;
            mem.log.push(AtomicRecord {
                location: Location {
                    space: match key.1 {
                        0 => Space::Resource(res_key),
                        w => Space::Workgroup(res_key, w),
                    },
                    offset: off,
                    width,
                },
                invocation: inv,
                seq,
                op,
                src,
                cmp,
                old,
            });
        }
        self.mem_result(insn, und);
    }

    /// BARRIER (tgsi.rst): satisfied when every invocation of the workgroup executes it
    /// together; a workgroup only partly here is unconstrained and makes memory chaotic
    /// ("results are unspecified"). Decoding guarantees workgroups never straddle chunks.
    ///
    /// A program without memory (a COMP program may synchronise and share nothing) has no
    /// state a barrier orders: it has no effect there.
    fn mem_barrier(&mut self) {
        let exec = self.exec;
        let Some(mem) = self.mem.as_deref_mut() else {
            return;
        };
        let wg = mem.wg_size as usize;
        let live = mem.live;
        let mut partial: Mask = 0;
        for k in 0..LANES.div_ceil(wg) {
            // Lanes `k * wg .. (k + 1) * wg`: `wg < LANES` here, so the shifts are in range
            // and `1 << wg` is at least 2.
            let block = if wg >= LANES {
                !0
            } else {
                let ones = 1u64
                    .checked_shl(wg as u32)
                    .map_or(!0, |b| b.wrapping_sub(1));
                ones.checked_shl(k.saturating_mul(wg) as u32).unwrap_or(0)
            } & live;
            let here = exec & block;
            if here != 0 && here != block {
                partial |= here;
            }
        }
        if partial != 0 {
            mem.found.chaos = true;
        }
        for l in lanes(exec) {
            // One per BARRIER a lane executes: bounded by the step limit.
            mem.phase[l] = mem.phase[l].saturating_add(1);
        }
        self.unconstrained |= partial;
    }
}
