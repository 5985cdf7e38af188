//! A decoded Valhall instruction: the operands and modifier values of one [`InsDef`],
//! independent of bit positions.

use std::fmt;

use crate::isa::{InsDef, InsId, ModKind};

/// Write mask of a destination register (bits 46–47, ENCODING.md §5).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum WriteMask {
    /// Mask 1: only the low 16 bits (`rN.h0`).
    Low,
    /// Mask 2: only the high 16 bits (`rN.h1`).
    High,
    /// Mask 3: the whole register (64-bit operations: the aligned pair), `rN`.
    Full,
}

impl WriteMask {
    /// The 2-bit encoding (1, 2 or 3).
    pub fn bits(self) -> u8 {
        match self {
            WriteMask::Low => 1,
            WriteMask::High => 2,
            WriteMask::Full => 3,
        }
    }

    /// The mask for a 2-bit encoding; `None` for 0 (not a valid destination).
    pub fn from_bits(bits: u8) -> Option<WriteMask> {
        match bits {
            1 => Some(WriteMask::Low),
            2 => Some(WriteMask::High),
            3 => Some(WriteMask::Full),
            _ => None,
        }
    }
}

/// The normal destination (`dests="1"`, bits 40–47).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Dest {
    /// Register number 0–63.
    pub reg: u8,
    /// Which halves are written.
    pub mask: WriteMask,
}

/// A run of consecutive staging registers `rbase … rbase+count−1` (ENCODING.md §6).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct StagingRun {
    /// First register, 0–63 (must be 0 when `count` is 0, even when `count` > 1).
    pub base: u8,
    /// Number of registers: 0–7 for `sr_count` runs, 1–8 for `sr_write_count` runs.
    pub count: u8,
}

/// The value an 8-bit source byte selects (ENCODING.md §3.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SrcValue {
    /// Register `rN` (0–63); `discard` is the last-use hint `^` (byte bits 7–6 = `01`).
    Reg {
        /// Register number 0–63.
        reg: u8,
        /// Last-use ("discard") hint.
        discard: bool,
    },
    /// Uniform word `uN`, N = page·64 + index (0–255); the page goes to bits 57–58.
    Uniform(u8),
    /// Entry 0–31 of the immediate table ([`crate::Isa::immediates`]).
    Imm(u8),
    /// Special FAU value: entry 0–15 of `FAU special page <page>`, low (`.w0`) or high
    /// (`.w1`) 32-bit word.
    Special {
        /// FAU page 0, 1 or 3 (page 2 has no table).
        page: u8,
        /// Entry in the page's table, 0–15.
        entry: u8,
        /// `true` for the high word (`.w1`).
        hi: bool,
    },
}

impl SrcValue {
    /// True for uniforms, special values and table immediates (FAU sources, §3.3).
    pub fn is_fau(self) -> bool {
        !matches!(self, SrcValue::Reg { .. })
    }
}

/// One source operand with its per-source modifiers (ENCODING.md §4).
///
/// A modifier field the instruction's source does not have must be `None`/`false`; one
/// it has may be `None`, meaning its default (the enum default, or 0 for enums without
/// one). The decoder and assembler fill in every present field (`Some`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Source {
    /// What the source byte selects.
    pub value: SrcValue,
    /// `.neg` (absneg sources).
    pub neg: bool,
    /// `.abs` (absneg sources).
    pub abs: bool,
    /// 2-bit swizzle index (swizzle sources).
    pub swizzle: Option<u8>,
    /// 4-bit widen / lanes / half-swizzle index.
    pub widen: Option<u8>,
    /// Lane index (`Lane (8-bit)` or `Lane (16-bit)`).
    pub lane: Option<u8>,
    /// `Combine` index (BRANCHZ/BRANCHZI).
    pub combine: Option<u8>,
    /// `.not` (third source of the shifts).
    pub not: bool,
}

impl Source {
    /// A source with this value and every modifier at its default.
    pub fn new(value: SrcValue) -> Source {
        Source {
            value,
            neg: false,
            abs: false,
            swizzle: None,
            widen: None,
            lane: None,
            combine: None,
            not: false,
        }
    }

    /// Register source `rN` (no last-use hint), default modifiers.
    pub fn reg(reg: u8) -> Source {
        Source::new(SrcValue::Reg {
            reg,
            discard: false,
        })
    }
}

/// Where in an instruction a problem is (for error messages and assembler columns).
/// Indices are 0-based, in ISA.xml order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Operand {
    /// The destination.
    Dest,
    /// Staging run `i` (`<sr>` order).
    Staging(usize),
    /// Source `i` (encoded `<src>` order).
    Source(usize),
    /// Immediate `i` (`<imm>` order).
    Imm(usize),
    /// Modifier `i` of [`InsDef::modifiers`].
    Modifier(usize),
    /// The flow-control field.
    Flow,
}

impl fmt::Display for Operand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Operand::Dest => write!(f, "destination"),
            Operand::Staging(i) => write!(f, "staging run {i}"),
            Operand::Source(i) => write!(f, "source {i}"),
            Operand::Imm(i) => write!(f, "immediate {i}"),
            Operand::Modifier(i) => write!(f, "modifier {i}"),
            Operand::Flow => write!(f, "flow"),
        }
    }
}

/// One instruction: which [`InsDef`] plus the value of each of its fields.
///
/// Vectors are parallel to the definition's lists: `staging[i]` ↔ `def().staging[i]`,
/// `srcs[i]` ↔ `def().srcs[i]`, `imms[i]` ↔ `def().imms[i]`, `modifiers[i]` ↔
/// `def().modifiers[i]`. [`crate::encode`] checks all of it.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Instr {
    /// Which instruction.
    pub id: InsId,
    /// Flow-control index into the `Flow` enum (bits 59–62, §9).
    pub flow: u8,
    /// Destination (exactly when `def().dests`).
    pub dest: Option<Dest>,
    /// Staging runs.
    pub staging: Vec<StagingRun>,
    /// Sources.
    pub srcs: Vec<Source>,
    /// Immediate values (sign-extended for signed fields).
    pub imms: Vec<i64>,
    /// Modifier values (flag 0/1 or enum index).
    pub modifiers: Vec<u32>,
}

impl Instr {
    /// The definition in [`crate::isa()`].
    ///
    /// # Panics
    /// If `id` is not an instruction of [`crate::isa()`] (ids from [`crate::decode`],
    /// [`crate::parse_asm`] and [`InsDef::id`] always are).
    pub fn def(&self) -> &'static InsDef {
        crate::isa().ins(self.id)
    }

    /// An instruction of kind `def` with every field at its default: flow none,
    /// destination `r0` (full), staging runs `r0` of minimal length, sources `r0`,
    /// immediates 0, modifiers at their enum default (or 0).
    ///
    /// Note that enums without a default (e.g. `Lanes (8-bit)` index 0) may be reserved,
    /// so this is a starting point, not always an encodable instruction.
    pub fn with_defaults(def: &InsDef) -> Instr {
        let mut ins = Instr::empty();
        ins.reset_to_defaults(def);
        ins
    }

    /// A placeholder with empty lists (instruction id 0), to be filled by
    /// [`Instr::reset_to_defaults`] or the decoder.
    pub(crate) fn empty() -> Instr {
        Instr {
            id: InsId(0),
            flow: 0,
            dest: None,
            staging: Vec::new(),
            srcs: Vec::new(),
            imms: Vec::new(),
            modifiers: Vec::new(),
        }
    }

    /// Makes `self` equal to [`Instr::with_defaults`]`(def)`, reusing the storage of its
    /// lists (for callers that build many instructions one after the other).
    pub fn reset_to_defaults(&mut self, def: &InsDef) {
        let isa = crate::isa();
        self.id = def.id;
        self.flow = 0;
        self.dest = def.dests.then_some(Dest {
            reg: 0,
            mask: WriteMask::Full,
        });
        self.staging.clear();
        self.staging.extend(def.staging.iter().map(|s| StagingRun {
            base: 0,
            count: s.min_count(),
        }));
        self.srcs.clear();
        self.srcs.extend(def.srcs.iter().map(|_| Source::reg(0)));
        self.imms.clear();
        self.imms.resize(def.imms.len(), 0);
        self.modifiers.clear();
        self.modifiers
            .extend(def.modifiers.iter().map(|m| match m.kind {
                ModKind::Flag => 0,
                ModKind::Enum(e) => isa.enums[e].default.unwrap_or(0) as u32,
            }));
    }
}

impl fmt::Display for Instr {
    /// The canonical assembly text (ENCODING.md §11.2), as [`crate::disassemble`] prints
    /// it. Fields out of range are printed as numbers rather than failing.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&crate::disasm::format_instr(self))
    }
}
