//! NVIDIA assembly front-end: parser and canonical printer for NV_gpu_program4/5 programs
//! (`!!NVvp4.0` ... `!!NVcp5.0`) and the ARB_vertex_program / ARB_fragment_program programs
//! they extend (`!!ARBvp1.0`, `!!ARBfp1.0`, with the NV options).
//!
//! Reference: `../shared/spec/nv/` (NOTES.md is the guide; NV_gpu_program4.txt §2.X.2 is the
//! base grammar, NV_gpu_program5.txt Table X.13 the instruction table). The parser builds
//! an [`NvProgram`] syntax tree that keeps every semantic detail (opcode, data-type and
//! storage modifiers, precision suffix, CC update, clamping, conditional write masks,
//! swizzles, bindings, declarations with their sizes and modifiers, labels); see
//! [`ast`] for the few spellings it normalises.
//!
//! Besides the grammar it applies the load-time checks that need no execution:
//! names declared once and before use, reserved words, opcode availability by header,
//! option and stage (so `DDX` in a plain `!!ARBfp1.0` program and `SSG` in a plain
//! `!!ARBvp1.0` program are rejected), modifiers each opcode supports (Table X.13),
//! operand shapes and kinds (a scalar operand needs `.x`; `program.buffer[..]` is valid
//! only in BUFFER declarations), write-mask order, absolute indices against declared array
//! sizes, array sizes against their initializers, branch targets, and the mandatory
//! geometry / compute declarations. Lenient forms: leading whitespace before the header,
//! unknown text after `END`, `KIL (GT.x)` as well as `KIL GT.x`.
//!
//! It also applies the "will fail to load" rules of the specs that need the whole program
//! (`rules.rs`: option conflicts, attribute aliasing, relatively addressed arrays, one
//! target per texture unit) and the implementation limits of a [`LimitProfile`]
//! (`limits.rs`). docs/frontends.md lists what is accepted and refused.
//!
//! Not checked here (left to lowering or execution): operand data types against
//! `INT`/`UINT`/`FLOAT` declarations, nesting of IF/REP blocks.

pub mod ast;
mod bindings;
mod lexer;
mod limits;
pub mod lower;
mod lower_atom64;
mod lower_branch;
mod lower_cali;
mod lower_cc;
mod lower_cvt;
mod lower_cvt_sat;
mod lower_emit;
mod lower_f16;
mod lower_image;
mod lower_interp;
mod lower_mem;
mod lower_ops;
mod lower_stage;
mod lower_start;
mod lower_tex;
mod lower_undef;
mod lower_vars;
mod lower_vote;
mod lower_wide;
mod lower_wide_cc;
mod modifiers;
mod opcodes;
mod origin;
mod parse;
mod parse_decl;
mod parse_insn;
mod parse_tex;
mod print;
mod rules;
mod rules_binding;
mod structure;

pub use ast::*;
pub use limits::{LimitProfile, Limits};
pub use lower::{lower, lower_with, LowerError, LowerFault, LowerOptions, Lowered, NameMap};
pub use lower_image::{image_buffer_name, image_size_name};
pub use lower_stage::MAX_PATCH_VERTICES;
pub use opcodes::{ModKind, NvOpInfo, NvOpcode, Shape, TypeSupport};
pub use origin::NvOrigin;
pub use parse::KNOWN_OPTIONS;
pub use print::binding_text;

// The model's modules under the paths this front-end's files were written against (the
// front-end and the model were one crate): `crate::program::Program` is the model's.
use shaderdiff_model::{atomic64, edit, error, names, opcode, program, validate};

use crate::error::ParseError;

/// Parses an NV / ARB assembly program (NV_gpu_program4 §2.X.2 and the per-stage grammars).
///
/// `file_name` is used only in error messages. Errors are the first problem found, as
/// `file:line:col: message` (1-based line and column, columns in characters). Never
/// panics, on any input.
pub fn parse(text: &str, file_name: &str) -> Result<NvProgram, ParseError> {
    parse::parse_program(text, file_name, LimitProfile::Spec)
}

/// [`parse`] with the implementation limits of `profile` (docs/frontends.md): a binding
/// index beyond them makes the program fail to load (ARB_vertex_program §2.14.3.7,
/// ARB_fragment_program §3.11.6).
pub fn parse_with(
    text: &str,
    file_name: &str,
    profile: LimitProfile,
) -> Result<NvProgram, ParseError> {
    parse::parse_program(text, file_name, profile)
}

/// Prints `p` in canonical form, one statement per line (INTERFACE.md `check --print`):
/// `parse(&print(p))` gives a program equal to `p` and printing it again gives the same
/// text.
pub fn print(p: &NvProgram) -> String {
    print::print_program(p)
}

/// Whether `name` is an input binding of programs with header `h` (an attribute or a
/// program parameter such as `fragment.texcoord[1]`, `vertex[0].attrib[2]`,
/// `program.local[3]`, or a texture unit `texture[n]`), whether or not a program reads it:
/// INTERFACE.md "The inputs file" accepts such names with a note. Checked against the
/// most generous limits profile ([`LimitProfile::Mesa`]).
pub fn is_input_binding(h: Header, name: &str) -> bool {
    let plain = |c: char| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '[' | ']');
    if !name.chars().all(plain) {
        return false;
    }
    let decls = match h.stage {
        NvStage::Geometry => "PRIMITIVE_IN POINTS;\nPRIMITIVE_OUT POINTS;\nVERTICES_OUT 1;\n",
        NvStage::Compute => "GROUP_SIZE 1;\n",
        _ => "",
    };
    let text = |stmt: &str| format!("{}\n{decls}TEMP t__;\n{stmt}\nEND\n", h.text());
    let read = text(&format!("MOV t__, {name};"));
    if let Ok(p) = parse_with(&read, "", LimitProfile::Mesa) {
        // A swizzle (`fragment.texcoord[1].x`) is not part of a binding's name.
        let src = p.instructions().next().and_then(|i| i.srcs.first());
        return src.is_some_and(|s| {
            s.swizzle == Swizzle::None && matches!(s.base, SrcBase::Ref(VarRef::Binding(_)))
        });
    }
    let unit = name
        .strip_prefix("texture[")
        .and_then(|r| r.strip_suffix(']'))
        .and_then(|n| n.parse::<u32>().ok());
    unit.is_some_and(|n| n < Limits::of(LimitProfile::Mesa, h).image_units)
}
