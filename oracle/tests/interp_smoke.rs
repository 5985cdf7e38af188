//! Smoke test of the interpreter API on a program built with IR constructors
//! (independent of the text parser): TEXT-FORMAT.md example ex04.

use shaderdiff_model::{
    Declaration, Dst, File, ImmType, Immediate, Instruction, Opcode, Program, Register, Src, Stage,
};
use shaderdiff_oracles::interp::{run, InterpConfig};
use shaderdiff_oracles::{Inputs, RegKey};

fn src(file: File, index: i32, swizzle: [u8; 4]) -> Src {
    Src {
        swizzle,
        ..Src::new(Register::new(file, index))
    }
}

fn dst(file: File, index: i32, writemask: u8) -> Dst {
    Dst {
        reg: Register::new(file, index),
        writemask,
    }
}

fn insn(op: Opcode, d: Vec<Dst>, s: Vec<Src>) -> Instruction {
    Instruction::new(op, d, s)
}

/// ex04 (TEXT-FORMAT.md "ex04 – loop with BRK and CONT"). Worked trace: x starts at 0;
/// each iteration breaks if x >= 10, else x += 1 and, when x % 3 != 0, CONT skips the
/// `y += 1`. So y counts x in 1..=10 divisible by 3 (3, 6, 9): y = 3, and the loop exits
/// with x = 10. TEXT-FORMAT.md gives the tgsi_exec result OUT[1] = (10.0, 3.0, 0, 0).
#[test]
fn ex04_loop_with_brk_and_cont() {
    let (t, imm) = (File::Temp, File::Immediate);
    let xxxx = [0, 0, 0, 0];
    let mut p = Program::new(Stage::Vertex);
    p.declarations = vec![
        Declaration::new(File::Input, 0, 0),
        Declaration::new(File::Output, 0, 1),
        Declaration::new(File::Temp, 0, 2),
    ];
    p.immediates = vec![Immediate {
        ty: ImmType::I32,
        words: [0, 1, 10, 3],
    }];
    p.instructions = vec![
        insn(Opcode::MOV, vec![dst(t, 0, 0x3)], vec![src(imm, 0, xxxx)]),
        insn(Opcode::BGNLOOP, vec![], vec![]),
        insn(
            Opcode::ISGE,
            vec![dst(t, 1, 0x1)],
            vec![src(t, 0, xxxx), src(imm, 0, [2; 4])],
        ),
        insn(Opcode::UIF, vec![], vec![src(t, 1, xxxx)]),
        insn(Opcode::BRK, vec![], vec![]),
        insn(Opcode::ENDIF, vec![], vec![]),
        insn(
            Opcode::UADD,
            vec![dst(t, 0, 0x1)],
            vec![src(t, 0, xxxx), src(imm, 0, [1; 4])],
        ),
        insn(
            Opcode::UMOD,
            vec![dst(t, 1, 0x2)],
            vec![src(t, 0, xxxx), src(imm, 0, [3; 4])],
        ),
        insn(Opcode::UIF, vec![], vec![src(t, 1, [1; 4])]),
        insn(Opcode::CONT, vec![], vec![]),
        insn(Opcode::ENDIF, vec![], vec![]),
        insn(
            Opcode::UADD,
            vec![dst(t, 0, 0x2)],
            vec![src(t, 0, [1; 4]), src(imm, 0, [1; 4])],
        ),
        insn(Opcode::ENDLOOP, vec![], vec![]),
        insn(
            Opcode::I2F,
            vec![dst(t, 2, 0x3)],
            vec![src(t, 0, [0, 1, 1, 1])],
        ),
        insn(
            Opcode::MOV,
            vec![dst(File::Output, 0, 0xF)],
            vec![src(File::Input, 0, [0, 1, 2, 3])],
        ),
        insn(
            Opcode::MOV,
            vec![dst(File::Output, 1, 0xF)],
            vec![src(t, 2, [0, 1, 2, 3])],
        ),
        insn(Opcode::END, vec![], vec![]),
    ];
    let inputs = Inputs {
        invocations: 4,
        ..Inputs::default()
    };
    let out = run(&p, &inputs, &InterpConfig::default()).expect("runs");
    let o1 = &out.registers[&RegKey::new(File::Output, 1)];
    for v in o1 {
        assert_eq!(*v, [10.0f32.to_bits(), 3.0f32.to_bits(), 0, 0]);
    }
    assert!(out.undefined.is_empty());
    assert_eq!(out.killed, None);
}
