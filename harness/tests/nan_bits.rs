//! Regression: tgsi.rst does not fix the bits of a NaN that float arithmetic (or UP2H)
//! produces, so integer opcodes reading such a NaN — also after a MOV, CMP or UCMP has
//! moved it — are undetermined and never reported as a jit mismatch. These four programs
//! were false mismatches found by `fuzz --seed 7` / `--seed 2024`; `dp4_imul_hi` (from
//! `fuzz --seed 1`) is IMUL_HI of a DP4 NaN: x86 keeps the first NaN operand's sign,
//! the oracle the other's, and the high word of 1 × NaN bits is the sign.
//! `dph_ldexp_umod` (the `differential_tgsi` fuzz target): UMOD of an LDEXP of a DPH NaN;
//! LDEXP (`src0 * 2^src1`) is float arithmetic, so its NaN's bits are not fixed either.

use std::process::Command;

#[test]
fn moved_arithmetic_nans_are_not_mismatches() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/nan-bits");
    for name in [
        "cmp_and",
        "ucmp_and",
        "mad_mov",
        "up2h_snan",
        "dp4_imul_hi",
        "dph_ldexp_umod",
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_shaderdiff"))
            .args([
                "diff",
                &format!("{dir}/{name}.tgsi"),
                "--backends",
                "interp,jit",
            ])
            .output()
            .unwrap();
        assert_eq!(
            out.status.code(),
            Some(0),
            "{name}: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    }
}
