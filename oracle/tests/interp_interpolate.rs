//! INTERP_CENTROID, INTERP_SAMPLE, INTERP_OFFSET on the oracle (README "Additions to
//! INTERFACE.md", "Interpolation at centroid, sample, offset"; tgsi.rst "Interpolation
//! ISA"). Expected values are worked out by hand from the model's formulas: the centroid
//! and sample 0 give the input; at offset `(dx, dy)` lane `l` of an affine quad gives
//! `v[l] + dx*ddx + dy*ddy`, `ddx` along its row, `ddy` along its column (INTERFACE.md
//! "Fragment quads": lanes `(x,y) (x+1,y) (x,y+1) (x+1,y+1)`).

mod interp_common;

use interp_common::*;
use shaderdiff_oracles::interp::{run_with_intervals, ExecError, InterpConfig};
use shaderdiff_oracles::precision::PrecisionContract;
use shaderdiff_oracles::{Outputs, RegKey};

const HEAD: &str = "FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL IN[1], GENERIC[1], CONSTANT\n\
                    DCL OUT[0], COLOR\n";

fn prog(body: &str) -> String {
    format!("{HEAD}{body}\nEND\n")
}

/// One quad: `IN[0]` channel x = `v[l]` (y, z, w = 0), `IN[1]` = `second` in every lane.
fn quad(v: [f32; 4], second: [f32; 4]) -> shaderdiff_oracles::Inputs {
    inputs(
        4,
        &[
            (
                input(0),
                v.iter().map(|&x| fv([x, 0.0, 0.0, 0.0])).collect(),
            ),
            (input(1), vec![fv(second); 4]),
        ],
    )
}

fn x_of(o: &Outputs) -> Vec<f32> {
    reg(o, out(0))
        .iter()
        .map(|v| f32::from_bits(v[0]))
        .collect()
}

fn x_undef(o: &Outputs) -> Vec<bool> {
    undef(o, out(0)).iter().map(|u| u & 1 != 0).collect()
}

#[test]
fn centroid_and_sample_zero_are_the_input() {
    // Pixel centre = centroid = sample 0 (single-sampled, fully covered): the input itself,
    // with the source modifiers applied to it: -|x|.
    let v = [1.5, -2.0, 3.25, -0.0];
    let o = run_text(
        &prog("INTERP_CENTROID OUT[0], -|IN[0]|"),
        &quad(v, [0.0; 4]),
    );
    assert_eq!(x_of(&o), vec![-1.5, -2.0, -3.25, -0.0]);
    assert_eq!(x_undef(&o), vec![false; 4]);
    // IN[1].x = 0 as an integer (bits 0): sample 0.
    let o = run_text(
        &prog("INTERP_SAMPLE OUT[0], IN[0], IN[1].xxxx"),
        &quad(v, [0.0; 4]),
    );
    assert_eq!(x_of(&o), v.to_vec());
    assert_eq!(x_undef(&o), vec![false; 4]);
}

#[test]
fn samples_other_than_zero_are_undefined() {
    // IN[1].x bits 1 (sample 1), 0xFFFFFFFF (-1), 0x80000000 (-0.0 as a float is not
    // sample 0: the operand is an integer): none exists single-sampled.
    let text = "FRAG\nDCL IN[0], GENERIC[0]\nDCL OUT[0], COLOR\nIMM[0] INT32 {1, -1, -2147483648, 0}\n\
                INTERP_SAMPLE OUT[0].x, IN[0], IMM[0].xxxx\nINTERP_SAMPLE OUT[0].y, IN[0], IMM[0].yyyy\n\
                INTERP_SAMPLE OUT[0].z, IN[0], IMM[0].zzzz\nINTERP_SAMPLE OUT[0].w, IN[0], IMM[0].wwww\nEND\n";
    let o = run_text(
        text,
        &inputs(4, &[(input(0), vec![fv([1.0, 2.0, 3.0, 4.0]); 4])]),
    );
    for u in undef(&o, out(0)) {
        assert_eq!(u, 0b0111, "x, y, z undefined; w (sample 0) defined");
    }
    assert_eq!(reg(&o, out(0))[0][3], f(4.0));
}

#[test]
fn offset_on_an_affine_quad() {
    // v = 1 + 2x + 1y: v0 = 1, v1 = 3, v2 = 2, v3 = 4; ddx = 2 in both rows, ddy = 1 in
    // both columns. At (0.25, 0.5): v + 0.5 + 0.5 = v + 1, exact in binary32.
    let o = run_text(
        &prog("INTERP_OFFSET OUT[0], IN[0], IN[1]"),
        &quad([1.0, 3.0, 2.0, 4.0], [0.25, 0.5, 9.0, 9.0]),
    );
    assert_eq!(x_of(&o), vec![2.0, 4.0, 3.0, 5.0]);
    assert_eq!(x_undef(&o), vec![false; 4]);
    // Offsets at the range ends (-0.5, +0.5): v - 1 + 0.5 = v - 0.5.
    let o = run_text(
        &prog("INTERP_OFFSET OUT[0], IN[0], IN[1]"),
        &quad([1.0, 3.0, 2.0, 4.0], [-0.5, 0.5, 0.0, 0.0]),
    );
    assert_eq!(x_of(&o), vec![0.5, 2.5, 1.5, 3.5]);
}

#[test]
fn offset_modifiers_apply_after_interpolation() {
    // Quad -1, 1, 0, 2 (ddx = 2, ddy = 1) at (-0.5, -0.5): v - 1 - 0.5 = -2.5, -0.5, -1.5,
    // 0.5; |.| = 2.5, 0.5, 1.5, 0.5. Taking |v| first would give the quad 1, 1, 0, 2, which
    // is not affine (1 + 2 != 1 + 0): undefined.
    let o = run_text(
        &prog("INTERP_OFFSET OUT[0], |IN[0]|, IN[1]"),
        &quad([-1.0, 1.0, 0.0, 2.0], [-0.5, -0.5, 0.0, 0.0]),
    );
    assert_eq!(x_of(&o), vec![2.5, 0.5, 1.5, 0.5]);
    assert_eq!(x_undef(&o), vec![false; 4]);
}

#[test]
fn offset_undefined_cases() {
    let p = prog("INTERP_OFFSET OUT[0], IN[0], IN[1]");
    // Not affine: 1 + 5 != 2 + 3.
    let o = run_text(&p, &quad([1.0, 2.0, 3.0, 5.0], [0.25, 0.25, 0.0, 0.0]));
    assert_eq!(x_undef(&o), vec![true; 4]);
    // Non-finite values.
    let o = run_text(
        &p,
        &quad([f32::INFINITY, 2.0, 3.0, 4.0], [0.0, 0.0, 0.0, 0.0]),
    );
    assert_eq!(x_undef(&o), vec![true; 4]);
    // Offsets outside [-0.5, 0.5] or NaN: undefined in those lanes only.
    let lanes = [
        fv([0.75, 0.0, 0.0, 0.0]),
        fv([0.0, -0.5001, 0.0, 0.0]),
        fv([f32::NAN, 0.0, 0.0, 0.0]),
        fv([0.5, 0.5, 0.0, 0.0]),
    ];
    let i = inputs(
        4,
        &[
            (
                input(0),
                [1.0f32, 3.0, 2.0, 4.0]
                    .iter()
                    .map(|&x| fv([x, 0.0, 0.0, 0.0]))
                    .collect(),
            ),
            (input(1), lanes.to_vec()),
        ],
    );
    let o = run_text(&p, &i);
    assert_eq!(x_undef(&o), vec![true, true, true, false]);
    // Lane 3: 4 + 0.5*2 + 0.5*1 = 5.5.
    assert_eq!(x_of(&o)[3], 5.5);
    // A partial quad: lane 1 does not execute it (IF on IN[1].z = 0 in lane 1 only), so the
    // whole quad is undefined.
    let text = prog("DCL TEMP[0]\nIF IN[0].yyyy\nINTERP_OFFSET OUT[0], IN[0], IN[1]\nENDIF");
    let mut i = quad([1.0, 3.0, 2.0, 4.0], [0.25, 0.25, 0.0, 0.0]);
    let v = i.registers.get_mut(&input(0)).unwrap();
    for (l, row) in v.iter_mut().enumerate() {
        row[1] = f(if l == 1 { 0.0 } else { 1.0 });
    }
    let o = run_text(&text, &i);
    assert_eq!(x_undef(&o), vec![true, false, true, true]);
    // Lane 1 keeps OUT[0]'s zero start: defined, 0.
    assert_eq!(x_of(&o)[1], 0.0);
}

#[test]
fn flat_inputs_give_the_input_everywhere() {
    // IN[1] is CONSTANT: the value does not vary, whatever the offset (even out of range)
    // and even when the lanes differ.
    let text = "FRAG\nDCL IN[0], GENERIC[0], CONSTANT\nDCL IN[1], GENERIC[1], CONSTANT\n\
                DCL OUT[0], COLOR\nINTERP_OFFSET OUT[0], -IN[0], IN[1]\nEND\n";
    let o = run_text(text, &quad([1.0, 7.0, -3.0, 100.0], [0.75, 0.3, 0.0, 0.0]));
    assert_eq!(x_of(&o), vec![-1.0, -7.0, 3.0, -100.0]);
    assert_eq!(x_undef(&o), vec![false; 4]);
}

#[test]
fn the_source_must_be_an_input_of_a_fragment_program() {
    // tgsi.rst: "The first argument of each of these must come from TGSI_FILE_INPUT".
    let e = shaderdiff_tgsi::parse(
        &prog("DCL TEMP[0]\nINTERP_CENTROID OUT[0], TEMP[0]"),
        "t.tgsi",
    )
    .expect_err("TEMP source");
    assert!(e.to_string().contains("must be an IN register"), "{e}");
    let e = shaderdiff_tgsi::parse(
        "VERT\nDCL IN[0]\nDCL OUT[0]\nINTERP_CENTROID OUT[0], IN[0]\nEND\n",
        "t.tgsi",
    )
    .expect_err("vertex program");
    assert!(e.to_string().contains("FRAG programs only"), "{e}");
    // An indirectly addressed input is outside the model: unsupported.
    let text = "FRAG\nDCL IN[0..1], GENERIC[0]\nDCL OUT[0], COLOR\nDCL ADDR[0]\n\
                UARL ADDR[0].x, IN[0].xxxx\nINTERP_CENTROID OUT[0], IN[ADDR[0].x]\nEND\n";
    let r = exec(&parse(text), &inputs(4, &[]));
    assert!(matches!(r, Err(ExecError::Unsupported { .. })), "{r:?}");
}

fn interval_x(o: &Outputs, lane: usize) -> (f32, f32) {
    let iv = o.intervals.as_ref().expect("intervals").channels[&out(0)][lane][0];
    (f32::from_bits(iv.lo), f32::from_bits(iv.hi))
}

fn run_cpu(text: &str, i: &shaderdiff_oracles::Inputs) -> Outputs {
    let c = PrecisionContract::builtin();
    run_with_intervals(
        &parse(text),
        i,
        &InterpConfig::default(),
        c,
        c.class("cpu").expect("cpu class"),
    )
    .expect("runs")
}

#[test]
fn offsets_off_the_grid_accept_the_snapped_positions() {
    // Quad 0, 16, 0, 16: ddx = 16, ddy = 0. dx = 0.3 lies between the 1/16 grid points
    // 0.25 (4/16) and 0.3125 (5/16) an implementation may snap to (NV_gpu_program5 IPAO,
    // FRAGMENT_PROGRAM_INTERPOLATION_OFFSET_BITS_NV >= 4): lane 0 accepts 16*0.25 = 4 to
    // 16*0.3125 = 5; the oracle's own value is rn(rn(0.3)*16) = 4.8000002.
    let o = run_cpu(
        &prog("INTERP_OFFSET OUT[0], IN[0], IN[1]"),
        &quad([0.0, 16.0, 0.0, 16.0], [0.3, 0.0, 0.0, 0.0]),
    );
    assert_eq!(x_of(&o)[0], 0.3f32 * 16.0);
    assert_eq!(interval_x(&o, 0), (4.0, 5.0));
    // On the grid (0.25): exactly 4 (lane 0) and 20 (lane 1 = 16 + 4).
    let o = run_cpu(
        &prog("INTERP_OFFSET OUT[0], IN[0], IN[1]"),
        &quad([0.0, 16.0, 0.0, 16.0], [0.25, 0.0, 0.0, 0.0]),
    );
    assert_eq!(interval_x(&o, 0), (4.0, 4.0));
    assert_eq!(interval_x(&o, 1), (20.0, 20.0));
}

#[test]
fn evaluation_orders_are_accepted() {
    // Quad 1, 1+2^-23, 1+2^-23, 1+2^-22 (affine: both sums 2+2^-22): ddx = ddy = 2^-23.
    // Lane 0 at (0.5, 0.5): px = py = 2^-24 (exact products).
    //   oracle order (1 + 2^-24) + 2^-24: 1 + 2^-24 is a tie, rounds to 1; then 1 again;
    //   sum of products first 1 + (2^-24 + 2^-24) = 1 + 2^-23 (exact).
    // The fused_or_unfused bound accepts both: [1, 1 + 2^-23].
    let e = f32::EPSILON; // 2^-23
    let o = run_cpu(
        &prog("INTERP_OFFSET OUT[0], IN[0], IN[1]"),
        &quad([1.0, 1.0 + e, 1.0 + e, 1.0 + 2.0 * e], [0.5, 0.5, 0.0, 0.0]),
    );
    assert_eq!(x_of(&o)[0], 1.0);
    assert_eq!(interval_x(&o, 0), (1.0, 1.0 + e));
    assert!(!x_undef(&o)[0]);
}

#[test]
fn partial_writemask_keeps_other_channels() {
    // A partial write mask (.yw) with a broadcast swizzle: y and w get the input, x and z
    // keep the zero start.
    let o = run_cpu(
        &prog("INTERP_CENTROID OUT[0].yw, IN[0].xxxx"),
        &quad([2.0, 2.0, 2.0, 2.0], [0.0; 4]),
    );
    let r: &[shaderdiff_oracles::Vec4] = reg(&o, RegKey::new(shaderdiff_model::File::Output, 0));
    assert_eq!(r[0], fv([0.0, 2.0, 0.0, 2.0]));
}
