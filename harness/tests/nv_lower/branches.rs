//! BRA (NV_vertex_program2_option, "Program Flow Control"): unstructured branches to labels
//! in ARB vertex programs, on every engine. Expected values are worked from the option's
//! text: a branch is taken when any of the four components of its condition passes and
//! execution continues after the label; labels do not stop execution; `main` is where
//! execution starts when present.

use super::support::{check, f, run_all, run_named};
use shaderdiff_nv as nv;

const HEAD: &str = "!!ARBvp1.0\nOPTION NV_vertex_program2;\nTEMP R0, R1, R2, dummy;\n";

#[test]
fn the_options_worked_example() {
    // The option's example: c[0] = (-2, 0, 2, NaN) gives CC (LT, EQ, GT, UN); `BRA label1
    // (LT.xyzw)` is taken (x is LT), so `MOV R0, R1` is skipped; `BRA label2 (LT.wyzw)`
    // sees (UN, EQ, GT, UN) and is not taken, so `MOV R0, R2` runs: R0 = R2.
    let text = format!(
        "{HEAD}MOV R0, {{0, 0, 0, 0}};\nMOV R1, {{1, 1, 1, 1}};\nMOV R2, {{2, 2, 2, 2}};\n\
         MOVC dummy, program.local[0];\nBRA label1 (LT.xyzw);\nMOV R0, R1;\nlabel1:\n\
         BRA label2 (LT.wyzw);\nMOV R0, R2;\nlabel2:\nMOV result.color, R0;\nEND\n"
    );
    let all = run_all(&text, &[[f(-2.0), f(0.0), f(2.0), f(f32::NAN)]]);
    check(&all, "result.color", 0xF, [f(2.0); 4]);
}

#[test]
fn a_backward_branch_loops_until_its_condition_fails() {
    // R0 counts 1, 2, ...; SLTC sets CC.x GT while R0.x < 5 (SLT gives 1.0) and EQ once
    // SLT gives 0.0: the loop body runs five times, R0 = 5.
    let text = format!(
        "{HEAD}PARAM five = {{5, 5, 5, 5}};\nMOV R0, {{0, 0, 0, 0}};\nloop:\n\
         ADD R0, R0, {{1, 1, 1, 1}};\nSLTC dummy, R0, five;\nBRA loop (GT.x);\n\
         MOV result.color, R0;\nEND\n"
    );
    check(&run_all(&text, &[]), "result.color", 0xF, [f(5.0); 4]);
}

#[test]
fn execution_starts_at_main_and_falls_through_labels() {
    // Start at `main` (R0 = 3), branch back to `sub` above it (R0 = 7), whose BRA goes to
    // `done`; `done` follows `main`'s block, so falling through would also reach it, but
    // only after R0 = 7.
    let text = format!(
        "{HEAD}sub:\nMOV R0, {{7, 7, 7, 7}};\nBRA done;\nmain:\nMOV R0, {{3, 3, 3, 3}};\n\
         BRA sub;\ndone:\nMOV result.color, R0;\nEND\n"
    );
    check(&run_all(&text, &[]), "result.color", 0xF, [f(7.0); 4]);
    // Labels alone do not stop execution: `a:` and `b:` are passed through.
    let text = format!(
        "{HEAD}MOV R0, {{1, 1, 1, 1}};\na:\nADD R0, R0, R0;\nb:\nADD R0, R0, R0;\n\
         BRA c (FL);\nc:\nMOV result.color, R0;\nEND\n"
    );
    check(&run_all(&text, &[]), "result.color", 0xF, [f(4.0); 4]);
}

/// ../shared/corpus/nv, piglit's `bra-01.txt`: `label1: MOVC result.position,
/// vertex.position; BRA label1 (EQ.xyzw);` loops while a component of the position is
/// zero, and ends with result.position = vertex.position when none is.
#[test]
fn corpus_bra_01_copies_a_position_without_zeros() {
    let dir = std::env::var_os("SHADERDIFF_SHARED")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared"));
    for name in ["bra_01", "bra_03"] {
        let path = dir.join(format!(
            "corpus/nv/Igalia_piglit_asmparsertest_ARBvp10_{name}.arbvp"
        ));
        let text = std::fs::read_to_string(&path).expect("corpus file");
        let pos = [f(1.5), f(-2.0), f(3.0), f(1.0)];
        let all = run_named(&text, &[("vertex.position".into(), vec![pos])], 1);
        check(&all, "result.position", 0xF, pos);
    }
}

#[test]
fn cal_in_a_program_with_bra_is_refused_at_the_cal() {
    let text = "!!ARBvp1.0\nOPTION NV_vertex_program2;\nCAL f;\nBRA e;\nf:\nRET;\ne:\n\
                MOV result.position, vertex.position;\nEND\n";
    let p = nv::parse(text, "t.nv").expect("parses");
    let e = nv::lower(&p).expect_err("refused");
    assert!(matches!(e, nv::LowerError::Unsupported { .. }), "{e}");
    assert!(e.to_string().contains("CAL in a program with BRA"), "{e}");
    assert_eq!((e.pos().line, e.pos().col), (3, 1), "{e}");
}
