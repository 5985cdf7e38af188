//! Operand fetch and store: per-invocation indirect addressing of sources and
//! destinations, 2-D registers, swizzles, modifiers and saturation. Expected values are
//! worked by hand from tgsi.rst ("Source Modifiers", "Other Modifiers", "Array
//! Declaration", ARL/UARL) and EXEC-NOTES §1–2, as the comments show.

use shaderdiff_model::File;
use shaderdiff_model::RegKey;

use crate::support::consts::{f, fv};
use crate::support::programs::*;

/// Each invocation reads and writes TEMP[ADDR[0].x] with its *own* address (tgsi_exec
/// uses invocation 0's address for destinations, EXEC-NOTES §1 — not copied).
/// Addresses per invocation: 3, 0, 2, 1. OUT[1] = TEMP[a] = splat of (10,20,30,40)[a];
/// then TEMP[a].x = 99, so OUT[0] = (10,20,30,40) with channel a replaced by 99.
#[test]
fn indirect_source_and_destination_per_invocation() {
    let text = "VERT
DCL IN[0]
DCL OUT[0], GENERIC[0]
DCL OUT[1], GENERIC[1]
DCL TEMP[0..3], ARRAY(1)
DCL ADDR[0]
IMM[0] FLT32 { 10.0, 20.0, 30.0, 40.0 }
IMM[1] FLT32 { 99.0, 0.0, 0.0, 0.0 }
MOV TEMP[0], IMM[0].xxxx
MOV TEMP[1], IMM[0].yyyy
MOV TEMP[2], IMM[0].zzzz
MOV TEMP[3], IMM[0].wwww
UARL ADDR[0].x, IN[0].xxxx
MOV OUT[1], TEMP[ADDR[0].x](1)
MOV TEMP[ADDR[0].x](1).x, IMM[1].xxxx
MOV OUT[0].x, TEMP[0].xxxx
MOV OUT[0].y, TEMP[1].xxxx
MOV OUT[0].z, TEMP[2].xxxx
MOV OUT[0].w, TEMP[3].xxxx
END
";
    let ins = inputs(
        4,
        &[(
            input(0),
            vec![[3, 0, 0, 0], [0, 0, 0, 0], [2, 0, 0, 0], [1, 0, 0, 0]],
        )],
    );
    let want = Expect::new()
        .vals(
            out(1),
            &[fv([40.0; 4]), fv([10.0; 4]), fv([30.0; 4]), fv([20.0; 4])],
        )
        .vals(
            out(0),
            &[
                fv([10.0, 20.0, 30.0, 99.0]),
                fv([99.0, 20.0, 30.0, 40.0]),
                fv([10.0, 20.0, 99.0, 40.0]),
                fv([10.0, 99.0, 30.0, 40.0]),
            ],
        )
        .no_undefined();
    check_program(text, &ins, &want);
}

/// ARL = floor (tgsi.rst ARL: `dst = (int) floor(src)`) into ADDR[0].y, then a 2-D
/// constant read `CONST[1][ADDR[0].y+1]`. IN.x = 0.5, 2.9, -0.5, 3.0 → floor 0, 2, -1, 3
/// → CONST[1][1], [3], [0], [4], where CONST[1][i] = (i, 10i, 100i, 1000i) as integers.
#[test]
fn arl_and_indirect_2d_constant() {
    let text = "VERT
DCL IN[0]
DCL OUT[0], GENERIC[0]
DCL CONST[1][0..4]
DCL ADDR[0]
ARL ADDR[0].y, IN[0].xxxx
MOV OUT[0], CONST[1][ADDR[0].y+1]
END
";
    let mut ins = inputs(
        4,
        &[(
            input(0),
            [0.5, 2.9, -0.5, 3.0]
                .iter()
                .map(|&x| fv([x, 0.0, 0.0, 0.0]))
                .collect(),
        )],
    );
    for i in 0..5u32 {
        let key = RegKey {
            file: File::Const,
            dimension: Some(1),
            index: i,
        };
        ins.constants.insert(key, [i, 10 * i, 100 * i, 1000 * i]);
    }
    let c = |i: u32| [i, 10 * i, 100 * i, 1000 * i];
    check_program(
        text,
        &ins,
        &Expect::new().vals(out(0), &[c(1), c(3), c(0), c(4)]),
    );
}

/// `CONST[i]` is constant buffer 0: the inputs may name it `CONST[i]`.
/// Immediates can be addressed indirectly (corpus vert-arl: `IMM[ADDR[0].x + 3]`).
#[test]
fn one_dimensional_constants_and_indirect_immediates() {
    let text = "VERT
DCL IN[0]
DCL OUT[0], GENERIC[0]
DCL OUT[1], GENERIC[1]
DCL CONST[0..2]
DCL ADDR[0]
IMM[0] FLT32 { 0.0, 0.0, 0.0, 0.0 }
IMM[1] FLT32 { 1.0, 1.0, 1.0, 1.0 }
IMM[2] FLT32 { 2.0, 2.0, 2.0, 2.0 }
IMM[3] FLT32 { 3.0, 3.0, 3.0, 3.0 }
UARL ADDR[0].x, IN[0].xxxx
MOV OUT[0], CONST[2]
MOV OUT[1], IMM[ADDR[0].x+1]
END
";
    let mut ins = inputs(2, &[(input(0), vec![[0, 0, 0, 0], [2, 0, 0, 0]])]);
    ins.constants
        .insert(RegKey::new(File::Const, 2), fv([5.0, 6.0, 7.0, 8.0]));
    let want = Expect::new()
        .vals(out(0), &[fv([5.0, 6.0, 7.0, 8.0]); 2])
        .vals(out(1), &[fv([1.0; 4]), fv([3.0; 4])]);
    check_program(text, &ins, &want);
}

/// Geometry inputs are 2-D `IN[vertex][i]`, keyed `IN[v][i]` in the inputs. The vertex
/// index may be indirect per invocation; a triangle has vertices 0..2, so vertex 3 is
/// out of bounds: the read is undefined (tgsi.rst "Array Declaration": accessing outside
/// the declaration is undefined behaviour).
#[test]
fn geometry_2d_inputs_with_indirect_vertex() {
    let text = "GEOM
PROPERTY GS_INPUT_PRIMITIVE TRIANGLES
PROPERTY GS_OUTPUT_PRIMITIVE POINTS
PROPERTY GS_MAX_OUTPUT_VERTICES 1
DCL IN[][0], POSITION
DCL SV[0], INVOCATIONID
DCL OUT[0], POSITION
DCL OUT[1], GENERIC[0]
DCL ADDR[0]
UARL ADDR[0].x, SV[0].xxxx
MOV OUT[0], IN[2][0]
MOV OUT[1], IN[ADDR[0].x][0]
END
";
    let mut regs: Vec<(RegKey, Vec<[u32; 4]>)> = (0..3u32)
        .map(|v| {
            let key = RegKey {
                file: File::Input,
                dimension: Some(v),
                index: 0,
            };
            (key, vec![fv([(10 * (v + 1)) as f32; 4])])
        })
        .collect();
    regs.push((sv(0), (0..4u32).map(|i| [i, 0, 0, 0]).collect()));
    let want = Expect::new().vals(out(0), &[fv([30.0; 4]); 4]).reg(
        out(1),
        vec![v(fv([10.0; 4])), v(fv([20.0; 4])), v(fv([30.0; 4])), U4],
    );
    check_program(text, &inputs(4, &regs), &want);
}

/// tgsi.rst "Source Modifiers": swizzle, then absolute value, then negate; float modifiers
/// act on bit 31 (MOV counts as float). UADD's sources are integers, so `-src` is the
/// two's-complement negation: 5 + (-3) = 2 (EXEC-NOTES §1). A destination may alias a
/// source: MOV TEMP[0], TEMP[0].yxzw swaps x and y.
#[test]
fn swizzle_modifiers_and_aliasing() {
    let text = "VERT
DCL IN[0]
DCL OUT[0], GENERIC[0]
DCL OUT[1], GENERIC[1]
DCL OUT[2], GENERIC[2]
DCL TEMP[0]
IMM[0] INT32 { 5, 3, 0, 0 }
MOV OUT[0], -|IN[0].wzyx|
UADD OUT[1].x, IMM[0].xxxx, -IMM[0].yyyy
MOV TEMP[0], IN[0]
MOV TEMP[0], TEMP[0].yxzw
MOV OUT[2], TEMP[0]
END
";
    let ins = inputs(1, &[(input(0), vec![fv([1.0, -2.0, 3.0, -0.0])])]);
    // wzyx = (-0.0, 3, -2, 1) → |.| = (0, 3, 2, 1) → - = (-0.0, -3, -2, -1).
    let want = Expect::new()
        .vals(out(0), &[fv([-0.0, -3.0, -2.0, -1.0])])
        .xs(out(1), &[2])
        .vals(out(2), &[fv([-2.0, 1.0, 3.0, -0.0])]);
    check_program(text, &ins, &want);
}

/// tgsi.rst "Other Modifiers": `_SAT` clamps 32-bit stores to [0.0, 1.0] — as a float for
/// every opcode, so UADD_SAT's integer 0x40000000 (= 2.0f) stores 1.0 (EXEC-NOTES §2
/// [run]). NaN gives 0.0 and positive denormals are kept (EXEC-NOTES §2 [run]); -1 → 0.
#[test]
fn saturate_clamps_stores_as_float() {
    let text = "VERT
DCL IN[0]
DCL OUT[0], GENERIC[0]
DCL OUT[1], GENERIC[1]
IMM[0] INT32 { 1073741824, 0, 0, 0 }
MOV_SAT OUT[0], IN[0]
UADD_SAT OUT[1].x, IMM[0].xxxx, IMM[0].yyyy
END
";
    let ins = inputs(
        2,
        &[(
            input(0),
            vec![
                [f(f32::NAN), f(2.0), 1, f(0.5)],
                [f(-1.0), f(f32::INFINITY), f(f32::NEG_INFINITY), f(1.0)],
            ],
        )],
    );
    let want = Expect::new()
        .vals(out(0), &[[0, f(1.0), 1, f(0.5)], [0, f(1.0), 0, f(1.0)]])
        .xs(out(1), &[f(1.0); 2])
        .no_undefined();
    check_program(text, &ins, &want);
}

/// Every output register the program declares is reported, written or not (zeros).
#[test]
fn declared_outputs_are_reported() {
    let text = "VERT
DCL OUT[0..2], GENERIC[0]
IMM[0] FLT32 { 1.0, 0.0, 0.0, 0.0 }
MOV OUT[1].x, IMM[0].xxxx
END
";
    let want = Expect::new()
        .vals(out(0), &[[0; 4]; 3])
        .vals(out(1), &[[f(1.0), 0, 0, 0]; 3])
        .vals(out(2), &[[0; 4]; 3])
        .exact_registers()
        .killed(None);
    check_program(text, &inputs(3, &[]), &want);
}

/// TEXT-FORMAT.md ex07 (copied from spec/tgsi/examples/ex07.tgsi): indirect TEMP array
/// writes and reads and indirect 2-D constants, with per-invocation addresses.
const EX07: &str = "VERT
DCL IN[0]
DCL IN[1]
DCL OUT[0], POSITION
DCL CONST[0][0..3]
DCL CONST[1][0..15]
DCL TEMP[0..3], ARRAY(1)
DCL TEMP[4]
DCL ADDR[0]
  0: UARL ADDR[0].x, IN[1].xxxx
  1: MOV TEMP[ADDR[0].x](1), CONST[1][ADDR[0].x+2]
  2: ARL ADDR[0].y, IN[1].yyyy
  3: MOV TEMP[4], TEMP[ADDR[0].y+1](1).wzyx
  4: MUL TEMP[4], TEMP[4], CONST[0][0]
  5: MAD OUT[0], IN[0].xxxx, CONST[0][1], TEMP[4]
  6: END
";

/// ex07 worked with CONST[1][i] = (i, 10+i, 20+i, 30+i), CONST[0][0] = 1, CONST[0][1] = 2,
/// IN[0].x = 1, IN[1] = (a as int, b as float); OUT = 2 + TEMP[floor(b)+1].wzyx where
/// TEMP[a] = CONST[1][a+2]:
/// (1, -0.5): TEMP[0] never written → OUT = 2.
/// (2, 1.7): TEMP[2] = (4,14,24,34) → (36, 26, 16, 6).
/// (0, -1.0): TEMP[0] = (2,12,22,32) → (34, 24, 14, 4).
/// (3, 3.0): TEMP[4] is outside ARRAY(1) → undefined.
#[test]
fn example_ex07() {
    let mut ins = inputs(
        4,
        &[
            (input(0), vec![fv([1.0, 0.0, 0.0, 0.0])]),
            (
                input(1),
                vec![
                    [1, f(-0.5), 0, 0],
                    [2, f(1.7), 0, 0],
                    [0, f(-1.0), 0, 0],
                    [3, f(3.0), 0, 0],
                ],
            ),
        ],
    );
    let c = |b: u32, i: u32| RegKey {
        file: File::Const,
        dimension: Some(b),
        index: i,
    };
    for i in 0..16u32 {
        let x = i as f32;
        ins.constants
            .insert(c(1, i), fv([x, 10.0 + x, 20.0 + x, 30.0 + x]));
    }
    ins.constants.insert(c(0, 0), fv([1.0; 4]));
    ins.constants.insert(c(0, 1), fv([2.0; 4]));
    let want = Expect::new().reg(
        out(0),
        vec![
            v(fv([2.0; 4])),
            v(fv([36.0, 26.0, 16.0, 6.0])),
            v(fv([34.0, 24.0, 14.0, 4.0])),
            U4,
        ],
    );
    check_program(EX07, &ins, &want);
}

/// TEXT-FORMAT.md ex13 (tessellation control, copied from spec/tgsi/examples/ex13.tgsi):
/// 2-D outputs `OUT[v][i]` are reported keyed with their vertex; invocation l copies
/// input vertex l to output vertex l; OUT[1], OUT[2] (patch outputs) = 4.0.
#[test]
fn example_ex13_tess_ctrl_2d_outputs() {
    let text = "TESS_CTRL
PROPERTY TCS_VERTICES_OUT 3
DCL IN[][0], POSITION
DCL SV[0], INVOCATIONID
DCL OUT[][0], POSITION
DCL OUT[1], TESSOUTER
DCL OUT[2], TESSINNER
DCL ADDR[0]
IMM[0] FLT32 {    1.0000,     4.0000,     0.0000,     0.0000}
  0: UARL ADDR[0].x, SV[0].xxxx
  1: MOV OUT[ADDR[0].x][0], IN[ADDR[0].x][0]
  2: MOV OUT[1], IMM[0].yyyy
  3: MOV OUT[2], IMM[0].yyyy
  4: END
";
    let key = |file: File, v: u32| RegKey {
        file,
        dimension: Some(v),
        index: 0,
    };
    let mut regs: Vec<(RegKey, Vec<[u32; 4]>)> = (0..3u32)
        .map(|v| (key(File::Input, v), vec![fv([v as f32 + 0.5; 4])]))
        .collect();
    regs.push((sv(0), (0..3u32).map(|i| [i, 0, 0, 0]).collect()));
    // Output vertex l is written by invocation l only; the other invocations' entries for
    // it are not checked.
    let mut want = Expect::new();
    for l in 0..3usize {
        let mut per = vec![[Ch::X; 4]; 3];
        per[l] = v(fv([l as f32 + 0.5; 4]));
        want = want.reg(key(File::Output, l as u32), per);
    }
    let want = want
        .vals(out(1), &[fv([4.0; 4]); 3])
        .vals(out(2), &[fv([4.0; 4]); 3])
        .exact_registers()
        .no_undefined();
    check_program(text, &inputs(3, &regs), &want);
}
