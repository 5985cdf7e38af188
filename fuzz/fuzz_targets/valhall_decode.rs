//! `valhall_decode`: see `shaderdiff::fuzzing::valhall_decode` for the property.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| shaderdiff::fuzzing::valhall_decode(data));
