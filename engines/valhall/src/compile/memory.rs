//! TGSI memory instructions → Valhall messages: LOAD, STORE, RESQ, the atomics, BARRIER and
//! MEMBAR on `BUFFER[n]` and `MEMORY[n]` (GLOBAL, SHARED).
//!
//! The TGSI meaning is the oracle's memory model (`shaderdiff_oracles::interp` docs,
//! "Memory model": tgsi.rst "Resource Access Opcodes", "Inter-thread synchronization
//! opcodes", "Atomic opcodes", EXEC-NOTES.md §7); atomic results are
//! [`shaderdiff_oracles::atomic::AtomicOp`]'s. The Valhall side is SEMANTICS.md §8
//! (`LOAD.i32`, `STORE.i32`, `ATOM_RETURN.i32`, staging registers per ENCODING.md §6) and §7
//! (`BARRIER` with `.slot7` and the `.wait` flow). Addresses and sizes come from the
//! resource's uniform words ([`super::abi::ResourceLoc`]).
//!
//! * **Bounds.** Every access is checked in the generated code against the resource size:
//!   `offset + span <= size` without 32-bit wrap-around. An access out of range is not
//!   made (loads give 0, where the oracle's value is undefined; stores are dropped
//!   entirely, which the oracle allows; atomics are not performed), so the simulator never
//!   touches memory outside a resource.
//! * **LOAD** is one `LOAD.i32`…`LOAD.i128` of the dwords the swizzled channels read, into
//!   the staging run `r56`…; **STORE** one `STORE.i32`…`STORE.i128` per run of consecutive
//!   write-mask channels.
//! * **64-bit atomics** (`shaderdiff_model::atomic64`) are one `ATOM_RETURN.i64` with the
//!   same operations ([`super::atomic64`]).
//! * **Atomics** are one `ATOM_RETURN.i32` (`aadd`, `asmin`, `asmax`, `aumin`, `aumax`,
//!   `aand`, `aor`, `axor`, `axchg`, `axchg.compare` for ATOMCAS with the read staging run
//!   = (new value, compare value), SEMANTICS.md §8 \[Mesa usage\]). Valhall has no float
//!   add and no bounded increment/decrement (`ainc`/`adec` wrap at 2^32 and cannot take
//!   ATOMINC_WRAP's bound), so ATOMFADD, ATOMINC_WRAP and ATOMDEC_WRAP are compare-and-swap
//!   loops: compute the new value from a guess of the old one, CAS, retry with what the CAS
//!   found until it finds its guess.
//! * **The access log.** Every TGSI atomic an invocation executes first runs a *marker*
//!   (a `LOAD.i32` of the record's marker word, [`Site::Marker`]) whether the atomic is then
//!   performed or not, so the engine numbers atomics exactly as the oracle does
//!   (`AtomicRecord::seq`: the count of atomics executed before). The hardware atomics are
//!   logged with their operands and the old value they found ([`Site`]).
//! * **BARRIER** is `BARRIER.slot7` with the `.wait` flow; **MEMBAR** emits nothing: the
//!   simulator completes every message before the next instruction (SEMANTICS.md §1
//!   \[Assumption\]), which is at least as strong as any MEMBAR.

use shaderdiff_model::atomic::AtomicOp;
use shaderdiff_model::check::FetchType;
use shaderdiff_model::RegKey;
use shaderdiff_model::{File, Instruction, Opcode, Program, Register, Stage};

use super::abi::{ADDR_REG, RECORD_REG, SIDEBAND_REG, STAGING_REG};
use super::lower::Lower;
use super::vcode::{VDst, VReg, VSrc, Val};
use super::CompileError;
use crate::{SrcValue, StagingRun};

/// The returned-value register of atomics (`r59`).
const RETURN_REG: u8 = STAGING_REG + 3;

/// The role of an instruction in the access log the engine reads back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Site {
    /// The sequence marker: a `LOAD.i32` executed once for every TGSI atomic an invocation
    /// executes, performed or not (module docs).
    Marker,
    /// An `ATOM_RETURN.i32` performing TGSI atomic `op` directly: its operand is the read
    /// staging run's first word (ATOMCAS: new value, then compare value).
    Atomic(AtomicOp),
    /// An `ATOM_RETURN.i64` performing the 64-bit atomic `op` directly
    /// (`shaderdiff_model::atomic64`, [`super::atomic64`]).
    Atomic64(AtomicOp),
    /// One attempt of the compare-and-swap loop of `op`: it performed `op` exactly when it
    /// found its compare value; the TGSI operand is in [`SIDEBAND_REG`].
    CasLoop(AtomicOp),
    /// The `atomic-lost-update` fault: the plain `LOAD.i32` that reads the old value of
    /// what should have been atomic `op` (operand in [`SIDEBAND_REG`]).
    PlainRead(AtomicOp),
}

/// The `Atomic operation` text and `.compare` flag that perform `op` in one instruction,
/// if one does (ISA.xml `Atomic operation` enum, SEMANTICS.md §8).
pub fn hardware_op(op: AtomicOp) -> Option<(&'static str, bool)> {
    Some(match op {
        AtomicOp::Add => ("aadd", false),
        AtomicOp::Xchg => ("axchg", false),
        AtomicOp::CmpXchg => ("axchg", true),
        AtomicOp::And => ("aand", false),
        AtomicOp::Or => ("aor", false),
        AtomicOp::Xor => ("axor", false),
        AtomicOp::UMin => ("aumin", false),
        AtomicOp::UMax => ("aumax", false),
        AtomicOp::IMin => ("asmin", false),
        AtomicOp::IMax => ("asmax", false),
        AtomicOp::FAdd | AtomicOp::IncWrap | AtomicOp::DecWrap => return None,
    })
}

/// The memory resources `program` declares, in declaration order: `(key, shared)` (the
/// oracle's list, `shaderdiff_model::check::memory::resources`).
///
/// # Errors
/// [`CompileError::Unsupported`] for `MEMORY` with the PRIVATE or INPUT qualifier and for
/// SHARED memory outside compute programs (the oracle's limits).
pub fn resources(program: &Program) -> Result<Vec<(RegKey, bool)>, CompileError> {
    use shaderdiff_model::check::ExecError;
    match shaderdiff_model::check::memory::resources(program) {
        Ok(decls) => Ok(decls.into_iter().map(|d| (d.key, d.shared)).collect()),
        Err(ExecError::InvalidProgram { pos, message }) => {
            Err(CompileError::Invalid { pos, message })
        }
        Err(ExecError::UnsupportedFeature { pos, reason }) => {
            Err(CompileError::Unsupported { pos, reason })
        }
        Err(e) => Err(CompileError::Unsupported {
            pos: None,
            reason: e.to_string(),
        }),
    }
}

/// Whether `op` is one of the instructions this module lowers.
pub fn is_memory(op: Opcode) -> bool {
    matches!(
        op,
        Opcode::LOAD | Opcode::STORE | Opcode::RESQ | Opcode::BARRIER | Opcode::MEMBAR
    ) || AtomicOp::from_opcode(op).is_some()
}

/// The write-mask channels of `mask`, x first.
fn channels(mask: u8) -> impl Iterator<Item = u8> {
    (0..4u8).filter(move |c| mask >> c & 1 != 0)
}

impl Lower<'_> {
    /// Lowers memory instruction `i` ([`is_memory`]).
    pub(super) fn memory_op(&mut self, i: usize) -> Result<(), CompileError> {
        let insn = self.program.instructions[i].clone();
        let pos = self.pos(i);
        match insn.opcode {
            Opcode::MEMBAR => Ok(()),
            Opcode::BARRIER => {
                if self.program.stage != Stage::Compute {
                    return Err(CompileError::invalid(
                        pos,
                        "BARRIER outside a compute program",
                    ));
                }
                self.code
                    .ins("BARRIER", VDst::None, &[], &[("slot", "slot7")]);
                if let Some(last) = self.code.last_mut() {
                    last.flow = super::vcode::Flow::Wait;
                }
                Ok(())
            }
            Opcode::LOAD => self.mem_load(&insn, pos),
            Opcode::STORE => self.mem_store(&insn, pos),
            Opcode::RESQ => {
                let res = self.resource(insn.src.first().map(|s| s.reg), pos)?;
                let Some(dst) = insn.dst.first().copied() else {
                    return Err(CompileError::invalid(pos, "RESQ needs a destination"));
                };
                let size = self.resource_word(res, 2);
                let mut results = Vec::new();
                for c in channels(dst.writemask & 0xF) {
                    // y, z, w are undefined for buffers (the oracle's rule): 0.
                    let v = if c == 0 { size } else { self.code.konst(0) };
                    let v = self.code.op("MOV.i32", &[v], &[]);
                    results.push((c, self.saturate(insn.saturate, v)));
                }
                self.write_results(&dst.reg, results)
            }
            op => match AtomicOp::from_opcode(op) {
                Some(a) if shaderdiff_model::atomic64::is_wide_atomic(&insn) => {
                    self.mem_atomic64(&insn, a, pos)
                }
                Some(a) => self.mem_atomic(&insn, a, pos),
                None => Err(CompileError::Internal(format!("{op} is not a memory op"))),
            },
        }
    }

    /// The resource and destination of atomic `insn` (operation `op`), after checking it
    /// has them and its sources (CAS: four, else three).
    ///
    /// # Errors
    /// `Invalid` for a missing destination or source; `resource`'s errors.
    pub(super) fn atomic_operands(
        &self,
        insn: &Instruction,
        op: AtomicOp,
        pos: Option<shaderdiff_model::Pos>,
    ) -> Result<(usize, shaderdiff_model::Dst), CompileError> {
        let res = self.resource(insn.src.first().map(|s| s.reg), pos)?;
        let Some(dst) = insn.dst.first().copied() else {
            return Err(CompileError::invalid(pos, "an atomic needs a destination"));
        };
        let needs = if op == AtomicOp::CmpXchg { 4 } else { 3 };
        if insn.src.len() < needs {
            return Err(CompileError::invalid(
                pos,
                &format!("{} needs {needs} sources", insn.opcode),
            ));
        }
        Ok((res, dst))
    }

    /// The index (into `layout.resources`) of the resource operand `reg`.
    pub(super) fn resource(
        &self,
        reg: Option<Register>,
        pos: Option<shaderdiff_model::Pos>,
    ) -> Result<usize, CompileError> {
        let Some(reg) = reg else {
            return Err(CompileError::invalid(pos, "missing resource operand"));
        };
        if !matches!(reg.file, File::Buffer | File::Memory) {
            return Err(CompileError::unsupported(
                pos,
                &format!("{} resources (BUFFER and MEMORY are supported)", reg.file),
            ));
        }
        if reg.is_indirect() || reg.dimension.is_some() {
            return Err(CompileError::unsupported(
                pos,
                "indirectly addressed resources",
            ));
        }
        let key = RegKey::new(reg.file, reg.index.value as u32);
        self.layout
            .resources
            .iter()
            .position(|r| r.key == key)
            .ok_or_else(|| CompileError::invalid(pos, &format!("{key} is not declared")))
    }

    /// Uniform word `k` of resource `res` (0/1: address of instance 0, 2: size).
    fn resource_word(&mut self, res: usize, k: u32) -> VSrc {
        let u = (self.layout.resources[res].uniform + k).min(255) as u8;
        VSrc::new(Val::Fau(SrcValue::Uniform(u)))
    }

    /// `m1` true when the `span` bytes at byte offset `off` lie inside resource `res`:
    /// `off + span` does not wrap and is at most the size.
    pub(super) fn in_bounds(&mut self, res: usize, off: VSrc, span: u32) -> VSrc {
        let k = self.code.konst(span);
        let end = self.code.op("IADD.u32", &[off, k], &[]);
        let z = self.code.konst(0);
        let m1 = [("cmp", "ge"), ("result_type", "m1")];
        let no_wrap = self.code.op("ICMP_OR.u32", &[end, off, z], &m1);
        let size = self.resource_word(res, 2);
        self.code.op("ICMP_AND.u32", &[size, end, no_wrap], &m1)
    }

    /// Puts the address of byte `off` of the invocation's instance of resource `res` in
    /// the address pair (`r60:r61`): the instance-0 address plus `off` zero-extended, plus
    /// the workgroup index in the high word for SHARED memory.
    pub(super) fn resource_address(&mut self, res: usize, off: VSrc) {
        let off = match off.val {
            Val::V(_) if off.sel.is_none() && !off.neg && !off.abs => off,
            _ => self.code.op("MOV.i32", &[off], &[]),
        };
        let wg = self.layout.resources[res]
            .shared
            .then(|| self.load_record(self.layout.workgroup));
        let base = self.resource_word(res, 0);
        self.code
            .ins("IADD.u64", VDst::P(ADDR_REG), &[base, off.sel("w0")], &[]);
        if let Some(wg) = wg {
            let hi = VSrc::new(Val::P(ADDR_REG + 1));
            self.code
                .ins("IADD.u32", VDst::P(ADDR_REG + 1), &[hi, wg], &[]);
        }
    }

    /// A fresh register holding 0.
    pub(super) fn zeroed(&mut self) -> VReg {
        let r = self.code.vreg();
        let z = self.code.konst(0);
        self.code.ins("MOV.i32", VDst::V(r), &[z], &[]);
        r
    }

    /// LOAD dst, resource, address: channel `c` = the dword at `address.x + 4·swizzle[c]`
    /// (the resource operand's swizzle); all channels 0 when any is out of range.
    fn mem_load(
        &mut self,
        insn: &Instruction,
        pos: Option<shaderdiff_model::Pos>,
    ) -> Result<(), CompileError> {
        let res = self.resource(insn.src.first().map(|s| s.reg), pos)?;
        let Some(dst) = insn.dst.first().copied() else {
            return Err(CompileError::invalid(pos, "LOAD needs a destination"));
        };
        let sw = insn.src[0].swizzle;
        let wm = dst.writemask & 0xF;
        let Some(max_dw) = channels(wm).map(|c| u32::from(sw[c as usize])).max() else {
            return Ok(());
        };
        let min_dw = channels(wm)
            .map(|c| u32::from(sw[c as usize]))
            .min()
            .unwrap_or(0);
        let off = self.fetch_as(insn, 1, 0, FetchType::Int)?;
        let vals: Vec<(u8, VReg)> = channels(wm).map(|c| (c, self.zeroed())).collect();
        let ok = self.in_bounds(res, off, 4 * (max_dw + 1));
        let skip = self.code.label();
        self.code.branch(ok, true, skip);
        self.resource_address(res, off);
        // One LOAD of the dwords min_dw..=max_dw into r56.. (ENCODING.md §6: a run of more
        // than one register starts at an even one), then each channel from its register.
        let count = (max_dw - min_dw + 1) as u8;
        self.message(
            words_op("LOAD", count),
            &[("unsigned", ""), ("slot", "slot0")],
            count,
            4 * min_dw,
        );
        // Reads of r56 first: a move into a spilled register goes through r56.
        let mut moves: Vec<(u8, VReg)> = vals
            .iter()
            .map(|&(c, r)| ((u32::from(sw[c as usize]) - min_dw) as u8, r))
            .collect();
        moves.sort_by_key(|&(k, _)| k);
        for (k, r) in moves {
            let from = VSrc::new(Val::P(STAGING_REG + k));
            self.code.ins("MOV.i32", VDst::V(r), &[from], &[]);
        }
        self.code.place(skip);
        let results = vals
            .into_iter()
            .map(|(c, r)| (c, self.saturate(insn.saturate, VSrc::v(r))))
            .collect();
        self.write_results(&dst.reg, results)
    }

    /// STORE resource, address, src: channel `c` of the write mask to the dword at
    /// `address.x + 4c`; nothing stored when any of them is out of range.
    fn mem_store(
        &mut self,
        insn: &Instruction,
        pos: Option<shaderdiff_model::Pos>,
    ) -> Result<(), CompileError> {
        let Some(dst) = insn.dst.first().copied() else {
            return Err(CompileError::invalid(pos, "STORE needs a resource"));
        };
        let res = self.resource(Some(dst.reg), pos)?;
        let wm = dst.writemask & 0xF;
        let Some(max_c) = channels(wm).max() else {
            return Ok(());
        };
        let off = self.fetch_as(insn, 0, 0, FetchType::Int)?;
        let mut vals = Vec::new();
        for c in channels(wm) {
            vals.push((c, self.fetch_as(insn, 1, c, FetchType::Float)?));
        }
        let ok = self.in_bounds(res, off, 4 * (u32::from(max_c) + 1));
        let skip = self.code.label();
        self.code.branch(ok, true, skip);
        self.resource_address(res, off);
        // One STORE per run of consecutive write-mask channels, from r56.. (set from the
        // highest register down, so that a reload into r56 never clobbers a set one).
        let mut k = 0;
        while k < vals.len() {
            let mut end = k + 1;
            while end < vals.len() && vals[end].0 == vals[end - 1].0 + 1 {
                end += 1;
            }
            for (j, &(_, v)) in vals[k..end].iter().enumerate().rev() {
                self.code
                    .ins("MOV.i32", VDst::P(STAGING_REG + j as u8), &[v], &[]);
            }
            let count = (end - k) as u8;
            let name = words_op("STORE", count);
            self.message(name, &[("slot", "slot0")], count, 4 * u32::from(vals[k].0));
            k = end;
        }
        self.code.place(skip);
        Ok(())
    }

    /// `LOAD`/`STORE` `name` with staging run r56 … r(56 + count − 1), the address pair and
    /// byte offset `off`.
    fn message(
        &mut self,
        name: &'static str,
        mods: &[(&'static str, &'static str)],
        count: u8,
        off: u32,
    ) {
        self.code
            .ins(name, VDst::None, &[VSrc::new(Val::P(ADDR_REG))], mods);
        let last = self.code.last_mut().expect("just emitted");
        last.runs = vec![StagingRun {
            base: STAGING_REG,
            count,
        }];
        last.imms[0] = i64::from(off);
    }

    /// An atomic (module docs): the marker, then — when the write mask has x and the
    /// location is inside the resource — the operation; its returned value
    /// ([`AtomicOp::returned`]) goes to every write-mask channel (the oracle defines x; the
    /// others are undefined). Without x nothing is performed and the channels get 0.
    fn mem_atomic(
        &mut self,
        insn: &Instruction,
        op: AtomicOp,
        pos: Option<shaderdiff_model::Pos>,
    ) -> Result<(), CompileError> {
        let (res, dst) = self.atomic_operands(insn, op, pos)?;
        self.marker();
        let wm = dst.writemask & 0xF;
        let ret = self.zeroed();
        if wm & 1 != 0 {
            let off = self.fetch_as(insn, 1, 0, FetchType::Int)?;
            let (src, cmp) = match op {
                AtomicOp::CmpXchg => (
                    self.fetch_as(insn, 3, 0, FetchType::Int)?,
                    Some(self.fetch_as(insn, 2, 0, FetchType::Int)?),
                ),
                AtomicOp::FAdd => (self.fetch_as(insn, 2, 0, FetchType::Float)?, None),
                _ => (self.fetch_as(insn, 2, 0, FetchType::Int)?, None),
            };
            let ok = self.in_bounds(res, off, 4);
            let skip = self.code.label();
            self.code.branch(ok, true, skip);
            let lost = self.fault == Some(crate::faults::Fault::AtomicLostUpdate);
            match hardware_op(op) {
                // FAULT HOOK `atomic-lost-update`: the add as a plain read-modify-write.
                Some(_) if lost && op == AtomicOp::Add => self.lost_update(res, off, src, ret),
                Some((name, compare)) => {
                    self.resource_address(res, off);
                    if let Some(cmp) = cmp {
                        self.code
                            .ins("MOV.i32", VDst::P(STAGING_REG + 1), &[cmp], &[]);
                    }
                    self.code.ins("MOV.i32", VDst::P(STAGING_REG), &[src], &[]);
                    self.atom_return(name, compare, Site::Atomic(op), false);
                    let r = VSrc::new(Val::P(RETURN_REG));
                    self.code.ins("MOV.i32", VDst::V(ret), &[r], &[]);
                }
                None => self.cas_loop(res, off, src, op, ret),
            }
            self.code.place(skip);
        }
        let value = if op == AtomicOp::IncWrap && wm & 1 != 0 {
            // tgsi.rst ATOMINC_WRAP: dst_x = resource[offset] + 1 (AtomicOp::returned).
            let one = self.code.konst(1);
            self.code.op("IADD.u32", &[VSrc::v(ret), one], &[])
        } else {
            VSrc::v(ret)
        };
        let results = channels(wm)
            .map(|c| (c, self.saturate(insn.saturate, value)))
            .collect();
        self.write_results(&dst.reg, results)
    }

    /// The sequence marker ([`Site::Marker`]).
    pub(super) fn marker(&mut self) {
        self.code.ins(
            "LOAD.i32",
            VDst::None,
            &[VSrc::new(Val::P(RECORD_REG))],
            &[("unsigned", ""), ("slot", "slot0")],
        );
        let off = self.layout.marker;
        let last = self.code.last_mut().expect("just emitted");
        last.staging = Some(Val::P(RETURN_REG));
        last.imms[0] = i64::from(off);
        last.site = Some(Site::Marker);
    }

    /// `ATOM_RETURN.i32.slot0.<name>[.compare] @r59, @r56[:r57], r60:r61, offset:0`, or
    /// (`wide`) `ATOM_RETURN.i64.slot0.<name>[.compare] @r56:r57, @r56:r57[:r58:r59], ...`
    /// ([`super::atomic64`]).
    pub(super) fn atom_return(
        &mut self,
        name: &'static str,
        compare: bool,
        site: Site,
        wide: bool,
    ) {
        let mut mods = vec![("slot", "slot0"), ("atom_opc", name)];
        if compare {
            mods.push(("compare", ""));
        }
        let (ins, ret, words) = if wide {
            ("ATOM_RETURN.i64", STAGING_REG, 2)
        } else {
            ("ATOM_RETURN.i32", RETURN_REG, 1)
        };
        self.code
            .ins(ins, VDst::None, &[VSrc::new(Val::P(ADDR_REG))], &mods);
        let last = self.code.last_mut().expect("just emitted");
        last.runs = vec![
            StagingRun {
                base: ret,
                count: words,
            },
            StagingRun {
                base: STAGING_REG,
                count: if compare { 2 * words } else { words },
            },
        ];
        last.site = Some(site);
    }

    /// `op` as a compare-and-swap loop (module docs); the old value it replaced to `ret`.
    fn cas_loop(&mut self, res: usize, off: VSrc, src: VSrc, op: AtomicOp, ret: VReg) {
        let guess = self.zeroed();
        let top = self.code.label();
        self.code.place(top);
        let g = VSrc::v(guess);
        let new = match op {
            AtomicOp::FAdd => self.code.op("FADD.f32", &[g, src], &[]),
            AtomicOp::IncWrap => {
                // old + 1 <= src ? old + 1 : 0 (unsigned, old + 1 wrapping).
                let one = self.code.konst(1);
                let next = self.code.op("IADD.u32", &[g, one], &[]);
                let z = self.code.konst(0);
                let m1 = [("cmp", "le"), ("result_type", "m1")];
                let keep = self.code.op("ICMP_OR.u32", &[next, src, z], &m1);
                let zero = self.code.lane_const(0);
                self.code.op("LSHIFT_AND.i32", &[next, zero, keep], &[])
            }
            _ => {
                // DEC_WRAP: old > 0 && old < src ? old - 1 : 0 (unsigned).
                let z = self.code.konst(0);
                let nonzero = self.code.op(
                    "ICMP_OR.u32",
                    &[g, z, z],
                    &[("cmp", "ne"), ("result_type", "m1")],
                );
                let keep = self.code.op(
                    "ICMP_AND.u32",
                    &[g, src, nonzero],
                    &[("cmp", "lt"), ("result_type", "m1")],
                );
                let one = self.code.konst(1);
                let prev = self.code.op("ISUB.s32", &[g, one], &[]);
                let zero = self.code.lane_const(0);
                self.code.op("LSHIFT_AND.i32", &[prev, zero, keep], &[])
            }
        };
        self.resource_address(res, off);
        self.code.ins("MOV.i32", VDst::P(SIDEBAND_REG), &[src], &[]);
        self.code
            .ins("MOV.i32", VDst::P(STAGING_REG + 1), &[g], &[]);
        self.code.ins("MOV.i32", VDst::P(STAGING_REG), &[new], &[]);
        self.atom_return("axchg", true, Site::CasLoop(op), false);
        let r = VSrc::new(Val::P(RETURN_REG));
        let got = self.code.op("MOV.i32", &[r], &[]);
        let z = self.code.konst(0);
        let same = self.code.op(
            "ICMP_OR.u32",
            &[got, g, z],
            &[("cmp", "eq"), ("result_type", "m1")],
        );
        self.code.ins("MOV.i32", VDst::V(guess), &[got], &[]);
        self.code.branch(same, true, top);
        self.code.ins("MOV.i32", VDst::V(ret), &[g], &[]);
    }

    /// The `atomic-lost-update` fault: ATOMUADD as LOAD, IADD, STORE. The LOAD is a
    /// scheduling point of the simulator, so other threads can update the location before
    /// the STORE overwrites it.
    fn lost_update(&mut self, res: usize, off: VSrc, src: VSrc, ret: VReg) {
        self.resource_address(res, off);
        self.code.ins("MOV.i32", VDst::P(SIDEBAND_REG), &[src], &[]);
        self.code.ins(
            "LOAD.i32",
            VDst::None,
            &[VSrc::new(Val::P(ADDR_REG))],
            &[("unsigned", ""), ("slot", "slot0")],
        );
        let last = self.code.last_mut().expect("just emitted");
        last.staging = Some(Val::P(RETURN_REG));
        last.site = Some(Site::PlainRead(AtomicOp::Add));
        let r = VSrc::new(Val::P(RETURN_REG));
        self.code.ins("MOV.i32", VDst::V(ret), &[r], &[]);
        let new = self.code.op("IADD.u32", &[VSrc::v(ret), src], &[]);
        self.store_at(Val::P(ADDR_REG), 0, new);
    }
}

/// `LOAD.i{32·count}` or `STORE.i{32·count}` (`op` is `"LOAD"` or `"STORE"`): the message
/// moving a run of `count` words, 1 to 4 (ISA.xml).
///
/// # Panics
/// For another count (a compiler bug: a vec4 has four words).
fn words_op(op: &str, count: u8) -> &'static str {
    match (op, count) {
        ("LOAD", 1) => "LOAD.i32",
        ("LOAD", 2) => "LOAD.i64",
        ("LOAD", 3) => "LOAD.i96",
        ("LOAD", 4) => "LOAD.i128",
        ("STORE", 1) => "STORE.i32",
        ("STORE", 2) => "STORE.i64",
        ("STORE", 3) => "STORE.i96",
        ("STORE", 4) => "STORE.i128",
        _ => panic!("no {op} of {count} words in ISA.xml"),
    }
}
