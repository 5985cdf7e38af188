//! The hex byte form of an instruction, `"02 00 00 00 00 c1 91 00"` (byte 0 first,
//! lower-case, single spaces: ENCODING.md §11.1), and the `assembler-cases.txt` line
//! format (bytes, four spaces, text).
// Numbers here come from user input (program text, inputs files, machine code): no
// arithmetic may wrap or panic unnoticed.
#![warn(clippy::arithmetic_side_effects)]

/// Why a hex byte string does not parse, and where.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("column {column}: {reason}")]
pub struct HexError {
    /// 1-based column (in characters) of the problem.
    pub column: usize,
    /// What is wrong.
    pub reason: HexReason,
}

/// The reason of a [`HexError`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum HexReason {
    /// A group that is not two hex digits.
    #[error("`{0}` is not a two-digit hex byte")]
    BadByte(String),
    /// Not exactly eight bytes.
    #[error("expected 8 bytes, found {0}")]
    Count(usize),
    /// A test-vector line without the four-space separator before the text.
    #[error("expected 8 hex bytes, four spaces, then the instruction text")]
    CaseLine,
}

/// Formats 8 instruction bytes as `"02 00 00 00 00 c1 91 00"`: lower-case hex, byte 0
/// first, single spaces (the form of `assembler-cases.txt`).
pub fn format_hex(bytes: &[u8; 8]) -> String {
    bytes
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Parses 8 whitespace-separated two-digit hex bytes (either case), byte 0 first.
///
/// # Errors
/// [`HexError`] with the 1-based column of a malformed byte, or of the end of the text
/// when there are not exactly 8 bytes.
pub fn parse_hex(text: &str) -> Result<[u8; 8], HexError> {
    let col = |off: usize| {
        text.char_indices()
            .take_while(|(i, _)| *i < off)
            .count()
            .saturating_add(1)
    };
    let mut out = [0u8; 8];
    let mut n: usize = 0;
    let mut rest = text;
    let mut off: usize = 0;
    loop {
        let lead = rest.len().saturating_sub(rest.trim_start().len());
        off = off.saturating_add(lead);
        rest = &rest[lead..];
        if rest.is_empty() {
            break;
        }
        let len = rest.find(char::is_whitespace).unwrap_or(rest.len());
        let group = &rest[..len];
        if group.len() != 2 || !group.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err(HexError {
                column: col(off),
                reason: HexReason::BadByte(group.to_string()),
            });
        }
        if n == 8 {
            let count = text.split_whitespace().count();
            return Err(HexError {
                column: col(off),
                reason: HexReason::Count(count),
            });
        }
        out[n] = u8::from_str_radix(group, 16).map_err(|_| HexError {
            column: col(off),
            reason: HexReason::BadByte(group.to_string()),
        })?;
        n = n.saturating_add(1);
        off = off.saturating_add(len);
        rest = &rest[len..];
    }
    if n != 8 {
        return Err(HexError {
            column: col(text.len()),
            reason: HexReason::Count(n),
        });
    }
    Ok(out)
}

/// Splits an `assembler-cases.txt` line (ENCODING.md §11.1) into its bytes and its
/// instruction text: `"02 00 00 00 00 c1 91 00    MOV.i32 r1, r2"` →
/// `([0x02, …, 0x00], "MOV.i32 r1, r2")`. The text keeps its trailing space, if any
/// (`"NOP.end "`).
///
/// # Errors
/// [`HexError`] when the first 23 characters are not 8 hex bytes or are not followed by
/// exactly four spaces.
pub fn parse_case_line(line: &str) -> Result<([u8; 8], &str), HexError> {
    let bad = |column| HexError {
        column,
        reason: HexReason::CaseLine,
    };
    let (Some(hex), Some(rest)) = (line.get(..23), line.get(23..)) else {
        return Err(bad(1));
    };
    let bytes = parse_hex(hex)?;
    let text = rest.strip_prefix("    ").ok_or_else(|| bad(24))?;
    if text.starts_with(' ') || text.is_empty() {
        return Err(bad(28));
    }
    Ok((bytes, text))
}
