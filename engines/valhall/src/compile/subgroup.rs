//! The inter-lane votes VOTE_ANY, VOTE_ALL, VOTE_EQ and READ_FIRST (tgsi.rst "Inter-lane
//! opcodes"; NV TGALL/TGANY/TGEQ lower to them) as Valhall subgroup instructions. The
//! thread group is the warp's 16 threads executing the instruction (SEMANTICS.md §1.2:
//! subgroup operations see the current active mask), an arrangement NV_gpu_program5
//! §2.X.8.Z leaves to the implementation.
//!
//! ISA.xml `WMASK`: "An `all()` subgroup operation may be constructed as `WMASK` of the
//! input compared for equality with `WMASK` of a nonzero value. An `any()` subgroup
//! operation may be constructed as `WMASK` of the input compared against zero." The first
//! active lane is `ctz(WMASK(1)) = clz(bitrev(WMASK(1)))`; `CLPER` reads its value.

use shaderdiff_model::Opcode;

use super::alu::{icmp, plain};
use super::lower::Lower;
use super::vcode::VSrc;
use super::CompileError;

impl Lower<'_> {
    /// Channel value of vote `op` on the channel value `a` (module docs). TRUE is
    /// `0xffffffff`, FALSE `0`; a value is "set" when its word is nonzero.
    pub(super) fn vote(&mut self, op: Opcode, a: VSrc) -> Result<VSrc, CompileError> {
        let code = &mut self.code;
        let a = plain(code, a);
        let one = code.konst(1);
        let active = code.op("WMASK", &[one], &[]);
        Ok(match op {
            Opcode::VOTE_ANY => {
                let m = code.op("WMASK", &[a], &[]);
                let z = code.konst(0);
                icmp(code, m, z, "ne", "m1", false)
            }
            Opcode::VOTE_ALL => {
                let m = code.op("WMASK", &[a], &[]);
                icmp(code, m, active, "eq", "m1", false)
            }
            Opcode::VOTE_EQ | Opcode::READ_FIRST => {
                let r = code.op("BITREV.i32", &[active], &[]);
                let first = code.op("CLZ.u32", &[r], &[]);
                let mods = &[("lane_op", "none"), ("inactive_result", "zero")];
                let v = code.op("CLPER.i32", &[a, first.sel("b00")], mods);
                if op == Opcode::READ_FIRST {
                    v
                } else {
                    let e = icmp(code, a, v, "eq", "m1", false);
                    let m = code.op("WMASK", &[e], &[]);
                    icmp(code, m, active, "eq", "m1", false)
                }
            }
            _ => {
                return Err(CompileError::unsupported(
                    None,
                    &format!("{op} is not an inter-lane vote"),
                ))
            }
        })
    }
}
