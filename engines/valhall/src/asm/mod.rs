//! The assembler: one line of Valhall assembly text → [`Instr`] / instruction bytes
//! (ENCODING.md §11.3).
//!
//! Accepted syntax is the canonical text of §11.2 plus the liberties §11.3 allows:
//! modifiers in any order (each field at most once, at most one flow), defaulted
//! modifiers may be omitted, source suffixes in any order, C-style integers for
//! immediates. Deliberate extensions (documented in the crate docs): `u128`–`u255`
//! (pages 2–3, so everything the disassembler prints re-assembles), `.b0`–`.b3` on a
//! `lanes` source as aliases of `.b00`–`.b33` (the Sept-2024 spelling, README.md), and
//! `.lod_mode` for the `lod_bias_disable` / `lod_clamp_disable` flags (Mesa's name).
// Numbers here come from user input (program text, inputs files, machine code): no
// arithmetic may wrap or panic unnoticed.
#![warn(clippy::arithmetic_side_effects)]

mod operand;

use crate::encode::{encode, EncodeErrorKind};
use crate::instr::{Instr, Operand};
use crate::isa::{InsDef, Isa, ModKind};

/// Why a line does not assemble, and where.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("column {column}: {reason}")]
pub struct AsmError {
    /// 1-based column (in characters) of the offending text.
    pub column: usize,
    /// What is wrong.
    pub reason: AsmReason,
}

/// The reason of an [`AsmError`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AsmReason {
    /// Blank line.
    #[error("empty line: expected an instruction")]
    Empty,
    /// No ISA mnemonic is a prefix of the first word (followed by `.` or the end).
    #[error("unknown mnemonic `{0}`")]
    UnknownMnemonic(String),
    /// `..`, a leading or a trailing `.` in the modifiers or a source.
    #[error("empty modifier (stray `.`)")]
    EmptyModifier,
    /// A word that is neither a modifier value of the instruction nor a flow.
    #[error("`{word}` is not a modifier or flow of {ins}")]
    UnknownModifier {
        /// The word.
        word: String,
        /// The mnemonic.
        ins: String,
    },
    /// A modifier field given twice.
    #[error("modifier `{0}` given twice")]
    DuplicateModifier(String),
    /// Two flow words.
    #[error("more than one flow modifier")]
    DuplicateFlow,
    /// An enum modifier without a default value is absent.
    #[error("missing modifier `{field}` (one of: {choices})")]
    MissingModifier {
        /// Field name.
        field: String,
        /// Accepted values, comma separated.
        choices: String,
    },
    /// Wrong number of operands.
    #[error("{ins} takes {expected} operand(s), found {found}")]
    OperandCount {
        /// Mnemonic.
        ins: String,
        /// Destination + staging runs + sources + immediates.
        expected: usize,
        /// Operands given.
        found: usize,
    },
    /// Nothing between two commas.
    #[error("empty operand")]
    EmptyOperand,
    /// The operand does not have the expected form.
    #[error("expected {expected}, found `{found}`")]
    Expected {
        /// What was expected.
        expected: &'static str,
        /// The text found.
        found: String,
    },
    /// Register number above 63.
    #[error("register `{0}` does not exist (r0–r63)")]
    RegisterRange(String),
    /// Uniform number above 255.
    #[error("uniform `{0}` does not exist (u0–u255)")]
    UniformRange(String),
    /// A hex literal source that is not one of the 32 immediate-table values.
    #[error("{0:#X} is not in the immediate table")]
    NotInTable(u64),
    /// Unknown special FAU value name.
    #[error("unknown special FAU value `{0}`")]
    UnknownSpecial(String),
    /// A source suffix this source does not accept.
    #[error("`.{suffix}` is not valid on this source (accepted: {choices})")]
    BadSuffix {
        /// The suffix.
        suffix: String,
        /// Accepted suffixes, comma separated.
        choices: String,
    },
    /// A source suffix (or one of the same field) given twice.
    #[error("`.{0}` given twice (or conflicts with an earlier suffix)")]
    DuplicateSuffix(String),
    /// Staging registers not consecutive (`@r0:r2`).
    #[error("staging registers must be consecutive: `{0}`")]
    NotConsecutive(String),
    /// Malformed integer.
    #[error("bad number `{0}`")]
    BadNumber(String),
    /// Immediate with the wrong name or syntax.
    #[error("expected immediate `{expected}`, found `{found}`")]
    ImmName {
        /// Expected form, e.g. `offset:<value>` or `#<value>`.
        expected: String,
        /// Text found.
        found: String,
    },
    /// Negative value for an unsigned immediate.
    #[error("immediate `{0}` is unsigned")]
    Unsigned(String),
    /// A character that has no meaning here (e.g. the legacy last-use marker `` ` ``).
    #[error("unexpected character `{0}`")]
    UnexpectedChar(char),
    /// The operands parse but break an encoding rule (FAU limits, staging alignment,
    /// reserved value, immediate range, …).
    #[error("{0}")]
    Encode(EncodeErrorKind),
}

/// Internal error: byte offset into the line + reason.
pub(crate) type PErr = (usize, AsmReason);

/// Parses one line of assembly into an [`Instr`] that is guaranteed to encode.
///
/// # Errors
/// [`AsmError`] with the 1-based column of the offending text and the reason.
pub fn parse_asm(line: &str) -> Result<Instr, AsmError> {
    parse_line(line).map_err(|(off, reason)| AsmError {
        column: line
            .char_indices()
            .take_while(|(i, _)| *i < off)
            .count()
            .saturating_add(1),
        reason,
    })
}

/// Assembles one line (e.g. `"FADD.f32 r0, r1, r2.neg.abs"`) into its 8 bytes, byte 0
/// first (little-endian, as in `assembler-cases.txt`).
///
/// # Errors
/// [`AsmError`] (1-based column and reason) for malformed or unencodable text.
pub fn assemble(line: &str) -> Result<[u8; 8], AsmError> {
    assemble_word(line).map(u64::to_le_bytes)
}

/// Like [`assemble`], returning the 64-bit word.
///
/// # Errors
/// [`AsmError`] as for [`assemble`].
pub fn assemble_word(line: &str) -> Result<u64, AsmError> {
    let instr = parse_asm(line)?;
    encode(&instr).map_err(|e| AsmError {
        column: 1,
        reason: AsmReason::Encode(e.kind),
    })
}

/// A piece of the line and its byte offset.
#[derive(Clone, Copy)]
pub(crate) struct Piece<'a> {
    pub off: usize,
    pub text: &'a str,
}

/// Splits `text` (at byte offset `off` of the line) on `sep`, keeping offsets.
pub(crate) fn split<'a>(off: usize, text: &'a str, sep: char) -> Vec<Piece<'a>> {
    let mut out = Vec::new();
    let mut start = 0;
    for (i, c) in text.char_indices() {
        if c == sep {
            out.push(Piece {
                off: off.saturating_add(start),
                text: &text[start..i],
            });
            start = i.saturating_add(c.len_utf8());
        }
    }
    out.push(Piece {
        off: off.saturating_add(start),
        text: &text[start..],
    });
    out
}

fn trim(p: Piece) -> Piece {
    let lead = p.text.len().saturating_sub(p.text.trim_start().len());
    Piece {
        off: p.off.saturating_add(lead),
        text: p.text.trim(),
    }
}

/// Longest ISA mnemonic that is a prefix of `token` and is followed by `.` or the end.
fn find_mnemonic<'i>(isa: &'i Isa, token: &str) -> Option<&'i InsDef> {
    isa.instructions
        .iter()
        .filter(|d| {
            token.starts_with(d.name.as_str())
                && matches!(token.as_bytes().get(d.name.len()), None | Some(b'.'))
        })
        .max_by_key(|d| d.name.len())
}

/// Modifier-word aliases: Mesa's name for the two 1-bit LOD flags (ENCODING.md §8.2).
const MOD_ALIASES: &[(&str, &[&str])] = &[("lod_mode", &["lod_bias_disable", "lod_clamp_disable"])];

/// Which modifier fields of `def` accept `word`, in XML order, with the value.
fn mod_candidates(isa: &Isa, def: &InsDef, word: &str) -> Vec<(usize, u32)> {
    let mut out: Vec<(usize, u32)> = def
        .modifiers
        .iter()
        .enumerate()
        .filter_map(|(i, m)| match m.kind {
            ModKind::Flag => (m.name == word).then_some((i, 1)),
            ModKind::Enum(e) => isa.enums[e]
                .find(word, 1 << m.field.size)
                .map(|v| (i, v as u32)),
        })
        .collect();
    if out.is_empty() {
        for (alias, targets) in MOD_ALIASES {
            if *alias == word {
                out.extend(def.modifiers.iter().enumerate().filter_map(|(i, m)| {
                    (m.kind == ModKind::Flag && targets.contains(&m.name.as_str()))
                        .then_some((i, 1))
                }));
            }
        }
    }
    out
}

/// Where each part of the instruction was written (for mapping encode errors to columns).
struct Places {
    start: usize,
    mods_end: usize,
    mods: Vec<Option<usize>>,
    flow: Option<usize>,
    dest: usize,
    staging: Vec<usize>,
    srcs: Vec<usize>,
    imms: Vec<usize>,
}

impl Places {
    fn of(&self, op: Option<Operand>) -> usize {
        match op {
            None => self.start,
            Some(Operand::Dest) => self.dest,
            Some(Operand::Staging(i)) => self.staging.get(i).copied().unwrap_or(self.start),
            Some(Operand::Source(i)) => self.srcs.get(i).copied().unwrap_or(self.start),
            Some(Operand::Imm(i)) => self.imms.get(i).copied().unwrap_or(self.start),
            Some(Operand::Modifier(i)) => {
                self.mods.get(i).copied().flatten().unwrap_or(self.mods_end)
            }
            Some(Operand::Flow) => self.flow.unwrap_or(self.mods_end),
        }
    }
}

fn parse_line(line: &str) -> Result<Instr, PErr> {
    let isa = crate::isa();
    let start = line.len().saturating_sub(line.trim_start().len());
    if start == line.len() {
        return Err((0, AsmReason::Empty));
    }
    let tok_end = line[start..]
        .find(char::is_whitespace)
        .map_or(line.len(), |i| start.saturating_add(i));
    let token = &line[start..tok_end];
    let def = find_mnemonic(isa, token)
        .ok_or_else(|| (start, AsmReason::UnknownMnemonic(token.to_string())))?;

    // Modifiers and flow.
    let mut places = Places {
        start,
        mods_end: tok_end,
        mods: vec![None; def.modifiers.len()],
        flow: None,
        dest: start,
        staging: Vec::new(),
        srcs: Vec::new(),
        imms: Vec::new(),
    };
    let mut mods: Vec<Option<u32>> = vec![None; def.modifiers.len()];
    let mut flow: Option<u8> = None;
    let name_end = start.saturating_add(def.name.len());
    let words = if name_end < tok_end {
        let after = name_end.saturating_add(1);
        split(after, &line[after..tok_end], '.')
    } else {
        Vec::new()
    };
    let mut i: usize = 0;
    while i < words.len() {
        let w = words[i];
        if w.text.is_empty() {
            return Err((w.off, AsmReason::EmptyModifier));
        }
        // Values containing a dot (`16.32`) span two words.
        if let Some(next) = words.get(i.saturating_add(1)) {
            let joined = format!("{}.{}", w.text, next.text);
            let c = mod_candidates(isa, def, &joined);
            if let Some(&(f, v)) = c.iter().find(|(f, _)| mods[*f].is_none()) {
                mods[f] = Some(v);
                places.mods[f] = Some(w.off);
                i = i.saturating_add(2);
                continue;
            }
        }
        let c = mod_candidates(isa, def, w.text);
        if let Some(&(f, v)) = c.iter().find(|(f, _)| mods[*f].is_none()) {
            mods[f] = Some(v);
            places.mods[f] = Some(w.off);
        } else if let Some(&(f, _)) = c.first() {
            let name = def.modifiers[f].name.clone();
            return Err((w.off, AsmReason::DuplicateModifier(name)));
        } else if let Some(v) = isa.enums[isa.flow].find(w.text, 16) {
            if flow.is_some() {
                return Err((w.off, AsmReason::DuplicateFlow));
            }
            flow = Some(v as u8);
            places.flow = Some(w.off);
        } else {
            let reason = AsmReason::UnknownModifier {
                word: w.text.to_string(),
                ins: def.name.clone(),
            };
            return Err((w.off, reason));
        }
        i = i.saturating_add(1);
    }
    let mut modifiers = Vec::with_capacity(mods.len());
    for (m, v) in def.modifiers.iter().zip(&mods) {
        let v = match (v, m.kind) {
            (Some(v), _) => *v,
            (None, ModKind::Flag) => 0,
            (None, ModKind::Enum(e)) => match isa.enums[e].default {
                Some(d) => d as u32,
                None => {
                    let reason = AsmReason::MissingModifier {
                        field: m.name.clone(),
                        choices: isa.enums[e].choices(1 << m.field.size).join(", "),
                    };
                    return Err((tok_end, reason));
                }
            },
        };
        modifiers.push(v);
    }
    let flow = flow.unwrap_or(isa.enums[isa.flow].default.unwrap_or(0) as u8);

    // Operands.
    let rest = &line[tok_end..];
    let ops: Vec<Piece> = if rest.trim().is_empty() {
        Vec::new()
    } else {
        split(tok_end, rest, ',').into_iter().map(trim).collect()
    };
    if let Some(p) = ops.iter().find(|p| p.text.is_empty()) {
        return Err((p.off, AsmReason::EmptyOperand));
    }
    let expected = def.operand_count();
    if ops.len() != expected {
        let off = ops.get(expected).map_or(line.trim_end().len(), |p| p.off);
        let reason = AsmReason::OperandCount {
            ins: def.name.clone(),
            expected,
            found: ops.len(),
        };
        return Err((off, reason));
    }
    let mut ops = ops.into_iter();
    let mut next = || ops.next().expect("operand count checked");
    let dest = if def.dests {
        let p = next();
        places.dest = p.off;
        Some(operand::dest(p)?)
    } else {
        None
    };
    let mut staging = Vec::new();
    for _ in &def.staging {
        let p = next();
        places.staging.push(p.off);
        staging.push(operand::staging(p)?);
    }
    let mut srcs = Vec::new();
    for sd in &def.srcs {
        let p = next();
        places.srcs.push(p.off);
        srcs.push(operand::source(isa, sd, p)?);
    }
    let mut imms = Vec::new();
    for id in &def.imms {
        let p = next();
        places.imms.push(p.off);
        imms.push(operand::immediate(id, p)?);
    }

    let instr = Instr {
        id: def.id,
        flow,
        dest,
        staging,
        srcs,
        imms,
        modifiers,
    };
    encode(&instr).map_err(|e| (places.of(e.operand), AsmReason::Encode(e.kind)))?;
    Ok(instr)
}
