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

/// The result of allocation: the prologue, then the body's items not gone, over physical
/// registers only.
pub struct Allocated {
    /// Instructions to put first (the zeroing of values live at entry), every `Val::V`
    /// replaced by `Val::P`.
    pub prologue: Vec<Item>,
    /// The items, every `Val::V` replaced by `Val::P` in those not gone.
    pub body: Vec<Item>,
    /// Which items of `body` are gone (removed by the passes before allocation, left in
    /// place); the step weight of a gone instruction moves to the next instruction kept.
    pub gone: Vec<bool>,
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
    let mut out = Set::new(nregs);
    while changed {
        changed = false;
        for b in (0..nb).rev() {
            out.0.fill(0);
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

/// Collects the instructions not `gone` and the label positions (in instruction indices).
fn flatten<'a>(items: &'a [Item], gone: &[bool], labels: u32) -> (Vec<&'a VIns>, Vec<usize>) {
    let mut ins = Vec::with_capacity(items.len());
    let mut label_at = vec![usize::MAX; labels as usize];
    for (it, &gone) in items.iter().zip(gone) {
        match it {
            Item::Ins(_) if gone => {}
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

/// Dead-code elimination: marks as gone the pure instructions whose result is never
/// read, whole dead chains included (instructions already gone do not count). Linear:
/// read counts per virtual register; removing an instruction lowers the counts of what it
/// reads, and a register whose count reaches 0 makes its pure definitions dead in turn
/// (worklist). A removed instruction's step weight is to move to the next instruction
/// kept ([`rewrite`] moves it).
fn remove_dead(code: &VCode, gone: &mut [bool]) {
    const NONE: usize = usize::MAX;
    let n = code.vregs as usize;
    let mut reads = vec![0u32; n];
    // The pure definitions of each register as a list through the items: `first_def[v]`,
    // then `next_def[i]` after item `i` (one allocation each, not one per register).
    let mut first_def = vec![NONE; n];
    let mut next_def = vec![NONE; code.items.len()];
    for (i, it) in code.items.iter().enumerate() {
        if gone[i] {
            continue;
        }
        if let Item::Ins(x) = it {
            for u in x.uses() {
                reads[u.0 as usize] += 1;
            }
            if pure(x) {
                if let Some(d) = x.def_reg() {
                    next_def[i] = first_def[d.0 as usize];
                    first_def[d.0 as usize] = i;
                }
            }
        }
    }
    // The instructions found dead do not depend on the order they are found in: a pure
    // definition is dead once its register's read count reaches 0, and counts only fall.
    let mut work: Vec<usize> = (0..n).filter(|&v| reads[v] == 0).collect();
    while let Some(v) = work.pop() {
        let mut i = first_def[v];
        while i != NONE {
            let def = i;
            i = next_def[def];
            if gone[def] {
                continue;
            }
            gone[def] = true;
            if let Item::Ins(x) = &code.items[def] {
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
fn entry_and_intervals(code: &VCode, gone: &[bool], nregs: usize) -> (Vec<u32>, Intervals) {
    let (ins, label_at) = flatten(&code.items, gone, code.labels);
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
///
/// The passes before the rewrite mark the items they remove as gone instead of moving
/// the (large) items that stay; [`rewrite`] leaves the gone items out.
pub fn allocate(mut code: VCode) -> Allocated {
    let mut gone = super::peephole::coalesce_moves(&mut code);
    super::peephole::remove_jumps_to_next(&code, &mut gone);
    remove_dead(&code, &mut gone);
    let nregs = code.vregs as usize;
    let (entry_live, Intervals { start, end }) = entry_and_intervals(&code, &gone, nregs);
    // Zero-initialize values live at entry (TGSI registers start at 0). The moves are
    // made in a list of their own and put in front as `rewrite` copies the items, so the
    // (large) items are not moved once more to make room for them.
    let body = std::mem::replace(&mut code.items, Vec::with_capacity(entry_live.len()));
    for r in &entry_live {
        let z = code.konst(0);
        code.ins("MOV.i32", VDst::V(VReg(*r)), &[z], &[]);
    }
    let prologue = std::mem::replace(&mut code.items, body);
    // Linear scan.
    let mut order: Vec<u32> = (0..nregs as u32)
        .filter(|&r| start[r as usize] != usize::MAX)
        .collect();
    order.sort_by_key(|&r| (start[r as usize], r));
    let mut home: Vec<Option<Home>> = vec![None; nregs];
    let mut free: u64 = (1u64 << ALLOCATABLE) - 1;
    // The intervals holding a register, by end, those with the same end in the order
    // they got it: the first ones expire first, the last one is the spill victim (of
    // those ending last, the one that got its register last).
    let mut active: Vec<u32> = Vec::with_capacity(ALLOCATABLE as usize + 1);
    let mut slots = 0u32;
    for &r in &order {
        let s = start[r as usize];
        let expired = active.partition_point(|&a| end[a as usize] < s);
        for a in active.drain(..expired) {
            if let Some(Home::Reg(p)) = home[a as usize] {
                free |= 1 << p;
            }
        }
        let at = active.partition_point(|&a| end[a as usize] <= end[r as usize]);
        if free != 0 {
            let p = free.trailing_zeros() as u8;
            free &= !(1 << p);
            home[r as usize] = Some(Home::Reg(p));
            active.insert(at, r);
            continue;
        }
        // Spill whichever of the active intervals and this one ends last.
        let victim = active
            .last()
            .copied()
            .filter(|&a| end[a as usize] > end[r as usize]);
        match victim {
            Some(v) => {
                let Some(Home::Reg(p)) = home[v as usize] else {
                    unreachable!()
                };
                home[v as usize] = Some(Home::Spill(slots));
                slots += 1;
                active.pop();
                home[r as usize] = Some(Home::Reg(p));
                // `v` ends after `r`, so it was at or after `at`.
                active.insert(at, r);
            }
            None => {
                home[r as usize] = Some(Home::Spill(slots));
                slots += 1;
            }
        }
    }
    if slots == 0 {
        // No spill code to insert: the items are rewritten where they are.
        let mut prologue = prologue;
        let kept = code.items.iter_mut().zip(&gone).filter(|(_, &g)| !g);
        for it in prologue.iter_mut().chain(kept.map(|(it, _)| it)) {
            if let Item::Ins(x) = it {
                assign_in_place(x, &home);
            }
        }
        return Allocated {
            prologue,
            body: code.items,
            gone,
            spill_slots: 0,
        };
    }
    // Spilled values add reloads and stores; twice the length is room for them as a rule.
    let capacity = 2 * (prologue.len() + code.items.len());
    let prologue = prologue.into_iter().map(|it| (it, false));
    let body = rewrite(
        prologue.chain(code.items.into_iter().zip(gone)),
        capacity,
        &home,
    );
    Allocated {
        prologue: Vec::new(),
        gone: vec![false; body.len()],
        body,
        spill_slots: slots,
    }
}

/// [`rewrite`] of one instruction when no value is spilled: each virtual register becomes
/// its register (a value never live, written but not read, gets the reload register).
fn assign_in_place(x: &mut VIns, home: &[Option<Home>]) {
    let place = |r: VReg| match home[r.0 as usize] {
        Some(Home::Reg(p)) => p,
        Some(Home::Spill(_)) => unreachable!("no value is spilled"),
        None => RELOAD_REG,
    };
    for s in x.srcs.iter_mut() {
        if let Val::V(r) = s.val {
            s.val = Val::P(place(r));
        }
    }
    if let Some(Val::V(r)) = x.staging {
        x.staging = Some(Val::P(place(r)));
    }
    if let VDst::V(r) = x.dst {
        x.dst = VDst::P(place(r));
    }
}

/// Replaces virtual registers by their homes, inserting reloads and spill stores, and
/// leaves out the items marked gone (`(item, gone)`), whose step weight moves to the
/// next instruction kept; `capacity`: room to make for the result.
fn rewrite(
    items: impl Iterator<Item = (Item, bool)>,
    capacity: usize,
    home: &[Option<Home>],
) -> Vec<Item> {
    let mut out = Vec::with_capacity(capacity);
    let spill_off = |slot: u32| slot; // resolved later: `finish` adds the spill base
    let mut carried = 0u32;
    for (it, gone) in items {
        let Item::Ins(mut x) = it else {
            out.push(it);
            continue;
        };
        if gone {
            carried += x.weight;
            continue;
        }
        x.weight += std::mem::take(&mut carried);
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
