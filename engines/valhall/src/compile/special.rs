//! The legacy channel-dependent opcodes EXP, LOG and LIT and the normalized packs
//! PK2US/PK4B/PK4UB (tgsi.rst; the oracle's `alu::special` / `alu::convert` decisions for
//! special values), as Valhall sequences.

use shaderdiff_model::Opcode;

use super::alu::{ex2, fcmp, lg2, mul, plain, pow};
use super::vcode::{VCode, VSrc};

/// `x` when `x` is NaN, else `r` (CSEL on the ordered `x == x`).
fn nan_passthrough(code: &mut VCode, x: VSrc, r: VSrc) -> VSrc {
    code.op("CSEL.f32", &[x, x, r, x], &[("cmp", "eq")])
}

/// EXP channel `c`: (2^floor(x), x − floor(x), 2^x, 1).
pub(super) fn exp(code: &mut VCode, x: VSrc, c: u8) -> VSrc {
    let x = plain(code, x);
    match c {
        0 => {
            // 2^floor(x) exactly: LDEXP(1, floor(x)) with F32_TO_S32's saturation giving
            // the 0 / +inf of the oracle's clamped exponent; NaN passes through.
            let n = code.op("F32_TO_S32", &[x], &[("roundmode", "rtn")]);
            let one = code.f(1.0);
            let r = code.op("LDEXP.f32", &[one, n], &[]);
            nan_passthrough(code, x, r)
        }
        1 => {
            let f = code.op("FROUND.f32", &[x], &[("roundmode", "rtn")]);
            code.op("FADD.f32", &[x, f.negated()], &[])
        }
        2 => ex2(code, x),
        _ => code.f(1.0),
    }
}

/// LOG channel `c` of |x|: (floor(log2 a), a / 2^floor(log2 a), log2 a, 1).
pub(super) fn log(code: &mut VCode, x: VSrc, c: u8) -> VSrc {
    let a = plain(code, x.abs());
    let inf = code.f(f32::INFINITY);
    let z = code.konst(0);
    match c {
        0 => {
            // FREXPE gives e with a = m·2^e, m in [0.5, 1): floor(log2 a) = e − 1.
            let e = code.op("FREXPE.f32", &[a], &[]);
            let ef = code.op("S32_TO_F32", &[e], &[]);
            let one = code.f(1.0);
            let f = code.op("FADD.f32", &[ef, one.negated()], &[]);
            let ninf = code.f(f32::NEG_INFINITY);
            let t = code.op("CSEL.f32", &[a, z, ninf, f], &[("cmp", "eq")]);
            // a = +inf or NaN: the oracle returns a itself.
            code.op("CSEL.f32", &[a, inf, t, a], &[("cmp", "lt")])
        }
        1 => {
            // The significand in [1, 2): FREXPM's [0.5, 1) doubled; 0, inf, NaN → NaN
            // (0/0, inf/inf in the oracle).
            let m = code.op("FREXPM.f32", &[a], &[]);
            let m2 = code.op("FADD.f32", &[m, m], &[]);
            let nan = code.konst(0x7fc0_0000);
            let t = code.op("CSEL.f32", &[a, inf, m2, nan], &[("cmp", "lt")]);
            code.op("CSEL.f32", &[a, z, nan, t], &[("cmp", "eq")])
        }
        2 => lg2(code, a),
        _ => code.f(1.0),
    }
}

/// LIT channel `c` from (x, y, w): (1, max(x, 0), x > 0 ? max(y, 0)^clamp(w, ±128) : 0, 1).
pub(super) fn lit(code: &mut VCode, s: [VSrc; 3], c: u8) -> VSrc {
    let z = code.konst(0);
    match c {
        1 => code.op("FMAX.f32", &[s[0], z], &[]),
        2 => {
            let y = code.op("FMAX.f32", &[s[1], z], &[]);
            let hi = code.f(128.0);
            let w = code.op("FMIN.f32", &[s[2], hi], &[]);
            let lo = code.f(-128.0);
            let w = code.op("FMAX.f32", &[w, lo], &[]);
            let p = pow(code, y, w);
            let x = plain(code, s[0]);
            code.op("CSEL.f32", &[x, z, p, z], &[("cmp", "gt")])
        }
        _ => code.f(1.0),
    }
}

/// Rounds the clamped, scaled value `v = x · k` to the nearest integer exactly: the
/// product's rounding error is recovered with FMA (`x·k − r` is computed exactly before
/// its single rounding), so a product that rounded onto a .5 tie is corrected.
fn round_scaled(code: &mut VCode, x: VSrc, k: f32, signed: bool) -> VSrc {
    let kk = code.f(k);
    let p = mul(code, x, kk);
    let (to_int, to_float) = if signed {
        ("F32_TO_S32", "S32_TO_F32")
    } else {
        ("F32_TO_U32", "U32_TO_F32")
    };
    let r = code.op(to_int, &[p], &[("roundmode", "rte")]);
    let rf = code.op(to_float, &[r], &[]);
    let res = code.op("FMA.f32", &[x, kk, rf.negated()], &[]);
    let half = code.f(0.5);
    let up = fcmp(code, res, half, "gt", "i1");
    let down = fcmp(code, res, half.negated(), "lt", "i1");
    let r = code.op("IADD.u32", &[r, up], &[]);
    code.op("ISUB.u32", &[r, down], &[])
}

/// PK2US / PK4B / PK4UB: GL UNORM/SNORM conversion of each component (clamp, scale,
/// round to nearest), packed 16 or 8 bits per component, x in the low bits.
pub(super) fn pack_norm(code: &mut VCode, op: Opcode, comps: &[VSrc]) -> VSrc {
    let (bits, signed, scale) = match op {
        Opcode::PK2US => (16u32, false, 65535.0f32),
        Opcode::PK4B => (8, true, 127.0),
        _ => (8, false, 255.0),
    };
    let mut acc: Option<VSrc> = None;
    for (i, &x) in comps.iter().enumerate() {
        let clamp = if signed { "clamp_m1_1" } else { "clamp_0_1" };
        let z = code.konst(0);
        let x = code.op("FADD.f32", &[x, z], &[("clamp", clamp)]);
        let r = round_scaled(code, x, scale, signed);
        let mask = code.konst(if bits == 16 { 0xffff } else { 0xff });
        let z0 = code.lane_const(0);
        let r = code.op("LSHIFT_AND.i32", &[r, z0, mask], &[]);
        acc = Some(match acc {
            None => r,
            Some(a) => {
                let sh = code.lane_const(i as u32 * bits);
                code.op("LSHIFT_OR.i32", &[r, sh, a], &[])
            }
        });
    }
    acc.unwrap_or_else(|| code.konst(0))
}
