//! The four-lane libcalls' stack slots (`alu::special::call_lanes`, `alu/libcalls.rs`): the
//! operand vectors are stored one after the other, 16 bytes each, and the helper reads
//! them all and writes its four results over the first. A slot smaller than its operands
//! would let the stores and the helper run past it into the frame, which no output shows
//! (the differential campaigns cannot see it), so the sizes are checked on the CLIF.

use crate::support::*;
use shaderdiff_cranelift::JitEngine;
use shaderdiff_engine::{Engine, EngineConfig};

/// POW takes two operands (32 bytes), EX2 one (16 bytes), each in its own slot, and every
/// store and every address stays inside its slot.
#[test]
fn each_call_slot_holds_all_its_operands() {
    let text = "FRAG
DCL IN[0], GENERIC[0], CONSTANT
DCL OUT[0], COLOR
POW OUT[0], IN[0].xxxx, IN[0].yyyy
EX2 OUT[0].y, IN[0].xxxx
END
";
    let e = JitEngine::new(&EngineConfig::default());
    let code = e.prepare(&parse(text)).expect("compiles");
    let clif = code.listing().expect("the jit lists its CLIF");
    let slot = |name: &str| -> u32 {
        let line = clif
            .lines()
            .find(|l| {
                l.trim_start()
                    .starts_with(&format!("{name} = explicit_slot "))
            })
            .unwrap_or_else(|| panic!("no {name} in\n{clif}"));
        let size = line.split("explicit_slot ").nth(1).unwrap();
        size.split(|c: char| !c.is_ascii_digit())
            .next()
            .unwrap()
            .parse()
            .unwrap()
    };
    assert_eq!(slot("ss0"), 32, "POW's two f32x4 operands");
    assert_eq!(slot("ss1"), 16, "EX2's one f32x4 operand");
    // Every access names a slot and an offset that leaves 16 bytes inside it.
    for line in clif.lines().filter(|l| l.contains("stack_")) {
        let at = line.split("ss").nth(1).expect("a slot operand");
        let slot_no: String = at.chars().take_while(char::is_ascii_digit).collect();
        let off: u32 = at.split('+').nth(1).map_or(0, |o| {
            o.trim()
                .split(|c: char| !c.is_ascii_digit())
                .next()
                .unwrap()
                .parse()
                .unwrap()
        });
        assert!(off + 16 <= slot(&format!("ss{slot_no}")), "{line}");
    }
}
