//! The Valhall compiler: shaderdiff IR (TGSI programs) → Valhall machine code.
//!
//! Passes, in order:
//! 1. `lower`/`alu`/`special`: TGSI → [`vcode::VCode`], scalarised (one value per vec4
//!    channel), source modifiers and saturate folded into instruction modifiers
//!    (`.neg`, `.abs`, `.clamp_0_1`), constants in the immediate table or FAU uniforms,
//!    the FAU limits of ENCODING.md §3.3 enforced as instructions are made. The 64-bit
//!    opcodes (`wide64`) are channel pairs computed by `softfp64`: IEEE binary64 and
//!    64-bit integer arithmetic in 32-bit integer instructions (Valhall has no f64 unit).
//!    Texture instructions become `TEX_SINGLE` / `TEX_FETCH` messages (`tex`).
//! 2. `regalloc`: linear-scan allocation of `r0`–`r55` with spilling to the record.
//! 3. `finish`: flow annotations (`.wait0`, `.reconverge`, `.end`), branch offsets,
//!    encoding through [`crate::encode`].
//!
//! The driver ABI (record layout, preloaded registers, uniforms) is [`abi`].

pub mod abi;
mod alu;
mod atomic64;
mod encode_fault;
mod finish;
mod geom;
pub mod inline;
pub mod interp;
mod lower;
pub mod memory;
mod operand;
mod peephole;
mod regalloc;
pub(crate) mod softfp64;
mod special;
mod subgroup;
pub mod tex;
mod texts;
pub mod vcode;
mod wide64;

use shaderdiff_model::check::shape::Shape;
use shaderdiff_model::{Pos, Program, Stage};

use abi::{RecordLayout, MAX_RECORD};
pub use lower::{STATUS_CALL_DEPTH, STATUS_DEMOTED};

/// Why a program could not be compiled.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CompileError {
    /// The program uses something this compiler does not implement.
    #[error("{}{reason}", pos_prefix(.pos))]
    Unsupported {
        /// Source position, when known.
        pos: Option<Pos>,
        /// What.
        reason: String,
    },
    /// The program is malformed in a way the compiler noticed.
    #[error("{}{message}", pos_prefix(.pos))]
    Invalid {
        /// Source position, when known.
        pos: Option<Pos>,
        /// What.
        message: String,
    },
    /// A compiler bug (an instruction that does not encode ...).
    #[error("internal compiler error: {0}")]
    Internal(String),
}

fn pos_prefix(pos: &Option<Pos>) -> String {
    pos.map(|p| format!("{p}: ")).unwrap_or_default()
}

impl CompileError {
    pub(crate) fn unsupported(pos: Option<Pos>, reason: &str) -> CompileError {
        CompileError::Unsupported {
            pos,
            reason: reason.to_string(),
        }
    }
    pub(crate) fn invalid(pos: Option<Pos>, message: &str) -> CompileError {
        CompileError::Invalid {
            pos,
            message: message.to_string(),
        }
    }
}

/// A compiled program: machine code plus everything the driver needs to run it.
#[derive(Clone, Debug)]
pub struct Machine {
    /// The instructions, one 64-bit word each (store little-endian).
    pub words: Vec<u64>,
    /// Step weight of each instruction: the number of TGSI instructions it stands for in
    /// the oracle's step budget (the first instruction of each TGSI instruction carries 1).
    pub weights: Vec<u32>,
    /// Uniform words with the compiler's constants in place; the CONST words (the first
    /// [`RecordLayout::const_words`]) are filled per run.
    pub uniforms: Vec<u32>,
    /// The record layout.
    pub layout: RecordLayout,
    /// Initial uniform memory (little-endian words): IMM and IMMX values in place, CONST
    /// words zero (filled per run at `layout.spaces[s].uniform_mem`).
    pub uniform_mem: Vec<u32>,
    /// Instructions whose memory accesses the engine logs, with their role (instruction
    /// index, [`memory::Site`]), in index order.
    pub sites: Vec<(u32, memory::Site)>,
    /// TXQ's size words ([`tex`] module docs): per texture unit, the first of the four
    /// uniform words (width, height, depth / layers, level count) the driver fills.
    pub tex_sizes: Vec<(u32, u32)>,
}

impl Machine {
    /// The code as bytes (little-endian words).
    pub fn bytes(&self) -> Vec<u8> {
        self.words.iter().flat_map(|w| w.to_le_bytes()).collect()
    }

    /// Assembly text, one instruction per line ([`crate::disassemble_word`] of each word;
    /// the text is made on request, not per compile: a campaign never reads it). Every
    /// word the compiler emits decodes back to the instruction it encoded (the decoder
    /// accepts a word only if re-encoding gives it back), so this is the text of the
    /// instructions as compiled; a word that does not decode prints as its error.
    pub fn listing(&self) -> String {
        let mut listing = String::new();
        for &w in &self.words {
            match crate::disassemble_word(w) {
                Ok(text) => listing.push_str(&text),
                Err(e) => listing.push_str(&format!("<{w:#018x}: {e}>")),
            }
            listing.push('\n');
        }
        listing
    }
}

/// Compiles `program`, whose shape (the oracle's checks) is `shape`.
///
/// # Errors
/// [`CompileError::Unsupported`] for programs outside what the compiler handles (condition
/// codes, memory, textures, recursion, too many uniforms or too large a record),
/// [`CompileError::Internal`] for compiler bugs.
pub fn compile(program: &Program, shape: &Shape) -> Result<Machine, CompileError> {
    compile_with(program, shape, None)
}

/// [`compile`] with the injected fault `fault` ([`crate::faults`]) switched on.
///
/// # Errors
/// As [`compile`].
pub fn compile_with(
    program: &Program,
    shape: &Shape,
    fault: Option<crate::faults::Fault>,
) -> Result<Machine, CompileError> {
    let mut in_record = vec![false; shape.spaces().len()];
    for insn in &program.instructions {
        for reg in insn
            .dst
            .iter()
            .map(|d| d.reg)
            .chain(insn.src.iter().map(|s| s.reg))
        {
            if reg.is_indirect() {
                if let Some(s) = shape.space_of(reg.file, reg.dimension.is_some()) {
                    in_record[s] = true;
                }
            }
        }
    }
    let max_vertices = (program.stage == Stage::Geometry).then(|| program.gs_max_output_vertices());
    if let Some(m) = max_vertices {
        // The emitted-vertex area is part of the record (abi.rs EmitLayout): a stream and
        // a primitive word, then one vec4 per output, per vertex. Reckoned in u64, so a
        // GS_MAX_OUTPUT_VERTICES near 2^32 is refused, not wrapped.
        let vertex_bytes = 16 + 16 * shape.outputs().len() as u64;
        let bytes = u64::from(m).saturating_mul(vertex_bytes).saturating_add(16);
        if bytes > u64::from(MAX_RECORD) {
            return Err(CompileError::unsupported(
                None,
                &format!(
                    "GS_MAX_OUTPUT_VERTICES {m} needs {bytes} bytes of emitted vertices in the \
                     thread-local record; LOAD/STORE offsets reach 32 KiB"
                ),
            ));
        }
    }
    let mut layout = RecordLayout::new(shape, &in_record, max_vertices).ok_or_else(|| {
        CompileError::unsupported(
            None,
            "the declarations need more than 4 GiB of thread-local record and uniforms; \
             LOAD/STORE offsets reach 32 KiB",
        )
    })?;
    layout.set_resources(&memory::resources(program)?);
    let mut lower = lower::Lower::new(program, shape, &layout);
    lower.fault = fault;
    let code = lower.run()?;
    let uniform_words = code.uniform_words();
    if uniform_words > vcode::MAX_UNIFORMS {
        return Err(CompileError::unsupported(
            None,
            &format!("needs {uniform_words} uniform words; the FAU holds 256"),
        ));
    }
    let mut uniforms = vec![0u32; uniform_words as usize];
    for (k, &v) in code.consts.iter().enumerate() {
        uniforms[code.const_base as usize + k] = v;
    }
    let labels = code.labels;
    let tex_sizes = code.tex_sizes.clone();
    let alloc = regalloc::allocate(code);
    layout.set_spills(alloc.spill_slots);
    if layout.stride > MAX_RECORD {
        return Err(CompileError::unsupported(
            None,
            &format!(
                "needs {} bytes of thread-local record; LOAD/STORE offsets reach 32 KiB",
                layout.stride
            ),
        ));
    }
    let fault_ctx = fault.map(|f| (f, layout.const_words));
    let fin = finish::finish(alloc, labels, layout.spill_base, fault_ctx)?;
    let sites = fin.sites;
    let uniform_mem = uniform_memory(program, shape, &layout);
    Ok(Machine {
        words: fin.words,
        weights: fin.weights,
        uniforms,
        layout,
        uniform_mem,
        sites,
        tex_sizes,
    })
}

/// The uniform memory's initial words: immediates (IMM, IMMX) of the spaces that live there.
fn uniform_memory(program: &Program, shape: &Shape, layout: &RecordLayout) -> Vec<u32> {
    use shaderdiff_model::File;
    let mut words = vec![0u32; layout.uniform_mem_bytes as usize / 4];
    for (s, loc) in layout.spaces.iter().enumerate() {
        let Some(base) = loc.uniform_mem else {
            continue;
        };
        let space = &shape.spaces()[s];
        let base = base as usize / 4;
        match space.file {
            File::Immediate => {
                for (k, imm) in program.immediates.iter().enumerate() {
                    if let Some(dst) = words.get_mut(base + 4 * k..base + 4 * k + 4) {
                        dst.copy_from_slice(&imm.words);
                    }
                }
            }
            File::ImmArray => {
                for d in program
                    .decls(File::ImmArray)
                    .filter(|d| d.dimension.is_none())
                {
                    for (k, v) in d.values.iter().enumerate() {
                        let at = base + 4 * (d.first as usize + k);
                        if let Some(dst) = words.get_mut(at..at + 4) {
                            dst.copy_from_slice(v);
                        }
                    }
                }
            }
            _ => {}
        }
    }
    words
}
