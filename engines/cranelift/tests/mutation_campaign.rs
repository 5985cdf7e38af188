//! The jit against the oracle on a seeded campaign of generated programs: the
//! differential test cargo-mutants runs on the jit's lowering (`docs/mutation-testing.md`).
//! `SHADERDIFF_MUTANTS_PROGRAMS` sets its size (small by default, for CI).

#[path = "../../tests/support/mutation_campaign.rs"]
mod campaign;

#[test]
fn jit_agrees_with_the_oracle_on_a_seeded_campaign() {
    campaign::run("jit");
}
