//! Finding signatures: the engine that diverged, the
//! opcode class of the first diverging instruction, and the value type of its result, as a
//! [`shaderdiff_results::Signature`] (`jit-int_div-i32`).
//!
//! The first diverging instruction is found engine-agnostically by **probing**
//! ([`crate::probe`]): the instrumented program runs on the oracle (with the engine class's
//! acceptance intervals) and on the engine; among the probes that mismatch, the one whose
//! instruction comes first in static execution order ([`crate::edit::static_rank`]: the
//! main program with each subroutine where it is first called) wins. Block probes count
//! entries into IF/ELSE/loop/CASE/subroutine bodies, so a wrong branch or trip count is
//! attributed to the control-flow instruction, not to the first instruction of the body.
//!
//! When probing finds nothing (the program cannot be instrumented, or the divergence does
//! not show in the instrumented program), the fallbacks are: a killed-ness difference → the
//! first KILL/KILL_IF/DEMOTE in static order (class `kill`, type `bool`); otherwise the last
//! instruction writing the first mismatching output channel. Engine failures have class
//! `fail_<kind>` and type `none`.

use crate::output::Mismatch;
use shaderdiff_model::{Opcode, Pos, Program, Saturate, ScalarType};
use shaderdiff_oracles::Inputs;
use shaderdiff_results::Signature;

use crate::diff::{Differ, Outcome};
use crate::edit::static_rank;
use crate::probe::{instrument, ProbeKind, ProbeMode};
use crate::roots;

/// The opcode class used in signatures: a stable grouping of opcodes that a single engine
/// bug is likely to affect together (based on tgsi.rst's sections, refined).
///
/// `move`, `float_arith`, `float_minmax`, `float_round`, `float_compare`, `select`,
/// `transcendental`, `int_arith`, `int_minmax`, `int_mul_hi`, `int_div`, `int_compare`,
/// `bitwise`, `shift`, `bitfield`, `convert`, `pack`, `address`, `branch`, `loop`, `switch`,
/// `call`, `kill`, `derivative`, `geometry`, `double`, `int64`, `texture`, `memory`, `other`.
pub fn opcode_class(op: Opcode) -> &'static str {
    use Opcode::*;
    let info = op.info();
    match op {
        MOV | NOP => "move",
        ADD | SUB | MUL | MAD | FMA | DP2 | DP3 | DP4 | DPH | DST | LRP | XPD | DIV | ABS
        | LDEXP => "float_arith",
        MIN | MAX => "float_minmax",
        FLR | CEIL | TRUNC | ROUND | FRC => "float_round",
        SLT | SGE | SEQ | SNE | SGT | SLE | FSEQ | FSNE | FSLT | FSGE | SSG => "float_compare",
        CMP | UCMP => "select",
        RCP | RSQ | SQRT | EX2 | LG2 | POW | SIN | COS | EXP | LOG | LIT => "transcendental",
        UADD | UMUL | UMAD | INEG | IABS | ISSG => "int_arith",
        IMAX | IMIN | UMAX | UMIN => "int_minmax",
        IMUL_HI | UMUL_HI => "int_mul_hi",
        IDIV | UDIV | MOD | UMOD => "int_div",
        ISGE | ISLT | USEQ | USNE | USGE | USLT => "int_compare",
        AND | OR | XOR | NOT => "bitwise",
        SHL | USHR | ISHR => "shift",
        UBFE | IBFE | BFI | BREV | POPC | LSB | UMSB | IMSB => "bitfield",
        F2I | F2U | I2F | U2F => "convert",
        PK2H | PK2US | PK4B | PK4UB | UP2H | UP2US | UP4B | UP4UB => "pack",
        ARL | ARR | UARL => "address",
        IF | UIF | ELSE | ENDIF => "branch",
        BGNLOOP | ENDLOOP | BRK | CONT => "loop",
        SWITCH | CASE | DEFAULT | ENDSWITCH => "switch",
        CAL | RET | BGNSUB | ENDSUB | END => "call",
        KILL | KILL_IF | KIL | KILP | DEMOTE => "kill",
        DDX | DDY | DDX_FINE | DDY_FINE => "derivative",
        EMIT | ENDPRIM => "geometry",
        _ if info.doc_section == "Double ISA" => "double",
        _ if info.doc_section == "64-bit Integer ISA" => "int64",
        _ if info.is_tex || info.doc_section.starts_with("Resource Sampling") => "texture",
        _ if info.is_store
            || info.doc_section.starts_with("Atomic")
            || info.doc_section.starts_with("Resource Access") =>
        {
            "memory"
        }
        _ => "other",
    }
}

/// How the diverging instruction was found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Located {
    /// A result probe mismatched.
    Probe,
    /// A block probe (body entry count) mismatched.
    Block,
    /// Fallback: an invocation killed on one side only.
    Killed,
    /// Fallback: the emitted vertices (count, stream or primitive) differ.
    Emitted,
    /// Fallback: the last writer of the first mismatching output channel.
    LastWriter,
    /// The engine failed (compile error, trap, step limit ...).
    Failure,
    /// Nothing could be located.
    Unknown,
}

impl Located {
    /// `probe`, `block`, `killed`, `emitted`, `last_writer`, `failure`, `unknown`.
    pub fn name(self) -> &'static str {
        match self {
            Located::Probe => "probe",
            Located::Block => "block",
            Located::Killed => "killed",
            Located::Emitted => "emitted",
            Located::LastWriter => "last_writer",
            Located::Failure => "failure",
            Located::Unknown => "unknown",
        }
    }
}

/// The first divergence of one engine on one program and input set.
#[derive(Clone, Debug, PartialEq)]
pub struct Divergence {
    /// The signature.
    pub signature: Signature,
    /// Index of the first diverging instruction in the program, when located.
    pub instruction: Option<usize>,
    /// Its opcode.
    pub opcode: Option<Opcode>,
    /// Its source position, when the program came from text.
    pub pos: Option<Pos>,
    /// How it was found.
    pub located: Located,
}

/// The value type part of a signature for a result of `op` whose mismatching channel the
/// comparator typed `channel_ty`: the opcode's destination type when it has one (`f32`,
/// `i32`, `u32`, `f64`, `i64`, `u64`), else the channel's (`bits`, `mixed` ...).
pub fn value_type(op: Opcode, channel_ty: &str) -> String {
    value_type_sat(op, Saturate::None, channel_ty)
}

/// [`value_type`] of an instruction with saturate mode `sat`: a saturated result is always
/// a float (tgsi.rst "Other Modifiers": `_SAT` clamps to [0.0, 1.0] as a float, for every
/// opcode), whatever the register's other writes make its inferred type.
pub fn value_type_sat(op: Opcode, sat: Saturate, channel_ty: &str) -> String {
    if sat != Saturate::None {
        return "f32".into();
    }
    match op.info().dst_type {
        Some(ScalarType::F32) => "f32".into(),
        Some(ScalarType::I32) => "i32".into(),
        Some(ScalarType::U32) => "u32".into(),
        Some(ScalarType::F64) => "f64".into(),
        Some(ScalarType::I64) => "i64".into(),
        Some(ScalarType::U64) => "u64".into(),
        _ => channel_ty.to_string(),
    }
}

/// Locates the first divergence of engine `e` of `differ` on `program` and `inputs`, whose
/// outcome (from [`Differ::diff`]) is `outcome` (a mismatch or a failure). Runs the
/// instrumented program once on the oracle and once on the engine.
pub fn locate(
    differ: &Differ,
    e: usize,
    program: &Program,
    inputs: &Inputs,
    outcome: &Outcome,
) -> Divergence {
    let engine = differ.engines()[e].name();
    let mismatches = match outcome {
        Outcome::Failed { kind, .. } => {
            return Divergence {
                signature: Signature::new(engine, &format!("fail_{}", kind.name()), "none"),
                instruction: None,
                opcode: None,
                pos: None,
                located: Located::Failure,
            }
        }
        Outcome::Mismatch(m) => m.as_slice(),
        _ => &[],
    };
    let rank = static_rank(program);
    let found = |i: usize, ty: String, located: Located| Divergence {
        signature: Signature::new(engine, opcode_class(program.instructions[i].opcode), &ty),
        instruction: Some(i),
        opcode: Some(program.instructions[i].opcode),
        pos: program.source_map.instruction(i),
        located,
    };
    if let Some((i, ty, located)) = probe_first(differ, e, program, inputs, &rank) {
        return found(i, ty, located);
    }
    let first = mismatches.first();
    if first.is_some_and(|m| m.register == "killed") {
        let kill = (0..program.instructions.len())
            .filter(|&i| opcode_class(program.instructions[i].opcode) == "kill")
            .min_by_key(|&i| rank[i]);
        if let Some(i) = kill {
            return found(i, "bool".into(), Located::Killed);
        }
    }
    // The vertex list of a geometry program: the first EMIT/ENDPRIM (in static order).
    if first.is_some_and(|m| m.register.starts_with("emitted")) {
        let emit = (0..program.instructions.len())
            .filter(|&i| opcode_class(program.instructions[i].opcode) == "geometry")
            .min_by_key(|&i| rank[i]);
        if let Some(i) = emit {
            return found(i, "u32".into(), Located::Emitted);
        }
    }
    if let Some(m) = mismatches
        .iter()
        .find(|m| m.register != "killed" && !m.register.starts_with("emitted"))
    {
        if let Some(i) = last_writer(program, m) {
            let insn = &program.instructions[i];
            let ty = value_type_sat(insn.opcode, insn.saturate, &m.ty);
            return found(i, ty, Located::LastWriter);
        }
    }
    let ty = first.map_or("none", |m| m.ty.as_str());
    Divergence {
        signature: Signature::new(engine, "unknown", ty),
        instruction: None,
        opcode: None,
        pos: None,
        located: Located::Unknown,
    }
}

/// The first divergence by probing (instruction, value type, how): the first divergence in
/// time ([`crate::probe_time::first_in_time`]); when that search cannot conclude, the
/// instrumented program in both [`ProbeMode`]s, judged like the original, and
/// [`roots::pick`] on the diverging probes.
fn probe_first(
    differ: &Differ,
    e: usize,
    program: &Program,
    inputs: &Inputs,
    rank: &[usize],
) -> Option<(usize, String, Located)> {
    use crate::probe_time::{first_in_time, Search};
    let (p, ty) = match first_in_time(differ, e, program, inputs, rank) {
        Search::Found(hit) => hit,
        Search::Nothing => return None,
        Search::Inconclusive => {
            let first = diverging(differ, e, program, inputs, ProbeMode::First);
            let last = diverging(differ, e, program, inputs, ProbeMode::Last);
            roots::pick(program, rank, &first, &last)?
        }
    };
    Some(match p.kind {
        ProbeKind::Result => {
            let insn = &program.instructions[p.instruction];
            (
                p.instruction,
                value_type_sat(insn.opcode, insn.saturate, &ty),
                Located::Probe,
            )
        }
        ProbeKind::Block | ProbeKind::Decision => {
            (p.instruction, "none".to_string(), Located::Block)
        }
    })
}

/// The diverging probes of `program` instrumented in `mode` (empty when it cannot be
/// instrumented or run), one per probe with its first mismatch's channel type.
fn diverging(
    differ: &Differ,
    e: usize,
    program: &Program,
    inputs: &Inputs,
    mode: ProbeMode,
) -> Vec<roots::Hit> {
    let Some(probed) = instrument(program, mode) else {
        return Vec::new();
    };
    let Ok(oracle) = differ.oracle_for(e, &probed.program, inputs) else {
        return Vec::new();
    };
    let engine = &differ.engines()[e];
    let Ok(actual) = engine.execute(&probed.program, inputs) else {
        return Vec::new();
    };
    let Outcome::Mismatch(ms) = differ.judge_run(e, &probed.program, inputs, &oracle, &actual)
    else {
        return Vec::new();
    };
    let mut hits: Vec<roots::Hit> = Vec::new();
    for m in &ms {
        let Some(probe) = out_index(&m.register).and_then(|k| probed.probe_at(k)) else {
            continue;
        };
        if !hits.iter().any(|h| h.0.register == probe.register) {
            hits.push((*probe, m.ty.clone()));
        }
    }
    hits
}

/// `k` of `OUT[k]`.
pub fn out_index(register: &str) -> Option<u32> {
    register
        .strip_prefix("OUT[")?
        .strip_suffix(']')?
        .parse()
        .ok()
}

/// The last instruction (program order) writing the channel of mismatch `m`.
fn last_writer(program: &Program, m: &Mismatch) -> Option<usize> {
    let k = out_index(&m.register)? as i32;
    let c = "xyzw".find(m.channel.as_str())?;
    program.instructions.iter().rposition(|insn| {
        insn.dst.iter().any(|d| {
            d.reg.file == shaderdiff_model::File::Output
                && (d.reg.index.indirect.is_some() || d.reg.index.value == k)
                && d.writemask & (1 << c) != 0
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use shaderdiff_model::ALL_OPCODES;

    #[test]
    fn every_opcode_has_a_path_safe_class() {
        for &op in ALL_OPCODES {
            let c = opcode_class(op);
            assert!(
                !c.is_empty()
                    && c.bytes()
                        .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_')
            );
        }
        assert_eq!(opcode_class(Opcode::IDIV), "int_div");
        assert_eq!(opcode_class(Opcode::DADD), "double");
        assert_eq!(opcode_class(Opcode::U64ADD), "int64");
        assert_eq!(opcode_class(Opcode::SAMPLE), "texture");
        assert_eq!(opcode_class(Opcode::ATOMUADD), "memory");
        assert_eq!(value_type(Opcode::IDIV, "bits"), "i32");
        assert_eq!(value_type(Opcode::UDIV, "bits"), "u32");
        assert_eq!(value_type(Opcode::MOV, "bits"), "bits");
        // tgsi.rst "Other Modifiers": a saturated result is a float.
        assert_eq!(value_type_sat(Opcode::MOV, Saturate::Zero, "mixed"), "f32");
        assert_eq!(value_type_sat(Opcode::UADD, Saturate::Zero, "u32"), "f32");
        assert_eq!(out_index("OUT[12]"), Some(12));
        assert_eq!(out_index("killed"), None);
    }
}
