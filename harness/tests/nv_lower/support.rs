//! Running lowered NV programs on every engine and checking named outputs.

use shaderdiff_backends::{engine, EngineConfig, Inputs, ENGINE_NAMES};
use shaderdiff_model::File;
use shaderdiff_nv as nv;
use shaderdiff_oracles::RegKey;

pub type Results = Vec<(String, Vec<(String, [u32; 4])>, Option<Vec<bool>>)>;

/// Lowers `text`, sets `program.local[i]` to `locals[i]`, runs one invocation on every
/// engine and returns each engine's outputs keyed by NV result name.
pub fn run_all(text: &str, locals: &[[u32; 4]]) -> Results {
    let named: Vec<(String, Vec<[u32; 4]>)> = locals
        .iter()
        .enumerate()
        .map(|(i, v)| (format!("program.local[{i}]"), vec![*v]))
        .collect();
    run_named(text, &named, 1)
}

/// Lowers `text`, sets each named register (inputs file names: bindings or variable
/// names; one vec4 per invocation, or one for all) and runs on every engine, the oracle
/// first. Returns per engine its invocation-0 outputs by NV name and the killed flags.
pub fn run_named(text: &str, named: &[(String, Vec<[u32; 4]>)], invocations: usize) -> Results {
    let p = nv::parse(text, "t.nv").expect("parses");
    let l = nv::lower(&p).expect("lowers");
    shaderdiff_model::validate::validate(&l.program, "lowered").expect("valid IR");
    let named: Vec<(&str, Vec<[u32; 4]>)> =
        named.iter().map(|(n, v)| (n.as_str(), v.clone())).collect();
    let (inputs, _) = named_inputs(&l, &named, invocations);
    let mut all = Vec::new();
    for name in ENGINE_NAMES {
        let e = engine(name, &EngineConfig::default()).expect("engine");
        let out = e
            .execute(&l.program, &inputs)
            .unwrap_or_else(|err| panic!("{name}: {err}"));
        let regs = out
            .registers
            .iter()
            .map(|(k, v)| {
                let n = l.names.name_of(k.file, k.index).expect("named").to_string();
                (n, v[0])
            })
            .collect();
        all.push((name.to_string(), regs, out.killed.clone()));
    }
    all
}

/// The inputs of `invocations` invocations with each named register set (names as the
/// inputs file takes them: bindings, `vertex[m].*`, variable names; one vec4 per
/// invocation, or one for all; parameters go to the constants), and the names the
/// program does not read.
pub fn named_inputs(
    l: &nv::Lowered,
    named: &[(&str, Vec<[u32; 4]>)],
    invocations: usize,
) -> (Inputs, Vec<String>) {
    let mut inputs = Inputs {
        invocations,
        ..Inputs::default()
    };
    let mut unknown = Vec::new();
    for (name, v) in named {
        let Some((file, dimension, index)) = l.names.lookup_key(l.stage, name) else {
            unknown.push(name.to_string());
            continue;
        };
        let k = RegKey {
            file,
            dimension,
            index,
        };
        if file == File::Const {
            inputs.constants.insert(k, v[0]);
        } else {
            inputs.registers.insert(k, v.clone());
        }
    }
    (inputs, unknown)
}

pub fn f(x: f32) -> u32 {
    x.to_bits()
}

pub fn i(x: i32) -> u32 {
    x as u32
}

/// Checks the written channels (`mask`) of `result.attrib[n]` on every engine.
pub fn check(all: &Results, reg: &str, mask: u8, want: [u32; 4]) {
    for (engine, regs, _) in all {
        let got = regs
            .iter()
            .find(|(n, _)| n == reg)
            .unwrap_or_else(|| panic!("{engine}: no {reg} in {regs:?}"))
            .1;
        for c in 0..4 {
            if mask & (1 << c) != 0 {
                assert_eq!(
                    got[c], want[c],
                    "{engine}: {reg} channel {c}: got {:#x} want {:#x}",
                    got[c], want[c]
                );
            }
        }
    }
}

/// Lowers `text`, sets `program.local[i]` to `locals[i]` and runs one invocation on the
/// engine `name` with the catalogued fault `fault` switched on; returns the outputs by NV
/// result name.
pub fn run_with_fault(
    text: &str,
    locals: &[[u32; 4]],
    name: &str,
    fault: &str,
) -> Vec<(String, [u32; 4])> {
    let p = nv::parse(text, "t.nv").expect("parses");
    let l = nv::lower(&p).expect("lowers");
    let mut inputs = Inputs {
        invocations: 1,
        ..Inputs::default()
    };
    for (i, v) in locals.iter().enumerate() {
        let (f, idx) = l
            .names
            .lookup(l.stage, &format!("program.local[{i}]"))
            .expect("program.local is read");
        inputs.constants.insert(RegKey::new(f, idx), *v);
    }
    let config = EngineConfig {
        fault: Some(fault.to_string()),
        ..EngineConfig::default()
    };
    let out = engine(name, &config)
        .expect("engine")
        .execute(&l.program, &inputs)
        .unwrap_or_else(|err| panic!("{name}: {err}"));
    out.registers
        .iter()
        .map(|(k, v)| {
            (
                l.names.name_of(k.file, k.index).expect("named").to_string(),
                v[0],
            )
        })
        .collect()
}

/// Lowers the compute program `text`, sets `program.local[i]` to `locals[i]` and the
/// global memory regions `global` (base address, bytes), runs `invocations` invocations on
/// every engine (the oracle first) and returns each engine's outputs with the final
/// regions in `global` (`shaderdiff::nv_runtime`).
pub fn run_compute(
    text: &str,
    locals: &[[u32; 4]],
    global: &[(u64, Vec<u8>)],
    invocations: usize,
) -> Vec<(String, shaderdiff_oracles::Outputs)> {
    let p = nv::parse(text, "t.nv").expect("parses");
    let l = nv::lower(&p).expect("lowers");
    shaderdiff_model::validate::validate(&l.program, "lowered").expect("valid IR");
    let mut inputs = Inputs {
        invocations,
        ..Inputs::default()
    };
    for (i, v) in locals.iter().enumerate() {
        if let Some((f, idx)) = l.names.lookup(l.stage, &format!("program.local[{i}]")) {
            inputs.constants.insert(RegKey::new(f, idx), *v);
        }
    }
    inputs.global = global.iter().cloned().collect();
    run_lowered(&l, inputs)
}

/// Prepares `inputs` for lowered program `l` (`shaderdiff::nv_runtime::prepare`), runs it
/// on every engine (the oracle first) and returns each engine's outputs with the final
/// memory regions filled in (`nv_runtime::regions`).
pub fn run_lowered(
    l: &nv::Lowered,
    mut inputs: Inputs,
) -> Vec<(String, shaderdiff_oracles::Outputs)> {
    shaderdiff::nv_runtime::prepare(&l.program, &l.names, &mut inputs).expect("prepared");
    ENGINE_NAMES
        .iter()
        .map(|name| {
            let e = engine(name, &EngineConfig::default()).expect("engine");
            let mut out = e
                .execute(&l.program, &inputs)
                .unwrap_or_else(|err| panic!("{name}: {err}"));
            shaderdiff::nv_runtime::regions(&l.names, &inputs, &mut out);
            (name.to_string(), out)
        })
        .collect()
}

/// Runs `shaderdiff ARGS examples/NAME --inputs examples/INPUTS` (the repository's example
/// files) and returns its output.
pub fn run_example(args: &[&str], name: &str, inputs: &str) -> std::process::Output {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples");
    std::process::Command::new(env!("CARGO_BIN_EXE_shaderdiff"))
        .args(args)
        .arg(root.join(name))
        .arg("--inputs")
        .arg(root.join(inputs))
        .output()
        .expect("runs")
}
