//! Implementation limits on binding indices (ARB_vertex_program §2.14.3.7 and
//! ARB_fragment_program §3.11.6 "resource limits": "A program that exceeds any of these
//! resource limits will fail to load"; the grammar's `<integer> from 0 to MAX_..-1` ranges
//! of `<vtxAttribNum>`, `<texCoordNum>`, `<clipPlaneNum>`, `<stateLightNumber>`, ...).
//!
//! Three profiles ([`LimitProfile`]): `spec` (the default) is the smallest maximum every
//! conforming implementation must offer; `nvidia` and `mesa` are the values of those two
//! implementations. The table and where each number comes from are in docs/frontends.md.
// Numbers here come from user input (program text, inputs files, machine code): no
// arithmetic may wrap or panic unnoticed.
#![warn(clippy::arithmetic_side_effects)]

use std::fmt;
use std::str::FromStr;

use super::ast::{Header, NvStage};

/// Which implementation's limits a program is checked against.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum LimitProfile {
    /// The specs' minimum maxima (what every conforming implementation supports).
    #[default]
    Spec,
    /// NVIDIA's OpenGL driver (docs/frontends.md says which values are measured).
    Nvidia,
    /// Mesa (src/mesa/main/config.h and the gallium llvmpipe caps).
    Mesa,
}

impl LimitProfile {
    /// Every profile with its command-line name.
    pub const ALL: [(&'static str, LimitProfile); 3] = [
        ("spec", LimitProfile::Spec),
        ("nvidia", LimitProfile::Nvidia),
        ("mesa", LimitProfile::Mesa),
    ];

    /// The command-line name (`spec`, `nvidia`, `mesa`).
    pub fn name(self) -> &'static str {
        match self {
            LimitProfile::Spec => "spec",
            LimitProfile::Nvidia => "nvidia",
            LimitProfile::Mesa => "mesa",
        }
    }
}

impl fmt::Display for LimitProfile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for LimitProfile {
    type Err = String;
    /// Errors: a name other than `spec`, `nvidia`, `mesa`.
    fn from_str(s: &str) -> Result<Self, String> {
        Self::ALL
            .iter()
            .find(|(n, _)| *n == s)
            .map(|&(_, p)| p)
            .ok_or_else(|| format!("unknown limits profile `{s}` (expected spec, nvidia or mesa)"))
    }
}

/// The limits of one program type under one profile. Each value is a count: valid indices
/// are `0..count`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// MAX_PROGRAM_ENV_PARAMETERS_ARB (`program.env[n]`).
    pub env_params: u32,
    /// MAX_PROGRAM_LOCAL_PARAMETERS_ARB (`program.local[n]`).
    pub local_params: u32,
    /// MAX_VERTEX_ATTRIBS_ARB (`vertex.attrib[n]`, `result.attrib[n]`, `fragment.attrib[n]`).
    pub attribs: u32,
    /// MAX_TEXTURE_COORDS_ARB (`texcoord[n]`, `state.matrix.texture[n]`, `state.texgen[n]`,
    /// `state.texenv[n]`).
    pub texcoords: u32,
    /// MAX_TEXTURE_IMAGE_UNITS_ARB (`texture[n]`).
    pub image_units: u32,
    /// MAX_CLIP_PLANES (`result.clip[n]`, `state.clip[n]`, `fragment.clip[n]`).
    pub clip_planes: u32,
    /// MAX_LIGHTS (`state.light[n]`, `state.lightprod[n]`).
    pub lights: u32,
    /// MAX_PROGRAM_MATRICES_ARB (`state.matrix.program[n]`).
    pub program_matrices: u32,
    /// MAX_DRAW_BUFFERS (`result.color[n]` of fragment programs).
    pub draw_buffers: u32,
    /// MAX_VERTEX_UNITS_ARB (`vertex.weight[n]`, `vertex.matrixindex[n]`,
    /// `state.matrix.modelview[n]`).
    pub vertex_units: u32,
    /// MAX_PROGRAM_ADDRESS_REGISTERS_ARB (ADDRESS variables of ARB vertex programs).
    pub address_regs: u32,
    /// MAX_VERTEX_TEXTURE_IMAGE_UNITS_ARB: distinct texture units one vertex program may use
    /// (NV_vertex_program3 §2.14.3.7).
    pub vertex_texture_units: u32,
}

impl Limits {
    /// The limits of programs with header `h` under `profile` (docs/frontends.md has the
    /// table with its sources).
    pub fn of(profile: LimitProfile, h: Header) -> Limits {
        let vertex = h.stage == NvStage::Vertex;
        match profile {
            // ARB_vertex_program Table X.9 / ARB_fragment_program Table X.10 minimum values
            // (env/local 96 vertex, 24 fragment; 16 attributes; 8 program matrices; one
            // address register); MAX_CLIP_PLANES 6 and MAX_LIGHTS 8 (OpenGL 2.0 Table 6.35);
            // MAX_VERTEX_UNITS_ARB 2 (ARB_vertex_blend); MAX_VERTEX_TEXTURE_IMAGE_UNITS 1
            // (NV_vertex_program3). Texture coordinate sets, image units and draw buffers
            // take OpenGL 3.0's minima (8, 16, 8): see docs/frontends.md for why the ARB
            // texts' 2 is not used.
            LimitProfile::Spec => Limits {
                env_params: if vertex { 96 } else { 24 },
                local_params: if vertex { 96 } else { 24 },
                attribs: 16,
                texcoords: 8,
                image_units: 16,
                clip_planes: 6,
                lights: 8,
                program_matrices: 8,
                draw_buffers: 8,
                vertex_units: 2,
                address_regs: 1,
                vertex_texture_units: 1,
            },
            // Not measured here (no GPU): values NVIDIA's GL 4.6 drivers report for the
            // GeForce 8 and later program targets (docs/frontends.md).
            LimitProfile::Nvidia => Limits {
                env_params: 256,
                local_params: 1024,
                attribs: 16,
                texcoords: 8,
                image_units: 32,
                clip_planes: 8,
                lights: 8,
                program_matrices: 8,
                draw_buffers: 8,
                vertex_units: 1,
                address_regs: 2,
                vertex_texture_units: 32,
            },
            // Mesa src/mesa/main/config.h: MAX_PROGRAM_ENV_PARAMS 256,
            // MAX_PROGRAM_LOCAL_PARAMS 4096, MAX_TEXTURE_IMAGE_UNITS 32, MAX_CLIP_PLANES 8,
            // MAX_LIGHTS 8, MAX_PROGRAM_MATRICES 8, MAX_VERTEX_PROGRAM_ADDRESS_REGS 1;
            // MAX_TEXTURE_COORD_UNITS 8, MAX_VERTEX_GENERIC_ATTRIBS 16, MAX_DRAW_BUFFERS 8;
            // no ARB_vertex_blend (one vertex unit).
            LimitProfile::Mesa => Limits {
                env_params: 256,
                local_params: 4096,
                attribs: 16,
                texcoords: 8,
                image_units: 32,
                clip_planes: 8,
                lights: 8,
                program_matrices: 8,
                draw_buffers: 8,
                vertex_units: 1,
                address_regs: 1,
                vertex_texture_units: 32,
            },
        }
    }

    /// The limit on the index of binding segment `name` (after the segments `path` before
    /// it), with the constant's name; `None` if the segment has no limit here.
    pub(crate) fn for_segment(
        &self,
        stage: NvStage,
        path: &[&str],
        name: &str,
    ) -> Option<(u32, &'static str)> {
        let root = path.first().copied().unwrap_or(name);
        let state = root == "state";
        Some(match name {
            "env" if root == "program" => (self.env_params, "MAX_PROGRAM_ENV_PARAMETERS_ARB"),
            "local" if root == "program" => (self.local_params, "MAX_PROGRAM_LOCAL_PARAMETERS_ARB"),
            "attrib" if path.last() != Some(&"patch") => (self.attribs, "MAX_VERTEX_ATTRIBS_ARB"),
            "texcoord" => (self.texcoords, "MAX_TEXTURE_COORDS_ARB"),
            "texture" if state => (self.texcoords, "MAX_TEXTURE_COORDS_ARB"),
            "texgen" | "texenv" => (self.texcoords, "MAX_TEXTURE_COORDS_ARB"),
            "texture" if path.is_empty() => (self.image_units, "MAX_TEXTURE_IMAGE_UNITS_ARB"),
            "clip" => (self.clip_planes, "MAX_CLIP_PLANES"),
            "light" | "lightprod" => (self.lights, "MAX_LIGHTS"),
            "program" if state => (self.program_matrices, "MAX_PROGRAM_MATRICES_ARB"),
            "color" if root == "result" && stage == NvStage::Fragment => {
                (self.draw_buffers, "MAX_DRAW_BUFFERS_ARB")
            }
            "weight" | "matrixindex" => (self.vertex_units, "MAX_VERTEX_UNITS_ARB"),
            "modelview" if state => (self.vertex_units, "MAX_VERTEX_UNITS_ARB"),
            _ => return None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn profiles_parse_by_name() {
        assert_eq!("spec".parse(), Ok(LimitProfile::Spec));
        assert_eq!("mesa".parse(), Ok(LimitProfile::Mesa));
        assert_eq!("nvidia".parse(), Ok(LimitProfile::Nvidia));
        assert!("amd".parse::<LimitProfile>().is_err());
        assert_eq!(LimitProfile::default(), LimitProfile::Spec);
    }

    #[test]
    fn spec_minima_follow_the_state_tables() {
        let vp = Limits::of(LimitProfile::Spec, Header::from_text("!!ARBvp1.0").unwrap());
        let fp = Limits::of(LimitProfile::Spec, Header::from_text("!!ARBfp1.0").unwrap());
        // ARB_vertex_program: MAX_PROGRAM_ENV_PARAMETERS_ARB at least 96; 16 attributes.
        assert_eq!((vp.env_params, vp.local_params, vp.attribs), (96, 96, 16));
        // ARB_fragment_program: env and local parameters at least 24.
        assert_eq!((fp.env_params, fp.local_params), (24, 24));
        // ARB_vertex_program: MAX_PROGRAM_ADDRESS_REGISTERS_ARB at least 1.
        assert_eq!(vp.address_regs, 1);
    }
}
