//! Tokens of NV / ARB assembly (NV_gpu_program4 §2.X.2): whitespace is space, TAB, CR, LF
//! and `#` comments up to a CR, LF or the end of the text; identifiers are
//! `[A-Za-z_$][A-Za-z0-9_$]*`; integers are decimal or `0x` hexadecimal; floats have an
//! integer part and/or a fraction part and an optional exponent.
//!
//! The text is tokenized up to and including the first `END` identifier: everything after
//! it is ignored, as the grammar stops there (cgc appends `# N instructions` trailers).
//! Words that start with a digit and continue with letters (`2D`, `3D`, `2DMS`) are lexed
//! as identifiers: they only ever occur as texture targets. A character that cannot start
//! a token becomes a [`Tok::Bad`] token, reported by whichever rule meets it.
// Integers here are user numbers and offsets index the program text: no arithmetic may
// wrap or panic unnoticed. Offsets never pass the text's length (at most `isize::MAX`), so
// the `saturating_add`s that move them never saturate; integer values are parsed with
// `u64::from_str_radix`, which reports overflow (`Tok::Int(None)`).
#![warn(clippy::arithmetic_side_effects)]

use crate::error::ParseError;
use crate::program::Pos;

/// A token kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Tok {
    /// An identifier or keyword (also `2D`-like words).
    Ident,
    /// An integer; `None` if it does not fit in 64 bits.
    Int(Option<u64>),
    /// A floating-point literal.
    Float,
    /// One of `; , . [ ] { } ( ) | + - : =`.
    Punct(u8),
    /// `..`.
    DotDot,
    /// A character that starts no token.
    Bad,
    /// End of the text (or nothing after `END`).
    Eof,
}

/// A token and its byte range.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Token {
    pub tok: Tok,
    pub start: usize,
    pub end: usize,
}

/// The token stream with positions.
pub(crate) struct Tokens<'a> {
    pub text: &'a str,
    pub toks: Vec<Token>,
    /// Index of the next token.
    pub i: usize,
    file: &'a str,
    line_starts: Vec<usize>,
    first_non_ascii: usize,
}

pub(crate) type PResult<T> = Result<T, ParseError>;

impl Tokens<'_> {
    /// Start offset of the token just consumed (0 before the first).
    pub fn previous_start(&self) -> usize {
        self.i
            .checked_sub(1)
            .and_then(|j| self.toks.get(j))
            .map_or(0, |t| t.start)
    }
}

fn is_ident_start(c: u8) -> bool {
    c.is_ascii_alphabetic() || c == b'_' || c == b'$'
}

fn is_ident_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_' || c == b'$'
}

/// A word shortened for messages.
pub(crate) fn clip(w: &str) -> String {
    let mut s: String = w.chars().take(40).collect();
    if s.len() < w.len() {
        s.push_str("...");
    }
    s
}

/// Number of bytes from `b[i]` on that satisfy `pred` (0 past the end).
fn count_while(b: &[u8], i: usize, pred: impl Fn(u8) -> bool) -> usize {
    b.get(i..)
        .map_or(0, |r| r.iter().take_while(|&&c| pred(c)).count())
}

/// The offset after the run of bytes from `b[i]` on that satisfy `pred`.
fn skip_while(b: &[u8], i: usize, pred: impl Fn(u8) -> bool) -> usize {
    i.saturating_add(count_while(b, i, pred))
}

/// Splits `text[from..]` into tokens up to the first `END` identifier (inclusive).
fn tokenize(text: &str, from: usize) -> Vec<Token> {
    let b = text.as_bytes();
    let mut toks = Vec::new();
    let mut i = from;
    loop {
        // Whitespace and comments.
        while let Some(&c) = b.get(i) {
            match c {
                b' ' | b'\t' | b'\r' | b'\n' => i = i.saturating_add(1),
                b'#' => i = skip_while(b, i, |c| c != b'\n' && c != b'\r'),
                _ => break,
            }
        }
        let start = i;
        let Some(&c) = b.get(i) else {
            toks.push(Token {
                tok: Tok::Eof,
                start,
                end: start,
            });
            return toks;
        };
        let next = b.get(i.saturating_add(1)).copied();
        let tok = if is_ident_start(c) {
            i = skip_while(b, i, is_ident_char);
            Tok::Ident
        } else if c.is_ascii_digit() || (c == b'.' && next.is_some_and(|n| n.is_ascii_digit())) {
            let (tok, end) = number(b, i);
            i = end;
            tok
        } else if c == b'.' && next == Some(b'.') {
            i = i.saturating_add(2);
            Tok::DotDot
        } else if b";,.[]{}()|+-:=".contains(&c) {
            i = i.saturating_add(1);
            Tok::Punct(c)
        } else {
            // One character (of any width) that starts no token.
            let width = text
                .get(i..)
                .and_then(|r| r.chars().next())
                .map_or(1, char::len_utf8);
            i = i.saturating_add(width);
            Tok::Bad
        };
        toks.push(Token { tok, start, end: i });
        if tok == Tok::Ident && text.get(start..i) == Some("END") {
            toks.push(Token {
                tok: Tok::Eof,
                start: i,
                end: i,
            });
            return toks;
        }
    }
}

/// Lexes a number at `b[i]` (a digit, or `.` followed by a digit). Returns the token and
/// its end. Digits followed by letters form an identifier (`2D`).
fn number(b: &[u8], start: usize) -> (Tok, usize) {
    let digits = |i: usize| skip_while(b, i, |c| c.is_ascii_digit());
    let after = |i: usize| b.get(i.saturating_add(1)).copied();
    let mut i = start;
    if b.get(i) == Some(&b'0') && matches!(after(i), Some(b'x' | b'X')) {
        let h = i.saturating_add(2);
        let j = skip_while(b, h, |c| c.is_ascii_hexdigit());
        if j > h && !b.get(j).is_some_and(|&c| is_ident_char(c)) {
            // More than 16 significant digits: `None`, reported as too large.
            let v = b
                .get(h..j)
                .and_then(|d| std::str::from_utf8(d).ok())
                .and_then(|s| u64::from_str_radix(s, 16).ok());
            return (Tok::Int(v), j);
        }
        // `0x` without digits, or `0x1G`: an identifier-like word nobody accepts.
        return (Tok::Ident, skip_while(b, j, is_ident_char));
    }
    i = digits(i);
    let mut float = false;
    if b.get(i) == Some(&b'.') && after(i) != Some(b'.') {
        float = true;
        i = digits(i.saturating_add(1));
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        let mut j = i.saturating_add(1);
        if matches!(b.get(j), Some(b'+' | b'-')) {
            j = j.saturating_add(1);
        }
        if b.get(j).is_some_and(u8::is_ascii_digit) {
            float = true;
            i = digits(j);
        }
    }
    if b.get(i).is_some_and(|&c| is_ident_char(c)) && !float {
        // `2D`, `2DMS`, `1e` ...: a word.
        return (Tok::Ident, skip_while(b, i, is_ident_char));
    }
    if float {
        return (Tok::Float, i);
    }
    // Above `u64::MAX`: `None`, reported as too large.
    let v = b
        .get(start..i)
        .and_then(|d| std::str::from_utf8(d).ok())
        .and_then(|s| s.parse::<u64>().ok());
    (Tok::Int(v), i)
}

/// The normal form of a float literal: a digit before and after the point (`1.` → `1.0`,
/// `.5` → `0.5`, `1.e3` → `1.0e3`), exponent kept as written.
pub(crate) fn normalize_float(t: &str) -> String {
    let (mant, exp) = match t.find(['e', 'E']) {
        Some(k) => (&t[..k], &t[k..]),
        None => (t, ""),
    };
    let mut m = String::new();
    match mant.split_once('.') {
        Some((int, frac)) => {
            m.push_str(if int.is_empty() { "0" } else { int });
            m.push('.');
            m.push_str(if frac.is_empty() { "0" } else { frac });
        }
        None => m.push_str(mant),
    }
    m + exp
}

impl<'a> Tokens<'a> {
    /// Tokens of `text[from..]`.
    pub fn new(text: &'a str, from: usize, file: &'a str) -> Tokens<'a> {
        let mut line_starts = vec![0];
        let b = text.as_bytes();
        for (k, &c) in b.iter().enumerate() {
            // A CR not followed by LF ends a line too (comments end at CR).
            // `k` is below the text's length, which is at most `isize::MAX`.
            let next = k.saturating_add(1);
            if c == b'\n' || (c == b'\r' && b.get(next) != Some(&b'\n')) {
                line_starts.push(next);
            }
        }
        Tokens {
            text,
            toks: tokenize(text, from),
            i: 0,
            file,
            line_starts,
            first_non_ascii: b.iter().position(|c| !c.is_ascii()).unwrap_or(b.len()),
        }
    }

    /// 1-based line and column (in characters) of byte offset `off`.
    pub fn pos_at(&self, off: usize) -> Pos {
        let off = off.min(self.text.len());
        // `line_starts[0]` is 0, so at least one start is `<= off`: `line >= 1`.
        let line = self.line_starts.partition_point(|&s| s <= off);
        let start = line
            .checked_sub(1)
            .and_then(|l| self.line_starts.get(l))
            .map_or(0, |&s| s);
        // `start <= off` (it was chosen so).
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

    /// The token `n` ahead (the last token is `Eof` and repeats).
    pub fn peek_n(&self, n: usize) -> Token {
        // `toks` always ends with `Eof` (`tokenize` returns only after pushing it).
        let last = self.toks.len().saturating_sub(1);
        let k = self.i.saturating_add(n).min(last);
        self.toks.get(k).copied().unwrap_or(Token {
            tok: Tok::Eof,
            start: self.text.len(),
            end: self.text.len(),
        })
    }

    /// The next token.
    pub fn peek(&self) -> Token {
        self.peek_n(0)
    }

    /// The text of a token.
    pub fn text_of(&self, t: Token) -> &'a str {
        &self.text[t.start..t.end]
    }

    /// Consumes and returns the next token.
    pub fn next(&mut self) -> Token {
        let t = self.peek();
        // Stops at the final `Eof`, so `i` stays below `toks.len()`.
        if self.i.saturating_add(1) < self.toks.len() {
            self.i = self.i.saturating_add(1);
        }
        t
    }

    /// Whether the next token is the punctuation `c`.
    pub fn at(&self, c: u8) -> bool {
        self.peek().tok == Tok::Punct(c)
    }

    /// Consumes the punctuation `c` if it is next.
    pub fn eat(&mut self, c: u8) -> bool {
        if self.at(c) {
            self.next();
            true
        } else {
            false
        }
    }

    /// The next token's text if it is an identifier.
    pub fn peek_ident(&self) -> Option<&'a str> {
        let t = self.peek();
        (t.tok == Tok::Ident).then(|| self.text_of(t))
    }

    /// Whether the next token is the identifier `w`.
    pub fn at_word(&self, w: &str) -> bool {
        self.peek_ident() == Some(w)
    }

    /// Consumes the identifier `w` if it is next.
    pub fn eat_word(&mut self, w: &str) -> bool {
        if self.at_word(w) {
            self.next();
            true
        } else {
            false
        }
    }

    /// Describes token `t` for messages.
    pub fn describe(&self, t: Token) -> String {
        match t.tok {
            Tok::Eof => "end of input".to_string(),
            Tok::Bad => {
                let c = self.text_of(t).chars().next().unwrap_or('?');
                if c.is_control() || c.is_whitespace() {
                    format!("character U+{:04X}", c as u32)
                } else {
                    format!("character `{c}`")
                }
            }
            _ => format!("`{}`", clip(self.text_of(t))),
        }
    }

    /// An error at byte offset `off`.
    pub fn err_at<T>(&self, off: usize, message: impl Into<String>) -> PResult<T> {
        Err(ParseError::new(self.file, self.pos_at(off), message))
    }

    /// An error at the next token.
    pub fn err<T>(&self, message: impl Into<String>) -> PResult<T> {
        self.err_at(self.peek().start, message)
    }

    /// "expected {what}, found {next token}" at the next token.
    pub fn expected<T>(&self, what: &str) -> PResult<T> {
        self.err(format!(
            "expected {what}, found {}",
            self.describe(self.peek())
        ))
    }

    /// Requires the punctuation `c`.
    pub fn expect(&mut self, c: u8) -> PResult<()> {
        if self.eat(c) {
            Ok(())
        } else {
            self.expected(&format!("`{}`", c as char))
        }
    }

    /// Requires an identifier and returns its text.
    pub fn expect_ident(&mut self, what: &str) -> PResult<&'a str> {
        match self.peek_ident() {
            Some(w) if !w.as_bytes()[0].is_ascii_digit() => {
                self.next();
                Ok(w)
            }
            _ => self.expected(what),
        }
    }

    /// Requires an integer no larger than `max`.
    pub fn expect_uint(&mut self, max: u64, what: &str) -> PResult<u64> {
        let t = self.peek();
        match t.tok {
            Tok::Int(Some(v)) if v <= max => {
                self.next();
                Ok(v)
            }
            Tok::Int(_) => self.err(format!(
                "{what} `{}` is too large (at most {max})",
                clip(self.text_of(t))
            )),
            _ => self.expected(what),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(s: &str) -> Vec<(Tok, &str)> {
        let t = Tokens::new(s, 0, "t");
        t.toks.iter().map(|k| (k.tok, &s[k.start..k.end])).collect()
    }

    #[test]
    fn numbers_ranges_and_words() {
        // §2.X.2 <int>/<float>; `0..3` is a range, not the float `0.`.
        assert_eq!(
            kinds("[0..3] 1. .5 1e-2 2E4 0x1F 2D 2DMS"),
            vec![
                (Tok::Punct(b'['), "["),
                (Tok::Int(Some(0)), "0"),
                (Tok::DotDot, ".."),
                (Tok::Int(Some(3)), "3"),
                (Tok::Punct(b']'), "]"),
                (Tok::Float, "1."),
                (Tok::Float, ".5"),
                (Tok::Float, "1e-2"),
                (Tok::Float, "2E4"),
                (Tok::Int(Some(31)), "0x1F"),
                (Tok::Ident, "2D"),
                (Tok::Ident, "2DMS"),
                (Tok::Eof, ""),
            ]
        );
        assert_eq!(normalize_float("1."), "1.0");
        assert_eq!(normalize_float(".5e3"), "0.5e3");
        assert_eq!(normalize_float("2E4"), "2E4");
    }

    #[test]
    fn comments_and_end() {
        let k = kinds("MOV a;# x END\nEND garbage @");
        assert_eq!(k.last().unwrap().0, Tok::Eof);
        assert_eq!(k[k.len() - 2], (Tok::Ident, "END"));
        assert_eq!(kinds("$a_1 @")[1].0, Tok::Bad);
    }

    #[test]
    fn positions() {
        let t = Tokens::new("a\r\nb\rc\n  d", 0, "t");
        let p: Vec<(u32, u32)> = t
            .toks
            .iter()
            .map(|k| t.pos_at(k.start))
            .map(|p| (p.line, p.col))
            .collect();
        assert_eq!(&p[..4], &[(1, 1), (2, 1), (3, 1), (4, 3)]);
    }
}
