//! Multisample textures (targets 2DMS and ARRAY2DMS, TGSI `2D_MSAA` and `2D_ARRAY_MSAA`):
//! texel fetches by sample and the sample count query.
//!
//! Sources: tgsi.rst "TXF" ("If the texture is multisampled, then the fourth component
//! indicates the sample, not the mipmap level") and "TXQS" ("the number of samples in
//! the texture ... in the x component as an unsigned integer. The other components are
//! undefined. If the texture is not multisampled, this function returns (1, undef, undef,
//! undef)"); NV_explicit_multisample "TexelFetchMultisample" (NV TXFMS, lowered to TXF on
//! the multisample target: "the x and y components are always used to select the pixel
//! and the fourth component is used to select the sample ... If the sample number is
//! greater than or equal to the value of SAMPLES ... the results are undefined"; "All of
//! the restrictions of TexelFetch apply", so a pixel or layer outside the image is
//! undefined as for TXF, NV_gpu_program4 Table X.18).
//!
//! * Coordinates `(i, j)`, the layer in `z` for ARRAY2DMS (Table X.18's ARRAY2D layout),
//!   the sample in `w`; a texel offset is added to `i` and `j` before the range check, as
//!   for TXF.
//! * Multisample textures are only fetched ("No standard sampling instructions are
//!   allowed"): TXF, TXQ and TXQS take them, any other instruction naming a multisample
//!   target is an invalid program. TXQ gives width, height (and layers), `w` = 1 level.

use super::tex_eval::{LaneResult, ALL};
use crate::texture::{Target, Texture};

/// TXQS (module docs): `x` = the number of samples (1 for a single-sampled texture),
/// the rest undefined.
pub(crate) fn query_samples(tex: &Texture) -> LaneResult {
    ([tex.samples.max(1), 0, 0, 0], ALL & !1)
}

/// TXF on a multisample texture (module docs): integer coordinates `c` = `(i, j, layer,
/// sample)` plus texel offset `off` on `i`, `j`.
pub(crate) fn fetch_sample(tex: &Texture, c: [i32; 4], off: [i32; 3]) -> LaneResult {
    let [w, h, layers] = tex.size;
    let i = i64::from(c[0]) + i64::from(off[0]);
    let j = i64::from(c[1]) + i64::from(off[1]);
    let k = if tex.target == Target::MsArray2D {
        i64::from(c[2])
    } else {
        0
    };
    let s = i64::from(c[3]);
    let inside = |v: i64, n: u32| (0..i64::from(n)).contains(&v);
    if !(inside(i, w) && inside(j, h) && inside(k, layers) && inside(s, tex.samples)) {
        return ([0; 4], ALL);
    }
    (tex.sample(i as u32, j as u32, k as u32, s as u32), 0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::interp::texture::{check_op, TexOp};
    use crate::texture::{Format, MinFilter, Wrap};

    /// A multisample texture whose texel `n` (memory order: samples of a pixel in a row)
    /// is `[n; 4]`.
    fn ms(target: Target, size: [u32; 3], samples: u32) -> Texture {
        let n = size.iter().product::<u32>() * samples;
        Texture {
            target,
            format: Format::Rgba32Ui,
            size,
            wrap: [Wrap::ClampToEdge; 3],
            min_filter: MinFilter::Nearest,
            levels: vec![(0..n).map(|v| [v; 4]).collect()],
            samples,
            compare: None,
        }
    }

    #[test]
    fn fetch_by_sample() {
        // 2DMS 3x2, 4 samples: pixel (2, 1) is pixel 1*3 + 2 = 5, its sample 3 is texel
        // 5*4 + 3 = 23; the layer (z) is ignored.
        let t = ms(Target::Ms2D, [3, 2, 1], 4);
        assert!(t.check().is_ok());
        assert_eq!(fetch_sample(&t, [2, 1, 7, 3], [0; 3]), ([23; 4], 0));
        // Sample 4 of 4, sample -1, pixel (3, 0), pixel (0, 2): undefined.
        assert_eq!(fetch_sample(&t, [2, 1, 0, 4], [0; 3]).1, ALL);
        assert_eq!(fetch_sample(&t, [2, 1, 0, -1], [0; 3]).1, ALL);
        assert_eq!(fetch_sample(&t, [3, 0, 0, 0], [0; 3]).1, ALL);
        assert_eq!(fetch_sample(&t, [0, 2, 0, 0], [0; 3]).1, ALL);
        // Offset (1, 1) on (1, 0): pixel (2, 1) again, sample 0 → 20.
        assert_eq!(fetch_sample(&t, [1, 0, 0, 0], [1, 1, 0]), ([20; 4], 0));
        // ARRAY2DMS 2x1 with 3 layers, 2 samples: (1, 0) of layer 2 is pixel 2*2 + 1 = 5,
        // sample 1 → texel 11; layer 3 is outside.
        let a = ms(Target::MsArray2D, [2, 1, 3], 2);
        assert!(a.check().is_ok());
        assert_eq!(fetch_sample(&a, [1, 0, 2, 1], [0; 3]), ([11; 4], 0));
        assert_eq!(fetch_sample(&a, [1, 0, 3, 1], [0; 3]).1, ALL);
    }

    #[test]
    fn sample_count_and_op_rules() {
        // tgsi.rst TXQS: (samples, undef, undef, undef); 1 for a single-sampled texture.
        assert_eq!(
            query_samples(&ms(Target::Ms2D, [1, 1, 1], 8)),
            ([8, 0, 0, 0], 0xE)
        );
        let single = Texture::filled(
            Target::T2D,
            Format::Rgba32F,
            [2, 2, 1],
            1,
            Wrap::Repeat,
            |_, _| [0; 4],
        );
        assert_eq!(query_samples(&single), ([1, 0, 0, 0], 0xE));
        assert!(check_op(TexOp::Txf, Target::MsArray2D).is_ok());
        assert!(check_op(TexOp::Txqs, Target::T2D).is_ok());
        assert!(check_op(TexOp::Tex, Target::Ms2D).is_err());
        assert!(check_op(TexOp::Lodq, Target::MsArray2D).is_err());
    }
}
