//! The jit's fault catalogue: deliberate, realistic miscompilations that
//! `--inject-fault NAME` switches on ([`shaderdiff_engine::EngineConfig::fault`]), so anyone
//! can check that the differential loop finds and reduces them (`fuzz --inject-fault`, `shaderdiff faults`).
//!
//! Each fault imitates a bug a real shader compiler could have: a wrong instruction
//! selection (an opcode lowered as its neighbour), a NaN or sign case handled with the wrong
//! comparison, a modifier applied with the wrong type, an operand table with two entries
//! swapped. Two mechanisms implement them, and both only ever act when the
//! [`JitEngine`](crate::JitEngine) was built with the fault's name:
//!
//! * **Rewrites** ([`rewrite`]): the program is changed before lowering (instruction
//!   selection bugs such as `dp3-reads-w`, `cmp-swapped`, `umul-hi-signed`). Without the
//!   fault the jit compiles the program it was given, untouched.
//! * **NV front-end faults**: rewrites of the IR shapes the NV lowering
//!   (frontends/nv/src/lower_cc.rs `with_cc`) gives condition codes: `nv-cc-unsaturated`
//!   takes the flags of a saturated result from its unclamped copy
//!   ([`cc_sat::cc_from_unsaturated`]), `nv-condmask-swap-xy` swaps the tests of a
//!   conditional write mask ([`swap_conditional_xy`]). Working on shapes rather than on the
//!   assembly keeps them in probed and reduced copies. Reduced NV findings (NV text,
//!   re-lowered) show them in a `.SAT.CC` instruction plus a conditional write,
//!   or one conditionally masked write after a `.CC` update.
//! * **Atomic runtime**: `atomic-imax-unsigned` acts in the jit's own atomic arithmetic
//!   (`crate::atomic`, `FAULT HOOK`), which the runtime call of every ATOM* instruction
//!   runs; one ATOMIMAX of a negative and a positive value shows it.
//! * **Lowering switches**: the lowering asks [`Fault`] at a handful of sites, each marked
//!   `FAULT HOOK` in `lower/` (saturate, integer negation, IF condition, KILL_IF, and the
//!   ALU dispatch, which calls [`lower::alu`] for `shift-count-unmasked`, `f2i-rounds`,
//!   `round-half-away` and `min-nan-propagates`). The test is on the compile-time
//!   configuration: generated code carries no trace of it when the fault is off.
//!
//! Every fault can be shown by a program of at most four instructions besides END (the
//! issue's bar for a reduced finding): an ALU fault by its opcode alone, `if-nan-false` by
//! `IF`, a write and `ENDIF`, `kill-if-sign-bit` by one `KILL_IF`, `emit-stream-zero` by
//! one `EMIT` of stream 1.

mod cc_sat;
pub(crate) mod lower;

use shaderdiff_engine::{FaultDef, FaultMode};
use shaderdiff_model::{Opcode, Program, IDENTITY_SWIZZLE};

/// One catalogued fault of the jit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Fault {
    /// `dp3-reads-w`.
    Dp3ReadsW,
    /// `swizzle-swap`.
    SwizzleSwap,
    /// `writemask-ignored-w`.
    WritemaskIgnoredW,
    /// `sat-nan-passthrough`.
    SatNanPassthrough,
    /// `cmp-swapped`.
    CmpSwapped,
    /// `ucmp-swapped`.
    UcmpSwapped,
    /// `ibfe-no-sign-extend`.
    IbfeNoSignExtend,
    /// `shift-count-unmasked`.
    ShiftCountUnmasked,
    /// `f2i-rounds`.
    F2iRounds,
    /// `umul-hi-signed`.
    UmulHiSigned,
    /// `round-half-away`.
    RoundHalfAway,
    /// `min-nan-propagates`.
    MinNanPropagates,
    /// `usge-signed`.
    UsgeSigned,
    /// `i2f-unsigned`.
    I2fUnsigned,
    /// `ineg-flips-sign-bit`.
    InegFlipsSignBit,
    /// `if-nan-false`.
    IfNanFalse,
    /// `kill-if-sign-bit`.
    KillIfSignBit,
    /// `emit-stream-zero`.
    EmitStreamZero,
    /// `nv-cc-unsaturated`.
    NvCcUnsaturated,
    /// `nv-condmask-swap-xy`.
    NvCondMaskSwapXy,
    /// `atomic-imax-unsigned`.
    AtomicImaxUnsigned,
    /// `flr-as-trunc`.
    FlrAsTrunc,
    /// `lrp-swapped`.
    LrpSwapped,
    /// `sub-operands-swapped`.
    SubSwapped,
    /// `ushr-arithmetic`.
    UshrArithmetic,
    /// `imax-unsigned`.
    ImaxUnsigned,
    /// `u2f-signed`.
    U2fSigned,
    /// `imul-hi-unsigned`.
    ImulHiUnsigned,
    /// `neg-abs-drops-neg`.
    NegAbsDropsNeg,
    /// `dph-as-dp4`.
    DphAsDp4,
    /// `i64shr-logical`.
    I64ShrLogical,
    /// `u2i64-sign-extends`.
    U2i64SignExtends,
    /// `nv-ssat-as-sat`.
    NvSsatAsSat,
    /// `atomxchg-returns-new`.
    AtomxchgReturnsNew,
    /// `nv-cc-int-as-float`.
    NvCcIntAsFloat,
}

/// Every fault with its catalogue entry, in `shaderdiff faults` order.
const FAULTS: &[(Fault, FaultDef)] = &[
    (
        Fault::Dp3ReadsW,
        FaultDef {
            name: "dp3-reads-w",
            description: "DP3 also adds the .w products (lowered as DP4)",
            mode: FaultMode::Tgsi,
        },
    ),
    (
        Fault::SwizzleSwap,
        FaultDef {
            name: "swizzle-swap",
            description: "ADD/SUB/MUL/DIV/MAD/FMA/LRP sources with a non-identity swizzle read .z for .y and .y for .z",
            mode: FaultMode::Tgsi,
        },
    ),
    (
        Fault::WritemaskIgnoredW,
        FaultDef {
            name: "writemask-ignored-w",
            description: "ADD/SUB/MUL/DIV/MAD/FMA/LRP ignore the .w bit of a writemask that has other channels: .w keeps its old value",
            mode: FaultMode::Tgsi,
        },
    ),
    (
        Fault::SatNanPassthrough,
        FaultDef {
            name: "sat-nan-passthrough",
            description: "_SAT clamps with ordered compares, so NaN passes through instead of becoming 0.0",
            mode: FaultMode::Tgsi,
        },
    ),
    (
        Fault::CmpSwapped,
        FaultDef {
            name: "cmp-swapped",
            description: "CMP gives src2 where src0 < 0 and src1 elsewhere (src1 and src2 swapped)",
            mode: FaultMode::Tgsi,
        },
    ),
    (
        Fault::UcmpSwapped,
        FaultDef {
            name: "ucmp-swapped",
            description: "UCMP gives src2 where src0 != 0 and src1 elsewhere (src1 and src2 swapped)",
            mode: FaultMode::Tgsi,
        },
    ),
    (
        Fault::IbfeNoSignExtend,
        FaultDef {
            name: "ibfe-no-sign-extend",
            description: "IBFE zero-extends the extracted field (lowered as UBFE)",
            mode: FaultMode::Tgsi,
        },
    ),
    (
        Fault::ShiftCountUnmasked,
        FaultDef {
            name: "shift-count-unmasked",
            description: "SHL/USHR/ISHR do not mask the count with 31: counts >= 32 give 0 (ISHR: the sign)",
            mode: FaultMode::Tgsi,
        },
    ),
    (
        Fault::F2iRounds,
        FaultDef {
            name: "f2i-rounds",
            description: "F2I rounds to nearest even instead of truncating",
            mode: FaultMode::Tgsi,
        },
    ),
    (
        Fault::UmulHiSigned,
        FaultDef {
            name: "umul-hi-signed",
            description: "UMUL_HI gives the high word of the signed product (lowered as IMUL_HI)",
            mode: FaultMode::Tgsi,
        },
    ),
    (
        Fault::RoundHalfAway,
        FaultDef {
            name: "round-half-away",
            description: "ROUND rounds halfway cases away from zero instead of to even",
            mode: FaultMode::Tgsi,
        },
    ),
    (
        Fault::MinNanPropagates,
        FaultDef {
            name: "min-nan-propagates",
            description: "MIN/MAX test the wrong operand for NaN, so a NaN operand is returned instead of ignored",
            mode: FaultMode::Tgsi,
        },
    ),
    (
        Fault::UsgeSigned,
        FaultDef {
            name: "usge-signed",
            description: "USGE/USLT compare as signed integers (lowered as ISGE/ISLT)",
            mode: FaultMode::Tgsi,
        },
    ),
    (
        Fault::I2fUnsigned,
        FaultDef {
            name: "i2f-unsigned",
            description: "I2F converts its source as unsigned (lowered as U2F)",
            mode: FaultMode::Tgsi,
        },
    ),
    (
        Fault::InegFlipsSignBit,
        FaultDef {
            name: "ineg-flips-sign-bit",
            description: "the negate modifier on integer sources flips bit 31 (float negation) instead of two's complement",
            mode: FaultMode::Tgsi,
        },
    ),
    (
        Fault::IfNanFalse,
        FaultDef {
            name: "if-nan-false",
            description: "IF tests its condition with an ordered != 0.0, so a NaN condition is false",
            mode: FaultMode::Tgsi,
        },
    ),
    (
        Fault::KillIfSignBit,
        FaultDef {
            name: "kill-if-sign-bit",
            description: "KILL_IF tests the sign bit instead of < 0.0, so -0.0 and negative NaNs kill",
            mode: FaultMode::Tgsi,
        },
    ),
    (
        Fault::EmitStreamZero,
        FaultDef {
            name: "emit-stream-zero",
            description: "EMIT/ENDPRIM ignore their stream operand: every vertex goes to stream 0",
            mode: FaultMode::Tgsi,
        },
    ),
    (
        Fault::NvCcUnsaturated,
        FaultDef {
            name: "nv-cc-unsaturated",
            description: "NV assembly: .CC of a .SAT/.SSAT instruction sets the flags from the value before clamping",
            mode: FaultMode::NvAlu,
        },
    ),
    (
        Fault::NvCondMaskSwapXy,
        FaultDef {
            name: "nv-condmask-swap-xy",
            description: "NV assembly: a conditional write mask writes .x where the test passes for .y and .y where it passes for .x",
            mode: FaultMode::NvAlu,
        },
    ),
    (
        Fault::FlrAsTrunc,
        FaultDef {
            name: "flr-as-trunc",
            description: "FLR rounds toward zero (lowered as TRUNC): negative non-integers come out one too high",
            mode: FaultMode::Tgsi,
        },
    ),
    (
        Fault::LrpSwapped,
        FaultDef {
            name: "lrp-swapped",
            description: "LRP interpolates the other way: src0*src2 + (1-src0)*src1 (src1 and src2 swapped)",
            mode: FaultMode::Tgsi,
        },
    ),
    (
        Fault::SubSwapped,
        FaultDef {
            name: "sub-operands-swapped",
            description: "SUB is treated as commutative: src1 - src0 instead of src0 - src1",
            mode: FaultMode::Tgsi,
        },
    ),
    (
        Fault::UshrArithmetic,
        FaultDef {
            name: "ushr-arithmetic",
            description: "USHR shifts in copies of the sign bit (lowered as ISHR)",
            mode: FaultMode::Tgsi,
        },
    ),
    (
        Fault::ImaxUnsigned,
        FaultDef {
            name: "imax-unsigned",
            description: "IMAX/IMIN compare as unsigned integers (lowered as UMAX/UMIN)",
            mode: FaultMode::Tgsi,
        },
    ),
    (
        Fault::U2fSigned,
        FaultDef {
            name: "u2f-signed",
            description: "U2F converts its source as signed (lowered as I2F): words >= 2^31 become negative",
            mode: FaultMode::Tgsi,
        },
    ),
    (
        Fault::ImulHiUnsigned,
        FaultDef {
            name: "imul-hi-unsigned",
            description: "IMUL_HI gives the high word of the unsigned product (lowered as UMUL_HI)",
            mode: FaultMode::Tgsi,
        },
    ),
    (
        Fault::NegAbsDropsNeg,
        FaultDef {
            name: "neg-abs-drops-neg",
            description: "a float source with both modifiers, -|x|, is read as |x| (the negate is folded away)",
            mode: FaultMode::Tgsi,
        },
    ),
    (
        Fault::DphAsDp4,
        FaultDef {
            name: "dph-as-dp4",
            description: "DPH reads src0.w instead of 1.0 (lowered as DP4)",
            mode: FaultMode::Tgsi,
        },
    ),
    (
        Fault::I64ShrLogical,
        FaultDef {
            name: "i64shr-logical",
            description: "I64SHR shifts in zeros (lowered as U64SHR): negative 64-bit values become large positive ones",
            mode: FaultMode::Wide,
        },
    ),
    (
        Fault::U2i64SignExtends,
        FaultDef {
            name: "u2i64-sign-extends",
            description: "U2I64 sign-extends its 32-bit source (lowered as I2I64)",
            mode: FaultMode::Wide,
        },
    ),
    (
        Fault::AtomicImaxUnsigned,
        FaultDef {
            name: "atomic-imax-unsigned",
            description: "ATOMIMAX compares its operands as unsigned integers (ATOMUMAX's comparison), so a negative value wins over a positive one",
            mode: FaultMode::Memory,
        },
    ),
    (
        Fault::NvSsatAsSat,
        FaultDef {
            name: "nv-ssat-as-sat",
            description: "NV assembly: .SSAT clamps to [0, 1] like .SAT instead of to [-1, 1]",
            mode: FaultMode::NvAlu,
        },
    ),
    (
        Fault::AtomxchgReturnsNew,
        FaultDef {
            name: "atomxchg-returns-new",
            description: "ATOMXCHG returns the value it stored instead of the location's old value",
            mode: FaultMode::Memory,
        },
    ),
    (
        Fault::NvCcIntAsFloat,
        FaultDef {
            name: "nv-cc-int-as-float",
            description: "NV assembly: .CC of an integer result tests it as a float (SF = r < 0.0, ZF = r == 0.0): -1 clears SF, 0x80000000 sets ZF",
            mode: FaultMode::NvAlu,
        },
    ),
];

/// Every fault the jit can inject, as `shaderdiff faults` lists them.
pub const CATALOGUE: &[FaultDef] = &{
    let mut defs = [FaultDef {
        name: "",
        description: "",
        mode: FaultMode::Tgsi,
    }; FAULTS.len()];
    let mut i = 0;
    while i < FAULTS.len() {
        defs[i] = FAULTS[i].1;
        i += 1;
    }
    defs
};

impl Fault {
    /// The fault named `name` (a [`CATALOGUE`] name); `None` for any other name, including
    /// faults of other engines.
    pub fn from_name(name: &str) -> Option<Fault> {
        FAULTS.iter().find(|(_, d)| d.name == name).map(|(f, _)| *f)
    }

    /// The fault of an engine configuration's `fault` field, if it is one of the jit's.
    pub fn from_config(fault: Option<&str>) -> Option<Fault> {
        fault.and_then(Fault::from_name)
    }

    /// The catalogue name (`--inject-fault NAME`).
    pub fn name(self) -> &'static str {
        FAULTS
            .iter()
            .find(|(f, _)| *f == self)
            .map_or("", |(_, d)| d.name)
    }
}

/// The float arithmetic opcodes whose operands `swizzle-swap` and `writemask-ignored-w`
/// mishandle.
fn float_arith(op: Opcode) -> bool {
    use Opcode::*;
    matches!(op, ADD | SUB | MUL | DIV | MAD | FMA | LRP)
}

/// Whether every source of `op` is a float (tgsi.rst: the modifiers are float operations
/// there), for `neg-abs-drops-neg`.
fn float_sources(op: Opcode) -> bool {
    let info = op.info();
    info.num_src > 0
        && info.src_types[..usize::from(info.num_src).min(info.src_types.len())]
            .iter()
            .all(|t| *t == Some(shaderdiff_model::ScalarType::F32))
}

/// A swizzle with components y and z exchanged.
fn swap_yz(swizzle: [u8; 4]) -> [u8; 4] {
    swizzle.map(|c| match c {
        1 => 2,
        2 => 1,
        c => c,
    })
}

/// `nv-condmask-swap-xy` on the shape the NV lowering gives a conditional write mask
/// (frontends/nv/src/lower_cc.rs `with_cc`): `UIF test.xxxx` (or `.yyyy`) around moves that write
/// only that component. The test component of x and y is exchanged. Working on that IR shape
/// (rather than re-lowering the assembly) keeps the fault in probed and reduced copies of the
/// program, so findings are located and reduced like any other; the shape test
/// ([`conditional_move_body`]) looks past the code probes insert into the body.
fn swap_conditional_xy(program: &Program) -> Program {
    use Opcode::*;
    let mut p = program.clone();
    for i in 0..p.instructions.len() {
        let insn = &p.instructions[i];
        if insn.opcode != UIF || insn.src.len() != 1 {
            continue;
        }
        let k = insn.src[0].swizzle[0];
        if k > 1 || insn.src[0].swizzle != [k; 4] {
            continue;
        }
        if conditional_move_body(&p, i, k) {
            p.instructions[i].src[0].swizzle = [k ^ 1; 4];
        }
    }
    p
}

/// Whether the then-body of the UIF at `i` moves a whole temporary into component `k`
/// alone (`MOV dst.k, t`, directly in the body) and moves nothing into other components,
/// the shape of a conditional write mask. Instructions nested in inner blocks (the
/// recording code of probed copies) do not count.
fn conditional_move_body(p: &Program, i: usize, k: u8) -> bool {
    use Opcode::*;
    let mut depth = 0usize;
    let mut found = false;
    for insn in &p.instructions[i + 1..] {
        match insn.opcode {
            IF | UIF | BGNLOOP | SWITCH | BGNSUB => depth += 1,
            ENDIF | ENDLOOP | ENDSWITCH | ENDSUB if depth > 0 => depth -= 1,
            ELSE | ENDIF if depth == 0 => return found,
            ENDLOOP | ENDSWITCH | ENDSUB | END => return false,
            MOV if depth == 0 => {
                if insn.dst.iter().any(|d| d.writemask != 1 << k) {
                    return false;
                }
                found |= insn.src.first().is_some_and(|s| {
                    s.reg.file == shaderdiff_model::File::Temp && s.swizzle == IDENTITY_SWIZZLE
                });
            }
            _ => {}
        }
    }
    false
}

/// `nv-cc-int-as-float` on the shape the NV lowering gives the flags of an integer result
/// (frontends/nv/src/lower_cc.rs, "SF = most significant bit; ZF = r == 0"): `ISLT ns, r,
/// 0` directly followed by `USEQ nz, r, 0` on the same operands. Both become the float
/// comparisons (FSLT, FSEQ), as a condition-code update that ignores the result's type.
/// Working on the IR shape keeps the fault in probed and reduced copies of the program.
fn int_flags_as_float(program: &Program) -> Program {
    use Opcode::*;
    let mut p = program.clone();
    for i in 1..p.instructions.len() {
        let (a, b) = (&p.instructions[i - 1], &p.instructions[i]);
        if a.opcode == ISLT && b.opcode == USEQ && a.src.len() == 2 && a.src == b.src {
            p.instructions[i - 1].opcode = FSLT;
            p.instructions[i].opcode = FSEQ;
        }
    }
    p
}

/// The program the jit compiles when `fault` is a rewrite fault; `None` otherwise (no fault,
/// or a fault the lowering implements). The rewritten program has the same instructions,
/// declarations and source map, so positions and register shapes do not change, except
/// under `nv-cc-unsaturated`, which inserts the unclamped copies it takes flags from.
pub(crate) fn rewrite(program: &Program, fault: Option<Fault>) -> Option<Program> {
    use Opcode::*;
    let fault = fault?;
    let renamed = |op: Opcode| -> Option<Opcode> {
        match (fault, op) {
            (Fault::Dp3ReadsW, DP3) => Some(DP4),
            (Fault::IbfeNoSignExtend, IBFE) => Some(UBFE),
            (Fault::UmulHiSigned, UMUL_HI) => Some(IMUL_HI),
            (Fault::UsgeSigned, USGE) => Some(ISGE),
            (Fault::UsgeSigned, USLT) => Some(ISLT),
            (Fault::I2fUnsigned, I2F) => Some(U2F),
            (Fault::FlrAsTrunc, FLR) => Some(TRUNC),
            (Fault::UshrArithmetic, USHR) => Some(ISHR),
            (Fault::ImaxUnsigned, IMAX) => Some(UMAX),
            (Fault::ImaxUnsigned, IMIN) => Some(UMIN),
            (Fault::U2fSigned, U2F) => Some(I2F),
            (Fault::ImulHiUnsigned, IMUL_HI) => Some(UMUL_HI),
            (Fault::DphAsDp4, DPH) => Some(DP4),
            (Fault::I64ShrLogical, I64SHR) => Some(U64SHR),
            (Fault::U2i64SignExtends, U2I64) => Some(I2I64),
            _ => None,
        }
    };
    let applies = match fault {
        Fault::Dp3ReadsW
        | Fault::IbfeNoSignExtend
        | Fault::UmulHiSigned
        | Fault::UsgeSigned
        | Fault::I2fUnsigned
        | Fault::SwizzleSwap
        | Fault::WritemaskIgnoredW
        | Fault::CmpSwapped
        | Fault::UcmpSwapped
        | Fault::EmitStreamZero
        | Fault::FlrAsTrunc
        | Fault::LrpSwapped
        | Fault::SubSwapped
        | Fault::UshrArithmetic
        | Fault::ImaxUnsigned
        | Fault::U2fSigned
        | Fault::ImulHiUnsigned
        | Fault::NegAbsDropsNeg
        | Fault::DphAsDp4
        | Fault::I64ShrLogical
        | Fault::U2i64SignExtends
        | Fault::NvSsatAsSat => true,
        Fault::NvCcUnsaturated => return cc_sat::cc_from_unsaturated(program),
        Fault::NvCondMaskSwapXy => return Some(swap_conditional_xy(program)),
        Fault::NvCcIntAsFloat => return Some(int_flags_as_float(program)),
        Fault::SatNanPassthrough
        | Fault::ShiftCountUnmasked
        | Fault::F2iRounds
        | Fault::RoundHalfAway
        | Fault::MinNanPropagates
        | Fault::InegFlipsSignBit
        | Fault::IfNanFalse
        | Fault::KillIfSignBit
        | Fault::AtomicImaxUnsigned
        | Fault::AtomxchgReturnsNew => false,
    };
    if !applies {
        return None;
    }
    let mut p = program.clone();
    for insn in &mut p.instructions {
        if let Some(op) = renamed(insn.opcode) {
            insn.opcode = op;
        }
        match fault {
            Fault::SwizzleSwap if float_arith(insn.opcode) => {
                for s in &mut insn.src {
                    if s.swizzle != IDENTITY_SWIZZLE {
                        s.swizzle = swap_yz(s.swizzle);
                    }
                }
            }
            // A 4-channel store done as a 3-channel one: .w is dropped (not added: a
            // channel written outside the writemask would be invisible to the probe of
            // the faulty instruction, so findings would be attributed to later readers).
            Fault::WritemaskIgnoredW if float_arith(insn.opcode) => {
                for d in &mut insn.dst {
                    if d.writemask & 0b1000 != 0 && d.writemask & 0b0111 != 0 {
                        d.writemask &= 0b0111;
                    }
                }
            }
            Fault::CmpSwapped if insn.opcode == CMP && insn.src.len() >= 3 => {
                insn.src.swap(1, 2);
            }
            Fault::UcmpSwapped if insn.opcode == UCMP && insn.src.len() >= 3 => {
                insn.src.swap(1, 2);
            }
            Fault::LrpSwapped if insn.opcode == LRP && insn.src.len() >= 3 => {
                insn.src.swap(1, 2);
            }
            Fault::SubSwapped if insn.opcode == SUB && insn.src.len() >= 2 => {
                insn.src.swap(0, 1);
            }
            // An instruction combiner that folds fneg(fabs(x)) into fabs(x).
            Fault::NegAbsDropsNeg if float_sources(insn.opcode) => {
                for s in &mut insn.src {
                    if s.abs && s.neg {
                        s.neg = false;
                    }
                }
            }
            // A backend with one vertex stream: the operand is dropped (stream 0).
            Fault::EmitStreamZero if matches!(insn.opcode, EMIT | ENDPRIM) => {
                insn.src.clear();
            }
            // The signed clamp selected as the unsigned one.
            Fault::NvSsatAsSat if insn.saturate == shaderdiff_model::Saturate::Signed => {
                insn.saturate = shaderdiff_model::Saturate::Zero;
            }
            _ => {}
        }
    }
    Some(p)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_round_trip() {
        assert!(CATALOGUE.len() >= 12);
        for (f, d) in FAULTS {
            assert_eq!(Fault::from_name(d.name), Some(*f), "{}", d.name);
            assert_eq!(f.name(), d.name);
            assert!(
                d.name
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-'),
                "{}",
                d.name
            );
            assert!(!d.description.is_empty() && !d.description.contains('\n'));
        }
        let mut names: Vec<&str> = CATALOGUE.iter().map(|d| d.name).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), CATALOGUE.len());
        assert_eq!(Fault::from_name("no-such-fault"), None);
        assert_eq!(Fault::from_config(None), None);
    }

    #[test]
    fn swap_exchanges_y_and_z_only() {
        assert_eq!(swap_yz([0, 1, 2, 3]), [0, 2, 1, 3]);
        assert_eq!(swap_yz([1, 1, 3, 0]), [2, 2, 3, 0]);
    }
}
