//! Texture instructions as the pre-run checks decode them: the texture opcodes every engine
//! with a texture unit runs, their units, targets and return types, and the inputs a program's
//! texture units accept. What the instructions sample is each engine's (the oracle's
//! decisions: its `interp::texture` module docs).
//!
//! Sources: tgsi.rst "TEX" ... "TXQS"; NV_gpu_program4 §2.X.4.4 (Table X.17 coordinate
//! layout, "fail to load" for two targets on one unit).

use crate::{File, Opcode, Pos, Program, ReturnType, Stage};

use super::decode::{DInsn, Decoder, Kind, Loc};
use super::{ExecError, FetchType};
use crate::io::{Inputs, RegKey};
use crate::texture::{Rule, Target};

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
pub enum TexOp {
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
    pub fn of(op: Opcode) -> Option<TexOp> {
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
    pub fn unit_src(self) -> usize {
        match self {
            TexOp::Txd => 3,
            TexOp::Tg4 => 2,
            TexOp::Txqs => 0,
            _ => 1,
        }
    }

    /// Whether the level of detail comes from implicit derivatives (TEX, TXP, TXB, LODQ).
    pub fn implicit_lod(self) -> bool {
        matches!(self, TexOp::Tex | TexOp::Txp | TexOp::Txb | TexOp::Lodq)
    }
}

/// The texture operand of a decoded texture instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TexRef {
    /// The instruction kind.
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
pub fn decode_insn(
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
    check_op(top, target).map_err(|m| invalid(pos, m))?;
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
pub fn check_inputs(uses: &[TexUse], inputs: &Inputs) -> Result<(), ExecError> {
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

/// `SAMP[n]` as an inputs key.
pub fn unit_key(unit: u32) -> RegKey {
    RegKey::new(File::Sampler, unit)
}

/// Whether texture instruction `op` may name `target` (the oracle's `interp::tex_ms` module docs).
///
/// Errors: the message for an instruction other than TXF, TXQ and TXQS on a multisample
/// target.
pub fn check_op(op: TexOp, target: Target) -> Result<(), String> {
    if target.multisample() && !matches!(op, TexOp::Txf | TexOp::Txq | TexOp::Txqs) {
        return Err(format!(
            "a {target} texture is only fetched (TXF / NV TXFMS), queried (TXQ) or counted \
             (TXQS), not sampled (NV_explicit_multisample: \"No standard sampling \
             instructions are allowed\")"
        ));
    }
    Ok(())
}
