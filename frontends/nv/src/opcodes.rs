//! The opcode table: Table X.13 of NV_gpu_program5 (the gp4/gp4.1/gp5 instruction set with
//! its modifier columns), the ARB_vertex_program / ARB_fragment_program instruction sets and
//! their NV options (NV_vertex_program2/3, NV_fragment_program_option, NV_fragment_program2),
//! and the gp5-family extensions (NV_compute_program5, EXT_shader_image_load_store,
//! NV_shader_storage_buffer_object, ARB_shader_subroutine, NV_shader_thread_group,
//! NV_shader_thread_shuffle, NV_shader_atomic_counters, NV_fragment_shader_interlock).
// Numbers here come from user input (program text, inputs files, machine code): no
// arithmetic may wrap or panic unnoticed.
#![warn(clippy::arithmetic_side_effects)]

use super::ast::{BaseType, NvStage};

/// The operand shape of an opcode (the `<..._instruction>` grammar rules). Letters in the
/// descriptions: `d` result, `v` vector operand, `s` scalar operand (`.x` suffix), `n`
/// operand without swizzle, `t` texture access (`unit, target[, offset]`), `m` memory
/// variable (`sm[off]`), `i` image unit, `g` image target, `l` label, `(c)` optional
/// condition `(ccTest)`, `c` bare `ccTest`, `e` four extended swizzle selectors.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Shape {
    /// `d, v` (`<VECTORop_instruction>`).
    Vector,
    /// `d, s` (`<SCALARop_instruction>`).
    Scalar,
    /// `d, s, s` (`<BINSCop_instruction>`).
    BinSc,
    /// `d, v, s` (`<VECSCAop_instruction>`).
    VecSca,
    /// `d, v, v` (`<BINop_instruction>`).
    Bin,
    /// `d, v, v, v` (`<TRIop_instruction>`).
    Tri,
    /// `d, n, e` (`<SWZop_instruction>`).
    Swz,
    /// `d, v[, v], t` (`<TEXop_instruction>`; the second `v` is gp5).
    Tex,
    /// `d, v, v, v, t` (`<TXDop_instruction>`).
    Txd,
    /// `l (c)` (`<BRAop_instruction>`: CAL, BRA).
    Branch,
    /// `(c)` (`<FLOWCCop_instruction>`: RET, BRK, CONT).
    FlowCc,
    /// `c` (`<IFop_instruction>`).
    If,
    /// `[v]` (`<REPop_instruction>`).
    Rep,
    /// `v` (NV_fragment_program2 LOOP).
    Loop,
    /// No operands.
    NoOperands,
    /// `s` (EMITS).
    EmitS,
    /// `v` or `c` (KIL, `<killCond>`).
    Kil,
    /// `d, v, s` (ATOM).
    Atom,
    /// `v, s` (STORE).
    Store,
    /// `d, m` (LDS, LDB, ATOMCTR).
    MemLoad,
    /// `v, m` (STS, STB).
    MemStore,
    /// `d, v, m` (ATOMS, ATOMB).
    MemAtom,
    /// `d, v, i, g` (LOADIM).
    LoadIm,
    /// `i, v, v, g` (STOREIM).
    StoreIm,
    /// `d, v, v, i, g` (ATOMIM).
    AtomIm,
    /// `m (c)` (CALI: subroutine variable, optionally indexed).
    Cali,
    /// `d, v` with an address register result (ARL, ARR).
    Arl,
    /// `d, n` with address registers (ARA).
    Ara,
    /// `n` (PUSHA).
    Pusha,
    /// `d` (POPA).
    Popa,
}

/// How an opcode's modifiers are checked (§2.X.4.1 and the instruction descriptions).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ModKind {
    /// Data types from the F / I columns of Table X.13.
    Arith,
    /// One storage modifier required (LOAD, STORE, LDC, LDS, STS, LDB, STB, LOADIM).
    Storage,
    /// Atomic modifier and storage modifier required (ATOM, ATOMS, ATOMB, ATOMIM).
    Atomic,
    /// INCR / DECR / GET required (ATOMCTR).
    Counter,
    /// Two storage modifiers required, rounding allowed (CVT).
    Cvt,
    /// An optional base data type or storage modifier (STOREIM).
    Image,
    /// `CTA` allowed (MEMBAR).
    Membar,
    /// No modifiers.
    Plain,
}

/// What a data type column of Table X.13 allows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TypeSupport {
    /// `-`: none.
    No,
    /// `X`: unsized and sized types below 64 bits.
    Yes,
    /// `6`: also the 64-bit types.
    With64,
}

/// Static information about one opcode.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NvOpInfo {
    /// Mnemonic.
    pub name: &'static str,
    /// Operand shape.
    pub shape: Shape,
    /// First NV level with the opcode: 40, 41, 50; 0 = ARB programs only.
    pub level: u8,
    /// F column.
    pub float: TypeSupport,
    /// I column.
    pub int: TypeSupport,
    /// C column: condition code update allowed.
    pub cc: bool,
    /// S column: clamping allowed.
    pub sat: bool,
    /// H column: half-precision suffix allowed.
    pub half: bool,
    /// D column: default data type (`None` = no data type).
    pub default: Option<BaseType>,
    /// How modifiers are checked.
    pub mods: ModKind,
    /// ARB vertex programs: 0 no, 1 base, 2 NV_vertex_program2, 3 NV_vertex_program3.
    pub arb_vp: u8,
    /// ARB fragment programs: 0 no, 1 base, 2 NV_fragment_program, 3 NV_fragment_program2.
    pub arb_fp: u8,
    /// The only stage that has it, if restricted.
    pub stage: Option<NvStage>,
}

use BaseType::{F as DF, S as DS};
use ModKind::*;
use Shape::*;
use TypeSupport::{No as N, With64 as W, Yes as Y};

macro_rules! opcodes {
    ($($v:ident $name:literal $shape:ident $lvl:literal $f:ident $i:ident $c:literal $s:literal $h:literal $d:expr, $mk:ident $vp:literal $fp:literal $st:expr;)+) => {
        /// An NV / ARB assembly opcode.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum NvOpcode { $(#[doc = concat!("`", $name, "`")] $v),+ }
        const ALL_OPCODES: &[NvOpcode] = &[$(NvOpcode::$v),+];
        const TABLE: &[NvOpInfo] = &[$(NvOpInfo {
            name: $name, shape: $shape, level: $lvl, float: $f, int: $i, cc: $c != 0, sat: $s != 0,
            half: $h != 0, default: $d, mods: $mk, arb_vp: $vp, arb_fp: $fp, stage: $st,
        }),+];
    };
}

const FP: Option<NvStage> = Some(NvStage::Fragment);
const GP: Option<NvStage> = Some(NvStage::Geometry);
const CP: Option<NvStage> = Some(NvStage::Compute);
const ANY: Option<NvStage> = None;
const NF: Option<BaseType> = Some(DF);
const NS: Option<BaseType> = Some(DS);
const ND: Option<BaseType> = None;

// name        text       shape   lvl F I C S H default, kind vp fp stage
opcodes! {
    Abs "ABS" Vector 40 W W 1 1 1 NF, Arith 1 1 ANY;
    Add "ADD" Bin 40 W W 1 1 1 NF, Arith 1 1 ANY;
    And "AND" Bin 40 N W 1 0 0 NS, Arith 0 0 ANY;
    Atom "ATOM" Atom 50 N N 1 0 0 ND, Atomic 0 0 ANY;
    Bfe "BFE" Bin 50 N Y 1 0 0 NS, Arith 0 0 ANY;
    Bfi "BFI" Tri 50 N Y 1 0 0 NS, Arith 0 0 ANY;
    Bfr "BFR" Vector 50 N Y 1 0 0 NS, Arith 0 0 ANY;
    Brk "BRK" FlowCc 40 N N 0 0 0 ND, Plain 0 3 ANY;
    Btc "BTC" Vector 50 N Y 1 0 0 NS, Arith 0 0 ANY;
    Btfl "BTFL" Vector 50 N Y 1 0 0 NS, Arith 0 0 ANY;
    Btfm "BTFM" Vector 50 N Y 1 0 0 NS, Arith 0 0 ANY;
    Cal "CAL" Branch 40 N N 0 0 0 ND, Plain 2 3 ANY;
    Ceil "CEIL" Vector 40 W W 1 1 1 NF, Arith 0 0 ANY;
    Cmp "CMP" Tri 40 W W 1 1 1 NF, Arith 0 1 ANY;
    Cont "CONT" FlowCc 40 N N 0 0 0 ND, Plain 0 0 ANY;
    Cos "COS" Scalar 40 Y N 1 1 1 NF, Arith 2 1 ANY;
    Cvt "CVT" Vector 50 N N 1 1 0 ND, Cvt 0 0 ANY;
    Ddx "DDX" Vector 40 Y N 1 1 1 NF, Arith 0 2 FP;
    Ddy "DDY" Vector 40 Y N 1 1 1 NF, Arith 0 2 FP;
    Div "DIV" VecSca 40 W W 1 1 1 NF, Arith 0 3 ANY;
    Dp2 "DP2" Bin 40 Y N 1 1 1 NF, Arith 0 3 ANY;
    Dp2a "DP2A" Tri 40 Y N 1 1 1 NF, Arith 0 3 ANY;
    Dp3 "DP3" Bin 40 Y N 1 1 1 NF, Arith 1 1 ANY;
    Dp4 "DP4" Bin 40 Y N 1 1 1 NF, Arith 1 1 ANY;
    Dph "DPH" Bin 40 Y N 1 1 1 NF, Arith 1 1 ANY;
    Dst "DST" Bin 40 Y N 1 1 1 NF, Arith 1 1 ANY;
    Else "ELSE" NoOperands 40 N N 0 0 0 ND, Plain 0 3 ANY;
    Emit "EMIT" NoOperands 40 N N 0 0 0 ND, Plain 0 0 GP;
    Emits "EMITS" EmitS 50 N Y 0 0 0 NS, Arith 0 0 GP;
    Endif "ENDIF" NoOperands 40 N N 0 0 0 ND, Plain 0 3 ANY;
    Endprim "ENDPRIM" NoOperands 40 N N 0 0 0 ND, Plain 0 0 GP;
    Endrep "ENDREP" NoOperands 40 N N 0 0 0 ND, Plain 0 3 ANY;
    Ex2 "EX2" Scalar 40 Y N 1 1 1 NF, Arith 1 1 ANY;
    Flr "FLR" Vector 40 W W 1 1 1 NF, Arith 1 1 ANY;
    Frc "FRC" Vector 40 W N 1 1 1 NF, Arith 1 1 ANY;
    I2f "I2F" Vector 40 N W 1 0 0 NS, Arith 0 0 ANY;
    If "IF" If 40 N N 0 0 0 ND, Plain 0 3 ANY;
    Ipac "IPAC" Vector 50 Y N 1 1 0 NF, Arith 0 0 FP;
    Ipao "IPAO" Bin 50 Y N 1 1 0 NF, Arith 0 0 FP;
    Ipas "IPAS" VecSca 50 Y N 1 1 0 NF, Arith 0 0 FP;
    Kil "KIL" Kil 40 Y Y 0 0 1 NF, Arith 0 1 FP;
    Ldc "LDC" Vector 40 N N 1 1 0 ND, Storage 0 0 ANY;
    Lg2 "LG2" Scalar 40 Y N 1 1 1 NF, Arith 1 1 ANY;
    Lit "LIT" Vector 40 Y N 1 1 1 NF, Arith 1 1 ANY;
    Load "LOAD" Scalar 40 N N 1 1 0 ND, Storage 0 0 ANY;
    Lod "LOD" Tex 41 Y N 1 1 0 NF, Arith 0 0 ANY;
    Lrp "LRP" Tri 40 Y N 1 1 1 NF, Arith 0 1 ANY;
    Mad "MAD" Tri 40 W W 1 1 1 NF, Arith 1 1 ANY;
    Max "MAX" Bin 40 W W 1 1 1 NF, Arith 1 1 ANY;
    Membar "MEMBAR" NoOperands 50 N N 0 0 0 ND, Membar 0 0 ANY;
    Min "MIN" Bin 40 W W 1 1 1 NF, Arith 1 1 ANY;
    Mod "MOD" VecSca 40 N W 1 0 0 NS, Arith 0 0 ANY;
    Mov "MOV" Vector 40 W W 1 1 1 NF, Arith 1 1 ANY;
    Mul "MUL" Bin 40 W W 1 1 1 NF, Arith 1 1 ANY;
    Not "NOT" Vector 40 N W 1 0 0 NS, Arith 0 0 ANY;
    Nrm "NRM" Vector 40 Y N 1 1 1 NF, Arith 0 3 ANY;
    Or "OR" Bin 40 N W 1 0 0 NS, Arith 0 0 ANY;
    Pk2h "PK2H" Vector 40 Y Y 0 0 0 NF, Arith 0 2 ANY;
    Pk2us "PK2US" Vector 40 Y Y 0 0 0 NF, Arith 0 2 ANY;
    Pk4b "PK4B" Vector 40 Y Y 0 0 0 NF, Arith 0 2 ANY;
    Pk4ub "PK4UB" Vector 40 Y Y 0 0 0 NF, Arith 0 2 ANY;
    Pk64 "PK64" Vector 50 Y Y 0 0 0 NF, Arith 0 0 ANY;
    Pow "POW" BinSc 40 Y N 1 1 1 NF, Arith 1 1 ANY;
    Rcc "RCC" Scalar 40 Y N 1 1 1 NF, Arith 2 0 ANY;
    Rcp "RCP" Scalar 40 W N 1 1 1 NF, Arith 1 1 ANY;
    Rep "REP" Rep 40 W W 0 0 1 NF, Arith 0 3 ANY;
    Ret "RET" FlowCc 40 N N 0 0 0 ND, Plain 2 3 ANY;
    Rfl "RFL" Bin 40 Y N 1 1 1 NF, Arith 0 2 ANY;
    Round "ROUND" Vector 40 W W 1 1 1 NF, Arith 0 0 ANY;
    Rsq "RSQ" Scalar 40 W N 1 1 1 NF, Arith 1 1 ANY;
    Sad "SAD" Tri 40 N W 1 0 0 NS, Arith 0 0 ANY;
    Scs "SCS" Scalar 40 Y N 1 1 1 NF, Arith 0 1 ANY;
    Seq "SEQ" Bin 40 W W 1 1 1 NF, Arith 2 2 ANY;
    Sfl "SFL" Bin 40 W W 1 1 1 NF, Arith 2 2 ANY;
    Sge "SGE" Bin 40 W W 1 1 1 NF, Arith 1 1 ANY;
    Sgt "SGT" Bin 40 W W 1 1 1 NF, Arith 2 2 ANY;
    Shl "SHL" VecSca 40 N W 1 0 0 NS, Arith 0 0 ANY;
    Shr "SHR" VecSca 40 N W 1 0 0 NS, Arith 0 0 ANY;
    Sin "SIN" Scalar 40 Y N 1 1 1 NF, Arith 2 1 ANY;
    Sle "SLE" Bin 40 W W 1 1 1 NF, Arith 2 2 ANY;
    Slt "SLT" Bin 40 W W 1 1 1 NF, Arith 1 1 ANY;
    Sne "SNE" Bin 40 W W 1 1 1 NF, Arith 2 2 ANY;
    Ssg "SSG" Vector 40 W N 1 1 1 NF, Arith 2 0 ANY;
    Store "STORE" Store 50 N N 0 0 0 ND, Storage 0 0 ANY;
    Str "STR" Bin 40 W W 1 1 1 NF, Arith 2 2 ANY;
    Sub "SUB" Bin 40 W W 1 1 1 NF, Arith 1 1 ANY;
    Swz "SWZ" Swz 40 Y N 1 1 1 NF, Arith 1 1 ANY;
    Tex "TEX" Tex 40 Y Y 1 1 0 NF, Arith 3 1 ANY;
    Tgall "TGALL" Vector 50 Y Y 1 1 0 NF, Arith 0 0 ANY;
    Tgany "TGANY" Vector 50 Y Y 1 1 0 NF, Arith 0 0 ANY;
    Tgeq "TGEQ" Vector 50 Y Y 1 1 0 NF, Arith 0 0 ANY;
    Trunc "TRUNC" Vector 40 W W 1 1 1 NF, Arith 0 0 ANY;
    Txb "TXB" Tex 40 Y Y 1 1 0 NF, Arith 3 1 ANY;
    Txd "TXD" Txd 40 Y Y 1 1 0 NF, Arith 0 2 ANY;
    Txf "TXF" Tex 40 Y Y 1 1 0 NF, Arith 0 0 ANY;
    Txfms "TXFMS" Tex 40 Y Y 1 1 0 NF, Arith 0 0 ANY;
    Txg "TXG" Tex 41 Y Y 1 1 0 NF, Arith 0 0 ANY;
    Txgo "TXGO" Txd 50 Y Y 1 1 0 NF, Arith 0 0 ANY;
    Txl "TXL" Tex 40 Y Y 1 1 0 NF, Arith 3 3 ANY;
    Txp "TXP" Tex 40 Y Y 1 1 0 NF, Arith 3 1 ANY;
    Txq "TXQ" Tex 40 N N 0 0 0 NS, Arith 0 0 ANY;
    Up2h "UP2H" Scalar 40 Y Y 1 1 0 NF, Arith 0 2 ANY;
    Up2us "UP2US" Scalar 40 Y Y 1 1 0 NF, Arith 0 2 ANY;
    Up4b "UP4B" Scalar 40 Y Y 1 1 0 NF, Arith 0 2 ANY;
    Up4ub "UP4UB" Scalar 40 Y Y 1 1 0 NF, Arith 0 2 ANY;
    Up64 "UP64" Vector 50 Y Y 1 1 0 NF, Arith 0 0 ANY;
    X2d "X2D" Tri 40 Y N 1 1 1 NF, Arith 0 2 ANY;
    Xor "XOR" Bin 40 N W 1 0 0 NS, Arith 0 0 ANY;
    Xpd "XPD" Bin 40 Y N 1 1 1 NF, Arith 1 1 ANY;
    // ARB_vertex_program and NV_vertex_program2/3 (Table X.5 of NV_vertex_program2_option).
    Arl "ARL" Arl 0 N N 1 0 0 ND, Arith 1 0 ANY;
    Ara "ARA" Ara 0 N N 1 0 0 ND, Arith 2 0 ANY;
    Arr "ARR" Arl 0 N N 1 0 0 ND, Arith 2 0 ANY;
    Bra "BRA" Branch 0 N N 0 0 0 ND, Plain 2 0 ANY;
    Exp "EXP" Scalar 0 Y N 1 1 0 NF, Arith 1 0 ANY;
    Log "LOG" Scalar 0 Y N 1 1 0 NF, Arith 1 0 ANY;
    Pusha "PUSHA" Pusha 0 N N 0 0 0 ND, Plain 3 0 ANY;
    Popa "POPA" Popa 0 N N 0 0 0 ND, Plain 3 0 ANY;
    // NV_fragment_program2.
    Loop "LOOP" Loop 0 N N 0 0 0 ND, Plain 0 3 ANY;
    Endloop "ENDLOOP" NoOperands 0 N N 0 0 0 ND, Plain 0 3 ANY;
    // NV_compute_program5.
    Bar "BAR" NoOperands 50 N N 0 0 0 ND, Plain 0 0 CP;
    Lds "LDS" MemLoad 50 N N 1 1 0 ND, Storage 0 0 CP;
    Sts "STS" MemStore 50 N N 0 0 0 ND, Storage 0 0 CP;
    Atoms "ATOMS" MemAtom 50 N N 1 0 0 ND, Atomic 0 0 CP;
    // EXT_shader_image_load_store.
    Loadim "LOADIM" LoadIm 50 N N 1 1 0 ND, Storage 0 0 ANY;
    Storeim "STOREIM" StoreIm 50 N N 0 0 0 ND, Image 0 0 ANY;
    Atomim "ATOMIM" AtomIm 50 N N 1 0 0 ND, Atomic 0 0 ANY;
    // NV_shader_storage_buffer_object.
    Ldb "LDB" MemLoad 50 N N 1 1 0 ND, Storage 0 0 ANY;
    Stb "STB" MemStore 50 N N 0 0 0 ND, Storage 0 0 ANY;
    Atomb "ATOMB" MemAtom 50 N N 1 0 0 ND, Atomic 0 0 ANY;
    // ARB_shader_subroutine.
    Cali "CALI" Cali 50 N N 0 0 0 ND, Plain 0 0 ANY;
    // NV_shader_thread_group.
    Tgballot "TGBALLOT" Vector 50 Y Y 1 1 0 NF, Arith 0 0 ANY;
    Qswz0 "QSWZ0" Bin 50 Y N 0 0 0 NF, Arith 0 0 FP;
    Qswz1 "QSWZ1" Bin 50 Y N 0 0 0 NF, Arith 0 0 FP;
    Qswz2 "QSWZ2" Bin 50 Y N 0 0 0 NF, Arith 0 0 FP;
    Qswz3 "QSWZ3" Bin 50 Y N 0 0 0 NF, Arith 0 0 FP;
    Qswzx "QSWZX" Bin 50 Y N 0 0 0 NF, Arith 0 0 FP;
    Qswzy "QSWZY" Bin 50 Y N 0 0 0 NF, Arith 0 0 FP;
    // NV_shader_thread_shuffle.
    Shfdown "SHFDOWN" Tri 50 Y Y 0 0 0 NF, Arith 0 0 ANY;
    Shfidx "SHFIDX" Tri 50 Y Y 0 0 0 NF, Arith 0 0 ANY;
    Shfup "SHFUP" Tri 50 Y Y 0 0 0 NF, Arith 0 0 ANY;
    Shfxor "SHFXOR" Tri 50 Y Y 0 0 0 NF, Arith 0 0 ANY;
    // NV_shader_atomic_counters.
    Atomctr "ATOMCTR" MemLoad 50 N N 1 0 0 ND, Counter 0 0 ANY;
    // NV_fragment_shader_interlock.
    Fsib "FSIB" NoOperands 50 N N 0 0 0 ND, Plain 0 0 FP;
    Fsie "FSIE" NoOperands 50 N N 0 0 0 ND, Plain 0 0 FP;
}

impl NvOpcode {
    /// Every opcode, in table order.
    pub fn all() -> impl Iterator<Item = NvOpcode> {
        ALL_OPCODES.iter().copied()
    }
    /// The table row.
    pub fn info(self) -> &'static NvOpInfo {
        &TABLE[self as usize]
    }
    /// Mnemonic.
    pub fn name(self) -> &'static str {
        self.info().name
    }
    /// Operand shape.
    pub fn shape(self) -> Shape {
        self.info().shape
    }
    /// The data type used when none is written (Table X.13 "D" column).
    pub fn default_type(self) -> Option<BaseType> {
        self.info().default
    }
    /// Exact (case-sensitive) lookup of a mnemonic without suffixes.
    pub fn from_name(s: &str) -> Option<NvOpcode> {
        static MAP: std::sync::OnceLock<std::collections::HashMap<&'static str, NvOpcode>> =
            std::sync::OnceLock::new();
        MAP.get_or_init(|| ALL_OPCODES.iter().map(|&op| (op.name(), op)).collect())
            .get(s)
            .copied()
    }
    /// Whether the opcode writes a result operand.
    pub fn has_dst(self) -> bool {
        matches!(
            self.shape(),
            Vector
                | Scalar
                | BinSc
                | VecSca
                | Bin
                | Tri
                | Swz
                | Tex
                | Txd
                | Atom
                | MemLoad
                | MemAtom
                | LoadIm
                | AtomIm
                | Arl
                | Ara
                | Popa
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_and_enum_agree() {
        assert_eq!(ALL_OPCODES.len(), TABLE.len());
        for (i, op) in ALL_OPCODES.iter().enumerate() {
            assert_eq!(*op as usize, i, "{op:?}");
            assert_eq!(NvOpcode::from_name(op.name()), Some(*op));
        }
        assert_eq!(NvOpcode::all().count(), TABLE.len());
    }
}
