//! Program rewriting: a vertex or fragment program becomes one TGSI compute shader that
//! virglrenderer runs with one invocation per shader invocation.
//!
//! # The rewritten program
//!
//! Every invocation `i = BLOCK_ID.x * BLOCK + THREAD_ID.x` (see [`BLOCK`]):
//!
//! 1. **Prologue.** Loads its per-invocation input registers (`IN[0..]`, then `SV[0..]`,
//!    one vec4 each, [`Wrapped::inputs`]) from shader buffer `BUFFER[0]` at byte
//!    `i * in_stride` into temporaries that stand for them, and sets every temporary of
//!    the program and every output temporary to zero (the oracle's registers start at
//!    zero; GLSL globals have no defined start value).
//! 2. **Body.** The program's own instructions, with `IN[n]`, `SV[n]` and `OUT[n]`
//!    renamed to those temporaries (`TEMP[base + n]`; an array with its own `ARRAY(id)`
//!    when the program addresses the file indirectly, so relative addressing keeps its
//!    meaning). `CONST[n]` stays a constant, set with `SET_CONSTANT_BUFFER`; `IMM[n]`
//!    stays (FLT32 values sent as `0x` bit patterns, which virglrenderer's TGSI parser
//!    reads bit-exactly, as Mesa's virgl driver sends them).
//! 3. **Epilogue**, wherever the program ends (every `END`, which may stand inside `IF`,
//!    and every `RET`: without subroutines a `RET` ends the program; each becomes the
//!    epilogue and a `RET`, and the shader closes with one more epilogue and `END` for a
//!    program that runs off its last instruction): stores the output temporaries to
//!    `BUFFER[1]` at byte `i * out_stride`, then word 1 in the invocation's *flags*
//!    vec4 (after its outputs): `x` = finished.
//! 4. **Kills** (fragment programs): `KILL`/`KILP` store `flags.y = 1` and return;
//!    `KILL_IF`/`KIL` do so when a component of the source is less than zero (`FSLT`
//!    against 0, then OR of the four results); `DEMOTE` stores `flags.y` and goes on.
//! 5. **Loop guard.** Every `BGNLOOP` body starts by counting iterations (all loops of
//!    the invocation together); past the step limit it stores `flags.z = 1` and returns.
//!    A program the oracle finishes within the step limit iterates at most that many
//!    times, so the guard only stops an engine that loops where the oracle does not (and
//!    a hung server would hang shaderdiff).
//!
//! # Refused (unsupported, with the reason)
//!
//! Stages other than vertex and fragment; textures, samplers, images, buffers and
//! memory; 64-bit values (virglrenderer 0.10.4 translates no int64 opcode, and with the
//! refusal lifted 240 of the spec suite's double programs failed, most because the GLSL it
//! writes for double opcodes on temporaries does not compile); subroutines (its
//! translator drops CAL/BGNSUB/ENDSUB: "failed to convert opcode"); derivatives and
//! interpolation (undefined in a compute shader); 2-D registers; legacy TEMPX/IMMX
//! files; NV-only condition codes and signed saturation.

use std::collections::BTreeSet;

use shaderdiff_engine::EngineError;
use shaderdiff_model::check::alu;
use shaderdiff_model::check::shape::Shape;
use shaderdiff_model::RegKey;
use shaderdiff_model::{
    Declaration, Dst, File, ImmType, Immediate, Instruction, Opcode, Program, Register, Saturate,
    SemanticName, Src, Stage,
};

/// Threads per work group (`CS_FIXED_BLOCK_WIDTH`).
pub const BLOCK: u32 = 64;

/// The compute shader standing for a program, and how its buffers are laid out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Wrapped {
    /// The TGSI text sent to the host.
    pub text: String,
    /// Per-invocation input registers in buffer order (`IN[0..n]`, then `SV[0..m]`).
    pub inputs: Vec<RegKey>,
    /// Output registers reported (the oracle's list).
    pub outputs: Vec<RegKey>,
    /// Output slots stored per invocation (`OUT[0..out_slots]`), before the flags vec4.
    pub out_slots: u32,
    /// `CONST[0..consts]` registers the shader declares.
    pub consts: u32,
    /// A fragment program (kills are reported).
    pub fragment: bool,
}

impl Wrapped {
    /// Bytes of input per invocation (at least 16, so no buffer is empty).
    pub fn in_stride(&self) -> u32 {
        16 * (self.inputs.len() as u32).max(1)
    }
    /// Bytes of output per invocation: the output slots and the flags vec4.
    pub fn out_stride(&self) -> u32 {
        16 * (self.out_slots + 1)
    }
}

/// `flags.x`: the invocation reached the end of the program.
pub const FLAG_DONE: usize = 0;
/// `flags.y`: the invocation was killed (or demoted).
pub const FLAG_KILLED: usize = 1;
/// `flags.z`: the loop guard stopped the invocation.
pub const FLAG_STEP_LIMIT: usize = 2;

fn unsupported(reason: impl Into<String>) -> EngineError {
    EngineError::Unsupported {
        engine: crate::NAME.into(),
        opcode: None,
        pos: None,
        reason: reason.into(),
    }
}

fn unsupported_at(program: &Program, i: usize, reason: impl Into<String>) -> EngineError {
    EngineError::Unsupported {
        engine: crate::NAME.into(),
        opcode: Some(program.instructions[i].opcode),
        pos: program.source_map.instruction(i),
        reason: reason.into(),
    }
}

/// Control flow and kills the wrapper handles (everything else must be ALU).
const CONTROL: &[Opcode] = &[
    Opcode::IF,
    Opcode::UIF,
    Opcode::ELSE,
    Opcode::ENDIF,
    Opcode::BGNLOOP,
    Opcode::ENDLOOP,
    Opcode::BRK,
    Opcode::CONT,
    Opcode::SWITCH,
    Opcode::CASE,
    Opcode::DEFAULT,
    Opcode::ENDSWITCH,
    Opcode::RET,
    Opcode::END,
    Opcode::NOP,
    Opcode::KILL,
    Opcode::KILL_IF,
    Opcode::KIL,
    Opcode::KILP,
    Opcode::DEMOTE,
];

fn is_64bit(op: Opcode) -> bool {
    let info = op.info();
    info.dst_type.is_some_and(|t| t.is_64bit())
        || info.src_types.iter().flatten().any(|t| t.is_64bit())
}

/// Why the engine cannot run `op`, if it cannot.
fn opcode_refusal(op: Opcode) -> Option<String> {
    use Opcode::*;
    if is_64bit(op) {
        return Some(format!(
            "{op}: 64-bit values (virglrenderer 0.10.4 translates no int64 opcode, and its GLSL for double opcodes on temporaries does not compile: `uintBitsToFloat(uvec3)`)"
        ));
    }
    if matches!(op, CAL | BGNSUB | ENDSUB) {
        return Some(format!(
            "{op}: subroutines (virglrenderer's TGSI-to-GLSL translator drops CAL/BGNSUB/ENDSUB)"
        ));
    }
    if matches!(op, DDX | DDY | DDX_FINE | DDY_FINE) {
        return Some(format!(
            "{op}: derivatives (the engine runs programs as compute shaders, which have none)"
        ));
    }
    if CONTROL.contains(&op) || alu::is_alu(op) {
        return None;
    }
    let info = op.info();
    let what = if info.is_tex {
        "textures"
    } else if info.has_mem_qualifiers || info.is_store {
        "memory"
    } else {
        "not an ALU, control-flow or kill instruction"
    };
    Some(format!("{op}: {what}"))
}

fn file_refusal(file: File) -> Option<&'static str> {
    match file {
        File::Temp
        | File::Input
        | File::Output
        | File::Const
        | File::Immediate
        | File::Address
        | File::SystemValue
        | File::Null => None,
        File::Sampler | File::SamplerView | File::Resource => Some("textures"),
        File::Image | File::Buffer | File::Memory | File::HwAtomic | File::ConstBuf => {
            Some("memory")
        }
        File::TempArray => Some("legacy TEMPX registers"),
        File::ImmArray => Some("legacy IMMX registers"),
    }
}

/// What the engine refuses in `program` (module docs), before anything else.
///
/// Errors: [`EngineError::Unsupported`] naming the stage, file or opcode.
pub fn check(program: &Program) -> Result<(), EngineError> {
    if !matches!(program.stage, Stage::Vertex | Stage::Fragment) {
        return Err(unsupported(format!(
            "{} programs (the engine runs vertex and fragment programs)",
            program.stage
        )));
    }
    for d in &program.declarations {
        if let Some(why) = file_refusal(d.file) {
            return Err(unsupported(format!("DCL {}: {why}", d.file)));
        }
        if d.dimension.is_some() {
            return Err(unsupported(format!("2-D {} declarations", d.file)));
        }
    }
    if let Some(imm) = program.immediates.iter().find(|m| m.ty.is_64bit()) {
        return Err(unsupported(format!(
            "{} immediates: 64-bit values",
            imm.ty.name()
        )));
    }
    for (i, insn) in program.instructions.iter().enumerate() {
        if let Some(why) = opcode_refusal(insn.opcode) {
            return Err(unsupported_at(program, i, why));
        }
        if insn.cond.is_some() || insn.cc_update.is_some() {
            return Err(unsupported_at(program, i, "NV condition codes"));
        }
        if insn.saturate == Saturate::Signed {
            return Err(unsupported_at(program, i, "signed saturation (.SSAT)"));
        }
        let regs = insn
            .dst
            .iter()
            .map(|d| d.reg)
            .chain(insn.src.iter().map(|s| s.reg));
        for r in regs {
            if let Some(why) = file_refusal(r.file) {
                return Err(unsupported_at(program, i, format!("{}: {why}", r.file)));
            }
            if r.dimension.is_some() {
                return Err(unsupported_at(
                    program,
                    i,
                    format!("2-D {} registers", r.file),
                ));
            }
            if let Some(ind) = r.index.indirect {
                if !matches!(ind.file, File::Address | File::Temp) {
                    return Err(unsupported_at(
                        program,
                        i,
                        format!("addresses held in {} registers", ind.file),
                    ));
                }
                if r.file == File::SystemValue {
                    return Err(unsupported_at(program, i, "indirect SV registers"));
                }
            }
        }
    }
    Ok(())
}

/// Where the program's files live in the compute shader.
struct Plan {
    in_base: i32,
    sv_base: i32,
    out_base: i32,
    /// Scratch: `.x` invocation, `.y` input cursor then flags address, `.z` output
    /// cursor, `.w` loop iterations.
    s: i32,
    /// Scratch for conditions.
    k: i32,
    in_array: u32,
    out_array: u32,
    /// `IMM[c]` = {BLOCK, in_stride, out_stride, 16}.
    c: i32,
    /// `IMM[d]` = {0, 1, step limit, flags offset}.
    d: i32,
    n_in: u32,
    n_sv: u32,
    out_slots: u32,
}

fn temp(index: i32) -> Register {
    Register::new(File::Temp, index)
}

fn dst(reg: Register, writemask: u8) -> Dst {
    Dst { reg, writemask }
}

fn src(reg: Register, c: u8) -> Src {
    Src {
        swizzle: [c; 4],
        ..Src::new(reg)
    }
}

fn imm(which: i32, c: u8) -> Src {
    src(Register::new(File::Immediate, which), c)
}

fn op(opcode: Opcode, d: Vec<Dst>, s: Vec<Src>) -> Instruction {
    Instruction::new(opcode, d, s)
}

fn space_len(shape: &Shape, file: File) -> u32 {
    shape
        .space_of(file, false)
        .map_or(0, |s| shape.spaces()[s].len)
}

/// Rewrites `program` into the compute shader of the module docs; `step_limit` bounds
/// loop iterations. `shape` is the oracle's view of the program. `show_glsl` adds a `DDX`
/// before the final `END` so that vrend fails to compile the shader and logs its GLSL
/// (`SHADERDIFF_VIRGL_SHOW_GLSL=1`, a triage aid; the run then fails).
///
/// Errors: whatever [`check`] refuses.
pub fn wrap(
    program: &Program,
    shape: &Shape,
    step_limit: u64,
    show_glsl: bool,
) -> Result<Wrapped, EngineError> {
    check(program)?;
    let fragment = program.stage == Stage::Fragment;
    // Highest TEMP index and ARRAY id anywhere in the program.
    let mut max_temp: i32 = -1;
    let mut max_array = 0u32;
    let mut indirect: BTreeSet<File> = BTreeSet::new();
    for d in &program.declarations {
        if d.file == File::Temp {
            max_temp = max_temp.max(d.last as i32);
        }
        max_array = max_array.max(d.array_id);
    }
    for insn in &program.instructions {
        for r in insn
            .dst
            .iter()
            .map(|d| d.reg)
            .chain(insn.src.iter().map(|s| s.reg))
        {
            if r.file == File::Temp {
                max_temp = max_temp.max(r.index.value);
            }
            if let Some(ind) = r.index.indirect {
                indirect.insert(r.file);
                if ind.file == File::Temp {
                    max_temp = max_temp.max(ind.index);
                }
            }
        }
    }
    let n_in = space_len(shape, File::Input);
    let n_sv = space_len(shape, File::SystemValue);
    let out_slots = space_len(shape, File::Output);
    let consts = shape
        .space_of(File::Const, true)
        .map_or(0, |s| shape.spaces()[s].len);
    let in_base = max_temp + 1;
    let sv_base = in_base + n_in as i32;
    let out_base = sv_base + n_sv as i32;
    let s = out_base + out_slots as i32;
    let n_imm = program.immediates.len() as i32;
    let plan = Plan {
        in_base,
        sv_base,
        out_base,
        s,
        k: s + 1,
        in_array: max_array + 1,
        out_array: max_array + 2,
        c: n_imm,
        d: n_imm + 1,
        n_in,
        n_sv,
        out_slots,
    };
    let inputs: Vec<RegKey> = (0..n_in)
        .map(|i| RegKey::new(File::Input, i))
        .chain((0..n_sv).map(|i| RegKey::new(File::SystemValue, i)))
        .collect();
    let mut w = Wrapped {
        text: String::new(),
        inputs,
        outputs: shape.outputs().to_vec(),
        out_slots,
        consts,
        fragment,
    };
    let mut out = Program::new(Stage::Compute);
    out.properties = vec![
        prop(shaderdiff_model::PropertyName::CsFixedBlockWidth, BLOCK),
        prop(shaderdiff_model::PropertyName::CsFixedBlockHeight, 1),
        prop(shaderdiff_model::PropertyName::CsFixedBlockDepth, 1),
    ];
    out.declarations = declarations(program, &plan, consts, &indirect);
    out.immediates = program.immediates.clone();
    out.immediates.push(Immediate {
        ty: ImmType::U32,
        words: [BLOCK, w.in_stride(), w.out_stride(), 16],
    });
    out.immediates.push(Immediate {
        ty: ImmType::U32,
        words: [
            0,
            1,
            step_limit.min(u32::MAX as u64 - 1) as u32,
            16 * out_slots,
        ],
    });
    out.instructions = prologue(program, &plan);
    for insn in &program.instructions {
        let mut insn = insn.clone();
        rename(&mut insn, &plan);
        match insn.opcode {
            // END may stand inside IF or a loop (it ends the program there): every END and
            // RET stores the outputs and returns; one END closes the shader below.
            Opcode::END | Opcode::RET => {
                out.instructions.extend(epilogue(&plan));
                out.instructions.push(op(Opcode::RET, vec![], vec![]));
            }
            Opcode::KILL | Opcode::KILP => {
                out.instructions.extend(set_flag(&plan, FLAG_KILLED));
                out.instructions.push(op(Opcode::RET, vec![], vec![]));
            }
            Opcode::KILL_IF | Opcode::KIL => {
                out.instructions.extend(kill_if(&plan, insn.src[0]));
            }
            Opcode::DEMOTE => out.instructions.extend(set_flag(&plan, FLAG_KILLED)),
            Opcode::BGNLOOP => {
                insn.label = None;
                out.instructions.push(insn);
                out.instructions.extend(loop_guard(&plan));
            }
            Opcode::ENDLOOP => {
                insn.label = None;
                out.instructions.push(insn);
            }
            _ => out.instructions.push(insn),
        }
    }
    out.instructions.extend(epilogue(&plan));
    out.instructions.push(op(Opcode::END, vec![], vec![]));
    if show_glsl {
        // vrend logs a shader's GLSL only when it fails to compile: a derivative, which a
        // compute shader cannot have, makes it fail (triage aid, README "The virgl engine").
        let k = temp(plan.k);
        let at = out.instructions.len() - 1;
        out.instructions
            .insert(at, op(Opcode::DDX, vec![dst(k, 0xF)], vec![Src::new(k)]));
    }
    w.text = print_hex_floats(&out);
    Ok(w)
}

fn prop(name: shaderdiff_model::PropertyName, value: u32) -> shaderdiff_model::Property {
    shaderdiff_model::Property { name, value }
}

fn declarations(
    program: &Program,
    p: &Plan,
    consts: u32,
    indirect: &BTreeSet<File>,
) -> Vec<Declaration> {
    let mut decls: Vec<Declaration> = program
        .declarations
        .iter()
        .filter(|d| matches!(d.file, File::Temp | File::Address))
        .cloned()
        .collect();
    let sv = |index: u32, name: SemanticName| {
        let mut d = Declaration::new(File::SystemValue, index, index);
        d.semantic = Some((name, 0));
        d
    };
    decls.push(sv(0, SemanticName::ThreadId));
    decls.push(sv(1, SemanticName::BlockId));
    decls.push(Declaration::new(File::Buffer, 0, 0));
    decls.push(Declaration::new(File::Buffer, 1, 1));
    if consts > 0 {
        decls.push(Declaration::new(File::Const, 0, consts - 1));
    }
    let mut range = |base: i32, n: u32, array: u32| {
        if n > 0 {
            let mut d = Declaration::new(File::Temp, base as u32, base as u32 + n - 1);
            d.array_id = array;
            decls.push(d);
        }
    };
    let in_array = if indirect.contains(&File::Input) {
        p.in_array
    } else {
        0
    };
    let out_array = if indirect.contains(&File::Output) {
        p.out_array
    } else {
        0
    };
    range(p.in_base, p.n_in, in_array);
    range(p.sv_base, p.n_sv, 0);
    range(p.out_base, p.out_slots, out_array);
    range(p.s, 2, 0);
    decls
}

/// The program's registers renamed to the compute shader's (module docs).
fn rename(insn: &mut Instruction, p: &Plan) {
    let fix = |r: &mut Register| {
        let (base, array) = match r.file {
            File::Input => (p.in_base, p.in_array),
            File::SystemValue => (p.sv_base, 0),
            File::Output => (p.out_base, p.out_array),
            _ => return,
        };
        r.file = File::Temp;
        r.index.value += base;
        if r.index.indirect.is_some() {
            r.index.array_id = array;
        }
    };
    for d in &mut insn.dst {
        fix(&mut d.reg);
    }
    for s in &mut insn.src {
        fix(&mut s.reg);
    }
}

fn prologue(program: &Program, p: &Plan) -> Vec<Instruction> {
    use Opcode::*;
    let s = temp(p.s);
    let sv = |i| Register::new(File::SystemValue, i);
    let mut v = vec![
        op(
            UMAD,
            vec![dst(s, 1)],
            vec![src(sv(1), 0), imm(p.c, 0), src(sv(0), 0)],
        ),
        op(UMUL, vec![dst(s, 2)], vec![src(s, 0), imm(p.c, 1)]),
        op(UMUL, vec![dst(s, 4)], vec![src(s, 0), imm(p.c, 2)]),
        op(MOV, vec![dst(s, 8)], vec![imm(p.d, 0)]),
    ];
    for j in 0..(p.n_in + p.n_sv) as i32 {
        v.push(op(
            LOAD,
            vec![dst(temp(p.in_base + j), 0xF)],
            vec![Src::new(Register::new(File::Buffer, 0)), src(s, 1)],
        ));
        v.push(op(UADD, vec![dst(s, 2)], vec![src(s, 1), imm(p.c, 3)]));
    }
    // Every register of the program starts at zero (the oracle's registers do).
    let mut zero: BTreeSet<i32> = (p.out_base..p.out_base + p.out_slots as i32).collect();
    for d in program.declarations.iter().filter(|d| d.file == File::Temp) {
        zero.extend(d.first as i32..=d.last as i32);
    }
    for t in zero {
        v.push(op(MOV, vec![dst(temp(t), 0xF)], vec![imm(p.d, 0)]));
    }
    // flags address = output base + 16 * out_slots.
    v.push(op(UADD, vec![dst(s, 2)], vec![src(s, 2), imm(p.d, 3)]));
    v
}

fn set_flag(p: &Plan, flag: usize) -> Vec<Instruction> {
    vec![op(
        Opcode::STORE,
        vec![dst(Register::new(File::Buffer, 1), 1 << flag)],
        vec![src(temp(p.s), 1), imm(p.d, 1)],
    )]
}

fn epilogue(p: &Plan) -> Vec<Instruction> {
    let s = temp(p.s);
    let mut v = Vec::new();
    for o in 0..p.out_slots as i32 {
        v.push(op(
            Opcode::STORE,
            vec![dst(Register::new(File::Buffer, 1), 0xF)],
            vec![src(s, 2), Src::new(temp(p.out_base + o))],
        ));
        v.push(op(
            Opcode::UADD,
            vec![dst(s, 4)],
            vec![src(s, 2), imm(p.c, 3)],
        ));
    }
    v.extend(set_flag(p, FLAG_DONE));
    v
}

/// `flags[flag] = 1; RET` when `k.x` is non-zero.
fn leave_if_k(p: &Plan, flag: usize) -> Vec<Instruction> {
    let mut v = vec![op(Opcode::UIF, vec![], vec![src(temp(p.k), 0)])];
    v.extend(set_flag(p, flag));
    v.push(op(Opcode::RET, vec![], vec![]));
    v.push(op(Opcode::ENDIF, vec![], vec![]));
    v
}

fn kill_if(p: &Plan, cond: Src) -> Vec<Instruction> {
    use Opcode::*;
    let k = temp(p.k);
    let mut v = vec![op(FSLT, vec![dst(k, 0xF)], vec![cond, imm(p.d, 0)])];
    for c in 1..4 {
        v.push(op(OR, vec![dst(k, 1)], vec![src(k, 0), src(k, c)]));
    }
    v.extend(leave_if_k(p, FLAG_KILLED));
    v
}

fn loop_guard(p: &Plan) -> Vec<Instruction> {
    use Opcode::*;
    let s = temp(p.s);
    let mut v = vec![
        op(UADD, vec![dst(s, 8)], vec![src(s, 3), imm(p.d, 1)]),
        op(USLT, vec![dst(temp(p.k), 1)], vec![imm(p.d, 2), src(s, 3)]),
    ];
    v.extend(leave_if_k(p, FLAG_STEP_LIMIT));
    v
}

/// `program` printed as TGSI text, with FLT32 immediates written as `0x` bit patterns
/// (virglrenderer's parser reads `0x` + 8 hex digits as the float's bits; tgsi_dump's
/// `%10.4f` would lose them).
fn print_hex_floats(program: &Program) -> String {
    let text = shaderdiff_tgsi::print(program);
    let mut out = String::with_capacity(text.len());
    for line in text.lines() {
        let t = line.trim_start();
        let k = t
            .strip_prefix("IMM[")
            .and_then(|r| r.split(']').next())
            .and_then(|n| n.parse::<usize>().ok());
        match k.and_then(|k| program.immediates.get(k).map(|m| (k, m))) {
            Some((k, m)) if m.ty == ImmType::F32 => {
                let words: Vec<String> = m.words.iter().map(|w| format!("0x{w:08x}")).collect();
                out += &format!("IMM[{k}] FLT32 {{{}}}\n", words.join(", "));
            }
            _ => {
                out += line;
                out.push('\n');
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn wrapped(text: &str) -> Wrapped {
        let p = shaderdiff_tgsi::parse(text, "t.tgsi").unwrap();
        let shape = Shape::new(&p).unwrap();
        wrap(&p, &shape, 1000, false).unwrap()
    }

    #[test]
    fn the_compute_shader_loads_runs_and_stores() {
        let w = wrapped(
            "FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\nDCL TEMP[0]\n\
             IMM[0] FLT32 {1.0, -0.0, 0.5, 2.0}\nKILL_IF IN[0].xxxx\nADD TEMP[0], IN[0], IMM[0]\n\
             MOV OUT[0], TEMP[0]\nEND\n",
        );
        assert!(w.text.starts_with("COMP\n"), "{}", w.text);
        // Float immediates travel as bit patterns.
        assert!(
            w.text
                .contains("IMM[0] FLT32 {0x3f800000, 0x80000000, 0x3f000000, 0x40000000}"),
            "{}",
            w.text
        );
        // IN[0] and OUT[0] became TEMP[1] and TEMP[2]; scratch is TEMP[3..4].
        assert!(
            w.text.contains("LOAD TEMP[1], BUFFER[0], TEMP[3].yyyy"),
            "{}",
            w.text
        );
        assert!(
            w.text.contains("ADD TEMP[0], TEMP[1], IMM[0]"),
            "{}",
            w.text
        );
        assert!(
            w.text.contains("STORE BUFFER[1], TEMP[3].zzzz, TEMP[2]"),
            "{}",
            w.text
        );
        assert!(w.text.contains("FSLT TEMP[4], TEMP[1].xxxx"), "{}", w.text);
        assert_eq!(w.inputs, vec![RegKey::new(File::Input, 0)]);
        assert_eq!((w.out_slots, w.in_stride(), w.out_stride()), (1, 16, 32));
        assert!(w.fragment);
        // The rewritten program is valid TGSI for our own parser too.
        shaderdiff_tgsi::parse(&w.text, "wrapped.tgsi").unwrap();
    }

    #[test]
    fn indirect_inputs_become_a_temporary_array() {
        let w = wrapped(
            "VERT\nDCL IN[0..3]\nDCL OUT[0]\nDCL ADDR[0]\nARL ADDR[0].x, IN[0].xxxx\n\
             MOV OUT[0], IN[ADDR[0].x+1]\nEND\n",
        );
        assert!(w.text.contains("DCL TEMP[0..3], ARRAY(1)"), "{}", w.text);
        assert!(w.text.contains("TEMP[ADDR[0].x+1](1)"), "{}", w.text);
        shaderdiff_tgsi::parse(&w.text, "wrapped.tgsi").unwrap();
    }

    #[test]
    fn refusals() {
        let p = shaderdiff_tgsi::parse(
            "VERT\nDCL IN[0]\nDCL OUT[0]\nDDX OUT[0], IN[0]\nEND\n",
            "t.tgsi",
        );
        // DDX is fragment-only for our parser; either way it never reaches the host.
        if let Ok(p) = p {
            assert!(check(&p).is_err());
        }
        let p = shaderdiff_tgsi::parse(
            "VERT\nDCL IN[0]\nDCL OUT[0]\nI64ABS OUT[0].xy, IN[0].xyxy\nEND\n",
            "t.tgsi",
        )
        .unwrap();
        match check(&p) {
            Err(EngineError::Unsupported { reason, .. }) => assert!(reason.contains("64-bit")),
            other => panic!("{other:?}"),
        }
    }
}
