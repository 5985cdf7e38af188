//! Lowering of CVT (NV_gpu_program5 §2.X.8 "CVT: Data Type Conversion", NOTES.md §10) and
//! of the pack / unpack and rarer float instructions that expand to several IR
//! instructions (RCC, DP2A, X2D, RFL, PK2H PK2US PK4B PK4UB, UP2H UP2US UP4B UP4UB:
//! NV_gpu_program4 §2.X.8).

use super::ast::{BaseType, DataType, Instruction as NvInsn, RoundMode};
use super::lower::{chan as comp, dst, src};
use super::lower::{Ctx, LowerError};
use super::NvOpcode as N;
use crate::opcode::Opcode as O;
use crate::program::{self as ir, Register, Saturate};

const ALL: [u8; 4] = [0, 1, 2, 3];

impl Ctx<'_> {
    /// CVT.<to>.<from>: integer ↔ integer of 8/16/32 bits (wraps, or clamps with SAT),
    /// 32-bit integer → F32 (round to nearest), F32 → integer with the ROUND (default),
    /// CEIL, FLR or TRUNC rounding (SAT clamps to the result's range, `lower_cvt_sat.rs`),
    /// F32 → F32, and F16 on either side (`lower_f16.rs`); 64-bit types are
    /// `lower_wide.rs`'s.
    pub(super) fn cvt(
        &mut self,
        insn: &NvInsn,
        d: ir::Dst,
        sat: Saturate,
    ) -> Result<(), LowerError> {
        let (Some(to), Some(from)) = (insn.mods.ty, insn.mods.ty2) else {
            return Err(self.invalid("CVT needs two storage types".into()));
        };
        let bits = |t: DataType| t.bits().unwrap_or(32);
        let half = |t: DataType| t.base() == BaseType::F && bits(t) == 16;
        if to.components() != 1
            || from.components() != 1
            || bits(to) > 32
            || bits(from) > 32
            || (to.base() == BaseType::F && bits(to) != 32 && !half(to))
            || (from.base() == BaseType::F && bits(from) != 32 && !half(from))
        {
            return Err(self.unsupported(format!(
                "CVT.{to}.{from}: only 8/16/32-bit integers, F16 and F32 are lowered"
            )));
        }
        let round = insn.mods.round.unwrap_or(RoundMode::Round);
        let fb = from.base();
        let tb = to.base();
        let mut a = self.operand(insn, 0, fb)?;
        let t = self.hidden();
        // F16 (lower_f16.rs): widened to binary32 first; narrowed last, from binary32.
        if half(from) {
            a = self.f16_to_f32(a);
        }
        if half(to) {
            let mut v = a;
            if fb != BaseType::F {
                let n = self.narrow(a, fb, bits(from), t);
                let op = if fb == BaseType::S { O::I2F } else { O::U2F };
                let u = self.hidden();
                self.emit(op, vec![dst(u, 0xF)], vec![n]);
                v = src(u, ALL);
            }
            if sat != Saturate::None {
                // [0, 1] and [-1, 1] are exact in binary16: clamping first is the same.
                let u = self.hidden();
                self.op_sat(O::MOV, dst(u, 0xF), vec![v], sat);
                v = src(u, ALL);
            }
            let h = self.f32_to_f16(v, round);
            self.op_sat(O::MOV, d, vec![src(h, ALL)], Saturate::None);
            return Ok(());
        }
        match (fb, tb) {
            (BaseType::F, BaseType::F) => {
                self.op_sat(O::MOV, d, vec![a], sat);
                return Ok(());
            }
            (_, BaseType::F) => {
                if round != RoundMode::Round {
                    return Err(self.unsupported(format!(
                        "CVT.{to}.{from}.{round}: integer to float with directed rounding"
                    )));
                }
                let v = self.narrow(a, fb, bits(from), t);
                let op = if fb == BaseType::S { O::I2F } else { O::U2F };
                self.op_sat(op, d, vec![v], sat);
                return Ok(());
            }
            (BaseType::F, _) => {
                let rop = match round {
                    RoundMode::Round => O::ROUND,
                    RoundMode::Ceil => O::CEIL,
                    RoundMode::Flr => O::FLR,
                    RoundMode::Trunc => O::TRUNC,
                };
                self.emit(rop, vec![dst(t, 0xF)], vec![a]);
                if sat != Saturate::None {
                    if bits(to) == 32 {
                        let v = self.f32_to_i32_sat(src(t, ALL), tb == BaseType::S);
                        self.op_sat(O::MOV, d, vec![v], Saturate::None);
                        return Ok(());
                    }
                    let (lo, hi) = range(tb, bits(to));
                    let lo = self.imm([(lo as f32).to_bits(); 4]);
                    let hi = self.imm([(hi as f32).to_bits(); 4]);
                    self.emit(O::MAX, vec![dst(t, 0xF)], vec![src(t, ALL), src(lo, ALL)]);
                    self.emit(O::MIN, vec![dst(t, 0xF)], vec![src(t, ALL), src(hi, ALL)]);
                }
                let op = if tb == BaseType::S { O::F2I } else { O::F2U };
                self.emit(op, vec![dst(t, 0xF)], vec![src(t, ALL)]);
                let v = self.narrow(src(t, ALL), tb, bits(to), t);
                self.op_sat(O::MOV, d, vec![v], Saturate::None);
                return Ok(());
            }
            _ => {}
        }
        // Integer to integer.
        let mut v = self.narrow(a, fb, bits(from), t);
        if sat != Saturate::None {
            let (lo, hi) = range(tb, bits(to));
            let (flo, fhi) = range(fb, bits(from));
            let (max, min) = if fb == BaseType::S {
                (O::IMAX, O::IMIN)
            } else {
                (O::UMAX, O::UMIN)
            };
            if flo < lo {
                let r = self.imm([lo as u32; 4]);
                self.emit(max, vec![dst(t, 0xF)], vec![v, src(r, ALL)]);
                v = src(t, ALL);
            }
            if fhi > hi {
                let r = self.imm([hi as u32; 4]);
                self.emit(min, vec![dst(t, 0xF)], vec![v, src(r, ALL)]);
                v = src(t, ALL);
            }
        }
        let v = self.narrow(v, tb, bits(to), t);
        self.op_sat(O::MOV, d, vec![v], Saturate::None);
        Ok(())
    }

    /// The value of `v` as a `bits`-bit integer of signedness `b` (sign- or zero-extends
    /// the low bits into `t` when narrower than 32).
    fn narrow(&mut self, v: ir::Src, b: BaseType, bits: u32, t: Register) -> ir::Src {
        if bits >= 32 {
            return v;
        }
        let zero = self.imm([0; 4]);
        let n = self.imm([bits; 4]);
        let op = if b == BaseType::S { O::IBFE } else { O::UBFE };
        self.emit(op, vec![dst(t, 0xF)], vec![v, src(zero, ALL), src(n, ALL)]);
        src(t, ALL)
    }

    /// Instructions that expand into several IR instructions: the pack / unpack family,
    /// RCC, DP2A, X2D, RFL. Returns `Ok(false)` when `insn` is none of them.
    pub(super) fn expand_more(
        &mut self,
        insn: &NvInsn,
        d: ir::Dst,
        sat: Saturate,
    ) -> Result<bool, LowerError> {
        use BaseType::F;
        match insn.opcode {
            N::Pk2h => {
                // →s half(a.x) | half(a.y) << 16 (operands are floats whatever the type).
                let a = self.operand(insn, 0, F)?;
                self.op_sat(O::PK2H, d, vec![a], sat);
            }
            N::Up2h => {
                // (half(lo16), half(hi16), half(lo16), half(hi16)) of the scalar operand.
                let a = self.raw_operand(insn)?;
                self.op_sat(O::UP2H, d, vec![a], sat);
            }
            N::Pk4ub | N::Pk4b | N::Pk2us => {
                // PK4UB: bytes round(255 * clamp(a, 0, 1)); PK4B: bytes
                // round(127 * clamp(a, -128/127, 1) + 128); PK2US: 16-bit
                // round(65535 * clamp(a, 0, 1)); x in the low bits, replicated.
                let a = self.operand(insn, 0, F)?;
                let t = self.hidden();
                let f = |x: f32| [x.to_bits(); 4];
                let (scale, shifts, mask) = match insn.opcode {
                    N::Pk2us => (65535.0, [0, 16, 0, 0], 0x3),
                    N::Pk4ub => (255.0, [0, 8, 16, 24], 0xF),
                    _ => (127.0, [0, 8, 16, 24], 0xF),
                };
                let k = self.imm(f(scale));
                if insn.opcode == N::Pk4b {
                    let lo = self.imm(f(-128.0 / 127.0));
                    let one = self.imm(f(1.0));
                    let half = self.imm(f(128.0));
                    self.emit(O::MAX, vec![dst(t, mask)], vec![a, src(lo, ALL)]);
                    self.emit(O::MIN, vec![dst(t, mask)], vec![src(t, ALL), src(one, ALL)]);
                    self.emit(O::MUL, vec![dst(t, mask)], vec![src(t, ALL), src(k, ALL)]);
                    self.emit(
                        O::ADD,
                        vec![dst(t, mask)],
                        vec![src(t, ALL), src(half, ALL)],
                    );
                } else {
                    let mut mov =
                        crate::program::Instruction::new(O::MOV, vec![dst(t, mask)], vec![a]);
                    mov.saturate = Saturate::Zero;
                    self.push(mov);
                    self.emit(O::MUL, vec![dst(t, mask)], vec![src(t, ALL), src(k, ALL)]);
                }
                self.emit(O::ROUND, vec![dst(t, mask)], vec![src(t, ALL)]);
                self.emit(O::F2U, vec![dst(t, mask)], vec![src(t, ALL)]);
                let sh = self.imm(shifts);
                self.emit(O::SHL, vec![dst(t, mask)], vec![src(t, ALL), src(sh, ALL)]);
                if mask == 0xF {
                    self.emit(
                        O::OR,
                        vec![dst(t, 0x4)],
                        vec![src(t, [2; 4]), src(t, [3; 4])],
                    );
                    self.emit(
                        O::OR,
                        vec![dst(t, 0x2)],
                        vec![src(t, [1; 4]), src(t, [2; 4])],
                    );
                }
                self.emit(
                    O::OR,
                    vec![dst(t, 0x1)],
                    vec![src(t, [0; 4]), src(t, [1; 4])],
                );
                self.op_sat(O::MOV, d, vec![src(t, [0; 4])], Saturate::None);
            }
            N::Up4ub | N::Up4b | N::Up2us => {
                // UP4UB: byte_i / 255; UP4B: (byte_i - 128) / 127; UP2US: (lo16, hi16, lo16,
                // hi16) / 65535; from the operand's 32 raw bits.
                let a = self.raw_operand(insn)?;
                let t = self.hidden();
                let (offsets, width, div) = match insn.opcode {
                    N::Up2us => ([0, 16, 0, 16], 16, 65535.0f32),
                    N::Up4ub => ([0, 8, 16, 24], 8, 255.0),
                    _ => ([0, 8, 16, 24], 8, 127.0),
                };
                let off = self.imm(offsets);
                let w = self.imm([width; 4]);
                let k = self.imm([div.to_bits(); 4]);
                self.emit(
                    O::UBFE,
                    vec![dst(t, 0xF)],
                    vec![comp(a, 0), src(off, ALL), src(w, ALL)],
                );
                if insn.opcode == N::Up4b {
                    let m = self.imm([(-128i32) as u32; 4]);
                    self.emit(O::UADD, vec![dst(t, 0xF)], vec![src(t, ALL), src(m, ALL)]);
                    self.emit(O::I2F, vec![dst(t, 0xF)], vec![src(t, ALL)]);
                } else {
                    self.emit(O::U2F, vec![dst(t, 0xF)], vec![src(t, ALL)]);
                }
                self.op_sat(O::DIV, d, vec![src(t, ALL), src(k, ALL)], sat);
            }
            N::Rcc => {
                // 1/s with its magnitude clamped to [2^-64, 2^64], sign kept.
                let a = self.operand(insn, 0, F)?;
                let t = self.hidden();
                let u = self.hidden();
                let lo = self.imm([2f32.powi(-64).to_bits(); 4]);
                let hi = self.imm([2f32.powi(64).to_bits(); 4]);
                self.emit(O::RCP, vec![dst(t, 0xF)], vec![a]);
                let mut abs_t = src(t, ALL);
                abs_t.abs = true;
                self.emit(O::MAX, vec![dst(u, 0xF)], vec![abs_t, src(lo, ALL)]);
                self.emit(O::MIN, vec![dst(u, 0xF)], vec![src(u, ALL), src(hi, ALL)]);
                let mut neg_u = src(u, ALL);
                neg_u.neg = true;
                self.op_sat(O::CMP, d, vec![src(t, ALL), neg_u, src(u, ALL)], sat);
            }
            N::Dp2a => {
                // →s a.x*b.x + a.y*b.y + c.x.
                let a = self.operand(insn, 0, F)?;
                let b = self.operand(insn, 1, F)?;
                let c = self.operand(insn, 2, F)?;
                let t = self.hidden();
                self.emit(O::DP2, vec![dst(t, 0x1)], vec![a, b]);
                self.op_sat(O::ADD, d, vec![src(t, [0; 4]), comp(c, 0)], sat);
            }
            N::X2d => {
                // r.x = r.z = a.x + b.x*c.x + b.y*c.y; r.y = r.w = a.y + b.x*c.z + b.y*c.w.
                let a = self.operand(insn, 0, F)?;
                let b = self.operand(insn, 1, F)?;
                let c = self.operand(insn, 2, F)?;
                let t = self.hidden();
                for (k, (ck0, ck1)) in [(0usize, 1usize), (2, 3)].into_iter().enumerate() {
                    let m = 1u8 << k;
                    self.emit(O::MUL, vec![dst(t, m)], vec![comp(b, 0), comp(c, ck0)]);
                    self.emit(
                        O::MAD,
                        vec![dst(t, m)],
                        vec![comp(b, 1), comp(c, ck1), src(t, [k as u8; 4])],
                    );
                    self.emit(
                        O::ADD,
                        vec![dst(t, m)],
                        vec![comp(a, k), src(t, [k as u8; 4])],
                    );
                }
                self.op_sat(O::MOV, d, vec![src(t, [0, 1, 0, 1])], sat);
            }
            N::Rfl => {
                // r.xyz = 2 * dot3(a, b) / dot3(a, a) * a - b; r.w undefined (not written).
                let a = self.operand(insn, 0, F)?;
                let mut b = self.operand(insn, 1, F)?;
                let t = self.hidden();
                self.emit(O::DP3, vec![dst(t, 0x1)], vec![a, b]);
                self.emit(O::DP3, vec![dst(t, 0x2)], vec![a, a]);
                self.emit(
                    O::DIV,
                    vec![dst(t, 0x1)],
                    vec![src(t, [0; 4]), src(t, [1; 4])],
                );
                self.emit(
                    O::ADD,
                    vec![dst(t, 0x1)],
                    vec![src(t, [0; 4]), src(t, [0; 4])],
                );
                b.neg = !b.neg;
                self.op_sat(
                    O::MAD,
                    dst(d.reg, d.writemask & 0x7),
                    vec![src(t, [0; 4]), a, b],
                    sat,
                );
            }
            _ => return Ok(false),
        }
        Ok(true)
    }
}

impl Ctx<'_> {
    /// The unpack instructions' operand: read with the instruction's type (modifiers
    /// applied), then used as 32 raw bits. A float operand with `-` or `|..|` is computed
    /// into a hidden TEMP first (`a + -0.0` is `a` for every `a`), so that the raw-bit
    /// instructions that follow never reinterpret a float modifier.
    fn raw_operand(&mut self, insn: &NvInsn) -> Result<ir::Src, LowerError> {
        let ty = insn
            .mods
            .ty
            .map(|t| t.base())
            .or(insn.opcode.default_type())
            .unwrap_or(BaseType::F);
        let a = self.operand(insn, 0, ty)?;
        if ty != BaseType::F || (!a.neg && !a.abs) {
            return Ok(a);
        }
        let t = self.hidden();
        let nz = self.imm([(-0.0f32).to_bits(); 4]);
        self.emit(O::ADD, vec![dst(t, 0xF)], vec![a, src(nz, ALL)]);
        Ok(src(t, ALL))
    }
}

/// The range of a `bits`-bit integer of signedness `b`, as i64.
fn range(b: BaseType, bits: u32) -> (i64, i64) {
    if b == BaseType::S {
        (-(1i64 << (bits - 1)), (1i64 << (bits - 1)) - 1)
    } else {
        (0, (1i64 << bits) - 1)
    }
}
