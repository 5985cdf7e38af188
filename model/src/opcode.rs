//! The opcode table: one `Opcode` per TGSI opcode, generated at build time from
//! `model/data/opcodes.csv` (a copy of ../shared/spec/tgsi/opcodes.csv, columns
//! described in ../shared/spec/tgsi/README.md) and `model/data/legacy-opcodes.csv`.

use crate::types::ScalarType;

include!(concat!(env!("OUT_DIR"), "/opcodes.rs"));

/// How an opcode fills its destination channels (`output_mode` column of opcodes.csv).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OutputMode {
    /// No destination.
    None,
    /// Channel c of the result depends only on channel c of each (swizzled) source.
    Componentwise,
    /// One scalar result (from the first swizzle components) replicated to every enabled channel.
    Replicate,
    /// Each channel has its own formula (LIT, EXP, LOG, DST, UP2H ...).
    ChanDependent,
    /// Texture, memory and other special operations.
    Other,
}

/// Static facts about one opcode: one row of opcodes.csv.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct OpInfo {
    /// The opcode itself.
    pub opcode: Opcode,
    /// `TGSI_OPCODE_*` number (legacy opcodes: 1000+, never emitted as tokens).
    pub number: u16,
    /// Text name as Mesa's parser and printer spell it.
    pub name: &'static str,
    /// Number of destination operands (0 or 1).
    pub num_dst: u8,
    /// Number of source operands.
    pub num_src: u8,
    /// How channels are produced.
    pub output_mode: OutputMode,
    /// Texture opcode (takes a texture target operand in text).
    pub is_tex: bool,
    /// Writes memory.
    pub is_store: bool,
    /// May carry a `:N` label in text (IF, UIF, ELSE, BGNLOOP, ENDLOOP, CAL).
    pub is_branch: bool,
    /// The printer dedents before this opcode.
    pub pre_dedent: bool,
    /// The printer indents after this opcode.
    pub post_indent: bool,
    /// Type of the destination (`tgsi_opcode_infer_dst_type`); `None` without a destination.
    pub dst_type: Option<ScalarType>,
    /// Type of each source (`tgsi_opcode_infer_src_type`).
    pub src_types: &'static [Option<ScalarType>],
    /// A texture target operand is mandatory in text.
    pub has_texture_target: bool,
    /// Optional texel offsets may follow.
    pub has_tex_offsets: bool,
    /// Optional memory qualifiers / target / format may follow.
    pub has_mem_qualifiers: bool,
    /// tgsi.rst section describing the opcode.
    pub doc_section: &'static str,
    /// tgsi.rst title of the opcode.
    pub doc_title: &'static str,
    /// Removed from current Mesa (ABS, SUB, XPD, DPH, KIL, KILP); accepted for old programs.
    pub legacy: bool,
}

impl Opcode {
    /// The opcode's table row.
    pub fn info(self) -> &'static OpInfo {
        let i = ALL_OPCODES
            .binary_search(&self)
            .expect("every Opcode is in ALL_OPCODES");
        &OPCODE_TABLE[i]
    }

    /// Text name (`"MOV"`, `"UMUL_HI"`).
    pub fn name(self) -> &'static str {
        self.info().name
    }

    /// Looks an opcode up by its text name, case-insensitively. `UNKnn` gap names are rejected.
    pub fn from_name(name: &str) -> Option<Opcode> {
        OPCODE_TABLE
            .iter()
            .find(|i| i.name.eq_ignore_ascii_case(name))
            .map(|i| i.opcode)
    }

    /// Whether this opcode opens a control-flow block (IF, UIF, BGNLOOP, SWITCH, BGNSUB).
    pub fn opens_block(self) -> bool {
        matches!(
            self,
            Opcode::IF | Opcode::UIF | Opcode::BGNLOOP | Opcode::SWITCH | Opcode::BGNSUB
        )
    }
}

impl std::fmt::Display for Opcode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_has_all_243_tgsi_opcodes() {
        let tgsi = ALL_OPCODES.iter().filter(|o| !o.info().legacy).count();
        assert_eq!(tgsi, 243);
        assert!(ALL_OPCODES.windows(2).all(|w| w[0] < w[1]));
    }

    #[test]
    fn rows_match_the_csv() {
        // Spot checks against ../shared/spec/tgsi/opcodes.csv.
        let mad = Opcode::MAD.info();
        assert_eq!((mad.number, mad.num_dst, mad.num_src), (16, 1, 3));
        let bfi = Opcode::BFI.info();
        assert_eq!((bfi.number, bfi.num_src), (186, 4));
        assert_eq!(bfi.dst_type, Some(ScalarType::U32));
        assert!(Opcode::TEX.info().has_texture_target);
        assert_eq!(Opcode::from_name("umul_hi"), Some(Opcode::UMUL_HI));
        assert_eq!(Opcode::from_name("UNK67"), None);
    }
}
