//! The per-lane semantics of the texture instructions (what one lane's TEX, TXP, TXB, TXL,
//! TXF or TXQ returns and which of its channels are undefined), as listed in the
//! `texture` module docs and README "Textures". Decoding and the lane loop are in
//! `texture`.

use std::ops::RangeInclusive;

use shaderdiff_ir::Stage;

use super::tex_lod::QuadLod;
use super::texture::{TexOp, TexRef};
use crate::io::Vec4;
use crate::texture::{MinFilter, Target, Texture, Wrap};

/// One lane's result: the words and the undefined channels (bit c = channel c).
pub(crate) type LaneResult = (Vec4, u8);

/// Every channel (undefined mask).
pub(crate) const ALL: u8 = 0xF;

/// The candidate results of one lane (texels an implementation may read, footprints it may
/// gather): the first one is the value, and a channel where any two differ is undefined;
/// no candidate at all leaves every channel undefined.
#[derive(Default)]
pub(crate) struct Candidates {
    first: Option<Vec4>,
    und: u8,
}

impl Candidates {
    /// Adds one candidate result.
    pub fn add(&mut self, v: Vec4) {
        match self.first {
            None => self.first = Some(v),
            Some(r) => {
                for ch in 0..4 {
                    if r[ch] != v[ch] {
                        self.und |= 1 << ch;
                    }
                }
            }
        }
    }

    /// Makes every channel undefined (a candidate with no defined value, e.g. a NaN depth
    /// comparison).
    pub fn undefined(&mut self) {
        self.und = ALL;
    }

    /// The lane's result.
    pub fn finish(self) -> LaneResult {
        match self.first {
            Some(v) => (v, self.und),
            None => ([0; 4], ALL),
        }
    }
}

/// The smallest texel offset every implementation supports (NV_gpu_program4 state table:
/// MIN_PROGRAM_TEXEL_OFFSET_EXT is at most -8).
pub const MIN_TEXEL_OFFSET: i32 = -8;
/// The largest texel offset every implementation supports (MAX_PROGRAM_TEXEL_OFFSET_EXT is
/// at least +7).
pub const MAX_TEXEL_OFFSET: i32 = 7;

/// Executes texture instruction `r` for one lane with source words `src` (all four channels),
/// TXD's derivatives `derivs` (`[d(s,t,r)/dx, d(s,t,r)/dy]`, `None` for other opcodes),
/// TG4's component `comp` (ignored by other opcodes) and
/// texel offset `off` (`(u, v, w)` texels, zeros without an offset operand) on `tex` (the
/// unit's texture, if any), in a program of stage `stage`.
///
/// Texel offsets (NV_gpu_program4 §2.X.4.4 and §3.8.8 edits, NV_gpu_program5 §2.X.4.4):
/// added to the texel coordinates `u`, `v`, `w` of the level sampled (TXF: to `i`, `j`,
/// `k`) before wrapping or the range check; components the target has no coordinate for
/// (and the layer) are ignored; a used component outside
/// [`MIN_TEXEL_OFFSET`]..=[`MAX_TEXEL_OFFSET`] makes the result undefined (NV_gpu_program5:
/// "outside implementation-dependent limits, the results ... are undefined").
#[cfg(test)]
pub(crate) fn eval(
    r: &TexRef,
    stage: Stage,
    tex: Option<&Texture>,
    src: Vec4,
    derivs: Option<[[f32; 3]; 2]>,
    comp: u32,
    off: [i32; 3],
) -> LaneResult {
    eval_with(r, stage, tex, src, derivs, comp, off, None)
}

/// [`eval`] with the implicit level of detail `quad` of the lane's fragment quad
/// (`tex_lod`; used by TEX, TXP and TXB in fragment programs, `None` elsewhere).
#[allow(clippy::too_many_arguments)]
pub(crate) fn eval_with(
    r: &TexRef,
    stage: Stage,
    tex: Option<&Texture>,
    src: Vec4,
    derivs: Option<[[f32; 3]; 2]>,
    comp: u32,
    off: [i32; 3],
    quad: Option<&QuadLod>,
) -> LaneResult {
    let Some(tex) = tex else {
        return ([0; 4], ALL);
    };
    let cube = matches!(tex.target, Target::Cube | Target::CubeArray);
    if r.op == TexOp::Txq {
        if cube {
            return super::tex_cube::query(tex, src[0] as i32);
        }
        return query(tex, src[0] as i32);
    }
    if r.op == TexOp::Txqs {
        return super::tex_ms::query_samples(tex);
    }
    if r.ret.is_some_and(|t| t != tex.format.return_type()) {
        return ([0; 4], ALL);
    }
    // A SHADOW target on a texture without a compare function, or another target on one
    // with it: undefined (NV_gpu_program4 §2.X.4.4; ARB_fragment_program_shadow).
    if r.reference.is_some() != tex.compare.is_some() {
        return ([0; 4], ALL);
    }
    let dims = tex.target.dims();
    if off[..dims]
        .iter()
        .any(|o| !(MIN_TEXEL_OFFSET..=MAX_TEXEL_OFFSET).contains(o))
    {
        return ([0; 4], ALL);
    }
    match r.op {
        TexOp::Txf if tex.target.multisample() => {
            super::tex_ms::fetch_sample(tex, src.map(|w| w as i32), off)
        }
        TexOp::Txf => fetch(tex, src.map(|w| w as i32), off),
        TexOp::Tg4 => super::tex_gather::gather(tex, src.map(f32::from_bits), comp, off),
        _ if cube => {
            super::tex_cube::sample(r.op, stage, tex, src.map(f32::from_bits), r.reference)
        }
        _ => sample(r, stage, tex, src.map(f32::from_bits), derivs, off, quad),
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

/// TXF (module docs) with texel offset `off` added to `(i, j, k)` (not to the layer).
fn fetch(tex: &Texture, c: [i32; 4], off: [i32; 3]) -> LaneResult {
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
    let dims = tex.target.dims();
    let used = dims + tex.target.layer_axis().is_some() as usize;
    let mut at = [0u32; 3];
    for a in 0..used {
        let v = i64::from(c[a]) + if a < dims { i64::from(off[a]) } else { 0 };
        if v < 0 || v >= i64::from(size[a]) {
            return ([0; 4], ALL);
        }
        at[a] = v as u32;
    }
    (tex.texel(level, at[0], at[1], at[2]), 0)
}

/// Width of the band around a texel edge or level boundary where either side may be chosen.
pub(super) const EDGE: f64 = 1.0 / 256.0;

/// The candidate array layers of layer coordinate `r` in a texture of `n` layers:
/// `clamp(floor(r + 0.5), 0, n - 1)` (NV_gpu_program4 §2.X.4.4), with `r + 0.5` known
/// within single-precision rounding; `None` (undefined) when `r` is not finite.
pub(super) fn layers(r: f64, n: u32) -> Option<Vec<u32>> {
    if !r.is_finite() {
        return None;
    }
    let x = r + 0.5;
    let band = (x.abs() + 1.0) / (1u64 << 20) as f64;
    let f = floors(x, band);
    // Clamped to the layers: only the ends of the range matter (a huge `r` has a huge band).
    let top = i64::from(n).max(1) - 1;
    let (a, b) = (f.start().clamp(&0, &top), f.end().clamp(&0, &top));
    Some((*a..=*b).map(|l| l as u32).collect())
}

/// The candidate integers `floor(x)` for `x` known within `± band`, as a range. For a
/// huge `x` (the band grows with it) the range is huge too: callers cut it with
/// [`wrapped`] before walking it.
pub(super) fn floors(x: f64, band: f64) -> RangeInclusive<i64> {
    // Far outside i64 the start is clamped to ±2^62 but the width is kept (up to 2^62), so
    // a range of more integers than a texture has stays one: every remainder.
    const BIG: f64 = (1u64 << 62) as f64;
    let (lo, hi) = ((x - band).floor(), (x + band).floor());
    let start = lo.clamp(-BIG, BIG) as i64;
    start..=start.saturating_add((hi - lo).min(BIG) as i64)
}

/// The texel indices `r + off` may stand for on an axis of `size` texels wrapped by
/// `wrap` (OpenGL 3.x §3.8.8 eq. 3.19 / Table 3.19: clamp to `[0, size - 1]`, or the
/// remainder modulo `size`), as a range of at most `size + 2` integers `i` whose pairs
/// `(wrap(i), wrap(i + 1))` are those of the whole shifted range: clamped ends at `-1` and
/// `size` (everything beyond wraps to the same pairs), or `size + 1` consecutive integers
/// (every remainder) when the range is longer.
pub(super) fn wrapped(
    r: RangeInclusive<i64>,
    off: i32,
    wrap: Wrap,
    size: u32,
) -> RangeInclusive<i64> {
    let (lo, hi) = (
        r.start().saturating_add(i64::from(off)),
        r.end().saturating_add(i64::from(off)),
    );
    let n = i64::from(size);
    match wrap {
        Wrap::ClampToEdge => lo.clamp(-1, n)..=hi.clamp(-1, n),
        Wrap::Repeat => lo..=hi.min(lo.saturating_add(n)),
    }
}

/// The levels a level of detail in `[lo, hi]` may select (module docs; `lo == hi` for an
/// exact `lambda`), widened by the `2^-8` band at level boundaries; empty when undefined
/// (NaN).
pub(super) fn levels_for(tex: &Texture, lo: f64, hi: f64) -> Vec<usize> {
    if tex.min_filter == MinFilter::Nearest {
        return vec![0];
    }
    if lo.is_nan() || hi.is_nan() {
        return Vec::new();
    }
    let last = tex.levels.len() as i64 - 1;
    // OpenGL 3.x §3.8.8 NEAREST_MIPMAP_NEAREST: d = 0 for lambda <= 1/2, else
    // ceil(lambda + 1/2) - 1, clamped to the last level; monotone in lambda.
    let pick = |l: f64| -> i64 {
        if l <= 0.5 {
            0
        } else {
            ((l + 0.5).ceil().min(1e9) as i64 - 1).min(last)
        }
    };
    let (a, b) = (pick(lo - EDGE), pick(hi + EDGE));
    (a.clamp(0, last) as usize..=b.clamp(0, last) as usize).collect()
}

/// TXD's level of detail bounds `[log2 rho_min, log2 rho_max]` (module docs: OpenGL 3.x
/// §3.8.8 equations 3.18-3.20 and the approximations it allows) for derivatives `d` of
/// `(s, t, r)` on `tex`; NaN when a derivative is NaN.
fn txd_lambda(tex: &Texture, d: [[f32; 3]; 2]) -> (f64, f64) {
    let m = d.map(|dir| dir.map(|v| f64::from(v).abs()));
    lod_bounds(tex, m, m)
}

/// The level of detail bounds `[log2 rho_min, log2 rho_max]` of OpenGL 3.x §3.8.8
/// (equations 3.18-3.20, `rho` approximated by any `f` between the largest component and
/// the sum of the components, per direction): derivative magnitudes `|d(s,t,r)/dx|`,
/// `|d(s,t,r)/dy|` known to lie between `lo` and `hi` (componentwise, `lo <= hi`; equal
/// for exact derivatives), scaled by the level-0 size (RECT unscaled, the layer
/// excluded). NaN when a derivative is NaN.
pub(super) fn lod_bounds(tex: &Texture, lo: [[f64; 3]; 2], hi: [[f64; 3]; 2]) -> (f64, f64) {
    let t = tex.target;
    let mut rho_lo = 0f64;
    let mut rho_hi = 0f64;
    for (dl, dh) in lo.iter().zip(&hi) {
        let (mut mx, mut sum) = (0f64, 0f64);
        for a in 0..t.dims() {
            if dl[a].is_nan() || dh[a].is_nan() {
                return (f64::NAN, f64::NAN);
            }
            let scale = if t == Target::Rect {
                1.0
            } else {
                tex.size[a] as f64
            };
            mx = mx.max(dl[a] * scale);
            sum += dh[a] * scale;
        }
        rho_lo = rho_lo.max(mx);
        rho_hi = rho_hi.max(sum);
    }
    (rho_lo.log2(), rho_hi.log2())
}

/// Whether TXP's division by `q` has a bound: the division is the shader's `x / q`, whose
/// precision Vulkan states only for `|q|` in [2^-126, 2^126] (oracle/precision.toml
/// [op.DIV] gpu: "outside that range Vulkan states no bound"; an engine may compute it as
/// `x * rcp(q)`, as Mesa's NIR `lower_txp` does, and a denormal `q` then gives an infinite
/// reciprocal). Outside that range (zero, denormals, huge values, infinities, NaN) the
/// coordinates, and so the sampled texel, are undefined.
pub(crate) fn txp_divisor_defined(q: f32) -> bool {
    let a = q.abs();
    (f32::MIN_POSITIVE..=2f32.powi(126)).contains(&a)
}

/// TEX / TXP / TXB / TXL with NEAREST filtering (module docs); texel offset `off` is added
/// to `u`, `v`, `w` of the level sampled (NV_gpu_program4 §3.8.8 edit:
/// `u = w_t * s + offsetu_shader`); a SHADOW target compares each texel with the reference
/// (`tex_shadow`; TXP's `z / w` known within single-precision division rounding).
fn sample(
    r: &TexRef,
    stage: Stage,
    tex: &Texture,
    c: [f32; 4],
    derivs: Option<[[f32; 3]; 2]>,
    off: [i32; 3],
    quad: Option<&QuadLod>,
) -> LaneResult {
    let op = r.op;
    let mut coord = [c[0] as f64, c[1] as f64, c[2] as f64];
    if op == TexOp::Txp {
        if !txp_divisor_defined(c[3]) {
            return ([0; 4], ALL);
        }
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
    } as f64;
    let (lo, hi) = match derivs {
        Some(d) if op == TexOp::Txd => txd_lambda(tex, d),
        _ => (lambda, lambda),
    };
    let levels = match quad {
        // Implicit derivatives of a fragment quad (`tex_lod`), TXB's bias added.
        Some(q) => super::tex_lod::levels(tex, q, (op == TexOp::Txb).then_some(c[3])),
        None => levels_for(tex, lo, hi),
    };
    let t = tex.target;
    let dims = t.dims();
    let reference = r.reference.map(|k| {
        let v = if k < 3 { coord[k] } else { c[3] as f64 };
        let err = if op == TexOp::Txp {
            v.abs() / (1u64 << 21) as f64
        } else {
            0.0
        };
        (v - err, v + err)
    });
    let mut result = Candidates::default();
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
            let mut v: Vec<u32> = wrapped(floors(u, band), off[a], tex.wrap[a], size[a])
                .map(|i| tex.wrap[a].apply(i, size[a]))
                .collect();
            v.sort_unstable();
            v.dedup();
            cands[a] = v;
        }
        if let Some(a) = t.layer_axis() {
            match layers(coord[a], size[a]) {
                Some(l) => cands[a] = l,
                None => return ([0; 4], ALL),
            }
        }
        for &i in &cands[0] {
            for &j in &cands[1] {
                for &k in &cands[2] {
                    let texel = tex.texel(level, i, j, k);
                    super::tex_shadow::add(&mut result, texel, reference, tex.compare);
                }
            }
        }
    }
    result.finish()
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
            offset: false,
            reference: None,
        }
    }

    fn s(op: TexOp, t: &Texture, c: [f32; 4]) -> LaneResult {
        eval(
            &r(op, t.target),
            Stage::Vertex,
            Some(t),
            c.map(f32::to_bits),
            None,
            0,
            [0; 3],
        )
    }

    fn i(op: TexOp, t: &Texture, c: [i32; 4]) -> LaneResult {
        eval(
            &r(op, t.target),
            Stage::Vertex,
            Some(t),
            c.map(|x| x as u32),
            None,
            0,
            [0; 3],
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

    /// Huge coordinates (regression: the oracle enumerated every integer of the band around
    /// `u = s * size`, which grows with `|u|`, and ran out of memory at s = 1e30 in a
    /// generated NV program): CLAMP_TO_EDGE gives the edge texel (OpenGL 3.x §3.8.8:
    /// `i = clamp(floor(u), 0, w - 1)`), an array layer clamps to the first or last
    /// (NV_gpu_program4 §2.X.4.4: `clamp(floor(r + 0.5), 0, n - 1)`), and REPEAT, whose
    /// texel depends on bits of `u` far below binary32 precision, is undefined.
    #[test]
    fn huge_coordinates_clamp_or_are_undefined() {
        let c = tex(Target::T2D, [4, 4, 1], 1, Wrap::ClampToEdge);
        // (1e30, 0.1): i = 3, j = floor(0.4) = 0 → 3; (-1e30, 0.9): i = 0, j = 3 → 12.
        assert_eq!(s(TexOp::Tex, &c, [1e30, 0.1, 0.0, 0.0]), ([3; 4], 0));
        assert_eq!(s(TexOp::Tex, &c, [-1e30, 0.9, 0.0, 0.0]), ([12; 4], 0));
        let a = tex(Target::Array1D, [4, 3, 1], 1, Wrap::ClampToEdge);
        // x 0.6: floor(2.4) = 2; layer 1e30 → 2: 2 + 4·2 = 10; layer -1e30 → 0: 2.
        assert_eq!(s(TexOp::Tex, &a, [0.6, 1e30, 0.0, 0.0]), ([10; 4], 0));
        assert_eq!(s(TexOp::Tex, &a, [0.6, -1e30, 0.0, 0.0]), ([2; 4], 0));
        let r = tex(Target::T1D, [4, 1, 1], 1, Wrap::Repeat);
        assert_eq!(s(TexOp::Tex, &r, [1e30, 0.0, 0.0, 0.0]).1, ALL);
        // A texel offset on a huge coordinate saturates instead of overflowing: still the
        // edge texel.
        assert_eq!(
            so(TexOp::Tex, &c, [1e30, 0.1, 0.0, 0.0], [7, 0, 0]),
            ([3; 4], 0)
        );
    }

    /// TXP's division has a bound only for |q| in [2^-126, 2^126] (precision.toml [op.DIV]
    /// gpu, Vulkan's OpFDiv): with a denormal, zero, huge or infinite q the texel is
    /// undefined; at the range's ends it is the divided coordinate's.
    #[test]
    fn txp_with_q_outside_the_division_range_is_undefined() {
        let t = tex(Target::T2D, [4, 4, 1], 1, Wrap::ClampToEdge);
        let tiny = f32::from_bits(0x0000_001f); // a denormal
        for q in [
            0.0,
            -0.0,
            tiny,
            -tiny,
            2f32.powi(127),
            f32::INFINITY,
            f32::NAN,
        ] {
            assert_eq!(s(TexOp::Txp, &t, [0.5, 0.5, 0.0, q]).1, ALL, "q = {q:e}");
        }
        // q = 2^126: (1.5·2^124, 1.5·2^124) / q = (0.375, 0.375) → u = v = 1.5 → (1, 1) → 5.
        let m = 2f32.powi(126);
        let c = 1.5 * 2f32.powi(124);
        assert_eq!(s(TexOp::Txp, &t, [c, c, 0.0, m]), ([5; 4], 0));
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
            eval(
                &r(TexOp::Txq, Target::T2D),
                Stage::Vertex,
                None,
                [0; 4],
                None,
                0,
                [0; 3]
            )
            .1,
            ALL
        );
    }

    fn so(op: TexOp, t: &Texture, c: [f32; 4], off: [i32; 3]) -> LaneResult {
        eval(
            &r(op, t.target),
            Stage::Vertex,
            Some(t),
            c.map(f32::to_bits),
            None,
            0,
            off,
        )
    }

    #[test]
    fn texel_offsets_shift_the_texel() {
        // NV_gpu_program4 §3.8.8 edit: u = w_t * s + offsetu. 1D width 4, s = 0.375:
        // u = 1.5 → texel 1; offset +2 → u = 3.5 → texel 3; offset -3 → u = -1.5 → floor -2
        // → CLAMP_TO_EDGE 0, REPEAT -2 mod 4 = 2.
        let c = tex(Target::T1D, [4, 1, 1], 1, Wrap::ClampToEdge);
        let rp = tex(Target::T1D, [4, 1, 1], 1, Wrap::Repeat);
        let p = [0.375, 0.0, 0.0, 0.0];
        assert_eq!(so(TexOp::Tex, &c, p, [2, 0, 0]), ([3; 4], 0));
        assert_eq!(so(TexOp::Tex, &c, p, [-3, 0, 0]), ([0; 4], 0));
        assert_eq!(so(TexOp::Tex, &rp, p, [-3, 0, 0]), ([2; 4], 0));
        // The y and z components are ignored for a 1D target (NV_gpu_program5 §2.X.4.4),
        // even out of range.
        assert_eq!(so(TexOp::Tex, &c, p, [2, 100, -100]), ([3; 4], 0));
        // 2D 4x4 level 1 (2x2) via TXL lambda 1: (0.3, 0.8) → u = 0.6, v = 1.6 → (0, 1);
        // offset (1, -1) → (1, 0) → texel 1 of level 1 = 101.
        let m = tex(Target::T2D, [4, 4, 1], 3, Wrap::ClampToEdge);
        assert_eq!(
            so(TexOp::Txl, &m, [0.3, 0.8, 0.0, 1.0], [1, -1, 0]),
            ([101; 4], 0)
        );
        // RECT: u = s + offset: (1.5, 0.5) + (1, 1) = (2.5, 1.5) → (2, 1) of 4x2 = 6.
        let rect = tex(Target::Rect, [4, 2, 1], 1, Wrap::ClampToEdge);
        assert_eq!(
            so(TexOp::Tex, &rect, [1.5, 0.5, 0.0, 0.0], [1, 1, 0]),
            ([6; 4], 0)
        );
        // ARRAY1D: the layer (y) takes no offset: (0.125, layer 1) of 4 x 2 layers,
        // offset (1, 5) → texel 1 of layer 1 = 1 + 4 = 5.
        let a = tex(Target::Array1D, [4, 2, 1], 1, Wrap::ClampToEdge);
        assert_eq!(
            so(TexOp::Tex, &a, [0.125, 1.0, 0.0, 0.0], [1, 5, 0]),
            ([5; 4], 0)
        );
    }

    #[test]
    fn texel_offsets_out_of_range_are_undefined() {
        // Limits -8 and +7 (MIN/MAX_PROGRAM_TEXEL_OFFSET_EXT); beyond: undefined.
        let c = tex(Target::T2D, [16, 16, 1], 1, Wrap::Repeat);
        let p = [0.53125, 0.53125, 0.0, 0.0];
        // u = v = 0.53125 * 16 = 8.5 → 8; offset -8 → 0, +7 → 15: (0, 8) = 128, (15, 8) = 143.
        assert_eq!(so(TexOp::Tex, &c, p, [-8, 0, 0]), ([128; 4], 0));
        assert_eq!(so(TexOp::Tex, &c, p, [7, 0, 0]), ([143; 4], 0));
        assert_eq!(so(TexOp::Tex, &c, p, [8, 0, 0]).1, ALL);
        assert_eq!(so(TexOp::Tex, &c, p, [0, -9, 0]).1, ALL);
    }

    #[test]
    fn txf_with_offsets() {
        // TXF (i, j) + offset, then the Table X.18 range check: 4x2 level 0,
        // (1, 0) + (2, 1) = (3, 1) → 3 + 4 = 7; (1, 0) + (3, 0) = (4, 0) → undefined.
        let t = tex(Target::T2D, [4, 2, 1], 1, Wrap::Repeat);
        let f = |c: [i32; 4], off| {
            eval(
                &r(TexOp::Txf, t.target),
                Stage::Vertex,
                Some(&t),
                c.map(|x| x as u32),
                None,
                0,
                off,
            )
        };
        assert_eq!(f([1, 0, 0, 0], [2, 1, 0]), ([7; 4], 0));
        assert_eq!(f([1, 0, 0, 0], [3, 0, 0]).1, ALL);
        assert_eq!(f([1, 0, 0, 0], [-2, 0, 0]).1, ALL);
    }

    fn txd(t: &Texture, c: [f32; 2], dx: [f32; 3], dy: [f32; 3]) -> LaneResult {
        eval(
            &r(TexOp::Txd, t.target),
            Stage::Fragment,
            Some(t),
            [c[0], c[1], 0.0, 0.0].map(f32::to_bits),
            Some([dx, dy]),
            0,
            [0; 3],
        )
    }

    #[test]
    fn txd_level_of_detail() {
        // 8x8 with levels 8x8, 4x4, 2x2, 1x1; coordinates (0.3, 0.3) read texel
        // (floor(0.3 * size), same) of the chosen level: level 0 (2, 2) = 18, level 1
        // (1, 1) = 105, level 2 (0, 0) = 200, level 3 (0, 0) = 300.
        let t = tex(Target::T2D, [8, 8, 1], 4, Wrap::ClampToEdge);
        let c = [0.3, 0.3];
        // ds/dx = 1/8, the rest 0: du/dx = 1 → rho = 1 (every approximation agrees:
        // max = sum = 1) → lambda 0 → level 0.
        assert_eq!(txd(&t, c, [0.125, 0.0, 0.0], [0.0; 3]), ([18; 4], 0));
        // du/dx = 8 * 0.25 = 2, dv/dy = 8 * 0.5 = 4 → rho = 4 → lambda 2 →
        // d = ceil(2.5) - 1 = 2 → level 2.
        assert_eq!(txd(&t, c, [0.25, 0.0, 0.0], [0.0, 0.5, 0.0]), ([200; 4], 0));
        // Zero derivatives: rho = 0, lambda = -inf → level 0.
        assert_eq!(txd(&t, c, [0.0; 3], [0.0; 3]), ([18; 4], 0));
        // du/dx = dv/dx = 8 * 0.25 = 2: the exact rho is 2 sqrt 2 (lambda 1.5, on the
        // boundary between levels 1 and 2), and GL allows any f_x from max = 2 (lambda 1,
        // level 1) to sum = 4 (lambda 2, level 2): candidates levels 1 and 2, whose texels
        // differ → undefined.
        assert_eq!(txd(&t, c, [0.25, 0.25, 0.0], [0.0; 3]).1, ALL);
        // du/dx = 8 * 0.375 = 3 alone: rho = 3, lambda = log2 3 = 1.585 → d = ceil(2.085)
        // - 1 = 2; lambda is 0.085 from the 1.5 boundary, outside the 2^-8 band → level 2.
        assert_eq!(txd(&t, c, [0.375, 0.0, 0.0], [0.0; 3]), ([200; 4], 0));
        // rho = 2^5 → lambda 5, clamped to the last level 3.
        assert_eq!(txd(&t, c, [4.0, 0.0, 0.0], [0.0; 3]), ([300; 4], 0));
        // A NaN derivative: undefined.
        assert_eq!(txd(&t, c, [f32::NAN, 0.0, 0.0], [0.0; 3]).1, ALL);
        // NEAREST minification: level 0 whatever the derivatives.
        let mut n = t.clone();
        n.min_filter = MinFilter::Nearest;
        assert_eq!(txd(&n, c, [4.0, 0.0, 0.0], [0.0; 3]), ([18; 4], 0));
    }
}
