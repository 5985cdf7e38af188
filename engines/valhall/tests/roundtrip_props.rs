//! Property tests (proptest, 20 000 cases each): no 64-bit word makes the decoder or
//! disassembler panic; every word that decodes re-encodes to itself; its disassembly
//! re-assembles to the same bytes; every encodable instruction decodes back to itself.
//!
//! The one exception to "re-assembles to the same bytes" is the immediate table's
//! duplicate zero (entries 0 and 21 are both 0x00000000 and both print `0x0`; the
//! assembler picks entry 0, ENCODING.md §11.3): the expected bytes are computed with
//! entry 21 replaced by entry 0.

use proptest::prelude::*;
use shaderdiff_valhall::isa::{EnumField, ModKind};
use shaderdiff_valhall::{
    assemble_word, decode, disassemble, disassemble_word, encode, isa, Dest, Instr, SrcValue,
    StagingRun, WriteMask,
};

const CASES: u32 = 20_000;

/// The word `assemble(disassemble(word))` must give: `word` with table entry 21 → 0.
fn canonical(instr: &Instr) -> u64 {
    let mut i = instr.clone();
    for s in &mut i.srcs {
        if s.value == SrcValue::Imm(21) {
            s.value = SrcValue::Imm(0);
        }
    }
    encode(&i).expect("canonicalised instruction encodes")
}

fn check_word(word: u64) -> Result<(), TestCaseError> {
    let decoded = decode(word);
    let text = disassemble(&word.to_le_bytes());
    prop_assert_eq!(decoded.is_ok(), text.is_ok());
    if let Ok(instr) = decoded {
        prop_assert_eq!(encode(&instr), Ok(word), "re-encode");
        let text = text.unwrap();
        prop_assert_eq!(&instr.to_string(), &text);
        let again = assemble_word(&text);
        prop_assert_eq!(again, Ok(canonical(&instr)), "re-assemble `{}`", text);
    }
    Ok(())
}

fn check_text(line: &str) -> Result<(), TestCaseError> {
    match assemble_word(line) {
        Ok(word) => {
            let text = disassemble_word(word);
            prop_assert!(text.is_ok(), "`{}` assembles to an undecodable word", line);
            let text = text.unwrap();
            prop_assert_eq!(assemble_word(&text), Ok(word), "`{}` -> `{}`", line, text);
        }
        Err(e) => {
            prop_assert!(
                e.column >= 1 && e.column <= line.chars().count() + 1,
                "{}",
                e
            );
        }
    }
    Ok(())
}

/// A small deterministic PRNG (splitmix64) to expand one proptest seed into many fields.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    /// A random non-reserved value of an enum field.
    fn enum_value(&mut self, f: EnumField) -> u8 {
        let e = &isa().enums[f.enum_id];
        let valid: Vec<usize> = (0..1usize << f.field.size)
            .filter(|&i| e.text(i as u64).is_some())
            .collect();
        valid[self.below(valid.len() as u64) as usize] as u8
    }
}

/// A random instruction built field by field from the ISA tables (valid values only;
/// the FAU limits may still make it unencodable).
fn random_instr(index: usize, seed: u64) -> Instr {
    let isa = isa();
    let def = &isa.instructions[index % isa.instructions.len()];
    let mut r = Rng(seed);
    let mut i = Instr::with_defaults(def);
    let flows: Vec<u8> = (0..16u8)
        .filter(|&v| isa.enums[isa.flow].text(u64::from(v)).is_some())
        .collect();
    i.flow = flows[r.below(flows.len() as u64) as usize];
    if def.dests {
        let mask = [WriteMask::Low, WriteMask::High, WriteMask::Full][r.below(3) as usize];
        i.dest = Some(Dest {
            reg: r.below(64) as u8,
            mask,
        });
    }
    for (run, sd) in i.staging.iter_mut().zip(&def.staging) {
        let count = sd.min_count() + r.below(u64::from(sd.max_count() - sd.min_count()) + 1) as u8;
        let base = match count {
            0 => 0,
            1 => r.below(64) as u8,
            n => (r.below(u64::from(64 - n) / 2 + 1) * 2) as u8,
        };
        *run = StagingRun { base, count };
    }
    // All FAU sources on one page, so that the limits are often met.
    let page = [0u8, 1, 3][r.below(3) as usize];
    for (s, sd) in i.srcs.iter_mut().zip(&def.srcs) {
        s.value = match r.below(5) {
            0 | 1 => SrcValue::Reg {
                reg: r.below(64) as u8,
                discard: r.below(2) == 1,
            },
            2 => SrcValue::Uniform((page << 6) | r.below(4) as u8),
            3 => SrcValue::Imm(r.below(32) as u8),
            _ => {
                let specials: Vec<u8> = (0..16)
                    .filter(|&e| isa.special_name(page, e).is_some())
                    .collect();
                SrcValue::Special {
                    page,
                    entry: specials[r.below(specials.len() as u64) as usize],
                    hi: r.below(2) == 1,
                }
            }
        };
        s.neg = sd.neg.is_some() && r.below(2) == 1;
        s.abs = sd.abs.is_some() && r.below(2) == 1;
        s.not = sd.not.is_some() && r.below(2) == 1;
        s.swizzle = sd.swizzle.map(|f| r.enum_value(f));
        s.widen = sd.widen.map(|(_, f)| r.enum_value(f));
        s.lane = sd.lane.map(|f| r.enum_value(f));
        s.combine = sd.combine.map(|f| r.enum_value(f));
    }
    for (v, id) in i.imms.iter_mut().zip(&def.imms) {
        let span = (id.max() - id.min()) as u64 + 1;
        *v = id.min() + r.below(span) as i64;
    }
    for (v, m) in i.modifiers.iter_mut().zip(&def.modifiers) {
        *v = match m.kind {
            ModKind::Flag => r.below(2) as u32,
            ModKind::Enum(e) => u32::from(r.enum_value(EnumField {
                field: m.field,
                enum_id: e,
            })),
        };
    }
    i
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(CASES))]

    /// Arbitrary words: never a panic; what decodes round-trips.
    #[test]
    fn random_words(word in any::<u64>()) {
        check_word(word)?;
    }

    /// Words with a real instruction's opcode bits and random other bits (far more of
    /// them decode than arbitrary words): same properties.
    #[test]
    fn opcode_shaped_words(index in 0usize..1000, noise in any::<u64>(), clear_page in any::<bool>()) {
        let def = &isa().instructions[index % isa().instructions.len()];
        let (mask, value) = def.fixed_bits();
        let mut word = ((noise & !mask) | value) & !(1 << 63);
        if clear_page {
            word &= !(3 << 57);
        }
        check_word(word)?;
    }

    /// Arbitrary text never makes the assembler panic; errors have a column inside the
    /// line (or just past its end).
    #[test]
    fn random_text(line in "\\PC{0,60}") {
        check_text(&line)?;
    }

    /// Canonical lines with one character replaced, inserted or deleted: never a panic,
    /// and whatever assembles disassembles and re-assembles to the same bytes.
    #[test]
    fn mutated_lines(index in 0usize..1000, seed in any::<u64>(), pos in any::<usize>(),
                     op in 0u8..3, c in proptest::char::any()) {
        let instr = random_instr(index, seed);
        if let Ok(word) = encode(&instr) {
            let mut chars: Vec<char> = disassemble_word(word).unwrap().chars().collect();
            let p = pos % (chars.len() + 1);
            match op {
                0 if p < chars.len() => chars[p] = c,
                1 => chars.insert(p, c),
                _ if p < chars.len() => { chars.remove(p); }
                _ => {}
            }
            let line: String = chars.into_iter().collect();
            check_text(&line)?;
        }
    }

    /// Instructions built from valid field values: encode → decode gives the same
    /// instruction, and text → bytes gives the same word.
    #[test]
    fn random_instructions(index in 0usize..1000, seed in any::<u64>()) {
        let instr = random_instr(index, seed);
        if let Ok(word) = encode(&instr) {
            prop_assert_eq!(decode(word), Ok(instr.clone()));
            let text = disassemble_word(word).unwrap();
            prop_assert_eq!(assemble_word(&text), Ok(canonical(&instr)), "`{}`", text);
        }
    }
}

/// The generator above must produce encodable instructions for every instruction kind
/// (otherwise `random_instructions` would test nothing for it).
#[test]
fn every_instruction_kind_is_generated() {
    for index in 0..isa().instructions.len() {
        let ok = (0..200u64).any(|seed| encode(&random_instr(index, seed)).is_ok());
        assert!(ok, "{} never encodes", isa().instructions[index].name);
    }
}
