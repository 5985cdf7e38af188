//! Lowering of every 32-bit ALU opcode to Cranelift IR for the `jit` engine.
//!
//! An independent second implementation of the semantics the reference interpreter
//! (`shaderdiff_oracles::interp::alu`) fixes for tgsi.rst's ALU opcodes: every result the
//! interpreter calls *defined* is reproduced bit for bit (NaN results match as "some NaN");
//! undefined results (IDIV by 0, F2I of NaN, RSQ of ≤ 0 ...) are whatever the lowering gives,
//! and never trap.
//!
//! Each channel of an operand is one `i32x4`: one 32-bit lane per invocation of a quad, raw
//! bits. How each opcode is lowered on x86-64 (Cranelift 0.135):
//!
//! * **SIMD** (`f32x4`/`i32x4`/`f64x2` instructions): all float arithmetic, comparisons,
//!   MIN/MAX (explicit NaN-ignoring selects), CMP/SSG, RCP, SQRT, RSQ and LDEXP (binary64
//!   detour), DP*/DST/XPD, FLR/CEIL/TRUNC/ROUND/FRC, conversions and ARL/ARR, PK2H/UP2H and
//!   PK2US/PK4B/PK4UB (bit tricks, exact binary64 products), integer add/mul/min/max/compare/
//!   logic, INEG/IABS/ISSG/UCMP, IMUL_HI/UMUL_HI (widening `i64x2` multiplies), BREV/POPC
//!   (shift-and-mask tricks), LSB/UMSB/IMSB (exponent of an exact int → float conversion),
//!   EXP.x/y, LOG.x/y, LIT.x/y/w, SHL and BFI (multiplications by `2^count`).
//! * **Per-lane scalar** (extractlane → scalar op → insertlane): USHR/ISHR, UBFE/IBFE
//!   (x86-64 vector shifts take one count for all lanes), IDIV/MOD/UDIV/UMOD (no vector
//!   division; divisors are made safe first, so nothing traps).
//! * **Libcalls, one per quad** (all four lanes through a stack slot): EX2, LG2, POW, SIN, COS,
//!   EXP.z, LOG.z, LIT.z (see `libcalls.rs`).
//!   Cranelift itself calls `fmaf` (FMA without the FMA extension) and `floorf`/`ceilf`/
//!   `truncf`/`nearbyintf` (rounding without SSE4.1); [`cranelift_libcall_defs`] provides them.
//!
//! * **64-bit** (double and 64-bit integer opcodes): native `i64`/`f64` code per invocation,
//!   see `wide.rs`.
//!
//! Not here: `_SAT` (the caller clamps), source modifiers (applied at fetch), texture,
//! memory, control flow, derivatives. UP2US, UP4B, UP4UB are "TBD" in tgsi.rst and unsupported,
//! as in the interpreter.

mod convert;
mod float;
mod int;
mod libcalls;
mod simd;
mod special;
mod wide;

pub use libcalls::{cranelift_libcall_defs, libcall_defs, LibcallDef, Libcalls};
pub(crate) use simd::cast;

use cranelift_codegen::ir::condcodes::{FloatCC, IntCC};
use cranelift_codegen::ir::{FuncRef, InstBuilder, Value};
use shaderdiff_model::Opcode;

use float::{fbin, fop, Rounding};
use int::{ibin, Div, Shift};

/// What [`lower`] needs from the compile pipeline: the function being built and the libcalls
/// declared in it.
pub struct AluCtx<'a, 'f> {
    /// Builder positioned where the opcode's code goes (any block; [`lower`] adds no blocks).
    pub b: &'a mut cranelift_frontend::FunctionBuilder<'f>,
    /// [`libcall_defs`] entries declared in this function.
    pub libcalls: &'a Libcalls,
}

/// [`lower`] was asked for an opcode it does not lower: not a 32-bit ALU opcode
/// ([`is_supported`] is false), fewer sources than the opcode has, or a transcendental whose
/// libcall is missing from [`AluCtx::libcalls`].
#[derive(Debug, Clone, thiserror::Error)]
#[error("jit does not lower {0}")]
pub struct AluUnsupported(pub Opcode);

/// Whether [`lower`] may be given `f32x4` float sources for `op`: the float opcodes whose
/// lowerings (`float`: `fbin!`, `fop!`, `fcmp`, `sel`, `splat_const`, `sign_flipped`) cast
/// every operand to the type they need.
pub fn takes_f32_sources(op: Opcode) -> bool {
    use Opcode::*;
    matches!(op, ADD | SUB | MUL | DIV | MAD | FMA | LRP | MIN | MAX)
}

/// Whether [`lower`] may return `f32x4` results for `op` (every other opcode's are `i32x4`):
/// the float opcodes whose results go straight to the destination store, which casts them
/// to the register's type.
pub fn gives_f32_results(op: Opcode) -> bool {
    use Opcode::*;
    matches!(op, ADD | SUB | MUL | DIV | MAD | FMA | LRP)
}

/// Whether [`lower`] reads only channel 0 of each source of `op` (the replicate opcodes of
/// one scalar argument: RCP RSQ SQRT EX2 LG2 SIN COS POW; tgsi.rst "Core ISA"), so that the
/// caller need fetch no other channel.
pub fn reads_x_only(op: Opcode) -> bool {
    use Opcode::*;
    matches!(op, RCP | RSQ | SQRT | EX2 | LG2 | SIN | COS | POW)
}

/// Whether [`lower`] implements `op`: exactly the opcodes the reference interpreter's ALU
/// evaluates (`shaderdiff_model::check::alu::is_alu`).
#[rustfmt::skip]
pub fn is_supported(op: Opcode) -> bool {
    use Opcode::*;
    matches!(
        op,
        // Float arithmetic, comparisons, rounding (float.rs)
        MOV | ABS | ADD | SUB | MUL | DIV | MAD | FMA | LRP | MIN | MAX
            | SLT | SGE | SGT | SLE | SEQ | SNE | FSLT | FSGE | FSEQ | FSNE
            | CMP | SSG | RCP | RSQ | SQRT | FLR | CEIL | TRUNC | ROUND | FRC | LDEXP
            | DP2 | DP3 | DP4 | DPH | DST | XPD
            // Transcendentals and LIT/EXP/LOG (special.rs)
            | EX2 | LG2 | POW | SIN | COS | EXP | LOG | LIT
            // Conversions, address loads, pack/unpack (convert.rs)
            | I2F | U2F | F2I | F2U | ARL | ARR | UARL | PK2H | UP2H | PK2US | PK4B | PK4UB
            // Integer and bit opcodes (int.rs)
            | UADD | UMUL | UMAD | IMUL_HI | UMUL_HI | IDIV | MOD | UDIV | UMOD
            | INEG | IABS | ISSG | IMAX | IMIN | UMAX | UMIN
            | ISGE | ISLT | USEQ | USNE | USGE | USLT
            | NOT | AND | OR | XOR | SHL | USHR | ISHR | UCMP
            | UBFE | IBFE | BFI | BREV | POPC | LSB | UMSB | IMSB
    ) || wide::is_wide(op)
}

/// Whether `op` is a double or 64-bit integer opcode (operands in channel pairs: the caller
/// fetches all four channels of every source).
pub fn is_wide(op: Opcode) -> bool {
    wide::is_wide(op)
}

/// How an opcode maps source channels to destination channels (tgsi.rst "Basics").
enum Shape {
    /// Channel c from channel c of each source.
    Componentwise,
    /// One value from the sources' channels, written to every enabled channel.
    Replicate,
    /// Each channel its own formula over whole source vectors.
    ChanDependent,
}

fn shape(op: Opcode) -> Shape {
    use Opcode::*;
    match op {
        RCP | RSQ | SQRT | EX2 | LG2 | POW | SIN | COS | DP2 | DP3 | DP4 | DPH | PK2H | PK2US
        | PK4B | PK4UB => Shape::Replicate,
        LIT | EXP | LOG | DST | XPD | UP2H => Shape::ChanDependent,
        _ => Shape::Componentwise,
    }
}

/// The transcendental libcall `op` needs, if any.
fn needed_libcall(op: Opcode) -> Option<&'static str> {
    use Opcode::*;
    Some(match op {
        EX2 | EXP => libcalls::EX2,
        LG2 | LOG => libcalls::LG2,
        SIN => libcalls::SIN,
        COS => libcalls::COS,
        POW | LIT => libcalls::POW,
        _ => return None,
    })
}

/// Lowers one ALU instruction.
///
/// * `srcs[k][c]`: CLIF `i32x4` (one lane per invocation of a quad, raw bits) of source k,
///   channel c, already swizzled and with modifiers applied per
///   `shaderdiff_model::check::alu::fetch_type(op, k)`; where [`takes_f32_sources`] a float
///   source may be the `f32x4` it is. At least the opcode's `num_src` sources; extra ones
///   are ignored.
/// * Returns results for the channels enabled in `writemask` (bit c = channel c) and
///   `None` for the others: `i32x4`, or `f32x4` where [`gives_f32_results`] (the
///   destination store casts to the register's type). Replicate opcodes read channel 0 of each source (DP2/DP3/DP4/DPH
///   channels 0..n-1, PK2H/PK2US 0-1, PK4B/PK4UB 0-3) and return the same value for every
///   enabled channel. `_SAT` is not applied.
///
/// Emits straight-line code only (no blocks, no traps); transcendentals call
/// [`AluCtx::libcalls`].
///
/// # Errors
/// [`AluUnsupported`] if `!is_supported(op)`, `srcs` is shorter than the opcode's source
/// count, or the transcendental libcall the opcode needs was not declared. Nothing is emitted
/// then.
pub fn lower(
    ctx: &mut AluCtx,
    op: Opcode,
    srcs: &[[Value; 4]],
    writemask: u8,
) -> Result<[Option<Value>; 4], AluUnsupported> {
    if !is_supported(op) || srcs.len() < op.info().num_src as usize {
        return Err(AluUnsupported(op));
    }
    let call = match needed_libcall(op) {
        Some(name) => Some(*ctx.libcalls.refs.get(name).ok_or(AluUnsupported(op))?),
        None => None,
    };
    if wide::is_wide(op) {
        let ldexp = ctx.libcalls.refs.get(libcalls::LDEXP64).copied();
        return wide::lower(ctx.b, op, srcs, writemask & 0xF, ldexp).ok_or(AluUnsupported(op));
    }
    let mut out = [None; 4];
    let enabled: Vec<usize> = (0..4).filter(|c| writemask >> c & 1 != 0).collect();
    if enabled.is_empty() {
        return Ok(out);
    }
    let b = &mut *ctx.b;
    match shape(op) {
        Shape::Componentwise => {
            for &c in &enabled {
                let s: Vec<Value> = srcs.iter().map(|s| s[c]).collect();
                out[c] = componentwise(b, op, &s);
            }
        }
        Shape::Replicate => {
            let v = replicate(b, op, srcs, call);
            for &c in &enabled {
                out[c] = v;
            }
        }
        Shape::ChanDependent => {
            for &c in &enabled {
                out[c] = chan_dependent(b, op, srcs, c, call);
            }
        }
    }
    // Every supported opcode has a shape arm; a hole would be a bug, reported as unsupported.
    if enabled.iter().any(|&c| out[c].is_none()) {
        return Err(AluUnsupported(op));
    }
    Ok(out)
}

/// One channel of a componentwise opcode; `s[k]` is source k's channel.
fn componentwise(b: &mut simd::Fb, op: Opcode, s: &[Value]) -> Option<Value> {
    use Opcode::*;
    let fc = |b: &mut simd::Fb, cc| float::set_one(b, cc, s[0], s[1]);
    let fmask = |b: &mut simd::Fb, cc| simd::fcmp(b, cc, s[0], s[1]);
    let imask = |b: &mut simd::Fb, cc| simd::icmp(b, cc, s[0], s[1]);
    Some(match op {
        MOV | UARL => int::bits(b, s[0]),
        ABS => float::abs(b, s[0]),
        ADD => float::add_sub(b, s[0], s[1], false),
        SUB => float::add_sub(b, s[0], s[1], true),
        MUL => fop!(b, fmul, s[0], s[1]),
        DIV => fop!(b, fdiv, s[0], s[1]),
        MAD => float::mad(b, s[0], s[1], s[2]),
        FMA => float::fma(b, s[0], s[1], s[2]),
        LRP => float::lrp(b, s[0], s[1], s[2]),
        MIN => float::min_max(b, s[0], s[1], false),
        MAX => float::min_max(b, s[0], s[1], true),
        SLT => fc(b, FloatCC::LessThan),
        SGE => fc(b, FloatCC::GreaterThanOrEqual),
        SGT => fc(b, FloatCC::GreaterThan),
        SLE => fc(b, FloatCC::LessThanOrEqual),
        SEQ => fc(b, FloatCC::Equal),
        SNE => fc(b, FloatCC::NotEqual),
        FSLT => fmask(b, FloatCC::LessThan),
        FSGE => fmask(b, FloatCC::GreaterThanOrEqual),
        FSEQ => fmask(b, FloatCC::Equal),
        FSNE => fmask(b, FloatCC::NotEqual),
        CMP => float::cmp(b, s[0], s[1], s[2]),
        SSG => float::ssg(b, s[0]),
        FLR => float::round(b, s[0], Rounding::Floor),
        CEIL => float::round(b, s[0], Rounding::Ceil),
        TRUNC => float::round(b, s[0], Rounding::Trunc),
        ROUND => float::round(b, s[0], Rounding::Nearest),
        FRC => float::frc(b, s[0]),
        LDEXP => float::scale2(b, s[0], s[1]),
        I2F => convert::i2f(b, s[0]),
        U2F => convert::u2f(b, s[0]),
        F2I => convert::f2i(b, s[0]),
        F2U => convert::f2u(b, s[0]),
        ARL => convert::arl(b, s[0]),
        ARR => convert::arr(b, s[0]),
        UADD => ibin!(b, iadd, s[0], s[1]),
        UMUL => ibin!(b, imul, s[0], s[1]),
        UMAD => int::umad(b, s[0], s[1], s[2]),
        IMUL_HI => int::mul_hi(b, s[0], s[1], true),
        UMUL_HI => int::mul_hi(b, s[0], s[1], false),
        IDIV => int::div(b, s[0], s[1], Div::SignedQuot),
        MOD => int::div(b, s[0], s[1], Div::SignedRem),
        UDIV => int::div(b, s[0], s[1], Div::UnsignedQuot),
        UMOD => int::div(b, s[0], s[1], Div::UnsignedRem),
        INEG => {
            let x = simd::iv(b, s[0]);
            b.ins().ineg(x)
        }
        IABS => {
            let x = simd::iv(b, s[0]);
            b.ins().iabs(x)
        }
        ISSG => int::issg(b, s[0]),
        IMAX => ibin!(b, smax, s[0], s[1]),
        IMIN => ibin!(b, smin, s[0], s[1]),
        UMAX => ibin!(b, umax, s[0], s[1]),
        UMIN => ibin!(b, umin, s[0], s[1]),
        ISGE => imask(b, IntCC::SignedGreaterThanOrEqual),
        ISLT => imask(b, IntCC::SignedLessThan),
        USEQ => imask(b, IntCC::Equal),
        USNE => imask(b, IntCC::NotEqual),
        USGE => imask(b, IntCC::UnsignedGreaterThanOrEqual),
        USLT => imask(b, IntCC::UnsignedLessThan),
        NOT => {
            let x = simd::iv(b, s[0]);
            b.ins().bnot(x)
        }
        AND => ibin!(b, band, s[0], s[1]),
        OR => ibin!(b, bor, s[0], s[1]),
        XOR => ibin!(b, bxor, s[0], s[1]),
        SHL => int::shift(b, s[0], s[1], Shift::Left),
        USHR => int::shift(b, s[0], s[1], Shift::RightLogical),
        ISHR => int::shift(b, s[0], s[1], Shift::RightArith),
        UCMP => int::ucmp(b, s[0], s[1], s[2]),
        UBFE => int::bfe(b, s[0], s[1], s[2], false),
        IBFE => int::bfe(b, s[0], s[1], s[2], true),
        BFI => int::bfi(b, s[0], s[1], s[2], s[3]),
        BREV => int::brev(b, s[0]),
        POPC => int::popc(b, s[0]),
        LSB => int::lsb(b, s[0]),
        UMSB => int::umsb(b, s[0]),
        IMSB => int::imsb(b, s[0]),
        _ => return None,
    })
}

/// The single value of a replicate opcode.
fn replicate(
    b: &mut simd::Fb,
    op: Opcode,
    srcs: &[[Value; 4]],
    call: Option<FuncRef>,
) -> Option<Value> {
    use Opcode::*;
    let x = srcs[0][0];
    Some(match op {
        RCP => float::rcp(b, x),
        RSQ => float::rsq(b, x),
        SQRT => float::sqrt(b, x),
        DP2 => float::dot(b, &srcs[0], &srcs[1], 2, false),
        DP3 => float::dot(b, &srcs[0], &srcs[1], 3, false),
        DP4 => float::dot(b, &srcs[0], &srcs[1], 4, false),
        DPH => float::dot(b, &srcs[0], &srcs[1], 3, true),
        EX2 | LG2 | SIN | COS => special::call1(b, call?, x),
        POW => special::call2(b, call?, x, srcs[1][0]),
        PK2H => convert::pk2h(b, &srcs[0]),
        PK2US => convert::pk2us(b, &srcs[0]),
        PK4B => convert::pk4b(b, &srcs[0]),
        PK4UB => convert::pk4ub(b, &srcs[0]),
        _ => return None,
    })
}

/// Channel `c` of a channel-dependent opcode.
fn chan_dependent(
    b: &mut simd::Fb,
    op: Opcode,
    srcs: &[[Value; 4]],
    c: usize,
    call: Option<FuncRef>,
) -> Option<Value> {
    use Opcode::*;
    Some(match op {
        LIT => special::lit(b, &srcs[0], c, call?),
        EXP => special::exp(b, &srcs[0], c, call?),
        LOG => special::log(b, &srcs[0], c, call?),
        UP2H => convert::up2h(b, &srcs[0], c),
        DST => match c {
            0 => simd::ci(b, 1.0f32.to_bits()),
            1 => fbin!(b, fmul, srcs[0][1], srcs[1][1]),
            2 => simd::iv(b, srcs[0][2]),
            _ => simd::iv(b, srcs[1][3]),
        },
        XPD => float::xpd(b, &srcs[0], &srcs[1], c),
        _ => return None,
    })
}
