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
use crate::text::{comp_name, prints_implied, push_int, push_register};
use std::fmt::Write as _;

fn push_mask(out: &mut String, mask: u8) {
    out.extend(
        (0..4)
            .filter(|k| mask & (1 << k) != 0)
            .map(|k| CHANNEL_NAMES[k]),
    );
}

fn push_dst(out: &mut String, d: &Dst) {
    push_register(out, &d.reg);
    if d.writemask != WRITEMASK_XYZW {
        out.push('.');
        push_mask(out, d.writemask);
    }
}

fn push_src(out: &mut String, x: &Src) {
    if x.neg {
        out.push('-');
    }
    if x.abs {
        out.push('|');
    }
    push_register(out, &x.reg);
    if x.swizzle != IDENTITY_SWIZZLE {
        out.push('.');
        out.extend(x.swizzle.iter().map(|&c| comp_name(c)));
    }
    if x.abs {
        out.push('|');
    }
}

fn f32_text(bits: u32, opts: &PrintOptions) -> String {
    if opts.lossless {
        fmt_f32_lossless(bits)
    } else {
        fmt_f32_fixed(bits, 10, 4)
    }
}

/// Appends `{a, b, c, d}`: the immediate's values in `ty`'s text form.
fn push_imm_values(out: &mut String, ty: ImmType, w: &[u32; 4], opts: &PrintOptions) {
    let w64 = |k: usize| {
        let at = k.saturating_mul(2);
        w[at] as u64 | (w[at.saturating_add(1)] as u64) << 32
    };
    out.push('{');
    let n = match ty {
        ImmType::F32 | ImmType::U32 | ImmType::I32 => 4,
        ImmType::F64 | ImmType::U64 | ImmType::I64 => 2,
    };
    for (k, &word) in w.iter().enumerate().take(n) {
        if k > 0 {
            out.push_str(", ");
        }
        match ty {
            ImmType::F32 => out.push_str(&f32_text(word, opts)),
            ImmType::U32 => push_int(out, word),
            ImmType::I32 => push_int(out, word as i32),
            ImmType::F64 if opts.lossless => out.push_str(&fmt_f64_lossless(w64(k))),
            ImmType::F64 => out.push_str(&fmt_fixed(f64::from_bits(w64(k)), 10, 8)),
            ImmType::U64 => push_int(out, w64(k)),
            ImmType::I64 => push_int(out, w64(k) as i64),
        }
    }
    out.push('}');
}

fn push_declaration(s: &mut String, p: &Program, d: &Declaration, opts: &PrintOptions) {
    s.push_str("DCL ");
    s.push_str(d.file.name());
    if prints_implied(p.stage, d.file, d.semantic.map(|x| x.0)) {
        s.push_str("[]");
    }
    if let Some(DeclDimension::Index(k)) = d.dimension {
        let _ = write!(s, "[{k}]");
    }
    s.push('[');
    push_int(s, d.first);
    if d.first != d.last {
        s.push_str("..");
        push_int(s, d.last);
    }
    s.push(']');
    if d.usage_mask != WRITEMASK_XYZW {
        s.push('.');
        push_mask(s, d.usage_mask);
    }
    if d.file == File::ImmArray {
        s.push_str(" {");
        for (k, w) in d.values.iter().enumerate() {
            if k > 0 {
                s.push_str(", ");
            }
            push_imm_values(s, ImmType::F32, w, opts);
        }
        s.push('}');
    }
    if d.array_id != 0 {
        s.push_str(", ARRAY(");
        push_int(s, d.array_id);
        s.push(')');
    }
    if d.local {
        s.push_str(", LOCAL");
    }
    if let Some((name, index)) = d.semantic {
        s.push_str(", ");
        s.push_str(name.name());
        if index != 0 || matches!(name, SemanticName::Generic | SemanticName::TexCoord) {
            s.push('[');
            push_int(s, index);
            s.push(']');
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
                s.push_str(", WR");
            }
            if *raw {
                s.push_str(", RAW");
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
        Some(Resource::Buffer { atomic: true }) => s.push_str(", ATOMIC"),
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
        s.push_str(", INVARIANT");
    }
}

fn push_property(out: &mut String, prop: &Property) {
    out.push_str("PROPERTY ");
    out.push_str(prop.name.name());
    out.push(' ');
    let name =
        property_value_names(prop.name).and_then(|names| names.get(prop.value as usize).copied());
    match name {
        Some(name) => out.push_str(name),
        None => push_int(out, prop.value),
    }
}

/// Appends instruction `i` at nesting `level`: `  3:   MAD TEMP[0], ...`.
fn push_instruction(
    out: &mut String,
    p: &Program,
    structure: Option<&Structure>,
    i: usize,
    level: usize,
) {
    let insn = &p.instructions[i];
    let info = insn.opcode.info();
    let mut number = itoa::Buffer::new();
    let number = number.format(i);
    for _ in number.len()..3 {
        out.push(' ');
    }
    out.push_str(number);
    out.push_str(": ");
    for _ in 0..level {
        out.push_str("  ");
    }
    out.push_str(info.name);
    if insn.saturate != Saturate::None {
        out.push_str("_SAT");
    }
    if insn.precise {
        out.push_str("_PRECISE");
    }
    let mut sep = " ";
    for d in &insn.dst {
        out.push_str(sep);
        push_dst(out, d);
        sep = ", ";
    }
    for x in &insn.src {
        out.push_str(sep);
        push_src(out, x);
        sep = ", ";
    }
    // Texture target, offsets and memory extras always follow a ", " (tgsi_dump).
    if let Some(t) = insn.texture.filter(|_| info.has_texture_target) {
        out.push_str(", ");
        out.push_str(t.name());
    }
    for o in &insn.tex_offsets {
        out.push_str(", ");
        out.push_str(o.reg.file.name());
        out.push('[');
        push_int(out, o.reg.index.value);
        out.push_str("].");
        out.extend(o.swizzle.iter().map(|&c| comp_name(c)));
    }
    if let Some(mem) = &insn.mem {
        for q in MemQualifier::ALL {
            if mem.qualifiers & (1 << q.token()) != 0 {
                out.push_str(", ");
                out.push_str(q.name());
            }
        }
        if let Some(t) = mem.target.filter(|&t| t != TexTarget::Buffer) {
            out.push_str(", ");
            out.push_str(t.name());
        }
        if let Some(f) = mem
            .format
            .as_ref()
            .filter(|f| f.as_str() != "PIPE_FORMAT_NONE")
        {
            out.push_str(", ");
            out.push_str(f);
        }
    }
    let label = match insn.opcode {
        Opcode::IF | Opcode::UIF | Opcode::ELSE => structure
            .and_then(|st| st.computed_label(p, i))
            .or(insn.label),
        Opcode::CAL | Opcode::BGNLOOP | Opcode::ENDLOOP => insn.label,
        _ => None,
    };
    if let Some(l) = label {
        out.push_str(" :");
        push_int(out, l);
    }
}

/// Prints `p` in tgsi_dump form (or lossless form, see [`PrintOptions`]). Never panics,
/// even for invalid in-memory programs (out-of-range layout items are skipped).
pub(crate) fn print_program(p: &Program, opts: &PrintOptions) -> String {
    let structure = Structure::analyse(p).ok();
    let lines = p
        .instructions
        .len()
        .saturating_add(p.declarations.len())
        .saturating_add(8);
    let mut out = String::with_capacity(lines.saturating_mul(64));
    out += p.stage.name();
    out.push('\n');
    let mut level: usize = 0;
    for item in p.items() {
        let start = out.len();
        match item {
            Item::Property(i) => {
                if let Some(prop) = p.properties.get(i as usize) {
                    push_property(&mut out, prop);
                }
            }
            Item::Declaration(i) => {
                if let Some(d) = p.declarations.get(i as usize) {
                    push_declaration(&mut out, p, d, opts);
                }
            }
            Item::Immediate(i) => {
                if let Some(imm) = p.immediates.get(i as usize) {
                    out.push_str("IMM[");
                    push_int(&mut out, i);
                    out.push_str("] ");
                    out.push_str(imm.ty.name());
                    out.push(' ');
                    push_imm_values(&mut out, imm.ty, &imm.words, opts);
                }
            }
            Item::Instruction(i) => {
                if let Some(insn) = p.instructions.get(i as usize) {
                    let info = insn.opcode.info();
                    if info.pre_dedent {
                        level = level.saturating_sub(1);
                    }
                    push_instruction(&mut out, p, structure.as_ref(), i as usize, level);
                    if info.post_indent {
                        level = level.saturating_add(1);
                    }
                }
            }
        }
        if out.len() > start {
            out.push('\n');
        }
    }
    out
}
