//! The warp scheduler: which warp runs when, and `BARRIER`.
//!
//! Warps interact only through memory, so the scheduler switches warps only after a memory
//! message (LOAD, STORE, ATOM*) — the points where the order matters — and at `BARRIER`.
//! [`Schedule::seed`] chooses the policy:
//!
//! * `None` (**sequential**): always the lowest-numbered runnable warp, so without
//!   barriers every warp runs to completion before the next starts and the lanes of an
//!   atomic go in ascending order (the simulator's historical behaviour,
//!   [`super::assume::memory_lane_order`]).
//! * `Some(s)` (**seeded**): after every memory message a runnable warp is drawn at random
//!   (ChaCha8 seeded with `s`), and the lanes of each atomic instruction perform it in a
//!   random order. Different seeds give different legal interleavings; the same seed gives
//!   the same run on any machine.
//!
//! `BARRIER` (SEMANTICS.md §7 **\[Assumption\]** "all threads of the workgroup reach it
//! before any continues"): a warp that executes it waits until every unfinished warp of
//! its *barrier group* waits too. A barrier group is the smallest run of consecutive warps
//! that no workgroup boundary separates ([`Schedule::workgroup`] threads per workgroup),
//! so a workgroup never spans two groups. A warp that finishes no longer holds its group
//! back, so a barrier reached by only part of a workgroup never hangs.

use rand_chacha::rand_core::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::exec::{Env, Stop, Warp, WarpRun};
use super::{Launch, Memory, Outcome, Shader, SimError, NUM_REGS, WARP_SIZE};

/// How a run interleaves its warps and what it logs ([`Shader::run_scheduled`]).
#[derive(Clone, Debug, Default)]
pub struct Schedule<'a> {
    /// `None`: sequential; `Some(seed)`: seeded random interleaving (module docs).
    pub seed: Option<u64>,
    /// Threads per workgroup for `BARRIER` (0 or 1: every warp is its own barrier group).
    pub workgroup: usize,
    /// Per instruction index: log the memory accesses of this LOAD / ATOM* instruction in
    /// [`Outcome::events`]. `None` or a shorter slice: nothing (more) is logged.
    pub trace: Option<&'a [bool]>,
    /// The register whose value each logged access also records
    /// ([`super::MemEvent::sideband`]).
    pub sideband: u8,
}

/// Barrier group of each warp (module docs): `group[w]`.
fn barrier_groups(warps: usize, workgroup: usize) -> Vec<usize> {
    let mut group = Vec::with_capacity(warps);
    let mut g = 0;
    for w in 0..warps {
        if w > 0 && (workgroup <= 1 || (w * WARP_SIZE) % workgroup == 0) {
            g += 1;
        }
        group.push(g);
    }
    group
}

impl Shader {
    /// Runs the program for `launch.threads` threads with the warp interleaving, barrier
    /// grouping and access log of `schedule` (module docs). [`Shader::run`] is this with
    /// the sequential schedule.
    ///
    /// # Errors
    /// As [`Shader::run`].
    pub fn run_scheduled(
        &self,
        launch: &Launch<'_>,
        schedule: &Schedule<'_>,
        memory: &mut Memory,
    ) -> Result<Outcome, SimError> {
        self.run_impl(launch, schedule, memory, None)
    }

    pub(super) fn run_impl(
        &self,
        launch: &Launch<'_>,
        schedule: &Schedule<'_>,
        memory: &mut Memory,
        sink: Option<&mut Vec<[u32; NUM_REGS]>>,
    ) -> Result<Outcome, SimError> {
        if let Some(w) = launch.step_weights {
            if w.len() != self.ins.len() {
                return Err(SimError::BadLaunch(format!(
                    "{} step weights for {} instructions",
                    w.len(),
                    self.ins.len()
                )));
            }
        }
        let mut uniforms = [0u32; 256];
        let n = launch.uniforms.len().min(256);
        uniforms[..n].copy_from_slice(&launch.uniforms[..n]);
        let mut rng = schedule.seed.map(ChaCha8Rng::seed_from_u64);
        let mut pick_rng = schedule
            .seed
            .map(|s| ChaCha8Rng::seed_from_u64(s ^ 0x5eed_5eed_5eed_5eed));
        let mut env = Env {
            ins: &self.ins,
            weights: launch.step_weights,
            limit: launch.step_limit,
            memory,
            rng: rng.as_mut(),
            trace: schedule.trace,
            sideband: schedule.sideband,
            events: Vec::new(),
        };
        let nwarps = launch.threads.div_ceil(WARP_SIZE);
        let mut warps = Vec::with_capacity(nwarps);
        let mut runs = Vec::with_capacity(nwarps);
        let mut regs = [0u32; NUM_REGS];
        for (wi, first) in (0..launch.threads).step_by(WARP_SIZE).enumerate() {
            let lanes = (launch.threads - first).min(WARP_SIZE);
            let mut warp = Box::new(Warp {
                regs: [[0; WARP_SIZE]; NUM_REGS],
                uniforms: &uniforms,
                warp_id: wi as u32,
            });
            for lane in 0..lanes {
                regs.fill(0);
                (launch.init)(first + lane, &mut regs);
                for (r, v) in regs.iter().enumerate() {
                    warp.regs[r][lane] = *v;
                }
            }
            let live = if lanes == WARP_SIZE {
                0xFFFF
            } else {
                (1u16 << lanes) - 1
            };
            warps.push(warp);
            runs.push(WarpRun::new(live, first));
        }
        let group = barrier_groups(nwarps, schedule.workgroup);
        // First and last + 1 warp of each warp's barrier group (groups are contiguous).
        let mut range = vec![(0usize, 0usize); nwarps];
        let mut a = 0;
        for w in 0..nwarps {
            if w + 1 == nwarps || group[w + 1] != group[w] {
                for r in &mut range[a..=w] {
                    *r = (a, w + 1);
                }
                a = w + 1;
            }
        }
        let mut waiting = vec![false; nwarps];
        let mut done = vec![false; nwarps];
        let yields = nwarps > 1;
        let mut set = RunSet::all(nwarps);
        // Sequential: the warp that yielded runs on.
        let mut current: Option<usize> = None;
        loop {
            let w = match (current, pick_rng.as_mut()) {
                (_, Some(r)) if !set.list.is_empty() => {
                    set.list[(r.next_u32() as usize) % set.list.len()]
                }
                (Some(w), None) => w,
                _ => match set.list.iter().min() {
                    Some(&w) => w,
                    None if waiting.contains(&true) => {
                        // Cannot happen (groups are released as they fill), but never hang.
                        for (v, wt) in waiting.iter_mut().enumerate() {
                            if *wt {
                                *wt = false;
                                set.insert(v);
                            }
                        }
                        continue;
                    }
                    None => break,
                },
            };
            current = None;
            match runs[w].run(&mut env, &mut warps[w], yields)? {
                Stop::Yield => {
                    current = Some(w);
                    continue;
                }
                Stop::Barrier => waiting[w] = true,
                Stop::Done => done[w] = true,
            }
            set.remove(w);
            let (a, b) = range[w];
            if (a..b).all(|v| waiting[v] || done[v]) {
                for (v, wt) in waiting.iter_mut().enumerate().take(b).skip(a) {
                    if *wt {
                        *wt = false;
                        set.insert(v);
                    }
                }
            }
        }
        let mut discarded = vec![false; launch.threads];
        let mut total = 0u64;
        let mut sink = sink;
        for (warp, run) in warps.iter().zip(&runs) {
            total += run.count;
            let lanes = (launch.threads - run.first_thread).min(WARP_SIZE);
            for lane in 0..lanes {
                discarded[run.first_thread + lane] = run.discarded >> lane & 1 != 0;
                if let Some(sink) = sink.as_deref_mut() {
                    sink.push(std::array::from_fn(|r| warp.regs[r][lane]));
                }
            }
        }
        Ok(Outcome {
            discarded,
            thread_instructions: total,
            events: env.events,
        })
    }
}

/// The runnable warps: insertion, removal and a random pick in constant time.
struct RunSet {
    list: Vec<usize>,
    /// Index of each warp in `list`, `usize::MAX` when absent.
    pos: Vec<usize>,
}

impl RunSet {
    /// Every warp of `n`.
    fn all(n: usize) -> RunSet {
        RunSet {
            list: (0..n).collect(),
            pos: (0..n).collect(),
        }
    }

    fn insert(&mut self, w: usize) {
        if self.pos[w] == usize::MAX {
            self.pos[w] = self.list.len();
            self.list.push(w);
        }
    }

    fn remove(&mut self, w: usize) {
        let p = self.pos[w];
        if p == usize::MAX {
            return;
        }
        self.list.swap_remove(p);
        if let Some(&moved) = self.list.get(p) {
            self.pos[moved] = p;
        }
        self.pos[w] = usize::MAX;
    }
}

#[cfg(test)]
mod tests {
    use super::{barrier_groups, RunSet};

    #[test]
    fn run_set_keeps_its_index() {
        let mut s = RunSet::all(4);
        s.remove(1);
        s.remove(1);
        s.remove(3);
        let mut l = s.list.clone();
        l.sort_unstable();
        assert_eq!(l, [0, 2]);
        s.insert(3);
        s.insert(3);
        s.remove(0);
        let mut l = s.list.clone();
        l.sort_unstable();
        assert_eq!(l, [2, 3]);
        for (i, &w) in s.list.iter().enumerate() {
            assert_eq!(s.pos[w], i);
        }
    }

    #[test]
    fn groups_follow_workgroup_boundaries() {
        // 64-thread workgroups: four warps each.
        assert_eq!(barrier_groups(8, 64), [0, 0, 0, 0, 1, 1, 1, 1]);
        // 24-thread workgroups: boundaries at 24, 48 (a warp boundary), 72, 96 (one).
        assert_eq!(barrier_groups(6, 24), [0, 0, 0, 1, 1, 1]);
        // Small workgroups: every warp boundary is a workgroup boundary.
        assert_eq!(barrier_groups(3, 4), [0, 1, 2]);
        assert_eq!(barrier_groups(3, 0), [0, 1, 2]);
    }
}
