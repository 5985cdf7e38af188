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
        let mut waiting = vec![false; nwarps];
        let mut done = vec![false; nwarps];
        let yields = nwarps > 1;
        let mut runnable: Vec<usize> = Vec::with_capacity(nwarps);
        loop {
            runnable.clear();
            runnable.extend((0..nwarps).filter(|&w| !done[w] && !waiting[w]));
            let Some(&first) = runnable.first() else {
                if waiting.iter().any(|&w| w) {
                    // Cannot happen (groups are released as they fill), but never hang.
                    waiting.fill(false);
                    continue;
                }
                break;
            };
            let w = match pick_rng.as_mut() {
                Some(r) => runnable[(r.next_u32() as usize) % runnable.len()],
                None => first,
            };
            let stop = runs[w].run(&mut env, &mut warps[w], yields)?;
            match stop {
                Stop::Yield => continue,
                Stop::Barrier => waiting[w] = true,
                Stop::Done => done[w] = true,
            }
            let g = group[w];
            let members = || (0..nwarps).filter(|&v| group[v] == g);
            if members().all(|v| waiting[v] || done[v]) {
                for v in members() {
                    waiting[v] = false;
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

#[cfg(test)]
mod tests {
    use super::barrier_groups;

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
