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

/// Splits `text[from..]` into tokens up to the first `END` identifier (inclusive).
fn tokenize(text: &str, from: usize) -> Vec<Token> {
    let b = text.as_bytes();
    let mut toks = Vec::new();
    let mut i = from;
    loop {
        // Whitespace and comments.
        while i < b.len() {
            match b[i] {
                b' ' | b'\t' | b'\r' | b'\n' => i += 1,
                b'#' => {
                    while i < b.len() && b[i] != b'\n' && b[i] != b'\r' {
                        i += 1;
                    }
                }
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
        let tok = if is_ident_start(c) {
            while i < b.len() && is_ident_char(b[i]) {
                i += 1;
            }
            Tok::Ident
        } else if c.is_ascii_digit() || (c == b'.' && b.get(i + 1).is_some_and(u8::is_ascii_digit))
        {
            let (tok, end) = number(b, i);
            i = end;
            tok
        } else if c == b'.' && b.get(i + 1) == Some(&b'.') {
            i += 2;
            Tok::DotDot
        } else if b";,.[]{}()|+-:=".contains(&c) {
            i += 1;
            Tok::Punct(c)
        } else {
            // One character (of any width) that starts no token.
            i += text[i..].chars().next().map_or(1, char::len_utf8);
            Tok::Bad
        };
        toks.push(Token { tok, start, end: i });
        if tok == Tok::Ident && &text[start..i] == "END" {
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
    let digits = |mut i: usize| {
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        i
    };
    let mut i = start;
    if b[i] == b'0' && matches!(b.get(i + 1), Some(b'x' | b'X')) {
        let h = i + 2;
        let mut j = h;
        while j < b.len() && b[j].is_ascii_hexdigit() {
            j += 1;
        }
        if j > h && !b.get(j).is_some_and(|&c| is_ident_char(c)) {
            let v = std::str::from_utf8(&b[h..j])
                .ok()
                .and_then(|s| u64::from_str_radix(s, 16).ok());
            return (Tok::Int(v), j);
        }
        // `0x` without digits, or `0x1G`: an identifier-like word nobody accepts.
        while j < b.len() && is_ident_char(b[j]) {
            j += 1;
        }
        return (Tok::Ident, j);
    }
    i = digits(i);
    let mut float = false;
    if b.get(i) == Some(&b'.') && b.get(i + 1) != Some(&b'.') {
        float = true;
        i = digits(i + 1);
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        let mut j = i + 1;
        if matches!(b.get(j), Some(b'+' | b'-')) {
            j += 1;
        }
        if b.get(j).is_some_and(u8::is_ascii_digit) {
            float = true;
            i = digits(j);
        }
    }
    if b.get(i).is_some_and(|&c| is_ident_char(c)) && !float {
        // `2D`, `2DMS`, `1e` ...: a word.
        while i < b.len() && is_ident_char(b[i]) {
            i += 1;
        }
        return (Tok::Ident, i);
    }
    if float {
        return (Tok::Float, i);
    }
    let v = std::str::from_utf8(&b[start..i])
        .ok()
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
            if c == b'\n' || (c == b'\r' && b.get(k + 1) != Some(&b'\n')) {
                line_starts.push(k + 1);
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
        let line = self.line_starts.partition_point(|&s| s <= off);
        let start = self.line_starts[line.max(1) - 1];
        let col = if off <= self.first_non_ascii {
            off - start
        } else {
            self.text
                .get(start..off)
                .map_or(off - start, |s| s.chars().count())
        };
        Pos {
            line: line as u32,
            col: col as u32 + 1,
        }
    }

    /// The token `n` ahead (the last token is `Eof` and repeats).
    pub fn peek_n(&self, n: usize) -> Token {
        let k = (self.i + n).min(self.toks.len() - 1);
        self.toks[k]
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
        if self.i < self.toks.len() - 1 {
            self.i += 1;
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
