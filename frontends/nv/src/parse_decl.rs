//! Naming statements (NV_gpu_program4 §2.X.2 `<namingStatement>`, §2.X.3), binding
//! syntax (`<attribUseD>`, `<paramUseDB>`, ...) and array indices (`<arrayMemAbs>`,
//! `<arrayRange>`, `<arrayMemRel>`).
// Numbers here come from user input (program text, inputs files, machine code): no
// arithmetic may wrap or panic unnoticed.
#![warn(clippy::arithmetic_side_effects)]

use super::ast::*;
use super::bindings::BindClass;
use super::lexer::{clip, normalize_float, PResult, Tok};
use super::parse::{Parser, VarInfo, VarKind};

/// Where a binding or index is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Ctx {
    /// A declaration initializer: ranges allowed, relative indices not.
    Decl,
    /// An instruction operand: relative indices allowed, ranges not.
    Operand,
}

const VAR_MODS: &[&str] = &[
    "SHORT",
    "LONG",
    "INT",
    "UINT",
    "FLOAT",
    "FLAT",
    "CENTROID",
    "NOPERSPECTIVE",
    "SAMPLE",
];

/// The statements a binding class may initialize.
fn class_fits(kind: DeclKind, class: BindClass, list: bool) -> bool {
    use BindClass as B;
    match kind {
        DeclKind::Attrib => class == B::Attrib,
        DeclKind::Param => class == B::Param || (list && class == B::ParamMulti),
        DeclKind::Output => class == B::Result,
        DeclKind::Buffer | DeclKind::Buffer4 | DeclKind::CBuffer => class == B::Buffer,
        DeclKind::Texture => class == B::Texture,
        DeclKind::Image => class == B::Image,
        DeclKind::Shared => class == B::Shared,
        DeclKind::Storage => class == B::Storage,
        DeclKind::Counter => class == B::Counter,
        DeclKind::Subroutine => class == B::Subroutine,
    }
}

/// What a binding class is, for messages.
fn class_desc(c: BindClass) -> &'static str {
    match c {
        BindClass::Attrib => "an attribute binding",
        BindClass::Param | BindClass::ParamMulti => "a parameter binding",
        BindClass::Result => "a result binding",
        BindClass::Buffer => "a parameter buffer binding",
        BindClass::Shared => "a shared memory binding",
        BindClass::Storage => "a storage buffer binding",
        BindClass::Counter => "an atomic counter binding",
        BindClass::Subroutine => "a subroutine binding",
        BindClass::Texture => "a texture unit binding",
        BindClass::Image => "an image unit binding",
    }
}

impl<'a> Parser<'a> {
    /// Whether `w` starts a declaration here.
    pub fn is_decl_start(&self, w: &str) -> bool {
        self.is_decl_keyword(w) || VAR_MODS.contains(&w)
    }

    /// Whether `w` is a declaration keyword of this program type.
    pub fn is_decl_keyword(&self, w: &str) -> bool {
        let gp5 = self.level_at_least(NvLevel::Nv50);
        match w {
            "TEMP" | "ATTRIB" | "PARAM" | "OUTPUT" | "ALIAS" => true,
            "ADDRESS" => self.arb() && self.stage() == NvStage::Vertex,
            "BUFFER" | "BUFFER4" | "CBUFFER" => !self.arb(),
            "TEXTURE" | "IMAGE" | "STORAGE" | "COUNTER" | "SUBROUTINE" | "SUBROUTINETYPE" => gp5,
            "SHARED" => gp5 && self.stage() == NvStage::Compute,
            _ => false,
        }
    }

    /// A naming statement, up to and including its `;`.
    pub fn declaration(&mut self) -> PResult<Declaration> {
        let mods_off = self.t.peek().start;
        let mods = self.var_mods()?;
        let kw_tok = self.t.peek();
        let kw = match self.t.peek_ident() {
            Some(w) if self.is_decl_keyword(w) => {
                self.t.next();
                w
            }
            _ => {
                return self
                    .t
                    .expected("a declaration keyword (`TEMP`, `ATTRIB`, `PARAM`, `OUTPUT`, ...)")
            }
        };
        let d = match kw {
            "TEMP" => {
                self.check_mods(&mods, mods_off, VarKind::Temp)?;
                let mut vars = Vec::new();
                loop {
                    let off = self.t.peek().start;
                    let name = self.t.expect_ident("a variable name")?.to_string();
                    let mut size = None;
                    if self.t.eat(b'[') {
                        let n = self.t.expect_uint(u32::MAX as u64, "an array size")?;
                        if n == 0 {
                            return self.t.err_at(
                                self.t.previous_start(),
                                "an array size must be at least 1",
                            );
                        }
                        size = Some(n as u32);
                        self.t.expect(b']')?;
                    }
                    let dims = size.map(Some).into_iter().collect();
                    self.declare(
                        &name,
                        off,
                        VarInfo {
                            kind: VarKind::Temp,
                            dims,
                            per_vertex: false,
                        },
                    )?;
                    vars.push(TempVar { name, size });
                    if !self.t.eat(b',') {
                        break;
                    }
                }
                Declaration::Temp { mods, vars }
            }
            "ADDRESS" => {
                self.no_mods(&mods, mods_off, kw)?;
                let mut names = Vec::new();
                loop {
                    let off = self.t.peek().start;
                    self.seen.address_decls.push(off);
                    let name = self.t.expect_ident("a variable name")?.to_string();
                    self.declare(
                        &name,
                        off,
                        VarInfo {
                            kind: VarKind::Address,
                            dims: Vec::new(),
                            per_vertex: false,
                        },
                    )?;
                    names.push(name);
                    if !self.t.eat(b',') {
                        break;
                    }
                }
                Declaration::Address { names }
            }
            "ALIAS" => {
                self.no_mods(&mods, mods_off, kw)?;
                let off = self.t.peek().start;
                let name = self.t.expect_ident("a variable name")?.to_string();
                self.check_new_name(&name, off)?;
                self.t.expect(b'=')?;
                let toff = self.t.peek().start;
                let target = self
                    .t
                    .expect_ident("the name of a declared variable")?
                    .to_string();
                let Some(info) = self.vars.get(&target).cloned() else {
                    return self.undeclared(&target, toff);
                };
                self.declare(&name, off, info)?;
                Declaration::Alias { name, target }
            }
            "SUBROUTINETYPE" => {
                self.no_mods(&mods, mods_off, kw)?;
                let off = self.t.peek().start;
                let name = self.t.expect_ident("a subroutine type name")?.to_string();
                // ARB_shader_subroutine §2.X.5: "creates a SUBROUTINETYPE named "Hero" (if
                // it does not already exist) and adds the subroutines": a type may be
                // named again to add labels; any other earlier use of the name clashes.
                let exists = self
                    .vars
                    .get(&name)
                    .is_some_and(|v| v.kind == VarKind::SubroutineType);
                if !exists {
                    self.declare(
                        &name,
                        off,
                        VarInfo {
                            kind: VarKind::SubroutineType,
                            dims: Vec::new(),
                            per_vertex: false,
                        },
                    )?;
                }
                self.t.expect(b'{')?;
                let mut labels = Vec::new();
                if !self.t.at(b'}') {
                    loop {
                        let loff = self.t.peek().start;
                        let l = self.t.expect_ident("a label")?.to_string();
                        self.use_label(&l, loff);
                        labels.push(l);
                        if !self.t.eat(b',') {
                            break;
                        }
                    }
                }
                self.t.expect(b'}')?;
                Declaration::SubroutineType { name, labels }
            }
            _ => {
                let kind = DeclKind::from_name(kw).unwrap_or(DeclKind::Param);
                self.check_mods(&mods, mods_off, VarKind::Bound(kind))?;
                Declaration::Bound(self.bound_decl(mods, kind, kw_tok.start)?)
            }
        };
        self.t.expect(b';')?;
        Ok(d)
    }

    fn var_mods(&mut self) -> PResult<VarMods> {
        let mut m = VarMods::default();
        while let Some(w) = self.t.peek_ident().filter(|w| VAR_MODS.contains(w)) {
            let off = self.t.next().start;
            let dup = if let Some(ty) = VarType::from_name(w) {
                m.ty.replace(ty).is_some()
            } else if let Some(sz) = VarSize::from_name(w) {
                m.size.replace(sz).is_some()
            } else {
                let i = Interp::from_name(w).unwrap_or(Interp::Flat);
                let dup = m.interp.contains(&i);
                m.interp.push(i);
                dup
            };
            if dup {
                return self
                    .t
                    .err_at(off, format!("more than one modifier of the kind of `{w}`"));
            }
        }
        Ok(m)
    }

    fn no_mods(&self, m: &VarMods, off: usize, kw: &str) -> PResult<()> {
        if m.is_empty() {
            Ok(())
        } else {
            self.err_at(off, format!("`{kw}` takes no modifiers"))
        }
    }

    /// Checks declaration modifiers against the statement (§2.X.3.1, NV_fragment_program4
    /// interpolation rules, NV_fragment_program_option `<varSize>`).
    fn check_mods(&self, m: &VarMods, off: usize, kind: VarKind) -> PResult<()> {
        if m.is_empty() {
            return Ok(());
        }
        let what = kind.keyword();
        if self.arb() {
            let ok = m.ty.is_none()
                && m.interp.is_empty()
                && self.feat.fp_opt
                && matches!(kind, VarKind::Temp | VarKind::Bound(DeclKind::Output));
            if !ok {
                return self.err_at(
                    off,
                    "ARB programs allow only `SHORT`/`LONG` before `TEMP` and `OUTPUT`, with `OPTION NV_fragment_program;`",
                );
            }
            return Ok(());
        }
        let typed = matches!(
            kind,
            VarKind::Temp
                | VarKind::Bound(
                    DeclKind::Attrib
                        | DeclKind::Param
                        | DeclKind::Output
                        | DeclKind::Buffer
                        | DeclKind::Buffer4
                        | DeclKind::CBuffer
                )
        );
        if m.ty.is_some() && !typed {
            return self.err_at(off, format!("`{what}` takes no data type modifier"));
        }
        if m.size.is_some()
            && !matches!(
                kind,
                VarKind::Temp | VarKind::Bound(DeclKind::Output | DeclKind::Attrib)
            )
        {
            return self.err_at(off, format!("`{what}` takes no size modifier"));
        }
        if !m.interp.is_empty() {
            if kind != VarKind::Bound(DeclKind::Attrib) || self.stage() != NvStage::Fragment {
                return self.err_at(
                    off,
                    "interpolation modifiers apply only to fragment program `ATTRIB` statements",
                );
            }
            if m.interp.contains(&Interp::Flat)
                && (m.interp.contains(&Interp::Centroid)
                    || m.interp.contains(&Interp::NoPerspective))
            {
                return self.err_at(
                    off,
                    "`FLAT` cannot be combined with `CENTROID` or `NOPERSPECTIVE`",
                );
            }
            if m.interp.contains(&Interp::Sample) && !self.level_at_least(NvLevel::Nv41) {
                return self.err_at(
                    off,
                    "`SAMPLE` requires a `!!NVfp4.1` or `!!NVfp5.0` program",
                );
            }
        }
        Ok(())
    }

    /// `KIND [type] name [dims] = init` (after the keyword).
    fn bound_decl(&mut self, mods: VarMods, kind: DeclKind, kw_off: usize) -> PResult<BoundDecl> {
        let mut subroutine_type = None;
        if kind == DeclKind::Subroutine {
            let off = self.t.peek().start;
            let ty = self.t.expect_ident("a subroutine type name")?.to_string();
            match self.vars.get(&ty) {
                Some(v) if v.kind == VarKind::SubroutineType => {}
                Some(_) => {
                    return self.err_at(off, format!("`{}` is not a SUBROUTINETYPE", clip(&ty)))
                }
                None => return self.undeclared(&ty, off),
            }
            subroutine_type = Some(ty);
        }
        let name_off = self.t.peek().start;
        let name = self.t.expect_ident("a variable name")?.to_string();
        self.check_new_name(&name, name_off)?;
        let max_dims = if kind == DeclKind::CBuffer { 2 } else { 1 };
        let mut dims = Vec::new();
        while dims.len() < max_dims && self.t.eat(b'[') {
            if self.t.eat(b']') {
                dims.push(None);
                continue;
            }
            let n = self
                .t
                .expect_uint(u32::MAX as u64, "an array size or `]`")?;
            if n == 0 {
                return self.err_at(self.t.previous_start(), "an array size must be at least 1");
            }
            dims.push(Some(n as u32));
            self.t.expect(b']')?;
        }
        self.t.expect(b'=')?;
        let list = !dims.is_empty();
        let mut init = Vec::new();
        let mut count = Some(0u64);
        if list {
            self.t.expect(b'{')?;
            loop {
                let (item, n) = self.init_item(kind, true)?;
                count = count.and_then(|c| n.and_then(|n| c.checked_add(n)));
                init.push(item);
                if !self.t.eat(b',') {
                    break;
                }
            }
            self.t.expect(b'}')?;
        } else {
            let (item, _) = self.init_item(kind, false)?;
            init.push(item);
        }
        // §2.X.3.3: a declared array size must match the number of bound elements.
        let mut known = dims.clone();
        if let (Some(Some(n)), Some(c)) = (dims.first(), count) {
            if dims.len() == 1 && *n as u64 != c {
                return self.err_at(
                    kw_off,
                    format!(
                        "`{}` is declared with {n} elements but initialized with {c}",
                        clip(&name)
                    ),
                );
            }
        }
        if let (Some(None), Some(c)) = (known.first(), count) {
            if known.len() == 1 && c > 0 && c <= u32::MAX as u64 {
                known[0] = Some(c as u32);
            }
        }
        // NV_geometry_program4 §2.X.3.2: an attribute bound to `vertex.*` without `[m]` (or
        // to `vertex.in.*` / `vertex.out.*` without `[m]`) is indexed by vertex first.
        let per_vertex = kind == DeclKind::Attrib
            && matches!(
                self.stage(),
                NvStage::Geometry | NvStage::TessCtrl | NvStage::TessEval
            )
            && init.iter().any(|i| match i {
                InitItem::Binding(b) if b.root() == "vertex" && b.segments[0].index.is_empty() => {
                    match b.segments.get(1) {
                        Some(s) if s.name == "tesscoord" => false,
                        Some(s) if s.name == "in" || s.name == "out" => s.index.is_empty(),
                        Some(_) => true,
                        None => false,
                    }
                }
                _ => false,
            });
        if kind == DeclKind::Param && list {
            let items = init
                .iter()
                .filter_map(|i| match i {
                    InitItem::Binding(b) => Some(b.clone()),
                    _ => None,
                })
                .collect();
            self.seen.param_arrays.push((name.clone(), name_off, items));
        }
        self.declare(
            &name,
            name_off,
            VarInfo {
                kind: VarKind::Bound(kind),
                dims: known,
                per_vertex,
            },
        )?;
        Ok(BoundDecl {
            mods,
            kind,
            subroutine_type,
            name,
            dims,
            init,
        })
    }

    /// One initializer and the number of elements it binds (`None` = unknown).
    fn init_item(&mut self, kind: DeclKind, list: bool) -> PResult<(InitItem, Option<u64>)> {
        let tk = self.t.peek();
        if kind == DeclKind::Param {
            if self.t.at(b'{') {
                return Ok((InitItem::Vector(self.const_vector()?), Some(1)));
            }
            if matches!(tk.tok, Tok::Int(_) | Tok::Float | Tok::Punct(b'-' | b'+')) {
                let neg = self.sign();
                return Ok((
                    InitItem::Scalar(SignedLit {
                        neg,
                        lit: self.literal()?,
                    }),
                    Some(1),
                ));
            }
        }
        match self.t.peek_ident() {
            Some(w) if self.trie.is_root(w) => {}
            _ => {
                let what = match kind {
                    DeclKind::Param => "a parameter binding or a constant",
                    DeclKind::Attrib => "an attribute binding",
                    DeclKind::Output => "a result binding",
                    DeclKind::Texture => "`texture[n]`",
                    DeclKind::Image => "`image[n]`",
                    DeclKind::Shared => "`program.sharedmem`",
                    DeclKind::Storage => "`program.storage[n]`",
                    DeclKind::Counter => "`program.counter[n]`",
                    DeclKind::Subroutine => "`program.subroutine[n]`",
                    _ => "`program.buffer[n]`",
                };
                return self.t.expected(what);
            }
        }
        let (b, class) = self.binding(Ctx::Decl)?;
        if !class_fits(kind, class, list) {
            let why = if class == BindClass::ParamMulti {
                format!(
                    "`{}` binds several rows and needs an array (`PARAM name[] = {{ ... }}`)",
                    b.path()
                )
            } else {
                format!(
                    "`{}` is {}, not valid in a `{}` statement",
                    b.path(),
                    class_desc(class),
                    kind.name()
                )
            };
            return self.err_at(tk.start, why);
        }
        // Number of elements: ranges multiply, a whole matrix is 4 rows, a whole buffer
        // (no element index) is unknown.
        let mut n: Option<u64> = Some(1);
        for s in &b.segments {
            for ix in &s.index {
                if let Index::Range(a, z) = ix {
                    // `a <= z` (checked where the range is parsed).
                    let len = u64::from(*z)
                        .checked_sub(u64::from(*a))
                        .and_then(|l| l.checked_add(1));
                    n = n.and_then(|n| n.checked_mul(len?));
                }
            }
        }
        if class == BindClass::ParamMulti {
            n = n.and_then(|n| n.checked_mul(4));
        }
        let whole = matches!(
            class,
            BindClass::Buffer | BindClass::Storage | BindClass::Counter | BindClass::Shared
        ) && b.segments.last().is_some_and(|s| s.index.len() < 2);
        if whole {
            n = None;
        }
        Ok((InitItem::Binding(b), n))
    }

    /// An optional `-` or `+`; returns whether it negates.
    pub fn sign(&mut self) -> bool {
        if self.t.eat(b'-') {
            true
        } else {
            self.t.eat(b'+');
            false
        }
    }

    /// A number (`<constantScalar>`).
    pub fn literal(&mut self) -> PResult<Literal> {
        let tk = self.t.peek();
        let text = self.t.text_of(tk);
        match tk.tok {
            Tok::Int(Some(v)) => {
                self.t.next();
                Ok(Literal::Int {
                    value: v,
                    hex: text.len() > 1 && matches!(text.as_bytes()[1], b'x' | b'X'),
                })
            }
            Tok::Int(None) => self.err_at(
                tk.start,
                format!(
                    "integer constant `{}` is too large (at most 64 bits)",
                    clip(text)
                ),
            ),
            Tok::Float => {
                let t = normalize_float(text);
                match t.parse::<f64>() {
                    Ok(v) if v.is_finite() => {
                        self.t.next();
                        Ok(Literal::Float(t))
                    }
                    _ => self.err_at(
                        tk.start,
                        format!("floating-point constant `{}` is out of range", clip(text)),
                    ),
                }
            }
            _ => self.t.expected("a number"),
        }
    }

    /// `{ a [, b [, c [, d]]] }` (`<constantVector>`).
    pub fn const_vector(&mut self) -> PResult<Vec<SignedLit>> {
        self.t.expect(b'{')?;
        let mut v = Vec::new();
        loop {
            let neg = self.sign();
            v.push(SignedLit {
                neg,
                lit: self.literal()?,
            });
            if v.len() == 4 || !self.t.eat(b',') {
                break;
            }
        }
        if v.len() == 4 && self.t.at(b',') {
            return self.t.err("a constant vector has at most 4 components");
        }
        self.t.expect(b'}')?;
        Ok(v)
    }

    /// A binding starting at a root word; returns it with its class. Walks the binding tree
    /// of the program type: a segment is taken only if the tree continues with it.
    pub fn binding(&mut self, ctx: Ctx) -> PResult<(Binding, BindClass)> {
        let trie = self.trie;
        let start = self.t.peek().start;
        let mut node = 0;
        let mut segments: Vec<Segment> = Vec::new();
        loop {
            let tk = self.t.peek();
            let name = self.t.text_of(tk);
            let child = match (tk.tok, trie.child(node, name)) {
                (Tok::Ident, Some(c)) => c.clone(),
                _ => {
                    let path = path_text(&segments);
                    let opts: Vec<String> = trie.nodes[node]
                        .children
                        .iter()
                        .take(12)
                        .map(|c| format!("`{}`", c.name))
                        .collect();
                    return self
                        .t
                        .expected(&format!("one of {} after `{path}.`", opts.join(", ")));
                }
            };
            self.t.next();
            let mut index = Vec::new();
            while index.len() < child.max_idx as usize && self.t.at(b'[') {
                let rel_ok = ctx == Ctx::Operand && self.binding_rel_ok(&segments, child.name);
                index.push(self.index(ctx, rel_ok)?);
            }
            segments.push(Segment {
                name: child.name.to_string(),
                index,
            });
            if segments.last().map_or(0, |s| s.index.len()) < child.min_idx as usize {
                return self
                    .t
                    .expected(&format!("`[` (`{}` needs an index)", path_text(&segments)));
            }
            node = child.node;
            // Continue with `.name` if the tree does, or if the binding cannot end here
            // (then the name after the dot is reported as unknown).
            let next = self.t.peek_n(1);
            if self.t.at(b'.')
                && next.tok == Tok::Ident
                && (trie.child(node, self.t.text_of(next)).is_some()
                    || trie.nodes[node].terminal.is_none())
            {
                self.t.next();
                continue;
            }
            break;
        }
        match trie.nodes[node].terminal {
            Some(class) => {
                let b = Binding { segments };
                self.check_binding(&b, class, start)?;
                self.seen.bindings.push((b.clone(), class, start));
                Ok((b, class))
            }
            None => {
                let opts: Vec<String> = trie.nodes[node]
                    .children
                    .iter()
                    .take(12)
                    .map(|c| format!("`{}`", c.name))
                    .collect();
                let path = path_text(&segments);
                self.t.expected(&format!(
                    "`.` and one of {} to complete `{path}`",
                    opts.join(", ")
                ))
            }
        }
    }

    /// `[n]`, `[a..b]` (declarations) or `[var.c +/- n]` (operands, if `rel_ok`).
    pub fn index(&mut self, ctx: Ctx, rel_ok: bool) -> PResult<Index> {
        self.t.expect(b'[')?;
        let tk = self.t.peek();
        let ix = match tk.tok {
            Tok::Int(_) => {
                let a = self.t.expect_uint(u32::MAX as u64, "an index")? as u32;
                if self.t.peek().tok == Tok::DotDot {
                    if ctx != Ctx::Decl {
                        return self
                            .t
                            .err("index ranges `[a..b]` are only valid in declarations");
                    }
                    self.t.next();
                    let z = self
                        .t
                        .expect_uint(u32::MAX as u64, "the end of the range")?
                        as u32;
                    if z < a {
                        return self.err_at(
                            self.t.previous_start(),
                            format!("range `[{a}..{z}]` ends before it starts"),
                        );
                    }
                    Index::Range(a, z)
                } else {
                    Index::Abs(a)
                }
            }
            Tok::Ident if rel_ok => {
                let var = self.t.next();
                let name = self.t.text_of(var);
                let Some(info) = self.vars.get(name) else {
                    return self.undeclared(name, var.start);
                };
                if self.arb() && info.kind != VarKind::Address {
                    // ARB_vertex_program <progParamArrayRel> ::= <addrReg> <addrComponent>
                    // <addrRegRelOffset>; NV_fragment_program2 <arrayMemRel> ::= <addrUseS>.
                    return self.err_at(
                        var.start,
                        format!(
                            "a relative index in ARB programs is an address register (`A0.x`), not `{}` (declared by {})",
                            clip(name),
                            info.kind.keyword()
                        ),
                    );
                }
                self.t.expect(b'.')?;
                let comp_off = self.t.peek().start;
                let comp = self.scalar_component()?;
                // ARB_vertex_program <addrComponent> ::= "." "x"; NV_vertex_program2 makes
                // it <xyzwComponent>; NV_fragment_program2 keeps "x".
                let any_comp = self.stage() == NvStage::Vertex && self.feat.vp2;
                if self.arb() && comp != 0 && !any_comp {
                    return self.err_at(
                        comp_off,
                        "an address register is read only through its `x` component here \
                         (ARB_vertex_program <addrComponent>; NV_vertex_program2 allows y, z, w)",
                    );
                }
                let mut offset = 0i32;
                if self.t.at(b'+') || self.t.at(b'-') {
                    let neg = self.t.next().tok == Tok::Punct(b'-');
                    let off_at = self.t.peek().start;
                    let v = self.t.expect_uint(i32::MAX as u64, "an index offset")? as i32;
                    // ARB_vertex_program <addrRegPosOffset> 0..63, <addrRegNegOffset> 0..64
                    // (NV_vertex_program2 lifts the bounds: "+" <integer>).
                    let max = if neg { 64 } else { 63 };
                    if self.arb() && !self.feat.vp2 && v > max {
                        return self.err_at(
                            off_at,
                            format!(
                                "relative offset {}{v} is outside -64..63 \
                                 (ARB_vertex_program <addrRegRelOffset>)",
                                if neg { "-" } else { "+" }
                            ),
                        );
                    }
                    offset = if neg { v.saturating_neg() } else { v };
                }
                Index::Rel(RelIndex {
                    var: name.to_string(),
                    comp,
                    offset,
                })
            }
            Tok::Ident => {
                return self.t.err(if ctx == Ctx::Decl {
                    "relative indices are only valid in instruction operands"
                } else {
                    "this binding takes only a constant index"
                })
            }
            _ => return self.t.expected("an index"),
        };
        self.t.expect(b']')?;
        Ok(ix)
    }

    /// Whether binding segment `name` (after `segs`) may take a relative index: NV
    /// programs index `texcoord` and `attrib` arrays relatively (NV_gpu_program4
    /// `<arrayMemRel>`); ARB programs only with NV_vertex_program3 (`vertex.texcoord`,
    /// `vertex.attrib`, `result.texcoord`) or NV_fragment_program2 (`fragment.texcoord`).
    fn binding_rel_ok(&self, segs: &[Segment], name: &str) -> bool {
        if !matches!(name, "texcoord" | "attrib") {
            return false;
        }
        if !self.arb() {
            return true;
        }
        let root = segs.first().map_or("", |s| s.name.as_str());
        match self.stage() {
            NvStage::Vertex => {
                self.feat.vp3 && (root == "vertex" || (root == "result" && name == "texcoord"))
            }
            _ => self.feat.fp2 && root == "fragment" && name == "texcoord",
        }
    }

    /// One component letter `x y z w` or `r g b a`.
    pub fn scalar_component(&mut self) -> PResult<u8> {
        let c = match self.t.peek_ident() {
            Some(w) if w.len() == 1 => component(w.as_bytes()[0]),
            _ => None,
        };
        match c {
            Some(c) => {
                self.t.next();
                Ok(c)
            }
            None => self.t.expected("a component `x`, `y`, `z` or `w`"),
        }
    }
}

/// The component of a swizzle letter (xyzw or rgba).
pub(crate) fn component(c: u8) -> Option<u8> {
    match c {
        b'x' | b'r' => Some(0),
        b'y' | b'g' => Some(1),
        b'z' | b'b' => Some(2),
        b'w' | b'a' => Some(3),
        _ => None,
    }
}

fn path_text(segs: &[Segment]) -> String {
    let names: Vec<&str> = segs.iter().map(|s| s.name.as_str()).collect();
    names.join(".")
}
