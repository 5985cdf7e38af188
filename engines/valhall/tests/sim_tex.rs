//! Texture messages: the encodings the compiler emits for `TEX_SINGLE` / `TEX_FETCH`
//! (bytes derived by hand from ENCODING.md §2, §3.2, §6 and the §8.2 field table), and the
//! simulator's texture unit on hand-written programs (`sim::tex` module docs; texel `n` of
//! the test texture holds `[n, 0x10 + n, 0x20 + n, 0x30 + n]`).

#[path = "sim_util.rs"]
mod util;

use shaderdiff_model::texture::{Format, Target, Texture, Wrap};
use shaderdiff_valhall::sim::{Memory, NUM_REGS};
use shaderdiff_valhall::{assemble, disassemble};
use util::*;

/// (bytes, text) pairs, each derived field by field:
/// * byte 0: the 64-bit image source, uniform `uN` = `0x80 | N` (§3.2);
/// * byte 1: `array_enable` bit 10, `texel_offset` bit 11, `lod_mode` bits 13–15
///   (`zero` 0, `computed` 1, `explicit` 4);
/// * byte 2: the written staging register (bits 16–21) and `write_mask` bits 22–23;
/// * byte 3: `write_mask` bits 24–25, `register_type` 26–27 (`f` 1, `u` 2, `s` 3),
///   `dimension` 28–29 (`1d` 0, `2d` 1, `3d` 2), slot 30–32 = 0;
/// * byte 4: read count bits 33–35, written count − 1 bits 36–38;
/// * byte 5: read staging register (bits 40–45), bit 46 register width `32` = 1;
/// * bytes 6–7: opcode bits 48–56 (`0x128` TEX_SINGLE, `0x125` TEX_FETCH, `0x129`
///   TEX_GATHER).
const VECTORS: &[([u8; 8], &str)] = &[
    // r56 = 0x38; rgba = 15: byte 2 = 0x38 | 3 << 6 = 0xF8, byte 3 = 3 | 2 << 2 | 1 << 4
    // = 0x1B; counts 4 and 4 - 1: byte 4 = 4 << 1 | 3 << 4 = 0x38; byte 1 = 0x08 | 4 << 5.
    (
        [0x82, 0x88, 0xF8, 0x1B, 0x38, 0x78, 0x28, 0x01],
        "TEX_SINGLE.slot0.u.32.2d.texel_offset.explicit @r56:r57:r58:r59, @r56:r57:r58:r59, u2",
    ),
    // rb = 5: byte 2 = 0x38 | 1 << 6 = 0x78, byte 3 = 1 | 0x08 | 0x10 = 0x19; counts 3
    // and 2 - 1: byte 4 = 0x06 | 0x10 = 0x16.
    (
        [0x82, 0x08, 0x78, 0x19, 0x16, 0x78, 0x25, 0x01],
        "TEX_FETCH.slot0.u.32.rb.2d.texel_offset @r56:r57, @r56:r57:r58, u2",
    ),
    // computed = 1: byte 1 = 0x20; byte 3 = 3 | 1 << 2 | 2 << 4 = 0x27; byte 4 = 3 << 1
    // | 3 << 4 = 0x36.
    (
        [0x80, 0x20, 0xF8, 0x27, 0x36, 0x78, 0x28, 0x01],
        "TEX_SINGLE.slot0.f.32.3d.computed @r56:r57:r58:r59, @r56:r57:r58, u0",
    ),
    // array_enable: byte 1 = 0x04; r = 1: byte 2 = 0x78, byte 3 = 3 << 2 = 0x0C; counts
    // 2 and 1 - 1: byte 4 = 0x04.
    (
        [0x80, 0x04, 0x78, 0x0C, 0x04, 0x78, 0x28, 0x01],
        "TEX_SINGLE.slot0.s.32.r.1d.array_enable.zero @r56, @r56:r57, u0",
    ),
    // TEX_GATHER (opcode 0x129): fetch_component bits 14–15, gather4_g = 1 → byte 1 =
    // 0x40; counts 2 and 4 - 1: byte 4 = 2 << 1 | 3 << 4 = 0x34.
    (
        [0x82, 0x40, 0xF8, 0x1B, 0x34, 0x78, 0x29, 0x01],
        "TEX_GATHER.slot0.u.32.2d.gather4_g @r56:r57:r58:r59, @r56:r57, u2",
    ),
];

#[test]
fn texture_messages_encode_and_decode() {
    for (bytes, text) in VECTORS {
        assert_eq!(disassemble(bytes).as_deref(), Ok(*text), "{bytes:02x?}");
        assert_eq!(assemble(text).as_ref(), Ok(bytes), "{text}");
        // The simulator accepts every form the compiler emits.
        let w = u64::from_le_bytes(*bytes);
        shaderdiff_valhall::sim::Shader::from_words(&[w]).unwrap_or_else(|e| panic!("{e}"));
    }
}

/// A 4x2 RGBA32UI texture bound at index 0.
fn memory() -> Memory {
    let t = Texture::filled(
        Target::T2D,
        Format::Rgba32Ui,
        [4, 2, 1],
        1,
        Wrap::ClampToEdge,
        |_, n| [n, 0x10 + n, 0x20 + n, 0x30 + n],
    );
    let mut m = Memory::new();
    m.bind_texture(0, t);
    m
}

/// The image word of texture 0, sampler 0: tables 3 (bits 11–15) and 4 (bits 27–31).
const IMAGE0: u32 = 3 << 11 | 4 << 27;

fn run_tex(text: &str, image: u32, init: [u32; 3]) -> [u32; NUM_REGS] {
    let init = move |_t: usize, r: &mut [u32; NUM_REGS]| {
        r[..4].copy_from_slice(&[0xDEAD; 4]);
        r[4..7].copy_from_slice(&init);
    };
    let (_, regs) =
        run_full(text, 1, &[image, 0], &init, &mut memory()).unwrap_or_else(|e| panic!("{e}"));
    regs[0]
}

#[test]
fn single_samples_the_nearest_texel() {
    // (0.375, 0.75) on 4x2: u = 1.5, v = 1.5 → texel (1, 1) = 1 + 4 = 5.
    let r = run_tex(
        "TEX_SINGLE.slot0.u.32.2d.zero @r0:r1:r2:r3, @r4:r5, u0",
        IMAGE0,
        [fb(0.375), fb(0.75), 0],
    );
    assert_eq!(r[..4], [5, 0x15, 0x25, 0x35]);
    // CLAMP_TO_EDGE: (-1.0, 7.0) → u = -4 → 0, v = 14 → 1: texel 4.
    let r = run_tex(
        "TEX_SINGLE.slot0.u.32.2d.zero @r0:r1:r2:r3, @r4:r5, u0",
        IMAGE0,
        [fb(-1.0), fb(7.0), 0],
    );
    assert_eq!(r[..4], [4, 0x14, 0x24, 0x34]);
}

#[test]
fn fetch_writes_the_masked_components_without_gaps() {
    // (1, 0) + offset (2, 1) (OFFSETMS bytes 0, 1) = (3, 1) → texel 7; mask `ga` writes
    // G to r0 and A to r1, leaving r2 and r3.
    let r = run_tex(
        "TEX_FETCH.slot0.u.32.ga.2d.texel_offset @r0:r1, @r4:r5:r6, u0",
        IMAGE0,
        [1, 0, 0x0102],
    );
    assert_eq!(r[..4], [0x17, 0x37, 0xDEAD, 0xDEAD]);
    // (4, 0) is outside the level: zeros.
    let r = run_tex(
        "TEX_FETCH.slot0.u.32.2d @r0:r1:r2:r3, @r4:r5, u0",
        IMAGE0,
        [4, 0, 0],
    );
    assert_eq!(r[..4], [0; 4]);
}

#[test]
fn unknown_tables_or_units_give_zeros() {
    // Table bits 0 (not the texture table 4), and texture 1 (nothing bound).
    for image in [0, IMAGE0 | 1 << 16] {
        let r = run_tex(
            "TEX_FETCH.slot0.u.32.2d @r0:r1:r2:r3, @r4:r5, u0",
            image,
            [1, 1, 0],
        );
        assert_eq!(r[..4], [0; 4], "{image:#x}");
    }
}
