//! IPAC, IPAO, IPAS (NV_gpu_program5 §2.X.8.Z "Interpolate at Centroid / with Offset / at
//! Sample Location") lowered to the IR's INTERP_CENTROID, INTERP_OFFSET, INTERP_SAMPLE
//! (tgsi.rst "Interpolation ISA"), whose meaning in shaderdiff is the oracle's
//! (`shaderdiff_oracles::interp`, README "Additions to INTERFACE.md").
//!
//! * The first operand must be a fragment program attribute: a `fragment.*` binding or an
//!   ATTRIB variable bound to one, lowered to an `IN` register. "A program will fail to
//!   load" when it is anything else or matches `fragment.facing` or `primitive.id`: an
//!   invalid-program error at the instruction.
//! * Its swizzle, negation and absolute value are carried over; the IR applies them after
//!   interpolating (issue (8): "applied after the attribute values are interpolated").
//! * IPAO's second operand gives the offset in `.xy` (float); IPAS's second operand is a
//!   signed integer scalar, the sample number (Table X.13 "v,su").
//! * The attribute's FLAT modifier "operates normally" (its `IN` declaration is CONSTANT);
//!   CENTROID and SAMPLE are ignored, as the IR opcodes ignore the declared location.

use super::ast::{BaseType, Instruction as NvInsn, SrcBase, VarRef};
use super::lower::{Ctx, LowerError};
use super::NvOpcode as N;
use crate::names::File;
use crate::opcode::Opcode as O;
use crate::program::Saturate;

/// Fragment bindings IPAC/IPAO/IPAS refuse (NV_gpu_program5 §2.X.8.Z).
const NOT_INTERPOLATED: &[&str] = &["fragment.facing", "primitive.id"];

impl Ctx<'_> {
    /// Lowers IPAC / IPAO / IPAS (module docs). Errors: [`LowerError`] invalid program when
    /// the first operand is not an interpolatable fragment attribute.
    pub(super) fn lower_interp(&mut self, insn: &NvInsn, sat: Saturate) -> Result<(), LowerError> {
        let name = insn.opcode.name();
        let refuse = |ctx: &Self, what: String| {
            ctx.invalid(format!(
                "{name}: the first operand must be a fragment program attribute other than \
                 fragment.facing and primitive.id (NV_gpu_program5 section 2.X.8.Z), found {what}"
            ))
        };
        // Checked before resolving: the lowering may not model the refused binding at all.
        if let Some(SrcBase::Ref(VarRef::Binding(b))) = insn.srcs.first().map(|s| &s.base) {
            if NOT_INTERPOLATED.contains(&b.path().as_str()) {
                return Err(refuse(self, format!("`{}`", b.path())));
            }
        }
        let d = self.dest(insn)?;
        let a = self.operand(insn, 0, BaseType::F)?;
        let bound = self
            .names
            .entries
            .iter()
            .find(|(_, f, i)| *f == a.reg.file && *i as i32 == a.reg.index.value)
            .map(|(n, _, _)| n.clone());
        let refused = bound.as_deref().filter(|n| NOT_INTERPOLATED.contains(n));
        if a.reg.file != File::Input || refused.is_some() {
            let what =
                refused.map_or_else(|| format!("{} register", a.reg.file), |n| format!("`{n}`"));
            return Err(refuse(self, what));
        }
        let (op, b) = match insn.opcode {
            N::Ipao => (O::INTERP_OFFSET, Some(self.operand(insn, 1, BaseType::F)?)),
            N::Ipas => (O::INTERP_SAMPLE, Some(self.operand(insn, 1, BaseType::S)?)),
            _ => (O::INTERP_CENTROID, None),
        };
        let srcs = std::iter::once(a).chain(b).collect();
        self.op(op, d, srcs, sat);
        Ok(())
    }
}
