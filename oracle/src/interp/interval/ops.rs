//! Per-opcode acceptance sets on scalars: given the acceptance sets of the (swizzled,
//! modified) source channels, the set of results an engine of the class may return, or
//! `None` when the result is not determined (a decision, conversion or undefined domain
//! that the sources straddle: the caller marks the channel undefined).
//!
//! The evaluation of each opcode follows its bound in the contract ([`Env::bound`]):
//! exact bounds use interval arithmetic on the oracle's own functions, error bounds go
//! through the `approx` module, `fused_or_unfused` takes the union of the enumerated
//! evaluations, inherited bounds apply the formula's steps with their own bounds.

use shaderdiff_model::Opcode;

use super::approx::{accept, tolerance, widen, Tol, REL};
use super::iv::{self, flush, tmax, Iv};
use crate::interp::alu::{convert as cv, float as fl, special as sp};
use crate::precision::{
    BoundKind, ClassPolicy, DenormalPolicy, EngineClass, ErrorBound, Formula, PrecisionContract,
    SignedZeroPolicy,
};

/// Opcodes whose bounds the interval rules look up most (steps of other opcodes' rules).
const HOT: [Opcode; 8] = [
    Opcode::ADD,
    Opcode::SUB,
    Opcode::MUL,
    Opcode::DIV,
    Opcode::RSQ,
    Opcode::LG2,
    Opcode::EX2,
    Opcode::POW,
];

/// The contract and class an interval evaluation works for.
#[derive(Clone, Copy, Debug)]
pub struct Env<'c> {
    /// The contract.
    pub contract: &'c PrecisionContract,
    /// The engine class.
    pub class: EngineClass,
    /// Its policies.
    pub policy: &'c ClassPolicy,
    /// Bounds of [`HOT`], in that order.
    hot: [&'c BoundKind; 8],
    /// Per-instruction widening of denormal sets (`flush_allowed` classes).
    widen: bool,
    /// This evaluation flushes every denormal operand and result of float arithmetic
    /// (`crate::interp::denormal`).
    pub ftz: bool,
}

const EXACT: &BoundKind = &BoundKind::Exact;

impl<'c> Env<'c> {
    /// The environment for `class` of `contract`.
    pub fn new(contract: &'c PrecisionContract, class: EngineClass) -> Env<'c> {
        let lookup = |op| contract.bound(op, class).map_or(EXACT, |b| &b.kind);
        Env {
            contract,
            class,
            policy: contract.policy(class),
            hot: HOT.map(lookup),
            widen: contract.policy(class).denormals == DenormalPolicy::FlushAllowed,
            ftz: false,
        }
    }

    /// This environment for one evaluation under `mode` (`crate::interp::denormal`):
    /// `flush` chooses the flushed evaluation; the class's per-instruction widening stays
    /// unless the mode is `ieee`.
    pub fn with_denormals(
        mut self,
        mode: crate::interp::denormal::DenormalMode,
        flush: bool,
    ) -> Self {
        self.widen &= mode != crate::interp::denormal::DenormalMode::Ieee;
        self.ftz = flush;
        self
    }

    /// The bound kind of `op` (opcodes without an entry are exact).
    pub fn bound(&self, op: Opcode) -> &'c BoundKind {
        if let Some(i) = HOT.iter().position(|&h| h == op) {
            return self.hot[i];
        }
        self.contract
            .bound(op, self.class)
            .map_or(EXACT, |b| &b.kind)
    }

    /// Whether the class may flush denormals.
    pub fn flushes(&self) -> bool {
        self.widen
    }

    /// [`flush`] when the class allows it.
    pub(crate) fn fl(&self, x: Iv) -> Iv {
        if self.flushes() {
            flush(x)
        } else {
            x
        }
    }
}

/// A float comparison predicate (tgsi.rst S*, FS*; `Ne` is unordered, the rest ordered).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cmp {
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
    /// `==`
    Eq,
    /// `!=` (true with NaN)
    Ne,
}

/// The outcome of `a <pred> b` over the sets, `None` when both outcomes are possible.
/// Comparisons are real (-0 == +0); NaN makes ordered predicates false and `Ne` true.
pub fn compare(pred: Cmp, a: Iv, b: Iv) -> Option<bool> {
    let (mut t, mut f) = (false, false);
    if !a.empty() && !b.empty() {
        let (tt, ff) = match pred {
            Cmp::Lt => (a.lo < b.hi, a.hi >= b.lo),
            Cmp::Le => (a.lo <= b.hi, a.hi > b.lo),
            Cmp::Gt => (b.lo < a.hi, b.hi >= a.lo),
            Cmp::Ge => (b.lo <= a.hi, b.hi > a.lo),
            Cmp::Eq | Cmp::Ne => {
                let overlap = a.lo <= b.hi && b.lo <= a.hi;
                let same = a.lo == a.hi && b.lo == b.hi && a.lo == b.lo;
                if pred == Cmp::Eq {
                    (overlap, !same)
                } else {
                    (!same, overlap)
                }
            }
        };
        t = tt;
        f = ff;
    }
    if a.nan || b.nan {
        if pred == Cmp::Ne {
            t = true;
        } else {
            f = true;
        }
    }
    match (t, f) {
        (true, true) => None,
        (t, _) => Some(t),
    }
}

/// Whether source `k` of `op` is a float arithmetic input a flushing class may flush
/// (moves and the selected operands of CMP/UCMP never flush; Vulkan excludes OpSelect and
/// OpCopyObject).
pub fn input_flushable(op: Opcode, k: usize) -> bool {
    use Opcode::*;
    match op {
        MOV | UCMP => false,
        CMP => k == 0,
        _ => crate::interp::alu::fetch_type(op, k) == crate::interp::lanes::FetchType::Float,
    }
}

/// Whether a float result of `op` may be flushed by a flushing class.
pub fn output_flushable(op: Opcode) -> bool {
    use Opcode::*;
    !matches!(op, MOV | CMP | UCMP) && op.info().dst_type == Some(shaderdiff_model::ScalarType::F32)
        || matches!(op, DDX | DDY | DDX_FINE | DDY_FINE)
}

// ---------------------------------------------------------------------------------------
// Bounded unary and binary functions.

/// The binary64 value of a bounded function at a point, and whether it is known exact.
fn hp1(op: Opcode, x: f32) -> (f64, bool) {
    let d = x as f64;
    let pow2 = |v: f32| {
        v != 0.0
            && v.is_finite()
            && (v.abs().to_bits() & 0x7f_ffff == 0 || v.abs().to_bits().is_power_of_two())
    };
    match op {
        Opcode::EX2 => (libm::exp2(d), d.fract() == 0.0 && d.abs() <= 1100.0),
        Opcode::LG2 => (libm::log2(d), x > 0.0 && pow2(x)),
        Opcode::SIN => (libm::sin(d), x == 0.0),
        Opcode::COS => (libm::cos(d), x == 0.0),
        Opcode::RCP => (1.0 / d, pow2(x) || x == 0.0 || x.is_infinite()),
        Opcode::RSQ => {
            // Exact for powers of four (normal numbers with an even exponent).
            let b = x.to_bits();
            let even = b & 0x7f_ffff == 0 && ((b >> 23) as i32 - 127) % 2 == 0;
            (1.0 / d.sqrt(), x > 0.0 && x.is_normal() && even)
        }
        Opcode::SQRT => {
            let r = d.sqrt();
            (
                (r),
                (r as f32 as f64 == r && r * r == d) || x == 0.0 || x.is_infinite(),
            )
        }
        _ => (f64::NAN, false),
    }
}

/// Monotonicity of a bounded unary function (on its domain).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mono {
    Inc,
    Dec,
    None,
}

fn mono(op: Opcode) -> Mono {
    match op {
        Opcode::EX2 | Opcode::LG2 | Opcode::SQRT => Mono::Inc,
        Opcode::RCP | Opcode::RSQ => Mono::Dec,
        _ => Mono::None,
    }
}

/// A bounded unary function (RCP, RSQ, SQRT, EX2, LG2, SIN, COS) under error bound `b`.
fn unary_error(env: &Env, op: Opcode, x: Iv, b: &ErrorBound) -> Iv {
    if x.empty() {
        return Iv::NAN;
    }
    let pol = env.policy;
    let tol = tolerance(b, (x.lo as f64, x.hi as f64), (0.0, 0.0));
    let at = |v: f32| {
        let (y, exact) = hp1(op, v);
        accept(y, exact, false, tol, pol.overflow, pol.not_defined)
    };
    if op == Opcode::RCP && x.lo == 0.0 && x.hi == 0.0 {
        // Vulkan: a non-zero divided by a zero is the signed infinity.
        return unary_exact(op, x);
    }
    let r = if x.lo.to_bits() == x.hi.to_bits() {
        at(x.lo)
    } else {
        match mono(op) {
            Mono::None => {
                // SIN/COS over a range: the whole of [-1, 1], widened.
                let Some(t) = tol else { return Iv::ANY };
                widen(-1.0, 1.0, t, pol.overflow).or_nan(x.has_inf())
            }
            Mono::Dec if x.lo.is_sign_negative() && x.hi.is_sign_positive() => {
                // Both signs of zero or a range around zero: ±inf and everything between.
                if tol.is_none() {
                    return Iv::ANY;
                }
                Iv::range(f32::NEG_INFINITY, f32::INFINITY, false)
            }
            _ if op == Opcode::LG2 && x.has_neg() => {
                let rest = Iv::range(-0.0, tmax(x.hi, -0.0), false);
                let nonneg = unary_error(env, op, rest, b);
                match pol.not_defined {
                    crate::precision::NotDefinedPolicy::Nan => nonneg.or_nan(true),
                    crate::precision::NotDefinedPolicy::Any => Iv::ANY,
                }
            }
            _ => at(x.lo).hull(at(x.hi)),
        }
    };
    r.or_nan(x.nan)
}

/// The exact-class evaluation of a unary function with the oracle's own scalar function.
pub(crate) fn unary_exact(op: Opcode, x: Iv) -> Iv {
    let f = |v: f32| -> f32 {
        match op {
            Opcode::EX2 => sp::ex2(v),
            Opcode::LG2 => sp::lg2(v),
            Opcode::SIN => sp::sin(v),
            Opcode::COS => sp::cos(v),
            Opcode::RCP => fl::rcp(v),
            Opcode::RSQ => fl::rsq(v).value,
            Opcode::SQRT => fl::sqrt(v).value,
            _ => f32::NAN,
        }
    };
    if x.empty() {
        return Iv::NAN;
    }
    if x.lo.to_bits() == x.hi.to_bits() {
        return Iv::point(f(x.lo)).or_nan(x.nan);
    }
    let r = match mono(op) {
        Mono::None => Iv::range(-1.0, 1.0, x.has_inf()),
        Mono::Dec if x.lo.is_sign_negative() && x.hi.is_sign_positive() => {
            Iv::range(f32::NEG_INFINITY, f32::INFINITY, false)
        }
        Mono::Dec => x.map_inc(|v| -f(v)).negate(),
        Mono::Inc => {
            let neg_part = op == Opcode::LG2 && x.has_neg();
            let x = if neg_part {
                Iv::range(-0.0, tmax(x.hi, -0.0), false)
            } else {
                x
            };
            x.map_inc(f).or_nan(neg_part)
        }
    };
    r.or_nan(x.nan)
}

/// A unary bounded opcode under the class's bound for `bound_op` (normally `op` itself).
pub fn unary(env: &Env, op: Opcode, bound_op: Opcode, x: Iv) -> Iv {
    match env.bound(bound_op) {
        BoundKind::Error(b) => unary_error(env, op, x, b),
        BoundKind::Inherited(Formula::RcpOfRsq) if op == Opcode::SQRT => rcp_of_rsq(env, x),
        _ => unary_exact(op, x),
    }
}

/// Vulkan's inherited rule: exact results in `[x0, x1]`, the formula's permitted set `f`.
fn inherit(env: &Env, x0: f64, x1: f64, f: Iv) -> Iv {
    if f.nan || f.empty() || x0.is_nan() || x1.is_nan() {
        return Iv::ANY;
    }
    let faithful = Iv::range(super::approx::down(x0), super::approx::up(x1), false);
    if !(x0.is_finite() && x1.is_finite()) {
        return f.hull(faithful);
    }
    let e = (x1 - f.lo as f64).max(f.hi as f64 - x0).max(0.0);
    let t = Tol { ulp: 0.0, abs: e };
    if !e.is_finite() {
        return Iv::range(f32::NEG_INFINITY, f32::INFINITY, false);
    }
    widen(x0, x1, t, env.policy.overflow).hull(faithful)
}

/// SQRT inherited from `1.0 / inversesqrt(x)` (Vulkan).
fn rcp_of_rsq(env: &Env, x: Iv) -> Iv {
    if x.empty() {
        return Iv::NAN;
    }
    let r = unary(env, Opcode::RSQ, Opcode::RSQ, x);
    let f = binary(env, Opcode::DIV, Iv::point(1.0), r);
    let (a, b) = ((x.lo as f64).sqrt(), (x.hi as f64).sqrt());
    inherit(env, below(a, REL), above(b, REL), f).or_nan(x.nan)
}

/// `v` lowered by relative error `rel` (infinities stay).
fn below(v: f64, rel: f64) -> f64 {
    if v.is_finite() {
        v - v.abs() * rel
    } else {
        v
    }
}

/// `v` raised by relative error `rel` (infinities stay).
fn above(v: f64, rel: f64) -> f64 {
    if v.is_finite() {
        v + v.abs() * rel
    } else {
        v
    }
}

/// Corners of a binary function in binary64: (min, max) of the non-NaN values.
fn corners64(a: Iv, b: Iv, f: impl Fn(f64, f64) -> f64) -> Option<(f64, f64)> {
    let mut r: Option<(f64, f64)> = None;
    for x in [a.lo, a.hi] {
        for y in [b.lo, b.hi] {
            let v = f(x as f64, y as f64);
            if !v.is_nan() {
                r = Some(r.map_or((v, v), |(lo, hi)| (lo.min(v), hi.max(v))));
            }
        }
    }
    r
}

/// ADD/SUB/MUL/DIV/POW under an error bound.
fn binary_error(env: &Env, op: Opcode, a: Iv, b: Iv, bound: &ErrorBound) -> Iv {
    if op == Opcode::POW && (a.nan || b.nan || a.empty() || b.empty()) {
        let num = Iv { nan: false, ..a };
        let den = Iv { nan: false, ..b };
        let part = pow_nan_part(a, b);
        if num.empty() || den.empty() {
            return part;
        }
        return binary_error(env, op, num, den, bound).hull(part);
    }
    if a.empty() || b.empty() {
        return Iv::NAN;
    }
    let pol = env.policy;
    if op == Opcode::DIV && b.lo == 0.0 && b.hi == 0.0 {
        // Vulkan: "Dividing a non-zero by a zero results in the appropriately signed IEEE
        // 754 infinity"; 0/0 is not mathematically defined.
        if a.has_zero() && pol.not_defined == crate::precision::NotDefinedPolicy::Any {
            return Iv::ANY;
        }
        return binary_exact(op, a, b);
    }
    let tol = tolerance(
        bound,
        (a.lo as f64, a.hi as f64),
        (b.lo as f64, b.hi as f64),
    );
    let Some(tol) = tol else { return Iv::ANY };
    // NaN possibilities and the special shapes come from the exact-class evaluation.
    let exact = binary_exact(op, a, b);
    let f: fn(f64, f64) -> f64 = match op {
        Opcode::ADD => |x, y| x + y,
        Opcode::SUB => |x, y| x - y,
        Opcode::MUL => |x, y| x * y,
        Opcode::DIV => |x, y| x / y,
        _ => |x, y| libm::pow(x, y),
    };
    if op == Opcode::DIV && b.lo < 0.0 && b.hi > 0.0 {
        return exact;
    }
    if op == Opcode::POW
        && !(a.lo > 0.0 && a.hi.is_finite() && b.lo.is_finite() && b.hi.is_finite())
    {
        if let (Some(x), Some(y)) = (a.as_point(), b.as_point()) {
            let v = libm::pow(x as f64, y as f64);
            return accept(v, false, false, Some(tol), pol.overflow, pol.not_defined);
        }
        return Iv::ANY;
    }
    let Some((lo, hi)) = corners64(a, b, f) else {
        return exact;
    };
    let known_exact = match op {
        Opcode::ADD | Opcode::SUB | Opcode::MUL => true,
        Opcode::DIV => b.lo == b.hi && (b.lo.abs().to_bits() & 0x7f_ffff) == 0,
        _ => pow_exact(a, b),
    };
    let d = if known_exact { 0.0 } else { REL };
    widen(below(lo, d), above(hi, d), tol, pol.overflow).or_nan(exact.nan)
}

/// POW of small integers: libm returns the exact integer (oracle docs: POW(2, 10) = 1024).
fn pow_exact(a: Iv, b: Iv) -> bool {
    match (a.as_point(), b.as_point()) {
        (Some(x), Some(y)) => {
            let v = libm::pow(x as f64, y as f64);
            x.fract() == 0.0 && y.fract() == 0.0 && (0.0..=64.0).contains(&y) && v.abs() < 9.0e15
        }
        _ => false,
    }
}

/// The exact-class (correctly rounded / oracle function) evaluation of a binary opcode.
fn binary_exact(op: Opcode, a: Iv, b: Iv) -> Iv {
    match op {
        Opcode::ADD => iv::add(a, b),
        Opcode::SUB => iv::sub(a, b),
        Opcode::MUL => iv::mul(a, b),
        Opcode::DIV => iv::div(a, b),
        _ => pow_exact_class(a, b),
    }
}

/// What NaN operands add to POW's set (C99 `pow`, [`sp::pow`]): `pow(NaN, 0) = 1`,
/// `pow(1, NaN) = 1`, NaN otherwise.
fn pow_nan_part(a: Iv, b: Iv) -> Iv {
    let mut r = Iv {
        nan: false,
        ..Iv::NAN
    };
    if a.nan {
        if b.has_zero() {
            r = r.hull(Iv::point(1.0));
        }
        if b.nan || b.lo != 0.0 || b.hi != 0.0 {
            r.nan = true;
        }
    }
    if b.nan {
        if a.contains(1.0) {
            r = r.hull(Iv::point(1.0));
        }
        if a.nan || !(a.lo == 1.0 && a.hi == 1.0) {
            r.nan = true;
        }
    }
    r
}

/// POW with the oracle's function: points exactly; boxes with `x > 0` by corners (pow is
/// monotone in each argument there); anything else unconstrained. NaN operands: see
/// [`pow_nan_part`].
fn pow_exact_class(a: Iv, b: Iv) -> Iv {
    let nan_part = pow_nan_part(a, b);
    if a.empty() || b.empty() {
        return nan_part;
    }
    let num = if a.lo.to_bits() == a.hi.to_bits() && b.lo.to_bits() == b.hi.to_bits() {
        Iv::point(sp::pow(a.lo, b.lo))
    } else if a.lo > 0.0 {
        let mut r = Iv::NAN;
        for x in [a.lo, a.hi] {
            for y in [b.lo, b.hi] {
                r = r.hull(Iv::point(sp::pow(x, y)));
            }
        }
        r
    } else {
        return Iv::ANY;
    };
    num.hull(nan_part)
}

/// A binary bounded opcode (ADD, SUB, MUL, DIV, POW) under the class's bound for
/// `bound_op` (normally `op`).
pub fn binary_as(env: &Env, op: Opcode, bound_op: Opcode, a: Iv, b: Iv) -> Iv {
    match env.bound(bound_op) {
        BoundKind::Error(bd) => binary_error(env, op, a, b, bd),
        BoundKind::Inherited(Formula::Ex2OfYLg2X) if op == Opcode::POW => pow_inherited(env, a, b),
        _ => binary_exact(op, a, b),
    }
}

/// [`binary_as`] with the opcode's own bound.
pub fn binary(env: &Env, op: Opcode, a: Iv, b: Iv) -> Iv {
    binary_as(env, op, op, a, b)
}

/// POW inherited from `exp2(y × log2(x))` (Vulkan).
fn pow_inherited(env: &Env, a: Iv, b: Iv) -> Iv {
    if a.empty() || b.empty() || a.nan || b.nan {
        // log2 of NaN is NaN: the formula permits NaN, so any result is allowed.
        return Iv::ANY;
    }
    let l = unary(env, Opcode::LG2, Opcode::LG2, a);
    let m = binary(env, Opcode::MUL, b, l);
    let f = unary(env, Opcode::EX2, Opcode::EX2, m);
    let exact = if let (Some(x), Some(y)) = (a.as_point(), b.as_point()) {
        let v = libm::pow(x as f64, y as f64);
        Some((below(v, REL), above(v, REL)))
    } else if a.lo > 0.0 && a.hi.is_finite() && b.lo.is_finite() && b.hi.is_finite() {
        corners64(a, b, libm::pow).map(|(lo, hi)| (below(lo, REL), above(hi, REL)))
    } else {
        None
    };
    match exact {
        Some((x0, x1)) => inherit(env, x0, x1, f).or_nan(a.nan || b.nan),
        None => Iv::ANY,
    }
}

// ---------------------------------------------------------------------------------------
// Exact float opcodes.

/// MIN (`max == false`) / MAX with tgsi's NaN rule (a NaN operand is ignored). Ties
/// between zeros give either zero when the opcode's policy says so or the inputs are ranges.
pub fn min_max(env: &Env, op: Opcode, a: Iv, b: Iv) -> Iv {
    let max = op == Opcode::MAX;
    let f = |x: f32, y: f32| if max { fl::max(x, y) } else { fl::min(x, y) };
    let mut r = Iv {
        nan: false,
        ..Iv::NAN
    };
    if !a.empty() && !b.empty() {
        for x in [a.lo, a.hi] {
            for y in [b.lo, b.hi] {
                r = r.hull(Iv::point(f(x, y)));
            }
        }
    }
    if a.nan {
        r = r.hull(Iv { nan: false, ..b });
    }
    if b.nan {
        r = r.hull(Iv { nan: false, ..a });
    }
    r.nan = a.nan && b.nan;
    let either = env.contract.signed_zero(op, env.class) == SignedZeroPolicy::Either;
    let ranges = a.as_point().is_none() || b.as_point().is_none();
    if (either || ranges) && a.has_zero() && b.has_zero() && r.has_zero() {
        r = r.with_zeros();
    }
    r
}

/// SSG: `None` when the sign is not determined.
fn ssg(x: Iv) -> Option<Iv> {
    let neg = x.has_neg();
    let pos = x.has_pos();
    let zero = x.nan || x.has_zero();
    match (neg, pos, zero) {
        (true, false, false) => Some(Iv::point(-1.0)),
        (false, true, false) => Some(Iv::point(1.0)),
        (false, false, true) => Some(Iv::point(0.0)),
        _ => None,
    }
}

/// FRC: monotone inside one integer cell; otherwise anything in [0, 1].
pub fn frc(x: Iv) -> Iv {
    if x.empty() {
        return Iv::NAN;
    }
    let inf = x.has_inf();
    if !inf && fl::flr(x.lo) == fl::flr(x.hi) {
        return x.map_inc(fl::frc);
    }
    Iv::range(0.0, 1.0, x.nan || inf)
}

/// A scalar-source float opcode: componentwise (channel c of each source) or replicated
/// (channel x of each source). `args` are the sources' sets; `None` when undetermined.
/// Opcodes without a float interval rule (integer, bit, conversion ops) give `None`.
pub fn scalar(env: &Env, op: Opcode, args: &[Iv]) -> Option<Iv> {
    use Opcode::*;
    let x = *args.first()?;
    let y = args.get(1).copied().unwrap_or(Iv::NAN);
    let z = args.get(2).copied().unwrap_or(Iv::NAN);
    Some(match op {
        MOV => x,
        ABS => x.abs(),
        ADD | SUB | MUL | DIV | POW => binary(env, op, x, y),
        MAD => match env.bound(op) {
            BoundKind::FusedOrUnfused => super::vector::fused::mad(env, x, y, z),
            _ => iv::add(iv::mul(x, y), z),
        },
        FMA => iv::fma(x, y, z),
        LRP => match env.bound(op) {
            BoundKind::FusedOrUnfused => super::vector::fused::lrp(env, x, y, z),
            _ => iv::add(iv::mul(x, y), iv::mul(iv::sub(Iv::point(1.0), x), z)),
        },
        MIN | MAX => min_max(env, op, x, y),
        SLT | FSLT => bool_result(op, compare(Cmp::Lt, x, y)?),
        SGE | FSGE => bool_result(op, compare(Cmp::Ge, x, y)?),
        SGT => bool_result(op, compare(Cmp::Gt, x, y)?),
        SLE => bool_result(op, compare(Cmp::Le, x, y)?),
        SEQ | FSEQ => bool_result(op, compare(Cmp::Eq, x, y)?),
        SNE | FSNE => bool_result(op, compare(Cmp::Ne, x, y)?),
        CMP => {
            if compare(Cmp::Lt, x, Iv::point(0.0))? {
                y
            } else {
                z
            }
        }
        SSG => ssg(x)?,
        RCP | EX2 | LG2 | SIN | COS => unary(env, op, op, x),
        RSQ | SQRT => {
            // tgsi.rst: RSQ is undefined for src <= 0, SQRT for src < 0.
            if x.empty() {
                return Some(Iv::NAN);
            }
            if x.lo < 0.0 || (op == RSQ && x.lo <= 0.0) {
                return None;
            }
            unary(env, op, op, x)
        }
        FLR => x.map_inc(fl::flr),
        CEIL => x.map_inc(fl::ceil),
        TRUNC => x.map_inc(fl::trunc),
        ROUND => x.map_inc(fl::round),
        FRC => frc(x),
        DDX | DDY | DDX_FINE | DDY_FINE => iv::sub(x, y),
        _ => return None,
    })
}

fn bool_result(op: Opcode, t: bool) -> Iv {
    use Opcode::*;
    if matches!(op, FSLT | FSGE | FSEQ | FSNE) {
        Iv::point(f32::from_bits(if t { u32::MAX } else { 0 }))
    } else {
        Iv::point(if t { 1.0 } else { 0.0 })
    }
}

/// Whether a float→integer conversion (F2I, F2U, ARL, ARR) of every value in `x` gives the
/// same defined result.
pub fn conversion_determined(op: Opcode, x: Iv) -> bool {
    if x.nan || x.empty() {
        return false;
    }
    let f = |v: f32| -> (u32, bool) {
        match op {
            Opcode::F2I => {
                let r = cv::f2i(v);
                (r.value as u32, r.undefined)
            }
            Opcode::F2U => {
                let r = cv::f2u(v);
                (r.value, r.undefined)
            }
            Opcode::ARL => {
                let r = cv::arl(v);
                (r.value as u32, r.undefined)
            }
            _ => {
                let r = cv::arr(v);
                (r.value as u32, r.undefined)
            }
        }
    };
    let (a, b) = (f(x.lo), f(x.hi));
    !a.1 && !b.1 && a.0 == b.0
}

/// Whether a packing opcode (PK2H, PK2US, PK4B, PK4UB) gives the same defined word for every
/// vector in the box `s` (each field is monotone in its component).
pub fn pack_determined(op: Opcode, s: [Iv; 4]) -> bool {
    if s.iter().any(|c| c.nan || c.empty()) {
        return false;
    }
    let lo = s.map(|c| c.lo);
    let hi = s.map(|c| c.hi);
    let f = |v: [f32; 4]| -> (u32, bool) {
        let r = match op {
            Opcode::PK2H => cv::pk2h(v),
            Opcode::PK2US => cv::pk2us(v),
            Opcode::PK4B => cv::pk4b(v),
            _ => cv::pk4ub(v),
        };
        (r.value, r.undefined)
    };
    let (a, b) = (f(lo), f(hi));
    !a.1 && !b.1 && a.0 == b.0
}

/// LDEXP with a known integer exponent `n`.
pub fn ldexp(x: Iv, n: i32) -> Iv {
    x.map_inc(|v| fl::ldexp(v, n))
}

/// Saturate `_SAT` (clamp to [0, 1], NaN and -0 → +0) of a set.
pub fn saturate(x: Iv) -> Iv {
    let s = |v: f32| {
        let r = v.clamp(0.0, 1.0);
        if r == 0.0 {
            0.0
        } else {
            r
        }
    };
    let r = if x.empty() {
        Iv {
            nan: false,
            ..Iv::NAN
        }
    } else {
        Iv::range(s(x.lo), s(x.hi), false)
    };
    if x.nan {
        r.hull(Iv::point(0.0))
    } else {
        r
    }
}

/// Signed saturate `.SSAT` (clamp to [-1, 1]); `None` when a NaN is possible (its result is
/// unspecified).
pub fn saturate_signed(x: Iv) -> Option<Iv> {
    if x.nan {
        return None;
    }
    Some(x.map_inc(|v| v.clamp(-1.0, 1.0)))
}

/// The union with ±0 of the set's denormals when `env` flushes (`apply`); in a flushing
/// evaluation (`env.ftz`), the set's denormals replaced by same-sign zeros.
pub fn flush_if(env: &Env, apply: bool, x: Iv) -> Iv {
    if !apply {
        return x;
    }
    let x = env.fl(x);
    if env.ftz {
        crate::interp::denormal::ftz_iv(x)
    } else {
        x
    }
}
