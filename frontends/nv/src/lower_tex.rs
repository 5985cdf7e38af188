//! Lowering of the NV / ARB texture instructions TEX, TXB, TXL, TXP, TXD, TXF and TXQ
//! (NV_gpu_program4 §2.X.4.4 "Program Texture Access", §2.X.8.Z; ARB_fragment_program
//! §3.11.6; NOTES.md §13) to the IR's texture opcodes of the same names.
//!
//! * **Units.** `texture[n]` (and `texture`, unit 0) becomes `SAMP[n]`, declared once, and
//!   the name `texture[n]` is recorded in the [`super::NameMap`] so the inputs file can key
//!   the unit's texture by it. TEXTURE variables and bindless `handle(..)` units are
//!   refused.
//! * **Coordinates.** NV's layout (Table X.17 for sampling: array layer in `y` (ARRAY1D)
//!   or `z` (ARRAY2D); Table X.18 for TXF: `(i, j, k)`, layer, level in `w`) is the IR's
//!   (tgsi.rst TEX / TXF), so the operand passes through: read as floats for TEX, TXB, TXL
//!   and TXP, as signed integers for TXF and TXQ (§2.X.8.Z TXF, TXQ).
//! * **Data types.** TEX, TXB, TXL, TXP and TXF return the texel "interpreted as
//!   floating-point, signed integer, or unsigned integer, according to the data type
//!   modifier" (§2.X.4.4); a texture whose format does not match is undefined. The unit's
//!   `DCL SVIEW[n]` carries the type (FLOAT, SINT, UINT) so the IR engines apply that rule;
//!   a unit read with two data types is refused. TXQ takes no data type.
//! * **Targets.** 1D, 2D, 3D, RECT, ARRAY1D, ARRAY2D and BUFFER (TXF and TXQ only: Table
//!   X.17), CUBE, ARRAYCUBE (the IR's CUBEARRAY: direction `xyz`, layer `w`, the layout of
//!   tgsi.rst's CUBEARRAY; the shared NV specs name the target without a table row), and
//!   the SHADOW targets SHADOW1D, SHADOW2D, SHADOWRECT, SHADOWARRAY1D, SHADOWARRAY2D,
//!   SHADOWCUBE (the IR's SHADOW1D ... SHADOW1D_ARRAY, SHADOW2D_ARRAY, SHADOWCUBE, whose
//!   reference components are Table X.17's "shadow" column). One target per unit (§2.X.4.4:
//!   "A program will fail to load if it attempts to sample from multiple texture targets
//!   ... on the same texture image unit"): invalid. The engines apply the load rules of
//!   Table X.18 and §2.X.8.Z TXB / TXL / TXP for these targets (TXF on a cube or SHADOW
//!   target, TXB / TXL / TXP on SHADOWCUBE or SHADOWARRAY2D fail to load), and the
//!   multisample targets 2DMS and ARRAY2DMS (below). SHADOWARRAYCUBE (whose reference
//!   operand the shared specs do not place) and RENDERBUFFER are refused. TXGO becomes four TG4 (`Ctx::lower_txgo`). TXD's
//!   derivative operands (§2.X.8.Z TXD) become the IR TXD's `src1` and `src2` (read as floats); TXG (NV_gpu_program5
//!   §2.X.8.Z TXG) becomes TG4 with the `texture[n].c` component as an immediate `src1`
//!   (targets 2D, ARRAY2D and RECT; a 1D or 3D target fails to load).
//! * **Texel offsets** (§2.X.4.4 `(a, b, c)`, NV_gpu_program5 `offset(operand)`): the IR
//!   instruction's texel offset register (an IMM for a constant, the operand read as
//!   signed integers otherwise); TXQ takes none (invalid). The parser rejects constants
//!   outside -8..7 and non-zero components the target has no coordinate for.
//! * TXQ's `w` is undefined in NV (§2.X.8.Z TXQ); the IR's TXQ gives the number of levels
//!   there (tgsi.rst), one of the values an undefined result may take.
//! * **Multisample** (2DMS, ARRAY2DMS; NV_explicit_multisample "TexelFetchMultisample"):
//!   TXFMS becomes TXF on the IR's `2D_MSAA` / `2D_ARRAY_MSAA` target, whose `w` is the
//!   sample number (tgsi.rst TXF), `(x, y)` the pixel and `z` the layer, read as signed
//!   integers with its data type as for TXF. TXFMS on another target, and any instruction
//!   but TXFMS and TXQ on a multisample target ("No other sample or fetch commands may be
//!   performed"), fail to load (invalid).
//! * **LOD** (NV_gpu_program5 Table X.13 "compute texture LOD", a float vector from a
//!   float operand) becomes LODQ (tgsi.rst LODQ: `x` the level accessed, `y` the computed
//!   `lambda'`, the GLSL textureQueryLOD layout NV compilers emit LOD for; our copy of the
//!   NV_gpu_program5 text has no LOD section, so `z` and `w` stay undefined as in the IR);
//!   it reads no texel, so it declares no view type, and takes no texel offset.

use super::ast::{
    BaseType, Instruction as NvInsn, TexOffset as NvTexOffset, TexTarget as NvTarget, UnitRef,
};
use super::lower::{chan, dst, src, Ctx, LowerError};
use super::NvOpcode as N;
use crate::names::{File, ReturnType, TexTarget};
use crate::opcode::Opcode as O;
use crate::program::{Declaration, Instruction, Register, Resource, Saturate, TexOffset};

/// The IR target of an NV target the texture model covers.
fn ir_target(t: NvTarget) -> Option<TexTarget> {
    Some(match t {
        NvTarget::T1D => TexTarget::T1D,
        NvTarget::T2D => TexTarget::T2D,
        NvTarget::T3D => TexTarget::T3D,
        NvTarget::Rect => TexTarget::Rect,
        NvTarget::Array1D => TexTarget::Array1D,
        NvTarget::Array2D => TexTarget::Array2D,
        NvTarget::Buffer => TexTarget::Buffer,
        NvTarget::T2DMS => TexTarget::Msaa2D,
        NvTarget::Array2DMS => TexTarget::Msaa2DArray,
        NvTarget::Cube => TexTarget::Cube,
        NvTarget::ArrayCube => TexTarget::CubeArray,
        NvTarget::Shadow1D => TexTarget::Shadow1D,
        NvTarget::Shadow2D => TexTarget::Shadow2D,
        NvTarget::ShadowRect => TexTarget::ShadowRect,
        NvTarget::ShadowArray1D => TexTarget::Shadow1DArray,
        NvTarget::ShadowArray2D => TexTarget::Shadow2DArray,
        NvTarget::ShadowCube => TexTarget::ShadowCube,
        _ => return None,
    })
}

impl Ctx<'_> {
    /// Whether `insn` is a texture instruction this module lowers.
    pub(super) fn is_lowered_tex(insn: &NvInsn) -> bool {
        matches!(
            insn.opcode,
            N::Tex
                | N::Txb
                | N::Txl
                | N::Txp
                | N::Txd
                | N::Txf
                | N::Txq
                | N::Txg
                | N::Txgo
                | N::Txfms
                | N::Lod
        )
    }

    /// Lowers TEX, TXB, TXL, TXP, TXD, TXG, TXF, TXQ, TXFMS or LOD (module docs) with
    /// saturation `sat`.
    pub(super) fn lower_tex(
        &mut self,
        insn: &NvInsn,
        ty: BaseType,
        sat: Saturate,
    ) -> Result<(), LowerError> {
        let name = insn.opcode.name();
        let access = insn
            .texture
            .as_ref()
            .ok_or_else(|| self.invalid(format!("{name} needs a texture operand")))?;
        let unit = match &access.unit {
            UnitRef::Unit(n) => n.unwrap_or(0),
            UnitRef::Var { .. } => {
                return Err(self.unsupported(format!(
                    "{name}: TEXTURE variables are not lowered (name the unit as texture[n])"
                )))
            }
            UnitRef::Handle { .. } => {
                return Err(
                    self.unsupported(format!("{name}: bindless texture handles are not lowered"))
                )
            }
        };
        if unit > i32::MAX as u32 {
            return Err(self.invalid(format!("{name}: texture unit {unit} is out of range")));
        }
        let target = ir_target(access.target).ok_or_else(|| {
            self.unsupported(format!(
                "{name}: {} targets are outside the texture model (1D, 2D, 3D, RECT, ARRAY1D, \
                 ARRAY2D, BUFFER, 2DMS, ARRAY2DMS, CUBE, ARRAYCUBE and the SHADOW forms but \
                 SHADOWARRAYCUBE)",
                access.target.name()
            ))
        })?;
        if matches!(insn.opcode, N::Txg | N::Txgo)
            && !matches!(
                target,
                TexTarget::T2D | TexTarget::Array2D | TexTarget::Rect
            )
            // The SHADOW and cube forms TXG accepts lower to TG4, which the engines refuse
            // as not modelled.
            && !matches!(
                target,
                TexTarget::Shadow2D
                    | TexTarget::Shadow2DArray
                    | TexTarget::ShadowRect
                    | TexTarget::Cube
                    | TexTarget::ShadowCube
                    | TexTarget::CubeArray
            )
        {
            return Err(self.invalid(format!(
                "TXG operates on 2D, ARRAY2D, RECT (and SHADOW, CUBE) targets only, not \
                 {target} (NV_gpu_program5 §2.X.8.Z TXG)"
            )));
        }
        let ms = matches!(target, TexTarget::Msaa2D | TexTarget::Msaa2DArray);
        if (insn.opcode == N::Txfms) != ms && !(ms && insn.opcode == N::Txq) {
            return Err(self.invalid(format!(
                "{name} on a {} target: TXFMS fetches from 2DMS and ARRAY2DMS only, and they \
                 take TXFMS and TXQ only (NV_explicit_multisample)",
                access.target.name()
            )));
        }
        if target == TexTarget::Buffer && !matches!(insn.opcode, N::Txf | N::Txq) {
            return Err(self.invalid(format!(
                "{name}: BUFFER textures take TXF and TXQ only (NV_gpu_program4 Table X.17)"
            )));
        }
        let op = match insn.opcode {
            N::Tex => O::TEX,
            N::Txb => O::TXB,
            N::Txl => O::TXL,
            N::Txp => O::TXP,
            N::Txf | N::Txfms => O::TXF,
            N::Txd => O::TXD,
            N::Lod => O::LODQ,
            N::Txg | N::Txgo => O::TG4,
            _ => O::TXQ,
        };
        let samp = Register::new(File::Sampler, unit as i32);
        // §2.X.4.4: one target per unit, checked against the instructions lowered so far.
        if let Some(other) = self.out.instructions.iter().find_map(|i| {
            (i.opcode.info().is_tex && i.src.last().is_some_and(|s| s.reg == samp))
                .then_some(i.texture)
                .flatten()
                .filter(|&t| t != target)
        }) {
            return Err(self.invalid(format!(
                "texture[{unit}] is used with targets {other} and {target} (NV_gpu_program4 \
                 §2.X.4.4: one target per texture unit)"
            )));
        }
        self.declare_unit(
            unit,
            target,
            (!matches!(op, O::TXQ | O::LODQ)).then_some(ty),
        )?;
        let coord_ty = match op {
            O::TXF | O::TXQ => BaseType::S,
            _ => BaseType::F,
        };
        let coord = self.operand(insn, 0, coord_ty)?;
        let offset = match &access.offset {
            Some(_) if matches!(op, O::TXQ | O::LODQ) => {
                return Err(self.invalid(format!("{name} takes no texel offset")))
            }
            Some(o) => Some(self.tex_offset(o)?),
            None => None,
        };
        let mut srcs = vec![coord];
        if op == O::TXD {
            // §2.X.8.Z TXD: the partial derivatives d/dx and d/dy of (s, t, r), tgsi.rst
            // TXD's src1 and src2.
            for k in 1..3 {
                srcs.push(self.operand(insn, k, BaseType::F)?);
            }
        }
        if op == O::TG4 {
            // NV_gpu_program5 §2.X.8.Z TXG: the `texture[n].c` component (x without a
            // suffix) becomes TG4's `component = src1` (an integer in x).
            let c = u32::from(access.component.unwrap_or(0));
            srcs.push(src(self.imm([c, 0, 0, 0]), [0, 0, 0, 0]));
        }
        srcs.push(src(samp, [0, 1, 2, 3]));
        let d = self.dest(insn)?;
        if insn.opcode == N::Txgo {
            return self.lower_txgo(insn, srcs, target, d, sat);
        }
        let mut i = Instruction::new(op, vec![d], srcs);
        i.saturate = sat;
        i.texture = Some(target);
        i.tex_offsets.extend(offset);
        self.push(i);
        Ok(())
    }

    /// TXGO (NV_gpu_program5 §2.X.8.Z TXGO): result component `k` is `T_i0_j0` of the
    /// footprint offset by `(op1[k], op2[k])` (signed integers), which is the `w` result of
    /// a TG4 with that texel offset (tgsi.rst TG4 order `(-, +), (+, +), (+, -), (-, -)`:
    /// `w` = `(i0, j0)`). Lowered to four TG4 (`tg4` = coordinates, component, unit) whose
    /// `w` is gathered in a hidden TEMP, then moved to `d` with saturation `sat`. Offsets
    /// outside -8..7 are undefined (the texture model's guaranteed range; NV's own limits
    /// for TXGO are MIN/MAX_PROGRAM_TEXTURE_GATHER_OFFSET_NV, "out-of-bounds offsets produce
    /// undefined results").
    fn lower_txgo(
        &mut self,
        insn: &NvInsn,
        tg4: Vec<crate::program::Src>,
        target: TexTarget,
        d: crate::program::Dst,
        sat: Saturate,
    ) -> Result<(), LowerError> {
        let ox = self.operand(insn, 1, BaseType::S)?;
        let oy = self.operand(insn, 2, BaseType::S)?;
        let (r, o, g) = (self.hidden(), self.hidden(), self.hidden());
        for k in 0..4 {
            self.emit(O::MOV, vec![dst(o, 0x1)], vec![chan(ox, k)]);
            self.emit(O::MOV, vec![dst(o, 0x2)], vec![chan(oy, k)]);
            let mut i = Instruction::new(O::TG4, vec![dst(g, 0xF)], tg4.clone());
            i.texture = Some(target);
            i.tex_offsets.push(TexOffset {
                reg: o,
                swizzle: [0, 1, 1],
            });
            self.push(i);
            self.emit(O::MOV, vec![dst(r, 1 << k)], vec![src(g, [3, 3, 3, 3])]);
        }
        let mut m = Instruction::new(O::MOV, vec![d], vec![src(r, [0, 1, 2, 3])]);
        m.saturate = sat;
        self.push(m);
        Ok(())
    }

    /// The IR texel offset of an NV offset (NV_gpu_program4 §2.X.4.4 `(a, b, c)`, missing
    /// components zero: an IMM; NV_gpu_program5 `offset(operand)`: the operand read as
    /// signed integers, moved to a hidden TEMP when it is not a plain direct register, since
    /// an IR offset is a register with three swizzle letters, TEXT-FORMAT.md §7.5). The
    /// parser has checked the constant's range and the components the target lacks.
    fn tex_offset(&mut self, o: &NvTexOffset) -> Result<TexOffset, LowerError> {
        match o {
            NvTexOffset::Const(v) => {
                let mut w = [0u32; 4];
                for (k, &c) in v.iter().take(3).enumerate() {
                    w[k] = c as u32;
                }
                Ok(TexOffset {
                    reg: self.imm(w),
                    swizzle: [0, 1, 2],
                })
            }
            NvTexOffset::Operand(s) => {
                let mut v = self.operand_of(s, BaseType::S)?;
                if v.abs || v.neg || v.reg.is_indirect() || v.reg.dimension.is_some() {
                    let t = self.hidden();
                    self.emit(O::MOV, vec![dst(t, 0xF)], vec![v]);
                    v = src(t, [0, 1, 2, 3]);
                }
                Ok(TexOffset {
                    reg: v.reg,
                    swizzle: [v.swizzle[0], v.swizzle[1], v.swizzle[2]],
                })
            }
        }
    }

    /// Declares `SAMP[unit]` (and `SVIEW[unit]` with the return type of `ty`) once, and
    /// records the name `texture[unit]`.
    fn declare_unit(
        &mut self,
        unit: u32,
        target: TexTarget,
        ty: Option<BaseType>,
    ) -> Result<(), LowerError> {
        let decls = &self.out.declarations;
        if !decls
            .iter()
            .any(|d| d.file == File::Sampler && d.contains(unit.into()))
        {
            self.out
                .declarations
                .push(Declaration::new(File::Sampler, unit, unit));
            self.names
                .entries
                .push((format!("texture[{unit}]"), File::Sampler, unit));
        }
        let Some(ty) = ty else { return Ok(()) };
        let rt = match ty {
            BaseType::S => ReturnType::Sint,
            BaseType::U => ReturnType::Uint,
            _ => ReturnType::Float,
        };
        let existing = self
            .out
            .declarations
            .iter()
            .find_map(|d| match &d.resource {
                Some(Resource::SamplerView { return_type, .. })
                    if d.file == File::SamplerView && d.contains(unit.into()) =>
                {
                    Some(return_type[0])
                }
                _ => None,
            });
        match existing {
            Some(r) if r != rt => Err(self.unsupported(format!(
                "texture[{unit}] is read with two data types ({r} and {rt}): one view type per \
                 unit is lowered"
            ))),
            Some(_) => Ok(()),
            None => {
                let mut d = Declaration::new(File::SamplerView, unit, unit);
                d.resource = Some(Resource::SamplerView {
                    target,
                    return_type: [rt; 4],
                });
                self.out.declarations.push(d);
                Ok(())
            }
        }
    }
}
