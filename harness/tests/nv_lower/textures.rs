//! NV texture instructions (NV_gpu_program4 §2.X.4.4, §2.X.8.Z TEX, TXB, TXL, TXP, TXF,
//! TXQ; NOTES.md §13) lowered to the IR and run on every engine (valhall refuses only a
//! TG4 component in a register, exit 3). One row per instruction and case, in the style of
//! table_x13.rs; expected values are worked by hand from the sections cited beside each row.
//! Texel `n` of level `l` of the test textures holds `[100l + n, 0x100 + 100l + n,
//! 0x200 + 100l + n, 0x300 + 100l + n]`.

use shaderdiff_backends::{engine, EngineConfig, EngineError, Inputs, ENGINE_NAMES};
use shaderdiff_nv as nv;
use shaderdiff_oracles::texture::{Format, Target, Texture, Wrap};
use shaderdiff_oracles::RegKey;

use crate::support::f;
use crate::table_x13::{Undef, V, W};

fn texel(l: u32, n: u32) -> [u32; 4] {
    let b = 100 * l + n;
    [b, 0x100 + b, 0x200 + b, 0x300 + b]
}

pub(crate) fn tex(target: Target, format: Format, size: [u32; 3], levels: usize) -> Texture {
    Texture::filled(target, format, size, levels, Wrap::ClampToEdge, |l, n| {
        texel(l as u32, n)
    })
}

pub(crate) struct Row {
    insn: &'static str,
    p0: [u32; 4],
    tex: Texture,
    want: [W; 4],
}

pub(crate) fn row(insn: &'static str, p0: [u32; 4], tex: Texture, want: [W; 4]) -> Row {
    Row {
        insn,
        p0,
        tex,
        want,
    }
}

pub(crate) fn t(l: u32, n: u32) -> [W; 4] {
    texel(l, n).map(V)
}

pub(crate) const U4: [W; 4] = [Undef; 4];

/// Runs every row as `!!NVvp5.0` with `p0` = program.local[0], the row's texture on
/// `texture[0]` (the inputs-file name, looked up in the lowering's NameMap) and
/// `result.attrib[0]` = the instruction's result.
pub(crate) fn run_rows(rows: &[Row]) {
    for r in rows {
        let text = format!(
            "!!NVvp5.0\nPARAM p0 = program.local[0];\nTEMP t;\nMOV.U t, 0;\n{}\n\
             MOV.U result.attrib[0], t;\nEND\n",
            r.insn
        );
        let p = nv::parse(&text, "row.nv").unwrap_or_else(|e| panic!("{}: {e}", r.insn));
        let l = nv::lower(&p).unwrap_or_else(|e| panic!("{}: {e}", r.insn));
        let mut inputs = Inputs {
            invocations: 1,
            ..Inputs::default()
        };
        let (file, idx) = l.names.lookup(l.stage, "program.local[0]").expect("p0");
        inputs.constants.insert(RegKey::new(file, idx), r.p0);
        let (file, idx) = l.names.lookup(l.stage, "texture[0]").expect("texture[0]");
        // ARB_fragment_program: `texture` is unit 0.
        assert_eq!(l.names.lookup(l.stage, "texture"), Some((file, idx)));
        inputs
            .textures
            .insert(RegKey::new(file, idx), r.tex.clone());
        let (file, idx) = l.names.lookup(l.stage, "result.attrib[0]").expect("out");
        let key = RegKey::new(file, idx);
        check_engines(&l.program, &inputs, key, &[r.want], r.insn);
    }
}

/// Runs `program` with `inputs` on every engine (valhall may refuse it only when it holds a
/// texture opcode or target its texture unit does not run) and checks output `key` of invocation `i` against `want[i]`: `V` words exactly
/// (and defined by the oracle), `Undef` marked undefined by the oracle. `what` names the
/// case in messages.
pub(crate) fn check_engines(
    program: &shaderdiff_model::Program,
    inputs: &Inputs,
    key: RegKey,
    want: &[[W; 4]],
    what: &str,
) {
    let valhall_refuses = program.instructions.iter().any(|i| {
        i.opcode.info().is_tex
            && (!shaderdiff_valhall::engine::runs_texture_opcode(i.opcode)
                || i.texture
                    .is_some_and(|t| !shaderdiff_valhall::engine::runs_texture_target(t)))
    });
    for name in ENGINE_NAMES {
        let e = engine(name, &EngineConfig::default()).expect("engine");
        let out = match e.execute(program, inputs) {
            Ok(o) => o,
            Err(EngineError::Unsupported { reason, .. })
                if *name == "valhall" && valhall_refuses =>
            {
                assert!(reason.contains("valhall texture unit"), "{reason}");
                continue;
            }
            Err(err) => panic!("{name}: {what}: {err}"),
        };
        for (lane, w) in want.iter().enumerate() {
            let got = out.registers[&key][lane];
            let undef = out.undefined.get(&key).map_or(0, |u| u[lane]);
            for (c, (&word, want)) in got.iter().zip(w).enumerate() {
                let ctx = format!("{name}: `{what}` lane {lane} channel {c}: got {word:#010x}");
                match *want {
                    V(v) => {
                        assert_eq!(word, v, "{ctx}, want {v:#010x}");
                        if *name == "interp" {
                            assert!(undef & (1 << c) == 0, "{ctx}: marked undefined");
                        }
                    }
                    Undef if *name == "interp" => {
                        assert!(undef & (1 << c) != 0, "{ctx}: not marked undefined")
                    }
                    _ => {}
                }
            }
        }
    }
}

/// TXF (§ TXF, Table X.18): `(i, j, k)`, layer and level in `w`; out of range undefined;
/// the data type modifier must match the texture's format (§2.X.4.4), else undefined.
#[test]
fn txf() {
    let f2 = || tex(Target::T2D, Format::Rgba32F, [2, 2, 1], 1);
    let u2 = || tex(Target::T2D, Format::Rgba32Ui, [2, 2, 1], 1);
    let i = |v: [i32; 4]| v.map(|x| x as u32);
    run_rows(&[
        // (1, 1) of a 2x2 level: texel 1 + 2 = 3.
        row(
            "TXF.F t, p0, texture[0], 2D;",
            i([1, 1, 0, 0]),
            f2(),
            t(0, 3),
        ),
        row(
            "TXF.U t, p0, texture[0], 2D;",
            i([0, 1, 0, 0]),
            u2(),
            t(0, 2),
        ),
        // .U reading an RGBA32F texture: undefined.
        row("TXF.U t, p0, texture[0], 2D;", i([0, 1, 0, 0]), f2(), U4),
        // (2, 0) is outside; (-1, 0) too.
        row("TXF.F t, p0, texture[0], 2D;", i([2, 0, 0, 0]), f2(), U4),
        row("TXF.F t, p0, texture[0], 2D;", i([-1, 0, 0, 0]), f2(), U4),
        // ARRAY1D 4 wide, 3 layers: (3, layer 2) → 2*4 + 3 = 11 (Table X.18: layer in y).
        row(
            "TXF.S t, p0, texture[0], ARRAY1D;",
            i([3, 2, 0, 0]),
            tex(Target::Array1D, Format::Rgba32I, [4, 3, 1], 1),
            t(0, 11),
        ),
        // BUFFER of 8: x only, w ignored.
        row(
            "TXF.U t, p0, texture[0], BUFFER;",
            i([7, 5, 5, 9]),
            tex(Target::Buffer, Format::Rgba32Ui, [8, 1, 1], 1),
            t(0, 7),
        ),
        // 4x4 with levels 2x2 and 1x1: level 1, (1, 0) → texel 1 of level 1.
        row(
            "TXF.U t, p0, texture[0], 2D;",
            i([1, 0, 0, 1]),
            tex(Target::T2D, Format::Rgba32Ui, [4, 4, 1], 3),
            t(1, 1),
        ),
    ]);
}

/// TEX, TXP, TXB, TXL (§ TEX, TXP, TXB, TXL; §2.X.4.4 Table X.17): NEAREST sampling of
/// `floor(s * size)`, CLAMP_TO_EDGE; vertex programs have zero partials, so TEX and TXB
/// sample level 0; TXL takes its level of detail from `w` (GL §3.8.8 level `d`).
#[test]
fn sampling() {
    let f4 = || tex(Target::T2D, Format::Rgba32F, [4, 4, 1], 1);
    let mip = || tex(Target::T2D, Format::Rgba32F, [4, 4, 1], 3);
    let fv = |v: [f32; 4]| v.map(f);
    run_rows(&[
        // (0.6, 0.3) → u = 2.4, v = 1.2 → (2, 1) → 2 + 4 = 6.
        row(
            "TEX.F t, p0, texture[0], 2D;",
            fv([0.6, 0.3, 0.0, 0.0]),
            f4(),
            t(0, 6),
        ),
        // Clamped: (-3, 9) → (0, 3) → 12.
        row(
            "TEX.F t, p0, texture[0], 2D;",
            fv([-3.0, 9.0, 0.0, 0.0]),
            f4(),
            t(0, 12),
        ),
        // TXP: (1.2, 0.6, 0, 2) / 2 = (0.6, 0.3) → texel 6.
        row(
            "TXP.F t, p0, texture[0], 2D;",
            fv([1.2, 0.6, 0.0, 2.0]),
            f4(),
            t(0, 6),
        ),
        // TXB in a vertex program: level 0 whatever the bias: (0.8, 0.8) → (3, 3) → 15.
        row(
            "TXB.F t, p0, texture[0], 2D;",
            fv([0.8, 0.8, 0.0, 2.0]),
            mip(),
            t(0, 15),
        ),
        // TXL lambda 1.0 → level ceil(1.5) - 1 = 1 (2x2): (0.8, 0.8) → (1, 1) → 3.
        row(
            "TXL.F t, p0, texture[0], 2D;",
            fv([0.8, 0.8, 0.0, 1.0]),
            mip(),
            t(1, 3),
        ),
        // TXL lambda 7 → clamped to the last level 2 (1x1) → texel 0 of level 2.
        row(
            "TXL.F t, p0, texture[0], 2D;",
            fv([0.8, 0.8, 0.0, 7.0]),
            mip(),
            t(2, 0),
        ),
        // ARRAY2D 2x2 with 2 layers: (0.75, 0.25), layer round(0.6) = 1 → 1 + 2*(0 + 2) = 5.
        row(
            "TEX.F t, p0, texture[0], ARRAY2D;",
            fv([0.75, 0.25, 0.6, 0.0]),
            tex(Target::Array2D, Format::Rgba32F, [2, 2, 2], 1),
            t(0, 5),
        ),
        // 3D 2x2x2: (0.25, 0.75, 0.75) → (0, 1, 1) → 0 + 2*(1 + 2) = 6.
        row(
            "TEX.F t, p0, texture[0], 3D;",
            fv([0.25, 0.75, 0.75, 0.0]),
            tex(Target::T3D, Format::Rgba32F, [2, 2, 2], 1),
            t(0, 6),
        ),
        // RECT 3x2, unnormalised: (2.5, 0.5) → (2, 0) → 2.
        row(
            "TEX.F t, p0, texture[0], RECT;",
            fv([2.5, 0.5, 0.0, 0.0]),
            tex(Target::Rect, Format::Rgba32F, [3, 2, 1], 1),
            t(0, 2),
        ),
    ]);
}

/// TXQ (§ TXQ): the level's width, height (ARRAY1D: layers), depth (ARRAY2D: layers);
/// other components undefined; a level the texture does not have: undefined.
#[test]
fn txq() {
    let mip = || tex(Target::T2D, Format::Rgba32F, [4, 4, 1], 3);
    run_rows(&[
        // Level 1 of 4x4 is 2x2; w = 3 levels (tgsi.rst TXQ; NV leaves w undefined).
        row(
            "TXQ t, p0, texture[0], 2D;",
            [1, 0, 0, 0],
            mip(),
            [V(2), V(2), Undef, V(3)],
        ),
        row(
            "TXQ t, p0, texture[0], 2D;",
            [3, 0, 0, 0],
            mip(),
            [Undef, Undef, Undef, V(3)],
        ),
        row(
            "TXQ t, p0, texture[0], ARRAY1D;",
            [0, 0, 0, 0],
            tex(Target::Array1D, Format::Rgba32F, [8, 5, 1], 1),
            [V(8), V(5), Undef, V(1)],
        ),
    ]);
}

/// What the texture model does not cover is refused at the instruction; two targets on one
/// unit make the program fail to load (§2.X.4.4).
#[test]
fn refusals() {
    let cases: &[(&str, &str, bool)] = &[
        (
            "TEX t, p0, texture[0], SHADOWARRAYCUBE;",
            "SHADOWARRAYCUBE targets are outside",
            false,
        ),
        (
            "TXQ t, p0, texture[0], 2D, (1, 0);",
            "takes no texel offset",
            true,
        ),
        // NV_explicit_multisample: TXFMS needs a multisample target, which takes only
        // TXFMS and TXQ (a load error); LOD takes no texel offset.
        (
            "TXFMS.F t, p0, texture[0], 2D;",
            "TXFMS on a 2D target",
            true,
        ),
        ("TEX t, p0, texture[0], 2DMS;", "TEX on a 2DMS target", true),
        (
            "LOD t, p0, texture[0], 2D, (1, 0);",
            "takes no texel offset",
            true,
        ),
        (
            "TXF.U t, p0, texture[0], 2D;\nTXF.F t, p0, texture[0], 2D;",
            "two data types",
            false,
        ),
        ("TEX t, p0, texture[0], BUFFER;", "TXF and TXQ only", true),
    ];
    // One target per unit is a load-time rule of the parser (NV_gpu_program4 §2.X.4.4).
    let two = "!!NVvp5.0\nPARAM p0 = program.local[0];\nTEMP t;\nTEX t, p0, texture[0], 2D;\nTEX t, p0, texture[0], 3D;\nEND\n";
    let e = nv::parse(two, "t.nv").expect_err(two);
    assert!(e.message.contains("one target per texture unit"), "{e}");
    for (insns, what, invalid) in cases {
        let text = format!("!!NVvp5.0\nPARAM p0 = program.local[0];\nTEMP t;\n{insns}\nEND\n");
        let p = nv::parse(&text, "t.nv").unwrap_or_else(|e| panic!("{text}: {e}"));
        let e = nv::lower(&p).expect_err(&text);
        assert_eq!(
            matches!(e, nv::LowerError::Invalid { .. }),
            *invalid,
            "{text}: {e}"
        );
        assert!(e.to_string().contains(what), "{text}: {e}");
    }
}
