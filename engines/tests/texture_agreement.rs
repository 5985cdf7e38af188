//! The jit's and the valhall simulator's texture units against the oracle's texture
//! semantics on random textures and coordinates: for 96 random cases (`PROPTEST_CASES`
//! overrides) of target, size, levels, wrap mode, filter, instruction, stage and
//! per-invocation coordinates (many of them on or near texel edges and level boundaries),
//! every channel the oracle defines must be each engine's word exactly (valhall refuses
//! TG4 with a component in a register: exit 3, checked). The three are independent implementations (the
//! oracle evaluates every texel the implementation's precision allows, the jit computes
//! like a texture unit in single precision, valhall in 8-bit sub-texel fixed point with an
//! 8.8 level of detail), so this checks the oracle's precision bands too: an engine's
//! answer outside them is a mismatch here.

#[path = "support/mod.rs"]
mod support;

use std::sync::atomic::{AtomicUsize, Ordering};

use proptest::prelude::*;
use proptest::test_runner::{Config, TestCaseError, TestRunner};
use shaderdiff_backends::{engine, EngineConfig, Inputs};
use shaderdiff_model::texture::{Format, MinFilter, Target, Texture, Wrap};
use shaderdiff_model::File;
use shaderdiff_model::RegKey;

use support::parse;

const INVOCATIONS: usize = 8;

/// Channels compared (defined by the oracle) over the whole run.
static COMPARED: AtomicUsize = AtomicUsize::new(0);

/// A coordinate: random, or a texel edge `k / 2^m` nudged by a few ulps.
fn coord() -> impl Strategy<Value = f32> {
    prop_oneof![
        2 => -3.0f32..3.0,
        2 => (-16i32..48, 0u32..4, -2i32..3).prop_map(|(k, m, d)| {
            let e = k as f32 / (1u32 << m) as f32;
            f32::from_bits((e.to_bits() as i32 + d) as u32)
        }),
        1 => prop::sample::select(vec![0.0f32, -0.0, 0.5, 1.0, f32::NAN, f32::INFINITY]),
    ]
}

#[derive(Clone, Debug)]
struct Case {
    target: Target,
    size: [u32; 3],
    levels: usize,
    wrap: Wrap,
    min: MinFilter,
    op: &'static str,
    frag: bool,
    coords: Vec<[u32; 4]>,
    seed: u32,
    /// A texel offset (an IMM operand; -9..=8 so the -8..=7 limits are crossed), never on
    /// TXQ.
    offset: Option<[i32; 3]>,
}

fn case() -> impl Strategy<Value = Case> {
    // Multisample targets are fetched only (their agreement: harness/tests/textures_ms.rs).
    let single: Vec<Target> = Target::ALL
        .into_iter()
        .filter(|t| !t.multisample())
        .collect();
    let target = prop::sample::select(single);
    let ops = prop::sample::select(vec!["TEX", "TXP", "TXB", "TXL", "TXD", "TXF", "TXQ", "TG4"]);
    (
        target,
        (1u32..7, 1u32..5, 1u32..4),
        1usize..4,
        any::<bool>(),
        any::<bool>(),
        ops,
        any::<bool>(),
        prop::collection::vec(
            (coord(), coord(), coord(), coord(), -2i32..9, -2i32..9),
            INVOCATIONS,
        ),
        any::<u32>(),
        prop::option::of([-9i32..9, -9i32..9, -9i32..9]),
    )
        .prop_map(
            |(target, (w, h, d), levels, repeat, mip, op, frag, cs, seed, offset)| {
                let size = match target {
                    Target::T1D | Target::Buffer => [w, 1, 1],
                    Target::T2D | Target::Rect | Target::Ms2D => [w, h, 1],
                    Target::T3D | Target::Array2D | Target::MsArray2D => [w, h, d],
                    Target::Array1D => [w, h, 1],
                    // Square faces, six per cube.
                    Target::Cube => [w, w, 6],
                    Target::CubeArray => [w, w, 6 * d],
                };
                let cube = matches!(target, Target::Cube | Target::CubeArray);
                let mut t =
                    Texture::filled(target, Format::Rgba32Ui, size, 1, Wrap::Repeat, |_, _| {
                        [0; 4]
                    });
                let levels = levels.min(t.max_levels());
                t.levels.clear();
                let op = if target == Target::Buffer && !matches!(op, "TXF" | "TXQ") {
                    "TXF"
                } else if op == "TG4"
                    && !matches!(target, Target::T2D | Target::Array2D | Target::Rect)
                {
                    // tgsi.rst TG4: 2D, 2D array (and RECT, NV TXG) only.
                    "TEX"
                } else if cube
                    && (matches!(op, "TXF" | "TG4")
                        || (target == Target::CubeArray && matches!(op, "TXB" | "TXL" | "TXP")))
                {
                    // instruction_rule: no TXF (Table X.18) or TG4 (not modelled) on cube
                    // maps; TXB / TXL / TXP have no room for a cube map array's layer.
                    "TEX"
                } else {
                    op
                };
                let int = matches!(op, "TXF" | "TXQ");
                let coords = cs
                    .into_iter()
                    .map(|(a, b, c, l, i, j)| {
                        if int {
                            [
                                i as u32,
                                j as u32,
                                (i ^ j) as u32 & 3,
                                (l.abs() as i32 % 3) as u32,
                            ]
                        } else {
                            [a, b, c, l].map(f32::to_bits)
                        }
                    })
                    .collect();
                Case {
                    target,
                    size,
                    levels,
                    wrap: if repeat && target != Target::Rect && !cube {
                        Wrap::Repeat
                    } else {
                        Wrap::ClampToEdge
                    },
                    min: if mip {
                        MinFilter::NearestMipmapNearest
                    } else {
                        MinFilter::Nearest
                    },
                    op,
                    // Fragment programs: implicit LOD from the quad's derivatives.
                    frag,
                    coords,
                    seed,
                    // No texel offsets on TXQ or cube maps (NV_gpu_program4 §2.X.4.4).
                    offset: offset.filter(|_| op != "TXQ" && !cube),
                }
            },
        )
}

fn tgsi_target(t: Target) -> &'static str {
    match t {
        Target::Array1D => "1D_ARRAY",
        Target::Array2D => "2D_ARRAY",
        t => t.name(),
    }
}

fn run_case(c: &Case) -> Result<(), TestCaseError> {
    let stage = if c.frag { "FRAG" } else { "VERT" };
    let decl = if c.frag {
        "DCL IN[0], GENERIC[0], PERSPECTIVE\nDCL IN[1], GENERIC[1], PERSPECTIVE\n\
         DCL IN[2], GENERIC[2], PERSPECTIVE"
    } else {
        "DCL IN[0]\nDCL IN[1]\nDCL IN[2]"
    };
    let decl = format!(
        "{decl}\nDCL IN[3]{}",
        if c.frag { ", GENERIC[3], CONSTANT" } else { "" }
    );
    // TXD's derivatives (tgsi.rst TXD: src1, src2) come from IN[1] and IN[2].
    // TG4's component (tgsi.rst TG4: src1.x, an integer) from IN[3].
    // Odd seeds give TG4 an immediate component (0..3), which valhall's TEX_GATHER takes
    // as its fetch_component; even seeds a register (valhall refuses those).
    let imm_component = c.op == "TG4" && c.seed % 2 == 1;
    let (mut imm, off) = match c.offset {
        Some([x, y, z]) => (
            format!("IMM[0] INT32 {{{x}, {y}, {z}, 0}}\n"),
            ", IMM[0].xyz",
        ),
        None => (String::new(), ""),
    };
    let gather_imm = format!("IMM[{}].xxxx, ", usize::from(c.offset.is_some()));
    let derivs = match c.op {
        "TXD" => "IN[1], IN[2], ",
        "TG4" if imm_component => {
            imm.push_str(&format!(
                "IMM[{}] INT32 {{{}, 0, 0, 0}}\n",
                usize::from(c.offset.is_some()),
                c.seed / 2 % 4
            ));
            gather_imm.as_str()
        }
        "TG4" => "IN[3], ",
        _ => "",
    };
    let text = format!(
        "{stage}\n{decl}\nDCL OUT[0]\nDCL SAMP[0]\n{imm}{} OUT[0], IN[0], {derivs}SAMP[0], {}{off}\nEND\n",
        c.op,
        tgsi_target(c.target)
    );
    let program = parse(&text);
    // Texel words from the seed: few distinct values, so neighbours often agree.
    let seed = c.seed;
    let mut tex = Texture::filled(
        c.target,
        Format::Rgba32Ui,
        c.size,
        c.levels,
        c.wrap,
        |l, n| {
            let h = (n as u64 * 0x9E37_79B9 + l as u64 * 0x85EB_CA6B + seed as u64) >> 7;
            [h as u32 % 3, h as u32 % 5, n, l as u32]
        },
    );
    tex.min_filter = c.min;
    let mut inputs = Inputs {
        invocations: INVOCATIONS,
        ..Inputs::default()
    };
    inputs
        .registers
        .insert(RegKey::new(File::Input, 0), c.coords.clone());
    // Derivatives: the coordinates scaled by 1/4 and 1/8 (rotated), so the level of detail
    // spans the levels, boundaries and non-finite values.
    for (k, div) in [(1u32, 4.0f32), (2, 8.0)] {
        let d = c
            .coords
            .iter()
            .map(|v| {
                let f = v.map(f32::from_bits);
                [f[k as usize % 3], f[(k as usize + 1) % 3], f[3], 0.0].map(|x| (x / div).to_bits())
            })
            .collect();
        inputs.registers.insert(RegKey::new(File::Input, k), d);
    }
    // Components 0..4 (4 does not exist: undefined).
    let comps = (0..INVOCATIONS as u32)
        .map(|i| [i.wrapping_add(seed) % 5, 0, 0, 0])
        .collect();
    inputs.registers.insert(RegKey::new(File::Input, 3), comps);
    inputs.textures.insert(RegKey::new(File::Sampler, 0), tex);
    let cfg = EngineConfig::default();
    let oracle = engine("interp", &cfg).expect("interp");
    let want = oracle
        .execute(&program, &inputs)
        .map_err(|e| TestCaseError::fail(format!("interp: {e}\n{text}")))?;
    let key = RegKey::new(File::Output, 0);
    let und = want.undefined.get(&key);
    for name in ["jit", "valhall"] {
        let got = match engine(name, &cfg).expect(name).execute(&program, &inputs) {
            Ok(o) => o,
            Err(shaderdiff_backends::EngineError::Unsupported { reason, .. })
                if name == "valhall"
                    && ((c.op == "TG4" && !imm_component)
                        || matches!(c.target, Target::Cube | Target::CubeArray)) =>
            {
                prop_assert!(reason.contains("valhall texture unit"), "{}", reason);
                continue;
            }
            Err(e) => return Err(TestCaseError::fail(format!("{name}: {e}\n{text}"))),
        };
        for inv in 0..INVOCATIONS {
            let u = und.and_then(|u| u.get(inv)).copied().unwrap_or(0);
            for ch in 0..4 {
                if u >> ch & 1 != 0 {
                    continue;
                }
                COMPARED.fetch_add(1, Ordering::Relaxed);
                let (w, g) = (want.registers[&key][inv][ch], got.registers[&key][inv][ch]);
                prop_assert_eq!(
                    w,
                    g,
                    "{}: invocation {} channel {}: coords {:?}\n{}",
                    name,
                    inv,
                    ch,
                    c.coords[inv],
                    text
                );
            }
        }
    }
    Ok(())
}

#[test]
fn jit_and_valhall_textures_agree_with_the_oracle() {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(96);
    let mut runner = TestRunner::new(Config {
        cases,
        failure_persistence: None,
        ..Config::default()
    });
    runner
        .run(&case(), |c| run_case(&c))
        .unwrap_or_else(|e| panic!("{e}"));
    // Most channels are defined (edges and out-of-range cases are a minority).
    let n = COMPARED.load(Ordering::Relaxed);
    eprintln!("{n} defined channels compared");
    assert!(
        n >= cases as usize * INVOCATIONS,
        "only {n} channels compared"
    );
}
