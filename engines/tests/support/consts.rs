//! Named binary32 bit patterns and integer words used by the tables, written by hand.

pub const ZERO: u32 = 0x0000_0000;
pub const NEG_ZERO: u32 = 0x8000_0000;
pub const ONE: u32 = 0x3F80_0000;
pub const NEG_ONE: u32 = 0xBF80_0000;
pub const TWO: u32 = 0x4000_0000;
pub const NEG_TWO: u32 = 0xC000_0000;
pub const THREE: u32 = 0x4040_0000;
pub const FOUR: u32 = 0x4080_0000;
pub const HALF: u32 = 0x3F00_0000;
pub const NEG_HALF: u32 = 0xBF00_0000;
pub const QUARTER: u32 = 0x3E80_0000;
pub const ONE_HALF: u32 = 0x3FC0_0000; // 1.5
pub const NEG_ONE_HALF: u32 = 0xBFC0_0000; // -1.5
pub const TWO_HALF: u32 = 0x4020_0000; // 2.5
pub const NEG_TWO_HALF: u32 = 0xC020_0000; // -2.5
pub const EIGHT: u32 = 0x4100_0000;
pub const INF: u32 = 0x7F80_0000;
pub const NEG_INF: u32 = 0xFF80_0000;
/// A quiet NaN. As an expected float value it means "any NaN".
pub const NAN: u32 = 0x7FC0_0000;
/// Largest finite binary32.
pub const FLT_MAX: u32 = 0x7F7F_FFFF;
/// Smallest positive denormal, 2^-149.
pub const DENORM_MIN: u32 = 0x0000_0001;
/// Largest-magnitude negative denormal, -(2^-126 - 2^-149).
pub const NEG_DENORM_MAX: u32 = 0x807F_FFFF;
pub const INT_MIN: u32 = 0x8000_0000;
pub const INT_MAX: u32 = 0x7FFF_FFFF;
pub const UINT_MAX: u32 = 0xFFFF_FFFF;
/// `~0`, the "true" of the integer set opcodes.
pub const TRUE: u32 = 0xFFFF_FFFF;
/// Placeholder expected value for undefined results (the value is not checked).
pub const ANY: u32 = 0;

/// The bits of an f32.
pub fn f(x: f32) -> u32 {
    x.to_bits()
}

/// A vec4 of f32 bits.
pub fn fv(v: [f32; 4]) -> [u32; 4] {
    v.map(f32::to_bits)
}

/// Two's-complement word of `x`.
pub const fn n(x: i32) -> u32 {
    x as u32
}
