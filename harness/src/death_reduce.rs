//! Reducing crash and hang findings (TGSI programs on the IR, NV / ARB programs as NV
//! assembly): a candidate is kept when running it alone on the engine, in a fresh process
//! (`shaderdiff run CANDIDATE --backend ENGINE`), dies the same way as the original: the
//! same crash class (`sigsegv`, `sigabrt`, `stack_overflow`, ...) or a timeout. Each candidate costs one process, so the reduction's time budget bounds
//! it; a hang costs a whole candidate timeout, which is capped at
//! [`HANG_CANDIDATE_TIMEOUT`].

use std::path::PathBuf;
use std::time::Duration;

use shaderdiff_model::Program;
use shaderdiff_oracles::Inputs;
use shaderdiff_results::Signature;
use shaderdiff_tgsi::{print_with, PrintOptions};

use crate::inputs_json;
use crate::isolate::{run_once, Death, WorkerSpec};
use crate::reduce::nv::{reduce_nv_with, ReducedNv};
use crate::reduce::{reduce_with, ReduceOptions, Reduced};
use shaderdiff_nv::{self as nv, NvProgram};

/// Longest a candidate of a hang finding may run before it counts as hanging.
pub const HANG_CANDIDATE_TIMEOUT: Duration = Duration::from_secs(2);

/// How the original died, and how to run a candidate.
#[derive(Clone, Debug)]
pub struct DeathCase {
    /// The engine it died on (`interp`, `jit`, `valhall`).
    pub engine: String,
    /// How it died.
    pub death: Death,
    /// `--inject-fault` of the campaign.
    pub fault: Option<String>,
    /// `--step-limit` of the campaign.
    pub step_limit: u64,
    /// The campaign's per-program timeout.
    pub timeout: Duration,
    /// Address-space limit of the candidate processes.
    pub memory_limit: Option<u64>,
}

/// Whether two deaths are the same finding.
fn alike(want: &Death, got: &Death) -> bool {
    match (want, got) {
        (Death::Crash { class: a, .. }, Death::Crash { class: b, .. }) => a == b,
        (Death::Timeout, Death::Timeout) => true,
        _ => false,
    }
}

/// A scratch directory for candidate files, removed when dropped.
struct Scratch(PathBuf);

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Reduces a program that kills its engine, keeping the way it dies. `None` when the
/// engine cannot replay a candidate in a fresh process (the registry's
/// [`shaderdiff_backends::EngineDescriptor::reduce_deaths`]), the original does not die alike when run alone (a death
/// that needs the batch it came in), or no scratch directory can be made.
pub fn reduce_death(
    case: &DeathCase,
    program: &Program,
    inputs: &Inputs,
    signature: &Signature,
    opts: &ReduceOptions,
) -> Option<Reduced> {
    let cand = Candidate::new(case, "tgsi")?;
    let mut keep = |p: &Program, i: &Inputs| -> bool {
        let text = print_with(p, &PrintOptions { lossless: true });
        cand.dies_alike(case, &text, &inputs_json::to_json(i))
    };
    reduce_with(program, inputs, signature, &mut keep, opts).ok()
}

/// [`reduce_death`] for an NV / ARB program: candidates are NV programs
/// ([`reduce_nv_with`]), written as canonical NV text with NV-keyed inputs, so that an
/// engine that runs the assembly itself (`nvidia`) sees each candidate as a program file.
/// `None` as for [`reduce_death`], or when the program does not lower.
pub fn reduce_death_nv(
    case: &DeathCase,
    program: &NvProgram,
    inputs: &Inputs,
    signature: &Signature,
    opts: &ReduceOptions,
) -> Option<ReducedNv> {
    let cand = Candidate::new(case, "nv")?;
    let mut keep = |p: &NvProgram, l: &nv::Lowered, i: &Inputs| -> bool {
        let json = inputs_json::to_json_nv(i, &l.names);
        cand.dies_alike(case, &nv::print(p), &json)
    };
    reduce_nv_with(program, inputs, signature, &mut keep, opts).ok()
}

/// Where candidates of one reduction are written, and how one is run.
struct Candidate {
    scratch: Scratch,
    program: PathBuf,
    inputs: PathBuf,
    spec: WorkerSpec,
    timeout: Duration,
}

impl Candidate {
    /// `None` when the engine cannot replay a candidate in a fresh process (the registry's
    /// [`shaderdiff_backends::EngineDescriptor::reduce_deaths`]) or no scratch directory
    /// can be made; `ext`: the candidate file's extension (`tgsi`, `nv`).
    fn new(case: &DeathCase, ext: &str) -> Option<Candidate> {
        let replayable = shaderdiff_backends::REGISTRY
            .get(&case.engine)
            .is_some_and(|d| d.reduce_deaths);
        if !replayable {
            return None;
        }
        static SERIAL: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        let n = SERIAL.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let dir = std::env::temp_dir().join(format!("shaderdiff-death-{}-{n}", std::process::id()));
        std::fs::create_dir_all(&dir).ok()?;
        let scratch = Scratch(dir);
        let program = scratch.0.join(format!("candidate.{ext}"));
        let inputs = scratch.0.join("candidate.inputs.json");
        let timeout = match case.death {
            Death::Timeout => case.timeout.min(HANG_CANDIDATE_TIMEOUT),
            _ => case.timeout,
        };
        let mut args: Vec<String> = vec![
            "run".into(),
            program.display().to_string(),
            "--backend".into(),
            case.engine.clone(),
            "--inputs".into(),
            inputs.display().to_string(),
            "--step-limit".into(),
            case.step_limit.to_string(),
        ];
        if let Some(f) = &case.fault {
            args.extend(["--inject-fault".into(), f.clone()]);
        }
        let spec = WorkerSpec {
            args: args.into_iter().map(Into::into).collect(),
            memory_limit: case.memory_limit,
        };
        Some(Candidate {
            scratch,
            program,
            inputs,
            spec,
            timeout,
        })
    }

    /// Writes the candidate and runs it alone: whether it dies as the original did.
    fn dies_alike(&self, case: &DeathCase, program: &str, inputs: &str) -> bool {
        debug_assert!(self.program.starts_with(&self.scratch.0));
        if std::fs::write(&self.program, program).is_err()
            || std::fs::write(&self.inputs, inputs).is_err()
        {
            return false;
        }
        matches!(run_once(&self.spec, self.timeout), Ok(Some(d)) if alike(&case.death, &d))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deaths_match_by_class() {
        let segv = Death::Crash {
            class: "sigsegv".into(),
            detail: "a".into(),
        };
        let segv2 = Death::Crash {
            class: "sigsegv".into(),
            detail: "b".into(),
        };
        let abrt = Death::Crash {
            class: "sigabrt".into(),
            detail: String::new(),
        };
        assert!(alike(&segv, &segv2));
        assert!(!alike(&segv, &abrt));
        assert!(alike(&Death::Timeout, &Death::Timeout));
        assert!(!alike(&Death::Timeout, &segv));
    }
}
