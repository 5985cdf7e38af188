//! The pre-resolved form of an instruction: what [`super::resolve`] builds from a decoded
//! [`crate::Instr`] once, and what [`super::exec`] runs. Operands are plain fields (register
//! numbers, constants, shift amounts, masks) so that executing an instruction needs no
//! ISA table look-up.

use super::assume::{Atomic, Rscale};
use super::float::{Clamp, Round};

/// Where a 32-bit source word comes from (SEMANTICS.md §2.1 step 1).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Val {
    /// Register `rN`, 0–63.
    Reg(u8),
    /// A constant: immediate-table entry, or a constant special value word.
    Imm(u32),
    /// Uniform word `uN`, 0–255 (read from the launch's uniforms).
    Uni(u8),
    /// `lane_id.w0`: the lane number.
    LaneId,
    /// `warp_id.w0`: the warp index.
    WarpId,
}

/// A 32-bit integer source: the word, then a lane selection (`h0`/`h1`/`b0`–`b3`, or
/// none) extended to 32 bits: `value = ext((word << shl) >> shr)` with an arithmetic
/// shift when `signed` (SEMANTICS.md §2.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct ISrc {
    pub v: Val,
    pub shl: u8,
    pub shr: u8,
    pub signed: bool,
}

impl ISrc {
    /// The whole word.
    pub(crate) fn plain(v: Val) -> ISrc {
        ISrc {
            v,
            shl: 0,
            shr: 0,
            signed: false,
        }
    }

    /// Whether the selection is the identity.
    pub(crate) fn is_plain(&self) -> bool {
        self.shl == 0 && self.shr == 0
    }
}

/// A 32-bit float source: the word, optionally half `h0`/`h1` converted exactly from f16
/// (`Widen`), then `.abs` (`& and`) and `.neg` (`^ xor`) (SEMANTICS.md §2.1 steps 2–3).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct FSrc {
    pub v: Val,
    pub widen: Widen,
    pub and: u32,
    pub xor: u32,
}

/// `Widen` of a 32-bit float source.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Widen {
    /// The f32 itself.
    None,
    /// Half 0 as f16.
    H0,
    /// Half 1 as f16.
    H1,
}

/// A 64-bit integer source: the low word with its selection, and the high word (`None`:
/// the selected low word is extended to 64 bits, signed when `lo.signed`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Src64 {
    pub lo: ISrc,
    pub hi: Option<Val>,
}

/// A 16-bit-lane or 8-bit-lane vector source: for each result lane `i` (2 lanes of 16
/// bits or 4 of 8 bits), `bits` bits of the word starting at bit `shift[i]`, extended to
/// the lane width (signed when `signed`); then `xor`/`and` masks (f16 `.neg`/`.abs`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct VSrc {
    pub v: Val,
    pub shift: [u8; 4],
    pub bits: u8,
    pub signed: bool,
    pub and: u32,
    pub xor: u32,
}

/// A 32-bit destination register and the bits of it that are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Dst {
    pub reg: u8,
    pub mask: u32,
}

/// Condition (`Condition` enum, SEMANTICS.md §5.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Cond {
    Eq,
    Gt,
    Ge,
    Ne,
    Lt,
    Le,
    Gtlt,
    Total,
}

/// How operands of a compare are ordered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum CmpType {
    Float,
    Signed,
    Unsigned,
}

/// Float unary operations (one f32 source, one f32/i32 result).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum FUn {
    /// The source value (after widen/abs/neg), NaN canonicalised (`F16_TO_F32`).
    Canon,
    Frcp,
    Frsq,
    Flogd,
    Frexpm {
        log: bool,
    },
    Frexpe {
        log: bool,
    },
    Fround(Round),
    ToS32(Round),
    ToU32(Round),
    /// `FLUSH.f32`: nan_mode (0 none, 1 flush_nan, 2 quiet_nan), ftz, flush_inf.
    Flush {
        nan: u8,
        ftz: bool,
        inf: bool,
    },
}

/// Two-source 32-bit integer operations.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum IBin {
    Add,
    AddSatU,
    AddSatS,
    Sub,
    SubSatU,
    SubSatS,
    Mul,
    MulSatS,
    HaddU {
        round: bool,
    },
    HaddS {
        round: bool,
    },
    /// `MKVEC.v2i16`: low 16 bits of A | low 16 bits of B << 16.
    MkVec16,
}

/// One-source 32-bit integer operations.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum IUn {
    Mov,
    Clz,
    Popcount,
    Bitrev,
    Iabs,
    Not,
    /// Integer → f32 (the selected value is already extended): signed or not, rounded.
    ToF32 {
        signed: bool,
        round: Round,
    },
    FsinTable,
    FcosTable,
}

/// Shift direction.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ShiftDir {
    Left,
    RightLogical,
    RightArith,
}

/// Bitwise combination of a shift instruction.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Logic {
    And,
    Or,
    Xor,
}

/// `MUX` condition (`Mux` enum, SEMANTICS.md §4).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum MuxMode {
    Neg,
    IntZero,
    FpZero,
    Bit,
}

/// 64-bit integer operations (`IADD.u64`, `ISUB.u64`, `SHADDX`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum I64 {
    Add,
    AddSatU,
    AddSatS,
    Sub,
    SubSatU,
    SubSatS,
    /// A + (B << shift).
    Shaddx(u8),
}

/// Operations on 2×16-bit or 4×8-bit lanes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum VOp {
    Add,
    AddSatU,
    AddSatS,
    Sub,
    SubSatU,
    SubSatS,
    Mul,
    HaddU {
        round: bool,
    },
    HaddS {
        round: bool,
    },
    Clz,
    Iabs,
    /// Lane-wise copy (conversions between integer lane formats).
    Mov,
    /// f16 lanes.
    FAdd,
    FMin,
    FMax,
    Fround(Round),
    /// f16 → i16/u16 lanes.
    FToS(Round),
    FToU(Round),
    /// i16/u16 → f16 lanes.
    SToF(Round),
    UToF(Round),
}

/// Where the bytes of a LOAD go (`load_lane_*`, SEMANTICS.md §8): a `bits`-bit value
/// extended to `width` bits (8: byte lane, 16, 32, 64, or the full size) and shifted left
/// by `shift` bits within the staging run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct LoadPlace {
    pub width: u32,
    pub shift: u32,
    pub unsigned: bool,
}

/// One resolved instruction.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Op {
    Nop,
    FAdd {
        a: FSrc,
        b: FSrc,
        clamp: Clamp,
        d: Dst,
    },
    FMin {
        a: FSrc,
        b: FSrc,
        clamp: Clamp,
        d: Dst,
    },
    FMax {
        a: FSrc,
        b: FSrc,
        clamp: Clamp,
        d: Dst,
    },
    FAddLscale {
        a: FSrc,
        b: FSrc,
        clamp: Clamp,
        d: Dst,
    },
    FAddImm {
        a: Val,
        imm: u32,
        d: Dst,
    },
    Fma {
        a: FSrc,
        b: FSrc,
        c: FSrc,
        clamp: Clamp,
        d: Dst,
    },
    FmaRscale {
        a: FSrc,
        b: FSrc,
        c: FSrc,
        s: Val,
        kind: Rscale,
        clamp: Clamp,
        d: Dst,
    },
    FUnary {
        op: FUn,
        a: FSrc,
        d: Dst,
    },
    FExp {
        a: Val,
        b: FSrc,
        clamp: Clamp,
        d: Dst,
    },
    Ldexp {
        a: FSrc,
        b: Val,
        round: Round,
        d: Dst,
    },
    V2F32ToV2F16 {
        a: FSrc,
        b: FSrc,
        round: Round,
        clamp: Clamp,
        d: Dst,
    },
    FCmp {
        cond: Cond,
        and: bool,
        res: u32,
        a: FSrc,
        b: FSrc,
        c: Val,
        d: Dst,
    },
    ICmp {
        cond: Cond,
        signed: bool,
        and: bool,
        res: u32,
        a: ISrc,
        b: ISrc,
        c: Val,
        d: Dst,
    },
    CSel {
        cond: Cond,
        ty: CmpType,
        a: Val,
        b: Val,
        t: Val,
        f: Val,
        d: Dst,
    },
    Mux {
        mode: MuxMode,
        a: Val,
        b: Val,
        m: Val,
        d: Dst,
    },
    IBinary {
        op: IBin,
        a: ISrc,
        b: ISrc,
        d: Dst,
    },
    IAddImm {
        a: Val,
        imm: u32,
        d: Dst,
    },
    IUnary {
        op: IUn,
        a: ISrc,
        d: Dst,
    },
    Shift {
        dir: ShiftDir,
        logic: Logic,
        a: ISrc,
        s: ISrc,
        b: Val,
        bnot: u32,
        rnot: u32,
        d: Dst,
    },
    MkVec8 {
        a: ISrc,
        b: ISrc,
        c: Val,
        d: Dst,
    },
    I64 {
        op: I64,
        a: Src64,
        b: Src64,
        d: u8,
    },
    Imuld {
        a: ISrc,
        b: ISrc,
        d: u8,
    },
    /// Vector ops on `width`-bit lanes (16 or 8); `b`/`c` unused by unary ops.
    Vec {
        op: VOp,
        width: u8,
        a: VSrc,
        b: VSrc,
        clamp: Clamp,
        d: Dst,
    },
    VFma {
        a: VSrc,
        b: VSrc,
        c: VSrc,
        clamp: Clamp,
        d: Dst,
    },
    VImm {
        op: VOp,
        width: u8,
        a: Val,
        imm: u32,
        d: Dst,
    },
    VCmp {
        cond: Cond,
        ty: CmpType,
        width: u8,
        and: bool,
        res: u32,
        a: VSrc,
        b: VSrc,
        c: Val,
        d: Dst,
    },
    VCSel {
        cond: Cond,
        ty: CmpType,
        a: VSrc,
        b: VSrc,
        t: VSrc,
        f: VSrc,
        d: Dst,
    },
    VMux {
        mode: MuxMode,
        width: u8,
        a: VSrc,
        b: VSrc,
        m: VSrc,
        d: Dst,
    },
    VShift {
        dir: ShiftDir,
        logic: Logic,
        width: u8,
        a: VSrc,
        s: ISrc,
        b: Val,
        bnot: u32,
        rnot: u32,
        d: Dst,
    },
    /// 64-bit shifts: A (with its 64-bit selection) shifted by the selected byte mod 64,
    /// combined with the pair B (`bnot`/`rnot` complement masks).
    Shift64 {
        dir: ShiftDir,
        logic: Logic,
        a: Src64,
        s: ISrc,
        b: [Val; 2],
        bnot: u64,
        rnot: u64,
        d: u8,
    },
    /// `NOT_OLD.i64`.
    Not64 {
        a: [Val; 2],
        d: u8,
    },
    /// `IDP.v4s8` / `IDP.v4u8`.
    Idp {
        signed: bool,
        saturate: bool,
        a: Val,
        b: Val,
        c: Val,
        d: Dst,
    },
    Clper {
        a: Val,
        b: ISrc,
        xor: bool,
        inactive: u32,
        d: Dst,
    },
    /// `WMASK` (`subgroup16`): the mask of active lanes whose `a` is nonzero.
    Wmask {
        a: Val,
        d: Dst,
    },
    /// Atomics: `bits` 32 or 64; operands from the read staging run at `src` (value, then
    /// comparison value for `.compare`); the old value to the run at `ret`, if any.
    Atom {
        op: Atomic,
        bits: u32,
        addr: [Val; 2],
        offset: i64,
        src: u8,
        ret: Option<u8>,
    },
    Load {
        addr: [Val; 2],
        offset: i64,
        bytes: u32,
        place: LoadPlace,
        base: u8,
        count: u8,
    },
    Store {
        addr: [Val; 2],
        offset: i64,
        bytes: u32,
        base: u8,
    },
    Branch {
        cond: Val,
        mask: u32,
        eq: bool,
        target: i64,
    },
    Discard {
        cond: Cond,
        a: FSrc,
        b: FSrc,
    },
    /// `TEX_FETCH` / `TEX_SINGLE`: a texture message (`sim::tex`).
    Tex(Box<super::tex::TexMsg>),
    /// `BARRIER` (SEMANTICS.md §7): the warp waits until every warp of its workgroup got
    /// here (see `sched`).
    Barrier,
}

/// An instruction ready to run: the operation and whether its flow is `.end`.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Ins {
    pub op: Op,
    pub end: bool,
}
