//! Spec-derived programs for the interpolation opcodes (tgsi.rst "Interpolation ISA":
//! INTERP_CENTROID, INTERP_SAMPLE, INTERP_OFFSET) under shaderdiff's model (README
//! "Additions to INTERFACE.md"): the centroid and sample 0 are the pixel centre (the input
//! value), and at offset `(dx, dy)` an attribute affine across the quad (INTERFACE.md
//! "Fragment quads") is `v + dx*ddx + dy*ddy`.
//!
//! * `edge`: the float edge values (quads that are not affine: OFFSET is undefined there,
//!   CENTROID and SAMPLE 0 give the edge value itself);
//! * `negabs`: the source modifiers, applied to the interpolated value;
//! * `linear`: affine quads (fractional, large, zero and negative slopes), offsets on and
//!   off the 1/16 grid, at the range ends ±0.5, outside it (±0.75: undefined) and NaN;
//! * `flat`: a CONSTANT input (every position gives the input);
//! * `samples`: sample numbers 0 (defined), 1, -1 and INT_MIN (undefined), per invocation.
//!
//! Hand-written templates with inputs from the edge lists, like `control`.

use shaderdiff_model::{File, Opcode};
use shaderdiff_model::{Inputs, RegKey, Vec4};
use shaderdiff_tgsi::parse;

use super::edges::FLOAT;
use super::SpecCase;

/// The interpolation opcodes the suite covers.
pub const INTERP_OPCODES: &[Opcode] = &[
    Opcode::INTERP_CENTROID,
    Opcode::INTERP_SAMPLE,
    Opcode::INTERP_OFFSET,
];

/// Offsets `(dx, dy)` cycled over the invocations of the `linear` cases: the centre, grid
/// points, the range ends, off-grid values (an engine may snap them to the 1/16 grid), and
/// out-of-range or NaN components (undefined).
const OFFSETS: &[(f32, f32)] = &[
    (0.0, 0.0),
    (0.5, -0.5),
    (-0.5, 0.5),
    (0.25, 0.125),
    (-0.0625, 0.4375),
    (0.3, -0.2),
    (0.1, 0.45),
    (-0.33, -0.17),
    (0.75, 0.0),
    (0.0, -0.75),
    (f32::NAN, 0.25),
    (0.49, 0.01),
];

/// Quads `base + sx*x + sy*y` per channel (computed in binary64, rounded once: affine
/// within rounding), for several bases and slopes, 4 invocations each.
fn linear_values() -> Vec<Vec4> {
    let quads: [[(f64, f64, f64); 4]; 8] = [
        [
            (0.1, 0.3, -0.7),
            (1.0, 2.0, 4.0),
            (-3.0, 0.5, -4.0),
            (0.0, 0.0, 0.0),
        ],
        [
            (100.0, -8.0, 0.25),
            (1e-3, 1e-4, -3e-4),
            (-0.0, 0.125, 1024.0),
            (7.0, -7.0, 7.0),
        ],
        [
            (1e30, 1e29, -1e29),
            (-2.5, 1.0 / 3.0, 2.0 / 3.0),
            (0.5, 0.5, 0.5),
            (1e-38, 1e-38, 0.0),
        ],
        [
            (3.25, 2.75, 1.375),
            (-1e6, 12345.678, -0.001),
            (0.0, 1.0, 0.0),
            (0.0, 0.0, 1.0),
        ],
        [
            (65504.0, -1.0, 1.0),
            (-0.1, -0.2, -0.3),
            (42.0, 1e-7, 1e7),
            (1.0, -1.0, -1.0),
        ],
        [
            (0.2, 0.6, 0.9),
            (5.5, 0.0, -2.25),
            (-1e-3, 3e-3, 7e-3),
            (2.0, 2.0, -2.0),
        ],
        [
            (1e20, -3e19, 5e18),
            (0.3, 0.3, 0.3),
            (-100.0, 0.01, 0.02),
            (8.0, 0.5, 0.25),
        ],
        [
            (1e-30, 2e-30, -1e-30),
            (9.0, -0.9, 0.09),
            (-7.5, 2.5, 2.5),
            (0.7, -0.35, 0.15),
        ],
    ];
    let mut v = Vec::new();
    for q in quads {
        for (x, y) in [(0.0, 0.0), (1.0, 0.0), (0.0, 1.0), (1.0, 1.0)] {
            v.push(q.map(|(b, sx, sy)| ((b + sx * x + sy * y) as f32).to_bits()));
        }
    }
    v
}

/// `IN[0]` = `values` (whole quads, repeated up to `n` invocations) and `IN[1]` =
/// `second(i)` for invocation `i`.
fn inputs(values: &[Vec4], n: usize, second: impl Fn(usize) -> Vec4) -> Inputs {
    let mut inputs = Inputs {
        invocations: n,
        ..Inputs::default()
    };
    let v0: Vec<Vec4> = (0..n).map(|i| values[i % values.len()]).collect();
    let v1: Vec<Vec4> = (0..n).map(second).collect();
    inputs.registers.insert(RegKey::new(File::Input, 0), v0);
    inputs.registers.insert(RegKey::new(File::Input, 1), v1);
    inputs
}

/// The float edges, channel `c` of invocation `i` holding edge `(i + c) % len` (whole
/// quads).
fn edge_values() -> Vec<Vec4> {
    let n = FLOAT.len().div_ceil(4) * 4;
    (0..n)
        .map(|i| [0, 1, 2, 3].map(|c| FLOAT[(i + c) % FLOAT.len()]))
        .collect()
}

fn offset_of(i: usize) -> Vec4 {
    let (dx, dy) = OFFSETS[i % OFFSETS.len()];
    // z, w are ignored (tgsi.rst: "the offset src1.xy").
    [dx.to_bits(), dy.to_bits(), f32::NAN.to_bits(), 0x4000_0000]
}

fn text(decl: &str, body: &str) -> String {
    format!(
        "FRAG\nDCL IN[0], GENERIC[0], {decl}\nDCL IN[1], GENERIC[1], CONSTANT\n\
         DCL OUT[0], COLOR\n{body}\nEND\n"
    )
}

/// `(opcode, variant, text, inputs)` of every template.
fn templates() -> Vec<(Opcode, &'static str, String, Inputs)> {
    use Opcode::*;
    let edges = edge_values();
    let linear = linear_values();
    let n_edge = edges.len();
    let n_linear = linear.len() * 3;
    let sample0 = |_: usize| [0; 4];
    let samples = |i: usize| [[0u32, 1, 0xffff_ffff, 0x8000_0000][i % 4]; 4];
    vec![
        (
            INTERP_CENTROID,
            "edge",
            text("PERSPECTIVE", "INTERP_CENTROID OUT[0], IN[0]"),
            inputs(&edges, n_edge, sample0),
        ),
        (
            INTERP_CENTROID,
            "negabs",
            text("LINEAR", "INTERP_CENTROID OUT[0], -|IN[0].wzyx|"),
            inputs(&edges, n_edge, sample0),
        ),
        (
            INTERP_SAMPLE,
            "edge",
            text("PERSPECTIVE", "INTERP_SAMPLE OUT[0], IN[0], IN[1].xxxx"),
            inputs(&edges, n_edge, sample0),
        ),
        (
            INTERP_SAMPLE,
            "samples",
            text("PERSPECTIVE", "INTERP_SAMPLE OUT[0], -IN[0], IN[1].xxxx"),
            inputs(&linear, linear.len(), samples),
        ),
        (
            INTERP_OFFSET,
            "edge",
            text("PERSPECTIVE", "INTERP_OFFSET OUT[0], IN[0], IN[1]"),
            inputs(&edges, n_edge, offset_of),
        ),
        (
            INTERP_OFFSET,
            "linear",
            text("PERSPECTIVE", "INTERP_OFFSET OUT[0], IN[0], IN[1]"),
            inputs(&linear, n_linear, offset_of),
        ),
        (
            INTERP_OFFSET,
            "negabs",
            text("LINEAR", "INTERP_OFFSET OUT[0], -|IN[0].yxwz|, IN[1].yxzw"),
            inputs(&linear, n_linear, offset_of),
        ),
        (
            INTERP_OFFSET,
            "sat",
            text("PERSPECTIVE", "INTERP_OFFSET_SAT OUT[0], IN[0], IN[1]"),
            inputs(&linear, n_linear, offset_of),
        ),
        (
            INTERP_OFFSET,
            "flat",
            text("CONSTANT", "INTERP_OFFSET OUT[0], IN[0], IN[1]"),
            inputs(&edges, n_edge, offset_of),
        ),
    ]
}

/// Every interpolation template as a spec case.
///
/// # Panics
/// Never for the shipped templates (fixed text; one that does not parse is a bug the
/// crate's tests catch).
pub(super) fn cases() -> Vec<SpecCase> {
    templates()
        .into_iter()
        .map(|(op, variant, text, inputs)| {
            let program = parse(&text, "template.tgsi")
                .unwrap_or_else(|e| panic!("spec template {op} {variant}: {e}"));
            SpecCase::new(op, variant, program, inputs, None)
        })
        .collect()
}
