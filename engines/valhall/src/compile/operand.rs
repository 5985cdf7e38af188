//! Operand access for the lowering: register spaces held in virtual registers, the
//! invocation's record or the uniforms; swizzles and source modifiers (tgsi.rst "Source
//! Modifiers"); indirect addressing with the oracle's bounds (tgsi.rst "Array
//! Declaration"); saturate (tgsi.rst "Other Modifiers"); LOAD/STORE of the record.

use shaderdiff_model::check::alu::fetch_type;
use shaderdiff_model::check::FetchType;
use shaderdiff_model::{File, Instruction, Register, Saturate, Src};

use super::abi::RECORD_REG;
use super::lower::Lower;
use super::vcode::{VDst, VReg, VSrc, Val};
use super::CompileError;
use crate::SrcValue;

impl Lower<'_> {
    /// Index of the register space `reg` names.
    pub(super) fn space(&self, reg: &Register) -> Option<usize> {
        self.shape.space_of(reg.file, reg.dimension.is_some())
    }

    /// The virtual register holding channel `c` of per-invocation register `flat` of
    /// space `s`.
    pub(super) fn reg_vreg(&mut self, s: usize, flat: u32, c: u8) -> VReg {
        if let Some(&r) = self.regs.get(&(s, flat, c)) {
            return r;
        }
        let r = self.code.vreg();
        self.regs.insert((s, flat, c), r);
        r
    }

    /// The virtual register a write of channel `c` of the directly addressed `reg` goes to,
    /// if it lives in one.
    pub(super) fn reg_vreg_if_direct(&mut self, reg: &Register, c: u8) -> Option<VReg> {
        if reg.is_indirect() {
            return None;
        }
        let s = self.space(reg)?;
        if self.layout.spaces[s].record.is_some() || self.shape.spaces()[s].uniform {
            return None;
        }
        let space = &self.shape.spaces()[s];
        let dim = reg.dimension.map_or(0, |d| i64::from(d.value));
        let flat = space.flat(dim, i64::from(reg.index.value))? as u32;
        Some(self.reg_vreg(s, flat, c))
    }

    /// The effective flat index of `reg` as a run-time value plus whether it is in bounds
    /// (m1 boolean), for a register whose index or dimension is addressed indirectly;
    /// `None` for direct ones. In bounds, as the oracle decides (`Layout::bounded_slot`):
    /// the dimension lies in the space, and the index in a declared register of the
    /// dimension, inside the operand's `ARRAY(n)` declaration when it names one (tgsi.rst
    /// "Array Declaration").
    pub(super) fn indirect_index(
        &mut self,
        reg: &Register,
    ) -> Result<Option<(VSrc, VSrc)>, CompileError> {
        let dim_ind = reg.dimension.and_then(|d| d.indirect);
        if reg.index.indirect.is_none() && dim_ind.is_none() {
            return Ok(None);
        }
        let s = self
            .space(reg)
            .ok_or_else(|| CompileError::invalid(None, "register space"))?;
        let (len, dims) = {
            let space = &self.shape.spaces()[s];
            (space.len, space.dims)
        };
        let ranges = self.index_ranges(reg, s)?;
        let value = |l: &mut Self, base: i32, ind: Option<shaderdiff_model::Indirect>| match ind {
            Some(ind) => {
                let a = l.read_direct(&Register::new(ind.file, ind.index), ind.component);
                let k = l.code.konst(base as u32);
                l.code.op("IADD.u32", &[a, k], &[])
            }
            None => l.code.konst(base as u32),
        };
        let idx = value(self, reg.index.value, reg.index.indirect);
        let z = self.code.konst(0);
        let mut ok = z;
        for (lo, hi) in ranges {
            let lo_k = self.code.konst(lo);
            let rel = self.code.op("ISUB.u32", &[idx, lo_k], &[]);
            let n = self.code.konst(hi - lo);
            ok = self.code.op(
                "ICMP_OR.u32",
                &[rel, n, ok],
                &[("cmp", "lt"), ("result_type", "m1")],
            );
        }
        let flat = match reg.dimension {
            Some(d) if dim_ind.is_some() || d.value != 0 => {
                let dim = value(self, d.value, dim_ind);
                let n = self.code.konst(dims);
                let dim_ok = self.code.op(
                    "ICMP_OR.u32",
                    &[dim, n, z],
                    &[("cmp", "lt"), ("result_type", "m1")],
                );
                let z0 = self.code.lane_const(0);
                ok = self.code.op("LSHIFT_AND.i32", &[ok, z0, dim_ok], &[]);
                let l = self.code.konst(len);
                let row = self.code.op("IMUL.i32", &[dim, l], &[]);
                self.code.op("IADD.u32", &[row, idx], &[])
            }
            _ => idx,
        };
        Ok(Some((flat, ok)))
    }

    /// The index ranges `[lo, hi)` (within one dimension) an indirect access to `reg` may
    /// reach: the runs of declared registers, restricted to the operand's ARRAY
    /// declaration when it names one.
    pub(super) fn index_ranges(
        &self,
        reg: &Register,
        s: usize,
    ) -> Result<Vec<(u32, u32)>, CompileError> {
        let space = &self.shape.spaces()[s];
        let len = space.len as usize;
        let slice = |d: usize| &space.declared[d * len..(d + 1) * len];
        let declared: Vec<bool> = match reg.dimension {
            Some(d) if d.indirect.is_none() => {
                let d = d.value.max(0) as usize;
                if d >= space.dims as usize {
                    vec![false; len]
                } else {
                    slice(d).to_vec()
                }
            }
            Some(_) => {
                let first = slice(0);
                if (1..space.dims as usize).any(|d| slice(d) != first) {
                    return Err(CompileError::unsupported(
                        None,
                        "indirect dimension over dimensions declared differently",
                    ));
                }
                first.to_vec()
            }
            None => slice(0).to_vec(),
        };
        let array = (reg.index.array_id != 0)
            .then(|| {
                self.program
                    .decls(reg.file)
                    .find(|d| d.array_id == reg.index.array_id)
                    .map(|d| (d.first, d.last))
            })
            .flatten();
        let mut ranges = Vec::new();
        let mut i = 0usize;
        while i < len {
            let inside = |k: usize| {
                declared[k] && array.is_none_or(|(lo, hi)| (lo..=hi).contains(&(k as u32)))
            };
            if inside(i) {
                let start = i;
                while i < len && inside(i) {
                    i += 1;
                }
                ranges.push((start as u32, i as u32));
            } else {
                i += 1;
            }
        }
        Ok(ranges)
    }

    /// Reads channel `c` of a directly addressed register.
    pub(super) fn read_direct(&mut self, reg: &Register, c: u8) -> VSrc {
        let Some(s) = self.space(reg) else {
            return self.code.konst(0);
        };
        let space = &self.shape.spaces()[s];
        let dim = reg.dimension.map_or(0, |d| i64::from(d.value));
        let Some(flat) = space.flat(dim, i64::from(reg.index.value)) else {
            return self.code.konst(0);
        };
        let flat = flat as u32;
        match space.file {
            File::Immediate => {
                let w = self
                    .program
                    .immediates
                    .get(flat as usize)
                    .map_or(0, |i| i.words[c as usize]);
                self.code.konst(w)
            }
            File::ImmArray => {
                let w = self.imm_array(flat, c);
                self.code.konst(w)
            }
            File::Const => {
                let base = self.layout.spaces[s].uniform.unwrap_or(0);
                let word = base + flat * 4 + u32::from(c);
                if word < 256 {
                    VSrc::new(Val::Fau(SrcValue::Uniform(word as u8)))
                } else {
                    self.code.konst(0)
                }
            }
            File::Input | File::SystemValue => {
                let off = self.layout.spaces[s].record.unwrap_or(0) + flat * 16 + 4 * u32::from(c);
                if let Some(&r) = self.code.input_cache.get(&off) {
                    return VSrc::v(r);
                }
                let v = self.load_record(off);
                if let Val::V(r) = v.val {
                    self.code.input_cache.insert(off, r);
                }
                v
            }
            _ => match self.layout.spaces[s].record {
                Some(b) => self.load_record(b + flat * 16 + 4 * u32::from(c)),
                None => VSrc::v(self.reg_vreg(s, flat, c)),
            },
        }
    }

    pub(super) fn imm_array(&self, flat: u32, c: u8) -> u32 {
        for d in self
            .program
            .decls(File::ImmArray)
            .filter(|d| d.dimension.is_none())
        {
            if (d.first..=d.last).contains(&flat) {
                if let Some(v) = d.values.get((flat - d.first) as usize) {
                    return v[c as usize];
                }
            }
        }
        0
    }

    /// `LOAD.i32` of the record word at byte offset `off`.
    pub(super) fn load_record(&mut self, off: u32) -> VSrc {
        let r = self.code.vreg();
        self.load_at(Val::P(RECORD_REG), off, r);
        VSrc::v(r)
    }

    /// `LOAD.i32 r, [base pair] + off`.
    pub(super) fn load_at(&mut self, base: Val, off: u32, r: VReg) {
        self.code.ins(
            "LOAD.i32",
            VDst::None,
            &[VSrc::new(base)],
            &[("unsigned", ""), ("slot", "slot0")],
        );
        let last = self.code.last_mut().expect("just emitted");
        last.staging = Some(Val::V(r));
        last.imms[0] = i64::from(off as i32);
    }

    /// `STORE.i32 v, [base pair] + off`.
    pub(super) fn store_at(&mut self, base: Val, off: u32, v: VSrc) {
        let v = match v.val {
            Val::V(_) if !v.neg && !v.abs && v.sel.is_none() => v,
            _ => self.code.op("MOV.i32", &[v], &[]),
        };
        let v = if v.neg || v.abs {
            self.code.apply_absneg(v)
        } else {
            v
        };
        self.code.ins(
            "STORE.i32",
            VDst::None,
            &[VSrc::new(base)],
            &[("slot", "slot0")],
        );
        let last = self.code.last_mut().expect("just emitted");
        last.staging = Some(v.val);
        last.imms[0] = i64::from(off as i32);
    }

    /// The address of record byte `off + 4·word` where `word` is a run-time value, in the
    /// scratch pair (IADD.u64 with the offset zero-extended, SEMANTICS.md §2.1 `w0`).
    pub(super) fn record_address(&mut self, byte_off: VSrc) -> Val {
        let pair = super::abi::ADDR_REG;
        self.code.ins(
            "IADD.u64",
            VDst::P(pair),
            &[VSrc::new(Val::P(RECORD_REG)), byte_off.sel("w0")],
            &[],
        );
        Val::P(pair)
    }

    /// `flat · 16 + off`: the record byte offset of a channel of register `flat`.
    pub(super) fn byte_offset(&mut self, flat: VSrc, off: u32) -> VSrc {
        let four = self.code.lane_const(4);
        let z = self.code.konst(0);
        let scaled = self.code.op("LSHIFT_OR.i32", &[flat, four, z], &[]);
        let k = self.code.konst(off);
        self.code.op("IADD.u32", &[scaled, k], &[])
    }

    /// The uniform-memory address of byte `byte_off` in the scratch pair.
    pub(super) fn uniform_address(&mut self, byte_off: VSrc) -> Val {
        let pair = super::abi::ADDR_REG;
        let base = super::abi::UNIFORM_MEM_BASE;
        let lo = self.code.konst(base as u32);
        self.code.ins("MOV.i32", VDst::P(pair), &[lo], &[]);
        let hi = self.code.konst((base >> 32) as u32);
        self.code.ins("MOV.i32", VDst::P(pair + 1), &[hi], &[]);
        self.code.ins(
            "IADD.u64",
            VDst::P(pair),
            &[VSrc::new(Val::P(pair)), byte_off.sel("w0")],
            &[],
        );
        Val::P(pair)
    }

    /// Reads channel `c` of `reg` (direct or indirect).
    pub(super) fn read(&mut self, reg: &Register, c: u8) -> Result<VSrc, CompileError> {
        let Some((flat, ok)) = self.indirect_index(reg)? else {
            return Ok(self.read_direct(reg, c));
        };
        let s = self
            .space(reg)
            .ok_or_else(|| CompileError::invalid(None, "register space"))?;
        let loc = &self.layout.spaces[s];
        // Out of bounds: read flat 0's slot (always mapped) and return 0 (oracle: 0, undefined).
        let z = self.code.konst(0);
        let safe = self
            .code
            .op("MUX.i32", &[z, flat, ok], &[("mux", "int_zero")]);
        let addr = match (loc.record, loc.uniform_mem) {
            (Some(base), _) => {
                let byte = self.byte_offset(safe, base + 4 * u32::from(c));
                self.record_address(byte)
            }
            (None, Some(base)) => {
                let byte = self.byte_offset(safe, base + 4 * u32::from(c));
                self.uniform_address(byte)
            }
            _ => {
                return Err(CompileError::invalid(
                    None,
                    "indirect register without memory",
                ))
            }
        };
        let r = self.code.vreg();
        self.load_at(addr, 0, r);
        Ok(self
            .code
            .op("MUX.i32", &[z, VSrc::v(r), ok], &[("mux", "int_zero")]))
    }

    /// Writes `v` to channel `c` of `reg` (direct or indirect; out-of-bounds indirect
    /// writes are dropped, oracle contract).
    pub(super) fn write(&mut self, reg: &Register, c: u8, v: VSrc) -> Result<(), CompileError> {
        let Some(s) = self.space(reg) else {
            return Ok(());
        };
        if let Some((flat, ok)) = self.indirect_index(reg)? {
            let Some(base) = self.layout.spaces[s].record else {
                return Err(CompileError::invalid(
                    None,
                    "indirect write to a uniform register",
                ));
            };
            let skip = self.code.label();
            self.code.branch(ok, true, skip);
            let byte = self.byte_offset(flat, base + 4 * u32::from(c));
            let addr = self.record_address(byte);
            self.store_at(addr, 0, v);
            self.code.place(skip);
            return Ok(());
        }
        let space = &self.shape.spaces()[s];
        let dim = reg.dimension.map_or(0, |d| i64::from(d.value));
        let Some(flat) = space.flat(dim, i64::from(reg.index.value)) else {
            return Ok(());
        };
        let flat = flat as u32;
        match self.layout.spaces[s].record {
            Some(b) => self.store_at(Val::P(RECORD_REG), b + flat * 16 + 4 * u32::from(c), v),
            None => {
                let r = self.reg_vreg(s, flat, c);
                self.code.ins("MOV.i32", VDst::V(r), &[v], &[]);
            }
        }
        Ok(())
    }

    /// Source `k` of `insn`, channel `c` (after the swizzle), with its modifiers applied
    /// as the opcode types them (float sign bit or two's complement, tgsi.rst "Source
    /// Modifiers"). Float modifiers stay on the returned source for instructions that take
    /// them.
    pub(super) fn fetch(
        &mut self,
        insn: &Instruction,
        k: usize,
        c: u8,
    ) -> Result<VSrc, CompileError> {
        self.fetch_as(insn, k, c, fetch_type(insn.opcode, k))
    }

    /// [`Lower::fetch`] with the modifiers applied as type `ty` says.
    pub(super) fn fetch_as(
        &mut self,
        insn: &Instruction,
        k: usize,
        c: u8,
        ty: FetchType,
    ) -> Result<VSrc, CompileError> {
        let Some(src) = insn.src.get(k) else {
            return Ok(self.code.konst(0));
        };
        let src: Src = *src;
        let chan = src.swizzle[c as usize];
        let v = self.read(&src.reg, chan)?;
        Ok(match ty {
            FetchType::Int => {
                let mut v = v;
                if src.abs {
                    v = self.code.op("IABS.s32", &[v], &[]);
                }
                if src.neg {
                    let z = self.code.konst(0);
                    v = self.code.op("ISUB.s32", &[z, v], &[]);
                }
                v
            }
            _ => {
                let mut v = v;
                if src.abs {
                    v = v.abs();
                }
                if src.neg {
                    v = v.negated();
                }
                v
            }
        })
    }

    /// Applies `_SAT` / `.SSAT` to a result: folded into the defining instruction's clamp
    /// when it has one and the value is fresh, otherwise `FADD.f32.clamp x, -0.0`
    /// (x + (−0) is x for every x, −0 included; SEMANTICS.md §3.2: `clamp_0_1` gives NaN → 0
    /// and −0 → +0 as the oracle's `_SAT`, `clamp_m1_1` keeps −0 as NV's `.SSAT`).
    pub(super) fn saturate(&mut self, sat: Saturate, v: VSrc) -> VSrc {
        let mode = match sat {
            Saturate::None => return v,
            Saturate::Zero => "clamp_0_1",
            Saturate::Signed => "clamp_m1_1",
        };
        if let (Val::V(r), Some(last)) = (v.val, self.code.last_mut()) {
            let plain = !v.neg && !v.abs && v.sel.is_none();
            // Only an f32 result may take it: V2F32_TO_V2F16's clamp acts per f16 lane,
            // while `_SAT` clamps the whole stored word as a float.
            let has_clamp = last.def.name.ends_with(".f32")
                && last.def.modifiers.iter().any(|m| m.name == "clamp");
            if plain
                && has_clamp
                && last.dst == VDst::V(r)
                && !last.mods.iter().any(|(n, _)| *n == "clamp")
            {
                last.mods.push(("clamp", mode));
                return v;
            }
        }
        let z = self.code.konst(0).negated();
        self.code.op("FADD.f32", &[v, z], &[("clamp", mode)])
    }
}
