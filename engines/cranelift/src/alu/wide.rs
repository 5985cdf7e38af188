//! Lowering of the double and 64-bit integer opcodes (tgsi.rst "Double ISA", "64-bit Integer
//! ISA") to native 64-bit Cranelift code.
//!
//! A 64-bit value lives in a channel pair (xy or zw, low word first): per invocation of the
//! quad, the two 32-bit lanes are joined into one `i64` (`uextend`, `ishl`, `bor`), the
//! opcode runs on scalar `i64`/`f64` (bit casts), and the result is split again (`ireduce`,
//! `ushr`). Scalar per lane keeps every opcode on x86-64 baseline instructions (no `pcmpgtq`,
//! no 64-bit vector multiply).
//!
//! Channel placement (the reference interpreter's resolutions of tgsi.rst, restated):
//! pair results go to the enabled channels of their pair; comparisons write x (xy) and z
//! (zw); D2F/D2I/D2U/U642F/I642F write x (xy) and y (zw); F2D/I2D/U2D/F2I64/F2U64/I2I64/U2I64
//! read src.x (xy) and src.y (zw); DLDEXP's exponent is src1.x / src1.z; 64-bit shift counts
//! src1.x / src1.z, masked with 0x3f. Channels the doc leaves without a value (y/w of a
//! comparison, z/w of a narrowing conversion) get 0.
//!
//! Nothing traps: division by zero and INT64_MIN / -1 divide by 1 instead (undefined
//! results), float-to-integer conversions saturate (NaN → 0; undefined out of range).
//! DFMA, DFLR, DCEIL, DTRUNC, DROUND may become Cranelift libcalls (`fma`, `floor`, `ceil`,
//! `trunc`, `nearbyint`) on hosts without FMA / SSE4.1; [`super::cranelift_libcall_defs`] registers
//! them. DLDEXP calls `shaderdiff_ldexp64` ([`super::libcalls`]).

use cranelift_codegen::ir::condcodes::{FloatCC, IntCC};
use cranelift_codegen::ir::types::{F32, F64, I32, I32X4, I64};
use cranelift_codegen::ir::{FuncRef, InstBuilder, MemFlagsData, Value};
use shaderdiff_model::Opcode;

use super::simd::{iv, Fb};

/// Where an opcode's operands and results live (module docs).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Form {
    /// Pair p of every source → pair p.
    Pair,
    /// DLDEXP: pair p of src0, word 2p of src1.
    Ldexp,
    /// Shifts: pair p of src0, word 2p of src1 (count).
    Shift,
    /// 32-bit word p of src0 → pair p.
    Widen,
    /// Pair p of src0 → word p.
    Narrow,
    /// Pairs p of src0, src1 → word 2p.
    Compare,
}

fn form(op: Opcode) -> Option<Form> {
    use Opcode::*;
    Some(match op {
        DABS | DNEG | DADD | DMUL | DDIV | DMAD | DFMA | DMIN | DMAX | DRCP | DSQRT | DRSQ
        | DFRAC | DTRUNC | DCEIL | DFLR | DROUND | DSSG | I64ABS | I64NEG | I64SSG | U64ADD
        | U64MUL | I64MIN | I64MAX | U64MIN | U64MAX | I64DIV | I64MOD | U64DIV | U64MOD
        | D2I64 | D2U64 | I642D | U642D => Form::Pair,
        DLDEXP => Form::Ldexp,
        U64SHL | U64SHR | I64SHR => Form::Shift,
        F2D | I2D | U2D | F2I64 | F2U64 | I2I64 | U2I64 => Form::Widen,
        D2F | D2I | D2U | U642F | I642F => Form::Narrow,
        DSEQ | DSNE | DSLT | DSGE | U64SEQ | U64SNE | U64SLT | U64SGE | I64SLT | I64SGE => {
            Form::Compare
        }
        _ => return None,
    })
}

/// Whether `op` is a 64-bit opcode [`lower`] implements (all 61 of opcodes.csv).
pub fn is_wide(op: Opcode) -> bool {
    form(op).is_some()
}

/// Lane `l` of the pair (`lo`, `hi`) as an `i64`.
fn join(b: &mut Fb, lo: Value, hi: Value, l: u8) -> Value {
    let (lo, hi) = (iv(b, lo), iv(b, hi));
    let lo = b.ins().extractlane(lo, l);
    let hi = b.ins().extractlane(hi, l);
    let lo = b.ins().uextend(I64, lo);
    let hi = b.ins().uextend(I64, hi);
    let hi = b.ins().ishl_imm_u(hi, 32);
    b.ins().bor(lo, hi)
}

/// Lane `l` of a 32-bit channel as an `i32`.
fn word(b: &mut Fb, v: Value, l: u8) -> Value {
    let v = iv(b, v);
    b.ins().extractlane(v, l)
}

fn to_f64(b: &mut Fb, x: Value) -> Value {
    scalar_cast(b, F64, x)
}

fn to_i64(b: &mut Fb, x: Value) -> Value {
    scalar_cast(b, I64, x)
}

fn scalar_cast(b: &mut Fb, ty: cranelift_codegen::ir::Type, x: Value) -> Value {
    if b.func.dfg.value_type(x) == ty {
        x
    } else {
        b.ins().bitcast(ty, MemFlagsData::new(), x)
    }
}

/// Builds the `i32x4` of four scalar 32-bit lane results.
fn gather(b: &mut Fb, lanes: [Value; 4]) -> Value {
    let lanes = lanes.map(|v| scalar_cast(b, I32, v));
    let mut out = b.ins().splat(I32X4, lanes[0]);
    for (l, &v) in lanes.iter().enumerate().skip(1) {
        out = b.ins().insertlane(out, v, l as u8);
    }
    out
}

/// Splits four scalar 64-bit lane results into the (low, high) `i32x4` of a pair.
fn split(b: &mut Fb, lanes: [Value; 4]) -> (Value, Value) {
    let mut lo = [lanes[0]; 4];
    let mut hi = [lanes[0]; 4];
    for l in 0..4 {
        let v = to_i64(b, lanes[l]);
        lo[l] = b.ins().ireduce(I32, v);
        let h = b.ins().ushr_imm_u(v, 32);
        hi[l] = b.ins().ireduce(I32, h);
    }
    (gather(b, lo), gather(b, hi))
}

/// Lowers the 64-bit instruction `op`: `srcs[k][c]` is source k, channel c (`i32x4`, all four
/// channels fetched); returns the `i32x4` of each channel enabled in `writemask`.
/// `ldexp` is the `shaderdiff_ldexp64` libcall (needed by DLDEXP only). `None` if `op` is
/// not a 64-bit opcode or DLDEXP lacks its libcall.
pub(super) fn lower(
    b: &mut Fb,
    op: Opcode,
    srcs: &[[Value; 4]],
    writemask: u8,
    ldexp: Option<FuncRef>,
) -> Option<[Option<Value>; 4]> {
    let f = form(op)?;
    if op == Opcode::DLDEXP && ldexp.is_none() {
        return None;
    }
    let mut out = [None; 4];
    for p in 0..2usize {
        let (lo_c, hi_c) = (2 * p, 2 * p + 1);
        let targets: Vec<usize> = match f {
            Form::Narrow => vec![p],
            Form::Compare => vec![2 * p],
            _ => vec![lo_c, hi_c],
        };
        if targets.iter().all(|&c| writemask >> c & 1 == 0) {
            continue;
        }
        let mut lanes = [None; 4];
        for l in 0..4u8 {
            let args: Vec<Value> = (0..srcs.len())
                .map(|k| match (f, k) {
                    (Form::Widen, _) => word(b, srcs[k][p], l),
                    (Form::Ldexp | Form::Shift, 1) => word(b, srcs[k][2 * p], l),
                    _ => join(b, srcs[k][lo_c], srcs[k][hi_c], l),
                })
                .collect();
            lanes[l as usize] = Some(scalar(b, op, &args, ldexp)?);
        }
        let lanes = lanes.map(|v| v.expect("every lane lowered"));
        match f {
            Form::Narrow | Form::Compare => {
                out[targets[0]] = Some(gather(b, lanes));
            }
            _ => {
                let (lo, hi) = split(b, lanes);
                out[lo_c] = Some(lo);
                out[hi_c] = Some(hi);
            }
        }
    }
    // Channels the doc gives no value (comparison y/w, narrowing z/w): 0.
    let zero = b.ins().iconst(I32, 0);
    let zero = b.ins().splat(I32X4, zero);
    for (c, o) in out.iter_mut().enumerate() {
        if writemask >> c & 1 == 0 {
            *o = None;
        } else if o.is_none() {
            *o = Some(zero);
        }
    }
    Some(out)
}

/// `~0` / `0` (`i32`) from a boolean `i8`.
fn mask32(b: &mut Fb, c: Value) -> Value {
    let w = b.ins().uextend(I32, c);
    b.ins().ineg(w)
}

/// `x` if `c` (an `i8` boolean) else `y`.
fn pick(b: &mut Fb, c: Value, x: Value, y: Value) -> Value {
    b.ins().select(c, x, y)
}

/// One lane of `op` on scalar operands (`i64` for 64-bit sources, `i32` for 32-bit ones).
fn scalar(b: &mut Fb, op: Opcode, a: &[Value], ldexp: Option<FuncRef>) -> Option<Value> {
    use Opcode::*;
    let d = |b: &mut Fb, k: usize| to_f64(b, a[k]);
    let f32v = |b: &mut Fb, k: usize| scalar_cast(b, F32, a[k]);
    Some(match op {
        // --- Double ISA ---
        DABS => {
            let x = d(b, 0);
            b.ins().fabs(x)
        }
        DNEG => {
            let x = d(b, 0);
            b.ins().fneg(x)
        }
        DADD | DMUL | DDIV => {
            let (x, y) = (d(b, 0), d(b, 1));
            match op {
                DADD => b.ins().fadd(x, y),
                DMUL => b.ins().fmul(x, y),
                _ => b.ins().fdiv(x, y),
            }
        }
        DMAD => {
            // The product rounded, then the sum (tgsi_exec's two roundings).
            let (x, y, z) = (d(b, 0), d(b, 1), d(b, 2));
            let p = b.ins().fmul(x, y);
            b.ins().fadd(p, z)
        }
        DFMA => {
            let (x, y, z) = (d(b, 0), d(b, 1), d(b, 2));
            b.ins().fma(x, y, z)
        }
        DMIN | DMAX => {
            // MIN/MAX's rule: a NaN operand is ignored, a tie keeps the first operand.
            let (x, y) = (d(b, 0), d(b, 1));
            let x_num = b.ins().fcmp(FloatCC::Ordered, x, x);
            let y_nan = b.ins().fcmp(FloatCC::Unordered, y, y);
            let cc = if op == DMIN {
                FloatCC::LessThanOrEqual
            } else {
                FloatCC::GreaterThanOrEqual
            };
            let better = b.ins().fcmp(cc, x, y);
            let keep = b.ins().bor(y_nan, better);
            let first = b.ins().band(x_num, keep);
            pick(b, first, x, y)
        }
        DRCP => {
            let x = d(b, 0);
            let one = b.ins().f64const(1.0);
            b.ins().fdiv(one, x)
        }
        DSQRT => {
            let x = d(b, 0);
            b.ins().sqrt(x)
        }
        DRSQ => {
            // 1 / sqrt(x): two roundings, within 2 ulp (precision.toml DRSQ, class cpu).
            let x = d(b, 0);
            let s = b.ins().sqrt(x);
            let one = b.ins().f64const(1.0);
            b.ins().fdiv(one, s)
        }
        DFRAC => {
            let x = d(b, 0);
            let fl = b.ins().floor(x);
            b.ins().fsub(x, fl)
        }
        DTRUNC => {
            let x = d(b, 0);
            b.ins().trunc(x)
        }
        DCEIL => {
            let x = d(b, 0);
            b.ins().ceil(x)
        }
        DFLR => {
            let x = d(b, 0);
            b.ins().floor(x)
        }
        DROUND => {
            let x = d(b, 0);
            b.ins().nearest(x)
        }
        DSSG => {
            let x = d(b, 0);
            let zero = b.ins().f64const(0.0);
            let one = b.ins().f64const(1.0);
            let neg_one = b.ins().f64const(-1.0);
            let gt = b.ins().fcmp(FloatCC::GreaterThan, x, zero);
            let lt = b.ins().fcmp(FloatCC::LessThan, x, zero);
            let r = pick(b, lt, neg_one, zero);
            pick(b, gt, one, r)
        }
        DLDEXP => {
            let x = d(b, 0);
            let call = b.ins().call(ldexp?, &[x, a[1]]);
            b.inst_results(call)[0]
        }
        DSEQ | DSNE | DSLT | DSGE => {
            let (x, y) = (d(b, 0), d(b, 1));
            let cc = match op {
                DSEQ => FloatCC::Equal,
                DSNE => FloatCC::NotEqual,
                DSLT => FloatCC::LessThan,
                _ => FloatCC::GreaterThanOrEqual,
            };
            let c = b.ins().fcmp(cc, x, y);
            mask32(b, c)
        }
        D2F => {
            let x = d(b, 0);
            b.ins().fdemote(F32, x)
        }
        D2I => {
            let x = d(b, 0);
            b.ins().fcvt_to_sint_sat(I32, x)
        }
        D2U => {
            let x = d(b, 0);
            b.ins().fcvt_to_uint_sat(I32, x)
        }
        F2D => {
            let x = f32v(b, 0);
            b.ins().fpromote(F64, x)
        }
        I2D => b.ins().fcvt_from_sint(F64, a[0]),
        U2D => b.ins().fcvt_from_uint(F64, a[0]),
        // --- 64-bit Integer ISA ---
        I64ABS => b.ins().iabs(a[0]),
        I64NEG => b.ins().ineg(a[0]),
        I64SSG => {
            let lo = b.ins().iconst(I64, -1);
            let hi = b.ins().iconst(I64, 1);
            let t = b.ins().smax(a[0], lo);
            b.ins().smin(t, hi)
        }
        U64ADD => b.ins().iadd(a[0], a[1]),
        U64MUL => b.ins().imul(a[0], a[1]),
        I64MIN => b.ins().smin(a[0], a[1]),
        I64MAX => b.ins().smax(a[0], a[1]),
        U64MIN => b.ins().umin(a[0], a[1]),
        U64MAX => b.ins().umax(a[0], a[1]),
        I64DIV | I64MOD | U64DIV | U64MOD => divide(b, op, a[0], a[1]),
        U64SHL | U64SHR | I64SHR => {
            let n = b.ins().band_imm_u(a[1], 63);
            match op {
                U64SHL => b.ins().ishl(a[0], n),
                U64SHR => b.ins().ushr(a[0], n),
                _ => b.ins().sshr(a[0], n),
            }
        }
        U64SEQ | U64SNE | U64SLT | U64SGE | I64SLT | I64SGE => {
            let cc = match op {
                U64SEQ => IntCC::Equal,
                U64SNE => IntCC::NotEqual,
                U64SLT => IntCC::UnsignedLessThan,
                U64SGE => IntCC::UnsignedGreaterThanOrEqual,
                I64SLT => IntCC::SignedLessThan,
                _ => IntCC::SignedGreaterThanOrEqual,
            };
            let c = b.ins().icmp(cc, a[0], a[1]);
            mask32(b, c)
        }
        F2I64 => {
            let x = f32v(b, 0);
            b.ins().fcvt_to_sint_sat(I64, x)
        }
        F2U64 => {
            let x = f32v(b, 0);
            b.ins().fcvt_to_uint_sat(I64, x)
        }
        D2I64 => {
            let x = d(b, 0);
            b.ins().fcvt_to_sint_sat(I64, x)
        }
        D2U64 => {
            let x = d(b, 0);
            b.ins().fcvt_to_uint_sat(I64, x)
        }
        I642F => b.ins().fcvt_from_sint(F32, a[0]),
        U642F => b.ins().fcvt_from_uint(F32, a[0]),
        I642D => b.ins().fcvt_from_sint(F64, a[0]),
        U642D => b.ins().fcvt_from_uint(F64, a[0]),
        I2I64 => b.ins().sextend(I64, a[0]),
        U2I64 => b.ins().uextend(I64, a[0]),
        _ => return None,
    })
}

/// I64DIV/I64MOD/U64DIV/U64MOD with the divisor made safe: 0 (and -1 when the dividend is
/// INT64_MIN, for the signed forms) becomes 1, so nothing traps; those results are
/// undefined.
fn divide(b: &mut Fb, op: Opcode, x: Value, y: Value) -> Value {
    let one = b.ins().iconst(I64, 1);
    let zero = b.ins().icmp_imm_s(IntCC::Equal, y, 0);
    let signed = matches!(op, Opcode::I64DIV | Opcode::I64MOD);
    let bad = if signed {
        let min = b.ins().icmp_imm_s(IntCC::Equal, x, i64::MIN);
        let m1 = b.ins().icmp_imm_s(IntCC::Equal, y, -1);
        let ov = b.ins().band(min, m1);
        b.ins().bor(zero, ov)
    } else {
        zero
    };
    let y = b.ins().select(bad, one, y);
    match op {
        Opcode::I64DIV => b.ins().sdiv(x, y),
        Opcode::I64MOD => b.ins().srem(x, y),
        Opcode::U64DIV => b.ins().udiv(x, y),
        _ => b.ins().urem(x, y),
    }
}
