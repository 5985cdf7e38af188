//! Shared by the nvidia engine's tests: lowering, inputs and the two ways to get an engine.
//!
//! * [`on_mesa_egl`]: this engine's code (EGL loader, runner, plans) on Mesa's llvmpipe,
//!   selected with `SHADERDIFF_NVIDIA_VENDOR=Mesa`; skipped where Mesa's EGL is missing,
//!   a failure when `SHADERDIFF_REQUIRE_MESA=1` (as CI sets it).
//! * [`on_nvidia`]: the real driver; skipped where there is no NVIDIA EGL device, a
//!   failure when `SHADERDIFF_REQUIRE_NVIDIA=1`.

#![allow(dead_code)]

use std::sync::Once;

use shaderdiff_engine::{EngineConfig, Inputs};
use shaderdiff_model::RegKey;
use shaderdiff_nv as nv;
use shaderdiff_nvidia::NvidiaEngine;

fn required(var: &str) -> bool {
    std::env::var(var).is_ok_and(|v| v == "1")
}

/// The engine on Mesa's EGL device (module docs).
///
/// # Panics
/// When it is unavailable and `SHADERDIFF_REQUIRE_MESA=1`.
pub fn on_mesa_egl() -> Option<NvidiaEngine> {
    static SET: Once = Once::new();
    // SAFETY-free: set once, before the first use of the engine in this process (each test
    // runs in its own process under nextest; under cargo test the value is the same for all).
    SET.call_once(|| std::env::set_var(shaderdiff_nvidia::VENDOR_ENV, "Mesa"));
    match shaderdiff_nvidia::available() {
        Ok(_) => Some(NvidiaEngine::new(&EngineConfig::default())),
        Err(e) => {
            if required("SHADERDIFF_REQUIRE_MESA") {
                panic!("SHADERDIFF_REQUIRE_MESA=1 but Mesa's EGL device is unavailable: {e}");
            }
            eprintln!("note: skipping nvidia-engine-on-Mesa-EGL test: {e}");
            None
        }
    }
}

/// The engine on NVIDIA's driver (module docs).
///
/// # Panics
/// When it is unavailable and `SHADERDIFF_REQUIRE_NVIDIA=1`.
pub fn on_nvidia() -> Option<NvidiaEngine> {
    assert!(
        std::env::var(shaderdiff_nvidia::VENDOR_ENV).is_err(),
        "NVIDIA tests run with the default vendor filter"
    );
    match shaderdiff_nvidia::available() {
        Ok(_) => Some(NvidiaEngine::new(&EngineConfig::default())),
        Err(e) => {
            if required("SHADERDIFF_REQUIRE_NVIDIA") {
                panic!("SHADERDIFF_REQUIRE_NVIDIA=1 but the nvidia engine is unavailable: {e}");
            }
            eprintln!("note: skipping NVIDIA test: {e}");
            None
        }
    }
}

/// A lowered program (its IR with the assembly origin).
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

/// Inputs: `per` per-invocation registers (name, one vec4 of words per invocation) and
/// `consts` uniform ones.
pub fn inputs(
    l: &nv::Lowered,
    n: usize,
    per: &[(&str, Vec<[u32; 4]>)],
    consts: &[(&str, [u32; 4])],
) -> Inputs {
    let mut i = Inputs {
        invocations: n,
        ..Inputs::default()
    };
    for (name, v) in per {
        i.registers.insert(key(l, name), v.clone());
    }
    for (name, v) in consts {
        i.constants.insert(key(l, name), *v);
    }
    i
}

/// Output `name` of `o`, one vec4 of words per invocation.
pub fn out(l: &nv::Lowered, o: &shaderdiff_engine::Outputs, name: &str) -> Vec<[u32; 4]> {
    o.registers[&key(l, name)].clone()
}

/// `[f32; 4]` as words.
pub fn bits(v: [f32; 4]) -> [u32; 4] {
    v.map(f32::to_bits)
}
