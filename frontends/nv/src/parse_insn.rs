//! Instructions (NV_gpu_program4 §2.X.2 `<instruction>`; modifiers are in `modifiers.rs`),
//! §2.X.4.2 operands, §2.X.4.3 results, §2.X.4.4 texture access; NV_gpu_program5 and the
//! extension grammars for the memory, image, subroutine and thread-group instructions).
// Numbers here come from user input (program text, inputs files, machine code): no
// arithmetic may wrap or panic unnoticed.
#![warn(clippy::arithmetic_side_effects)]

use super::ast::*;
use super::bindings::BindClass;
use super::lexer::{clip, PResult, Tok};
use super::modifiers::resolve_opcode;
use super::opcodes::{NvOpcode, Shape};
use super::parse::{Parser, VarKind};
use super::parse_decl::{component, Ctx};

/// What a source operand may name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum SrcCtx {
    /// Temporaries, attributes, parameters, parameter buffers and their bindings.
    Value,
    /// LDC: a CBUFFER variable.
    Ldc,
    /// ARA, PUSHA: an address register.
    Address,
}

/// How many components a source operand selects.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Comps {
    /// `<instOperandV>`: no swizzle, one component or four.
    Vector,
    /// `<instOperandS>`: exactly one component.
    Scalar,
    /// `<instOperandVNS>`: no swizzle.
    NoSwizzle,
}

/// The condition code test and register spelled by `w` (`EQ`, `NE1`, `NAN0`); the bool
/// says whether a register digit was written.
fn split_cc(w: &str) -> Option<(CondCode, u8, bool)> {
    if let Some(c) = CondCode::from_name(w) {
        return Some((c, 0, false));
    }
    let (head, digit) = w.split_at(w.len().checked_sub(1)?);
    let reg = match digit {
        "0" => 0,
        "1" => 1,
        _ => return None,
    };
    CondCode::from_name(head).map(|c| (c, reg, true))
}

const ARB_CC: &[CondCode] = &[
    CondCode::Eq,
    CondCode::Ge,
    CondCode::Gt,
    CondCode::Le,
    CondCode::Lt,
    CondCode::Ne,
    CondCode::Tr,
    CondCode::Fl,
];

impl<'a> Parser<'a> {
    /// One instruction, up to and including its `;`.
    pub fn instruction(&mut self) -> PResult<Instruction> {
        let tk = self.t.next();
        let w = self.t.text_of(tk);
        let Some((op, precision, cc_s, clamp)) = resolve_opcode(w) else {
            return self.err_at(
                tk.start,
                format!("expected an opcode or a declaration, found `{}`", clip(w)),
            );
        };
        self.check_available(op, tk.start)?;
        let mut ins = Instruction::new(op);
        ins.mods.precision = precision;
        ins.mods.clamp = clamp;
        ins.mods.cc = match cc_s {
            "" => None,
            "C1" => Some(1),
            _ => Some(0),
        };
        self.check_suffixes(op, &ins.mods, cc_s, tk.start)?;
        self.modifiers(&mut ins)?;
        self.check_modifiers(&ins, tk.start)?;
        self.operands(&mut ins)?;
        if self.t.at(b',') {
            return self.t.err(format!("too many operands for `{}`", op.name()));
        }
        self.t.expect(b';')?;
        Ok(ins)
    }

    /// The operands of `ins` by its shape.
    fn operands(&mut self, ins: &mut Instruction) -> PResult<()> {
        let op = ins.opcode;
        let value = if op == NvOpcode::Ldc {
            SrcCtx::Ldc
        } else {
            SrcCtx::Value
        };
        use Comps::{NoSwizzle as N, Scalar as S, Vector as V};
        let srcs: &[Comps] = match op.shape() {
            Shape::Vector | Shape::Arl | Shape::Loop => &[V],
            Shape::Scalar | Shape::EmitS => &[S],
            Shape::BinSc => &[S, S],
            Shape::VecSca | Shape::Atom => &[V, S],
            Shape::Bin => &[V, V],
            Shape::Tri => &[V, V, V],
            Shape::Store => &[V, S],
            _ => &[],
        };
        match op.shape() {
            Shape::Vector
            | Shape::Scalar
            | Shape::BinSc
            | Shape::VecSca
            | Shape::Bin
            | Shape::Tri
            | Shape::Atom
            | Shape::Arl => {
                ins.dst = Some(self.dst(op.shape() == Shape::Arl)?);
                // ARB_vertex_program <ARL_instruction> ::= "ARL" <maskedAddrReg> ","
                // <scalarSrcReg>; NV_vertex_program2 makes the operand <instOperandV>.
                let arb_arl = op.shape() == Shape::Arl && self.arb() && !self.feat.vp2;
                let srcs: &[Comps] = if arb_arl { &[S] } else { srcs };
                for &c in srcs {
                    self.t.expect(b',')?;
                    ins.srcs.push(self.src(c, value)?);
                }
            }
            Shape::EmitS | Shape::Loop | Shape::Store => {
                for (k, &c) in srcs.iter().enumerate() {
                    if k > 0 {
                        self.t.expect(b',')?;
                    }
                    ins.srcs.push(self.src(c, value)?);
                }
            }
            Shape::Swz => {
                ins.dst = Some(self.dst(false)?);
                self.t.expect(b',')?;
                ins.srcs.push(self.src(N, value)?);
                let mut sel = [ExtSwizzle {
                    neg: false,
                    sel: ExtSel::Zero,
                }; 4];
                let mut sets = (false, false);
                for s in &mut sel {
                    self.t.expect(b',')?;
                    let at = self.t.peek().start;
                    let neg = self.t.at(b'-') || self.t.at(b'+');
                    let letter = self
                        .t
                        .text_of(self.t.peek_n(neg as usize))
                        .bytes()
                        .next()
                        .unwrap_or(0);
                    *s = self.ext_swizzle()?;
                    if matches!(s.sel, ExtSel::Comp(_)) {
                        let xyzw = b"xyzw".contains(&letter);
                        sets = (sets.0 || xyzw, sets.1 || !xyzw);
                    }
                    // ARB_fragment_program <extendedSwizzle> ::= <xyzwExtendedSwizzle> |
                    // <rgbaExtendedSwizzle>: the four selectors use one component set.
                    if sets.0 && sets.1 {
                        return self.err_at(
                            at,
                            "an extended swizzle names components from `xyzw` or from `rgba`, \
                             not both (<xyzwExtendedSwizzle> | <rgbaExtendedSwizzle>)",
                        );
                    }
                }
                ins.ext_swizzle = Some(sel);
            }
            Shape::Tex | Shape::Txd => {
                ins.dst = Some(self.dst(false)?);
                let n = if op.shape() == Shape::Txd { 3 } else { 1 };
                for _ in 0..n {
                    self.t.expect(b',')?;
                    ins.srcs.push(self.src(V, value)?);
                }
                self.t.expect(b',')?;
                if op.shape() == Shape::Tex && !self.at_texture_unit() {
                    if !self.level_at_least(NvLevel::Nv50) {
                        return self.t.expected("a texture unit (`texture[n]`)");
                    }
                    ins.srcs.push(self.src(V, value)?);
                    self.t.expect(b',')?;
                }
                ins.texture = Some(self.tex_access(op)?);
            }
            Shape::Branch => {
                let tk = self.t.peek();
                self.mark_operand(tk.start);
                let l = self.t.expect_ident("a label")?.to_string();
                self.use_label(&l, tk.start);
                ins.label = Some(l);
                ins.cond = self.opt_branch_cond()?;
            }
            Shape::FlowCc => ins.cond = self.opt_branch_cond()?,
            Shape::If => {
                self.mark_operand(self.t.peek().start);
                ins.cond = Some(self.cc_test()?);
            }
            Shape::Rep => {
                if !self.t.at(b';') {
                    ins.srcs.push(self.src(V, value)?);
                }
            }
            Shape::NoOperands => {}
            Shape::Kil => {
                let cc_form = self.t.at(b'(')
                    || self.t.peek_ident().is_some_and(|w| {
                        split_cc(w).is_some() && !self.vars.contains_key(w) && !self.trie.is_root(w)
                    });
                if cc_form {
                    if self.arb() && !self.feat.fp_opt {
                        return self.t.err("the condition code form of `KIL` requires `OPTION NV_fragment_program;`");
                    }
                    self.mark_operand(self.t.peek().start);
                    let paren = self.t.eat(b'(');
                    ins.cond = Some(self.cc_test()?);
                    if paren {
                        self.t.expect(b')')?;
                    }
                } else {
                    ins.srcs.push(self.src(V, value)?);
                }
            }
            Shape::MemLoad | Shape::MemAtom | Shape::MemStore => {
                if op.shape() == Shape::MemStore {
                    ins.srcs.push(self.src(V, value)?);
                } else {
                    ins.dst = Some(self.dst(false)?);
                    if op.shape() == Shape::MemAtom {
                        self.t.expect(b',')?;
                        ins.srcs.push(self.src(V, value)?);
                    }
                }
                self.t.expect(b',')?;
                let kind = match op {
                    NvOpcode::Lds | NvOpcode::Sts | NvOpcode::Atoms => DeclKind::Shared,
                    NvOpcode::Atomctr => DeclKind::Counter,
                    _ => DeclKind::Storage,
                };
                ins.srcs.push(self.mem_ref(kind)?);
            }
            Shape::Cali => {
                ins.srcs.push(self.mem_ref(DeclKind::Subroutine)?);
                ins.cond = self.opt_branch_cond()?;
            }
            Shape::LoadIm | Shape::AtomIm => {
                ins.dst = Some(self.dst(false)?);
                let n = if op.shape() == Shape::AtomIm { 2 } else { 1 };
                for _ in 0..n {
                    self.t.expect(b',')?;
                    ins.srcs.push(self.src(V, value)?);
                }
                self.t.expect(b',')?;
                let unit = self.image_unit()?;
                self.t.expect(b',')?;
                let target = self.target()?;
                ins.image = Some(ImageAccess { unit, target });
            }
            Shape::StoreIm => {
                let unit = self.image_unit()?;
                for _ in 0..2 {
                    self.t.expect(b',')?;
                    ins.srcs.push(self.src(V, value)?);
                }
                self.t.expect(b',')?;
                let target = self.target()?;
                ins.image = Some(ImageAccess { unit, target });
            }
            Shape::Ara => {
                ins.dst = Some(self.dst(true)?);
                self.t.expect(b',')?;
                ins.srcs.push(self.src(N, SrcCtx::Address)?);
            }
            Shape::Pusha => ins.srcs.push(self.src(N, SrcCtx::Address)?),
            Shape::Popa => {
                let off = self.t.peek().start;
                let d = self.dst(true)?;
                // NV_vertex_program3 § POPA: "a program will fail to load if it includes a
                // component write mask other than ".xyzw" or a condition code write mask
                // test other than "TR"".
                let tr = d.cc.as_ref().is_none_or(|c| {
                    c.cond == CondCode::Tr
                        && matches!(c.swizzle, Swizzle::None | Swizzle::Vector([0, 1, 2, 3]))
                });
                if d.mask != 0xF || !tr {
                    return self.err_at(
                        off,
                        "`POPA` takes no write mask other than `.xyzw` and no condition \
                         other than `TR` (NV_vertex_program3 § POPA)",
                    );
                }
                ins.dst = Some(d);
            }
        }
        Ok(())
    }

    /// `(ccTest)` after BRA/CAL/CALI/RET/BRK/CONT, if present.
    fn opt_branch_cond(&mut self) -> PResult<Option<CcTest>> {
        if !self.t.at(b'(') {
            return Ok(None);
        }
        self.mark_operand(self.t.peek().start);
        self.t.next();
        let c = self.cc_test()?;
        self.t.expect(b')')?;
        Ok(Some(c))
    }

    /// `EQ`, `GT1.x`, `NE0.xyzw` (`<ccTest>`).
    fn cc_test(&mut self) -> PResult<CcTest> {
        let tk = self.t.peek();
        let Some((cond, reg, digit)) = self.t.peek_ident().and_then(split_cc) else {
            return self
                .t
                .expected("a condition code test (`EQ`, `NE1.x`, ...)");
        };
        if self.arb() {
            if !self.arb_nv() {
                return self.err_at(
                    tk.start,
                    "condition codes require an NV option in ARB programs",
                );
            }
            if !ARB_CC.contains(&cond) || (digit && !self.feat.vp3) {
                return self.err_at(
                    tk.start,
                    format!(
                        "condition `{}` is not available in this ARB program",
                        clip(self.t.text_of(tk))
                    ),
                );
            }
        }
        self.t.next();
        let swizzle = self.swizzle()?;
        Ok(CcTest { cond, reg, swizzle })
    }

    /// An optional swizzle suffix: `.x` or four letters of `xyzw` (or of `rgba`).
    fn swizzle(&mut self) -> PResult<Swizzle> {
        if !self.t.at(b'.') {
            return Ok(Swizzle::None);
        }
        self.t.next();
        let tk = self.t.peek();
        let w = self.t.peek_ident().unwrap_or("");
        let comps: Option<Vec<u8>> = w.bytes().map(component).collect();
        let xyzw = w.bytes().all(|c| b"xyzw".contains(&c));
        let rgba = w.bytes().all(|c| b"rgba".contains(&c));
        match comps {
            Some(c) if !w.is_empty() && (xyzw || rgba) && (c.len() == 1 || c.len() == 4) => {
                self.t.next();
                Ok(if c.len() == 1 {
                    Swizzle::Scalar(c[0])
                } else {
                    Swizzle::Vector([c[0], c[1], c[2], c[3]])
                })
            }
            Some(_) if !w.is_empty() => self.err_at(
                tk.start,
                format!(
                    "a swizzle has 1 or 4 letters, all of `xyzw` or all of `rgba`, found `{}`",
                    clip(w)
                ),
            ),
            _ => self.t.expected("a swizzle (`.x` or `.xyzw`)"),
        }
    }

    /// A write mask after `.`: letters of `xyzw` (or `rgba`) in order.
    fn write_mask(&mut self) -> PResult<u8> {
        let tk = self.t.peek();
        let w = self.t.peek_ident().unwrap_or("");
        let order = if w.bytes().all(|c| b"xyzw".contains(&c)) {
            "xyzw"
        } else {
            "rgba"
        };
        let mut mask = 0u8;
        let mut last = -1i32;
        for c in w.bytes() {
            let Some(k) = order.bytes().position(|o| o == c) else {
                return self.err_at(
                    tk.start,
                    format!(
                        "expected a write mask (letters of `xyzw` in order), found `{}`",
                        clip(w)
                    ),
                );
            };
            if k as i32 <= last {
                return self.err_at(
                    tk.start,
                    format!("write mask `{}` is not in `{order}` order", clip(w)),
                );
            }
            last = k as i32;
            mask |= 1 << k;
        }
        if mask == 0 {
            return self.t.expected("a write mask");
        }
        self.t.next();
        Ok(mask)
    }

    /// A destination (`<instResult>`). `addr`: an address register is required.
    fn dst(&mut self, addr: bool) -> PResult<Dst> {
        let tk = self.t.peek();
        self.mark_operand(tk.start);
        let Some(w) = self.t.peek_ident() else {
            return self.t.expected("a destination");
        };
        let base = if self.trie.is_root(w) {
            let (b, class) = self.binding(Ctx::Operand)?;
            if class != BindClass::Result || addr {
                return self.err_at(tk.start, format!("`{}` cannot be written", b.path()));
            }
            VarRef::Binding(b)
        } else {
            let Some(info) = self.vars.get(w).cloned() else {
                return self.undeclared(w, tk.start);
            };
            let ok = if addr {
                info.kind == VarKind::Address
            } else {
                matches!(info.kind, VarKind::Temp | VarKind::Bound(DeclKind::Output))
            };
            if !ok {
                let need = if addr {
                    "an ADDRESS variable"
                } else {
                    "a TEMP or OUTPUT variable"
                };
                return self.err_at(
                    tk.start,
                    format!(
                        "`{}` is declared by {}; the destination must be {need}",
                        clip(w),
                        info.kind.keyword()
                    ),
                );
            }
            self.t.next();
            let index = self.var_indices(w, tk.start)?;
            VarRef::Var {
                name: w.to_string(),
                index,
            }
        };
        let mut mask = 0xF;
        let mask_off = self.t.peek().start;
        if self.t.at(b'.') {
            self.t.next();
            mask = self.write_mask()?;
        }
        // ARB_vertex_program <maskedAddrReg> ::= <addrReg> <addrWriteMask>,
        // <addrWriteMask> ::= "." "x"; NV_vertex_program2 makes it <optWriteMask>.
        if addr && self.arb() && self.stage() == NvStage::Vertex && !self.feat.vp2 && mask != 1 {
            return self.err_at(
                mask_off,
                "an address register is written through `.x` only in !!ARBvp1.0 programs \
                 (ARB_vertex_program <addrWriteMask>; NV_vertex_program2 allows other masks)",
            );
        }
        let mut cc = None;
        if self.t.at(b'(') {
            if self.arb() && !self.arb_nv() {
                return self
                    .t
                    .err("conditional write masks require an NV option in ARB programs");
            }
            self.t.next();
            cc = Some(self.cc_test()?);
            self.t.expect(b')')?;
        }
        Ok(Dst { base, mask, cc })
    }

    /// The indices after a declared variable, checked against its declaration.
    pub(super) fn var_indices(&mut self, name: &str, off: usize) -> PResult<Vec<Index>> {
        let info = self
            .vars
            .get(name)
            .cloned()
            .ok_or_else(|| self.error(off, "undeclared"))?;
        let slots = info.dims.len().saturating_add(usize::from(info.per_vertex));
        let exact = matches!(
            info.kind,
            VarKind::Temp
                | VarKind::Bound(
                    DeclKind::Attrib
                        | DeclKind::Param
                        | DeclKind::Output
                        | DeclKind::Buffer
                        | DeclKind::Buffer4
                )
        );
        let mut index = Vec::new();
        while self.t.at(b'[') {
            if index.len() == slots {
                return self.t.err(if slots == 0 {
                    format!("`{}` is not an array", clip(name))
                } else {
                    format!("`{}` takes {slots} index(es)", clip(name))
                });
            }
            let ioff = self.t.peek_n(1).start;
            // ARB_vertex_program: only program parameter arrays are indexed relatively
            // (<progParamArrayRel>); ARB_fragment_program has no relative addressing.
            let rel_ok = !self.arb()
                || (self.stage() == NvStage::Vertex
                    && info.kind == VarKind::Bound(DeclKind::Param));
            let ix = self.index(Ctx::Operand, rel_ok)?;
            if let Index::Rel(_) = ix {
                self.seen.rel_arrays.insert(name.to_string());
            }
            let dim = (index.len() as isize).saturating_sub(isize::from(info.per_vertex));
            if let (Index::Abs(v), Some(Some(n))) = (
                &ix,
                usize::try_from(dim).ok().and_then(|d| info.dims.get(d)),
            ) {
                if *v >= *n {
                    return self.err_at(
                        ioff,
                        format!("index {v} is out of bounds for `{}` (size {n})", clip(name)),
                    );
                }
            }
            index.push(ix);
        }
        if exact && index.len() < slots {
            return self.t.expected(&format!(
                "`[` (`{}` is an array and needs an index)",
                clip(name)
            ));
        }
        Ok(index)
    }

    /// A source operand (`<instOperandV>`, `<instOperandS>`, `<instOperandVNS>`).
    pub(super) fn src(&mut self, comps: Comps, ctx: SrcCtx) -> PResult<Src> {
        let start = self.t.peek().start;
        self.mark_operand(start);
        let plain = comps == Comps::NoSwizzle;
        let neg = if plain { false } else { self.sign() };
        if !plain && self.t.at(b'|') {
            if self.arb() && !self.arb_nv() {
                return self
                    .t
                    .err("`|absolute value|` requires an NV option in ARB programs");
            }
            self.t.next();
            let neg_inside = self.sign();
            let (base, swizzle) = self.src_base(comps, ctx)?;
            self.t.expect(b'|')?;
            return Ok(Src {
                neg,
                abs: true,
                neg_inside,
                base,
                swizzle,
            });
        }
        let (base, swizzle) = self.src_base(comps, ctx)?;
        Ok(Src {
            neg,
            abs: false,
            neg_inside: false,
            base,
            swizzle,
        })
    }

    fn src_base(&mut self, comps: Comps, ctx: SrcCtx) -> PResult<(SrcBase, Swizzle)> {
        let tk = self.t.peek();
        let (base, swizzle) = match tk.tok {
            Tok::Int(_) | Tok::Float if ctx == SrcCtx::Value => {
                let lit = SrcBase::Scalar(self.literal()?);
                // ARB_vertex_program / ARB_fragment_program: a scalar constant is a
                // <srcReg> (<paramConstScalarUse>), so it takes the operand's suffix:
                // <scalarSrcReg> needs `.x`, <vectorSrcReg> allows one. The NV options
                // (NV_fragment_program_option, NV_vertex_program2_option) add the bare
                // <constantScalar> form, the only form of NV_gpu_program4 headers.
                if !self.arb() {
                    (lit, Swizzle::None)
                } else {
                    let sw = self.swizzle()?;
                    if comps == Comps::Scalar && sw == Swizzle::None && !self.arb_nv() {
                        return self.err_at(
                            tk.start,
                            "a scalar constant in a scalar operand needs a component suffix \
                             (`3.0.x`) in ARB programs (ARB_fragment_program / \
                             ARB_vertex_program <scalarSrcReg>)",
                        );
                    }
                    (lit, sw)
                }
            }
            Tok::Punct(b'{') if ctx == SrcCtx::Value => {
                let v = self.const_vector()?;
                (SrcBase::Vector(v), self.swizzle()?)
            }
            Tok::Ident => {
                let w = self.t.text_of(tk);
                if w == "texture" || (w == "image" && self.level_at_least(NvLevel::Nv50)) {
                    return self.err_at(
                        tk.start,
                        format!("`{w}` units are only valid as the unit operand of texture and image instructions"),
                    );
                }
                let base = if self.trie.is_root(w) && ctx == SrcCtx::Value {
                    let (b, class) = self.binding(Ctx::Operand)?;
                    match class {
                        BindClass::Attrib | BindClass::Param => {}
                        BindClass::Result => {
                            return self.err_at(tk.start, format!("`{}` is a result and cannot be read", b.path()))
                        }
                        BindClass::ParamMulti => {
                            return self.err_at(
                                tk.start,
                                format!("`{}` binds several rows; select one with `.row[n]`", b.path()),
                            )
                        }
                        _ => {
                            return self.err_at(
                                tk.start,
                                format!(
                                    "`{}` is only valid as the binding of a declaration, not as an operand",
                                    b.path()
                                ),
                            )
                        }
                    }
                    VarRef::Binding(b)
                } else {
                    let Some(info) = self.vars.get(w).cloned() else {
                        return self.undeclared(w, tk.start);
                    };
                    let ok = match (ctx, info.kind) {
                        (SrcCtx::Address, k) => k == VarKind::Address,
                        (SrcCtx::Ldc, k) => k == VarKind::Bound(DeclKind::CBuffer),
                        (SrcCtx::Value, VarKind::Temp) => true,
                        (SrcCtx::Value, VarKind::Bound(k)) => matches!(
                            k,
                            DeclKind::Attrib
                                | DeclKind::Param
                                | DeclKind::Buffer
                                | DeclKind::Buffer4
                        ),
                        _ => false,
                    };
                    if !ok {
                        let need = match ctx {
                            SrcCtx::Address => "an ADDRESS variable",
                            SrcCtx::Ldc => "a CBUFFER variable",
                            SrcCtx::Value => "a TEMP, ATTRIB, PARAM or BUFFER variable",
                        };
                        return self.err_at(
                            tk.start,
                            format!(
                                "`{}` is declared by {}; the operand must be {need}",
                                clip(w),
                                info.kind.keyword()
                            ),
                        );
                    }
                    self.t.next();
                    let index = self.var_indices(w, tk.start)?;
                    VarRef::Var {
                        name: w.to_string(),
                        index,
                    }
                };
                let swizzle = if comps == Comps::NoSwizzle {
                    Swizzle::None
                } else {
                    self.swizzle()?
                };
                (SrcBase::Ref(base), swizzle)
            }
            _ => return self.t.expected("an operand"),
        };
        let bare_constant = matches!(base, SrcBase::Scalar(_)) && swizzle == Swizzle::None;
        if comps == Comps::Scalar && !matches!(swizzle, Swizzle::Scalar(_)) && !bare_constant {
            return self.err_at(
                tk.start,
                "a scalar operand needs one component selected (`.x`, `.y`, `.z` or `.w`)",
            );
        }
        Ok((base, swizzle))
    }

    /// A memory, counter or subroutine variable with optional indices (no sign, no swizzle).
    fn mem_ref(&mut self, kind: DeclKind) -> PResult<Src> {
        let tk = self.t.peek();
        self.mark_operand(tk.start);
        let Some(w) = self.t.peek_ident() else {
            return self.t.expected(&format!("a {} variable", kind.name()));
        };
        match self.vars.get(w) {
            Some(i) if i.kind == VarKind::Bound(kind) => {}
            Some(i) => {
                return self.err_at(
                    tk.start,
                    format!(
                        "`{}` is declared by {}; expected a {} variable",
                        clip(w),
                        i.kind.keyword(),
                        kind.name()
                    ),
                )
            }
            None => return self.undeclared(w, tk.start),
        }
        self.t.next();
        let index = self.var_indices(w, tk.start)?;
        Ok(Src {
            neg: false,
            abs: false,
            neg_inside: false,
            base: SrcBase::Ref(VarRef::Var {
                name: w.to_string(),
                index,
            }),
            swizzle: Swizzle::None,
        })
    }

    /// One extended swizzle selector: `[-]0`, `[-]1` or `[-]x` (`<extSwizComp>`).
    fn ext_swizzle(&mut self) -> PResult<ExtSwizzle> {
        let neg = self.sign();
        let tk = self.t.peek();
        let text = self.t.text_of(tk);
        let sel = match tk.tok {
            Tok::Int(Some(0)) if text == "0" => ExtSel::Zero,
            Tok::Int(Some(1)) if text == "1" => ExtSel::One,
            Tok::Ident if text.len() == 1 && component(text.as_bytes()[0]).is_some() => {
                ExtSel::Comp(component(text.as_bytes()[0]).unwrap_or(0))
            }
            Tok::Eof => return self.t.expected("an extended swizzle selector (`0`, `1`, `x`, `y`, `z` or `w`)"),
            _ => {
                return self.err_at(
                    tk.start,
                    format!(
                        "invalid extended swizzle selector {} (expected `0`, `1`, `x`, `y`, `z` or `w`)",
                        self.t.describe(tk)
                    ),
                )
            }
        };
        self.t.next();
        Ok(ExtSwizzle { neg, sel })
    }
}
