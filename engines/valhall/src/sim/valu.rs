//! Vector arithmetic on 2×16-bit and 4×8-bit lanes (SEMANTICS.md §2.1 swizzles, §3–§6
//! per lane). Not on the hot path: written for clarity, one 32-bit word at a time.

use super::assume::{self, canon_f16, DEFAULT_NAN_F16};
use super::exec::Warp;
use super::float::{self, Clamp, Round};
use super::op::{CmpType, Cond, Logic, MuxMode, Op, ShiftDir, VOp, VSrc};

type Lanes = [u32; 16];

/// Sign-extends the low `bits` bits of `v` to 32 bits.
#[inline]
fn sext(v: u32, bits: u32) -> i32 {
    let s = 32 - bits;
    ((v << s) as i32) >> s
}

/// f16 bits → f32.
#[inline]
fn h(x: u32) -> f32 {
    f32::from_bits(float::f16_to_f32_bits(x & 0xFFFF))
}

/// f32 → f16 bits (round to nearest even), after the clamp; NaN → default NaN.
#[inline]
fn to_h(v: f32, clamp: Clamp) -> u32 {
    let v = f32::from_bits(float::clamp_one(clamp, v.to_bits()));
    u32::from(canon_f16(float::f32_to_f16(v, Round::Rte, DEFAULT_NAN_F16)))
}

/// Float condition on one pair (SEMANTICS.md §5.1, as [`super::alu::fcond`]).
fn fcond1(cond: Cond, a: f32, b: f32) -> bool {
    match cond {
        Cond::Eq => a == b,
        Cond::Gt => a > b,
        Cond::Ge => a >= b,
        Cond::Ne => a != b,
        Cond::Lt => a < b,
        Cond::Le => a <= b,
        // Ordered not-equal: false on NaN, unlike `a != b`.
        #[allow(clippy::double_comparisons)]
        Cond::Gtlt => a < b || a > b,
        Cond::Total => assume::fcmp_total(a, b),
    }
}

/// Integer condition on one pair of lanes of `w` bits.
fn icond1(cond: Cond, signed: bool, a: u32, b: u32, w: u32) -> bool {
    let (x, y) = if signed {
        (i64::from(sext(a, w)), i64::from(sext(b, w)))
    } else {
        (i64::from(a), i64::from(b))
    };
    match cond {
        Cond::Eq => x == y,
        Cond::Gt => x > y,
        Cond::Ge => x >= y,
        Cond::Ne | Cond::Gtlt => x != y,
        Cond::Lt => x < y,
        Cond::Le => x <= y,
        Cond::Total => true,
    }
}

/// Compare of one lane pair by type.
fn cmp1(cond: Cond, ty: CmpType, a: u32, b: u32, w: u32) -> bool {
    match ty {
        CmpType::Float => fcond1(cond, h(a), h(b)),
        CmpType::Signed => icond1(cond, true, a, b, w),
        CmpType::Unsigned => icond1(cond, false, a, b, w),
    }
}

/// One lane of a [`VOp`]: `x`, `y` are `w`-bit lane values (zero-extended).
fn vlane(op: VOp, w: u32, x: u32, y: u32, clamp: Clamp) -> u32 {
    let m = (1u32 << w) - 1;
    let (sx, sy) = (sext(x, w), sext(y, w));
    let (smin, smax) = (-(1i32 << (w - 1)), (1i32 << (w - 1)) - 1);
    match op {
        VOp::Add => x.wrapping_add(y) & m,
        VOp::AddSatU => (x + y).min(m),
        VOp::AddSatS => (sx + sy).clamp(smin, smax) as u32 & m,
        VOp::Sub => x.wrapping_sub(y) & m,
        VOp::SubSatU => x.saturating_sub(y),
        VOp::SubSatS => (sx - sy).clamp(smin, smax) as u32 & m,
        VOp::Mul => x.wrapping_mul(y) & m,
        VOp::HaddU { round } => (x + y + u32::from(round)) >> 1,
        VOp::HaddS { round } => ((sx + sy + i32::from(round)) >> 1) as u32 & m,
        VOp::Clz => assume::clz_lane(x, w),
        VOp::Iabs => sx.wrapping_abs() as u32 & m,
        VOp::Mov => x & m,
        VOp::FAdd => to_h(h(x) + h(y), clamp),
        VOp::FMin => to_h(assume::fmin(h(x), h(y)), clamp),
        VOp::FMax => to_h(assume::fmax(h(x), h(y)), clamp),
        VOp::Fround(r) => to_h(float::round_integral(h(x), r), clamp),
        VOp::FToS(r) => assume::f32_to_s16(h(x), r) & m,
        VOp::FToU(r) => assume::f32_to_u16(h(x), r) & m,
        VOp::SToF(r) => u32::from(float::f32_to_f16(sx as f32, r, DEFAULT_NAN_F16)),
        VOp::UToF(r) => u32::from(float::f32_to_f16(x as f32, r, DEFAULT_NAN_F16)),
    }
}

/// Applies `f` to each of the `32 / w` lanes of every word.
#[inline]
fn lanewise(a: &Lanes, b: &Lanes, w: u32, f: impl Fn(u32, u32, u32) -> u32) -> Lanes {
    let m = (1u32 << w) - 1;
    let mut r = [0u32; 16];
    for l in 0..16 {
        let mut v = 0;
        for i in 0..32 / w {
            let s = i * w;
            v |= (f(i, (a[l] >> s) & m, (b[l] >> s) & m) & m) << s;
        }
        r[l] = v;
    }
    r
}

impl Warp<'_> {
    /// A vector source after its lane selection and f16 abs/neg.
    fn getv(&self, s: &VSrc, width: u32) -> Lanes {
        let x = self.get(s.v);
        let bits = u32::from(s.bits);
        let bm = if bits >= 32 { !0 } else { (1u32 << bits) - 1 };
        let wm = (1u32 << width) - 1;
        let mut r = [0u32; 16];
        for l in 0..16 {
            let mut v = 0u32;
            for i in 0..(32 / width) as usize {
                let part = (x[l] >> (u32::from(s.shift[i]) & 31)) & bm;
                let part = if s.signed && bits < width {
                    sext(part, bits) as u32 & wm
                } else {
                    part & wm
                };
                v |= part << (i as u32 * width);
            }
            r[l] = (v & s.and) ^ s.xor;
        }
        r
    }

    /// Runs a vector operation.
    pub(crate) fn valu(&mut self, op: &Op, active: u16) {
        match *op {
            Op::Vec {
                op,
                width,
                a,
                b,
                clamp,
                d,
            } => {
                let w = u32::from(width);
                let (a, b) = (self.getv(&a, w), self.getv(&b, w));
                let r = lanewise(&a, &b, w, |_, x, y| vlane(op, w, x, y, clamp));
                self.put(d, active, &r);
            }
            Op::VFma { a, b, c, clamp, d } => {
                let (a, b, c) = (self.getv(&a, 16), self.getv(&b, 16), self.getv(&c, 16));
                let mut r = [0u32; 16];
                for l in 0..16 {
                    let mut v = 0;
                    for s in [0, 16] {
                        let lane = |x: &Lanes| h(x[l] >> s);
                        let f16 = float::fma_f16(lane(&a), lane(&b), lane(&c), DEFAULT_NAN_F16);
                        let f16 = canon_f16(f16);
                        let out = if clamp == Clamp::None {
                            u32::from(f16)
                        } else {
                            to_h(h(u32::from(f16)), clamp)
                        };
                        v |= out << s;
                    }
                    r[l] = v;
                }
                self.put(d, active, &r);
            }
            Op::VImm {
                op,
                width,
                a,
                imm,
                d,
            } => {
                let w = u32::from(width);
                let a = self.get(a);
                let r = lanewise(&a, &[imm; 16], w, |_, x, y| vlane(op, w, x, y, Clamp::None));
                self.put(d, active, &r);
            }
            Op::VCmp {
                cond,
                ty,
                width,
                and,
                res,
                a,
                b,
                c,
                d,
            } => {
                let w = u32::from(width);
                let (a, b, c) = (self.getv(&a, w), self.getv(&b, w), self.get(c));
                let m = (1u32 << w) - 1;
                let mut r = [0u32; 16];
                for l in 0..16 {
                    let mut v = 0;
                    for i in 0..32 / w {
                        let s = i * w;
                        let t = cmp1(cond, ty, (a[l] >> s) & m, (b[l] >> s) & m, w);
                        let cv = assume::c_is_true((c[l] >> s) & m);
                        if if and { t && cv } else { t || cv } {
                            v |= res << s;
                        }
                    }
                    r[l] = v;
                }
                self.put(d, active, &r);
            }
            Op::VCSel {
                cond,
                ty,
                a,
                b,
                t,
                f,
                d,
            } => {
                let (a, b) = (self.getv(&a, 16), self.getv(&b, 16));
                let (t, f) = (self.getv(&t, 16), self.getv(&f, 16));
                let mut r = [0u32; 16];
                for l in 0..16 {
                    for s in [0, 16] {
                        let c = cmp1(cond, ty, (a[l] >> s) & 0xFFFF, (b[l] >> s) & 0xFFFF, 16);
                        let src = if c { t[l] } else { f[l] };
                        r[l] |= src & (0xFFFF << s);
                    }
                }
                self.put(d, active, &r);
            }
            Op::VMux {
                mode,
                width,
                a,
                b,
                m,
                d,
            } => {
                let w = u32::from(width);
                let (a, b, mk) = (self.getv(&a, w), self.getv(&b, w), self.getv(&m, w));
                let r = match mode {
                    MuxMode::Bit => {
                        let mut r = [0u32; 16];
                        for l in 0..16 {
                            r[l] = (a[l] & mk[l]) | (b[l] & !mk[l]);
                        }
                        r
                    }
                    _ => {
                        let lm = (1u32 << w) - 1;
                        let mut r = [0u32; 16];
                        for l in 0..16 {
                            for i in 0..32 / w {
                                let s = i * w;
                                let z = (mk[l] >> s) & lm;
                                let pick_a = match mode {
                                    MuxMode::Neg => z >> (w - 1) != 0,
                                    MuxMode::IntZero => z == 0,
                                    _ => z & (lm >> 1) == 0,
                                };
                                let src = if pick_a { a[l] } else { b[l] };
                                r[l] |= src & (lm << s);
                            }
                        }
                        r
                    }
                };
                self.put(d, active, &r);
            }
            Op::VShift {
                dir,
                logic,
                width,
                a,
                s,
                b,
                bnot,
                rnot,
                d,
            } => {
                let w = u32::from(width);
                let (a, s, b) = (self.getv(&a, w), self.geti(&s), self.get(b));
                let m = (1u32 << w) - 1;
                let mut r = [0u32; 16];
                for l in 0..16 {
                    let sh = assume::shift_amount(s[l], w);
                    let mut v = 0;
                    for i in 0..32 / w {
                        let o = i * w;
                        let x = (a[l] >> o) & m;
                        let x = match dir {
                            ShiftDir::Left => (x << sh) & m,
                            ShiftDir::RightLogical => x >> sh,
                            ShiftDir::RightArith => (sext(x, w) >> sh) as u32 & m,
                        };
                        let y = ((b[l] ^ bnot) >> o) & m;
                        let z = match logic {
                            Logic::And => x & y,
                            Logic::Or => x | y,
                            Logic::Xor => x ^ y,
                        };
                        v |= ((z ^ rnot) & m) << o;
                    }
                    r[l] = v;
                }
                self.put(d, active, &r);
            }
            _ => {}
        }
    }
}
