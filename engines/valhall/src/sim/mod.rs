//! A functional simulator for Valhall machine code, implementing
//! `spec/valhall/SEMANTICS.md` of the shaderdiff reference material (section numbers
//! below refer to it).
//!
//! * [`Shader::from_words`] decodes a program (one little-endian `u64` per instruction)
//!   and pre-resolves every instruction into a compact internal operation; anything the
//!   simulator does not implement is rejected there ([`SimError::Unsupported`]), never
//!   silently mis-executed.
//! * [`Shader::run`] executes it for [`Launch::threads`] threads in warps of
//!   [`WARP_SIZE`] (§1), one warp after the other, against a [`Memory`];
//!   [`Shader::run_scheduled`] interleaves the warps at memory messages as a
//!   [`Schedule`] says (seeded), synchronises them at `BARRIER` and logs chosen accesses
//!   ([`MemEvent`]).
//!
//! # Execution model
//!
//! * 64 registers of 32 bits per thread ([`NUM_REGS`]); 64-bit values in even/odd pairs
//!   (low word in the even register). Registers start at 0, then [`Launch::init`] sets
//!   them (the driver ABI).
//! * Divergence (§1.2): each thread has its own PC; each step runs the instruction at the
//!   smallest PC among the warp's live threads, for exactly the threads at that PC.
//!   `BRANCHZ` decides per thread (target = index + 1 + offset, §7); a branch to an
//!   index outside `0..=len` is [`SimError::BadBranch`] (to `len` = run off the end).
//! * A thread finishes after executing an instruction with the `.end` flow, when it runs
//!   past the last instruction, or when `DISCARD.f32` discards it (§5.3; reported in
//!   [`Outcome::discarded`]). Wait, `.reconverge` and `.discard` flows have no effect:
//!   messages complete synchronously (§1 \[Assumption\]).
//! * Uniforms ([`Launch::uniforms`]), the immediate table and special FAU values
//!   (`lane_id`, `warp_id`; others read 0) are the other sources (§1).
//! * Every modelling choice where the ISA is silent is in [`assume`].
//!
//! # Instructions
//!
//! Implemented (SEMANTICS.md §3–§8), with all their modifiers unless noted:
//!
//! * f32: `FADD`, `FMIN`, `FMAX`, `FMA`, `FADD_IMM`, `FADD_LSCALE`, `FMA_RSCALE`
//!   (`_N`, `_LEFT`, `_SCALE16`), `FROUND`, `FRCP`, `FRSQ`, `FEXP`, `FLOGD`, `FREXPM`,
//!   `FREXPE` (not `.sqrt`), `LDEXP`, `FLUSH`, `FSIN_TABLE.u6`, `FCOS_TABLE.u6`,
//!   `FCMP_OR`/`FCMP_AND` (not `.u1`), `CSEL.f32`, `DISCARD.f32`;
//! * conversions: `S32_TO_F32`, `U32_TO_F32`, `F32_TO_S32`, `F32_TO_U32`, `F16_TO_F32`,
//!   `F16_TO_S32`, `F16_TO_U32`, `V2F32_TO_V2F16`, `S8_/U8_/S16_/U16_TO_{S32,U32,F32}`,
//!   `V2F16_TO_V2S16/U16`, `V2S16/V2U16_TO_V2F16`, `V2S8/V2U8_TO_V2S16/V2U16/V2F16`;
//! * 32-bit integer: `MOV`, `IADD`, `ISUB`, `IMUL` (`.i32` without `.saturate`; `.s32`),
//!   `IADD_IMM`, `HADD`, `MKVEC.v2i16`, `MKVEC.v2i8`, `CLZ`, `POPCOUNT`, `BITREV`,
//!   `IABS`, `NOT_OLD`, `LSHIFT_*`/`RSHIFT_*`, `MUX`, `CSEL.u32/.s32`,
//!   `ICMP_OR`/`ICMP_AND` (`.u32`, `.s32`; not `gtlt`/`total`/`.u1`), `IDP`;
//! * 64-bit: `IADD`/`ISUB` `.u64`/`.s64`, `SHADDX`, `IMULD.u64`, shifts `.i64`,
//!   `NOT_OLD.i64`;
//! * vectors (`v2f16`, `v2i16`/`v2u16`/`v2s16`, `v4i8`/`v4u8`/`v4s8`): `FADD`, `FMIN`,
//!   `FMAX`, `FMA`, `FADD_IMM`, `FROUND`, `IADD`, `ISUB`, `IMUL` (no `.saturate`), `HADD`,
//!   `IADD_IMM`, `CLZ`, `IABS`, `MUX`, shifts, `ICMP_OR`/`ICMP_AND`, `FCMP_OR`/`FCMP_AND`,
//!   `CSEL` (16-bit);
//! * subgroup: `CLPER.i32` (`subgroup16`, lane_op `none`/`xor`), `WMASK` (`subgroup16`);
//! * memory: `LOAD.i8`…`LOAD.i128` (every `load_lane`), `STORE.i8`…`STORE.i128`,
//!   `ATOM`, `ATOM_RETURN`, `ATOM1_RETURN` (`.i32`, `.i64`);
//! * textures: `TEX_FETCH`, `TEX_SINGLE`, `TEX_GATHER` (module `tex`: a texture unit
//!   reading the textures bound with [`Memory::bind_texture`]);
//! * control: `NOP`, `BRANCHZ` (combine `none`/`h0`/`h1`), `BARRIER` (module `sched`),
//!   flows (`.end` ends threads; waits, `.reconverge`, `.discard` have no effect).
//!
//! Everything else (`BRANCHZI`, `ICMP_MULTI`, `FRCP/FRSQ.f16`, the
//! `*_TABLE`/`*_APPROX`/`FATAN_ASSIST`/`FPCLASS` helpers, cube-map, `SEG_ADD`, `TEX_GRADIENT`/`TEX_DUAL`, other `WMASK` forms,
//! other `CLPER` forms, descriptor/varying/tile/blend messages) is
//! [`SimError::Unsupported`] when the program is loaded.
//!
//! # Performance
//!
//! The register file of a warp is kept as structure-of-arrays (`[[u32; 16]; 64]`) and
//! each instruction is a loop over the 16 lanes (computed for all lanes, written back for
//! the active ones), so the common converged case vectorises. `benches/sim.rs` measures
//! thread-instructions per second.

mod alu;
pub mod assume;
mod atomic;
mod exec;
mod float;
mod known;
mod memory;
mod op;
mod ops;
mod resolve;
mod sched;
mod tex;
mod valu;
mod vops;

pub use float::Round;
pub use memory::Memory;
pub use sched::Schedule;

use crate::DecodeError;
use op::Ins;

/// Threads per warp (SEMANTICS.md §1: "The hardware warps are sixteen threads").
pub const WARP_SIZE: usize = 16;

/// General registers per thread, `r0`–`r63` (SEMANTICS.md §1).
pub const NUM_REGS: usize = 64;

/// Why a program cannot be loaded or a run failed. Nothing in the simulator panics on
/// any input; every problem is one of these.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum SimError {
    /// Word `index` is not a valid instruction.
    #[error("instruction {index}: {error}")]
    Decode {
        /// Instruction index (byte offset / 8).
        index: usize,
        /// Why it does not decode.
        error: DecodeError,
    },
    /// The byte length of a program is not a multiple of 8.
    #[error("program is {len} bytes, not a multiple of 8")]
    Length {
        /// Length in bytes.
        len: usize,
    },
    /// Instruction `index` (or one of its modifier values) is not implemented by the
    /// simulator, or its semantics are undocumented; decided when the program is loaded.
    #[error("instruction {index}: unsupported: {what}")]
    Unsupported {
        /// Instruction index.
        index: usize,
        /// What is unsupported (mnemonic and detail).
        what: String,
    },
    /// Instruction `index` uses a reserved flow value (SEMANTICS.md §1.1).
    #[error("instruction {index}: reserved flow value")]
    ReservedFlow {
        /// Instruction index.
        index: usize,
    },
    /// A memory access of `bytes` bytes at `address` by `thread` is not inside one
    /// mapped region.
    #[error("instruction {index}, thread {thread}: memory fault: {bytes} bytes at {address:#x}")]
    MemoryFault {
        /// Instruction index.
        index: usize,
        /// Thread (launch index).
        thread: usize,
        /// First byte address (after adding the offset).
        address: u64,
        /// Access size in bytes.
        bytes: u32,
    },
    /// `thread` exceeded [`Launch::step_limit`] weighted steps.
    #[error("thread {thread} exceeded the step limit of {limit}")]
    StepLimit {
        /// The limit.
        limit: u64,
        /// The first thread (lowest index in the warp) found over it.
        thread: usize,
    },
    /// A taken branch at `index` targets an instruction index outside `0..=len`.
    #[error("instruction {index}: branch to {target}, outside the program")]
    BadBranch {
        /// Instruction index of the branch.
        index: usize,
        /// Target instruction index.
        target: i64,
    },
    /// The launch description is inconsistent (e.g. `step_weights` of the wrong length).
    #[error("bad launch: {0}")]
    BadLaunch(String),
}

/// Decoded and pre-resolved machine code, ready to run many times.
#[derive(Debug, Clone)]
pub struct Shader {
    ins: Vec<Ins>,
}

/// One run's inputs (besides the memory).
pub struct Launch<'a> {
    /// Number of threads. Thread `t` runs in warp `t / 16`, lane `t % 16`; the missing
    /// lanes of the last warp never exist (they are inactive throughout).
    pub threads: usize,
    /// Uniform words `u0`–`u255` (FAU, SEMANTICS.md §1); words beyond the slice read 0.
    pub uniforms: &'a [u32],
    /// Sets the initial registers of thread `t` (the driver ABI); the registers are all 0
    /// before it is called.
    pub init: &'a (dyn Fn(usize, &mut [u32; NUM_REGS]) + Sync),
    /// Per-thread budget in weighted steps: each instruction a thread executes costs its
    /// weight; exceeding the budget is [`SimError::StepLimit`].
    pub step_limit: u64,
    /// Weight of instruction `i` (`None`: 1 each). Must have [`Shader::len`] entries.
    /// Weight 0 is allowed; so that a loop made only of weight-0 instructions still
    /// ends, a thread that executes more than `(step_limit + 1)·(len + 1)` instructions
    /// (unweighted) is also a [`SimError::StepLimit`] — a thread can only get there by
    /// running around a cycle of weight-0 instructions.
    pub step_weights: Option<&'a [u32]>,
}

/// What a successful run reports.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outcome {
    /// Per thread: whether `DISCARD.f32` discarded it.
    pub discarded: Vec<bool>,
    /// Total number of instructions executed, summed over threads (unweighted).
    pub thread_instructions: u64,
    /// The logged memory accesses ([`Schedule::trace`]), in the order they happened.
    pub events: Vec<MemEvent>,
}

/// One logged memory access of one thread ([`Schedule::trace`]): a LOAD's first word or
/// an atomic, as it was performed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MemEvent {
    /// The thread (launch index).
    pub thread: usize,
    /// The instruction index.
    pub index: usize,
    /// The byte address accessed (after adding the offset).
    pub address: u64,
    /// The atomic operation; `None` for a LOAD.
    pub op: Option<assume::Atomic>,
    /// The atomic's operand (read staging run); 0 for a LOAD.
    pub value: u64,
    /// The `.compare` value (second half of the read staging run); 0 otherwise.
    pub compare: u64,
    /// The value memory held before the atomic, or the LOAD's first loaded word.
    pub old: u64,
    /// The thread's [`Schedule::sideband`] register just before the instruction executed
    /// (an atomic's return run, when it is that register, is written after the capture).
    pub sideband: u32,
}

impl Shader {
    /// Decodes every word (little-endian `u64` per instruction) and pre-resolves it.
    ///
    /// # Errors
    /// [`SimError::Decode`] for a word that does not decode, [`SimError::Unsupported`] for
    /// an instruction or modifier combination the simulator does not implement,
    /// [`SimError::ReservedFlow`] for a reserved flow value; `index` is the word's
    /// position.
    pub fn from_words(words: &[u64]) -> Result<Shader, SimError> {
        // A word this thread has loaded before (in this program or an earlier one)
        // is not decoded again (`known`).
        Ok(Shader {
            ins: known::load(words)?,
        })
    }

    /// As [`Shader::from_words`] for little-endian bytes, 8 per instruction.
    ///
    /// # Errors
    /// [`SimError::Length`] if the length is not a multiple of 8, else as
    /// [`Shader::from_words`].
    pub fn from_bytes(bytes: &[u8]) -> Result<Shader, SimError> {
        #[allow(clippy::manual_is_multiple_of)] // MSRV 1.85
        if bytes.len() % 8 != 0 {
            return Err(SimError::Length { len: bytes.len() });
        }
        let words: Vec<u64> = bytes
            .chunks_exact(8)
            .map(|c| {
                let mut b = [0u8; 8];
                b.copy_from_slice(c);
                u64::from_le_bytes(b)
            })
            .collect();
        Shader::from_words(&words)
    }

    /// Number of instructions.
    pub fn len(&self) -> usize {
        self.ins.len()
    }

    /// True for an empty program (which finishes every thread at once).
    pub fn is_empty(&self) -> bool {
        self.ins.is_empty()
    }

    /// Runs the program for `launch.threads` threads, warp by warp (SEMANTICS.md §1, §7).
    ///
    /// # Errors
    /// [`SimError::MemoryFault`], [`SimError::StepLimit`], [`SimError::BadBranch`] (the
    /// run stops at the first error; memory keeps the writes made before it), or
    /// [`SimError::BadLaunch`] when `step_weights` does not have [`Shader::len`] entries.
    pub fn run(&self, launch: &Launch<'_>, memory: &mut Memory) -> Result<Outcome, SimError> {
        self.run_impl(launch, &Schedule::default(), memory, None)
    }

    /// As [`Shader::run`], also returning every thread's final registers (index = thread),
    /// for tests and debugging.
    ///
    /// # Errors
    /// As [`Shader::run`].
    pub fn run_with_registers(
        &self,
        launch: &Launch<'_>,
        memory: &mut Memory,
    ) -> Result<(Outcome, Vec<[u32; NUM_REGS]>), SimError> {
        let mut regs = Vec::with_capacity(launch.threads);
        let out = self.run_impl(launch, &Schedule::default(), memory, Some(&mut regs))?;
        Ok((out, regs))
    }
}
