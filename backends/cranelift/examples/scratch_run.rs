use shaderdiff_cranelift::JitEngine;
use shaderdiff_engine::{Engine, EngineConfig, Inputs};
use shaderdiff_oracles::RegKey;
use shaderdiff_ir::File;
use std::time::{Instant, Duration};
fn main() {
    let text = std::fs::read_to_string("/tmp/bench64.tgsi").unwrap();
    let p = shaderdiff_ir::tgsi::parse(&text, "x").unwrap();
    let e = JitEngine::new(&EngineConfig::default());
    let mut cs = vec![];
    for _ in 0..51 { let t = Instant::now(); let c = e.prepare(&p).unwrap(); cs.push(t.elapsed()); drop(c); }
    cs.sort();
    let c = e.prepare(&p).unwrap();
    let n = 65536;
    let mut ins = Inputs { invocations: n, ..Inputs::default() };
    ins.registers.insert(RegKey::new(File::Input, 0), (0..n).map(|i| [(i as f32 * 0.001).to_bits(); 4]).collect());
    ins.registers.insert(RegKey::new(File::Input, 1), (0..n).map(|i| [(0.5 - i as f32 * 0.0001).to_bits(); 4]).collect());
    let mut rs: Vec<Duration> = vec![];
    for _ in 0..31 { let t = Instant::now(); let o = e.run(c.as_ref(), &ins).unwrap(); rs.push(t.elapsed()); drop(o); }
    rs.sort();
    println!("compile median {:?}; run median {:?} = {:.3} ns/inv-insn", cs[25], rs[15], rs[15].as_secs_f64()*1e9/(n as f64*64.0));
}
