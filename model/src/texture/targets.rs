//! Cube maps and depth (SHADOW) textures in the texture model: which IR targets sample which
//! kind of texture, where an instruction finds its depth reference, which instruction and
//! target pairs are invalid, and the consistency rules of cube and depth textures. The
//! sampling semantics are the engines' (the oracle's in `interp::tex_cube` and
//! `interp::tex_shadow`).
//!
//! * **Cube maps** (OpenGL 3.x §3.8.6, NV_gpu_program4 §2.X.4.4): CUBE holds six square
//!   faces per level, CUBEARRAY `layers` cube maps. Texels are stored as for a 2-D array:
//!   `size = [width, width, 6 * layers]`, layer-face `6 * layer + face` with the faces in
//!   the order of the GL's TEXTURE_CUBE_MAP_POSITIVE_X ... NEGATIVE_Z enumerants: +X, -X,
//!   +Y, -Y, +Z, -Z (the layer-face numbering of ARB_texture_cube_map_array). Faces are
//!   sampled with CLAMP_TO_EDGE only: with NEAREST filtering the face coordinates lie in
//!   `[0, 1]` and seamless and non-seamless filtering choose the same texel.
//! * **Depth textures** (OpenGL 3.x §3.8.14-15 "Texture Comparison Modes";
//!   NV_gpu_program4 §2.X.4.4 and its §3.8.14 edit; ARB_fragment_program_shadow): a texture
//!   with a [`CompareFunc`] is a DEPTH_COMPONENT32F texture with TEXTURE_COMPARE_MODE
//!   COMPARE_REF_TO_TEXTURE; its depth `D_t` is the R word of each texel (binary32), the
//!   other words are ignored. Targets 1D, 2D, RECT, ARRAY1D, ARRAY2D, CUBE, CUBEARRAY
//!   (depth textures have no 3-D or buffer form); the format must be RGBA32F.
//! * **SHADOW targets**: SHADOW1D, SHADOW2D, SHADOWRECT, SHADOW1D_ARRAY, SHADOW2D_ARRAY,
//!   SHADOWCUBE, SHADOWCUBEARRAY sample the 1D ... CUBEARRAY texture of the unit with the
//!   comparison ([`sampled`]); the reference is in `z` for SHADOW1D, SHADOW2D, SHADOWRECT,
//!   SHADOW1D_ARRAY and `w` for SHADOW2D_ARRAY and SHADOWCUBE (tgsi.rst TEX, TEXT-FORMAT.md
//!   §11.2, NV_gpu_program4 Table X.17 "shadow" column); SHADOWCUBEARRAY keeps it in
//!   TEX2 / TXB2 / TXL2's `src1`, which the model does not run.

use shaderdiff_model::{Opcode, TexTarget as Ir};

use super::{Format, Target, Texture, Wrap, MAX_EXTENT};

/// TEXTURE_COMPARE_FUNC (OpenGL 3.x §3.8.14-15, Table 3.27 of GL 3.0; EXT_shadow_funcs):
/// the comparison of the reference `R` with the texture's depth `D_t`, giving 1.0 when it
/// holds and 0.0 otherwise.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CompareFunc {
    /// `R <= D_t`.
    Lequal,
    /// `R >= D_t`.
    Gequal,
    /// `R < D_t`.
    Less,
    /// `R > D_t`.
    Greater,
    /// `R == D_t`.
    Equal,
    /// `R != D_t`.
    Notequal,
    /// Always 1.0.
    Always,
    /// Always 0.0.
    Never,
}

impl CompareFunc {
    /// Every function, in the order of [`CompareFunc::name`].
    pub const ALL: [CompareFunc; 8] = [
        CompareFunc::Lequal,
        CompareFunc::Gequal,
        CompareFunc::Less,
        CompareFunc::Greater,
        CompareFunc::Equal,
        CompareFunc::Notequal,
        CompareFunc::Always,
        CompareFunc::Never,
    ];

    /// The inputs file spelling (the GL enumerant without `GL_`): `LEQUAL`, `GEQUAL`,
    /// `LESS`, `GREATER`, `EQUAL`, `NOTEQUAL`, `ALWAYS`, `NEVER`.
    pub fn name(self) -> &'static str {
        match self {
            CompareFunc::Lequal => "LEQUAL",
            CompareFunc::Gequal => "GEQUAL",
            CompareFunc::Less => "LESS",
            CompareFunc::Greater => "GREATER",
            CompareFunc::Equal => "EQUAL",
            CompareFunc::Notequal => "NOTEQUAL",
            CompareFunc::Always => "ALWAYS",
            CompareFunc::Never => "NEVER",
        }
    }

    /// Looks a spelling up (exact, upper case).
    pub fn from_name(s: &str) -> Option<CompareFunc> {
        CompareFunc::ALL.into_iter().find(|f| f.name() == s)
    }
}

/// The kind of texture an instruction target samples and whether it compares depths:
/// the modelled targets as themselves, SHADOW1D ... SHADOWCUBEARRAY as 1D ... CUBEARRAY
/// with `true`; `None` for multisample and unknown targets.
pub fn sampled(t: Ir) -> Option<(Target, bool)> {
    if let Some(m) = Target::of_ir(t) {
        return Some((m, false));
    }
    let base = match t {
        Ir::Shadow1D => Target::T1D,
        Ir::Shadow2D => Target::T2D,
        Ir::ShadowRect => Target::Rect,
        Ir::Shadow1DArray => Target::Array1D,
        Ir::Shadow2DArray => Target::Array2D,
        Ir::ShadowCube => Target::Cube,
        Ir::ShadowCubeArray => Target::CubeArray,
        _ => return None,
    };
    Some((base, true))
}

/// The source component holding the depth reference of a SHADOW target (module docs):
/// 2 (`z`) or 3 (`w`); `None` for other targets and for SHADOWCUBEARRAY.
pub fn reference_component(t: Ir) -> Option<usize> {
    match t {
        Ir::Shadow1D | Ir::Shadow2D | Ir::ShadowRect | Ir::Shadow1DArray => Some(2),
        Ir::Shadow2DArray | Ir::ShadowCube => Some(3),
        _ => None,
    }
}

/// Why an instruction cannot run with a target ([`instruction_rule`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Rule {
    /// The program is invalid (exit 2): the specs forbid the pair.
    Invalid(String),
    /// The pair is valid but outside the model (exit 3).
    Unsupported(String),
}

/// The rules for cube and SHADOW targets of texture instruction `op` (with a texel offset
/// operand when `offset`) on target `t`; `None` when it may run. Sources:
///
/// * TXF on a cube or SHADOW target: invalid (NV_gpu_program4 Table X.18 "Single texel
///   fetches can not perform depth comparisons or access cubemaps"; tgsi.rst TXF "may not be
///   a CUBE or SHADOW").
/// * TXB and TXL on CUBEARRAY, SHADOWCUBE, SHADOW2D_ARRAY, and TXP on SHADOWCUBE,
///   SHADOW2D_ARRAY: invalid, the operand has no room for both the bias / level / divisor
///   and the reference or layer (tgsi.rst TXB, TXL: TXB2 / TXL2 "must be used"; NV §2.X.8.Z
///   TXB, TXL, TXP "will fail to load").
/// * Any sampling instruction on SHADOWCUBEARRAY: invalid, its reference goes in TEX2 /
///   TXB2 / TXL2's `src1` (tgsi.rst TEX), which the model does not run.
/// * A texel offset on a cube target: invalid (NV_gpu_program4 §2.X.4.4: "texel offsets
///   are not supported for cube map ... textures").
/// * TG4 on cube or SHADOW targets and TXP on CUBEARRAY (its `w` would be both the divisor
///   and the layer): not modelled.
pub fn instruction_rule(op: Opcode, t: Ir, offset: bool) -> Option<Rule> {
    let (base, shadow) = sampled(t)?;
    let cube = matches!(base, Target::Cube | Target::CubeArray);
    if !cube && !shadow {
        return None;
    }
    let invalid = |why: &str| Some(Rule::Invalid(format!("{op} with a {t} target: {why}")));
    match op {
        Opcode::TXQ => return None,
        Opcode::TXF => {
            return invalid(
                "texel fetches cannot compare depths or access cube maps (NV_gpu_program4 \
                 Table X.18; tgsi.rst TXF)",
            )
        }
        Opcode::TG4 => {
            return Some(Rule::Unsupported(format!(
                "TG4 with a {t} target is not modelled"
            )))
        }
        // The implicit level of detail of a cube map (derivatives of the face coordinates)
        // is not modelled (`interp::tex_lod` takes a quad's derivatives of s, t, r).
        Opcode::LODQ => {
            return Some(Rule::Unsupported(format!(
                "LODQ with a {t} target is not modelled"
            )))
        }
        _ => {}
    }
    if t == Ir::ShadowCubeArray {
        return invalid("the reference goes in TEX2 / TXB2 / TXL2's src1 (tgsi.rst TEX)");
    }
    let crowded = match op {
        Opcode::TXB | Opcode::TXL => {
            matches!(t, Ir::CubeArray | Ir::ShadowCube | Ir::Shadow2DArray)
        }
        Opcode::TXP => matches!(t, Ir::ShadowCube | Ir::Shadow2DArray),
        _ => false,
    };
    if crowded {
        return invalid(
            "the operand has no room for both the reference or layer and the bias, level or \
             divisor (tgsi.rst TXB / TXL; NV_gpu_program4 §2.X.8.Z TXB, TXL, TXP)",
        );
    }
    if op == Opcode::TXP && t == Ir::CubeArray {
        return Some(Rule::Unsupported(
            "TXP with a CUBEARRAY target (w both the divisor and the layer) is not modelled".into(),
        ));
    }
    if offset && cube {
        return invalid("texel offsets are not supported for cube maps (NV_gpu_program4 §2.X.4.4)");
    }
    None
}

/// The cube map and depth texture rules of [`Texture::check`] (module docs): square faces,
/// 6 layer-faces per cube, CLAMP_TO_EDGE on cube maps; a compare function only on RGBA32F
/// textures of the depth targets.
pub(super) fn check(tex: &Texture) -> Result<(), String> {
    let t = tex.target;
    if matches!(t, Target::Cube | Target::CubeArray) {
        let [w, h, faces] = tex.size;
        if w != h {
            return Err(format!(
                "cube map faces are square: height {h} differs from width {w}"
            ));
        }
        if faces == 0 || faces % 6 != 0 || (t == Target::Cube && faces != 6) {
            return Err(format!(
                "a {t} texture has 6 faces per cube, found {faces} layer-faces"
            ));
        }
        if faces / 6 > MAX_EXTENT / 6 {
            return Err(format!(
                "layers must be from 1 to {} for a CUBEARRAY texture, found {}",
                MAX_EXTENT / 6,
                faces / 6
            ));
        }
        if tex.wrap.contains(&Wrap::Repeat) {
            return Err(
                "cube map textures take CLAMP_TO_EDGE only (their faces are \
                        sampled within [0, 1])"
                    .into(),
            );
        }
    }
    if let Some(f) = tex.compare {
        if matches!(t, Target::T3D | Target::Buffer) {
            return Err(format!(
                "a {t} texture cannot be a depth texture (compare_func {})",
                f.name()
            ));
        }
        if tex.format != Format::Rgba32F {
            return Err(format!(
                "a depth texture (compare_func {}) has format RGBA32F (the depth is the R \
                 word), found {}",
                f.name(),
                tex.format.name()
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shadow_targets_sample_their_base_with_the_reference() {
        // Table X.17 "shadow" column / tgsi.rst TEX: z for 1D, 2D, RECT, 1D arrays; w for
        // 2D arrays and cube maps.
        assert_eq!(sampled(Ir::Shadow2D), Some((Target::T2D, true)));
        assert_eq!(sampled(Ir::ShadowCube), Some((Target::Cube, true)));
        assert_eq!(sampled(Ir::CubeArray), Some((Target::CubeArray, false)));
        assert_eq!(sampled(Ir::Msaa2D), Some((Target::Ms2D, false)));
        assert_eq!(sampled(Ir::Unknown), None);
        assert_eq!(reference_component(Ir::Shadow1D), Some(2));
        assert_eq!(reference_component(Ir::Shadow1DArray), Some(2));
        assert_eq!(reference_component(Ir::Shadow2DArray), Some(3));
        assert_eq!(reference_component(Ir::ShadowCube), Some(3));
        assert_eq!(reference_component(Ir::ShadowCubeArray), None);
        assert_eq!(
            CompareFunc::from_name("NOTEQUAL"),
            Some(CompareFunc::Notequal)
        );
        assert_eq!(CompareFunc::from_name("lequal"), None);
    }

    #[test]
    fn instruction_rules() {
        let inv = |op, t, off| matches!(instruction_rule(op, t, off), Some(Rule::Invalid(_)));
        // Table X.18: no TXF on CUBE or SHADOW targets; TXQ is fine.
        assert!(inv(Opcode::TXF, Ir::Cube, false));
        assert!(inv(Opcode::TXF, Ir::Shadow2D, false));
        assert_eq!(instruction_rule(Opcode::TXQ, Ir::ShadowCube, false), None);
        // NV TXB / TXL / TXP "fail to load" with SHADOWCUBE, SHADOWARRAY2D.
        assert!(inv(Opcode::TXB, Ir::ShadowCube, false));
        assert!(inv(Opcode::TXL, Ir::Shadow2DArray, false));
        assert!(inv(Opcode::TXP, Ir::ShadowCube, false));
        assert!(inv(Opcode::TXL, Ir::CubeArray, false));
        assert_eq!(instruction_rule(Opcode::TXL, Ir::Shadow2D, false), None);
        assert_eq!(instruction_rule(Opcode::TXB, Ir::Cube, false), None);
        assert_eq!(instruction_rule(Opcode::TEX, Ir::CubeArray, false), None);
        // TEX2 must carry SHADOWCUBEARRAY's reference; offsets never on cubes.
        assert!(inv(Opcode::TEX, Ir::ShadowCubeArray, false));
        assert!(inv(Opcode::TEX, Ir::Cube, true));
        assert_eq!(instruction_rule(Opcode::TEX, Ir::Shadow2D, true), None);
        assert!(matches!(
            instruction_rule(Opcode::TG4, Ir::Cube, false),
            Some(Rule::Unsupported(_))
        ));
        // Plain targets have no rule here.
        assert_eq!(instruction_rule(Opcode::TXF, Ir::T2D, false), None);
    }

    fn tex(target: Target, size: [u32; 3]) -> Texture {
        Texture::filled(
            target,
            Format::Rgba32F,
            size,
            1,
            Wrap::ClampToEdge,
            |_, _| [0; 4],
        )
    }

    #[test]
    fn cube_and_depth_texture_checks() {
        assert!(tex(Target::Cube, [2, 2, 6]).check().is_ok());
        assert!(tex(Target::CubeArray, [2, 2, 12]).check().is_ok());
        assert!(tex(Target::Cube, [2, 1, 6])
            .check()
            .unwrap_err()
            .contains("square"));
        assert!(tex(Target::CubeArray, [2, 2, 8])
            .check()
            .unwrap_err()
            .contains("6 faces"));
        let mut r = tex(Target::Cube, [2, 2, 6]);
        r.wrap[1] = Wrap::Repeat;
        assert!(r.check().unwrap_err().contains("CLAMP_TO_EDGE"));
        let mut d = tex(Target::T3D, [2, 2, 2]);
        d.compare = Some(CompareFunc::Less);
        assert!(d.check().unwrap_err().contains("depth texture"));
        let mut u = tex(Target::T2D, [2, 2, 1]);
        u.compare = Some(CompareFunc::Less);
        assert!(u.check().is_ok());
        u.format = Format::Rgba32Ui;
        assert!(u.check().unwrap_err().contains("RGBA32F"));
    }
}
