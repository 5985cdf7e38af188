//! Prints the text `generators/tests/random.rs` pins for generator stability (seed 1,
//! index 0, 4 instructions, 4 invocations): after an intended generator change,
//! `cargo run -p shaderdiff-generators --example golden > generators/tests/golden-seed1-index0.tgsi`.
use shaderdiff_generators::random::{generate, RandomConfig};
fn main() {
    let mut cfg = RandomConfig::default();
    cfg.gen.max_instructions = 4;
    cfg.invocations = 4;
    print!("{}", generate(1, 0, &cfg).text);
}
