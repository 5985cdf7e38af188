//! Character-level scanning of TGSI text (TEXT-FORMAT.md §1): whitespace, words,
//! numbers and positions. Whitespace is space, TAB, LF and (leniently) CR and `#` comments
//! running to the end of the line.
//! Only ASCII is ever consumed, so byte offsets always sit on character boundaries.
//!
//! Offsets never pass the end of the text: the cursor moves only through [`Cursor::advance`],
//! which stops at the end, and every other offset is one the cursor has held (no
//! arithmetic here can wrap; the crate warns of `clippy::arithmetic_side_effects`).

use crate::error::ParseError;
use crate::program::Pos;

/// A cursor over the program text with line/column bookkeeping.
pub(crate) struct Cursor<'a> {
    /// The whole text.
    pub text: &'a str,
    bytes: &'a [u8],
    /// Byte offset of the next unread character.
    pub off: usize,
    file: &'a str,
    line_starts: Vec<usize>,
    /// Byte offset of the first non-ASCII character (columns before it are byte counts).
    first_non_ascii: usize,
}

pub(crate) type PResult<T> = Result<T, ParseError>;

/// A word shortened to at most 40 characters for messages (words are ASCII).
pub(crate) fn clip(w: &str) -> &str {
    w.get(..40).unwrap_or(w)
}

/// The value of the ASCII decimal digit `c` (0 for any other byte).
fn digit(c: u8) -> u64 {
    (c as char).to_digit(10).map_or(0, u64::from)
}

/// Whether `c` may continue a word (`[A-Za-z0-9_]`).
pub(crate) fn is_word_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

impl<'a> Cursor<'a> {
    /// A cursor at the start of `text`; `file` is used in error messages.
    pub fn new(text: &'a str, file: &'a str) -> Cursor<'a> {
        let mut line_starts = vec![0];
        line_starts.extend(
            text.bytes()
                .enumerate()
                .filter(|&(_, b)| b == b'\n')
                // `i` is below the text's length, which is at most `isize::MAX`.
                .map(|(i, _)| i.saturating_add(1)),
        );
        Cursor {
            text,
            bytes: text.as_bytes(),
            off: 0,
            file,
            line_starts,
            first_non_ascii: text
                .bytes()
                .position(|b| !b.is_ascii())
                .unwrap_or(text.len()),
        }
    }

    /// 1-based line and column (in characters) of byte offset `off`.
    pub fn pos_at(&self, off: usize) -> Pos {
        let off = off.min(self.bytes.len());
        // `line_starts[0]` is 0, so at least one start is `<= off`: `line >= 1`.
        let line = self.line_starts.partition_point(|&s| s <= off);
        let start = line
            .checked_sub(1)
            .and_then(|l| self.line_starts.get(l))
            .map_or(0, |&s| s);
        // `start <= off` (it was chosen so); only ASCII is ever consumed, so before the
        // first non-ASCII character a column is a byte count (keeps positions O(1) for
        // programs written on one line).
        let bytes = off.saturating_sub(start);
        let col = if off <= self.first_non_ascii {
            bytes
        } else {
            self.text
                .get(start..off)
                .map_or(bytes, |s| s.chars().count())
        };
        // Lines and columns past `u32::MAX` (a text over 4 GiB, far beyond the input size
        // limit) are shown as `u32::MAX`.
        Pos {
            line: u32::try_from(line).unwrap_or(u32::MAX),
            col: u32::try_from(col).unwrap_or(u32::MAX).saturating_add(1),
        }
    }

    /// Position of the next unread character.
    pub fn pos(&self) -> Pos {
        self.pos_at(self.off)
    }

    /// An error at byte offset `off`.
    pub fn err_at<T>(&self, off: usize, message: impl Into<String>) -> PResult<T> {
        Err(ParseError::new(self.file, self.pos_at(off), message))
    }

    /// An error at the current position.
    pub fn err<T>(&self, message: impl Into<String>) -> PResult<T> {
        self.err_at(self.off, message)
    }

    /// An error "expected {what}, found {next token}" at the current position.
    pub fn expected<T>(&self, what: &str) -> PResult<T> {
        self.err(format!("expected {what}, found {}", self.found()))
    }

    /// Describes the next token for messages: "`WORD`", "`,`" or "end of input".
    pub fn found(&self) -> String {
        let rest = self.text.get(self.off..).unwrap_or_default();
        let word: String = rest
            .bytes()
            .take_while(|&c| is_word_char(c))
            .take(40)
            .map(char::from)
            .collect();
        if !word.is_empty() {
            return format!("`{word}`");
        }
        match rest.chars().next() {
            None => "end of input".to_string(),
            Some('\n' | '\r') => "end of line".to_string(),
            Some(c) if c.is_control() => format!("character U+{:04X}", c as u32),
            Some(c) => format!("`{c}`"),
        }
    }

    /// The next byte, if any.
    pub fn peek(&self) -> Option<u8> {
        self.bytes.get(self.off).copied()
    }

    /// The byte `n` positions ahead.
    pub fn peek_at(&self, n: usize) -> Option<u8> {
        self.rest().get(n).copied()
    }

    /// The unread rest of the text (empty at the end).
    pub fn rest(&self) -> &'a [u8] {
        self.bytes.get(self.off..).unwrap_or_default()
    }

    /// Moves the cursor `n` bytes forward, stopping at the end of the text.
    pub fn advance(&mut self, n: usize) {
        self.off = self.off.saturating_add(n).min(self.bytes.len());
    }

    /// Moves the cursor to byte offset `off` (never past the end of the text).
    pub fn seek(&mut self, off: usize) {
        self.off = off.min(self.bytes.len());
    }

    /// Whether everything has been read.
    pub fn at_end(&self) -> bool {
        self.off >= self.bytes.len()
    }

    /// Skips whitespace and `#` comments; returns whether any was skipped.
    ///
    /// Lenient extension (Mesa has no comments, TEXT-FORMAT.md §1): a `#` wherever
    /// whitespace may stand starts a comment that runs to the end of the line. A comment
    /// counts as whitespace, so it also separates statements. The printer never writes one.
    pub fn skip_ws(&mut self) -> bool {
        let start = self.off;
        loop {
            match self.peek() {
                Some(b' ' | b'\t' | b'\n' | b'\r') => self.advance(1),
                Some(b'#') => {
                    let rest = self.rest();
                    self.advance(rest.iter().position(|&c| c == b'\n').unwrap_or(rest.len()));
                }
                _ => break,
            }
        }
        self.off > start
    }

    /// Consumes `c` if it is next.
    pub fn eat(&mut self, c: u8) -> bool {
        if self.peek() == Some(c) {
            self.advance(1);
            true
        } else {
            false
        }
    }

    /// Skips whitespace, then requires `c` ("expected `c`, found ...").
    pub fn expect(&mut self, c: u8) -> PResult<()> {
        self.skip_ws();
        if self.eat(c) {
            Ok(())
        } else {
            self.expected(&format!("`{}`", c as char))
        }
    }

    /// The word (`[A-Za-z0-9_]+`) at the cursor, without consuming it.
    pub fn peek_word(&self) -> &'a str {
        let rest = self.text.get(self.off..).unwrap_or_default();
        let n = rest.bytes().take_while(|&c| is_word_char(c)).count();
        rest.get(..n).unwrap_or_default()
    }

    /// Consumes and returns the word at the cursor (empty if none).
    pub fn word(&mut self) -> &'a str {
        let w = self.peek_word();
        self.advance(w.len());
        w
    }

    /// Consumes `kw` if the next word equals it case-insensitively.
    pub fn eat_keyword(&mut self, kw: &str) -> bool {
        if self.peek_word().eq_ignore_ascii_case(kw) {
            self.advance(kw.len());
            true
        } else {
            false
        }
    }

    /// Reads decimal digits as an unsigned integer. `Ok(None)` if no digit is next;
    /// an error if the value exceeds `max`.
    pub fn uint_max(&mut self, max: u64, what: &str) -> PResult<Option<u64>> {
        let start = self.off;
        let mut v: u64 = 0;
        let mut big = false;
        while let Some(c) = self.peek().filter(u8::is_ascii_digit) {
            v = v.saturating_mul(10).saturating_add(digit(c));
            big |= v > max;
            self.advance(1);
        }
        if self.off == start {
            return Ok(None);
        }
        if big {
            return self.err_at(start, format!("{what} is too large (at most {max})"));
        }
        Ok(Some(v))
    }

    /// Reads decimal digits modulo 2^32, like Mesa's `parse_uint` (no overflow check).
    pub fn uint_wrapping(&mut self) -> Option<u32> {
        let start = self.off;
        let mut v: u32 = 0;
        while let Some(c) = self.peek().filter(u8::is_ascii_digit) {
            // Wraps on purpose: TEXT-FORMAT.md §1, "no overflow check (value wraps mod 2^32)".
            v = v.wrapping_mul(10).wrapping_add(digit(c) as u32);
            self.advance(1);
        }
        (self.off > start).then_some(v)
    }

    /// Requires an unsigned integer no larger than `max`, naming `what` in the error.
    pub fn expect_uint(&mut self, max: u64, what: &str) -> PResult<u64> {
        match self.uint_max(max, what)? {
            Some(v) => Ok(v),
            None => self.expected(what),
        }
    }
}
