//! Operand fetch and result store (tgsi.rst "Source Modifiers", "Other Modifiers", "Array
//! Declaration"; the oracle's contract in `shaderdiff_oracles::interp`).
//!
//! * Fetch: resolve the register, read component `swizzle[c]` for channel c, then absolute
//!   value and negation by the fetch type: float clears / flips bit 31, integer is two's
//!   complement (EXEC-NOTES.md §1).
//! * Indirect operands: every invocation uses its own address register value. The effective
//!   index `offset + ADDR` is in bounds when declared (and inside the named `ARRAY(n)`);
//!   out-of-bounds reads give 0, out-of-bounds writes are dropped. Lanes are resolved one by
//!   one with scalar code; loads and stores never leave the buffers (an out-of-bounds lane
//!   reads register 0 and discards the value, a dropped store goes to a dummy register).
//! * Store: saturate, then write the writemask channels of the executing lanes (`bitselect`
//!   with the execution mask, unless the mask is known to be all live lanes).

use cranelift_codegen::entity::packed_option::ReservedValue;
use cranelift_codegen::ir::condcodes::{FloatCC, IntCC};
use cranelift_codegen::ir::types::{F32X4, I32, I32X4, I64};
use cranelift_codegen::ir::{InstBuilder, Value};
use shaderdiff_model::check::FetchType;
use shaderdiff_model::{Dst, Indirect, Register, Saturate, Src};

use super::{mem, LowerError, Lowerer};
use crate::faults::{self, Fault};
use crate::plan::{Plan, REG_BYTES};

/// One invocation's resolution of an indirect operand.
#[derive(Clone, Copy)]
pub(super) struct LaneRef {
    /// `i8`: the effective register is in bounds.
    ok: Value,
    /// `i64`: its flat index when in bounds, 0 otherwise.
    flat: Value,
}

/// Where an operand lives.
#[derive(Clone, Copy)]
pub(super) enum Place {
    /// Discarded (NULL destination).
    Null,
    /// Register channels in variables: (space, flat index).
    Var(usize, u32),
    /// A register in the scratch buffer at this byte offset.
    Mem(u32),
    /// A read-only input register read from its input column (`Plan::staged`): the
    /// column pointer of the current quad (`i64`, channel c at byte 16c), or `None` when
    /// the run binds no value to it (reads give 0).
    Column(Option<Value>),
    /// A uniform register: its index in the uniform buffer and, for IMM/IMMX, its value.
    Uniform(u32, Option<[u32; 4]>),
    /// Indirectly addressed: space (None when the file has no registers) and per-lane refs.
    Indirect(Option<usize>, [Option<LaneRef>; 4]),
}

impl Lowerer<'_, '_> {
    /// Where register `reg` of instruction `i` lives, resolving indirect indices per lane.
    pub(super) fn place(&mut self, i: usize, reg: &Register) -> Result<Place, LowerError> {
        if reg.file == shaderdiff_model::File::Null {
            return Ok(Place::Null);
        }
        let env = self.env;
        if !reg.is_indirect() {
            let (s, f) = env
                .plan
                .direct(env.shape, reg)
                .ok_or_else(|| self.invalid(i, format!("{} register has no storage", reg.file)))?;
            let sp = &env.plan.spaces[s];
            return Ok(if sp.uniform {
                let slot = sp.base + f;
                let value = if Self::constant_file(reg.file) {
                    env.plan.uniform_init.get(slot as usize).copied()
                } else {
                    None
                };
                Place::Uniform(slot, value)
            } else if sp.in_memory {
                Place::Mem(sp.base + f * REG_BYTES)
            } else if env.plan.staged.contains(&(s, f)) {
                let col = env
                    .plan
                    .input_binding(s, f)
                    .and_then(|k| self.columns.get(&k));
                Place::Column(col.copied())
            } else {
                Place::Var(s, f)
            });
        }
        let Some(s) = env.shape.space_of(reg.file, reg.dimension.is_some()) else {
            return Ok(Place::Indirect(None, [None; 4]));
        };
        let sp = env.plan.spaces[s].clone();
        let dim_off = reg.dimension.map_or(0, |d| i64::from(d.value));
        let dim_addr = match reg.dimension.and_then(|d| d.indirect) {
            Some(a) => Some(self.address(i, &a)?),
            None => None,
        };
        let idx_off = i64::from(reg.index.value);
        let idx_addr = match reg.index.indirect {
            Some(a) => Some(self.address(i, &a)?),
            None => None,
        };
        let range = Plan::array_range(env.program, reg.file, reg.index.array_id);
        let mut lanes = [None; 4];
        // A direct dimension inside the declared ones (the common case: only the index is
        // indirect) is checked here, and its row offset is a constant.
        let row_const = (dim_addr.is_none() && (0..i64::from(sp.dims)).contains(&dim_off))
            .then(|| dim_off * i64::from(sp.len));
        let len = self.b.ins().iconst(I64, i64::from(sp.len));
        let zero = self.b.ins().iconst(I64, 0);
        for (l, lane) in lanes.iter_mut().enumerate() {
            let x = self.lane_index(idx_addr, l, idx_off);
            let x_ok = self.b.ins().icmp(IntCC::UnsignedLessThan, x, len);
            let (mut ok, flat) = match row_const {
                Some(0) => (x_ok, x),
                Some(row) => (x_ok, self.b.ins().iadd_imm_s(x, row)),
                None => {
                    let d = self.lane_index(dim_addr, l, dim_off);
                    let dims = self.b.ins().iconst(I64, i64::from(sp.dims));
                    let d_ok = self.b.ins().icmp(IntCC::UnsignedLessThan, d, dims);
                    let row = self.b.ins().imul(d, len);
                    let flat = self.b.ins().iadd(row, x);
                    (self.b.ins().band(d_ok, x_ok), flat)
                }
            };
            if let Some((lo, hi)) = range {
                let ge = self
                    .b
                    .ins()
                    .icmp_imm_s(IntCC::SignedGreaterThanOrEqual, x, i64::from(lo));
                let le_ = self
                    .b
                    .ins()
                    .icmp_imm_s(IntCC::SignedLessThanOrEqual, x, i64::from(hi));
                ok = self.b.ins().band(ok, ge);
                ok = self.b.ins().band(ok, le_);
            }
            let mut flat = self.b.ins().select(ok, flat, zero);
            if !sp.all_declared {
                let at = self.b.ins().iadd(self.cv.tables, flat);
                let t = self
                    .b
                    .ins()
                    .uload8(I32, mem().with_readonly(), at, sp.table as i32);
                let t_ok = self.b.ins().icmp_imm_u(IntCC::NotEqual, t, 0);
                ok = self.b.ins().band(ok, t_ok);
                flat = self.b.ins().select(ok, flat, zero);
            }
            *lane = Some(LaneRef { ok, flat });
        }
        Ok(Place::Indirect(Some(s), lanes))
    }

    /// `offset + ADDR` of lane `l` as `i64` (the address lane sign-extended).
    fn lane_index(&mut self, addr: Option<Value>, l: usize, offset: i64) -> Value {
        match addr {
            Some(v) => {
                let a = self.b.ins().extractlane(v, l as u8);
                let a = self.b.ins().sextend(I64, a);
                if offset == 0 {
                    a
                } else {
                    self.b.ins().iadd_imm_s(a, offset)
                }
            }
            None => self.b.ins().iconst(I64, offset),
        }
    }

    /// The address register channel of an indirect index (`ADDR[i].c`, or any directly named
    /// register), as `i32x4`.
    fn address(&mut self, i: usize, a: &Indirect) -> Result<Value, LowerError> {
        if a.component > 3 {
            return Err(self.invalid(i, "address component out of range"));
        }
        let reg = Register::new(a.file, a.index);
        let place = self.place(i, &reg)?;
        let v = self.read(place, a.component as usize);
        Ok(self.cast(I32X4, v))
    }

    /// [`Self::read`] for a fetch of type `ty`: a float operand in the scratch buffer is
    /// loaded as `f32x4`, so that a float consumer reads the load itself.
    fn read_as(&mut self, place: Place, comp: usize, ty: FetchType) -> Value {
        match (place, ty) {
            (Place::Mem(off), FetchType::Float) => self.b.ins().load(
                F32X4,
                mem(),
                self.cv.scratch,
                (off + comp as u32 * 16) as i32,
            ),
            (Place::Column(Some(col)), FetchType::Float) => {
                self.b.ins().load(F32X4, mem(), col, comp as i32 * 16)
            }
            _ => self.read(place, comp),
        }
    }

    /// Component `comp` of the register at `place`, unmodified.
    fn read(&mut self, place: Place, comp: usize) -> Value {
        match place {
            Place::Null => self.ci(0),
            Place::Var(s, f) => match self.regs.get(&(s, f)) {
                Some(vars) => {
                    let v = vars[comp];
                    self.b.use_var(v)
                }
                None => self.ci(0),
            },
            Place::Mem(off) => self.b.ins().load(
                I32X4,
                mem(),
                self.cv.scratch,
                (off + comp as u32 * 16) as i32,
            ),
            Place::Column(Some(col)) => self.b.ins().load(I32X4, mem(), col, comp as i32 * 16),
            Place::Column(None) => self.ci(0),
            Place::Uniform(_, Some(words)) => self.ci(words[comp]),
            Place::Uniform(slot, None) => {
                let v = self.b.ins().load(
                    I32,
                    mem().with_readonly(),
                    self.cv.uniform,
                    (slot * 16 + comp as u32 * 4) as i32,
                );
                self.b.ins().splat(I32X4, v)
            }
            Place::Indirect(None, _) => self.ci(0),
            Place::Indirect(Some(s), lanes) => {
                let sp = &self.env.plan.spaces[s];
                let (uniform, base) = (sp.uniform, sp.base);
                let mut out = None;
                for (l, lane) in lanes.iter().enumerate() {
                    let Some(LaneRef { ok, flat }) = *lane else {
                        continue;
                    };
                    let v = if uniform {
                        let off = self.b.ins().ishl_imm_u(flat, 4);
                        let at = self.b.ins().iadd(self.cv.uniform, off);
                        let disp = base * 16 + comp as u32 * 4;
                        self.b
                            .ins()
                            .load(I32, mem().with_readonly(), at, disp as i32)
                    } else {
                        let off = self.b.ins().ishl_imm_u(flat, 6);
                        let at = self.b.ins().iadd(self.cv.scratch, off);
                        let disp = base + comp as u32 * 16 + l as u32 * 4;
                        self.b.ins().load(I32, mem(), at, disp as i32)
                    };
                    let zero = self.b.ins().iconst(I32, 0);
                    let v = self.b.ins().select(ok, v, zero);
                    out = Some(match out {
                        None => self.b.ins().scalar_to_vector(I32X4, v),
                        Some(vec) => self.b.ins().insertlane(vec, v, l as u8),
                    });
                }
                match out {
                    Some(v) => v,
                    None => self.ci(0),
                }
            }
        }
    }

    /// Fetches the channels `chans` (bit c = channel c) of source `src` of instruction `i`:
    /// swizzled, with modifiers applied as `ty`. Channels not fetched are zero. Every value is
    /// an `i32x4` (a float consumer sees through the cast to the `f32x4` it came from).
    pub(super) fn fetch(
        &mut self,
        i: usize,
        src: &Src,
        ty: FetchType,
        chans: u8,
    ) -> Result<[Value; 4], LowerError> {
        let mut v = self.fetch_float(i, src, ty, chans)?;
        for x in v.iter_mut() {
            *x = self.cast(I32X4, *x);
        }
        Ok(v)
    }

    /// [`Self::fetch`], except that a float operand (`ty` float) loaded from the scratch
    /// buffer, read from an `f32x4` register variable (`Lowerer::float_regs`) or given a
    /// `-`/`|x|` modifier stays the `f32x4` it is. Only for consumers that
    /// cast every operand to the type they need (`alu::simd::fv`/`iv`): the float ALU
    /// lowerings `lower::flow` names. Saves a bit cast per such operand, a CLIF instruction
    /// the compile would otherwise build and skip.
    pub(super) fn fetch_float(
        &mut self,
        i: usize,
        src: &Src,
        ty: FetchType,
        chans: u8,
    ) -> Result<[Value; 4], LowerError> {
        if src.swizzle.iter().any(|&c| c > 3) {
            return Err(self.invalid(i, "swizzle component out of range"));
        }
        let place = self.place(i, &src.reg)?;
        if matches!(place, Place::Null) {
            return Err(self.invalid(i, "NULL cannot be read"));
        }
        let mut by_comp: [Option<Value>; 4] = [None; 4];
        // Channels not fetched are zero; the placeholder is overwritten for every channel.
        let zero = if chans & 0xF != 0xF {
            self.ci(0)
        } else {
            Value::reserved_value()
        };
        let mut out = [zero; 4];
        for (c, o) in out.iter_mut().enumerate() {
            if chans >> c & 1 == 0 {
                continue;
            }
            let comp = src.swizzle[c] as usize;
            let v = match by_comp[comp] {
                Some(v) => v,
                None => {
                    let v = self.read_as(place, comp, ty);
                    let v = self.modifiers(v, src.abs, src.neg, ty);
                    by_comp[comp] = Some(v);
                    v
                }
            };
            *o = v;
        }
        Ok(out)
    }

    /// tgsi.rst "Source Modifiers": absolute value, then negation.
    fn modifiers(&mut self, v: Value, abs: bool, neg: bool, ty: FetchType) -> Value {
        match ty {
            // `fabs` / `fneg` clear / flip bit 31 (NaN included), left in `f32x4` (see
            // `fetch_float`).
            FetchType::Float if abs || neg => {
                let mut f = self.cast(F32X4, v);
                if abs {
                    f = self.b.ins().fabs(f);
                }
                if neg {
                    f = self.b.ins().fneg(f);
                }
                f
            }
            FetchType::Float => v,
            FetchType::Int => {
                let mut v = self.cast(I32X4, v);
                if abs {
                    v = self.b.ins().iabs(v);
                }
                if neg {
                    // FAULT HOOK (ineg-flips-sign-bit): float negation on an integer source.
                    v = if self.env.fault == Some(Fault::InegFlipsSignBit) {
                        let m = self.ci(0x8000_0000);
                        self.b.ins().bxor(v, m)
                    } else {
                        self.b.ins().ineg(v)
                    };
                }
                v
            }
        }
    }

    /// `_SAT` / `.SSAT` (tgsi.rst "Other Modifiers"; oracle: NaN → +0.0, -0.0 → +0.0 under
    /// `_SAT`; `.SSAT` clamps to [-1, 1] with NaN → 0.0).
    fn saturate(&mut self, v: Value, sat: Saturate) -> Value {
        let lo = match sat {
            Saturate::None => return v,
            Saturate::Zero => 0.0f32,
            Saturate::Signed => -1.0f32,
        };
        // FAULT HOOK (sat-nan-passthrough): `_SAT` that lets NaN through.
        if sat == Saturate::Zero && self.env.fault == Some(Fault::SatNanPassthrough) {
            return faults::lower::saturate_nan_passthrough(&mut self.b, v);
        }
        let f = self.cast(F32X4, v);
        let one = self.fconst(1.0);
        let lo_v = self.fconst(lo);
        let gt1 = self.b.ins().fcmp(FloatCC::GreaterThan, f, one);
        let gtlo = self.b.ins().fcmp(FloatCC::GreaterThan, f, lo_v);
        let one_i = self.cast(I32X4, one);
        let lo_i = self.cast(I32X4, lo_v);
        let upper = self.b.ins().bitselect(gt1, one_i, v);
        match sat {
            // f > 0 (false for NaN, ±0 and negatives) ? min(f, 1) : +0.0
            Saturate::Zero => {
                let zero = self.ci(0);
                self.b.ins().bitselect(gtlo, upper, zero)
            }
            // NaN ? 0.0 : f > -1 ? min(f, 1) : -1.0
            _ => {
                let clamped = self.b.ins().bitselect(gtlo, upper, lo_i);
                let nan = self.b.ins().fcmp(FloatCC::Unordered, f, f);
                let zero = self.ci(0);
                self.b.ins().bitselect(nan, zero, clamped)
            }
        }
    }

    /// An `f32x4` with `x` in every lane.
    fn fconst(&mut self, x: f32) -> Value {
        let s = self.b.ins().f32const(x);
        self.b.ins().splat(F32X4, s)
    }

    /// Saturates and stores `vals` (channels of `dst.writemask`) into `dst` for the
    /// executing lanes of instruction `i`.
    pub(super) fn store(
        &mut self,
        i: usize,
        dst: &Dst,
        vals: [Option<Value>; 4],
        sat: Saturate,
    ) -> Result<(), LowerError> {
        let wm = dst.writemask & 0xF;
        let place = self.place(i, &dst.reg)?;
        // A value may come as `f32x4` (`alu::lower`); it is stored as the type of its place:
        // a register of the float opcodes alone is an `f32x4` variable (`float_regs`),
        // everything else takes `i32x4`.
        let ty = match place {
            Place::Var(s, f) if self.float_regs.contains(&(s, f)) => F32X4,
            _ => I32X4,
        };
        let mut v = [None; 4];
        for c in 0..4 {
            if wm >> c & 1 != 0 {
                v[c] = vals[c].map(|x| {
                    let x = if sat == Saturate::None {
                        x
                    } else {
                        self.cast(I32X4, x)
                    };
                    let x = self.saturate(x, sat);
                    self.cast(ty, x)
                });
            }
        }
        let exec = if self.full {
            None
        } else {
            Some(self.use_exec())
        };
        match place {
            Place::Null => {}
            Place::Uniform(..) | Place::Column(_) => {
                return Err(self.invalid(i, format!("{} cannot be written", dst.reg.file)))
            }
            Place::Var(s, f) => {
                let Some(vars) = self.regs.get(&(s, f)).copied() else {
                    return Err(self.invalid(i, "destination register has no storage"));
                };
                let exec = exec.map(|m| self.cast(ty, m));
                for c in 0..4 {
                    let Some(x) = v[c] else { continue };
                    let x = match exec {
                        Some(m) => {
                            let old = self.b.use_var(vars[c]);
                            self.b.ins().bitselect(m, x, old)
                        }
                        None => x,
                    };
                    self.b.def_var(vars[c], x);
                }
            }
            Place::Mem(off) => {
                for (c, x) in v.iter().enumerate() {
                    let Some(x) = *x else { continue };
                    let at = (off + c as u32 * 16) as i32;
                    let x = match exec {
                        Some(m) => {
                            let old = self.b.ins().load(I32X4, mem(), self.cv.scratch, at);
                            self.b.ins().bitselect(m, x, old)
                        }
                        None => x,
                    };
                    self.b.ins().store(mem(), x, self.cv.scratch, at);
                }
            }
            Place::Indirect(None, _) => {}
            Place::Indirect(Some(s), lanes) => {
                let sp = &self.env.plan.spaces[s];
                if sp.uniform {
                    return Err(self.invalid(i, format!("{} cannot be written", dst.reg.file)));
                }
                let base = sp.base;
                let dummy = self.env.plan.dummy;
                let exec = self.use_exec();
                for (l, lane) in lanes.iter().enumerate() {
                    let Some(LaneRef { ok, flat }) = *lane else {
                        continue;
                    };
                    let e = self.b.ins().extractlane(exec, l as u8);
                    let e = self.b.ins().icmp_imm_s(IntCC::NotEqual, e, 0);
                    let doit = self.b.ins().band(e, ok);
                    let off = self.b.ins().ishl_imm_u(flat, 6);
                    let real = self.b.ins().iadd_imm_u(off, i64::from(base + l as u32 * 4));
                    let fake = self.b.ins().iconst(I64, i64::from(dummy + l as u32 * 4));
                    let off = self.b.ins().select(doit, real, fake);
                    let at = self.b.ins().iadd(self.cv.scratch, off);
                    for (c, x) in v.iter().enumerate() {
                        let Some(x) = *x else { continue };
                        let x = self.b.ins().extractlane(x, l as u8);
                        self.b.ins().store(mem(), x, at, (c * 16) as i32);
                    }
                }
            }
        }
        Ok(())
    }

    /// Per-lane truth of channel x of source `src` (IF: float `!= 0.0`, NaN true; UIF: bits
    /// `!= 0`), as a mask.
    pub(super) fn condition(
        &mut self,
        i: usize,
        src: &Src,
        ty: FetchType,
    ) -> Result<Value, LowerError> {
        let v = self.fetch(i, src, ty, 0x1)?[0];
        let zero = self.ci(0);
        Ok(match ty {
            FetchType::Float => {
                let f = self.cast(F32X4, v);
                let z = self.cast(F32X4, zero);
                // FAULT HOOK (if-nan-false): an ordered test, false for NaN.
                if self.env.fault == Some(Fault::IfNanFalse) {
                    return Ok(faults::lower::ordered_nonzero(&mut self.b, f));
                }
                self.b.ins().fcmp(FloatCC::NotEqual, f, z)
            }
            FetchType::Int => self.b.ins().icmp(IntCC::NotEqual, v, zero),
        })
    }
}
