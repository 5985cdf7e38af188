//! The implicit level of detail of TEX, TXP, TXB in fragment programs, and LODQ (NV LOD)
//! which returns it.
//!
//! Sources: OpenGL 3.x §3.8.8 (equations 3.16-3.21: `lambda' = log2(rho) + clamp(bias)`,
//! `rho` from the partial derivatives of `(u, v, w)` in window x and y, approximated by
//! any `f` between the largest component and the sum of the components);
//! NV_gpu_program4 §2.X.4.4 / NV_gpu_program5 §2.X.8.Z TEX, TXB, TXP (`ddx =
//! ComputePartialsX(tmp)`, `lambda = ComputeLOD(ddx, ddy)`, TXB `lambda + tmp.w`; "for
//! vertex and geometry programs, these functions always return (0,0,0,0)");
//! tgsi.rst "LODQ"; INTERFACE.md "Fragment quads" and the DDX/DDY rules of this
//! interpreter (`exec.rs` `derivative`).
//!
//! * **Derivatives.** A fragment quad's lanes `(x,y) (x+1,y) (x,y+1) (x+1,y+1)` give the
//!   partials of the coordinates (after TXP's division by `w`) as differences of
//!   neighbours, as DDX/DDY compute them: fine derivatives take the lane's own row
//!   (column), coarse ones either row (column) for the whole quad (tgsi.rst DDX; GL lets
//!   implementations choose). Every lane of the quad may therefore see `d/dx` from either
//!   row and `d/dy` from either column: the candidate `lambda` ranges are the four
//!   combinations, each `[log2 rho_min, log2 rho_max]` from the TXD code
//!   (`tex_eval::lod_bounds`), and every level any of them selects (with the `2^-8`
//!   boundary band of `tex_eval::levels_for`) is a candidate: a channel is defined only
//!   where all candidate texels agree.
//! * **Quads that do not all execute** the instruction, or whose coordinates are not
//!   exactly known (undefined, or an inexact interval): DDX/DDY are undefined there, so
//!   `lambda` may be anything and every level is a candidate (a texture with one level or
//!   NEAREST minification still gives a defined texel).
//! * **TXP**: the derivatives of the projected coordinates; each quotient is rounded to
//!   binary32 by an implementation, so each difference is widened by the two quotients'
//!   rounding (`2^-23 (|a| + |b|)`).
//! * **TXB bias**: `lambda = lambda_base + clamp(bias, -M, M)` with `M` =
//!   MAX_TEXTURE_LOD_BIAS, at least [`MIN_MAX_LOD_BIAS`] (OpenGL 3.x state table): a bias
//!   beyond `±2` may be clamped anywhere between `±2` and itself; NaN: undefined.
//! * **LODQ** (tgsi.rst: "The Y component contains the computed LOD lambda_prime. The X
//!   component contains the LOD that will be accessed, based on min/max LODs and mipmap
//!   filters"; NV LOD lowers to it, `frontends/nv/src/lower_tex.rs`): `y` is `lambda'` (no bias),
//!   an acceptance interval `[log2 rho_min - 2^-8, log2 rho_max + 2^-8]` over the
//!   derivative choices (the `2^-8` band: the precision of an implementation's level of
//!   detail arithmetic, as for level selection); `x` is the level NEAREST_MIPMAP_NEAREST
//!   accesses (0 with NEAREST minification), the interval over its candidate levels. `y`
//!   is undefined when `rho` is 0 (`log2 0 = -inf`, which hardware represents by some
//!   clamped value of its own: implementation-defined), when it is NaN, and when the quad
//!   is not known (previous point); `x` is undefined where no level is selected (NaN);
//!   `z`, `w` are undefined (tgsi.rst writes `dst.xy` only). No texture: undefined.
//!   Outside fragment programs the partials are 0: `x = 0`, `y` undefined.

use shaderdiff_model::Stage;

use super::decode::DInsn;
use super::interval::iv::{next_down, next_up};
use super::lanes::{Mask, LANES};
use super::state::Machine;
use super::tex_eval::{levels_for, lod_bounds, EDGE};
use super::texture::TexRef;
use crate::texture::{MinFilter, Texture};

/// The guaranteed MAX_TEXTURE_LOD_BIAS (OpenGL 3.x state tables: minimum value 2.0).
pub const MIN_MAX_LOD_BIAS: f64 = 2.0;

/// The implicit level of detail of one fragment quad.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum QuadLod {
    /// Not known: any `lambda` (the quad does not all execute, or a coordinate is not
    /// exactly known).
    Any,
    /// The candidate `[log2 rho_min, log2 rho_max]` ranges, one per derivative choice
    /// (module docs), bias not included.
    Ranges(Vec<(f64, f64)>),
}

/// The candidate bias range `[lo, hi]` of a TXB bias `b` (module docs: clamped by an
/// unknown MAX_TEXTURE_LOD_BIAS of at least [`MIN_MAX_LOD_BIAS`]).
pub(crate) fn bias_range(b: f32) -> (f64, f64) {
    let b = f64::from(b);
    if b > MIN_MAX_LOD_BIAS {
        (MIN_MAX_LOD_BIAS, b)
    } else if b < -MIN_MAX_LOD_BIAS {
        (b, -MIN_MAX_LOD_BIAS)
    } else {
        (b, b)
    }
}

/// The levels `tex` may be sampled at for quad level of detail `q` plus TXB's bias
/// `bias` (`None` for TEX and TXP), ascending; empty when undefined (NaN).
pub(crate) fn levels(tex: &Texture, q: &QuadLod, bias: Option<f32>) -> Vec<usize> {
    if tex.min_filter == MinFilter::Nearest {
        return vec![0];
    }
    let (blo, bhi) = bias.map_or((0.0, 0.0), bias_range);
    let ranges = match q {
        QuadLod::Any => return (0..tex.levels.len()).collect(),
        QuadLod::Ranges(r) => r,
    };
    let mut out: Vec<usize> = Vec::new();
    for &(lo, hi) in ranges {
        let l = levels_for(tex, lo + blo, hi + bhi);
        if l.is_empty() {
            return l;
        }
        out.extend(l);
    }
    out.sort_unstable();
    out.dedup();
    out
}

/// The lambda ranges of a quad whose coordinates (after TXP's division, in binary64) are
/// `c[lane][axis]` (module docs); `projected` widens the differences by the binary32
/// rounding of TXP's quotients.
pub(crate) fn quad_ranges(tex: &Texture, c: [[f64; 3]; 4], projected: bool) -> QuadLod {
    // (a, b) lane pairs: d = c[b] - c[a]; rows for d/dx, columns for d/dy.
    let rows = [(0, 1), (2, 3)];
    let cols = [(0, 2), (1, 3)];
    let diff = |(a, b): (usize, usize)| -> ([f64; 3], [f64; 3]) {
        let mut lo = [0f64; 3];
        let mut hi = [0f64; 3];
        for k in 0..3 {
            let d = (c[b][k] - c[a][k]).abs();
            let e = if projected {
                (c[a][k].abs() + c[b][k].abs()) * f64::powi(2.0, -23)
            } else {
                0.0
            };
            lo[k] = (d - e).max(0.0);
            hi[k] = d + e;
            if d.is_nan() {
                lo[k] = f64::NAN;
                hi[k] = f64::NAN;
            }
        }
        (lo, hi)
    };
    let mut out = Vec::new();
    for &r in &rows {
        for &k in &cols {
            let (xl, xh) = diff(r);
            let (yl, yh) = diff(k);
            out.push(lod_bounds(tex, [xl, yl], [xh, yh]));
        }
    }
    QuadLod::Ranges(out)
}

/// Rounds `x` to binary32 downwards (`up = false`) or upwards.
fn round_f32(x: f64, up: bool) -> f32 {
    let f = x as f32;
    if up && f64::from(f) < x {
        next_up(f)
    } else if !up && f64::from(f) > x {
        next_down(f)
    } else {
        f
    }
}

/// One lane's LODQ result (module docs): `(value, lo, hi, undefined channels)`, the value
/// inside `[lo, hi]` in every defined channel (binary32 bits).
pub(crate) fn lodq(tex: Option<&Texture>, q: &QuadLod) -> ([u32; 4], [u32; 4], [u32; 4], u8) {
    let mut v = [0u32; 4];
    let mut lo = [0u32; 4];
    let mut hi = [0u32; 4];
    let mut und = 0xCu8;
    let Some(tex) = tex else {
        return (v, lo, hi, 0xF);
    };
    let lv = levels(tex, q, None);
    match (lv.first(), lv.last()) {
        (Some(&a), Some(&b)) => {
            v[0] = (a as f32).to_bits();
            lo[0] = v[0];
            hi[0] = (b as f32).to_bits();
        }
        _ => und |= 1,
    }
    let ranges = match q {
        QuadLod::Ranges(r) => r.as_slice(),
        QuadLod::Any => &[],
    };
    let ylo = ranges.iter().map(|r| r.0).fold(f64::INFINITY, f64::min);
    let yhi = ranges.iter().map(|r| r.1).fold(f64::NEG_INFINITY, f64::max);
    let nan = ranges.iter().any(|r| r.0.is_nan() || r.1.is_nan());
    if ranges.is_empty() || nan || ylo == f64::NEG_INFINITY {
        und |= 2;
    } else {
        let (a, b) = (round_f32(ylo - EDGE, false), round_f32(yhi + EDGE, true));
        lo[1] = a.to_bits();
        hi[1] = b.to_bits();
        // The value: the middle of the interval, rounded (inside it).
        v[1] = (((f64::from(a) + f64::from(b)) / 2.0) as f32)
            .clamp(a, b)
            .to_bits();
    }
    (v, lo, hi, und)
}

impl Machine<'_> {
    /// The implicit level of detail of every quad of the chunk for texture instruction `r`
    /// on `tex` (index: quad number), from the fetched coordinates `self.s.srcs[0]`;
    /// `bad` holds the lanes whose coordinates are not exactly known.
    pub(crate) fn quad_lods(&self, r: &TexRef, tex: &Texture, bad: Mask) -> Vec<QuadLod> {
        let txp = r.op == super::texture::TexOp::Txp;
        (0..LANES / 4)
            .map(|q| {
                let b = 4 * q;
                if (self.exec >> b) & 0xF != 0xF || (bad >> b) & 0xF != 0 {
                    return QuadLod::Any;
                }
                let c = [0, 1, 2, 3].map(|l| {
                    let f = |k: usize| f64::from(f32::from_bits(self.s.srcs[0][k][b + l]));
                    let w = if txp { f(3) } else { 1.0 };
                    [f(0) / w, f(1) / w, f(2) / w]
                });
                quad_ranges(tex, c, txp)
            })
            .collect()
    }

    /// LODQ (module docs) for the executing lanes, with its acceptance intervals.
    pub(crate) fn lod_query(&mut self, insn: &DInsn) {
        let r = insn.tex.expect("decoded texture operand");
        let bad = self.mem_sources(insn);
        let bad_any = bad[0].iter().fold(0, |a, &m| a | m);
        let tex = self.textures.get(&r.unit).copied();
        let quads = match (self.d.stage, tex) {
            (Stage::Fragment, Some(t)) => self.quad_lods(&r, t, bad_any),
            // Zero partials (NV_gpu_program4 §2.X.4.4): rho = 0.
            _ => vec![QuadLod::Ranges(vec![(f64::NEG_INFINITY, f64::NEG_INFINITY)]); LANES / 4],
        };
        let mut und = [0 as Mask; 4];
        let mut lo = [[0u32; LANES]; 4];
        let mut hi = [[0u32; LANES]; 4];
        for c in 0..4 {
            self.s.out[c] = [0; LANES];
        }
        for l in 0..LANES {
            if self.exec >> l & 1 == 0 {
                continue;
            }
            let (v, a, b, u) = lodq(tex, &quads[l / 4]);
            for c in 0..4 {
                self.s.out[c][l] = v[c];
                lo[c][l] = a[c];
                hi[c][l] = b[c];
                und[c] |= ((u >> c & 1) as Mask) << l;
            }
        }
        if let Some(st) = self.iv.as_deref_mut() {
            st.out.lo = lo;
            st.out.hi = hi;
            st.out.nan = [0; 4];
        }
        self.store_result(insn, und);
    }
}

#[cfg(test)]
mod tests {
    //! Hand-derived implicit levels of detail. Texture: 8x8 2D with 4 levels (8, 4, 2, 1).
    use super::*;
    use crate::texture::{Format, Target, Wrap};

    fn tex() -> Texture {
        Texture::filled(
            Target::T2D,
            Format::Rgba32Ui,
            [8, 8, 1],
            4,
            Wrap::ClampToEdge,
            |l, n| [100 * l as u32 + n; 4],
        )
    }

    /// Quad coordinates `s = s0 + dsx * x + dsy * y`, `t = t0 + dtx * x + dty * y`.
    fn quad(dsx: f64, dtx: f64, dsy: f64, dty: f64) -> [[f64; 3]; 4] {
        [(0, 0), (1, 0), (0, 1), (1, 1)].map(|(x, y)| {
            let (x, y) = (f64::from(x), f64::from(y));
            [0.3 + dsx * x + dsy * y, 0.3 + dtx * x + dty * y, 0.0]
        })
    }

    #[test]
    fn axis_aligned_quad_selects_one_level() {
        let t = tex();
        // ds/dx = 1/4 → du/dx = 8/4 = 2; dt/dy = 1/2 → dv/dy = 4: rho = 4 for every
        // approximation (one non-zero component per direction) → lambda = 2 →
        // d = ceil(2.5) - 1 = 2.
        let q = quad_ranges(&t, quad(0.25, 0.0, 0.0, 0.5), false);
        assert_eq!(levels(&t, &q, None), vec![2]);
        // TXB bias -1: lambda = 1 → d = ceil(1.5) - 1 = 1; bias +1: lambda 3 → level 3.
        assert_eq!(levels(&t, &q, Some(-1.0)), vec![1]);
        assert_eq!(levels(&t, &q, Some(1.0)), vec![3]);
        // Magnification: ds/dx = 1/16 → du/dx = 0.5, dv/dy = 0.5: lambda = -1 → level 0.
        let m = quad_ranges(&t, quad(1.0 / 16.0, 0.0, 0.0, 1.0 / 16.0), false);
        assert_eq!(levels(&t, &m, None), vec![0]);
        // A NaN bias: undefined (no level).
        assert!(levels(&t, &q, Some(f32::NAN)).is_empty());
    }

    #[test]
    fn bias_beyond_two_may_be_clamped() {
        // GL clamps the bias to MAX_TEXTURE_LOD_BIAS >= 2: a bias of 5 is anything from 2
        // to 5; -3 anything from -3 to -2.
        assert_eq!(bias_range(5.0), (2.0, 5.0));
        assert_eq!(bias_range(-3.0), (-3.0, -2.0));
        assert_eq!(bias_range(1.5), (1.5, 1.5));
        // lambda 0 (du/dx = 1) + bias 5: from 2 (level 2) to 5 (clamped to level 3).
        let t = tex();
        let q = quad_ranges(&t, quad(0.125, 0.0, 0.0, 0.125), false);
        assert_eq!(levels(&t, &q, Some(5.0)), vec![2, 3]);
    }

    #[test]
    fn rows_that_differ_give_both_levels() {
        let t = tex();
        // s = 0.3 + 0.25 x + 0.25 x y: row 0 has ds/dx = 0.25 (du/dx = 2, lambda 1 →
        // level 1), row 1 ds/dx = 0.5 (du/dx = 4, lambda 2 → level 2); coarse derivatives
        // may take either row for any lane: candidates 1 and 2.
        let mut c = quad(0.25, 0.0, 0.0, 0.0);
        c[3][0] += 0.25;
        let q = quad_ranges(&t, c, false);
        assert_eq!(levels(&t, &q, None), vec![1, 2]);
        // A quad that does not all execute: every level.
        assert_eq!(levels(&t, &QuadLod::Any, None), vec![0, 1, 2, 3]);
        // NEAREST minification: level 0 whatever.
        let mut n = t.clone();
        n.min_filter = MinFilter::Nearest;
        assert_eq!(levels(&n, &QuadLod::Any, None), vec![0]);
    }

    #[test]
    fn lodq_reports_lambda_and_level() {
        let t = tex();
        // du/dx = 2, dv/dy = 4 (exact rho 4): y = lambda' = 2 within the 2^-8 band,
        // x = level 2.
        let q = quad_ranges(&t, quad(0.25, 0.0, 0.0, 0.5), false);
        let (v, lo, hi, und) = lodq(Some(&t), &q);
        assert_eq!(und, 0xC);
        assert_eq!([lo[0], hi[0], v[0]], [2f32.to_bits(); 3]);
        let (ylo, yhi) = (f32::from_bits(lo[1]), f32::from_bits(hi[1]));
        assert!(ylo <= 2.0 - 1.0 / 256.0 && ylo > 2.0 - 1.0 / 128.0, "{ylo}"); // (2 - 2^-7, 2 - 2^-8]
        assert!(
            (2.0 + 1.0 / 256.0..2.0 + 1.0 / 128.0).contains(&yhi),
            "{yhi}"
        );
        // du/dx = dv/dx = 2 (diagonal): rho from max 2 (lambda 1) to sum 4 (lambda 2), the
        // exact 2 sqrt 2 in between: y in [1 - 2^-8, 2 + 2^-8], x in levels [1, 2].
        let d = quad_ranges(&t, quad(0.25, 0.25, 0.0, 0.0), false);
        let (_, lo, hi, und) = lodq(Some(&t), &d);
        assert_eq!(und, 0xC);
        assert_eq!([f32::from_bits(lo[0]), f32::from_bits(hi[0])], [1.0, 2.0]);
        assert!(f32::from_bits(lo[1]) <= 1.0 - 1.0 / 256.0);
        assert!(f32::from_bits(hi[1]) >= 2.0 + 1.0 / 256.0);
        // Zero derivatives: lambda = -inf: x = level 0, y undefined.
        let z = quad_ranges(&t, quad(0.0, 0.0, 0.0, 0.0), false);
        let (v, _, _, und) = lodq(Some(&t), &z);
        assert_eq!((v[0], und), (0, 0xE));
        // Unknown quad: y undefined, x anywhere in levels 0..3; no texture: undefined.
        let (_, lo, hi, und) = lodq(Some(&t), &QuadLod::Any);
        assert_eq!((lo[0], hi[0], und), (0, 3f32.to_bits(), 0xE));
        assert_eq!(lodq(None, &z).3, 0xF);
        // A NaN coordinate in the quad: NaN derivative → x and y undefined.
        let mut n = quad(0.25, 0.0, 0.0, 0.5);
        n[1][0] = f64::NAN;
        assert_eq!(lodq(Some(&t), &quad_ranges(&t, n, false)).3, 0xF);
    }

    #[test]
    fn projected_differences_are_widened() {
        // TXP: quotients rounded to binary32, so a difference is known within
        // 2^-23 (|a| + |b|); with s = 0.3 and 0.55 that is 0.85 * 2^-23, far below the
        // level band: du/dx = 8 * 0.25 = 2 still selects level 1 only.
        let t = tex();
        let q = quad_ranges(&t, quad(0.25, 0.0, 0.0, 0.0), true);
        assert_eq!(levels(&t, &q, None), vec![1]);
    }
}
