//! Texture instructions → Valhall texture messages: TEX, TXP, TXB, TXL, TXD →
//! `TEX_SINGLE`, TXF → `TEX_FETCH`, TG4 → `TEX_GATHER` (ISA.xml; fields ENCODING.md §8.2),
//! run by the simulator's texture unit (`crate::sim::tex`); TXQ is arithmetic on size
//! words the driver supplies. The semantics being implemented are the oracle's (README
//! "Textures"); this module only fixes how the operands reach the unit.
//!
//! ISA.xml gives the fields (`dimension`, `array_enable`, `texel_offset`, `lod_mode`,
//! `register_type`, `register_width`, `write_mask`, the staging counts) but not what the
//! staging registers hold. Those decisions, and where they come from:
//!
//! * **Staging layout** [Mesa usage] (`bifrost_compile.c`, `enum valhall_tex_sreg` and the
//!   Valhall texture emission): the registers X, Y, Z, ARRAY, OFFSETMS, LOD in this order,
//!   each present only when used, compacted into one run: X always, Y for 2-D targets
//!   (2D, RECT, ARRAY2D) and 3D, Z for 3D; ARRAY for array targets (`array_enable`);
//!   OFFSETMS when `texel_offset` is set; LOD with `lod_mode` `explicit` or
//!   `computed_bias`. `dimension` is `1d` for 1D, ARRAY1D and BUFFER, `2d` for 2D, RECT
//!   and ARRAY2D, `3d` for 3D (Mesa's `valhall_tex_dimension`).
//! * **Coordinates**: sampling takes `s`, `t`, `r` as f32 (TXP divides them, and the
//!   layer, by `q` first with FRCP and a multiply, as Mesa's NIR `lower_txp` does); TXF
//!   takes the integers `i`, `j`, `k`.
//! * **Array index**: a 32-bit unsigned integer [Mesa usage] (Bifrost
//!   `bi_emit_texc_array_index`: F32_TO_U32 rounding to nearest even; the unit clamps it
//!   to the last layer). [Assumption] Valhall reads the same integer (Mesa's Valhall path
//!   passes the layer through unconverted, which the spec material does not explain).
//! * **OFFSETMS** [Mesa usage] (`bi_emit_valhall_offsets`): bytes 0–2 the signed texel
//!   offsets `u`, `v`, `w` (only the axes the target has; the layer takes none), byte 3
//!   TEX_FETCH's level of detail as an integer. TXF on a mipmappable target always sends
//!   it (its level is a run-time value).
//! * **LOD** [Mesa usage] (`bi_emit_texc_lod_88`): `lambda` clamped to [-16, 16] as
//!   signed 8.8 fixed point in the low 16 bits (`FMA` by 1/16 with `clamp_m1_1`, times
//!   4096, `F32_TO_S32` rounding to nearest even), the high 16 bits (a clamp) zero. The
//!   rounding error (at most 2^-9) is inside the oracle's 2^-8 level-boundary band.
//! * **LOD mode**: TXL `explicit`; TEX and TXP `computed` in fragment programs, TXB
//!   `computed_bias` there; outside fragment programs the implicit level of detail is
//!   zero (the oracle: zero partials, NV_gpu_program4 §2.X.4.4), so `zero`.
//! * **Image operand** (the 64-bit "image to read from") [Mesa usage]
//!   (`bi_emit_tex_valhall`, `pan_resource_table`): the word `sampler | 3 << 11 |
//!   texture << 16 | 4 << 27` (sampler table 3, texture table 4), here a constant uniform
//!   pair with high word 0 [Assumption: Mesa builds a 32-bit value]. Texture and sampler
//!   index are the unit `n` of `SAMP[n]`; TXF names sampler 0 (Mesa's ABI: fetches need
//!   no sampler and use sampler 0).
//! * **Results**: `write_mask` = the destination's write mask; the unit writes the
//!   enabled components to consecutive registers without gaps [Mesa usage: "The hardware
//!   will write only what we read ... into contiguous registers without gaps"].
//!   `register_type` follows the `DCL SVIEW` return type (`f` without one), width 32.
//! * **Registers**: the read run starts at r56 and may reach r61 (r56–r59 are the staging
//!   registers of the ABI, r60–r61 the address scratch pair, free here); the write run
//!   also starts at r56. [Assumption] A texture message reads its whole read run before it
//!   writes its results (the operands are sent with the message), so the runs may
//!   overlap. The moves into the run go from the highest register down so that a reload
//!   of a spilled value, always into r56, cannot clobber one already set.
//! * **TXQ** [Mesa usage] (the Midgard/Bifrost drivers' `PAN_SYSVAL_TEXTURE_SIZE`: the
//!   driver passes each texture's size in uniform words, the shader derives what it
//!   needs): four uniform words per queried unit, level-0 width, height, depth / layers
//!   (the model's `size`) and [Assumption] the level count, written by the driver per run
//!   ([`super::Machine::tex_sizes`]; zeros without a texture, which the oracle leaves
//!   undefined). The shader computes a level's extent as `max(1, size >> lod)` with
//!   `RSHIFT_OR` and `CSEL.u32`, layers and BUFFER widths unshifted (OpenGL 3.x §3.8.8);
//!   components the target has no extent for are 0 (the oracle: undefined).
//! * **TG4** → `TEX_GATHER` with the same staging layout (no LOD: the base level), its
//!   `fetch_component` = the component [Mesa usage: `bi_emit_tex_valhall` passes
//!   `instr->component`, a constant], so the component must be an immediate; one in a
//!   register is refused (exit 3).
//! * **TXD** [Mesa usage] (panvk, Mesa's Bifrost/Valhall Vulkan driver, preprocesses with
//!   `nir_lower_tex` and `lower_txd`: an explicit-LOD sample whose level of detail the
//!   shader computes from the gradients and the texture size): `TEX_SINGLE` `explicit` with `lambda = log2 rho` from the
//!   exact Euclidean `rho` (which lies between the bounds OpenGL 3.x §3.8.8 allows, the
//!   oracle's candidate range), the level-0 size from TXQ's size words.

use shaderdiff_model::check::FetchType;
use shaderdiff_model::texture::Target;
use shaderdiff_model::{File, Instruction, Opcode, ReturnType, Stage};

use super::abi::STAGING_REG;
use super::lower::Lower;
use super::vcode::{VDst, VSrc, Val};
use super::CompileError;
use crate::{SrcValue, StagingRun};

/// Sampler table of the image operand (Mesa `PAN_TABLE_SAMPLER`).
pub const SAMPLER_TABLE: u32 = 3;
/// Texture table of the image operand (Mesa `PAN_TABLE_TEXTURE`).
pub const TEXTURE_TABLE: u32 = 4;
/// Largest texture / sampler index the image operand holds (11 bits).
pub const MAX_INDEX: u32 = 0x7FF;

/// The image operand word for `texture` and `sampler` (module docs).
pub fn image_word(texture: u32, sampler: u32) -> u32 {
    (sampler & MAX_INDEX) | SAMPLER_TABLE << 11 | (texture & MAX_INDEX) << 16 | TEXTURE_TABLE << 27
}

/// The model target of IR target `t` when the valhall texture unit samples it: 1D, 2D, 3D,
/// RECT, 1D_ARRAY, 2D_ARRAY and BUFFER; `None` for multisample, cube and shadow targets
/// (and any other), which the compiler refuses.
pub fn valhall_target(t: shaderdiff_model::TexTarget) -> Option<Target> {
    Target::of_ir(t).filter(|m| {
        matches!(
            m,
            Target::T1D
                | Target::T2D
                | Target::T3D
                | Target::Rect
                | Target::Array1D
                | Target::Array2D
                | Target::Buffer
        )
    })
}

/// The `dimension` text of a target (module docs).
pub fn dimension(target: Target) -> &'static str {
    match target.dims() {
        1 => "1d",
        2 => "2d",
        _ => "3d",
    }
}

impl Lower<'_> {
    /// Lowers TEX, TXP, TXB, TXL or TXF instruction `i` (module docs).
    ///
    /// # Errors
    /// `Unsupported` for targets outside the model, more than one offset operand, a unit
    /// that is not a direct `SAMP[n]` with `n` ≤ 2047, or another texture opcode.
    pub(super) fn texture_op(&mut self, i: usize) -> Result<(), CompileError> {
        let insn: Instruction = self.program.instructions[i].clone();
        let pos = self.pos(i);
        let op = insn.opcode;
        if op == Opcode::TXQ {
            return self.texture_query(i);
        }
        if !matches!(
            op,
            Opcode::TEX
                | Opcode::TXP
                | Opcode::TXB
                | Opcode::TXL
                | Opcode::TXF
                | Opcode::TG4
                | Opcode::TXD
        ) {
            return Err(CompileError::unsupported(
                pos,
                &format!("{op}: not compiled for the valhall texture unit"),
            ));
        }
        let target = insn.texture.and_then(valhall_target).ok_or_else(|| {
            CompileError::unsupported(pos, &format!("{op}: texture target not modelled"))
        })?;
        if insn.tex_offsets.len() > 1 {
            return Err(CompileError::unsupported(
                pos,
                &format!("{op}: more than one texel offset operand"),
            ));
        }
        let gather = op == Opcode::TG4;
        let unit_src = match op {
            Opcode::TG4 => 2,
            Opcode::TXD => 3,
            _ => 1,
        };
        let unit = unit_of(&insn, unit_src, pos)?;
        let component = if gather {
            Some(self.gather_component(&insn, pos)?)
        } else {
            None
        };
        let Some(dst) = insn.dst.first().copied() else {
            return Err(CompileError::invalid(
                pos,
                &format!("{op} needs a destination"),
            ));
        };
        let wm = dst.writemask & 0xF;
        if wm == 0 {
            return Ok(());
        }
        let fetch = op == Opcode::TXF;
        let ty = if fetch {
            FetchType::Int
        } else {
            FetchType::Float
        };
        let dims = target.dims();
        let layer = target.layer_axis();
        let axes = dims + usize::from(layer.is_some());
        let mut coord = Vec::with_capacity(axes);
        for c in 0..axes {
            coord.push(self.fetch_as(&insn, 0, c as u8, ty)?);
        }
        if op == Opcode::TXP {
            // tgsi.rst TXP: (x, y, z) / w.
            let q = self.fetch_as(&insn, 0, 3, ty)?;
            let r = self.code.op("FRCP.f32", &[q], &[]);
            for v in coord.iter_mut() {
                *v = super::alu::mul(&mut self.code, *v, r);
            }
        }
        let mut sr: Vec<VSrc> = coord[..dims].to_vec();
        if let Some(a) = layer {
            sr.push(if fetch {
                coord[a]
            } else {
                self.code
                    .op("F32_TO_U32", &[coord[a]], &[("roundmode", "rte")])
            });
        }
        let with_level = fetch && target != Target::Buffer;
        if !insn.tex_offsets.is_empty() || with_level {
            let w = self.offsets_word(&insn, dims, with_level)?;
            sr.push(w);
        }
        let fragment = self.program.stage == Stage::Fragment;
        let lod_mode = match op {
            Opcode::TXL | Opcode::TXD => "explicit",
            Opcode::TXB if fragment => "computed_bias",
            Opcode::TEX | Opcode::TXP if fragment => "computed",
            _ => "zero",
        };
        if !fetch && !gather && matches!(lod_mode, "explicit" | "computed_bias") {
            let l = if op == Opcode::TXD {
                self.txd_lambda(&insn, target, unit)?
            } else {
                self.fetch_as(&insn, 0, 3, FetchType::Float)?
            };
            sr.push(self.lod_88(l));
        }
        let ret = self
            .program
            .decls(File::SamplerView)
            .find_map(|d| match &d.resource {
                Some(shaderdiff_model::Resource::SamplerView { return_type, .. })
                    if d.contains(i64::from(unit)) =>
                {
                    Some(return_type[0])
                }
                _ => None,
            });
        let reg_type = match ret {
            Some(ReturnType::Uint) => "u",
            Some(ReturnType::Sint) => "s",
            _ => "f",
        };
        let mask_text = WRITE_MASKS[wm as usize];
        let image = self
            .code
            .konst_pair(image_word(unit, if fetch { 0 } else { unit }), 0);
        for (k, v) in sr.iter().enumerate().rev() {
            self.code
                .ins("MOV.i32", VDst::P(STAGING_REG + k as u8), &[*v], &[]);
        }
        let mut mods: Vec<(&'static str, &'static str)> = vec![
            ("slot", "slot0"),
            ("register_type", reg_type),
            ("register_width", "32"),
            ("write_mask", mask_text),
            ("dimension", dimension(target)),
        ];
        if layer.is_some() {
            mods.push(("array_enable", ""));
        }
        if !insn.tex_offsets.is_empty() || with_level {
            mods.push(("texel_offset", ""));
        }
        let name = if let Some(k) = component {
            mods.push(("fetch_component", GATHER_COMPONENTS[k]));
            "TEX_GATHER"
        } else if fetch {
            "TEX_FETCH"
        } else {
            mods.push(("lod_mode", lod_mode));
            "TEX_SINGLE"
        };
        self.code.ins(name, VDst::None, &[image], &mods);
        let written = wm.count_ones() as u8;
        let last = self.code.last_mut().expect("just emitted");
        last.runs = vec![
            StagingRun {
                base: STAGING_REG,
                count: written,
            },
            StagingRun {
                base: STAGING_REG,
                count: sr.len() as u8,
            },
        ];
        // Results in ascending registers (a move into a spilled register goes through
        // r56, which is read first).
        let mut results = Vec::new();
        for (j, c) in (0..4u8).filter(|c| wm >> c & 1 != 0).enumerate() {
            let from = VSrc::new(Val::P(STAGING_REG + j as u8));
            results.push((c, self.code.op("MOV.i32", &[from], &[])));
        }
        let results = results
            .into_iter()
            .map(|(c, v)| (c, self.saturate(insn.saturate, v)))
            .collect();
        self.write_results(&dst.reg, results)
    }

    /// TXQ instruction `i` (module docs): the level's extents from the driver's size words.
    ///
    /// # Errors
    /// As [`Lower::texture_op`].
    fn texture_query(&mut self, i: usize) -> Result<(), CompileError> {
        let insn: Instruction = self.program.instructions[i].clone();
        let pos = self.pos(i);
        let target = insn
            .texture
            .and_then(valhall_target)
            .ok_or_else(|| CompileError::unsupported(pos, "TXQ: texture target not modelled"))?;
        let unit = unit_of(&insn, 1, pos)?;
        let Some(dst) = insn.dst.first().copied() else {
            return Err(CompileError::invalid(pos, "TXQ needs a destination"));
        };
        let first = self.size_words(unit);
        let word = |k: u32| VSrc::new(Val::Fau(SrcValue::Uniform((first + k).min(255) as u8)));
        let axes = target.dims() + usize::from(target.layer_axis().is_some());
        let lod = self.fetch_as(&insn, 0, 0, FetchType::Int)?;
        let mut results = Vec::new();
        for c in (0..4u8).filter(|c| dst.writemask >> c & 1 != 0) {
            let v = if c == 3 {
                self.code.op("MOV.i32", &[word(3)], &[])
            } else if usize::from(c) >= axes {
                let z = self.code.konst(0);
                self.code.op("MOV.i32", &[z], &[])
            } else if target == Target::Buffer || target.layer_axis() == Some(usize::from(c)) {
                self.code.op("MOV.i32", &[word(u32::from(c))], &[])
            } else {
                let z = self.code.konst(0);
                let s = self.code.op(
                    "RSHIFT_OR.i32",
                    &[word(u32::from(c)), lod.sel("b00"), z],
                    &[],
                );
                let one = self.code.konst(1);
                self.code
                    .op("CSEL.u32", &[s, one, s, one], &[("cmp", "gt")])
            };
            results.push((c, v));
        }
        self.write_results(&dst.reg, results)
    }

    /// The first of unit `unit`'s four size words (module docs, TXQ), reserved on first use.
    fn size_words(&mut self, unit: u32) -> u32 {
        match self.code.tex_sizes.iter().find(|(u, _)| *u == unit) {
            Some(&(_, w)) => w,
            None => {
                let w = self.code.reserve(4);
                self.code.tex_sizes.push((unit, w));
                w
            }
        }
    }

    /// TXD's level of detail (module docs): `lambda = log2(rho^2) / 2` with `rho^2` the
    /// larger of the squared lengths of `(ds/dx, dt/dx, dr/dx)` and the d/dy vector scaled
    /// by the level-0 size (RECT unscaled, the layer excluded; OpenGL 3.x §3.8.8 equations
    /// 3.18-3.20), at least the smallest normal f32 (so a zero gradient gives a very
    /// negative `lambda`, level 0).
    fn txd_lambda(
        &mut self,
        insn: &Instruction,
        target: Target,
        unit: u32,
    ) -> Result<VSrc, CompileError> {
        let first = self.size_words(unit);
        let mut rho2 = self.code.f(f32::MIN_POSITIVE);
        for k in [1, 2] {
            let mut sq = self.code.f(0.0);
            for a in 0..target.dims() {
                let mut d = self.fetch_as(insn, k, a as u8, FetchType::Float)?;
                if target != Target::Rect {
                    let w = VSrc::new(Val::Fau(SrcValue::Uniform(
                        (first + a as u32).min(255) as u8
                    )));
                    let size = self.code.op("U32_TO_F32", &[w], &[]);
                    d = super::alu::mul(&mut self.code, d, size);
                }
                sq = self.code.op("FMA.f32", &[d, d, sq], &[]);
            }
            rho2 = self.code.op("FMAX.f32", &[rho2, sq], &[]);
        }
        let l = super::alu::lg2(&mut self.code, rho2);
        let half = self.code.f(0.5);
        Ok(super::alu::mul(&mut self.code, l, half))
    }

    /// TG4's component (`src1.x`, tgsi.rst TG4) when it is an immediate: `fetch_component`
    /// is a field of the instruction. A component outside 0..3 (undefined for the oracle)
    /// gathers alpha.
    ///
    /// # Errors
    /// `Unsupported` for a component in a register or with modifiers.
    fn gather_component(
        &self,
        insn: &Instruction,
        pos: Option<shaderdiff_model::Pos>,
    ) -> Result<usize, CompileError> {
        let s = insn.src.get(1).copied();
        let word = s.and_then(|s| {
            let r = s.reg;
            let direct = r.file == File::Immediate && !r.is_indirect() && r.dimension.is_none();
            let imm = usize::try_from(r.index.value)
                .ok()
                .and_then(|i| self.program.immediates.get(i));
            match imm {
                Some(imm) if direct && !s.abs && !s.neg => {
                    Some(imm.words[usize::from(s.swizzle[0] & 3)])
                }
                _ => None,
            }
        });
        word.map(|w| w.min(3) as usize).ok_or_else(|| {
            CompileError::unsupported(
                pos,
                "TG4: textures: a component that is not an immediate is not supported by the \
                 valhall texture unit (TEX_GATHER's fetch_component is a constant)",
            )
        })
    }

    /// The OFFSETMS word (module docs): the texel offsets of the target's `dims` axes in
    /// bytes 0–2 and, when `with_level`, TXF's level `src0.w` in byte 3.
    fn offsets_word(
        &mut self,
        insn: &Instruction,
        dims: usize,
        with_level: bool,
    ) -> Result<VSrc, CompileError> {
        let mut acc = self.code.konst(0);
        if let Some(o) = insn.tex_offsets.first().copied() {
            let byte = self.code.konst(0xFF);
            for a in 0..dims {
                let v = self.read(&o.reg, o.swizzle[a])?;
                let z = self.code.lane_const(0);
                let b = self.code.op("LSHIFT_AND.i32", &[v, z, byte], &[]);
                let sh = self.code.lane_const(8 * a as u32);
                acc = self.code.op("LSHIFT_OR.i32", &[b, sh, acc], &[]);
            }
        }
        if with_level {
            let l = self.fetch_as(insn, 0, 3, FetchType::Int)?;
            let sh = self.code.lane_const(24);
            acc = self.code.op("LSHIFT_OR.i32", &[l, sh, acc], &[]);
        }
        Ok(acc)
    }

    /// `lambda` (f32) as the LOD register's signed 8.8 fixed point (module docs).
    fn lod_88(&mut self, lambda: VSrc) -> VSrc {
        let k = self.code.f(1.0 / 16.0);
        let nz = self.code.f(-0.0);
        let t = self
            .code
            .op("FMA.f32", &[lambda, k, nz], &[("clamp", "clamp_m1_1")]);
        let s = self.code.f(16.0 * 256.0);
        let nz = self.code.f(-0.0);
        let u = self.code.op("FMA.f32", &[t, s, nz], &[]);
        let fixed = self.code.op("F32_TO_S32", &[u], &[("roundmode", "rte")]);
        let z = self.code.lane_const(0);
        let low = self.code.konst(0xFFFF);
        self.code.op("LSHIFT_AND.i32", &[fixed, z, low], &[])
    }
}

/// The unit `n` of the instruction's direct `SAMP[n]` operand `src[k]`.
///
/// # Errors
/// `Unsupported` for anything else, or `n` above [`MAX_INDEX`].
fn unit_of(
    insn: &Instruction,
    k: usize,
    pos: Option<shaderdiff_model::Pos>,
) -> Result<u32, CompileError> {
    match insn.src.get(k).map(|s| s.reg) {
        Some(r)
            if r.file == File::Sampler
                && !r.is_indirect()
                && r.dimension.is_none()
                && (0..=i64::from(MAX_INDEX)).contains(&i64::from(r.index.value)) =>
        {
            Ok(r.index.value as u32)
        }
        _ => Err(CompileError::unsupported(
            pos,
            &format!(
                "{}: the unit must be a direct SAMP[n] with n <= {MAX_INDEX}",
                insn.opcode
            ),
        )),
    }
}

/// `Fetch component` enum text by component (ISA.xml).
const GATHER_COMPONENTS: [&str; 4] = ["gather4_r", "gather4_g", "gather4_b", "gather4_a"];

/// `Write mask` enum text by mask value (ISA.xml; bit 0 = r).
const WRITE_MASKS: [&str; 16] = [
    "", "r", "g", "rg", "b", "rb", "gb", "rgb", "a", "ra", "ga", "rga", "ba", "rba", "gba", "rgba",
];
