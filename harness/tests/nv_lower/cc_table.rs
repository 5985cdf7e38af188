//! Every condition-code test of NV_gpu_program4 Table X.16 (EQ GE GT LE LT NE FL TR NAN LEG
//! CF NCF OF NOF SF NSF AB BLE), read from CC0 (no suffix and `0`) and CC1 (`1`), against
//! flags set by float, signed-integer, integer-add and integer-subtract results, on every
//! engine.
//!
//! Expected values: the flags of each case are worked out by hand from §2.X.4.3 ("For
//! floating-point results, SF is set if the result is less than zero or is a NaN ... ZF ...
//! equal to zero or is a NaN"; integer SF = most significant bit, ZF = zero; OF/CF of ADD
//! and SUB from the signed / unsigned add or subtract; other instructions clear them) and
//! written next to the case; the test then evaluates Table X.16's condition column on them.
//! A CC register never updated holds all-clear flags (INTERFACE.md: condition codes start
//! as zero).

use crate::support::*;

/// The four flags of one condition-code component.
#[derive(Clone, Copy, Debug, Default)]
struct Flags {
    sf: bool,
    zf: bool,
    of: bool,
    cf: bool,
}

const fn fl(sf: bool, zf: bool, of: bool, cf: bool) -> Flags {
    Flags { sf, zf, of, cf }
}

/// Table X.16's condition column.
fn test(rule: &str, f: Flags) -> bool {
    let Flags { sf, zf, of, cf } = f;
    match rule {
        "EQ" => !sf && zf,
        "GE" => !(sf ^ of),
        "GT" => (!sf ^ of) && !zf,
        "LE" => sf ^ (zf || of),
        "LT" => (sf && !zf) ^ of,
        "NE" => sf || !zf,
        "FL" => false,
        "TR" => true,
        "NAN" => sf && zf,
        "LEG" => !sf || !zf,
        "CF" => cf,
        "NCF" => !cf,
        "OF" => of,
        "NOF" => !of,
        "SF" => sf,
        "NSF" => !sf,
        "AB" => cf && !zf,
        "BLE" => !cf || zf,
        _ => unreachable!("{rule}"),
    }
}

const RULES: [&str; 18] = [
    "EQ", "GE", "GT", "LE", "LT", "NE", "FL", "TR", "NAN", "LEG", "CF", "NCF", "OF", "NOF", "SF",
    "NSF", "AB", "BLE",
];

/// One way of setting a CC register: the instruction (`{cc}` is the update modifier), the
/// operands `a` and `b` (program.local[0] and [1]) and the hand-derived flags per component.
struct Case {
    name: &'static str,
    insn: &'static str,
    a: [u32; 4],
    b: [u32; 4],
    flags: [Flags; 4],
}

fn cases() -> Vec<Case> {
    let t = true;
    let o = false;
    vec![
        // -1.0: SF; -0.0 and +0.0: ZF only ("equal to zero"); NaN: SF and ZF.
        Case {
            name: "float signs and NaN",
            insn: "MOV.F{cc} t, a;",
            a: [f(-1.0), f(-0.0), f(0.0), 0x7FC0_0000],
            b: [0; 4],
            flags: [
                fl(t, o, o, o),
                fl(o, t, o, o),
                fl(o, t, o, o),
                fl(t, t, o, o),
            ],
        },
        // 2.5 and +inf: no flag; -inf and -1e-30: SF.
        Case {
            name: "float magnitudes",
            insn: "MOV.F{cc} t, a;",
            a: [f(2.5), f(f32::INFINITY), f(f32::NEG_INFINITY), f(-1e-30)],
            b: [0; 4],
            flags: [
                fl(o, o, o, o),
                fl(o, o, o, o),
                fl(t, o, o, o),
                fl(t, o, o, o),
            ],
        },
        // Signed integer results: SF is bit 31, ZF zero; MOV clears OF and CF.
        Case {
            name: "signed integers",
            insn: "MOV.S{cc} t, a;",
            a: [0x8000_0000, 0, 1, 0xFFFF_FFFF],
            b: [0; 4],
            flags: [
                fl(t, o, o, o),
                fl(o, t, o, o),
                fl(o, o, o, o),
                fl(t, o, o, o),
            ],
        },
        // 0xFFFFFFFF + 1 = 0: ZF, unsigned carry, no signed overflow (-1 + 1).
        // 0x7FFFFFFF + 1 = 0x80000000: SF, signed overflow, no carry.
        // 0x80000000 + 0x80000000 = 0: ZF, carry and overflow. 5 + 3 = 8: none.
        Case {
            name: "integer add",
            insn: "ADD.U{cc} t, a, b;",
            a: [0xFFFF_FFFF, 0x7FFF_FFFF, 0x8000_0000, 5],
            b: [1, 1, 0x8000_0000, 3],
            flags: [
                fl(o, t, o, t),
                fl(t, o, t, o),
                fl(o, t, t, t),
                fl(o, o, o, o),
            ],
        },
        // Subtract: CF set when the unsigned difference is >= 0 (no borrow).
        // 3 - 5 = 0xFFFFFFFE: SF, borrow (CF clear). 5 - 5 = 0: ZF, CF.
        // 0x80000000 - 1 = 0x7FFFFFFF: CF, signed overflow. 0 - 0x80000000 = 0x80000000:
        // SF, borrow, signed overflow (0 - (-2^31) = 2^31).
        Case {
            name: "integer subtract",
            insn: "SUB.U{cc} t, a, b;",
            a: [3, 5, 0x8000_0000, 0],
            b: [5, 5, 1, 0x8000_0000],
            flags: [
                fl(t, o, o, o),
                fl(o, t, o, t),
                fl(o, o, t, t),
                fl(t, o, t, o),
            ],
        },
    ]
}

/// Runs `case` updating CC with modifier `update` (`.CC`, `.CC0`, `.CC1`) and reads every
/// rule with suffix `read` (``, `0`, `1`); `same` says whether the read register is the
/// updated one (else its flags are all clear).
fn run_case(case: &Case, update: &str, read: &str, same: bool) {
    for half in RULES.chunks(9) {
        let mut text = String::from(
            "!!NVvp5.0\nPARAM a = program.local[0];\nPARAM b = program.local[1];\nTEMP t;\n",
        );
        text += &case.insn.replace("{cc}", update);
        text.push('\n');
        for (k, rule) in half.iter().enumerate() {
            text += &format!(
                "MOV.U result.attrib[{k}], 0;\nMOV.U result.attrib[{k}] ({rule}{read}), 1;\n"
            );
        }
        text += "END\n";
        let all = run_all(&text, &[case.a, case.b]);
        for (k, rule) in half.iter().enumerate() {
            let want = std::array::from_fn(|c| {
                let flags = if same {
                    case.flags[c]
                } else {
                    Flags::default()
                };
                u32::from(test(rule, flags))
            });
            let ctx = format!("{} {update} read {rule}{read}", case.name);
            for (engine, regs, _) in &all {
                let reg = format!("result.attrib[{k}]");
                let got = regs.iter().find(|(n, _)| *n == reg).map(|r| r.1);
                assert_eq!(got, Some(want), "{engine}: {ctx}");
            }
        }
    }
}

#[test]
fn every_cc_test_on_cc0() {
    for case in cases() {
        run_case(&case, ".CC", "", true);
        run_case(&case, ".CC0", "0", true);
    }
}

#[test]
fn every_cc_test_on_cc1() {
    for case in cases() {
        run_case(&case, ".CC1", "1", true);
    }
}

#[test]
fn cc0_and_cc1_are_separate_registers() {
    for case in cases() {
        // Updating CC1 leaves CC0 clear, and updating CC0 leaves CC1 clear.
        run_case(&case, ".CC1", "", false);
        run_case(&case, ".CC0", "1", false);
    }
}

#[test]
fn every_cc_test_as_an_if_condition() {
    // `IF rule.c` takes the block when component c of the test is true (§2.X.8.Z IF); each
    // component is tested by its own IF with a scalar swizzle.
    for case in cases() {
        for half in RULES.chunks(6) {
            let mut text = String::from(
                "!!NVvp5.0\nPARAM a = program.local[0];\nPARAM b = program.local[1];\nTEMP t;\n",
            );
            text += &case.insn.replace("{cc}", ".CC1");
            text.push('\n');
            for (k, rule) in half.iter().enumerate() {
                text += &format!("MOV.U result.attrib[{k}], 0;\n");
                for c in "xyzw".chars() {
                    text += &format!(
                        "IF {rule}1.{c};\nMOV.U result.attrib[{k}].{c}, 1;\nELSE;\nMOV.U result.attrib[{k}].{c}, 2;\nENDIF;\n"
                    );
                }
            }
            text += "END\n";
            let all = run_all(&text, &[case.a, case.b]);
            for (k, rule) in half.iter().enumerate() {
                let want = std::array::from_fn(|c| if test(rule, case.flags[c]) { 1 } else { 2 });
                for (engine, regs, _) in &all {
                    let reg = format!("result.attrib[{k}]");
                    let got = regs.iter().find(|(n, _)| *n == reg).map(|r| r.1);
                    assert_eq!(got, Some(want), "{engine}: {} IF {rule}1", case.name);
                }
            }
        }
    }
}
