//! Geometry programs (`!!NVgp4.0`, `!!NVgp4.1`, `!!NVgp5.0`) and tessellation evaluation
//! programs (`!!NVtep5.0`) in the shared IR, and the reasons the other stages without an IR
//! lowering are refused ([`ir_stage`]).
//!
//! A geometry program becomes a TGSI-style `GEOM` program (tgsi.rst "Geometry ISA"), a
//! tessellation evaluation program a `TESS_EVAL` program:
//!
//! * `PRIMITIVE_IN p`, `PRIMITIVE_OUT q`, `VERTICES_OUT n` and gp5 `INVOCATIONS k` become
//!   `PROPERTY GS_INPUT_PRIMITIVE`, `GS_OUTPUT_PRIMITIVE`, `GS_MAX_OUTPUT_VERTICES` and
//!   `GS_INVOCATIONS` (NV_geometry_program4 §2.X.7.Y, NV_gpu_program5 "INVOCATIONS").
//!   The engines drop vertices past `VERTICES_OUT`, one of the behaviours §2.14.6.4 allows
//!   ("subsequent EMIT instructions may or may not have any effect"). `TESS_MODE`,
//!   `TESS_SPACING`, `TESS_VERTEX_ORDER` and `TESS_POINT_MODE` become the `TES_*`
//!   properties (NV_tessellation_program5 §2.X.7.Y; informational for the engines).
//! * Per-vertex attributes (`vertex[m].position`, `vertex[m].attrib[n]` ...,
//!   NV_geometry_program4 Table X.2; `vertex.in[m].*` in NV_tessellation_program5) are
//!   2-D inputs `IN[m][c]`: one column `c` per attribute, shared by all vertices, in
//!   first-use order. `ATTRIB` variables follow §2.X.3.2: `ATTRIB p = vertex.position;`
//!   is indexed by vertex (`p[1]`, `p[A.x]`), `ATTRIB q = vertex[2].position;` names one
//!   vertex's attribute, and arrays add an attribute index (`t[A.x][1]`, `t[A.x][A.y]`).
//!   A tessellation evaluation program's patch holds at most 32 vertices
//!   (MAX_PATCH_VERTICES_NV, the IR's implied `TESS_EVAL` vertex dimension); reading a
//!   vertex at or beyond `primitive.vertexcount` is undefined in NV and reads the vertex's
//!   inputs here, without being flagged.
//! * Per-primitive values are inputs: `primitive.id` is `SV` with semantic `PRIM_ID`;
//!   geometry `primitive.invocation` is `SV` `INVOCATIONID` when `INVOCATIONS` is above
//!   1, else the constant 0 ("this component will always be zero"), and
//!   `primitive.vertexcount` the constant vertex count of the input primitive;
//!   tessellation `primitive.vertexcount` is `SV` `VERTICESIN`, `primitive.tessouter[n]`
//!   and `tessinner[n]` `SV` `TESSOUTER[n]` / `TESSINNER[n]`, `primitive.patch.attrib[n]`
//!   the per-patch input `IN[k]`, `PATCH[n]`, and `vertex.tesscoord` `SV` `TESSCOORD`.
//! * EMIT, EMITS and ENDPRIM: `lower_emit.rs`.
//!
//! Refused: `PRIMITIVE_IN PATCHES` (the patch size comes from the tessellation control
//! program, so the program does not fix the vertex dimension, and TGSI has no patch input
//! primitive), the `primitive.*` thread bindings, tessellation control programs.

use std::collections::HashMap;

use super::ast::VertexOrder;
use super::ast::{self, Binding, BoundDecl, Index, InitItem, NvProgram, NvStage, ProgramDecl};
use super::ast::{PrimitiveIn, PrimitiveOut, Segment, TessMode, TessSpacing, VarRef};
use super::lower::{canonical_name, Ctx, Elem, LowerError, NameMap};
use super::print::binding_text;
use crate::names::{File, Primitive, PropertyName, SemanticName, Stage};
use crate::program::{self as ir, DeclDimension, Declaration, Pos, Property, Register};

/// MAX_PATCH_VERTICES_NV: the most vertices a patch has, and the IR's implied vertex
/// dimension of `TESS_EVAL` inputs.
pub const MAX_PATCH_VERTICES: u32 = 32;

/// Stage-specific lowering state kept in [`Ctx`].
#[derive(Clone, Debug, Default)]
pub(super) struct StageState {
    /// Per-vertex `ATTRIB` variables.
    vertex_vars: HashMap<String, VertexVar>,
    /// IR indices of the EMIT instructions (results become undefined after each).
    pub emits: Vec<usize>,
    /// Semantics of the SV registers allocated, by index.
    sv: Vec<(u32, SemanticName, u32)>,
    /// Per-patch generic inputs `IN[k]` and their `PATCH` index.
    patch: Vec<(u32, u32)>,
}

/// A per-vertex `ATTRIB` variable: its vertex (`vertex[m].*` bindings) or none (indexed by
/// vertex, `vertex.*` bindings), and the input column of each element.
#[derive(Clone, Debug)]
struct VertexVar {
    vertex: Option<u32>,
    cols: Vec<u32>,
}

/// The IR stage of an NV program, or why its stage is not lowered.
///
/// Errors: [`LowerError::Unsupported`] at `start` for tessellation control and compute
/// programs, at the `PRIMITIVE_IN` declaration for geometry programs on `PATCHES`.
pub(super) fn ir_stage(p: &NvProgram, start: Pos) -> Result<Stage, LowerError> {
    let unsupported = |pos: Pos, message: String| Err(LowerError::Unsupported { pos, message });
    match p.header.stage {
        NvStage::Vertex => Ok(Stage::Vertex),
        NvStage::Fragment => Ok(Stage::Fragment),
        NvStage::TessEval => Ok(Stage::TessEval),
        NvStage::Geometry => {
            let patches = p
                .program_decls
                .iter()
                .position(|d| *d == ProgramDecl::PrimitiveIn(PrimitiveIn::Patches));
            if let Some(i) = patches {
                let pos = p.source_map.program_decls.get(i).copied().unwrap_or(start);
                return unsupported(
                    pos,
                    "PRIMITIVE_IN PATCHES: the vertices of an input patch are set by the tessellation control program, not by this program, and the shared IR's GS_INPUT_PRIMITIVE has no patch type".into(),
                );
            }
            Ok(Stage::Geometry)
        }
        NvStage::TessCtrl => unsupported(
            start,
            format!(
                "{} programs (tessellation control): the invocations of a patch share their output vertices and per-patch results (`vertex.out[n]`, `result.patch.*`, BAR), while every engine of the shared IR runs each TESS_CTRL invocation on its own copy of the outputs",
                p.header.text()
            ),
        ),
        NvStage::Compute => Ok(Stage::Compute),
    }
}

/// Whether `stage` has per-vertex inputs lowered here.
fn per_vertex_stage(stage: NvStage) -> bool {
    matches!(stage, NvStage::Geometry | NvStage::TessEval)
}

/// A per-vertex binding split into its vertex index (`vertex[m].x`, `vertex.in[m].x`; none
/// for `vertex.x`) and its column binding `vertex.x`; `None` for other bindings
/// (`vertex.tesscoord` is per invocation).
fn vertex_form(stage: NvStage, b: &Binding) -> Option<(Vec<Index>, Binding)> {
    if !per_vertex_stage(stage) || b.root() != "vertex" {
        return None;
    }
    let mut rest = 1;
    let mut index = b.segments[0].index.clone();
    match b.segments.get(1).map(|s| s.name.as_str()) {
        None | Some("tesscoord") => return None,
        Some("in") if stage == NvStage::TessEval => {
            rest = 2;
            index = b.segments[1].index.clone();
        }
        _ => {}
    }
    let mut segments = vec![Segment {
        name: "vertex".into(),
        index: Vec::new(),
    }];
    segments.extend(b.segments[rest..].iter().cloned());
    Some((index, Binding { segments }))
}

/// The input column name of a per-vertex binding text without its vertex index
/// (`vertex.color.front.primary` → `vertex.color`): NV_geometry_program4 Table X.2 makes
/// `color`, `color.primary`, `color.front` and `color.front.primary` the front primary
/// color, and `color.back` and `color.back.primary` the back primary color.
fn column_name(stage: NvStage, text: &str) -> String {
    let s = canonical_name(stage, text);
    let aliases: &[(&str, &str)] = &[
        ("vertex.color.front", "vertex.color"),
        ("vertex.color.front.primary", "vertex.color"),
        ("vertex.color.front.secondary", "vertex.color.secondary"),
        ("vertex.color.back.primary", "vertex.color.back"),
    ];
    aliases
        .iter()
        .find(|(from, _)| *from == s)
        .map_or(s, |(_, to)| (*to).to_string())
}

/// Splits `vertex[m].rest` (or tessellation `vertex.in[m].rest`) into `m` and the column
/// name of `vertex.rest`.
fn split_vertex(stage: NvStage, name: &str) -> Option<(u32, String)> {
    let s: String = name.chars().filter(|c| !c.is_whitespace()).collect();
    let rest = s
        .strip_prefix("vertex[")
        .or_else(|| s.strip_prefix("vertex.in["))?;
    let close = rest.find(']')?;
    let m = rest[..close].parse().ok()?;
    let attr = rest[close + 1..].strip_prefix('.')?;
    Some((m, column_name(stage, &format!("vertex.{attr}"))))
}

/// The canonical text of a per-patch binding: tessellation `primitive.in.x` is
/// `primitive.x` (NV_tessellation_program5 Table X.2).
fn primitive_name(text: &str) -> String {
    match text.strip_prefix("primitive.in.") {
        Some(rest) => format!("primitive.{rest}"),
        None => text.to_string(),
    }
}

impl NameMap {
    /// The register an inputs-file or output name stands for, as `(file, dimension,
    /// index)`: [`NameMap::lookup`] with no dimension, and for geometry and tessellation
    /// evaluation programs the per-vertex inputs `vertex[m].<attribute>`
    /// (`vertex[1].attrib[0]` → `IN[1][c]`, any spelling of Table X.2, `vertex.in[m].*`
    /// too). `None` for unknown names and for per-vertex bindings without a vertex number.
    pub fn lookup_key(&self, stage: NvStage, name: &str) -> Option<(File, Option<u32>, u32)> {
        if per_vertex_stage(stage) {
            if let Some((m, col)) = split_vertex(stage, name) {
                return self
                    .entries
                    .iter()
                    .find(|(n, f, _)| *f == File::Input && *n == col)
                    .map(|&(_, f, i)| (f, Some(m), i));
            }
            let s = canonical_name(stage, name);
            if s.starts_with("vertex") && s != "vertex.tesscoord" {
                return None;
            }
            let s = primitive_name(&s);
            return self.lookup(stage, &s).map(|(f, i)| (f, None, i));
        }
        self.lookup(stage, name).map(|(f, i)| (f, None, i))
    }

    /// The NV name of IR register `file[dimension][index]`: [`NameMap::name_of`] for 1-D
    /// registers; `vertex[m].<attribute>` for a per-vertex input `IN[m][c]`; and
    /// `emit[v].<result>` (`emit[2].result.color`) for output `OUT[n]` of emitted vertex
    /// `v` of a geometry program, which engines report as `OUT[v][n]`.
    pub fn name_of_key(&self, file: File, dimension: Option<u32>, index: u32) -> Option<String> {
        let name = self.name_of(file, index)?;
        match (file, dimension) {
            (_, None) => Some(name.to_string()),
            (File::Input, Some(m)) => name
                .strip_prefix("vertex.")
                .map(|attr| format!("vertex[{m}].{attr}")),
            (File::Output, Some(v)) => Some(format!("emit[{v}].{name}")),
            _ => None,
        }
    }
}

/// The IR primitive of a geometry input primitive (tgsi.rst / TEXT-FORMAT.md §5 names).
fn input_primitive(p: PrimitiveIn) -> Primitive {
    match p {
        PrimitiveIn::Points => Primitive::Points,
        PrimitiveIn::Lines => Primitive::Lines,
        PrimitiveIn::LinesAdjacency => Primitive::LinesAdjacency,
        PrimitiveIn::Triangles => Primitive::Triangles,
        PrimitiveIn::TrianglesAdjacency => Primitive::TrianglesAdjacency,
        PrimitiveIn::Patches => Primitive::Patches,
    }
}

fn output_primitive(p: PrimitiveOut) -> Primitive {
    match p {
        PrimitiveOut::Points => Primitive::Points,
        PrimitiveOut::LineStrip => Primitive::LineStrip,
        PrimitiveOut::TriangleStrip => Primitive::TriangleStrip,
    }
}

/// The `PROPERTY` of a program declaration (values as TEXT-FORMAT.md §5 and Mesa's
/// `PIPE_PRIM_*` / `PIPE_TESS_SPACING_*` numbering: TES_PRIM_MODE triangles 4, quads 7,
/// isolines 1 (lines); TES_SPACING fractional odd 0, fractional even 1, equal 2).
fn property(d: &ProgramDecl) -> Option<Property> {
    let (name, value) = match d {
        ProgramDecl::PrimitiveIn(p) => {
            (PropertyName::GsInputPrimitive, input_primitive(*p).token())
        }
        ProgramDecl::PrimitiveOut(p) => (
            PropertyName::GsOutputPrimitive,
            output_primitive(*p).token(),
        ),
        ProgramDecl::VerticesOut(n) => (PropertyName::GsMaxOutputVertices, *n),
        ProgramDecl::Invocations(n) => (PropertyName::GsInvocations, *n),
        ProgramDecl::TessMode(m) => {
            let prim = match m {
                TessMode::Triangles => Primitive::Triangles,
                TessMode::Quads => Primitive::Quads,
                TessMode::Isolines => Primitive::Lines,
            };
            (PropertyName::TesPrimMode, prim.token())
        }
        ProgramDecl::TessSpacing(s) => {
            let v = match s {
                TessSpacing::FractionalOdd => 0,
                TessSpacing::FractionalEven => 1,
                TessSpacing::Equal => 2,
            };
            (PropertyName::TesSpacing, v)
        }
        ProgramDecl::TessVertexOrder(o) => (
            PropertyName::TesVertexOrderCw,
            u32::from(*o == VertexOrder::Cw),
        ),
        ProgramDecl::TessPointMode => (PropertyName::TesPointMode, 1),
        ProgramDecl::GroupSize(_) | ProgramDecl::SharedMemory(_) => return None,
    };
    Some(Property { name, value })
}

impl Ctx<'_> {
    pub(super) fn primitive_out(&self) -> Option<PrimitiveOut> {
        self.nv.program_decls.iter().find_map(|d| match d {
            ProgramDecl::PrimitiveOut(p) => Some(*p),
            _ => None,
        })
    }

    fn invocations(&self) -> u32 {
        self.nv
            .program_decls
            .iter()
            .find_map(|d| match d {
                ProgramDecl::Invocations(n) => Some(*n),
                _ => None,
            })
            .unwrap_or(1)
    }

    /// Vertices of the input primitive (NV_geometry_program4 §2.14.6.1), or the most a
    /// patch may have for tessellation evaluation programs.
    fn input_vertices(&self) -> u32 {
        if self.stage == NvStage::TessEval {
            return MAX_PATCH_VERTICES;
        }
        self.nv
            .program_decls
            .iter()
            .find_map(|d| match d {
                ProgramDecl::PrimitiveIn(p) => Some(input_primitive(*p).vertices()),
                _ => None,
            })
            .unwrap_or(0)
    }

    /// The input columns of a per-vertex column binding (all vec4s a range covers),
    /// allocated on first use.
    fn vertex_cols(&mut self, column: &Binding) -> Vec<u32> {
        let mut cols = Vec::new();
        for e in self.expand(column) {
            let name = column_name(self.stage, &binding_text(&e));
            cols.push(self.binding_reg(File::Input, &name));
        }
        cols
    }

    /// A vertex number `m` of `vertex[m]` or of a per-vertex variable, checked against the
    /// input primitive (§2.X.3.2: "<m> must be in the valid range of vertices").
    fn vertex_index(&self, ix: &Index) -> Result<ir::Index, LowerError> {
        match ix {
            Index::Abs(m) => {
                let n = self.input_vertices();
                if *m < n {
                    Ok(ir::Index::direct(*m as i32))
                } else if self.stage == NvStage::TessEval {
                    Err(self.unsupported(format!(
                        "vertex {m}: a patch has at most {n} vertices (MAX_PATCH_VERTICES_NV)"
                    )))
                } else {
                    Err(self.invalid(format!(
                        "vertex {m} does not exist: the input primitive has {n} vertices (NV_geometry_program4 §2.14.6.1)"
                    )))
                }
            }
            Index::Rel(rel) => Ok(self.indirect(File::Input, 0, rel)?.index),
            Index::Range(..) => Err(self.invalid("a vertex range in an operand".into())),
        }
    }

    /// Declares an `ATTRIB` of per-vertex bindings; `false` when `b` is something else
    /// (lowered by the caller).
    ///
    /// Errors: per-vertex bindings mixed with others or with other vertices (unsupported),
    /// LONG variables (unsupported).
    pub(super) fn declare_vertex(&mut self, b: &BoundDecl) -> Result<bool, LowerError> {
        if b.kind != ast::DeclKind::Attrib {
            return Ok(false);
        }
        let forms: Vec<Option<(Vec<Index>, Binding)>> = b
            .init
            .iter()
            .map(|i| match i {
                InitItem::Binding(bd) => vertex_form(self.stage, bd),
                _ => None,
            })
            .collect();
        if forms.iter().all(Option::is_none) {
            return Ok(false);
        }
        if forms.iter().any(Option::is_none) {
            return Err(self.unsupported(format!(
                "ATTRIB `{}` mixes per-vertex and other bindings",
                b.name
            )));
        }
        if b.mods.size == Some(ast::VarSize::Long) {
            return Err(self.unsupported("LONG variables (64-bit)".into()));
        }
        let mut vertex = None;
        let mut cols = Vec::new();
        for (k, (index, column)) in forms.into_iter().flatten().enumerate() {
            let m = match index.as_slice() {
                [] => None,
                [Index::Abs(m)] => {
                    self.vertex_index(&Index::Abs(*m))?;
                    Some(*m)
                }
                _ => return Err(self.invalid("a vertex number must be a constant here".into())),
            };
            if k > 0 && m != vertex {
                return Err(self.unsupported(format!(
                    "ATTRIB `{}` binds attributes of different vertices",
                    b.name
                )));
            }
            vertex = m;
            cols.extend(self.vertex_cols(&column));
        }
        self.stage_state
            .vertex_vars
            .insert(b.name.clone(), VertexVar { vertex, cols });
        Ok(true)
    }

    /// `ALIAS name = target;` of a per-vertex variable (§2.X.3.8); `false` when `target` is
    /// not one.
    pub(super) fn alias_vertex(&mut self, name: &str, target: &str) -> bool {
        let Some(v) = self.stage_state.vertex_vars.get(target).cloned() else {
            return false;
        };
        self.stage_state.vertex_vars.insert(name.to_string(), v);
        true
    }

    /// The 2-D input register a per-vertex operand reads (`vertex[m].*` bindings and
    /// per-vertex `ATTRIB` variables); `None` for other operands.
    ///
    /// Errors: a binding without a constant vertex number, a per-vertex variable without
    /// its vertex index, indices out of range ([`LowerError::Invalid`]); relative attribute
    /// indices over columns that are not consecutive (unsupported).
    pub(super) fn vertex_operand(&mut self, r: &VarRef) -> Result<Option<Register>, LowerError> {
        if !per_vertex_stage(self.stage) {
            return Ok(None);
        }
        let reg = |vertex: ir::Index, index: ir::Index| Register {
            file: File::Input,
            index,
            dimension: Some(vertex),
        };
        match r {
            VarRef::Binding(b) => {
                let Some((index, column)) = vertex_form(self.stage, b) else {
                    return Ok(None);
                };
                let [m @ Index::Abs(_)] = index.as_slice() else {
                    return Err(self.invalid(format!(
                        "`{}`: a binding used in an instruction needs a constant vertex number `vertex[m]` (NV_geometry_program4 §2.X.3.2)",
                        binding_text(b)
                    )));
                };
                let vertex = self.vertex_index(m)?;
                let cols = self.vertex_cols(&column);
                let [col] = cols.as_slice() else {
                    return Err(self.unsupported(format!(
                        "binding `{}` used as an operand covers {} vectors",
                        binding_text(b),
                        cols.len()
                    )));
                };
                Ok(Some(reg(vertex, ir::Index::direct(*col as i32))))
            }
            VarRef::Var { name, index } => {
                let Some(v) = self.stage_state.vertex_vars.get(name).cloned() else {
                    return Ok(None);
                };
                let (vertex, elem) = match v.vertex {
                    Some(m) if index.len() <= 1 => (ir::Index::direct(m as i32), index.first()),
                    None if !index.is_empty() && index.len() <= 2 => {
                        (self.vertex_index(&index[0])?, index.get(1))
                    }
                    _ => {
                        return Err(self.invalid(format!(
                            "`{name}`: a per-vertex variable takes its vertex number, then (for arrays) the element (NV_geometry_program4 §2.X.3.2)"
                        )))
                    }
                };
                let col = match elem {
                    None if v.cols.len() == 1 => ir::Index::direct(v.cols[0] as i32),
                    None => {
                        return Err(self
                            .invalid(format!("`{name}` is an array: it needs an element index")))
                    }
                    Some(Index::Abs(k)) => match v.cols.get(*k as usize) {
                        Some(c) => ir::Index::direct(*c as i32),
                        None => {
                            return Err(self.invalid(format!("index {k} out of bounds of `{name}`")))
                        }
                    },
                    Some(Index::Rel(rel)) => {
                        let consecutive = v.cols.windows(2).all(|w| w[1] == w[0] + 1);
                        if !consecutive {
                            return Err(self.unsupported(format!(
                                "relative addressing of `{name}` (its attributes are not consecutive input columns)"
                            )));
                        }
                        self.indirect(File::Input, v.cols[0], rel)?.index
                    }
                    Some(Index::Range(..)) => {
                        return Err(self.invalid(format!("a range index of `{name}`")))
                    }
                };
                Ok(Some(reg(vertex, col)))
            }
        }
    }

    /// The elements of a per-primitive binding (`primitive.*`, tessellation
    /// `vertex.tesscoord`; NV_geometry_program4 / NV_gpu_program5 / NV_tessellation_program5
    /// §2.X.3.2); `None` for other bindings.
    ///
    /// Errors: geometry patch bindings (a load error without `PRIMITIVE_IN PATCHES`),
    /// thread bindings (unsupported).
    pub(super) fn primitive_binding(
        &mut self,
        b: &Binding,
    ) -> Result<Option<Vec<Elem>>, LowerError> {
        let tess = self.stage == NvStage::TessEval;
        let tesscoord = tess && b.path() == "vertex.tesscoord";
        if !per_vertex_stage(self.stage) || !(b.root() == "primitive" || tesscoord) {
            return Ok(None);
        }
        let mut elems = Vec::new();
        for e in self.expand(b) {
            let text = primitive_name(&binding_text(&e));
            let n = e.segments.last().and_then(|s| match s.index.as_slice() {
                [Index::Abs(n)] => Some(*n),
                _ => None,
            });
            let path = primitive_name(&e.path());
            use SemanticName as S;
            let elem = match (path.as_str(), tess) {
                ("primitive.id", _) => self.system_value(&text, S::PrimId, 0),
                ("primitive.invocation", false) if self.invocations() > 1 => {
                    self.system_value(&text, S::InvocationId, 0)
                }
                ("primitive.invocation", false) => self.constant(0),
                ("primitive.vertexcount", false) => self.constant(self.input_vertices()),
                ("primitive.vertexcount", true) => self.system_value(&text, S::VerticesIn, 0),
                ("primitive.tessouter", true) => {
                    self.system_value(&text, S::TessOuter, n.unwrap_or(0))
                }
                ("primitive.tessinner", true) => {
                    self.system_value(&text, S::TessInner, n.unwrap_or(0))
                }
                ("primitive.patch.attrib", true) => {
                    let i = self.binding_reg(File::Input, &text);
                    if !self.stage_state.patch.iter().any(|&(j, _)| j == i) {
                        self.stage_state.patch.push((i, n.unwrap_or(0)));
                    }
                    Elem::Reg(File::Input, i)
                }
                ("vertex.tesscoord", true) => self.system_value(&text, S::TessCoord, 0),
                ("primitive.tessouter" | "primitive.tessinner" | "primitive.patch.attrib", _) => {
                    return Err(self.invalid(format!(
                        "`{text}` needs PRIMITIVE_IN PATCHES (NV_gpu_program5 §2.X.3.2)"
                    )))
                }
                _ => return Err(self.unsupported(format!("binding `{text}`"))),
            };
            elems.push(elem);
        }
        Ok(Some(elems))
    }

    /// The `SV` register named `text`, declared with `semantic[index]`.
    fn system_value(&mut self, text: &str, semantic: SemanticName, index: u32) -> Elem {
        let i = self.binding_reg(File::SystemValue, text);
        if !self.stage_state.sv.iter().any(|&(j, _, _)| j == i) {
            self.stage_state.sv.push((i, semantic, index));
        }
        Elem::Reg(File::SystemValue, i)
    }

    /// An IMM register holding the integer `(x, 0, 0, 0)`.
    fn constant(&mut self, x: u32) -> Elem {
        let r = self.imm([x, 0, 0, 0]);
        Elem::Reg(File::Immediate, r.index.value as u32)
    }

    /// Completes a lowered geometry or tessellation evaluation program after
    /// [`Ctx::finish`]: its properties, its per-vertex inputs' implied vertex dimension, its
    /// per-patch inputs and system values, and (geometry) the undefined results after each
    /// EMIT. Other stages are left as they are.
    pub(super) fn finish_stage(&mut self) {
        if !per_vertex_stage(self.stage) {
            return;
        }
        self.out.properties = self.nv.program_decls.iter().filter_map(property).collect();
        let mut decls = Vec::new();
        for d in std::mem::take(&mut self.out.declarations) {
            if d.file != File::Input {
                decls.push(d);
                continue;
            }
            for i in d.first..=d.last {
                let mut one = Declaration::new(File::Input, i, i);
                match self.stage_state.patch.iter().find(|&&(j, _)| j == i) {
                    Some(&(_, n)) => one.semantic = Some((SemanticName::Patch, n)),
                    None => one.dimension = Some(DeclDimension::Implied),
                }
                decls.push(one);
            }
        }
        for &(i, sem, n) in &self.stage_state.sv {
            let mut d = Declaration::new(File::SystemValue, i, i);
            d.semantic = Some((sem, n));
            decls.push(d);
        }
        self.out.source_map.declarations = vec![Pos::default(); decls.len()];
        self.out.declarations = decls;
        if self.stage == NvStage::Geometry {
            self.undefine_results_after_emits();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tessellation_spellings_name_one_register() {
        // NV_tessellation_program5 Table X.2: vertex.in[m] is vertex[m], primitive.in is
        // primitive.
        let p = crate::parse(
            "!!NVtep5.0\nTESS_MODE QUADS;\nADD result.position, vertex.in[3].attrib[1], primitive.in.tessouter[2];\nEND\n",
            "t.nv",
        )
        .expect("parses");
        let l = crate::lower(&p).expect("lowers");
        let s = NvStage::TessEval;
        let v = l.names.lookup_key(s, "vertex[3].attrib[1]");
        assert_eq!(v, Some((File::Input, Some(3), 0)));
        assert_eq!(l.names.lookup_key(s, "vertex.in[3].attrib[1]"), v);
        assert_eq!(l.names.lookup_key(s, "vertex.attrib[1]"), None);
        let t = l.names.lookup_key(s, "primitive.tessouter[2]");
        assert_eq!(t, Some((File::SystemValue, None, 0)));
        assert_eq!(l.names.lookup_key(s, "primitive.in.tessouter[2]"), t);
        assert_eq!(
            l.names.name_of_key(File::Input, Some(3), 0).as_deref(),
            Some("vertex[3].attrib[1]")
        );
        assert_eq!(
            l.program.property(PropertyName::TesPrimMode),
            Some(Primitive::Quads.token())
        );
        let sv = l.program.decls(File::SystemValue).next().expect("SV");
        assert_eq!(sv.semantic, Some((SemanticName::TessOuter, 2)));
    }

    #[test]
    fn geometry_color_spellings_are_one_column() {
        // NV_geometry_program4 Table X.2: color, color.front.primary are the front primary
        // color; color.back.primary is color.back.
        let text = "!!NVgp4.0\nPRIMITIVE_IN LINES;\nPRIMITIVE_OUT POINTS;\nVERTICES_OUT 1;\nADD result.color, vertex[1].color.front.primary, vertex[0].color.back;\nEND\n";
        let l = crate::lower(&crate::parse(text, "t.nv").expect("parses")).expect("lowers");
        let s = NvStage::Geometry;
        let front = l.names.lookup_key(s, "vertex[1].color");
        assert_eq!(front, Some((File::Input, Some(1), 0)));
        assert_eq!(l.names.lookup_key(s, "vertex[1].color.primary"), front);
        assert_eq!(
            l.names.lookup_key(s, "vertex[0].color.back.primary"),
            Some((File::Input, Some(0), 1))
        );
    }
}
