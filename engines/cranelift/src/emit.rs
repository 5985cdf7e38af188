//! Geometry programs on the jit: EMIT and ENDPRIM (tgsi.rst "Geometry ISA").
//!
//! The generated code stores the current quad's output registers to their row buffers and
//! calls [`shaderdiff_emit`] with the executing lanes and each lane's stream (`src.x`, or 0
//! without an operand). The call appends a vertex (stream, primitive number, every output
//! register) to each executing invocation's list, or for ENDPRIM completes the stream's
//! current primitive when it has a vertex. As in the oracle (and tgsi_exec, EXEC-NOTES.md
//! §7), vertices past `GS_MAX_OUTPUT_VERTICES` (0 when the property is absent) are dropped,
//! counting every stream.
//!
//! [`EmitState::report`] turns the lists into [`Outputs::emits`] and the registers
//! `OUT[v][n]` (zeros where an invocation emitted fewer vertices).

use std::collections::BTreeMap;

use cranelift_codegen::ir::types::{I32, I64};
use shaderdiff_model::{emitted_key, EmitRecord, Outputs, RegKey, Vec4};

use crate::alu::LibcallDef;
use crate::run::RunCtx;

/// Symbol of [`shaderdiff_emit`].
pub(crate) const EMIT_SYMBOL: &str = "shaderdiff_emit";

/// One invocation's emitted vertices and per-stream primitive state.
#[derive(Clone, Debug, Default)]
struct Invocation {
    records: Vec<EmitRecord>,
    vertices: Vec<Vec<Vec4>>,
    /// Per stream: completed non-empty primitives, and whether the current one has a vertex.
    streams: BTreeMap<u32, (u32, bool)>,
}

/// What the emit calls of one run collect.
#[derive(Debug)]
pub(crate) struct EmitState {
    max_vertices: u32,
    /// Number of output buffers (`Plan::outputs`).
    outputs: usize,
    invocations: Vec<Invocation>,
}

impl EmitState {
    /// State for `invocations` invocations of a program with `outputs` output registers.
    pub fn new(max_vertices: u32, outputs: usize, invocations: usize) -> EmitState {
        EmitState {
            max_vertices,
            outputs,
            invocations: vec![Invocation::default(); invocations],
        }
    }

    /// Fills `out.emits` and the `OUT[v][n]` registers; `keys` are the plan's output keys in
    /// row-buffer order.
    pub fn report(self, keys: &[RegKey], out: &mut Outputs) {
        let most = self
            .invocations
            .iter()
            .map(|i| i.vertices.len())
            .max()
            .unwrap_or(0);
        for v in 0..most {
            for (o, key) in keys.iter().enumerate() {
                if key.dimension.is_some() {
                    continue;
                }
                let rows = self
                    .invocations
                    .iter()
                    .map(|i| {
                        i.vertices
                            .get(v)
                            .and_then(|x| x.get(o))
                            .copied()
                            .unwrap_or([0; 4])
                    })
                    .collect();
                out.registers.insert(emitted_key(v as u32, key.index), rows);
            }
        }
        out.emits = Some(self.invocations.into_iter().map(|i| i.records).collect());
    }
}

/// EMIT (`end_prim == 0`) or ENDPRIM for lanes `mask` (bit `l` = lane `l`) of quad `q`, with
/// lane `l`'s stream `streams[l]`. Called from generated code after it stored the quad's
/// output registers.
///
/// # Safety
/// `ctx` is the run's context: its `emit` is null or points to the run's [`EmitState`], and
/// `outputs` holds `EmitState::outputs` buffers of at least `(q + 1) * 4` entries (the
/// quad's output registers in columns, `crate::run::quad_rows`).
unsafe extern "C" fn shaderdiff_emit(
    ctx: *const RunCtx,
    q: u64,
    mask: u32,
    end_prim: u32,
    s0: u32,
    s1: u32,
    s2: u32,
    s3: u32,
) {
    // SAFETY: the caller passes the live run context (see above).
    let ctx = unsafe { &*ctx };
    // SAFETY: `emit` is null or the run's exclusive emit state for the duration of the call.
    let Some(st) = (unsafe { ctx.emit.as_mut() }) else {
        return;
    };
    let streams = [s0, s1, s2, s3];
    for (l, &stream) in streams.iter().enumerate() {
        if mask >> l & 1 == 0 {
            continue;
        }
        let inv = (q * 4) as usize + l;
        let (max, outputs) = (st.max_vertices as usize, st.outputs);
        let Some(e) = st.invocations.get_mut(inv) else {
            continue;
        };
        if end_prim != 0 {
            let s = e.streams.entry(stream).or_default();
            if s.1 {
                *s = (s.0 + 1, false);
            }
            continue;
        }
        if e.vertices.len() >= max {
            continue;
        }
        let s = e.streams.entry(stream).or_default();
        let primitive = s.0;
        s.1 = true;
        // Output buffers hold columns: entry `4q + c` is channel `c` of quad `q`'s lanes.
        let vertex = (0..outputs)
            .map(|o| {
                [0, 1, 2, 3].map(|c| {
                    // SAFETY: buffer `o` has at least `(q + 1) * 4` entries.
                    unsafe { (*(*ctx.outputs.add(o)).add(q as usize * 4 + c))[l] }
                })
            })
            .collect();
        e.records.push(EmitRecord { stream, primitive });
        e.vertices.push(vertex);
    }
}

/// The [`LibcallDef`] of [`shaderdiff_emit`]: `(ctx: i64, q: i64, mask, end_prim, s0, s1,
/// s2, s3: i32)`, no result.
pub(crate) fn libcall_def() -> LibcallDef {
    type EmitFn = unsafe extern "C" fn(*const RunCtx, u64, u32, u32, u32, u32, u32, u32);
    LibcallDef {
        name: EMIT_SYMBOL,
        params: &[I64, I64, I32, I32, I32, I32, I32, I32],
        returns: &[],
        ptr: shaderdiff_emit as EmitFn as *const u8,
    }
}
