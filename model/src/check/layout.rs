//! Register spaces: where every register a program can name lives during a run.
//!
//! A *space* is one register file seen through 1-D or 2-D names (`OUT[i]` and
//! `OUT[v][i]` are different spaces; `CONST[i]` is `CONST[0][i]`). Its registers are
//! numbered `dim * len + index` from the space's first *slot*. Per-invocation files
//! (TEMP, IN, OUT, ADDR, SV, TEMPX) live in lane storage (one [`Vals`](super::lanes::Vals)
//! per slot), uniform files (CONST, IMM, IMMX) in uniform storage (one vec4 per slot).

use shaderdiff_model::{
    DeclDimension, File, Pos, Primitive, Program, PropertyName, Register, Stage,
};

use super::ExecError;

/// Per-chunk lane storage is `LANE_SLOT_LIMIT` KiB at most.
const LANE_SLOT_LIMIT: u64 = 16 * 1024;
/// Uniform storage is 16 bytes per slot.
const UNIFORM_SLOT_LIMIT: u64 = 1 << 20;
/// Implied vertex count of TESS inputs/outputs (TEXT-FORMAT.md §4).
const TESS_IMPLIED_VERTICES: u32 = 32;

/// Which storage a space uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Storage {
    /// One value per lane.
    Lane,
    /// One value for all lanes.
    Uniform,
}

/// One register space.
#[derive(Clone, Debug)]
pub struct Space {
    /// Register file.
    pub file: File,
    /// Named with two brackets.
    pub two_d: bool,
    /// Per-lane or uniform storage.
    pub storage: Storage,
    /// Number of dimension values (1 for 1-D spaces).
    pub dims: u32,
    /// Number of indices per dimension value.
    pub len: u32,
    /// First slot in its storage.
    pub base: u32,
    /// Covered by a declaration (the bounds of indirect access).
    pub declared: Vec<bool>,
    /// Declared or named directly by an operand (registers that exist for I/O).
    pub referenced: Vec<bool>,
}

impl Space {
    fn flat(&self, dim: i64, index: i64) -> Option<usize> {
        if dim < 0 || index < 0 || dim >= self.dims as i64 || index >= self.len as i64 {
            return None;
        }
        Some(dim as usize * self.len as usize + index as usize)
    }

    /// The slot of `[dim][index]` if that register exists at all.
    pub fn slot(&self, dim: i64, index: i64) -> Option<u32> {
        self.flat(dim, index).map(|f| self.base + f as u32)
    }

    /// The slot of `[dim][index]` if an indirect access may touch it: declared, and inside
    /// `range` (the `ARRAY(n)` declaration's index range) when given.
    pub fn bounded_slot(&self, dim: i64, index: i64, range: Option<(u32, u32)>) -> Option<u32> {
        if let Some((lo, hi)) = range {
            if index < lo as i64 || index > hi as i64 {
                return None;
            }
        }
        let f = self.flat(dim, index)?;
        self.declared[f].then_some(self.base + f as u32)
    }

    /// Every register that exists for I/O purposes, as `(dim, index, slot)`.
    pub fn referenced_regs(&self) -> impl Iterator<Item = (u32, u32, u32)> + '_ {
        self.referenced
            .iter()
            .enumerate()
            .filter(|(_, &r)| r)
            .map(move |(f, _)| {
                let f = f as u32;
                (f / self.len, f % self.len, self.base + f)
            })
    }
}

/// All spaces of a program.
#[derive(Clone, Debug, Default)]
pub struct Layout {
    /// Every register space.
    pub spaces: Vec<Space>,
    /// Number of per-lane vec4 slots.
    pub lane_slots: u32,
    /// Number of uniform vec4 slots.
    pub uniform_slots: u32,
}

/// Storage class of a file, or `None` for files that are not vec4 registers.
pub fn storage_of(file: File) -> Option<Storage> {
    match file {
        File::Temp
        | File::Input
        | File::Output
        | File::Address
        | File::SystemValue
        | File::TempArray => Some(Storage::Lane),
        File::Const | File::Immediate | File::ImmArray => Some(Storage::Uniform),
        _ => None,
    }
}

/// The space key of a register name: CONST is always 2-D (`CONST[i]` = `CONST[0][i]`).
pub fn space_key(file: File, has_dim: bool) -> (File, bool) {
    (file, has_dim || file == File::Const)
}

/// Vertices of an implied first dimension (`IN[][i]`) for `file` in this program.
fn implied_vertices(program: &Program, file: File) -> u32 {
    match (program.stage, file) {
        (Stage::Geometry, _) => program
            .property(PropertyName::GsInputPrimitive)
            .and_then(|v| Primitive::ALL.get(v as usize))
            .map_or(0, |p| p.vertices()),
        (Stage::TessCtrl, File::Output) => program
            .property(PropertyName::TcsVerticesOut)
            .unwrap_or(TESS_IMPLIED_VERTICES),
        _ => TESS_IMPLIED_VERTICES,
    }
}

struct Extent {
    dims: u64,
    len: u64,
    declared: Vec<(u32, u32, u32, u32)>, // dims lo..=hi x index lo..=hi
    referenced: Vec<(u32, u32)>,
}

/// Index of the extent of `key`, created empty if new.
fn ext<'e>(
    keys: &mut Vec<(File, bool)>,
    extents: &'e mut Vec<Extent>,
    key: (File, bool),
) -> &'e mut Extent {
    let i = match keys.iter().position(|k| *k == key) {
        Some(i) => i,
        None => {
            keys.push(key);
            extents.push(Extent {
                dims: 1,
                len: 0,
                declared: Vec::new(),
                referenced: Vec::new(),
            });
            keys.len() - 1
        }
    };
    &mut extents[i]
}

fn invalid(pos: Option<Pos>, message: String) -> ExecError {
    ExecError::InvalidProgram { pos, message }
}

impl Layout {
    /// Builds the spaces of `program`: declarations, immediates, and every directly
    /// named register (including address registers of indirect operands).
    /// `operand_pos(i, k)` gives the position of operand `k` of instruction `i`.
    pub fn build(program: &Program) -> Result<Layout, ExecError> {
        let mut keys: Vec<(File, bool)> = Vec::new();
        let mut extents: Vec<Extent> = Vec::new();
        // Immediates: IMM[i] for every IMM statement.
        let nimm = program.immediates.len() as u64;
        if nimm > 0 {
            let e = ext(&mut keys, &mut extents, (File::Immediate, false));
            e.len = nimm;
            e.declared.push((0, 0, 0, nimm as u32 - 1));
        }
        for (di, d) in program.declarations.iter().enumerate() {
            if storage_of(d.file).is_none() {
                continue;
            }
            let pos = program.source_map.declarations.get(di).copied();
            if d.last < d.first {
                return Err(invalid(
                    pos,
                    format!("{} declaration range is empty", d.file),
                ));
            }
            let (dlo, dhi, two_d) = match d.dimension {
                None => (0, 0, false),
                Some(DeclDimension::Index(v)) => (v, v, true),
                Some(DeclDimension::Implied) => match implied_vertices(program, d.file) {
                    0 => continue,
                    n => (0, n - 1, true),
                },
            };
            let e = ext(&mut keys, &mut extents, space_key(d.file, two_d));
            e.dims = e.dims.max(dhi as u64 + 1);
            e.len = e.len.max(d.last as u64 + 1);
            e.declared.push((dlo, dhi, d.first, d.last));
        }
        for (ii, insn) in program.instructions.iter().enumerate() {
            let regs = insn
                .dst
                .iter()
                .map(|d| d.reg)
                .chain(insn.src.iter().map(|s| s.reg));
            for (k, reg) in regs.enumerate() {
                let pos = program.source_map.operand(ii, k);
                let mut direct: Vec<(File, Option<i64>, i64)> = Vec::new();
                for ind in reg
                    .index
                    .indirect
                    .iter()
                    .chain(reg.dimension.iter().filter_map(|d| d.indirect.as_ref()))
                {
                    direct.push((ind.file, None, ind.index as i64));
                }
                if reg.index.indirect.is_none() {
                    match reg.dimension {
                        Some(dim) if dim.indirect.is_some() => {}
                        Some(dim) => {
                            direct.push((reg.file, Some(dim.value as i64), reg.index.value as i64))
                        }
                        None => direct.push((reg.file, None, reg.index.value as i64)),
                    }
                }
                for (file, dim, index) in direct {
                    if storage_of(file).is_none() {
                        continue;
                    }
                    if index < 0 || dim.is_some_and(|d| d < 0) {
                        return Err(invalid(pos, format!("negative {file} index")));
                    }
                    let e = ext(&mut keys, &mut extents, space_key(file, dim.is_some()));
                    let dim = dim.unwrap_or(0) as u64;
                    e.dims = e.dims.max(dim + 1);
                    e.len = e.len.max(index as u64 + 1);
                    e.referenced.push((dim as u32, index as u32));
                }
            }
        }
        let mut layout = Layout::default();
        let (mut lane, mut uniform) = (0u64, 0u64);
        for (key, e) in keys.into_iter().zip(extents) {
            let storage = storage_of(key.0).expect("only register files get spaces");
            let count = e.dims * e.len;
            let counter = match storage {
                Storage::Lane => &mut lane,
                Storage::Uniform => &mut uniform,
            };
            let base = *counter;
            *counter += count;
            let limit = match storage {
                Storage::Lane => LANE_SLOT_LIMIT,
                Storage::Uniform => UNIFORM_SLOT_LIMIT,
            };
            if *counter > limit {
                return Err(ExecError::UnsupportedFeature {
                    pos: None,
                    reason: format!("more than {limit} {} registers", key.0),
                });
            }
            let mut space = Space {
                file: key.0,
                two_d: key.1,
                storage,
                dims: e.dims as u32,
                len: e.len as u32,
                base: base as u32,
                declared: vec![false; count as usize],
                referenced: vec![false; count as usize],
            };
            for &(dlo, dhi, lo, hi) in &e.declared {
                for d in dlo..=dhi {
                    for i in lo..=hi {
                        let f = space.flat(d as i64, i as i64).expect("inside extent");
                        space.declared[f] = true;
                        space.referenced[f] = true;
                    }
                }
            }
            for &(d, i) in &e.referenced {
                let f = space.flat(d as i64, i as i64).expect("inside extent");
                space.referenced[f] = true;
            }
            layout.spaces.push(space);
        }
        layout.lane_slots = lane as u32;
        layout.uniform_slots = uniform as u32;
        Ok(layout)
    }

    /// The space a register name refers to.
    pub fn space(&self, file: File, has_dim: bool) -> Option<usize> {
        let key = space_key(file, has_dim);
        self.spaces.iter().position(|s| (s.file, s.two_d) == key)
    }

    /// The slot of a direct register reference (`CONST[i]` is `CONST[0][i]`).
    pub fn direct_slot(&self, reg: &Register) -> Option<(usize, u32)> {
        let s = self.space(reg.file, reg.dimension.is_some())?;
        let dim = reg.dimension.map_or(0, |d| d.value as i64);
        let slot = self.spaces[s].slot(dim, reg.index.value as i64)?;
        Some((s, slot))
    }
}
