//! Copy coalescing before register allocation: the lowering computes every channel of a
//! TGSI instruction into a fresh virtual register and then moves it into the register's
//! virtual register (sources may alias the destination). When nothing between the value's
//! definition and the move touches the destination, the definition writes the destination
//! directly and the move goes away.

use super::vcode::{Flow, Item, VCode, VDst, VIns, Val};

fn plain_move(x: &VIns) -> Option<(u32, u32)> {
    if x.def.name != "MOV.i32" || x.partial_write() || x.flow != Flow::None {
        return None;
    }
    let s = x.srcs.first()?;
    match (x.dst, s.val) {
        (VDst::V(d), Val::V(r)) if !s.neg && !s.abs && s.sel.is_none() => Some((d.0, r.0)),
        _ => None,
    }
}

/// Coalesces `MOV d, s` into the instruction defining `s` where that is safe (see the
/// module docs). Returns which items are gone: the coalesced moves, whose step weight
/// went to the definition. The items stay in place (they are large; `regalloc` drops
/// them as it rewrites the items).
pub fn coalesce_moves(code: &mut VCode) -> Vec<bool> {
    let n = code.vregs as usize;
    let mut uses = vec![0u32; n];
    let mut defs = vec![0u32; n];
    for it in &code.items {
        if let Item::Ins(x) = it {
            for u in x.uses() {
                uses[u.0 as usize] += 1;
            }
            if let Some(d) = x.def_reg() {
                defs[d.0 as usize] += 1;
            }
        }
    }
    let mut remove = vec![false; code.items.len()];
    for j in 0..code.items.len() {
        let Item::Ins(mv) = &code.items[j] else {
            continue;
        };
        let Some((d, s)) = plain_move(mv) else {
            continue;
        };
        if uses[s as usize] != 1 || defs[s as usize] != 1 || d == s {
            continue;
        }
        // Walk back to the definition of s in the same block.
        let mut i = j;
        let mut ok = false;
        while i > 0 {
            i -= 1;
            match &code.items[i] {
                Item::Label(_) => break,
                Item::Ins(_) if remove[i] => {}
                Item::Ins(x) => {
                    if x.dst == VDst::V(super::vcode::VReg(s)) {
                        ok = !x.partial_write() && x.target.is_none();
                        break;
                    }
                    let touches =
                        x.uses().iter().any(|u| u.0 == d) || x.def_reg().is_some_and(|r| r.0 == d);
                    if touches || x.target.is_some() || x.flow == Flow::End {
                        break;
                    }
                }
            }
        }
        if !ok {
            continue;
        }
        // The move's step weight goes to the definition: same block, so executed exactly
        // when the move was.
        let weight = match &mut code.items[j] {
            Item::Ins(x) => std::mem::take(&mut x.weight),
            _ => 0,
        };
        if let Item::Ins(x) = &mut code.items[i] {
            x.dst = VDst::V(super::vcode::VReg(d));
            x.weight += weight;
        }
        remove[j] = true;
    }
    remove
}

/// Marks as gone the unconditional jumps to the label right after them (only labels,
/// and items already gone, in between): END at the end of the main program, ELSE
/// branches of empty else-blocks. Their step weight is to move to the next instruction
/// kept (`regalloc::rewrite` moves it).
pub fn remove_jumps_to_next(code: &VCode, gone: &mut [bool]) {
    let items = &code.items;
    for j in 0..items.len() {
        let Item::Ins(x) = &items[j] else { continue };
        if gone[j] || !is_jump(x) {
            continue;
        }
        let t = x.target.expect("a jump has a target");
        gone[j] = (j + 1..items.len())
            .filter(|&k| !gone[k])
            .map(|k| &items[k])
            .take_while(|n| matches!(n, Item::Label(_)))
            .any(|n| matches!(n, Item::Label(l) if *l == t));
    }
}

/// An unconditional jump: BRANCHZ on the immediate −1 without `.eq` (VCode::jump).
pub fn is_jump(x: &VIns) -> bool {
    x.target.is_some()
        && !x.mods.iter().any(|(n, _)| *n == "eq")
        && matches!(
            x.srcs.first().map(|s| s.val),
            Some(Val::Fau(crate::SrcValue::Imm(1)))
        )
}
