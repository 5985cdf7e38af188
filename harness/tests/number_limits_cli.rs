//! User numbers past their limits through the CLI (docs/campaigns.md "Arithmetic on user
//! numbers"): `check`, `run` and `diff` exit 2 with one located line naming the limit,
//! never a panic (exit 101) or an internal error (70). Limits: TGSI address offsets and
//! register indices at most 32 767 (TEXT-FORMAT.md §7.4), labels at most 2^32 - 1; NV
//! integer constants at most 2^64 - 1 (NV_gpu_program4 §2.X.2); NV `GROUP_SIZE` sizes
//! whose product passes 64 bits never overflow an engine.

mod common;

use common::{code, run, text, Scratch};

/// `(file name, text, line:col of the number, what the message must say)`.
const CASES: &[(&str, &str, &str, &str)] = &[
    (
        "offset.tgsi",
        "FRAG\nDCL ADDR[0]\nDCL TEMP[0]\nMOV TEMP[0], TEMP[ADDR[0].x-32768]\nEND\n",
        "4:29",
        "an address offset is too large (at most 32767)",
    ),
    (
        "label.tgsi",
        "FRAG\nDCL TEMP[0]\nBGNLOOP :4294967296\nENDLOOP :0\nEND\n",
        "3:10",
        "is too large (at most 4294967295)",
    ),
    (
        "int.nvfp",
        "!!NVfp5.0\nTEMP R0;\nMOV.U R0, 18446744073709551616;\nEND\n",
        "3:11",
        "is too large",
    ),
];

#[test]
fn overflowing_numbers_exit_2_with_a_located_message() {
    let s = Scratch::new("number-limits-cli");
    for (name, body, at, needle) in CASES {
        let p = s.file(name, body);
        for cmd in ["check", "run", "diff"] {
            let o = run(&[cmd, &p]);
            let t = text(&o);
            assert_eq!(code(&o), 2, "{cmd} {name}: {t}");
            assert!(t.contains(&format!("{name}:{at}: ")), "{cmd} {name}: {t}");
            assert!(t.contains(needle), "{cmd} {name}: {t}");
        }
    }
}

#[test]
fn group_sizes_past_64_bits_never_overflow_an_engine() {
    let s = Scratch::new("number-limits-group");
    // (2^32 - 1)^3 does not fit 64 bits.
    let p = s.file(
        "group.nvcp",
        "!!NVcp5.0\nGROUP_SIZE 4294967295 4294967295 4294967295;\nTEMP t;\n\
         MOV.U t, invocation.localid;\nEND\n",
    );
    let o = run(&["check", &p]);
    assert_eq!(code(&o), 0, "the program itself is valid: {}", text(&o));
    // Each engine runs it, refuses it or reports its own failure (INTERFACE.md exit
    // statuses 0-3); none panics (101) or fails internally (70) on the group's volume.
    for backend in ["interp", "jit", "valhall"] {
        let o = run(&["run", &p, "--backend", backend]);
        let c = code(&o);
        assert!(matches!(c, 0..=3), "{backend}: exit {c}: {}", text(&o));
    }
}
