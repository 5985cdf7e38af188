//! Texture instructions (TEX, TXP, TXB, TXL, TXF, TXQ) on every engine. Expected values are
//! worked by hand from tgsi.rst, NV_gpu_program4 §2.X.4.4 (Tables X.17/X.18), OpenGL 3.x
//! §3.8.8 (`i = wrap(floor(s * size))`, mipmap level `d`) and the model's documented
//! decisions (oracle/src/interp/texture.rs, README "Textures"): the comment of each case
//! shows the arithmetic. Texel `n` of level `l` of every test texture holds
//! `[100l + n, 1000 + 100l + n, 2000 + 100l + n, 3000 + 100l + n]`.
//!
//! Every case runs on valhall's texture unit too.

use shaderdiff_backends::Inputs;
use shaderdiff_model::texture::{Format, MinFilter, Target, Texture, Wrap};
use shaderdiff_model::File;
use shaderdiff_model::{RegKey, Vec4};

use crate::support::consts::f;
use crate::support::programs::*;

fn samp(n: u32) -> RegKey {
    RegKey::new(File::Sampler, n)
}

/// The test texel `n` of level `l`.
fn texel(l: u32, n: u32) -> Vec4 {
    let b = 100 * l + n;
    [b, 1000 + b, 2000 + b, 3000 + b]
}

/// A texture of the test texels.
fn tex(target: Target, size: [u32; 3], levels: usize, min: MinFilter, wrap: Wrap) -> Texture {
    let mut t = Texture::filled(target, Format::Rgba32Ui, size, levels, wrap, |l, n| {
        texel(l as u32, n)
    });
    t.min_filter = min;
    t
}

fn with_tex(regs: Vec<Vec4>, t: Texture) -> Inputs {
    let mut i = inputs(regs.len(), &[(input(0), regs)]);
    i.textures.insert(samp(0), t);
    i
}

fn program(stage: &str, insn: &str, target: &str) -> String {
    let decl_in = if stage == "FRAG" {
        "DCL IN[0], GENERIC[0], PERSPECTIVE"
    } else {
        "DCL IN[0]"
    };
    format!(
        "{stage}\n{decl_in}\nDCL OUT[0]\nDCL SAMP[0]\n{insn} OUT[0], IN[0], SAMP[0], {target}\nEND\n"
    )
}

fn run(text: &str, ins: &Inputs, want: Vec<[Ch; 4]>) {
    let e = Expect::new().reg(out(0), want);
    check_program(text, ins, &e);
}

fn t(l: u32, n: u32) -> [Ch; 4] {
    v(texel(l, n))
}

#[test]
fn txf_fetches_and_out_of_range_is_undefined() {
    // 2D 4x2, one level: (1,1) is texel 1 + 4*1 = 5. (4,0) and (-1,0) are outside the
    // level, lod 1 is not a level (Table X.18 list: undefined).
    let ins = with_tex(
        vec![
            iv([1, 1, 0, 0]),
            iv([4, 0, 0, 0]),
            iv([-1, 0, 0, 0]),
            iv([0, 0, 0, 1]),
        ],
        tex(Target::T2D, [4, 2, 1], 1, MinFilter::Nearest, Wrap::Repeat),
    );
    run(
        &program("VERT", "TXF", "2D"),
        &ins,
        vec![t(0, 5), U4, U4, U4],
    );
}

#[test]
fn txf_mip_levels() {
    // 2D 4x2 with level 1 of 2x1 (NEAREST_MIPMAP_NEAREST): (1,0) of level 1 is texel 1;
    // (0,1) of level 1 is outside its one row; (3,1) of level 0 is 3 + 4 = 7; lod -1: undefined.
    let ins = with_tex(
        vec![
            iv([1, 0, 0, 1]),
            iv([0, 1, 0, 1]),
            iv([3, 1, 0, 0]),
            iv([0, 0, 0, -1]),
        ],
        tex(
            Target::T2D,
            [4, 2, 1],
            2,
            MinFilter::NearestMipmapNearest,
            Wrap::ClampToEdge,
        ),
    );
    run(
        &program("VERT", "TXF", "2D"),
        &ins,
        vec![t(1, 1), U4, t(0, 7), U4],
    );
    // With NEAREST minification a level other than the base level is undefined.
    let ins = with_tex(
        vec![iv([1, 0, 0, 1]); 4],
        tex(
            Target::T2D,
            [4, 2, 1],
            2,
            MinFilter::Nearest,
            Wrap::ClampToEdge,
        ),
    );
    run(&program("VERT", "TXF", "2D"), &ins, vec![U4; 4]);
}

#[test]
fn txf_buffer_and_array_layers() {
    // BUFFER of 6 texels: x only, w ignored; 6 is outside.
    let ins = with_tex(
        vec![
            iv([5, 9, 9, 3]),
            iv([6, 0, 0, 0]),
            iv([0, 0, 0, 0]),
            iv([2, 0, 0, 0]),
        ],
        tex(
            Target::Buffer,
            [6, 1, 1],
            1,
            MinFilter::Nearest,
            Wrap::Repeat,
        ),
    );
    run(
        &program("VERT", "TXF", "BUFFER"),
        &ins,
        vec![t(0, 5), U4, t(0, 0), t(0, 2)],
    );
    // ARRAY2D 2x2 with 3 layers: (1,0) of layer 2 is 1 + 2*(0 + 2*2) = 9; layer 3 is
    // outside (Table X.18: layer in z).
    let ins = with_tex(
        vec![
            iv([1, 0, 2, 0]),
            iv([0, 1, 3, 0]),
            iv([0, 1, 1, 0]),
            iv([0, 2, 0, 0]),
        ],
        tex(
            Target::Array2D,
            [2, 2, 3],
            1,
            MinFilter::Nearest,
            Wrap::Repeat,
        ),
    );
    run(
        &program("VERT", "TXF", "2D_ARRAY"),
        &ins,
        vec![t(0, 9), U4, t(0, 6), U4],
    );
}

#[test]
fn tex_nearest_clamp_to_edge() {
    // 1D width 4: s=0.375 → u=1.5 → texel 1; s=-0.1 → clamp to 0; s=1.3 → u=5.2 → clamp
    // to 3; s=0.5 → u=2.0 is a texel edge: texels 1 and 2 differ, so undefined.
    let ins = with_tex(
        vec![
            [f(0.375), 0, 0, 0],
            [f(-0.1), 0, 0, 0],
            [f(1.3), 0, 0, 0],
            [f(0.5), 0, 0, 0],
        ],
        tex(
            Target::T1D,
            [4, 1, 1],
            1,
            MinFilter::Nearest,
            Wrap::ClampToEdge,
        ),
    );
    run(
        &program("VERT", "TEX", "1D"),
        &ins,
        vec![t(0, 1), t(0, 0), t(0, 3), U4],
    );
}

#[test]
fn tex_nearest_repeat() {
    // 1D width 4, REPEAT: s=-0.1 → u=-0.4 → floor -1 → 3; s=1.3 → u=5.2 → 5 mod 4 = 1;
    // s=0.125 → u=0.5 → 0; s=2.0 → u=8.0 is an edge (texel 3 or 0): undefined.
    let ins = with_tex(
        vec![
            [f(-0.1), 0, 0, 0],
            [f(1.3), 0, 0, 0],
            [f(0.125), 0, 0, 0],
            [f(2.0), 0, 0, 0],
        ],
        tex(Target::T1D, [4, 1, 1], 1, MinFilter::Nearest, Wrap::Repeat),
    );
    run(
        &program("VERT", "TEX", "1D"),
        &ins,
        vec![t(0, 3), t(0, 1), t(0, 0), U4],
    );
}

#[test]
fn tex_edge_defined_where_texels_agree() {
    // 1D width 2 whose texels share x and y: s=0.5 → u=1.0, the edge between them, gives
    // x and y (equal in both) and leaves z and w undefined.
    let mut tx = tex(
        Target::T1D,
        [2, 1, 1],
        1,
        MinFilter::Nearest,
        Wrap::ClampToEdge,
    );
    tx.levels[0] = vec![[1, 2, 3, 4], [1, 2, 9, 9]];
    let ins = with_tex(vec![[f(0.5), 0, 0, 0]; 4], tx);
    let want = [Ch::V(1), Ch::V(2), Ch::U, Ch::U];
    run(&program("VERT", "TEX", "1D"), &ins, vec![want; 4]);
}

#[test]
fn tex_2d_3d_rect() {
    // 3D 2x2x2: (0.75, 0.25, 0.75) → (1, 0, 1) → 1 + 2*(0 + 2*1) = 5.
    let ins = with_tex(
        vec![fv4([0.75, 0.25, 0.75, 0.0]); 4],
        tex(Target::T3D, [2, 2, 2], 1, MinFilter::Nearest, Wrap::Repeat),
    );
    run(&program("VERT", "TEX", "3D"), &ins, vec![t(0, 5); 4]);
    // RECT 3x2, unnormalised: (2.5, 1.5) → (2, 1) → 2 + 3 = 5; (-1, 9) → clamp (0, 1) → 3.
    let ins = with_tex(
        vec![
            fv4([2.5, 1.5, 0.0, 0.0]),
            fv4([-1.0, 9.0, 0.0, 0.0]),
            fv4([0.5, 0.5, 0.0, 0.0]),
            fv4([2.9, 0.1, 0.0, 0.0]),
        ],
        tex(
            Target::Rect,
            [3, 2, 1],
            1,
            MinFilter::Nearest,
            Wrap::ClampToEdge,
        ),
    );
    run(
        &program("VERT", "TEX", "RECT"),
        &ins,
        vec![t(0, 5), t(0, 3), t(0, 0), t(0, 2)],
    );
}

#[test]
fn tex_array_layers() {
    // ARRAY2D 2x2, 3 layers: layer = clamp(floor(r + 0.5), 0, 2).
    // (0.25, 0.75, 1.4) → (0, 1), layer 1 → 0 + 2*(1 + 2*1) = 6;
    // (0.75, 0.25, 7.0) → (1, 0), layer 2 → 1 + 2*(0 + 2*2) = 9;
    // (0.25, 0.25, 0.5) → r + 0.5 = 1 is a tie: layer 0 (texel 0) or 1 (texel 4): undefined;
    // (0.25, 0.25, -3.0) → layer 0 → texel 0.
    let ins = with_tex(
        vec![
            fv4([0.25, 0.75, 1.4, 0.0]),
            fv4([0.75, 0.25, 7.0, 0.0]),
            fv4([0.25, 0.25, 0.5, 0.0]),
            fv4([0.25, 0.25, -3.0, 0.0]),
        ],
        tex(
            Target::Array2D,
            [2, 2, 3],
            1,
            MinFilter::Nearest,
            Wrap::Repeat,
        ),
    );
    run(
        &program("VERT", "TEX", "2D_ARRAY"),
        &ins,
        vec![t(0, 6), t(0, 9), U4, t(0, 0)],
    );
    // ARRAY1D width 4, 3 layers (layer in y): (0.375, 2.2) → i = 1, layer 2 → 2*4 + 1 = 9.
    let ins = with_tex(
        vec![fv4([0.375, 2.2, 0.0, 0.0]); 4],
        tex(
            Target::Array1D,
            [4, 3, 1],
            1,
            MinFilter::Nearest,
            Wrap::Repeat,
        ),
    );
    run(&program("VERT", "TEX", "1D_ARRAY"), &ins, vec![t(0, 9); 4]);
}

#[test]
fn txp_divides_by_w() {
    // 2D 4x4: (1.25, 0.625, 0, 2) → (0.625, 0.3125) → u = 2.5, v = 1.25 → 2 + 4 = 6;
    // (-0.625, -0.375, 0, -1) → (0.625, 0.375) → (2, 1) → 6; w = 0: infinite coordinates,
    // undefined; (0.5, 0.5, 0, 4) → (0.125, 0.125) → (0, 0) → 0.
    let ins = with_tex(
        vec![
            fv4([1.25, 0.625, 0.0, 2.0]),
            fv4([-0.625, -0.375, 0.0, -1.0]),
            fv4([0.5, 0.5, 0.0, 0.0]),
            fv4([0.5, 0.5, 0.0, 4.0]),
        ],
        tex(Target::T2D, [4, 4, 1], 1, MinFilter::Nearest, Wrap::Repeat),
    );
    run(
        &program("VERT", "TXP", "2D"),
        &ins,
        vec![t(0, 6), t(0, 6), U4, t(0, 0)],
    );
}

/// 2D 4x4 with levels of 2x2 and 1x1, NEAREST_MIPMAP_NEAREST. At (0.8, 0.8): level 0 →
/// u = 3.2 → (3, 3) → 15; level 1 → u = 1.6 → (1, 1) → 3; level 2 → (0, 0) → 0.
fn mipmapped() -> Texture {
    tex(
        Target::T2D,
        [4, 4, 1],
        3,
        MinFilter::NearestMipmapNearest,
        Wrap::ClampToEdge,
    )
}

#[test]
fn txl_selects_levels() {
    // GL §3.8.8: d = 0 for lambda <= 1/2, else ceil(lambda + 1/2) - 1, clamped to level 2.
    // 0.4 → 0; 1.0 → 1; 1.6 → 2; 9 → 2.
    let c = |l: f32| fv4([0.8, 0.8, 0.0, l]);
    let ins = with_tex(vec![c(0.4), c(1.0), c(1.6), c(9.0)], mipmapped());
    run(
        &program("VERT", "TXL", "2D"),
        &ins,
        vec![t(0, 15), t(1, 3), t(2, 0), t(2, 0)],
    );
    // 1.5 is the boundary between levels 1 and 2 (texels differ): undefined; NaN: undefined;
    // -2 → 0 (magnification).
    let ins = with_tex(vec![c(1.5), c(f32::NAN), c(-2.0), c(0.5)], mipmapped());
    run(
        &program("VERT", "TXL", "2D"),
        &ins,
        vec![U4, U4, t(0, 15), U4],
    );
}

#[test]
fn tex_and_txb_outside_fragment_programs_use_level_0() {
    // NV_gpu_program4 §2.X.4.4: zero partials outside fragment programs, lambda = -inf:
    // level 0 whatever the bias; a bias of +inf makes lambda NaN: undefined.
    let c = |b: f32| fv4([0.8, 0.8, 0.0, b]);
    let ins = with_tex(vec![c(0.0), c(2.0), c(-5.0), c(f32::INFINITY)], mipmapped());
    run(
        &program("VERT", "TXB", "2D"),
        &ins,
        vec![t(0, 15), t(0, 15), t(0, 15), U4],
    );
    let ins = with_tex(vec![c(0.0), c(3.0), c(0.0), c(0.0)], mipmapped());
    run(&program("VERT", "TEX", "2D"), &ins, vec![t(0, 15); 4]);
}

#[test]
fn tex_in_fragment_quad_single_level() {
    // A 2x2 single-level texture sampled by one quad at the four texel centres.
    let ins = with_tex(
        vec![
            fv4([0.25, 0.25, 0.0, 1.0]),
            fv4([0.75, 0.25, 0.0, 1.0]),
            fv4([0.25, 0.75, 0.0, 1.0]),
            fv4([0.75, 0.75, 0.0, 1.0]),
        ],
        tex(Target::T2D, [2, 2, 1], 1, MinFilter::Nearest, Wrap::Repeat),
    );
    run(
        &program("FRAG", "TEX", "2D"),
        &ins,
        vec![t(0, 0), t(0, 1), t(0, 2), t(0, 3)],
    );
}

#[test]
fn txq_sizes() {
    // 2D 5x3 with 3 levels: level 1 is 2x1, level 2 1x1; z undefined for 2D; w = 3 levels
    // (tgsi.rst TXQ); level 3 does not exist: x, y, z undefined.
    let ins = with_tex(
        vec![
            iv([0; 4]),
            iv([1, 0, 0, 0]),
            iv([2, 0, 0, 0]),
            iv([3, 0, 0, 0]),
        ],
        tex(
            Target::T2D,
            [5, 3, 1],
            3,
            MinFilter::NearestMipmapNearest,
            Wrap::Repeat,
        ),
    );
    let q = |x: u32, y: u32| [Ch::V(x), Ch::V(y), Ch::U, Ch::V(3)];
    run(
        &program("VERT", "TXQ", "2D"),
        &ins,
        vec![q(5, 3), q(2, 1), q(1, 1), [Ch::U, Ch::U, Ch::U, Ch::V(3)]],
    );
    // ARRAY1D 8 wide with 5 layers: (8, 5); ARRAY2D 4x2x6: (4, 2, 6); 3D 4x2x2 level 1:
    // (2, 1, 1); BUFFER of 16: (16).
    let one = |target: Target, size: [u32; 3], levels: usize, lod: i32| {
        with_tex(
            vec![iv([lod, 0, 0, 0]); 4],
            tex(
                target,
                size,
                levels,
                MinFilter::NearestMipmapNearest,
                Wrap::Repeat,
            ),
        )
    };
    let ins = one(Target::Array1D, [8, 5, 1], 1, 0);
    let w = [Ch::V(8), Ch::V(5), Ch::U, Ch::V(1)];
    run(&program("VERT", "TXQ", "1D_ARRAY"), &ins, vec![w; 4]);
    let ins = one(Target::Array2D, [4, 2, 6], 1, 0);
    run(
        &program("VERT", "TXQ", "2D_ARRAY"),
        &ins,
        vec![v([4, 2, 6, 1]); 4],
    );
    let ins = one(Target::T3D, [4, 2, 2], 2, 1);
    run(
        &program("VERT", "TXQ", "3D"),
        &ins,
        vec![v([2, 1, 1, 2]); 4],
    );
    let ins = one(Target::Buffer, [16, 1, 1], 1, 7);
    let w = [Ch::V(16), Ch::U, Ch::U, Ch::V(1)];
    run(&program("VERT", "TXQ", "BUFFER"), &ins, vec![w; 4]);
}

#[test]
fn missing_texture_and_type_mismatch_are_undefined() {
    // No texture on the unit: not complete, every channel undefined (§2.X.4.4).
    let ins = inputs(4, &[(input(0), vec![iv([0; 4]); 4])]);
    run(&program("VERT", "TXF", "2D"), &ins, vec![U4; 4]);
    // DCL SVIEW[0] FLOAT reading an RGBA32UI texture: undefined; UINT reads it.
    let text = |ty: &str| {
        format!(
            "VERT\nDCL IN[0]\nDCL OUT[0]\nDCL SAMP[0]\nDCL SVIEW[0], 2D, {ty}\n\
             TXF OUT[0], IN[0], SAMP[0], 2D\nEND\n"
        )
    };
    let ins = with_tex(
        vec![iv([1, 0, 0, 0]); 4],
        tex(Target::T2D, [2, 2, 1], 1, MinFilter::Nearest, Wrap::Repeat),
    );
    run(&text("FLOAT"), &ins, vec![U4; 4]);
    run(&text("UINT"), &ins, vec![t(0, 1); 4]);
}

fn fv4(v: [f32; 4]) -> Vec4 {
    v.map(f32::to_bits)
}
