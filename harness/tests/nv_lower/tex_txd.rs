//! NV TXD (NV_gpu_program4 §2.X.8.Z TXD: explicit partial derivatives) lowered to the IR's
//! TXD and run on every engine with a texture unit. The level of detail is worked by hand
//! from OpenGL 3.x §3.8.8 (equations 3.18-3.20: `du/dx = w_t ds/dx` ..., `rho` the longer
//! of the x and y texel-space derivative vectors, `lambda = log2 rho`, NEAREST_MIPMAP_NEAREST
//! `d = ceil(lambda + 1/2) - 1`); where GL's allowed approximations of `rho` straddle a
//! level boundary, the result is undefined unless both levels hold the same texel.

use shaderdiff_oracles::texture::{Format, Target};

use crate::support::f;
use crate::textures::{row, run_rows, t, tex, U4};

#[test]
fn txd_levels() {
    // 8x8 with levels 8x8, 4x4, 2x2, 1x1; (0.3, 0.3) reads (2, 2) = 18 on level 0 and
    // (0, 0) on level 2.
    let mip = || tex(Target::T2D, Format::Rgba32F, [8, 8, 1], 4);
    let fv = |v: [f32; 4]| v.map(f);
    let c = fv([0.3, 0.3, 0.0, 0.0]);
    run_rows(&[
        // du/dx = 8 * 0.125 = 1, nothing else: rho = 1, lambda = 0 → level 0.
        row(
            "PARAM dx = {0.125, 0, 0, 0};\nPARAM dy = {0, 0, 0, 0};\n\
             TXD.F t, p0, dx, dy, texture[0], 2D;",
            c,
            mip(),
            t(0, 18),
        ),
        // du/dx = 2, dv/dy = 4: rho = 4, lambda = 2 → d = ceil(2.5) - 1 = 2.
        row(
            "PARAM dx = {0.25, 0, 0, 0};\nPARAM dy = {0, 0.5, 0, 0};\n\
             TXD.F t, p0, dx, dy, texture[0], 2D;",
            c,
            mip(),
            t(2, 0),
        ),
        // du/dx = dv/dx = 2: rho from max 2 (level 1) to sum 4 (level 2), exact 2 sqrt 2
        // (lambda 1.5, a boundary): levels 1 and 2 differ → undefined.
        row(
            "PARAM dx = {0.25, 0.25, 0, 0};\nPARAM dy = {0, 0, 0, 0};\n\
             TXD.F t, p0, dx, dy, texture[0], 2D;",
            c,
            mip(),
            U4,
        ),
        // Level 0 with a constant texel offset (1, 2): (2, 2) + (1, 2) = (3, 4) → 3 + 32.
        row(
            "PARAM dx = {0.125, 0, 0, 0};\nPARAM dy = {0, 0, 0, 0};\n\
             TXD.F t, p0, dx, dy, texture[0], 2D, (1, 2);",
            c,
            mip(),
            t(0, 35),
        ),
        // 3D 4x4x4: dw/dx = 4 * 0.5 = 2 → lambda 1 → level 1 (2x2x2); (0.3, 0.3, 0.8) →
        // (0, 0, 1) → 0 + 2 * (0 + 2 * 1) = 4.
        row(
            "PARAM dx = {0, 0, 0.5, 0};\nPARAM dy = {0, 0, 0, 0};\n\
             TXD.F t, p0, dx, dy, texture[0], 3D;",
            fv([0.3, 0.3, 0.8, 0.0]),
            tex(Target::T3D, Format::Rgba32F, [4, 4, 4], 3),
            t(1, 4),
        ),
    ]);
}
