//! Texture instructions: TEX, TXP, TXB, TXL (NEAREST sampling), TXF (texel fetch) and TXQ
//! (size query) on the texture model of [`crate::texture`]. This is the one place their
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
//!   or NaN makes `lambda` NaN: undefined). In fragment programs the implicit-derivative
//!   `lambda` is not modelled: a unit sampled that way must select level 0 whatever
//!   `lambda` is (NEAREST minification, or one level), else the run is refused
//!   (checked with the inputs). Level choice (GL §3.8.8): NEAREST minification: level 0;
//!   NEAREST_MIPMAP_NEAREST: level 0 when `lambda <= 1/2`, else `ceil(lambda + 1/2) - 1`
//!   clamped to the last level; NaN: undefined.
//! * **TXF**: integer `(i, j, k)` and layer per Table X.18, level `src.w` (BUFFER: `x` only,
//!   level 0). Undefined (Table X.18 list): a level outside the texture's levels, a level
//!   other than 0 with NEAREST minification, a texel or layer outside the level.
//! * **TXQ**: level `src.x`; `x`, `y`, `z` = width, height (ARRAY1D: layers), depth
//!   (ARRAY2D: layers) of that level as far as the target has them, the rest undefined
//!   (§2.X.8.Z TXQ); a level outside the texture: `x`, `y`, `z` undefined; `w` = number of
//!   levels (tgsi.rst TXQ; NV leaves `w` undefined, which any value satisfies). BUFFER:
//!   `x` = width whatever the level.

use std::collections::BTreeMap;

use shaderdiff_ir::{File, Opcode, Pos, Program, ReturnType, Stage};

use super::decode::{DInsn, Decoder, Kind, Loc};
use super::lanes::{FetchType, Mask};
use super::state::Machine;
use super::ExecError;
use crate::io::{Inputs, RegKey, Vec4};
use crate::texture::{MinFilter, Target, Texture};

/// The texture opcodes the interpreter executes (every engine with a texture unit runs
/// the same set).
pub const TEXTURE_OPCODES: [Opcode; 6] = [
    Opcode::TEX,
    Opcode::TXP,
    Opcode::TXB,
    Opcode::TXL,
    Opcode::TXF,
    Opcode::TXQ,
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
            _ => return None,
        })
    }

    /// Whether the level of detail comes from implicit derivatives (TEX, TXP, TXB).
    pub(crate) fn implicit_lod(self) -> bool {
        matches!(self, TexOp::Tex | TexOp::Txp | TexOp::Txb)
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
/// Errors: unsupported for targets outside the model (cube, shadow, multisample), texel
/// offsets, a unit that is not a direct `SAMP[n]`; invalid for a sampling instruction on a
/// BUFFER target (Table X.17) or two targets on one unit (§2.X.4.4 "fail to load").
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
    if insn.src.len() < 2 || insn.dst.is_empty() {
        return Err(invalid(
            pos,
            format!("{op} needs a destination and two sources"),
        ));
    }
    let Some(ir_target) = insn.texture else {
        return Err(invalid(pos, format!("{op} needs a texture target")));
    };
    let target = Target::of_ir(ir_target).ok_or_else(|| {
        unsupported(
            op,
            pos,
            format!(
                "texture target {ir_target} is not modelled (1D, 2D, 3D, RECT, 1D_ARRAY, \
                 2D_ARRAY and BUFFER are)"
            ),
        )
    })?;
    if !insn.tex_offsets.is_empty() {
        return Err(unsupported(op, pos, "texel offsets are not modelled"));
    }
    if target == Target::Buffer && !matches!(top, TexOp::Txf | TexOp::Txq) {
        return Err(invalid(
            pos,
            format!(
                "{op} cannot sample a BUFFER texture (NV_gpu_program4 Table X.17: buffer \
                 textures take TXF and TXQ only)"
            ),
        ));
    }
    let unit_pos = smap.operand(i, insn.dst.len() + 1);
    let u = insn.src[1].reg;
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
        Some(t) if t.target != target => {
            return Err(invalid(
                pos,
                format!(
                    "SAMP[{unit}] is used with targets {} and {target} (NV_gpu_program4 \
                     §2.X.4.4: one target per texture unit)",
                    t.target
                ),
            ))
        }
        Some(t) => t.implicit_lod |= implicit,
        None => uses.push(TexUse {
            unit,
            target,
            implicit_lod: implicit,
        }),
    }
    let ret = program
        .decls(File::SamplerView)
        .find_map(|d| match &d.resource {
            Some(shaderdiff_ir::Resource::SamplerView { return_type, .. })
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
    let src = dec.src(&insn.src[0], ty, smap.operand(i, insn.dst.len()), op)?;
    Ok(DInsn {
        op,
        kind: Kind::Tex(top),
        dst,
        writemask: d.writemask & 0xF,
        srcs: vec![src],
        saturate: insn.saturate,
        fetch_mask: [0xF, 0, 0, 0],
        read_mask: [0xF, 0, 0, 0],
        componentwise: false,
        pos,
        mem: None,
        tex: Some(TexRef {
            op: top,
            unit,
            target,
            ret,
        }),
    })
}

/// Checks the inputs' `textures` against the program's texture units.
///
/// Errors: [`ExecError::InvalidInputs`] for a texture on a unit the program does not
/// sample or of another target than its instructions name, an inconsistent texture
/// ([`Texture::check`]); [`ExecError::UnsupportedFeature`] for a unit sampled with implicit
/// derivatives in a fragment program whose texture could select a level other than 0.
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
        if u.implicit_lod
            && tex.min_filter == MinFilter::NearestMipmapNearest
            && tex.levels.len() > 1
        {
            return Err(ExecError::UnsupportedFeature {
                pos: None,
                reason: format!(
                    "texture {key}: implicit-derivative level of detail in a fragment \
                     program is not modelled; give one level or NEAREST minification"
                ),
            });
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

/// One lane's result: the words and the undefined channels (bit c = channel c).
pub(crate) type LaneResult = (Vec4, u8);

const ALL: u8 = 0xF;

/// Executes texture instruction `r` for one lane with source words `src` (all four channels)
/// on `tex` (the unit's texture, if any), in a program of stage `stage`.
pub(crate) fn eval(r: &TexRef, stage: Stage, tex: Option<&Texture>, src: Vec4) -> LaneResult {
    let Some(tex) = tex else {
        return ([0; 4], ALL);
    };
    if r.op == TexOp::Txq {
        return query(tex, src[0] as i32);
    }
    if r.ret.is_some_and(|t| t != tex.format.return_type()) {
        return ([0; 4], ALL);
    }
    match r.op {
        TexOp::Txf => fetch(tex, src.map(|w| w as i32)),
        _ => sample(r.op, stage, tex, src.map(f32::from_bits)),
    }
}

/// TXQ (module docs).
fn query(tex: &Texture, lod: i32) -> LaneResult {
    let levels = tex.levels.len() as u32;
    let mut und = ALL & !0x8;
    let mut v = [0, 0, 0, levels];
    let level = if tex.target == Target::Buffer {
        Some(0)
    } else {
        (0..levels as i32).contains(&lod).then_some(lod as usize)
    };
    if let Some(l) = level {
        let size = tex.level_size(l);
        let n = tex.target.dims() + tex.target.layer_axis().is_some() as usize;
        for c in 0..n {
            v[c] = size[c];
            und &= !(1 << c);
        }
    }
    (v, und)
}

/// TXF (module docs).
fn fetch(tex: &Texture, c: [i32; 4]) -> LaneResult {
    let lod = if tex.target == Target::Buffer {
        0
    } else {
        c[3]
    };
    if lod < 0 || lod as usize >= tex.levels.len() {
        return ([0; 4], ALL);
    }
    if lod != 0 && tex.min_filter == MinFilter::Nearest {
        return ([0; 4], ALL);
    }
    let level = lod as usize;
    let size = tex.level_size(level);
    let used = tex.target.dims() + tex.target.layer_axis().is_some() as usize;
    let mut at = [0u32; 3];
    for a in 0..used {
        if c[a] < 0 || c[a] as u32 >= size[a] {
            return ([0; 4], ALL);
        }
        at[a] = c[a] as u32;
    }
    (tex.texel(level, at[0], at[1], at[2]), 0)
}

/// Width of the band around a texel edge or level boundary where either side may be chosen.
const EDGE: f64 = 1.0 / 256.0;

/// The candidate integers `floor(x)` for `x` known within `± band`.
fn floors(x: f64, band: f64) -> Vec<i64> {
    let lo = (x - band).floor() as i64;
    let hi = (x + band).floor() as i64;
    (lo..=hi).collect()
}

/// The levels `lambda` may select (module docs), empty when undefined.
fn levels_for(tex: &Texture, lambda: f32) -> Vec<usize> {
    if tex.min_filter == MinFilter::Nearest {
        return vec![0];
    }
    if lambda.is_nan() {
        return Vec::new();
    }
    let last = tex.levels.len() as i64 - 1;
    let lam = lambda as f64;
    let pick = |l: f64| -> i64 {
        if l <= 0.5 {
            0
        } else {
            ((l + 0.5).ceil() as i64 - 1).min(last)
        }
    };
    let mut v: Vec<usize> = [pick(lam - EDGE), pick(lam), pick(lam + EDGE)]
        .into_iter()
        .map(|l| l.clamp(0, last) as usize)
        .collect();
    v.dedup();
    v
}

/// TEX / TXP / TXB / TXL with NEAREST filtering (module docs).
fn sample(op: TexOp, stage: Stage, tex: &Texture, c: [f32; 4]) -> LaneResult {
    let mut coord = [c[0] as f64, c[1] as f64, c[2] as f64];
    if op == TexOp::Txp {
        // tgsi.rst TXP: coord.xyz = src.xyz / src.w (in f64: the edge band covers the
        // rounding of any single-precision division).
        let w = c[3] as f64;
        for v in &mut coord {
            *v /= w;
        }
    }
    let lambda = match op {
        TexOp::Txl => c[3],
        TexOp::Txb if stage != Stage::Fragment => f32::NEG_INFINITY + c[3],
        _ => f32::NEG_INFINITY,
    };
    let levels = levels_for(tex, lambda);
    let t = tex.target;
    let dims = t.dims();
    let mut result: Option<Vec4> = None;
    let mut und = 0u8;
    for level in levels.iter().copied() {
        let size = tex.level_size(level);
        // Candidate texel indices per axis.
        let mut cands: [Vec<u32>; 3] = [vec![0], vec![0], vec![0]];
        for a in 0..dims {
            let s = coord[a];
            if !s.is_finite() {
                return ([0; 4], ALL);
            }
            let u = if t == Target::Rect {
                s
            } else {
                s * size[a] as f64
            };
            let band = EDGE + u.abs() / (1u64 << 20) as f64;
            let mut v: Vec<u32> = floors(u, band)
                .into_iter()
                .map(|i| tex.wrap[a].apply(i, size[a]))
                .collect();
            v.sort_unstable();
            v.dedup();
            cands[a] = v;
        }
        if let Some(a) = t.layer_axis() {
            let r = coord[a];
            if !r.is_finite() {
                return ([0; 4], ALL);
            }
            // floor(r + 0.5), with r + 0.5 known within single-precision rounding.
            let x = r + 0.5;
            let n = size[a] as i64 - 1;
            let band = (x.abs() + 1.0) / (1u64 << 20) as f64;
            let mut l: Vec<u32> = floors(x, band)
                .into_iter()
                .map(|f| f.clamp(0, n) as u32)
                .collect();
            l.dedup();
            cands[a] = l;
        }
        for &i in &cands[0] {
            for &j in &cands[1] {
                for &k in &cands[2] {
                    let texel = tex.texel(level, i, j, k);
                    match result {
                        None => result = Some(texel),
                        Some(r) => {
                            for ch in 0..4 {
                                if r[ch] != texel[ch] {
                                    und |= 1 << ch;
                                }
                            }
                        }
                    }
                }
            }
        }
    }
    match result {
        Some(v) => (v, und),
        None => ([0; 4], ALL),
    }
}

impl Machine<'_> {
    /// Executes texture instruction `insn` for the executing lanes.
    pub(crate) fn texture(&mut self, insn: &DInsn) {
        let r = insn.tex.expect("decoded texture operand");
        let bad = self.mem_sources(insn);
        let bad_any: Mask = bad[0].iter().fold(0, |a, &m| a | m);
        let tex = self.textures.get(&r.unit).copied();
        let stage = self.d.stage;
        let mut und = [0 as Mask; 4];
        for c in 0..4 {
            self.s.out[c] = [0; super::lanes::LANES];
        }
        for l in 0..super::lanes::LANES {
            if self.exec >> l & 1 == 0 {
                continue;
            }
            let src = [0, 1, 2, 3].map(|c| self.s.srcs[0][c][l]);
            let (v, u) = if bad_any >> l & 1 != 0 {
                ([0; 4], ALL)
            } else {
                eval(&r, stage, tex, src)
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

#[cfg(test)]
mod tests {
    //! `eval` per instruction, hand-worked from the sections cited in the module docs.
    //! Texel `n` of level `l` is `[100l + n; 4]`.
    use super::*;
    use crate::texture::{Format, Wrap};

    fn tex(target: Target, size: [u32; 3], levels: usize, wrap: Wrap) -> Texture {
        Texture::filled(target, Format::Rgba32Ui, size, levels, wrap, |l, n| {
            [100 * l as u32 + n; 4]
        })
    }

    fn r(op: TexOp, target: Target) -> TexRef {
        TexRef {
            op,
            unit: 0,
            target,
            ret: None,
        }
    }

    fn s(op: TexOp, t: &Texture, c: [f32; 4]) -> LaneResult {
        eval(
            &r(op, t.target),
            Stage::Vertex,
            Some(t),
            c.map(f32::to_bits),
        )
    }

    fn i(op: TexOp, t: &Texture, c: [i32; 4]) -> LaneResult {
        eval(
            &r(op, t.target),
            Stage::Vertex,
            Some(t),
            c.map(|x| x as u32),
        )
    }

    #[test]
    fn txf_fetches_and_out_of_range_is_undefined() {
        let t = tex(Target::T2D, [4, 2, 1], 2, Wrap::Repeat);
        // (3, 1) of 4x2: 3 + 4 = 7; level 1 (2x1): (1, 0) → 101.
        assert_eq!(i(TexOp::Txf, &t, [3, 1, 0, 0]), ([7; 4], 0));
        assert_eq!(i(TexOp::Txf, &t, [1, 0, 0, 1]), ([101; 4], 0));
        // Table X.18: outside the level or the levels → undefined.
        assert_eq!(i(TexOp::Txf, &t, [0, 1, 0, 1]).1, ALL);
        assert_eq!(i(TexOp::Txf, &t, [4, 0, 0, 0]).1, ALL);
        assert_eq!(i(TexOp::Txf, &t, [0, 0, 0, 2]).1, ALL);
    }

    #[test]
    fn wrap_modes_and_edges() {
        let c = tex(Target::T1D, [4, 1, 1], 1, Wrap::ClampToEdge);
        let r = tex(Target::T1D, [4, 1, 1], 1, Wrap::Repeat);
        // s = -0.1: u = -0.4, floor -1 → clamp 0, repeat 3.
        assert_eq!(s(TexOp::Tex, &c, [-0.1, 0.0, 0.0, 0.0]), ([0; 4], 0));
        assert_eq!(s(TexOp::Tex, &r, [-0.1, 0.0, 0.0, 0.0]), ([3; 4], 0));
        // s = 0.25: u = 1.0 is the edge between texels 0 and 1 → undefined.
        assert_eq!(s(TexOp::Tex, &c, [0.25, 0.0, 0.0, 0.0]).1, ALL);
        // NaN → undefined.
        assert_eq!(s(TexOp::Tex, &c, [f32::NAN, 0.0, 0.0, 0.0]).1, ALL);
    }

    #[test]
    fn txp_layers_and_levels() {
        let t = tex(Target::T2D, [4, 4, 1], 3, Wrap::ClampToEdge);
        // TXP (1.2, 0.6, 0, 2) → (0.6, 0.3) → (2, 1) → 6.
        assert_eq!(s(TexOp::Txp, &t, [1.2, 0.6, 0.0, 2.0]), ([6; 4], 0));
        // TXL lambda 1.0 → level 1 (2x2): (0.8, 0.8) → (1, 1) → 103.
        assert_eq!(s(TexOp::Txl, &t, [0.8, 0.8, 0.0, 1.0]), ([103; 4], 0));
        let a = tex(Target::Array2D, [2, 2, 3], 1, Wrap::Repeat);
        // Layer round(1.4) = 1: (0, 1) → 0 + 2*(1 + 2) = 6; a tie at 0.5 → undefined.
        assert_eq!(s(TexOp::Tex, &a, [0.25, 0.75, 1.4, 0.0]), ([6; 4], 0));
        assert_eq!(s(TexOp::Tex, &a, [0.25, 0.25, 0.5, 0.0]).1, ALL);
    }

    #[test]
    fn txq_sizes() {
        let t = tex(Target::T2D, [5, 3, 1], 3, Wrap::Repeat);
        // Level 1 of 5x3: 2x1; z undefined; w = 3 levels.
        assert_eq!(i(TexOp::Txq, &t, [1, 0, 0, 0]), ([2, 1, 0, 3], 0x4));
        assert_eq!(i(TexOp::Txq, &t, [3, 0, 0, 0]), ([0, 0, 0, 3], 0x7));
        // No texture: everything undefined.
        assert_eq!(
            eval(&r(TexOp::Txq, Target::T2D), Stage::Vertex, None, [0; 4]).1,
            ALL
        );
    }
}
