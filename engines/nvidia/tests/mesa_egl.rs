//! The nvidia engine's code path on Mesa's llvmpipe through EGL's device platform (no GPU
//! needed). Expected values come from the ARB specs' formulas on exactly representable
//! operands, or from the other loader (OSMesa) running the same programs: the runner is
//! shared, so two loaders of one driver must give the same bits.

mod common;

use std::path::{Path, PathBuf};

use common::{bits, inputs, lower, on_mesa_egl, out};
use shaderdiff_engine::{Engine, EngineConfig, EngineError, Inputs};
use shaderdiff_mesa::MesaEngine;
use shaderdiff_nv as nv;

#[test]
fn fragment_alu_reads_texcoords_and_locals() {
    let Some(e) = on_mesa_egl() else { return };
    let l = lower(
        "!!ARBfp1.0\nPARAM c = program.local[2];\nTEMP t;\nADD t, fragment.texcoord[0], c;\nMUL result.color, t, fragment.texcoord[1];\nEND\n",
    );
    let tc0 = vec![
        bits([1.5, -2.0, 0.25, 8.0]),
        bits([0.0, 1.0, 2.0, 3.0]),
        bits([-1.0, -1.0, 4.0, 0.5]),
        bits([1e10, 2.0, 3.0, 4.0]),
    ];
    let tc1 = vec![bits([2.0, 3.0, 4.0, 0.5]); 4];
    let i = inputs(
        &l,
        4,
        &[("fragment.texcoord[0]", tc0), ("fragment.texcoord[1]", tc1)],
        &[("program.local[2]", bits([0.5, 1.0, -0.25, 0.0]))],
    );
    let o = e.execute(&l.program, &i).unwrap();
    // ADD then MUL (ARB_fragment_program §3.11.5.1, §3.11.5.16), exact in binary32.
    assert_eq!(
        out(&l, &o, "result.color"),
        vec![
            bits([4.0, -3.0, 0.0, 4.0]),
            bits([1.0, 6.0, 7.0, 1.5]),
            bits([-1.0, 0.0, 15.0, 0.25]),
            bits([2e10, 9.0, 11.0, 2.0])
        ]
    );
    assert_eq!(o.killed, Some(vec![false; 4]));
}

#[test]
fn kil_and_vertex_outputs() {
    let Some(e) = on_mesa_egl() else { return };
    let l = lower(
        "!!ARBfp1.0\nKIL fragment.texcoord[0];\nMOV result.color, fragment.texcoord[0];\nEND\n",
    );
    // §3.11.5.17 KIL: discarded if any component of the operand is < 0.
    let tc = vec![
        bits([0.0, 1.0, 2.0, 3.0]),
        bits([0.0, -0.5, 0.0, 0.0]),
        bits([-0.0, 0.0, 0.0, 0.0]),
        bits([1.0, 1.0, 1.0, -1e-3]),
    ];
    let o = e
        .execute(
            &l.program,
            &inputs(&l, 4, &[("fragment.texcoord[0]", tc)], &[]),
        )
        .unwrap();
    assert_eq!(o.killed, Some(vec![false, true, false, true]));
    let l = lower(
        "!!ARBvp1.0\nADD result.texcoord[1], vertex.attrib[2], vertex.attrib[3];\nMOV result.position, vertex.attrib[2];\nEND\n",
    );
    let a = vec![bits([1.0, 2.0, 3.0, 4.0]), bits([-8.0, 0.5, 0.0, 1.0])];
    let b = vec![bits([0.5, 0.5, 0.5, 0.5]), bits([8.0, 0.25, -1.0, 2.0])];
    let o = e
        .execute(
            &l.program,
            &inputs(
                &l,
                2,
                &[("vertex.attrib[2]", a.clone()), ("vertex.attrib[3]", b)],
                &[],
            ),
        )
        .unwrap();
    // ARB_vertex_program §2.14.5.1 ADD; result.position is the program's own value.
    assert_eq!(
        out(&l, &o, "result.texcoord[1]"),
        vec![bits([1.5, 2.5, 3.5, 4.5]), bits([0.0, 0.75, -1.0, 3.0])]
    );
    assert_eq!(out(&l, &o, "result.position"), a);
}

#[test]
fn nv_programs_need_the_drivers_extension() {
    let Some(e) = on_mesa_egl() else { return };
    let l = lower("!!NVfp5.0\nMOV.U result.color, fragment.texcoord[0];\nEND\n");
    match e.execute(&l.program, &inputs(&l, 4, &[], &[])) {
        Err(EngineError::Unsupported { engine, reason, .. }) => {
            assert_eq!(engine, "nvidia");
            assert!(reason.contains("GL_NV_gpu_program5"), "{reason}");
        }
        other => panic!("expected unsupported, got {other:?}"),
    }
}

/// `conformance/arb-spec`.
fn arb_spec() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../conformance/arb-spec")
}

/// The words of a JSON array of `"0x..."` strings.
fn vec4(v: &serde_json::Value) -> [u32; 4] {
    let w: Vec<u32> = v
        .as_array()
        .expect("vec4 array")
        .iter()
        .map(|x| {
            u32::from_str_radix(x.as_str().expect("hex string").trim_start_matches("0x"), 16)
                .expect("hex")
        })
        .collect();
    w.try_into().expect("four words")
}

/// The suite's inputs file (`registers`, `constants`, `invocations`; INTERFACE.md).
fn suite_inputs(l: &nv::Lowered, path: &Path) -> Inputs {
    let d: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let n = d["invocations"].as_u64().unwrap() as usize;
    let per: Vec<(String, Vec<[u32; 4]>)> = d["registers"]
        .as_object()
        .map(|m| {
            m.iter()
                .map(|(k, v)| (k.clone(), v.as_array().unwrap().iter().map(vec4).collect()))
                .collect()
        })
        .unwrap_or_default();
    let consts: Vec<(String, [u32; 4])> = d["constants"]
        .as_object()
        .map(|m| m.iter().map(|(k, v)| (k.clone(), vec4(v))).collect())
        .unwrap_or_default();
    let per: Vec<(&str, Vec<[u32; 4]>)> =
        per.iter().map(|(k, v)| (k.as_str(), v.clone())).collect();
    let consts: Vec<(&str, [u32; 4])> = consts.iter().map(|(k, v)| (k.as_str(), *v)).collect();
    inputs(l, n, &per, &consts)
}

#[test]
fn arb_spec_gives_the_same_bits_through_egl_as_through_osmesa() {
    let Some(egl) = on_mesa_egl() else { return };
    if let Err(e) = shaderdiff_mesa::available() {
        assert!(
            !std::env::var("SHADERDIFF_REQUIRE_MESA").is_ok_and(|v| v == "1"),
            "SHADERDIFF_REQUIRE_MESA=1 but OSMesa is unavailable: {e}"
        );
        eprintln!("note: skipping: {e}");
        return;
    }
    let osmesa = MesaEngine::new(&EngineConfig::default());
    let mut files: Vec<PathBuf> = std::fs::read_dir(arb_spec())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "arbfp" || x == "arbvp"))
        .collect();
    files.sort();
    let (mut ran, mut refused) = (0, 0);
    for f in &files {
        let l = lower(&std::fs::read_to_string(f).unwrap());
        let i = suite_inputs(&l, &f.with_extension("inputs.json"));
        let a = osmesa.execute(&l.program, &i);
        let b = egl.execute(&l.program, &i);
        match (a, b) {
            (Ok(a), Ok(b)) => {
                assert_eq!(a, b, "{}: OSMesa and EGL results differ", f.display());
                ran += 1;
            }
            (
                Err(EngineError::Unsupported { reason: x, .. }),
                Err(EngineError::Unsupported { reason: y, .. }),
            ) => {
                assert_eq!(x, y, "{}", f.display());
                refused += 1;
            }
            (a, b) => panic!("{}: OSMesa gave {a:?}, EGL gave {b:?}", f.display()),
        }
    }
    eprintln!("{ran} ARB spec programs bit-identical on both loaders, {refused} refused by both");
    assert_eq!(ran + refused, files.len());
    assert!(
        ran >= files.len() * 9 / 10,
        "only {ran} of {} ran",
        files.len()
    );
}

#[test]
fn arb_tex_reads_the_nearest_texel_of_an_uploaded_texture() {
    use shaderdiff_model::texture::{Format, Target, Texture, Wrap};
    use shaderdiff_model::{File, RegKey};
    let Some(e) = on_mesa_egl() else { return };
    let l = lower("!!ARBfp1.0\nTEX result.color, fragment.texcoord[0], texture[1], 2D;\nEND\n");
    // A 2x2 RGBA32F texture whose texel n is (n, -n, 0.5, 1e30): with GL_NEAREST the texel
    // read at (s, t) is (floor(2s), floor(2t)) (OpenGL 3.x §3.8.8, eq. 3.23), so the
    // centres (0.25, 0.25), (0.75, 0.25), (0.25, 0.75), (0.75, 0.75) read texels 0..3.
    let texel = |n: u32| bits([n as f32, -(n as f32), 0.5, 1e30]);
    let tex = Texture::filled(
        Target::T2D,
        Format::Rgba32F,
        [2, 2, 1],
        1,
        Wrap::ClampToEdge,
        |_, n| texel(n),
    );
    let tc = vec![
        bits([0.25, 0.25, 0.0, 1.0]),
        bits([0.75, 0.25, 0.0, 1.0]),
        bits([0.25, 0.75, 0.0, 1.0]),
        bits([0.75, 0.75, 0.0, 1.0]),
    ];
    let mut i = inputs(&l, 4, &[("fragment.texcoord[0]", tc)], &[]);
    i.textures.insert(RegKey::new(File::Sampler, 1), tex);
    let o = e.execute(&l.program, &i).unwrap();
    assert_eq!(
        out(&l, &o, "result.color"),
        (0..4).map(texel).collect::<Vec<_>>()
    );
}
