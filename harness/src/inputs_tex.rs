//! The `textures` object of the inputs file (README "Textures", an addition to INTERFACE.md
//! "The inputs file"): one entry per texture unit, keyed `SAMP[n]` (TGSI) or `texture[n]`
//! (NV programs), read into a [`Texture`].
//!
//! ```json
//! "textures": {
//!   "SAMP[0]": {
//!     "target": "2D", "format": "RGBA32F", "width": 2, "height": 1,
//!     "wrap": ["REPEAT", "CLAMP_TO_EDGE"], "min_filter": "NEAREST",
//!     "levels": ["0000803f000000000000000000000000 000000000000803f0000000000000000"]
//!   }
//! }
//! ```
//!
//! * `target`: `1D`, `2D`, `3D`, `RECT`, `ARRAY1D`, `ARRAY2D`, `BUFFER`, `2DMS`,
//!   `ARRAY2DMS`, `CUBE`, `CUBEARRAY` (required).
//! * `format`: `RGBA32F`, `RGBA32UI`, `RGBA32I` (required): 16 bytes per texel, four
//!   little-endian 32-bit words R, G, B, A.
//! * `width` (required), `height` (2D, 3D, RECT, ARRAY2D), `depth` (3D), `layers` (ARRAY1D,
//!   ARRAY2D, CUBEARRAY): level-0 extents; a field the target does not have is an error.
//!   Cube maps give `width` only (square faces); a level holds six faces per cube, in the
//!   order +X, -X, +Y, -Y, +Z, -Z, layer-face `6 * layer + face` slowest.
//! * `compare_func`: makes the texture a depth texture sampled by the SHADOW targets
//!   (`LEQUAL`, `GEQUAL`, `LESS`, `GREATER`, `EQUAL`, `NOTEQUAL`, `ALWAYS`, `NEVER`; format
//!   RGBA32F, the depth is the R word).
//! * `wrap`: one mode for s, t and r, or a list of up to three (s, t, r); `CLAMP_TO_EDGE`
//!   (default) or `REPEAT`.
//! * `min_filter`: `NEAREST` (default) or `NEAREST_MIPMAP_NEAREST`; magnification is
//!   NEAREST.
//! * `levels`: a list of hex byte strings, level 0 first; level `l` holds
//!   `max(1, width >> l) * ...` texels, `x` fastest, then `y`, then `z` / layer.
//! * `samples` (2DMS, ARRAY2DMS only, required there): samples per pixel, 1 to
//!   [`MAX_SAMPLES`]; the one level holds each pixel's samples in a row, sample 0 first
//!   (texel `((layer * height + y) * width + x) * samples + sample`).
// Numbers here come from user input (program text, inputs files, machine code): no
// arithmetic may wrap or panic unnoticed.
#![warn(clippy::arithmetic_side_effects)]

use serde_json::value::RawValue;
use shaderdiff_model::Pos;
use shaderdiff_oracles::texture::{
    CompareFunc, Format, MinFilter, Target, Texture, Wrap, MAX_EXTENT, MAX_SAMPLES,
};

use crate::inputs::{Entries, Locator};
use crate::value::{describe, list_elements, parse_hex_bytes};

/// Bytes per texel (four 32-bit words).
const TEXEL_BYTES: usize = 16;

type Res<T> = Result<T, (Pos, String)>;

fn string(loc: &Locator, raw: &RawValue, what: &str) -> Res<String> {
    serde_json::from_str(raw.get()).map_err(|_| {
        (
            loc.value(raw),
            format!("{what}: expected a string, found {}", describe(raw.get())),
        )
    })
}

fn keyword<T>(
    loc: &Locator,
    raw: &RawValue,
    what: &str,
    names: &[&str],
    find: impl Fn(&str) -> Option<T>,
) -> Res<T> {
    let s = string(loc, raw, what)?;
    find(&s).ok_or_else(|| {
        (
            loc.value(raw),
            format!(
                "{what}: unknown {s:?}, expected one of {}",
                names.join(", ")
            ),
        )
    })
}

fn extent(loc: &Locator, raw: &RawValue, what: &str) -> Res<u32> {
    raw.get()
        .trim()
        .parse::<u32>()
        .ok()
        .filter(|v| (1..=MAX_EXTENT).contains(v))
        .ok_or_else(|| {
            (
                loc.value(raw),
                format!(
                    "{what} must be a whole number from 1 to {MAX_EXTENT}, found {}",
                    describe(raw.get())
                ),
            )
        })
}

/// Reads one `textures` entry whose value is `raw`. Errors carry the position of the
/// offending field or value: unknown or missing fields, unknown keywords, extents the
/// target does not have, hex strings that are not whole texels, level sizes that do not
/// match, and the model's consistency rules ([`Texture::check`]).
pub(crate) fn parse_texture(loc: &Locator, raw: &RawValue) -> Res<Texture> {
    let at = loc.value(raw);
    let entries: Entries = serde_json::from_str(raw.get()).map_err(|_| {
        (
            at,
            format!(
                "a texture is an object with target, format, width, levels ...; found {}",
                describe(raw.get())
            ),
        )
    })?;
    let mut target = None;
    let mut format = None;
    let mut size: [Option<(u32, Pos)>; 4] = [None; 4];
    let mut wrap = [Wrap::ClampToEdge; 3];
    let mut min_filter = MinFilter::Nearest;
    let mut levels: Option<(Vec<Vec<u8>>, Vec<Pos>)> = None;
    let mut samples: Option<(u32, Pos)> = None;
    let mut compare = None;
    for (name, v) in &entries.0 {
        let v: &RawValue = v;
        match name.as_str() {
            "target" => {
                let names: Vec<&str> = Target::ALL.iter().map(|t| t.name()).collect();
                target = Some(keyword(loc, v, "target", &names, Target::from_name)?);
            }
            "format" => {
                format = Some(keyword(
                    loc,
                    v,
                    "format",
                    &["RGBA32F", "RGBA32UI", "RGBA32I"],
                    Format::from_name,
                )?)
            }
            "width" | "height" | "depth" | "layers" => {
                let k = ["width", "height", "depth", "layers"]
                    .iter()
                    .position(|n| n == name)
                    .unwrap_or(0);
                size[k] = Some((extent(loc, v, name)?, loc.key(v)));
            }
            "wrap" => {
                let names = ["CLAMP_TO_EDGE", "REPEAT"];
                if v.get().trim_start().starts_with('[') {
                    let list = list_elements(v).map_err(|m| (loc.value(v), m))?;
                    if list.is_empty() || list.len() > 3 {
                        return Err((
                            loc.value(v),
                            "wrap: give one mode or a list of one to three (s, t, r)".into(),
                        ));
                    }
                    for (k, e) in list.iter().enumerate() {
                        wrap[k] = keyword(loc, e, "wrap", &names, Wrap::from_name)?;
                    }
                } else {
                    wrap = [keyword(loc, v, "wrap", &names, Wrap::from_name)?; 3];
                }
            }
            "min_filter" => {
                min_filter = keyword(
                    loc,
                    v,
                    "min_filter",
                    &["NEAREST", "NEAREST_MIPMAP_NEAREST"],
                    MinFilter::from_name,
                )?
            }
            "levels" => {
                let list = list_elements(v).map_err(|m| {
                    (
                        loc.value(v),
                        format!("levels: expected a list of hex byte strings: {m}"),
                    )
                })?;
                let mut bytes = Vec::new();
                let mut pos = Vec::new();
                for e in list {
                    let s = string(loc, e, "levels")?;
                    let b = parse_hex_bytes(&s).map_err(|m| (loc.value(e), m))?;
                    if b.len() % TEXEL_BYTES != 0 {
                        return Err((
                            loc.value(e),
                            format!(
                                "{} bytes is not a whole number of texels ({TEXEL_BYTES} bytes \
                                 each: four little-endian 32-bit words)",
                                b.len()
                            ),
                        ));
                    }
                    bytes.push(b);
                    pos.push(loc.value(e));
                }
                levels = Some((bytes, pos));
            }
            "samples" => {
                let n = extent(loc, v, name)?;
                if n > MAX_SAMPLES {
                    return Err((
                        loc.value(v),
                        format!("samples must be from 1 to {MAX_SAMPLES}, found {n}"),
                    ));
                }
                samples = Some((n, loc.key(v)));
            }
            "compare_func" => {
                let names: Vec<&str> = CompareFunc::ALL.iter().map(|f| f.name()).collect();
                compare = Some(keyword(
                    loc,
                    v,
                    "compare_func",
                    &names,
                    CompareFunc::from_name,
                )?)
            }
            other => {
                return Err((
                    loc.key(v),
                    format!(
                        "unknown texture field {other:?} (target, format, width, height, depth, \
                         layers, wrap, min_filter, levels, samples, compare_func)"
                    ),
                ))
            }
        }
    }
    let missing = |f: &str| (at, format!("the texture has no {f:?}"));
    let target = target.ok_or_else(|| missing("target"))?;
    let format = format.ok_or_else(|| missing("format"))?;
    let (levels, level_pos) = levels.ok_or_else(|| missing("levels"))?;
    let width = size[0].ok_or_else(|| missing("width"))?.0;
    // Which fields the target takes: (height, depth, layers).
    let (h, d, l) = match target {
        Target::T1D | Target::Buffer | Target::Cube => (false, false, false),
        Target::T2D | Target::Rect | Target::Ms2D => (true, false, false),
        Target::T3D => (true, true, false),
        Target::Array1D | Target::CubeArray => (false, false, true),
        Target::Array2D | Target::MsArray2D => (true, false, true),
    };
    let samples = match samples {
        Some((_, p)) if !target.multisample() => {
            return Err((p, format!("a {target} texture has no samples")));
        }
        None if target.multisample() => return Err(missing("samples")),
        s => s.map_or(1, |(n, _)| n),
    };
    for (k, allowed) in [(1, h), (2, d), (3, l)] {
        let field = ["width", "height", "depth", "layers"][k];
        match size[k] {
            Some((_, p)) if !allowed => {
                return Err((p, format!("a {target} texture has no {field}")));
            }
            None if allowed => return Err(missing(field)),
            _ => {}
        }
    }
    let get = |k: usize| size[k].map_or(1, |(v, _)| v);
    let dims = match target {
        Target::Array1D => [width, get(3), 1],
        Target::Array2D | Target::MsArray2D => [width, get(1), get(3)],
        // Six square faces per cube (layer-faces in `size[2]`).
        Target::Cube => [width, width, 6],
        Target::CubeArray => [width, width, get(3).saturating_mul(6)],
        _ => [width, get(1), get(2)],
    };
    let mut tex = Texture {
        target,
        format,
        size: dims,
        wrap,
        min_filter,
        levels: Vec::new(),
        samples,
        compare,
    };
    for (n, b) in levels.iter().enumerate() {
        let [w, h, d] = tex.level_size(n);
        let want = tex.level_texels(n);
        if b.len() / TEXEL_BYTES != want {
            return Err((
                level_pos[n],
                format!(
                    "level {n} has {} texels but a {w}x{h}x{d} level needs {want}",
                    b.len() / TEXEL_BYTES
                ),
            ));
        }
        tex.levels.push(
            b.chunks(TEXEL_BYTES)
                .map(|t| {
                    // Whole texels of TEXEL_BYTES (16), checked above.
                    let mut words = t
                        .chunks_exact(4)
                        .map(|w| u32::from_le_bytes(w.try_into().unwrap_or([0; 4])));
                    [(); 4].map(|()| words.next().unwrap_or(0))
                })
                .collect(),
        );
    }
    tex.check().map_err(|m| (at, m))?;
    Ok(tex)
}

/// The JSON value of a texture (the inverse of [`parse_texture`]).
pub(crate) fn texture_json(t: &Texture) -> String {
    let mut fields = vec![
        format!("\"target\": \"{}\"", t.target),
        format!("\"format\": \"{}\"", t.format.name()),
    ];
    let [w, h, d] = t.size;
    fields.push(format!("\"width\": {w}"));
    match t.target {
        Target::T2D | Target::Rect | Target::Ms2D => fields.push(format!("\"height\": {h}")),
        Target::T3D => {
            fields.push(format!("\"height\": {h}"));
            fields.push(format!("\"depth\": {d}"));
        }
        Target::Array1D => fields.push(format!("\"layers\": {h}")),
        Target::Array2D | Target::MsArray2D => {
            fields.push(format!("\"height\": {h}"));
            fields.push(format!("\"layers\": {d}"));
        }
        Target::CubeArray => fields.push(format!("\"layers\": {}", d / 6)),
        Target::T1D | Target::Buffer | Target::Cube => {}
    }
    if let Some(f) = t.compare {
        fields.push(format!("\"compare_func\": \"{}\"", f.name()));
    }
    let wraps: Vec<String> = t.wrap.iter().map(|w| format!("\"{}\"", w.name())).collect();
    fields.push(format!("\"wrap\": [{}]", wraps.join(", ")));
    fields.push(format!("\"min_filter\": \"{}\"", t.min_filter.name()));
    if t.target.multisample() {
        fields.push(format!("\"samples\": {}", t.samples));
    }
    let levels: Vec<String> = t
        .levels
        .iter()
        .map(|l| {
            let bytes: Vec<u8> = l
                .iter()
                .flat_map(|texel| texel.iter().flat_map(|w| w.to_le_bytes()))
                .collect();
            format!("\"{}\"", crate::value::hex_bytes(&bytes))
        })
        .collect();
    fields.push(format!("\"levels\": [{}]", levels.join(", ")));
    format!("{{{}}}", fields.join(", "))
}
