use shaderdiff_cranelift::JitEngine;
use shaderdiff_engine::EngineConfig;
fn main() {
    let e = JitEngine::new(&EngineConfig::default());
    let text = std::env::args().nth(1).unwrap_or_default().replace("\\n", "\n");
    let n: usize = std::env::args().nth(2).map(|s| s.parse().unwrap()).unwrap_or(200);
    let progs: Vec<_> = (0..n).map(|_| shaderdiff_ir::tgsi::parse(&text, "x").unwrap()).collect();
    let refs: Vec<_> = progs.iter().collect();
    let v = e.prepare_batch(&refs); drop(v);
}
