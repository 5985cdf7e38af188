//! Structure-of-arrays layout shared by the interpreter core and the ALU.
//!
//! The interpreter runs invocations in chunks of [`LANES`]. A register channel is a
//! [`Plane`] (one 32-bit word per lane), a vec4 operand is [`Vals`] (four planes,
//! channel-major), and sets of lanes are [`Mask`] bits (bit i = lane i of the chunk).

/// Invocations per chunk. A multiple of 4 so fragment quads never straddle chunks.
pub const LANES: usize = 64;
/// One channel across the lanes of a chunk.
pub type Plane = [u32; LANES];
/// A vec4 across the lanes of a chunk: `vals[channel][lane]`.
pub type Vals = [Plane; 4];
/// One bit per lane of a chunk.
pub type Mask = u64;

/// A zeroed [`Vals`].
pub const ZERO_VALS: Vals = [[0; LANES]; 4];

/// How source modifiers apply to an operand (EXEC-NOTES.md §1, operand fetch):
/// float abs clears bit 31 and float negate flips it; integer abs/negate are two's complement.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FetchType {
    /// Modifiers are float operations.
    Float,
    /// Modifiers are integer operations.
    Int,
}
