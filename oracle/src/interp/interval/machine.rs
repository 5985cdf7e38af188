//! Interval state of the interpreter's machine: interval storage next to the register
//! storage, interval fetch and store mirroring the plain ones (fetch.rs), decisions that
//! make lanes unconstrained, and output collection.

use super::eval::{eval_alu, inexact_lanes, Srcs};
use super::iv::Iv;
use super::ops::{self, compare, Cmp, Env};
use super::IvVals;
use crate::interp::decode::{AddrRef, DInsn, Loc, SrcOp};
use crate::interp::fetch::{channels, NO_SLOT};
use crate::interp::lanes::{FetchType, Mask, LANES};
use crate::interp::layout::Storage;
use crate::interp::state::Machine;
use crate::io::{Interval, Intervals, Outputs};
use shaderdiff_ir::Saturate;

/// Interval storage and scratch buffers of one machine.
pub(crate) struct IvState<'c> {
    pub env: Env<'c>,
    /// Per lane slot.
    pub regs: Vec<IvVals>,
    /// Fetched sources.
    pub srcs: Vec<IvVals>,
    /// Inexact lanes per fetched source channel.
    pub inexact: [[Mask; 4]; 4],
    /// Result of the current instruction.
    pub out: Box<IvVals>,
}

impl<'c> IvState<'c> {
    pub fn new(env: Env<'c>, slots: usize) -> IvState<'c> {
        IvState {
            env,
            regs: vec![IvVals::zero(); slots],
            srcs: vec![IvVals::zero(); 4],
            inexact: [[0; 4]; 4],
            out: Box::new(IvVals::zero()),
        }
    }
}

/// Sets lane `l` of channel `c` of `p` to the exact value `v`.
fn set_point(p: &mut IvVals, c: usize, l: usize, v: u32) {
    p.lo[c][l] = v;
    p.hi[c][l] = v;
    let bit = 1u64 << l;
    p.nan[c] = (p.nan[c] & !bit) | if f32::from_bits(v).is_nan() { bit } else { 0 };
}

pub(super) fn set_iv(p: &mut IvVals, c: usize, l: usize, lo: u32, hi: u32, nan: bool) {
    p.lo[c][l] = lo;
    p.hi[c][l] = hi;
    let bit = 1u64 << l;
    p.nan[c] = (p.nan[c] & !bit) | if nan { bit } else { 0 };
}

pub(super) fn get(p: &IvVals, c: usize, l: usize) -> Iv {
    Iv::from_bits(p.lo[c][l], p.hi[c][l], p.nan[c] >> l & 1 != 0)
}

impl Machine<'_> {
    /// After `reset`: every lane slot exactly holds its value.
    pub(crate) fn iv_reset(&mut self) {
        let Some(st) = self.iv.as_deref_mut() else {
            return;
        };
        for (iv, vals) in st.regs.iter_mut().zip(&self.regs.vals) {
            for (c, plane) in vals.iter().enumerate() {
                iv.lo[c] = *plane;
                iv.hi[c] = *plane;
                let mut m: Mask = 0;
                for (l, &v) in plane.iter().enumerate() {
                    m |= (f32::from_bits(v).is_nan() as Mask) << l;
                }
                iv.nan[c] = m;
            }
        }
    }

    /// Lanes whose address register `a` is not exactly known.
    fn addr_inexact(&self, a: Option<AddrRef>) -> Mask {
        match (a, self.iv.as_deref()) {
            (
                Some(AddrRef {
                    loc: Loc::Lane(s),
                    comp,
                }),
                Some(st),
            ) => inexact_lanes(
                &st.regs[s as usize],
                &self.regs.vals[s as usize],
                comp as usize,
            ),
            _ => 0,
        }
    }

    /// Fetches the interval planes of `src` (channels `chans`) into scratch source `k`,
    /// mirroring `Regs::fetch`, and computes the inexact lanes against the plain fetched
    /// values in `self.s.srcs[k]`. Executing lanes with an inexact address become
    /// unconstrained.
    pub(crate) fn iv_fetch(&mut self, src: &SrcOp, chans: u8, k: usize) {
        let d = self.d;
        let exec = self.exec;
        let mut addr_inexact = 0;
        let Some(st) = self.iv.as_deref_mut() else {
            return;
        };
        let dst = &mut st.srcs[k];
        let any = Interval::ANY;
        match src.loc {
            Loc::Lane(s) => {
                let r = &st.regs[s as usize];
                for c in channels(chans) {
                    let comp = src.swizzle[c] as usize;
                    dst.lo[c] = r.lo[comp];
                    dst.hi[c] = r.hi[comp];
                    dst.nan[c] = r.nan[comp];
                    dst.half[c] = r.half[comp];
                }
            }
            Loc::Uniform(s) => {
                for c in channels(chans) {
                    let v = self.uniform[s as usize][src.swizzle[c] as usize];
                    dst.lo[c] = [v; LANES];
                    dst.hi[c] = [v; LANES];
                    dst.nan[c] = if f32::from_bits(v).is_nan() { !0 } else { 0 };
                    dst.half[c] = 0;
                }
            }
            Loc::Indirect(i) => {
                let ind = &d.indirects[i as usize];
                let mut slots = [0u32; LANES];
                self.regs.resolve(d, &self.uniform, ind, &mut slots);
                let lane_storage = ind
                    .space
                    .is_some_and(|s| d.layout.spaces[s].storage == Storage::Lane);
                for c in channels(chans) {
                    let comp = src.swizzle[c] as usize;
                    dst.half[c] = 0;
                    for (l, &slot) in slots.iter().enumerate() {
                        if slot != NO_SLOT && lane_storage {
                            dst.half[c] |= st.regs[slot as usize].half[comp] & 1 << l;
                        }
                        if slot == NO_SLOT {
                            set_iv(dst, c, l, any.lo, any.hi, true);
                        } else if lane_storage {
                            let r = &st.regs[slot as usize];
                            let nan = r.nan[comp] >> l & 1 != 0;
                            set_iv(dst, c, l, r.lo[comp][l], r.hi[comp][l], nan);
                        } else {
                            set_point(dst, c, l, self.uniform[slot as usize][comp]);
                        }
                    }
                }
                addr_inexact = 1; // computed below, after the borrow of `st` ends
            }
            Loc::Null => {
                for c in channels(chans) {
                    dst.half[c] = 0;
                    for l in 0..LANES {
                        set_iv(dst, c, l, any.lo, any.hi, true);
                    }
                }
            }
        }
        if src.abs || src.neg {
            for c in channels(chans) {
                for l in 0..LANES {
                    modify(dst, c, l, src);
                }
            }
        }
        let vals = &self.s.srcs[k];
        for c in 0..4 {
            st.inexact[k][c] = if chans >> c & 1 != 0 {
                inexact_lanes(&st.srcs[k], vals, c)
            } else {
                0
            };
        }
        if addr_inexact != 0 {
            if let Loc::Indirect(i) = src.loc {
                let ind = &d.indirects[i as usize];
                let m = self.addr_inexact(ind.dim_addr) | self.addr_inexact(ind.index_addr);
                self.iv_unconstrain(m & exec);
            }
        }
    }

    /// Makes `lanes` unconstrained (an undetermined decision).
    pub(crate) fn iv_unconstrain(&mut self, lanes: Mask) {
        self.unconstrained |= lanes;
    }

    /// Interval evaluation of ALU instruction `insn` after the plain evaluation: fetches the
    /// sources' intervals, evaluates, and adds the undetermined lanes to `und`.
    pub(crate) fn iv_alu(&mut self, insn: &DInsn, und: &mut [Mask; 4]) {
        if self.iv.is_none() {
            return;
        }
        for (k, src) in insn.srcs.iter().enumerate() {
            self.iv_fetch(src, insn.fetch_mask[k], k);
        }
        let exec = self.exec;
        let nsrc = insn.srcs.len();
        let Some(st) = self.iv.as_deref_mut() else {
            return;
        };
        let s = Srcs {
            iv: &st.srcs[..nsrc],
            val: &self.s.srcs[..nsrc],
            inexact: &st.inexact[..nsrc],
        };
        let mut undet = [0 as Mask; 4];
        st.out.half = [0; 4];
        eval_alu(
            &st.env,
            insn,
            &s,
            &self.s.out,
            exec,
            und,
            &mut st.out,
            &mut undet,
        );
        super::halves::alu(insn, &st.srcs[..nsrc], exec, &mut st.out, &mut undet);
        for c in 0..4 {
            und[c] |= undet[c] & exec;
        }
    }

    /// Applies `_SAT` / `.SSAT` to the result intervals (after the plain saturate);
    /// returns `und` with the lanes whose saturated value is undetermined.
    pub(crate) fn iv_saturate(&mut self, insn: &DInsn, mut und: [Mask; 4]) -> [Mask; 4] {
        let exec = self.exec;
        let Some(st) = self.iv.as_deref_mut() else {
            return und;
        };
        if insn.saturate == Saturate::None {
            return und;
        }
        for c in channels(insn.writemask) {
            let mut lanes = exec & !und[c];
            while lanes != 0 {
                let l = lanes.trailing_zeros() as usize;
                lanes &= lanes - 1;
                let x = get(&st.out, c, l);
                let r = match insn.saturate {
                    Saturate::Signed => ops::saturate_signed(x),
                    _ => Some(ops::saturate(x)),
                };
                let v = self.s.out[c][l];
                match r {
                    Some(r) if r.contains(f32::from_bits(v)) => {
                        if r.empty() {
                            set_point(&mut st.out, c, l, v);
                        } else {
                            set_iv(&mut st.out, c, l, r.lo.to_bits(), r.hi.to_bits(), r.nan);
                        }
                    }
                    _ => und[c] |= 1 << l,
                }
            }
        }
        und
    }

    /// Stores the result intervals like `Regs::store` stored the values.
    pub(crate) fn iv_store(&mut self, insn: &DInsn) {
        let d = self.d;
        let exec = self.exec;
        let mut addr_lanes = 0;
        let Some(st) = self.iv.as_deref_mut() else {
            return;
        };
        match insn.dst {
            Loc::Null | Loc::Uniform(_) => {}
            Loc::Lane(s) => {
                let r = &mut st.regs[s as usize];
                let orphaned = super::halves::store(r, &st.out, insn.writemask, exec);
                for (u, o) in self.regs.und[s as usize].iter_mut().zip(orphaned) {
                    *u |= o;
                }
                for c in channels(insn.writemask) {
                    crate::interp::state::blend(&mut r.lo[c], &st.out.lo[c], exec);
                    crate::interp::state::blend(&mut r.hi[c], &st.out.hi[c], exec);
                    r.nan[c] = (r.nan[c] & !exec) | (st.out.nan[c] & exec);
                }
            }
            Loc::Indirect(i) => {
                let ind = &d.indirects[i as usize];
                let mut slots = [0u32; LANES];
                let res = self.regs.resolve(d, &self.uniform, ind, &mut slots);
                let mut m = exec & !res.oob;
                while m != 0 {
                    let l = m.trailing_zeros() as usize;
                    m &= m - 1;
                    let r = &mut st.regs[slots[l] as usize];
                    let orphaned = super::halves::store(r, &st.out, insn.writemask, 1 << l);
                    for (u, o) in self.regs.und[slots[l] as usize].iter_mut().zip(orphaned) {
                        *u |= o;
                    }
                    for c in channels(insn.writemask) {
                        let nan = st.out.nan[c] >> l & 1 != 0;
                        set_iv(r, c, l, st.out.lo[c][l], st.out.hi[c][l], nan);
                    }
                }
                addr_lanes = 1;
            }
        }
        // Instructions other than ALU ones (loads ...) never write pair halves.
        st.out.half = [0; 4];
        if addr_lanes != 0 {
            if let Loc::Indirect(i) = insn.dst {
                let ind = &d.indirects[i as usize];
                let m = self.addr_inexact(ind.dim_addr) | self.addr_inexact(ind.index_addr);
                self.iv_unconstrain(m & exec);
            }
        }
    }

    /// IF / UIF: executing lanes whose condition (`src.x != 0.0`, NaN true; UIF: bits != 0)
    /// is not determined become unconstrained. Call after `condition` fetched channel x.
    pub(crate) fn iv_condition(&mut self, insn: &DInsn, ty: FetchType) {
        if self.iv.is_none() {
            return;
        }
        self.iv_fetch(&insn.srcs[0], 0x1, 0);
        let exec = self.exec;
        let Some(st) = self.iv.as_deref() else {
            return;
        };
        // A word of a binary64 set that is not a single value (a DRCP/DRSQ result range, the
        // `wide` module docs "Pair halves") is not determined on its own: neither is a test
        // of it.
        let mut bad: Mask = st.srcs[0].half[0];
        match ty {
            FetchType::Int => bad |= st.inexact[0][0],
            FetchType::Float => {
                let mut lanes = exec & st.inexact[0][0] & !bad;
                while lanes != 0 {
                    let l = lanes.trailing_zeros() as usize;
                    lanes &= lanes - 1;
                    if compare(Cmp::Ne, get(&st.srcs[0], 0, l), Iv::point(0.0)).is_none() {
                        bad |= 1 << l;
                    }
                }
            }
        }
        self.iv_unconstrain(bad & exec);
    }

    /// KILL_IF: lanes where "some component < 0" is not determined become unconstrained.
    pub(crate) fn iv_kill_if(&mut self, insn: &DInsn) {
        if self.iv.is_none() {
            return;
        }
        self.iv_fetch(&insn.srcs[0], 0xF, 0);
        let exec = self.exec;
        let Some(st) = self.iv.as_deref() else {
            return;
        };
        let any_inexact = st.inexact[0].iter().fold(0, |m, x| m | x);
        let any_half = st.srcs[0].half.iter().fold(0, |m, x| m | x);
        let mut bad: Mask = 0;
        let mut lanes = exec & (any_inexact | any_half);
        while lanes != 0 {
            let l = lanes.trailing_zeros() as usize;
            lanes &= lanes - 1;
            // A pair half's word alone is not determined (`wide` docs, "Pair halves").
            let outcomes: Vec<Option<bool>> = (0..4)
                .map(|c| {
                    if st.srcs[0].half[c] >> l & 1 != 0 {
                        None
                    } else {
                        compare(Cmp::Lt, get(&st.srcs[0], c, l), Iv::point(0.0))
                    }
                })
                .collect();
            let certain_kill = outcomes.contains(&Some(true));
            let certain_keep = outcomes.iter().all(|o| *o == Some(false));
            if !(certain_kill || certain_keep) {
                bad |= 1 << l;
            }
        }
        self.iv_unconstrain(bad & exec);
    }

    /// SWITCH: lanes whose selector or a CASE value is inexact become unconstrained.
    pub(crate) fn iv_switch(&mut self, insn: &DInsn, first_case: u32, num_cases: u32) {
        if self.iv.is_none() {
            return;
        }
        let d = self.d;
        let exec = self.exec;
        // Values first: the inexact test compares with the plain fetch of the same operand.
        let mut bad: Mask = 0;
        let mut ops: Vec<SrcOp> = vec![insn.srcs[0]];
        ops.extend(
            d.case_ops[first_case as usize..(first_case + num_cases) as usize]
                .iter()
                .copied(),
        );
        for op in &ops {
            let mut und = [0; 4];
            let mut slots = [0u32; LANES];
            self.regs.fetch(
                d,
                &self.uniform,
                op,
                0x1,
                &mut self.s.srcs[0],
                &mut und,
                &mut slots,
            );
            self.iv_fetch(op, 0x1, 0);
            if let Some(st) = self.iv.as_deref() {
                bad |= st.inexact[0][0];
            }
        }
        self.iv_unconstrain(bad & exec);
    }

    /// DDX/DDY: interval differences within each quad, like `derivative` computed the
    /// values (fine: own row/column; coarse: union of both rows/columns, either of which
    /// tgsi.rst allows). Fills the result intervals for `iv_store`.
    pub(crate) fn iv_derivative(&mut self, insn: &DInsn, y: bool, fine: bool) {
        if self.iv.is_none() {
            return;
        }
        self.iv_fetch(&insn.srcs[0], insn.writemask, 0);
        let exec = self.exec;
        let op = insn.op;
        let Some(st) = self.iv.as_deref_mut() else {
            return;
        };
        let env = st.env;
        let flush_in = env.flushes() && ops::input_flushable(op, 0);
        let flush_out = env.flushes() && ops::output_flushable(op);
        let (p0, p1) = if y {
            ((0, 2), (1, 3))
        } else {
            ((0, 1), (2, 3))
        };
        for c in channels(insn.writemask) {
            for q in 0..LANES / 4 {
                let b = 4 * q;
                if (exec >> b) & 0xF == 0 {
                    continue;
                }
                let at = |l: usize| ops::flush_if(&env, flush_in, get(&st.srcs[0], c, b + l));
                let diff = |(a, z): (usize, usize)| {
                    ops::flush_if(&env, flush_out, super::iv::sub(at(z), at(a)))
                };
                let (d0, d1) = (diff(p0), diff(p1));
                let lanes: [(usize, Iv); 4] = if fine {
                    [(p0.0, d0), (p0.1, d0), (p1.0, d1), (p1.1, d1)]
                } else {
                    let h = d0.hull(d1);
                    [(0, h), (1, h), (2, h), (3, h)]
                };
                for (l, r) in lanes {
                    let v = self.s.out[c][b + l];
                    let f = f32::from_bits(v);
                    if f.is_nan() {
                        // Arithmetic NaN: bits not determined (eval::arithmetic_nan); the
                        // numbers the sources' sets also allow (a fused DPH that gives +inf
                        // where the unfused one gives inf - inf) stay acceptable, as in
                        // `eval::snap`.
                        let (lo, hi, nan) = if r.empty() {
                            super::eval::NAN_UNKNOWN
                        } else {
                            (r.lo.to_bits(), r.hi.to_bits(), true)
                        };
                        set_iv(&mut st.out, c, b + l, lo, hi, nan);
                    } else {
                        let r = if r.contains(f) {
                            r
                        } else {
                            r.hull(Iv::point(f))
                        };
                        let (lo, hi) = if r.empty() {
                            (v, v)
                        } else {
                            (r.lo.to_bits(), r.hi.to_bits())
                        };
                        set_iv(&mut st.out, c, b + l, lo, hi, r.nan);
                    }
                }
            }
        }
    }

    /// Appends lanes `0..n` of this chunk's output intervals to `out.intervals`.
    pub(crate) fn iv_collect(&mut self, n: usize, out: &mut Outputs) {
        let Some(st) = self.iv.as_deref_mut() else {
            return;
        };
        let ivs = out.intervals.get_or_insert_with(|| Intervals {
            class: st.env.policy.name.clone(),
            ..Intervals::default()
        });
        for &(key, slot) in &self.d.outputs {
            let r = &st.regs[slot as usize];
            let und = &self.regs.und[slot as usize];
            let list = ivs.channels.entry(key).or_default();
            let mut halves = Vec::with_capacity(n);
            for l in 0..n {
                let mut v = [Interval::ANY; 4];
                let mut h = 0u8;
                for (c, x) in v.iter_mut().enumerate() {
                    if (und[c] | self.unconstrained) >> l & 1 == 0 {
                        *x = Interval {
                            lo: r.lo[c][l],
                            hi: r.hi[c][l],
                            nan: r.nan[c] >> l & 1 != 0,
                        };
                        h |= ((r.half[c] >> l & 1) as u8) << c;
                    }
                }
                list.push(v);
                halves.push(h);
            }
            if halves.iter().any(|&h| h != 0) || ivs.halves.contains_key(&key) {
                let entry = ivs.halves.entry(key).or_default();
                entry.resize(list.len() - n, 0);
                entry.extend(halves);
            }
        }
        ivs.unconstrained
            .extend((0..n).map(|l| self.unconstrained >> l & 1 != 0));
    }
}

/// Applies `src`'s modifiers to lane `l` of channel `c`, like `apply_modifiers` on values:
/// exact points get the same bit operation; ranges get float `|x|` / `-x`, or "any" for
/// integer modifiers (the value is then not known).
pub(super) fn modify(p: &mut IvVals, c: usize, l: usize, src: &SrcOp) {
    let (lo, hi) = (p.lo[c][l], p.hi[c][l]);
    let nan = p.nan[c] >> l & 1 != 0;
    let bitop = |v: u32| -> u32 {
        match src.ty {
            FetchType::Float => {
                let v = if src.abs { v & 0x7fff_ffff } else { v };
                if src.neg {
                    v ^ 0x8000_0000
                } else {
                    v
                }
            }
            FetchType::Int => {
                let mut x = v as i32;
                if src.abs {
                    x = x.wrapping_abs();
                }
                if src.neg {
                    x = x.wrapping_neg();
                }
                x as u32
            }
        }
    };
    if lo == hi {
        let v = bitop(lo);
        // A NaN point stays a NaN point; a value with "NaN allowed" keeps that.
        set_iv(p, c, l, v, v, nan);
        return;
    }
    match src.ty {
        FetchType::Float => {
            let mut x = Iv::from_bits(lo, hi, nan);
            if src.abs {
                x = x.abs();
            }
            if src.neg {
                x = x.negate();
            }
            let (a, b) = if x.empty() {
                (lo, hi)
            } else {
                (x.lo.to_bits(), x.hi.to_bits())
            };
            set_iv(p, c, l, a, b, x.nan);
        }
        FetchType::Int => {
            let any = Interval::ANY;
            set_iv(p, c, l, any.lo, any.hi, true);
        }
    }
}
