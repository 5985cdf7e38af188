//! Register allocation: virtual registers → `r0 … r55` by linear scan over live intervals,
//! with spilling to the invocation's record (thread-local memory) when more values are
//! live than registers exist.
//!
//! * Liveness is computed per basic block (labels start blocks, branches end them) by the
//!   usual backward data-flow iteration; a value's interval spans every position where it
//!   is live (one conservative range, no holes), which is correct for any control flow.
//!   Each thread runs the code as a scalar program (SEMANTICS.md §1.2), so this is the
//!   whole story for SIMT divergence too.
//! * Values live at the entry of the program are TGSI registers read before any write;
//!   TGSI registers start at 0, so they get a `MOV.i32 v, 0` at the top.
//! * When no register is free, the interval ending last is spilled (classic linear scan):
//!   every use reloads it with `LOAD.i32` into one of the reload registers `r56 … r59`, and
//!   every definition writes a reload register and stores it with `STORE.i32`.

use super::abi::{ALLOCATABLE, RECORD_REG, RELOAD_REG};
use super::inline::InlineList;
use super::vcode::{Flow, Item, VCode, VDst, VIns, VReg, VSrc, Val};

/// Where a virtual register ended up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Home {
    Reg(u8),
    Spill(u32),
}

/// The result of allocation: instructions over physical registers only.
pub struct Allocated {
    /// Items with every `Val::V` replaced by `Val::P`.
    pub items: Vec<Item>,
    /// Spill slots used (4 bytes each).
    pub spill_slots: u32,
}

struct Blocks {
    /// Instruction index range of each block (indices into `ins`).
    ranges: Vec<(usize, usize)>,
    succs: Vec<Vec<usize>>,
}

/// Bit set over virtual registers.
#[derive(Clone)]
struct Set(Vec<u64>);

impl Set {
    fn new(n: usize) -> Set {
        Set(vec![0; n.div_ceil(64)])
    }
    fn insert(&mut self, r: VReg) {
        self.0[r.0 as usize / 64] |= 1 << (r.0 % 64);
    }
    fn remove(&mut self, r: VReg) {
        self.0[r.0 as usize / 64] &= !(1 << (r.0 % 64));
    }
    /// The members in ascending order (one step per member, not per bit).
    fn iter(&self) -> impl Iterator<Item = u32> + '_ {
        self.0.iter().enumerate().flat_map(|(w, &bits)| {
            let mut rest = bits;
            std::iter::from_fn(move || {
                (rest != 0).then(|| {
                    let b = rest.trailing_zeros();
                    rest &= rest - 1;
                    w as u32 * 64 + b
                })
            })
        })
    }
}

use super::peephole::is_jump;

/// Splits the instructions into basic blocks. `label_at[l]` = instruction index the label
/// points at.
fn blocks(ins: &[&VIns], label_at: &[usize]) -> Blocks {
    let n = ins.len();
    let mut starts = vec![false; n + 1];
    starts[0] = true;
    for &p in label_at {
        if p <= n {
            starts[p] = true;
        }
    }
    for (i, x) in ins.iter().enumerate() {
        if x.target.is_some() || x.flow == Flow::End {
            starts[i + 1] = true;
        }
    }
    let mut ranges = Vec::new();
    let mut block_of = vec![0usize; n + 1];
    let mut s = 0;
    for (i, &start) in starts.iter().enumerate().skip(1) {
        if start {
            if i > s {
                ranges.push((s, i));
            }
            s = i;
        }
    }
    if s < n {
        ranges.push((s, n));
    }
    for (b, &(s, e)) in ranges.iter().enumerate() {
        for slot in &mut block_of[s..e] {
            *slot = b;
        }
    }
    let mut succs = vec![Vec::new(); ranges.len()];
    for (b, &(_, e)) in ranges.iter().enumerate() {
        let last = ins[e - 1];
        if let Some(t) = last.target {
            let p = label_at[t.0 as usize];
            if p < n {
                succs[b].push(block_of[p]);
            }
        }
        if !is_jump(last) && last.flow != Flow::End && e < n {
            succs[b].push(block_of[e]);
        }
    }
    Blocks { ranges, succs }
}

/// Live-in set of every block.
fn liveness(ins: &[&VIns], bl: &Blocks, nregs: usize) -> Vec<Set> {
    let nb = bl.ranges.len();
    let mut gen = vec![Set::new(nregs); nb];
    let mut kill = vec![Set::new(nregs); nb];
    for (b, &(s, e)) in bl.ranges.iter().enumerate() {
        for x in ins[s..e].iter().rev() {
            if let Some(d) = x.def_reg() {
                if !x.partial_write() {
                    gen[b].remove(d);
                    kill[b].insert(d);
                }
            }
            for u in x.uses() {
                gen[b].insert(u);
            }
        }
    }
    let mut live_in = gen.clone();
    let mut changed = true;
    while changed {
        changed = false;
        for b in (0..nb).rev() {
            let mut out = Set::new(nregs);
            for &s in &bl.succs[b] {
                for (o, i) in out.0.iter_mut().zip(&live_in[s].0) {
                    *o |= i;
                }
            }
            for (w, o) in out.0.iter().enumerate() {
                let v = gen[b].0[w] | (o & !kill[b].0[w]);
                if v != live_in[b].0[w] {
                    live_in[b].0[w] = v;
                    changed = true;
                }
            }
        }
    }
    live_in
}

/// Collects the instructions and the label positions (in instruction indices).
fn flatten(items: &[Item], labels: u32) -> (Vec<&VIns>, Vec<usize>) {
    let mut ins = Vec::new();
    let mut label_at = vec![usize::MAX; labels as usize];
    for it in items {
        match it {
            Item::Ins(i) => ins.push(i),
            Item::Label(l) => label_at[l.0 as usize] = ins.len(),
        }
    }
    (ins, label_at)
}

/// Whether removing `x` changes nothing but its destination: ALU instructions and loads
/// (no memory side effect, no control flow, no cross-lane read) writing a virtual register.
fn pure(x: &VIns) -> bool {
    let alu = x.def.unit.is_alu() && x.target.is_none() && !x.def.name.starts_with("CLPER");
    let load = x.def.name.starts_with("LOAD.");
    (alu || load)
        && x.flow == Flow::None
        && !x.partial_write()
        && matches!(x.dst, VDst::V(_) | VDst::None)
        && x.def_reg().is_some()
}

/// Dead-code elimination: drops pure instructions whose result is never read, whole dead
/// chains included. Linear: read counts per virtual register; removing an instruction
/// lowers the counts of what it reads, and a register whose count reaches 0 makes its
/// pure definitions dead in turn (worklist). A removed instruction's step weight moves to
/// the next instruction kept.
fn remove_dead(code: &mut VCode) {
    let n = code.vregs as usize;
    let mut reads = vec![0u32; n];
    let mut defs: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (i, it) in code.items.iter().enumerate() {
        if let Item::Ins(x) = it {
            for u in x.uses() {
                reads[u.0 as usize] += 1;
            }
            if pure(x) {
                if let Some(d) = x.def_reg() {
                    defs[d.0 as usize].push(i);
                }
            }
        }
    }
    let mut dead = vec![false; code.items.len()];
    let mut work: Vec<usize> = (0..n).filter(|&v| reads[v] == 0).collect();
    while let Some(v) = work.pop() {
        for &i in &defs[v] {
            if dead[i] {
                continue;
            }
            dead[i] = true;
            if let Item::Ins(x) = &code.items[i] {
                for u in x.uses() {
                    let r = &mut reads[u.0 as usize];
                    *r -= 1;
                    if *r == 0 {
                        work.push(u.0 as usize);
                    }
                }
            }
        }
    }
    let mut carried = 0u32;
    let mut kept = Vec::with_capacity(code.items.len());
    for (i, it) in std::mem::take(&mut code.items).into_iter().enumerate() {
        match it {
            Item::Ins(x) if dead[i] => carried += x.weight,
            Item::Ins(mut x) => {
                x.weight += std::mem::take(&mut carried);
                kept.push(Item::Ins(x));
            }
            label => kept.push(label),
        }
    }
    code.items = kept;
}

/// Live interval of every virtual register: `(start, end)` instruction positions, start
/// `usize::MAX` for registers never touched.
struct Intervals {
    start: Vec<usize>,
    end: Vec<usize>,
}

/// Values live at the entry of `code` (ascending) and the live intervals of the code as
/// it is once a `MOV.i32 v, 0` for each of them, in that order, is put in front.
///
/// One liveness pass serves both: the moves define each entry value before any use and
/// nothing branches into them, so every block keeps its live-in set, the moves' own
/// block has none, and positions shift by the number of moves. An entry value is used
/// at or after the first original instruction, so its interval starts at its move and
/// ends where it ended without the moves.
fn entry_and_intervals(code: &VCode, nregs: usize) -> (Vec<u32>, Intervals) {
    let (ins, label_at) = flatten(&code.items, code.labels);
    let mut iv = Intervals {
        start: vec![usize::MAX; nregs],
        end: vec![0usize; nregs],
    };
    if ins.is_empty() {
        return (Vec::new(), iv);
    }
    let bl = blocks(&ins, &label_at);
    let live_in = liveness(&ins, &bl, nregs);
    let entry: Vec<u32> = live_in[0].iter().collect();
    let k = entry.len();
    let mut touch = |r: u32, p: usize| {
        let r = r as usize;
        iv.start[r] = iv.start[r].min(p + k);
        iv.end[r] = iv.end[r].max(p + k);
    };
    for (b, &(s, e)) in bl.ranges.iter().enumerate() {
        for r in live_in[b].iter() {
            touch(r, s);
        }
        for &succ in &bl.succs[b] {
            for r in live_in[succ].iter() {
                touch(r, e - 1);
            }
        }
        for (p, x) in ins.iter().enumerate().take(e).skip(s) {
            for u in x.uses() {
                touch(u.0, p);
            }
            if let Some(d) = x.def_reg() {
                touch(d.0, p);
            }
        }
    }
    for (i, &r) in entry.iter().enumerate() {
        iv.start[r as usize] = i;
    }
    (entry, iv)
}

/// Allocates registers for `code`.
pub fn allocate(mut code: VCode) -> Allocated {
    super::peephole::coalesce_moves(&mut code);
    super::peephole::remove_jumps_to_next(&mut code);
    remove_dead(&mut code);
    let nregs = code.vregs as usize;
    let (entry_live, Intervals { start, end }) = entry_and_intervals(&code, nregs);
    // Zero-initialize values live at entry (TGSI registers start at 0).
    if !entry_live.is_empty() {
        let saved = std::mem::take(&mut code.items);
        for r in &entry_live {
            let z = code.konst(0);
            code.ins("MOV.i32", VDst::V(VReg(*r)), &[z], &[]);
        }
        code.items.extend(saved);
    }
    // Linear scan.
    let mut order: Vec<u32> = (0..nregs as u32)
        .filter(|&r| start[r as usize] != usize::MAX)
        .collect();
    order.sort_by_key(|&r| (start[r as usize], r));
    let mut home: Vec<Option<Home>> = vec![None; nregs];
    let mut free: u64 = (1u64 << ALLOCATABLE) - 1;
    let mut active: Vec<u32> = Vec::new();
    let mut slots = 0u32;
    for &r in &order {
        let s = start[r as usize];
        active.retain(|&a| {
            if end[a as usize] < s {
                if let Some(Home::Reg(p)) = home[a as usize] {
                    free |= 1 << p;
                }
                false
            } else {
                true
            }
        });
        if free != 0 {
            let p = free.trailing_zeros() as u8;
            free &= !(1 << p);
            home[r as usize] = Some(Home::Reg(p));
            active.push(r);
            continue;
        }
        // Spill whichever of the active intervals and this one ends last.
        let victim = active
            .iter()
            .copied()
            .max_by_key(|&a| end[a as usize])
            .filter(|&a| end[a as usize] > end[r as usize]);
        match victim {
            Some(v) => {
                let Some(Home::Reg(p)) = home[v as usize] else {
                    unreachable!()
                };
                home[v as usize] = Some(Home::Spill(slots));
                slots += 1;
                active.retain(|&a| a != v);
                home[r as usize] = Some(Home::Reg(p));
                active.push(r);
            }
            None => {
                home[r as usize] = Some(Home::Spill(slots));
                slots += 1;
            }
        }
    }
    let items = rewrite(code.items, &home);
    Allocated {
        items,
        spill_slots: slots,
    }
}

/// Replaces virtual registers by their homes, inserting reloads and spill stores.
fn rewrite(items: Vec<Item>, home: &[Option<Home>]) -> Vec<Item> {
    let mut out = Vec::with_capacity(items.len());
    let spill_off = |slot: u32| slot; // resolved later: `finish` adds the spill base
    for it in items {
        let Item::Ins(mut x) = it else {
            out.push(it);
            continue;
        };
        let mut next_reload = 0u8;
        let mut reload = |v: &mut Val, out: &mut Vec<Item>, write_only: bool| {
            let Val::V(r) = *v else { return None };
            match home[r.0 as usize] {
                Some(Home::Reg(p)) => {
                    *v = Val::P(p);
                    None
                }
                Some(Home::Spill(slot)) => {
                    let p = RELOAD_REG + next_reload.min(3);
                    next_reload += 1;
                    if !write_only {
                        out.push(Item::Ins(spill_access("LOAD.i32", p, spill_off(slot))));
                    }
                    *v = Val::P(p);
                    Some((p, slot))
                }
                None => {
                    *v = Val::P(RELOAD_REG);
                    None
                }
            }
        };
        let staging_write = x.def.staging.first().is_some_and(|s| s.write);
        for s in x.srcs.iter_mut() {
            reload(&mut s.val, &mut out, false);
        }
        let mut store_after = None;
        if let Some(mut st) = x.staging {
            let r = reload(&mut st, &mut out, staging_write);
            if staging_write {
                store_after = r;
            }
            x.staging = Some(st);
        }
        if let VDst::V(r) = x.dst {
            match home[r.0 as usize] {
                Some(Home::Reg(p)) => x.dst = VDst::P(p),
                Some(Home::Spill(slot)) => {
                    // A partial write needs the old value in the register first.
                    if x.partial_write() {
                        out.push(Item::Ins(spill_access("LOAD.i32", RELOAD_REG, slot)));
                    }
                    x.dst = VDst::P(RELOAD_REG);
                    store_after = Some((RELOAD_REG, slot));
                }
                None => x.dst = VDst::P(RELOAD_REG),
            }
        }
        out.push(Item::Ins(x));
        if let Some((p, slot)) = store_after {
            out.push(Item::Ins(spill_access("STORE.i32", p, slot)));
        }
    }
    out
}

/// A reload or spill store of slot `slot` through register `p`. The immediate offset holds
/// the slot number until `finish` knows the spill area's base.
fn spill_access(name: &str, p: u8, slot: u32) -> VIns {
    let def = crate::isa()
        .instruction(name)
        .expect("ISA.xml has LOAD.i32/STORE.i32");
    let mut mods: Vec<(&'static str, &'static str)> =
        vec![("slot", "slot0"), ("memory_access", "force")];
    if name == "LOAD.i32" {
        mods.push(("unsigned", ""));
    }
    VIns {
        def,
        dst: VDst::None,
        mask: crate::WriteMask::Full,
        srcs: InlineList::from_slice(&[VSrc::new(Val::P(RECORD_REG))]),
        staging: Some(Val::P(p)),
        imms: InlineList::from_slice(&[i64::from(slot)]),
        mods,
        flow: Flow::None,
        target: None,
        weight: 0,
        runs: Vec::new(),
        site: None,
    }
    .spill_marked()
}

trait SpillMark {
    fn spill_marked(self) -> Self;
}

impl SpillMark for VIns {
    /// Spill accesses carry the flow [`Flow::Spill`] until `finish` rewrites their offset.
    fn spill_marked(mut self) -> VIns {
        self.flow = Flow::Spill;
        self
    }
}
