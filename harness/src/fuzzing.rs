//! The bodies of the libFuzzer targets in `fuzz/`: each function takes the
//! fuzzer's bytes and panics when a property fails, so the targets are one-line glue and
//! `cargo test` replays every saved crash input through the same code
//! (`harness/tests/fuzz_regressions.rs` over `fuzz/regressions/<target>/`).
//!
//! | target | property |
//! |---|---|
//! | [`tgsi_parse`] | any bytes: the TGSI parser never panics; a parsed program prints (lossless) to text that parses back to the same program, and prints again to the same text |
//! | [`nv_parse`] | any bytes: the NV assembly parser never panics; a parsed program prints to canonical text that parses back to the same program, and prints again to the same text |
//! | [`valhall_decode`] | any 8 bytes: decoding never panics; a decoded word re-encodes to itself, and its text assembles back to a word with the same text |
//! | [`inputs_json`] | any bytes: the inputs-file parser never panics; accepted inputs (for a fixed program declaring every kind of register) write back to JSON that reads back to the same inputs |
//! | [`differential_tgsi`] | any bytes → a generated program and inputs ([`FuzzProgram`]) → the oracle and every engine → comparator: no engine diverges (a divergence panics with the program and inputs printed); `SHADERDIFF_FUZZ_FAULT` switches a catalogued fault on to show the target finds it |
//! | [`differential_nv`] | any bytes → a generated NV program and inputs ([`NvFuzzProgram`]) → the lowering → the oracle and every engine → comparator: no engine diverges (a divergence panics with the NV program and its NV-keyed inputs printed; so does a generated program the lowering refuses, a generator bug); `SHADERDIFF_FUZZ_FAULT` as for `differential_tgsi` |
//! | [`reduce`] | any bytes → a program that diverges under a fault chosen by the first byte → the reducer: the reduced program validates and still shows the same signature |

use std::time::{Duration, Instant};

use shaderdiff_generators::fuzz::FuzzProgram;
use shaderdiff_generators::nv::NvFuzzProgram;
use shaderdiff_oracles::precision::NanPolicy;
use shaderdiff_tgsi::{parse, print_with, PrintOptions};

use crate::diff::{engines_from_names, Differ};

/// Engines the differential targets compare with the oracle: every engine of the build
/// (the oracle first).
const ENGINES: &[&str] = shaderdiff_backends::ENGINE_NAMES;

/// [`tgsi_parse`]'s property (see the module table).
///
/// # Panics
/// When the property fails (that is the finding).
pub fn tgsi_parse(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(p) = parse(text, "fuzz.tgsi") else {
        return;
    };
    let lossless = PrintOptions { lossless: true };
    let printed = print_with(&p, &lossless);
    let q = parse(&printed, "printed.tgsi")
        .unwrap_or_else(|e| panic!("printed program does not parse: {e}\n{printed}"));
    assert_eq!(p, q, "print/parse changed the program:\n{printed}");
    assert_eq!(print_with(&q, &lossless), printed, "printing is not stable");
}

/// [`nv_parse`]'s property (see the module table).
///
/// # Panics
/// When the property fails.
pub fn nv_parse(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(p) = shaderdiff_nv::parse(text, "fuzz.nv") else {
        return;
    };
    let printed = shaderdiff_nv::print(&p);
    let q = shaderdiff_nv::parse(&printed, "printed.nv")
        .unwrap_or_else(|e| panic!("printed program does not parse: {e}\n{printed}"));
    assert_eq!(p, q, "print/parse changed the program:\n{printed}");
    assert_eq!(shaderdiff_nv::print(&q), printed, "printing is not stable");
}

/// [`valhall_decode`]'s property (see the module table). Immediate-table entries 0 and 21
/// are both `0x0` and print alike (the assembler picks entry 0), so the text round trip
/// compares text, not bytes.
///
/// # Panics
/// When the property fails.
pub fn valhall_decode(data: &[u8]) {
    let Some(bytes) = data.get(..8) else {
        return;
    };
    let mut w = [0u8; 8];
    w.copy_from_slice(bytes);
    let Ok(instr) = shaderdiff_valhall::decode_bytes(&w) else {
        return;
    };
    let again = shaderdiff_valhall::encode_bytes(&instr)
        .unwrap_or_else(|e| panic!("{}: decoded but does not encode: {e}", hex(&w)));
    assert_eq!(again, w, "{}: re-encodes to {}", hex(&w), hex(&again));
    let text = shaderdiff_valhall::disassemble(&w)
        .unwrap_or_else(|e| panic!("{}: decoded but does not disassemble: {e}", hex(&w)));
    let asm = shaderdiff_valhall::assemble(&text)
        .unwrap_or_else(|e| panic!("{}: `{text}` does not assemble: {e}", hex(&w)));
    let text2 = shaderdiff_valhall::disassemble(&asm)
        .unwrap_or_else(|e| panic!("`{text}` assembles to {}: {e}", hex(&asm)));
    assert_eq!(text, text2, "{}: text round trip", hex(&w));
}

fn hex(w: &[u8; 8]) -> String {
    shaderdiff_valhall::format_hex(w)
}

/// The program [`inputs_json`] resolves inputs against: every register kind an inputs file
/// can name (IN, SV, 1-D and 2-D CONST, BUFFER).
const INPUTS_PROGRAM: &str = "COMP\nDCL IN[0..2]\nDCL SV[0], THREAD_ID\nDCL CONST[0..3]\n\
    DCL CONST[1][0..1]\nDCL BUFFER[0]\nDCL OUT[0]\nMOV OUT[0], IN[0]\nEND\n";

/// [`inputs_json`]'s property (see the module table).
///
/// # Panics
/// When the property fails.
pub fn inputs_json(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(doc) = crate::inputs::parse_document(text, "fuzz.json") else {
        return;
    };
    let program = match parse(INPUTS_PROGRAM, "inputs-program.tgsi") {
        Ok(p) => p,
        Err(e) => panic!("the fixed program does not parse: {e}"),
    };
    let Ok(inputs) = crate::inputs::resolve(&doc, &program, None) else {
        return;
    };
    let json = crate::inputs_json::to_json(&inputs);
    let doc2 = crate::inputs::parse_document(&json, "written.json")
        .unwrap_or_else(|e| panic!("written inputs do not parse: {e}\n{json}"));
    let again = crate::inputs::resolve(&doc2, &program, None)
        .unwrap_or_else(|e| panic!("written inputs do not resolve: {e}\n{json}"));
    assert_eq!(inputs, again, "inputs changed through JSON:\n{json}");
}

/// The differ of the differential targets, with `fault` switched on.
fn differ(fault: Option<&str>) -> Option<Differ> {
    let names: Vec<String> = ENGINES.iter().map(|s| s.to_string()).collect();
    let (engines, _) = engines_from_names(&names, 100_000, fault);
    Differ::new(engines, 100_000, NanPolicy::Any).ok()
}

/// [`differential_tgsi`]'s property (see the module table). The fault comes from the
/// environment variable `SHADERDIFF_FUZZ_FAULT` (a `shaderdiff faults` name), read once.
///
/// # Panics
/// When an engine diverges from the oracle, with the program and inputs printed.
pub fn differential_tgsi(data: &[u8]) {
    use std::sync::OnceLock;
    static DIFFER: OnceLock<Option<Differ>> = OnceLock::new();
    let fault = std::env::var("SHADERDIFF_FUZZ_FAULT").ok();
    let Some(d) = DIFFER.get_or_init(|| differ(fault.as_deref())) else {
        return;
    };
    let g = FuzzProgram::from_bytes(data);
    let diff = d.diff(&g.program, &g.inputs);
    if diff.diverged() {
        panic!(
            "{} diverged from the oracle (fault {fault:?})\n--- program ---\n{}\n--- inputs ---\n{}",
            diff.diverging().join(","),
            print_with(&g.program, &PrintOptions { lossless: true }),
            crate::inputs_json::to_json(&g.inputs)
        );
    }
}

/// [`differential_nv`]'s property (see the module table). The fault comes from the
/// environment variable `SHADERDIFF_FUZZ_FAULT`, read once.
///
/// # Panics
/// When an engine diverges from the oracle, with the NV program and inputs printed, or
/// when the generated program does not lower (a generator bug).
pub fn differential_nv(data: &[u8]) {
    use std::sync::OnceLock;
    static DIFFER: OnceLock<Option<Differ>> = OnceLock::new();
    let fault = std::env::var("SHADERDIFF_FUZZ_FAULT").ok();
    let Some(d) = DIFFER.get_or_init(|| differ(fault.as_deref())) else {
        return;
    };
    let g = match NvFuzzProgram::from_bytes(data) {
        Ok(g) => g,
        Err(e) => panic!("the NV generator made a program the front-end refuses: {e}"),
    };
    let diff = d.diff(&g.lowered.program, &g.inputs);
    if diff.diverged() {
        panic!(
            "{} diverged from the oracle (fault {fault:?})\n--- program ---\n{}\n--- inputs ---\n{}",
            diff.diverging().join(","),
            g.text,
            crate::inputs_json::to_json_nv(&g.inputs, &g.lowered.names)
        );
    }
}

/// [`reduce`]'s property (see the module table): the fault is catalogue entry
/// `data[0] % N`; the reduction gets at most 2 seconds.
///
/// # Panics
/// When the reducer returns a program that does not validate or does not show the
/// original signature.
pub fn reduce(data: &[u8]) {
    use std::collections::HashMap;
    use std::sync::{Mutex, OnceLock};
    let catalogue = shaderdiff_backends::JitEngine::new(&Default::default());
    let faults = shaderdiff_backends::Engine::faults(&catalogue);
    let Some((&first, rest)) = data.split_first() else {
        return;
    };
    if faults.is_empty() {
        return;
    }
    let fault = faults[first as usize % faults.len()].name;
    static DIFFERS: OnceLock<Mutex<HashMap<&'static str, Option<Differ>>>> = OnceLock::new();
    let map = DIFFERS.get_or_init(|| Mutex::new(HashMap::new()));
    let Ok(mut map) = map.lock() else {
        return;
    };
    let Some(d) = map
        .entry(fault)
        .or_insert_with(|| differ(Some(fault)))
        .as_ref()
    else {
        return;
    };
    let g = FuzzProgram::from_bytes(rest);
    let Some(e) = d.engine_index("jit") else {
        return;
    };
    let diff = d.diff(&g.program, &g.inputs);
    if !diff.engines.get(e).is_some_and(|o| o.outcome.diverged()) {
        return;
    }
    let opts = crate::reduce::ReduceOptions {
        deadline: Some(Instant::now() + Duration::from_secs(2)),
        ..Default::default()
    };
    let Ok(r) = crate::reduce::reduce(d, e, &g.program, &g.inputs, None, &opts) else {
        return;
    };
    let text = print_with(&r.program, &PrintOptions { lossless: true });
    if let Err(err) = shaderdiff_model::validate::validate(&r.program, "reduced.tgsi") {
        panic!("fault {fault}: the reduced program does not validate: {err}\n{text}");
    }
    let again = d.diff(&r.program, &r.inputs);
    let outcome = again.engines.get(e).map(|o| o.outcome.clone());
    let Some(o) = outcome.filter(|o| o.diverged()) else {
        panic!("fault {fault}: the reduced program no longer diverges\n{text}");
    };
    let div = crate::signature::locate(d, e, &r.program, &r.inputs, &o);
    assert_eq!(
        div.signature, r.divergence.signature,
        "fault {fault}: the reduced program shows another signature\n{text}"
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn targets_accept_trivial_inputs() {
        for data in [&b""[..], b"\0", b"VERT\nEND\n", &[0xff; 16]] {
            tgsi_parse(data);
            valhall_decode(data);
            inputs_json(data);
            differential_tgsi(data);
            differential_nv(data);
            reduce(data);
        }
        // The INTERFACE.md example word decodes and round-trips.
        valhall_decode(&[0x02, 0, 0, 0, 0, 0xc1, 0x91, 0]);
        inputs_json(
            br#"{"invocations": 2, "registers": {"IN[0]": [[1.0, 2, "0x3", -0.0], [0,0,0,0]]}}"#,
        );
    }
}
