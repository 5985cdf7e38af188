//! Geometry programs (NV_geometry_program4, NV_gpu_program5 EMITS / INVOCATIONS) lowered to
//! the shared IR: the vertices they emit, worked out by hand from the spec, on every engine.

use shaderdiff_backends::{engine, EngineConfig, EngineError, ENGINE_NAMES};
use shaderdiff_nv as nv;
use shaderdiff_oracles::{EmitRecord, RegKey};

use crate::support::{f, i, named_inputs};

/// One engine's run: per invocation its emitted vertices `(stream, primitive)`, the
/// emitted outputs by NV name (`emit[v].result.color`) with one vec4 per invocation, and
/// the names the oracle reports undefined channels for (mask per invocation).
struct Run {
    engine: String,
    emits: Vec<Vec<(u32, u32)>>,
    regs: Vec<(String, Vec<[u32; 4]>)>,
    undefined: Vec<(String, Vec<u8>)>,
}

/// [`run_engines`] where every engine supports the program.
fn run(text: &str, named: &[(&str, Vec<[u32; 4]>)], invocations: usize) -> Vec<Run> {
    let (all, unsupported) = run_engines(text, named, invocations);
    assert!(unsupported.is_empty(), "unsupported by {unsupported:?}");
    all
}

/// Lowers `text`, sets each named input (`vertex[m].attrib[n]`, `primitive.id`,
/// `program.local[n]`; one vec4 per invocation, or one for all) and runs `invocations`
/// invocations on every engine, the oracle first. Returns the runs and the engines that
/// reported the program unsupported.
fn run_engines(
    text: &str,
    named: &[(&str, Vec<[u32; 4]>)],
    invocations: usize,
) -> (Vec<Run>, Vec<String>) {
    let p = nv::parse(text, "t.nvgp").expect("parses");
    let l = nv::lower(&p).expect("lowers");
    shaderdiff_model::validate::validate(&l.program, "lowered").expect("valid IR");
    let (inputs, unknown) = named_inputs(&l, named, invocations);
    assert!(unknown.is_empty(), "not inputs of the program: {unknown:?}");
    let name = |k: &RegKey| {
        l.names
            .name_of_key(k.file, k.dimension, k.index)
            .unwrap_or_else(|| panic!("{k} has no NV name"))
    };
    let mut unsupported = Vec::new();
    let mut all = Vec::new();
    for e in ENGINE_NAMES {
        let out = match engine(e, &EngineConfig::default())
            .expect("engine")
            .execute(&l.program, &inputs)
        {
            Ok(out) => out,
            Err(EngineError::Unsupported { .. }) => {
                unsupported.push(e.to_string());
                continue;
            }
            Err(err) => panic!("{e}: {err}"),
        };
        all.push({
            let emits = out
                .emits
                .as_ref()
                .unwrap_or_else(|| panic!("{e}: no emitted vertices reported"))
                .iter()
                .map(|vs| {
                    vs.iter()
                        .map(|&EmitRecord { stream, primitive }| (stream, primitive))
                        .collect()
                })
                .collect();
            Run {
                engine: e.to_string(),
                emits,
                regs: out
                    .registers
                    .iter()
                    .map(|(k, v)| (name(k), v.clone()))
                    .collect(),
                undefined: out
                    .undefined
                    .iter()
                    .map(|(k, m)| (name(k), m.clone()))
                    .collect(),
            }
        });
    }
    (all, unsupported)
}

fn value(r: &Run, reg: &str, invocation: usize) -> [u32; 4] {
    r.regs
        .iter()
        .find(|(n, _)| n == reg)
        .unwrap_or_else(|| panic!("{}: no {reg} in {:?}", r.engine, r.regs))
        .1[invocation]
}

/// Checks every engine's emitted vertices and the values of `(register, invocation, vec4)`.
fn check(all: &[Run], emits: &[Vec<(u32, u32)>], values: &[(&str, usize, [u32; 4])]) {
    for r in all {
        assert_eq!(r.emits, emits, "{}: emitted vertices", r.engine);
        for &(reg, inv, want) in values {
            assert_eq!(
                value(r, reg, inv),
                want,
                "{}: {reg} of invocation {inv}",
                r.engine
            );
        }
    }
}

fn fv(v: [f32; 4]) -> [u32; 4] {
    v.map(f)
}

fn corpus(name: &str) -> String {
    let dir = std::env::var_os("SHADERDIFF_SHARED")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared"));
    std::fs::read_to_string(dir.join("corpus/nv").join(name)).expect("corpus program")
}

/// ../shared/corpus/nv/OGRECave_ogre_Swizzle_gp_1.nvgp: a triangle in, two triangle strips
/// out — the triangle as is with colour `{1, 0}.xyyx` = (1, 0, 0, 1), then with each
/// position swizzled `.yxzw` and colour `{0, 1}.xxyy` = (0, 0, 1, 1) (NOTES.md §4: missing
/// components of `{a, b}` are 0 and 1). ENDPRIM closes primitive 0, so the last three
/// vertices belong to primitive 1 (tgsi.rst "Geometry ISA").
#[test]
fn ogre_swizzle_emits_two_triangles() {
    let text = corpus("OGRECave_ogre_Swizzle_gp_1.nvgp");
    let pos = [
        [1.0, 2.0, 3.0, 4.0],
        [5.0, 6.0, 7.0, 8.0],
        [9.0, 10.0, 11.0, 12.0],
    ];
    let named: Vec<(String, Vec<[u32; 4]>)> = (0..3)
        .map(|m| (format!("vertex[{m}].position"), vec![fv(pos[m])]))
        .collect();
    let named: Vec<(&str, Vec<[u32; 4]>)> =
        named.iter().map(|(n, v)| (n.as_str(), v.clone())).collect();
    let all = run(&text, &named, 1);
    let red = fv([1.0, 0.0, 0.0, 1.0]);
    let blue = fv([0.0, 0.0, 1.0, 1.0]);
    check(
        &all,
        &[vec![(0, 0), (0, 0), (0, 0), (0, 1), (0, 1), (0, 1)]],
        &[
            ("emit[0].result.position", 0, fv(pos[0])),
            ("emit[1].result.position", 0, fv(pos[1])),
            ("emit[2].result.position", 0, fv(pos[2])),
            ("emit[0].result.color", 0, red),
            ("emit[2].result.color", 0, red),
            ("emit[3].result.position", 0, fv([2.0, 1.0, 3.0, 4.0])),
            ("emit[4].result.position", 0, fv([6.0, 5.0, 7.0, 8.0])),
            ("emit[5].result.position", 0, fv([10.0, 9.0, 11.0, 12.0])),
            ("emit[3].result.color", 0, blue),
            ("emit[5].result.color", 0, blue),
        ],
    );
}

/// ../shared/corpus/nv/drbrain_opengl_test_gl_ext_nv_rb_1.nvgp has no instruction: every
/// invocation emits nothing.
#[test]
fn empty_geometry_program_emits_nothing() {
    let all = run(&corpus("drbrain_opengl_test_gl_ext_nv_rb_1.nvgp"), &[], 2);
    check(&all, &[vec![], vec![]], &[]);
}

/// §2.X.3.2's declaration examples: `ATTRIB pos = vertex.position` indexed by vertex,
/// `vertex[2].position` fixed, arrays indexed by vertex then element (relative indices
/// from an integer TEMP), and the direct forms `vertex[0].texcoord[1]`,
/// `vertex[2].position.yxzw` (NOTES.md §15), and an ALIAS of a per-vertex variable. Inputs: `vertex[m].texcoord[n]` = (m, n, 0, 1)
/// and `vertex[m].position` = (10m, 1, 2, 3).
#[test]
fn per_vertex_bindings_and_attribute_arrays() {
    let text = "!!NVgp4.0
PRIMITIVE_IN TRIANGLES;
PRIMITIVE_OUT POINTS;
VERTICES_OUT 1;
ATTRIB pos = vertex.position;
ATTRIB pos2 = vertex[2].position;
ATTRIB texcoords[] = { vertex.texcoord[0..3] };
ATTRIB tcoords1[4] = { vertex[1].texcoord[1..4] };
INT PARAM sel = program.local[0];
INT TEMP A0;
MOV.S A0, sel;
MOV result.attrib[0], pos[1];
MOV result.attrib[1], pos2;
MOV result.attrib[2], texcoords[A0.x][1];
MOV result.attrib[3], texcoords[A0.x][A0.y];
MOV result.attrib[4], tcoords1[2];
MOV result.attrib[5], vertex[0].texcoord[1];
MOV result.attrib[6], vertex[2].position.yxzw;
MOV result.attrib[7], pos[A0.y];
ALIAS p2 = pos;
MOV result.attrib[8], p2[0];
EMIT;
END
";
    let mut named: Vec<(String, Vec<[u32; 4]>)> = Vec::new();
    for m in 0..3 {
        let p = fv([10.0 * m as f32, 1.0, 2.0, 3.0]);
        named.push((format!("vertex[{m}].position"), vec![p]));
        for n in 0..5 {
            let t = fv([m as f32, n as f32, 0.0, 1.0]);
            named.push((format!("vertex[{m}].texcoord[{n}]"), vec![t]));
        }
    }
    named.push(("program.local[0]".into(), vec![[i(2), i(3), 0, 0]]));
    let named: Vec<(&str, Vec<[u32; 4]>)> =
        named.iter().map(|(n, v)| (n.as_str(), v.clone())).collect();
    let all = run(text, &named, 1);
    check(
        &all,
        &[vec![(0, 0)]],
        &[
            ("emit[0].result.attrib[0]", 0, fv([10.0, 1.0, 2.0, 3.0])),
            ("emit[0].result.attrib[1]", 0, fv([20.0, 1.0, 2.0, 3.0])),
            ("emit[0].result.attrib[2]", 0, fv([2.0, 1.0, 0.0, 1.0])),
            ("emit[0].result.attrib[3]", 0, fv([2.0, 3.0, 0.0, 1.0])),
            ("emit[0].result.attrib[4]", 0, fv([1.0, 3.0, 0.0, 1.0])),
            ("emit[0].result.attrib[5]", 0, fv([0.0, 1.0, 0.0, 1.0])),
            ("emit[0].result.attrib[6]", 0, fv([1.0, 20.0, 2.0, 3.0])),
            ("emit[0].result.attrib[8]", 0, fv([0.0, 1.0, 2.0, 3.0])),
        ],
    );
    // pos[A0.y] with A0.y = 3 is vertex 3 of a triangle: out of range, undefined
    // (NOTES.md §4 "run-time out of range = UB"): the oracle flags it.
    let oracle = &all[0];
    assert!(
        oracle
            .undefined
            .iter()
            .any(|(n, m)| n == "emit[0].result.attrib[7]" && m[0] == 0xF),
        "{:?}",
        oracle.undefined
    );
}

/// §2.14.6.3: "After an EMIT instruction is completed, the current values of all vertex
/// result variables become undefined", while ENDPRIM leaves them unchanged. The second
/// vertex's colour is not written again: undefined (the oracle flags it; engines are not
/// compared there); the third vertex after ENDPRIM rewrites both.
#[test]
fn results_are_undefined_after_emit() {
    let text = "!!NVgp4.0
PRIMITIVE_IN POINTS;
PRIMITIVE_OUT LINE_STRIP;
VERTICES_OUT 4;
MOV result.position, vertex[0].position;
MOV result.color, {0.5}.x;
EMIT;
MOV result.position, {1, 2, 3, 4};
EMIT;
ENDPRIM;
MOV result.position, -vertex[0].position;
MOV result.color, {0.25}.x;
EMIT;
END
";
    let p = fv([1.5, -2.0, 0.0, 1.0]);
    let all = run(text, &[("vertex[0].position", vec![p])], 1);
    check(
        &all,
        &[vec![(0, 0), (0, 0), (0, 1)]],
        &[
            ("emit[0].result.position", 0, p),
            ("emit[0].result.color", 0, fv([0.5; 4])),
            ("emit[1].result.position", 0, fv([1.0, 2.0, 3.0, 4.0])),
            ("emit[2].result.position", 0, fv([-1.5, 2.0, -0.0, -1.0])),
            ("emit[2].result.color", 0, fv([0.25; 4])),
        ],
    );
    let oracle = &all[0];
    let undefined: Vec<&str> = oracle
        .undefined
        .iter()
        .filter(|(n, m)| n.starts_with("emit[") && m[0] != 0)
        .map(|(n, _)| n.as_str())
        .collect();
    assert_eq!(
        undefined,
        ["emit[1].result.color"],
        "{:?}",
        oracle.undefined
    );
}

/// VERTICES_OUT 2 with three EMITs: §2.14.6.4 lets the third "may or may not have any
/// effect"; the lowering's choice (GS_MAX_OUTPUT_VERTICES) drops it on every engine. With
/// PRIMITIVE_OUT POINTS, ENDPRIM "has no effect": all vertices stay in primitive 0.
#[test]
fn vertex_limit_and_endprim_on_points() {
    let text = "!!NVgp4.0
PRIMITIVE_IN LINES;
PRIMITIVE_OUT POINTS;
VERTICES_OUT 2;
MOV result.position, vertex[0].position;
EMIT;
ENDPRIM;
MOV result.position, vertex[1].position;
EMIT;
MOV result.position, vertex[0].position;
EMIT;
END
";
    let a = fv([1.0, 2.0, 3.0, 4.0]);
    let b = fv([5.0, 6.0, 7.0, 8.0]);
    let all = run(
        text,
        &[
            ("vertex[0].position", vec![a]),
            ("vertex[1].position", vec![b]),
        ],
        1,
    );
    check(
        &all,
        &[vec![(0, 0), (0, 0)]],
        &[
            ("emit[0].result.position", 0, a),
            ("emit[1].result.position", 0, b),
        ],
    );
}

/// gp5 INVOCATIONS and the primitive bindings: `primitive.id` and `primitive.invocation`
/// come from the inputs (INVOCATIONS 4: the invocation number is an input in [0, 4)),
/// `primitive.vertexcount` is 4 for LINES_ADJACENCY (§2.14.6.1: four vertices).
/// `EMITS 2` sends a vertex to stream 2 (PRIMITIVE_OUT POINTS).
#[test]
fn primitive_bindings_invocations_and_constant_stream() {
    let text = "!!NVgp5.0
PRIMITIVE_IN LINES_ADJACENCY;
PRIMITIVE_OUT POINTS;
VERTICES_OUT 2;
INVOCATIONS 4;
MOV.S result.attrib[0].x, primitive.id.x;
MOV.S result.attrib[0].y, primitive.invocation.x;
MOV.S result.attrib[0].z, primitive.vertexcount.x;
MOV.S result.attrib[0].w, vertex[3].id.x;
EMIT;
MOV.S result.attrib[0], -1;
EMITS 2;
END
";
    let all = run(
        text,
        &[
            ("primitive.id", vec![[i(7), 0, 0, 0], [i(9), 0, 0, 0]]),
            (
                "primitive.invocation",
                vec![[i(1), 0, 0, 0], [i(3), 0, 0, 0]],
            ),
            ("vertex[3].id", vec![[i(40), 0, 0, 0], [i(41), 0, 0, 0]]),
        ],
        2,
    );
    check(
        &all,
        &[vec![(0, 0), (2, 0)], vec![(0, 0), (2, 0)]],
        &[
            ("emit[0].result.attrib[0]", 0, [i(7), i(1), i(4), i(40)]),
            ("emit[0].result.attrib[0]", 1, [i(9), i(3), i(4), i(41)]),
            ("emit[1].result.attrib[0]", 0, [i(-1); 4]),
            ("emit[1].result.attrib[0]", 1, [i(-1); 4]),
        ],
    );
}

/// `EMITS s` with a computed stream: vertex 1 goes to stream `invocation - 1`. The valhall
/// engine takes only immediate streams and reports the program unsupported.
#[test]
fn computed_stream() {
    let text = "!!NVgp5.0
PRIMITIVE_IN LINES_ADJACENCY;
PRIMITIVE_OUT POINTS;
VERTICES_OUT 2;
INVOCATIONS 4;
INT TEMP s;
MOV.S result.attrib[0].x, primitive.id.x;
MOV.S result.attrib[0].y, primitive.invocation.x;
MOV.S result.attrib[0].z, primitive.vertexcount.x;
MOV.S result.attrib[0].w, vertex[3].id.x;
EMIT;
ADD.S s.x, primitive.invocation.x, -1;
MOV.S result.attrib[0], s.x;
EMITS s.x;
END
";
    let (all, unsupported) = run_engines(
        text,
        &[
            ("primitive.id", vec![[i(7), 0, 0, 0], [i(9), 0, 0, 0]]),
            (
                "primitive.invocation",
                vec![[i(1), 0, 0, 0], [i(3), 0, 0, 0]],
            ),
            ("vertex[3].id", vec![[i(40), 0, 0, 0], [i(41), 0, 0, 0]]),
        ],
        2,
    );
    assert_eq!(unsupported, ["valhall"]);
    check(
        &all,
        &[vec![(0, 0), (0, 0)], vec![(0, 0), (2, 0)]],
        &[
            ("emit[0].result.attrib[0]", 0, [i(7), i(1), i(4), i(40)]),
            ("emit[0].result.attrib[0]", 1, [i(9), i(3), i(4), i(41)]),
            ("emit[1].result.attrib[0]", 0, [0; 4]),
            ("emit[1].result.attrib[0]", 1, [i(2); 4]),
        ],
    );
}

/// Without INVOCATIONS the program runs once per primitive and `primitive.invocation` "will
/// always be zero" (NV_gpu_program5 §2.X.3.2): a constant, not an input.
#[test]
fn single_invocation_number_is_zero() {
    let text = "!!NVgp5.0
PRIMITIVE_IN POINTS;
PRIMITIVE_OUT POINTS;
VERTICES_OUT 1;
ADD.S result.attrib[0], primitive.invocation.x, 5;
EMIT;
END
";
    let p = nv::parse(text, "t.nvgp").expect("parses");
    let l = nv::lower(&p).expect("lowers");
    assert_eq!(l.names.lookup_key(l.stage, "primitive.invocation"), None);
    let all = run(text, &[], 1);
    check(
        &all,
        &[vec![(0, 0)]],
        &[("emit[0].result.attrib[0]", 0, [i(5); 4])],
    );
}

/// EMITS on a stream outside [0, MAX_VERTEX_STREAMS) is undefined (NV_gpu_program5
/// "EMITS"): with stream -1 or 4 the oracle leaves the invocation's output unconstrained
/// (every channel undefined), while stream 3 is a defined vertex.
#[test]
fn emits_out_of_range_stream_is_undefined() {
    let text = "!!NVgp5.0
PRIMITIVE_IN POINTS;
PRIMITIVE_OUT POINTS;
VERTICES_OUT 1;
INT PARAM s = program.local[0];
MOV result.position, {1, 2, 3, 4};
EMITS s.x;
END
";
    for (stream, defined) in [(3, true), (-1, false), (4, false)] {
        let named = [("program.local[0]", vec![[i(stream); 4]])];
        let (all, _) = run_engines(text, &named, 1);
        let oracle = &all[0];
        let undef = oracle
            .undefined
            .iter()
            .find(|(n, _)| n == "emit[0].result.position")
            .map_or(0, |(_, m)| m[0]);
        assert_eq!(
            undef == 0,
            defined,
            "stream {stream}: {:?}",
            oracle.undefined
        );
        if defined {
            check(
                &all,
                &[vec![(3, 0)]],
                &[("emit[0].result.position", 0, fv([1.0, 2.0, 3.0, 4.0]))],
            );
        }
    }
}

/// Geometry constructs the lowering refuses, and load errors it finds, point at the
/// statement: tessellation control programs (their shared patch is not modelled by the IR),
/// a tessellation vertex beyond MAX_PATCH_VERTICES_NV (32), PATCHES input,
/// EMITS without POINTS output, a vertex beyond the input primitive, patch bindings
/// without PATCHES.
#[test]
fn geometry_refusals_and_load_errors_point_at_their_statement() {
    type Case = (&'static str, bool, &'static str, (u32, u32));
    let cases: &[Case] = &[
        (
            "!!NVtcp5.0\nVERTICES_OUT 3;\nMOV result.position, vertex[0].position;\nEND\n",
            true,
            "tessellation control",
            (2, 1),
        ),
        (
            "!!NVtep5.0\nTESS_MODE TRIANGLES;\n MOV result.position, vertex[32].position;\nEND\n",
            true,
            "MAX_PATCH_VERTICES",
            (3, 2),
        ),
        (
            "!!NVgp5.0\nPRIMITIVE_OUT POINTS;\n  PRIMITIVE_IN PATCHES;\nVERTICES_OUT 1;\nEND\n",
            true,
            "PATCHES",
            (3, 3),
        ),
        (
            "!!NVgp5.0\nPRIMITIVE_IN POINTS;\nPRIMITIVE_OUT LINE_STRIP;\nVERTICES_OUT 1;\n  EMITS 1;\nEND\n",
            false,
            "POINTS",
            (5, 3),
        ),
        (
            "!!NVgp4.0\nPRIMITIVE_IN LINES;\nPRIMITIVE_OUT POINTS;\nVERTICES_OUT 1;\nMOV result.position, vertex[2].position;\nEND\n",
            false,
            "vertex 2",
            (5, 1),
        ),
        (
            "!!NVgp5.0\nPRIMITIVE_IN POINTS;\nPRIMITIVE_OUT POINTS;\nVERTICES_OUT 1;\nMOV result.position, primitive.tessouter[0];\nEND\n",
            false,
            "PATCHES",
            (5, 1),
        ),
    ];
    for (text, unsupported, what, (line, col)) in cases {
        let p = nv::parse(text, "t.nv").unwrap_or_else(|e| panic!("{text}: {e}"));
        let e = nv::lower(&p).expect_err(text);
        assert_eq!(
            matches!(e, nv::LowerError::Unsupported { .. }),
            *unsupported,
            "{text}: {e}"
        );
        assert!(e.to_string().contains(what), "{text}: {e}");
        assert_eq!((e.pos().line, e.pos().col), (*line, *col), "{text}: {e}");
    }
}

/// The command line keys a geometry program's inputs as `vertex[m].<attribute>` and
/// reports emitted vertex `v`'s results as `emit[v].result.<name>` beside the `emitted`
/// list (README "Names"): the corpus Swizzle program's fourth vertex is vertex 0's
/// position swizzled `.yxzw`, in primitive 1.
#[test]
fn command_line_names_per_vertex_inputs_and_emitted_results() {
    let dir = std::env::temp_dir().join(format!("shaderdiff-nvgp-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let prog = dir.join("swizzle.nvgp");
    std::fs::write(&prog, corpus("OGRECave_ogre_Swizzle_gp_1.nvgp")).expect("write");
    let inputs = dir.join("inputs.json");
    std::fs::write(
        &inputs,
        r#"{"invocations": 1, "registers": {"vertex[0].position": [1, 2, 3, 4]}}"#,
    )
    .expect("write");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_shaderdiff"))
        .args(["run", "--format", "json", "--inputs"])
        .arg(&inputs)
        .arg(&prog)
        .output()
        .expect("runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text} {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let doc: serde_json::Value = serde_json::from_str(&text).expect("json");
    assert_eq!(
        doc["registers"]["emit[3].result.position"][0],
        serde_json::json!(["0x40000000", "0x3f800000", "0x40400000", "0x40800000"])
    );
    assert_eq!(doc["emitted"][0][3], serde_json::json!([0, 1]));
    // A per-vertex attribute needs its vertex number: the error lists the known names.
    std::fs::write(
        &inputs,
        r#"{"registers": {"vertex.position": [1, 2, 3, 4]}}"#,
    )
    .expect("write");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_shaderdiff"))
        .args(["run", "--inputs"])
        .arg(&inputs)
        .arg(&prog)
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("vertex[m].position"), "{err}");
    // The Swizzle program's input primitive is a triangle: no vertex[3].
    std::fs::write(
        &inputs,
        r#"{"registers": {"vertex[3].position": [1, 2, 3, 4]}}"#,
    )
    .expect("write");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_shaderdiff"))
        .args(["run", "--inputs"])
        .arg(&inputs)
        .arg(&prog)
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("vertex[0] to vertex[2]"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A tessellation evaluation program (NV_tessellation_program5) interpolating a triangle
/// patch at `vertex.tesscoord` (u, v, w) = (0.5, 0.25, 0.25): position = u·P0 + v·P1 +
/// w·P2 with P0 = (1, 0, 0, 1), P1 = (0, 2, 0, 1), P2 = (0, 0, 4, 1) is (0.5, 0.5, 1, 1)
/// (every product and sum exact in binary32). The per-patch inputs come from the inputs
/// file (`primitive.tessouter[0]`, `primitive.tessinner[1]`, `primitive.patch.attrib[1]`,
/// `primitive.vertexcount`, `primitive.id`); `p[A.x]` reads vertex A.x of a per-vertex
/// array and `vertex.in[m]` is `vertex[m]`.
#[test]
fn tessellation_evaluation_interpolates_the_patch() {
    let text = "!!NVtep5.0
TESS_MODE TRIANGLES;
TESS_SPACING EQUAL;
TESS_VERTEX_ORDER CCW;
ATTRIB p = vertex.position;
INT TEMP A;
TEMP t;
MUL t, vertex[0].position, vertex.tesscoord.x;
MAD t, vertex.in[1].position, vertex.tesscoord.y, t;
MAD result.position, vertex[2].position, vertex.tesscoord.z, t;
MOV result.attrib[0], primitive.patch.attrib[1];
ADD result.attrib[1].x, primitive.tessouter[0].x, primitive.in.tessinner[1].x;
MOV.S result.attrib[2].x, primitive.vertexcount.x;
MOV.S result.attrib[2].y, primitive.id.x;
ADD.S A.x, primitive.vertexcount.x, -1;
MOV result.attrib[3], p[A.x];
END
";
    let p = [
        fv([1.0, 0.0, 0.0, 1.0]),
        fv([0.0, 2.0, 0.0, 1.0]),
        fv([0.0, 0.0, 4.0, 1.0]),
    ];
    let named = [
        ("vertex[0].position", vec![p[0]]),
        ("vertex.in[1].position", vec![p[1]]),
        ("vertex[2].position", vec![p[2]]),
        ("vertex.tesscoord", vec![fv([0.5, 0.25, 0.25, 0.0])]),
        ("primitive.patch.attrib[1]", vec![fv([7.0, 8.0, 9.0, 10.0])]),
        ("primitive.tessouter[0]", vec![fv([3.0, 0.0, 0.0, 0.0])]),
        ("primitive.tessinner[1]", vec![fv([0.5, 0.0, 0.0, 0.0])]),
        ("primitive.vertexcount", vec![[i(3), 0, 0, 0]]),
        ("primitive.id", vec![[i(11), 0, 0, 0]]),
    ];
    let p0 = nv::parse(text, "t.nvtep").expect("parses");
    let l = nv::lower(&p0).expect("lowers");
    shaderdiff_model::validate::validate(&l.program, "lowered").expect("valid IR");
    let (inputs, unknown) = named_inputs(&l, &named, 1);
    assert!(unknown.is_empty(), "not inputs of the program: {unknown:?}");
    for e in ENGINE_NAMES {
        let out = engine(e, &EngineConfig::default())
            .expect("engine")
            .execute(&l.program, &inputs)
            .unwrap_or_else(|err| panic!("{e}: {err}"));
        let get = |n: &str| {
            let (file, _, index) = l.names.lookup_key(l.stage, n).expect(n);
            out.registers[&RegKey::new(file, index)][0]
        };
        assert_eq!(get("result.position"), fv([0.5, 0.5, 1.0, 1.0]), "{e}");
        assert_eq!(get("result.attrib[0]"), fv([7.0, 8.0, 9.0, 10.0]), "{e}");
        assert_eq!(get("result.attrib[1]")[0], f(3.5), "{e}");
        assert_eq!(get("result.attrib[2]")[..2], [i(3), i(11)], "{e}");
        assert_eq!(get("result.attrib[3]"), p[2], "{e}");
    }
}
