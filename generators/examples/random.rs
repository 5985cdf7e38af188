//! Prints program `index` of campaign `seed` with its stamp:
//! `cargo run -p shaderdiff-generators --example random -- SEED INDEX [any]`.
use shaderdiff_generators::{generate, RandomConfig};
fn main() {
    let mut args = std::env::args().skip(1);
    let seed = args.next().and_then(|s| s.parse().ok()).unwrap_or(1);
    let index = args.next().and_then(|s| s.parse().ok()).unwrap_or(0);
    let defined = args.next().as_deref() != Some("any");
    let g = generate(seed, index, &RandomConfig::with_defined_only(defined));
    print!("{}", g.text);
}
