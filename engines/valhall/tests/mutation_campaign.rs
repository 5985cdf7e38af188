//! Valhall against the oracle on a seeded campaign of generated programs: the
//! differential test cargo-mutants runs on Valhall's lowering and encoder
//! (`docs/mutation-testing.md`). `SHADERDIFF_MUTANTS_PROGRAMS` sets its size (small by
//! default, for CI).

#[path = "../../tests/support/mutation_campaign.rs"]
mod campaign;

#[test]
fn valhall_agrees_with_the_oracle_on_a_seeded_campaign() {
    campaign::run("valhall");
}
