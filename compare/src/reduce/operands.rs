//! Operand simplification: sources replaced by their (oracle) values, modifiers, saturate,
//! swizzles and writemasks.

use shaderdiff_model::{
    infer_types, ChannelType, Declaration, Dst, File, ImmType, Immediate, Instruction, Opcode,
    Program, Register, Saturate, ScalarType, Src, IDENTITY_SWIZZLE,
};
use shaderdiff_oracles::interp::{self, InterpConfig};
use shaderdiff_oracles::{Inputs, RegKey, Vec4};

use super::structure::next_out;
use super::{Ctx, State, REDUCE_STEP_LIMIT};
use crate::edit::rebuild;

/// The raw value (identity swizzle, no modifiers) of register `reg` just before instruction
/// `at`, per invocation, as the oracle computes it.
fn capture(p: &Program, inputs: &Inputs, at: usize, reg: Register) -> Option<Vec<Vec4>> {
    if p.decls(File::Output).any(|d| d.dimension.is_some()) {
        return None;
    }
    let k = next_out(p);
    let mov = Instruction::new(
        Opcode::MOV,
        vec![Dst {
            reg: Register::new(File::Output, k as i32),
            writemask: 0xF,
        }],
        vec![Src::new(reg)],
    );
    let mut new: Vec<(Option<usize>, Instruction)> = p
        .instructions
        .iter()
        .cloned()
        .enumerate()
        .map(|(j, x)| (Some(j), x))
        .collect();
    new.insert(at, (None, mov));
    let mut q = rebuild(p, new);
    q.declarations.push(Declaration::new(File::Output, k, k));
    let config = InterpConfig {
        step_limit: REDUCE_STEP_LIMIT,
    };
    let out = interp::run(&q, inputs, &config).ok()?;
    out.registers.get(&RegKey::new(File::Output, k)).cloned()
}

/// The immediate type that keeps the comparator's view of source `k` of `insn`: the
/// opcode's source type when typed, else what type inference says of the register.
fn imm_type(p: &Program, insn: &Instruction, k: usize) -> ImmType {
    match insn.opcode.info().src_types.get(k).copied().flatten() {
        Some(ScalarType::F32) => ImmType::F32,
        Some(ScalarType::I32) => ImmType::I32,
        Some(ScalarType::U32) => ImmType::U32,
        _ => {
            let s = &insn.src[k];
            let t = infer_types(p).channels(s.reg.file, s.reg.index.value)[s.swizzle[0] as usize];
            match t {
                ChannelType::Int32 => ImmType::U32,
                _ => ImmType::F32,
            }
        }
    }
}

/// Candidate programs (with inputs) replacing source `k` of instruction `j` by its value.
fn value_candidates(p: &Program, inputs: &Inputs, j: usize, k: usize) -> Vec<(Program, Inputs)> {
    let insn = &p.instructions[j];
    let s = insn.src[k];
    if !matches!(
        s.reg.file,
        File::Temp | File::Output | File::Const | File::Input
    ) || s.reg.dimension.is_some()
    {
        return Vec::new();
    }
    let Some(values) = capture(p, inputs, j, s.reg) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let uniform = values.windows(2).all(|w| w[0] == w[1]);
    if uniform && !values.is_empty() {
        let mut q = p.clone();
        q.immediates.push(Immediate {
            ty: imm_type(p, insn, k),
            words: values[0],
        });
        let src = &mut q.instructions[j].src[k];
        src.reg = Register::new(File::Immediate, p.immediates.len() as i32);
        out.push((q, inputs.clone()));
    }
    if s.reg.file != File::Input && p.decls(File::Input).all(|d| d.dimension.is_none()) {
        let n = p.decls(File::Input).map(|d| d.last + 1).max().unwrap_or(0);
        let mut q = p.clone();
        let mut d = Declaration::new(File::Input, n, n);
        if let Some(model) = p.decls(File::Input).next() {
            // Keep the stage's declaration form (fragment inputs carry a semantic).
            d.semantic = model.semantic.map(|(name, _)| (name, n + 32));
            d.interpolation = model.interpolation;
        }
        q.declarations.push(d);
        q.source_map.declarations.clear();
        q.instructions[j].src[k].reg = Register::new(File::Input, n as i32);
        let mut i2 = inputs.clone();
        i2.registers.insert(RegKey::new(File::Input, n), values);
        out.push((q, i2));
    }
    out
}

/// Simpler forms of source `k` of instruction `j`: no `|x|`, no `-x`, identity swizzle,
/// broadcasts.
fn source_candidates(p: &Program, j: usize, k: usize) -> Vec<Program> {
    let s = p.instructions[j].src[k];
    let mut forms: Vec<Src> = Vec::new();
    if s.abs {
        forms.push(Src { abs: false, ..s });
    }
    if s.neg {
        forms.push(Src { neg: false, ..s });
    }
    if s.swizzle != IDENTITY_SWIZZLE {
        forms.push(Src {
            swizzle: IDENTITY_SWIZZLE,
            ..s
        });
        let mut comps: Vec<u8> = s.swizzle.to_vec();
        comps.sort_unstable();
        comps.dedup();
        if comps.len() > 1 {
            for c in comps {
                forms.push(Src {
                    swizzle: [c; 4],
                    ..s
                });
            }
        }
    }
    forms
        .into_iter()
        .map(|f| {
            let mut q = p.clone();
            q.instructions[j].src[k] = f;
            q
        })
        .collect()
}

/// Simpler forms of instruction `j` itself: no saturate, one-channel writemasks.
fn insn_candidates(p: &Program, j: usize) -> Vec<Program> {
    let insn = &p.instructions[j];
    let mut out = Vec::new();
    if insn.saturate != Saturate::None {
        let mut q = p.clone();
        q.instructions[j].saturate = Saturate::None;
        out.push(q);
    }
    if let Some(d) = insn.dst.first() {
        // Write the result straight to a fresh output (the copy that carried it goes next).
        let plain = d.reg.file == File::Temp && d.reg.dimension.is_none() && !d.reg.is_indirect();
        if plain && p.decls(File::Output).all(|d| d.dimension.is_none()) {
            let k = next_out(p);
            let mut q = p.clone();
            q.instructions[j].dst[0].reg = Register::new(File::Output, k as i32);
            q.declarations.push(Declaration::new(File::Output, k, k));
            q.source_map.declarations.clear();
            out.push(q);
        }
        if d.writemask.count_ones() > 1 {
            for c in 0..4 {
                if d.writemask & (1 << c) != 0 {
                    let mut q = p.clone();
                    q.instructions[j].dst[0].writemask = 1 << c;
                    out.push(q);
                }
            }
        }
    }
    out
}

/// Runs every operand simplification on every instruction once.
pub(crate) fn simplify(ctx: &mut Ctx, st: &mut State) -> bool {
    let mut changed = false;
    let mut j = 0;
    while j < st.program.instructions.len() && !ctx.stopped() {
        let nsrc = st.program.instructions[j].src.len();
        for k in 0..nsrc {
            for (q, i) in value_candidates(&st.program, &st.inputs, j, k) {
                if ctx.try_state(st, q, i) {
                    changed = true;
                    break;
                }
            }
            // Each accepted form may enable the next (drop abs, then neg, then swizzle).
            let mut again = true;
            while again && !ctx.stopped() {
                again = false;
                for q in source_candidates(&st.program, j, k) {
                    if ctx.try_program(st, q) {
                        changed = true;
                        again = true;
                        break;
                    }
                }
            }
        }
        for q in insn_candidates(&st.program, j) {
            if ctx.try_program(st, q) {
                changed = true;
                break;
            }
        }
        if st.program.instructions[j].saturate != Saturate::None {
            let q = {
                let mut q = st.program.clone();
                q.instructions[j].saturate = Saturate::None;
                q
            };
            changed |= ctx.try_program(st, q);
        }
        j += 1;
    }
    changed
}
