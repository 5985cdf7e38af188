//! The shared OSMesa context and one run: invocations in batches of up to
//! `WIDTH * HEIGHT` points, inputs as vertex arrays, outputs read back from the float
//! render targets, KIL from the stencil buffer (design: [`crate::plan`]).

use std::collections::BTreeMap;
use std::sync::{Mutex, MutexGuard, OnceLock};

use shaderdiff_engine::{Inputs, Outputs};
use shaderdiff_model::File;
use shaderdiff_model::{RegKey, Vec4};

use crate::ffi::{self, Gl};
use crate::plan::{ParamKind, Plan, Target, MAX_ATTRIBS, MAX_TARGETS};

/// Render target width in pixels (one invocation per pixel).
pub const WIDTH: usize = 256;
/// Render target height: `WIDTH * HEIGHT` = 65,536 invocations per draw.
pub const HEIGHT: usize = 256;

/// The process's one context, created on first use.
static CONTEXT: OnceLock<Result<Mutex<Gl>, String>> = OnceLock::new();

/// Loads OSMesa, creates the context and its framebuffer, sets the fixed state:
/// colour clamping off (vertex, fragment, read), stencil test marking written pixels,
/// dithering off, ARB vertex and fragment programs enabled.
fn open() -> Result<Mutex<Gl>, String> {
    let mut gl = Gl::open()?;
    gl.make_current()?;
    gl.create_framebuffer(WIDTH as i32, HEIGHT as i32, MAX_TARGETS)?;
    for t in [
        ffi::CLAMP_VERTEX_COLOR,
        ffi::CLAMP_FRAGMENT_COLOR,
        ffi::CLAMP_READ_COLOR,
    ] {
        gl.unclamp(t);
    }
    gl.set_enabled(ffi::DITHER, false);
    gl.set_enabled(ffi::STENCIL_TEST, true);
    gl.stencil_mark(1);
    gl.set_enabled(ffi::VERTEX_PROGRAM_ARB, true);
    gl.set_enabled(ffi::FRAGMENT_PROGRAM_ARB, true);
    gl.check("initial state")?;
    Ok(Mutex::new(gl))
}

/// The context, locked and current on this thread.
///
/// Errors: OSMesa is missing or the context could not be set up (the same message every
/// time), or it cannot be made current.
pub fn lock() -> Result<MutexGuard<'static, Gl>, String> {
    let m = CONTEXT.get_or_init(open).as_ref().map_err(Clone::clone)?;
    // A panic while holding the lock leaves GL state we reset on every run anyway.
    let mut g = m.lock().unwrap_or_else(|p| p.into_inner());
    g.make_current()?;
    Ok(g)
}

/// Whether the engine can run here: `Ok(GL_VERSION / GL_RENDERER)` or why not.
pub fn available() -> Result<String, String> {
    lock().map(|g| g.description.clone())
}

/// GL program names of a prepared program.
#[derive(Debug)]
pub struct Programs {
    /// Vertex program object.
    pub vp: u32,
    /// Fragment program object.
    pub fp: u32,
}

impl Drop for Programs {
    fn drop(&mut self) {
        if let Ok(g) = lock() {
            g.delete(self.vp);
            g.delete(self.fp);
        }
    }
}

/// Compiles both programs of `plan`. Errors: `(is_own_program, message)`: whether the
/// rejected text was the program under test (otherwise one of the engine's pass-through
/// programs), and Mesa's position and message.
pub fn compile(plan: &Plan) -> Result<Programs, (bool, String)> {
    let g = lock().map_err(|e| (false, e))?;
    let own_vp = plan.stage == Target::Vertex;
    let vp = g
        .compile(ffi::VERTEX_PROGRAM_ARB, &plan.vp_text)
        .map_err(|e| (own_vp, format!("vertex program {e}")))?;
    match g.compile(ffi::FRAGMENT_PROGRAM_ARB, &plan.fp_text) {
        Ok(fp) => Ok(Programs { vp, fp }),
        Err(e) => {
            g.delete(vp);
            Err((!own_vp, format!("fragment program {e}")))
        }
    }
}

/// The words of per-invocation input `IN[index]` for invocations `range`, as floats.
fn attrib_data(inputs: &Inputs, index: u32, range: std::ops::Range<usize>) -> Vec<f32> {
    let key = RegKey::new(File::Input, index);
    range
        .flat_map(|i| inputs.register(&key, i).map(f32::from_bits))
        .collect()
}

/// Clip-space centres of the first `n` pixels, row by row: pixel `(x, y)` is at
/// `((2x + 1) / WIDTH - 1, (2y + 1) / HEIGHT - 1, 0, 1)`, exact in binary32.
fn positions(n: usize) -> Vec<f32> {
    (0..n)
        .flat_map(|j| {
            let (x, y) = ((j % WIDTH) as f32, (j / WIDTH) as f32);
            [
                (2.0 * x + 1.0) / WIDTH as f32 - 1.0,
                (2.0 * y + 1.0) / HEIGHT as f32 - 1.0,
                0.0,
                1.0,
            ]
        })
        .collect()
}

/// Runs `plan`'s programs on `inputs`.
///
/// Errors: a GL failure (message).
pub fn run(plan: &Plan, progs: &Programs, inputs: &Inputs) -> Result<Outputs, String> {
    let n = inputs.invocations;
    let g = lock()?;
    g.bind(ffi::VERTEX_PROGRAM_ARB, progs.vp);
    g.bind(ffi::FRAGMENT_PROGRAM_ARB, progs.fp);
    let target = match plan.stage {
        Target::Vertex => ffi::VERTEX_PROGRAM_ARB,
        Target::Fragment => ffi::FRAGMENT_PROGRAM_ARB,
    };
    for &(c, kind, index) in &plan.params {
        let v = inputs
            .constants
            .get(&RegKey::new(File::Const, c))
            .copied()
            .unwrap_or([0; 4]);
        g.param(target, kind == ParamKind::Env, index, v.map(f32::from_bits));
    }
    let mut regs: BTreeMap<RegKey, Vec<Vec4>> = plan
        .outputs
        .iter()
        .map(|&(o, _)| (RegKey::new(File::Output, o), Vec::with_capacity(n)))
        .collect();
    let mut killed = Vec::with_capacity(n);
    let per_draw = WIDTH * HEIGHT;
    let mut start = 0;
    while start < n {
        let count = per_draw.min(n - start);
        let rows = count.div_ceil(WIDTH) as i32;
        let pos = positions(count);
        let data: Vec<Vec<f32>> = plan
            .attribs
            .iter()
            .map(|&(i, _)| attrib_data(inputs, i, start..start + count))
            .collect();
        for a in 0..MAX_ATTRIBS {
            g.attrib(a, None);
        }
        g.attrib(plan.position_attrib, Some(&pos));
        for (&(_, a), d) in plan.attribs.iter().zip(&data) {
            g.attrib(a, Some(d));
        }
        let mut arrays: Vec<&[f32]> = data.iter().map(Vec::as_slice).collect();
        arrays.push(&pos);
        g.draw(count, &arrays)?;
        for &(o, t) in &plan.outputs {
            let px = g.read_color(t, WIDTH as i32, rows)?;
            let out = regs
                .get_mut(&RegKey::new(File::Output, o))
                .expect("made above");
            out.extend(px.chunks_exact(4).take(count).map(|c| {
                [
                    c[0].to_bits(),
                    c[1].to_bits(),
                    c[2].to_bits(),
                    c[3].to_bits(),
                ]
            }));
        }
        if plan.stage == Target::Fragment {
            let s = g.read_stencil(WIDTH as i32, rows)?;
            killed.extend(s.iter().take(count).map(|&v| v == 0));
        }
        start += count;
    }
    for a in 0..MAX_ATTRIBS {
        g.attrib(a, None);
    }
    Ok(Outputs {
        invocations: n,
        registers: regs,
        killed: (plan.stage == Target::Fragment).then_some(killed),
        ..Outputs::default()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn point_centres_are_pixel_centres() {
        // Viewport transform (GL 4.5 §13.6.1): x_w = (x_c + 1) * WIDTH / 2, so the centre
        // of pixel x, x + 0.5, is x_c = (2x + 1) / WIDTH - 1.
        let p = positions(WIDTH + 1);
        assert_eq!(&p[0..4], &[1.0 / 256.0 - 1.0, 1.0 / 256.0 - 1.0, 0.0, 1.0]);
        let last = &p[4 * (WIDTH - 1)..4 * WIDTH];
        assert_eq!(last[0], 511.0 / 256.0 - 1.0);
        assert_eq!(p[4 * WIDTH + 1], 3.0 / 256.0 - 1.0);
        for c in p.chunks(4) {
            let xw = (c[0] + 1.0) * WIDTH as f32 / 2.0;
            assert_eq!(xw.fract(), 0.5);
        }
    }
}
