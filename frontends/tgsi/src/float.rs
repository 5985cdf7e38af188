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
//!
//! Offsets into `s` never pass its length (at most `isize::MAX`), so the `saturating_add`s
//! that move them never saturate; exponent arithmetic saturates on purpose, as a value far
//! outside the format's range rounds to infinity or zero whatever its exact exponent.

/// IEEE binary format parameters (IEEE 754-2008 §3.3, table 3.2; §3.4 for the encodings).
#[derive(Clone, Copy)]
struct Format {
    /// Explicit mantissa bits (23 or 52).
    mbits: u32,
    /// Smallest normal exponent (unbiased).
    emin: i64,
    /// Largest finite exponent (unbiased).
    emax: i64,
    /// Encoding of +infinity.
    inf_bits: u64,
    /// The sign bit.
    sign_bit: u64,
    /// The mantissa field.
    mant_mask: u64,
    /// The default quiet NaN (only the top mantissa bit set).
    quiet_nan: u64,
}

/// binary32: 8 exponent bits, bias 127.
const F32: Format = Format {
    mbits: 23,
    emin: -126,
    emax: 127,
    inf_bits: 0x7f80_0000,
    sign_bit: 0x8000_0000,
    mant_mask: 0x007f_ffff,
    quiet_nan: 0x7fc0_0000,
};
/// binary64: 11 exponent bits, bias 1023.
const F64: Format = Format {
    mbits: 52,
    emin: -1022,
    emax: 1023,
    inf_bits: 0x7ff0_0000_0000_0000,
    sign_bit: 0x8000_0000_0000_0000,
    mant_mask: 0x000f_ffff_ffff_ffff,
    quiet_nan: 0x7ff8_0000_0000_0000,
};

fn ci_prefix(s: &[u8], word: &str) -> bool {
    s.get(..word.len())
        .is_some_and(|p| p.eq_ignore_ascii_case(word.as_bytes()))
}

fn hex_val(c: u8) -> Option<u32> {
    (c as char).to_digit(16)
}

/// `s` from byte `i` on (empty past the end).
fn tail(s: &[u8], i: usize) -> &[u8] {
    s.get(i..).unwrap_or_default()
}

/// Number of leading bytes of `s` that satisfy `pred`.
fn count_while(s: &[u8], pred: impl Fn(u8) -> bool) -> usize {
    s.iter().take_while(|&&c| pred(c)).count()
}

/// Round `mant * 2^exp` (plus a nonzero tail below `mant` when `sticky`) to the format,
/// nearest-even. Returns the bits without sign.
fn round_binary(mant: u64, sticky: bool, exp: i64, f: Format) -> u64 {
    if mant == 0 {
        return 0;
    }
    // Bit index of the leading one (`mant != 0`, so at most 63 leading zeros).
    let top = i64::from(63u32.saturating_sub(mant.leading_zeros()));
    let e = exp.saturating_add(top); // unbiased exponent of the value
    if e > f.emax {
        return f.inf_bits;
    }
    let mbits = i64::from(f.mbits);
    let min_lsb = f.emin.saturating_sub(mbits); // exponent of the smallest subnormal
    let lsb_exp = e.saturating_sub(mbits).max(min_lsb);
    let shift = lsb_exp.saturating_sub(exp);
    let q: u64 = if shift <= 0 {
        // Exact: fewer significant bits than the format holds, so `mant << -shift` keeps
        // at most `mbits + 1` bits.
        u32::try_from(shift.unsigned_abs())
            .ok()
            .and_then(|k| mant.checked_shl(k))
            .unwrap_or(0)
    } else if shift >= 128 {
        0
    } else {
        // 1 <= shift <= 127.
        let k = u32::try_from(shift).unwrap_or(127);
        let m = u128::from(mant);
        let q = m.checked_shr(k).unwrap_or(0);
        let half = 1u128.checked_shl(k.saturating_sub(1)).unwrap_or(0);
        // `half << 1` is at least 2 and at most 2^127: subtracting 1 does not wrap.
        let rem = m & half.wrapping_shl(1).wrapping_sub(1);
        let up = rem > half || (rem == half && (sticky || q & 1 == 1));
        // `q` holds at most `mbits + 1` bits, so adding 1 stays far below `u64::MAX`.
        u64::try_from(q.saturating_add(u128::from(up))).unwrap_or(u64::MAX)
    };
    // Biased exponent field: `lsb_exp >= min_lsb` and `e <= emax` bound it to 0..=2^11.
    let biased = u64::try_from(lsb_exp.saturating_sub(min_lsb)).unwrap_or(0);
    // A carry out of `q` into the exponent field is the rounding to the next binade.
    let bits = biased
        .checked_shl(f.mbits)
        .and_then(|b| b.checked_add(q))
        .unwrap_or(f.inf_bits);
    bits.min(f.inf_bits)
}

/// Length of an optional leading sign: `(negative, 0 or 1)`.
fn sign_len(s: &[u8]) -> (bool, usize) {
    match s.first() {
        Some(b'-') => (true, 1),
        Some(b'+') => (false, 1),
        _ => (false, 0),
    }
}

/// `nan` optionally followed by `(n-char-sequence)` at `s[i..]`; returns the bits without
/// sign and the end offset.
fn scan_nan(s: &[u8], i: usize, f: Format) -> (u64, usize) {
    let mut bits = f.quiet_nan;
    let mut len = i.saturating_add(3);
    if s.get(len) == Some(&b'(') {
        let start = len.saturating_add(1);
        let n_chars = count_while(tail(s, start), |c| c.is_ascii_alphanumeric() || c == b'_');
        let close = start.saturating_add(n_chars);
        if s.get(close) == Some(&b')') {
            if let Some((v, n)) = s.get(start..close).and_then(strtoull) {
                let m = v & f.mant_mask;
                if n == n_chars && m != 0 {
                    bits = f.inf_bits | m;
                }
            }
            len = close.saturating_add(1);
        }
    }
    (bits, len)
}

/// Scans a C floating-point literal at the start of `s`. Returns the bits and the number
/// of bytes consumed, or `None` when `strtod` would perform no conversion.
fn scan(s: &[u8], f: Format) -> Option<(u64, usize)> {
    let (neg, i) = sign_len(s);
    let sign = if neg { f.sign_bit } else { 0 };
    let rest = tail(s, i);
    if ci_prefix(rest, "infinity") {
        return Some((sign | f.inf_bits, i.saturating_add(8)));
    }
    if ci_prefix(rest, "inf") {
        return Some((sign | f.inf_bits, i.saturating_add(3)));
    }
    if ci_prefix(rest, "nan") {
        let (bits, len) = scan_nan(s, i, f);
        return Some((sign | bits, len));
    }
    if rest.len() >= 3
        && rest[0] == b'0'
        && (rest[1] | 0x20) == b'x'
        && (hex_val(rest[2]).is_some()
            || (rest[2] == b'.' && rest.get(3).and_then(|&c| hex_val(c)).is_some()))
    {
        let (bits, n) = scan_hex(tail(rest, 2), f);
        return Some((sign | bits, i.saturating_add(2).saturating_add(n)));
    }
    // Decimal: digits [. digits] [e [sign] digits], at least one mantissa digit.
    let int_digits = count_while(rest, |c| c.is_ascii_digit());
    let mut j = i.saturating_add(int_digits);
    let mut digits = int_digits;
    if s.get(j) == Some(&b'.') {
        j = j.saturating_add(1);
        let frac_digits = count_while(tail(s, j), |c| c.is_ascii_digit());
        j = j.saturating_add(frac_digits);
        digits = digits.saturating_add(frac_digits);
    }
    if digits == 0 {
        return None;
    }
    if s.get(j).is_some_and(|&c| c | 0x20 == b'e') {
        let mut k = j.saturating_add(1);
        if matches!(s.get(k), Some(b'+' | b'-')) {
            k = k.saturating_add(1);
        }
        let exp_digits = count_while(tail(s, k), |c| c.is_ascii_digit());
        if exp_digits > 0 {
            j = k.saturating_add(exp_digits);
        }
    }
    let text = std::str::from_utf8(s.get(i..j)?).ok()?;
    let bits = if f.mbits == 23 {
        u64::from(text.parse::<f32>().ok()?.to_bits())
    } else {
        text.parse::<f64>().ok()?.to_bits()
    };
    Some((sign | bits, j))
}

/// Adds one hex digit to the mantissa being accumulated (64 bits kept, the rest sticky).
fn push_hex_digit(d: u32, frac: bool, mant: &mut u64, exp: &mut i64, sticky: &mut bool) {
    if *mant < 1 << 60 {
        // Below 2^60, so multiplying by 16 cannot saturate.
        *mant = mant.saturating_mul(16) | u64::from(d);
        if frac {
            *exp = exp.saturating_sub(4);
        }
    } else {
        *sticky |= d != 0;
        if !frac {
            *exp = exp.saturating_add(4);
        }
    }
}

/// Binary exponent `p [sign] digits` at `s[i..]`: `(exponent, end offset)`, or `None` when
/// no exponent is written there. The magnitude is capped at 2^40, far beyond any format.
fn scan_binary_exponent(s: &[u8], i: usize) -> Option<(i64, usize)> {
    if s.get(i).is_none_or(|&c| c | 0x20 != b'p') {
        return None;
    }
    let (eneg, sign) = sign_len(tail(s, i.saturating_add(1)));
    let k = i.saturating_add(1).saturating_add(sign);
    let digits = tail(s, k);
    let n = count_while(digits, |c| c.is_ascii_digit());
    if n == 0 {
        return None;
    }
    let e = digits.iter().take(n).fold(0i64, |e, &c| {
        let d = (c as char).to_digit(10).map_or(0, i64::from);
        e.saturating_mul(10).saturating_add(d).min(1 << 40)
    });
    Some((
        if eneg { e.saturating_neg() } else { e },
        k.saturating_add(n),
    ))
}

/// Hex float body after `0x`: hexdigits [. hexdigits] [p [sign] digits].
fn scan_hex(s: &[u8], f: Format) -> (u64, usize) {
    let mut mant: u64 = 0;
    let mut sticky = false;
    let mut exp: i64 = 0;
    let mut i = 0usize;
    while let Some(d) = s.get(i).and_then(|&c| hex_val(c)) {
        push_hex_digit(d, false, &mut mant, &mut exp, &mut sticky);
        i = i.saturating_add(1);
    }
    if s.get(i) == Some(&b'.') {
        i = i.saturating_add(1);
        while let Some(d) = s.get(i).and_then(|&c| hex_val(c)) {
            push_hex_digit(d, true, &mut mant, &mut exp, &mut sticky);
            i = i.saturating_add(1);
        }
    }
    if let Some((e, end)) = scan_binary_exponent(s, i) {
        exp = exp.saturating_add(e);
        i = end;
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
    let (neg, i) = sign_len(s);
    let body = tail(s, i);
    let (base, prefix) = if body.first() == Some(&b'0')
        && body.get(1).is_some_and(|&c| c | 0x20 == b'x')
        && body.get(2).and_then(|&c| hex_val(c)).is_some()
    {
        (16u32, 2)
    } else if body.first() == Some(&b'0') {
        (8, 0)
    } else {
        (10, 0)
    };
    let start = i.saturating_add(prefix);
    let mut j = start;
    let mut v: u64 = 0;
    let mut overflow = false;
    while let Some(d) = s.get(j).and_then(|&c| (c as char).to_digit(base)) {
        match v
            .checked_mul(u64::from(base))
            .and_then(|x| x.checked_add(u64::from(d)))
        {
            Some(x) => v = x,
            None => overflow = true,
        }
        j = j.saturating_add(1);
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
        let body = if bits & 0x8000_0000 != 0 {
            "-nan"
        } else {
            "nan"
        };
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
    let neg = bits & f.sign_bit != 0;
    let mag = bits & !f.sign_bit;
    if mag > f.inf_bits {
        let sign = if neg { "-" } else { "" };
        let m = mag & f.mant_mask;
        return if mag == f.quiet_nan {
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
