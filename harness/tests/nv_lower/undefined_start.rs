//! The undefined start of NV_gpu_program4/5 temporaries and condition codes
//! (`frontends/nv/src/lower_start.rs`): NV_gpu_program4 §2.X.3.4 "Program Temporaries"
//! ("undefined at the beginning of each program invocation") and §2.X.3.7 "Program
//! Condition Code Registers" (CC0 and CC1 "values are undefined at the beginning of
//! program execution"). A channel computed from a TEMP or a condition code read before
//! any write is undefined in the oracle (not compared), one computed after the write is
//! exact; every engine still starts them at zero (INTERFACE.md "Anything the file does
//! not set starts as zero: ... TEMP, ... condition codes").

use crate::support::*;
use shaderdiff_model::{File, Opcode};

/// Runs `text` on the oracle (one invocation, nothing set) and returns `reg`'s
/// invocation-0 value and undefined mask (bit c = channel c).
fn oracle(text: &str, reg: &str) -> ([u32; 4], u8) {
    let p = shaderdiff_nv::parse(text, "t.nv").expect("parses");
    let l = shaderdiff_nv::lower(&p).expect("lowers");
    let inputs = shaderdiff_backends::Inputs {
        invocations: if l.stage == shaderdiff_nv::NvStage::Fragment {
            4
        } else {
            1
        },
        ..Default::default()
    };
    let o =
        shaderdiff_oracles::interp::run(&l.program, &inputs, &Default::default()).expect("runs");
    let (f, i) = l.names.lookup(l.stage, reg).expect("bound");
    let key = shaderdiff_oracles::RegKey::new(f, i);
    (
        o.registers[&key][0],
        o.undefined.get(&key).map_or(0, |u| u[0]),
    )
}

/// A TEMP read before any write: every channel of the result is undefined (§2.X.3.4), in
/// fragment and vertex programs; every engine computes -0.0, the negated zero start
/// (INTERFACE.md).
#[test]
fn an_nv_temp_read_before_writing_is_undefined() {
    let fp = "!!NVfp5.0\nTEMP t1;\nMOV.F result.color, -t1;\nEND\n";
    assert_eq!(oracle(fp, "result.color").1, 0xF);
    let vp = "!!NVvp4.0\nTEMP t1;\nADD.F result.attrib[0], t1, 1;\nEND\n";
    assert_eq!(oracle(vp, "result.attrib[0]").1, 0xF);
    let vp = "!!NVvp5.0\nTEMP t1;\nMOV.F result.attrib[0], -t1;\nEND\n";
    check(&run_all(vp, &[]), "result.attrib[0]", 0xF, [f(-0.0); 4]);
    // An integer TEMP array element read by a relative index is a TEMP too.
    let ia = "!!NVfp4.0\nINT TEMP a[2];\nMOV.S result.color, a[1];\nEND\n";
    assert_eq!(oracle(ia, "result.color").1, 0xF);
}

/// A TEMP written before it is read is exact: -(0.5) = -0.5 everywhere; after a write of
/// `.xz` only, `y` and `w` are still the undefined start (§2.X.3.4) while `x` and `z` are
/// 0.5.
#[test]
fn an_nv_temp_written_first_is_compared_exactly() {
    let text = "!!NVfp5.0\nTEMP t1;\nMOV.F t1, 0.5;\nMOV.F result.color, -t1;\nEND\n";
    assert_eq!(oracle(text, "result.color"), ([f(-0.5); 4], 0));
    check(&run_named(text, &[], 4), "result.color", 0xF, [f(-0.5); 4]);
    let text = "!!NVvp5.0\nTEMP t1;\nMOV.F t1.xz, 0.5;\nMOV.F result.attrib[0], t1;\nEND\n";
    let (v, und) = oracle(text, "result.attrib[0]");
    assert_eq!(und, 0b1010);
    assert_eq!((v[0], v[2]), (f(0.5), f(0.5)));
}

/// A condition code read before any `.CC` update (§2.X.3.7): whether the conditional write
/// `(EQ)` happens is undefined, so the written channel is; the same test after
/// `MOV.F.CC t.x, 2.0` is defined (Table X.16: GT passes when SF = ZF = 0, 2.0 > 0, so the
/// write happens: 0.5).
#[test]
fn a_condition_code_read_before_any_update_is_undefined() {
    let before = "!!NVfp5.0\nMOV.F result.color, 1;\nMOV.F result.color.x (GT.x), 0.5;\nEND\n";
    assert_eq!(oracle(before, "result.color").1 & 1, 1);
    let after = "!!NVfp5.0\nTEMP t;\nMOV.F.CC t.x, 2.0;\nMOV.F result.color, 1;\n\
                 MOV.F result.color.x (GT.x), 0.5;\nEND\n";
    assert_eq!(
        oracle(after, "result.color"),
        ([f(0.5), f(1.0), f(1.0), f(1.0)], 0)
    );
    check(
        &run_named(after, &[], 4),
        "result.color",
        0xF,
        [f(0.5), f(1.0), f(1.0), f(1.0)],
    );
    // Only CC0.x was updated: CC0.y and CC1.x are still undefined.
    let other_comp = after.replace("(GT.x)", "(GT.y)");
    assert_eq!(oracle(&other_comp, "result.color").1 & 1, 1);
    let other_reg = after.replace("(GT.x)", "(GT1.x)");
    assert_eq!(oracle(&other_reg, "result.color").1 & 1, 1);
    // A branch on a condition code before any update (§2.X.4.3 "IF").
    let branch = "!!NVvp5.0\nMOV.F result.attrib[0], 1;\nIF NE.x;\n\
                  MOV.F result.attrib[0], 0;\nENDIF;\nEND\n";
    assert_eq!(oracle(branch, "result.attrib[0]").1, 0xF);
    let branch = branch.replace("IF NE.x;", "TEMP t;\nMOV.U.CC t.x, 0;\nIF NE.x;");
    assert_eq!(
        oracle(&branch, "result.attrib[0]"),
        ([f(1.0); 4], 0),
        "ZF = 1 after writing 0: NE fails"
    );
}

/// Every stage the lowering runs (tessellation control programs are refused as a whole)
/// starts every TEMP and both condition codes (eight flag TEMPs,
/// `lower_cc.rs`) undefined: the lowering begins with one `IDIV t, 0, 0` per TEMP
/// (tgsi.rst IDIV: division by zero is undefined).
#[test]
fn every_stage_starts_temps_and_condition_codes_undefined() {
    let cases = [
        "!!NVgp5.0\nPRIMITIVE_IN POINTS;\nPRIMITIVE_OUT POINTS;\nVERTICES_OUT 1;\n\
         TEMP t;\nMOV.F.CC result.attrib[0], t;\nEMIT;\nEND\n",
        "!!NVtep5.0\nTESS_MODE TRIANGLES;\nTEMP t;\nMOV.F.CC result.position, t;\nEND\n",
        "!!NVcp5.0\nGROUP_SIZE 1;\nTEMP t;\nMOV.F.CC t, t;\nEND\n",
        "!!NVvp4.0\nTEMP t;\nMOV.F.CC result.position, t;\nEND\n",
        "!!NVfp4.0\nTEMP t;\nMOV.F.CC result.color, t;\nEND\n",
    ];
    for text in cases {
        let p = shaderdiff_nv::parse(text, "t.nv").unwrap_or_else(|e| panic!("{text}: {e}"));
        let l = shaderdiff_nv::lower(&p).unwrap_or_else(|e| panic!("{text}: {e}"));
        let undefined: Vec<i32> = l
            .program
            .instructions
            .iter()
            .take_while(|i| matches!(i.opcode, Opcode::IDIV | Opcode::AND))
            .filter(|i| i.opcode == Opcode::IDIV && i.dst[0].reg.file == File::Temp)
            .map(|i| i.dst[0].reg.index.value)
            .collect();
        // `t` is TEMP 0, CC0 and CC1 are TEMPs 1..=8.
        assert_eq!(undefined, (0..9).collect::<Vec<_>>(), "{text}");
    }
}

/// ARB temporaries keep their undefined start (ARB_vertex_program issue 16) and a
/// `LONG ATTRIB` (NV_gpu_program5 issue 6), copied into TEMPs by the lowering, stays an
/// attribute, defined from the start.
#[test]
fn arb_temps_stay_undefined_and_long_attribs_defined() {
    let arb = "!!ARBvp1.0\nTEMP t1;\nMOV result.texcoord[0], -t1;\nEND\n";
    assert_eq!(oracle(arb, "result.texcoord[0]").1, 0xF);
    // Nothing set: the attribute is 0 (INTERFACE.md), 0 + 0 = 0 in both words of each
    // component, defined.
    let long = "!!NVvp5.0\nLONG ATTRIB v = vertex.attrib[1];\nLONG TEMP d;\n\
                ADD.U64 d, v, v;\nUP64.U result.attrib[0], d;\nEND\n";
    assert_eq!(oracle(long, "result.attrib[0]"), ([0; 4], 0));
}

/// `diff --recorded` (INTERFACE.md "Recorded results"): a driver is free to return any
/// value for a TEMP read before writing it, so arbitrary words there agree, while a wrong
/// word in a channel computed after the write is a mismatch.
#[test]
fn a_recorded_driver_value_of_an_unwritten_temp_is_not_compared() {
    let dir = std::env::temp_dir().join(format!("shaderdiff-undef-start-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let text = "!!NVfp5.0\nTEMP t;\nMOV.F t.x, 0.5;\nMOV.F result.color, t;\nEND\n";
    std::fs::write(dir.join("t.nvfp"), text).unwrap();
    std::fs::write(dir.join("t.inputs.json"), "{\"invocations\": 4}").unwrap();
    let judge = |x: &str| {
        let v = format!("[\"{x}\", \"0xdeadbeef\", \"0x7fc00000\", \"0x12345678\"]");
        let rec = format!(
            "{{\"engine\": \"nvidia\", \"invocations\": 4, \"registers\": {{\"result.color\": [{v}, {v}, {v}, {v}]}}, \"killed\": [false, false, false, false]}}"
        );
        std::fs::write(dir.join("t.nvidia.json"), rec).unwrap();
        std::process::Command::new(env!("CARGO_BIN_EXE_shaderdiff"))
            .args(["diff", "--recorded"])
            .arg(dir.join("t.nvfp"))
            .output()
            .unwrap()
    };
    // 0.5 = 0x3f000000.
    let out = judge("0x3f000000");
    let stdout = String::from_utf8_lossy(&out.stdout).to_string();
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    assert!(stdout.contains("t.nvfp: agree (interp vs nvidia, recorded)"));
    let out = judge("0x3f000001");
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stdout).contains("MISMATCH"));
    let _ = std::fs::remove_dir_all(&dir);
}
