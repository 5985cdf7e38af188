//! NV cube map and SHADOW targets (NV_gpu_program4 §2.X.4.4 Table X.17, §2.X.8.Z TEX, TXB,
//! TXL, TXP, TXQ; NV_gpu_program5 ARRAYCUBE; OpenGL 3.x §3.8.6 Table 3.19 and §3.8.14-15),
//! lowered and run on every engine with a texture unit, in the style of textures.rs. Cube
//! texel `n` of level `l` holds `[100l + n, 0x100 + 100l + n, ...]` (textures.rs `tex`);
//! a 2x2 face `f` holds texels `4f .. 4f + 3`, texel `(i, j)` = `4f + 2j + i`.

use shaderdiff_backends::{engine, EngineConfig, EngineError, Inputs};
use shaderdiff_nv as nv;
use shaderdiff_oracles::texture::{CompareFunc, Format, Target, Texture, Wrap};

use crate::support::f;
use crate::table_x13::V;
use crate::textures::{row, run_rows, t, tex, U4};

/// A 2x2 depth texture of `target` (`size`) whose texel `n` has depth `n / 4` (R word), the
/// other words 7, compare function `func`.
fn depth(target: Target, size: [u32; 3], func: CompareFunc) -> Texture {
    let mut d = Texture::filled(
        target,
        Format::Rgba32F,
        size,
        1,
        Wrap::ClampToEdge,
        |_, n| [f(n as f32 / 4.0), 7, 7, 7],
    );
    d.compare = Some(func);
    d
}

const ONE: u32 = 0x3f80_0000;
/// The comparison holds: `(1, 1, 1, 1)` (LUMINANCE: `(L, L, L, 1)`).
const PASS: [crate::table_x13::W; 4] = [V(ONE); 4];
/// It fails: `(0, 0, 0, 1)`.
const FAIL: [crate::table_x13::W; 4] = [V(0), V(0), V(0), V(ONE)];

/// CUBE and ARRAYCUBE (Table 3.19 faces; ARRAYCUBE's layer in `w`), TXQ on them.
#[test]
fn cube_faces_layers_and_sizes() {
    let c = || tex(Target::Cube, Format::Rgba32Ui, [2, 2, 6], 1);
    let p = |v: [f32; 4]| v.map(f);
    run_rows(&[
        // (1, 0.5, -0.25): +X, sc = -rz = 0.25 → s = 0.625 → i = 1; tc = -ry = -0.5 → t =
        // 0.25 → j = 0: texel 1.
        row(
            "TEX.U t, p0, texture[0], CUBE;",
            p([1.0, 0.5, -0.25, 0.0]),
            c(),
            t(0, 1),
        ),
        // (0.25, -1, 0.5): -Y, sc = rx → s = 0.625 → 1; tc = -rz = -0.5 → 0: 12 + 1 = 13.
        row(
            "TEX.U t, p0, texture[0], CUBE;",
            p([0.25, -1.0, 0.5, 0.0]),
            c(),
            t(0, 13),
        ),
        // (0.25, 0.5, -2): -Z, sc = -rx / 2 → s = 0.4375 → 0; tc = -ry / 2 → t = 0.375 → 0:
        // 20.
        row(
            "TEX.U t, p0, texture[0], CUBE;",
            p([0.25, 0.5, -2.0, 0.0]),
            c(),
            t(0, 20),
        ),
        // TXP: (-2, 1, 0.5) / -2 = (1, -0.5, -0.25): +X, s = 0.625 → 1, tc = 0.5 → t =
        // 0.75 → 1: texel 3.
        row(
            "TXP.U t, p0, texture[0], CUBE;",
            p([-2.0, 1.0, 0.5, -2.0]),
            c(),
            t(0, 3),
        ),
        // A tie |rx| = |ry| between faces +X (texel 1) and +Y (texel 9): undefined.
        row(
            "TEX.U t, p0, texture[0], CUBE;",
            p([1.0, 1.0, -0.5, 0.0]),
            c(),
            U4,
        ),
        // ARRAYCUBE of 2 cubes, layer w = 0.8 → 1: +X (1, 0) of layer-face 6: 24 + 1 = 25.
        row(
            "TEX.U t, p0, texture[0], ARRAYCUBE;",
            p([1.0, 0.5, -0.25, 0.8]),
            tex(Target::CubeArray, Format::Rgba32Ui, [2, 2, 12], 1),
            t(0, 25),
        ),
        // TXL lambda 1 on a 2-level cube map: level 1 (1x1 faces), +X texel 0 → 100.
        row(
            "TXL.U t, p0, texture[0], CUBE;",
            p([1.0, 0.5, -0.25, 1.0]),
            tex(Target::Cube, Format::Rgba32Ui, [2, 2, 6], 2),
            t(1, 0),
        ),
        // TXQ level 1 of a 2-level cube map: (1, 1, undefined, 2 levels).
        row(
            "TXQ t, p0, texture[0], CUBE;",
            [1, 0, 0, 0],
            tex(Target::Cube, Format::Rgba32Ui, [2, 2, 6], 2),
            [V(1), V(1), crate::table_x13::Undef, V(2)],
        ),
        // TXQ of 3 cubes: (2, 2, 3 cubes, 1).
        row(
            "TXQ t, p0, texture[0], ARRAYCUBE;",
            [0; 4],
            tex(Target::CubeArray, Format::Rgba32Ui, [2, 2, 18], 1),
            [V(2), V(2), V(3), V(1)],
        ),
    ]);
}

/// The SHADOW targets: Table X.17's reference component, each compare function, equal
/// depths, the clamping candidates, TXP and TXL, and a mismatched texture.
#[test]
fn shadow_targets() {
    use CompareFunc as C;
    let d2 = |func| depth(Target::T2D, [2, 2, 1], func);
    let p = |v: [f32; 4]| v.map(f);
    // SHADOW2D at (0.75, 0.25) reads texel 1 (D_t = 0.25); reference z.
    let at = |r: f32| p([0.75, 0.25, r, 0.0]);
    run_rows(&[
        row(
            "TEX t, p0, texture[0], SHADOW2D;",
            at(0.25),
            d2(C::Lequal),
            PASS,
        ),
        row(
            "TEX t, p0, texture[0], SHADOW2D;",
            at(0.5),
            d2(C::Lequal),
            FAIL,
        ),
        row(
            "TEX t, p0, texture[0], SHADOW2D;",
            at(0.25),
            d2(C::Gequal),
            PASS,
        ),
        row(
            "TEX t, p0, texture[0], SHADOW2D;",
            at(0.25),
            d2(C::Less),
            FAIL,
        ),
        row(
            "TEX t, p0, texture[0], SHADOW2D;",
            at(0.125),
            d2(C::Less),
            PASS,
        ),
        row(
            "TEX t, p0, texture[0], SHADOW2D;",
            at(0.5),
            d2(C::Greater),
            PASS,
        ),
        row(
            "TEX t, p0, texture[0], SHADOW2D;",
            at(0.25),
            d2(C::Equal),
            PASS,
        ),
        row(
            "TEX t, p0, texture[0], SHADOW2D;",
            at(0.25),
            d2(C::Notequal),
            FAIL,
        ),
        row(
            "TEX t, p0, texture[0], SHADOW2D;",
            at(0.0),
            d2(C::Always),
            PASS,
        ),
        row(
            "TEX t, p0, texture[0], SHADOW2D;",
            at(0.0),
            d2(C::Never),
            FAIL,
        ),
        // R = 2 against D_t = 0.25, GREATER: true clamped (1 > 0.25) and unclamped.
        row(
            "TEX t, p0, texture[0], SHADOW2D;",
            at(2.0),
            d2(C::Greater),
            PASS,
        ),
        // Texel 3 (D_t = 0.75) at (0.75, 0.75); R = -1, LESS: true either way; but D_t
        // vs R = 1.5 GEQUAL: 1.5 >= 0.75 and clamped 1 >= 0.75: true.
        row(
            "TEX t, p0, texture[0], SHADOW2D;",
            p([0.75, 0.75, -1.0, 0.0]),
            d2(C::Less),
            PASS,
        ),
        row(
            "TEX t, p0, texture[0], SHADOW2D;",
            p([0.75, 0.75, 1.5, 0.0]),
            d2(C::Gequal),
            PASS,
        ),
        // NaN reference: undefined.
        row(
            "TEX t, p0, texture[0], SHADOW2D;",
            [f(0.75), f(0.25), 0x7fc0_0000, 0],
            d2(C::Always),
            U4,
        ),
        // TXP: (1.5, 0.5, 0.25, 2) → (0.75, 0.25), R = 0.125 < 0.25 → LESS holds (the
        // division's rounding does not reach 0.25).
        row(
            "TXP t, p0, texture[0], SHADOW2D;",
            p([1.5, 0.5, 0.25, 2.0]),
            d2(C::Less),
            PASS,
        ),
        // TXL lambda 0 on SHADOW2D (reference z, level w).
        row(
            "TXL t, p0, texture[0], SHADOW2D;",
            p([0.75, 0.25, 0.25, 0.0]),
            d2(C::Equal),
            PASS,
        ),
        // SHADOW1D: s = x (0.875 of width 4: u = 3.5 → texel 3, D_t = 0.75), reference z;
        // y and w are not used.
        row(
            "TEX t, p0, texture[0], SHADOW1D;",
            p([0.875, 9.0, 0.5, 9.0]),
            depth(Target::T1D, [4, 1, 1], C::Lequal),
            PASS,
        ),
        // SHADOWRECT: unnormalised (1.5, 0.5) → texel 1 (0.25); reference z.
        row(
            "TEX t, p0, texture[0], SHADOWRECT;",
            p([1.5, 0.5, 0.5, 0.0]),
            depth(Target::Rect, [2, 2, 1], C::Greater),
            PASS,
        ),
        // SHADOWARRAY1D: layer y = 1, s = 0.75 of width 2 → texel 1 + 2 = 3 (0.75); ref z.
        row(
            "TEX t, p0, texture[0], SHADOWARRAY1D;",
            p([0.75, 1.0, 0.75, 0.0]),
            depth(Target::Array1D, [2, 2, 1], C::Equal),
            PASS,
        ),
        // SHADOWARRAY2D: layer z = 1, (0.25, 0.25) → texel 0 + 4 = 4 (1.0); reference w.
        row(
            "TEX t, p0, texture[0], SHADOWARRAY2D;",
            p([0.25, 0.25, 1.0, 1.0]),
            depth(Target::Array2D, [2, 2, 2], C::Equal),
            PASS,
        ),
        // SHADOWCUBE: +X (1, 0.5, -0.25) → texel 1 (0.25); reference w = 0.5, LESS fails.
        row(
            "TEX t, p0, texture[0], SHADOWCUBE;",
            p([1.0, 0.5, -0.25, 0.5]),
            depth(Target::Cube, [2, 2, 6], C::Less),
            FAIL,
        ),
        // A SHADOW target on a texture without a compare function: undefined.
        row(
            "TEX t, p0, texture[0], SHADOW2D;",
            at(0.25),
            tex(Target::T2D, Format::Rgba32F, [2, 2, 1], 1),
            U4,
        ),
        // A 2D target on a depth texture with a compare function: undefined.
        row("TEX t, p0, texture[0], 2D;", at(0.25), d2(C::Lequal), U4),
    ]);
}

/// Load rules: TXF on cube and SHADOW targets (Table X.18), TXB / TXL / TXP on SHADOWCUBE
/// and SHADOWARRAY2D (§2.X.8.Z) fail to load (invalid); SHADOWARRAYCUBE is refused.
#[test]
fn shadow_and_cube_load_rules() {
    for insn in [
        "TXF.F t, p0, texture[0], CUBE;",
        "TXF.F t, p0, texture[0], SHADOW2D;",
        "TXB t, p0, texture[0], SHADOWCUBE;",
        "TXL t, p0, texture[0], SHADOWARRAY2D;",
        "TXP t, p0, texture[0], SHADOWCUBE;",
    ] {
        let text = format!(
            "!!NVvp5.0\nPARAM p0 = program.local[0];\nTEMP t;\n{insn}\n\
             MOV result.attrib[0], t;\nEND\n"
        );
        let p = nv::parse(&text, "r.nv").unwrap_or_else(|e| panic!("{insn}: {e}"));
        let l = nv::lower(&p).unwrap_or_else(|e| panic!("{insn}: {e}"));
        let inputs = Inputs {
            invocations: 1,
            ..Inputs::default()
        };
        for name in ["interp", "jit"] {
            let e = engine(name, &EngineConfig::default()).expect("engine");
            match e.execute(&l.program, &inputs) {
                Err(EngineError::InvalidProgram { pos, .. }) if name == "interp" => {
                    assert_eq!(pos.map(|p| p.line), Some(4), "{insn}");
                }
                Err(EngineError::InvalidProgram { .. } | EngineError::Unsupported { .. })
                    if name == "jit" => {}
                other => panic!("{name}: {insn}: {other:?}"),
            }
        }
    }
    let p = nv::parse(
        "!!NVfp5.0\nTEX result.color, fragment.texcoord[0], texture[0], SHADOWARRAYCUBE;\nEND\n",
        "r.nv",
    )
    .expect("parses");
    let e = nv::lower(&p).expect_err("refused");
    assert!(matches!(e, nv::LowerError::Unsupported { .. }), "{e}");
    assert!(e.to_string().contains("SHADOWARRAYCUBE"), "{e}");
}
