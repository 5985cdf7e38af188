//! The soft-fp64 sequences compiled alone (operands loaded from a per-thread record,
//! result stored back), run on the simulator over many threads, and compared bit for bit
//! with the host's IEEE binary64 arithmetic (`+`, `*`, `mul_add`, `/`, `sqrt`); NaN
//! results only need to be NaN on both sides (precision.toml `nan = "any"`).

use super::super::abi::{RECORD_BASE, RECORD_REG};
use super::super::vcode::{VCode, VDst, VSrc, Val};
use super::super::{finish, regalloc};
use super::{D, E};
use crate::sim::{Launch, Memory, Shader};

/// The operation under test.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Op {
    Add,
    Mul,
    Fma,
    Div,
    Sqrt,
}

impl Op {
    /// The host's IEEE binary64 result (the independent reference).
    pub(crate) fn host(self, a: f64, b: f64, c: f64) -> f64 {
        match self {
            Op::Add => a + b,
            Op::Mul => a * b,
            Op::Fma => a.mul_add(b, c),
            Op::Div => a / b,
            Op::Sqrt => a.sqrt(),
        }
    }
}

/// Bytes of one thread's record: a, b, c, result (8 bytes each), then spill slots.
const RECORD: u32 = 32;

fn load(code: &mut VCode, off: u32) -> VSrc {
    let r = code.vreg();
    code.ins(
        "LOAD.i32",
        VDst::None,
        &[VSrc::new(Val::P(RECORD_REG))],
        &[("unsigned", ""), ("slot", "slot0")],
    );
    let last = code.last_mut().expect("just emitted");
    last.staging = Some(Val::V(r));
    last.imms[0] = i64::from(off);
    VSrc::v(r)
}

fn store(code: &mut VCode, off: u32, v: VSrc) {
    code.ins(
        "STORE.i32",
        VDst::None,
        &[VSrc::new(Val::P(RECORD_REG))],
        &[("slot", "slot0")],
    );
    let last = code.last_mut().expect("just emitted");
    last.staging = Some(v.val);
    last.imms[0] = i64::from(off);
}

/// A compiled test kernel.
pub(crate) struct Kernel {
    shader: Shader,
    uniforms: Vec<u32>,
    stride: usize,
}

/// Compiles the kernel `record.result = op(record.a, record.b, record.c)`.
pub(crate) fn kernel(op: Op) -> Kernel {
    let mut code = VCode::default();
    let operand = |code: &mut VCode, k: u32| D {
        lo: load(code, 8 * k),
        hi: load(code, 8 * k + 4),
    };
    let a = operand(&mut code, 0);
    let b = operand(&mut code, 1);
    let c = operand(&mut code, 2);
    let r = {
        let mut e = E { code: &mut code };
        match op {
            Op::Add => e.dadd(a, b),
            Op::Mul => e.dmul(a, b),
            Op::Fma => e.dfma(a, b, c),
            Op::Div => e.ddiv(a, b),
            Op::Sqrt => e.dsqrt(a),
        }
    };
    let (lo, hi) = (
        code.op("MOV.i32", &[r.lo], &[]),
        code.op("MOV.i32", &[r.hi], &[]),
    );
    store(&mut code, 24, lo);
    store(&mut code, 28, hi);
    code.ins("NOP", VDst::None, &[], &[]);
    code.last_mut().expect("just emitted").flow = crate::compile::vcode::Flow::End;
    let labels = code.labels;
    let uniforms = code.consts.clone();
    assert!(uniforms.len() <= 256, "{} uniform words", uniforms.len());
    let alloc = regalloc::allocate(code);
    let stride = (RECORD + 4 * alloc.spill_slots).next_multiple_of(16) as usize;
    let fin = finish::finish(alloc, labels, RECORD, None).expect("encodes");
    let shader = Shader::from_words(&fin.words).expect("the simulator loads it");
    Kernel {
        shader,
        uniforms,
        stride,
    }
}

impl Kernel {
    /// Instructions in the kernel.
    pub(crate) fn len(&self) -> usize {
        self.shader.len()
    }

    /// Runs one thread per operand triple; returns the results' bits.
    pub(crate) fn run(&self, operands: &[[u64; 3]]) -> Vec<u64> {
        let n = operands.len();
        let mut rec = vec![0u8; self.stride * n];
        for (t, ops) in operands.iter().enumerate() {
            for (k, v) in ops.iter().enumerate() {
                let at = t * self.stride + 8 * k;
                rec[at..at + 8].copy_from_slice(&v.to_le_bytes());
            }
        }
        let mut memory = Memory::new();
        memory.map(RECORD_BASE, rec);
        let stride = self.stride;
        let init = move |t: usize, regs: &mut [u32; crate::sim::NUM_REGS]| {
            let addr = RECORD_BASE + (t * stride) as u64;
            regs[RECORD_REG as usize] = addr as u32;
            regs[RECORD_REG as usize + 1] = (addr >> 32) as u32;
        };
        let launch = Launch {
            threads: n,
            uniforms: &self.uniforms,
            init: &init,
            step_limit: u64::MAX / 4,
            step_weights: None,
        };
        self.shader.run(&launch, &mut memory).expect("runs");
        let rec = memory.region(RECORD_BASE).expect("mapped");
        (0..n)
            .map(|t| {
                let at = t * stride + 24;
                u64::from_le_bytes(rec[at..at + 8].try_into().expect("8 bytes"))
            })
            .collect()
    }
}

/// SplitMix64: a small deterministic generator for operands.
pub(crate) struct Rng(pub u64);

impl Rng {
    pub(crate) fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// Edge values: zeros, infinities, quiet and signalling NaNs, subnormal and normal
/// extremes, small integers.
const EDGES: &[u64] = &[
    0x0000_0000_0000_0000,
    0x8000_0000_0000_0000,
    0x7ff0_0000_0000_0000,
    0xfff0_0000_0000_0000,
    0x7ff8_0000_0000_0000,
    0xfff8_0000_0000_0001,
    0x7ff0_0000_0000_0001,
    0x7ff4_0000_0000_0000,
    0x0000_0000_0000_0001,
    0x8000_0000_0000_0001,
    0x000f_ffff_ffff_ffff,
    0x0010_0000_0000_0000,
    0x7fef_ffff_ffff_ffff,
    0xffef_ffff_ffff_ffff,
    0x3ff0_0000_0000_0000,
    0xbff0_0000_0000_0000,
    0x3ff0_0000_0000_0001,
    0x3fef_ffff_ffff_ffff,
    0x4000_0000_0000_0000,
    0x4008_0000_0000_0000,
    0x3fe0_0000_0000_0000,
    0x3ca0_0000_0000_0000,
];

/// One operand: random bits, an edge value, a subnormal, an extreme exponent, a value near
/// `near` (cancellation, ties, results at the edge of the range), or a short significand
/// (exact results and exact ties).
pub(crate) fn operand(rng: &mut Rng, near: u64) -> u64 {
    let sign = rng.next() & (1 << 63);
    let mant = rng.next() & ((1 << 52) - 1);
    match rng.below(16) {
        0..=4 => rng.next(),
        5 => EDGES[rng.below(EDGES.len() as u64) as usize],
        6 => sign | (mant >> rng.below(52)),
        7 => sign | (rng.below(64) + 1) << 52 | mant,
        8 => sign | (2046 - rng.below(64)) << 52 | mant,
        9 | 10 => {
            // Same exponent as `near` give or take a few, either sign.
            let e = ((near >> 52) & 0x7ff) as i64 + rng.below(7) as i64 - 3;
            sign | (e.clamp(0, 2046) as u64) << 52 | mant
        }
        11 | 12 => {
            // `near` moved by a few units in the last place, maybe negated.
            let d = rng.below(9).wrapping_sub(4);
            (near.wrapping_add(d)) ^ (rng.below(2) << 63)
        }
        13 => {
            // The exponent of `near` minus 52–54: sums round at or near a tie.
            let e = ((near >> 52) & 0x7ff) as i64 - 52 - rng.below(3) as i64;
            let m = if rng.below(2) == 0 { 0 } else { mant };
            sign | (e.clamp(0, 2046) as u64) << 52 | m
        }
        _ => {
            // A short significand: k random bits, scaled by a power of two.
            let k = rng.below(54) + 1;
            let v = (rng.next() >> (64 - k)) as f64;
            let s = 2f64.powi(rng.below(121) as i32 - 60);
            (v * s).to_bits() ^ sign
        }
    }
}

/// `n` operand triples for `op`: a random first operand, the others drawn near it, and for
/// fma an addend near `−a·b` half the time (cancellation).
pub(crate) fn operands(op: Op, n: usize, seed: u64) -> Vec<[u64; 3]> {
    let mut rng = Rng(seed);
    (0..n)
        .map(|_| {
            let near = rng.next();
            let a = operand(&mut rng, near);
            let b = operand(&mut rng, a);
            let p = (-(f64::from_bits(a) * f64::from_bits(b))).to_bits();
            let c = if op == Op::Fma && rng.below(2) == 0 {
                operand(&mut rng, p)
            } else {
                operand(&mut rng, a)
            };
            [a, b, c]
        })
        .collect()
}

/// Expected results per class: zero, subnormal, normal, infinite, NaN.
pub(crate) type Classes = [usize; 5];

/// Runs `op` over `n` operand triples (in runs of at most 65,536 threads) and returns the
/// mismatches: (a, b, c, expected, got).
pub(crate) fn mismatches(op: Op, n: usize, seed: u64) -> Vec<[u64; 5]> {
    mismatches_and_classes(op, n, seed).0
}

/// [`mismatches`], plus how many expected results fell in each [`Classes`] class.
pub(crate) fn mismatches_and_classes(op: Op, n: usize, seed: u64) -> (Vec<[u64; 5]>, Classes) {
    let k = kernel(op);
    let mut classes = [0usize; 5];
    let mut bad = Vec::new();
    let mut done = 0;
    let mut chunk = 0;
    while done < n {
        let m = (n - done).min(65_536);
        let ops = operands(op, m, seed.wrapping_add(chunk));
        let got = k.run(&ops);
        for (o, g) in ops.iter().zip(got) {
            let [a, b, c] = o.map(f64::from_bits);
            let want = op.host(a, b, c);
            classes[match want.classify() {
                std::num::FpCategory::Zero => 0,
                std::num::FpCategory::Subnormal => 1,
                std::num::FpCategory::Normal => 2,
                std::num::FpCategory::Infinite => 3,
                std::num::FpCategory::Nan => 4,
            }] += 1;
            let same = if want.is_nan() {
                f64::from_bits(g).is_nan()
            } else {
                want.to_bits() == g
            };
            if !same {
                bad.push([o[0], o[1], o[2], want.to_bits(), g]);
            }
        }
        done += m;
        chunk += 1;
    }
    (bad, classes)
}

fn check(op: Op, n: usize) {
    let bad = mismatches(op, n, 0x5eed_0000 + op as u64);
    assert!(
        bad.is_empty(),
        "{op:?}: {} of {n} differ, first: {:#018x?}",
        bad.len(),
        &bad[..bad.len().min(8)]
    );
}

#[test]
fn add_matches_host_on_10000_operand_pairs() {
    check(Op::Add, 10_000);
}

#[test]
fn mul_matches_host_on_10000_operand_pairs() {
    check(Op::Mul, 10_000);
}

#[test]
fn fma_matches_host_on_10000_operand_triples() {
    check(Op::Fma, 10_000);
}

#[test]
fn div_matches_host_on_10000_operand_pairs() {
    check(Op::Div, 10_000);
}

#[test]
fn sqrt_matches_host_on_10000_operands() {
    check(Op::Sqrt, 10_000);
}

/// Runs each (operation, operands, expected bits) case.
fn check_cases(cases: &[(Op, [u64; 3], u64)]) {
    for &(op, ops, want) in cases {
        let got = kernel(op).run(&[ops])[0];
        assert_eq!(got, want, "{op:?} {ops:#018x?}");
    }
}

/// Hand-checked binary64 results (IEEE 754-2008 §4.3.1 ties to even, §6.3 zero signs,
/// §7.5 subnormals): 0.1 + 0.2, a tie rounded to even, −0 + +0, 1/3, √2, the smallest
/// subnormal halved (a tie to even: 0), an overflowing product.
#[test]
fn hand_checked_values() {
    let cases: &[(Op, [u64; 3], u64)] = &[
        (
            Op::Add,
            [0x3fb9_9999_9999_999a, 0x3fc9_9999_9999_999a, 0],
            0x3fd3_3333_3333_3334,
        ),
        // 1 + 2^-53 is a tie between 1 and 1 + 2^-52: the even one is 1.
        (
            Op::Add,
            [0x3ff0_0000_0000_0000, 0x3ca0_0000_0000_0000, 0],
            0x3ff0_0000_0000_0000,
        ),
        // (1 + 2^-52) + 2^-53 is a tie: rounds up to 1 + 2^-51.
        (
            Op::Add,
            [0x3ff0_0000_0000_0001, 0x3ca0_0000_0000_0000, 0],
            0x3ff0_0000_0000_0002,
        ),
        (
            Op::Add,
            [0x8000_0000_0000_0000, 0x0000_0000_0000_0000, 0],
            0x0000_0000_0000_0000,
        ),
        (
            Op::Add,
            [0x8000_0000_0000_0000, 0x8000_0000_0000_0000, 0],
            0x8000_0000_0000_0000,
        ),
        (
            Op::Div,
            [0x3ff0_0000_0000_0000, 0x4008_0000_0000_0000, 0],
            0x3fd5_5555_5555_5555,
        ),
        (
            Op::Sqrt,
            [0x4000_0000_0000_0000, 0, 0],
            0x3ff6_a09e_667f_3bcd,
        ),
        // 2^-1074 · 0.5 = 2^-1075: a tie between 0 and 2^-1074, to even 0.
        (
            Op::Mul,
            [0x0000_0000_0000_0001, 0x3fe0_0000_0000_0000, 0],
            0,
        ),
        // 2^-1074 · 1.5: rounds to 2^-1073 (tie between 1 and 2 units, to even 2).
        (
            Op::Mul,
            [0x0000_0000_0000_0001, 0x3ff8_0000_0000_0000, 0],
            2,
        ),
        (
            Op::Mul,
            [0x7fef_ffff_ffff_ffff, 0x4000_0000_0000_0000, 0],
            0x7ff0_0000_0000_0000,
        ),
        (
            Op::Fma,
            [
                0x3ff0_0000_0000_0001,
                0x3ff0_0000_0000_0001,
                0xbff0_0000_0000_0002,
            ],
            0x3970_0000_0000_0000,
        ),
    ];
    check_cases(cases);
}

/// NaN results: the first NaN operand quieted; invalid operations the default NaN.
#[test]
fn nan_results() {
    let snan = 0x7ff0_0000_0000_0001;
    let qnan = 0xfff8_0000_0000_0002;
    let inf = 0x7ff0_0000_0000_0000;
    let ninf = 0xfff0_0000_0000_0000;
    let one = 0x3ff0_0000_0000_0000;
    let cases: &[(Op, [u64; 3], u64)] = &[
        (Op::Add, [snan, qnan, 0], 0x7ff8_0000_0000_0001),
        (Op::Add, [one, qnan, 0], qnan),
        (Op::Add, [inf, ninf, 0], 0x7ff8_0000_0000_0000),
        (Op::Mul, [inf, 0, 0], 0x7ff8_0000_0000_0000),
        (Op::Fma, [one, one, snan], 0x7ff8_0000_0000_0001),
        (Op::Div, [0, 0, 0], 0x7ff8_0000_0000_0000),
        (Op::Sqrt, [one | 1 << 63, 0, 0], 0x7ff8_0000_0000_0000),
    ];
    check_cases(cases);
}

/// The 1,000,000-operand run per operation; prints the figures. Run with
/// `cargo test --release -p shaderdiff-valhall softfp64 -- --ignored --nocapture`.
#[test]
#[ignore = "long: 5 × 1,000,000 simulated operations"]
fn million_operands_per_operation() {
    for op in [Op::Add, Op::Mul, Op::Fma, Op::Div, Op::Sqrt] {
        let start = std::time::Instant::now();
        let (bad, c) = mismatches_and_classes(op, 1_000_000, 0x1_0000_0000 + op as u64);
        println!(
            "soft-fp64 {op:?}: {} instructions, 1000000 operand sets, {} differ from host IEEE \
             binary64 ({:.1} s; results: {} zero, {} subnormal, {} normal, {} infinite, {} NaN)",
            kernel(op).len(),
            bad.len(),
            start.elapsed().as_secs_f64(),
            c[0],
            c[1],
            c[2],
            c[3],
            c[4]
        );
        assert!(
            bad.is_empty(),
            "{op:?}: first {:#018x?}",
            &bad[..bad.len().min(8)]
        );
    }
}

/// A dead soft-fp64 result goes entirely: dead-code elimination removes whole chains (the
/// 900-instruction square root leaves only its operand loads' consumers, i.e. nothing but
/// the program's own stores and end).
#[test]
fn dead_sequences_are_removed_whole() {
    let mut code = VCode::default();
    let x = D {
        lo: load(&mut code, 0),
        hi: load(&mut code, 4),
    };
    let _ = E { code: &mut code }.dsqrt(x);
    let kept = load(&mut code, 8);
    store(&mut code, 24, kept);
    code.ins("NOP", VDst::None, &[], &[]);
    let alloc = regalloc::allocate(code);
    // The instructions kept: the prologue's and the body's not gone.
    let body = alloc
        .body
        .iter()
        .zip(&alloc.gone)
        .filter(|&(_, &gone)| !gone);
    let n = (alloc.prologue.iter())
        .chain(body.map(|(it, _)| it))
        .filter(|it| matches!(it, super::super::vcode::Item::Ins(_)))
        .count();
    assert_eq!(n, 3, "LOAD, STORE, NOP");
}
