//! Atomic memory instructions `ATOM`, `ATOM_RETURN`, `ATOM1_RETURN` (`.i32` / `.i64`,
//! SEMANTICS.md §8): resolution and execution. The operations themselves are
//! [`super::assume::atomic`].

use super::assume::{self, Atomic};
use super::exec::{Env, Warp};
use super::memory::Memory;
use super::op::{Op, Val};
use super::resolve::Res;
use super::{MemEvent, SimError};

/// Resolves an `ATOM*` instruction.
pub(crate) fn resolve_atomic(r: &Res<'_>) -> Result<Op, SimError> {
    let name = r.name();
    let bits = if name.ends_with(".i64") { 64 } else { 32 };
    let words = (bits / 32) as u8;
    let with_one = name.starts_with("ATOM1");
    let op = if with_one {
        match r.need_text("atom_opc_1")? {
            "ainc" => Atomic::Inc,
            "adec" => Atomic::Dec,
            "aumax1" => Atomic::Umax1,
            "asmax1" => Atomic::Smax1,
            "aor1" => Atomic::Or1,
            t => return Err(r.unsupported(format!("atomic .{t}"))),
        }
    } else {
        let compare = r.flag("compare");
        match (r.need_text("atom_opc")?, compare) {
            ("aadd", false) => Atomic::Add,
            ("asmin", false) => Atomic::Smin,
            ("asmax", false) => Atomic::Smax,
            ("aumin", false) => Atomic::Umin,
            ("aumax", false) => Atomic::Umax,
            ("aand", false) => Atomic::And,
            ("aor", false) => Atomic::Or,
            ("axor", false) => Atomic::Xor,
            ("axchg", false) => Atomic::Xchg,
            ("axchg", true) => Atomic::CmpXchg,
            (t, _) => {
                return Err(r.unsupported(format!(
                    "atomic .{t}{}",
                    if compare { " with .compare" } else { "" }
                )))
            }
        }
    };
    let returns = name.starts_with("ATOM_RETURN") || with_one;
    if op == Atomic::Xchg && !returns {
        return Err(r.unsupported("axchg must return the value"));
    }
    // Staging runs in `<sr>` order: ATOM [read]; ATOM_RETURN [write, read];
    // ATOM1_RETURN [write].
    let runs = &r.instr.staging;
    let defs = &r.def.staging;
    let mut src = 0;
    let mut ret = None;
    for (run, def) in runs.iter().zip(defs) {
        let need = if def.write {
            if with_one && run.count == 0 {
                continue;
            }
            words
        } else if op == Atomic::CmpXchg {
            2 * words
        } else {
            words
        };
        if run.count != need || u32::from(run.base) + u32::from(run.count) > 64 {
            return Err(r.unsupported(format!(
                "staging run of {} registers (need {need})",
                run.count
            )));
        }
        if def.write {
            ret = Some(run.base);
        } else {
            src = run.base;
        }
    }
    if runs.len() != defs.len() {
        return Err(r.unsupported("missing staging run"));
    }
    Ok(Op::Atom {
        op,
        bits,
        addr: r.pair(0)?,
        offset: r.imm(0)?,
        src,
        ret,
    })
}

impl Warp<'_> {
    /// Runs an atomic for the active lanes, one after the other in
    /// [`Env::atomic_lane_order`], logging each when the instruction is traced.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn atomic(
        &mut self,
        env: &mut Env<'_>,
        (op, bits): (Atomic, u32),
        addr: [Val; 2],
        offset: i64,
        (src, ret): (u8, Option<u8>),
        active: u16,
        (index, first_thread): (usize, usize),
    ) -> Result<(), SimError> {
        let lo = self.get(addr[0]);
        let hi = self.get(addr[1]);
        let bytes = bits / 8;
        let words = (bits / 32) as u8;
        let traced = env.traced(index);
        for l in env.atomic_lane_order() {
            let l = l as usize;
            let mem: &mut Memory = &mut *env.memory;
            if active >> l & 1 == 0 {
                continue;
            }
            let a = (u64::from(hi[l]) << 32 | u64::from(lo[l])).wrapping_add(offset as u64);
            let fault = SimError::MemoryFault {
                index,
                thread: first_thread + l,
                address: a,
                bytes,
            };
            let reg =
                |w: &Self, base: u8, i: u8| u64::from(w.regs[usize::from((base + i) & 63)][l]);
            let value = |w: &Self, base: u8| {
                (0..words).fold(0u64, |acc, i| acc | reg(w, base, i) << (32 * u32::from(i)))
            };
            let v = value(self, src);
            let cmp = value(self, src.wrapping_add(words));
            let old_bytes = mem.read(a, bytes as usize).ok_or(fault.clone())?;
            let mut raw = [0u8; 8];
            raw[..old_bytes.len()].copy_from_slice(old_bytes);
            let old = u64::from_le_bytes(raw);
            let new = assume::atomic(op, old, v, cmp, bits);
            if !mem.write(a, &new.to_le_bytes()[..bytes as usize]) {
                return Err(fault);
            }
            if traced {
                env.events.push(MemEvent {
                    thread: first_thread + l,
                    index,
                    address: a,
                    op: Some(op),
                    value: v,
                    compare: cmp,
                    old,
                    sideband: self.regs[usize::from(env.sideband & 63)][l],
                });
            }
            if let Some(base) = ret {
                for i in 0..words {
                    self.regs[usize::from((base + i) & 63)][l] =
                        (old >> (32 * u32::from(i))) as u32;
                }
            }
        }
        Ok(())
    }
}
