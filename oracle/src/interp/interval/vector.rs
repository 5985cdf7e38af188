//! Interval rules of the vector opcodes: the `fused_or_unfused` evaluations (MAD, DP2,
//! DP3, DP4, DPH, LRP, XPD), DST, and the channel-dependent EXP, LOG and LIT.

use shaderdiff_model::Opcode;

use super::iv::{self, Iv};
use super::ops::{binary, binary_as, compare, frc, min_max, unary, unary_exact, Cmp, Env};
use crate::interp::alu::special as sp;
use crate::precision::{BoundKind, ChannelRule};

/// The `fused_or_unfused` evaluations of MAD, DPn/DPH, LRP and XPD, as a union.
pub(super) mod fused {
    use super::super::iv::{self, Iv};
    use super::super::ops::{binary, Env};
    use shaderdiff_model::Opcode;

    fn add(env: &Env, a: Iv, b: Iv) -> Iv {
        env.fl(binary(env, Opcode::ADD, a, b))
    }
    fn sub(env: &Env, a: Iv, b: Iv) -> Iv {
        env.fl(binary(env, Opcode::SUB, a, b))
    }
    fn mul(env: &Env, a: Iv, b: Iv) -> Iv {
        env.fl(binary(env, Opcode::MUL, a, b))
    }
    fn fma(env: &Env, a: Iv, b: Iv, c: Iv) -> Iv {
        env.fl(iv::fma(a, b, c))
    }

    /// MAD: `rn(rn(a*b) + c)` or `rn(a*b + c)`.
    pub fn mad(env: &Env, a: Iv, b: Iv, c: Iv) -> Iv {
        add(env, mul(env, a, b), c).hull(fma(env, a, b, c))
    }

    /// Dot product of `n` terms (`a[i] * b[i]`): sequential unfused (the oracle's order:
    /// `p = a0*b0; p = a_i*b_i + p`), sequential fused from the first or the last term, and
    /// for four terms pairwise `(t0 + t1) + (t2 + t3)` unfused or with fused pairs.
    pub fn dot(env: &Env, a: &[Iv], b: &[Iv]) -> Iv {
        let n = a.len();
        let mut seq = mul(env, a[0], b[0]);
        for i in 1..n {
            seq = add(env, mul(env, a[i], b[i]), seq);
        }
        let mut fwd = mul(env, a[0], b[0]);
        for i in 1..n {
            fwd = fma(env, a[i], b[i], fwd);
        }
        let mut rev = mul(env, a[n - 1], b[n - 1]);
        for i in (0..n - 1).rev() {
            rev = fma(env, a[i], b[i], rev);
        }
        let mut r = seq.hull(fwd).hull(rev);
        if n == 4 {
            let p = |i: usize| mul(env, a[i], b[i]);
            let pair = add(env, add(env, p(0), p(1)), add(env, p(2), p(3)));
            let fpair = add(env, fma(env, a[1], b[1], p(0)), fma(env, a[3], b[3], p(2)));
            r = r.hull(pair).hull(fpair);
        }
        r
    }

    /// LRP: the doc's `a*b + (1-a)*c` (unfused, or either product fused) and tgsi_exec's
    /// `a*(b-c) + c` (unfused or fused).
    pub fn lrp(env: &Env, a: Iv, b: Iv, c: Iv) -> Iv {
        let one_minus = sub(env, Iv::point(1.0), a);
        let ab = mul(env, a, b);
        let q = mul(env, one_minus, c);
        let doc = add(env, ab, q)
            .hull(fma(env, a, b, q))
            .hull(fma(env, one_minus, c, ab));
        let d = sub(env, b, c);
        let exec = add(env, mul(env, a, d), c).hull(fma(env, a, d, c));
        doc.hull(exec)
    }

    /// One XPD channel `a_i*b_j - a_j*b_i`: unfused or either product fused.
    pub fn cross(env: &Env, ai: Iv, bj: Iv, aj: Iv, bi: Iv) -> Iv {
        let p = mul(env, ai, bj);
        let q = mul(env, aj, bi);
        sub(env, p, q)
            .hull(fma(env, ai, bj, q.negate()))
            .hull(fma(env, aj.negate(), bi, p))
    }
}

/// One channel of a vector opcode (DP2, DP3, DP4, DPH, XPD, DST, EXP, LOG, LIT) from the
/// source vectors `a`, `b`. `None` when undetermined.
pub fn vector(env: &Env, op: Opcode, a: [Iv; 4], b: [Iv; 4], c: usize) -> Option<Iv> {
    use Opcode::*;
    let fused = matches!(env.bound(op), BoundKind::FusedOrUnfused);
    let dot = |n: usize, a: &[Iv], b: &[Iv]| {
        if fused {
            fused::dot(env, &a[..n], &b[..n])
        } else {
            // The oracle's order, every step rounded.
            let mut p = iv::mul(a[0], b[0]);
            for i in 1..n {
                p = iv::add(iv::mul(a[i], b[i]), p);
            }
            p
        }
    };
    Some(match op {
        DP2 => dot(2, &a, &b),
        DP3 => dot(3, &a, &b),
        DP4 => dot(4, &a, &b),
        DPH => dot(4, &[a[0], a[1], a[2], Iv::point(1.0)], &b),
        XPD => {
            let (i, j) = match c {
                0 => (1, 2),
                1 => (2, 0),
                2 => (0, 1),
                _ => return Some(Iv::point(1.0)),
            };
            if fused {
                fused::cross(env, a[i], b[j], a[j], b[i])
            } else {
                iv::sub(iv::mul(a[i], b[j]), iv::mul(a[j], b[i]))
            }
        }
        DST => match c {
            0 => Iv::point(1.0),
            1 => binary(env, MUL, a[1], b[1]),
            2 => a[2],
            _ => b[3],
        },
        EXP | LOG | LIT => return channel_op(env, op, a, c),
        _ => return None,
    })
}

/// The bound op of channel `c` of a channel-dependent opcode (`None` = exact).
fn channel_bound(env: &Env, op: Opcode, c: usize) -> Option<Opcode> {
    match env.bound(op) {
        BoundKind::Channels(rules) => match rules[c] {
            ChannelRule::As(o) => Some(o),
            ChannelRule::Exact => None,
        },
        _ => None,
    }
}

/// EXP, LOG, LIT channel `c` (tgsi.rst formulas; see `alu::special`).
fn channel_op(env: &Env, op: Opcode, s: [Iv; 4], c: usize) -> Option<Iv> {
    let x = s[0];
    let bound_of = |fallback: Opcode| channel_bound(env, op, c).unwrap_or(fallback);
    Some(match (op, c) {
        (_, 3) => Iv::point(1.0),
        (Opcode::LIT, 0) => Iv::point(1.0),
        (Opcode::EXP, 0) => x.map_inc(|v| sp::exp([v, 0.0, 0.0, 0.0], 0)),
        (Opcode::EXP, 1) => frc(x),
        (Opcode::EXP, _) => {
            let b = channel_bound(env, op, c);
            match b {
                Some(o) => unary(env, Opcode::EX2, o, x),
                None => unary_exact(Opcode::EX2, x),
            }
        }
        (Opcode::LOG, _) => {
            let a = x.abs();
            match c {
                0 => a.map_inc(|v| sp::log([v, 0.0, 0.0, 0.0], 0)),
                1 => {
                    let e = |v: f32| sp::log([v, 0.0, 0.0, 0.0], 0);
                    if a.empty() {
                        Iv::NAN
                    } else if !a.has_zero() && !a.has_inf() && e(a.lo) == e(a.hi) {
                        a.map_inc(|v| sp::log([v, 0.0, 0.0, 0.0], 1))
                    } else {
                        let special = a.has_zero() || a.has_inf();
                        Iv::range(1.0, iv::next_down(2.0), a.nan || special)
                    }
                }
                _ => match channel_bound(env, op, c) {
                    Some(o) => unary(env, Opcode::LG2, o, a),
                    None => unary_exact(Opcode::LG2, a),
                },
            }
        }
        (Opcode::LIT, 1) => min_max(env, Opcode::MAX, x, Iv::point(0.0)),
        (Opcode::LIT, _) => match compare(Cmp::Gt, x, Iv::point(0.0))? {
            false => Iv::point(0.0),
            true => {
                let w = s[3];
                if w.nan || w.empty() {
                    return None;
                }
                let e = w.map_inc(|v| v.clamp(-128.0, 128.0));
                let base = min_max(env, Opcode::MAX, s[1], Iv::point(0.0));
                binary_as(env, Opcode::POW, bound_of(Opcode::POW), base, e)
            }
        },
        _ => return None,
    })
}
