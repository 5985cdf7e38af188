//! Canonical assembly text of an instruction (ENCODING.md §11.2), byte-for-byte what
//! `assembler-cases.txt` contains.
// Numbers here come from user input (program text, inputs files, machine code): no
// arithmetic may wrap or panic unnoticed.
#![warn(clippy::arithmetic_side_effects)]

use crate::decode::{decode, DecodeError};
use crate::instr::{Instr, SrcValue, WriteMask};
use crate::isa::{EnumField, Isa, ModKind};

/// Disassembles one instruction stored little-endian in `bytes` (byte 0 = bits 0–7).
///
/// The text is the canonical form of ENCODING.md §11.2: mnemonic, modifiers in ISA.xml
/// order (defaults omitted), flow, one space, then the operands separated by `", "`, e.g.
/// `"FADD.f32.clamp_m1_1 r0, r1, r2.neg.abs"` or `"NOP.end "`.
///
/// # Errors
/// [`DecodeError`] when the bytes are not a valid instruction; never panics.
pub fn disassemble(bytes: &[u8; 8]) -> Result<String, DecodeError> {
    disassemble_word(u64::from_le_bytes(*bytes))
}

/// Like [`disassemble`], for the 64-bit word value.
///
/// # Errors
/// [`DecodeError`] when the word is not a valid instruction.
pub fn disassemble_word(word: u64) -> Result<String, DecodeError> {
    decode(word).map(|i| format_instr(&i))
}

/// Formats an instruction (valid or not: out-of-range values print as `reserved` or as
/// numbers instead of failing).
pub(crate) fn format_instr(instr: &Instr) -> String {
    let isa = crate::isa();
    let Some(def) = isa.instructions.get(usize::from(instr.id.0)) else {
        return format!("<unknown instruction #{}>", instr.id.0);
    };
    let mut s = def.name.clone();
    for (md, &v) in def.modifiers.iter().zip(&instr.modifiers) {
        match md.kind {
            ModKind::Flag => {
                if v != 0 {
                    s.push('.');
                    s.push_str(&md.name);
                }
            }
            ModKind::Enum(e) => {
                let en = &isa.enums[e];
                if en.default != Some(v as usize) {
                    s.push('.');
                    s.push_str(en.text(u64::from(v)).unwrap_or("reserved"));
                }
            }
        }
    }
    let flow = &isa.enums[isa.flow];
    if flow.default != Some(usize::from(instr.flow)) {
        s.push('.');
        s.push_str(flow.text(u64::from(instr.flow)).unwrap_or("reserved"));
    }
    s.push(' ');

    let mut ops: Vec<String> = Vec::new();
    if let Some(d) = instr.dest {
        ops.push(match d.mask {
            WriteMask::Full => format!("r{}", d.reg),
            WriteMask::Low => format!("r{}.h0", d.reg),
            WriteMask::High => format!("r{}.h1", d.reg),
        });
    }
    for run in &instr.staging {
        let regs: Vec<String> = (0..run.count)
            .map(|k| format!("r{}", u32::from(run.base).saturating_add(u32::from(k))))
            .collect();
        ops.push(format!("@{}", regs.join(":")));
    }
    for (sd, src) in def.srcs.iter().zip(&instr.srcs) {
        let mut o = format_value(isa, src.value);
        if src.neg {
            o.push_str(".neg");
        }
        if src.abs {
            o.push_str(".abs");
        }
        let sels = [sd.swizzle, sd.widen.map(|w| w.1), sd.lane, sd.combine];
        let vals = [src.swizzle, src.widen, src.lane, src.combine];
        for (f, v) in sels.into_iter().zip(vals) {
            if let (Some(f), Some(v)) = (f, v) {
                push_selector(isa, &mut o, f, v);
            }
        }
        if src.not {
            o.push_str(".not");
        }
        ops.push(o);
    }
    for (id, &v) in def.imms.iter().zip(&instr.imms) {
        ops.push(if id.is_constant() {
            format!("#{}", hex(v))
        } else if id.signed {
            format!("{}:{v}", id.name)
        } else {
            format!("{}:{}", id.name, hex(v))
        });
    }
    s.push_str(&ops.join(", "));
    s
}

fn hex(v: i64) -> String {
    if v < 0 {
        format!("{v}")
    } else {
        format!("0x{v:X}")
    }
}

fn push_selector(isa: &Isa, out: &mut String, f: EnumField, v: u8) {
    let en = &isa.enums[f.enum_id];
    if en.default == Some(usize::from(v)) {
        return;
    }
    out.push('.');
    out.push_str(en.text(u64::from(v)).unwrap_or("reserved"));
}

/// Text of a source value without modifiers: `r5`, `^r5`, `u70`, `0x3F800000`,
/// `lane_id.w0`.
pub(crate) fn format_value(isa: &Isa, v: SrcValue) -> String {
    match v {
        SrcValue::Reg { reg, discard } => format!("{}r{reg}", if discard { "^" } else { "" }),
        SrcValue::Uniform(u) => format!("u{u}"),
        SrcValue::Imm(t) => match isa.immediates.get(usize::from(t)) {
            Some(c) => format!("0x{c:X}"),
            None => format!("<table {t}>"),
        },
        SrcValue::Special { page, entry, hi } => {
            let name = match isa.special_name(page, entry) {
                Some(n) => n.to_string(),
                None if page == 2 => "reserved_page2".to_string(),
                None => "reserved".to_string(),
            };
            format!("{name}.w{}", u8::from(hi))
        }
    }
}
