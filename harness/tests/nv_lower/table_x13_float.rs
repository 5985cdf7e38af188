//! NV_gpu_program5 Table X.13's floating-point approximation and geometry rows (COS, SIN,
//! SCS, EX2, LG2, POW, LIT, DST, NRM, LRP, DP4) and the fragment-only derivatives DDX and
//! DDY, on every engine.
//!
//! Expected values are worked by hand from the pseudo-code of NV_gpu_program4 §2.X.8.Z
//! (quoted as "§ NAME"). Where the instruction approximates (ApproxCosine, Approx2ToX,
//! ApproxLog2, ApproxPower, ApproxRSQ), the row accepts the precision contract's bound for
//! GPUs (`oracle/precision.toml`, from the Vulkan GLSL precision table), worked out for the
//! row's value in the comment beside it; exact results (DST's product, LRP and DP4 on
//! exactly representable values, the derivatives of an affine input) must be the word.

use std::f32::consts::{FRAC_PI_2, FRAC_PI_3, FRAC_PI_6, PI};

use crate::support::f;
use crate::table_x13::{row, run_rows, Nan, Near, Undef, V, W};
use crate::tex_lod_ms::run_quad;

/// SIN / COS bound inside [-PI, PI]: absolute error 2^-11 ([op.SIN], [op.COS]).
const TRIG: f32 = 1.0 / 2048.0;

/// `n` units in the last place of `v` (binary32, normal `v`).
fn ulps(v: f32, n: f32) -> f32 {
    let e = ((v.abs().to_bits() >> 23) & 0xFF) as i32 - 127;
    n * 2f32.powi(e - 23)
}

fn near(v: f32, tol: f32) -> [W; 4] {
    [Near(v, tol); 4]
}

fn x(v: f32) -> [u32; 4] {
    [f(v), 0, 0, 0]
}

/// § COS, § SIN: the scalar operand's cosine / sine replicated; COS takes any angle.
#[test]
fn cos_and_sin() {
    run_rows(&[
        // cos 0 = 1; cos PI = -1 (PI as binary32 is within 2^-7 of PI: cos moves by
        // < 2^-40); cos(-PI/3) = 1/2 through a negated operand.
        row("COS t, p0.x;", &[x(0.0)], near(1.0, TRIG)),
        row("COS t, p0.x;", &[x(PI)], near(-1.0, TRIG)),
        row("COS t, -p0.x;", &[x(FRAC_PI_3)], near(0.5, TRIG)),
        // sin 0 = 0; sin(PI/2) = 1; sin(-PI/6) = -1/2.
        row("SIN t, p0.x;", &[x(0.0)], near(0.0, TRIG)),
        row("SIN t, p0.x;", &[x(FRAC_PI_2)], near(1.0, TRIG)),
        row("SIN t, p0.x;", &[x(-FRAC_PI_6)], near(-0.5, TRIG)),
    ]);
}

/// § SCS: `x` = ApproxCosine, `y` = ApproxSine of the scalar operand in [-PI, PI]; `z` and
/// `w` undefined; an operand outside [-PI, PI] (NaN included) makes the whole vector
/// undefined.
#[test]
fn scs() {
    run_rows(&[
        // (cos PI/3, sin PI/3) = (1/2, sqrt(3)/2 = 0.8660254).
        row(
            "SCS t, p0.x;",
            &[x(FRAC_PI_3)],
            [Near(0.5, TRIG), Near(0.866_025_4, TRIG), Undef, Undef],
        ),
        // (cos 0, sin 0) = (1, 0), through the .y component of the operand.
        row(
            "SCS t, p0.y;",
            &[[f(9.0), f(0.0), 0, 0]],
            [Near(1.0, TRIG), Near(0.0, TRIG), Undef, Undef],
        ),
        // 4 > PI and NaN: undefined.
        row("SCS t, p0.x;", &[x(4.0)], [Undef; 4]),
        row("SCS t, p0.x;", &[[0x7FC0_0000, 0, 0, 0]], [Undef; 4]),
    ]);
}

/// § EX2: 2^x replicated; bound 3 + 2|x| ULP ([op.EX2] gpu).
#[test]
fn ex2() {
    run_rows(&[
        // 2^3 = 8 within 9 ULP of 8; 2^-1 = 0.5 within 5 ULP; 2^0 = 1 within 3 ULP.
        row("EX2 t, p0.x;", &[x(3.0)], near(8.0, ulps(8.0, 9.0))),
        row("EX2 t, p0.x;", &[x(-1.0)], near(0.5, ulps(0.5, 5.0))),
        row("EX2 t, p0.x;", &[x(0.0)], near(1.0, ulps(1.0, 3.0))),
    ]);
}

/// § LG2: log2 x replicated; bound: absolute 2^-21 inside [0.5, 2], 3 ULP outside
/// ([op.LG2] gpu). "If the scalar operand is zero or negative, the result is undefined."
#[test]
fn lg2() {
    const IN_RANGE: f32 = 1.0 / 2_097_152.0; // 2^-21
    run_rows(&[
        // log2 8 = 3 (outside [0.5, 2]: 3 ULP of 3); log2 1024 = 10 (3 ULP of 10).
        row("LG2 t, p0.x;", &[x(8.0)], near(3.0, ulps(3.0, 3.0))),
        row("LG2 t, p0.x;", &[x(1024.0)], near(10.0, ulps(10.0, 3.0))),
        // log2 1 = 0 and log2 0.5 = -1 (inside [0.5, 2]: absolute 2^-21).
        row("LG2 t, p0.x;", &[x(1.0)], near(0.0, IN_RANGE)),
        row("LG2 t, p0.x;", &[x(0.5)], near(-1.0, IN_RANGE)),
        // 0, -0 and -2: undefined.
        row("LG2 t, p0.x;", &[x(0.0)], [Undef; 4]),
        row("LG2 t, p0.x;", &[x(-0.0)], [Undef; 4]),
        row("LG2 t, p0.x;", &[x(-2.0)], [Undef; 4]),
    ]);
}

/// § POW: ApproxPower(a, b) = ApproxExp2(b * ApproxLog2(a)) ([op.POW] gpu: inherited).
#[test]
fn pow() {
    run_rows(&[
        // 2^10 = 1024: log2 2 = 1 +- 2^-21 (inside [0.5, 2]), times 10: 10 +- 10 * 2^-21,
        // so 2^(10 +- 4.8e-6) = 1024 (1 +- 3.3e-6) = 1024 +- 0.0034, plus EX2's 3 + 2 * 10
        // = 23 ULP of 1024 (23 * 2^-13 = 0.0028): within 0.01.
        row("POW t, p0.x, p1.x;", &[x(2.0), x(10.0)], near(1024.0, 0.01)),
        // 4^0.5 = 2: log2 4 = 2 +- 3 ULP (3 * 2^-22), halved: 1 +- 3.6e-7, 2^(1 +- 3.6e-7)
        // = 2 +- 5e-7, plus 5 ULP of 2 (1.2e-6): within 4e-6.
        row("POW t, p0.x, p1.x;", &[x(4.0), x(0.5)], near(2.0, 4e-6)),
    ]);
}

/// § LIT: (1, max(x, 0), x > 0 ? RoughApproxPower(max(y, 0), w) : 0, 1).
#[test]
fn lit() {
    run_rows(&[
        // x = 3, y = 2, w = 3: (1, 3, 2^3 = 8, 1); z takes POW's bound: log2 2 = 1 +- 2^-21,
        // times 3, 2^(3 +- 1.4e-6) = 8 +- 8e-6, plus 9 ULP of 8 (8.6e-6): within 2e-5.
        row(
            "LIT t, p0;",
            &[[f(3.0), f(2.0), f(7.0), f(3.0)]],
            [V(f(1.0)), V(f(3.0)), Near(8.0, 2e-5), V(f(1.0))],
        ),
        // x = -1: the diffuse term clamps to 0 and forces the specular term to 0.
        row(
            "LIT t, p0;",
            &[[f(-1.0), f(2.0), f(7.0), f(3.0)]],
            [V(f(1.0)), V(0), V(0), V(f(1.0))],
        ),
    ]);
}

/// § DST: (1, a.y * b.y, a.z, b.w); § LRP: a * b + (1 - a) * c; § DP4: the 4-component dot
/// product replicated. All exact on these operands (every product and sum is a small
/// integer or an exact binary fraction).
#[test]
fn dst_lrp_dp4() {
    run_rows(&[
        // DST (9, 2, 3, 9), (9, 5, 9, 7) = (1, 2 * 5, 3, 7).
        row(
            "DST t, p0, p1;",
            &[
                [f(9.0), f(2.0), f(3.0), f(9.0)],
                [f(9.0), f(5.0), f(9.0), f(7.0)],
            ],
            [V(f(1.0)), V(f(10.0)), V(f(3.0)), V(f(7.0))],
        ),
        // LRP 0.25, 8, 4: 0.25 * 8 + 0.75 * 4 = 2 + 3 = 5 (and 0.25 * (8 - 4) + 4 = 5);
        // LRP 1, 7, 3 = 7.
        row(
            "LRP t, p0.x, p1.x, p2.x;",
            &[x(0.25), x(8.0), x(4.0)],
            [V(f(5.0)); 4],
        ),
        row(
            "LRP t, p0.x, p1.x, p2.x;",
            &[x(1.0), x(7.0), x(3.0)],
            [V(f(7.0)); 4],
        ),
        // (1, 2, 3, 4) . (5, 6, 7, 8) = 5 + 12 + 21 + 32 = 70; with -p1: -70.
        row(
            "DP4 t, p0, p1;",
            &[
                [f(1.0), f(2.0), f(3.0), f(4.0)],
                [f(5.0), f(6.0), f(7.0), f(8.0)],
            ],
            [V(f(70.0)); 4],
        ),
        row(
            "DP4 t, p0, -p1;",
            &[
                [f(1.0), f(2.0), f(3.0), f(4.0)],
                [f(5.0), f(6.0), f(7.0), f(8.0)],
            ],
            [V(f(-70.0)); 4],
        ),
    ]);
}

/// § NRM: xyz = op.xyz * ApproxRSQ(op.xyz . op.xyz); w undefined (not constrained).
#[test]
fn nrm() {
    // (3, 4, 0) / 5 = (0.6, 0.8, 0): the dot product 25 is exact, RSQ within 2 ULP of 0.2
    // (relative 1.5e-7), the product adds half an ULP: within 3 ULP of 0.6 and 0.8; 0 * s
    // is exactly 0.
    run_rows(&[row(
        "NRM t, p0;",
        &[[f(3.0), f(4.0), f(0.0), f(9.0)]],
        [
            Near(0.6, ulps(0.6, 3.0)),
            Near(0.8, ulps(0.8, 3.0)),
            V(0),
            Undef,
        ],
    )]);
}

/// § DDX, § DDY (NV_fragment_program4: partial derivatives across the fragment quad, lanes
/// `(x, y) (x+1, y) (x, y+1) (x+1, y+1)`): an affine input `s = 1 + 3x + 5y` (lanes 1, 4,
/// 6, 9) has DDX = 3 and DDY = 5 in every lane (coarse and fine alike), exact (one
/// subtraction of small integers); the `y` input `-2x` gives -2 and 0.
#[test]
fn ddx_ddy() {
    // Lanes (0,0) (1,0) (0,1) (1,1): x = 1 + 3x + 5y, y = -2x.
    let tc = [
        [1.0, 0.0, 0.0, 0.0],
        [4.0, -2.0, 0.0, 0.0],
        [6.0, 0.0, 0.0, 0.0],
        [9.0, -2.0, 0.0, 0.0],
    ];
    for (insn, want) in [
        ("DDX t, fragment.texcoord[0];", [3.0, -2.0]),
        ("DDY t, fragment.texcoord[0];", [5.0, 0.0]),
    ] {
        let w = [V(f(want[0])), V(f(want[1])), V(0), V(0)];
        run_quad(insn, tc, None, [w; 4]);
    }
}

/// LG2 of NaN: § LG2 leaves only zero and negative operands undefined, so NaN gives the
/// IEEE log2 of NaN, a NaN, on every engine.
#[test]
fn lg2_of_nan() {
    run_rows(&[row("LG2 t, p0.x;", &[[0x7FC0_0000, 0, 0, 0]], [Nan; 4])]);
}
