//! Spec-derived programs for the double and 64-bit integer opcodes (tgsi.rst "Double ISA",
//! "64-bit Integer ISA"): `OP OUT[0], IN[0], ...` over 64-bit edge values held in channel
//! pairs (xy and zw, low word first).
//!
//! Variants: `edge`, `swz-broadcast` (`.yyyy`), `swz-reversed` (`.wzyx`), `swz-pairs`
//! (`.zwxy`, the pairs swapped), `wm-x` .. `wm-w`, `wm-xy`, `wm-zw`; plus `abs`, `neg`,
//! `negabs` when no source is 64-bit (F2D, I2D ... take 32-bit modifiers) and `sat` when
//! the result is 32-bit (D2F ...). tgsi.rst defines modifiers only on 32-bit operands and
//! saturation only on 32-bit stores, so the oracle refuses them on 64-bit ones.
//!
//! Inputs: each invocation holds two combinations, one per slot (the xy pair, or channel x
//! of a 32-bit operand; the zw pair, or channel y / z), placed where tgsi.rst's formula for
//! the opcode reads them (`shaderdiff_oracles::interp::alu::wide` layouts).

use shaderdiff_model::wide::{layout, Layout64};
use shaderdiff_model::*;
use shaderdiff_model::{Inputs, RegKey};

use super::alu::{program, Shape, PLAIN};
use super::edges::{combos, source_edges};
use super::SpecCase;

/// Combinations of the `edge` variant and of the others.
const EDGE_COMBOS: usize = 512;
const VARIANT_COMBOS: usize = 64;

/// binary64 edges: IEEE special classes, boundaries of the conversions to 32- and 64-bit
/// integers and to binary32, round-half ties.
const DOUBLE: &[u64] = &[
    0,                     // +0
    0x8000_0000_0000_0000, // -0
    0x3FF0_0000_0000_0000, // 1
    0xBFF0_0000_0000_0000, // -1
    0x7FF0_0000_0000_0000, // +inf
    0xFFF0_0000_0000_0000, // -inf
    0x7FF8_0000_0000_0000, // quiet NaN
    0x0000_0000_0000_0001, // smallest denormal
    0x8000_0000_0000_0001, // -smallest denormal
    0x000F_FFFF_FFFF_FFFF, // largest denormal
    0x0010_0000_0000_0000, // DBL_MIN
    0x7FEF_FFFF_FFFF_FFFF, // DBL_MAX
    0xFFEF_FFFF_FFFF_FFFF, // -DBL_MAX
    0x3FE0_0000_0000_0000, // 0.5
    0xBFE0_0000_0000_0000, // -0.5
    0x3FF8_0000_0000_0000, // 1.5
    0xC004_0000_0000_0000, // -2.5
    0x4000_0000_0000_0000, // 2
    0x3FB9_9999_9999_999A, // 0.1
    0x41E0_0000_0000_0000, // 2^31
    0xC1E0_0000_0000_0000, // -2^31
    0x41F0_0000_0000_0000, // 2^32
    0x43E0_0000_0000_0000, // 2^63
    0xC3E0_0000_0000_0000, // -2^63
    0x43F0_0000_0000_0000, // 2^64
    0x47EF_FFFF_F000_0000, // halfway above FLT_MAX: D2F gives inf
    0x36A0_0000_0000_0000, // 2^-149, the smallest binary32 denormal
    0x4330_0000_0000_0001, // 2^52 + 1
    0x7FF0_0000_0000_0001, // signalling NaN
];

/// 64-bit integer edges: 0, ±1, word carries, INT64_MIN/MAX, UINT64_MAX, patterns.
const INT64: &[u64] = &[
    0,
    1,
    u64::MAX,
    0x8000_0000_0000_0000,
    0x7FFF_FFFF_FFFF_FFFF,
    2,
    0xFFFF_FFFF,
    0x1_0000_0000,
    0x1_0000_0001,
    (-7i64) as u64,
    7,
    0x0123_4567_89AB_CDEF,
    0x20_0000_0000_0001, // 2^53 + 1: not a binary64
    0x8000_0000_0000_0001,
];

/// 64-bit shift counts: "masked with 0x3f" (64 acts as 0).
const SHIFT64: &[u64] = &[0, 1, 31, 32, 33, 63, 64, 65, 0xFFFF_FFFF];

/// DLDEXP exponents: binary64 overflow, denormal and underflow boundaries.
const EXPONENT64: &[u64] = &[
    0,
    1,
    0xFFFF_FFFF, // -1
    1023,
    1024,
    (-1022i32) as u32 as u64,
    (-1074i32) as u32 as u64,
    (-1075i32) as u32 as u64,
    2046,
    (-2100i32) as u32 as u64,
    0x7FFF_FFFF,
    0x8000_0000,
];

/// The edge list of source `k` of the 64-bit opcode `op`.
fn edges64(op: Opcode, k: usize) -> Vec<u64> {
    use Opcode::*;
    match (op, k) {
        (U64SHL | U64SHR | I64SHR, 1) => SHIFT64.to_vec(),
        (DLDEXP, 1) => EXPONENT64.to_vec(),
        _ => match op.info().src_types.get(k).copied().flatten() {
            Some(ScalarType::F64) => DOUBLE.to_vec(),
            Some(ScalarType::I64 | ScalarType::U64) => INT64.to_vec(),
            // 32-bit sources (F2D, I2D, U2D, F2I64 ...): the 32-bit edges.
            _ => source_edges(op, k).into_iter().map(u64::from).collect(),
        },
    }
}

/// Source `k`'s vec4 holding `a` in the first slot and `b` in the second (module docs).
fn operand(lay: Layout64, k: usize, a: u64, b: u64) -> [u32; 4] {
    let (lo, hi) = (|v: u64| v as u32, |v: u64| (v >> 32) as u32);
    match (lay, k) {
        (Layout64::Widen, _) => [lo(a), lo(b), 0, 0],
        (Layout64::Ldexp, 1) => [lo(a), 0, lo(b), 0],
        // The zw count is read from src1.z (and must equal src1.y, see wide.rs).
        (Layout64::Shift, 1) => [lo(a), lo(b), lo(b), 0],
        _ => [lo(a), hi(a), lo(b), hi(b)],
    }
}

/// Inputs holding every combination: invocation `i` holds combination `i` in the first slot
/// and `i + stride` in the second (`stride` = the invocation count, a multiple of 4).
fn inputs(lay: Layout64, combos: &[Vec<u64>], sources: usize) -> Inputs {
    let n = combos.len().max(1);
    let inv = n.div_ceil(2).div_ceil(4) * 4;
    let get = |i: usize, k: usize| combos.get(i % n).and_then(|t| t.get(k).copied());
    let mut out = Inputs {
        invocations: inv,
        ..Inputs::default()
    };
    for k in 0..sources {
        let v = (0..inv)
            .map(|i| {
                let (a, b) = (get(i, k).unwrap_or(0), get(i + inv, k).unwrap_or(0));
                operand(lay, k, a, b)
            })
            .collect();
        out.registers.insert(RegKey::new(File::Input, k as u32), v);
    }
    out
}

/// The variants of the 64-bit opcode `op` (module docs).
fn variants(op: Opcode) -> Vec<(String, Shape, usize)> {
    let info = op.info();
    let wide_src = info.src_types.iter().flatten().any(|t| t.is_64bit());
    let wide_dst = info.dst_type.is_some_and(|t| t.is_64bit());
    let mut v = vec![("edge".to_string(), PLAIN, EDGE_COMBOS)];
    if !wide_src {
        let m = |abs, neg| Shape { abs, neg, ..PLAIN };
        v.push(("abs".into(), m(true, false), VARIANT_COMBOS));
        v.push(("neg".into(), m(false, true), VARIANT_COMBOS));
        v.push(("negabs".into(), m(true, true), VARIANT_COMBOS));
    }
    if !wide_dst {
        let sat = Shape {
            saturate: true,
            ..PLAIN
        };
        v.push(("sat".into(), sat, VARIANT_COMBOS));
    }
    let swz = |s: Swizzle| Shape {
        swizzle: s,
        ..PLAIN
    };
    v.push(("swz-broadcast".into(), swz([1; 4]), VARIANT_COMBOS));
    v.push(("swz-reversed".into(), swz([3, 2, 1, 0]), VARIANT_COMBOS));
    v.push(("swz-pairs".into(), swz([2, 3, 0, 1]), VARIANT_COMBOS));
    let masks = [
        ("x", 0b0001),
        ("y", 0b0010),
        ("z", 0b0100),
        ("w", 0b1000),
        ("xy", 0b0011),
        ("zw", 0b1100),
    ];
    for (name, writemask) in masks {
        let s = Shape { writemask, ..PLAIN };
        v.push((format!("wm-{name}"), s, VARIANT_COMBOS));
    }
    v
}

/// Every variant of the 64-bit opcode `op`; empty if `op` is not one.
pub(super) fn cases(op: Opcode) -> Vec<SpecCase> {
    let Some(lay) = layout(op) else {
        return Vec::new();
    };
    let n = op.info().num_src as usize;
    let edges: Vec<Vec<u64>> = (0..n).map(|k| edges64(op, k)).collect();
    variants(op)
        .into_iter()
        .map(|(variant, shape, limit)| {
            let ins = inputs(lay, &combos(edges.clone(), limit), n);
            SpecCase::new(op, &variant, program(op, &shape), ins, None)
        })
        .collect()
}
