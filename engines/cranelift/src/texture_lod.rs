//! The jit texture unit's implicit level of detail (TEX, TXP, TXB and LODQ in fragment
//! programs) and LODQ's result; the oracle's model is `shaderdiff_oracles::interp`
//! `tex_lod` (README "Textures").
//!
//! A texture unit sees the whole quad (INTERFACE.md "Fragment quads": lanes `(x,y)
//! (x+1,y) (x,y+1) (x+1,y+1)`), so it takes the fine derivatives: `d/dx` is the
//! difference along the lane's own row, `d/dy` along its own column, of the coordinates
//! (after TXP's division by `w`, in `f32`), and `lambda = log2(rho)` with the exact
//! Euclidean `rho` of OpenGL 3.x §3.8.8 equation 3.20 (`crate::texture::txd_lambda`).
//! Lanes that do not execute still hold their register values, which are used as they
//! are (the oracle accepts any level for such quads). Outside fragment programs the
//! partials are zero (NV_gpu_program4 §2.X.4.4): `lambda = -inf`.
//!
//! LODQ (tgsi.rst LODQ): `x` = the level accessed (`crate::texture::pick_level`, 0 with
//! NEAREST minification) as a float, `y` = `lambda`, `z` = `w` = 0.

use shaderdiff_model::texture::{MinFilter, Texture};
use shaderdiff_model::Opcode;

use crate::texture::{pick_level, txd_lambda};

/// The implicit `lambda` of each of the four lanes of the quad whose source words are
/// `io[4 * channel + lane]`, for operation `op` of descriptor `desc` on `tex`; `-inf` for
/// every lane outside fragment programs, for other operations and without a texture.
pub(crate) fn quad_lods(desc: u32, op: Opcode, tex: Option<&Texture>, io: &[u32]) -> [f32; 4] {
    let implicit = matches!(op, Opcode::TEX | Opcode::TXP | Opcode::TXB | Opcode::LODQ);
    let fragment = desc >> 8 & 1 != 0;
    let Some(tex) = tex.filter(|_| implicit && fragment) else {
        return [f32::NEG_INFINITY; 4];
    };
    let c: [[f32; 3]; 4] = [0, 1, 2, 3].map(|l| {
        let w = if op == Opcode::TXP {
            f32::from_bits(io[12 + l])
        } else {
            1.0
        };
        [0, 1, 2].map(|k| f32::from_bits(io[4 * k + l]) / w)
    });
    [0, 1, 2, 3].map(|l| {
        let (row, col) = (l & 2, l & 1);
        let dx = [0, 1, 2].map(|k| c[row + 1][k] - c[row][k]);
        let dy = [0, 1, 2].map(|k| c[col + 2][k] - c[col][k]);
        txd_lambda(tex, [dx, dy], tex.target.dims())
    })
}

/// LODQ's result (module docs) for implicit level of detail `lod`.
pub(crate) fn lodq(tex: &Texture, lod: f32) -> [u32; 4] {
    let level = if tex.min_filter == MinFilter::Nearest {
        0
    } else {
        pick_level(tex, lod)
    };
    [(level as f32).to_bits(), lod.to_bits(), 0, 0]
}

#[cfg(test)]
mod tests {
    use super::*;
    use shaderdiff_model::texture::{Format, Target, Wrap};

    #[test]
    fn fine_derivatives_per_lane() {
        // 8x8 2D with 4 levels. s = 0.3 + 0.25 x + 0.25 x y, t = 0.3 + 0.5 y: row 0 has
        // du/dx = 8 * 0.25 = 2, row 1 du/dx = 8 * 0.5 = 4; columns dv/dy = 4 and
        // du/dy = 0 (left), 8 * 0.25 = 2 (right). Lane 0: rho = max(2, 4) = 4 → 2;
        // lane 3: rho = max(4, sqrt(2^2 + 4^2)) = sqrt 20 → log2 sqrt 20 = 2.1610.
        let t = Texture::filled(
            Target::T2D,
            Format::Rgba32F,
            [8, 8, 1],
            4,
            Wrap::Repeat,
            |_, _| [0; 4],
        );
        let s = [0.3f32, 0.55, 0.3, 0.8];
        let tt = [0.3f32, 0.3, 0.8, 0.8];
        let mut io = vec![0u32; 16];
        for l in 0..4 {
            io[l] = s[l].to_bits();
            io[4 + l] = tt[l].to_bits();
        }
        let frag = 1 << 8;
        let l = quad_lods(frag, Opcode::TEX, Some(&t), &io);
        assert!((l[0] - 2.0).abs() < 1e-5, "{l:?}");
        assert!((l[3] - 20f32.sqrt().log2()).abs() < 1e-5, "{l:?}");
        // Vertex programs: -inf; LODQ: (level, lambda, 0, 0): lambda 2 → level 2.
        assert_eq!(
            quad_lods(0, Opcode::TEX, Some(&t), &io),
            [f32::NEG_INFINITY; 4]
        );
        assert_eq!(lodq(&t, 2.0), [2f32.to_bits(), 2f32.to_bits(), 0, 0]);
    }
}
