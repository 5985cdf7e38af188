//! IEEE 754 helpers with no modelling choices in them: directed rounding of exact values
//! to `f32`/`f16`, round-to-integral, an exactly rounded single-precision fused
//! multiply-add, and the output clamps of SEMANTICS.md §3.2 (stated by ISA.xml's `Clamp`
//! enum). Everything undocumented lives in [`super::assume`] instead.

use half::f16;

/// IEEE 754 rounding direction (`Round mode` enum, SEMANTICS.md §3.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Round {
    /// Round to nearest, ties to even (`rte`, the default).
    Rte,
    /// Toward +∞ (`rtp`).
    Rtp,
    /// Toward −∞ (`rtn`).
    Rtn,
    /// Toward zero (`rtz`).
    Rtz,
}

impl Round {
    /// The mode named by a `Round mode` enum text.
    pub(crate) fn from_text(text: &str) -> Option<Round> {
        Some(match text {
            "rte" => Round::Rte,
            "rtp" => Round::Rtp,
            "rtn" => Round::Rtn,
            "rtz" => Round::Rtz,
            _ => return None,
        })
    }
}

/// Output clamp (`Clamp` enum, SEMANTICS.md §3.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Clamp {
    /// No clamp.
    None,
    /// `clamp_0_inf`: max(x, 0).
    ZeroInf,
    /// `clamp_m1_1`: min(max(x, −1), 1).
    M1One,
    /// `clamp_0_1`: min(max(x, 0), 1).
    ZeroOne,
}

impl Clamp {
    /// The clamp named by a `Clamp` enum text.
    pub(crate) fn from_text(text: &str) -> Option<Clamp> {
        Some(match text {
            "none" => Clamp::None,
            "clamp_0_inf" => Clamp::ZeroInf,
            "clamp_m1_1" => Clamp::M1One,
            "clamp_0_1" => Clamp::ZeroOne,
            _ => return None,
        })
    }
}

const ONE: u32 = 0x3F80_0000;
const MINUS_ONE: u32 = 0xBF80_0000;

/// `clamp_0_inf` on f32 bits: max(x, +0) where a NaN operand yields the other operand
/// and −0 < +0 (§3.2): NaN, −0 and negatives give +0.
#[inline(always)]
pub(crate) fn clamp_0_inf(x: u32) -> u32 {
    if f32::from_bits(x) > 0.0 {
        x
    } else {
        0
    }
}

/// `clamp_m1_1` on f32 bits (§3.2): NaN → −1.0, −0 stays −0.
#[inline(always)]
pub(crate) fn clamp_m1_1(x: u32) -> u32 {
    let f = f32::from_bits(x);
    if f >= -1.0 {
        if f > 1.0 {
            ONE
        } else {
            x
        }
    } else {
        MINUS_ONE
    }
}

/// `clamp_0_1` on f32 bits (§3.2): NaN → +0, −0 → +0.
#[inline(always)]
pub(crate) fn clamp_0_1(x: u32) -> u32 {
    let f = f32::from_bits(x);
    if f > 0.0 {
        if f > 1.0 {
            ONE
        } else {
            x
        }
    } else {
        0
    }
}

/// Applies `clamp` to every lane (f32 bits).
#[inline(always)]
pub(crate) fn clamp_lanes(clamp: Clamp, r: &mut [u32; 16]) {
    match clamp {
        Clamp::None => {}
        Clamp::ZeroInf => r.iter_mut().for_each(|x| *x = clamp_0_inf(*x)),
        Clamp::M1One => r.iter_mut().for_each(|x| *x = clamp_m1_1(*x)),
        Clamp::ZeroOne => r.iter_mut().for_each(|x| *x = clamp_0_1(*x)),
    }
}

/// Applies `clamp` to one f32 value.
#[inline(always)]
pub(crate) fn clamp_one(clamp: Clamp, x: u32) -> u32 {
    match clamp {
        Clamp::None => x,
        Clamp::ZeroInf => clamp_0_inf(x),
        Clamp::M1One => clamp_m1_1(x),
        Clamp::ZeroOne => clamp_0_1(x),
    }
}

/// Next representable value toward +∞ of a sign-magnitude float given as bits (`sign` =
/// the sign bit, `inf` = the bits of +∞). NaN and +∞ are returned unchanged.
fn next_up_bits(x: u64, sign: u64, inf: u64) -> u64 {
    let mag = x & !sign;
    if mag > inf || x == inf {
        x
    } else if mag == 0 {
        1
    } else if x & sign == 0 {
        x + 1
    } else {
        x - 1
    }
}

/// Next representable value toward −∞ (see [`next_up_bits`]).
fn next_down_bits(x: u64, sign: u64, inf: u64) -> u64 {
    next_up_bits(x ^ sign, sign, inf) ^ sign
}

/// Directed-rounding fix-up shared by the narrowing conversions: `r` is the
/// round-to-nearest result (bits of the narrow format), `cmp` how the exact value compares
/// with `r` (`Less`: exact < r).
fn adjust(r: u64, cmp: std::cmp::Ordering, mode: Round, sign: u64, inf: u64) -> u64 {
    use std::cmp::Ordering::{Greater, Less};
    let neg = r & sign != 0;
    match (mode, cmp) {
        (Round::Rtp, Greater) => next_up_bits(r, sign, inf),
        (Round::Rtn, Less) => next_down_bits(r, sign, inf),
        // Toward zero: step back when rounding went away from zero.
        (Round::Rtz, Less) if !neg => next_down_bits(r, sign, inf),
        (Round::Rtz, Greater) if neg => next_up_bits(r, sign, inf),
        _ => r,
    }
}

/// Rounds the exact value `x` (any finite or infinite f64; NaN passes through) to f32
/// with `mode`, including subnormal results and overflow to ±∞ or ±max as IEEE 754
/// prescribes for that mode.
pub(crate) fn f64_to_f32(x: f64, mode: Round) -> f32 {
    let r = x as f32;
    if mode == Round::Rte || x.is_nan() {
        return r;
    }
    let Some(cmp) = x.partial_cmp(&(r as f64)) else {
        return r;
    };
    let bits = adjust(u64::from(r.to_bits()), cmp, mode, 0x8000_0000, 0x7F80_0000);
    f32::from_bits(bits as u32)
}

/// Rounds an f32 to f16 bits with `mode` (IEEE 754: subnormals, overflow per mode). NaN
/// gives `nan` (the caller's default NaN).
pub(crate) fn f32_to_f16(x: f32, mode: Round, nan: u16) -> u16 {
    if x.is_nan() {
        return nan;
    }
    let r = f16::from_f32(x);
    if mode == Round::Rte {
        return r.to_bits();
    }
    let Some(cmp) = x.partial_cmp(&r.to_f32()) else {
        return r.to_bits();
    };
    adjust(u64::from(r.to_bits()), cmp, mode, 0x8000, 0x7C00) as u16
}

/// f16 bits → f32 bits, exact (NaN payloads kept).
#[inline(always)]
pub(crate) fn f16_to_f32_bits(h: u32) -> u32 {
    f16::from_bits(h as u16).to_f32().to_bits()
}

/// Rounds an f32 to an integral value with `mode` (`FROUND`, and the first step of the
/// float → integer conversions). ±0, ±∞ and NaN pass through.
#[inline]
pub(crate) fn round_integral(x: f32, mode: Round) -> f32 {
    match mode {
        Round::Rte => x.round_ties_even(),
        Round::Rtp => x.ceil(),
        Round::Rtn => x.floor(),
        Round::Rtz => x.trunc(),
    }
}

/// Rounds the f64 sum `s` (= exact − `err`, with `err` the exact rounding error) to f32
/// correctly: `s` is first made "round to odd" (the neighbour with an odd last bit when
/// inexact), which a second rounding to ≤ 51 bits cannot spoil.
#[inline(always)]
fn round_odd_to_f32(s: f64, err: f64) -> f32 {
    let mut bits = s.to_bits();
    if err != 0.0 && bits & 1 == 0 {
        if (err > 0.0) == (s > 0.0) {
            bits += 1;
        } else {
            bits -= 1;
        }
    }
    f64::from_bits(bits) as f32
}

/// Single-rounding fused multiply-add `a·b + c` in f32, round to nearest even (IEEE 754
/// fusedMultiplyAdd). The product is exact in f64; the sum is rounded to odd in f64
/// (TwoSum gives its error) and then to f32, which is correctly rounded because f64
/// keeps more than 24 + 2 bits. Branch-light so that lane loops vectorise.
#[inline(always)]
pub(crate) fn fma_f32(a: f32, b: f32, c: f32) -> f32 {
    let p = a as f64 * b as f64;
    let cc = c as f64;
    let s = p + cc;
    if !s.is_finite() {
        return s as f32;
    }
    let bb = s - p;
    let err = (p - (s - bb)) + (cc - bb);
    round_odd_to_f32(s, err)
}

/// Single-rounding fused multiply-add on f16 values given as f32 (exact), rounded to
/// f16 bits with `mode` (used by `FMA.v2f16`). The f64 round-to-odd sum is narrowed with
/// round-to-odd to f32 (still ≥ 13 bits more than f16), then rounded to f16.
pub(crate) fn fma_f16(a: f32, b: f32, c: f32, nan: u16) -> u16 {
    let p = a as f64 * b as f64;
    let cc = c as f64;
    let s = p + cc;
    if !s.is_finite() {
        return f32_to_f16(s as f32, Round::Rte, nan);
    }
    let bb = s - p;
    let err = (p - (s - bb)) + (cc - bb);
    let mut bits = s.to_bits();
    if err != 0.0 && bits & 1 == 0 {
        if (err > 0.0) == (s > 0.0) {
            bits += 1;
        } else {
            bits -= 1;
        }
    }
    let s = f64::from_bits(bits);
    // Round to odd again, now to f32.
    let r = s as f32;
    let mut rb = u64::from(r.to_bits());
    if (r as f64) != s && rb & 1 == 0 {
        rb = if s > r as f64 {
            next_up_bits(rb, 0x8000_0000, 0x7F80_0000)
        } else {
            next_down_bits(rb, 0x8000_0000, 0x7F80_0000)
        };
    }
    f32_to_f16(f32::from_bits(rb as u32), Round::Rte, nan)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn any_f32() -> impl Strategy<Value = f32> {
        prop_oneof![
            any::<u32>().prop_map(f32::from_bits),
            (-1000i32..1000).prop_map(|i| i as f32 * 0.125),
            any::<u16>().prop_map(|b| f32::from_bits(u32::from(b))),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(4000))]
        #[test]
        fn fma_matches_std(a in any_f32(), b in any_f32(), c in any_f32()) {
            let want = a.mul_add(b, c);
            let got = fma_f32(a, b, c);
            if want.is_nan() {
                prop_assert!(got.is_nan());
            } else {
                prop_assert_eq!(got.to_bits(), want.to_bits(), "{} {} {}", a, b, c);
            }
        }

        #[test]
        fn directed_f64_to_f32_brackets(bits in any::<u64>()) {
            let x = f64::from_bits(bits);
            prop_assume!(!x.is_nan());
            let up = f64_to_f32(x, Round::Rtp) as f64;
            let dn = f64_to_f32(x, Round::Rtn) as f64;
            let z = f64_to_f32(x, Round::Rtz) as f64;
            prop_assert!(up >= x && dn <= x);
            prop_assert!(z.abs() <= x.abs());
            if (x as f32) as f64 == x {
                prop_assert!(up == x && dn == x);
            }
        }
    }

    #[test]
    fn fma_single_rounding() {
        // (1 + 2^-23)(1 - 2^-23) = 1 - 2^-46: a separate multiply would round to 1.0.
        let a = 1.0 + f32::EPSILON;
        let b = 1.0 - f32::EPSILON;
        assert_eq!(fma_f32(a, b, -1.0), -(2f32.powi(-46)));
    }

    #[test]
    fn f16_directed() {
        // 1 + 2^-12 lies between f16 1.0 and 1 + 2^-10.
        let x = 1.0 + 2f32.powi(-12);
        assert_eq!(f32_to_f16(x, Round::Rte, 0x7E00), 0x3C00);
        assert_eq!(f32_to_f16(x, Round::Rtp, 0x7E00), 0x3C01);
        assert_eq!(f32_to_f16(-x, Round::Rtn, 0x7E00), 0xBC01);
        assert_eq!(f32_to_f16(-x, Round::Rtz, 0x7E00), 0xBC00);
        assert_eq!(f32_to_f16(1.0e6, Round::Rtz, 0x7E00), 0x7BFF);
        assert_eq!(f32_to_f16(1.0e6, Round::Rte, 0x7E00), 0x7C00);
    }
}
