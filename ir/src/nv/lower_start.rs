//! Lowering options and the start of a lowered program: [`LowerOptions`] (deliberate
//! lowering faults for fault-injection campaigns) and the undefined start of ARB
//! temporaries.

use super::lower::Ctx;
use crate::names::File;
use crate::opcode::Opcode;
use crate::program::{self as ir, Register};

/// A deliberate, realistic bug in the NV front-end, switched on only by an engine's
/// catalogued fault (`--inject-fault`) so that campaigns can show the differential loop
/// finds NV-specific miscompilations. Never used by default.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LowerFault {
    /// `.CC` flags of a `.SAT` / `.SSAT` instruction computed from the value before
    /// clamping (NV_gpu_program4 §2.X.4.3: the condition code is set from the result
    /// written, i.e. after clamping).
    CcFromUnsaturated,
}

/// Lowering options: [`super::lower_with`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LowerOptions {
    /// A deliberate lowering bug ([`LowerFault`]); `None` (the default) for the real
    /// lowering.
    pub fault: Option<LowerFault>,
}

impl Ctx<'_> {
    /// Emits, at the start of the program, the undefined start of every ARB temporary.
    pub(super) fn arb_undefined_temps(&mut self) {
        // ARB temporaries start undefined: ARB_vertex_program issue 16 ("it was decided to
        // leave these values uninitialized") and the register tables of ARB_vertex_program
        // and ARB_fragment_program ("temporary registers: undefined"). Each starts as an
        // integer division by zero (undefined in the IR) ANDed with 0: the oracle flags a
        // read before any write as undefined (skipped by the comparators), while every
        // engine still computes INTERFACE.md's zero start. NV_gpu_program4 programs keep
        // the plain zero start.
        let zero = self.imm([0; 4]);
        let z = ir::Src::new(zero);
        for t in 0..self.max_temp {
            let reg = Register::new(File::Temp, t as i32);
            let d = ir::Dst {
                reg,
                writemask: 0xF,
            };
            self.emit(Opcode::IDIV, vec![d], vec![z, z]);
            self.emit(Opcode::AND, vec![d], vec![ir::Src::new(reg), z]);
        }
    }
}
