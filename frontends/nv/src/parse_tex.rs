//! Texture and image operands (NV_gpu_program4 §2.X.4.4 `<texAccess>`, NV_gpu_program5
//! `<textureUseV>`/`<texOffset>`, NV_bindless_texture `handle(..)`,
//! EXT_shader_image_load_store `<imageUnit>`/`<imageTarget>`, ARB_fragment_program(_shadow)
//! targets).
// Numbers here come from user input (program text, inputs files, machine code): no
// arithmetic may wrap or panic unnoticed.
#![warn(clippy::arithmetic_side_effects)]

use super::ast::*;
use super::lexer::{PResult, Tok};
use super::opcodes::NvOpcode;
use super::parse::{Parser, VarKind};
use super::parse_insn::{Comps, SrcCtx};

impl<'a> Parser<'a> {
    /// Whether a texture unit starts here.
    pub(super) fn at_texture_unit(&self) -> bool {
        match self.t.peek_ident() {
            Some("texture") => true,
            Some("handle") => self.t.peek_n(1).tok == Tok::Punct(b'('),
            Some(w) => self
                .vars
                .get(w)
                .is_some_and(|i| i.kind == VarKind::Bound(DeclKind::Texture)),
            None => false,
        }
    }

    /// `texture[n]`, a TEXTURE variable or `handle(v.c)`, then `, target [, offset]`.
    pub(super) fn tex_access(&mut self, op: NvOpcode) -> PResult<TexAccess> {
        let tk = self.t.peek();
        self.mark_operand(tk.start);
        let unit = self.unit_ref("texture", DeclKind::Texture)?;
        let mut component = None;
        if self.t.at(b'.') {
            if !self.level_at_least(NvLevel::Nv50) {
                return self.t.expected("`,`");
            }
            self.t.next();
            component = Some(self.scalar_component()?);
        }
        self.t.expect(b',')?;
        let target = self.target()?;
        if let UnitRef::Unit(n) = unit {
            let n = n.unwrap_or(0);
            self.check_unit_limit(n, tk.start)?;
            self.seen.tex_uses.push((n, target, tk.start));
        }
        let mut offset = None;
        if self.t.eat(b',') {
            let off = self.t.peek().start;
            self.mark_operand(off);
            // NV_gpu_program5 §2.X.4.4: no texel offsets on cube maps; TXD and TXGO take no
            // `offset(..)` operand, and TXGO no non-zero constant offset.
            use TexTarget::{ArrayCube, Cube, ShadowArrayCube, ShadowCube};
            if matches!(target, Cube | ShadowCube | ArrayCube | ShadowArrayCube) {
                return self.err_at(
                    off,
                    format!("texel offsets are not supported with `{}`", target.name()),
                );
            }
            if self.t.eat(b'(') {
                let mut v = Vec::new();
                loop {
                    let at = self.t.peek().start;
                    let neg = self.sign();
                    let n = self.t.expect_uint(i32::MAX as u64, "a texel offset")? as i32;
                    // `n <= i32::MAX`, so its negation exists.
                    let n = if neg { n.saturating_neg() } else { n };
                    self.check_const_offset(target, v.len(), n, at)?;
                    v.push(n);
                    if v.len() == 3 || !self.t.eat(b',') {
                        break;
                    }
                }
                self.t.expect(b')')?;
                if op == NvOpcode::Txgo && v.iter().any(|&c| c != 0) {
                    return self.err_at(
                        off,
                        "`TXGO` takes its offsets as operands, not as a constant offset",
                    );
                }
                offset = Some(TexOffset::Const(v));
            } else if self.t.at_word("offset") && self.level_at_least(NvLevel::Nv50) {
                if matches!(op, NvOpcode::Txd | NvOpcode::Txgo) {
                    return self.err_at(
                        off,
                        format!("`{}` takes no `offset(..)` operand", op.name()),
                    );
                }
                self.t.next();
                self.t.expect(b'(')?;
                let s = self.src(Comps::Vector, SrcCtx::Value)?;
                self.t.expect(b')')?;
                offset = Some(TexOffset::Operand(Box::new(s)));
            } else {
                return self.t.expected("a texel offset `(x, y, z)`");
            }
        }
        Ok(TexAccess {
            unit,
            component,
            target,
            offset,
        })
    }

    /// The load-time rules of a constant texel offset component (NV_gpu_program4 §2.X.4.4,
    /// NV_gpu_program5 §2.X.4.4): component `k` (0 = u) of value `n` at byte `at` must lie
    /// in MIN/MAX_PROGRAM_TEXEL_OFFSET_EXT (-8..=7, the values every implementation
    /// supports), and be zero where the target has no such texel coordinate (1D, ARRAY1D,
    /// SHADOW1D, SHADOWARRAY1D: `v`, `w`; 2D, RECT, ARRAY2D and their SHADOW forms: `w`;
    /// BUFFER: all, "texel offsets are not supported for ... buffer textures").
    ///
    /// Errors: "program will fail to load", reported at the component.
    fn check_const_offset(&self, target: TexTarget, k: usize, n: i32, at: usize) -> PResult<()> {
        use TexTarget::*;
        let dims = match target {
            T1D | Array1D | Shadow1D | ShadowArray1D => 1,
            T2D | Rect | Array2D | Shadow2D | ShadowRect | ShadowArray2D | T2DMS | Array2DMS
            | Renderbuffer => 2,
            Buffer => 0,
            _ => 3,
        };
        if k >= dims && n != 0 {
            let axis = ["u", "v", "w"][k];
            return self.err_at(
                at,
                format!(
                    "a `{}` target has no {axis} texel coordinate: this texel offset component \
                     must be 0 (NV_gpu_program4 §2.X.4.4)",
                    target.name()
                ),
            );
        }
        if !(-8..=7).contains(&n) {
            return self.err_at(
                at,
                format!(
                    "texel offset {n} is outside -8..7 (MIN/MAX_PROGRAM_TEXEL_OFFSET_EXT, \
                     NV_gpu_program4 §2.X.4.4)"
                ),
            );
        }
        Ok(())
    }

    /// `image[n]`, an IMAGE variable or `handle(v.c)`.
    pub(super) fn image_unit(&mut self) -> PResult<UnitRef> {
        self.mark_operand(self.t.peek().start);
        self.unit_ref("image", DeclKind::Image)
    }

    fn unit_ref(&mut self, keyword: &str, kind: DeclKind) -> PResult<UnitRef> {
        let tk = self.t.peek();
        let what = format!(
            "a {keyword} unit (`{keyword}[n]`, a {} variable or `handle(..)`)",
            kind.name()
        );
        let Some(w) = self.t.peek_ident() else {
            return self.t.expected(&what);
        };
        if w == keyword && (keyword == "texture" || self.level_at_least(NvLevel::Nv50)) {
            self.t.next();
            let mut n = None;
            if self.t.eat(b'[') {
                n = Some(self.t.expect_uint(u32::MAX as u64, "a unit number")? as u32);
                self.t.expect(b']')?;
            } else if keyword == "image" {
                return self.t.expected("`[`");
            }
            return Ok(UnitRef::Unit(n));
        }
        if w == "handle"
            && self.t.peek_n(1).tok == Tok::Punct(b'(')
            && self.level_at_least(NvLevel::Nv50)
        {
            self.t.next();
            self.t.next();
            let vt = self.t.peek();
            let var = self
                .t
                .expect_ident("a variable holding a handle")?
                .to_string();
            if !self.vars.contains_key(&var) {
                return self.undeclared(&var, vt.start);
            }
            self.t.expect(b'.')?;
            let comp = self.scalar_component()?;
            self.t.expect(b')')?;
            return Ok(UnitRef::Handle { var, comp });
        }
        match self.vars.get(w) {
            Some(i) if i.kind == VarKind::Bound(kind) => {
                self.t.next();
                let mut index = self.var_indices(w, tk.start)?;
                Ok(UnitRef::Var {
                    name: w.to_string(),
                    index: index.pop(),
                })
            }
            _ => self.t.expected(&what),
        }
    }

    /// A texture or image target (`<texTarget>`, `<imageTarget>`), with the ARB limits
    /// (ARB_fragment_program: 1D 2D 3D CUBE RECT; ARB_fragment_program_shadow: SHADOW1D,
    /// SHADOW2D, SHADOWRECT).
    pub(super) fn target(&mut self) -> PResult<TexTarget> {
        let tk = self.t.peek();
        let Some(t) = self.t.peek_ident().and_then(TexTarget::from_name) else {
            return self
                .t
                .expected("a texture target (`1D`, `2D`, `3D`, `CUBE`, `RECT`, `ARRAY2D`, ...)");
        };
        if self.arb() {
            use TexTarget::*;
            // NV_vertex_program3, "Dependencies on ARB_fragment_program_shadow": vertex
            // programs with the option may use the SHADOW targets too (NVIDIA's driver
            // refuses them: a known deviation, docs/frontends.md).
            let ok = matches!(t, T1D | T2D | T3D | Cube | Rect)
                || (matches!(t, Shadow1D | Shadow2D | ShadowRect)
                    && self.feat.shadow
                    && (self.stage() == NvStage::Fragment || self.feat.vp3));
            if !ok {
                return self.err_at(
                    tk.start,
                    format!(
                        "texture target `{}` is not available in this ARB program",
                        t.name()
                    ),
                );
            }
        }
        self.t.next();
        Ok(t)
    }
}
