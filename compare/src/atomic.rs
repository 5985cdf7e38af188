//! The atomic-aware comparator: is what an engine reports about its atomics explainable by
//! some serial order of them?
//!
//! tgsi.rst "Atomic opcodes": "another concurrent memory access operation that affects the
//! same memory location is guaranteed to be performed strictly before or after the entire
//! execution of the atomic operation". So the atomics on one location happen in some total
//! order (the location's *coherence order*), each invocation's own atomics on it in program
//! order, and each returns the value the location held just before it. Atomics on different
//! locations are not ordered against each other (relaxed atomics: GLSL/SPIR-V give no
//! cross-location order without barriers), so every location is judged on its own.
//!
//! # Input
//! An engine reports one [`AtomicRecord`] per executed atomic: the location, the operation
//! and its operands, the invocation, the atomic's position in that invocation's program
//! order, and `old`, the value it found in memory (what it returned, before
//! [`AtomicOp::returned`]). With the location's initial and final values that is all that is
//! needed: [`AtomicOp::apply`] is a pure function of `old`.
//!
//! # How it is decided (efficiently)
//! Each record is an edge `old -> apply(old, src, cmp)` in a directed multigraph whose
//! vertices are memory values. A serial order is a walk that starts at the initial value,
//! uses every edge once, and in which each edge starts where the previous one ended (the
//! next atomic found what the previous one left): an **Eulerian trail** from the initial
//! value, which must end at the final value. By Euler's theorem such a trail exists iff
//! (1) every vertex has as many edges in as out, except `initial` with one more out and
//! `final` with one more in (none when they are equal), and (2) every edge is reachable from
//! `initial`. Both are checked in linear time, and Hierholzer's algorithm builds the witness
//! order ([`SerialOrders`]), also in linear time: 256 invocations on one address take
//! under a millisecond (`cargo bench -p shaderdiff-compare --bench atomic` prints the
//! figures: 0.2-0.5 ms per log of 256 atomics on a loaded 2-core machine). A degree failure
//! names the value at fault, which is how a lost update shows (two atomics found the same
//! value, only one left it there).
//!
//! When one invocation has several atomics on the same location, program order constrains
//! the trail; the degree test still applies, and a depth-first search over the remaining
//! choices (a state is the current value and the set of atomics done, failed states
//! memoized) finds an order or proves none exists. Before searching, the records' own order
//! in the log is tried (linear): an engine that logs atomics as it performs them reports a
//! serial order, which is then the witness. Realistic programs branch little (a
//! value is found by several atomics only when operations leave memory unchanged or repeat
//! values); the search has a step budget, and a location it cannot decide within it is
//! reported as [`AtomicViolation::Undecided`], never passed silently.
//!
//! Engines that cannot report `old` values get [`check_final_only`]: for commutative
//! operations (add, and, or, xor, min, max) the final value is unique; for ATOMFADD it is
//! checked against the interval every order of the additions can reach, bounded by the
//! recursive-summation error bound `gamma(n-1) * sum|x|` (Higham, *Accuracy and Stability of
//! Numerical Algorithms*, 2nd ed., §4.2).

use std::collections::{BTreeMap, HashMap, HashSet};

use thiserror::Error;

use shaderdiff_oracles::atomic::{AtomicOp, AtomicSemantics, AtomicTransition, AtomicWidth};
pub use shaderdiff_oracles::atomic::{AtomicRecord, Location, Space};

/// A witness: for every location, the indices of its records (into the slice given to
/// [`check_serializable`]) in a serial order that explains them.
pub type SerialOrders = BTreeMap<Location, Vec<usize>>;

/// Why an engine's atomics are not explainable by any serial order.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum AtomicViolation {
    /// No serial order of the location's atomics produces the values they found and the final
    /// value. `reason` names the value at fault.
    #[error("atomics on {location} are not serializable: {reason}")]
    Unserializable {
        /// The location.
        location: Location,
        /// What is wrong, in words (values in hex, invocations listed).
        reason: String,
    },
    /// The search for an order respecting program order ran out of steps.
    #[error(
        "atomics on {location}: no serial order found within {steps} search steps (undecided)"
    )]
    Undecided {
        /// The location.
        location: Location,
        /// The budget spent.
        steps: usize,
    },
}

impl AtomicViolation {
    /// The location concerned.
    pub fn location(&self) -> Location {
        match self {
            AtomicViolation::Unserializable { location, .. }
            | AtomicViolation::Undecided { location, .. } => *location,
        }
    }
}

/// Step budget of the program-order search per location (each step tries one atomic).
pub const SEARCH_BUDGET: usize = 200_000;

/// Checks that `records` can be explained by one serial order per location, starting from
/// `initial(location)` and ending at `final_value(location)` (values `width` bits wide).
///
/// # Errors
/// The first location (in [`Location`] order) that fails: [`AtomicViolation::Unserializable`]
/// with the reason, or [`AtomicViolation::Undecided`] when the search budget ran out.
pub fn check_serializable(
    records: &[AtomicRecord],
    initial: &dyn Fn(&Location) -> u64,
    final_value: &dyn Fn(&Location) -> u64,
) -> Result<SerialOrders, AtomicViolation> {
    let mut by_location: BTreeMap<Location, Vec<usize>> = BTreeMap::new();
    for (i, r) in records.iter().enumerate() {
        by_location.entry(r.location).or_default().push(i);
    }
    let mut orders = SerialOrders::new();
    for (loc, idx) in by_location {
        let m = loc.width.mask();
        let order = serial_order(
            records,
            &idx,
            initial(&loc) & m,
            final_value(&loc) & m,
            &loc,
        )?;
        orders.insert(loc, order);
    }
    Ok(orders)
}

/// The records `idx` (all on `loc`) in a serial order from `init` to `fin`.
fn serial_order(
    records: &[AtomicRecord],
    idx: &[usize],
    init: u64,
    fin: u64,
    loc: &Location,
) -> Result<Vec<usize>, AtomicViolation> {
    let m = loc.width.mask();
    let fadd = idx.iter().any(|&i| records[i].op == AtomicOp::FAdd);
    let vertex = |v: u64| if fadd { nan_vertex(loc.width, v) } else { v };
    let edge = |i: usize| (vertex(records[i].old & m), vertex(records[i].new_value()));
    let (init, fin) = (vertex(init), vertex(fin));
    let fail = |reason: String| AtomicViolation::Unserializable {
        location: *loc,
        reason,
    };
    // (1) Degree balance: out(v) - in(v) must be +1 at init, -1 at fin, 0 elsewhere.
    let mut balance: HashMap<u64, i64> = HashMap::new();
    *balance.entry(init).or_default() -= 1;
    *balance.entry(fin).or_default() += 1;
    for &i in idx {
        let (a, b) = edge(i);
        *balance.entry(a).or_default() += 1;
        *balance.entry(b).or_default() -= 1;
    }
    let mut bad: Vec<(u64, i64)> = balance.into_iter().filter(|&(_, d)| d != 0).collect();
    if !bad.is_empty() {
        bad.sort_unstable();
        return Err(fail(explain_imbalance(records, idx, init, fin, m, &bad)));
    }
    let chained = has_chains(records, idx);
    if !chained {
        // (2) Reachability, and the witness, by Hierholzer's algorithm.
        let order = hierholzer(idx, init, &edge);
        if order.len() != idx.len() {
            let used: HashSet<usize> = order.iter().copied().collect();
            let stray = idx
                .iter()
                .find(|i| !used.contains(i))
                .copied()
                .unwrap_or(idx[0]);
            return Err(fail(format!(
                "{} by invocation {} found {:#x}, a value no serial order from the initial \
                 {init:#x} reaches before it",
                records[stray].op.name(),
                records[stray].invocation,
                records[stray].old & m
            )));
        }
        return Ok(order);
    }
    // An engine that logs its atomics as it performs them reports a serial order: try it
    // first (linear), before searching.
    if let Some(order) = log_order(records, idx, init, fin, &edge) {
        return Ok(order);
    }
    search_with_program_order(records, idx, init, fin, loc, &edge)
}

/// `idx` as given (the records' order in the log), if it is itself a serial order from
/// `init` to `fin` that keeps each invocation's records in `seq` order.
fn log_order(
    records: &[AtomicRecord],
    idx: &[usize],
    init: u64,
    fin: u64,
    edge: &dyn Fn(usize) -> (u64, u64),
) -> Option<Vec<usize>> {
    let mut value = init;
    let mut last_seq: HashMap<u32, u32> = HashMap::new();
    for &i in idx {
        let (from, to) = edge(i);
        let r = &records[i];
        let in_order = last_seq
            .insert(r.invocation, r.seq)
            .is_none_or(|s| s < r.seq);
        if from != value || !in_order {
            return None;
        }
        value = to;
    }
    (value == fin).then(|| idx.to_vec())
}

/// The graph vertex of value `v` at a location ATOMFADD updates: every NaN is one vertex
/// (the quiet NaN with zero payload). tgsi.rst leaves the NaN an addition produces open
/// (IEEE 754 does not fix payloads, and hosts differ: x86 propagates the first NaN operand
/// and gives 0xFFC00000 for an invalid operation; Valhall gives 0x7FC00000), so NaN results
/// count as equal, as `NanPolicy::Any` treats NaN register values.
fn nan_vertex(width: AtomicWidth, v: u64) -> u64 {
    match width {
        AtomicWidth::W32 if f32::from_bits(v as u32).is_nan() => 0x7fc0_0000,
        AtomicWidth::W64 if f64::from_bits(v).is_nan() => 0x7ff8_0000_0000_0000,
        _ => v,
    }
}

/// Whether some invocation has two or more records in `idx`.
fn has_chains(records: &[AtomicRecord], idx: &[usize]) -> bool {
    let mut seen = HashSet::new();
    idx.iter().any(|&i| !seen.insert(records[i].invocation))
}

/// An Eulerian trail from `start` over the edges `idx` (Hierholzer): the record indices in
/// trail order. Covers only the edges reachable from `start`; the caller has checked the
/// degrees, so a shorter result means some edges are unreachable.
fn hierholzer(idx: &[usize], start: u64, edge: &dyn Fn(usize) -> (u64, u64)) -> Vec<usize> {
    let mut out: HashMap<u64, Vec<usize>> = HashMap::new();
    // Reverse so that pop() takes edges in report order (deterministic witnesses).
    for &i in idx.iter().rev() {
        out.entry(edge(i).0).or_default().push(i);
    }
    // Stack of (vertex, edge that led there).
    let mut stack: Vec<(u64, Option<usize>)> = vec![(start, None)];
    let mut trail = Vec::with_capacity(idx.len());
    while let Some(&(v, via)) = stack.last() {
        match out.get_mut(&v).and_then(|l| l.pop()) {
            Some(e) => stack.push((edge(e).1, Some(e))),
            None => {
                stack.pop();
                if let Some(e) = via {
                    trail.push(e);
                }
            }
        }
    }
    trail.reverse();
    trail
}

/// Depth-first search for a trail that also keeps each invocation's records in `seq` order.
///
/// Two reductions keep it small. A ready atomic that leaves the value unchanged (a
/// self-loop: a failed compare-and-swap, a min/max that lost, an add of 0) is taken at once:
/// moving it earlier in any valid order keeps that order valid, since it changes nothing
/// and only frees its invocation's later atomics. And a state (current value, how far each
/// invocation has got) that led nowhere is remembered by a 128-bit Zobrist hash and never
/// searched again.
fn search_with_program_order(
    records: &[AtomicRecord],
    idx: &[usize],
    init: u64,
    fin: u64,
    loc: &Location,
    edge: &dyn Fn(usize) -> (u64, u64),
) -> Result<Vec<usize>, AtomicViolation> {
    let mut chains: BTreeMap<u32, Vec<usize>> = BTreeMap::new();
    for &i in idx {
        chains.entry(records[i].invocation).or_default().push(i);
    }
    let chains: Vec<Vec<usize>> = chains
        .into_values()
        .map(|mut c| {
            c.sort_by_key(|&i| records[i].seq);
            c
        })
        .collect();
    let mut st = Search {
        chains: &chains,
        edge,
        next: vec![0; chains.len()],
        hash: (0, 0),
        order: Vec::with_capacity(idx.len()),
    };
    let mut failed: HashSet<(u64, (u64, u64))> = HashSet::new();
    // Frames: the value reached, the chains whose next atomic starts there (longest
    // remaining chain first: the critical-path rule of precedence scheduling, which keeps
    // long chains from being stranded), how many of them were tried, and the chains
    // advanced to get there (the chosen atomic's, then the self-loops taken after it).
    let first = st.close_self_loops(init);
    let mut frames: Vec<(u64, Vec<usize>, usize, Vec<usize>)> =
        vec![(init, st.candidates(init), 0, first)];
    let mut steps = 0usize;
    loop {
        let Some(frame) = frames.last_mut() else {
            return Err(AtomicViolation::Unserializable {
                location: *loc,
                reason: format!(
                    "no serial order from the initial {init:#x} to the final {fin:#x} keeps \
                     every invocation's atomics in program order"
                ),
            });
        };
        let value = frame.0;
        if st.order.len() == idx.len() && value == fin {
            return Ok(st.order);
        }
        let chosen = frame.1.get(frame.2).copied();
        frame.2 += 1;
        match chosen {
            Some(c) => {
                steps += 1;
                if steps > SEARCH_BUDGET {
                    return Err(AtomicViolation::Undecided {
                        location: *loc,
                        steps: SEARCH_BUDGET,
                    });
                }
                let target = st.advance(c);
                let mut advanced = vec![c];
                advanced.extend(st.close_self_loops(target));
                if failed.contains(&(target, st.hash)) {
                    st.undo(&advanced);
                } else {
                    let cands = st.candidates(target);
                    frames.push((target, cands, 0, advanced));
                }
            }
            None => {
                let (value, _, _, advanced) = frames.pop().expect("the frame examined");
                failed.insert((value, st.hash));
                st.undo(&advanced);
            }
        }
    }
}

/// The program-order search's position: how far each invocation has got, the order so far,
/// and the state's hash.
struct Search<'a> {
    chains: &'a [Vec<usize>],
    edge: &'a dyn Fn(usize) -> (u64, u64),
    next: Vec<usize>,
    hash: (u64, u64),
    order: Vec<usize>,
}

impl Search<'_> {
    /// The Zobrist key of chain `c`'s atomic `p` (two independent 64-bit halves).
    fn key(c: usize, p: usize) -> (u64, u64) {
        let x = (c as u64) << 32 | p as u64;
        (splitmix(x), splitmix(x ^ 0x5bd1_e995_1234_5678))
    }

    /// The chains whose next atomic finds `value`, longest remaining chain first.
    fn candidates(&self, value: u64) -> Vec<usize> {
        let mut c: Vec<usize> = (0..self.chains.len())
            .filter(|&c| {
                self.chains[c]
                    .get(self.next[c])
                    .is_some_and(|&e| (self.edge)(e).0 == value)
            })
            .collect();
        c.sort_by_key(|&c| std::cmp::Reverse(self.chains[c].len() - self.next[c]));
        c
    }

    /// Takes chain `c`'s next atomic; returns the value it leaves.
    fn advance(&mut self, c: usize) -> u64 {
        let e = self.chains[c][self.next[c]];
        let k = Self::key(c, self.next[c]);
        self.hash = (self.hash.0 ^ k.0, self.hash.1 ^ k.1);
        self.next[c] += 1;
        self.order.push(e);
        (self.edge)(e).1
    }

    /// Takes every ready atomic that leaves `value` unchanged, until none is left; returns
    /// the chains advanced.
    fn close_self_loops(&mut self, value: u64) -> Vec<usize> {
        let mut taken = Vec::new();
        let mut progress = true;
        while progress {
            progress = false;
            for c in 0..self.chains.len() {
                while let Some(&e) = self.chains[c].get(self.next[c]) {
                    if (self.edge)(e) != (value, value) {
                        break;
                    }
                    self.advance(c);
                    taken.push(c);
                    progress = true;
                }
            }
        }
        taken
    }

    /// Undoes the advances of `chains` (in reverse).
    fn undo(&mut self, chains: &[usize]) {
        for &c in chains.iter().rev() {
            self.next[c] -= 1;
            let k = Self::key(c, self.next[c]);
            self.hash = (self.hash.0 ^ k.0, self.hash.1 ^ k.1);
            self.order.pop();
        }
    }
}

/// SplitMix64: a bijective mixer, used for the search's state-hash keys.
fn splitmix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Words for the first unbalanced value (`bad`: value, out - in including the initial and
/// final endpoints).
fn explain_imbalance(
    records: &[AtomicRecord],
    idx: &[usize],
    init: u64,
    fin: u64,
    m: u64,
    bad: &[(u64, i64)],
) -> String {
    // Prefer a value found too often (a lost update) over one left too often.
    let &(v, _) = bad.iter().find(|&&(_, d)| d > 0).unwrap_or(&bad[0]);
    let found: Vec<u32> = idx
        .iter()
        .filter(|&&i| records[i].old & m == v)
        .map(|&i| records[i].invocation)
        .collect();
    let left = idx.iter().filter(|&&i| records[i].new_value() == v).count();
    let starts = usize::from(v == init);
    let ends = usize::from(v == fin);
    format!(
        "value {v:#x} was found by {} atomic(s) (invocations {}) but is the initial value {} \
         time(s) and left there by {left} atomic(s), and is {}the final value {fin:#x} \
         (a serial order needs found + final = initial + left)",
        found.len(),
        list(&found),
        starts,
        if ends == 1 { "" } else { "not " },
    )
}

fn list(v: &[u32]) -> String {
    const SHOWN: usize = 8;
    let mut s: Vec<String> = v.iter().take(SHOWN).map(u32::to_string).collect();
    if v.len() > SHOWN {
        s.push(format!("... {} more", v.len() - SHOWN));
    }
    if s.is_empty() {
        "none".into()
    } else {
        s.join(", ")
    }
}

/// What [`check_final_only`] could tell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FinalCheck {
    /// Some serial order leaves the final value (for commutative operations: every order).
    Consistent,
    /// The final value alone cannot decide these operations.
    Undecidable,
}

/// The atomics on one location when only the final value is known: what no serial order
/// can explain. Records' `old` fields are ignored.
///
/// * Commutative operations only, all the same ([`AtomicOp::commutes`]): the final value is
///   the fold of every operand from `initial`, whatever the order.
/// * ATOMFADD only (binary32 or binary64): every order's result lies within
///   `gamma(n-1) * (|initial| + sum |x|)` of the exact real sum (Higham §4.2, recursive
///   summation, `gamma(k) = k*u/(1-k*u)`, `u` the unit roundoff), or is NaN / infinite exactly
///   when the exact sum's operands make some order so (checked loosely: a non-finite final is
///   accepted when any operand is non-finite or the bound reaches the overflow threshold).
/// * ATOMXCHG only: the final value is one of the operands (the last exchange's).
/// * Anything else (compare-and-swap, wrap counters, mixed operations): the final value alone
///   cannot decide it; the answer is [`FinalCheck::Undecidable`], which callers report (they
///   need the engine's `old` values and [`check_serializable`]).
///
/// # Errors
/// [`AtomicViolation::Unserializable`] naming the expected value or interval.
pub fn check_final_only(
    location: &Location,
    ops: &[(AtomicOp, u64, u64)],
    initial: u64,
    final_value: u64,
) -> Result<FinalCheck, AtomicViolation> {
    let w = location.width;
    let m = w.mask();
    let (initial, final_value) = (initial & m, final_value & m);
    let fail = |reason: String| {
        Err(AtomicViolation::Unserializable {
            location: *location,
            reason,
        })
    };
    let Some(&(first, _, _)) = ops.first() else {
        return if initial == final_value {
            Ok(FinalCheck::Consistent)
        } else {
            fail(format!(
                "no atomics, but the value changed from {initial:#x} to {final_value:#x}"
            ))
        };
    };
    let same = ops.iter().all(|&(op, _, _)| op == first);
    if same && first.commutes() {
        let expect = ops
            .iter()
            .fold(initial, |acc, &(op, s, c)| op.apply(w, acc, s, c));
        return if expect == final_value {
            Ok(FinalCheck::Consistent)
        } else {
            fail(format!(
                "{} x {}: every order leaves {expect:#x}, memory holds {final_value:#x}",
                ops.len(),
                first.name()
            ))
        };
    }
    if same && first == AtomicOp::FAdd {
        return fadd_interval(w, ops, initial, final_value)
            .map(|()| FinalCheck::Consistent)
            .map_err(|reason| AtomicViolation::Unserializable {
                location: *location,
                reason,
            });
    }
    if ops.iter().all(|&(op, _, _)| op == AtomicOp::Xchg) {
        // The last exchange leaves its operand.
        return if ops.iter().any(|&(_, s, _)| s & m == final_value) {
            Ok(FinalCheck::Consistent)
        } else {
            fail(format!(
                "{} x ATOMXCHG: memory holds {final_value:#x}, which no exchange stores",
                ops.len()
            ))
        };
    }
    Ok(FinalCheck::Undecidable)
}

/// The ATOMFADD order interval check of [`check_final_only`].
fn fadd_interval(
    w: AtomicWidth,
    ops: &[(AtomicOp, u64, u64)],
    initial: u64,
    final_value: u64,
) -> Result<(), String> {
    let (to_f64, u, max): (fn(u64) -> f64, f64, f64) = match w {
        AtomicWidth::W32 => (
            |b| f32::from_bits(b as u32) as f64,
            f64::from(f32::EPSILON) / 2.0,
            f64::from(f32::MAX),
        ),
        AtomicWidth::W64 => (f64::from_bits, f64::EPSILON / 2.0, f64::MAX),
    };
    let xs: Vec<f64> = std::iter::once(initial)
        .chain(ops.iter().map(|&(_, s, _)| s))
        .map(to_f64)
        .collect();
    let got = to_f64(final_value);
    let n = xs.len() as f64;
    let abs_sum: f64 = xs.iter().map(|x| x.abs()).sum();
    let k = (n - 1.0) * u;
    let bound = k / (1.0 - k) * abs_sum;
    let non_finite = xs.iter().any(|x| !x.is_finite()) || abs_sum + bound >= max;
    if !got.is_finite() {
        return if non_finite {
            Ok(())
        } else {
            Err(format!(
                "the sum of {} finite values within range cannot be {got}",
                xs.len()
            ))
        };
    }
    // The exact sum, to within far less than `bound`: sorted by magnitude and compensated.
    let exact = neumaier_sum(&xs);
    // One more unit of the final rounding for the f64 evaluation of `exact` and `bound`.
    let slack = bound * (1.0 + 4.0 * f64::EPSILON) + exact.abs() * 4.0 * f64::EPSILON;
    if (got - exact).abs() <= slack {
        Ok(())
    } else {
        Err(format!(
            "{} x ATOMFADD from {}: every order of the additions lies in [{}, {}], memory holds {got}",
            ops.len(),
            xs[0],
            exact - slack,
            exact + slack
        ))
    }
}

/// Neumaier's compensated sum (accurate to about one rounding of the result).
fn neumaier_sum(xs: &[f64]) -> f64 {
    let mut sum = 0.0f64;
    let mut c = 0.0f64;
    for &x in xs {
        let t = sum + x;
        if sum.abs() >= x.abs() {
            c += (sum - t) + x;
        } else {
            c += (x - t) + sum;
        }
        sum = t;
    }
    sum + c
}
