//! Acceptance sets of the 64-bit opcodes (tgsi.rst "Double ISA", "64-bit Integer ISA").
//!
//! # Representation
//!
//! A binary64 set `[lo, hi]` (IEEE total order, -0 < +0) plus a NaN bit is stored in the
//! interval planes of its channel pair exactly like the value: the low words of `lo` and
//! `hi` in the low channel (x or z), the high words in the high channel (y or w), the NaN
//! bit in both. An exact 64-bit value is therefore two exact channels, and the comparator
//! (`crate::compare`) rebuilds `[lo, hi]` from the pair ([`crate::io::pair_interval`]).
//!
//! # Rules
//!
//! * A result channel whose pair reads an inexact source channel is **undefined** (the
//!   64-bit opcodes do not propagate ranges: every bound is exact except DRCP, DRSQ and
//!   DMAD's fused alternative, and their inputs come exact from inputs, constants or exact
//!   64-bit arithmetic in practice).
//! * DRCP and DRSQ under an error bound `{ ulp = N }` accept every binary64 within
//!   `N + 1/2` ulp of the oracle's correctly rounded result (so within `N` ulp of the exact
//!   value; ulp = the gap above the result's magnitude, in binary64). Infinite, zero and NaN
//!   results (the IEEE special cases) stay exact. A bound with an `abs`, `ulp_per_abs_x` or
//!   `range` term is not modelled for 64-bit opcodes: any value is accepted.
//! * DMAD under `fused_or_unfused`: the unfused and the fused result (their hull, NaN if
//!   either is NaN).
//! * DMIN/DMAX ties between zeros of different signs accept both zeros when the contract
//!   says `signed_zero = "either"` for the opcode.
//! * NaN results of double arithmetic have unspecified bits (stored as "some NaN", like
//!   binary32 ones; a lone written half of such a NaN is undefined, since any word can be
//!   half of a NaN); DABS and DNEG keep a NaN's payload. Binary64 denormals are never
//!   flushed, in any class (tgsi.rst's double opcodes say nothing about flushing).
//!
//! # Pair halves
//!
//! A channel holding one word of a binary64 set that is not a single value (a DRCP/DRSQ
//! range, DMAD's hull, an unspecified NaN) is flagged as a *pair half* (`IvVals::half`):
//! its word alone is not determined (engines may return any word that, with its partner,
//! lies in the set), so
//! * a lone written half of such a set (the writemask enables one channel of the pair) is
//!   undefined;
//! * overwriting one half of a flagged pair makes the other half undefined (the two words no
//!   longer describe one set);
//! * a MOV whose swizzle keeps the pair together (`.xy`, `.zw`, `.zwxy`, both channels
//!   written) moves the flag along; any other 32-bit instruction reading a flagged channel
//!   has undefined results;
//! * the comparator receives the flags (`crate::io::Intervals::halves`) and judges a flagged
//!   pair as one binary64 whatever the static channel types say, and an unflagged inexact
//!   channel as a binary32 interval.

use shaderdiff_model::{Opcode, ScalarType};

use super::eval::{put, Srcs, NAN_UNKNOWN};
use super::ops::Env;
use super::IvVals;
use crate::interp::alu::wide::{self, pair_word};
use crate::interp::decode::DInsn;
use crate::interp::lanes::{Mask, Vals, ZERO_VALS};
use crate::precision::{BoundKind, SignedZeroPolicy};

/// A binary64 acceptance set: `[lo, hi]` bits in total order, plus NaN.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Set64 {
    lo: u64,
    hi: u64,
    nan: bool,
}

impl Set64 {
    fn point(v: u64) -> Set64 {
        Set64 {
            lo: v,
            hi: v,
            nan: f64::from_bits(v).is_nan(),
        }
    }
}

/// Evaluates the 64-bit instruction `insn` over the lanes of `exec` (see
/// [`super::eval::eval_alu`] for the arguments).
#[allow(clippy::too_many_arguments)]
pub(crate) fn eval_wide(
    env: &Env,
    insn: &DInsn,
    s: &Srcs,
    exec: Mask,
    undefined: &[Mask; 4],
    out: &mut IvVals,
    undet: &mut [Mask; 4],
) {
    let op = insn.op;
    let nsrc = insn.srcs.len();
    // The whole result of every pair with a written channel (the plain result only holds
    // the written channels).
    let mut full: Vals = ZERO_VALS;
    let mut scratch = [0 as Mask; 4];
    let pairs_mask = (0..2)
        .filter(|p| insn.writemask >> (2 * p) & 3 != 0)
        .fold(0u8, |m, p| m | 0b11 << (2 * p));
    wide::eval(op, s.val, pairs_mask, &mut full, &mut scratch);
    let f64_result = op.info().dst_type == Some(ScalarType::F64);
    for c in (0..4).filter(|c| insn.writemask >> c & 1 != 0) {
        let mut lanes = exec & !undefined[c];
        while lanes != 0 {
            let l = lanes.trailing_zeros() as usize;
            lanes &= lanes - 1;
            let inexact = (0..nsrc).any(|k| {
                let r = wide::reads(op, k, c);
                (0..4).any(|j| r >> j & 1 != 0 && s.inexact[k][j] >> l & 1 != 0)
            });
            if inexact {
                undet[c] |= 1 << l;
                let any = crate::io::Interval::ANY;
                put(out, c, l, (any.lo, any.hi, true));
                continue;
            }
            let v = full[c][l];
            if !f64_result {
                // 32-bit results (comparisons, D2F ...) and 64-bit integers: exact, except
                // a NaN made by D2F, whose bits are unspecified.
                let nan = f32::from_bits(v).is_nan();
                put(
                    out,
                    c,
                    l,
                    if nan && op == Opcode::D2F {
                        NAN_UNKNOWN
                    } else {
                        (v, v, nan)
                    },
                );
                continue;
            }
            let p = c / 2;
            let set = double_set(env, op, s.val, pair_word(&full, p, l), p, l);
            let keeps_payload = matches!(op, Opcode::DABS | Opcode::DNEG);
            if set.lo == set.hi && f64::from_bits(set.lo).is_nan() && !keeps_payload {
                if insn.writemask >> (2 * p) & 3 != 3 {
                    // Half of a NaN with unspecified bits: any word can be that half.
                    undet[c] |= 1 << l;
                    let any = crate::io::Interval::ANY;
                    put(out, c, l, (any.lo, any.hi, true));
                } else {
                    put(out, c, l, NAN_UNKNOWN);
                    out.half[c] |= 1 << l;
                }
                continue;
            }
            let shift = 32 * (c % 2);
            let word = |x: u64| (x >> shift) as u32;
            if set == Set64::point(set.lo) {
                // An exact pair: each channel exact in the binary32 sense.
                put(out, c, l, (v, v, f32::from_bits(v).is_nan()));
            } else if insn.writemask >> (2 * p) & 3 != 3 {
                // A lone half of a set: its word is not determined (module docs).
                undet[c] |= 1 << l;
                let any = crate::io::Interval::ANY;
                put(out, c, l, (any.lo, any.hi, true));
            } else {
                put(out, c, l, (word(set.lo), word(set.hi), set.nan));
                out.half[c] |= 1 << l;
            }
        }
    }
}

/// The acceptance set of the binary64 result `v` of pair `p`, lane `l` (module docs).
fn double_set(env: &Env, op: Opcode, srcs: &[Vals], v: u64, p: usize, l: usize) -> Set64 {
    let arg = |k: usize| f64::from_bits(pair_word(&srcs[k], p, l));
    match (op, env.bound(op)) {
        (Opcode::DRCP | Opcode::DRSQ, BoundKind::Error(eb)) => {
            if eb.abs != 0.0 || eb.ulp_per_abs_x != 0.0 || eb.range.is_some() {
                return Set64 {
                    lo: f64::NEG_INFINITY.to_bits(),
                    hi: f64::INFINITY.to_bits(),
                    nan: true,
                };
            }
            widen_ulps(v, eb.ulp)
        }
        (Opcode::DMAD, BoundKind::FusedOrUnfused) => {
            let fused = arg(0).mul_add(arg(1), arg(2)).to_bits();
            hull(Set64::point(v), Set64::point(fused))
        }
        (Opcode::DMIN | Opcode::DMAX, _)
            if env.contract.signed_zero(op, env.class) == SignedZeroPolicy::Either
                && f64::from_bits(v) == 0.0
                && arg(0) == 0.0
                && arg(1) == 0.0 =>
        {
            Set64 {
                lo: (-0.0f64).to_bits(),
                hi: 0.0f64.to_bits(),
                nan: false,
            }
        }
        _ => Set64::point(v),
    }
}

/// Monotone integer key of binary64 bits (total order; -0 and +0 both 0).
pub fn key64(w: u64) -> i128 {
    if w >> 63 != 0 {
        -((w & !(1 << 63)) as i128)
    } else {
        w as i128
    }
}

/// Every binary64 within `n + 1/2` ulp of the finite, nonzero `v` (ulp = the gap above
/// `|v|`); special values stay exact.
fn widen_ulps(v: u64, n: f64) -> Set64 {
    let x = f64::from_bits(v);
    if !x.is_finite() || x == 0.0 {
        return Set64::point(v);
    }
    let gap = f64::from_bits(x.abs().to_bits() + 1) - x.abs();
    let tol = (n + 0.5) * gap;
    // Step outward while the distance (exact: Sterbenz, the steps stay within a factor 2)
    // stays within the tolerance.
    let step = |w: u64, up: bool| -> Option<u64> {
        let y = f64::from_bits(w);
        let next = if (y >= 0.0) == up { w + 1 } else { w - 1 };
        let z = f64::from_bits(next);
        (z.is_finite() && (z - x).abs() <= tol && z.signum() == x.signum()).then_some(next)
    };
    let (mut lo, mut hi) = (v, v);
    while let Some(w) = step(lo, false) {
        lo = w;
    }
    while let Some(w) = step(hi, true) {
        hi = w;
    }
    Set64 { lo, hi, nan: false }
}

/// The smallest set holding `a` and `b`. Ends are ordered in IEEE 754 total order (-0 below
/// +0), so the hull of a fused -0 and an unfused +0 (DMAD whose product underflows) holds
/// both.
fn hull(a: Set64, b: Set64) -> Set64 {
    let num = |s: Set64| !f64::from_bits(s.lo).is_nan();
    let total = |w: u64| key64(w) - i128::from(w >> 63);
    match (num(a), num(b)) {
        (true, true) => Set64 {
            lo: if total(a.lo) <= total(b.lo) {
                a.lo
            } else {
                b.lo
            },
            hi: if total(a.hi) >= total(b.hi) {
                a.hi
            } else {
                b.hi
            },
            nan: a.nan || b.nan,
        },
        (true, false) => Set64 { nan: true, ..a },
        (false, true) => Set64 { nan: true, ..b },
        (false, false) => a,
    }
}
