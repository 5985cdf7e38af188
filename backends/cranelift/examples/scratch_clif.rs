use shaderdiff_cranelift::JitEngine;
use shaderdiff_engine::{Engine, EngineConfig};
fn main() {
    let path = std::env::args().nth(1).unwrap();
    let text = std::fs::read_to_string(&path).unwrap();
    let p = shaderdiff_ir::tgsi::parse(&text, &path).unwrap();
    let e = JitEngine::new(&EngineConfig::default());
    let c = e.prepare(&p).unwrap();
    println!("{}", c.listing().unwrap());
}
