//! The 64-bit opcodes' channel-pair layout and lane loops (tgsi.rst "Double ISA" and
//! "64-bit Integer ISA": "reinterpret four-component vectors into two-component vectors"
//! with 64 bits in each component). A 64-bit value occupies the channel pair xy or zw, low
//! word first (INTERFACE.md "A 64-bit value occupies two channels (low word first)").
//!
//! # Resolutions where the documents disagree or are silent
//!
//! * **Writemask.** A pair is computed when either of its channels is enabled, and only the
//!   enabled channels are written (each with its half of the result). tgsi_exec skips a
//!   unary result unless both channels are enabled and writes both channels of a binary one
//!   even when one is disabled (EXEC-NOTES.md §6); neither matches tgsi.rst's writemask
//!   rule ("Modifiers": disabled channels are not written), so neither is copied.
//! * **Comparisons** (DSEQ DSNE DSLT DSGE, U64SEQ U64SNE U64SLT U64SGE, I64SLT I64SGE):
//!   tgsi.rst writes `dst.x` from the xy pair and `dst.z` from the zw pair. Enabled y and
//!   w channels get no value from the doc: they are undefined (tgsi_exec moves the result
//!   to y or w when x or z is disabled, EXEC-NOTES.md §6; not copied).
//! * **64 → 32-bit conversions** (D2F D2I D2U U642F I642F): tgsi.rst writes `dst.x` from
//!   src.xy and `dst.y` from src.zw; z and w are undefined when enabled. tgsi_exec instead
//!   writes the first and second *enabled* channels (EXEC-NOTES.md §4, "Result placement");
//!   the doc's fixed channels win.
//! * **32 → 64-bit conversions** (F2D I2D U2D F2I64 F2U64 I2I64 U2I64): `dst.xy` from
//!   src.x, `dst.zw` from src.y (tgsi.rst, and EXEC-NOTES.md §4).
//! * **DLDEXP** exponent: src1.x for xy, src1.z for zw (tgsi.rst and EXEC-NOTES.md §6
//!   agree).
//! * **64-bit shift counts** (U64SHL U64SHR I64SHR): tgsi.rst's formulas read the count of
//!   the zw pair from `src1.y`, while opcodes.csv types src1 as a 64-bit operand (pairs xy
//!   and zw, so the zw count's low word is `src1.z`) and tgsi_exec and gallivm read
//!   `src1.z` (EXEC-NOTES.md §6, §12.10). The xy pair uses `src1.x` (all agree). The zw
//!   result is defined where both readings agree (`src1.y & 0x3f == src1.z & 0x3f`) and
//!   undefined otherwise; the value stored uses src1.z. Counts are masked with 0x3f as
//!   the doc says, so counts of 64 and more are defined.

// The lane loops index several planes in lockstep; indices read better than nested zips.
#![allow(clippy::needless_range_loop)]

use shaderdiff_model::Opcode;

use super::kernel::{Checked, Outcome, Word};
use super::{double as db, int64 as i6};
use crate::interp::lanes::{Mask, Vals, LANES};

pub use shaderdiff_model::wide::{is_wide, layout, unsupported_form, Layout64};

/// Channels of source `k` that destination channel `c` of `op` depends on (bit j = channel
/// j after swizzle); 0 for channels the layout leaves undefined.
pub fn reads(op: Opcode, k: usize, c: usize) -> u8 {
    let p = c / 2;
    let pair = 0b11 << (2 * p);
    match layout(op) {
        None => 0xF,
        Some(Layout64::Pair) => pair,
        Some(Layout64::Ldexp | Layout64::Shift) if k == 0 => pair,
        Some(Layout64::Ldexp) => 1 << (2 * p),
        // zw: src1.y and src1.z (both readings of the doc, see the module docs).
        Some(Layout64::Shift) => [0b0001, 0b0110][p],
        Some(Layout64::Compare) if c % 2 == 0 => pair,
        Some(Layout64::Narrow) if c < 2 => 0b11 << (2 * c),
        Some(Layout64::Widen) => 1 << p,
        Some(Layout64::Compare | Layout64::Narrow) => 0,
    }
}

/// A 64-bit value viewed as an operand type (`u64`, `i64`, `f64`): a bit reinterpretation.
pub trait Word64: Copy {
    /// Reinterprets the raw bits.
    fn from_bits64(w: u64) -> Self;
    /// Returns the raw bits.
    fn to_bits64(self) -> u64;
}

impl Word64 for u64 {
    #[inline(always)]
    fn from_bits64(w: u64) -> Self {
        w
    }
    #[inline(always)]
    fn to_bits64(self) -> u64 {
        self
    }
}

impl Word64 for i64 {
    #[inline(always)]
    fn from_bits64(w: u64) -> Self {
        w as i64
    }
    #[inline(always)]
    fn to_bits64(self) -> u64 {
        self as u64
    }
}

impl Word64 for f64 {
    #[inline(always)]
    fn from_bits64(w: u64) -> Self {
        f64::from_bits(w)
    }
    #[inline(always)]
    fn to_bits64(self) -> u64 {
        self.to_bits()
    }
}

/// What a 64-bit-result function returns: a plain value or a [`Checked`] one.
pub trait Outcome64 {
    /// The bits and the undefined flag.
    fn split64(self) -> (u64, bool);
}

impl<T: Word64> Outcome64 for T {
    #[inline(always)]
    fn split64(self) -> (u64, bool) {
        (self.to_bits64(), false)
    }
}

impl<T: Word64> Outcome64 for Checked<T> {
    #[inline(always)]
    fn split64(self) -> (u64, bool) {
        (self.value.to_bits64(), self.undefined)
    }
}

/// Lane `l` of channel pair `p` of `v` (low word in channel 2p).
#[inline(always)]
pub fn pair_word(v: &Vals, p: usize, l: usize) -> u64 {
    v[2 * p][l] as u64 | (v[2 * p + 1][l] as u64) << 32
}

/// The pairs with an enabled channel.
#[inline(always)]
fn pairs(wm: u8) -> impl Iterator<Item = usize> {
    (0..2).filter(move |p| wm >> (2 * p) & 3 != 0)
}

/// Runs `f(p, l)` for every lane of every pair with an enabled channel and stores the 64-bit
/// results into the enabled channels of the pair (low word in 2p), flagging undefined lanes.
#[inline(always)]
fn store_pairs(
    wm: u8,
    out: &mut Vals,
    undef: &mut [Mask; 4],
    mut f: impl FnMut(usize, usize) -> (u64, bool),
) {
    for p in pairs(wm) {
        let mut m: Mask = 0;
        for l in 0..LANES {
            let (v, u) = f(p, l);
            if wm >> (2 * p) & 1 != 0 {
                out[2 * p][l] = v as u32;
            }
            if wm >> (2 * p + 1) & 1 != 0 {
                out[2 * p + 1][l] = (v >> 32) as u32;
            }
            m |= (u as Mask) << l;
        }
        for c in [2 * p, 2 * p + 1] {
            if wm >> c & 1 != 0 {
                undef[c] |= m;
            }
        }
    }
}

/// Runs `f(p, l)` for the 32-bit result channels `chans[p]` (one per source pair) that are
/// enabled; enabled channels outside `chans` are undefined (value 0).
#[inline(always)]
fn store_words(
    wm: u8,
    chans: [usize; 2],
    out: &mut Vals,
    undef: &mut [Mask; 4],
    mut f: impl FnMut(usize, usize) -> (u32, bool),
) {
    for c in (0..4).filter(|c| wm >> c & 1 != 0) {
        match chans.iter().position(|&d| d == c) {
            Some(p) => {
                let mut m: Mask = 0;
                for l in 0..LANES {
                    let (v, u) = f(p, l);
                    out[c][l] = v;
                    m |= (u as Mask) << l;
                }
                undef[c] |= m;
            }
            None => {
                out[c] = [0; LANES];
                undef[c] = !0;
            }
        }
    }
}

#[inline(always)]
fn get<A: Word64>(s: &[Vals], k: usize, p: usize, l: usize) -> A {
    A::from_bits64(pair_word(&s[k], p, l))
}

fn pair1<A: Word64, O: Outcome64>(
    s: &[Vals],
    wm: u8,
    o: &mut Vals,
    u: &mut [Mask; 4],
    f: impl Fn(A) -> O,
) {
    store_pairs(wm, o, u, |p, l| f(get(s, 0, p, l)).split64());
}

fn pair2<A: Word64, B: Word64, O: Outcome64>(
    s: &[Vals],
    wm: u8,
    o: &mut Vals,
    u: &mut [Mask; 4],
    f: impl Fn(A, B) -> O,
) {
    store_pairs(wm, o, u, |p, l| {
        f(get(s, 0, p, l), get(s, 1, p, l)).split64()
    });
}

fn pair3<O: Outcome64>(
    s: &[Vals],
    wm: u8,
    o: &mut Vals,
    u: &mut [Mask; 4],
    f: impl Fn(f64, f64, f64) -> O,
) {
    store_pairs(wm, o, u, |p, l| {
        f(get(s, 0, p, l), get(s, 1, p, l), get(s, 2, p, l)).split64()
    });
}

/// DLDEXP: the exponent of pair p is src1 channel 2p.
fn ldexp(s: &[Vals], wm: u8, o: &mut Vals, u: &mut [Mask; 4]) {
    store_pairs(wm, o, u, |p, l| {
        db::dldexp(get(s, 0, p, l), s[1][2 * p][l] as i32).split64()
    });
}

/// Shifts: count src1.x (xy) or src1.z (zw), undefined where src1.y disagrees (module docs).
fn shift<A: Word64>(s: &[Vals], wm: u8, o: &mut Vals, u: &mut [Mask; 4], f: impl Fn(A, u32) -> A) {
    store_pairs(wm, o, u, |p, l| {
        let n = s[1][2 * p][l];
        let disagree = p == 1 && (s[1][1][l] ^ n) & 63 != 0;
        (f(get(s, 0, p, l), n).to_bits64(), disagree)
    });
}

fn compare<A: Word64>(
    s: &[Vals],
    wm: u8,
    o: &mut Vals,
    u: &mut [Mask; 4],
    f: impl Fn(A, A) -> u32,
) {
    store_words(wm, [0, 2], o, u, |p, l| {
        (f(get(s, 0, p, l), get(s, 1, p, l)), false)
    });
}

fn narrow<A: Word64, O: Outcome>(
    s: &[Vals],
    wm: u8,
    o: &mut Vals,
    u: &mut [Mask; 4],
    f: impl Fn(A) -> O,
) {
    store_words(wm, [0, 1], o, u, |p, l| f(get(s, 0, p, l)).split());
}

fn widen<A: Word, O: Outcome64>(
    s: &[Vals],
    wm: u8,
    o: &mut Vals,
    u: &mut [Mask; 4],
    f: impl Fn(A) -> O,
) {
    store_pairs(wm, o, u, |p, l| f(A::from_word(s[0][p][l])).split64());
}

/// Evaluates the 64-bit opcode `op` (see [`super::eval`] for the arguments' meaning and the
/// module docs for the channel layout). Returns `false`, with nothing written, if `op` is not
/// a 64-bit opcode ([`is_wide`]). `s` must hold the opcode's sources.
pub fn eval(op: Opcode, s: &[Vals], w: u8, o: &mut Vals, u: &mut [Mask; 4]) -> bool {
    use Opcode::*;
    match op {
        // --- Double ISA (double.rs) ---
        DABS => pair1(s, w, o, u, db::dabs),
        DNEG => pair1(s, w, o, u, db::dneg),
        DADD => pair2(s, w, o, u, db::dadd),
        DMUL => pair2(s, w, o, u, db::dmul),
        DDIV => pair2(s, w, o, u, db::ddiv),
        DMAD => pair3(s, w, o, u, db::dmad),
        DFMA => pair3(s, w, o, u, db::dfma),
        DMIN => pair2(s, w, o, u, db::dmin),
        DMAX => pair2(s, w, o, u, db::dmax),
        DRCP => pair1(s, w, o, u, db::drcp),
        DSQRT => pair1(s, w, o, u, db::dsqrt),
        DRSQ => pair1(s, w, o, u, db::drsq),
        DFRAC => pair1(s, w, o, u, db::dfrac),
        DTRUNC => pair1(s, w, o, u, db::dtrunc),
        DCEIL => pair1(s, w, o, u, db::dceil),
        DFLR => pair1(s, w, o, u, db::dflr),
        DROUND => pair1(s, w, o, u, db::dround),
        DSSG => pair1(s, w, o, u, db::dssg),
        DLDEXP => ldexp(s, w, o, u),
        DSEQ => compare(s, w, o, u, db::dseq),
        DSNE => compare(s, w, o, u, db::dsne),
        DSLT => compare(s, w, o, u, db::dslt),
        DSGE => compare(s, w, o, u, db::dsge),
        D2F => narrow(s, w, o, u, db::d2f),
        D2I => narrow(s, w, o, u, db::d2i),
        D2U => narrow(s, w, o, u, db::d2u),
        F2D => widen(s, w, o, u, db::f2d),
        I2D => widen(s, w, o, u, db::i2d),
        U2D => widen(s, w, o, u, db::u2d),
        // --- 64-bit Integer ISA (int64.rs) ---
        I64ABS => pair1(s, w, o, u, i6::i64abs),
        I64NEG => pair1(s, w, o, u, i6::i64neg),
        I64SSG => pair1(s, w, o, u, i6::i64ssg),
        U64ADD => pair2(s, w, o, u, i6::u64add),
        U64MUL => pair2(s, w, o, u, i6::u64mul),
        I64MIN => pair2(s, w, o, u, i6::i64min),
        I64MAX => pair2(s, w, o, u, i6::i64max),
        U64MIN => pair2(s, w, o, u, i6::u64min),
        U64MAX => pair2(s, w, o, u, i6::u64max),
        I64DIV => pair2(s, w, o, u, i6::i64div),
        I64MOD => pair2(s, w, o, u, i6::i64mod),
        U64DIV => pair2(s, w, o, u, i6::u64div),
        U64MOD => pair2(s, w, o, u, i6::u64mod),
        U64SHL => shift(s, w, o, u, i6::u64shl),
        U64SHR => shift(s, w, o, u, i6::u64shr),
        I64SHR => shift(s, w, o, u, i6::i64shr),
        U64SEQ => compare(s, w, o, u, i6::u64seq),
        U64SNE => compare(s, w, o, u, i6::u64sne),
        U64SLT => compare(s, w, o, u, i6::u64slt),
        U64SGE => compare(s, w, o, u, i6::u64sge),
        I64SLT => compare(s, w, o, u, i6::i64slt),
        I64SGE => compare(s, w, o, u, i6::i64sge),
        D2I64 => pair1(s, w, o, u, i6::d2i64),
        D2U64 => pair1(s, w, o, u, i6::d2u64),
        I642D => pair1(s, w, o, u, i6::i642d),
        U642D => pair1(s, w, o, u, i6::u642d),
        I642F => narrow(s, w, o, u, i6::i642f),
        U642F => narrow(s, w, o, u, i6::u642f),
        F2I64 => widen(s, w, o, u, i6::f2i64),
        F2U64 => widen(s, w, o, u, i6::f2u64),
        I2I64 => widen(s, w, o, u, i6::i2i64),
        U2I64 => widen(s, w, o, u, i6::u2i64),
        _ => return false,
    }
    true
}
