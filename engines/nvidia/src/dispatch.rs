//! The GL side of compute programs ([`crate::compute`] plans them): compile for
//! `GL_COMPUTE_PROGRAM_NV`, upload the storage buffers, dispatch, read back. Every GL call
//! goes through [`shaderdiff_gl::Gl`].

use shaderdiff_engine::{EngineError, Inputs, Outputs};
use shaderdiff_gl::{gl, ParamKind, Shared};
use shaderdiff_model::{File, RegKey};

use crate::compute::{self, ComputePlan};
use crate::plan::unsupported;
use crate::NAME;

/// A compute program the driver compiled: its plan and program object (deleted on drop).
pub(crate) struct PreparedCompute {
    pub(crate) plan: ComputePlan,
    id: u32,
    shared: &'static Shared,
}

impl shaderdiff_engine::Compiled for PreparedCompute {
    fn listing(&self) -> Option<String> {
        Some(self.plan.text.clone())
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

impl Drop for PreparedCompute {
    fn drop(&mut self) {
        if let Ok(g) = self.shared.lock() {
            g.delete(self.id);
        }
    }
}

fn trap(message: String) -> EngineError {
    EngineError::Trap {
        engine: NAME.into(),
        message,
    }
}

/// Compiles `plan`'s text for `GL_COMPUTE_PROGRAM_NV`.
///
/// # Errors
/// The driver lacks NV_compute_program5 or the buffer entry points (unsupported), or its
/// assembler rejects the program (unsupported, with the driver's message).
pub(crate) fn prepare(
    shared: &'static Shared,
    plan: ComputePlan,
) -> Result<PreparedCompute, EngineError> {
    let g = shared.lock().map_err(trap)?;
    if !g.has_extension("GL_NV_compute_program5") || !g.can_dispatch() {
        return Err(unsupported(
            "the driver does not advertise GL_NV_compute_program5 (compute programs need it)"
                .into(),
        ));
    }
    let id = g.compile(gl::COMPUTE_PROGRAM_NV, &plan.text).map_err(|m| {
        unsupported(format!(
            "the driver's glProgramStringARB rejected the compute program {m}"
        ))
    })?;
    Ok(PreparedCompute { plan, id, shared })
}

/// Runs a prepared compute program on `inputs`: storage buffers in, one dispatch, storage
/// buffers out (as `Outputs::buffers`, keyed as the model keys them).
///
/// # Errors
/// Inputs that are not whole work groups or whose `invocation.*` values are not the
/// dispatch's (unsupported: another run than the driver's), or a GL error (trap).
pub(crate) fn run(p: &PreparedCompute, inputs: &Inputs) -> Result<Outputs, EngineError> {
    let plan = &p.plan;
    let groups = compute::dispatch_groups(plan.group, inputs.invocations).map_err(unsupported)?;
    compute::check_system_values(plan, inputs, groups).map_err(unsupported)?;
    let g = p.shared.lock().map_err(trap)?;
    g.set_enabled(gl::COMPUTE_PROGRAM_NV, true);
    g.bind(gl::COMPUTE_PROGRAM_NV, p.id);
    for &(c, kind, index) in &plan.params {
        let v = inputs
            .constants
            .get(&RegKey::new(File::Const, c))
            .copied()
            .unwrap_or([0; 4]);
        g.param(gl::COMPUTE_PROGRAM_NV, kind == ParamKind::Env, index, v);
    }
    let mut bound = Vec::new();
    let mut result = (|| {
        for (binding, key, len, bytes) in compute::uploads(plan, inputs) {
            let id = g.storage_buffer(binding, &bytes)?;
            bound.push((id, key, len, bytes.len()));
        }
        g.dispatch(groups)?;
        let mut read = Vec::new();
        for &(id, key, len, size) in &bound {
            read.push((key, len, g.read_buffer(id, size)?));
        }
        Ok(compute::final_buffers(read))
    })();
    for &(id, ..) in &bound {
        g.delete_buffer(id);
    }
    g.set_enabled(gl::COMPUTE_PROGRAM_NV, false);
    if let Err(e) = g.check("after the dispatch") {
        result = result.and(Err(e));
    }
    let buffers = result.map_err(trap)?;
    Ok(Outputs {
        invocations: inputs.invocations,
        buffers,
        ..Outputs::default()
    })
}
