//! Encoding an [`Instr`] into its 64-bit word (ENCODING.md §1–§9), with every rule the
//! assembler enforces (register ranges, reserved enum values, staging alignment, the FAU
//! limits of §3.3).
// Numbers here come from user input (program text, inputs files, machine code): no
// arithmetic may wrap or panic unnoticed.
#![warn(clippy::arithmetic_side_effects)]

use crate::instr::{Instr, Operand, SrcValue};
use crate::isa::{EnumField, InsDef, Isa, ModKind, SrcDef};

/// Why an [`Instr`] cannot be encoded.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EncodeErrorKind {
    /// The instruction id is not in the ISA.
    #[error("instruction id {0} does not exist")]
    UnknownInstruction(u16),
    /// A list has the wrong length for the instruction.
    #[error("expected {expected} {what}, found {found}")]
    Count {
        /// `"staging runs"`, `"sources"`, `"immediates"` or `"modifiers"`.
        what: &'static str,
        /// Length the definition requires.
        expected: usize,
        /// Length given.
        found: usize,
    },
    /// A destination was given to an instruction without `dests="1"`.
    #[error("instruction has no destination")]
    UnexpectedDest,
    /// No destination was given to an instruction with `dests="1"`.
    #[error("instruction needs a destination")]
    MissingDest,
    /// Register number above 63.
    #[error("register r{0} does not exist (r0–r63)")]
    Register(u8),
    /// Enum index that ISA.xml marks `<reserved/>` or that is past the enum's end.
    #[error("`{field}` value {value} is reserved")]
    Reserved {
        /// Field name (`flow`, a modifier name, `swizzle`, `widen`, `lanes`, …).
        field: String,
        /// The index given.
        value: u64,
    },
    /// Value wider than its field.
    #[error("`{field}` value {value} does not fit in {bits} bit(s)")]
    TooWide {
        /// Field name.
        field: String,
        /// Value given.
        value: u64,
        /// Field width.
        bits: u8,
    },
    /// A source modifier given to a source that has no such field.
    #[error("source has no `{0}` modifier")]
    NoSuchField(&'static str),
    /// Staging run length outside the encodable range.
    #[error("staging run of {count} registers (allowed {min}–{max})")]
    StagingCount {
        /// Length given.
        count: u8,
        /// Smallest encodable length.
        min: u8,
        /// Largest encodable length.
        max: u8,
    },
    /// A run of more than one register starting at an odd register.
    #[error("staging run of {count} registers must start at an even register, not r{base}")]
    StagingAlign {
        /// First register.
        base: u8,
        /// Length.
        count: u8,
    },
    /// A run that goes past r63.
    #[error("staging run r{base} + {count} registers goes past r63")]
    StagingRange {
        /// First register.
        base: u8,
        /// Length.
        count: u8,
    },
    /// An empty run whose base register is not r0 (an empty run is written `@`).
    #[error("empty staging run must have base r0, not r{0}")]
    EmptyStagingBase(u8),
    /// Immediate out of its field's range.
    #[error("immediate `{name}` value {value} out of range {min}..={max}")]
    ImmRange {
        /// The `<imm>` name.
        name: String,
        /// Value given.
        value: i64,
        /// Smallest value.
        min: i64,
        /// Largest value.
        max: i64,
    },
    /// Immediate-table index above 31.
    #[error("immediate-table index {0} out of range (0–31)")]
    TableIndex(u8),
    /// Special value on FAU page 2, or page above 3.
    #[error("FAU page {0} has no special values")]
    NoSpecialPage(u8),
    /// Special value entry reserved or above 15.
    #[error("special FAU value {entry} of page {page} is reserved")]
    ReservedSpecial {
        /// FAU page.
        page: u8,
        /// Entry index.
        entry: u8,
    },
    /// FAU sources on different pages.
    #[error("FAU sources use pages {0} and {1}; an instruction addresses one page")]
    PageMismatch(u8, u8),
    /// More than two distinct FAU source bytes.
    #[error("more than two distinct FAU sources (uniforms, special values and table immediates)")]
    TooManyFau,
    /// Uniforms/special values spread over too many 64-bit slots.
    #[error("uniforms and special values span more than {0} 64-bit slot(s)")]
    TooManySlots(usize),
    /// Too many 32-bit FAU words.
    #[error("uniforms and special values use more than {0} 32-bit words")]
    TooManyWords(usize),
    /// Two different special values.
    #[error("more than one special FAU value")]
    TooManySpecials,
}

/// Why an [`Instr`] cannot be encoded, and where (`operand`).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{ins}{}: {kind}", .operand.map(|o| format!(" ({o})")).unwrap_or_default())]
pub struct EncodeError {
    /// Mnemonic of the instruction.
    pub ins: String,
    /// The operand or field concerned, if the error is about one.
    pub operand: Option<Operand>,
    /// What is wrong.
    pub kind: EncodeErrorKind,
}

type Res<T> = Result<T, (Option<Operand>, EncodeErrorKind)>;

fn at<T>(op: Operand, r: Result<T, EncodeErrorKind>) -> Res<T> {
    r.map_err(|k| (Some(op), k))
}

/// Encodes `instr` into its 64-bit instruction word (ENCODING.md §1–§9; store it
/// little-endian, `word.to_le_bytes()`, for the byte form).
///
/// # Errors
/// [`EncodeError`] when any field is out of range or reserved, a list has the wrong
/// length, a staging run is misaligned, or the sources break the FAU limits of §3.3
/// (≤ 2 distinct FAU bytes, one page, ≤ 1 slot for ALU / ≤ 2 for message instructions,
/// ≤ 1 special value). Every word returned decodes back to an equal `Instr` (up to
/// `None` modifiers being filled in with their defaults).
pub fn encode(instr: &Instr) -> Result<u64, EncodeError> {
    let isa = crate::isa();
    let Some(def) = isa.instructions.get(usize::from(instr.id.0)) else {
        return Err(EncodeError {
            ins: format!("#{}", instr.id.0),
            operand: None,
            kind: EncodeErrorKind::UnknownInstruction(instr.id.0),
        });
    };
    encode_with(isa, def, instr).map_err(|(operand, kind)| EncodeError {
        ins: def.name.clone(),
        operand,
        kind,
    })
}

fn count(what: &'static str, expected: usize, found: usize) -> Res<()> {
    if expected == found {
        Ok(())
    } else {
        Err((
            None,
            EncodeErrorKind::Count {
                what,
                expected,
                found,
            },
        ))
    }
}

fn reg(r: u8) -> Result<u64, EncodeErrorKind> {
    if r < 64 {
        Ok(u64::from(r))
    } else {
        Err(EncodeErrorKind::Register(r))
    }
}

/// Checks `value` against an enum field (width, reserved entries) and returns it placed.
#[inline]
fn enum_value(isa: &Isa, f: EnumField, field: &str, value: u64) -> Result<u64, EncodeErrorKind> {
    if value <= f.field.max_value() && isa.enums[f.enum_id].text(value).is_some() {
        return Ok(value << f.field.start);
    }
    Err(enum_error(f, field, value))
}

/// Why [`enum_value`] refuses `value` (kept out of the encoder's hot path).
#[cold]
fn enum_error(f: EnumField, field: &str, value: u64) -> EncodeErrorKind {
    if value > f.field.max_value() {
        EncodeErrorKind::TooWide {
            field: field.to_string(),
            value,
            bits: f.field.size,
        }
    } else {
        EncodeErrorKind::Reserved {
            field: field.to_string(),
            value,
        }
    }
}

fn encode_with(isa: &Isa, def: &InsDef, instr: &Instr) -> Res<u64> {
    count("staging runs", def.staging.len(), instr.staging.len())?;
    count("sources", def.srcs.len(), instr.srcs.len())?;
    count("immediates", def.imms.len(), instr.imms.len())?;
    count("modifiers", def.modifiers.len(), instr.modifiers.len())?;

    let (_, mut w) = def.fixed_bits();

    let flow = u64::from(instr.flow);
    if flow > 15 {
        return Err((
            Some(Operand::Flow),
            EncodeErrorKind::TooWide {
                field: "flow".into(),
                value: flow,
                bits: 4,
            },
        ));
    }
    if isa.enums[isa.flow].text(flow).is_none() {
        return Err((
            Some(Operand::Flow),
            EncodeErrorKind::Reserved {
                field: "flow".into(),
                value: flow,
            },
        ));
    }
    w |= flow << 59;

    match (def.dests, instr.dest) {
        (true, Some(d)) => {
            w |= at(Operand::Dest, reg(d.reg))? << 40;
            w |= u64::from(d.mask.bits()) << 46;
        }
        (true, None) => return Err((Some(Operand::Dest), EncodeErrorKind::MissingDest)),
        (false, Some(_)) => return Err((Some(Operand::Dest), EncodeErrorKind::UnexpectedDest)),
        (false, None) => {}
    }

    for (i, (sd, run)) in def.staging.iter().zip(&instr.staging).enumerate() {
        let op = Operand::Staging(i);
        let (min, max) = (sd.min_count(), sd.max_count());
        if run.count < min || run.count > max {
            let kind = EncodeErrorKind::StagingCount {
                count: run.count,
                min,
                max,
            };
            return Err((Some(op), kind));
        }
        let base = at(op, reg(run.base))?;
        if run.count == 0 && run.base != 0 {
            return Err((Some(op), EncodeErrorKind::EmptyStagingBase(run.base)));
        }
        if run.count > 1 && run.base % 2 != 0 {
            let kind = EncodeErrorKind::StagingAlign {
                base: run.base,
                count: run.count,
            };
            return Err((Some(op), kind));
        }
        if u32::from(run.base).saturating_add(u32::from(run.count)) > 64 {
            let kind = EncodeErrorKind::StagingRange {
                base: run.base,
                count: run.count,
            };
            return Err((Some(op), kind));
        }
        w |= base << sd.reg.start;
        // `run.count >= min_count() = count_bias`, checked above.
        w |= u64::from(run.count.saturating_sub(sd.count_bias)) << sd.count.start;
    }

    let page = check_fau(isa, def, instr)?;
    w |= u64::from(page) << 57;
    for (i, (sd, src)) in def.srcs.iter().zip(&instr.srcs).enumerate() {
        w |= at(Operand::Source(i), encode_source(isa, sd, src))?;
    }

    for (i, (id, &v)) in def.imms.iter().zip(&instr.imms).enumerate() {
        if v < id.min() || v > id.max() {
            let kind = EncodeErrorKind::ImmRange {
                name: id.name.clone(),
                value: v,
                min: id.min(),
                max: id.max(),
            };
            return Err((Some(Operand::Imm(i)), kind));
        }
        w |= ((v as u64) & id.field.max_value()) << id.field.start;
    }

    for (i, (md, &v)) in def.modifiers.iter().zip(&instr.modifiers).enumerate() {
        let op = Operand::Modifier(i);
        let v = u64::from(v);
        match md.kind {
            ModKind::Flag => {
                if v > 1 {
                    let kind = EncodeErrorKind::TooWide {
                        field: md.name.clone(),
                        value: v,
                        bits: 1,
                    };
                    return Err((Some(op), kind));
                }
                w |= v << md.field.start;
            }
            ModKind::Enum(e) => {
                let f = EnumField {
                    field: md.field,
                    enum_id: e,
                };
                w |= at(op, enum_value(isa, f, &md.name, v))?;
            }
        }
    }
    Ok(w)
}

/// The source byte (§3.2) of a value, without the page.
pub(crate) fn source_byte(v: SrcValue) -> Result<u8, EncodeErrorKind> {
    Ok(match v {
        SrcValue::Reg { reg: r, discard } => reg(r)? as u8 | if discard { 0x40 } else { 0 },
        SrcValue::Uniform(u) => 0x80 | (u & 63),
        SrcValue::Imm(t) => {
            if t >= 32 {
                return Err(EncodeErrorKind::TableIndex(t));
            }
            0xC0 | t
        }
        SrcValue::Special { page, entry, hi } => {
            if entry >= 16 {
                return Err(EncodeErrorKind::ReservedSpecial { page, entry });
            }
            0xE0 | (entry << 1) | u8::from(hi)
        }
    })
}

fn encode_source(
    isa: &Isa,
    sd: &SrcDef,
    src: &crate::instr::Source,
) -> Result<u64, EncodeErrorKind> {
    let mut w = u64::from(source_byte(src.value)?) << sd.slot.saturating_mul(8);
    w |= flag_bit("neg", src.neg, sd.neg)?;
    w |= flag_bit("abs", src.abs, sd.abs)?;
    w |= flag_bit("not", src.not, sd.not)?;
    let widen_name = match sd.widen {
        Some((crate::isa::WidenKind::Lanes, _)) => "lanes",
        Some((crate::isa::WidenKind::HalfSwizzle, _)) => "halfswizzle",
        _ => "widen",
    };
    w |= selection(isa, "swizzle", src.swizzle, sd.swizzle)?;
    w |= selection(isa, widen_name, src.widen, sd.widen.map(|w| w.1))?;
    w |= selection(isa, "lane", src.lane, sd.lane)?;
    w |= selection(isa, "combine", src.combine, sd.combine)?;
    Ok(w)
}

/// A source flag (`neg`, `abs`, `not`) placed at its bit, if the source has one.
#[inline]
fn flag_bit(name: &'static str, present: bool, bit: Option<u8>) -> Result<u64, EncodeErrorKind> {
    match (present, bit) {
        (true, Some(b)) => Ok(1 << b),
        (true, None) => Err(EncodeErrorKind::NoSuchField(name)),
        (false, _) => Ok(0),
    }
}

/// A source selection field (swizzle, widen / lanes / halfswizzle, lane, combine) placed:
/// the value given, or the enum's default when the field exists and none is given.
#[inline]
fn selection(
    isa: &Isa,
    name: &'static str,
    value: Option<u8>,
    field: Option<EnumField>,
) -> Result<u64, EncodeErrorKind> {
    match (value, field) {
        (Some(_), None) => Err(EncodeErrorKind::NoSuchField(name)),
        (v, Some(f)) => {
            let v = v.map_or_else(
                || isa.enums[f.enum_id].default.unwrap_or(0) as u64,
                u64::from,
            );
            enum_value(isa, f, name, v)
        }
        (None, None) => Ok(0),
    }
}

/// Checks the FAU rules of ENCODING.md §3.3 and returns the FAU page (0 when no source
/// is a uniform or special value).
fn check_fau(isa: &Isa, def: &InsDef, instr: &Instr) -> Res<u8> {
    // Register sources only (most instructions): no FAU rule applies.
    if instr
        .srcs
        .iter()
        .all(|s| matches!(s.value, SrcValue::Reg { .. }))
    {
        return Ok(0);
    }
    let alu = def.unit.is_alu();
    let (slot_limit, word_limit) = if alu { (1, 2) } else { (2, 3) };
    let mut page: Option<u8> = None;
    // Each list stops growing one past its limit (an error), so small arrays hold them.
    let mut bytes = Distinct::<u8, 4>::new();
    let mut slots = Distinct::<u16, 4>::new();
    let mut words = Distinct::<u16, 8>::new();
    let mut specials = Distinct::<u8, 4>::new();
    for (i, (sd, src)) in def.srcs.iter().zip(&instr.srcs).enumerate() {
        let op = Some(Operand::Source(i));
        // Identify the 64-bit slot (uniform pairs and special entries are separate
        // namespaces) and the page.
        let (p, slot_key, hi) = match src.value {
            SrcValue::Reg { .. } => continue,
            SrcValue::Imm(_) => (None, None, false),
            SrcValue::Uniform(u) => (Some(u >> 6), Some(u16::from(u >> 1)), u & 1 == 1),
            SrcValue::Special { page: p, entry, hi } => {
                if p > 3 || isa.fau_special_pages[usize::from(p)].is_none() {
                    return Err((op, EncodeErrorKind::NoSpecialPage(p)));
                }
                if isa.special_name(p, entry).is_none() {
                    return Err((op, EncodeErrorKind::ReservedSpecial { page: p, entry }));
                }
                specials.add(entry);
                if specials.len() > 1 {
                    return Err((op, EncodeErrorKind::TooManySpecials));
                }
                (Some(p), Some(0x100 | u16::from(entry)), hi)
            }
        };
        let byte = at(Operand::Source(i), source_byte(src.value))?;
        bytes.add(byte);
        if bytes.len() > 2 {
            return Err((op, EncodeErrorKind::TooManyFau));
        }
        if let Some(p) = p {
            match page {
                Some(q) if q != p => return Err((op, EncodeErrorKind::PageMismatch(q, p))),
                _ => page = Some(p),
            }
        }
        if let Some(key) = slot_key {
            slots.add(key);
            if slots.len() > slot_limit {
                return Err((op, EncodeErrorKind::TooManySlots(slot_limit)));
            }
            if sd.size == 64 {
                words.add(key << 1);
                words.add(key << 1 | 1);
            } else {
                words.add(key << 1 | u16::from(hi));
            }
            if words.len() > word_limit {
                return Err((op, EncodeErrorKind::TooManyWords(word_limit)));
            }
        }
    }
    Ok(page.unwrap_or(0))
}

/// A set of at most `N` distinct values in insertion order, without allocation (the FAU
/// checks of [`check_fau`] stop one value past each limit, well below `N`); past `N`,
/// every value added would count as new.
struct Distinct<T, const N: usize> {
    items: [T; N],
    len: usize,
}

impl<T: Copy + Default + PartialEq, const N: usize> Distinct<T, N> {
    fn new() -> Self {
        Distinct {
            items: [T::default(); N],
            len: 0,
        }
    }

    /// Adds `v` unless it is already there.
    fn add(&mut self, v: T) {
        let stored = self.len.min(N);
        if self.items[..stored].contains(&v) {
            return;
        }
        if let Some(slot) = self.items.get_mut(stored) {
            *slot = v;
        }
        self.len = self.len.saturating_add(1);
    }

    fn len(&self) -> usize {
        self.len
    }
}
