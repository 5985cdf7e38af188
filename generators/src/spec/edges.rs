//! Edge input values per opcode source, as 32-bit channel words. Lists are ordered by
//! importance: when the cross product of an opcode's sources is too large, each list is
//! cut from the end.
//!
//! Where the values come from: IEEE 754 binary32 special classes (zeros, infinities,
//! quiet and signalling NaNs with payloads, denormals, FLT_MIN/FLT_MAX), the boundaries
//! tgsi.rst names for each opcode (shift counts masked with 0x1f, bitfield
//! `offset + bits > 32`, division by zero, F2I/F2U "values outside signed/unsigned range",
//! RSQ/SQRT "undefined for src <= 0 / < 0"), round-half ties for the rounding and pack
//! opcodes, and binary16 boundaries for PK2H/UP2H.

use shaderdiff_model::{Opcode, ScalarType};

/// Float edges (binary32 bits).
pub const FLOAT: &[u32] = &[
    0x0000_0000, // +0
    0x8000_0000, // -0
    0x3f80_0000, // 1.0
    0xbf80_0000, // -1.0
    0x7f80_0000, // +inf
    0xff80_0000, // -inf
    0x7fc0_0000, // quiet NaN
    0x3f00_0000, // 0.5
    0xbf00_0000, // -0.5
    0x4000_0000, // 2.0
    0x0000_0001, // smallest denormal
    0x8000_0001, // -smallest denormal
    0x007f_ffff, // largest denormal
    0x0080_0000, // FLT_MIN
    0x7f7f_ffff, // FLT_MAX
    0xff7f_ffff, // -FLT_MAX
    0x3fc0_0000, // 1.5
    0x4020_0000, // 2.5
    0xc020_0000, // -2.5
    0x4040_0000, // 3.0
    0xffc0_0000, // -quiet NaN
    0x7f80_0001, // signalling NaN, payload 1
    0x7fc0_0001, // quiet NaN, payload 1
    0x3eff_ffff, // 0.49999997
    0x4b80_0000, // 2^24
    0x4f00_0000, // 2^31
    0xcf00_0000, // -2^31
    0x4f80_0000, // 2^32
    0x4049_0fdb, // pi
    0x477f_e000, // 65504 (largest binary16)
    0x7149_f2ca, // 1e30
    0xff80_0001, // -signalling NaN
    0x807f_ffff, // -largest denormal
    0x3a83_126f, // 0.001
];

/// Integer edges (two's complement).
pub const INT: &[u32] = &[
    0,
    1,
    0xffff_ffff, // -1 / UINT_MAX
    0x8000_0000, // INT_MIN
    0x7fff_ffff, // INT_MAX
    2,
    31,
    32,
    33,
    0xffff_fffe, // -2
    0x8000_0001, // INT_MIN + 1
    7,
    0xffff_fff9, // -7
    0x5555_5555,
    0xaaaa_aaaa,
    0xffff,
    0x1_0000,
    0x7fff_fffe,
    63,
    64,
    0x3f80_0000, // the bits of 1.0
    0x7fc0_0000, // the bits of a quiet NaN
    3,
    16,
];

/// Shift counts (SHL, USHR, ISHR src1: "masked with 0x1f").
pub const SHIFT: &[u32] = &[0, 1, 31, 32, 33, 63, 0xffff_ffff, 7, 0x8000_0000, 0x100];

/// Divisors (IDIV, MOD, UDIV, UMOD src1).
pub const DIVISOR: &[u32] = &[
    0,
    1,
    0xffff_ffff, // -1
    0x8000_0000, // INT_MIN
    2,
    0xffff_fffe, // -2
    7,
    0xffff_fff9, // -7
    0x7fff_ffff,
    3,
];

/// Bitfield offsets and widths (UBFE, IBFE, BFI): `offset + bits > 32` is undefined.
pub const FIELD: &[u32] = &[0, 1, 8, 16, 31, 32, 33, 0xffff_ffff];

/// Exponents for LDEXP src1 (binary32 overflow, denormal and underflow boundaries).
pub const EXPONENT: &[u32] = &[
    0,
    1,
    0xffff_ffff, // -1
    127,
    128,
    (-126i32) as u32,
    (-127i32) as u32,
    (-149i32) as u32,
    (-150i32) as u32,
    254,
    300,
    (-300i32) as u32,
    0x7fff_ffff,
    0x8000_0000,
];

/// Float-to-integer boundaries (F2I, F2U, ARL, ARR, ROUND ...), added to [`FLOAT`].
pub const CONVERT: &[u32] = &[
    0x4eff_ffff, // 2147483520 = 2^31 - 128, the largest binary32 below 2^31
    0x4f00_0000, // 2^31
    0xcf00_0000, // -2^31
    0xcf00_0001, // -2147483904, the binary32 below -2^31
    0x4f7f_ffff, // 4294967040, the largest binary32 below 2^32
    0x4f80_0000, // 2^32
    0xbf7f_ffff, // -0.99999994
    0x3f7f_ffff, // 0.99999994
    0x4060_0000, // 3.5
    0xbfc0_0000, // -1.5
];

/// binary16 halves for UP2H (each word packs two of them).
pub const HALF: &[u16] = &[
    0x3c00, // 1.0
    0xbc00, // -1.0
    0x7c00, // +inf
    0x7e00, // quiet NaN
    0x7c01, // signalling NaN
    0x0001, // smallest denormal
    0x0400, // smallest normal
    0x7bff, // 65504
    0x8000, // -0
];

/// Values for the f32 → f16/unorm/snorm packs (PK2H, PK2US, PK4B, PK4UB), added to [`FLOAT`].
pub const PACK: &[u32] = &[
    0x477f_f000, // 65520: halfway between 65504 and 65536, rounds to inf in binary16
    0x3380_0000, // 2^-24, the smallest binary16 denormal
    0x3300_0000, // 2^-25, halfway between 0 and 2^-24
    0x3880_0000, // 2^-14, the smallest binary16 normal
    0x3b80_8081, // 1/255
    0x3c01_0204, // 1/127
    0x3eaa_aaab, // 1/3
    0x3f7f_ffff, // 0.99999994
];

/// The edge list for source `k` of `op`.
pub fn source_edges(op: Opcode, k: usize) -> Vec<u32> {
    use Opcode::*;
    let with = |base: &[u32], extra: &[u32]| -> Vec<u32> {
        let mut v = extra.to_vec();
        v.extend(base.iter().filter(|w| !extra.contains(w)));
        v
    };
    match (op, k) {
        (SHL | USHR | ISHR, 1) => SHIFT.to_vec(),
        (IDIV | MOD | UDIV | UMOD, 1) => DIVISOR.to_vec(),
        (UBFE | IBFE, 1 | 2) | (BFI, 2 | 3) => FIELD.to_vec(),
        (LDEXP, 1) => EXPONENT.to_vec(),
        (F2I | F2U | ARL | ARR | ROUND | TRUNC | FLR | CEIL | FRC, _) => with(FLOAT, CONVERT),
        (UP2H, _) => HALF
            .iter()
            .flat_map(|&lo| HALF.iter().map(move |&hi| lo as u32 | (hi as u32) << 16))
            .collect(),
        (PK2H | PK2US | PK4B | PK4UB, _) => with(FLOAT, PACK),
        _ => match op.info().src_types.get(k).copied().flatten() {
            Some(ScalarType::I32 | ScalarType::U32) => INT.to_vec(),
            Some(ScalarType::F32) => FLOAT.to_vec(),
            // Untyped (MOV, UCMP's selected operands): float edges and a few integers.
            _ => with(FLOAT, &[0xffff_ffff, 0x8000_0000, 7, 0x7fff_ffff]),
        },
    }
}

/// The cross product of `lists` (first list varies slowest), each list cut from the end
/// (longest first) until the product has at most `limit` elements.
pub fn combos<T: Copy>(mut lists: Vec<Vec<T>>, limit: usize) -> Vec<Vec<T>> {
    let product = |l: &[Vec<T>]| l.iter().map(|v| v.len().max(1)).product::<usize>();
    while product(&lists) > limit.max(1) {
        let longest = (0..lists.len())
            .max_by_key(|&i| (lists[i].len(), std::cmp::Reverse(i)))
            .unwrap_or(0);
        lists[longest].pop();
    }
    let mut out: Vec<Vec<T>> = vec![Vec::new()];
    for l in &lists {
        out = out
            .iter()
            .flat_map(|prefix| {
                l.iter().map(move |&w| {
                    let mut p = prefix.clone();
                    p.push(w);
                    p
                })
            })
            .collect();
    }
    out
}
