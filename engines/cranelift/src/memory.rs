//! Memory resources of the jit at run time: the bytes of every `BUFFER[n]` / `MEMORY[n]`
//! resource, the table generated code reads them through, the atomic runtime call and the
//! reported [`Outputs`] fields.
//!
//! What the memory instructions do (LOAD, STORE, RESQ, ATOM*, MEMBAR, BARRIER) is lowered in
//! `crate::lower::memory`, whose module docs state the semantics with their tgsi.rst
//! sections; this module only holds the host side:
//!
//! * [`MemPlan`]: the declared resources (`DCL BUFFER[n]`, `DCL MEMORY[n]` GLOBAL or SHARED,
//!   TEXT-FORMAT.md §6.4) and the workgroup size (`CS_FIXED_BLOCK_WIDTH * HEIGHT * DEPTH`, an
//!   absent property counting as 1: the oracle's `workgroup_size`, `shaderdiff_oracles::
//!   interp` docs "Memory model").
//! * [`MemRuntime`]: one byte array per resource (SHARED: one copy per workgroup, each
//!   starting from the inputs' bytes), sized from the inputs (absent: empty), and a
//!   [`ResDesc`] per resource for generated code.
//! * [`shaderdiff_atomic`]: the read-modify-write of one invocation's atomic, with the
//!   jit's own arithmetic (`crate::atomic`, from tgsi.rst "Atomic opcodes"), appending the
//!   [`AtomicRecord`] to the run's log. Calls happen one at a time in execution order, so
//!   the log is the jit's serial order.
// Numbers here come from user input (program text, inputs files, machine code): no
// arithmetic may wrap or panic unnoticed.
#![warn(clippy::arithmetic_side_effects)]

use cranelift_codegen::ir::types::{I32, I64};
use shaderdiff_model::atomic::{AtomicOp, AtomicRecord, AtomicWidth, Location, Space};
use shaderdiff_model::{File, MemoryType, Program, Resource};
use shaderdiff_model::{Inputs, Outputs, RegKey};

use crate::alu::LibcallDef;
use crate::atomic;
use crate::faults::Fault;
use crate::run::RunCtx;

/// Most bytes of SHARED memory copies one run allocates (all resources together): 256 MiB.
pub(crate) const MAX_SHARED_BYTES: u64 = 256 << 20;

/// Symbol of [`shaderdiff_atomic`].
pub(crate) const ATOMIC_SYMBOL: &str = "shaderdiff_atomic";

/// The flag generated code adds to the operation number of an atomic on a 64-bit location.
pub(crate) const WIDE_ATOMIC: u32 = 0x100;

/// The operations of the TGSI atomic opcodes, indexed by the operation number generated
/// code passes to [`shaderdiff_atomic`].
pub(crate) const ATOMIC_OPS: [AtomicOp; 13] = [
    AtomicOp::Add,
    AtomicOp::FAdd,
    AtomicOp::Xchg,
    AtomicOp::CmpXchg,
    AtomicOp::And,
    AtomicOp::Or,
    AtomicOp::Xor,
    AtomicOp::UMin,
    AtomicOp::UMax,
    AtomicOp::IMin,
    AtomicOp::IMax,
    AtomicOp::IncWrap,
    AtomicOp::DecWrap,
];

/// One declared resource.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct ResDecl {
    /// `BUFFER[n]` or `MEMORY[n]`.
    pub key: RegKey,
    /// `MEMORY[n], SHARED`: one copy per workgroup.
    pub shared: bool,
}

/// The memory resources of a program and its workgroup size.
#[derive(Clone, Debug, Default)]
pub(crate) struct MemPlan {
    /// Declared resources in declaration order (index = resource number in generated code).
    pub resources: Vec<ResDecl>,
    /// Invocations per workgroup (1 outside COMP programs).
    pub wg_size: u32,
    /// The program has a memory instruction or declares a resource (its outputs carry an
    /// atomic log, as the oracle's do).
    pub has_memory: bool,
    /// The catalogued fault switched on, for the atomic arithmetic (`crate::atomic`).
    pub fault: Option<Fault>,
}

impl MemPlan {
    /// The resources `program` declares. The oracle's checks (`Shape::new`) have already
    /// refused what neither engine runs (PRIVATE / INPUT memory, SHARED outside COMP,
    /// undeclared or indirectly addressed resources).
    pub fn new(program: &Program) -> MemPlan {
        let mut resources = Vec::new();
        for d in &program.declarations {
            let shared = match (&d.file, &d.resource) {
                (File::Buffer, _) => false,
                (File::Memory, Some(Resource::Memory(MemoryType::Shared))) => true,
                (File::Memory, _) => false,
                _ => continue,
            };
            for i in d.first..=d.last {
                resources.push(ResDecl {
                    key: RegKey::new(d.file, i),
                    shared,
                });
            }
        }
        let has_memory =
            !resources.is_empty() || program.instructions.iter().any(|i| is_memory(i.opcode));
        MemPlan {
            resources,
            wg_size: shaderdiff_model::check::memory::workgroup_size(program),
            has_memory,
            fault: None,
        }
    }

    /// Resource number of `BUFFER[n]` / `MEMORY[n]`, if declared.
    pub fn index_of(&self, key: RegKey) -> Option<usize> {
        self.resources.iter().position(|r| r.key == key)
    }
}

/// Whether `op` is a memory instruction (LOAD, STORE, RESQ, an atomic, BARRIER, MEMBAR; the
/// oracle's definition).
pub(crate) fn is_memory(op: shaderdiff_model::Opcode) -> bool {
    shaderdiff_model::check::memory::is_memory_opcode(op)
}

/// What generated code reads about resource `n` (entry `n` of `RunCtx::resources`): the
/// first byte of copy 0 and the size of one copy in bytes. SHARED copies follow each other
/// (`ptr + w * size` is workgroup `w`'s).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub(crate) struct ResDesc {
    /// First byte of copy 0 (dangling but never dereferenced when `size` is 0).
    pub ptr: *mut u8,
    /// Bytes per copy.
    pub size: u64,
}

/// The memory of one run.
pub(crate) struct MemRuntime {
    decls: Vec<ResDecl>,
    wg_size: u64,
    /// Per resource: every copy, back to back. Only accessed through `descs` while code
    /// runs.
    storage: Vec<Vec<u8>>,
    /// Copies per resource.
    copies: Vec<u64>,
    /// The table generated code reads (pointers into `storage`).
    pub descs: Vec<ResDesc>,
    /// Atomics performed, in execution order.
    log: Vec<AtomicRecord>,
    /// Whether the outputs carry an atomic log.
    has_memory: bool,
    /// [`MemPlan::fault`].
    fault: Option<Fault>,
}

impl MemRuntime {
    /// Memory for a run of `padded` invocations (a whole number of quads): every resource
    /// starts from `inputs.buffers` (absent: empty); SHARED resources get one copy per
    /// workgroup that any of those invocations belongs to.
    ///
    /// # Errors
    /// The SHARED copies would take more than [`MAX_SHARED_BYTES`] (the message says how
    /// many workgroups and bytes).
    pub fn new(plan: &MemPlan, inputs: &Inputs, padded: usize) -> Result<MemRuntime, String> {
        let wg = u64::from(plan.wg_size.max(1));
        let groups = (padded as u64).div_ceil(wg).max(1);
        let shared: u64 = plan
            .resources
            .iter()
            .filter(|d| d.shared)
            .map(|d| inputs.buffers.get(&d.key).map_or(0, |v| v.len() as u64))
            .sum();
        if shared.saturating_mul(groups) > MAX_SHARED_BYTES {
            return Err(format!(
                "SHARED memory of {shared} bytes for each of {groups} workgroups is more than \
                 the jit allocates ({MAX_SHARED_BYTES} bytes)"
            ));
        }
        let mut storage = Vec::with_capacity(plan.resources.len());
        let mut copies = Vec::with_capacity(plan.resources.len());
        for d in &plan.resources {
            let init = inputs.buffers.get(&d.key).map_or(&[][..], |v| v.as_slice());
            let n = if d.shared { groups } else { 1 };
            storage.push(init.repeat(n as usize));
            copies.push(n);
        }
        let descs = storage
            .iter_mut()
            .zip(&plan.resources)
            .map(|(s, d)| ResDesc {
                ptr: s.as_mut_ptr(),
                size: inputs.buffers.get(&d.key).map_or(0, |v| v.len() as u64),
            })
            .collect();
        Ok(MemRuntime {
            decls: plan.resources.clone(),
            wg_size: wg,
            storage,
            copies,
            descs,
            log: Vec::new(),
            has_memory: plan.has_memory,
            fault: plan.fault,
        })
    }

    /// The atomic of invocation `inv` (see [`shaderdiff_atomic`]); `None` when it is not
    /// performed (unknown resource or operation, out of range). `op` is an index into
    /// [`ATOMIC_OPS`], plus [`WIDE_ATOMIC`] for a 64-bit location.
    fn atomic(&mut self, res: u32, op: u32, inv: u64, at: AtomicArgs) -> Option<u64> {
        let r = res as usize;
        let d = *self.decls.get(r)?;
        let width = if op & WIDE_ATOMIC != 0 {
            AtomicWidth::W64
        } else {
            AtomicWidth::W32
        };
        let op = *ATOMIC_OPS.get((op & !WIDE_ATOMIC) as usize)?;
        let desc = *self.descs.get(r)?;
        let copy = if d.shared {
            inv.checked_div(self.wg_size)?
        } else {
            0
        };
        let off = u64::from(at.offset);
        let n = width.bytes();
        // tgsi.rst "Resource Access Opcodes": outside the resource the result is unspecified;
        // the oracle performs nothing there (its "Memory model"), and neither does the jit.
        if copy >= self.copies[r] || off.saturating_add(n as u64) > desc.size {
            return None;
        }
        let start = copy.checked_mul(desc.size)?.checked_add(off)?;
        // Through the pointer generated code uses too (`storage` is not borrowed while
        // code runs).
        // SAFETY: `copy < copies[r]` and `off + n <= size`, so the n bytes lie inside the
        // `copies[r] * size` bytes of `storage[r]` that `desc.ptr` points to.
        let p = unsafe { desc.ptr.add(usize::try_from(start).ok()?) }.cast::<[u8; 8]>();
        let mut raw = [0u8; 8];
        // SAFETY: as above; `n <= 8` bytes are read, with no alignment requirement.
        unsafe { std::ptr::copy_nonoverlapping(p.cast::<u8>(), raw.as_mut_ptr(), n) };
        let old = u64::from_le_bytes(raw);
        let (src, cmp) = (at.src & width.mask(), at.cmp & width.mask());
        let new = atomic::stored(op, width, old, src, cmp, self.fault);
        // SAFETY: as above.
        unsafe { std::ptr::copy_nonoverlapping(new.to_le_bytes().as_ptr(), p.cast::<u8>(), n) };
        self.log.push(AtomicRecord {
            location: Location {
                space: Space::Resource(d.key),
                offset: off,
                width,
            },
            invocation: inv as u32,
            seq: at.seq,
            op,
            src,
            cmp: if op == AtomicOp::CmpXchg { cmp } else { 0 },
            old,
        });
        // FAULT HOOK `atomxchg-returns-new`: the exchanged-in value is returned.
        if op == AtomicOp::Xchg && self.fault == Some(Fault::AtomxchgReturnsNew) {
            return Some(new);
        }
        Some(atomic::returned(op, width, old))
    }

    /// Writes the final memory into `out`: `buffers` holds every declared resource (SHARED:
    /// workgroup 0's copy; a resource absent from the inputs is empty), and `atomics` the log
    /// for programs with memory. `buffers_undefined` is left to the oracle (the jit does not
    /// track undefinedness).
    pub fn report(self, out: &mut Outputs) {
        for ((d, bytes), desc) in self.decls.iter().zip(self.storage).zip(&self.descs) {
            let mut bytes = bytes;
            bytes.truncate(desc.size as usize);
            out.buffers.insert(d.key, bytes);
        }
        out.atomics = self.has_memory.then_some(self.log);
    }
}

/// The operands of one atomic.
#[derive(Clone, Copy, Debug)]
struct AtomicArgs {
    offset: u32,
    src: u64,
    cmp: u64,
    seq: u32,
}

/// One invocation's atomic, called from generated code (tgsi.rst "Atomic opcodes"; the
/// lowering in `crate::lower::memory`): on resource `res`, operation `ATOMIC_OPS[op]` (on a
/// 64-bit location when `op` has [`WIDE_ATOMIC`]: `shaderdiff_model::atomic64`), by
/// invocation `inv`, at byte `offset` of the invocation's copy, with data operand `src`,
/// ATOMCAS compare operand `cmp`, and `seq` the ATOM* instructions the invocation executed
/// before. Returns the value the destination gets ([`AtomicOp::returned`]); 0 when
/// `active` is 0 or the atomic is not performed (out of range: the oracle leaves `x`
/// undefined).
///
/// # Safety
/// `ctx` is the run's context; its `memory` is null or points to the run's [`MemRuntime`],
/// not otherwise borrowed during the call.
#[allow(clippy::too_many_arguments)]
unsafe extern "C" fn shaderdiff_atomic(
    ctx: *const RunCtx,
    res: u32,
    op: u32,
    inv: u64,
    offset: u32,
    src: u64,
    cmp: u64,
    seq: u32,
    active: u32,
) -> u64 {
    if active == 0 {
        return 0;
    }
    // SAFETY: the caller passes the live run context.
    let ctx = unsafe { &*ctx };
    // SAFETY: `memory` is null or the run's memory, exclusively ours for the call.
    let Some(m) = (unsafe { ctx.memory.as_mut() }) else {
        return 0;
    };
    let args = AtomicArgs {
        offset,
        src,
        cmp,
        seq,
    };
    m.atomic(res, op, inv, args).unwrap_or(0)
}

/// The [`LibcallDef`] of [`shaderdiff_atomic`]: `(ctx: i64, res: i32, op: i32, inv: i64,
/// offset: i32, src: i64, cmp: i64, seq: i32, active: i32) -> i64` (32-bit operands and
/// results zero-extended).
pub(crate) fn libcall_def() -> LibcallDef {
    type AtomicFn =
        unsafe extern "C" fn(*const RunCtx, u32, u32, u64, u32, u64, u64, u32, u32) -> u64;
    LibcallDef {
        name: ATOMIC_SYMBOL,
        params: &[I64, I32, I32, I64, I32, I64, I64, I32, I32],
        returns: &[I64],
        ptr: shaderdiff_atomic as AtomicFn as *const u8,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn program(text: &str) -> Program {
        shaderdiff_tgsi::parse(text, "t.tgsi").expect("valid program")
    }

    #[test]
    fn resources_and_workgroups_from_declarations() {
        let p = program(
            "COMP\nPROPERTY CS_FIXED_BLOCK_WIDTH 4\nPROPERTY CS_FIXED_BLOCK_HEIGHT 2\n\
             DCL BUFFER[0..1]\nDCL MEMORY[0], SHARED\nDCL MEMORY[1], GLOBAL\nEND\n",
        );
        let plan = MemPlan::new(&p);
        let keys: Vec<(RegKey, bool)> = plan.resources.iter().map(|r| (r.key, r.shared)).collect();
        assert_eq!(
            keys,
            [
                (RegKey::new(File::Buffer, 0), false),
                (RegKey::new(File::Buffer, 1), false),
                (RegKey::new(File::Memory, 0), true),
                (RegKey::new(File::Memory, 1), false),
            ]
        );
        assert_eq!(plan.wg_size, 8);
        assert!(plan.has_memory);
        assert!(!MemPlan::new(&program("VERT\nDCL OUT[0]\nEND\n")).has_memory);
    }

    #[test]
    fn shared_memory_has_one_copy_per_workgroup() {
        let p = program("COMP\nPROPERTY CS_FIXED_BLOCK_WIDTH 2\nDCL MEMORY[0], SHARED\nEND\n");
        let plan = MemPlan::new(&p);
        let mut inputs = Inputs::default();
        inputs
            .buffers
            .insert(RegKey::new(File::Memory, 0), vec![1, 2, 3, 4]);
        // 8 invocations in workgroups of 2: four copies of the 4 bytes.
        let mut m = MemRuntime::new(&plan, &inputs, 8).expect("small");
        assert_eq!(m.storage[0], [1, 2, 3, 4].repeat(4));
        // ATOMUADD of 1 by invocation 5 (workgroup 2) at offset 0: 0x04030201 + 1.
        let args = AtomicArgs {
            offset: 0,
            src: 1,
            cmp: 0,
            seq: 0,
        };
        assert_eq!(m.atomic(0, 0, 5, args), Some(0x0403_0201));
        assert_eq!(&m.storage[0][8..12], &[2, 2, 3, 4]);
        // Out of range (offset 1: bytes 1..5 of a 4-byte copy): not performed.
        let oob = AtomicArgs { offset: 1, ..args };
        assert_eq!(m.atomic(0, 0, 5, oob), None);
        let mut out = Outputs::default();
        m.report(&mut out);
        assert_eq!(out.buffers[&RegKey::new(File::Memory, 0)], [1, 2, 3, 4]);
        let log = out.atomics.expect("a log");
        assert_eq!(log.len(), 1);
        assert_eq!((log[0].invocation, log[0].old), (5, 0x0403_0201));
    }

    #[test]
    fn too_much_shared_memory_is_an_error() {
        let p = program("COMP\nDCL MEMORY[0], SHARED\nEND\n");
        let plan = MemPlan::new(&p);
        let mut inputs = Inputs::default();
        inputs
            .buffers
            .insert(RegKey::new(File::Memory, 0), vec![0; 1 << 20]);
        // Workgroups of one: 1 MiB times 257 invocations is over 256 MiB.
        let e = MemRuntime::new(&plan, &inputs, 257).err().expect("refused");
        assert!(e.contains("257 workgroups"), "{e}");
        assert!(MemRuntime::new(&plan, &inputs, 4).is_ok());
    }
}
