//! `inputs_json`: see `shaderdiff::fuzzing::inputs_json` for the property.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| shaderdiff::fuzzing::inputs_json(data));
