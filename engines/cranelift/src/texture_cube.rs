//! The jit texture unit's cube maps and depth comparisons (its own implementation, in
//! single precision, one value per lane wherever the specification leaves a choice):
//!
//! * cube face selection (OpenGL 3.x §3.8.6 Table 3.19): the major axis is the first of
//!   `x`, `y`, `z` whose magnitude is the largest (ties go to `x`, then `y`),
//!   `s = (sc / |ma| + 1) / 2`, `t` likewise, in `f32`; the texel
//!   `clamp(floor(s * size), 0, size - 1)` of
//!   the face, layer-face `6 * layer + face` (CUBEARRAY: layer `clamp(floor(w + 0.5), 0,
//!   layers - 1)`); a zero or non-finite direction reads face +X at `(0, 0)`;
//! * level: TXL's `w` and TXB's bias outside fragment programs as for the other targets;
//!   in fragment programs and for TXD level 0 (the oracle takes every level there);
//! * TXQ: the face width and height, CUBEARRAY's cube count in `z`, zeros elsewhere, `w` =
//!   levels;
//! * depth comparison (OpenGL 3.x §3.8.14-15): `D_t` the texel's R word, the reference
//!   not clamped (a 32-bit float depth texture), the result `(r, r, r, 1.0)` with `r` 1.0
//!   where the compare function holds on `f32` (NaN operands: the IEEE comparison's
//!   answer, NOTEQUAL true).

use shaderdiff_model::texture::{CompareFunc, MinFilter, Target, Texture};
use shaderdiff_model::Opcode;

/// The binary32 1.0 word.
const ONE: u32 = 0x3f80_0000;

/// The depth comparison of `texel` with `reference` under the texture's compare function
/// (module docs); the texel itself when the texture has none.
pub(crate) fn compare(tex: &Texture, texel: [u32; 4], reference: f32) -> [u32; 4] {
    let Some(f) = tex.compare else {
        return texel;
    };
    let d = f32::from_bits(texel[0]);
    let r = reference;
    let pass = match f {
        CompareFunc::Lequal => r <= d,
        CompareFunc::Gequal => r >= d,
        CompareFunc::Less => r < d,
        CompareFunc::Greater => r > d,
        CompareFunc::Equal => r == d,
        CompareFunc::Notequal => r != d,
        CompareFunc::Always => true,
        CompareFunc::Never => false,
    };
    let w = if pass { ONE } else { 0 };
    [w, w, w, ONE]
}

/// `[width, height, layer-faces]` of `level` (layer-faces do not shrink).
fn extents(tex: &Texture, level: u32) -> [u32; 3] {
    let shrink = |v: u32| (v >> level.min(31)).max(1);
    [shrink(tex.size[0]), shrink(tex.size[1]), tex.size[2]]
}

/// TXQ on a cube texture (module docs).
pub(crate) fn query(tex: &Texture, lod: i32) -> [u32; 4] {
    let levels = tex.levels.len() as u32;
    if lod < 0 || lod as u32 >= levels {
        return [0, 0, 0, levels];
    }
    let [w, h, faces] = extents(tex, lod as u32);
    let z = if tex.target == Target::CubeArray {
        faces / 6
    } else {
        0
    };
    [w, h, z, levels]
}

/// Face (0..6 = +X, -X, +Y, -Y, +Z, -Z) and `(s, t)` of direction `(x, y, z)`.
fn face(x: f32, y: f32, z: f32) -> (u32, f32, f32) {
    let (ax, ay, az) = (x.abs(), y.abs(), z.abs());
    // Table 3.19: (face, sc, tc, ma).
    let (f, sc, tc, ma) = if ax >= ay && ax >= az {
        if x >= 0.0 {
            (0, -z, -y, ax)
        } else {
            (1, z, -y, ax)
        }
    } else if ay >= az {
        if y >= 0.0 {
            (2, x, z, ay)
        } else {
            (3, x, -z, ay)
        }
    } else if z >= 0.0 {
        (4, x, -y, az)
    } else {
        (5, -x, -y, az)
    };
    (f, (sc / ma + 1.0) * 0.5, (tc / ma + 1.0) * 0.5)
}

/// TEX, TXP, TXB, TXL or TXD (`op`) on cube texture `tex` with coordinates `c`
/// (`fragment`: a fragment program), comparing with `c[3]` when `shadow` (SHADOWCUBE).
pub(crate) fn sample(
    op: Opcode,
    fragment: bool,
    tex: &Texture,
    c: [f32; 4],
    shadow: bool,
) -> [u32; 4] {
    let (mut x, mut y, mut z) = (c[0], c[1], c[2]);
    if op == Opcode::TXP {
        x /= c[3];
        y /= c[3];
        z /= c[3];
    }
    let lambda = match op {
        Opcode::TXL => c[3],
        Opcode::TXB if !fragment => f32::NEG_INFINITY + c[3],
        _ => f32::NEG_INFINITY,
    };
    let last = tex.levels.len().saturating_sub(1) as u32;
    let level = if tex.min_filter == MinFilter::Nearest || lambda.is_nan() || lambda <= 0.5 {
        0
    } else {
        let d = (lambda + 0.5).ceil() - 1.0;
        if d >= last as f32 {
            last
        } else {
            d as u32
        }
    };
    let [w, h, faces] = extents(tex, level);
    let (f, s, t) = if [x, y, z].iter().all(|v| v.is_finite()) && (x, y, z) != (0.0, 0.0, 0.0) {
        face(x, y, z)
    } else {
        (0, 0.0, 0.0)
    };
    let texel = |v: f32, n: u32| ((v * n as f32).floor() as i64).clamp(0, i64::from(n) - 1) as u32;
    let layer = if tex.target == Target::CubeArray {
        ((c[3] + 0.5).floor() as i64).clamp(0, i64::from(faces / 6) - 1) as u32
    } else {
        0
    };
    let (i, j) = (texel(s, w), texel(t, h));
    let n = ((6 * layer + f) as usize * h as usize + j as usize) * w as usize + i as usize;
    let v = tex
        .levels
        .get(level as usize)
        .and_then(|l| l.get(n))
        .copied()
        .unwrap_or([0; 4]);
    if shadow {
        compare(tex, v, c[3])
    } else {
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shaderdiff_model::texture::{Format, Wrap};

    #[test]
    fn faces_and_ties() {
        // Table 3.19: (1, 0.5, -0.25) → +X, sc = 0.25, tc = -0.5 → (0.625, 0.25).
        assert_eq!(face(1.0, 0.5, -0.25), (0, 0.625, 0.25));
        // (0.25, 0.5, -2) → -Z, sc = -0.25 / 2, tc = -0.5 / 2 → (0.4375, 0.375).
        assert_eq!(face(0.25, 0.5, -2.0), (5, 0.4375, 0.375));
        // A tie |x| = |y| goes to x.
        assert_eq!(face(1.0, -1.0, 0.0).0, 0);
    }

    #[test]
    fn shadow_compare_and_query() {
        let mut t = Texture::filled(
            Target::CubeArray,
            Format::Rgba32F,
            [2, 2, 12],
            1,
            Wrap::ClampToEdge,
            |_, n| [(n as f32 / 32.0).to_bits(), 0, 0, 0],
        );
        t.compare = Some(CompareFunc::Less);
        // Layer 1, +Y face (2), (0.25, 1, 0.5) → s = 0.625, t = 0.75 → (1, 1): texel
        // 4 * 8 + 2 + 1 = 35, D_t = 35 / 32; R = 1.0 < 35 / 32 holds → (1, 1, 1, 1).
        let one = 1f32.to_bits();
        let tex = |c| sample(Opcode::TEX, false, &t, c, false);
        assert_eq!(
            tex([0.25, 1.0, 0.5, 1.0]),
            [(35.0f32 / 32.0).to_bits(), 0, 0, 0]
        );
        assert_eq!(compare(&t, tex([0.25, 1.0, 0.5, 1.0]), 1.0), [one; 4]);
        assert_eq!(compare(&t, tex([0.25, 1.0, 0.5, 1.0]), 2.0), [0, 0, 0, one]);
        assert_eq!(query(&t, 0), [2, 2, 2, 1]);
    }
}
