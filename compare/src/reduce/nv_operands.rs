//! Operand simplification of NV findings (the NV counterpart of `operands.rs`), on the NV
//! text: every candidate is an [`NvProgram`] that must print, parse back, lower, validate
//! and keep the signature ([`Ctx::try_candidate`]).
//!
//! * **Retarget**: `OP t, ...; ...; MOV o, t;` with `o` an output becomes `OP o, ...;`
//!   (the result written straight to the output the copy carried it to, the copy gone).
//! * **Condition codes**: drop an instruction's condition-code update (`.CC`), its
//!   conditional write mask (`(LT1)`), its clamp (`.SAT`/`.SSAT`).
//! * **Constants**: a constant written under a condition mask becomes `MOV dst (cc), 1`
//!   (a conditional write of 0 shows only over an earlier nonzero value, 1 needs none).
//! * **Sources**: replace a source by the literal `0`, `1` or `-1`; replace a source that
//!   reads a computed value (a temporary, an output) by a fresh attribute carrying, per
//!   invocation, the value the oracle computes for it there (NV_gpu_program4 §2.X.3.2
//!   generic attributes `vertex.attrib[n]`, `fragment.attrib[n]`), so the instructions that
//!   computed it can go; drop the source's `-`/`|..|` and its swizzle.

use shaderdiff_model::File;
use shaderdiff_nv::{
    self as nv, Binding, DataType, DeclKind, Declaration, Dst, Index, Instruction, Literal,
    NvOpcode, NvProgram, NvStage, Segment, Src, SrcBase, Statement, Swizzle, VarRef,
};
use shaderdiff_oracles::interp::{self, InterpConfig};
use shaderdiff_oracles::{RegKey, Vec4};

use super::{without, Ctx};
use crate::edit::is_valid;
use crate::reduce::REDUCE_STEP_LIMIT;

/// Runs the operand passes once over every instruction.
pub(super) fn operands(ctx: &mut Ctx) {
    retarget(ctx);
    condition_codes(ctx);
    sources(ctx);
}

/// The instruction at statement `j`, if it is one.
fn insn(p: &NvProgram, j: usize) -> Option<&Instruction> {
    match p.statements.get(j) {
        Some(Statement::Insn(i)) => Some(i),
        _ => None,
    }
}

/// `p` with the instruction at statement `j` changed by `f`.
fn edited(p: &NvProgram, j: usize, f: impl FnOnce(&mut Instruction)) -> NvProgram {
    let mut q = p.clone();
    if let Some(Statement::Insn(i)) = q.statements.get_mut(j) {
        f(i);
    }
    q
}

/// The kind of the bound declaration named `name` (`ATTRIB`, `PARAM`, `OUTPUT`, ...).
fn bound_kind(p: &NvProgram, name: &str) -> Option<DeclKind> {
    p.statements.iter().find_map(|s| match s {
        Statement::Decl(Declaration::Bound(b)) if b.name == name => Some(b.kind),
        _ => None,
    })
}

/// Whether `r` names a `TEMP` variable (not an array element).
fn is_temp(p: &NvProgram, r: &VarRef) -> bool {
    let VarRef::Var { name, index } = r else {
        return false;
    };
    index.is_empty()
        && p.statements.iter().any(|s| {
            matches!(s, Statement::Decl(Declaration::Temp { vars, .. })
                if vars.iter().any(|v| v.name == *name && v.size.is_none()))
        })
}

/// Whether `r` is an output (a `result.*` binding or an `OUTPUT` variable).
fn is_output(p: &NvProgram, r: &VarRef) -> bool {
    match r {
        VarRef::Binding(b) => b.root() == "result",
        VarRef::Var { name, .. } => bound_kind(p, name) == Some(DeclKind::Output),
    }
}

/// Whether reading `r` reads an input or a constant (an attribute, a parameter, program or
/// state binding): nothing computed it, so replacing it by an attribute gains nothing.
fn is_given(p: &NvProgram, r: &VarRef) -> bool {
    match r {
        VarRef::Binding(b) => b.root() != "result",
        VarRef::Var { name, .. } => matches!(
            bound_kind(p, name),
            Some(DeclKind::Attrib | DeclKind::Param | DeclKind::CBuffer | DeclKind::Buffer)
        ),
    }
}

/// `MOV o, t;` copying a whole value: no modifiers, no swizzle, no clamp or flags.
fn plain_copy(i: &Instruction) -> Option<(&VarRef, &Dst)> {
    if i.opcode.name() != "MOV" || i.srcs.len() != 1 || i.mods.cc.is_some() {
        return None;
    }
    let s = &i.srcs[0];
    let whole = matches!(s.swizzle, Swizzle::None | Swizzle::Vector([0, 1, 2, 3]));
    if s.neg || s.abs || s.neg_inside || !whole || i.mods.clamp.is_some() {
        return None;
    }
    match (&s.base, &i.dst) {
        (SrcBase::Ref(r), Some(d)) => Some((r, d)),
        _ => None,
    }
}

/// The candidate that writes the result of the instruction at `j` (to a temporary) straight
/// to the output of the copy at `m`, without the copy; `None` when `m` is no such copy.
fn retargeted(p: &NvProgram, j: usize, m: usize) -> Option<NvProgram> {
    let i = insn(p, j)?;
    let d = i.dst.as_ref()?;
    let (from, to) = plain_copy(insn(p, m)?)?;
    if *from != d.base || !is_output(p, &to.base) || (d.cc.is_some() && to.cc.is_some()) {
        return None;
    }
    let mask = d.mask & to.mask;
    if mask == 0 {
        return None;
    }
    let (base, cc) = (to.base.clone(), d.cc.or(to.cc));
    let q = edited(p, j, |i| {
        i.dst = Some(Dst { base, mask, cc });
    });
    Some(without(&q, &[(m, m)]))
}

/// Retargets results copied to an output: the first copy of each temporary's value after
/// its write.
fn retarget(ctx: &mut Ctx) {
    let mut j = 0;
    while j < ctx.program.statements.len() && !ctx.stopped() {
        let target = insn(&ctx.program, j)
            .and_then(|i| i.dst.as_ref())
            .filter(|d| is_temp(&ctx.program, &d.base))
            .map(|d| d.base.clone());
        if let Some(t) = target {
            let copy = (j + 1..ctx.program.statements.len()).find(|&m| {
                insn(&ctx.program, m)
                    .and_then(plain_copy)
                    .is_some_and(|(r, _)| *r == t)
            });
            if let Some(cand) = copy.and_then(|m| retargeted(&ctx.program, j, m)) {
                ctx.try_program(cand);
            }
        }
        j += 1;
    }
}

/// Drops condition-code updates, conditional write masks and clamps.
fn condition_codes(ctx: &mut Ctx) {
    type Edit = fn(&mut Instruction) -> bool;
    let edits: [Edit; 3] = [
        |i| i.mods.cc.take().is_some(),
        |i| i.dst.as_mut().and_then(|d| d.cc.take()).is_some(),
        |i| i.mods.clamp.take().is_some(),
    ];
    for j in 0..ctx.program.statements.len() {
        for edit in edits {
            if ctx.stopped() {
                return;
            }
            let mut changed = false;
            let cand = edited(&ctx.program, j, |i| changed = edit(i));
            if changed {
                ctx.try_program(cand);
            }
        }
    }
}

/// A source reading `base` plainly (no modifiers, no swizzle).
fn plain(base: SrcBase) -> Src {
    Src {
        neg: false,
        abs: false,
        neg_inside: false,
        base,
        swizzle: Swizzle::None,
    }
}

/// The binding `root.name[k]`.
fn binding(root: &str, name: &str, k: u32) -> Binding {
    Binding {
        segments: vec![
            Segment {
                name: root.to_string(),
                index: Vec::new(),
            },
            Segment {
                name: name.to_string(),
                index: vec![Index::Abs(k)],
            },
        ],
    }
}

/// The first index `k` with `prefix[k]` nowhere in `text`, below `limit`.
fn unused_index(text: &str, prefix: &str, limit: u32) -> Option<u32> {
    (0..limit).find(|k| !text.contains(&format!("{prefix}[{k}]")))
}

/// A fresh input attribute and a fresh output for capturing a value (vertex and fragment
/// programs: NV_gpu_program4 §2.X.3.2 `vertex.attrib[n]` / `fragment.attrib[n]`, results
/// `result.attrib[n]` / `result.color[n]`); `None` for other stages or when none is free.
fn fresh_io(p: &NvProgram) -> Option<(Binding, Binding)> {
    let text = nv::print(p);
    match p.header.stage {
        NvStage::Vertex => Some((
            binding(
                "vertex",
                "attrib",
                unused_index(&text, "vertex.attrib", 16)?,
            ),
            binding(
                "result",
                "attrib",
                unused_index(&text, "result.attrib", 16)?,
            ),
        )),
        NvStage::Fragment => Some((
            binding(
                "fragment",
                "attrib",
                unused_index(&text, "fragment.attrib", 16)?,
            ),
            binding("result", "color", unused_index(&text, "result.color", 8)?),
        )),
        _ => None,
    }
}

/// The value of `base` (all four components, raw bits) just before statement `j`, per
/// invocation, as the oracle computes it: a `MOV.U out, base;` inserted there, read at the
/// end. A component the oracle leaves undefined (a TEMP component never written: TEMPs
/// start undefined, NV_gpu_program4 §2.X.3.4) is 0, what every engine starts it at
/// (INTERFACE.md); the candidate is judged anew either way. `None` when that copy does
/// not lower or run.
fn capture(ctx: &Ctx, j: usize, base: &VarRef, out: &Binding) -> Option<Vec<Vec4>> {
    let mut mov = Instruction::new(NvOpcode::from_name("MOV")?);
    mov.mods.ty = Some(DataType::U);
    mov.dst = Some(Dst {
        base: VarRef::Binding(out.clone()),
        mask: 0xF,
        cc: None,
    });
    mov.srcs = vec![plain(SrcBase::Ref(base.clone()))];
    let mut q = ctx.program.clone();
    q.statements.insert(j, Statement::Insn(mov));
    let l = nv::lower(&q).ok()?;
    if !is_valid(&l.program) {
        return None;
    }
    let inputs = ctx.named.to_ir(&l);
    let config = InterpConfig {
        step_limit: REDUCE_STEP_LIMIT,
    };
    let outputs = interp::run(&l.program, &inputs, &config).ok()?;
    let (file, dimension, index) = l.names.lookup_key(l.stage, &nv::binding_text(out))?;
    let key = RegKey {
        file,
        dimension,
        index,
    };
    if file != File::Output {
        return None;
    }
    let mut values = outputs.registers.get(&key).cloned()?;
    let undefined = outputs.undefined.get(&key).map_or(&[][..], Vec::as_slice);
    for (v, &u) in values.iter_mut().zip(undefined) {
        for (c, w) in v.iter_mut().enumerate() {
            if u & (1 << c) != 0 {
                *w = 0;
            }
        }
    }
    Some(values)
}

/// Whether the instruction at `j` reads its sources as 32-bit words (a captured 32-bit
/// value can stand for them).
fn reads_words(i: &Instruction) -> bool {
    i.mods
        .ty
        .is_none_or(|t| t.components() == 1 && t.bits() != Some(64))
}

/// Simpler sources: a small literal, a fresh attribute with the value, no modifiers, no
/// swizzle.
fn sources(ctx: &mut Ctx) {
    for j in 0..ctx.program.statements.len() {
        if constant_one(ctx, j) {
            continue;
        }
        let n = insn(&ctx.program, j).map_or(0, |i| i.srcs.len());
        for k in 0..n {
            if ctx.stopped() {
                return;
            }
            if !replace_source(ctx, j, k) {
                simplify_source(ctx, j, k);
            }
        }
    }
}

/// The literals a source is replaced by, in order: 0, 1 and -1 (as integers or floats,
/// whatever the instruction's data type reads them as: NV_gpu_program4 §2.X.4.2 scalar
/// operands are replicated to all four components). 0 alone is not enough where the
/// value must be nonzero for the finding to show (a product that a miscompiled DP3 adds,
/// a comparison that must pass), and it is what keeps an instruction that only gives a
/// TEMP a defined value (TEMPs start undefined, §2.X.3.4) alive when no fresh attribute can
/// carry the value (compute programs have none).
fn small_literals() -> [Src; 3] {
    let int = |value| SrcBase::Scalar(Literal::Int { value, hex: false });
    let mut minus_one = plain(int(1));
    minus_one.neg = true;
    [plain(int(0)), plain(int(1)), minus_one]
}

/// Replaces source `k` of the instruction at `j` by a small literal ([`small_literals`])
/// or by a fresh attribute carrying its value; whether one was kept.
fn replace_source(ctx: &mut Ctx, j: usize, k: usize) -> bool {
    let Some(i) = insn(&ctx.program, j) else {
        return false;
    };
    let base = match i.srcs[k].base.clone() {
        SrcBase::Ref(base) => base,
        _ => return false,
    };
    let words = reads_words(i);
    for literal in small_literals() {
        let cand = edited(&ctx.program, j, |i| i.srcs[k] = literal);
        if ctx.try_program(cand) {
            return true;
        }
    }
    if is_given(&ctx.program, &base) || !words {
        return false;
    }
    let Some((input, out)) = fresh_io(&ctx.program) else {
        return false;
    };
    let Some(values) = capture(ctx, j, &base, &out) else {
        return false;
    };
    let cand = edited(&ctx.program, j, |i| {
        i.srcs[k].base = SrcBase::Ref(VarRef::Binding(input.clone()));
    });
    let mut named = ctx.named.clone();
    named.registers.push((nv::binding_text(&input), values));
    ctx.try_candidate(cand, named)
}

/// Whether `i` writes a constant (every source a literal) under a condition mask.
fn constant_under_condition(i: &Instruction) -> bool {
    i.dst.as_ref().is_some_and(|d| d.cc.is_some())
        && i.srcs.iter().all(|s| !matches!(s.base, SrcBase::Ref(_)))
}

/// The literal 1.
fn one() -> SrcBase {
    SrcBase::Scalar(Literal::Int {
        value: 1,
        hex: false,
    })
}

/// Replaces a constant written under a condition mask (every source a literal) by `MOV
/// dst (cc), 1` (same data type and flag update); whether that was kept. A conditional
/// write shows only where the value written differs from what the destination held
/// before: a constant 0 (what the literal pass leaves) needs an earlier nonzero value, 1
/// does not, so the instruction that gave the destination its earlier value can go, and
/// the write can go straight to an output ([`retarget`]).
fn constant_one(ctx: &mut Ctx, j: usize) -> bool {
    let Some(i) = insn(&ctx.program, j) else {
        return false;
    };
    let is_one = i.opcode.name() == "MOV" && i.srcs.len() == 1 && i.srcs[0].base == one();
    if is_one || !constant_under_condition(i) {
        return false;
    }
    let Some(mov) = NvOpcode::from_name("MOV") else {
        return false;
    };
    let ty = i
        .mods
        .ty
        .filter(|t| matches!(t, DataType::F | DataType::S | DataType::U));
    let cand = edited(&ctx.program, j, |i| {
        let mut m = Instruction::new(mov);
        m.mods.ty = ty;
        m.mods.cc = i.mods.cc;
        m.dst = i.dst.take();
        m.srcs = vec![plain(one())];
        *i = m;
    });
    ctx.try_program(cand)
}

/// Drops the modifiers of source `k` of the instruction at `j`, then its swizzle.
fn simplify_source(ctx: &mut Ctx, j: usize, k: usize) {
    let Some(s) = insn(&ctx.program, j).map(|i| i.srcs[k].clone()) else {
        return;
    };
    if s.neg || s.abs || s.neg_inside {
        let cand = edited(&ctx.program, j, |i| {
            let s = &mut i.srcs[k];
            (s.neg, s.abs, s.neg_inside) = (false, false, false);
        });
        ctx.try_program(cand);
    }
    if s.swizzle != Swizzle::None && !matches!(s.base, SrcBase::Scalar(_)) {
        let cand = edited(&ctx.program, j, |i| i.srcs[k].swizzle = Swizzle::None);
        ctx.try_program(cand);
    }
}
