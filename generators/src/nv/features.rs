//! The knobs of the random NV generator: how often a program is a geometry or compute
//! program and how often it uses memory, textures, votes and BRA (`emit/extra.rs`,
//! `emit/branch.rs`, `emit/stage.rs`), and what a program's resources look like, so its
//! inputs can be built to match ([`Resources`]).

use shaderdiff_model::texture::{Format, Target, Wrap};

/// Percent probabilities of the features of a random NV program. Each is drawn once per
/// program, from the program's own stream, only when its knob is above 0 (so
/// [`NvFeatures::NONE`] draws nothing and gives exactly the ALU-only programs of
/// `nv-0.1.0`'s builder).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NvFeatures {
    /// `!!NVgp5.0` geometry programs (PRIMITIVE_IN / PRIMITIVE_OUT / VERTICES_OUT,
    /// `vertex[m].attrib[n]` inputs, EMIT / ENDPRIM; NV_geometry_program4), of all NV
    /// programs.
    pub geometry: u32,
    /// `!!NVcp5.0` compute programs (GROUP_SIZE, `invocation.*` bindings; results stored
    /// to global memory or a STORAGE buffer; NV_compute_program5), of all NV programs.
    pub compute: u32,
    /// Compute programs whose results go to a STORAGE buffer instead of global memory
    /// (`emit/stage.rs`), of compute programs: they use no global memory, parameter buffer
    /// or texture, so engine `nvidia` dispatches them (NV_shader_storage_buffer_object's
    /// buffers are bound by binding point; global addresses are the driver's).
    pub storage_compute: u32,
    /// Global memory (LOAD, STORE, ATOM, MEMBAR on a 32- or 64-bit address;
    /// NV_gpu_program5 §2.X.4.5) in NV programs other than compute (which always have it).
    pub global_memory: u32,
    /// Shared memory (SHARED_MEMORY, LDS, STS, ATOMS, BAR) in compute programs.
    pub shared_memory: u32,
    /// A CBUFFER read with LDC (NV_parameter_buffer_object2).
    pub cbuffer: u32,
    /// A STORAGE buffer with LDB, STB, ATOMB (NV_shader_storage_buffer_object).
    pub storage: u32,
    /// A texture unit with TEX, TXB, TXP, TXL, TXF, TXQ (NV_gpu_program4 §2.X.4.4).
    pub texture: u32,
    /// Thread-group votes TGALL, TGANY, TGEQ (NV_gpu_program5 §2.X.8.Z).
    pub vote: u32,
    /// BRA to labels in ARB vertex programs with `OPTION NV_vertex_program2;`
    /// (NV_vertex_program2_option; NV headers have no BRA): forward branches and counted
    /// backward loops, of ARB vertex programs.
    pub branch: u32,
}

impl NvFeatures {
    /// No feature: vertex and fragment ALU programs only (the `nv-0.1.0` programs; the
    /// libFuzzer target's programs, [`super::NvFuzzProgram`]).
    pub const NONE: NvFeatures = NvFeatures {
        geometry: 0,
        compute: 0,
        storage_compute: 0,
        global_memory: 0,
        shared_memory: 0,
        cbuffer: 0,
        storage: 0,
        texture: 0,
        vote: 0,
        branch: 0,
    };
}

impl Default for NvFeatures {
    /// What `gen --lang nv` and `fuzz --lang nv` use: 15 % geometry and 15 % compute
    /// programs, half of the compute programs with their results in a STORAGE buffer (the
    /// other half in global memory); global memory in 25 % of the others; shared memory in
    /// half of the compute programs; CBUFFER 20 %, STORAGE 15 %, a texture 25 %, votes 20 %, BRA 20 %.
    fn default() -> NvFeatures {
        NvFeatures {
            geometry: 15,
            compute: 15,
            storage_compute: 50,
            global_memory: 25,
            shared_memory: 50,
            cbuffer: 20,
            storage: 15,
            texture: 25,
            vote: 20,
            branch: 50,
        }
    }
}

/// Base address of the global memory region of a program with 32-bit addresses.
pub const GLOBAL_BASE_32: u64 = 0x1000;
/// Base address of the region of a program with 64-bit addresses (above 4 GiB, so both
/// words of the address matter).
pub const GLOBAL_BASE_64: u64 = 0x1_0000_1000;
/// Bytes of a CBUFFER binding point's contents.
pub const CBUFFER_BYTES: usize = 64;
/// Bytes of a STORAGE buffer (the data and atomic areas of `emit/extra.rs`).
pub const STORAGE_BYTES: usize = 96;
/// Bytes of the global region before the compute result slots (data and atomic areas).
pub const GLOBAL_HEAD_BYTES: usize = 128;

/// One texture unit a program samples: its unit number and the texture the inputs give it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TextureSpec {
    /// `texture[unit]`.
    pub unit: u32,
    /// The target every instruction on the unit names.
    pub target: Target,
    /// The texel format (matched by the instructions' data type modifier most of the time).
    pub format: Format,
    /// Width, height, depth or layers (1 where the target has no such axis).
    pub size: [u32; 3],
    /// Mipmap levels (1 for RECT and BUFFER).
    pub levels: usize,
    /// Wrap mode (CLAMP_TO_EDGE for RECT).
    pub wrap: Wrap,
}

/// What a generated program's inputs must provide beyond its attributes and parameters.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Resources {
    /// The global memory region: base address and length in bytes.
    pub global: Option<(u64, usize)>,
    /// `program.buffer[n]` of a CBUFFER.
    pub cbuffer: Option<u32>,
    /// `program.storage[n]` of a STORAGE buffer.
    pub storage: Option<u32>,
    /// Bytes of one invocation's result slot in the STORAGE buffer, after its
    /// [`STORAGE_BYTES`] (compute programs with STORAGE results; 0 otherwise).
    pub storage_slot: usize,
    /// Texture units.
    pub textures: Vec<TextureSpec>,
}
