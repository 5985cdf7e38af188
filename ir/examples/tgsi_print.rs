//! Prints TGSI files in canonical form: `cargo run -p shaderdiff-ir --example tgsi_print -- FILE... [--lossless]`.
use shaderdiff_ir::tgsi::{parse, print_with, PrintOptions};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let lossless = args.iter().any(|a| a == "--lossless");
    for f in args.iter().filter(|a| !a.starts_with("--")) {
        let text = std::fs::read_to_string(f).unwrap_or_default();
        match parse(&text, f) {
            Ok(p) => print!("{}", print_with(&p, &PrintOptions { lossless })),
            Err(e) => println!("{e}"),
        }
    }
}
