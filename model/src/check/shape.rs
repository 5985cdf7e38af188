//! A program's register spaces and I/O shape exactly as the reference interpreter sees them,
//! for every other engine: the same program checks, the same accepted inputs (with the same
//! error messages), the same output registers, and the same bounds for indirect addressing.
//!
//! Engines still implement the *semantics* themselves; only what a program's registers are
//! and which inputs it accepts is shared, so engines never differ on I/O shape alone.

use super::texture::TexUse;
use shaderdiff_model::{File, Program, Stage};

use super::decode::{decode, Decoded};
use super::layout::{space_key, Layout, Storage};
use super::ExecError;
use crate::io::{Inputs, RegKey};

/// One register space: a register file seen through 1-D or 2-D names (`OUT[i]` and
/// `OUT[v][i]` are different spaces; `CONST[i]` is `CONST[0][i]`, so CONST is always 2-D).
/// Register `[dim][index]` is number `dim * len + index` (its *flat* index) in the space.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RegisterSpace {
    /// Register file.
    pub file: File,
    /// Named with two brackets (always true for CONST).
    pub two_d: bool,
    /// One value for all invocations (CONST, IMM, IMMX) rather than one per invocation.
    pub uniform: bool,
    /// Number of dimension values (1 for 1-D spaces).
    pub dims: u32,
    /// Number of indices per dimension value.
    pub len: u32,
    /// Per flat index: covered by a declaration, i.e. inside the bounds of indirect access
    /// (tgsi.rst "Array Declaration"; IMM registers count as declared).
    pub declared: Vec<bool>,
    /// Per flat index: declared or named directly by an operand (the registers that exist
    /// for inputs and outputs).
    pub referenced: Vec<bool>,
}

impl RegisterSpace {
    /// The flat index of `[dim][index]` when it lies inside the space's extent.
    pub fn flat(&self, dim: i64, index: i64) -> Option<usize> {
        if dim < 0 || index < 0 || dim >= self.dims as i64 || index >= self.len as i64 {
            return None;
        }
        Some(dim as usize * self.len as usize + index as usize)
    }
}

/// What [`super::run`] decides about a program before running it: validity, register
/// spaces, accepted inputs and output registers.
#[derive(Clone, Debug)]
pub struct Shape {
    stage: Stage,
    layout: Layout,
    spaces: Vec<RegisterSpace>,
    outputs: Vec<RegKey>,
    memory_regs: Vec<RegKey>,
    textures: Vec<TexUse>,
}

impl Shape {
    /// Checks `program` exactly as [`super::run`] does before running anything and returns
    /// its shape.
    ///
    /// # Errors
    /// The same [`ExecError`] the interpreter would return for the program:
    /// `Unsupported` (first unsupported instruction), `UnsupportedFeature`, `InvalidProgram`
    /// (structure, operands; with source positions).
    pub fn new(program: &Program) -> Result<Shape, ExecError> {
        let d = decode(program)?;
        Ok(Shape::from_decoded(&d))
    }

    /// The shape of an already decoded program.
    pub fn from_decoded(d: &Decoded) -> Shape {
        let spaces = d
            .layout
            .spaces
            .iter()
            .map(|s| RegisterSpace {
                file: s.file,
                two_d: s.two_d,
                uniform: s.storage == Storage::Uniform,
                dims: s.dims,
                len: s.len,
                declared: s.declared.clone(),
                referenced: s.referenced.clone(),
            })
            .collect();
        Shape {
            stage: d.stage,
            layout: d.layout.clone(),
            spaces,
            outputs: d.outputs.iter().map(|(k, _)| *k).collect(),
            memory_regs: d.memory_regs.clone(),
            textures: d.textures.clone(),
        }
    }

    /// The program's stage.
    pub fn stage(&self) -> Stage {
        self.stage
    }

    /// Every register space of the program.
    pub fn spaces(&self) -> &[RegisterSpace] {
        &self.spaces
    }

    /// Index in [`Shape::spaces`] of the space a register name refers to: `file` named with
    /// two brackets (`two_d`) or one (CONST is always 2-D). `None` when the program has no
    /// register of that space at all.
    pub fn space_of(&self, file: File, two_d: bool) -> Option<usize> {
        let key = space_key(file, two_d);
        self.spaces.iter().position(|s| (s.file, s.two_d) == key)
    }

    /// Output registers every engine reports (every OUT register declared or named by an
    /// operand), sorted.
    pub fn outputs(&self) -> &[RegKey] {
        &self.outputs
    }

    /// Checks `inputs` against the program (INTERFACE.md "The inputs file").
    ///
    /// # Errors
    /// [`ExecError::InvalidInputs`] with the interpreter's message: invocation count not a
    /// multiple of 4 for a fragment program, a register that is not a per-invocation input
    /// (IN, SV) or constant (CONST) or that the program does not have, a per-invocation list
    /// whose length is neither 1 nor the invocation count, an undeclared buffer.
    pub fn check_inputs(&self, inputs: &Inputs) -> Result<(), ExecError> {
        check_inputs(
            self.stage,
            &self.layout,
            &self.memory_regs,
            &self.textures,
            inputs,
        )
    }

    /// The texture units the program samples, with their targets (`SAMP[n]` order of
    /// first use).
    pub fn textures(&self) -> &[TexUse] {
        &self.textures
    }
}

fn bad(msg: String) -> ExecError {
    ExecError::InvalidInputs(msg)
}

/// The slot of register `key` when the program has it (declared or named).
pub fn input_slot(layout: &Layout, key: &RegKey) -> Option<u32> {
    let s = layout.space(key.file, key.dimension.is_some())?;
    let space = &layout.spaces[s];
    let dim = key.dimension.unwrap_or(0) as i64;
    let slot = space.slot(dim, key.index as i64)?;
    space.referenced[(slot - space.base) as usize].then_some(slot)
}

/// The input checks of [`Shape::check_inputs`], on the interpreter's own decoded form.
pub fn check_inputs(
    stage: Stage,
    layout: &Layout,
    memory_regs: &[RegKey],
    textures: &[TexUse],
    inputs: &Inputs,
) -> Result<(), ExecError> {
    super::texture::check_inputs(textures, inputs)?;
    let n = inputs.invocations;
    if stage == Stage::Fragment && n & 3 != 0 {
        return Err(bad(format!(
            "{n} invocations: fragment programs run whole quads (a multiple of 4)"
        )));
    }
    for (key, values) in &inputs.registers {
        if !matches!(key.file, File::Input | File::SystemValue) {
            return Err(bad(format!("{key} is not a per-invocation input register")));
        }
        if input_slot(layout, key).is_none() {
            return Err(bad(format!("{key} is not declared by the program")));
        }
        if values.len() != 1 && values.len() != n {
            return Err(bad(format!(
                "{key} has {} values for {n} invocations (give 1 or {n})",
                values.len()
            )));
        }
    }
    for key in inputs.constants.keys() {
        if key.file != File::Const {
            return Err(bad(format!("{key} is not a constant register")));
        }
        if input_slot(layout, key).is_none() {
            return Err(bad(format!("{key} is not declared by the program")));
        }
    }
    if let Some(key) = inputs.buffers.keys().find(|k| !memory_regs.contains(k)) {
        return Err(bad(format!("{key} is not declared by the program")));
    }
    Ok(())
}
