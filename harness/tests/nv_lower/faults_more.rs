//! The jit faults of NV-only constructs (`nv-ssat-as-sat`, `nv-cc-int-as-float`), and the
//! texel offsets and array layers of NV texture fetches: without the fault every engine gives the specification's value
//! (checked in table_x13_sat.rs, tex_offsets.rs, textures.rs); with it the jit gives the
//! value the fault's one-line description implies. Expected values by hand from
//! NV_gpu_program4 §2.X.4.1 (SSAT clamps to [-1, 1]), §2.X.4.4 and its §3.8.8 edit (texel
//! offsets added to the fetched texel's coordinates; the array layer is
//! `floor(r + 0.5)` clamped to the layers). Texel `n` of level `l` of the test textures
//! holds `[100l + n, 0x100 + 100l + n, ...]` (textures.rs).

use shaderdiff_backends::{engine, EngineConfig, Inputs};
use shaderdiff_nv as nv;
use shaderdiff_oracles::texture::{Format, Target, Texture};
use shaderdiff_oracles::RegKey;

use crate::support::*;
use crate::textures::tex;

/// `ADD.F.SSAT t, a, 0` with a = (-0.5, -3, 0.25, 2): SSAT gives (-0.5, -1, 0.25, 1);
/// clamped like SAT, (0, 0, 0.25, 1).
#[test]
fn ssat_clamped_like_sat() {
    let text = "!!NVvp5.0
PARAM a = program.local[0];
TEMP t;
ADD.F.SSAT t, a, 0;
MOV.F result.attrib[0], t;
END
";
    let locals = [[f(-0.5), f(-3.0), f(0.25), f(2.0)]];
    let want = [f(-0.5), f(-1.0), f(0.25), f(1.0)];
    check(&run_all(text, &locals), "result.attrib[0]", 0xF, want);
    let faulty = run_with_fault(text, &locals, "jit", "nv-ssat-as-sat");
    let got = faulty
        .iter()
        .find(|(n, _)| n == "result.attrib[0]")
        .unwrap()
        .1;
    assert_eq!(got, [f(0.0), f(0.0), f(0.25), f(1.0)]);
}

/// Runs the one texture instruction `insn` (`t` = its result, `p0` = program.local[0],
/// `texture[0]` = `texture`) on the jit with `fault` (or none); returns `t`.
fn jit_texel(insn: &str, p0: [u32; 4], texture: Texture, fault: Option<&str>) -> [u32; 4] {
    let text = format!(
        "!!NVvp5.0\nPARAM p0 = program.local[0];\nTEMP t;\nMOV.U t, 0;\n{insn}\n\
         MOV.U result.attrib[0], t;\nEND\n"
    );
    let p = nv::parse(&text, "row.nv").expect("parses");
    let l = nv::lower(&p).expect("lowers");
    let mut inputs = Inputs {
        invocations: 1,
        ..Inputs::default()
    };
    let (file, idx) = l.names.lookup(l.stage, "program.local[0]").expect("p0");
    inputs.constants.insert(RegKey::new(file, idx), p0);
    let (file, idx) = l.names.lookup(l.stage, "texture[0]").expect("texture[0]");
    inputs.textures.insert(RegKey::new(file, idx), texture);
    let config = EngineConfig {
        fault: fault.map(str::to_string),
        ..EngineConfig::default()
    };
    let out = engine("jit", &config)
        .expect("jit")
        .execute(&l.program, &inputs)
        .expect("runs");
    let (file, idx) = l.names.lookup(l.stage, "result.attrib[0]").expect("out");
    out.registers[&RegKey::new(file, idx)][0]
}

/// `TXF.F t, (1, 0), 2D 4x4, (2, 3)`: texel (3, 3) = 3 + 4*3 = 15 (a jit that ignored the
/// offset would fetch texel (1, 0) = 1).
#[test]
fn txf_applies_its_constant_offset() {
    let insn = "TXF.F t, p0, texture[0], 2D, (2, 3);";
    let t4 = || tex(Target::T2D, Format::Rgba32F, [4, 4, 1], 1);
    let p0 = [1, 0, 0, 0];
    assert_eq!(jit_texel(insn, p0, t4(), None)[0], 15);
}

/// `TEX.F t, (0.25, 0.25, 1.75), ARRAY2D 2x2 with 3 layers`: texel (0, 0), layer
/// floor(1.75 + 0.5) = 2 → 0 + 2*(0 + 2*2) = 8 (truncated, layer 1 would give 4).
#[test]
fn array_layer_rounds_to_nearest() {
    let insn = "TEX.F t, p0, texture[0], ARRAY2D;";
    let a = || tex(Target::Array2D, Format::Rgba32F, [2, 2, 3], 1);
    let p0 = [f(0.25), f(0.25), f(1.75), 0];
    assert_eq!(jit_texel(insn, p0, a(), None)[0], 8);
}

/// `MOV.S.CC t, a` with a = (-1, 0x80000000, 5, 0), then `(LT)` writes 1 and `(EQ)` writes
/// 2 over zeros. NV_gpu_program4 §2.X.4.3: for an integer result SF is its most
/// significant bit and ZF is r == 0; LT is (SF && !ZF) ^ OF and EQ is ZF (OF = 0 for MOV):
/// (1, 1, 0, 2). Tested as floats, -1 is a NaN (SF clear) and 0x80000000 is -0.0 (SF
/// clear, ZF set): (0, 2, 0, 2).
#[test]
fn integer_flags_tested_as_floats() {
    let text = "!!NVvp5.0
PARAM a = program.local[0];
TEMP t;
MOV.S.CC t, a;
MOV.F result.attrib[0], 0;
MOV.F result.attrib[0] (LT), 1;
MOV.F result.attrib[0] (EQ), 2;
END
";
    let locals = [[u32::MAX, 0x8000_0000, 5, 0]];
    let want = [f(1.0), f(1.0), f(0.0), f(2.0)];
    check(&run_all(text, &locals), "result.attrib[0]", 0xF, want);
    let faulty = run_with_fault(text, &locals, "jit", "nv-cc-int-as-float");
    let got = faulty
        .iter()
        .find(|(n, _)| n == "result.attrib[0]")
        .unwrap()
        .1;
    assert_eq!(got, [f(0.0), f(2.0), f(0.0), f(2.0)]);
}
