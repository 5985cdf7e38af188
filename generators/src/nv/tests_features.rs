//! The features of random NV programs (`nv/features.rs`, `emit/{stage,extra,branch}.rs`):
//! every feature appears, every program is valid, inputs match the resources, BRA
//! programs end, and the knobs at zero keep the ALU streams (determinism: `tests.rs`).

use std::collections::BTreeSet;

use super::*;
use shaderdiff_nv as nv;
use shaderdiff_oracles::interp::{run, ExecError, InterpConfig};

/// Seeds the coverage tests look through.
const SEEDS: u64 = 1500;

/// Every featured program parses, prints to text that parses back to the same tree,
/// lowers to a valid IR program, and together the programs use every feature: both new
/// headers and every memory, texture, vote, branch and geometry instruction the
/// generator draws.
#[test]
fn featured_programs_are_valid_and_cover_every_feature() {
    let mut seen = BTreeSet::new();
    let mut headers = BTreeSet::new();
    for index in 0..SEEDS {
        let g = generate(9, index, 40, 16).unwrap_or_else(|e| panic!("index {index}: {e}"));
        headers.insert(g.kind.header());
        let again = nv::parse(&g.text, "again.nv").expect("stamped text parses");
        assert_eq!(again, g.ast, "index {index}: print/parse round trip");
        shaderdiff_model::validate::validate(&g.lowered.program, "lowered")
            .unwrap_or_else(|e| panic!("index {index}: {e}\n{}", g.text));
        for insn in g.ast.instructions() {
            seen.insert(insn.opcode.name().to_string());
        }
    }
    for h in ["!!NVgp5.0", "!!NVcp5.0", "!!NVfp5.0", "!!NVvp5.0"] {
        assert!(headers.contains(h), "{h} never drawn: {headers:?}");
    }
    for op in [
        "LOAD", "STORE", "ATOM", "MEMBAR", "LDS", "STS", "ATOMS", "BAR", "LDC", "LDB", "STB",
        "ATOMB", "TEX", "TXB", "TXL", "TXP", "TXF", "TXQ", "TGALL", "TGANY", "TGEQ", "BRA", "EMIT",
        "EMITS", "ENDPRIM",
    ] {
        assert!(seen.contains(op), "{op} never drawn: {seen:?}");
    }
}

/// Inputs provide every resource the program names: a global region at the generator's
/// base whose length holds the compute result slots (128 bytes plus 16 bytes per result
/// TEMP and invocation), the CBUFFER (64 bytes) and STORAGE (96 bytes) bindings, a texture
/// for every unit, and geometry per-vertex inputs for every vertex of the input primitive.
#[test]
fn inputs_match_the_resources() {
    let (mut global, mut textures, mut geometry) = (0, 0, 0);
    for index in 0..400 {
        let g = generate(5, index, 30, 8).expect("valid");
        let l = &g.lowered;
        let text = &g.text;
        let uses_global = ["LOAD.", "STORE.", "ATOM."]
            .iter()
            .any(|op| text.contains(&format!("\n{op}")) || text.contains(&format!(" {op}")));
        // Compute results: r0 and t0..tk, 16 bytes each per invocation, after the global
        // region's 128 bytes or (STORAGE results, `emit/stage.rs`) the buffer's 96.
        let temps = text
            .lines()
            .find(|s| s.starts_with("TEMP t0"))
            .map_or(0, |s| s.matches('t').count());
        let slots = 16 * (1 + temps) * 8;
        let storage_results = g.kind == NvKind::NvCompute && text.contains("STB.U32X4 r0, ");
        if uses_global || (g.kind == NvKind::NvCompute && !storage_results) {
            global += 1;
            let (&base, bytes) = g.inputs.global.iter().next().expect("a region");
            assert!(base == 0x1000 || base == 0x1_0000_1000, "{base:#x}");
            if g.kind == NvKind::NvCompute {
                assert_eq!(bytes.len(), 128 + slots, "{text}");
            }
        }
        let storage_len = 96 + if storage_results { slots } else { 0 };
        for (binding, len) in [("program.buffer[", 64), ("program.storage[", storage_len)] {
            if let Some(at) = text.find(binding) {
                let name: String = text[at..].chars().take_while(|&c| c != ' ').collect();
                let (f, i) = l.names.lookup(l.stage, &name).expect("named");
                assert_eq!(g.inputs.buffers[&RegKey::new(f, i)].len(), len, "{name}");
            }
        }
        for u in 0..2 {
            if text.contains(&format!("texture[{u}]")) {
                textures += 1;
                let (f, i) = l.names.lookup(l.stage, &format!("texture[{u}]")).unwrap();
                let t = &g.inputs.textures[&RegKey::new(f, i)];
                t.check().expect("a valid texture");
            }
        }
        if let Some(v) = l.program.gs_input_vertices() {
            geometry += 1;
            for at in text.match_indices("vertex[").map(|(k, _)| k) {
                let rest = &text[at..];
                let name: String = rest.chars().take_while(|&c| c != ';').collect();
                let (file, dim, idx) = l.names.lookup_key(l.stage, &name).expect("per vertex");
                for m in 0..v {
                    let key = RegKey {
                        file,
                        dimension: Some(m),
                        index: idx,
                    };
                    assert!(
                        g.inputs.registers.contains_key(&key),
                        "{name} {dim:?} vertex {m}"
                    );
                }
            }
        }
    }
    assert!(
        global > 20 && textures > 20 && geometry > 20,
        "{global} {textures} {geometry}"
    );
}

/// BRA programs (ARB vertex programs with `OPTION NV_vertex_program2`) terminate: the oracle runs every one without memory within a step budget
/// of 100 000 instructions per invocation (counted loops run at most 4 times per entry and nest at
/// most two deep, module docs of `emit/branch.rs`), and every backward branch is the one
/// right after its counter's decrement.
#[test]
fn branch_programs_terminate() {
    let (mut n, mut ran) = (0, 0);
    for index in 0..SEEDS {
        let g = generate(6, index, 40, 8).expect("valid");
        if !g.text.contains("BRA ") {
            continue;
        }
        n += 1;
        let lines: Vec<&str> = g.text.lines().collect();
        for (k, line) in lines.iter().enumerate() {
            if let Some(target) = line.strip_prefix("BRA ").and_then(|r| r.split(' ').next()) {
                let target = target.trim_end_matches(';');
                let label = format!("{target}:");
                let at = lines.iter().position(|s| *s == label).expect("label");
                if at < k {
                    assert!(lines[k - 1].starts_with("ADDC bc"), "{}", g.text);
                    assert!(line.ends_with("(GT.x);"), "{line}");
                }
            }
        }
        if !g.inputs.global.is_empty() {
            // Memory programs need the harness's global window; the rest run alone.
            continue;
        }
        let cfg = InterpConfig {
            step_limit: 100_000,
        };
        let r = run(&g.lowered.program, &g.inputs, &cfg);
        assert!(
            !matches!(r, Err(ExecError::StepLimit { .. })),
            "index {index}: {r:?}\n{}",
            g.text
        );
        ran += 1;
    }
    assert!(n > 60 && ran > 60, "{n} BRA programs, {ran} run");
}

/// [`NvFeatures::NONE`] draws exactly the vertex and fragment ALU programs of
/// [`build_text_with`] (the libFuzzer target's programs), and the default knobs differ.
#[test]
fn no_features_keep_the_alu_streams() {
    let mut differ = 0;
    for index in 0..200 {
        let plain = build_text_with(&mut program_choices(2, index), 30, false);
        let none = build_program(&mut program_choices(2, index), 30, false, &NvFeatures::NONE);
        assert_eq!((plain.0, plain.1.as_str()), (none.kind, none.text.as_str()));
        assert_eq!(none.resources, features::Resources::default());
        let all = build_program(
            &mut program_choices(2, index),
            30,
            false,
            &NvFeatures::default(),
        );
        differ += usize::from(all.text != none.text);
    }
    assert!(differ > 150, "{differ}");
}
