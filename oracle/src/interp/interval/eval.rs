//! Interval evaluation of one ALU instruction over the lanes of a chunk.
//!
//! Inputs: each source's fetched interval planes (swizzled, modifiers applied), the plain
//! fetched values, which source channels are not exactly known ("inexact"), and the plain
//! results the ALU computed. Output: the result's interval planes and the lanes whose result
//! channel is not determined (marked undefined by the caller).
//!
//! A lane whose sources are all exact, under an exact bound, with nothing a flushing class
//! could flush and no zero tie, gets the plain result as a point (the common, fast case).
//! Everything else goes through [`super::ops`].

use shaderdiff_model::Opcode;

use super::iv::Iv;
use super::ops::{self, input_flushable, output_flushable, Env};
use super::IvVals;
use crate::interp::decode::DInsn;
use crate::interp::lanes::{Mask, Vals};
use crate::precision::{BoundKind, SignedZeroPolicy};

/// The fetched sources of an instruction in interval form.
pub(crate) struct Srcs<'a> {
    /// Interval planes per source.
    pub iv: &'a [IvVals],
    /// Plain fetched values per source.
    pub val: &'a [Vals],
    /// Per source and channel: lanes whose value is not exactly known.
    pub inexact: &'a [[Mask; 4]],
}

impl Srcs<'_> {
    fn get(&self, k: usize, c: usize, l: usize) -> Iv {
        let s = &self.iv[k];
        Iv::from_bits(s.lo[c][l], s.hi[c][l], s.nan[c] >> l & 1 != 0)
    }
}

/// Which operands of the instruction a flushing class may flush (computed once per
/// instruction).
struct Flush {
    input: [bool; 4],
    output: bool,
}

/// How an opcode's sources map to result channels.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Shape {
    /// Channel c from channel c of each source.
    Component,
    /// One value from channel x of each source, replicated.
    Replicate,
    /// From whole source vectors (per channel formulas, dot products, packing).
    Vector,
}

fn shape(op: Opcode) -> Shape {
    use Opcode::*;
    match op {
        RCP | RSQ | SQRT | EX2 | LG2 | POW | SIN | COS => Shape::Replicate,
        DP2 | DP3 | DP4 | DPH | XPD | DST | EXP | LOG | LIT | PK2H | PK2US | PK4B | PK4UB
        | UP2H => Shape::Vector,
        _ => Shape::Component,
    }
}

/// Opcodes with a float interval rule ([`ops::scalar`] / [`super::vector::vector`]).
fn float_rule(op: Opcode) -> bool {
    use Opcode::*;
    matches!(
        op,
        MOV | ABS
            | ADD
            | SUB
            | MUL
            | DIV
            | MAD
            | FMA
            | LRP
            | MIN
            | MAX
            | SLT
            | SGE
            | SGT
            | SLE
            | SEQ
            | SNE
            | FSLT
            | FSGE
            | FSEQ
            | FSNE
            | CMP
            | SSG
            | RCP
            | RSQ
            | SQRT
            | EX2
            | LG2
            | POW
            | SIN
            | COS
            | FLR
            | CEIL
            | TRUNC
            | ROUND
            | FRC
            | DP2
            | DP3
            | DP4
            | DPH
            | XPD
            | DST
            | EXP
            | LOG
            | LIT
    )
}

/// Evaluates `insn` for the lanes in `exec`: fills `out` for the written channels and sets
/// `undet` for lanes whose result is not determined by the sources' sets. Lanes already
/// undefined in channel c (`undefined[c]`, the plain evaluation's verdict) are skipped.
#[allow(clippy::too_many_arguments)]
pub(crate) fn eval_alu(
    env: &Env,
    insn: &DInsn,
    s: &Srcs,
    result: &Vals,
    exec: Mask,
    undefined: &[Mask; 4],
    out: &mut IvVals,
    undet: &mut [Mask; 4],
) {
    let op = insn.op;
    if crate::interp::alu::wide::is_wide(op) {
        return super::wide::eval_wide(env, insn, s, exec, undefined, out, undet);
    }
    let nsrc = insn.srcs.len();
    let sh = shape(op);
    let exact_bound = matches!(env.bound(op), BoundKind::Exact);
    let flushes = env.flushes();
    let fl = Flush {
        input: [0, 1, 2, 3].map(|k| {
            k < nsrc
                && (flushes && input_flushable(op, k)
                    || env.ftz && crate::interp::denormal::flushes_source(insn, k))
        }),
        output: flushes && output_flushable(op)
            || env.ftz && crate::interp::denormal::flushes_result(insn),
    };
    let zero_ties = matches!(op, Opcode::MIN | Opcode::MAX)
        && env.contract.signed_zero(op, env.class) == SignedZeroPolicy::Either;
    // Lanes with an inexact source channel that channel c depends on (`dep`), and lanes
    // reading a channel that holds one word of a binary64 set (its `half` flag: not a
    // binary32 range; `halves::alu` moves it with its partner or leaves the result
    // undetermined after this evaluation).
    let mut dep = [0 as Mask; 4];
    let mut halves = [0 as Mask; 4];
    for c in 0..4 {
        for k in 0..nsrc {
            let reads: u8 = match sh {
                Shape::Component => 1 << c,
                Shape::Replicate => 1,
                Shape::Vector => insn.read_mask[k] & 0xF,
            };
            for j in (0..4).filter(|j| reads >> j & 1 != 0) {
                dep[c] |= s.inexact[k][j];
                halves[c] |= s.iv[k].half[j];
            }
        }
    }
    // Replicated results are computed once (first written channel) and copied.
    let replicated = sh == Shape::Replicate
        || matches!(
            op,
            Opcode::DP2
                | Opcode::DP3
                | Opcode::DP4
                | Opcode::DPH
                | Opcode::PK2H
                | Opcode::PK2US
                | Opcode::PK4B
                | Opcode::PK4UB
        );
    let written = insn.writemask & 0xF;
    let todo = if replicated {
        written & written.wrapping_neg()
    } else {
        written
    };
    for c in (0..4).filter(|c| todo >> c & 1 != 0) {
        let mut lanes = exec & !undefined[c];
        while lanes != 0 {
            let l = lanes.trailing_zeros() as usize;
            lanes &= lanes - 1;
            let v = result[c][l];
            if halves[c] >> l & 1 != 0 {
                undet[c] |= 1 << l;
                let any = crate::io::Interval::ANY;
                put(out, c, l, (any.lo, any.hi, true));
                continue;
            }
            let inexact = dep[c] >> l & 1 != 0;
            let flush_risk = flushes && denormal_involved(&fl, sh, insn, s, c, l, v);
            let tie = zero_ties && f32::from_bits(v) == 0.0;
            let fast = !inexact && exact_bound && !flush_risk && !tie;
            let r = if fast || (!inexact && !float_rule(op) && !conversion(op)) {
                Some(Iv::point(f32::from_bits(v)))
            } else {
                slow(env, &fl, insn, sh, s, c, l, v, inexact)
            };
            if moves_float_bits(op)
                && f32::from_bits(v).is_nan()
                && carries_unknown_nan(s, nsrc, l)
                && r.is_some_and(|r| r.empty())
            {
                // A move or select (MOV, CMP, UCMP, ABS) of an arithmetic NaN: its bits
                // stay as undetermined as the source's. Other opcodes reading it (IMUL_HI,
                // AND ...) take the general path: an inexact source makes them undetermined.
                // A source set that also holds numbers (see `snap`) is moved as it is.
                put(out, c, l, NAN_UNKNOWN);
                continue;
            }
            match r {
                None => {
                    undet[c] |= 1 << l;
                    let any = crate::io::Interval::ANY;
                    put(out, c, l, (any.lo, any.hi, true));
                }
                Some(r) => {
                    let r = if env.ftz && fl.output && crate::interp::denormal::multi_step(op) {
                        // An intermediate flushed to a same-sign zero can flip the sign of
                        // a zero result (denormal.rs).
                        ops::flush_if(env, true, super::iv::flush(r))
                    } else {
                        ops::flush_if(env, fl.output, r)
                    };
                    put(out, c, l, snap(op, r, v));
                }
            }
        }
        if replicated {
            for d in (0..4).filter(|&d| d != c && written >> d & 1 != 0) {
                out.lo[d] = out.lo[c];
                out.hi[d] = out.hi[c];
                out.nan[d] = out.nan[c];
                undet[d] |= undet[c];
            }
        }
    }
}

fn conversion(op: Opcode) -> bool {
    use Opcode::*;
    matches!(
        op,
        F2I | F2U | ARL | ARR | PK2H | PK2US | PK4B | PK4UB | LDEXP | UCMP
    )
}

/// Whether a flushing class could flush a denormal input or the result of this lane.
fn denormal_involved(
    fl: &Flush,
    sh: Shape,
    insn: &DInsn,
    s: &Srcs,
    c: usize,
    l: usize,
    v: u32,
) -> bool {
    let den = |w: u32| {
        let f = f32::from_bits(w);
        f != 0.0 && f.is_subnormal()
    };
    if fl.output && den(v) {
        return true;
    }
    (0..insn.srcs.len()).any(|k| {
        fl.input[k]
            && match sh {
                Shape::Component => den(s.val[k][c][l]),
                Shape::Replicate => den(s.val[k][0][l]),
                Shape::Vector => (0..4).any(|j| den(s.val[k][j][l])),
            }
    })
}

/// The acceptance set of channel `c`, lane `l`, by the opcode's interval rule.
#[allow(clippy::too_many_arguments)]
fn slow(
    env: &Env,
    fl: &Flush,
    insn: &DInsn,
    sh: Shape,
    s: &Srcs,
    c: usize,
    l: usize,
    v: u32,
    inexact: bool,
) -> Option<Iv> {
    use Opcode::*;
    let op = insn.op;
    let nsrc = insn.srcs.len();
    let arg = |k: usize, ch: usize| ops::flush_if(env, fl.input[k], s.get(k, ch, l));
    let src_ch = if sh == Shape::Replicate { 0 } else { c };
    match op {
        F2I | F2U | ARL | ARR => {
            ops::conversion_determined(op, arg(0, c)).then(|| Iv::point(f32::from_bits(v)))
        }
        PK2H | PK2US | PK4B | PK4UB => {
            let vecs = [arg(0, 0), arg(0, 1), arg(0, 2), arg(0, 3)];
            ops::pack_determined(op, vecs).then(|| Iv::point(f32::from_bits(v)))
        }
        LDEXP => {
            if s.inexact[1][c] >> l & 1 != 0 {
                return None;
            }
            Some(ops::ldexp(arg(0, c), s.val[1][c][l] as i32))
        }
        UCMP => {
            if s.inexact[0][c] >> l & 1 != 0 {
                return None;
            }
            Some(if s.val[0][c][l] != 0 {
                arg(1, c)
            } else {
                arg(2, c)
            })
        }
        _ if float_rule(op) => {
            if sh == Shape::Vector {
                let vec = |k: usize| [arg(k, 0), arg(k, 1), arg(k, 2), arg(k, 3)];
                let b = if nsrc > 1 { vec(1) } else { [Iv::NAN; 4] };
                super::vector::vector(env, op, vec(0), b, c)
            } else {
                let mut args = [Iv::NAN; 4];
                for (k, a) in args.iter_mut().enumerate().take(nsrc) {
                    *a = arg(k, src_ch);
                }
                ops::scalar(env, op, &args[..nsrc])
            }
        }
        // Integer, bit and other exact opcodes: determined only by exact sources.
        _ => (!inexact).then(|| Iv::point(f32::from_bits(v))),
    }
}

/// A NaN whose bits are not determined: the ends are two different NaN patterns, so the
/// channel is never exact and integer opcodes reading it are undetermined.
pub(crate) const NAN_UNKNOWN: (u32, u32, bool) = (0x7fc0_0000, 0xffc0_0000, true);

/// Whether a NaN result of `op` has unspecified bits: float arithmetic (EXEC-NOTES §0 "NaN
/// bit patterns": x86 makes 0xFFC00000 or keeps an input's payload, GPUs usually make
/// 0x7FC00000; rounding opcodes may quiet a signaling NaN). Moves, selects and ABS (a sign
/// bit operation) keep the bits, and the float comparisons FSLT/FSGE/FSEQ/FSNE make no NaN:
/// their "true", `~0` (tgsi.rst: `dst = (src0 == src1) ? ~0 : 0`), is an integer mask that
/// happens to be a NaN pattern, and must stay exact for the integer opcodes that read it.
pub(crate) fn arithmetic_nan(op: Opcode) -> bool {
    float_rule(op)
        && !matches!(
            op,
            Opcode::MOV
                | Opcode::CMP
                | Opcode::ABS
                | Opcode::FSLT
                | Opcode::FSGE
                | Opcode::FSEQ
                | Opcode::FSNE
        )
        || matches!(
            op,
            // UP2H: IEEE 754 quiets a signalling half NaN on conversion, but tgsi.rst does
            // not fix the resulting bits, so engines may keep the payload as it was.
            // LDEXP: `src0 * 2^src1` (tgsi.rst), float arithmetic like MUL.
            Opcode::DDX
                | Opcode::DDY
                | Opcode::DDX_FINE
                | Opcode::DDY_FINE
                | Opcode::UP2H
                | Opcode::LDEXP
        )
}

/// Opcodes whose result is one source's float bits, perhaps with the sign bit changed
/// (tgsi.rst MOV, CMP, UCMP, ABS): a NaN result is the source's NaN, no more determined.
fn moves_float_bits(op: Opcode) -> bool {
    matches!(op, Opcode::MOV | Opcode::CMP | Opcode::UCMP | Opcode::ABS)
}

/// Whether lane `l` of any source channel holds a NaN whose bits are undetermined
/// ([`NAN_UNKNOWN`]). Checked on every channel: conservative for swizzled reads.
fn carries_unknown_nan(s: &Srcs, nsrc: usize, l: usize) -> bool {
    (0..nsrc).any(|k| {
        (0..4).any(|c| s.iv[k].lo[c][l] == NAN_UNKNOWN.0 && s.iv[k].hi[c][l] == NAN_UNKNOWN.1)
    })
}

/// Makes the stored set consistent with the plain value `v`: a NaN-only set keeps `v`'s
/// bits as its ends, and the set always contains `v` (the oracle is an engine of every
/// class; a set missing it is an interval-rule defect, caught in debug builds).
fn snap(op: Opcode, r: Iv, v: u32) -> (u32, u32, bool) {
    let f = f32::from_bits(v);
    if f.is_nan() && arithmetic_nan(op) {
        // The oracle's NaN has undetermined bits; but when the rule also allows numbers
        // (a fused alternative of `fused_or_unfused` that does not overflow into inf - inf,
        // say), those stay acceptable: the set is then not a single value, which is all
        // the consumers of an undetermined NaN need to know.
        if r.empty() {
            return NAN_UNKNOWN;
        }
        return (r.lo.to_bits(), r.hi.to_bits(), true);
    }
    if r.empty() && f.is_nan() {
        return (v, v, true);
    }
    if r.empty() && r.nan {
        // A NaN-only set and a number: the set came from a word of a binary64 NaN whose
        // bits are unspecified (interval/wide.rs gives each word of such a pair the "any
        // NaN" set, which the comparator reads back as a pair). Read as binary32, such a
        // word can be any word, and so can what is computed from it.
        let any = crate::io::Interval::ANY;
        return (any.lo, any.hi, true);
    }
    let r = if r.contains(f) {
        r
    } else {
        debug_assert!(
            false,
            "{op}: interval {r:?} misses the oracle's value {v:#010x}"
        );
        r.hull(Iv::point(f))
    };
    if r.empty() {
        return (v, v, r.nan);
    }
    (r.lo.to_bits(), r.hi.to_bits(), r.nan)
}

pub(crate) fn put(out: &mut IvVals, c: usize, l: usize, (lo, hi, nan): (u32, u32, bool)) {
    out.lo[c][l] = lo;
    out.hi[c][l] = hi;
    let bit = 1u64 << l;
    out.nan[c] = (out.nan[c] & !bit) | if nan { bit } else { 0 };
}

/// Lanes of `vals` (one plane per channel) whose interval is not exactly the value.
pub(crate) fn inexact_lanes(iv: &IvVals, vals: &Vals, c: usize) -> Mask {
    let mut m: Mask = 0;
    for (l, &v) in vals[c].iter().enumerate() {
        let nan = iv.nan[c] >> l & 1 != 0;
        let exact = iv.lo[c][l] == v && iv.hi[c][l] == v && nan == f32::from_bits(v).is_nan();
        m |= (!exact as Mask) << l;
    }
    m
}
