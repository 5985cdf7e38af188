//! Measures llvmpipe's approximate ARB operations (RCP, RSQ, EX2, LG2, POW, SIN, COS)
//! against exact references and checks the measurements against the `mesa-llvmpipe`
//! class of the precision contract (`oracle/precision.toml`); the figures printed here
//! are the tables of `oracle/precision/mesa-llvmpipe.md`.
//!
//! Each operation runs over 2^20 inputs (two dense sweeps of 2^19, four per invocation, so
//! 65,536-invocation draws). References are host binary64 (`1/x`, `1/sqrt(x)` with one
//! rounding each, `libm` exp2/log2/pow/sin/cos, all within 1 binary64 ulp, i.e. 2^-29
//! binary32 ulp): far below the errors measured. ULP follows Vulkan's definition (the gap
//! between the two binary32 values around the exact result; for results below 2^-126 the
//! denormal gap 2^-149).
//!
//! Run with `--nocapture` to see the table.

mod common;

use common::{engine, inputs, lower, out};
use shaderdiff_compare::output::{compare, CompareOptions};
use shaderdiff_engine::Engine;
use shaderdiff_mesa::MesaEngine;
use shaderdiff_oracles::interp::run_with_intervals;
use shaderdiff_oracles::precision::PrecisionContract;
use shaderdiff_oracles::InterpConfig;

/// Values per operation.
const N: usize = 1 << 20;

/// Vulkan ULP of an exact (binary64) result, in binary32.
fn ulp32(exact: f64) -> f64 {
    let a = exact.abs();
    if a < f64::from(f32::MIN_POSITIVE) {
        return 2f64.powi(-149);
    }
    let e = a.log2().floor() as i32;
    2f64.powi(e - 23)
}

/// Worst errors of one sweep.
#[derive(Debug, Default, Clone, Copy)]
struct Worst {
    ulp: f64,
    ulp_at: (f32, f32),
    abs: f64,
    abs_at: (f32, f32),
}

impl Worst {
    fn add(&mut self, x: f32, y: f32, got: f32, exact: f64) {
        // Results beyond the largest float, and below the smallest normal (llvmpipe
        // flushes them to zero, the class's denormal policy), are not ULP measurements.
        if !exact.is_finite()
            || exact.abs() > f64::from(f32::MAX)
            || exact.abs() < f64::from(f32::MIN_POSITIVE)
        {
            return;
        }
        let err = (f64::from(got) - exact).abs();
        let u = if got.is_finite() {
            err / ulp32(exact)
        } else {
            f64::INFINITY
        };
        if u > self.ulp || (u.is_nan() && !self.ulp.is_nan()) {
            self.ulp = u;
            self.ulp_at = (x, y);
        }
        let a = if got.is_finite() { err } else { f64::INFINITY };
        if a > self.abs {
            self.abs = a;
            self.abs_at = (x, y);
        }
    }
}

/// Runs `op` (scalar, one or two operands) on `xs` (and `ys`), four values per
/// invocation, and checks mesa's results with the comparator against the oracle's
/// acceptance intervals for class `mesa-llvmpipe` (what `diff --backends interp,mesa`
/// does). Returns mesa's results and the number of channels the comparator rejected.
fn run_op(e: &MesaEngine, op: &str, xs: &[f32], ys: Option<&[f32]>) -> (Vec<f32>, usize) {
    let two = ys.is_some();
    let mut text = String::from("!!ARBfp1.0\nTEMP r;\n");
    for c in ["x", "y", "z", "w"] {
        if two {
            text += &format!("{op} r.{c}, fragment.texcoord[0].{c}, fragment.texcoord[1].{c};\n");
        } else {
            text += &format!("{op} r.{c}, fragment.texcoord[0].{c};\n");
        }
    }
    text += "MOV result.color, r;\nEND\n";
    let l = lower(&text);
    let vec4s =
        |v: &[f32]| -> Vec<[f32; 4]> { v.chunks(4).map(|c| [c[0], c[1], c[2], c[3]]).collect() };
    let mut per = vec![("fragment.texcoord[0]", vec4s(xs))];
    if let Some(ys) = ys {
        per.push(("fragment.texcoord[1]", vec4s(ys)));
    }
    let i = inputs(&l, xs.len() / 4, &per, &[]);
    let o = e.execute(&l.program, &i).expect("runs");
    let contract = PrecisionContract::builtin();
    let class = contract.class_of_engine("mesa").expect("mesa has a class");
    let oracle = run_with_intervals(&l.program, &i, &InterpConfig::default(), contract, class)
        .expect("oracle runs");
    let cmp = compare(
        &l.program,
        &oracle,
        "mesa",
        &o,
        contract,
        &CompareOptions::default(),
    )
    .expect("comparable");
    if let Some(m) = cmp.mismatches.first() {
        eprintln!("{op}: first rejected channel: {m:?}");
    }
    (
        out(&l, &o, "result.color").into_iter().flatten().collect(),
        cmp.mismatches.len(),
    )
}

/// `n` values from `lo` to `hi` (binary32 bit patterns of the same sign, evenly spaced).
fn bit_sweep(lo: f32, hi: f32, n: usize) -> Vec<f32> {
    let (a, b) = (lo.to_bits() as u64, hi.to_bits() as u64);
    (0..n as u64)
        .map(|k| f32::from_bits((a + (b - a) * k / n as u64) as u32))
        .collect()
}

/// `n` evenly spaced values from `lo` to `hi`.
fn lin_sweep(lo: f64, hi: f64, n: usize) -> Vec<f32> {
    (0..n)
        .map(|k| (lo + (hi - lo) * k as f64 / n as f64) as f32)
        .collect()
}

/// One measured sweep: name, domain description, worst errors, channels the comparator
/// rejected.
type Row = (String, String, Worst, usize);

fn measure_unary(
    e: &MesaEngine,
    op: &str,
    sweeps: &[(&str, Vec<f32>)],
    exact: fn(f64) -> f64,
) -> Vec<Row> {
    sweeps
        .iter()
        .map(|(domain, xs)| {
            let (got, rejected) = run_op(e, op, xs, None);
            let mut w = Worst::default();
            for (&x, &g) in xs.iter().zip(&got) {
                w.add(x, 0.0, g, exact(f64::from(x)));
            }
            (op.to_string(), domain.to_string(), w, rejected)
        })
        .collect()
}

fn print(rows: &[Row]) {
    println!("| op | inputs | worst ulp | at x (bits) | worst abs | at x (bits) | outside the contract |");
    println!("|---|---|---|---|---|---|---|");
    for (op, domain, w, rejected) in rows {
        let at = |(x, y): (f32, f32)| {
            if op == "POW" {
                format!(
                    "{x:e}, {y:e} (0x{:08x}, 0x{:08x})",
                    x.to_bits(),
                    y.to_bits()
                )
            } else {
                format!("{x:e} (0x{:08x})", x.to_bits())
            }
        };
        println!(
            "| {op} | {domain} | {:.3} | {} | {:.3e} | {} | {rejected} |",
            w.ulp,
            at(w.ulp_at),
            w.abs,
            at(w.abs_at)
        );
    }
}

#[test]
fn llvmpipe_transcendentals_within_the_measured_contract() {
    let Some(e) = engine() else { return };
    let h = N / 2;
    let mut rows = Vec::new();
    rows.extend(measure_unary(
        &e,
        "RCP",
        &[
            (
                "normal x > 0, every exponent",
                bit_sweep(f32::MIN_POSITIVE, f32::MAX, h),
            ),
            ("[1, 2) dense", bit_sweep(1.0, 2.0, h)),
        ],
        |x| 1.0 / x,
    ));
    rows.extend(measure_unary(
        &e,
        "RSQ",
        &[
            (
                "normal x > 0, every exponent",
                bit_sweep(f32::MIN_POSITIVE, f32::MAX, h),
            ),
            ("[1, 4) dense", bit_sweep(1.0, 4.0, h)),
        ],
        |x| 1.0 / x.sqrt(),
    ));
    rows.extend(measure_unary(
        &e,
        "EX2",
        &[
            ("[-126, 127]", lin_sweep(-126.0, 127.0, h)),
            ("[-1, 1] dense", lin_sweep(-1.0, 1.0, h)),
        ],
        libm::exp2,
    ));
    rows.extend(measure_unary(
        &e,
        "LG2",
        &[
            ("normal x in (0, 0.5) and [2, max]", {
                let mut v = bit_sweep(f32::MIN_POSITIVE, 0.5, h / 2);
                v.extend(bit_sweep(2.0, f32::MAX, h / 2));
                v
            }),
            ("[0.5, 2) dense", bit_sweep(0.5, 2.0, h)),
        ],
        libm::log2,
    ));
    let pi = std::f64::consts::PI;
    rows.extend(measure_unary(
        &e,
        "SIN",
        &[
            ("[-pi, pi]", lin_sweep(-pi, pi, h)),
            ("[-100 pi, 100 pi]", lin_sweep(-100.0 * pi, 100.0 * pi, h)),
        ],
        libm::sin,
    ));
    rows.extend(measure_unary(
        &e,
        "COS",
        &[
            ("[-pi, pi]", lin_sweep(-pi, pi, h)),
            ("[-100 pi, 100 pi]", lin_sweep(-100.0 * pi, 100.0 * pi, h)),
        ],
        libm::cos,
    ));
    // POW: 1024 bases (bit sweep over [2^-8, 2^8]) x 1024 exponents in [-10, 10].
    let bases = bit_sweep(1.0 / 256.0, 256.0, 1024);
    let exps = lin_sweep(-10.0, 10.0, 1024);
    let (mut xs, mut ys) = (Vec::with_capacity(N), Vec::with_capacity(N));
    for &x in &bases {
        for &y in &exps {
            xs.push(x);
            ys.push(y);
        }
    }
    let (got, rejected) = run_op(&e, "POW", &xs, Some(&ys));
    let mut w = Worst::default();
    for ((&x, &y), &g) in xs.iter().zip(&ys).zip(&got) {
        w.add(x, y, g, libm::pow(f64::from(x), f64::from(y)));
    }
    rows.push((
        "POW".into(),
        "x in [2^-8, 2^8], y in [-10, 10]".into(),
        w,
        rejected,
    ));
    print(&rows);

    // Every result lies in the oracle's acceptance interval for class mesa-llvmpipe
    // (oracle/precision.toml, bounds taken from these measurements).
    for (op, domain, _, rejected) in &rows {
        assert_eq!(
            *rejected, 0,
            "{op} on {domain}: results outside the contract"
        );
    }
}

#[test]
fn llvmpipe_flushes_denormals() {
    let Some(e) = engine() else { return };
    // 2^-140 is a binary32 denormal; 2^-70 * 2^-70 = 2^-140 exactly (IEEE).
    let d = f32::from_bits(0x0000_0200);
    assert_eq!(f64::from(d), 2f64.powi(-140));
    let l = lower(
        "!!ARBfp1.0\nPARAM k = program.local[0];\nTEMP r;\nMOV r.x, fragment.texcoord[0].x;\nADD r.y, fragment.texcoord[0].x, 0;\nMUL r.z, k.x, k.x;\nMUL r.w, k.y, 1;\nMOV result.color, r;\nEND\n",
    );
    let i = inputs(
        &l,
        4,
        &[("fragment.texcoord[0]", vec![[d, 0.0, 0.0, 0.0]; 4])],
        &[("program.local[0]", [2f64.powi(-70) as f32, d, 0.0, 0.0])],
    );
    let o = e.execute(&l.program, &i).unwrap();
    let r = out(&l, &o, "result.color")[0];
    println!(
        "denormal 2^-140: MOV of a texcoord {:e}, ADD 0 {:e}, MUL 2^-70*2^-70 {:e}, MUL of a local denormal by 1 {:e}",
        r[0], r[1], r[2], r[3]
    );
    // What oracle/precision/mesa-llvmpipe.md records (class denormals = "flush_allowed"):
    // a denormal fragment input arrives as 0 (attribute setup flushes it), and arithmetic
    // producing a denormal gives 0 (llvmpipe runs shaders with x86 FTZ|DAZ). The product
    // by 1 keeps it: NIR folds `x * 1.0` to `x`, so no arithmetic runs.
    assert_eq!(r[0].to_bits(), 0, "a denormal texcoord is flushed");
    assert_eq!(r[1].to_bits(), 0, "denormal + 0 is flushed");
    assert_eq!(r[2].to_bits(), 0, "a denormal product is flushed");
    assert_eq!(r[3].to_bits(), d.to_bits(), "x * 1.0 is folded away");
}
