//! The worked examples of ENCODING.md §12 (each decoded bit by bit there), plus the small
//! examples of §2.1, §3.2, §4 and §5, as rstest cases: the stated word value, the
//! instruction, the fields the text derives, bytes → text and text → bytes.

use rstest::rstest;
use shaderdiff_valhall::{
    assemble, decode, disassemble, encode, isa, parse_hex, Dest, Instr, SrcValue, StagingRun,
    WriteMask,
};

fn value(instr: &Instr, field: &str) -> u32 {
    let i = instr
        .def()
        .modifiers
        .iter()
        .position(|m| m.name == field)
        .unwrap_or_else(|| panic!("{} has no modifier {field}", instr.def().name));
    instr.modifiers[i]
}

fn enum_text(instr: &Instr, field: &str) -> String {
    let m = instr
        .def()
        .modifiers
        .iter()
        .find(|m| m.name == field)
        .unwrap();
    let shaderdiff_valhall::isa::ModKind::Enum(e) = m.kind else {
        panic!("{field} is a flag")
    };
    isa().enums[e]
        .text(u64::from(value(instr, field)))
        .unwrap()
        .to_string()
}

fn reg(reg: u8, discard: bool) -> SrcValue {
    SrcValue::Reg { reg, discard }
}

/// §12.1 FADD.f32.clamp_m1_1 r0, r1, r2.neg.abs
fn fadd(i: &Instr) {
    assert_eq!(enum_text(i, "clamp"), "clamp_m1_1");
    assert_eq!(
        i.dest,
        Some(Dest {
            reg: 0,
            mask: WriteMask::Full
        })
    );
    assert_eq!(i.srcs[0].value, reg(1, false));
    assert_eq!(i.srcs[1].value, reg(2, false));
    assert!(i.srcs[1].neg && i.srcs[1].abs && !i.srcs[0].neg && !i.srcs[0].abs);
    assert_eq!((i.srcs[0].swizzle, i.srcs[1].swizzle), (Some(0), Some(0)));
}

/// §12.2 BRANCHZ.reconverge ^r1, offset:-8
fn branchz(i: &Instr) {
    assert_eq!(i.flow, 10);
    assert_eq!(i.srcs[0].value, reg(1, true));
    assert_eq!(i.imms, vec![-8]);
    assert_eq!(value(i, "conservative"), 0);
    assert_eq!(value(i, "eq"), 0);
    assert_eq!(i.srcs[0].combine, Some(0));
}

/// §12.3 MOV.i32 r1, thread_local_pointer.w1
fn mov_special(i: &Instr) {
    assert_eq!(
        i.dest,
        Some(Dest {
            reg: 1,
            mask: WriteMask::Full
        })
    );
    assert_eq!(
        i.srcs[0].value,
        SrcValue::Special {
            page: 1,
            entry: 1,
            hi: true
        }
    );
}

/// §12.4 LOAD.i32.unsigned.slot0.wait0 @r0, ^r0, offset:0
fn load(i: &Instr) {
    assert_eq!(i.flow, 1);
    assert_eq!(i.staging, vec![StagingRun { base: 0, count: 1 }]);
    assert_eq!(enum_text(i, "load_lane_32_bit"), "w0");
    assert_eq!(value(i, "unsigned"), 1);
    assert_eq!(enum_text(i, "slot"), "slot0");
    assert_eq!(enum_text(i, "memory_access"), "none");
    assert_eq!(i.srcs[0].value, reg(0, true));
    assert_eq!(i.imms, vec![0]);
}

/// §12.5 ICMP_OR.u32.gt.m1 r1, ^r0, 0x1000000.b3, 0x0
fn icmp(i: &Instr) {
    assert_eq!(i.srcs[1].value, SrcValue::Imm(4));
    assert_eq!(i.srcs[1].widen, Some(7));
    assert_eq!(enum_text(i, "result_type"), "m1");
    assert_eq!(enum_text(i, "cmp"), "gt");
    assert_eq!(i.srcs[0].widen, Some(0));
    assert_eq!(i.srcs[2].value, SrcValue::Imm(0));
}

/// §12.6 IADD.v2u16 r60.h1, ^r61.h10, 0x0
fn iadd_v2u16(i: &Instr) {
    assert_eq!(
        i.dest,
        Some(Dest {
            reg: 60,
            mask: WriteMask::High
        })
    );
    assert_eq!(i.srcs[0].value, reg(61, true));
    assert_eq!(i.srcs[0].widen, Some(1));
    assert_eq!(i.srcs[1].widen, Some(2));
    assert_eq!(value(i, "saturate"), 0);
}

/// §12.7 IADD_IMM.i32 r2, ^r2, #0x4BAB
fn iadd_imm(i: &Instr) {
    assert_eq!(i.def().opcode, 0x110);
    assert_eq!(
        i.dest,
        Some(Dest {
            reg: 2,
            mask: WriteMask::Full
        })
    );
    assert_eq!(i.srcs.len(), 1);
    assert_eq!(i.imms, vec![0x4BAB]);
}

/// §12.8 LSHIFT_AND.v4i8 r0, 0x1000000.b3333, 0x0.b00, ^r0
fn lshift(i: &Instr) {
    assert_eq!(i.def().opcode2, Some(0x100));
    assert_eq!(i.srcs[0].widen, Some(7));
    assert_eq!(i.srcs[1].widen, Some(4));
    assert_eq!(i.srcs[2].value, reg(0, true));
    assert!(!i.srcs[2].not);
    assert_eq!(value(i, "not_result"), 0);
}

/// §12.9 TEX_FETCH.slot0.f.32.2d @r0:r1:r2:r3, @r60:r61, u0
fn tex_fetch(i: &Instr) {
    assert_eq!(
        i.staging,
        vec![
            StagingRun { base: 0, count: 4 },
            StagingRun { base: 60, count: 2 }
        ]
    );
    assert_eq!(enum_text(i, "register_width"), "32");
    assert_eq!(enum_text(i, "write_mask"), "rgba");
    assert_eq!(enum_text(i, "register_type"), "f");
    assert_eq!(enum_text(i, "dimension"), "2d");
    assert_eq!(enum_text(i, "slot"), "slot0");
    for f in ["wide_indices", "array_enable", "texel_offset", "skip"] {
        assert_eq!(value(i, f), 0, "{f}");
    }
    assert_eq!(i.srcs[0].value, SrcValue::Uniform(0));
}

/// §12.10 BLEND.slot0.v4.f16.end @r0:r1, blend_descriptor_0.w0, r60, target:0x0
fn blend(i: &Instr) {
    assert_eq!(i.flow, 15);
    assert_eq!(i.staging, vec![StagingRun { base: 0, count: 2 }]);
    assert_eq!(
        i.srcs[0].value,
        SrcValue::Special {
            page: 0,
            entry: 8,
            hi: false
        }
    );
    assert_eq!(i.def().srcs[1].slot, 2);
    assert_eq!(i.srcs[1].value, reg(60, false));
    assert_eq!(i.imms, vec![0]);
    assert_eq!(enum_text(i, "regfmt"), "f16");
    assert_eq!(enum_text(i, "vecsize"), "v4");
}

/// §3.2/§12.3 small FAU examples: nothing more to check than the round trip.
fn nothing(_: &Instr) {}

#[rstest]
#[case::fadd(
    "01 02 00 00 32 c0 a4 00",
    0x00A4C03200000201,
    "FADD.f32",
    "FADD.f32.clamp_m1_1 r0, r1, r2.neg.abs",
    fadd
)]
#[case::branchz(
    "41 f8 ff ff 07 c0 1f 50",
    0x501FC007FFFFF841,
    "BRANCHZ",
    "BRANCHZ.reconverge ^r1, offset:-8",
    branchz
)]
#[case::mov_special(
    "e3 00 00 00 00 c1 91 02",
    0x0291C100000000E3,
    "MOV.i32",
    "MOV.i32 r1, thread_local_pointer.w1",
    mov_special
)]
#[case::load(
    "40 00 00 18 82 80 60 08",
    0x0860808218000040,
    "LOAD.i32",
    "LOAD.i32.unsigned.slot0.wait0 @r0, ^r0, offset:0",
    load
)]
#[case::icmp(
    "40 c4 c0 9c 01 c1 f0 00",
    0x00F0C1019CC0C440,
    "ICMP_OR.u32",
    "ICMP_OR.u32.gt.m1 r1, ^r0, 0x1000000.b3, 0x0",
    icmp
)]
#[case::iadd_v2u16(
    "7d c0 00 08 10 bc a1 00",
    0x00A1BC100800C07D,
    "IADD.v2u16",
    "IADD.v2u16 r60.h1, ^r61.h10, 0x0",
    iadd_v2u16
)]
#[case::iadd_imm(
    "42 ab 4b 00 00 c2 10 01",
    0x0110C200004BAB42,
    "IADD_IMM.i32",
    "IADD_IMM.i32 r2, ^r2, #0x4BAB",
    iadd_imm
)]
#[case::lshift(
    "c4 c0 40 10 71 c0 b6 00",
    0x00B6C0711040C0C4,
    "LSHIFT_AND.v4i8",
    "LSHIFT_AND.v4i8 r0, 0x1000000.b3333, 0x0.b00, ^r0",
    lshift
)]
#[case::tex_fetch(
    "80 00 c0 17 34 7c 25 01",
    0x01257C3417C00080,
    "TEX_FETCH",
    "TEX_FETCH.slot0.f.32.2d @r0:r1:r2:r3, @r60:r61, u0",
    tex_fetch
)]
#[case::blend(
    "f0 00 3c 33 04 40 7f 78",
    0x787F4004333C00F0,
    "BLEND",
    "BLEND.slot0.v4.f16.end @r0:r1, blend_descriptor_0.w0, r60, target:0x0",
    blend
)]
#[case::mov_uniform(
    "8a 00 00 00 00 c1 91 00",
    0x0091C1000000008A,
    "MOV.i32",
    "MOV.i32 r1, u10",
    nothing
)]
#[case::mov_uniform_page1(
    "80 00 00 00 00 c1 91 02",
    0x0291C10000000080,
    "MOV.i32",
    "MOV.i32 r1, u64",
    nothing
)]
#[case::lane_id(
    "e2 00 00 00 00 c1 91 06",
    0x0691C100000000E2,
    "MOV.i32",
    "MOV.i32 r1, lane_id.w0",
    nothing
)]
#[case::nop("00 00 00 00 00 c0 00 00", 0x0000C00000000000, "NOP", "NOP ", nothing)]
#[case::fadd_v2f16_default_swizzles(
    "01 00 00 28 00 c0 a5 00",
    0x00A5C00028000001,
    "FADD.v2f16",
    "FADD.v2f16 r0, r1, r0",
    nothing
)]
#[case::branchzi_absolute(
    "c0 f1 00 00 10 c1 2f 08",
    0x082FC1100000F1C0,
    "BRANCHZI",
    "BRANCHZI.eq.absolute.wait0 0x0, blend_descriptor_0.w1",
    nothing
)]
fn worked_example(
    #[case] hex: &str,
    #[case] word: u64,
    #[case] name: &str,
    #[case] text: &str,
    #[case] check: fn(&Instr),
) {
    let bytes = parse_hex(hex).unwrap();
    assert_eq!(u64::from_le_bytes(bytes), word, "stated word value");
    let instr = decode(word).unwrap();
    assert_eq!(instr.def().name, name);
    check(&instr);
    assert_eq!(disassemble(&bytes).unwrap(), text);
    assert_eq!(assemble(text).unwrap(), bytes);
    assert_eq!(encode(&instr).unwrap(), word);
    assert_eq!(instr.to_string(), text);
}
