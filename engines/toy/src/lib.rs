//! A toy engine, to show what adding an engine to shaderdiff takes: this crate (it depends
//! on the engine trait and the program model only) plus one line in a registry table
//! (`engines/tests/registry.rs` adds that line to the built-in lines and runs shared
//! program-table rows through the registry on it).
//!
//! It is a dev-dependency of the registry crate only, never a line of the built-in table,
//! so the `shaderdiff` binary does not know it: a test that appended a line to the real
//! table would change every command's engine list, which a test must not do. The test
//! builds its registry from the very same built-in lines (`shaderdiff_backends::ENGINES`)
//! plus the toy's line, through the same code the commands use
//! (`shaderdiff_backends::Registry`).
//!
//! What it runs: vertex programs of MOV, ADD and MUL (tgsi.rst "MOV", "ADD", "MUL": per
//! channel, IEEE binary32 with round-to-nearest-even, which Rust's `f32` arithmetic is),
//! sources with swizzles and the `-`/`|x|` modifiers (tgsi.rst "Modifiers": swizzle, then
//! absolute value, then negation), writemasks, and direct IN, CONST, IMM, TEMP and OUT
//! registers; one invocation at a time. Anything else (other opcodes and stages, `_SAT`,
//! indirect or 2-D operands) is reported as unsupported by its capabilities and
//! [`Engine::check`].

use std::any::Any;
use std::collections::{BTreeMap, BTreeSet};

use shaderdiff_engine::{
    Capabilities, Compiled, Engine, EngineConfig, EngineError, Inputs, Outputs,
};
use shaderdiff_model::{File, Opcode, Program, Register, Saturate, Src, Stage};

/// A 4-channel register value, as raw binary32 words.
type Vec4 = [u32; 4];

/// Key of a register value in inputs and outputs (1-D, direct).
type Key = shaderdiff_engine::RegKey;

/// The toy engine (engine name `toy`).
pub struct ToyEngine {
    caps: Capabilities,
}

impl ToyEngine {
    /// The toy; it has no options (`config` is accepted for the registry's constructor
    /// signature).
    pub fn new(_config: &EngineConfig) -> ToyEngine {
        ToyEngine {
            caps: Capabilities {
                opcodes: [Opcode::MOV, Opcode::ADD, Opcode::MUL, Opcode::END].into(),
                stages: BTreeSet::from([Stage::Vertex]),
            },
        }
    }
}

/// A program the toy accepted.
struct Checked(Program);

impl Compiled for Checked {
    fn listing(&self) -> Option<String> {
        None
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// The unsupported error for instruction `i` of `program`.
fn unsupported(program: &Program, i: usize, reason: &str) -> EngineError {
    EngineError::Unsupported {
        engine: "toy".into(),
        opcode: Some(program.instructions[i].opcode),
        pos: program.source_map.instruction(i),
        reason: reason.into(),
    }
}

/// Whether the toy reads or writes `reg`: a direct, 1-D register of a file it keeps.
fn supported_reg(reg: &Register) -> bool {
    !reg.is_indirect()
        && reg.dimension.is_none()
        && reg.index.value >= 0
        && matches!(
            reg.file,
            File::Input | File::Const | File::Immediate | File::Temp | File::Output
        )
}

/// The value key of a direct 1-D register.
fn key(reg: &Register) -> Key {
    Key::new(reg.file, reg.index.value as u32)
}

/// One invocation's registers.
struct Regs<'a> {
    program: &'a Program,
    inputs: &'a Inputs,
    invocation: usize,
    written: BTreeMap<Key, Vec4>,
}

impl Regs<'_> {
    /// The value of `reg` before modifiers (unwritten TEMP and OUT are zero, INTERFACE.md).
    fn read(&self, reg: &Register) -> Vec4 {
        let k = key(reg);
        match reg.file {
            File::Input => self.inputs.register(&k, self.invocation),
            File::Const => self.inputs.constants.get(&k).copied().unwrap_or([0; 4]),
            File::Immediate => self.program.immediates[k.index as usize].words,
            _ => self.written.get(&k).copied().unwrap_or([0; 4]),
        }
    }

    /// Source `src` as four floats: swizzle, then `|x|`, then negation (tgsi.rst).
    fn src(&self, src: &Src) -> [f32; 4] {
        let v = self.read(&src.reg);
        src.swizzle.map(|c| {
            let mut x = f32::from_bits(v[c as usize]);
            if src.abs {
                x = x.abs();
            }
            if src.neg {
                x = -x;
            }
            x
        })
    }
}

impl Engine for ToyEngine {
    fn name(&self) -> &'static str {
        "toy"
    }

    fn capabilities(&self) -> &Capabilities {
        &self.caps
    }

    fn check(&self, program: &Program) -> Result<(), EngineError> {
        self.caps.check(self.name(), program)?;
        for (i, insn) in program.instructions.iter().enumerate() {
            if insn.saturate != Saturate::None {
                return Err(unsupported(program, i, "saturation"));
            }
            let regs = insn.dst.iter().map(|d| &d.reg);
            if !regs
                .chain(insn.src.iter().map(|s| &s.reg))
                .all(supported_reg)
            {
                return Err(unsupported(
                    program,
                    i,
                    "indirect, 2-D or resource operands",
                ));
            }
        }
        Ok(())
    }

    fn prepare(&self, program: &Program) -> Result<Box<dyn Compiled>, EngineError> {
        self.check(program)?;
        Ok(Box::new(Checked(program.clone())))
    }

    fn run(&self, compiled: &dyn Compiled, inputs: &Inputs) -> Result<Outputs, EngineError> {
        let Some(Checked(program)) = compiled.as_any().downcast_ref::<Checked>() else {
            return Err(EngineError::InvalidProgram {
                pos: None,
                message: "toy was given code prepared by another engine".into(),
            });
        };
        let mut out = Outputs {
            invocations: inputs.invocations,
            ..Outputs::default()
        };
        let outputs: Vec<Key> = program
            .declarations
            .iter()
            .filter(|d| d.file == File::Output)
            .flat_map(|d| (d.first..=d.last).map(|i| Key::new(File::Output, i)))
            .collect();
        for invocation in 0..inputs.invocations {
            let regs = run_one(program, inputs, invocation);
            for k in &outputs {
                let v = regs.written.get(k).copied().unwrap_or([0; 4]);
                out.registers.entry(*k).or_default().push(v);
            }
        }
        Ok(out)
    }
}

/// Runs every instruction of `program` for one invocation.
fn run_one<'a>(program: &'a Program, inputs: &'a Inputs, invocation: usize) -> Regs<'a> {
    let mut regs = Regs {
        program,
        inputs,
        invocation,
        written: BTreeMap::new(),
    };
    for insn in &program.instructions {
        let s: Vec<[f32; 4]> = insn.src.iter().map(|s| regs.src(s)).collect();
        let result: [f32; 4] = match insn.opcode {
            Opcode::MOV => s[0],
            Opcode::ADD => [0, 1, 2, 3].map(|c| s[0][c] + s[1][c]),
            Opcode::MUL => [0, 1, 2, 3].map(|c| s[0][c] * s[1][c]),
            _ => break, // END
        };
        let Some(dst) = insn.dst.first() else {
            continue;
        };
        let slot = regs.written.entry(key(&dst.reg)).or_insert([0; 4]);
        for (c, word) in slot.iter_mut().enumerate() {
            if dst.writemask >> c & 1 != 0 {
                *word = result[c].to_bits();
            }
        }
    }
    regs
}
