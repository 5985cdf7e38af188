//! Depth comparisons of the SHADOW targets for one texel (OpenGL 3.x §3.8.14-15 "Texture
//! Comparison Modes"; NV_gpu_program4 §2.X.4.4 and its §3.8.14 edit;
//! ARB_fragment_program_shadow; tgsi.rst TEX for where the reference is).
//!
//! * **Result.** With TEXTURE_COMPARE_FUNC `f`, the texel's depth `D_t` (its R word as
//!   binary32) and the instruction's reference `R`, the effective value is 1.0 when
//!   `f(R, D_t)` holds, else 0.0 (LEQUAL `R <= D_t`, GEQUAL `R >= D_t`, LESS, GREATER,
//!   EQUAL, NOTEQUAL likewise; ALWAYS 1.0; NEVER 0.0). NV_gpu_program4's §3.8.14 returns it
//!   as the luminance, intensity or alpha the texture's DEPTH_TEXTURE_MODE names; the model
//!   takes that state's initial value, LUMINANCE, so the result is `(L, L, L, 1.0)`
//!   (OpenGL 3.x Table 3.20, LUMINANCE → `(L_t, L_t, L_t, 1)`).
//! * **Clamping.** NV_gpu_program4's edit clamps `R` to `[0, 1]` and takes `D_t` in
//!   `[0, 1]` (fixed-point depth), while OpenGL 3.0 (ARB_depth_buffer_float) clamps `R` and
//!   `D_t` only for fixed-point depth formats, and the model's depth is 32-bit float. Both
//!   readings are candidates: where clamping changes the outcome (a reference or depth
//!   outside `[0, 1]`) the channels differ and are undefined.
//! * **Reference precision.** TXP's reference `z / w` is known within the rounding of a
//!   single-precision division (any value within `2^-21 |q|` of the exact quotient `q`):
//!   every outcome some reference in that interval gives is a candidate.
//! * **NaN** reference or depth: the comparison of a NaN is not defined by the GL
//!   (implementations clamp, convert or compare it differently): undefined.

use super::tex_eval::Candidates;
use crate::io::Vec4;
use crate::texture::CompareFunc;

/// The binary32 1.0 word.
const ONE: u32 = 0x3f80_0000;

/// The outcomes `f(R, d)` may have for `R` anywhere in `[lo, hi]` (`lo <= hi`): `[can be
/// false, can be true]`.
fn outcomes(f: CompareFunc, lo: f64, hi: f64, d: f64) -> [bool; 2] {
    use CompareFunc as C;
    let (t, f_) = match f {
        C::Lequal => (lo <= d, hi > d),
        C::Gequal => (hi >= d, lo < d),
        C::Less => (lo < d, hi >= d),
        C::Greater => (hi > d, lo <= d),
        C::Equal => (lo <= d && d <= hi, !(lo == d && hi == d)),
        C::Notequal => (!(lo == d && hi == d), lo <= d && d <= hi),
        C::Always => (true, false),
        C::Never => (false, true),
    };
    [f_, t]
}

/// Adds the comparison results of `texel` (module docs) to `result` for the reference
/// interval `reference` (`(lo, hi)`, equal bounds for an exact reference) under `func`;
/// without a reference (not a SHADOW target) adds the texel itself.
pub(super) fn add(
    result: &mut Candidates,
    texel: Vec4,
    reference: Option<(f64, f64)>,
    func: Option<CompareFunc>,
) {
    let (Some((lo, hi)), Some(func)) = (reference, func) else {
        result.add(texel);
        return;
    };
    let d = f32::from_bits(texel[0]) as f64;
    if lo.is_nan() || hi.is_nan() || d.is_nan() {
        result.undefined();
        return;
    }
    let clamp = |v: f64| v.clamp(0.0, 1.0);
    let raw = outcomes(func, lo, hi, d);
    let clamped = outcomes(func, clamp(lo), clamp(hi), clamp(d));
    for (v, word) in [(0usize, 0u32), (1, ONE)] {
        if raw[v] || clamped[v] {
            result.add([word, word, word, ONE]);
        }
    }
}

#[cfg(test)]
mod tests {
    //! Hand-derived from the comparison table of OpenGL 3.x §3.8.14-15: the result is
    //! `(r, r, r, 1.0)`, r = 1.0 (0x3f800000) where the function holds.
    use super::*;
    use crate::interp::tex_eval::{LaneResult, ALL};

    const T: LaneResult = ([ONE, ONE, ONE, ONE], 0);
    const F: LaneResult = ([0, 0, 0, ONE], 0);

    fn cmp(func: CompareFunc, r: f64, d: f32) -> LaneResult {
        let mut c = Candidates::default();
        add(&mut c, [d.to_bits(), 7, 7, 7], Some((r, r)), Some(func));
        c.finish()
    }

    #[test]
    fn every_function_below_equal_and_above() {
        use CompareFunc as C;
        // D_t = 0.5; R = 0.25 (below), 0.5 (equal), 0.75 (above).
        let table = [
            (C::Lequal, [T, T, F]),
            (C::Gequal, [F, T, T]),
            (C::Less, [T, F, F]),
            (C::Greater, [F, F, T]),
            (C::Equal, [F, T, F]),
            (C::Notequal, [T, F, T]),
            (C::Always, [T, T, T]),
            (C::Never, [F, F, F]),
        ];
        for (f, want) in table {
            for (r, w) in [0.25, 0.5, 0.75].into_iter().zip(want) {
                assert_eq!(cmp(f, r, 0.5), w, "{f:?} R = {r}");
            }
        }
    }

    #[test]
    fn clamping_is_a_candidate() {
        // R = 1.5, D_t = 1.0, LESS: unclamped 1.5 < 1.0 is false, clamped 1.0 < 1.0 false:
        // defined 0.0. GEQUAL: 1.5 >= 1 and 1 >= 1 both true: defined 1.0.
        assert_eq!(cmp(CompareFunc::Less, 1.5, 1.0), F);
        assert_eq!(cmp(CompareFunc::Gequal, 1.5, 1.0), T);
        // R = 1.5, D_t = 1.0, GREATER: unclamped true, clamped (1.0 > 1.0) false: the
        // readings differ in x, y, z (w is 1.0 in both).
        assert_eq!(cmp(CompareFunc::Greater, 1.5, 1.0).1, 0x7);
        // D_t = -0.5 (a float depth below 0), R = 0.0, EQUAL: unclamped false, clamped
        // 0 == 0 true: undefined x, y, z.
        assert_eq!(cmp(CompareFunc::Equal, 0.0, -0.5).1, 0x7);
        // Infinite reference: +inf LEQUAL 0.5 is false both ways (clamped 1 <= 0.5).
        assert_eq!(cmp(CompareFunc::Lequal, f64::INFINITY, 0.5), F);
    }

    #[test]
    fn nan_is_undefined_and_intervals_split() {
        assert_eq!(cmp(CompareFunc::Always, f64::NAN, 0.5).1, ALL);
        assert_eq!(cmp(CompareFunc::Lequal, 0.5, f32::NAN).1, ALL);
        // R in [0.49, 0.51] against D_t = 0.5: LEQUAL may be true (0.49) or false (0.51).
        let mut c = Candidates::default();
        add(
            &mut c,
            [0.5f32.to_bits(), 0, 0, 0],
            Some((0.49, 0.51)),
            Some(CompareFunc::Lequal),
        );
        assert_eq!(c.finish().1, 0x7);
        // Not a SHADOW target: the texel itself.
        let mut c = Candidates::default();
        add(&mut c, [1, 2, 3, 4], None, None);
        assert_eq!(c.finish(), ([1, 2, 3, 4], 0));
    }
}
