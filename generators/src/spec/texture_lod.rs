//! Spec-derived programs for the implicit level of detail of fragment quads (TEX, TXP, TXB
//! and LODQ; OpenGL 3.x §3.8.8, tgsi.rst LODQ) and for multisample textures (TXF on
//! `2D_MSAA` / `2D_ARRAY_MSAA`, TXQS; tgsi.rst TXF, TXQS). The model and its decisions are
//! in `shaderdiff_oracles::interp`'s `tex_lod` and `tex_ms` module docs. The quads span
//! magnification, one level, the clamp to the last level, diagonal derivatives (two
//! candidate levels), rows that differ (coarse or fine), a level boundary and a NaN
//! coordinate; the fetches cover every sample and the out-of-range ones.

use shaderdiff_model::texture::{Format, MinFilter, Target, Texture, Wrap};
use shaderdiff_model::Opcode;
use shaderdiff_model::{Inputs, Vec4};
use shaderdiff_tgsi::parse;

use super::texture::{fl, inputs, int, texel, texture};
use super::SpecCase;

/// Quads (lanes `(x,y) (x+1,y) (x,y+1) (x+1,y+1)`) of coordinates on an 8x8 texture,
/// `w` = `w`, each lane's `(s, t)` multiplied by `w` (TXP divides them back).
fn quads(w: f32) -> Vec<Vec4> {
    // (s0, t0, ds/dx, dt/dx, ds/dy, dt/dy, extra ds on lane 3).
    let q: [(f32, f32, f32, f32, f32, f32, f32); 7] = [
        // du/dx = 2, dv/dy = 4: lambda 2.
        (0.3, 0.3, 0.25, 0.0, 0.0, 0.5, 0.0),
        // du/dx = dv/dy = 0.5: lambda -1 (magnification, level 0).
        (0.3, 0.3, 0.0625, 0.0, 0.0, 0.0625, 0.0),
        // du/dx = dv/dx = 2: rho between 2 and 4 (levels 1 and 2).
        (0.3, 0.3, 0.25, 0.25, 0.0, 0.0, 0.0),
        // du/dx = 16: lambda 4, clamped to the last level 3.
        (0.1, 0.3, 2.0, 0.0, 0.0, 0.125, 0.0),
        // Rows differ: du/dx = 2 on the top row, 4 on the bottom one.
        (0.3, 0.3, 0.25, 0.0, 0.0, 0.0, 0.25),
        // du/dx = 2^1.5: lambda 1.5, the boundary between levels 1 and 2.
        (0.2, 0.4, 0.353_553_4, 0.0, 0.0, 0.0, 0.0),
        // du/dx = 1, dv/dy = 1: lambda 0 (level 0), lane 1 NaN.
        (0.3, 0.3, 0.125, 0.0, 0.0, 0.125, f32::NAN),
    ];
    let mut out = Vec::new();
    for (k, &(s0, t0, sx, tx, sy, ty, extra)) in q.iter().enumerate() {
        for (x, y) in [(0.0, 0.0), (1.0, 0.0), (0.0, 1.0), (1.0, 1.0)] {
            let mut s = s0 + sx * x + sy * y;
            let t = t0 + tx * x + ty * y;
            if k == 6 && x == 1.0 && y == 0.0 {
                s = extra;
            } else if k != 6 && x == 1.0 && y == 1.0 {
                s += extra;
            }
            out.push(fl([s * w, t * w, 0.0, w]));
        }
    }
    out
}

fn frag(op: Opcode) -> String {
    format!(
        "FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\nDCL SAMP[0]\n\
         {op} OUT[0], IN[0], SAMP[0], 2D\nEND\n"
    )
}

/// A multisample texture of RGBA32F texels `texel(0, n)`, each pixel's samples in a row.
fn ms(target: Target, size: [u32; 3], samples: u32) -> Texture {
    let n = size.iter().product::<u32>() * samples;
    Texture {
        target,
        format: Format::Rgba32F,
        size,
        wrap: [Wrap::ClampToEdge; 3],
        min_filter: MinFilter::Nearest,
        levels: vec![(0..n).map(|k| texel(0, k)).collect()],
        samples,
        compare: None,
    }
}

/// Every template of this module as a spec case.
///
/// # Panics
/// Never for the shipped templates (fixed text; the crate's tests parse and run them).
pub(super) fn cases() -> Vec<SpecCase> {
    use Opcode::*;
    let mip = || texture(Target::T2D, [8, 8, 1], 4, Wrap::ClampToEdge);
    // TXB: the first quad (lambda 2) with biases -1, 0.4, 3 (maybe clamped to 2), -5 and
    // NaN, one per quad.
    let biased: Vec<Vec4> = [-1.0f32, 0.4, 3.0, -5.0, f32::NAN]
        .iter()
        .flat_map(|&b| {
            quads(1.0)[..4]
                .iter()
                .map(move |v| [v[0], v[1], v[2], b.to_bits()])
                .collect::<Vec<_>>()
        })
        .collect();
    let t: Vec<(Opcode, &str, String, Inputs)> = vec![
        (TEX, "implicit-lod", frag(TEX), inputs(&quads(1.0), mip())),
        (TXP, "implicit-lod", frag(TXP), inputs(&quads(2.0), mip())),
        (TXB, "implicit-lod", frag(TXB), inputs(&biased, mip())),
        (LODQ, "quads", frag(LODQ), inputs(&quads(1.0), mip())),
        (
            TXF,
            "msaa",
            "VERT\nDCL IN[0]\nDCL OUT[0]\nDCL SAMP[0]\nTXF OUT[0], IN[0], SAMP[0], 2D_MSAA\nEND\n"
                .to_string(),
            inputs(
                &[
                    int([1, 1, 0, 3]),
                    int([0, 0, 5, 0]),
                    int([2, 0, 0, 1]),
                    int([1, 0, 0, 4]),
                    int([1, 0, 0, -1]),
                    int([0, 1, 0, 2]),
                    int([-1, 0, 0, 0]),
                    int([0, 2, 0, 0]),
                ],
                ms(Target::Ms2D, [3, 2, 1], 4),
            ),
        ),
        (
            TXF,
            "msaa-array",
            "VERT\nDCL IN[0]\nDCL OUT[0]\nDCL SAMP[0]\n\
             TXF OUT[0], IN[0], SAMP[0], 2D_ARRAY_MSAA\nEND\n"
                .to_string(),
            inputs(
                &[
                    int([1, 0, 2, 1]),
                    int([0, 0, 0, 0]),
                    int([1, 0, 3, 0]),
                    int([0, 0, 1, 2]),
                ],
                ms(Target::MsArray2D, [2, 1, 3], 2),
            ),
        ),
        (
            TXQS,
            "msaa",
            "VERT\nDCL IN[0]\nDCL OUT[0]\nDCL SAMP[0]\nTXQS OUT[0], SAMP[0], 2D_MSAA\nEND\n"
                .to_string(),
            inputs(&[int([0, 0, 0, 0])], ms(Target::Ms2D, [2, 2, 1], 8)),
        ),
        (
            TXQS,
            "single",
            "VERT\nDCL IN[0]\nDCL OUT[0]\nDCL SAMP[0]\nTXQS OUT[0], SAMP[0], 2D\nEND\n".to_string(),
            inputs(
                &[int([0, 0, 0, 0])],
                texture(Target::T2D, [2, 2, 1], 1, Wrap::Repeat),
            ),
        ),
    ];
    t.into_iter()
        .map(|(op, variant, text, inputs)| {
            let program = parse(&text, "template.tgsi")
                .unwrap_or_else(|e| panic!("spec template {op} {variant}: {e}"));
            SpecCase::new(op, variant, program, inputs, None)
        })
        .collect()
}
