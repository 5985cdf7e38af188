//! The instruction table: which ISA.xml instructions the simulator implements and how
//! each becomes an [`Op`] (SEMANTICS.md §3–§8). Everything not listed is
//! [`SimError::Unsupported`].

use std::sync::OnceLock;

use super::assume::Rscale;
use super::float::Round;
use super::op::{CmpType, FUn, IBin, IUn, LoadPlace, Logic, MuxMode, Op, ShiftDir, I64};
use super::resolve::Res;
use super::SimError;

/// [`super::assume::widen_is_signed`] of `def`'s mnemonic, from a table made once for
/// every ISA instruction (the simulator resolves every instruction it loads).
fn widen_is_signed(def: &crate::InsDef) -> bool {
    static TABLE: OnceLock<Vec<bool>> = OnceLock::new();
    let table = TABLE.get_or_init(|| {
        crate::isa()
            .instructions
            .iter()
            .map(|d| super::assume::widen_is_signed(&d.name))
            .collect()
    });
    table
        .get(usize::from(def.id.0))
        .copied()
        .unwrap_or_else(|| super::assume::widen_is_signed(&def.name))
}

/// Which part of [`resolve_op`] builds an instruction's operation: the mnemonic
/// matched once per ISA instruction ([`arm`]), not once per decoded word.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Arm {
    Nop,
    Barrier,
    FBinary,
    FAddImm,
    Fma,
    FmaRscale,
    FUnary,
    F16ToInt,
    FExp,
    Ldexp,
    V2F32ToV2F16,
    FCmp,
    ICmp,
    CSel,
    Mux,
    IBinary,
    MkVec16,
    MkVec8,
    IAddImm,
    IUnary,
    IntToF32,
    SmallInt,
    Shift32,
    I64,
    Shaddx,
    Imuld,
    Wmask,
    Clper,
    Shift64,
    Not64,
    Idp,
    Atomic,
    Load,
    Tex,
    Store,
    Branchz,
    Discard,
    Vector,
}

/// The [`Arm`] of a mnemonic (the patterns are tried in order).
fn arm_of(name: &str) -> Arm {
    match name {
        "NOP" => Arm::Nop,
        "BARRIER" => Arm::Barrier,
        "FADD.f32" | "FMIN.f32" | "FMAX.f32" | "FADD_LSCALE.f32" => Arm::FBinary,
        "FADD_IMM.f32" => Arm::FAddImm,
        "FMA.f32" => Arm::Fma,
        "FMA_RSCALE.f32"
        | "FMA_RSCALE_N.f32"
        | "FMA_RSCALE_LEFT.f32"
        | "FMA_RSCALE_SCALE16.f32" => Arm::FmaRscale,
        "FRCP.f32" | "FRSQ.f32" | "FLOGD.f32" | "FREXPM.f32" | "FREXPE.f32" | "FROUND.f32"
        | "F32_TO_S32" | "F32_TO_U32" | "F16_TO_F32" | "FLUSH.f32" => Arm::FUnary,
        "F16_TO_S32" | "F16_TO_U32" => Arm::F16ToInt,
        "FEXP.f32" => Arm::FExp,
        "LDEXP.f32" => Arm::Ldexp,
        "V2F32_TO_V2F16" => Arm::V2F32ToV2F16,
        "FCMP_OR.f32" | "FCMP_AND.f32" => Arm::FCmp,
        "ICMP_OR.u32" | "ICMP_AND.u32" | "ICMP_OR.s32" | "ICMP_AND.s32" => Arm::ICmp,
        "CSEL.f32" | "CSEL.u32" | "CSEL.s32" => Arm::CSel,
        "MUX.i32" => Arm::Mux,
        "IADD.u32" | "IADD.s32" | "ISUB.u32" | "ISUB.s32" | "IMUL.i32" | "IMUL.s32"
        | "HADD.u32" | "HADD.s32" => Arm::IBinary,
        "MKVEC.v2i16" => Arm::MkVec16,
        "MKVEC.v2i8" => Arm::MkVec8,
        "IADD_IMM.i32" => Arm::IAddImm,
        "MOV.i32" | "CLZ.u32" | "POPCOUNT.i32" | "BITREV.i32" | "IABS.s32" | "NOT_OLD.i32"
        | "FSIN_TABLE.u6" | "FCOS_TABLE.u6" => Arm::IUnary,
        "S32_TO_F32" | "U32_TO_F32" => Arm::IntToF32,
        "S8_TO_S32" | "U8_TO_U32" | "S8_TO_F32" | "U8_TO_F32" | "S16_TO_S32" | "U16_TO_U32"
        | "S16_TO_F32" | "U16_TO_F32" => Arm::SmallInt,
        n if is_shift(n) && n.ends_with(".i32") => Arm::Shift32,
        "IADD.u64" | "IADD.s64" | "ISUB.u64" | "ISUB.s64" => Arm::I64,
        "SHADDX.u64" | "SHADDX.s64" => Arm::Shaddx,
        "IMULD.u64" => Arm::Imuld,
        "WMASK" => Arm::Wmask,
        "CLPER.i32" => Arm::Clper,
        n if is_shift(n) && n.ends_with(".i64") => Arm::Shift64,
        "NOT_OLD.i64" => Arm::Not64,
        "IDP.v4s8" | "IDP.v4u8" => Arm::Idp,
        n if n.starts_with("ATOM") => Arm::Atomic,
        n if n.starts_with("LOAD.i") => Arm::Load,
        "TEX_FETCH" | "TEX_SINGLE" | "TEX_GATHER" => Arm::Tex,
        n if n.starts_with("STORE.i") => Arm::Store,
        "BRANCHZ" => Arm::Branchz,
        "DISCARD.f32" => Arm::Discard,
        _ => Arm::Vector,
    }
}

/// The [`Arm`] of `def`, from a table made once for every ISA instruction.
fn arm(def: &crate::InsDef) -> Arm {
    static TABLE: OnceLock<Vec<Arm>> = OnceLock::new();
    let table = TABLE.get_or_init(|| {
        crate::isa()
            .instructions
            .iter()
            .map(|d| arm_of(&d.name))
            .collect()
    });
    table
        .get(usize::from(def.id.0))
        .copied()
        .unwrap_or_else(|| arm_of(&def.name))
}

/// Builds the operation for `r`'s instruction.
pub(crate) fn resolve_op(r: &Res<'_>) -> Result<Op, SimError> {
    let name = r.name();
    let n = name;
    let signed = widen_is_signed(r.def);
    Ok(match arm(r.def) {
        Arm::Nop => Op::Nop,
        Arm::Barrier => Op::Barrier,
        Arm::FBinary => {
            let (a, b, clamp, d) = (r.fsrc(0)?, r.fsrc(1)?, r.clamp()?, r.dst()?);
            match name {
                "FADD.f32" => Op::FAdd { a, b, clamp, d },
                "FMIN.f32" => Op::FMin { a, b, clamp, d },
                "FMAX.f32" => Op::FMax { a, b, clamp, d },
                _ => Op::FAddLscale { a, b, clamp, d },
            }
        }
        Arm::FAddImm => Op::FAddImm {
            a: r.val(0)?,
            imm: r.imm(0)? as u32,
            d: r.dst()?,
        },
        Arm::Fma => Op::Fma {
            a: r.fsrc(0)?,
            b: r.fsrc(1)?,
            c: r.fsrc(2)?,
            clamp: r.clamp()?,
            d: r.dst()?,
        },
        Arm::FmaRscale => Op::FmaRscale {
            a: r.fsrc(0)?,
            b: r.fsrc(1)?,
            c: r.fsrc(2)?,
            s: r.val(3)?,
            kind: match name {
                "FMA_RSCALE.f32" => Rscale::Plain,
                "FMA_RSCALE_N.f32" => Rscale::N,
                "FMA_RSCALE_LEFT.f32" => Rscale::Left,
                _ => Rscale::Scale16,
            },
            clamp: r.clamp()?,
            d: r.dst()?,
        },
        Arm::FUnary => {
            let op = match name {
                "FRCP.f32" => FUn::Frcp,
                "FRSQ.f32" => FUn::Frsq,
                "FLOGD.f32" => FUn::Flogd,
                "FREXPM.f32" | "FREXPE.f32" => {
                    if r.flag("sqrt") {
                        return Err(r.unsupported(".sqrt (format undocumented)"));
                    }
                    let log = r.flag("log");
                    if name == "FREXPM.f32" {
                        FUn::Frexpm { log }
                    } else {
                        FUn::Frexpe { log }
                    }
                }
                "FROUND.f32" => FUn::Fround(r.round()?),
                "F32_TO_S32" => FUn::ToS32(r.round()?),
                "F32_TO_U32" => FUn::ToU32(r.round()?),
                "F16_TO_F32" => FUn::Canon,
                _ => FUn::Flush {
                    nan: match r.need_text("nan_mode")? {
                        "none" => 0,
                        "flush_nan" => 1,
                        "quiet_nan" => 2,
                        t => return Err(r.unsupported(format!("nan_mode .{t}"))),
                    },
                    ftz: r.flag("ftz"),
                    inf: r.flag("flush_inf"),
                },
            };
            Op::FUnary {
                op,
                a: r.fsrc(0)?,
                d: r.dst()?,
            }
        }
        Arm::F16ToInt => Op::FUnary {
            op: if name == "F16_TO_S32" {
                FUn::ToS32(r.round()?)
            } else {
                FUn::ToU32(r.round()?)
            },
            a: r.fsrc(0)?,
            d: r.dst()?,
        },
        Arm::FExp => Op::FExp {
            a: r.val(0)?,
            b: r.fsrc(1)?,
            clamp: r.clamp()?,
            d: r.dst()?,
        },
        Arm::Ldexp => Op::Ldexp {
            a: r.fsrc(0)?,
            b: r.val(1)?,
            round: r.round()?,
            d: r.dst()?,
        },
        Arm::V2F32ToV2F16 => Op::V2F32ToV2F16 {
            a: r.fsrc(0)?,
            b: r.fsrc(1)?,
            round: r.round()?,
            clamp: r.clamp()?,
            d: r.dst()?,
        },
        Arm::FCmp => Op::FCmp {
            cond: r.cond(false)?,
            and: name.starts_with("FCMP_AND"),
            res: r.result_value(32)?,
            a: r.fsrc(0)?,
            b: r.fsrc(1)?,
            c: r.val(2)?,
            d: r.dst()?,
        },
        Arm::ICmp => Op::ICmp {
            cond: r.cond(true)?,
            signed,
            and: name.starts_with("ICMP_AND"),
            res: r.result_value(32)?,
            a: r.isrc(0, signed)?,
            b: r.isrc(1, signed)?,
            c: r.val(2)?,
            d: r.dst()?,
        },
        Arm::CSel => {
            let ty = match name {
                "CSEL.f32" => CmpType::Float,
                "CSEL.s32" => CmpType::Signed,
                _ => CmpType::Unsigned,
            };
            Op::CSel {
                cond: r.cond(ty != CmpType::Float)?,
                ty,
                a: r.val(0)?,
                b: r.val(1)?,
                t: r.val(2)?,
                f: r.val(3)?,
                d: r.dst()?,
            }
        }
        Arm::Mux => Op::Mux {
            mode: mux_mode(r)?,
            a: r.val(0)?,
            b: r.val(1)?,
            m: r.val(2)?,
            d: r.dst()?,
        },
        Arm::IBinary => {
            let sat = r.flag("saturate");
            let op = match (name, sat) {
                ("IADD.u32", false) | ("IADD.s32", false) => IBin::Add,
                ("IADD.u32", true) => IBin::AddSatU,
                ("IADD.s32", true) => IBin::AddSatS,
                ("ISUB.u32", false) | ("ISUB.s32", false) => IBin::Sub,
                ("ISUB.u32", true) => IBin::SubSatU,
                ("ISUB.s32", true) => IBin::SubSatS,
                ("IMUL.i32", false) | ("IMUL.s32", false) => IBin::Mul,
                ("IMUL.s32", true) => IBin::MulSatS,
                ("HADD.u32", _) => IBin::HaddU {
                    round: r.flag("rhadd"),
                },
                ("HADD.s32", _) => IBin::HaddS {
                    round: r.flag("rhadd"),
                },
                _ => return Err(r.unsupported(".saturate (signedness undocumented)")),
            };
            Op::IBinary {
                op,
                a: r.isrc(0, signed)?,
                b: r.isrc(1, signed)?,
                d: r.dst()?,
            }
        }
        Arm::MkVec16 => Op::IBinary {
            op: IBin::MkVec16,
            a: r.isrc16(0, false)?,
            b: r.isrc16(1, false)?,
            d: r.dst()?,
        },
        Arm::MkVec8 => Op::MkVec8 {
            a: r.isrc(0, false)?,
            b: r.isrc(1, false)?,
            c: r.val(2)?,
            d: r.dst()?,
        },
        Arm::IAddImm => Op::IAddImm {
            a: r.val(0)?,
            imm: r.imm(0)? as u32,
            d: r.dst()?,
        },
        Arm::IUnary => {
            let op = match name {
                "MOV.i32" => IUn::Mov,
                "CLZ.u32" => IUn::Clz,
                "POPCOUNT.i32" => IUn::Popcount,
                "BITREV.i32" => IUn::Bitrev,
                "IABS.s32" => IUn::Iabs,
                "NOT_OLD.i32" => IUn::Not,
                "FSIN_TABLE.u6" => IUn::FsinTable,
                _ => IUn::FcosTable,
            };
            Op::IUnary {
                op,
                a: r.isrc(0, signed)?,
                d: r.dst()?,
            }
        }
        Arm::IntToF32 => Op::IUnary {
            op: IUn::ToF32 {
                signed: name == "S32_TO_F32",
                round: r.round()?,
            },
            a: r.isrc(0, name == "S32_TO_F32")?,
            d: r.dst()?,
        },
        Arm::SmallInt => {
            let s = name.starts_with('S');
            Op::IUnary {
                op: if name.ends_with("F32") {
                    IUn::ToF32 {
                        signed: s,
                        round: Round::Rte,
                    }
                } else {
                    IUn::Mov
                },
                a: if name.contains("16") {
                    r.isrc16(0, s)?
                } else {
                    r.isrc(0, s)?
                },
                d: r.dst()?,
            }
        }
        Arm::Shift32 => Op::Shift {
            dir: shift_dir(r),
            logic: shift_logic(n),
            a: r.isrc(0, false)?,
            s: r.lanes_src(1)?,
            b: r.val(2)?,
            bnot: if r.not(2)? { !0 } else { 0 },
            rnot: if r.flag("not_result") { !0 } else { 0 },
            d: r.dst()?,
        },
        Arm::I64 => {
            let sat = r.flag("saturate");
            let op = match (name, sat) {
                ("IADD.u64" | "IADD.s64", false) => I64::Add,
                ("ISUB.u64" | "ISUB.s64", false) => I64::Sub,
                ("IADD.u64", true) => I64::AddSatU,
                ("IADD.s64", true) => I64::AddSatS,
                ("ISUB.u64", true) => I64::SubSatU,
                _ => I64::SubSatS,
            };
            Op::I64 {
                op,
                a: r.src64(0, signed)?,
                b: r.src64(1, signed)?,
                d: r.dst64()?,
            }
        }
        Arm::Shaddx => Op::I64 {
            op: I64::Shaddx(r.imm(0)? as u8 & 7),
            a: r.src64(0, signed)?,
            b: r.src64(1, signed)?,
            d: r.dst64()?,
        },
        Arm::Imuld => {
            if r.flag("saturate") {
                return Err(r.unsupported(".saturate"));
            }
            Op::Imuld {
                a: r.isrc(0, false)?,
                b: r.isrc(1, false)?,
                d: r.dst64()?,
            }
        }
        Arm::Wmask => {
            if r.need_text("subgroup")? != "subgroup16" {
                return Err(r.unsupported("subgroup size other than 16"));
            }
            Op::Wmask {
                a: r.val(0)?,
                d: r.dst()?,
            }
        }
        Arm::Clper => {
            if r.need_text("subgroup")? != "subgroup16" {
                return Err(r.unsupported("subgroup size other than 16"));
            }
            let xor = match r.need_text("lane_op")? {
                "none" => false,
                "xor" => true,
                t => return Err(r.unsupported(format!("lane_op .{t} (undocumented)"))),
            };
            let inactive = inactive_value(r)?;
            Op::Clper {
                a: r.val(0)?,
                b: r.lanes_src(1)?,
                xor,
                inactive,
                d: r.dst()?,
            }
        }
        Arm::Shift64 => Op::Shift64 {
            dir: shift_dir(r),
            logic: shift_logic(n),
            a: r.src64(0, false)?,
            s: r.lanes_src(1)?,
            b: r.pair(2)?,
            bnot: if r.not(2)? { !0 } else { 0 },
            rnot: if r.flag("not_result") { !0 } else { 0 },
            d: r.dst64()?,
        },
        Arm::Not64 => Op::Not64 {
            a: r.pair(0)?,
            d: r.dst64()?,
        },
        Arm::Idp => Op::Idp {
            signed: name == "IDP.v4s8",
            saturate: r.flag("saturate"),
            a: r.val(0)?,
            b: r.val(1)?,
            c: r.val(2)?,
            d: r.dst()?,
        },
        Arm::Atomic => super::atomic::resolve_atomic(r)?,
        Arm::Load => load(r)?,
        Arm::Tex => super::tex::resolve_tex(r)?,
        Arm::Store => {
            let bytes = access_bytes(n);
            let sr = r.instr.staging.first().copied();
            let sr = sr.ok_or_else(|| r.unsupported("missing staging run"))?;
            let need = bytes.div_ceil(4) as u8;
            if sr.count != need || u32::from(sr.base) + u32::from(sr.count) > 64 {
                return Err(r.unsupported(format!(
                    "staging run of {} registers for a {}-byte store",
                    sr.count, bytes
                )));
            }
            Op::Store {
                addr: r.pair(0)?,
                offset: r.imm(0)?,
                bytes,
                base: sr.base,
            }
        }
        Arm::Branchz => {
            let t = r.combine_text(0)?;
            let mask = super::assume::branch_combine_mask(t)
                .ok_or_else(|| r.unsupported(format!("combine .{t} (undocumented)")))?;
            Op::Branch {
                cond: r.val(0)?,
                mask,
                eq: r.flag("eq"),
                target: r.index as i64 + 1 + r.imm(0)?,
            }
        }
        Arm::Discard => Op::Discard {
            cond: r.cond(false)?,
            a: r.fsrc(0)?,
            b: r.fsrc(1)?,
        },
        Arm::Vector => return super::vops::resolve_vector(r),
    })
}

/// `MUX` mode.
pub(crate) fn mux_mode(r: &Res<'_>) -> Result<MuxMode, SimError> {
    Ok(match r.need_text("mux")? {
        "neg" => MuxMode::Neg,
        "int_zero" => MuxMode::IntZero,
        "fp_zero" => MuxMode::FpZero,
        "bit" => MuxMode::Bit,
        t => return Err(r.unsupported(format!("mux .{t}"))),
    })
}

/// Whether a mnemonic is one of the six shift instructions.
pub(crate) fn is_shift(name: &str) -> bool {
    [
        "LSHIFT_AND.",
        "LSHIFT_OR.",
        "LSHIFT_XOR.",
        "RSHIFT_AND.",
        "RSHIFT_OR.",
        "RSHIFT_XOR.",
    ]
    .iter()
    .any(|p| name.starts_with(p))
}

/// Direction of a shift instruction (`.signed` makes right shifts arithmetic).
pub(crate) fn shift_dir(r: &Res<'_>) -> ShiftDir {
    if r.name().starts_with('L') {
        ShiftDir::Left
    } else if r.flag("signed") {
        ShiftDir::RightArith
    } else {
        ShiftDir::RightLogical
    }
}

/// Bitwise part of a shift instruction.
pub(crate) fn shift_logic(name: &str) -> Logic {
    if name.contains("_AND") {
        Logic::And
    } else if name.contains("_OR") {
        Logic::Or
    } else {
        Logic::Xor
    }
}

/// Value of the `inactive_result` modifier (hex values of ISA.xml's enum names).
fn inactive_value(r: &Res<'_>) -> Result<u32, SimError> {
    let t = r.need_text("inactive_result")?;
    Ok(match t {
        "zero" => 0,
        "umax" => 0xFFFF_FFFF,
        "i1" => 1,
        "v2i1" => 0x0001_0001,
        "smin" => 0x8000_0000,
        "smax" => 0x7FFF_FFFF,
        "v2smin" => 0x8000_8000,
        "v2smax" => 0x7FFF_7FFF,
        "v4smin" => 0x8080_8080,
        "v4smax" => 0x7F7F_7F7F,
        "f1" => 0x3F80_0000,
        "v2f1" => 0x3C00_3C00,
        "infn" => 0xFF80_0000,
        "inf" => 0x7F80_0000,
        "v2infn" => 0xFC00_FC00,
        "v2inf" => 0x7C00_7C00,
        _ => return Err(r.unsupported(format!("inactive_result .{t}"))),
    })
}

/// Access size in bytes of `LOAD.iN` / `STORE.iN`.
fn access_bytes(name: &str) -> u32 {
    // The digits after the last `.i` (a byte search: no substring searcher per word).
    let b = name.as_bytes();
    let at = (1..b.len())
        .rev()
        .find(|&k| b[k - 1] == b'.' && b[k] == b'i');
    let bits: u32 = at
        .and_then(|k| name.get(k + 1..))
        .and_then(|s| s.parse().ok())
        .unwrap_or(32);
    bits / 8
}

/// `LOAD.iN` with its `load_lane_*` placement (SEMANTICS.md §8).
fn load(r: &Res<'_>) -> Result<Op, SimError> {
    let bytes = access_bytes(r.name());
    let other;
    let lane_mod = match bytes {
        1 => "load_lane_8_bit",
        2 => "load_lane_16_bit",
        3 => "load_lane_24_bit",
        4 => "load_lane_32_bit",
        6 => "load_lane_48_bit",
        8 => "load_lane_64_bit",
        12 => "load_lane_96_bit",
        16 => "load_lane_128_bit",
        _ => {
            other = format!("load_lane_{}_bit", bytes * 8);
            &other
        }
    };
    let lane = r.text(lane_mod)?.unwrap_or("identity");
    let unsigned = r.flag("unsigned");
    let bits = bytes * 8;
    // (extension width, shift) of the placement.
    let (width, shift) = match lane {
        "identity" => (bits, 0),
        "b0" | "b1" | "b2" | "b3" => (8, 8 * u32::from(lane.as_bytes()[1] - b'0')),
        "h0" => (16, 0),
        "h1" => (16, 16),
        "w0" => (32, 0),
        "d0" => (64, 0),
        t => return Err(r.unsupported(format!("load lane .{t}"))),
    };
    if width < bits {
        return Err(r.unsupported(format!("load lane .{lane} for {bits} bits")));
    }
    let need = (width + shift).div_ceil(32) as u8;
    let sr = r.instr.staging.first().copied();
    let sr = sr.ok_or_else(|| r.unsupported("missing staging run"))?;
    if sr.count != need || u32::from(sr.base) + u32::from(sr.count) > 64 {
        return Err(r.unsupported(format!(
            "staging run of {} registers for .{lane} of a {bits}-bit load",
            sr.count
        )));
    }
    Ok(Op::Load {
        addr: r.pair(0)?,
        offset: r.imm(0)?,
        bytes,
        place: LoadPlace {
            width,
            shift,
            unsigned,
        },
        base: sr.base,
        count: sr.count,
    })
}
