//! TG4 / NV TXG (texture gather) for one lane: the four texels LINEAR filtering would read
//! on the base level, one component of each (tgsi.rst TG4 "as per GL_ARB_texture_gather";
//! NV_gpu_program5 §2.X.8.Z TXG: "the rules for LINEAR filter are applied to the base level
//! ... to determine the texels T_i0_j1, T_i1_j1, T_i1_j0, and T_i0_j0, as defined in
//! equations 3.23 through 3.25").
//!
//! * Footprint (OpenGL 3.x §3.8.8 equations 3.23-3.25, with the NV texel offset added to
//!   `u` and `v`): `i0 = wrap(floor(u - 1/2))`, `i1 = wrap(floor(u - 1/2) + 1)`, likewise
//!   `j0`, `j1`; `u = s * width + offset` (RECT: `s + offset`), level 0 whatever the
//!   filters; the array layer as for sampling.
//! * Result: `x = T(i0, j1)`, `y = T(i1, j1)`, `z = T(i1, j0)`, `w = T(i0, j0)`, each the
//!   word of component `comp` (0..3 = R, G, B, A; tgsi.rst TG4 `component = src1`, read as
//!   an integer; NV: the `texture[n].c` suffix); another component is undefined.
//! * Precision: as for sampling, `u - 1/2` within `2^-8 + |u| 2^-20` texels of an integer
//!   may floor either way; the footprint shifts as a whole, and a channel is defined when
//!   every candidate footprint gives the same word there.

use super::tex_eval::{floors, layers, wrapped, Candidates, LaneResult, ALL, EDGE};
use crate::texture::{Target, Texture};

/// TG4 on `tex` with coordinates `c`, component `comp` and texel offset `off` (module docs).
pub(super) fn gather(tex: &Texture, c: [f32; 4], comp: u32, off: [i32; 3]) -> LaneResult {
    if comp > 3 {
        return ([0; 4], ALL);
    }
    let t = tex.target;
    let size = tex.level_size(0);
    // Candidate (i0, i1) pairs on the two axes.
    let mut pairs: [Vec<(u32, u32)>; 2] = [Vec::new(), Vec::new()];
    for (a, p) in pairs.iter_mut().enumerate() {
        let s = c[a] as f64;
        if !s.is_finite() {
            return ([0; 4], ALL);
        }
        let u = if t == Target::Rect {
            s
        } else {
            s * size[a] as f64
        };
        let band = EDGE + u.abs() / (1u64 << 20) as f64;
        let w = tex.wrap[a];
        for f in wrapped(floors(u - 0.5, band), off[a], w, size[a]) {
            p.push((w.apply(f, size[a]), w.apply(f.saturating_add(1), size[a])));
        }
    }
    let layer = match t.layer_axis() {
        Some(a) => match layers(c[a] as f64, size[a]) {
            Some(l) => l,
            None => return ([0; 4], ALL),
        },
        None => vec![0],
    };
    let k = comp as usize;
    let mut result = Candidates::default();
    for &(i0, i1) in &pairs[0] {
        for &(j0, j1) in &pairs[1] {
            for &l in &layer {
                let texel = |i, j| tex.texel(0, i, j, l)[k];
                result.add([texel(i0, j1), texel(i1, j1), texel(i1, j0), texel(i0, j0)]);
            }
        }
    }
    result.finish()
}

#[cfg(test)]
mod tests {
    //! Hand-worked from OpenGL 3.x equations 3.23-3.25. Texel `n` (`x + width * y`) of the
    //! test textures is `[n, 0x100 + n, 0x200 + n, 0x300 + n]`.
    use super::*;
    use crate::texture::{Format, Wrap};

    fn tex(target: Target, size: [u32; 3], wrap: Wrap) -> Texture {
        Texture::filled(target, Format::Rgba32Ui, size, 1, wrap, |_, n| {
            [n, 0x100 + n, 0x200 + n, 0x300 + n]
        })
    }

    #[test]
    fn footprint_and_component() {
        let t = tex(Target::T2D, [4, 4, 1], Wrap::ClampToEdge);
        // (0.4, 0.6): u = 1.6, v = 2.4 → floor(1.1) = 1, floor(1.9) = 1: i0 = 1, i1 = 2,
        // j0 = 1, j1 = 2: x = T(1, 2) = 9, y = T(2, 2) = 10, z = T(2, 1) = 6, w = T(1, 1) = 5.
        assert_eq!(
            gather(&t, [0.4, 0.6, 0.0, 0.0], 0, [0; 3]),
            ([9, 10, 6, 5], 0)
        );
        // Component 2 (B): the same texels' third words.
        assert_eq!(
            gather(&t, [0.4, 0.6, 0.0, 0.0], 2, [0; 3]),
            ([0x209, 0x20a, 0x206, 0x205], 0)
        );
        // Offset (-1, 1): i0 = 0, i1 = 1, j0 = 2, j1 = 3: T(0,3) = 12, T(1,3) = 13,
        // T(1,2) = 9, T(0,2) = 8.
        assert_eq!(
            gather(&t, [0.4, 0.6, 0.0, 0.0], 0, [-1, 1, 0]),
            ([12, 13, 9, 8], 0)
        );
        // Component 4 does not exist: undefined.
        assert_eq!(gather(&t, [0.4, 0.6, 0.0, 0.0], 4, [0; 3]).1, ALL);
    }

    #[test]
    fn edges_wrap_and_clamp() {
        // (0.0, 0.0): u - 1/2 = -0.5 → i0 = -1, i1 = 0: CLAMP_TO_EDGE → 0, 0; REPEAT → 3, 0.
        let c = tex(Target::T2D, [4, 4, 1], Wrap::ClampToEdge);
        assert_eq!(
            gather(&c, [0.0, 0.0, 0.0, 0.0], 0, [0; 3]),
            ([0, 0, 0, 0], 0)
        );
        let r = tex(Target::T2D, [4, 4, 1], Wrap::Repeat);
        // x = T(3, 0) = 3, y = T(0, 0) = 0, z = T(0, 3) = 12, w = T(3, 3) = 15.
        assert_eq!(
            gather(&r, [0.0, 0.0, 0.0, 0.0], 0, [0; 3]),
            ([3, 0, 12, 15], 0)
        );
        // s = 0.375: u - 1/2 = 1.0 is an edge, the footprint may start at i0 = 0 or 1
        // (v - 1/2 = 1.5 is not): [8, 9, 5, 4] or [9, 10, 6, 5] → every channel undefined.
        assert_eq!(gather(&c, [0.375, 0.5, 0.0, 0.0], 0, [0; 3]).1, ALL);
    }

    #[test]
    fn array_layers_and_rect() {
        // ARRAY2D 2x2, 2 layers: (0.5, 0.5, layer 0.7 → 1): u = v = 1 → floor(0.5) = 0:
        // texels (0,1), (1,1), (1,0), (0,0) of layer 1 = 4 + (2, 3, 1, 0).
        let a = tex(Target::Array2D, [2, 2, 2], Wrap::ClampToEdge);
        assert_eq!(
            gather(&a, [0.5, 0.5, 0.7, 0.0], 0, [0; 3]),
            ([6, 7, 5, 4], 0)
        );
        // RECT 3x2 unnormalised: (2.0, 1.0) → floor(1.5) = 1, floor(0.5) = 0: x = T(1, 1)
        // = 4, y = T(2, 1) = 5, z = T(2, 0) = 2, w = T(1, 0) = 1.
        let r = tex(Target::Rect, [3, 2, 1], Wrap::ClampToEdge);
        assert_eq!(
            gather(&r, [2.0, 1.0, 0.0, 0.0], 0, [0; 3]),
            ([4, 5, 2, 1], 0)
        );
    }
}
