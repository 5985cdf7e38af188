//! The jit texture unit's multisample textures (2DMS, ARRAY2DMS): TXF by sample and TXQS
//! (tgsi.rst TXF, TXQS; NV_explicit_multisample TXFMS lowers to TXF). The oracle's model
//! is `shaderdiff_oracles::interp` `tex_ms`; here out-of-range fetches give zeros.

use shaderdiff_model::texture::{Target, Texture};

/// TXQS: `(samples, 0, 0, 0)` (1 for a single-sampled texture).
pub(crate) fn samples(tex: &Texture) -> [u32; 4] {
    [tex.samples.max(1), 0, 0, 0]
}

/// TXF on a multisample texture: pixel `(i, j)` plus offset `off`, layer `z` (ARRAY2DMS),
/// sample `w`; zeros outside the image, the layers or the samples.
pub(crate) fn fetch(tex: &Texture, c: [i32; 4], off: [i32; 3]) -> [u32; 4] {
    let [w, h, layers] = tex.size;
    let i = i64::from(c[0]) + i64::from(off[0]);
    let j = i64::from(c[1]) + i64::from(off[1]);
    let k = if tex.target == Target::MsArray2D {
        i64::from(c[2])
    } else {
        0
    };
    let s = i64::from(c[3]);
    let ok = |v: i64, n: u32| v >= 0 && v < i64::from(n);
    if ok(i, w) && ok(j, h) && ok(k, layers) && ok(s, tex.samples) {
        tex.sample(i as u32, j as u32, k as u32, s as u32)
    } else {
        [0; 4]
    }
}
