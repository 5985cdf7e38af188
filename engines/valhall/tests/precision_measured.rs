//! The measured error of the valhall engine's approximate opcodes (RCP, RSQ, SQRT, DIV,
//! EX2, LG2, POW, SIN, COS) over dense input sweeps, against binary64 references (Rust's
//! `f64` operations and `libm`, each within 1 binary64 ulp), checked against the `gpu`
//! class bounds of precision.toml and printed (the figures quoted there).
//!
//! ulp(x) follows Vulkan's definition as precision.toml does: the gap between the two
//! binary32 values around the exact result.

use shaderdiff_engine::{Engine, EngineConfig, Inputs};
use shaderdiff_model::File;
use shaderdiff_model::RegKey;
use shaderdiff_valhall::engine::ValhallEngine;

const N: usize = 1 << 16;

/// Runs `op OUT[0], IN[0] (, IN[1])` on valhall over `xs` (and `ys`), returning OUT[0].x.
fn run(op: &str, xs: &[f32], ys: Option<&[f32]>) -> Vec<f32> {
    let two = ys.is_some();
    let text = format!(
        "VERT\nDCL IN[0..1]\nDCL OUT[0]\n{op} OUT[0], IN[0]{}\nEND\n",
        if two { ", IN[1]" } else { "" }
    );
    let p = shaderdiff_tgsi::parse(&text, "p.tgsi").expect("parses");
    let mut inputs = Inputs {
        invocations: xs.len(),
        ..Inputs::default()
    };
    let col = |v: &[f32]| v.iter().map(|x| [x.to_bits(); 4]).collect::<Vec<_>>();
    inputs
        .registers
        .insert(RegKey::new(File::Input, 0), col(xs));
    inputs
        .registers
        .insert(RegKey::new(File::Input, 1), col(ys.unwrap_or(xs)));
    let out = ValhallEngine::new(&EngineConfig::default())
        .execute(&p, &inputs)
        .expect("runs");
    out.registers[&RegKey::new(File::Output, 0)]
        .iter()
        .map(|v| f32::from_bits(v[0]))
        .collect()
}

/// Vulkan ulp of the exact value `e` (binary64) in binary32.
fn ulp(e: f64) -> f64 {
    let a = e.abs();
    if a < f32::MIN_POSITIVE as f64 {
        return f32::from_bits(1) as f64;
    }
    let lo = a as f32;
    let lo = if lo as f64 > a {
        f32::from_bits(lo.to_bits() - 1)
    } else {
        lo
    };
    f32::from_bits(lo.to_bits() + 1) as f64 - lo as f64
}

/// Worst error in ulps (and the input) of `got` against `exact`, over finite exact results.
fn worst_ulps(xs: &[f32], got: &[f32], exact: impl Fn(f32) -> f64) -> (f64, f32) {
    let mut worst = (0.0, 0.0f32);
    for (&x, &g) in xs.iter().zip(got) {
        let e = exact(x);
        if !e.is_finite() || e.abs() > f32::MAX as f64 {
            continue;
        }
        let err = (g as f64 - e).abs() / ulp(e);
        if err.is_nan() || err > worst.0 {
            worst = (err, x);
        }
    }
    worst
}

/// `n` values spread over [lo, hi] (log-spaced when both ends are positive).
fn sweep(lo: f32, hi: f32, n: usize, log: bool) -> Vec<f32> {
    (0..n)
        .map(|i| {
            let t = i as f64 / (n - 1) as f64;
            if log {
                ((lo as f64).ln() + t * ((hi as f64).ln() - (lo as f64).ln())).exp() as f32
            } else {
                (lo as f64 + t * (hi as f64 - lo as f64)) as f32
            }
        })
        .collect()
}

#[test]
fn approximate_opcodes_within_the_gpu_bounds() {
    let pos = sweep(f32::MIN_POSITIVE, 1e37, N, true);
    let mut report = Vec::new();
    let check = |report: &mut Vec<String>, name: &str, worst: (f64, f32), bound: f64| {
        report.push(format!(
            "{name}: worst {:.3} ulp at x = {:e} (bound {bound})",
            worst.0, worst.1
        ));
        assert!(
            worst.0 <= bound,
            "{name}: {:.3} ulp at {:e} > {bound}",
            worst.0,
            worst.1
        );
    };
    // precision.toml RCP, gpu: 2.5 ulp for |x| in [2^-126, 2^126].
    let got = run("RCP", &pos, None);
    check(
        &mut report,
        "RCP",
        worst_ulps(&pos, &got, |x| 1.0 / x as f64),
        2.5,
    );
    // RSQ, gpu: 2 ulp.
    let got = run("RSQ", &pos, None);
    check(
        &mut report,
        "RSQ",
        worst_ulps(&pos, &got, |x| 1.0 / (x as f64).sqrt()),
        2.0,
    );
    // SQRT, gpu: inherited from 1/rsq(x): 2 ulp of rsq then a correctly rounded reciprocal.
    let got = run("SQRT", &pos, None);
    check(
        &mut report,
        "SQRT",
        worst_ulps(&pos, &got, |x| (x as f64).sqrt()),
        3.0,
    );
    // DIV, gpu: 2.5 ulp for |y| in [2^-126, 2^126].
    let ys: Vec<f32> = pos.iter().rev().copied().collect();
    let xs = sweep(-1e30, 1e30, N, false);
    let got = run("DIV", &xs, Some(&ys));
    let q: Vec<f64> = xs
        .iter()
        .zip(&ys)
        .map(|(&x, &y)| x as f64 / y as f64)
        .collect();
    let mut w = (0.0, 0.0f32);
    for ((&x, &g), &e) in xs.iter().zip(&got).zip(&q) {
        if e.abs() < f32::MAX as f64 && e.abs() > f32::MIN_POSITIVE as f64 {
            let err = (g as f64 - e).abs() / ulp(e);
            if err > w.0 {
                w = (err, x);
            }
        }
    }
    check(&mut report, "DIV", w, 2.5);
    // EX2, gpu: 3 + 2|x| ulp.
    let xs = sweep(-126.0, 127.9, N, false);
    let got = run("EX2", &xs, None);
    let mut w = (0.0, 0.0f32);
    for (&x, &g) in xs.iter().zip(&got) {
        let e = (x as f64).exp2();
        let err = (g as f64 - e).abs() / ulp(e) / (3.0 + 2.0 * (x as f64).abs());
        if err > w.0 {
            w = (err, x);
        }
    }
    let raw = worst_ulps(&xs, &got, |x| (x as f64).exp2());
    report.push(format!("EX2: worst {:.3} ulp at x = {:e}", raw.0, raw.1));
    check(&mut report, "EX2 (fraction of the 3+2|x| bound)", w, 1.0);
    // LG2, gpu: absolute 2^-21 inside [0.5, 2], 3 ulp outside.
    let inside = sweep(0.5, 2.0, N, false);
    let got = run("LG2", &inside, None);
    let abs = inside
        .iter()
        .zip(&got)
        .map(|(&x, &g)| ((g as f64 - (x as f64).log2()).abs(), x))
        .fold((0.0, 0.0f32), |a, b| if b.0 > a.0 { b } else { a });
    report.push(format!(
        "LG2 in [0.5, 2]: worst absolute {:e} at x = {:e} (bound 2^-21 = {:e})",
        abs.0,
        abs.1,
        2f64.powi(-21)
    ));
    assert!(abs.0 <= 2f64.powi(-21));
    let outside: Vec<f32> = pos
        .iter()
        .copied()
        .filter(|&x| !(0.5..=2.0).contains(&x))
        .collect();
    let got = run("LG2", &outside, None);
    check(
        &mut report,
        "LG2 outside [0.5, 2]",
        worst_ulps(&outside, &got, |x| (x as f64).log2()),
        3.0,
    );
    // SIN, COS, gpu: absolute 2^-11 inside [-pi, pi].
    let xs = sweep(-std::f32::consts::PI, std::f32::consts::PI, N, false);
    for (op, f) in [("SIN", f64::sin as fn(f64) -> f64), ("COS", f64::cos)] {
        let got = run(op, &xs, None);
        let abs = xs
            .iter()
            .zip(&got)
            .map(|(&x, &g)| ((g as f64 - f(x as f64)).abs(), x))
            .fold((0.0, 0.0f32), |a, b| if b.0 > a.0 { b } else { a });
        report.push(format!(
            "{op} in [-pi, pi]: worst absolute {:e} at x = {:e} (bound 2^-11 = {:e})",
            abs.0,
            abs.1,
            2f64.powi(-11)
        ));
        assert!(abs.0 <= 2f64.powi(-11), "{op}");
    }
    for line in &report {
        println!("{line}");
    }
}
