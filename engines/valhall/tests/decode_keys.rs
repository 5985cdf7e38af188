//! The decoder checks each register-free key of a word once per thread (`decode`'s
//! module docs): decoding a word after words that differ from it only in register
//! numbers must give exactly what decoding it alone gives (ENCODING.md: a word decodes
//! only if it re-encodes to itself).

mod common;

use shaderdiff_valhall::{decode, encode, parse_case_line, DecodeError, Instr};

/// The words of Mesa's assembler vectors (`assembler-cases.txt`).
fn vectors() -> Vec<u64> {
    common::read_spec("assembler-cases.txt")
        .lines()
        .filter(|l| !l.is_empty())
        .map(|l| {
            let (bytes, _) = parse_case_line(l).unwrap_or_else(|e| panic!("{l:?}: {e}"));
            u64::from_le_bytes(bytes)
        })
        .collect()
}

/// Deterministic variants of `w`: new register numbers in every byte position that can
/// hold one (the low 6 bits of bytes 0–5), and a few other bits flipped.
fn variants(w: u64, seed: &mut u64) -> Vec<u64> {
    let mut next = || {
        // xorshift64
        *seed ^= *seed << 13;
        *seed ^= *seed >> 7;
        *seed ^= *seed << 17;
        *seed
    };
    let mut out = Vec::new();
    for _ in 0..12 {
        out.push(w ^ (next() & 0x3F3F_3F3F_3F3F));
    }
    for _ in 0..4 {
        out.push(w ^ (1u64 << (next() % 63)));
    }
    out
}

/// Decodes `w` on a fresh thread, where no key has been checked yet.
fn alone(w: u64) -> Result<Instr, DecodeError> {
    std::thread::spawn(move || decode(w))
        .join()
        .expect("decode thread")
}

#[test]
fn register_variants_decode_as_alone() {
    let mut seed = 0x2545_F491_4F6C_DD1D;
    let mut words = Vec::new();
    for w in vectors() {
        words.push(w);
        words.extend(variants(w, &mut seed));
    }
    // One thread decodes them all, one after the other: most keys repeat.
    let warm: Vec<Result<Instr, DecodeError>> = words.iter().map(|&w| decode(w)).collect();
    let mut accepted = 0;
    for (&w, got) in words.iter().zip(&warm) {
        assert_eq!(got, &alone(w), "word {w:#018x}");
        if let Ok(instr) = got {
            assert_eq!(encode(instr), Ok(w), "word {w:#018x} re-encodes");
            accepted += 1;
        }
    }
    // The variants must exercise the shortcut: many new register numbers are valid.
    assert!(accepted > 2 * vectors().len(), "{accepted} words accepted");
}
