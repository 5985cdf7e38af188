//! Register pressure beyond the 56 allocatable registers: the compiler spills to the
//! invocation's record (thread-local memory) and the results stay exact.
//!
//! Expected values are computed here with Rust's wrapping integer arithmetic, the
//! semantics tgsi.rst gives UADD ("Integer Addition", two's complement wrap-around).

use shaderdiff_engine::{Engine, EngineConfig, Inputs};
use shaderdiff_model::File;
use shaderdiff_model::RegKey;
use shaderdiff_valhall::engine::ValhallEngine;

/// 24 TEMPs (96 channels) all live at once: each is IN[0] + IMM[i], then they are summed
/// in reverse order of definition, so every one stays live until the end.
fn program(n: usize) -> String {
    let mut t = format!("VERT\nDCL IN[0]\nDCL OUT[0]\nDCL TEMP[0..{}]\n", n - 1);
    for i in 0..n {
        let k = (i as u32 + 1) * 0x0101_0101;
        t.push_str(&format!(
            "IMM[{i}] UINT32 {{{k}, {}, {}, {}}}\n",
            k ^ 7,
            k ^ 0x70,
            k ^ 0x700
        ));
    }
    for i in 0..n {
        t.push_str(&format!("UADD TEMP[{i}], IN[0], IMM[{i}]\n"));
    }
    t.push_str(&format!("MOV OUT[0], TEMP[{}]\n", n - 1));
    for i in (0..n - 1).rev() {
        t.push_str(&format!("UADD OUT[0], OUT[0], TEMP[{i}]\n"));
    }
    t.push_str("END\n");
    t
}

#[test]
fn high_pressure_program_spills_and_stays_exact() {
    let n = 24;
    let text = program(n);
    let p = shaderdiff_tgsi::parse(&text, "spill.tgsi").expect("parses");
    let engine = ValhallEngine::new(&EngineConfig::default());
    let compiled = engine.compile(&p).expect("compiles");
    let layout = &compiled.machine.layout;
    assert!(
        layout.stride > layout.spill_base,
        "96 live values must not fit in 56 registers: expected spill slots"
    );
    assert!(
        compiled.machine.listing().contains("STORE.i32.force"),
        "spill stores use the `force` memory access (thread-local storage, SEMANTICS.md §8)"
    );
    let invocations = 20;
    let ins: Vec<[u32; 4]> = (0..invocations as u32)
        .map(|i| [i.wrapping_mul(0x9E37_79B9), i, !i, i << 20])
        .collect();
    let mut inputs = Inputs {
        invocations,
        ..Inputs::default()
    };
    inputs
        .registers
        .insert(RegKey::new(File::Input, 0), ins.clone());
    let out = engine.execute(&p, &inputs).expect("runs");
    let got = &out.registers[&RegKey::new(File::Output, 0)];
    for (i, input) in ins.iter().enumerate() {
        let mut want = [0u32; 4];
        for (c, w) in want.iter_mut().enumerate() {
            for k in 0..n {
                let base = (k as u32 + 1) * 0x0101_0101;
                let imm = [base, base ^ 7, base ^ 0x70, base ^ 0x700][c];
                *w = w.wrapping_add(input[c].wrapping_add(imm));
            }
        }
        assert_eq!(got[i], want, "invocation {i}");
    }
}
