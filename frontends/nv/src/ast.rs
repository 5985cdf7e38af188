//! The syntax tree of an NV / ARB assembly program (NV_gpu_program4 §2.X.2 "Program
//! Grammar" and the grammar additions of NV_gpu_program5, the per-stage specs and the
//! ARB_vertex_program / ARB_fragment_program ancestors with their NV options).
//!
//! The tree keeps what the text says, normalised only where two spellings mean the same
//! thing (`rgba` letters become `xyzw`, `CC`/`C` become condition-code register 0, `EQ0`
//! becomes `EQ` on register 0, a `+` sign is dropped, a full write mask `.xyzw` becomes the
//! default mask). Defaults are not filled in: an opcode written without a data type keeps
//! `ty: None` (see [`super::NvOpcode::default_type`]); `fragment.texcoord` keeps no index.

use crate::program::Pos;

/// Declares a keyword enum with its exact (case-sensitive) spelling.
macro_rules! nv_keyword {
    ($(#[$m:meta])* $name:ident { $($(#[$vm:meta])* $variant:ident = $text:literal),+ $(,)? }) => {
        $(#[$m])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum $name { $($(#[$vm])* #[doc = concat!("`", $text, "`")] $variant),+ }
        impl $name {
            /// Every value, in declaration order.
            pub const ALL: &'static [$name] = &[$($name::$variant),+];
            /// The spelling in program text.
            pub fn name(self) -> &'static str { match self { $($name::$variant => $text),+ } }
            /// Case-sensitive lookup of a spelling (NV_gpu_program4 §2.X.2: keywords are
            /// upper case and names are case-sensitive).
            pub fn from_name(s: &str) -> Option<$name> {
                Self::ALL.iter().copied().find(|v| v.name() == s)
            }
        }
        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result { f.write_str(self.name()) }
        }
    };
}

/// Program stage selected by the header string.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NvStage {
    /// `!!NVvp*` / `!!ARBvp1.0`.
    Vertex,
    /// `!!NVfp*` / `!!ARBfp1.0`.
    Fragment,
    /// `!!NVgp*` (NV_geometry_program4).
    Geometry,
    /// `!!NVtcp5.0` (NV_tessellation_program5).
    TessCtrl,
    /// `!!NVtep5.0` (NV_tessellation_program5).
    TessEval,
    /// `!!NVcp5.0` (NV_compute_program5).
    Compute,
}

/// Grammar level selected by the header string.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum NvLevel {
    /// ARB_vertex_program / ARB_fragment_program 1.0 (NV features only through `OPTION`).
    Arb10,
    /// NV_gpu_program4 (`!!NV*4.0`).
    Nv40,
    /// NV_gpu_program4_1 (`!!NV*4.1`; the "41" rows of NV_gpu_program5 Table X.13).
    Nv41,
    /// NV_gpu_program5 (`!!NV*5.0`).
    Nv50,
}

/// The program header (NV_gpu_program4 §2.X.2 and each program type's "Program Grammar":
/// "programs are required to begin with the header string ...").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Header {
    /// Stage.
    pub stage: NvStage,
    /// Grammar level.
    pub level: NvLevel,
}

const HEADERS: &[(&str, NvStage, NvLevel)] = &[
    ("!!ARBvp1.0", NvStage::Vertex, NvLevel::Arb10),
    ("!!ARBfp1.0", NvStage::Fragment, NvLevel::Arb10),
    ("!!NVvp4.0", NvStage::Vertex, NvLevel::Nv40),
    ("!!NVfp4.0", NvStage::Fragment, NvLevel::Nv40),
    ("!!NVgp4.0", NvStage::Geometry, NvLevel::Nv40),
    ("!!NVvp4.1", NvStage::Vertex, NvLevel::Nv41),
    ("!!NVfp4.1", NvStage::Fragment, NvLevel::Nv41),
    ("!!NVgp4.1", NvStage::Geometry, NvLevel::Nv41),
    ("!!NVvp5.0", NvStage::Vertex, NvLevel::Nv50),
    ("!!NVfp5.0", NvStage::Fragment, NvLevel::Nv50),
    ("!!NVgp5.0", NvStage::Geometry, NvLevel::Nv50),
    ("!!NVtcp5.0", NvStage::TessCtrl, NvLevel::Nv50),
    ("!!NVtep5.0", NvStage::TessEval, NvLevel::Nv50),
    ("!!NVcp5.0", NvStage::Compute, NvLevel::Nv50),
];

impl Header {
    /// Every valid header, as `(text, header)`.
    pub fn all() -> impl Iterator<Item = (&'static str, Header)> {
        HEADERS
            .iter()
            .map(|&(t, stage, level)| (t, Header { stage, level }))
    }
    /// The header string, e.g. `!!NVfp5.0`.
    pub fn text(self) -> &'static str {
        HEADERS
            .iter()
            .find(|&&(_, s, l)| s == self.stage && l == self.level)
            .map_or("!!?", |&(t, _, _)| t)
    }
    /// Looks up a header string (exact spelling).
    pub fn from_text(s: &str) -> Option<Header> {
        Header::all().find(|&(t, _)| t == s).map(|(_, h)| h)
    }
    /// Whether this is an ARB (`!!ARBvp1.0` / `!!ARBfp1.0`) program.
    pub fn is_arb(self) -> bool {
        self.level == NvLevel::Arb10
    }
}

/// A parsed NV / ARB assembly program:
/// `<header> <optionSequence> <declSequence> <statementSequence> "END"` (NV_gpu_program4
/// §2.X.2; the declaration sequence is the per-stage `<declaration>` rule).
#[derive(Clone, Debug, PartialEq)]
pub struct NvProgram {
    /// The header.
    pub header: Header,
    /// `OPTION name;` lines, in order.
    pub options: Vec<String>,
    /// Program declarations (`PRIMITIVE_IN`, `GROUP_SIZE`, ...), in order.
    pub program_decls: Vec<ProgramDecl>,
    /// Instructions, naming statements and labels, in order.
    pub statements: Vec<Statement>,
    /// Where things are in the text (never part of equality).
    pub source_map: NvSourceMap,
}

impl NvProgram {
    /// Whether `OPTION name;` is present.
    pub fn has_option(&self, name: &str) -> bool {
        self.options.iter().any(|o| o == name)
    }
    /// The instructions, in order.
    pub fn instructions(&self) -> impl Iterator<Item = &Instruction> {
        self.statements.iter().filter_map(|s| match s {
            Statement::Insn(i) => Some(i),
            _ => None,
        })
    }
}

/// Source positions. Always compares equal, so it never affects program equality.
#[derive(Clone, Debug, Default)]
pub struct NvSourceMap {
    /// Position of each `OPTION` keyword.
    pub options: Vec<Pos>,
    /// Position of each program declaration keyword.
    pub program_decls: Vec<Pos>,
    /// Position of the first token of each statement.
    pub statements: Vec<Pos>,
    /// Position of each operand of each statement, in text order (empty for labels and
    /// declarations).
    pub operands: Vec<Vec<Pos>>,
    /// Position of the `END` keyword.
    pub end: Pos,
}

impl PartialEq for NvSourceMap {
    fn eq(&self, _: &NvSourceMap) -> bool {
        true
    }
}

nv_keyword!(
    /// Geometry input primitive (NV_geometry_program4 `<declPrimInType>`, gp5 `PATCHES`).
    PrimitiveIn { Points = "POINTS", Lines = "LINES", LinesAdjacency = "LINES_ADJACENCY", Triangles = "TRIANGLES", TrianglesAdjacency = "TRIANGLES_ADJACENCY", Patches = "PATCHES" }
);
nv_keyword!(
    /// Geometry output primitive (NV_geometry_program4 `<declPrimOutType>`).
    PrimitiveOut { Points = "POINTS", LineStrip = "LINE_STRIP", TriangleStrip = "TRIANGLE_STRIP" }
);
nv_keyword!(
    /// Tessellation mode (NV_tessellation_program5 `<declTessMode>`).
    TessMode { Triangles = "TRIANGLES", Quads = "QUADS", Isolines = "ISOLINES" }
);
nv_keyword!(
    /// Tessellation spacing (NV_tessellation_program5 `<declTessSpacing>`).
    TessSpacing { Equal = "EQUAL", FractionalOdd = "FRACTIONAL_ODD", FractionalEven = "FRACTIONAL_EVEN" }
);
nv_keyword!(
    /// Tessellation vertex order (NV_tessellation_program5 `<declTessVtxOrder>`).
    VertexOrder { Cw = "CW", Ccw = "CCW" }
);

/// A program declaration (the per-stage `<declaration>` rule; they precede all statements).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ProgramDecl {
    /// `PRIMITIVE_IN type;` (geometry).
    PrimitiveIn(PrimitiveIn),
    /// `PRIMITIVE_OUT type;` (geometry).
    PrimitiveOut(PrimitiveOut),
    /// `VERTICES_OUT n;` (geometry, tessellation control).
    VerticesOut(u32),
    /// `INVOCATIONS n;` (geometry, gp5).
    Invocations(u32),
    /// `TESS_MODE mode;` (tessellation evaluation).
    TessMode(TessMode),
    /// `TESS_SPACING spacing;` (tessellation evaluation).
    TessSpacing(TessSpacing),
    /// `TESS_VERTEX_ORDER order;` (tessellation evaluation).
    TessVertexOrder(VertexOrder),
    /// `TESS_POINT_MODE;` (tessellation evaluation).
    TessPointMode,
    /// `GROUP_SIZE x [y [z]];` (compute): 1 to 3 sizes.
    GroupSize(Vec<u32>),
    /// `SHARED_MEMORY bytes;` (compute).
    SharedMemory(u32),
}

/// A statement of the `<statementSequence>`.
#[derive(Clone, Debug, PartialEq)]
pub enum Statement {
    /// A naming statement (`TEMP`, `PARAM`, ...).
    Decl(Declaration),
    /// `name:` (or `name SUBROUTINENUM(n):`, ARB_shader_subroutine).
    Label(Label),
    /// An instruction.
    Insn(Instruction),
}

/// A label (`<instLabel> ":"`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Label {
    /// The label name.
    pub name: String,
    /// `SUBROUTINENUM(n)` (ARB_shader_subroutine), if given.
    pub subroutine_num: Option<u32>,
}

nv_keyword!(
    /// Variable data type modifier (`<varModifier>`, NV_gpu_program4 §2.X.3.1).
    VarType { Int = "INT", Uint = "UINT", Float = "FLOAT" }
);
nv_keyword!(
    /// Variable storage size modifier (`<varModifier>`, §2.X.3.1; NV_fragment_program_option
    /// `<varSize>`).
    VarSize { Short = "SHORT", Long = "LONG" }
);
nv_keyword!(
    /// Interpolation modifier of fragment attributes (NV_fragment_program4 `<interpModifier>`,
    /// gp5 adds `SAMPLE`).
    Interp { Flat = "FLAT", Centroid = "CENTROID", NoPerspective = "NOPERSPECTIVE", Sample = "SAMPLE" }
);

/// Modifiers written before a declaration keyword (`<varMods>`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct VarMods {
    /// `INT`, `UINT` or `FLOAT`.
    pub ty: Option<VarType>,
    /// `SHORT` or `LONG`.
    pub size: Option<VarSize>,
    /// Interpolation modifiers, in the order written.
    pub interp: Vec<Interp>,
}

impl VarMods {
    /// Whether no modifier is present.
    pub fn is_empty(&self) -> bool {
        self.ty.is_none() && self.size.is_none() && self.interp.is_empty()
    }
}

nv_keyword!(
    /// The keyword of a declaration with a binding (`<namingStatement>` of NV_gpu_program4/5,
    /// NV_parameter_buffer_object(2), NV_compute_program5, EXT_shader_image_load_store,
    /// NV_shader_storage_buffer_object, NV_shader_atomic_counters, ARB_shader_subroutine).
    DeclKind {
        Attrib = "ATTRIB", Param = "PARAM", Output = "OUTPUT", Buffer = "BUFFER", Buffer4 = "BUFFER4",
        CBuffer = "CBUFFER", Texture = "TEXTURE", Image = "IMAGE", Shared = "SHARED", Storage = "STORAGE",
        Counter = "COUNTER", Subroutine = "SUBROUTINE",
    }
);

/// A naming statement.
#[derive(Clone, Debug, PartialEq)]
pub enum Declaration {
    /// `[mods] TEMP a, b[4];`
    Temp {
        /// Modifiers.
        mods: VarMods,
        /// The variables.
        vars: Vec<TempVar>,
    },
    /// `ADDRESS A0, A1;` (ARB_vertex_program address registers).
    Address {
        /// Names.
        names: Vec<String>,
    },
    /// A variable with a binding: `[mods] KIND name [dims] = init;`.
    Bound(BoundDecl),
    /// `ALIAS name = established;`
    Alias {
        /// The new name.
        name: String,
        /// The variable it names.
        target: String,
    },
    /// `SUBROUTINETYPE name { label, ... };` (ARB_shader_subroutine).
    SubroutineType {
        /// Type name.
        name: String,
        /// Labels of the subroutines of this type.
        labels: Vec<String>,
    },
}

/// One variable of a `TEMP` statement.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TempVar {
    /// Name.
    pub name: String,
    /// Array size (`name[n]`), if an array.
    pub size: Option<u32>,
}

/// `[mods] KIND [type] name [dims] = init;` — ATTRIB, PARAM, OUTPUT, BUFFER, BUFFER4,
/// CBUFFER, TEXTURE, IMAGE, SHARED, STORAGE, COUNTER and SUBROUTINE statements.
#[derive(Clone, Debug, PartialEq)]
pub struct BoundDecl {
    /// Modifiers.
    pub mods: VarMods,
    /// Which statement.
    pub kind: DeclKind,
    /// SUBROUTINE statements: the subroutine type name.
    pub subroutine_type: Option<String>,
    /// The new name.
    pub name: String,
    /// Array brackets: `[]` is `None`, `[n]` is `Some(n)`; empty for a single variable.
    /// CBUFFER may have two (`cb[][]`).
    pub dims: Vec<Option<u32>>,
    /// The initializer: one item for a single variable (`dims` empty), else a list.
    pub init: Vec<InitItem>,
}

/// One initializer item.
#[derive(Clone, Debug, PartialEq)]
pub enum InitItem {
    /// A binding (`program.local[0..3]`, `state.matrix.mvp`, `texture[1]`, ...).
    Binding(Binding),
    /// A constant vector `{a, b, c, d}` (PARAM only).
    Vector(Vec<SignedLit>),
    /// A signed constant scalar (PARAM only).
    Scalar(SignedLit),
}

/// A binding: dot-separated segments, each with its bracketed indices, e.g.
/// `vertex[2].texcoord[1]` is `[vertex[2], texcoord[1]]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Binding {
    /// The segments, root first.
    pub segments: Vec<Segment>,
}

impl Binding {
    /// The dotted name without indices, e.g. `vertex.texcoord`.
    pub fn path(&self) -> String {
        let names: Vec<&str> = self.segments.iter().map(|s| s.name.as_str()).collect();
        names.join(".")
    }
    /// The root segment name (`vertex`, `result`, `state`, ...).
    pub fn root(&self) -> &str {
        self.segments.first().map_or("", |s| s.name.as_str())
    }
    /// The indices of the first segment named `name`.
    pub fn indices_of(&self, name: &str) -> Option<&[Index]> {
        self.segments
            .iter()
            .find(|s| s.name == name)
            .map(|s| s.index.as_slice())
    }
}

/// One segment of a binding.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Segment {
    /// Segment name.
    pub name: String,
    /// Bracketed indices after the name (0, 1 or 2).
    pub index: Vec<Index>,
}

/// An index in brackets (`<arrayMemAbs>`, `<arrayRange>`, `<arrayMemRel>`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Index {
    /// `[n]`.
    Abs(u32),
    /// `[a..b]` (declarations only).
    Range(u32, u32),
    /// `[var.c + offset]`.
    Rel(RelIndex),
}

/// A relative index `var.c`, `var.c + n`, `var.c - n` (`<arrayMemRel>`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RelIndex {
    /// The variable holding the index.
    pub var: String,
    /// Its component (0..=3 for x..w).
    pub comp: u8,
    /// The constant offset.
    pub offset: i32,
}

/// A literal number (`<int>` or `<float>`, §2.X.2).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Literal {
    /// An integer, decimal or `0x` hexadecimal.
    Int {
        /// The value.
        value: u64,
        /// Written in hexadecimal.
        hex: bool,
    },
    /// A floating-point literal, kept as text in a normal form (`1.`, `.5` become `1.0`,
    /// `0.5`) so that it can be rounded once, to `f32` or `f64`, by the consumer.
    Float(String),
}

impl Literal {
    /// The value as `f64` (integers converted).
    pub fn to_f64(&self) -> f64 {
        match self {
            Literal::Int { value, .. } => *value as f64,
            Literal::Float(t) => t.parse().unwrap_or(f64::NAN),
        }
    }
    /// The value rounded once to `f32` (integers converted).
    pub fn to_f32(&self) -> f32 {
        match self {
            Literal::Int { value, .. } => *value as f32,
            Literal::Float(t) => t.parse().unwrap_or(f32::NAN),
        }
    }
}

/// A literal with an optional `-` (`<signedConstantScalar>`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SignedLit {
    /// Negated.
    pub neg: bool,
    /// The number.
    pub lit: Literal,
}

/// A component selection: none, one component (`.x`, replicated) or four (`.yzzx`)
/// (`<swizzleSuffix>`, `<scalarSuffix>`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Swizzle {
    /// No suffix (`.xyzw`).
    #[default]
    None,
    /// One component, 0..=3.
    Scalar(u8),
    /// Four components, each 0..=3.
    Vector([u8; 4]),
}

impl Swizzle {
    /// The four components selected.
    pub fn components(self) -> [u8; 4] {
        match self {
            Swizzle::None => [0, 1, 2, 3],
            Swizzle::Scalar(c) => [c; 4],
            Swizzle::Vector(v) => v,
        }
    }
}

/// A variable or binding used as an operand base or a destination.
#[derive(Clone, Debug, PartialEq)]
pub enum VarRef {
    /// A declared name with 0, 1 or 2 array indices.
    Var {
        /// Name.
        name: String,
        /// Indices.
        index: Vec<Index>,
    },
    /// A binding used directly (an implicit variable, §2.X.3).
    Binding(Binding),
}

/// What a source operand reads.
#[derive(Clone, Debug, PartialEq)]
pub enum SrcBase {
    /// A variable or binding.
    Ref(VarRef),
    /// `{a, b, c, d}` with 1 to 4 components (missing y, z, w default to 0, 0, 1).
    Vector(Vec<SignedLit>),
    /// A constant scalar (replicated; the sign belongs to the operand).
    Scalar(Literal),
}

/// A source operand (`<instOperandV>`, `<instOperandS>`, `<instOperandVNS>`).
/// Evaluation order (§2.X.4.2): swizzle, then `neg_inside`, then `abs`, then `neg`.
#[derive(Clone, Debug, PartialEq)]
pub struct Src {
    /// `-` before the operand (outside `|..|` if `abs`).
    pub neg: bool,
    /// `|..|`.
    pub abs: bool,
    /// `-` inside `|..|`.
    pub neg_inside: bool,
    /// The value read.
    pub base: SrcBase,
    /// Component selection.
    pub swizzle: Swizzle,
}

nv_keyword!(
    /// Condition code test (`<ccMaskRule>` without its register digit, Table X.16).
    CondCode {
        Eq = "EQ", Ge = "GE", Gt = "GT", Le = "LE", Lt = "LT", Ne = "NE", Tr = "TR", Fl = "FL",
        Nan = "NAN", Leg = "LEG", Cf = "CF", Ncf = "NCF", Of = "OF", Nof = "NOF", Ab = "AB",
        Ble = "BLE", Sf = "SF", Nsf = "NSF",
    }
);

/// A condition code test `EQ1.xyzw` (`<ccTest>`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CcTest {
    /// The test.
    pub cond: CondCode,
    /// Condition code register (0 or 1).
    pub reg: u8,
    /// Swizzle of the condition code.
    pub swizzle: Swizzle,
}

/// A destination (`<instResult>`): variable, write mask, optional `(ccTest)`.
#[derive(Clone, Debug, PartialEq)]
pub struct Dst {
    /// What is written.
    pub base: VarRef,
    /// Write mask, bit k = component k (0xF when no mask is written).
    pub mask: u8,
    /// Conditional write mask.
    pub cc: Option<CcTest>,
}

/// A selector of an extended swizzle (`<extSwizComp>` of SWZ).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExtSel {
    /// `0`.
    Zero,
    /// `1`.
    One,
    /// A component 0..=3.
    Comp(u8),
}

/// One component of an extended swizzle: optional `-` and a selector.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ExtSwizzle {
    /// Negated.
    pub neg: bool,
    /// Selector.
    pub sel: ExtSel,
}

nv_keyword!(
    /// Texture target (`<texTarget>` of NV_gpu_program4/5, ARB_fragment_program(_shadow),
    /// NV_explicit_multisample, EXT_shader_image_load_store `<imageTarget>`).
    TexTarget {
        T1D = "1D", T2D = "2D", T3D = "3D", Cube = "CUBE", Rect = "RECT", Shadow1D = "SHADOW1D",
        Shadow2D = "SHADOW2D", ShadowRect = "SHADOWRECT", Array1D = "ARRAY1D", Array2D = "ARRAY2D",
        ShadowCube = "SHADOWCUBE", ShadowArray1D = "SHADOWARRAY1D", ShadowArray2D = "SHADOWARRAY2D",
        ArrayCube = "ARRAYCUBE", ShadowArrayCube = "SHADOWARRAYCUBE", Buffer = "BUFFER",
        Renderbuffer = "RENDERBUFFER", T2DMS = "2DMS", Array2DMS = "ARRAY2DMS",
    }
);

/// A texture or image unit reference (`<texImageUnit>`, `<textureUseV>`, `<imageUnit>`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum UnitRef {
    /// `texture` / `texture[n]` (or `image[n]`); `None` = no index (unit 0).
    Unit(Option<u32>),
    /// A TEXTURE / IMAGE variable, optionally indexed.
    Var {
        /// Name.
        name: String,
        /// Array index.
        index: Option<Index>,
    },
    /// `handle(var.c)` (NV_bindless_texture).
    Handle {
        /// The variable holding the 64-bit handle.
        var: String,
        /// Its component.
        comp: u8,
    },
}

/// A texel offset (§2.X.4.4; gp5 `offset(operand)`).
#[derive(Clone, Debug, PartialEq)]
pub enum TexOffset {
    /// `(a[, b[, c]])`.
    Const(Vec<i32>),
    /// `offset(operand)`.
    Operand(Box<Src>),
}

/// The texture part of a texture instruction: unit, gather component, target, offset.
#[derive(Clone, Debug, PartialEq)]
pub struct TexAccess {
    /// The unit.
    pub unit: UnitRef,
    /// `texture[0].y`: the component gathered by TXG (gp5 `<texImageUnitComp>`).
    pub component: Option<u8>,
    /// Target.
    pub target: TexTarget,
    /// Texel offset.
    pub offset: Option<TexOffset>,
}

/// The image part of LOADIM / STOREIM / ATOMIM (EXT_shader_image_load_store).
#[derive(Clone, Debug, PartialEq)]
pub struct ImageAccess {
    /// The unit.
    pub unit: UnitRef,
    /// Target.
    pub target: TexTarget,
}

nv_keyword!(
    /// Data type and storage modifiers (Table X.14 of NV_gpu_program4, gp5 `<opModifier>`,
    /// NV_gpu_program5_mem_extended).
    DataType {
        F = "F", U = "U", S = "S", F16 = "F16", F32 = "F32", F64 = "F64", F32X2 = "F32X2",
        F32X4 = "F32X4", F64X2 = "F64X2", F64X4 = "F64X4", S8 = "S8", S16 = "S16", S32 = "S32",
        S32X2 = "S32X2", S32X4 = "S32X4", S64 = "S64", S64X2 = "S64X2", S64X4 = "S64X4", U8 = "U8",
        U16 = "U16", U32 = "U32", U32X2 = "U32X2", U32X4 = "U32X4", U64 = "U64", U64X2 = "U64X2",
        U64X4 = "U64X4", F16X2 = "F16X2", F16X4 = "F16X4", S8X2 = "S8X2", S8X4 = "S8X4",
        S16X2 = "S16X2", S16X4 = "S16X4", U8X2 = "U8X2", U8X4 = "U8X4", U16X2 = "U16X2",
        U16X4 = "U16X4",
    }
);

/// Base data type (`F`, `S`, `U`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BaseType {
    /// Floating point.
    F,
    /// Signed integer.
    S,
    /// Unsigned integer.
    U,
}

impl DataType {
    /// The base type (`F32X4` is F).
    pub fn base(self) -> BaseType {
        match self.name().as_bytes()[0] {
            b'F' => BaseType::F,
            b'S' => BaseType::S,
            _ => BaseType::U,
        }
    }
    /// Bits per component; `None` for the unsized `F`, `S`, `U`.
    pub fn bits(self) -> Option<u32> {
        let n = self.name();
        let digits: String = n[1..].chars().take_while(char::is_ascii_digit).collect();
        digits.parse().ok()
    }
    /// Components of a storage modifier (`X2` = 2, `X4` = 4, else 1).
    pub fn components(self) -> u32 {
        let n = self.name();
        if n.ends_with("X2") {
            2
        } else if n.ends_with("X4") {
            4
        } else {
            1
        }
    }
    /// Whether this is also an instruction data type (`F S U F32 F64 S32 S64 U32 U64`), as
    /// opposed to a storage-only modifier (`F16`, `S8`, `U32X4`, ...).
    pub fn is_operation_type(self) -> bool {
        self.components() == 1 && matches!(self.bits(), None | Some(32) | Some(64))
    }
}

nv_keyword!(
    /// Clamping modifier (`SAT` / `SSAT`, Table X.14; `_SAT` / `_SSAT` suffixes, Table X.15).
    Clamp { Sat = "SAT", SSat = "SSAT" }
);
nv_keyword!(
    /// Precision suffix (Table X.15 `R`, `H`; NV_fragment_program_option `X`).
    Precision { R = "R", H = "H", X = "X" }
);
nv_keyword!(
    /// MUL-only modifier (Table X.14).
    MulMod { S24 = "S24", U24 = "U24", Hi = "HI" }
);
nv_keyword!(
    /// Atomic operation modifier (gp5 ATOM, NV_shader_atomic_counters ATOMCTR).
    AtomicOp {
        Add = "ADD", Min = "MIN", Max = "MAX", IWrap = "IWRAP", DWrap = "DWRAP", And = "AND", Or = "OR",
        Xor = "XOR", Exch = "EXCH", CSwap = "CSWAP", Incr = "INCR", Decr = "DECR", Get = "GET",
    }
);
nv_keyword!(
    /// CVT rounding modifier (gp5).
    RoundMode { Round = "ROUND", Ceil = "CEIL", Flr = "FLR", Trunc = "TRUNC" }
);

/// Instruction modifiers, from `.MOD` pieces and opcode suffixes (§2.X.4.1).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Modifiers {
    /// Precision suffix (`ADDR`, `DDXH`).
    pub precision: Option<Precision>,
    /// Data type / storage modifier (the first one for CVT: the result type).
    pub ty: Option<DataType>,
    /// CVT: the operand type (second storage modifier).
    pub ty2: Option<DataType>,
    /// Condition code register updated (`CC`/`CC0`/`C`/`C0` = 0, `CC1`/`C1` = 1).
    pub cc: Option<u8>,
    /// Clamping.
    pub clamp: Option<Clamp>,
    /// `NTC` (no type checking).
    pub ntc: bool,
    /// `S24`, `U24`, `HI` (MUL).
    pub mul: Option<MulMod>,
    /// Atomic operation (ATOM, ATOMS, ATOMB, ATOMIM, ATOMCTR).
    pub atomic: Option<AtomicOp>,
    /// CVT rounding.
    pub round: Option<RoundMode>,
    /// `COH` (coherent memory access).
    pub coh: bool,
    /// `VOL` (volatile memory access).
    pub vol: bool,
    /// `PREC` (precise).
    pub prec: bool,
    /// `CTA` (MEMBAR within the work group, compute).
    pub cta: bool,
}

/// One instruction (`<instruction>`). Which fields are used depends on the opcode's
/// operand shape ([`super::NvOpcode::shape`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Instruction {
    /// The opcode.
    pub opcode: super::NvOpcode,
    /// Modifiers.
    pub mods: Modifiers,
    /// The result, for opcodes with one.
    pub dst: Option<Dst>,
    /// Source operands in text order (memory operands of LDS/STS/LDB/..., the subroutine
    /// variable of CALI, the counter of ATOMCTR included).
    pub srcs: Vec<Src>,
    /// SWZ: the four extended swizzle selectors.
    pub ext_swizzle: Option<[ExtSwizzle; 4]>,
    /// Texture instructions: unit, target and offset.
    pub texture: Option<TexAccess>,
    /// LOADIM / STOREIM / ATOMIM: unit and target.
    pub image: Option<ImageAccess>,
    /// BRA / CAL: the target label.
    pub label: Option<String>,
    /// Condition: the `(ccTest)` of BRA/CAL/CALI/RET/BRK/CONT, the test of IF, or the
    /// condition-code form of KIL.
    pub cond: Option<CcTest>,
}

impl Instruction {
    /// An instruction with no operands and no modifiers.
    pub fn new(opcode: super::NvOpcode) -> Instruction {
        Instruction {
            opcode,
            mods: Modifiers::default(),
            dst: None,
            srcs: Vec::new(),
            ext_swizzle: None,
            texture: None,
            image: None,
            label: None,
            cond: None,
        }
    }
}
