//! The register model of a compiled program: where every register lives while a quad runs,
//! and the host-side buffers the compiled function reads and writes.
//!
//! * Directly addressed per-invocation registers (TEMP, OUT, ADDR, IN, SV, TEMPX) of a space
//!   that no operand addresses indirectly are Cranelift variables: one `i32x4` per channel
//!   (one lane per invocation of the quad), so they live in vector registers.
//! * A per-invocation space that some operand addresses indirectly lives in the *scratch*
//!   buffer: `[flat register][channel][lane]` words, 64 bytes per register, re-initialized
//!   for every quad. Indirect accesses gather/scatter lane by lane there.
//! * Uniform spaces (CONST, IMM, IMMX) live in the *uniform* buffer, one vec4 (16 bytes) per
//!   register; directly named IMM/IMMX values are compile-time constants.
//! * Indirect bounds (tgsi.rst "Array Declaration", the oracle's contract in
//!   `shaderdiff_oracles::interp`): a register is in bounds when a declaration covers it,
//!   and inside the `ARRAY(n)` declaration the operand names. Spaces with holes get a byte
//!   table (1 = declared) in the *tables* buffer.
// Numbers here come from user input (program text, inputs files, machine code): no
// arithmetic may wrap or panic unnoticed.
#![warn(clippy::arithmetic_side_effects)]

use std::collections::{BTreeMap, BTreeSet};

use shaderdiff_model::check::shape::Shape;
use shaderdiff_model::RegKey;
use shaderdiff_model::{File, Program, Register};

/// Bytes one register occupies in the scratch buffer: 4 channels × 4 lanes × 4 bytes.
pub(crate) const REG_BYTES: u32 = 64;

/// Where one register space lives.
#[derive(Clone, Debug)]
pub(crate) struct SpacePlan {
    /// One value for all invocations (CONST, IMM, IMMX).
    pub uniform: bool,
    /// Number of dimension values.
    pub dims: u32,
    /// Indices per dimension value.
    pub len: u32,
    /// Per-invocation space accessed indirectly: lives in the scratch buffer.
    pub in_memory: bool,
    /// Uniform spaces: first register (vec4) in the uniform buffer. Memory spaces: byte
    /// offset in the scratch buffer.
    pub base: u32,
    /// Every register of the extent is declared (no bounds table needed).
    pub all_declared: bool,
    /// Offset of the declared-table in the tables buffer (when not `all_declared`).
    pub table: u32,
}

/// The register model of a program (see the module docs).
#[derive(Clone, Debug)]
pub(crate) struct Plan {
    /// One entry per space of `Shape::spaces()`, same order.
    pub spaces: Vec<SpacePlan>,
    /// Initial uniform buffer: IMM and IMMX values in place, CONST zero (filled per run).
    pub uniform_init: Vec<[u32; 4]>,
    /// Per-invocation input registers (IN, SV) in binding order: key, space, flat index.
    pub inputs: Vec<(RegKey, usize, u32)>,
    /// Output registers (sorted, as `Shape::outputs`): key, space, flat index.
    pub outputs: Vec<(RegKey, usize, u32)>,
    /// Size of the scratch buffer in bytes (memory spaces plus one dummy register that
    /// dropped stores write to).
    pub scratch_bytes: u32,
    /// Byte offset of the dummy register in the scratch buffer.
    pub dummy: u32,
    /// Per-invocation input registers the program reads directly and never writes: read
    /// straight from their input columns with one vector load per use (the column pointer
    /// is computed once per quad), so they hold no vector register for the whole program
    /// and are never copied. (space, flat).
    pub staged: BTreeSet<(usize, u32)>,
    /// Declared-tables of spaces with holes.
    pub tables: Vec<u8>,
    /// The stage is FRAG (killed flags are reported).
    pub fragment: bool,
    /// Memory resources and workgroup size (`crate::memory`).
    pub memory: crate::memory::MemPlan,
}

impl Plan {
    /// Builds the plan of `program` whose shape (validated by the oracle's checks) is `shape`.
    pub fn new(program: &Program, shape: &Shape) -> Plan {
        let mut indirect: BTreeSet<usize> = BTreeSet::new();
        for insn in &program.instructions {
            let regs = insn
                .dst
                .iter()
                .map(|d| d.reg)
                .chain(insn.src.iter().map(|s| s.reg));
            for reg in regs {
                if reg.is_indirect() {
                    if let Some(s) = shape.space_of(reg.file, reg.dimension.is_some()) {
                        indirect.insert(s);
                    }
                }
            }
        }
        let mut spaces = Vec::with_capacity(shape.spaces().len());
        let mut tables = Vec::new();
        // Saturating: a Shape's lane spaces hold at most 16 384 registers and its uniform
        // spaces 2^20 (model/src/check/layout.rs), so no sum below comes near 2^32; the
        // saturation only keeps the arithmetic defined.
        let (mut uniform_regs, mut scratch) = (0u32, 0u32);
        for (i, s) in shape.spaces().iter().enumerate() {
            let count = s.dims.saturating_mul(s.len);
            let in_memory = !s.uniform && indirect.contains(&i);
            let base = if s.uniform {
                let b = uniform_regs;
                uniform_regs = uniform_regs.saturating_add(count);
                b
            } else if in_memory {
                let b = scratch;
                scratch = scratch.saturating_add(count.saturating_mul(REG_BYTES));
                b
            } else {
                0
            };
            let all_declared = s.declared.iter().all(|&d| d);
            let table = tables.len() as u32;
            if !all_declared && indirect.contains(&i) {
                tables.extend(s.declared.iter().map(|&d| d as u8));
            }
            spaces.push(SpacePlan {
                uniform: s.uniform,
                dims: s.dims,
                len: s.len,
                in_memory,
                base,
                all_declared,
                table,
            });
        }
        // Read-only inputs named directly: read from their input columns.
        let direct = |reg: &Register| -> Option<(usize, u32)> {
            let sp = shape.space_of(reg.file, reg.dimension.is_some())?;
            let dim = reg.dimension.map_or(0, |d| i64::from(d.value));
            let f = shape.spaces()[sp].flat(dim, i64::from(reg.index.value))?;
            Some((sp, f as u32))
        };
        let mut read = BTreeSet::new();
        let mut written = BTreeSet::new();
        for insn in &program.instructions {
            for d in insn.dst.iter().filter(|d| !d.reg.is_indirect()) {
                written.extend(direct(&d.reg));
            }
            // Texel offset registers are direct (TEXT-FORMAT.md §7.5) and read like sources.
            let srcs = insn.src.iter().map(|s| s.reg);
            for reg in srcs.chain(insn.tex_offsets.iter().map(|o| o.reg)) {
                if !reg.is_indirect() {
                    read.extend(direct(&reg));
                }
            }
            let addrs = insn
                .dst
                .iter()
                .map(|d| d.reg)
                .chain(insn.src.iter().map(|s| s.reg))
                .flat_map(|r| {
                    r.index
                        .indirect
                        .into_iter()
                        .chain(r.dimension.and_then(|d| d.indirect))
                });
            for a in addrs {
                read.extend(direct(&Register::new(a.file, a.index)));
            }
        }
        let mut staged = BTreeSet::new();
        for (i, s) in shape.spaces().iter().enumerate() {
            if !matches!(s.file, File::Input | File::SystemValue) || indirect.contains(&i) {
                continue;
            }
            for &(sp, f) in read.range((i, 0)..(i.saturating_add(1), 0)) {
                if !written.contains(&(sp, f)) {
                    staged.insert((sp, f));
                }
            }
        }
        let dummy = scratch;
        let scratch_bytes = scratch.saturating_add(REG_BYTES);
        let mut uniform_init = vec![[0u32; 4]; uniform_regs as usize];
        if let Some(s) = shape.space_of(File::Immediate, false) {
            let base = spaces[s].base as usize;
            for (k, imm) in program.immediates.iter().enumerate() {
                if let Some(slot) = uniform_init.get_mut(base.saturating_add(k)) {
                    *slot = imm.words;
                }
            }
        }
        if let Some(s) = shape.space_of(File::ImmArray, false) {
            let sp = &shape.spaces()[s];
            let base = spaces[s].base as usize;
            for d in program
                .decls(File::ImmArray)
                .filter(|d| d.dimension.is_none())
            {
                for (k, v) in d.values.iter().enumerate() {
                    let index = i64::from(d.first).saturating_add(k as i64);
                    if let Some(slot) = sp
                        .flat(0, index)
                        .and_then(|f| uniform_init.get_mut(base.saturating_add(f)))
                    {
                        *slot = *v;
                    }
                }
            }
        }
        let mut inputs = Vec::new();
        for (i, s) in shape.spaces().iter().enumerate() {
            if !matches!(s.file, File::Input | File::SystemValue) {
                continue;
            }
            for (f, _) in s.referenced.iter().enumerate().filter(|(_, &r)| r) {
                let f = f as u32;
                let key = RegKey {
                    file: s.file,
                    dimension: s.two_d.then(|| f.checked_div(s.len).unwrap_or(0)),
                    index: f.checked_rem(s.len).unwrap_or(0),
                };
                inputs.push((key, i, f));
            }
        }
        let outputs = shape
            .outputs()
            .iter()
            .filter_map(|key| {
                let s = shape.space_of(key.file, key.dimension.is_some())?;
                let dim = key.dimension.unwrap_or(0) as i64;
                let f = shape.spaces()[s].flat(dim, key.index as i64)?;
                Some((*key, s, f as u32))
            })
            .collect();
        Plan {
            spaces,
            uniform_init,
            inputs,
            outputs,
            scratch_bytes,
            dummy,
            staged,
            tables,
            fragment: shape.stage() == shaderdiff_model::Stage::Fragment,
            memory: crate::memory::MemPlan::new(program),
        }
    }

    /// The space and flat index of a *direct* register reference, if it exists.
    pub fn direct(&self, shape: &Shape, reg: &Register) -> Option<(usize, u32)> {
        let s = shape.space_of(reg.file, reg.dimension.is_some())?;
        let dim = reg.dimension.map_or(0, |d| d.value as i64);
        let f = shape.spaces()[s].flat(dim, reg.index.value as i64)?;
        Some((s, f as u32))
    }

    /// The registers of memory space `s` whose value some operand may read (`None`: all of
    /// them, when an operand reads the space indirectly): the ones named directly by a
    /// source, an address or a texel offset, and the space's output registers. Only these
    /// need their initial zero (a register nothing reads is never observed, whatever a
    /// masked store leaves in it).
    pub fn may_read(&self, program: &Program, shape: &Shape, s: usize) -> Option<BTreeSet<u32>> {
        let mut read = BTreeSet::new();
        let mut note = |reg: &Register| {
            if let Some((sp, f)) = self.direct(shape, reg) {
                if sp == s {
                    read.insert(f);
                }
            }
        };
        for insn in &program.instructions {
            for src in &insn.src {
                if src.reg.is_indirect()
                    && shape.space_of(src.reg.file, src.reg.dimension.is_some()) == Some(s)
                {
                    return None;
                }
                if !src.reg.is_indirect() {
                    note(&src.reg);
                }
            }
            for o in &insn.tex_offsets {
                note(&o.reg);
            }
            for a in address_registers(insn) {
                note(&a);
            }
        }
        read.extend(self.outputs.iter().filter(|o| o.1 == s).map(|o| o.2));
        Some(read)
    }

    /// Binding index of input register `(space, flat)`, if it is bound.
    pub fn input_binding(&self, space: usize, flat: u32) -> Option<usize> {
        self.inputs
            .iter()
            .position(|&(_, s, f)| s == space && f == flat)
    }

    /// The uniform buffer for one run: IMM/IMMX values and the given CONST values.
    /// `constants` must have passed `Shape::check_inputs`; unknown keys are ignored.
    pub fn uniform_buffer(
        &self,
        shape: &Shape,
        constants: &BTreeMap<RegKey, [u32; 4]>,
    ) -> Vec<[u32; 4]> {
        let mut u = self.uniform_init.clone();
        for (key, value) in constants {
            let Some(s) = shape.space_of(key.file, key.dimension.is_some()) else {
                continue;
            };
            let dim = key.dimension.unwrap_or(0) as i64;
            if let Some(f) = shape.spaces()[s].flat(dim, key.index as i64) {
                if let Some(slot) = u.get_mut((self.spaces[s].base as usize).saturating_add(f)) {
                    *slot = *value;
                }
            }
        }
        u
    }

    /// The index range of the `ARRAY(n)` declaration of `file` named by an indirect operand.
    pub fn array_range(program: &Program, file: File, array_id: u32) -> Option<(u32, u32)> {
        if array_id == 0 {
            return None;
        }
        program
            .decls(file)
            .find(|d| d.array_id == array_id)
            .map(|d| (d.first, d.last))
    }
}

/// The registers the operands of `insn` name as addresses (`ADDR[0]` of
/// `TEMP[ADDR[0].x+1]`, and of an indirect 2-D dimension), destinations first.
pub(crate) fn address_registers(
    insn: &shaderdiff_model::Instruction,
) -> impl Iterator<Item = Register> + '_ {
    insn.dst
        .iter()
        .map(|d| d.reg)
        .chain(insn.src.iter().map(|x| x.reg))
        .flat_map(|r| {
            r.index
                .indirect
                .into_iter()
                .chain(r.dimension.and_then(|d| d.indirect))
        })
        .map(|a| Register::new(a.file, a.index))
}
