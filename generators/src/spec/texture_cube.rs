//! Spec-derived programs for cube maps and the SHADOW targets (the model and its decisions:
//! `shaderdiff_oracles::texture` `targets` and the oracle's `tex_cube` / `tex_shadow`
//! module docs): the six major axes of OpenGL 3.x §3.8.6 Table 3.19 with ties, zero and
//! non-finite directions and face edges; cube map array layers; TXL levels, TXB and TXP on
//! cube maps; TXQ of cube maps and arrays; every TEXTURE_COMPARE_FUNC of §3.8.14-15 with the
//! reference below, equal to and above the depth, outside `[0, 1]` and NaN; TXP's divided
//! reference; the reference component of each SHADOW target (Table X.17, tgsi.rst TEX).

use shaderdiff_model::texture::{CompareFunc, Format, Target, Texture, Wrap};
use shaderdiff_model::Opcode;
use shaderdiff_model::{Inputs, Vec4};
use shaderdiff_tgsi::parse;

use super::texture::{fl, inputs, int, program, texel};
use super::SpecCase;

fn cube(target: Target, size: [u32; 3], levels: usize) -> Texture {
    Texture::filled(
        target,
        Format::Rgba32F,
        size,
        levels,
        Wrap::ClampToEdge,
        texel,
    )
}

/// A depth texture whose texel `n` has depth `(n + 1) / 8` (R word; G, B, A hold 0.5).
fn depth(target: Target, size: [u32; 3], func: CompareFunc) -> Texture {
    let mut t = Texture::filled(
        target,
        Format::Rgba32F,
        size,
        1,
        Wrap::ClampToEdge,
        |_, n| [(n + 1) as f32 / 8.0, 0.5, 0.5, 0.5].map(f32::to_bits),
    );
    t.compare = Some(func);
    t
}

/// Directions: each major axis, magnitudes other than 1, ties of two and three axes, a
/// face edge (`sc = 0`), zero, NaN and infinite components; `w` = `w`.
fn directions(w: f32) -> Vec<Vec4> {
    [
        [1.0, 0.3, -0.6, w],
        [-2.0, 0.3, 0.6, w],
        [0.3, 1.0, 0.6, w],
        [0.3, -0.5, -0.1, w],
        [-0.3, 0.6, 4.0, w],
        [0.3, 0.6, -1.0, w],
        [1.0, 1.0, 0.2, w],
        [-1.0, 0.5, -1.0, w],
        [1.0, -1.0, 1.0, w],
        [0.0, 0.25, 1.0, w],
        [0.0, 0.0, 0.0, w],
        [f32::NAN, 1.0, 0.0, w],
        [f32::INFINITY, 1.0, 0.0, w],
        [0.7, -0.7, 0.69, w],
    ]
    .into_iter()
    .map(fl)
    .collect()
}

/// SHADOW2D coordinates on a 2x2 depth texture (depths 1/8, 2/8, 3/8, 4/8): each texel with
/// the reference below, equal to and above its depth, outside `[0, 1]` and NaN.
fn shadow2d_coords() -> Vec<Vec4> {
    let mut v = Vec::new();
    for (n, (x, y)) in [(0.25, 0.25), (0.75, 0.25), (0.25, 0.75), (0.75, 0.75)]
        .into_iter()
        .enumerate()
    {
        let d = (n + 1) as f32 / 8.0;
        for r in [d - 0.0625, d, d + 0.0625] {
            v.push(fl([x, y, r, 0.0]));
        }
    }
    for r in [-1.0, 1.5, f32::INFINITY, f32::NAN] {
        v.push(fl([0.75, 0.75, r, 0.0]));
    }
    v
}

/// Every cube map and SHADOW template as a spec case.
///
/// # Panics
/// Never for the shipped templates (fixed text; a template that does not parse is a bug
/// caught by the crate's tests).
pub(super) fn cases() -> Vec<SpecCase> {
    use Opcode::*;
    let mut t: Vec<(Opcode, String, String, Inputs)> = vec![
        (
            TEX,
            "cube".into(),
            program(TEX, "CUBE"),
            inputs(&directions(0.0), cube(Target::Cube, [2, 2, 6], 1)),
        ),
        (
            TEX,
            "cubearray".into(),
            program(TEX, "CUBEARRAY"),
            inputs(
                &[0.3, 1.2, 5.0, -1.0, 0.5, 1.5, f32::NAN, 2.49]
                    .into_iter()
                    .map(|w| fl([1.0, 0.3, -0.6, w]))
                    .collect::<Vec<_>>(),
                cube(Target::CubeArray, [2, 2, 18], 1),
            ),
        ),
        (
            TXL,
            "cube-levels".into(),
            program(TXL, "CUBE"),
            inputs(
                &[-1.0, 0.0, 0.5, 1.0, 1.5, 2.0, 7.0, f32::NAN]
                    .into_iter()
                    .map(|l| fl([0.3, 1.0, 0.6, l]))
                    .collect::<Vec<_>>(),
                cube(Target::Cube, [4, 4, 6], 3),
            ),
        ),
        (
            TXB,
            "cube".into(),
            program(TXB, "CUBE"),
            inputs(
                &[
                    fl([1.0, 0.3, -0.6, 2.0]),
                    fl([1.0, 0.3, -0.6, f32::INFINITY]),
                ],
                cube(Target::Cube, [4, 4, 6], 3),
            ),
        ),
        (
            TXP,
            "cube".into(),
            program(TXP, "CUBE"),
            inputs(
                &[
                    fl([1.0, 0.3, -0.6, 2.0]),
                    fl([1.0, 0.3, -0.6, -2.0]),
                    fl([0.3, 1.0, 0.6, 0.5]),
                    fl([0.3, 1.0, 0.6, 0.0]),
                ],
                cube(Target::Cube, [2, 2, 6], 1),
            ),
        ),
        (
            TXQ,
            "cube".into(),
            program(TXQ, "CUBE"),
            inputs(
                &[int([0, 0, 0, 0]), int([1, 0, 0, 0]), int([2, 0, 0, 0])],
                cube(Target::Cube, [4, 4, 6], 2),
            ),
        ),
        (
            TXQ,
            "cubearray".into(),
            program(TXQ, "CUBEARRAY"),
            inputs(&[int([0, 0, 0, 0])], cube(Target::CubeArray, [2, 2, 18], 1)),
        ),
        (
            TXP,
            "shadow2d".into(),
            program(TXP, "SHADOW2D"),
            inputs(
                &[
                    fl([1.5, 0.5, 0.5, 2.0]),
                    fl([1.5, 0.5, 0.25, 2.0]),
                    fl([0.5, 0.5, 0.125, 4.0]),
                    fl([3.0, 1.0, 0.0, 4.0]),
                ],
                depth(Target::T2D, [2, 2, 1], CompareFunc::Lequal),
            ),
        ),
        (
            TEX,
            "shadow1d".into(),
            program(TEX, "SHADOW1D"),
            inputs(
                &[fl([0.125, 9.0, 0.1, 9.0]), fl([0.875, 9.0, 0.6, 9.0])],
                depth(Target::T1D, [4, 1, 1], CompareFunc::Greater),
            ),
        ),
        (
            TEX,
            "shadowrect".into(),
            program(TEX, "SHADOWRECT"),
            inputs(
                &[fl([1.5, 0.5, 0.25, 0.0]), fl([0.5, 1.5, 0.25, 0.0])],
                depth(Target::Rect, [2, 2, 1], CompareFunc::Gequal),
            ),
        ),
        (
            TEX,
            "shadow1darray".into(),
            program(TEX, "SHADOW1D_ARRAY"),
            inputs(
                &[fl([0.75, 1.0, 0.5, 0.0]), fl([0.25, 0.0, 0.125, 9.0])],
                depth(Target::Array1D, [2, 2, 1], CompareFunc::Equal),
            ),
        ),
        (
            TEX,
            "shadow2darray".into(),
            program(TEX, "SHADOW2D_ARRAY"),
            inputs(
                &[fl([0.25, 0.25, 1.0, 0.625]), fl([0.75, 0.25, 0.0, 0.25])],
                depth(Target::Array2D, [2, 2, 2], CompareFunc::Less),
            ),
        ),
        (
            TEX,
            "shadowcube".into(),
            program(TEX, "SHADOWCUBE"),
            inputs(
                &directions(0.5),
                depth(Target::Cube, [2, 2, 6], CompareFunc::Lequal),
            ),
        ),
    ];
    for f in CompareFunc::ALL {
        t.push((
            TEX,
            format!("shadow2d-{}", f.name().to_lowercase()),
            program(TEX, "SHADOW2D"),
            inputs(&shadow2d_coords(), depth(Target::T2D, [2, 2, 1], f)),
        ));
    }
    t.drain(..)
        .map(|(op, variant, text, inputs)| {
            let program = parse(&text, "template.tgsi")
                .unwrap_or_else(|e| panic!("spec template {op} {variant}: {e}"));
            SpecCase::new(op, &variant, program, inputs, None)
        })
        .collect()
}
