//! Saturation of a value no instruction clamp can take (a move): `_SAT` clamps to [0, 1]
//! with −0 → +0 (tgsi.rst "Other Modifiers": the result is clamped as a float; the oracle's
//! rule, EXEC-NOTES §2), NV's `.SSAT` clamps to [−1, 1] and keeps −0 (NV_gpu_program4
//! "clamped to [-1,1]"; SEMANTICS.md §3.2: clamp(−0.0, −1, 1) = −0.0).

use shaderdiff_engine::{Engine, EngineConfig, Inputs};
use shaderdiff_model::RegKey;
use shaderdiff_model::{File, Saturate};
use shaderdiff_valhall::engine::ValhallEngine;

fn run(sat: Saturate, x: f32) -> u32 {
    let mut p = shaderdiff_tgsi::parse(
        "VERT\nDCL IN[0]\nDCL OUT[0]\nMOV OUT[0], IN[0]\nEND\n",
        "sat.tgsi",
    )
    .expect("parses");
    p.instructions[0].saturate = sat;
    let mut inputs = Inputs {
        invocations: 1,
        ..Inputs::default()
    };
    inputs
        .registers
        .insert(RegKey::new(File::Input, 0), vec![[x.to_bits(); 4]]);
    let out = ValhallEngine::new(&EngineConfig::default())
        .execute(&p, &inputs)
        .expect("runs");
    out.registers[&RegKey::new(File::Output, 0)][0][0]
}

#[test]
fn saturate_of_negative_zero() {
    assert_eq!(run(Saturate::Zero, -0.0), 0.0f32.to_bits());
    assert_eq!(run(Saturate::Signed, -0.0), (-0.0f32).to_bits());
    assert_eq!(run(Saturate::Signed, 0.0), 0.0f32.to_bits());
    assert_eq!(run(Saturate::Signed, -2.0), (-1.0f32).to_bits());
    assert_eq!(run(Saturate::Zero, 2.0), 1.0f32.to_bits());
    assert_eq!(run(Saturate::Zero, -0.5), 0.0f32.to_bits());
}
