//! The reference interpreter: the oracle every other engine is compared against.
//!
//! [`run`] executes a [`Program`] for `inputs.invocations` invocations and returns the
//! final output registers, which channels the specification leaves undefined, and (for
//! fragment programs) which invocations were discarded. [`run_with_intervals`] also
//! computes, for one engine class of the precision contract, the acceptance interval of
//! every output channel (module [`interval`]).
//!
//! # Execution model
//!
//! Invocations run in chunks of [`lanes::LANES`] as structure-of-arrays: every register
//! channel is a plane of one 32-bit word per lane, and control flow is tracked with
//! per-lane execution masks (tgsi.rst "GLSL ISA": IF/UIF/ELSE/ENDIF, BGNLOOP/ENDLOOP with
//! BRK/CONT, SWITCH/CASE/DEFAULT/ENDSWITCH with C fall-through and DEFAULT in any
//! position, CAL/RET/BGNSUB/ENDSUB, END). Every invocation behaves exactly as if it ran
//! alone, except for derivatives, which read the other invocations of its fragment quad
//! (INTERFACE.md "Fragment quads": invocations `4q..4q+3`), and the inter-lane votes
//! (VOTE_ANY, VOTE_ALL, VOTE_EQ, READ_FIRST), whose thread groups are implementation-defined
//! (module `vote`: results that depend on the grouping are undefined).
//!
//! # Decisions where tgsi.rst is silent (see also EXEC-NOTES.md §12; no tgsi_exec bug is copied)
//!
//! * **Undefinedness.** Every register channel of every lane carries an "undefined" bit.
//!   A result is undefined when a source channel it reads is undefined or the ALU reports
//!   the value as undefined (IDIV by zero ...). When a *decision* depends on an undefined
//!   value in a lane (IF/UIF condition, SWITCH selector or CASE value, KILL_IF operand,
//!   indirect address), or the lane writes through an out-of-bounds indirect index, the
//!   lane is *unconstrained*: all its outputs are reported undefined.
//! * **Indirect addressing** is per invocation for sources and destinations (each lane
//!   uses its own address register value). The effective index is `offset + ADDR`
//!   (zero-based, tgsi.rst "Array Declaration"). It is in bounds when a `DCL` of the file
//!   covers it, restricted to the `ARRAY(n)` declaration when the operand names one.
//!   Out-of-bounds reads give 0 and mark the channel undefined; out-of-bounds writes are
//!   dropped and make the lane unconstrained (undefined behaviour may clobber any of the
//!   invocation's registers).
//! * **Derivatives** (fragment programs only; other stages give
//!   [`ExecError::Unsupported`]): fine `DDX` = `f(x+1,y) - f(x,y)` of the invocation's own
//!   row, fine `DDY` = `f(x,y+1) - f(x,y)` of its own column. Coarse `DDX`/`DDY` are one
//!   value for the whole quad, taken from the top row / left column; since tgsi.rst allows
//!   either row (column), the channel is marked undefined when the other row (column)
//!   gives a different value. A derivative is undefined when not all four invocations of
//!   the quad are executing it (non-uniform control flow, killed or finished invocations).
//! * **Interpolation** (fragment programs only): INTERP_CENTROID and INTERP_SAMPLE with
//!   sample 0 give the input (single-sampled, fully covered fragments); other samples are
//!   undefined. INTERP_OFFSET gives `v + dx*ddx + dy*ddy` from the lane's row / column,
//!   undefined unless the whole quad executes it, its values are affine and the offset lies
//!   in `[-0.5, 0.5]` (`interpolate.rs`; README "Interpolation at centroid, sample,
//!   offset").
//! * **KILL / KILL_IF** terminate the invocation (it executes nothing further);
//!   KILL_IF kills when any of the four swizzled components is `< 0.0` (NaN and -0.0 do
//!   not kill). **DEMOTE** turns the invocation into a helper: it keeps executing (so
//!   quad derivatives stay defined) but its outputs are discarded, so it is reported in
//!   `Outputs::killed` like a killed invocation.
//! * **SWITCH**: CASE values are compared bit-exactly with the selector and are evaluated
//!   when SWITCH executes; DEFAULT takes the lanes that match no CASE of the whole
//!   switch, wherever it stands. Lanes that match nothing and have no DEFAULT skip the
//!   switch.
//! * **END** terminates the invocations that execute it. Reaching a BGNSUB by falling
//!   through from the main program ends the main program.
//! * **Saturate** `_SAT` clamps the stored 32-bit word as a float to [0, 1] for every
//!   opcode (tgsi.rst "Other Modifiers"); NaN gives 0.0 (EXEC-NOTES §2) and -0.0 gives
//!   +0.0. NV `.SSAT` clamps to [-1, 1]; a NaN gives 0.0 marked undefined.
//! * **Step budget**: each instruction executed by an invocation costs it one step;
//!   exceeding [`InterpConfig::step_limit`] stops the run with [`ExecError::StepLimit`].
//!   Call nesting deeper than [`MAX_CALL_DEPTH`] gives [`ExecError::CallDepth`].

//!
//! # Memory model
//!
//! tgsi.rst "Resource Access Opcodes", "Inter-thread synchronization opcodes" and "Atomic
//! opcodes"; EXEC-NOTES.md §7 where the doc is silent (no tgsi_exec bug copied). Code:
//! `memory.rs` (state, races, output) and `memory_exec.rs` (the instructions).
//!
//! * **Resources.** `DCL BUFFER[n]` and `DCL MEMORY[n], GLOBAL` are one byte array each for
//!   the whole run, initialised from the inputs' `buffers` entry (absent: empty). `DCL
//!   MEMORY[n], SHARED` (COMP only) has one copy per workgroup, each starting from the
//!   inputs' `MEMORY[n]` bytes. PRIVATE / INPUT memory, IMAGE and CONST resources and
//!   indirectly addressed resources are unsupported. A resource's size is the length of its
//!   inputs entry: the oracle never reads outside what it was given.
//! * **LOAD** `dst, res, addr`: byte address `addr.x` per invocation, no alignment
//!   requirement; writemask channel `c` gets the dword at `addr.x + 4 * swizzle[c]` (the
//!   resource's swizzle). When any dword read is not entirely inside the resource the
//!   load is out of range (tgsi.rst: "unspecified") and every written channel is undefined.
//! * **STORE** `res, addr, src`: writemask channel `c` goes to the dword at `addr.x + 4c`.
//!   An out-of-range store writes nothing here, and the in-range bytes it covers become
//!   undefined (an engine may drop the store or write the part that fits, as Mesa does);
//!   bytes outside the resource do not exist.
//! * **RESQ**: `x` = size in bytes; `y`, `z`, `w` undefined.
//! * **Atomics** ([`crate::atomic`] is the one place for their semantics; ATOMCAS compares
//!   with `src2` and stores `src3`): performed only when the writemask contains `x`
//!   (EXEC-NOTES §7); the returned value goes to `x` (other writemask channels are
//!   undefined: the doc defines `dst_x` only). Out of range: not performed, `x` undefined,
//!   the location's in-range bytes undefined. Every performed atomic is appended to
//!   `Outputs::atomics` with the value it found: lanes in order within a chunk, chunks in
//!   order, which is one serial order. `seq` is the dynamic count of ATOM* instructions the
//!   invocation executed before (performed or not). [`run_with`] takes the order to follow
//!   ([`AtomicOrder`]): the interpreter's own, an engine's replayed from its log (old values
//!   by `(invocation, seq)`), or any (an atomic on a dword more than one invocation updates
//!   atomically then returns an undefined value).
//! * **Workgroups** (COMP): `CS_FIXED_BLOCK_WIDTH * HEIGHT * DEPTH` invocations (an absent
//!   property counts as 1, so a program without them has workgroups of one invocation);
//!   invocation `i` is in workgroup `i / size`; the last one may be partial. System values
//!   (THREAD_ID, BLOCK_ID ...) are whatever the inputs give: the caller keeps them
//!   consistent with this grouping. **BARRIER** (COMP only; elsewhere an invalid program)
//!   needs workgroup sizes dividing the chunk size (64), else it is unsupported; it is
//!   satisfied when every invocation of the workgroup executes it together. When only part
//!   of a workgroup executes it, those invocations are unconstrained and memory is chaotic
//!   (below). **MEMBAR** has no effect: every access completes before the next instruction.
//! * **Races.** Accesses are tracked per dword with the invocation, its workgroup and its
//!   barrier phase (BARRIERs executed). Two accesses of different invocations to a dword
//!   race when one is a plain STORE (or an unaligned atomic) or one is a plain LOAD and the
//!   other an atomic, unless both are in one workgroup and separated by a BARRIER. A racy
//!   LOAD or atomic result is undefined; the final bytes of a racy dword with a plain store
//!   are undefined. Races are only known once every invocation ran, so a program with
//!   memory runs again when a pass finds a race (or chaos) the previous pass did not know
//!   (at most three passes; values never change between passes, only undefinedness).
//! * **Chaos.** A memory write whose address or atomic operand is undefined (or inexact
//!   under [`run_with_intervals`]), a partial BARRIER, or an unconstrained invocation in a
//!   program that writes memory could have changed any byte: then every LOAD and atomic
//!   result and every byte of every resource is undefined.
//! * **Undefined values** stored by a STORE make their bytes undefined, and a LOAD reading
//!   an undefined byte is undefined. Memory values are exact: under
//!   [`run_with_intervals`] an inexact stored value counts as undefined.
//! * **Output.** `Outputs::buffers`: the final bytes of every resource given in the inputs
//!   or touched (SHARED memory: workgroup 0's copy); `Outputs::buffers_undefined`: per byte
//!   undefined marks; `Outputs::atomics`: the log (`Some` for programs with memory).

//!
//! # Textures
//!
//! TEX, TXP, TXB, TXL, TXD (NEAREST sampling), TXF, TXQ and TG4 on the inputs' `textures`
//! ([`crate::texture`]); the rules and every decision where the specifications leave
//! something open are in the `texture` module docs.

pub mod alu;
pub mod interval;
pub mod lanes;

mod control;
pub mod denormal;
mod emit;
mod exec;
mod fetch;
mod interpolate;
pub mod memory;
mod memory_exec;
mod state;
mod tex_cube;
mod tex_eval;
mod tex_gather;
mod tex_lod;
mod tex_ms;
mod tex_shadow;
pub mod texture;
mod vote;

pub use memory::{replay_of, AtomicOrder, AtomicReplay};
use shaderdiff_model::Program;

// The pre-run checks every engine shares (`shaderdiff_model::check`), under the paths the
// interpreter's files use.
use shaderdiff_model::check::{decode, layout};
pub use shaderdiff_model::check::{shape, ExecError, MAX_CALL_DEPTH};

use crate::io::{Inputs, Outputs};
use crate::precision::{EngineClass, PrecisionContract};

/// Interpreter settings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct InterpConfig {
    /// Maximum number of instructions one invocation may execute (default 1 000 000).
    pub step_limit: u64,
}

impl Default for InterpConfig {
    fn default() -> Self {
        InterpConfig {
            step_limit: 1_000_000,
        }
    }
}

/// Runs `program` on `inputs` (INTERFACE.md "The inputs file"; anything unset starts at
/// zero) and returns every output register the program declares or writes, one vec4 per
/// invocation, with undefined channels and, for fragment programs, killed invocations.
///
/// The whole program is checked before anything runs: unsupported opcodes give
/// [`ExecError::Unsupported`], never a wrong value. Errors: see [`ExecError`].
pub fn run(
    program: &Program,
    inputs: &Inputs,
    config: &InterpConfig,
) -> Result<Outputs, ExecError> {
    let decoded = decode::decode(program)?;
    exec::run_decoded(&decoded, inputs, config, None, AtomicOrder::Own)
}

/// [`run`], and also the acceptance interval of every output channel for engines of
/// `class` under `contract` ([`interval`] module docs): `Outputs::intervals` is `Some`, with
/// one `[x, y, z, w]` per invocation and output register and the unconstrained invocations.
/// Channels whose value depends on an imprecise result through a decision or conversion
/// are reported undefined, and invocations whose control flow, kill or indirect addressing
/// does are unconstrained, as if the value were undefined. Values, killed invocations and
/// every other field are those of [`run`]. Costs 30–50 times the plain run on ALU-heavy
/// code (about 1,000 machine instructions per invocation-instruction, mostly the
/// `fused_or_unfused` evaluations of MAD and dot products).
///
/// `class` must come from `contract` ([`PrecisionContract::class`]). Errors: as [`run`], and
/// [`ExecError::InvalidInputs`] for a class index the contract does not have.
pub fn run_with_intervals(
    program: &Program,
    inputs: &Inputs,
    config: &InterpConfig,
    contract: &PrecisionContract,
    class: EngineClass,
) -> Result<Outputs, ExecError> {
    run_with(
        program,
        inputs,
        config,
        Some((contract, class)),
        AtomicOrder::Own,
    )
}

/// [`run`] with options: `intervals` as [`run_with_intervals`] (contract and class), and
/// `order`, the serial order the atomics follow ([`AtomicOrder`]): the interpreter's own,
/// an engine's replayed from its log (old values keyed by `(invocation, seq)`, `seq` = the
/// dynamic count of ATOM* instructions the invocation executed before it), so that
/// registers derived from atomic results can be compared exactly, or any (order-dependent
/// results undefined). Kept out of [`InterpConfig`] so that the configuration stays a
/// small `Copy` value.
///
/// Errors: as [`run_with_intervals`].
pub fn run_with(
    program: &Program,
    inputs: &Inputs,
    config: &InterpConfig,
    intervals: Option<(&PrecisionContract, EngineClass)>,
    order: AtomicOrder<'_>,
) -> Result<Outputs, ExecError> {
    if let Some((contract, class)) = intervals {
        if class.index() >= contract.classes().len() {
            return Err(ExecError::InvalidInputs(format!(
                "engine class #{} is not a class of this precision contract",
                class.index()
            )));
        }
    }
    let decoded = decode::decode(program)?;
    let env = intervals.map(|(contract, class)| interval::Env::new(contract, class));
    exec::run_decoded(&decoded, inputs, config, env, order)
}
