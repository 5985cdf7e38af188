//! Texture instructions: TEX, TXP, TXB, TXL, TXD (NEAREST sampling), TXF (texel fetch),
//! TXQ (size query), LODQ and TXQS on the texture model of [`crate::texture`]. This is the one place their
//! semantics are written for the oracle; the decisions are listed in README "Textures".
//!
//! Sources: tgsi.rst "TEX", "TXP", "TXB", "TXL", "TXF", "TXQ" (TXF and TXQ "as per
//! GL_NV_gpu_program4"); NV_gpu_program4 §2.X.4.4 (Table X.17 coordinate layout, Table X.18
//! texel fetch, undefined results) and §2.X.8.Z TEX/TXB/TXL/TXP/TXF/TXQ; OpenGL 3.x §3.8.8
//! (NEAREST: `i = wrap(floor(u))`, `u = s * width`; mipmap level `d`; GL 4.6 Table 8.20 for
//! the wrap functions).
//!
//! * **Units.** The unit is the instruction's `SAMP[n]` operand; its texture is the inputs'
//!   `textures` entry `SAMP[n]`. No entry: the texture is not complete, "no texture access
//!   is performed and the result is undefined" (§2.X.4.4): every channel undefined.
//! * **Types.** Texels are returned unconverted. When the program declares `SVIEW[n]` with a
//!   return type that does not read the texture's format (FLOAT ↔ RGBA32F, UINT ↔
//!   RGBA32UI, SINT ↔ RGBA32I) the result is undefined (§2.X.4.4: "If the internal format
//!   of the texture does not match the instruction's data type modifier").
//! * **Coordinate precision.** The GL leaves the precision of texture coordinate arithmetic
//!   to the implementation (hardware uses fixed-point sub-texel coordinates), so a texel
//!   coordinate `u` within `2^-8 + |u| * 2^-20` texels of a texel edge may select the texel
//!   on either side, and a level of detail within `2^-8` of a level boundary may select
//!   either level. The oracle evaluates every texel that can be selected: a result channel
//!   is defined when they all hold the same word there, else undefined. Array layers are
//!   `clamp(floor(r + 0.5), 0, layers - 1)` (§2.X.4.4 "rounding ... to the nearest
//!   integer"); a tie, `r + 0.5` within `(|r + 0.5| + 1) * 2^-20` of an integer (the
//!   rounding of a single-precision `r + 0.5`), may give either layer. NaN and infinite
//!   coordinates give undefined results.
//! * **Level of detail.** TXL's `lambda` is `src.w`. TEX, TXP and TXB outside fragment
//!   programs: the partials are 0 (§2.X.4.4 "For vertex and geometry programs, these
//!   functions always return (0,0,0,0)"), `lambda = -inf`, so level 0 (a TXB bias of +inf
//!   or NaN makes `lambda` NaN: undefined). In fragment programs `lambda` comes from the
//!   quad's implicit derivatives (every choice GL allows; `tex_lod` module docs), LODQ
//!   reports it. Level choice (GL §3.8.8): NEAREST minification: level 0;
//!   NEAREST_MIPMAP_NEAREST: level 0 when `lambda <= 1/2`, else `ceil(lambda + 1/2) - 1`
//!   clamped to the last level; NaN: undefined.
//! * **TXD** (tgsi.rst TXD, NV_gpu_program4 §2.X.8.Z TXD): `lambda = log2(rho)` from the
//!   derivatives `src1` = d(s,t,r)/dx, `src2` = d(s,t,r)/dy scaled by the level-0 size
//!   (OpenGL 3.x §3.8.8 equations 3.18-3.20: `du/dx = w_t ds/dx` ..., RECT unscaled, the
//!   layer excluded). GL lets implementations approximate
//!   `rho = max(|(du/dx, dv/dx, dw/dx)|, |(du/dy, dv/dy, dw/dy)|)` by any `f` with
//!   `max(|du/dx|, |dv/dx|, |dw/dx|) <= f_x <= |du/dx| + |dv/dx| + |dw/dx|` (same for y), so
//!   every level some `lambda` in `[log2 rho_min, log2 rho_max]` (widened by `2^-8`)
//!   selects is a candidate; a NaN derivative is undefined. No bias, and the default
//!   TEXTURE_MIN/MAX_LOD (-1000, 1000) never clamp.
//! * **TG4** (gather; 2D, 2D_ARRAY and RECT, else invalid): `tex_gather` module docs.
//! * **Multisample targets** (`2D_MSAA`, `2D_ARRAY_MSAA`: TXF by sample, TXQ, TXQS; any
//!   other instruction on them is invalid): `tex_ms` module docs.
//! * **TXF**: integer `(i, j, k)` and layer per Table X.18, level `src.w` (BUFFER: `x` only,
//!   level 0). Undefined (Table X.18 list): a level outside the texture's levels, a level
//!   other than 0 with NEAREST minification, a texel or layer outside the level.
//! * **TXQ**: level `src.x`; `x`, `y`, `z` = width, height (ARRAY1D: layers), depth
//!   (ARRAY2D: layers) of that level as far as the target has them, the rest undefined
//!   (§2.X.8.Z TXQ); a level outside the texture: `x`, `y`, `z` undefined; `w` = number of
//!   levels (tgsi.rst TXQ; NV leaves `w` undefined, which any value satisfies). BUFFER:
//!   `x` = width whatever the level.
//! * **Texel offsets** (TGSI: one offset register with three swizzle letters, TEXT-FORMAT.md
//!   §7.5; NV: `(x, y, z)` or `offset(..)`): signed integers added to `u`, `v`, `w` of the
//!   sampled level (TXF: to `i`, `j`, `k`) before wrapping or the range check
//!   (NV_gpu_program4 §2.X.4.4 and its §3.8.8 edit); the components the target has no
//!   texel coordinate for, and the layer, are ignored; a used component outside -8..=7
//!   (the guaranteed MIN/MAX_PROGRAM_TEXEL_OFFSET_EXT) is undefined (NV_gpu_program5
//!   §2.X.4.4). TXQ takes none (invalid); more than one offset operand is refused.
//! * **Cube maps** (CUBE, CUBEARRAY): `tex_cube` module docs. **SHADOW targets** sample the
//!   1D ... CUBEARRAY texture of the unit and compare its depths with the reference
//!   (`crate::texture` `targets` and `tex_shadow` module docs); a SHADOW target on a
//!   texture without a `compare_func`, or another target on one with it, is undefined
//!   (NV_gpu_program4 §2.X.4.4, ARB_fragment_program_shadow: "the results ... are
//!   undefined"). Invalid instruction and target pairs: `crate::texture::instruction_rule`.
//!
//! The per-lane semantics are in `tex_eval`; this module decodes and runs the lanes.

use std::collections::BTreeMap;

use shaderdiff_model::{File, Opcode, Pos, Program, ReturnType, Stage};

use super::decode::{DInsn, Decoder, Kind, Loc};
use super::lanes::{FetchType, Mask};
use super::state::Machine;
use super::tex_eval::{eval_with, ALL};
use super::ExecError;
use crate::io::{Inputs, RegKey};
use crate::texture::{Rule, Target, Texture};

/// The texture opcodes the interpreter executes (every engine with a texture unit runs
/// the same set).
pub const TEXTURE_OPCODES: [Opcode; 10] = [
    Opcode::TEX,
    Opcode::TXP,
    Opcode::TXB,
    Opcode::TXL,
    Opcode::TXF,
    Opcode::TXQ,
    Opcode::TXD,
    Opcode::TG4,
    Opcode::LODQ,
    Opcode::TXQS,
];

/// The texture instruction kinds the interpreter executes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum TexOp {
    /// TEX: implicit level of detail.
    Tex,
    /// TXP: coordinates divided by `w`, implicit level of detail.
    Txp,
    /// TXB: implicit level of detail plus the bias `w`.
    Txb,
    /// TXL: explicit level of detail `w`.
    Txl,
    /// TXF: integer texel fetch.
    Txf,
    /// TXQ: size query.
    Txq,
    /// TXD: explicit derivatives `src1` (d/dx) and `src2` (d/dy) of `(s, t, r)`.
    Txd,
    /// TG4: gather component `src1.x` of the 2x2 LINEAR footprint (`tex_gather`).
    Tg4,
    /// LODQ (NV LOD): the implicit level of detail (`tex_lod`).
    Lodq,
    /// TXQS: the number of samples (`tex_ms`).
    Txqs,
}

impl TexOp {
    /// The kind of `op`, `None` for opcodes that are not modelled (TXD, TEX2, TG4 ...).
    pub(crate) fn of(op: Opcode) -> Option<TexOp> {
        Some(match op {
            Opcode::TEX => TexOp::Tex,
            Opcode::TXP => TexOp::Txp,
            Opcode::TXB => TexOp::Txb,
            Opcode::TXL => TexOp::Txl,
            Opcode::TXF => TexOp::Txf,
            Opcode::TXQ => TexOp::Txq,
            Opcode::TXD => TexOp::Txd,
            Opcode::TG4 => TexOp::Tg4,
            Opcode::LODQ => TexOp::Lodq,
            Opcode::TXQS => TexOp::Txqs,
            _ => return None,
        })
    }

    /// The source operand index of the unit (`SAMP[n]`): 3 for TXD (tgsi.rst TXD
    /// `unit = src3`), 2 for TG4 (`component = src1`), 0 for TXQS (its only source),
    /// else 1.
    pub(crate) fn unit_src(self) -> usize {
        match self {
            TexOp::Txd => 3,
            TexOp::Tg4 => 2,
            TexOp::Txqs => 0,
            _ => 1,
        }
    }

    /// Whether the level of detail comes from implicit derivatives (TEX, TXP, TXB, LODQ).
    pub(crate) fn implicit_lod(self) -> bool {
        matches!(self, TexOp::Tex | TexOp::Txp | TexOp::Txb | TexOp::Lodq)
    }
}

/// The texture operand of a decoded texture instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct TexRef {
    pub op: TexOp,
    /// The unit `n` of `SAMP[n]`.
    pub unit: u32,
    /// The instruction's target.
    pub target: Target,
    /// The return type of the program's `DCL SVIEW[n]`, if declared.
    pub ret: Option<ReturnType>,
    /// The instruction has a texel offset operand (its last decoded source, read as
    /// signed integers `(u, v, w)`; TXD's derivatives are decoded sources 1 and 2).
    pub offset: bool,
    /// SHADOW targets: the source component holding the depth reference
    /// ([`crate::texture::reference_component`]); `None` for the others.
    pub reference: Option<usize>,
}

/// How a program uses one texture unit: what the inputs must agree with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TexUse {
    /// The unit `n` of `SAMP[n]`.
    pub unit: u32,
    /// The target every instruction on the unit names.
    pub target: Target,
    /// Some TEX / TXP / TXB on the unit runs in a fragment program (implicit derivatives).
    pub implicit_lod: bool,
    /// The instructions name the SHADOW form of `target` (depth comparisons).
    pub shadow: bool,
}

fn unsupported(op: Opcode, pos: Option<Pos>, reason: impl Into<String>) -> ExecError {
    ExecError::Unsupported {
        opcode: op,
        pos,
        reason: reason.into(),
    }
}

fn invalid(pos: Option<Pos>, message: impl Into<String>) -> ExecError {
    ExecError::InvalidProgram {
        pos,
        message: message.into(),
    }
}

/// Decodes texture instruction `i` (of kind `top`) and records its unit in `uses`.
///
/// Errors: unsupported for targets outside the model (multisample), more
/// than one texel offset operand, a unit that is not a direct `SAMP[n]`; invalid for a
/// sampling instruction on a BUFFER target (Table X.17), two targets on one unit
/// (§2.X.4.4 "fail to load") or a texel offset on TXQ.
pub(crate) fn decode_insn(
    dec: &mut Decoder,
    program: &Program,
    i: usize,
    top: TexOp,
    uses: &mut Vec<TexUse>,
) -> Result<DInsn, ExecError> {
    let insn = &program.instructions[i];
    let op = insn.opcode;
    let smap = &program.source_map;
    let pos = smap.instruction(i);
    let uk = top.unit_src();
    if insn.src.len() != uk + 1 || insn.dst.is_empty() {
        return Err(invalid(
            pos,
            format!("{op} needs a destination and {} sources", uk + 1),
        ));
    }
    let Some(ir_target) = insn.texture else {
        return Err(invalid(pos, format!("{op} needs a texture target")));
    };
    let (target, shadow) = crate::texture::sampled(ir_target).ok_or_else(|| {
        unsupported(
            op,
            pos,
            format!(
                "texture target {ir_target} is not modelled (1D, 2D, 3D, RECT, 1D_ARRAY, \
                 2D_ARRAY, BUFFER, 2D_MSAA, 2D_ARRAY_MSAA, CUBE, CUBEARRAY and their SHADOW \
                 forms are)"
            ),
        )
    })?;
    match crate::texture::instruction_rule(op, ir_target, !insn.tex_offsets.is_empty()) {
        Some(Rule::Invalid(m)) => return Err(invalid(pos, m)),
        Some(Rule::Unsupported(m)) => return Err(unsupported(op, pos, m)),
        None => {}
    }
    if insn.tex_offsets.len() > 1 {
        return Err(unsupported(
            op,
            pos,
            "more than one texel offset operand is not modelled",
        ));
    }
    if matches!(top, TexOp::Txq | TexOp::Txqs | TexOp::Lodq) && !insn.tex_offsets.is_empty() {
        return Err(invalid(pos, format!("{op} takes no texel offset")));
    }
    super::tex_ms::check_op(top, target).map_err(|m| invalid(pos, m))?;
    if top == TexOp::Tg4 && !matches!(target, Target::T2D | Target::Array2D | Target::Rect) {
        return Err(invalid(
            pos,
            format!(
                "TG4 cannot gather from a {target} texture (tgsi.rst TG4: 2D, 2D array and \
                 cube targets; NV_gpu_program5 TXG adds RECT)"
            ),
        ));
    }
    if target == Target::Buffer && !matches!(top, TexOp::Txf | TexOp::Txq | TexOp::Txqs) {
        return Err(invalid(
            pos,
            format!(
                "{op} cannot sample a BUFFER texture (NV_gpu_program4 Table X.17: buffer \
                 textures take TXF and TXQ only)"
            ),
        ));
    }
    let unit_pos = smap.operand(i, insn.dst.len() + uk);
    let u = insn.src[uk].reg;
    if u.file != File::Sampler || u.is_indirect() || u.dimension.is_some() || u.index.value < 0 {
        return Err(unsupported(
            op,
            unit_pos,
            format!(
                "the texture unit must be a directly addressed SAMP[n], found {}",
                u.file
            ),
        ));
    }
    let unit = u.index.value as u32;
    let implicit = top.implicit_lod() && program.stage == Stage::Fragment;
    match uses.iter_mut().find(|t| t.unit == unit) {
        Some(t) if t.target != target || t.shadow != shadow => {
            let name = |t: Target, s: bool| format!("{}{t}", if s { "SHADOW" } else { "" });
            return Err(invalid(
                pos,
                format!(
                    "SAMP[{unit}] is used with targets {} and {} (NV_gpu_program4 \
                     §2.X.4.4: one target per texture unit)",
                    name(t.target, t.shadow),
                    name(target, shadow)
                ),
            ));
        }
        Some(t) => t.implicit_lod |= implicit,
        None => uses.push(TexUse {
            unit,
            target,
            implicit_lod: implicit,
            shadow,
        }),
    }
    let ret = program
        .decls(File::SamplerView)
        .find_map(|d| match &d.resource {
            Some(shaderdiff_model::Resource::SamplerView { return_type, .. })
                if d.contains(unit as i64) =>
            {
                Some(return_type[0])
            }
            _ => None,
        });
    let d = &insn.dst[0];
    let p = smap.operand(i, 0);
    let dst = dec.loc(&d.reg, p, op)?;
    if matches!(dst, Loc::Uniform(_)) {
        return Err(invalid(p, format!("{} cannot be written", d.reg.file)));
    }
    let ty = match top {
        TexOp::Txf | TexOp::Txq => FetchType::Int,
        _ => FetchType::Float,
    };
    let mut srcs = Vec::new();
    let mut mask = [0, 0, 0, 0];
    if uk > 0 {
        // TXQS has no coordinates (tgsi.rst TXQS: the unit only).
        srcs.push(dec.src(&insn.src[0], ty, smap.operand(i, insn.dst.len()), op)?);
        mask[0] = 0xF;
    }
    for (k, s) in insn.src.iter().enumerate().take(uk).skip(1) {
        // TXD's derivatives of (s, t, r) (floats); TG4's component (an integer in x).
        let (t, m) = if top == TexOp::Tg4 {
            (FetchType::Int, 0x1)
        } else {
            (ty, 0x7)
        };
        srcs.push(dec.src(s, t, smap.operand(i, insn.dst.len() + k), op)?);
        mask[k] = m;
    }
    if let Some(o) = insn.tex_offsets.first() {
        // TEXT-FORMAT.md §7.5: a register and three swizzle letters, read as integers.
        let s = o.swizzle;
        let off = shaderdiff_model::Src {
            reg: o.reg,
            swizzle: [s[0], s[1], s[2], s[2]],
            abs: false,
            neg: false,
        };
        let p = smap.operand(i, insn.dst.len() + insn.src.len());
        srcs.push(dec.src(&off, FetchType::Int, p, op)?);
        mask[srcs.len() - 1] = 0x7;
    }
    let offset = !insn.tex_offsets.is_empty();
    Ok(DInsn {
        op,
        kind: Kind::Tex(top),
        dst,
        writemask: d.writemask & 0xF,
        srcs,
        saturate: insn.saturate,
        fetch_mask: mask,
        read_mask: mask,
        componentwise: false,
        pos,
        mem: None,
        tex: Some(TexRef {
            op: top,
            unit,
            target,
            ret,
            offset,
            reference: crate::texture::reference_component(ir_target),
        }),
    })
}

/// Checks the inputs' `textures` against the program's texture units.
///
/// Errors: [`ExecError::InvalidInputs`] for a texture on a unit the program does not
/// sample or of another target than its instructions name, an inconsistent texture
/// ([`Texture::check`]).
pub(crate) fn check_inputs(uses: &[TexUse], inputs: &Inputs) -> Result<(), ExecError> {
    for (key, tex) in &inputs.textures {
        let bad = |m: String| ExecError::InvalidInputs(format!("texture {key}: {m}"));
        if key.file != File::Sampler || key.dimension.is_some() {
            return Err(bad("textures are keyed by SAMP[n]".into()));
        }
        let Some(u) = uses.iter().find(|u| u.unit == key.index) else {
            return Err(bad("the program does not sample this unit".into()));
        };
        tex.check().map_err(bad)?;
        if u.target != tex.target {
            return Err(bad(format!(
                "the program samples it as {}, the texture is {}",
                u.target, tex.target
            )));
        }
    }
    Ok(())
}

/// The textures of a run by unit.
pub(crate) fn bind(inputs: &Inputs) -> BTreeMap<u32, &Texture> {
    inputs
        .textures
        .iter()
        .filter(|(k, _)| k.file == File::Sampler)
        .map(|(k, t)| (k.index, t))
        .collect()
}

impl Machine<'_> {
    /// Executes texture instruction `insn` for the executing lanes.
    pub(crate) fn texture(&mut self, insn: &DInsn) {
        let r = insn.tex.expect("decoded texture operand");
        if r.op == TexOp::Lodq {
            self.lod_query(insn);
            return;
        }
        let bad = self.mem_sources(insn);
        let mut bad_any: Mask = 0;
        for (k, b) in bad.iter().enumerate().take(insn.srcs.len()) {
            for (c, &m) in b.iter().enumerate() {
                if insn.fetch_mask[k] >> c & 1 != 0 {
                    bad_any |= m;
                }
            }
        }
        let tex = self.textures.get(&r.unit).copied();
        let stage = self.d.stage;
        // Implicit derivatives of each fragment quad (`tex_lod`).
        let quads = (r.op.implicit_lod() && stage == Stage::Fragment)
            .then(|| tex.map(|t| self.quad_lods(&r, t, bad_any)))
            .flatten();
        let mut und = [0 as Mask; 4];
        for c in 0..4 {
            self.s.out[c] = [0; super::lanes::LANES];
        }
        for l in 0..super::lanes::LANES {
            if self.exec >> l & 1 == 0 {
                continue;
            }
            let src = [0, 1, 2, 3].map(|c| self.s.srcs[0][c][l]);
            let off = if r.offset {
                let last = insn.srcs.len() - 1;
                [0, 1, 2].map(|c| self.s.srcs[last][c][l] as i32)
            } else {
                [0; 3]
            };
            let derivs = (r.op == TexOp::Txd)
                .then(|| [1, 2].map(|k| [0, 1, 2].map(|c| f32::from_bits(self.s.srcs[k][c][l]))));
            let comp = if r.op == TexOp::Tg4 {
                self.s.srcs[1][0][l]
            } else {
                0
            };
            let (v, u) = if bad_any >> l & 1 != 0 {
                ([0; 4], ALL)
            } else {
                let quad = quads.as_ref().map(|q| &q[l / 4]);
                eval_with(&r, stage, tex, src, derivs, comp, off, quad)
            };
            for c in 0..4 {
                self.s.out[c][l] = v[c];
                und[c] |= ((u >> c & 1) as Mask) << l;
            }
        }
        self.mem_result(insn, und);
    }
}

/// `SAMP[n]` as an inputs key.
pub fn unit_key(unit: u32) -> RegKey {
    RegKey::new(File::Sampler, unit)
}
