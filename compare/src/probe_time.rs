//! Timed probes: the first divergence *in time*, not in program order.
//!
//! A timed instrumentation ([`instrument_timed`]) gives every invocation a step counter
//! `S` (a fresh temporary channel, zero at the start like every temporary) that counts the
//! *probe points* the invocation has passed: each instruction with a probed result (after
//! it) and each IF/UIF (before it). Every probe records, besides its value, the step at
//! which that value was written, in a companion output register (`.x`). Two modes:
//!
//! * [`TimeMode::First`]: the value and step of the probe point's first execution (the
//!   decision of an IF/UIF's first encounter: 1 the IF body, 2 the ELSE body);
//! * [`TimeMode::Before`]`(t)`: the value and step of its last execution at a step below
//!   `t` (the last decision taken before `t`).
//!
//! Instructions that kill or demote the invocation are left out of timed copies
//! ([`is_kill`]).
//!
//! Until the first divergence, the oracle and the engine pass the same probe points in the
//! same order, so a diverging probe whose step is the same on both sides (*aligned*) was
//! written at that step with a wrong value: a divergence happened at that step or before
//! it. A diverging probe whose steps differ ran at another point of time on each side (or
//! on one side only): control flow diverged strictly before the smaller of its steps.
//! [`earliest`] turns the diverging probes of one run into the earliest such evidence, and
//! the search in [`crate::signature`] narrows the bound with `Before` runs until nothing
//! diverges before it: the aligned probe at the bound is the first divergence, whatever
//! the static order of the instructions (a loop-carried value, a decision on a value
//! computed in an earlier iteration, a CASE body entered late).

use shaderdiff_model::{
    Declaration, Dst, File, ImmType, Immediate, Opcode, Program, Register, Src, IDENTITY_SWIZZLE,
};

use shaderdiff_model::io::{Outputs, RegKey};
use shaderdiff_oracles::Inputs;

use crate::diff::{Differ, Outcome};
use crate::edit::rebuild;
use crate::probe::{probe_dst, Builder, ProbeKind, Probed};
use crate::roots::Hit;
use crate::signature::out_index;

/// Which execution a timed probe keeps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeMode {
    /// The first execution of each probe point.
    First,
    /// The last execution at a step below the bound (steps count from 1).
    Before(u32),
}

/// A timed instrumentation: [`Probed`] plus the step register of each probe.
#[derive(Clone, Debug)]
pub struct Timed {
    /// The instrumented program and its value probes (`probes[k]` in `OUT[first + k]`).
    pub probed: Probed,
    /// `OUT` index of the step of `probes[0]`; probe `k`'s step is in `OUT[step_base + k].x`.
    pub step_base: u32,
}

impl Timed {
    /// The output register holding the step of the probe in value register `register`.
    pub fn step_register(&self, register: u32) -> Option<u32> {
        let k = register.checked_sub(self.probed.first_probe_register)?;
        ((k as usize) < self.probed.probes.len()).then_some(self.step_base + k)
    }
}

/// State of one timed instrumentation besides the shared [`Builder`].
struct Clock {
    mode: TimeMode,
    /// The step counter's channel.
    step: (Register, u8),
    /// A scratch channel for the `S < t` test (Before mode).
    scratch: (Register, u8),
    /// `OUT` index of the first probe's step register (after every value register).
    step_base: u32,
}

fn channel((t, c): (Register, u8)) -> (Dst, Src) {
    let mut s = Src::new(t);
    s.swizzle = [c; 4];
    (
        Dst {
            reg: t,
            writemask: 1 << c,
        },
        s,
    )
}

impl Clock {
    /// `S = S + 1`.
    fn tick(&self, b: &mut Builder) {
        let (d, s) = channel(self.step);
        let one = b.imm(0);
        b.push(Opcode::UADD, vec![d], vec![s, one]);
    }

    /// Records `src` into value register `out` and the current step into step register
    /// `step`, in the execution this mode keeps; `flag` is the probe's own first-write flag
    /// (First mode).
    fn record(
        &self,
        b: &mut Builder,
        flag: Option<(Register, u8)>,
        out: Dst,
        src: Src,
        step: Register,
    ) {
        let (_, s) = channel(self.step);
        let step_out = Dst {
            reg: step,
            writemask: 1,
        };
        match (self.mode, flag) {
            (TimeMode::First, Some(flag)) => {
                let (set, read) = channel(flag);
                b.push(Opcode::UIF, vec![], vec![read]);
                b.push(Opcode::ELSE, vec![], vec![]);
                b.push(Opcode::MOV, vec![out], vec![src]);
                b.push(Opcode::MOV, vec![step_out], vec![s]);
                let one = b.imm(0);
                b.push(Opcode::MOV, vec![set], vec![one]);
                b.push(Opcode::ENDIF, vec![], vec![]);
            }
            _ => {
                let (d, read) = channel(self.scratch);
                let bound = b.imm(2);
                b.push(Opcode::USLT, vec![d], vec![s, bound]);
                b.push(Opcode::UIF, vec![], vec![read]);
                b.push(Opcode::MOV, vec![out], vec![src]);
                b.push(Opcode::MOV, vec![step_out], vec![s]);
                b.push(Opcode::ENDIF, vec![], vec![]);
            }
        }
    }

    /// A new probe of instruction `i`: its value register and its step register.
    fn probe(
        &mut self,
        b: &mut Builder,
        i: usize,
        mask: u8,
        kind: ProbeKind,
    ) -> (Register, Register) {
        let reg = b.probe(i, mask, kind);
        let k = b.probes.len() as u32 - 1;
        (
            reg,
            Register::new(File::Output, (self.step_base + k) as i32),
        )
    }
}

/// Whether `op` ends (or demotes) the invocation. Timed copies leave these out: the
/// comparators ignore the outputs of an invocation killed on either side, so its probes
/// would be invisible exactly where a wrong value decided a kill; without them the probes
/// before the kill still run in the same order, and a fault in the kill itself shows in no
/// probe (the caller's kill fallback names it).
fn is_kill(op: Opcode) -> bool {
    use Opcode::*;
    matches!(op, KILL | KILL_IF | KIL | KILP | DEMOTE)
}

/// A decision probe: its value register, step placeholder and first-write flag.
type DecisionProbe = (Register, Register, Option<(Register, u8)>);

/// The timed instrumented copy of `p` (module docs), or `None` when `p` cannot be
/// instrumented (2-D outputs or temporaries, too many probes, or nothing to probe).
pub fn instrument_timed(p: &Program, mode: TimeMode) -> Option<Timed> {
    let is_if = |op: Opcode| matches!(op, Opcode::IF | Opcode::UIF);
    let (out_base, temp_base, st, planned) =
        crate::probe::plan(p, 2, |i| is_if(i.opcode) || probe_dst(i).is_some())?;
    let mut b = Builder::new(p, out_base, temp_base, planned, 8);
    let step = b.slot();
    let scratch = b.slot();
    let mut clock = Clock {
        mode,
        step,
        scratch,
        step_base: out_base + planned as u32,
    };
    let first = mode == TimeMode::First;
    let mut decision: Vec<Option<DecisionProbe>> = vec![None; p.instructions.len()];
    let opener = |i: usize| -> Option<usize> {
        match p.instructions[i].opcode {
            Opcode::ENDIF => Some(st.partner[i] as usize).filter(|&q| q < i),
            Opcode::ELSE => (0..i)
                .rev()
                .find(|&k| st.partner[k] as usize == i && is_if(p.instructions[k].opcode)),
            _ => None,
        }
    };
    let decide = |b: &mut Builder, clock: &Clock, d: DecisionProbe, which: u8| {
        let (reg, step_reg, flag) = d;
        let value = b.imm(which);
        clock.record(b, flag, Dst { reg, writemask: 1 }, value, step_reg);
    };
    for (i, insn) in p.instructions.iter().enumerate() {
        let op = insn.opcode;
        if op == Opcode::ENDIF {
            // An IF without ELSE gets one, so a not-taken decision is seen.
            if let Some(o) = opener(i).filter(|&o| st.partner[o] as usize == i) {
                if let Some(d) = decision[o] {
                    b.push(Opcode::ELSE, vec![], vec![]);
                    decide(&mut b, &clock, d, 1);
                }
            }
        }
        if is_kill(op) {
            continue;
        }
        if is_if(op) {
            clock.tick(&mut b);
        }
        b.new.push((Some(i), insn.clone()));
        if is_if(op) {
            let (reg, step_reg) = clock.probe(&mut b, i, 1, ProbeKind::Decision);
            let flag = first.then(|| b.slot());
            let d = (reg, step_reg, flag);
            decision[i] = Some(d);
            decide(&mut b, &clock, d, 0);
        } else if op == Opcode::ELSE {
            if let Some(d) = opener(i).and_then(|o| decision[o]) {
                decide(&mut b, &clock, d, 1);
            }
        } else if let Some(d) = probe_dst(insn) {
            clock.tick(&mut b);
            let mut src = Src::new(d.reg);
            src.swizzle = IDENTITY_SWIZZLE;
            let (reg, step_reg) = clock.probe(&mut b, i, d.writemask, ProbeKind::Result);
            let flag = first.then(|| b.slot());
            let out = Dst {
                reg,
                writemask: d.writemask,
            };
            clock.record(&mut b, flag, out, src, step_reg);
        }
    }
    finish(p, b, mode)
}

/// The instrumented program, with declarations for what was added (step registers follow
/// the value registers).
fn finish(p: &Program, b: Builder, mode: TimeMode) -> Option<Timed> {
    let Builder {
        new,
        probes,
        slots,
        out_base,
        temp_base,
        ..
    } = b;
    let n = probes.len() as u32;
    let step_base = out_base + n;
    let mut program = rebuild(p, new);
    program.declarations.push(Declaration::new(
        File::Output,
        out_base,
        out_base + 2 * n - 1,
    ));
    program.declarations.push(Declaration::new(
        File::Temp,
        temp_base,
        temp_base + (slots - 1) / 4,
    ));
    let bound = match mode {
        TimeMode::First => 0,
        TimeMode::Before(t) => t,
    };
    program.immediates.push(Immediate {
        ty: ImmType::U32,
        words: [1, 2, bound, 0],
    });
    program.source_map.declarations.clear();
    Some(Timed {
        probed: Probed {
            program,
            probes,
            first_probe_register: out_base,
        },
        step_base,
    })
}

/// What one run's diverging timed probes say about the first divergence.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Evidence {
    /// A probe written at this step on both sides diverged: a divergence at this step or
    /// before it.
    At(u32),
    /// A probe ran at different steps (or on one side only): control flow diverged before
    /// this step.
    Before(u32),
}

impl Evidence {
    /// Sort key: `Before(s)` comes just ahead of `At(s)`.
    pub fn key(self) -> (u32, u8) {
        match self {
            Evidence::At(s) => (s, 1),
            Evidence::Before(s) => (s, 0),
        }
    }

    /// The evidence of a probe whose steps are `oracle` and `engine` (0: never written).
    pub fn of(oracle: u32, engine: u32) -> Option<Evidence> {
        match (oracle, engine) {
            (0, 0) => None,
            (a, b) if a == b => Some(Evidence::At(a)),
            (0, s) | (s, 0) => Some(Evidence::Before(s)),
            (a, b) => Some(Evidence::Before(a.min(b))),
        }
    }

    /// The step bound of the next `Before` run.
    pub fn step(self) -> u32 {
        match self {
            Evidence::At(s) | Evidence::Before(s) => s,
        }
    }
}

/// The earliest evidence among `hits` (each a hit with its evidence), ties broken by
/// `rank` (static order of the instruction).
pub fn earliest<H>(hits: &[(H, Evidence)], rank: impl Fn(&H) -> usize) -> Option<&(H, Evidence)> {
    hits.iter().min_by_key(|(h, e)| (e.key(), rank(h)))
}

/// Most `Before` runs of one search (each moves the bound earlier; loops in generated
/// programs run a few iterations, so a handful suffices).
pub const MAX_ROUNDS: usize = 12;

/// The diverging probes of `program` instrumented in `mode` on engine `e`, each with the
/// comparator's type of its mismatch and its earliest [`Evidence`] over the mismatching
/// invocations. `None` when it cannot be instrumented or run.
pub fn timed_hits(
    differ: &Differ,
    e: usize,
    program: &Program,
    inputs: &Inputs,
    mode: TimeMode,
) -> Option<Vec<(Hit, Evidence)>> {
    let timed = instrument_timed(program, mode)?;
    let probed = &timed.probed;
    let oracle = differ.oracle_for(e, &probed.program, inputs).ok()?;
    let actual = differ.engines()[e].execute(&probed.program, inputs).ok()?;
    let Outcome::Mismatch(ms) = differ.judge_run(e, &probed.program, inputs, &oracle, &actual)
    else {
        return Some(Vec::new());
    };
    let step = |o: &Outputs, reg: u32, inv: usize| -> u32 {
        o.registers
            .get(&RegKey::new(File::Output, reg))
            .and_then(|v| v.get(inv))
            .map_or(0, |w| w[0])
    };
    let mut hits: Vec<(Hit, Evidence)> = Vec::new();
    for m in &ms {
        let Some(k) = out_index(&m.register) else {
            continue;
        };
        let (Some(probe), Some(sr)) = (probed.probe_at(k), timed.step_register(k)) else {
            continue;
        };
        let Some(ev) = Evidence::of(
            step(&oracle, sr, m.invocation),
            step(&actual, sr, m.invocation),
        ) else {
            continue;
        };
        match hits.iter_mut().find(|h| h.0 .0.register == probe.register) {
            Some(h) if ev.key() < h.1.key() => *h = ((*probe, m.ty.clone()), ev),
            Some(_) => {}
            None => hits.push(((*probe, m.ty.clone()), ev)),
        }
    }
    Some(hits)
}

/// What the search of [`first_in_time`] concluded.
#[derive(Clone, Debug, PartialEq)]
pub enum Search {
    /// The first divergence in time: an aligned probe with nothing diverging before it.
    Found(Hit),
    /// No timed probe diverges (or the program cannot be instrumented or run): probing has
    /// nothing to say.
    Nothing,
    /// Probes diverge, but the search ended without an aligned probe at its bound (control
    /// flow diverged and nothing earlier showed, or [`MAX_ROUNDS`] ran out).
    Inconclusive,
}

/// The first divergence in time of engine `e` on `program` (module docs): the timed
/// first-execution run gives a first bound, `Before` runs move it earlier until nothing
/// diverges before it.
pub fn first_in_time(
    differ: &Differ,
    e: usize,
    program: &Program,
    inputs: &Inputs,
    rank: &[usize],
) -> Search {
    let order = |h: &Hit| rank.get(h.0.instruction).copied().unwrap_or(usize::MAX);
    let Some(first) = timed_hits(differ, e, program, inputs, TimeMode::First) else {
        return Search::Nothing;
    };
    let mut best: Option<Hit> = None;
    let mut bound = u32::MAX;
    let mut seen = !first.is_empty();
    if let Some((h, ev)) = earliest(&first, order) {
        best = matches!(ev, Evidence::At(_)).then(|| h.clone());
        bound = ev.step();
    }
    for _ in 0..MAX_ROUNDS {
        let Some(hits) = timed_hits(differ, e, program, inputs, TimeMode::Before(bound)) else {
            break;
        };
        let Some((h, ev)) = earliest(&hits, order) else {
            return match best {
                Some(h) => Search::Found(h),
                None if seen => Search::Inconclusive,
                None => Search::Nothing,
            };
        };
        seen = true;
        if ev.step() >= bound {
            // Nothing below the bound can be written at or after it: the engine does not
            // keep to the instrumented program (a fault acting on the probes' own code).
            break;
        }
        best = matches!(ev, Evidence::At(_)).then(|| h.clone());
        bound = ev.step();
    }
    match best {
        Some(h) => Search::Found(h),
        None if seen => Search::Inconclusive,
        None => Search::Nothing,
    }
}

#[cfg(test)]
#[path = "probe_time_tests.rs"]
mod tests;
