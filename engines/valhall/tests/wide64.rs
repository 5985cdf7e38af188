//! The 64-bit TGSI opcodes (tgsi.rst "Double ISA", "64-bit Integer ISA") on the valhall
//! engine: small programs over many invocations, expected values from the host's IEEE
//! binary64 and 64-bit integer arithmetic (never from an engine). A 64-bit value is the
//! channel pair xy or zw, low word first; NaN results only need to be NaN
//! (precision.toml `nan = "any"`).
//!
//! The engine builds the program's `Shape` with the oracle's decoder, which takes the 64-bit
//! opcodes since the oracle implements them.

// Lane loops index the input and output rows in lockstep; indices read better.
#![allow(clippy::needless_range_loop, clippy::type_complexity)]

use shaderdiff_engine::{Engine, EngineConfig, Inputs};
use shaderdiff_model::File;
use shaderdiff_model::RegKey;
use shaderdiff_valhall::engine::ValhallEngine;

/// Runs `VERT; DCL IN[0..2]; DCL OUT[0]; <line>; END` with one invocation per row of
/// `rows` (IN[0], IN[1], IN[2]); returns OUT[0] per invocation.
fn run_with(line: &str, rows: &[[[u32; 4]; 3]], fault: Option<&str>) -> Vec<[u32; 4]> {
    let text = format!("VERT\nDCL IN[0]\nDCL IN[1]\nDCL IN[2]\nDCL OUT[0]\n{line}\nEND\n");
    let p = shaderdiff_tgsi::parse(&text, "wide64.tgsi").expect("parses");
    let mut inputs = Inputs {
        invocations: rows.len(),
        ..Inputs::default()
    };
    for k in 0..3 {
        inputs.registers.insert(
            RegKey::new(File::Input, k as u32),
            rows.iter().map(|r| r[k]).collect(),
        );
    }
    let config = EngineConfig {
        fault: fault.map(str::to_string),
        ..EngineConfig::default()
    };
    let out = ValhallEngine::new(&config)
        .execute(&p, &inputs)
        .expect("runs");
    out.registers[&RegKey::new(File::Output, 0)].clone()
}

fn run(line: &str, rows: &[[[u32; 4]; 3]]) -> Vec<[u32; 4]> {
    run_with(line, rows, None)
}

fn pair(a: u64, b: u64) -> [u32; 4] {
    [a as u32, (a >> 32) as u32, b as u32, (b >> 32) as u32]
}

fn word(v: [u32; 4], p: usize) -> u64 {
    u64::from(v[2 * p]) | u64::from(v[2 * p + 1]) << 32
}

/// SplitMix64.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
}

/// Doubles: edge values, small integers and halves, random bits, random moderate values.
fn doubles(n: usize, seed: u64) -> Vec<f64> {
    let edges = [
        0.0,
        -0.0,
        1.0,
        -1.0,
        0.5,
        -0.5,
        1.5,
        2.5,
        -2.5,
        3.0,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::NAN,
        f64::MIN_POSITIVE,
        5e-324,
        -5e-324,
        f64::MAX,
        f64::MIN,
        1e300,
        1e-300,
        4503599627370495.5,
        4503599627370497.0,
        -1e-300,
        0.1,
    ];
    let mut rng = Rng(seed);
    (0..n)
        .map(|i| {
            if i < edges.len() {
                return edges[i];
            }
            match rng.next() % 4 {
                0 => f64::from_bits(rng.next()),
                1 => (rng.next() % 2001) as f64 / 4.0 - 250.0,
                2 => {
                    let e = (rng.next() % 200) as i32 - 100;
                    f64::from_bits(rng.next() >> 12 | 0x3ff0_0000_0000_0000) * 2f64.powi(e)
                }
                _ => edges[(rng.next() % edges.len() as u64) as usize],
            }
        })
        .collect()
}

fn same(want: f64, got: u64) -> bool {
    if want.is_nan() {
        f64::from_bits(got).is_nan()
    } else {
        want.to_bits() == got
    }
}

/// Checks a binary64 opcode over pairs of operand lists (both channel pairs).
fn check_double(op: &str, sources: usize, f: impl Fn(f64, f64, f64) -> f64) {
    let a = doubles(300, 1);
    let b = doubles(300, 2);
    let c = doubles(300, 3);
    let mut rows = Vec::new();
    for i in 0..a.len() {
        let j = (i * 7 + 3) % a.len();
        rows.push([
            pair(a[i].to_bits(), a[j].to_bits()),
            pair(b[i].to_bits(), b[(i * 5 + 1) % b.len()].to_bits()),
            pair(c[i].to_bits(), c[j].to_bits()),
        ]);
    }
    let srcs = ["IN[0]", "IN[1]", "IN[2]"][..sources].join(", ");
    let out = run(&format!("{op} OUT[0], {srcs}"), &rows);
    for (r, o) in rows.iter().zip(&out) {
        for p in 0..2 {
            let x = f64::from_bits(word(r[0], p));
            let y = f64::from_bits(word(r[1], p));
            let z = f64::from_bits(word(r[2], p));
            let want = f(x, y, z);
            assert!(
                same(want, word(*o, p)),
                "{op} {x:e} {y:e} {z:e}: want {want:e} got {:e}",
                f64::from_bits(word(*o, p))
            );
        }
    }
}

#[test]
fn double_arithmetic_is_ieee_exact() {
    check_double("DADD", 2, |a, b, _| a + b);
    check_double("DMUL", 2, |a, b, _| a * b);
    check_double("DDIV", 2, |a, b, _| a / b);
    check_double("DFMA", 3, |a, b, c| a.mul_add(b, c));
    // DMAD: precision.toml accepts the fused result; the valhall engine fuses.
    check_double("DMAD", 3, |a, b, c| a.mul_add(b, c));
    check_double("DSQRT", 1, |a, _, _| a.sqrt());
    check_double("DRCP", 1, |a, _, _| 1.0 / a);
    // Two roundings, within precision.toml DRSQ's 2 ulp.
    check_double("DRSQ", 1, |a, _, _| 1.0 / a.sqrt());
}

#[test]
fn double_sign_min_max_and_rounding() {
    check_double("DABS", 1, |a, _, _| a.abs());
    check_double("DNEG", 1, |a, _, _| -a);
    let min = |a: f64, b: f64, _| {
        if a.is_nan() {
            b
        } else if b.is_nan() || a <= b {
            a
        } else {
            b
        }
    };
    let max = |a: f64, b: f64, _| {
        if a.is_nan() {
            b
        } else if b.is_nan() || a >= b {
            a
        } else {
            b
        }
    };
    check_double("DMIN", 2, min);
    check_double("DMAX", 2, max);
    check_double("DTRUNC", 1, |a, _, _| a.trunc());
    check_double("DFLR", 1, |a, _, _| a.floor());
    check_double("DCEIL", 1, |a, _, _| a.ceil());
    check_double("DROUND", 1, |a, _, _| a.round_ties_even());
    check_double("DFRAC", 1, |a, _, _| a - a.floor());
    check_double("DSSG", 1, |a, _, _| {
        if a > 0.0 {
            1.0
        } else if a < 0.0 {
            -1.0
        } else {
            0.0
        }
    });
}

#[test]
fn double_comparisons_write_x_and_z() {
    let a = doubles(200, 4);
    let b = doubles(200, 5);
    let mut rows = Vec::new();
    for i in 0..a.len() {
        let j = (i * 3) % b.len();
        rows.push([
            pair(a[i].to_bits(), b[i].to_bits()),
            pair(b[j].to_bits(), a[i].to_bits()),
            [0; 4],
        ]);
    }
    let ops: [(&str, fn(f64, f64) -> bool); 4] = [
        ("DSEQ", |a, b| a == b),
        ("DSNE", |a, b| a != b),
        ("DSLT", |a, b| a < b),
        ("DSGE", |a, b| a >= b),
    ];
    for (op, f) in ops {
        let out = run(&format!("{op} OUT[0], IN[0], IN[1]"), &rows);
        for (r, o) in rows.iter().zip(&out) {
            for p in 0..2 {
                let x = f64::from_bits(word(r[0], p));
                let y = f64::from_bits(word(r[1], p));
                let want = if f(x, y) { u32::MAX } else { 0 };
                assert_eq!(o[2 * p], want, "{op} {x:e} {y:e}");
            }
        }
    }
}

#[test]
fn dldexp_scales_once() {
    let a = doubles(200, 6);
    let mut rng = Rng(7);
    let rows: Vec<_> = a
        .iter()
        .map(|&x| {
            let n = [
                (rng.next() % 4300) as i32 - 2150,
                (rng.next() % 41) as i32 - 20,
            ];
            [
                pair(x.to_bits(), (-x).to_bits()),
                [n[0] as u32, 0, n[1] as u32, 0],
                [0; 4],
            ]
        })
        .collect();
    let out = run("DLDEXP OUT[0], IN[0], IN[1]", &rows);
    for (r, o) in rows.iter().zip(&out) {
        for p in 0..2 {
            let x = f64::from_bits(word(r[0], p));
            let n = r[1][2 * p] as i32;
            let want = libm::scalbn(x, n);
            assert!(same(want, word(*o, p)), "DLDEXP {x:e} {n}");
        }
    }
}

#[test]
fn double_conversions() {
    let a = doubles(300, 8);
    let rows: Vec<_> = a
        .iter()
        .map(|&x| [pair(x.to_bits(), (x * 0.75).to_bits()), [0; 4], [0; 4]])
        .collect();
    let out = run("D2F OUT[0], IN[0]", &rows);
    for (r, o) in rows.iter().zip(&out) {
        for p in 0..2 {
            let x = f64::from_bits(word(r[0], p));
            let want = x as f32;
            let got = f32::from_bits(o[p]);
            assert!(
                (want.is_nan() && got.is_nan()) || want.to_bits() == got.to_bits(),
                "D2F {x:e}: {want:e} {got:e}"
            );
        }
    }
    // D2I / D2U within range (tgsi.rst leaves the rest undefined).
    let ints: Vec<f64> = a
        .iter()
        .map(|&x| if x.is_finite() { (x % 2e9).abs() } else { 1.5 })
        .collect();
    let rows: Vec<_> = ints
        .iter()
        .map(|&x| [pair(x.to_bits(), (-x).to_bits()), [0; 4], [0; 4]])
        .collect();
    let out = run("D2I OUT[0], IN[0]", &rows);
    for (x, o) in ints.iter().zip(&out) {
        assert_eq!(o[0], *x as i32 as u32, "D2I {x:e}");
        assert_eq!(o[1], (-*x) as i32 as u32, "D2I {:e}", -x);
    }
    let out = run("D2U OUT[0], IN[0]", &rows);
    for (x, o) in ints.iter().zip(&out) {
        assert_eq!(o[0], *x as u32, "D2U {x:e}");
    }
    // F2D, I2D, U2D: exact widenings of src.x (xy) and src.y (zw).
    let mut rng = Rng(9);
    let words: Vec<[u32; 2]> = (0..300)
        .map(|i| match i {
            0 => [0x7f80_0001, 0x0000_0001],
            1 => [0x8000_0000, 0x807f_ffff],
            _ => [rng.next() as u32, rng.next() as u32],
        })
        .collect();
    let rows: Vec<_> = words
        .iter()
        .map(|w| [[w[0], w[1], 0, 0], [0; 4], [0; 4]])
        .collect();
    for (op, f) in [
        (
            "F2D",
            (|w: u32| f64::from(f32::from_bits(w))) as fn(u32) -> f64,
        ),
        ("I2D", |w| f64::from(w as i32)),
        ("U2D", f64::from),
    ] {
        let out = run(&format!("{op} OUT[0], IN[0]"), &rows);
        for (w, o) in words.iter().zip(&out) {
            for p in 0..2 {
                assert!(same(f(w[p]), word(*o, p)), "{op} {:#x}", w[p]);
            }
        }
    }
}

/// 64-bit integer operands: edges and random bits.
fn ints(n: usize, seed: u64) -> Vec<u64> {
    let edges = [
        0,
        1,
        u64::MAX,
        0xffff_ffff,
        0x1_0000_0000,
        i64::MIN as u64,
        i64::MAX as u64,
        7,
        (-7i64) as u64,
    ];
    let mut rng = Rng(seed);
    (0..n)
        .map(|i| {
            if i < edges.len() {
                edges[i]
            } else {
                match rng.next() % 3 {
                    0 => rng.next(),
                    1 => rng.next() >> (rng.next() % 64),
                    _ => edges[(rng.next() % edges.len() as u64) as usize],
                }
            }
        })
        .collect()
}

fn check_int(op: &str, sources: usize, f: impl Fn(u64, u64) -> u64) {
    let a = ints(300, 10);
    let b = ints(300, 11);
    let rows: Vec<_> = (0..a.len())
        .map(|i| {
            [
                pair(a[i], a[(i * 7 + 1) % a.len()]),
                pair(b[i], b[(i * 3 + 2) % b.len()]),
                [0; 4],
            ]
        })
        .collect();
    let srcs = ["IN[0]", "IN[1]"][..sources].join(", ");
    let out = run(&format!("{op} OUT[0], {srcs}"), &rows);
    for (r, o) in rows.iter().zip(&out) {
        for p in 0..2 {
            let (x, y) = (word(r[0], p), word(r[1], p));
            assert_eq!(word(*o, p), f(x, y), "{op} {x:#x} {y:#x}");
        }
    }
}

#[test]
fn int64_arithmetic() {
    check_int("U64ADD", 2, u64::wrapping_add);
    check_int("U64MUL", 2, u64::wrapping_mul);
    check_int("U64MIN", 2, |a, b| a.min(b));
    check_int("U64MAX", 2, |a, b| a.max(b));
    check_int("I64MIN", 2, |a, b| (a as i64).min(b as i64) as u64);
    check_int("I64MAX", 2, |a, b| (a as i64).max(b as i64) as u64);
    check_int("I64NEG", 1, |a, _| (a as i64).wrapping_neg() as u64);
    check_int("I64ABS", 1, |a, _| (a as i64).wrapping_abs() as u64);
    check_int("I64SSG", 1, |a, _| (a as i64).signum() as u64);
}

/// Division results where they are defined.
#[test]
fn int64_division() {
    let a = ints(300, 12);
    let b = ints(300, 13);
    let rows: Vec<_> = (0..a.len())
        .map(|i| {
            [
                pair(a[i], a[(i + 5) % a.len()]),
                pair(b[i] | 1, b[(i * 3) % b.len()] | 2),
                [0; 4],
            ]
        })
        .collect();
    let ops: [(&str, fn(u64, u64) -> u64); 4] = [
        ("U64DIV", |a, b| a / b),
        ("U64MOD", |a, b| a % b),
        ("I64DIV", |a, b| (a as i64).wrapping_div(b as i64) as u64),
        ("I64MOD", |a, b| (a as i64).wrapping_rem(b as i64) as u64),
    ];
    for (op, f) in ops {
        let out = run(&format!("{op} OUT[0], IN[0], IN[1]"), &rows);
        for (r, o) in rows.iter().zip(&out) {
            for p in 0..2 {
                let (x, y) = (word(r[0], p), word(r[1], p));
                if op.starts_with('I') && x == i64::MIN as u64 && y == u64::MAX {
                    continue;
                }
                assert_eq!(word(*o, p), f(x, y), "{op} {x:#x} {y:#x}");
            }
        }
    }
}

#[test]
fn int64_shifts_take_the_count_mod_64_from_x_and_z() {
    let a = ints(200, 14);
    let mut rng = Rng(15);
    let rows: Vec<_> = a
        .iter()
        .map(|&x| {
            let (n0, n1) = (rng.next() as u32 % 200, rng.next() as u32 % 200);
            [pair(x, !x), [n0, 0, n1, n1], [0; 4]]
        })
        .collect();
    let ops: [(&str, fn(u64, u32) -> u64); 3] = [
        ("U64SHL", |a, n| a << (n & 63)),
        ("U64SHR", |a, n| a >> (n & 63)),
        ("I64SHR", |a, n| ((a as i64) >> (n & 63)) as u64),
    ];
    for (op, f) in ops {
        let out = run(&format!("{op} OUT[0], IN[0], IN[1]"), &rows);
        for (r, o) in rows.iter().zip(&out) {
            for p in 0..2 {
                let (x, n) = (word(r[0], p), r[1][2 * p]);
                assert_eq!(word(*o, p), f(x, n), "{op} {x:#x} {n}");
            }
        }
    }
}

#[test]
fn int64_comparisons() {
    let a = ints(200, 16);
    let rows: Vec<_> = (0..a.len())
        .map(|i| {
            let j = (i * 11 + 4) % a.len();
            [pair(a[i], a[j]), pair(a[j], a[j]), [0; 4]]
        })
        .collect();
    let ops: [(&str, fn(u64, u64) -> bool); 6] = [
        ("U64SEQ", |a, b| a == b),
        ("U64SNE", |a, b| a != b),
        ("U64SLT", |a, b| a < b),
        ("U64SGE", |a, b| a >= b),
        ("I64SLT", |a, b| (a as i64) < b as i64),
        ("I64SGE", |a, b| a as i64 >= b as i64),
    ];
    for (op, f) in ops {
        let out = run(&format!("{op} OUT[0], IN[0], IN[1]"), &rows);
        for (r, o) in rows.iter().zip(&out) {
            for p in 0..2 {
                let (x, y) = (word(r[0], p), word(r[1], p));
                assert_eq!(
                    o[2 * p],
                    if f(x, y) { u32::MAX } else { 0 },
                    "{op} {x:#x} {y:#x}"
                );
            }
        }
    }
}

#[test]
fn int64_conversions() {
    let a = ints(300, 17);
    let rows: Vec<_> = a
        .iter()
        .map(|&x| [pair(x, x >> 11), [0; 4], [0; 4]])
        .collect();
    let to_d: [(&str, fn(u64) -> f64); 2] =
        [("I642D", |a| a as i64 as f64), ("U642D", |a| a as f64)];
    for (op, f) in to_d {
        let out = run(&format!("{op} OUT[0], IN[0]"), &rows);
        for (r, o) in rows.iter().zip(&out) {
            for p in 0..2 {
                let x = word(r[0], p);
                assert_eq!(word(*o, p), f(x).to_bits(), "{op} {x:#x}");
            }
        }
    }
    let to_f: [(&str, fn(u64) -> f32); 2] =
        [("I642F", |a| a as i64 as f32), ("U642F", |a| a as f32)];
    for (op, f) in to_f {
        let out = run(&format!("{op} OUT[0], IN[0]"), &rows);
        for (r, o) in rows.iter().zip(&out) {
            for p in 0..2 {
                let x = word(r[0], p);
                assert_eq!(o[p], f(x).to_bits(), "{op} {x:#x}");
            }
        }
    }
    // D2I64 / D2U64 / F2I64 / F2U64 within range; I2I64 / U2I64 extend.
    let d = doubles(300, 18);
    let fin: Vec<f64> = d
        .iter()
        .map(|&x| if x.is_finite() { x % 9e18 } else { -2.5 })
        .collect();
    let rows: Vec<_> = fin
        .iter()
        .map(|&x| [pair(x.to_bits(), x.abs().to_bits()), [0; 4], [0; 4]])
        .collect();
    let out = run("D2I64 OUT[0], IN[0]", &rows);
    for (x, o) in fin.iter().zip(&out) {
        assert_eq!(word(*o, 0), *x as i64 as u64, "D2I64 {x:e}");
    }
    let out = run("D2U64 OUT[0], IN[0]", &rows);
    for (x, o) in fin.iter().zip(&out) {
        assert_eq!(word(*o, 1), x.abs() as u64, "D2U64 {x:e}");
    }
    let rows: Vec<_> = fin
        .iter()
        .map(|&x| {
            [
                [(x as f32).to_bits(), (x.abs() as f32).to_bits(), 0, 0],
                [0; 4],
                [0; 4],
            ]
        })
        .collect();
    let out = run("F2I64 OUT[0], IN[0]", &rows);
    for (x, o) in fin.iter().zip(&out) {
        assert_eq!(word(*o, 0), (*x as f32) as i64 as u64, "F2I64 {x:e}");
    }
    let out = run("F2U64 OUT[0], IN[0]", &rows);
    for (x, o) in fin.iter().zip(&out) {
        assert_eq!(word(*o, 1), (x.abs() as f32) as u64, "F2U64 {x:e}");
    }
    let w = [0u32, 1, 0x8000_0000, 0xffff_ffff, 0x7fff_ffff, 12345];
    let rows: Vec<_> = w.iter().map(|&x| [[x, !x, 0, 0], [0; 4], [0; 4]]).collect();
    let out = run("I2I64 OUT[0], IN[0]", &rows);
    for (x, o) in w.iter().zip(&out) {
        assert_eq!(word(*o, 0), *x as i32 as i64 as u64);
        assert_eq!(word(*o, 1), !*x as i32 as i64 as u64);
    }
    let out = run("U2I64 OUT[0], IN[0]", &rows);
    for (x, o) in w.iter().zip(&out) {
        assert_eq!(word(*o, 0), u64::from(*x));
    }
}

/// Writemask: a pair is computed when either channel is enabled and only enabled
/// channels are written (the others keep OUT's initial 0).
#[test]
fn writemask_writes_only_enabled_halves() {
    let rows = [[
        pair(1.5f64.to_bits(), 2.0f64.to_bits()),
        pair(0.25f64.to_bits(), 1.0f64.to_bits()),
        [0; 4],
    ]];
    let out = run("DADD OUT[0].yz, IN[0], IN[1]", &rows);
    let s0 = 1.75f64.to_bits();
    let s1 = 3.0f64.to_bits();
    assert_eq!(out[0], [0, (s0 >> 32) as u32, s1 as u32, 0]);
}

/// Saturate on 64-bit results is refused (modifiers on 64-bit sources are rewritten by
/// shaderdiff_model::wide_modifiers before compilation: engines/tests/alu/modifiers64.rs).
#[test]
fn saturate_on_64bit_results_is_refused() {
    let rows = [[[0; 4]; 3]];
    for line in [
        "DADD_SAT OUT[0], IN[0], IN[1]",
        "U64ADD_SAT OUT[0], IN[0], IN[1]",
    ] {
        let text = format!("VERT\nDCL IN[0]\nDCL IN[1]\nDCL OUT[0]\n{line}\nEND\n");
        let p = shaderdiff_tgsi::parse(&text, "m.tgsi").expect("parses");
        let inputs = Inputs {
            invocations: rows.len(),
            ..Inputs::default()
        };
        let err = ValhallEngine::new(&EngineConfig::default())
            .execute(&p, &inputs)
            .expect_err("refused");
        assert!(err.to_string().contains("64-bit"), "{err}");
    }
}

/// The catalogued fault `u64add-no-carry`: a carry out of the low word is lost.
#[test]
fn u64add_no_carry_fault() {
    let engine = ValhallEngine::new(&EngineConfig::default());
    assert!(engine.faults().iter().any(|f| f.name == "u64add-no-carry"));
    let rows = [[pair(0xffff_ffff, 5), pair(1, 0x1_0000_0000), [0; 4]]];
    let good = run("U64ADD OUT[0], IN[0], IN[1]", &rows);
    assert_eq!(word(good[0], 0), 0x1_0000_0000);
    let bad = run_with(
        "U64ADD OUT[0], IN[0], IN[1]",
        &rows,
        Some("u64add-no-carry"),
    );
    assert_eq!(word(bad[0], 0), 0, "the carry is dropped");
    assert_eq!(word(bad[0], 1), 0x1_0000_0005, "no carry, no difference");
}
