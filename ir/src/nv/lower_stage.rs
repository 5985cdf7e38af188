//! Geometry programs (`!!NVgp4.0`, `!!NVgp4.1`, `!!NVgp5.0`) in the shared IR, and the
//! reasons the other stages without an IR lowering are refused.
//!
//! A geometry program becomes a TGSI-style `GEOM` program (tgsi.rst "Geometry ISA"):
//!
//! * `PRIMITIVE_IN p`, `PRIMITIVE_OUT q`, `VERTICES_OUT n` and gp5 `INVOCATIONS k` become
//!   `PROPERTY GS_INPUT_PRIMITIVE`, `GS_OUTPUT_PRIMITIVE`, `GS_MAX_OUTPUT_VERTICES` and
//!   `GS_INVOCATIONS` (NV_geometry_program4 §2.X.7.Y, NV_gpu_program5 "INVOCATIONS").
//!   The engines drop vertices past `VERTICES_OUT`, one of the behaviours §2.14.6.4 allows
//!   ("subsequent EMIT instructions may or may not have any effect").
//! * Per-vertex attributes (`vertex[m].position`, `vertex[m].attrib[n]` ..., Table X.2)
//!   are 2-D inputs `IN[m][c]`: one column `c` per attribute, shared by all vertices, in
//!   first-use order. `ATTRIB` variables follow §2.X.3.2: `ATTRIB p = vertex.position;`
//!   is indexed by vertex (`p[1]`, `p[A.x]`), `ATTRIB q = vertex[2].position;` names one
//!   vertex's attribute, and arrays add an attribute index (`t[A.x][1]`, `t[A.x][A.y]`).
//! * `primitive.id` is `SV[i]` with semantic `PRIM_ID`; gp5 `primitive.invocation` is
//!   `SV[i]` with `INVOCATIONID` when `INVOCATIONS` is above 1, else the constant 0 ("this
//!   component will always be zero"); `primitive.vertexcount` is the constant vertex count
//!   of the input primitive.
//! * `EMIT` is `EMIT` on stream 0; gp5 `EMITS s` is `EMIT` on stream `s`, undefined (the
//!   invocation's output unconstrained) unless `0 <= s < 4`, MAX_VERTEX_STREAMS being 4
//!   (the minimum ARB_transform_feedback3 guarantees); `ENDPRIM` is `ENDPRIM` on stream 0,
//!   and nothing at all with `PRIMITIVE_OUT POINTS` ("ENDPRIM has no effect").
//! * "After an EMIT instruction is completed, the current values of all vertex result
//!   variables become undefined" (§2.14.6.3): every `OUT` register is made undefined after
//!   each `EMIT` / `EMITS` (an integer division by zero ANDed with 0, as for the ARB
//!   temporaries in `lower_start.rs`: the oracle flags the channels, the engines hold 0).
//!   Before the first EMIT the results start as zero, as INTERFACE.md says for every `OUT`.
//!
//! Refused: `PRIMITIVE_IN PATCHES` (the patch size comes from the tessellation control
//! program, so the program does not fix the vertex dimension, and TGSI has no patch input
//! primitive), the `primitive.*` thread bindings, and tessellation programs (see
//! [`ir_stage`]).

use std::collections::HashMap;

use super::ast::{self, BaseType, Binding, BoundDecl, Index, InitItem, NvProgram, NvStage};
use super::ast::{Instruction as NvInsn, PrimitiveIn, PrimitiveOut, ProgramDecl, VarRef};
use super::lower::{canonical_name, Ctx, Elem, LowerError, NameMap};
use super::print::binding_text;
use super::NvOpcode as N;
use crate::edit::{rebuild, Edit};
use crate::names::{File, Primitive, PropertyName, SemanticName, Stage};
use crate::opcode::Opcode;
use crate::program::{self as ir, DeclDimension, Declaration, Instruction, Pos, Property};
use crate::program::{Register, IDENTITY_SWIZZLE};

/// MAX_VERTEX_STREAMS: the minimum ARB_transform_feedback3 guarantees (EMITS on a stream
/// at or above it is undefined, NV_gpu_program5 §2.X.8.Z "EMITS").
const MAX_VERTEX_STREAMS: u32 = 4;

/// Stage-specific lowering state kept in [`Ctx`].
#[derive(Clone, Debug, Default)]
pub(super) struct StageState {
    /// Per-vertex `ATTRIB` variables of a geometry program.
    vertex_vars: HashMap<String, VertexVar>,
    /// IR indices of the EMIT instructions (results become undefined after each).
    emits: Vec<usize>,
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
/// Errors: [`LowerError::Unsupported`] at `start` for tessellation and compute programs,
/// at the `PRIMITIVE_IN` declaration for geometry programs on `PATCHES`.
pub(super) fn ir_stage(p: &NvProgram, start: Pos) -> Result<Stage, LowerError> {
    let unsupported = |pos: Pos, message: String| Err(LowerError::Unsupported { pos, message });
    match p.header.stage {
        NvStage::Vertex => Ok(Stage::Vertex),
        NvStage::Fragment => Ok(Stage::Fragment),
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
        NvStage::TessEval => unsupported(
            start,
            format!(
                "{} programs (tessellation evaluation): their per-vertex inputs come from the tessellation control program's patch, whose size the program does not declare, so the vertex dimension of `vertex[m].*` cannot be fixed in the shared IR",
                p.header.text()
            ),
        ),
        NvStage::Compute => unsupported(
            start,
            format!("{} programs (Compute stage)", p.header.text()),
        ),
    }
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

/// Splits `vertex[m].rest` into `m` and the column name of `vertex.rest`.
fn split_vertex(stage: NvStage, name: &str) -> Option<(u32, String)> {
    let s: String = name.chars().filter(|c| !c.is_whitespace()).collect();
    let rest = s.strip_prefix("vertex[")?;
    let close = rest.find(']')?;
    let m = rest[..close].parse().ok()?;
    let attr = rest[close + 1..].strip_prefix('.')?;
    Some((m, column_name(stage, &format!("vertex.{attr}"))))
}

impl NameMap {
    /// The register an inputs-file or output name stands for, as `(file, dimension,
    /// index)`: [`NameMap::lookup`] with no dimension, and for geometry programs the
    /// per-vertex inputs `vertex[m].<attribute>` (`vertex[1].attrib[0]` → `IN[1][c]`,
    /// any spelling of Table X.2). `None` for unknown names and for per-vertex bindings
    /// without a vertex number.
    pub fn lookup_key(&self, stage: NvStage, name: &str) -> Option<(File, Option<u32>, u32)> {
        if stage == NvStage::Geometry {
            if let Some((m, col)) = split_vertex(stage, name) {
                return self
                    .entries
                    .iter()
                    .find(|(n, f, _)| *f == File::Input && *n == col)
                    .map(|&(_, f, i)| (f, Some(m), i));
            }
            if canonical_name(stage, name).starts_with("vertex") {
                return None;
            }
        }
        self.lookup(stage, name).map(|(f, i)| (f, None, i))
    }

    /// The NV name of IR register `file[dimension][index]`: [`NameMap::name_of`] for 1-D
    /// registers; `vertex[m].<attribute>` for a geometry program's input `IN[m][c]`; and
    /// `emit[v].<result>` (`emit[2].result.color`) for output `OUT[n]` of emitted vertex
    /// `v`, which engines report as `OUT[v][n]`.
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

impl Ctx<'_> {
    fn primitive_in(&self) -> Option<PrimitiveIn> {
        self.nv.program_decls.iter().find_map(|d| match d {
            ProgramDecl::PrimitiveIn(p) => Some(*p),
            _ => None,
        })
    }

    fn primitive_out(&self) -> Option<PrimitiveOut> {
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

    /// Vertices of the input primitive (NV_geometry_program4 §2.14.6.1).
    fn input_vertices(&self) -> u32 {
        self.primitive_in()
            .map_or(0, |p| input_primitive(p).vertices())
    }

    /// The input columns of a per-vertex binding (all vec4s a range covers), allocated on
    /// first use.
    fn vertex_cols(&mut self, b: &Binding) -> Vec<u32> {
        let mut cols = Vec::new();
        for mut e in self.expand(b) {
            e.segments[0].index.clear();
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
                if *m >= n {
                    return Err(self.invalid(format!(
                        "vertex {m} does not exist: the input primitive has {n} vertices (NV_geometry_program4 §2.14.6.1)"
                    )));
                }
                Ok(ir::Index::direct(*m as i32))
            }
            Index::Rel(rel) => Ok(self.indirect(File::Input, 0, rel)?.index),
            Index::Range(..) => Err(self.invalid("a vertex range in an operand".into())),
        }
    }

    /// Declares a geometry program's `ATTRIB` of per-vertex bindings; `false` when `b` is
    /// something else (lowered by the caller).
    ///
    /// Errors: per-vertex bindings mixed with others or with other vertices (unsupported),
    /// LONG variables (unsupported).
    pub(super) fn declare_vertex(&mut self, b: &BoundDecl) -> Result<bool, LowerError> {
        if self.stage != NvStage::Geometry || b.kind != ast::DeclKind::Attrib {
            return Ok(false);
        }
        let is_vertex = |i: &InitItem| matches!(i, InitItem::Binding(bd) if bd.root() == "vertex");
        if !b.init.iter().any(is_vertex) {
            return Ok(false);
        }
        if !b.init.iter().all(is_vertex) {
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
        for (k, item) in b.init.iter().enumerate() {
            let InitItem::Binding(bd) = item else {
                continue;
            };
            let m = match bd.segments[0].index.as_slice() {
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
            cols.extend(self.vertex_cols(bd));
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

    /// The 2-D input register a geometry program's per-vertex operand reads (`vertex[m].*`
    /// bindings and per-vertex `ATTRIB` variables); `None` for other operands.
    ///
    /// Errors: a binding without a constant vertex number, a per-vertex variable without
    /// its vertex index, indices out of range ([`LowerError::Invalid`]); relative attribute
    /// indices over columns that are not consecutive (unsupported).
    pub(super) fn vertex_operand(&mut self, r: &VarRef) -> Result<Option<Register>, LowerError> {
        if self.stage != NvStage::Geometry {
            return Ok(None);
        }
        let reg = |vertex: ir::Index, index: ir::Index| Register {
            file: File::Input,
            index,
            dimension: Some(vertex),
        };
        match r {
            VarRef::Binding(b) if b.root() == "vertex" => {
                let [m @ Index::Abs(_)] = b.segments[0].index.as_slice() else {
                    return Err(self.invalid(format!(
                        "`{}`: a binding used in an instruction needs a constant vertex number `vertex[m]` (NV_geometry_program4 §2.X.3.2)",
                        binding_text(b)
                    )));
                };
                let vertex = self.vertex_index(m)?;
                let cols = self.vertex_cols(b);
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
            _ => Ok(None),
        }
    }

    /// The elements of a geometry program's `primitive.*` binding (§2.X.3.2 and
    /// NV_gpu_program5 "Geometry Vertex Binding"); `None` for other bindings.
    ///
    /// Errors: patch bindings (a load error without `PRIMITIVE_IN PATCHES`), thread
    /// bindings (unsupported).
    pub(super) fn primitive_binding(
        &mut self,
        b: &Binding,
    ) -> Result<Option<Vec<Elem>>, LowerError> {
        if self.stage != NvStage::Geometry || b.root() != "primitive" {
            return Ok(None);
        }
        let text = binding_text(b);
        let path = b.path();
        let sv = |cx: &mut Self| {
            let i = cx.binding_reg(File::SystemValue, &text);
            Elem::Reg(File::SystemValue, i)
        };
        let constant = |cx: &mut Self, x: u32| {
            let r = cx.imm([x, 0, 0, 0]);
            Elem::Reg(File::Immediate, r.index.value as u32)
        };
        let e = match path.as_str() {
            "primitive.id" => sv(self),
            "primitive.invocation" if self.invocations() > 1 => sv(self),
            "primitive.invocation" => constant(self, 0),
            "primitive.vertexcount" => {
                let n = self.input_vertices();
                constant(self, n)
            }
            "primitive.tessouter" | "primitive.tessinner" | "primitive.patch.attrib" => {
                return Err(self.invalid(format!(
                    "`{text}` needs PRIMITIVE_IN PATCHES (NV_gpu_program5 §2.X.3.2)"
                )))
            }
            _ => return Err(self.unsupported(format!("binding `{text}`"))),
        };
        Ok(Some(vec![e]))
    }

    /// Lowers EMIT, EMITS and ENDPRIM (see the module docs).
    ///
    /// Errors: EMITS with an output primitive other than POINTS (a load error,
    /// NV_gpu_program5 §2.14.6.2), these opcodes outside geometry programs.
    pub(super) fn lower_emit(&mut self, insn: &NvInsn) -> Result<(), LowerError> {
        let name = insn.opcode.name();
        if self.stage != NvStage::Geometry {
            return Err(self.invalid(format!("{name} is a geometry program instruction")));
        }
        let zero = ir::Src {
            reg: self.imm([0; 4]),
            swizzle: [0; 4],
            abs: false,
            neg: false,
        };
        let points = self.primitive_out() == Some(PrimitiveOut::Points);
        match insn.opcode {
            N::Emit => {
                let at = self.emit(Opcode::EMIT, vec![], vec![zero]);
                self.stage_state.emits.push(at);
            }
            N::Endprim if points => {}
            N::Endprim => {
                self.emit(Opcode::ENDPRIM, vec![], vec![zero]);
            }
            N::Emits => {
                if !points {
                    return Err(self.invalid(
                        "EMITS needs PRIMITIVE_OUT POINTS (NV_gpu_program5 §2.14.6.2)".into(),
                    ));
                }
                let s = self.operand(insn, 0, BaseType::S)?;
                let s = ir::Src {
                    swizzle: [s.swizzle[0]; 4],
                    ..s
                };
                // A constant stream in range is an immediate operand, as EMIT's.
                let known = match s.reg.file {
                    File::Immediate if !s.reg.is_indirect() && !s.neg && !s.abs => self
                        .out
                        .immediates
                        .get(s.reg.index.value as usize)
                        .map(|imm| imm.words[s.swizzle[0] as usize]),
                    _ => None,
                };
                if let Some(stream) = known.filter(|&v| v < MAX_VERTEX_STREAMS) {
                    let stream = ir::Src::new(self.imm([stream; 4]));
                    let at = self.emit(Opcode::EMIT, vec![], vec![stream]);
                    self.stage_state.emits.push(at);
                    return Ok(());
                }
                // t = s where 0 <= s < MAX_VERTEX_STREAMS (unsigned compare), else
                // s / 0, which the IR leaves undefined.
                let t = self.hidden();
                let tx = ir::Dst {
                    reg: t,
                    writemask: 1,
                };
                let t_x = ir::Src {
                    swizzle: [0; 4],
                    ..ir::Src::new(t)
                };
                let limit = ir::Src::new(self.imm([MAX_VERTEX_STREAMS; 4]));
                let one = ir::Src::new(self.imm([1; 4]));
                self.emit(Opcode::USLT, vec![tx], vec![s, limit]);
                self.emit(Opcode::AND, vec![tx], vec![t_x, one]);
                self.emit(Opcode::IDIV, vec![tx], vec![s, t_x]);
                let at = self.emit(Opcode::EMIT, vec![], vec![t_x]);
                self.stage_state.emits.push(at);
            }
            _ => return Err(self.unsupported(name.to_string())),
        }
        Ok(())
    }

    /// Completes a lowered geometry program after [`Ctx::finish`]: its properties, the
    /// implied vertex dimension of its inputs, its system values, and the undefined results
    /// after each EMIT. Other stages are left as they are.
    pub(super) fn finish_stage(&mut self) {
        if self.stage != NvStage::Geometry {
            return;
        }
        let mut props = Vec::new();
        if let Some(p) = self.primitive_in() {
            props.push((PropertyName::GsInputPrimitive, input_primitive(p).token()));
        }
        if let Some(p) = self.primitive_out() {
            props.push((PropertyName::GsOutputPrimitive, output_primitive(p).token()));
        }
        for d in &self.nv.program_decls {
            match d {
                ProgramDecl::VerticesOut(n) => props.push((PropertyName::GsMaxOutputVertices, *n)),
                ProgramDecl::Invocations(n) => props.push((PropertyName::GsInvocations, *n)),
                _ => {}
            }
        }
        self.out.properties = props
            .into_iter()
            .map(|(name, value)| Property { name, value })
            .collect();
        for d in &mut self.out.declarations {
            if d.file == File::Input {
                d.dimension = Some(DeclDimension::Implied);
            }
        }
        let mut svs: Vec<(u32, SemanticName)> = Vec::new();
        for (n, f, i) in &self.names.entries {
            let sem = match n.as_str() {
                "primitive.id" => SemanticName::PrimId,
                "primitive.invocation" => SemanticName::InvocationId,
                _ => continue,
            };
            if *f == File::SystemValue && !svs.iter().any(|(j, _)| j == i) {
                svs.push((*i, sem));
            }
        }
        for (i, sem) in svs {
            let mut d = Declaration::new(File::SystemValue, i, i);
            d.semantic = Some((sem, 0));
            self.out.declarations.push(d);
            self.out.source_map.declarations.push(Pos::default());
        }
        self.undefine_results_after_emits();
    }

    /// Inserts after each EMIT, for every OUT register, `IDIV OUT[k], 0, 0` (undefined in
    /// the IR) and `AND OUT[k], OUT[k], 0` (so every engine holds 0).
    fn undefine_results_after_emits(&mut self) {
        let outs = self.counts.get(&File::Output).copied().unwrap_or(0);
        if outs == 0 || self.stage_state.emits.is_empty() {
            return;
        }
        let zero = ir::Src::new(self.imm([0; 4]));
        let emits = std::mem::take(&mut self.stage_state.emits);
        let mut edits = Vec::with_capacity(self.out.instructions.len());
        for (j, insn) in self.out.instructions.iter().enumerate() {
            edits.push(Edit::kept(j, insn.clone()));
            if !emits.contains(&j) {
                continue;
            }
            for k in 0..outs {
                let reg = Register::new(File::Output, k as i32);
                let d = ir::Dst {
                    reg,
                    writemask: 0xF,
                };
                let r = ir::Src {
                    swizzle: IDENTITY_SWIZZLE,
                    ..ir::Src::new(reg)
                };
                edits.push(Edit::inserted(
                    Some(j),
                    Instruction::new(Opcode::IDIV, vec![d], vec![zero, zero]),
                ));
                edits.push(Edit::inserted(
                    Some(j),
                    Instruction::new(Opcode::AND, vec![d], vec![r, zero]),
                ));
            }
        }
        self.out = rebuild(&self.out, edits);
    }
}
