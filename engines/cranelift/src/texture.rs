//! The jit's texture unit: a runtime function the generated code calls once per quad for
//! every texture instruction (TEX, TXP, TXB, TXL, TXD, TXF, TXQ, TG4, LODQ, TXQS), and the descriptor that tells
//! it which instruction it is running.
//!
//! This is a separate implementation from the oracle's (`shaderdiff_oracles::interp`
//! `texture` module): it computes like a texture unit does, in single precision, and
//! returns one value per lane whatever the specification leaves open:
//!
//! * sampling: `u = s * size` as an `f32` product (RECT: `u = s`), texel `floor(u)`
//!   wrapped by CLAMP_TO_EDGE (`clamp(i, 0, size - 1)`) or REPEAT (`i mod size`, GL 4.6
//!   Table 8.20); TXP divides `x`, `y`, `z` by `w` in `f32` first (tgsi.rst TXP); the
//!   array layer is `clamp(floor(r + 0.5), 0, layers - 1)` in `f32` (NV_gpu_program4
//!   §2.X.4.4);
//! * level of detail: TXL's `w`; TXD's `log2` of the exact scale factor `rho` of OpenGL
//!   3.x §3.8.8 (equation 3.20, level-0 sizes, in `f32`); TEX/TXP/TXB `-inf` (+ TXB's bias) outside fragment
//!   programs; in fragment programs the same exact `rho` from the quad's fine
//!   derivatives (`texture_lod`), plus TXB's bias; NEAREST minification: level 0;
//!   NEAREST_MIPMAP_NEAREST: 0 when `lambda <= 0.5`, else `ceil(lambda + 0.5) - 1`
//!   clamped to the last level (OpenGL 3.x §3.8.8); NaN picks level 0;
//! * texel offsets: the `i32` offset added to the texel index `floor(u)` of each axis the
//!   target has (not the layer) before wrapping (NV_gpu_program4 §3.8.8 edit), or to TXF's
//!   `(i, j, k)` before the range check; an offset outside -8..=7 on a used axis gives zeros;
//! * TXF: the texel at `(i, j, k)` / layer of level `w` (Table X.18); zeros out of range;
//! * TG4: component `src1.x` of the 2x2 LINEAR footprint of level 0 in `f32`
//!   (`floor(u - 1/2)`, OpenGL 3.x equations 3.23-3.25), order `(i0, j1)`, `(i1, j1)`,
//!   `(i1, j0)`, `(i0, j0)`;
//! * TXQ: the level's extents (Table X.17 order, layers included), zeros for components
//!   the target does not have or levels it does not have; `w` = number of levels;
//! * LODQ: `(level accessed, lambda, 0, 0)` (`texture_lod`); TXQS and TXF on
//!   multisample textures: `texture_ms`;
//! * no texture on the unit, or a `DCL SVIEW` return type that does not read the format:
//!   zeros; likewise a SHADOW target on a texture without a compare function or another
//!   target on one with it;
//! * cube maps and the SHADOW targets' depth comparisons: `crate::texture_cube`.

use std::collections::BTreeMap;

use cranelift_codegen::ir::types::{I32, I64};
use shaderdiff_engine::EngineError;
use shaderdiff_model::texture::{Format, MinFilter, Rule, Target, Texture, Wrap};
use shaderdiff_model::Inputs;
use shaderdiff_model::{File, Opcode, Program, ReturnType, Stage};

use crate::alu::LibcallDef;
use crate::run::RunCtx;

/// Linker symbol of [`shaderdiff_tex`].
pub(crate) const TEX_SYMBOL: &str = "shaderdiff_tex";

/// Texture opcodes the jit runs: the interpreter's, in its order (the descriptor's
/// operation number is the index).
pub(crate) const TEX_OPCODES: [Opcode; 10] = shaderdiff_model::check::texture::TEXTURE_OPCODES;

/// Bytes of the per-call exchange area: 16 source words, TXD's 16 d/dx and 16 d/dy words,
/// 16 texel offset words (`x`, `y`, `z` used), then 16 result words, each block
/// channel-major (`4 * channel + lane`).
pub(crate) const IO_BYTES: u32 = 320;

/// Byte offset of TXD's d/dx block (d/dy follows at `IO_DERIVS + 64`); TG4's component
/// words are its first channel.
pub(crate) const IO_DERIVS: i32 = 64;

/// Byte offset of the texel offset block in the exchange area.
pub(crate) const IO_OFFSETS: i32 = 192;

/// Byte offset of the result block in the exchange area.
pub(crate) const IO_RESULTS: i32 = 256;

/// The textures of one run by unit (what `RunCtx::textures` points to).
pub(crate) struct TexUnits<'a> {
    units: BTreeMap<u32, &'a Texture>,
}

impl<'a> TexUnits<'a> {
    /// The inputs' textures by the unit `n` of their `SAMP[n]` key.
    pub(crate) fn new(inputs: &'a Inputs) -> TexUnits<'a> {
        TexUnits {
            units: inputs
                .textures
                .iter()
                .filter(|(k, _)| k.file == File::Sampler)
                .map(|(k, t)| (k.index, t))
                .collect(),
        }
    }
}

/// The compile-time descriptor of one texture instruction, packed into a `u32`:
/// bits 0-3 operation (its index in `TEX_OPCODES`), 6-7 return type (0 none, 1 FLOAT, 2
/// UINT, 3 SINT), bit 8 fragment program, bit 9 texel offset operand, bit 10 SHADOW target, bit 11 its
/// reference in `w` (else `z`), bits 12-15 the target's index in [`Target::ALL`], bits
/// 16-31 unit.
pub(crate) fn descriptor(program: &Program, i: usize) -> Option<u32> {
    let insn = &program.instructions[i];
    let op = TEX_OPCODES.iter().position(|&o| o == insn.opcode)? as u32;
    let ir = insn.texture?;
    let (target, shadow) = shaderdiff_model::texture::sampled(ir)?;
    let t = Target::ALL.iter().position(|&x| x == target)? as u32;
    let refw = shaderdiff_model::texture::reference_component(ir) == Some(3);
    // tgsi.rst: the unit is src1, TXD's src3, TG4's src2, TXQS's src0.
    let k = match insn.opcode {
        Opcode::TXD => 3,
        Opcode::TG4 => 2,
        Opcode::TXQS => 0,
        _ => 1,
    };
    let unit = insn.src.get(k)?.reg.index.value;
    if !(0..=0xFFFF).contains(&unit) {
        return None;
    }
    let ret = program
        .decls(File::SamplerView)
        .find_map(|d| match &d.resource {
            Some(shaderdiff_model::Resource::SamplerView { return_type, .. })
                if d.contains(i64::from(unit)) =>
            {
                Some(match return_type[0] {
                    ReturnType::Float => 1,
                    ReturnType::Uint => 2,
                    ReturnType::Sint => 3,
                    _ => 0,
                })
            }
            _ => None,
        })
        .unwrap_or(0);
    let frag = u32::from(program.stage == Stage::Fragment);
    let off = u32::from(!insn.tex_offsets.is_empty());
    let (shadow, refw) = (u32::from(shadow), u32::from(refw));
    Some(
        (op & 15)
            | ret << 6
            | frag << 8
            | off << 9
            | shadow << 10
            | refw << 11
            | (t & 15) << 12
            | (unit as u32) << 16,
    )
}

/// The operation of descriptor `desc` ([`descriptor`]).
fn desc_op(desc: u32) -> Opcode {
    TEX_OPCODES[(desc & 15) as usize % TEX_OPCODES.len()]
}

/// Texture instructions outside the model (multisample targets, more than one texel offset
/// operand, the cube and SHADOW pairs `instruction_rule` rejects), refused before anything
/// is compiled, as the oracle refuses them.
///
/// # Errors
/// [`EngineError::Unsupported`] at the first such instruction.
pub(crate) fn check(program: &Program) -> Result<(), EngineError> {
    for (i, insn) in program.instructions.iter().enumerate() {
        if !TEX_OPCODES.contains(&insn.opcode) {
            continue;
        }
        let why = match insn.texture {
            Some(t) if shaderdiff_model::texture::sampled(t).is_none() => {
                format!("texture target {t} is not modelled")
            }
            _ if insn.tex_offsets.len() > 1 => {
                "more than one texel offset operand is not modelled".into()
            }
            Some(t) => match shaderdiff_model::texture::instruction_rule(
                insn.opcode,
                t,
                !insn.tex_offsets.is_empty(),
            ) {
                Some(Rule::Invalid(m) | Rule::Unsupported(m)) => m,
                None => continue,
            },
            None => continue,
        };
        return Err(EngineError::Unsupported {
            engine: crate::ENGINE.into(),
            opcode: Some(insn.opcode),
            pos: program.source_map.instruction(i),
            reason: why,
        });
    }
    Ok(())
}

/// The guaranteed texel offset range (MIN/MAX_PROGRAM_TEXEL_OFFSET_EXT).
const OFFSETS: std::ops::RangeInclusive<i32> = -8..=7;

/// One lane: the instruction's result from its four source words, TXD's derivatives `d`
/// (`[d/dx, d/dy]` of `(s, t, r)`, unused otherwise), TG4's component `comp`, texel
/// offset `off` and the implicit level of detail `lod` of the lane's quad (TEX, TXP, TXB,
/// LODQ in fragment programs, `texture_lod`; `-inf` elsewhere: zero partials).
fn lane(
    desc: u32,
    tex: Option<&Texture>,
    src: [u32; 4],
    d: [[f32; 3]; 2],
    comp: u32,
    off: [i32; 3],
    lod: f32,
) -> [u32; 4] {
    let Some(tex) = tex else {
        return [0; 4];
    };
    let op = desc_op(desc);
    if op == Opcode::TXQS {
        return crate::texture_ms::samples(tex);
    }
    if op == Opcode::LODQ {
        return crate::texture_lod::lodq(tex, lod);
    }
    let cube = matches!(tex.target, Target::Cube | Target::CubeArray);
    if op == Opcode::TXQ && cube {
        return crate::texture_cube::query(tex, src[0] as i32);
    }
    if op == Opcode::TXQ {
        let levels = tex.levels.len() as u32;
        let l = if tex.target == Target::Buffer {
            0
        } else {
            src[0] as i32
        };
        if l < 0 || l as u32 >= levels {
            return [0, 0, 0, levels];
        }
        let [w, h, d] = extents(tex, l as u32);
        return match tex.target {
            Target::T1D | Target::Buffer => [w, 0, 0, levels],
            Target::T2D | Target::Rect | Target::Array1D | Target::Ms2D => [w, h, 0, levels],
            Target::T3D
            | Target::Array2D
            | Target::MsArray2D
            | Target::Cube
            | Target::CubeArray => [w, h, d, levels],
        };
    }
    let wanted = match desc >> 6 & 3 {
        1 => Some(Format::Rgba32F),
        2 => Some(Format::Rgba32Ui),
        3 => Some(Format::Rgba32I),
        _ => None,
    };
    if wanted.is_some_and(|f| f != tex.format) {
        return [0; 4];
    }
    let shadow = desc >> 10 & 1 != 0;
    if shadow != tex.compare.is_some() {
        return [0; 4];
    }
    if cube {
        let c = src.map(f32::from_bits);
        return crate::texture_cube::sample(op, desc >> 8 & 1 != 0, tex, c, shadow);
    }
    let (dims, layer) = match tex.target {
        Target::T1D | Target::Buffer => (1, None),
        Target::T2D | Target::Rect | Target::Ms2D => (2, None),
        Target::T3D => (3, None),
        Target::Array1D => (1, Some(1)),
        Target::Array2D | Target::MsArray2D | Target::Cube | Target::CubeArray => (2, Some(2)),
    };
    if off[..dims].iter().any(|o| !OFFSETS.contains(o)) {
        return [0; 4];
    }
    if op == Opcode::TXF && tex.target.multisample() {
        return crate::texture_ms::fetch(tex, src.map(|w| w as i32), off);
    }
    if op == Opcode::TXF {
        return fetch(tex, src.map(|w| w as i32), off, dims);
    }
    let mut c = src.map(f32::from_bits);
    if op == Opcode::TG4 {
        return gather(tex, c, comp, off, layer);
    }
    if op == Opcode::TXP {
        let w = c[3];
        c[0] /= w;
        c[1] /= w;
        c[2] /= w;
    }
    let lambda = match op {
        Opcode::TXL => c[3],
        Opcode::TXD => txd_lambda(tex, d, dims),
        Opcode::TXB => lod + c[3],
        _ => lod,
    };
    let level = pick_level(tex, lambda);
    let size = extents(tex, level);
    let mut at = [0u32; 3];
    for a in 0..dims {
        let u = if tex.target == Target::Rect {
            c[a]
        } else {
            c[a] * size[a] as f32
        };
        at[a] = wrap(
            tex.wrap[a],
            (u.floor() as i64).saturating_add(i64::from(off[a])),
            size[a],
        );
    }
    if let Some(a) = layer {
        // FAULT HOOK `array-layer-truncated`: the layer truncated, not rounded.
        let l = if desc & crate::faults::TEX_LAYER_TRUNCATED != 0 {
            c[a].trunc() as i64
        } else {
            (c[a] + 0.5).floor() as i64
        };
        at[a] = l.clamp(0, i64::from(size[a]) - 1) as u32;
    }
    let texel = read(tex, level, at);
    if shadow {
        // Table X.17: the reference in z, or w for SHADOWARRAY2D (TXP divided z by w).
        let r = if desc >> 11 & 1 != 0 { c[3] } else { c[2] };
        return crate::texture_cube::compare(tex, texel, r);
    }
    texel
}

/// TG4: component `comp` of the texels `(i0, j1)`, `(i1, j1)`, `(i1, j0)`, `(i0, j0)` of
/// level 0, `i0 = wrap(floor(u - 1/2) + offset)`, `i1 = wrap(floor(u - 1/2) + offset + 1)`
/// (OpenGL 3.x equations 3.23-3.25; RECT `u = s`); zeros for a component outside 0..3.
fn gather(tex: &Texture, c: [f32; 4], comp: u32, off: [i32; 3], layer: Option<usize>) -> [u32; 4] {
    if comp > 3 {
        return [0; 4];
    }
    let size = extents(tex, 0);
    let mut p = [[0u32; 2]; 2];
    for a in 0..2 {
        let u = if tex.target == Target::Rect {
            c[a]
        } else {
            c[a] * size[a] as f32
        };
        let f = ((u - 0.5).floor() as i64).saturating_add(i64::from(off[a]));
        p[a] = [
            wrap(tex.wrap[a], f, size[a]),
            wrap(tex.wrap[a], f.saturating_add(1), size[a]),
        ];
    }
    let l = layer.map_or(0, |a| {
        ((c[a] + 0.5).floor() as i64).clamp(0, i64::from(size[a]) - 1) as u32
    });
    let at = |i: u32, j: u32| {
        let mut v = [i, j, 0];
        if let Some(a) = layer {
            v[a] = l;
        }
        read(tex, 0, v)[comp as usize]
    };
    let ([i0, i1], [j0, j1]) = (p[0], p[1]);
    [at(i0, j1), at(i1, j1), at(i1, j0), at(i0, j0)]
}

fn wrap(mode: Wrap, i: i64, size: u32) -> u32 {
    let n = i64::from(size);
    match mode {
        Wrap::ClampToEdge => i.clamp(0, n - 1) as u32,
        Wrap::Repeat => (((i % n) + n) % n) as u32,
    }
}

/// `[width, height, depth]` of `level`, layers kept (ARRAY1D: height, ARRAY2D: depth).
fn extents(tex: &Texture, level: u32) -> [u32; 3] {
    let shrink = |v: u32| (v >> level.min(31)).max(1);
    let [w, h, d] = tex.size;
    match tex.target {
        Target::Array1D => [shrink(w), h, 1],
        Target::Array2D | Target::Cube | Target::CubeArray => [shrink(w), shrink(h), d],
        _ => [shrink(w), shrink(h), shrink(d)],
    }
}

/// TXD's level of detail: `log2` of the exact scale factor of OpenGL 3.x §3.8.8
/// (equation 3.20: the longer of the x and y texel-space derivative vectors, level-0 size,
/// RECT unscaled), in `f32`.
pub(crate) fn txd_lambda(tex: &Texture, d: [[f32; 3]; 2], dims: usize) -> f32 {
    let rho = d
        .iter()
        .map(|dir| {
            (0..dims)
                .map(|a| {
                    let scale = if tex.target == Target::Rect {
                        1.0
                    } else {
                        tex.size[a] as f32
                    };
                    let v = dir[a] * scale;
                    v * v
                })
                .sum::<f32>()
                .sqrt()
        })
        .fold(0f32, |m, x| {
            if x.is_nan() || m.is_nan() {
                f32::NAN
            } else {
                m.max(x)
            }
        });
    rho.log2()
}

pub(crate) fn pick_level(tex: &Texture, lambda: f32) -> u32 {
    let last = tex.levels.len().saturating_sub(1) as u32;
    if tex.min_filter == MinFilter::Nearest || lambda.is_nan() || lambda <= 0.5 {
        return 0;
    }
    let d = (lambda + 0.5).ceil() - 1.0;
    if d >= last as f32 {
        last
    } else {
        d as u32
    }
}

fn read(tex: &Texture, level: u32, at: [u32; 3]) -> [u32; 4] {
    let [w, h, _] = extents(tex, level);
    let n = (at[2] as usize * h as usize + at[1] as usize) * w as usize + at[0] as usize;
    tex.levels
        .get(level as usize)
        .and_then(|l| l.get(n))
        .copied()
        .unwrap_or([0; 4])
}

fn fetch(tex: &Texture, c: [i32; 4], off: [i32; 3], dims: usize) -> [u32; 4] {
    let level = if tex.target == Target::Buffer {
        0
    } else {
        c[3]
    };
    if level < 0 || level as usize >= tex.levels.len() {
        return [0; 4];
    }
    if level > 0 && tex.min_filter == MinFilter::Nearest {
        return [0; 4];
    }
    let size = extents(tex, level as u32);
    let used = match tex.target {
        Target::T1D | Target::Buffer => 1,
        Target::T2D | Target::Rect | Target::Array1D | Target::Ms2D => 2,
        Target::T3D | Target::Array2D | Target::MsArray2D | Target::Cube | Target::CubeArray => 3,
    };
    let mut at = [0u32; 3];
    for a in 0..used {
        let v = i64::from(c[a]) + if a < dims { i64::from(off[a]) } else { 0 };
        if v < 0 || v >= i64::from(size[a]) {
            return [0; 4];
        }
        at[a] = v as u32;
    }
    read(tex, level as u32, at)
}

/// The texture runtime call: runs texture instruction `desc` ([`descriptor`]) for the lanes
/// of `exec` (bit `l` = lane `l`) on the 16 source words at `io` and (with an offset
/// operand) the 16 offset words at `io + IO_OFFSETS` (channel-major), writing 16 result
/// words at `io + IO_RESULTS` bytes (lanes not executing get zeros).
///
/// # Safety
/// `ctx` is the run's context with `textures` pointing to the run's [`TexUnits`] (or
/// null); `io` points to [`IO_BYTES`] writable bytes.
unsafe extern "C" fn shaderdiff_tex(ctx: *const RunCtx, desc: u32, exec: u32, io: *mut u32) {
    // SAFETY: the caller passes the run's context and an IO_BYTES exchange area.
    let (ctx, io) = unsafe {
        (
            &*ctx,
            std::slice::from_raw_parts_mut(io, IO_BYTES as usize / 4),
        )
    };
    let units = if ctx.textures.is_null() {
        None
    } else {
        // SAFETY: `textures` points to the run's `TexUnits`, alive for the whole call.
        Some(unsafe { &*ctx.textures.cast::<TexUnits>() })
    };
    let tex = units.and_then(|u| u.units.get(&(desc >> 16)).copied());
    let (db, ob, rb) = (
        IO_DERIVS as usize / 4,
        IO_OFFSETS as usize / 4,
        IO_RESULTS as usize / 4,
    );
    let op = desc_op(desc);
    let txd = op == Opcode::TXD;
    let lods = crate::texture_lod::quad_lods(desc, op, tex, io);
    for l in 0..4 {
        let d = if txd {
            [0, 16].map(|k| [0, 1, 2].map(|c| f32::from_bits(io[db + k + 4 * c + l])))
        } else {
            [[0.0; 3]; 2]
        };
        let off = if desc >> 9 & 1 != 0 {
            [0, 1, 2].map(|c| io[ob + 4 * c + l] as i32)
        } else {
            [0; 3]
        };
        let r = if exec >> l & 1 != 0 {
            let comp = if op == Opcode::TG4 { io[db + l] } else { 0 };
            let src = [0, 1, 2, 3].map(|c| io[4 * c + l]);
            lane(desc, tex, src, d, comp, off, lods[l])
        } else {
            [0; 4]
        };
        for c in 0..4 {
            io[rb + 4 * c + l] = r[c];
        }
    }
}

/// The [`LibcallDef`] of [`shaderdiff_tex`]: `(ctx: i64, desc: i32, exec: i32, io: i64)`.
pub(crate) fn libcall_def() -> LibcallDef {
    type TexFn = unsafe extern "C" fn(*const RunCtx, u32, u32, *mut u32);
    LibcallDef {
        name: TEX_SYMBOL,
        params: &[I64, I32, I32, I64],
        returns: &[],
        ptr: shaderdiff_tex as TexFn as *const u8,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const Z: [[f32; 3]; 2] = [[0.0; 3]; 2];

    fn tex1d(wrap_mode: Wrap) -> Texture {
        Texture {
            target: Target::T1D,
            format: Format::Rgba32Ui,
            size: [4, 1, 1],
            wrap: [wrap_mode; 3],
            min_filter: MinFilter::Nearest,
            levels: vec![(0..4).map(|n| [n; 4]).collect()],
            samples: 1,
            compare: None,
        }
    }

    #[test]
    fn nearest_with_wrap_modes() {
        // 1D width 4: s = -0.1 → u = -0.4 → floor -1: clamp → 0, repeat → 3.
        let s = [(-0.1f32).to_bits(), 0, 0, 0];
        let tex_desc = 0; // TEX, 1D, no return type, vertex program, unit 0
        assert_eq!(
            lane(
                tex_desc,
                Some(&tex1d(Wrap::ClampToEdge)),
                s,
                Z,
                0,
                [0; 3],
                f32::NEG_INFINITY
            )[0],
            0
        );
        assert_eq!(
            lane(
                tex_desc,
                Some(&tex1d(Wrap::Repeat)),
                s,
                Z,
                0,
                [0; 3],
                f32::NEG_INFINITY
            )[0],
            3
        );
        // Offset -1: floor(-0.4) - 1 = -2: clamp → 0, repeat → 2; offset 9: out of range.
        assert_eq!(
            lane(
                tex_desc,
                Some(&tex1d(Wrap::Repeat)),
                s,
                Z,
                0,
                [-1, 0, 0],
                f32::NEG_INFINITY
            )[0],
            2
        );
        assert_eq!(
            lane(
                tex_desc,
                Some(&tex1d(Wrap::Repeat)),
                s,
                Z,
                0,
                [9, 0, 0],
                f32::NEG_INFINITY
            ),
            [0; 4]
        );
    }

    #[test]
    fn fetch_out_of_range_gives_zeros() {
        let txf = 4; // TXF, 1D
        let t = tex1d(Wrap::Repeat);
        assert_eq!(
            lane(txf, Some(&t), [2, 0, 0, 0], Z, 0, [0; 3], f32::NEG_INFINITY),
            [2; 4]
        );
        assert_eq!(
            lane(txf, Some(&t), [4, 0, 0, 0], Z, 0, [0; 3], f32::NEG_INFINITY),
            [0; 4]
        );
        // (2) + offset 1 = 3; (2) + offset 2 = 4 is outside the width.
        assert_eq!(
            lane(
                txf,
                Some(&t),
                [2, 0, 0, 0],
                Z,
                0,
                [1, 0, 0],
                f32::NEG_INFINITY
            ),
            [3; 4]
        );
        assert_eq!(
            lane(
                txf,
                Some(&t),
                [2, 0, 0, 0],
                Z,
                0,
                [2, 0, 0],
                f32::NEG_INFINITY
            ),
            [0; 4]
        );
    }
}
