//! Shared by the mesa engine's tests: the engine when OSMesa is here, else a printed skip
//! (or a failure when `SHADERDIFF_REQUIRE_MESA=1`, as CI sets it).

#![allow(dead_code)]

use shaderdiff_engine::{Engine, EngineConfig, EngineError, Inputs, Outputs};
use shaderdiff_mesa::MesaEngine;
use shaderdiff_model::File;
use shaderdiff_model::RegKey;
use shaderdiff_nv as nv;

/// The engine, or `None` (with a note on stderr) when OSMesa cannot be loaded.
///
/// # Panics
/// When OSMesa is missing and `SHADERDIFF_REQUIRE_MESA=1`.
pub fn engine() -> Option<MesaEngine> {
    match shaderdiff_mesa::available() {
        Ok(_) => Some(MesaEngine::new(&EngineConfig::default())),
        Err(e) => {
            if std::env::var("SHADERDIFF_REQUIRE_MESA").is_ok_and(|v| v == "1") {
                panic!("SHADERDIFF_REQUIRE_MESA=1 but the mesa engine is unavailable: {e}");
            }
            eprintln!("note: skipping mesa engine test: {e}");
            None
        }
    }
}

/// A lowered program (its IR with the ARB origin) and the lowering's names.
pub fn lower(text: &str) -> nv::Lowered {
    let p = nv::parse(text, "test").expect("parses");
    nv::lower(&p).expect("lowers")
}

/// The IR key of NV name `name` in `l`.
pub fn key(l: &nv::Lowered, name: &str) -> RegKey {
    let (f, i) = l
        .names
        .lookup(l.stage, name)
        .unwrap_or_else(|| panic!("no {name}"));
    RegKey {
        file: f,
        dimension: None,
        index: i,
    }
}

/// Inputs: `per` per-invocation registers (name, one vec4 of f32 per invocation) and
/// `consts` uniform ones.
pub fn inputs(
    l: &nv::Lowered,
    n: usize,
    per: &[(&str, Vec<[f32; 4]>)],
    consts: &[(&str, [f32; 4])],
) -> Inputs {
    let mut i = Inputs {
        invocations: n,
        ..Inputs::default()
    };
    for (name, v) in per {
        i.registers.insert(
            key(l, name),
            v.iter().map(|c| c.map(f32::to_bits)).collect(),
        );
    }
    for (name, v) in consts {
        i.constants.insert(key(l, name), v.map(f32::to_bits));
    }
    i
}

/// Runs `text` on `e`.
pub fn run(e: &MesaEngine, l: &nv::Lowered, inputs: &Inputs) -> Result<Outputs, EngineError> {
    e.execute(&l.program, inputs)
}

/// Output `name` of `o` as floats, one vec4 per invocation.
pub fn out(l: &nv::Lowered, o: &Outputs, name: &str) -> Vec<[f32; 4]> {
    let k = key(l, name);
    assert_eq!(k.file, File::Output);
    o.registers[&k]
        .iter()
        .map(|v| v.map(f32::from_bits))
        .collect()
}
