//! Decoding a 64-bit instruction word into an [`Instr`] (ENCODING.md §1–§9).
//!
//! Decoding is strict: a word decodes only if [`crate::encode`] gives the same word back,
//! so every decoded word re-encodes exactly and its disassembly re-assembles. Words with
//! reserved enum values, bits outside every field, a FAU page nobody uses, or sources
//! breaking the FAU limits are rejected with a [`DecodeError`].
//!
//! The re-encode check is made once per *register-free key* of a word on each thread
//! ([`RegBits`]): a register number (of the destination or of a register source) is
//! checked by nothing but `r < 64`, which 6 bits always satisfy, and is written back
//! verbatim, so a word passes exactly when the same word with those register numbers
//! zeroed passes. Compiled code differs mostly in its register numbers, so most words
//! skip the encoder.
// Numbers here come from user input (program text, inputs files, machine code): no
// arithmetic may wrap or panic unnoticed.
#![warn(clippy::arithmetic_side_effects)]

use std::cell::RefCell;
use std::collections::HashSet;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::OnceLock;

use crate::encode::{encode, EncodeError};
use crate::instr::{Dest, Instr, Source, SrcValue, StagingRun, WriteMask};
use crate::isa::{EnumField, Field, InsDef};

/// Why a word is not a valid instruction.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DecodeError {
    /// Bit 63 is reserved and must be 0 (§1).
    #[error("bit 63 is set (reserved, must be 0)")]
    Bit63,
    /// No instruction has this primary opcode (bits 48–56).
    #[error("unknown primary opcode {0:#05x}")]
    UnknownOpcode(u16),
    /// No instruction with this primary opcode has this secondary opcode (§2.2).
    #[error("primary opcode {opcode:#05x}: no instruction has secondary opcode {value:#x} (mask {mask:#x} at bit {shift})")]
    UnknownSecondary {
        /// Primary opcode.
        opcode: u16,
        /// Value found in the secondary field.
        value: u64,
        /// Secondary field mask (relative to `shift`).
        mask: u16,
        /// Secondary field position.
        shift: u8,
    },
    /// Destination write mask 0 (§5).
    #[error("{ins}: destination write mask is 0 (must be 1, 2 or 3)")]
    WriteMask {
        /// Mnemonic.
        ins: String,
    },
    /// Bits 57–58 select a FAU page but no source is a uniform or special value.
    #[error("{ins}: FAU page {page} is set but no source is a uniform or special value")]
    UnusedPage {
        /// Mnemonic.
        ins: String,
        /// Page in bits 57–58.
        page: u8,
    },
    /// Bits that belong to no field of the instruction have the wrong value (e.g. the
    /// `0xC0` destination placeholder, staging control bits, unused bits that must be 0,
    /// or a non-canonical empty staging run).
    #[error("{ins}: bits {mask:#018x} must be {expected:#018x} (they are outside every field)")]
    StrayBits {
        /// Mnemonic.
        ins: String,
        /// Bits that differ.
        mask: u64,
        /// Their required value.
        expected: u64,
    },
    /// The fields decode but break an encoding rule (reserved enum value, staging
    /// alignment, FAU limits, …).
    #[error("invalid instruction: {0}")]
    Invalid(#[from] EncodeError),
}

/// Finds the instruction a word encodes (primary then secondary opcode, §2).
///
/// # Errors
/// [`DecodeError::Bit63`], [`DecodeError::UnknownOpcode`],
/// [`DecodeError::UnknownSecondary`].
pub fn identify(word: u64) -> Result<&'static InsDef, DecodeError> {
    if word >> 63 != 0 {
        return Err(DecodeError::Bit63);
    }
    let isa = crate::isa();
    let opcode = ((word >> 48) & 0x1FF) as u16;
    let mut candidates = isa.with_opcode(opcode).peekable();
    let first = candidates
        .peek()
        .copied()
        .ok_or(DecodeError::UnknownOpcode(opcode))?;
    let mut found = None;
    for def in candidates {
        match def.opcode2 {
            None => {
                found = Some(def);
                break;
            }
            Some(op2) => {
                let v = (word >> def.secondary_shift) & u64::from(def.secondary_mask);
                if v == u64::from(op2) {
                    found = Some(def);
                    break;
                }
            }
        }
    }
    found.ok_or_else(|| DecodeError::UnknownSecondary {
        opcode,
        value: (word >> first.secondary_shift) & u64::from(first.secondary_mask),
        mask: first.secondary_mask,
        shift: first.secondary_shift,
    })
}

/// Decodes a 64-bit instruction word (byte 0 = bits 0–7, ENCODING.md conventions).
///
/// Every `Source` field the instruction has is returned as `Some`, and every list has
/// the definition's length.
///
/// # Errors
/// [`DecodeError`] for anything that is not a valid, canonical instruction; never panics.
pub fn decode(word: u64) -> Result<Instr, DecodeError> {
    let mut instr = Instr::empty();
    decode_into(word, &mut instr)?;
    Ok(instr)
}

/// [`decode`] into `instr`, reusing the storage of its lists (for callers that decode
/// many words one after the other). On error `instr` holds no meaningful instruction.
///
/// # Errors
/// As [`decode`].
pub(crate) fn decode_into(word: u64, instr: &mut Instr) -> Result<(), DecodeError> {
    let def = identify(word)?;
    // Field sizes and starts come from ISA.xml (at most 64 bits): checked all the same.
    let bits = |start: u8, size: u8| {
        let mask = 1u64
            .checked_shl(size.into())
            .map_or(u64::MAX, |m| m.wrapping_sub(1));
        word.checked_shr(start.into()).unwrap_or(0) & mask
    };
    let page = bits(57, 2) as u8;

    let dest = if def.dests {
        let mask =
            WriteMask::from_bits(bits(46, 2) as u8).ok_or_else(|| DecodeError::WriteMask {
                ins: def.name.clone(),
            })?;
        Some(Dest {
            reg: bits(40, 6) as u8,
            mask,
        })
    } else {
        None
    };

    instr.id = def.id;
    instr.flow = bits(59, 4) as u8;
    instr.dest = dest;
    instr.staging.clear();
    instr
        .staging
        .extend(def.staging.iter().map(|sd| StagingRun {
            base: sd.reg.extract(word) as u8,
            count: (sd.count.extract(word) as u8).saturating_add(sd.count_bias),
        }));

    let reg_bits = RegBits::of(def);
    // The register numbers in this word, zeroed in its register-free key.
    let mut regs = reg_bits.dest;
    let mut uses_page = false;
    instr.srcs.clear();
    instr
        .srcs
        .extend(def.srcs.iter().enumerate().map(|(i, sd)| {
            let byte = sd.byte_field().extract(word) as u8;
            let v = byte & 63;
            if byte >> 6 <= 1 {
                regs |= reg_bits.srcs.get(i).copied().unwrap_or(0);
            }
            let value = match byte >> 6 {
                0 | 1 => SrcValue::Reg {
                    reg: v,
                    discard: byte >> 6 == 1,
                },
                2 => {
                    uses_page = true;
                    SrcValue::Uniform(page << 6 | v)
                }
                _ if v < 32 => SrcValue::Imm(v),
                _ => {
                    uses_page = true;
                    SrcValue::Special {
                        page,
                        entry: v.saturating_sub(32) >> 1,
                        hi: v & 1 == 1,
                    }
                }
            };
            let get = |f: Option<EnumField>| f.map(|f| f.field.extract(word) as u8);
            let flag = |b: Option<u8>| b.is_some_and(|b| (word >> b) & 1 == 1);
            Source {
                value,
                neg: flag(sd.neg),
                abs: flag(sd.abs),
                swizzle: get(sd.swizzle),
                widen: get(sd.widen.map(|w| w.1)),
                lane: get(sd.lane),
                combine: get(sd.combine),
                not: flag(sd.not),
            }
        }));

    instr.imms.clear();
    instr.imms.extend(def.imms.iter().map(|id| {
        let raw = id.field.extract(word);
        let sign = u32::from(id.field.size).saturating_sub(1);
        if id.signed && raw.checked_shr(sign) == Some(1) {
            (raw as i64).wrapping_sub(1i64.wrapping_shl(id.field.size.into()))
        } else {
            raw as i64
        }
    }));

    instr.modifiers.clear();
    instr
        .modifiers
        .extend(def.modifiers.iter().map(|m| m.field.extract(word) as u32));

    let key = word & !regs;
    if VERIFIED.with(|v| v.borrow().contains(&key)) {
        return Ok(());
    }
    check(word, def, instr, uses_page, page)?;
    VERIFIED.with(|v| {
        let mut v = v.borrow_mut();
        if v.len() >= VERIFIED_CAPACITY {
            v.clear();
        }
        v.insert(key);
    });
    Ok(())
}

/// The re-encode check: `instr` (decoded from `word`) encodes back to `word`.
fn check(
    word: u64,
    def: &InsDef,
    instr: &Instr,
    uses_page: bool,
    page: u8,
) -> Result<(), DecodeError> {
    let again = encode(instr)?;
    if again != word {
        let diff = again ^ word;
        if diff & !(3u64 << 57) == 0 && !uses_page {
            return Err(DecodeError::UnusedPage {
                ins: def.name.clone(),
                page,
            });
        }
        return Err(DecodeError::StrayBits {
            ins: def.name.clone(),
            mask: diff,
            expected: again & diff,
        });
    }
    Ok(())
}

/// Most register-free keys kept per thread (8 bytes each).
const VERIFIED_CAPACITY: usize = 16384;

thread_local! {
    /// Register-free keys of the words this thread has decoded, all of which passed the
    /// re-encode check.
    static VERIFIED: RefCell<HashSet<u64, BuildHasherDefault<WordHash>>> =
        RefCell::new(HashSet::default());
}

/// Where one instruction's register numbers lie: the bits the register-free key of a
/// word zeroes. A register field is used only where no other field of the instruction
/// (opcodes, placeholder, flow, FAU page, write mask, staging runs, immediates,
/// modifiers, source modifiers, other sources) shares a bit with it, so the key decodes
/// every other field to the same value as the word (otherwise it stays 0: the word is
/// checked as it is).
#[derive(Debug, Default)]
struct RegBits {
    /// Bits 40–45 when the instruction has a destination.
    dest: u64,
    /// The low 6 bits of source `i`'s byte, zeroed when its value is a register.
    srcs: Vec<u64>,
}

impl RegBits {
    /// The table entry of `def`, made once for every ISA instruction.
    fn of(def: &InsDef) -> &'static RegBits {
        static TABLE: OnceLock<Vec<RegBits>> = OnceLock::new();
        static NONE: RegBits = RegBits {
            dest: 0,
            srcs: Vec::new(),
        };
        TABLE
            .get_or_init(|| crate::isa().instructions.iter().map(RegBits::new).collect())
            .get(usize::from(def.id.0))
            .unwrap_or(&NONE)
    }

    fn new(def: &InsDef) -> RegBits {
        let f = |f: Field| f.mask();
        let e = |f: Option<EnumField>| f.map_or(0, |f| f.field.mask());
        let bit = |b: Option<u8>| b.map_or(0, |b| 1u64.checked_shl(b.into()).unwrap_or(0));
        // Every field of the instruction except its register numbers.
        let mut others = def.fixed_bits().0 | 1 << 63 | 0xF << 59 | 3 << 57;
        if def.dests {
            others |= 3 << 46;
        }
        for sr in &def.staging {
            others |= f(sr.reg) | f(sr.count);
        }
        for id in &def.imms {
            others |= f(id.field);
        }
        for md in &def.modifiers {
            others |= f(md.field);
        }
        for sd in &def.srcs {
            others |= bit(sd.neg) | bit(sd.abs) | bit(sd.not);
            others |= e(sd.swizzle) | e(sd.widen.map(|w| w.1)) | e(sd.lane) | e(sd.combine);
            // The discard / kind bits of the byte.
            others |= 0xC0 << sd.byte_field().start;
        }
        let byte = |sd: &crate::isa::SrcDef| f(sd.byte_field());
        let alone = |bits: u64, own: u64| {
            let rest = def
                .srcs
                .iter()
                .map(byte)
                .filter(|&b| b != own)
                .fold(others, |a, b| a | b);
            if bits & rest == 0 {
                bits
            } else {
                0
            }
        };
        // Bits 40–45 when the instruction has a destination.
        let dest_bits = if def.dests { 0x3F << 40 } else { 0 };
        let dest = alone(dest_bits, 0);
        let srcs = def
            .srcs
            .iter()
            .map(|sd| {
                let own = byte(sd);
                // Two sources in one byte, or a source in the destination's bits:
                // neither is a register field of its own.
                let shared = def.srcs.iter().filter(|o| byte(o) == own).count() > 1;
                if shared || own & dest_bits != 0 {
                    0
                } else {
                    alone(0x3F << sd.byte_field().start, own)
                }
            })
            .collect();
        RegBits { dest, srcs }
    }
}

/// Hash of one instruction word (or key): the splitmix64 finalizer, which spreads the
/// opcode and register bits (high in the word) over the bucket bits (low).
#[derive(Default)]
pub(crate) struct WordHash(u64);

impl Hasher for WordHash {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(self.0 ^ u64::from(b));
        }
    }

    fn write_u64(&mut self, v: u64) {
        let mut z = (self.0 ^ v).wrapping_add(0x9e37_79b9_7f4a_7c15);
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        self.0 = z ^ (z >> 31);
    }

    fn finish(&self) -> u64 {
        self.0
    }
}
