//! The `valhall` engine: TGSI → Valhall machine code ([`crate::compile`]) → 64-bit words →
//! decoded again ([`crate::sim::Shader::from_words`]) → simulated ([`crate::sim`]), behind
//! the [`Engine`] trait. Because the simulator only ever sees the encoded words, every run
//! also checks the encoder and decoder.
//!
//! The driver side — filling records and uniforms from [`Inputs`], reading [`Outputs`]
//! back — follows the ABI of [`crate::compile::abi`].

use std::any::Any;
use std::collections::{BTreeMap, BTreeSet};

use shaderdiff_engine::{
    Capabilities, Compiled, Engine, EngineConfig, EngineError, Inputs, Outputs,
};
use shaderdiff_model::check::shape::Shape;
use shaderdiff_model::check::ExecError;
use shaderdiff_model::{emitted_key, EmitRecord, RegKey};
use shaderdiff_model::{File, Opcode, Program, Stage, ALL_OPCODES};

use crate::compile::abi::{RECORD_BASE, RECORD_REG, SIDEBAND_REG, UNIFORM_MEM_BASE};
use crate::compile::{compile_with, CompileError, Machine, STATUS_CALL_DEPTH, STATUS_DEMOTED};
use crate::sim::{Launch, Memory, Schedule, Shader, SimError, NUM_REGS};
use shaderdiff_model::check::memory::is_memory_opcode;

/// The engine's `--backend` name.
pub const ENGINE: &str = "valhall";

/// Opcodes the valhall compiler lowers (tgsi.rst sections as in `compile::alu`).
pub const OPCODES: &[Opcode] = {
    use Opcode::*;
    &[
        MOV, ABS, ADD, SUB, MUL, DIV, MAD, FMA, LRP, MIN, MAX, SLT, SGE, SGT, SLE, SEQ, SNE, FSLT,
        FSGE, FSEQ, FSNE, CMP, SSG, RCP, RSQ, SQRT, FLR, CEIL, TRUNC, ROUND, FRC, LDEXP, DP2, DP3,
        DP4, DPH, DST, XPD, EX2, LG2, POW, SIN, COS, EXP, LOG, LIT, I2F, U2F, F2I, F2U, ARL, ARR,
        UARL, PK2H, UP2H, PK2US, PK4B, PK4UB, UADD, UMUL, UMAD, IMUL_HI, UMUL_HI, IDIV, MOD, UDIV,
        UMOD, INEG, IABS, ISSG, IMAX, IMIN, UMAX, UMIN, ISGE, ISLT, USEQ, USNE, USGE, USLT, NOT,
        AND, OR, XOR, SHL, USHR, ISHR, UCMP, UBFE, IBFE, BFI, BREV, POPC, LSB, UMSB, IMSB, IF, UIF,
        ELSE, ENDIF, BGNLOOP, ENDLOOP, BRK, CONT, SWITCH, CASE, DEFAULT, ENDSWITCH, CAL, RET,
        BGNSUB, ENDSUB, END, NOP, KILL, KILL_IF, KIL, KILP, DEMOTE, DDX, DDY, DDX_FINE, DDY_FINE,
        EMIT, ENDPRIM, DABS, DNEG, DADD, DMUL, DDIV, DMAD, DFMA, DMIN, DMAX, DRCP, DSQRT, DRSQ,
        DFRAC, DTRUNC, DCEIL, DFLR, DROUND, DSSG, DLDEXP, DSEQ, DSNE, DSLT, DSGE, D2F, D2I, D2U,
        F2D, I2D, U2D, I64ABS, I64NEG, I64SSG, U64ADD, U64MUL, I64MIN, I64MAX, U64MIN, U64MAX,
        I64DIV, I64MOD, U64DIV, U64MOD, U64SHL, U64SHR, I64SHR, U64SEQ, U64SNE, U64SLT, U64SGE,
        I64SLT, I64SGE, D2I64, D2U64, I642D, U642D, I642F, U642F, F2I64, F2U64, I2I64, U2I64,
        VOTE_ANY, VOTE_ALL, VOTE_EQ, READ_FIRST,
    ]
};

/// The `valhall` engine.
pub struct ValhallEngine {
    config: EngineConfig,
    caps: Capabilities,
}

/// A compiled program: the machine code decoded for the simulator, and the driver data.
pub struct ValhallCompiled {
    /// The compiler's output.
    pub machine: Machine,
    /// The words decoded and pre-resolved by the simulator.
    pub shader: Shader,
    shape: Shape,
    /// Invocations per workgroup (BARRIER, SHARED memory).
    workgroup: usize,
    /// Per instruction: its accesses are logged (atomics).
    trace: Vec<bool>,
}

impl Compiled for ValhallCompiled {
    /// The Valhall assembly, one instruction per line.
    fn listing(&self) -> Option<String> {
        Some(self.machine.listing())
    }
    /// The encoded instructions.
    fn machine_code(&self) -> Option<Vec<u8>> {
        Some(self.machine.bytes())
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}

fn exec_error(e: ExecError) -> EngineError {
    EngineError::from_exec(ENGINE, e)
}

fn compile_error(e: CompileError) -> EngineError {
    match e {
        CompileError::Unsupported { pos, reason } => EngineError::Unsupported {
            engine: ENGINE.into(),
            opcode: None,
            pos,
            reason,
        },
        CompileError::Invalid { pos, message } => EngineError::InvalidProgram { pos, message },
        CompileError::Internal(message) => EngineError::Compile {
            engine: ENGINE.into(),
            message,
        },
    }
}

impl ValhallEngine {
    /// The engine with the given step budget.
    pub fn new(config: &EngineConfig) -> ValhallEngine {
        ValhallEngine {
            config: config.clone(),
            caps: Capabilities {
                opcodes: ALL_OPCODES
                    .iter()
                    .copied()
                    .filter(|&op| {
                        OPCODES.contains(&op)
                            || runs_texture_opcode(op)
                            || is_memory_opcode(op)
                            || crate::compile::interp::INTERP_OPCODES.contains(&op)
                    })
                    .collect::<BTreeSet<_>>(),
                stages: Stage::ALL.iter().copied().collect(),
            },
        }
    }

    /// Compiles `program` to machine code (also what `shaderdiff compile --backend valhall`
    /// prints).
    ///
    /// # Errors
    /// As [`Engine::prepare`].
    pub fn compile(&self, program: &Program) -> Result<ValhallCompiled, EngineError> {
        refuse_textures(program)?;
        self.caps.check(ENGINE, program)?;
        // Modifiers on 64-bit sources as explicit DABS/DNEG/I64ABS/I64NEG (their meaning is
        // resolved once for every engine: shaderdiff_model::wide_modifiers).
        let expanded = shaderdiff_model::wide_modifiers::expand_source_modifiers(program);
        let program = expanded.as_ref().unwrap_or(program);
        let shape = Shape::new(program).map_err(exec_error)?;
        let fault = self
            .config
            .fault
            .as_deref()
            .and_then(crate::faults::Fault::from_name);
        let machine = compile_with(program, &shape, fault).map_err(compile_error)?;
        let shader = Shader::from_words(&machine.words).map_err(|e| EngineError::Compile {
            engine: ENGINE.into(),
            message: format!("the simulator rejects the compiled code: {e}"),
        })?;
        Ok(ValhallCompiled {
            trace: crate::memory_driver::trace_mask(&machine),
            machine,
            shader,
            shape,
            workgroup: crate::memory_driver::workgroup_size(program),
        })
    }
}

/// The texture opcodes the valhall compiler lowers (`compile::tex`): texture messages
/// (TEX, TXP, TXB, TXL and TXD as `TEX_SINGLE`, TXF as `TEX_FETCH`, TG4 as `TEX_GATHER`)
/// and TXQ as arithmetic on driver-supplied size words. The oracle's LODQ and TXQS are not
/// among them (refused, exit 3).
pub const VALHALL_TEXTURE_OPCODES: [Opcode; 8] = [
    Opcode::TEX,
    Opcode::TXP,
    Opcode::TXB,
    Opcode::TXL,
    Opcode::TXF,
    Opcode::TXQ,
    Opcode::TXD,
    Opcode::TG4,
];

/// Whether the valhall compiler lowers texture opcode `op` ([`VALHALL_TEXTURE_OPCODES`]).
pub fn runs_texture_opcode(op: Opcode) -> bool {
    VALHALL_TEXTURE_OPCODES.contains(&op)
}

/// Whether the valhall texture unit samples IR target `t`: the single-sampled, non-shadow,
/// non-cube targets of the texture model (1D, 2D, 3D, RECT, 1D_ARRAY, 2D_ARRAY, BUFFER);
/// multisample, cube and shadow targets are refused (exit 3).
pub fn runs_texture_target(t: shaderdiff_model::TexTarget) -> bool {
    crate::compile::tex::valhall_target(t).is_some()
}

/// Texture instructions the valhall texture unit does not run are refused with a reason
/// that says why: the texture opcodes outside the oracle's model (TG4 with a component in
/// a register is refused by the compiler); targets outside the texture model and more than
/// one texel offset operand are refused as the oracle refuses them.
///
/// # Errors
/// [`EngineError::Unsupported`] at the first such instruction.
fn refuse_textures(program: &Program) -> Result<(), EngineError> {
    for (i, insn) in program.instructions.iter().enumerate() {
        let op = insn.opcode;
        if !op.info().is_tex {
            continue;
        }
        let why = if !runs_texture_opcode(op) {
            format!("{op}: textures: not supported by the valhall texture unit")
        } else {
            match insn.texture {
                Some(t) if !runs_texture_target(t) => {
                    format!("{op}: texture target {t} is not supported by the valhall texture unit")
                }
                _ if insn.tex_offsets.len() > 1 => {
                    format!("{op}: more than one texel offset operand is not modelled")
                }
                _ => continue,
            }
        };
        return Err(EngineError::Unsupported {
            engine: ENGINE.into(),
            opcode: Some(op),
            pos: program.source_map.instruction(i),
            reason: why,
        });
    }
    Ok(())
}

/// Reads a little-endian word of the record memory.
fn word(rec: &[u8], off: usize) -> u32 {
    rec.get(off..off + 4)
        .map_or(0, |b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
}

impl Engine for ValhallEngine {
    fn name(&self) -> &'static str {
        ENGINE
    }

    fn capabilities(&self) -> &Capabilities {
        &self.caps
    }

    fn faults(&self) -> &'static [shaderdiff_engine::FaultDef] {
        crate::faults::CATALOGUE
    }

    fn check(&self, program: &Program) -> Result<(), EngineError> {
        refuse_textures(program)?;
        self.caps.check(ENGINE, program)
    }

    fn prepare(&self, program: &Program) -> Result<Box<dyn Compiled>, EngineError> {
        Ok(Box::new(self.compile(program)?))
    }

    fn run(&self, compiled: &dyn Compiled, inputs: &Inputs) -> Result<Outputs, EngineError> {
        let c = compiled
            .as_any()
            .downcast_ref::<ValhallCompiled>()
            .ok_or_else(|| EngineError::Trap {
                engine: ENGINE.into(),
                message: "not a valhall program".into(),
            })?;
        c.shape.check_inputs(inputs).map_err(exec_error)?;
        let m = &c.machine;
        let n = inputs.invocations;
        let stride = m.layout.stride as usize;
        let mut rec = vec![0u8; stride * n];
        for (key, off) in &m.layout.inputs {
            for t in 0..n {
                let v = inputs.register(key, t);
                for (ch, w) in v.iter().enumerate() {
                    let at = t * stride + *off as usize + 4 * ch;
                    rec[at..at + 4].copy_from_slice(&w.to_le_bytes());
                }
            }
        }
        let mut uniforms = m.uniforms.clone();
        if let Some(s) = c.shape.space_of(File::Const, true) {
            let space = &c.shape.spaces()[s];
            let base = m.layout.spaces[s].uniform.unwrap_or(0) as usize;
            for (key, v) in &inputs.constants {
                let dim = i64::from(key.dimension.unwrap_or(0));
                if let Some(f) = space.flat(dim, i64::from(key.index)) {
                    for (ch, w) in v.iter().enumerate() {
                        if let Some(slot) = uniforms.get_mut(base + f * 4 + ch) {
                            *slot = *w;
                        }
                    }
                }
            }
        }
        let mut memory = Memory::new();
        crate::memory_driver::map_resources(
            &m.layout,
            inputs,
            (n, c.workgroup),
            &mut memory,
            &mut uniforms,
            &mut rec,
        )?;
        memory.map(RECORD_BASE, rec);
        for (key, tex) in &inputs.textures {
            if key.file == File::Sampler {
                memory.bind_texture(key.index, tex.clone());
            }
        }
        // TXQ's size words (compile::tex): level-0 extents and the level count.
        for &(unit, first) in &m.tex_sizes {
            let key = shaderdiff_model::check::texture::unit_key(unit);
            if let Some(t) = inputs.textures.get(&key) {
                let words = [t.size[0], t.size[1], t.size[2], t.levels.len() as u32];
                for (k, w) in words.into_iter().enumerate() {
                    if let Some(slot) = uniforms.get_mut(first as usize + k) {
                        *slot = w;
                    }
                }
            }
        }
        if m.layout.uniform_mem_bytes > 0 {
            let mut words = m.uniform_mem.clone();
            if let Some(s) = c.shape.space_of(File::Const, true) {
                let space = &c.shape.spaces()[s];
                if let Some(base) = m.layout.spaces[s].uniform_mem {
                    for (key, v) in &inputs.constants {
                        let dim = i64::from(key.dimension.unwrap_or(0));
                        if let Some(f) = space.flat(dim, i64::from(key.index)) {
                            let at = base as usize / 4 + 4 * f;
                            if let Some(dst) = words.get_mut(at..at + 4) {
                                dst.copy_from_slice(v);
                            }
                        }
                    }
                }
            }
            memory.map(
                UNIFORM_MEM_BASE,
                words.iter().flat_map(|w| w.to_le_bytes()).collect(),
            );
        }
        let init = move |t: usize, regs: &mut [u32; NUM_REGS]| {
            let addr = RECORD_BASE + (t * stride) as u64;
            regs[RECORD_REG as usize] = addr as u32;
            regs[RECORD_REG as usize + 1] = (addr >> 32) as u32;
        };
        let launch = Launch {
            threads: n,
            uniforms: &uniforms,
            init: &init,
            step_limit: self.config.step_limit,
            step_weights: Some(&m.weights),
        };
        let schedule = Schedule {
            seed: Some(self.config.schedule_seed),
            workgroup: c.workgroup,
            trace: Some(&c.trace),
            sideband: SIDEBAND_REG,
        };
        let outcome = c
            .shader
            .run_scheduled(&launch, &schedule, &mut memory)
            .map_err(|e| match e {
                SimError::StepLimit { limit, thread } => EngineError::StepLimit {
                    limit,
                    invocation: thread,
                },
                other => EngineError::Trap {
                    engine: ENGINE.into(),
                    message: other.to_string(),
                },
            })?;
        let rec = memory.region(RECORD_BASE).unwrap_or(&[]);
        let status = |t: usize| word(rec, t * stride + m.layout.status as usize);
        if let Some(t) = (0..n).find(|&t| status(t) & STATUS_CALL_DEPTH != 0) {
            return Err(EngineError::CallDepth {
                limit: shaderdiff_model::check::MAX_CALL_DEPTH,
                invocation: t,
            });
        }
        let mut registers = BTreeMap::new();
        for (key, off) in &m.layout.outputs {
            let rows = (0..n)
                .map(|t| {
                    let b = t * stride + *off as usize;
                    [
                        word(rec, b),
                        word(rec, b + 4),
                        word(rec, b + 8),
                        word(rec, b + 12),
                    ]
                })
                .collect();
            registers.insert(*key, rows);
        }
        let fragment = c.shape.stage() == Stage::Fragment;
        let killed = fragment.then(|| {
            (0..n)
                .map(|t| {
                    outcome.discarded.get(t).copied().unwrap_or(false)
                        || status(t) & STATUS_DEMOTED != 0
                })
                .collect()
        });
        let mut out = Outputs {
            invocations: n,
            registers,
            undefined: BTreeMap::new(),
            killed,
            buffers: inputs.buffers.clone(),
            global: inputs.global.clone(),
            ..Outputs::default()
        };
        if !m.layout.resources.is_empty() {
            crate::memory_driver::read_back(&m.layout, &memory, &mut out);
            out.atomics = Some(crate::memory_driver::atomic_log(m, &outcome.events));
        }
        if let Some(e) = &m.layout.emit {
            let keys: Vec<RegKey> = m.layout.outputs.iter().map(|(k, _)| *k).collect();
            let mut records = Vec::with_capacity(n);
            let mut most = 0;
            for t in 0..n {
                let count = word(rec, t * stride + e.count as usize).min(e.max_vertices) as usize;
                most = most.max(count);
                records.push(
                    (0..count)
                        .map(|v| {
                            let b = t * stride + (e.first + v as u32 * e.vertex_bytes) as usize;
                            EmitRecord {
                                stream: word(rec, b),
                                primitive: word(rec, b + 4),
                            }
                        })
                        .collect::<Vec<_>>(),
                );
            }
            for v in 0..most {
                for (o, key) in keys.iter().enumerate() {
                    if key.dimension.is_some() {
                        continue;
                    }
                    let rows = (0..n)
                        .map(|t| {
                            let count = records[t].len();
                            if v >= count {
                                return [0; 4];
                            }
                            let b = t * stride
                                + (e.first + v as u32 * e.vertex_bytes + 16 + 16 * o as u32)
                                    as usize;
                            [
                                word(rec, b),
                                word(rec, b + 4),
                                word(rec, b + 8),
                                word(rec, b + 12),
                            ]
                        })
                        .collect();
                    out.registers.insert(emitted_key(v as u32, key.index), rows);
                }
            }
            out.emits = Some(records);
        }
        Ok(out)
    }
}
