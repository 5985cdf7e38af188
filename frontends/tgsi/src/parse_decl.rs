//! `DCL` statements (TEXT-FORMAT.md §6), including the legacy `IMMX` (inline values),
//! `TEMPX` (2-D) and `RES` (old sampler-view name) forms.
//!
//! The parser stores what `tgsi_dump` would print, so printing is a fixed point:
//! interpolation and location are kept only on FRAG inputs (location only with a mode and
//! when not CENTER), `STREAM(0, 0, 0, 0)` is dropped, and the vertex dimension of GEOM/TESS
//! per-vertex inputs and TESS_CTRL per-vertex outputs becomes [`DeclDimension::Implied`].

use super::lexer::PResult;
use super::parse::Parser;
use crate::names::*;
use crate::program::{DeclDimension, Declaration, Item, Resource};
use crate::text::{implied_context, prints_implied};

/// Largest register index TGSI can address (indices are signed 16-bit, §7.4).
pub(crate) const MAX_INDEX: u64 = 32767;
/// Largest array id (10 bits).
pub(crate) const MAX_ARRAY_ID: u64 = 1023;

/// Component number of a swizzle/writemask letter.
pub(crate) fn component(c: u8) -> Option<u8> {
    match c | 0x20 {
        b'x' => Some(0),
        b'y' => Some(1),
        b'z' => Some(2),
        b'w' => Some(3),
        _ => None,
    }
}

fn quoted_list(names: &[&str]) -> String {
    names
        .iter()
        .map(|n| format!("`{n}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// "`1D`, `2D`, ..." for messages.
pub(crate) fn texture_list() -> String {
    quoted_list(&TexTarget::ALL.iter().map(|t| t.name()).collect::<Vec<_>>())
}

impl<'a> Parser<'a> {
    /// Writemask / usage-mask letters in `xyzw` order (at least one).
    pub(crate) fn mask_letters(&mut self) -> PResult<u8> {
        let mut mask = 0u8;
        let mut last: i8 = -1;
        while let Some(k) = self.c.peek().and_then(component) {
            if k as i8 <= last {
                return self.c.expected("`,` or writemask letters in `xyzw` order");
            }
            mask |= 1 << k;
            last = k as i8;
            self.c.off = self.c.off.saturating_add(1);
        }
        if mask == 0 || self.c.peek().is_some_and(super::lexer::is_word_char) {
            return self
                .c
                .expected("writemask letters `x`, `y`, `z`, `w` (in this order)");
        }
        Ok(mask)
    }

    /// After `,` and whitespace: returns `(offset before the comma, word)` with the cursor
    /// at the word, or `None` (cursor unchanged) when no comma follows.
    fn comma_word(&mut self) -> Option<(usize, &'a str)> {
        let save = self.c.off;
        self.c.skip_ws();
        if self.c.eat(b',') {
            self.c.skip_ws();
            Some((save, self.c.peek_word()))
        } else {
            self.c.off = save;
            None
        }
    }

    /// One declaration bracket after `[`: `a`, `a..b`, or empty with an implied size.
    fn dcl_bracket(&mut self) -> PResult<(u32, u32)> {
        self.c.skip_ws();
        let range = match self.c.uint_max(MAX_INDEX, "a register index")? {
            Some(first) => {
                self.c.skip_ws();
                let last = if self.c.rest().starts_with(b"..") {
                    self.c.off = self.c.off.saturating_add(2);
                    self.c.skip_ws();
                    let off = self.c.off;
                    let last = self
                        .c
                        .expect_uint(MAX_INDEX, "the last index of the range")?;
                    if last < first {
                        return self.c.err_at(
                            off,
                            format!("declaration range [{first}..{last}] ends before it starts"),
                        );
                    }
                    last
                } else {
                    first
                };
                (first as u32, last as u32)
            }
            None if self.c.peek() == Some(b']') => {
                if self.implied_size == 0 {
                    return self.c.err(
                        "expected a register index: empty brackets `[]` need an implied size \
                         (GEOM after `PROPERTY GS_INPUT_PRIMITIVE`, or TESS_CTRL/TESS_EVAL)",
                    );
                }
                // implied_size > 0, checked above.
                (0, self.implied_size.saturating_sub(1))
            }
            None => return self.c.expected("a register index (unsigned integer)"),
        };
        self.c.skip_ws();
        if !self.c.eat(b']') {
            return self.c.expected("`]` or `..`");
        }
        Ok(range)
    }

    /// A `DCL` statement (§6).
    pub(crate) fn declaration(&mut self) -> PResult<()> {
        let pos = self.c.pos();
        self.c.word();
        if !self.c.skip_ws() {
            return self
                .c
                .expected("whitespace and a register file after `DCL`");
        }
        let Some(file) = File::from_name(self.c.peek_word()) else {
            return self.c.expected(
                "a register file (`IN`, `OUT`, `TEMP`, `CONST`, `SV`, `SAMP`, `SVIEW`, ...)",
            );
        };
        self.c.word();
        self.c.expect(b'[')?;
        let b0 = self.dcl_bracket()?;
        let save = self.c.off;
        self.c.skip_ws();
        let b1 = if self.c.eat(b'[') {
            Some(self.dcl_bracket()?)
        } else {
            self.c.off = save;
            None
        };
        let stage = self.p.stage;
        let implied = implied_context(stage, file);
        let mut d = match b1 {
            None => Declaration::new(file, b0.0, b0.1),
            Some(b) => {
                let mut d = Declaration::new(file, b.0, b.1);
                if !implied {
                    d.dimension = Some(DeclDimension::Index(b0.0));
                }
                d
            }
        };
        let save = self.c.off;
        self.c.skip_ws();
        if self.c.eat(b'.') {
            self.c.skip_ws();
            d.usage_mask = self.mask_letters()?;
        } else {
            self.c.off = save;
        }
        if file == File::ImmArray {
            self.immx_values(&mut d)?;
        }
        if let Some((save, w)) = self.comma_word() {
            if w.eq_ignore_ascii_case("ARRAY") {
                self.c.word();
                self.c.expect(b'(')?;
                self.c.skip_ws();
                d.array_id = self.c.expect_uint(MAX_ARRAY_ID, "an array id")? as u32;
                self.c.expect(b')')?;
            } else {
                self.c.off = save;
            }
        }
        if file == File::Input && stage == Stage::Vertex {
            if self.comma_word().is_some() {
                return self.c.expected(
                    "the end of the declaration: VERT inputs take nothing after `ARRAY(n)`",
                );
            }
        } else {
            match file {
                File::Image => self.image_tail(&mut d)?,
                File::SamplerView | File::Resource => self.sview_tail(&mut d)?,
                File::Buffer => {
                    let mut atomic = false;
                    if let Some((save, w)) = self.comma_word() {
                        if w.eq_ignore_ascii_case("ATOMIC") {
                            self.c.word();
                            atomic = true;
                        } else {
                            self.c.off = save;
                        }
                    }
                    d.resource = Some(Resource::Buffer { atomic });
                }
                File::Memory => {
                    let mut kind = MemoryType::Global;
                    if let Some((save, w)) = self.comma_word() {
                        match MemoryType::from_name(w) {
                            Some(k) => {
                                self.c.word();
                                kind = k;
                            }
                            None => self.c.off = save,
                        }
                    }
                    d.resource = Some(Resource::Memory(kind));
                }
                _ => self.ordinary_tail(&mut d)?,
            }
            if self.comma_word().is_some() {
                return self.c.expected("the end of the declaration");
            }
        }
        // Store what the printer shows (module docs).
        if implied {
            d.dimension = prints_implied(stage, file, d.semantic.map(|s| s.0))
                .then_some(DeclDimension::Implied);
        }
        if !(stage == Stage::Fragment && file == File::Input) {
            d.interpolation = None;
        }
        if d.interpolation.is_none() || d.location == Some(InterpLocation::Center) {
            d.location = None;
        }
        if d.stream == Some([0; 4]) {
            d.stream = None;
        }
        self.layout
            .push(Item::Declaration(self.p.declarations.len() as u32));
        self.p.declarations.push(d);
        self.p.source_map.declarations.push(pos);
        Ok(())
    }

    /// LOCAL, semantic[index], STREAM(...), interpolation, location, INVARIANT (§6.4).
    fn ordinary_tail(&mut self, d: &mut Declaration) -> PResult<()> {
        if let Some((save, w)) = self.comma_word() {
            if w.eq_ignore_ascii_case("LOCAL") {
                self.c.word();
                d.local = true;
            } else {
                self.c.off = save;
            }
        }
        if let Some((save, w)) = self.comma_word() {
            match SemanticName::from_name(w) {
                Some(name) => {
                    self.c.word();
                    let after = self.c.off;
                    self.c.skip_ws();
                    let mut index = 0;
                    if self.c.eat(b'[') {
                        self.c.skip_ws();
                        index = match self.c.uint_wrapping() {
                            Some(v) => v,
                            None => return self.c.expected("a semantic index (unsigned integer)"),
                        };
                        self.c.expect(b']')?;
                    } else {
                        self.c.off = after;
                    }
                    d.semantic = Some((name, index));
                }
                None => self.c.off = save,
            }
        }
        if d.file == File::Output && self.p.stage == Stage::Geometry {
            if let Some((save, w)) = self.comma_word() {
                if w.eq_ignore_ascii_case("STREAM") {
                    self.c.word();
                    self.c.expect(b'(')?;
                    let mut s = [0u8; 4];
                    for (k, v) in s.iter_mut().enumerate() {
                        if k > 0 {
                            self.c.expect(b',')?;
                        }
                        self.c.skip_ws();
                        *v = self.c.expect_uint(3, "a stream number (0..3)")? as u8;
                    }
                    self.c.expect(b')')?;
                    d.stream = Some(s);
                } else {
                    self.c.off = save;
                }
            }
        }
        if let Some((save, w)) = self.comma_word() {
            match Interpolation::from_name(w) {
                Some(i) => {
                    self.c.word();
                    d.interpolation = Some(i);
                }
                None => self.c.off = save,
            }
        }
        if let Some((save, w)) = self.comma_word() {
            match InterpLocation::from_name(w) {
                Some(l) => {
                    self.c.word();
                    d.location = Some(l);
                }
                None => self.c.off = save,
            }
        }
        if self.comma_word().is_some() {
            if self.c.eat_keyword("INVARIANT") {
                d.invariant = true;
            } else {
                return self.c.expected(
                    "a semantic, interpolation mode, interpolation location or `INVARIANT` \
                     (in this order, each at most once)",
                );
            }
        }
        Ok(())
    }

    /// `, target, rtype (, rtype, rtype, rtype)?` with Mesa's single-type quirk (§6.4).
    fn sview_tail(&mut self, d: &mut Declaration) -> PResult<()> {
        let target = self.texture_after_comma("the texture target of the sampler view")?;
        if self.comma_word().is_none() {
            return self
                .c
                .expected("`,` and a return type (`UNORM`, `SNORM`, `SINT`, `UINT` or `FLOAT`)");
        }
        let mut types = Vec::new();
        let mut comma_after_fourth = false;
        for j in 0..4 {
            let before = self.c.off;
            self.c.skip_ws();
            match ReturnType::from_name(self.c.peek_word()) {
                Some(t) => {
                    self.c.word();
                    types.push(t);
                    let save = self.c.off;
                    self.c.skip_ws();
                    if !self.c.eat(b',') {
                        self.c.off = save;
                        break;
                    }
                    comma_after_fourth = j == 3;
                }
                None if j == 0 || j == 3 => {
                    return self
                        .c
                        .expected("a return type (`UNORM`, `SNORM`, `SINT`, `UINT` or `FLOAT`)");
                }
                None => {
                    self.c.off = before;
                    break;
                }
            }
        }
        // Unless a comma followed the fourth type, every component takes the first type.
        let return_type = if comma_after_fourth {
            [types[0], types[1], types[2], types[3]]
        } else {
            [types[0]; 4]
        };
        d.resource = Some(Resource::SamplerView {
            target,
            return_type,
        });
        Ok(())
    }

    /// `, target (, RAW | , WR | , PIPE_FORMAT_*)*` (§6.4).
    fn image_tail(&mut self, d: &mut Declaration) -> PResult<()> {
        let target = self.texture_after_comma("the texture target of the image")?;
        let mut format = "PIPE_FORMAT_NONE".to_string();
        let (mut writable, mut raw) = (false, false);
        while let Some((_, w)) = self.comma_word() {
            if w.eq_ignore_ascii_case("RAW") {
                raw = true;
            } else if w.eq_ignore_ascii_case("WR") {
                writable = true;
            } else if is_format_name(w) {
                format = w.to_ascii_uppercase();
            } else {
                return self.c.expected("`RAW`, `WR` or a `PIPE_FORMAT_*` name");
            }
            self.c.word();
        }
        d.resource = Some(Resource::Image {
            target,
            format,
            writable,
            raw,
        });
        Ok(())
    }

    /// `, TARGET` (mandatory).
    fn texture_after_comma(&mut self, what: &str) -> PResult<TexTarget> {
        if self.comma_word().is_none() {
            return self.c.expected(&format!("`,` and {what}"));
        }
        match TexTarget::from_name(self.c.peek_word()) {
            Some(t) => {
                self.c.word();
                Ok(t)
            }
            None => self
                .c
                .expected(&format!("a texture target ({})", texture_list())),
        }
    }

    /// Legacy `IMMX[a..b] {{x, y, z, w}, ...}`: one FLT32 vec4 per declared index.
    fn immx_values(&mut self, d: &mut Declaration) -> PResult<()> {
        // first <= last (checked where the range is parsed).
        let n = (d.last.saturating_sub(d.first) as usize).saturating_add(1);
        self.c.skip_ws();
        if !self.c.eat(b'{') {
            return self.c.expected("`{` starting the IMMX values");
        }
        for k in 0..n {
            if k > 0 {
                self.c.skip_ws();
                if !self.c.eat(b',') {
                    return self.c.expected(&format!(
                        "`,`: IMMX[{}..{}] needs {n} vectors",
                        d.first, d.last
                    ));
                }
            }
            d.values.push(self.imm_vector(ImmType::F32)?);
        }
        self.c.skip_ws();
        if !self.c.eat(b'}') {
            return self.c.expected(&format!(
                "`}}`: IMMX[{}..{}] has exactly {n} vectors",
                d.first, d.last
            ));
        }
        Ok(())
    }
}

/// Whether `w` looks like a `PIPE_FORMAT_*` name (the full list lives in Mesa's u_format.yaml).
pub(crate) fn is_format_name(w: &str) -> bool {
    w.len() > 12 && w[..12].eq_ignore_ascii_case("PIPE_FORMAT_")
}
