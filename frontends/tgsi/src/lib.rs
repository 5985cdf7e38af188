//! TGSI text front-end: parser and tgsi_dump-compatible printer.
//!
//! Grammar and printer format: `../shared/spec/tgsi/TEXT-FORMAT.md` (Mesa's `tgsi_text.c`
//! and `tgsi_dump.c`). The parser accepts everything Mesa's parser accepts except the
//! `UNKnn` gap opcodes, plus these lenient forms: CR as whitespace (CRLF files), swizzles
//! of 1–3 letters (`.x` = `.xxxx`, `.xy` = `.xyyy`), the legacy opcodes ABS/SUB/XPD/DPH/
//! KIL/KILP, legacy files `TEMPX` (2-D temporaries), `IMMX` (`DCL IMMX[0..1] {{...}, {...}}`)
//! and `RES` (old name of SVIEW), operand-less `EMIT`/`ENDPRIM`, and `#` comments to the end
//! of the line wherever whitespace may stand (generated programs carry a `# shaderdiff-gen`
//! stamp; the printer never writes comments).
//!
//! Jump targets are never trusted: IF/UIF/ELSE labels are dropped on input and recomputed
//! on output (`Structure::computed_label`), CAL labels must name a BGNSUB, BGNLOOP/ENDLOOP
//! labels are kept as written.
// Numbers here come from user input (program text, inputs files, machine code): no
// arithmetic may wrap or panic unnoticed.
#![warn(clippy::arithmetic_side_effects)]

mod float;
mod lexer;
mod parse;
mod parse_decl;
mod parse_insn;
mod print;

pub use float::{
    fmt_f32_fixed, fmt_f32_lossless, fmt_f64_lossless, fmt_fixed, strtod, strtof, strtoll, strtoull,
};

// The model's modules under the paths this front-end's files were written against (the
// front-end and the model were one crate): `crate::program::Program` is the model's.
use shaderdiff_model::{error, names, opcode, program, structure, text, validate};

use crate::error::ParseError;
use crate::program::Program;

/// Printer options.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PrintOptions {
    /// Print FLT32/FLT64 immediates and IMMX values as the shortest text that reads back
    /// bit-exactly (`1e-5`, `-0.0`, `inf`, `nan(0x1)`) instead of tgsi_dump's `%10.4f` /
    /// `%10.8f`, and keep distinct SVIEW return types with a trailing comma. Everything
    /// else is identical to the default (tgsi_dump) output.
    pub lossless: bool,
}

/// Parses and validates TGSI text.
///
/// `file_name` is only used in error messages. The result has `source_map` filled
/// (declaration, instruction and operand positions) and `layout` set only when the
/// statements are not in canonical order (properties, declarations, immediates,
/// instructions). Errors: the first syntax error, or the first
/// [`shaderdiff_model::validate`] error, as `file:line:col: message`. Never panics.
pub fn parse(text: &str, file_name: &str) -> Result<Program, ParseError> {
    let p = parse::parse_text(text, file_name)?;
    crate::validate::validate(&p, file_name)?;
    Ok(p)
}

/// [`parse`], and the program must hold an `END` instruction: tgsi_sanity.c reports
/// "Missing END instruction", so a truncated file never passes as valid (`check`, `run`
/// and every command that loads a program file use this).
///
/// Errors: as [`parse`], and `file:line:col: expected END` at the end of the text.
pub fn parse_complete(text: &str, file_name: &str) -> Result<Program, ParseError> {
    let p = parse(text, file_name)?;
    if p.instructions
        .iter()
        .any(|i| i.opcode == shaderdiff_model::Opcode::END)
    {
        return Ok(p);
    }
    let count = |n: usize| u32::try_from(n).unwrap_or(u32::MAX).saturating_add(1);
    let line = count(text.matches('\n').count());
    let col = count(text.rsplit('\n').next().map_or(0, |l| l.chars().count()));
    Err(ParseError::new(
        file_name,
        crate::program::Pos { line, col },
        "expected END",
    ))
}

/// Prints `p` exactly as Mesa's `tgsi_dump` would (TEXT-FORMAT.md §10): processor line,
/// then statements in `p.items()` order, `% 3u: ` instruction numbers, 2-space nesting,
/// `%10.4f` FLT32 immediates. Lossy for float immediates; see [`print_with`].
pub fn print(p: &Program) -> String {
    print::print_program(p, &PrintOptions::default())
}

/// Prints `p` with options; with `lossless: true`, `parse(&print_with(p, ..), _) == Ok(p)`
/// for every valid program, including NaN payloads, denormals and `-0.0`.
pub fn print_with(p: &Program, opts: &PrintOptions) -> String {
    print::print_program(p, opts)
}
