//! The Valhall ISA tables: what `ISA.xml` says about every instruction, turned into bit
//! positions by the rules of ENCODING.md (§2–§8, §10).
//!
//! Everything here is built by [`crate::xml`] from the embedded copy of ISA.xml; nothing
//! is hand-transcribed except the positions of the implicit modifier tags, which ISA.xml
//! does not contain (ENCODING.md §8.2).

use std::collections::HashMap;

/// Index of an enum in [`Isa::enums`].
pub type EnumId = usize;

/// Identifies one instruction: its index in [`Isa::instructions`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct InsId(pub u16);

/// A bit field `start .. start + size` of the 64-bit instruction word (bit 0 = least
/// significant, ENCODING.md conventions). `size` is 1–32 bits.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Field {
    /// First (least significant) bit.
    pub start: u8,
    /// Width in bits (1–32).
    pub size: u8,
}

impl Field {
    /// The field's bits as a mask of the instruction word.
    pub fn mask(self) -> u64 {
        ((1u64 << self.size) - 1) << self.start
    }

    /// The field's value in `word` (right-aligned, at most `size` bits).
    pub fn extract(self, word: u64) -> u64 {
        (word >> self.start) & ((1u64 << self.size) - 1)
    }

    /// Largest value the field can hold, `2^size − 1`.
    pub fn max_value(self) -> u64 {
        (1u64 << self.size) - 1
    }
}

/// A field whose value indexes an ISA.xml `<enum>`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct EnumField {
    /// Where the value lives in the word.
    pub field: Field,
    /// The enum giving the meaning (and text) of each value.
    pub enum_id: EnumId,
}

/// One `<enum>` of ISA.xml (ENCODING.md §10): value index = child position, `<value>` and
/// `<reserved/>` both counting.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Enum {
    /// The `name` attribute, e.g. `"Swizzles (16-bit)"`.
    pub name: String,
    /// The enum's `<desc>` text (trimmed), if any.
    pub desc: Option<String>,
    /// `implied="true"`: never written as a modifier word in assembly text.
    pub implied: bool,
    /// Values by index; `None` is a `<reserved/>` entry.
    pub values: Vec<Option<EnumValue>>,
    /// Index of the `default="true"` value, printed as nothing and used by the assembler
    /// when the modifier is absent (ENCODING.md §8.3).
    pub default: Option<usize>,
}

impl Enum {
    /// The text of value `index` (e.g. `"h01"`), or `None` when the index is reserved or
    /// past the end of the enum.
    pub fn text(&self, index: u64) -> Option<&str> {
        let i = usize::try_from(index).ok()?;
        self.values.get(i)?.as_ref().map(|v| v.text.as_str())
    }

    /// Index of the non-reserved value whose text is `text`, among the first `limit`
    /// entries (a field of `n` bits can only hold indices below `2^n`).
    pub fn find(&self, text: &str, limit: usize) -> Option<usize> {
        self.values
            .iter()
            .take(limit)
            .position(|v| v.as_ref().is_some_and(|v| v.text == text))
    }

    /// The texts of the non-reserved values among the first `limit` entries, in index
    /// order (for error messages).
    pub fn choices(&self, limit: usize) -> Vec<&str> {
        self.values
            .iter()
            .take(limit)
            .flatten()
            .map(|v| v.text.as_str())
            .collect()
    }
}

/// One `<value>` of an [`Enum`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EnumValue {
    /// The element text: what the disassembler prints (e.g. `"clamp_m1_1"`).
    pub text: String,
    /// The optional `name` attribute (e.g. `"Wait on slot 0"`).
    pub name: Option<String>,
    /// The optional `desc` attribute.
    pub desc: Option<String>,
}

/// Execution unit of an instruction (`unit` attribute, ENCODING.md §10).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Unit {
    /// `FMA`: fused multiply-add ALU.
    Fma,
    /// `CVT`: conversion ALU.
    Cvt,
    /// `SFU`: special-function ALU.
    Sfu,
    /// `LS`: load/store message unit.
    Ls,
    /// `V`: varying message unit.
    V,
    /// `T`: texture message unit.
    T,
    /// `VT`: fused varying+texture message unit.
    Vt,
    /// `NONE`: blend/tile/ATEST/ZS_EMIT/BARRIER messages.
    None,
}

impl Unit {
    /// Parses the `unit` attribute text (`"FMA"`, `"CVT"`, …).
    pub fn from_xml(text: &str) -> Option<Unit> {
        Some(match text {
            "FMA" => Unit::Fma,
            "CVT" => Unit::Cvt,
            "SFU" => Unit::Sfu,
            "LS" => Unit::Ls,
            "V" => Unit::V,
            "T" => Unit::T,
            "VT" => Unit::Vt,
            "NONE" => Unit::None,
            _ => return None,
        })
    }

    /// The ISA.xml spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            Unit::Fma => "FMA",
            Unit::Cvt => "CVT",
            Unit::Sfu => "SFU",
            Unit::Ls => "LS",
            Unit::V => "V",
            Unit::T => "T",
            Unit::Vt => "VT",
            Unit::None => "NONE",
        }
    }

    /// FMA, CVT and SFU are ALU units (one 64-bit FAU slot per instruction); the others
    /// are message units (two slots), ENCODING.md §3.3.
    pub fn is_alu(self) -> bool {
        matches!(self, Unit::Fma | Unit::Cvt | Unit::Sfu)
    }
}

/// What a source's 4-bit "widen" field (ENCODING.md §4) selects.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum WidenKind {
    /// `widen="true"`: enum `Swizzles (N-bit)` for the source size N.
    Widen,
    /// `lanes="true"`: enum `Lanes (8-bit)`.
    Lanes,
    /// `halfswizzle="true"`: enum `Half-swizzles (8-bit)`.
    HalfSwizzle,
}

/// One encoded (non-pseudo) `<src>` of an instruction, with the positions of its
/// per-source modifier fields (ENCODING.md §3.1, §4).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SrcDef {
    /// Source slot: the source byte is bits `8·slot … 8·slot+7` (a 64-bit source in a
    /// non-64-bit instruction takes two slots, §3.1).
    pub slot: u8,
    /// Operand size in bits (§3.5): the `size` attribute or the instruction's type size.
    pub size: u32,
    /// `float="true"` (printing hint only, no field).
    pub float: bool,
    /// Bit of the `.neg` flag (`absneg="true"`).
    pub neg: Option<u8>,
    /// Bit of the `.abs` flag (`absneg="true"`).
    pub abs: Option<u8>,
    /// Bit of the `.not` flag (`not="true"`, always bit 35).
    pub not: Option<u8>,
    /// 2-bit swizzle (`swizzle="true"`): enum `Swizzles (16-bit)` (16-bit sources) or
    /// `Widen` (32-bit sources).
    pub swizzle: Option<EnumField>,
    /// 4-bit widen / lanes / half-swizzle field and which of the three it is.
    pub widen: Option<(WidenKind, EnumField)>,
    /// Lane select (`lane="true"` or `lane="N"`): enum `Lane (8-bit)` (2 bits) or
    /// `Lane (16-bit)` (1 bit).
    pub lane: Option<EnumField>,
    /// 3-bit `Combine` field (`combine="true"`, bits 37–39).
    pub combine: Option<EnumField>,
    /// The element text (description), trimmed; `None` when empty.
    pub desc: Option<String>,
}

impl SrcDef {
    /// The bit field of the source byte.
    pub fn byte_field(&self) -> Field {
        Field {
            start: self.slot * 8,
            size: 8,
        }
    }
}

/// How the control bits 46–47 of a staging register are used (`flags` attribute of
/// `<sr>`, ENCODING.md §6).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SrFlags {
    /// `flags` absent or `"true"`: register in bits 40–45, bits 46–47 = `0b10` written /
    /// `0b01` read.
    Default,
    /// `flags="rw"`: register in bits 40–45, bits 46–47 = `0b11`.
    ReadWrite,
    /// `flags="false"`: no control bits; a written run moves to bits 16–21.
    None,
}

/// One `<sr>` staging-register run (ENCODING.md §6).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SrDef {
    /// `read="true"`: the message reads these registers.
    pub read: bool,
    /// `write="true"`: the message writes these registers.
    pub write: bool,
    /// The `flags` attribute.
    pub flags: SrFlags,
    /// 6-bit field holding the first register number (bits 40–45 or 16–21).
    pub reg: Field,
    /// Value of bits 46–47 (`Some(0b10)`, `Some(0b01)`, `Some(0b11)`) or `None` when the
    /// run has no control bits.
    pub control: Option<u8>,
    /// Field holding the register count: `sr_count` (bits 33–35, count = value) or
    /// `sr_write_count` (bits 36–38, count = value + 1).
    pub count: Field,
    /// 0 for `sr_count`, 1 for `sr_write_count` (count = field value + bias).
    pub count_bias: u8,
    /// The element text, trimmed; `None` when empty.
    pub desc: Option<String>,
}

impl SrDef {
    /// Smallest encodable run length (0, or 1 for a write-count run).
    pub fn min_count(&self) -> u8 {
        self.count_bias
    }

    /// Largest encodable run length (7, or 8 for a write-count run).
    pub fn max_count(&self) -> u8 {
        self.count.max_value() as u8 + self.count_bias
    }
}

/// One `<imm>` immediate field (ENCODING.md §7).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImmDef {
    /// The `name` attribute (`offset`, `constant`, `table`, `index`, `shift`, `target`).
    pub name: String,
    /// Position in the word.
    pub field: Field,
    /// `signed="true"`: two's complement.
    pub signed: bool,
}

impl ImmDef {
    /// Smallest accepted value (`−2^(size−1)` when signed, else 0).
    pub fn min(&self) -> i64 {
        if self.signed {
            -(1i64 << (self.field.size - 1))
        } else {
            0
        }
    }

    /// Largest accepted value (`2^(size−1) − 1` when signed, else `2^size − 1`).
    pub fn max(&self) -> i64 {
        if self.signed {
            (1i64 << (self.field.size - 1)) - 1
        } else {
            (1i64 << self.field.size) - 1
        }
    }

    /// Printed and parsed as `#value` (only the field named `constant`, §11.2).
    pub fn is_constant(&self) -> bool {
        self.name == "constant"
    }
}

/// What kind of value a modifier holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ModKind {
    /// 1-bit flag printed as `.name` when set.
    Flag,
    /// Index into an ISA.xml enum, printed as `.value` unless it is the enum's default.
    Enum(EnumId),
}

/// One printed instruction modifier: a `<va_mod>` or an implicit tag of ENCODING.md §8.2,
/// in ISA.xml child order (= printing order, §8.3).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ModDef {
    /// Field name: the `va_mod` name or the tag name (`slot`, `regfmt`,
    /// `load_lane_32_bit`, `lod_bias_disable`, …). Flags print this name.
    pub name: String,
    /// Position in the word.
    pub field: Field,
    /// Flag or enum.
    pub kind: ModKind,
}

/// One `<ins>` of ISA.xml, merged with its `<group>` (ENCODING.md §10).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InsDef {
    /// This instruction's index.
    pub id: InsId,
    /// Mnemonic including the type suffix, e.g. `"FADD.f32"` (unique).
    pub name: String,
    /// Name of the enclosing `<group>`, if any (not unique).
    pub group: Option<String>,
    /// `title` attribute.
    pub title: Option<String>,
    /// `<desc>` text, trimmed.
    pub desc: Option<String>,
    /// Primary opcode, bits 48–56 (§2.1).
    pub opcode: u16,
    /// Secondary opcode (§2.2), stored at `secondary_shift` under `secondary_mask`.
    pub opcode2: Option<u16>,
    /// Bit position of the secondary-opcode field.
    pub secondary_shift: u8,
    /// Mask of the secondary-opcode field (relative to `secondary_shift`).
    pub secondary_mask: u16,
    /// Execution unit.
    pub unit: Unit,
    /// `dests="1"`: has a normal destination in bits 40–47 (§5).
    pub dests: bool,
    /// Type size derived from the name (§3.5).
    pub type_size: u32,
    /// Encoded sources in `<src>` order.
    pub srcs: Vec<SrcDef>,
    /// Staging-register runs in `<sr>` order.
    pub staging: Vec<SrDef>,
    /// Immediates in `<imm>` order.
    pub imms: Vec<ImmDef>,
    /// Printed modifiers in XML order.
    pub modifiers: Vec<ModDef>,
    /// Names of implied `va_mod`s (`left`, `descriptor_type`, `memory_width`): selected by
    /// the secondary opcode, never printed.
    pub implied_modifiers: Vec<String>,
    /// Tags that ISA.xml lists but that have no known encoding and are ignored
    /// (`force_delta_enable`, `derivative_enable`, §8.2).
    pub ignored_tags: Vec<String>,
    /// Has `<sr_count/>` (bits 33–35).
    pub has_sr_count: bool,
    /// Has `<sr_write_count/>` (bits 36–38).
    pub has_sr_write_count: bool,
    /// Bits of byte 5 that hold the `0xC0` placeholder (instructions with neither a
    /// destination nor a staging register in bits 40–45, §5); 0 otherwise.
    pub placeholder_mask: u64,
    /// `unused="true"` (compiler hint, no encoding effect).
    pub unused: bool,
    /// `message` attribute (compiler hint).
    pub message: Option<String>,
    /// `last="true"` (compiler hint).
    pub last: bool,
}

impl InsDef {
    /// The secondary-opcode field, if the instruction has an `opcode2`.
    pub fn secondary_field(&self) -> Option<(u64, u16)> {
        self.opcode2
            .map(|op2| (u64::from(self.secondary_mask) << self.secondary_shift, op2))
    }

    /// Bits that are constant for this instruction: primary opcode, secondary opcode,
    /// placeholder and staging control bits, with their values `(mask, value)`.
    pub fn fixed_bits(&self) -> (u64, u64) {
        let mut mask = 0x1FFu64 << 48;
        let mut value = u64::from(self.opcode) << 48;
        if let Some(op2) = self.opcode2 {
            mask |= u64::from(self.secondary_mask) << self.secondary_shift;
            value |= u64::from(op2) << self.secondary_shift;
        }
        mask |= self.placeholder_mask;
        value |= (0xC0u64 << 40) & self.placeholder_mask;
        for sr in &self.staging {
            if let Some(c) = sr.control {
                mask |= 3 << 46;
                value |= u64::from(c) << 46;
            }
        }
        (mask, value)
    }

    /// Number of operands the assembler expects: destination + staging runs + sources +
    /// immediates (§10, §11.3).
    pub fn operand_count(&self) -> usize {
        usize::from(self.dests) + self.staging.len() + self.srcs.len() + self.imms.len()
    }
}

/// The whole instruction set, as loaded from ISA.xml by [`crate::xml::load`].
#[derive(Debug, Clone)]
pub struct Isa {
    /// The 32 entries of `<lut name="Immediates">` (source byte `0xC0 | i`, Appendix B).
    pub immediates: Vec<u32>,
    /// All `<enum>`s in file order.
    pub enums: Vec<Enum>,
    /// All instructions in file order (group members expanded).
    pub instructions: Vec<InsDef>,
    /// The enum `Flow` (bits 59–62, §9).
    pub flow: EnumId,
    /// Special-value table for each FAU page (`FAU special page 0/1/3`; page 2 has none).
    pub fau_special_pages: [Option<EnumId>; 4],
    pub(crate) by_opcode: Vec<Vec<InsId>>,
    pub(crate) by_name: HashMap<String, InsId, NameHash>,
    pub(crate) enum_by_name: HashMap<String, EnumId>,
}

impl Isa {
    /// The instruction with this mnemonic (`"FADD.f32"`), if any.
    pub fn instruction(&self, name: &str) -> Option<&InsDef> {
        self.by_name.get(name).map(|&id| self.ins(id))
    }

    /// The instruction with this id. Panics if `id` is not from this ISA.
    pub fn ins(&self, id: InsId) -> &InsDef {
        &self.instructions[usize::from(id.0)]
    }

    /// All instructions with primary opcode `opcode` (0–511); empty for unknown opcodes.
    pub fn with_opcode(&self, opcode: u16) -> impl Iterator<Item = &InsDef> {
        self.by_opcode
            .get(usize::from(opcode))
            .into_iter()
            .flatten()
            .map(|&id| self.ins(id))
    }

    /// The enum named exactly `name` (`"Swizzles (16-bit)"`), if any.
    pub fn enum_named(&self, name: &str) -> Option<&Enum> {
        self.enum_by_name.get(name).map(|&id| &self.enums[id])
    }

    /// Id of the enum named exactly `name`.
    pub fn enum_id(&self, name: &str) -> Option<EnumId> {
        self.enum_by_name.get(name).copied()
    }

    /// Name of special FAU value `entry` (0–15) of `page`, or `None` for page 2, a
    /// reserved entry or an out-of-range one (§3.2).
    pub fn special_name(&self, page: u8, entry: u8) -> Option<&str> {
        let e = (*self.fau_special_pages.get(usize::from(page))?)?;
        self.enums[e].text(u64::from(entry))
    }

    /// Looks a special FAU value name up in the page tables 0, 1, 3 and returns
    /// `(page, entry)` (§11.3).
    pub fn find_special(&self, name: &str) -> Option<(u8, u8)> {
        self.fau_special_pages
            .iter()
            .enumerate()
            .find_map(|(page, e)| {
                let e = (*e)?;
                let entry = self.enums[e].find(name, usize::MAX)?;
                Some((page as u8, entry as u8))
            })
    }
}

/// Hashing for the mnemonic table: the compiler looks an instruction up by name for every
/// instruction it emits, and FNV-1a over a short ASCII name costs a fraction of the
/// default SipHash. The keys are the fixed names of the embedded ISA.xml, so there is no
/// untrusted input to flood the table with.
pub(crate) type NameHash = std::hash::BuildHasherDefault<Fnv1a>;

/// The 64-bit FNV-1a hash ([`NameHash`]).
pub(crate) struct Fnv1a(u64);

impl Default for Fnv1a {
    fn default() -> Self {
        Fnv1a(0xcbf2_9ce4_8422_2325)
    }
}

impl std::hash::Hasher for Fnv1a {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3);
        }
    }

    fn finish(&self) -> u64 {
        self.0
    }
}
