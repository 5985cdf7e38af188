//! `reduce`: see `shaderdiff::fuzzing::reduce` for the property.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| shaderdiff::fuzzing::reduce(data));
