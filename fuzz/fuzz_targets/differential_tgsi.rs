//! `differential_tgsi`: see `shaderdiff::fuzzing::differential_tgsi` for the property.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| shaderdiff::fuzzing::differential_tgsi(data));
