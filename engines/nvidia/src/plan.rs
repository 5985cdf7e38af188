//! How a program runs on the `nvidia` engine: the texts loaded for the draw and where every
//! input, constant and output goes ([`shaderdiff_gl::Plan`]), decided before any GL call
//! from the program's [`NvOrigin`].
//!
//! # Exact bit transport (the method of `../shared/captures/nvidia-h200/tools`)
//!
//! * **NV fragment programs** (`!!NVfp4.0`, `4.1`, `5.0`). Every input word is an integer
//!   vertex attribute (`glVertexAttribIPointer`), passed on unchanged by an `!!NVvp4.0`
//!   pass-through with `MOV.U result.texcoord[n], vertex.attrib[1 + n];` (NV_gpu_program4
//!   §2.X.8 MOV: a move copies the bits). The program under test reads its inputs through
//!   `FLAT ATTRIB` declarations (NV_fragment_program4 §2.X.3.2 interpolation modifiers): on
//!   a point every attribute is its vertex's value, and FLAT keeps the default
//!   interpolator from turning ±inf into NaN and flushing denormals. Where the program
//!   writes `result.color[n]` without `OPTION ARB_draw_buffers;`, the option is added
//!   (NV_fragment_program4 §2.X.3.5: such a program fails to load without it). Nothing
//!   else changes: every instruction computes what it computed before.
//! * **NV vertex programs.** Inputs `vertex.attrib[n]` are integer attributes (exact
//!   bits); `MOV result.position, vertex.attrib[P];` is added before `END` with `P` an
//!   attribute the program does not read (a program that writes `result.position` itself
//!   has that binding renamed to a generic output `result.attrib[K]` it does not use).
//!   Each output reaches its own RGBA32F attachment through an `!!NVfp4.0` pass-through
//!   (`FLAT ATTRIB`, `MOV.U result.color[j]`).
//! * **ARB programs** run as the `mesa` engine runs them (float attributes;
//!   [`shaderdiff_mesa::plan`]).
//! * Constants `program.local[n]` / `program.env[n]` are set with
//!   `glProgram{Local,Env}ParameterI4uivNV` (exact bits) where the driver has
//!   NV_gpu_program4 ([`shaderdiff_gl::Gl::param`]).
//!
//! Refused (unsupported, with the reason): compute, geometry and tessellation programs;
//! programs with textures, memory (capabilities), more than
//! [`shaderdiff_gl::MAX_TARGETS`] outputs, inputs other than texture coordinates and
//! colours (fragment) or generic attributes (vertex), outputs other than colours
//! (fragment) and parameters other than `program.local` / `program.env`.
// Sizes, counts and offsets here come from user input (declarations, inputs files): no
// arithmetic may wrap or panic unnoticed.
#![warn(clippy::arithmetic_side_effects)]

use shaderdiff_engine::EngineError;
use shaderdiff_gl::{ParamKind, Plan, Target, MAX_ATTRIBS, MAX_TARGETS};
use shaderdiff_model::File;
use shaderdiff_nv::{self as nv, NvLevel, NvOrigin, NvStage};

use crate::NAME;

/// Texture coordinate sets a fragment program may read (`GL_MAX_TEXTURE_COORDS`).
const MAX_TEXCOORDS: u32 = 8;
/// Prefix of the attribute variables the transport rewrite declares (no program of the
/// suites uses it; a clash makes the driver reject the program, never miscompute).
const VAR: &str = "shaderdiff_in";

pub(crate) fn unsupported(reason: String) -> EngineError {
    EngineError::Unsupported {
        engine: NAME.into(),
        opcode: None,
        pos: None,
        reason,
    }
}

/// `prefix[n]` → `Some(n)`.
fn indexed(name: &str, prefix: &str) -> Option<u32> {
    name.strip_prefix(prefix)?
        .strip_prefix('[')?
        .strip_suffix(']')?
        .parse()
        .ok()
}

/// The registers of `file` with their binding names, in register order.
fn named(o: &NvOrigin, file: File) -> Result<Vec<(u32, String)>, EngineError> {
    let mut idx: Vec<u32> = o
        .names
        .entries
        .iter()
        .filter(|(_, f, _)| *f == file)
        .map(|&(_, _, i)| i)
        .collect();
    idx.sort_unstable();
    idx.dedup();
    idx.into_iter()
        .map(|i| match o.names.name_of(file, i) {
            Some(n) => Ok((i, n.to_string())),
            None => Err(unsupported(format!("{}[{i}] has no binding", file.name()))),
        })
        .collect()
}

/// The GL extension a header needs (NV_gpu_program4 §2.X.2, NV_gpu_program4_1,
/// NV_gpu_program5), `None` for ARB programs.
pub fn required_extension(o: &NvOrigin) -> Option<&'static str> {
    match o.ast.header.level {
        NvLevel::Arb10 => None,
        NvLevel::Nv40 => Some("GL_NV_gpu_program4"),
        NvLevel::Nv41 => Some("GL_NV_gpu_program4_1"),
        NvLevel::Nv50 => Some("GL_NV_gpu_program5"),
    }
}

/// The run plan of `o`, or why the engine cannot run it.
///
/// # Errors
/// [`EngineError::Unsupported`] naming the stage, binding or limit.
pub fn plan(o: &NvOrigin) -> Result<Plan, EngineError> {
    let mut all = plans(o)?;
    if all.len() > 1 {
        return Err(unsupported(format!(
            "{} outputs in one draw (at most {MAX_TARGETS} render targets; `plans` splits them)",
            all.iter().map(|p| p.outputs.len()).sum::<usize>()
        )));
    }
    Ok(all.remove(0))
}

/// The draws that run `o`: one plan, except for an NV vertex program with more than
/// [`MAX_TARGETS`] outputs, which runs once per group of at most [`MAX_TARGETS`] outputs
/// (the same vertex program each time, each draw's fragment pass-through reading back
/// one group: [`output_groups`]). A vertex program's outputs depend only on its inputs and
/// constants, which every draw sets alike, so the groups together are one run's outputs.
///
/// # Errors
/// As [`plan`].
pub fn plans(o: &NvOrigin) -> Result<Vec<Plan>, EngineError> {
    let target = stage_target(o)?;
    if o.ast.header.level == NvLevel::Arb10 {
        return arb_plan(o).map(|p| vec![p]);
    }
    let params = params(o)?;
    let inputs = named(o, File::Input)?;
    let outputs = named(o, File::Output)?;
    let text = nv::print(&o.ast);
    match target {
        Target::Fragment => {
            if outputs.len() > MAX_TARGETS {
                return Err(unsupported(format!(
                    "{} outputs (at most {MAX_TARGETS} render targets)",
                    outputs.len()
                )));
            }
            fragment_plan(&text, &inputs, &outputs, params).map(|p| vec![p])
        }
        Target::Vertex => output_groups(outputs.len())
            .into_iter()
            .map(|g| vertex_plan(&text, &inputs, &outputs, g, params.clone()))
            .collect(),
    }
}

/// The output index ranges of the draws of a vertex program with `n` outputs: consecutive
/// groups of at most [`MAX_TARGETS`] (at least one group, so a program without outputs
/// still runs once).
pub fn output_groups(n: usize) -> Vec<std::ops::Range<usize>> {
    if n == 0 {
        return std::iter::once(0..0).collect();
    }
    (0..n)
        .step_by(MAX_TARGETS)
        .map(|s| s..s.saturating_add(MAX_TARGETS).min(n))
        .collect()
}

/// The program target of `o`'s stage, or why the engine does not run that stage.
fn stage_target(o: &NvOrigin) -> Result<Target, EngineError> {
    match o.stage {
        NvStage::Fragment => Ok(Target::Fragment),
        NvStage::Vertex => Ok(Target::Vertex),
        NvStage::Compute => Err(unsupported(
            "compute programs in a draw (!!NVcp5.0 programs run as dispatches: crate::compute)"
                .into(),
        )),
        s => Err(unsupported(format!(
            "{s:?} programs (the driver advertises no NV_geometry_program4 / NV_tessellation_program5)"
        ))),
    }
}

/// An ARB program's plan: as engine `mesa` plans it, refusals named as this engine's.
fn arb_plan(o: &NvOrigin) -> Result<Plan, EngineError> {
    shaderdiff_mesa::plan::plan(o).map_err(|e| match e {
        EngineError::Unsupported {
            opcode,
            pos,
            reason,
            ..
        } => EngineError::Unsupported {
            engine: NAME.into(),
            opcode,
            pos,
            reason,
        },
        other => other,
    })
}

/// The program's constants as `program.local[n]` / `program.env[n]` parameters.
fn params(o: &NvOrigin) -> Result<Vec<(u32, ParamKind, u32)>, EngineError> {
    named(o, File::Const)?
        .into_iter()
        .map(|(i, name)| {
            if let Some(n) = indexed(&name, "program.local") {
                Ok((i, ParamKind::Local, n))
            } else if let Some(n) = indexed(&name, "program.env") {
                Ok((i, ParamKind::Env, n))
            } else {
                Err(unsupported(format!(
                    "parameter {name} (only program.local[n] and program.env[n] are set per run)"
                )))
            }
        })
        .collect()
}

/// The vertex program result that feeds fragment input `name`, and the integer attribute
/// that carries it.
fn fragment_source(name: &str) -> Result<(String, u32), EngineError> {
    if let Some(n) = indexed(name, "fragment.texcoord") {
        if n >= MAX_TEXCOORDS {
            return Err(unsupported(format!(
                "{name} ({MAX_TEXCOORDS} texture coordinate sets)"
            )));
        }
        // `n < MAX_TEXCOORDS` (checked above).
        Ok((format!("result.texcoord[{n}]"), n.saturating_add(1)))
    } else if name == "fragment.color" || name == "fragment.color.primary" {
        Ok(("result.color".into(), 9))
    } else if name == "fragment.color.secondary" {
        Ok(("result.color.secondary".into(), 10))
    } else {
        Err(unsupported(format!(
            "fragment input {name} (the engine sets fragment.texcoord[n], fragment.color and fragment.color.secondary per invocation)"
        )))
    }
}

fn fragment_plan(
    text: &str,
    inputs: &[(u32, String)],
    outputs: &[(u32, String)],
    params: Vec<(u32, ParamKind, u32)>,
) -> Result<Plan, EngineError> {
    let mut vp = String::from("!!NVvp4.0\n");
    let mut attribs = Vec::new();
    let mut bindings = Vec::new();
    for (i, name) in inputs {
        let (dst, attr) = fragment_source(name)?;
        vp += &format!("MOV.U {dst}, vertex.attrib[{attr}];\n");
        attribs.push((*i, attr));
        bindings.push(name.clone());
    }
    vp += "MOV result.position, vertex.attrib[0];\nEND\n";
    let mut outs = Vec::new();
    for (i, name) in outputs {
        let n = if name == "result.color" {
            0
        } else if let Some(n) = indexed(name, "result.color") {
            n
        } else {
            return Err(unsupported(format!(
                "fragment output {name} (only colour outputs are read back exactly)"
            )));
        };
        if n as usize >= MAX_TARGETS {
            return Err(unsupported(format!(
                "{name} (at most {MAX_TARGETS} render targets)"
            )));
        }
        outs.push((*i, n));
    }
    Ok(Plan {
        stage: Target::Fragment,
        vp_text: vp,
        fp_text: flat_inputs(text, &bindings)?,
        attribs,
        integer_attribs: true,
        position_attrib: 0,
        params,
        outputs: outs,
    })
}

/// Interpolation modifiers of an attribute declaration (NV_fragment_program4 §2.X.3.2).
const INTERPOLATION: &[&str] = &["FLAT", "CENTROID", "NOPERSPECTIVE", "SAMPLE"];

/// Fragment program `text` (canonical print) with every input binding of `bindings` read
/// through a `FLAT ATTRIB` (module docs), and `OPTION ARB_draw_buffers;` where
/// `result.color[n]` is written without it.
///
/// # Errors
/// An attribute array over an input (not rewritten).
pub fn flat_inputs(text: &str, bindings: &[String]) -> Result<String, EngineError> {
    let mut order: Vec<(usize, &String)> = bindings.iter().enumerate().collect();
    // Longest first, so `fragment.color.secondary` is not read as `fragment.color`.
    order.sort_by_key(|(_, b)| std::cmp::Reverse(b.len()));
    let mut head = Vec::new();
    let mut body = Vec::new();
    for (k, line) in text.lines().enumerate() {
        if k == 0 || line.starts_with("OPTION ") {
            head.push(line.to_string());
            continue;
        }
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.iter().position(|w| *w == "ATTRIB") {
            Some(at) if words[..at].iter().all(|w| INTERPOLATION.contains(w)) => {
                if bindings.iter().any(|b| line.contains(b.as_str())) {
                    if line.contains("..") || line.contains('{') {
                        return Err(unsupported(format!(
                            "attribute array `{line}` over per-invocation inputs"
                        )));
                    }
                    body.push(format!("FLAT {}", words[at..].join(" ")));
                } else {
                    body.push(line.to_string());
                }
            }
            _ => {
                let mut l = line.to_string();
                for (j, b) in &order {
                    l = l.replace(b.as_str(), &format!("{VAR}{j}"));
                }
                body.push(l);
            }
        }
    }
    let needs_draw_buffers = body.iter().any(|l| l.contains("result.color["))
        && !head.iter().any(|l| l.trim() == "OPTION ARB_draw_buffers;");
    if needs_draw_buffers {
        head.push("OPTION ARB_draw_buffers;".into());
    }
    for (j, b) in bindings.iter().enumerate() {
        if body.iter().any(|l| l.contains(&format!("{VAR}{j}"))) {
            head.push(format!("FLAT ATTRIB {VAR}{j} = {b};"));
        }
    }
    head.extend(body);
    Ok(head.join("\n") + "\n")
}

/// The fragment input that reads vertex output `name` (NV_gpu_program4 §2.X.3.2,
/// vertex and fragment attribute bindings).
fn vertex_result_reader(name: &str) -> Result<String, EngineError> {
    if let Some(n) = indexed(name, "result.attrib") {
        Ok(format!("fragment.attrib[{n}]"))
    } else if let Some(n) = indexed(name, "result.texcoord") {
        Ok(format!("fragment.texcoord[{n}]"))
    } else if name == "result.color"
        || name == "result.color.primary"
        || name == "result.color.front"
        || name == "result.color.front.primary"
    {
        Ok("fragment.color".into())
    } else if name == "result.color.secondary" || name == "result.color.front.secondary" {
        Ok("fragment.color.secondary".into())
    } else {
        Err(unsupported(format!(
            "vertex output {name} (only result.position, result.attrib[n], result.texcoord[n] and the front colours reach a fragment program unchanged)"
        )))
    }
}

/// The draw of vertex program `text` that reads back `outputs[group]` (all of `outputs`
/// decide which generic output carries the points' position).
fn vertex_plan(
    text: &str,
    inputs: &[(u32, String)],
    outputs: &[(u32, String)],
    group: std::ops::Range<usize>,
    params: Vec<(u32, ParamKind, u32)>,
) -> Result<Plan, EngineError> {
    let mut attribs = Vec::new();
    for (i, name) in inputs {
        let a = if name == "vertex.position" {
            0
        } else if let Some(n) = indexed(name, "vertex.attrib") {
            n
        } else {
            return Err(unsupported(format!(
                "vertex input {name} (the engine sets generic attributes vertex.attrib[n] per invocation)"
            )));
        };
        if a >= MAX_ATTRIBS || attribs.iter().any(|&(_, b)| b == a) {
            return Err(unsupported(format!(
                "{name}: attribute {a} is out of range or aliased"
            )));
        }
        attribs.push((*i, a));
    }
    let Some(pos_attr) = (1..MAX_ATTRIBS)
        .rev()
        .find(|a| attribs.iter().all(|&(_, b)| b != *a))
    else {
        return Err(unsupported(
            "every generic attribute is read: none is left to place the points".into(),
        ));
    };
    let used: Vec<u32> = outputs
        .iter()
        .filter_map(|(_, n)| indexed(n, "result.attrib").or_else(|| indexed(n, "result.texcoord")))
        .collect();
    let Some(k) = (0..MAX_TEXCOORDS).find(|t| !used.contains(t)) else {
        return Err(unsupported(
            "every generic output is written: none is left for result.position".into(),
        ));
    };
    let mut fp = String::from("!!NVfp4.0\nOPTION ARB_draw_buffers;\n");
    let mut moves = String::new();
    let mut outs = Vec::new();
    for (j, (i, name)) in outputs[group].iter().enumerate() {
        let src = if name == "result.position" {
            format!("fragment.attrib[{k}]")
        } else {
            vertex_result_reader(name)?
        };
        fp += &format!("FLAT ATTRIB o{j} = {src};\n");
        moves += &format!("MOV.U result.color[{j}], o{j};\n");
        outs.push((*i, j as u32));
    }
    fp += &moves;
    fp += "END\n";
    Ok(Plan {
        stage: Target::Vertex,
        vp_text: place_points(text, k, pos_attr),
        fp_text: fp,
        attribs,
        integer_attribs: true,
        position_attrib: pos_attr,
        params,
        outputs: outs,
    })
}

/// Vertex program `text` with its `result.position` binding renamed to `result.attrib[k]`
/// and `MOV result.position, vertex.attrib[p];` added before the final `END` (module
/// docs). Binding names contain dots and variable names cannot, so a textual rename of the
/// canonical text touches bindings only.
pub fn place_points(text: &str, k: u32, p: u32) -> String {
    let renamed = text.replace("result.position", &format!("result.attrib[{k}]"));
    let end = renamed.rfind("END").unwrap_or(renamed.len());
    format!(
        "{}MOV result.position, vertex.attrib[{p}];\n{}",
        &renamed[..end],
        &renamed[end..]
    )
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// The NV origin of `text` lowered (the compute plan's tests use it too).
    pub(crate) fn origin(text: &str) -> NvOrigin {
        let p = nv::parse(text, "t").unwrap();
        let l = nv::lower(&p).unwrap();
        NvOrigin::of(&l.program).unwrap().clone()
    }

    #[test]
    fn fragment_inputs_are_read_through_flat_attributes() {
        let text = "!!NVfp5.0\nATTRIB a = fragment.texcoord[1];\nTEMP f;\nABS.F.CC result.color, fragment.texcoord[0];\nADD f, a, fragment.texcoord[0].x;\nMOV.U result.color[1], f;\nEND\n";
        let b = [
            "fragment.texcoord[0]".to_string(),
            "fragment.texcoord[1]".to_string(),
        ];
        // NV_fragment_program4 §2.X.3.5: result.color[1] needs OPTION ARB_draw_buffers;
        // the declared attribute becomes FLAT, the inline binding a FLAT variable.
        assert_eq!(
            flat_inputs(text, &b).unwrap(),
            "!!NVfp5.0\nOPTION ARB_draw_buffers;\nFLAT ATTRIB shaderdiff_in0 = fragment.texcoord[0];\nFLAT ATTRIB a = fragment.texcoord[1];\nTEMP f;\nABS.F.CC result.color, shaderdiff_in0;\nADD f, a, shaderdiff_in0.x;\nMOV.U result.color[1], f;\nEND\n"
        );
    }

    #[test]
    fn nv_fragment_plan_passes_integer_attributes() {
        let p = plan(&origin("!!NVfp4.0\nPARAM c = program.local[3];\nADD result.color, fragment.texcoord[2], c;\nEND\n")).unwrap();
        assert!(p.integer_attribs);
        assert_eq!(p.attribs.iter().map(|&(_, a)| a).collect::<Vec<_>>(), [3]);
        assert!(p.vp_text.starts_with("!!NVvp4.0\n"), "{}", p.vp_text);
        assert!(p
            .vp_text
            .contains("MOV.U result.texcoord[2], vertex.attrib[3];"));
        assert!(
            p.fp_text
                .contains("FLAT ATTRIB shaderdiff_in0 = fragment.texcoord[2];"),
            "{}",
            p.fp_text
        );
        assert_eq!((p.params[0].1, p.params[0].2), (ParamKind::Local, 3));
    }

    #[test]
    fn nv_vertex_plan_places_points_and_reads_outputs_back_flat() {
        let p = plan(&origin(
            "!!NVvp5.0\nADD result.attrib[0], vertex.attrib[1], vertex.attrib[15];\nEND\n",
        ))
        .unwrap();
        // attribute 15 is read, so the points are placed from 14.
        assert_eq!(p.position_attrib, 14);
        assert!(
            p.vp_text
                .ends_with("MOV result.position, vertex.attrib[14];\nEND\n"),
            "{}",
            p.vp_text
        );
        assert!(
            p.fp_text.contains("FLAT ATTRIB o0 = fragment.attrib[0];"),
            "{}",
            p.fp_text
        );
        assert!(p.fp_text.contains("MOV.U result.color[0], o0;"));
        let p = plan(&origin("!!NVvp5.0\nMOV result.attrib[0], vertex.attrib[1];\nMOV result.position, vertex.attrib[1];\nEND\n")).unwrap();
        // result.attrib[0] is the program's own: its position moves to result.attrib[1].
        assert!(
            p.vp_text
                .contains("MOV result.attrib[1], vertex.attrib[1];"),
            "{}",
            p.vp_text
        );
    }

    #[test]
    fn output_groups_hold_at_most_eight_outputs() {
        // GL_MAX_DRAW_BUFFERS is 8 on NVIDIA's driver and llvmpipe (shaderdiff_gl).
        let one = |n| {
            let g = output_groups(n);
            assert_eq!(g.len(), 1);
            g[0].clone()
        };
        assert_eq!(one(0), 0..0);
        assert_eq!(one(8), 0..8);
        assert_eq!(output_groups(9), [0..8, 8..9]);
        assert_eq!(output_groups(17), [0..8, 8..16, 16..17]);
    }

    #[test]
    fn a_vertex_program_with_ten_outputs_runs_in_two_draws() {
        let mut text = String::from("!!NVvp4.0\n");
        for n in 0..6 {
            text += &format!("MOV result.attrib[{n}], vertex.attrib[{n}];\n");
        }
        text += "MOV result.texcoord[6], vertex.attrib[6];\nMOV result.color, vertex.attrib[7];\n\
                 MOV result.color.secondary, vertex.attrib[8];\nMOV result.position, vertex.attrib[9];\nEND\n";
        let o = origin(&text);
        let p = plans(&o).unwrap();
        assert_eq!(p.len(), 2);
        assert_eq!((p[0].outputs.len(), p[1].outputs.len()), (8, 2));
        // Every output is read back exactly once, each draw from attachments 0, 1, ...
        let mut all: Vec<u32> = p
            .iter()
            .flat_map(|d| d.outputs.iter().map(|o| o.0))
            .collect();
        all.sort_unstable();
        all.dedup();
        assert_eq!(all.len(), 10);
        for d in &p {
            let att: Vec<u32> = d.outputs.iter().map(|o| o.1).collect();
            assert_eq!(att, (0..d.outputs.len() as u32).collect::<Vec<_>>());
        }
        // The same vertex program; its own position moves to the generic output no
        // output of the program uses (7), in both draws.
        assert_eq!(p[0].vp_text, p[1].vp_text);
        assert!(
            p[0].vp_text
                .contains("MOV result.attrib[7], vertex.attrib[9];"),
            "{}",
            p[0].vp_text
        );
        assert!(
            p[1].fp_text.contains("MOV.U result.color[1], o1;"),
            "{}",
            p[1].fp_text
        );
        assert!(
            !p[1].fp_text.contains("result.color[2]"),
            "{}",
            p[1].fp_text
        );
        // One draw cannot hold them.
        assert!(plan(&o).unwrap_err().to_string().contains("10 outputs"));
    }

    #[test]
    fn compute_and_unknown_bindings_are_refused() {
        let e = plan(&origin(
            "!!NVfp5.0\nMOV result.color, fragment.position;\nEND\n",
        ))
        .unwrap_err();
        assert!(e.to_string().contains("fragment.position"), "{e}");
    }
}
