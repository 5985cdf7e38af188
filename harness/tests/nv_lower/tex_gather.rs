//! NV TXG (NV_gpu_program5 §2.X.8.Z TXG) lowered to the IR's TG4 and run on every engine
//! with a texture unit: component `c` of `texture[n].c` (x without a suffix) from the four
//! texels LINEAR filtering reads on the base level, in the order `T_i0_j1`, `T_i1_j1`,
//! `T_i1_j0`, `T_i0_j0`, with `i0 = wrap(floor(u - 1/2))`, `i1 = wrap(floor(u - 1/2) + 1)`
//! (OpenGL 3.x equations 3.23-3.25). Worked by hand beside each row; texel `n`
//! (`x + width * y`) holds `[n, 0x100 + n, 0x200 + n, 0x300 + n]` (textures.rs).

use shaderdiff_oracles::texture::{Format, Target};

use crate::support::f;
use crate::table_x13::W::V;
use crate::textures::{row, run_rows, tex, U4};

#[test]
fn txg_footprints() {
    let f4 = || tex(Target::T2D, Format::Rgba32F, [4, 4, 1], 1);
    let fv = |v: [f32; 4]| v.map(f);
    run_rows(&[
        // (0.4, 0.6): u = 1.6, v = 2.4 → floor(1.1) = 1, floor(1.9) = 1: i0 = 1, i1 = 2,
        // j0 = 1, j1 = 2 → texels 9, 10, 6, 5; component z = 0x200 + n.
        row(
            "TXG.F t, p0, texture[0].z, 2D;",
            fv([0.4, 0.6, 0.0, 0.0]),
            f4(),
            [V(0x209), V(0x20a), V(0x206), V(0x205)],
        ),
        // No suffix: component x; offset (-1, 1): i0 = 0, i1 = 1, j0 = 2, j1 = 3 →
        // T(0, 3) = 12, T(1, 3) = 13, T(1, 2) = 9, T(0, 2) = 8.
        row(
            "TXG.F t, p0, texture[0], 2D, (-1, 1);",
            fv([0.4, 0.6, 0.0, 0.0]),
            f4(),
            [V(12), V(13), V(9), V(8)],
        ),
        // RECT 3x2, unnormalised (2.0, 1.0): floor(1.5) = 1, floor(0.5) = 0 → T(1, 1) = 4,
        // T(2, 1) = 5, T(2, 0) = 2, T(1, 0) = 1; component y = 0x100 + n.
        row(
            "TXG.F t, p0, texture[0].y, RECT;",
            fv([2.0, 1.0, 0.0, 0.0]),
            tex(Target::Rect, Format::Rgba32F, [3, 2, 1], 1),
            [V(0x104), V(0x105), V(0x102), V(0x101)],
        ),
        // s = 0.375: u - 1/2 = 1.0 is a texel edge, the footprint may start at 0 or 1 and
        // every channel differs between the two: undefined.
        row(
            "TXG.F t, p0, texture[0], 2D;",
            fv([0.375, 0.5, 0.0, 0.0]),
            f4(),
            U4,
        ),
    ]);
}

/// TXGO (NV_gpu_program5 §2.X.8.Z TXGO): component `k` is `T_i0_j0` with the texel offset
/// `(op1[k], op2[k])`. (0.4, 0.6) on 4x4: i0 = floor(1.6 - 1/2) = 1, j0 = floor(2.4 - 1/2)
/// = 1; offsets (0, 0), (1, 0), (-1, 1), (2, -1) → (1, 1) = 5, (2, 1) = 6, (0, 2) = 8,
/// (3, 0) = 3; component y = 0x100 + n. An x offset of 8 (outside -8..7): undefined.
#[test]
fn txgo_per_texel_offsets() {
    let f4 = || tex(Target::T2D, Format::Rgba32F, [4, 4, 1], 1);
    let fv = |v: [f32; 4]| v.map(f);
    run_rows(&[
        row(
            "TEMP ox, oy;\nMOV.S ox, {0, 1, -1, 2};\nMOV.S oy, {0, 0, 1, -1};\n\
             TXGO.F t, p0, ox, oy, texture[0].y, 2D;",
            fv([0.4, 0.6, 0.0, 0.0]),
            f4(),
            [V(0x105), V(0x106), V(0x108), V(0x103)],
        ),
        row(
            "TEMP ox, oy;\nMOV.S ox, {0, 8, 0, 0};\nMOV.S oy, {0, 0, 0, 0};\n\
             TXGO.F t, p0, ox, oy, texture[0], 2D;",
            fv([0.4, 0.6, 0.0, 0.0]),
            f4(),
            [V(5), crate::table_x13::W::Undef, V(5), V(5)],
        ),
    ]);
}
