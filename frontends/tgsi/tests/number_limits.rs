//! User numbers at and just past their limits: the largest accepted value parses, the next
//! one is a located "too large (at most N)" error (never a wrap, never a panic). Limits:
//! register indices and address offsets are signed 16-bit (TEXT-FORMAT.md §7.4, at most
//! 32767), array ids 10 bits (at most 1023), labels 32 bits. Floats follow C `strtof`
//! (§1): exponents far outside the format round to infinity or zero, whatever their size.
//! Positions are counted by hand from the input text (1-based).

use shaderdiff_tgsi::parse;

const HEAD: &str = "FRAG\nDCL ADDR[0]\nDCL TEMP[0..3]\n";

/// Parses `HEAD` + `body` (the body is on line 4) and expects an error at `col`.
fn rejects(body: &str, col: u32, needle: &str) {
    let text = format!("{HEAD}{body}");
    match parse(&text, "t.tgsi") {
        Ok(_) => panic!("accepted: {text:?}"),
        Err(e) => {
            assert_eq!((e.pos.line, e.pos.col), (4, col), "{e}");
            assert!(e.message.contains(needle), "{e} lacks {needle:?}");
        }
    }
}

#[test]
fn address_offsets_stop_at_32767() {
    let p = parse(
        &format!("{HEAD}MOV TEMP[0], TEMP[ADDR[0].x-32767]"),
        "t.tgsi",
    )
    .unwrap();
    assert_eq!(p.instructions[0].src[0].reg.index.value, -32767);
    // `TEMP[ADDR[0].x-` is 15 characters from column 14: the offset starts at column 29.
    rejects(
        "MOV TEMP[0], TEMP[ADDR[0].x-32768]",
        29,
        "an address offset is too large (at most 32767)",
    );
    rejects(
        "MOV TEMP[0], TEMP[ADDR[0].x+99999999999999999999999]",
        29,
        "an address offset is too large (at most 32767)",
    );
}

#[test]
fn array_ids_stop_at_1023() {
    let p = parse(
        &format!("{HEAD}DCL TEMP[4..5], ARRAY(1023)\nMOV TEMP[0], TEMP[ADDR[0].x+4](1023)"),
        "t.tgsi",
    )
    .unwrap();
    assert_eq!(p.instructions[0].src[0].reg.index.array_id, 1023);
    rejects(
        "MOV TEMP[0], TEMP[ADDR[0].x](1024)",
        30,
        "an array id is too large (at most 1023)",
    );
}

#[test]
fn labels_stop_at_u32_max() {
    let p = parse(&format!("{HEAD}BGNLOOP :4294967295\nENDLOOP :0"), "t.tgsi").unwrap();
    assert_eq!(p.instructions[0].label, Some(u32::MAX));
    rejects(
        "BGNLOOP :4294967296\nENDLOOP :0",
        10,
        "a label (instruction number) is too large (at most 4294967295)",
    );
}

#[test]
fn register_indices_stop_at_32767() {
    parse(
        &format!("{HEAD}DCL IN[32767]\nMOV TEMP[0], IN[32767]"),
        "t.tgsi",
    )
    .unwrap();
    rejects(
        "MOV TEMP[0], TEMP[32768]",
        19,
        "a register index is too large (at most 32767)",
    );
}

/// The four words of the program's single FLT32 immediate.
fn flt32(values: &str) -> [u32; 4] {
    let p = parse(&format!("FRAG\nIMM FLT32 {{{values}}}"), "t.tgsi").unwrap();
    p.immediates[0].words
}

#[test]
fn hex_float_exponents_saturate_to_the_right_value() {
    // 0x1p(10^25): infinity; 0x1p-(10^25): zero (C99 7.20.1.3: the value overflows or
    // underflows). The exponent does not fit 64 bits either.
    let big = "9".repeat(25);
    assert_eq!(
        flt32(&format!("0x1p{big}, 0x1p-{big}, -0x1p{big}, 0x1p+{big}")),
        [0x7f80_0000, 0, 0xff80_0000, 0x7f80_0000]
    );
}

#[test]
fn long_hex_mantissas_keep_their_value() {
    // 10,000 `f` digits are 16^10000 - 1 = 2^40000 - 1; times 2^-40000 that is
    // 1 - 2^-40000, which rounds to 1.0 (0x3f800000).
    let ones = format!("0x{}p-40000", "f".repeat(10_000));
    // 0x0.(20,000 zeros)1 is 16^-20001 = 2^-80004; times 2^80000 that is 2^-4 = 0.0625
    // (0x3d800000).
    let tiny = format!("0x0.{}1p80000", "0".repeat(20_000));
    // 0x1 followed by 100,000 zero digits: 2^400000, infinity.
    let huge = format!("0x1{}", "0".repeat(100_000));
    assert_eq!(
        flt32(&format!("{ones}, {tiny}, {huge}, 0x1p0")),
        [0x3f80_0000, 0x3d80_0000, 0x7f80_0000, 0x3f80_0000]
    );
}
