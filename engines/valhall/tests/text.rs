//! Assembler and disassembler details beyond the test vectors: accepted variations,
//! error columns and reasons, hex byte helpers, decode errors.

use shaderdiff_valhall::{
    assemble, decode, disassemble, encode, format_hex, isa, parse_asm, parse_case_line, parse_hex,
    AsmReason, DecodeError, Dest, EncodeErrorKind, HexReason, Instr, Operand, Source, SrcValue,
    WriteMask,
};

fn asm_err(line: &str) -> (usize, AsmReason) {
    let e = assemble(line).expect_err(line);
    (e.column, e.reason)
}

fn check(line: &str, ok: impl Fn(&(usize, AsmReason)) -> bool) {
    let e = asm_err(line);
    assert!(ok(&e), "`{line}`: column {}: {:?}", e.0, e.1);
}

#[test]
fn accepted_variations() {
    let canon = assemble("LOAD.i32.unsigned.slot0.wait0 @r0, ^r0, offset:0").unwrap();
    for l in [
        "LOAD.i32.wait0.slot0.unsigned @r0, ^r0, offset:0",
        "  LOAD.i32.slot0.unsigned.wait0   @r0 ,^r0,   offset:0x0  ",
        "LOAD.i32.none.w0.unsigned.slot0.wait0 @r0, ^r0, offset:-0",
    ] {
        assert_eq!(assemble(l).unwrap(), canon, "{l}");
    }
    // trailing space of operand-less instructions is optional
    assert_eq!(assemble("NOP.end").unwrap(), assemble("NOP.end ").unwrap());
    // source suffixes in any order
    assert_eq!(
        assemble("FADD.f32 r0, r1, r2.abs.neg").unwrap(),
        assemble("FADD.f32 r0, r1, r2.neg.abs").unwrap()
    );
    // a bare special value is its low word
    assert_eq!(
        assemble("MOV.i32 r1, lane_id").unwrap(),
        assemble("MOV.i32 r1, lane_id.w0").unwrap()
    );
    // `#` constants in decimal
    assert_eq!(
        assemble("IADD_IMM.i32 r2, ^r2, #19371").unwrap(),
        assemble("IADD_IMM.i32 r2, ^r2, #0x4BAB").unwrap()
    );
    // hex literals are matched by value; zero is entry 0
    let i = parse_asm("FADD.f32 r0, r1, 0x00000000").unwrap();
    assert_eq!(i.srcs[1].value, SrcValue::Imm(0));
    // lanes sources also take the `Swizzles (8-bit)` names (b0000 = index 4 = b00)
    assert_eq!(
        assemble("LSHIFT_AND.v4i8 r0, 0x1000000.b3333, 0x0.b0000, ^r0").unwrap(),
        assemble("LSHIFT_AND.v4i8 r0, 0x1000000.b3333, 0x0.b00, ^r0").unwrap()
    );
    // uniforms of pages 2–3 (printed by the disassembler) re-assemble
    let b = assemble("MOV.i32 r1, u200").unwrap();
    assert_eq!(b[0], 0x80 | (200 & 63));
    assert_eq!(b[7] >> 1 & 3, 3);
    assert_eq!(disassemble(&b).unwrap(), "MOV.i32 r1, u200");
}

#[test]
fn dotted_modifier_values() {
    // `Varying texture register width` has values `16.32` and `32.32`
    let t = "VAR_TEX_SINGLE.slot0.sample_store.f.32.32.2d.zero @r0:r1:r2:r3, u2, u0";
    let b = assemble(t).unwrap();
    assert_eq!(disassemble(&b).unwrap(), t);
    let t = "VAR_TEX_SINGLE.slot0.sample_store.f.16.32.2d.zero @r0:r1:r2:r3, u2, u0";
    assert_eq!(disassemble(&assemble(t).unwrap()).unwrap(), t);
}

#[test]
fn tex_dual_register_widths_in_order() {
    let t = "TEX_DUAL.slot0.f.16.32.2d.zero @r0:r1, @r2, u0";
    let b = assemble(t).unwrap();
    assert_eq!(disassemble(&b).unwrap(), t);
    let t2 = "TEX_DUAL.slot0.f.32.16.2d.zero @r0:r1, @r2, u0";
    assert_ne!(assemble(t2).unwrap(), b);
}

#[test]
fn lod_flags() {
    let t = "TEX_GRADIENT.slot0.f.32.2d.lod_clamp_disable @r0, @r2, u0";
    let b = assemble(t).unwrap();
    assert_eq!(b[1] >> 6 & 1, 1, "bit 14");
    assert_eq!(disassemble(&b).unwrap(), t);
    // Mesa's name: first `.lod_mode` is lod_bias_disable (bit 13), the second bit 14
    let m = assemble("TEX_GRADIENT.slot0.f.32.2d.lod_mode @r0, @r2, u0").unwrap();
    assert_eq!(m[1] >> 5 & 3, 1);
    let m = assemble("TEX_GRADIENT.slot0.f.32.2d.lod_mode.lod_mode @r0, @r2, u0").unwrap();
    assert_eq!(m[1] >> 5 & 3, 3);
}

#[test]
fn error_columns_and_reasons() {
    assert_eq!(asm_err(""), (1, AsmReason::Empty));
    assert_eq!(asm_err("   ").1, AsmReason::Empty);
    check("FOO r0", |e| {
        matches!(e, (1, AsmReason::UnknownMnemonic(_)))
    });
    check("  FOO r0", |e| {
        matches!(e, (3, AsmReason::UnknownMnemonic(_)))
    });
    check("FADD.f32..clamp_0_1 r0, r1, r2", |e| {
        matches!(e, (10, AsmReason::EmptyModifier))
    });
    check("FADD.f32.bogus r0, r1, r2", |e| {
        matches!(e, (10, AsmReason::UnknownModifier { .. }))
    });
    assert!(matches!(
        asm_err("FADD.f32.clamp_0_1.clamp_m1_1 r0, r1, r2"),
        (20, AsmReason::DuplicateModifier(_))
    ));
    assert!(matches!(
        asm_err("LOAD.i32.unsigned @r0, ^r0, offset:0"),
        (18, AsmReason::MissingModifier { .. })
    ));
    check("FADD.f32 r0, r1, r2, r3", |e| {
        matches!(e, (22, AsmReason::OperandCount { .. }))
    });
    check("FADD.f32 r0, , r2", |e| {
        matches!(e, (14, AsmReason::EmptyOperand))
    });
    check("FADD.f32 r64, r1, r2", |e| {
        matches!(e, (10, AsmReason::RegisterRange(_)))
    });
    check("FADD.f32 ^r0, r1, r2", |e| {
        matches!(e, (10, AsmReason::Expected { .. }))
    });
    check("FADD.f32 r0.h2, r1, r2", |e| {
        matches!(e, (13, AsmReason::BadSuffix { .. }))
    });
    check("FADD.f32 r0, ^u1, r2", |e| {
        matches!(e, (15, AsmReason::Expected { .. }))
    });
    check("FADD.f32 r0, u256, r2", |e| {
        matches!(e, (14, AsmReason::UniformRange(_)))
    });
    check("FADD.f32 r0, 0x1234, r2", |e| {
        matches!(e, (14, AsmReason::NotInTable(0x1234)))
    });
    check("FADD.f32 r0, r1.w0, r2", |e| {
        matches!(e, (17, AsmReason::BadSuffix { .. }))
    });
    check("FADD.f32 r0, r1.neg.neg, r2", |e| {
        matches!(e, (21, AsmReason::DuplicateSuffix(_)))
    });
    check("MOV.i32 r0, r1.neg", |e| {
        matches!(e, (16, AsmReason::BadSuffix { .. }))
    });
    check("FADD.f32 r0, r1, r2.", |e| {
        matches!(e, (21, AsmReason::EmptyModifier))
    });
    assert!(matches!(
        asm_err("LOAD.i32.slot0 @r0:r2, ^r0, offset:0"),
        (20, AsmReason::NotConsecutive(_))
    ));
    check("LOAD.i32.slot0 r0, ^r0, offset:0", |e| {
        matches!(e, (16, AsmReason::Expected { .. }))
    });
    assert!(matches!(
        asm_err("LOAD.i32.slot0 @r0, ^r0, offs:0"),
        (26, AsmReason::ImmName { .. })
    ));
    check("LOAD.i32.slot0 @r0, ^r0, offset:zz", |e| {
        matches!(e, (33, AsmReason::BadNumber(_)))
    });
    check("IADD_IMM.i32 r0, r1, 0x5", |e| {
        matches!(e, (22, AsmReason::ImmName { .. }))
    });
    check("IADD_IMM.i32 r0, r1, #-1", |e| {
        matches!(e, (23, AsmReason::Unsigned(_)))
    });
    assert!(matches!(
        asm_err("IADD_IMM.i32 r0, r1, #0x100000000"),
        (22, AsmReason::Encode(EncodeErrorKind::ImmRange { .. }))
    ));
    assert!(matches!(
        asm_err("LSHIFT_AND.i32 r0, r1, r2, r3"),
        (24, AsmReason::Encode(EncodeErrorKind::Reserved { .. }))
    ));
    assert!(matches!(
        asm_err("LD_TILE.v4.f16.slot0 @r14:r15:r16:r17:r18:r19:r20:r21, u1, r11, u0"),
        (22, AsmReason::Encode(EncodeErrorKind::StagingCount { .. }))
    ));
    // columns count characters, not bytes
    check("FADD.f32 r0, r1, é", |e| {
        matches!(e, (18, AsmReason::Expected { .. }))
    });
    // the message names the column and the reason
    let e = assemble("FADD.f32 r0, u0, u4").unwrap_err();
    assert_eq!(e.column, 18);
    assert!(e.to_string().starts_with("column 18: "), "{e}");
}

#[test]
fn hex_helpers() {
    let b = [0x02, 0, 0, 0, 0, 0xc1, 0x91, 0];
    assert_eq!(format_hex(&b), "02 00 00 00 00 c1 91 00");
    assert_eq!(parse_hex("02 00 00 00 00 c1 91 00").unwrap(), b);
    assert_eq!(parse_hex("  02 00 00 00 00 C1 91 00 ").unwrap(), b);
    let e = parse_hex("02 00 0g 00 00 c1 91 00").unwrap_err();
    assert_eq!((e.column, e.reason), (7, HexReason::BadByte("0g".into())));
    assert_eq!(parse_hex("02 00").unwrap_err().reason, HexReason::Count(2));
    assert_eq!(
        parse_hex("02 00 00 00 00 c1 91 00 00").unwrap_err().reason,
        HexReason::Count(9)
    );
    assert_eq!(parse_hex("020 00").unwrap_err().column, 1);
    let (bytes, text) = parse_case_line("00 00 00 00 00 c0 00 78    NOP.end ").unwrap();
    assert_eq!(bytes, [0, 0, 0, 0, 0, 0xc0, 0, 0x78]);
    assert_eq!(text, "NOP.end ");
    assert!(parse_case_line("00 00 00 00 00 c0 00 78   NOP.end").is_err());
    assert!(parse_case_line("00 00").is_err());
}

#[test]
fn decode_errors() {
    assert_eq!(decode(1 << 63), Err(DecodeError::Bit63));
    assert_eq!(
        decode(0x0001_0000_0000_0000),
        Err(DecodeError::UnknownOpcode(1))
    );
    // FADD bucket, secondary value 1 is unused
    let e = decode(0x00A4_C000_0001_0000).unwrap_err();
    assert!(
        matches!(
            e,
            DecodeError::UnknownSecondary {
                opcode: 0xA4,
                value: 1,
                ..
            }
        ),
        "{e}"
    );
    // all-zero word: NOP without its placeholder
    let e = decode(0).unwrap_err();
    assert!(matches!(e, DecodeError::StrayBits { .. }), "{e}");
    assert!(e.to_string().contains("NOP"), "{e}");
    // reserved flow 11
    let e = decode(0x5800_C000_0000_0000).unwrap_err();
    assert!(e.to_string().contains("flow"), "{e}");
    // FAU page without a FAU source
    let e = decode(0x0291_C100_0000_0002).unwrap_err();
    assert!(matches!(e, DecodeError::UnusedPage { page: 1, .. }), "{e}");
    // write mask 0
    let e = decode(0x0091_0100_0000_0002).unwrap_err();
    assert!(matches!(e, DecodeError::WriteMask { .. }), "{e}");
    // special value on page 2
    let e = decode(0x0491_C100_0000_00E2).unwrap_err();
    assert!(e.to_string().contains("page 2"), "{e}");
    // the disassembler reports the same errors
    assert!(disassemble(&0u64.to_le_bytes()).is_err());
}

#[test]
fn encode_errors_name_the_operand() {
    let def = isa().instruction("FADD.f32").unwrap();
    let mut i = Instr::with_defaults(def);
    assert!(encode(&i).is_ok());
    i.srcs[0] = Source::reg(70);
    let e = encode(&i).unwrap_err();
    assert_eq!(e.operand, Some(Operand::Source(0)));
    assert_eq!(e.kind, EncodeErrorKind::Register(70));
    assert!(e.to_string().contains("FADD.f32 (source 0)"), "{e}");
    let mut i = Instr::with_defaults(def);
    i.srcs[0].lane = Some(1);
    assert_eq!(
        encode(&i).unwrap_err().kind,
        EncodeErrorKind::NoSuchField("lane")
    );
    let mut i = Instr::with_defaults(def);
    i.dest = None;
    assert_eq!(encode(&i).unwrap_err().kind, EncodeErrorKind::MissingDest);
    let mut i = Instr::with_defaults(def);
    i.srcs.pop();
    assert!(matches!(
        encode(&i).unwrap_err().kind,
        EncodeErrorKind::Count { .. }
    ));
    let mut i = Instr::with_defaults(def);
    i.flow = 12;
    assert_eq!(encode(&i).unwrap_err().operand, Some(Operand::Flow));
    let mut i = Instr::with_defaults(def);
    i.dest = Some(Dest {
        reg: 5,
        mask: WriteMask::High,
    });
    i.srcs[1] = Source::new(SrcValue::Uniform(7));
    assert_eq!(i.to_string(), "FADD.f32 r5.h1, r0, u7");
}
