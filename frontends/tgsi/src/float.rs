//! Number syntax of TGSI immediates (TEXT-FORMAT.md §1 and §8).
//!
//! * [`strtof`] / [`strtod`]: what C `strtof`/`strtod` (C locale, glibc) accept at the
//!   start of a string — decimal (`1`, `1.`, `.5`, `-2.5e-3`, `+1`), hexadecimal
//!   (`0x1.8p+1`, and `0x3f800000` which is the *float* 1065353216.0), `inf`,
//!   `infinity`, `nan` and `nan(n-char-sequence)` — with round-to-nearest-even.
//!   The NaN payload is the whole mantissa field (`nan(0x400001)` is `0x7fc00001`); for
//!   quiet NaNs this matches glibc, which additionally forces the quiet bit.
//! * [`strtoull`] / [`strtoll`]: base-0 integer parsing (`0x` hex, leading `0` octal),
//!   saturating on overflow like C; `strtoull` accepts a `-` sign (negation mod 2^64).
//! * [`fmt_fixed`]: C `printf("%W.Pf")` for a double (glibc output, `nan`/`-nan`/`inf`).
//! * [`fmt_f32_lossless`] / [`fmt_f64_lossless`]: shortest text that reads back bit-exactly
//!   with [`strtof`]/[`strtod`] (`1e-5`, `-0.0`, `inf`, `nan(0x1)`).
//!
//! All functions work on ASCII bytes and never panic.
// Not yet audited for clippy::arithmetic_side_effects (the crate warns of it): cursor
// offsets within the text and float exponent arithmetic, to be made checked next.
#![allow(clippy::arithmetic_side_effects)]

/// IEEE binary format parameters.
#[derive(Clone, Copy)]
struct Format {
    /// Explicit mantissa bits (23 or 52).
    mbits: u32,
    /// Exponent bits (8 or 11).
    ebits: u32,
}

const F32: Format = Format {
    mbits: 23,
    ebits: 8,
};
const F64: Format = Format {
    mbits: 52,
    ebits: 11,
};

impl Format {
    fn emin(self) -> i64 {
        2 - (1i64 << (self.ebits - 1))
    }
    fn emax(self) -> i64 {
        (1i64 << (self.ebits - 1)) - 1
    }
    fn inf_bits(self) -> u64 {
        ((1u64 << self.ebits) - 1) << self.mbits
    }
    fn sign_bit(self) -> u64 {
        1u64 << (self.mbits + self.ebits)
    }
    fn mant_mask(self) -> u64 {
        (1u64 << self.mbits) - 1
    }
    fn quiet_nan(self) -> u64 {
        self.inf_bits() | (1u64 << (self.mbits - 1))
    }
}

fn ci_prefix(s: &[u8], word: &str) -> bool {
    s.len() >= word.len() && s[..word.len()].eq_ignore_ascii_case(word.as_bytes())
}

fn hex_val(c: u8) -> Option<u32> {
    (c as char).to_digit(16)
}

/// Round `mant * 2^exp` (plus a nonzero tail below `mant` when `sticky`) to the format,
/// nearest-even. Returns the bits without sign.
fn round_binary(mant: u64, sticky: bool, exp: i64, f: Format) -> u64 {
    if mant == 0 {
        return 0;
    }
    let top = 63 - mant.leading_zeros() as i64; // bit index of the leading one
    let e = exp + top; // unbiased exponent of the value
    if e > f.emax() {
        return f.inf_bits();
    }
    let mbits = f.mbits as i64;
    let lsb_exp = (e - mbits).max(f.emin() - mbits);
    let shift = lsb_exp - exp;
    let q: u64 = if shift <= 0 {
        // Exact: fewer significant bits than the format holds.
        mant << (-shift) as u32
    } else if shift >= 128 {
        0
    } else {
        let m = mant as u128;
        let q = m >> shift;
        let rem = m & ((1u128 << shift) - 1);
        let half = 1u128 << (shift - 1);
        let up = rem > half || (rem == half && (sticky || q & 1 == 1));
        (q + up as u128) as u64
    };
    let bits = (((lsb_exp - (f.emin() - mbits)) as u64) << f.mbits) + q;
    bits.min(f.inf_bits())
}

/// Scans a C floating-point literal at the start of `s`. Returns the bits and the number
/// of bytes consumed, or `None` when `strtod` would perform no conversion.
fn scan(s: &[u8], f: Format) -> Option<(u64, usize)> {
    let mut i = 0;
    let neg = match s.first() {
        Some(b'-') => {
            i += 1;
            true
        }
        Some(b'+') => {
            i += 1;
            false
        }
        _ => false,
    };
    let sign = if neg { f.sign_bit() } else { 0 };
    let rest = &s[i..];
    if ci_prefix(rest, "infinity") {
        return Some((sign | f.inf_bits(), i + 8));
    }
    if ci_prefix(rest, "inf") {
        return Some((sign | f.inf_bits(), i + 3));
    }
    if ci_prefix(rest, "nan") {
        let mut bits = f.quiet_nan();
        let mut len = i + 3;
        if s.get(len) == Some(&b'(') {
            let start = len + 1;
            let mut j = start;
            while j < s.len() && (s[j].is_ascii_alphanumeric() || s[j] == b'_') {
                j += 1;
            }
            if s.get(j) == Some(&b')') {
                if let Some((v, n)) = strtoull(&s[start..j]) {
                    let m = v & f.mant_mask();
                    if start + n == j && m != 0 {
                        bits = f.inf_bits() | m;
                    }
                }
                len = j + 1;
            }
        }
        return Some((sign | bits, len));
    }
    if rest.len() >= 3
        && rest[0] == b'0'
        && (rest[1] | 0x20) == b'x'
        && (hex_val(rest[2]).is_some()
            || (rest[2] == b'.' && rest.get(3).and_then(|&c| hex_val(c)).is_some()))
    {
        let (bits, n) = scan_hex(&rest[2..], f);
        return Some((sign | bits, i + 2 + n));
    }
    // Decimal: digits [. digits] [e [sign] digits], at least one mantissa digit.
    let mut j = i;
    let mut digits = 0;
    while j < s.len() && s[j].is_ascii_digit() {
        j += 1;
        digits += 1;
    }
    if j < s.len() && s[j] == b'.' {
        j += 1;
        while j < s.len() && s[j].is_ascii_digit() {
            j += 1;
            digits += 1;
        }
    }
    if digits == 0 {
        return None;
    }
    if j < s.len() && (s[j] | 0x20) == b'e' {
        let mut k = j + 1;
        if k < s.len() && (s[k] == b'+' || s[k] == b'-') {
            k += 1;
        }
        if k < s.len() && s[k].is_ascii_digit() {
            while k < s.len() && s[k].is_ascii_digit() {
                k += 1;
            }
            j = k;
        }
    }
    let text = std::str::from_utf8(&s[i..j]).ok()?;
    let bits = if f.mbits == 23 {
        text.parse::<f32>().ok()?.to_bits() as u64
    } else {
        text.parse::<f64>().ok()?.to_bits()
    };
    Some((sign | bits, j))
}

/// Hex float body after `0x`: hexdigits [. hexdigits] [p [sign] digits].
fn scan_hex(s: &[u8], f: Format) -> (u64, usize) {
    let mut mant: u64 = 0;
    let mut sticky = false;
    let mut exp: i64 = 0;
    let mut i = 0;
    let add = |d: u32, frac: bool, mant: &mut u64, exp: &mut i64, sticky: &mut bool| {
        if *mant >> 60 == 0 {
            *mant = (*mant << 4) | d as u64;
            if frac {
                *exp -= 4;
            }
        } else {
            *sticky |= d != 0;
            if !frac {
                *exp += 4;
            }
        }
    };
    while let Some(d) = s.get(i).and_then(|&c| hex_val(c)) {
        add(d, false, &mut mant, &mut exp, &mut sticky);
        i += 1;
    }
    if s.get(i) == Some(&b'.') {
        i += 1;
        while let Some(d) = s.get(i).and_then(|&c| hex_val(c)) {
            add(d, true, &mut mant, &mut exp, &mut sticky);
            i += 1;
        }
    }
    if let Some(&c) = s.get(i) {
        if c | 0x20 == b'p' {
            let mut k = i + 1;
            let mut eneg = false;
            if let Some(&sc) = s.get(k) {
                if sc == b'+' || sc == b'-' {
                    eneg = sc == b'-';
                    k += 1;
                }
            }
            if s.get(k).is_some_and(|c| c.is_ascii_digit()) {
                let mut e: i64 = 0;
                while let Some(&c) = s.get(k) {
                    if !c.is_ascii_digit() {
                        break;
                    }
                    e = (e * 10 + (c - b'0') as i64).min(1 << 40);
                    k += 1;
                }
                exp += if eneg { -e } else { e };
                i = k;
            }
        }
    }
    (round_binary(mant, sticky, exp, f), i)
}

/// C `strtof` at the start of `s`: `(f32 bits, bytes consumed)`, `None` if no conversion.
pub fn strtof(s: &[u8]) -> Option<(u32, usize)> {
    scan(s, F32).map(|(b, n)| (b as u32, n))
}

/// C `strtod` at the start of `s`: `(f64 bits, bytes consumed)`, `None` if no conversion.
pub fn strtod(s: &[u8]) -> Option<(u64, usize)> {
    scan(s, F64)
}

/// Base-0 magnitude scan: `(negative, magnitude, overflowed, bytes consumed)`.
fn scan_int(s: &[u8]) -> Option<(bool, u64, bool, usize)> {
    let mut i = 0;
    let neg = match s.first() {
        Some(b'-') => {
            i += 1;
            true
        }
        Some(b'+') => {
            i += 1;
            false
        }
        _ => false,
    };
    let (base, start) = if s.get(i) == Some(&b'0')
        && s.get(i + 1).is_some_and(|&c| c | 0x20 == b'x')
        && s.get(i + 2).and_then(|&c| hex_val(c)).is_some()
    {
        (16u32, i + 2)
    } else if s.get(i) == Some(&b'0') {
        (8, i)
    } else {
        (10, i)
    };
    let mut j = start;
    let mut v: u64 = 0;
    let mut overflow = false;
    while let Some(d) = s.get(j).and_then(|&c| (c as char).to_digit(base)) {
        match v
            .checked_mul(base as u64)
            .and_then(|x| x.checked_add(d as u64))
        {
            Some(x) => v = x,
            None => overflow = true,
        }
        j += 1;
    }
    if j == start {
        return None;
    }
    Some((neg, v, overflow, j))
}

/// C `strtoull(s, &end, 0)`: `(value, bytes consumed)`; overflow gives `u64::MAX`,
/// a `-` sign negates modulo 2^64 (`-1` is `u64::MAX`).
pub fn strtoull(s: &[u8]) -> Option<(u64, usize)> {
    let (neg, v, overflow, n) = scan_int(s)?;
    let v = if overflow {
        u64::MAX
    } else if neg {
        v.wrapping_neg()
    } else {
        v
    };
    Some((v, n))
}

/// C `strtoll(s, &end, 0)`: `(value, bytes consumed)`; overflow saturates to
/// `i64::MAX`/`i64::MIN`.
pub fn strtoll(s: &[u8]) -> Option<(i64, usize)> {
    let (neg, v, overflow, n) = scan_int(s)?;
    let v = if neg {
        if overflow || v > 1u64 << 63 {
            i64::MIN
        } else {
            (v as i64).wrapping_neg()
        }
    } else if overflow || v > i64::MAX as u64 {
        i64::MAX
    } else {
        v as i64
    };
    Some((v, n))
}

/// C `printf("%{width}.{prec}f", x)` as glibc prints it (exact decimal expansion,
/// round-half-even, `nan`, `-nan`, `inf`, `-inf`), right-aligned in `width` columns.
pub fn fmt_fixed(x: f64, width: usize, prec: usize) -> String {
    let body = if x.is_nan() {
        if x.is_sign_negative() { "-nan" } else { "nan" }.to_string()
    } else if x.is_infinite() {
        if x < 0.0 { "-inf" } else { "inf" }.to_string()
    } else {
        format!("{x:.prec$}")
    };
    format!("{body:>width$}")
}

/// `printf("%{width}.{prec}f", f)` for the f32 with these bits (C promotes it to double);
/// NaNs keep their sign (`-nan`).
pub fn fmt_f32_fixed(bits: u32, width: usize, prec: usize) -> String {
    let f = f32::from_bits(bits);
    if f.is_nan() {
        let body = if bits >> 31 != 0 { "-nan" } else { "nan" };
        return format!("{body:>width$}");
    }
    fmt_fixed(f as f64, width, prec)
}

/// Shortest `strtof`-readable text for the f32 with these bits (`0.5`, `1e-5`, `-0.0`,
/// `inf`, `nan`, `-nan(0x1)`); [`strtof`] reads it back to exactly `bits`.
pub fn fmt_f32_lossless(bits: u32) -> String {
    fmt_lossless(bits as u64, F32)
}

/// Shortest `strtod`-readable text for the f64 with these bits; see [`fmt_f32_lossless`].
pub fn fmt_f64_lossless(bits: u64) -> String {
    fmt_lossless(bits, F64)
}

fn fmt_lossless(bits: u64, f: Format) -> String {
    let neg = bits & f.sign_bit() != 0;
    let mag = bits & !f.sign_bit();
    if mag > f.inf_bits() {
        let sign = if neg { "-" } else { "" };
        let m = mag & f.mant_mask();
        return if mag == f.quiet_nan() {
            format!("{sign}nan")
        } else {
            format!("{sign}nan(0x{m:x})")
        };
    }
    if f.mbits == 23 {
        format!("{:?}", f32::from_bits(bits as u32))
    } else {
        format!("{:?}", f64::from_bits(bits))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // Expected values: C99 7.20.1.3 (strtod) semantics; bit patterns are IEEE 754 encodings.
    #[test]
    fn hex_floats() {
        assert_eq!(strtof(b"0x1.8p+1"), Some((3.0f32.to_bits(), 8)));
        assert_eq!(strtof(b"0x3f800000"), Some((1065353216.0f32.to_bits(), 10)));
        assert_eq!(strtof(b"0x1p-149"), Some((1, 8)));
        assert_eq!(strtof(b"0x1p-150"), Some((0, 8)));
        assert_eq!(strtof(b"0x1.8p-149"), Some((2, 10)));
        assert_eq!(strtof(b"0x1p128"), Some((0x7f80_0000, 7)));
        assert_eq!(strtof(b"0x1.fffffep127"), Some((0x7f7f_ffff, 14)));
        assert_eq!(strtof(b"0x1.ffffffp127"), Some((0x7f80_0000, 14)));
        assert_eq!(strtof(b"0x"), Some((0, 1)));
        assert_eq!(strtod(b"0x1p-1074"), Some((1, 9)));
        assert_eq!(strtof(b"0x1.000001p0"), Some((0x3f80_0000, 12)));
        assert_eq!(strtof(b"0x1.0000011p0"), Some((0x3f80_0001, 13)));
    }

    #[test]
    fn specials_and_prefixes() {
        assert_eq!(strtof(b"inf,"), Some((0x7f80_0000, 3)));
        assert_eq!(strtof(b"-Infinity"), Some((0xff80_0000, 9)));
        assert_eq!(strtof(b"nan"), Some((0x7fc0_0000, 3)));
        assert_eq!(strtof(b"-nan(0x1)"), Some((0xff80_0001, 9)));
        assert_eq!(strtof(b"nan(0x400001)"), Some((0x7fc0_0001, 13)));
        assert_eq!(strtof(b"nan(zz"), Some((0x7fc0_0000, 3)));
        assert_eq!(strtof(b"1.e"), Some((1.0f32.to_bits(), 2)));
        assert_eq!(strtof(b".5}"), Some((0.5f32.to_bits(), 2)));
        assert_eq!(strtof(b"-"), None);
        assert_eq!(strtof(b"."), None);
        assert_eq!(strtof(b"1e999"), Some((0x7f80_0000, 5)));
    }

    #[test]
    fn base0_integers() {
        assert_eq!(strtoll(b"010"), Some((8, 3)));
        assert_eq!(strtoll(b"0x10"), Some((16, 4)));
        assert_eq!(strtoll(b"08"), Some((0, 1)));
        assert_eq!(strtoull(b"-1"), Some((u64::MAX, 2)));
        assert_eq!(strtoll(b"99999999999999999999"), Some((i64::MAX, 20)));
        assert_eq!(strtoll(b"-9223372036854775808"), Some((i64::MIN, 20)));
        assert_eq!(strtoull(b"x"), None);
    }

    #[test]
    fn lossless_round_trips() {
        for bits in [
            0u32,
            0x8000_0000,
            1,
            0x7f7f_ffff,
            0x7fc0_0000,
            0xffc0_0000,
            0x7f80_0001,
            0x3dcc_cccd,
        ] {
            let t = fmt_f32_lossless(bits);
            assert_eq!(strtof(t.as_bytes()), Some((bits, t.len())), "{t}");
        }
        assert_eq!(fmt_f32_lossless(0x8000_0000), "-0.0");
        assert_eq!(fmt_f32_lossless(0x7f80_0001), "nan(0x1)");
    }
}
