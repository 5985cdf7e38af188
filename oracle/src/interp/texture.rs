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

use shaderdiff_model::{File, Stage};

use super::decode::DInsn;
use super::lanes::Mask;
use super::state::Machine;
use super::tex_eval::{eval_with, ALL};
use crate::io::Inputs;
use crate::texture::Texture;
pub use shaderdiff_model::check::texture::*;

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
