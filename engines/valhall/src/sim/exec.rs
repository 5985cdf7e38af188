//! Running one warp: the divergence model (SEMANTICS.md §1.2), flow (`.end`, §1.1),
//! branches and discard (§7, §5.3), the step budget, memory messages (§8) and `CLPER`
//! (§7). Arithmetic is in [`super::alu`] and [`super::valu`].

use super::assume;
use super::memory::Memory;
use super::op::{Dst, FSrc, ISrc, Ins, LoadPlace, Op, Val, Widen};
use super::{MemEvent, SimError};

/// The lane numbers, for `lane_id`.
const LANES: [u32; 16] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15];

/// The register file of one warp in structure-of-arrays form (`regs[r][lane]`), plus
/// what its sources can read besides registers.
pub(crate) struct Warp<'u> {
    pub regs: [[u32; 16]; 64],
    pub uniforms: &'u [u32; 256],
    pub warp_id: u32,
}

/// What an instruction does to control flow.
pub(crate) enum Effect {
    /// Fall through.
    Next,
    /// The threads in `taken` go to `target`.
    Branch { taken: u16, target: i64 },
    /// The threads in the mask are discarded (and finish).
    Discard(u16),
}

/// Everything a warp needs from the launch.
pub(crate) struct Env<'a> {
    pub ins: &'a [Ins],
    pub weights: Option<&'a [u32]>,
    pub limit: u64,
    pub memory: &'a mut Memory,
    /// The seeded order source for the lanes of an atomic (`None`: ascending lanes).
    pub rng: Option<&'a mut rand_chacha::ChaCha8Rng>,
    /// Instructions whose memory accesses are logged (`Schedule::trace`).
    pub trace: Option<&'a [bool]>,
    /// The register captured in each logged access (`Schedule::sideband`).
    pub sideband: u8,
    /// The log.
    pub events: Vec<MemEvent>,
}

impl Env<'_> {
    /// Whether instruction `index` is traced.
    pub(crate) fn traced(&self, index: usize) -> bool {
        self.trace
            .is_some_and(|t| t.get(index).copied().unwrap_or(false))
    }

    /// The order in which the lanes of a warp perform an atomic: ascending
    /// ([`assume::memory_lane_order`]) without a seed, else a seeded shuffle (any order
    /// is legal: tgsi.rst "Atomic opcodes" orders concurrent atomics only as a whole).
    pub(crate) fn atomic_lane_order(&mut self) -> [u8; 16] {
        let mut order: [u8; 16] = std::array::from_fn(|l| l as u8);
        if let Some(rng) = self.rng.as_deref_mut() {
            use rand_chacha::rand_core::Rng;
            for i in (1..16).rev() {
                let j = (rng.next_u32() as usize) % (i + 1);
                order.swap(i, j);
            }
        }
        order
    }
}

impl Warp<'_> {
    /// The 16 lane values of a source word.
    #[inline(always)]
    pub(crate) fn get(&self, v: Val) -> [u32; 16] {
        match v {
            Val::Reg(r) => self.regs[usize::from(r & 63)],
            Val::Imm(c) => [c; 16],
            Val::Uni(n) => [self.uniforms[usize::from(n)]; 16],
            Val::LaneId => LANES,
            Val::WarpId => [self.warp_id; 16],
        }
    }

    /// An integer source after its lane selection.
    #[inline(always)]
    pub(crate) fn geti(&self, s: &ISrc) -> [u32; 16] {
        let mut x = self.get(s.v);
        if !s.is_plain() {
            let (l, r) = (u32::from(s.shl) & 31, u32::from(s.shr) & 31);
            if s.signed {
                x.iter_mut()
                    .for_each(|v| *v = (((*v << l) as i32) >> r) as u32);
            } else {
                x.iter_mut().for_each(|v| *v = (*v << l) >> r);
            }
        }
        x
    }

    /// A float source after widen, abs and neg.
    #[inline(always)]
    pub(crate) fn getf(&self, s: &FSrc) -> [u32; 16] {
        let mut x = self.get(s.v);
        match s.widen {
            Widen::None => {}
            Widen::H0 => x
                .iter_mut()
                .for_each(|v| *v = super::float::f16_to_f32_bits(*v & 0xFFFF)),
            Widen::H1 => x
                .iter_mut()
                .for_each(|v| *v = super::float::f16_to_f32_bits(*v >> 16)),
        }
        if s.and != !0 || s.xor != 0 {
            let (a, e) = (s.and, s.xor);
            x.iter_mut().for_each(|v| *v = (*v & a) ^ e);
        }
        x
    }

    /// Writes `vals` to the destination for the active lanes, honouring the write mask.
    #[inline(always)]
    pub(crate) fn put(&mut self, d: Dst, active: u16, vals: &[u32; 16]) {
        let r = &mut self.regs[usize::from(d.reg & 63)];
        if active == 0xFFFF && d.mask == !0 {
            *r = *vals;
            return;
        }
        for (l, (x, v)) in r.iter_mut().zip(vals).enumerate() {
            let m = if active >> l & 1 != 0 { d.mask } else { 0 };
            *x = (*x & !m) | (v & m);
        }
    }

    /// Writes 64-bit lane values to the pair `d`, `d + 1` (d ≤ 62) for the active lanes.
    #[inline(always)]
    pub(crate) fn put64(&mut self, d: u8, active: u16, vals: &[u64; 16]) {
        let d = usize::from(d.min(62));
        let mut lo = [0u32; 16];
        let mut hi = [0u32; 16];
        for l in 0..16 {
            lo[l] = vals[l] as u32;
            hi[l] = (vals[l] >> 32) as u32;
        }
        let full = Dst { reg: 0, mask: !0 };
        self.put(
            Dst {
                reg: d as u8,
                ..full
            },
            active,
            &lo,
        );
        self.put(
            Dst {
                reg: d as u8 + 1,
                ..full
            },
            active,
            &hi,
        );
    }

    /// Runs one instruction for the threads in `active`.
    fn exec(
        &mut self,
        op: &Op,
        active: u16,
        env: &mut Env<'_>,
        index: usize,
        first_thread: usize,
    ) -> Result<Effect, SimError> {
        match op {
            Op::Branch {
                cond,
                mask,
                eq,
                target,
            } => {
                let c = self.get(*cond);
                let mut taken = 0u16;
                for (l, v) in c.iter().enumerate() {
                    if ((v & mask) != 0) != *eq {
                        taken |= 1 << l;
                    }
                }
                taken &= active;
                if taken != 0 && !assume::branch_target_ok(*target, env.ins.len()) {
                    return Err(SimError::BadBranch {
                        index,
                        target: *target,
                    });
                }
                Ok(Effect::Branch {
                    taken,
                    target: *target,
                })
            }
            Op::Discard { cond, a, b } => {
                let t = super::alu::fcond(*cond, &self.getf(a), &self.getf(b));
                let mut m = 0u16;
                for (l, &x) in t.iter().enumerate() {
                    if x {
                        m |= 1 << l;
                    }
                }
                Ok(Effect::Discard(m & active))
            }
            Op::Load {
                addr,
                offset,
                bytes,
                place,
                base,
                count,
            } => {
                let traced = env.traced(index).then(|| {
                    (
                        self.addresses(*addr, *offset),
                        self.get(Val::Reg(env.sideband)),
                    )
                });
                self.load(
                    env.memory,
                    *addr,
                    *offset,
                    *bytes,
                    *place,
                    (*base, *count),
                    active,
                    (index, first_thread),
                )?;
                if let Some((addrs, side)) = traced {
                    for l in assume::memory_lane_order() {
                        let l = l as usize;
                        if active >> l & 1 != 0 {
                            env.events.push(MemEvent {
                                thread: first_thread + l,
                                index,
                                address: addrs[l],
                                op: None,
                                value: 0,
                                compare: 0,
                                old: u64::from(self.regs[usize::from(*base & 63)][l]),
                                sideband: side[l],
                            });
                        }
                    }
                }
                Ok(Effect::Next)
            }
            Op::Tex(m) => {
                self.texture(m, env.memory, active);
                Ok(Effect::Next)
            }
            Op::Store {
                addr,
                offset,
                bytes,
                base,
            } => {
                self.store(
                    env.memory,
                    *addr,
                    *offset,
                    *bytes,
                    *base,
                    active,
                    (index, first_thread),
                )?;
                Ok(Effect::Next)
            }
            Op::Atom {
                op,
                bits,
                addr,
                offset,
                src,
                ret,
            } => {
                self.atomic(
                    env,
                    (*op, *bits),
                    *addr,
                    *offset,
                    (*src, *ret),
                    active,
                    (index, first_thread),
                )?;
                Ok(Effect::Next)
            }
            Op::Clper {
                a,
                b,
                xor,
                inactive,
                d,
            } => {
                let vals = self.get(*a);
                let lanes = self.geti(b);
                let mut r = [0u32; 16];
                for l in 0..16u32 {
                    let src = assume::clper_lane(l, lanes[l as usize], *xor);
                    r[l as usize] = match src {
                        Some(s) if active >> s & 1 != 0 => vals[s as usize],
                        _ => *inactive,
                    };
                }
                self.put(*d, active, &r);
                Ok(Effect::Next)
            }
            Op::Wmask { a, d } => {
                let vals = self.get(*a);
                let m = assume::wmask(active, &vals);
                self.put(*d, active, &[m; 16]);
                Ok(Effect::Next)
            }
            _ => {
                self.alu(op, active);
                Ok(Effect::Next)
            }
        }
    }

    /// The 64-bit address of each lane.
    fn addresses(&self, addr: [Val; 2], offset: i64) -> [u64; 16] {
        let lo = self.get(addr[0]);
        let hi = self.get(addr[1]);
        let mut a = [0u64; 16];
        for l in 0..16 {
            a[l] = (u64::from(hi[l]) << 32 | u64::from(lo[l])).wrapping_add(offset as u64);
        }
        a
    }

    #[allow(clippy::too_many_arguments)]
    fn load(
        &mut self,
        mem: &Memory,
        addr: [Val; 2],
        offset: i64,
        bytes: u32,
        place: LoadPlace,
        (base, count): (u8, u8),
        active: u16,
        (index, first_thread): (usize, usize),
    ) -> Result<(), SimError> {
        let addrs = self.addresses(addr, offset);
        let len = bytes as usize;
        // Every active lane's bytes in one region: found once for the warp.
        let region = mem.warp_region(&addrs, active, len);
        // The usual access: one 32-bit word per lane into one register.
        if bytes == 4 && count == 1 && place.shift == 0 && place.width <= 32 {
            if let Some((rbase, region)) = region {
                let r = usize::from(base & 63);
                for l in assume::memory_lane_order() {
                    let l = l as usize;
                    if active >> l & 1 != 0 {
                        // Inside the region: `warp_region` checked every active lane.
                        let off = (addrs[l] - rbase) as usize;
                        let mut w = [0u8; 4];
                        w.copy_from_slice(&region[off..off + 4]);
                        self.regs[r][l] = u32::from_le_bytes(w);
                    }
                }
                return Ok(());
            }
        }
        for l in assume::memory_lane_order() {
            if active >> l & 1 == 0 {
                continue;
            }
            let a = addrs[l as usize];
            let mut v = match region {
                // Inside the region: `warp_region` checked every active lane.
                Some((rbase, region)) => {
                    let off = (a - rbase) as usize;
                    super::memory::le_value(&region[off..off + len])
                }
                None => mem.read_le(a, len).ok_or_else(|| SimError::MemoryFault {
                    index,
                    thread: first_thread + l as usize,
                    address: a,
                    bytes,
                })?,
            };
            let bits = bytes * 8;
            if place.width > bits {
                let ext = assume::load_extend(v as u64, bits, place.unsigned);
                let keep = if place.width >= 64 {
                    u64::MAX
                } else {
                    (1u64 << place.width) - 1
                };
                v = u128::from(ext & keep);
            }
            v <<= place.shift;
            for i in 0..count {
                let r = usize::from((base + i) & 63);
                self.regs[r][l as usize] = (v >> (32 * u32::from(i))) as u32;
            }
        }
        Ok(())
    }

    #[allow(clippy::too_many_arguments)]
    fn store(
        &mut self,
        mem: &mut Memory,
        addr: [Val; 2],
        offset: i64,
        bytes: u32,
        base: u8,
        active: u16,
        (index, first_thread): (usize, usize),
    ) -> Result<(), SimError> {
        let addrs = self.addresses(addr, offset);
        // The usual access: one 32-bit register per lane, every lane in one region
        // (found once); the lanes store in order, so the highest lane's value stays.
        if bytes == 4 {
            if let Some((rbase, region)) = mem.warp_region_mut(&addrs, active, 4) {
                let r = &self.regs[usize::from(base & 63)];
                for l in assume::memory_lane_order() {
                    let l = l as usize;
                    if active >> l & 1 != 0 {
                        // Inside the region: `warp_region_mut` checked every active lane.
                        let off = (addrs[l] - rbase) as usize;
                        region[off..off + 4].copy_from_slice(&r[l].to_le_bytes());
                    }
                }
                return Ok(());
            }
        }
        let words = bytes.div_ceil(4).min(4) as u8;
        for l in assume::memory_lane_order() {
            if active >> l & 1 == 0 {
                continue;
            }
            // The staging run's words, little-endian; the low `bytes` bytes are stored.
            let mut v = 0u128;
            for i in 0..words {
                let r = usize::from((base + i) & 63);
                v |= u128::from(self.regs[r][l as usize]) << (32 * u32::from(i));
            }
            let a = addrs[l as usize];
            if !mem.write_le(a, v, bytes as usize) {
                return Err(SimError::MemoryFault {
                    index,
                    thread: first_thread + l as usize,
                    address: a,
                    bytes,
                });
            }
        }
        Ok(())
    }
}

/// Why [`WarpRun::run`] returned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Stop {
    /// The warp executed a memory message and offers the scheduler a switch.
    Yield,
    /// The warp executed `BARRIER` and waits for its workgroup.
    Barrier,
    /// Every thread of the warp finished.
    Done,
}

/// The execution state of one warp between scheduling points: per-thread PCs (the
/// divergence model of SEMANTICS.md §1.2), step budgets, discards.
pub(crate) struct WarpRun {
    /// Threads still running.
    pub live: u16,
    /// Launch index of lane 0.
    pub first_thread: usize,
    /// Threads discarded by `DISCARD.f32`.
    pub discarded: u16,
    /// Thread-instructions executed (unweighted).
    pub count: u64,
    pcs: [u32; 16],
    // While `conv`, every live thread is at `cur` (pcs[] is stale).
    conv: bool,
    cur: u32,
    steps: LaneCounters,
    bound: u64,
    executed: LaneCounters,
    ubound: u64,
}

impl WarpRun {
    /// A warp whose existing threads are `live`, lane 0 being thread `first_thread`.
    pub(crate) fn new(live: u16, first_thread: usize) -> WarpRun {
        WarpRun {
            live,
            first_thread,
            discarded: 0,
            count: 0,
            pcs: [0; 16],
            conv: true,
            cur: 0,
            steps: LaneCounters::default(),
            bound: 0,
            executed: LaneCounters::default(),
            ubound: 0,
        }
    }

    /// Runs warp `w` until it finishes, executes `BARRIER`, or (with `yields`) executes a
    /// memory message (LOAD, STORE, ATOM*): the points where another warp may run.
    pub(crate) fn run(
        &mut self,
        env: &mut Env<'_>,
        w: &mut Warp<'_>,
        yields: bool,
    ) -> Result<Stop, SimError> {
        let n = env.ins.len();
        let first_thread = self.first_thread;
        // With weights, a thread that runs more than (limit + 1)·(len + 1) instructions has
        // run around a cycle of weight-0 instructions (between two weighted instructions it
        // can otherwise execute at most `len`): also a step-limit error.
        let zero_weight_cap = env
            .weights
            .map(|_| env.limit.saturating_add(1).saturating_mul(n as u64 + 1));
        while self.live != 0 {
            let (pc, active) = if self.conv {
                (self.cur, self.live)
            } else {
                assume::next_group(&self.pcs, self.live)
            };
            let idx = pc as usize;
            if idx >= n {
                // Running past the last instruction finishes the threads (§7).
                self.live &= !active;
                continue;
            }
            // Step budget.
            let wgt = u64::from(
                env.weights
                    .map_or(1, |ws| ws.get(idx).copied().unwrap_or(1)),
            );
            self.steps.add(active, wgt);
            self.bound = self.bound.saturating_add(wgt);
            if self.bound > env.limit {
                for l in 0..16 {
                    if active >> l & 1 != 0 && self.steps.get(l) > env.limit {
                        return Err(SimError::StepLimit {
                            limit: env.limit,
                            thread: first_thread + l,
                        });
                    }
                }
                let live = self.live;
                self.bound = (0..16)
                    .filter(|l| live >> l & 1 != 0)
                    .map(|l| self.steps.get(l))
                    .max()
                    .unwrap_or(0);
            }
            if let Some(cap) = zero_weight_cap {
                // Unweighted count, to end loops made only of weight-0 instructions.
                self.executed.add(active, 1);
                self.ubound += 1;
                if self.ubound > cap {
                    for l in 0..16 {
                        if active >> l & 1 != 0 && self.executed.get(l) > cap {
                            return Err(SimError::StepLimit {
                                limit: env.limit,
                                thread: first_thread + l,
                            });
                        }
                    }
                    let live = self.live;
                    self.ubound = (0..16)
                        .filter(|l| live >> l & 1 != 0)
                        .map(|l| self.executed.get(l))
                        .max()
                        .unwrap_or(0);
                }
            }
            self.count += u64::from(active.count_ones());
            let ins = &env.ins[idx];
            let effect = w.exec(&ins.op, active, env, idx, first_thread)?;
            let (taken, target) = match effect {
                Effect::Next => (0u16, 0i64),
                Effect::Branch { taken, target } => (taken, target),
                Effect::Discard(m) => {
                    self.discarded |= m;
                    self.live &= !m;
                    (0, 0)
                }
            };
            if ins.end {
                self.live &= !active;
            }
            self.advance(active, taken, target, pc);
            match env.ins[idx].op {
                Op::Barrier if self.live != 0 => return Ok(Stop::Barrier),
                Op::Load { .. } | Op::Store { .. } | Op::Atom { .. }
                    if yields && self.live != 0 =>
                {
                    return Ok(Stop::Yield)
                }
                _ => {}
            }
        }
        Ok(Stop::Done)
    }

    /// Moves the threads of `active` that are still live past the instruction at `pc`:
    /// those in `taken` to `target` (in 0..=len whenever `taken` is non-zero), the others
    /// to `pc + 1`.
    fn advance(&mut self, active: u16, taken: u16, target: i64, pc: u32) {
        let moving = active & self.live;
        let next = pc + 1;
        let tgt = target as u32;
        if self.conv {
            let taken = taken & moving;
            if taken == 0 {
                self.cur = next;
            } else if taken == moving {
                self.cur = tgt;
            } else {
                set_pcs(&mut self.pcs, moving, taken, tgt, next);
                self.conv = false;
            }
        } else {
            set_pcs(&mut self.pcs, moving, taken, tgt, next);
            if self.live != 0 {
                let (p, m) = assume::next_group(&self.pcs, self.live);
                if m == self.live {
                    self.conv = true;
                    self.cur = p;
                }
            }
        }
    }
}

/// One counter per lane, kept as a part all lanes share plus a part per lane, so that an
/// instruction run by the full warp (the common, converged case) adds once.
#[derive(Default)]
struct LaneCounters {
    all: u64,
    lane: [u64; 16],
}

impl LaneCounters {
    /// Adds `v` to the counters of the lanes in `active`.
    #[inline(always)]
    fn add(&mut self, active: u16, v: u64) {
        if active == 0xFFFF {
            self.all = self.all.wrapping_add(v);
        } else {
            for (l, c) in self.lane.iter_mut().enumerate() {
                *c = c.wrapping_add(v * u64::from((active >> l) & 1));
            }
        }
    }

    /// The counter of lane `l` (0–15).
    #[inline(always)]
    fn get(&self, l: usize) -> u64 {
        self.all.wrapping_add(self.lane[l])
    }
}

/// Moves the threads in `moving` to `target` (those in `taken`) or `next`.
fn set_pcs(pcs: &mut [u32; 16], moving: u16, taken: u16, target: u32, next: u32) {
    for (l, pc) in pcs.iter_mut().enumerate() {
        if moving >> l & 1 != 0 {
            *pc = if taken >> l & 1 != 0 { target } else { next };
        }
    }
}
