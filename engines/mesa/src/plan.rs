//! How an ARB program runs on OSMesa: which program texts are loaded, which vertex
//! attribute carries each input, which parameter each constant is, and which render
//! target receives each output. Pure data, decided before any GL call (so the capability
//! check needs no driver), from the program's [`NvOrigin`].
//!
//! # Design (README "The mesa engine")
//!
//! Every invocation is one `GL_POINTS` vertex drawn at the centre of its own pixel of a
//! [`shaderdiff_gl::WIDTH`]-wide float framebuffer; point attributes are constant over the
//! point, so nothing is interpolated.
//!
//! * **Fragment programs** run as written. A fixed pass-through vertex program places the
//!   point from `vertex.attrib[0]` and copies `vertex.attrib[1 + n]` to
//!   `result.texcoord[n]`, `vertex.attrib[9]` to `result.color` and `vertex.attrib[10]` to
//!   `result.color.secondary`, which the program reads as `fragment.texcoord[n]`,
//!   `fragment.color` and `fragment.color.secondary` (ARB_fragment_program §3.11.2). Its
//!   `result.color` / `result.color[n]` (ARB_draw_buffers) go to `GL_RGBA32F` colour
//!   attachment `n`. KIL is seen through the stencil buffer: every pass that reaches the
//!   end of the program writes stencil 1 (`GL_ALWAYS`, `GL_REPLACE`), a killed fragment
//!   writes nothing (ARB_fragment_program §3.11.5.17 "the fragment is discarded"), so the
//!   program itself is not changed.
//! * **Vertex programs** write `result.position` themselves, which decides where the point
//!   lands, and ARB result registers are write-only (ARB_vertex_program §2.14.1), so the
//!   position cannot be copied after it is written. The engine therefore renames the
//!   binding `result.position` to a texture coordinate set `result.texcoord[K]` the
//!   program does not use (K the smallest free one) and appends
//!   `MOV result.position, vertex.attrib[P];` before `END`, with `P` a generic attribute
//!   the program does not read, holding the pixel centre. Both edits only move where the
//!   program's own position value is stored: every instruction computes what it computed
//!   before (result registers are write-only and TEXCOORD outputs are not clamped). A
//!   pass-through fragment program (`OPTION ARB_draw_buffers`) copies each output
//!   (texture coordinates, primary and secondary colour, unclamped through
//!   `glClampColor(GL_CLAMP_VERTEX_COLOR, GL_FALSE)`) to its own colour attachment.
//!
//! Refused (unsupported, with the reason): TGSI, NV headers, the fog and
//! position-invariant options (other options go to Mesa, which may reject the program),
//! `fragment.position` and `fragment.fogcoord`
//! (window position and fog are not per-invocation inputs the engine controls),
//! `result.depth` (clamped into the depth buffer), `state.*` parameters, conventional
//! vertex attributes other than `vertex.position`, and vertex outputs that do not reach a
//! fragment program unchanged (fog coordinate, point size, back-face colours).

use shaderdiff_engine::EngineError;
use shaderdiff_model::File;
use shaderdiff_nv::{self as nv, NvLevel, NvOrigin, NvStage};

pub use shaderdiff_gl::run::{ParamKind, Plan, Target, MAX_ATTRIBS, MAX_TARGETS};

/// Texture coordinate sets (`GL_MAX_TEXTURE_COORDS` of llvmpipe).
pub const MAX_TEXCOORDS: u32 = 8;
/// Options the engine refuses itself: fog blends `result.color` with a fog factor from
/// the fog coordinate (ARB_fragment_program §3.11.4.1), and a position-invariant vertex
/// program gets `result.position` from fixed-function transform (ARB_vertex_program
/// §2.14.4.5), neither of which the oracle computes. Every other option is handed to
/// Mesa, whose assembler accepts it or rejects the program (unsupported).
const REFUSED_OPTIONS: &[&str] = &[
    "ARB_fog_exp",
    "ARB_fog_exp2",
    "ARB_fog_linear",
    "ARB_position_invariant",
];

fn unsupported(reason: String) -> EngineError {
    EngineError::Unsupported {
        engine: "mesa".into(),
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
            None => Err(unsupported(format!(
                "{}[{i}] has no ARB binding",
                file.name()
            ))),
        })
        .collect()
}

/// The run plan of `o`, or why Mesa's ARB programs cannot run it.
///
/// Errors: [`EngineError::Unsupported`] naming the header, option, binding or limit.
pub fn plan(o: &NvOrigin) -> Result<Plan, EngineError> {
    let h = o.ast.header;
    if h.level != NvLevel::Arb10 {
        return Err(unsupported(format!(
            "{} programs (Mesa implements ARB_vertex_program and ARB_fragment_program only; NV_gpu_program4/5 are not exposed)",
            h.text()
        )));
    }
    if let Some(opt) = o
        .ast
        .options
        .iter()
        .find(|x| REFUSED_OPTIONS.contains(&x.as_str()))
    {
        return Err(unsupported(format!(
            "OPTION {opt} (fog and position-invariant programs compute what the oracle does not)"
        )));
    }
    let target = match o.stage {
        NvStage::Fragment => Target::Fragment,
        NvStage::Vertex => Target::Vertex,
        s => return Err(unsupported(format!("{s:?} programs"))),
    };
    let mut params = Vec::new();
    for (i, name) in named(o, File::Const)? {
        let p = if let Some(n) = indexed(&name, "program.local") {
            (i, ParamKind::Local, n)
        } else if let Some(n) = indexed(&name, "program.env") {
            (i, ParamKind::Env, n)
        } else {
            return Err(unsupported(format!(
                "parameter {name} (only program.local[n] and program.env[n] are set per run)"
            )));
        };
        params.push(p);
    }
    let inputs = named(o, File::Input)?;
    let outputs = named(o, File::Output)?;
    if outputs.len() > MAX_TARGETS {
        return Err(unsupported(format!(
            "{} outputs (at most {MAX_TARGETS} render targets)",
            outputs.len()
        )));
    }
    let text = nv::print(&o.ast);
    match target {
        Target::Fragment => fragment_plan(text, &inputs, &outputs, params),
        Target::Vertex => vertex_plan(text, &inputs, &outputs, params),
    }
}

fn fragment_plan(
    text: String,
    inputs: &[(u32, String)],
    outputs: &[(u32, String)],
    params: Vec<(u32, ParamKind, u32)>,
) -> Result<Plan, EngineError> {
    let mut vp = String::from("!!ARBvp1.0\nMOV result.position, vertex.attrib[0];\n");
    let mut attribs = Vec::new();
    for (i, name) in inputs {
        let (attr, dst) = if let Some(n) = indexed(name, "fragment.texcoord") {
            if n >= MAX_TEXCOORDS {
                return Err(unsupported(format!(
                    "{name} (llvmpipe has {MAX_TEXCOORDS} texture coordinate sets)"
                )));
            }
            (1 + n, format!("result.texcoord[{n}]"))
        } else if name == "fragment.color" {
            (9, "result.color".to_string())
        } else if name == "fragment.color.secondary" {
            (10, "result.color.secondary".to_string())
        } else {
            return Err(unsupported(format!(
                "fragment input {name} (the engine sets fragment.texcoord[n], fragment.color and fragment.color.secondary per invocation)"
            )));
        };
        vp += &format!("MOV {dst}, vertex.attrib[{attr}];\n");
        attribs.push((*i, attr));
    }
    vp += "END\n";
    let mut outs = Vec::new();
    for (i, name) in outputs {
        let n = if name == "result.color" {
            0
        } else if let Some(n) = indexed(name, "result.color") {
            n
        } else {
            return Err(unsupported(format!(
                "fragment output {name} (only colour outputs are read back exactly; result.depth is clamped to [0, 1])"
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
        fp_text: text,
        attribs,
        integer_attribs: false,
        position_attrib: 0,
        params,
        outputs: outs,
    })
}

fn vertex_plan(
    text: String,
    inputs: &[(u32, String)],
    outputs: &[(u32, String)],
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
                "vertex input {name} (the engine sets generic attributes vertex.attrib[n] and vertex.position per invocation)"
            )));
        };
        if a >= MAX_ATTRIBS {
            return Err(unsupported(format!(
                "{name} (llvmpipe has {MAX_ATTRIBS} attributes)"
            )));
        }
        if attribs.iter().any(|&(_, b)| b == a) {
            return Err(unsupported(format!(
                "{name} aliases another input of attribute {a}"
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
    let used_tc: Vec<u32> = outputs
        .iter()
        .filter_map(|(_, n)| indexed(n, "result.texcoord"))
        .collect();
    let Some(k) = (0..MAX_TEXCOORDS).find(|t| !used_tc.contains(t)) else {
        return Err(unsupported(
            "every texture coordinate set is written: none is left for result.position".into(),
        ));
    };
    let mut fp = String::from("!!ARBfp1.0\nOPTION ARB_draw_buffers;\n");
    let mut outs = Vec::new();
    for (j, (i, name)) in outputs.iter().enumerate() {
        let src = if name == "result.position" {
            format!("fragment.texcoord[{k}]")
        } else if let Some(n) = indexed(name, "result.texcoord") {
            if n >= MAX_TEXCOORDS {
                return Err(unsupported(format!(
                    "{name} (llvmpipe has {MAX_TEXCOORDS} texture coordinate sets)"
                )));
            }
            format!("fragment.texcoord[{n}]")
        } else if name == "result.color" {
            "fragment.color".to_string()
        } else if name == "result.color.secondary" {
            "fragment.color.secondary".to_string()
        } else {
            return Err(unsupported(format!(
                "vertex output {name} (only result.position, result.texcoord[n] and the front colours reach a fragment program unchanged)"
            )));
        };
        fp += &format!("MOV result.color[{j}], {src};\n");
        outs.push((*i, j as u32));
    }
    fp += "END\n";
    let vp = rewrite_position(&text, k, pos_attr);
    Ok(Plan {
        stage: Target::Vertex,
        vp_text: vp,
        fp_text: fp,
        attribs,
        integer_attribs: false,
        position_attrib: pos_attr,
        params,
        outputs: outs,
    })
}

/// The vertex program `text` (canonical print) with its `result.position` binding renamed
/// to `result.texcoord[k]` and `MOV result.position, vertex.attrib[p];` added before the
/// final `END` (module docs). Binding names contain dots and variable names cannot, so a
/// textual rename of the canonical text touches bindings only.
pub fn rewrite_position(text: &str, k: u32, p: u32) -> String {
    let renamed = text.replace("result.position", &format!("result.texcoord[{k}]"));
    let end = renamed.rfind("END").unwrap_or(renamed.len());
    format!(
        "{}MOV result.position, vertex.attrib[{p}];\n{}",
        &renamed[..end],
        &renamed[end..]
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn origin(text: &str) -> NvOrigin {
        let p = nv::parse(text, "t").unwrap();
        let l = nv::lower(&p).unwrap();
        NvOrigin::of(&l.program).unwrap().clone()
    }

    fn reason(text: &str) -> String {
        match plan(&origin(text)) {
            Err(EngineError::Unsupported { reason, .. }) => reason,
            other => panic!("expected unsupported, got {other:?}"),
        }
    }

    #[test]
    fn fragment_inputs_come_from_attributes_and_outputs_from_targets() {
        let p = plan(&origin(
            "!!ARBfp1.0\nOPTION ARB_draw_buffers;\nPARAM c = program.local[3];\nADD result.color[1], fragment.texcoord[2], c;\nMOV result.color, fragment.color;\nEND\n",
        ))
        .unwrap();
        assert_eq!(p.stage, Target::Fragment);
        // fragment.texcoord[2] <- attribute 1 + 2; fragment.color <- attribute 9.
        let mut a: Vec<u32> = p.attribs.iter().map(|&(_, a)| a).collect();
        a.sort_unstable();
        assert_eq!(a, [3, 9]);
        assert!(p
            .vp_text
            .contains("MOV result.texcoord[2], vertex.attrib[3];"));
        assert!(p.vp_text.contains("MOV result.color, vertex.attrib[9];"));
        let mut t: Vec<u32> = p.outputs.iter().map(|&(_, t)| t).collect();
        t.sort_unstable();
        assert_eq!(t, [0, 1]);
        assert_eq!(p.params.len(), 1);
        assert_eq!((p.params[0].1, p.params[0].2), (ParamKind::Local, 3));
    }

    #[test]
    fn vertex_position_moves_to_a_free_texcoord() {
        let p = plan(&origin(
            "!!ARBvp1.0\nATTRIB a = vertex.attrib[15];\nMOV result.texcoord[0], a;\nADD result.position, a, a;\nEND\n",
        ))
        .unwrap();
        // texcoord 0 is the program's own, so the position goes to texcoord 1; attribute 15
        // is read, so the points are placed from attribute 14.
        assert_eq!(p.position_attrib, 14);
        assert!(
            p.vp_text.contains("ADD result.texcoord[1], a, a;"),
            "{}",
            p.vp_text
        );
        assert!(
            p.vp_text
                .ends_with("MOV result.position, vertex.attrib[14];\nEND\n"),
            "{}",
            p.vp_text
        );
        assert!(p.fp_text.contains("fragment.texcoord[1]"));
        assert!(p.fp_text.contains("fragment.texcoord[0]"));
    }

    #[test]
    fn refusals_name_what_mesa_lacks() {
        assert!(
            reason("!!NVfp4.0\nMOV result.color, fragment.texcoord[0];\nEND\n")
                .contains("!!NVfp4.0")
        );
        assert!(
            reason("!!ARBfp1.0\nMOV result.color, fragment.position;\nEND\n")
                .contains("fragment.position")
        );
        assert!(
            reason("!!ARBfp1.0\nMOV result.depth.z, fragment.texcoord[0];\nEND\n")
                .contains("result.depth")
        );
        assert!(reason("!!ARBvp1.0\nMOV result.position, vertex.attrib[0];\nMOV result.pointsize, vertex.attrib[0];\nEND\n").contains("result.pointsize"));
        assert!(
            reason("!!ARBvp1.0\nMOV result.position, state.material.ambient;\nEND\n")
                .contains("state.material")
        );
    }
}
