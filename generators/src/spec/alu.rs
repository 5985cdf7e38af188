//! Spec-derived programs for the ALU opcodes: one instruction `OP OUT[0], IN[0], ...` per
//! program, over the opcode's edge inputs, in variants for source modifiers, saturate,
//! swizzles, writemasks and (for approximate opcodes) the precision contract's input range.

use shaderdiff_model::*;
use shaderdiff_model::{Inputs, RegKey};

use super::edges::{combos, source_edges, FLOAT};
use super::{ApproxRange, SpecCase};

/// Combinations covered by the `edge` variant, and by the operand variants.
const EDGE_COMBOS: usize = 1024;
const VARIANT_COMBOS: usize = 64;
/// `_SAT` is about values (NaN, ±0, ±inf, above 1), so it gets more than other variants.
const SAT_COMBOS: usize = 256;

/// How the sources and the destination of one variant look.
#[derive(Clone, Copy, Debug)]
pub(super) struct Shape {
    pub abs: bool,
    pub neg: bool,
    pub saturate: bool,
    pub swizzle: Swizzle,
    pub writemask: u8,
}

pub(super) const PLAIN: Shape = Shape {
    abs: false,
    neg: false,
    saturate: false,
    swizzle: IDENTITY_SWIZZLE,
    writemask: WRITEMASK_XYZW,
};

/// The variants every ALU opcode gets: `(name, shape, combination limit)`.
fn variants(op: Opcode) -> Vec<(String, Shape, usize)> {
    let mut v = vec![
        ("edge".to_string(), PLAIN, EDGE_COMBOS),
        ("abs".into(), Shape { abs: true, ..PLAIN }, VARIANT_COMBOS),
        ("neg".into(), Shape { neg: true, ..PLAIN }, VARIANT_COMBOS),
        (
            "negabs".into(),
            Shape {
                abs: true,
                neg: true,
                ..PLAIN
            },
            VARIANT_COMBOS,
        ),
    ];
    if op.info().num_dst == 1 {
        v.push((
            "sat".into(),
            Shape {
                saturate: true,
                ..PLAIN
            },
            SAT_COMBOS,
        ));
    }
    v.push((
        "swz-broadcast".into(),
        Shape {
            swizzle: [1; 4],
            ..PLAIN
        },
        VARIANT_COMBOS,
    ));
    v.push((
        "swz-reversed".into(),
        Shape {
            swizzle: [3, 2, 1, 0],
            ..PLAIN
        },
        VARIANT_COMBOS,
    ));
    for (c, name) in CHANNEL_NAMES.iter().enumerate() {
        v.push((
            format!("wm-{name}"),
            Shape {
                writemask: 1 << c,
                ..PLAIN
            },
            VARIANT_COMBOS,
        ));
    }
    v
}

/// `OP[_SAT] OUT[0].mask, IN[0], ..., IN[n-1]` with the variant's modifiers and swizzle.
pub(super) fn program(op: Opcode, shape: &Shape) -> Program {
    let n = op.info().num_src as u32;
    let mut p = Program::new(Stage::Vertex);
    if n > 0 {
        p.declarations.push(Declaration::new(File::Input, 0, n - 1));
    }
    p.declarations.push(Declaration::new(File::Output, 0, 0));
    let srcs = (0..n)
        .map(|k| Src {
            reg: Register::new(File::Input, k as i32),
            swizzle: shape.swizzle,
            abs: shape.abs,
            neg: shape.neg,
        })
        .collect();
    let mut insn = Instruction::new(
        op,
        vec![Dst {
            reg: Register::new(File::Output, 0),
            writemask: shape.writemask,
        }],
        srcs,
    );
    if shape.saturate {
        insn.saturate = Saturate::Zero;
    }
    p.instructions = vec![insn, Instruction::new(Opcode::END, vec![], vec![])];
    p
}

/// Inputs holding every combination. Invocation `i`, channel `c` of `IN[k]` is source `k`
/// of combination `(i + c * stride) mod N`.
///
/// * `packed` (componentwise opcodes, where channel c of the result depends only on
///   channel c of the sources): one combination per channel, `stride` = the invocation
///   count, so about `N / 4` invocations hold each combination exactly once.
/// * otherwise (replicated and vector opcodes): one combination per invocation,
///   `stride = ceil(N / 4)`, so every channel sees every combination and a replicated
///   opcode (which reads one channel) does too.
///
/// The invocation count is rounded up to a multiple of 4; extra slots repeat combinations.
pub(super) fn combo_inputs(combos: &[Vec<u32>], sources: usize, packed: bool) -> Inputs {
    let n = combos.len().max(1);
    let (invocations, stride) = if packed {
        let inv = n.div_ceil(4).div_ceil(4) * 4;
        (inv, inv)
    } else {
        (n.div_ceil(4) * 4, n.div_ceil(4))
    };
    let mut inputs = Inputs {
        invocations,
        ..Inputs::default()
    };
    for k in 0..sources {
        let v = (0..invocations)
            .map(|i| {
                [0usize, 1, 2, 3].map(|c| {
                    combos
                        .get((i + c * stride) % n)
                        .and_then(|t| t.get(k).copied())
                        .unwrap_or(0)
                })
            })
            .collect();
        inputs
            .registers
            .insert(RegKey::new(File::Input, k as u32), v);
    }
    inputs
}

/// The binary32 nearest `x` that lies inside `[lo, hi]` (rounding toward the inside when
/// the nearest one is outside).
fn f32_inside(x: f64, lo: f64, hi: f64) -> u32 {
    let mut f = x as f32;
    if (f as f64) > hi {
        f = f32::from_bits(if f > 0.0 {
            f.to_bits() - 1
        } else {
            f.to_bits() + 1
        });
    }
    if (f as f64) < lo {
        f = f32::from_bits(if f >= 0.0 {
            f.to_bits() + 1
        } else {
            f.to_bits() - 1
        });
    }
    f.to_bits()
}

/// Points of `[lo, hi]` for a range variant: both ends, zero when inside, and 61 points
/// between them, as binary32 inside the range; with `abs`, each also negated.
fn range_values(r: &ApproxRange) -> Vec<u32> {
    let mut v = vec![f32_inside(r.lo, r.lo, r.hi), f32_inside(r.hi, r.lo, r.hi)];
    if r.lo <= 0.0 && 0.0 <= r.hi {
        v.push(0);
    }
    // Evenly spaced, or geometrically for wide positive ranges such as [2^-126, 2^126].
    let geometric = r.lo > 0.0 && r.hi / r.lo > 64.0;
    for i in 1..62 {
        let t = i as f64 / 62.0;
        let x = if geometric {
            // libm (pure Rust): the same bits on every platform, unlike the host pow.
            r.lo * libm::pow(r.hi / r.lo, t)
        } else {
            r.lo + (r.hi - r.lo) * t
        };
        v.push(f32_inside(x, r.lo, r.hi));
    }
    if r.abs {
        let neg: Vec<u32> = v.iter().map(|w| w ^ 0x8000_0000).collect();
        v.extend(neg);
    }
    let mut seen = std::collections::BTreeSet::new();
    v.retain(|w| seen.insert(*w));
    v
}

/// Every ALU variant of `op`, plus one `range` variant per contract range of `op`.
pub(super) fn cases(op: Opcode, ranges: &[ApproxRange]) -> Vec<SpecCase> {
    if shaderdiff_model::wide::is_wide(op) {
        return super::wide::cases(op);
    }
    let n = op.info().num_src as usize;
    let edges: Vec<Vec<u32>> = (0..n).map(|k| source_edges(op, k)).collect();
    let packed = op.info().output_mode == OutputMode::Componentwise;
    let mut out = Vec::new();
    for (variant, shape, limit) in variants(op) {
        let inputs = combo_inputs(&combos(edges.clone(), limit), n, packed);
        out.push(SpecCase::new(
            op,
            &variant,
            program(op, &shape),
            inputs,
            None,
        ));
    }
    for (i, r) in ranges.iter().filter(|r| r.opcode == op).enumerate() {
        // The ranged source gets points of the range; the others ordinary finite values
        // (the range states where the bound holds, so NaN and inf stay out).
        let finite: Vec<u32> = FLOAT
            .iter()
            .copied()
            .filter(|&w| f32::from_bits(w).is_normal() || w == 0)
            .take(8)
            .collect();
        let lists = (0..n)
            .map(|k| {
                if k == r.source {
                    range_values(r)
                } else {
                    finite.clone()
                }
            })
            .collect();
        let name = if i == 0 {
            "range".to_string()
        } else {
            format!("range{}", i + 1)
        };
        let inputs = combo_inputs(&combos(lists, EDGE_COMBOS), n, packed);
        out.push(SpecCase::new(
            op,
            &name,
            program(op, &PLAIN),
            inputs,
            Some(r.describe()),
        ));
    }
    out
}
