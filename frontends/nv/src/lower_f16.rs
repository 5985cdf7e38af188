//! 16-bit floats: CVT to and from F16 (NV_gpu_program5 §2.X.8.Z CVT) and the F16, F16X2,
//! F16X4 storage modifiers of LOAD / STORE and the other memory instructions
//! (NV_gpu_program5_mem_extended §2.X.4.5 BufferMemoryLoad / BufferMemoryStore).
//!
//! Register form. § CVT: "A storage modifier of F16 indicates a source or destination that
//! is treated as having a floating-point type, but whose sixteen least significant bits
//! describe a 16-bit floating-point value" (IEEE binary16, §2.1.2). A CVT to F16 writes the
//! binary16 bits in the low 16 bits of each result component and 0 in the high 16 (the spec
//! gives them no value; 0 is the lowering's choice, the same on every engine); a CVT from
//! F16 reads the low 16 bits and ignores the others.
//!
//! Conversions go through binary32, with the IR's UP2H (binary16 → binary32, exact) and
//! PK2H (binary32 → binary16, rounding to nearest even, overflow to ±INF: tgsi.rst PK2H,
//! EXEC-NOTES.md). Every binary16 value is a binary32 one, and every 32-bit integer that
//! binary32 rounds (|i| > 2^24) is far beyond binary16's range (65504), so F32, S32 and U32
//! operands reach binary16 through binary32 without double rounding. § CVT's directed
//! rounding modifiers (CEIL, FLR, TRUNC: "rounded to one of the two nearest values in the
//! destination type according to the rounding modifier") correct the nearest-even result
//! `h` by one binary16 step when it lies on the wrong side of the operand: binary16
//! encodings are ordered by magnitude within a sign, so `h + 1` moves away from zero and
//! `h - 1` towards it (from ±INF to ±65504, from ±0 to the smallest subnormal). 64-bit
//! types with F16 would round twice through binary32 and are refused.
//!
//! Memory (mem_extended): F16 loads one binary16 into x (x, y for F16X2; x..w for F16X4)
//! as binary32, other components 0 (NOTES.md §12); stores convert with PK2H (C's
//! conversion, round to nearest even) and write 2, 4 or 8 bytes, aligned to their size.

use super::ast::RoundMode;
use super::lower::{dst, src, Ctx};
use crate::opcode::Opcode as O;
use crate::program::{self as ir, Register};

const ALL: [u8; 4] = [0, 1, 2, 3];

impl Ctx<'_> {
    /// The binary32 values of the binary16 numbers in the low 16 bits of each component of
    /// `a` (UP2H per component), in a hidden TEMP.
    pub(super) fn f16_to_f32(&mut self, a: ir::Src) -> ir::Src {
        let t = self.hidden();
        let s = self.hidden();
        for c in 0..4 {
            let ac = ir::Src {
                swizzle: [a.swizzle[c]; 4],
                ..a
            };
            // UP2H gives (lo, hi, lo, hi): the low half is in x.
            self.emit(O::UP2H, vec![dst(s, 1)], vec![ac]);
            self.emit(O::MOV, vec![dst(t, 1 << c)], vec![src(s, [0; 4])]);
        }
        src(t, ALL)
    }

    /// The binary16 encodings (low 16 bits, high 16 bits 0) of the binary32 values `v`,
    /// rounded by `round` (module docs), in a hidden TEMP.
    pub(super) fn f32_to_f16(&mut self, v: ir::Src, round: RoundMode) -> Register {
        let h = self.hidden();
        let low = src(self.imm([0xFFFF; 4]), ALL);
        for c in 0..4u8 {
            let vc = ir::Src {
                swizzle: [v.swizzle[c as usize]; 4],
                ..v
            };
            self.emit(O::PK2H, vec![dst(h, 1 << c)], vec![vc]);
        }
        self.emit(O::AND, vec![dst(h, 0xF)], vec![src(h, ALL), low]);
        if round == RoundMode::Round {
            return h;
        }
        // back = the value h encodes; adj = h is on the wrong side of v.
        let back = self.f16_to_f32(src(h, ALL));
        let adj = self.hidden();
        let step = self.hidden();
        let plus = src(self.imm([1; 4]), ALL);
        let minus = src(self.imm([u32::MAX; 4]), ALL);
        match round {
            RoundMode::Ceil => self.emit(O::FSLT, vec![dst(adj, 0xF)], vec![back, v]),
            RoundMode::Flr => self.emit(O::FSLT, vec![dst(adj, 0xF)], vec![v, back]),
            _ => {
                let (mut av, mut ab) = (v, back);
                (av.abs, av.neg, ab.abs, ab.neg) = (true, false, true, false);
                self.emit(O::FSLT, vec![dst(adj, 0xF)], vec![av, ab])
            }
        };
        if round == RoundMode::Trunc {
            self.emit(O::MOV, vec![dst(step, 0xF)], vec![minus]);
        } else {
            // Up (CEIL) is away from zero for a positive h; down (FLR) for a negative one.
            let sign = src(self.imm([0x8000; 4]), ALL);
            self.emit(O::AND, vec![dst(step, 0xF)], vec![src(h, ALL), sign]);
            let (neg, pos) = if round == RoundMode::Ceil {
                (minus, plus)
            } else {
                (plus, minus)
            };
            self.emit(
                O::UCMP,
                vec![dst(step, 0xF)],
                vec![src(step, ALL), neg, pos],
            );
        }
        let zero = src(self.imm([0; 4]), ALL);
        self.emit(
            O::UCMP,
            vec![dst(step, 0xF)],
            vec![src(adj, ALL), src(step, ALL), zero],
        );
        self.emit(
            O::UADD,
            vec![dst(h, 0xF)],
            vec![src(h, ALL), src(step, ALL)],
        );
        h
    }

    /// LOAD / LDS / LDC / LDB of F16, F16X2, F16X4 from window `mem` at byte offset `off`
    /// (aligned to 2, 4, 8 by the caller): binary32 values in `t`'s first 1, 2 or 4
    /// components.
    pub(super) fn load_f16(&mut self, mem: Register, off: ir::Src, count: u32, t: Register) {
        match count {
            1 => {
                // The aligned dword, then the half at (offset & 3) * 8.
                let sixteen = src(self.imm([16; 4]), [0; 4]);
                let w = self.narrow_word(mem, off);
                self.emit(
                    O::UBFE,
                    vec![dst(w, 1)],
                    vec![src(w, [0; 4]), src(w, [2; 4]), sixteen],
                );
                self.emit(O::UP2H, vec![dst(t, 1)], vec![src(w, [0; 4])]);
            }
            2 => {
                let w = self.hidden();
                self.emit(O::LOAD, vec![dst(w, 1)], vec![src(mem, ALL), off]);
                self.emit(O::UP2H, vec![dst(t, 0b0011)], vec![src(w, [0; 4])]);
            }
            _ => {
                let w = self.hidden();
                self.emit(O::LOAD, vec![dst(w, 0b0011)], vec![src(mem, ALL), off]);
                self.emit(O::UP2H, vec![dst(t, 0b0011)], vec![src(w, [0; 4])]);
                self.emit(O::UP2H, vec![dst(t, 0b1100)], vec![src(w, [1; 4])]);
            }
        }
    }

    /// STORE / STS / STB of F16, F16X2, F16X4: the first 1, 2 or 4 components of `v`
    /// converted with PK2H (round to nearest even). F16 is a read-modify-write of the
    /// aligned dword (not atomic, like the 8/16-bit integer stores).
    pub(super) fn store_f16(&mut self, mem: Register, off: ir::Src, count: u32, v: ir::Src) {
        let w = self.hidden();
        let comp = |c: usize| ir::Src {
            swizzle: [v.swizzle[c]; 4],
            ..v
        };
        match count {
            1 => {
                let sixteen = src(self.imm([16; 4]), [0; 4]);
                let h = self.hidden();
                self.emit(O::PK2H, vec![dst(h, 1)], vec![comp(0)]);
                let w = self.narrow_word(mem, off);
                self.emit(
                    O::BFI,
                    vec![dst(w, 1)],
                    vec![src(w, [0; 4]), src(h, [0; 4]), src(w, [2; 4]), sixteen],
                );
                self.emit(
                    O::STORE,
                    vec![dst(mem, 1)],
                    vec![src(w, [1; 4]), src(w, [0; 4])],
                );
            }
            2 => {
                let pair = ir::Src {
                    swizzle: [v.swizzle[0], v.swizzle[1], v.swizzle[0], v.swizzle[1]],
                    ..v
                };
                self.emit(O::PK2H, vec![dst(w, 1)], vec![pair]);
                self.emit(O::STORE, vec![dst(mem, 1)], vec![off, src(w, [0; 4])]);
            }
            _ => {
                let lo = ir::Src {
                    swizzle: [v.swizzle[0], v.swizzle[1], v.swizzle[0], v.swizzle[1]],
                    ..v
                };
                let hi = ir::Src {
                    swizzle: [v.swizzle[2], v.swizzle[3], v.swizzle[2], v.swizzle[3]],
                    ..v
                };
                self.emit(O::PK2H, vec![dst(w, 1)], vec![lo]);
                self.emit(O::PK2H, vec![dst(w, 2)], vec![hi]);
                self.emit(O::STORE, vec![dst(mem, 0b0011)], vec![off, src(w, ALL)]);
            }
        }
    }
}
