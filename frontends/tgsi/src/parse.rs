//! Top level of the TGSI text parser: header, statement loop, PROPERTY and IMM
//! (TEXT-FORMAT.md §2, §4, §5, §8). Declarations are in `parse_decl.rs`,
//! instructions in `parse_insn.rs`.

use super::float::{strtod, strtof, strtoll, strtoull};
use super::lexer::{clip, Cursor, PResult};
use crate::names::*;
use crate::program::{Immediate, Item, Program, Property};

/// Parser state shared by the statement parsers.
pub(crate) struct Parser<'a> {
    /// The text cursor.
    pub c: Cursor<'a>,
    /// The program built so far.
    pub p: Program,
    /// Statements in textual order.
    pub layout: Vec<Item>,
    /// Size of an empty declaration bracket `IN[]` (0 = none known), §6.3.
    pub implied_size: u32,
}

/// Text spellings of the values of a named-value property, in token order (§5);
/// `None` for properties whose value is a plain number.
pub(crate) fn property_value_names(name: PropertyName) -> Option<Vec<&'static str>> {
    match name {
        PropertyName::GsInputPrimitive | PropertyName::GsOutputPrimitive => {
            Some(Primitive::ALL.iter().map(|p| p.name()).collect())
        }
        PropertyName::FsCoordOrigin => Some(vec!["UPPER_LEFT", "LOWER_LEFT"]),
        PropertyName::FsCoordPixelCenter => Some(vec!["HALF_INTEGER", "INTEGER"]),
        PropertyName::NextShader => Some(Processor::ALL.iter().map(|p| p.name()).collect()),
        _ => None,
    }
}

/// Parses a whole program (no validation); see [`super::parse`].
pub(crate) fn parse_text(text: &str, file: &str) -> PResult<Program> {
    let mut ps = Parser {
        c: Cursor::new(text, file),
        p: Program::default(),
        layout: Vec::new(),
        implied_size: 0,
    };
    ps.header()?;
    loop {
        let had_ws = ps.c.skip_ws();
        if ps.c.at_end() {
            break;
        }
        if !had_ws {
            return ps.c.expected("`,` or whitespace before the next statement");
        }
        ps.statement()?;
    }
    let mut p = ps.p;
    if ps.layout != p.canonical_layout() {
        p.layout = ps.layout;
    }
    Ok(p)
}

impl<'a> Parser<'a> {
    fn header(&mut self) -> PResult<()> {
        self.c.skip_ws();
        let off = self.c.off;
        let w = self.c.peek_word();
        match Stage::from_name(w) {
            Some(stage) => {
                self.c.word();
                self.p.stage = stage;
                if matches!(stage, Stage::TessCtrl | Stage::TessEval) {
                    self.implied_size = 32;
                }
                Ok(())
            }
            None => self.c.err_at(
                off,
                format!(
                    "expected a shader header (`VERT`, `FRAG`, `GEOM`, `TESS_CTRL`, `TESS_EVAL` or `COMP`), found {}",
                    self.c.found()
                ),
            ),
        }
    }

    fn statement(&mut self) -> PResult<()> {
        if self.c.peek().is_some_and(|c| c.is_ascii_digit()) {
            // Label prefix `N:` (the number is ignored, §7.1).
            let start = self.c.off;
            self.c.uint_wrapping();
            self.c.skip_ws();
            if !self.c.eat(b':') {
                self.c.off = start;
                return self
                    .c
                    .expected("a statement (`DCL`, `IMM`, `PROPERTY`, an opcode or a label `N:`)");
            }
            self.c.skip_ws();
            let w = self.c.peek_word();
            if ["DCL", "IMM", "PROPERTY"]
                .iter()
                .any(|k| k.eq_ignore_ascii_case(w))
            {
                return self.c.err(format!(
                    "expected an opcode after the label `N:`, found `{}`",
                    clip(w)
                ));
            }
            return self.instruction();
        }
        let w = self.c.peek_word();
        if w.eq_ignore_ascii_case("DCL") {
            self.declaration()
        } else if w.eq_ignore_ascii_case("IMM") {
            self.immediate()
        } else if w.eq_ignore_ascii_case("PROPERTY") {
            self.property()
        } else {
            self.instruction()
        }
    }

    fn property(&mut self) -> PResult<()> {
        self.c.word();
        if !self.c.skip_ws() {
            return self
                .c
                .expected("whitespace and a property name after `PROPERTY`");
        }
        let off = self.c.off;
        let w = self.c.word();
        if w.is_empty() {
            self.c.off = off;
            return self
                .c
                .expected("a property name (e.g. `GS_INPUT_PRIMITIVE`)");
        }
        let Some(name) = PropertyName::from_name(w) else {
            return self
                .c
                .err_at(off, format!("unknown property `{}`", clip(w)));
        };
        self.c.skip_ws();
        let voff = self.c.off;
        let value = match property_value_names(name) {
            Some(names) => {
                let v = self.c.peek_word();
                match names.iter().position(|n| n.eq_ignore_ascii_case(v)) {
                    Some(i) => {
                        self.c.word();
                        i as u32
                    }
                    None => {
                        let list: Vec<String> = names.iter().map(|n| format!("`{n}`")).collect();
                        return self.c.err_at(
                            voff,
                            format!(
                                "expected a {} value ({}), found {}",
                                name.name(),
                                list.join(", "),
                                self.c.found()
                            ),
                        );
                    }
                }
            }
            None => match self.c.uint_wrapping() {
                Some(v) => v,
                None => {
                    return self
                        .c
                        .expected(&format!("an unsigned integer value for {}", name.name()))
                }
            },
        };
        if name == PropertyName::GsInputPrimitive && self.p.stage == Stage::Geometry {
            self.implied_size = Primitive::ALL
                .get(value as usize)
                .map_or(0, |p| p.vertices());
        }
        self.layout
            .push(Item::Property(self.p.properties.len() as u32));
        self.p.properties.push(Property { name, value });
        Ok(())
    }

    fn immediate(&mut self) -> PResult<()> {
        self.c.word();
        let n = self.p.immediates.len();
        if self.c.eat(b'[') {
            self.c.skip_ws();
            let off = self.c.off;
            let i = self.c.expect_uint(u32::MAX as u64, "an immediate index")?;
            if i != n as u64 {
                return self.c.err_at(
                    off,
                    format!("immediates must be numbered in order: expected `IMM[{n}]`, found `IMM[{i}]`"),
                );
            }
            self.c.expect(b']')?;
        }
        if !self.c.skip_ws() {
            return self
                .c
                .expected("whitespace and an immediate type (`FLT32`, `UINT32`, `INT32`, `FLT64`, `UINT64` or `INT64`)");
        }
        let Some(ty) = ImmType::from_name(self.c.peek_word()) else {
            return self.c.expected(
                "an immediate type (`FLT32`, `UINT32`, `INT32`, `FLT64`, `UINT64` or `INT64`)",
            );
        };
        self.c.word();
        let words = self.imm_vector(ty)?;
        self.layout.push(Item::Immediate(n as u32));
        self.p.immediates.push(Immediate { ty, words });
        Ok(())
    }

    /// `{v0, v1, v2, v3}` (32-bit types) or `{d0, d1}` (64-bit types) as four words.
    pub(crate) fn imm_vector(&mut self, ty: ImmType) -> PResult<[u32; 4]> {
        self.c.expect(b'{')?;
        let count = if ty.is_64bit() { 2 } else { 4 };
        let mut words = [0u32; 4];
        for k in 0..count as usize {
            self.c.skip_ws();
            if k > 0 {
                if !self.c.eat(b',') {
                    return self.c.expected(&format!(
                        "`,`: a {ty} immediate has {count} values, this one has {k} so far"
                    ));
                }
                self.c.skip_ws();
            }
            let v = self.imm_value(ty)?;
            if ty.is_64bit() {
                // k < 2 for 64-bit types (two values fill the four words).
                let at = k.saturating_mul(2);
                words[at] = v as u32;
                words[at.saturating_add(1)] = (v >> 32) as u32;
            } else {
                words[k] = v as u32;
            }
        }
        self.c.skip_ws();
        if !self.c.eat(b'}') {
            return self.c.expected(&format!(
                "`}}`: a {ty} immediate has exactly {count} values"
            ));
        }
        Ok(words)
    }

    /// One value of type `ty` (raw bits in the low 32 or all 64 bits), §8.
    fn imm_value(&mut self, ty: ImmType) -> PResult<u64> {
        let rest = self.c.rest();
        let scanned: Option<(u64, usize)> = match ty {
            ImmType::F32 => strtof(rest).map(|(b, n)| (b as u64, n)),
            ImmType::F64 => strtod(rest),
            ImmType::I64 => strtoll(rest).map(|(v, n)| (v as u64, n)),
            ImmType::U64 => strtoull(rest),
            ImmType::U32 => {
                let start = self.c.off;
                let v = self.c.uint_wrapping();
                let n = self.c.off.saturating_sub(start);
                self.c.off = start;
                v.map(|v| (v as u64, n))
            }
            ImmType::I32 => {
                let start = self.c.off;
                let neg = self.c.eat(b'-');
                if !neg {
                    self.c.eat(b'+');
                }
                let v = self.c.uint_wrapping();
                let n = self.c.off.saturating_sub(start);
                self.c.off = start;
                v.map(|v| ((if neg { v.wrapping_neg() } else { v }) as u64, n))
            }
        };
        match scanned {
            Some((v, n)) => {
                // `n` bytes were scanned from the text: the cursor stays inside it.
                self.c.off = self.c.off.saturating_add(n);
                Ok(v)
            }
            None => {
                let what = match ty {
                    ImmType::F32 | ImmType::F64 => {
                        "a floating-point value (e.g. `1.0`, `-2.5e-3`, `0x1.8p+1`, `inf`, `nan`)"
                    }
                    ImmType::U32 => "an unsigned decimal integer",
                    ImmType::I32 => "a decimal integer",
                    ImmType::I64 | ImmType::U64 => "an integer (decimal, `0x` hex or `0` octal)",
                };
                self.c.expected(&format!("{what} in a {ty} immediate"))
            }
        }
    }
}
