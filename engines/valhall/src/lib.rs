//! Arm Mali **Valhall** instruction set: tables, encoder, decoder, disassembler and
//! assembler, implementing `spec/valhall/ENCODING.md` of the shaderdiff reference
//! material (section numbers below refer to it).
//!
//! * [`isa()`]: the instruction set, parsed once from the embedded copy of Mesa's
//!   `ISA.xml` ([`ISA_XML`], MIT licensed: [`ISA_XML_LICENSE`]) by [`xml::load`].
//!   Instructions, groups, sources and their modifiers, `va_mod` fields, enums, the
//!   immediate table, FAU special pages, units and staging registers all come from the
//!   XML; only the bit positions ENCODING.md gives for things the XML does not place
//!   (source modifier fields §4, staging §6, implicit tags §8.2) are built in.
//! * [`decode`] / [`encode`]: 64-bit word ↔ [`Instr`]. Instructions are stored
//!   little-endian (`word.to_le_bytes()`, byte 0 = bits 0–7).
//! * [`disassemble`]: 8 bytes → canonical text (§11.2), exactly as in
//!   `assembler-cases.txt`.
//! * [`assemble`]: one line of text → 8 bytes (§11.3); errors carry a 1-based column.
//! * [`format_hex`] / [`parse_hex`] / [`parse_case_line`]: the `"02 00 … 00"` byte form.
//!
//! # Strictness and round trips
//!
//! [`decode`] accepts a word only if [`encode`] gives the same word back: reserved enum
//! values, bits outside every field, a FAU page without a uniform/special source, and
//! sources breaking the FAU limits of §3.3 are [`DecodeError`]s (never panics). So every
//! word that decodes re-encodes to itself, and its disassembly re-assembles to the same
//! bytes — with one unavoidable exception: immediate-table entries 0 and 21 are both
//! `0x00000000`, both print `0x0`, and the assembler picks the first (§11.3), so a word
//! using entry 21 re-assembles with entry 0.
//!
//! Deviations from Mesa's text, chosen so that text round-trips:
//! * `<lod_bias_disable/>` / `<lod_clamp_disable/>` print under these names (Mesa
//!   prints both as `.lod_mode`); the assembler also accepts `.lod_mode` for them, in
//!   XML order.
//! * the assembler accepts `u0`–`u255` (Mesa: `u0`–`u127`), since the disassembler
//!   prints uniforms of pages 2–3 as `u128`–`u255`.
//! * reserved values are decode errors rather than `.reserved` text.
//! * `.b0`–`.b3` on a `lanes` source are accepted as `.b00`–`.b33` (README.md's CLPER
//!   note); the disassembler prints `.b00`–`.b33`.

#![warn(missing_docs)]

mod asm;
pub mod compile;
mod decode;
mod disasm;
mod encode;
pub mod engine;
pub mod faults;
mod hex;
mod instr;
pub mod isa;
pub mod memory_driver;
pub mod sim;
pub mod xml;

use std::sync::OnceLock;

pub use asm::{assemble, assemble_word, parse_asm, AsmError, AsmReason};
pub use decode::{decode, identify, DecodeError};
pub use disasm::{disassemble, disassemble_word};
pub use encode::{encode, EncodeError, EncodeErrorKind};
pub use hex::{format_hex, parse_case_line, parse_hex, HexError, HexReason};
pub use instr::{Dest, Instr, Operand, Source, SrcValue, StagingRun, WriteMask};
pub use isa::{InsDef, InsId, Isa, Unit};

/// The embedded copy of ISA.xml (`data/ISA.xml`, byte-identical to
/// `spec/valhall/ISA.xml`).
pub const ISA_XML: &str = include_str!("../data/ISA.xml");

/// The MIT license text covering [`ISA_XML`] (`data/LICENSE-MIT.txt`).
pub const ISA_XML_LICENSE: &str = include_str!("../data/LICENSE-MIT.txt");

/// The Valhall instruction set, parsed from [`ISA_XML`] on first use (thread-safe, once).
///
/// # Panics
/// Only if the embedded XML does not load — a build-time invariant checked by this
/// crate's tests, independent of any input.
pub fn isa() -> &'static Isa {
    static ISA: OnceLock<Isa> = OnceLock::new();
    ISA.get_or_init(|| match xml::load(ISA_XML) {
        Ok(isa) => isa,
        Err(e) => panic!("embedded ISA.xml does not load: {e}"),
    })
}

/// Decodes 8 instruction bytes (little-endian, byte 0 first).
///
/// # Errors
/// [`DecodeError`] as for [`decode`].
pub fn decode_bytes(bytes: &[u8; 8]) -> Result<Instr, DecodeError> {
    decode(u64::from_le_bytes(*bytes))
}

/// Encodes into 8 bytes (little-endian, byte 0 first).
///
/// # Errors
/// [`EncodeError`] as for [`encode`].
pub fn encode_bytes(instr: &Instr) -> Result<[u8; 8], EncodeError> {
    encode(instr).map(u64::to_le_bytes)
}
