//! Variable bindings (NV_gpu_program4 §2.X.3.2 attributes, §2.X.3.3 parameters, §2.X.3.5
//! results, §2.X.3.6 parameter buffers; the binding tables of NV_vertex_program4,
//! NV_fragment_program4, NV_geometry_program4, NV_tessellation_program5,
//! NV_compute_program5, NV_gpu_program5 (texture), EXT_shader_image_load_store,
//! NV_shader_storage_buffer_object, NV_shader_atomic_counters, ARB_shader_subroutine,
//! NV_shader_thread_group, ARB_vertex_program and ARB_fragment_program).
//!
//! Every stage and grammar level has a tree of the binding names it accepts; the parser
//! walks it segment by segment, so `fragment.color.x` ends the binding at `color` and reads
//! `.x` as a swizzle, while `state.texgen[0].eye.r` takes `r` as part of the binding.
// Numbers here come from user input (program text, inputs files, machine code): no
// arithmetic may wrap or panic unnoticed.
#![warn(clippy::arithmetic_side_effects)]

use super::ast::{Header, NvLevel, NvStage};

/// What a binding names, which decides where it may be used.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum BindClass {
    /// An attribute (ATTRIB, or an operand).
    Attrib,
    /// A program parameter (PARAM, or an operand).
    Param,
    /// Several parameter rows (`state.matrix.mvp`): PARAM arrays only.
    ParamMulti,
    /// A result (OUTPUT, or a destination).
    Result,
    /// `program.buffer` (BUFFER, BUFFER4, CBUFFER).
    Buffer,
    /// `program.sharedmem` (SHARED).
    Shared,
    /// `program.storage` (STORAGE).
    Storage,
    /// `program.counter` (COUNTER).
    Counter,
    /// `program.subroutine` (SUBROUTINE).
    Subroutine,
    /// `texture[n]` (TEXTURE).
    Texture,
    /// `image[n]` (IMAGE).
    Image,
}

/// One edge of the tree: a segment name, how many `[..]` may follow it, and the node it
/// leads to.
#[derive(Clone, Debug)]
pub(crate) struct Child {
    pub name: &'static str,
    /// Fewest bracket groups after the name.
    pub min_idx: u8,
    /// Most bracket groups after the name.
    pub max_idx: u8,
    pub node: usize,
}

/// A node: its children and, if a binding may end here, its class.
#[derive(Clone, Debug, Default)]
pub(crate) struct Node {
    pub children: Vec<Child>,
    pub terminal: Option<BindClass>,
}

/// The binding tree of one header.
#[derive(Clone, Debug)]
pub(crate) struct Trie {
    pub nodes: Vec<Node>,
}

impl Trie {
    fn new() -> Trie {
        Trie {
            nodes: vec![Node::default()],
        }
    }

    /// Adds a pattern like `vertex[?].texcoord[?]`: `[]` is a required index, `[?]` an
    /// optional one, `[][?]` a required and an optional one.
    fn add(&mut self, pattern: &'static str, class: BindClass) {
        let mut node = 0;
        for seg in pattern.split('.') {
            let (name, brackets) = seg.split_at(seg.find('[').unwrap_or(seg.len()));
            let min = brackets.matches("[]").count() as u8;
            let max = brackets.matches('[').count() as u8;
            let found = self.nodes[node]
                .children
                .iter()
                .position(|c| c.name == name);
            node = match found {
                Some(k) => {
                    let c = &mut self.nodes[node].children[k];
                    c.min_idx = c.min_idx.min(min);
                    c.max_idx = c.max_idx.max(max);
                    c.node
                }
                None => {
                    self.nodes.push(Node::default());
                    // Just pushed: at least one node.
                    let id = self.nodes.len().saturating_sub(1);
                    self.nodes[node].children.push(Child {
                        name,
                        min_idx: min,
                        max_idx: max,
                        node: id,
                    });
                    id
                }
            };
        }
        self.nodes[node].terminal = Some(class);
    }

    /// The child of `node` named `name`.
    pub fn child(&self, node: usize, name: &str) -> Option<&Child> {
        self.nodes[node].children.iter().find(|c| c.name == name)
    }

    /// Whether `name` starts a binding (a reserved word of this program type).
    pub fn is_root(&self, name: &str) -> bool {
        self.child(0, name).is_some()
    }
}

const THREAD: &[&str] = &[
    "threadid",
    "threadeqmask",
    "threadltmask",
    "threadlemask",
    "threadgtmask",
    "threadgemask",
    "warpid",
    "smid",
];

/// Adds `prefix.color[.front|.back][.primary|.secondary]` (faces only if `faces`).
fn colors(t: &mut Trie, prefix: &str, faces: bool, class: BindClass) {
    let mut v = vec![format!("{prefix}.color")];
    if faces {
        v.push(format!("{prefix}.color.front"));
        v.push(format!("{prefix}.color.back"));
    }
    for base in v {
        for suffix in ["", ".primary", ".secondary"] {
            t.add(leak(format!("{base}{suffix}")), class);
        }
    }
}

/// Patterns are built once per header and live for the whole process.
fn leak(s: String) -> &'static str {
    Box::leak(s.into_boxed_str())
}

fn add_all(t: &mut Trie, prefix: &str, names: &[&str], class: BindClass) {
    for n in names {
        t.add(leak(format!("{prefix}.{n}")), class);
    }
}

/// Per-vertex attributes of geometry and tessellation inputs under `prefix`.
fn vertex_inputs(t: &mut Trie, prefix: &str) {
    use BindClass::Attrib;
    add_all(
        t,
        prefix,
        &[
            "position",
            "fogcoord",
            "pointsize",
            "id",
            "texcoord[?]",
            "attrib[]",
            "clip[]",
        ],
        Attrib,
    );
    colors(t, prefix, true, Attrib);
}

fn state(t: &mut Trie, nv: bool) {
    use BindClass::{Param, ParamMulti};
    for face in ["", ".front", ".back"] {
        for p in ["ambient", "diffuse", "specular", "emission", "shininess"] {
            t.add(leak(format!("state.material{face}.{p}")), Param);
        }
    }
    add_all(
        t,
        "state.light[]",
        &[
            "ambient",
            "diffuse",
            "specular",
            "position",
            "attenuation",
            "half",
            "spot.direction",
        ],
        Param,
    );
    add_all(
        t,
        "state.lightmodel",
        &[
            "ambient",
            "scenecolor",
            "front.scenecolor",
            "back.scenecolor",
        ],
        Param,
    );
    for face in ["", ".front", ".back"] {
        for p in ["ambient", "diffuse", "specular"] {
            t.add(leak(format!("state.lightprod[]{face}.{p}")), Param);
        }
    }
    add_all(t, "state.fog", &["color", "params"], Param);
    for m in [
        "modelview[?]",
        "projection",
        "mvp",
        "texture[?]",
        "program[]",
        "palette[]",
    ] {
        for modifier in ["", ".inverse", ".transpose", ".invtrans"] {
            t.add(leak(format!("state.matrix.{m}{modifier}")), ParamMulti);
            t.add(leak(format!("state.matrix.{m}{modifier}.row[]")), Param);
        }
    }
    for ty in ["eye", "object"] {
        for c in ["s", "t", "r", "q"] {
            t.add(leak(format!("state.texgen[?].{ty}.{c}")), Param);
        }
    }
    t.add("state.clip[].plane", Param);
    add_all(t, "state.point", &["size", "attenuation"], Param);
    t.add("state.texenv[?].color", Param);
    t.add("state.depth.range", Param);
    if nv {
        add_all(
            t,
            "state.thread",
            &["warpsize", "warpspersm", "smcount"],
            Param,
        );
    }
}

/// The binding tree of `header`.
fn build(h: Header) -> Trie {
    use BindClass::*;
    let mut t = Trie::new();
    let nv = !h.is_arb();
    let gp5 = h.level == NvLevel::Nv50;
    t.add("program.env[]", Param);
    t.add("program.local[]", Param);
    state(&mut t, nv);
    if nv {
        t.add("program.buffer[][?]", Buffer);
    }
    if gp5 {
        t.add("program.storagelen[]", Param);
        t.add("program.storage[][?]", Storage);
        t.add("program.counter[][?]", Counter);
        t.add("program.subroutine[]", Subroutine);
        t.add("texture[?]", Texture);
        t.add("image[]", Image);
    }
    let results_common = |t: &mut Trie| {
        add_all(
            t,
            "result",
            &["position", "fogcoord", "pointsize", "texcoord[?]", "clip[]"],
            Result,
        );
        if nv {
            t.add("result.attrib[]", Result);
        }
        colors(t, "result", true, Result);
    };
    match h.stage {
        NvStage::Vertex => {
            add_all(
                &mut t,
                "vertex",
                &[
                    "position",
                    "weight[?]",
                    "normal",
                    "fogcoord",
                    "texcoord[?]",
                    "matrixindex[?]",
                    "attrib[]",
                ],
                Attrib,
            );
            colors(&mut t, "vertex", false, Attrib);
            if nv {
                add_all(&mut t, "vertex", &["id", "instance"], Attrib);
                add_all(&mut t, "vertex", THREAD, Attrib);
                t.add("result.id", Result);
            }
            results_common(&mut t);
        }
        NvStage::Fragment => {
            add_all(
                &mut t,
                "fragment",
                &["texcoord[?]", "fogcoord", "position", "facing"],
                Attrib,
            );
            colors(&mut t, "fragment", false, Attrib);
            t.add("result.color[?]", Result);
            t.add("result.color[?].primary", Result);
            t.add("result.color[?].secondary", Result);
            t.add("result.depth", Result);
            if nv {
                add_all(&mut t, "fragment", &["attrib[]", "clip[]"], Attrib);
                add_all(&mut t, "fragment", THREAD, Attrib);
                t.add("fragment.helperthread", Attrib);
                t.add("primitive.id", Attrib);
            }
            if gp5 {
                add_all(
                    &mut t,
                    "fragment",
                    &["sampleid", "samplemask", "pointcoord"],
                    Attrib,
                );
                t.add("result.samplemask", Result);
            }
        }
        NvStage::Geometry => {
            vertex_inputs(&mut t, "vertex[?]");
            add_all(&mut t, "primitive", &["id"], Attrib);
            add_all(&mut t, "primitive", THREAD, Attrib);
            if gp5 {
                add_all(
                    &mut t,
                    "primitive",
                    &[
                        "invocation",
                        "vertexcount",
                        "tessouter[?]",
                        "tessinner[?]",
                        "patch.attrib[?]",
                    ],
                    Attrib,
                );
            }
            results_common(&mut t);
            add_all(&mut t, "result", &["primid", "layer"], Result);
        }
        NvStage::TessCtrl | NvStage::TessEval => {
            for p in ["vertex[?]", "vertex.in[?]", "vertex.out[?]"] {
                vertex_inputs(&mut t, p);
            }
            let prims: &[&str] = if h.stage == NvStage::TessCtrl {
                &["primitive", "primitive.in", "primitive.out"]
            } else {
                &["primitive", "primitive.in"]
            };
            for p in prims {
                add_all(
                    &mut t,
                    p,
                    &[
                        "id",
                        "invocation",
                        "vertexcount",
                        "tessouter[?]",
                        "tessinner[?]",
                        "patch.attrib[?]",
                    ],
                    Attrib,
                );
                add_all(&mut t, p, THREAD, Attrib);
            }
            results_common(&mut t);
            t.add("result.id", Result);
            if h.stage == NvStage::TessCtrl {
                add_all(
                    &mut t,
                    "result.patch",
                    &["tessouter[]", "tessinner[]", "attrib[]"],
                    Result,
                );
            } else {
                t.add("vertex.tesscoord", Attrib);
            }
        }
        NvStage::Compute => {
            add_all(
                &mut t,
                "invocation",
                &[
                    "localid",
                    "globalid",
                    "groupid",
                    "groupcount",
                    "groupsize",
                    "localindex",
                ],
                Attrib,
            );
            add_all(&mut t, "invocation", THREAD, Attrib);
            t.add("program.sharedmem[?]", Shared);
        }
    }
    t
}

/// The binding tree of `h` (built once per header).
pub(crate) fn trie(h: Header) -> &'static Trie {
    static TRIES: std::sync::OnceLock<Vec<(Header, Trie)>> = std::sync::OnceLock::new();
    let all = TRIES.get_or_init(|| Header::all().map(|(_, h)| (h, build(h))).collect());
    all.iter()
        .find(|(k, _)| *k == h)
        .map(|(_, t)| t)
        .unwrap_or(&all[0].1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn accepts(h: &str, path: &[&str]) -> Option<BindClass> {
        let t = trie(Header::from_text(h).unwrap());
        let mut node = 0;
        for seg in path {
            node = t.child(node, seg)?.node;
        }
        t.nodes[node].terminal
    }

    #[test]
    fn stage_tables() {
        // NV_fragment_program4 Table X.X; ARB_fragment_program has no `primitive`.
        assert_eq!(
            accepts("!!NVfp4.0", &["primitive", "id"]),
            Some(BindClass::Attrib)
        );
        assert_eq!(accepts("!!ARBfp1.0", &["primitive", "id"]), None);
        assert!(!trie(Header::from_text("!!ARBfp1.0").unwrap()).is_root("vertex"));
        // NV_geometry_program4 Table X.2.
        assert_eq!(
            accepts("!!NVgp4.0", &["vertex", "color", "back", "secondary"]),
            Some(BindClass::Attrib)
        );
        // ARB_vertex_program: state.matrix.mvp is 4 rows, .row[n] one.
        assert_eq!(
            accepts("!!ARBvp1.0", &["state", "matrix", "mvp"]),
            Some(BindClass::ParamMulti)
        );
        assert_eq!(
            accepts("!!ARBvp1.0", &["state", "matrix", "mvp", "row"]),
            Some(BindClass::Param)
        );
        assert_eq!(
            accepts("!!NVtcp5.0", &["result", "patch", "tessouter"]),
            Some(BindClass::Result)
        );
        assert_eq!(
            accepts("!!NVcp5.0", &["invocation", "localid"]),
            Some(BindClass::Attrib)
        );
    }
}
