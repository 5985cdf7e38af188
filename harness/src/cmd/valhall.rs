//! `shaderdiff valhall disasm HEXBYTES...` and `shaderdiff valhall asm TEXT...`
//! (INTERFACE.md "Commands"): Valhall machine words ↔ assembly text, through
//! [`shaderdiff_valhall`] (spec/valhall/ENCODING.md).
//!
//! * `disasm`: the arguments are hex bytes, two digits each, separated by spaces (one
//!   quoted argument `"02 00 00 00 00 c1 91 00"` or separate arguments); any multiple of 8
//!   bytes is a sequence of instructions, one line of text each. Without arguments, each
//!   non-blank line of stdin is one instruction's 8 bytes.
//! * `asm`: each argument is one instruction (`'MOV.i32 r1, r2'`); without arguments, each
//!   non-blank line of stdin that does not start with `#`. Prints one line of 8 hex bytes
//!   per instruction.
//!
//! Bad input (malformed text, a byte group that is not hex, a word that is not an
//! instruction) is exit 2 with a one-line message naming the argument or stdin line, the
//! column and the reason; nothing is printed for a run with an error.

use std::io::Read;

use clap::{Args, Subcommand};

use crate::common::{emit, Failure};

/// `shaderdiff valhall` arguments.
#[derive(Debug, Args)]
pub struct ValhallArgs {
    /// What to do.
    #[command(subcommand)]
    pub command: ValhallCommand,
}

/// The `valhall` subcommands.
#[derive(Debug, Subcommand)]
pub enum ValhallCommand {
    /// Machine words to assembly: `disasm "02 00 00 00 00 c1 91 00"` -> `MOV.i32 r1, r2`.
    Disasm {
        /// Hex bytes (a multiple of 8); stdin lines when absent.
        #[arg(value_name = "HEXBYTES")]
        bytes: Vec<String>,
    },
    /// Assembly to machine words: `asm 'MOV.i32 r1, r2'` -> `02 00 00 00 00 c1 91 00`.
    Asm {
        /// One instruction per argument; stdin lines when absent.
        #[arg(value_name = "TEXT")]
        lines: Vec<String>,
    },
}

/// One unit of input: where it came from (for messages) and its text.
struct Input {
    origin: String,
    text: String,
}

/// The arguments, or the non-blank lines of stdin.
fn inputs(args: &[String], comments: bool) -> Result<Vec<Input>, Failure> {
    if !args.is_empty() {
        return Ok(args
            .iter()
            .enumerate()
            .map(|(k, a)| Input {
                origin: format!("argument {}", k + 1),
                text: a.clone(),
            })
            .collect());
    }
    let mut text = String::new();
    // At most --max-file-size bytes (crate::limits): stdin may be endless.
    let limit = crate::limits::get().max_file_size;
    std::io::stdin()
        .take(limit.saturating_add(1))
        .read_to_string(&mut text)
        .map_err(|e| Failure::BadInput(format!("<stdin>: {e}")))?;
    if text.len() as u64 > limit {
        return Err(Failure::BadInput(format!(
            "<stdin>: larger than {limit} bytes (raise the limit with --max-file-size)"
        )));
    }
    Ok(text
        .lines()
        .enumerate()
        .filter(|(_, l)| {
            let t = l.trim();
            let comment = comments && t.starts_with('#');
            !(t.is_empty() || comment)
        })
        .map(|(k, l)| Input {
            origin: format!("<stdin>:{}", k + 1),
            text: l.to_string(),
        })
        .collect())
}

/// The 8-byte words of `units`: each unit's hex bytes, concatenated; the total must be a
/// multiple of 8 (stdin: each line exactly 8).
fn words(units: &[Input], per_line: bool) -> Result<Vec<[u8; 8]>, Failure> {
    let mut bytes: Vec<u8> = Vec::new();
    for u in units {
        let start = bytes.len();
        let mut col = 1;
        for tok in u.text.split(' ') {
            if !tok.is_empty() {
                let ok = tok.len() == 2 && tok.bytes().all(|b| b.is_ascii_hexdigit());
                let b = u8::from_str_radix(tok, 16)
                    .ok()
                    .filter(|_| ok)
                    .ok_or_else(|| {
                        Failure::BadInput(format!(
                            "{}:{col}: `{tok}` is not a two-digit hex byte",
                            u.origin
                        ))
                    })?;
                bytes.push(b);
            }
            col += tok.chars().count() + 1;
        }
        if per_line && bytes.len() - start != 8 {
            return Err(Failure::BadInput(format!(
                "{}:1: expected 8 bytes, found {}",
                u.origin,
                bytes.len() - start
            )));
        }
    }
    if bytes.is_empty() || !bytes.len().is_multiple_of(8) {
        return Err(Failure::BadInput(format!(
            "valhall disasm: expected a multiple of 8 bytes, found {}",
            bytes.len()
        )));
    }
    Ok(bytes
        .chunks_exact(8)
        .map(|c| {
            let mut w = [0u8; 8];
            w.copy_from_slice(c);
            w
        })
        .collect())
}

fn disasm(args: &[String]) -> Result<String, Failure> {
    let units = inputs(args, false)?;
    let words = words(&units, args.is_empty())?;
    let mut out = String::new();
    for (k, w) in words.iter().enumerate() {
        let text = shaderdiff_valhall::disassemble(w).map_err(|e| {
            Failure::BadInput(format!(
                "valhall disasm: instruction {} ({}): {e}",
                k + 1,
                shaderdiff_valhall::format_hex(w)
            ))
        })?;
        out.push_str(&text);
        out.push('\n');
    }
    Ok(out)
}

fn asm(args: &[String]) -> Result<String, Failure> {
    let units = inputs(args, true)?;
    if units.is_empty() {
        return Err(Failure::BadInput(
            "valhall asm: no instruction given".into(),
        ));
    }
    let mut out = String::new();
    for u in &units {
        let bytes = shaderdiff_valhall::assemble(&u.text)
            .map_err(|e| Failure::BadInput(format!("{}:{}: {}", u.origin, e.column, e.reason)))?;
        out.push_str(&shaderdiff_valhall::format_hex(&bytes));
        out.push('\n');
    }
    Ok(out)
}

/// Runs `shaderdiff valhall`; returns the exit status.
pub fn execute(args: &ValhallArgs) -> u8 {
    let result = match &args.command {
        ValhallCommand::Disasm { bytes } => disasm(bytes),
        ValhallCommand::Asm { lines } => asm(lines),
    };
    match result.and_then(|text| emit(&text)) {
        Ok(()) => 0,
        Err(f) => {
            eprintln!("{}", f.message());
            f.code()
        }
    }
}
