//! `tgsi_parse`: see `shaderdiff::fuzzing::tgsi_parse` for the property.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| shaderdiff::fuzzing::tgsi_parse(data));
