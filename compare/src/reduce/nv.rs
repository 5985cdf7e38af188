//! Reduction of NV assembly findings: the same idea as the TGSI reducer (keep the **same
//! divergence**, shrink until nothing more can go), applied to the NV program so that the
//! reproducer stays NV text with NV-keyed inputs.
//!
//! "Same divergence" is the signature's engine and opcode class (`jit-move`); its channel
//! type may change. The type of a lowered NV program's channel is an artifact of the
//! lowering (hidden temporaries, condition-code moves, `.F`/`.S` operand types of unrelated
//! writes to the same variable): keeping it would keep such writes alive in the reproducer.
//! The reduced program's own signature is the one reported. A divergence the probes could
//! not place (class `unknown`: a geometry program's global store, say, defeats the
//! instrumentation) may become a located one once what hid it is gone: the first located
//! class a candidate shows is kept from then on, as the finding's class.
//!
//! Candidates are NV programs ([`NvProgram`]): each is lowered with
//! [`shaderdiff_nv::lower`] (a candidate the lowering refuses, or whose IR does not
//! validate, is rejected) and judged on its IR like any TGSI candidate. Inputs are kept by NV
//! name (`vertex.attrib[0]`, `program.local[1]`), since removing instructions renumbers the
//! IR registers the names stand for.
//!
//! Passes, repeated to a fixed point or the end of the budget:
//!
//! 1. **Invocations**: keep one invocation (one quad for fragment programs) that shows the
//!    divergence.
//! 2. **Removal** of structural units, largest first: an `IF`..`ENDIF` or `REP`..`ENDREP`
//!    block as a whole, then single instructions (block delimiters excepted).
//! 3. **Unwrapping**: a block replaced by its then-body, its else-body or its loop body.
//! 4. **Condition masks**: `IF cc` around one write becomes that write with a condition
//!    mask.
//! 5. **Operands** (`nv_operands.rs`): a result written straight to the
//!    output a following `MOV` copies it to; condition-code updates, conditional write
//!    masks and clamps dropped; a source replaced by the literal 0, 1 or -1 or by a fresh
//!    attribute carrying its (oracle) value; source modifiers and swizzles dropped.
//! 6. **Declarations** nothing reads any more (`TEMP`, `PARAM`, `OUTPUT`, ...).
//!
//! Every candidate must print as NV text that parses back (what `reduced.nv` holds), lower
//! and validate.

use shaderdiff_model::check::shape::Shape;
use shaderdiff_model::{File, Program};
use shaderdiff_nv::{self as nv, Declaration, NvProgram, NvStage, Statement};
use shaderdiff_oracles::{Inputs, RegKey, Vec4};
use shaderdiff_results::Signature;

#[path = "nv_operands.rs"]
mod nv_operands;

use super::{diverging_outcome, ReduceError, ReduceOptions};
use crate::diff::Differ;
use crate::edit::is_valid;
use crate::signature::{locate, Divergence};

/// A reduced NV test case.
#[derive(Clone, Debug)]
pub struct ReducedNv {
    /// The reduced NV program.
    pub program: NvProgram,
    /// Its lowering (the IR the engines ran, and the names of its registers).
    pub lowered: nv::Lowered,
    /// Inputs that show the divergence, keyed by the lowered program's IR registers
    /// (`inputs_json::to_json_nv` with `lowered.names` writes them by NV name).
    pub inputs: Inputs,
    /// Its divergence (same signature as the original's).
    pub divergence: Divergence,
    /// Candidates tested.
    pub tests: usize,
    /// A fixed point was reached (false: stopped by the deadline or the stop flag).
    pub complete: bool,
}

impl ReducedNv {
    /// Instructions in the reduced program.
    pub fn size(&self) -> usize {
        insn_count(&self.program)
    }

    /// The canonical NV text with a stamp comment after the header (`# shaderdiff-reduce
    /// VERSION signature=.. instructions=.. from=..`); it parses back to the same program.
    pub fn stamped_text(&self, from: &str) -> String {
        let text = nv::print(&self.program);
        let (header, rest) = text.split_once('\n').unwrap_or((&text, ""));
        format!(
            "{header}\n# shaderdiff-reduce {} signature={} instructions={} from={}\n{rest}",
            env!("CARGO_PKG_VERSION"),
            self.divergence.signature,
            self.size(),
            from.replace(char::is_whitespace, "_")
        )
    }
}

/// Instructions of an NV program.
pub fn insn_count(p: &NvProgram) -> usize {
    p.instructions().count()
}

/// Inputs by NV name, independent of the IR numbering of any one lowering.
#[derive(Clone, Debug, PartialEq)]
struct Named {
    invocations: usize,
    registers: Vec<(String, Vec<Vec4>)>,
    constants: Vec<(String, Vec4)>,
    /// Buffers by NV name (`program.storage[a]`, `image[u]`, ...): their IR index follows
    /// first use, which a candidate may change.
    buffers: Vec<(String, Vec<u8>)>,
    rest: Inputs,
}

impl Named {
    fn from_ir(inputs: &Inputs, names: &nv::NameMap) -> Named {
        let name = |k: &RegKey| names.name_of_key(k.file, k.dimension, k.index);
        Named {
            invocations: inputs.invocations,
            registers: inputs
                .registers
                .iter()
                .filter_map(|(k, v)| Some((name(k)?, v.clone())))
                .collect(),
            constants: inputs
                .constants
                .iter()
                .filter_map(|(k, v)| Some((name(k)?, *v)))
                .collect(),
            buffers: inputs
                .buffers
                .iter()
                .filter(|(k, _)| k.file != File::Memory)
                .filter_map(|(k, v)| Some((name(k)?, v.clone())))
                .collect(),
            rest: Inputs {
                buffers: inputs
                    .buffers
                    .iter()
                    .filter(|(k, _)| k.file == File::Memory || name(k).is_none())
                    .map(|(k, v)| (*k, v.clone()))
                    .collect(),
                global: inputs.global.clone(),
                textures: inputs.textures.clone(),
                ..Inputs::default()
            },
        }
    }

    /// The inputs for a lowering: names it no longer has are dropped.
    fn to_ir(&self, l: &nv::Lowered) -> Inputs {
        let key = |n: &str| {
            l.names
                .lookup_key(l.stage, n)
                .map(|(file, dimension, index)| RegKey {
                    file,
                    dimension,
                    index,
                })
        };
        let mut inputs = Inputs {
            invocations: self.invocations,
            ..self.rest.clone()
        };
        for (n, v) in &self.registers {
            if let Some(k) = key(n).filter(|k| k.file != File::Const) {
                inputs.registers.insert(k, v.clone());
            }
        }
        for (n, v) in &self.constants {
            if let Some(k) = key(n) {
                inputs.constants.insert(k, *v);
            }
        }
        for (n, v) in &self.buffers {
            if let Some(k) = key(n).filter(|k| k.file == File::Buffer) {
                inputs.buffers.insert(k, v.clone());
            }
        }
        // A texture on a unit the candidate no longer samples is invalid input for every
        // engine (`shaderdiff_model::check::texture::check_inputs`): it goes with the last
        // instruction that sampled it.
        if let Ok(shape) = Shape::new(&l.program) {
            let units = shape.textures();
            inputs
                .textures
                .retain(|k, _| units.iter().any(|u| u.unit == k.index));
        }
        // The global and shared memory windows are rebuilt for this lowering (their MEMORY
        // indices follow first use, which a candidate may change): `nv_runtime::prepare`.
        inputs.buffers.retain(|k, _| k.file != File::Memory);
        if crate::nv_runtime::prepare(&l.program, &l.names, &mut inputs).is_err() {
            inputs.buffers.clear();
        }
        inputs
    }
}

/// The opcode class of a divergence nothing located ([`crate::signature::locate`]).
const UNLOCATED: &str = "unknown";

/// What keeps a candidate: its divergence when it shows the finding (lowered, with its
/// inputs keyed by that lowering's IR registers), `None` otherwise.
type Judge<'a> = dyn FnMut(&NvProgram, &nv::Lowered, &Inputs) -> Option<Divergence> + 'a;

/// The current case and the budget.
struct Ctx<'a> {
    judge: &'a mut Judge<'a>,
    opts: &'a ReduceOptions,
    tests: usize,
    program: NvProgram,
    named: Named,
    lowered: nv::Lowered,
    div: Divergence,
}

impl Ctx<'_> {
    fn stopped(&self) -> bool {
        super::stopped(self.opts)
    }

    /// Lowers and judges a candidate; on the same signature it becomes the current case.
    fn try_candidate(&mut self, program: NvProgram, named: Named) -> bool {
        if self.stopped() || nv::parse(&nv::print(&program), "candidate.nv").is_err() {
            return false;
        }
        let Ok(l) = nv::lower(&program) else {
            return false;
        };
        if !is_valid(&l.program) {
            return false;
        }
        self.tests += 1;
        let inputs = named.to_ir(&l);
        let Some(div) = (self.judge)(&program, &l, &inputs) else {
            return false;
        };
        self.program = program;
        self.named = named;
        self.lowered = l;
        self.div = div;
        true
    }

    fn try_program(&mut self, program: NvProgram) -> bool {
        let named = self.named.clone();
        self.try_candidate(program, named)
    }
}

/// The divergence of `p` on engine `e` when its signature has `target`'s engine and opcode
/// class, or any class when `target`'s is `unknown` (module docs).
fn judge(
    differ: &Differ,
    e: usize,
    p: &Program,
    inputs: &Inputs,
    target: &Signature,
) -> Option<Divergence> {
    let outcome = diverging_outcome(differ, e, p, inputs)?;
    let d = locate(differ, e, p, inputs, &outcome);
    let class = target.class == UNLOCATED || d.signature.class == target.class;
    (d.signature.engine == target.engine && class).then_some(d)
}

/// Reduces the NV program `program` on `inputs` (keyed by the IR registers of
/// `nv::lower(program)`) for engine `engine` of `differ`, keeping signature `target`
/// (default: the program's own first divergence on that engine).
///
/// # Errors
/// [`ReduceError::NoDivergence`] when the program does not lower, or the engine does not
/// diverge on it; [`ReduceError::OtherSignature`] when it diverges with another signature
/// than `target`.
pub fn reduce_nv(
    differ: &Differ,
    engine: usize,
    program: &NvProgram,
    inputs: &Inputs,
    target: Option<&Signature>,
    opts: &ReduceOptions,
) -> Result<ReducedNv, ReduceError> {
    let name = differ.engines()[engine].name().to_string();
    let lowered = &nv::lower(program).map_err(|_| ReduceError::NoDivergence(name.clone()))?;
    let outcome = diverging_outcome(differ, engine, &lowered.program, inputs)
        .ok_or(ReduceError::NoDivergence(name))?;
    let div = locate(differ, engine, &lowered.program, inputs, &outcome);
    if let Some(t) = target {
        if *t != div.signature {
            return Err(ReduceError::OtherSignature {
                wanted: t.to_string(),
                found: div.signature.to_string(),
            });
        }
    }
    let mut target = div.signature.clone();
    let mut judge_ir = |_: &NvProgram, l: &nv::Lowered, i: &Inputs| {
        let d = judge(differ, engine, &l.program, i, &target)?;
        // Once located, the divergence keeps its class (module docs).
        target = d.signature.clone();
        Some(d)
    };
    let ctx = Ctx {
        judge: &mut judge_ir,
        opts,
        tests: 1,
        program: program.clone(),
        named: Named::from_ir(inputs, &lowered.names),
        lowered: lowered.clone(),
        div,
    };
    Ok(run_passes(ctx))
}

/// Reduces the NV program `program` on `inputs` (keyed by the IR registers of
/// `nv::lower(program)`) while `keep` holds for a candidate (its NV program, its lowering,
/// its inputs keyed by that lowering), with the passes of [`reduce_nv`]: for findings no
/// divergence describes, a crash or hang of an engine tested in a subprocess (the NV
/// counterpart of [`super::reduce_with`]). `signature` is recorded in the result.
///
/// # Errors
/// [`ReduceError::NoDivergence`] when the program does not lower or `keep` does not hold
/// for the original.
pub fn reduce_nv_with(
    program: &NvProgram,
    inputs: &Inputs,
    signature: &Signature,
    keep: &mut dyn FnMut(&NvProgram, &nv::Lowered, &Inputs) -> bool,
    opts: &ReduceOptions,
) -> Result<ReducedNv, ReduceError> {
    let none = || ReduceError::NoDivergence(signature.engine.clone());
    let lowered = nv::lower(program).map_err(|_| none())?;
    if !keep(program, &lowered, inputs) {
        return Err(none());
    }
    let div = Divergence {
        signature: signature.clone(),
        instruction: None,
        opcode: None,
        pos: None,
        located: crate::signature::Located::Failure,
    };
    let kept = div.clone();
    let mut judge_keep =
        |p: &NvProgram, l: &nv::Lowered, i: &Inputs| keep(p, l, i).then(|| kept.clone());
    let ctx = Ctx {
        judge: &mut judge_keep,
        opts,
        tests: 1,
        program: program.clone(),
        named: Named::from_ir(inputs, &lowered.names),
        lowered,
        div,
    };
    Ok(run_passes(ctx))
}

/// The passes of [`reduce_nv`], to a fixed point or the end of the budget.
fn run_passes(mut ctx: Ctx) -> ReducedNv {
    invocations(&mut ctx);
    let complete = loop {
        if ctx.stopped() {
            break false;
        }
        let before = ctx.program.clone();
        remove_units(&mut ctx);
        unwrap_blocks(&mut ctx);
        condition_writes(&mut ctx);
        nv_operands::operands(&mut ctx);
        remove_declarations(&mut ctx);
        if ctx.program == before {
            break !ctx.stopped();
        }
    };
    let inputs = ctx.named.to_ir(&ctx.lowered);
    ReducedNv {
        program: ctx.program,
        lowered: ctx.lowered,
        inputs,
        divergence: ctx.div,
        tests: ctx.tests,
        complete,
    }
}

/// Keeps the first invocation (quad, for fragment programs) that still shows the divergence.
fn invocations(ctx: &mut Ctx) {
    let group = if ctx.lowered.stage == NvStage::Fragment {
        4
    } else {
        1
    };
    let n = ctx.named.invocations;
    if n <= group {
        return;
    }
    for first in (0..n).step_by(group) {
        let mut named = ctx.named.clone();
        named.invocations = group;
        for (_, v) in &mut named.registers {
            if v.len() > 1 {
                *v = v[first..(first + group).min(v.len())].to_vec();
            }
        }
        if ctx.try_candidate(ctx.program.clone(), named) {
            return;
        }
    }
}

/// The opcode name of statement `s` when it is an instruction.
fn opcode(s: &Statement) -> Option<&'static str> {
    match s {
        Statement::Insn(i) => Some(i.opcode.name()),
        _ => None,
    }
}

/// A structural unit: statements `start..=end`; blocks record their `ELSE` (if any).
#[derive(Clone, Copy, Debug)]
struct Unit {
    start: usize,
    end: usize,
    else_at: Option<usize>,
    block: bool,
}

/// Blocks (`IF`..`ENDIF`, `REP`..`ENDREP`) and single instructions, largest first.
fn units(p: &NvProgram) -> Vec<Unit> {
    let mut out = Vec::new();
    let mut open: Vec<(usize, Option<usize>)> = Vec::new();
    for (i, s) in p.statements.iter().enumerate() {
        match opcode(s) {
            Some("IF" | "REP") => open.push((i, None)),
            Some("ELSE") => {
                if let Some(top) = open.last_mut() {
                    top.1 = Some(i);
                }
            }
            Some("ENDIF" | "ENDREP") => {
                if let Some((start, else_at)) = open.pop() {
                    out.push(Unit {
                        start,
                        end: i,
                        else_at,
                        block: true,
                    });
                }
            }
            Some(_) => out.push(Unit {
                start: i,
                end: i,
                else_at: None,
                block: false,
            }),
            None => {}
        }
    }
    out.sort_by_key(|u| std::cmp::Reverse(u.end - u.start));
    out
}

/// `p` with statements `drop` (sorted ranges, inclusive) removed.
fn without(p: &NvProgram, drop: &[(usize, usize)]) -> NvProgram {
    let mut q = p.clone();
    q.statements = p
        .statements
        .iter()
        .enumerate()
        .filter(|(i, _)| !drop.iter().any(|&(a, b)| (a..=b).contains(i)))
        .map(|(_, s)| s.clone())
        .collect();
    q
}

/// Removes units one at a time, largest first, restarting after each success.
fn remove_units(ctx: &mut Ctx) {
    'again: loop {
        for u in units(&ctx.program) {
            if ctx.stopped() {
                return;
            }
            let cand = without(&ctx.program, &[(u.start, u.end)]);
            if ctx.try_program(cand) {
                continue 'again;
            }
        }
        return;
    }
}

/// Replaces a block by one of its bodies.
fn unwrap_blocks(ctx: &mut Ctx) {
    'again: loop {
        for u in units(&ctx.program).into_iter().filter(|u| u.block) {
            if ctx.stopped() {
                return;
            }
            let bodies: Vec<Vec<(usize, usize)>> = match u.else_at {
                // Then-body: drop IF and ELSE..ENDIF; else-body: drop IF..ELSE and ENDIF.
                Some(e) => vec![
                    vec![(u.start, u.start), (e, u.end)],
                    vec![(u.start, e), (u.end, u.end)],
                ],
                None => vec![vec![(u.start, u.start), (u.end, u.end)]],
            };
            for drop in bodies {
                if ctx.try_program(without(&ctx.program, &drop)) {
                    continue 'again;
                }
            }
        }
        return;
    }
}

/// `IF cc; insn; ENDIF` with one instruction writing a result without a condition
/// becomes `insn (cc)`: the write under a condition mask (§2.X.4.3) instead of a block,
/// one statement instead of three.
fn condition_writes(ctx: &mut Ctx) {
    'again: loop {
        for u in units(&ctx.program).into_iter().filter(|u| u.block) {
            if ctx.stopped() {
                return;
            }
            if u.else_at.is_some() || u.end != u.start + 2 {
                continue;
            }
            let (Statement::Insn(opener), Statement::Insn(body)) = (
                &ctx.program.statements[u.start],
                &ctx.program.statements[u.start + 1],
            ) else {
                continue;
            };
            let (Some(cond), Some(dst)) = (opener.cond, body.dst.as_ref()) else {
                continue;
            };
            if opener.opcode.name() != "IF" || dst.cc.is_some() {
                continue;
            }
            let mut body = body.clone();
            if let Some(d) = body.dst.as_mut() {
                d.cc = Some(cond);
            }
            let mut cand = without(&ctx.program, &[(u.end, u.end)]);
            cand.statements[u.start + 1] = Statement::Insn(body);
            let cand = without(&cand, &[(u.start, u.start)]);
            if ctx.try_program(cand) {
                continue 'again;
            }
        }
        return;
    }
}

/// Removes declarations one at a time, then single variables of `TEMP` and `ADDRESS`
/// statements that name several (a candidate that still uses one fails to lower).
fn remove_declarations(ctx: &mut Ctx) {
    let mut i = 0;
    while i < ctx.program.statements.len() {
        if ctx.stopped() {
            return;
        }
        if matches!(ctx.program.statements[i], Statement::Decl(_))
            && ctx.try_program(without(&ctx.program, &[(i, i)]))
        {
            continue;
        }
        let mut v = 0;
        while v < names_in(&ctx.program.statements[i]) {
            let mut cand = ctx.program.clone();
            match &mut cand.statements[i] {
                Statement::Decl(Declaration::Temp { vars, .. }) => {
                    vars.remove(v);
                }
                Statement::Decl(Declaration::Address { names }) => {
                    names.remove(v);
                }
                _ => {}
            }
            if !ctx.try_program(cand) {
                v += 1;
            }
        }
        i += 1;
    }
}

/// How many variables a multi-name declaration statement names (0 for anything else or a
/// single name, which the whole-statement removal covers).
fn names_in(s: &Statement) -> usize {
    let n = match s {
        Statement::Decl(Declaration::Temp { vars, .. }) => vars.len(),
        Statement::Decl(Declaration::Address { names }) => names.len(),
        _ => 0,
    };
    if n > 1 {
        n
    } else {
        0
    }
}
