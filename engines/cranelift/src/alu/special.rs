//! Transcendentals (EX2 LG2 POW SIN COS) and the channel-dependent LIT, EXP and LOG
//! (tgsi.rst "Core ISA").
//!
//! The transcendentals call the `extern "C"` helpers of [`super::libcalls`] once for all four
//! lanes (operands through a stack slot, [`call_lanes`]), which evaluate `libm` per lane in
//! binary64, rounded once, identical to the reference interpreter
//! and within 0.5 ulp + 2⁻²⁹ ulp of the exact value. Everything else is SIMD: EXP.x and LOG.x/y
//! are exact bit manipulations, not rounded logarithms.

use cranelift_codegen::ir::condcodes::{FloatCC, IntCC};
use cranelift_codegen::ir::types::{F32X4, I32X4, I64};
use cranelift_codegen::ir::{FuncRef, InstBuilder, StackSlotData, StackSlotKind, Value};

use super::float::{frc, min_max, round, scale2, Rounding};
use super::simd::{and_const, cf, ci, eq_const, fcmp, fv, icmp, iv, sel, Fb};

/// Calls the four-lane libcall `f` ([`super::libcalls`]) on `args` (one vector per
/// argument): they are stored one after the other to a stack slot, `f` gets the slot's
/// address and leaves its four results in place of the first vector. Returns them as `i32x4`.
fn call_lanes(b: &mut Fb, f: FuncRef, args: &[Value]) -> Value {
    let bytes = 16 * args.len() as u32;
    let slot = b.create_sized_stack_slot(StackSlotData::new(StackSlotKind::ExplicitSlot, bytes, 4));
    for (k, &a) in args.iter().enumerate() {
        b.ins().stack_store(I64, a, slot, 16 * k as i32);
    }
    let addr = b.ins().stack_addr(I64, slot, 0);
    b.ins().call(f, &[addr]);
    b.ins().stack_load(I64, I32X4, slot, 0)
}

/// Calls the one-argument libcall `f` on every lane of `x`.
pub(super) fn call1(b: &mut Fb, f: FuncRef, x: Value) -> Value {
    call_lanes(b, f, &[x])
}

/// Calls the two-argument libcall `f` on every lane of `x` and `y`.
pub(super) fn call2(b: &mut Fb, f: FuncRef, x: Value, y: Value) -> Value {
    call_lanes(b, f, &[x, y])
}

/// EXP channel `c` of `(2^floor(s), s - floor(s), 2^s, 1)`, `s = x.x`; `ex2` is the EX2
/// libcall. x is exact: `floor(s)` saturated to an integer, clamped to [-400, 400] and
/// scaled like LDEXP (NaN stays NaN, ±inf give +inf / 0).
pub(super) fn exp(b: &mut Fb, x: &[Value; 4], c: usize, ex2: FuncRef) -> Value {
    let s = x[0];
    match c {
        0 => {
            let f = round(b, s, Rounding::Floor);
            let ff = fv(b, f);
            let n = b.ins().fcvt_to_sint_sat(I32X4, ff);
            let one = cf(b, 1.0);
            let p = scale2(b, one, n);
            let nan = fcmp(b, FloatCC::Unordered, s, s);
            sel(b, nan, s, p)
        }
        1 => frc(b, s),
        2 => call1(b, ex2, s),
        _ => ci(b, 1.0f32.to_bits()),
    }
}

/// LOG channel `c` of `(floor(log2|s|), |s| / 2^floor(log2|s|), log2|s|, 1)`, `s = x.x`;
/// `lg2` is the LG2 libcall. x is the binary exponent (denormals through an exact int → float
/// conversion of the significand), y the significand with exponent 0; |s| = 0 gives
/// (-inf, NaN), inf gives (inf, NaN), NaN gives NaN.
pub(super) fn log(b: &mut Fb, x: &[Value; 4], c: usize, lg2: FuncRef) -> Value {
    let a = and_const(b, x[0], 0x7fff_ffff);
    match c {
        0 | 1 => {
            // Denormal (or zero): the significand as an integer converts exactly.
            let min_normal = ci(b, 0x0080_0000);
            let den = icmp(b, IntCC::SignedLessThan, a, min_normal);
            let m = b.ins().fcvt_from_sint(F32X4, a);
            let m = iv(b, m);
            let src = sel(b, den, m, a);
            let e = b.ins().ushr_imm_u(src, 23);
            let bias = ci(b, 127);
            let e = b.ins().isub(e, bias);
            let den_bias = ci(b, 149);
            let e_den = b.ins().isub(e, den_bias);
            let e = sel(b, den, e_den, e);
            let zero = eq_const(b, a, 0);
            let inf = ci(b, 0x7f80_0000);
            let non_finite = icmp(b, IntCC::SignedGreaterThanOrEqual, a, inf);
            if c == 0 {
                let ef = b.ins().fcvt_from_sint(F32X4, e);
                let neg_inf = ci(b, 0xff80_0000);
                let r = sel(b, zero, neg_inf, ef);
                sel(b, non_finite, a, r)
            } else {
                let frac = and_const(b, src, 0x007f_ffff);
                let one = ci(b, 0x3f80_0000);
                let y = b.ins().bor(frac, one);
                let bad = b.ins().bor(zero, non_finite);
                let qnan = ci(b, 0x7fc0_0000);
                sel(b, bad, qnan, y)
            }
        }
        2 => call1(b, lg2, a),
        _ => ci(b, 1.0f32.to_bits()),
    }
}

/// LIT channel `c` of `(1, max(s.x, 0), s.x > 0 ? max(s.y, 0)^clamp(s.w, -128, 128) : 0, 1)`;
/// `max` is MAX's rule, `pow` the POW libcall. A NaN `s.w` with `s.x > 0` is undefined (the
/// NaN reaches `pow`).
pub(super) fn lit(b: &mut Fb, x: &[Value; 4], c: usize, pow: FuncRef) -> Value {
    let zero = cf(b, 0.0);
    match c {
        1 => min_max(b, x[0], zero, true),
        2 => {
            let base = min_max(b, x[1], zero, true);
            let (lo, hi) = (cf(b, -128.0), cf(b, 128.0));
            let w = x[3];
            let under = fcmp(b, FloatCC::LessThan, w, lo);
            let w = sel(b, under, lo, w);
            let over = fcmp(b, FloatCC::GreaterThan, w, hi);
            let w = sel(b, over, hi, w);
            let p = call2(b, pow, base, w);
            let lit = fcmp(b, FloatCC::GreaterThan, x[0], zero);
            sel(b, lit, p, zero)
        }
        _ => ci(b, 1.0f32.to_bits()),
    }
}
