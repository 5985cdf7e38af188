//! Float arithmetic, comparison and rounding opcodes (tgsi.rst "Core ISA", "Compute ISA",
//! "Integer ISA" FS*), all as `f32x4`/`i32x4` SIMD: IEEE binary32, round to nearest even,
//! denormals kept. Each function takes the already-fetched operands of one channel (or the
//! channel vectors it needs) and returns the `i32x4` result bits.
//!
//! Results equal the reference interpreter's bit for bit wherever the interpreter calls them
//! defined (NaN payloads aside); the comments say how each undefined case comes out.

use cranelift_codegen::ir::condcodes::FloatCC;
use cranelift_codegen::ir::{InstBuilder, Value};

use super::simd::{
    and_const, cast_source, cd, cf, ci, fcmp, fv, iv, narrow, pow2_f64, sel, widen, Fb,
};

/// Applies a binary `f32x4` instruction to two channel vectors.
macro_rules! fbin {
    ($b:expr, $op:ident, $x:expr, $y:expr) => {{
        let x = $crate::alu::simd::fv($b, $x);
        let y = $crate::alu::simd::fv($b, $y);
        let r = $b.ins().$op(x, y);
        $crate::alu::simd::iv($b, r)
    }};
}
pub(super) use fbin;

/// [`fbin!`] with the `f32x4` result left as it is: for the results of the float opcodes
/// that go straight to the destination store (`Lowerer::store` casts to the register's type),
/// so that no `i32x4` cast is built for a float register.
macro_rules! fop {
    ($b:expr, $op:ident, $x:expr, $y:expr) => {{
        let x = $crate::alu::simd::fv($b, $x);
        let y = $crate::alu::simd::fv($b, $y);
        $b.ins().$op(x, y)
    }};
}
pub(super) use fop;

/// ADD (`sub == false`) / SUB, with a negated operand (`-src`: a sign-bit XOR from operand
/// fetch) folded into the operation: `a + (-b)` and `a - b` are the same IEEE 754 operation
/// (equal results, signed zeros included; only a NaN result's sign may differ, and NaN bits
/// are not fixed: precision.toml `[policy] nan`). Saves the XOR.
pub(super) fn add_sub(b: &mut Fb, x: Value, y: Value, sub: bool) -> Value {
    if let Some(u) = sign_flipped(b, y) {
        return if sub {
            fop!(b, fadd, x, u)
        } else {
            fop!(b, fsub, x, u)
        };
    }
    if !sub {
        if let Some(u) = sign_flipped(b, x) {
            return fop!(b, fsub, y, u);
        }
        return fop!(b, fadd, x, y);
    }
    fop!(b, fsub, x, y)
}

/// `u` when `v` is `fneg(u)` (seen through a bit cast) or `u ^ 0x80000000` in every lane (a
/// float negation).
fn sign_flipped(b: &Fb, v: Value) -> Option<Value> {
    use cranelift_codegen::ir::{InstructionData, Opcode, ValueDef};
    let dfg = &b.func.dfg;
    let v = cast_source(dfg, v).unwrap_or(v);
    let ValueDef::Result(inst, _) = dfg.value_def(v) else {
        return None;
    };
    let (p, q) = match dfg.insts[inst] {
        InstructionData::Unary {
            opcode: Opcode::Fneg,
            arg,
        } => return Some(arg),
        InstructionData::Binary {
            opcode: Opcode::Bxor,
            args: [p, q],
        } => (p, q),
        _ => return None,
    };
    if splat_const(b, q) == Some(0x8000_0000) {
        Some(p)
    } else if splat_const(b, p) == Some(0x8000_0000) {
        Some(q)
    } else {
        None
    }
}

/// ABS: clears bit 31 (ABS(-0) = +0, NaN stays NaN).
pub(super) fn abs(b: &mut Fb, a: Value) -> Value {
    and_const(b, a, 0x7fff_ffff)
}

/// MAD: `a * b + c` with two roundings (Cranelift never contracts `fmul` + `fadd`).
pub(super) fn mad(b: &mut Fb, x: Value, y: Value, z: Value) -> Value {
    let p = fop!(b, fmul, x, y);
    fop!(b, fadd, p, z)
}

/// FMA: `a * b + c` with one rounding. `vfmadd` with the FMA extension, otherwise Cranelift
/// calls `fmaf` per lane (see [`super::libcalls`]).
pub(super) fn fma(b: &mut Fb, x: Value, y: Value, z: Value) -> Value {
    let (x, y, z) = (fv(b, x), fv(b, y), fv(b, z));
    b.ins().fma(x, y, z)
}

/// LRP: `a * b + (1 - a) * c`, the doc's formula left to right, every step rounded.
pub(super) fn lrp(b: &mut Fb, x: Value, y: Value, z: Value) -> Value {
    let p = fop!(b, fmul, x, y);
    let one = cf(b, 1.0);
    let t = fop!(b, fsub, one, x);
    let q = fop!(b, fmul, t, z);
    fop!(b, fadd, p, q)
}

/// MIN (`max == false`) / MAX: a NaN operand is ignored (both NaN → NaN); on a tie,
/// including -0 vs +0, the first operand (the oracle's rule). Not Cranelift's
/// `fmin`/`fmax`, which propagate NaN.
///
/// With a constant operand that is not NaN, one compare and one select: `x >= c` (ordered:
/// a NaN x selects c) or `!(y > c)`-style unordered compares for a constant first operand.
/// Otherwise x86's `maxps`/`minps` (Cranelift matches the `bitselect(fcmp lt)` pattern of
/// [`pmin_pmax`]) with the operands swapped, so that ties and a NaN `y` give `x`, plus one
/// compare and select for a NaN `x`: three instructions instead of four to six.
pub(super) fn min_max(b: &mut Fb, x: Value, y: Value, max: bool) -> Value {
    let number = |b: &Fb, v: Value| splat_const(b, v).is_some_and(|k| !f32::from_bits(k).is_nan());
    // A constant that is neither NaN nor zero: a tie means equal bits, so which operand a
    // tie returns does not matter, and `maxps`/`minps` with the constant second is the
    // whole opcode (a NaN in the other operand selects the constant).
    let nonzero = |b: &Fb, v: Value| splat_const(b, v).is_some_and(|k| k & 0x7fff_ffff != 0);
    if number(b, y) && nonzero(b, y) {
        return pmin_pmax(b, x, y, max);
    }
    if number(b, x) && nonzero(b, x) {
        return pmin_pmax(b, y, x, max);
    }
    let cc = if number(b, y) {
        Some(if max {
            FloatCC::GreaterThanOrEqual
        } else {
            FloatCC::LessThanOrEqual
        })
    } else if number(b, x) {
        Some(if max {
            FloatCC::UnorderedOrGreaterThanOrEqual
        } else {
            FloatCC::UnorderedOrLessThanOrEqual
        })
    } else {
        None
    };
    if let Some(cc) = cc {
        let keep_x = fcmp(b, cc, x, y);
        return sel(b, keep_x, x, y);
    }
    let r = pmin_pmax(b, y, x, max);
    let x_nan = fcmp(b, FloatCC::Unordered, x, x);
    sel(b, x_nan, y, r)
}

/// `maxps x, y` = `y < x ? x : y` (`max`), `minps x, y` = `x < y ? x : y`: a NaN in either
/// operand gives `y`, a tie gives `y`.
fn pmin_pmax(b: &mut Fb, x: Value, y: Value, max: bool) -> Value {
    let (xf, yf) = (fv(b, x), fv(b, y));
    let m = if max {
        b.ins().fcmp(FloatCC::LessThan, yf, xf)
    } else {
        b.ins().fcmp(FloatCC::LessThan, xf, yf)
    };
    let mf = fv(b, m);
    let r = b.ins().bitselect(mf, xf, yf);
    iv(b, r)
}

/// The lane value of `v` when it is a splat of a constant (through bit casts): the
/// lowering's immediates and IMM registers.
fn splat_const(b: &Fb, v: Value) -> Option<u32> {
    use cranelift_codegen::ir::{InstructionData, Opcode, ValueDef};
    let dfg = &b.func.dfg;
    let mut v = v;
    loop {
        let ValueDef::Result(inst, _) = dfg.value_def(v) else {
            return None;
        };
        match dfg.insts[inst] {
            InstructionData::LoadNoOffset {
                opcode: Opcode::Bitcast,
                arg,
                ..
            }
            | InstructionData::Unary {
                opcode: Opcode::Splat,
                arg,
            } => v = arg,
            InstructionData::UnaryImm {
                opcode: Opcode::Iconst,
                imm,
            } => return Some(imm.bits() as u32),
            InstructionData::UnaryIeee32 {
                opcode: Opcode::F32const,
                imm,
            } => return Some(imm.bits()),
            _ => return None,
        }
    }
}

/// SLT/SGE/SGT/SLE/SEQ/SNE: `1.0` where `x cc y`, else `0.0`.
pub(super) fn set_one(b: &mut Fb, cc: FloatCC, x: Value, y: Value) -> Value {
    let m = fcmp(b, cc, x, y);
    let one = ci(b, 1.0f32.to_bits());
    b.ins().band(m, one)
}

/// CMP: `x < 0 ? y : z` (NaN and -0 select `z`); bits pass through.
pub(super) fn cmp(b: &mut Fb, x: Value, y: Value, z: Value) -> Value {
    let zero = cf(b, 0.0);
    let m = fcmp(b, FloatCC::LessThan, x, zero);
    sel(b, m, y, z)
}

/// SSG: `1.0` for x > 0, `-1.0` for x < 0, else `+0.0` (also for -0 and NaN).
pub(super) fn ssg(b: &mut Fb, x: Value) -> Value {
    let zero = cf(b, 0.0);
    let gt = fcmp(b, FloatCC::GreaterThan, x, zero);
    let lt = fcmp(b, FloatCC::LessThan, x, zero);
    let one = ci(b, 1.0f32.to_bits());
    let neg_one = ci(b, (-1.0f32).to_bits());
    let p = b.ins().band(gt, one);
    let n = b.ins().band(lt, neg_one);
    b.ins().bor(p, n)
}

/// RCP: `1 / x`, correctly rounded.
pub(super) fn rcp(b: &mut Fb, x: Value) -> Value {
    let one = cf(b, 1.0);
    fbin!(b, fdiv, one, x)
}

/// RSQ: `1 / sqrt(x)` evaluated in binary64 (`sqrtpd`, `divpd`) and rounded once, like the
/// reference. x ≤ 0 is undefined: -0/+0 give ±inf, negatives NaN.
pub(super) fn rsq(b: &mut Fb, x: Value) -> Value {
    let (lo, hi) = widen(b, x);
    let one = cd(b, 1.0);
    let sl = b.ins().sqrt(lo);
    let sh = b.ins().sqrt(hi);
    let rl = b.ins().fdiv(one, sl);
    let rh = b.ins().fdiv(one, sh);
    narrow(b, rl, rh)
}

/// SQRT: correctly rounded square root (x < 0 undefined: NaN).
pub(super) fn sqrt(b: &mut Fb, x: Value) -> Value {
    let x = fv(b, x);
    let r = b.ins().sqrt(x);
    iv(b, r)
}

/// Which exact rounding [`round`] applies.
#[derive(Clone, Copy)]
pub(super) enum Rounding {
    /// FLR: toward -inf.
    Floor,
    /// CEIL: toward +inf.
    Ceil,
    /// TRUNC: toward zero.
    Trunc,
    /// ROUND: to nearest, ties to even (EXEC-NOTES.md §3).
    Nearest,
}

/// FLR/CEIL/TRUNC/ROUND: `roundps` with SSE4.1, otherwise Cranelift calls `floorf`/`ceilf`/
/// `truncf`/`nearbyintf` per lane. Exact; the sign of a zero result is the source's.
pub(super) fn round(b: &mut Fb, x: Value, mode: Rounding) -> Value {
    let x = fv(b, x);
    let r = match mode {
        Rounding::Floor => b.ins().floor(x),
        Rounding::Ceil => b.ins().ceil(x),
        Rounding::Trunc => b.ins().trunc(x),
        Rounding::Nearest => b.ins().nearest(x),
    };
    iv(b, r)
}

/// FRC: `x - floor(x)`, one rounding (FRC(-1e-10) = 1.0, FRC(±inf) = NaN).
pub(super) fn frc(b: &mut Fb, x: Value) -> Value {
    let f = round(b, x, Rounding::Floor);
    fbin!(b, fsub, x, f)
}

/// `x * 2^n` exact before one rounding: `n` (`i32x4`) is clamped to [-400, 400] (beyond that
/// the result is 0 or ±inf anyway), `2^n` built as a binary64 bit pattern, the product formed
/// exactly in binary64 and rounded once to binary32. Used by LDEXP and EXP.
pub(super) fn scale2(b: &mut Fb, x: Value, n: Value) -> Value {
    let lo_lim = ci(b, (-400i32) as u32);
    let hi_lim = ci(b, 400);
    let n = iv(b, n);
    let n = b.ins().smax(n, lo_lim);
    let n = b.ins().smin(n, hi_lim);
    let (pl, ph) = pow2_f64(b, n);
    let (xl, xh) = widen(b, x);
    let rl = b.ins().fmul(xl, pl);
    let rh = b.ins().fmul(xh, ph);
    narrow(b, rl, rh)
}

/// DP2/DP3/DP4/DPH on channel vectors: products and sums rounded one by one, accumulated
/// left to right; `w_add` adds `y[3]` at the end (DPH).
pub(super) fn dot(b: &mut Fb, x: &[Value; 4], y: &[Value; 4], n: usize, w_add: bool) -> Value {
    let mut acc = fbin!(b, fmul, x[0], y[0]);
    for c in 1..n {
        let p = fbin!(b, fmul, x[c], y[c]);
        acc = fbin!(b, fadd, p, acc);
    }
    if w_add {
        acc = fbin!(b, fadd, acc, y[3]);
    }
    acc
}

/// XPD channel `c`: `(y1 z2 - y2 z1, y2 z0 - y0 z2, y0 z1 - y1 z0, 1)`, every step rounded.
pub(super) fn xpd(b: &mut Fb, x: &[Value; 4], y: &[Value; 4], c: usize) -> Value {
    let (i, j) = match c {
        0 => (1, 2),
        1 => (2, 0),
        2 => (0, 1),
        _ => return ci(b, 1.0f32.to_bits()),
    };
    let p = fbin!(b, fmul, x[i], y[j]);
    let q = fbin!(b, fmul, x[j], y[i]);
    fbin!(b, fsub, p, q)
}

/// ARR: `floor(x)`, plus one when the exact fraction `x - floor(x)` is ≥ 0.5 (ties up), as
/// `f32x4`; the caller truncates it.
pub(super) fn round_half_up(b: &mut Fb, x: Value) -> Value {
    let f = round(b, x, Rounding::Floor);
    let fr = fbin!(b, fsub, x, f);
    let half = cf(b, 0.5);
    let up = fcmp(b, FloatCC::GreaterThanOrEqual, fr, half);
    let one = cf(b, 1.0);
    let f1 = fbin!(b, fadd, f, one);
    sel(b, up, f1, f)
}
