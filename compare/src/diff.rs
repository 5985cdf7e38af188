//! The differential core: run a program on the oracle and on every other engine, and compare
//! (INTERFACE.md `diff`).
//!
//! The oracle is the reference interpreter (`interp`). For each engine it runs with the
//! acceptance intervals of that engine's class in the precision contract
//! ([`shaderdiff_oracles::interp::run_with_intervals`]; one oracle run per class, shared by
//! the engines of that class), and the engine's outputs are checked with
//! [`crate::output::compare`]. An engine whose outputs are the oracle's plain-run values
//! agrees without that run ([`crate::point`]: the verdict is the same, at a fraction of the
//! cost). For a class whose engines may flush denormals, the oracle's flushed evaluation
//! runs only when the IEEE one does not accept an engine's outputs (the flushed one only
//! adds accepted values, so again the verdict is the same). Per engine the result is an
//! [`Outcome`]:
//! agree, mismatch (the differing channels), unsupported (never a mismatch), or failed (a
//! compile error, trap or step limit the oracle did not have: a finding).
//!
//! **Three-way attribution**: each engine is judged against the oracle separately, so a
//! report names the engines that diverged. When two or more engines ran and *all* of them
//! disagree with the oracle on the same channel while agreeing with each other (same word,
//! or both NaN), the oracle is the likelier culprit: [`Diff::oracle_suspect`].

use crate::output::{compare, CompareError, CompareOptions, Mismatch};
use shaderdiff_backends::{self as backends, Compiled, Engine, EngineError};
use shaderdiff_model::Program;
use shaderdiff_oracles::interp::denormal::DenormalMode;
use shaderdiff_oracles::interp::{self, ExecError, InterpConfig};
use shaderdiff_oracles::precision::{EngineClass, NanPolicy, PrecisionContract};
use shaderdiff_oracles::{Inputs, Outputs};

use crate::known::{self, SharedKnown};
use crate::outcomes;

/// The oracle's engine name (the registry's oracle line, [`backends::ORACLE`]).
pub const ORACLE: &str = backends::ORACLE;

/// `program` against `engine`'s instruction limit ([`crate::engine_limits`]): a longer
/// program is [`EngineError::Unsupported`] by that engine, never given to it.
fn within_limit(engine: &str, program: &Program) -> Result<(), EngineError> {
    crate::engine_limits::check(engine, program).map_err(|reason| EngineError::Unsupported {
        engine: engine.to_string(),
        opcode: None,
        pos: None,
        reason,
    })
}

/// How an engine failed where the oracle did not.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FailureKind {
    /// It could not compile a program it claims to support.
    Compile,
    /// Its code faulted.
    Trap,
    /// It exceeded the step budget.
    StepLimit,
    /// It exceeded the call depth.
    CallDepth,
    /// It rejected a program or inputs the oracle accepted, or returned outputs of another
    /// shape (invocation count, registers).
    Invalid,
}

impl FailureKind {
    /// `compile`, `trap`, `step_limit`, `call_depth`, `invalid`.
    pub fn name(self) -> &'static str {
        match self {
            FailureKind::Compile => "compile",
            FailureKind::Trap => "trap",
            FailureKind::StepLimit => "step_limit",
            FailureKind::CallDepth => "call_depth",
            FailureKind::Invalid => "invalid",
        }
    }
}

/// What one engine did with one program and one input set, judged against the oracle.
#[derive(Clone, Debug, PartialEq)]
pub enum Outcome {
    /// Every compared channel is acceptable.
    Agree {
        /// Channels compared: as [`crate::output::compare`] counts them, or, when the
        /// oracle's plain run settled the verdict, every channel of every reported register
        /// ([`crate::point::identical`]).
        compared: usize,
    },
    /// Some channels differ (comparator order: `killed` first, then registers).
    Mismatch(Vec<Mismatch>),
    /// Some channels differ, and known-deviation rules of the engine cover the program
    /// ([`crate::known`]): reported, but not a divergence.
    Known {
        /// The ids of the covering rules.
        rules: Vec<String>,
        /// The differing channels.
        mismatches: Vec<Mismatch>,
    },
    /// The engine does not support something the program uses (the message names it).
    Unsupported(String),
    /// The engine failed where the oracle did not.
    Failed {
        /// How.
        kind: FailureKind,
        /// The engine's message.
        message: String,
    },
}

impl Outcome {
    /// A mismatch or a failure: something to report.
    pub fn diverged(&self) -> bool {
        matches!(self, Outcome::Mismatch(_) | Outcome::Failed { .. })
    }
}

/// One engine's outcome.
#[derive(Clone, Debug, PartialEq)]
pub struct EngineOutcome {
    /// Engine name.
    pub engine: String,
    /// What happened.
    pub outcome: Outcome,
}

/// Why the oracle itself produced nothing to compare against.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OracleProblem {
    /// The program uses something the oracle does not implement (exit status 3).
    Unsupported(String),
    /// The program or the inputs are invalid (exit status 2).
    BadInput(String),
    /// The oracle's run failed (step limit, call depth): nothing to compare.
    Failed(String),
}

impl OracleProblem {
    /// The message.
    pub fn message(&self) -> &str {
        match self {
            OracleProblem::Unsupported(m)
            | OracleProblem::BadInput(m)
            | OracleProblem::Failed(m) => m,
        }
    }
}

/// The comparison of one program and one input set across every engine.
#[derive(Clone, Debug, PartialEq)]
pub struct Diff {
    /// `Err` when the oracle could not run: then `engines` is empty.
    pub oracle: Result<(), OracleProblem>,
    /// One entry per engine of the [`Differ`], in its order.
    pub engines: Vec<EngineOutcome>,
    /// At least two engines ran, and on some channel all of them disagree with the oracle
    /// while agreeing with each other.
    pub oracle_suspect: bool,
}

impl Diff {
    /// Whether any engine diverged (mismatch or failure).
    pub fn diverged(&self) -> bool {
        self.engines.iter().any(|e| e.outcome.diverged())
    }

    /// Names of the engines that diverged, in engine order.
    pub fn diverging(&self) -> Vec<&str> {
        self.engines
            .iter()
            .filter(|e| e.outcome.diverged())
            .map(|e| e.engine.as_str())
            .collect()
    }

    /// Number of engines that reported the program unsupported.
    pub fn unsupported(&self) -> usize {
        self.engines
            .iter()
            .filter(|e| matches!(e.outcome, Outcome::Unsupported(_)))
            .count()
    }
}

/// Builds the engines called `names` (the oracle's name is skipped: it is always run as the
/// oracle) from the registry with step budget `step_limit`; fault `fault` is switched on in
/// the engine that owns it ([`backends::faults::config_for`]). Returns the engines and the
/// names this build does not have (for a one-time "not available" note).
pub fn engines_from_names(
    names: &[String],
    step_limit: u64,
    fault: Option<&str>,
) -> (Vec<Box<dyn Engine>>, Vec<String>) {
    engines_from_names_seeded(names, step_limit, fault, 0)
}

/// [`engines_from_names`] with the thread-schedule seed `seed`
/// ([`backends::EngineConfig::schedule_seed`]).
pub fn engines_from_names_seeded(
    names: &[String],
    step_limit: u64,
    fault: Option<&str>,
    seed: u64,
) -> (Vec<Box<dyn Engine>>, Vec<String>) {
    let mut engines: Vec<Box<dyn Engine>> = Vec::new();
    let mut missing = Vec::new();
    for name in names {
        if name == ORACLE || engines.iter().any(|e| e.name() == name) {
            continue;
        }
        let mut config = backends::faults::config_for(name, step_limit, fault);
        config.schedule_seed = seed;
        match backends::engine(name, &config) {
            Some(e) => engines.push(e),
            None => missing.push(name.clone()),
        }
    }
    (engines, missing)
}

/// Runs programs on the oracle and a set of engines and compares.
pub struct Differ {
    engines: Vec<Box<dyn Engine>>,
    classes: Vec<EngineClass>,
    contract: &'static PrecisionContract,
    interp: InterpConfig,
    opts: CompareOptions,
    /// `--denormals`; `None`: each engine class's own ([`crate::outcomes`]).
    denormals: Option<DenormalMode>,
    /// Known-deviation rules applied to mismatches ([`crate::known`]).
    known: Option<SharedKnown>,
}

/// Preparation results of one program, one per engine.
pub type Prepared = Vec<Result<Box<dyn Compiled>, EngineError>>;

impl Differ {
    /// A differ for `engines` (none of them the oracle), with the oracle's step budget
    /// `step_limit`, NaN policy `nan` and the built-in precision contract.
    ///
    /// # Errors
    /// An engine the contract gives no class (one line naming it).
    pub fn new(
        engines: Vec<Box<dyn Engine>>,
        step_limit: u64,
        nan: NanPolicy,
    ) -> Result<Differ, String> {
        let contract = PrecisionContract::builtin();
        let mut classes = Vec::new();
        for e in &engines {
            classes.push(contract.class_of_engine(e.name()).ok_or_else(|| {
                format!(
                    "engine `{}` has no class in the precision contract",
                    e.name()
                )
            })?);
        }
        Ok(Differ {
            engines,
            classes,
            contract,
            interp: InterpConfig { step_limit },
            opts: CompareOptions { nan },
            denormals: None,
            known: None,
        })
    }

    /// This differ with mismatches that `known` covers reported as [`Outcome::Known`].
    pub fn with_known(mut self, known: Option<SharedKnown>) -> Differ {
        self.known = known;
        self
    }

    /// This differ with the oracle admitting denormal evaluations `mode` for every engine
    /// (`None`: what each engine's class allows, `oracle/precision.toml`).
    pub fn with_denormals(mut self, mode: Option<DenormalMode>) -> Differ {
        self.denormals = mode;
        self
    }

    /// The denormal evaluations the oracle admits for engine `e`.
    pub fn denormal_mode(&self, e: usize) -> DenormalMode {
        self.denormals.unwrap_or_else(|| {
            DenormalMode::of_policy(self.contract.policy(self.classes[e]).denormals)
        })
    }

    /// The engines, in order.
    pub fn engines(&self) -> &[Box<dyn Engine>] {
        &self.engines
    }

    /// Engine names, in order.
    pub fn engine_names(&self) -> Vec<String> {
        self.engines.iter().map(|e| e.name().to_string()).collect()
    }

    /// Index of the engine called `name`.
    pub fn engine_index(&self, name: &str) -> Option<usize> {
        self.engines.iter().position(|e| e.name() == name)
    }

    /// The precision contract in use.
    pub fn contract(&self) -> &'static PrecisionContract {
        self.contract
    }

    /// The comparator options.
    pub fn options(&self) -> CompareOptions {
        self.opts
    }

    /// The oracle's outputs with the acceptance intervals of engine `e`'s class.
    ///
    /// # Errors
    /// The interpreter's error.
    pub fn oracle_for(
        &self,
        e: usize,
        program: &Program,
        inputs: &Inputs,
    ) -> Result<Outputs, ExecError> {
        self.oracle_in_order(e, program, inputs, interp::AtomicOrder::Own)
    }

    /// [`Differ::oracle_for`] with the atomics in `order` ([`interp::run_with`]).
    ///
    /// # Errors
    /// The interpreter's error.
    pub fn oracle_in_order(
        &self,
        e: usize,
        program: &Program,
        inputs: &Inputs,
        order: interp::AtomicOrder<'_>,
    ) -> Result<Outputs, ExecError> {
        let class = (self.contract, self.classes[e]);
        let mode = self.denormal_mode(e);
        interp::denormal::run_denormals(program, inputs, &self.interp, class, mode, order)
    }

    /// Prepares `program` on every engine (one by one).
    pub fn prepare(&self, program: &Program) -> Prepared {
        self.engines
            .iter()
            .map(|e| {
                within_limit(e.name(), program)
                    .and_then(|()| e.check(program))
                    .and_then(|()| e.prepare(program))
            })
            .collect()
    }

    /// Prepares many programs on every engine with [`Engine::prepare_batch`]: result `i` is
    /// `programs[i]`'s, one entry per engine.
    pub fn prepare_batch(&self, programs: &[&Program]) -> Vec<Prepared> {
        let mut out: Vec<Prepared> = programs.iter().map(|_| Vec::new()).collect();
        for e in &self.engines {
            // Programs over the engine's instruction limit never reach it.
            let fits: Vec<&Program> = programs
                .iter()
                .copied()
                .filter(|p| within_limit(e.name(), p).is_ok())
                .collect();
            let mut done = e.prepare_batch(&fits).into_iter();
            for (slot, p) in out.iter_mut().zip(programs) {
                slot.push(within_limit(e.name(), p).and_then(|()| {
                    done.next().unwrap_or_else(|| {
                        Err(EngineError::InvalidProgram {
                            pos: None,
                            message: format!("{} prepared fewer programs than given", e.name()),
                        })
                    })
                }));
            }
        }
        out
    }

    /// Runs `program` on the oracle and then on each engine alone, calling `begin(name)`
    /// before each, and discards the results: when a worker process dies on a program, the
    /// last `begin` names the engine that killed it (crash attribution, `shaderdiff::isolate`).
    pub fn run_each_engine(&self, program: &Program, inputs: &Inputs, begin: &mut dyn FnMut(&str)) {
        begin(ORACLE);
        if within_limit(ORACLE, program).is_ok() {
            let _ = interp::run(program, inputs, &self.interp);
        }
        for e in &self.engines {
            begin(e.name());
            let _ = within_limit(e.name(), program)
                .and_then(|()| e.check(program))
                .and_then(|()| e.execute(program, inputs));
        }
    }

    /// Compares `program` on `inputs` across every engine (prepares, runs, compares).
    pub fn diff(&self, program: &Program, inputs: &Inputs) -> Diff {
        let prepared = self.prepare(program);
        self.diff_prepared(program, inputs, &prepared)
    }

    /// Compares `program` on each input set, preparing it once.
    pub fn diff_inputs(&self, program: &Program, inputs: &[Inputs]) -> Vec<Diff> {
        let prepared = self.prepare(program);
        inputs
            .iter()
            .map(|i| self.diff_prepared(program, i, &prepared))
            .collect()
    }

    /// Compares many programs (each with its inputs), preparing them in batches.
    pub fn diff_batch(&self, items: &[(&Program, &Inputs)]) -> Vec<Diff> {
        let programs: Vec<&Program> = items.iter().map(|(p, _)| *p).collect();
        let prepared = self.prepare_batch(&programs);
        items
            .iter()
            .zip(&prepared)
            .map(|((p, i), prep)| self.diff_prepared(p, i, prep))
            .collect()
    }

    /// Compares `program` on `inputs` with code already prepared (`prepared[e]` for engine
    /// `e`). The oracle runs once per engine class, and only for the classes of engines
    /// whose outputs differ from its plain run ([`crate::point`]); the verdicts are the
    /// ones the interval run alone gives.
    pub fn diff_prepared(&self, program: &Program, inputs: &Inputs, prepared: &Prepared) -> Diff {
        if let Err(e) = within_limit(ORACLE, program) {
            return Diff {
                oracle: Err(OracleProblem::Unsupported(e.to_string())),
                engines: Vec::new(),
                oracle_suspect: false,
            };
        }
        // An oracle error takes the full path, which reports it before any engine runs.
        let point_run = interp::run(program, inputs, &self.interp);
        let point = point_run.as_ref().ok();
        let nan = crate::point::NanLeniency::new(program, self.opts.nan);
        let mut oracles: Vec<ClassOracle> = Vec::new();
        let mut engines = Vec::with_capacity(self.engines.len());
        for (e, engine) in self.engines.iter().enumerate() {
            let mode = self.denormal_mode(e);
            if !point.is_some_and(|p| crate::point::usable(p, mode)) {
                if let Err(problem) = self.oracle_of_class(e, program, inputs, &mut oracles) {
                    return problem;
                }
            }
            let ran = match prepared.get(e) {
                Some(Ok(code)) => engine.run(code.as_ref(), inputs),
                Some(Err(err)) => Err(err.clone()),
                None => Err(EngineError::InvalidProgram {
                    pos: None,
                    message: "not prepared".into(),
                }),
            };
            let outcome = match ran {
                Ok(actual) => {
                    match point.and_then(|p| crate::point::settles(p, mode, &actual, &nan)) {
                        Some(compared) => Outcome::Agree { compared },
                        None => {
                            match self.judge_lazily(e, program, inputs, &mut oracles, &actual) {
                                Ok(outcome) => outcome,
                                Err(problem) => return problem,
                            }
                        }
                    }
                }
                Err(err) => engine_failure(err),
            };
            let outcome = known::classify(self.known.as_deref(), engine.name(), program, outcome);
            engines.push(EngineOutcome {
                engine: engine.name().to_string(),
                outcome,
            });
        }
        if self.engines.is_empty() {
            // No engine to compare: still check the oracle accepts the program.
            if let Err(err) = point_run {
                return oracle_problem_diff(err);
            }
        }
        let oracle_suspect = oracle_suspect(&engines);
        Diff {
            oracle: Ok(()),
            engines,
            oracle_suspect,
        }
    }

    /// The oracle's first evaluation with the intervals of engine `e`'s class
    /// ([`interp::denormal::run_first`]), run once per class and kept in `oracles`: its
    /// index there. A failing oracle gives the [`Diff`] that reports it.
    fn oracle_of_class(
        &self,
        e: usize,
        program: &Program,
        inputs: &Inputs,
        oracles: &mut Vec<ClassOracle>,
    ) -> Result<usize, Diff> {
        let class = self.classes[e];
        if let Some(at) = oracles.iter().position(|o| o.class == class) {
            return Ok(at);
        }
        let mode = self.denormal_mode(e);
        let first = interp::denormal::run_first(
            program,
            inputs,
            &self.interp,
            (self.contract, class),
            mode,
            interp::AtomicOrder::Own,
        );
        match first {
            Ok((outputs, complete)) => {
                oracles.push(ClassOracle {
                    class,
                    outputs,
                    complete,
                });
                Ok(oracles.len() - 1)
            }
            Err(err) => Err(oracle_problem_diff(err)),
        }
    }

    /// Judges engine `e`'s outputs `actual` for `program` on `inputs` against the oracle's
    /// interval run for its class, as [`Differ::diff_prepared`] does when the plain run does
    /// not settle the verdict (the flushed evaluation only when needed).
    ///
    /// # Errors
    /// The [`Diff`] reporting a failing oracle.
    pub fn judge_by_intervals(
        &self,
        e: usize,
        program: &Program,
        inputs: &Inputs,
        actual: &Outputs,
    ) -> Result<Outcome, Diff> {
        self.judge_lazily(e, program, inputs, &mut Vec::new(), actual)
    }

    /// Judges engine `e`'s outputs `actual` ([`Differ::judge_run`]) against the oracle of
    /// its class, evaluating the oracle's flushed alternative only when the first
    /// evaluation does not accept them: the alternative only adds accepted values
    /// ([`interp::denormal::run_first`]), so the verdict is the one the whole oracle gives.
    fn judge_lazily(
        &self,
        e: usize,
        program: &Program,
        inputs: &Inputs,
        oracles: &mut Vec<ClassOracle>,
        actual: &Outputs,
    ) -> Result<Outcome, Diff> {
        let at = self.oracle_of_class(e, program, inputs, oracles)?;
        let oracle = &mut oracles[at];
        let outcome = self.judge_run(e, program, inputs, &oracle.outputs, actual);
        if oracle.complete || matches!(outcome, Outcome::Agree { .. }) {
            return Ok(outcome);
        }
        interp::denormal::add_flushed(
            program,
            inputs,
            &self.interp,
            (self.contract, oracle.class),
            interp::AtomicOrder::Own,
            &mut oracle.outputs,
        )
        .map_err(oracle_problem_diff)?;
        oracle.complete = true;
        Ok(self.judge_run(e, program, inputs, &oracle.outputs, actual))
    }

    /// Compares an engine's outputs with the oracle's.
    pub fn judge(
        &self,
        program: &Program,
        oracle: &Outputs,
        engine: &str,
        actual: &Outputs,
    ) -> Outcome {
        let both = |c: crate::output::Comparison| match outcomes::alternative(oracle) {
            Some(alt) if !c.agrees() => {
                match compare(program, alt, engine, actual, self.contract, &self.opts) {
                    Ok(d) => crate::output::Comparison {
                        mismatches: outcomes::union(c.mismatches, &d.mismatches),
                        ..c
                    },
                    Err(_) => c,
                }
            }
            _ => c,
        };
        match compare(program, oracle, engine, actual, self.contract, &self.opts).map(both) {
            Ok(c) if c.agrees() => Outcome::Agree {
                compared: c.compared,
            },
            Ok(c) => Outcome::Mismatch(c.mismatches),
            Err(e @ (CompareError::Invocations { .. } | CompareError::MissingRegister(_))) => {
                Outcome::Failed {
                    kind: FailureKind::Invalid,
                    message: e.to_string(),
                }
            }
            Err(e) => Outcome::Failed {
                kind: FailureKind::Invalid,
                message: format!("cannot compare: {e}"),
            },
        }
    }
}

/// One engine class's oracle for the program being judged ([`Differ::judge_lazily`]).
struct ClassOracle {
    class: EngineClass,
    /// The first evaluation, with the flushed alternative once `complete`.
    outputs: Outputs,
    /// Whether `outputs` is all the oracle gives (no flushed evaluation pending).
    complete: bool,
}

/// The [`Diff`] reporting a failing oracle.
fn oracle_problem_diff(e: ExecError) -> Diff {
    Diff {
        oracle: Err(oracle_problem(e)),
        engines: Vec::new(),
        oracle_suspect: false,
    }
}

fn oracle_problem(e: ExecError) -> OracleProblem {
    let m = format!("{ORACLE}: {e}");
    match e {
        ExecError::Unsupported { .. } | ExecError::UnsupportedFeature { .. } => {
            OracleProblem::Unsupported(m)
        }
        ExecError::InvalidProgram { .. } | ExecError::InvalidInputs(_) => {
            OracleProblem::BadInput(m)
        }
        ExecError::StepLimit { .. } | ExecError::CallDepth { .. } => OracleProblem::Failed(m),
    }
}

/// The outcome of an engine error when the oracle ran fine.
pub fn engine_failure(e: EngineError) -> Outcome {
    let kind = match &e {
        EngineError::Unsupported { .. } => return Outcome::Unsupported(e.to_string()),
        EngineError::Compile { .. } => FailureKind::Compile,
        EngineError::Trap { .. } => FailureKind::Trap,
        EngineError::StepLimit { .. } => FailureKind::StepLimit,
        EngineError::CallDepth { .. } => FailureKind::CallDepth,
        EngineError::InvalidProgram { .. } | EngineError::InvalidInputs(_) => FailureKind::Invalid,
    };
    Outcome::Failed {
        kind,
        message: e.to_string(),
    }
}

/// Whether at least two engines ran and, on some channel, every one of them mismatches the
/// oracle with the same word (or NaN for all).
fn oracle_suspect(engines: &[EngineOutcome]) -> bool {
    let ran: Vec<&Outcome> = engines
        .iter()
        .map(|e| &e.outcome)
        .filter(|o| matches!(o, Outcome::Agree { .. } | Outcome::Mismatch(_)))
        .collect();
    if ran.len() < 2 || ran.iter().any(|o| matches!(o, Outcome::Agree { .. })) {
        return false;
    }
    let lists: Vec<&Vec<Mismatch>> = ran
        .iter()
        .filter_map(|o| match o {
            Outcome::Mismatch(m) => Some(m),
            _ => None,
        })
        .collect();
    let same = |a: &str, b: &str| {
        a == b || (parse_word(a).is_some_and(is_nan) && parse_word(b).is_some_and(is_nan))
    };
    lists[0].iter().any(|m| {
        lists[1..].iter().all(|other| {
            other.iter().any(|n| {
                n.register == m.register
                    && n.invocation == m.invocation
                    && n.channel == m.channel
                    && same(&n.actual, &m.actual)
            })
        })
    })
}

fn parse_word(s: &str) -> Option<u32> {
    u32::from_str_radix(s.trim_start_matches("0x"), 16).ok()
}

fn is_nan(w: u32) -> bool {
    f32::from_bits(w).is_nan()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mm(engine: &str, actual: &str) -> Mismatch {
        Mismatch {
            engine: engine.into(),
            register: "OUT[0]".into(),
            invocation: 1,
            channel: "x".into(),
            ty: "f32".into(),
            expected: "0x3f800000".into(),
            actual: actual.into(),
            tolerance: "exact".into(),
            ulp_distance: None,
        }
    }

    fn outcome(engine: &str, o: Outcome) -> EngineOutcome {
        EngineOutcome {
            engine: engine.into(),
            outcome: o,
        }
    }

    #[test]
    fn oracle_is_suspect_only_when_every_engine_agrees_against_it() {
        let a = outcome("jit", Outcome::Mismatch(vec![mm("jit", "0x40000000")]));
        let b = outcome(
            "valhall",
            Outcome::Mismatch(vec![mm("valhall", "0x40000000")]),
        );
        let c = outcome(
            "valhall",
            Outcome::Mismatch(vec![mm("valhall", "0x40400000")]),
        );
        let nan1 = outcome("jit", Outcome::Mismatch(vec![mm("jit", "0x7fc00000")]));
        let nan2 = outcome(
            "valhall",
            Outcome::Mismatch(vec![mm("valhall", "0xffc00000")]),
        );
        let agree = outcome("valhall", Outcome::Agree { compared: 4 });
        let unsup = outcome("valhall", Outcome::Unsupported("x".into()));
        assert!(oracle_suspect(&[a.clone(), b.clone()]));
        assert!(oracle_suspect(&[nan1, nan2]));
        assert!(!oracle_suspect(&[a.clone(), c]));
        assert!(!oracle_suspect(&[a.clone(), agree]));
        assert!(!oracle_suspect(&[a.clone(), unsup]));
        assert!(!oracle_suspect(&[a]));
    }
}
