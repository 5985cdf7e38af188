//! NV LOD, implicit-derivative TEX / TXB in fragment programs, and TXFMS on multisample
//! textures (NV_gpu_program5 Table X.13 rows LOD, TXFMS; NV_explicit_multisample
//! "TexelFetchMultisample"; OpenGL 3.x §3.8.8 equations 3.18-3.21), lowered to the IR and
//! run on every engine (valhall runs the implicit-derivative TEX / TXB and refuses LOD and
//! the multisample targets, which its texture unit does not run). Expected
//! values are worked by hand beside each case. Texel `n` of level `l` holds
//! `[100l + n, 0x100 + 100l + n, 0x200 + 100l + n, 0x300 + 100l + n]`.

use shaderdiff_backends::Inputs;
use shaderdiff_nv as nv;
use shaderdiff_oracles::texture::{Format, MinFilter, Target, Texture, Wrap};
use shaderdiff_oracles::RegKey;

use crate::support::f;
use crate::table_x13::{Undef, V, W};
use crate::textures::{check_engines, row, run_rows, t, tex, U4};

/// A multisample texture whose texel `n` (each pixel's samples in a row, README
/// "Textures") holds the pattern of `t(0, n)`.
fn ms(target: Target, format: Format, size: [u32; 3], samples: u32) -> Texture {
    let n = size.iter().product::<u32>() * samples;
    Texture {
        target,
        format,
        size,
        wrap: [Wrap::ClampToEdge; 3],
        min_filter: MinFilter::Nearest,
        levels: vec![(0..n)
            .map(|b| [b, 0x100 + b, 0x200 + b, 0x300 + b])
            .collect()],
        samples,
        compare: None,
    }
}

/// TXFMS (NV_explicit_multisample: `(x, y)` the pixel, `w` the sample, the layer in `z`
/// for ARRAY2DMS as Table X.18's ARRAY2D; a sample >= SAMPLES, or a pixel or layer outside
/// the image, is undefined; the data type modifier must match the format).
#[test]
fn txfms() {
    let i = |v: [i32; 4]| v.map(|x| x as u32);
    let f4 = || ms(Target::Ms2D, Format::Rgba32F, [2, 2, 1], 4);
    let u4 = || ms(Target::Ms2D, Format::Rgba32Ui, [2, 2, 1], 4);
    let s3 = || ms(Target::MsArray2D, Format::Rgba32I, [2, 1, 3], 2);
    run_rows(&[
        // 2x2, 4 samples: pixel (1, 1) = 1 + 2 = 3, sample 3 → texel 3 * 4 + 3 = 15.
        row(
            "TXFMS.F t, p0, texture[0], 2DMS;",
            i([1, 1, 0, 3]),
            f4(),
            t(0, 15),
        ),
        // Pixel (0, 1) = 2, sample 2 → 10; z is ignored on 2DMS.
        row(
            "TXFMS.U t, p0, texture[0], 2DMS;",
            i([0, 1, 9, 2]),
            u4(),
            t(0, 10),
        ),
        // ARRAY2DMS 2x1, 3 layers, 2 samples: (1, 0) of layer 2 = pixel 2 * 2 + 1 = 5,
        // sample 1 → 5 * 2 + 1 = 11.
        row(
            "TXFMS.S t, p0, texture[0], ARRAY2DMS;",
            i([1, 0, 2, 1]),
            s3(),
            t(0, 11),
        ),
        // A constant texel offset (1, 0) on (0, 0): pixel (1, 0) = 1, sample 0 → 4.
        row(
            "TXFMS.U t, p0, texture[0], 2DMS, (1, 0);",
            i([0, 0, 0, 0]),
            u4(),
            t(0, 4),
        ),
        // Sample 4 of 4 and sample -1: undefined; pixel (2, 0), layer 3: outside.
        row(
            "TXFMS.U t, p0, texture[0], 2DMS;",
            i([1, 1, 0, 4]),
            u4(),
            U4,
        ),
        row(
            "TXFMS.U t, p0, texture[0], 2DMS;",
            i([1, 1, 0, -1]),
            u4(),
            U4,
        ),
        row(
            "TXFMS.U t, p0, texture[0], 2DMS;",
            i([2, 0, 0, 0]),
            u4(),
            U4,
        ),
        row(
            "TXFMS.S t, p0, texture[0], ARRAY2DMS;",
            i([0, 0, 3, 0]),
            s3(),
            U4,
        ),
        // .U reading an RGBA32F texture: undefined (§2.X.4.4 data type rule).
        row(
            "TXFMS.U t, p0, texture[0], 2DMS;",
            i([0, 0, 0, 0]),
            f4(),
            U4,
        ),
        // TXQ of a 2DMS texture: width 2, height 2, z undefined, w = 1 level.
        row(
            "TXQ t, p0, texture[0], 2DMS;",
            i([0, 0, 0, 0]),
            u4(),
            [V(2), V(2), Undef, V(1)],
        ),
    ]);
}

/// Runs `insn` (reading `fragment.texcoord[0]`, writing `t`) in a fragment program over
/// one quad with texture coordinates `tc` (lanes `(x,y) (x+1,y) (x,y+1) (x+1,y+1)`) and
/// `tex` on `texture[0]` (when given), and checks `result.color` = `t` against `want` per
/// lane.
pub(crate) fn run_quad(insn: &str, tc: [[f32; 4]; 4], tex: Option<&Texture>, want: [[W; 4]; 4]) {
    let text = format!("!!NVfp5.0\nTEMP t;\nMOV.U t, 0;\n{insn}\nMOV.U result.color, t;\nEND\n");
    let p = nv::parse(&text, "quad.nv").unwrap_or_else(|e| panic!("{insn}: {e}"));
    let l = nv::lower(&p).unwrap_or_else(|e| panic!("{insn}: {e}"));
    let mut inputs = Inputs {
        invocations: 4,
        ..Inputs::default()
    };
    let (file, idx) = l
        .names
        .lookup(l.stage, "fragment.texcoord[0]")
        .expect("texcoord");
    inputs.registers.insert(
        RegKey::new(file, idx),
        tc.iter().map(|v| v.map(f)).collect(),
    );
    if let Some(tex) = tex {
        let (file, idx) = l.names.lookup(l.stage, "texture[0]").expect("texture[0]");
        inputs.textures.insert(RegKey::new(file, idx), tex.clone());
    }
    let (file, idx) = l.names.lookup(l.stage, "result.color").expect("out");
    let key = RegKey::new(file, idx);
    check_engines(&l.program, &inputs, key, &want, insn);
}

/// The quad `s = 0.3 + 0.25 x`, `t = 0.3 + 0.5 y`, `w` = `bias` on an 8x8 texture:
/// du/dx = 8 * 0.25 = 2, dv/dy = 8 * 0.5 = 4, the cross terms 0, so every allowed `rho`
/// (fine or coarse, max or sum) is 4: lambda = 2.
fn quad(bias: f32) -> [[f32; 4]; 4] {
    [
        [0.3, 0.3, 0.0, bias],
        [0.55, 0.3, 0.0, bias],
        [0.3, 0.8, 0.0, bias],
        [0.55, 0.8, 0.0, bias],
    ]
}

/// TEX and TXB with implicit derivatives (NV_gpu_program5 §2.X.8.Z TEX, TXB:
/// `lambda = ComputeLOD(ddx, ddy)`, TXB `lambda + tmp.w`; NEAREST_MIPMAP_NEAREST
/// `d = ceil(lambda + 1/2) - 1`).
#[test]
fn implicit_lod_tex_txb() {
    let mip = tex(Target::T2D, Format::Rgba32F, [8, 8, 1], 4);
    // lambda 2 → level 2 (2x2): lanes (0.3, 0.3) (0.55, 0.3) (0.3, 0.8) (0.55, 0.8) →
    // u, v = 0.6 / 1.1, 0.6 / 1.6 → texels (0,0) (1,0) (0,1) (1,1) = 0, 1, 2, 3.
    run_quad(
        "TEX.F t, fragment.texcoord[0], texture[0], 2D;",
        quad(0.0),
        Some(&mip),
        [t(2, 0), t(2, 1), t(2, 2), t(2, 3)],
    );
    // TXB bias -1: lambda 1 → level 1 (4x4): u, v = 1.2 / 2.2, 1.2 / 3.2 → (1,1) (2,1)
    // (1,3) (2,3) = 5, 6, 13, 14.
    run_quad(
        "TXB.F t, fragment.texcoord[0], texture[0], 2D;",
        quad(-1.0),
        Some(&mip),
        [t(1, 5), t(1, 6), t(1, 13), t(1, 14)],
    );
    // Bias +5: GL clamps it to MAX_TEXTURE_LOD_BIAS >= 2, so lambda is anything from 4 to
    // 7, all past the last level 3 (1x1): texel 0 of level 3 in every lane.
    run_quad(
        "TXB.F t, fragment.texcoord[0], texture[0], 2D;",
        quad(5.0),
        Some(&mip),
        [t(3, 0), t(3, 0), t(3, 0), t(3, 0)],
    );
}

/// LOD (NV_gpu_program5 Table X.13 "compute texture LOD", as tgsi.rst LODQ: `x` the level
/// accessed, `y` lambda'; `z`, `w` undefined).
#[test]
fn lod() {
    let mip = tex(Target::T2D, Format::Rgba32F, [8, 8, 1], 4);
    // lambda = 2 exactly (rho = 4 whatever the approximation): x = level 2; the oracle's
    // acceptance interval for y is [2 - 2^-8, 2 + 2^-8], whose middle 2.0 it reports, and
    // the jit's log2(4) is 2.0.
    let two = [V(f(2.0)), V(f(2.0)), Undef, Undef];
    run_quad(
        "LOD t, fragment.texcoord[0], texture[0], 2D;",
        quad(0.0),
        Some(&mip),
        [two; 4],
    );
    // NEAREST minification: level 0 is accessed whatever lambda is.
    let mut nearest = mip.clone();
    nearest.min_filter = MinFilter::Nearest;
    let zero = [V(f(0.0)), V(f(2.0)), Undef, Undef];
    run_quad(
        "LOD t, fragment.texcoord[0], texture[0], 2D;",
        quad(0.0),
        Some(&nearest),
        [zero; 4],
    );
}
