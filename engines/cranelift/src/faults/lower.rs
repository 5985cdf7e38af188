//! The faulty lowerings behind the lowering-switch faults (module docs of [`super`]). Each
//! function builds the wrong code a buggy compiler would emit, in the same value
//! convention as `crate::alu` (one `i32x4` of raw bits per channel, one lane per invocation
//! of a quad), and is only called when its fault is switched on.

use cranelift_codegen::ir::condcodes::{FloatCC, IntCC};
use cranelift_codegen::ir::types::{F32X4, I32, I32X4};
use cranelift_codegen::ir::{Endianness, InstBuilder, MemFlagsData, Type, Value};
use cranelift_frontend::FunctionBuilder;
use shaderdiff_model::Opcode;

use super::Fault;

type Fb<'f> = FunctionBuilder<'f>;

fn cast(b: &mut Fb, ty: Type, v: Value) -> Value {
    if b.func.dfg.value_type(v) == ty {
        v
    } else {
        let flags = MemFlagsData::new().with_endianness(Endianness::Little);
        b.ins().bitcast(ty, flags, v)
    }
}

fn iv(b: &mut Fb, v: Value) -> Value {
    cast(b, I32X4, v)
}

fn fv(b: &mut Fb, v: Value) -> Value {
    cast(b, F32X4, v)
}

fn ci(b: &mut Fb, x: u32) -> Value {
    let s = b.ins().iconst(I32, i64::from(x as i32));
    b.ins().splat(I32X4, s)
}

/// Per-lane mask `x cc y` of two float channel vectors.
fn fcmp(b: &mut Fb, cc: FloatCC, x: Value, y: Value) -> Value {
    let (x, y) = (fv(b, x), fv(b, y));
    b.ins().fcmp(cc, x, y)
}

/// Per lane `mask ? x : y`, as `i32x4`.
fn sel(b: &mut Fb, mask: Value, x: Value, y: Value) -> Value {
    let (m, x, y) = (iv(b, mask), iv(b, x), iv(b, y));
    b.ins().bitselect(m, x, y)
}

/// The ALU switch of the lowering: `Some(results)` (channels of `writemask`, as
/// `crate::alu::lower` returns them) when `fault` miscompiles `op`, `None` when the correct
/// lowering applies (no fault, another fault, another opcode, too few sources).
pub(crate) fn alu(
    fault: Option<Fault>,
    b: &mut Fb,
    op: Opcode,
    srcs: &[[Value; 4]],
    writemask: u8,
) -> Option<[Option<Value>; 4]> {
    use Opcode::*;
    let f = fault?;
    let applies = matches!(
        (f, op),
        (Fault::ShiftCountUnmasked, SHL | USHR | ISHR)
            | (Fault::F2iRounds, F2I)
            | (Fault::RoundHalfAway, ROUND)
            | (Fault::MinNanPropagates, MIN | MAX)
    );
    if !applies || srcs.len() < op.info().num_src as usize {
        return None;
    }
    let mut out = [None; 4];
    for (c, o) in out.iter_mut().enumerate() {
        if writemask >> c & 1 == 0 {
            continue;
        }
        let x = srcs[0][c];
        *o = Some(match op {
            SHL | USHR | ISHR => shift_unmasked(b, op, x, srcs[1][c]),
            F2I => f2i_nearest(b, x),
            ROUND => round_half_away(b, x),
            _ => min_max_nan(b, x, srcs[1][c], op == MAX),
        });
    }
    Some(out)
}

/// `shift-count-unmasked`: the count is used as is, so counts ≥ 32 (unsigned) shift every
/// bit out: 0 for SHL/USHR, the sign for ISHR; smaller counts shift correctly.
fn shift_unmasked(b: &mut Fb, op: Opcode, x: Value, y: Value) -> Value {
    let (x, y) = (iv(b, x), iv(b, y));
    let n = {
        let m = ci(b, 31);
        b.ins().band(y, m)
    };
    let mut r = None;
    for l in 0..4u8 {
        let v = b.ins().extractlane(x, l);
        let k = b.ins().extractlane(n, l);
        let s = match op {
            Opcode::SHL => b.ins().ishl(v, k),
            Opcode::USHR => b.ins().ushr(v, k),
            _ => b.ins().sshr(v, k),
        };
        r = Some(match r {
            None => b.ins().splat(I32X4, s),
            Some(vec) => b.ins().insertlane(vec, s, l),
        });
    }
    let r = r.unwrap_or(x);
    let k32 = ci(b, 32);
    let big = b.ins().icmp(IntCC::UnsignedGreaterThanOrEqual, y, k32);
    let over = if op == Opcode::ISHR {
        b.ins().sshr_imm_u(x, 31)
    } else {
        ci(b, 0)
    };
    sel(b, big, over, r)
}

/// `f2i-rounds`: `cvtps2dq` (round to nearest even) where `cvttps2dq` (truncate) belongs.
fn f2i_nearest(b: &mut Fb, x: Value) -> Value {
    let x = fv(b, x);
    let r = b.ins().nearest(x);
    b.ins().fcvt_to_sint_sat(I32X4, r)
}

/// `round-half-away`: `trunc(x)`, plus one step away from zero when the (exact) dropped
/// fraction is at least 0.5, so ties go away from zero (ROUND(2.5) = 3, not 2).
fn round_half_away(b: &mut Fb, x: Value) -> Value {
    let xf = fv(b, x);
    let t = b.ins().trunc(xf);
    let d = b.ins().fsub(xf, t);
    let d = iv(b, d);
    let abs = ci(b, 0x7fff_ffff);
    let d = b.ins().band(d, abs);
    let half = ci(b, 0.5f32.to_bits());
    let up = fcmp(b, FloatCC::GreaterThanOrEqual, d, half);
    let xi = iv(b, x);
    let sign_bit = ci(b, 0x8000_0000);
    let sign = b.ins().band(xi, sign_bit);
    let one = ci(b, 1.0f32.to_bits());
    let step = b.ins().bor(one, sign);
    let step = fv(b, step);
    let t1 = b.ins().fadd(t, step);
    sel(b, up, t1, t)
}

/// `min-nan-propagates`: the NaN test of the NaN-ignoring select looks at `x` instead of
/// `y`, so MIN/MAX return whichever operand is NaN.
fn min_max_nan(b: &mut Fb, x: Value, y: Value, max: bool) -> Value {
    let cc = if max {
        FloatCC::GreaterThanOrEqual
    } else {
        FloatCC::LessThanOrEqual
    };
    let keep_x = fcmp(b, cc, x, y);
    let x_nan = fcmp(b, FloatCC::Unordered, x, x);
    let m = b.ins().bor(keep_x, x_nan);
    sel(b, m, x, y)
}

/// `sat-nan-passthrough`: `_SAT` as `x <= 0 ? 0.0 : min(x, 1.0)` with ordered compares, so
/// a NaN (for which both compares are false) passes through unchanged.
pub(crate) fn saturate_nan_passthrough(b: &mut Fb, v: Value) -> Value {
    let one = ci(b, 1.0f32.to_bits());
    let zero = ci(b, 0);
    let gt1 = fcmp(b, FloatCC::GreaterThan, v, one);
    let upper = sel(b, gt1, one, v);
    let le0 = fcmp(b, FloatCC::LessThanOrEqual, v, zero);
    sel(b, le0, zero, upper)
}

/// `if-nan-false`: the IF condition mask `x < 0.0 || x > 0.0` (ordered, so false for NaN)
/// where tgsi.rst's `x != 0.0` is true for NaN.
pub(crate) fn ordered_nonzero(b: &mut Fb, x: Value) -> Value {
    let zero = ci(b, 0);
    let lt = fcmp(b, FloatCC::LessThan, x, zero);
    let gt = fcmp(b, FloatCC::GreaterThan, x, zero);
    b.ins().bor(lt, gt)
}

/// `kill-if-sign-bit`: the per-lane kill test of one KILL_IF component as an integer
/// `bits < 0` (sign bit set) instead of the float `x < 0.0`.
pub(crate) fn kill_sign_bit(b: &mut Fb, x: Value) -> Value {
    let x = iv(b, x);
    let zero = ci(b, 0);
    b.ins().icmp(IntCC::SignedLessThan, x, zero)
}
