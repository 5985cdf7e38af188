//! Lowering of NV global memory instructions (NV_gpu_program5 §2.X.4.5 "Program Memory
//! Access", §2.X.8.Z LOAD, STORE, ATOM, MEMBAR; NV_shader_atomic_float; NOTES.md §12) to
//! the IR's memory model (tgsi.rst "Resource Access Opcodes", "Atomic opcodes").
//!
//! Global memory model. NV addresses are 64-bit GPU addresses; INTERFACE.md's inputs give
//! global memory as regions keyed by base address (`"global"`). The lowered program reads
//! all of global memory through one resource, `MEMORY[g], GLOBAL`, a window that starts at
//! the hidden parameter `global.base` (a CONST register, (lo, hi) of the window's base
//! address): the harness fills the window with the regions (from the lowest base to the
//! end of the highest region, rounded up to 4 bytes) and the base, and maps the window back
//! to regions on output ([`GLOBAL_WINDOW`], [`GLOBAL_BASE`] name the two registers in the
//! [`super::NameMap`]). An address becomes the window offset `address - base` when that
//! fits in 32 bits; otherwise, or when the address is not aligned to the access size
//! (§2.X.4.5: "must be a multiple of the size"; misaligned accesses are undefined), the
//! offset is [`OUT_OF_RANGE`], which the memory model treats as outside the resource:
//! loads and atomic results are undefined, stores do nothing. Bytes between two regions
//! read as zero (the harness has no way to say they do not exist).
//!
//! Storage modifiers (Table X.14): LOAD and STORE take U32 S32 F32 and their X2 / X4 forms
//! (one dword per component), U64 S64 F64 and their X2 / X4 forms (a LONG variable, one
//! channel pair per component), and for LOAD U8 S8 U16 S16 (zero- or sign-extended from
//! the aligned dword); STORE of 8 or 16 bits is a read-modify-write of the dword (not
//! atomic: two invocations storing bytes of one dword race). LOAD writes 0 to the
//! components the storage type does not cover (NOTES.md §12). ATOM takes the 32-bit forms
//! of Table X.Y: ADD (U32 S32, F32 with NV_shader_atomic_float), MIN, MAX, AND, OR, XOR
//! (U32 S32), IWRAP (U32), EXCH and CSWAP (U32 S32); the result's x is the value read, y, z
//! and w are undefined (§ ATOM).
//!
//! F16, F16X2 and F16X4 (NV_gpu_program5_mem_extended) convert between binary16 in memory
//! and binary32 in registers (`lower_f16.rs`).
//!
//! DWRAP (U32) cannot use TGSI's ATOMDEC_WRAP, which wraps to 0 where NV wraps to the
//! operand: it is a compare-and-swap loop of IR ATOMCAS attempts (`atom_dwrap`).
//!
//! S8X2 S8X4 S16X2 S16X4 U8X2 U8X4 U16X2 U16X4 (mem_extended) load or store each component
//! like the scalar form at `offset + c * size`.
//!
//! 64-bit atomics (U64, S64; F64 ADD and EXCH) are `lower_atom64.rs`. Refused: F16
//! atomics (NV_shader_atomic_fp16_vector). `.COH` / `.VOL` have no
//! effect in a single-threaded memory model and are accepted.

use super::ast::{AtomicOp, BaseType, DataType, Instruction as NvInsn};
use super::lower::{chan, dst, src};
use super::lower::{Ctx, Elem, LowerError};
use super::NvOpcode as N;
use crate::names::{File, MemoryType};
use crate::opcode::Opcode as O;
use crate::program::{self as ir, Register, Resource, Saturate};

/// The NameMap name of the global memory window (`MEMORY[g]`).
pub const GLOBAL_WINDOW: &str = "global";
/// The NameMap name of the shared memory window (`MEMORY[s], SHARED`).
pub const SHARED_WINDOW: &str = "program.sharedmem";
/// The NameMap name of the window's base address parameter (a CONST: lo, hi, 0, 0).
pub const GLOBAL_BASE: &str = "global.base";
/// The window offset of an address outside the window or misaligned: far past any window
/// (windows are smaller than 2 GiB), and still outside after adding a component offset.
pub const OUT_OF_RANGE: u32 = 0x8000_0000;

const X: u8 = 0b0001;

/// The shape of a storage modifier.
#[derive(Clone, Copy)]
pub(super) struct Storage {
    pub(super) base: BaseType,
    /// Bits per component: 8, 16, 32 or 64.
    pub(super) bits: u32,
    /// Components: 1, 2 or 4.
    pub(super) count: u32,
}

impl Storage {
    /// Bytes accessed (the alignment §2.X.4.5 requires).
    pub(super) fn size(self) -> u32 {
        self.bits / 8 * self.count
    }
}

impl Ctx<'_> {
    /// The storage modifier of a memory instruction (§2.X.4.1: exactly one is required).
    pub(super) fn storage(&self, insn: &NvInsn) -> Result<Storage, LowerError> {
        let name = insn.opcode.name();
        let t: DataType = insn
            .mods
            .ty
            .ok_or_else(|| self.invalid(format!("{name} needs a storage modifier")))?;
        let Some(bits) = t.bits() else {
            return Err(self.invalid(format!(
                "{name}.{t}: a storage modifier (U32, F32X4, S8 ...) is required"
            )));
        };
        let half = t.base() == BaseType::F && bits == 16;
        if half && matches!(insn.opcode, N::Atom | N::Atoms | N::Atomb | N::Atomim) {
            return Err(self.unsupported(format!(
                "{name}.{t}: F16 atomics (NV_shader_atomic_fp16_vector)"
            )));
        }
        Ok(Storage {
            base: t.base(),
            bits,
            count: t.components(),
        })
    }

    /// `w.x` = the dword holding byte `off`, `w.y` its offset, `w.z` the bit position of
    /// byte `off` in it.
    pub(super) fn narrow_word(&mut self, buf: Register, off: ir::Src) -> Register {
        let k3 = src(self.imm([!3; 4]), [0; 4]);
        let three = src(self.imm([3; 4]), [0; 4]);
        let eight = src(self.imm([8; 4]), [0; 4]);
        let w = self.hidden();
        self.emit(O::AND, vec![dst(w, 0b0010)], vec![off, k3]);
        self.emit(
            O::LOAD,
            vec![dst(w, X)],
            vec![src(buf, [0, 1, 2, 3]), src(w, [1; 4])],
        );
        self.emit(O::AND, vec![dst(w, 0b0100)], vec![off, three]);
        self.emit(O::UMUL, vec![dst(w, 0b0100)], vec![src(w, [2; 4]), eight]);
        w
    }

    /// The global memory window and its base parameter, declared on first use.
    fn global_window(&mut self) -> (Register, Register) {
        if let Some((m, c)) = self.global {
            return (
                Register::new(File::Memory, m as i32),
                Register::new(File::Const, c as i32),
            );
        }
        let m = self.next_memory();
        let c = self.counts.entry(File::Const).or_insert(0);
        let ci = *c;
        *c += 1;
        self.names
            .entries
            .push((GLOBAL_WINDOW.to_string(), File::Memory, m));
        self.names
            .entries
            .push((GLOBAL_BASE.to_string(), File::Const, ci));
        self.global = Some((m, ci));
        (
            Register::new(File::Memory, m as i32),
            Register::new(File::Const, ci as i32),
        )
    }

    /// The window offset (in `.x` of the returned source) of the address operand `k`, an
    /// unsigned scalar (§2.X.8.Z LOAD: "the ... unsigned integer scalar operand"): a LONG
    /// component is a 64-bit address, a 32-bit operand is zero-extended. [`OUT_OF_RANGE`]
    /// when the address is outside the window or not a multiple of `align`.
    fn global_offset(
        &mut self,
        insn: &NvInsn,
        k: usize,
        align: u32,
    ) -> Result<ir::Src, LowerError> {
        let (_, base) = self.global_window();
        let zero = src(self.imm([0; 4]), [0, 1, 2, 3]);
        let addr = match insn.srcs.get(k).map(|s| &s.base) {
            Some(super::ast::SrcBase::Ref(r)) if matches!(self.resolve(r), Ok(Elem::Long(_))) => {
                self.wide_operand(insn, k, BaseType::U)?[0]
            }
            _ => {
                // A 32-bit address, zero-extended.
                let a = self.operand(insn, k, BaseType::U)?;
                let t = self.hidden();
                self.emit(O::MOV, vec![dst(t, X)], vec![src(a.reg, [a.swizzle[0]; 4])]);
                self.emit(O::MOV, vec![dst(t, 0b0010)], vec![zero]);
                src(t, [0, 1, 0, 1])
            }
        };
        let t = self.hidden();
        let ok = self.hidden();
        // t.xy = address - base (64-bit); ok.x = high word is 0 and the address aligned.
        self.emit(
            O::I64NEG,
            vec![dst(t, 0b0011)],
            vec![src(base, [0, 1, 0, 1])],
        );
        self.emit(
            O::U64ADD,
            vec![dst(t, 0b0011)],
            vec![addr, src(t, [0, 1, 0, 1])],
        );
        self.emit(O::USEQ, vec![dst(ok, X)], vec![src(t, [1; 4]), zero]);
        self.far_unless_aligned(t, chan(addr, 0), align, Some(ok));
        Ok(src(t, [0; 4]))
    }

    /// `t.x` = [`OUT_OF_RANGE`] unless the address `x` (its `.x`) is a multiple of `align`
    /// and, when given, `ok.x` is non-zero (§2.X.4.5: misaligned accesses are undefined).
    fn far_unless_aligned(&mut self, t: Register, x: ir::Src, align: u32, ok: Option<Register>) {
        let zero = src(self.imm([0; 4]), [0; 4]);
        let a = self.hidden();
        let mask = src(self.imm([align.max(1) - 1; 4]), [0; 4]);
        self.emit(O::AND, vec![dst(a, X)], vec![chan(x, 0), mask]);
        self.emit(O::USEQ, vec![dst(a, X)], vec![src(a, [0; 4]), zero]);
        if let Some(ok) = ok {
            self.emit(
                O::AND,
                vec![dst(a, X)],
                vec![src(a, [0; 4]), src(ok, [0; 4])],
            );
        }
        let far = src(self.imm([OUT_OF_RANGE; 4]), [0; 4]);
        self.emit(
            O::UCMP,
            vec![dst(t, X)],
            vec![src(a, [0; 4]), src(t, [0; 4]), far],
        );
    }

    /// A fresh `MEMORY` register index.
    pub(super) fn next_memory(&mut self) -> u32 {
        let c = self.counts.entry(File::Memory).or_insert(0);
        *c += 1;
        *c - 1
    }

    /// The shared memory window (`MEMORY[s], SHARED`), declared on first use; its size is
    /// the program's `SHARED_MEMORY` (a program using shared memory without one fails to
    /// load, NV_compute_program5 §2.X.3.5).
    fn shared_window(&mut self) -> Result<Register, LowerError> {
        if let Some(s) = self.shared {
            return Ok(Register::new(File::Memory, s as i32));
        }
        let size = self
            .nv
            .program_decls
            .iter()
            .find_map(|d| match d {
                super::ast::ProgramDecl::SharedMemory(n) => Some(*n),
                _ => None,
            })
            .ok_or_else(|| {
                self.invalid("LDS, STS and ATOMS need a SHARED_MEMORY declaration (NV_compute_program5 §2.X.3.5)".into())
            })?;
        let s = self.next_memory();
        self.names
            .entries
            .push((SHARED_WINDOW.to_string(), File::Memory, s));
        self.names.shared_memory = Some(size);
        self.shared = Some(s);
        Ok(Register::new(File::Memory, s as i32))
    }

    /// The byte offset (in `.x`) of the memory operand `k` of LDS / STS / ATOMS (a SHARED
    /// variable), LDC (a CBUFFER variable) or LDB / STB / ATOMB (a STORAGE variable): the
    /// variable's first byte plus its index (absolute, or a TEMP / ADDRESS component plus a
    /// constant); [`OUT_OF_RANGE`] when not a multiple of `align`.
    fn var_offset(&mut self, insn: &NvInsn, k: usize, align: u32) -> Result<ir::Src, LowerError> {
        let name = insn.opcode.name();
        let bad = || {
            let kind = match insn.opcode {
                N::Ldc => "CBUFFER",
                N::Ldb | N::Stb | N::Atomb => "STORAGE",
                _ => "SHARED",
            };
            format!("{name}: operand {} must be a {kind} variable", k + 1)
        };
        let Some(super::ast::SrcBase::Ref(super::ast::VarRef::Var { name: var, index })) =
            insn.srcs.get(k).map(|s| &s.base)
        else {
            return Err(self.invalid(bad()));
        };
        let offset = match (insn.opcode, self.vars.get(var).cloned()) {
            (N::Ldc, Some(super::lower::Var::CBuffer { offset, .. })) => offset,
            (N::Ldb | N::Stb | N::Atomb, Some(super::lower::Var::Storage { offset, .. })) => offset,
            (N::Lds | N::Sts | N::Atoms, Some(super::lower::Var::Shared { offset })) => offset,
            _ => return Err(self.invalid(bad())),
        };
        let t = self.hidden();
        match index.first() {
            None => {
                let k = self.imm([offset; 4]);
                self.emit(O::MOV, vec![dst(t, X)], vec![src(k, [0; 4])]);
            }
            Some(super::ast::Index::Abs(a)) => {
                let k = self.imm([offset.wrapping_add(*a); 4]);
                self.emit(O::MOV, vec![dst(t, X)], vec![src(k, [0; 4])]);
            }
            Some(super::ast::Index::Rel(rel)) => {
                let reg = match self.vars.get(&rel.var) {
                    Some(super::lower::Var::Addr(i)) => Register::new(File::Address, *i as i32),
                    Some(super::lower::Var::Temp { base }) => Register::new(File::Temp, *base as i32),
                    _ => {
                        return Err(self.unsupported(format!(
                            "{name}: shared memory index held in `{}` (only ADDRESS and TEMP variables)",
                            rel.var
                        )))
                    }
                };
                let k = self.imm([offset.wrapping_add(rel.offset as u32); 4]);
                self.emit(
                    O::UADD,
                    vec![dst(t, X)],
                    vec![src(reg, [rel.comp; 4]), src(k, [0; 4])],
                );
            }
            Some(_) => return Err(self.invalid(bad())),
        }
        self.far_unless_aligned(t, src(t, [0; 4]), align, None);
        Ok(src(t, [0; 4]))
    }

    /// The memory window and offset of a memory instruction's address operand `k`: shared
    /// memory for LDS / STS / ATOMS, global memory otherwise.
    pub(super) fn mem_target(
        &mut self,
        insn: &NvInsn,
        k: usize,
        align: u32,
    ) -> Result<(Register, ir::Src), LowerError> {
        if matches!(insn.opcode, N::Ldc | N::Ldb | N::Stb | N::Atomb) {
            let name = insn.opcode.name();
            let var = match insn.srcs.get(k).map(|s| &s.base) {
                Some(super::ast::SrcBase::Ref(super::ast::VarRef::Var { name, .. })) => {
                    self.vars.get(name).cloned()
                }
                _ => None,
            };
            let buffer = match (insn.opcode, var) {
                (N::Ldc, Some(super::lower::Var::CBuffer { buffer, .. })) => buffer,
                (N::Ldb | N::Stb | N::Atomb, Some(super::lower::Var::Storage { buffer, .. })) => {
                    buffer
                }
                (N::Ldc, _) => {
                    return Err(
                        self.invalid(format!("{name}: the operand must be a CBUFFER variable"))
                    )
                }
                _ => {
                    return Err(
                        self.invalid(format!("{name}: the operand must be a STORAGE variable"))
                    )
                }
            };
            let off = self.var_offset(insn, k, align)?;
            return Ok((Register::new(File::Buffer, buffer as i32), off));
        }
        if matches!(insn.opcode, N::Lds | N::Sts | N::Atoms) {
            let mem = self.shared_window()?;
            let off = self.var_offset(insn, k, align)?;
            Ok((mem, off))
        } else {
            let (mem, _) = self.global_window();
            let off = self.global_offset(insn, k, align)?;
            Ok((mem, off))
        }
    }

    /// `off + bytes` in `.x` of a hidden TEMP.
    fn offset_plus(&mut self, off: ir::Src, bytes: u32) -> ir::Src {
        if bytes == 0 {
            return off;
        }
        let k = src(self.imm([bytes; 4]), [0; 4]);
        let t = self.hidden();
        self.emit(O::UADD, vec![dst(t, X)], vec![off, k]);
        src(t, [0; 4])
    }

    /// LOAD with a 32-bit result (§2.X.8.Z LOAD): 8/16/32-bit storage, components past the
    /// storage type's are 0. Returns through `d` like any 32-bit result.
    pub(super) fn load32(
        &mut self,
        insn: &NvInsn,
        d: ir::Dst,
        sat: Saturate,
    ) -> Result<(), LowerError> {
        let st = self.storage(insn)?;
        if st.bits == 64 {
            return Err(self.invalid(format!(
                "LOAD.{}: 64-bit storage needs a LONG result",
                insn.mods.ty.map(DataType::name).unwrap_or("")
            )));
        }
        let (mem, off) = self.mem_target(insn, 0, st.size())?;
        let t = self.hidden();
        let zero = src(self.imm([0; 4]), [0, 1, 2, 3]);
        self.emit(O::MOV, vec![dst(t, 0xF)], vec![zero]);
        if st.base == BaseType::F && st.bits == 16 {
            self.load_f16(mem, off, st.count, t);
        } else if st.bits == 32 {
            let mask = (1u8 << st.count) - 1;
            self.emit(
                O::LOAD,
                vec![dst(t, mask)],
                vec![src(mem, [0, 1, 2, 3]), off],
            );
        } else {
            // Per component c (mem_extended X2 / X4: byte offset + c * size), the aligned
            // dword, then the field at (offset & 3) * 8 (little-endian).
            for c in 0..st.count {
                let off = self.offset_plus(off, c * st.bits / 8);
                let w = self.narrow_word(mem, off);
                let bits = src(self.imm([st.bits; 4]), [0; 4]);
                let op = if st.base == BaseType::S {
                    O::IBFE
                } else {
                    O::UBFE
                };
                self.emit(
                    op,
                    vec![dst(t, 1 << c)],
                    vec![src(w, [0; 4]), src(w, [2; 4]), bits],
                );
            }
        }
        let mut i = ir::Instruction::new(O::MOV, vec![d], vec![src(t, [0, 1, 2, 3])]);
        i.saturate = sat;
        self.push(i);
        Ok(())
    }

    /// LOAD of 64-bit storage into a LONG result: per component, the channel pair at
    /// `offset + 8 c`; components past the storage type's are 0.
    pub(super) fn load64(
        &mut self,
        insn: &NvInsn,
        results: &[Option<Register>; 4],
    ) -> Result<(), LowerError> {
        let st = self.storage(insn)?;
        if st.bits != 64 {
            return Err(self.unsupported(format!(
                "LOAD.{} into a LONG variable",
                insn.mods.ty.map(DataType::name).unwrap_or("")
            )));
        }
        let (mem, off) = self.mem_target(insn, 0, st.size())?;
        let zero = src(self.imm([0; 4]), [0, 1, 2, 3]);
        for (c, r) in results.iter().enumerate() {
            let Some(h) = *r else { continue };
            if (c as u32) < st.count {
                let o = self.offset_plus(off, 8 * c as u32);
                self.emit(
                    O::LOAD,
                    vec![dst(h, 0b0011)],
                    vec![src(mem, [0, 1, 2, 3]), o],
                );
            } else {
                self.emit(O::MOV, vec![dst(h, 0b0011)], vec![zero]);
            }
        }
        Ok(())
    }

    /// STORE (§2.X.8.Z STORE): the first 1, 2 or 4 components of the value operand.
    pub(super) fn store(&mut self, insn: &NvInsn) -> Result<(), LowerError> {
        let st = self.storage(insn)?;
        let (mem, off) = self.mem_target(insn, 1, st.size())?;
        if st.base == BaseType::F && st.bits == 16 {
            let v = self.operand(insn, 0, BaseType::F)?;
            self.store_f16(mem, off, st.count, v);
            return Ok(());
        }
        match st.bits {
            64 => {
                let v = self.wide_operand(insn, 0, st.base)?;
                for (c, vc) in v.iter().enumerate().take(st.count as usize) {
                    let o = self.offset_plus(off, 8 * c as u32);
                    self.emit(O::STORE, vec![dst(mem, 0b0011)], vec![o, *vc]);
                }
            }
            32 => {
                let v = self.operand(insn, 0, st.base)?;
                let mask = (1u8 << st.count) - 1;
                self.emit(O::STORE, vec![dst(mem, mask)], vec![off, v]);
            }
            _ => {
                // Read-modify-write of the aligned dword, per component (mem_extended X2 /
                // X4: byte offset + c * size).
                let v = self.operand(insn, 0, st.base)?;
                for c in 0..st.count {
                    let off = self.offset_plus(off, c * st.bits / 8);
                    let bits = src(self.imm([st.bits; 4]), [0; 4]);
                    let w = self.narrow_word(mem, off);
                    self.emit(
                        O::BFI,
                        vec![dst(w, X)],
                        vec![
                            src(w, [0; 4]),
                            src(v.reg, [v.swizzle[c as usize]; 4]),
                            src(w, [2; 4]),
                            bits,
                        ],
                    );
                    self.emit(
                        O::STORE,
                        vec![dst(mem, X)],
                        vec![src(w, [1; 4]), src(w, [0; 4])],
                    );
                }
            }
        }
        Ok(())
    }

    /// ATOM (§2.X.8.Z ATOM): `x` = the value read; `y`, `z`, `w` undefined (the IR atomic's
    /// other channels are).
    pub(super) fn atom(
        &mut self,
        insn: &NvInsn,
        d: ir::Dst,
        sat: Saturate,
    ) -> Result<(), LowerError> {
        let irop = self.atom_op(insn)?;
        let (mem, off) = self.mem_target(insn, 1, 4)?;
        self.atom_at(insn, irop, mem, off, d, sat)
    }

    /// The IR atomic of an ATOM / ATOMS / ATOMB / ATOMIM (§2.X.8.Z ATOM Table X.Y,
    /// EXT_shader_image_load_store Table X.4, NV_shader_atomic_float): `None` for DWRAP
    /// (a compare-and-swap loop, [`Self::atom_at`]).
    pub(super) fn atom_op(&self, insn: &NvInsn) -> Result<Option<O>, LowerError> {
        let st = self.storage(insn)?;
        let t = insn.mods.ty.map(DataType::name).unwrap_or("");
        let name = insn.opcode.name();
        let op = insn
            .mods
            .atomic
            .ok_or_else(|| self.invalid(format!("{name} needs an atomic modifier")))?;
        if st.bits == 64 && insn.opcode == N::Atomim {
            return Err(self.invalid(format!(
                "{name}.{}.{t}: image atomics take 32-bit storage (Table X.4; \
                 NV_shader_atomic_int64 extends ATOM, ATOMS and ATOMB only)",
                op.name()
            )));
        }
        if st.bits != 32 || st.count != 1 {
            return Err(self.unsupported(format!("{name}.{}.{t}: only 32-bit atomics", op.name())));
        }
        use BaseType::{F, S, U};
        Ok(Some(match (op, st.base) {
            (AtomicOp::Add, F) => O::ATOMFADD,
            (AtomicOp::Add, _) => O::ATOMUADD,
            (AtomicOp::Min, S) => O::ATOMIMIN,
            (AtomicOp::Min, U) => O::ATOMUMIN,
            (AtomicOp::Max, S) => O::ATOMIMAX,
            (AtomicOp::Max, U) => O::ATOMUMAX,
            (AtomicOp::And, S | U) => O::ATOMAND,
            (AtomicOp::Or, S | U) => O::ATOMOR,
            (AtomicOp::Xor, S | U) => O::ATOMXOR,
            (AtomicOp::Exch, _) => O::ATOMXCHG,
            (AtomicOp::CSwap, S | U) => O::ATOMCAS,
            // (old >= v) ? 0 : old + 1 is ATOMINC_WRAP's (old + 1 <= v) ? old + 1 : 0.
            (AtomicOp::IWrap, U) => O::ATOMINC_WRAP,
            // NV wraps to the operand where TGSI's ATOMDEC_WRAP wraps to 0: a CAS loop.
            (AtomicOp::DWrap, U) => return Ok(None),
            _ => {
                return Err(self.invalid(format!(
                    "{name}.{}.{t}: not in Table X.Y / Table X.4",
                    op.name()
                )))
            }
        }))
    }

    /// The atomic `irop` of [`Self::atom_op`] (`None`: DWRAP) on the 32-bit word at byte
    /// `off` of `mem`, with operand 0 of `insn`; the value read goes to `d`.
    pub(super) fn atom_at(
        &mut self,
        insn: &NvInsn,
        irop: Option<O>,
        mem: Register,
        off: ir::Src,
        d: ir::Dst,
        sat: Saturate,
    ) -> Result<(), LowerError> {
        let Some(irop) = irop else {
            return self.atom_dwrap(insn, mem, off, d, sat);
        };
        let st = self.storage(insn)?;
        // The operand with its modifiers applied (§2.X.4.2): x, and y for CSWAP.
        let v = self.operand(insn, 0, st.base)?;
        let m = self.hidden();
        self.emit(O::MOV, vec![dst(m, 0xF)], vec![v]);
        let h = self.hidden();
        let mut srcs = vec![src(mem, [0, 1, 2, 3]), off, src(m, [0; 4])];
        if irop == O::ATOMCAS {
            srcs.push(src(m, [1; 4]));
        }
        self.emit(irop, vec![dst(h, d.writemask | X)], srcs);
        if irop == O::ATOMINC_WRAP {
            // tgsi.rst: ATOMINC_WRAP returns `old + 1` (wrapping); NV returns `old`.
            let minus_one = src(self.imm([u32::MAX; 4]), [0; 4]);
            self.emit(O::UADD, vec![dst(h, X)], vec![src(h, [0; 4]), minus_one]);
        }
        let mut i = ir::Instruction::new(O::MOV, vec![d], vec![src(h, [0, 1, 2, 3])]);
        i.saturate = sat;
        self.push(i);
        Ok(())
    }

    /// ATOM.DWRAP.U32 (and ATOMS / ATOMB; §2.X.8.Z ATOM: `writeval = (result == 0 ||
    /// result > tmp0.x) ? tmp0.x : result - 1`, unsigned) as a compare-and-swap loop: from
    /// a guess `g` of the old value (0 at first), compute `f(g)`, `ATOMCAS` it in when
    /// memory holds `g`, and retry with the value the CAS found until it finds its guess.
    /// Every attempt is one IR atomic, so the loop is a serial history of CAS operations
    /// that the memory model logs and judges like any other; the successful attempt
    /// performs exactly NV's transition `old → f(old)` and returns `old` in `x` (`y`, `z`,
    /// `w` undefined, as the IR atomic leaves them). It terminates: a round of attempts in
    /// which none succeeds writes nothing, so every retrying invocation then holds the
    /// current value and the first of them succeeds next round. Out of range the CAS is
    /// not performed and its result undefined (the oracle makes the invocation
    /// unconstrained, the engines return a fixed value, which ends the loop at the second
    /// attempt).
    fn atom_dwrap(
        &mut self,
        insn: &NvInsn,
        mem: Register,
        off: ir::Src,
        d: ir::Dst,
        sat: Saturate,
    ) -> Result<(), LowerError> {
        let v = self.operand(insn, 0, BaseType::U)?;
        let v = src(v.reg, [v.swizzle[0]; 4]);
        let zero = src(self.imm([0; 4]), [0; 4]);
        let minus_one = src(self.imm([u32::MAX; 4]), [0; 4]);
        // g.x = guess, g.y = f(guess); f.x = wrap?, f.y = guess - 1, f.z = found the guess.
        let g = self.hidden();
        let f = self.hidden();
        let h = self.hidden();
        // The operand is read once, before the loop (a destination that is also the
        // operand must not change it between attempts).
        self.emit(O::MOV, vec![dst(g, 0b0100)], vec![v]);
        self.emit(O::MOV, vec![dst(g, X)], vec![zero]);
        self.emit(O::BGNLOOP, vec![], vec![]);
        let (gx, gz) = (src(g, [0; 4]), src(g, [2; 4]));
        self.emit(O::USEQ, vec![dst(f, X)], vec![gx, zero]);
        self.emit(O::USLT, vec![dst(f, 0b0010)], vec![gz, gx]);
        self.emit(O::OR, vec![dst(f, X)], vec![src(f, [0; 4]), src(f, [1; 4])]);
        self.emit(O::UADD, vec![dst(f, 0b0010)], vec![gx, minus_one]);
        self.emit(
            O::UCMP,
            vec![dst(g, 0b0010)],
            vec![src(f, [0; 4]), gz, src(f, [1; 4])],
        );
        self.emit(
            O::ATOMCAS,
            vec![dst(h, d.writemask | X)],
            vec![src(mem, [0, 1, 2, 3]), off, gx, src(g, [1; 4])],
        );
        self.emit(O::USEQ, vec![dst(f, 0b0100)], vec![src(h, [0; 4]), gx]);
        self.emit(O::MOV, vec![dst(g, X)], vec![src(h, [0; 4])]);
        self.emit(O::UIF, vec![], vec![src(f, [2; 4])]);
        self.emit(O::BRK, vec![], vec![]);
        self.emit(O::ENDIF, vec![], vec![]);
        self.emit(O::ENDLOOP, vec![], vec![]);
        let mut i = ir::Instruction::new(O::MOV, vec![d], vec![src(h, [0, 1, 2, 3])]);
        i.saturate = sat;
        self.push(i);
        Ok(())
    }

    /// MEMBAR (§2.X.8.Z MEMBAR): the IR's MEMBAR on storage buffers (bit 0, tgsi.rst).
    pub(super) fn membar(&mut self) {
        let flags = self.imm([1; 4]);
        self.emit(O::MEMBAR, vec![], vec![src(flags, [0; 4])]);
    }

    /// The declarations of the global and shared memory windows the program uses, by
    /// register index.
    pub(super) fn memory_declarations(&self) -> Vec<ir::Declaration> {
        let mut out = Vec::new();
        for (m, kind) in [
            (self.global.map(|g| g.0), MemoryType::Global),
            (self.shared, MemoryType::Shared),
        ] {
            if let Some(m) = m {
                let mut d = ir::Declaration::new(File::Memory, m, m);
                d.resource = Some(Resource::Memory(kind));
                out.push(d);
            }
        }
        out.sort_by_key(|d| d.first);
        out
    }

    /// BAR (NV_compute_program5 §2.X.8.Z BAR): the IR's BARRIER.
    pub(super) fn bar(&mut self) {
        self.emit(O::BARRIER, vec![], vec![]);
    }
}
