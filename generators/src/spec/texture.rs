//! Spec-derived programs for the texture instructions the oracle runs (tgsi.rst TEX, TXP,
//! TXB, TXL, TXF, TXQ; NV_gpu_program4 §2.X.4.4 Tables X.17 / X.18; the model and its
//! decisions are in `shaderdiff_oracles::interp`'s `texture` module docs): texel fetches
//! inside and outside every level, NEAREST sampling with both wrap modes at texel centres,
//! edges and far outside, projection, array layers with ties, the level of detail of TXL
//! around level boundaries, and size queries of every level; TXD's level of detail from
//! explicit derivatives around level boundaries (OpenGL 3.x §3.8.8); texel offsets on
//! sampling and fetches, inside and outside the -8..7 limits; TG4's footprint.

use shaderdiff_model::texture::{Format, Target, Texture, Wrap};
use shaderdiff_model::{File, Opcode};
use shaderdiff_model::{Inputs, RegKey, Vec4};
use shaderdiff_tgsi::parse;

use super::SpecCase;

/// Texel `n` of level `l`: the floats `100l + n`, `+0.25`, `+0.5`, `+0.75`.
pub(super) fn texel(l: usize, n: u32) -> Vec4 {
    let b = (100 * l as u32 + n) as f32;
    [b, b + 0.25, b + 0.5, b + 0.75].map(f32::to_bits)
}

pub(super) fn texture(target: Target, size: [u32; 3], levels: usize, wrap: Wrap) -> Texture {
    Texture::filled(target, Format::Rgba32F, size, levels, wrap, texel)
}

/// Inputs: `IN[0]` of invocation `i` = `coords[i]` (padded to a multiple of 4 with the
/// first), the texture on `SAMP[0]`.
pub(super) fn inputs(coords: &[Vec4], tex: Texture) -> Inputs {
    let n = coords.len().div_ceil(4) * 4;
    let mut v = coords.to_vec();
    v.resize(n, coords[0]);
    let mut i = Inputs {
        invocations: n,
        ..Inputs::default()
    };
    i.registers.insert(RegKey::new(File::Input, 0), v);
    i.textures.insert(RegKey::new(File::Sampler, 0), tex);
    i
}

pub(super) fn fl(v: [f32; 4]) -> Vec4 {
    v.map(f32::to_bits)
}

pub(super) fn int(v: [i32; 4]) -> Vec4 {
    v.map(|x| x as u32)
}

/// Inputs of a TXD template: `IN[0]` coordinates, `IN[1]` d/dx, `IN[2]` d/dy per
/// invocation (padded to a multiple of 4 with the first), the texture on `SAMP[0]`.
fn txd_inputs(rows: &[[Vec4; 3]], tex: Texture) -> Inputs {
    let mut i = inputs(&rows.iter().map(|r| r[0]).collect::<Vec<_>>(), tex);
    for k in 1..3 {
        let mut v: Vec<Vec4> = rows.iter().map(|r| r[k]).collect();
        v.resize(i.invocations, rows[0][k]);
        i.registers.insert(RegKey::new(File::Input, k as u32), v);
    }
    i
}

/// A one-instruction program with texel offset `off` (an `IMM[0]` INT32 operand).
fn program_offset(op: Opcode, target: &str, off: [i32; 3]) -> String {
    let [x, y, z] = off;
    format!(
        "VERT\nDCL IN[0]\nDCL OUT[0]\nDCL SAMP[0]\nIMM[0] INT32 {{{x}, {y}, {z}, 0}}\n\
         {op} OUT[0], IN[0], SAMP[0], {target}, IMM[0].xyz\nEND\n"
    )
}

pub(super) fn program(op: Opcode, target: &str) -> String {
    format!(
        "VERT\nDCL IN[0]\nDCL OUT[0]\nDCL SAMP[0]\n{op} OUT[0], IN[0], SAMP[0], {target}\nEND\n"
    )
}

/// Every texture template as a spec case.
///
/// # Panics
/// Never for the shipped templates (fixed text; a template that does not parse is a bug
/// caught by the crate's tests).
pub(super) fn cases() -> Vec<SpecCase> {
    use Opcode::*;
    let mip = || texture(Target::T2D, [4, 4, 1], 3, Wrap::ClampToEdge);
    // Coordinates at texel centres, on edges, outside [0, 1] and not finite.
    let s = [0.125, 0.375, 0.5, 0.875, -0.1, 1.3, 2.0, -2.5];
    let sample: Vec<Vec4> = s
        .iter()
        .zip(s.iter().rev())
        .map(|(&a, &b)| fl([a, b, 0.0, 1.0]))
        .chain([
            fl([f32::NAN, 0.5, 0.0, 1.0]),
            fl([f32::INFINITY, 0.2, 0.0, 1.0]),
        ])
        .collect();
    let mut t: Vec<(Opcode, &str, String, Inputs)> = vec![
        (
            TXF,
            "levels",
            program(TXF, "2D"),
            inputs(
                &[
                    int([1, 1, 0, 0]),
                    int([3, 3, 0, 0]),
                    int([4, 0, 0, 0]),
                    int([-1, 0, 0, 0]),
                    int([1, 0, 0, 1]),
                    int([1, 1, 0, 1]),
                    int([0, 0, 0, 2]),
                    int([0, 0, 0, 3]),
                ],
                mip(),
            ),
        ),
        (
            TXF,
            "array",
            program(TXF, "2D_ARRAY"),
            inputs(
                &[
                    int([1, 0, 2, 0]),
                    int([0, 1, 3, 0]),
                    int([1, 1, -1, 0]),
                    int([0, 0, 1, 0]),
                ],
                texture(Target::Array2D, [2, 2, 3], 1, Wrap::Repeat),
            ),
        ),
        (
            TXF,
            "buffer",
            program(TXF, "BUFFER"),
            inputs(
                &[
                    int([0, 9, 9, 9]),
                    int([5, 0, 0, 0]),
                    int([6, 0, 0, 0]),
                    int([-3, 0, 0, 0]),
                ],
                texture(Target::Buffer, [6, 1, 1], 1, Wrap::Repeat),
            ),
        ),
        (
            TEX,
            "clamp",
            program(TEX, "2D"),
            inputs(
                &sample,
                texture(Target::T2D, [4, 4, 1], 1, Wrap::ClampToEdge),
            ),
        ),
        (
            TEX,
            "repeat",
            program(TEX, "2D"),
            inputs(&sample, texture(Target::T2D, [4, 4, 1], 1, Wrap::Repeat)),
        ),
        (
            TEX,
            "array-layers",
            program(TEX, "1D_ARRAY"),
            inputs(
                &[
                    fl([0.375, 0.4, 0.0, 0.0]),
                    fl([0.375, 0.5, 0.0, 0.0]),
                    fl([0.375, 1.6, 0.0, 0.0]),
                    fl([0.375, 9.0, 0.0, 0.0]),
                    fl([0.625, -4.0, 0.0, 0.0]),
                    fl([0.625, 1.5, 0.0, 0.0]),
                    fl([0.625, 2.49, 0.0, 0.0]),
                    fl([0.625, f32::NAN, 0.0, 0.0]),
                ],
                texture(Target::Array1D, [4, 3, 1], 1, Wrap::Repeat),
            ),
        ),
        (
            TEX,
            "3d",
            program(TEX, "3D"),
            inputs(
                &[
                    fl([0.25, 0.75, 0.75, 0.0]),
                    fl([0.9, 0.1, 0.6, 0.0]),
                    fl([1.5, -0.5, 0.25, 0.0]),
                    fl([0.5, 0.25, 0.25, 0.0]),
                ],
                texture(Target::T3D, [2, 2, 2], 1, Wrap::ClampToEdge),
            ),
        ),
        (
            TEX,
            "rect",
            program(TEX, "RECT"),
            inputs(
                &[
                    fl([2.5, 1.5, 0.0, 0.0]),
                    fl([-1.0, 9.0, 0.0, 0.0]),
                    fl([1.0, 0.5, 0.0, 0.0]),
                    fl([0.99, 1.99, 0.0, 0.0]),
                ],
                texture(Target::Rect, [3, 2, 1], 1, Wrap::ClampToEdge),
            ),
        ),
        (
            TXP,
            "project",
            program(TXP, "2D"),
            inputs(
                &[
                    fl([1.25, 0.625, 0.0, 2.0]),
                    fl([-0.625, -0.375, 0.0, -1.0]),
                    fl([0.5, 0.5, 0.0, 0.0]),
                    fl([0.5, 0.5, 0.0, 4.0]),
                ],
                texture(Target::T2D, [4, 4, 1], 1, Wrap::Repeat),
            ),
        ),
        (
            TXB,
            "vertex",
            program(TXB, "2D"),
            inputs(
                &[
                    fl([0.8, 0.8, 0.0, 0.0]),
                    fl([0.8, 0.8, 0.0, 3.0]),
                    fl([0.2, 0.6, 0.0, -9.0]),
                    fl([0.8, 0.8, 0.0, f32::INFINITY]),
                ],
                mip(),
            ),
        ),
        (
            TXL,
            "levels",
            program(TXL, "2D"),
            inputs(
                &[
                    fl([0.8, 0.8, 0.0, -1.0]),
                    fl([0.8, 0.8, 0.0, 0.4]),
                    fl([0.8, 0.8, 0.0, 0.5]),
                    fl([0.8, 0.8, 0.0, 1.0]),
                    fl([0.8, 0.8, 0.0, 1.5]),
                    fl([0.8, 0.8, 0.0, 1.6]),
                    fl([0.8, 0.8, 0.0, 9.0]),
                    fl([0.8, 0.8, 0.0, f32::NAN]),
                ],
                mip(),
            ),
        ),
        (
            TXD,
            "levels",
            "VERT\nDCL IN[0]\nDCL IN[1]\nDCL IN[2]\nDCL OUT[0]\nDCL SAMP[0]\n\
             TXD OUT[0], IN[0], IN[1], IN[2], SAMP[0], 2D\nEND\n"
                .to_string(),
            // 4x4 texture: du/dx = 4 ds/dx ...; rho 0, 1, 1.5, 2, 2 sqrt 2 (GL's
            // approximations straddle lambda 1.5), 4 (x and y), 64, NaN.
            txd_inputs(
                &[0.0, 0.25, 0.375, 0.5, 0.0, 0.5, 16.0, f32::NAN]
                    .iter()
                    .enumerate()
                    .map(|(k, &d)| {
                        let c = fl([0.8, 0.8, 0.0, 0.0]);
                        match k {
                            4 => [c, fl([0.5, 0.5, 0.0, 0.0]), fl([0.0; 4])],
                            5 => [c, fl([1.0, 0.0, 0.0, 0.0]), fl([0.0, d, 0.0, 0.0])],
                            _ => [c, fl([d, 0.0, 0.0, 0.0]), fl([0.0; 4])],
                        }
                    })
                    .collect::<Vec<_>>(),
                mip(),
            ),
        ),
        (
            TEX,
            "offsets",
            program_offset(TEX, "2D", [1, -2, 0]),
            inputs(&sample, texture(Target::T2D, [4, 4, 1], 1, Wrap::Repeat)),
        ),
        (
            TXL,
            "offsets",
            program_offset(TXL, "2D", [-1, 1, 0]),
            inputs(
                &[
                    fl([0.8, 0.8, 0.0, 0.0]),
                    fl([0.8, 0.8, 0.0, 1.0]),
                    fl([0.1, 0.1, 0.0, 0.0]),
                    fl([0.1, 0.1, 0.0, 2.0]),
                ],
                mip(),
            ),
        ),
        (
            TXF,
            "offsets",
            program_offset(TXF, "2D", [2, -1, 0]),
            inputs(
                &[
                    int([1, 1, 0, 0]),
                    int([2, 1, 0, 0]),
                    int([0, 0, 0, 0]),
                    int([0, 1, 0, 1]),
                ],
                mip(),
            ),
        ),
        (
            TXF,
            "offset-limit",
            program_offset(TXF, "1D", [8, 0, 0]),
            inputs(
                &[int([0, 0, 0, 0])],
                texture(Target::T1D, [16, 1, 1], 1, Wrap::Repeat),
            ),
        ),
        (
            TG4,
            "footprint",
            "VERT\nDCL IN[0]\nDCL OUT[0]\nDCL SAMP[0]\nIMM[0] INT32 {2, 0, 0, 0}\n\
             TG4 OUT[0], IN[0], IMM[0].xxxx, SAMP[0], 2D\nEND\n"
                .to_string(),
            // Footprints inside, on texel edges (u - 1/2 an integer), wrapped at the border.
            inputs(
                &[
                    fl([0.4, 0.6, 0.0, 0.0]),
                    fl([0.375, 0.5, 0.0, 0.0]),
                    fl([0.0, 0.0, 0.0, 0.0]),
                    fl([0.95, 0.05, 0.0, 0.0]),
                ],
                texture(Target::T2D, [4, 4, 1], 1, Wrap::Repeat),
            ),
        ),
        (
            TXQ,
            "levels",
            program(TXQ, "2D"),
            inputs(
                &[
                    int([0, 0, 0, 0]),
                    int([1, 0, 0, 0]),
                    int([2, 0, 0, 0]),
                    int([3, 0, 0, 0]),
                    int([-1, 0, 0, 0]),
                ],
                texture(Target::T2D, [5, 3, 1], 3, Wrap::Repeat),
            ),
        ),
        (
            TXQ,
            "array",
            program(TXQ, "2D_ARRAY"),
            inputs(
                &[int([0, 0, 0, 0])],
                texture(Target::Array2D, [4, 2, 6], 1, Wrap::Repeat),
            ),
        ),
    ];
    t.drain(..)
        .map(|(op, variant, text, inputs)| {
            let program = parse(&text, "template.tgsi")
                .unwrap_or_else(|e| panic!("spec template {op} {variant}: {e}"));
            SpecCase::new(op, variant, program, inputs, None)
        })
        .collect()
}
