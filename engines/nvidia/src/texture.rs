//! Textures where the texture model allows an exact comparison: the model's texture of unit
//! `n` (`Inputs::textures`, key `SAMP[n]`; NV `texture[n]`) is uploaded to GL texture unit
//! `n` with its exact format (`GL_RGBA32F`, `GL_RGBA32UI`, `GL_RGBA32I`: four 32-bit words
//! per texel, returned unconverted), `GL_NEAREST` magnification, its own minification
//! (`GL_NEAREST`, or `GL_NEAREST_MIPMAP_NEAREST` with exactly its levels:
//! `GL_TEXTURE_MAX_LEVEL` = levels - 1) and wrap modes (`GL_CLAMP_TO_EDGE`, `GL_REPEAT`),
//! the model's semantics (`model/src/texture.rs`, OpenGL 3.x §3.8).
//!
//! Refused, with the reason: the BUFFER, multisample and cube targets and depth
//! comparison (not uploaded by the engine), and several levels in a fragment program:
//! a point's helper invocations share its attributes, so the driver's implicit level of
//! detail is that of a zero derivative, whereas the model derives it from the quad of four
//! invocations with their own coordinates.
//!
//! This module is pure (the upload plan); the engine's run uploads the textures for its
//! draws through [`shaderdiff_gl::run::run_textured`] ([`shaderdiff_gl::Gl::upload_texture`]).
// Sizes, offsets and counts here come from user input (declarations, inputs files): no
// arithmetic may wrap or panic unnoticed.
#![warn(clippy::arithmetic_side_effects)]

use shaderdiff_engine::Inputs;
use shaderdiff_gl::gl::{self, Enum};
use shaderdiff_model::texture::{Format, MinFilter, Target, Texture, Wrap};
use shaderdiff_model::File;

pub use shaderdiff_gl::gl::{LevelUpload, TextureUpload};

/// GL texture target of a model target, `None` for the targets the engine refuses.
fn gl_target(t: Target) -> Option<Enum> {
    Some(match t {
        Target::T1D => gl::TEXTURE_1D,
        Target::T2D => gl::TEXTURE_2D,
        Target::T3D => gl::TEXTURE_3D,
        Target::Rect => gl::TEXTURE_RECTANGLE,
        Target::Array1D => gl::TEXTURE_1D_ARRAY,
        Target::Array2D => gl::TEXTURE_2D_ARRAY,
        _ => return None,
    })
}

/// `(internal format, format, type)` of `glTexImage*` for a model format (exact words).
fn gl_format(f: Format) -> (Enum, Enum, Enum) {
    match f {
        Format::Rgba32F => (gl::RGBA32F, gl::RGBA, gl::FLOAT),
        Format::Rgba32Ui => (gl::RGBA32UI, gl::RGBA_INTEGER, gl::UNSIGNED_INT),
        Format::Rgba32I => (gl::RGBA32I, gl::RGBA_INTEGER, gl::INT),
    }
}

fn gl_wrap(w: Wrap) -> Enum {
    match w {
        Wrap::ClampToEdge => gl::CLAMP_TO_EDGE,
        Wrap::Repeat => gl::REPEAT,
    }
}

/// The upload of `t` to unit `unit`; `fragment`: the program is a fragment program
/// (module docs: one level only).
///
/// # Errors
/// A target, comparison or level count the engine refuses (module docs).
pub fn upload(unit: u32, t: &Texture, fragment: bool) -> Result<TextureUpload, String> {
    let Some(target) = gl_target(t.target) else {
        return Err(format!(
            "texture unit {unit}: {} textures are not uploaded by the engine",
            t.target.name()
        ));
    };
    if t.compare.is_some() {
        return Err(format!(
            "texture unit {unit}: depth comparison is not uploaded by the engine"
        ));
    }
    let levels = match t.min_filter {
        MinFilter::Nearest => 1,
        MinFilter::NearestMipmapNearest => t.levels.len(),
    };
    if fragment && levels > 1 {
        return Err(format!(
            "texture unit {unit}: {levels} levels in a fragment program (the driver's level of detail of a point is not the model's of a quad)"
        ));
    }
    let (internal, format, ty) = gl_format(t.format);
    Ok(TextureUpload {
        unit,
        target,
        internal,
        format,
        ty,
        min_filter: if levels > 1 {
            gl::NEAREST_MIPMAP_NEAREST
        } else {
            gl::NEAREST
        },
        wrap: t.wrap.map(gl_wrap),
        levels: (0..levels)
            .map(|l| LevelUpload {
                level: l as i32,
                size: t.level_size(l).map(|v| v as i32),
                words: t.levels[l].iter().flatten().copied().collect(),
            })
            .collect(),
    })
}

/// Every texture of `inputs`, in unit order.
///
/// # Errors
/// As [`upload`], or a texture keyed by something other than `SAMP[n]`.
pub fn uploads(inputs: &Inputs, fragment: bool) -> Result<Vec<TextureUpload>, String> {
    inputs
        .textures
        .iter()
        .map(|(k, t)| {
            if k.file != File::Sampler || k.dimension.is_some() {
                return Err(format!("texture keyed {k} (units are SAMP[n])"));
            }
            upload(k.index, t, fragment)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_mipmapped_2d_texture_uploads_every_level_with_exact_words() {
        // 4x2 level 0, then 2x1 and 1x1 (OpenGL 3.x §3.8.8: max(1, floor(size / 2^l))).
        let t = Texture::filled(
            Target::T2D,
            Format::Rgba32Ui,
            [4, 2, 1],
            3,
            Wrap::Repeat,
            |l, n| [l as u32, n, 0xffff_ffff, 7],
        );
        let u = upload(2, &t, false).unwrap();
        assert_eq!((u.unit, u.target), (2, gl::TEXTURE_2D));
        assert_eq!(
            (u.internal, u.format, u.ty),
            (gl::RGBA32UI, gl::RGBA_INTEGER, gl::UNSIGNED_INT)
        );
        assert_eq!(u.min_filter, gl::NEAREST_MIPMAP_NEAREST);
        assert_eq!(u.wrap, [gl::REPEAT; 3]);
        let sizes: Vec<[i32; 3]> = u.levels.iter().map(|l| l.size).collect();
        assert_eq!(sizes, [[4, 2, 1], [2, 1, 1], [1, 1, 1]]);
        // Texel n of level l is words 4n..4n+4 of that level, unconverted.
        assert_eq!(&u.levels[1].words[4..8], &[1, 1, 0xffff_ffff, 7]);
        assert_eq!(u.levels[0].words.len(), 4 * 8);
    }

    #[test]
    fn array_layers_keep_their_count_and_fragment_programs_get_one_level() {
        let t = Texture::filled(
            Target::Array2D,
            Format::Rgba32F,
            [2, 2, 3],
            2,
            Wrap::ClampToEdge,
            |_, n| [n, 0, 0, 0],
        );
        let u = upload(0, &t, false).unwrap();
        assert_eq!(u.target, gl::TEXTURE_2D_ARRAY);
        assert_eq!(u.levels[1].size, [1, 1, 3], "layers never shrink");
        let e = upload(0, &t, true).unwrap_err();
        assert!(e.contains("2 levels in a fragment program"), "{e}");
        let one = Texture::filled(
            Target::T1D,
            Format::Rgba32I,
            [5, 1, 1],
            1,
            Wrap::ClampToEdge,
            |_, n| [n, 0, 0, 0],
        );
        let u = upload(1, &one, true).unwrap();
        assert_eq!(
            (u.target, u.min_filter, u.internal),
            (gl::TEXTURE_1D, gl::NEAREST, gl::RGBA32I)
        );
    }

    #[test]
    fn buffer_multisample_cube_and_shadow_textures_are_refused() {
        let mut t = Texture::filled(
            Target::Buffer,
            Format::Rgba32F,
            [4, 1, 1],
            1,
            Wrap::ClampToEdge,
            |_, _| [0; 4],
        );
        assert!(upload(0, &t, false).unwrap_err().contains("BUFFER"));
        t.target = Target::Cube;
        t.size = [1, 1, 6];
        assert!(upload(0, &t, false).is_err());
        let mut s = Texture::filled(
            Target::T2D,
            Format::Rgba32F,
            [1, 1, 1],
            1,
            Wrap::ClampToEdge,
            |_, _| [0; 4],
        );
        s.compare = Some(shaderdiff_model::texture::CompareFunc::Less);
        assert!(upload(0, &s, false).unwrap_err().contains("comparison"));
    }
}
