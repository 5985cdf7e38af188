//! The comparator: an engine's [`Outputs`] against the oracle's, channel by channel, typed by
//! the IR's type inference ([`shaderdiff_model::infer_types`]) and toleranced by the precision
//! contract ([`shaderdiff_oracles::precision`]). Produces INTERFACE.md's `diff --format json` mismatch
//! records ([`Mismatch`]).
//!
//! Per channel of every output register of every invocation:
//!
//! * **Skipped**: channels the oracle marks undefined, every channel of an invocation the
//!   oracle reports unconstrained (its `Intervals::unconstrained`, or, without intervals,
//!   an invocation whose every output channel is undefined), and every channel of an
//!   invocation killed on either side.
//! * **Killed**: an invocation killed by one side only is one mismatch with register
//!   `"killed"` (channel `"x"`, type `"bool"`, words `0x00000001` killed / `0x00000000` not).
//! * **Non-exact interval** (the oracle's interval is not the single value it computed): the
//!   engine's word must lie in it ([`shaderdiff_oracles::io::Interval`]); a zero is accepted when the range
//!   reaches zero from both sides or touches it (the sign of a zero that approximate
//!   arithmetic produces is not significant); NaN when the interval allows NaN (`strict`: the
//!   oracle's bits if its value is a NaN).
//! * **Binary64 pairs**: a channel pair typed `f64.lo`/`f64.hi` (xy or zw) is compared as
//!   one binary64 value, reported as one record with channel `xy`/`zw`, type `f64`, 64-bit
//!   `expected`/`actual` words (`0x%016x`) and the ULP distance in binary64; skipped when
//!   either channel is undefined. Against the pair's set ([`shaderdiff_oracles::io::pair_interval`]) when
//!   it is not exact, else exactly (NaN for NaN under [`NanPolicy::Any`], the other zero
//!   under `signed_zero = "either"`, no denormal flushing). A binary64 half whose partner
//!   channel holds something else is compared bit for bit when the oracle's set is a single
//!   value and skipped otherwise (half of a set cannot be judged).
//! * **Exact** (no intervals, or a single-value interval): `i32`, 64-bit integer halves: bit
//!   for bit. `f32`: bit for bit, except any NaN for a NaN under [`NanPolicy::Any`], the other
//!   zero under the class's `signed_zero = "either"`, and ±0 for a denormal under
//!   `denormals = "flush_allowed"`. Raw `bits`/`mixed`/`unwritten` channels: bit for bit,
//!   except NaN for NaN under [`NanPolicy::Any`] (a float NaN moved through).
//!
//! Memory (`buffers`) is compared by [`memory::compare_memory`], which needs the inputs (the
//! initial memory of atomic locations); NV `global` memory is not compared yet.

use serde::Serialize;
use shaderdiff_model::{infer_types, ChannelType, File, Program, ScalarType};
use thiserror::Error;

use shaderdiff_oracles::interp::interval::key64;
use shaderdiff_oracles::io::{pair_interval, Interval, Outputs};
use shaderdiff_oracles::precision::{
    ClassPolicy, DenormalPolicy, NanPolicy, PrecisionContract, SignedZeroPolicy,
};

/// Comparator settings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CompareOptions {
    /// How NaN results compare (`--nan any|strict`).
    pub nan: NanPolicy,
}

impl Default for CompareOptions {
    /// [`NanPolicy::Any`], the contract's default.
    fn default() -> Self {
        CompareOptions {
            nan: NanPolicy::Any,
        }
    }
}

/// One differing channel: exactly the fields of INTERFACE.md's `diff --format json`
/// `mismatches` entries, serialized in that order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Mismatch {
    /// Engine that produced `actual`.
    pub engine: String,
    /// Output register as the program names it (`OUT[0]`), or `killed`.
    pub register: String,
    /// Invocation index.
    pub invocation: usize,
    /// `x`, `y`, `z` or `w`.
    pub channel: String,
    /// Channel type ([`ChannelType::name`]: `f32`, `i32`, `f64.lo`, `bits` ...; `bool` for
    /// `killed`).
    #[serde(rename = "type")]
    pub ty: String,
    /// The oracle's word, `0x%08x`.
    pub expected: String,
    /// The engine's word, `0x%08x`.
    pub actual: String,
    /// What was allowed: `exact`, or `interval:[0xLO,0xHI]` (with `+nan` when NaN was
    /// allowed too; `nan` for "any NaN only").
    pub tolerance: String,
    /// ULP distance between expected and actual for non-NaN `f32` channels (adjacent floats
    /// are 1 apart, -0 and +0 are 0 apart); `None` (JSON `null`) otherwise.
    pub ulp_distance: Option<u64>,
}

impl Mismatch {
    /// The parts of a finding's deduplication signature a mismatch determines on its own:
    /// the engine and the value type (the diverging opcode class is the caller's).
    pub fn signature_key(&self) -> (&str, &str) {
        (&self.engine, &self.ty)
    }
}

/// The result of one comparison.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Comparison {
    /// Every differing channel (register order, then invocation, then channel), with the
    /// `killed` mismatches first.
    pub mismatches: Vec<Mismatch>,
    /// Channels compared.
    pub compared: usize,
    /// Channels skipped as undefined or unconstrained.
    pub skipped_undefined: usize,
    /// Channels skipped because the invocation was killed on either side.
    pub skipped_killed: usize,
}

impl Comparison {
    /// No mismatch.
    pub fn agrees(&self) -> bool {
        self.mismatches.is_empty()
    }
}

/// Why two outputs could not be compared at all.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum CompareError {
    /// The contract maps no class to this engine name.
    #[error("engine `{0}` has no class in the precision contract")]
    UnknownEngine(String),
    /// The oracle's intervals were computed for another class.
    #[error(
        "the oracle's intervals are for class `{intervals}`, engine `{engine}` is class `{class}`"
    )]
    ClassMismatch {
        /// Class of the intervals.
        intervals: String,
        /// Engine name.
        engine: String,
        /// The engine's class.
        class: String,
    },
    /// Different invocation counts.
    #[error("the oracle ran {oracle} invocations, the engine {actual}")]
    Invocations {
        /// Oracle count.
        oracle: usize,
        /// Engine count.
        actual: usize,
    },
    /// The engine's outputs lack a register the oracle has (or a vec4 of it).
    #[error("the engine's outputs lack {0}")]
    MissingRegister(String),
}

const CHANNELS: [&str; 4] = ["x", "y", "z", "w"];
const PAIRS: [&str; 2] = ["xy", "zw"];

/// Compares `actual` (from engine `engine_name`) with the oracle's `oracle` for `program`,
/// under `contract` (the engine's class) and `opts`. See the module docs for the rules.
///
/// # Errors
/// [`CompareError`] when the engine has no class, the oracle's intervals belong to another
/// class, the invocation counts differ or the engine lacks an output register.
pub fn compare(
    program: &Program,
    oracle: &Outputs,
    engine_name: &str,
    actual: &Outputs,
    contract: &PrecisionContract,
    opts: &CompareOptions,
) -> Result<Comparison, CompareError> {
    let class = contract
        .class_of_engine(engine_name)
        .ok_or_else(|| CompareError::UnknownEngine(engine_name.to_string()))?;
    let policy = contract.policy(class);
    if let Some(ivs) = &oracle.intervals {
        if ivs.class != policy.name {
            return Err(CompareError::ClassMismatch {
                intervals: ivs.class.clone(),
                engine: engine_name.to_string(),
                class: policy.name.clone(),
            });
        }
    }
    let n = oracle.invocations;
    if actual.invocations != n {
        return Err(CompareError::Invocations {
            oracle: n,
            actual: actual.invocations,
        });
    }
    let types = infer_types(program);
    let unconstrained = unconstrained_invocations(oracle);
    let killed = |o: &Outputs, i: usize| o.killed.as_ref().is_some_and(|k| k.get(i) == Some(&true));
    let mut cmp = Comparison::default();
    let mut gone = vec![false; n];
    for (i, g) in gone.iter_mut().enumerate() {
        let (ko, ka) = (killed(oracle, i), killed(actual, i));
        if unconstrained[i] {
            continue;
        }
        if ko != ka {
            cmp.mismatches.push(Mismatch {
                engine: engine_name.to_string(),
                register: "killed".into(),
                invocation: i,
                channel: "x".into(),
                ty: "bool".into(),
                expected: hex(ko as u32),
                actual: hex(ka as u32),
                tolerance: "exact".into(),
                ulp_distance: None,
            });
        }
        *g = ko || ka;
    }
    let counts = compare_emits(engine_name, oracle, actual, &unconstrained, &gone, &mut cmp);
    for (key, vals) in &oracle.registers {
        // OUT[v][n] of emitted vertex v: compared where both sides emitted vertex v (a
        // different count is already a mismatch of `emitted`).
        let vertex = (oracle.emits.is_some() && key.file == File::Output)
            .then_some(key.dimension)
            .flatten();
        let acts = match actual.registers.get(key).filter(|a| a.len() >= n) {
            Some(a) => a,
            None if vertex.is_some() => continue,
            None => return Err(CompareError::MissingRegister(key.to_string())),
        };
        let ctypes = types.channels(key.file, key.index as i32);
        let und = oracle.undefined.get(key);
        let ivs = oracle
            .intervals
            .as_ref()
            .and_then(|iv| iv.channels.get(key));
        let halves = oracle.intervals.as_ref().and_then(|iv| iv.halves.get(key));
        for i in 0..n.min(vals.len()) {
            if unconstrained[i] {
                cmp.skipped_undefined += 4;
                continue;
            }
            if gone[i] {
                cmp.skipped_killed += 4;
                continue;
            }
            if vertex.is_some_and(|v| v as usize >= counts[i]) {
                cmp.skipped_undefined += 4;
                continue;
            }
            let u = und.and_then(|u| u.get(i)).copied().unwrap_or(0);
            let iv_of = |c: usize| ivs.and_then(|l| l.get(i)).map(|v| v[c]);
            let h = halves.and_then(|v| v.get(i)).copied().unwrap_or(0);
            let exact = |c: usize| iv_of(c).is_none_or(|iv| iv.is_exactly(vals[i][c]));
            let mut pair_high = false;
            for c in 0..4 {
                if pair_high {
                    pair_high = false;
                    continue;
                }
                // A binary64 in channels c, c + 1: the oracle says the two words hold one
                // set, or the static types say so and both words are exactly known.
                let flagged = c % 2 == 0 && h >> c & 3 == 3;
                let unflagged_exact = c % 2 == 0 && h >> c & 3 == 0 && exact(c) && exact(c + 1);
                if flagged || (is_f64_pair(&ctypes, c) && unflagged_exact) {
                    // A binary64 in channels c, c+1: compared as one value.
                    pair_high = true;
                    if u >> c & 3 != 0 {
                        cmp.skipped_undefined += 2;
                        continue;
                    }
                    cmp.compared += 2;
                    let word = |v: &[u32; 4]| v[c] as u64 | (v[c + 1] as u64) << 32;
                    let (e, a) = (word(&vals[i]), word(&acts[i]));
                    let iv = iv_of(c).zip(iv_of(c + 1));
                    if let Some(tolerance) = check_f64(e, a, iv, policy, opts.nan) {
                        cmp.mismatches.push(Mismatch {
                            engine: engine_name.to_string(),
                            register: key.to_string(),
                            invocation: i,
                            channel: PAIRS[c / 2].into(),
                            ty: "f64".into(),
                            expected: hex64(e),
                            actual: hex64(a),
                            tolerance,
                            ulp_distance: ulp_distance64(e, a),
                        });
                    }
                    continue;
                }
                if u >> c & 1 != 0 {
                    cmp.skipped_undefined += 1;
                    continue;
                }
                let (e, a) = (vals[i][c], acts[i][c]);
                let iv = iv_of(c);
                if h >> c & 1 != 0 {
                    // Half of a binary64 set without its other half: nothing to judge.
                    cmp.skipped_undefined += 1;
                    continue;
                }
                cmp.compared += 1;
                if let Some(tolerance) = check(ctypes[c], e, a, iv, policy, opts.nan) {
                    cmp.mismatches.push(Mismatch {
                        engine: engine_name.to_string(),
                        register: key.to_string(),
                        invocation: i,
                        channel: CHANNELS[c].into(),
                        ty: ctypes[c].name().into(),
                        expected: hex(e),
                        actual: hex(a),
                        tolerance,
                        ulp_distance: ulp_distance(ctypes[c], e, a),
                    });
                }
            }
        }
    }
    Ok(cmp)
}

/// Geometry programs: compares each invocation's emitted vertices (count, then stream and
/// primitive number of each; INTERFACE.md additions `emitted`) exactly, skipping
/// unconstrained and killed invocations. Returns, per invocation, how many vertices both
/// sides emitted (the vertex registers compared).
fn compare_emits(
    engine: &str,
    oracle: &Outputs,
    actual: &Outputs,
    unconstrained: &[bool],
    gone: &[bool],
    cmp: &mut Comparison,
) -> Vec<usize> {
    let n = oracle.invocations;
    let Some(exp) = &oracle.emits else {
        return vec![0; n];
    };
    let none = Vec::new();
    let act = actual.emits.as_ref().unwrap_or(&none);
    let empty = Vec::new();
    let mut counts = vec![0; n];
    for (i, count) in counts.iter_mut().enumerate() {
        let (e, a) = (exp.get(i).unwrap_or(&empty), act.get(i).unwrap_or(&empty));
        *count = e.len().min(a.len());
        if unconstrained.get(i) == Some(&true) || gone.get(i) == Some(&true) {
            continue;
        }
        let mut push = |register: String, channel: &str, x: u32, y: u32| {
            cmp.mismatches.push(Mismatch {
                engine: engine.to_string(),
                register,
                invocation: i,
                channel: channel.into(),
                ty: "u32".into(),
                expected: hex(x),
                actual: hex(y),
                tolerance: "exact".into(),
                ulp_distance: None,
            });
        };
        cmp.compared += 1;
        if e.len() != a.len() {
            push("emitted".into(), "x", e.len() as u32, a.len() as u32);
        }
        for (v, (x, y)) in e.iter().zip(a).enumerate() {
            cmp.compared += 2;
            if x.stream != y.stream {
                push(format!("emitted[{v}]"), "x", x.stream, y.stream);
            }
            if x.primitive != y.primitive {
                push(format!("emitted[{v}]"), "y", x.primitive, y.primitive);
            }
        }
    }
    counts
}

/// Invocations whose outputs and killed-ness are unconstrained: from the intervals when
/// present, else those whose every output channel is undefined (at least one output).
fn unconstrained_invocations(o: &Outputs) -> Vec<bool> {
    let n = o.invocations;
    if let Some(ivs) = &o.intervals {
        let mut v = ivs.unconstrained.clone();
        v.resize(n, false);
        return v;
    }
    (0..n)
        .map(|i| {
            !o.registers.is_empty()
                && o.registers
                    .keys()
                    .all(|k| o.undefined.get(k).and_then(|u| u.get(i)) == Some(&0xF))
        })
        .collect()
}

fn hex(w: u32) -> String {
    format!("{w:#010x}")
}

fn is_nan(w: u32) -> bool {
    f32::from_bits(w).is_nan()
}

fn is_zero(w: u32) -> bool {
    w & 0x7fff_ffff == 0
}

fn is_denormal(w: u32) -> bool {
    f32::from_bits(w).is_subnormal()
}

/// Monotone integer key of a float's bits (-0 and +0 both 0).
fn key(w: u32) -> i64 {
    if w & 0x8000_0000 != 0 {
        -((w & 0x7fff_ffff) as i64)
    } else {
        w as i64
    }
}

fn ulp_distance(ty: ChannelType, e: u32, a: u32) -> Option<u64> {
    (ty == ChannelType::F32 && !is_nan(e) && !is_nan(a)).then(|| key(e).abs_diff(key(a)))
}

/// `None` when `a` is acceptable for expected `e`; otherwise the tolerance that was applied.
fn check(
    ty: ChannelType,
    e: u32,
    a: u32,
    iv: Option<Interval>,
    policy: &ClassPolicy,
    nan: NanPolicy,
) -> Option<String> {
    if let Some(iv) = iv.filter(|iv| !iv.is_exactly(e)) {
        return (!in_interval(iv, e, a, policy, nan)).then(|| interval_text(iv));
    }
    let ok = match ty {
        ChannelType::Int32 | ChannelType::Low64(_) | ChannelType::High64(_) => a == e,
        ChannelType::F32 => float_exact(e, a, policy, nan),
        ChannelType::Bits | ChannelType::Mixed | ChannelType::Unwritten => {
            a == e || (nan == NanPolicy::Any && is_nan(e) && is_nan(a))
        }
    };
    (!ok).then(|| "exact".to_string())
}

/// An exact f32 result: bits, with the NaN, signed-zero and denormal-flush policies.
fn float_exact(e: u32, a: u32, policy: &ClassPolicy, nan: NanPolicy) -> bool {
    if a == e {
        return true;
    }
    if is_nan(e) || is_nan(a) {
        return nan == NanPolicy::Any && is_nan(e) && is_nan(a);
    }
    if is_zero(e) && is_zero(a) {
        return policy.signed_zero == SignedZeroPolicy::Either;
    }
    policy.denormals == DenormalPolicy::FlushAllowed && is_zero(a) && is_denormal(e)
}

/// Whether word `a` lies in the acceptance interval `iv` (module docs).
fn in_interval(iv: Interval, e: u32, a: u32, policy: &ClassPolicy, nan: NanPolicy) -> bool {
    let (lo, hi, x) = (
        f32::from_bits(iv.lo),
        f32::from_bits(iv.hi),
        f32::from_bits(a),
    );
    if x.is_nan() {
        return iv.nan && (nan == NanPolicy::Any || !is_nan(e) || a == e);
    }
    if lo.is_nan() || hi.is_nan() {
        return false;
    }
    if lo.total_cmp(&x).is_le() && x.total_cmp(&hi).is_le() {
        return true;
    }
    if x == 0.0 && lo <= 0.0 && hi >= 0.0 {
        return true;
    }
    let has_denormal =
        (hi > 0.0 && lo < f32::MIN_POSITIVE) || (lo < 0.0 && hi > -f32::MIN_POSITIVE);
    policy.denormals == DenormalPolicy::FlushAllowed && x == 0.0 && has_denormal
}

fn interval_text(iv: Interval) -> String {
    let empty = is_nan(iv.lo) || is_nan(iv.hi);
    match (empty, iv.nan) {
        (true, _) => "nan".to_string(),
        (false, true) => format!("interval:[{},{}]+nan", hex(iv.lo), hex(iv.hi)),
        (false, false) => format!("interval:[{},{}]", hex(iv.lo), hex(iv.hi)),
    }
}

/// Whether channels `c` and `c + 1` hold one binary64 (low word in the even channel `c`).
fn is_f64_pair(types: &[ChannelType; 4], c: usize) -> bool {
    c % 2 == 0
        && types[c] == ChannelType::Low64(ScalarType::F64)
        && types[c + 1] == ChannelType::High64(ScalarType::F64)
}

fn hex64(w: u64) -> String {
    format!("{w:#018x}")
}

/// ULP distance between two non-NaN binary64 values (adjacent doubles are 1 apart, -0 and
/// +0 are 0 apart); `None` when either is a NaN.
fn ulp_distance64(e: u64, a: u64) -> Option<u64> {
    let nan = |w: u64| f64::from_bits(w).is_nan();
    (!nan(e) && !nan(a)).then(|| key64(e).abs_diff(key64(a)) as u64)
}

/// `None` when the binary64 `a` is acceptable for the oracle's `e`, given the intervals of
/// the pair's two channels (`iv`); otherwise the tolerance that was applied. Exact pairs:
/// bits, any NaN for a NaN under [`NanPolicy::Any`], the other zero under
/// `signed_zero = "either"` (binary64 denormals are never flushed). Sets: the engine's
/// value lies in `[lo, hi]` (IEEE total order; a zero also when the set reaches zero from
/// both sides), or is a NaN the set allows.
fn check_f64(
    e: u64,
    a: u64,
    iv: Option<(Interval, Interval)>,
    policy: &ClassPolicy,
    nan: NanPolicy,
) -> Option<String> {
    let nan64 = |w: u64| f64::from_bits(w).is_nan();
    let exact =
        |(l, h): (Interval, Interval)| l.is_exactly(e as u32) && h.is_exactly((e >> 32) as u32);
    if let Some(iv) = iv.filter(|&iv| !exact(iv)) {
        let (lo, hi, allows_nan) = pair_interval(iv.0, iv.1);
        let x = f64::from_bits(a);
        let (l, h) = (f64::from_bits(lo), f64::from_bits(hi));
        let ok = if x.is_nan() {
            allows_nan && (nan == NanPolicy::Any || !nan64(e) || a == e)
        } else {
            !l.is_nan()
                && !h.is_nan()
                && ((l.total_cmp(&x).is_le() && x.total_cmp(&h).is_le())
                    || (x == 0.0 && l <= 0.0 && h >= 0.0))
        };
        let text = match (l.is_nan() || h.is_nan(), allows_nan) {
            (true, _) => "nan".to_string(),
            (false, true) => format!("interval:[{},{}]+nan", hex64(lo), hex64(hi)),
            (false, false) => format!("interval:[{},{}]", hex64(lo), hex64(hi)),
        };
        return (!ok).then_some(text);
    }
    let zero = |w: u64| w << 1 == 0;
    let ok = a == e
        || (nan64(e) && nan64(a) && nan == NanPolicy::Any)
        || (zero(e) && zero(a) && policy.signed_zero == SignedZeroPolicy::Either);
    (!ok).then(|| "exact".to_string())
}
