//! `differential_nv`: see `shaderdiff::fuzzing::differential_nv` for the property.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| shaderdiff::fuzzing::differential_nv(data));
