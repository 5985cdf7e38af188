//! The ENCODING.md rules that turn ISA.xml elements into bit positions but are not in
//! the XML itself: implicit tag positions (§8.2), name normalisation (§8.1), type size
//! (§3.5), the secondary-opcode shape (§2.2) and the field-overlap check.

use super::{invalid, LoadError};
use crate::isa::{Enum, Field, InsDef, ModKind, SrcDef, WidenKind};

/// How an implicit modifier tag is encoded (ENCODING.md §8.2).
#[derive(Debug, Clone, Copy)]
pub(super) enum TagKind {
    /// 1-bit flag printed with this name.
    Flag(&'static str),
    /// Enum field; the enum's ISA.xml name.
    Enum(&'static str),
    /// `<sr_count/>`: staging register count, bits 33–35.
    SrCount,
    /// `<sr_write_count/>`: written staging count − 1, bits 36–38.
    SrWriteCount,
    /// No known position; not encoded, not printed.
    Ignored,
}

/// The implicit modifier tags of ENCODING.md §8.2: tag, kind, start bit, size.
///
/// `lod_bias_disable` / `lod_clamp_disable` are printed under their own tag names (Mesa
/// names both `lod_mode`, which would make `.lod_mode` ambiguous on TEX_GRADIENT and would
/// clash with the `lod_mode` enum's field name).
pub(super) const TAGS: &[(&str, TagKind, u8, u8)] = &[
    ("wide_indices", TagKind::Flag("wide_indices"), 8, 1),
    ("array_enable", TagKind::Flag("array_enable"), 10, 1),
    ("texel_offset", TagKind::Flag("texel_offset"), 11, 1),
    ("shadow", TagKind::Flag("shadow"), 12, 1),
    (
        "integer_coordinates",
        TagKind::Flag("integer_coordinates"),
        13,
        1,
    ),
    ("lod_mode", TagKind::Enum("LOD mode"), 13, 3),
    ("lod_bias_disable", TagKind::Flag("lod_bias_disable"), 13, 1),
    (
        "lod_clamp_disable",
        TagKind::Flag("lod_clamp_disable"),
        14,
        1,
    ),
    ("fetch_component", TagKind::Enum("Fetch component"), 14, 2),
    ("write_mask", TagKind::Enum("Write mask"), 22, 4),
    ("atom_opc", TagKind::Enum("Atomic operation"), 22, 4),
    (
        "atom_opc_1",
        TagKind::Enum("Atomic operation with 1"),
        22,
        4,
    ),
    ("inactive_result", TagKind::Enum("Inactive result"), 22, 4),
    ("memory_access", TagKind::Enum("Memory access"), 24, 2),
    ("regfmt", TagKind::Enum("Register format"), 24, 3),
    ("source_format", TagKind::Enum("Source format"), 24, 4),
    (
        "vartex_register_width",
        TagKind::Enum("Varying texture register width"),
        24,
        2,
    ),
    ("register_type", TagKind::Enum("Register type"), 26, 2),
    ("dimension", TagKind::Enum("Dimension"), 28, 2),
    ("vecsize", TagKind::Enum("Vector size"), 28, 2),
    ("slot", TagKind::Enum("Slot"), 30, 3),
    ("roundmode", TagKind::Enum("Round mode"), 30, 2),
    ("result_type", TagKind::Enum("Result type"), 30, 2),
    ("saturate", TagKind::Flag("saturate"), 30, 1),
    ("not_result", TagKind::Flag("not_result"), 30, 1),
    ("lane_op", TagKind::Enum("Lane operation"), 32, 2),
    ("clamp", TagKind::Enum("Clamp"), 32, 2),
    ("cmp", TagKind::Enum("Condition"), 32, 3),
    ("sr_count", TagKind::SrCount, 33, 3),
    (
        "sample_and_update",
        TagKind::Enum("Sample and update mode"),
        33,
        3,
    ),
    ("conservative", TagKind::Flag("conservative"), 35, 1),
    ("sr_write_count", TagKind::SrWriteCount, 36, 3),
    ("subgroup", TagKind::Enum("Subgroup size"), 36, 4),
    ("update", TagKind::Enum("Update mode"), 36, 2),
    ("sample", TagKind::Enum("Sample mode"), 38, 2),
    ("skip", TagKind::Flag("skip"), 39, 1),
    ("register_width", TagKind::Enum("Register width"), 46, 1),
    (
        "secondary_register_width",
        TagKind::Enum("Register width"),
        47,
        1,
    ),
    ("force_delta_enable", TagKind::Ignored, 0, 0),
    ("derivative_enable", TagKind::Ignored, 0, 0),
];

/// Normalises an enum or `va_mod` name for matching (ENCODING.md §8.1): lower case, runs
/// of other characters turned into one `_`, no leading/trailing `_`
/// (`"Load lane (32-bit)"` → `"load_lane_32_bit"`, `"NaN mode"` → `"nan_mode"`).
pub fn normalize_name(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    let mut pending = false;
    for c in name.chars() {
        if c.is_ascii_alphanumeric() {
            if pending && !out.is_empty() {
                out.push('_');
            }
            pending = false;
            out.push(c.to_ascii_lowercase());
        } else {
            pending = true;
        }
    }
    out
}

/// Type size of an instruction from its name (ENCODING.md §3.5): ends in `128` → 128,
/// `48` → 48, `8` → 8, two digits → their value, otherwise 32.
pub fn type_size(name: &str) -> u32 {
    if name.ends_with("128") {
        128
    } else if name.ends_with("48") {
        48
    } else if name.ends_with('8') {
        8
    } else {
        let b = name.as_bytes();
        if b.len() >= 2 && b[b.len() - 2].is_ascii_digit() && b[b.len() - 1].is_ascii_digit() {
            u32::from(b[b.len() - 2] - b'0') * 10 + u32::from(b[b.len() - 1] - b'0')
        } else {
            32
        }
    }
}

/// Position and mask of the secondary-opcode field (ENCODING.md §2.2, rules 1–7).
pub(super) fn secondary_shape(
    name: &str,
    opcode: u16,
    opcode2: Option<u16>,
    srcs: &[SrcDef],
    implied: &[String],
) -> (u8, u16) {
    let mut shift = (srcs.len() * 8).max(16) as u8;
    let mut mask: u16 = if opcode2.is_some() { 0xF } else { 0 };
    let has = |m: &str| implied.iter().any(|x| x == m);
    if has("left") {
        mask |= 0x100;
    }
    if srcs.len() == 3 {
        let s1 = &srcs[1];
        let wide = s1.swizzle.is_some()
            || matches!(s1.widen, Some((WidenKind::Widen | WidenKind::Lanes, _)));
        if wide {
            mask &= !0xC;
        }
    }
    if opcode == 0x90 {
        mask |= 0x10;
    }
    if name.starts_with("LOAD.i") || name.starts_with("STORE.i") || name.starts_with("LD_BUFFER.i")
    {
        shift = 27;
        mask = 0x7;
    }
    if has("descriptor_type") {
        shift = 37;
        mask = 0x3;
    } else if has("memory_width") {
        shift = 27;
        mask = 0x7;
    }
    (shift, mask)
}

/// Checks that no two fields of `def` overlap and that every enum field's enum exists;
/// returns the placeholder mask (bits of byte 5 holding `0xC0`, §5).
pub(super) fn check_layout(def: &InsDef, enums: &[Enum]) -> Result<u64, LoadError> {
    let mut fields: Vec<(String, u64)> = vec![
        ("primary opcode".into(), 0x1FF << 48),
        ("FAU page".into(), 3 << 57),
        ("flow".into(), 0xF << 59),
        ("bit 63".into(), 1 << 63),
    ];
    if let Some((mask, _)) = def.secondary_field() {
        fields.push(("secondary opcode".into(), mask));
    }
    if def.dests {
        fields.push(("destination".into(), 0xFF << 40));
    }
    let mut counts: Vec<Field> = Vec::new();
    for (i, sr) in def.staging.iter().enumerate() {
        fields.push((format!("staging {i}"), sr.reg.mask()));
        if sr.control.is_some() {
            fields.push((format!("staging {i} control"), 3 << 46));
        }
        if counts.contains(&sr.count) {
            return Err(invalid(&def.name, "two staging runs share one count field"));
        }
        counts.push(sr.count);
        fields.push((format!("staging {i} count"), sr.count.mask()));
    }
    for (i, s) in def.srcs.iter().enumerate() {
        fields.push((format!("source {i}"), s.byte_field().mask()));
        for (what, bit) in [("neg", s.neg), ("abs", s.abs), ("not", s.not)] {
            if let Some(b) = bit {
                fields.push((format!("source {i} {what}"), 1 << b));
            }
        }
        let sels = [
            ("swizzle", s.swizzle),
            ("widen", s.widen.map(|w| w.1)),
            ("lane", s.lane),
            ("combine", s.combine),
        ];
        for (what, f) in sels {
            if let Some(f) = f {
                fields.push((format!("source {i} {what}"), f.field.mask()));
            }
        }
    }
    for imm in &def.imms {
        fields.push((format!("immediate {}", imm.name), imm.field.mask()));
    }
    for m in &def.modifiers {
        if let ModKind::Enum(e) = m.kind {
            if e >= enums.len() {
                return Err(invalid(
                    &def.name,
                    format!("modifier {} has no enum", m.name),
                ));
            }
        }
        fields.push((format!("modifier {}", m.name), m.field.mask()));
    }
    let mut used = 0u64;
    for (name, mask) in &fields {
        if used & mask != 0 {
            let other = fields
                .iter()
                .find(|(_, m)| m & mask != 0)
                .map_or("?", |(n, _)| n.as_str());
            return Err(invalid(
                &def.name,
                format!("field `{name}` overlaps `{other}`"),
            ));
        }
        used |= mask;
    }
    let byte5_used = def.dests || def.staging.iter().any(|s| s.reg.start == 40);
    Ok(if byte5_used { 0 } else { (0xFF << 40) & !used })
}
