//! Top level of the NV / ARB assembly parser (NV_gpu_program4 §2.X.2): header, `OPTION`s,
//! program declarations, the statement loop, labels, and the load-time checks on names
//! (§2.X.3: declared before use, declared once, reserved words; labels defined once and
//! every branch target defined). Naming statements are in `parse_decl.rs`, instructions in
//! `parse_insn.rs`, bindings in `bindings.rs`.
// Numbers here come from user input (program text, inputs files, machine code): no
// arithmetic may wrap or panic unnoticed.
#![warn(clippy::arithmetic_side_effects)]

use std::collections::HashMap;

use super::ast::*;
use super::bindings::{trie, Trie};
use super::lexer::{clip, PResult, Tok, Tokens};
use super::limits::{LimitProfile, Limits};
use super::rules::Seen;
use super::structure::Blocks;
use crate::error::ParseError;
use crate::program::Pos;

/// Options a program may name (NV_gpu_program4 §2.X.5.Y and the option sections of the
/// specs in this family, plus the undocumented options of generated code, NOTES.md §3).
pub const KNOWN_OPTIONS: &[&str] = &[
    "ARB_position_invariant",
    "ARB_precision_hint_fastest",
    "ARB_precision_hint_nicest",
    "ARB_fragment_program_shadow",
    "ARB_draw_buffers",
    "ARB_fog_exp",
    "ARB_fog_exp2",
    "ARB_fog_linear",
    "ARB_fragment_coord_origin_upper_left",
    "ARB_fragment_coord_pixel_center_integer",
    "ARB_blend_func_extended",
    "ARB_derivative_control",
    "ARB_shader_image_size",
    "ARB_cull_distance",
    "NV_fragment_program",
    "NV_fragment_program2",
    "NV_vertex_program1_1",
    "NV_vertex_program2",
    "NV_vertex_program3",
    "NV_parameter_buffer_object2",
    "NV_shader_buffer_load",
    "NV_shader_buffer_store",
    "NV_early_fragment_tests",
    "NV_explicit_multisample",
    "NV_gpu_program5_mem_extended",
    "NV_gpu_program_fp64",
    "NV_shader_atomic_float",
    "NV_shader_atomic_float64",
    "NV_shader_atomic_int64",
    "NV_shader_atomic_fp16_vector",
    "NV_shader_atomic_counters",
    "NV_shader_storage_buffer",
    "NV_shader_thread_group",
    "NV_shader_thread_shuffle",
    "NV_bindless_texture",
    "NV_sample_interlock_ordered",
    "NV_sample_interlock_unordered",
    "NV_pixel_interlock_ordered",
    "NV_pixel_interlock_unordered",
    "NV_internal",
    "NV_unroll_none",
    "NV_unroll_all",
    "NV_viewport_array2",
    "NV_texture_multisample",
    "ATI_draw_buffers",
];

/// What the header and the options enable.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Features {
    /// `OPTION NV_fragment_program` (or `NV_fragment_program2`, which extends it).
    pub fp_opt: bool,
    /// `OPTION NV_fragment_program2`.
    pub fp2: bool,
    /// `OPTION NV_vertex_program2` (or `NV_vertex_program3`, which extends it).
    pub vp2: bool,
    /// `OPTION NV_vertex_program3`.
    pub vp3: bool,
    /// `OPTION ARB_fragment_program_shadow`.
    pub shadow: bool,
}

/// The kind of a declared name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum VarKind {
    Temp,
    Address,
    Bound(DeclKind),
    SubroutineType,
}

impl VarKind {
    /// The declaring keyword, for messages.
    pub fn keyword(self) -> &'static str {
        match self {
            VarKind::Temp => "TEMP",
            VarKind::Address => "ADDRESS",
            VarKind::Bound(k) => k.name(),
            VarKind::SubroutineType => "SUBROUTINETYPE",
        }
    }
}

/// What is known about a declared name.
#[derive(Clone, Debug)]
pub(crate) struct VarInfo {
    pub kind: VarKind,
    /// Array brackets with their sizes (known or not).
    pub dims: Vec<Option<u32>>,
    /// A geometry / tessellation attribute bound without a vertex index: its first index
    /// selects the vertex (NV_geometry_program4 §2.X.3.2).
    pub per_vertex: bool,
}

/// Parser state.
pub(crate) struct Parser<'a> {
    pub t: Tokens<'a>,
    pub header: Header,
    pub feat: Features,
    pub trie: &'static Trie,
    pub vars: HashMap<String, VarInfo>,
    /// Defined labels.
    pub labels: HashMap<String, usize>,
    /// Label uses (BRA, CAL, SUBROUTINETYPE) with their byte offsets.
    pub label_uses: Vec<(String, usize)>,
    /// Operand positions of the statement being parsed.
    pub operand_pos: Vec<Pos>,
    pub file: &'a str,
    /// The implementation limits bindings are checked against, and their profile.
    pub limits: Limits,
    pub profile: LimitProfile,
    /// What the whole-program rules at `END` need (`rules.rs`).
    pub seen: Seen,
}

/// Finds the header at the start of `text` (leading whitespace allowed). Returns the header
/// and the byte offset where parsing continues.
fn header(text: &str, file: &str) -> PResult<(Header, usize)> {
    let start = text.len().saturating_sub(text.trim_start().len());
    let rest = &text[start..];
    for (s, h) in Header::all() {
        if rest.starts_with(s) {
            return Ok((h, start.saturating_add(s.len())));
        }
    }
    let t = Tokens::new(text, 0, file);
    let found: String = rest
        .split(|c: char| c.is_whitespace())
        .next()
        .unwrap_or("")
        .chars()
        .take(40)
        .collect();
    let found = if found.is_empty() {
        "end of input".to_string()
    } else {
        format!("`{found}`")
    };
    t.err_at(
        start,
        format!(
            "expected a program header (`!!NVfp5.0`, `!!NVvp5.0`, `!!NVgp5.0`, `!!NVtcp5.0`, `!!NVtep5.0`, `!!NVcp5.0`, `!!NV*4.0`, `!!NV*4.1`, `!!ARBvp1.0` or `!!ARBfp1.0`), found {found}"
        ),
    )
}

/// Parses a whole program; see [`super::parse_with`].
pub(crate) fn parse_program(text: &str, file: &str, profile: LimitProfile) -> PResult<NvProgram> {
    let (h, from) = header(text, file)?;
    let mut ps = Parser {
        t: Tokens::new(text, from, file),
        header: h,
        feat: Features::default(),
        trie: trie(h),
        vars: HashMap::new(),
        labels: HashMap::new(),
        label_uses: Vec::new(),
        operand_pos: Vec::new(),
        file,
        limits: Limits::of(profile, h),
        profile,
        seen: Seen::default(),
    };
    let mut prog = NvProgram {
        header: h,
        options: Vec::new(),
        program_decls: Vec::new(),
        statements: Vec::new(),
        source_map: NvSourceMap::default(),
    };
    // 0: options, 1: program declarations, 2: statements.
    let mut phase = 0;
    let mut blocks = Blocks::default();
    loop {
        let tk = ps.t.peek();
        let pos = ps.t.pos_at(tk.start);
        let word = ps.t.peek_ident();
        match word {
            Some("END") => {
                if let Some((kind, off)) = blocks.open() {
                    let p = ps.t.pos_at(off);
                    return ps.t.err(format!(
                        "`END` inside the `{kind}` block opened at {}:{}",
                        p.line, p.col
                    ));
                }
                ps.t.next();
                prog.source_map.end = pos;
                break;
            }
            Some("OPTION") => {
                if phase > 0 {
                    return ps.t.err("`OPTION` must come before every other statement");
                }
                ps.t.next();
                let name = ps.t.expect_ident("an option name")?;
                let name_off = ps.t.previous_start();
                if !KNOWN_OPTIONS.contains(&name) {
                    return ps
                        .t
                        .err_at(name_off, format!("unknown option `{}`", clip(name)));
                }
                ps.t.expect(b';')?;
                ps.check_option(name, &prog.options, name_off)?;
                ps.seen.options.push((name.to_string(), name_off));
                ps.enable(name);
                prog.options.push(name.to_string());
                prog.source_map.options.push(pos);
            }
            Some(w)
                if !w.as_bytes()[0].is_ascii_digit()
                    && (ps.t.peek_n(1).tok == Tok::Punct(b':') || ps.at_subroutine_label()) =>
            {
                ps.check_labels_allowed()?;
                if let Some((kind, off)) = blocks.open() {
                    let p = ps.t.pos_at(off);
                    return ps.t.err(format!(
                        "a label cannot be inside the `{kind}` block opened at {}:{}",
                        p.line, p.col
                    ));
                }
                let label = ps.label(w)?;
                phase = 2;
                prog.statements.push(Statement::Label(label));
                prog.source_map.statements.push(pos);
                prog.source_map.operands.push(Vec::new());
            }
            Some(w) if is_program_decl(w) => {
                if phase == 2 {
                    return ps.t.err(format!(
                        "`{w}` must come before the first instruction or declaration"
                    ));
                }
                phase = 1;
                let d = ps.program_decl(&prog.program_decls)?;
                prog.program_decls.push(d);
                prog.source_map.program_decls.push(pos);
            }
            Some(w) if ps.is_decl_start(w) => {
                phase = 2;
                let d = ps.declaration()?;
                prog.statements.push(Statement::Decl(d));
                prog.source_map.statements.push(pos);
                prog.source_map.operands.push(Vec::new());
            }
            Some(_) => {
                phase = 2;
                ps.operand_pos.clear();
                let i = ps.instruction()?;
                if let Err(m) = blocks.insn(&i, tk.start) {
                    return ps.t.err_at(tk.start, m);
                }
                prog.statements.push(Statement::Insn(i));
                prog.source_map.statements.push(pos);
                prog.source_map
                    .operands
                    .push(std::mem::take(&mut ps.operand_pos));
            }
            None if tk.tok == Tok::Eof => return ps.t.expected("`END`"),
            None => return ps.t.expected("a statement"),
        }
    }
    ps.finish(&prog)?;
    Ok(prog)
}

fn is_program_decl(w: &str) -> bool {
    matches!(
        w,
        "PRIMITIVE_IN"
            | "PRIMITIVE_OUT"
            | "VERTICES_OUT"
            | "INVOCATIONS"
            | "TESS_MODE"
            | "TESS_SPACING"
            | "TESS_VERTEX_ORDER"
            | "TESS_POINT_MODE"
            | "GROUP_SIZE"
            | "SHARED_MEMORY"
    )
}

impl<'a> Parser<'a> {
    fn enable(&mut self, option: &str) {
        match option {
            "NV_fragment_program" => self.feat.fp_opt = true,
            "NV_fragment_program2" => {
                self.feat.fp_opt = true;
                self.feat.fp2 = true;
                // NV_fragment_program2 §3.11.3.Y: ARB fragment programs get a predefined
                // address register A0 (the loop index).
                if !self.arb() {
                    return;
                }
                self.vars.entry("A0".into()).or_insert(VarInfo {
                    kind: VarKind::Address,
                    dims: Vec::new(),
                    per_vertex: false,
                });
            }
            "NV_vertex_program2" => self.feat.vp2 = true,
            "NV_vertex_program3" => {
                self.feat.vp2 = true;
                self.feat.vp3 = true;
            }
            "ARB_fragment_program_shadow" => self.feat.shadow = true,
            _ => {}
        }
    }

    /// The stage.
    pub fn stage(&self) -> NvStage {
        self.header.stage
    }

    /// Whether this is an ARB program.
    pub fn arb(&self) -> bool {
        self.header.is_arb()
    }

    /// Whether the grammar is at least `level`.
    pub fn level_at_least(&self, level: NvLevel) -> bool {
        !self.arb() && self.header.level >= level
    }

    /// Whether ARB programs may use NV extras (`|abs|`, condition codes) here.
    pub fn arb_nv(&self) -> bool {
        match self.stage() {
            NvStage::Fragment => self.feat.fp_opt,
            _ => self.feat.vp2,
        }
    }

    fn at_subroutine_label(&self) -> bool {
        self.t.peek().tok == Tok::Ident
            && self.t.peek_n(1).tok == Tok::Ident
            && self.t.text_of(self.t.peek_n(1)) == "SUBROUTINENUM"
    }

    fn check_labels_allowed(&self) -> PResult<()> {
        if self.arb() && !(self.feat.vp2 || self.feat.fp2) {
            let opt = if self.stage() == NvStage::Fragment {
                "NV_fragment_program2"
            } else {
                "NV_vertex_program2"
            };
            return self
                .t
                .err(format!("labels require `OPTION {opt};` in ARB programs"));
        }
        Ok(())
    }

    fn label(&mut self, name: &str) -> PResult<Label> {
        let start = self.t.next().start;
        let mut subroutine_num = None;
        if self.t.eat_word("SUBROUTINENUM") {
            if !self.level_at_least(NvLevel::Nv50) {
                return self.t.err_at(
                    self.t.previous_start(),
                    "`SUBROUTINENUM` requires a `!!NV*5.0` program",
                );
            }
            self.t.expect(b'(')?;
            subroutine_num =
                Some(self.t.expect_uint(u32::MAX as u64, "a subroutine number")? as u32);
            self.t.expect(b')')?;
        }
        self.t.expect(b':')?;
        if self.labels.insert(name.to_string(), start).is_some() {
            return self
                .t
                .err_at(start, format!("label `{}` is defined twice", clip(name)));
        }
        Ok(Label {
            name: name.to_string(),
            subroutine_num,
        })
    }

    /// Records a use of label `name` at byte offset `off` (checked at `END`).
    pub fn use_label(&mut self, name: &str, off: usize) {
        self.label_uses.push((name.to_string(), off));
    }

    fn program_decl(&mut self, seen: &[ProgramDecl]) -> PResult<ProgramDecl> {
        let kw_tok = self.t.next();
        let kw = self.t.text_of(kw_tok);
        let stage = self.stage();
        let gp5 = self.level_at_least(NvLevel::Nv50);
        let allowed = match kw {
            "PRIMITIVE_IN" | "PRIMITIVE_OUT" => stage == NvStage::Geometry,
            "VERTICES_OUT" => matches!(stage, NvStage::Geometry | NvStage::TessCtrl),
            "INVOCATIONS" => stage == NvStage::Geometry && gp5,
            "GROUP_SIZE" | "SHARED_MEMORY" => stage == NvStage::Compute,
            _ => stage == NvStage::TessEval,
        };
        if !allowed {
            return self.t.err_at(
                kw_tok.start,
                format!(
                    "`{kw}` is not a declaration of {} programs",
                    self.header.text()
                ),
            );
        }
        fn keyword<K: Copy>(
            p: &mut Parser,
            from: fn(&str) -> Option<K>,
            all: &[K],
            name: fn(K) -> &'static str,
        ) -> PResult<K> {
            let v = p.t.peek_ident().and_then(from);
            match v {
                Some(v) => {
                    p.t.next();
                    Ok(v)
                }
                None => {
                    let list: Vec<String> = all.iter().map(|&k| format!("`{}`", name(k))).collect();
                    p.t.expected(&list.join(", "))
                }
            }
        }
        let d = match kw {
            "PRIMITIVE_IN" => {
                let p = keyword(
                    self,
                    PrimitiveIn::from_name,
                    PrimitiveIn::ALL,
                    PrimitiveIn::name,
                )?;
                if p == PrimitiveIn::Patches && !gp5 {
                    return self.t.err_at(
                        self.t.previous_start(),
                        "`PATCHES` requires a `!!NVgp5.0` program",
                    );
                }
                ProgramDecl::PrimitiveIn(p)
            }
            "PRIMITIVE_OUT" => ProgramDecl::PrimitiveOut(keyword(
                self,
                PrimitiveOut::from_name,
                PrimitiveOut::ALL,
                PrimitiveOut::name,
            )?),
            "VERTICES_OUT" => ProgramDecl::VerticesOut(self.decl_uint("a vertex count")?),
            "INVOCATIONS" => ProgramDecl::Invocations(self.decl_uint("an invocation count")?),
            "TESS_MODE" => ProgramDecl::TessMode(keyword(
                self,
                TessMode::from_name,
                TessMode::ALL,
                TessMode::name,
            )?),
            "TESS_SPACING" => ProgramDecl::TessSpacing(keyword(
                self,
                TessSpacing::from_name,
                TessSpacing::ALL,
                TessSpacing::name,
            )?),
            "TESS_VERTEX_ORDER" => ProgramDecl::TessVertexOrder(keyword(
                self,
                VertexOrder::from_name,
                VertexOrder::ALL,
                VertexOrder::name,
            )?),
            "TESS_POINT_MODE" => ProgramDecl::TessPointMode,
            "GROUP_SIZE" => {
                let mut v = vec![self.decl_uint("a work group size")?];
                while v.len() < 3 && matches!(self.t.peek().tok, Tok::Int(_)) {
                    v.push(self.decl_uint("a work group size")?);
                }
                ProgramDecl::GroupSize(v)
            }
            _ => ProgramDecl::SharedMemory(self.decl_uint("a size in bytes")?),
        };
        if seen
            .iter()
            .any(|s| std::mem::discriminant(s) == std::mem::discriminant(&d))
        {
            return self
                .t
                .err_at(kw_tok.start, format!("`{kw}` is declared twice"));
        }
        self.t.expect(b';')?;
        Ok(d)
    }

    fn decl_uint(&mut self, what: &str) -> PResult<u32> {
        Ok(self.t.expect_uint(u32::MAX as u64, what)? as u32)
    }

    /// Load-time checks at `END`: branch targets exist, mandatory declarations are present,
    /// and the whole-program rules of `rules.rs`.
    fn finish(&self, prog: &NvProgram) -> PResult<()> {
        self.whole_program_rules(prog)?;
        for (name, off) in &self.label_uses {
            if !self.labels.contains_key(name) {
                return self
                    .t
                    .err_at(*off, format!("label `{}` is never defined", clip(name)));
            }
        }
        let end = self.t.toks[self.t.i.saturating_sub(1)].start;
        let has = |f: fn(&ProgramDecl) -> bool| prog.program_decls.iter().any(f);
        let missing: Vec<&str> = match self.stage() {
            // NV_geometry_program4 §2.X.6.Y: all three are required.
            NvStage::Geometry => [
                (
                    "PRIMITIVE_IN",
                    has(|d| matches!(d, ProgramDecl::PrimitiveIn(_))),
                ),
                (
                    "PRIMITIVE_OUT",
                    has(|d| matches!(d, ProgramDecl::PrimitiveOut(_))),
                ),
                (
                    "VERTICES_OUT",
                    has(|d| matches!(d, ProgramDecl::VerticesOut(_))),
                ),
            ]
            .iter()
            .filter(|(_, ok)| !ok)
            .map(|(n, _)| *n)
            .collect(),
            // NV_compute_program5: exactly one GROUP_SIZE.
            NvStage::Compute if !has(|d| matches!(d, ProgramDecl::GroupSize(_))) => {
                vec!["GROUP_SIZE"]
            }
            _ => Vec::new(),
        };
        if let Some(m) = missing.first() {
            return self.t.err_at(
                end,
                format!("{} programs need a `{m}` declaration", self.header.text()),
            );
        }
        Ok(())
    }

    /// Declares `name` at byte offset `off`.
    pub fn declare(&mut self, name: &str, off: usize, info: VarInfo) -> PResult<()> {
        self.check_new_name(name, off)?;
        self.vars.insert(name.to_string(), info);
        Ok(())
    }

    /// A name may be declared if it is not reserved and not declared yet.
    pub fn check_new_name(&self, name: &str, off: usize) -> PResult<()> {
        if self.is_reserved(name) {
            return self.t.err_at(
                off,
                format!(
                    "`{}` is a reserved word and cannot name a variable",
                    clip(name)
                ),
            );
        }
        if self.vars.contains_key(name) {
            return self
                .t
                .err_at(off, format!("`{}` is already declared", clip(name)));
        }
        Ok(())
    }

    /// Reserved identifiers (§2.X.2): binding roots of this program type, `texture`, the
    /// statement keywords, and in ARB programs the instruction names.
    pub fn is_reserved(&self, name: &str) -> bool {
        self.trie.is_root(name)
            || matches!(
                name,
                "program" | "result" | "state" | "texture" | "END" | "OPTION" | "ALIAS"
            )
            || self.is_decl_keyword(name)
            || self.is_arb_opcode_name(name)
    }

    /// An error for a name used before its declaration.
    pub fn undeclared<T>(&self, name: &str, off: usize) -> PResult<T> {
        self.t
            .err_at(off, format!("`{}` is not declared", clip(name)))
    }

    /// An error at a byte offset (shorthand).
    pub fn err_at<T>(&self, off: usize, msg: impl Into<String>) -> PResult<T> {
        self.t.err_at(off, msg)
    }

    /// A `ParseError` value at a byte offset.
    pub fn error(&self, off: usize, msg: impl Into<String>) -> ParseError {
        ParseError::new(self.file, self.t.pos_at(off), msg)
    }

    /// Records the position of an operand starting at byte offset `off`.
    pub fn mark_operand(&mut self, off: usize) {
        let p = self.t.pos_at(off);
        self.operand_pos.push(p);
    }
}
