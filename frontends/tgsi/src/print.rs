//! The tgsi_dump-compatible printer (TEXT-FORMAT.md §10, §6 lossy rules).
//!
//! Default output is byte-identical to Mesa's `tgsi_dump` for programs Mesa can hold.
//! Legacy constructs print in their own syntax (`TEMPX`, `RES`, `DCL IMMX[..] {{..}}`,
//! operand-less `EMIT`). IF/UIF/ELSE labels are always the computed ones.

use super::float::{fmt_f32_fixed, fmt_f32_lossless, fmt_f64_lossless, fmt_fixed};
use super::parse::property_value_names;
use super::PrintOptions;
use crate::names::*;
use crate::opcode::Opcode;
use crate::program::*;
use crate::structure::Structure;
use crate::text::{comp_name, prints_implied, register_text};
use std::fmt::Write as _;

fn mask_text(mask: u8) -> String {
    (0..4)
        .filter(|k| mask & (1 << k) != 0)
        .map(|k| CHANNEL_NAMES[k])
        .collect()
}

fn dst_text(d: &Dst) -> String {
    let mut s = register_text(&d.reg);
    if d.writemask != WRITEMASK_XYZW {
        s.push('.');
        s += &mask_text(d.writemask);
    }
    s
}

fn src_text(x: &Src) -> String {
    let mut s = String::new();
    if x.neg {
        s.push('-');
    }
    if x.abs {
        s.push('|');
    }
    s += &register_text(&x.reg);
    if x.swizzle != IDENTITY_SWIZZLE {
        s.push('.');
        s.extend(x.swizzle.iter().map(|&c| comp_name(c)));
    }
    if x.abs {
        s.push('|');
    }
    s
}

fn f32_text(bits: u32, opts: &PrintOptions) -> String {
    if opts.lossless {
        fmt_f32_lossless(bits)
    } else {
        fmt_f32_fixed(bits, 10, 4)
    }
}

fn imm_values(ty: ImmType, w: &[u32; 4], opts: &PrintOptions) -> String {
    let w64 = |k: usize| {
        let at = k.saturating_mul(2);
        w[at] as u64 | (w[at.saturating_add(1)] as u64) << 32
    };
    let vals: Vec<String> = match ty {
        ImmType::F32 => w.iter().map(|&b| f32_text(b, opts)).collect(),
        ImmType::U32 => w.iter().map(|v| v.to_string()).collect(),
        ImmType::I32 => w.iter().map(|&v| (v as i32).to_string()).collect(),
        ImmType::F64 => (0..2)
            .map(|k| {
                if opts.lossless {
                    fmt_f64_lossless(w64(k))
                } else {
                    fmt_fixed(f64::from_bits(w64(k)), 10, 8)
                }
            })
            .collect(),
        ImmType::U64 => (0..2).map(|k| w64(k).to_string()).collect(),
        ImmType::I64 => (0..2).map(|k| (w64(k) as i64).to_string()).collect(),
    };
    format!("{{{}}}", vals.join(", "))
}

fn declaration_text(p: &Program, d: &Declaration, opts: &PrintOptions) -> String {
    let mut s = format!("DCL {}", d.file.name());
    if prints_implied(p.stage, d.file, d.semantic.map(|x| x.0)) {
        s += "[]";
    }
    if let Some(DeclDimension::Index(k)) = d.dimension {
        let _ = write!(s, "[{k}]");
    }
    if d.first == d.last {
        let _ = write!(s, "[{}]", d.first);
    } else {
        let _ = write!(s, "[{}..{}]", d.first, d.last);
    }
    if d.usage_mask != WRITEMASK_XYZW {
        s.push('.');
        s += &mask_text(d.usage_mask);
    }
    if d.file == File::ImmArray {
        let v: Vec<String> = d
            .values
            .iter()
            .map(|w| imm_values(ImmType::F32, w, opts))
            .collect();
        let _ = write!(s, " {{{}}}", v.join(", "));
    }
    if d.array_id != 0 {
        let _ = write!(s, ", ARRAY({})", d.array_id);
    }
    if d.local {
        s += ", LOCAL";
    }
    if let Some((name, index)) = d.semantic {
        let _ = write!(s, ", {}", name.name());
        if index != 0 || matches!(name, SemanticName::Generic | SemanticName::TexCoord) {
            let _ = write!(s, "[{index}]");
        }
    }
    if let Some(st) = d.stream.filter(|st| st.iter().any(|&v| v != 0)) {
        let _ = write!(s, ", STREAM({}, {}, {}, {})", st[0], st[1], st[2], st[3]);
    }
    match &d.resource {
        Some(Resource::Image {
            target,
            format,
            writable,
            raw,
        }) => {
            let _ = write!(s, ", {}, {}", target.name(), format);
            if *writable {
                s += ", WR";
            }
            if *raw {
                s += ", RAW";
            }
        }
        Some(Resource::SamplerView {
            target,
            return_type: rt,
        }) => {
            let _ = write!(s, ", {}, {}", target.name(), rt[0].name());
            if rt.iter().any(|&t| t != rt[0]) {
                let _ = write!(s, ", {}, {}, {}", rt[1].name(), rt[2].name(), rt[3].name());
                if opts.lossless {
                    // A comma after the fourth type keeps the types distinct (§6.4 quirk).
                    s.push(',');
                }
            }
        }
        Some(Resource::Buffer { atomic: true }) => s += ", ATOMIC",
        Some(Resource::Memory(kind)) => {
            let _ = write!(s, ", {}", kind.name());
        }
        Some(Resource::Buffer { atomic: false }) | None => {}
    }
    if let Some(interp) = d.interpolation {
        if p.stage == Stage::Fragment && d.file == File::Input {
            let _ = write!(s, ", {}", interp.name());
        }
        if let Some(loc) = d.location.filter(|&l| l != InterpLocation::Center) {
            let _ = write!(s, ", {}", loc.name());
        }
    }
    if d.invariant {
        s += ", INVARIANT";
    }
    s
}

fn property_text(prop: &Property) -> String {
    let value = property_value_names(prop.name)
        .and_then(|names| names.get(prop.value as usize).copied())
        .map_or_else(|| prop.value.to_string(), str::to_string);
    format!("PROPERTY {} {value}", prop.name.name())
}

fn instruction_text(p: &Program, structure: Option<&Structure>, i: usize, level: usize) -> String {
    let insn = &p.instructions[i];
    let info = insn.opcode.info();
    let mut s = format!("{i:>3}: {}{}", "  ".repeat(level), info.name);
    if insn.saturate != Saturate::None {
        s += "_SAT";
    }
    if insn.precise {
        s += "_PRECISE";
    }
    let mut ops: Vec<String> = insn.dst.iter().map(dst_text).collect();
    ops.extend(insn.src.iter().map(src_text));
    if !ops.is_empty() {
        s.push(' ');
        s += &ops.join(", ");
    }
    // Texture target, offsets and memory extras always follow a ", " (tgsi_dump).
    let mut extras: Vec<String> = Vec::new();
    if let Some(t) = insn.texture.filter(|_| info.has_texture_target) {
        extras.push(t.name().to_string());
    }
    for o in &insn.tex_offsets {
        let sw: String = o.swizzle.iter().map(|&c| comp_name(c)).collect();
        extras.push(format!("{}[{}].{sw}", o.reg.file.name(), o.reg.index.value));
    }
    if let Some(mem) = &insn.mem {
        for q in MemQualifier::ALL {
            if mem.qualifiers & (1 << q.token()) != 0 {
                extras.push(q.name().to_string());
            }
        }
        if let Some(t) = mem.target.filter(|&t| t != TexTarget::Buffer) {
            extras.push(t.name().to_string());
        }
        if let Some(f) = mem
            .format
            .as_ref()
            .filter(|f| f.as_str() != "PIPE_FORMAT_NONE")
        {
            extras.push(f.clone());
        }
    }
    for e in extras {
        s += ", ";
        s += &e;
    }
    let label = match insn.opcode {
        Opcode::IF | Opcode::UIF | Opcode::ELSE => structure
            .and_then(|st| st.computed_label(p, i))
            .or(insn.label),
        Opcode::CAL | Opcode::BGNLOOP | Opcode::ENDLOOP => insn.label,
        _ => None,
    };
    if let Some(l) = label {
        let _ = write!(s, " :{l}");
    }
    s
}

/// Prints `p` in tgsi_dump form (or lossless form, see [`PrintOptions`]). Never panics,
/// even for invalid in-memory programs (out-of-range layout items are skipped).
pub(crate) fn print_program(p: &Program, opts: &PrintOptions) -> String {
    let structure = Structure::analyse(p).ok();
    let mut out = String::new();
    out += p.stage.name();
    out.push('\n');
    let mut level: usize = 0;
    for item in p.items() {
        let line = match item {
            Item::Property(i) => p.properties.get(i as usize).map(property_text),
            Item::Declaration(i) => p
                .declarations
                .get(i as usize)
                .map(|d| declaration_text(p, d, opts)),
            Item::Immediate(i) => p.immediates.get(i as usize).map(|imm| {
                format!(
                    "IMM[{i}] {} {}",
                    imm.ty.name(),
                    imm_values(imm.ty, &imm.words, opts)
                )
            }),
            Item::Instruction(i) => p.instructions.get(i as usize).map(|insn| {
                let info = insn.opcode.info();
                if info.pre_dedent {
                    level = level.saturating_sub(1);
                }
                let text = instruction_text(p, structure.as_ref(), i as usize, level);
                if info.post_indent {
                    level = level.saturating_add(1);
                }
                text
            }),
        };
        if let Some(line) = line {
            out += &line;
            out.push('\n');
        }
    }
    out
}
