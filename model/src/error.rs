//! The error type of the TGSI front-end and of [`crate::validate`].

use crate::program::Pos;

/// A syntax or semantic error in a program text, located at a 1-based line and column.
///
/// `Display` is `"{file}:{line}:{col}: {message}"`. The message says what was expected
/// and what was found (e.g. "expected `,` or writemask letters in `xyzw` order, found `x`").
/// Programs built in memory have no positions; their errors carry `Pos { line: 0, col: 0 }`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{file}:{}:{}: {message}", pos.line, pos.col)]
pub struct ParseError {
    /// File name as given by the caller (used only for messages).
    pub file: String,
    /// Where the problem is.
    pub pos: Pos,
    /// What is wrong: what was expected and what was found.
    pub message: String,
}

impl ParseError {
    /// An error at `pos` in `file`.
    pub fn new(file: &str, pos: Pos, message: impl Into<String>) -> ParseError {
        ParseError {
            file: file.to_string(),
            pos,
            message: message.into(),
        }
    }
}
