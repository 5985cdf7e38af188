//! Structure-of-arrays layout shared by the interpreter core and the ALU.
//!
//! The interpreter runs invocations in chunks of [`LANES`]. A register channel is a
//! [`Plane`] (one 32-bit word per lane), a vec4 operand is [`Vals`] (four planes,
//! channel-major), and sets of lanes are [`Mask`] bits (bit i = lane i of the chunk).

/// Invocations per chunk. A multiple of 4 so fragment quads never straddle chunks.
pub const LANES: usize = shaderdiff_model::check::CHUNK_LANES;
/// One channel across the lanes of a chunk.
pub type Plane = [u32; LANES];
/// A vec4 across the lanes of a chunk: `vals[channel][lane]`.
pub type Vals = [Plane; 4];
/// One bit per lane of a chunk.
pub type Mask = u64;

/// A zeroed [`Vals`].
pub const ZERO_VALS: Vals = [[0; LANES]; 4];

pub use shaderdiff_model::check::FetchType;
