//! The last compiler pass: flow annotations, branch offsets, and encoding.
//!
//! * `.wait0` on the instruction after a run of LOADs (every load uses slot 0;
//!   SEMANTICS.md §1 "Dependency slots"); the simulator completes messages synchronously,
//!   but the code stays correct for hardware that does not.
//! * `.reconverge` on every conditional branch and on the instruction before every branch
//!   target (ISA.xml `Flow` enum description); a `NOP` carries it when the flow field is
//!   taken.
//! * Branch offsets in instructions relative to the next one (ISA.xml BRANCHZ).
//! * Each instruction becomes an [`Instr`] and is encoded; an encoding failure is a
//!   compiler bug reported as [`CompileError::Internal`].

use super::texts::TextCache;
use super::vcode::{Flow, Item, VDst, VIns, Val};
use super::CompileError;
use crate::isa::ModKind;
use crate::{isa, Dest, Instr, Source, SrcValue, StagingRun};

/// Encoded program: words and per-instruction step weights.
pub struct Finished {
    /// Machine words.
    pub words: Vec<u64>,
    /// Step weight per instruction.
    pub weights: Vec<u32>,
    /// Instructions with a role in the access log: (instruction index, role).
    pub sites: Vec<(u32, super::memory::Site)>,
}

fn nop(flow: Flow) -> VIns {
    VIns {
        def: isa().instruction("NOP").expect("ISA.xml has NOP"),
        dst: VDst::None,
        mask: crate::WriteMask::Full,
        srcs: Default::default(),
        staging: None,
        imms: Default::default(),
        mods: vec![],
        flow,
        target: None,
        weight: 0,
        runs: Vec::new(),
        site: None,
    }
}

fn is_load(x: &VIns) -> bool {
    x.def.staging.first().is_some_and(|s| s.write)
}

fn item_mut(item: &mut Item) -> Result<&mut VIns, super::vcode::Label> {
    match item {
        Item::Ins(x) => Ok(x),
        Item::Label(l) => Err(*l),
    }
}

/// Where an instruction of the finished program is: an item of the allocated code (the
/// prologue's or the body's, by index; the items are not moved) or an added NOP.
#[derive(Clone, Copy)]
enum Slot {
    Prologue(usize),
    Body(usize),
    Nop(usize),
}

/// The instructions of the program being finished, in place.
struct Code {
    prologue: Vec<Item>,
    body: Vec<Item>,
    nops: Vec<VIns>,
}

impl Code {
    fn ins(&self, at: Slot) -> &VIns {
        let item = match at {
            Slot::Prologue(i) => &self.prologue[i],
            Slot::Body(i) => &self.body[i],
            Slot::Nop(i) => return &self.nops[i],
        };
        match item {
            Item::Ins(x) => x,
            Item::Label(_) => unreachable!("slots name instructions"),
        }
    }

    fn ins_mut(&mut self, at: Slot) -> &mut VIns {
        let item = match at {
            Slot::Prologue(i) => &mut self.prologue[i],
            Slot::Body(i) => &mut self.body[i],
            Slot::Nop(i) => return &mut self.nops[i],
        };
        match item {
            Item::Ins(x) => x,
            Item::Label(_) => unreachable!("slots name instructions"),
        }
    }

    /// The instruction at a prologue or body slot, or the label there.
    fn ins_or_label(&mut self, at: Slot) -> Result<&mut VIns, super::vcode::Label> {
        match at {
            Slot::Prologue(i) => item_mut(&mut self.prologue[i]),
            Slot::Body(i) => item_mut(&mut self.body[i]),
            Slot::Nop(i) => Ok(&mut self.nops[i]),
        }
    }

    /// Appends `nop` to `out`.
    fn push_nop(&mut self, out: &mut Vec<Slot>, nop: VIns) {
        out.push(Slot::Nop(self.nops.len()));
        self.nops.push(nop);
    }

    /// Sets the flow of the instruction at the end of `out` to `flow`, or appends a NOP
    /// with it when that instruction already has another flow.
    fn add_flow(&mut self, out: &mut Vec<Slot>, flow: Flow) {
        match out.last().map(|&at| self.ins_mut(at)) {
            Some(x) if x.flow == Flow::None => x.flow = flow,
            Some(x) if x.flow == flow => {}
            _ => self.push_nop(out, nop(flow)),
        }
    }
}

/// Finishes the allocated code: `alloc.prologue`, then the items of `alloc.body` not
/// marked gone in `alloc.gone` (physical registers only; a gone instruction's step weight
/// moves to the next instruction kept). `spill_base`: byte offset of spill slot 0;
/// `fault`: the injected fault and the number of CONST uniform words, for the encoder
/// faults ([`super::encode_fault`]).
pub fn finish(
    alloc: super::regalloc::Allocated,
    labels: u32,
    spill_base: u32,
    fault: Option<(crate::faults::Fault, u32)>,
) -> Result<Finished, CompileError> {
    let gone = alloc.gone;
    let mut code = Code {
        prologue: alloc.prologue,
        body: alloc.body,
        nops: Vec::new(),
    };
    // Which labels are branch targets.
    let mut targeted = vec![false; labels as usize];
    let kept = code.body.iter().zip(&gone).filter(|(_, &g)| !g);
    for it in code.prologue.iter().chain(kept.map(|(it, _)| it)) {
        if let Item::Ins(VIns {
            target: Some(t), ..
        }) = it
        {
            targeted[t.0 as usize] = true;
        }
    }
    let slots = (0..code.prologue.len())
        .map(Slot::Prologue)
        .chain((0..code.body.len()).map(Slot::Body));
    let mut out: Vec<Slot> = Vec::with_capacity(code.prologue.len() + code.body.len() + 16);
    let mut label_at = vec![0usize; labels as usize];
    let mut pending_wait = false;
    let mut carried = 0u32;
    for at in slots {
        let x = match code.ins_or_label(at) {
            Err(l) => {
                if targeted[l.0 as usize] && !out.is_empty() {
                    if pending_wait {
                        code.add_flow(&mut out, Flow::Wait0);
                        pending_wait = false;
                        code.push_nop(&mut out, nop(Flow::Reconverge));
                    } else {
                        code.add_flow(&mut out, Flow::Reconverge);
                    }
                }
                label_at[l.0 as usize] = out.len();
                continue;
            }
            Ok(x) => x,
        };
        if matches!(at, Slot::Body(i) if gone[i]) {
            carried += x.weight;
            continue;
        }
        x.weight += std::mem::take(&mut carried);
        if x.flow == Flow::Spill {
            x.flow = Flow::None;
            x.imms[0] = i64::from(spill_base) + 4 * x.imms[0];
        }
        let load = is_load(x);
        // A `.wait0` NOP before the instruction when its flow field is taken.
        let mut wait_before = false;
        if pending_wait && !load {
            if x.flow == Flow::None {
                x.flow = Flow::Wait0;
            } else {
                wait_before = true;
            }
            pending_wait = false;
        }
        let conditional =
            x.target.is_some() && !matches!(x.srcs[0].val, Val::Fau(SrcValue::Imm(1)));
        // A conditional branch's `.wait0` moves to a NOP before it, with its weight.
        let mut moved_wait = None;
        if conditional {
            if x.flow == Flow::Wait0 {
                moved_wait = Some(std::mem::take(&mut x.weight));
            }
            x.flow = Flow::Reconverge;
        }
        if wait_before {
            code.push_nop(&mut out, nop(Flow::Wait0));
        }
        if let Some(weight) = moved_wait {
            let mut w = nop(Flow::Wait0);
            w.weight = weight;
            code.push_nop(&mut out, w);
        }
        out.push(at);
        pending_wait |= load;
    }
    if pending_wait {
        code.add_flow(&mut out, Flow::Wait0);
    }
    let isa = isa();
    // The `Flow` enum index of each flow value, looked up once.
    let flows = Flow::ALL.map(|f| isa.enums[isa.flow].find(f.text(), 16).map(|v| v as u8));
    let mut words = Vec::with_capacity(out.len());
    let mut weights = Vec::with_capacity(out.len());
    let mut sites = Vec::new();
    // One instruction buffer serves every word (its lists keep their storage).
    let mut ins = Instr::with_defaults(nop(Flow::None).def);
    let mut texts = TextCache::default();
    for (i, x) in out.iter().map(|&at| code.ins(at)).enumerate() {
        if let Some(site) = x.site {
            sites.push((i as u32, site));
        }
        to_instr(x, &mut ins, &mut texts)?;
        if let Some(t) = x.target {
            ins.imms[0] = label_at[t.0 as usize] as i64 - (i as i64 + 1);
        }
        ins.flow = flows[x.flow as usize]
            .ok_or_else(|| CompileError::Internal(format!("flow {}", x.flow.text())))?;
        if let Some((f, const_words)) = fault {
            super::encode_fault::apply(f, const_words, &mut ins);
        }
        let word = crate::encode(&ins)
            .map_err(|e| CompileError::Internal(format!("cannot encode `{ins}`: {e}")))?;
        words.push(word);
        weights.push(x.weight);
    }
    Ok(Finished {
        words,
        weights,
        sites,
    })
}

fn src_value(v: Val) -> Result<SrcValue, CompileError> {
    match v {
        Val::P(reg) => Ok(SrcValue::Reg {
            reg,
            discard: false,
        }),
        Val::Fau(f) => Ok(f),
        Val::V(_) => Err(CompileError::Internal(
            "unallocated virtual register".into(),
        )),
    }
}

/// One instruction over physical registers as an [`Instr`], written into `ins`.
fn to_instr(x: &VIns, ins: &mut Instr, texts: &mut TextCache) -> Result<(), CompileError> {
    let isa = isa();
    let def = x.def;
    // The definition's defaults, but for the sources, which are pushed below.
    ins.reset_to_defaults(def);
    ins.srcs.clear();
    ins.dest = match x.dst {
        VDst::P(reg) => Some(Dest { reg, mask: x.mask }),
        VDst::None => None,
        VDst::V(_) => return Err(CompileError::Internal("unallocated destination".into())),
    };
    if let (Some(st), Some(run)) = (x.staging, ins.staging.first_mut()) {
        let Val::P(base) = st else {
            return Err(CompileError::Internal(
                "unallocated staging register".into(),
            ));
        };
        *run = StagingRun { base, count: 1 };
    }
    for (k, run) in x.runs.iter().enumerate() {
        if let Some(r) = ins.staging.get_mut(k) {
            *r = *run;
        }
    }
    for (k, s) in x.srcs.iter().enumerate() {
        let sd = &def.srcs[k];
        let mut src = Source::new(src_value(s.val)?);
        src.neg = s.neg;
        src.abs = s.abs;
        src.not = s.not;
        // Fill every selection field at its default, then the named one.
        let mut pick = |e: usize, text: Option<&'static str>| -> Result<u8, CompileError> {
            let en = &isa.enums[e];
            match text {
                None => Ok(en.default.unwrap_or(0) as u8),
                Some(t) => texts
                    .get(2 * e + 1, t, "", || en.find(t, 16).map(|v| v as u32))
                    .map(|v| v as u8)
                    .ok_or_else(|| {
                        CompileError::Internal(format!("{}: no `{t}` in {}", def.name, en.name))
                    }),
            }
        };
        if let Some(f) = sd.swizzle {
            src.swizzle = Some(pick(f.enum_id, s.sel)?);
        }
        if let Some((_, f)) = sd.widen {
            src.widen = Some(pick(f.enum_id, s.sel)?);
        }
        if let Some(f) = sd.lane {
            src.lane = Some(pick(f.enum_id, s.sel)?);
        }
        if let Some(f) = sd.combine {
            src.combine = Some(pick(f.enum_id, None)?);
        }
        ins.srcs.push(src);
    }
    // Sources the instruction does not give stay `r0` (as `with_defaults` has them).
    for _ in x.srcs.len()..def.srcs.len() {
        ins.srcs.push(Source::reg(0));
    }
    for (k, &v) in x.imms.iter().enumerate() {
        ins.imms[k] = v;
    }
    for &(name, text) in &x.mods {
        // (modifier index << 16) | value.
        let found = texts.get(2 * usize::from(def.id.0), name, text, || {
            let i = def.modifiers.iter().position(|m| m.name == name)?;
            let v = match def.modifiers[i].kind {
                ModKind::Flag => 1,
                ModKind::Enum(e) => isa.enums[e].find(text, 64)? as u32,
            };
            Some((i as u32) << 16 | v)
        });
        let Some(found) = found else {
            return Err(modifier_error(def, name, text));
        };
        ins.modifiers[(found >> 16) as usize] = found & 0xffff;
    }
    Ok(())
}

/// Why modifier `name` with value `text` does not resolve for `def`.
fn modifier_error(def: &crate::isa::InsDef, name: &str, text: &str) -> CompileError {
    if def.modifiers.iter().any(|m| m.name == name) {
        CompileError::Internal(format!("{}.{name}: no value {text}", def.name))
    } else {
        CompileError::Internal(format!("{} has no modifier {name}", def.name))
    }
}
