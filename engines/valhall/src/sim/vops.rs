//! The vector half of the instruction table: `v2f16`, `v2i16`/`v2u16`/`v2s16` and
//! `v4i8`/`v4u8`/`v4s8` forms (SEMANTICS.md §2.1 swizzles, §3–§6 per lane).

use super::op::{CmpType, MuxMode, Op, VOp};
use super::ops::{is_shift, mux_mode, shift_dir, shift_logic};
use super::resolve::Res;
use super::SimError;

/// Lane width of a vector mnemonic (`.v2…16` → 16, `.v4…8` → 8).
fn width_of(name: &str) -> Option<u8> {
    let ty = name.rsplit('.').next()?;
    if ty.starts_with("v2") && ty.ends_with("16") {
        Some(16)
    } else if ty.starts_with("v4") && ty.ends_with('8') {
        Some(8)
    } else {
        None
    }
}

/// Builds the operation of a vector instruction, or `Unsupported`.
pub(crate) fn resolve_vector(r: &Res<'_>) -> Result<Op, SimError> {
    let name = r.name();
    let signed = super::assume::widen_is_signed(name);
    let unsupported = || r.unsupported("instruction not implemented by the simulator");
    let base = name.split('.').next().unwrap_or("");
    // Conversions have no type suffix.
    match name {
        "V2F16_TO_V2S16" | "V2F16_TO_V2U16" | "V2S16_TO_V2F16" | "V2U16_TO_V2F16" => {
            let round = r.round()?;
            let op = match name {
                "V2F16_TO_V2S16" => VOp::FToS(round),
                "V2F16_TO_V2U16" => VOp::FToU(round),
                "V2S16_TO_V2F16" => VOp::SToF(round),
                _ => VOp::UToF(round),
            };
            let s = name.starts_with("V2S16");
            let a = r.vsrc(0, 16, s)?;
            return Ok(Op::Vec {
                op,
                width: 16,
                a,
                b: a,
                clamp: super::float::Clamp::None,
                d: r.dst()?,
            });
        }
        "V2S8_TO_V2S16" | "V2U8_TO_V2U16" | "V2S8_TO_V2F16" | "V2U8_TO_V2F16" => {
            let s = name.starts_with("V2S8");
            let op = match (name.ends_with("F16"), s) {
                (false, _) => VOp::Mov,
                (true, true) => VOp::SToF(super::float::Round::Rte),
                (true, false) => VOp::UToF(super::float::Round::Rte),
            };
            let a = r.vsrc(0, 16, s)?;
            return Ok(Op::Vec {
                op,
                width: 16,
                a,
                b: a,
                clamp: super::float::Clamp::None,
                d: r.dst()?,
            });
        }
        _ => {}
    }
    let Some(width) = width_of(name) else {
        return Err(unsupported());
    };
    let w = u32::from(width);
    let float = name.ends_with("f16");
    let sat = r.flag("saturate");
    let clamp = r.clamp()?;
    let d = r.dst()?;
    let bin = |op: VOp| -> Result<Op, SimError> {
        Ok(Op::Vec {
            op,
            width,
            a: r.vsrc(0, w, signed)?,
            b: r.vsrc(1, w, signed)?,
            clamp,
            d,
        })
    };
    let un = |op: VOp| -> Result<Op, SimError> {
        let a = r.vsrc(0, w, signed)?;
        Ok(Op::Vec {
            op,
            width,
            a,
            b: a,
            clamp,
            d,
        })
    };
    match base {
        "FADD" if float => bin(VOp::FAdd),
        "FMIN" if float => bin(VOp::FMin),
        "FMAX" if float => bin(VOp::FMax),
        "FROUND" if float => un(VOp::Fround(r.round()?)),
        "FMA" if float => Ok(Op::VFma {
            a: r.vsrc(0, 16, false)?,
            b: r.vsrc(1, 16, false)?,
            c: r.vsrc(2, 16, false)?,
            clamp,
            d,
        }),
        "FADD_IMM" if float => Ok(Op::VImm {
            op: VOp::FAdd,
            width,
            a: r.val(0)?,
            imm: r.imm(0)? as u32,
            d,
        }),
        "IADD_IMM" => Ok(Op::VImm {
            op: VOp::Add,
            width,
            a: r.val(0)?,
            imm: r.imm(0)? as u32,
            d,
        }),
        "IADD" | "ISUB" => {
            let add = base == "IADD";
            bin(match (add, sat, signed) {
                (true, false, _) => VOp::Add,
                (true, true, false) => VOp::AddSatU,
                (true, true, true) => VOp::AddSatS,
                (false, false, _) => VOp::Sub,
                (false, true, false) => VOp::SubSatU,
                (false, true, true) => VOp::SubSatS,
            })
        }
        "IMUL" if !sat => bin(VOp::Mul),
        "HADD" => {
            let round = r.flag("rhadd");
            bin(if signed {
                VOp::HaddS { round }
            } else {
                VOp::HaddU { round }
            })
        }
        "CLZ" => un(VOp::Clz),
        "IABS" => un(VOp::Iabs),
        "MUX" => Ok(Op::VMux {
            mode: match mux_mode(r)? {
                MuxMode::FpZero if width == 8 => {
                    return Err(r.unsupported(".fp_zero on 8-bit lanes"))
                }
                m => m,
            },
            width,
            a: r.vsrc(0, w, false)?,
            b: r.vsrc(1, w, false)?,
            m: r.vsrc(2, w, false)?,
            d,
        }),
        "ICMP_OR" | "ICMP_AND" | "FCMP_OR" | "FCMP_AND" => {
            let ty = if float {
                CmpType::Float
            } else if signed {
                CmpType::Signed
            } else {
                CmpType::Unsigned
            };
            Ok(Op::VCmp {
                cond: r.cond(!float)?,
                ty,
                width,
                and: base.ends_with("AND"),
                res: r.result_value(w)?,
                a: r.vsrc(0, w, signed)?,
                b: r.vsrc(1, w, signed)?,
                c: r.val(2)?,
                d,
            })
        }
        "CSEL" if width == 16 => {
            let ty = if float {
                CmpType::Float
            } else if signed {
                CmpType::Signed
            } else {
                CmpType::Unsigned
            };
            Ok(Op::VCSel {
                cond: r.cond(!float)?,
                ty,
                a: r.vsrc(0, 16, false)?,
                b: r.vsrc(1, 16, false)?,
                t: r.vsrc(2, 16, false)?,
                f: r.vsrc(3, 16, false)?,
                d,
            })
        }
        _ if is_shift(name) => Ok(Op::VShift {
            dir: shift_dir(r),
            logic: shift_logic(name),
            width,
            a: r.vsrc(0, w, false)?,
            s: r.lanes_src(1)?,
            b: r.val(2)?,
            bnot: if r.not(2)? { !0 } else { 0 },
            rnot: if r.flag("not_result") { !0 } else { 0 },
            d,
        }),
        _ => Err(unsupported()),
    }
}
