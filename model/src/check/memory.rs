//! Memory instructions and resources as the pre-run checks decode them: which opcodes are
//! memory instructions, the declared `BUFFER[n]` / `MEMORY[n]` resources, workgroup sizes,
//! and the decoded resource operand. What the instructions do is each engine's (the oracle's
//! model: its `interp` module docs, "Memory model").
//!
//! Sources: tgsi.rst "Resource Access Opcodes", "Inter-thread synchronization opcodes",
//! "Atomic opcodes"; TEXT-FORMAT.md §6.4 (`DCL BUFFER[n]`, `DCL MEMORY[n], SHARED`).

use crate::{File, MemoryType, Opcode, Pos, Program, PropertyName, Resource, Stage};

use super::decode::{DInsn, Decoder, Kind, Loc};
use super::{ExecError, FetchType};
use crate::atomic::AtomicOp;
use crate::io::RegKey;

/// What a memory instruction does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MemOp {
    /// LOAD.
    Load,
    /// STORE.
    Store,
    /// RESQ.
    Resq,
    /// ATOM*.
    Atomic(AtomicOp),
    /// BARRIER.
    Barrier,
    /// MEMBAR.
    Membar,
}

/// The memory operation of `op`, if it is one.
pub fn mem_op(op: Opcode) -> Option<MemOp> {
    Some(match op {
        Opcode::LOAD => MemOp::Load,
        Opcode::STORE => MemOp::Store,
        Opcode::RESQ => MemOp::Resq,
        Opcode::BARRIER => MemOp::Barrier,
        Opcode::MEMBAR => MemOp::Membar,
        _ => MemOp::Atomic(AtomicOp::from_opcode(op)?),
    })
}

/// Whether `op` is a memory instruction of the memory model (tgsi.rst "Resource Access
/// Opcodes" LOAD, STORE, RESQ; "Inter-thread synchronization opcodes" BARRIER, MEMBAR; every
/// opcode of "Atomic opcodes"): the one definition the oracle, the engines and the spec
/// generator share.
pub fn is_memory_opcode(op: Opcode) -> bool {
    mem_op(op).is_some()
}

/// A declared memory resource.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ResourceDecl {
    /// `BUFFER[n]` or `MEMORY[n]`.
    pub key: RegKey,
    /// `MEMORY[n], SHARED`: one copy per workgroup.
    pub shared: bool,
}

/// The resource operand of a memory instruction: index into `Decoded::resources` and the
/// swizzle written on it (LOAD: "A swizzle suffix may be added to the resource argument").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MemRef {
    /// Index into `Decoded::resources`.
    pub res: u32,
    /// The swizzle written on the resource operand.
    pub swizzle: [u8; 4],
    /// Atomics: the location's width (`shaderdiff_model::atomic64`: 64 bits when the memory
    /// format is `PIPE_FORMAT_R64_UINT` / `_SINT`).
    pub width: crate::atomic::AtomicWidth,
}

/// Every `BUFFER` / `MEMORY` register the program declares. `MEMORY` must be GLOBAL or
/// SHARED (PRIVATE and INPUT: unsupported); SHARED needs a COMP program.
pub fn resources(program: &Program) -> Result<Vec<ResourceDecl>, ExecError> {
    let mut out = Vec::new();
    for (di, d) in program.declarations.iter().enumerate() {
        let shared = match (&d.file, &d.resource) {
            (File::Buffer, _) => false,
            (File::Memory, Some(Resource::Memory(MemoryType::Shared))) => true,
            (File::Memory, Some(Resource::Memory(MemoryType::Global)) | None) => false,
            (File::Memory, Some(Resource::Memory(t))) => {
                return Err(feature(
                    program.source_map.declarations.get(di).copied(),
                    format!("MEMORY with the {} qualifier", t.name()),
                ))
            }
            _ => continue,
        };
        if shared && program.stage != Stage::Compute {
            return Err(feature(
                program.source_map.declarations.get(di).copied(),
                "SHARED memory outside compute programs".into(),
            ));
        }
        for i in d.first..=d.last {
            out.push(ResourceDecl {
                key: RegKey::new(d.file, i),
                shared,
            });
        }
    }
    Ok(out)
}

/// The workgroup size ([`workgroup_size`]), checked against BARRIER: lockstep chunks can
/// run a barrier only when workgroups never straddle a chunk (the size divides
/// [`CHUNK_LANES`](super::CHUNK_LANES)); otherwise BARRIER is unsupported.
pub fn check_workgroups(program: &Program, kinds: &[Kind]) -> Result<u32, ExecError> {
    let wg = workgroup_size(program);
    let lanes = super::CHUNK_LANES as u32;
    if wg > lanes || !lanes.is_multiple_of(wg) {
        if let Some(i) = kinds.iter().position(|k| *k == Kind::Mem(MemOp::Barrier)) {
            return Err(ExecError::Unsupported {
                opcode: Opcode::BARRIER,
                pos: program.source_map.instruction(i),
                reason: format!(
                    "workgroups of {wg} invocations: the interpreter runs BARRIER only for \
                     workgroup sizes dividing {lanes}"
                ),
            });
        }
    }
    Ok(wg)
}

/// Decodes memory instruction `i` (operand shapes: tgsi.rst; `STORE resource, address,
/// src`, `LOAD dst, resource, address`, `RESQ dst, resource`, `ATOM* dst, resource,
/// offset, src` and `ATOMCAS dst, resource, offset, cmp, src`). The resource operand must
/// be a directly addressed, declared BUFFER or MEMORY register.
pub fn decode_insn(
    dec: &mut Decoder<'_>,
    program: &Program,
    i: usize,
    mop: MemOp,
    resources: &[ResourceDecl],
) -> Result<DInsn, ExecError> {
    let insn = &program.instructions[i];
    let op = insn.opcode;
    let info = op.info();
    let smap = &program.source_map;
    let pos = smap.instruction(i);
    let invalid = |pos: Option<Pos>, message: String| ExecError::InvalidProgram { pos, message };
    if insn.src.len() < info.num_src as usize || insn.dst.len() < info.num_dst as usize {
        return Err(invalid(pos, format!("{op} needs {} sources", info.num_src)));
    }
    let (res_reg, swizzle, res_pos) = match mop {
        MemOp::Store => (Some(insn.dst[0].reg), [0, 1, 2, 3], smap.operand(i, 0)),
        MemOp::Barrier | MemOp::Membar => (None, [0, 1, 2, 3], None),
        _ => (
            Some(insn.src[0].reg),
            insn.src[0].swizzle,
            smap.operand(i, insn.dst.len()),
        ),
    };
    let mem = match res_reg {
        None => None,
        Some(r) => {
            if !matches!(r.file, File::Buffer | File::Memory) {
                return Err(ExecError::Unsupported {
                    opcode: op,
                    pos: res_pos,
                    reason: format!(
                        "{} resources are not supported by the interpreter (BUFFER and \
                         MEMORY are)",
                        r.file
                    ),
                });
            }
            if r.is_indirect() || r.dimension.is_some() {
                return Err(ExecError::Unsupported {
                    opcode: op,
                    pos: res_pos,
                    reason: "indirectly addressed resources are not supported".into(),
                });
            }
            let key = RegKey::new(r.file, r.index.value as u32);
            let res = resources
                .iter()
                .position(|d| d.key == key)
                .ok_or_else(|| invalid(res_pos, format!("{key} is not declared")))?;
            if swizzle.iter().any(|&c| c > 3) {
                return Err(invalid(res_pos, "swizzle component out of range".into()));
            }
            Some(MemRef {
                res: res as u32,
                swizzle,
                width: if shaderdiff_model::atomic64::is_wide_atomic(insn) {
                    crate::atomic::AtomicWidth::W64
                } else {
                    crate::atomic::AtomicWidth::W32
                },
            })
        }
    };
    let (dst, writemask) = match mop {
        MemOp::Load | MemOp::Resq | MemOp::Atomic(_) => {
            let d = &insn.dst[0];
            let p = smap.operand(i, 0);
            let loc = dec.loc(&d.reg, p, op)?;
            if matches!(loc, Loc::Uniform(_)) {
                return Err(invalid(p, format!("{} cannot be written", d.reg.file)));
            }
            (loc, d.writemask & 0xF)
        }
        MemOp::Store => (Loc::Null, insn.dst[0].writemask & 0xF),
        MemOp::Barrier | MemOp::Membar => (Loc::Null, 0),
    };
    let first = match mop {
        MemOp::Store => 0,
        MemOp::Barrier | MemOp::Membar => info.num_src as usize,
        _ => 1,
    };
    let mut srcs = Vec::new();
    for k in first..info.num_src as usize {
        let ty = match (mop, k) {
            (MemOp::Store, 1) | (MemOp::Atomic(AtomicOp::FAdd), 2) => FetchType::Float,
            _ => FetchType::Int,
        };
        let p = smap.operand(i, insn.dst.len() + k);
        srcs.push(dec.src(&insn.src[k], ty, p, op)?);
    }
    Ok(DInsn {
        op,
        kind: Kind::Mem(mop),
        dst,
        writemask,
        srcs,
        saturate: insn.saturate,
        fetch_mask: [0xF; 4],
        read_mask: [0xF; 4],
        componentwise: false,
        pos,
        mem,
        tex: None,
    })
}

fn feature(pos: Option<Pos>, reason: String) -> ExecError {
    ExecError::UnsupportedFeature { pos, reason }
}

/// Invocations per workgroup: COMP programs multiply `CS_FIXED_BLOCK_WIDTH`, `_HEIGHT` and
/// `_DEPTH` (an absent or zero property counts as 1); other stages have no workgroups
/// (every invocation is alone: 1).
pub fn workgroup_size(program: &Program) -> u32 {
    if program.stage != Stage::Compute {
        return 1;
    }
    [
        PropertyName::CsFixedBlockWidth,
        PropertyName::CsFixedBlockHeight,
        PropertyName::CsFixedBlockDepth,
    ]
    .iter()
    .map(|&p| program.property(p).unwrap_or(1).max(1))
    .fold(1u32, |a, b| a.saturating_mul(b))
}
