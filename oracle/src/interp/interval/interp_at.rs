//! Acceptance intervals of INTERP_CENTROID, INTERP_SAMPLE and INTERP_OFFSET
//! (`crate::interp::interpolate` computes the values and the undefined lanes).
//!
//! * CENTROID, SAMPLE, and OFFSET of a flat input: the input's interval (a move); an
//!   inexact sample number is undefined.
//! * OFFSET (precision contract bound of INTERP_OFFSET): the position may be snapped to the
//!   `1/16` pixel grid ([`crate::interp::interpolate::OFFSET_BITS`]; NV_gpu_program5
//!   IPAO), so `dx`, `dy` become the hull of the offset and the grid points around it;
//!   `ddx` is the hull of both rows' differences and `ddy` of both columns' (a quad affine
//!   within rounding, so a plane equation's slope lies between them). `exact`: the oracle's
//!   order `(v + dx*ddx) + dy*ddy`, every step rounded; `fused_or_unfused`: also
//!   `fma(dy, ddy, fma(dx, ddx, v))`, `v + (dx*ddx + dy*ddy)` and the mixed forms.
//!   An inexact attribute value (never the case for inputs) or an offset set reaching
//!   outside `[-0.5, 0.5]` makes the quad / lane undefined.

use shaderdiff_model::Opcode;

use super::iv::{self, Iv};
use super::machine::{get, modify, set_iv};
use super::ops::{binary, Env};
use crate::interp::decode::{DInsn, SrcOp};
use crate::interp::interpolate::{MAX_OFFSET, OFFSET_BITS};
use crate::interp::lanes::{Mask, LANES};
use crate::interp::state::Machine;
use crate::precision::BoundKind;

/// The offset set `d` widened to the `2^-OFFSET_BITS` grid points around it; `None` when
/// it may lie outside `[-MAX_OFFSET, MAX_OFFSET]` or be NaN.
fn snapped(d: Iv) -> Option<Iv> {
    if d.empty() || d.nan || d.lo < -MAX_OFFSET || d.hi > MAX_OFFSET {
        return None;
    }
    let g = (1u32 << OFFSET_BITS) as f32;
    Some(Iv::range(
        (d.lo * g).floor() / g,
        (d.hi * g).ceil() / g,
        false,
    ))
}

/// The set of results at offset `(dx, dy)` of value `v` with slopes `ddx`, `ddy`.
fn at_offset(env: &Env, v: Iv, dx: Iv, dy: Iv, ddx: Iv, ddy: Iv) -> Iv {
    let add = |a: Iv, b: Iv| env.fl(binary(env, Opcode::ADD, a, b));
    let mul = |a: Iv, b: Iv| env.fl(binary(env, Opcode::MUL, a, b));
    let fma = |a: Iv, b: Iv, c: Iv| env.fl(iv::fma(a, b, c));
    let px = mul(dx, ddx);
    let py = mul(dy, ddy);
    let seq = add(add(v, px), py);
    if !matches!(env.bound(Opcode::INTERP_OFFSET), BoundKind::FusedOrUnfused) {
        return seq;
    }
    seq.hull(fma(dy, ddy, fma(dx, ddx, v)))
        .hull(add(v, add(px, py)))
        .hull(add(v, fma(dx, ddx, py)))
        .hull(add(v, fma(dy, ddy, px)))
        .hull(fma(dy, ddy, add(v, px)))
        .hull(add(fma(dx, ddx, v), py))
}

impl Machine<'_> {
    /// Interval twin of `interpolate`: fills the result intervals for `iv_store` and adds
    /// undetermined lanes to `und`. `raw` is the attribute operand without modifiers,
    /// `offset` whether OFFSET interpolates (not a flat input).
    pub(crate) fn iv_interpolate(
        &mut self,
        insn: &DInsn,
        raw: &SrcOp,
        offset: bool,
        und: &mut [Mask; 4],
    ) {
        self.iv_fetch(raw, 0xF, 0);
        if let Some(s1) = insn.srcs.get(1) {
            self.iv_fetch(s1, 0xF, 1);
        }
        let exec = self.exec;
        let src = insn.srcs[0];
        let Some(st) = self.iv.as_deref_mut() else {
            return;
        };
        let env = st.env;
        st.out.half = [0; 4];
        let mut undet: Mask = 0;
        if insn.op == Opcode::INTERP_SAMPLE {
            undet |= st.inexact[1][0];
        }
        for c in 0..4 {
            for q in 0..LANES / 4 {
                let b = 4 * q;
                if (exec >> b) & 0xF == 0 {
                    continue;
                }
                let quad_inexact = (st.inexact[0][c] >> b) & 0xF != 0;
                for l in 0..4 {
                    let lane = b + l;
                    let r = if offset {
                        let dx = snapped(get(&st.srcs[1], 0, lane));
                        let dy = snapped(get(&st.srcs[1], 1, lane));
                        let (Some(dx), Some(dy)) = (dx, dy) else {
                            undet |= 1 << lane;
                            continue;
                        };
                        if quad_inexact {
                            undet |= 1 << lane;
                            continue;
                        }
                        let at = |k: usize| env.fl(get(&st.srcs[0], c, b + k));
                        let d = |a: usize, z: usize| env.fl(iv::sub(at(z), at(a)));
                        let ddx = d(0, 1).hull(d(2, 3));
                        let ddy = d(0, 2).hull(d(1, 3));
                        at_offset(&env, at(l), dx, dy, ddx, ddy)
                    } else {
                        get(&st.srcs[0], c, lane)
                    };
                    set_iv(&mut st.out, c, lane, r.lo.to_bits(), r.hi.to_bits(), r.nan);
                    modify(&mut st.out, c, lane, &src);
                    // The oracle's own value always belongs to the set.
                    let v = f32::from_bits(self.s.out[c][lane]);
                    let r = get(&st.out, c, lane);
                    if !v.is_nan() && !r.contains(v) {
                        let h = r.hull(Iv::point(v));
                        set_iv(&mut st.out, c, lane, h.lo.to_bits(), h.hi.to_bits(), h.nan);
                    }
                }
            }
        }
        for u in und.iter_mut() {
            *u |= undet & exec;
        }
    }
}
