//! Known-deviation rules: machine-readable verdicts on an engine's departures from the
//! specification (`results/triage/ENGINE/*.toml`, format in docs/triage.md).
//!
//! A rule names an opcode (NV / ARB mnemonic or TGSI opcode), the suffix modifiers an
//! instruction must carry (`F`, `S64`, `SAT`, `CC` ...), and optionally a regular expression
//! its operand text must match (`-\|` for a `-|x|` operand); what the driver computes,
//! the specification text it departs from, and a reproducer of at most four instructions.
//! A diverging program is `known RULE` when one of its instructions matches a rule of the
//! engine: the verdict is per program, like deqp-runner's baselines are per test, so a rule
//! must be narrow enough that every program it matches diverges only in the triaged way.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use regex::Regex;
use serde::Deserialize;
use shaderdiff_compare::known::{KnownDeviations, SharedKnown};
use shaderdiff_model::Program;
use shaderdiff_nv::NvOrigin;

/// The most instructions a rule's reproducer may have (`END` and declarations excluded).
pub const MAX_REPRODUCER_INSTRUCTIONS: usize = 4;

/// One rule as written in its file.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawRule {
    id: String,
    engine: String,
    opcode: String,
    #[serde(default)]
    modifiers: Vec<String>,
    #[serde(default)]
    without_modifiers: Vec<String>,
    #[serde(default)]
    any_modifiers: Vec<String>,
    #[serde(default)]
    operands: Option<String>,
    driver: String,
    spec: String,
    reproducer: String,
}

/// A loaded rule.
#[derive(Clone, Debug)]
pub struct Rule {
    /// Identifier printed in `known ID`.
    pub id: String,
    /// The engine whose deviation this is (`nvidia`).
    pub engine: String,
    /// Opcode mnemonic, upper case, without modifiers (`UP2H`, `CVT`, `I2F`).
    pub opcode: String,
    /// Suffix modifiers that must all be present (upper case: `F`, `S64`, `SAT`).
    pub modifiers: Vec<String>,
    /// Suffix modifiers that must all be absent.
    pub without_modifiers: Vec<String>,
    /// Suffix modifiers of which at least one must be present (empty: no condition).
    pub any_modifiers: Vec<String>,
    /// Pattern the operand text (after the mnemonic) must match.
    pub operands: Option<Regex>,
    /// What the driver computes.
    pub driver: String,
    /// The specification text (with its section) the driver departs from.
    pub spec: String,
    /// A program of at most [`MAX_REPRODUCER_INSTRUCTIONS`] instructions showing it.
    pub reproducer: String,
    /// The file it came from.
    pub file: PathBuf,
}

/// The rules of one engine.
#[derive(Clone, Debug, Default)]
pub struct Rules {
    /// In file-name order.
    pub rules: Vec<Rule>,
}

impl Rules {
    /// Loads every `*.toml` of `dir` (absent directory: no rules).
    ///
    /// # Errors
    /// An unreadable or malformed file, an unknown field, a bad operand pattern, a
    /// reproducer that does not match its own rule or has more than four instructions:
    /// one line naming the file.
    pub fn load(dir: &Path) -> Result<Rules, String> {
        let Ok(rd) = std::fs::read_dir(dir) else {
            return Ok(Rules::default());
        };
        let mut files: Vec<PathBuf> = rd
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|x| x == "toml"))
            .collect();
        files.sort();
        let rules = files
            .iter()
            .map(|f| load_rule(f))
            .collect::<Result<_, _>>()?;
        Ok(Rules { rules })
    }

    /// The rules of `engine` in the project's `results/triage/ENGINE/` (found from the
    /// executable's location or the current directory; none when neither has it).
    ///
    /// # Errors
    /// As [`Rules::load`].
    pub fn for_engine(engine: &str) -> Result<Rules, String> {
        match triage_dir(engine) {
            Some(d) => Rules::load(&d),
            None => Ok(Rules::default()),
        }
    }

    /// The rules one of whose instructions in `program_text` matches (NV / ARB assembly
    /// or TGSI text).
    pub fn matching(&self, program_text: &str) -> Vec<&Rule> {
        let insns: Vec<Insn> = instructions(program_text).collect();
        self.rules
            .iter()
            .filter(|r| insns.iter().any(|i| r.matches(i)))
            .collect()
    }
}

/// The rules of the engines of a live comparison (`diff`, `fuzz`, `conform`): a mismatch of
/// an engine on a program that one of its rules covers becomes `known`
/// ([`shaderdiff_compare::known`]), exactly as `diff --recorded` judges it
/// ([`crate::recorded::judge`]): the same matcher on the program's assembly text.
#[derive(Clone, Debug, Default)]
pub struct EngineRules {
    /// `(engine, rules)` for each engine that has at least one rule.
    by_engine: Vec<(String, Rules)>,
}

impl EngineRules {
    /// The rules of `engines` from the project's `results/triage/ENGINE/`
    /// ([`Rules::for_engine`]); `None` when none of them has a rule.
    ///
    /// # Errors
    /// As [`Rules::load`].
    pub fn for_engines(engines: &[String]) -> Result<Option<SharedKnown>, String> {
        let mut by_engine = Vec::new();
        for e in engines {
            let rules = Rules::for_engine(e)?;
            if !rules.rules.is_empty() {
                by_engine.push((e.clone(), rules));
            }
        }
        Ok(EngineRules::classifier(by_engine))
    }

    /// A classifier from rules already loaded (`None` when there are none).
    pub fn classifier(by_engine: Vec<(String, Rules)>) -> Option<SharedKnown> {
        (!by_engine.is_empty()).then(|| Arc::new(EngineRules { by_engine }) as SharedKnown)
    }
}

impl KnownDeviations for EngineRules {
    fn covering(&self, engine: &str, program: &Program) -> Vec<String> {
        let Some((_, rules)) = self.by_engine.iter().find(|(e, _)| e == engine) else {
            return Vec::new();
        };
        let Some(text) = assembly_text(program) else {
            return Vec::new();
        };
        rules
            .matching(&text)
            .into_iter()
            .filter(|r| r.engine == engine)
            .map(|r| r.id.clone())
            .collect()
    }
}

/// The NV / ARB assembly text of `program` (canonical print of the source it was lowered
/// from), `None` for a program that has none (TGSI, or an IR changed since lowering).
pub fn assembly_text(program: &Program) -> Option<String> {
    NvOrigin::of(program).map(|o| shaderdiff_nv::print(&o.ast))
}

/// One instruction of a program text: mnemonic, its suffix modifiers, operand text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Insn {
    /// Upper-case opcode.
    pub opcode: String,
    /// Upper-case suffix modifiers (`.F`, `.SAT`, `.CC0` → `CC`).
    pub modifiers: Vec<String>,
    /// The rest of the statement.
    pub operands: String,
}

impl Rule {
    /// Whether instruction `i` is one this rule covers.
    pub fn matches(&self, i: &Insn) -> bool {
        i.opcode == self.opcode
            && self.modifiers.iter().all(|m| i.modifiers.contains(m))
            && !self
                .without_modifiers
                .iter()
                .any(|m| i.modifiers.contains(m))
            && (self.any_modifiers.is_empty()
                || self.any_modifiers.iter().any(|m| i.modifiers.contains(m)))
            && self
                .operands
                .as_ref()
                .is_none_or(|re| re.is_match(&i.operands))
    }
}

/// The instructions of an NV / ARB / TGSI program text: statements split at `;` (NV) or
/// lines (TGSI `N: OP ...`), comments, declarations and headers skipped. `MUL_SAT` (TGSI,
/// ARB) is read as `MUL` with modifier `SAT`; NV `MULC`-style condition suffixes are kept
/// in the opcode.
pub fn instructions(text: &str) -> impl Iterator<Item = Insn> + '_ {
    text.lines()
        .map(|l| l.split('#').next().unwrap_or(""))
        .flat_map(|l| l.split(';'))
        .filter_map(parse_insn)
}

fn parse_insn(stmt: &str) -> Option<Insn> {
    let mut s = stmt.trim();
    if let Some((label, rest)) = s.split_once(':') {
        // TGSI `12: MUL ...`, NV labels `loop:`.
        if label
            .trim()
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_')
        {
            s = rest.trim();
        }
    }
    let (head, operands) = s.split_once(char::is_whitespace).unwrap_or((s, ""));
    if head.is_empty() || head.starts_with('!') {
        return None;
    }
    let mut parts = head.split('.');
    let first = parts.next()?.to_ascii_uppercase();
    let mut modifiers: Vec<String> = parts
        .map(|m| {
            let m = m.to_ascii_uppercase();
            if m.starts_with("CC") {
                "CC".into()
            } else {
                m
            }
        })
        .collect();
    let opcode = match first.strip_suffix("_SAT") {
        Some(op) => {
            modifiers.push("SAT".into());
            op.to_string()
        }
        None => first,
    };
    if !opcode
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || c == '_')
    {
        return None;
    }
    Some(Insn {
        opcode,
        modifiers,
        operands: operands.trim().to_string(),
    })
}

fn load_rule(file: &Path) -> Result<Rule, String> {
    let at = file.display();
    let text = std::fs::read_to_string(file).map_err(|e| format!("{at}: cannot read: {e}"))?;
    let raw: RawRule = toml::from_str(&text).map_err(|e| format!("{at}: {e}"))?;
    let operands = raw
        .operands
        .as_deref()
        .map(Regex::new)
        .transpose()
        .map_err(|e| format!("{at}: operands: {e}"))?;
    let rule = Rule {
        id: raw.id,
        engine: raw.engine,
        opcode: raw.opcode.to_ascii_uppercase(),
        modifiers: upper(raw.modifiers),
        without_modifiers: upper(raw.without_modifiers),
        any_modifiers: upper(raw.any_modifiers),
        operands,
        driver: raw.driver,
        spec: raw.spec,
        reproducer: raw.reproducer,
        file: file.to_path_buf(),
    };
    let n = instructions(&rule.reproducer)
        .filter(|i| !is_declaration(&i.opcode))
        .count();
    if n > MAX_REPRODUCER_INSTRUCTIONS {
        return Err(format!(
            "{at}: the reproducer has {n} instructions (at most {MAX_REPRODUCER_INSTRUCTIONS})"
        ));
    }
    if !instructions(&rule.reproducer).any(|i| rule.matches(&i)) {
        return Err(format!(
            "{at}: the reproducer has no instruction the rule matches"
        ));
    }
    Ok(rule)
}

fn upper(v: Vec<String>) -> Vec<String> {
    v.into_iter().map(|m| m.to_ascii_uppercase()).collect()
}

/// Declarations, options and the end marker are not instructions of a reproducer.
fn is_declaration(op: &str) -> bool {
    matches!(
        op,
        "END"
            | "TEMP"
            | "ATTRIB"
            | "PARAM"
            | "OUTPUT"
            | "OPTION"
            | "FLAT"
            | "INT"
            | "UINT"
            | "LONG"
            | "SHORT"
            | "FLOAT"
            | "DCL"
            | "IMM"
            | "PROPERTY"
            | "FRAG"
            | "VERT"
            | "ADDRESS"
            | "ALIAS"
            | "BUFFER"
            | "CBUFFER"
            | "TEXTURE"
    )
}

/// `results/triage/ENGINE` of the project: beside the current directory, or above the
/// executable (`target/debug/shaderdiff` → the workspace root).
fn triage_dir(engine: &str) -> Option<PathBuf> {
    let rel = Path::new("results").join("triage").join(engine);
    if rel.is_dir() {
        return Some(rel);
    }
    let exe = std::env::current_exe().ok()?;
    exe.ancestors().map(|a| a.join(&rel)).find(|p| p.is_dir())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn instructions_split_nv_statements_and_modifiers() {
        let text = "!!NVfp4.0\nTEMP r;\nUP2H.F r, -|fragment.texcoord[0]|; # c\nMOV_SAT result.color, r;\nEND\n";
        let v: Vec<Insn> = instructions(text).collect();
        let ops: Vec<&str> = v.iter().map(|i| i.opcode.as_str()).collect();
        assert_eq!(ops, ["TEMP", "UP2H", "MOV", "END"]);
        assert_eq!(v[1].modifiers, ["F"]);
        assert_eq!(v[1].operands, "r, -|fragment.texcoord[0]|");
        assert_eq!(v[2].modifiers, ["SAT"]);
        let t: Vec<Insn> = instructions("FRAG\n  0: MUL_SAT OUT[0], IN[0], IN[1]\n").collect();
        assert_eq!(t[1].opcode, "MUL");
        assert_eq!(t[1].modifiers, ["SAT"]);
    }

    #[test]
    fn a_rule_needs_its_opcode_modifiers_and_operand_pattern() {
        let rule = Rule {
            id: "x".into(),
            engine: "nvidia".into(),
            opcode: "UP2H".into(),
            modifiers: vec!["F".into()],
            without_modifiers: vec!["CC".into()],
            any_modifiers: Vec::new(),
            operands: Some(Regex::new(r"-\|").unwrap()),
            driver: String::new(),
            spec: String::new(),
            reproducer: String::new(),
            file: PathBuf::new(),
        };
        let i = |s: &str| parse_insn(s).unwrap();
        assert!(rule.matches(&i("UP2H.F r, -|a|")));
        assert!(!rule.matches(&i("UP2H.F r, |a|")));
        assert!(!rule.matches(&i("UP2H.F.CC r, -|a|")));
        assert!(!rule.matches(&i("UP2US.F r, -|a|")));
    }

    #[test]
    fn any_modifiers_needs_one_of_them() {
        // docs/triage.md: `any_modifiers` lists suffixes of which one must be present
        // (results/triage/nvidia/sad64-cc-overflow.toml: SAD.CC with S64 or U64).
        let rule = Rule {
            id: "x".into(),
            engine: "nvidia".into(),
            opcode: "SAD".into(),
            modifiers: vec!["CC".into()],
            without_modifiers: Vec::new(),
            any_modifiers: vec!["S64".into(), "U64".into()],
            operands: None,
            driver: String::new(),
            spec: String::new(),
            reproducer: String::new(),
            file: PathBuf::new(),
        };
        let i = |s: &str| parse_insn(s).unwrap();
        assert!(rule.matches(&i("SAD.U64.CC r, a, b, c")));
        assert!(rule.matches(&i("SAD.S64.CC r, a, b, c")));
        assert!(!rule.matches(&i("SAD.S.CC r, a, b, c")));
        assert!(!rule.matches(&i("SAD.U64 r, a, b, c")));
    }
}
