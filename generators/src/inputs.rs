//! Input values for generated (or any) programs: every declared `IN`, `SV` and `CONST`
//! register gets a value per channel, drawn half from [`SPECIAL_WORDS`] and powers of two
//! and half as random bits (INTERFACE.md "The inputs file").

use shaderdiff_model::{DeclDimension, File, Program, Stage};
use shaderdiff_model::{Inputs, RegKey, Vec4};

use crate::choices::Choices;

/// Special 32-bit channel words with what they are as a float and as an integer
/// (IEEE 754 binary32 encodings and two's complement).
pub const SPECIAL_WORDS: &[(u32, &str)] = &[
    (0x0000_0000, "+0.0 / 0"),
    (0x8000_0000, "-0.0 / INT_MIN"),
    (0x7f80_0000, "+inf"),
    (0xff80_0000, "-inf"),
    (0x7fc0_0000, "quiet NaN"),
    (0xffc0_0000, "-quiet NaN"),
    (0x7fc0_0001, "quiet NaN, payload 1"),
    (0xffc0_1234, "-quiet NaN, payload 0x1234"),
    (0x7fff_ffff, "quiet NaN, all payload bits / INT_MAX"),
    (0x7f80_0001, "signalling NaN, payload 1"),
    (0x7fbf_ffff, "signalling NaN, all payload bits"),
    (0xff80_0001, "-signalling NaN, payload 1"),
    (0xffbf_ffff, "-signalling NaN, all payload bits"),
    (0x0000_0001, "smallest denormal / 1"),
    (0x8000_0001, "-smallest denormal / INT_MIN + 1"),
    (0x007f_ffff, "largest denormal"),
    (0x807f_ffff, "-largest denormal"),
    (0x0080_0000, "FLT_MIN"),
    (0x8080_0000, "-FLT_MIN"),
    (0x7f7f_ffff, "FLT_MAX"),
    (0xff7f_ffff, "-FLT_MAX"),
    (0xffff_ffff, "UINT_MAX / -1 / -NaN"),
    (0x0000_0002, "2"),
    (0x0000_001f, "31"),
    (0x0000_0020, "32"),
    (0x3f80_0000, "1.0"),
    (0xbf80_0000, "-1.0"),
    (0x3f00_0000, "0.5"),
    (0xbf00_0000, "-0.5"),
    (0x4000_0000, "2.0"),
    (0x3fc0_0000, "1.5"),
    (0x4020_0000, "2.5"),
    (0x3eff_ffff, "0.49999997"),
    (0x4b80_0000, "2^24"),
    (0x4f00_0000, "2^31"),
    (0xcf00_0000, "-2^31"),
    (0x4f80_0000, "2^32"),
    (0x4040_0000, "3.0"),
    (0x4049_0fdb, "pi"),
    (0x477f_e000, "65504.0 (largest binary16)"),
];

/// A special word: usually one of [`SPECIAL_WORDS`], sometimes a power of two as a float
/// (2^-149..2^127, either sign) or as an integer (1 << 0..31).
pub fn special_word(c: &mut Choices) -> u32 {
    match c.below(8) {
        0 => {
            let e = c.below(277) as i32 - 149; // -149..=127
            let sign = if c.chance(50) { 0x8000_0000 } else { 0 };
            let mag = if e >= -126 {
                ((e + 127) as u32) << 23
            } else {
                1u32 << (e + 149) as u32 // denormal powers of two
            };
            sign | mag
        }
        1 => 1u32 << c.below(32),
        _ => SPECIAL_WORDS[c.below(SPECIAL_WORDS.len())].0,
    }
}

/// One channel word: a special word or random bits, with equal probability.
pub fn channel_word(c: &mut Choices) -> u32 {
    if c.chance(50) {
        special_word(c)
    } else {
        c.raw()
    }
}

fn vec4(c: &mut Choices) -> Vec4 {
    [0; 4].map(|_| channel_word(c))
}

/// Inputs for `program`: a value for every channel of every `IN` and `SV` register it
/// declares (one vec4 per invocation) and of every `CONST` register it declares (uniform),
/// drawn from `c` with [`channel_word`], in declaration order.
///
/// `invocations` is rounded up to a multiple of 4 for fragment programs (whole quads,
/// INTERFACE.md "Fragment quads") and to at least 1. Geometry programs' per-vertex inputs
/// (`IN[][i]`) get a value for every vertex of the input primitive (`IN[v][i]`,
/// `GS_INPUT_PRIMITIVE`); other registers with a vertex dimension (tessellation) are left
/// unset (zero). Every declared `BUFFER[n]` and `MEMORY[n]` gets [`RESOURCE_BYTES`] bytes,
/// one [`channel_word`] per dword, little-endian (INTERFACE.md `buffers`; SHARED memory:
/// the contents every workgroup's copy starts with).
pub fn inputs_for(program: &Program, c: &mut Choices, invocations: usize) -> Inputs {
    let mut n = invocations.max(1);
    if program.stage == Stage::Fragment {
        n = n.div_ceil(4) * 4;
    }
    let mut inputs = Inputs {
        invocations: n,
        ..Inputs::default()
    };
    for d in &program.declarations {
        match d.file {
            File::Input | File::SystemValue if d.dimension.is_none() => {
                for i in d.first..=d.last {
                    let v = (0..n).map(|_| vec4(c)).collect();
                    inputs.registers.insert(RegKey::new(d.file, i), v);
                }
            }
            File::Input if d.dimension == Some(DeclDimension::Implied) => {
                let Some(verts) = program.gs_input_vertices() else {
                    continue;
                };
                for vertex in 0..verts {
                    for i in d.first..=d.last {
                        let key = RegKey {
                            file: File::Input,
                            dimension: Some(vertex),
                            index: i,
                        };
                        let v = (0..n).map(|_| vec4(c)).collect();
                        inputs.registers.insert(key, v);
                    }
                }
            }
            File::Const => {
                let dimension = match d.dimension {
                    None => None,
                    Some(DeclDimension::Index(b)) => Some(b),
                    Some(DeclDimension::Implied) => continue,
                };
                for i in d.first..=d.last {
                    let key = RegKey {
                        file: File::Const,
                        dimension,
                        index: i,
                    };
                    inputs.constants.insert(key, vec4(c));
                }
            }
            File::Buffer | File::Memory => {
                for i in d.first..=d.last {
                    let bytes = (0..RESOURCE_BYTES / 4)
                        .flat_map(|_| channel_word(c).to_le_bytes())
                        .collect();
                    inputs.buffers.insert(RegKey::new(d.file, i), bytes);
                }
            }
            _ => {}
        }
    }
    inputs
}

/// Size of every generated buffer and memory resource, in bytes (32 dwords: the memory
/// generator's address patterns reach dword 30, `crate::tgsi::memory`).
pub const RESOURCE_BYTES: usize = 128;
