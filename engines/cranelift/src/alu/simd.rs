//! Small CLIF building blocks shared by the ALU lowerings: constants, bit casts, lane masks,
//! 32-bit lane shuffles, the binary64 detour and the per-lane scalar fallback.
//!
//! Every vector here is 128 bits wide with one 32-bit lane per invocation of a quad. Values
//! cross between `i32x4` (raw channel bits) and `f32x4` by [`cast`], which is free on x86-64.
//! Only instructions that Cranelift 0.135 lowers on baseline x86-64 (SSE2) are used; the
//! shuffles are chosen so that they match `pshufd`, `shufps` or `punpck*` patterns and never
//! need SSSE3's `pshufb`.

use cranelift_codegen::ir::condcodes::{FloatCC, IntCC};
use cranelift_codegen::ir::types::{F32, F32X4, F64X2, I32, I32X4, I8X16};
use cranelift_codegen::ir::{ConstantData, Endianness, InstBuilder, MemFlagsData, Type, Value};
use cranelift_frontend::FunctionBuilder;

/// Builder shorthand used by every lowering function.
pub(super) type Fb<'f> = FunctionBuilder<'f>;

/// Bit cast `v` to `ty` (same width), little-endian lane order; a no-op when the type matches.
///
/// When `v` is itself a bit cast of a value of type `ty`, that value is returned: no cast
/// is added. The lowering keeps every register channel as `i32x4`, so an operation's `f32x4`
/// result is cast to `i32x4` and cast back by its next float consumer; this keeps a chain of
/// float operations in `f32x4` without those casts (the original value defines the cast, so
/// it dominates every use of the cast). Cast results nobody uses generate no code.
pub(crate) fn cast(b: &mut Fb, ty: Type, v: Value) -> Value {
    let dfg = &b.func.dfg;
    if dfg.value_type(v) == ty {
        return v;
    }
    let src = cast_source(dfg, v).unwrap_or(v);
    if dfg.value_type(src) == ty {
        return src;
    }
    let flags = MemFlagsData::new().with_endianness(Endianness::Little);
    b.ins().bitcast(ty, flags, src)
}

/// The operand of the bit cast that defines `v`, if `v` is a bit cast result.
pub(super) fn cast_source(dfg: &cranelift_codegen::ir::DataFlowGraph, v: Value) -> Option<Value> {
    use cranelift_codegen::ir::{InstructionData, Opcode, ValueDef};
    let ValueDef::Result(inst, _) = dfg.value_def(v) else {
        return None;
    };
    match dfg.insts[inst] {
        InstructionData::LoadNoOffset {
            opcode: Opcode::Bitcast,
            arg,
            ..
        } => Some(arg),
        _ => None,
    }
}

/// `v` viewed as `f32x4`.
pub(super) fn fv(b: &mut Fb, v: Value) -> Value {
    cast(b, F32X4, v)
}

/// `v` viewed as `i32x4` (raw channel bits).
pub(super) fn iv(b: &mut Fb, v: Value) -> Value {
    cast(b, I32X4, v)
}

/// An `i32x4` with `x` in every lane.
pub(super) fn ci(b: &mut Fb, x: u32) -> Value {
    let s = b.ins().iconst(I32, i64::from(x as i32));
    b.ins().splat(I32X4, s)
}

/// An `f32x4` with `x` in every lane.
pub(super) fn cf(b: &mut Fb, x: f32) -> Value {
    let s = b.ins().f32const(x);
    b.ins().splat(F32X4, s)
}

/// An `f64x2` with `x` in both lanes.
pub(super) fn cd(b: &mut Fb, x: f64) -> Value {
    let s = b.ins().f64const(x);
    b.ins().splat(F64X2, s)
}

/// Lane mask (`~0` / `0` per lane, as `i32x4`) of the float comparison `x cc y`.
pub(super) fn fcmp(b: &mut Fb, cc: FloatCC, x: Value, y: Value) -> Value {
    let (x, y) = (fv(b, x), fv(b, y));
    b.ins().fcmp(cc, x, y)
}

/// Lane mask (`~0` / `0` per lane) of the integer comparison `x cc y`.
pub(super) fn icmp(b: &mut Fb, cc: IntCC, x: Value, y: Value) -> Value {
    let (x, y) = (iv(b, x), iv(b, y));
    b.ins().icmp(cc, x, y)
}

/// Lane mask of `x == k` for a constant `k`.
pub(super) fn eq_const(b: &mut Fb, x: Value, k: u32) -> Value {
    let kv = ci(b, k);
    icmp(b, IntCC::Equal, x, kv)
}

/// Per lane: `mask ? x : y` (mask lanes are all ones or all zeros); result as `i32x4`.
pub(super) fn sel(b: &mut Fb, mask: Value, x: Value, y: Value) -> Value {
    let (m, x, y) = (iv(b, mask), iv(b, x), iv(b, y));
    b.ins().bitselect(m, x, y)
}

/// Per lane: `x & k` for a constant `k`.
pub(super) fn and_const(b: &mut Fb, x: Value, k: u32) -> Value {
    let (x, kv) = (iv(b, x), ci(b, k));
    b.ins().band(x, kv)
}

/// Rearranges 32-bit lanes: result lane j is lane `idx[j]` of `x` (0..=3) or of `y` (4..=7).
/// Callers only use index patterns that x86-64 lowers without SSSE3 (`pshufd`, `shufps`,
/// `punpckldq`, `punpckhdq`, `punpcklqdq`).
pub(super) fn shuffle32(b: &mut Fb, x: Value, y: Value, idx: [u8; 4]) -> Value {
    let xb = cast(b, I8X16, x);
    let yb = cast(b, I8X16, y);
    let bytes: Vec<u8> = idx
        .iter()
        .flat_map(|&l| (0..4).map(move |k| l * 4 + k))
        .collect();
    let imm = b.func.dfg.immediates.push(ConstantData::from(bytes));
    let r = b.ins().shuffle(xb, yb, imm);
    iv(b, r)
}

/// Lanes 0-1 and 2-3 of a binary32 vector widened (exactly) to two `f64x2`.
pub(super) fn widen(b: &mut Fb, v: Value) -> (Value, Value) {
    let v = fv(b, v);
    let lo = b.ins().fvpromote_low(v);
    let upper = shuffle32(b, v, v, [2, 3, 2, 3]);
    let upper = fv(b, upper);
    let hi = b.ins().fvpromote_low(upper);
    (lo, hi)
}

/// Two `f64x2` rounded once (round to nearest even) to binary32 lanes `[lo0, lo1, hi0, hi1]`.
pub(super) fn narrow(b: &mut Fb, lo: Value, hi: Value) -> Value {
    let l = b.ins().fvdemote(lo);
    let h = b.ins().fvdemote(hi);
    shuffle32(b, l, h, [0, 1, 4, 5])
}

/// The low 32 bits of each 64-bit lane of `lo` and `hi`, as `i32x4` `[lo0, lo1, hi0, hi1]`.
pub(super) fn low_words(b: &mut Fb, lo: Value, hi: Value) -> Value {
    shuffle32(b, lo, hi, [0, 2, 4, 6])
}

/// The high 32 bits of each 64-bit lane of `lo` and `hi`, as `i32x4` `[lo0, lo1, hi0, hi1]`.
pub(super) fn high_words(b: &mut Fb, lo: Value, hi: Value) -> Value {
    shuffle32(b, lo, hi, [1, 3, 5, 7])
}

/// `2^n` as two `f64x2` (lanes 0-1, 2-3) for `n` (`i32x4`) already clamped to [-1022, 1023]:
/// the binary64 bit pattern `(n + 1023) << 52` built from 32-bit halves.
pub(super) fn pow2_f64(b: &mut Fb, n: Value) -> (Value, Value) {
    let bias = ci(b, 1023);
    let n = iv(b, n);
    let e = b.ins().iadd(n, bias);
    let e = b.ins().ishl_imm_u(e, 20);
    let zero = ci(b, 0);
    let lo = shuffle32(b, zero, e, [0, 4, 1, 5]);
    let hi = shuffle32(b, zero, e, [2, 6, 3, 7]);
    (cast(b, F64X2, lo), cast(b, F64X2, hi))
}

/// Applies a scalar function lane by lane: extracts lane `l` of every input (typed as the
/// input vector's lane type), calls `f`, and inserts the scalar result (`i32` or `f32`) into
/// lane `l` of the result, returned as `i32x4`. The fallback for operations Cranelift has no
/// vector form of on x86-64 (per-lane shift counts, division).
pub(super) fn per_lane<const N: usize>(
    b: &mut Fb,
    ins: [Value; N],
    mut f: impl FnMut(&mut Fb, [Value; N]) -> Value,
) -> Value {
    let mut lane = |b: &mut Fb, l: u8| {
        let mut xs = ins;
        for x in xs.iter_mut() {
            *x = b.ins().extractlane(*x, l);
        }
        f(b, xs)
    };
    let r0 = lane(b, 0);
    let ty = if b.func.dfg.value_type(r0) == F32 {
        F32X4
    } else {
        I32X4
    };
    let mut out = b.ins().splat(ty, r0);
    for l in 1..4u8 {
        let r = lane(b, l);
        out = b.ins().insertlane(out, r, l);
    }
    iv(b, out)
}
