//! NV texel offsets (NV_gpu_program4 §2.X.4.4 `<texOffset>` and its §3.8.8 edit
//! `u = w_t * s + offsetu_shader`; NV_gpu_program5 §2.X.4.4 `offset(operand)`): lowered to
//! the IR's texel offset register and run on every engine with a texture unit. Expected
//! texels are worked by hand beside each row (texel `n` of level `l` as in textures.rs);
//! the load-time limits (-8..7, components the target lacks) are parse errors at the
//! offending component.

use shaderdiff_nv as nv;
use shaderdiff_oracles::texture::{Format, Target};

use crate::support::f;
use crate::textures::{row, run_rows, t, tex, U4};

/// Constant offsets on TEX, TXP, TXB, TXL and TXF.
#[test]
fn constant_offsets() {
    let f4 = || tex(Target::T2D, Format::Rgba32F, [4, 4, 1], 1);
    let mip = || tex(Target::T2D, Format::Rgba32F, [4, 4, 1], 3);
    let fv = |v: [f32; 4]| v.map(f);
    let i = |v: [i32; 4]| v.map(|x| x as u32);
    run_rows(&[
        // (0.6, 0.3) → u = 2.4, v = 1.2 → (2, 1); + (1, 2) → (3, 3) → 3 + 4*3 = 15.
        row(
            "TEX.F t, p0, texture[0], 2D, (1, 2);",
            fv([0.6, 0.3, 0.0, 0.0]),
            f4(),
            t(0, 15),
        ),
        // One component given, the others zero: (2, 1) + (-2, 0) = (0, 1) → 4.
        row(
            "TEX.F t, p0, texture[0], 2D, (-2);",
            fv([0.6, 0.3, 0.0, 0.0]),
            f4(),
            t(0, 4),
        ),
        // CLAMP_TO_EDGE after the offset: (2, 1) + (7, -8) = (9, -7) → (3, 0) → 3.
        row(
            "TEX.F t, p0, texture[0], 2D, (7, -8);",
            fv([0.6, 0.3, 0.0, 0.0]),
            f4(),
            t(0, 3),
        ),
        // TXP: (1.2, 0.6, 0, 2) / 2 = (0.6, 0.3) → (2, 1); + (-1, -1) → (1, 0) → 1.
        row(
            "TXP.F t, p0, texture[0], 2D, (-1, -1);",
            fv([1.2, 0.6, 0.0, 2.0]),
            f4(),
            t(0, 1),
        ),
        // TXB in a vertex program samples level 0: (0.1, 0.1) → (0, 0); + (1, 1) → 5.
        row(
            "TXB.F t, p0, texture[0], 2D, (1, 1);",
            fv([0.1, 0.1, 0.0, 3.0]),
            mip(),
            t(0, 5),
        ),
        // TXL lambda 1 → level 1 (2x2), the offset in level-1 texels: (0.1, 0.8) →
        // u = 0.2, v = 1.6 → (0, 1); + (1, -1) → (1, 0) → texel 1 of level 1.
        row(
            "TXL.F t, p0, texture[0], 2D, (1, -1);",
            fv([0.1, 0.8, 0.0, 1.0]),
            mip(),
            t(1, 1),
        ),
        // 3D 2x2x2: (0.25, 0.25, 0.25) → (0, 0, 0); + (1, 0, 1) → 1 + 2*(0 + 2*1) = 5.
        row(
            "TEX.F t, p0, texture[0], 3D, (1, 0, 1);",
            fv([0.25, 0.25, 0.25, 0.0]),
            tex(Target::T3D, Format::Rgba32F, [2, 2, 2], 1),
            t(0, 5),
        ),
        // TXF (Table X.18 plus the offset, then the range check): (1, 0) + (2, 3) = (3, 3)
        // → 15; (1, 0) + (3, 0) = (4, 0) is outside the 4x4 level: undefined.
        row(
            "TXF.F t, p0, texture[0], 2D, (2, 3);",
            i([1, 0, 0, 0]),
            f4(),
            t(0, 15),
        ),
        row(
            "TXF.F t, p0, texture[0], 2D, (3, 0);",
            i([1, 0, 0, 0]),
            f4(),
            U4,
        ),
        // ARRAY1D: the offset moves x only, never the layer (y): (2, layer 1) + (-1) →
        // (1, 1) → 1 + 4 = 5.
        row(
            "TXF.F t, p0, texture[0], ARRAY1D, (-1);",
            i([2, 1, 0, 0]),
            tex(Target::Array1D, Format::Rgba32F, [4, 2, 1], 1),
            t(0, 5),
        ),
    ]);
}

/// NV_gpu_program5 `offset(operand)`: the operand's x, y, z read as signed integers; the
/// components the target does not use are ignored; a used component outside -8..7 gives an
/// undefined result ("outside implementation-dependent limits, the results of the texture
/// lookup are undefined").
#[test]
fn operand_offsets() {
    let f4 = || tex(Target::T2D, Format::Rgba32F, [4, 4, 1], 1);
    let fv = |v: [f32; 4]| v.map(f);
    run_rows(&[
        // (0.6, 0.3) → (2, 1); + (1, 2) → (3, 3) → 15; z = 99 is ignored for 2D.
        row(
            "TEMP o;\nMOV.S o, {1, 2, 99, 0};\nTEX.F t, p0, texture[0], 2D, offset(o);",
            fv([0.6, 0.3, 0.0, 0.0]),
            f4(),
            t(0, 15),
        ),
        // A swizzle and an integer negation: -(o.yx) = (-2, -1); (2, 1) → (0, 0) → 0.
        row(
            "TEMP o;\nMOV.S o, {1, 2, 0, 0};\nTEX.F t, p0, texture[0], 2D, offset(-o.yxzw);",
            fv([0.6, 0.3, 0.0, 0.0]),
            f4(),
            t(0, 0),
        ),
        // x = 8 is outside -8..7: undefined.
        row(
            "TEMP o;\nMOV.S o, {8, 0, 0, 0};\nTEX.F t, p0, texture[0], 2D, offset(o);",
            fv([0.6, 0.3, 0.0, 0.0]),
            f4(),
            U4,
        ),
    ]);
}

/// Constant offsets outside -8..7, or non-zero where the target has no such coordinate,
/// make the program fail to load (NV_gpu_program4 §2.X.4.4): a parse error at the
/// component (line 4; columns counted from 1).
#[test]
fn bad_constant_offsets_are_located() {
    let cases: &[(&str, usize, &str)] = &[
        ("TEX t, p0, texture[0], 2D, (1, 8);", 32, "outside -8..7"),
        ("TEX t, p0, texture[0], 2D, (-9);", 29, "outside -8..7"),
        (
            "TEX t, p0, texture[0], 1D, (0, 1);",
            32,
            "no v texel coordinate",
        ),
        (
            "TEX t, p0, texture[0], ARRAY2D, (0, 0, 2);",
            40,
            "no w texel",
        ),
        ("TXF t, p0, texture[0], BUFFER, (1);", 33, "no u texel"),
    ];
    for (insn, col, what) in cases {
        let text = format!("!!NVvp5.0\nPARAM p0 = program.local[0];\nTEMP t;\n{insn}\nEND\n");
        let e = nv::parse(&text, "o.nv").expect_err(insn);
        assert_eq!((e.pos.line, e.pos.col), (4, *col as u32), "{insn}: {e}");
        assert!(e.to_string().contains(what), "{insn}: {e}");
    }
    // In range and on used axes: accepted.
    let ok = "!!NVvp5.0\nPARAM p0 = program.local[0];\nTEMP t;\n\
              TEX t, p0, texture[0], 3D, (-8, 7, 0);\nEND\n";
    assert!(nv::parse(ok, "o.nv").is_ok());
}
