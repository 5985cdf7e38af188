//! The reference interpreter's ALU: every 32-bit float, conversion, integer and bit opcode.
//!
//! Semantics authority (in order): ../shared/spec/tgsi/tgsi.rst; where it is silent, Mesa's
//! interpreter as EXEC-NOTES.md describes it, minus its bugs; where the result is undefined,
//! the lane is flagged in `undefined` instead of inventing a value. Each opcode is a small
//! scalar function in [`float`], [`special`], [`int`] or [`convert`] whose doc comment cites
//! its section; [`eval`] selects the function and a lane loop from [`kernel`] once per call.
//!
//! The double and 64-bit integer opcodes are in [`double`] and [`int64`], with their
//! channel-pair layout and lane loops in [`wide`].
//!
//! Not here: `_SAT` (the core clamps after `eval`), texture, memory, control-flow,
//! derivative, kill and inter-lane opcodes. UP2US, UP4B and UP4UB are documented as "TBD"
//! and not implemented by Mesa either, so they are unsupported.

pub mod convert;
pub mod double;
pub mod float;
pub mod int;
pub mod int64;
pub mod kernel;
pub mod special;
pub mod wide;

use shaderdiff_model::Opcode;

use super::lanes::{Mask, Vals};
use kernel::{chan1, chan2, map1, map2, map3, map4, rep1, rep2, rep_vec1, rep_vec2};
pub use shaderdiff_model::check::alu::{fetch_type, is_alu};

/// `eval` was asked for an opcode it does not implement (not an ALU opcode, no specified
/// semantics such as UP2US), or was given fewer sources than the opcode has.
#[derive(Debug, Clone, thiserror::Error)]
#[error("the ALU cannot evaluate {0}: not a 32-bit ALU opcode, semantics unspecified, or too few sources")]
pub struct AluUnsupported(pub Opcode);

/// Evaluates one ALU instruction for all [`LANES`](super::lanes::LANES) lanes of a chunk.
///
/// * `srcs[k]` is source k already fetched: swizzled (channel c holds component `swizzle[c]`)
///   and with modifiers applied according to [`fetch_type`]`(op, k)`. At least `num_src`
///   sources must be given.
/// * Channels enabled in `writemask` (bit c = channel c) of `out` receive the result for every
///   lane (inactive lanes included: the caller masks at store time); other channels are left
///   untouched. `_SAT` is not applied.
/// * Bit `lane` of `undefined[c]` is **set** (never cleared) for each lane whose channel-c
///   result the spec leaves undefined (IDIV by 0, F2I of NaN, RSQ of ≤ 0 ...). A value is
///   still stored there, but it carries no meaning.
/// * Componentwise opcodes compute channel c from channel c of each source. Replicate opcodes
///   (RCP, RSQ, SQRT, EX2, LG2, POW, SIN, COS) read channel 0 of each source; DP2/DP3/DP4/DPH
///   read channels 0..n-1, PK2H/PK2US channels 0-1 and PK4B/PK4UB channels 0-3; all of them
///   write one value to every enabled channel (tgsi.rst "Basics", EXEC-NOTES.md §1).
///   LIT, EXP, LOG, DST, XPD and UP2H compute each channel by its own formula.
///
/// Never panics and never traps (division by zero and INT_MIN / -1 are handled).
///
/// # Errors
/// [`AluUnsupported`] if `op` is not an opcode [`is_alu`] accepts, or `srcs` holds fewer
/// than the opcode's `num_src` sources. `out` and `undefined` are then unchanged.
pub fn eval(
    op: Opcode,
    srcs: &[Vals],
    writemask: u8,
    out: &mut Vals,
    undefined: &mut [Mask; 4],
) -> Result<(), AluUnsupported> {
    use self::{convert as cv, float as fl, int as it, special as sp};
    use Opcode::*;

    if srcs.len() < op.info().num_src as usize {
        return Err(AluUnsupported(op));
    }
    let (s, w, o, u) = (srcs, writemask & 0xF, out, undefined);
    match op {
        // --- Float arithmetic (float.rs) ---
        MOV => map1(s, w, o, u, fl::mov),
        ABS => map1(s, w, o, u, fl::abs),
        ADD => map2(s, w, o, u, fl::add),
        SUB => map2(s, w, o, u, fl::sub),
        MUL => map2(s, w, o, u, fl::mul),
        DIV => map2(s, w, o, u, fl::div),
        MAD => map3(s, w, o, u, fl::mad),
        FMA => map3(s, w, o, u, fl::fma),
        LRP => map3(s, w, o, u, fl::lrp),
        MIN => map2(s, w, o, u, fl::min),
        MAX => map2(s, w, o, u, fl::max),
        SLT => map2(s, w, o, u, fl::slt),
        SGE => map2(s, w, o, u, fl::sge),
        SGT => map2(s, w, o, u, fl::sgt),
        SLE => map2(s, w, o, u, fl::sle),
        SEQ => map2(s, w, o, u, fl::seq),
        SNE => map2(s, w, o, u, fl::sne),
        FSLT => map2(s, w, o, u, fl::fslt),
        FSGE => map2(s, w, o, u, fl::fsge),
        FSEQ => map2(s, w, o, u, fl::fseq),
        FSNE => map2(s, w, o, u, fl::fsne),
        CMP => map3(s, w, o, u, fl::cmp),
        SSG => map1(s, w, o, u, fl::ssg),
        FLR => map1(s, w, o, u, fl::flr),
        CEIL => map1(s, w, o, u, fl::ceil),
        TRUNC => map1(s, w, o, u, fl::trunc),
        ROUND => map1(s, w, o, u, fl::round),
        FRC => map1(s, w, o, u, fl::frc),
        LDEXP => map2(s, w, o, u, fl::ldexp),
        RCP => rep1(s, w, o, u, fl::rcp),
        RSQ => rep1(s, w, o, u, fl::rsq),
        SQRT => rep1(s, w, o, u, fl::sqrt),
        DP2 => rep_vec2(s, w, o, u, fl::dp2),
        DP3 => rep_vec2(s, w, o, u, fl::dp3),
        DP4 => rep_vec2(s, w, o, u, fl::dp4),
        DPH => rep_vec2(s, w, o, u, fl::dph),
        DST => chan2(s, w, o, u, fl::dst),
        XPD => chan2(s, w, o, u, fl::xpd),
        // --- Transcendentals, LIT/EXP/LOG (special.rs) ---
        EX2 => rep1(s, w, o, u, sp::ex2),
        LG2 => rep1(s, w, o, u, sp::lg2),
        POW => rep2(s, w, o, u, sp::pow),
        SIN => rep1(s, w, o, u, sp::sin),
        COS => rep1(s, w, o, u, sp::cos),
        EXP => chan1(s, w, o, u, sp::exp),
        LOG => chan1(s, w, o, u, sp::log),
        LIT => chan1(s, w, o, u, sp::lit),
        // --- Conversions and packing (convert.rs) ---
        I2F => map1(s, w, o, u, cv::i2f),
        U2F => map1(s, w, o, u, cv::u2f),
        F2I => map1(s, w, o, u, cv::f2i),
        F2U => map1(s, w, o, u, cv::f2u),
        ARL => map1(s, w, o, u, cv::arl),
        ARR => map1(s, w, o, u, cv::arr),
        UARL => map1(s, w, o, u, cv::uarl),
        PK2H => rep_vec1(s, w, o, u, cv::pk2h),
        PK2US => rep_vec1(s, w, o, u, cv::pk2us),
        PK4B => rep_vec1(s, w, o, u, cv::pk4b),
        PK4UB => rep_vec1(s, w, o, u, cv::pk4ub),
        UP2H => chan1(s, w, o, u, cv::up2h),
        // --- Integer and bit opcodes (int.rs) ---
        UADD => map2(s, w, o, u, it::uadd),
        UMUL => map2(s, w, o, u, it::umul),
        UMAD => map3(s, w, o, u, it::umad),
        IMUL_HI => map2(s, w, o, u, it::imul_hi),
        UMUL_HI => map2(s, w, o, u, it::umul_hi),
        IDIV => map2(s, w, o, u, it::idiv),
        MOD => map2(s, w, o, u, it::imod),
        UDIV => map2(s, w, o, u, it::udiv),
        UMOD => map2(s, w, o, u, it::umod),
        INEG => map1(s, w, o, u, it::ineg),
        IABS => map1(s, w, o, u, it::iabs),
        ISSG => map1(s, w, o, u, it::issg),
        IMAX => map2(s, w, o, u, it::imax),
        IMIN => map2(s, w, o, u, it::imin),
        UMAX => map2(s, w, o, u, it::umax),
        UMIN => map2(s, w, o, u, it::umin),
        ISGE => map2(s, w, o, u, it::isge),
        ISLT => map2(s, w, o, u, it::islt),
        USEQ => map2(s, w, o, u, it::useq),
        USNE => map2(s, w, o, u, it::usne),
        USGE => map2(s, w, o, u, it::usge),
        USLT => map2(s, w, o, u, it::uslt),
        NOT => map1(s, w, o, u, it::not),
        AND => map2(s, w, o, u, it::and),
        OR => map2(s, w, o, u, it::or),
        XOR => map2(s, w, o, u, it::xor),
        SHL => map2(s, w, o, u, it::shl),
        USHR => map2(s, w, o, u, it::ushr),
        ISHR => map2(s, w, o, u, it::ishr),
        UCMP => map3(s, w, o, u, it::ucmp),
        UBFE => map3(s, w, o, u, it::ubfe),
        IBFE => map3(s, w, o, u, it::ibfe),
        BFI => map4(s, w, o, u, it::bfi),
        BREV => map1(s, w, o, u, it::brev),
        POPC => map1(s, w, o, u, it::popc),
        LSB => map1(s, w, o, u, it::lsb),
        UMSB => map1(s, w, o, u, it::umsb),
        IMSB => map1(s, w, o, u, it::imsb),
        // --- Double and 64-bit integer opcodes (wide.rs) ---
        _ if wide::eval(op, s, w, o, u) => {}
        _ => return Err(AluUnsupported(op)),
    }
    Ok(())
}
