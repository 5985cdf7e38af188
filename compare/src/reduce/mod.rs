//! Test-case reduction (`shaderdiff reduce`, and every new finding of `fuzz`): shrinks a
//! program and its inputs while keeping the **same divergence signature** (engine, opcode
//! class of the first diverging instruction, value type; [`crate::signature`]), not just
//! "some mismatch". Every candidate must pass `validate`, and the engine must still diverge
//! from the oracle on the candidate itself (not only on its probed copy).
//!
//! Passes, repeated until none changes anything (a fixed point) or the time budget ends:
//!
//! 1. **Invocations** ([`inputs`]): keep one invocation that shows the divergence (one quad
//!    for fragment programs).
//! 2. **Redirect** ([`structure`]): copy the first diverging instruction's result into a
//!    fresh output, so everything after it can go.
//! 3. **Delta debugging over instructions** ([`structure`]): ddmin-style removal of chunks of
//!    *structural units* (a plain instruction, a whole IF..ENDIF, ELSE branch, loop, SWITCH,
//!    CASE body, or subroutine together with its CALs), from large chunks to single units.
//! 4. **Unwrapping** ([`structure`]): replace a block by one of its bodies (IF → then- or
//!    else-body, loop → body without its BRK/CONT, SWITCH → one case body, CAL → the inlined
//!    subroutine body).
//! 5. **Sinking** ([`sink`]): move the instruction after an ENDIF into the IF or ELSE
//!    body, so a construct kept only for an early exit (a BRK skipping it) can go.
//! 6. **Operands** ([`operands`]): replace a source with its value (an immediate when all
//!    invocations see the same value, else a fresh input carrying each invocation's value,
//!    both captured from the oracle), drop `|x|`, `-x` and saturate, shrink swizzles
//!    (identity, then broadcasts), narrow writemasks to one channel.
//! 7. **Constants** ([`inputs`]): round immediates and input values (0, ±1, 2, 0.5,
//!    integers, fewer mantissa bits, small integers).
//! 8. **Cleanup** ([`cleanup`]): drop unused declarations, immediates, outputs and input
//!    values.
//!
//! Candidates run through the engines as libraries (no files, no re-parsing). The result is
//! printed losslessly with a stamp comment ([`stamped_text`]).

mod cleanup;
mod inputs;
pub mod nv;
mod operands;
mod sink;
mod structure;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use shaderdiff_model::{Opcode, Program};
use shaderdiff_oracles::Inputs;
use shaderdiff_results::Signature;
use shaderdiff_tgsi::{print_with, PrintOptions};

use crate::diff::{engine_failure, Differ, Outcome};
use crate::edit::is_valid;
use crate::signature::{locate, Divergence, Located};

/// When to stop early.
#[derive(Clone, Debug, Default)]
pub struct ReduceOptions {
    /// Stop (keeping the best program so far) at this time (wall clock).
    pub deadline: Option<Instant>,
    /// Stop once this clock budget is spent: a budget that does not depend on machine load
    /// when its clock is the reducing thread's CPU time ([`ClockBudget`]).
    pub cpu: Option<ClockBudget>,
    /// Stop when this flag is set (Ctrl-C).
    pub stop: Option<Arc<AtomicBool>>,
    /// Most rounds of all passes (0 = until a fixed point).
    pub max_rounds: usize,
}

/// A budget on a clock other than the wall clock, usually the CPU time of the thread that
/// reduces (`CLOCK_THREAD_CPUTIME_ID`): on a loaded machine the wall clock runs on while
/// the reducer waits for a core, so a wall-clock budget cuts reductions short, while a
/// CPU-time budget buys the same work however busy the machine is.
#[derive(Clone, Copy, Debug)]
pub struct ClockBudget {
    /// The clock (monotonic while the budget is used; any epoch).
    pub clock: fn() -> Duration,
    /// Spent once `clock()` reaches this reading.
    pub until: Duration,
}

impl ClockBudget {
    /// A budget of `budget` on `clock`, starting at its current reading.
    pub fn starting_now(clock: fn() -> Duration, budget: Duration) -> ClockBudget {
        ClockBudget {
            clock,
            until: clock().saturating_add(budget),
        }
    }

    /// Whether the budget is spent.
    pub fn spent(&self) -> bool {
        (self.clock)() >= self.until
    }
}

/// A reduced test case.
#[derive(Clone, Debug)]
pub struct Reduced {
    /// The reduced program.
    pub program: Program,
    /// Inputs that show the divergence on it.
    pub inputs: Inputs,
    /// Its divergence (same signature as the original's).
    pub divergence: Divergence,
    /// Candidates tested.
    pub tests: usize,
    /// Candidates accepted.
    pub accepted: usize,
    /// A fixed point was reached (false: stopped by the deadline or the stop flag).
    pub complete: bool,
}

/// Why a program could not be reduced.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ReduceError {
    /// The engine agrees with the oracle (or cannot run the program) on these inputs.
    #[error("the program does not diverge on {0} with these inputs: nothing to reduce")]
    NoDivergence(String),
    /// It diverges, but not with the requested signature.
    #[error("the program diverges with signature {found}, not {wanted}")]
    OtherSignature {
        /// Requested.
        wanted: String,
        /// Found.
        found: String,
    },
}

/// The current test case.
#[derive(Clone, Debug)]
pub(crate) struct State {
    pub program: Program,
    pub inputs: Inputs,
    pub div: Divergence,
}

/// What a candidate must still show.
pub(crate) enum Test<'a> {
    /// Diverge on engine `engine` of `differ` with signature `target`.
    Signature {
        differ: &'a Differ,
        engine: usize,
        target: Signature,
    },
    /// Whatever `keep` says (a crash or a hang in a subprocess: [`reduce_with`]); the
    /// divergence record stays `div`.
    Predicate {
        keep: &'a mut dyn FnMut(&Program, &Inputs) -> bool,
        div: Divergence,
    },
}

/// The oracle of a reduction: runs candidates and keeps the budget.
pub(crate) struct Ctx<'a> {
    pub test: Test<'a>,
    pub tests: usize,
    pub accepted: usize,
    opts: &'a ReduceOptions,
}

/// Whether the budget of `opts` is spent (deadline passed, clock budget spent or stop flag
/// set).
pub(crate) fn stopped(opts: &ReduceOptions) -> bool {
    opts.deadline.is_some_and(|d| Instant::now() >= d)
        || opts.cpu.as_ref().is_some_and(ClockBudget::spent)
        || opts
            .stop
            .as_ref()
            .is_some_and(|s| s.load(Ordering::Relaxed))
}

/// The engine's outcome on `p`, when it diverges from the oracle.
fn diverging_outcome(differ: &Differ, e: usize, p: &Program, inputs: &Inputs) -> Option<Outcome> {
    let oracle = differ.oracle_for(e, p, inputs).ok()?;
    let engine = &differ.engines()[e];
    let outcome = match engine.execute(p, inputs) {
        Ok(actual) => differ.judge_run(e, p, inputs, &oracle, &actual),
        Err(e) => engine_failure(e),
    };
    outcome.diverged().then_some(outcome)
}

impl Ctx<'_> {
    /// Whether the budget is spent.
    pub fn stopped(&self) -> bool {
        stopped(self.opts)
    }

    /// The engine's outcome on `p` when it diverges from the oracle (`None` for a
    /// predicate test).
    pub fn diverging_outcome(&self, p: &Program, inputs: &Inputs) -> Option<Outcome> {
        match &self.test {
            Test::Signature { differ, engine, .. } => diverging_outcome(differ, *engine, p, inputs),
            Test::Predicate { .. } => None,
        }
    }

    /// The divergence of a candidate, when it is valid and still shows what the test asks.
    pub fn check(&mut self, p: &Program, inputs: &Inputs) -> Option<Divergence> {
        if self.stopped() || !is_valid(p) {
            return None;
        }
        self.tests += 1;
        match &mut self.test {
            Test::Signature {
                differ,
                engine,
                target,
            } => {
                let outcome = diverging_outcome(differ, *engine, p, inputs)?;
                let d = locate(differ, *engine, p, inputs, &outcome);
                (d.signature == *target).then_some(d)
            }
            Test::Predicate { keep, div } => keep(p, inputs).then(|| div.clone()),
        }
    }

    /// Tests a candidate; on success it becomes the current state.
    pub fn try_state(&mut self, st: &mut State, program: Program, inputs: Inputs) -> bool {
        match self.check(&program, &inputs) {
            Some(div) => {
                *st = State {
                    program,
                    inputs,
                    div,
                };
                self.accepted += 1;
                true
            }
            None => false,
        }
    }

    /// [`Ctx::try_state`] keeping the inputs.
    pub fn try_program(&mut self, st: &mut State, program: Program) -> bool {
        let inputs = st.inputs.clone();
        self.try_state(st, program, inputs)
    }
}

/// Instructions of `p` besides END and NOP (declarations and immediates are not
/// instructions): the size the reducer minimizes.
pub fn size(p: &Program) -> usize {
    p.instructions
        .iter()
        .filter(|i| !matches!(i.opcode, Opcode::END | Opcode::NOP))
        .count()
}

/// Reduces `program` on `inputs` for engine `engine` of `differ`, keeping signature
/// `target` (default: the program's own first divergence on that engine).
///
/// `differ` should have a modest step budget (candidates may loop forever): callers use
/// [`REDUCE_STEP_LIMIT`] and retry with their full budget when the original needs more.
///
/// # Errors
/// [`ReduceError::NoDivergence`] when the engine does not diverge on the original;
/// [`ReduceError::OtherSignature`] when it diverges with another signature than `target`.
pub fn reduce(
    differ: &Differ,
    engine: usize,
    program: &Program,
    inputs: &Inputs,
    target: Option<&Signature>,
    opts: &ReduceOptions,
) -> Result<Reduced, ReduceError> {
    let name = differ.engines()[engine].name().to_string();
    let outcome = diverging_outcome(differ, engine, program, inputs)
        .ok_or_else(|| ReduceError::NoDivergence(name.clone()))?;
    let div = locate(differ, engine, program, inputs, &outcome);
    if let Some(t) = target {
        if *t != div.signature {
            return Err(ReduceError::OtherSignature {
                wanted: t.to_string(),
                found: div.signature.to_string(),
            });
        }
    }
    let ctx = Ctx {
        test: Test::Signature {
            differ,
            engine,
            target: div.signature.clone(),
        },
        tests: 1,
        accepted: 0,
        opts,
    };
    Ok(run_passes(ctx, program, inputs, div, opts))
}

/// Reduces `program` and `inputs` while `keep` holds for them (it must hold for the
/// original), with the same passes as [`reduce`] except the redirect of a located
/// divergence. For findings no divergence describes: a crash or hang of an engine, tested
/// in a subprocess. `signature` is recorded in the result.
///
/// # Errors
/// [`ReduceError::NoDivergence`] when `keep` does not hold for the original.
pub fn reduce_with(
    program: &Program,
    inputs: &Inputs,
    signature: &Signature,
    keep: &mut dyn FnMut(&Program, &Inputs) -> bool,
    opts: &ReduceOptions,
) -> Result<Reduced, ReduceError> {
    if !keep(program, inputs) {
        return Err(ReduceError::NoDivergence(signature.engine.clone()));
    }
    let div = Divergence {
        signature: signature.clone(),
        instruction: None,
        opcode: None,
        pos: None,
        located: Located::Failure,
    };
    let ctx = Ctx {
        test: Test::Predicate {
            keep,
            div: div.clone(),
        },
        tests: 1,
        accepted: 0,
        opts,
    };
    Ok(run_passes(ctx, program, inputs, div, opts))
}

/// The passes, to a fixed point or the end of the budget.
fn run_passes(
    mut ctx: Ctx,
    program: &Program,
    inputs: &Inputs,
    div: Divergence,
    opts: &ReduceOptions,
) -> Reduced {
    let mut st = State {
        program: program.clone(),
        inputs: inputs.clone(),
        div,
    };
    inputs::invocations(&mut ctx, &mut st);
    structure::redirect(&mut ctx, &mut st);
    let mut rounds = 0;
    let complete = loop {
        if ctx.stopped() {
            break false;
        }
        let before = (st.program.clone(), st.inputs.clone());
        structure::ddmin(&mut ctx, &mut st);
        cleanup::cleanup(&mut ctx, &mut st);
        structure::unwrap(&mut ctx, &mut st);
        sink::sink(&mut ctx, &mut st);
        operands::simplify(&mut ctx, &mut st);
        inputs::constants(&mut ctx, &mut st);
        cleanup::cleanup(&mut ctx, &mut st);
        rounds += 1;
        if (st.program.clone(), st.inputs.clone()) == before {
            break !ctx.stopped();
        }
        if opts.max_rounds > 0 && rounds >= opts.max_rounds {
            break false;
        }
    };
    Reduced {
        program: st.program,
        inputs: st.inputs,
        divergence: st.div,
        tests: ctx.tests,
        accepted: ctx.accepted,
        complete,
    }
}

/// Step budget for reduction candidates (a candidate whose loop lost its counter must fail
/// fast); generated programs need far fewer steps per invocation.
pub const REDUCE_STEP_LIMIT: u64 = 20_000;

/// The reduced program's text: a stamp comment (`# shaderdiff-reduce signature=..
/// instructions=.. from=..`) and the program printed losslessly (it reads back to the same
/// program).
pub fn stamped_text(r: &Reduced, from: &str) -> String {
    format!(
        "# shaderdiff-reduce {} signature={} instructions={} from={}\n{}",
        env!("CARGO_PKG_VERSION"),
        r.divergence.signature,
        size(&r.program),
        from.replace(char::is_whitespace, "_"),
        print_with(&r.program, &PrintOptions { lossless: true })
    )
}
