//! Enumerations with fixed text spellings (TEXT-FORMAT.md §4, §5, §6.1, §11).
//! Each `named_enum!` gives `name()` (canonical upper-case spelling), a
//! case-insensitive `from_name()`, and `ALL` in `TGSI_*` token order.

macro_rules! named_enum {
    ($(#[$m:meta])* $name:ident { $($(#[$vm:meta])* $variant:ident = $text:literal),+ $(,)? }) => {
        $(#[$m])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum $name { $($(#[$vm])* #[doc = concat!("Token `", $text, "`.")] $variant),+ }
        impl $name {
            /// Every value, in token order.
            pub const ALL: &'static [$name] = &[$($name::$variant),+];
            /// Canonical text spelling.
            pub fn name(self) -> &'static str { match self { $($name::$variant => $text),+ } }
            /// Case-insensitive lookup of a text spelling.
            pub fn from_name(s: &str) -> Option<$name> {
                Self::ALL.iter().copied().find(|v| v.name().eq_ignore_ascii_case(s))
            }
            /// Position in token order (the `TGSI_*` value).
            pub fn token(self) -> u32 { self as u32 }
        }
        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result { f.write_str(self.name()) }
        }
    };
}
#[allow(unused_imports)]
pub(crate) use named_enum;

named_enum!(
    /// Shader stage, from the program header (TEXT-FORMAT.md §4).
    Stage { Vertex = "VERT", Fragment = "FRAG", Geometry = "GEOM", TessCtrl = "TESS_CTRL", TessEval = "TESS_EVAL", Compute = "COMP" }
);

named_enum!(
    /// Register files (TEXT-FORMAT.md §6.1), plus legacy files still found in old programs
    /// (`TEMPX` indexable temporaries, `IMMX` immediate arrays, `RES` resources).
    File {
        Null = "NULL", Const = "CONST", Input = "IN", Output = "OUT", Temp = "TEMP", Sampler = "SAMP",
        Address = "ADDR", Immediate = "IMM", SystemValue = "SV", Image = "IMAGE", SamplerView = "SVIEW",
        Buffer = "BUFFER", Memory = "MEMORY", ConstBuf = "CONSTBUF", HwAtomic = "HWATOMIC",
        /// Legacy 2-D indexable temporaries (`TEMPX[array][index]`).
        TempArray = "TEMPX",
        /// Legacy immediate arrays declared inline (`DCL IMMX[0..1] {{...},{...}}`).
        ImmArray = "IMMX",
        /// Legacy name of sampler views.
        Resource = "RES",
    }
);

named_enum!(
    /// Semantic names (`TGSI_SEMANTIC_*`, TEXT-FORMAT.md §11.1).
    SemanticName {
        Position = "POSITION", Color = "COLOR", BColor = "BCOLOR", Fog = "FOG", PSize = "PSIZE",
        Generic = "GENERIC", Normal = "NORMAL", Face = "FACE", EdgeFlag = "EDGEFLAG", PrimId = "PRIM_ID",
        InstanceId = "INSTANCEID", VertexId = "VERTEXID", Stencil = "STENCIL", ClipDist = "CLIPDIST",
        ClipVertex = "CLIPVERTEX", GridSize = "GRID_SIZE", BlockId = "BLOCK_ID", BlockSize = "BLOCK_SIZE",
        ThreadId = "THREAD_ID", TexCoord = "TEXCOORD", PCoord = "PCOORD", ViewportIndex = "VIEWPORT_INDEX",
        Layer = "LAYER", SampleId = "SAMPLEID", SamplePos = "SAMPLEPOS", SampleMask = "SAMPLEMASK",
        InvocationId = "INVOCATIONID", VertexIdNoBase = "VERTEXID_NOBASE", BaseVertex = "BASEVERTEX",
        Patch = "PATCH", TessCoord = "TESSCOORD", TessOuter = "TESSOUTER", TessInner = "TESSINNER",
        VerticesIn = "VERTICESIN", HelperInvocation = "HELPER_INVOCATION", BaseInstance = "BASEINSTANCE",
        DrawId = "DRAWID", WorkDim = "WORK_DIM", SubgroupSize = "SUBGROUP_SIZE",
        SubgroupInvocation = "SUBGROUP_INVOCATION", SubgroupEqMask = "SUBGROUP_EQ_MASK",
        SubgroupGeMask = "SUBGROUP_GE_MASK", SubgroupGtMask = "SUBGROUP_GT_MASK",
        SubgroupLeMask = "SUBGROUP_LE_MASK", SubgroupLtMask = "SUBGROUP_LT_MASK",
        CsUserDataAmd = "CS_USER_DATA_AMD", ViewportMask = "VIEWPORT_MASK",
    }
);

named_enum!(
    /// Texture targets (`TGSI_TEXTURE_*`, TEXT-FORMAT.md §11.2).
    TexTarget {
        Buffer = "BUFFER", T1D = "1D", T2D = "2D", T3D = "3D", Cube = "CUBE", Rect = "RECT",
        Shadow1D = "SHADOW1D", Shadow2D = "SHADOW2D", ShadowRect = "SHADOWRECT", Array1D = "1D_ARRAY",
        Array2D = "2D_ARRAY", Shadow1DArray = "SHADOW1D_ARRAY", Shadow2DArray = "SHADOW2D_ARRAY",
        ShadowCube = "SHADOWCUBE", Msaa2D = "2D_MSAA", Msaa2DArray = "2D_ARRAY_MSAA", CubeArray = "CUBEARRAY",
        ShadowCubeArray = "SHADOWCUBEARRAY", Unknown = "UNKNOWN",
    }
);

named_enum!(
    /// PROPERTY names (TEXT-FORMAT.md §5).
    PropertyName {
        GsInputPrimitive = "GS_INPUT_PRIMITIVE", GsOutputPrimitive = "GS_OUTPUT_PRIMITIVE",
        GsMaxOutputVertices = "GS_MAX_OUTPUT_VERTICES", FsCoordOrigin = "FS_COORD_ORIGIN",
        FsCoordPixelCenter = "FS_COORD_PIXEL_CENTER", FsColor0WritesAllCbufs = "FS_COLOR0_WRITES_ALL_CBUFS",
        FsDepthLayout = "FS_DEPTH_LAYOUT", VsProhibitUcps = "VS_PROHIBIT_UCPS", GsInvocations = "GS_INVOCATIONS",
        VsWindowSpacePosition = "VS_WINDOW_SPACE_POSITION", TcsVerticesOut = "TCS_VERTICES_OUT",
        TesPrimMode = "TES_PRIM_MODE", TesSpacing = "TES_SPACING", TesVertexOrderCw = "TES_VERTEX_ORDER_CW",
        TesPointMode = "TES_POINT_MODE", NumClipdistEnabled = "NUM_CLIPDIST_ENABLED",
        NumCulldistEnabled = "NUM_CULLDIST_ENABLED", FsEarlyDepthStencil = "FS_EARLY_DEPTH_STENCIL",
        FsPostDepthCoverage = "FS_POST_DEPTH_COVERAGE", NextShader = "NEXT_SHADER",
        CsFixedBlockWidth = "CS_FIXED_BLOCK_WIDTH", CsFixedBlockHeight = "CS_FIXED_BLOCK_HEIGHT",
        CsFixedBlockDepth = "CS_FIXED_BLOCK_DEPTH", LegacyMathRules = "LEGACY_MATH_RULES",
        VsBlitSgprsAmd = "VS_BLIT_SGPRS_AMD", CsUserDataComponentsAmd = "CS_USER_DATA_COMPONENTS_AMD",
        LayerViewportRelative = "LAYER_VIEWPORT_RELATIVE", FsBlendEquationAdvanced = "FS_BLEND_EQUATION_ADVANCED",
        SeparableProgram = "SEPARABLE_PROGRAM",
    }
);

named_enum!(
    /// Primitive names (MESA_PRIM order, TEXT-FORMAT.md §5).
    Primitive {
        Points = "POINTS", Lines = "LINES", LineLoop = "LINE_LOOP", LineStrip = "LINE_STRIP",
        Triangles = "TRIANGLES", TriangleStrip = "TRIANGLE_STRIP", TriangleFan = "TRIANGLE_FAN", Quads = "QUADS",
        QuadStrip = "QUAD_STRIP", Polygon = "POLYGON", LinesAdjacency = "LINES_ADJACENCY",
        LineStripAdjacency = "LINE_STRIP_ADJACENCY", TrianglesAdjacency = "TRIANGLES_ADJACENCY",
        TriangleStripAdjacency = "TRIANGLE_STRIP_ADJACENCY", Patches = "PATCHES",
    }
);

impl Primitive {
    /// Vertices per input primitive: the implied size of GEOM `IN[]` declarations (§5).
    pub fn vertices(self) -> u32 {
        match self {
            Primitive::Points => 1,
            Primitive::Lines | Primitive::LineLoop | Primitive::LineStrip => 2,
            Primitive::Triangles | Primitive::TriangleStrip | Primitive::TriangleFan => 3,
            Primitive::LinesAdjacency | Primitive::LineStripAdjacency => 4,
            Primitive::TrianglesAdjacency | Primitive::TriangleStripAdjacency => 6,
            _ => 0,
        }
    }
}

named_enum!(
    /// Processor names accepted by `PROPERTY NEXT_SHADER` (TASK/MESH exist only there).
    Processor { Vert = "VERT", TessCtrl = "TESS_CTRL", TessEval = "TESS_EVAL", Geom = "GEOM", Frag = "FRAG", Comp = "COMP", Task = "TASK", Mesh = "MESH" }
);

named_enum!(
    /// Interpolation modes (TEXT-FORMAT.md §11.3).
    Interpolation { Constant = "CONSTANT", Linear = "LINEAR", Perspective = "PERSPECTIVE", Color = "COLOR" }
);

named_enum!(
    /// Interpolation locations (TEXT-FORMAT.md §11.3).
    InterpLocation { Center = "CENTER", Centroid = "CENTROID", Sample = "SAMPLE" }
);

named_enum!(
    /// Sampler-view return types (TEXT-FORMAT.md §11.3).
    ReturnType { Unorm = "UNORM", Snorm = "SNORM", Sint = "SINT", Uint = "UINT", Float = "FLOAT" }
);

named_enum!(
    /// MEMORY declaration kinds (TEXT-FORMAT.md §6.4).
    MemoryType { Global = "GLOBAL", Shared = "SHARED", Private = "PRIVATE", Input = "INPUT" }
);

named_enum!(
    /// Immediate data types (TEXT-FORMAT.md §8).
    ImmType { F32 = "FLT32", U32 = "UINT32", I32 = "INT32", F64 = "FLT64", U64 = "UINT64", I64 = "INT64" }
);

impl ImmType {
    /// Whether each value fills two 32-bit slots.
    pub fn is_64bit(self) -> bool {
        matches!(self, ImmType::F64 | ImmType::U64 | ImmType::I64)
    }
}

named_enum!(
    /// Memory qualifiers on LOAD/STORE/atomics, in bit order (TEXT-FORMAT.md §7.6).
    MemQualifier { Coherent = "COHERENT", Restrict = "RESTRICT", Volatile = "VOLATILE", StreamCachePolicy = "STREAM_CACHE_POLICY" }
);
