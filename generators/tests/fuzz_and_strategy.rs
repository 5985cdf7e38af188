//! The libFuzzer entry (`arbitrary`) and the proptest strategies: any bytes / any decision
//! vector give a valid program with inputs that the interpreter runs; defined-only ones
//! (the fuzz default and `defined_case`) have no undefined channel.

use arbitrary::{Arbitrary, Unstructured};
use proptest::prelude::*;
use shaderdiff_generators::fuzz::FuzzProgram;
use shaderdiff_generators::strategy::{defined_case, tgsi_case};
use shaderdiff_generators::GenConfig;
use shaderdiff_oracles::interp::{self, InterpConfig};
use shaderdiff_tgsi::{parse, print_with, PrintOptions};

fn check_valid(p: &shaderdiff_model::Program) -> Result<(), TestCaseError> {
    let text = print_with(p, &PrintOptions { lossless: true });
    let q = parse(&text, "fuzz.tgsi").map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;
    prop_assert_eq!(&q, p);
    Ok(())
}

#[test]
fn empty_and_tiny_inputs_give_programs() {
    for data in [&[][..], &[0], &[1], &[0xff; 3], &[1, 0, 0, 0, 0, 0, 0, 0]] {
        let p = FuzzProgram::arbitrary_take_rest(Unstructured::new(data)).unwrap();
        assert_eq!(p, FuzzProgram::from_bytes(data));
        assert_eq!(p.inputs.invocations % 4, 0);
        interp::run(&p.program, &p.inputs, &InterpConfig::default()).unwrap();
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn any_bytes_give_a_valid_program(data in prop::collection::vec(any::<u8>(), 0..2048)) {
        let p = FuzzProgram::from_bytes(&data);
        check_valid(&p.program)?;
        let out = interp::run(&p.program, &p.inputs, &InterpConfig::default())
            .map_err(|e| TestCaseError::fail(e.to_string()))?;
        if !p.options.allow_undefined {
            prop_assert!(out.undefined.is_empty(), "undefined: {:?}", out.undefined);
        }
    }

    #[test]
    fn defined_cases_have_no_undefined_channel((p, inputs) in defined_case(600, 8)) {
        check_valid(&p)?;
        let out = interp::run(&p, &inputs, &InterpConfig::default())
            .map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert!(out.undefined.is_empty(), "undefined: {:?}", out.undefined);
    }

    #[test]
    fn default_cases_run((p, inputs) in tgsi_case(GenConfig::default(), 400, 4)) {
        check_valid(&p)?;
        prop_assert!(interp::run(&p, &inputs, &InterpConfig::default()).is_ok());
    }
}
