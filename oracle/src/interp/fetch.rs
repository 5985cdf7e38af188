//! Operand fetch and result store (tgsi.rst "Source Modifiers", "Other Modifiers",
//! "Array Declaration"; EXEC-NOTES.md §1 operand fetch, without its lane-0 destination bug).
//!
//! Fetch: per lane, resolve the register (indirect indices use each lane's own address
//! register value), read the component `swizzle[c]` for channel c, then apply absolute
//! value and negation according to the opcode's [`FetchType`]. Store: saturate, then
//! write the writemask channels of the executing lanes.

use shaderdiff_model::Saturate;

use super::decode::{AddrRef, Decoded, IndirectRef, Loc, SrcOp};
use super::lanes::{FetchType, Mask, Plane, Vals, LANES};
use super::layout::Storage;
use super::state::{blend, Regs};
use crate::io::Vec4;

/// Slot marker for "out of bounds" in a resolved indirect operand.
pub(crate) const NO_SLOT: u32 = u32::MAX;

/// Result of resolving an indirect operand for every lane of a chunk.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Resolved {
    /// Lanes whose effective index is out of bounds.
    pub oob: Mask,
    /// Lanes whose address register value is undefined.
    pub addr_und: Mask,
}

/// One address register channel viewed per lane.
enum AddrSrc<'a> {
    Zero,
    Uniform(i64),
    Lane(&'a Plane),
}

impl AddrSrc<'_> {
    #[inline]
    fn at(&self, l: usize) -> i64 {
        match self {
            AddrSrc::Zero => 0,
            AddrSrc::Uniform(v) => *v,
            AddrSrc::Lane(p) => p[l] as i32 as i64,
        }
    }
}

impl Regs {
    fn addr_src<'r>(&'r self, uniform: &[Vec4], a: Option<AddrRef>) -> (AddrSrc<'r>, Mask) {
        match a {
            None => (AddrSrc::Zero, 0),
            Some(AddrRef { loc, comp }) => match loc {
                Loc::Lane(s) => (
                    AddrSrc::Lane(&self.vals[s as usize][comp as usize]),
                    self.und[s as usize][comp as usize],
                ),
                Loc::Uniform(s) => (
                    AddrSrc::Uniform(uniform[s as usize][comp as usize] as i32 as i64),
                    0,
                ),
                Loc::Null | Loc::Indirect(_) => (AddrSrc::Zero, 0),
            },
        }
    }

    /// Resolves `ind` for every lane into `slots` (storage slots, or [`NO_SLOT`]).
    pub fn resolve(
        &self,
        d: &Decoded,
        uniform: &[Vec4],
        ind: &IndirectRef,
        slots: &mut [u32; LANES],
    ) -> Resolved {
        let Some(space) = ind.space.map(|s| &d.layout.spaces[s]) else {
            slots.fill(NO_SLOT);
            return Resolved {
                oob: !0,
                addr_und: 0,
            };
        };
        let (da, du) = self.addr_src(uniform, ind.dim_addr);
        let (ia, iu) = self.addr_src(uniform, ind.index_addr);
        let mut oob = 0;
        for (l, slot) in slots.iter_mut().enumerate() {
            let dim = ind.dim + da.at(l);
            let index = ind.index + ia.at(l);
            *slot = match space.bounded_slot(dim, index, ind.range) {
                Some(s) => s,
                None => {
                    oob |= 1 << l;
                    NO_SLOT
                }
            };
        }
        Resolved {
            oob,
            addr_und: du | iu,
        }
    }

    /// Fetches the channels of `src` selected by `chans` into `out`, their undefined bits
    /// into `und`. Returns the lanes whose address register was undefined (the caller
    /// makes executing ones unconstrained).
    #[allow(clippy::too_many_arguments)]
    pub fn fetch(
        &self,
        d: &Decoded,
        uniform: &[Vec4],
        src: &SrcOp,
        chans: u8,
        out: &mut Vals,
        und: &mut [Mask; 4],
        slots: &mut [u32; LANES],
    ) -> Mask {
        let mut addr_und = 0;
        match src.loc {
            Loc::Lane(s) => {
                let (v, u) = (&self.vals[s as usize], &self.und[s as usize]);
                for c in channels(chans) {
                    let comp = src.swizzle[c] as usize;
                    out[c] = v[comp];
                    und[c] = u[comp];
                }
            }
            Loc::Uniform(s) => {
                for c in channels(chans) {
                    out[c] = [uniform[s as usize][src.swizzle[c] as usize]; LANES];
                    und[c] = 0;
                }
            }
            Loc::Indirect(i) => {
                let ind = &d.indirects[i as usize];
                let r = self.resolve(d, uniform, ind, slots);
                addr_und = r.addr_und;
                let lane_storage = ind
                    .space
                    .is_some_and(|s| d.layout.spaces[s].storage == Storage::Lane);
                for c in channels(chans) {
                    let comp = src.swizzle[c] as usize;
                    let mut u = r.oob | r.addr_und;
                    for (l, &slot) in slots.iter().enumerate() {
                        out[c][l] = if slot == NO_SLOT {
                            0
                        } else if lane_storage {
                            u |= self.und[slot as usize][comp] & (1 << l);
                            self.vals[slot as usize][comp][l]
                        } else {
                            uniform[slot as usize][comp]
                        };
                    }
                    und[c] = u;
                }
            }
            Loc::Null => {
                for c in channels(chans) {
                    out[c] = [0; LANES];
                    und[c] = !0;
                }
            }
        }
        if src.abs || src.neg {
            for c in channels(chans) {
                apply_modifiers(&mut out[c], src.abs, src.neg, src.ty);
            }
        }
        addr_und
    }

    /// Stores the `writemask` channels of `vals` (undefined bits `und`) into `dst` for the
    /// lanes in `exec`. Returns the executing lanes made unconstrained (out-of-bounds
    /// indirect index or undefined address).
    #[allow(clippy::too_many_arguments)]
    pub fn store(
        &mut self,
        d: &Decoded,
        uniform: &[Vec4],
        dst: Loc,
        writemask: u8,
        vals: &Vals,
        und: &[Mask; 4],
        exec: Mask,
        slots: &mut [u32; LANES],
    ) -> Mask {
        match dst {
            Loc::Null | Loc::Uniform(_) => 0,
            Loc::Lane(s) => {
                let (v, u) = (&mut self.vals[s as usize], &mut self.und[s as usize]);
                for c in channels(writemask) {
                    blend(&mut v[c], &vals[c], exec);
                    u[c] = (u[c] & !exec) | (und[c] & exec);
                }
                0
            }
            Loc::Indirect(i) => {
                let r = self.resolve(d, uniform, &d.indirects[i as usize], slots);
                let mut m = exec & !r.oob;
                while m != 0 {
                    let l = m.trailing_zeros() as usize;
                    m &= m - 1;
                    let slot = slots[l] as usize;
                    for c in channels(writemask) {
                        self.vals[slot][c][l] = vals[c][l];
                        let bit = 1u64 << l;
                        self.und[slot][c] = (self.und[slot][c] & !bit) | (und[c] & bit);
                    }
                }
                exec & (r.oob | r.addr_und)
            }
        }
    }
}

/// Channel indices set in `mask`.
#[inline]
pub(crate) fn channels(mask: u8) -> impl Iterator<Item = usize> {
    (0..4).filter(move |c| mask >> c & 1 != 0)
}

/// tgsi.rst "Source Modifiers": absolute value, then negation. Float: clear / flip bit 31;
/// Int: two's complement (EXEC-NOTES.md §1).
pub(crate) fn apply_modifiers(p: &mut Plane, abs: bool, neg: bool, ty: FetchType) {
    match ty {
        FetchType::Float => {
            let and = if abs { 0x7FFF_FFFF } else { !0 };
            let xor = if neg { 0x8000_0000 } else { 0 };
            for v in p.iter_mut() {
                *v = (*v & and) ^ xor;
            }
        }
        FetchType::Int => {
            for v in p.iter_mut() {
                let mut x = *v as i32;
                if abs {
                    x = x.wrapping_abs();
                }
                if neg {
                    x = x.wrapping_neg();
                }
                *v = x as u32;
            }
        }
    }
}

/// Applies `_SAT` / `.SSAT` to the `writemask` channels of `vals`; returns per channel the
/// lanes whose clamped value is undefined (NaN under signed saturation).
///
/// `_SAT` (tgsi.rst "Other Modifiers"): the 32-bit word as a float clamped to [0, 1]; NaN
/// gives +0.0 (EXEC-NOTES.md §2) and -0.0 gives +0.0. `.SSAT` (NV_gpu_program4 §2.X.4.1)
/// clamps to [-1, 1]; the NV specification does not say what NaN gives, so the 0.0 it
/// produces is marked undefined.
pub(crate) fn saturate(vals: &mut Vals, writemask: u8, sat: Saturate) -> [Mask; 4] {
    let mut und = [0; 4];
    let lo = match sat {
        Saturate::None => return und,
        Saturate::Zero => 0.0f32,
        Saturate::Signed => -1.0f32,
    };
    for c in channels(writemask) {
        for (l, v) in vals[c].iter_mut().enumerate() {
            let f = f32::from_bits(*v);
            let r = if f.is_nan() {
                if sat == Saturate::Signed {
                    und[c] |= 1 << l;
                }
                0.0
            } else if f > 1.0 {
                1.0
            } else if f > lo {
                f
            } else if lo == 0.0 {
                0.0
            } else {
                lo
            };
            // -0.0 under _SAT compares equal to 0.0 and falls through to `f`: make it +0.0.
            *v = if lo == 0.0 && r == 0.0 {
                0
            } else {
                r.to_bits()
            };
        }
    }
    und
}
