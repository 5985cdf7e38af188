//! Integer constants at and just past 64 bits (NV_gpu_program4 §2.X.2: integers are
//! decimal or `0x` hexadecimal; NOTES.md §11: constants of 64-bit operands): the largest
//! parses, the next is a located "too large" error from the lexer, never a wrap or a
//! panic. Positions are counted by hand from the input text (1-based).

use shaderdiff_nv::parse;

const HEAD: &str = "!!NVvp5.0\nLONG TEMP d;\n";

fn rejected_at(constant: &str) -> (u32, u32, String) {
    let text = format!("{HEAD}MOV.U64 d, {constant};\nEND");
    let e = parse(&text, "t.nv").expect_err(&text);
    (e.pos.line, e.pos.col, e.message)
}

#[test]
fn u64_max_is_the_largest_integer_constant() {
    for max in [
        "18446744073709551615",
        "0xFFFFFFFFFFFFFFFF",
        "0x000000000000000000001",
    ] {
        parse(&format!("{HEAD}MOV.U64 d, {max};\nEND"), "t.nv").unwrap();
    }
    // `MOV.U64 d, ` is 11 characters: the constant starts at column 12 of line 3.
    for over in [
        "18446744073709551616",
        "0x10000000000000000",
        &"9".repeat(400),
    ] {
        let (line, col, message) = rejected_at(over);
        assert_eq!((line, col), (3, 12), "{over}: {message}");
        assert!(message.contains("is too large"), "{over}: {message}");
    }
}
