//! How registers are named in text: the index and register spelling tgsi_dump uses
//! (TEXT-FORMAT.md §10), shared by the TGSI printer and the model's validation messages,
//! and which declarations carry the implied vertex dimension (TEXT-FORMAT.md §6.2, §6.3).

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

/// Appends the integer `n` in decimal to `out` (printers' hot path: no `core::fmt`
/// machinery).
pub fn push_int(out: &mut String, n: impl itoa::Integer) {
    out.push_str(itoa::Buffer::new().format(n));
}

/// One bracketed index as tgsi_dump prints it: `[3]`, `[ADDR[0].x+3]`, `[TEMP[1].y-2](1)`
/// (array id in parentheses).
pub fn index_text(ix: &Index) -> String {
    let mut s = String::new();
    push_index(&mut s, ix);
    s
}

/// Appends [`index_text`] of `ix` to `out`.
pub fn push_index(out: &mut String, ix: &Index) {
    out.push('[');
    match ix.indirect {
        None => {
            push_int(out, ix.value);
            out.push(']');
        }
        Some(ind) => {
            out.push_str(ind.file.name());
            out.push('[');
            push_int(out, ind.index);
            out.push_str("].");
            out.push(comp_name(ind.component));
            if ix.value > 0 {
                out.push('+');
            }
            if ix.value != 0 {
                push_int(out, ix.value);
            }
            out.push(']');
            if ix.array_id != 0 {
                out.push('(');
                push_int(out, ix.array_id);
                out.push(')');
            }
        }
    }
}

/// `FILE[dim][index]` as tgsi_dump prints a register.
pub fn register_text(r: &Register) -> String {
    let mut s = String::new();
    push_register(&mut s, r);
    s
}

/// Appends [`register_text`] of `r` to `out`.
pub fn push_register(out: &mut String, r: &Register) {
    out.push_str(r.file.name());
    if let Some(d) = &r.dimension {
        push_index(out, d);
    }
    push_index(out, &r.index);
}
