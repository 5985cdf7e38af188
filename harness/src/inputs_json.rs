//! Writing [`Inputs`] as an inputs file (INTERFACE.md "The inputs file"): the inverse of
//! [`crate::inputs::load`]. Every channel is written as raw bits (`"0x3f800000"`), so the
//! file reads back to exactly the same words (NaN payloads, `-0.0` and denormals included).
// Numbers here come from user input (program text, inputs files, machine code): no
// arithmetic may wrap or panic unnoticed.
#![warn(clippy::arithmetic_side_effects)]

use std::fmt::Write as _;

use shaderdiff_nv::NameMap;
use shaderdiff_oracles::{Inputs, RegKey, Vec4};

use crate::output::word;
use crate::value::hex_bytes;

fn vec4(v: &Vec4) -> String {
    let parts: Vec<String> = v.iter().map(|&w| format!("\"{}\"", word(w))).collect();
    format!("[{}]", parts.join(", "))
}

/// `"key": value` lines of one object, in map order.
fn object(out: &mut String, name: &str, entries: Vec<(String, String)>, last: bool) {
    let _ = write!(out, "  \"{name}\": {{");
    for (i, (k, v)) in entries.iter().enumerate() {
        let sep = if i.saturating_add(1) < entries.len() {
            ","
        } else {
            ""
        };
        let _ = write!(out, "\n    \"{k}\": {v}{sep}");
    }
    if !entries.is_empty() {
        out.push_str("\n  ");
    }
    out.push('}');
    out.push_str(if last { "\n" } else { ",\n" });
}

/// The inputs file for `inputs`: `invocations`, `registers` (one vec4 per invocation on its
/// own line, or a single vec4 when the register has one value for all), `constants`, and
/// `buffers` / `global` and `textures` when not empty. Keys are written in `Inputs`' map order (register
/// file, dimension, index), so equal inputs give identical text. Register names are the
/// `RegKey` display form (`IN[0]`, `CONST[1][2]`), which `inputs::load` reads back.
pub fn to_json(inputs: &Inputs) -> String {
    to_json_named(inputs, &|k: &RegKey| k.to_string())
}

/// The inputs file of an NV program: [`to_json`] with every register and constant keyed
/// by the NV name `names` gives it (`vertex.attrib[0]`, `program.local[1]`; INTERFACE.md
/// "The inputs file"; a geometry program's per-vertex input `IN[m][c]` is
/// `vertex[m].attrib[0]` ...), falling back to the IR name for a register the map does not
/// name.
pub fn to_json_nv(inputs: &Inputs, names: &NameMap) -> String {
    let inputs = &crate::nv_runtime::visible(names, inputs);
    to_json_named(inputs, &|k: &RegKey| {
        names
            .name_of_key(k.file, k.dimension, k.index)
            .unwrap_or_else(|| k.to_string())
    })
}

fn to_json_named(inputs: &Inputs, name: &dyn Fn(&RegKey) -> String) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "{{\n  \"invocations\": {},", inputs.invocations);
    let regs = inputs
        .registers
        .iter()
        .map(|(k, v)| {
            let value = if v.len() == 1 {
                vec4(&v[0])
            } else {
                let rows: Vec<String> = v.iter().map(|r| format!("      {}", vec4(r))).collect();
                format!("[\n{}\n    ]", rows.join(",\n"))
            };
            (name(k), value)
        })
        .collect();
    let has_memory = !inputs.buffers.is_empty() || !inputs.global.is_empty();
    let has_textures = !inputs.textures.is_empty();
    object(&mut out, "registers", regs, false);
    let consts = inputs
        .constants
        .iter()
        .map(|(k, v)| (name(k), vec4(v)))
        .collect();
    object(&mut out, "constants", consts, !has_memory && !has_textures);
    if has_memory {
        let bufs = inputs
            .buffers
            .iter()
            .map(|(k, b)| (name(k), format!("\"{}\"", hex_bytes(b))))
            .collect();
        object(&mut out, "buffers", bufs, false);
        let global = inputs
            .global
            .iter()
            .map(|(a, b)| (format!("0x{a:x}"), format!("\"{}\"", hex_bytes(b))))
            .collect();
        object(&mut out, "global", global, !has_textures);
    }
    if has_textures {
        let texs = inputs
            .textures
            .iter()
            .map(|(k, t)| (name(k), crate::inputs_tex::texture_json(t)))
            .collect();
        object(&mut out, "textures", texs, true);
    }
    out.push_str("}\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use shaderdiff_model::File;
    use shaderdiff_oracles::RegKey;
    use shaderdiff_tgsi::parse;

    #[test]
    fn written_inputs_read_back_exactly() {
        let p = parse(
            "VERT\nDCL IN[0..1]\nDCL CONST[0]\nDCL CONST[1][0..1]\nDCL OUT[0]\nEND\n",
            "p.tgsi",
        )
        .unwrap();
        let mut inputs = Inputs {
            invocations: 3,
            ..Inputs::default()
        };
        // NaN payloads (quiet and signalling), -0.0 and a denormal must survive unchanged.
        inputs.registers.insert(
            RegKey::new(File::Input, 0),
            vec![
                [0x7fc0_0001, 0x7f80_0001, 0x8000_0000, 0x0000_0001],
                [0, 1, 2, 3],
                [0xffff_ffff; 4],
            ],
        );
        inputs
            .registers
            .insert(RegKey::new(File::Input, 1), vec![[5, 6, 7, 8]]);
        inputs.constants.insert(
            RegKey::new(File::Const, 0),
            [0x3f80_0000, 0, 0, 0xff80_0000],
        );
        inputs.constants.insert(
            RegKey {
                file: File::Const,
                dimension: Some(1),
                index: 1,
            },
            [9, 10, 11, 12],
        );
        let text = to_json(&inputs);
        let back = crate::inputs::load(&text, "w.json", &p, None).unwrap();
        assert_eq!(back, inputs, "{text}");
        // Valid JSON with the documented raw-bits form.
        let v: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(v["registers"]["IN[0]"][0][0], "0x7fc00001");
        assert_eq!(v["constants"]["CONST[1][1]"][3], "0x0000000c");
    }

    #[test]
    fn textures_read_back_exactly() {
        use shaderdiff_oracles::texture::{Format, MinFilter, Target, Texture, Wrap};
        let p = parse(
            "VERT\nDCL IN[0]\nDCL OUT[0]\nDCL SAMP[0..1]\nEND\n",
            "p.tgsi",
        )
        .unwrap();
        let mut inputs = Inputs {
            invocations: 1,
            ..Inputs::default()
        };
        // A 2x2 array of 3 layers with 2 levels (2x2x3 then 1x1x3), mixed wrap modes.
        let tex = Texture {
            target: Target::Array2D,
            format: Format::Rgba32I,
            size: [2, 2, 3],
            wrap: [Wrap::Repeat, Wrap::ClampToEdge, Wrap::Repeat],
            min_filter: MinFilter::NearestMipmapNearest,
            levels: vec![
                (0..12u32)
                    .map(|n| [n, !n, n << 8, 0x8000_0000 | n])
                    .collect(),
                (0..3u32).map(|n| [n; 4]).collect(),
            ],
            samples: 1,
            compare: None,
        };
        inputs.textures.insert(RegKey::new(File::Sampler, 1), tex);
        // An ARRAY2DMS texture: 2x1, 2 layers, 3 samples per pixel (12 texels, one level).
        let ms = Texture {
            target: Target::MsArray2D,
            format: Format::Rgba32F,
            size: [2, 1, 2],
            wrap: [Wrap::ClampToEdge; 3],
            min_filter: MinFilter::Nearest,
            levels: vec![(0..12u32).map(|n| [n, 0, 0, n << 20]).collect()],
            samples: 3,
            compare: None,
        };
        inputs.textures.insert(RegKey::new(File::Sampler, 0), ms);
        let text = to_json(&inputs);
        let back = crate::inputs::load(&text, "w.json", &p, None).unwrap();
        assert_eq!(back, inputs, "{text}");
    }
}
