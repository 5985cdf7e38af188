//! The texture unit: `TEX_FETCH`, `TEX_SINGLE` and `TEX_GATHER` messages (SEMANTICS.md §8 "Attributes /
//! textures": results written per `write_mask` with `register_type`/`register_width`)
//! against the textures bound in [`Memory`] ([`Memory::bind_texture`]).
//!
//! What the unit reads and how it computes, with the sources of each decision (the
//! compiler side and the [Mesa usage] citations are in `compile::tex`):
//!
//! * **Image operand**: bits 0–10 the sampler index, 11–15 its table (3), 16–26 the texture
//!   index, 27–31 its table (4) [Mesa usage]; the high word is ignored. Another table, or
//!   an index with nothing bound, gives zeros [Assumption: a robust unit].
//! * **Staging registers**: X, Y (2-D and 3-D), Z (3-D), ARRAY (`array_enable`), OFFSETMS
//!   (`texel_offset`), LOD (`lod_mode` `explicit` / `computed_bias`) in this order
//!   [Mesa usage]; a read count that does not match is refused when the program is
//!   loaded. The whole read run is read before any result is written [Assumption].
//! * **Coordinates** (`TEX_SINGLE`, NEAREST filtering, OpenGL 3.x §3.8.8): `u = s · size`
//!   as an f32 product (unnormalised RECT textures: `u = s`, the sampler descriptor's
//!   property, not the `dimension`), turned into signed fixed point with 8 fractional bits
//!   (round to nearest; NaN → 0; from `|u| >= 2^40`, where an f32 is an integer, the
//!   integer part saturated to 64 bits), the texel index is its integer part plus the
//!   texel offset, wrapped by the sampler's CLAMP_TO_EDGE or REPEAT (GL 4.6 Table 8.20). The
//!   rounding moves `u` by at most 2^-9 texel: inside the oracle's 2^-8 edge band.
//! * **Array layer**: the unsigned ARRAY register, clamped to the last layer (sampling) or
//!   range-checked (fetch).
//! * **Level of detail**: NEAREST minification: level 0. NEAREST_MIPMAP_NEAREST: `lambda`
//!   in signed 8.8 fixed point — `zero`: level 0; `explicit`: the LOD register's low 16
//!   bits; `computed`: `log2 rho` of the quad's coordinate differences (`lane ^ 1` in x,
//!   `lane ^ 2` in y, level-0 sizes, RECT unscaled; a neighbour lane that is not active
//!   contributes no difference [Assumption: the oracle only accepts textures whose result
//!   does not depend on it]); `computed_bias`: that plus the LOD register. Level 0 when
//!   `lambda <= 1/2`, else `ceil(lambda + 1/2) - 1` clamped to the last level (OpenGL
//!   3.x §3.8.8).
//! * **Fetch** (`TEX_FETCH`): integer `i`, `j`, `k` plus the offsets, the layer, level
//!   = OFFSETMS byte 3 (0 without `texel_offset`) [Mesa usage]; anything outside the
//!   texture gives zeros [Assumption: robust; the oracle leaves it undefined].
//! * **Texel offsets**: OFFSETMS bytes 0–2 as signed 8-bit, for the axes the image has.
//! * **Formats**: RGBA32F, RGBA32UI and RGBA32I texels are returned as their raw words
//!   whatever `register_type` says [Assumption: 32-bit formats need no conversion; the
//!   oracle leaves a mismatching return type undefined].
//!
//! * **Gather** (`TEX_GATHER`, `fetch_component`): the 2x2 LINEAR footprint of level 0
//!   (`gather`), `u - 1/2` in the same fixed point.
//!
//! Refused when loaded: `shadow`, `wide_indices`, `skip`, `integer_coordinates`, cube
//! dimension, 16-bit registers, `lod_mode` `grdesc`; TEX_GRADIENT and TEX_DUAL are not
//! decoded here at all.

use shaderdiff_model::texture::{MinFilter, Target, Texture};

use super::exec::Warp;
use super::memory::Memory;
use super::op::{Op, Val};
use super::resolve::Res;
use super::SimError;
use crate::compile::tex::{MAX_INDEX, SAMPLER_TABLE, TEXTURE_TABLE};

/// How a `TEX_SINGLE` finds its level of detail (`LOD mode`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum LodMode {
    Zero,
    Computed,
    Explicit,
    ComputedBias,
}

/// One decoded texture message.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct TexMsg {
    /// `TEX_FETCH` (else `TEX_SINGLE` with `lod`, or `TEX_GATHER`).
    pub fetch: bool,
    /// `TEX_GATHER`: the `fetch_component` (0..3 = R, G, B, A).
    pub gather: Option<u8>,
    pub lod: LodMode,
    /// Image coordinates: 1, 2 or 3 (`dimension`).
    pub dims: usize,
    pub array: bool,
    pub offset: bool,
    /// `write_mask` (bit 0 = r).
    pub mask: u8,
    /// The image operand.
    pub image: Val,
    /// First registers of the read and the write runs.
    pub read: u8,
    pub write: u8,
}

/// Resolves `TEX_FETCH` / `TEX_SINGLE` (module docs).
///
/// # Errors
/// `Unsupported` for the refused modifiers (module docs) and staging counts that do not
/// match the layout.
pub(crate) fn resolve_tex(r: &Res<'_>) -> Result<Op, SimError> {
    let fetch = r.name() == "TEX_FETCH";
    let gather = match r.name() {
        "TEX_GATHER" => Some(match r.need_text("fetch_component")? {
            "gather4_r" => 0,
            "gather4_g" => 1,
            "gather4_b" => 2,
            _ => 3,
        }),
        _ => None,
    };
    for f in ["shadow", "wide_indices", "skip", "integer_coordinates"] {
        if r.flag(f) {
            return Err(r.unsupported(format!(".{f}")));
        }
    }
    let dims = match r.need_text("dimension")? {
        "1d" => 1,
        "2d" => 2,
        "3d" => 3,
        t => return Err(r.unsupported(format!("dimension .{t}"))),
    };
    if r.need_text("register_width")? != "32" {
        return Err(r.unsupported("16-bit results"));
    }
    let lod = if fetch || gather.is_some() {
        LodMode::Zero
    } else {
        match r.need_text("lod_mode")? {
            "zero" => LodMode::Zero,
            "computed" => LodMode::Computed,
            "explicit" => LodMode::Explicit,
            "computed_bias" => LodMode::ComputedBias,
            t => return Err(r.unsupported(format!("lod_mode .{t}"))),
        }
    };
    let wm = r.need_text("write_mask")?;
    let mask = ["r", "g", "b", "a"]
        .iter()
        .enumerate()
        .filter(|(_, c)| wm.contains(*c))
        .fold(0u8, |m, (k, _)| m | 1 << k);
    let array = r.flag("array_enable");
    let offset = r.flag("texel_offset");
    let want = dims
        + usize::from(array)
        + usize::from(offset)
        + usize::from(matches!(lod, LodMode::Explicit | LodMode::ComputedBias));
    let (Some(w), Some(rd)) = (r.instr.staging.first(), r.instr.staging.get(1)) else {
        return Err(r.unsupported("missing staging runs"));
    };
    if usize::from(rd.count) != want
        || u32::from(w.count) != mask.count_ones()
        || usize::from(rd.base) + usize::from(rd.count) > 64
        || usize::from(w.base) + usize::from(w.count) > 64
    {
        return Err(r.unsupported(format!(
            "staging runs of {} (read) and {} (written) registers; the layout needs {want} \
             and {}",
            rd.count,
            w.count,
            mask.count_ones()
        )));
    }
    Ok(Op::Tex(Box::new(TexMsg {
        fetch,
        gather,
        lod,
        dims,
        array,
        offset,
        mask,
        image: r.pair(0)?[0],
        read: rd.base,
        write: w.base,
    })))
}

impl Warp<'_> {
    /// Executes texture message `m` for the lanes in `active`.
    pub(crate) fn texture(&mut self, m: &TexMsg, memory: &Memory, active: u16) {
        let image = self.get(m.image);
        let n = m.dims + usize::from(m.array) + usize::from(m.offset);
        let n = n + usize::from(matches!(m.lod, LodMode::Explicit | LodMode::ComputedBias));
        let regs: Vec<[u32; 16]> = (0..n)
            .map(|k| self.regs[(usize::from(m.read) + k) & 63])
            .collect();
        let mut out = [[0u32; 4]; 16];
        for (l, o) in out.iter_mut().enumerate() {
            if active >> l & 1 == 0 {
                continue;
            }
            let word = image[l];
            let tables_ok = word >> 27 == TEXTURE_TABLE && (word >> 11) & 0x1F == SAMPLER_TABLE;
            let tex = memory.texture((word >> 16) & MAX_INDEX);
            let sampler = memory.texture(word & MAX_INDEX);
            let (Some(tex), true) = (tex, tables_ok) else {
                continue;
            };
            *o = match (m.fetch, sampler, m.gather) {
                (true, _, _) => fetch(m, tex, &regs, l),
                (false, Some(s), Some(k)) => gather(m, tex, s, &regs, l, k),
                (false, Some(s), None) => sample(m, tex, s, &regs, l, active),
                (false, None, _) => [0; 4],
            };
        }
        let mut j = 0;
        for c in 0..4 {
            if m.mask >> c & 1 == 0 {
                continue;
            }
            let r = &mut self.regs[(usize::from(m.write) + j) & 63];
            for (l, o) in out.iter().enumerate() {
                if active >> l & 1 != 0 {
                    r[l] = o[c];
                }
            }
            j += 1;
        }
    }
}

/// Register `k` of the read run in lane `l`.
fn reg(regs: &[[u32; 16]], k: usize, l: usize) -> u32 {
    regs.get(k).map_or(0, |r| r[l])
}

/// The signed texel offsets of OFFSETMS (zeros without `texel_offset`) and its byte 3.
fn offsets(m: &TexMsg, regs: &[[u32; 16]], l: usize) -> ([i64; 3], u32) {
    if !m.offset {
        return ([0; 3], 0);
    }
    let w = reg(regs, m.dims + usize::from(m.array), l);
    let b = |k: u32| i64::from((w >> (8 * k)) as u8 as i8);
    ([b(0), b(1), b(2)], w >> 24)
}

/// Whether the message's shape is the texture's (else the unit returns zeros).
fn shape_ok(m: &TexMsg, tex: &Texture) -> bool {
    tex.target.dims() == m.dims && tex.target.layer_axis().is_some() == m.array
}

/// `TEX_FETCH` for lane `l` (module docs).
fn fetch(m: &TexMsg, tex: &Texture, regs: &[[u32; 16]], l: usize) -> [u32; 4] {
    if !shape_ok(m, tex) {
        return [0; 4];
    }
    let (off, level) = offsets(m, regs, l);
    let level = level as usize;
    if level >= tex.levels.len() {
        return [0; 4];
    }
    let size = tex.level_size(level);
    let mut at = [0u32; 3];
    for a in 0..m.dims {
        let v = i64::from(reg(regs, a, l) as i32) + off[a];
        if v < 0 || v >= i64::from(size[a]) {
            return [0; 4];
        }
        at[a] = v as u32;
    }
    if let Some(a) = tex.target.layer_axis() {
        let v = reg(regs, m.dims, l);
        if v >= size[a] {
            return [0; 4];
        }
        at[a] = v;
    }
    tex.texel(level, at[0], at[1], at[2])
}

/// `s` as a texel index on an axis of `size` texels (module docs: f32 product, 8-bit
/// sub-texel fixed point, integer part).
fn texel_index(s: f32, size: u32, rect: bool) -> i64 {
    let u = if rect { s } else { s * size as f32 };
    fixed_floor(u, 0)
}

/// `floor(u - bias / 256)` with `u` rounded to 8 fractional bits first (module docs).
/// From 2^40 texels on, where an f32 has no fractional bits anyway, the integer part
/// saturates to the i64 range instead (infinities included; NaN gives 0).
fn fixed_floor(u: f32, bias: i64) -> i64 {
    if u.abs() < (1u64 << 40) as f32 {
        let fixed = (f64::from(u) * 256.0).round() as i64;
        (fixed - bias) >> 8
    } else {
        u.floor() as i64
    }
}

/// The level of detail `lambda` of lane `l` in signed 8.8 fixed point (module docs).
fn lambda_88(m: &TexMsg, tex: &Texture, regs: &[[u32; 16]], l: usize, active: u16) -> Option<i32> {
    let lod_reg = m.dims + usize::from(m.array) + usize::from(m.offset);
    let given = i32::from(reg(regs, lod_reg, l) as u16 as i16);
    let computed = || {
        let mut rho = 0f32;
        for nb in [l ^ 1, l ^ 2] {
            if active >> nb & 1 == 0 {
                continue;
            }
            let mut sq = 0f32;
            for a in 0..m.dims {
                let d = f32::from_bits(reg(regs, a, nb)) - f32::from_bits(reg(regs, a, l));
                let scale = if tex.target == Target::Rect {
                    1.0
                } else {
                    tex.size[a] as f32
                };
                sq += (d * scale) * (d * scale);
            }
            rho = rho.max(sq.sqrt());
        }
        let lambda = rho.log2();
        if lambda.is_nan() {
            0
        } else {
            (lambda * 256.0).round().clamp(-32768.0, 32767.0) as i32
        }
    };
    match m.lod {
        LodMode::Zero => None,
        LodMode::Explicit => Some(given),
        LodMode::Computed => Some(computed()),
        LodMode::ComputedBias => Some(computed().saturating_add(given)),
    }
}

/// `TEX_SINGLE` for lane `l` with sampler state from `sampler` (module docs).
fn sample(
    m: &TexMsg,
    tex: &Texture,
    sampler: &Texture,
    regs: &[[u32; 16]],
    l: usize,
    active: u16,
) -> [u32; 4] {
    if !shape_ok(m, tex) || tex.target == Target::Buffer {
        return [0; 4];
    }
    let last = tex.levels.len() - 1;
    let level = match lambda_88(m, tex, regs, l, active) {
        _ if sampler.min_filter == MinFilter::Nearest => 0,
        None => 0,
        Some(x) if x <= 128 => 0,
        Some(x) => (((x + 128 + 255) >> 8) - 1).clamp(0, last as i32) as usize,
    };
    let size = tex.level_size(level);
    let (off, _) = offsets(m, regs, l);
    let rect = tex.target == Target::Rect;
    let mut at = [0u32; 3];
    for a in 0..m.dims {
        let s = f32::from_bits(reg(regs, a, l));
        let i = texel_index(s, size[a], rect).saturating_add(off[a]);
        at[a] = sampler.wrap[a].apply(i, size[a]);
    }
    if let Some(a) = tex.target.layer_axis() {
        at[a] = reg(regs, m.dims, l).min(size[a] - 1);
    }
    tex.texel(level, at[0], at[1], at[2])
}

/// `TEX_GATHER` of component `k` for lane `l`: the 2x2 footprint LINEAR filtering reads
/// on level 0 (OpenGL 3.x equations 3.23-3.25): `i0 = wrap(floor(u - 1/2) + offset)`,
/// `i1 = wrap(floor(u - 1/2) + offset + 1)` on both axes, `u - 1/2` in the unit's 8-bit
/// fixed point; result `(T(i0, j1), T(i1, j1), T(i1, j0), T(i0, j0))` (ARB_texture_gather
/// order, as tgsi.rst TG4 describes).
fn gather(
    m: &TexMsg,
    tex: &Texture,
    sampler: &Texture,
    regs: &[[u32; 16]],
    l: usize,
    k: u8,
) -> [u32; 4] {
    if !shape_ok(m, tex) || m.dims != 2 {
        return [0; 4];
    }
    let size = tex.level_size(0);
    let (off, _) = offsets(m, regs, l);
    let rect = tex.target == Target::Rect;
    let mut pair = [(0u32, 0u32); 2];
    for (a, p) in pair.iter_mut().enumerate() {
        let s = f32::from_bits(reg(regs, a, l));
        let u = if rect { s } else { s * size[a] as f32 };
        let f = fixed_floor(u, 128).saturating_add(off[a]);
        let w = sampler.wrap[a];
        *p = (w.apply(f, size[a]), w.apply(f.saturating_add(1), size[a]));
    }
    let layer = match tex.target.layer_axis() {
        Some(a) => reg(regs, m.dims, l).min(size[a] - 1),
        None => 0,
    };
    let [(i0, i1), (j0, j1)] = pair;
    let t = |i, j| tex.texel(0, i, j, layer)[usize::from(k & 3)];
    [t(i0, j1), t(i1, j1), t(i1, j0), t(i0, j0)]
}

#[cfg(test)]
mod tests {
    //! The unit's arithmetic, hand-worked (texel `n` of level `l` holds `[100 l + n; 4]`).
    use super::*;
    use shaderdiff_model::texture::{Format, Wrap};

    fn tex(target: Target, size: [u32; 3], levels: usize, wrap: Wrap) -> Texture {
        Texture::filled(target, Format::Rgba32Ui, size, levels, wrap, |l, n| {
            [100 * l as u32 + n; 4]
        })
    }

    fn msg(fetch: bool, lod: LodMode, dims: usize, array: bool, offset: bool) -> TexMsg {
        TexMsg {
            fetch,
            gather: None,
            lod,
            dims,
            array,
            offset,
            mask: 0xF,
            image: Val::Imm(0),
            read: 0,
            write: 0,
        }
    }

    /// One lane's read run (lane 0) from `words`.
    fn regs(words: &[u32]) -> Vec<[u32; 16]> {
        words.iter().map(|&w| [w; 16]).collect()
    }

    #[test]
    fn texel_index_fixed_point() {
        // s = 0.375 on 4 texels: u = 1.5 → 384/256 → texel 1.
        assert_eq!(texel_index(0.375, 4, false), 1);
        // u = -0.4: fixed round(-102.4) = -102 → floor(-102/256) = -1.
        assert_eq!(texel_index(-0.1, 4, false), -1);
        // u = 2.999: round(767.744) = 768 → 3 (within 2^-9 of the edge: either texel).
        assert_eq!(texel_index(2.999 / 4.0, 4, false), 3);
        // RECT: u = s = 2.5 → 2.
        assert_eq!(texel_index(2.5, 4, true), 2);
        // NaN → 0; +inf and |u| >= 2^40 saturate to the i64 range (no fixed point).
        assert_eq!(texel_index(f32::NAN, 4, false), 0);
        assert_eq!(texel_index(f32::INFINITY, 4, false), i64::MAX);
        assert_eq!(texel_index(-1e30, 4, false), i64::MIN);
        // 2^40 exactly is an integer: itself.
        assert_eq!(texel_index(2f32.powi(40), 1, true), 1 << 40);
    }

    #[test]
    fn explicit_lod_levels() {
        // 4x4 with 3 levels, TXL at (0.8, 0.8). lambda 1.0 = 0x100 in 8.8 → ceil(1.5) - 1
        // = 1 → level 1 (2x2): (1.6, 1.6) → (1, 1) → texel 3 → 103.
        let t = tex(Target::T2D, [4, 4, 1], 3, Wrap::ClampToEdge);
        let m = msg(false, LodMode::Explicit, 2, false, false);
        let c = 0.8f32.to_bits();
        assert_eq!(sample(&m, &t, &t, &regs(&[c, c, 0x100]), 0, 1), [103; 4]);
        // lambda 0.5 (0x80) → level 0: (3.2, 3.2) → texel 3 + 4·3 = 15.
        assert_eq!(sample(&m, &t, &t, &regs(&[c, c, 0x80]), 0, 1), [15; 4]);
        // lambda -2.0 = 0xFE00 (i16 -512) → level 0.
        assert_eq!(sample(&m, &t, &t, &regs(&[c, c, 0xFE00]), 0, 1), [15; 4]);
        // lambda 16 (0x1000) → clamped to the last level 2 (1x1) → 200.
        assert_eq!(sample(&m, &t, &t, &regs(&[c, c, 0x1000]), 0, 1), [200; 4]);
        // NEAREST minification ignores lambda.
        let mut n = t.clone();
        n.min_filter = MinFilter::Nearest;
        assert_eq!(sample(&m, &n, &n, &regs(&[c, c, 0x1000]), 0, 1), [15; 4]);
    }

    #[test]
    fn wrap_offsets_and_layers() {
        // 1D width 4 REPEAT, s = 0.375 → texel 1; offset -3 (byte 0xFD) → -2 mod 4 = 2.
        let r = tex(Target::T1D, [4, 1, 1], 1, Wrap::Repeat);
        let m = msg(false, LodMode::Zero, 1, false, true);
        assert_eq!(
            sample(&m, &r, &r, &regs(&[0.375f32.to_bits(), 0xFD]), 0, 1),
            [2; 4]
        );
        // CLAMP_TO_EDGE: -2 → 0.
        let c = tex(Target::T1D, [4, 1, 1], 1, Wrap::ClampToEdge);
        assert_eq!(
            sample(&m, &c, &c, &regs(&[0.375f32.to_bits(), 0xFD]), 0, 1),
            [0; 4]
        );
        // ARRAY2D 2x2 with 3 layers: (0.25, 0.75) → (0, 1), layer register 7 → clamped to
        // 2: texel 0 + 2·(1 + 2·2) = 10.
        let a = tex(Target::Array2D, [2, 2, 3], 1, Wrap::Repeat);
        let m = msg(false, LodMode::Zero, 2, true, false);
        let q = regs(&[0.25f32.to_bits(), 0.75f32.to_bits(), 7]);
        assert_eq!(sample(&m, &a, &a, &q, 0, 1), [10; 4]);
    }

    #[test]
    fn fetch_levels_offsets_and_range() {
        // 4x2 with 2 levels. (3, 1) level 0 → 3 + 4 = 7.
        let t = tex(Target::T2D, [4, 2, 1], 2, Wrap::Repeat);
        let m = msg(true, LodMode::Zero, 2, false, true);
        assert_eq!(fetch(&m, &t, &regs(&[3, 1, 0]), 0), [7; 4]);
        // Level 1 (2x1) in byte 3: (1, 0) → 101.
        assert_eq!(fetch(&m, &t, &regs(&[1, 0, 1 << 24]), 0), [101; 4]);
        // Offset (2, 1) added to (1, 0): (3, 1) → 7; (1, 0) + (3, 0) = (4, 0) → outside.
        assert_eq!(fetch(&m, &t, &regs(&[1, 0, 0x0102]), 0), [7; 4]);
        assert_eq!(fetch(&m, &t, &regs(&[1, 0, 0x0003]), 0), [0; 4]);
        // Level 2 does not exist → zeros.
        assert_eq!(fetch(&m, &t, &regs(&[0, 0, 2 << 24]), 0), [0; 4]);
    }

    #[test]
    fn gather_footprints() {
        // 4x4 REPEAT, texel n = x + 4y holds [n, 0x100 + n, ...]: component 1 (G).
        // (0.4, 0.6): u - 1/2 = 1.1, v - 1/2 = 1.9 → i0 = 1, i1 = 2, j0 = 1, j1 = 2 →
        // T(1, 2) = 9, T(2, 2) = 10, T(2, 1) = 6, T(1, 1) = 5.
        let t = Texture::filled(
            Target::T2D,
            Format::Rgba32Ui,
            [4, 4, 1],
            1,
            Wrap::Repeat,
            |_, n| [n, 0x100 + n, 0x200 + n, 0x300 + n],
        );
        let m = msg(false, LodMode::Zero, 2, false, false);
        let q = regs(&[0.4f32.to_bits(), 0.6f32.to_bits()]);
        assert_eq!(gather(&m, &t, &t, &q, 0, 1), [0x109, 0x10A, 0x106, 0x105]);
        // (0, 0): u - 1/2 = -0.5 → floor -1 → i0 = 3, i1 = 0 (REPEAT), same for j:
        // T(3, 0) = 3, T(0, 0) = 0, T(0, 3) = 12, T(3, 3) = 15; component 3 (A).
        let q = regs(&[0, 0]);
        assert_eq!(gather(&m, &t, &t, &q, 0, 3), [0x303, 0x300, 0x30C, 0x30F]);
        // Offset (1, 0) on (0.4, 0.6): i0 = 2, i1 = 3 → T(2, 2) = 10, T(3, 2) = 11,
        // T(3, 1) = 7, T(2, 1) = 6.
        let m = msg(false, LodMode::Zero, 2, false, true);
        let q = regs(&[0.4f32.to_bits(), 0.6f32.to_bits(), 1]);
        assert_eq!(gather(&m, &t, &t, &q, 0, 0), [10, 11, 7, 6]);
    }

    #[test]
    fn computed_lod_from_the_quad() {
        // 8x8 with 4 levels, lanes 0..3 a quad with s = 0, 0.25, 0, 0.25 (x steps of
        // 0.25 · 8 = 2 texels), t constant: rho = 2 → lambda 1 → level 1.
        let t = tex(Target::T2D, [8, 8, 1], 4, Wrap::ClampToEdge);
        let m = msg(false, LodMode::Computed, 2, false, false);
        let mut q = vec![[0u32; 16]; 2];
        q[0][..4].copy_from_slice(&[0.0f32, 0.25, 0.0, 0.25].map(f32::to_bits));
        q[1][..4].copy_from_slice(&[0.3f32.to_bits(); 4]);
        assert_eq!(lambda_88(&m, &t, &q, 0, 0xF), Some(256));
        // Level 1 (4x4) at lane 0: (0, 1.2) → (0, 1) → texel 4 → 104.
        assert_eq!(sample(&m, &t, &t, &q, 0, 0xF), [104; 4]);
        // Alone in its quad: no difference, rho 0, lambda -inf → level 0.
        assert_eq!(sample(&m, &t, &t, &q, 0, 0x1), [16; 4]);
    }
}
