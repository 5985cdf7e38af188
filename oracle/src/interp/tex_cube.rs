//! Sampling and size queries of cube maps (CUBE, CUBEARRAY and their SHADOW forms) for one
//! lane.
//!
//! * **Coordinates** (NV_gpu_program4 Table X.17, tgsi.rst TEX): the direction
//!   `(rx, ry, rz)` is `(x, y, z)` (TXP: divided by `w`); CUBEARRAY's layer is `w`
//!   (tgsi.rst TEX "CUBEARRAY"; NV ARRAYCUBE lowers to it), rounded and clamped like any
//!   array layer; SHADOWCUBE's reference is `w`.
//! * **Face selection** (OpenGL 3.x §3.8.6, Table 3.19): the major axis is the component of
//!   largest magnitude; face, `sc`, `tc`, `ma`:
//!   `+rx`: +X, `-rz`, `-ry`, `rx`; `-rx`: -X, `rz`, `-ry`, `rx`; `+ry`: +Y, `rx`, `rz`, `ry`;
//!   `-ry`: -Y, `rx`, `-rz`, `ry`; `+rz`: +Z, `rx`, `-ry`, `rz`; `-rz`: -Z, `-rx`, `-ry`,
//!   `rz`; then `s = (sc / |ma| + 1) / 2`, `t = (tc / |ma| + 1) / 2`. When two or three
//!   components tie for the largest magnitude the GL leaves the choice to the
//!   implementation: every tied face is a candidate, and a channel is defined only when
//!   all of them give the same word. A zero or non-finite direction is undefined.
//! * **Texel**: NEAREST on the face, `i = clamp(floor(s * size), 0, size - 1)`, likewise
//!   `j` from `t` (CLAMP_TO_EDGE; with NEAREST filtering seamless and per-face sampling
//!   agree), with the usual edge band (`tex_eval`: a coordinate within
//!   `2^-8 + |u| 2^-20` texels of a texel edge may select either texel).
//! * **Level of detail**: TXL's `w` (CUBE only), TXB's bias and TEX / TXP outside fragment
//!   programs as for the other targets. In fragment programs (implicit derivatives) and for
//!   TXD the partials of the face coordinates are "derived ... in an implementation-dependent
//!   manner" (NV_gpu_program4 §2.X.8.Z TXD), so every level the filter allows is a candidate.
//! * **TXQ**: `x`, `y` the level's face width and height (NV_gpu_program4 §2.X.8.Z TXQ
//!   "cube map ... width and height"); CUBEARRAY also `z` = the number of cube maps
//!   (ARB_texture_cube_map_array: a cube map array's size is width, height, layers); the
//!   rest undefined, `w` the number of levels (tgsi.rst TXQ).

use shaderdiff_ir::Stage;

use super::tex_eval::{floors, layers, levels_for, Candidates, LaneResult, ALL, EDGE};
use super::texture::TexOp;
use crate::texture::{Target, Texture};

/// The candidate faces (0..6 = +X, -X, +Y, -Y, +Z, -Z) of direction `r` with their face
/// coordinates `(s, t)` (module docs); `None` for a zero or non-finite direction.
pub(super) fn faces(r: [f64; 3]) -> Option<Vec<(u32, f64, f64)>> {
    if r.iter().any(|v| !v.is_finite()) {
        return None;
    }
    let m = r.iter().fold(0f64, |m, v| m.max(v.abs()));
    if m == 0.0 {
        return None;
    }
    let [x, y, z] = r;
    let mut out = Vec::new();
    for (a, &v) in r.iter().enumerate() {
        if v.abs() != m {
            continue;
        }
        let neg = v < 0.0;
        // OpenGL 3.x Table 3.19: (sc, tc) per face.
        let (sc, tc) = match (a, neg) {
            (0, false) => (-z, -y),
            (0, true) => (z, -y),
            (1, false) => (x, z),
            (1, true) => (x, -z),
            (_, false) => (x, -y),
            (_, true) => (-x, -y),
        };
        let face = 2 * a as u32 + u32::from(neg);
        out.push((face, (sc / m + 1.0) / 2.0, (tc / m + 1.0) / 2.0));
    }
    Some(out)
}

/// TEX, TXP, TXB, TXL or TXD (`op`) on cube texture `tex` in a program of stage `stage`
/// with coordinates `c`, comparing with the reference in component `reference` of `c`
/// (SHADOWCUBE: 3) when given (module docs; the comparison is `tex_shadow`'s).
pub(super) fn sample(
    op: TexOp,
    stage: Stage,
    tex: &Texture,
    c: [f32; 4],
    reference: Option<usize>,
) -> LaneResult {
    let mut dir = [c[0] as f64, c[1] as f64, c[2] as f64];
    if op == TexOp::Txp {
        if !super::tex_eval::txp_divisor_defined(c[3]) {
            return ([0; 4], ALL);
        }
        for v in &mut dir {
            *v /= c[3] as f64;
        }
    }
    let Some(faces) = faces(dir) else {
        return ([0; 4], ALL);
    };
    let reference = reference.map(|k| {
        let r = c[k] as f64;
        (r, r)
    });
    let (lo, hi) = match op {
        TexOp::Txl => (c[3] as f64, c[3] as f64),
        TexOp::Txd => (f64::NEG_INFINITY, f64::INFINITY),
        _ if stage == Stage::Fragment => (f64::NEG_INFINITY, f64::INFINITY),
        TexOp::Txb => {
            let l = (f32::NEG_INFINITY + c[3]) as f64;
            (l, l)
        }
        _ => (f64::NEG_INFINITY, f64::NEG_INFINITY),
    };
    let levels = levels_for(tex, lo, hi);
    let mut result = Candidates::default();
    for level in levels {
        let size = tex.level_size(level);
        let cube_layers = if tex.target == Target::CubeArray {
            match layers(c[3] as f64, size[2] / 6) {
                Some(l) => l,
                None => return ([0; 4], ALL),
            }
        } else {
            vec![0]
        };
        for &(face, s, t) in &faces {
            let texels = |x: f64, n: u32| -> Vec<u32> {
                let u = x * n as f64;
                let band = EDGE + u.abs() / (1u64 << 20) as f64;
                let mut v: Vec<u32> = floors(u, band)
                    .map(|i| i.clamp(0, i64::from(n) - 1) as u32)
                    .collect();
                v.dedup();
                v
            };
            for i in texels(s, size[0]) {
                for j in texels(t, size[1]) {
                    for &l in &cube_layers {
                        let texel = tex.texel(level, i, j, 6 * l + face);
                        super::tex_shadow::add(&mut result, texel, reference, tex.compare);
                    }
                }
            }
        }
    }
    result.finish()
}

/// TXQ on a cube texture at level `lod` (module docs).
pub(super) fn query(tex: &Texture, lod: i32) -> LaneResult {
    let levels = tex.levels.len() as u32;
    if !(0..levels as i32).contains(&lod) {
        return ([0, 0, 0, levels], 0x7);
    }
    let [w, h, faces] = tex.level_size(lod as usize);
    if tex.target == Target::CubeArray {
        ([w, h, faces / 6, levels], 0)
    } else {
        ([w, h, 0, levels], 0x4)
    }
}

#[cfg(test)]
mod tests {
    //! Hand-worked from OpenGL 3.x Table 3.19. Texel `n` of level `l` is `[100 l + n; 4]`;
    //! a 2x2 face `f` holds texels `4 f .. 4 f + 3` (`x` fastest), so texel `(i, j)` of
    //! face `f` is `4 f + 2 j + i`.
    use super::*;
    use crate::texture::{CompareFunc, Format, Wrap};

    fn cube(target: Target, faces: u32, levels: usize) -> Texture {
        Texture::filled(
            target,
            Format::Rgba32Ui,
            [2, 2, faces],
            levels,
            Wrap::ClampToEdge,
            |l, n| [100 * l as u32 + n; 4],
        )
    }

    fn tex(t: &Texture, c: [f32; 4]) -> LaneResult {
        sample(TexOp::Tex, Stage::Vertex, t, c, None)
    }

    #[test]
    fn each_face_by_its_major_axis() {
        let t = cube(Target::Cube, 6, 1);
        // (rx, ry, rz) = (1, 0.5, -0.25), major +x: sc = -rz = 0.25, tc = -ry = -0.5 →
        // s = (0.25 + 1) / 2 = 0.625, t = (-0.5 + 1) / 2 = 0.25 → (i, j) = (1, 0) → 0 + 1.
        assert_eq!(tex(&t, [1.0, 0.5, -0.25, 0.0]), ([1; 4], 0));
        // (-1, 0.5, -0.25), major -x: sc = rz = -0.25 → s = 0.375 → i = 0; tc = -ry → t =
        // 0.25 → j = 0: face 1 texel 4.
        assert_eq!(tex(&t, [-1.0, 0.5, -0.25, 0.0]), ([4; 4], 0));
        // (0.25, 1, 0.5), major +y: sc = rx = 0.25 → s = 0.625 → 1; tc = rz = 0.5 → t =
        // 0.75 → 1: face 2, 8 + 2 + 1 = 11.
        assert_eq!(tex(&t, [0.25, 1.0, 0.5, 0.0]), ([11; 4], 0));
        // (0.25, -1, 0.5), major -y: sc = rx → 1; tc = -rz = -0.5 → t = 0.25 → 0: face 3,
        // 12 + 1 = 13.
        assert_eq!(tex(&t, [0.25, -1.0, 0.5, 0.0]), ([13; 4], 0));
        // (0.25, 0.5, 2), major +z, |ma| = 2: sc = rx / 2 = 0.125 → s = 0.5625 → 1; tc =
        // -ry / 2 = -0.25 → t = 0.375 → 0: face 4, 16 + 1 = 17.
        assert_eq!(tex(&t, [0.25, 0.5, 2.0, 0.0]), ([17; 4], 0));
        // (0.25, 0.5, -2), major -z: sc = -rx / 2 = -0.125 → s = 0.4375 → 0; tc = -0.25 →
        // 0: face 5, 20.
        assert_eq!(tex(&t, [0.25, 0.5, -2.0, 0.0]), ([20; 4], 0));
    }

    #[test]
    fn ties_edges_and_bad_directions() {
        let t = cube(Target::Cube, 6, 1);
        // |rx| = |ry| = 1: +X (sc = -rz = 0.5 → s = 0.75 → 1; tc = -ry = -1 → t = 0 → 0:
        // texel 1) and +Y (sc = rx = 1 → s = 1 → u = 2, the edge: 1 (clamped); tc = rz =
        // -0.5 → 0: 8 + 1 = 9) are both candidates: undefined.
        assert_eq!(tex(&t, [1.0, 1.0, -0.5, 0.0]).1, ALL);
        // A tie between faces whose texels hold the same word is defined: all-zero faces.
        let z = Texture::filled(
            Target::Cube,
            Format::Rgba32Ui,
            [2, 2, 6],
            1,
            Wrap::ClampToEdge,
            |_, _| [5; 4],
        );
        assert_eq!(tex(&z, [1.0, -1.0, 1.0, 0.0]), ([5; 4], 0));
        // s = 0.5 exactly (sc = 0) is a texel edge: (0, 0.25, 1) major +z, u = 1 →
        // candidates i = 0, 1 → texels 16 + 2·0 + {0, 1}: undefined.
        assert_eq!(tex(&t, [0.0, 0.25, 1.0, 0.0]).1, ALL);
        assert_eq!(tex(&t, [0.0, 0.0, 0.0, 0.0]).1, ALL);
        assert_eq!(tex(&t, [f32::NAN, 1.0, 0.0, 0.0]).1, ALL);
        assert_eq!(tex(&t, [f32::INFINITY, 1.0, 0.0, 0.0]).1, ALL);
        // TXP divides by w: (-2, 1, 0.5, -2) → (1, -0.5, -0.25), major +x: sc = 0.25 → s
        // = 0.625 → 1; tc = 0.5 → t = 0.75 → 1: 2 + 1 = 3.
        assert_eq!(
            sample(TexOp::Txp, Stage::Vertex, &t, [-2.0, 1.0, 0.5, -2.0], None),
            ([3; 4], 0)
        );
    }

    #[test]
    fn cube_arrays_levels_and_queries() {
        // Two cubes (12 layer-faces); w = 1.2 → layer 1; +x (1, 0.5, -0.25) → (1, 0) of
        // layer-face 6: 24 + 1 = 25.
        let a = cube(Target::CubeArray, 12, 1);
        assert_eq!(tex(&a, [1.0, 0.5, -0.25, 1.2]), ([25; 4], 0));
        // Layer 7.0 clamps to 1; layer -3 to 0: texel 1.
        assert_eq!(tex(&a, [1.0, 0.5, -0.25, 7.0]), ([25; 4], 0));
        assert_eq!(tex(&a, [1.0, 0.5, -0.25, -3.0]), ([1; 4], 0));
        // TXL lambda 1 on a 2-level cube: level 1 is 1x1 per face, face 0 → 100 + 0.
        let m = cube(Target::Cube, 6, 2);
        let txl = |c| sample(TexOp::Txl, Stage::Vertex, &m, c, None);
        assert_eq!(txl([1.0, 0.5, -0.25, 1.0]), ([100; 4], 0));
        assert_eq!(txl([1.0, 0.5, -0.25, 0.0]), ([1; 4], 0));
        // TXD: the level is implementation-dependent: levels 0 (1) and 1 (100) differ.
        assert_eq!(
            sample(
                TexOp::Txd,
                Stage::Fragment,
                &m,
                [1.0, 0.5, -0.25, 0.0],
                None
            )
            .1,
            ALL
        );
        // TXQ: CUBE level 1 (1, 1, -, 2); CUBEARRAY level 0 (2, 2, 2 cubes, 1).
        assert_eq!(query(&m, 1), ([1, 1, 0, 2], 0x4));
        assert_eq!(query(&a, 0), ([2, 2, 2, 1], 0));
        assert_eq!(query(&a, 1), ([0, 0, 0, 1], 0x7));
    }

    #[test]
    fn shadow_cube_compares_the_face_texel() {
        // Face +x of a depth cube map holds D_t = 0.25 (texel 0) ... ; every other texel
        // 0.75. SHADOWCUBE, LEQUAL, reference w.
        let mut d = Texture::filled(
            Target::Cube,
            Format::Rgba32F,
            [2, 2, 6],
            1,
            Wrap::ClampToEdge,
            |_, n| [if n == 0 { 0.25f32 } else { 0.75 }.to_bits(), 0, 0, 0],
        );
        d.compare = Some(CompareFunc::Lequal);
        let one = 1f32.to_bits();
        // (1, 0.5, 0.5): +x, sc = -0.5 → s = 0.25 → 0; tc = -0.5 → 0: texel 0 (0.25).
        // R = 0.5 <= 0.25 is false → (0, 0, 0, 1); R = 0.25 <= 0.25 → (1, 1, 1, 1).
        let sc = |r: f32| sample(TexOp::Tex, Stage::Vertex, &d, [1.0, 0.5, 0.5, r], Some(3));
        assert_eq!(sc(0.5), ([0, 0, 0, one], 0));
        assert_eq!(sc(0.25), ([one; 4], 0));
        // -x face, texel 0.75: R = 0.5 <= 0.75 → 1.
        assert_eq!(
            sample(
                TexOp::Tex,
                Stage::Vertex,
                &d,
                [-1.0, 0.5, 0.5, 0.5],
                Some(3)
            ),
            ([one; 4], 0)
        );
    }
}
