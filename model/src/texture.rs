//! The texture model shared by every engine: what a texture unit holds (target, size, mip
//! levels of RGBA32 texels, sampler state) and the pure functions of its shape (level
//! sizes, texel addressing). The sampling *semantics* (which texel an instruction reads, and
//! which results are undefined) are the oracle's, in `interp::texture`; engines implement
//! them on their own.
//!
//! Scope (README "Textures"): the targets 1D, 2D, 3D, RECT, ARRAY1D, ARRAY2D and BUFFER of
//! NV_gpu_program4 §2.X.4.4 Table X.17 (TGSI `1D`, `2D`, `3D`, `RECT`, `1D_ARRAY`,
//! `2D_ARRAY`, `BUFFER`); texel formats RGBA32F, RGBA32UI and RGBA32I (four 32-bit words
//! per texel, returned unconverted: OpenGL 3.x Table 3.21 maps R, G, B, A to x, y, z, w);
//! NEAREST magnification, NEAREST or NEAREST_MIPMAP_NEAREST minification and the
//! CLAMP_TO_EDGE and REPEAT wrap modes; the multisample targets 2DMS and ARRAY2DMS
//! (NV_gpu_program5 / EXT_shader_image_load_store `<texTarget>` names, TGSI `2D_MSAA`,
//! `2D_ARRAY_MSAA`), fetched by sample ([`Texture::samples`]). Cube maps (CUBE, CUBEARRAY)
//! and depth textures with a comparison function (the SHADOW targets) are described in
//! the `targets` submodule. Borders and LINEAR filtering are not modelled.

use std::fmt;

use crate::io::Vec4;

mod targets;
pub use targets::{instruction_rule, reference_component, sampled, CompareFunc, Rule};

/// The kind of texture bound to a unit (NV_gpu_program4 Table X.17 "Texture Type").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Target {
    /// TEXTURE_1D: `width` texels.
    T1D,
    /// TEXTURE_2D: `width` × `height`.
    T2D,
    /// TEXTURE_3D: `width` × `height` × `depth`.
    T3D,
    /// TEXTURE_RECTANGLE: unnormalised coordinates, one level, no REPEAT.
    Rect,
    /// TEXTURE_1D_ARRAY: `layers` 1-D images of `width` texels.
    Array1D,
    /// TEXTURE_2D_ARRAY: `layers` 2-D images of `width` × `height`.
    Array2D,
    /// TEXTURE_BUFFER: `width` texels, one level, fetched by TXF only.
    Buffer,
    /// TEXTURE_2D_MULTISAMPLE: `width` × `height` pixels of [`Texture::samples`] samples,
    /// one level, fetched by sample only (NV TXFMS, TGSI TXF on `2D_MSAA`).
    Ms2D,
    /// TEXTURE_2D_MULTISAMPLE_ARRAY: `layers` multisample 2-D images.
    MsArray2D,
    /// TEXTURE_CUBE_MAP: six square `width` × `width` faces (`size[2]` = 6), in the order
    /// +X, -X, +Y, -Y, +Z, -Z (`targets` module docs).
    Cube,
    /// TEXTURE_CUBE_MAP_ARRAY: `layers` cube maps, `size[2]` = 6 × layers layer-faces
    /// (layer-face `6 * layer + face`).
    CubeArray,
}

impl Target {
    /// Every target, in the order of [`Target::name`]'s table.
    pub const ALL: [Target; 11] = [
        Target::T1D,
        Target::T2D,
        Target::T3D,
        Target::Rect,
        Target::Array1D,
        Target::Array2D,
        Target::Buffer,
        Target::Ms2D,
        Target::MsArray2D,
        Target::Cube,
        Target::CubeArray,
    ];

    /// The inputs file spelling (NV_gpu_program4 `<texTarget>`): `1D`, `2D`, `3D`, `RECT`,
    /// `ARRAY1D`, `ARRAY2D`, `BUFFER`, `2DMS`, `ARRAY2DMS`, `CUBE`, `CUBEARRAY` (TGSI's
    /// spelling; NV `ARRAYCUBE`).
    pub fn name(self) -> &'static str {
        match self {
            Target::T1D => "1D",
            Target::T2D => "2D",
            Target::T3D => "3D",
            Target::Rect => "RECT",
            Target::Array1D => "ARRAY1D",
            Target::Array2D => "ARRAY2D",
            Target::Buffer => "BUFFER",
            Target::Ms2D => "2DMS",
            Target::MsArray2D => "ARRAY2DMS",
            Target::Cube => "CUBE",
            Target::CubeArray => "CUBEARRAY",
        }
    }

    /// Looks a spelling up (exact, upper case).
    pub fn from_name(s: &str) -> Option<Target> {
        Target::ALL.into_iter().find(|t| t.name() == s)
    }

    /// The IR (TGSI) target an instruction names for this kind of texture.
    pub fn ir(self) -> shaderdiff_model::TexTarget {
        use shaderdiff_model::TexTarget as T;
        match self {
            Target::T1D => T::T1D,
            Target::T2D => T::T2D,
            Target::T3D => T::T3D,
            Target::Rect => T::Rect,
            Target::Array1D => T::Array1D,
            Target::Array2D => T::Array2D,
            Target::Buffer => T::Buffer,
            Target::Ms2D => T::Msaa2D,
            Target::MsArray2D => T::Msaa2DArray,
            Target::Cube => T::Cube,
            Target::CubeArray => T::CubeArray,
        }
    }

    /// The modelled target of an IR target, `None` for the SHADOW targets ([`sampled`]
    /// maps them too).
    pub fn of_ir(t: shaderdiff_model::TexTarget) -> Option<Target> {
        Target::ALL.into_iter().find(|m| m.ir() == t)
    }

    /// Texel coordinates that address the image (not counting the layer): 1, 2 or 3 (cube
    /// maps: the 2 of a face).
    pub fn dims(self) -> usize {
        match self {
            Target::T1D | Target::Array1D | Target::Buffer => 1,
            Target::T2D
            | Target::Rect
            | Target::Array2D
            | Target::Ms2D
            | Target::MsArray2D
            | Target::Cube
            | Target::CubeArray => 2,
            Target::T3D => 3,
        }
    }

    /// Whether the target is multisampled (2DMS, ARRAY2DMS): one level, texels fetched by
    /// sample number.
    pub fn multisample(self) -> bool {
        matches!(self, Target::Ms2D | Target::MsArray2D)
    }

    /// Which size component holds the layer count (array targets): 1 (height) for
    /// ARRAY1D, 2 (depth) for ARRAY2D (the layer's coordinate in Table X.17 too); 2 for
    /// CUBE and CUBEARRAY, whose `size[2]` counts the layer-faces (which never shrink).
    pub fn layer_axis(self) -> Option<usize> {
        match self {
            Target::Array1D => Some(1),
            Target::Array2D | Target::MsArray2D | Target::Cube | Target::CubeArray => Some(2),
            _ => None,
        }
    }
}

impl fmt::Display for Target {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// How texels are stored and returned: four little-endian 32-bit words per texel.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    /// RGBA32F: binary32 components (ARB_texture_float); sampled by float instructions.
    Rgba32F,
    /// RGBA32UI: unsigned integers (EXT_texture_integer).
    Rgba32Ui,
    /// RGBA32I: signed integers (EXT_texture_integer).
    Rgba32I,
}

impl Format {
    /// The inputs file spelling: `RGBA32F`, `RGBA32UI`, `RGBA32I`.
    pub fn name(self) -> &'static str {
        match self {
            Format::Rgba32F => "RGBA32F",
            Format::Rgba32Ui => "RGBA32UI",
            Format::Rgba32I => "RGBA32I",
        }
    }

    /// Looks a spelling up (exact, upper case).
    pub fn from_name(s: &str) -> Option<Format> {
        [Format::Rgba32F, Format::Rgba32Ui, Format::Rgba32I]
            .into_iter()
            .find(|f| f.name() == s)
    }

    /// The TGSI sampler-view return type that reads this format (TEXT-FORMAT.md §11.3).
    pub fn return_type(self) -> shaderdiff_model::ReturnType {
        match self {
            Format::Rgba32F => shaderdiff_model::ReturnType::Float,
            Format::Rgba32Ui => shaderdiff_model::ReturnType::Uint,
            Format::Rgba32I => shaderdiff_model::ReturnType::Sint,
        }
    }
}

/// Texture wrap mode of one coordinate (OpenGL 3.x §3.8.7, Table 3.19 / GL 4.6 Table 8.20).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Wrap {
    /// `clamp(i, 0, size - 1)`.
    #[default]
    ClampToEdge,
    /// `i mod size` (the mathematical, non-negative remainder).
    Repeat,
}

impl Wrap {
    /// The inputs file spelling: `CLAMP_TO_EDGE`, `REPEAT`.
    pub fn name(self) -> &'static str {
        match self {
            Wrap::ClampToEdge => "CLAMP_TO_EDGE",
            Wrap::Repeat => "REPEAT",
        }
    }

    /// Looks a spelling up (exact, upper case).
    pub fn from_name(s: &str) -> Option<Wrap> {
        [Wrap::ClampToEdge, Wrap::Repeat]
            .into_iter()
            .find(|w| w.name() == s)
    }

    /// Applies the wrap to texel index `i` of an image `size` texels wide (`size >= 1`).
    pub fn apply(self, i: i64, size: u32) -> u32 {
        match self {
            Wrap::ClampToEdge => i.clamp(0, size as i64 - 1) as u32,
            Wrap::Repeat => i.rem_euclid(size as i64) as u32,
        }
    }
}

/// Minification filter (OpenGL 3.x §3.8.8). Magnification is always NEAREST.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum MinFilter {
    /// NEAREST: level 0 only, whatever the level of detail.
    #[default]
    Nearest,
    /// NEAREST_MIPMAP_NEAREST: the nearest level `d` (§3.8.8 "Mipmapping"), every level given.
    NearestMipmapNearest,
}

impl MinFilter {
    /// The inputs file spelling: `NEAREST`, `NEAREST_MIPMAP_NEAREST`.
    pub fn name(self) -> &'static str {
        match self {
            MinFilter::Nearest => "NEAREST",
            MinFilter::NearestMipmapNearest => "NEAREST_MIPMAP_NEAREST",
        }
    }

    /// Looks a spelling up (exact, upper case).
    pub fn from_name(s: &str) -> Option<MinFilter> {
        [MinFilter::Nearest, MinFilter::NearestMipmapNearest]
            .into_iter()
            .find(|f| f.name() == s)
    }
}

/// One texture unit's texture and sampler state.
///
/// `size` is `[width, height, depth]` of level 0 with unused components 1; for ARRAY1D the
/// layer count is `size[1]`, for ARRAY2D `size[2]` ([`Target::layer_axis`]): layers never
/// shrink between levels. `levels[l]` holds level `l`'s texels in memory order, `x`
/// fastest, then `y`, then `z` / layer, each texel `[r, g, b, a]` as raw words; a
/// multisample texture has one level whose pixels each hold [`Texture::samples`] texels in
/// a row, sample 0 first ([`Texture::sample`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Texture {
    /// Texture type.
    pub target: Target,
    /// Texel format.
    pub format: Format,
    /// Level 0 size (see the type docs).
    pub size: [u32; 3],
    /// Wrap modes of s, t, r (ignored by TXF and for unused coordinates).
    pub wrap: [Wrap; 3],
    /// Minification filter.
    pub min_filter: MinFilter,
    /// Mip levels, level 0 first (at least one).
    pub levels: Vec<Vec<Vec4>>,
    /// Samples per pixel: 1 for single-sampled targets, 1 to [`MAX_SAMPLES`] for 2DMS and
    /// ARRAY2DMS (GL's SAMPLES of the multisample image).
    pub samples: u32,
    /// A depth texture's TEXTURE_COMPARE_FUNC (TEXTURE_COMPARE_MODE COMPARE_REF_TO_TEXTURE,
    /// sampled by the SHADOW targets; the depth is each texel's R word as binary32), or
    /// `None`: compare mode NONE (`targets` module docs).
    pub compare: Option<CompareFunc>,
}

/// Most samples per pixel a multisample texture may have in the inputs (keeps a typo
/// from allocating a lot; GL's MAX_SAMPLES is implementation-dependent).
pub const MAX_SAMPLES: u32 = 32;

/// Largest accepted texture extent in any dimension (keeps a typo from allocating a lot).
pub const MAX_EXTENT: u32 = 1 << 14;

impl Texture {
    /// A texture of `levels` levels whose texel `n` (memory order, see the type docs) of
    /// level `l` is `texel(l, n)`; min filter NEAREST_MIPMAP_NEAREST when there is more
    /// than one level, else NEAREST. Shapes are not checked ([`Texture::check`] does).
    pub fn filled(
        target: Target,
        format: Format,
        size: [u32; 3],
        levels: usize,
        wrap: Wrap,
        texel: impl Fn(usize, u32) -> Vec4,
    ) -> Texture {
        let mut t = Texture {
            target,
            format,
            size,
            wrap: [wrap; 3],
            min_filter: if levels > 1 {
                MinFilter::NearestMipmapNearest
            } else {
                MinFilter::Nearest
            },
            levels: Vec::new(),
            samples: 1,
            compare: None,
        };
        for l in 0..levels {
            let [w, h, d] = t.level_size(l);
            t.levels.push((0..w * h * d).map(|n| texel(l, n)).collect());
        }
        t
    }

    /// Number of texels level `level` stores: the product of its extents, times
    /// [`Texture::samples`] (1 for single-sampled textures).
    pub fn level_texels(&self, level: usize) -> usize {
        let [w, h, d] = self.level_size(level);
        w as usize * h as usize * d as usize * self.samples.max(1) as usize
    }

    /// Sample `s` of pixel `(i, j)` of layer `k` of a multisample texture (texel
    /// `((k * height + j) * width + i) * samples + s` of its one level); every index must be
    /// inside the texture.
    pub fn sample(&self, i: u32, j: u32, k: u32, s: u32) -> Vec4 {
        let [w, h, _] = self.size;
        let pixel = (k as usize * h as usize + j as usize) * w as usize + i as usize;
        self.levels[0][pixel * self.samples as usize + s as usize]
    }

    /// Size of level `level` (OpenGL 3.x §3.8.8 "Mipmapping": each extent is
    /// `max(1, floor(size / 2^level))`; the layer count of array textures stays).
    pub fn level_size(&self, level: usize) -> [u32; 3] {
        let mut s = self.size;
        let layer = self.target.layer_axis();
        for (a, v) in s.iter_mut().enumerate() {
            if Some(a) != layer {
                *v = (*v >> level.min(31)).max(1);
            }
        }
        s
    }

    /// Number of levels a full mipmap chain of this texture has (1 for RECT and BUFFER).
    pub fn max_levels(&self) -> usize {
        if matches!(self.target, Target::Rect | Target::Buffer) || self.target.multisample() {
            return 1;
        }
        let layer = self.target.layer_axis();
        let biggest = (0..3)
            .filter(|&a| Some(a) != layer)
            .map(|a| self.size[a])
            .max()
            .unwrap_or(1);
        32 - biggest.leading_zeros() as usize
    }

    /// The texel at `(i, j, k)` of `level` (`k` is the layer of ARRAY2D, `j` of ARRAY1D);
    /// every index must be inside [`Texture::level_size`].
    pub fn texel(&self, level: usize, i: u32, j: u32, k: u32) -> Vec4 {
        let [w, h, _] = self.level_size(level);
        self.levels[level][(k as usize * h as usize + j as usize) * w as usize + i as usize]
    }

    /// Checks the texture's consistency: extents 1..=[`MAX_EXTENT`], unused extents 1,
    /// one to [`Texture::max_levels`] levels (with NEAREST minification the levels past 0
    /// are never sampled, but TXQ counts them), each level holding exactly its number of
    /// texels, REPEAT not used on RECT textures (ARB_texture_rectangle allows only the
    /// clamp modes), and the cube map and depth texture rules of [`targets::check`].
    ///
    /// Errors: one line naming what is wrong (the caller adds the position).
    pub fn check(&self) -> Result<(), String> {
        targets::check(self)?;
        let t = self.target;
        let used = t.dims() + t.layer_axis().is_some() as usize;
        let names = ["width", "height", "depth"];
        for (a, &v) in self.size.iter().enumerate() {
            if a >= used && v != 1 {
                let what = if a == 1 && t == Target::Array1D {
                    "layers"
                } else {
                    names[a]
                };
                return Err(format!("a {t} texture has no {what} (found {v})"));
            }
            if !(1..=MAX_EXTENT).contains(&v) {
                return Err(format!(
                    "{} must be from 1 to {MAX_EXTENT}, found {v}",
                    if Some(a) == t.layer_axis() {
                        "layers"
                    } else {
                        names[a]
                    }
                ));
            }
        }
        if self.levels.is_empty() {
            return Err("a texture needs at least one level".into());
        }
        if self.levels.len() > self.max_levels() {
            return Err(format!(
                "{} levels given but a {t} texture of this size has at most {}",
                self.levels.len(),
                self.max_levels()
            ));
        }
        if t.multisample() && !(1..=MAX_SAMPLES).contains(&self.samples) {
            return Err(format!(
                "a {t} texture has 1 to {MAX_SAMPLES} samples, found {}",
                self.samples
            ));
        }
        if !t.multisample() && self.samples != 1 {
            return Err(format!(
                "a {t} texture is not multisampled (samples must be 1)"
            ));
        }
        for (l, texels) in self.levels.iter().enumerate() {
            let [w, h, d] = self.level_size(l);
            let n = self.level_texels(l);
            if texels.len() != n {
                let per = if t.multisample() {
                    format!(" of {} samples", self.samples)
                } else {
                    String::new()
                };
                return Err(format!(
                    "level {l} has {} texels but a {w}x{h}x{d} level{per} needs {n}",
                    texels.len()
                ));
            }
        }
        if t == Target::Rect && self.wrap.contains(&Wrap::Repeat) {
            return Err("RECT textures take CLAMP_TO_EDGE only (ARB_texture_rectangle)".into());
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tex(target: Target, size: [u32; 3], levels: usize) -> Texture {
        let mut t = Texture {
            target,
            format: Format::Rgba32Ui,
            size,
            wrap: [Wrap::ClampToEdge; 3],
            min_filter: MinFilter::NearestMipmapNearest,
            levels: Vec::new(),
            samples: 1,
            compare: None,
        };
        for l in 0..levels {
            let [w, h, d] = t.level_size(l);
            t.levels.push(vec![[0; 4]; (w * h * d) as usize]);
        }
        t
    }

    #[test]
    fn level_sizes_halve_except_layers() {
        // GL §3.8.8: 5x3 → 2x1 → 1x1; ARRAY2D 4x4 with 6 layers keeps 6 layers.
        let t = tex(Target::T2D, [5, 3, 1], 3);
        assert_eq!(t.level_size(1), [2, 1, 1]);
        assert_eq!(t.level_size(2), [1, 1, 1]);
        assert_eq!(t.max_levels(), 3);
        let a = tex(Target::Array2D, [4, 4, 6], 3);
        assert_eq!(a.level_size(2), [1, 1, 6]);
        assert_eq!(a.max_levels(), 3);
        assert_eq!(tex(Target::Array1D, [8, 5, 1], 1).max_levels(), 4);
        assert!(a.check().is_ok());
    }

    #[test]
    fn check_rejects_bad_shapes() {
        let mut t = tex(Target::T1D, [4, 1, 1], 1);
        t.levels[0].pop();
        assert!(t.check().unwrap_err().contains("level 0 has 3 texels"));
        let t = tex(Target::T1D, [4, 2, 1], 1);
        assert!(t.check().unwrap_err().contains("no height"));
        let t = tex(Target::T2D, [2, 2, 1], 3);
        assert!(t.check().unwrap_err().contains("at most 2"));
        let mut t = tex(Target::Rect, [2, 2, 1], 1);
        t.wrap[0] = Wrap::Repeat;
        assert!(t.check().unwrap_err().contains("CLAMP_TO_EDGE"));
    }

    #[test]
    fn texel_addressing_is_x_fastest() {
        let mut t = tex(Target::T3D, [2, 2, 2], 1);
        for (n, v) in t.levels[0].iter_mut().enumerate() {
            *v = [n as u32; 4];
        }
        // (i, j, k) = (1, 0, 1) is texel 1 + 2 * (0 + 2 * 1) = 5.
        assert_eq!(t.texel(0, 1, 0, 1), [5; 4]);
        assert_eq!(t.texel(0, 0, 1, 0), [2; 4]);
    }

    #[test]
    fn wrap_modes() {
        // GL 4.6 Table 8.20: clamp(i, 0, size-1); repeat: i mod size (non-negative).
        assert_eq!(Wrap::ClampToEdge.apply(-3, 4), 0);
        assert_eq!(Wrap::ClampToEdge.apply(9, 4), 3);
        assert_eq!(Wrap::Repeat.apply(-1, 4), 3);
        assert_eq!(Wrap::Repeat.apply(9, 4), 1);
    }

    #[test]
    fn multisample_layout_and_checks() {
        // ARRAY2DMS 2x1 with 2 layers and 4 samples: one level of 2*1*2*4 = 16 texels;
        // pixel (1, 0) of layer 1 is pixel (1*1 + 0)*2 + 1 = 3, its sample 2 texel 3*4 + 2 = 14.
        let mut t = tex(Target::MsArray2D, [2, 1, 2], 1);
        t.samples = 4;
        t.levels[0] = (0..16).map(|n| [n; 4]).collect();
        assert!(t.check().is_ok());
        assert_eq!(t.sample(1, 0, 1, 2), [14; 4]);
        assert_eq!(t.max_levels(), 1);
        // Too few texels for 4 samples; samples on a single-sampled target; 0 samples.
        t.levels[0].pop();
        assert!(t.check().unwrap_err().contains("of 4 samples needs 16"));
        let mut s = tex(Target::T2D, [2, 1, 1], 1);
        s.samples = 2;
        assert!(s.check().unwrap_err().contains("not multisampled"));
        let mut z = tex(Target::Ms2D, [1, 1, 1], 1);
        z.samples = 0;
        assert!(z.check().unwrap_err().contains("1 to 32 samples"));
    }
}
