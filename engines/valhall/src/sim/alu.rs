//! Scalar (32-bit lane) arithmetic: each operation is a loop over the 16 lanes of a warp,
//! computed for every lane (inactive lanes are discarded by the write-back), so the
//! common cases vectorise. SEMANTICS.md §3–§6.

use super::assume::{self, canon_f32};
use super::exec::Warp;
use super::float::{self, clamp_lanes};
use super::op::{CmpType, Cond, FUn, IBin, IUn, Logic, MuxMode, Op, ShiftDir, I64};

type Lanes = [u32; 16];

#[inline(always)]
fn f(x: u32) -> f32 {
    f32::from_bits(x)
}

#[inline(always)]
fn map1(a: &Lanes, op: impl Fn(u32) -> u32) -> Lanes {
    let mut r = [0u32; 16];
    for l in 0..16 {
        r[l] = op(a[l]);
    }
    r
}

#[inline(always)]
fn map2(a: &Lanes, b: &Lanes, op: impl Fn(u32, u32) -> u32) -> Lanes {
    let mut r = [0u32; 16];
    for l in 0..16 {
        r[l] = op(a[l], b[l]);
    }
    r
}

#[inline(always)]
fn map3(a: &Lanes, b: &Lanes, c: &Lanes, op: impl Fn(u32, u32, u32) -> u32) -> Lanes {
    let mut r = [0u32; 16];
    for l in 0..16 {
        r[l] = op(a[l], b[l], c[l]);
    }
    r
}

#[inline(always)]
fn test2(a: &Lanes, b: &Lanes, op: impl Fn(u32, u32) -> bool) -> [bool; 16] {
    let mut r = [false; 16];
    for l in 0..16 {
        r[l] = op(a[l], b[l]);
    }
    r
}

/// Float condition per lane (SEMANTICS.md §5.1): ordered except `ne` (true on NaN);
/// `gtlt` = ordered not-equal; `total` per [`assume::fcmp_total`].
pub(crate) fn fcond(cond: Cond, a: &Lanes, b: &Lanes) -> [bool; 16] {
    match cond {
        Cond::Eq => test2(a, b, |x, y| f(x) == f(y)),
        Cond::Gt => test2(a, b, |x, y| f(x) > f(y)),
        Cond::Ge => test2(a, b, |x, y| f(x) >= f(y)),
        Cond::Ne => test2(a, b, |x, y| f(x) != f(y)),
        Cond::Lt => test2(a, b, |x, y| f(x) < f(y)),
        Cond::Le => test2(a, b, |x, y| f(x) <= f(y)),
        Cond::Gtlt => test2(a, b, |x, y| f(x) < f(y) || f(x) > f(y)),
        Cond::Total => test2(a, b, |x, y| assume::fcmp_total(f(x), f(y))),
    }
}

/// Integer condition per lane (`gtlt`/`total` are rejected at load time; here they
/// mean `ne` / always).
pub(crate) fn icond(cond: Cond, signed: bool, a: &Lanes, b: &Lanes) -> [bool; 16] {
    if signed {
        let s = |x: u32| x as i32;
        match cond {
            Cond::Eq => test2(a, b, |x, y| x == y),
            Cond::Gt => test2(a, b, |x, y| s(x) > s(y)),
            Cond::Ge => test2(a, b, |x, y| s(x) >= s(y)),
            Cond::Ne | Cond::Gtlt => test2(a, b, |x, y| x != y),
            Cond::Lt => test2(a, b, |x, y| s(x) < s(y)),
            Cond::Le => test2(a, b, |x, y| s(x) <= s(y)),
            Cond::Total => [true; 16],
        }
    } else {
        match cond {
            Cond::Eq => test2(a, b, |x, y| x == y),
            Cond::Gt => test2(a, b, |x, y| x > y),
            Cond::Ge => test2(a, b, |x, y| x >= y),
            Cond::Ne | Cond::Gtlt => test2(a, b, |x, y| x != y),
            Cond::Lt => test2(a, b, |x, y| x < y),
            Cond::Le => test2(a, b, |x, y| x <= y),
            Cond::Total => [true; 16],
        }
    }
}

/// Compare result with the third source (SEMANTICS.md §5.3): `cond OR c` (`and`: AND),
/// encoded as `res` / 0 (§5.2).
#[inline(always)]
fn combine(t: &[bool; 16], c: &Lanes, and: bool, res: u32) -> Lanes {
    let mut r = [0u32; 16];
    for l in 0..16 {
        let cv = assume::c_is_true(c[l]);
        let v = if and { t[l] & cv } else { t[l] | cv };
        r[l] = res & 0u32.wrapping_sub(u32::from(v));
    }
    r
}

#[inline(always)]
fn shift_lanes<const D: u8, const L: u8>(
    a: &Lanes,
    s: &Lanes,
    b: &Lanes,
    bnot: u32,
    rnot: u32,
) -> Lanes {
    let mut r = [0u32; 16];
    for l in 0..16 {
        let sh = assume::shift_amount(s[l], 32);
        let x = match D {
            0 => a[l] << sh,
            1 => a[l] >> sh,
            _ => ((a[l] as i32) >> sh) as u32,
        };
        let bb = b[l] ^ bnot;
        let y = match L {
            0 => x & bb,
            1 => x | bb,
            _ => x ^ bb,
        };
        r[l] = y ^ rnot;
    }
    r
}

/// A 64-bit operation on lanes.
#[inline(always)]
fn map64(a: &[u64; 16], b: &[u64; 16], op: impl Fn(u64, u64) -> u64) -> [u64; 16] {
    let mut r = [0u64; 16];
    for l in 0..16 {
        r[l] = op(a[l], b[l]);
    }
    r
}

impl Warp<'_> {
    fn get64(&self, s: &super::op::Src64) -> [u64; 16] {
        let lo = self.geti(&s.lo);
        let mut r = [0u64; 16];
        match s.hi {
            Some(h) => {
                let hi = self.get(h);
                for l in 0..16 {
                    r[l] = u64::from(hi[l]) << 32 | u64::from(lo[l]);
                }
            }
            None if s.lo.signed => {
                for l in 0..16 {
                    r[l] = lo[l] as i32 as i64 as u64;
                }
            }
            None => {
                for l in 0..16 {
                    r[l] = u64::from(lo[l]);
                }
            }
        }
        r
    }

    /// Runs an ALU operation (anything but control flow, memory and CLPER).
    pub(crate) fn alu(&mut self, op: &Op, active: u16) {
        match *op {
            Op::Nop => {}
            Op::FAdd { a, b, clamp, d } => {
                let mut r = map2(&self.getf(&a), &self.getf(&b), |x, y| {
                    canon_f32(f(x) + f(y))
                });
                clamp_lanes(clamp, &mut r);
                self.put(d, active, &r);
            }
            Op::FMin { a, b, clamp, d } => {
                let mut r = map2(&self.getf(&a), &self.getf(&b), |x, y| {
                    canon_f32(assume::fmin(f(x), f(y)))
                });
                clamp_lanes(clamp, &mut r);
                self.put(d, active, &r);
            }
            Op::FMax { a, b, clamp, d } => {
                let mut r = map2(&self.getf(&a), &self.getf(&b), |x, y| {
                    canon_f32(assume::fmax(f(x), f(y)))
                });
                clamp_lanes(clamp, &mut r);
                self.put(d, active, &r);
            }
            Op::FAddLscale { a, b, clamp, d } => {
                let mut r = map2(&self.getf(&a), &self.getf(&b), |x, y| {
                    canon_f32(assume::fadd_lscale(f(x), f(y)))
                });
                clamp_lanes(clamp, &mut r);
                self.put(d, active, &r);
            }
            Op::FAddImm { a, imm, d } => {
                let r = map1(&self.get(a), |x| canon_f32(f(x) + f(imm)));
                self.put(d, active, &r);
            }
            Op::Fma { a, b, c, clamp, d } => {
                let (a, b, c) = (self.getf(&a), self.getf(&b), self.getf(&c));
                let mut r = map3(&a, &b, &c, |x, y, z| {
                    canon_f32(float::fma_f32(f(x), f(y), f(z)))
                });
                clamp_lanes(clamp, &mut r);
                self.put(d, active, &r);
            }
            Op::FmaRscale {
                a,
                b,
                c,
                s,
                kind,
                clamp,
                d,
            } => {
                let (a, b, c, s) = (self.getf(&a), self.getf(&b), self.getf(&c), self.get(s));
                let mut r = [0u32; 16];
                for l in 0..16 {
                    r[l] = canon_f32(assume::fma_rscale(f(a[l]), f(b[l]), f(c[l]), s[l], kind));
                }
                clamp_lanes(clamp, &mut r);
                self.put(d, active, &r);
            }
            Op::FUnary { op, a, d } => {
                let a = self.getf(&a);
                let r = match op {
                    FUn::Canon => map1(&a, |x| canon_f32(f(x))),
                    FUn::Frcp => map1(&a, |x| canon_f32(assume::frcp(f(x)))),
                    FUn::Frsq => map1(&a, |x| canon_f32(assume::frsq(f(x)))),
                    FUn::Flogd => map1(&a, |x| canon_f32(assume::flogd(f(x)))),
                    FUn::Frexpm { log } => map1(&a, |x| canon_f32(assume::frexpm(f(x), log))),
                    FUn::Frexpe { log } => map1(&a, |x| assume::frexpe(f(x), log) as u32),
                    FUn::Fround(m) => map1(&a, |x| canon_f32(float::round_integral(f(x), m))),
                    FUn::ToS32(m) => map1(&a, |x| assume::f32_to_s32(f(x), m)),
                    FUn::ToU32(m) => map1(&a, |x| assume::f32_to_u32(f(x), m)),
                    FUn::Flush { nan, ftz, inf } => {
                        map1(&a, |x| assume::flush_f32(x, nan, ftz, inf))
                    }
                };
                self.put(d, active, &r);
            }
            Op::FExp { a, b, clamp, d } => {
                let mut r = map2(&self.get(a), &self.getf(&b), |x, y| {
                    canon_f32(assume::fexp(x as i32, f(y)))
                });
                clamp_lanes(clamp, &mut r);
                self.put(d, active, &r);
            }
            Op::Ldexp { a, b, round, d } => {
                let r = map2(&self.getf(&a), &self.get(b), |x, y| {
                    canon_f32(assume::ldexp(f(x), y as i32, round))
                });
                self.put(d, active, &r);
            }
            Op::V2F32ToV2F16 {
                a,
                b,
                round,
                clamp,
                d,
            } => {
                let r = map2(&self.getf(&a), &self.getf(&b), |x, y| {
                    let cv = |v: u32| {
                        let v = float::clamp_one(clamp, v);
                        u32::from(float::f32_to_f16(f(v), round, assume::DEFAULT_NAN_F16))
                    };
                    cv(x) | cv(y) << 16
                });
                self.put(d, active, &r);
            }
            Op::FCmp {
                cond,
                and,
                res,
                a,
                b,
                c,
                d,
            } => {
                let t = fcond(cond, &self.getf(&a), &self.getf(&b));
                let r = combine(&t, &self.get(c), and, res);
                self.put(d, active, &r);
            }
            Op::ICmp {
                cond,
                signed,
                and,
                res,
                a,
                b,
                c,
                d,
            } => {
                let t = icond(cond, signed, &self.geti(&a), &self.geti(&b));
                let r = combine(&t, &self.get(c), and, res);
                self.put(d, active, &r);
            }
            Op::CSel {
                cond,
                ty,
                a,
                b,
                t,
                f: fv,
                d,
            } => {
                let (a, b) = (self.get(a), self.get(b));
                let c = match ty {
                    CmpType::Float => fcond(cond, &a, &b),
                    CmpType::Signed => icond(cond, true, &a, &b),
                    CmpType::Unsigned => icond(cond, false, &a, &b),
                };
                let (t, fv) = (self.get(t), self.get(fv));
                let mut r = [0u32; 16];
                for l in 0..16 {
                    r[l] = if c[l] { t[l] } else { fv[l] };
                }
                self.put(d, active, &r);
            }
            Op::Mux { mode, a, b, m, d } => {
                let (a, b, m) = (self.get(a), self.get(b), self.get(m));
                let r = match mode {
                    MuxMode::Neg => map3(&a, &b, &m, |x, y, z| if (z as i32) < 0 { x } else { y }),
                    MuxMode::IntZero => map3(&a, &b, &m, |x, y, z| if z == 0 { x } else { y }),
                    MuxMode::FpZero => map3(
                        &a,
                        &b,
                        &m,
                        |x, y, z| if z & 0x7FFF_FFFF == 0 { x } else { y },
                    ),
                    MuxMode::Bit => map3(&a, &b, &m, |x, y, z| (x & z) | (y & !z)),
                };
                self.put(d, active, &r);
            }
            Op::IBinary { op, a, b, d } => {
                let (a, b) = (self.geti(&a), self.geti(&b));
                let r = match op {
                    IBin::Add => map2(&a, &b, u32::wrapping_add),
                    IBin::AddSatU => map2(&a, &b, u32::saturating_add),
                    IBin::AddSatS => {
                        map2(&a, &b, |x, y| (x as i32).saturating_add(y as i32) as u32)
                    }
                    IBin::Sub => map2(&a, &b, u32::wrapping_sub),
                    IBin::SubSatU => map2(&a, &b, u32::saturating_sub),
                    IBin::SubSatS => {
                        map2(&a, &b, |x, y| (x as i32).saturating_sub(y as i32) as u32)
                    }
                    IBin::Mul => map2(&a, &b, u32::wrapping_mul),
                    IBin::MulSatS => map2(&a, &b, |x, y| {
                        (i64::from(x as i32) * i64::from(y as i32))
                            .clamp(i64::from(i32::MIN), i64::from(i32::MAX))
                            as u32
                    }),
                    IBin::HaddU { round } => map2(&a, &b, |x, y| {
                        ((u64::from(x) + u64::from(y) + u64::from(round)) >> 1) as u32
                    }),
                    IBin::HaddS { round } => map2(&a, &b, |x, y| {
                        ((i64::from(x as i32) + i64::from(y as i32) + i64::from(round)) >> 1) as u32
                    }),
                    IBin::MkVec16 => map2(&a, &b, |x, y| (x & 0xFFFF) | (y << 16)),
                };
                self.put(d, active, &r);
            }
            Op::IAddImm { a, imm, d } => {
                let r = map1(&self.get(a), |x| x.wrapping_add(imm));
                self.put(d, active, &r);
            }
            Op::IUnary { op, a, d } => {
                let a = self.geti(&a);
                let r = match op {
                    IUn::Mov => a,
                    IUn::Clz => map1(&a, assume::clz32),
                    IUn::Popcount => map1(&a, u32::count_ones),
                    IUn::Bitrev => map1(&a, u32::reverse_bits),
                    IUn::Iabs => map1(&a, assume::iabs32),
                    IUn::Not => map1(&a, |x| !x),
                    IUn::ToF32 { signed, round } => map1(&a, |x| {
                        let v = if signed {
                            f64::from(x as i32)
                        } else {
                            f64::from(x)
                        };
                        float::f64_to_f32(v, round).to_bits()
                    }),
                    IUn::FsinTable => map1(&a, |x| canon_f32(assume::fsin_table(x))),
                    IUn::FcosTable => map1(&a, |x| canon_f32(assume::fcos_table(x))),
                };
                self.put(d, active, &r);
            }
            Op::Shift {
                dir,
                logic,
                a,
                s,
                b,
                bnot,
                rnot,
                d,
            } => {
                let (a, s, b) = (self.geti(&a), self.geti(&s), self.get(b));
                let r = match (dir, logic) {
                    (ShiftDir::Left, Logic::And) => shift_lanes::<0, 0>(&a, &s, &b, bnot, rnot),
                    (ShiftDir::Left, Logic::Or) => shift_lanes::<0, 1>(&a, &s, &b, bnot, rnot),
                    (ShiftDir::Left, Logic::Xor) => shift_lanes::<0, 2>(&a, &s, &b, bnot, rnot),
                    (ShiftDir::RightLogical, Logic::And) => {
                        shift_lanes::<1, 0>(&a, &s, &b, bnot, rnot)
                    }
                    (ShiftDir::RightLogical, Logic::Or) => {
                        shift_lanes::<1, 1>(&a, &s, &b, bnot, rnot)
                    }
                    (ShiftDir::RightLogical, Logic::Xor) => {
                        shift_lanes::<1, 2>(&a, &s, &b, bnot, rnot)
                    }
                    (ShiftDir::RightArith, Logic::And) => {
                        shift_lanes::<2, 0>(&a, &s, &b, bnot, rnot)
                    }
                    (ShiftDir::RightArith, Logic::Or) => {
                        shift_lanes::<2, 1>(&a, &s, &b, bnot, rnot)
                    }
                    (ShiftDir::RightArith, Logic::Xor) => {
                        shift_lanes::<2, 2>(&a, &s, &b, bnot, rnot)
                    }
                };
                self.put(d, active, &r);
            }
            Op::MkVec8 { a, b, c, d } => {
                let r = map3(&self.geti(&a), &self.geti(&b), &self.get(c), |x, y, z| {
                    (x & 0xFF) | (y & 0xFF) << 8 | z << 16
                });
                self.put(d, active, &r);
            }
            Op::I64 { op, a, b, d } => {
                let (a, b) = (self.get64(&a), self.get64(&b));
                let r = match op {
                    I64::Add => map64(&a, &b, u64::wrapping_add),
                    I64::Sub => map64(&a, &b, u64::wrapping_sub),
                    I64::AddSatU => map64(&a, &b, u64::saturating_add),
                    I64::SubSatU => map64(&a, &b, u64::saturating_sub),
                    I64::AddSatS => {
                        map64(&a, &b, |x, y| (x as i64).saturating_add(y as i64) as u64)
                    }
                    I64::SubSatS => {
                        map64(&a, &b, |x, y| (x as i64).saturating_sub(y as i64) as u64)
                    }
                    I64::Shaddx(sh) => map64(&a, &b, |x, y| x.wrapping_add(y << (sh & 7))),
                };
                self.put64(d, active, &r);
            }
            Op::Imuld { a, b, d } => {
                let (a, b) = (self.geti(&a), self.geti(&b));
                let mut r = [0u64; 16];
                for l in 0..16 {
                    r[l] = assume::imuld(a[l], b[l]);
                }
                self.put64(d, active, &r);
            }
            Op::Shift64 {
                dir,
                logic,
                a,
                s,
                b,
                bnot,
                rnot,
                d,
            } => {
                let (a, s) = (self.get64(&a), self.geti(&s));
                let (blo, bhi) = (self.get(b[0]), self.get(b[1]));
                let mut r = [0u64; 16];
                for l in 0..16 {
                    let sh = assume::shift_amount(s[l], 64);
                    let x = match dir {
                        ShiftDir::Left => a[l] << sh,
                        ShiftDir::RightLogical => a[l] >> sh,
                        ShiftDir::RightArith => ((a[l] as i64) >> sh) as u64,
                    };
                    let y = (u64::from(bhi[l]) << 32 | u64::from(blo[l])) ^ bnot;
                    r[l] = match logic {
                        Logic::And => x & y,
                        Logic::Or => x | y,
                        Logic::Xor => x ^ y,
                    } ^ rnot;
                }
                self.put64(d, active, &r);
            }
            Op::Not64 { a, d } => {
                let (lo, hi) = (self.get(a[0]), self.get(a[1]));
                let mut r = [0u64; 16];
                for l in 0..16 {
                    r[l] = !(u64::from(hi[l]) << 32 | u64::from(lo[l]));
                }
                self.put64(d, active, &r);
            }
            Op::Idp {
                signed,
                saturate,
                a,
                b,
                c,
                d,
            } => {
                let r = map3(&self.get(a), &self.get(b), &self.get(c), |x, y, z| {
                    assume::idp(x, y, z, signed, saturate)
                });
                self.put(d, active, &r);
            }
            Op::Vec { .. }
            | Op::VFma { .. }
            | Op::VImm { .. }
            | Op::VCmp { .. }
            | Op::VCSel { .. }
            | Op::VMux { .. }
            | Op::VShift { .. } => self.valu(op, active),
            // Handled by `exec` (control flow, memory, CLPER); never reaches here.
            Op::Branch { .. }
            | Op::Discard { .. }
            | Op::Load { .. }
            | Op::Store { .. }
            | Op::Atom { .. }
            | Op::Clper { .. }
            | Op::Wmask { .. }
            | Op::Tex(_)
            | Op::Barrier => {}
        }
    }
}
