//! Generation throughput: `cargo run --release -p shaderdiff-generators --example gen_speed -- 20000`.
use shaderdiff_generators::{generate, RandomConfig};
fn main() {
    let n: u64 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(10000);
    let cfg = RandomConfig::default();
    let t = std::time::Instant::now();
    let mut insns = 0;
    for i in 0..n {
        insns += generate(1, i, &cfg).program.instructions.len();
    }
    let s = t.elapsed().as_secs_f64();
    println!(
        "{n} programs ({:.1} instructions each) in {s:.2} s: {:.0} programs/s",
        insns as f64 / n as f64,
        n as f64 / s
    );
}
