//! Lane loops shared by every ALU opcode family.
//!
//! Each helper is generic over the scalar function it applies, so `eval` dispatches on the
//! opcode once and the per-lane loop is monomorphized (and vectorized where the scalar
//! function allows). The helpers differ only in which source channels they read and which
//! destination channels they write (tgsi.rst "Basics": componentwise vs. *replicated*
//! results; EXEC-NOTES.md §1 for which swizzle components scalar opcodes read).

// The lane loops index several planes in lockstep; indices read better than nested zips.
#![allow(clippy::needless_range_loop)]

use crate::interp::lanes::{Mask, Plane, Vals, LANES};

/// A 32-bit channel word viewed as an operand type (`f32`, `i32` or `u32`): the conversion is a
/// bit reinterpretation, never a numeric conversion.
pub trait Word: Copy {
    /// Reinterprets the raw channel bits.
    fn from_word(w: u32) -> Self;
    /// Returns the raw channel bits.
    fn to_word(self) -> u32;
}

impl Word for u32 {
    #[inline(always)]
    fn from_word(w: u32) -> Self {
        w
    }
    #[inline(always)]
    fn to_word(self) -> u32 {
        self
    }
}

impl Word for i32 {
    #[inline(always)]
    fn from_word(w: u32) -> Self {
        w as i32
    }
    #[inline(always)]
    fn to_word(self) -> u32 {
        self as u32
    }
}

impl Word for f32 {
    #[inline(always)]
    fn from_word(w: u32) -> Self {
        f32::from_bits(w)
    }
    #[inline(always)]
    fn to_word(self) -> u32 {
        self.to_bits()
    }
}

/// `~0` / `0` from a condition: the result of every set-on-comparison opcode that gives an
/// integer mask (FS*, IS*, US*, DS*, U64S*, I64S*; tgsi.rst `cond ? ~0 : 0`).
#[inline(always)]
pub fn all_ones_if(c: bool) -> u32 {
    if c {
        u32::MAX
    } else {
        0
    }
}

/// A scalar result together with "the spec leaves this result undefined".
///
/// When `undefined` is set, `value` is still stored (so the interpreter stays deterministic)
/// but carries no meaning: comparators accept any value for that lane and channel.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Checked<T> {
    /// The value stored in the destination channel.
    pub value: T,
    /// Whether the spec leaves the result undefined.
    pub undefined: bool,
}

impl<T> Checked<T> {
    /// A defined result.
    #[inline(always)]
    pub fn ok(value: T) -> Self {
        Checked {
            value,
            undefined: false,
        }
    }
    /// `value` with the given undefined flag.
    #[inline(always)]
    pub fn new(value: T, undefined: bool) -> Self {
        Checked { value, undefined }
    }
}

/// What a scalar opcode function returns: a plain value (always defined) or a [`Checked`] one.
pub trait Outcome {
    /// Whether the result can be undefined at all (false for plain values: the lane loops
    /// then skip building undefined masks).
    const CHECKED: bool;
    /// The channel bits and the undefined flag.
    fn split(self) -> (u32, bool);
}

impl<T: Word> Outcome for T {
    const CHECKED: bool = false;
    #[inline(always)]
    fn split(self) -> (u32, bool) {
        (self.to_word(), false)
    }
}

impl<T: Word> Outcome for Checked<T> {
    const CHECKED: bool = true;
    #[inline(always)]
    fn split(self) -> (u32, bool) {
        (self.value.to_word(), self.undefined)
    }
}

/// The destination channels enabled in `wm` (bit c = channel c).
#[inline(always)]
fn channels(wm: u8) -> impl Iterator<Item = usize> {
    (0..4).filter(move |c| wm >> c & 1 != 0)
}

/// Lane `l` of all four channels of `v`, as type `A`.
#[inline(always)]
fn lane_vec<A: Word>(v: &Vals, l: usize) -> [A; 4] {
    [
        A::from_word(v[0][l]),
        A::from_word(v[1][l]),
        A::from_word(v[2][l]),
        A::from_word(v[3][l]),
    ]
}

/// Per-lane undefined flags (0 or 1), gathered in a byte array so that the value loop stays
/// vectorizable; [`to_mask`] packs them.
type Flags = [u8; LANES];

/// Packs per-lane 0/1 flags into a [`Mask`] (bit l = lane l), eight lanes per step:
/// multiplying eight 0/1 bytes by 0x0102040810204080 sums byte i into bit 56 + i without
/// carries.
#[inline(always)]
fn to_mask(flags: &Flags) -> Mask {
    let mut m: Mask = 0;
    for (g, chunk) in flags.chunks_exact(8).enumerate() {
        let mut b = [0u8; 8];
        b.copy_from_slice(chunk);
        let x = u64::from_le_bytes(b);
        m |= (x.wrapping_mul(0x0102_0408_1020_4080) >> 56) << (8 * g);
    }
    m
}

/// Writes one computed plane (and its undefined lanes) to every channel enabled in `wm`.
#[inline(always)]
fn store_replicated(t: &Plane, m: Mask, wm: u8, out: &mut Vals, undef: &mut [Mask; 4]) {
    for c in channels(wm) {
        out[c] = *t;
        undef[c] |= m;
    }
}

/// Componentwise, one source: `out[c] = f(s0[c])` for each enabled channel c.
#[inline(always)]
pub fn map1<A: Word, O: Outcome>(
    s: &[Vals],
    wm: u8,
    out: &mut Vals,
    undef: &mut [Mask; 4],
    f: impl Fn(A) -> O,
) {
    for c in channels(wm) {
        let (a, o) = (&s[0][c], &mut out[c]);
        let mut fl: Flags = [0; LANES];
        for l in 0..LANES {
            let (v, u) = f(A::from_word(a[l])).split();
            o[l] = v;
            fl[l] = u as u8;
        }
        if O::CHECKED {
            undef[c] |= to_mask(&fl);
        }
    }
}

/// Componentwise, two sources: `out[c] = f(s0[c], s1[c])`.
#[inline(always)]
pub fn map2<A: Word, B: Word, O: Outcome>(
    s: &[Vals],
    wm: u8,
    out: &mut Vals,
    undef: &mut [Mask; 4],
    f: impl Fn(A, B) -> O,
) {
    for c in channels(wm) {
        let (a, b, o) = (&s[0][c], &s[1][c], &mut out[c]);
        let mut fl: Flags = [0; LANES];
        for l in 0..LANES {
            let (v, u) = f(A::from_word(a[l]), B::from_word(b[l])).split();
            o[l] = v;
            fl[l] = u as u8;
        }
        if O::CHECKED {
            undef[c] |= to_mask(&fl);
        }
    }
}

/// Componentwise, three sources: `out[c] = f(s0[c], s1[c], s2[c])`.
#[inline(always)]
pub fn map3<A: Word, B: Word, C: Word, O: Outcome>(
    s: &[Vals],
    wm: u8,
    out: &mut Vals,
    undef: &mut [Mask; 4],
    f: impl Fn(A, B, C) -> O,
) {
    for ch in channels(wm) {
        let (a, b, c, o) = (&s[0][ch], &s[1][ch], &s[2][ch], &mut out[ch]);
        let mut fl: Flags = [0; LANES];
        for l in 0..LANES {
            let (v, u) = f(A::from_word(a[l]), B::from_word(b[l]), C::from_word(c[l])).split();
            o[l] = v;
            fl[l] = u as u8;
        }
        if O::CHECKED {
            undef[ch] |= to_mask(&fl);
        }
    }
}

/// Componentwise, four sources (BFI): `out[c] = f(s0[c], s1[c], s2[c], s3[c])`.
#[inline(always)]
pub fn map4<O: Outcome>(
    s: &[Vals],
    wm: u8,
    out: &mut Vals,
    undef: &mut [Mask; 4],
    f: impl Fn(u32, u32, u32, u32) -> O,
) {
    for ch in channels(wm) {
        let (a, b, c, d) = (&s[0][ch], &s[1][ch], &s[2][ch], &s[3][ch]);
        let o = &mut out[ch];
        let mut fl: Flags = [0; LANES];
        for l in 0..LANES {
            let (v, u) = f(a[l], b[l], c[l], d[l]).split();
            o[l] = v;
            fl[l] = u as u8;
        }
        if O::CHECKED {
            undef[ch] |= to_mask(&fl);
        }
    }
}

/// Replicated, one scalar source: `f(s0.x)` (first swizzle component) to every enabled channel.
#[inline(always)]
pub fn rep1<A: Word, O: Outcome>(
    s: &[Vals],
    wm: u8,
    out: &mut Vals,
    undef: &mut [Mask; 4],
    f: impl Fn(A) -> O,
) {
    if wm == 0 {
        return;
    }
    let a = &s[0][0];
    let mut t: Plane = [0; LANES];
    let mut fl: Flags = [0; LANES];
    for l in 0..LANES {
        let (v, u) = f(A::from_word(a[l])).split();
        t[l] = v;
        fl[l] = u as u8;
    }
    let m = if O::CHECKED { to_mask(&fl) } else { 0 };
    store_replicated(&t, m, wm, out, undef);
}

/// Replicated, two scalar sources: `f(s0.x, s1.x)` to every enabled channel.
#[inline(always)]
pub fn rep2<A: Word, B: Word, O: Outcome>(
    s: &[Vals],
    wm: u8,
    out: &mut Vals,
    undef: &mut [Mask; 4],
    f: impl Fn(A, B) -> O,
) {
    if wm == 0 {
        return;
    }
    let (a, b) = (&s[0][0], &s[1][0]);
    let mut t: Plane = [0; LANES];
    let mut fl: Flags = [0; LANES];
    for l in 0..LANES {
        let (v, u) = f(A::from_word(a[l]), B::from_word(b[l])).split();
        t[l] = v;
        fl[l] = u as u8;
    }
    let m = if O::CHECKED { to_mask(&fl) } else { 0 };
    store_replicated(&t, m, wm, out, undef);
}

/// Replicated, one vector source (PK2H, PK4UB ...): `f(s0.xyzw)` to every enabled channel.
#[inline(always)]
pub fn rep_vec1<A: Word, O: Outcome>(
    s: &[Vals],
    wm: u8,
    out: &mut Vals,
    undef: &mut [Mask; 4],
    f: impl Fn([A; 4]) -> O,
) {
    if wm == 0 {
        return;
    }
    let mut t: Plane = [0; LANES];
    let mut fl: Flags = [0; LANES];
    for l in 0..LANES {
        let (v, u) = f(lane_vec(&s[0], l)).split();
        t[l] = v;
        fl[l] = u as u8;
    }
    let m = if O::CHECKED { to_mask(&fl) } else { 0 };
    store_replicated(&t, m, wm, out, undef);
}

/// Replicated, two vector sources (DP2, DP3, DP4, DPH): `f(s0.xyzw, s1.xyzw)` to every
/// enabled channel.
#[inline(always)]
pub fn rep_vec2<A: Word, O: Outcome>(
    s: &[Vals],
    wm: u8,
    out: &mut Vals,
    undef: &mut [Mask; 4],
    f: impl Fn([A; 4], [A; 4]) -> O,
) {
    if wm == 0 {
        return;
    }
    let mut t: Plane = [0; LANES];
    let mut fl: Flags = [0; LANES];
    for l in 0..LANES {
        let (v, u) = f(lane_vec(&s[0], l), lane_vec(&s[1], l)).split();
        t[l] = v;
        fl[l] = u as u8;
    }
    let m = if O::CHECKED { to_mask(&fl) } else { 0 };
    store_replicated(&t, m, wm, out, undef);
}

/// Channel-dependent, one vector source (LIT, EXP, LOG, UP2H): `out[c] = f(s0.xyzw, c)`.
/// Only enabled channels are computed.
#[inline(always)]
pub fn chan1<A: Word, O: Outcome>(
    s: &[Vals],
    wm: u8,
    out: &mut Vals,
    undef: &mut [Mask; 4],
    f: impl Fn([A; 4], usize) -> O,
) {
    for c in channels(wm) {
        let mut fl: Flags = [0; LANES];
        for l in 0..LANES {
            let (v, u) = f(lane_vec(&s[0], l), c).split();
            out[c][l] = v;
            fl[l] = u as u8;
        }
        if O::CHECKED {
            undef[c] |= to_mask(&fl);
        }
    }
}

/// Channel-dependent, two vector sources (DST, XPD): `out[c] = f(s0.xyzw, s1.xyzw, c)`.
#[inline(always)]
pub fn chan2<A: Word, O: Outcome>(
    s: &[Vals],
    wm: u8,
    out: &mut Vals,
    undef: &mut [Mask; 4],
    f: impl Fn([A; 4], [A; 4], usize) -> O,
) {
    for c in channels(wm) {
        let mut fl: Flags = [0; LANES];
        for l in 0..LANES {
            let (v, u) = f(lane_vec(&s[0], l), lane_vec(&s[1], l), c).split();
            out[c][l] = v;
            fl[l] = u as u8;
        }
        if O::CHECKED {
            undef[c] |= to_mask(&fl);
        }
    }
}
