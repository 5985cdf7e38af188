//! Tests of the timed probes: the steps the oracle records (tgsi.rst semantics of the
//! instrumented programs), and the evidence rules.

use super::*;
use crate::edit::is_valid;
use shaderdiff_oracles::interp::{run, InterpConfig};
use shaderdiff_tgsi as tgsi;

/// A loop run twice: ADD (1), UADD (2), USEQ (3) and the UIF (4) are probe points.
const TWICE: &str = "VERT\nDCL OUT[0]\nDCL TEMP[0..1]\n\
    IMM[0] FLT32 {1.0, 0.0, 0.0, 0.0}\nIMM[1] UINT32 {1, 2, 0, 0}\n\
    BGNLOOP\nADD TEMP[0].x, TEMP[0], IMM[0]\nUADD TEMP[1].x, TEMP[1], IMM[1]\n\
    USEQ TEMP[1].y, TEMP[1].xxxx, IMM[1].yyyy\nUIF TEMP[1].yyyy\nBRK\nENDIF\n\
    ENDLOOP\nMOV OUT[0], TEMP[0]\nEND\n";

/// (value .x, step) of the probe of `instruction` with `kind`.
fn probe(t: &Timed, instruction: usize, kind: ProbeKind) -> (u32, u32) {
    let p = t
        .probed
        .probes
        .iter()
        .find(|p| p.instruction == instruction && p.kind == kind)
        .unwrap();
    let inputs = Inputs {
        invocations: 1,
        ..Default::default()
    };
    let out = run(&t.probed.program, &inputs, &InterpConfig::default()).unwrap();
    let c = p.mask.trailing_zeros() as usize;
    let value = out.registers[&RegKey::new(File::Output, p.register)][0][c];
    let step =
        out.registers[&RegKey::new(File::Output, t.step_register(p.register).unwrap())][0][0];
    (value, step)
}

#[test]
fn first_mode_records_the_step_of_each_first_execution() {
    let p = tgsi::parse(TWICE, "t").unwrap();
    let t = instrument_timed(&p, TimeMode::First).unwrap();
    assert!(
        is_valid(&t.probed.program),
        "{}",
        tgsi::print(&t.probed.program)
    );
    // Iteration 1 passes ADD (step 1), UADD (2), USEQ (3), the UIF (4, not taken: 1 != 2).
    assert_eq!(probe(&t, 1, ProbeKind::Result), (1.0f32.to_bits(), 1));
    assert_eq!(probe(&t, 3, ProbeKind::Result), (0, 3));
    assert_eq!(probe(&t, 4, ProbeKind::Decision), (2, 4));
}

#[test]
fn before_mode_keeps_the_last_execution_below_the_bound() {
    let p = tgsi::parse(TWICE, "t").unwrap();
    // Iteration 2: ADD at step 5 (2.0), UADD 6, USEQ 7 (true: ~0), UIF 8 (taken).
    let all = instrument_timed(&p, TimeMode::Before(u32::MAX)).unwrap();
    assert!(
        is_valid(&all.probed.program),
        "{}",
        tgsi::print(&all.probed.program)
    );
    assert_eq!(probe(&all, 1, ProbeKind::Result), (2.0f32.to_bits(), 5));
    assert_eq!(probe(&all, 3, ProbeKind::Result), (u32::MAX, 7));
    assert_eq!(probe(&all, 4, ProbeKind::Decision), (1, 8));
    // Below step 6: ADD's second execution (5) counts, USEQ's (7) does not.
    let six = instrument_timed(&p, TimeMode::Before(6)).unwrap();
    assert_eq!(probe(&six, 1, ProbeKind::Result), (2.0f32.to_bits(), 5));
    assert_eq!(probe(&six, 3, ProbeKind::Result), (0, 3));
    assert_eq!(probe(&six, 4, ProbeKind::Decision), (2, 4));
}

#[test]
fn evidence_orders_control_flow_before_values_of_the_same_step() {
    assert_eq!(Evidence::of(0, 0), None);
    assert_eq!(Evidence::of(4, 4), Some(Evidence::At(4)));
    assert_eq!(Evidence::of(0, 9), Some(Evidence::Before(9)));
    assert_eq!(Evidence::of(7, 5), Some(Evidence::Before(5)));
    assert!(Evidence::Before(5).key() < Evidence::At(5).key());
    assert!(Evidence::At(4).key() < Evidence::Before(5).key());
    let hits = [("late", Evidence::At(9)), ("early", Evidence::At(3))];
    assert_eq!(earliest(&hits, |_| 0).unwrap().0, "early");
}
