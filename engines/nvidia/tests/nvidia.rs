//! The engine on NVIDIA's driver: skipped without an NVIDIA EGL device, a failure then when
//! `SHADERDIFF_REQUIRE_NVIDIA=1`. Expected values come from the specs: MOV copies its
//! operand's bits (NV_gpu_program4 §2.X.8 MOV, "Data type modifiers ... U"), so what a
//! program moves must come back unchanged, denormals, infinities and NaN payloads included.

mod common;

use common::{inputs, lower, on_nvidia, out};
use shaderdiff_engine::Engine;

/// Words no float path preserves: denormals, ±inf, NaN payloads, -0.
const SPECIAL: [[u32; 4]; 4] = [
    [0x0000_0001, 0x807f_ffff, 0x7f80_0000, 0xff80_0000],
    [0x7f80_0001, 0xffc0_1234, 0x8000_0000, 0x0000_6ce4],
    [0x3f80_0000, 0x0000_0000, 0x7fff_ffff, 0x0040_0000],
    [0xdead_beef, 0x1234_5678, 0x8000_0001, 0xffff_ffff],
];

#[test]
fn fragment_inputs_and_constants_arrive_bit_exact() {
    let Some(e) = on_nvidia() else { return };
    let l = lower(
        "!!NVfp5.0\nMOV.U result.color, fragment.texcoord[0];\nMOV.U result.color[1], program.local[0];\nEND\n",
    );
    let i = inputs(
        &l,
        4,
        &[("fragment.texcoord[0]", SPECIAL.to_vec())],
        &[("program.local[0]", SPECIAL[1])],
    );
    let o = e.execute(&l.program, &i).unwrap();
    assert_eq!(out(&l, &o, "result.color"), SPECIAL.to_vec());
    assert_eq!(out(&l, &o, "result.color[1]"), vec![SPECIAL[1]; 4]);
    assert_eq!(o.killed, Some(vec![false; 4]));
}

#[test]
fn vertex_inputs_arrive_bit_exact() {
    let Some(e) = on_nvidia() else { return };
    let l = lower("!!NVvp5.0\nMOV.U result.attrib[0], vertex.attrib[1];\nEND\n");
    let o = e
        .execute(
            &l.program,
            &inputs(&l, 4, &[("vertex.attrib[1]", SPECIAL.to_vec())], &[]),
        )
        .unwrap();
    assert_eq!(out(&l, &o, "result.attrib[0]"), SPECIAL.to_vec());
}

#[test]
fn integer_alu_runs_on_the_driver() {
    let Some(e) = on_nvidia() else { return };
    let l = lower("!!NVfp5.0\nADD.U result.color, fragment.texcoord[0], {1, 2, 3, 4};\nEND\n");
    let i = inputs(
        &l,
        4,
        &[(
            "fragment.texcoord[0]",
            vec![[0xffff_ffff, 5, 0x7fff_ffff, 0]; 4],
        )],
        &[],
    );
    let o = e.execute(&l.program, &i).unwrap();
    // ADD.U wraps modulo 2^32 (NV_gpu_program4 §2.X.4.1 integer arithmetic).
    assert_eq!(out(&l, &o, "result.color"), vec![[0, 7, 0x8000_0002, 4]; 4]);
}
