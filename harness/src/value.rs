//! Leaf values of the inputs file (INTERFACE.md "The inputs file"): channel values,
//! vec4s, hex byte strings, register names and global-memory addresses.
//!
//! Every function here takes the JSON text of one value (as `serde_json::value::RawValue`
//! hands it out) or one string, and returns the 32-bit word(s) or a one-line message
//! saying what was expected. Positions are added by the caller ([`crate::inputs`]).
// Numbers here come from user input (program text, inputs files, machine code): no
// arithmetic may wrap or panic unnoticed.
#![warn(clippy::arithmetic_side_effects)]

use serde_json::value::RawValue;
use shaderdiff_model::File;
use shaderdiff_oracles::{RegKey, Vec4};

/// The bits of the canonical quiet NaN written by `"nan"` (sign clear, quiet bit set).
pub const CANONICAL_NAN: u32 = 0x7fc0_0000;

/// What a channel value may be, for error messages.
pub const CHANNEL_FORMS: &str = "a channel value: \"0x3f800000\" (raw bits), \"i:-3\", \"u:7\", \
     a number, \"f:1.5\", \"nan\", \"inf\", \"-inf\" or \"-0.0\"";

/// Parses one channel value from its JSON text (INTERFACE.md "A channel value is one
/// 32-bit word").
///
/// * `"0x3f800000"`: raw bits (1 to 8 hex digits).
/// * `"i:-3"`: a signed 32-bit integer (two's complement); `"u:7"`: an unsigned one.
/// * a JSON number, `"f:1.5"`, or a string holding a decimal float such as `"-0.0"`:
///   the value rounded to the nearest binary32 (ties to even; magnitudes beyond the
///   binary32 range round to infinity). JSON `1` and `1.0` are both the float 1.0.
/// * `"nan"` ([`CANONICAL_NAN`]), `"-nan"`, `"inf"`, `"-inf"` (case-insensitive).
///
/// Errors: a message naming the offending text and the accepted forms.
pub fn parse_channel(json: &str) -> Result<u32, String> {
    let json = json.trim();
    match json.as_bytes().first() {
        Some(b'"') => {
            let s: String =
                serde_json::from_str(json).map_err(|e| format!("invalid string {json}: {e}"))?;
            parse_channel_str(&s)
        }
        Some(b'-' | b'0'..=b'9') => parse_float(json)
            .ok_or_else(|| format!("invalid number {json}: expected {CHANNEL_FORMS}")),
        Some(b't' | b'f') => Err(format!(
            "found a boolean ({json}), expected {CHANNEL_FORMS}"
        )),
        Some(b'n') => Err(format!("found null, expected {CHANNEL_FORMS}")),
        Some(b'[') => Err(format!("found a list, expected {CHANNEL_FORMS}")),
        Some(b'{') => Err(format!("found an object, expected {CHANNEL_FORMS}")),
        _ => Err(format!("found {json:?}, expected {CHANNEL_FORMS}")),
    }
}

/// Parses the text inside a channel-value string (see [`parse_channel`]).
pub fn parse_channel_str(s: &str) -> Result<u32, String> {
    let bad = |why: &str| format!("invalid channel value {s:?}: {why}");
    if let Some(hex) = s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        if hex.is_empty() || hex.len() > 8 || !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err(bad("raw bits are 1 to 8 hex digits after 0x"));
        }
        return u32::from_str_radix(hex, 16).map_err(|e| bad(&e.to_string()));
    }
    if let Some(int) = s.strip_prefix("i:") {
        return int
            .parse::<i32>()
            .map(|v| v as u32)
            .map_err(|_| bad("expected a signed 32-bit decimal integer after i:"));
    }
    if let Some(uint) = s.strip_prefix("u:") {
        return uint
            .parse::<u32>()
            .map_err(|_| bad("expected an unsigned 32-bit decimal integer after u:"));
    }
    if let Some(f) = s.strip_prefix("f:") {
        return parse_float_word(f).ok_or_else(|| bad("expected a decimal float after f:"));
    }
    parse_float_word(s).ok_or_else(|| bad(&format!("expected {CHANNEL_FORMS}")))
}

/// A float as text, including `nan`, `-nan`, `inf`, `-inf`, `infinity` (case-insensitive).
fn parse_float_word(s: &str) -> Option<u32> {
    match s.to_ascii_lowercase().as_str() {
        "nan" | "+nan" => Some(CANONICAL_NAN),
        "-nan" => Some(CANONICAL_NAN | 0x8000_0000),
        _ => parse_float(s),
    }
}

/// A decimal float rounded to binary32 (Rust's `f32::from_str` rounds correctly, ties to
/// even, straight from the decimal text: no double rounding through f64).
fn parse_float(s: &str) -> Option<u32> {
    // Rust also accepts "inf"/"nan" spellings; NaN spellings are handled by the caller.
    let lower = s.to_ascii_lowercase();
    if lower.contains("nan") {
        return None;
    }
    s.parse::<f32>().ok().map(f32::to_bits)
}

/// Parses a vec4: a JSON list of exactly four channel values.
///
/// Errors: `(0, message)` when the list itself is wrong (not a list, not 4 elements),
/// `(k, message)` when element `k - 1` is not a channel value.
pub fn parse_vec4(json: &RawValue) -> Result<Vec4, (usize, String)> {
    let elems = list_elements(json).map_err(|m| (0, m))?;
    if elems.len() != 4 {
        return Err((
            0,
            format!(
                "a vec4 has 4 channel values, this list has {} ({})",
                elems.len(),
                json.get()
            ),
        ));
    }
    let mut v = [0u32; 4];
    for (i, e) in elems.iter().enumerate() {
        v[i] = parse_channel(e.get()).map_err(|m| (i.saturating_add(1), m))?;
    }
    Ok(v)
}

/// The elements of a JSON list, as raw text. Errors if `json` is not a list.
pub fn list_elements(json: &RawValue) -> Result<Vec<&RawValue>, String> {
    if !json.get().trim_start().starts_with('[') {
        return Err(format!("expected a list, found {}", describe(json.get())));
    }
    serde_json::from_str::<Vec<&RawValue>>(json.get()).map_err(|e| e.to_string())
}

/// A short description of a JSON value's kind for messages (`a number (3)`, `a string`...).
pub fn describe(json: &str) -> String {
    let t = json.trim();
    let short: String = t.chars().take(24).collect();
    let short = if short.len() < t.len() {
        format!("{short}...")
    } else {
        short
    };
    match t.as_bytes().first() {
        Some(b'"') => format!("a string ({short})"),
        Some(b'[') => "a list".to_string(),
        Some(b'{') => "an object".to_string(),
        Some(b't' | b'f') => format!("a boolean ({short})"),
        Some(b'n') => "null".to_string(),
        _ => format!("a number ({short})"),
    }
}

/// Parses a hex byte string (`"0000803f"`): pairs of hex digits, first pair = byte 0
/// (the file gives memory contents little-endian, so this is memory order). ASCII
/// whitespace between digits is ignored. Errors on an odd digit count or a non-hex char.
pub fn parse_hex_bytes(s: &str) -> Result<Vec<u8>, String> {
    let digits: Vec<u8> = s.bytes().filter(|b| !b.is_ascii_whitespace()).collect();
    if let Some(bad) = digits.iter().find(|b| !b.is_ascii_hexdigit()) {
        return Err(format!(
            "invalid hex byte string: {:?} is not a hex digit",
            *bad as char
        ));
    }
    if digits.len() & 1 != 0 {
        return Err(format!(
            "invalid hex byte string: {} hex digits is not a whole number of bytes",
            digits.len()
        ));
    }
    Ok(digits
        .chunks(2)
        .map(|p| (hex_val(p[0]) << 4) | hex_val(p[1]))
        .collect())
}

fn hex_val(b: u8) -> u8 {
    // Callers pass hex digits only (checked first); anything else reads as 0.
    char::from(b).to_digit(16).map_or(0, |d| d as u8)
}

/// Formats bytes as lowercase hex pairs (the inverse of [`parse_hex_bytes`]).
pub fn hex_bytes(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Parses a global-memory base address key: `"0x10000"` (hex) or a decimal number.
pub fn parse_address(s: &str) -> Result<u64, String> {
    let r = match s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        Some(hex) => u64::from_str_radix(hex, 16),
        None => s.parse::<u64>(),
    };
    r.map_err(|_| format!("invalid address {s:?}: expected a hex address such as \"0x10000\""))
}

/// Parses a register name as the inputs file spells it: `FILE[index]` or
/// `FILE[dimension][index]` (`IN[0]`, `SV[1]`, `CONST[2]`, `CONST[1][2]`, `BUFFER[0]`).
/// The file name is case-insensitive (as in TGSI text); indices are decimal.
pub fn parse_reg_name(s: &str) -> Result<RegKey, String> {
    let bad = || {
        format!("invalid register name {s:?}: expected FILE[index] or FILE[dimension][index], e.g. \"IN[0]\" or \"CONST[1][2]\"")
    };
    let open = s.find('[').ok_or_else(bad)?;
    let file = File::from_name(&s[..open]).ok_or_else(|| {
        format!(
            "invalid register name {s:?}: unknown register file {:?}",
            &s[..open]
        )
    })?;
    let mut idx = Vec::new();
    let mut rest = &s[open..];
    while !rest.is_empty() {
        let inner = rest.strip_prefix('[').ok_or_else(bad)?;
        let close = inner.find(']').ok_or_else(bad)?;
        let digits = &inner[..close];
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return Err(bad());
        }
        idx.push(digits.parse::<u32>().map_err(|_| bad())?);
        rest = &inner[close.saturating_add(1)..];
    }
    match idx[..] {
        [i] => Ok(RegKey::new(file, i)),
        [d, i] => Ok(RegKey {
            file,
            dimension: Some(d),
            index: i,
        }),
        _ => Err(bad()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    // Expected words: IEEE 754 binary32 encodings (sign | 8-bit exponent biased by 127 |
    // 23-bit fraction) and two's complement, as INTERFACE.md "The inputs file" defines the
    // forms: 1.5 = 1.1b x 2^0 -> 0 01111111 100...0 = 0x3fc00000; 1.0 -> 0x3f800000;
    // -0.0 -> sign bit only; -3 -> 2^32 - 3 = 0xfffffffd; +inf -> exponent all ones.
    #[rstest]
    #[case("\"f:1.5\"", 0x3fc0_0000)]
    #[case("\"-0.0\"", 0x8000_0000)]
    #[case("\"i:-3\"", 0xffff_fffd)]
    #[case("\"u:7\"", 7)]
    #[case("\"u:4294967295\"", 0xffff_ffff)]
    #[case("\"i:-2147483648\"", 0x8000_0000)]
    #[case("1", 0x3f80_0000)]
    #[case("1.0", 0x3f80_0000)]
    #[case("-2", 0xc000_0000)]
    #[case("0", 0)]
    #[case("\"0x3f800000\"", 0x3f80_0000)]
    #[case("\"0x0\"", 0)]
    #[case("\"0XFFFFFFFF\"", 0xffff_ffff)]
    #[case("\"inf\"", 0x7f80_0000)]
    #[case("\"-inf\"", 0xff80_0000)]
    #[case("\"nan\"", CANONICAL_NAN)]
    #[case("1e39", 0x7f80_0000)]
    // beyond f32 max (3.4028235e38): rounds to +inf
    // 0.1 = 0x3dcccccd: the binary32 nearest to 1/10 (IEEE 754 round to nearest).
    #[case("0.1", 0x3dcc_cccd)]
    // 16777217 = 2^24 + 1 lies halfway between 2^24 and 2^24 + 2: ties to even -> 2^24 =
    // 0x4b800000.
    #[case("16777217", 0x4b80_0000)]
    fn channel_values(#[case] json: &str, #[case] bits: u32) {
        assert_eq!(parse_channel(json), Ok(bits), "{json}");
    }

    #[test]
    fn nan_is_a_nan() {
        let bits = parse_channel("\"nan\"").unwrap();
        assert!(f32::from_bits(bits).is_nan());
        assert!(f32::from_bits(parse_channel("\"-nan\"").unwrap()).is_nan());
    }

    #[rstest]
    #[case("\"i:abc\"", "i:")]
    #[case("\"u:-1\"", "u:")]
    #[case("\"i:2147483648\"", "i:")]
    #[case("\"0x123456789\"", "hex digits")]
    #[case("\"0x\"", "hex digits")]
    #[case("\"hello\"", "invalid channel value")]
    #[case("\"\"", "invalid channel value")]
    #[case("true", "boolean")]
    #[case("null", "null")]
    #[case("[1]", "list")]
    #[case("{}", "object")]
    fn bad_channel_values(#[case] json: &str, #[case] needle: &str) {
        let e = parse_channel(json).unwrap_err();
        assert!(e.contains(needle), "{json}: {e}");
    }

    #[test]
    fn vec4_needs_four_channels() {
        let raw: &RawValue = serde_json::from_str("[1, 2, 3]").unwrap();
        assert!(parse_vec4(raw).unwrap_err().1.contains("4 channel values"));
        let raw: &RawValue = serde_json::from_str("[1, \"u:2\", \"0x3\", \"i:-1\"]").unwrap();
        assert_eq!(parse_vec4(raw), Ok([0x3f80_0000, 2, 3, 0xffff_ffff]));
        let raw: &RawValue = serde_json::from_str("[1, 2, true, 4]").unwrap();
        assert_eq!(parse_vec4(raw).unwrap_err().0, 3);
    }

    #[test]
    fn hex_bytes_round_trip() {
        // INTERFACE.md example: "0000803f00000040" holds the little-endian words of 1.0
        // (0x3f800000) and 2.0 (0x40000000).
        let b = parse_hex_bytes("0000803f00000040").unwrap();
        assert_eq!(b, [0, 0, 0x80, 0x3f, 0, 0, 0, 0x40]);
        assert_eq!(hex_bytes(&b), "0000803f00000040");
        assert_eq!(parse_hex_bytes(""), Ok(vec![]));
        assert!(parse_hex_bytes("abc").unwrap_err().contains("3 hex digits"));
        assert!(parse_hex_bytes("zz")
            .unwrap_err()
            .contains("not a hex digit"));
    }

    #[test]
    fn register_names() {
        assert_eq!(parse_reg_name("IN[0]"), Ok(RegKey::new(File::Input, 0)));
        assert_eq!(
            parse_reg_name("sv[3]"),
            Ok(RegKey::new(File::SystemValue, 3))
        );
        assert_eq!(
            parse_reg_name("CONST[1][2]"),
            Ok(RegKey {
                file: File::Const,
                dimension: Some(1),
                index: 2
            })
        );
        for bad in [
            "IN0",
            "IN[",
            "IN[]",
            "IN[-1]",
            "IN[1]x",
            "FOO[1]",
            "IN[0][1][2]",
            "[0]",
        ] {
            assert!(parse_reg_name(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn addresses() {
        assert_eq!(parse_address("0x10000"), Ok(0x10000));
        assert_eq!(parse_address("4096"), Ok(4096));
        assert!(parse_address("0xg").is_err());
    }
}
