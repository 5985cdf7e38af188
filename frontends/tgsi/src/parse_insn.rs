//! Instructions (TEXT-FORMAT.md §7): opcode with `_SAT`/`_PRECISE`, destination and
//! source operands, texture target and texel offsets, memory extras, branch labels.
//!
//! Lenient forms accepted besides Mesa's grammar: swizzles of 1–3 letters repeat their last
//! letter (`.x` = `.xxxx`, `.xy` = `.xyyy`), texel offsets of 1–2 letters likewise, and the
//! legacy operand-less `EMIT` / `ENDPRIM` (stream 0, stored with no source).
//! IF/UIF/ELSE labels are read and dropped: they are recomputed from the structure (§7.7).

use super::lexer::{clip, is_word_char, PResult};
use super::parse::Parser;
use super::parse_decl::{component, is_format_name, texture_list, MAX_ARRAY_ID, MAX_INDEX};
use crate::names::*;
use crate::opcode::{OpInfo, Opcode};
use crate::program::*;

/// A source-like operand as written (used for sources and texel offsets).
struct RawSrc {
    off: usize,
    src: Src,
    /// Number of swizzle letters written (0 = none).
    letters: usize,
}

/// One comma-separated item after the opcode.
enum Operand<'a> {
    Dst(Dst, usize),
    Src(RawSrc),
    Word(&'a str, usize),
}

/// Destinations plus sources of an opcode (each at most 255, so the sum fits any `usize`).
fn operand_count(info: &OpInfo) -> usize {
    usize::from(info.num_dst).saturating_add(usize::from(info.num_src))
}

fn plural(n: usize, word: &str) -> String {
    if n == 1 {
        format!("{n} {word}")
    } else {
        format!("{n} {word}s")
    }
}

/// "1 destination and 2 sources" / "no operands".
fn operand_desc(info: &OpInfo) -> String {
    let mut parts = Vec::new();
    if info.num_dst > 0 {
        parts.push(plural(info.num_dst as usize, "destination"));
    }
    if info.num_src > 0 || info.num_dst > 0 {
        parts.push(plural(info.num_src as usize, "source"));
    }
    if parts.is_empty() {
        "no operands".into()
    } else {
        parts.join(" and ")
    }
}

fn count_error(info: &OpInfo, total: usize) -> String {
    let found = if operand_count(info) == 0 {
        plural(total, "operand")
    } else if let Some(sources) = total.checked_sub(usize::from(info.num_dst)) {
        plural(sources, "source")
    } else {
        "no operands".to_string()
    };
    format!("{} takes {}, found {found}", info.name, operand_desc(info))
}

/// Splits `w` into opcode, `_SAT` and `_PRECISE` (in that order, §7.2).
fn resolve_opcode(w: &str) -> Option<(Opcode, bool, bool)> {
    if let Some(op) = Opcode::from_name(w) {
        return Some((op, false, false));
    }
    let up = w.to_ascii_uppercase();
    let mut base = up.as_str();
    let precise = match base.strip_suffix("_PRECISE") {
        Some(b) => {
            base = b;
            true
        }
        None => false,
    };
    let sat = match base.strip_suffix("_SAT") {
        Some(b) => {
            base = b;
            true
        }
        None => false,
    };
    if !(sat || precise) {
        return None;
    }
    Opcode::from_name(base).map(|op| (op, sat, precise))
}

impl<'a> Parser<'a> {
    /// Whether an operand (not a word) starts here: `-`, `|` or `FILE [`.
    fn looks_like_operand(&self) -> bool {
        match self.c.peek() {
            Some(b'-' | b'|') => true,
            _ => {
                let w = self.c.peek_word();
                File::from_name(w).is_some() && {
                    let rest = &self.c.rest()[w.len()..];
                    rest.iter().find(|c| !c.is_ascii_whitespace()) == Some(&b'[')
                }
            }
        }
    }

    /// Whether an `IMM[n] TYPE {...}` statement starts here (so that a legacy operand-less
    /// `EMIT` followed by an immediate does not take `IMM[n]` as its operand).
    fn imm_statement_ahead(&self) -> bool {
        let rest = self.c.rest();
        let w = self.c.peek_word();
        if !w.eq_ignore_ascii_case("IMM") {
            return false;
        }
        let Some(close) = rest.iter().position(|&c| c == b']') else {
            return false;
        };
        let after = rest
            .get(close..)
            .and_then(|r| r.get(1..))
            .unwrap_or_default();
        let start = after
            .iter()
            .position(|c| !c.is_ascii_whitespace())
            .unwrap_or(after.len());
        let word: Vec<u8> = after[start..]
            .iter()
            .copied()
            .take_while(|&c| is_word_char(c))
            .collect();
        std::str::from_utf8(&word).is_ok_and(|w| ImmType::from_name(w).is_some())
    }

    /// `FILE[index]` or `FILE[dim][index]` (§7.4).
    fn register(&mut self) -> PResult<Register> {
        let Some(file) = File::from_name(self.c.peek_word()) else {
            return self
                .c
                .expected("a register file (`TEMP`, `IN`, `OUT`, `CONST`, `IMM`, `SV`, `ADDR`, `SAMP`, `SVIEW`, ...)");
        };
        self.c.word();
        self.c.skip_ws();
        if !self.c.eat(b'[') {
            return self.c.expected(&format!("`[` after `{}`", file.name()));
        }
        let first = self.reg_bracket()?;
        let save = self.c.off;
        self.c.skip_ws();
        if self.c.eat(b'[') {
            let index = self.reg_bracket()?;
            Ok(Register {
                file,
                index,
                dimension: Some(first),
            })
        } else {
            self.c.off = save;
            Ok(Register {
                file,
                index: first,
                dimension: None,
            })
        }
    }

    /// Inside `[...]`: a literal, or `ADDRFILE[i].c±n`; then `]` and an optional `(arrayid)`.
    fn reg_bracket(&mut self) -> PResult<Index> {
        self.c.skip_ws();
        let mut index = if let Some(v) = self.c.uint_max(MAX_INDEX, "a register index")? {
            Index::direct(v as i32)
        } else if let Some(file) = File::from_name(self.c.peek_word()) {
            self.c.word();
            self.c.expect(b'[')?;
            self.c.skip_ws();
            let i = self.c.expect_uint(MAX_INDEX, "an address register index")? as i32;
            self.c.expect(b']')?;
            let mut comp = 0;
            let save = self.c.off;
            self.c.skip_ws();
            if self.c.eat(b'.') {
                self.c.skip_ws();
                match self.c.peek().and_then(component) {
                    Some(k) if !self.c.peek_at(1).is_some_and(is_word_char) => {
                        comp = k;
                        self.c.advance(1);
                    }
                    _ => return self.c.expected("an address component `x`, `y`, `z` or `w`"),
                }
            } else {
                self.c.off = save;
            }
            self.c.skip_ws();
            let mut value = 0;
            if let Some(sign @ (b'+' | b'-')) = self.c.peek() {
                self.c.advance(1);
                self.c.skip_ws();
                // At most MAX_INDEX (32767), so it fits an i32 and so does its negation.
                let n = self.c.expect_uint(MAX_INDEX, "an address offset")? as i32;
                value = if sign == b'-' { n.saturating_neg() } else { n };
            }
            Index {
                value,
                indirect: Some(Indirect {
                    file,
                    index: i,
                    component: comp,
                }),
                array_id: 0,
            }
        } else if self.c.peek() == Some(b']') {
            return self.c.err(
                "expected a register index: empty brackets `[]` are only allowed in declarations",
            );
        } else {
            return self.c.expected(
                "a register index (unsigned integer) or an address register such as `ADDR[0].x`",
            );
        };
        self.c.skip_ws();
        if !self.c.eat(b']') {
            return self.c.expected("`]`");
        }
        if self.c.eat(b'(') {
            self.c.skip_ws();
            let id = self.c.expect_uint(MAX_ARRAY_ID, "an array id")? as u32;
            self.c.expect(b')')?;
            // An array id on a direct index is parsed and dropped, like Mesa does (§7.4).
            if index.indirect.is_some() {
                index.array_id = id;
            }
        }
        Ok(index)
    }

    fn dst_operand(&mut self) -> PResult<(Dst, usize)> {
        let off = self.c.off;
        if matches!(self.c.peek(), Some(b'-' | b'|')) {
            return self
                .c
                .err("expected a destination register: destinations take no `-` or `|` modifier");
        }
        let reg = self.register()?;
        let save = self.c.off;
        self.c.skip_ws();
        let writemask = if self.c.eat(b'.') {
            self.c.skip_ws();
            self.mask_letters()?
        } else {
            self.c.off = save;
            WRITEMASK_XYZW
        };
        Ok((Dst { reg, writemask }, off))
    }

    fn src_operand(&mut self) -> PResult<RawSrc> {
        let off = self.c.off;
        let neg = self.c.eat(b'-');
        if neg {
            self.c.skip_ws();
        }
        let abs = self.c.eat(b'|');
        if abs {
            self.c.skip_ws();
        }
        if matches!(self.c.peek(), Some(b'-' | b'|')) {
            return self
                .c
                .expected("a register file (only `-X`, `|X|` and `-|X|` modifiers exist)");
        }
        let reg = self.register()?;
        let mut src = Src {
            reg,
            swizzle: IDENTITY_SWIZZLE,
            abs,
            neg,
        };
        let mut letters = 0;
        let save = self.c.off;
        self.c.skip_ws();
        if self.c.eat(b'.') {
            self.c.skip_ws();
            while let Some(k) = self.c.peek().and_then(component) {
                if letters == 4 {
                    return self.c.expected("`,` after the 4 swizzle components");
                }
                src.swizzle[letters] = k;
                // Below 4 (checked above).
                letters = letters.saturating_add(1);
                self.c.advance(1);
            }
            if letters == 0 || self.c.peek().is_some_and(is_word_char) {
                return self
                    .c
                    .expected("register swizzle component `x`, `y`, `z` or `w`");
            }
            if let Some(&last) = src.swizzle.get(..letters).and_then(<[_]>::last) {
                for c in src.swizzle.iter_mut().skip(letters) {
                    *c = last;
                }
            }
        } else {
            self.c.off = save;
        }
        if abs {
            self.c.skip_ws();
            if !self.c.eat(b'|') {
                return self.c.expected("`|` closing the absolute value");
            }
        }
        Ok(RawSrc { off, src, letters })
    }

    /// Operand number `k` of an instruction with `info`: destination, source or extra.
    fn operand(&mut self, info: &OpInfo, k: usize) -> PResult<Operand<'a>> {
        if k < usize::from(info.num_dst) {
            let (d, off) = self.dst_operand()?;
            return Ok(Operand::Dst(d, off));
        }
        if k < operand_count(info) || self.looks_like_operand() {
            return Ok(Operand::Src(self.src_operand()?));
        }
        let off = self.c.off;
        let w = self.c.word();
        if w.is_empty() {
            return self
                .c
                .expected("an operand, texture target or memory qualifier after `,`");
        }
        Ok(Operand::Word(w, off))
    }

    /// An instruction statement; the cursor is at the opcode (§7).
    pub(crate) fn instruction(&mut self) -> PResult<()> {
        let op_off = self.c.off;
        let pos = self.c.pos();
        let w = self.c.peek_word();
        if w.is_empty() {
            return self
                .c
                .expected("a statement (`DCL`, `IMM`, `PROPERTY`, an opcode or a label `N:`)");
        }
        let Some((opcode, sat, precise)) = resolve_opcode(w) else {
            let up = w.to_ascii_uppercase();
            let hint = if up.contains("_PRECISE_SAT") {
                " (`_SAT` must come before `_PRECISE`)"
            } else if w.len() <= 4 && w.bytes().all(|c| component(c).is_some()) {
                " (swizzle and writemask letters must not be separated by spaces)"
            } else if File::from_name(w).is_some() {
                " (is a `,` missing between operands?)"
            } else {
                ""
            };
            return self.c.err(format!("unknown opcode `{}`{hint}", clip(w)));
        };
        self.c.word();
        let after_opcode = self.c.off;
        let info = opcode.info();
        let nops = operand_count(info);
        let optional = matches!(opcode, Opcode::EMIT | Opcode::ENDPRIM);
        let mut items = Vec::new();
        if nops > 0 {
            let had_ws = self.c.skip_ws();
            if !optional || (self.looks_like_operand() && !self.imm_statement_ahead()) {
                if !had_ws {
                    return self
                        .c
                        .expected(&format!("whitespace and the operands of {}", info.name));
                }
                items.push(self.operand(info, 0)?);
            } else {
                self.c.seek(after_opcode);
            }
        }
        loop {
            let save = self.c.off;
            self.c.skip_ws();
            if !self.c.eat(b',') {
                self.c.off = save;
                break;
            }
            if items.len() < nops.min(1) {
                return self.c.err_at(
                    save,
                    format!("expected the first operand of {}, found `,`", info.name),
                );
            }
            self.c.skip_ws();
            let k = items.len();
            items.push(self.operand(info, k)?);
        }
        let items_end = self.c.off;
        let mut insn = Instruction::new(opcode, Vec::new(), Vec::new());
        insn.saturate = if sat { Saturate::Zero } else { Saturate::None };
        insn.precise = precise;
        let mut positions = Vec::new();
        let mut it = items.into_iter().peekable();
        let given = nops.min(it.len());
        for _ in 0..given {
            match it.next() {
                Some(Operand::Dst(d, off)) => {
                    insn.dst.push(d);
                    positions.push(self.c.pos_at(off));
                }
                Some(Operand::Src(s)) => {
                    insn.src.push(s.src);
                    positions.push(self.c.pos_at(s.off));
                }
                _ => return self.c.err_at(op_off, count_error(info, 0)),
            }
        }
        if given < nops && !(optional && given == 0) {
            return self.c.err_at(
                items_end,
                format!(
                    "expected `,` and another operand: {}",
                    count_error(info, given)
                ),
            );
        }
        if info.has_texture_target {
            match it.next() {
                Some(Operand::Word(w, off)) => match TexTarget::from_name(w) {
                    Some(t) => insn.texture = Some(t),
                    None => {
                        return self.c.err_at(
                            off,
                            format!(
                                "expected a texture target ({}), found `{}`",
                                texture_list(),
                                clip(w)
                            ),
                        );
                    }
                },
                Some(Operand::Src(s)) => {
                    return self.c.err_at(
                        s.off,
                        format!(
                            "expected a texture target such as `2D` after the {} of {}, found a register",
                            plural(info.num_src as usize, "source"),
                            info.name
                        ),
                    );
                }
                _ => {
                    return self.c.err_at(
                        items_end,
                        format!(
                            "expected `,` and a texture target after the sources of {} (e.g. `, 2D`)",
                            info.name
                        ),
                    );
                }
            }
        }
        if info.has_tex_offsets {
            while let Some(Operand::Src(_)) = it.peek() {
                let Some(Operand::Src(s)) = it.next() else {
                    break;
                };
                let offset = self.tex_offset(&s, insn.tex_offsets.len())?;
                insn.tex_offsets.push(offset);
                positions.push(self.c.pos_at(s.off));
            }
        }
        if info.has_mem_qualifiers {
            let mut mem = MemInfo::default();
            while let Some(Operand::Word(..)) = it.peek() {
                let Some(Operand::Word(w, off)) = it.next() else {
                    break;
                };
                if let Some(q) = MemQualifier::from_name(w) {
                    mem.qualifiers |= 1 << q.token();
                } else if let Some(t) = TexTarget::from_name(w) {
                    mem.target = (t != TexTarget::Buffer).then_some(t);
                } else if is_format_name(w) {
                    let f = w.to_ascii_uppercase();
                    mem.format = (f != "PIPE_FORMAT_NONE").then_some(f);
                } else {
                    return self.c.err_at(
                        off,
                        format!(
                            "expected a memory qualifier (`COHERENT`, `RESTRICT`, `VOLATILE`, \
                             `STREAM_CACHE_POLICY`), a texture target or a `PIPE_FORMAT_*` name, found `{}`",
                            clip(w)
                        ),
                    );
                }
            }
            if mem != MemInfo::default() {
                insn.mem = Some(mem);
            }
        }
        if let Some(extra) = it.next() {
            // Counts of operands written in the text: far below `usize::MAX`.
            let n_src_like = it
                .filter(|o| matches!(o, Operand::Src(_)))
                .count()
                .saturating_add(1);
            return match extra {
                Operand::Src(s) => self
                    .c
                    .err_at(s.off, count_error(info, nops.saturating_add(n_src_like))),
                Operand::Word(w, off) => self.c.err_at(
                    off,
                    format!(
                        "unexpected `{}`: {} takes {} and no texture target or qualifier",
                        clip(w),
                        info.name,
                        operand_desc(info)
                    ),
                ),
                Operand::Dst(_, off) => self
                    .c
                    .err_at(off, count_error(info, nops.saturating_add(1))),
            };
        }
        self.label(info, &mut insn)?;
        let i = self.p.instructions.len();
        self.layout.push(Item::Instruction(i as u32));
        self.p.instructions.push(insn);
        self.p.source_map.instructions.push(pos);
        self.p.source_map.operands.push(positions);
        Ok(())
    }

    fn tex_offset(&self, s: &RawSrc, n: usize) -> PResult<TexOffset> {
        if n == 4 {
            return self.c.err_at(s.off, "expected at most 4 texel offsets");
        }
        if s.src.neg || s.src.abs {
            return self.c.err_at(
                s.off,
                "expected a texel offset register: offsets take no `-` or `|` modifier",
            );
        }
        if s.src.reg.is_indirect() || s.src.reg.dimension.is_some() {
            return self.c.err_at(
                s.off,
                "expected a direct 1-D texel offset register such as `IMM[0].xyz`",
            );
        }
        if s.letters == 4 {
            return self.c.err_at(
                s.off,
                "expected 3 swizzle letters on a texel offset (e.g. `.xyz`), found 4",
            );
        }
        let swizzle = if s.letters == 0 {
            [0, 1, 2]
        } else {
            [s.src.swizzle[0], s.src.swizzle[1], s.src.swizzle[2]]
        };
        Ok(TexOffset {
            reg: s.src.reg,
            swizzle,
        })
    }

    /// Optional `:N` after the operands, on branch opcodes only (§7.7).
    fn label(&mut self, info: &OpInfo, insn: &mut Instruction) -> PResult<()> {
        let save = self.c.off;
        self.c.skip_ws();
        if self.c.peek() != Some(b':') {
            self.c.off = save;
            return Ok(());
        }
        if !info.is_branch {
            return self.c.err(format!(
                "expected the end of the instruction: `:label` is only allowed on IF, UIF, ELSE, BGNLOOP, ENDLOOP and CAL, not on {}",
                info.name
            ));
        }
        self.c.advance(1);
        self.c.skip_ws();
        let n = self
            .c
            .expect_uint(u32::MAX as u64, "a label (instruction number)")? as u32;
        if !matches!(insn.opcode, Opcode::IF | Opcode::UIF | Opcode::ELSE) {
            insn.label = Some(n);
        }
        Ok(())
    }
}
