//! Replays every saved fuzz crash input (`fuzz/regressions/<target>/*`) through the
//! target's property in `shaderdiff::fuzzing`, so a fixed
//! crash stays fixed without libFuzzer. Every directory must name a known target.

use std::path::Path;

use shaderdiff::fuzzing;

const DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../fuzz/regressions");

/// The property of fuzz target `name`.
fn target(name: &str) -> Option<fn(&[u8])> {
    Some(match name {
        "tgsi_parse" => fuzzing::tgsi_parse,
        "nv_parse" => fuzzing::nv_parse,
        "valhall_decode" => fuzzing::valhall_decode,
        "inputs_json" => fuzzing::inputs_json,
        "differential_tgsi" => fuzzing::differential_tgsi,
        "differential_nv" => fuzzing::differential_nv,
        "reduce" => fuzzing::reduce,
        _ => return None,
    })
}

#[test]
fn every_saved_crash_input_passes_its_target() {
    let mut replayed = 0;
    for entry in std::fs::read_dir(Path::new(DIR)).expect("fuzz/regressions exists") {
        let dir = entry.unwrap().path();
        if !dir.is_dir() {
            continue;
        }
        let name = dir.file_name().unwrap().to_string_lossy().into_owned();
        let run =
            target(&name).unwrap_or_else(|| panic!("fuzz/regressions/{name}: no such target"));
        for f in std::fs::read_dir(&dir).unwrap() {
            let path = f.unwrap().path();
            let data = std::fs::read(&path).unwrap();
            let result = std::panic::catch_unwind(|| run(&data));
            assert!(result.is_ok(), "{} fails again", path.display());
            replayed += 1;
        }
    }
    println!("replayed {replayed} saved fuzz inputs");
}
