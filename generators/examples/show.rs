//! Prints a generated program for a seed: `cargo run -p shaderdiff-generators --example show -- 7`.
use shaderdiff_generators::{build_program, Choices, GenConfig};
fn main() {
    let seed: u32 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(1);
    // A simple deterministic decision stream (xorshift) for a quick look.
    let mut x = seed.wrapping_mul(2654435761) | 1;
    let data: Vec<u32> = (0..400)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            x
        })
        .collect();
    let p = build_program(&mut Choices::new(&data), &GenConfig::default());
    print!("{}", shaderdiff_tgsi::print(&p));
}
