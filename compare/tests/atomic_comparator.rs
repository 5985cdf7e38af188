//! The atomic-aware comparator (compare/src/atomic.rs) on contention patterns.
//!
//! Logs that must be accepted are built by executing the atomics in a shuffled serial order
//! with tgsi.rst's formulas ("Atomic opcodes"); logs that must be rejected are such logs
//! with one classic concurrency bug put in by hand (a lost update, two compare-and-swap
//! winners, a reordered invocation). Small cases carry hand-computed values.

use shaderdiff_compare::atomic::{
    check_final_only, check_serializable, AtomicRecord, AtomicViolation, FinalCheck, Location,
    Space,
};
use shaderdiff_model::File;
use shaderdiff_oracles::atomic::{AtomicOp, AtomicSemantics, AtomicTransition, AtomicWidth};
use shaderdiff_oracles::RegKey;
use std::collections::BTreeMap;

fn loc(offset: u64) -> Location {
    Location {
        space: Space::Resource(RegKey::new(File::Buffer, 0)),
        offset,
        width: AtomicWidth::W32,
    }
}

/// A deterministic permutation of 0..n (xorshift Fisher-Yates).
fn shuffled(n: usize, seed: u64) -> Vec<usize> {
    let mut s = seed | 1;
    let mut v: Vec<usize> = (0..n).collect();
    for i in (1..n).rev() {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        v.swap(i, (s % (i as u64 + 1)) as usize);
    }
    v
}

/// Executes `ops` (location, invocation, op, src, cmp) serially in `order` from all-zero
/// memory: the records with their `old` values, and the final memory.
fn execute(
    ops: &[(Location, u32, AtomicOp, u64, u64)],
    order: &[usize],
) -> (Vec<AtomicRecord>, BTreeMap<Location, u64>) {
    let mut mem: BTreeMap<Location, u64> = BTreeMap::new();
    let mut seq: BTreeMap<u32, u32> = BTreeMap::new();
    let mut recs = vec![None; ops.len()];
    for &k in order {
        let (location, invocation, op, src, cmp) = ops[k];
        let old = *mem.get(&location).unwrap_or(&0);
        mem.insert(location, op.apply(location.width, old, src, cmp));
        let s = seq.entry(invocation).or_default();
        recs[k] = Some(AtomicRecord {
            location,
            invocation,
            seq: *s,
            op,
            src,
            cmp,
            old,
        });
        *s += 1;
    }
    (recs.into_iter().map(Option::unwrap).collect(), mem)
}

fn check(
    recs: &[AtomicRecord],
    fin: &BTreeMap<Location, u64>,
) -> Result<BTreeMap<Location, Vec<usize>>, AtomicViolation> {
    check_serializable(recs, &|_| 0, &|l| *fin.get(l).unwrap_or(&0))
}

/// Replays a witness: each record must find what the previous one left.
fn assert_witness(
    recs: &[AtomicRecord],
    orders: &BTreeMap<Location, Vec<usize>>,
    fin: &BTreeMap<Location, u64>,
) {
    let mut total = 0;
    for (l, order) in orders {
        let mut v = 0;
        for &i in order {
            assert_eq!(recs[i].old, v, "witness step at {l}");
            v = recs[i].new_value();
        }
        assert_eq!(v, *fin.get(l).unwrap_or(&0));
        total += order.len();
    }
    assert_eq!(total, recs.len());
}

/// 256 invocations, each one atomic on address `inv % addresses`.
fn contention(
    op: AtomicOp,
    addresses: u64,
    src: impl Fn(u32) -> (u64, u64),
) -> Vec<(Location, u32, AtomicOp, u64, u64)> {
    (0..256u32)
        .map(|i| {
            let (s, c) = src(i);
            (loc(4 * (i as u64 % addresses)), i, op, s, c)
        })
        .collect()
}

#[test]
fn contended_atomics_in_any_serial_order_are_accepted() {
    for addresses in [1u64, 4, 64] {
        for (op, src) in [
            (
                AtomicOp::Add,
                (|i: u32| (i as u64 * 7 + 1, 0)) as fn(u32) -> (u64, u64),
            ),
            (AtomicOp::IMax, |i| {
                ((i as u64).wrapping_mul(0x9e37_79b9) & 0xffff_ffff, 0)
            }),
            (AtomicOp::Xchg, |i| (i as u64 + 100, 0)),
            // Everyone tries to take a lock held by nobody (0): one winner per address.
            (AtomicOp::CmpXchg, |i| (i as u64 + 1, 0)),
        ] {
            let ops = contention(op, addresses, src);
            for seed in 1..4 {
                let (recs, fin) = execute(&ops, &shuffled(ops.len(), seed));
                let orders =
                    check(&recs, &fin).unwrap_or_else(|e| panic!("{op:?} x{addresses}: {e}"));
                assert_witness(&recs, &orders, &fin);
            }
        }
    }
}

#[test]
fn a_lost_update_is_detected_and_named() {
    // Non-atomic add: invocations 3 and 7 both read 0x5 (hand-made log, one address).
    // Serial: invocation k finds k; with the bug, 7 finds 5 as 3 did, and one +1 is lost.
    let mut recs: Vec<AtomicRecord> = (0..8u32)
        .map(|k| AtomicRecord {
            location: loc(0),
            invocation: k,
            seq: 0,
            op: AtomicOp::Add,
            src: 1,
            cmp: 0,
            old: k as u64,
        })
        .collect();
    let fin: BTreeMap<_, _> = [(loc(0), 8)].into();
    assert!(check(&recs, &fin).is_ok());
    // The lost update: invocation 7 read 0x5 as invocation 5 did, and memory ends one short.
    for (r, old) in recs.iter_mut().zip([0, 1, 2, 3, 4, 5, 6, 5]) {
        r.old = old;
    }
    let fin_lost: BTreeMap<_, _> = [(loc(0), 7)].into();
    let err = check(&recs, &fin_lost).unwrap_err();
    match &err {
        AtomicViolation::Unserializable { reason, .. } => {
            assert!(reason.contains("value 0x5 was found by 2"), "{reason}");
            assert!(reason.contains("invocations 5, 7"), "{reason}");
        }
        other => panic!("{other}"),
    }
}

#[test]
fn a_lost_update_among_256_is_detected_at_every_address_count() {
    for addresses in [1u64, 4, 64] {
        let ops = contention(AtomicOp::Add, addresses, |_| (1, 0));
        let (mut recs, mut fin) = execute(&ops, &shuffled(ops.len(), 9));
        // Make the record that found the largest value at address 0 re-read its
        // predecessor's value and lose its own update.
        let at0: Vec<usize> = (0..recs.len())
            .filter(|&i| recs[i].location == loc(0))
            .collect();
        let last = *at0.iter().max_by_key(|&&i| recs[i].old).unwrap();
        recs[last].old -= 1;
        *fin.get_mut(&loc(0)).unwrap() -= 1;
        assert!(check(&recs, &fin).is_err(), "{addresses} addresses");
    }
}

#[test]
fn two_compare_and_swap_winners_are_rejected() {
    // CAS(cmp 0, src inv+1) from 0: invocation 2 wins, 0 and 1 find 3. Hand-made.
    let rec = |invocation: u32, old: u64| AtomicRecord {
        location: loc(0),
        invocation,
        seq: 0,
        op: AtomicOp::CmpXchg,
        src: invocation as u64 + 1,
        cmp: 0,
        old,
    };
    let good = [rec(0, 3), rec(1, 3), rec(2, 0)];
    assert!(check(&good, &[(loc(0), 3)].into()).is_ok());
    // Both 1 and 2 found 0 (a non-atomic compare-and-swap): whoever stored last wins.
    let bad = [rec(0, 3), rec(1, 0), rec(2, 0)];
    assert!(check(&bad, &[(loc(0), 3)].into()).is_err());
    assert!(check(&bad, &[(loc(0), 2)].into()).is_err());
}

#[test]
fn program_order_within_an_invocation_is_respected() {
    // Invocation 0 adds 1 twice, invocation 1 once, from 0 (final 3). Hand-made logs.
    let rec = |invocation: u32, seq: u32, old: u64| AtomicRecord {
        location: loc(0),
        invocation,
        seq,
        op: AtomicOp::Add,
        src: 1,
        cmp: 0,
        old,
    };
    let fin: BTreeMap<_, _> = [(loc(0), 3)].into();
    let ok = [rec(0, 0, 0), rec(1, 0, 1), rec(0, 1, 2)];
    let orders = check(&ok, &fin).unwrap();
    assert_eq!(orders[&loc(0)], [0, 1, 2]);
    // The same values, but invocation 0's second atomic found less than its first did.
    let reordered = [rec(0, 0, 2), rec(1, 0, 1), rec(0, 1, 0)];
    assert!(matches!(
        check(&reordered, &fin),
        Err(AtomicViolation::Unserializable { .. })
    ));
}

#[test]
fn program_order_search_with_repeated_values() {
    // 64 invocations, 3 ATOMUMAX each on one address: most leave the value unchanged, so
    // many atomics find the same value and the search has real choices.
    let ops: Vec<_> = (0..64u32)
        .flat_map(|i| {
            (0..3u64).map(move |k| (loc(0), i, AtomicOp::UMax, (i as u64 * 3 + k) % 50, 0))
        })
        .collect();
    // Program order: an invocation's atomics are consecutive in `ops`; keep them in order.
    let mut order = Vec::new();
    let perm = shuffled(64, 5);
    let mut next = [0usize; 64];
    for step in 0..ops.len() {
        let inv = perm[(step * 7) % 64];
        let inv = (0..64)
            .map(|d| (inv + d) % 64)
            .find(|&v| next[v] < 3)
            .unwrap();
        order.push(inv * 3 + next[inv]);
        next[inv] += 1;
    }
    let (recs, fin) = execute(&ops, &order);
    let orders = check(&recs, &fin).unwrap();
    assert_witness(&recs, &orders, &fin);
}

#[test]
fn a_value_nothing_reaches_is_rejected() {
    // ATOMXCHG 5 <- 5 found 5 (a self-loop at 5), but the location held 0 throughout.
    let r = AtomicRecord {
        location: loc(0),
        invocation: 0,
        seq: 0,
        op: AtomicOp::Xchg,
        src: 5,
        cmp: 0,
        old: 5,
    };
    let err = check(&[r], &[(loc(0), 0)].into()).unwrap_err();
    assert!(
        err.to_string()
            .contains("no serial order from the initial 0x0 reaches"),
        "{err}"
    );
}

#[test]
fn final_only_checks() {
    let l = loc(0);
    // 256 x ATOMUADD 3 from 10: 10 + 768 = 778 whatever the order.
    let adds = vec![(AtomicOp::Add, 3u64, 0u64); 256];
    assert_eq!(
        check_final_only(&l, &adds, 10, 778),
        Ok(FinalCheck::Consistent)
    );
    assert!(check_final_only(&l, &adds, 10, 775).is_err());
    // ATOMXCHG: the final value is one of the operands.
    let xchg = [(AtomicOp::Xchg, 4, 0), (AtomicOp::Xchg, 9, 0)];
    assert_eq!(
        check_final_only(&l, &xchg, 0, 9),
        Ok(FinalCheck::Consistent)
    );
    assert!(check_final_only(&l, &xchg, 0, 5).is_err());
    let cas = [(AtomicOp::CmpXchg, 4, 0)];
    assert_eq!(
        check_final_only(&l, &cas, 0, 4),
        Ok(FinalCheck::Undecidable)
    );
}

#[test]
fn fadd_orders_lie_in_the_summation_interval() {
    let l = loc(0);
    // 256 additions of 0.1f32 (0x3dcccccd) from 0: forward order gives one rounding path,
    // pairwise (tree) order another; both lie within gamma(255) * 25.6 of 25.6000003815
    // (the exact sum of the binary32 value 0.100000001490116...), about 7.8e-4.
    let tenth = 0x3dcc_cccd_u64;
    let ops = vec![(AtomicOp::FAdd, tenth, 0u64); 256];
    let forward = (0..256).fold(0f32, |a, _| a + f32::from_bits(tenth as u32));
    let mut level = vec![f32::from_bits(tenth as u32); 256];
    while level.len() > 1 {
        level = level.chunks(2).map(|p| p[0] + p[1]).collect();
    }
    assert_ne!(forward, level[0], "the two orders round differently");
    for got in [forward, level[0]] {
        assert_eq!(
            check_final_only(&l, &ops, 0, got.to_bits() as u64),
            Ok(FinalCheck::Consistent)
        );
    }
    // A lost update: the sum of 255 terms (25.5) is well outside.
    let lost = (0..255).fold(0f32, |a, _| a + f32::from_bits(tenth as u32));
    assert!(check_final_only(&l, &ops, 0, lost.to_bits() as u64).is_err());
    // Infinity only when it can arise.
    assert!(check_final_only(&l, &ops, 0, f32::INFINITY.to_bits() as u64).is_err());
    let big = [(AtomicOp::FAdd, f32::MAX.to_bits() as u64, 0u64); 2];
    assert_eq!(
        check_final_only(&l, &big, 0, f32::INFINITY.to_bits() as u64),
        Ok(FinalCheck::Consistent)
    );
}

#[test]
fn logged_fadd_is_checked_exactly() {
    // With the old values logged, ATOMFADD is as decidable as any other operation.
    let ops = contention(AtomicOp::FAdd, 4, |i| {
        ((0.1f32 * (i + 1) as f32).to_bits() as u64, 0)
    });
    let (mut recs, fin) = execute(&ops, &shuffled(ops.len(), 3));
    assert!(check(&recs, &fin).is_ok());
    recs[17].old ^= 1;
    assert!(check(&recs, &fin).is_err());
}

#[test]
fn two_atomics_per_invocation_in_program_order_are_accepted() {
    // 256 invocations, each doing the same atomic twice on its address (program order kept
    // by interleaving whole invocations' pairs in a shuffled schedule).
    for addresses in [1u64, 4, 64] {
        for (op, src) in [
            (
                AtomicOp::Add,
                (|i: u32| (i as u64 + 1, 0)) as fn(u32) -> (u64, u64),
            ),
            (AtomicOp::IMax, |i| ((i as u64 * 37) % 101, 0)),
            (AtomicOp::Xchg, |i| (i as u64 % 16, 0)),
            (AtomicOp::CmpXchg, |i| (i as u64 % 3, (i as u64 + 1) % 3)),
        ] {
            let ops: Vec<_> = contention(op, addresses, src)
                .into_iter()
                .flat_map(|o| [o, o])
                .collect();
            // Schedule: a shuffled list of invocations, each entry running that invocation's
            // next atomic (every invocation listed twice).
            let sched: Vec<usize> = shuffled(512, 11).into_iter().map(|k| k / 2).collect();
            let mut next = [0usize; 256];
            let order: Vec<usize> = sched
                .iter()
                .map(|&inv| {
                    next[inv] += 1;
                    inv * 2 + next[inv] - 1
                })
                .collect();
            let (recs, fin) = execute(&ops, &order);
            let orders = check(&recs, &fin).unwrap_or_else(|e| panic!("{op:?} x{addresses}: {e}"));
            assert_witness(&recs, &orders, &fin);
        }
    }
}

#[test]
fn a_log_in_execution_order_is_its_own_witness() {
    // 64 invocations, 4 chained ATOMUMAX each on one address, logged in the (interleaved)
    // order they ran: the log order itself is the witness returned, unchanged.
    let ops: Vec<_> = (0..64u32)
        .flat_map(|i| {
            (0..4u64).map(move |k| (loc(0), i, AtomicOp::UMax, (i as u64 * 7 + k) % 90, 0))
        })
        .collect();
    // Round-robin schedule: atomic k of every invocation, then atomic k + 1.
    let order: Vec<usize> = (0..4)
        .flat_map(|k| (0..64).map(move |i| i * 4 + k))
        .collect();
    let (recs, fin) = execute(&ops, &order);
    let logged: Vec<AtomicRecord> = order.iter().map(|&k| recs[k]).collect();
    let orders = check(&logged, &fin).unwrap();
    assert_eq!(orders[&loc(0)], (0..256).collect::<Vec<usize>>());
    assert_witness(&logged, &orders, &fin);
    // A log whose order breaks program order is not taken as a witness (here the search
    // then finds another order: the log is still serializable).
    let mut swapped = logged.clone();
    swapped.swap(0, 64);
    assert!(check(&swapped, &fin).is_ok());
}

#[test]
fn fadd_nan_payloads_are_not_compared() {
    // ATOMFADD 0 + NaN(0xffffffff), then + 1.0. The host's addition propagates the operand's
    // NaN (0xffffffff); an engine whose addition gives the default NaN 0x7fc00000 (Valhall,
    // SEMANTICS.md §3.4) found and left 0x7fc00000: still one serial order, since tgsi.rst
    // does not fix NaN payloads.
    let l = loc(0);
    let rec = |invocation, src, old| AtomicRecord {
        location: l,
        invocation,
        seq: 0,
        op: AtomicOp::FAdd,
        src,
        cmp: 0,
        old,
    };
    let recs = [rec(0, 0xffff_ffff, 0), rec(1, 0x3f80_0000, 0x7fc0_0000)];
    let fin = BTreeMap::from([(l, 0x7fc0_0000u64)]);
    let order = check(&recs, &fin).expect("NaN payloads differ only");
    assert_eq!(order[&l], [0, 1]);
    // Not for other operations: an XCHG leaving 0x7fc00000 cannot explain a record that
    // found 0xffffffff.
    let xchg = |invocation, src, old| AtomicRecord {
        op: AtomicOp::Xchg,
        ..rec(invocation, src, old)
    };
    let recs = [xchg(0, 0x7fc0_0000, 0), xchg(1, 1, 0xffff_ffff)];
    let fin = BTreeMap::from([(l, 1u64)]);
    assert!(check(&recs, &fin).is_err());
}
