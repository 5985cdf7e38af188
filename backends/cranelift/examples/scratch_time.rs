use shaderdiff_cranelift::JitEngine;
use shaderdiff_engine::{Engine, EngineConfig};
use std::time::Instant;
fn main() {
    let e = JitEngine::new(&EngineConfig::default());
    for body in ["", "MOV OUT[0], IMM[0]\n", "ADD OUT[0], IN[0], IMM[0]\n"] {
        let progs: Vec<_> = (0..1000).map(|k| shaderdiff_ir::tgsi::parse(&format!("VERT\nDCL IN[0]\nDCL OUT[0]\nIMM[0] FLT32 {{ {k}.0, 1.0, 2.0, 3.0 }}\n{body}END\n"), "x").unwrap()).collect();
        let refs: Vec<_> = progs.iter().collect();
        let t = Instant::now();
        for _ in 0..3 { let v = e.prepare_batch(&refs); drop(v); }
        println!("{body:?} batch: {:?}/prog", t.elapsed() / 3000);
        let t = Instant::now();
        for p in &progs[..300] { let c = e.prepare(p).unwrap(); drop(c); }
        println!("{body:?} single: {:?}/prog", t.elapsed() / 300);
    }
}
