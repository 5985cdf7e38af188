//! Saturating conversions to 32- and 64-bit integers (NV_gpu_program5 §2.X.8.Z CVT: "Integer
//! values are clamped to the closest value representable in the result data type if the
//! SAT (saturation) modifier is specified"), which the IR's conversions (F2I, D2U64 ...) do
//! not do: they are undefined out of range.
//!
//! A float operand has already been rounded to an integral value by the CVT rounding
//! modifier (ROUND by default); it is clamped in the float domain to the largest float not
//! above the result's range (the range ends are powers of two, `2^31 - 1` and the like are
//! not floats), converted, and replaced by the range's maximum where it is at least its
//! power-of-two bound. The low ends (`-2^31`, `-2^63`, 0) are exact floats. §2.X.8.Z CVT:
//! "Converting the floating-point special values -INF, +INF, and NaN to integers will yield
//! undefined results", with or without SAT: the result is ORed with a word the IR leaves
//! undefined for those operands (`IDIV 0, 0`, as in `lower_undef.rs`). An integer operand
//! is clamped with the IR's 32- or 64-bit MIN / MAX of its signedness.

use super::ast::BaseType;
use super::lower::{dst, src, Ctx};
use crate::opcode::Opcode as O;
use crate::program::{self as ir, Register};

const ALL: [u8; 4] = [0, 1, 2, 3];
const PAIR: [u8; 4] = [0, 1, 0, 1];
const XY: u8 = 0b0011;

/// The largest binary32 below 2^31, 2^32, 2^63, 2^64 (24-bit significands).
const F32_BELOW_2P31: f32 = 2_147_483_520.0;
const F32_BELOW_2P32: f32 = 4_294_967_040.0;
const F32_BELOW_2P63: f32 = 9_223_371_487_098_961_920.0;
const F32_BELOW_2P64: f32 = 18_446_742_974_197_923_840.0;
/// The largest binary64 below 2^63 and 2^64 (53-bit significands).
const F64_BELOW_2P63: f64 = 9_223_372_036_854_774_784.0;
const F64_BELOW_2P64: f64 = 18_446_744_073_709_549_568.0;

impl Ctx<'_> {
    /// A 64-bit immediate as a channel pair read into `xy` and `zw`.
    fn sat_pair(&mut self, v: u64) -> ir::Src {
        let (lo, hi) = (v as u32, (v >> 32) as u32);
        src(self.imm([lo, hi, lo, hi]), ALL)
    }

    /// `g` = 0 where `bad` is 0, undefined where it is not (`IDIV 0, NOT bad`), on the
    /// channels of `mask`.
    fn undefined_if(&mut self, bad: Register, g: Register, mask: u8) {
        let zero = src(self.imm([0; 4]), [0; 4]);
        self.emit(O::NOT, vec![dst(bad, mask)], vec![src(bad, ALL)]);
        self.emit(O::IDIV, vec![dst(g, mask)], vec![zero, src(bad, ALL)]);
    }

    /// `g` = 0 where the binary32 `x` is finite, undefined for ±INF and NaN, on the
    /// channels of `mask`.
    fn finite_f32_guard(&mut self, x: ir::Src, g: Register, mask: u8) {
        let inf = src(self.imm([f32::INFINITY.to_bits(); 4]), [0; 4]);
        let b = self.hidden();
        let a = self.hidden();
        let mut ax = x;
        ax.abs = true;
        ax.neg = false;
        self.emit(O::FSNE, vec![dst(b, mask)], vec![x, x]);
        self.emit(O::FSEQ, vec![dst(a, mask)], vec![ax, inf]);
        self.emit(O::OR, vec![dst(b, mask)], vec![src(b, ALL), src(a, ALL)]);
        self.undefined_if(b, g, mask);
    }

    /// `g.x` = 0 when the binary64 pair `x` is finite, undefined for ±INF and NaN.
    fn finite_f64_guard(&mut self, x: ir::Src, g: Register) {
        let inf = self.sat_pair(f64::INFINITY.to_bits());
        // (Double comparisons write x from the xy pair: tgsi.rst "Double ISA".)
        let b = self.hidden();
        let a = self.hidden();
        self.emit(O::DSNE, vec![dst(b, 1)], vec![x, x]);
        self.emit(O::DABS, vec![dst(a, XY)], vec![x]);
        self.emit(O::DSEQ, vec![dst(a, 1)], vec![src(a, PAIR), inf]);
        self.emit(O::OR, vec![dst(b, 1)], vec![src(b, [0; 4]), src(a, [0; 4])]);
        self.undefined_if(b, g, 1);
    }

    /// CVT.S32 / .U32 .SAT from F32: `t` holds the rounded operand in all four channels;
    /// returns the result (four channels of a hidden TEMP). S32: clamp to
    /// [-2^31, 2147483520.0], F2I, 0x7FFFFFFF where `t >= 2^31`; U32: clamp to
    /// [0, 4294967040.0], F2U, 0xFFFFFFFF where `t >= 2^32`.
    pub(super) fn f32_to_i32_sat(&mut self, t: ir::Src, signed: bool) -> ir::Src {
        let (lo, hi, bound, max, cv) = if signed {
            (
                -2_147_483_648.0f32,
                F32_BELOW_2P31,
                2_147_483_648.0f32,
                0x7FFF_FFFFu32,
                O::F2I,
            )
        } else {
            (0.0, F32_BELOW_2P32, 4_294_967_296.0, u32::MAX, O::F2U)
        };
        let f = |cx: &mut Self, v: f32| src(cx.imm([v.to_bits(); 4]), ALL);
        let (lo, hi, bound) = (f(self, lo), f(self, hi), f(self, bound));
        let max = src(self.imm([max; 4]), ALL);
        let c = self.hidden();
        let b = self.hidden();
        self.emit(O::MAX, vec![dst(c, 0xF)], vec![t, lo]);
        self.emit(O::MIN, vec![dst(c, 0xF)], vec![src(c, ALL), hi]);
        self.emit(cv, vec![dst(c, 0xF)], vec![src(c, ALL)]);
        self.emit(O::FSGE, vec![dst(b, 0xF)], vec![t, bound]);
        self.emit(
            O::UCMP,
            vec![dst(c, 0xF)],
            vec![src(b, ALL), max, src(c, ALL)],
        );
        let g = self.hidden();
        self.finite_f32_guard(t, g, 0xF);
        self.emit(O::OR, vec![dst(c, 0xF)], vec![src(c, ALL), src(g, ALL)]);
        src(c, ALL)
    }

    /// CVT.S32 / .U32 .SAT from F64 into `out.m` (one channel): the rounded pair `r`
    /// clamped to [-2^31, 2^31 - 1] or [0, 2^32 - 1] (exact binary64 values), D2I / D2U.
    pub(super) fn f64_to_i32_sat(&mut self, r: ir::Src, signed: bool, out: Register, m: u8) {
        let (lo, hi, cv) = if signed {
            (-2_147_483_648.0f64, 2_147_483_647.0f64, O::D2I)
        } else {
            (0.0, 4_294_967_295.0, O::D2U)
        };
        let lo = self.sat_pair(lo.to_bits());
        let hi = self.sat_pair(hi.to_bits());
        let c = self.hidden();
        self.emit(O::DMAX, vec![dst(c, XY)], vec![r, lo]);
        self.emit(O::DMIN, vec![dst(c, XY)], vec![src(c, PAIR), hi]);
        self.emit(cv, vec![dst(out, m)], vec![src(c, PAIR)]);
        let g = self.hidden();
        self.finite_f64_guard(r, g);
        self.emit(
            O::OR,
            vec![dst(out, m)],
            vec![src(out, ALL), src(g, [0; 4])],
        );
    }

    /// CVT.S32 / .U32 .SAT from S64 / U64 into `out.m`: the pair `a` clamped with the
    /// 64-bit MIN / MAX of the operand's signedness, then its low word.
    pub(super) fn i64_to_i32_sat(
        &mut self,
        a: ir::Src,
        from: BaseType,
        signed: bool,
        out: Register,
        m: u8,
    ) {
        let c = self.hidden();
        let hi = if signed { 0x7FFF_FFFF } else { 0xFFFF_FFFF };
        let hi = self.sat_pair(hi);
        if from == BaseType::S {
            let lo = if signed { -(1i64 << 31) as u64 } else { 0 };
            let lo = self.sat_pair(lo);
            self.emit(O::I64MAX, vec![dst(c, XY)], vec![a, lo]);
            self.emit(O::I64MIN, vec![dst(c, XY)], vec![src(c, PAIR), hi]);
        } else {
            self.emit(O::U64MIN, vec![dst(c, XY)], vec![a, hi]);
        }
        self.emit(O::MOV, vec![dst(out, m)], vec![src(c, [0; 4])]);
    }

    /// CVT.S64 / .U64 .SAT from a rounded F32 (`t.x`) into `h.xy`: clamp to [-2^63,
    /// 2^63 - 2^39] or [0, 2^64 - 2^40], F2I64 / F2U64, the maximum where `t >= 2^63`
    /// (`2^64`).
    pub(super) fn f32_to_i64_sat(&mut self, t: ir::Src, signed: bool, h: Register) {
        let (lo, hi, bound, max, cv) = if signed {
            (
                -(2f32.powi(63)),
                F32_BELOW_2P63,
                2f32.powi(63),
                i64::MAX as u64,
                O::F2I64,
            )
        } else {
            (0.0, F32_BELOW_2P64, 2f32.powi(64), u64::MAX, O::F2U64)
        };
        let f = |cx: &mut Self, v: f32| src(cx.imm([v.to_bits(); 4]), [0; 4]);
        let (lo, hi, bound) = (f(self, lo), f(self, hi), f(self, bound));
        let max = self.sat_pair(max);
        // `t` may live in `h`: keep it in c.z.
        let c = self.hidden();
        self.emit(O::MOV, vec![dst(c, 0b0100)], vec![t]);
        let t = src(c, [2; 4]);
        self.emit(O::MAX, vec![dst(c, 1)], vec![t, lo]);
        self.emit(O::MIN, vec![dst(c, 1)], vec![src(c, [0; 4]), hi]);
        self.emit(cv, vec![dst(h, XY)], vec![src(c, [0; 4])]);
        self.emit(O::FSGE, vec![dst(c, 2)], vec![t, bound]);
        self.emit(
            O::UCMP,
            vec![dst(h, XY)],
            vec![src(c, [1; 4]), max, src(h, PAIR)],
        );
        let g = self.hidden();
        self.finite_f32_guard(t, g, 1);
        self.emit(O::OR, vec![dst(h, XY)], vec![src(h, PAIR), src(g, [0; 4])]);
    }

    /// CVT.S64 / .U64 .SAT from a rounded F64 pair `r` into `h.xy`: clamp to [-2^63,
    /// 2^63 - 1024] or [0, 2^64 - 2048], D2I64 / D2U64, the maximum where `r >= 2^63`
    /// (`2^64`).
    pub(super) fn f64_to_i64_sat(&mut self, r: ir::Src, signed: bool, h: Register) {
        let (lo, hi, bound, max, cv) = if signed {
            (
                -(2f64.powi(63)),
                F64_BELOW_2P63,
                2f64.powi(63),
                i64::MAX as u64,
                O::D2I64,
            )
        } else {
            (0.0, F64_BELOW_2P64, 2f64.powi(64), u64::MAX, O::D2U64)
        };
        let lo = self.sat_pair(lo.to_bits());
        let hi = self.sat_pair(hi.to_bits());
        let bound = self.sat_pair(bound.to_bits());
        let max = self.sat_pair(max);
        let c = self.hidden();
        let b = self.hidden();
        // `r` may live in `h`: keep it in b.zw.
        self.emit(O::MOV, vec![dst(b, 0b1100)], vec![r]);
        let r = src(b, [2, 3, 2, 3]);
        self.emit(O::DMAX, vec![dst(c, XY)], vec![r, lo]);
        self.emit(O::DMIN, vec![dst(c, XY)], vec![src(c, PAIR), hi]);
        self.emit(cv, vec![dst(h, XY)], vec![src(c, PAIR)]);
        self.emit(O::DSGE, vec![dst(b, 1)], vec![r, bound]);
        self.emit(
            O::UCMP,
            vec![dst(h, XY)],
            vec![src(b, [0; 4]), max, src(h, PAIR)],
        );
        let g = self.hidden();
        self.finite_f64_guard(r, g);
        self.emit(O::OR, vec![dst(h, XY)], vec![src(h, PAIR), src(g, [0; 4])]);
    }

    /// CVT.S64 / .U64 .SAT from a 64-bit integer pair `a` into `h.xy`: S64 → U64 clamps
    /// negatives to 0, U64 → S64 clamps above `2^63 - 1`; same signedness copies.
    pub(super) fn i64_to_i64_sat(&mut self, a: ir::Src, from: BaseType, to: BaseType, h: Register) {
        match (from, to) {
            (BaseType::S, BaseType::U) => {
                let zero = self.sat_pair(0);
                self.emit(O::I64MAX, vec![dst(h, XY)], vec![a, zero]);
            }
            (BaseType::U, BaseType::S) => {
                let max = self.sat_pair(i64::MAX as u64);
                self.emit(O::U64MIN, vec![dst(h, XY)], vec![a, max]);
            }
            _ => {
                self.emit(O::MOV, vec![dst(h, XY)], vec![a]);
            }
        }
    }
}
