//! Semantic checks of a [`Program`] (run by the TGSI front-end's `parse`; also usable on programs built
//! in memory).
//!
//! Checked: control structure ([`Structure::analyse`]); operand counts from opcodes.csv;
//! every register used is declared (IMM\[i\] must exist; NULL needs nothing), direct indices
//! lie in a declared range (2-D too: `CONST[b][i]`, `IN[v][i]`), address registers of
//! indirect indices are declared; writemasks non-empty; destinations writable (not IN,
//! CONST, IMM, SV, IMMX, SAMP, SVIEW, RES, CONSTBUF); texture targets present exactly on
//! texture opcodes; labels only where TGSI has them.
//!
//! Also checked, so that printing is lossless (`parse(print(p)) == p`): the fields the
//! printer cannot show are in canonical form — IF/UIF/ELSE labels `None` (they are
//! recomputed), interpolation only on FRAG inputs, no CENTER location, no all-zero STREAM,
//! the implied dimension exactly on GEOM/TESS per-vertex declarations, empty `MemInfo`
//! stored as `None`, resources matching their file, a valid `layout`.
//!
//! A 1-D `CONST[i]` and a 2-D `CONST[0][i]` name the same register (constant buffer 0), in
//! declarations and in uses, as in Gallium.

use crate::error::ParseError;
use crate::names::*;
use crate::opcode::Opcode;
use crate::program::*;
use crate::structure::Structure;
use crate::text::{implied_context, prints_implied, register_text};

/// Checks `p`; errors carry positions from `p.source_map` (`0:0` when unknown).
/// `file_name` is used in messages only.
pub fn validate(p: &Program, file_name: &str) -> Result<(), ParseError> {
    let v = Validator { p, file: file_name };
    v.layout()?;
    v.properties()?;
    for (i, d) in p.declarations.iter().enumerate() {
        v.declaration(i, d)?;
    }
    for i in 0..p.instructions.len() {
        v.instruction(i)?;
    }
    if let Err(e) = Structure::analyse(p) {
        return v.err(v.insn_pos(e.index), e.message);
    }
    Ok(())
}

struct Validator<'a> {
    p: &'a Program,
    file: &'a str,
}

/// Files a destination may not name.
fn read_only(file: File) -> bool {
    matches!(
        file,
        File::Input
            | File::Const
            | File::Immediate
            | File::SystemValue
            | File::ImmArray
            | File::Sampler
            | File::SamplerView
            | File::Resource
            | File::ConstBuf
    )
}

/// `TEMP[0..3]`, `CONST[1][0..3]`, `IN[][0]` for messages.
fn decl_text(d: &Declaration) -> String {
    let dim = match d.dimension {
        Some(DeclDimension::Index(k)) => format!("[{k}]"),
        Some(DeclDimension::Implied) => "[]".into(),
        None => String::new(),
    };
    let range = if d.first == d.last {
        format!("[{}]", d.first)
    } else {
        format!("[{}..{}]", d.first, d.last)
    };
    format!("{}{dim}{range}", d.file.name())
}

impl<'a> Validator<'a> {
    fn err<T>(&self, pos: Pos, message: impl Into<String>) -> Result<T, ParseError> {
        Err(ParseError::new(self.file, pos, message))
    }

    fn insn_pos(&self, i: usize) -> Pos {
        self.p.source_map.instruction(i).unwrap_or_default()
    }

    fn decl_pos(&self, i: usize) -> Pos {
        self.p
            .source_map
            .declarations
            .get(i)
            .copied()
            .unwrap_or_default()
    }

    fn layout(&self) -> Result<(), ParseError> {
        let p = self.p;
        if p.layout.is_empty() {
            return Ok(());
        }
        let mut next = [0u32; 4];
        let lens = [
            p.properties.len(),
            p.declarations.len(),
            p.immediates.len(),
            p.instructions.len(),
        ];
        for item in &p.layout {
            let (k, i) = match *item {
                Item::Property(i) => (0, i),
                Item::Declaration(i) => (1, i),
                Item::Immediate(i) => (2, i),
                Item::Instruction(i) => (3, i),
            };
            if i != next[k] {
                return self.err(
                    Pos::default(),
                    format!(
                        "layout lists {item:?} out of order (expected index {})",
                        next[k]
                    ),
                );
            }
            next[k] += 1;
        }
        if (0..4).any(|k| next[k] as usize != lens[k]) {
            return self.err(
                Pos::default(),
                "layout does not list every statement exactly once",
            );
        }
        Ok(())
    }

    fn properties(&self) -> Result<(), ParseError> {
        for prop in &self.p.properties {
            let max = match prop.name {
                PropertyName::GsInputPrimitive | PropertyName::GsOutputPrimitive => {
                    Primitive::ALL.len()
                }
                PropertyName::FsCoordOrigin | PropertyName::FsCoordPixelCenter => 2,
                PropertyName::NextShader => Processor::ALL.len(),
                _ => continue,
            };
            if prop.value as usize >= max {
                return self.err(
                    Pos::default(),
                    format!("PROPERTY {} value {} has no name", prop.name, prop.value),
                );
            }
        }
        Ok(())
    }

    fn declaration(&self, i: usize, d: &Declaration) -> Result<(), ParseError> {
        let pos = self.decl_pos(i);
        let stage = self.p.stage;
        let name = decl_text(d);
        if d.first > d.last {
            return self.err(pos, format!("declaration {name}: first index above last"));
        }
        if d.usage_mask == 0 || d.usage_mask > WRITEMASK_XYZW {
            return self.err(
                pos,
                format!("declaration {name}: usage mask must be a non-empty subset of xyzw"),
            );
        }
        let implied = prints_implied(stage, d.file, d.semantic.map(|s| s.0));
        match d.dimension {
            Some(DeclDimension::Implied) if !implied => {
                return self.err(pos, format!("declaration {name}: only per-vertex GEOM/TESS declarations have an implied dimension"));
            }
            None if implied => {
                return self.err(pos, format!("declaration {name}: per-vertex {stage} {} need the implied dimension `{}[][n]`", d.file, d.file));
            }
            // tgsi_dump prints GEOM inputs as `IN[][n]`, which only parses with an implied
            // size (TEXT-FORMAT.md §6.3): without the property the program has no text form.
            Some(DeclDimension::Implied)
                if stage == Stage::Geometry && self.p.gs_input_vertices().is_none() =>
            {
                return self.err(pos, format!("declaration {name}: per-vertex GEOM inputs need `PROPERTY GS_INPUT_PRIMITIVE` (the size of their vertex dimension, TEXT-FORMAT.md §6.3)"));
            }
            Some(DeclDimension::Index(_)) if implied_context(stage, d.file) => {
                return self.err(pos, format!("declaration {name}: the vertex dimension of {stage} {} is implied, not an index", d.file));
            }
            _ => {}
        }
        let resource_ok = match (&d.resource, d.file) {
            (Some(Resource::SamplerView { .. }), File::SamplerView | File::Resource) => true,
            (Some(Resource::Image { .. }), File::Image) => true,
            (Some(Resource::Buffer { .. }), File::Buffer) => true,
            (Some(Resource::Memory(_)), File::Memory) => true,
            (None, f) => !matches!(
                f,
                File::SamplerView | File::Resource | File::Image | File::Buffer | File::Memory
            ),
            _ => false,
        };
        if !resource_ok {
            return self.err(
                pos,
                format!("declaration {name}: resource information does not match the file"),
            );
        }
        let want_values = if d.file == File::ImmArray {
            (d.last - d.first) as usize + 1
        } else {
            0
        };
        if d.values.len() != want_values {
            return self.err(
                pos,
                format!(
                    "declaration {name}: expected {want_values} inline value vectors, found {}",
                    d.values.len()
                ),
            );
        }
        if (d.interpolation.is_some() || d.location.is_some())
            && !(stage == Stage::Fragment && d.file == File::Input)
        {
            return self.err(
                pos,
                format!("declaration {name}: interpolation is only printed on FRAG inputs"),
            );
        }
        if d.location.is_some()
            && (d.interpolation.is_none() || d.location == Some(InterpLocation::Center))
        {
            return self.err(pos, format!("declaration {name}: a location needs an interpolation mode and must not be CENTER (the default)"));
        }
        if let Some(st) = d.stream {
            if !(stage == Stage::Geometry && d.file == File::Output && d.semantic.is_some())
                || st.iter().all(|&s| s == 0)
                || st.iter().any(|&s| s > 3)
            {
                return self.err(pos, format!("declaration {name}: STREAM needs a GEOM output with a semantic and streams 0..3, not all 0"));
            }
        }
        if stage == Stage::Vertex
            && d.file == File::Input
            && (d.semantic.is_some() || d.local || d.invariant)
        {
            return self.err(
                pos,
                format!("declaration {name}: VERT inputs take no semantic or attributes"),
            );
        }
        Ok(())
    }

    fn instruction(&self, i: usize) -> Result<(), ParseError> {
        let p = self.p;
        let insn = &p.instructions[i];
        let info = insn.opcode.info();
        let pos = self.insn_pos(i);
        let legacy_no_stream =
            matches!(insn.opcode, Opcode::EMIT | Opcode::ENDPRIM) && insn.src.is_empty();
        if insn.dst.len() != info.num_dst as usize
            || (insn.src.len() != info.num_src as usize && !legacy_no_stream)
        {
            return self.err(
                pos,
                format!(
                    "{} takes {} destination(s) and {} source(s), found {} and {}",
                    info.name,
                    info.num_dst,
                    info.num_src,
                    insn.dst.len(),
                    insn.src.len()
                ),
            );
        }
        match (info.has_texture_target, insn.texture) {
            (true, None) => return self.err(pos, format!("{} needs a texture target", info.name)),
            (false, Some(t)) => {
                return self.err(
                    pos,
                    format!("{} takes no texture target, found {t}", info.name),
                )
            }
            _ => {}
        }
        if !insn.tex_offsets.is_empty() && (!info.has_tex_offsets || insn.tex_offsets.len() > 4) {
            return self.err(
                pos,
                format!(
                    "{} takes {} texel offsets",
                    info.name,
                    if info.has_tex_offsets {
                        "at most 4"
                    } else {
                        "no"
                    }
                ),
            );
        }
        if let Some(mem) = &insn.mem {
            if !info.has_mem_qualifiers {
                return self.err(pos, format!("{} takes no memory qualifiers", info.name));
            }
            if mem.qualifiers > 0xF
                || *mem == MemInfo::default()
                || mem.target == Some(TexTarget::Buffer)
                || mem.format.as_deref() == Some("PIPE_FORMAT_NONE")
            {
                return self.err(pos, format!("{}: non-canonical memory info (use None for no extras, no BUFFER target, no PIPE_FORMAT_NONE)", info.name));
            }
        }
        match insn.opcode {
            Opcode::IF | Opcode::UIF | Opcode::ELSE if insn.label.is_some() => {
                return self.err(
                    pos,
                    format!(
                        "{} labels are computed from the structure: store None",
                        info.name
                    ),
                );
            }
            op if insn.label.is_some()
                && !matches!(
                    op,
                    Opcode::IF
                        | Opcode::UIF
                        | Opcode::ELSE
                        | Opcode::CAL
                        | Opcode::BGNLOOP
                        | Opcode::ENDLOOP
                ) =>
            {
                return self.err(pos, format!("{} takes no label", info.name));
            }
            _ => {}
        }
        let nd = insn.dst.len();
        for (k, d) in insn.dst.iter().enumerate() {
            let opos = p.source_map.operand(i, k).unwrap_or_default();
            if d.writemask == 0 || d.writemask > WRITEMASK_XYZW {
                return self.err(opos, "expected a non-empty writemask (subset of xyzw)");
            }
            if read_only(d.reg.file) {
                return self.err(
                    opos,
                    format!(
                        "{} is read-only: expected a writable destination (TEMP, OUT, ADDR, ...)",
                        d.reg.file
                    ),
                );
            }
            self.register(&d.reg, opos)?;
        }
        for (k, s) in insn.src.iter().enumerate() {
            let opos = p.source_map.operand(i, nd + k).unwrap_or_default();
            if s.swizzle.iter().any(|&c| c > 3) {
                return self.err(opos, "swizzle components must be 0..3");
            }
            self.register(&s.reg, opos)?;
        }
        self.interpolation_source(i)?;
        for (k, o) in insn.tex_offsets.iter().enumerate() {
            let opos = p
                .source_map
                .operand(i, nd + insn.src.len() + k)
                .unwrap_or_default();
            if o.reg.is_indirect() || o.reg.dimension.is_some() || o.swizzle.iter().any(|&c| c > 3)
            {
                return self.err(
                    opos,
                    "expected a direct 1-D texel offset register with components 0..3",
                );
            }
            self.register(&o.reg, opos)?;
        }
        Ok(())
    }

    /// tgsi.rst "Interpolation ISA": INTERP_CENTROID / INTERP_SAMPLE / INTERP_OFFSET
    /// interpolate a fragment input: the program is FRAG and the first source an IN
    /// register (error at that operand).
    fn interpolation_source(&self, i: usize) -> Result<(), ParseError> {
        let p = self.p;
        let insn = &p.instructions[i];
        if !matches!(
            insn.opcode,
            Opcode::INTERP_CENTROID | Opcode::INTERP_SAMPLE | Opcode::INTERP_OFFSET
        ) {
            return Ok(());
        }
        let name = insn.opcode.info().name;
        if p.stage != Stage::Fragment {
            return self.err(
                self.insn_pos(i),
                format!("{name} is allowed in FRAG programs only (tgsi.rst \"Interpolation ISA\")"),
            );
        }
        match insn.src.first() {
            Some(s) if s.reg.file != File::Input => {
                let opos = p.source_map.operand(i, insn.dst.len()).unwrap_or_default();
                self.err(
                    opos,
                    format!(
                        "{name}: the first source must be an IN register (tgsi.rst \
                         \"Interpolation ISA\"), found {}",
                        s.reg.file
                    ),
                )
            }
            _ => Ok(()),
        }
    }

    fn indirect(&self, ind: &Indirect, pos: Pos) -> Result<(), ParseError> {
        if ind.component > 3 {
            return self.err(pos, "address component must be 0..3");
        }
        let declared = self
            .p
            .decls(ind.file)
            .any(|d| d.dimension.is_none() && d.contains(ind.index as i64));
        if !declared {
            return self.err(
                pos,
                format!(
                    "address register {}[{}] is not declared (expected `DCL {}[{}]`)",
                    ind.file, ind.index, ind.file, ind.index
                ),
            );
        }
        Ok(())
    }

    /// Whether declaration `d` covers a use with dimension `dim` (already checked for `d`'s range).
    fn dimension_matches(&self, d: &Declaration, dim: Option<&Index>) -> bool {
        let is_const = d.file == File::Const;
        let use_dim = match dim {
            None if is_const => Some(0),
            None => None,
            Some(ix) if ix.indirect.is_some() => return d.dimension.is_some() || is_const,
            Some(ix) => Some(ix.value as i64),
        };
        match d.dimension {
            Some(DeclDimension::Implied) => match use_dim {
                None => false,
                Some(v) => v >= 0 && (v as u64) < self.implied_size() as u64,
            },
            Some(DeclDimension::Index(k)) => use_dim == Some(k as i64),
            None if is_const => use_dim == Some(0),
            None => use_dim.is_none(),
        }
    }

    /// Vertices of an implied dimension (GEOM: from GS_INPUT_PRIMITIVE, else no limit).
    fn implied_size(&self) -> u32 {
        match self.p.stage {
            Stage::Geometry => self.p.gs_input_vertices().unwrap_or(u32::MAX),
            _ => 32,
        }
    }

    fn register(&self, r: &Register, pos: Pos) -> Result<(), ParseError> {
        for ix in std::iter::once(&r.index).chain(r.dimension.as_ref()) {
            if ix.indirect.is_none() && ix.array_id != 0 {
                return self.err(
                    pos,
                    "an array id is only kept on indirect indices (store 0)",
                );
            }
        }
        if let Some(ind) = &r.index.indirect {
            self.indirect(ind, pos)?;
        }
        if let Some(ind) = r.dimension.as_ref().and_then(|d| d.indirect.as_ref()) {
            self.indirect(ind, pos)?;
        }
        let text = || register_text(r);
        match r.file {
            File::Null => Ok(()),
            File::Immediate => {
                let n = self.p.immediates.len();
                if r.dimension.is_some() {
                    return self.err(pos, format!("{}: immediates are 1-D", text()));
                }
                if r.index.indirect.is_some() {
                    return if n == 0 {
                        self.err(pos, format!("{}: the program has no immediates", text()))
                    } else {
                        Ok(())
                    };
                }
                let i = r.index.value;
                if i < 0 || i as usize >= n {
                    let have = match n {
                        0 => "the program has no immediates".to_string(),
                        1 => "the program has 1 immediate".to_string(),
                        _ => format!("the program has {n} immediates"),
                    };
                    return self.err(
                        pos,
                        format!(
                            "{} is not defined: expected an immediate index below {n} ({have})",
                            text()
                        ),
                    );
                }
                Ok(())
            }
            file => {
                let decls: Vec<&Declaration> = self.p.decls(file).collect();
                if decls.is_empty() {
                    return self.err(
                        pos,
                        format!("{} is not declared (expected a `DCL {file}[...]`)", text()),
                    );
                }
                let compatible: Vec<&&Declaration> = decls
                    .iter()
                    .filter(|d| self.dimension_matches(d, r.dimension.as_ref()))
                    .collect();
                let ok = match &r.index.indirect {
                    Some(_) => {
                        !compatible.is_empty()
                            && (r.index.array_id == 0
                                || compatible.iter().any(|d| d.array_id == r.index.array_id))
                    }
                    None => compatible.iter().any(|d| d.contains(r.index.value as i64)),
                };
                if ok {
                    return Ok(());
                }
                let declared: Vec<String> = decls
                    .iter()
                    .map(|d| format!("`{}`", decl_text(d)))
                    .collect();
                let what = if r.index.indirect.is_some() && r.index.array_id != 0 {
                    format!(
                        "{}: no matching declaration with ARRAY({})",
                        text(),
                        r.index.array_id
                    )
                } else if compatible.is_empty() {
                    format!(
                        "{} does not match the dimensions of any declaration",
                        text()
                    )
                } else {
                    format!("{} is outside the declared range", text())
                };
                self.err(pos, format!("{what} (declared: {})", declared.join(", ")))
            }
        }
    }
}
