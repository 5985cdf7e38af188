//! The jit's fault catalogue: deliberate, realistic miscompilations that
//! `--inject-fault NAME` switches on ([`shaderdiff_engine::EngineConfig::fault`]), so anyone
//! can check that the differential loop finds and reduces them (issue 4 "Fault injection").
//! Without the flag none is active: [`rewrite`] returns `None` and the jit compiles the
//! program as given.
//!
//! A fault is either a rewrite of the program before lowering (this module) or a switch in
//! the lowering itself; both only ever apply when [`JitEngine`](crate::JitEngine) was built
//! with the fault's name.

use shaderdiff_engine::FaultDef;
use shaderdiff_ir::{Opcode, Program};

/// Every fault the jit can inject.
pub const CATALOGUE: &[FaultDef] = &[FaultDef {
    name: "dp3-reads-w",
    description: "DP3 also adds the .w products (lowered as DP4)",
}];

/// The program the jit compiles when `fault` is active and is a rewrite fault; `None`
/// otherwise (no fault, or a fault of another engine).
pub(crate) fn rewrite(program: &Program, fault: Option<&str>) -> Option<Program> {
    match fault? {
        "dp3-reads-w" => {
            let mut p = program.clone();
            for insn in &mut p.instructions {
                if insn.opcode == Opcode::DP3 {
                    insn.opcode = Opcode::DP4;
                }
            }
            Some(p)
        }
        _ => None,
    }
}
