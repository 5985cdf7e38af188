//! Loading ISA.xml into an [`Isa`] (ENCODING.md §2–§8 and §10 turned into bit positions).
//!
//! The only facts that do not come from the XML are the rules ENCODING.md states for
//! turning it into bits: source-field positions (§4), staging placement (§6), the secondary
//! opcode shape (§2.2) and the positions of the implicit modifier tags (§8.2, table `TAGS` in `rules.rs`).
//! The loader checks that no two fields of an instruction overlap and that all
//! instructions sharing a primary opcode share the secondary-field shape.

use std::collections::HashMap;

use roxmltree::{Document, Node};

mod rules;

use rules::{check_layout, secondary_shape, TagKind, TAGS};
pub use rules::{normalize_name, type_size};

use crate::isa::{
    Enum, EnumField, EnumId, EnumValue, Field, ImmDef, InsDef, InsId, Isa, ModDef, ModKind, SrDef,
    SrFlags, SrcDef, Unit, WidenKind,
};

/// Error loading an ISA description: the XML did not parse, or it says something the
/// encoding rules of ENCODING.md cannot place. `context` names the element (e.g. the
/// instruction) concerned.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LoadError {
    /// The text is not well-formed XML.
    #[error("ISA.xml does not parse: {0}")]
    Xml(String),
    /// The XML parses but does not fit the expected structure or encoding rules.
    #[error("ISA.xml: {context}: {reason}")]
    Invalid {
        /// Element concerned (instruction or enum name, or a tag).
        context: String,
        /// What is wrong.
        reason: String,
    },
}

fn invalid(context: impl Into<String>, reason: impl Into<String>) -> LoadError {
    LoadError::Invalid {
        context: context.into(),
        reason: reason.into(),
    }
}

fn parse_int(text: &str) -> Option<u64> {
    let t = text.trim();
    if let Some(hex) = t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        u64::from_str_radix(hex, 16).ok()
    } else {
        t.parse().ok()
    }
}

fn desc_text(node: Node) -> Option<String> {
    let d = node
        .children()
        .find(|c| c.is_element() && c.has_tag_name("desc"))?;
    let t: String = d.descendants().filter_map(|n| n.text()).collect();
    let t = t.trim();
    (!t.is_empty()).then(|| t.to_string())
}

fn own_text(node: Node) -> Option<String> {
    let t: String = node
        .children()
        .filter(|n| n.is_text())
        .filter_map(|n| n.text())
        .collect();
    let t = t.trim();
    (!t.is_empty()).then(|| t.to_string())
}

fn is_true(node: Node, attr: &str) -> bool {
    node.attribute(attr) == Some("true")
}

/// Parses ISA.xml text into an [`Isa`].
///
/// # Errors
/// [`LoadError::Xml`] when the text is not XML, [`LoadError::Invalid`] when an element
/// cannot be placed by the ENCODING.md rules (unknown tag or enum, overlapping fields,
/// inconsistent secondary opcodes, …).
pub fn load(text: &str) -> Result<Isa, LoadError> {
    let doc = Document::parse(text).map_err(|e| LoadError::Xml(e.to_string()))?;
    let root = doc.root_element();
    if !root.has_tag_name("valhall") {
        return Err(invalid(
            root.tag_name().name(),
            "root element is not <valhall>",
        ));
    }

    let mut immediates = Vec::new();
    let mut enums = Vec::new();
    let mut ins_nodes = Vec::new();
    for child in root.children().filter(|c| c.is_element()) {
        match child.tag_name().name() {
            "lut" => immediates = load_lut(child)?,
            "enum" => enums.push(load_enum(child)?),
            "ins" => ins_nodes.push((child, None)),
            "group" => {
                for ins in child.children().filter(|c| c.has_tag_name("ins")) {
                    ins_nodes.push((ins, Some(child)));
                }
            }
            other => return Err(invalid(other, "unknown top-level element")),
        }
    }
    if immediates.len() != 32 {
        return Err(invalid(
            "lut Immediates",
            format!("{} constants, expected 32", immediates.len()),
        ));
    }

    let mut enum_by_name = HashMap::new();
    let mut enum_by_norm = HashMap::new();
    for (i, e) in enums.iter().enumerate() {
        if enum_by_name.insert(e.name.clone(), i).is_some() {
            return Err(invalid(&e.name, "duplicate enum name"));
        }
        enum_by_norm.insert(normalize_name(&e.name), i);
    }
    let find_enum = |name: &str, ctx: &str| -> Result<EnumId, LoadError> {
        enum_by_name
            .get(name)
            .copied()
            .ok_or_else(|| invalid(ctx, format!("needs enum `{name}`, which ISA.xml lacks")))
    };
    let flow = find_enum("Flow", "flow")?;
    let mut fau_special_pages = [None; 4];
    for (page, slot) in fau_special_pages.iter_mut().enumerate() {
        *slot = enum_by_name
            .get(&format!("FAU special page {page}"))
            .copied();
    }

    let ctx = Ctx {
        enums: &enums,
        enum_by_name: &enum_by_name,
        enum_by_norm: &enum_by_norm,
    };
    let mut instructions = Vec::new();
    let mut by_name: HashMap<String, InsId, crate::isa::NameHash> = HashMap::default();
    let mut by_opcode: Vec<Vec<InsId>> = vec![Vec::new(); 512];
    for (node, group) in ins_nodes {
        let id = u16::try_from(instructions.len())
            .map(InsId)
            .map_err(|_| invalid("ISA", "more than 65535 instructions"))?;
        let def = ctx.load_ins(id, node, group)?;
        if by_name.insert(def.name.clone(), id).is_some() {
            return Err(invalid(&def.name, "duplicate instruction name"));
        }
        by_opcode[usize::from(def.opcode)].push(id);
        instructions.push(def);
    }

    // Every member of a primary-opcode bucket must use the same secondary field and a
    // distinct secondary opcode (ENCODING.md §2.2), so decoding is unambiguous.
    for bucket in &by_opcode {
        let defs: Vec<&InsDef> = bucket
            .iter()
            .map(|id| &instructions[usize::from(id.0)])
            .collect();
        if defs.len() < 2 {
            continue;
        }
        for d in &defs {
            let (Some(op2), first) = (d.opcode2, defs[0]) else {
                return Err(invalid(
                    &d.name,
                    "shares its primary opcode but has no opcode2",
                ));
            };
            if (d.secondary_shift, d.secondary_mask)
                != (first.secondary_shift, first.secondary_mask)
            {
                return Err(invalid(
                    &d.name,
                    format!("secondary field differs from {}", first.name),
                ));
            }
            if defs
                .iter()
                .any(|o| o.name != d.name && o.opcode2 == Some(op2))
            {
                return Err(invalid(&d.name, "duplicate secondary opcode"));
            }
        }
    }

    Ok(Isa {
        immediates,
        enums,
        instructions,
        flow,
        fau_special_pages,
        by_opcode,
        by_name,
        enum_by_name,
    })
}

fn load_lut(node: Node) -> Result<Vec<u32>, LoadError> {
    if node.attribute("name") != Some("Immediates") {
        return Err(invalid("lut", "only <lut name=\"Immediates\"> is known"));
    }
    node.children()
        .filter(|c| c.is_element() && c.has_tag_name("constant"))
        .map(|c| {
            let t = c.text().unwrap_or("");
            parse_int(t)
                .and_then(|v| u32::try_from(v).ok())
                .ok_or_else(|| invalid("lut Immediates", format!("bad constant `{t}`")))
        })
        .collect()
}

fn load_enum(node: Node) -> Result<Enum, LoadError> {
    let name = node
        .attribute("name")
        .ok_or_else(|| invalid("enum", "missing name"))?
        .to_string();
    let mut values = Vec::new();
    let mut default = None;
    for c in node.children().filter(|c| c.is_element()) {
        match c.tag_name().name() {
            "value" => {
                let text = c.text().unwrap_or("").trim().to_string();
                if text.is_empty() {
                    return Err(invalid(&name, "empty <value>"));
                }
                if values.iter().flatten().any(|v: &EnumValue| v.text == text) {
                    return Err(invalid(&name, format!("duplicate value `{text}`")));
                }
                if is_true(c, "default") {
                    if default.is_some() {
                        return Err(invalid(&name, "two default values"));
                    }
                    default = Some(values.len());
                }
                values.push(Some(EnumValue {
                    text,
                    name: c.attribute("name").map(str::to_string),
                    desc: c.attribute("desc").map(str::to_string),
                }));
            }
            "reserved" => values.push(None),
            "desc" => {}
            other => return Err(invalid(&name, format!("unknown child <{other}>"))),
        }
    }
    Ok(Enum {
        desc: desc_text(node),
        implied: is_true(node, "implied"),
        name,
        values,
        default,
    })
}

struct Ctx<'a> {
    enums: &'a [Enum],
    enum_by_name: &'a HashMap<String, EnumId>,
    enum_by_norm: &'a HashMap<String, EnumId>,
}

impl Ctx<'_> {
    fn enum_field(
        &self,
        ins: &str,
        enum_name: &str,
        start: u8,
        size: u8,
    ) -> Result<EnumField, LoadError> {
        let enum_id = *self.enum_by_name.get(enum_name).ok_or_else(|| {
            invalid(
                ins,
                format!("needs enum `{enum_name}`, which ISA.xml lacks"),
            )
        })?;
        Ok(EnumField {
            field: Field { start, size },
            enum_id,
        })
    }

    fn load_ins(&self, id: InsId, node: Node, group: Option<Node>) -> Result<InsDef, LoadError> {
        let attr = |k: &str| {
            node.attribute(k)
                .or_else(|| group.and_then(|g| g.attribute(k)))
        };
        let name = node
            .attribute("name")
            .ok_or_else(|| invalid("ins", "missing name"))?
            .to_string();
        let n = name.as_str();
        if group.is_some() && node.children().any(|c| c.is_element()) {
            return Err(invalid(n, "group member with child elements"));
        }
        let opcode = attr("opcode")
            .and_then(parse_int)
            .filter(|&o| o < 512)
            .ok_or_else(|| invalid(n, "missing or bad 9-bit opcode"))? as u16;
        let opcode2 = match attr("opcode2") {
            None => None,
            Some(t) => Some(
                parse_int(t)
                    .and_then(|v| u16::try_from(v).ok())
                    .ok_or_else(|| invalid(n, format!("bad opcode2 `{t}`")))?,
            ),
        };
        let unit_text = attr("unit").ok_or_else(|| invalid(n, "missing unit"))?;
        let unit = Unit::from_xml(unit_text)
            .ok_or_else(|| invalid(n, format!("unknown unit `{unit_text}`")))?;
        let dests = match attr("dests") {
            None | Some("0") => false,
            Some("1") => true,
            Some(o) => return Err(invalid(n, format!("unsupported dests=\"{o}\""))),
        };
        let tsize = type_size(n);
        let base = group.unwrap_or(node);

        let mut srcs = Vec::new();
        let mut sr_nodes = Vec::new();
        let mut imms = Vec::new();
        let mut modifiers = Vec::new();
        let mut implied_modifiers = Vec::new();
        let mut ignored_tags = Vec::new();
        let (mut has_sr_count, mut has_sr_write_count) = (false, false);
        let mut slot = 0u8;
        for c in base.children().filter(|c| c.is_element()) {
            let tag = c.tag_name().name();
            match tag {
                "ins" | "desc" => {}
                "src" => {
                    if is_true(c, "pseudo") {
                        continue;
                    }
                    let src = self.load_src(n, c, slot, tsize)?;
                    slot += if tsize != 64 && src.size == 64 { 2 } else { 1 };
                    srcs.push(src);
                }
                "sr" => sr_nodes.push(c),
                "imm" => {
                    let iname = c
                        .attribute("name")
                        .ok_or_else(|| invalid(n, "imm without name"))?;
                    let start = c.attribute("start").and_then(parse_int);
                    let size = c.attribute("size").and_then(parse_int);
                    let (Some(start), Some(size)) = (start, size) else {
                        return Err(invalid(n, format!("imm `{iname}` needs start and size")));
                    };
                    if size == 0 || size > 32 || start + size > 63 {
                        return Err(invalid(n, format!("imm `{iname}` does not fit")));
                    }
                    imms.push(ImmDef {
                        name: iname.to_string(),
                        field: Field {
                            start: start as u8,
                            size: size as u8,
                        },
                        signed: is_true(c, "signed"),
                    });
                }
                "immediate" if is_true(c, "pseudo") => {}
                "va_mod" => {
                    let mname = c
                        .attribute("name")
                        .ok_or_else(|| invalid(n, "va_mod without name"))?;
                    let start = c.attribute("start").and_then(parse_int);
                    let size = c.attribute("size").and_then(parse_int);
                    let (Some(start), Some(size)) = (start, size) else {
                        return Err(invalid(n, format!("va_mod `{mname}` needs start and size")));
                    };
                    if start >= 64 || is_true(c, "implied") {
                        implied_modifiers.push(mname.to_string());
                        continue;
                    }
                    if size == 0 || size > 8 || start + size > 63 {
                        return Err(invalid(n, format!("va_mod `{mname}` does not fit")));
                    }
                    let kind = if size == 1 {
                        ModKind::Flag
                    } else {
                        ModKind::Enum(*self.enum_by_norm.get(&normalize_name(mname)).ok_or_else(
                            || invalid(n, format!("no enum matches va_mod `{mname}`")),
                        )?)
                    };
                    modifiers.push(ModDef {
                        name: mname.to_string(),
                        field: Field {
                            start: start as u8,
                            size: size as u8,
                        },
                        kind,
                    });
                }
                _ => {
                    if is_true(c, "pseudo") {
                        continue;
                    }
                    let &(_, kind, start, size) = TAGS
                        .iter()
                        .find(|t| t.0 == tag)
                        .ok_or_else(|| invalid(n, format!("unknown modifier tag <{tag}>")))?;
                    let field = Field { start, size };
                    match kind {
                        TagKind::Flag(fname) => modifiers.push(ModDef {
                            name: fname.to_string(),
                            field,
                            kind: ModKind::Flag,
                        }),
                        TagKind::Enum(ename) => modifiers.push(ModDef {
                            name: tag.to_string(),
                            field,
                            kind: ModKind::Enum(self.enum_field(n, ename, start, size)?.enum_id),
                        }),
                        TagKind::SrCount => has_sr_count = true,
                        TagKind::SrWriteCount => has_sr_write_count = true,
                        TagKind::Ignored => ignored_tags.push(tag.to_string()),
                    }
                }
            }
        }
        if slot > 4 {
            return Err(invalid(n, "sources need more than 4 slots"));
        }

        let mut staging = Vec::new();
        for c in sr_nodes {
            let read = is_true(c, "read");
            let write = is_true(c, "write");
            if read == write {
                return Err(invalid(n, "<sr> must be exactly one of read/write"));
            }
            let flags = match c.attribute("flags") {
                None | Some("true") => SrFlags::Default,
                Some("rw") => SrFlags::ReadWrite,
                Some("false") => SrFlags::None,
                Some(o) => return Err(invalid(n, format!("unknown sr flags `{o}`"))),
            };
            let (reg_start, control) = match flags {
                SrFlags::Default => (40, Some(if write { 0b10 } else { 0b01 })),
                SrFlags::ReadWrite => (40, Some(0b11)),
                SrFlags::None => (if write { 16 } else { 40 }, None),
            };
            let (count, count_bias) = if write && has_sr_write_count {
                (Field { start: 36, size: 3 }, 1)
            } else if has_sr_count {
                (Field { start: 33, size: 3 }, 0)
            } else {
                return Err(invalid(n, "staging register without a count field"));
            };
            staging.push(SrDef {
                read,
                write,
                flags,
                reg: Field {
                    start: reg_start,
                    size: 6,
                },
                control,
                count,
                count_bias,
                desc: own_text(c),
            });
        }

        let (secondary_shift, secondary_mask) =
            secondary_shape(n, opcode, opcode2, &srcs, &implied_modifiers);
        if let Some(op2) = opcode2 {
            if op2 & !secondary_mask != 0 {
                return Err(invalid(n, "opcode2 does not fit the secondary field"));
            }
        }

        let mut def = InsDef {
            id,
            group: group.and_then(|g| g.attribute("name")).map(str::to_string),
            title: attr("title").map(str::to_string),
            desc: desc_text(node).or_else(|| group.and_then(desc_text)),
            opcode,
            opcode2,
            secondary_shift,
            secondary_mask,
            unit,
            dests,
            type_size: tsize,
            srcs,
            staging,
            imms,
            modifiers,
            implied_modifiers,
            ignored_tags,
            has_sr_count,
            has_sr_write_count,
            placeholder_mask: 0,
            unused: attr("unused") == Some("true"),
            message: attr("message").map(str::to_string),
            last: attr("last") == Some("true"),
            name,
        };
        def.placeholder_mask = check_layout(&def, self.enums)?;
        Ok(def)
    }

    fn load_src(&self, ins: &str, c: Node, slot: u8, tsize: u32) -> Result<SrcDef, LoadError> {
        let size = match c.attribute("size") {
            None => tsize,
            Some(t) => parse_int(t)
                .and_then(|v| u32::try_from(v).ok())
                .ok_or_else(|| invalid(ins, format!("bad source size `{t}`")))?,
        };
        let ctx = format!("{ins} source slot {slot}");
        let mut src = SrcDef {
            slot,
            size,
            float: is_true(c, "float"),
            neg: None,
            abs: None,
            not: None,
            swizzle: None,
            widen: None,
            lane: None,
            combine: None,
            desc: own_text(c),
        };
        if is_true(c, "absneg") {
            if slot > 2 {
                return Err(invalid(&ctx, "absneg on a source past slot 2"));
            }
            src.neg = Some(38 - 2 * slot);
            src.abs = Some(39 - 2 * slot);
        }
        if is_true(c, "not") {
            src.not = Some(35);
        }
        let mut selectors = 0;
        if is_true(c, "swizzle") {
            selectors += 1;
            if slot > 2 {
                return Err(invalid(&ctx, "swizzle on a source past slot 2"));
            }
            let e = match size {
                16 => "Swizzles (16-bit)",
                32 => "Widen",
                _ => return Err(invalid(&ctx, format!("swizzle on a {size}-bit source"))),
            };
            src.swizzle = Some(self.enum_field(ins, e, 28 - 2 * slot, 2)?);
        }
        for (attr, kind) in [
            ("widen", WidenKind::Widen),
            ("lanes", WidenKind::Lanes),
            ("halfswizzle", WidenKind::HalfSwizzle),
        ] {
            if is_true(c, attr) {
                selectors += 1;
                let e = match kind {
                    WidenKind::Widen => format!("Swizzles ({size}-bit)"),
                    WidenKind::Lanes => "Lanes (8-bit)".to_string(),
                    WidenKind::HalfSwizzle => "Half-swizzles (8-bit)".to_string(),
                };
                let start = if slot == 1 { 26 } else { 36 };
                src.widen = Some((kind, self.enum_field(ins, &e, start, 4)?));
            }
        }
        if let Some(lane) = c.attribute("lane") {
            selectors += 1;
            let start = match lane {
                "true" => {
                    if slot == 0 {
                        38
                    } else {
                        36
                    }
                }
                t => parse_int(t)
                    .filter(|&v| v < 62)
                    .ok_or_else(|| invalid(&ctx, format!("bad lane `{t}`")))?
                    as u8,
            };
            let (bits, e) = match size {
                8 | 32 => (2, "Lane (8-bit)"),
                16 => (1, "Lane (16-bit)"),
                _ => return Err(invalid(&ctx, format!("lane on a {size}-bit source"))),
            };
            src.lane = Some(self.enum_field(ins, e, start, bits)?);
        }
        if is_true(c, "combine") {
            selectors += 1;
            src.combine = Some(self.enum_field(ins, "Combine", 37, 3)?);
        }
        if selectors > 1 {
            return Err(invalid(
                &ctx,
                "more than one swizzle/widen/lane/combine attribute",
            ));
        }
        Ok(src)
    }
}
