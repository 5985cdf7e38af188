//! The program model: one semantic IR for vec4 register programs.
//!
//! TGSI text lowers into it one-to-one (tgsi.rst "Instruction Set" and
//! TEXT-FORMAT.md); NV assembly lowers into the same structures, using the
//! NV-only fields (`cc_update`, `cond`, `Saturate::Signed`) and the same typed
//! opcodes (`ADD.S` is `UADD`, `DIV.U` is `UDIV`, `ADD.F64` is `DADD` ...).
//! All engines consume `Program`.
//!
//! Equality ignores source positions (`SourceMap`), so `parse(print(p)) == p`
//! is meaningful.

use crate::names::*;
use crate::opcode::Opcode;

/// Swizzle component indices: x=0, y=1, z=2, w=3.
pub type Swizzle = [u8; 4];
/// The identity swizzle `.xyzw`.
pub const IDENTITY_SWIZZLE: Swizzle = [0, 1, 2, 3];
/// Writemask bits: x=1, y=2, z=4, w=8.
pub const WRITEMASK_XYZW: u8 = 0xF;
/// Channel letters in order.
pub const CHANNEL_NAMES: [char; 4] = ['x', 'y', 'z', 'w'];

/// A whole program.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Program {
    /// Shader stage from the header.
    pub stage: Stage,
    /// `PROPERTY` statements, in order.
    pub properties: Vec<Property>,
    /// `DCL` statements, in order.
    pub declarations: Vec<Declaration>,
    /// `IMM` statements, in order: `IMM[i]` is `immediates[i]`.
    pub immediates: Vec<Immediate>,
    /// Instructions; branch targets are positions in this vector.
    pub instructions: Vec<Instruction>,
    /// Interleaving of statements as written, when it differs from the canonical order
    /// (properties, declarations, immediates, instructions). Empty = canonical.
    pub layout: Vec<Item>,
    /// Where each statement came from (ignored by equality).
    pub source_map: SourceMap,
}

#[allow(clippy::derivable_impls)] // Stage comes from a macro that cannot carry #[default]
impl Default for Stage {
    fn default() -> Self {
        Stage::Vertex
    }
}

/// One statement in `Program::layout`, naming an element of the corresponding vector.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Item {
    /// `properties[i]`.
    Property(u32),
    /// `declarations[i]`.
    Declaration(u32),
    /// `immediates[i]`.
    Immediate(u32),
    /// `instructions[i]`.
    Instruction(u32),
}

/// A 1-based line and column in the source text.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, PartialOrd, Ord, Hash)]
pub struct Pos {
    /// 1-based line.
    pub line: u32,
    /// 1-based column (in characters).
    pub col: u32,
}

impl std::fmt::Display for Pos {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}", self.line, self.col)
    }
}

/// Source positions of statements and operands. Always compares equal, so it never
/// affects program equality. Empty for programs built in memory.
#[derive(Clone, Debug, Default)]
pub struct SourceMap {
    /// Position of each declaration.
    pub declarations: Vec<Pos>,
    /// Position of each instruction's opcode.
    pub instructions: Vec<Pos>,
    /// Position of each operand of each instruction: destinations first, then sources.
    pub operands: Vec<Vec<Pos>>,
    /// The source the program was lowered from, as the front-end that lowered it keeps it
    /// (the NV front-end's `NvOrigin`, read back with `NvOrigin::of`), for engines that run
    /// the source itself; `None` for TGSI and programs built in memory. Opaque here: the
    /// model knows no front-end.
    pub origin: Option<Origin>,
}

/// A front-end's record of a program's source ([`SourceMap::origin`]); the front-end that
/// attached it reads it back by downcasting.
pub type Origin = std::sync::Arc<dyn std::any::Any + Send + Sync>;

impl PartialEq for SourceMap {
    fn eq(&self, _: &SourceMap) -> bool {
        true
    }
}

impl SourceMap {
    /// Position of instruction `i`, if known.
    pub fn instruction(&self, i: usize) -> Option<Pos> {
        self.instructions.get(i).copied()
    }
    /// Position of operand `k` (destinations first) of instruction `i`, falling back to the opcode.
    pub fn operand(&self, i: usize, k: usize) -> Option<Pos> {
        self.operands
            .get(i)
            .and_then(|o| o.get(k).copied())
            .or_else(|| self.instruction(i))
    }
}

/// `PROPERTY NAME VALUE`. The value is the enum token for named values
/// (primitive, origin, pixel center, processor) and the number otherwise.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Property {
    /// Which property.
    pub name: PropertyName,
    /// Its value as a `u32` token.
    pub value: u32,
}

/// An index inside brackets: a literal, optionally relative to an address register.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Index {
    /// Literal index, or the offset added to the address register (`+n`/`-n`).
    pub value: i32,
    /// Address register providing a per-invocation base.
    pub indirect: Option<Indirect>,
    /// `(n)` array id after an indirect index (0 = none; dropped on direct indices).
    pub array_id: u32,
}

impl Index {
    /// A direct index.
    pub fn direct(value: i32) -> Index {
        Index {
            value,
            indirect: None,
            array_id: 0,
        }
    }
}

/// The address register of an indirect index: `ADDR[1].y` is `{file: Address, index: 1, component: 1}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Indirect {
    /// File of the address register (ADDR in TGSI; TEMP is legal too).
    pub file: File,
    /// Its index.
    pub index: i32,
    /// Which component supplies the address (0..=3).
    pub component: u8,
}

/// A register reference: `FILE[dimension][index]`.
/// For 2-D registers the first bracket is the dimension (`CONST[buffer][i]`, `IN[vertex][i]`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Register {
    /// Register file.
    pub file: File,
    /// Register index (the last bracket).
    pub index: Index,
    /// Dimension index (the first of two brackets), if 2-D.
    pub dimension: Option<Index>,
}

impl Register {
    /// `FILE[index]`, direct and 1-D.
    pub fn new(file: File, index: i32) -> Register {
        Register {
            file,
            index: Index::direct(index),
            dimension: None,
        }
    }
    /// Whether any bracket is indirect.
    pub fn is_indirect(&self) -> bool {
        self.index.indirect.is_some() || self.dimension.is_some_and(|d| d.indirect.is_some())
    }
}

/// A destination operand with its writemask.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Dst {
    /// The register written.
    pub reg: Register,
    /// Channels written: bit 0 = x ... bit 3 = w.
    pub writemask: u8,
}

/// A source operand: register, swizzle and modifiers. Semantics (tgsi.rst
/// "Modifiers"): swizzle, then absolute value, then negation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Src {
    /// The register read.
    pub reg: Register,
    /// Component read for result channel c is `swizzle[c]`.
    pub swizzle: Swizzle,
    /// `|src|`.
    pub abs: bool,
    /// `-src`.
    pub neg: bool,
}

impl Src {
    /// An unmodified, identity-swizzled source.
    pub fn new(reg: Register) -> Src {
        Src {
            reg,
            swizzle: IDENTITY_SWIZZLE,
            abs: false,
            neg: false,
        }
    }
}

/// Result saturation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Saturate {
    /// No clamp.
    #[default]
    None,
    /// Clamp to [0, 1] (`_SAT`, NV `.SAT`).
    Zero,
    /// Clamp to [-1, 1] (NV `.SSAT`).
    Signed,
}

/// A texel offset operand: register and three swizzle letters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TexOffset {
    /// Register holding the offsets.
    pub reg: Register,
    /// Components for u, v, w.
    pub swizzle: [u8; 3],
}

/// Memory extras of LOAD/STORE/atomics (TEXT-FORMAT.md §7.6).
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct MemInfo {
    /// Qualifier bits, `MemQualifier` order.
    pub qualifiers: u8,
    /// Image target, if given.
    pub target: Option<TexTarget>,
    /// `PIPE_FORMAT_*` name, if given.
    pub format: Option<String>,
}

/// NV condition-code test for conditional writes and branches (NV_gpu_program4 2.X.4.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CondTest {
    /// Always true.
    Tr,
    /// Always false.
    Fl,
    /// Equal to zero.
    Eq,
    /// Not equal.
    Ne,
    /// Less than.
    Lt,
    /// Less or equal.
    Le,
    /// Greater than.
    Gt,
    /// Greater or equal.
    Ge,
    /// Unordered/less etc. (float-only NV extensions) and carry/overflow tests.
    Other(u8),
}

/// An NV conditional writemask `(GT.xyzw)`, or the condition of an NV branch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CondWrite {
    /// Which condition-code register (0 or 1).
    pub cc: u8,
    /// The test.
    pub test: CondTest,
    /// Swizzle of the condition code.
    pub swizzle: Swizzle,
}

/// One instruction.
#[derive(Clone, Debug, PartialEq)]
pub struct Instruction {
    /// The operation.
    pub opcode: Opcode,
    /// Saturation of the result.
    pub saturate: Saturate,
    /// `_PRECISE` (no effect on semantics: no fusing allowed).
    pub precise: bool,
    /// Destinations (`num_dst` of them).
    pub dst: Vec<Dst>,
    /// Sources (`num_src` of them).
    pub src: Vec<Src>,
    /// Texture target for texture opcodes.
    pub texture: Option<TexTarget>,
    /// Texel offsets.
    pub tex_offsets: Vec<TexOffset>,
    /// Memory extras for memory opcodes.
    pub mem: Option<MemInfo>,
    /// Branch label. CAL: instruction index of the called BGNSUB (required).
    /// BGNLOOP/ENDLOOP: the label as written (unused, printed back). IF/UIF/ELSE:
    /// always `None`; their targets are recomputed from the structure.
    pub label: Option<u32>,
    /// NV: update condition code register 0/1 (`.CC0`, `.CC1`).
    pub cc_update: Option<u8>,
    /// NV: conditional writemask.
    pub cond: Option<CondWrite>,
}

impl Instruction {
    /// An instruction with the given operands and no extras.
    pub fn new(opcode: Opcode, dst: Vec<Dst>, src: Vec<Src>) -> Instruction {
        Instruction {
            opcode,
            saturate: Saturate::None,
            precise: false,
            dst,
            src,
            texture: None,
            tex_offsets: Vec::new(),
            mem: None,
            label: None,
            cc_update: None,
            cond: None,
        }
    }
}

/// The dimension part of a declaration.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DeclDimension {
    /// `FILE[i][a..b]`: 2-D with an explicit first index.
    Index(u32),
    /// `IN[][a]`: the vertex dimension is implied by the stage (GEOM, TESS).
    Implied,
}

/// Resource-specific parts of a declaration (TEXT-FORMAT.md §6.4).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Resource {
    /// `DCL SVIEW[n], target, type` (also legacy `RES`).
    SamplerView {
        /// Texture target.
        target: TexTarget,
        /// Return type per component.
        return_type: [ReturnType; 4],
    },
    /// `DCL IMAGE[n], target, format, WR, RAW`.
    Image {
        /// Texture target.
        target: TexTarget,
        /// `PIPE_FORMAT_*` name (`PIPE_FORMAT_NONE` if unset).
        format: String,
        /// `WR`.
        writable: bool,
        /// `RAW`.
        raw: bool,
    },
    /// `DCL BUFFER[n]` with optional `ATOMIC`.
    Buffer {
        /// `ATOMIC`.
        atomic: bool,
    },
    /// `DCL MEMORY[n], kind`.
    Memory(MemoryType),
}

/// One `DCL` statement.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Declaration {
    /// Register file declared.
    pub file: File,
    /// First index of the range.
    pub first: u32,
    /// Last index of the range (inclusive).
    pub last: u32,
    /// 2-D part, if any.
    pub dimension: Option<DeclDimension>,
    /// Usage mask (`.xy`); 0xF when absent.
    pub usage_mask: u8,
    /// `ARRAY(n)` id; 0 = not an array.
    pub array_id: u32,
    /// `LOCAL`.
    pub local: bool,
    /// Semantic name and index.
    pub semantic: Option<(SemanticName, u32)>,
    /// `STREAM(a, b, c, d)` for GEOM outputs.
    pub stream: Option<[u8; 4]>,
    /// Interpolation mode.
    pub interpolation: Option<Interpolation>,
    /// Interpolation location.
    pub location: Option<InterpLocation>,
    /// `INVARIANT`.
    pub invariant: bool,
    /// SVIEW/IMAGE/BUFFER/MEMORY extras.
    pub resource: Option<Resource>,
    /// Legacy `IMMX` inline values, one vec4 of raw f32 bits per index.
    pub values: Vec<[u32; 4]>,
}

impl Declaration {
    /// `DCL FILE[first..last]` with nothing else.
    pub fn new(file: File, first: u32, last: u32) -> Declaration {
        Declaration {
            file,
            first,
            last,
            dimension: None,
            usage_mask: WRITEMASK_XYZW,
            array_id: 0,
            local: false,
            semantic: None,
            stream: None,
            interpolation: None,
            location: None,
            invariant: false,
            resource: None,
            values: Vec::new(),
        }
    }
    /// Whether `index` lies in the declared range.
    pub fn contains(&self, index: i64) -> bool {
        index >= self.first as i64 && index <= self.last as i64
    }
}

/// One `IMM` statement: four 32-bit words. 64-bit types hold two values, low word first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Immediate {
    /// Declared type.
    pub ty: ImmType,
    /// Raw words (for FLT32, the f32 bits).
    pub words: [u32; 4],
}

impl Program {
    /// An empty program for `stage`.
    pub fn new(stage: Stage) -> Program {
        Program {
            stage,
            ..Program::default()
        }
    }

    /// The value of a property, if set.
    pub fn property(&self, name: PropertyName) -> Option<u32> {
        self.properties
            .iter()
            .rev()
            .find(|p| p.name == name)
            .map(|p| p.value)
    }

    /// Vertices per input primitive of a geometry program (`GS_INPUT_PRIMITIVE`, TEXT-FORMAT.md
    /// §5): the size of its implied `IN[]` dimension. `None` for other stages, or when the
    /// property is missing or names no input primitive.
    pub fn gs_input_vertices(&self) -> Option<u32> {
        if self.stage != Stage::Geometry {
            return None;
        }
        self.property(PropertyName::GsInputPrimitive)
            .and_then(|v| Primitive::ALL.get(v as usize))
            .map(|p| p.vertices())
            .filter(|&n| n > 0)
    }

    /// `GS_MAX_OUTPUT_VERTICES`, 0 when absent (Mesa's property default): EMIT drops the
    /// vertices past it.
    pub fn gs_max_output_vertices(&self) -> u32 {
        self.property(PropertyName::GsMaxOutputVertices)
            .unwrap_or(0)
    }

    /// Declarations of one file.
    pub fn decls(&self, file: File) -> impl Iterator<Item = &Declaration> {
        self.declarations.iter().filter(move |d| d.file == file)
    }

    /// The statements in the order they are printed: `layout` when set, else canonical.
    pub fn items(&self) -> Vec<Item> {
        if !self.layout.is_empty() {
            return self.layout.clone();
        }
        self.canonical_layout()
    }

    /// Properties, declarations, immediates, instructions.
    pub fn canonical_layout(&self) -> Vec<Item> {
        let mut v = Vec::new();
        v.extend((0..self.properties.len() as u32).map(Item::Property));
        v.extend((0..self.declarations.len() as u32).map(Item::Declaration));
        v.extend((0..self.immediates.len() as u32).map(Item::Immediate));
        v.extend((0..self.instructions.len() as u32).map(Item::Instruction));
        v
    }
}
