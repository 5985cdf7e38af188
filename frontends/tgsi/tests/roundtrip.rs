//! Labels are recomputed (TEXT-FORMAT.md §7.7), `layout` and `source_map` are filled as
//! documented in program.rs, and lossless printing preserves every bit of every program,
//! including NaN payloads, denormals and -0.0 (issue requirement; C99 strtof/strtod
//! accept the `nan(0x..)`, `1e-45`, `-0.0` spellings).

mod common;

use proptest::prelude::*;
use shaderdiff_model::*;
use shaderdiff_tgsi::{parse, print, print_with, PrintOptions};

const LOSSLESS: PrintOptions = PrintOptions { lossless: true };

fn parse_ok(text: &str) -> Program {
    parse(text, "t.tgsi").unwrap_or_else(|e| panic!("{e}\n{text}"))
}

#[test]
fn wrong_if_label_is_corrected() {
    // graw fs-frontface.c: `IF … :4` points past the ELSE (§7.7). The IF label must be the
    // ELSE (instruction 3), the ELSE label the ENDIF (5).
    let text = common::read_shared("corpus/tgsi/Grima04_mesa-turnip-kgsl_fs-frontface_c_L129.tgsi");
    let p = parse_ok(&text);
    assert!(p.instructions.iter().all(|i| i.label.is_none()));
    let printed = print(&p);
    assert!(printed.contains("  1: IF TEMP[0].xxxx :3\n"), "{printed}");
    assert!(printed.contains("  3: ELSE :5\n"), "{printed}");
    // Without labels in the input the same labels are printed.
    let bare = text.replace(" :4", "").replace(" :5", "");
    assert_eq!(print(&parse_ok(&bare)), printed);
}

#[test]
fn cal_and_loop_labels_are_kept() {
    // ex06: `CAL :5` names the BGNSUB at instruction 5.
    let p = parse_ok(&common::read_shared("spec/tgsi/examples/ex06.tgsi"));
    assert_eq!(p.instructions[1].label, Some(5));
    let text = "VERT\nDCL TEMP[0]\nBGNLOOP :0\nBRK\nENDLOOP :7\nBGNLOOP\nBRK\nENDLOOP\nEND\n";
    let q = parse_ok(text);
    let labels: Vec<Option<u32>> = q.instructions.iter().map(|i| i.label).collect();
    assert_eq!(labels, vec![Some(0), None, Some(7), None, None, None, None]);
    assert_eq!(
        print(&q),
        "VERT\nDCL TEMP[0]\n  0: BGNLOOP :0\n  1:   BRK\n  2: ENDLOOP :7\n  3: BGNLOOP\n  4:   BRK\n  5: ENDLOOP\n  6: END\n"
    );
}

#[test]
fn layout_is_recorded_only_when_not_canonical() {
    let canonical = parse_ok(&common::read_shared("spec/tgsi/examples/ex02.tgsi"));
    assert!(canonical.layout.is_empty());
    // virgl fuzzer: a DCL after the IMMs.
    let text = common::read_shared(
        "corpus/tgsi/startergo_virglrenderer_virgl_fuzzer_from_states_c_L198.tgsi",
    );
    let p = parse_ok(&text);
    assert_eq!(
        p.layout[5..8],
        [Item::Immediate(0), Item::Immediate(1), Item::Declaration(5)]
    );
    let printed = print(&p);
    assert!(
        printed.contains("IMM[1] UINT32 {0, 1065353216, 0, 0}\nDCL TEMP[6..9]\n  0: SHL"),
        "{printed}"
    );
    assert_eq!(parse_ok(&printed), p);
}

#[test]
fn in_memory_program_round_trips() {
    // A program built without layout or source map, with IF labels left to the printer.
    let mut p = Program::new(Stage::Fragment);
    let mut input = Declaration::new(File::Input, 0, 0);
    input.semantic = Some((SemanticName::Generic, 0));
    input.interpolation = Some(Interpolation::Perspective);
    p.declarations.push(input);
    let mut out = Declaration::new(File::Output, 0, 0);
    out.semantic = Some((SemanticName::Color, 0));
    p.declarations.push(out);
    p.declarations.push(Declaration::new(File::Temp, 0, 1));
    p.immediates.push(Immediate {
        ty: ImmType::F32,
        words: [0.5f32.to_bits(), 0, 0x8000_0000, 1],
    });
    let temp = |i| Register::new(File::Temp, i);
    let dst = |r| Dst {
        reg: r,
        writemask: WRITEMASK_XYZW,
    };
    let mut src_x = Src::new(Register::new(File::Input, 0));
    src_x.swizzle = [0; 4];
    p.instructions = vec![
        Instruction::new(Opcode::IF, vec![], vec![src_x]),
        Instruction::new(
            Opcode::MOV,
            vec![dst(temp(0))],
            vec![Src::new(Register::new(File::Immediate, 0))],
        ),
        Instruction::new(Opcode::ELSE, vec![], vec![]),
        Instruction::new(
            Opcode::MOV,
            vec![dst(temp(0))],
            vec![Src::new(Register::new(File::Input, 0))],
        ),
        Instruction::new(Opcode::ENDIF, vec![], vec![]),
        Instruction::new(
            Opcode::MOV,
            vec![dst(Register::new(File::Output, 0))],
            vec![Src::new(temp(0))],
        ),
        Instruction::new(Opcode::END, vec![], vec![]),
    ];
    validate::validate(&p, "mem").unwrap();
    let text = print_with(&p, &LOSSLESS);
    assert!(text.contains("  0: IF IN[0].xxxx :2\n"), "{text}");
    assert!(text.contains("  2: ELSE :4\n"), "{text}");
    assert!(
        text.contains("IMM[0] FLT32 {0.5, 0.0, -0.0, 1e-45}\n"),
        "{text}"
    );
    assert_eq!(parse_ok(&text), p);
}

#[test]
fn source_map_points_at_statements_and_operands() {
    // ex02 line 8: `  0: MAD TEMP[0], IN[0], CONST[0], -CONST[1].wwww`.
    let p = parse_ok(&common::read_shared("spec/tgsi/examples/ex02.tgsi"));
    let pos = |line, col| Pos { line, col };
    assert_eq!(p.source_map.declarations[0], pos(3, 1));
    assert_eq!(p.source_map.instruction(0), Some(pos(8, 6)));
    assert_eq!(
        p.source_map.operands[0],
        vec![pos(8, 10), pos(8, 19), pos(8, 26), pos(8, 36)]
    );
    assert_eq!(p.source_map.operand(5, 0), p.source_map.instruction(5));
}

#[test]
fn lossless_keeps_special_floats() {
    let mut p = Program::new(Stage::Vertex);
    p.immediates = vec![
        // quiet NaN with payload, negative signalling NaN, smallest denormal, -0.0
        Immediate {
            ty: ImmType::F32,
            words: [0x7fc0_0001, 0xff80_0001, 0x0000_0001, 0x8000_0000],
        },
        Immediate {
            ty: ImmType::F32,
            words: [0x7f7f_ffff, 0x3dcc_cccd, 0xffc0_0000, 0x7f80_0000],
        },
        // f64: NaN with payload 1 (low word first), then -0.0
        Immediate {
            ty: ImmType::F64,
            words: [1, 0x7ff0_0000, 0, 0x8000_0000],
        },
        Immediate {
            ty: ImmType::F64,
            words: [1, 0, 0x9999_999a, 0x3fb9_9999],
        },
    ];
    let mut immx = Declaration::new(File::ImmArray, 0, 0);
    immx.values = vec![[0x7fc0_0000, 0x0000_0001, 0x8000_0000, 0x4049_0fdb]];
    p.declarations.push(immx);
    let text = print_with(&p, &LOSSLESS);
    assert!(
        text.contains("IMM[0] FLT32 {nan(0x400001), -nan(0x1), 1e-45, -0.0}\n"),
        "{text}"
    );
    assert!(
        text.contains("IMM[1] FLT32 {3.4028235e38, 0.1, -nan, inf}\n"),
        "{text}"
    );
    assert!(text.contains("IMM[2] FLT64 {nan(0x1), -0.0}\n"), "{text}");
    assert!(text.contains("IMM[3] FLT64 {5e-324, 0.1}\n"), "{text}");
    assert!(
        text.contains("DCL IMMX[0] {{nan, 1e-45, -0.0, 3.1415927}}\n"),
        "{text}"
    );
    assert_eq!(parse_ok(&text), p);
    // The default (tgsi_dump) form prints `%10.4f` / `%10.8f` (§10).
    let dump = print(&p);
    assert!(
        dump.contains("IMM[0] FLT32 {       nan,       -nan,     0.0000,    -0.0000}\n"),
        "{dump}"
    );
}

fn imm_type() -> impl Strategy<Value = ImmType> {
    prop::sample::select(ImmType::ALL.to_vec())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    /// Any immediate words of any type survive lossless printing bit-exactly.
    #[test]
    fn lossless_immediates_round_trip(imms in prop::collection::vec((imm_type(), any::<[u32; 4]>()), 1..6)) {
        let mut p = Program::new(Stage::Compute);
        p.immediates = imms.into_iter().map(|(ty, words)| Immediate { ty, words }).collect();
        let text = print_with(&p, &LOSSLESS);
        let q = parse(&text, "p");
        prop_assert!(q.is_ok(), "{:?}\n{}", q, text);
        prop_assert_eq!(q.unwrap(), p);
    }
}
