//! `shaderdiff diff PROGRAM|DIR... --recorded` (INTERFACE.md "Recorded results"): judges
//! results computed elsewhere as though the engine had run here.
//!
//! For each program `NAME.ext` with a `NAME.ENGINE.json` beside it (the `run --format json`
//! shape: `registers` by the program's register names, one `[x, y, z, w]` of `0x%08x`
//! words per invocation, `killed`; plus `engine`, `driver`, and the invocations to skip,
//! `inputs_not_carried` and `not_drawn`), the oracle runs the program on `NAME.inputs.json`
//! with ENGINE's precision class and denormal mode, skipped invocations are unconstrained,
//! and the recorded outputs are compared ([`Differ::judge`]). A diverging program is
//! `known ID` when a known-deviation rule of ENGINE ([`crate::triage`]) matches one of its
//! instructions. Registers the engine recorded that the program does not write are not
//! compared.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde_json::Value;
use shaderdiff_compare::output::Mismatch;
use shaderdiff_model::Program;
use shaderdiff_oracles::interp::{self, denormal::DenormalMode, InterpConfig};
use shaderdiff_oracles::precision::{NanPolicy, PrecisionContract};
use shaderdiff_oracles::{Inputs, Interval, Outputs, RegKey};

use crate::cli::{load_program_named, Failure, NvNames};
use crate::cmd::diff::{load_inputs_named, program_files, sibling_inputs, DiffArgs};
use crate::diff::{Differ, Outcome};
use crate::triage::Rules;

/// The verdict on one recorded result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Within the oracle's outcome sets.
    Agree,
    /// Diverges, and known-deviation rules (ids) of the engine cover the program.
    Known(Vec<String>),
    /// Diverges: the mismatching channels (registers named as the program names them).
    Mismatch(Vec<Mismatch>),
    /// The oracle does not support the program.
    Unsupported(String),
    /// The oracle failed on it, or the comparison could not be made.
    Error(String),
}

/// One recorded result file: the engine and what it computed.
pub struct Recorded {
    /// `engine` (from the file name `NAME.ENGINE.json`).
    pub engine: String,
    /// The outputs, with skipped invocations listed separately.
    pub outputs: Outputs,
    /// `inputs_not_carried` and `not_drawn`.
    pub skip: Vec<usize>,
}

/// The `NAME.ENGINE.json` files beside `program` (sorted), `NAME.inputs.json` excluded.
pub fn recorded_files(program: &Path) -> Vec<(String, PathBuf)> {
    let stem = program
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let dir = program.parent().unwrap_or(Path::new("."));
    let Ok(rd) = std::fs::read_dir(if dir.as_os_str().is_empty() {
        Path::new(".")
    } else {
        dir
    }) else {
        return Vec::new();
    };
    let prefix = format!("{stem}.");
    let mut out: Vec<(String, PathBuf)> = rd
        .flatten()
        .filter_map(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            let engine = name.strip_prefix(&prefix)?.strip_suffix(".json")?;
            (!engine.is_empty() && !engine.contains('.') && engine != "inputs")
                .then(|| (engine.to_string(), e.path()))
        })
        .collect();
    out.sort();
    out
}

/// Reads a recorded result for `program` (register names resolved with `names`).
///
/// # Errors
/// Unreadable file, bad JSON, a register the program does not have, a word that is not
/// `0x` hex, an invocation count other than `invocations`: [`Failure::BadInput`].
pub fn load_recorded(
    file: &Path,
    engine: &str,
    program: &Program,
    names: Option<&NvNames>,
    invocations: usize,
) -> Result<Recorded, Failure> {
    let at = file.display();
    let bad = |m: String| Failure::BadInput(format!("{at}: {m}"));
    let text = std::fs::read_to_string(file).map_err(|e| bad(format!("cannot read: {e}")))?;
    let v: Value = serde_json::from_str(&text).map_err(|e| bad(e.to_string()))?;
    let mut out = Outputs {
        invocations,
        ..Outputs::default()
    };
    let regs = v
        .get("registers")
        .and_then(Value::as_object)
        .ok_or_else(|| bad("no `registers` object".into()))?;
    for (name, list) in regs {
        // A register the program does not have (`result.color[1]` of a program writing
        // only `result.color`) was recorded by the harness, not computed: not compared.
        let Ok(key) = register_key(name, program, names) else {
            continue;
        };
        let rows = list
            .as_array()
            .ok_or_else(|| bad(format!("{name}: not a list")))?;
        if rows.len() != invocations {
            return Err(bad(format!(
                "{name}: {} invocations, the inputs have {invocations}",
                rows.len()
            )));
        }
        let vals = rows
            .iter()
            .map(|r| vec4(r).ok_or_else(|| bad(format!("{name}: not four 0x words"))))
            .collect::<Result<Vec<_>, _>>()?;
        out.registers.insert(key, vals);
    }
    if let Some(k) = v.get("killed").and_then(Value::as_array) {
        out.killed = Some(k.iter().map(|b| b.as_bool().unwrap_or(false)).collect());
    }
    let mut skip = Vec::new();
    for field in ["inputs_not_carried", "not_drawn"] {
        if let Some(list) = v.get(field).and_then(Value::as_array) {
            skip.extend(list.iter().filter_map(Value::as_u64).map(|i| i as usize));
        }
    }
    Ok(Recorded {
        engine: engine.to_string(),
        outputs: out,
        skip,
    })
}

fn register_key(name: &str, program: &Program, names: Option<&NvNames>) -> Result<RegKey, String> {
    if let Some(n) = names {
        if let Some(k) = crate::cli::nv_key(&n.names, n.stage, name) {
            return Ok(k);
        }
    }
    let _ = program;
    crate::value::parse_reg_name(name).map_err(|e| format!("register {name:?}: {e}"))
}

fn vec4(row: &Value) -> Option<[u32; 4]> {
    let a = row.as_array()?;
    if a.len() != 4 {
        return None;
    }
    let mut w = [0u32; 4];
    for (o, x) in w.iter_mut().zip(a) {
        *o = u32::from_str_radix(x.as_str()?.strip_prefix("0x")?, 16).ok()?;
    }
    Some(w)
}

/// Judges `recorded` for `program` on `inputs`: the oracle with the engine's class and
/// `mode` (`None`: the class's own), skipped invocations unconstrained, registers the
/// oracle does not report dropped, then [`Differ::judge`] and the engine's `rules`.
pub fn judge(
    program: &Program,
    text: &str,
    inputs: &Inputs,
    recorded: &Recorded,
    mode: Option<DenormalMode>,
    rules: &Rules,
) -> Verdict {
    let contract = PrecisionContract::builtin();
    let Some(class) = contract.class_of_engine(&recorded.engine) else {
        return Verdict::Error(format!(
            "engine `{}` has no class in the precision contract",
            recorded.engine
        ));
    };
    let mode = mode.unwrap_or_else(|| DenormalMode::of_policy(contract.policy(class).denormals));
    let config = InterpConfig::default();
    let order = interp::AtomicOrder::Own;
    let mut oracle = match interp::denormal::run_denormals(
        program,
        inputs,
        &config,
        (contract, class),
        mode,
        order,
    ) {
        Ok(o) => o,
        Err(
            e @ (interp::ExecError::Unsupported { .. }
            | interp::ExecError::UnsupportedFeature { .. }),
        ) => return Verdict::Unsupported(e.to_string()),
        Err(e) => return Verdict::Error(e.to_string()),
    };
    skip_invocations(&mut oracle, &recorded.skip);
    if let Some(alt) = oracle.denormal_alternative.as_deref_mut() {
        skip_invocations(alt, &recorded.skip);
    }
    let mut actual = recorded.outputs.clone();
    actual
        .registers
        .retain(|k, _| oracle.registers.contains_key(k));
    if oracle.killed.is_none() {
        actual.killed = None;
    }
    let differ = match Differ::new(Vec::new(), config.step_limit, NanPolicy::Any) {
        Ok(d) => d,
        Err(e) => return Verdict::Error(e),
    };
    match differ.judge(program, &oracle, &recorded.engine, &actual) {
        Outcome::Agree { .. } => Verdict::Agree,
        Outcome::Mismatch(ms) => {
            let ids: Vec<String> = rules
                .matching(text)
                .iter()
                .filter(|r| r.engine == recorded.engine)
                .map(|r| r.id.clone())
                .collect();
            if ids.is_empty() {
                Verdict::Mismatch(ms)
            } else {
                Verdict::Known(ids)
            }
        }
        // `judge` applies no rules itself (this differ has none).
        Outcome::Known { rules, .. } => Verdict::Known(rules),
        Outcome::Failed { message, .. } => Verdict::Error(message),
        Outcome::Unsupported(m) => Verdict::Unsupported(m),
    }
}

/// Marks invocations `skip` unconstrained: nothing of theirs is compared.
fn skip_invocations(o: &mut Outputs, skip: &[usize]) {
    if skip.is_empty() {
        return;
    }
    let n = o.invocations;
    let ivs = o.intervals.get_or_insert_with(Default::default);
    ivs.unconstrained.resize(n, false);
    for &i in skip.iter().filter(|&&i| i < n) {
        ivs.unconstrained[i] = true;
        for list in ivs.channels.values_mut() {
            if let Some(c) = list.get_mut(i) {
                *c = [Interval::ANY; 4];
            }
        }
    }
}

/// The line `diff --recorded` prints for `verdict` (INTERFACE.md "Recorded results").
pub fn line(name: &str, engine: &str, verdict: &Verdict) -> String {
    match verdict {
        Verdict::Agree => format!("{name}: agree (interp vs {engine}, recorded)\n"),
        Verdict::Known(ids) => {
            format!(
                "{name}: known {} (interp vs {engine}, recorded)\n",
                ids.join(",")
            )
        }
        Verdict::Mismatch(ms) => {
            let mut s = format!(
                "{name}: MISMATCH: {engine} diverged from interp ({} differing channel{}, recorded)\n",
                ms.len(),
                if ms.len() == 1 { "" } else { "s" }
            );
            for m in ms.iter().take(10) {
                s.push_str(&format!(
                    "  {}[{}].{}: expected {}, actual {} ({})\n",
                    m.register, m.invocation, m.channel, m.expected, m.actual, m.tolerance
                ));
            }
            s
        }
        Verdict::Unsupported(why) => format!("{name}: unsupported: nothing compared\n  {why}\n"),
        Verdict::Error(why) => format!("{name}: error: {why}\n"),
    }
}

/// Counts of verdicts, for the summary on stderr.
#[derive(Default)]
struct Tally {
    counts: BTreeMap<&'static str, usize>,
}

/// Runs `diff --recorded`; returns the exit status (as `diff`: 2 bad input, 1 a mismatch
/// or an oracle error, 3 nothing compared, 0 otherwise).
pub fn execute(args: &DiffArgs) -> u8 {
    let files = match program_files(&args.paths) {
        Ok(f) => f,
        Err(f) => {
            eprintln!("{}", f.message());
            return f.code();
        }
    };
    let mode = args.engines.denormals.map(Into::into);
    let mut rules: BTreeMap<String, Rules> = BTreeMap::new();
    let (mut bad, mut diverged, mut compared) = (false, false, false);
    let mut tally = Tally::default();
    for file in &files {
        let name = file.display().to_string();
        for (engine, rec) in recorded_files(file) {
            if !rules.contains_key(&engine) {
                match Rules::for_engine(&engine) {
                    Ok(r) => rules.insert(engine.clone(), r),
                    Err(e) => {
                        eprintln!("{e}");
                        return 2;
                    }
                };
            }
            let verdict = match one(file, &engine, &rec, mode, &rules[&engine]) {
                Ok(v) => v,
                Err(f) => {
                    eprintln!("{}", f.message());
                    bad = true;
                    continue;
                }
            };
            let key = match &verdict {
                Verdict::Agree => "agree",
                Verdict::Known(_) => "known",
                Verdict::Mismatch(_) => "mismatch",
                Verdict::Unsupported(_) => "unsupported",
                Verdict::Error(_) => "error",
            };
            *tally.counts.entry(key).or_default() += 1;
            compared |= matches!(key, "agree" | "known" | "mismatch");
            diverged |= matches!(key, "mismatch" | "error");
            if let Err(f) = crate::cli::emit(&line(&name, &engine, &verdict)) {
                eprintln!("{}", f.message());
                return f.code();
            }
        }
    }
    let summary: Vec<String> = tally
        .counts
        .iter()
        .map(|(k, n)| format!("{n} {k}"))
        .collect();
    eprintln!("shaderdiff: recorded: {}", summary.join(", "));
    if bad {
        2
    } else if diverged {
        1
    } else if !compared {
        3
    } else {
        0
    }
}

fn one(
    file: &Path,
    engine: &str,
    rec: &Path,
    mode: Option<DenormalMode>,
    rules: &Rules,
) -> Result<Verdict, Failure> {
    let (program, names, loaded) = match load_program_named(file) {
        Ok((p, n)) => (p, n, file.to_path_buf()),
        Err(Failure::Unsupported(m)) => return Ok(Verdict::Unsupported(m)),
        // The suite's text fails to load (e.g. `result.color[1]` without `OPTION
        // ARB_draw_buffers`, NV_fragment_program4 §2.X.3.5), but the capture holds the text
        // the driver actually ran (`NAME.gl.fp` / `NAME.gl.vp`, ../shared/captures README:
        // a transport rewrite that changes no computation): judge that program.
        Err(f) => match driver_text(file) {
            Some(g) => match load_program_named(&g) {
                Ok((p, n)) => (p, n, g),
                Err(Failure::Unsupported(m)) => return Ok(Verdict::Unsupported(m)),
                Err(_) => return Err(f),
            },
            None => return Err(f),
        },
    };
    let text = crate::lang::read_text(&loaded).map_err(Failure::BadInput)?;
    let sibling = sibling_inputs(file);
    let mut sets = vec![if sibling.is_file() {
        load_inputs_named(&sibling, &program, None, names.as_ref())?
    } else {
        crate::inputs::defaults(&program, None).map_err(|e| Failure::BadInput(e.to_string()))?
    }];
    crate::common::prepare_sets(
        &program,
        names.as_ref(),
        &mut sets,
        &file.display().to_string(),
    )?;
    let inputs = &sets[0];
    let recorded = load_recorded(rec, engine, &program, names.as_ref(), inputs.invocations)?;
    // An internal error of the oracle on one program is reported for that program, and
    // the other programs are still judged.
    let judged = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        judge(&program, &text, inputs, &recorded, mode, rules)
    }));
    let mut v = judged.unwrap_or_else(|_| Verdict::Error("internal error in the oracle".into()));
    if let (Verdict::Mismatch(ms), Some(n)) = (&mut v, &names) {
        for m in ms.iter_mut() {
            m.register = n.rename(&m.register);
        }
    }
    Ok(v)
}

/// The text a capture sent to the driver beside `file` (`NAME.gl.fp` for a fragment
/// program, `NAME.gl.vp` for a vertex program), if the capture has one.
fn driver_text(file: &Path) -> Option<PathBuf> {
    let stem = file.file_stem()?.to_str()?;
    let ext = file.extension()?.to_str()?;
    let gl = match ext {
        "nvfp" | "arbfp" => "gl.fp",
        "nvvp" | "arbvp" => "gl.vp",
        _ => return None,
    };
    let g = file.with_file_name(format!("{stem}.{gl}"));
    g.is_file().then_some(g)
}
