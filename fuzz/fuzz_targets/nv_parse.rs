//! `nv_parse`: see `shaderdiff::fuzzing::nv_parse` for the property.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| shaderdiff::fuzzing::nv_parse(data));
