//! One chunk of a campaign ([`crate::fuzz`]): generate the programs of a range of stream
//! positions, compare them, locate and record what diverges. The same code runs inside a
//! worker process ([`crate::fuzz_worker`]) or in the campaign's own process
//! (`--in-process`); what differs is the [`Hooks`] it reports through.
//!
//! **Findings.** A diverging engine's first divergence is located ([`locate`]) and its
//! signature claimed ([`Hooks::claim`]: the campaign decides which program records a
//! signature: the lowest index, [`crate::fuzz_staging`]). The program that wins the claim
//! writes (staged until its chunk commits) `DIR/findings/<signature>/` (`program.tgsi`, `program.inputs.json`, `inputs.json`,
//! `report.json`, `finding.json`) at once, then reduces it ([`reduce`]) and writes
//! `reduced.tgsi`, `inputs.json` (the reduced inputs) and `report.json` (the reduced
//! program's report). When the oracle is suspect (two or more engines agree against it) the
//! signature names the oracle (`interp-...`).

use serde::{Deserialize, Serialize};
use shaderdiff_generators::nv::NV_GENERATOR_VERSION;
use shaderdiff_generators::GENERATOR_VERSION;
use shaderdiff_results::{Signature, Store, StoreError};

use crate::diff::{Diff, Differ, ORACLE};
use crate::fuzz::{fingerprint, stream_index, Campaign};
use crate::fuzz_item::{item, FuzzItem};
use crate::inputs_json;
use crate::reduce::nv::reduce_nv;
use crate::reduce::{reduce, size, stamped_text};
use crate::report::{DiffReport, SignatureRecord};
use crate::signature::{locate, Divergence};

/// Phase name of a program being compared (after the per-engine runs of single mode).
pub const PHASE_COMPARE: &str = "compare";
/// Phase name of a finding being reduced (the supervisor allows the reduction budget).
pub const PHASE_REDUCE: &str = "reduce";

/// One signature a program showed.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Hit {
    /// The signature.
    pub signature: String,
    /// This program won the claim and wrote the finding's directory.
    pub recorded: bool,
    /// Instructions of the reduced program, when it was recorded and reduced.
    pub reduced_instructions: Option<usize>,
}

/// What one program of the stream came to.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProgramResult {
    /// Stream position (`k`).
    pub position: u64,
    /// Campaign program index ([`stream_index`]).
    pub index: u64,
    /// [`fingerprint`] of the program text.
    pub fingerprint: u64,
    /// The oracle could not run it: nothing compared.
    pub oracle_skipped: bool,
    /// Engines that reported it unsupported.
    pub unsupported: u64,
    /// Some engine diverged (mismatch, failure, crash or timeout).
    pub mismatch: bool,
    /// Its worker ran out of resources: not compared, not a mismatch.
    pub poisoned: bool,
    /// The signatures it showed.
    pub hits: Vec<Hit>,
}

/// How a chunk reports.
pub trait Hooks {
    /// The program at stream `position` enters `phase`: an engine name (single mode runs it
    /// on each engine alone first), [`PHASE_COMPARE`] or [`PHASE_REDUCE`].
    fn begin(&mut self, position: u64, phase: &str);
    /// Whether the program `index` is the first to show `signature` and should record it.
    fn claim(&mut self, signature: &str, index: u64) -> bool;
    /// A program is done.
    fn result(&mut self, result: ProgramResult);
}

/// Everything a chunk needs.
pub struct Runner<'a> {
    /// The campaign.
    pub campaign: &'a Campaign,
    /// Compares.
    pub differ: &'a Differ,
    /// Reduces (the same engines with a small step budget).
    pub reducer: &'a Differ,
    /// Where findings go.
    pub store: &'a Store,
}

impl Runner<'_> {
    /// The program at stream position `k` (TGSI or NV by the campaign's `--lang`).
    pub fn generate(&self, k: u64) -> FuzzItem {
        item(self.campaign, stream_index(self.campaign.shard, k))
    }

    /// Runs stream positions `first..last`. Batch mode (`single == false`) prepares them
    /// in one batch per engine (one jit code module) and reports `begin(k, compare)` before
    /// each comparison; single mode first runs each program on every engine alone, with a
    /// `begin` per engine, so a crash can be pinned on an engine.
    ///
    /// # Errors
    /// A finding file that could not be written.
    pub fn run_chunk(
        &self,
        first: u64,
        last: u64,
        single: bool,
        hooks: &mut dyn Hooks,
    ) -> Result<(), StoreError> {
        let generated: Vec<(u64, FuzzItem)> =
            (first..last).map(|k| (k, self.generate(k))).collect();
        if single {
            for (k, g) in &generated {
                self.differ
                    .run_each_engine(&g.program, &g.inputs, &mut |name| hooks.begin(*k, name));
                hooks.begin(*k, PHASE_COMPARE);
                let d = self.differ.diff(&g.program, &g.inputs);
                self.handle(*k, g, &d, hooks)?;
            }
            return Ok(());
        }
        let programs: Vec<&shaderdiff_model::Program> =
            generated.iter().map(|(_, g)| &g.program).collect();
        let prepared = self.differ.prepare_batch(&programs);
        for ((k, g), prep) in generated.iter().zip(&prepared) {
            hooks.begin(*k, PHASE_COMPARE);
            let d = self.differ.diff_prepared(&g.program, &g.inputs, prep);
            self.handle(*k, g, &d, hooks)?;
        }
        Ok(())
    }

    /// Turns one comparison into a [`ProgramResult`], recording new findings.
    fn handle(
        &self,
        k: u64,
        g: &FuzzItem,
        d: &Diff,
        hooks: &mut dyn Hooks,
    ) -> Result<(), StoreError> {
        let mut r = ProgramResult {
            position: k,
            index: g.index,
            fingerprint: fingerprint(&g.text),
            ..ProgramResult::default()
        };
        if d.oracle.is_err() {
            r.oracle_skipped = true;
            hooks.result(r);
            return Ok(());
        }
        if crate::resource::exhausted_engine(d).is_some() {
            // Out of memory (crate::resource): not the engine's fault, not compared.
            r.poisoned = true;
            hooks.result(r);
            return Ok(());
        }
        r.unsupported = d.unsupported() as u64;
        r.mismatch = d.diverged();
        for (e, o) in d.engines.iter().enumerate() {
            if !o.outcome.diverged() {
                continue;
            }
            let div = locate(self.differ, e, &g.program, &g.inputs, &o.outcome);
            let mut sig = div.signature.clone();
            if d.oracle_suspect {
                sig = Signature::new(ORACLE, &sig.class, &sig.ty);
            }
            let name = sig.to_string();
            if r.hits.iter().any(|h| h.signature == name) {
                continue;
            }
            let mut hit = Hit {
                signature: name.clone(),
                ..Hit::default()
            };
            if hooks.claim(&name, g.index) {
                hit.recorded = true;
                hooks.begin(k, PHASE_REDUCE);
                hit.reduced_instructions = self.record(g, d, e, &sig, &div)?;
            }
            r.hits.push(hit);
        }
        hooks.result(r);
        Ok(())
    }

    /// The replay command of a finding whose program file has extension `ext`.
    pub fn replay(&self, ext: &str) -> String {
        let mut s = format!(
            "shaderdiff diff reduced.{ext} --inputs inputs.json --backends {},{}",
            ORACLE,
            self.differ.engine_names().join(",")
        );
        if let Some(f) = &self.campaign.fault {
            s.push_str(&format!(" --inject-fault {f}"));
        }
        s
    }

    /// Writes a new finding, reduces it and writes the reduction; returns the reduced size.
    fn record(
        &self,
        g: &FuzzItem,
        d: &Diff,
        e: usize,
        sig: &Signature,
        div: &Divergence,
    ) -> Result<Option<usize>, StoreError> {
        // Staged until its chunk commits (crate::fuzz_staging).
        let staged = crate::fuzz_staging::staged(self.store, g.index)?;
        let st = &staged;
        let engines = self.differ.engine_names();
        write_original(st, sig, g)?;
        let engine = &engines[e];
        let report = DiffReport::new(
            &format!("program.{}", g.ext()),
            &engines,
            std::slice::from_ref(d),
            vec![SignatureRecord::new(div, engine)],
        );
        st.write_finding_file(sig, "report.json", &report.to_json_pretty())?;
        let meta = |reduced: Option<usize>| {
            serde_json::json!({
                "signature": sig.to_string(),
                "engine": engine,
                "seed": self.campaign.seed,
                "index": g.index,
                "generator_version": GENERATOR_VERSION,
                "nv_generator_version": g.is_nv().then_some(NV_GENERATOR_VERSION),
                "fault": self.campaign.fault,
                "first_instruction": div.instruction,
                "first_opcode": div.opcode.map(|o| o.name()),
                "original_instructions": original_size(g),
                "reduced_instructions": reduced,
                "replay": self.replay(g.ext()),
                "binary": binary(),
            })
        };
        st.write_finding_file(sig, "finding.json", &pretty(&meta(None)))?;
        if !self.campaign.reduce {
            return Ok(None);
        }
        if g.is_nv() {
            return self.record_nv(g, e, sig, div, &meta);
        }
        let opts = crate::cpu_clock::reduce_options(
            self.campaign.reduce_time,
            self.campaign.reduce_cpu_time,
        );
        let target = &div.signature;
        let reduced = reduce(self.reducer, e, &g.program, &g.inputs, Some(target), &opts)
            .ok()
            .or_else(|| {
                // The original may need more steps than reduction candidates get.
                reduce(self.differ, e, &g.program, &g.inputs, Some(target), &opts).ok()
            });
        let Some(r) = reduced else { return Ok(None) };
        let text = stamped_text(
            &r,
            &format!("program.tgsi (seed {} index {})", g.seed, g.index),
        );
        st.write_finding_file(sig, "inputs.json", &inputs_json::to_json(&r.inputs))?;
        st.write_finding_file(sig, "reduced.tgsi", &text)?;
        let diff = self.differ.diff(&r.program, &r.inputs);
        let report = DiffReport::new(
            "reduced.tgsi",
            &engines,
            std::slice::from_ref(&diff),
            vec![SignatureRecord::new(&r.divergence, engine)],
        );
        st.write_finding_file(sig, "report.json", &report.to_json_pretty())?;
        let n = size(&r.program);
        st.write_finding_file(sig, "finding.json", &pretty(&meta(Some(n))))?;
        Ok(Some(n))
    }

    /// Reduces an NV finding ([`reduce_nv`]) and writes `reduced.nv` (canonical NV text),
    /// NV-keyed `inputs.json` and the reduced `report.json`; returns the reduced size.
    fn record_nv(
        &self,
        g: &FuzzItem,
        e: usize,
        sig: &Signature,
        div: &Divergence,
        meta: &dyn Fn(Option<usize>) -> serde_json::Value,
    ) -> Result<Option<usize>, StoreError> {
        let staged = crate::fuzz_staging::staged(self.store, g.index)?;
        let st = &staged;
        let engines = self.differ.engine_names();
        let Ok(ast) = shaderdiff_nv::parse(&g.text, "program.nv") else {
            return Ok(None);
        };
        let opts = crate::cpu_clock::reduce_options(
            self.campaign.reduce_time,
            self.campaign.reduce_cpu_time,
        );
        let target = &div.signature;
        let reduced = reduce_nv(self.reducer, e, &ast, &g.inputs, Some(target), &opts)
            .ok()
            .or_else(|| reduce_nv(self.differ, e, &ast, &g.inputs, Some(target), &opts).ok());
        let Some(r) = reduced else { return Ok(None) };
        let text = r.stamped_text(&format!("program.nv (seed {} index {})", g.seed, g.index));
        let inputs = inputs_json::to_json_nv(&r.inputs, &r.lowered.names);
        st.write_finding_file(sig, "inputs.json", &inputs)?;
        st.write_finding_file(sig, "reduced.nv", &text)?;
        let diff = self.differ.diff(&r.lowered.program, &r.inputs);
        let report = DiffReport::new(
            "reduced.nv",
            &engines,
            std::slice::from_ref(&diff),
            vec![SignatureRecord::new(&r.divergence, &engines[e])],
        );
        st.write_finding_file(sig, "report.json", &report.to_json_pretty())?;
        let n = r.size();
        st.write_finding_file(sig, "finding.json", &pretty(&meta(Some(n))))?;
        Ok(Some(n))
    }
}

/// Instructions of a finding's original program: NV instructions for NV programs (the
/// unit `reduced_instructions` counts in for them), IR instructions otherwise.
pub(crate) fn original_size(g: &FuzzItem) -> usize {
    match shaderdiff_nv::parse(&g.text, "program.nv") {
        Ok(p) if g.is_nv() => crate::reduce::nv::insn_count(&p),
        _ => size(&g.program),
    }
}

/// The absolute path of the binary that made a finding (`finding.json`'s `binary`): its
/// `replay` command names `shaderdiff`, which must be that binary or another of the same
/// version on PATH.
pub fn binary() -> String {
    std::env::current_exe()
        .map(|p| p.display().to_string())
        .unwrap_or_else(|_| "unknown (replay assumes `shaderdiff` on PATH)".into())
}

/// Pretty JSON with a final newline.
pub fn pretty(v: &serde_json::Value) -> String {
    serde_json::to_string_pretty(v).unwrap_or_default() + "\n"
}

/// Writes a finding's original program and inputs, and the same as its reproducer until a
/// reduction replaces it (`program.EXT`, `program.inputs.json`, `reduced.EXT`,
/// `inputs.json`; EXT is `tgsi` or `nv`, NV inputs keyed by NV names).
///
/// # Errors
/// A file that could not be written.
pub fn write_original(st: &Store, sig: &Signature, g: &FuzzItem) -> Result<(), StoreError> {
    let inputs_text = g.inputs_json();
    let ext = g.ext();
    st.write_finding_file(sig, &format!("program.{ext}"), &g.text)?;
    st.write_finding_file(sig, "program.inputs.json", &inputs_text)?;
    st.write_finding_file(sig, &format!("reduced.{ext}"), &g.text)?;
    st.write_finding_file(sig, "inputs.json", &inputs_text)?;
    Ok(())
}
