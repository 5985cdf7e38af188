//! shaderdiff's driver ABI for compiled programs: how inputs reach a Valhall thread and how
//! results come back. ISA.xml leaves this to the driver (SEMANTICS.md §1 "Initial register
//! contents are set by the driver ABI"); this module is the single place that fixes it.
//!
//! * Thread `t` runs invocation `t` (warp `t / 16`, lane `t % 16`), so fragment quads
//!   (`4q … 4q+3`, INTERFACE.md "Fragment quads") are four consecutive lanes of one warp.
//! * Every invocation owns a **record** of [`RecordLayout::stride`] bytes in global memory
//!   at `RECORD_BASE + t · stride`; the driver preloads its address into the register pair
//!   `r62:r63` ([`RECORD_REG`]). The record holds the per-invocation input registers
//!   (IN, SV; one vec4 = 16 bytes each), the output registers, register spaces that are
//!   addressed indirectly, a status word (`STATUS_DEMOTED`, `STATUS_CALL_DEPTH` bits), the
//!   emitted-vertex area of geometry programs and the spill slots. Programs read and write
//!   it with `LOAD.i32` / `STORE.i32` at immediate offsets (signed 16-bit, so a record is
//!   at most 32 KiB).
//! * CONST registers and the constants no immediate-table entry holds are FAU uniforms:
//!   CONST words first ([`RecordLayout::const_words`]), then the compiler's constants.
//! * Memory resources (TGSI `BUFFER[n]`, `MEMORY[n]`) each have a window of global
//!   memory ([`resource_address`]); `MEMORY[n], SHARED` has one instance per workgroup in
//!   its window. Per resource, four uniform words ([`ResourceLoc::uniform`]) hold the
//!   64-bit address of instance 0 and the size in bytes; the record's workgroup word
//!   ([`RecordLayout::workgroup`]) holds the invocation's workgroup index, added to the
//!   high address word of shared instances. Atomics and their sequence markers go through
//!   the staging registers [`STAGING_REG`]… (see `compile::memory`).
//! * `r60:r61` ([`ADDR_REG`]) is the compiler's address scratch pair (indirect accesses,
//!   64-bit products) and `r56`–`r59` are reload registers for spilled values; the register
//!   allocator hands out `r0`–`r55`.
// Numbers here come from user input (program text, inputs files, machine code): no
// arithmetic may wrap or panic unnoticed.
#![warn(clippy::arithmetic_side_effects)]

use std::collections::BTreeMap;

use shaderdiff_model::check::shape::Shape;
use shaderdiff_model::File;
use shaderdiff_model::RegKey;

/// Address of invocation 0's record.
pub const RECORD_BASE: u64 = 0x1_0000_0000;
/// Address of the uniform memory: copies of the uniform register spaces (CONST, IMM, IMMX)
/// that some operand addresses indirectly, read with LOAD (vec4 = 16 bytes each).
pub const UNIFORM_MEM_BASE: u64 = 0x2_0000_0000;
/// The preloaded record pointer (even register of the pair).
pub const RECORD_REG: u8 = 62;
/// The address scratch pair.
pub const ADDR_REG: u8 = 60;
/// First reload register for spilled values (four of them).
pub const RELOAD_REG: u8 = 56;
/// Registers the allocator may use: `r0 … r(ALLOCATABLE-1)`.
pub const ALLOCATABLE: u8 = 56;
/// Largest record (bytes) the 16-bit signed LOAD/STORE offset reaches.
pub const MAX_RECORD: u32 = 0x8000;
/// Staging registers of atomics: `r56` (operand / new value), `r57` (compare value),
/// `r58` (the TGSI operand, for the access log), `r59` (returned value). They double as
/// reload registers, which is safe because the moves into them are ordered (r58, r57,
/// then r56) so that a reload — always into r56 first — never clobbers one already set.
pub const STAGING_REG: u8 = 56;
/// The register the simulator's access log captures ([`crate::sim::MemEvent::sideband`]):
/// the TGSI operand of CAS-loop atomics and of the `atomic-lost-update` fault's load.
pub const SIDEBAND_REG: u8 = 58;
/// Address of resource 0's window; resource `r` (declaration order) starts
/// `r · RESOURCE_STRIDE` above it.
pub const RESOURCE_BASE: u64 = 0x10_0000_0000_0000;
/// Distance between resource windows (bytes).
pub const RESOURCE_STRIDE: u64 = 1 << 48;
/// Distance between the instances of a SHARED resource (bytes): one 32-bit address space
/// each, so a byte offset never leaves its instance.
pub const INSTANCE_STRIDE: u64 = 1 << 32;
/// Most instances (workgroups) a SHARED resource can have.
pub const MAX_INSTANCES: u64 = RESOURCE_STRIDE / INSTANCE_STRIDE;

/// The address of byte 0 of `instance` of resource `r` (declaration order).
pub fn resource_address(r: usize, instance: u64) -> u64 {
    // Wrapping, as the 64-bit address arithmetic of the simulated GPU does: resources are
    // at most a declaration's few thousand and instances a dispatch's 2^24 workgroups, so
    // no real address wraps.
    RESOURCE_BASE
        .wrapping_add((r as u64).wrapping_mul(RESOURCE_STRIDE))
        .wrapping_add(instance.wrapping_mul(INSTANCE_STRIDE))
}

/// A declared memory resource (TEXT-FORMAT.md §6.4 `DCL BUFFER[n]`, `DCL MEMORY[n]`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ResourceLoc {
    /// `BUFFER[n]` or `MEMORY[n]`.
    pub key: RegKey,
    /// `MEMORY[n], SHARED`: one instance per workgroup.
    pub shared: bool,
    /// First of its four uniform words: address of instance 0 (low, high word), size in
    /// bytes, 0. Always even, so the address is an aligned 64-bit FAU pair.
    pub uniform: u32,
}

/// Where one register space lives.
#[derive(Clone, Debug)]
pub struct SpaceLoc {
    /// Per-invocation space kept in the record (read with LOAD); `None` for spaces held in
    /// virtual registers or uniforms.
    pub record: Option<u32>,
    /// Uniform spaces (CONST): first uniform word.
    pub uniform: Option<u32>,
    /// Uniform spaces addressed indirectly: byte offset in the uniform memory.
    pub uniform_mem: Option<u32>,
}

/// The record and uniform layout of one compiled program.
#[derive(Clone, Debug)]
pub struct RecordLayout {
    /// Per space of `Shape::spaces()`.
    pub spaces: Vec<SpaceLoc>,
    /// Per-invocation inputs (IN, SV) the driver writes: key, byte offset of its vec4.
    pub inputs: Vec<(RegKey, u32)>,
    /// Output registers (`Shape::outputs()` order): key, byte offset of its vec4.
    pub outputs: Vec<(RegKey, u32)>,
    /// Byte offset of the status word (bits `STATUS_DEMOTED`, `STATUS_CALL_DEPTH`).
    pub status: u32,
    /// Geometry programs: byte offset of the vertex count word, then per vertex the stream,
    /// primitive id and the output vec4s (`vertex_bytes` each), `max_vertices` of them.
    pub emit: Option<EmitLayout>,
    /// First spill slot.
    pub spill_base: u32,
    /// Record size in bytes (a multiple of 16), spill slots included once known.
    pub stride: u32,
    /// CONST words at the start of the uniforms (4 per CONST register).
    pub const_words: u32,
    /// Size of the uniform memory in bytes (0: none).
    pub uniform_mem_bytes: u32,
    /// Declared memory resources, in declaration order (uniform words after the CONST
    /// words).
    pub resources: Vec<ResourceLoc>,
    /// Byte offset of the sequence-marker word (read by the marker LOAD of every atomic).
    pub marker: u32,
    /// Byte offset of the workgroup-index word the driver writes.
    pub workgroup: u32,
}

/// Uniform word `base + 4 i` (saturating at `u32::MAX`).
fn word_index(base: u32, i: usize) -> u32 {
    u32::try_from(i)
        .unwrap_or(u32::MAX)
        .saturating_mul(4)
        .saturating_add(base)
}

/// The emitted-vertex area of a geometry program's record.
#[derive(Clone, Debug)]
pub struct EmitLayout {
    /// Byte offset of the emitted-vertex count.
    pub count: u32,
    /// Byte offset of vertex 0.
    pub first: u32,
    /// Bytes per vertex: stream word, primitive word, then one vec4 per output register.
    pub vertex_bytes: u32,
    /// Vertices the area holds (the program's GS_MAX_OUTPUT_VERTICES).
    pub max_vertices: u32,
}

impl RecordLayout {
    /// Lays out `shape`'s spaces. `in_record[s]`: space `s` is addressed indirectly (so a
    /// per-invocation space lives in the record, a uniform one in the uniform memory).
    /// `max_vertices`: geometry programs' output limit.
    ///
    /// `None` when an offset does not fit 32 bits (declarations of 2^30 registers: the
    /// record could never be addressed; the caller reports the program unsupported).
    pub fn new(
        shape: &Shape,
        in_record: &[bool],
        max_vertices: Option<u32>,
    ) -> Option<RecordLayout> {
        let mut off = 0u32;
        let mut const_words = 0u32;
        let mut uniform_mem = 0u32;
        let mut spaces = Vec::new();
        let mut inputs = Vec::new();
        let key = |s: &shaderdiff_model::check::shape::RegisterSpace, f: u32| RegKey {
            file: s.file,
            dimension: s.two_d.then(|| f.checked_div(s.len.max(1)).unwrap_or(0)),
            index: f.checked_rem(s.len.max(1)).unwrap_or(0),
        };
        // Byte offset `base + 16 f` of vec4 `f`.
        let vec4 = |base: u32, f: u32| f.checked_mul(16)?.checked_add(base);
        for (i, s) in shape.spaces().iter().enumerate() {
            let count = s.dims.checked_mul(s.len)?;
            let mut loc = SpaceLoc {
                record: None,
                uniform: None,
                uniform_mem: None,
            };
            if s.uniform {
                if s.file == File::Const {
                    loc.uniform = Some(const_words);
                    const_words = count.checked_mul(4)?.checked_add(const_words)?;
                }
                if in_record[i] {
                    loc.uniform_mem = Some(uniform_mem);
                    uniform_mem = vec4(uniform_mem, count)?;
                }
            } else if matches!(s.file, File::Input | File::SystemValue) || in_record[i] {
                loc.record = Some(off);
                if matches!(s.file, File::Input | File::SystemValue) {
                    for f in 0..count {
                        if s.referenced.get(f as usize) == Some(&true) {
                            inputs.push((key(s, f), vec4(off, f)?));
                        }
                    }
                }
                off = vec4(off, count)?;
            }
            spaces.push(loc);
        }
        let mut outputs = Vec::new();
        let mut out_map: BTreeMap<RegKey, u32> = BTreeMap::new();
        for (s, l) in shape.spaces().iter().zip(&spaces) {
            if let (File::Output, Some(b)) = (s.file, l.record) {
                for f in 0..s.dims.checked_mul(s.len)? {
                    out_map.insert(key(s, f), vec4(b, f)?);
                }
            }
        }
        for k in shape.outputs() {
            let o = match out_map.get(k) {
                Some(&o) => o,
                None => {
                    let o = off;
                    off = off.checked_add(16)?;
                    o
                }
            };
            outputs.push((*k, o));
        }
        let status = off;
        // status, marker, workgroup index, unused.
        off = off.checked_add(16)?;
        let emit = match max_vertices {
            Some(m) => {
                let vertex_bytes = vec4(16, u32::try_from(outputs.len()).ok()?)?;
                let e = EmitLayout {
                    count: off,
                    first: off.checked_add(16)?,
                    vertex_bytes,
                    max_vertices: m,
                };
                off = vertex_bytes
                    .checked_mul(m)?
                    .checked_add(16)?
                    .checked_add(off)?;
                Some(e)
            }
            None => None,
        };
        Some(RecordLayout {
            spaces,
            inputs,
            outputs,
            status,
            emit,
            spill_base: off,
            stride: off,
            const_words,
            uniform_mem_bytes: uniform_mem,
            resources: Vec::new(),
            // status + 4 and + 8: inside the 16 bytes reserved above.
            marker: status.checked_add(4)?,
            workgroup: status.checked_add(8)?,
        })
    }

    /// Places the uniform words of `resources` (`(key, shared)`, declaration order) after
    /// the CONST words.
    pub fn set_resources(&mut self, resources: &[(RegKey, bool)]) {
        self.resources = resources
            .iter()
            .enumerate()
            .map(|(i, &(key, shared))| ResourceLoc {
                key,
                shared,
                // Saturating: a saturated word index is past the FAU's 256 words, which
                // the compiler refuses (compile/mod.rs).
                uniform: word_index(self.const_words, i),
            })
            .collect();
    }

    /// First uniform word after the CONST and resource words (the compiler's constants).
    pub fn constants_base(&self) -> u32 {
        word_index(self.const_words, self.resources.len())
    }

    /// Sets the number of spill slots (4 bytes each) and rounds the stride to 16 bytes.
    pub fn set_spills(&mut self, slots: u32) {
        // Saturating: a saturated stride is past MAX_RECORD, which the compiler refuses.
        self.stride = slots
            .saturating_mul(4)
            .saturating_add(self.spill_base)
            .checked_next_multiple_of(16)
            .unwrap_or(u32::MAX);
    }
}
