//! CALI (ARB_shader_subroutine, "Section 2.X.8.Z, CALI" and the additions to §2.X.5
//! Program Flow Control): an indirect subroutine call through a SUBROUTINE variable.
//!
//! * `SUBROUTINETYPE T { l1, l2 };` statements (possibly several per type) give the labels
//!   of type `T`; each such label carries a `SUBROUTINENUM(n)`.
//! * `SUBROUTINE T v = program.subroutine[i];` binds `v` to the subroutine parameter `i`,
//!   a scalar unsigned integer that the inputs file sets under `constants` as
//!   `"program.subroutine[i]"` (its x component; the API's
//!   ProgramSubroutineParametersuivNV).
//! * `CALI v (cond)` calls the label of type `T` whose SUBROUTINENUM the parameter holds:
//!   `SWITCH` on the parameter with one `CASE n: CAL label; BRK` per label of the type.
//!   A parameter value that is not a SUBROUTINENUM of the type cannot be set through the
//!   API (INVALID_OPERATION), and an unset one holds "arbitrary defaults": the invocation
//!   is then unconstrained (its `DEFAULT` decides on an undefined word), so every output
//!   is undefined.
//!
//! Refused: CALI through a relatively indexed SUBROUTINE array. Program errors (exit 2): a
//! label of the type without SUBROUTINENUM, a type naming an unknown label.

use super::ast::{DeclKind, Declaration, Instruction as NvInsn, SrcBase, Statement, VarRef};
use super::lower::{dst, src, Ctx, Elem, LowerError};
use super::lower_cc::Cond;
use crate::names::File;
use crate::opcode::Opcode as O;

impl Ctx<'_> {
    /// Lowers CALI (module docs).
    pub(super) fn cali(&mut self, insn: &NvInsn) -> Result<(), LowerError> {
        let nv = self.nv;
        let s = insn
            .srcs
            .first()
            .ok_or_else(|| self.invalid("CALI: missing subroutine variable".into()))?;
        let SrcBase::Ref(var @ VarRef::Var { name, .. }) = &s.base else {
            return Err(self.invalid("CALI needs a SUBROUTINE variable".into()));
        };
        let ty = nv
            .statements
            .iter()
            .find_map(|st| match st {
                Statement::Decl(Declaration::Bound(b))
                    if b.kind == DeclKind::Subroutine && &b.name == name =>
                {
                    b.subroutine_type.clone()
                }
                _ => None,
            })
            .ok_or_else(|| self.invalid(format!("`{name}` is not a SUBROUTINE variable")))?;
        if self.resolve_rel(var, None)?.is_some() {
            return Err(self.unsupported(format!(
                "CALI through a relatively indexed SUBROUTINE array `{name}`"
            )));
        }
        let param = match self.resolve(var)? {
            Elem::Reg(File::Const, i) => i,
            _ => return Err(self.invalid(format!("`{name}` is not a subroutine parameter"))),
        };
        // The labels of the type, in declaration order, with their SUBROUTINENUM.
        let mut targets: Vec<(String, u32)> = Vec::new();
        for st in &nv.statements {
            let Statement::Decl(Declaration::SubroutineType { name: t, labels }) = st else {
                continue;
            };
            if *t != ty {
                continue;
            }
            for l in labels {
                if targets.iter().any(|(n, _)| n == l) {
                    continue;
                }
                let num = nv.statements.iter().find_map(|st| match st {
                    Statement::Label(x) if &x.name == l => Some(x.subroutine_num),
                    _ => None,
                });
                match num {
                    None => {
                        return Err(self.invalid(format!(
                            "SUBROUTINETYPE `{ty}` names `{l}`, which is not a label"
                        )))
                    }
                    Some(None) => {
                        return Err(self.invalid(format!(
                            "label `{l}` of SUBROUTINETYPE `{ty}` has no SUBROUTINENUM \
                             (ARB_shader_subroutine §2.X.5)"
                        )))
                    }
                    Some(Some(n)) => targets.push((l.clone(), n)),
                }
            }
        }
        let cond = self.branch_cond(insn)?;
        let c = match cond {
            Cond::Never => return Ok(()),
            Cond::Always => None,
            Cond::Dyn(c) => Some(c),
        };
        if let Some(c) = c {
            self.emit(O::UIF, vec![], vec![c]);
        }
        let p = crate::program::Register::new(File::Const, param as i32);
        self.emit(O::SWITCH, vec![], vec![src(p, [0; 4])]);
        for (label, num) in targets {
            let n = self.imm([num; 4]);
            self.emit(O::CASE, vec![], vec![src(n, [0; 4])]);
            let at = self.emit(O::CAL, vec![], vec![]);
            self.calls.push((at, label));
            self.emit(O::BRK, vec![], vec![]);
        }
        // Not a SUBROUTINENUM of the type: decide on an undefined word (IDIV by zero,
        // tgsi.rst IDIV) so the invocation is unconstrained.
        self.emit(O::DEFAULT, vec![], vec![]);
        let zero = self.imm([0; 4]);
        let t = self.hidden();
        self.emit(
            O::IDIV,
            vec![dst(t, 0x1)],
            vec![src(zero, [0; 4]), src(zero, [0; 4])],
        );
        self.emit(O::UIF, vec![], vec![src(t, [0; 4])]);
        self.emit(O::ENDIF, vec![], vec![]);
        self.emit(O::BRK, vec![], vec![]);
        self.emit(O::ENDSWITCH, vec![], vec![]);
        if c.is_some() {
            self.emit(O::ENDIF, vec![], vec![]);
        }
        Ok(())
    }
}
