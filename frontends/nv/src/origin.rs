//! The NV / ARB assembly a lowered IR program came from, kept beside the IR
//! ([`crate::program::SourceMap::origin`], opaque to the model) for engines that run the assembly itself (an
//! external driver such as Mesa's llvmpipe through OSMesa) rather than the IR.
//!
//! The lowering attaches it; every other engine ignores it. A program that was changed
//! after lowering (probed, reduced or edited copies) no longer equals
//! [`NvOrigin::lowered`], and [`NvOrigin::of`] returns `None` for it, so an engine never
//! runs assembly that does not match the IR it was handed.

use std::sync::Arc;

use super::ast::{NvProgram, NvStage};
use super::lower::NameMap;
use crate::program::Program;

/// The source of a lowered program: its syntax tree, the names of its IR registers and
/// the IR the lowering produced (to recognise unmodified programs).
#[derive(Clone, Debug, PartialEq)]
pub struct NvOrigin {
    /// The parsed program (print it with [`super::print`] for canonical text).
    pub ast: NvProgram,
    /// NV names of the IR's IN, OUT and CONST registers.
    pub names: NameMap,
    /// The NV stage.
    pub stage: NvStage,
    /// The IR program exactly as lowered (its own `source_map.origin` is `None`).
    pub lowered: Program,
}

impl NvOrigin {
    /// The origin of `program` when it carries one and is still the program the lowering
    /// produced (IR equality, which ignores source positions); `None` otherwise.
    pub fn of(program: &Program) -> Option<&NvOrigin> {
        let o = program
            .source_map
            .origin
            .as_deref()?
            .downcast_ref::<NvOrigin>()?;
        (o.lowered == *program).then_some(o)
    }

    /// Attaches the origin to a freshly lowered `program`.
    pub(crate) fn attach(program: &mut Program, ast: &NvProgram, names: &NameMap, stage: NvStage) {
        let mut lowered = program.clone();
        lowered.source_map.origin = None;
        program.source_map.origin = Some(Arc::new(NvOrigin {
            ast: ast.clone(),
            names: names.clone(),
            stage,
            lowered,
        }));
    }
}
