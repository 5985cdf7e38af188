//! Running a compiled program: the buffers the native code reads and writes, and the
//! [`Outputs`] built from them.

use std::collections::BTreeMap;

use shaderdiff_engine::{EngineConfig, EngineError, Inputs, Outputs};
use shaderdiff_model::check::MAX_CALL_DEPTH;
use shaderdiff_model::Stage;
use shaderdiff_model::Vec4;

use crate::compile::JitProgram;
use crate::emit::EmitState;
use crate::lower::{BLOCK_QUADS, DONE, STATUS_CALL_DEPTH, STATUS_INVOCATION, STATUS_STEP_LIMIT};
use crate::memory::{MemRuntime, ResDesc};
use crate::{exec_error, ENGINE};

/// One per-invocation input register for the native code, in columns: quad `q` is at
/// `ptr + q * stride` bytes (`stride` = 64), as four vectors, channel `c` at byte `16 c`
/// holding that channel of the quad's invocations `4q .. 4q+3` (`quad_columns`).
#[repr(C)]
pub(crate) struct Binding {
    pub ptr: *const Vec4,
    pub stride: u64,
}

/// What the compiled function receives. Every buffer is sized for `quads * 4` invocations.
#[repr(C)]
pub(crate) struct RunCtx {
    /// `Plan::inputs` bindings, in order.
    pub inputs: *const Binding,
    /// One buffer per `Plan::outputs` entry, in columns like the inputs (`quad_rows`).
    pub outputs: *const *mut Vec4,
    /// Uniform registers (CONST, IMM, IMMX), one vec4 each.
    pub uniform: *const Vec4,
    /// Killed/demoted mask per invocation (all ones = discarded); fragment programs only.
    pub killed: *mut u32,
    /// Registers of indirectly addressed per-invocation spaces (16-byte aligned).
    pub scratch: *mut u8,
    /// Declared-tables for indirect bounds.
    pub tables: *const u8,
    /// One past the last quad this call runs.
    pub quads: u64,
    /// First quad this call runs.
    pub q_begin: u64,
    /// Resumable runs (`crate::lower::memory` docs, "BARRIER"): `state_stride` bytes per
    /// quad from `q_begin`, each slot starting with the quad's resume point.
    pub state: *mut u8,
    /// Bytes per quad of `state` (a multiple of 16).
    pub state_stride: u64,
    /// Memory resources: one `ResDesc` per `MemPlan::resources` entry.
    pub resources: *const ResDesc,
    /// The run's memory, for the atomic runtime call (null without resources).
    pub memory: *mut MemRuntime,
    /// Number of invocations (the last quad may be partial outside fragment programs).
    pub invocations: u64,
    /// Step budget per invocation, at most `u32::MAX - lowered size`.
    pub step_limit: u64,
    /// Emitted vertices (geometry programs; null otherwise): `crate::emit`.
    pub emit: *mut EmitState,
    /// The run's textures (`crate::texture::TexUnits`), for the texture runtime call.
    pub textures: *const crate::texture::TexUnits<'static>,
}

/// The per-invocation values `rows` (one vec4 per invocation, or one for all; `None`: zero)
/// of `quads` quads in columns: entry `4q + c` holds channel `c` of invocations `4q .. 4q+3`
/// (invocations past the end of `rows`, in a partial last quad, read zero).
fn quad_columns(rows: Option<&[Vec4]>, quads: usize) -> Vec<Vec4> {
    let row = |i: usize| -> Vec4 {
        match rows {
            Some([one]) => *one,
            Some(v) => v.get(i).copied().unwrap_or([0; 4]),
            None => [0; 4],
        }
    };
    let mut cols = vec![[0u32; 4]; quads * 4];
    for (q, quad) in cols.chunks_exact_mut(4).enumerate() {
        let rows = [0, 1, 2, 3].map(|l| row(4 * q + l));
        for (c, col) in quad.iter_mut().enumerate() {
            *col = rows.map(|r| r[c]);
        }
    }
    cols
}

/// The inverse of [`quad_columns`]: the first `n` rows of per-quad columns `cols` (entry
/// `4q + c` holds channel `c` of invocations `4q .. 4q+3`).
fn quad_rows(cols: &[Vec4], n: usize) -> Vec<Vec4> {
    (0..n)
        .map(|i| {
            let (q, l) = (i / 4, i % 4);
            [0, 1, 2, 3].map(|c| cols[4 * q + c][l])
        })
        .collect()
}

/// Runs `prog` on `inputs` (checked first with the oracle's rules).
pub(crate) fn run(
    prog: &JitProgram,
    inputs: &Inputs,
    config: &EngineConfig,
) -> Result<Outputs, EngineError> {
    let front = &prog.front;
    front.shape.check_inputs(inputs).map_err(exec_error)?;
    let plan = &front.plan;
    let n = inputs.invocations;
    let quads = n.div_ceil(4);
    let padded_len = quads * 4;
    // Each input in columns, quad by quad (`Binding`): the 4×4 transpose is done here once
    // per run instead of in the compiled code (where it cost eight shuffles per input
    // register and quad, compiled for every program).
    let columns: Vec<Vec<Vec4>> = plan
        .inputs
        .iter()
        .map(|(key, _, _)| quad_columns(inputs.registers.get(key).map(Vec::as_slice), quads))
        .collect();
    let bindings: Vec<Binding> = columns
        .iter()
        .map(|c| Binding {
            ptr: c.as_ptr(),
            stride: 64,
        })
        .collect();
    let mut outs: Vec<Vec<Vec4>> = plan
        .outputs
        .iter()
        .map(|_| vec![[0; 4]; padded_len])
        .collect();
    let out_ptrs: Vec<*mut Vec4> = outs.iter_mut().map(|o| o.as_mut_ptr()).collect();
    let uniform = plan.uniform_buffer(&front.shape, &inputs.constants);
    let mut killed = vec![0u32; if plan.fragment { padded_len } else { 0 }];
    let lowered = &prog.lowered;
    let resumable = lowered.resumable;
    // Resumable runs: one scratch area and one state slot per quad of a block
    // (`lower::memory`, "BARRIER").
    let areas = if resumable { BLOCK_QUADS } else { 1 };
    let mut scratch = vec![0u128; (plan.scratch_bytes as usize).div_ceil(16) * areas];
    let stride = lowered.state_bytes.div_ceil(16) * 16;
    let mut state = vec![0u128; stride / 16 * areas];
    let state_ptr: *mut u8 = state.as_mut_ptr().cast();
    let mut memory = MemRuntime::new(&plan.memory, inputs, padded_len).map_err(|reason| {
        EngineError::Unsupported {
            engine: ENGINE.into(),
            opcode: None,
            pos: None,
            reason,
        }
    })?;
    // Generated code's copy of the table (the runtime call borrows `memory` mutably).
    let descs = memory.descs.clone();
    let size = lowered.size as u64;
    let geometry = front.program.stage == Stage::Geometry;
    let mut emits = geometry.then(|| {
        EmitState::new(
            front.program.gs_max_output_vertices(),
            plan.outputs.len(),
            n,
        )
    });
    let units = crate::texture::TexUnits::new(inputs);
    let mut ctx = RunCtx {
        inputs: bindings.as_ptr(),
        outputs: out_ptrs.as_ptr(),
        uniform: uniform.as_ptr(),
        killed: killed.as_mut_ptr(),
        scratch: scratch.as_mut_ptr().cast(),
        tables: plan.tables.as_ptr(),
        quads: quads as u64,
        q_begin: 0,
        state: state_ptr,
        state_stride: stride as u64,
        resources: descs.as_ptr(),
        memory: &mut memory,
        invocations: n as u64,
        step_limit: config.step_limit.min(u64::from(u32::MAX) - size - 1),
        emit: emits
            .as_mut()
            .map_or(std::ptr::null_mut(), |e| e as *mut EmitState),
        textures: (&units as *const crate::texture::TexUnits).cast(),
    };
    // One call for every quad; resumable programs: rounds over a block of quads until every
    // quad of the block is done, then the next block.
    let blocks = if resumable {
        quads.div_ceil(BLOCK_QUADS)
    } else {
        1
    };
    let mut status = 0;
    'run: for blk in 0..blocks {
        let (begin, end) = if resumable {
            (blk * BLOCK_QUADS, ((blk + 1) * BLOCK_QUADS).min(quads))
        } else {
            (0, quads)
        };
        if begin >= end {
            break;
        }
        ctx.q_begin = begin as u64;
        ctx.quads = end as u64;
        // SAFETY: `state` holds `areas >= end - begin` slots of `stride` bytes.
        unsafe { std::ptr::write_bytes(state_ptr, 0, stride * (end - begin)) };
        let mut rounds = 0u64;
        loop {
            // SAFETY: `entry` is valid while `prog` (which owns its code module) lives. Every
            // buffer in `ctx` lives until after the call and has the size the code assumes:
            // input columns for `quads` quads (64 bytes each), `quads * 4` output rows
            // and killed words, the plan's uniform and table sizes, scratch and state for
            // `end - begin` quads (at most `areas`), one copy of each resource (SHARED: one
            // per workgroup of the `quads * 4` invocations) with its size in `resources`.
            // Indirect and memory accesses are bounds-checked in the generated code.
            status = unsafe { (prog.entry)(&ctx) };
            if status != 0 {
                break 'run;
            }
            // SAFETY: slot `k < end - begin` starts with its resume point (16-byte aligned).
            let point = |k: usize| unsafe { state_ptr.add(k * stride).cast::<u32>().read() };
            if !resumable || (0..end - begin).all(|k| point(k) == DONE) {
                break;
            }
            // Every round runs each waiting quad through one BARRIER, which costs its
            // invocations a step: the step budget ends a run before this does.
            rounds += 1;
            if rounds > config.step_limit.saturating_add(1) {
                return Err(EngineError::Trap {
                    engine: ENGINE.into(),
                    message: "invocations waiting at a BARRIER did not finish".into(),
                });
            }
        }
    }
    drop(columns);
    let invocation = (status & STATUS_INVOCATION) as usize;
    match status & !STATUS_INVOCATION {
        0 => {}
        STATUS_STEP_LIMIT => {
            return Err(EngineError::StepLimit {
                limit: config.step_limit,
                invocation,
            })
        }
        STATUS_CALL_DEPTH => {
            return Err(EngineError::CallDepth {
                limit: MAX_CALL_DEPTH,
                invocation,
            })
        }
        other => {
            return Err(EngineError::Trap {
                engine: ENGINE.into(),
                message: format!("unknown status word {other:#x}"),
            })
        }
    }
    let mut registers = BTreeMap::new();
    for ((key, _, _), cols) in plan.outputs.iter().zip(outs) {
        registers.insert(*key, quad_rows(&cols, n));
    }
    let mut out = Outputs {
        invocations: n,
        registers,
        undefined: BTreeMap::new(),
        killed: plan
            .fragment
            .then(|| killed.iter().take(n).map(|&k| k != 0).collect()),
        global: inputs.global.clone(),
        ..Outputs::default()
    };
    memory.report(&mut out);
    if let Some(e) = emits {
        let keys: Vec<_> = plan.outputs.iter().map(|(k, _, _)| *k).collect();
        e.report(&keys, &mut out);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::{quad_columns, quad_rows};

    /// Five invocations (two quads, the second partial): entry `4q + c` holds channel `c`
    /// of invocations `4q .. 4q+3`; the missing invocations of the last quad read zero.
    #[test]
    fn columns_of_two_quads() {
        let rows: Vec<[u32; 4]> = (0..5u32)
            .map(|i| [10 * i, 10 * i + 1, 10 * i + 2, 10 * i + 3])
            .collect();
        let cols = quad_columns(Some(&rows), 2);
        assert_eq!(cols[0], [0, 10, 20, 30]);
        assert_eq!(cols[1], [1, 11, 21, 31]);
        assert_eq!(cols[3], [3, 13, 23, 33]);
        assert_eq!(cols[4], [40, 0, 0, 0]);
        assert_eq!(cols[7], [43, 0, 0, 0]);
    }

    /// One row for all invocations fills every lane; an unset input is zero.
    #[test]
    fn one_row_for_all_and_unset() {
        let cols = quad_columns(Some(&[[1, 2, 3, 4]]), 2);
        assert_eq!(cols[5], [2, 2, 2, 2]);
        assert_eq!(quad_columns(None, 1), vec![[0; 4]; 4]);
    }

    /// Columns back to rows: the rows of five invocations (two quads, the second partial)
    /// come back from their columns, and only the first five.
    #[test]
    fn rows_of_columns() {
        let rows: Vec<[u32; 4]> = (0..5u32)
            .map(|i| [10 * i, 10 * i + 1, 10 * i + 2, 10 * i + 3])
            .collect();
        let cols = vec![
            [0, 10, 20, 30],
            [1, 11, 21, 31],
            [2, 12, 22, 32],
            [3, 13, 23, 33],
            [40, 9, 9, 9],
            [41, 9, 9, 9],
            [42, 9, 9, 9],
            [43, 9, 9, 9],
        ];
        assert_eq!(quad_rows(&cols, 5), rows);
    }
}
