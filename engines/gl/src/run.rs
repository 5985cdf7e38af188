//! The draw logic of every GL engine, in one place: a shared context per engine (opened on
//! first use by its loader), program compilation, and one run: invocations in batches of up
//! to `WIDTH * HEIGHT` points, inputs as vertex arrays, outputs read back from the float
//! render targets, KIL from the stencil buffer.
//!
//! Every invocation is one `GL_POINTS` vertex drawn at the centre of its own pixel; a
//! point's attributes are constant over the point. Colour clamping is off for vertex,
//! fragment and read colours (`glClampColor`, GL 4.5 compatibility §18.2.8), dithering is
//! off, and every fragment that reaches the end of the fragment program writes stencil 1
//! (`GL_ALWAYS`, `GL_REPLACE`) while a killed one writes nothing, so KIL is read from the
//! stencil buffer without changing the program.
// Sizes, offsets and counts here come from user input (declarations, inputs files): no
// arithmetic may wrap or panic unnoticed.
#![warn(clippy::arithmetic_side_effects)]

use std::collections::BTreeMap;
use std::sync::{Mutex, MutexGuard, OnceLock};

use shaderdiff_engine::{Inputs, Outputs};
use shaderdiff_model::File;
use shaderdiff_model::{RegKey, Vec4};

use crate::gl::{self, Gl};

/// Render target width in pixels (one invocation per pixel).
pub const WIDTH: usize = 256;
/// Render target height: `WIDTH * HEIGHT` = 65,536 invocations per draw.
pub const HEIGHT: usize = 256;
/// Colour attachments (and so outputs) a draw uses at most: `GL_MAX_DRAW_BUFFERS` is 8 on
/// llvmpipe and NVIDIA's driver.
pub const MAX_TARGETS: usize = 8;
/// Generic vertex attributes (`GL_MAX_VERTEX_ATTRIBS`).
pub const MAX_ATTRIBS: u32 = 16;

/// Which parameter array a constant register is bound to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ParamKind {
    /// `program.local[n]`: per program object.
    Local,
    /// `program.env[n]`: shared by every program of the target.
    Env,
}

/// Which program target (vertex or fragment) holds the program under test.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    /// `GL_VERTEX_PROGRAM_ARB`.
    Vertex,
    /// `GL_FRAGMENT_PROGRAM_ARB`.
    Fragment,
}

/// Everything needed to run one program: the two program texts loaded for the draw and
/// where each input, constant and output goes.
#[derive(Clone, Debug, PartialEq)]
pub struct Plan {
    /// The program's stage (`Target::Fragment`: KIL is observed).
    pub stage: Target,
    /// Vertex program text loaded for the draw.
    pub vp_text: String,
    /// Fragment program text loaded for the draw.
    pub fp_text: String,
    /// Per-invocation inputs: (IR `IN` index, generic vertex attribute).
    pub attribs: Vec<(u32, u32)>,
    /// Whether the input attributes are integer attributes (`glVertexAttribIPointer`: the
    /// words reach the vertex program unchanged) rather than float ones.
    pub integer_attribs: bool,
    /// The generic attribute that holds each point's clip-space position (a float one).
    pub position_attrib: u32,
    /// Constants: (IR `CONST` index, kind, parameter number), all of [`Plan::stage`]'s
    /// target.
    pub params: Vec<(u32, ParamKind, u32)>,
    /// Outputs: (IR `OUT` index, colour attachment).
    pub outputs: Vec<(u32, u32)>,
}

/// An engine's one GL context, opened on first use by `open` (a loader plus its choice of
/// device), then set up for drawing; every later use sees the same context or the same
/// error.
pub struct Shared {
    cell: OnceLock<Result<Mutex<Gl>, String>>,
    open: fn() -> Result<Gl, String>,
}

impl Shared {
    /// A context that `open` creates when first needed.
    pub const fn new(open: fn() -> Result<Gl, String>) -> Shared {
        Shared {
            cell: OnceLock::new(),
            open,
        }
    }

    /// The context, locked and current on this thread.
    ///
    /// # Errors
    /// The loader failed or the context could not be set up (the same message every
    /// time), or it cannot be made current.
    pub fn lock(&self) -> Result<MutexGuard<'_, Gl>, String> {
        let m = self
            .cell
            .get_or_init(|| setup(self.open))
            .as_ref()
            .map_err(Clone::clone)?;
        // A panic while holding the lock leaves GL state we reset on every run anyway.
        let mut g = m.lock().unwrap_or_else(|p| p.into_inner());
        g.make_current()?;
        Ok(g)
    }

    /// Whether the context can be had: `Ok(GL_VERSION / GL_RENDERER)` or why not.
    pub fn available(&self) -> Result<String, String> {
        self.lock().map(|g| g.description.clone())
    }
}

/// Opens the context and sets the fixed state: the framebuffer, colour clamping off
/// (vertex, fragment, read), stencil marking written pixels, dithering off, vertex and
/// fragment programs enabled.
fn setup(open: fn() -> Result<Gl, String>) -> Result<Mutex<Gl>, String> {
    let mut gl = open()?;
    gl.make_current()?;
    gl.create_framebuffer(WIDTH as i32, HEIGHT as i32, MAX_TARGETS)?;
    for t in [
        gl::CLAMP_VERTEX_COLOR,
        gl::CLAMP_FRAGMENT_COLOR,
        gl::CLAMP_READ_COLOR,
    ] {
        gl.unclamp(t);
    }
    gl.set_enabled(gl::DITHER, false);
    gl.set_enabled(gl::STENCIL_TEST, true);
    gl.stencil_mark(1);
    gl.set_enabled(gl::VERTEX_PROGRAM_ARB, true);
    gl.set_enabled(gl::FRAGMENT_PROGRAM_ARB, true);
    gl.check("initial state")?;
    Ok(Mutex::new(gl))
}

/// GL program names of a prepared program; deleted on drop.
pub struct Programs {
    /// Vertex program object.
    pub vp: u32,
    /// Fragment program object.
    pub fp: u32,
    shared: &'static Shared,
}

impl std::fmt::Debug for Programs {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Programs {{ vp: {}, fp: {} }}", self.vp, self.fp)
    }
}

impl Drop for Programs {
    fn drop(&mut self) {
        if let Ok(g) = self.shared.lock() {
            g.delete(self.vp);
            g.delete(self.fp);
        }
    }
}

/// Compiles both programs of `plan` in `shared`'s context. Errors: `(is_own_program,
/// message)`: whether the rejected text was the program under test (otherwise one of the
/// engine's pass-through programs), and the driver's position and message.
pub fn compile(shared: &'static Shared, plan: &Plan) -> Result<Programs, (bool, String)> {
    let g = shared.lock().map_err(|e| (false, e))?;
    if let Some(base) = std::env::var_os(LISTING_ENV).filter(|v| !v.is_empty()) {
        write_listing(std::path::Path::new(&base), &g, plan)
            .map_err(|e| (false, format!("{LISTING_ENV}: {e}")))?;
    }
    let own_vp = plan.stage == Target::Vertex;
    let vp = g
        .compile(gl::VERTEX_PROGRAM_ARB, &plan.vp_text)
        .map_err(|e| (own_vp, format!("vertex program {e}")))?;
    match g.compile(gl::FRAGMENT_PROGRAM_ARB, &plan.fp_text) {
        Ok(fp) => Ok(Programs { vp, fp, shared }),
        Err(e) => {
            g.delete(vp);
            Err((!own_vp, format!("fragment program {e}")))
        }
    }
}

/// The environment variable naming a path prefix `P`: every compiled program then writes
/// the texts sent to the driver to `P.vp` and `P.fp`, and `GL_VENDOR`, `GL_RENDERER` and
/// `GL_VERSION` to `P.driver` (one per line). `scripts/device-check.sh` uses it to record
/// a capture's `NAME.gl.fp` / `NAME.gl.vp` and driver string.
pub const LISTING_ENV: &str = "SHADERDIFF_GL_LISTING";

fn write_listing(base: &std::path::Path, g: &Gl, plan: &Plan) -> std::io::Result<()> {
    let with = |ext: &str| {
        let mut p = base.as_os_str().to_owned();
        p.push(ext);
        std::path::PathBuf::from(p)
    };
    std::fs::write(with(".vp"), &plan.vp_text)?;
    std::fs::write(with(".fp"), &plan.fp_text)?;
    std::fs::write(
        with(".driver"),
        format!("{}\n{}\n{}\n", g.vendor, g.renderer, g.version),
    )
}

/// The words of per-invocation input `IN[index]` for invocations `range`.
fn attrib_data(inputs: &Inputs, index: u32, range: std::ops::Range<usize>) -> Vec<u32> {
    let key = RegKey::new(File::Input, index);
    range.flat_map(|i| inputs.register(&key, i)).collect()
}

/// Clip-space centres of the first `n` pixels, row by row, as float bits: pixel `(x, y)`
/// is at `((2x + 1) / WIDTH - 1, (2y + 1) / HEIGHT - 1, 0, 1)`, exact in binary32.
pub fn positions(n: usize) -> Vec<u32> {
    (0..n)
        .flat_map(|j| {
            let (x, y) = ((j % WIDTH) as f32, (j / WIDTH) as f32);
            [
                (2.0 * x + 1.0) / WIDTH as f32 - 1.0,
                (2.0 * y + 1.0) / HEIGHT as f32 - 1.0,
                0.0,
                1.0,
            ]
            .map(f32::to_bits)
        })
        .collect()
}

/// Runs `plan`'s programs on `inputs` in `shared`'s context.
///
/// # Errors
/// A GL failure (message).
pub fn run(
    shared: &Shared,
    plan: &Plan,
    progs: &Programs,
    inputs: &Inputs,
) -> Result<Outputs, String> {
    run_textured(shared, plan, progs, inputs, &[])
}

/// [`run`] with `textures` uploaded to their units for the draws (and deleted after).
///
/// # Errors
/// A GL failure (message).
pub fn run_textured(
    shared: &Shared,
    plan: &Plan,
    progs: &Programs,
    inputs: &Inputs,
    textures: &[gl::TextureUpload],
) -> Result<Outputs, String> {
    let g = shared.lock()?;
    let mut ids = Vec::new();
    let mut result = Ok(());
    for t in textures {
        match g.upload_texture(t) {
            Ok(id) => ids.push((t, id)),
            Err(e) => {
                result = Err(e);
                break;
            }
        }
    }
    let out = result.and_then(|()| draw_all(&g, plan, progs, inputs));
    for (t, id) in ids {
        g.delete_texture(t, id);
    }
    out
}

/// Every draw of one run, in the locked context `g`.
fn draw_all(g: &Gl, plan: &Plan, progs: &Programs, inputs: &Inputs) -> Result<Outputs, String> {
    let n = inputs.invocations;
    g.bind(gl::VERTEX_PROGRAM_ARB, progs.vp);
    g.bind(gl::FRAGMENT_PROGRAM_ARB, progs.fp);
    let target = match plan.stage {
        Target::Vertex => gl::VERTEX_PROGRAM_ARB,
        Target::Fragment => gl::FRAGMENT_PROGRAM_ARB,
    };
    for &(c, kind, index) in &plan.params {
        let v = inputs
            .constants
            .get(&RegKey::new(File::Const, c))
            .copied()
            .unwrap_or([0; 4]);
        g.param(target, kind == ParamKind::Env, index, v);
    }
    let mut regs: BTreeMap<RegKey, Vec<Vec4>> = plan
        .outputs
        .iter()
        .map(|&(o, _)| (RegKey::new(File::Output, o), Vec::with_capacity(n)))
        .collect();
    let mut killed = Vec::with_capacity(n);
    let mut start = 0;
    // `start < n` in the loop, so neither the remainder nor the next start saturates.
    while start < n {
        let count = (WIDTH * HEIGHT).min(n.saturating_sub(start));
        let end = start.saturating_add(count);
        draw_batch(g, plan, inputs, start..end)?;
        read_batch(g, plan, count, &mut regs, &mut killed)?;
        start = end;
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

/// Draws invocations `range` as points (one draw).
fn draw_batch(
    g: &Gl,
    plan: &Plan,
    inputs: &Inputs,
    range: std::ops::Range<usize>,
) -> Result<(), String> {
    let count = range.len();
    let pos = positions(count);
    let data: Vec<Vec<u32>> = plan
        .attribs
        .iter()
        .map(|&(i, _)| attrib_data(inputs, i, range.clone()))
        .collect();
    for a in 0..MAX_ATTRIBS {
        g.attrib(a, None);
    }
    g.attrib(plan.position_attrib, Some((&pos, false)));
    for (&(_, a), d) in plan.attribs.iter().zip(&data) {
        g.attrib(a, Some((d, plan.integer_attribs)));
    }
    let mut arrays: Vec<&[u32]> = data.iter().map(Vec::as_slice).collect();
    arrays.push(&pos);
    g.draw(count, &arrays)
}

/// Reads the `count` invocations of the last draw: each output's render target, and for
/// fragment programs which pixels the stencil marks as written.
fn read_batch(
    g: &Gl,
    plan: &Plan,
    count: usize,
    regs: &mut BTreeMap<RegKey, Vec<Vec4>>,
    killed: &mut Vec<bool>,
) -> Result<(), String> {
    let rows = count.div_ceil(WIDTH) as i32;
    for &(o, t) in &plan.outputs {
        let px = g.read_color(t, WIDTH as i32, rows)?;
        let out = regs
            .get_mut(&RegKey::new(File::Output, o))
            .expect("one vector per output, made by run");
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
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn point_centres_are_pixel_centres() {
        // Viewport transform (GL 4.5 §13.6.1): x_w = (x_c + 1) * WIDTH / 2, so the centre
        // of pixel x, x + 0.5, is x_c = (2x + 1) / WIDTH - 1.
        let p: Vec<f32> = positions(WIDTH + 1)
            .into_iter()
            .map(f32::from_bits)
            .collect();
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
