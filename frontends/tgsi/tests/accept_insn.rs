//! IMM and instructions: value syntaxes (TEXT-FORMAT.md §1, §8), operands (§7.3–§7.6),
//! labels (§7.1, §7.7), the lenient forms and legacy syntax the corpus uses, and every
//! opcode of opcodes.csv with its operand counts.

mod common;

use rstest::rstest;
use shaderdiff_model::*;
use shaderdiff_tgsi::{parse, print};

fn parse_ok(text: &str) -> Program {
    parse(text, "t.tgsi").unwrap_or_else(|e| panic!("{e}\n{text}"))
}

const F: fn(f32) -> u32 = f32::to_bits;

// §8 value syntaxes; expected words: IEEE encodings, two's complement, C strto* rules (§1).
#[rstest]
#[case("FLT32 {1, 1., .5, -2.5e-3}", [F(1.0), F(1.0), F(0.5), F(-2.5e-3)])]
#[case("FLT32 {0x1.8p+1, 0x3f800000, inf, -inf}", [F(3.0), F(1065353216.0), 0x7f80_0000, 0xff80_0000])]
#[case("FLT32 {nan, INFINITY, +1, -0}", [0x7fc0_0000, 0x7f80_0000, F(1.0), 0x8000_0000])]
#[case("FLT32 {1e-45, 3.4028235e38, 1e39, 0x1p-149}", [1, 0x7f7f_ffff, 0x7f80_0000, 1])]
#[case("FLT32 {nan(0x400001), -nan(0x1), 1E3, 0X1P-2}", [0x7fc0_0001, 0xff80_0001, F(1000.0), F(0.25)])]
#[case("INT32 {4294967295, -2147483648, +7, -0}", [u32::MAX, 0x8000_0000, 7, 0])]
#[case("UINT32 {4294967296, 0, 1, 4294967295}", [0, 0, 1, u32::MAX])]
#[case("FLT64 {0.1, -2.5}", [0x9999_999a, 0x3fb9_9999, 0, 0xc004_0000])]
#[case("INT64 {010, 0x10}", [8, 0, 16, 0])]
#[case("INT64 {-9223372036854775808, 99999999999999999999}", [0, 0x8000_0000, u32::MAX, 0x7fff_ffff])]
#[case("UINT64 {-1, 0x1}", [u32::MAX, u32::MAX, 1, 0])]
#[case("UINT64 {18446744073709551615, 1}", [u32::MAX, u32::MAX, 1, 0])]
fn immediate_values(#[case] text: &str, #[case] words: [u32; 4]) {
    let p = parse_ok(&format!("VERT\nIMM {text}\n"));
    assert_eq!(p.immediates[0].words, words);
    assert_eq!(p.immediates[0].ty.name(), text.split(' ').next().unwrap());
}

// §10: printed forms of immediates (`%10.4f`, `%10.8f`, `%u`, `%d`, `%lld`, `%llu`); the
// float renderings are the [verified] examples listed in §10.
#[rstest]
#[case(
    "FLT32 {0.5, 10000000000, -1e-5, 0.1234567}",
    "IMM[0] FLT32 {    0.5000, 10000000000.0000,    -0.0000,     0.1235}"
)]
#[case(
    "FLT32 {nan, inf, -inf, 1}",
    "IMM[0] FLT32 {       nan,        inf,       -inf,     1.0000}"
)]
#[case(
    "INT32 {-7, 2, -2147483648, 0}",
    "IMM[0] INT32 {-7, 2, -2147483648, 0}"
)]
#[case(
    "UINT32 {4042322160, 4, 8, 31}",
    "IMM[0] UINT32 {4042322160, 4, 8, 31}"
)]
#[case("FLT64 {0.1, -2.5}", "IMM[0] FLT64 {0.10000000, -2.50000000}")]
#[case("INT64 {-5, 0x10}", "IMM[0] INT64 {-5, 16}")]
#[case(
    "UINT64 {18446744073709551615, 1}",
    "IMM[0] UINT64 {18446744073709551615, 1}"
)]
fn immediate_printing(#[case] text: &str, #[case] printed: &str) {
    let p = parse_ok(&format!("VERT\nIMM[0] {text}\n"));
    assert_eq!(print(&p), format!("VERT\n{printed}\n"));
}

const DECLS: &str = "FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\nDCL TEMP[0..7]\nDCL TEMP[8..11], ARRAY(1)\nDCL ADDR[0..1]\nDCL CONST[0..7]\nDCL CONST[1][0..15]\nDCL SAMP[0]\nDCL SVIEW[0], 2D, FLOAT\nDCL BUFFER[0]\nDCL IMAGE[0], 2D, PIPE_FORMAT_R32_UINT, WR\nIMM[0] INT32 {1, -1, 0, 0}\n";

/// Parses `insn` after DECLS and returns the instruction and its printed form (after `N: `).
fn one(insn: &str) -> (Instruction, String) {
    let p = parse_ok(&format!("{DECLS}{insn}\n"));
    let printed = print(&p);
    let line = printed.lines().last().unwrap()[5..].to_string();
    assert_eq!(parse_ok(&printed), p, "print/parse round trip");
    (p.instructions[0].clone(), line)
}

// §7.2–§7.6: operand syntax and its tgsi_dump form (writemask/swizzle only when not
// identity, `-` then `|`, indirect `FILE[ADDR[i].c+off](id)`, no `+0`).
#[rstest]
#[case::sat("MOV_SAT TEMP[0], IN[0]", "MOV_SAT TEMP[0], IN[0]")]
#[case::precise(
    "MUL_PRECISE TEMP[0], IN[0], IN[0]",
    "MUL_PRECISE TEMP[0], IN[0], IN[0]"
)]
#[case::sat_precise(
    "MUL_SAT_PRECISE TEMP[0], IN[0], IN[0]",
    "MUL_SAT_PRECISE TEMP[0], IN[0], IN[0]"
)]
#[case::sat_on_integer(
    "UADD_SAT TEMP[0], TEMP[1], TEMP[2]",
    "UADD_SAT TEMP[0], TEMP[1], TEMP[2]"
)]
#[case::modifiers(
    "MAD TEMP[0], -IN[0], |TEMP[1].yxzw|, -|CONST[0].wwww|",
    "MAD TEMP[0], -IN[0], |TEMP[1].yxzw|, -|CONST[0].wwww|"
)]
#[case::identity_dropped("MOV TEMP[0].xyzw, IN[0].xyzw", "MOV TEMP[0], IN[0]")]
#[case::writemask("MOV TEMP[0].xzw, IN[0]", "MOV TEMP[0].xzw, IN[0]")]
#[case::spaces("MOV TEMP[ 1 ] .xy ,- TEMP[0] . wzyx", "MOV TEMP[1].xy, -TEMP[0].wzyx")]
#[case::no_spaces("MOV TEMP[0],TEMP[0]", "MOV TEMP[0], TEMP[0]")]
#[case::case_insensitive("mov temp[0].XY, temp[0].wzyx", "MOV TEMP[0].xy, TEMP[0].wzyx")]
#[case::indirect(
    "MOV TEMP[ADDR[0].x+3](1), CONST[ADDR[1].y-1]",
    "MOV TEMP[ADDR[0].x+3](1), CONST[ADDR[1].y-1]"
)]
#[case::indirect_default_x("MOV TEMP[0], CONST[ADDR[0]]", "MOV TEMP[0], CONST[ADDR[0].x]")]
#[case::indirect_spaces("MOV TEMP[0], CONST[ADDR[0].x + 3]", "MOV TEMP[0], CONST[ADDR[0].x+3]")]
#[case::indirect_zero_offset("MOV TEMP[0], CONST[ADDR[0].z+0]", "MOV TEMP[0], CONST[ADDR[0].z]")]
#[case::direct_array_id_dropped("MOV TEMP[5](1), IN[0]", "MOV TEMP[5], IN[0]")]
#[case::two_d("MOV TEMP[0], CONST[1][3]", "MOV TEMP[0], CONST[1][3]")]
#[case::two_d_indirect("MOV TEMP[0], CONST[ADDR[0].x][1]", "MOV TEMP[0], CONST[ADDR[0].x][1]")]
#[case::tex("TEX TEMP[0], IN[0], SAMP[0], 2D", "TEX TEMP[0], IN[0], SAMP[0], 2D")]
#[case::tex_offsets(
    "TXB TEMP[1], IN[0].xyzz, SAMP[0], 2d, IMM[0].xyz, IMM[0].zzy",
    "TXB TEMP[1], IN[0].xyzz, SAMP[0], 2D, IMM[0].xyz, IMM[0].zzy"
)]
#[case::cube_array(
    "TEX2 TEMP[0], IN[0], TEMP[1], SAMP[0], SHADOWCUBEARRAY",
    "TEX2 TEMP[0], IN[0], TEMP[1], SAMP[0], SHADOWCUBEARRAY"
)]
#[case::sample_offsets(
    "SAMPLE TEMP[0], IN[0], SVIEW[0], SAMP[0], IMM[0].xyz",
    "SAMPLE TEMP[0], IN[0], SVIEW[0], SAMP[0], IMM[0].xyz"
)]
#[case::memory(
    "LOAD TEMP[1].x, BUFFER[0], TEMP[0].xxxx, VOLATILE",
    "LOAD TEMP[1].x, BUFFER[0], TEMP[0].xxxx, VOLATILE"
)]
#[case::memory_order(
    "LOAD TEMP[2], IMAGE[0], IN[0], PIPE_FORMAT_R32_UINT, 2D, STREAM_CACHE_POLICY, COHERENT",
    "LOAD TEMP[2], IMAGE[0], IN[0], COHERENT, STREAM_CACHE_POLICY, 2D, PIPE_FORMAT_R32_UINT"
)]
#[case::memory_buffer_target(
    "LOAD TEMP[2], BUFFER[0], IN[0], BUFFER",
    "LOAD TEMP[2], BUFFER[0], IN[0]"
)]
#[case::store(
    "STORE BUFFER[0].x, TEMP[0].xxxx, TEMP[1].xxxx",
    "STORE BUFFER[0].x, TEMP[0].xxxx, TEMP[1].xxxx"
)]
#[case::barrier_qualifier("BARRIER, VOLATILE", "BARRIER, VOLATILE")]
#[case::short_swizzle_1("MOV TEMP[0], IN[0].y", "MOV TEMP[0], IN[0].yyyy")]
#[case::short_swizzle_2("MOV TEMP[0], IN[0].xz", "MOV TEMP[0], IN[0].xzzz")]
#[case::short_swizzle_3("MOV TEMP[0], IN[0].xyw", "MOV TEMP[0], IN[0].xyww")]
#[case::short_offset(
    "TXB TEMP[1], IN[0], SAMP[0], 2D, IMM[0].x",
    "TXB TEMP[1], IN[0], SAMP[0], 2D, IMM[0].xxx"
)]
#[case::legacy_abs("ABS TEMP[0], IN[0]", "ABS TEMP[0], IN[0]")]
#[case::legacy_sub("SUB TEMP[0], IN[0], TEMP[1]", "SUB TEMP[0], IN[0], TEMP[1]")]
#[case::legacy_xpd("XPD TEMP[0], IN[0], IN[0].yzxw", "XPD TEMP[0], IN[0], IN[0].yzxw")]
#[case::legacy_dph("DPH TEMP[0], IN[0], TEMP[1]", "DPH TEMP[0], IN[0], TEMP[1]")]
#[case::legacy_kil("KIL TEMP[0]", "KIL TEMP[0]")]
#[case::legacy_kilp("KILP", "KILP")]
fn operands(#[case] insn: &str, #[case] printed: &str) {
    assert_eq!(one(insn).1, printed);
}

#[test]
fn operand_fields() {
    let (i, _) =
        one("MAD_SAT TEMP[ADDR[1].w-2](1).yw, -|CONST[ADDR[0].y][3].zyxw|, IN[0].x, CONST[1][5]");
    assert_eq!(
        (i.opcode, i.saturate, i.precise),
        (Opcode::MAD, Saturate::Zero, false)
    );
    let d = i.dst[0];
    assert_eq!(d.writemask, 0b1010);
    assert_eq!(
        d.reg.index,
        Index {
            value: -2,
            indirect: Some(Indirect {
                file: File::Address,
                index: 1,
                component: 3
            }),
            array_id: 1
        }
    );
    let s = i.src[0];
    assert!(s.neg && s.abs);
    assert_eq!(s.swizzle, [2, 1, 0, 3]);
    assert_eq!(s.reg.index, Index::direct(3));
    assert_eq!(
        s.reg.dimension.unwrap().indirect,
        Some(Indirect {
            file: File::Address,
            index: 0,
            component: 1
        })
    );
    assert_eq!(i.src[1].swizzle, [0; 4]);
    assert_eq!(
        (i.src[2].reg.dimension, i.src[2].reg.index),
        (Some(Index::direct(1)), Index::direct(5))
    );
    let (t, _) = one("TXB TEMP[1], IN[0], SAMP[0], 2D, IMM[0].zyx");
    assert_eq!(t.texture, Some(TexTarget::T2D));
    assert_eq!(
        t.tex_offsets,
        vec![TexOffset {
            reg: Register::new(File::Immediate, 0),
            swizzle: [2, 1, 0]
        }]
    );
    let (m, _) = one("LOAD TEMP[2], IMAGE[0], IN[0], 2D, PIPE_FORMAT_R32_UINT, RESTRICT");
    assert_eq!(
        m.mem,
        Some(MemInfo {
            qualifiers: 2,
            target: Some(TexTarget::T2D),
            format: Some("PIPE_FORMAT_R32_UINT".into())
        })
    );
}

#[test]
fn whole_program_on_one_line_without_end() {
    // §1 [verified]: `VERT DCL TEMP[0] MOV TEMP[0], TEMP[0] END` parses; END is optional.
    let p = parse_ok("VERT DCL TEMP[0] MOV TEMP[0], TEMP[0] END");
    assert_eq!(p.instructions.len(), 2);
    let q = parse_ok("VERT DCL TEMP[0] MOV TEMP[0], TEMP[0]");
    assert_eq!(q.instructions.len(), 1);
}

#[test]
fn label_prefixes_are_ignored() {
    // §7.1: `N:` is neither checked nor stored; `0:MOV` (no space, graw tri-gs.c) and `5 : NOP`.
    let a = parse_ok("VERT\nDCL TEMP[0]\n0:MOV TEMP[0], TEMP[0]\n5 : NOP\n7: END\n");
    let b = parse_ok("VERT\nDCL TEMP[0]\nMOV TEMP[0], TEMP[0]\nNOP\nEND\n");
    assert_eq!(a, b);
}

#[test]
fn lenient_crlf_blank_lines_trailing_spaces_and_unindexed_imm() {
    let lf = common::read_shared("spec/tgsi/examples/ex03.tgsi");
    let crlf = lf.replace('\n', "\r\n");
    assert_eq!(parse_ok(&crlf), parse_ok(&lf));
    let a = parse_ok("FRAG\n\n\nDCL TEMP[0]   \n\nIMM FLT32 { 1.0, 2.0, 3.0, 4.0 }  \nIMM UINT32 {1, 2, 3, 4}\nMOV TEMP[0], IMM[1].x  \n\n");
    let b = parse_ok("FRAG\nDCL TEMP[0]\nIMM[0] FLT32 {1, 2, 3, 4}\nIMM[1] UINT32 {1, 2, 3, 4}\nMOV TEMP[0], IMM[1].xxxx\n");
    assert_eq!(a, b);
}

#[test]
fn legacy_emit_without_stream() {
    // corpus add-mix.txt: `EMIT` / `ENDPRIM` without the stream operand (pre-2013 syntax).
    let p = parse_ok("GEOM\nPROPERTY GS_INPUT_PRIMITIVE POINTS\nDCL IN[][0], POSITION\nDCL OUT[0], POSITION\nMOV OUT[0], IN[0][0]\nEMIT\nENDPRIM\nEND\n");
    assert!(p.instructions[1].src.is_empty() && p.instructions[2].src.is_empty());
    assert!(print(&p).contains("  1: EMIT\n  2: ENDPRIM\n"));
}

/// One row of opcodes.csv: (name, num_dst, num_src, is_tex, extras column).
fn csv_rows() -> Vec<(String, usize, usize, bool, String)> {
    let csv = common::read_shared("spec/tgsi/opcodes.csv");
    csv.lines()
        .skip(1)
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let c: Vec<&str> = l.split(',').collect();
            (
                c[1].to_string(),
                c[2].parse().unwrap(),
                c[3].parse().unwrap(),
                c[5] == "1",
                c[12].to_string(),
            )
        })
        .collect()
}

/// A program exercising `name` with `nd` destinations and `ns` sources, wrapped in the
/// control structure the opcode needs.
fn program_for(name: &str, nd: usize, ns: usize, target: bool) -> String {
    // tgsi.rst "Interpolation ISA": INTERP_* read a fragment input as their first source.
    let interp = name.starts_with("INTERP_");
    let mut ops: Vec<String> = (0..nd).map(|_| "TEMP[0]".to_string()).collect();
    ops.extend((0..ns).map(|k| match k {
        0 if interp => "IN[0]".to_string(),
        _ => format!("TEMP[{}]", k + 1),
    }));
    if target {
        ops.push("2D".into());
    }
    let mut insn = name.to_string();
    if !ops.is_empty() {
        insn += " ";
        insn += &ops.join(", ");
    }
    let (before, after) = match name {
        "IF" | "UIF" => ("", "ENDIF"),
        "ELSE" => ("IF TEMP[1].xxxx", "ENDIF"),
        "ENDIF" => ("IF TEMP[1].xxxx", ""),
        "BGNLOOP" => ("", "ENDLOOP"),
        "ENDLOOP" => ("BGNLOOP", ""),
        "BRK" | "CONT" => ("BGNLOOP", "ENDLOOP"),
        "SWITCH" => ("", "ENDSWITCH"),
        "CASE" | "DEFAULT" => ("SWITCH TEMP[1].xxxx", "ENDSWITCH"),
        "ENDSWITCH" => ("SWITCH TEMP[1].xxxx", ""),
        "BGNSUB" => ("END", "RET\nENDSUB"),
        "ENDSUB" => ("END\nBGNSUB", ""),
        "CAL" => ("", "END\nBGNSUB\nRET\nENDSUB"),
        _ => ("", ""),
    };
    if name == "CAL" {
        insn += " :2";
    }
    if interp {
        return format!("FRAG\nDCL IN[0], GENERIC[0]\nDCL TEMP[0..7]\n{insn}\n");
    }
    format!("COMP\nDCL TEMP[0..7]\n{before}\n{insn}\n{after}\n")
}

#[test]
fn every_opcode_parses_with_its_operand_counts() {
    // opcodes.csv is the reference for names and counts (243 rows, §7.2).
    let rows = csv_rows();
    assert_eq!(rows.len(), 243);
    for (name, nd, ns, is_tex, extras) in &rows {
        assert_eq!(*is_tex, extras.contains("texture_target"), "{name}");
        let text = program_for(name, *nd, *ns, *is_tex);
        let p = parse(&text, name).unwrap_or_else(|e| panic!("{e}\n{text}"));
        let i = p
            .instructions
            .iter()
            .find(|i| i.opcode.name() == name)
            .unwrap();
        assert_eq!((i.dst.len(), i.src.len()), (*nd, *ns), "{name}");
        assert_eq!(parse(&print(&p), name).unwrap(), p, "{name}");
        // One source too many is rejected, and so is one too few (EMIT/ENDPRIM may omit
        // their only source, the legacy form).
        // An extra register after SAMPLE*/GATHER4 sources is a texel offset (§7.5).
        let offsets_only = extras.contains("tex_offsets") && !is_tex;
        if name != "CAL"
            && !matches!(name.as_str(), "EMIT" | "ENDPRIM")
            && nd + ns > 0
            && !offsets_only
        {
            let more = program_for(name, *nd, ns + 1, *is_tex);
            let e = parse(&more, name).expect_err(&more);
            assert!(
                e.message.contains(&format!("{name} takes"))
                    || e.message.contains("texture target"),
                "{e}"
            );
            let fewer = if *ns > 0 {
                program_for(name, *nd, ns - 1, *is_tex)
            } else {
                program_for(name, 0, *ns, *is_tex)
            };
            let e = parse(&fewer, name).expect_err(&fewer);
            assert!(
                e.message.contains("takes")
                    || e.message.contains("texture target")
                    || e.message.contains("register file"),
                "{e}"
            );
        }
    }
}
