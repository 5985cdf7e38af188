//! Parsing of single operands: destination, staging run, source, immediate
//! (ENCODING.md §11.2–§11.3).
// Numbers here come from user input (program text, inputs files, machine code): no
// arithmetic may wrap or panic unnoticed.
#![warn(clippy::arithmetic_side_effects)]

use super::{split, AsmReason, PErr, Piece};
use crate::instr::{Dest, Source, SrcValue, StagingRun, WriteMask};
use crate::isa::{EnumField, ImmDef, Isa, SrcDef, WidenKind};

/// Parses `rN` (0–63). `what` names the operand for the error.
fn register(p: Piece, what: &'static str) -> Result<u8, PErr> {
    if let Some(c) = p.text.chars().find(|c| *c == '`') {
        return Err((p.off, AsmReason::UnexpectedChar(c)));
    }
    let digits = p
        .text
        .strip_prefix('r')
        .filter(|d| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()));
    let Some(digits) = digits else {
        let reason = AsmReason::Expected {
            expected: what,
            found: p.text.to_string(),
        };
        return Err((p.off, reason));
    };
    match digits.parse::<u32>() {
        Ok(n) if n < 64 => Ok(n as u8),
        _ => Err((p.off, AsmReason::RegisterRange(p.text.to_string()))),
    }
}

/// Destination: `rN`, `rN.h0` (low half) or `rN.h1` (high half).
pub(super) fn dest(p: Piece) -> Result<Dest, PErr> {
    let parts = split(p.off, p.text, '.');
    let reg = register(parts[0], "destination register rN")?;
    let mask = match parts.get(1..).unwrap_or(&[]) {
        [] => WriteMask::Full,
        [h] if h.text == "h0" => WriteMask::Low,
        [h] if h.text == "h1" => WriteMask::High,
        [h, ..] => {
            let reason = AsmReason::BadSuffix {
                suffix: h.text.to_string(),
                choices: "h0, h1".to_string(),
            };
            return Err((h.off, reason));
        }
    };
    Ok(Dest { reg, mask })
}

/// Staging run: `@`, `@rN` or `@rA:rB:…` (consecutive).
pub(super) fn staging(p: Piece) -> Result<StagingRun, PErr> {
    let Some(rest) = p.text.strip_prefix('@') else {
        let reason = AsmReason::Expected {
            expected: "staging registers `@rA:rB…` or `@`",
            found: p.text.to_string(),
        };
        return Err((p.off, reason));
    };
    if rest.is_empty() {
        return Ok(StagingRun { base: 0, count: 0 });
    }
    let regs = split(p.off.saturating_add(1), rest, ':');
    let mut base = 0;
    for (k, r) in regs.iter().enumerate() {
        let n = register(*r, "staging register rN")?;
        if k == 0 {
            base = n;
        } else if Some(usize::from(n)) != usize::from(base).checked_add(k) {
            return Err((r.off, AsmReason::NotConsecutive(p.text.to_string())));
        }
    }
    let count = u8::try_from(regs.len()).unwrap_or(u8::MAX);
    Ok(StagingRun { base, count })
}

/// Parses a C-style integer: optional `-`, then `0x…` hex or decimal.
fn number(p: Piece) -> Result<i64, PErr> {
    let bad = || (p.off, AsmReason::BadNumber(p.text.to_string()));
    let (neg, body) = match p.text.strip_prefix('-') {
        Some(b) => (true, b),
        None => (false, p.text),
    };
    let magnitude = if let Some(h) = body.strip_prefix("0x").or_else(|| body.strip_prefix("0X")) {
        if h.is_empty() || !h.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err(bad());
        }
        u64::from_str_radix(h, 16).map_err(|_| bad())?
    } else {
        if body.is_empty() || !body.bytes().all(|b| b.is_ascii_digit()) {
            return Err(bad());
        }
        body.parse::<u64>().map_err(|_| bad())?
    };
    let v = i64::try_from(magnitude).map_err(|_| bad())?;
    // `v <= i64::MAX`, so its negation exists.
    Ok(if neg {
        v.checked_neg().ok_or_else(bad)?
    } else {
        v
    })
}

/// Immediate: `#value` for the field named `constant`, otherwise `name:value`.
pub(super) fn immediate(id: &ImmDef, p: Piece) -> Result<i64, PErr> {
    let value = if id.is_constant() {
        p.text.strip_prefix('#').map(|v| Piece {
            off: p.off.saturating_add(1),
            text: v,
        })
    } else {
        p.text
            .strip_prefix(id.name.as_str())
            .and_then(|r| r.strip_prefix(':'))
            .map(|v| Piece {
                off: p.off.saturating_add(id.name.len()).saturating_add(1),
                text: v,
            })
    };
    let Some(value) = value else {
        let expected = if id.is_constant() {
            "#<value>".to_string()
        } else {
            format!("{}:<value>", id.name)
        };
        let reason = AsmReason::ImmName {
            expected,
            found: p.text.to_string(),
        };
        return Err((p.off, reason));
    };
    let v = number(value)?;
    if v < 0 && !id.signed {
        return Err((value.off, AsmReason::Unsigned(id.name.clone())));
    }
    Ok(v)
}

/// The value part of a source (before the first `.`).
fn source_value(isa: &Isa, p: Piece) -> Result<SrcValue, PErr> {
    let t = p.text;
    if let Some(c) = t.chars().find(|c| *c == '`') {
        let off = p.off.saturating_add(t.find('`').unwrap_or(0));
        return Err((off, AsmReason::UnexpectedChar(c)));
    }
    if let Some(r) = t.strip_prefix('^') {
        let reg = register(
            Piece {
                off: p.off.saturating_add(1),
                text: r,
            },
            "register after `^` (the last-use marker applies only to registers)",
        )?;
        return Ok(SrcValue::Reg { reg, discard: true });
    }
    let digits_after = |prefix: char| {
        t.strip_prefix(prefix)
            .filter(|d| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()))
    };
    if digits_after('r').is_some() {
        let reg = register(p, "register")?;
        return Ok(SrcValue::Reg {
            reg,
            discard: false,
        });
    }
    if let Some(d) = digits_after('u') {
        return match d.parse::<u32>() {
            Ok(n) if n < 256 => Ok(SrcValue::Uniform(n as u8)),
            _ => Err((p.off, AsmReason::UniformRange(t.to_string()))),
        };
    }
    if t.starts_with("0x") || t.starts_with("0X") {
        let v = number(p)?;
        let v = u64::try_from(v).unwrap_or(u64::MAX);
        let idx = isa
            .immediates
            .iter()
            .position(|&c| u64::from(c) == v)
            .ok_or((p.off, AsmReason::NotInTable(v)))?;
        return Ok(SrcValue::Imm(idx as u8));
    }
    let is_ident = t
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && t.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    if is_ident {
        return match isa.find_special(t) {
            Some((page, entry)) => Ok(SrcValue::Special {
                page,
                entry,
                hi: false,
            }),
            None => Err((p.off, AsmReason::UnknownSpecial(t.to_string()))),
        };
    }
    let reason = AsmReason::Expected {
        expected: "source (rN, ^rN, uN, immediate-table constant 0x… or special value)",
        found: t.to_string(),
    };
    Err((p.off, reason))
}

/// Looks a selector suffix up in a source's field; returns the value.
fn selector(isa: &Isa, f: EnumField, kind: Option<WidenKind>, word: &str) -> Option<u8> {
    let limit = 1usize << f.field.size;
    if let Some(v) = isa.enums[f.enum_id].find(word, limit) {
        return Some(v as u8);
    }
    if kind == Some(WidenKind::Lanes) {
        // Being 8-bit, lanes sources also take the `Swizzles (8-bit)` names (§11.3).
        if let Some(v) = isa
            .enum_named("Swizzles (8-bit)")
            .and_then(|e| e.find(word, limit))
        {
            return Some(v as u8);
        }
        // `.b0`–`.b3`: the Sept-2024 32-bit widen names of the same values 4–7
        // (README.md, the CLPER vector); they mean `.b00`–`.b33`.
        if let Some(n) = ["b0", "b1", "b2", "b3"].iter().position(|b| *b == word) {
            // n < 4: one of the four names.
            return Some((n as u8).saturating_add(4));
        }
    }
    None
}

/// Texts a source accepts as suffixes (for error messages).
fn choices(isa: &Isa, sd: &SrcDef) -> String {
    let mut c: Vec<String> = Vec::new();
    for (name, has) in [("neg", sd.neg), ("abs", sd.abs)] {
        if has.is_some() {
            c.push(name.to_string());
        }
    }
    let sels = [sd.swizzle, sd.widen.map(|w| w.1), sd.lane, sd.combine];
    for f in sels.into_iter().flatten() {
        let limit = 1usize << f.field.size;
        c.extend(
            isa.enums[f.enum_id]
                .choices(limit)
                .iter()
                .map(|s| s.to_string()),
        );
    }
    if sd.not.is_some() {
        c.push("not".to_string());
    }
    if c.is_empty() {
        "none".to_string()
    } else {
        c.join(", ")
    }
}

/// Source: value then `.`-separated suffixes (§11.2): `^r2.neg.abs`, `0x7060504.b2`,
/// `lane_id.w0`, `r60.w0`. Every field the source has is returned as `Some` (defaults
/// filled in).
pub(super) fn source(isa: &Isa, sd: &SrcDef, p: Piece) -> Result<Source, PErr> {
    let parts = split(p.off, p.text, '.');
    let value = source_value(isa, parts[0])?;
    let mut src = Source::new(value);
    let mut suffixes = &parts[1..];
    // The first suffix of a special value selects its word; a bare name means `.w0`.
    if let SrcValue::Special { hi, .. } = &mut src.value {
        if let Some(w) = suffixes
            .first()
            .filter(|w| w.text == "w0" || w.text == "w1")
        {
            *hi = w.text == "w1";
            suffixes = &suffixes[1..];
        }
    }
    for s in suffixes {
        if s.text.is_empty() {
            return Err((s.off, AsmReason::EmptyModifier));
        }
        let dup = || (s.off, AsmReason::DuplicateSuffix(s.text.to_string()));
        let flag = match s.text {
            "neg" if sd.neg.is_some() => Some(&mut src.neg),
            "abs" if sd.abs.is_some() => Some(&mut src.abs),
            "not" if sd.not.is_some() => Some(&mut src.not),
            _ => None,
        };
        if let Some(flag) = flag {
            if *flag {
                return Err(dup());
            }
            *flag = true;
            continue;
        }
        let kind = sd.widen.map(|w| w.0);
        let slots = [
            (sd.swizzle, &mut src.swizzle),
            (sd.widen.map(|w| w.1), &mut src.widen),
            (sd.lane, &mut src.lane),
            (sd.combine, &mut src.combine),
        ];
        let mut matched = false;
        for (f, slot) in slots {
            let Some(f) = f else { continue };
            if let Some(v) = selector(isa, f, kind, s.text) {
                if slot.is_some() {
                    return Err(dup());
                }
                *slot = Some(v);
                matched = true;
                break;
            }
        }
        if !matched {
            let reason = AsmReason::BadSuffix {
                suffix: s.text.to_string(),
                choices: choices(isa, sd),
            };
            return Err((s.off, reason));
        }
    }
    // Fill in defaults for every field the source has.
    let fill = |f: Option<EnumField>, v: &mut Option<u8>| {
        if let (Some(f), None) = (f, *v) {
            *v = Some(isa.enums[f.enum_id].default.unwrap_or(0) as u8);
        }
    };
    fill(sd.swizzle, &mut src.swizzle);
    fill(sd.widen.map(|w| w.1), &mut src.widen);
    fill(sd.lane, &mut src.lane);
    fill(sd.combine, &mut src.combine);
    Ok(src)
}
