//! Every modelling choice the simulator makes where ISA.xml is silent: the
//! **\[Assumption\]** items of `spec/valhall/SEMANTICS.md` and the models of undocumented
//! special-function-unit behaviour. Nothing else in `sim/` decides such a thing; each
//! function here cites the section it implements, so a rule can be corrected in one place
//! when better evidence appears (SEMANTICS.md §9 item 8).
//!
//! Functions on floats take and return Rust floats; callers turn any NaN result into
//! [`DEFAULT_NAN_F32`] / [`DEFAULT_NAN_F16`] with [`canon_f32`] / [`canon_f16`].

use super::float::{f64_to_f32, Round};
use crate::WriteMask;

// ---------------------------------------------------------------------------------------
// §1 Execution model
// ---------------------------------------------------------------------------------------

/// The reconvergence model of SEMANTICS.md §1.2 **\[Assumption\]**: the next instruction a
/// warp executes is the one at the smallest PC among its live threads, run by exactly
/// the threads at that PC. `pcs[l]` is lane `l`'s instruction index, `live` the mask of
/// threads that have not finished (non-zero). Returns `(pc, active mask)`.
#[inline]
pub fn next_group(pcs: &[u32; 16], live: u16) -> (u32, u16) {
    let mut pc = u32::MAX;
    for (l, &p) in pcs.iter().enumerate() {
        if live >> l & 1 != 0 && p < pc {
            pc = p;
        }
    }
    let mut active = 0u16;
    for (l, &p) in pcs.iter().enumerate() {
        if p == pc {
            active |= 1 << l;
        }
    }
    (pc, active & live)
}

/// Message instructions (LOAD, STORE) complete synchronously, so dependency slots and the
/// `.wait*` flows have no effect, and `.reconverge` / `.discard` flows do not drive
/// execution (SEMANTICS.md §1 "Dependency slots" **\[Assumption\]**, §1.2). Returns
/// whether a flow value (index into ISA.xml's `Flow` enum) has any effect other than
/// `.end` (15): always `false`; reserved values are rejected before this is asked.
pub fn flow_has_effect(_flow: u8) -> bool {
    false
}

/// Value of special FAU entry `name` (a `FAU special page` text) for a thread, as the
/// 64-bit quantity whose `.w0`/`.w1` words the sources read (SEMANTICS.md §1 "Uniforms /
/// FAU"). **\[Assumption\]** for a compute-style simulator: `lane_id` = lane 0–15,
/// `warp_id` = index of the warp in the launch (thread / 16), every other special value
/// (`core_id`, pointers, blend descriptors, `program_counter`, …) = 0.
pub fn special_value(name: &str) -> SpecialValue {
    match name {
        "lane_id" => SpecialValue::LaneId,
        "warp_id" => SpecialValue::WarpId,
        _ => SpecialValue::Const(0),
    }
}

/// What a special FAU value is, per thread (see [`special_value`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SpecialValue {
    /// The lane number 0–15.
    LaneId,
    /// The warp index.
    WarpId,
    /// A constant 64-bit value.
    Const(u64),
}

/// High word of a 64-bit source that reads an entry of the immediate table
/// (SEMANTICS.md §1, §2.1 — the table holds 32-bit values) **\[Assumption\]**: zero, i.e.
/// the entry is zero-extended.
pub const IMMEDIATE_HIGH_WORD: u32 = 0;

/// High word of a 64-bit source reading a special value's `.w1` word: the `.w1` word is
/// the low half and the high half is 0 **\[Assumption\]** (SEMANTICS.md §1 says only that
/// `.w0`/`.w1` pick the low/high word).
pub const SPECIAL_W1_HIGH_WORD: u32 = 0;

// ---------------------------------------------------------------------------------------
// §2 Operands
// ---------------------------------------------------------------------------------------

/// Whether the lane selections of a 32/64-bit integer source (`Swizzles (32-bit)`,
/// `Swizzles (64-bit)`: `h0`, `h1`, `b0`–`b3`, `w0`) sign-extend: yes for signed
/// instruction types (mnemonic type `.s32`, `.s64`, `.v2s16`, `.v4s8`, and the
/// `S32_TO_F32` / `S8_…` / `S16_…` conversions), zero-extension otherwise (SEMANTICS.md §2.1
/// **\[Assumption, consistent with Mesa usage\]**).
pub fn widen_is_signed(mnemonic: &str) -> bool {
    let ty = mnemonic.rsplit('.').next().unwrap_or("");
    let ty_signed = ty.starts_with('s') || ty.starts_with("v2s") || ty.starts_with("v4s");
    let conv_signed = mnemonic.starts_with("S32_TO") || mnemonic.starts_with("S16_TO");
    (mnemonic.contains('.') && ty_signed) || conv_signed
}

/// The write mask applied to a 32-bit result (SEMANTICS.md §2.2): `rN.h0` / `rN.h1`
/// write the half of the result in the same position and leave the other half
/// **\[Assumption\]**. Returns the bits of the register that are replaced.
pub fn write_mask_bits(mask: WriteMask) -> u32 {
    match mask {
        WriteMask::Low => 0x0000_FFFF,
        WriteMask::High => 0xFFFF_0000,
        WriteMask::Full => 0xFFFF_FFFF,
    }
}

/// The `Combine` modes of a `BRANCHZ` condition (SEMANTICS.md §2.1, §7): `h0` / `h1` test
/// only that half \[ISA\]; `none` tests the whole 32-bit value **\[Assumption\]**. `and` and
/// `lowbits` are undocumented and rejected. Returns the bits that must be non-zero for
/// the condition to count as "non-zero".
pub fn branch_combine_mask(combine: &str) -> Option<u32> {
    match combine {
        "none" => Some(0xFFFF_FFFF),
        "h0" => Some(0x0000_FFFF),
        "h1" => Some(0xFFFF_0000),
        _ => None,
    }
}

/// Where a branch may go (SEMANTICS.md §7): targets `0..len` are instructions; target
/// `len` (just past the last instruction) is accepted and finishes the threads exactly as
/// running past the end does **\[Assumption\]**; anything else is `BadBranch`.
pub fn branch_target_ok(target: i64, len: usize) -> bool {
    target >= 0 && (target as u64) <= len as u64
}

// ---------------------------------------------------------------------------------------
// §3 Floating point
// ---------------------------------------------------------------------------------------

/// The default quiet NaN every f32 NaN result becomes (SEMANTICS.md §3.4
/// **\[Assumption\]**).
pub const DEFAULT_NAN_F32: u32 = 0x7FC0_0000;

/// The default quiet NaN every f16 NaN result becomes (SEMANTICS.md §3.4
/// **\[Assumption\]**).
pub const DEFAULT_NAN_F16: u16 = 0x7E00;

/// f32 result → register bits, with NaN replaced by [`DEFAULT_NAN_F32`]. Subnormal
/// results are kept (no flush-to-zero outside `FLUSH`, SEMANTICS.md §3.4
/// **\[Assumption\]**).
#[inline(always)]
pub fn canon_f32(x: f32) -> u32 {
    if x.is_nan() {
        DEFAULT_NAN_F32
    } else {
        x.to_bits()
    }
}

/// f16 bits with NaN replaced by [`DEFAULT_NAN_F16`] (SEMANTICS.md §3.4).
#[inline(always)]
pub fn canon_f16(h: u16) -> u16 {
    if h & 0x7FFF > 0x7C00 {
        DEFAULT_NAN_F16
    } else {
        h
    }
}

/// `FMIN` (SEMANTICS.md §3.3 **\[Assumption\]**: the rule of the ISA's clamps): a NaN
/// operand yields the other operand (NaN only if both are), and −0 < +0.
#[inline(always)]
pub fn fmin(a: f32, b: f32) -> f32 {
    if a.is_nan() {
        b
    } else if b.is_nan() {
        a
    } else if a == b {
        // ±0 ties: the negative one is smaller.
        if a.is_sign_negative() {
            a
        } else {
            b
        }
    } else if a < b {
        a
    } else {
        b
    }
}

/// `FMAX` (SEMANTICS.md §3.3 **\[Assumption\]**, see [`fmin`]): −0 < +0, NaN loses.
#[inline(always)]
pub fn fmax(a: f32, b: f32) -> f32 {
    if a.is_nan() {
        b
    } else if b.is_nan() {
        a
    } else if a == b {
        if a.is_sign_negative() {
            b
        } else {
            a
        }
    } else if a > b {
        a
    } else {
        b
    }
}

/// `FRCP.f32` (SEMANTICS.md §3.6 **\[Assumption\]**: "may be freely used as-is", so the
/// correctly rounded 1/x with IEEE specials: ±0 → ±∞, ±∞ → ±0, NaN → NaN).
#[inline(always)]
pub fn frcp(x: f32) -> f32 {
    1.0 / x
}

/// `FRSQ.f32` (SEMANTICS.md §3.6 **\[Assumption\]**): 1/√x computed in f64 and rounded to
/// f32; x < 0 → NaN, ±0 → ±∞, +∞ → +0.
#[inline(always)]
pub fn frsq(x: f32) -> f32 {
    (1.0 / libm::sqrt(x as f64)) as f32
}

/// `FEXP.f32` (SEMANTICS.md §3.6 **\[Assumption\]**, operands as in its **\[Mesa usage\]**
/// exp2 sequence `FEXP.f32 r, fixed, t`): `fixed` is x as signed 8:24 fixed point
/// (`F32_TO_S32(t)`), `scaled` the f32 `t = x·2^24` it was converted from, passed for the
/// special cases. `scaled` NaN → NaN; +∞ → +∞; −∞ → +0; `fixed` saturated (`i32::MAX` /
/// `i32::MIN`, as F32_TO_S32 produces for |x| ≥ 128) → 2^(scaled·2^-24) in f64 rounded to
/// f32 (so overflow gives +∞ and underflow a subnormal or +0); otherwise 2^(fixed·2^-24)
/// in f64 rounded to f32.
pub fn fexp(fixed: i32, scaled: f32) -> f32 {
    if scaled.is_nan() {
        return f32::NAN;
    }
    if scaled == f32::INFINITY {
        return f32::INFINITY;
    }
    if scaled == f32::NEG_INFINITY {
        return 0.0;
    }
    let e = if fixed == i32::MAX || fixed == i32::MIN {
        scaled as f64 / 16_777_216.0
    } else {
        fixed as f64 / 16_777_216.0
    };
    libm::exp2(e) as f32
}

/// `frexp()`: x = m·2^e with |m| ∈ [0.5, 1), sign of x on m; subnormals exact. Zero,
/// infinities and NaN give `(x, 0)` (SEMANTICS.md §3.5 \[ISA\] "like frexp()").
fn frexp(x: f32) -> (f32, i32) {
    if x == 0.0 || !x.is_finite() {
        return (x, 0);
    }
    libm::frexpf(x)
}

/// The `.log` format of `FREXPM`/`FREXPE` (SEMANTICS.md §3.5 \[Mesa usage\] /
/// **\[Assumption\]** for the exact boundary): |m| ∈ [0.75, 1.5), x = m·2^e; otherwise as
/// [`frexp`].
fn frexp_log(x: f32) -> (f32, i32) {
    let (m, e) = frexp(x);
    if x != 0.0 && x.is_finite() && m.abs() < 0.75 {
        (m * 2.0, e - 1)
    } else {
        (m, e)
    }
}

/// `FREXPE.f32` (`log` = the `.log` modifier; SEMANTICS.md §3.5 **\[Assumption\]**): the
/// exponent e of `frexp()` (`.log`: of the [0.75, 1.5) format); 0, ±∞ and NaN → 0.
/// (`.sqrt` is undocumented and rejected when the program is loaded.)
pub fn frexpe(x: f32, log: bool) -> i32 {
    if log {
        frexp_log(x).1
    } else {
        frexp(x).1
    }
}

/// `FREXPM.f32` (SEMANTICS.md §3.5 **\[Assumption\]**): the mantissa matching [`frexpe`],
/// sign of x kept; ±0 → ±0, ±∞ → ±∞, NaN → NaN.
pub fn frexpm(x: f32, log: bool) -> f32 {
    if log {
        frexp_log(x).0
    } else {
        frexp(x).0
    }
}

/// `FLOGD.f32` (SEMANTICS.md §3.6 **\[Assumption\]**): for finite x > 0 with m =
/// `FREXPM.log(x)` ∈ [0.75, 1.5): log2(m)/(m − 1) in f64 rounded to f32 (m = 1: 1/ln 2
/// rounded). ±0 → −∞; +∞ → +∞; x < 0 or NaN → NaN. With [`fadd_lscale`] and
/// [`frexpe`], Mesa's log2 sequence `FMA(FLOGD(x), FADD_LSCALE(−1, x),
/// S32_TO_F32(FREXPE.log(x)))` (§3.6) then computes log2(x) with IEEE special values.
pub fn flogd(x: f32) -> f32 {
    if x.is_nan() || x < 0.0 {
        return f32::NAN;
    }
    if x == 0.0 {
        return f32::NEG_INFINITY;
    }
    if x == f32::INFINITY {
        return f32::INFINITY;
    }
    let m = frexpm(x, true) as f64;
    if m == 1.0 {
        std::f64::consts::LOG2_E as f32
    } else {
        (libm::log2(m) / (m - 1.0)) as f32
    }
}

/// `FADD_LSCALE.f32` (SEMANTICS.md §3.5/§3.6 **\[Assumption\]**): A + FREXPM.log(B),
/// rounded to nearest even; when B is ±0, ±∞ or NaN the result is +1.0. That choice makes
/// Mesa's log2 sequence (see [`flogd`]) give IEEE results: log2(±0) = −∞·1 + 0 = −∞,
/// log2(+∞) = +∞·1 + 0 = +∞, log2(NaN) = NaN, log2(x < 0) = NaN (from FLOGD), and
/// log2(1) = FLOGD(1)·(−1 + 1) + 0 = +0.
pub fn fadd_lscale(a: f32, b: f32) -> f32 {
    if b == 0.0 || !b.is_finite() {
        1.0
    } else {
        a + frexpm(b, true)
    }
}

/// `FSIN_TABLE.u6` (SEMANTICS.md §3.6 **\[Assumption\]**, table contents unpublished):
/// sin(π·(A & 63)/32) rounded to f32, exactly 0 / ±1 at the multiples of π/2 (the
/// argument is reduced to a quadrant exactly before calling sin/cos in f64).
pub fn fsin_table(a: u32) -> f32 {
    let k = a & 63;
    let (q, r) = (k / 16, f64::from(k % 16) * std::f64::consts::PI / 32.0);
    let v = match q {
        0 => libm::sin(r),
        1 => libm::cos(r),
        2 => -libm::sin(r),
        _ => -libm::cos(r),
    };
    if v == 0.0 {
        0.0
    } else {
        v as f32
    }
}

/// `FCOS_TABLE.u6` (SEMANTICS.md §3.6 **\[Assumption\]**): cos(π·(A & 63)/32) rounded to
/// f32 (= [`fsin_table`] of A + 16).
pub fn fcos_table(a: u32) -> f32 {
    fsin_table((a & 63) + 16)
}

/// `LDEXP.f32` (SEMANTICS.md §3.5, "A·2^B by adding B to A's exponent"; the special
/// cases are undocumented **\[Assumption\]**): A·2^B correctly rounded with `mode`
/// (subnormal results and overflow per IEEE), NaN → NaN, ±0 and ±∞ unchanged. B is
/// clamped to ±400, which cannot change the result (any f32 scaled by 2^±400 over- or
/// underflows) and keeps the f64 product exact.
pub fn ldexp(a: f32, b: i32, mode: Round) -> f32 {
    if a.is_nan() || a == 0.0 || a.is_infinite() {
        return a;
    }
    let b = b.clamp(-400, 400);
    let scale = f64::from_bits(((1023 + b) as u64) << 52);
    f64_to_f32(a as f64 * scale, mode)
}

/// Variant of `FMA_RSCALE*` (SEMANTICS.md §3.5).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rscale {
    /// `FMA_RSCALE.f32`.
    Plain,
    /// `FMA_RSCALE_N.f32`: a zero factor makes the product zero.
    N,
    /// `FMA_RSCALE_LEFT.f32`: a zero factor makes the product A.
    Left,
    /// `FMA_RSCALE_SCALE16.f32`: D is a 16-bit value.
    Scale16,
}

/// `FMA_RSCALE*.f32` (SEMANTICS.md §3.5 \[ISA\] "equivalent to FMA.f32 back-to-back with
/// LDEXP.f32"): fma(A, B, C) rounded to nearest even, then scaled by 2^D as [`ldexp`]
/// (rte). **\[Assumption\]** for the undocumented details: `_N` — when A or B is ±0 the
/// product is a zero whose sign is sign(A) xor sign(B); `_LEFT` — when A or B is ±0 the
/// product is A; `_SCALE16` — D is the sign-extended low 16 bits.
pub fn fma_rscale(a: f32, b: f32, c: f32, d: u32, kind: Rscale) -> f32 {
    let zero_factor = a == 0.0 || b == 0.0;
    let t = match kind {
        Rscale::N if zero_factor => {
            let neg = a.is_sign_negative() != b.is_sign_negative();
            let p = if neg { -0.0f32 } else { 0.0 };
            p + c
        }
        Rscale::Left if zero_factor => a + c,
        _ => super::float::fma_f32(a, b, c),
    };
    let d = if kind == Rscale::Scale16 {
        i32::from(d as u16 as i16)
    } else {
        d as i32
    };
    ldexp(t, d, Round::Rte)
}

/// `FLUSH.f32` (SEMANTICS.md §3.4 \[ISA\] for the three controls; **\[Assumption\]** for
/// the details): `nan_mode` 0 `none` keeps NaN bits unchanged, 1 `flush_nan` turns every
/// NaN into +0, 2 `quiet_nan` sets the quiet bit of signalling NaNs; `.ftz` replaces a
/// subnormal by a zero of the same sign; `.flush_inf` maps +∞ to the largest finite
/// value and −∞ to the most negative one. Other values pass through unchanged (no NaN
/// canonicalisation: FLUSH is the instruction that exists to control it).
pub fn flush_f32(x: u32, nan_mode: u8, ftz: bool, flush_inf: bool) -> u32 {
    let v = f32::from_bits(x);
    if v.is_nan() {
        return match nan_mode {
            1 => 0,
            2 => x | 0x0040_0000,
            _ => x,
        };
    }
    if ftz && v.is_subnormal() {
        return x & 0x8000_0000;
    }
    if flush_inf && v.is_infinite() {
        return (x & 0x8000_0000) | f32::MAX.to_bits();
    }
    x
}

// ---------------------------------------------------------------------------------------
// §4 Integers
// ---------------------------------------------------------------------------------------

/// `CLZ` of a 32-bit lane (SEMANTICS.md §4): CLZ(0) = 32 **\[Assumption\]**.
#[inline(always)]
pub fn clz32(x: u32) -> u32 {
    x.leading_zeros()
}

/// `CLZ` of a `width`-bit lane: CLZ(0) = width **\[Assumption\]** (§4).
#[inline(always)]
pub fn clz_lane(x: u32, width: u32) -> u32 {
    (x << (32 - width)).leading_zeros().min(width)
}

/// `IABS.s32` (SEMANTICS.md §4): |x|, wrapping, so IABS(i32::MIN) = i32::MIN
/// **\[Assumption\]**.
#[inline(always)]
pub fn iabs32(x: u32) -> u32 {
    (x as i32).wrapping_abs() as u32
}

/// Shift amount of the `LSHIFT_*` / `RSHIFT_*` instructions from the selected byte
/// (SEMANTICS.md §4 \[Mesa usage\]): the amount modulo the lane width `width` (32 for
/// `.i32`).
#[inline(always)]
pub fn shift_amount(byte: u32, width: u32) -> u32 {
    byte & (width - 1)
}

/// `IMULD.u64` (SEMANTICS.md §4 \[ISA\] "acts like IMUL.u32 but additionally writes the
/// high half"): the product of the low 32-bit words of A and B, unsigned, as 64 bits.
/// **\[Assumption\]**: each source contributes only its (selected) low word, so a source
/// register names one 32-bit register (no pair is read).
#[inline(always)]
pub fn imuld(a: u32, b: u32) -> u64 {
    u64::from(a) * u64::from(b)
}

// ---------------------------------------------------------------------------------------
// §5 Comparisons
// ---------------------------------------------------------------------------------------

/// The float condition `total` ("Totally ordered", SEMANTICS.md §5.1 **\[Assumption\]**):
/// true when neither operand is NaN.
#[inline(always)]
pub fn fcmp_total(a: f32, b: f32) -> bool {
    !a.is_nan() && !b.is_nan()
}

/// "C is true" for the third source of `FCMP_*` / `ICMP_*` (SEMANTICS.md §5.3
/// **\[Assumption\]**): C ≠ 0.
#[inline(always)]
pub fn c_is_true(c: u32) -> bool {
    c != 0
}

// ---------------------------------------------------------------------------------------
// §6 Conversions
// ---------------------------------------------------------------------------------------

/// `F32_TO_S32` (SEMANTICS.md §6 **\[Assumption\]**): round to integral with `mode`, then
/// saturate to i32 (≥ 2^31 → 0x7FFFFFFF, < −2^31 → 0x80000000); NaN → 0.
#[inline(always)]
pub fn f32_to_s32(x: f32, mode: Round) -> u32 {
    super::float::round_integral(x, mode) as i32 as u32
}

/// `F32_TO_U32` (SEMANTICS.md §6 **\[Assumption\]**): round with `mode`, saturate to u32
/// (negative → 0, ≥ 2^32 → 0xFFFFFFFF); NaN → 0.
#[inline(always)]
pub fn f32_to_u32(x: f32, mode: Round) -> u32 {
    super::float::round_integral(x, mode) as u32
}

/// `F16_TO_S16`-style saturating conversions of 16-bit lanes (`V2F16_TO_V2S16`,
/// SEMANTICS.md §6 **\[Assumption\]**, as [`f32_to_s32`] at 16 bits).
#[inline(always)]
pub fn f32_to_s16(x: f32, mode: Round) -> u32 {
    (super::float::round_integral(x, mode) as i16) as u16 as u32
}

/// `V2F16_TO_V2U16` lanes (SEMANTICS.md §6 **\[Assumption\]**, as [`f32_to_u32`] at 16
/// bits).
#[inline(always)]
pub fn f32_to_u16(x: f32, mode: Round) -> u32 {
    u32::from(super::float::round_integral(x, mode) as u16)
}

// ---------------------------------------------------------------------------------------
// §7 Subgroups
// ---------------------------------------------------------------------------------------

/// Lane read by `CLPER` in a 16-lane subgroup (SEMANTICS.md §7): `lane_op` `none` reads
/// lane B mod 16 [ISA "the subgroup lane given by B"; mod 16 **\[Assumption\]**]; `xor`
/// reads lane own ^ B **\[Assumption\]**, and a result ≥ 16 names no lane (`None`, which
/// returns the `inactive_result` value). `accumulate` / `shift` are undocumented and
/// rejected when the program is loaded.
#[inline(always)]
pub fn clper_lane(own: u32, b: u32, xor: bool) -> Option<u32> {
    let l = if xor { own ^ b } else { b & 15 };
    (l < 16).then_some(l)
}

/// `WMASK` in a 16-lane subgroup: bit `l` set when lane `l` is active and its source is
/// nonzero [ISA "the mask of lanes ever active within the warp (subgroup), such that the
/// source is nonzero"]. "Active" is the current active mask (SEMANTICS.md §1.2: subgroup
/// operations see the current active mask) **\[Assumption\]**, so the `all()` / `any()`
/// constructions ISA.xml gives vote over the threads executing the instruction.
#[inline(always)]
pub fn wmask(active: u16, vals: &[u32; 16]) -> u32 {
    (0..16).fold(0, |m, l| {
        if active >> l & 1 != 0 && vals[l] != 0 {
            m | 1 << l
        } else {
            m
        }
    })
}

// ---------------------------------------------------------------------------------------
// §8 Memory
// ---------------------------------------------------------------------------------------

/// Extension of a narrow load into its `load_lane` placement when `.unsigned` is not set
/// (SEMANTICS.md §8 **\[Assumption\]**): sign extension. Returns the loaded value extended
/// from `bits` to 64 bits.
#[inline]
pub fn load_extend(value: u64, bits: u32, unsigned: bool) -> u64 {
    if unsigned || bits >= 64 {
        value
    } else {
        let s = 64 - bits;
        (((value << s) as i64) >> s) as u64
    }
}

/// Memory model (SEMANTICS.md §8 **\[Assumption\]**): little-endian, unaligned accesses
/// accepted; the active threads of a warp perform a LOAD/STORE one after the other in
/// ascending lane order (so of several lanes storing to one address, the highest lane's
/// value remains), warps run one after the other. Returns the lane order.
pub fn memory_lane_order() -> std::ops::Range<u32> {
    0..16
}

/// Operation of an atomic instruction (`Atomic operation` and `Atomic operation with 1`
/// enums of ISA.xml, SEMANTICS.md §8).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Atomic {
    /// `aadd`: old + v.
    Add,
    /// `asmin`: signed minimum.
    Smin,
    /// `asmax`: signed maximum.
    Smax,
    /// `aumin`: unsigned minimum.
    Umin,
    /// `aumax`: unsigned maximum.
    Umax,
    /// `aand`: old & v.
    And,
    /// `aor`: old | v.
    Or,
    /// `axor`: old ^ v.
    Xor,
    /// `axchg`: v.
    Xchg,
    /// `axchg` with `.compare`: v if old == compare, else old.
    CmpXchg,
    /// `ainc`: old + 1.
    Inc,
    /// `adec`: old − 1.
    Dec,
    /// `aumax1`: unsigned max(old, 1).
    Umax1,
    /// `asmax1`: signed max(old, 1).
    Smax1,
    /// `aor1`: old | 1 ("set bottom bit").
    Or1,
}

/// The new memory value of an atomic on a `bits`-bit (32 or 64) location holding `old`,
/// with operand `v` and comparison value `cmp` (SEMANTICS.md §8; operations per their
/// ISA.xml names). **\[Assumption\]**: arithmetic wraps at the access width (`ainc`/`adec`
/// have no bound operand); `.compare` takes (new value, comparison value) from the read
/// staging run in that order \[Mesa usage\]; the threads of a warp perform their atomics
/// one after the other, each atomically, in ascending lane order ([`memory_lane_order`])
/// under the sequential schedule and in a seeded shuffled order otherwise (`sched`).
/// Values are zero-extended `bits`-bit integers.
pub fn atomic(op: Atomic, old: u64, v: u64, cmp: u64, bits: u32) -> u64 {
    let mask = if bits >= 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    };
    let s = |x: u64| -> i64 {
        let sh = 64 - bits;
        ((x << sh) as i64) >> sh
    };
    let r = match op {
        Atomic::Add => old.wrapping_add(v),
        Atomic::Smin => s(old).min(s(v)) as u64,
        Atomic::Smax => s(old).max(s(v)) as u64,
        Atomic::Umin => old.min(v),
        Atomic::Umax => old.max(v),
        Atomic::And => old & v,
        Atomic::Or => old | v,
        Atomic::Xor => old ^ v,
        Atomic::Xchg => v,
        Atomic::CmpXchg => {
            if old == cmp {
                v
            } else {
                old
            }
        }
        Atomic::Inc => old.wrapping_add(1),
        Atomic::Dec => old.wrapping_sub(1),
        Atomic::Umax1 => old.max(1),
        Atomic::Smax1 => s(old).max(1) as u64,
        Atomic::Or1 => old | 1,
    };
    r & mask
}

/// `IDP.v4s8` / `IDP.v4u8` (SEMANTICS.md §4 \[ISA\]: 4-lane 8-bit dot product plus
/// accumulator, optional saturation): Σ a_i·b_i + acc with bytes and accumulator signed
/// (`.v4s8`) or unsigned (`.v4u8`). **\[Assumption\]**: without `.saturate` the 32-bit
/// result wraps; with it, it clamps to the i32 (signed) or u32 (unsigned) range.
pub fn idp(a: u32, b: u32, acc: u32, signed: bool, saturate: bool) -> u32 {
    let lane = |x: u32, i: u32| -> i64 {
        let byte = (x >> (8 * i)) & 0xFF;
        if signed {
            i64::from(byte as u8 as i8)
        } else {
            i64::from(byte)
        }
    };
    let dot: i64 = (0..4).map(|i| lane(a, i) * lane(b, i)).sum();
    let acc = if signed {
        i64::from(acc as i32)
    } else {
        i64::from(acc)
    };
    let r = dot + acc;
    match (saturate, signed) {
        (false, _) => r as u32,
        (true, true) => r.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32 as u32,
        (true, false) => r.clamp(0, i64::from(u32::MAX)) as u32,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frexp_formats() {
        assert_eq!(frexpm(8.0, false), 0.5);
        assert_eq!(frexpe(8.0, false), 4);
        assert_eq!(frexpm(8.0, true), 1.0);
        assert_eq!(frexpe(8.0, true), 3);
        assert_eq!(frexpm(-0.7, true), -1.4);
        assert_eq!(frexpe(f32::from_bits(1), false), -148);
        assert_eq!(frexpe(f32::INFINITY, true), 0);
    }

    #[test]
    fn group_selection() {
        let mut pcs = [5u32; 16];
        pcs[3] = 2;
        pcs[4] = 2;
        assert_eq!(next_group(&pcs, 0xFFFF), (2, 0b11000));
        assert_eq!(next_group(&pcs, 0xFFE7), (5, 0xFFE7));
    }
}
