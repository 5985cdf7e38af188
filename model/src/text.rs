//! How registers are named in text: the index and register spelling tgsi_dump uses
//! (TEXT-FORMAT.md §10), shared by the TGSI printer and the model's validation messages,
//! and which declarations carry the implied vertex dimension (TEXT-FORMAT.md §6.2, §6.3).

use std::fmt::Write as _;

use crate::names::*;
use crate::program::*;

/// Whether `file` declared in `stage` has the implied vertex dimension (§6.2, §6.3).
pub fn implied_context(stage: Stage, file: File) -> bool {
    match stage {
        Stage::Geometry | Stage::TessEval => file == File::Input,
        Stage::TessCtrl => matches!(file, File::Input | File::Output),
        _ => false,
    }
}

/// Whether a declaration in `stage` of `file` with `semantic` is printed as `FILE[][n]`
/// (tgsi_dump: GEOM inputs, non-patch TESS inputs, non-patch TESS_CTRL outputs).
pub fn prints_implied(stage: Stage, file: File, semantic: Option<SemanticName>) -> bool {
    let patch = matches!(
        semantic,
        Some(
            SemanticName::Patch
                | SemanticName::TessOuter
                | SemanticName::TessInner
                | SemanticName::PrimId
        )
    );
    implied_context(stage, file) && (stage == Stage::Geometry || !patch)
}

/// The letter of channel `c` (`x`, `y`, `z`, `w`; `?` out of range).
pub fn comp_name(c: u8) -> char {
    CHANNEL_NAMES.get(c as usize).copied().unwrap_or('?')
}

/// One bracketed index as tgsi_dump prints it: `[3]`, `[ADDR[0].x+3]`, `[TEMP[1].y-2](1)`
/// (array id in parentheses).
pub fn index_text(ix: &Index) -> String {
    match ix.indirect {
        None => format!("[{}]", ix.value),
        Some(ind) => {
            let mut s = format!(
                "[{}[{}].{}",
                ind.file.name(),
                ind.index,
                comp_name(ind.component)
            );
            if ix.value > 0 {
                let _ = write!(s, "+{}", ix.value);
            } else if ix.value < 0 {
                let _ = write!(s, "{}", ix.value);
            }
            s.push(']');
            if ix.array_id != 0 {
                let _ = write!(s, "({})", ix.array_id);
            }
            s
        }
    }
}

/// `FILE[dim][index]` as tgsi_dump prints a register.
pub fn register_text(r: &Register) -> String {
    let mut s = r.file.name().to_string();
    if let Some(d) = &r.dimension {
        s += &index_text(d);
    }
    s += &index_text(&r.index);
    s
}
